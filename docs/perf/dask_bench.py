#!/usr/bin/env python3
"""unimac.dask.tag_large: per-worker throughput, scheduling cost, worker memory.

usage: dask_bench.py FILE [--rounds N] [--name NAME] [--no-rss]
  FILE   e.g. 1 GiB of random bytes; read once first (into the page cache)
  N      rounds (default 5); each round runs every case once, alternating

Throughput. Each round runs, on the same bytes: Mac.tag_file in this process
(one thread: unimac.set_max_threads(1); CPU time of the calling thread, which
does all the reading and hashing), then tag_large on a LocalCluster of 1 and
of 2 worker processes (one thread each, set_max_threads(1) on the workers),
each both as it is now (every task reads its block in BLOCK_READ_BYTES
buffers and hashes as it reads) and as it was before (every task reads its
whole block into one bytes, then hashes it: "whole-block" below, a plain
f.read rather than the fsspec read of dask.bytes.read_bytes). For the
clusters the CPU time is the sum over the workers of their process CPU time
(user + system, resource.getrusage on each worker via client.run) across the
call: reading, hashing, and everything Dask does on the worker meanwhile.
Per-worker throughput = bytes / that CPU time; it is compared with the bytes
per CPU second of tag_file. The same graph is also run with each task
reporting its own thread's CPU time (the read and the hash, without what Dask
does on the worker meanwhile), and an idle worker's CPU per wall second is
measured (heartbeats, the memory monitor: a tax per second, not per byte,
which a loaded machine's slow wall clock inflates). Wall times are printed too, but on a loaded
machine only the CPU times compare. Medians over the rounds.

Scheduling cost: one empty task's round trip (submit, result; sequential),
an empty task's share in a batch of 1000 (map, gather), and tag_large of a
16 MiB file in 1024 blocks of 16 KiB against one block.

Memory: for each block size, a fresh 1-worker cluster is warmed up on a small
file, its RSS high-water mark (VmHWM) reset, then tag_large runs; printed:
the worker's VmHWM before and after, and its growth, for the streamed tasks
and the whole-block ones.
"""
import argparse
import os
import resource
import statistics
import tempfile
import time
import warnings

import dask
import unimac
import unimac.dask as ud
from distributed import Client, LocalCluster

MiB = 1 << 20


def cpu_s():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def reset_peak_rss():
    """Start the RSS high-water mark (VmHWM) afresh: "5" to clear_refs
    (Linux). Not ru_maxrss: a worker inherits its nanny's, which lives in
    this (bigger) process."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def peak_rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status")


def whole_block(spec, hk, path, offset, length, size, gran):
    """The task as it was: the whole block read into one bytes, then hashed."""
    with open(path, "rb") as f:
        f.seek(offset)
        block = f.read(length)
    end = offset + length
    last = end == size
    a = -(-offset // gran) * gran
    e = end if last else end // gran * gran
    head, mid, tail = block[: a - offset], block[a - offset : e - offset], block[e - offset :]
    partial = unimac.partial_hash(spec, bytes(hk), a, mid, last=last) if (mid or last) else None
    return head, partial, tail


def timed_stream(spec, hk, path, offset, length, size):
    """The streamed task (``unimac.dask._block_local``), with the CPU time of
    the thread that runs it (the read and the hash; the GIL is released in
    between, but the work stays on this thread)."""
    t = time.thread_time()
    out = ud._block_local(spec, hk, path, offset, length, size)
    return out, time.thread_time() - t


def tag_timed_stream(path, name, key, *, blocksize, client):
    """tag_large's graph of streamed tasks, each reporting its thread's CPU
    time: returns (tag, the tasks' CPU seconds)."""
    spec = unimac.info(name)["spec_name"]
    hk = unimac.hash_key(spec, key)
    gran = unimac.granularity(spec)
    size = os.path.getsize(path)
    ranges = ud._read_bytes_ranges(size, ud._round_blocksize(blocksize, gran))
    run = ud._run_id()
    task = dask.delayed(timed_stream, pure=True)
    tasks = [task(spec, ud._HashKey(hk), path, o, n, size, dask_key_name=f"unimac-block-{run}-{o}") for o, n in ranges]
    results = client.gather(client.compute(tasks))
    p = ud._combine_blocks(spec, hk, [r for r, _ in results], ranges, size, gran)
    return unimac.finish_mac(spec, key, p), sum(c for _, c in results)


def tag_whole_blocks(path, name, key, *, blocksize, client):
    spec = unimac.info(name)["spec_name"]
    hk = unimac.hash_key(spec, key)
    gran = unimac.granularity(spec)
    bs = ud._round_blocksize(blocksize, gran)
    size = os.path.getsize(path)
    ranges = ud._read_bytes_ranges(size, bs)
    run = ud._run_id()
    task = dask.delayed(whole_block, pure=True)
    tasks = [task(spec, ud._HashKey(hk), path, o, n, size, gran, dask_key_name=f"unimac-block-{run}-{o}") for o, n in ranges]
    futures = client.compute(tasks)
    results = client.gather(futures)
    p = ud._combine_blocks(spec, hk, results, ranges, size, gran)
    return unimac.finish_mac(spec, key, p)


def workers_cpu(client):
    return sum(client.run(cpu_s).values())


def timed_cluster(client, f):
    c0, t0 = workers_cpu(client), time.perf_counter()
    out = f()
    t1 = time.perf_counter()
    return out, t1 - t0, workers_cpu(client) - c0


def noop(*_):
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--name", default="hash127-aes")
    ap.add_argument("--blocksize", default="128 MiB")
    ap.add_argument("--no-rss", action="store_true")
    a = ap.parse_args()
    warnings.simplefilter("ignore", ud.InsecureClusterWarning)  # a local cluster, plain TCP on purpose
    path = os.path.abspath(a.file)
    size = os.path.getsize(path)
    gib = size / 2**30
    name = a.name
    key = unimac.keygen(name)
    with open(path, "rb") as f:  # into the page cache
        while f.read(64 * MiB):
            pass
    unimac.set_max_threads(1)
    want = unimac.Mac(name, key).tag_file(path)
    print(f"{name}, {size} bytes ({gib:.2f} GiB), blocksize {a.blocksize}, BLOCK_READ_BYTES {ud.BLOCK_READ_BYTES}")
    with open("/proc/loadavg") as f:
        print("load average at start:", f.read().split()[:3])

    opts = dict(processes=True, threads_per_worker=1, dashboard_address=":0", silence_logs=40)
    with LocalCluster(n_workers=1, **opts) as c1, Client(c1) as cl1, LocalCluster(n_workers=2, **opts) as c2, Client(c2) as cl2:
        clients = {1: cl1, 2: cl2}
        for cl in clients.values():
            cl.run(unimac.set_max_threads, 1)
            assert ud.tag_large(path, name, key, blocksize=a.blocksize, client=cl) == want
            assert tag_whole_blocks(path, name, key, blocksize=a.blocksize, client=cl) == want
        res = {}
        spec = unimac.info(name)["spec_name"]
        hk = unimac.hash_key(spec, key)

        def add(label, wall, cpu):
            res.setdefault(label, []).append((wall, cpu))

        for r in range(a.rounds):
            t0, c0 = time.perf_counter(), time.thread_time()
            assert unimac.Mac(name, key).tag_file(path) == want
            add("tag_file, 1 process, 1 thread", time.perf_counter() - t0, time.thread_time() - c0)
            t0, c0 = time.perf_counter(), time.thread_time()
            p = ud._unimac._partial_range(spec, hk, path, 0, size, size, ud.BLOCK_READ_BYTES)[1]
            assert unimac.finish_mac(spec, key, p) == want
            add("the task's _partial_range, in this process", time.perf_counter() - t0, time.thread_time() - c0)
            for w, cl in clients.items():
                out, wall, cpu = timed_cluster(cl, lambda: ud.tag_large(path, name, key, blocksize=a.blocksize, client=cl))
                assert out == want
                add(f"tag_large streamed, {w} worker(s)", wall, cpu)
                t0 = time.perf_counter()
                out, cpu = tag_timed_stream(path, name, key, blocksize=a.blocksize, client=cl)
                assert out == want
                add(f"streamed tasks' own thread CPU, {w} worker(s)", time.perf_counter() - t0, cpu)
                out, wall, cpu = timed_cluster(cl, lambda: tag_whole_blocks(path, name, key, blocksize=a.blocksize, client=cl))
                assert out == want
                add(f"tag_large whole-block, {w} worker(s)", wall, cpu)
        for w, cl in clients.items():
            c0, t0 = workers_cpu(cl), time.perf_counter()
            time.sleep(3)
            idle = (workers_cpu(cl) - c0) / (time.perf_counter() - t0) / w
            print(f"idle worker's own CPU ({w} worker(s)): {idle * 1e3:.1f} ms per second of wall time")
        ref = statistics.median(c for _, c in res["tag_file, 1 process, 1 thread"])
        print(f"\n| {gib:.2f} GiB, {name} | wall s (median) | CPU s (median) | GiB per CPU s | vs tag_file |")
        print("|---|---:|---:|---:|---:|")
        for label, xs in res.items():
            wall = statistics.median(x for x, _ in xs)
            cpu = statistics.median(c for _, c in xs)
            print(f"| {label} | {wall:.3f} | {cpu:.3f} | {gib / cpu:.2f} | {ref / cpu:.2f}x |")
        print("(all CPU values:", {k: [round(c, 3) for _, c in v] for k, v in res.items()}, ")")

        # Scheduling cost, on the 2-worker cluster.
        cl = cl2
        trips = []
        for i in range(200):
            t = time.perf_counter()
            cl.submit(noop, i, pure=False).result()
            trips.append(time.perf_counter() - t)
        print(f"\nempty task round trip (submit + result, sequential, 200): median {statistics.median(trips) * 1e3:.2f} ms, "
              f"min {min(trips) * 1e3:.2f} ms")
        batch = []
        for _ in range(5):
            t = time.perf_counter()
            cl.gather(cl.map(noop, range(1000), pure=False))
            batch.append((time.perf_counter() - t) / 1000)
        print(f"empty tasks in a batch of 1000 (map + gather): median {statistics.median(batch) * 1e6:.0f} us per task")
        d = tempfile.mkdtemp()
        small = os.path.join(d, "small.bin")
        with open(small, "wb") as f:
            f.write(os.urandom(16 * MiB))
        want_small = unimac.Mac(name, key).tag_file(small)
        many, one = [], []
        for _ in range(3):
            t = time.perf_counter()
            assert ud.tag_large(small, name, key, blocksize=16 * MiB, client=cl) == want_small
            one.append(time.perf_counter() - t)
            t = time.perf_counter()
            assert ud.tag_large(small, name, key, blocksize=16384, client=cl) == want_small
            many.append(time.perf_counter() - t)
        m1, mn = statistics.median(one), statistics.median(many)
        print(f"16 MiB file: 1 block {m1 * 1e3:.1f} ms, 1024 blocks of 16 KiB {mn * 1e3:.1f} ms: "
              f"{(mn - m1) / 1023 * 1e6:.0f} us per extra block")

        if not a.no_rss:
            warm = os.path.join(d, "warm.bin")
            with open(warm, "wb") as f:
                f.write(os.urandom(3 * MiB))
            print("\n| block size | tasks | 1 worker's peak RSS before -> after, streamed | growth | whole-block | growth |")
            print("|---|---:|---|---:|---|---:|")
            for bs in (MiB, 16 * MiB, 128 * MiB, size):
                row = []
                for f in (ud.tag_large, tag_whole_blocks):
                    # A fresh worker process: its RSS high-water mark starts afresh.
                    with LocalCluster(n_workers=1, **opts) as c, Client(c) as fresh:
                        fresh.run(unimac.set_max_threads, 1)
                        f(warm, name, key, blocksize=MiB, client=fresh)
                        fresh.run(reset_peak_rss)
                        (before,) = fresh.run(peak_rss_kib).values()
                        assert f(path, name, key, blocksize=bs, client=fresh) == want
                        (after,) = fresh.run(peak_rss_kib).values()
                    row.append((before / 1024, after / 1024, (after - before) / 1024))
                n = len(ud._read_bytes_ranges(size, bs))
                (sb, sa, sg), (wb, wa, wg) = row
                print(f"| {bs / MiB:.0f} MiB | {n} | {sb:.0f} -> {sa:.0f} MiB | {sg:.1f} MiB | {wb:.0f} -> {wa:.0f} MiB | {wg:.1f} MiB |")
            os.unlink(warm)
        os.unlink(small)
        os.rmdir(d)
    with open("/proc/loadavg") as f:
        print("\nload average at end:", f.read().split()[:3])


if __name__ == "__main__":
    main()
