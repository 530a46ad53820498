#!/usr/bin/env python3
"""Speed of the Python package, in one run, against its peers and Rust.

    .venv/bin/python crates/unimac-py/bench/bench.py [--rounds N]

1. Per call, a 64-byte message, medians of interleaved rounds:
   ``Mac('hash127-aes', k).tag(m)`` vs ``hmac.digest(k, m, 'sha256')`` vs
   ``blake3.blake3(m, key=k).digest()`` (pip ``blake3``, installed into the
   running environment if missing: a benchmark-only dependency).
2. 1 MiB throughput of several MACs through ``Mac.tag`` vs the Rust library
   on the same names (``unimac bench``, built with cargo if missing).

Prints the CPU and Markdown tables (docs/PERFORMANCE.md, "Python").
"""

import argparse
import hmac
import importlib
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[3]

import unimac  # noqa: E402

NAMES = ["hash127-aes", "hash127-aes-nonce", "wc-mmh32x4", "wc-nmh32", "wc-eval64", "wc-eval128", "umac64",
         "vmac64"]


def ensure_blake3():
    try:
        return importlib.import_module("blake3")
    except ImportError:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                               "blake3"])
        return importlib.import_module("blake3")


def cpu():
    model, flags = "?", set()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name") and model == "?":
                model = line.split(":", 1)[1].strip()
            elif line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    want = ["avx2", "fma", "pclmulqdq", "vpclmulqdq", "gfni", "aes", "sha_ni", "avx512f", "avx512bw", "avx512vl",
            "avx512ifma", "avx512vbmi2"]
    return model, [f for f in want if f in flags], os.cpu_count()


def per_call_ns(fns, rounds, number):
    """Median ns per call of each of `fns`, rounds interleaved."""
    times = {k: [] for k in fns}
    for _ in range(rounds):
        for k, f in fns.items():
            t = time.perf_counter_ns()
            for _ in range(number):
                f()
            times[k].append((time.perf_counter_ns() - t) / number)
    return {k: statistics.median(v) for k, v in times.items()}


def python_throughput(name, buf, rounds):
    info = unimac.info(name)
    key = unimac.keygen(name)
    nonce = bytes(range(1, info["nonce_size"] + 1)) or None
    m = unimac.Mac(name, key)
    m.tag(buf, nonce=nonce)
    ts = []
    for _ in range(rounds):
        n = 20
        t = time.perf_counter()
        for _ in range(n):
            m.tag(buf, nonce=nonce)
        ts.append((time.perf_counter() - t) / n)
    return len(buf) / statistics.median(ts) / 2 ** 30


def rust_throughput(names, millis):
    exe = ROOT / "target" / "release" / "unimac"
    if not exe.exists():
        subprocess.check_call(["cargo", "build", "--release", "-p", "unimac-cli"], cwd=ROOT)
    out = subprocess.run([str(exe), "bench", "--millis", str(millis), *["mac-" + n for n in names]],
                         capture_output=True, text=True, check=True).stdout
    got = {}
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0].startswith("mac-") and parts[0][4:] in names:
            # name, then per size "GiB/s (cyc/B)"; the 1 MiB cell is the 4th.
            vals = re.findall(r"([0-9.]+)\s*\(\s*[0-9.]+\)", line)
            got[parts[0][4:]] = float(vals[3])
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--millis", type=int, default=300, help="per cell of `unimac bench`")
    a = ap.parse_args()
    blake3 = ensure_blake3()

    model, flags, ncpu = cpu()
    print(f"CPU: {model}, {ncpu} logical CPUs; flags: {' '.join(flags)}")
    print(f"Python {platform.python_version()}, unimac {unimac.__version__}, blake3 {blake3.__version__}")
    print()

    k = os.urandom(32)
    msg = os.urandom(64)
    mac = unimac.Mac("hash127-aes", k)
    fns = {
        "unimac Mac('hash127-aes', k).tag(m)": lambda: mac.tag(msg),
        "hmac.digest(k, m, 'sha256')": lambda: hmac.digest(k, msg, "sha256"),
        "blake3.blake3(m, key=k).digest()": lambda: blake3.blake3(msg, key=k).digest(),
        "unimac.tag('hash127-aes', k, m) (key set up per call)": lambda: unimac.tag("hash127-aes", k, msg),
    }
    ns = per_call_ns(fns, a.rounds, 20000)
    base = ns["unimac Mac('hash127-aes', k).tag(m)"]
    print("| 64-byte message, per call | median ns | unimac's time ÷ this |")
    print("|---|---:|---:|")
    for k_, v in ns.items():
        print(f"| `{k_}` | {v:.0f} | {base / v:.2f} |")
    print()

    buf = os.urandom(1 << 20)
    rust = rust_throughput(NAMES, a.millis)
    print("| 1 MiB, `Mac(name, k).tag(buf)` | Python GiB/s (median) | Rust GiB/s (`unimac bench`) | Python ÷ Rust |")
    print("|---|---:|---:|---:|")
    for n in NAMES:
        py = python_throughput(n, buf, max(7, a.rounds // 3))
        r = rust.get(n)
        ratio = f"{py / r:.2f}" if r else "-"
        print(f"| {n} | {py:.2f} | {r if r is not None else '-'} | {ratio} |")


if __name__ == "__main__":
    main()
