"""unimac: fast, provably secure message authentication from universal hashing.

Bernstein's hash127, Halevi and Krawczyk's MMH and NMH, Etzel, Patel and
Ramzan's Square Hash, Shoup's evaluation and division hashes, the
Wegman-Carter MACs built on them, UMAC (RFC 4418) and VMAC, by the names of
the wire format, docs/WIRE.md (the same names as the ``unimac`` command
line; :func:`names` and :func:`mac_names` list them). Names are taken in any
case, as :func:`hashlib.new` takes them, and shown in lower case.

Interfaces modelled on :mod:`hmac` and :mod:`hashlib`:

>>> import unimac
>>> key = unimac.keygen("hash127-aes")            # stateless: no nonce
>>> mac = unimac.Mac("hash127-aes", key)          # key set up once
>>> t = mac.tag(b"attack at dawn")
>>> mac.verify(b"attack at dawn", t)              # raises InvalidTag if wrong
>>> h = unimac.new("hash127-aes", key)            # streaming
>>> h.update(b"attack at "); h.update(b"dawn")
>>> unimac.compare_digest(h.digest(), t)
True

One-time MACs (``hash127``, ``hash127-96``) tag once, through
:class:`OneTimeKey` only; every other door refuses them. Nonces never repeat
silently: a :class:`Counter` is bound to its MAC and key.

Messages are any C-contiguous buffer (bytes, bytearray, memoryview, numpy
arrays), read in place; inputs of 2 KiB or more are hashed with the GIL
released.

The CLI's files: key files (:func:`load_key`, :func:`save_key`), check
lines (:func:`format_check_line`, :func:`parse_check_line`,
:func:`verify_check_file`), sealed manifests (:func:`seal`,
:func:`verify_manifest`) and nonce counters (:class:`Counter`).

A long message can be hashed in pieces on other processes or machines
(:func:`partial_hash`, :func:`partial_combine`, then :func:`finish_mac` where
the whole key is); :mod:`unimac.dask` does that over a Dask cluster.
"""

from ._unimac import (
    __version__,
    GIL_RELEASE_BYTES,
    Bound,
    Counter,
    InvalidTag,
    StreamError,
    Mac,
    OneTimeKey,
    SecretPrime,
    UnimacHash,
    bound,
    compare_digest,
    compute,
    finish_hash,
    finish_mac,
    granularity,
    hash_key,
    info,
    keygen,
    known_answer,
    mac_names,
    max_threads,
    names,
    new,
    partial_combine,
    partial_hash,
    partial_info,
    partial_names,
    set_max_threads,
    tag,
    verify,
)

from ._files import (
    CheckLine,
    CheckResult,
    KeyFile,
    format_check_line,
    load_key,
    parse_check_line,
    save_key,
    verify_check_file,
)

from ._seal import ManifestFile, ManifestResult, ManifestStatus, seal, verify_manifest


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
