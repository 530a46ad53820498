"""unimac.dask against a real distributed.LocalCluster (two worker processes,
started and stopped here): tags bit-identical to the single-process ones,
verification, a worker killed mid-job, clear errors, and no cipher key in
anything sent to the cluster."""

import os
import signal
import threading
import time

import pytest

distributed = pytest.importorskip(
    "distributed", reason="unimac.dask needs Dask's distributed scheduler (pip install 'dask[distributed]')"
)
cloudpickle = pytest.importorskip("cloudpickle", reason="comes with distributed")

import dask  # noqa: E402

import unimac  # noqa: E402
import unimac.dask as ud  # noqa: E402

NAMES = ["hash127-aes", "wc-eval64", "wc-mmh32x2", "hash127-aes-nonce"]

# These tests run a plain-TCP LocalCluster: its warning is expected here
# (and checked in test_dask_api.py). They give their own nonces to
# tag_large (nonce=..., caller_manages_nonces=True).
pytestmark = [
    pytest.mark.filterwarnings("ignore::unimac.dask.InsecureClusterWarning"),
]


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A file of 2 MiB + 12345 bytes: no blocksize divides it, so
    read_bytes spreads the remainder and block offsets are unaligned."""
    p = tmp_path_factory.mktemp("dask") / "big.bin"
    p.write_bytes(os.urandom((2 << 20) + 12345))
    return str(p)


def _nonce(name):
    return os.urandom(16) if unimac.info(name)["nonce_size"] else None


@pytest.mark.parametrize("name", NAMES)
def test_tag_large_equals_single_process(client, big, name):
    key = unimac.keygen(name)
    nonce = _nonce(name)
    want = unimac.Mac(name, key).tag_file(big, nonce=nonce, caller_manages_nonces=True)
    with open(big, "rb") as f:
        assert want == unimac.tag(name, key, f.read(), nonce=nonce, caller_manages_nonces=True)
    g = unimac.granularity(name)
    odd = g * (2 * (20000 // g) + 1)  # an odd multiple of the granularity
    sizes = [4096, 64 << 10, odd, odd - 1, "1 MiB", "1 GiB"]  # odd - 1: rounded up to odd
    for bs in sizes:
        got = ud.tag_large(
            big, name, key, nonce=nonce, caller_manages_nonces=nonce is not None, blocksize=bs, client=client
        )
        assert got == want, bs
    ud.verify_large(big, name, key, want, nonce=nonce, blocksize=64 << 10, client=client)
    bad = bytearray(want)
    bad[0] ^= 1
    with pytest.raises(unimac.InvalidTag):
        ud.verify_large(big, name, key, bytes(bad), nonce=nonce, blocksize=64 << 10, client=client)
    if nonce is not None:  # the nonce is part of the tag
        with pytest.raises(unimac.InvalidTag):
            ud.verify_large(big, name, key, want, nonce=os.urandom(16), client=client)


def test_tag_large_raw_hash_and_small_files(client, tmp_path):
    key = unimac.keygen("eval64")
    for n in (0, 1, 7, 8, 4096 + 3):
        p = tmp_path / f"f{n}"
        data = os.urandom(n)
        p.write_bytes(data)
        assert ud.tag_large(str(p), "eval64", key, blocksize=4096, client=client) == unimac.compute("eval64", key, data)
        k2 = unimac.keygen("hash127-aes")
        assert ud.tag_large(p, "hash127-aes", k2, blocksize=8, client=client) == unimac.tag("hash127-aes", k2, data)


def test_blocks_are_aligned_and_cover_the_file(big):
    """The ranges given to the workers are read_bytes' own (each task checks
    its block's length); the partials' offsets are multiples of the
    granularity."""
    hk = unimac.hash_key("hash127-aes", bytes(32))
    tasks, ranges, size, gran = ud.large_tasks(big, "hash127-aes", hk, blocksize=3 * 4096 + 4)
    assert size == os.path.getsize(big) and gran == 4
    assert ranges[0][0] == 0 and sum(n for _, n in ranges) == size
    assert any(o % gran for o, _ in ranges)  # read_bytes' offsets need not be aligned
    results = dask.compute(*tasks, scheduler="sync")
    for (off, n), (head, partial, tail) in zip(ranges, results):
        info = unimac.partial_info(partial)
        assert info["offset"] % gran == 0 and info["offset"] == off + len(head)
        assert len(head) + info["length"] + len(tail) == n
        assert len(head) < gran and len(tail) < gran


def test_tag_files_and_verify(client, tmp_path):
    paths = []
    for i, n in enumerate((0, 5, 4096, 100_003, 1 << 20)):
        p = tmp_path / f"file{i}"
        p.write_bytes(os.urandom(n))
        paths.append(str(p))
    key = unimac.keygen("hash127-aes")
    tags, nonces = ud.tag_files(paths, "hash127-aes", key, client=client)
    assert nonces is None
    assert tags == [unimac.Mac("hash127-aes", key).tag_file(p) for p in paths]
    ud.verify_files(paths, "hash127-aes", key, tags, client=client)

    # A nonce MAC: nonces from the counter (bound to the MAC and key), on
    # the client, one per file.
    key = unimac.keygen("wc-mmh32x2")
    counter = unimac.Counter.create(str(tmp_path / "n.ctr"), "wc-mmh32x2", key)
    tags, nonces = ud.tag_files(paths, "wc-mmh32x2", key, counter=counter, client=client)
    assert nonces == [i.to_bytes(16, "little") for i in range(len(paths))]
    assert counter.peek() == len(paths)
    m = unimac.Mac("wc-mmh32x2", key)
    assert tags == [m.tag_file(p, nonce=n, caller_manages_nonces=True) for p, n in zip(paths, nonces)]
    ud.verify_files(paths, "wc-mmh32x2", key, tags, nonces=nonces, client=client)

    # One file changed: the error names it.
    with open(paths[3], "r+b") as f:
        f.seek(50_000)
        b = f.read(1)
        f.seek(50_000)
        f.write(bytes([b[0] ^ 0x80]))
    with pytest.raises(unimac.InvalidTag, match="file3") as e:
        ud.verify_files(paths, "wc-mmh32x2", key, tags, nonces=nonces, client=client)
    assert "file4" not in str(e.value)
    with pytest.raises(ValueError, match="counter"):
        ud.tag_files(paths, "wc-mmh32x2", key, client=client)


def test_clear_errors(client, big, tmp_path):
    with pytest.raises(ValueError, match="key must be 32 bytes, got 5"):
        ud.tag_large(big, "hash127-aes", bytes(5), client=client)
    with pytest.raises(ValueError, match="key must be 24 bytes"):
        ud.tag_files([big], "wc-eval64", bytes(32), counter=None, client=client)
    with pytest.raises(ValueError, match="nonce"):
        ud.tag_large(big, "wc-eval64", bytes(24), client=client)
    with pytest.raises(ValueError, match="no partial hashes"):
        ud.tag_large(big, "umac64", bytes(16), client=client)
    for one_time, key_len in (("hash127", 32), ("hash127-96", 48)):
        with pytest.raises(ValueError, match="one-time MAC .*unimac.OneTimeKey"):
            ud.tag_large(big, one_time, bytes(key_len), client=client)
        with pytest.raises(ValueError, match="one-time MAC .*unimac.OneTimeKey"):
            ud.tag_files([big], one_time, bytes(key_len), client=client)
    missing = str(tmp_path / "no-such-file.bin")
    with pytest.raises(FileNotFoundError, match="no-such-file.bin"):
        ud.tag_files([big, missing], "hash127-aes", bytes(32), client=client)
    with pytest.raises(FileNotFoundError, match="no-such-file.bin"):
        ud.tag_large(missing, "hash127-aes", bytes(32), client=client)


class _Recording:
    """A client that serializes everything sent through it, then sends it."""

    def __init__(self, client):
        self._c = client
        self.blobs = []

    def compute(self, collections, *a, **k):
        graph = {}
        for c in collections:  # every task of the graph, materialized
            graph.update(dict(c.__dask_graph__()))
        self.blobs.append(cloudpickle.dumps(graph))
        self.blobs.append(cloudpickle.dumps(collections))
        return self._c.compute(collections, *a, **k)

    def map(self, *a, **k):
        self.blobs.append(cloudpickle.dumps((a, k)))
        return self._c.map(*a, **k)

    def __getattr__(self, name):
        if name in ("submit", "scatter", "run", "persist", "get"):
            raise AssertionError(f"unexpected Client.{name}")
        return getattr(self._c, name)


@pytest.mark.parametrize(
    "name,secret",
    [
        ("hash127-aes", slice(16, 32)),
        ("hash127-aes-nonce", slice(16, 32)),
        ("wc-eval64", slice(0, 16)),
        ("wc-mmh32x2", slice(0, 16)),
    ],
)
def test_cipher_key_never_leaves_the_client(client, big, tmp_path, name, secret):
    key = unimac.keygen(name)
    K, hk = key[secret], unimac.hash_key(name, key)
    rec = _Recording(client)
    nonce = _nonce(name)
    t = ud.tag_large(big, name, key, nonce=nonce, caller_manages_nonces=nonce is not None, blocksize=256 << 10, client=rec)
    assert t == unimac.Mac(name, key).tag_file(big, nonce=nonce, caller_manages_nonces=True)
    counter = unimac.Counter.create(str(tmp_path / "c"), name, key) if nonce else None
    ud.tag_files([big, big], name, key, counter=counter, client=rec)
    # The whole graph was recorded: every block's task, with the path it reads.
    blocks = len(ud.large_tasks(big, name, hk, blocksize=256 << 10)[1])
    assert len(rec.blobs) == 3 and rec.blobs[0].count(b"unimac-block-") >= blocks > 1
    assert big.encode() in rec.blobs[0]
    for blob in rec.blobs:
        assert hk in blob  # the check sees the arguments ...
        assert K not in blob  # ... and the cipher key is not among them
        for i in range(0, len(K) - 7):  # nor any 8 bytes of it
            assert K[i : i + 8] not in blob


def test_worker_killed_mid_job(client, tmp_path):
    p = tmp_path / "killed.bin"
    p.write_bytes(os.urandom(4 << 20))
    key = unimac.keygen("hash127-aes")
    want = unimac.Mac("hash127-aes", key).tag_file(str(p))
    pids = client.run(os.getpid)
    out = {}

    def job():
        try:
            out["tag"] = ud.tag_large(str(p), "hash127-aes", key, blocksize=4096, client=client)
        except BaseException as e:  # pragma: no cover - reported below
            out["error"] = e

    th = threading.Thread(target=job)
    th.start()

    def done_tasks(dask_scheduler):
        return sum(1 for ts in dask_scheduler.tasks.values() if ts.state in ("memory", "released", "forgotten"))

    deadline = time.monotonic() + 20
    while client.run_on_scheduler(done_tasks) < 100 and time.monotonic() < deadline:
        time.sleep(0.02)
    addr, pid = sorted(pids.items())[0]
    assert th.is_alive(), "the job ended before a worker could be killed"
    os.kill(pid, signal.SIGKILL)
    th.join(60)
    assert not th.is_alive()
    assert "error" not in out, out.get("error")
    assert out["tag"] == want
    # The nanny restarted the killed worker: two workers again, one new.
    client.wait_for_workers(2, timeout=30)
    new_pids = client.run(os.getpid)
    assert pid not in new_pids.values()


def test_readme_clusters_example_runs(tmp_path, monkeypatch):
    """The README's example, over TLS (Security.temporary needs cryptography)."""
    pytest.importorskip("cryptography", reason="Security.temporary() makes its certificates with cryptography")
    import pathlib

    readme = pathlib.Path(__file__).resolve().parents[3] / "README.md"
    section = readme.read_text().split("\n### Clusters\n", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    for n, size in (("big.bin", 300_001), ("a.bin", 10), ("b.bin", 70_000)):
        (tmp_path / n).write_bytes(os.urandom(size))
    scope = {"__name__": "__main__"}
    exec(compile(code, str(readme), "exec"), scope)
    assert scope["tag"] == unimac.Mac("hash127-aes", scope["key"]).tag_file("big.bin")
    assert scope["sec"].require_encryption
    assert scope["nonces"] == [i.to_bytes(16, "little") for i in range(2)]
