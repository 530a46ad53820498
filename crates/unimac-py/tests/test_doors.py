"""The doors of the Python package: a caller's nonce only with
``caller_manages_nonces=True`` at every door that tags; a check file that is
not a regular file refused at once (never a wait on a named pipe or a read of
``/dev/zero`` without end); names with format characters escaped in check
lines and read back; key files read strictly and what keygen writes read."""

import errno
import os
import signal
import socket
import stat

import pytest

import unimac

KEY32 = bytes(range(32))
NONCE16 = (7).to_bytes(16, "little")


@pytest.fixture
def deadline():
    """Fail, rather than hang, a call that blocks: SIGALRM after 20 s."""

    def boom(signum, frame):
        raise TimeoutError("blocked: still running after 20 s")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------------------
# A caller's nonce
# ---------------------------------------------------------------------------

# The library's one text (formats::policy::caller_nonce), the command
# line's --nonce needs --caller-manages-nonces in the same words.
OPT_IN = "needs caller_manages_nonces=True: the caller keeps its nonces from ever repeating under this key"


def _doors(tmp_path):
    m = unimac.Mac("wc-mmh32x4", KEY32)
    msg = tmp_path / "m"
    msg.write_bytes(b"attack at dawn")
    part = unimac.partial_hash("wc-mmh32x4", unimac.hash_key("wc-mmh32x4", KEY32), 0, b"attack at dawn")
    return {
        "Mac.tag": lambda **kw: m.tag(b"attack at dawn", NONCE16, **kw),
        "Mac.tag_file": lambda **kw: m.tag_file(msg, nonce=NONCE16, **kw),
        "tag": lambda **kw: unimac.tag("wc-mmh32x4", KEY32, b"attack at dawn", nonce=NONCE16, **kw),
        "new": lambda **kw: unimac.new("wc-mmh32x4", KEY32, b"attack at dawn", nonce=NONCE16, **kw).digest(),
        "new(hmac order)": lambda **kw: unimac.new(KEY32, b"attack at dawn", "wc-mmh32x4", nonce=NONCE16, **kw).digest(),
        "compute": lambda **kw: unimac.compute("mac-wc-mmh32x4", KEY32, b"attack at dawn", nonce=NONCE16, **kw),
        "finish_mac": lambda **kw: unimac.finish_mac("wc-mmh32x4", KEY32, part, nonce=NONCE16, **kw),
    }


def test_every_door_that_tags_takes_a_nonce_only_with_the_opt_in(tmp_path):
    doors = _doors(tmp_path)
    tags = set()
    for door, call in doors.items():
        with pytest.raises(ValueError, match=OPT_IN) as e:
            call()
        spelled = "compute" if door == "compute" else door.split("(")[0]
        assert str(e.value) == (
            f"wc-mmh32x4: {spelled}(nonce=...) {OPT_IN} (unimac cannot know whether one was used before; "
            "unimac.Counter(...).next() gives nonces that never repeat)"
        ), (door, str(e.value))
        tags.add(call(caller_manages_nonces=True))
    # With the opt-in every door gives the one tag.
    assert len(tags) == 1
    t = tags.pop()
    # Checking takes the nonce the tag was made with, without the opt-in.
    unimac.Mac("wc-mmh32x4", KEY32).verify(b"attack at dawn", t, NONCE16)
    unimac.verify("wc-mmh32x4", KEY32, b"attack at dawn", t, NONCE16)
    # A nonce from a counter goes in the same way.
    c = unimac.Counter.create(tmp_path / "n.ctr", "wc-mmh32x4", KEY32)
    n = c.next()
    with pytest.raises(ValueError, match=OPT_IN):
        unimac.Mac("wc-mmh32x4", KEY32).tag(b"x", nonce=n)
    assert len(unimac.Mac("wc-mmh32x4", KEY32).tag(b"x", nonce=n, caller_manages_nonces=True)) == 16


def test_shoup4_draws_its_pair_and_takes_none():
    m = unimac.Mac("shoup4-eval64", bytes(48))
    sent = m.tag(b"x")  # r || s drawn at random: no opt-in
    m.verify(b"x", sent)
    # A given pair is refused whatever the opt-in says (the library's rule).
    for kw in ({}, {"caller_manages_nonces": True}):
        with pytest.raises(ValueError, match="draws its random r") as e:
            m.tag(b"x", nonce=bytes(16), **kw)
        assert OPT_IN not in str(e.value)
    # known answers (published vectors only) need no opt-in, as the CLI's --known-answer.
    assert unimac.known_answer("shoup4-eval64", bytes(48), b"x", nonce=bytes(16))


def test_stateless_macs_need_no_opt_in_and_still_refuse_a_nonce():
    assert unimac.tag("hash127-aes", KEY32, b"m") == unimac.Mac("hash127-aes", KEY32).tag(b"m", caller_manages_nonces=True)
    with pytest.raises(ValueError) as e:
        unimac.Mac("hash127-aes", KEY32).tag(b"m", nonce=NONCE16, caller_manages_nonces=True)
    assert OPT_IN not in str(e.value)


# ---------------------------------------------------------------------------
# Check files that are not regular files
# ---------------------------------------------------------------------------


@pytest.fixture
def specials(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "dir").mkdir()
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(tmp_path / "sock"))
    yield [
        (str(fifo), "is a named pipe"),
        ("/dev/zero", "is a character device"),
        (str(tmp_path / "sock"), "is a socket"),
        (str(tmp_path / "dir"), "is a directory"),
    ]
    s.close()


def test_verify_check_file_refuses_what_is_not_a_regular_file(specials, deadline):
    for path, what in specials:
        with pytest.raises(OSError) as e:
            unimac.verify_check_file(path, ("hash127-aes", KEY32))
        assert f"check file {path}: {what}, not a regular file; not opened" in str(e.value)
        if what == "is a directory":
            assert e.value.errno == errno.EISDIR


def test_verify_manifest_refuses_what_is_not_a_regular_file(specials, deadline, tmp_path):
    key = tmp_path / "k.key"
    unimac.save_key(key, "hash127-aes", KEY32)
    for path, what in specials:
        with pytest.raises(OSError) as e:
            unimac.verify_manifest(path, key)
        assert f"{path}: {what}, not a regular file; not opened" in str(e.value)


def test_key_files_that_are_not_regular_files_are_refused(specials, deadline):
    for path, what in specials:
        with pytest.raises(OSError, match=f"key file {path}: {what}, not a regular file"):
            unimac.load_key(path)
        with pytest.raises(OSError, match=f"key file {path}: {what}"):
            unimac.OneTimeKey.from_file(path)


def test_check_file_lines_are_bounded(tmp_path, deadline):
    p = tmp_path / "LONG"
    p.write_bytes(b"0" * 20_000 + b"\n")
    with pytest.raises(ValueError, match=r"LONG: line 1: longer than 16384 bytes; not a check file"):
        unimac.verify_check_file(p, ("hash127-aes", KEY32))
    p.write_bytes(b"x" * 20_000)
    with pytest.raises(ValueError, match=r"line 1: longer than 16384 bytes"):
        unimac.verify_check_file(p, ("hash127-aes", KEY32), zero=True)
    # A regular check file still works.
    os.chdir(tmp_path)
    (tmp_path / "a").write_bytes(b"alpha")
    line = unimac.format_check_line("hash127-aes", "a", unimac.Mac("hash127-aes", KEY32).tag_file("a"))
    (tmp_path / "SUMS").write_bytes(line)
    assert [r.status for r in unimac.verify_check_file("SUMS", ("hash127-aes", KEY32))] == ["OK"]


# ---------------------------------------------------------------------------
# Names with format characters
# ---------------------------------------------------------------------------

HIDDEN = ["evil\u202etxt.exe", "zero\u200bwidth", "iso\u2066late", "\ufeffbom", "line\u2028sep", "esc\x1b[31m"]


def test_check_lines_escape_format_characters_and_read_them_back(tmp_path):
    os.chdir(tmp_path)
    m = unimac.Mac("hash127-aes", KEY32)
    lines = b""
    for name in HIDDEN:
        with open(name, "wb") as f:
            f.write(name.encode())
        for bsd in (False, True):
            line = unimac.format_check_line("hash127-aes", name, m.tag_file(name), bsd=bsd)
            text = line.decode()
            assert text.startswith("\\")
            assert not any(c in text for c in "\u202e\u200b\u2066\ufeff\u2028\x1b"), text
            assert unimac.parse_check_line(line).filename == name
        lines += unimac.format_check_line("hash127-aes", name, m.tag_file(name))
    (tmp_path / "SUMS").write_bytes(lines)
    got = unimac.verify_check_file("SUMS", ("hash127-aes", KEY32))
    assert [(r.filename, r.status) for r in got] == [(n, "OK") for n in HIDDEN]
    assert unimac.format_check_line("hash127-aes", "a\u202eb", bytes(16)) == b"\\" + b"0" * 32 + b"  a\\u{202e}b\n"


# ---------------------------------------------------------------------------
# Key files
# ---------------------------------------------------------------------------


def test_what_keygen_writes_is_read(tmp_path):
    for name in ("hash127-aes", "wc-mmh32x4", "umac64", "hash127"):
        p = tmp_path / f"{name}.key"
        key = unimac.keygen(name)
        unimac.save_key(p, name, key)
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
        text = p.read_bytes()
        assert text == f"unimac-key {name}\n{key.hex()}\n".encode()
        got = unimac.load_key(p)
        if name == "hash127":
            assert isinstance(got, unimac.OneTimeKey)
        else:
            assert got[0] == name and bytes(got[1]) == key
