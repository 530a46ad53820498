#!/usr/bin/env python3
"""Speed of the Python package, in one run, against its peers and Rust.

    .venv/bin/python crates/unimac-py/bench/bench.py [--rounds N]

1. Per call, a 64-byte message, medians of interleaved rounds:
   ``Mac('hash127-aes', k).tag(m)`` vs ``hmac.digest(k, m, 'sha256')`` vs
   ``blake3.blake3(m, key=k).digest()`` (pip ``blake3``, installed into the
   running environment if missing: a benchmark-only dependency).
2. 1 MiB throughput of several MACs through ``Mac.tag`` vs the Rust library
   on the same names (``unimac-bench``, built with cargo if missing).

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
            "avx512dq", "avx512ifma", "avx512vbmi", "avx512_vbmi2"]
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


def python_once(m, buf, nonce, millis):
    """GiB/s of `m.tag(buf)`, repeated for about `millis` ms (as `unimac-bench` does per cell)."""
    n, t0 = 0, time.perf_counter()
    while True:
        m.tag(buf, nonce=nonce)
        n += 1
        el = time.perf_counter() - t0
        if el * 1000 >= millis:
            return len(buf) * n / el / 2 ** 30


def rust_once(names, millis):
    """GiB/s at 1 MiB of each name from one `unimac-bench` run."""
    exe = ROOT / "target" / "release" / "unimac-bench"
    if not exe.exists():
        subprocess.check_call(["cargo", "build", "--release", "-p", "unimac-bench"], cwd=ROOT)
    out = subprocess.run([str(exe), "--millis", str(millis), *["mac-" + n for n in names]],
                         capture_output=True, text=True, check=True).stdout
    got = {}
    col = None
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "name":
            # The header names the sizes, each a "GiB/s (cycles/byte)" cell below.
            col = re.findall(r"(\d+ (?:B|KiB|MiB))", line).index("1 MiB")
        elif parts and parts[0].startswith("mac-") and parts[0][4:] in names:
            vals = re.findall(r"([0-9.]+)\s*\(\s*[0-9.]+\)", line)
            got[parts[0][4:]] = float(vals[col])
    return got


def throughput(names, rounds, millis):
    """Medians over `rounds` of alternating Rust and Python measurements."""
    buf = os.urandom(1 << 20)
    macs = {}
    for n in names:
        info = unimac.info(n)
        # A caller nonce only where the MAC takes one (shoup4-* draws its own
        # pair); one fixed nonce is fine here: the tags are thrown away.
        nonce = bytes(range(1, info["nonce_size"] + 1)) if info["nonce"] else None
        m = unimac.Mac(n, unimac.keygen(n))
        m.tag(buf, nonce=nonce)
        macs[n] = (m, nonce)
    py = {n: [] for n in names}
    rust = {n: [] for n in names}
    for _ in range(rounds):
        for n, v in rust_once(names, millis).items():
            rust[n].append(v)
        for n in names:
            m, nonce = macs[n]
            py[n].append(python_once(m, buf, nonce, millis))
    return {n: (statistics.median(py[n]), statistics.median(rust[n]) if rust[n] else None) for n in names}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--millis", type=int, default=300, help="per cell of `unimac-bench`")
    ap.add_argument("--names", nargs="*", default=NAMES, help="MACs for the 1 MiB table")
    a = ap.parse_args()
    for n in a.names:
        try:
            i = unimac.info(n)
        except ValueError as e:
            ap.error(str(e))
        if not i["mac"]:
            ap.error(f"{n}: --names takes MACs (Mac(name, k).tag), not hashes")
        if i["one_time"]:
            ap.error(f"{n}: a one-time MAC tags once, through unimac.OneTimeKey: not timed by Mac(name, k).tag")
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

    res = throughput(a.names, max(5, a.rounds // 4), a.millis)
    print("| 1 MiB, `Mac(name, k).tag(buf)` | Python GiB/s | Rust GiB/s (`unimac-bench`) | Python ÷ Rust |")
    print("|---|---:|---:|---:|")
    for n, (py, r) in res.items():
        ratio = f"{py / r:.2f}" if r else "-"
        print(f"| {n} | {py:.2f} | {f'{r:.2f}' if r is not None else '-'} | {ratio} |")


if __name__ == "__main__":
    main()
