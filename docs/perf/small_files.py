#!/usr/bin/env python3
"""Many small files: `unimac tag -k K -r DIR` beside `find DIR -type f |
xargs b3sum` and `find DIR -type f | xargs sha256sum`, alternated in every
round; median and minimum wall time, median user+sys CPU (from wait4),
files per second.

usage: small_files.py DIR KEY [RUNS] UNIMAC [UNIMAC...]
  DIR   e.g. 10 subdirectories of 1 000 files of 4 KiB each, in the page cache
  KEY   a key file ('unimac keygen hash127-aes -o KEY')
  RUNS  rounds (default 11); every command runs once first (warm-up)
  UNIMAC the binaries to compare (e.g. before and after a change)
"""
import os, statistics, subprocess, sys, time


def timed(cmd):
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    assert os.waitstatus_to_exitcode(status) == 0, cmd
    return wall, ru.ru_utime + ru.ru_stime


d, key = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3])
us = sys.argv[4:]
n = sum(len(f) for _, _, f in os.walk(d))
cmds = {}
for i, u in enumerate(us):
    cmds[f"[{i}] unimac tag -k K -r DIR"] = [u, "tag", "-k", key, "-r", d]
cmds["find DIR -type f | xargs b3sum"] = ["sh", "-c", f"find '{d}' -type f | xargs b3sum"]
cmds["find DIR -type f | xargs sha256sum"] = ["sh", "-c", f"find '{d}' -type f | xargs sha256sum"]
for c in cmds.values():
    timed(c)
res = {k: ([], []) for k in cmds}
l0 = os.getloadavg()[0]
for _ in range(runs):
    for k, c in cmds.items():
        w, cpu = timed(c)
        res[k][0].append(w)
        res[k][1].append(cpu)
print(f"{n} files in {d}, {runs} rounds, load average {l0:.2f} before, {os.getloadavg()[0]:.2f} after")
print("| command | median wall ms | min wall ms | median user+sys ms | files/s (median) | b3sum ÷ it | sha256sum ÷ it |")
print("|---|---:|---:|---:|---:|---:|---:|")
b3 = statistics.median(res["find DIR -type f | xargs b3sum"][0])
sha = statistics.median(res["find DIR -type f | xargs sha256sum"][0])
for k, (w, cpu) in res.items():
    m = statistics.median(w)
    print(f"| `{k}` | {m * 1e3:.1f} | {min(w) * 1e3:.1f} | {statistics.median(cpu) * 1e3:.1f} | {n / m:,.0f} | {b3 / m:.2f} | {sha / m:.2f} |")
