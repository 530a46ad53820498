"""The hmac-style protocol, bad inputs, bounds, info, keys and modp."""

import os
import random
import subprocess
import threading

import pytest

import unimac

NONCE16 = (7).to_bytes(16, "little")

# What the refusals say: a one-time MAC names its one door; shoup4 draws its pair.
ONE_TIME_REFUSED = "unimac.OneTimeKey"
PAIR_REFUSED = r"draws its random r \|\| s"

# (name, nonce) for one MAC of each kind.
MACS = [
    ("hash127-aes", None),
    ("hash127-aes-nonce", NONCE16),
    ("hash127-aes-add", NONCE16),
    ("wc-mmh32x2", NONCE16),
    ("wc-mmh32x4", NONCE16),
    ("wc-nmh32", NONCE16),
    ("wc-sqh64-asm", NONCE16),
    ("wc-eval64", NONCE16),
    ("wc-division64", NONCE16),
    ("wc-eval128", NONCE16),
    ("shoup3-eval128", NONCE16),
    ("umac64", b"\x01" * 8),
    ("vmac64", b"\x02" * 8),
]


def key_for(name):
    return unimac.keygen(name)


@pytest.mark.parametrize("name,nonce", MACS)
def test_streaming_equals_one_shot(name, nonce):
    rng = random.Random(name)
    key = key_for(name)
    msg = os.urandom(rng.randrange(1, 5000))
    want = unimac.tag(name, key, msg, nonce=nonce, caller_manages_nonces=True)
    for _ in range(5):
        h = unimac.new(name, key, nonce=nonce, caller_manages_nonces=True)
        i = 0
        while i < len(msg):
            j = min(len(msg), i + rng.choice([0, 1, 3, 16, 127, 1000, 4096]))
            h.update(msg[i:j])
            i = j
        assert h.digest() == want
    h = unimac.new("mac-" + name, key, nonce=nonce, caller_manages_nonces=True)
    h.update(msg)
    assert h.hexdigest() == want.hex()
    assert h.name == name and h.digest_size == len(want) == unimac.info(name)["digest_size"]
    assert h.key_size == len(key)
    assert h.nonce_size == (0 if nonce is None else unimac.info(name)["nonce_size"])


@pytest.mark.parametrize("name,nonce", MACS)
def test_verify_raises_invalid_tag(name, nonce):
    key = key_for(name)
    msg = b"attack at dawn"
    t = unimac.tag(name, key, msg, nonce=nonce, caller_manages_nonces=True)
    m = unimac.Mac(name, key)
    m.verify(msg, t, nonce=nonce)
    for bad_msg, bad_tag in [(b"attack at dusk", t), (msg, t[:-1]), (msg, t + b"\0"), (msg, bytes(len(t)))]:
        with pytest.raises(unimac.InvalidTag):
            m.verify(bad_msg, bad_tag, nonce=nonce)
    h = unimac.new(name, key, nonce=nonce, caller_manages_nonces=True)
    h.update(b"attack at dusk")
    with pytest.raises(unimac.InvalidTag) as e:
        h.verify(t)
    assert isinstance(e.value, ValueError)
    assert issubclass(unimac.InvalidTag, ValueError)


@pytest.mark.parametrize("name,nonce", [m for m in MACS if m[1] is not None] + [("shoup4-eval64", None)])
def test_nonce_objects_give_one_digest_then_refuse_more_data(name, nonce):
    """A nonce (or random-pair) object authenticates one message: after
    digest(), hexdigest() or verify() it gives the same digest again (as
    hashlib) but refuses more data, and it cannot be copied."""
    key = key_for(name)
    for finish in ("digest", "verify", "hexdigest"):
        h = unimac.new(name, key, nonce=nonce, caller_manages_nonces=True)
        h.update(b"one message")
        if finish == "verify":
            with pytest.raises(unimac.InvalidTag, match="tag mismatch"):
                h.verify(b"\0" * h.digest_size)
        else:
            getattr(h, finish)()
        d = h.digest()
        assert len(d) == h.digest_size
        assert h.digest() == d and h.hexdigest() == d.hex()
        h.verify(d)
        if nonce is not None:
            assert d == unimac.tag(name, key, b"one message", nonce=nonce, caller_manages_nonces=True)
        else:  # shoup4: r || s drawn by the library, then the tag
            unimac.Mac(name, key).verify(b"one message", d)
        with pytest.raises(ValueError, match="already given its tag"):
            h.update(b"more")
        assert h.digest() == d  # the refused update changed nothing
    with pytest.raises(TypeError, match="not copyable"):
        unimac.new(name, key, nonce=nonce, caller_manages_nonces=True).copy()


def test_one_time_macs_have_no_streaming_object():
    """hash127 and hash127-96 (and the plain hash hash127, whose value under
    r || k is the one-time tag) are refused by unimac.new."""
    for name in ("hash127", "mac-hash127", "hash127-96", "hash127-raw"):
        key = key_for(name)
        with pytest.raises(ValueError, match=ONE_TIME_REFUSED):
            unimac.new(name, key)


def test_stateless_objects_digest_repeatedly():
    key = key_for("hash127-aes")
    h = unimac.new("hash127-aes", key)
    h.update(b"abc")
    d = h.digest()
    assert h.digest() == d and h.hexdigest() == d.hex()
    h.verify(d)
    c = h.copy()
    assert c.digest() == d
    h.update(b"more")  # as hashlib: the digest was taken from a copy
    assert h.digest() == unimac.tag("hash127-aes", key, b"abcmore") and c.digest() == d
    raw = unimac.new("eval64", key[:8])
    raw.update(b"xyz")
    assert raw.digest() == raw.digest() == unimac.compute("eval64", key[:8], b"xyz")


@pytest.mark.parametrize("name", ["hash127-aes", "eval64", "division64", "gdivision64", "eval128", "tree-mmh32x2", "tree-sqh96-e"])
def test_open_stateless_objects_copy_like_hashlib(name):
    # As hashlib: a copy taken mid-message continues on its own; both finish
    # with the one-shot result of their own message.
    key = key_for(name)
    h = unimac.new(name, key)
    h.update(b"common prefix, ")
    c = h.copy()
    h.update(b"then one end")
    c.update(b"then another end, longer" * 300)
    assert h.digest() == unimac.compute(name, key, b"common prefix, then one end")
    assert c.digest() == unimac.compute(name, key, b"common prefix, " + b"then another end, longer" * 300)


def test_one_time_key_is_spent_by_tag_not_by_verify():
    key = key_for("hash127")
    with pytest.raises(ValueError, match=ONE_TIME_REFUSED):
        unimac.Mac("hash127", key)
    with pytest.raises(ValueError, match=ONE_TIME_REFUSED):
        unimac.compute("hash127", key, b"first")
    m = unimac.OneTimeKey("hash127", key)
    assert not m.spent and m.name == "hash127" and m.digest_size == 16
    t0 = unimac.known_answer("hash127", key, b"first")
    m.verify(b"first", t0)
    m.verify(b"first", t0)
    assert not m.spent  # verify never spends the key
    assert m.tag(b"first") == t0
    assert m.spent and "spent=True" in repr(m)
    with pytest.raises(ValueError, match="one-time key has already tagged"):
        m.tag(b"second")
    with pytest.raises(ValueError, match="one-time key has already tagged"):
        m.tag(b"first")  # not even the same message again
    m.verify(b"first", t0)  # checking still works
    with pytest.raises(unimac.InvalidTag, match="tag mismatch"):
        m.verify(b"second", t0)
    assert not hasattr(m, "tag_file")  # no door but tag()


def test_shoup4_random_pair():
    key = key_for("shoup4-eval64")
    m = unimac.Mac("shoup4-eval64", key)
    a, b = m.tag(b"msg"), m.tag(b"msg")
    assert len(a) == len(b) == 24 and a[:16] != b[:16]
    m.verify(b"msg", a)
    m.verify(b"msg", b)
    assert a[16:] == unimac.known_answer("mac-shoup4-eval64", key, b"msg", nonce=a[:16])
    assert b[16:] == unimac.known_answer("shoup4-eval64", key, b"msg", nonce=b[:16])
    # The pair is the library's: no door takes one from the caller.
    with pytest.raises(ValueError, match=PAIR_REFUSED):
        m.tag(b"msg", nonce=a[:16], caller_manages_nonces=True)
    with pytest.raises(ValueError, match=PAIR_REFUSED):
        unimac.compute("mac-shoup4-eval64", key, b"msg", nonce=a[:16], caller_manages_nonces=True)
    with pytest.raises(ValueError, match=PAIR_REFUSED):
        m.verify(b"msg", b[16:], nonce=b[:16])
    with pytest.raises(unimac.InvalidTag):
        m.verify(b"msh", a)
    with pytest.raises(unimac.InvalidTag):
        m.verify(b"msg", a[:16] + b[16:])  # a's pair with b's tag
    with pytest.raises(unimac.InvalidTag):
        m.verify(b"msg", a[16:])  # the tag without its pair
    h = unimac.new("shoup4-eval64", key)
    h.update(b"msg")
    sent = h.digest()
    m.verify(b"msg", sent)
    assert h.digest_size == 24 and len(sent) == 24


def test_tag_file(tmp_path):
    p = tmp_path / "f"
    data = os.urandom(3 << 20)
    p.write_bytes(data)
    for name, nonce in MACS:
        key = key_for(name)
        m = unimac.Mac(name, key)
        assert m.tag_file(p, nonce=nonce, caller_manages_nonces=True) == m.tag(data, nonce=nonce, caller_manages_nonces=True), name
        assert m.tag_file(str(p), nonce=nonce, caller_manages_nonces=True) == m.tag(data, nonce=nonce, caller_manages_nonces=True), name
    # shoup4: each call draws its pair; the sent form verifies.
    m = unimac.Mac("shoup4-eval64", key_for("shoup4-eval64"))
    a, b = m.tag_file(p), m.tag_file(p)
    assert len(a) == len(b) == 24 and a[:16] != b[:16]
    m.verify(data, a)
    m.verify(data, b)
    with pytest.raises(FileNotFoundError):
        unimac.Mac("hash127-aes", key_for("hash127-aes")).tag_file(tmp_path / "missing")


# ---------------------------------------------------------------------------
# Bad inputs: ValueError with the CLI's message
# ---------------------------------------------------------------------------

def cli_error(cli, *args):
    r = subprocess.run([cli, *args], capture_output=True, text=True)
    assert r.returncode == 2, (args, r.stderr)
    line = r.stderr.strip().splitlines()[-1]
    return line.split("error: ", 1)[-1] if line.startswith("unimac: error: ") else line


def test_wrong_key_length():
    for name in ("hash127-aes", "wc-mmh32x2", "umac64", "vmac64", "shoup4-eval64"):
        good = len(key_for(name))
        for n in (0, good - 1, good + 1):
            with pytest.raises(ValueError, match=f"{name}: key must be .* bytes, got {n}$"):
                unimac.Mac(name, bytes(n))
            with pytest.raises(ValueError, match=f"key must be .* bytes, got {n}$"):
                unimac.new(name, bytes(n), nonce=NONCE16[:unimac.info(name)["nonce_size"]] if unimac.info(name)["nonce"] else None, caller_manages_nonces=True)
    with pytest.raises(ValueError, match="eval64: key must be 8 bytes, got 7"):
        unimac.compute("eval64", bytes(7), b"")


def test_wrong_nonce_length():
    key = key_for("wc-mmh32x2")
    with pytest.raises(ValueError, match="wc-mmh32x2: nonce must be 16 bytes, got 15"):
        unimac.Mac("wc-mmh32x2", key).tag(b"x", nonce=bytes(15), caller_manages_nonces=True)
    with pytest.raises(ValueError, match="nonce must be 16 bytes, got 17"):
        unimac.new("wc-mmh32x2", key, nonce=bytes(17), caller_manages_nonces=True)
    with pytest.raises(ValueError, match="umac64: nonce must be 1 to 16 bytes, got 17"):
        unimac.Mac("umac64", bytes(16)).tag(b"x", nonce=bytes(17), caller_manages_nonces=True)
    with pytest.raises(ValueError, match="takes no nonce"):
        unimac.Mac("hash127-aes", bytes(32)).tag(b"x", nonce=bytes(16), caller_manages_nonces=True)
    with pytest.raises(ValueError, match="nonce must be 16 bytes, got 15"):
        unimac.Mac("wc-mmh32x2", key).tag_file(__file__, nonce=bytes(15), caller_manages_nonces=True)


def test_missing_nonce():
    for name in ("wc-mmh32x2", "hash127-aes-nonce", "umac32", "vmac128", "shoup3-eval128"):
        key = key_for(name)
        with pytest.raises(ValueError, match=f"{name}: this MAC needs a nonce"):
            unimac.Mac(name, key).tag(b"x")
        with pytest.raises(ValueError, match="needs a nonce"):
            unimac.new(name, key)
        with pytest.raises(ValueError, match="needs a nonce"):
            unimac.tag(name, key, b"x")


def test_unknown_name_suggests():
    with pytest.raises(ValueError, match=r"unknown MAC 'hash127-ase'; did you mean 'hash127-aes'\?"):
        unimac.Mac("hash127-ase", bytes(32))
    with pytest.raises(ValueError, match=r"did you mean 'wc-mmh32x4'\?"):
        unimac.new("wc-mmh32z4", bytes(32))
    with pytest.raises(ValueError, match=r"unknown name 'zzzzzz'; unimac\.names\(\) lists every name"):
        unimac.compute("zzzzzz", bytes(32), b"")
    with pytest.raises(ValueError, match="'eval64' is a hash, not a MAC"):
        unimac.Mac("eval64", bytes(8))
    with pytest.raises(ValueError, match="unknown"):
        unimac.info("nope-nope")
    with pytest.raises(ValueError, match="unknown"):
        unimac.keygen("nope-nope")


def _cli_pointers_as_python(msg):
    """The CLI's pointers to `unimac list` as Python says them."""
    return (
        msg.replace("'unimac list' shows the MACs", "unimac.mac_names() lists the MACs")
        .replace("'unimac list' shows every name", "unimac.names() lists every name")
        .replace("(see 'unimac list')", "(see unimac.names())")
    )


def test_messages_are_the_clis(cli, tmp_path):
    """The same wrong input gives the same message here and from `unimac`
    (where the CLI says 'unimac list', Python names its functions)."""
    k3 = tmp_path / "k3"
    cases = [
        (lambda: unimac.compute("hash127-aes", bytes(3), b""), ["compute", "hash127-aes", "--key", "000000", "/dev/null"]),
        (lambda: unimac.compute("eval6", bytes(8), b""), ["compute", "eval6", "--key", "00" * 8, "/dev/null"]),
        (lambda: unimac.compute("wc-mmh32x2", bytes(32), b""), ["compute", "wc-mmh32x2", "--key", "00" * 32, "/dev/null"]),
        (lambda: unimac.compute("wc-mmh32x2", bytes(32), b"", nonce=bytes(3), caller_manages_nonces=True),
         ["compute", "wc-mmh32x2", "--key", "00" * 32, "--nonce", "000000", "--caller-manages-nonces", "/dev/null"]),
        (lambda: unimac.keygen("hash127-ase"), ["keygen", "hash127-ase", "-o", str(k3)]),
    ]
    for py, args in cases:
        with pytest.raises(ValueError) as e:
            py()
        assert str(e.value) in _cli_pointers_as_python(cli_error(cli, *args)), args


def test_str_and_non_buffers_are_type_errors():
    key = bytes(32)
    m = unimac.Mac("hash127-aes", key)
    for call in (lambda: m.tag("text"), lambda: unimac.new("hash127-aes", key).update("text"),
                 lambda: unimac.compute("hash127-aes", key, "text"), lambda: m.verify("text", bytes(16)),
                 lambda: unimac.Mac("hash127-aes", "k" * 32), lambda: m.tag(12345), lambda: m.tag(None),
                 lambda: m.tag([1, 2, 3])):
        with pytest.raises(TypeError):
            call()


# ---------------------------------------------------------------------------
# Buffers
# ---------------------------------------------------------------------------

def test_buffers_of_every_kind():
    np = pytest.importorskip("numpy")
    import array

    key = os.urandom(32)
    m = unimac.Mac("hash127-aes", key)
    raw = os.urandom(10000)
    want = m.tag(raw)
    a = np.frombuffer(raw, dtype=np.uint8)
    for obj in (bytearray(raw), memoryview(raw), a, a.view(np.uint32), a.view(np.float64), array.array("B", raw)):
        assert m.tag(obj) == want
        assert unimac.compute("hash127-aes", key, obj) == want
    big = memoryview(b"\xaa" + raw + b"\xbb")
    assert m.tag(big[1:-1]) == want
    with pytest.raises(BufferError):
        m.tag(a[::2])
    mat = a.reshape(100, 100)
    assert m.tag(mat) == want
    with pytest.raises(BufferError):
        m.tag(mat.T)
    assert m.tag(np.ascontiguousarray(mat.T)) == m.tag(np.ascontiguousarray(mat.T).tobytes())


def _maxrss_mib():
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_large_buffers_are_not_copied():
    """Hashing a 256 MiB numpy array or memoryview slice adds nothing like
    256 MiB to the peak memory (a copy would)."""
    np = pytest.importorskip("numpy")
    n = 256 << 20
    a = np.ones(n, dtype=np.uint8)
    a[::4096] = 7  # touch every page
    before = _maxrss_mib()
    key = os.urandom(32)
    m = unimac.Mac("hash127-aes", key)
    t1 = m.tag(a)
    t2 = m.tag(memoryview(a)[1:])
    h = unimac.new("wc-mmh32x4", unimac.keygen("wc-mmh32x4"), nonce=NONCE16, caller_manages_nonces=True)
    h.update(a[3:])
    h.digest()
    grew = _maxrss_mib() - before
    assert grew < 64, f"peak memory grew by {grew:.0f} MiB"
    assert t1 != t2
    assert t2 == m.tag(a[1:])


def test_bytearray_is_locked_while_exported_only():
    b = bytearray(b"x" * 5000)
    unimac.Mac("hash127-aes", bytes(32)).tag(b)
    b.extend(b"y")  # the export was released
    assert len(b) == 5001


# ---------------------------------------------------------------------------
# Threads
# ---------------------------------------------------------------------------

def test_shared_objects_between_threads():
    key = unimac.keygen("hash127-aes")
    m = unimac.Mac("hash127-aes", key)
    chunk = os.urandom(3000)
    n_threads, per = 4, 50
    h = unimac.new("hash127-aes", key)
    errors = []

    def work():
        try:
            for _ in range(per):
                h.update(chunk)
                assert m.tag(chunk) == unimac.tag("hash127-aes", key, chunk)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(n_threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
    assert h.digest() == m.tag(chunk * (n_threads * per))


def test_python_runs_while_a_large_input_is_hashed():
    """While one thread hashes 256 MiB, another runs Python code: the GIL is
    released (with it held, the counter below could not advance)."""
    buf = bytearray(os.urandom(1 << 20)) * 256
    m = unimac.Mac("hash127-aes", unimac.keygen("hash127-aes"))
    done = threading.Event()
    ticks = 0

    def hash_it():
        for _ in range(4):
            m.tag(buf)
        done.set()

    t = threading.Thread(target=hash_it)
    t.start()
    while not done.is_set():
        ticks += 1
    t.join()
    assert ticks > 1000, ticks


def _ran_during(call, attempts=5):
    """Whether the main thread ran Python code in the middle of `call()`,
    run on another thread, in any of `attempts` tries.

    The switch interval is set far beyond the test, so a thread that holds
    the GIL is never made to give it up: it keeps it until it releases it
    itself. The main thread waits (GIL released) until the worker has
    started; the worker then holds the GIL, and the main thread, woken,
    can take it back only when the worker releases it: inside `call()` if
    that releases the GIL (then `done` is not yet set), or else when the
    worker ends (then it is). Only the start of `call()` releasing the GIL
    and its end taking it back before the waiting main thread does (a call
    shorter than a thread's wake-up) could hide a release: a few tries."""
    import sys

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        for _ in range(attempts):
            started, done = threading.Event(), threading.Event()

            def work():
                started.set()
                call()
                done.set()

            t = threading.Thread(target=work)
            t.start()
            started.wait()
            ran = not done.is_set()
            t.join()
            if ran:
                return True
        return False
    finally:
        sys.setswitchinterval(old)


def test_gil_is_released_for_large_inputs():
    """A MAC's tag of a large input releases the GIL: another thread runs
    Python code in the middle of the call. A small input (below
    GIL_RELEASE_BYTES, 2 KiB) keeps it, which shows the observation can
    tell the two apart. (Two threads' speed-up over one is measured by
    crates/unimac-py/bench/gil_parallel.py, not asserted.)"""
    import itertools

    m = unimac.Mac("wc-sqh128-e", unimac.keygen("wc-sqh128-e"))
    nonces = itertools.count(1)

    def tag(b):
        # A fresh nonce for every message, as the MAC requires.
        return lambda: m.tag(b, nonce=next(nonces).to_bytes(16, "little"), caller_manages_nonces=True)

    assert _ran_during(tag(bytearray(os.urandom(1 << 20)) * 64))
    assert not _ran_during(tag(bytes(64)), attempts=1)


# ---------------------------------------------------------------------------
# names, info, keygen, compare_digest, bound
# ---------------------------------------------------------------------------

def test_names_and_info():
    names = unimac.names()
    assert len(names) == len(set(names)) > 60
    macs = unimac.mac_names()
    assert set("mac-" + m for m in macs) <= set(names)
    for m in macs:
        i = unimac.info(m)
        assert i["mac"] and i["name"] == m
        assert unimac.info("mac-" + m) == i
        assert i["summary"] and "seed " not in i["summary"]
        if i["key_size"] is not None:
            assert len(unimac.keygen(m)) == i["key_size"]
    assert unimac.info("hash127")["one_time"] and not unimac.info("hash127")["stateless"]
    assert unimac.info("hash127-96")["one_time"] and unimac.info("hash127-raw")["one_time"]
    assert not unimac.info("hash127-aes")["one_time"] and not unimac.info("eval64")["one_time"]
    assert unimac.info("hash127-aes")["stateless"] and not unimac.info("hash127-aes")["nonce"]
    assert unimac.info("wc-mmh32x4")["nonce"] and unimac.info("wc-mmh32x4")["nonce_size"] == 16
    assert unimac.info("umac32")["nonce_sizes"] == (1, 16)
    assert unimac.info("shoup4-eval64")["random_pair"] and unimac.info("shoup4-eval64")["sent_size"] == 24
    assert unimac.info("sqh64-asm")["key_size"] is None
    raw = unimac.info("eval64")
    assert not raw["mac"] and raw["key_size"] == 8 and raw["digest_size"] == 8
    assert unimac.info("keystream")["takes_length"]
    for name in names:
        unimac.info(name)


def test_keygen_is_random_and_sized():
    for name in ("hash127-aes", "wc-mmh32x4", "vmac64", "hash127-96", "eval128"):
        a, b = unimac.keygen(name), unimac.keygen(name)
        assert len(a) == len(b) == unimac.info(name)["key_size"] and a != b
    with pytest.raises(ValueError):
        unimac.keygen("sqh64-asm")
    p = unimac.keygen("modp")
    assert len(p) == 16 and int.from_bytes(p, "little") >> 120
    unimac.SecretPrime(p)


def test_compare_digest():
    assert unimac.compare_digest(b"abc", b"abc")
    assert unimac.compare_digest(bytearray(b"abc"), memoryview(b"abc"))
    assert not unimac.compare_digest(b"abc", b"abd")
    assert not unimac.compare_digest(b"abc", b"ab")
    assert unimac.compare_digest(b"", b"")
    with pytest.raises(TypeError):
        unimac.compare_digest("abc", "abc")


def test_bound():
    b = unimac.bound("hash127-aes", 1 << 20, tags=1 << 20)
    assert b.proven and -80 < b.log2 < -60
    assert b.value == pytest.approx(2.0 ** b.log2)
    assert "Bernstein" in b.theorem and "seed" not in b.theorem
    assert b.terms and all({"what", "formula", "log2", "from_theorem"} <= set(t) for t in b.terms)
    assert b.theorem_log2 <= b.log2 + 1e-9
    assert b.name in b.text
    more = unimac.bound("mac-hash127-aes", 1 << 20, tags=1 << 30, forgeries=1 << 20)
    assert more.log2 > b.log2
    r = unimac.bound("wc-mmh32x4", 1 << 20, tags=1 << 32, forgeries=1 << 32, random_nonces=True)
    c = unimac.bound("wc-mmh32x4", 1 << 20, tags=1 << 32, forgeries=1 << 32)
    assert r.log2 > c.log2
    with pytest.raises(ValueError):
        unimac.bound("hash127", 1 << 20, tags=1 << 40, forgeries=1 << 40)
    with pytest.raises(ValueError, match="did you mean"):
        unimac.bound("hash127-ae", 100)


def test_bound_matches_cli(cli):
    import json

    r = subprocess.run([cli, "bound", "wc-mmh32x4", "--max-bytes", "1048576", "--tags", "1000", "--forgeries", "10",
                        "--json"], capture_output=True, text=True, check=True)
    j = json.loads(r.stdout)
    b = unimac.bound("wc-mmh32x4", 1048576, tags=1000, forgeries=10)
    assert b.log2 == pytest.approx(j["bound_log2"])
    assert b.proven == j["proven"]


# ---------------------------------------------------------------------------
# modp
# ---------------------------------------------------------------------------

def test_secret_prime():
    rng = random.Random(5)
    p = unimac.SecretPrime()
    pv = int.from_bytes(p.to_bytes(), "little")
    assert 2 ** 120 <= pv < 2 ** 128 and pv % 2 == 1
    assert unimac.SecretPrime().to_bytes() != p.to_bytes()
    for bits in (0, 1, 64, 127, 128, 129, 1000, 100000):
        x = rng.getrandbits(bits) if bits else 0
        assert p.reduce(x) == x % pv
    big = rng.getrandbits(10 ** 6)
    assert p.reduce(big) == big % pv
    assert unimac.compute("modp", p.to_bytes(), big.to_bytes((big.bit_length() + 7) // 8, "little")) == (
        big % pv).to_bytes(16, "little")
    a, b, c, d = (rng.getrandbits(20000) for _ in range(4))
    a += b * c
    e = a * a - b * c  # a^2 = bc + 1*e
    assert p.check_identity(a, b, c, 1, e)
    assert not p.check_identity(a, b, c, 1, e + 1)
    assert not p.check_identity(a + 1, b, c, 1, e)
    assert unimac.SecretPrime.false_accept_log2(a, b, c, 1, e) < -100
    with pytest.raises(ValueError):
        p.reduce(-1)
    with pytest.raises(TypeError):
        p.reduce(b"\x01")
    with pytest.raises(ValueError, match="not prime"):
        unimac.SecretPrime((2 ** 127 + 1).to_bytes(16, "little"))
    with pytest.raises(ValueError, match="key must be 16 bytes"):
        unimac.SecretPrime(bytes(15))
    assert "secret" in repr(p) and str(pv) not in repr(p)


def test_modp_bound_matches_cli(cli):
    import json

    r = subprocess.run([cli, "bound", "modp", "--max-bytes", "1000000", "--forgeries", "1000", "--json"],
                       capture_output=True, text=True, check=True)
    j = json.loads(r.stdout)
    b = unimac.bound("modp", 1000000, forgeries=1000)
    assert b.log2 == pytest.approx(j["bound_log2"])
    assert b.log2 < -90 and b.proven and "Bernstein" in b.theorem
    assert unimac.bound("modp", 7).log2 == float("-inf") and unimac.bound("modp", 7).value == 0.0
    # One rule and one text (the library's bounds::modp_bound) at both doors.
    t = subprocess.run([cli, "bound", "modp", "--max-bytes", "1000000", "--forgeries", "1000"],
                       capture_output=True, text=True, check=True)
    assert b.text == t.stdout
    for args, kw in (((100,), {"forgeries": 0}), ((1 << 60,), {})):
        with pytest.raises(ValueError) as e:
            unimac.bound("modp", *args, **kw)
        r = subprocess.run([cli, "bound", "modp", "--max-bytes", str(args[0]), "--forgeries", str(kw.get("forgeries", 1))],
                           capture_output=True, text=True)
        assert r.returncode != 0 and r.stderr == f"unimac: {e.value}\n"
    assert str(e.value) == "modp: operands of 1152921504606846976 bytes are too long: N = 16L + 1 is more than 2^64 - 1"


def test_tag_file_checks_the_nonce_before_reading(tmp_path):
    missing = tmp_path / "missing"
    key = unimac.keygen("wc-mmh32x4")
    with pytest.raises(ValueError, match="wc-mmh32x4: this MAC needs a nonce"):
        unimac.Mac("wc-mmh32x4", key).tag_file(missing)
    with pytest.raises(ValueError, match="takes no nonce"):
        unimac.Mac("hash127-aes", unimac.keygen("hash127-aes")).tag_file(missing, nonce=bytes(16), caller_manages_nonces=True)
    with pytest.raises(ValueError, match=PAIR_REFUSED):
        unimac.Mac("shoup4-eval64", unimac.keygen("shoup4-eval64")).tag_file(missing, nonce=bytes(16), caller_manages_nonces=True)


def test_an_output_too_large_to_allocate_is_memory_error_not_an_abort():
    """A keystream longer than memory allows is a MemoryError (or the
    library's length refusal), never an aborted interpreter."""
    import subprocess
    import sys

    code = (
        "import resource, unimac\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))\n"
        "try:\n"
        "    unimac.compute('keystream', bytes(16), b'', length=2**32)\n"
        "except MemoryError as e:\n"
        "    print('MemoryError', e)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("MemoryError") and "keystream" in r.stdout, r.stdout
