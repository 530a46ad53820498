"""unimac.dask's block tasks stream: each reads its byte range in bounded
buffers and hashes as it reads. Against a real distributed.LocalCluster of
worker processes (started and stopped here): the tags equal Mac.tag_file for
block sizes that do and do not divide the file, around the read buffer; a
file that shrinks or grows is "changed while reading"; a worker's peak
memory does not grow with the block."""

import os
import threading

import pytest

distributed = pytest.importorskip(
    "distributed", reason="unimac.dask needs Dask's distributed scheduler (pip install 'dask[distributed]')"
)

import dask  # noqa: E402

import unimac  # noqa: E402
import unimac.dask as ud  # noqa: E402
from unimac import _unimac  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::unimac.dask.InsecureClusterWarning")

MiB = 1 << 20
NAMES = ["hash127-aes", "wc-eval64", "wc-eval128", "wc-mmh32x2"]


@pytest.fixture(scope="module")
def data_file(tmp_path_factory):
    """3 MiB + 4097 bytes: several read buffers per block, and a length no
    granularity divides."""
    p = tmp_path_factory.mktemp("stream") / "data.bin"
    p.write_bytes(os.urandom(3 * MiB + 4097))
    return str(p)


def test_block_read_buffer_is_bounded():
    assert 4096 <= ud.BLOCK_READ_BYTES <= 4 * MiB


@pytest.mark.parametrize("name", NAMES)
def test_streamed_tags_equal_tag_file(client, data_file, name):
    key = unimac.keygen(name)
    counter_path = data_file + f".{name}.ctr"
    counter = unimac.Counter.create(counter_path, name, key) if unimac.info(name)["nonce_size"] else None
    g = unimac.granularity(name)
    buf = ud.BLOCK_READ_BYTES
    # Block sizes below, at, just past and well past the read buffer, one
    # that divides the file's aligned part and ones that divide nothing.
    sizes = [g * 1001, buf - g, buf, buf + g, 3 * buf // 2 + 3 * g, 2 * buf, 8 * buf]
    for bs in sizes:
        t = ud.tag_large(data_file, name, key, counter=counter, blocksize=bs, client=client)
        assert t == unimac.Mac(name, key).tag_file(data_file, nonce=t.nonce, caller_manages_nonces=True), (name, bs)
    if counter is not None:
        os.unlink(counter_path)


@pytest.mark.parametrize("name", NAMES)
def test_range_equals_partial_hash_of_the_slice(tmp_path, name):
    """``_partial_range`` of any range, with buffers from one granule up,
    gives the head, the partial of the aligned middle and the tail of
    the slice, as partial_hash computes them in one piece."""
    data = os.urandom(70_000 + 13)
    p = tmp_path / "r.bin"
    p.write_bytes(data)
    size = len(data)
    hk = unimac.hash_key(name, unimac.keygen(name))
    g = unimac.granularity(name)
    ranges = [(0, size), (0, g), (g + 1, size - g - 1), (3, 2 * g + 5), (size - g - 1, g + 1), (2 * g, size - 2 * g)]
    for off, n in ranges:
        end = off + n
        last = end == size
        a = -(-off // g) * g
        e = end if last else end // g * g
        want = unimac.partial_hash(name, hk, a, data[a:e], last=last) if (e > a or last) else None
        for buf in (1, g, 3 * g, 4096, 1 << 20):
            head, partial, tail = _unimac._partial_range(name, hk, str(p), off, n, size, buf)
            assert (head, tail) == (data[off:a], data[e:end]), (off, n, buf)
            assert partial == want, (name, off, n, buf)


def test_range_errors(tmp_path):
    p = tmp_path / "e.bin"
    p.write_bytes(bytes(1000))
    hk = bytes(16)
    with pytest.raises(ValueError, match="not inside a file of 1000 bytes"):
        _unimac._partial_range("hash127-aes", hk, str(p), 900, 200, 1000)
    with pytest.raises(FileNotFoundError):
        _unimac._partial_range("hash127-aes", hk, str(tmp_path / "missing"), 0, 10, 10)
    with pytest.raises(ValueError, match="hash key must be 16 bytes"):
        _unimac._partial_range("hash127-aes", bytes(5), str(p), 0, 1000, 1000)
    # The size the tasks were planned for is not the file's.
    with pytest.raises(OSError, match="changed while reading"):
        _unimac._partial_range("hash127-aes", hk, str(p), 0, 1200, 1200)


def test_shrinking_file_is_changed_while_reading(client, tmp_path):
    """The file shrinks after the tasks were made: the task that reads past
    the new end, or sees the size changed, raises the clear error on the
    client."""
    p = tmp_path / "shrink.bin"
    p.write_bytes(os.urandom(4 * MiB))
    key = unimac.keygen("hash127-aes")
    tasks, ranges, size, gran = ud.large_tasks(str(p), "hash127-aes", unimac.hash_key("hash127-aes", key), blocksize=MiB)
    os.truncate(p, 3 * MiB + 5)
    with pytest.raises(OSError, match=r"shrink\.bin: changed while reading"):
        client.gather(client.compute(tasks))
    with pytest.raises(OSError, match=r"shrink\.bin: changed while reading"):
        dask.compute(*tasks, scheduler="sync")


def test_file_changing_during_the_read(tmp_path):
    """A file truncated, or grown, while its range is read (one granule per
    pread, so the read takes long enough): the read is an error, whether
    the change lands before the open or between two reads."""
    p = tmp_path / "moving.bin"
    size = 8 * MiB  # a million reads of 8 bytes: the change lands mid-read
    for change in ("shrink", "grow"):
        with open(p, "wb") as f:
            f.truncate(size)
        started = threading.Event()

        def mover():
            started.wait()
            if change == "shrink":
                os.truncate(p, size // 2)
            else:
                with open(p, "ab") as f:
                    f.write(b"more")

        th = threading.Thread(target=mover)
        th.start()
        started.set()
        with pytest.raises(OSError, match="changed while reading"):
            _unimac._partial_range("wc-eval64", bytes(8), str(p), 0, size, size, 8)
        th.join()


def _reset_peak_rss():
    """Start the process's RSS high-water mark (VmHWM) afresh (Linux: "5"
    to /proc/self/clear_refs). ru_maxrss is no measure here: a worker
    process inherits its parent's (the nanny's, in the test process)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def _peak_rss():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc/self/status")


def _read_whole(path):
    with open(path, "rb") as f:
        return len(f.read())


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux's VmHWM and clear_refs")
def test_worker_memory_is_bounded_whatever_the_block(tmp_path):
    """One worker hashes a 256 MiB file as one block: its peak RSS grows by
    far less than the block, while reading the block whole (as a control:
    the measurement sees a block-sized buffer) grows it by the block."""
    p = tmp_path / "huge.bin"
    huge = 256 * MiB
    with open(p, "wb") as f:  # sparse: reads as zeros, costs no disk
        f.truncate(huge)
    small = tmp_path / "small.bin"
    small.write_bytes(os.urandom(3 * MiB))
    key = unimac.keygen("hash127-aes")
    with distributed.LocalCluster(
        n_workers=1, processes=True, threads_per_worker=1, dashboard_address=":0", silence_logs=40
    ) as cluster, distributed.Client(cluster) as c:
        # Warm up: the same code paths, a block of a few buffers.
        assert ud.tag_large(str(small), "hash127-aes", key, blocksize=MiB, client=c) == unimac.Mac(
            "hash127-aes", key
        ).tag_file(str(small))

        def grown(f):
            c.run(_reset_peak_rss)
            (before,) = c.run(_peak_rss).values()
            out = f()
            (after,) = c.run(_peak_rss).values()
            return out, after - before

        t, streamed = grown(lambda: ud.tag_large(str(p), "hash127-aes", key, blocksize=huge, client=c))
        n, whole = grown(lambda: c.submit(_read_whole, str(p), pure=False).result())
    assert t == unimac.Mac("hash127-aes", key).tag_file(str(p))
    assert n == huge and whole > huge - 16 * MiB, f"the control grew the peak RSS by {whole / MiB:.1f} MiB only"
    assert streamed < 32 * MiB, f"the worker's peak RSS grew by {streamed / MiB:.1f} MiB for one 256 MiB block"


def test_other_filesystems_stream_too(monkeypatch):
    """A file of another fsspec filesystem (here memory://, in this process:
    the synchronous scheduler) is read in buffers of REMOTE_READ_BYTES,
    each hashed before the next is read; the partial equals the one-piece
    one, and a file that shrank is "changed while reading"."""
    fsspec = pytest.importorskip("fsspec")
    monkeypatch.setattr(ud, "REMOTE_READ_BYTES", 64 << 10)
    data = os.urandom(3 * MiB + 5)
    url = "memory://unimac-stream-test/data.bin"
    fs = fsspec.filesystem("memory")
    fs.pipe(url, data)
    try:
        for name in ("hash127-aes", "wc-mmh32x2"):
            key = unimac.keygen(name)
            spec = unimac.info(name)["spec_name"]
            hk = unimac.hash_key(name, key)
            for bs in (100_000, MiB, 8 * MiB):
                tasks, ranges, size, gran = ud.large_tasks(url, name, hk, blocksize=bs)
                results = dask.compute(*tasks, scheduler="sync")
                whole = ud._combine_blocks(spec, hk, results, ranges, size, gran)
                assert whole == unimac.partial_hash(spec, hk, 0, data, last=True), (name, bs)
        tasks, *_ = ud.large_tasks(url, "hash127-aes", bytes(16), blocksize=MiB)
        fs.pipe(url, data[: 2 * MiB])
        with pytest.raises(OSError, match="changed while reading"):
            dask.compute(*tasks, scheduler="sync")
    finally:
        fs.rm(url)
