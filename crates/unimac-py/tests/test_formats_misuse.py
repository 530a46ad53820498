"""The file formats' misuse matrix at the Python door (the CLI's is in
crates/unimac-cli/tests/suite/seal.rs): a seal forged from a file's tag, a
respelled seal, a version 1 manifest, named pipes and devices and names
outside the tree, one-time keys across the Python and command-line doors,
and writers stopped part-way. Each is refused, nothing is half-written."""

import os
import subprocess
import sys
import textwrap

import pytest

import unimac


def run(cli, *args):
    return subprocess.run([cli, *map(str, args)], capture_output=True, stdin=subprocess.DEVNULL, timeout=60)


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.makedirs("d/sub")
    for name, data in {"d/a": b"alpha\n", "d/sub/c": b"charlie\n"}.items():
        with open(name, "wb") as f:
            f.write(data)
    unimac.save_key("k.key", "hash127-aes", unimac.keygen("hash127-aes"))
    return tmp_path


def test_a_file_tag_is_never_a_seal(tree):
    key = unimac.load_key("k.key")
    m = unimac.seal("d", "k.key", recursive=True)
    lines = m.splitlines(keepends=True)
    evil = b"evil\n"
    lines[2] = unimac.tag("hash127-aes", key.key, evil).hex().encode() + b" 5 a\n"
    body = b"".join(lines[:-1])
    # The body's tag as a file (what `unimac tag` prints for a file holding
    # it) put where the seal goes.
    forged = body + b"seal " + unimac.tag("hash127-aes", key.key, body).hex().encode() + b"\n"
    r = unimac.verify_manifest(forged, "k.key")
    assert not r.seal_ok and r.files == []
    head = lines[0]
    forged = head + b"seal " + unimac.tag("hash127-aes", key.key, head).hex().encode() + b"\n"
    assert not unimac.verify_manifest(forged, "k.key").ok


def test_one_byte_form_and_version_1(tree):
    m = unimac.seal("d", "k.key", recursive=True)
    upper = m[:-33] + m[-33:].upper().replace(b"SEAL", b"seal")
    assert upper != m and not unimac.verify_manifest(upper, "k.key").seal_ok
    v1 = m.replace(b"unimac-manifest 2 ", b"unimac-manifest 1 ", 1)
    with pytest.raises(ValueError, match="version 1.*forged.*unimac seal"):
        unimac.verify_manifest(v1, "k.key")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_pipes_devices_and_outside_names_are_never_opened(tree):
    m = unimac.seal("d", "k.key", recursive=True)
    os.remove("d/sub/c")
    os.mkfifo("d/sub/c")
    os.mkfifo("d/pipe")
    os.symlink("/etc", "d/etc-link")
    r = unimac.verify_manifest(m, "k.key")  # returns: nothing blocks
    s = {f.name: f for f in r.files}
    assert s["d/sub/c"].status == "CHANGED" and "named pipe" in s["d/sub/c"].detail
    assert s["d/pipe"].status == "UNEXPECTED" and s["d/etc-link"].status == "UNEXPECTED"
    assert not r.ok
    # Sealing a tree or a list holding them is refused, unopened.
    with pytest.raises(ValueError, match="a sealed tree holds regular files and directories only"):
        unimac.seal("d", "k.key", recursive=True)
    with pytest.raises(ValueError, match="not a regular file"):
        unimac.seal(["/dev/zero"], "k.key")
    # A list naming a device, a file outside and a pipe, under a bad seal:
    # nothing is read.
    head = m.splitlines()[0]
    z = b"00" * 16
    bad = head + b"\nbase /\n" + z + b" 1 dev/zero\n" + z + b" 1 etc/passwd\n" + b"seal " + z + b"\n"
    r = unimac.verify_manifest(bad, "k.key")
    assert not r.seal_ok and r.files == []
    # The manifest itself a named pipe: refused unopened.
    with pytest.raises((OSError, ValueError), match="not a regular file"):
        unimac.verify_manifest("d/pipe", "k.key")


def test_what_a_seal_covers_is_said_as_the_cli_says_it(tree, cli):
    """The library's rule of a seal's paths (formats::manifest::sealed,
    not_listable), in Python's spelling of the command line's options."""
    usage = "('unimac.seal(DIR, key, recursive=True)')"
    with pytest.raises(ValueError) as e:
        unimac.seal(["d", "d/sub"], "k.key", recursive=True)
    assert str(e.value) == f"recursive=True seals one directory: give one, not 2 {usage}"
    with pytest.raises(ValueError) as e:
        unimac.seal([], "k.key", recursive=True)
    assert str(e.value) == f"recursive=True seals one directory: give it {usage}"
    with pytest.raises(ValueError) as e:
        unimac.seal([], "k.key")
    assert str(e.value) == "nothing to seal: give paths, or one directory with recursive=True"
    with pytest.raises(IsADirectoryError) as e:
        unimac.seal(["d"], "k.key")
    assert str(e.value).startswith("[Errno 21] d: is a directory: give recursive=True to take the files under it")
    os.mkfifo("pipe")
    with pytest.raises(ValueError) as e:
        unimac.seal(["d/a", "pipe"], "k.key")
    assert str(e.value) == "pipe: is a named pipe, not a regular file; a manifest lists regular files"
    if cli and os.path.exists(cli):
        r = run(cli, "seal", "-k", "k.key", "d/a", "pipe")
        assert r.returncode != 0
        assert "unimac: pipe: is a named pipe, not a regular file; a manifest lists regular files\n" in r.stderr.decode()
        r = run(cli, "seal", "-k", "k.key", "-r", "d", "d/sub")
        assert r.stderr.decode() == "unimac: -r seals one directory: give one, not 2 ('unimac seal -k K -r DIR')\n"


def test_one_time_keys_tag_once_across_doors(tree, cli):
    with open("m1", "wb") as f:
        f.write(b"first")
    with open("m2", "wb") as f:
        f.write(b"second")
    # Python tags first: the file is spent, and the command line refuses it.
    unimac.save_key("once.key", "hash127", unimac.keygen("hash127"))
    k = unimac.load_key("once.key")
    assert isinstance(k, unimac.OneTimeKey) and not k.spent
    t1 = k.tag(b"first")
    assert open("once.key").read().splitlines()[-1] == "spent"
    o = run(cli, "tag", "--key-file", "once.key", "hash127", "m2")
    assert o.returncode != 0 and b"already tagged" in o.stderr and o.stdout == b""
    with pytest.raises(ValueError, match="already tagged"):
        unimac.OneTimeKey.from_file("once.key")
    # Checking still works with the spent file, through the library.
    with open("SUMS", "wb") as f:
        f.write(unimac.format_check_line("hash127", "m1", t1))
    assert unimac.verify_check_file("SUMS", "once.key") == [("m1", "OK")]
    # The command line tags first: Python sees the mark and cannot tag.
    unimac.save_key("two.key", "hash127", unimac.keygen("hash127"))
    k2 = unimac.OneTimeKey.from_file("two.key")
    o = run(cli, "tag", "--key-file", "two.key", "hash127", "m1")
    assert o.returncode == 0, o.stderr
    with pytest.raises(ValueError, match="already tagged"):
        k2.tag(b"second")
    # A copied key's bytes never come out of load_key.
    assert not hasattr(unimac.load_key("two.key"), "key")


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_writers_stopped_part_way_leave_no_file(tree):
    # A child process whose file-size limit is 0 bytes: every write fails.
    code = textwrap.dedent(
        """
        import resource, signal, sys, unimac
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        what = sys.argv[1]
        try:
            if what == "key":
                unimac.save_key("new.key", "hash127-aes", unimac.keygen("hash127-aes"))
            else:
                unimac.seal("d", "k.key", recursive=True, output="new.manifest")
        except OSError as e:
            print("refused:", e)
            sys.exit(3)
        """
    )
    for what, path in (("key", "new.key"), ("seal", "new.manifest")):
        r = subprocess.run([sys.executable, "-c", code, what], capture_output=True, timeout=60)
        assert r.returncode == 3, (r.stdout, r.stderr)
        assert not os.path.exists(path), what
        assert not [n for n in os.listdir(".") if "unimac-tmp" in n], os.listdir(".")
    unimac.save_key("new.key", "hash127-aes", unimac.keygen("hash127-aes"))
    m = unimac.seal("d", "k.key", recursive=True, output="new.manifest")
    assert open("new.manifest", "rb").read() == m
    with pytest.raises(FileExistsError):
        unimac.seal("d", "k.key", recursive=True, output="new.manifest")
