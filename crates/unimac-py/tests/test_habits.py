"""The habits of hashlib and hmac users: names in any case, update() after
digest(), hmac's argument order, messages that name Python functions,
result types, size strings, NUL-ended check lines, a clean namespace."""

import os
import subprocess
import sys
import types

import pytest

import unimac

KEY32 = bytes(range(32))


# 1. Names in any case, shown in lower case.


@pytest.mark.parametrize("given", ["HASH127-AES", "Hash127-Aes", "MAC-HASH127-AES", "mac-Hash127-aes"])
def test_mac_names_in_any_case(given):
    want = unimac.tag("hash127-aes", KEY32, b"m")
    h = unimac.new(given, KEY32, b"m")
    assert h.name == "hash127-aes" and h.digest() == want
    m = unimac.Mac(given, KEY32)
    assert m.name == "hash127-aes" and m.tag(b"m") == want
    assert unimac.tag(given, KEY32, b"m") == want
    unimac.verify(given, KEY32, b"m", want)
    assert unimac.compute(given, KEY32, b"m") == want
    assert unimac.info(given)["name"] == "hash127-aes"
    assert len(unimac.keygen(given)) == 32
    assert unimac.bound(given, 1 << 20).name == "hash127-aes"
    assert unimac.granularity(given) == unimac.granularity("hash127-aes")
    assert unimac.hash_key(given, KEY32) == unimac.hash_key("hash127-aes", KEY32)


def test_hash_and_other_names_in_any_case(tmp_path):
    assert unimac.new("EVAL64", bytes(8), b"x").name == "eval64"
    assert unimac.compute("Tree-MMH32x2", bytes(16), b"x") == unimac.compute("tree-mmh32x2", bytes(16), b"x")
    assert unimac.known_answer("HASH127", KEY32, b"abc") == unimac.known_answer("hash127", KEY32, b"abc")
    assert unimac.OneTimeKey("HASH127", unimac.keygen("hash127")).name == "hash127"
    assert len(unimac.keygen("MODP")) == 16 and unimac.bound("MODP", 100).name == "modp"
    hk = unimac.hash_key("wc-eval64", bytes(24))
    p = unimac.partial_hash("WC-EVAL64", hk, 0, b"abc")
    assert unimac.finish_mac("WC-eval64", bytes(24), p, nonce=bytes(16), caller_manages_nonces=True) == unimac.tag(
        "wc-eval64", bytes(24), b"abc", nonce=bytes(16)
    , caller_manages_nonces=True)
    c = unimac.Counter.create(tmp_path / "c", "WC-MMH32X4", bytes(32))
    assert c.name == "wc-mmh32x4" and unimac.Counter(tmp_path / "c", "wc-MMH32x4", bytes(32)).peek() == 0
    unimac.save_key(tmp_path / "k", "HASH127-AES", KEY32)
    assert unimac.load_key(tmp_path / "k").name == "hash127-aes"
    line = unimac.format_check_line("HASH127-AES", "f", bytes(16), bsd=True)
    assert line.startswith(b"hash127-aes (f) = ")


def test_a_refused_name_is_shown_as_given():
    with pytest.raises(ValueError, match=r"unknown name 'HASH127-ASE'; did you mean 'hash127-aes'\?"):
        unimac.new("HASH127-ASE", KEY32)
    with pytest.raises(ValueError, match=r"'EVAL64' is a hash, not a MAC"):
        unimac.Mac("EVAL64", bytes(8))


# 4. Messages point to Python's lists of names, not to `unimac list`.


def test_unknown_names_point_to_the_python_lists():
    cases = [
        (lambda: unimac.Mac("zzzz", KEY32), "unknown MAC 'zzzz'; unimac.mac_names() lists the MACs"),
        (lambda: unimac.Mac("eval64", bytes(8)), "'eval64' is a hash, not a MAC; unimac.mac_names() lists the MACs"),
        (lambda: unimac.new("zzzz", KEY32), "unknown name 'zzzz'; unimac.names() lists every name"),
        (lambda: unimac.compute("zzzz", KEY32, b""), "unknown name 'zzzz'; unimac.names() lists every name"),
        (lambda: unimac.granularity("zzzz"), "unknown name 'zzzz' (see unimac.names())"),
        (lambda: unimac.save_key("never-written", "zzzz", KEY32), "unknown MAC 'zzzz'; unimac.mac_names() lists the MACs"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == message
        assert "unimac list" not in str(e.value)


# 2. update() after digest(): stateless MACs and hashes go on (as hashlib);
#    nonce MACs refuse, saying why.

GOES_ON = ["hash127-aes", "eval64", "eval128", "division64", "gdivision64", "tree-mmh32x2", "tree-sqh96-e"]


def _key(name):
    return bytes(range(unimac.info(name)["key_size"]))


@pytest.mark.parametrize("name", GOES_ON)
@pytest.mark.parametrize("finish", ["digest", "hexdigest", "verify"])
def test_update_after_digest_goes_on_like_hashlib(name, finish):
    key = _key(name)
    h = unimac.new(name, key, b"attack at ")
    first = unimac.compute(name, key, b"attack at ")
    if finish == "verify":
        h.verify(first)
    else:
        assert getattr(h, finish)() in (first, first.hex())
    h.update(b"dawn")
    assert h.digest() == unimac.compute(name, key, b"attack at dawn")
    h.update(b"!" * 5000)  # a large update too (GIL released)
    whole = unimac.compute(name, key, b"attack at dawn" + b"!" * 5000)
    assert h.digest() == h.digest() == whole and h.hexdigest() == whole.hex()
    c = h.copy()
    h.update(b"?")
    assert c.digest() == whole


def test_update_after_digest_of_a_nonce_mac_is_refused_with_the_reason():
    h = unimac.new("wc-mmh32x2", bytes(32), b"m", nonce=bytes(16), caller_manages_nonces=True)
    d = h.digest()
    with pytest.raises(ValueError) as e:
        h.update(b"more")
    assert str(e.value) == (
        "wc-mmh32x2: this object has already given its tag under its nonce; the tag of more data under the "
        "same one would be a second tag under one nonce, which voids the MAC's guarantee "
        "(make a new object, with a fresh nonce)"
    )
    assert h.digest() == d
    for name in ("umac64", "vmac64", "hash127-aes-nonce"):
        h = unimac.new(name, _key(name), nonce=bytes(unimac.info(name)["nonce_size"]), caller_manages_nonces=True)
        h.hexdigest()
        with pytest.raises(ValueError, match="second tag under one nonce"):
            h.update(b"x")
    s = unimac.new("shoup4-eval64", bytes(48), b"m")
    s.digest()
    with pytest.raises(ValueError, match=r"under its random pair r \|\| s; .*second tag under one nonce"):
        s.update(b"x")


def test_a_hash_whose_state_cannot_be_copied_says_so():
    h = unimac.new("mmh32x1", bytes(128), bytes(128))
    d = h.digest()
    with pytest.raises(ValueError, match=r"mmh32x1: update\(\) after digest\(\): this hash's state cannot be copied"):
        h.update(b"x")
    assert h.digest() == d


# 3. hmac's order: new(key, msg, digestmod).


def test_hmac_argument_order_is_taken():
    want = unimac.tag("hash127-aes", KEY32, b"attack at dawn")
    made = [
        unimac.new(KEY32, b"attack at dawn", "hash127-aes"),
        unimac.new(KEY32, b"attack at dawn", digestmod="hash127-aes"),
        unimac.new(KEY32, msg=b"attack at dawn", digestmod="HASH127-AES"),
        unimac.new(key=KEY32, msg=b"attack at dawn", digestmod="hash127-aes"),
        unimac.new(bytearray(KEY32), None, "hash127-aes"),
        unimac.new(memoryview(KEY32), digestmod="mac-hash127-aes"),
    ]
    for h in made[-2:]:
        h.update(b"attack at dawn")
    for h in made:
        assert h.name == "hash127-aes" and h.digest() == want
    n = bytes(16)
    h = unimac.new(KEY32, b"m", "wc-mmh32x2", nonce=n, caller_manages_nonces=True)
    assert h.digest() == unimac.tag("wc-mmh32x2", KEY32, b"m", nonce=n, caller_manages_nonces=True)
    assert unimac.new(bytes(8), b"x", "eval64").digest() == unimac.compute("eval64", bytes(8), b"x")
    # unimac's own order, by position and by keyword, as before
    assert unimac.new("hash127-aes", KEY32, b"attack at dawn").digest() == want
    assert unimac.new(name="hash127-aes", key=KEY32, data=b"attack at dawn").digest() == want
    assert unimac.new.__text_signature__ == "(name, key, data=None, *, nonce=None, caller_manages_nonces=False)"


ORDERS = (
    "expected unimac.new(name, key, data=None, *, nonce=None) or, in hmac's order, "
    "unimac.new(key, msg=None, digestmod=NAME, *, nonce=None)"
)


@pytest.mark.parametrize(
    "call,why",
    [
        (lambda: unimac.new(KEY32, b"m"), "hmac's order needs digestmod, the MAC's or hash's name (one of unimac.names())"),
        (lambda: unimac.new(b"hash127-aes", KEY32), "hmac's order needs digestmod"),
        (lambda: unimac.new(7, KEY32), "the first argument is the name (str) or, in hmac's order, the key (bytes-like), not 'int'"),
        (lambda: unimac.new(KEY32, b"m", digestmod=len), "digestmod is a name (str) of unimac.names(), not 'builtin_function_or_method'"),
        (lambda: unimac.new("hash127-aes", KEY32, msg=b"m"), "got an unexpected keyword argument 'msg'"),
        (lambda: unimac.new(KEY32, b"m", "hash127-aes", data=b"m"), "got an unexpected keyword argument 'data'"),
        (lambda: unimac.new("hash127-aes", KEY32, b"m", name="x"), "got multiple values for argument 'name'"),
        (lambda: unimac.new("hash127-aes"), "missing required argument 'key'"),
        (lambda: unimac.new(), "missing required argument 'name'"),
        (lambda: unimac.new(KEY32, b"", "eval64", b""), "takes at most 3 positional arguments (4 given)"),
    ],
)
def test_a_wrong_order_is_a_type_error_naming_both_orders(call, why):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value).startswith(f"unimac.new(): {why}")
    assert str(e.value).endswith(ORDERS)


# 5. File names of check lines and check results are both str.


def test_check_line_and_check_result_filenames_are_str(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    raw = b"caf\xe9 \xff\n(x)"  # not UTF-8, with a newline: escaped in the line
    t = unimac.tag("hash127-aes", KEY32, b"data")
    line = unimac.format_check_line("hash127-aes", raw, t)
    p = unimac.parse_check_line(line)
    assert type(p.filename) is str and p.filename == os.fsdecode(raw)
    assert p.raw_filename == raw
    mac, nonce, tag, filename = p  # still a 4-tuple
    assert (mac, nonce, tag) == (None, None, t)
    # format_check_line takes the str back, byte for byte the same line
    assert unimac.format_check_line("hash127-aes", p.filename, t) == line
    with open(raw, "wb") as f:
        f.write(b"data")
    (tmp_path / "SUMS").write_bytes(line)
    [r] = unimac.verify_check_file("SUMS", ("hash127-aes", KEY32))
    assert type(r.filename) is str and r.filename == p.filename and r.status == "OK"


# 7. Check files of `unimac tag -z`: zero=True; without it, a clear error.


def _zero_sums(tmp_path, names):
    m = unimac.Mac("hash127-aes", KEY32)
    out = b""
    for n in names:
        (tmp_path / n).write_bytes(n.encode() * 3)
        out += unimac.format_check_line("hash127-aes", n, m.tag_file(tmp_path / n), zero=True)
    return out


def test_zero_ended_check_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = ["plain", "new\nline", "back\\slash", "cr\r"]
    sums = _zero_sums(tmp_path, names)
    assert sums.count(b"\0") == len(names) and not sums.startswith(b"\\")
    (tmp_path / "SUMS0").write_bytes(sums)
    assert unimac.verify_check_file("SUMS0", ("hash127-aes", KEY32), zero=True) == [(n, "OK") for n in names]
    # the last NUL may be missing, as the CLI reads it
    (tmp_path / "SUMS0").write_bytes(sums[:-1])
    assert unimac.verify_check_file("SUMS0", ("hash127-aes", KEY32), zero=True) == [(n, "OK") for n in names]
    (tmp_path / "plain").write_bytes(b"changed")
    with pytest.warns(UserWarning, match="^WARNING: 1 computed tag did NOT match$"):
        assert unimac.verify_check_file("SUMS0", ("hash127-aes", KEY32), zero=True)[0] == ("plain", "FAILED")
    # parse_check_line takes a record with its NUL
    rec = unimac.format_check_line("hash127-aes", "new\nline", bytes(16), zero=True)
    assert unimac.parse_check_line(rec).filename == "new\nline"


def test_a_zero_ended_file_read_without_zero_says_so(tmp_path):
    sums = _zero_sums(tmp_path, ["a", "b"])
    (tmp_path / "SUMS0").write_bytes(sums)
    with pytest.raises(ValueError) as e:
        unimac.verify_check_file(tmp_path / "SUMS0", ("hash127-aes", KEY32))
    assert str(e.value) == (
        f"{tmp_path / 'SUMS0'}: line 1 holds a NUL byte, which ends the lines of 'unimac tag -z' "
        "(made with -z? pass zero=True)"
    )
    assert "made with -z? pass zero=True" in str(e.value)


def test_zero_ended_lines_of_the_cli(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = ["one", "two\nlines"]
    for n in names:
        (tmp_path / n).write_bytes(os.urandom(50))
    subprocess.run([cli, "keygen", "hash127-aes", "-o", "k.key"], check=True)
    r = subprocess.run([cli, "tag", "hash127-aes", "--key-file", "k.key", "-z", *names], capture_output=True, check=True)
    assert r.stdout.count(b"\0") == 2
    (tmp_path / "SUMS0").write_bytes(r.stdout)
    assert unimac.verify_check_file("SUMS0", "k.key", zero=True) == [(n, "OK") for n in names]
    with pytest.raises(ValueError, match=r"made with -z\? pass zero=True"):
        unimac.verify_check_file("SUMS0", "k.key")
    # and the CLI checks the records made here
    (tmp_path / "three\nlines").write_bytes(b"x" * 99)
    m = unimac.Mac("hash127-aes", unimac.load_key("k.key").key)
    (tmp_path / "MINE0").write_bytes(unimac.format_check_line("hash127-aes", "three\nlines", m.tag_file("three\nlines"), zero=True))
    r = subprocess.run([cli, "verify", "--key-file", "k.key", "-z", "MINE0"], capture_output=True)
    assert r.returncode == 0, r


# 6. bound() takes sizes and counts as `unimac bound` does.


@pytest.mark.parametrize(
    "text,value",
    [("1MiB", 1 << 20), ("4KiB", 4096), ("1M", 1 << 20), ("1MB", 10**6), ("2^20", 1 << 20), ("1e6", 10**6),
     ("1_048_576", 1 << 20), (" 64 ", 64), ("16777215TiB", 16777215 << 40),
     ("1.5MiB", 1572864), ("0.5KiB", 512), ("1PiB", 1 << 50), ("15EiB", 15 << 60)],
)
def test_bound_takes_sizes_as_the_cli(text, value):
    assert unimac.bound("hash127-aes", text).log2 == unimac.bound("hash127-aes", value).log2
    b = unimac.bound("wc-mmh32x4", "1MiB", tags=text, forgeries="2^10")
    assert b.log2 == unimac.bound("wc-mmh32x4", 1 << 20, tags=value, forgeries=1024).log2
    if value < 1 << 59:
        assert unimac.bound("modp", text).log2 == unimac.bound("modp", value).log2
    else:
        with pytest.raises(ValueError, match=r"^modp: operands of \d+ bytes are too long: N = 16L \+ 1 is more than 2\^64 - 1$"):
            unimac.bound("modp", text)


@pytest.mark.parametrize(
    "text,message",
    [
        ("16777216TiB", "max_bytes: '16777216TiB' is more than 2^64 - 1 bytes"),
        ("2^64", "max_bytes: '2^64' is more than 2^64 - 1"),
        ("18446744073709551616", "max_bytes: '18446744073709551616' is more than 2^64 - 1"),
        ("16EiB", "max_bytes: '16EiB' is more than 2^64 - 1 bytes"),
        ("1.3KiB", "max_bytes: '1.3KiB' is not a whole number of bytes"),
        ("1ZiB", "max_bytes: '1ZiB': unknown unit 'ZiB' (B; KiB, MiB, GiB, TiB, PiB, EiB (or K, M, G, T, P, E); KB, MB, GB, TB, PB, EB)"),
        ("lots", "max_bytes: 'lots': expected a number such as 1048576, 2^20, 1e6 or 1MiB"),
    ],
)
def test_bound_refuses_sizes_the_cli_refuses(text, message):
    with pytest.raises(ValueError) as e:
        unimac.bound("hash127-aes", text)
    assert str(e.value) == message


def test_bound_counts_out_of_range_or_of_the_wrong_type():
    with pytest.raises(ValueError, match=r"^max_bytes: 18446744073709551616 is not in 0 \.\. 2\^64 - 1$"):
        unimac.bound("hash127-aes", 1 << 64)
    with pytest.raises(ValueError, match=r"^tags: -1 is not in"):
        unimac.bound("hash127-aes", 1, tags=-1)
    with pytest.raises(TypeError, match="forgeries: an int or a size such as '1MiB'"):
        unimac.bound("hash127-aes", 1, forgeries=1.5)
    assert unimac.bound.__text_signature__ == "(name, max_bytes, tags=1, forgeries=1, random_nonces=False)"


def test_bound_sizes_match_the_cli(cli):
    import json

    for args in (["--max-bytes", "1MiB", "--tags", "2^20"], ["--max-bytes", "4KiB", "--tags", "1e3", "--forgeries", "2^10"]):
        r = subprocess.run([cli, "bound", "wc-mmh32x4", *args, "--json"], capture_output=True, text=True, check=True)
        kw = dict(zip(("max_bytes", "tags", "forgeries"), args[1::2]))
        got = json.loads(r.stdout)
        b = unimac.bound("wc-mmh32x4", **kw)
        assert b.log2 == pytest.approx(got["bound_log2"]) and got["max_bytes"] in (1 << 20, 4096)


# 8. A clean namespace, and an install hint that works from a checkout.


def test_public_names_are_exactly_all():
    code = (
        "import types, unimac\n"
        "public = {n for n in dir(unimac) if not n.startswith('_') and not isinstance(getattr(unimac, n), types.ModuleType)}\n"
        "print(sorted(public ^ set(unimac.__all__)))\n"
        "print(isinstance(unimac.__version__, str))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert r.stdout.split("\n")[:2] == ["[]", "True"], r
    assert not hasattr(unimac, "PackageNotFoundError")
    assert len(unimac.__all__) == len(set(unimac.__all__))
    for n in unimac.__all__:
        assert not isinstance(getattr(unimac, n), types.ModuleType), n


def test_import_reads_no_metadata_and_loads_no_heavy_module():
    # `import unimac` stays cheap: the version comes from the extension (the
    # crate's, which pyproject.toml takes as the distribution's), so neither
    # importlib.metadata nor the optional numpy, dask or json is loaded.
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import unimac\n"
        "new = set(sys.modules) - before\n"
        "print(sorted(m for m in ('importlib.metadata', 'numpy', 'dask', 'distributed', 'json', 'unimac.dask') if m in new))\n"
        "print(unimac.__version__)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    loaded, version = r.stdout.split("\n")[:2]
    assert loaded == "[]", r
    from importlib.metadata import version as dist_version

    assert version == dist_version("unimac")


def test_the_dask_import_error_gives_a_working_install_hint():
    code = (
        "import sys; sys.modules['distributed'] = None\n"
        "try:\n    import unimac.dask\nexcept ImportError as e:\n    print(e)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == (
        "unimac.dask needs Dask's distributed scheduler: pip install 'dask[distributed]' "
        "(in a checkout of unimac: pip install '.[dask]', which adds cryptography for TLS)"
    ), r
    # the extra it names exists, with that dependency
    import pathlib

    text = (pathlib.Path(__file__).resolve().parents[3] / "pyproject.toml").read_text()
    extras = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    assert 'dask = ["dask[distributed]"' in extras
