"""The partial-hash functions: any split, combined in any grouping, gives the
one-shot tag; the workers' key holds no cipher key; errors are ValueError."""

import os

import pytest

import unimac

MACS = ["hash127-aes", "hash127-aes-nonce", "mac-hash127-aes-add", "wc-eval64", "wc-eval128", "wc-mmh32x2"]
HASHES = ["eval64", "eval128", "division64", "gdivision64", "tree-mmh32x2"]
# One-time MACs, and the plain hashes whose value under r || k IS the
# one-time tag: no partial function serves them (their one door is
# unimac.OneTimeKey).
ONE_TIME = [("hash127", 32), ("mac-hash127", 32), ("hash127-96", 48), ("mac-hash127-96", 48), ("hash127-raw", 32)]


def _split(spec, key, msg, cuts):
    hk = unimac.hash_key(spec, key)
    bounds = [0] + cuts + [len(msg)]
    return [
        unimac.partial_hash(spec, hk, a, msg[a:b], last=(b == len(msg)))
        for a, b in zip(bounds, bounds[1:])
    ]


def _fold(ps):
    acc = ps[0]
    for p in ps[1:]:
        acc = unimac.partial_combine(acc, p)
    return acc


@pytest.mark.parametrize("name", MACS)
def test_mac_any_split(name):
    spec = unimac.info(name)["spec_name"]
    g = unimac.granularity(spec)
    key = unimac.keygen(name)
    nonce = os.urandom(16) if unimac.info(name)["nonce_size"] else None
    msg = os.urandom(5 * g + 3)
    want = unimac.tag(name, key, msg, nonce=nonce, caller_manages_nonces=True)
    for cuts in ([], [g], [g, 3 * g], [2 * g, 5 * g]):
        ps = _split(spec, key, msg, cuts)
        assert unimac.finish_mac(spec, key, _fold(ps), nonce=nonce, caller_manages_nonces=True) == want
        if len(ps) == 3:  # the other grouping
            right = unimac.partial_combine(ps[0], unimac.partial_combine(ps[1], ps[2]))
            assert unimac.finish_mac(spec, key, right, nonce=nonce, caller_manages_nonces=True) == want


@pytest.mark.parametrize("name", HASHES)
def test_hash_any_split(name):
    g = unimac.granularity(name)
    key = unimac.keygen(name)
    msg = os.urandom(4 * g + 1)
    ps = _split(name, key, msg, [g, 2 * g])
    assert unimac.finish_hash(name, key, _fold(ps)) == unimac.compute(name, key, msg)


@pytest.mark.parametrize("name,key_len", ONE_TIME)
def test_one_time_names_are_refused(name, key_len):
    key = os.urandom(key_len)
    hk = key[:16]  # r: what the hash would take
    good = unimac.partial_hash("hash127-aes", hk, 0, b"abcd")  # a whole partial of the same hash
    for call in (
        lambda: unimac.hash_key(name, key),
        lambda: unimac.partial_hash(name, hk, 0, b"abcd"),
        lambda: unimac.partial_hash(name, hk, 0, b"abcd", last=False),
        lambda: unimac.granularity(name),
        lambda: unimac.finish_hash(name, key, good),
        lambda: unimac.finish_mac(name, key, good),
    ):
        with pytest.raises(ValueError, match="one-time MAC .*unimac.OneTimeKey"):
            call()
    assert not {"hash127", "hash127-raw", "mac-hash127", "mac-hash127-96"} & set(unimac.partial_names())


def test_large_input_and_buffers():
    key = unimac.keygen("hash127-aes")
    msg = bytearray(os.urandom(1 << 20))
    hk = unimac.hash_key("hash127-aes", key)
    p = unimac.partial_hash("hash127-aes", hk, 0, memoryview(msg))
    assert unimac.finish_mac("hash127-aes", key, p) == unimac.tag("hash127-aes", key, bytes(msg))
    info = unimac.partial_info(p)
    assert info == {"name": "mac-hash127-aes", "offset": 0, "length": 1 << 20, "last": True, "whole": True}


def test_hash_key_is_the_hash_part_only():
    key = bytes(range(32))
    assert unimac.hash_key("hash127-aes", key) == key[:16]
    assert unimac.hash_key("wc-eval64", bytes(range(24))) == bytes(range(16, 24))
    assert unimac.hash_key("wc-mmh32x2", key) == key[16:]


def test_errors_are_value_errors():
    hk = bytes(16)
    with pytest.raises(ValueError, match="key must be 32 bytes"):
        unimac.hash_key("hash127-aes", bytes(5))
    with pytest.raises(ValueError, match="not a multiple of 4"):
        unimac.partial_hash("hash127-aes", hk, 3, b"abcd", last=True)
    with pytest.raises(ValueError, match="non-zero multiple"):
        unimac.partial_hash("hash127-aes", hk, 0, b"abc", last=False)
    with pytest.raises(ValueError):
        unimac.partial_combine(b"garbage", b"garbage")
    with pytest.raises(ValueError, match="no partial hashes"):
        unimac.granularity("umac64")
    a = unimac.partial_hash("hash127-aes", hk, 0, b"abcd", last=False)
    with pytest.raises(ValueError):  # not whole: the end is missing
        unimac.finish_mac("hash127-aes", bytes(32), a)
    whole = unimac.partial_hash("wc-eval64", bytes(8), 0, b"x")
    with pytest.raises(ValueError, match="nonce"):
        unimac.finish_mac("wc-eval64", bytes(24), whole)
    with pytest.raises(ValueError):  # a corrupted partial is refused
        bad = bytearray(whole)
        bad[5] ^= 0xFF
        unimac.partial_combine(bytes(bad), whole)


def test_set_max_threads_keeps_results():
    key = unimac.keygen("wc-eval64")
    msg = os.urandom(9 << 20)
    n = bytes(16)
    try:
        unimac.set_max_threads(1)
        assert unimac.max_threads() == 1
        one = unimac.tag("wc-eval64", key, msg, nonce=n, caller_manages_nonces=True)
    finally:
        unimac.set_max_threads(0)
    assert unimac.max_threads() == 0
    assert unimac.tag("wc-eval64", key, msg, nonce=n, caller_manages_nonces=True) == one


def test_python_runs_while_a_partial_is_hashed():
    """partial_hash of a large buffer releases the GIL: the main thread's
    Python code runs in the middle of the call (with the GIL held it could
    run only before or after it, the call being C code all through). The
    switch interval is set far beyond the test, so the worker holding the
    GIL gives it up only by releasing it itself; the main thread, woken
    while the worker holds it, then runs before the worker's `done.set()`
    exactly when the call released the GIL. A small buffer (below 2 KiB)
    keeps the GIL: the main thread runs only after the call."""
    import sys
    import threading

    hk = unimac.hash_key("hash127-aes", bytes(32))

    def ran_during(buf, attempts):
        old = sys.getswitchinterval()
        sys.setswitchinterval(1000.0)
        try:
            for _ in range(attempts):
                started, done = threading.Event(), threading.Event()

                def hash_it():
                    started.set()
                    unimac.partial_hash("hash127-aes", hk, 0, buf, last=False)
                    done.set()

                t = threading.Thread(target=hash_it)
                t.start()
                started.wait()
                ran = not done.is_set()
                t.join()
                if ran:
                    return True
            return False
        finally:
            sys.setswitchinterval(old)

    # A few tries: only a call shorter than a thread's wake-up could end
    # before the waiting main thread takes the released GIL.
    assert ran_during(bytearray(os.urandom(1 << 20)) * 64, attempts=5)
    assert not ran_during(bytes(64), attempts=1)


def test_finish_mac_reads_the_name_once_as_the_partial_api_does():
    """The caller's nonce is judged against the row the partial API reads
    the name as (a catalogue name first), never against another reading:
    "hash127" is the catalogue's hash, refused as every partial function
    refuses it, whatever nonce is given."""
    key = os.urandom(32)
    good = unimac.partial_hash("hash127-aes", key[:16], 0, b"abcd")
    for nonce in (None, bytes(16)):
        with pytest.raises(ValueError) as e:
            unimac.finish_mac("HASH127", key, good, nonce=nonce)
        assert "one-time MAC" in str(e.value) and "unimac.OneTimeKey" in str(e.value)
    # A MAC's row: the opt-in is asked for, in finish_mac's words, by any
    # spelling of the name.
    k = os.urandom(24)
    p = unimac.partial_hash("wc-eval64", unimac.hash_key("wc-eval64", k), 0, b"abcdefgh")
    for name in ("wc-eval64", "MAC-WC-EVAL64"):
        with pytest.raises(ValueError, match=r"^wc-eval64: finish_mac\(nonce=\.\.\.\) needs caller_manages_nonces=True"):
            unimac.finish_mac(name, k, p, nonce=bytes(16))
        assert unimac.finish_mac(name, k, p, nonce=bytes(16), caller_manages_nonces=True) == unimac.tag(
            "wc-eval64", k, b"abcdefgh", nonce=bytes(16), caller_manages_nonces=True
        )
    # unimac.dask's check reads it the same way (an unknown name is left to
    # the door that resolves it).
    import unimac._unimac as _u

    _u._caller_nonce("HASH127", "tag_large", bytes(16), False)
    with pytest.raises(ValueError, match=r"^wc-eval64: tag_large\(nonce=\.\.\.\)"):
        _u._caller_nonce("mac-wc-eval64", "tag_large", bytes(16), False)
    _u._caller_nonce("no-such-name", "tag_large", bytes(16), False)
