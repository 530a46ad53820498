"""unimac.stream: file objects over authenticated streams, with the
command line on the other end (CLI writes, Python reads, and back), with
shutil, tarfile and gzip, and every tamper raising StreamError with no
unverified byte returned."""

import gzip
import io
import os
import shutil
import subprocess
import tarfile

import pytest

import unimac
import unimac.stream

CHUNK = 1024


def key_pair(name="hash127-aes"):
    return (name, unimac.keygen(name))


def sent(key, data, chunk=CHUNK):
    wire = io.BytesIO()
    weak = isinstance(key, tuple) and key[0].startswith("shoup4-")
    with unimac.stream.open(wire, "wb", key=key, chunk_size=chunk, allow_weak=weak) as f:
        # Odd pieces: the framing does not depend on how writes are cut.
        for i in range(0, len(data), 333):
            f.write(data[i : i + 333])
    return wire.getvalue()


def received(key, wire, piece=None):
    weak = isinstance(key, tuple) and key[0].startswith("shoup4-")
    f = unimac.stream.open(io.BytesIO(wire), "rb", key=key, allow_weak=weak)
    if piece is None:
        return f.read()
    out = bytearray()
    while True:
        b = f.read(piece)
        if not b:
            return bytes(out)
        out += b


@pytest.mark.parametrize("name", ["hash127-aes", "umac128", "vmac128", "wc-eval128", "shoup4-eval64"])
def test_round_trips_at_the_chunk_edges(name):
    key = key_pair(name)
    for n in (0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * CHUNK + 7):
        data = os.urandom(n)
        wire = sent(key, data)
        assert received(key, wire) == data
        assert received(key, wire, piece=100) == data


def test_every_tamper_raises_and_returns_only_verified_bytes():
    key = key_pair("wc-eval128")
    data = os.urandom(4 * CHUNK + 10)
    wire = sent(key, data)
    for at in list(range(0, len(wire), 97)) + [len(wire) - 1]:
        bad = bytearray(wire)
        bad[at] ^= 0x04
        f = unimac.stream.open(io.BytesIO(bytes(bad)), "rb", key=key)
        got = bytearray()
        with pytest.raises(unimac.StreamError):
            while True:
                b = f.read(50)
                if not b:
                    break
                got += b
        assert data.startswith(bytes(got)) and len(got) % CHUNK == 0, at
    for cut in range(0, len(wire), 211):
        with pytest.raises(unimac.StreamError, match="cut short|header|not a unimac stream"):
            received(key, wire[:cut])
    assert issubclass(unimac.StreamError, ValueError)


def test_another_key_is_refused_before_any_byte():
    key = key_pair()
    wire = sent(key, b"attack at dawn")
    with pytest.raises(unimac.StreamError, match="key fingerprint"):
        received(("hash127-aes", unimac.keygen("hash127-aes")), wire, piece=1)
    with pytest.raises(ValueError, match="one-time MAC"):
        unimac.stream.open(io.BytesIO(), "wb", key=("hash127", unimac.keygen("hash127")))
    # A MAC weak for this use needs allow_weak=True, on both ends.
    weak = ("vmac64", unimac.keygen("vmac64"))
    with pytest.raises(ValueError, match="weak for this use.*allow_weak=True"):
        unimac.stream.open(io.BytesIO(), "wb", key=weak)
    with pytest.raises(ValueError, match="weak for this use"):
        unimac.stream.open(io.BytesIO(), "rb", key=weak)


def test_shutil_tarfile_and_gzip(tmp_path):
    key = key_pair("umac128")
    for i in range(3):
        (tmp_path / f"f{i}").write_bytes(os.urandom(5000 * (i + 1)))
    # tar c DIR | unimac stream, in Python, through gzip.
    with unimac.stream.open(tmp_path / "backup.uma", "wb", key=key, chunk_size=4096) as s:
        with gzip.GzipFile(fileobj=s, mode="wb") as gz:
            with tarfile.open(fileobj=gz, mode="w|") as tar:
                for i in range(3):
                    tar.add(tmp_path / f"f{i}", arcname=f"f{i}")
    out = tmp_path / "out"
    with unimac.stream.open(tmp_path / "backup.uma", "rb", key=key) as s:
        with gzip.GzipFile(fileobj=s, mode="rb") as gz:
            with tarfile.open(fileobj=gz, mode="r|") as tar:
                tar.extractall(out, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(out)
    for i in range(3):
        assert (out / f"f{i}").read_bytes() == (tmp_path / f"f{i}").read_bytes()
    # shutil.copyfileobj both ways.
    src = io.BytesIO(os.urandom(300_000))
    wire = io.BytesIO()
    with unimac.stream.open(wire, "wb", key=key) as s:
        shutil.copyfileobj(src, s)
    back = io.BytesIO()
    shutil.copyfileobj(unimac.stream.open(io.BytesIO(wire.getvalue()), "rb", key=key), back)
    assert back.getvalue() == src.getvalue()


def test_the_command_line_on_the_other_end(tmp_path, cli):
    unimac.save_key(tmp_path / "k.key", "hash127-aes", unimac.keygen("hash127-aes"))
    data = os.urandom(3 * CHUNK + 5)
    # The CLI writes, Python reads.
    r = subprocess.run([cli, "stream", "-k", str(tmp_path / "k.key"), "--chunk-size", "1024"], input=data, capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert received(str(tmp_path / "k.key"), r.stdout) == data
    # Python writes, the CLI reads.
    wire = sent(str(tmp_path / "k.key"), data)
    r = subprocess.run([cli, "stream", "--verify", "-k", str(tmp_path / "k.key")], input=wire, capture_output=True, timeout=60)
    assert r.returncode == 0 and r.stdout == data, r.stderr
    # And a tampered one is refused by both, with only verified chunks out.
    bad = bytearray(wire)
    bad[-20] ^= 1  # the final chunk's payload
    r = subprocess.run([cli, "stream", "--verify", "-k", str(tmp_path / "k.key")], input=bytes(bad), capture_output=True, timeout=60)
    assert r.returncode == 1 and data.startswith(r.stdout) and len(r.stdout) == 3 * CHUNK


def test_every_example_in_unimac_stream_runs():
    import doctest

    failures, tried = doctest.testmod(unimac.stream, optionflags=doctest.ELLIPSIS)
    assert failures == 0 and tried >= 10
    for name in unimac.stream.__all__:
        obj = getattr(unimac.stream, name)
        if callable(obj):
            assert ">>>" in (obj.__doc__ or ""), f"{name} has no example"


def test_known_answer_with_an_independent_key_derivation():
    """docs/WIRE.md §10's known answer, re-derived: the stream key with
    ``cryptography``'s HKDF (an independent implementation) and each frame's
    tag with the by-name MAC."""
    hkdf = pytest.importorskip("cryptography.hazmat.primitives.kdf.hkdf")
    hashes = pytest.importorskip("cryptography.hazmat.primitives.hashes")

    def derive(salt, ikm, info):
        return hkdf.HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(ikm)

    k = bytes(range(32))
    k_stream = derive(b"unimac purpose keys v1", k, b"unimac stream frames\0hash127-aes")
    k_id = derive(bytes(range(16)), k_stream, b"unimac stream id\0hash127-aes")
    fp = bytes.fromhex(_fingerprint_of("hash127-aes", k))
    header = b"UNIMAC-S\x01\x0bhash127-aes" + fp + bytes(range(16)) + (16).to_bytes(4, "big")
    payload = b"attack at dawn, attack at dusk"
    want = bytearray(header)
    for i, (flags, part) in enumerate(((0, payload[:16]), (1, payload[16:]))):
        head = bytes([flags]) + len(part).to_bytes(4, "big")
        want += head + part + unimac.tag("hash127-aes", k_id, header + i.to_bytes(8, "big") + head + part)
    wire = bytes.fromhex(
        "554e494d41432d53010b686173683132372d616573ae946209b8de103a912d0ac3489493f0000102030405060708090a0b0c0d0e0f00000010"
        "000000001061747461636b206174206461776e2c20aa793cec3635c1d7926cdc6a43bb9c13"
        "010000000e61747461636b206174206475736be9d8c889a2fdef6485c23fdadcdf8ef4"
    )
    assert bytes(want) == wire
    assert received(("hash127-aes", k), wire) == payload


def _fingerprint_of(name, k):
    """The key's fingerprint (docs/WIRE.md §9.2), computed with hashlib."""
    import hashlib

    return hashlib.sha256(b"unimac counter binding v1\0" + name.encode() + b"\0" + k).digest()[:16].hex()
