"""Authenticated streams: Bernstein's untrusted channel as file objects.

:func:`open` wraps a binary file (or a path) so that what is written is
sent as an authenticated stream (``unimac stream`` writes the same format,
docs/WIRE.md §10), and what is read back is released one chunk at a time,
each only once its tag verifies. At the first bad, missing, repeated,
reordered or foreign chunk, or a stream cut short, reading raises
:class:`StreamError` (a ``ValueError``) naming the chunk; no unverified byte
is ever returned. The file objects work with ``shutil.copyfileobj``,
``tarfile`` (stream modes ``"w|"``/``"r|"``) and ``gzip``.

**A stream authenticates; it does not encrypt.** The payload is in the
stream as it was written: a tar file streamed is readable by anyone who
has the stream. For secrecy, encrypt first and stream the ciphertext
(``tar c DIR | age -r RECIPIENT | unimac stream -k K > backup.ums``, back
with ``unimac stream --verify --hold -k K backup.ums | age -d -i ID | tar
x``): the stream then refuses a changed or cut backup before the
decryption reads a byte of it.

**tarfile needs a stream mode.** A stream can be read once, front to
back, and not seeked: ``tarfile.open(fileobj=f, mode="r")`` fails on its
first seek (``io.UnsupportedOperation``); open it with ``mode="r|"`` (and
write with ``"w|"``):

>>> import io, tarfile, unimac, unimac.stream
>>> key = ("hash127-aes", bytes(range(32)))
>>> info = tarfile.TarInfo("hello.txt"); info.size = 6
>>> wire = io.BytesIO()
>>> with unimac.stream.open(wire, "wb", key=key) as f:
...     with tarfile.open(fileobj=f, mode="w|") as tar:
...         tar.addfile(info, io.BytesIO(b"hello\\n"))
>>> with unimac.stream.open(io.BytesIO(wire.getvalue()), "rb", key=key) as f:
...     with tarfile.open(fileobj=f, mode="r|") as tar:
...         [(m.name, tar.extractfile(m).read()) for m in tar]
[('hello.txt', b'hello\\n')]

>>> import io, unimac, unimac.stream
>>> key = ("hash127-aes", unimac.keygen("hash127-aes"))
>>> wire = io.BytesIO()
>>> with unimac.stream.open(wire, "wb", key=key) as f:
...     _ = f.write(b"attack at dawn")
>>> with unimac.stream.open(io.BytesIO(wire.getvalue()), "rb", key=key) as f:
...     f.read()
b'attack at dawn'
>>> cut = io.BytesIO(wire.getvalue()[:-1])
>>> unimac.stream.open(cut, "rb", key=key).read()
Traceback (most recent call last):
...
unimac.StreamError: the stream ended inside chunk 0 (payload byte offset 0), without its final chunk (cut short)
"""

from __future__ import annotations

import builtins
import io
import os
from typing import Optional, Tuple, Union

from . import _unimac

__all__ = ["DEFAULT_CHUNK", "StreamError", "StreamReader", "StreamWriter", "open"]

StreamError = _unimac.StreamError
DEFAULT_CHUNK: int = _unimac._STREAM_DEFAULT_CHUNK

_Key = Union[str, "os.PathLike[str]", Tuple[str, bytes]]


def _key_args(key: _Key):
    if isinstance(key, tuple):
        return None, key[0], bytes(key[1])
    return os.fspath(key), None, None


class StreamWriter(io.BufferedIOBase):
    """A writable binary file: what is written goes to ``raw`` as an
    authenticated stream in chunks of ``chunk_size`` bytes. ``close()`` sends
    the final chunk (a stream never closed is reported as cut short by the
    receiver) and closes ``raw`` if this object opened it.

    >>> import io, unimac, unimac.stream
    >>> raw = io.BytesIO()
    >>> w = unimac.stream.StreamWriter(raw, ("hash127-aes", bytes(32)))
    >>> w.write(b"x"), w.close(), raw.getvalue()[:8]
    (1, None, b'UNIMAC-S')
    """

    def __init__(self, raw, key: _Key, chunk_size: int = DEFAULT_CHUNK, *, allow_weak: bool = False, _owns: bool = False):
        super().__init__()
        self._raw = raw
        self._owns = _owns
        self._s = _unimac._StreamSender(*_key_args(key), chunk_size, allow_weak)

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        if self.closed:
            raise ValueError("write to a closed stream")
        n = memoryview(b).nbytes
        out = self._s.push(b)
        if out:
            self._raw.write(out)
        return n

    def flush(self) -> None:
        if not self.closed and hasattr(self._raw, "flush"):
            self._raw.flush()

    def close(self) -> None:
        if self.closed:
            return
        try:
            self._raw.write(self._s.finish())
            super().close()  # flushes `raw` (self.flush) while it is open
        finally:
            if self._owns:
                self._raw.close()

    def __repr__(self) -> str:
        return "<unimac.stream.StreamWriter>"


class StreamReader(io.BufferedIOBase):
    """A readable binary file over an authenticated stream read from
    ``raw``: it returns only payload whose chunk verified, and raises
    :class:`StreamError` at the first chunk that does not, or at the end of
    a stream cut short (before returning end-of-file).

    >>> import io, unimac, unimac.stream
    >>> raw = io.BytesIO(b"not a stream")
    >>> unimac.stream.StreamReader(raw, ("hash127-aes", bytes(32))).read()
    Traceback (most recent call last):
    ...
    unimac.StreamError: not a unimac stream (no 'UNIMAC-S' header)
    """

    def __init__(self, raw, key: _Key, *, allow_weak: bool = False, _owns: bool = False):
        super().__init__()
        self._raw = raw
        self._owns = _owns
        self._r = _unimac._StreamReceiver(*_key_args(key), allow_weak)
        self._buf = bytearray()
        self._eof = False

    def readable(self) -> bool:
        return True

    @property
    def stream_id(self) -> Optional[str]:
        """The stream's id (hex), once its first chunk verified (its tag
        covers the header); ``None`` before."""
        return self._r.stream_id

    def _fill(self) -> bool:
        """Read on until some verified payload is buffered; False at the
        verified end of the stream."""
        while not self._buf:
            if self._eof:
                return False
            data = self._raw.read(1 << 20)
            if not data:
                self._eof = True
                self._r.finish()
                return False
            self._buf += self._r.feed(data)
        return True

    def read(self, size: Optional[int] = -1) -> bytes:
        if self.closed:
            raise ValueError("read of a closed stream")
        if size is None or size < 0:
            parts = []
            while self._fill():
                parts.append(bytes(self._buf))
                self._buf.clear()
            return b"".join(parts)
        if size == 0 or not self._fill():
            return b""
        out = bytes(self._buf[:size])
        del self._buf[:size]
        return out

    def read1(self, size: int = -1) -> bytes:
        if not self._fill():
            return b""
        if size is None or size < 0:
            size = len(self._buf)
        out = bytes(self._buf[:size])
        del self._buf[:size]
        return out

    def readinto(self, b) -> int:
        data = self.read(len(memoryview(b)))
        memoryview(b)[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if self.closed:
            return
        super().close()
        if self._owns:
            self._raw.close()

    def __repr__(self) -> str:
        return "<unimac.stream.StreamReader>"


def open(file, mode: str = "rb", *, key: _Key, chunk_size: int = DEFAULT_CHUNK, allow_weak: bool = False):
    """An authenticated stream over ``file`` (a path, opened here and closed
    with the stream, or a binary file object): mode ``"wb"`` gives a
    :class:`StreamWriter`, ``"rb"`` a :class:`StreamReader`. ``key``: a key
    file's path or ``(name, key)``; a one-time MAC is refused, and a MAC
    weak for this use (as ``unimac stream`` says) unless ``allow_weak``. A
    reader refuses another key's or MAC's stream before returning any byte.

    >>> import os, tempfile, unimac, unimac.stream
    >>> path = os.path.join(tempfile.mkdtemp(), "backup.uma")
    >>> key = ("umac128", unimac.keygen("umac128"))
    >>> with unimac.stream.open(path, "wb", key=key, chunk_size=4096) as f:
    ...     _ = f.write(bytes(10_000))
    >>> with unimac.stream.open(path, "rb", key=key) as f:
    ...     len(f.read())
    10000
    """
    if mode not in ("rb", "wb"):
        raise ValueError(f"mode must be 'rb' or 'wb', not {mode!r}")
    owns = isinstance(file, (str, bytes, os.PathLike))
    raw = builtins.open(file, mode) if owns else file
    try:
        if mode == "wb":
            return StreamWriter(raw, key, chunk_size, allow_weak=allow_weak, _owns=owns)
        return StreamReader(raw, key, allow_weak=allow_weak, _owns=owns)
    except BaseException:
        if owns:
            raw.close()
        raise
