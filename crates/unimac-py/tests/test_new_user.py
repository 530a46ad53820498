"""A new user's first steps with the package, each with its exact message:
a key given as a hex str, a check file's malformed lines warned as
``unimac verify`` warns them (the same text, from the library), streams
that authenticate and do not encrypt, tarfile over a stream (``"r|"``), and
a sealed tree checked where it is now (``root=``)."""

import io
import os
import subprocess
import tarfile

import pytest

import unimac
import unimac.stream


def test_a_hex_str_key_suggests_fromhex():
    with pytest.raises(TypeError) as e:
        unimac.Mac("hash127-aes", "00" * 32)
    assert str(e.value) == (
        "key: keys are bytes, not str: this str is 64 hex digits; for the 32-byte key they spell, "
        "pass bytes.fromhex(key) (key.encode() would make a 64-byte key of its characters)"
    )
    # A str that is not hex: encode it, as hashlib says.
    with pytest.raises(TypeError) as e:
        unimac.Mac("hash127-aes", "not hex")
    assert str(e.value) == "key: strings must be encoded before hashing (got str; use .encode())"
    # The suggestion works.
    assert unimac.Mac("hash127-aes", bytes.fromhex("00" * 32)).tag(b"x") == unimac.Mac("hash127-aes", bytes(32)).tag(b"x")


def _sums(tmp_path, bad_lines):
    key = bytes(range(32))
    (tmp_path / "a.txt").write_bytes(b"alpha\n")
    line = unimac.format_check_line("hash127-aes", "a.txt", unimac.Mac("hash127-aes", key).tag_file(str(tmp_path / "a.txt")))
    sums = tmp_path / "SUMS"
    sums.write_bytes(line + b"".join(b"garbage %d\n" % i for i in range(bad_lines)))
    return sums, key


def test_malformed_lines_warn_as_the_cli_does(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    sums, key = _sums(tmp_path, 1)
    with pytest.warns(UserWarning) as w:
        r = unimac.verify_check_file("SUMS", ("hash127-aes", key))
    assert r == [unimac.CheckResult("a.txt", "OK")]
    got = [str(x.message) for x in w]
    assert got == ["SUMS: 2: improperly formatted hash127-aes line", "WARNING: 1 line is improperly formatted"]
    # The command line's stderr says the same, each line after "unimac: ".
    if cli and os.path.exists(cli):
        unimac.save_key(str(tmp_path / "K"), "hash127-aes", key)
        p = subprocess.run([cli, "verify", "-k", "K", "SUMS"], capture_output=True, text=True, cwd=tmp_path)
        assert (p.returncode, p.stdout) == (0, "a.txt: OK\n")
        assert p.stderr.splitlines() == ["unimac: " + g for g in got]
    # Five: the first three named, then the count (as the command line).
    sums, key = _sums(tmp_path, 5)
    with pytest.warns(UserWarning) as w:
        unimac.verify_check_file("SUMS", ("hash127-aes", key))
    assert [str(x.message) for x in w] == [
        "SUMS: 2: improperly formatted hash127-aes line",
        "SUMS: 3: improperly formatted hash127-aes line",
        "SUMS: 4: improperly formatted hash127-aes line",
        "WARNING: 5 lines are improperly formatted",
    ]
    with pytest.raises(ValueError, match=r"^SUMS: 2: improperly formatted hash127-aes line$"):
        unimac.verify_check_file("SUMS", ("hash127-aes", key), strict=True)


def test_stream_docs_say_it_does_not_encrypt():
    doc = unimac.stream.__doc__
    assert "A stream authenticates; it does not encrypt." in doc
    assert "age -r RECIPIENT | unimac stream" in doc and 'mode="r|"' in doc
    # And it does not: the payload is in the stream.
    wire = io.BytesIO()
    with unimac.stream.open(wire, "wb", key=("hash127-aes", bytes(32))) as f:
        f.write(b"the secret plan")
    assert b"the secret plan" in wire.getvalue()


def test_tarfile_round_trip_needs_a_stream_mode(tmp_path):
    key = ("hash127-aes", bytes(range(32)))
    (tmp_path / "d").mkdir()
    files = {"d/a.txt": b"alpha\n", "d/b.bin": os.urandom(300_000)}
    for n, b in files.items():
        (tmp_path / n).write_bytes(b)
    wire = io.BytesIO()
    with unimac.stream.open(wire, "wb", key=key, chunk_size=4096) as f:
        with tarfile.open(fileobj=f, mode="w|") as tar:
            tar.add(tmp_path / "d", arcname="d")
    with unimac.stream.open(io.BytesIO(wire.getvalue()), "rb", key=key) as f:
        with tarfile.open(fileobj=f, mode="r|") as tar:
            got = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}
    assert got == files
    # mode="r" seeks, which a stream cannot: the reason the docs say "r|".
    with unimac.stream.open(io.BytesIO(wire.getvalue()), "rb", key=key) as f:
        with pytest.raises((io.UnsupportedOperation, OSError, tarfile.ReadError)):
            tarfile.open(fileobj=f, mode="r")


def test_verify_manifest_root_and_a_missing_root(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    key = ("hash127-aes", bytes(range(32)))
    (tmp_path / "tree" / "s").mkdir(parents=True)
    (tmp_path / "tree" / "a").write_bytes(b"alpha\n")
    (tmp_path / "tree" / "s" / "b").write_bytes(b"beta\n")
    (tmp_path / "out").mkdir()
    unimac.seal("tree", key, recursive=True, output="out/M")
    os.rename("tree", "restored")
    with pytest.raises(ValueError) as e:
        unimac.verify_manifest("out/M", key)
    assert str(e.value) == (
        "root out/../tree: no such directory (the sealed tree, where the manifest records it from its own directory); "
        "nothing was checked: to check the tree where it is now, give root=DIR"
    )
    r = unimac.verify_manifest("out/M", key, root="restored")
    assert r.ok, r
    assert [(f.name, str(f.status)) for f in r.files] == [("restored/a", "OK"), ("restored/s/b", "OK")]
