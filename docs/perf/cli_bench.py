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

usage: cli_bench.py floors FILE [RUNS] [UNIMAC]
       cli_bench.py small DIR [RUNS] [UNIMAC]
  floors: the issue-24 floors on one big file: `dd bs=1M`, `b3sum`, and
          `unimac tag` with the default MACs (hash127-aes; wc-eval128,
          wc-mmh32x4 and umac128 with a counter), each also with `--threads 1`
          (one stream: a reader thread beside one hashing thread)
  small:  every file of DIR (e.g. 10 000 files of 4 KiB): `unimac tag
          hash127-aes`, `sha256sum`, `b3sum`
  Both alternate the commands in every round (default 11 rounds) and print
  median wall time and median user+sys CPU time (from wait4) per command,
  the load average before and after, and the ratios the issue asks for.
"""
import os, statistics, subprocess, sys, tempfile, time


def timed(cmd):
    """Wall time and user+sys CPU time of one run of cmd (output dropped)."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    assert os.waitstatus_to_exitcode(status) == 0, cmd
    return wall, ru.ru_utime + ru.ru_stime


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


def rounds(cmds, runs):
    """Every command once (warm-up), then `runs` alternated rounds, each
    started when the machine looks idle (waiting at most 90 s)."""
    for c in cmds.values():
        timed(c)
    res = {k: ([], []) for k in cmds}
    rounds.noisy = 0
    for _ in range(runs):
        rounds.noisy += not wait_quiet()
        for k, c in cmds.items():
            w, cpu = timed(c)
            res[k][0].append(w)
            res[k][1].append(cpu)
    return res


def table(res, ref=None):
    print(f"rounds that could not start idle: {rounds.noisy}")
    print("| command | median wall ms | min wall ms | median user+sys ms |" + (f" wall × `{ref}` (medians) | median of per-round ratios |" if ref else ""))
    print("|---|---:|---:|---:|" + ("---:|---:|" if ref else ""))
    base = statistics.median(res[ref][0]) if ref else None
    for k, (w, cpu) in res.items():
        m = statistics.median(w)
        per = statistics.median(a / b for a, b in zip(w, res[ref][0])) if ref else None
        extra = f" {m / base:.2f} | {per:.2f} |" if ref else ""
        print(f"| `{k}` | {m * 1e3:.1f} | {min(w) * 1e3:.1f} | {statistics.median(cpu) * 1e3:.1f} |{extra}")


def floors(f, runs, u):
    d = tempfile.mkdtemp()
    cmds = {"dd if=FILE of=/dev/null bs=1M": ["dd", "if=" + f, "of=/dev/null", "bs=1M", "status=none"],
            "b3sum FILE": ["b3sum", f]}
    for name, counter in [("hash127-aes", False), ("wc-eval128", True), ("wc-mmh32x4", True), ("umac128", True), ("vmac128", True)]:
        k, c = os.path.join(d, name + ".key"), os.path.join(d, name + ".ctr")
        subprocess.run([u, "keygen", name, "-o", k] + (["--counter", c] if counter else []), check=True)
        extra = ["--counter", c] if counter else []
        shown = " --counter C" if counter else ""
        cmds[f"unimac tag {name} --key-file K{shown} FILE"] = [u, "tag", name, "--key-file", k] + extra + [f]
        cmds[f"unimac --threads 1 tag {name} --key-file K{shown} FILE"] = [u, "--threads", "1", "tag", name, "--key-file", k] + extra + [f]
    l0 = os.getloadavg()
    res = rounds(cmds, runs)
    print(f"file {f}, {runs} rounds, load average {l0[0]:.2f} before, {os.getloadavg()[0]:.2f} after")
    table(res, "dd if=FILE of=/dev/null bs=1M")
    b3 = statistics.median(res["b3sum FILE"][0])
    for k, (w, _) in res.items():
        if k.startswith("unimac"):
            per = statistics.median(b / a for a, b in zip(w, res["b3sum FILE"][0]))
            print(f"{k}: b3sum / unimac = {b3 / statistics.median(w):.2f} (medians), {per:.2f} (median of per-round ratios)")


def small(dr, runs, u):
    d = tempfile.mkdtemp()
    k = os.path.join(d, "k")
    subprocess.run([u, "keygen", "hash127-aes", "-o", k], check=True)
    files = sorted(os.path.join(dr, x) for x in os.listdir(dr))
    cmds = {"unimac tag hash127-aes --key-file K -r DIR": [u, "tag", "hash127-aes", "--key-file", k, "-r", dr],
            "sha256sum DIR/*": ["sha256sum"] + files,
            "b3sum DIR/*": ["b3sum"] + files}
    l0 = os.getloadavg()
    res = rounds(cmds, runs)
    print(f"{len(files)} files in {dr}, {runs} rounds, load average {l0[0]:.2f} before, {os.getloadavg()[0]:.2f} after")
    table(res, "unimac tag hash127-aes --key-file K -r DIR")


if len(sys.argv) > 2 and sys.argv[1] in ("floors", "small"):
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 11
    u = sys.argv[4] if len(sys.argv) > 4 else "target/release/unimac"
    (floors if sys.argv[1] == "floors" else small)(sys.argv[2], runs, u)
    sys.exit(0)

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
