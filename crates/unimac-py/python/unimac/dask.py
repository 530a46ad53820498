"""Tags of many files, or of one huge file, computed over a Dask cluster.

Built on Dask's ``distributed`` scheduler (``pip install 'dask[distributed]'``,
or ``pip install '.[dask]'`` in a checkout):
the workers compute partial hashes (:func:`unimac.partial_hash`) under the
hash key (:func:`unimac.hash_key`); the client combines them and finishes
the MAC (:func:`unimac.finish_mac`) with the cipher key, which is in no
task, no argument and no result sent to the scheduler or the workers. That
protects the cipher key from disclosure, not the tags from forgery: see
**Security** below.

* :func:`tag_files` / :func:`verify_files`: one tag per file, each file hashed
  whole by one worker.
* :func:`tag_large` / :func:`verify_large`: one tag of one huge file (a local
  path or any fsspec URL, e.g. ``s3://bucket/big.bin``), split into byte
  ranges (by :func:`dask.bytes.read_bytes`' rule), each range read by a
  worker in buffers of :data:`BLOCK_READ_BYTES` and hashed as it is read
  (a worker's memory does not grow with the block size), the partials
  combined on the client in order.

Both tagging functions take the nonces of a nonce MAC the same way:
``counter=``, a :class:`unimac.Counter` bound to the MAC and key, drawn on
the client after the hashing; the nonces come back with the tags
(:attr:`Tags.nonces`, :attr:`Tag.nonce`). A nonce given by the caller
(:func:`tag_large` only, for interoperation) needs
``caller_manages_nonces=True``, as the CLI's ``--nonce`` needs
``--caller-manages-nonces``: unimac cannot know whether it was used
before. The checking functions take the nonces the tags were made with
(``nonces=``, ``nonce=``). Local paths are made absolute on the client
(``os.path.abspath``) before any task is built, so the workers open the
files the client names.

Local files, whole or in byte ranges, are read under the rule for files
that change while they are read (docs/SECURITY.md, "Files that change
while they are read"): a task whose file changed while it read it (its
size, times, device or inode moved, or, for a file changed within two
seconds of the read, a second read of the range gave other bytes) raises
``OSError`` ("changed while reading") rather than return a partial of
bytes the file never held.

A lost worker is no problem: Dask reruns its tasks elsewhere and the tag is
the same bit for bit. Errors (a bad key, a missing file) are raised on the
client as ``ValueError`` / ``FileNotFoundError``; a tag that does not verify
raises :class:`unimac.InvalidTag`.

The examples of the functions below run with ``client``, a
``distributed.Client``; as doctests (``tests/test_docs.py``) it is one of a
``LocalCluster(processes=False)``, whose workers are threads of the one
process: for the examples only, not for keys (a real cluster: TLS, below).

**Security: the cluster is trusted as much as the whole key.** The
workers, the scheduler, and whatever can read the tasks, the workers'
spill files or the partials are trusted exactly as much as the key itself:

* The hash key (``r`` of hash127, ``g`` of ``wc-eval64``, ``s`` of a tree
  MAC...) travels to the workers inside the tasks, and a partial reveals it
  to anyone who sees it. Whoever holds the hash key forges after seeing one
  tag. Under ``hash127-aes`` it finds a second message with the same
  hash127 value (a 32-byte tail found by lattice reduction, seconds of
  work), and the tag of the first message verifies for it. Under a nonce of
  a ``wc-`` MAC whose tag ``t`` of ``M`` it has seen, it tags any ``M'``:
  ``t' = t - H(M) + H(M')`` in the group where the pad is added (XOR for
  ``wc-eval64``).
* Partials are trusted as returned: a worker can return any partial, so
  :func:`tag_large` and :func:`tag_files` tag, and :func:`verify_large` and
  :func:`verify_files` accept, whatever contents that worker chooses.
* What keeping the cipher key on the client does give: the cipher key is
  not disclosed. A worker cannot compute a tag under a fresh nonce from
  nothing, and a leak of a worker's memory, of a task or of a spill file
  does not expose the cipher key. It does not keep tags from being forged.

So run the cluster only on machines trusted with the key, with TLS between
client, scheduler and workers (:class:`distributed.security.Security`):
a client whose scheduler is at a plain ``tcp://`` address gets an
:class:`InsecureClusterWarning`.
Task names carry no function of the key (a fixed prefix, a random run
identifier and a block offset or file index), and the hash key inside a
task prints as ``<unimac hash key>`` in reprs and in the workers' logs.

One-time MACs (the names whose ``unimac.info(name)["one_time"]`` is true:
``hash127``, ``hash127-96``) are refused with a ``ValueError``: their key
tags one message and stays in one process (``hash127``'s tag ``k + h_r(M)``
gives its pad ``k`` to whoever holds ``r``). Tag their one message with
:class:`unimac.OneTimeKey`.

Example::

    from distributed import Client, LocalCluster
    from distributed.security import Security
    import unimac, unimac.dask

    sec = Security.temporary()          # self-signed; for real clusters
    # sec = Security(tls_ca_file="ca.pem", tls_client_cert="cert.pem",
    #                tls_client_key="key.pem", require_encryption=True)
    cluster = LocalCluster(n_workers=2, protocol="tls", security=sec)
    client = Client(cluster, security=sec)
    key = unimac.keygen("hash127-aes")
    tag = unimac.dask.tag_large("big.bin", "hash127-aes", key, client=client)
    unimac.dask.verify_large("big.bin", "hash127-aes", key, tag, client=client)
"""

from __future__ import annotations

import os
import secrets
import warnings
from typing import Any, List, NamedTuple, Optional, Sequence, Union

import unimac
from unimac import _unimac

try:
    import dask
    import distributed
    from dask.utils import parse_bytes
    from fsspec.core import get_fs_token_paths, split_protocol
    from fsspec.implementations.local import LocalFileSystem
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "unimac.dask needs Dask's distributed scheduler: pip install 'dask[distributed]' "
        "(in a checkout of unimac: pip install '.[dask]', which adds cryptography for TLS)"
    ) from e

__all__ = [
    "InsecureClusterWarning",
    "Tag",
    "Tags",
    "large_tasks",
    "tag_files",
    "tag_large",
    "verify_files",
    "verify_large",
]

#: Bytes read at a time when a worker hashes a whole file.
FILE_READ_BYTES = 16 << 20

#: Bytes a worker reads at a time from its block of a local file (with
#: ``pread``, in the extension, the GIL released) and hashes before reading
#: more: its memory for a block whatever the block's size (docs/perf/dask.md).
BLOCK_READ_BYTES = 1 << 20

#: The same for a file of another fsspec filesystem (read in Python, each
#: buffer hashed with :func:`unimac.partial_hash`).
REMOTE_READ_BYTES = 16 << 20


class InsecureClusterWarning(UserWarning):
    """The client talks to its scheduler over plain ``tcp://``: the hash key
    in the tasks and the partials travel unencrypted. Use TLS
    (``distributed.security.Security``).

    >>> import warnings, unimac.dask
    >>> issubclass(unimac.dask.InsecureClusterWarning, UserWarning)
    True
    """


class Tags(NamedTuple):
    """What :func:`tag_files` returns: ``tags[i]`` of ``paths[i]``, under
    ``nonces[i]`` (``nonces`` is ``None`` for the MACs without a nonce).

    >>> import unimac.dask
    >>> tags, nonces = unimac.dask.Tags([b"t"], None)
    """

    tags: List[bytes]
    nonces: Optional[List[bytes]]


class Tag(bytes):
    """What :func:`tag_large` returns: the tag (``bytes``), with the nonce it
    was made under in :attr:`nonce` (``None`` for a MAC without a nonce).

    >>> import unimac.dask
    >>> t = unimac.dask.Tag(b"\\x01\\x02", nonce=bytes(16))
    >>> t == b"\\x01\\x02", len(t.nonce)
    (True, 16)
    """

    nonce: Optional[bytes]

    def __new__(cls, tag: bytes, nonce: Optional[bytes] = None):
        t = super().__new__(cls, tag)
        t.nonce = nonce
        return t

    def __reduce__(self):
        return (Tag, (bytes(self), self.nonce))

    def __repr__(self) -> str:
        return f"Tag({bytes(self)!r}, nonce={self.nonce!r})"


class _Name(NamedTuple):
    spec: str  # the name of the partial API (mac-... for MACs)
    mac: bool
    nonce_size: int
    nonce_sizes: tuple


def _name(name: str) -> _Name:
    i = unimac.info(name)  # ValueError for an unknown name
    if i["one_time"]:
        raise ValueError(
            f"{name} is a one-time MAC (one message per key): unimac.dask does not compute it "
            "(its key must stay in one process); tag its one message with unimac.OneTimeKey"
        )
    spec = i["spec_name"]
    unimac.granularity(spec)  # ValueError for a name without partial hashes
    return _Name(spec, i["mac"], i["nonce_size"], tuple(i["nonce_sizes"]))


class _HashKey:
    """The hash key as a task argument. Its bytes travel to the workers,
    which need them; its ``repr`` and ``str`` show none of them, so a task
    printed in a log (the workers' "Compute Failed" lines, the dashboard)
    gives no key away, and its Dask token is random, not a function of the
    key."""

    __slots__ = ("_key", "_token")

    def __init__(self, key: bytes):
        self._key = bytes(key)
        self._token = secrets.token_hex(8)

    def __bytes__(self) -> bytes:
        return self._key

    def __repr__(self) -> str:
        return "<unimac hash key>"

    __str__ = __repr__

    def __reduce__(self):
        return (_HashKey, (self._key,))

    def __dask_tokenize__(self):
        return ("unimac-hash-key", self._token)


def _run_id() -> str:
    """A fresh random component for the task names of one call: the names
    stay unique and carry nothing derived from the key."""
    return secrets.token_hex(16)


def _client(client):
    """The client to use, with an :class:`InsecureClusterWarning` when its
    scheduler is at a plain ``tcp://`` (or ``ws://``) address. Called by the
    public functions only (the warning names their caller)."""
    client = client if client is not None else distributed.get_client()
    try:
        address = str(client.scheduler.address or "")
    except Exception:  # noqa: BLE001 - a stand-in client without a scheduler rpc
        address = ""
    if address.startswith(("tcp://", "ws://")):
        warnings.warn(
            f"unimac.dask: the scheduler is at {address}, without TLS: the hash key in the tasks and the "
            "partials (which reveal it) travel unencrypted; TLS is recommended "
            "(distributed.security.Security, a tls:// scheduler)",
            InsecureClusterWarning,
            stacklevel=3,
        )
    return client


def _paths(paths, what: str = "paths") -> List[str]:
    """A list of paths, each absolute (made so on the client, before any
    task is built); a lone path is refused (it would be taken as a list of
    one-character paths)."""
    if isinstance(paths, (str, bytes, bytearray, os.PathLike)):
        raise TypeError(f"{what} must be a list of paths, not a single {type(paths).__name__}: pass [{paths!r}]")
    return [os.path.abspath(os.fspath(p)) for p in paths]


def _byte_list(xs, what: str):
    if isinstance(xs, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"{what} must be a list (one per file), not a single {type(xs).__name__}")
    return list(xs)


def _url(urlpath) -> str:
    """A local path made absolute on the client; an fsspec URL as given."""
    u = os.fspath(urlpath)
    if isinstance(u, bytes):
        u = os.fsdecode(u)
    protocol, _ = split_protocol(u)
    return os.path.abspath(u) if protocol in (None, "file", "local") and "://" not in u else u


def _check_nonce(n: _Name, name: str, nonce) -> Optional[bytes]:
    if n.nonce_size == 0:
        if nonce is not None:
            raise ValueError(f"{name}: this MAC takes no nonce")
        return None
    if nonce is None:
        raise ValueError(f"{name}: a nonce is required")
    nonce = bytes(nonce)
    # The library's rule for its length, with its message.
    _unimac._check_nonce(name, nonce)
    return nonce


def _finish(n: _Name, key: bytes, partial: bytes, nonce: Optional[bytes]) -> bytes:
    if n.mac:
        # The nonce passed tag_large's or tag_files' own rule (a counter's,
        # or caller_manages_nonces=True) before the hashing.
        return unimac.finish_mac(n.spec, key, partial, nonce=nonce, caller_manages_nonces=nonce is not None)
    return unimac.finish_hash(n.spec, key, partial)


def _round_blocksize(blocksize: Union[int, str], gran: int) -> int:
    bs = parse_bytes(blocksize) if isinstance(blocksize, str) else int(blocksize)
    if bs <= 0:
        raise ValueError(f"blocksize must be positive, got {blocksize!r}")
    return max(gran, -(-bs // gran) * gran)


# ---------------------------------------------------------------------------
# Tasks run on the workers: they get the hash key, never the cipher key.
# The hash key still lets them forge (see the module's docstring).
# ---------------------------------------------------------------------------


def _file_partial(spec: str, hk: _HashKey, path: str) -> bytes:
    """The partial of the whole file at ``path``: the range of all its bytes
    (``unimac._partial_range``: read in buffers of :data:`FILE_READ_BYTES`,
    the GIL released, under the rule for files that change while they are
    read); ``OSError`` ("changed while reading") if it changed, or is no
    longer the size its ``stat`` gave."""
    size = os.stat(path).st_size
    head, partial, tail = _unimac._partial_range(spec, bytes(hk), path, 0, size, size, FILE_READ_BYTES)
    assert not head and not tail and partial is not None
    return partial


def _block_local(spec: str, hk: _HashKey, path: str, offset: int, length: int, size: int):
    """One byte range of a large local file: ``(head, partial, tail)``.

    ``partial`` covers the aligned middle ``[a, e)`` of ``[offset, offset +
    length)`` (``None`` if empty); ``head`` = bytes ``[offset, a)`` and
    ``tail`` = ``[e, offset + length)`` are the unaligned edges, at most
    ``gran - 1`` bytes each, hashed on the client with the neighbour's edge.
    The middle is read in buffers of :data:`BLOCK_READ_BYTES` and hashed as
    it is read, the key set up once (``unimac._partial_range``); a file that
    is not ``size`` bytes long, or changes while it is read, raises
    ``OSError`` ("changed while reading"). The range of a file changed
    within two seconds of the read is read a second time and compared (the
    library's rule, ``unimac::formats::race``).
    """
    return _unimac._partial_range(spec, bytes(hk), path, offset, length, size, BLOCK_READ_BYTES)


def _block_fsspec(fs, path: str, spec: str, hk: _HashKey, offset: int, length: int, size: int, gran: int):
    """The same as :func:`_block_local` for a file of any fsspec filesystem,
    read in buffers of :data:`REMOTE_READ_BYTES`, each hashed before the
    next is read."""
    hk = bytes(hk)
    end = offset + length
    last = end == size
    a = -(-offset // gran) * gran
    e = end if last else end // gran * gran
    if a > e:
        raise ValueError(f"the range {offset}+{length} holds no aligned chunk of {gran} bytes and does not end the file")
    step = max(1, REMOTE_READ_BYTES // gran) * gran
    with fs.open(path, "rb") as f:
        f.seek(offset)

        def read(n: int) -> bytes:
            at = f.tell()
            b = f.read(n)
            if len(b) != n:
                raise OSError(f"{path}: changed while reading (it ended before byte {at + n})")
            return b

        head = read(a - offset)
        acc, pos = None, a
        while e > a or last:
            n = min(step, e - pos)
            p = unimac.partial_hash(spec, hk, pos, read(n), last=last and pos + n == e)
            acc = p if acc is None else unimac.partial_combine(acc, p)
            pos += n
            if pos == e:
                break
        tail = read(end - e)
    return head, acc, tail


# ---------------------------------------------------------------------------
# Many files
# ---------------------------------------------------------------------------


def _file_partials(paths: List[str], n: _Name, hk: bytes, client) -> List[bytes]:
    if not paths:
        return []
    run = _run_id()
    arg = _HashKey(hk)
    futures = client.map(
        _file_partial,
        [n.spec] * len(paths),
        [arg] * len(paths),
        paths,
        key=[f"unimac-file-{run}-{i}" for i in range(len(paths))],
    )
    try:
        return client.gather(futures)
    finally:
        for f in futures:
            f.release()


def tag_files(
    paths: Sequence[Union[str, os.PathLike]],
    name: str,
    key: bytes,
    *,
    counter: Optional["unimac.Counter"] = None,
    client: Optional["distributed.Client"] = None,
) -> Tags:
    """The tags of the files ``paths`` (paths the workers can open), each
    file hashed whole by one worker under the hash key; the client finishes
    every tag. Equal to ``unimac.Mac(name, key).tag_file(path, nonce)``.

    MACs with a nonce take one nonce per file from ``counter`` (a
    :class:`unimac.Counter`, drawn on the client after the files were
    hashed). Returns :class:`Tags` ``(tags, nonces)``. ``client``: the
    ``distributed.Client`` (default: the current one). One-time MACs
    (``unimac.info(name)["one_time"]``) raise ``ValueError``: use
    :class:`unimac.OneTimeKey`.

    ``paths`` is a list (a lone ``str`` or path raises ``TypeError``); the
    paths are made absolute on the client.

    The workers get the hash key, which lets them forge once they see a
    tag, and each tag is of the partial a worker returned, whatever file it
    read: the cluster is trusted as much as ``key`` (module docstring).

    >>> import unimac, unimac.dask
    >>> for f in ("a.bin", "b.bin"):
    ...     with open(f, "wb") as out: _ = out.write(f.encode() * 1000)
    >>> key = unimac.keygen("wc-mmh32x4")
    >>> ctr = unimac.Counter.create("files.ctr", "wc-mmh32x4", key)
    >>> tags, nonces = unimac.dask.tag_files(["a.bin", "b.bin"], "wc-mmh32x4", key, counter=ctr, client=client)
    >>> tags[1] == unimac.Mac("wc-mmh32x4", key).tag_file("b.bin", nonce=nonces[1], caller_manages_nonces=True)
    True
    """
    paths = _paths(paths)
    client = _client(client)
    n = _name(name)
    key = bytes(key)
    hk = unimac.hash_key(n.spec, key)  # checks the key
    if n.nonce_size and counter is None:
        raise ValueError(f"{name}: a nonce MAC: pass counter=unimac.Counter(...)")
    if not n.nonce_size and counter is not None:
        raise ValueError(f"{name}: this MAC takes no nonce (no counter)")
    if counter is not None:
        # The counter must be bound to this MAC and key: reopened with them,
        # another key's or MAC's counter is refused before anything is hashed.
        counter = unimac.Counter(counter.path, name, key)
    partials = _file_partials(paths, n, hk, client)
    nonces = [counter.next() for _ in partials] if n.nonce_size else None
    tags = [_finish(n, key, p, nonces[i] if nonces else None) for i, p in enumerate(partials)]
    return Tags(tags, nonces)


def verify_files(
    paths: Sequence[Union[str, os.PathLike]],
    name: str,
    key: bytes,
    tags: Sequence[bytes],
    *,
    nonces: Optional[Sequence[bytes]] = None,
    client: Optional["distributed.Client"] = None,
) -> None:
    """Check ``tags[i]`` (under ``nonces[i]``) of every file ``paths[i]``;
    raise :class:`unimac.InvalidTag` naming the files whose tag is wrong.

    Each file is checked against the partial a worker returned: a worker
    can make any file pass. The cluster is trusted as much as ``key``
    (module docstring).

    >>> import unimac, unimac.dask
    >>> with open("c.bin", "wb") as f: _ = f.write(b"attack at dawn")
    >>> key = unimac.keygen("hash127-aes")
    >>> tags, _ = unimac.dask.tag_files(["c.bin"], "hash127-aes", key, client=client)
    >>> unimac.dask.verify_files(["c.bin"], "hash127-aes", key, tags, client=client)
    >>> unimac.dask.verify_files(["c.bin"], "hash127-aes", unimac.keygen("hash127-aes"), tags, client=client)
    Traceback (most recent call last):
    ...
    unimac.InvalidTag: tag mismatch: c.bin
    """
    paths = list(paths) if not isinstance(paths, (str, bytes, bytearray, os.PathLike)) else _paths(paths)
    shown = [os.fsdecode(os.fspath(p)) for p in paths]  # as the caller named them
    paths = _paths(paths)
    tags = _byte_list(tags, "tags")
    client = _client(client)
    n = _name(name)
    key = bytes(key)
    hk = unimac.hash_key(n.spec, key)
    if len(tags) != len(paths):
        raise ValueError(f"{len(paths)} paths but {len(tags)} tags")
    if n.nonce_size:
        if nonces is None or len(_byte_list(nonces, "nonces")) != len(paths):
            raise ValueError(f"{name}: one nonce per file is required")
        nonces = [_check_nonce(n, name, x) for x in _byte_list(nonces, "nonces")]
    elif nonces is not None:
        raise ValueError(f"{name}: this MAC takes no nonce")
    partials = _file_partials(paths, n, hk, client)
    bad = []
    for i, p in enumerate(partials):
        t = _finish(n, key, p, nonces[i] if nonces else None)
        if not unimac.compare_digest(t, tags[i]):
            bad.append(shown[i])
    if bad:
        shown = ", ".join(bad[:5]) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
        raise unimac.InvalidTag(f"tag mismatch: {shown}")


# ---------------------------------------------------------------------------
# One large file
# ---------------------------------------------------------------------------


def _read_bytes_ranges(size: int, blocksize: int):
    """The ``(offset, length)`` of each block :func:`dask.bytes.read_bytes`
    makes of a file of ``size`` bytes (its rule: equal blocks of about
    ``blocksize``, so the offsets need not be multiples of ``blocksize``)."""
    if size == 0:
        return []
    bs1 = size / (size // blocksize) if (size % blocksize and size > blocksize) else blocksize
    place, off, length = 0, [0], []
    while size - place > (bs1 * 2) - 1:
        place += bs1
        off.append(int(place))
        length.append(off[-1] - off[-2])
    length.append(size - off[-1])
    return list(zip(off, length))


def large_tasks(urlpath: str, name: str, hash_key: bytes, *, blocksize: Union[int, str] = "128 MiB", **storage_options):
    """The Dask graph :func:`tag_large` computes: ``(delayed, ranges, size,
    granularity)``, ``delayed[i]`` giving ``(head, partial, tail)`` of the
    byte range ``ranges[i]`` (the ranges :func:`dask.bytes.read_bytes` would
    make), which its task reads in buffers and hashes as it reads (a local
    file: :data:`BLOCK_READ_BYTES` at a time with ``pread``; another
    filesystem: :data:`REMOTE_READ_BYTES`), never holding the whole block. Takes the hash key only (``unimac.hash_key``),
    which goes into every task (it prints as ``<unimac hash key>``) and
    suffices to forge once a tag is seen: whoever runs or reads the tasks is
    trusted as much as the whole key. The task names are
    ``unimac-block-RUN-OFFSET``, ``RUN`` random for each call. A local path
    is made absolute here, on the client.

    >>> import dask, unimac, unimac.dask
    >>> with open("big.bin", "wb") as f: _ = f.write(bytes(10_000))
    >>> hk = unimac.hash_key("hash127-aes", bytes(32))
    >>> tasks, ranges, size, gran = unimac.dask.large_tasks("big.bin", "hash127-aes", hk, blocksize=4096)
    >>> ranges, size, gran
    ([(0, 5000), (5000, 5000)], 10000, 4)
    >>> head, partial, tail = dask.compute(*tasks, scheduler="sync")[1]
    >>> unimac.partial_info(partial)["offset"]
    5000
    """
    urlpath = _url(urlpath)
    n = _name(name)
    gran = unimac.granularity(n.spec)
    bs = _round_blocksize(blocksize, gran)
    fs, _, paths = get_fs_token_paths(urlpath, mode="rb", storage_options=storage_options)
    if len(paths) != 1:
        raise ValueError(f"{urlpath}: {len(paths)} files match; tag_large takes one file")
    path = paths[0]
    size = fs.info(path)["size"]
    ranges = _read_bytes_ranges(size, bs)
    hk = _HashKey(hash_key)
    run = _run_id()  # task names: no function of the key, unique per call
    if isinstance(fs, LocalFileSystem):
        task = dask.delayed(_block_local, pure=True)
        out = [
            task(n.spec, hk, path, o, l, size, dask_key_name=f"unimac-block-{run}-{o}") for o, l in ranges
        ]
    else:
        task = dask.delayed(_block_fsspec, pure=True)
        out = [
            task(fs, path, n.spec, hk, o, l, size, gran, dask_key_name=f"unimac-block-{run}-{o}") for o, l in ranges
        ]
    return out, ranges, size, gran


def _combine_blocks(spec: str, hk: bytes, results, ranges, size: int, gran: int) -> bytes:
    """The partial of the whole file from the blocks' ``(head, partial,
    tail)``, in order; each unaligned boundary (the tail of one block and
    the head of the next: one granule) is hashed here."""
    if size == 0:
        return unimac.partial_hash(spec, hk, 0, b"", last=True)
    acc = None

    def add(p):
        nonlocal acc
        acc = p if acc is None else unimac.partial_combine(acc, p)

    for i, (head, partial, tail) in enumerate(results):
        if head:
            glue = results[i - 1][2] + head
            off = ranges[i][0] - len(results[i - 1][2])
            add(unimac.partial_hash(spec, hk, off, glue, last=False))
        elif i > 0 and results[i - 1][2]:
            raise RuntimeError("a block ends unaligned but the next starts aligned")
        if partial is not None:
            add(partial)
    info = unimac.partial_info(acc)
    if not info["whole"] or info["length"] != size:
        raise RuntimeError(f"the partials cover {info['length']} bytes of {size}")
    return acc


def _large_partial(urlpath, n: _Name, hk: bytes, blocksize, client, storage_options) -> bytes:
    tasks, ranges, size, gran = large_tasks(urlpath, n.spec, hk, blocksize=blocksize, **storage_options)
    futures = client.compute(tasks)
    try:
        results = client.gather(futures)
    finally:
        for f in futures:
            f.release()
    return _combine_blocks(n.spec, hk, results, ranges, size, gran)


def tag_large(
    urlpath: Union[str, os.PathLike],
    name: str,
    key: bytes,
    *,
    counter: Optional["unimac.Counter"] = None,
    nonce: Optional[bytes] = None,
    caller_manages_nonces: bool = False,
    blocksize: Union[int, str] = "128 MiB",
    client: Optional["distributed.Client"] = None,
    **storage_options: Any,
) -> Tag:
    """The tag of one (large) file, a local path (made absolute on the
    client) or any fsspec URL (``storage_options`` go to fsspec), hashed in
    byte ranges of about ``blocksize`` (rounded up to a multiple of
    :func:`unimac.granularity`) by the workers under the hash key; the
    partials are combined and the MAC finished on the client. Equal to
    ``unimac.Mac(name, key).tag_file(path, nonce)`` (a raw hash name:
    ``unimac.compute`` of the contents). One-time MACs
    (``unimac.info(name)["one_time"]``) raise ``ValueError``: use
    :class:`unimac.OneTimeKey`.

    A MAC with a nonce takes it from ``counter`` (a :class:`unimac.Counter`
    bound to the MAC and key, drawn on the client after the hashing), as
    :func:`tag_files` does. Returns a :class:`Tag`: the tag as ``bytes``,
    its nonce in ``.nonce``. A nonce given by the caller (``nonce=``, for
    interoperation) is taken only with ``caller_manages_nonces=True``, the
    caller saying that it keeps its nonces from ever repeating under this
    key (the CLI's ``--nonce`` and ``--caller-manages-nonces``): a nonce
    used for two messages gives the tags away. Without it ``nonce=``
    raises ``ValueError``.

    The tag is of the partials the workers returned, whatever they read,
    and the hash key they hold lets them forge once they see a tag: the
    cluster is trusted as much as ``key`` (module docstring).

    >>> import unimac, unimac.dask
    >>> with open("big.bin", "wb") as f: _ = f.write(bytes(range(256)) * 1000)
    >>> key = unimac.keygen("wc-mmh32x4")
    >>> ctr = unimac.Counter.create("big.ctr", "wc-mmh32x4", key)
    >>> t = unimac.dask.tag_large("big.bin", "wc-mmh32x4", key, counter=ctr, blocksize="64 KiB", client=client)
    >>> t.nonce == bytes(16), t == unimac.Mac("wc-mmh32x4", key).tag_file("big.bin", nonce=t.nonce, caller_manages_nonces=True)
    (True, True)
    >>> unimac.dask.tag_large("big.bin", "wc-mmh32x4", key, nonce=bytes(16), client=client)
    Traceback (most recent call last):
    ...
    ValueError: wc-mmh32x4: tag_large(nonce=...) needs caller_manages_nonces=True: the caller keeps its nonces from ever repeating under this key (unimac cannot know whether one was used before; counter=unimac.Counter(...) gives nonces that never repeat)
    """
    # The library's rule and message (as the CLI's --nonce and every door of
    # unimac that tags).
    _unimac._caller_nonce(name, "tag_large", nonce, caller_manages_nonces)
    if caller_manages_nonces and nonce is None:
        raise ValueError(f"{name}: caller_manages_nonces=True goes with nonce=")
    urlpath = _url(urlpath)
    client = _client(client)
    return _tag_large(urlpath, name, key, counter, nonce, blocksize, client, storage_options)


def _tag_large(urlpath: str, name, key, counter, nonce, blocksize, client, storage_options) -> Tag:
    n = _name(name)
    key = bytes(key)
    hk = unimac.hash_key(n.spec, key)
    if counter is not None and nonce is not None:
        raise ValueError(f"{name}: give counter= or nonce=, not both")
    if counter is not None:
        if not n.nonce_size:
            raise ValueError(f"{name}: this MAC takes no nonce (no counter)")
        # Bound to this MAC and key: another key's counter is refused now.
        counter = unimac.Counter(counter.path, name, key)
    elif n.mac and n.nonce_size and nonce is None:
        raise ValueError(f"{name}: a nonce MAC: pass counter=unimac.Counter(...)")
    else:
        nonce = _check_nonce(n, name, nonce) if n.mac else None
    p = _large_partial(urlpath, n, hk, blocksize, client, storage_options)
    if counter is not None:
        nonce = counter.next()
    return Tag(_finish(n, key, p, nonce), nonce)


def verify_large(
    urlpath: Union[str, os.PathLike],
    name: str,
    key: bytes,
    tag: bytes,
    *,
    nonce: Optional[bytes] = None,
    blocksize: Union[int, str] = "128 MiB",
    client: Optional["distributed.Client"] = None,
    **storage_options: Any,
) -> None:
    """Check the tag of one large file as :func:`tag_large` computes it;
    raise :class:`unimac.InvalidTag` if it is wrong.

    ``nonce``: the nonce the tag was made under (a :class:`Tag`'s
    ``.nonce``).

    The check is of the partials the workers returned: a worker can make
    any file pass. The cluster is trusted as much as ``key`` (module
    docstring).

    >>> import unimac, unimac.dask
    >>> with open("big.bin", "wb") as f: _ = f.write(bytes(100_000))
    >>> key = unimac.keygen("hash127-aes")
    >>> t = unimac.dask.tag_large("big.bin", "hash127-aes", key, client=client)
    >>> unimac.dask.verify_large("big.bin", "hash127-aes", key, t, client=client)
    >>> unimac.dask.verify_large("big.bin", "hash127-aes", key, bytes(16), client=client)
    Traceback (most recent call last):
    ...
    unimac.InvalidTag: tag mismatch: big.bin
    """
    shown = os.fsdecode(os.fspath(urlpath))
    urlpath = _url(urlpath)
    client = _client(client)
    n = _name(name)
    if n.mac and n.nonce_size and nonce is None:
        raise ValueError(f"{name}: a nonce is required (the nonce the tag was made under)")
    t = _tag_large(urlpath, name, key, None, nonce, blocksize, client, storage_options)
    if not unimac.compare_digest(t, tag):
        raise unimac.InvalidTag(f"tag mismatch: {shown}")
