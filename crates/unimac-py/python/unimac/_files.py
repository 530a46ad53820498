"""Key files and check lines of the ``unimac`` command line, from Python.

The key file of ``unimac keygen NAME -o FILE``::

    unimac-key hash127-aes
    4f1c...(the key in lowercase hex)

and, for a one-time key (``hash127``, ``hash127-96``) that has tagged its
message, a last line ``spent``. The check lines of ``unimac tag`` (read
back by ``unimac verify``), as ``sha256sum`` writes them::

    [NONCE:]TAG  FILE                  (GNU style)
    NAME (FILE) = [NONCE:]TAG          (BSD style, ``unimac tag --tag``)

with a leading backslash when the file name holds a backslash, newline or
carriage return (escaped as ``\\\\``, ``\\n``, ``\\r``).
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from typing import List, NamedTuple, Optional, Tuple, Union

from . import _unimac

__all__ = [
    "CheckLine",
    "CheckResult",
    "KeyFile",
    "format_check_line",
    "load_key",
    "parse_check_line",
    "save_key",
    "verify_check_file",
]

_HEX = re.compile(rb"[0-9a-fA-F]+")


class KeyFile(NamedTuple):
    """A key file's contents (:func:`load_key`): the MAC it names (without
    ``mac-``; ``modp`` for a secret prime), the key, and whether the file is
    marked ``spent`` (a one-time key that has tagged its message: ``unimac
    tag`` refuses it; checking with it is still fine).

    >>> import unimac
    >>> unimac.KeyFile("hash127", bytes(32), True).spent
    True
    """

    name: str
    key: bytes
    spent: bool


def load_key(path: Union[str, "os.PathLike[str]"]) -> KeyFile:
    """The MAC, key and ``spent`` mark of the key file at ``path``, read as
    ``unimac tag`` / ``unimac verify`` read it (the CLI's checks and
    messages: ``ValueError`` for a file that is not a key file of this
    build; the ``OSError`` of ``open`` for one that cannot be read). A file
    open to group or others gives a warning, as the CLI does.

    >>> import unimac, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a.key")
    >>> unimac.save_key(path, "hash127-aes", bytes(range(32)))
    >>> unimac.load_key(path)[:2] == ("hash127-aes", bytes(range(32)))
    True
    >>> name, key, spent = unimac.load_key(path); spent
    False
    """
    name, key, spent = _unimac._load_key(path)
    try:
        mode = os.stat(path).st_mode
    except OSError:  # pragma: no cover - removed since it was read
        mode = 0
    if os.name == "posix" and stat.S_ISREG(mode) and mode & 0o077:
        shown = os.fsdecode(path)
        warnings.warn(
            f"key file {shown} is open to group or others (mode {mode & 0o777:04o}); 'chmod 600 {shown}'",
            stacklevel=2,
        )
    return KeyFile(name, key, spent)


def save_key(path: Union[str, "os.PathLike[str]"], name: str, key) -> None:
    """Write ``key`` for the MAC ``name`` (``mac-`` optional; or ``modp``) to
    a new key file at ``path``, as ``unimac keygen NAME -o FILE`` does: mode
    0600, fsynced, never over an existing file (``FileExistsError``). A key
    of the wrong length raises ``ValueError``.

    >>> import unimac, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "w.key")
    >>> unimac.save_key(path, "wc-mmh32x4", bytes(32))
    >>> open(path).read().splitlines()[0]
    'unimac-key wc-mmh32x4'
    >>> unimac.save_key(path, "wc-mmh32x4", bytes(32))
    Traceback (most recent call last):
    ...
    FileExistsError: [Errno 17] key file ... already exists; not overwriting it: '...'
    """
    _unimac._save_key(path, name, key)


def _escape(name: bytes) -> Tuple[bool, bytes]:
    if not any(c in name for c in b"\\\n\r"):
        return False, name
    return True, name.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def _unescape(s: bytes) -> Optional[bytes]:
    out = bytearray()
    it = iter(s)
    for c in it:
        if c == 0x5C:  # backslash
            nxt = next(it, None)
            if nxt == 0x5C:
                out.append(0x5C)
            elif nxt == ord("n"):
                out.append(0x0A)
            elif nxt == ord("r"):
                out.append(0x0D)
            else:
                return None
        else:
            out.append(c)
    return bytes(out)


def format_check_line(name: str, filename, tag, nonce=None, bsd: bool = False) -> bytes:
    """One line of ``unimac tag``'s output, newline included:
    ``[NONCE:]TAG  FILE``, or with ``bsd`` ``NAME (FILE) = [NONCE:]TAG`` (as
    ``unimac tag --tag``); a leading backslash when the file name is escaped.
    ``filename``: ``str``, ``bytes`` or a path (``os.fsencode``); ``tag`` and
    ``nonce`` bytes (for ``shoup4-*`` the pair ``r ‖ s`` is the nonce).

    >>> import unimac
    >>> unimac.format_check_line("wc-mmh32x2", "a.txt", bytes([2] * 8), nonce=bytes(16))
    b'00000000000000000000000000000000:0202020202020202  a.txt\\n'
    >>> unimac.format_check_line("wc-mmh32x2", "x\\ny", b"\\x02", nonce=b"\\x01", bsd=True)
    b'\\\\wc-mmh32x2 (x\\\\ny) = 01:02\\n'
    """
    name = _unimac._mac_name(name)
    esc, file = _escape(os.fsencode(filename))
    value = (bytes(nonce).hex() + ":" if nonce is not None else "") + bytes(tag).hex()
    if bsd:
        line = name.encode() + b" (" + file + b") = " + value.encode()
    else:
        line = value.encode() + b"  " + file
    return (b"\\" if esc else b"") + line + b"\n"


class CheckLine(NamedTuple):
    """A parsed check line (:func:`parse_check_line`): the MAC a BSD-style
    line names (as written; ``None`` for a GNU-style line), the nonce
    (``None`` if the line has none), the tag, and the file name (bytes,
    unescaped).

    >>> import unimac
    >>> unimac.parse_check_line(b"hash127-aes (f) = 00").mac
    'hash127-aes'
    """

    mac: Optional[str]
    nonce: Optional[bytes]
    tag: bytes
    filename: bytes


def _split(line: bytes) -> Optional[Tuple[Optional[str], str, bytes]]:
    """``(mac, value, file)`` of a line, as ``unimac verify`` splits it."""
    escaped = line.startswith(b"\\")
    if escaped:
        line = line[1:]

    def unesc(f: bytes) -> Optional[bytes]:
        return _unescape(f) if escaped else f

    # BSD style: NAME (FILE) = VALUE, the value being hex and ':' only.
    open_ = line.find(b" (")
    close = line.rfind(b") = ")
    if open_ >= 0 and close > open_:
        try:
            name = line[:open_].decode()
            value = line[close + 4 :].decode()
        except UnicodeDecodeError:
            name = value = ""
        if name and " " not in name and value and all(c in "0123456789abcdefABCDEF:" for c in value):
            file = unesc(line[open_ + 2 : close])
            if not file:
                return None
            return name, value, file
    # GNU style: VALUE  FILE (or VALUE *FILE).
    sp = line.find(b" ")
    if sp < 0:
        return None
    value_b, rest = line[:sp], line[sp:]
    if rest.startswith(b"  ") or rest.startswith(b" *"):
        file = rest[2:]
    else:
        return None
    if not file:
        return None
    try:
        value = value_b.decode()
    except UnicodeDecodeError:
        return None
    f = unesc(file)
    return None if f is None else (None, value, f)


def _strict_hex(s: str) -> Optional[bytes]:
    b = s.encode()
    if not b or len(b) % 2 or not _HEX.fullmatch(b):
        return None
    return bytes.fromhex(s)


def _line_bytes(line) -> bytes:
    if isinstance(line, str):
        line = os.fsencode(line)
    line = bytes(line)
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    return line


def parse_check_line(line) -> CheckLine:
    """A line of ``unimac tag``'s output (either style; its newline, or
    CRLF, may be included) as :class:`CheckLine` ``(mac, nonce, tag,
    filename)``, as ``unimac verify`` reads it; ``ValueError`` if it is
    improperly formatted. Which sizes the nonce and tag must have depends on
    the MAC: :func:`verify_check_file` checks them.

    >>> import unimac
    >>> unimac.parse_check_line(b"01:0202  a.txt\\n")
    CheckLine(mac=None, nonce=b'\\x01', tag=b'\\x02\\x02', filename=b'a.txt')
    >>> unimac.parse_check_line(b"\\\\wc-mmh32x2 (x\\\\ny) = 01:02\\n").filename
    b'x\\ny'
    """
    raw = _line_bytes(line)
    parts = _split(raw)
    if parts is None:
        raise ValueError(f"improperly formatted check line: {raw!r}")
    mac, value, file = parts
    n, sep, t = value.partition(":")
    if not sep:
        n, t = None, value
    tag = _strict_hex(t)
    nonce = None if n is None else _strict_hex(n)
    if tag is None or (n is not None and nonce is None):
        raise ValueError(f"improperly formatted check line: {raw!r}")
    return CheckLine(mac, nonce, tag, file)


class CheckResult(NamedTuple):
    """One checked line of :func:`verify_check_file`: the file (``str``, as
    ``os.fsdecode`` gives it) and ``"OK"``, ``"FAILED"``, or a status
    starting with ``"FAILED"`` that says why the line was not checked or
    cannot be trusted (the file could not be read, the line was made by
    another MAC, its nonce was used before with another tag).

    >>> import unimac
    >>> unimac.CheckResult("a.txt", "OK").status == "OK"
    True
    """

    filename: str
    status: str


def verify_check_file(
    path: Union[str, "os.PathLike[str]"],
    key: Union[str, "os.PathLike[str]", Tuple[str, bytes], KeyFile],
    *,
    strict: bool = False,
) -> List[CheckResult]:
    """Check every line of the check file at ``path`` (``unimac tag``'s
    output, either style) as ``unimac verify --key-file KEY path`` does, and
    return one :class:`CheckResult` ``(filename, status)`` per line, in
    order. ``key``: a key file (its path) or ``(name, key)``. File names are
    opened as written in the lines (relative ones from the current
    directory); a one-time key is never spent by checking.

    Everything is good when every status is ``"OK"``. Improperly formatted
    lines are skipped (``strict=True``: ``ValueError`` naming the first);
    a file without any properly formatted line raises ``ValueError``.

    >>> import unimac, os, tempfile
    >>> os.chdir(tempfile.mkdtemp())
    >>> key = bytes(32)
    >>> with open("a.txt", "wb") as f: _ = f.write(b"attack at dawn")
    >>> line = unimac.format_check_line("hash127-aes", "a.txt", unimac.Mac("hash127-aes", key).tag_file("a.txt"))
    >>> with open("SUMS", "wb") as f: _ = f.write(line + line.replace(b"a.txt", b"gone.txt"))
    >>> unimac.verify_check_file("SUMS", ("hash127-aes", key))
    [CheckResult(filename='a.txt', status='OK'), CheckResult(filename='gone.txt', status='FAILED open or read: No such file or directory')]
    """
    if isinstance(key, tuple):
        name, k = key[0], bytes(key[1])
    else:
        name, k, _ = load_key(key)
    name = _unimac._mac_name(name)
    info = _unimac.info(name)
    lo, hi = info["nonce_sizes"]
    tag_len = info["digest_size"]
    macs = set(_unimac.mac_names())
    shown = os.fsdecode(path)
    seen = {}  # canonical nonce -> (tag, line number)
    out: List[CheckResult] = []
    found = False
    with open(path, "rb") as f:
        for i, raw in enumerate(f, 1):
            line = _line_bytes(raw)
            parts = _split(line) if len(line) <= 16 << 10 else None
            decoded = None
            if parts is not None:
                mac, value, file = parts
                if hi > 0:
                    n, sep, t = value.partition(":")
                    nonce = _strict_hex(n) if sep else None
                    if nonce is None or not lo <= len(nonce) <= hi:
                        nonce = t = None
                else:
                    nonce, t = None, value
                tag = _strict_hex(t) if t is not None else None
                if tag is not None and len(tag) == tag_len:
                    decoded = (mac, nonce, tag, file)
            if parts is not None and parts[0] is not None:
                bare = parts[0][4:] if parts[0].startswith("mac-") else parts[0]
                by = bare if bare in macs else parts[0]
                if by != name:
                    found = True
                    out.append(CheckResult(os.fsdecode(parts[2]), f"FAILED: made by {by}, not checked with this {name} key"))
                    continue
            if decoded is None:
                if strict:
                    raise ValueError(f"{shown}: {i}: improperly formatted {name} line")
                continue
            found = True
            _, nonce, tag, file = decoded
            filename = os.fsdecode(file)
            reused = None
            if nonce is not None:
                c = _unimac._canonical_nonce(name, nonce)
                if c is not None:
                    if c in seen and seen[c][0] != tag:
                        reused = seen[c][1]
                    seen.setdefault(c, (tag, i))
            try:
                good = _unimac._check_file(name, k, os.fsdecode(file), tag, nonce)
            except OSError as e:
                out.append(CheckResult(filename, f"FAILED open or read: {e.strerror or e}"))
                continue
            if reused is not None:
                out.append(
                    CheckResult(
                        filename,
                        f"FAILED: nonce {nonce.hex()} was used with another tag at line {reused}: "
                        "a nonce must never repeat under one key",
                    )
                )
            else:
                out.append(CheckResult(filename, "OK" if good else "FAILED"))
    if not found:
        raise ValueError(f"{shown}: no properly formatted {name} lines found")
    return out
