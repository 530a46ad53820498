"""Misuse matrix: every door of the package against every misuse of a key or
nonce rule.

Doors: the module functions ``tag``, ``verify``, ``compute``, ``new``; the
objects ``Mac`` and ``UnimacHash``; ``OneTimeKey``; the partial functions
``partial_hash``, ``finish_mac``, ``finish_hash``, ``hash_key``.

Misuses:
  (a) a one-time key tagged twice, or through a reusable door;
  (b) a caller-chosen pair ``r || s`` for ``shoup4-*``;
  (c) a nonce counter without its MAC and key, for another key or MAC,
      rolled back to a bare ``0``, with a second hard link, a FIFO or a
      directory;
  (d) the byte order and range of counter nonces (VMAC big-endian with the
      top bit clear, UMAC little-endian);
  (e) a key shown by ``repr()`` or ``str()`` of an object that holds it.

Every row is its own test and checks the exception type with a fragment of
its message, or the value.
"""

import copy
import os
import pickle
import subprocess
import sys
import textwrap
import threading

import pytest

import unimac

MSG = b"attack at dawn"
ONE_TIME_REFUSED = r"is a one-time MAC \(one message per key\).*unimac\.OneTimeKey"
PAIR_REFUSED = r"draws its random r \|\| s for every message itself"
NOT_A_MAC = "is a hash, not a MAC"

# ---------------------------------------------------------------------------
# (a) One-time keys
# ---------------------------------------------------------------------------

# The one-time names: the MACs by both spellings, and the plain hashes whose
# value under r || k is a one-time tag. (name, key bytes, the OneTimeKey name
# whose tag it is, or None when the name is not a MAC's.)
ONE_TIME_NAMES = [
    ("hash127", 32, "hash127"),
    ("mac-hash127", 32, "hash127"),
    ("hash127-96", 48, "hash127-96"),
    ("mac-hash127-96", 48, "hash127-96"),
    ("hash127-raw", 32, None),
]


def _whole_partial():
    """A whole partial of the hash under every one-time name (hash127 of
    ``abcd`` under r = 0), from a reusable name that has partials."""
    return unimac.partial_hash("hash127-aes", bytes(16), 0, b"abcd")


def _unimac_hash(name, key):
    # A UnimacHash has no constructor of its own: new() is its only door.
    with pytest.raises(TypeError, match="No constructor defined for UnimacHash"):
        unimac.UnimacHash(name, key)
    return unimac.new(name, key)


# door -> a call of the door with a one-time name and its key.
REUSABLE_DOORS = {
    "tag": lambda n, k: unimac.tag(n, k, MSG),
    "verify": lambda n, k: unimac.verify(n, k, MSG, bytes(16)),
    "compute": lambda n, k: unimac.compute(n, k, MSG),
    "new": lambda n, k: unimac.new(n, k),
    "Mac": lambda n, k: unimac.Mac(n, k),
    "Mac.__new__": lambda n, k: unimac.Mac.__new__(unimac.Mac, n, k),
    "UnimacHash": _unimac_hash,
    "partial_hash": lambda n, k: unimac.partial_hash(n, k[:16], 0, b"abcd"),
    "partial_hash(last=False)": lambda n, k: unimac.partial_hash(n, k[:16], 0, b"abcd", last=False),
    "finish_mac": lambda n, k: unimac.finish_mac(n, k, _whole_partial()),
    "finish_hash": lambda n, k: unimac.finish_hash(n, k, _whole_partial()),
    "hash_key": lambda n, k: unimac.hash_key(n, k),
}
# Doors that take MAC names only: a plain hash name is refused as not a MAC.
MAC_ONLY_DOORS = {"tag", "verify", "Mac", "Mac.__new__"}


@pytest.mark.parametrize("door", sorted(REUSABLE_DOORS))
@pytest.mark.parametrize("name,key_len,_mac", ONE_TIME_NAMES, ids=[n for n, _, _ in ONE_TIME_NAMES])
def test_one_time_name_refused_by_reusable_door(door, name, key_len, _mac):
    key = os.urandom(key_len)
    expected = NOT_A_MAC if (door in MAC_ONLY_DOORS and _mac is None) else ONE_TIME_REFUSED
    with pytest.raises(ValueError, match=expected) as e:
        REUSABLE_DOORS[door](name, key)
    assert not isinstance(e.value, unimac.InvalidTag)


@pytest.mark.parametrize("name,key_len,mac", [r for r in ONE_TIME_NAMES if r[2]], ids=[n for n, _, m in ONE_TIME_NAMES if m])
def test_one_time_key_tags_once(name, key_len, mac):
    key = os.urandom(key_len)
    k = unimac.OneTimeKey(name, key)
    assert k.name == mac and not k.spent
    t = k.tag(MSG)
    assert len(t) == k.digest_size == (16 if mac == "hash127" else 12)
    assert k.spent
    for second in (MSG, b"another message", b""):
        with pytest.raises(ValueError, match="this one-time key has already tagged a message"):
            k.tag(second)
    assert k.spent
    # Verification never spends and keeps working after the tag.
    k.verify(MSG, t)
    with pytest.raises(unimac.InvalidTag, match="tag mismatch"):
        k.verify(b"attack at dusk", t)
    # known_answer gives the same value for the same key and message.
    assert unimac.known_answer(name, key, MSG) == t
    assert unimac.known_answer("mac-" + mac, key, MSG) == t


@pytest.mark.parametrize("name,key_len,mac", [r for r in ONE_TIME_NAMES if r[2]], ids=[n for n, _, m in ONE_TIME_NAMES if m])
def test_one_time_key_verify_does_not_spend(name, key_len, mac):
    key = os.urandom(key_len)
    t = unimac.known_answer(name, key, MSG)
    k = unimac.OneTimeKey(name, key)
    for _ in range(3):
        k.verify(MSG, t)
        with pytest.raises(unimac.InvalidTag, match="tag mismatch"):
            k.verify(MSG, t[:-1] + bytes([t[-1] ^ 1]))
    assert not k.spent
    assert k.tag(MSG) == t


def test_plain_hash127_value_is_the_one_time_tag():
    """The hash name hash127 under r || k gives the one-time MAC's tag: the
    same value, and therefore only through known_answer."""
    key = os.urandom(32)
    assert unimac.known_answer("hash127", key, MSG) == unimac.OneTimeKey("hash127", key).tag(MSG)
    with pytest.raises(ValueError, match=ONE_TIME_REFUSED):
        unimac.compute("hash127", key, MSG)


def test_one_time_key_tagged_from_two_threads_tags_once():
    key = os.urandom(32)
    k = unimac.OneTimeKey("hash127", key)
    start = threading.Barrier(8)
    tags, refusals = [], []

    def work(i):
        start.wait()
        try:
            tags.append(k.tag(b"message %d" % i))
        except ValueError as e:
            refusals.append(str(e))

    ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(tags) == 1 and len(refusals) == 7
    assert all("already tagged" in r for r in refusals)
    assert tags[0] in {unimac.known_answer("hash127", key, b"message %d" % i) for i in range(8)}


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_one_time_key_cannot_be_duplicated(how):
    """A copy would be a second key object not known to be spent."""
    k = unimac.OneTimeKey("hash127", os.urandom(32))
    dup = {"copy": copy.copy, "deepcopy": copy.deepcopy, "pickle": pickle.dumps}[how]
    with pytest.raises(TypeError, match="cannot pickle 'unimac.OneTimeKey' object"):
        dup(k)
    with pytest.raises(TypeError, match="not an acceptable base type"):
        type("Sub", (unimac.OneTimeKey,), {})


@pytest.mark.parametrize("name", ["hash127-aes", "wc-eval64", "umac64", "shoup4-eval64", "hash127-raw", "eval64"])
def test_one_time_door_refuses_other_names(name):
    key = unimac.keygen(name)
    expected = NOT_A_MAC if name in ("hash127-raw", "eval64") else "not a one-time MAC; use the reusable interface"
    with pytest.raises(ValueError, match=expected):
        unimac.OneTimeKey(name, key)


def test_one_time_key_checks_its_key_length():
    with pytest.raises(ValueError, match="hash127-96: key must be 48 bytes, got 32"):
        unimac.OneTimeKey("hash127-96", bytes(32))


# ---------------------------------------------------------------------------
# (b) shoup4: the library draws r || s
# ---------------------------------------------------------------------------

SHOUP4 = ["shoup4-eval64", "shoup4-division64"]

PAIR_DOORS = {
    "tag": lambda n, k, p, path: unimac.tag(n, k, MSG, nonce=p, caller_manages_nonces=True),
    "Mac.tag": lambda n, k, p, path: unimac.Mac(n, k).tag(MSG, nonce=p, caller_manages_nonces=True),
    "Mac.tag_file": lambda n, k, p, path: unimac.Mac(n, k).tag_file(path, nonce=p, caller_manages_nonces=True),
    "new": lambda n, k, p, path: unimac.new(n, k, nonce=p, caller_manages_nonces=True),
    "compute": lambda n, k, p, path: unimac.compute(n, k, MSG, nonce=p, caller_manages_nonces=True),
    "verify": lambda n, k, p, path: unimac.verify(n, k, MSG, bytes(8), nonce=p),
    "Mac.verify": lambda n, k, p, path: unimac.Mac(n, k).verify(MSG, bytes(8), nonce=p),
}


@pytest.mark.parametrize("door", sorted(PAIR_DOORS))
@pytest.mark.parametrize("name", SHOUP4)
def test_shoup4_caller_pair_refused(door, name, tmp_path):
    key = unimac.keygen(name)
    path = tmp_path / "m"
    path.write_bytes(MSG)
    for pair in (bytes(16), os.urandom(16)):
        with pytest.raises(ValueError, match=PAIR_REFUSED):
            PAIR_DOORS[door](name, key, pair, path)


@pytest.mark.parametrize("name", SHOUP4)
def test_shoup4_compute_refused_even_without_a_pair(name):
    with pytest.raises(ValueError, match=PAIR_REFUSED):
        unimac.compute(name, unimac.keygen(name), MSG)


@pytest.mark.parametrize("door", ["Mac.tag", "tag", "Mac.tag_file", "new"])
@pytest.mark.parametrize("name", SHOUP4)
def test_shoup4_pairs_are_fresh_and_verify(door, name, tmp_path):
    key = unimac.keygen(name)
    m = unimac.Mac(name, key)
    path = tmp_path / "m"
    path.write_bytes(MSG)

    def sent():
        if door == "Mac.tag":
            return m.tag(MSG)
        if door == "tag":
            return unimac.tag(name, key, MSG)
        if door == "Mac.tag_file":
            return m.tag_file(path)
        h = unimac.new(name, key)
        h.update(MSG)
        return h.digest()

    a, b = sent(), sent()
    assert len(a) == len(b) == 24
    assert a[:16] != b[:16]  # a new pair for every message
    for s in (a, b):
        m.verify(MSG, s)
        unimac.verify(name, key, MSG, s)
        assert unimac.known_answer(name, key, MSG, nonce=s[:16]) == s[16:]
    with pytest.raises(unimac.InvalidTag, match="tag mismatch"):
        m.verify(MSG, a[:16] + b[16:])
    with pytest.raises(unimac.InvalidTag, match="tag mismatch"):
        m.verify(b"attack at dusk", a)


@pytest.mark.parametrize("name", SHOUP4)
def test_shoup4_stream_object_holds_one_message(name):
    """A UnimacHash of shoup4 holds its drawn pair: a copy or more data
    after the digest would put a second message under that pair."""
    key = unimac.keygen(name)
    h = unimac.new(name, key)
    h.update(MSG)
    with pytest.raises(TypeError, match="not copyable"):
        h.copy()
    sent = h.digest()
    assert len(sent) == h.digest_size == 24
    assert h.digest() == sent and h.hexdigest() == sent.hex()
    with pytest.raises(ValueError, match="already given its tag"):
        h.update(b" and dusk")
    h.verify(sent)
    unimac.Mac(name, key).verify(MSG, sent)
    with pytest.raises(unimac.InvalidTag, match="tag mismatch"):
        unimac.Mac(name, key).verify(MSG + b" and dusk", sent)


@pytest.mark.parametrize("name", SHOUP4)
def test_shoup4_has_no_partial_door(name):
    key = unimac.keygen(name)
    for call in (lambda: unimac.hash_key(name, key), lambda: unimac.granularity(name),
                 lambda: unimac.partial_hash(name, key[40:], 0, b"abcdefgh")):
        with pytest.raises(ValueError, match="no partial hashes for this name"):
            call()


# ---------------------------------------------------------------------------
# (c) Counter misuse
# ---------------------------------------------------------------------------

NAME = "wc-eval128"


@pytest.fixture
def bound(tmp_path):
    """A counter file of NAME under a fresh key, with 3 nonces used."""
    key = unimac.keygen(NAME)
    path = tmp_path / "n.ctr"
    unimac.Counter.create(path, NAME, key).reserve(3)
    return path, key


@pytest.mark.parametrize("door", ["Counter", "Counter.create"])
@pytest.mark.parametrize("given", ["path only", "path and name"])
def test_counter_without_name_or_key(door, given, tmp_path):
    path = tmp_path / "c"
    args = (path,) if given == "path only" else (path, NAME)
    fn = unimac.Counter if door == "Counter" else unimac.Counter.create
    missing = "'name' and 'key'" if given == "path only" else "'key'"
    with pytest.raises(TypeError, match=f"missing .*required positional argument.*{missing}"):
        fn(*args)
    assert not path.exists()


@pytest.mark.parametrize("door", ["Counter", "Counter.next"])
def test_counter_of_another_key(door, bound):
    path, key = bound
    before = path.read_bytes()
    other = unimac.keygen(NAME)
    with pytest.raises(ValueError, match=f"belongs to another {NAME} key .*refusing"):
        if door == "Counter":
            unimac.Counter(path, NAME, other)
        else:
            # Opened while the file was another one of this key, then the
            # file was replaced by another key's counter.
            c = unimac.Counter(path, NAME, key)
            path.unlink()
            unimac.Counter.create(path, NAME, other).reserve(3)
            before = path.read_bytes()
            c.next()
    assert path.read_bytes() == before


@pytest.mark.parametrize("other", ["wc-mmh32x4", "hash127-aes-nonce", "umac128"])
def test_counter_of_another_mac(other, bound):
    path, key = bound
    before = path.read_bytes()
    other_key = key if unimac.info(other)["key_size"] == len(key) else unimac.keygen(other)
    with pytest.raises(ValueError, match=f"bound to {NAME}, not {other}: a counter serves one key of one MAC"):
        unimac.Counter(path, other, other_key)
    assert path.read_bytes() == before


def test_counter_of_another_mac_same_key_bytes(tmp_path):
    """Even under the same key bytes, VMAC's and UMAC's counters are kept
    apart (their nonces are written in different byte orders)."""
    key = unimac.keygen("umac64")
    path = tmp_path / "c"
    unimac.Counter.create(path, "vmac64", key)
    with pytest.raises(ValueError, match="bound to vmac64, not umac64"):
        unimac.Counter(path, "umac64", key)


@pytest.mark.parametrize("text", [b"0\n", b"3\n", b"12345\n"])
@pytest.mark.parametrize("door", ["Counter", "Counter.next", "Counter.peek"])
def test_counter_rolled_back_to_a_bare_value(door, text, bound):
    path, key = bound
    c = unimac.Counter(path, NAME, key) if door != "Counter" else None
    path.write_bytes(text)  # rolled back by hand, the binding line gone
    with pytest.raises(ValueError, match="is not bound to a key .*unimac-counter NAME FINGERPRINT"):
        if door == "Counter":
            unimac.Counter(path, NAME, key)
        elif door == "Counter.next":
            c.next()
        else:
            c.peek()
    assert path.read_bytes() == text


@pytest.mark.parametrize("which", ["original name", "second name"])
@pytest.mark.parametrize("door", ["Counter", "Counter.next"])
def test_counter_with_a_second_hard_link(door, which, bound, tmp_path):
    path, key = bound
    other = tmp_path / "n2.ctr"
    if which == "second name":
        os.rename(path, other)  # the counter lives under the other name ...
        path, other = other, path
    c = unimac.Counter(path, NAME, key)
    os.link(path, other)  # ... then gets a second name
    before = path.read_bytes()
    with pytest.raises(OSError, match="has 2 hard links: an update would leave the other names behind"):
        if door == "Counter":
            unimac.Counter(other, NAME, key)
        else:
            c.next()
    assert path.read_bytes() == other.read_bytes() == before
    os.unlink(other)
    assert c.next() == (3).to_bytes(16, "little")  # one name again: accepted


# A child process opens the FIFO: if the library opened it before checking
# its type, open() would block (no writer) and the child would time out.
FIFO_CHILD = textwrap.dedent("""
    import sys, unimac
    path, door, key = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3])
    try:
        if door == "Counter":
            unimac.Counter(path, "wc-eval128", key)
        else:
            unimac.Counter.create(path, "wc-eval128", key)
    except OSError as e:
        print("OSError:", e)
    else:
        print("accepted")
""")


@pytest.mark.parametrize("door", ["Counter", "Counter.create"])
def test_counter_fifo_is_refused_without_opening_it(door, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    key = unimac.keygen(NAME)
    try:
        r = subprocess.run([sys.executable, "-c", FIFO_CHILD, str(fifo), door, key.hex()],
                           capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure this guards against
        pytest.fail("opening a FIFO as a counter blocked")
    assert r.returncode == 0, r.stderr
    want = "is not a regular file; refusing it" if door == "Counter" else "already exists; not overwriting it"
    assert r.stdout.startswith("OSError:") and want in r.stdout, r.stdout
    assert str(fifo) in r.stdout


def test_counter_fifo_swapped_in_after_open_is_refused(bound, tmp_path):
    path, key = bound
    c = unimac.Counter(path, NAME, key)
    path.unlink()
    os.mkfifo(path)
    out = {}

    def nxt():
        try:
            out["value"] = c.next()
        except OSError as e:
            out["error"] = e

    t = threading.Thread(target=nxt, daemon=True)
    t.start()
    t.join(30)
    assert not t.is_alive(), "next() on a FIFO blocked"
    assert "value" not in out
    assert isinstance(out["error"], OSError) and "is not a regular file" in str(out["error"])


@pytest.mark.parametrize("door", ["Counter", "Counter.create", "Counter.next"])
def test_counter_directory_is_refused(door, tmp_path, bound):
    path, key = bound
    d = tmp_path / "dir.ctr"
    d.mkdir()
    if door == "Counter":
        with pytest.raises(OSError, match="is not a regular file; refusing it"):
            unimac.Counter(d, NAME, key)
    elif door == "Counter.create":
        with pytest.raises(OSError, match="already exists; not overwriting it"):
            unimac.Counter.create(d, NAME, key)
    else:
        c = unimac.Counter(path, NAME, key)
        path.unlink()
        path.mkdir()
        with pytest.raises(OSError, match="is not a regular file; refusing it"):
            c.next()
    assert d.is_dir() and not any(d.iterdir())


def test_counter_missing_fails_at_construction(tmp_path):
    missing = tmp_path / "missing.ctr"
    with pytest.raises(OSError, match="cannot open counter file .*missing.ctr"):
        unimac.Counter(missing, NAME, unimac.keygen(NAME))
    assert not missing.exists()


def test_counter_through_a_symlink_updates_the_real_file(bound, tmp_path):
    """A symbolic link is followed: the file it names is the counter and
    is updated (the link is not replaced by a copy)."""
    path, key = bound
    link = tmp_path / "link.ctr"
    link.symlink_to(path)
    assert unimac.Counter(link, NAME, key).next() == (3).to_bytes(16, "little")
    assert link.is_symlink()
    assert unimac.Counter(path, NAME, key).peek() == 4


@pytest.mark.parametrize("name", ["hash127-aes", "shoup4-eval64", "hash127", "hash127-96"])
def test_counter_for_a_mac_without_nonce(name, tmp_path):
    with pytest.raises(ValueError, match=f"^{name} takes no nonce; a counter is for nonce MACs$"):
        unimac.Counter.create(tmp_path / "c", name, unimac.keygen(name))
    assert not (tmp_path / "c").exists()


# ---------------------------------------------------------------------------
# (d) Counter nonces: length, byte order, range
# ---------------------------------------------------------------------------

COUNTER_MACS = [
    ("umac32", "little"), ("umac64", "little"), ("umac96", "little"), ("umac128", "little"),
    ("vmac64", "big"), ("vmac128", "big"),
    ("wc-eval128", "little"), ("hash127-aes-nonce", "little"), ("shoup3-eval128", "little"),
]


def _set(path, value):
    first = path.read_text().splitlines()[0]
    path.write_text(f"{first}\n{value}\n")


@pytest.mark.parametrize("name,order", COUNTER_MACS)
def test_counter_nonces_are_full_length_in_the_macs_byte_order(name, order, tmp_path):
    key = unimac.keygen(name)
    path = tmp_path / "c"
    c = unimac.Counter.create(path, name, key)
    m = unimac.Mac(name, key)
    got = [c.next() for _ in range(3)]
    assert got == [i.to_bytes(16, order) for i in range(3)]
    for value in (0x0102, 2 ** 64 + 5, 2 ** 126 + 1):
        _set(path, value)
        n = c.next()
        assert len(n) == 16 and int.from_bytes(n, order) == value
        assert n[0 if order == "little" else 15] == value & 0xFF
        t = m.tag(MSG, nonce=n, caller_manages_nonces=True)
        m.verify(MSG, t, nonce=n)
    assert c.peek() == 2 ** 126 + 2


@pytest.mark.parametrize("name", ["vmac64", "vmac128"])
def test_vmac_counter_nonces_keep_the_top_bit_clear(name, tmp_path):
    key = unimac.keygen(name)
    path = tmp_path / "c"
    c = unimac.Counter.create(path, name, key)
    _set(path, 2 ** 127 - 2)
    a, b = c.next(), c.next()
    assert a == (2 ** 127 - 2).to_bytes(16, "big") and b == (2 ** 127 - 1).to_bytes(16, "big")
    assert a[0] & 0x80 == 0 and b[0] == 0x7F
    unimac.Mac(name, key).tag(MSG, nonce=b, caller_manages_nonces=True)
    # 2^127 would set the top bit: VMAC reserves those blocks.
    with pytest.raises(ValueError, match="does not fit its nonce .*top bit set.*use a new key"):
        c.next()
    with pytest.raises(ValueError, match="top bit clear"):
        unimac.Mac(name, key).tag(MSG, nonce=(2 ** 127).to_bytes(16, "big"), caller_manages_nonces=True)


@pytest.mark.parametrize("name", ["umac64", "umac128"])
def test_umac_counter_uses_all_128_bits(name, tmp_path):
    key = unimac.keygen(name)
    path = tmp_path / "c"
    c = unimac.Counter.create(path, name, key)
    _set(path, 2 ** 127)
    n = c.next()
    assert n == (2 ** 127).to_bytes(16, "little") and n[15] == 0x80
    unimac.Mac(name, key).tag(MSG, nonce=n, caller_manages_nonces=True)
    _set(path, 2 ** 128 - 1)
    with pytest.raises(ValueError, match="exhausted"):
        c.next()


@pytest.mark.parametrize("name", ["hash127", "hash127-96"])
def test_one_time_file_check_takes_the_tag_and_gives_none(name, tmp_path):
    """Checking a file's one-time tag (``verify_check_file``'s door) answers
    only whether the tag given is right: the right tag of a file longer than
    one read chunk is accepted, a changed, short or long tag and another
    file are refused; the key is not spent and still tags once."""
    from unimac import _unimac

    key = unimac.keygen(name)
    data = os.urandom((1 << 20) + 3)
    f = tmp_path / "m"
    f.write_bytes(data)
    k = unimac.OneTimeKey(name, key)
    t = unimac.OneTimeKey(name, key).tag(data)
    assert _unimac._check_file(name, key, str(f), t) is True
    bad = bytes([t[0] ^ 1]) + t[1:]
    for wrong in (bad, t[:-1], t + b"\0", b""):
        assert _unimac._check_file(name, key, str(f), wrong) is False
    g = tmp_path / "other"
    g.write_bytes(data[:-1])
    assert _unimac._check_file(name, key, str(g), t) is False
    assert not k.spent
    assert k.tag(data) == t and k.spent


def test_a_row_resolved_once_is_the_name(tmp_path):
    """``verify_check_file`` resolves its MAC's name once, to its row
    (``_mac_row``), and checks every line with the row: the row answers as
    the name does (any case, ``mac-`` or not), and a name it refuses gets
    the message the name's other doors give."""
    from unimac import _unimac

    key = unimac.keygen("wc-mmh32x2")
    f = tmp_path / "m"
    f.write_bytes(MSG)
    n = bytes(16)
    t = unimac.tag("wc-mmh32x2", key, MSG, nonce=n, caller_manages_nonces=True)
    for given in ("wc-mmh32x2", "MAC-WC-MMH32X2"):
        row = _unimac._mac_row(given)
        assert row.name == "wc-mmh32x2"
        i = unimac.info(given)
        assert row.nonce_sizes == tuple(i["nonce_sizes"]) and row.digest_size == i["digest_size"]
        assert _unimac._check_file(row, key, str(f), t, n) is _unimac._check_file(given, key, str(f), t, n) is True
        assert _unimac._canonical_nonce(row, n) == _unimac._canonical_nonce(given, n)
    wrong = bytes([t[0] ^ 1]) + t[1:]
    assert _unimac._check_file(_unimac._mac_row("wc-mmh32x2"), key, str(f), wrong, n) is False
    for bad in ("wc-mmh32x2z", "eval64"):
        with pytest.raises(ValueError) as by_row:
            _unimac._mac_row(bad)
        with pytest.raises(ValueError) as by_name:
            _unimac._mac_name(bad)
        assert str(by_row.value) == str(by_name.value)
    with pytest.raises(ValueError, match=r"did you mean 'wc-mmh32x2'\?"):
        _unimac._mac_row("wc-mmh32x2z")


# ---------------------------------------------------------------------------
# (e) Keys never shown by repr() or str()
# ---------------------------------------------------------------------------


def _key_forms(key):
    """What would show a key: its hex (either case), its bytes' repr, the
    hex and bytes repr of every 8-byte run of it, and for a 16-byte key its
    value as a little-endian integer (a modp prime is one)."""
    forms = {key.hex(), key.hex().upper(), repr(key), repr(bytearray(key)), str(list(key))}
    for i in range(0, len(key) - 7):
        run = key[i:i + 8]
        forms |= {run.hex(), repr(run)[2:-1]}
    if len(key) == 16:
        forms.add(str(int.from_bytes(key, "little")))
    return forms


def _key_objects(tmp_path):
    """(label, object, key) for every key-holding object of the package."""
    out = []
    for name, nonce in (("hash127-aes", None), ("wc-eval128", bytes(16)), ("umac64", bytes(8)), ("shoup4-eval64", None)):
        key = unimac.keygen(name)
        out.append((f"Mac({name})", unimac.Mac(name, key), key))
        if not name.startswith("shoup4"):  # its pair is drawn per message by Mac
            out.append((f"new({name})", unimac.new(name, key, nonce=nonce, caller_manages_nonces=True), key))
    key = os.urandom(8)
    out.append(("new(eval64)", unimac.new("eval64", key), key))
    for name in ("hash127", "hash127-96"):
        key = unimac.keygen(name)
        k = unimac.OneTimeKey(name, key)
        out.append((f"OneTimeKey({name})", k, key))
        spent = unimac.OneTimeKey(name, key)
        spent.tag(MSG)
        out.append((f"OneTimeKey({name}), spent", spent, key))
    key = unimac.keygen("wc-eval128")
    c = unimac.Counter.create(str(tmp_path / "ctr"), "wc-eval128", key)
    out.append(("Counter", c, key))
    p = unimac.SecretPrime()
    out.append(("SecretPrime", p, p.to_bytes()))
    return out


def test_repr_and_str_show_no_key(tmp_path):
    objects = _key_objects(tmp_path)
    kinds = {type(o).__name__ for _, o, _ in objects}
    assert kinds == {"Mac", "UnimacHash", "OneTimeKey", "Counter", "SecretPrime"}, kinds
    for label, obj, key in objects:
        assert len(key) >= 8, label
        for shown in (repr(obj), str(obj), f"{obj}", f"{obj!r}"):
            assert shown, label
            for form in _key_forms(key):
                assert form not in shown, (label, shown)
