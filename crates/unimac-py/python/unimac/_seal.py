"""Sealed manifests of the ``unimac`` command line, from Python.

:func:`seal` writes the bytes ``unimac seal`` writes, and
:func:`verify_manifest` checks a manifest as ``unimac verify`` does: the
format and every rule of its check are the library's (docs/WIRE.md, "Sealed
manifests")::

    unimac-manifest 2 hash127-aes fa40c05791463acd2d7791cc3fe15ebf
    root d
    1adc1ed5abe5bb30e779c42387f38ab9 6 a
    d2a5255f3fa2f66f6e32b33149c8e896 1 c
    seal 3625f331015227d9707531b22f68b1f7

Line 1 names the MAC and the key's fingerprint (it reveals nothing of the
key); line 2 where the names resolve (``root DIR`` for a sealed directory,
``base DIR`` for a list of files; relative to the manifest's own
directory); then ``[NONCE:]TAG SIZE NAME`` per file; and last ``seal
[NONCE:]TAG``, the MAC of every byte above it under a key derived from the
key file's key for manifests alone, so that no file's tag is ever a seal.
"""

from __future__ import annotations

import enum
import os
from collections import namedtuple as _namedtuple

# The annotations' names, for type checkers only: with `from __future__
# import annotations` no annotation is evaluated, and importing typing
# would cost more than the rest of `import unimac`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, List, Optional, Tuple, Union

from . import _unimac
from ._files import KeyFile

__all__ = ["ManifestFile", "ManifestResult", "ManifestStatus", "seal", "verify_manifest"]


def _key_args(key, sealing: bool) -> Tuple[Optional[str], Optional[str], Optional[bytes]]:
    """``(key_path, name, key)`` for the library: a key file's path, or a
    ``(name, key)`` pair (a :class:`KeyFile` is one). A :class:`OneTimeKey`
    is refused with the library's text for a seal (``sealing``) or a
    check."""
    if isinstance(key, tuple):
        return None, key[0], bytes(key[1])
    if isinstance(key, _unimac.OneTimeKey):
        raise ValueError(_unimac._msg_one_time_manifest(key.name, sealing))
    return os.fspath(key), None, None


def seal(
    paths_or_dir,
    key: Union[str, "os.PathLike[str]", Tuple[str, bytes], KeyFile],
    *,
    name: Optional[str] = None,
    counter=None,
    random_nonce: bool = False,
    recursive: bool = False,
    allow_weak: bool = False,
    output: Union[str, "os.PathLike[str]", None] = None,
) -> bytes:
    """The sealed manifest of files, byte for byte as ``unimac seal`` writes
    it: a list of paths (sealed in that order; a single path is one file),
    or with ``recursive=True`` one directory (``unimac seal -r DIR``: its
    tree, sorted, so that :func:`verify_manifest` also finds files added
    later). With ``output``, the manifest is also written there as
    ``unimac seal -o`` writes it (a new file, whole or not at all); its
    names then resolve from that file's directory (without it, from the
    current directory, where the manifest should be kept).

    ``key``: a key file (its path) or ``(name, key)``; ``name``, if given,
    must be the key's MAC. A nonce MAC takes one nonce per file and one for
    the seal, from ``counter`` (a :class:`Counter` or the path of the key's
    counter file: files + 1 values reserved, durably, before any tag) or,
    with ``random_nonce=True``, at random (the MAC's full nonce length). A
    stateless MAC takes neither; one-time MACs cannot seal (``ValueError``).
    A MAC that is weak for this use is refused as ``unimac seal`` refuses it
    (``allow_weak=True``: seal anyway). A file that cannot be read raises
    its ``OSError``; a named pipe, socket or device is refused unopened.

    >>> import unimac, os, tempfile
    >>> os.chdir(tempfile.mkdtemp())
    >>> os.mkdir("d")
    >>> with open("d/a", "wb") as f: _ = f.write(b"alpha")
    >>> key = ("hash127-aes", bytes(32))
    >>> m = unimac.seal("d", key, recursive=True)
    >>> m.splitlines()[:3]
    [b'unimac-manifest 2 hash127-aes 6b2c276b70604b235ee8441e4473a160', b'root d', b'ed952724f37a1477fd7542284fe067b2 5 a']
    >>> unimac.verify_manifest(m, key).ok
    True
    """
    key_path, key_name, key_bytes = _key_args(key, True)
    if isinstance(paths_or_dir, (str, bytes, os.PathLike)):
        given = [paths_or_dir]
    else:
        given = list(paths_or_dir)
    paths = [os.fsdecode(p) for p in given]
    if counter is not None and isinstance(counter, _unimac.Counter):
        counter = counter.path
    return _unimac._seal(
        paths,
        recursive,
        key_path,
        key_name,
        key_bytes,
        name,
        None if counter is None else os.fspath(counter),
        random_nonce,
        allow_weak,
        None if output is None else os.fspath(output),
    )


class ManifestStatus(str, enum.Enum):
    """What became of a file of a sealed manifest (a ``str``: compares
    equal to its name).

    >>> import unimac
    >>> unimac.ManifestStatus.RENAMED == "RENAMED", str(unimac.ManifestStatus.OK)
    (True, 'OK')
    """

    OK = "OK"
    """Same size and tag."""
    CHANGED = "CHANGED"
    """Another size or tag, or no longer a regular file (never opened)."""
    REMOVED = "REMOVED"
    """Listed, and gone."""
    ADDED = "ADDED"
    """Under a sealed directory, not listed."""
    RENAMED = "RENAMED"
    """Gone, and its content found under a new name (``new_name``)."""
    FAILED = "FAILED"
    """Could not be read (``detail`` says why)."""
    UNEXPECTED = "UNEXPECTED"
    """A named pipe, socket, device or link to a directory under a sealed
    directory (``detail`` says which)."""

    def __str__(self) -> str:
        return self.value


class ManifestFile(_namedtuple("ManifestFile", ["name", "status", "new_name", "detail"], defaults=(None, None), module=__name__)):
    """One file of :func:`verify_manifest`: its path as looked for (``str``,
    as ``os.fsdecode`` gives it; relative to where the manifest is, as
    ``unimac verify`` prints it), its :class:`ManifestStatus`, for a rename
    the new path, and a ``detail`` where the status needs one.

    >>> import unimac
    >>> unimac.ManifestFile("d/a", unimac.ManifestStatus.OK).status == "OK"
    True
    """

    __slots__ = ()

    name: str
    status: ManifestStatus
    new_name: Optional[str]
    detail: Optional[str]


class ManifestResult(_namedtuple("ManifestResult", ["seal_ok", "files", "errors"], module=__name__)):
    """What :func:`verify_manifest` found: whether the seal verifies
    (``seal_ok``; when it does not, no listed file was read and ``files`` is
    empty), each listed file, then each added or unexpected one
    (:class:`ManifestFile`), and errors walking a sealed directory
    (``errors``). ``ok``: the seal verifies and everything is as sealed.

    >>> import unimac
    >>> r = unimac.ManifestResult(True, [unimac.ManifestFile("a", unimac.ManifestStatus.OK)], [])
    >>> r.ok, unimac.ManifestResult(False, [], []).ok
    (True, False)
    """

    __slots__ = ()

    seal_ok: bool
    files: List[ManifestFile]
    errors: List[str]

    @property
    def ok(self) -> bool:
        """The seal verifies, every file is ``OK``, nothing was added."""
        return self.seal_ok and not self.errors and all(f.status == ManifestStatus.OK for f in self.files)

    @property
    def renamed(self) -> Dict[str, str]:
        """``{old: new}`` of the files found under another name."""
        return {f.name: f.new_name for f in self.files if f.status == ManifestStatus.RENAMED and f.new_name is not None}


def verify_manifest(
    manifest,
    key: Union[str, "os.PathLike[str]", Tuple[str, bytes], KeyFile],
    *,
    base_dir=None,
    root=None,
) -> ManifestResult:
    """Check a sealed manifest of :func:`seal` or ``unimac seal`` (its path,
    or its bytes) as ``unimac verify --key-file KEY MANIFEST`` does: the
    seal first (under the key derived for manifests, with this key's MAC and
    fingerprint on line 1: any changed, added, dropped or reordered line, or
    another spelling of a value, fails it, and then nothing it lists is
    read), then each listed file, and for a sealed directory the files
    added under it (the manifest itself, given by path, is not counted),
    renamed, or unexpected (named pipes and devices are never opened).
    Names resolve against the directory the manifest records, relative to
    the manifest's own directory (``base_dir`` for a manifest given as
    bytes; default: the current directory). ``root=DIR`` checks the files
    under ``DIR`` instead, wherever the manifest records them (a tree
    restored or copied elsewhere; ``unimac verify --root DIR``). A sealed
    directory that is missing raises ``ValueError`` (one message naming
    where it was looked for; nothing is checked), as ``unimac verify``
    exits 2.

    ``key``: a key file (its path) or ``(name, key)``; one-time MACs never
    seal (``ValueError``). A manifest sealed with another key raises
    ``ValueError`` naming both fingerprints; a version 1 manifest (which
    could be forged) raises ``ValueError`` with the command that reseals.

    >>> import unimac, os, tempfile
    >>> os.chdir(tempfile.mkdtemp())
    >>> with open("a.txt", "wb") as f: _ = f.write(b"attack at dawn")
    >>> key = ("hash127-aes", bytes(32))
    >>> m = unimac.seal(["a.txt"], key)
    >>> r = unimac.verify_manifest(m, key); r.seal_ok, r.files[0].name, r.files[0].status
    (True, 'a.txt', <ManifestStatus.OK: 'OK'>)
    >>> unimac.verify_manifest(m.replace(b"a.txt", b"b.txt", 1), key).seal_ok
    False
    """
    key_path, key_name, key_bytes = _key_args(key, False)
    path = None
    text: Optional[bytes] = None
    if isinstance(manifest, (str, os.PathLike)):
        # Read by the library: a regular file only (a named pipe or device is
        # refused unopened), of bounded size.
        path = os.fspath(manifest)
    else:
        text = bytes(manifest)
    seal_ok, rows, added, unexpected, errors = _unimac._verify_manifest(
        text,
        path,
        None if base_dir is None else os.fspath(base_dir),
        key_path,
        key_name,
        key_bytes,
        None if root is None else os.fspath(root),
    )
    files = [
        ManifestFile(
            os.fsdecode(shown),
            ManifestStatus(status),
            None if new is None else os.fsdecode(new),
            detail,
        )
        for _name, shown, status, new, detail in rows
    ]
    files += [ManifestFile(os.fsdecode(p), ManifestStatus.ADDED) for p in added]
    files += [ManifestFile(os.fsdecode(p), ManifestStatus.UNEXPECTED, None, what) for p, what in unexpected]
    return ManifestResult(seal_ok, files, errors)
