"""Every known answer bundled with the repository, through the Python API."""

import json
import pathlib
import random

import pytest

import unimac

from conftest import VECTORS

JSONL = sorted(VECTORS.glob("*.jsonl"))

# Names whose known answers only unimac.known_answer gives: the one-time MACs
# (and the plain hashes whose value under r || k is a one-time tag), served
# for tagging by unimac.OneTimeKey alone, and shoup4-* under a given r || s
# (the library draws the pair when it tags).
ONE_TIME = {"hash127", "hash127-raw", "mac-hash127", "mac-hash127-96"}
ONE_TIME_MACS = {"mac-hash127", "mac-hash127-96"}
SAME_AS_ONE_TIME_TAG = {"hash127": "hash127"}  # hash name -> the MAC whose tag it is
PAIR = {"mac-shoup4-eval64", "mac-shoup4-division64"}
ONE_TIME_REFUSED = "unimac.OneTimeKey"
PAIR_REFUSED = r"draws its random r \|\| s"


def records(path):
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if line.strip():
                yield i, json.loads(line)


def args(r):
    key = bytes.fromhex(r["key"])
    msg = bytes.fromhex(r["msg"])
    nonce = bytes.fromhex(r["nonce"]) if "nonce" in r else None
    return key, msg, nonce, bytes.fromhex(r["out"])


def chunks(msg, rng):
    """`msg` cut at random places (empty pieces included)."""
    cuts = sorted(rng.randrange(len(msg) + 1) for _ in range(rng.randrange(4)))
    out, last = [], 0
    for c in cuts + [len(msg)]:
        out.append(msg[last:c])
        last = c
    return out


def test_bundled_copies_cover_the_shared_files():
    shared = VECTORS.parents[3] / "shared" / "vectors"
    if not shared.is_dir():
        pytest.skip("no shared/ beside the checkout")
    for f in shared.glob("*.jsonl"):
        assert (VECTORS / f.name).read_bytes() == f.read_bytes(), f.name


def test_every_file_is_checked():
    names = {p.name for p in JSONL}
    for want in ["hash127.jsonl", "mac.jsonl", "mac2.jsonl", "mmh.jsonl", "modp.jsonl",
                 "shoup.jsonl", "sqh.jsonl", "tree.jsonl", "eval128.jsonl", "umac.jsonl"]:
        assert want in names


@pytest.mark.parametrize("path", JSONL, ids=[p.name for p in JSONL])
def test_compute(path):
    """`known_answer` gives every answer; `compute` gives every answer but
    the one-time and random-pair ones, which it refuses."""
    n = 0
    for line, r in records(path):
        key, msg, nonce, out = args(r)
        name = r["fn"]
        assert unimac.known_answer(name, key, msg, nonce=nonce, length=r.get("len")) == out, (path.name, line, name)
        if name in ONE_TIME:
            with pytest.raises(ValueError, match=ONE_TIME_REFUSED):
                unimac.compute(name, key, msg, nonce=nonce, caller_manages_nonces=True)
        elif name in PAIR:
            with pytest.raises(ValueError, match=PAIR_REFUSED):
                unimac.compute(name, key, msg, nonce=nonce, caller_manages_nonces=True)
        else:
            got = unimac.compute(name, key, msg, nonce=nonce, length=r.get("len"), caller_manages_nonces=True)
            assert got == out, (path.name, line, name)
        n += 1
    assert n > 0


@pytest.mark.parametrize("path", JSONL, ids=[p.name for p in JSONL])
def test_streaming_in_any_chunking(path):
    """`new` fed in random pieces, as bytes, bytearray and memoryview slices.
    One-time names have no streaming object (their tag comes from
    `OneTimeKey`); shoup4 objects draw their own pair."""
    rng = random.Random(path.name)
    n = 0
    for line, r in records(path):
        if "len" in r:
            continue  # keystream takes an output length, not a stream
        key, msg, nonce, out = args(r)
        name = r["fn"]
        if name in ONE_TIME:
            with pytest.raises(ValueError, match=ONE_TIME_REFUSED):
                unimac.new(name, key, nonce=nonce, caller_manages_nonces=True)
            mac = SAME_AS_ONE_TIME_TAG.get(name, name if name in ONE_TIME_MACS else None)
            if mac is not None:
                assert unimac.OneTimeKey(mac, key).tag(msg) == out, (path.name, line, name)
            n += 1
            continue
        shoup4 = name in PAIR
        if shoup4:
            with pytest.raises(ValueError, match=PAIR_REFUSED):
                unimac.new(name, key, nonce=nonce, caller_manages_nonces=True)
            h = unimac.new(name, key)
        else:
            h = unimac.new(name, key, nonce=nonce, caller_manages_nonces=True)
        backing = bytearray(b"\xff" + msg + b"\xff")
        view = memoryview(backing)[1:-1]
        pos = 0
        for i, c in enumerate(chunks(msg, rng)):
            piece = [bytes(c), bytearray(c), view[pos:pos + len(c)]][i % 3]
            h.update(piece)
            pos += len(c)
        d = h.digest()
        if shoup4:
            # The library's pair, then the tag under it.
            assert len(d) == 24 == h.digest_size and d[:16] != nonce, (path.name, line)
            assert unimac.known_answer(name, key, msg, nonce=d[:16]) == d[16:], (path.name, line)
            unimac.Mac(name, key).verify(msg, d)
        else:
            assert d == out, (path.name, line, name)
            assert h.digest_size == len(out)
        n += 1
    assert n > 0


MAC_FILES = [p for p in JSONL if p.name in ("mac.jsonl", "mac2.jsonl", "umac.jsonl")]


@pytest.mark.parametrize("path", MAC_FILES, ids=[p.name for p in MAC_FILES])
def test_mac_objects(path):
    """`Mac`, `tag`, `verify` and a streaming verify on every MAC answer;
    `OneTimeKey` on the one-time ones, which every other door refuses."""
    n = 0
    for line, r in records(path):
        key, msg, nonce, out = args(r)
        name = r["fn"][len("mac-"):]
        bad = bytearray(out)
        bad[0] ^= 1
        if r["fn"] in ONE_TIME_MACS:
            for door in (lambda: unimac.Mac(name, key), lambda: unimac.tag(name, key, msg),
                         lambda: unimac.verify(name, key, msg, out), lambda: unimac.new(name, key)):
                with pytest.raises(ValueError, match=ONE_TIME_REFUSED):
                    door()
            k = unimac.OneTimeKey(name, key)
            k.verify(msg, out)  # before tag: never spends the key
            assert not k.spent
            assert k.tag(msg) == out, (line, name)
            assert k.spent
            k.verify(msg, out)
            with pytest.raises(unimac.InvalidTag):
                k.verify(msg, bytes(bad))
            with pytest.raises(ValueError, match="already tagged"):
                k.tag(msg)
            n += 1
            continue
        m = unimac.Mac(name, key)
        if r["fn"] in PAIR:
            with pytest.raises(ValueError, match=PAIR_REFUSED):
                m.tag(msg, nonce=nonce, caller_manages_nonces=True)
            with pytest.raises(ValueError, match=PAIR_REFUSED):
                unimac.tag(name, key, msg, nonce=nonce, caller_manages_nonces=True)
            m.verify(msg, nonce + out)  # the published pair and tag, as sent
            unimac.verify(name, key, msg, nonce + out)
            sent = m.tag(msg)
            assert len(sent) == 24 and sent[:16] != nonce
            m.verify(msg, sent)
            with pytest.raises(unimac.InvalidTag):
                m.verify(msg, nonce + bytes(bad))
            h = unimac.new(name, key)
            h.update(msg)
            m.verify(msg, h.digest())
        else:
            m.verify(msg, out, nonce=nonce)
            assert m.tag(msg, nonce=nonce, caller_manages_nonces=True) == out, (line, name)
            assert unimac.tag("mac-" + name, key, msg, nonce=nonce, caller_manages_nonces=True) == out
            unimac.verify(name, key, msg, out, nonce=nonce)
            with pytest.raises(unimac.InvalidTag):
                m.verify(msg, bytes(bad), nonce=nonce)
            h = unimac.new(name, key, nonce=nonce, caller_manages_nonces=True)
            h.update(msg)
            h.verify(out)
        n += 1
    assert n > 0


def test_every_refused_name_has_answers():
    """The answers checked only through known_answer exist in the files."""
    seen = {r["fn"] for p in JSONL for _, r in records(p)}
    assert ONE_TIME <= seen and PAIR <= seen


def test_hash127_accuracy(vectors_dir):
    """The original hash127 package's accuracy test (docs/WIRE.md §2)."""
    def words(ws):
        return b"".join((w & 0xFFFFFFFF).to_bytes(4, "little") for w in ws)

    key = words([1234567890, 1234567891, 1234567892, 1234567893]) + words(
        [314159265, 358979323, 846264338, 327950288])
    seq = bytes(i % 256 for i in range(4 * 1000))
    lines = (vectors_dir / "hash127-accuracy.exp").read_text().splitlines()
    assert len(lines) == 2000
    for i, line in enumerate(lines):
        ws = line.split(":", 1)[-1]  # "n: w0 w1 w2 w3", n counting from 0 in each half
        msg = words([-(2 ** 31)] * i) if i < 1000 else seq[: 4 * (i - 1000)]
        out = unimac.known_answer("hash127-raw", key, msg)
        want = words(int(w) for w in ws.split())
        assert out == want, i
    with pytest.raises(ValueError, match=ONE_TIME_REFUSED):
        unimac.compute("hash127-raw", key, seq[:4])


WYCHEPROOF = sorted((VECTORS / "wycheproof").glob("vmac_*_test.json"))


@pytest.mark.parametrize("path", WYCHEPROOF, ids=[p.name for p in WYCHEPROOF])
def test_wycheproof_vmac(path):
    d = json.loads(path.read_text())
    valid = invalid = 0
    for g in d["testGroups"]:
        name = "vmac64" if g["tagSize"] == 64 else "vmac128"
        for t in g["tests"]:
            key, iv, msg, tag = (bytes.fromhex(t[k]) for k in ("key", "iv", "msg", "tag"))
            if t["result"] == "valid":
                m = unimac.Mac(name, key)
                assert m.tag(msg, nonce=iv, caller_manages_nonces=True) == tag, t["tcId"]
                m.verify(msg, tag, nonce=iv)
                valid += 1
            else:
                with pytest.raises(ValueError):  # InvalidTag is a ValueError too
                    unimac.verify(name, key, msg, tag, nonce=iv)
                invalid += 1
    assert valid > 0 and invalid > 0
    assert valid + invalid == d["numberOfTests"]
