#!/usr/bin/env python3
"""Wall time to tag one file in page cache: unimac tag vs openssl mac.

usage: mac_bench.py FILE [RUNS]   (FILE e.g. 256 MiB from /dev/urandom)
Runs every command once to warm the page cache, then RUNS rounds in which the
commands alternate; prints medians as a Markdown table.
"""
import os, statistics, subprocess, sys, tempfile, time

U = os.environ.get("UNIMAC", "target/release/unimac")
F = sys.argv[1]
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
d = tempfile.mkdtemp()
key32 = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"


def keygen(name, counter=False):
    k = os.path.join(d, name + ".key")
    args = [U, "keygen", name, "-o", k]
    if counter:
        args += ["--counter", os.path.join(d, name + ".ctr")]
    subprocess.run(args, check=True)
    return k


cmds = {
    "openssl mac POLY1305": ["openssl", "mac", "-macopt", "hexkey:" + key32, "-in", F, "POLY1305"],
    "openssl mac HMAC-SHA256": ["openssl", "mac", "-digest", "SHA256", "-macopt", "hexkey:" + key32, "-in", F, "HMAC"],
    "unimac tag hash127-aes": [U, "tag", "hash127-aes", "--key-file", keygen("hash127-aes"), F],
}
for name in ["hash127-aes-nonce", "wc-mmh32x2", "wc-mmh32x1", "wc-nmh32", "wc-mmh64", "wc-sqh64-e", "wc-eval64", "wc-gdivision64"]:
    try:
        k = keygen(name, counter=True)
    except subprocess.CalledProcessError:
        continue
    cmds[f"unimac tag {name} --counter"] = [U, "tag", name, "--key-file", k, "--counter", os.path.join(d, name + ".ctr"), F]

runs = {k: [] for k in cmds}
for c in cmds.values():
    subprocess.run(c, stdout=subprocess.DEVNULL, check=True)
for _ in range(RUNS):
    for k, c in cmds.items():
        t = time.perf_counter()
        subprocess.run(c, stdout=subprocess.DEVNULL, check=True)
        runs[k].append(time.perf_counter() - t)
size = os.path.getsize(F)
base = statistics.median(runs["openssl mac POLY1305"])
poly = runs["openssl mac POLY1305"]
print(f"| command | median wall (ms) | min (ms) | GiB/s (median) | x Poly1305 (medians) | x Poly1305 (median of per-round ratios) |")
print("|---|---:|---:|---:|---:|---:|")
for k, v in runs.items():
    m = statistics.median(v)
    paired = statistics.median(a / b for a, b in zip(v, poly))
    print(f"| `{k}` | {m * 1e3:.1f} | {min(v) * 1e3:.1f} | {size / m / 2**30:.2f} | {m / base:.2f} | {paired:.2f} |")
