"""unimac.seal and unimac.verify_manifest against `unimac seal` / `unimac
verify`: the same bytes, each verifying the other's manifests, and the same
findings for changed files and changed manifests."""

import os
import subprocess

import pytest

import unimac

TREE = {
    "d/a": b"alpha\n",
    "d/b": b"bravo bravo\n",
    "d/sub/c": b"charlie\n",
    "d/sub/deeper/e": b"",
    "d/back\\slash": b"x",
}


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, data in TREE.items():
        os.makedirs(os.path.dirname(name), exist_ok=True)
        with open(name, "wb") as f:
            f.write(data)
    return tmp_path


def run(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, stdin=subprocess.DEVNULL)


def keyed(mac, counter=False):
    key = unimac.keygen(mac)
    unimac.save_key(f"{mac}.key", mac, key)
    if counter:
        unimac.Counter.create(f"{mac}.ctr", mac, key)
    return key


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def statuses(result):
    return {f.name: f.status for f in result.files}


def test_stateless_manifests_are_byte_identical(tree, cli):
    keyed("hash127-aes")
    py = unimac.seal("d", "hash127-aes.key", recursive=True)
    # Both in the current directory: the command line writing to a file
    # there (to a pipe its place would be unknown, and it would record the
    # tree's absolute path, docs/WIRE.md 9.6).
    o = run(cli, "seal", "--key-file", "hash127-aes.key", "-r", "d", "-o", "M.cli")
    assert o.returncode == 0, o.stderr
    assert py == read("M.cli")
    lines = py.splitlines()
    assert lines[0].startswith(b"unimac-manifest 2 hash127-aes ") and lines[1] == b"root d"
    assert lines[-1].startswith(b"seal ")
    assert any(line.startswith(b"\\") and line.endswith(b" 1 back\\\\slash") for line in lines)
    # Files as given, in that order; a (name, key) pair gives the same bytes.
    files = ["d/sub/c", "d/a", "d/back\\slash"]
    o = run(cli, "seal", "--key-file", "hash127-aes.key", *files, "-o", "F.cli")
    assert o.returncode == 0, o.stderr
    cli_bytes = read("F.cli")
    name, key, _ = unimac.load_key("hash127-aes.key")
    assert unimac.seal(files, (name, key)) == cli_bytes
    assert unimac.seal(files, "hash127-aes.key", name="mac-hash127-aes") == cli_bytes
    assert unimac.verify_manifest(cli_bytes, (name, key)).ok


def test_python_manifest_verifies_with_the_cli(tree, cli):
    key = keyed("wc-eval128", counter=True)
    m = unimac.seal("d", "wc-eval128.key", recursive=True, counter="wc-eval128.ctr")
    # One nonce per file and one for the seal, from the counter, in order.
    assert unimac.Counter("wc-eval128.ctr", "wc-eval128", key).peek() == len(TREE) + 1
    lines = m.splitlines()
    nonces = [line.lstrip(b"\\").split(b":")[0] for line in lines[2:-1]] + [lines[-1][5:].split(b":")[0]]
    assert nonces == [i.to_bytes(16, "little").hex().encode() for i in range(len(TREE) + 1)]
    write("m", m)
    o = run(cli, "verify", "--key-file", "wc-eval128.key", "m")
    assert o.returncode == 0, (o.stdout, o.stderr)
    assert o.stdout.startswith(b"manifest: SEAL OK\n")
    assert o.stdout.count(b": OK\n") == len(TREE)


def test_cli_manifest_verifies_in_python(tree, cli):
    keyed("wc-eval128", counter=True)
    o = run(cli, "seal", "--key-file", "wc-eval128.key", "--counter", "wc-eval128.ctr", "-r", "d", "-o", "m")
    assert o.returncode == 0, o.stderr
    r = unimac.verify_manifest("m", "wc-eval128.key")
    assert r.seal_ok and r.ok
    assert [f.name for f in r.files] == sorted(TREE)
    assert all(f.status == "OK" for f in r.files)
    # Bytes and another base directory do as well.
    os.chdir("..")
    r = unimac.verify_manifest(read(tree / "m"), tree / "wc-eval128.key", base_dir=tree)
    assert r.ok, r


@pytest.mark.parametrize("mac,counter", [("wc-eval128", True), ("hash127-aes", False)])
def test_changed_removed_added_renamed(tree, cli, mac, counter):
    keyed(mac, counter)
    kw = {"counter": f"{mac}.ctr"} if counter else {}
    write("m", unimac.seal("d", f"{mac}.key", recursive=True, **kw))
    write("d/a", b"ALPHA\n")  # same size
    write("d/sub/c", b"charlie, longer\n")
    os.remove("d/sub/deeper/e")
    write("d/sub/new", b"new\n")
    write("d/sub/b-decoy", b"bravo BRAVO\n")  # the size of d/b, not its content
    os.rename("d/b", "d/sub/b-moved")
    r = unimac.verify_manifest("m", f"{mac}.key")
    assert r.seal_ok and not r.ok
    s = statuses(r)
    assert s["d/a"] == "CHANGED" and s["d/sub/c"] == "CHANGED"
    assert s["d/sub/deeper/e"] == "REMOVED"
    assert s["d/b"] == unimac.ManifestStatus.RENAMED and r.renamed == {"d/b": "d/sub/b-moved"}
    assert s["d/back\\slash"] == "OK"
    assert [(f.name, f.status) for f in r.files if f.status == "ADDED"] == [("d/sub/b-decoy", "ADDED"), ("d/sub/new", "ADDED")]
    assert "d/sub/b-moved" not in s
    # The CLI finds the same.
    o = run(cli, "verify", "--key-file", f"{mac}.key", "m")
    assert o.returncode == 1
    out = o.stdout.decode()
    for name, status, new_name, _ in r.files:
        if status == "RENAMED":
            assert f"{name} -> {new_name}: RENAMED\n" in out, out
        else:
            shown = name.replace("\\", "\\\\")
            assert (f"\\{shown}" if shown != name else name) + f": {status}\n" in out, out


def test_any_change_to_the_manifest_fails_the_seal(tree, cli):
    keyed("wc-eval128", counter=True)
    m = unimac.seal("d", "wc-eval128.key", recursive=True, counter="wc-eval128.ctr")
    lines = m.splitlines(keepends=True)
    other = unimac.keygen("wc-eval128")
    fp = unimac.Counter.create("other.ctr", "wc-eval128", other) and open("other.ctr").read().split()[2]
    changed = {
        "edited": b"".join(lines[:2] + [lines[2].replace(b" 6 ", b" 7 ")] + lines[3:]),
        "reordered": b"".join(lines[:2] + [lines[3], lines[2]] + lines[4:]),
        "dropped": b"".join(lines[:3] + lines[4:]),
        "root dropped": b"".join(lines[:1] + lines[2:]),
        "appended": m + lines[2],
        "seal cut": m[:-3] + b"\n",
        "no newline": m[:-1],
        "respelled": m[:-33] + m[-33:].upper().replace(b"SEAL", b"seal"),
    }
    assert unimac.verify_manifest(m, "wc-eval128.key").ok
    for what, text in changed.items():
        r = unimac.verify_manifest(text, "wc-eval128.key")
        assert not r.seal_ok and not r.ok, what
        write(f"m-{what}", text)
        o = run(cli, "verify", "--key-file", "wc-eval128.key", f"m-{what}")
        assert o.returncode == 1 and o.stdout.startswith(b"manifest: SEAL FAILED\n"), (what, o.stdout, o.stderr)
        # Nothing a manifest lists is read when its seal fails.
        assert r.files == [] and r.errors == [], what
    # Another key's fingerprint on line 1: the wrong key, said so.
    with pytest.raises(ValueError, match="or its first line was changed"):
        unimac.verify_manifest(m.replace(m.split()[3], fp.encode(), 1), "wc-eval128.key")


def test_wrong_key_and_refusals(tree):
    keyed("hash127-aes")
    m = unimac.seal("d", "hash127-aes.key", recursive=True)
    with pytest.raises(ValueError, match="sealed with key fingerprint"):
        unimac.verify_manifest(m, ("hash127-aes", unimac.keygen("hash127-aes")))
    once = unimac.keygen("hash127")
    with pytest.raises(ValueError, match="one-time MAC"):
        unimac.seal(["d/a"], ("hash127", once))
    with pytest.raises(ValueError, match="one-time MAC"):
        unimac.verify_manifest(m, ("hash127", once))
    # A OneTimeKey object: the library's texts, as for its name and key.
    ot = unimac.OneTimeKey("hash127", once)
    for call, given in ((lambda k: unimac.seal(["d/a"], k), True), (lambda k: unimac.verify_manifest(m, k), False)):
        with pytest.raises(ValueError) as by_object:
            call(ot)
        with pytest.raises(ValueError) as by_pair:
            call(("hash127", once))
        assert str(by_object.value) == str(by_pair.value), given
    assert str(by_object.value) == "hash127 is a one-time MAC: no manifest is sealed with it"
    key = keyed("wc-eval128", counter=True)
    with pytest.raises(ValueError, match="needs nonces"):
        unimac.seal(["d/a"], ("wc-eval128", key))
    with pytest.raises(ValueError, match="not both"):
        unimac.seal(["d/a"], ("wc-eval128", key), counter="wc-eval128.ctr", random_nonce=True)
    with pytest.raises(ValueError, match="takes no nonce"):
        unimac.seal(["d/a"], "hash127-aes.key", random_nonce=True)
    with pytest.raises(ValueError, match="another wc-eval128 key"):
        unimac.seal(["d/a"], ("wc-eval128", unimac.keygen("wc-eval128")), counter="wc-eval128.ctr")
    with pytest.raises(ValueError, match="not a wc-eval128 key"):
        unimac.seal(["d/a"], "hash127-aes.key", name="wc-eval128")
    with pytest.raises(ValueError, match="weak for this use"):
        unimac.seal(["d/a"], ("wc-eval64", unimac.keygen("wc-eval64")), random_nonce=True)
    # A missing file: nothing reserved.
    with pytest.raises(FileNotFoundError):
        unimac.seal(["d/a", "d/missing"], ("wc-eval128", key), counter="wc-eval128.ctr")
    assert unimac.Counter("wc-eval128.ctr", "wc-eval128", key).peek() == 0


@pytest.mark.parametrize(
    "mac,how",
    [("vmac128", "counter"), ("umac128", "random"), ("shoup4-eval64", "none"), ("hash127-aes-nonce", "counter")],
)
def test_other_macs_verify_both_ways(tree, cli, mac, how):
    key = keyed(mac, counter=how == "counter")
    kw = {"counter": unimac.Counter(f"{mac}.ctr", mac, key)} if how == "counter" else {}
    if how == "random":
        kw["random_nonce"] = True
    m = unimac.seal("d", f"{mac}.key", recursive=True, allow_weak=True, **kw)
    if mac == "vmac128":  # big-endian counters
        assert m.splitlines()[2].split(b":")[0] == bytes(16).hex().encode()
        assert m.splitlines()[-1][5:].split(b":")[0] == len(TREE).to_bytes(16, "big").hex().encode()
    write("m", m)
    o = run(cli, "verify", "--key-file", f"{mac}.key", "m")
    assert o.returncode == 0, (o.stdout, o.stderr)
    args = ["--counter", f"{mac}.ctr"] if how == "counter" else ["--random-nonce"] if how == "random" else []
    o = run(cli, "seal", "--key-file", f"{mac}.key", "--allow-weak", *args, "-r", "d")
    assert o.returncode == 0, o.stderr
    assert unimac.verify_manifest(o.stdout, f"{mac}.key").ok


def test_a_manifest_inside_its_tree_is_not_added(tree):
    keyed("hash127-aes")
    # Written by seal(output=): its names resolve from d/ (a manifest
    # written elsewhere by hand resolves from where it was made).
    m = unimac.seal("d", "hash127-aes.key", recursive=True, output="d/MANIFEST")
    assert read("d/MANIFEST") == m and m.splitlines()[1] == b"root ."
    assert unimac.verify_manifest("d/MANIFEST", "hash127-aes.key").ok
    # Given as bytes (from the current directory) it is just another file
    # under the root.
    assert statuses(unimac.verify_manifest(read("d/MANIFEST"), "hash127-aes.key", base_dir="d"))["d/MANIFEST"] == "ADDED"
    # From the tree itself, paths show without "./".
    os.chdir("d")
    r = unimac.verify_manifest(read("MANIFEST"), "../hash127-aes.key")
    assert statuses(r)["MANIFEST"] == "ADDED" and statuses(r)["sub/c"] == "OK"
