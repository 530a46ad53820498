"""unimac.Counter: the CLI's crash-safe nonce counter file, bound to one MAC and
one key."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import unimac


def header(directory, name, key):
    """The binding line of a counter file made for ``name`` under ``key``."""
    p = directory / f"header-{len(list(directory.iterdir()))}"
    unimac.Counter.create(p, name, key)
    line = p.read_text().splitlines(keepends=True)[0]
    p.unlink()
    return line


def test_counts_and_persists(tmp_path):
    path = tmp_path / "n.ctr"
    key = unimac.keygen("wc-eval128")
    c = unimac.Counter.create(path, "wc-eval128", key)
    first, value = path.read_text().splitlines()
    magic, name, fingerprint = first.split(" ")
    assert (magic, name, value) == ("unimac-counter", "wc-eval128", "0")
    assert len(fingerprint) == 32 and int(fingerprint, 16) >= 0
    assert key.hex() not in path.read_text() and key[:8].hex() not in fingerprint
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert c.name == "wc-eval128" and c.path == path
    got = [c.next() for _ in range(5)]
    assert got == [i.to_bytes(16, "little") for i in range(5)]
    assert path.read_text() == first + "\n5\n" and c.peek() == 5
    assert unimac.Counter(str(path), "wc-eval128", key).next() == (5).to_bytes(16, "little")
    assert c.reserve(10) == 6 and c.peek() == 16
    with pytest.raises(OSError, match="already exists; not overwriting it"):
        unimac.Counter.create(path, "wc-eval128", key)  # never overwrites
    assert path.read_text() == first + "\n16\n"
    with pytest.raises(ValueError, match="count must be at least 1"):
        c.reserve(0)
    assert c.peek() == 16


def test_fingerprint_depends_on_mac_and_key(tmp_path):
    k = unimac.keygen("wc-eval128")
    assert header(tmp_path, "wc-eval128", k) == header(tmp_path, "wc-eval128", k)
    assert header(tmp_path, "wc-eval128", k) != header(tmp_path, "wc-eval128", unimac.keygen("wc-eval128"))
    assert header(tmp_path, "wc-eval128", k).split()[2] != header(tmp_path, "wc-mmh32x4", k).split()[2]


def test_vmac_nonces_are_big_endian(tmp_path):
    key = unimac.keygen("vmac64")
    c = unimac.Counter.create(tmp_path / "v.ctr", "vmac64", key)
    assert c.next() == bytes(16)
    n = c.next()
    assert n == (1).to_bytes(16, "big")
    m = unimac.Mac("vmac64", key)
    t = m.tag(b"x", nonce=n, caller_manages_nonces=True)
    m.verify(b"x", t, nonce=n)


def test_vmac_counter_stops_before_the_top_bit(tmp_path):
    """VMAC reserves 16-byte nonces with the top bit set: the counter's last
    nonce is 2^127 - 1, then it refuses."""
    key = unimac.keygen("vmac128")
    p = tmp_path / "v.ctr"
    c = unimac.Counter.create(p, "vmac128", key)
    first = p.read_text().splitlines()[0]
    p.write_text(f"{first}\n{2 ** 127 - 1}\n")
    n = c.next()
    assert n == (2 ** 127 - 1).to_bytes(16, "big") and n[0] == 0x7F
    unimac.Mac("vmac128", key).tag(b"x", nonce=n, caller_manages_nonces=True)
    with pytest.raises(ValueError, match="does not fit its nonce"):
        c.next()


def test_same_file_as_the_cli(cli, tmp_path):
    key, ctr = tmp_path / "k", tmp_path / "c"
    subprocess.run([cli, "keygen", "wc-mmh32x4", "-o", str(key), "--counter", str(ctr)], check=True)
    k = bytes.fromhex(key.read_text().split()[-1])
    c = unimac.Counter(ctr, "wc-mmh32x4", k)
    assert c.next() == bytes(16)
    f = tmp_path / "f"
    f.write_bytes(b"hello")
    r = subprocess.run([cli, "tag", "wc-mmh32x4", "--key-file", str(key), "--counter", str(ctr), str(f)],
                       capture_output=True, text=True, check=True)
    nonce_hex, tag_hex = r.stdout.split()[0].split(":")
    assert bytes.fromhex(nonce_hex) == (1).to_bytes(16, "little")
    assert unimac.Mac("wc-mmh32x4", k).tag(b"hello", nonce=bytes.fromhex(nonce_hex), caller_manages_nonces=True).hex() == tag_hex
    assert c.next() == (2).to_bytes(16, "little")
    # The CLI's file is bound to its key: another key is refused here too.
    with pytest.raises(ValueError, match="belongs to another wc-mmh32x4 key"):
        unimac.Counter(ctr, "wc-mmh32x4", unimac.keygen("wc-mmh32x4"))
    # And a counter made here is one the CLI takes with that key.
    ctr2 = tmp_path / "c2"
    unimac.Counter.create(ctr2, "wc-mmh32x4", k).reserve(7)
    r = subprocess.run([cli, "tag", "wc-mmh32x4", "--key-file", str(key), "--counter", str(ctr2), str(f)],
                       capture_output=True, text=True, check=True)
    assert r.stdout.split()[0].split(":")[0] == (7).to_bytes(16, "little").hex()


def test_bad_counter_files(tmp_path):
    p = tmp_path / "c"
    key = unimac.keygen("wc-eval128")
    head = header(tmp_path, "wc-eval128", key).encode()
    for bad in (b"", b"12", b"x\n", b"-1\n", b"1 \n", b"1\n\n", b"9" * 40 + b"\n"):
        p.write_bytes(head + bad)
        with pytest.raises(ValueError, match="corrupt"):
            unimac.Counter(p, "wc-eval128", key)  # checked when opened
        assert p.read_bytes() == head + bad
    p.write_bytes(head + b"%d\n" % (2 ** 128 - 1))
    c = unimac.Counter(p, "wc-eval128", key)
    with pytest.raises(ValueError, match="exhausted"):
        c.next()
    assert c.peek() == 2 ** 128 - 1
    with pytest.raises(OSError, match="cannot open counter file"):
        unimac.Counter(tmp_path / "missing", "wc-eval128", key)  # at construction
    assert not (tmp_path / "missing").exists()
    p.write_bytes(head + b"3\n")
    c = unimac.Counter(p, "wc-eval128", key)
    os.chmod(p, 0o400)
    with pytest.raises(OSError, match="read-only"):
        c.next()
    assert p.read_bytes() == head + b"3\n"


def test_unbound_and_foreign_counter_files_are_refused(tmp_path):
    """A file without the binding line (the old format, or a counter rolled
    back by hand to "0"), or one bound to another key or MAC, gives no
    nonce and is left as it was."""
    key = unimac.keygen("wc-eval128")
    p = tmp_path / "c"
    for bare in (b"0\n", b"41\n"):
        p.write_bytes(bare)
        with pytest.raises(ValueError, match="not bound to a key"):
            unimac.Counter(p, "wc-eval128", key)
        assert p.read_bytes() == bare
    p.unlink()
    unimac.Counter.create(p, "wc-eval128", key).reserve(3)
    text = p.read_bytes()
    with pytest.raises(ValueError, match="belongs to another wc-eval128 key"):
        unimac.Counter(p, "wc-eval128", unimac.keygen("wc-eval128"))
    with pytest.raises(ValueError, match="bound to wc-eval128, not wc-mmh32x4"):
        unimac.Counter(p, "wc-mmh32x4", key)
    assert p.read_bytes() == text


def test_counter_needs_a_nonce_mac_and_its_key(tmp_path):
    p = tmp_path / "c"
    with pytest.raises(TypeError, match="name"):
        unimac.Counter.create(p)
    with pytest.raises(TypeError, match="key"):
        unimac.Counter.create(p, "wc-eval128")
    for name in ("hash127-aes", "shoup4-eval64", "hash127"):
        with pytest.raises(ValueError, match=f"^{name} takes no nonce; a counter is for nonce MACs$"):
            unimac.Counter.create(p, name, unimac.keygen(name))
    with pytest.raises(ValueError, match="wc-eval128: key must be 32 bytes, got 5"):
        unimac.Counter.create(p, "wc-eval128", bytes(5))
    with pytest.raises(ValueError, match="unknown MAC"):
        unimac.Counter.create(p, "wc-eval12", bytes(32))
    assert not p.exists()  # nothing was created by a refused call


CHILD = textwrap.dedent("""
    import sys, unimac
    c = unimac.Counter(sys.argv[1], "wc-eval128", bytes.fromhex(sys.argv[2]))
    while True:
        n = c.next()
        sys.stdout.write(n.hex() + "\\n")
        sys.stdout.flush()
""")


def test_survives_kill_9_without_reusing_a_nonce(tmp_path):
    path = tmp_path / "n.ctr"
    key = unimac.keygen("wc-eval128")
    unimac.Counter.create(path, "wc-eval128", key)
    seen = []
    for round_ in range(3):
        p = subprocess.Popen([sys.executable, "-c", CHILD, str(path), key.hex()], stdout=subprocess.PIPE, text=True)
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
        nxt = int.from_bytes(unimac.Counter(path, "wc-eval128", key).next(), "little")
        assert nxt > max(seen)
        seen.append(nxt)
    leftovers = [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
    assert leftovers == [], "temporary files of killed runs are removed"
