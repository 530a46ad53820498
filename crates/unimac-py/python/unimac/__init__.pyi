"""Type stubs of unimac (the extension module unimac._unimac)."""

import os
import pathlib
import sys
import enum
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union, final, overload

# PEP 688: any object with a buffer (bytes, bytearray, memoryview, numpy
# arrays, mmap). typing_extensions is needed by type checkers only (they
# bundle it); nothing imports it at run time.
if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

_ReadableBuffer = Buffer

_StrPath = Union[str, "os.PathLike[str]"]
_BytesOrStrPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

__all__ = [
    "GIL_RELEASE_BYTES",
    "Bound",
    "CheckLine",
    "CheckResult",
    "Counter",
    "InvalidTag",
    "StreamError",
    "KeyFile",
    "Mac",
    "ManifestFile",
    "ManifestStatus",
    "ManifestResult",
    "OneTimeKey",
    "SecretPrime",
    "UnimacHash",
    "bound",
    "compare_digest",
    "compute",
    "finish_hash",
    "finish_mac",
    "format_check_line",
    "granularity",
    "hash_key",
    "info",
    "keygen",
    "known_answer",
    "load_key",
    "mac_names",
    "max_threads",
    "names",
    "new",
    "partial_combine",
    "partial_hash",
    "partial_info",
    "partial_names",
    "parse_check_line",
    "save_key",
    "seal",
    "set_max_threads",
    "tag",
    "verify",
    "verify_check_file",
    "verify_manifest",
]

__version__: str
GIL_RELEASE_BYTES: int

class StreamError(ValueError):
    """An authenticated stream that does not verify (``unimac.stream``)."""

class InvalidTag(ValueError):
    """A tag did not verify (wrong value or wrong length)."""

@final
class UnimacHash:
    """A MAC or hash computation under way (made by :func:`new`)."""

    @property
    def name(self) -> str: ...
    @property
    def digest_size(self) -> int: ...
    @property
    def key_size(self) -> int: ...
    @property
    def nonce_size(self) -> int: ...
    @property
    def block_size(self) -> int: ...
    def update(self, data: _ReadableBuffer) -> None:
        """Absorb more of the message. After :meth:`digest` a stateless MAC
        or a hash goes on (as hashlib); a nonce MAC (and ``shoup4-*``)
        raises ``ValueError``: a second tag under one nonce."""
    def digest(self) -> bytes:
        """The tag of the data so far; the same again on a second call."""
    def hexdigest(self) -> str:
        """The tag in lowercase hex; the same again on a second call."""
    def verify(self, tag: _ReadableBuffer) -> None: ...
    def copy(self) -> "UnimacHash": ...

@overload
def new(
    name: str,
    key: _ReadableBuffer,
    data: Optional[_ReadableBuffer] = None,
    *,
    nonce: Optional[_ReadableBuffer] = None,
    caller_manages_nonces: bool = False,
) -> UnimacHash:
    """A streaming object of the MAC or hash ``name`` (like ``hmac.new``;
    names in any case): ``data`` is hashed at once; ``nonce`` is
    keyword-only, and taken only with ``caller_manages_nonces=True`` (the
    caller keeps it from ever repeating under the key). ``digest()`` and ``hexdigest()`` may be repeated;
    ``update()`` after them goes on for stateless MACs and hashes (as
    hashlib) and raises ``ValueError`` for nonce MACs.

    >>> h = new("hash127-aes", bytes(32), b"m"); len(h.digest())
    16
    """
@overload
def new(
    key: _ReadableBuffer,
    msg: Optional[_ReadableBuffer] = None,
    *,
    digestmod: str,
    nonce: Optional[_ReadableBuffer] = None,
    caller_manages_nonces: bool = False,
) -> UnimacHash:
    """hmac's order, ``digestmod`` by keyword: ``new(key, msg, digestmod=NAME)``."""
@overload
def new(
    key: _ReadableBuffer,
    msg: Optional[_ReadableBuffer],
    digestmod: str,
    *,
    nonce: Optional[_ReadableBuffer] = None,
    caller_manages_nonces: bool = False,
) -> UnimacHash:
    """hmac's order, ``digestmod`` third: ``new(key, msg, NAME)``.

    >>> new(bytes(32), b"m", "hash127-aes").name
    'hash127-aes'
    """

@final
class Mac:
    """A MAC under one key, set up once.

    >>> m = Mac("hash127-aes", keygen("hash127-aes"))
    >>> m.verify(b"m", m.tag(b"m"))
    """

    def __new__(cls, name: str, key: _ReadableBuffer) -> "Mac": ...
    @property
    def name(self) -> str: ...
    @property
    def digest_size(self) -> int: ...
    @property
    def nonce_size(self) -> int: ...
    @property
    def key_size(self) -> int: ...
    def tag(
        self, data: _ReadableBuffer, nonce: Optional[_ReadableBuffer] = None, *, caller_manages_nonces: bool = False
    ) -> bytes:
        """The tag of ``data``; a nonce given by the caller only with
        ``caller_manages_nonces=True``."""
    def verify(self, data: _ReadableBuffer, tag: _ReadableBuffer, nonce: Optional[_ReadableBuffer] = None) -> None: ...
    def tag_file(
        self, path: _StrPath, nonce: Optional[_ReadableBuffer] = None, *, caller_manages_nonces: bool = False
    ) -> bytes:
        """The tag of a file; the ``OSError`` subclass of ``open``
        (``FileNotFoundError``...) with ``errno`` and ``filename`` if it cannot be read."""

def tag(
    name: str,
    key: _ReadableBuffer,
    data: _ReadableBuffer,
    nonce: Optional[_ReadableBuffer] = None,
    *,
    caller_manages_nonces: bool = False,
) -> bytes:
    """One-shot tag.

    >>> len(tag("hash127-aes", bytes(32), b"m"))
    16
    """

def verify(
    name: str, key: _ReadableBuffer, data: _ReadableBuffer, tag: _ReadableBuffer, nonce: Optional[_ReadableBuffer] = None
) -> None:
    """One-shot verification; raises :class:`InvalidTag`.

    >>> verify("hash127-aes", bytes(32), b"m", tag("hash127-aes", bytes(32), b"m"))
    """

def compute(
    name: str,
    key: _ReadableBuffer,
    data: _ReadableBuffer,
    nonce: Optional[_ReadableBuffer] = None,
    length: Optional[int] = None,
    *,
    caller_manages_nonces: bool = False,
) -> bytes:
    """Any name of the wire format (docs/WIRE.md), as ``unimac compute``.

    >>> compute("keystream", bytes(16), b"", length=4).hex()
    '66e94bd4'
    """

def compare_digest(a: _ReadableBuffer, b: _ReadableBuffer) -> bool:
    """Constant-time comparison.

    >>> compare_digest(b"a", b"a")
    True
    """

def names() -> List[str]:
    """Every name of the wire format (docs/WIRE.md) in this build.

    >>> "eval64" in names()
    True
    """

def mac_names() -> List[str]:
    """The MAC names, without ``mac-``.

    >>> "umac64" in mac_names()
    True
    """

def info(name: str) -> Dict[str, Any]:
    """Sizes and kind of a name.

    >>> info("wc-mmh32x4")["nonce_size"]
    16
    """

def keygen(name: str) -> bytes:
    """A fresh random key of the right size.

    >>> len(keygen("hash127-aes"))
    32
    """

@final
class Bound:
    """A forgery bound (see :func:`bound`)."""

    name: str
    log2: float
    value: float
    proven: bool
    theorem: str
    theorem_log2: float
    terms: List[Dict[str, Any]]
    not_included: List[str]
    params: List[Tuple[str, str]]
    notes: List[str]
    text: str
    def __float__(self) -> float: ...

def bound(
    name: str,
    max_bytes: Union[int, str],
    tags: Union[int, str] = 1,
    forgeries: Union[int, str] = 1,
    random_nonces: bool = False,
) -> Bound:
    """The forgery bound of a MAC; counts as ints or as ``unimac bound``
    takes them (``"1MiB"``, ``"1.5MiB"``, ``"2^20"``, ``"1e6"``).

    >>> bound("hash127-aes", 1 << 20, tags=1 << 20).proven
    True
    """

@final
class Counter:
    """The crash-safe nonce counter file of ``unimac keygen --counter``,
    bound to one MAC and one key (another key's counter is refused).

    >>> import tempfile, os
    >>> key = keygen("wc-eval128")
    >>> c = Counter.create(os.path.join(tempfile.mkdtemp(), "n.ctr"), "wc-eval128", key)
    >>> c.next() == bytes(16)
    True
    """

    def __new__(cls, path: _StrPath, name: str, key: _ReadableBuffer) -> "Counter":
        """Open an existing counter file (``FileNotFoundError`` if there is none)."""
    @staticmethod
    def create(path: _StrPath, name: str, key: _ReadableBuffer) -> "Counter":
        """Create a new counter file (``FileExistsError`` if one is there)."""
    def next(self) -> bytes: ...
    def reserve(self, count: int = 1) -> int: ...
    def peek(self) -> int: ...
    @property
    def path(self) -> pathlib.Path: ...
    @property
    def name(self) -> str: ...

@final
class OneTimeKey:
    """A one-time MAC key (``hash127``, ``hash127-96``): it tags ONE message.

    >>> k = OneTimeKey("hash127", keygen("hash127"))
    >>> t = k.tag(b"m")
    >>> k.verify(b"m", t)
    """

    def __new__(cls, name: str, key: _ReadableBuffer) -> "OneTimeKey": ...
    @staticmethod
    def from_file(path: _StrPath) -> "OneTimeKey":
        """The key of a one-time key file; its tag marks the file spent."""
    def tag(self, data: _ReadableBuffer) -> bytes: ...
    def verify(self, data: _ReadableBuffer, tag: _ReadableBuffer) -> None: ...
    @property
    def spent(self) -> bool: ...
    @property
    def name(self) -> str: ...
    @property
    def digest_size(self) -> int: ...

def known_answer(
    name: str,
    key: _ReadableBuffer,
    data: _ReadableBuffer,
    nonce: Optional[_ReadableBuffer] = None,
    length: Optional[int] = None,
) -> bytes:
    """A known answer of any name, one-time MACs and shoup4-* under a given
    r || s included; for checking against published vectors only."""
    ...

@final
class SecretPrime:
    """A secret random prime of [2^120, 2^128) (``modp``).

    >>> SecretPrime().check_identity(3, 2, 4, 1, 1)
    True
    """

    def __new__(cls, key: Optional[_ReadableBuffer] = None) -> "SecretPrime": ...
    def reduce(self, x: int) -> int: ...
    def check_identity(self, a: int, b: int, c: int, d: int, e: int) -> bool: ...
    @staticmethod
    def false_accept_log2(a: int, b: int, c: int, d: int, e: int) -> float: ...
    def to_bytes(self) -> bytes: ...

# Partial hashes: one message hashed in pieces on other processes or machines.
# A partial (and the hash key) reveals the hash key: send it over TLS only.

def partial_hash(name: str, hash_key: _ReadableBuffer, offset: int, data: _ReadableBuffer, last: bool = True) -> bytes:
    """The partial hash (serialized) of the chunk ``data`` at ``offset`` of a message, under the hash key only.

    ``offset`` a multiple of :func:`granularity`; a chunk that is not ``last``
    a non-zero multiple of it. GIL released from 2 KiB.
    """

def partial_combine(a: _ReadableBuffer, b: _ReadableBuffer) -> bytes:
    """The partial of ``a`` followed by the adjacent ``b`` (no key needed)."""

def partial_info(partial: _ReadableBuffer) -> Dict[str, Any]:
    """``name``, ``offset``, ``length``, ``last``, ``whole`` of a serialized partial."""

def finish_hash(name: str, key: _ReadableBuffer, partial: _ReadableBuffer) -> bytes:
    """The hash ``name`` of the whole message from its combined partial, under the full key."""

def finish_mac(
    name: str,
    key: _ReadableBuffer,
    partial: _ReadableBuffer,
    nonce: Optional[_ReadableBuffer] = None,
    *,
    caller_manages_nonces: bool = False,
) -> bytes:
    """The tag of the MAC ``name`` from the combined partial of the whole message, under the full key."""

def hash_key(name: str, key: _ReadableBuffer) -> bytes:
    """The bytes of the full key the workers need (never the cipher key or pads)."""

def granularity(name: str) -> int:
    """The alignment of chunks in bytes (word size; ``B**2`` for a tree)."""

def partial_names() -> List[str]:
    """Every name :func:`partial_hash` accepts."""

def set_max_threads(n: int) -> None:
    """Cap the threads one computation may use (0: every core)."""

def max_threads() -> int:
    """The setting of :func:`set_max_threads`."""

# The CLI's key files and check lines.

class KeyFile(NamedTuple):
    """A key file's MAC, key and ``spent`` mark (:func:`load_key`)."""

    name: str
    key: bytes
    spent: bool

def load_key(path: _StrPath) -> Union[KeyFile, OneTimeKey]:
    """The key file of ``unimac keygen -o``: a :class:`KeyFile`, or for a
    one-time MAC :meth:`OneTimeKey.from_file` (never bytes that tag)."""

def save_key(path: _StrPath, name: str, key: _ReadableBuffer) -> None:
    """Write a new key file (mode 0600; ``FileExistsError`` if one is there)."""

class CheckLine(NamedTuple):
    """A parsed line of ``unimac tag`` (:func:`parse_check_line`); the file
    name as ``str`` (``os.fsdecode``), its bytes as :attr:`raw_filename`."""

    mac: Optional[str]
    nonce: Optional[bytes]
    tag: bytes
    filename: str
    @property
    def raw_filename(self) -> bytes: ...

class CheckResult(NamedTuple):
    """One checked line of :func:`verify_check_file`: ``"OK"``, ``"FAILED"``
    or ``"FAILED ..."`` with the reason."""

    filename: str
    status: str

def format_check_line(
    name: str,
    filename: _BytesOrStrPath,
    tag: _ReadableBuffer,
    nonce: Optional[_ReadableBuffer] = None,
    bsd: bool = False,
    zero: bool = False,
) -> bytes:
    """A line of ``unimac tag`` (``bsd``: of ``unimac tag --tag``), newline
    included (``zero``: NUL-ended, as ``unimac tag -z``)."""

def parse_check_line(line: Union[_ReadableBuffer, str]) -> CheckLine:
    """A line of ``unimac tag`` as ``unimac verify`` reads it; ``ValueError`` if malformed."""

def verify_check_file(
    path: _StrPath,
    key: Union[_StrPath, Tuple[str, _ReadableBuffer], KeyFile],
    *,
    strict: bool = False,
    zero: bool = False,
) -> List[CheckResult]:
    """Check every line of a check file, as ``unimac verify --key-file KEY FILE``
    (``zero``: the NUL-ended lines of ``unimac tag -z``, as ``unimac verify -z``;
    without it a NUL byte raises ``ValueError``)."""

# The CLI's sealed manifests (`unimac seal`).

class ManifestStatus(str, enum.Enum):
    """What became of a file of a sealed manifest."""

    OK = "OK"
    CHANGED = "CHANGED"
    REMOVED = "REMOVED"
    ADDED = "ADDED"
    RENAMED = "RENAMED"
    FAILED = "FAILED"
    UNEXPECTED = "UNEXPECTED"

class ManifestFile(NamedTuple):
    """One file of :func:`verify_manifest`: its path, status, new path of a
    rename, and a detail where the status needs one."""

    name: str
    status: ManifestStatus
    new_name: Optional[str] = None
    detail: Optional[str] = None

class ManifestResult(NamedTuple):
    """What :func:`verify_manifest` found."""

    seal_ok: bool
    files: List[ManifestFile]
    errors: List[str]
    @property
    def ok(self) -> bool: ...
    @property
    def renamed(self) -> Dict[str, str]: ...

def seal(
    paths_or_dir: Union[_BytesOrStrPath, List[_BytesOrStrPath]],
    key: Union[_StrPath, Tuple[str, _ReadableBuffer], KeyFile],
    *,
    name: Optional[str] = None,
    counter: Optional[Union[Counter, _StrPath]] = None,
    random_nonce: bool = False,
    recursive: bool = False,
    allow_weak: bool = False,
    output: Optional[_StrPath] = None,
) -> bytes:
    """The bytes of ``unimac seal --key-file KEY [-r DIR | FILE...] [-o OUTPUT]``."""

def verify_manifest(
    manifest: Union[_StrPath, _ReadableBuffer],
    key: Union[_StrPath, Tuple[str, _ReadableBuffer], KeyFile],
    *,
    base_dir: Optional[_BytesOrStrPath] = None,
    root: Optional[_BytesOrStrPath] = None,
) -> ManifestResult:
    """Check a sealed manifest as ``unimac verify --key-file KEY MANIFEST``."""
