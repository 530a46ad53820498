#!/usr/bin/env python3
"""Whole-command wall time on one big file in page cache: unimac vs openssl.

usage: cli_bench.py FILE [RUNS] [UNIMAC ...]
  FILE   e.g. 256 MiB; see docs/perf/cli.md for the page-cache kinds
  RUNS   rounds (default 5); each round runs every command once, alternating
  UNIMAC binaries to compare (default target/release/unimac), labelled [0], [1]...

Every command runs once first (warm-up, outputs of all binaries must agree),
then RUNS rounds. A round starts only when the machine looks idle (>= 90 % idle
CPU over 0.25 s, waiting at most 90 s; the table says how many rounds could not
wait for that). Prints medians, minima, the ratio of medians to openssl
Poly1305, and the median of per-round ratios (robust to drifting load).
"""
import os, statistics, subprocess, sys, tempfile, time

F = sys.argv[1]
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
US = sys.argv[3:] or ["target/release/unimac"]
K64 = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
K32 = K64[:32]
d = tempfile.mkdtemp()


def keygen(U, name, counter=False):
    k = os.path.join(d, name + ".key")
    if not os.path.exists(k):
        args = [U, "keygen", name, "-o", k]
        if counter:
            args += ["--counter", os.path.join(d, name + ".ctr")]
        subprocess.run(args, check=True)
    return k


cmds = {"openssl mac POLY1305": ["openssl", "mac", "-macopt", "hexkey:" + K64, "-in", F, "POLY1305"]}
for i, U in enumerate(US):
    t = f" [{i}]" if len(US) > 1 else ""
    cmds[f"compute hash127{t}"] = [U, "compute", "hash127", "--key", K64, F]
    cmds[f"compute tree-mmh32x2{t}"] = [U, "compute", "tree-mmh32x2", "--key", K32, F]
    cmds[f"tag hash127-aes{t}"] = [U, "tag", "hash127-aes", "--key-file", keygen(U, "hash127-aes"), F]
    k = keygen(U, "wc-mmh32x2", counter=True)
    cmds[f"tag wc-mmh32x2 --counter{t}"] = [U, "tag", "wc-mmh32x2", "--key-file", k, "--counter", os.path.join(d, "wc-mmh32x2.ctr"), F]


def idle():
    def rd():
        v = list(map(int, open("/proc/stat").readline().split()[1:]))
        return v[3] + v[4], sum(v)
    a = rd()
    time.sleep(0.25)
    b = rd()
    return (b[0] - a[0]) / max(1, b[1] - a[1])


def wait_quiet():
    t0 = time.time()
    while idle() < 0.9:
        if time.time() - t0 > 90:
            return False
        time.sleep(0.5)
    return True


outs = {}
for k, c in cmds.items():
    out = subprocess.run(c, stdout=subprocess.PIPE, check=True).stdout
    outs.setdefault(k.split(" [")[0], set()).add(out.split(b" ")[0] if k.startswith("tag wc") else out)
for k, v in outs.items():
    if not k.startswith("tag wc"):
        assert len(v) == 1, f"{k}: binaries disagree: {v}"
runs = {k: [] for k in cmds}
noisy = 0
for _ in range(RUNS):
    noisy += not wait_quiet()
    for k, c in cmds.items():
        t = time.perf_counter()
        subprocess.run(c, stdout=subprocess.DEVNULL, check=True)
        runs[k].append(time.perf_counter() - t)
base = statistics.median(runs["openssl mac POLY1305"])
poly = runs["openssl mac POLY1305"]
print(f"file {F}, {RUNS} rounds, load average {os.getloadavg()[0]:.2f}, rounds without an idle start: {noisy}")
print("| command | median ms | min ms | x Poly1305 (medians) | x Poly1305 (median of per-round ratios) |")
print("|---|---:|---:|---:|---:|")
for k, v in runs.items():
    m = statistics.median(v)
    paired = statistics.median(a / b for a, b in zip(v, poly))
    print(f"| `{k}` | {m * 1e3:.1f} | {min(v) * 1e3:.1f} | {m / base:.2f} | {paired:.2f} |")
