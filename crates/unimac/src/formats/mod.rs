//! Every file format of unimac, once, for every front end (the command
//! line and the Python package call these; feature `std`): key files and
//! their one-time spending ([`keyfile`]), sealed manifests ([`manifest`]),
//! authenticated streams ([`stream`]), nonce counter files ([`counter`],
//! also `unimac::counter`) and check lines ([`checkline`]).
//!
//! Each module here is the stable part of its format. The plumbing the two
//! front ends share besides (the keys derived for each purpose, one walk of
//! a tree, the file rules: open only regular files, write whole files or
//! none, a file that changes while it is read is re-read or refused; the
//! lower-level pieces of each format) is `unimac::unstable::formats`
//! (feature `unstable`), with no stability promise.
//!
//! Each format is a construction: one key per purpose (the manifest seal
//! runs under a key derived for it, never the file key), one byte form per
//! value, verifiers that read nothing an unverified list names, writes
//! that leave no half file. docs/WIRE.md gives the bytes, docs/SECURITY.md
//! the reasons.

/// Every format's code, each module `pub` and reachable only through
/// `unimac::unstable::formats`; the modules below name its stable part.
#[cfg_attr(not(feature = "unstable"), allow(dead_code, unused_imports, unreachable_pub))]
#[path = "."]
pub(crate) mod imp {
    #[path = "checkline.rs"]
    pub mod checkline;
    #[path = "counter.rs"]
    pub mod counter;
    #[path = "derive.rs"]
    pub mod derive;
    #[path = "fsio.rs"]
    pub mod fsio;
    #[path = "keyfile.rs"]
    pub mod keyfile;
    #[path = "manifest.rs"]
    pub mod manifest;
    #[path = "messages.rs"]
    pub mod messages;
    #[path = "policy.rs"]
    pub mod policy;
    #[path = "race.rs"]
    pub mod race;
    #[path = "stream.rs"]
    pub mod stream;
    #[path = "walk.rs"]
    pub mod walk;
}
pub(crate) use imp::{fsio, race, walk};

pub mod checkline {
    //! Check lines: what `unimac tag` prints and `unimac verify` reads back,
    //! as `sha256sum` writes them.
    //!
    //! ```text
    //! [NONCE:]TAG  FILE                  (GNU style)
    //! NAME (FILE) = [NONCE:]TAG          (BSD style, `tag --tag`)
    //! ```
    //!
    //! A file name holding a backslash, a control character, a Unicode format
    //! character (general category Cf: the bidirectional controls U+202A to
    //! U+202E and U+2066 to U+2069, the zero-width characters U+200B to U+200F,
    //! U+FEFF, …) or a line or paragraph separator (U+2028, U+2029) is escaped
    //! (`escape_line_name`) and the line then starts with a backslash; with
    //! `-z` a line ends with NUL instead of a newline and the name is written
    //! as it is. A check line is not sealed: whoever can write the check file can
    //! change it, so the tags it lists are only as good as the file's keeping
    //! (a sealed manifest is the format for lists that must not change).
    //!
    //! [`format_line`], [`parse_line`] and their [`Style`] and [`Parsed`] are
    //! the stable API; the escaping helpers are the front ends'.
    //!
    //! ```
    //! use unimac::formats::checkline::{format_line, parse_line, Style};
    //! use unimac::mac::Hash127Aes;
    //!
    //! let mac = Hash127Aes::new(&[7u8; 32]);
    //! let tag = mac.tag(b"attack at dawn");
    //! // The line `unimac tag` prints for a file msg.txt holding that message.
    //! let line = format_line("hash127-aes", b"msg.txt", None, tag.as_bytes(), Style::Gnu, false);
    //! assert_eq!(line, format!("{tag}  msg.txt\n").into_bytes());
    //!
    //! // A line of a SUMS file read back: the file's name and its tag.
    //! let p = parse_line(line.strip_suffix(b"\n").unwrap()).expect("a check line");
    //! assert_eq!(p.file, b"msg.txt");
    //! assert!(mac.verify(b"attack at dawn", &p.tag).is_ok());
    //! ```

    pub use super::imp::checkline::{format_line, parse_line, Parsed, Style};
}

pub mod counter {
    //! The nonce counter file: a crash-safe source of nonces that never repeat
    //! under one key (the command line's `--counter`, the Python package's
    //! `unimac.Counter`). The file holds two lines: what it is bound to, and the
    //! next unused 128-bit counter `c` in decimal:
    //!
    //! ```text
    //! unimac-counter wc-eval128 3f9a…(32 hex digits)
    //! 41
    //! ```
    //!
    //! The first line names the MAC and a fingerprint of its key
    //! ([`Binding`]: the first 16 bytes of SHA-256 over a fixed label, the
    //! MAC's name and the key — it reveals nothing of the key), so a counter
    //! made for another key or MAC is refused rather than handing out nonces
    //! that key already used. A counter file must be a regular file with one
    //! link: with a second hard link the update (a rename over one name) would
    //! leave the other name holding the old value; a FIFO or device is refused
    //! before it is opened. What cannot be detected from the file alone: an
    //! older copy of the same file put back (a backup restored) hands out its
    //! nonces again; never restore a counter file.
    //!
    //! A reservation locks the file, writes the
    //! advanced value to a temporary file (mode and owner of the old one), fsyncs
    //! it, renames it over the old one and fsyncs the directory, all before the
    //! counter is handed out: a process killed at any point can only skip
    //! counters, never hand one out twice.
    //!
    //! Errors: [`crate::Error::Io`] when a file cannot be opened, read, written or
    //! synced, or may not be replaced; [`crate::Error::Invalid`] for a corrupt or
    //! exhausted counter. Each message names the file.

    pub use super::imp::counter::{create, reserve, Binding};
}

pub mod keyfile {
    //! Key files: one key of one MAC (or a secret prime of `modp`), in text.
    //!
    //! ```text
    //! unimac-key hash127-aes
    //! 4f1c…(the key in lower-case hex)
    //! ```
    //!
    //! Written once (mode 0600, whole or not at all: [`KeyFile::write_new`])
    //! and never overwritten; read strictly: exactly these lines, the MAC's
    //! name as `keygen` writes it (without `mac-`), the hex of a key of the
    //! MAC's length in lower case, each line ended by a bare newline (the last
    //! may lack it). Anything else (a CRLF line end, a blank at a line's end,
    //! upper-case hex, a `mac-` prefix) is refused with an error naming the
    //! line and the byte. A bare hex file (the format before the name line) is
    //! refused with the command that converts it.
    //!
    //! **One-time keys.** The key of a one-message MAC (`hash127`,
    //! `hash127-96`) may tag one message. The file records it: the line `spent`
    //! is appended once it has tagged, under an exclusive lock, synced before
    //! the tag is handed out (`OneTimeKeyFile::spend_with`). Every door that
    //! tags with such a key goes through [`OneTimeKeyFile`]; [`KeyFile::read`]
    //! of a one-time key gives a [`KeyFile`] that can check a tag but never
    //! make one ([`KeyFile::mac`] refuses it), and a file marked spent is
    //! refused by [`OneTimeKeyFile::open`].

    pub use super::imp::keyfile::{KeyFile, KeyKind, OneTimeKeyFile};
}

pub mod manifest {
    //! Sealed manifests, version 2: a list of files with their tags and sizes,
    //! sealed as a whole under a key derived for manifests.
    //!
    //! ```text
    //! unimac-manifest 2 hash127-aes 5d3c…(32 hex digits)
    //! root data
    //! 0c901a9006148d3f581b99a9410f54af 15 msg.txt
    //! 77d0…(32 hex digits) 0 sub/empty
    //! seal 1f0e…(32 hex digits)
    //! ```
    //!
    //! - Line 1: `unimac-manifest`, the version `2`, the MAC's name and the
    //!   key's fingerprint ([`crate::counter::Binding`]: it reveals nothing of
    //!   the key), separated by single spaces.
    //! - Line 2: `root DIR` for a sealed directory (`seal -r DIR`: files added
    //!   under it later are reported), or `base DIR` for a list of files. `DIR`
    //!   is where the names below resolve: relative to the directory that holds
    //!   the manifest (or absolute), so a manifest verifies from any working
    //!   directory and a tree moved with its manifest still verifies.
    //! - One line per file: `[NONCE:]TAG SIZE NAME`: the file's tag under the
    //!   key file's key (the tag `unimac tag` prints for it under that nonce),
    //!   its size in decimal (no leading zero) and its name relative to `DIR`:
    //!   no `/` at the start, no empty, `.` or `..` component. Names are sorted
    //!   by walk order and appear once.
    //! - Last line: `seal [NONCE:]TAG`: the MAC of every byte above it under
    //!   the **seal key**, derived from the key file's key for this purpose
    //!   alone (`formats::derive`). A file's tag is never a seal: the seal key
    //!   tags nothing else.
    //!
    //! Names and `DIR` are escaped as in check lines (`\\`, `\n`, `\r`, the
    //! line then starting with a backslash). Every value has one byte form:
    //! lower-case hex, nonces of the MAC's full length, sizes without leading
    //! zeros; any other spelling fails the seal. Every line ends with a newline.
    //!
    //! **Verifying** ([`open`], then [`check_files`]): the first line must name
    //! this key; the seal is checked before anything else is read, and a
    //! manifest whose seal fails lists nothing that is opened. Then each listed
    //! file is stat-ed: missing → REMOVED, not a regular file → never opened,
    //! reported; otherwise its size and tag are compared. Under a `root`, every
    //! file not listed is ADDED (or RENAMED from a removed one whose size and
    //! tag it has), and named pipes, sockets, devices and symbolic links to
    //! directories found there are reported as unexpected.
    //!
    //! **What a seal cannot tell**: an older manifest of the same tree, with
    //! the older files, verifies (replay). Keep the newest manifest where the
    //! files' writer cannot replace it, or compare its date with your records.
    //!
    //! Version 1 manifests were sealed under the file key itself, so the tag of
    //! a file whose content is a manifest body was a valid seal: they are
    //! refused with the command that reseals.

    pub use super::imp::manifest::{check_files, open, seal, Entry, FileCheck, FileReport, Manifest, Nonces, Place, Report, SealError, Sealed, Status};
}

pub mod stream {
    //! Authenticated streams: Bernstein's untrusted channel ("Floating-point
    //! arithmetic and message authentication", §8–9: the sender sends
    //! `(n, m, s)` for the n-th message, the receiver accepts only what
    //! verifies) as a byte stream cut into chunks, each released by the
    //! receiver only once its tag verifies.
    //!
    //! ```text
    //! header:  "UNIMAC-S" | version 1 | name length | MAC name
    //!          | key fingerprint (16) | stream id (16, random) | chunk size (u32 BE)
    //! frame i: flags (1: 0 = more follow, 1 = final) | length (u32 BE) | payload | tag
    //! tag_i  = MAC_{K_id}(nonce_i; header || i (u64 BE) || flags || length || payload)
    //! ```
    //!
    //! - `K_id`, the stream's key: the key file's key derived for streams
    //!   (`formats::derive`, label `unimac stream frames`), then for this
    //!   stream: `HKDF-SHA256(salt = stream id, IKM = K_stream, info = "unimac
    //!   stream id" || 0 || NAME)`. No stream tag is a file tag or a manifest
    //!   seal, and back; two streams share a key only if their random 128-bit
    //!   ids collide (probability at most S²/2^129 for S streams under one key
    //!   file).
    //! - `nonce_i`, for a nonce MAC: the counter value `i` as the MAC's 16-byte
    //!   nonce (the row's byte order): nonces never repeat under `K_id`.
    //!   Stateless MACs take none; `shoup4-*` draws its pair, sent in front of
    //!   the tag. One-time MACs are refused (a stream has many chunks).
    //! - Every frame but the last carries exactly `chunk size` bytes; the last
    //!   (`flags` = 1) carries 0 to `chunk size`. One byte form: any other
    //!   flags, length or trailing byte is refused.
    //! - The header is covered by every tag, so a changed header fails the first
    //!   frame, before any byte is released; a header naming another MAC or
    //!   key fingerprint is refused before any frame is read.
    //!
    //! The receiver ([`Reader`]) releases a chunk's payload only after its tag
    //! verifies, and stops at the first bad, missing, repeated, reordered or
    //! foreign chunk, naming the chunk and the payload offset where it starts;
    //! a stream that ends before its final chunk, or goes on after it, is an
    //! error. [`Writer`] and [`Reader`] are the stream as `io::Write` and
    //! `io::Read` (the front ends drive the byte-to-byte sender and receiver
    //! beneath them directly).
    //!
    //! ```
    //! use std::io::{Read, Write};
    //! use unimac::formats::keyfile::{KeyFile, KeyKind};
    //! use unimac::formats::stream::{Reader, Writer, DEFAULT_CHUNK};
    //!
    //! let key = KeyFile::generate(KeyKind::from_name("hash127-aes")?)?;
    //! let mut w = Writer::new(Vec::new(), &key, DEFAULT_CHUNK)?;
    //! w.write_all(b"authenticated, not encrypted")?;
    //! let wire = w.finish()?;
    //!
    //! let mut r = Reader::new(&wire[..], &key)?;
    //! let mut back = Vec::new();
    //! r.read_to_end(&mut back)?;
    //! assert_eq!(back, b"authenticated, not encrypted");
    //! assert_eq!(r.header().map(|h| h.chunk), Some(DEFAULT_CHUNK));
    //! # Ok::<(), Box<dyn std::error::Error>>(())
    //! ```

    pub use super::imp::stream::{Header, Reader, Writer, DEFAULT_CHUNK};
}
