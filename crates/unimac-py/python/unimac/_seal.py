"""Sealed manifests of the ``unimac`` command line, from Python.

:func:`seal` writes the bytes ``unimac seal`` writes, and
:func:`verify_manifest` checks a manifest as ``unimac verify`` does
(docs/WIRE.md, "Sealed manifests")::

    unimac-manifest 1 hash127-aes fa40c05791463acd2d7791cc3fe15ebf
    root d
    1adc1ed5abe5bb30e779c42387f38ab9 6 d/a
    d2a5255f3fa2f66f6e32b33149c8e896 1 d/c
    seal 3625f331015227d9707531b22f68b1f7

Line 1 names the MAC and the key's fingerprint (the first 16 bytes of
SHA-256 over a label, the name and the key, in hex: it reveals nothing of
the key); line 2, for a sealed directory only, its root; then
``[NONCE:]TAG SIZE NAME`` per file, names escaped as in check lines; and
last ``seal [NONCE:]TAG``, the MAC of every byte above it.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import warnings
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _unimac
from ._files import KeyFile, _escape, _unescape, load_key

__all__ = ["ManifestFile", "ManifestResult", "seal", "verify_manifest"]

_MAGIC = b"unimac-manifest"
_VERSION = b"1"
_FP = re.compile(rb"[0-9a-f]{32}")
_HEXB = re.compile(rb"[0-9a-fA-F]*")

# The use `unimac seal` (as `unimac tag`) checks a MAC's bound for: 2^32
# tags (at most 2^52 bytes in all) and 2^32 forgery attempts on messages as
# long as the longest file (at least 1 MiB), refused above 2^-32.
_WEAK_LOG2 = -32.0
_USE_TAGS = 1 << 32
_USE_FORGERIES = 1 << 32
_USE_TOTAL_BYTES = 1 << 52


def _key_of(key) -> Tuple[str, bytes]:
    if isinstance(key, tuple):
        name, k = key[0], bytes(key[1])
    else:
        name, k, _ = load_key(key)
    return _unimac._mac_name(name), k


def _fingerprint(name: str, key: bytes) -> str:
    """The key's fingerprint, as a counter file's first line has it."""
    h = hashlib.sha256(b"unimac counter binding v1\0" + name.encode() + b"\0" + key)
    return h.digest()[:16].hex()


def _header(name: str, key: bytes) -> bytes:
    return b"%s %s %s %s\n" % (_MAGIC, _VERSION, name.encode(), _fingerprint(name, key).encode())


def _named_line(prefix: bytes, name: bytes) -> bytes:
    esc, name = _escape(name)
    return (b"\\" if esc else b"") + prefix + name + b"\n"


def _value_hex(nonce: Optional[bytes], tag: bytes) -> bytes:
    return ((nonce.hex() + ":") if nonce is not None else "").encode() + tag.hex().encode()


class _Desc:
    """What the lines of a MAC need: its sizes and nonce rule."""

    def __init__(self, name: str):
        i = _unimac.info(name)
        self.name = name
        self.one_time = bool(i["one_time"])
        self.nonce_lo, self.nonce_hi = i["nonce_sizes"]
        self.tag_len = i["digest_size"]
        self.pair = bool(i["random_pair"])
        self.takes_nonce = bool(i["nonce"])
        # VMAC: big-endian nonces with the top bit clear (those with it set
        # are its key derivation's); every other nonce MAC little-endian.
        self.vmac = name.startswith("vmac")

    def counter_nonce(self, c: int) -> bytes:
        if self.vmac:
            if c >> 127:
                raise ValueError(
                    f"{self.name}: nonce counter {c} does not fit its nonce (VMAC reserves 16-byte nonces "
                    "with the top bit set for its key derivation); use a new key"
                )
            return c.to_bytes(16, "big")
        return c.to_bytes(16, "little")

    def random_nonce(self) -> bytes:
        n = bytearray(os.urandom(self.nonce_hi))
        if self.vmac and n:
            n[0] &= 0x7F
        return bytes(n)

    def parse_value(self, value: bytes) -> Optional[Tuple[Optional[bytes], bytes]]:
        """``[NONCE:]TAG`` strictly, with the sizes this MAC takes."""
        try:
            value.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if self.nonce_hi > 0:
            n, sep, t = value.partition(b":")
            if not sep:
                return None
        else:
            n, t = None, value
        nonce = None
        if n is not None:
            if len(n) % 2 or not self.nonce_lo <= len(n) // 2 <= self.nonce_hi or not _HEXB.fullmatch(n):
                return None
            nonce = bytes.fromhex(n.decode())
        if len(t) != 2 * self.tag_len or not _HEXB.fullmatch(t):
            return None
        return nonce, bytes.fromhex(t.decode())


class _Entry(NamedTuple):
    nonce: Optional[bytes]
    tag: bytes
    size: int
    name: bytes


def _strip_escape(line: bytes) -> Tuple[bool, bytes]:
    return (True, line[1:]) if line.startswith(b"\\") else (False, line)


def _read_name(escaped: bool, name: bytes) -> Optional[bytes]:
    n = _unescape(name) if escaped else name
    return n or None


def _parse_header(line: bytes) -> Optional[Tuple[str, str]]:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return None
    w = line.split(b" ")
    if len(w) != 4 or w[0] != _MAGIC or w[1] != _VERSION or not w[2] or not _FP.fullmatch(w[3]):
        return None
    return w[2].decode(), w[3].decode()


def _parse_root(line: bytes) -> Optional[bytes]:
    esc, rest = _strip_escape(line)
    if not rest.startswith(b"root "):
        return None
    return _read_name(esc, rest[5:])


def _parse_entry(line: bytes, d: _Desc) -> Optional[_Entry]:
    esc, rest = _strip_escape(line)
    value, sp, rest = rest.partition(b" ")
    if not sp:
        return None
    size, sp, name = rest.partition(b" ")
    if not sp:
        return None
    # Decimal, no sign, no leading zero: one spelling per size.
    if not size or not all(0x30 <= c <= 0x39 for c in size) or (len(size) > 1 and size[:1] == b"0"):
        return None
    n = int(size)
    if n >= 1 << 64:
        return None
    v = d.parse_value(value)
    if v is None:
        return None
    name = _read_name(esc, name)
    if name is None:
        return None
    return _Entry(v[0], v[1], n, name)


def _split_last_line(text: bytes) -> Tuple[bytes, Optional[bytes]]:
    if not text.endswith(b"\n"):
        return text, None
    t = text[:-1]
    start = t.rfind(b"\n") + 1
    return text[:start], t[start:]


# ---------------------------------------------------------------------------
# The walk of a directory, as `unimac seal -r` / `tag -r` walk it
# ---------------------------------------------------------------------------


def _special(mode: int) -> Optional[str]:
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return None


def _walk(name: bytes, where, out: List[Tuple[bytes, Optional[str]]]) -> None:
    """The files under the directory ``name`` (opened at ``where(name)``),
    each directory's entries sorted by name, a subdirectory's files where
    its name falls; links to directories not followed; named pipes,
    sockets and devices skipped with a warning. Appends ``(name, error)``."""
    path = where(name)
    try:
        with os.scandir(path) as it:
            entries = []
            while True:
                try:
                    e = next(it)
                except StopIteration:
                    break
                except OSError as x:
                    out.append((name, f"{os.fsdecode(path)}: {x.strerror or x}"))
                    break
                entries.append(e)
    except OSError as x:
        out.append((name, f"{os.fsdecode(path)}: {x.strerror or x}"))
        return
    entries.sort(key=lambda e: e.name)
    for e in entries:
        child = os.path.join(name, e.name)
        try:
            if e.is_dir(follow_symlinks=False):
                _walk(child, where, out)
                continue
            mode = e.stat(follow_symlinks=False).st_mode
        except OSError:
            out.append((child, None))
            continue
        if stat.S_ISLNK(mode):
            try:
                mode = os.stat(e.path).st_mode
            except OSError:
                out.append((child, None))  # dangling: its error comes when it is read
                continue
            if stat.S_ISDIR(mode):
                continue
        what = _special(mode)
        if what is not None:
            warnings.warn(f"{os.fsdecode(child)}: {what}, skipped (a sealed tree holds regular files)", stacklevel=3)
            continue
        out.append((child, None))


def _where(base_dir):
    if base_dir is None:
        return lambda name: name
    base = os.fsencode(base_dir)
    return lambda name: name if os.path.isabs(name) else os.path.join(base, name)


# ---------------------------------------------------------------------------
# seal
# ---------------------------------------------------------------------------


def _check_strength(name: str, paths: Sequence[bytes], random_nonce: bool) -> None:
    longest = 0
    for p in paths:
        try:
            st = os.stat(p)
            size = st.st_size if stat.S_ISREG(st.st_mode) else 1 << 30
        except OSError:
            size = 1 << 30
        longest = max(longest, size)
    longest = max(longest, 1 << 20)
    tags = max(1, min(_USE_TAGS, _USE_TOTAL_BYTES // longest))
    try:
        log2 = _unimac.bound(name, longest, tags=tags, forgeries=_USE_FORGERIES, random_nonces=random_nonce).log2
    except ValueError:
        log2 = None
    if log2 is not None and log2 <= _WEAK_LOG2:
        return
    why = "it has no forgery guarantee" if log2 is None else f"its forgery bound is 2^{log2:.1f}"
    raise ValueError(
        f"{name} is weak for this use: {why} (above 2^-32) for {tags} tags and 2^32 forgery attempts on "
        f"messages of {longest} bytes (see 'unimac bound {name} --max-bytes {longest} --tags {tags} "
        f"--forgeries 4294967296'); give allow_weak=True to seal anyway, or use hash127-aes"
    )


def _tag_file(m, path: bytes, nonce: Optional[bytes]) -> Tuple[bytes, int]:
    """What the MAC sends for the file at ``path`` under ``nonce``, and the
    file's size. ``Mac.tag_file`` reads a regular file under the library's
    rule for files that change while they are read (``OSError`` "PATH:
    changed while reading", a file changed within two seconds read twice
    and compared); the path must also name the same, unchanged file before
    and after."""
    before = os.stat(path)
    if not stat.S_ISREG(before.st_mode):
        with open(path, "rb") as f:
            data = f.read()
        return m.tag(data, nonce), len(data)
    sent = m.tag_file(os.fsdecode(path), nonce)
    after = os.stat(path)

    def stamp(s):
        return (s.st_size, s.st_mtime_ns, s.st_ctime_ns, s.st_dev, s.st_ino)

    if stamp(after) != stamp(before):
        raise OSError(f"{os.fsdecode(path)}: changed while it was read; seal it again")
    return sent, after.st_size


def seal(
    paths_or_dir,
    key: Union[str, "os.PathLike[str]", Tuple[str, bytes], KeyFile],
    *,
    name: Optional[str] = None,
    counter=None,
    random_nonce: bool = False,
    recursive: bool = False,
    allow_weak: bool = False,
) -> bytes:
    """The sealed manifest of files, byte for byte as ``unimac seal`` writes
    it (docs/WIRE.md, "Sealed manifests"): a list of paths (sealed in that
    order, names as given; a single path is one file), or with
    ``recursive=True`` one directory (``unimac seal -r DIR``: its tree,
    sorted, and a ``root`` line so that :func:`verify_manifest` finds files
    added later). Write the bytes to a file and check them with
    :func:`verify_manifest` or ``unimac verify --key-file KEY MANIFEST``.

    ``key``: a key file (its path) or ``(name, key)``; ``name``, if given,
    must be the key's MAC. A nonce MAC takes one nonce per file and one for
    the seal, from ``counter`` (a :class:`Counter` or the path of the key's
    counter file: files + 1 values reserved, durably, before any tag) or,
    with ``random_nonce=True``, at random (the MAC's full nonce length). A
    stateless MAC takes neither; one-time MACs cannot seal (``ValueError``).
    A MAC that is weak for this use is refused as ``unimac seal`` refuses it
    (``allow_weak=True``: seal anyway). A file that cannot be read raises
    its ``OSError``, before any nonce is reserved when it is missing.

    >>> import unimac, os, tempfile
    >>> os.chdir(tempfile.mkdtemp())
    >>> os.mkdir("d")
    >>> with open("d/a", "wb") as f: _ = f.write(b"alpha")
    >>> key = ("hash127-aes", bytes(32))
    >>> m = unimac.seal("d", key, recursive=True)
    >>> m.splitlines()[:2]
    [b'unimac-manifest 1 hash127-aes 6b2c276b70604b235ee8441e4473a160', b'root d']
    >>> unimac.verify_manifest(m, key).ok
    True
    """
    mac, k = _key_of(key)
    if name is not None and _unimac._mac_name(name) != mac:
        raise ValueError(f"the key is a {mac} key, not a {_unimac._mac_name(name)} key")
    d = _Desc(mac)
    if d.one_time:
        raise ValueError(
            f"{mac} is a one-time MAC (one message per key), but a manifest needs a tag per file and one for "
            "its seal; seal with a reusable MAC such as hash127-aes"
        )
    if counter is not None and random_nonce:
        raise ValueError("give one of counter and random_nonce, not both")
    if not d.takes_nonce and (counter is not None or random_nonce):
        if d.pair:
            raise ValueError(f"{mac} is stateless: r || s is drawn at random for every message (no counter or random_nonce)")
        raise ValueError(f"{mac} takes no nonce (no counter or random_nonce)")
    if d.takes_nonce and counter is None and not random_nonce:
        raise ValueError(f"{mac} needs nonces: give counter (the key's counter) or random_nonce=True")

    if isinstance(paths_or_dir, (str, bytes, os.PathLike)):
        given = [paths_or_dir]
    else:
        given = list(paths_or_dir)
    root: Optional[bytes] = None
    if recursive:
        if len(given) != 1:
            raise ValueError("recursive=True seals one directory: give one path")
        root = os.fsencode(given[0])
        if not os.path.isdir(root):
            raise NotADirectoryError(f"{os.fsdecode(root)}: not a directory")
        items: List[Tuple[bytes, Optional[str]]] = []
        _walk(root, lambda n: n, items)
    else:
        if not given:
            raise ValueError("nothing to seal: give files or a directory with recursive=True")
        items = [(os.fsencode(p), None) for p in given]
    if any(p == b"-" for p, _ in items):
        raise ValueError("stdin ('-') cannot be sealed: a manifest names files to check later")
    # Every file is found before any nonce is reserved.
    for p, err in items:
        if err is not None:
            raise OSError(err)
        os.stat(p)
        if os.path.isdir(p):
            raise IsADirectoryError(f"{os.fsdecode(p)}: is a directory (recursive=True seals a tree)")
    paths = [p for p, _ in items]
    if not allow_weak:
        _check_strength(mac, paths, random_nonce)

    m = _unimac.Mac(mac, k)
    next_counter = None
    if counter is not None:
        # The key's counter, checked against this key: one nonce per file
        # and one for the seal, durable before any tag.
        path = counter.path if isinstance(counter, _unimac.Counter) else counter
        next_counter = _unimac.Counter(path, mac, k).reserve(len(paths) + 1)

    def nonce() -> Optional[bytes]:
        nonlocal next_counter
        if next_counter is not None:
            n = d.counter_nonce(next_counter)
            next_counter += 1
            return n
        if random_nonce:
            return d.random_nonce()
        return None

    def value(n: Optional[bytes], sent: bytes) -> bytes:
        if d.pair:  # r || s || tag: the pair goes where the nonce goes
            n, sent = sent[: d.nonce_hi], sent[d.nonce_hi :]
        return _value_hex(n, sent)

    text = bytearray(_header(mac, k))
    if root is not None:
        text += _named_line(b"root ", root)
    for p in paths:
        n = nonce()
        sent, size = _tag_file(m, p, n)
        text += _named_line(value(n, sent) + b" %d " % size, p)
    n = nonce()
    text += b"seal " + value(n, m.tag(bytes(text), n)) + b"\n"
    return bytes(text)


# ---------------------------------------------------------------------------
# verify
# ---------------------------------------------------------------------------


class ManifestFile(NamedTuple):
    """One file of :func:`verify_manifest`: its name (``str``, as
    ``os.fsdecode`` gives it) and ``"OK"``, ``"CHANGED"`` (another size or
    tag), ``"REMOVED"``, ``"ADDED"`` (under a sealed directory, not listed),
    ``"RENAMED OLD -> NEW"`` (an added file holding a removed one's
    content; ``name`` is the old name) or ``"FAILED open or read: ..."``.

    >>> import unimac
    >>> unimac.ManifestFile("d/a", "OK").status
    'OK'
    """

    name: str
    status: str


class ManifestResult(NamedTuple):
    """What :func:`verify_manifest` found: whether the seal verifies
    (``seal_ok``), each listed file and then each added one
    (:class:`ManifestFile` ``(name, status)``), the numbers of improperly
    formatted lines (``malformed``) and errors walking a sealed directory
    (``errors``). ``ok``: the seal verifies and everything is as sealed.

    >>> import unimac
    >>> r = unimac.ManifestResult(True, [unimac.ManifestFile("a", "OK")], [], [])
    >>> r.ok, unimac.ManifestResult(True, [unimac.ManifestFile("a", "REMOVED")], [], []).ok
    (True, False)
    """

    seal_ok: bool
    files: List[ManifestFile]
    malformed: List[int]
    errors: List[str]

    @property
    def ok(self) -> bool:
        """The seal verifies, every file is ``"OK"``, nothing was added."""
        return self.seal_ok and not self.malformed and not self.errors and all(f.status == "OK" for f in self.files)

    @property
    def renamed(self) -> Dict[str, str]:
        """``{old: new}`` of the files found under another name."""
        out = {}
        for f in self.files:
            if f.status.startswith("RENAMED "):
                out[f.name] = f.status[len("RENAMED ") + len(f.name) + len(" -> ") :]
        return out


def _matches(d: _Desc, k: bytes, path: bytes, e: _Entry) -> Optional[bool]:
    """Whether the file at ``path`` has the entry's size and, under its
    nonce, its tag (``OSError`` if it cannot be read; a nonce the MAC
    refuses does not match)."""
    try:
        st = os.stat(path)
        if stat.S_ISREG(st.st_mode) and st.st_size != e.size:
            return False
    except OSError:
        pass
    try:
        good = _unimac._check_file(d.name, k, os.fsdecode(path), e.tag, e.nonce)
    except ValueError:
        return False
    if not good:
        return False
    try:
        st = os.stat(path)
        return not stat.S_ISREG(st.st_mode) or st.st_size == e.size
    except OSError:
        return True


def _realpath(p) -> Optional[bytes]:
    return os.path.realpath(p) if os.path.exists(p) else None


def verify_manifest(
    manifest,
    key: Union[str, "os.PathLike[str]", Tuple[str, bytes], KeyFile],
    *,
    base_dir=None,
) -> ManifestResult:
    """Check a sealed manifest of :func:`seal` or ``unimac seal`` (its path,
    or its bytes) as ``unimac verify --key-file KEY MANIFEST`` does: the
    seal first (under ``key``, with this key's MAC and fingerprint on line
    1: any changed, added, dropped or reordered line fails it), then each
    listed file as the lines say, even if the seal failed, and for a sealed
    directory the files added under its root (the manifest itself, given by
    path, is not counted) or renamed. Names are opened as written, relative
    ones under ``base_dir`` (default: the current directory).

    ``key``: a key file (its path) or ``(name, key)``; one-time MACs never
    seal (``ValueError``). A manifest sealed with another key, none of whose
    files this key authenticates, raises ``ValueError`` naming both
    fingerprints.

    >>> import unimac, os, tempfile
    >>> os.chdir(tempfile.mkdtemp())
    >>> with open("a.txt", "wb") as f: _ = f.write(b"attack at dawn")
    >>> key = ("hash127-aes", bytes(32))
    >>> m = unimac.seal(["a.txt", "a.txt"], key)
    >>> r = unimac.verify_manifest(m, key); r.seal_ok, r.files[0]
    (True, ManifestFile(name='a.txt', status='OK'))
    >>> unimac.verify_manifest(m.replace(b"a.txt", b"b.txt", 1), key).files[0].status
    'REMOVED'
    """
    mac, k = _key_of(key)
    d = _Desc(mac)
    if d.one_time:
        raise ValueError(f"{mac} is a one-time MAC: no manifest is sealed with it")
    m = _unimac.Mac(mac, k)
    own = None
    if isinstance(manifest, (str, os.PathLike)):
        shown = os.fsdecode(manifest)
        with open(manifest, "rb") as f:
            text = f.read()
        own = _realpath(os.fsencode(manifest))
    else:
        shown = "manifest"
        text = bytes(manifest)
    where = _where(base_dir)

    # The seal, first: the last line over every byte above it, under this
    # key, with this key's MAC and fingerprint on line 1.
    mine = (mac, _fingerprint(mac, k))
    body, last = _split_last_line(text)
    header = _parse_header(text.split(b"\n", 1)[0])
    sealed = d.parse_value(last[5:]) if last is not None and last.startswith(b"seal ") else None
    seal_ok = False
    if header == mine and sealed is not None:
        n, t = sealed
        try:
            if d.pair:
                m.verify(body, n + t)
            else:
                m.verify(body, t, n)
            seal_ok = True
        except ValueError:
            seal_ok = False

    # Then the lines as they are, sealed or not: line 1 the header, line 2
    # perhaps the root, the last one the seal (a seal that is not last is
    # skipped).
    t = text[:-1] if text.endswith(b"\n") else text
    lines = t.split(b"\n") if t else []
    if sealed is not None:
        lines.pop()
    root = _parse_root(lines[1]) if len(lines) > 1 else None
    first = 2 if root is not None else 1
    malformed: List[int] = []
    entries: List[_Entry] = []
    for i in range(first, len(lines)):
        e = _parse_entry(lines[i], d)
        if e is not None:
            entries.append(e)
        elif not lines[i].startswith(b"seal "):
            malformed.append(i + 1)

    found: List[str] = []
    for e in entries:
        path = where(e.name)
        try:
            os.lstat(path)
        except FileNotFoundError:
            found.append("REMOVED")
            continue
        except OSError:
            pass
        try:
            found.append("OK" if _matches(d, k, path, e) else "CHANGED")
        except OSError as x:
            found.append(f"FAILED open or read: {x.strerror or x}")

    # A sealed directory: what is under its root now and not listed.
    added: List[bytes] = []
    errors: List[str] = []
    if root is not None:
        listed = {e.name for e in entries}
        if os.path.isdir(where(root)):
            items: List[Tuple[bytes, Optional[str]]] = []
            _walk(root, where, items)
            for p, err in items:
                if err is not None:
                    errors.append(err)
                elif p not in listed and (own is None or _realpath(where(p)) != own):
                    added.append(p)
        else:
            errors.append(f"root {os.fsdecode(root)}: not a directory now")
        # An added file with a removed file's size and, under its nonce, its
        # tag holds the removed file's content under a new name.
        taken = [False] * len(added)
        for i, e in enumerate(entries):
            if found[i] != "REMOVED":
                continue
            for j, p in enumerate(added):
                if taken[j]:
                    continue
                try:
                    if os.path.getsize(where(p)) != e.size:
                        continue
                    good = _matches(d, k, where(p), e)
                except OSError:
                    continue
                if good:
                    taken[j] = True
                    found[i] = f"RENAMED {os.fsdecode(e.name)} -> {os.fsdecode(p)}"
                    break
        added = [p for p, t in zip(added, taken) if not t]

    # A manifest that does not name this key, none of whose files this key
    # authenticates: the wrong key, not a changed manifest.
    if header is not None and header != mine:
        if not any(f == "OK" or f.startswith("RENAMED ") for f in found):
            their = "" if header[0] == mac else f"a {header[0]} key, "
            raise ValueError(
                f"{shown} was sealed with {their}key fingerprint {header[1]}, not with this key ({mac} key "
                f"fingerprint {mine[1]}): give the key it was sealed with (or its first line was changed)"
            )

    files = [ManifestFile(os.fsdecode(e.name), f) for e, f in zip(entries, found)]
    files += [ManifestFile(os.fsdecode(p), "ADDED") for p in added]
    return ManifestResult(seal_ok, files, malformed, errors)
