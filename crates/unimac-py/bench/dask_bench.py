"""unimac.dask timings for docs/PERFORMANCE.md ("Dask").

    python crates/unimac-py/bench/dask_bench.py FILE [--cli target/release/unimac]

tag_large of FILE with 2 workers and with 1 worker (LocalCluster, processes,
one thread each), the single-process tag (Mac.tag_file) and the CLI; the
scheduler's cost per task (many tiny chunks); the client's cost per
partial_combine + partial_hash of a glue granule. The file should be in the
page cache (it is read once before timing).
"""

import argparse
import os
import subprocess
import time

import unimac
import unimac.dask as ud
from distributed import Client, LocalCluster

NAME = "hash127-aes"


def best(f, n=3):
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        out = f()
        ts.append(time.perf_counter() - t)
    return min(ts), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--cli", default="target/release/unimac")
    ap.add_argument("--blocksize", default="128 MiB")
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    size = os.path.getsize(a.file)
    gib = size / 2**30
    key = unimac.keygen(NAME)
    keyfile = a.file + ".key"
    with open(keyfile, "w") as f:  # the CLI's key file
        f.write(f"unimac-key {NAME}\n{key.hex()}\n")
    with open(a.file, "rb") as f:  # into the page cache
        while f.read(64 << 20):
            pass
    want = unimac.Mac(NAME, key).tag_file(a.file)

    t, _ = best(lambda: unimac.Mac(NAME, key).tag_file(a.file), a.repeat)
    print(f"single process Mac.tag_file (all cores): {t:.3f} s, {gib / t:.2f} GiB/s")
    unimac.set_max_threads(1)
    t, _ = best(lambda: unimac.Mac(NAME, key).tag_file(a.file), a.repeat)
    unimac.set_max_threads(0)
    print(f"single process Mac.tag_file (1 thread): {t:.3f} s, {gib / t:.2f} GiB/s")

    if os.path.exists(a.cli):
        for threads in ("0", "1"):
            cmd = [a.cli, "tag", NAME, "--key-file", keyfile, "--threads", threads, a.file]
            t, r = best(lambda: subprocess.run(cmd, capture_output=True, text=True), a.repeat)
            ok = r.returncode == 0 and r.stdout.split()[0] == want.hex()
            print(f"CLI unimac tag --threads {threads}: {t:.3f} s, {gib / t:.2f} GiB/s (same tag: {ok})")

    for workers in (2, 1):
        with LocalCluster(n_workers=workers, processes=True, threads_per_worker=1, dashboard_address=":0") as c, Client(c) as cl:
            cl.run(unimac.set_max_threads, 1)  # one core per worker
            t, tag = best(lambda: ud.tag_large(a.file, NAME, key, blocksize=a.blocksize, client=cl), a.repeat)
            assert tag == want
            print(f"tag_large, {workers} worker(s), blocksize {a.blocksize}: {t:.3f} s, {gib / t:.2f} GiB/s")
            if workers == 2:
                small = a.file + ".small"
                with open(small, "wb") as f:
                    f.write(os.urandom(16 << 20))
                for bs in (4096, 16384):
                    n = (16 << 20) // bs
                    t, _ = best(lambda: ud.tag_large(small, NAME, key, blocksize=bs, client=cl), 2)
                    print(f"scheduler: {n} chunks of {bs} B on 2 workers: {t:.3f} s, {t / n * 1e6:.0f} us per chunk")
                os.unlink(small)

    # The client's share: one partial_combine per partial (and a glue granule).
    hk = unimac.hash_key(NAME, key)
    ps = [unimac.partial_hash(NAME, hk, i * 4096, bytes(4096), last=False) for i in range(20000)]
    t = time.perf_counter()
    acc = ps[0]
    for p in ps[1:]:
        acc = unimac.partial_combine(acc, p)
    t = time.perf_counter() - t
    print(f"client: partial_combine {t / (len(ps) - 1) * 1e6:.2f} us per partial; partial size {len(ps[0])} B")
    t = time.perf_counter()
    for i in range(20000):
        unimac.partial_hash(NAME, hk, i * 4, bytes(4), last=False)
    t = time.perf_counter() - t
    print(f"client: partial_hash of a 4-byte glue granule {t / 20000 * 1e6:.2f} us")
    os.unlink(keyfile)


if __name__ == "__main__":
    main()
