"""unimac.new's hmac.new order, OSErrors with errno and filename, the type
stubs, and the CLI's files from Python: key files (load_key / save_key) and
check lines (format_check_line / parse_check_line / verify_check_file),
checked against the `unimac` binary."""

import ast
import errno
import os
import pathlib
import re
import stat
import subprocess

import pytest

import unimac

PKG = pathlib.Path(unimac.__file__).resolve().parent


# ---------------------------------------------------------------------------
# unimac.new(name, key, data=b"", *, nonce=None)
# ---------------------------------------------------------------------------


def test_new_takes_data_third_and_nonce_by_keyword():
    key, msg, nonce = bytes(range(32)), b"sixteen byte msg", (7).to_bytes(16, "little")
    want = unimac.tag("wc-mmh32x4", key, msg, nonce=nonce, caller_manages_nonces=True)
    assert unimac.new("wc-mmh32x4", key, msg, nonce=nonce, caller_manages_nonces=True).digest() == want
    assert unimac.new("wc-mmh32x4", key, data=msg, nonce=nonce, caller_manages_nonces=True).digest() == want
    h = unimac.new("wc-mmh32x4", key, msg[:5], nonce=nonce, caller_manages_nonces=True)
    h.update(msg[5:])
    assert h.digest() == want
    # The third positional argument is data, not a nonce: without one, a
    # nonce MAC refuses; a fourth positional argument is refused.
    with pytest.raises(ValueError, match="nonce"):
        unimac.new("wc-mmh32x4", key, msg).digest()
    with pytest.raises(TypeError):
        unimac.new("wc-mmh32x4", key, msg, nonce)
    # hmac.new's habit on a MAC without a nonce.
    k2 = bytes(32)
    assert unimac.new("hash127-aes", k2, b"attack at dawn").digest() == unimac.tag("hash127-aes", k2, b"attack at dawn")
    assert unimac.new("hash127-aes", k2, memoryview(b"xabc")[1:]).digest() == unimac.tag("hash127-aes", k2, b"abc")
    assert unimac.new("eval64", bytes(8), b"abc").digest() == unimac.compute("eval64", bytes(8), b"abc")
    with pytest.raises(TypeError):
        unimac.new("hash127-aes", k2, "str data")


def test_digest_repeats_and_update_after_it_raises_for_a_nonce_mac():
    for name, kw in (("hash127-aes", {}), ("wc-mmh32x4", {"nonce": bytes(16), "caller_manages_nonces": True})):
        h = unimac.new(name, bytes(32), b"m", **kw)
        d = h.digest()
        assert h.digest() == d and h.hexdigest() == d.hex()
        if kw:
            with pytest.raises(ValueError):
                h.update(b"more")
            assert h.digest() == d
        else:  # stateless: goes on, as hashlib (test_habits.py)
            h.update(b"more")
            assert h.digest() == unimac.tag(name, bytes(32), b"mmore")
    assert "ValueError" in unimac.new.__doc__ and "update" in unimac.UnimacHash.update.__doc__


# ---------------------------------------------------------------------------
# OSError subclasses with errno and filename
# ---------------------------------------------------------------------------


def test_tag_file_errors_carry_errno_and_filename(tmp_path):
    m = unimac.Mac("hash127-aes", bytes(32))
    missing = tmp_path / "missing.bin"
    with pytest.raises(FileNotFoundError) as e:
        m.tag_file(missing)
    assert e.value.errno == errno.ENOENT and e.value.filename == str(missing)
    assert e.value.strerror == os.strerror(errno.ENOENT)
    with pytest.raises(FileNotFoundError) as e:
        m.tag_file(str(missing), nonce=None)
    assert str(e.value) == f"[Errno {errno.ENOENT}] {os.strerror(errno.ENOENT)}: {str(missing)!r}"
    with pytest.raises(IsADirectoryError) as e:
        m.tag_file(tmp_path)
    assert e.value.errno == errno.EISDIR and e.value.filename == str(tmp_path)
    with pytest.raises(NotADirectoryError) as e:
        (tmp_path / "f").write_bytes(b"")
        m.tag_file(tmp_path / "f" / "x")
    assert e.value.errno == errno.ENOTDIR
    if os.geteuid() != 0:  # root reads anything
        p = tmp_path / "secret"
        p.write_bytes(b"x")
        p.chmod(0)
        with pytest.raises(PermissionError) as e:
            m.tag_file(p)
        assert e.value.errno == errno.EACCES and e.value.filename == str(p)


def test_counter_errors_carry_errno_and_filename(tmp_path):
    key = unimac.keygen("wc-eval128")
    path = tmp_path / "n.ctr"
    unimac.Counter.create(path, "wc-eval128", key)
    with pytest.raises(FileExistsError, match="already exists; not overwriting it") as e:
        unimac.Counter.create(path, "wc-eval128", key)
    assert e.value.errno == errno.EEXIST and e.value.filename == str(path)
    missing = tmp_path / "none.ctr"
    with pytest.raises(FileNotFoundError, match="cannot open counter file") as e:
        unimac.Counter(missing, "wc-eval128", key)
    assert e.value.errno == errno.ENOENT and e.value.filename == str(missing)
    with pytest.raises(FileNotFoundError) as e:
        unimac.Counter.create(tmp_path / "no-dir" / "n.ctr", "wc-eval128", key)
    assert e.value.errno == errno.ENOENT
    with pytest.raises(IsADirectoryError) as e:
        unimac.Counter(tmp_path, "wc-eval128", key)
    assert e.value.filename == str(tmp_path)
    # Refusals without an errno stay plain OSErrors with the library's message.
    os.link(path, tmp_path / "second-link")
    with pytest.raises(OSError, match="2 hard links") as e:
        unimac.Counter(path, "wc-eval128", key).next()
    assert type(e.value) is OSError


# ---------------------------------------------------------------------------
# Stubs
# ---------------------------------------------------------------------------


def test_stubs_use_pep688_buffer_and_match_the_package():
    text = (PKG / "__init__.pyi").read_text()
    tree = ast.parse(text)
    assert "from collections.abc import Buffer" in text and "from typing_extensions import Buffer" in text
    stub_all = next(
        ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__"
    )
    assert sorted(stub_all) == sorted(unimac.__all__)
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert set(unimac.__all__) - {"GIL_RELEASE_BYTES"} <= defined
    new = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "new")
    assert [a.arg for a in new.args.args] == ["name", "key", "data"]
    assert [a.arg for a in new.args.kwonlyargs] == ["nonce", "caller_manages_nonces"]
    # typing_extensions is for type checkers only: nothing imports it at run time.
    for py in PKG.glob("*.py"):
        assert "typing_extensions" not in py.read_text(), py


# ---------------------------------------------------------------------------
# Key files
# ---------------------------------------------------------------------------


def test_save_and_load_key(tmp_path):
    key = bytes(range(32))
    p = tmp_path / "a.key"
    unimac.save_key(p, "mac-hash127-aes", key)
    assert p.read_text() == f"unimac-key hash127-aes\n{key.hex()}\n"
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    k = unimac.load_key(p)
    assert k == ("hash127-aes", key, False) and isinstance(k, unimac.KeyFile)
    assert (k.name, k.key, k.spent) == ("hash127-aes", key, False)
    with pytest.raises(FileExistsError) as e:
        unimac.save_key(p, "hash127-aes", bytes(32))
    assert e.value.errno == errno.EEXIST and e.value.filename == str(p)
    assert unimac.load_key(str(p)).key == key, "never overwritten"
    with pytest.raises(ValueError, match="key must be 32 bytes, got 5"):
        unimac.save_key(tmp_path / "b.key", "hash127-aes", bytes(5))
    assert not (tmp_path / "b.key").exists()
    with pytest.raises(ValueError, match="did you mean"):
        unimac.save_key(tmp_path / "b.key", "hash127-aez", bytes(32))
    with pytest.raises(FileNotFoundError) as e:
        unimac.load_key(tmp_path / "none.key")
    assert e.value.errno == errno.ENOENT
    # Strictly, as the CLI reads them (docs/WIRE.md 9.1): CRLF line ends,
    # blanks at line ends, upper-case hex and 'mac-' are refused, with the
    # line and the byte named.
    for body, want in [
        (f"unimac-key hash127\r\n{key.hex()}\n", "line 1, byte 19: a carriage return"),
        (f"unimac-key hash127 \n{key.hex()}\n", "line 1, byte 19: a blank at the end of the line"),
        (f"unimac-key hash127\n{key.hex()}\t\n", f"line 2, byte {2 * len(key) + 1}: a blank at the end of the line"),
        (f"unimac-key mac-hash127\n{key.hex()}\n", "line 1, byte 12: the MAC's name with 'mac-'"),
        (f"unimac-key hash127\nAB{key.hex()[2:]}\n", "line 2, byte 1: upper-case hex; key files are written in lower-case hex"),
    ]:
        bad = tmp_path / "bad.key"
        bad.write_bytes(body.encode())
        bad.chmod(0o600)
        with pytest.raises(ValueError, match=re.escape(f"key file {bad}: {want}")):
            unimac.load_key(bad)
        bad.unlink()
    # A spent mark.
    q = tmp_path / "spent.key"
    q.write_bytes(f"unimac-key hash127\n{key.hex()}\nspent\n".encode())
    q.chmod(0o600)
    # A one-time key never comes back as bytes: a spent file gives a key
    # that only checks.
    once = unimac.load_key(q)
    assert isinstance(once, unimac.OneTimeKey) and once.spent and once.name == "hash127"
    t = unimac.known_answer("hash127", key, b"m")
    once.verify(b"m", t)
    with pytest.raises(ValueError, match="already tagged"):
        once.tag(b"m2")
    with pytest.raises(ValueError, match="already tagged"):
        unimac.OneTimeKey.from_file(q)
    for text, why in (
        (key.hex() + "\n", "bare hex without the 'unimac-key NAME' line"),
        ("unimac-key nope\n" + key.hex() + "\n", "made for 'nope', not a MAC of this build"),
        ("unimac-key hash127-aes\n" + key.hex()[:-2] + "\n", "holds a 31-byte key"),
        ("unimac-key hash127-aes\n" + key.hex()[:-1] + "\n", "odd number of hex digits"),
        ("hello\n", "not a key file"),
    ):
        q.write_text(text)
        with pytest.raises(ValueError, match=why):
            unimac.load_key(q)
    q.write_text("unimac-key hash127-aes\n" + key.hex() + "\n")
    q.chmod(0o644)
    with pytest.warns(UserWarning, match="open to group or others"):
        unimac.load_key(q)


def _run(cli, *args, **kw):
    r = subprocess.run([cli, *map(str, args)], capture_output=True, timeout=60, **kw)
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout


def test_key_files_agree_with_the_cli(cli, tmp_path):
    msg = tmp_path / "msg.txt"
    msg.write_bytes(b"attack at dawn")
    # Saved by Python, used by the CLI.
    key = unimac.keygen("hash127-aes")
    unimac.save_key(tmp_path / "py.key", "hash127-aes", key)
    line = _run(cli, "tag", "hash127-aes", "--key-file", tmp_path / "py.key", msg)
    assert line == unimac.format_check_line("hash127-aes", str(msg), unimac.tag("hash127-aes", key, b"attack at dawn"))
    # Made by `unimac keygen`, loaded here.
    for name in ("hash127-aes", "wc-mmh32x4", "umac64", "modp"):
        _run(cli, "keygen", name, "-o", tmp_path / f"{name}.key")
        k = unimac.load_key(tmp_path / f"{name}.key")
        assert k.name == name and len(k.key) == (unimac.info(name)["key_size"] if name != "modp" else 16)
        assert not k.spent
    k = unimac.load_key(tmp_path / "hash127-aes.key")
    out = _run(cli, "tag", "hash127-aes", "--key-file", tmp_path / "hash127-aes.key", msg)
    assert unimac.parse_check_line(out).tag == unimac.tag("hash127-aes", k.key, b"attack at dawn")
    # A one-time key: the CLI marks it spent, Python sees the mark.
    _run(cli, "keygen", "hash127", "-o", tmp_path / "once.key")
    assert unimac.load_key(tmp_path / "once.key").spent is False
    out = _run(cli, "tag", "hash127", "--key-file", tmp_path / "once.key", msg)
    once = unimac.load_key(tmp_path / "once.key")
    assert once.spent and once.name == "hash127"
    once.verify(b"attack at dawn", unimac.parse_check_line(out).tag)


# ---------------------------------------------------------------------------
# Check lines
# ---------------------------------------------------------------------------


def test_check_lines_format_and_parse():
    t, n = bytes([0xAB] * 16), bytes(range(16))
    assert unimac.format_check_line("hash127-aes", "a b", t) == f"{t.hex()}  a b\n".encode()
    assert unimac.format_check_line("mac-hash127-aes", b"f", t, bsd=True) == f"hash127-aes (f) = {t.hex()}\n".encode()
    line = unimac.format_check_line("wc-mmh32x2", pathlib.Path("x\ny"), b"\x02", nonce=b"\x01", bsd=True)
    assert line == b"\\wc-mmh32x2 (x\\ny) = 01:02\n"
    assert unimac.parse_check_line(line) == ("wc-mmh32x2", b"\x01", b"\x02", "x\ny")
    for name in (b"plain", b"a\\b", b"new\nline", b"\\n", b"cr\rlf", b"caf\xe9", b"a (b) = c", b"*star"):
        for bsd in (False, True):
            for nonce in (None, n):
                line = unimac.format_check_line("wc-mmh32x4", name, t, nonce=nonce, bsd=bsd)
                assert line.endswith(b"\n") and line.count(b"\n") == 1
                assert line.startswith(b"\\") == any(c in name for c in b"\\\n\r")
                got = unimac.parse_check_line(line)
                assert got == (("wc-mmh32x4" if bsd else None), nonce, t, os.fsdecode(name)), line
                assert got.raw_filename == name
                assert unimac.parse_check_line(line[:-1] + b"\r\n") == got
    assert unimac.parse_check_line(f"{t.hex()} *f".encode()).filename == "f"
    assert unimac.parse_check_line(f"{t.hex()}  f").filename == "f"
    for bad in (b"", f"{t.hex()} f".encode(), f"{t.hex()}  ".encode(), b"zz  f", f"{t.hex()}0  f".encode(),
                b"\\" + t.hex().encode() + b"  a\\qb", f":{t.hex()}  f".encode()):
        with pytest.raises(ValueError, match="improperly formatted"):
            unimac.parse_check_line(bad)
    with pytest.raises(ValueError, match="did you mean"):
        unimac.format_check_line("hash127-aez", "f", t)


def _files(tmp_path):
    names = ["plain", "sp ace", "a\\b", "new\nline", "caf\xe9"]
    for i, n in enumerate(names):
        (tmp_path / n).write_bytes(os.urandom(100 * i + 3))
    return names


def test_check_lines_round_trip_with_the_cli(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = _files(tmp_path)
    for name, nonce_args in (
        ("hash127-aes", []),
        ("wc-mmh32x4", ["--counter", "c.ctr"]),
        ("umac64", ["--counter", "u.ctr"]),
        ("shoup4-eval64", []),
    ):
        kf = f"{name}.key"
        ctr = nonce_args[1] if nonce_args else None
        _run(cli, "keygen", name, "-o", kf, *(["--counter", ctr] if ctr else []))
        k = unimac.load_key(kf)
        m = unimac.Mac(name, k.key)
        for bsd in (False, True):
            out = _run(cli, "tag", name, "--allow-weak", "--key-file", kf, *nonce_args, *(["--tag"] if bsd else []), *names)
            lines = out.splitlines(keepends=True)
            assert len(lines) == len(names)
            for line, f in zip(lines, names):
                mac, nonce, tag, file = unimac.parse_check_line(line)
                assert file == f and mac == (name if bsd else None)
                if name == "shoup4-eval64":  # the pair r || s goes where a nonce goes
                    m.verify((tmp_path / f).read_bytes(), nonce + tag)  # as sent: r || s || tag
                else:
                    assert m.tag_file(f, nonce=nonce, caller_manages_nonces=True) == tag
                # Formatted here, byte for byte the CLI's line.
                assert unimac.format_check_line(name, f, tag, nonce=nonce, bsd=bsd) == line
            (tmp_path / "SUMS").write_bytes(out)
            assert unimac.verify_check_file("SUMS", kf) == [(f, "OK") for f in names]
            assert unimac.verify_check_file("SUMS", (name, k.key)) == [(f, "OK") for f in names]
        # Lines made here are checked by `unimac verify`.
        mine = b""
        for i, f in enumerate(names):
            nonce = (1000 + i).to_bytes(16, "little") if unimac.info(name)["nonce"] else None
            t = m.tag_file(f, nonce=nonce, caller_manages_nonces=True)
            if name == "shoup4-eval64":
                nonce, t = t[:16], t[16:]
            mine += unimac.format_check_line(name, f, t, nonce=nonce, bsd=i % 2 == 1)
        (tmp_path / "MINE").write_bytes(mine)
        out = _run(cli, "verify", "--key-file", kf, "MINE")
        assert out.count(b": OK\n") == len(names), out


def test_a_reused_nonce_is_counted_when_its_file_is_gone(cli, tmp_path, monkeypatch):
    # `unimac verify` counts a reuse from the lines, before it opens the
    # file: a line naming a missing file with a reused nonce is both
    # unreadable and a reuse, in Python as on the command line.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").write_bytes(b"alpha")
    _run(cli, "keygen", "wc-mmh32x4", "-o", "k.key", "--counter", "c.ctr")
    line = _run(cli, "tag", "wc-mmh32x4", "--allow-weak", "--key-file", "k.key", "--counter", "c.ctr", "a")
    again = unimac.format_check_line("wc-mmh32x4", "gone", bytes(16), nonce=unimac.parse_check_line(line).nonce)
    (tmp_path / "SUMS").write_bytes(line + again)
    with pytest.warns(UserWarning) as w:
        got = unimac.verify_check_file("SUMS", "k.key")
    assert [r.status for r in got] == ["OK", "FAILED open or read: No such file or directory"]
    want = [
        "WARNING: 1 listed file could not be read",
        "WARNING: 1 line reuses a nonce used before with another tag (nonce reuse under this key)",
    ]
    assert [str(x.message) for x in w] == want
    cli_out = subprocess.run([cli, "verify", "--key-file", "k.key", "SUMS"], capture_output=True)
    assert cli_out.returncode != 0
    for text in want:
        assert text.encode() in cli_out.stderr, cli_out.stderr


def test_verify_check_file_reports_each_line(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = _files(tmp_path)
    _run(cli, "keygen", "wc-mmh32x4", "-o", "k.key", "--counter", "c.ctr")
    out = _run(cli, "tag", "wc-mmh32x4", "--allow-weak", "--key-file", "k.key", "--counter", "c.ctr", *names)
    lines = out.splitlines(keepends=True)
    # One file changed, one gone, one line malformed, one line of another
    # MAC, one nonce used again with another tag.
    (tmp_path / "plain").write_bytes(b"changed")
    os.remove(tmp_path / "sp ace")
    other = unimac.format_check_line("hash127-aes", "x", bytes(16), bsd=True)
    reuse = unimac.format_check_line(
        "wc-mmh32x4", "caf\xe9", bytes(16), nonce=unimac.parse_check_line(lines[2]).nonce
    )
    (tmp_path / "SUMS").write_bytes(b"".join(lines) + b"garbage\n" + other + reuse)
    # The garbage line is skipped with the command line's warnings.
    with pytest.warns(UserWarning) as w:
        got = unimac.verify_check_file("SUMS", "k.key")
    warned = [str(x.message) for x in w]
    assert warned == [
        "SUMS: 6: improperly formatted wc-mmh32x4 line",
        "WARNING: 1 line is improperly formatted",
        "WARNING: 1 line was made by another MAC, not wc-mmh32x4",
        "WARNING: 1 listed file could not be read",
        "WARNING: 2 computed tags did NOT match",  # plain, and the reused nonce's line
        "WARNING: 1 line reuses a nonce used before with another tag (nonce reuse under this key)",
    ]
    assert [r.filename for r in got] == names + ["x", "caf\xe9"]
    statuses = [r.status for r in got]
    assert statuses[0] == "FAILED"
    assert statuses[1] == "FAILED open or read: No such file or directory"
    assert statuses[2:5] == ["OK"] * 3
    assert statuses[5] == "FAILED: made by hash127-aes, not checked with this wc-mmh32x4 key"
    assert statuses[6].startswith("FAILED: nonce ") and "used with another tag at line 3" in statuses[6]
    with pytest.raises(ValueError, match="SUMS: 6: improperly formatted wc-mmh32x4 line"):
        unimac.verify_check_file("SUMS", "k.key", strict=True)
    (tmp_path / "EMPTY").write_bytes(b"garbage\n")
    with pytest.raises(ValueError, match="no properly formatted wc-mmh32x4 lines found"), pytest.warns(UserWarning, match="EMPTY: 1: improperly formatted"):
        unimac.verify_check_file("EMPTY", "k.key")
    with pytest.raises(FileNotFoundError):
        unimac.verify_check_file("NONE", "k.key")
    # The CLI agrees: not everything is good.
    r = subprocess.run([cli, "verify", "--key-file", "k.key", "SUMS"], capture_output=True)
    assert r.returncode != 0 and b"plain: FAILED\n" in r.stdout
    # Its closing warnings are Python's, each after "unimac: ".
    err = r.stderr.decode().splitlines()
    assert err[-len(warned) + 1:] == ["unimac: " + x for x in warned[1:]], err


def test_verify_check_file_with_a_one_time_key_never_spends_it(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m").write_bytes(b"the one message")
    _run(cli, "keygen", "hash127", "-o", "once.key")
    out = _run(cli, "tag", "hash127", "--key-file", "once.key", "m")
    (tmp_path / "SUMS").write_bytes(out)
    before = (tmp_path / "once.key").read_bytes()
    assert unimac.verify_check_file("SUMS", "once.key") == [("m", "OK")]
    assert (tmp_path / "once.key").read_bytes() == before and unimac.load_key("once.key").spent
