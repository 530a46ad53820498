"""unimac.Counter: the CLI's crash-safe nonce counter file."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import unimac


def test_counts_and_persists(tmp_path):
    path = tmp_path / "n.ctr"
    c = unimac.Counter.create(path)
    assert path.read_text() == "0\n"
    assert os.stat(path).st_mode & 0o777 == 0o600
    got = [c.next() for _ in range(5)]
    assert got == [i.to_bytes(16, "little") for i in range(5)]
    assert path.read_text() == "5\n" and c.peek() == 5
    assert unimac.Counter(str(path)).next() == (5).to_bytes(16, "little")
    assert c.reserve(10) == 6 and c.peek() == 16
    with pytest.raises(OSError):
        unimac.Counter.create(path)  # never overwrites
    assert path.read_text() == "16\n"


def test_vmac_nonces_are_big_endian(tmp_path):
    c = unimac.Counter.create(tmp_path / "v.ctr", name="vmac64")
    c.next()
    n = c.next()
    assert n == (1).to_bytes(16, "big")
    key = unimac.keygen("vmac64")
    unimac.Mac("vmac64", key).tag(b"x", nonce=n)


def test_same_file_as_the_cli(cli, tmp_path):
    key, ctr = tmp_path / "k", tmp_path / "c"
    subprocess.run([cli, "keygen", "wc-mmh32x4", "-o", str(key), "--counter", str(ctr)], check=True)
    c = unimac.Counter(ctr)
    assert c.next() == bytes(16)
    f = tmp_path / "f"
    f.write_bytes(b"hello")
    r = subprocess.run([cli, "tag", "wc-mmh32x4", "--key-file", str(key), "--counter", str(ctr), str(f)],
                       capture_output=True, text=True, check=True)
    nonce_hex, tag_hex = r.stdout.split()[0].split(":")
    assert bytes.fromhex(nonce_hex) == (1).to_bytes(16, "little")
    k = bytes.fromhex(key.read_text().split()[-1])
    assert unimac.Mac("wc-mmh32x4", k).tag(b"hello", nonce=bytes.fromhex(nonce_hex)).hex() == tag_hex
    assert c.next() == (2).to_bytes(16, "little")


def test_bad_counter_files(tmp_path):
    p = tmp_path / "c"
    for bad in (b"", b"12", b"x\n", b"-1\n", b"1 \n", b"1\n\n", b"9" * 40 + b"\n"):
        p.write_bytes(bad)
        with pytest.raises(ValueError, match="corrupt"):
            unimac.Counter(p).next()
        assert p.read_bytes() == bad
    p.write_bytes(b"%d\n" % (2 ** 128 - 1))
    with pytest.raises(ValueError, match="exhausted"):
        unimac.Counter(p).next()
    with pytest.raises(OSError, match="cannot open counter file"):
        unimac.Counter(tmp_path / "missing").next()
    p.write_bytes(b"3\n")
    os.chmod(p, 0o400)
    with pytest.raises(OSError, match="read-only"):
        unimac.Counter(p).next()
    assert p.read_bytes() == b"3\n"


CHILD = textwrap.dedent("""
    import sys, unimac
    c = unimac.Counter(sys.argv[1])
    while True:
        n = c.next()
        sys.stdout.write(n.hex() + "\\n")
        sys.stdout.flush()
""")


def test_survives_kill_9_without_reusing_a_nonce(tmp_path):
    path = tmp_path / "n.ctr"
    unimac.Counter.create(path)
    seen = []
    for round_ in range(3):
        p = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True)
        lines = []
        t0 = time.monotonic()
        while len(lines) < 50 + 37 * round_ and time.monotonic() - t0 < 60:
            line = p.stdout.readline()
            if not line:
                break
            lines.append(line)
        os.kill(p.pid, signal.SIGKILL)  # mid-loop, at a random point of a reservation
        p.wait()
        lines += p.stdout.read().splitlines(keepends=True)
        p.stdout.close()
        assert p.returncode == -signal.SIGKILL
        printed = [int.from_bytes(bytes.fromhex(x.strip()), "little") for x in lines if x.strip()]
        assert len(printed) >= 50
        assert printed == sorted(set(printed)), "no nonce twice, in order"
        assert not set(printed) & set(seen), "no nonce of an earlier run"
        seen += printed
        nxt = int.from_bytes(unimac.Counter(path).next(), "little")
        assert nxt > max(seen)
        seen.append(nxt)
    leftovers = [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
    assert leftovers == [], "temporary files of killed runs are removed"
