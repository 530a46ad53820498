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
carriage return (escaped as ``\\\\``, ``\\n``, ``\\r``) or another control or
format character (``\\xNN``, ``\\u{NNNN}``: docs/WIRE.md section 9.3).
"""

from __future__ import annotations

import os
import warnings
from collections import namedtuple as _namedtuple

# The annotations' names, for type checkers only: with `from __future__
# import annotations` no annotation is evaluated, and importing typing
# would cost more than the rest of `import unimac`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Tuple, Union

from . import _unimac

_SHOWN_MALFORMED: int = _unimac._SHOWN_MALFORMED

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

class KeyFile(_namedtuple("KeyFile", ["name", "key", "spent"], module=__name__)):
    """A key file's contents (:func:`load_key`): the MAC it names (without
    ``mac-``; ``modp`` for a secret prime), the key, and whether the file is
    marked ``spent``. Its ``repr`` never shows the key.

    >>> import unimac
    >>> unimac.KeyFile("hash127-aes", bytes(32), False)
    KeyFile(name='hash127-aes', key=<32 secret bytes>, spent=False)
    """

    __slots__ = ()

    name: str
    key: bytes
    spent: bool

    def __repr__(self) -> str:
        return f"KeyFile(name={self.name!r}, key=<{len(self.key)} secret bytes>, spent={self.spent!r})"

    __str__ = __repr__


def load_key(path: Union[str, "os.PathLike[str]"]) -> Union[KeyFile, "_unimac.OneTimeKey"]:
    """The key file at ``path``, read as ``unimac tag`` / ``unimac verify``
    read it (the library's checks and messages: ``ValueError`` for a file
    that is not a key file of this build; the ``OSError`` of ``open`` for
    one that cannot be read; a named pipe or device is not opened). A file
    open to group or others gives a warning, as the CLI does.

    A reusable MAC's key comes back as :class:`KeyFile` ``(name, key,
    spent)``. A one-time MAC's key (``hash127``, ``hash127-96``) never comes
    back as bytes that could tag twice: it is :meth:`OneTimeKey.from_file`,
    whose one tag marks the file spent as ``unimac tag`` does; from a file
    already marked spent, a key that only checks (``spent`` true, its
    ``tag`` refused).

    >>> import unimac, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a.key")
    >>> unimac.save_key(path, "hash127-aes", bytes(range(32)))
    >>> unimac.load_key(path)[:2] == ("hash127-aes", bytes(range(32)))
    True
    >>> name, key, spent = unimac.load_key(path); spent
    False
    >>> once = os.path.join(tempfile.mkdtemp(), "o.key")
    >>> unimac.save_key(once, "hash127", unimac.keygen("hash127"))
    >>> unimac.load_key(once)
    unimac.OneTimeKey('hash127', spent=False)
    """
    name, key, spent, one_time = _unimac._load_key(path)
    if one_time:
        return _unimac.OneTimeKey.from_file(path, spent_ok=True)
    return KeyFile(name, key, spent)


def save_key(path: Union[str, "os.PathLike[str]"], name: str, key) -> None:
    """Write ``key`` for the MAC ``name`` (``mac-`` optional; or ``modp``) to
    a new key file at ``path``, as ``unimac keygen NAME -o FILE`` does: mode
    0600, synced, whole or not at all (a temporary file beside it, then its
    name), never over an existing file (``FileExistsError``). A key of the
    wrong length raises ``ValueError``.

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


def format_check_line(name: str, filename, tag, nonce=None, bsd: bool = False, zero: bool = False) -> bytes:
    """One line of ``unimac tag``'s output, newline included:
    ``[NONCE:]TAG  FILE``, or with ``bsd`` ``NAME (FILE) = [NONCE:]TAG`` (as
    ``unimac tag --tag``); a leading backslash when the file name is escaped.
    With ``zero``, as ``unimac tag -z``: ended by NUL instead, the name as it
    is (not escaped). ``filename``: ``str``, ``bytes`` or a path
    (``os.fsencode``); ``tag`` and ``nonce`` bytes (for ``shoup4-*`` the
    pair ``r ‖ s`` is the nonce).

    >>> import unimac
    >>> unimac.format_check_line("wc-mmh32x2", "a.txt", bytes([2] * 8), nonce=bytes(16))
    b'00000000000000000000000000000000:0202020202020202  a.txt\\n'
    >>> unimac.format_check_line("wc-mmh32x2", "x\\ny", b"\\x02", nonce=b"\\x01", bsd=True)
    b'\\\\wc-mmh32x2 (x\\\\ny) = 01:02\\n'
    >>> unimac.format_check_line("hash127-aes", "x\\ny", bytes(16), zero=True)[-6:]
    b'  x\\ny\\x00'
    """
    name = _unimac._mac_name(name)
    n = None if nonce is None else bytes(nonce)
    return _unimac._format_check_line(name, os.fsencode(filename), bytes(tag), n, bsd, bool(zero))


class CheckLine(_namedtuple("CheckLine", ["mac", "nonce", "tag", "filename"], module=__name__)):
    """A parsed check line (:func:`parse_check_line`): the MAC a BSD-style
    line names (as written; ``None`` for a GNU-style line), the nonce
    (``None`` if the line has none), the tag, and the file name, unescaped,
    as a ``str`` (``os.fsdecode``, as :class:`CheckResult` gives it); its
    bytes as written are :attr:`raw_filename`.

    >>> import unimac
    >>> line = unimac.parse_check_line(b"hash127-aes (caf\\xc3\\xa9) = 00")
    >>> line.mac, line.filename, line.raw_filename
    ('hash127-aes', 'café', b'caf\\xc3\\xa9')
    """

    __slots__ = ()

    mac: Optional[str]
    nonce: Optional[bytes]
    tag: bytes
    filename: str

    @property
    def raw_filename(self) -> bytes:
        """The file name's bytes as the line holds them (unescaped):
        ``os.fsencode(filename)``, which gives back exactly the bytes
        ``os.fsdecode`` took, undecodable ones included."""
        return os.fsencode(self.filename)


def _line_bytes(line) -> bytes:
    if isinstance(line, str):
        line = os.fsencode(line)
    line = bytes(line)
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    return line


#: The longest line of a check file (as ``unimac verify``): a longer one
#: is an error, so that no line is read without bound.
_MAX_CHECK_LINE = 16 << 10


def _open_list(path, what: str):
    """The list at ``path`` (a check file), open for reading in binary, under
    the library's rule for arguments: a named pipe, device, socket or
    directory is refused unopened (``OSError`` naming it and what it is)."""
    if hasattr(_unimac, "_open_argument"):
        return os.fdopen(_unimac._open_argument(path, what), "rb")
    return open(path, "rb")


def _records(f, zero: bool, shown: str = "-"):
    """The lines of the open check file ``f`` without their ends: newline
    (or CRLF), or with ``zero`` NUL (a carriage return before it is part
    of the name, as ``unimac verify -z`` reads it). A line longer than
    16 KiB raises ``ValueError``, read no further."""
    def too_long(i: int):
        return ValueError(f"{shown}: line {i}: longer than {_MAX_CHECK_LINE} bytes; not a check file")

    if not zero:
        i = 0
        while True:
            raw = f.readline(_MAX_CHECK_LINE + 3)
            if not raw:
                return
            i += 1
            if len(raw) > _MAX_CHECK_LINE + 2:
                raise too_long(i)
            yield _line_bytes(raw)
    rest = b""
    i = 0
    while True:
        chunk = f.read(1 << 16)
        if not chunk:
            break
        *done, rest = (rest + chunk).split(b"\0")
        for r in done:
            i += 1
            if len(r) > _MAX_CHECK_LINE:
                raise too_long(i)
            yield r
        if len(rest) > _MAX_CHECK_LINE:
            raise too_long(i + 1)
    if rest:
        yield rest


def parse_check_line(line) -> CheckLine:
    """A line of ``unimac tag``'s output (either style; its newline, or
    CRLF, or the NUL that ends it with ``unimac tag -z``, may be included) as :class:`CheckLine` ``(mac, nonce, tag,
    filename)`` (``filename`` a ``str``; ``raw_filename`` its bytes), as
    ``unimac verify`` reads it; ``ValueError`` if it is
    improperly formatted. Which sizes the nonce and tag must have depends on
    the MAC: :func:`verify_check_file` checks them.

    >>> import unimac
    >>> unimac.parse_check_line(b"01:0202  a.txt\\n")
    CheckLine(mac=None, nonce=b'\\x01', tag=b'\\x02\\x02', filename='a.txt')
    >>> unimac.parse_check_line(b"\\\\wc-mmh32x2 (x\\\\ny) = 01:02\\n").filename
    'x\\ny'
    """
    if not isinstance(line, str) and bytes(line).endswith(b"\0"):
        raw = bytes(line)[:-1]  # unimac tag -z: the name is as it is
    else:
        raw = _line_bytes(line)
    parsed = _unimac._parse_check_line(raw)
    if parsed is None:
        raise ValueError(f"improperly formatted check line: {raw!r}")
    mac, nonce, tag, file = parsed
    return CheckLine(mac, nonce, tag, os.fsdecode(file))


class CheckResult(_namedtuple("CheckResult", ["filename", "status"], module=__name__)):
    """One checked line of :func:`verify_check_file`: the file (``str``, as
    ``os.fsdecode`` gives it) and ``"OK"``, ``"FAILED"``, or a status
    starting with ``"FAILED"`` that says why the line was not checked or
    cannot be trusted (the file could not be read, the line was made by
    another MAC, its nonce was used before with another tag).

    >>> import unimac
    >>> unimac.CheckResult("a.txt", "OK").status == "OK"
    True
    """

    __slots__ = ()

    filename: str
    status: str


def verify_check_file(
    path: Union[str, "os.PathLike[str]"],
    key: Union[str, "os.PathLike[str]", Tuple[str, bytes], KeyFile],
    *,
    strict: bool = False,
    zero: bool = False,
) -> List[CheckResult]:
    """Check every line of the check file at ``path`` (``unimac tag``'s
    output, either style) as ``unimac verify --key-file KEY path`` does, and
    return one :class:`CheckResult` ``(filename, status)`` per line, in
    order. ``key``: a key file (its path) or ``(name, key)``. File names are
    opened as written in the lines (relative ones from the current
    directory); a one-time key is never spent by checking.

    Everything is good when every status is ``"OK"``. Improperly formatted
    lines are skipped with a ``UserWarning`` each (the first three, named as
    ``unimac verify`` names them: ``SUMS: 3: improperly formatted
    hash127-aes line``) and one that counts them (``WARNING: 1 line is
    improperly formatted``), as ``unimac verify`` warns on stderr
    (``strict=True``: ``ValueError`` naming the first); a file without any
    properly formatted line raises ``ValueError``. Like ``unimac verify``,
    it ends with one ``UserWarning`` for each kind of problem it counted
    (``WARNING: 1 listed file could not be read``, ``WARNING: 2 computed
    tags did NOT match``, ...), in the command line's words.

    ``zero=True`` reads the lines of ``unimac tag -z`` (``unimac verify
    -z``): each ended by NUL, its name as it is (a newline is part of it).
    Without it, a NUL byte in the file raises ``ValueError`` (``made with
    -z? pass zero=True``): no line of ``unimac tag`` holds one otherwise.

    >>> import unimac, os, tempfile
    >>> os.chdir(tempfile.mkdtemp())
    >>> key = bytes(32)
    >>> with open("a.txt", "wb") as f: _ = f.write(b"attack at dawn")
    >>> line = unimac.format_check_line("hash127-aes", "a.txt", unimac.Mac("hash127-aes", key).tag_file("a.txt"))
    >>> with open("SUMS", "wb") as f: _ = f.write(line + line.replace(b"a.txt", b"gone.txt"))
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as said:
    ...     warnings.simplefilter("always")
    ...     results = unimac.verify_check_file("SUMS", ("hash127-aes", key))
    >>> results
    [CheckResult(filename='a.txt', status='OK'), CheckResult(filename='gone.txt', status='FAILED open or read: No such file or directory')]
    >>> [str(w.message) for w in said]
    ['WARNING: 1 listed file could not be read']
    """
    key_path = None
    if isinstance(key, tuple):
        name, k = key[0], bytes(key[1])
    else:
        # The key file is read by the library (a one-time key's bytes never
        # reach Python).
        key_path = key
        name, k, _, _ = _unimac._load_key(key)
    # The name resolved once, to its row: every line is checked with it.
    row = _unimac._mac_row(name)
    name = row.name
    lo, hi = row.nonce_sizes
    tag_len = row.digest_size
    shown = os.fsdecode(path)

    def check(file: bytes, tag: bytes, nonce: Optional[bytes]) -> bool:
        if key_path is not None:
            return _unimac._check_file_keyfile(key_path, os.fsdecode(file), tag, nonce)
        return _unimac._check_file(row, k, os.fsdecode(file), tag, nonce)

    seen = {}  # canonical nonce -> (tag, line number)
    malformed = other_mac = unreadable = bad = reused_lines = 0
    out: List[CheckResult] = []
    found = False
    with _open_list(path, "check file") as f:
        for i, line in enumerate(_records(f, zero, shown), 1):
            if not zero and b"\0" in line:
                raise ValueError(
                    f"{shown}: line {i} holds a NUL byte, which ends the lines of 'unimac tag -z' "
                    "(made with -z? pass zero=True)"
                )
            p = _unimac._parse_check_line(line) if len(line) <= 16 << 10 else None
            parts = None if p is None else (p[0], p[3])
            decoded = None
            if p is not None:
                mac, nonce, tag, file = p
                nonce_ok = (nonce is None) if hi == 0 else (nonce is not None and lo <= len(nonce) <= hi)
                if nonce_ok and len(tag) == tag_len:
                    decoded = (mac, nonce, tag, file)
            if parts is not None and parts[0] is not None:
                by = parts[0]
                if by != name:
                    found = True
                    other_mac += 1
                    out.append(CheckResult(os.fsdecode(parts[1]), f"{_unimac._CHECK_FAILED}: {_unimac._msg_made_by(by, name)}"))
                    continue
            if decoded is None:
                if strict:
                    raise ValueError(_unimac._msg_malformed_line(shown, i, name))
                # Warned as `unimac verify` says it: the first few named,
                # then counted.
                malformed += 1
                if malformed <= _SHOWN_MALFORMED:
                    warnings.warn(_unimac._msg_malformed_line(shown, i, name), UserWarning, stacklevel=2)
                continue
            found = True
            _, nonce, tag, file = decoded
            filename = os.fsdecode(file)
            reused = None
            if nonce is not None:
                c = _unimac._canonical_nonce(row, nonce)
                if c is not None:
                    if c in seen and seen[c][0] != tag:
                        reused = seen[c][1]
                    seen.setdefault(c, (tag, i))
            # A reuse is counted as `unimac verify` counts it: from the
            # lines, whether the file can be read or not.
            reused_lines += reused is not None
            try:
                good = check(file, tag, nonce)
            except OSError as e:
                unreadable += 1
                out.append(CheckResult(filename, f"{_unimac._CHECK_UNREADABLE}: {e.strerror or e}"))
                continue
            # Checked, and a reuse said on the line too.
            bad += not good
            if reused is not None:
                why = _unimac._msg_nonce_reused(nonce.hex(), f"line {reused}")
                out.append(CheckResult(filename, f"{_unimac._CHECK_FAILED}: {why}"))
            else:
                out.append(CheckResult(filename, _unimac._CHECK_OK if good else _unimac._CHECK_FAILED))
    if not found:
        raise ValueError(_unimac._msg_no_check_lines(shown, name))
    # The closing warnings, as `unimac verify` ends with them on stderr.
    for w in _unimac._msg_check_warnings(malformed, other_mac, unreadable, bad, reused_lines, name):
        warnings.warn(w, UserWarning, stacklevel=2)
    return out
