"""Tags of many files, or of one huge file, computed over a Dask cluster.

Built on Dask's ``distributed`` scheduler (``pip install 'unimac[dask]'``):
the workers compute partial hashes (:func:`unimac.partial_hash`) under the
**hash key only** (:func:`unimac.hash_key`); the client combines them and
finishes the MAC (:func:`unimac.finish_mac`) with the cipher key, which never
leaves it: it is in no task, no argument and no result sent to the
scheduler or the workers.

* :func:`tag_files` / :func:`verify_files`: one tag per file, each file hashed
  whole by one worker. MACs with a nonce take their nonces from a
  :class:`unimac.Counter` on the client; they are returned with the tags.
* :func:`tag_large` / :func:`verify_large`: one tag of one huge file (a local
  path or any fsspec URL, e.g. ``s3://bucket/big.bin``), split into byte
  ranges by :func:`dask.bytes.read_bytes`, each range hashed by a worker,
  the partials combined on the client in order.

A lost worker is no problem: Dask reruns its tasks elsewhere and the tag is
the same bit for bit. Errors (a bad key, a missing file) are raised on the
client as ``ValueError`` / ``FileNotFoundError``; a tag that does not verify
raises :class:`unimac.InvalidTag`.

**Security.** A partial reveals the hash key (``r`` of hash127, ``g`` of
``wc-eval64``...) to anyone who sees it, and with the hash key come
forgeries. The hash key itself travels to the workers inside the tasks.
Run the cluster with TLS between client, scheduler and workers
(:class:`distributed.security.Security`), on machines you trust::

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
import uuid
from typing import Any, List, NamedTuple, Optional, Sequence, Union

import unimac

try:
    import dask
    import distributed
    from dask.bytes import read_bytes
    from dask.utils import parse_bytes
    from fsspec.core import get_fs_token_paths
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "unimac.dask needs Dask's distributed scheduler: pip install 'unimac[dask]' "
        "(or 'dask[distributed]')"
    ) from e

__all__ = ["Tags", "tag_files", "verify_files", "tag_large", "verify_large"]

#: Bytes read at a time when a worker hashes a whole file.
FILE_READ_BYTES = 16 << 20


class Tags(NamedTuple):
    """What :func:`tag_files` returns: ``tags[i]`` of ``paths[i]``, under
    ``nonces[i]`` (``nonces`` is ``None`` for the MACs without a nonce)."""

    tags: List[bytes]
    nonces: Optional[List[bytes]]


class _Name(NamedTuple):
    spec: str  # the name of the partial API (mac-... for MACs)
    mac: bool
    nonce_size: int
    nonce_sizes: tuple
    one_time: bool


def _name(name: str) -> _Name:
    i = unimac.info(name)  # ValueError for an unknown name
    spec = i["spec_name"]
    unimac.granularity(spec)  # ValueError for a name without partial hashes
    return _Name(spec, i["mac"], i["nonce_size"], tuple(i["nonce_sizes"]), i["one_time"])


def _client(client):
    return client if client is not None else distributed.get_client()


def _check_nonce(n: _Name, name: str, nonce) -> Optional[bytes]:
    if n.nonce_size == 0:
        if nonce is not None:
            raise ValueError(f"{name}: this MAC takes no nonce")
        return None
    if nonce is None:
        raise ValueError(f"{name}: a nonce is required")
    nonce = bytes(nonce)
    lo, hi = n.nonce_sizes
    if not lo <= len(nonce) <= hi:
        raise ValueError(f"{name}: nonce must be {n.nonce_size} bytes, got {len(nonce)}")
    return nonce


def _finish(n: _Name, key: bytes, partial: bytes, nonce: Optional[bytes]) -> bytes:
    if n.mac:
        return unimac.finish_mac(n.spec, key, partial, nonce=nonce)
    return unimac.finish_hash(n.spec, key, partial)


def _round_blocksize(blocksize: Union[int, str], gran: int) -> int:
    bs = parse_bytes(blocksize) if isinstance(blocksize, str) else int(blocksize)
    if bs <= 0:
        raise ValueError(f"blocksize must be positive, got {blocksize!r}")
    return max(gran, -(-bs // gran) * gran)


# ---------------------------------------------------------------------------
# Tasks run on the workers: they get the hash key, never the full key.
# ---------------------------------------------------------------------------


def _file_partial(spec: str, hk: bytes, path: str) -> bytes:
    """The partial of the whole file at ``path`` (read in pieces)."""
    step = max(1, FILE_READ_BYTES // unimac.granularity(spec)) * unimac.granularity(spec)
    acc = None
    offset = 0
    with open(path, "rb") as f:
        cur = f.read(step)
        while True:
            nxt = f.read(step) if len(cur) == step else b""
            p = unimac.partial_hash(spec, hk, offset, cur, last=not nxt)
            acc = p if acc is None else unimac.partial_combine(acc, p)
            if not nxt:
                return acc
            offset += len(cur)
            cur = nxt


def _block_partial(block: bytes, spec: str, hk: bytes, offset: int, length: int, size: int, gran: int):
    """One byte range of a large file: ``(head, partial, tail)``.

    ``partial`` covers the aligned middle ``[a, e)`` of ``[offset, offset +
    length)`` (``None`` if empty); ``head`` = bytes ``[offset, a)`` and
    ``tail`` = ``[e, offset + length)`` are the unaligned edges, at most
    ``gran - 1`` bytes each, hashed on the client with the neighbour's edge.
    """
    if len(block) != length:
        raise RuntimeError(
            f"dask.bytes.read_bytes gave {len(block)} bytes at offset {offset}, "
            f"{length} expected (the file changed while it was read?)"
        )
    end = offset + length
    last = end == size
    a = -(-offset // gran) * gran
    e = end if last else end // gran * gran
    head, mid, tail = block[: a - offset], block[a - offset : e - offset], block[e - offset :]
    partial = unimac.partial_hash(spec, hk, a, mid, last=last) if (mid or last) else None
    return head, partial, tail


# ---------------------------------------------------------------------------
# Many files
# ---------------------------------------------------------------------------


def _file_partials(paths: Sequence[Union[str, os.PathLike]], n: _Name, hk: bytes, client) -> List[bytes]:
    paths = [os.fspath(p) for p in paths]
    if not paths:
        return []
    tag = uuid.uuid4().hex
    futures = client.map(
        _file_partial,
        [n.spec] * len(paths),
        [hk] * len(paths),
        paths,
        key=[f"unimac-file-{tag}-{i}" for i in range(len(paths))],
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
    ``distributed.Client`` (default: the current one).
    """
    n = _name(name)
    key = bytes(key)
    hk = unimac.hash_key(n.spec, key)  # checks the key
    if n.nonce_size and counter is None:
        raise ValueError(f"{name}: a nonce MAC: pass counter=unimac.Counter(...)")
    if not n.nonce_size and counter is not None:
        raise ValueError(f"{name}: this MAC takes no nonce (no counter)")
    if n.one_time and len(paths) > 1:
        raise ValueError(f"{name}: a one-time key authenticates one message, not {len(paths)}")
    partials = _file_partials(paths, n, hk, _client(client))
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
    raise :class:`unimac.InvalidTag` naming the files whose tag is wrong."""
    n = _name(name)
    key = bytes(key)
    hk = unimac.hash_key(n.spec, key)
    if len(tags) != len(paths):
        raise ValueError(f"{len(paths)} paths but {len(tags)} tags")
    if n.nonce_size:
        if nonces is None or len(nonces) != len(paths):
            raise ValueError(f"{name}: one nonce per file is required")
        nonces = [_check_nonce(n, name, x) for x in nonces]
    elif nonces is not None:
        raise ValueError(f"{name}: this MAC takes no nonce")
    partials = _file_partials(paths, n, hk, _client(client))
    bad = []
    for i, p in enumerate(partials):
        t = _finish(n, key, p, nonces[i] if nonces else None)
        if not unimac.compare_digest(t, tags[i]):
            bad.append(os.fspath(paths[i]))
    if bad:
        shown = ", ".join(bad[:5]) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
        raise unimac.InvalidTag(f"tag mismatch: {shown}")


# ---------------------------------------------------------------------------
# One large file
# ---------------------------------------------------------------------------


def _read_bytes_ranges(size: int, blocksize: int):
    """The ``(offset, length)`` of each block :func:`dask.bytes.read_bytes`
    makes of a file of ``size`` bytes (its rule: equal blocks of about
    ``blocksize``, so the offsets need not be multiples of ``blocksize``).
    Each task checks that its block has the length given here."""
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
    byte range ``ranges[i]``. Takes the hash key only (``unimac.hash_key``).
    """
    n = _name(name)
    gran = unimac.granularity(n.spec)
    bs = _round_blocksize(blocksize, gran)
    fs, _, paths = get_fs_token_paths(urlpath, mode="rb", storage_options=storage_options)
    if len(paths) != 1:
        raise ValueError(f"{urlpath}: {len(paths)} files match; tag_large takes one file")
    _, blocks = read_bytes(urlpath, delimiter=None, blocksize=bs, sample=False, **storage_options)
    size = fs.info(paths[0])["size"]
    ranges = _read_bytes_ranges(size, bs)
    if len(blocks[0]) != len(ranges):
        raise RuntimeError(f"dask.bytes.read_bytes made {len(blocks[0])} blocks, {len(ranges)} expected")
    hk = bytes(hash_key)
    task = dask.delayed(_block_partial, pure=True)
    out = [
        task(b, n.spec, hk, o, l, size, gran, dask_key_name=f"unimac-block-{o}-{dask.base.tokenize(b.key, n.spec, hk, size)}")
        for b, (o, l) in zip(blocks[0], ranges)
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
    client = _client(client)
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
    nonce: Optional[bytes] = None,
    blocksize: Union[int, str] = "128 MiB",
    client: Optional["distributed.Client"] = None,
    **storage_options: Any,
) -> bytes:
    """The tag of one (large) file, a local path or any fsspec URL
    (``storage_options`` go to fsspec), hashed in byte ranges of about
    ``blocksize`` (rounded up to a multiple of :func:`unimac.granularity`)
    by the workers under the hash key; the partials are combined and the
    MAC finished on the client. Equal to ``unimac.Mac(name, key).tag_file(
    path, nonce)`` (a raw hash name: ``unimac.compute`` of the contents).
    """
    n = _name(name)
    key = bytes(key)
    hk = unimac.hash_key(n.spec, key)
    nonce = _check_nonce(n, name, nonce) if n.mac else None
    p = _large_partial(os.fspath(urlpath), n, hk, blocksize, client, storage_options)
    return _finish(n, key, p, nonce)


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
    raise :class:`unimac.InvalidTag` if it is wrong."""
    t = tag_large(urlpath, name, key, nonce=nonce, blocksize=blocksize, client=client, **storage_options)
    if not unimac.compare_digest(t, tag):
        raise unimac.InvalidTag(f"tag mismatch: {os.fspath(urlpath)}")
