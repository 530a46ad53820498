#!/usr/bin/env python3
"""Two threads against one: what releasing the GIL buys, measured.

    .venv/bin/python crates/unimac-py/bench/gil_parallel.py [--mib N]

Two threads each tag their own buffer of N MiB (default 256) with
``wc-sqh128-e``, against one thread tagging both; and the same for
``partial_hash('hash127-aes')`` and for hashlib's SHA-256 (which releases the
GIL too: the reference for what this machine gives two threads now). Prints
parallel/serial time, best of 3 per attempt over several attempts: 0.5 is
two-way parallelism, 1.0 none.

That the GIL is released at all is a test (tests/test_api.py
``test_gil_is_released_for_large_inputs``, tests/test_partial.py
``test_python_runs_while_a_partial_is_hashed``); the ratio depends on the
machine and its load, so it is measured here, not asserted. ``wc-sqh128-e``
(about 6.6 GiB/s on one Zen 5 core) is used because two threads of it need
less than the memory gives two cores; ``hash127-aes`` at about 18 GiB/s per
core would measure the memory bus (docs/PERFORMANCE.md, Multi-core).
"""

import argparse
import hashlib
import itertools
import os
import threading
import time

import unimac


def parallel_ratio(work, bufs, attempts=8):
    """Best over `attempts` of (two threads, one buffer each) / (one thread,
    both buffers), each time the best of 3."""

    def serial():
        t = time.perf_counter()
        for b in bufs:
            work(b)
        return time.perf_counter() - t

    def parallel():
        ts = [threading.Thread(target=work, args=(b,)) for b in bufs]
        t = time.perf_counter()
        for x in ts:
            x.start()
        for x in ts:
            x.join()
        return time.perf_counter() - t

    work(bufs[0][: 1 << 20])
    best = float("inf")
    for _ in range(attempts):
        best = min(best, min(parallel() for _ in range(3)) / min(serial() for _ in range(3)))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=256, help="MiB per thread (default 256)")
    ap.add_argument("--attempts", type=int, default=8)
    args = ap.parse_args()
    bufs = [bytearray(os.urandom(1 << 20)) * args.mib for _ in range(2)]
    # One thread per call: the ratio then measures the GIL, not the
    # library's own splitting of long inputs.
    unimac.set_max_threads(1)

    m = unimac.Mac("wc-sqh128-e", unimac.keygen("wc-sqh128-e"))
    nonces = itertools.count(1)
    lock = threading.Lock()

    def tag(b):
        # A fresh nonce for every message, as the MAC requires.
        with lock:
            n = next(nonces).to_bytes(16, "little")
        return m.tag(b, nonce=n)

    hk = unimac.hash_key("hash127-aes", bytes(32))
    rows = [
        ("Mac('wc-sqh128-e').tag", tag),
        ("partial_hash('hash127-aes')", lambda b: unimac.partial_hash("hash127-aes", hk, 0, b, last=False)),
        ("hashlib.sha256 (reference)", lambda b: hashlib.sha256(b).digest()),
    ]
    print(f"cores: {os.cpu_count()}, {args.mib} MiB per thread")
    print("| call | two threads / one thread |")
    print("| --- | ---: |")
    for name, work in rows:
        print(f"| {name} | {parallel_ratio(work, bufs, args.attempts):.2f} |")


if __name__ == "__main__":
    main()
