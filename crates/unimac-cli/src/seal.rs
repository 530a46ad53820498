//! `unimac seal`: a sealed manifest of files or of a directory tree, and its
//! check by `unimac verify` (docs/WIRE.md §9.6).
//!
//! A manifest lists, for each file, its tag and size, and ends with a tag of
//! the whole manifest above it (the seal), so that neither a file nor the
//! list itself can be changed unnoticed: a changed, added, dropped or
//! reordered line, another MAC name or key fingerprint, or a cut-off seal
//! fails the seal.
//!
//! ```text
//! unimac-manifest 1 hash127-aes 5d3c…(32 hex digits)
//! root data
//! 0c901a9006148d3f581b99a9410f54af 15 data/msg.txt
//! 77d0…(32 hex digits) 0 data/sub/empty
//! seal 1f0e…(32 hex digits)
//! ```
//!
//! - Line 1: `unimac-manifest`, the format version `1`, the MAC's name and
//!   the key's fingerprint (`unimac::counter::Binding`: 32 hex digits of
//!   SHA-256 over a label, the name and the key; it reveals nothing of the
//!   key), separated by single spaces.
//! - Line 2, only for a sealed directory (`seal -r DIR`): `root DIR`, so
//!   that `verify` can find files added under it later.
//! - One line per file: `[NONCE:]TAG SIZE NAME` — the tag as in a check line
//!   of `unimac tag` (for `shoup4-*` its pair where the nonce goes), the
//!   size in bytes in decimal, and the name as given (under `-r`, the walk's
//!   order: sorted by name, directory by directory). Names (and the root)
//!   are escaped as in check lines: `\`, newline and carriage return as
//!   `\\`, `\n` and `\r`, and the line then starts with a backslash.
//! - Last line: `seal [NONCE:]TAG`, the MAC of every byte above it.
//!
//! Every line ends with a newline. Nonce MACs take their nonces from the
//! key's counter file (one per file, then the seal's) or at random; one-time
//! MACs cannot seal (a manifest needs many tags).
//!
//! `verify` checks the seal first (`manifest: SEAL OK` or `manifest: SEAL
//! FAILED`), then each file: `NAME: OK`, `NAME: CHANGED` (tag or size),
//! `NAME: REMOVED`; for a sealed directory also `NAME: ADDED` (under the
//! root, not listed) and `OLD -> NEW: RENAMED` (an added file with the size
//! and, under the removed file's nonce, the tag of a removed one).
//!
//! The functions below are small and independent of the command line where
//! they can be (the line formats, the seal's MAC), so that other front ends
//! can use them.

use std::collections::HashSet;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use unimac::counter::Binding;
use unimac::macs::{Framing, MacDesc};
use unimac::registry::{self, NamedMac};

use crate::keyfile;
use crate::mac_cmd::{self, FileList, VerifyOpts};
use crate::names::{cite, mac_key_spec, resolve_mac};
use crate::split::{Counted, SplitMac};
use crate::Fail;

/// The first word of a manifest.
pub const MAGIC: &str = "unimac-manifest";
/// The format version this build writes and reads.
pub const VERSION: &str = "1";

// ---------------------------------------------------------------------------
// Lines
// ---------------------------------------------------------------------------

/// `[NONCE:]TAG` in lowercase hex.
pub fn value_hex(nonce: Option<&[u8]>, tag: &[u8]) -> String {
    match nonce {
        Some(n) => format!("{}:{}", hex::encode(n), hex::encode(tag)),
        None => hex::encode(tag),
    }
}

/// Line 1: `unimac-manifest 1 MAC FINGERPRINT` for `key` of `desc`.
pub fn header_line(desc: &'static MacDesc, key: &[u8]) -> Vec<u8> {
    let fp = Binding::new(desc, key).fingerprint_hex();
    format!("{MAGIC} {VERSION} {} {fp}\n", desc.name).into_bytes()
}

/// `prefix` and an escaped name, a newline; a leading backslash if escaped.
fn named_line(prefix: &[u8], name: &[u8]) -> Vec<u8> {
    let (esc, name) = mac_cmd::escape_name(name);
    let mut out = Vec::with_capacity(prefix.len() + name.len() + 2);
    if esc {
        out.push(b'\\');
    }
    out.extend_from_slice(prefix);
    out.extend_from_slice(&name);
    out.push(b'\n');
    out
}

/// Line 2 of a sealed directory: `root DIR`.
pub fn root_line(dir: &[u8]) -> Vec<u8> {
    named_line(b"root ", dir)
}

/// A file's line: `[NONCE:]TAG SIZE NAME`.
pub fn entry_line(nonce: Option<&[u8]>, tag: &[u8], size: u64, name: &[u8]) -> Vec<u8> {
    named_line(format!("{} {size} ", value_hex(nonce, tag)).as_bytes(), name)
}

/// The last line: `seal [NONCE:]TAG`.
pub fn seal_line(nonce: Option<&[u8]>, tag: &[u8]) -> Vec<u8> {
    format!("seal {}\n", value_hex(nonce, tag)).into_bytes()
}

/// Line 1 as read: the MAC's name and the key's fingerprint (hex).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub mac: String,
    pub fingerprint: String,
}

/// Parse line 1 (without its newline) strictly; `None` if malformed.
pub fn parse_header(line: &[u8]) -> Option<Header> {
    let s = std::str::from_utf8(line).ok()?;
    let mut w = s.split(' ');
    let (magic, version, mac, fp) = (w.next()?, w.next()?, w.next()?, w.next()?);
    let fp_ok = fp.len() == 32 && fp.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
    (w.next().is_none() && magic == MAGIC && version == VERSION && !mac.is_empty() && fp_ok)
        .then(|| Header { mac: mac.to_string(), fingerprint: fp.to_string() })
}

/// A line after the `[\]` of an escaped line: whether it was escaped, and
/// the rest.
fn strip_escape(line: &[u8]) -> (bool, &[u8]) {
    match line.strip_prefix(b"\\") {
        Some(rest) => (true, rest),
        None => (false, line),
    }
}

/// A name as written in a line, unescaped; `None` if empty or badly escaped.
fn read_name(escaped: bool, name: &[u8]) -> Option<Vec<u8>> {
    let name = if escaped { mac_cmd::unescape_name(name)? } else { name.to_vec() };
    (!name.is_empty()).then_some(name)
}

/// The directory of a `root DIR` line, or `None` if it is not one.
pub fn parse_root(line: &[u8]) -> Option<Vec<u8>> {
    let (esc, rest) = strip_escape(line);
    read_name(esc, rest.strip_prefix(b"root ")?)
}

/// One file's line as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The nonce (for `shoup4-*` the pair), if the MAC has one.
    pub nonce: Option<Vec<u8>>,
    pub tag: Vec<u8>,
    pub size: u64,
    pub name: Vec<u8>,
}

/// `[NONCE:]TAG` for the MAC `desc`, strictly (the lengths it takes).
pub fn parse_value(value: &[u8], desc: &MacDesc) -> Option<(Option<Vec<u8>>, Vec<u8>)> {
    let value = std::str::from_utf8(value).ok()?;
    mac_cmd::decode_value(value, desc.nonce.min()..=desc.nonce.max(), desc.tag)
}

/// Parse a file's line (without its newline) for the MAC `desc`; `None` if
/// malformed.
pub fn parse_entry(line: &[u8], desc: &MacDesc) -> Option<Entry> {
    let (esc, rest) = strip_escape(line);
    let sp = rest.iter().position(|&c| c == b' ')?;
    let (value, rest) = (&rest[..sp], &rest[sp + 1..]);
    let sp = rest.iter().position(|&c| c == b' ')?;
    let (size, name) = (&rest[..sp], &rest[sp + 1..]);
    // Decimal, no sign, no leading zero: one spelling per size.
    if size.is_empty() || !size.iter().all(u8::is_ascii_digit) || (size.len() > 1 && size[0] == b'0') {
        return None;
    }
    let size: u64 = std::str::from_utf8(size).ok()?.parse().ok()?;
    let (nonce, tag) = parse_value(value, desc)?;
    Some(Entry { nonce, tag, size, name: read_name(esc, name)? })
}

/// The value of a `seal [NONCE:]TAG` line for `desc`, or `None`.
pub fn parse_seal(line: &[u8], desc: &MacDesc) -> Option<(Option<Vec<u8>>, Vec<u8>)> {
    parse_value(line.strip_prefix(b"seal ")?, desc)
}

/// A manifest split into what the seal covers (every byte before the last
/// line) and its last line (without its newline); `None` for the last line
/// if the text does not end with a newline.
pub fn split_last_line(text: &[u8]) -> (&[u8], Option<&[u8]>) {
    let Some(t) = text.strip_suffix(b"\n") else {
        return (text, None);
    };
    let start = t.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    (&text[..start], Some(&t[start..]))
}

// ---------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------

/// A tag as a line shows it: (nonce or pair, tag) from what the MAC sends
/// under `nonce` (`shoup4-*` sends `r ‖ s ‖ tag`).
fn line_value(desc: &MacDesc, nonce: Option<Vec<u8>>, sent: Vec<u8>) -> (Option<Vec<u8>>, Vec<u8>) {
    match desc.framing {
        Framing::PairThenTag => {
            let (rs, t) = sent.split_at(desc.nonce.max());
            (Some(rs.to_vec()), t.to_vec())
        }
        Framing::Tag => (nonce, sent),
    }
}

/// The tag of `data` under `nonce` (none for `shoup4-*`, which draws its
/// pair): (nonce or pair, tag) as a line shows them. This is the seal of a
/// manifest whose text above the seal line is `data`.
pub fn tag_bytes(m: &NamedMac, nonce: Option<Vec<u8>>, data: &[u8]) -> Result<(Option<Vec<u8>>, Vec<u8>), Fail> {
    let mut p = m.start_deferred().map_err(|e| Fail(cite(&e.to_string())))?;
    p.update(data);
    let sent = p.finalize(nonce.as_deref()).map_err(|e| Fail(cite(&e.to_string())))?;
    Ok(line_value(m.desc(), nonce, sent))
}

/// Whether `tag` under `nonce` (for `shoup4-*` the pair) is the tag of
/// `data`: the check of a seal. A nonce the MAC refuses does not verify.
pub fn check_bytes(m: &NamedMac, nonce: Option<&[u8]>, tag: &[u8], data: &[u8]) -> bool {
    let Ok(mut s) = m.start_check(nonce) else { return false };
    s.update(data);
    s.finalize().is_ok_and(|got| unimac::tag::verify_tag(&got, tag).is_ok())
}

/// What a file holds now, against a line: `Ok(Some(true))` if its size and
/// tag under the line's nonce match, `Ok(Some(false))` if not,
/// `Ok(None)` if the line's nonce is one the MAC refuses, `Err` if the
/// file cannot be read.
fn check_file(m: &NamedMac, split: Option<&SplitMac>, path: &Path, e: &Entry) -> Result<Option<bool>, String> {
    // A regular file of another size has changed: no need to read it.
    if std::fs::metadata(path).is_ok_and(|md| md.is_file() && md.len() != e.size) {
        return Ok(Some(false));
    }
    let Ok(mut s) = m.start_check(e.nonce.as_deref()) else { return Ok(None) };
    let mut counted = Counted { inner: &mut s, bytes: 0 };
    let whole = mac_cmd::feed_split(path, split, &mut counted).map_err(|Fail(e)| mac_cmd::per_file(e))?;
    let mut size = counted.bytes;
    let got = match (split, whole) {
        (Some(sp), Some(w)) => {
            size = w.len();
            sp.finish(e.nonce.as_deref(), &w).map_err(|Fail(e)| e)?
        }
        _ => s.finalize().map_err(|e| cite(&e.to_string()))?,
    };
    Ok(Some(size == e.size && unimac::tag::verify_tag(&got, &e.tag).is_ok()))
}

// ---------------------------------------------------------------------------
// seal
// ---------------------------------------------------------------------------

/// Options of `seal`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SealOpts<'a> {
    /// The key's counter file (nonce MACs).
    pub counter: Option<&'a Path>,
    /// Random nonces of the MAC's full length instead of a counter.
    pub random_nonce: bool,
    /// Seal the tree under this directory (`-r DIR`).
    pub root: Option<&'a Path>,
    /// `--files-from FILE` and `-0`.
    pub files_from: Option<&'a Path>,
    pub zero: bool,
    /// Write the manifest to this new file (stdout when absent).
    pub output: Option<&'a Path>,
    /// Seal with a MAC that is weak for this use (as `tag --allow-weak`).
    pub allow_weak: bool,
}

/// Where the nonces of a sealing come from.
enum Nonces {
    /// None (stateless MACs; `shoup4-*` draws its pair).
    None,
    /// The next counter value reserved.
    Counter(u128),
    /// Random, full length.
    Random,
}

impl Nonces {
    fn next(&mut self, desc: &MacDesc) -> Result<Option<Vec<u8>>, Fail> {
        match self {
            Nonces::None => Ok(None),
            Nonces::Counter(c) => {
                let n = mac_cmd::counter_nonce(desc, *c)?;
                *c += 1;
                Ok(Some(n))
            }
            Nonces::Random => {
                let mut n = vec![0u8; desc.nonce.max()];
                getrandom::fill(&mut n)
                    .map_err(|e| Fail(format!("the operating system's random generator failed: {e}")))?;
                desc.fix_random_nonce(&mut n);
                Ok(Some(n))
            }
        }
    }
}

/// The file standard output writes to, if it is a regular file (so that
/// `seal -r DIR > DIR/MANIFEST` does not seal its own manifest).
#[cfg(unix)]
fn stdout_file() -> Option<(u64, u64)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
    let m = std::fs::File::from(fd).metadata().ok()?;
    m.is_file().then(|| (m.dev(), m.ino()))
}

#[cfg(unix)]
fn is_file_id(p: &Path, id: Option<(u64, u64)>) -> bool {
    use std::os::unix::fs::MetadataExt;
    id.is_some_and(|id| std::fs::metadata(p).is_ok_and(|m| (m.dev(), m.ino()) == id))
}

/// A message on stderr, its control characters escaped.
fn warn(e: &str) {
    eprintln!("unimac: {}", crate::input::clean_msg(e));
}

/// A file hashed for `seal`: its message state, bytes and (hashed in
/// stripes) whole partial; or why not.
enum Hashed {
    Done(Box<(registry::Pending, u64, Option<unimac::partial::Partial>)>),
    /// A regular file of `input::SPLIT_MIN` bytes or more, left by a
    /// worker to the main thread.
    Big,
    Unreadable(String),
    Fatal(Fail),
}

/// `unimac seal --key-file K [--counter C | --random-nonce] [-r DIR | FILE...
/// | --files-from F [-0]] [-o MANIFEST]`: `Ok(false)` (and no manifest) if
/// some file could not be read.
pub fn seal(key_file: &Path, opts: SealOpts<'_>, files: &[PathBuf]) -> Result<bool, Fail> {
    let (name, key) = keyfile::read_named_key(key_file)?;
    let desc = registry::desc(&name).map_err(|_| Fail(format!("key file {}: a {name} key is not a MAC key", key_file.display())))?;
    if desc.one_time {
        return Err(Fail(format!(
            "{name} is a one-time MAC (one message per key), but a manifest needs a tag per file and one for its seal; seal with a reusable MAC such as hash127-aes"
        )));
    }
    let pair = desc.framing == Framing::PairThenTag;
    let mut nonces = match (desc.takes_nonce(), opts.counter, opts.random_nonce) {
        (_, Some(_), true) => return Err(Fail("give one of --counter and --random-nonce, not both".into())),
        (false, None, false) => Nonces::None,
        (false, _, _) if pair => {
            return Err(Fail(format!("{name} is stateless: r || s is drawn at random for every message (no --counter or --random-nonce)")))
        }
        (false, _, _) => return Err(Fail(format!("{name} takes no nonce (no --counter or --random-nonce)"))),
        (true, None, false) => {
            return Err(Fail(format!("{name} needs nonces: give --counter FILE (the key's counter) or --random-nonce")))
        }
        (true, Some(_), false) => Nonces::Counter(0),
        (true, None, true) => Nonces::Random,
    };
    if let Some(o) = opts.output {
        if o.exists() {
            return Err(Fail(format!("{} already exists; not overwriting it", o.display())));
        }
    }
    if key_file.as_os_str() == "-" && opts.files_from.is_some_and(|f| f.as_os_str() == "-") {
        return Err(Fail("stdin ('-') cannot be both the key file and the list of files".into()));
    }
    let items = match opts.root {
        Some(root) => {
            if !files.is_empty() || opts.files_from.is_some() {
                return Err(Fail("-r DIR seals one directory: no FILE or --files-from with it".into()));
            }
            if !std::fs::metadata(root).is_ok_and(|m| m.is_dir()) {
                return Err(Fail(format!("-r {}: not a directory", root.display())));
            }
            let list = FileList { recursive: true, files_from: None, zero: false };
            mac_cmd::collect_files(&[root.to_path_buf()], list)?
        }
        None => {
            if files.is_empty() && opts.files_from.is_none() {
                return Err(Fail("nothing to seal: give FILE..., -r DIR or --files-from FILE".into()));
            }
            let list = FileList { recursive: false, files_from: opts.files_from, zero: opts.zero };
            mac_cmd::collect_files(files, list)?
        }
    };
    if items.iter().any(|(p, _)| p.as_os_str() == "-") {
        return Err(Fail("stdin ('-') cannot be sealed: a manifest names files to check later".into()));
    }
    #[cfg(unix)]
    let items = {
        let out = stdout_file().filter(|_| opts.output.is_none());
        items.into_iter().filter(|(p, _)| !is_file_id(p, out)).collect::<Vec<_>>()
    };
    // Every file is found before any nonce is reserved.
    let mut failed = false;
    for (p, e) in &items {
        let why: Option<String> = e.clone().or_else(|| {
            std::fs::metadata(p).err().map(|x| format!("{}: {}", p.display(), crate::input::io_msg(&x)))
        });
        if let Some(why) = why {
            warn(&why);
            failed = true;
        }
    }
    if failed {
        warn("no manifest written");
        return Ok(false);
    }
    if !opts.allow_weak {
        mac_cmd::check_strength(&name, &items, opts.random_nonce)?;
    }
    let m = NamedMac::new(&name, &key).map_err(|e| Fail(cite(&e.to_string())))?;
    // Big files in stripes on all allowed cores (crate::split).
    let split = SplitMac::new(&name, &key);
    if let (Some(c), Nonces::Counter(first)) = (opts.counter, &mut nonces) {
        // One nonce per file and one for the seal, durable before any tag.
        *first = keyfile::reserve(c, items.len() as u128 + 1, &Binding::new(desc, &key))?;
    }
    let mut text = header_line(desc, &key);
    if let Some(root) = opts.root {
        text.extend_from_slice(&root_line(&mac_cmd::path_bytes(root)));
    }
    // Each file in order: its nonce, its tag, its entry (a file that cannot
    // be read takes no nonce, and then no manifest is written).
    let mut emit = |p: &Path, hashed: Hashed| -> Result<(), Fail> {
        let (pending, mut size, whole) = match hashed {
            Hashed::Done(d) => *d,
            Hashed::Unreadable(e) => {
                warn(&mac_cmd::per_file(e));
                failed = true;
                return Ok(());
            }
            Hashed::Fatal(e) => return Err(e),
            Hashed::Big => return Err(Fail(format!("{}: not hashed", crate::input::shown(Some(p))))),
        };
        let nonce = nonces.next(desc)?;
        let sent = match (&split, whole) {
            (Some(sp), Some(w)) => {
                size = w.len();
                sp.finish(nonce.as_deref(), &w)?
            }
            _ => pending.finalize(nonce.as_deref()).map_err(|e| Fail(cite(&e.to_string())))?,
        };
        let (n, t) = line_value(desc, nonce, sent);
        text.extend_from_slice(&entry_line(n.as_deref(), &t, size, &mac_cmd::path_bytes(p)));
        Ok(())
    };
    // A file hashed on this thread (a big one in stripes on every core).
    let hash_here = |p: &Path| -> Hashed {
        let mut pending = match m.start_deferred() {
            Ok(x) => x,
            Err(e) => return Hashed::Fatal(Fail(cite(&e.to_string()))),
        };
        let mut counted = Counted { inner: &mut pending, bytes: 0 };
        let read = mac_cmd::feed_split(p, split.as_ref(), &mut counted);
        let size = counted.bytes;
        match read {
            Ok(whole) => Hashed::Done(Box::new((pending, size, whole))),
            Err(Fail(e)) => Hashed::Unreadable(e),
        }
    };
    let threads = crate::split::allowed_threads();
    if threads < 2 || items.len() < 2 {
        for (p, _) in &items {
            emit(p, hash_here(p))?;
        }
    } else {
        // Small files on the workers, results in order (as `tag`: a big
        // file, which a worker leaves, is hashed here in stripes on every
        // core).
        let work = |i: usize| -> (usize, Hashed) {
            let mut pending = match m.start_deferred() {
                Ok(x) => x,
                Err(e) => return (i, Hashed::Fatal(Fail(cite(&e.to_string())))),
            };
            let mut size = 0u64;
            let read = crate::input::read_below(&items[i].0, crate::input::SPLIT_MIN, |d| {
                size += d.len() as u64;
                pending.update(d)
            });
            (i, match read {
                Ok(true) => Hashed::Done(Box::new((pending, size, None))),
                Ok(false) => Hashed::Big,
                Err(Fail(e)) => Hashed::Unreadable(e),
            })
        };
        let mut take = |(i, h): (usize, Hashed)| -> Result<(), Fail> {
            let p = &items[i].0;
            let h = match h {
                Hashed::Big => hash_here(p),
                h => h,
            };
            emit(p, h)
        };
        crate::pool::run(threads, threads * crate::pool::WINDOW_PER_THREAD, &work, |pool| -> Result<(), Fail> {
            for i in 0..items.len() {
                while !pool.has_room() {
                    if let Some(r) = pool.next()? {
                        take(r)?;
                    }
                }
                pool.push(i, false);
                while let Some(r) = pool.try_next()? {
                    take(r)?;
                }
            }
            while let Some(r) = pool.next()? {
                take(r)?;
            }
            Ok(())
        })?;
    }
    if failed {
        warn("no manifest written");
        return Ok(false);
    }
    let nonce = nonces.next(desc)?;
    let (n, t) = tag_bytes(&m, nonce, &text)?;
    text.extend_from_slice(&seal_line(n.as_deref(), &t));
    match opts.output {
        Some(o) => write_new(o, &text)?,
        None => {
            let mut out = io::stdout().lock();
            out.write_all(&text)?;
            out.flush()?;
        }
    }
    Ok(true)
}

/// Write a new file (never over an existing one), synced; removed again if
/// the write fails.
fn write_new(path: &Path, text: &[u8]) -> Result<(), Fail> {
    let shown = path.display();
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            Fail(format!("{shown} already exists; not overwriting it"))
        } else {
            Fail(format!("cannot create {shown}: {}", crate::input::io_msg(&e)))
        }
    })?;
    if let Err(e) = f.write_all(text).and_then(|_| f.sync_all()) {
        drop(f);
        let _ = std::fs::remove_file(path);
        return Err(Fail(format!("cannot write {shown}: {}", crate::input::io_msg(&e))));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// verify
// ---------------------------------------------------------------------------

/// Whether the file at `path` (not stdin) starts as a manifest does.
pub fn is_manifest(path: &Path) -> bool {
    if path.as_os_str() == "-" {
        return false;
    }
    let Ok(f) = std::fs::File::open(path) else { return false };
    let want = format!("{MAGIC} ");
    let mut head = Vec::with_capacity(want.len());
    f.take(want.len() as u64).read_to_end(&mut head).is_ok() && head == want.as_bytes()
}

/// What became of one listed file.
#[derive(Debug)]
enum Found {
    Ok,
    Changed,
    Removed,
    /// Found under another name (an added file).
    Renamed(Vec<u8>),
    /// Could not be read: why.
    Unreadable(String),
}

/// A name as `verify` shows it: escaped as in a line, and every other
/// control character as `\xNN` (then too with the leading backslash).
fn shown_name(name: &[u8]) -> (bool, Vec<u8>) {
    let (esc, e) = mac_cmd::escape_name(name);
    let safe = crate::input::terminal_safe_bytes(&e);
    (esc || safe != e, safe)
}

/// A status line: the names shown (a leading backslash if any is
/// escaped), joined by ` -> `, then `: STATUS`.
fn status_line(names: &[&[u8]], status: &str) -> Vec<u8> {
    let escaped: Vec<(bool, Vec<u8>)> = names.iter().map(|n| shown_name(n)).collect();
    let mut out = Vec::new();
    if escaped.iter().any(|(e, _)| *e) {
        out.push(b'\\');
    }
    for (i, (_, n)) in escaped.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b" -> ");
        }
        out.extend_from_slice(n);
    }
    out.extend_from_slice(format!(": {status}\n").as_bytes());
    out
}

/// `unimac verify [NAME] --key-file K MANIFEST` for a sealed manifest:
/// `Ok(true)` if the seal verifies and every listed file is as sealed (and,
/// for a directory, nothing was added).
pub fn verify_manifest(name: Option<&str>, key_file: &Path, manifest: &Path, opts: VerifyOpts) -> Result<bool, Fail> {
    let (name, key) = match name {
        Some(n) => {
            let n = resolve_mac(n)?;
            let k = keyfile::read_key(key_file, &n, mac_key_spec(&n)?)?;
            (n, k)
        }
        None => keyfile::read_named_key(key_file)?,
    };
    let desc = registry::desc(&name).map_err(|_| Fail(format!("key file {}: a {name} key is not a MAC key", key_file.display())))?;
    if desc.one_time {
        return Err(Fail(format!("{name} is a one-time MAC: no manifest is sealed with it")));
    }
    let m = NamedMac::new(&name, &key).map_err(|e| Fail(cite(&e.to_string())))?;
    let split = SplitMac::new(&name, &key);
    let shown_m = manifest.display().to_string();
    let text = std::fs::read(manifest).map_err(|e| Fail(format!("cannot read {shown_m}: {}", crate::input::io_msg(&e))))?;

    // The seal, first: the last line over every byte above it, under this
    // key, with this key's MAC and fingerprint on line 1.
    let mine = Header { mac: desc.name.to_string(), fingerprint: Binding::new(desc, &key).fingerprint_hex() };
    let (body, last) = split_last_line(&text);
    let header = text.split(|&c| c == b'\n').next().and_then(parse_header);
    let sealed_value = last.and_then(|l| parse_seal(l, desc));
    let seal_ok = header.as_ref() == Some(&mine)
        && sealed_value.as_ref().is_some_and(|(n, t)| check_bytes(&m, n.as_deref(), t, body));

    // Then the lines, read as they are, sealed or not: line 1 is the
    // header, line 2 may be the root, the last one the seal (a seal that is
    // not last, after an appended line, is skipped).
    let mut lines: Vec<&[u8]> = match text.strip_suffix(b"\n").unwrap_or(&text) {
        b"" => Vec::new(),
        t => t.split(|&c| c == b'\n').collect(),
    };
    if sealed_value.is_some() {
        lines.pop();
    }
    let root = lines.get(1).and_then(|l| parse_root(l));
    let first = if root.is_some() { 2 } else { 1 };
    let mut malformed: Vec<usize> = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    for (n, l) in lines.iter().enumerate().skip(first) {
        match parse_entry(l, desc) {
            Some(e) => entries.push(e),
            None if l.starts_with(b"seal ") => {}
            None => malformed.push(n + 1),
        }
    }

    let mut found: Vec<Found> = Vec::with_capacity(entries.len());
    for e in &entries {
        let path = mac_cmd::bytes_path(&e.name);
        let f = match std::fs::symlink_metadata(&path) {
            Err(x) if x.kind() == io::ErrorKind::NotFound => Found::Removed,
            _ => match check_file(&m, split.as_ref(), &path, e) {
                Ok(Some(true)) => Found::Ok,
                Ok(Some(false)) => Found::Changed,
                Ok(None) => Found::Changed,
                Err(why) => Found::Unreadable(why),
            },
        };
        found.push(f);
    }

    // A sealed directory: what is under its root now and not listed.
    let mut added: Vec<PathBuf> = Vec::new();
    let mut walk_errors: Vec<String> = Vec::new();
    if let Some(root) = &root {
        let listed: HashSet<&[u8]> = entries.iter().map(|e| e.name.as_slice()).collect();
        let own = std::fs::canonicalize(manifest).ok();
        let root = mac_cmd::bytes_path(root);
        if std::fs::metadata(&root).is_ok_and(|m| m.is_dir()) {
            let list = FileList { recursive: true, files_from: None, zero: false };
            for (p, err) in mac_cmd::collect_files(&[root], list)? {
                if let Some(err) = err {
                    walk_errors.push(err);
                } else if !listed.contains(mac_cmd::path_bytes(&p).as_slice())
                    && (own.is_none() || std::fs::canonicalize(&p).ok() != own)
                {
                    added.push(p);
                }
            }
        } else {
            walk_errors.push(format!("root {}: not a directory now", root.display()));
        }
        // An added file with a removed file's size and, under its nonce, its
        // tag holds the removed file's content under a new name.
        let mut taken = vec![false; added.len()];
        for (e, f) in entries.iter().zip(found.iter_mut()) {
            if !matches!(f, Found::Removed) {
                continue;
            }
            for (j, p) in added.iter().enumerate() {
                if taken[j] || !std::fs::metadata(p).is_ok_and(|md| md.len() == e.size) {
                    continue;
                }
                if let Ok(Some(true)) = check_file(&m, split.as_ref(), p, e) {
                    taken[j] = true;
                    *f = Found::Renamed(mac_cmd::path_bytes(p));
                    break;
                }
            }
        }
        added = added.into_iter().zip(taken).filter(|(_, t)| !t).map(|(p, _)| p).collect();
    }

    // A manifest that does not name this key, none of whose files this key
    // authenticates: the wrong key, not a changed manifest.
    if let Some(h) = header.as_ref().filter(|h| **h != mine) {
        let any = found.iter().any(|f| matches!(f, Found::Ok | Found::Renamed(_)));
        if !any {
            let their = if h.mac == mine.mac { String::new() } else { format!("a {} key, ", h.mac) };
            return Err(Fail(format!(
                "{shown_m} was sealed with {their}key fingerprint {}, not with the key in {} ({} key fingerprint {}): give the key it was sealed with (or its first line was changed)",
                h.fingerprint,
                key_file.display(),
                mine.mac,
                mine.fingerprint
            )));
        }
    }

    let show = !opts.status;
    if show {
        for n in &malformed {
            warn(&format!("{shown_m}: line {n}: improperly formatted manifest line"));
        }
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if show && (!seal_ok || !opts.quiet) {
        out.write_all(if seal_ok { b"manifest: SEAL OK\n" } else { b"manifest: SEAL FAILED\n" })?;
    }
    let (mut ok, mut changed, mut removed, mut renamed, mut unreadable) = (0usize, 0usize, 0usize, 0usize, 0usize);
    for (e, f) in entries.iter().zip(&found) {
        let line = match f {
            Found::Ok => {
                ok += 1;
                (!opts.quiet).then(|| status_line(&[&e.name], "OK"))
            }
            Found::Changed => {
                changed += 1;
                Some(status_line(&[&e.name], "CHANGED"))
            }
            Found::Removed if opts.ignore_missing => None,
            Found::Removed => {
                removed += 1;
                Some(status_line(&[&e.name], "REMOVED"))
            }
            Found::Renamed(new) => {
                renamed += 1;
                Some(status_line(&[&e.name, new], "RENAMED"))
            }
            Found::Unreadable(why) => {
                unreadable += 1;
                if show {
                    out.flush()?;
                    warn(why);
                }
                Some(status_line(&[&e.name], "FAILED open or read"))
            }
        };
        if let Some(l) = line.filter(|_| show) {
            out.write_all(&l)?;
        }
    }
    for p in &added {
        if show {
            out.write_all(&status_line(&[&mac_cmd::path_bytes(p)], "ADDED"))?;
        }
    }
    out.flush()?;
    drop(out);
    let good = seal_ok
        && malformed.is_empty()
        && walk_errors.is_empty()
        && changed + removed + renamed + unreadable + added.len() == 0;
    if !show {
        return Ok(good);
    }
    for e in &walk_errors {
        warn(e);
    }
    if !seal_ok {
        warn(&format!(
            "WARNING: the seal of {shown_m} does not verify: the manifest was changed (its lines, their order, its first line or its seal)"
        ));
    }
    let counts: Vec<String> = [(changed, "changed"), (removed, "removed"), (added.len(), "added"), (renamed, "renamed"), (unreadable, "unreadable")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    if !counts.is_empty() {
        warn(&format!("WARNING: {} of {} listed files OK; {}", ok, entries.len(), counts.join(", ")));
    }
    Ok(good)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let d = unimac::macs::find("wc-eval128").unwrap();
        let (n, t) = (vec![1u8; 16], vec![2u8; 16]);
        for name in [&b"a b"[..], b"new\nline", b"back\\slash", b"caf\xe9"] {
            let l = entry_line(Some(&n), &t, 42, name);
            assert_eq!(l.starts_with(b"\\"), name.contains(&b'\n') || name.contains(&b'\\'));
            let e = parse_entry(l.strip_suffix(b"\n").unwrap(), d).unwrap();
            assert_eq!(e, Entry { nonce: Some(n.clone()), tag: t.clone(), size: 42, name: name.to_vec() });
        }
        let r = root_line(b"x\ny");
        assert_eq!(r, b"\\root x\\ny\n");
        assert_eq!(parse_root(&r[..r.len() - 1]).as_deref(), Some(&b"x\ny"[..]));
        for bad in ["", "00 1 f", "0101:0202 1 f", "x 1 f"] {
            assert!(parse_entry(bad.as_bytes(), d).is_none(), "{bad:?}");
        }
        let v = value_hex(Some(&n), &t);
        assert!(parse_entry(format!("{v} 01 f").as_bytes(), d).is_none(), "leading zero");
        assert!(parse_entry(format!("{v} +1 f").as_bytes(), d).is_none());
        assert!(parse_entry(format!("{v} 1 ").as_bytes(), d).is_none(), "empty name");
        assert!(parse_seal(format!("seal {v}").as_bytes(), d).is_some());
        assert!(parse_seal(format!("seal {}", &v[..v.len() - 1]).as_bytes(), d).is_none());
        let h = header_line(d, &[7u8; 32]);
        let h = parse_header(&h[..h.len() - 1]).unwrap();
        assert_eq!(h.mac, "wc-eval128");
        assert!(parse_header(b"unimac-manifest 2 wc-eval128 00000000000000000000000000000000").is_none());
        assert_eq!(split_last_line(b"a\nb\nseal x\n"), (&b"a\nb\n"[..], Some(&b"seal x"[..])));
        assert_eq!(split_last_line(b"a\nseal x"), (&b"a\nseal x"[..], None));
    }

    #[test]
    fn seal_covers_every_byte() {
        let m = NamedMac::new("hash127-aes", &[3u8; 32]).unwrap();
        let body = b"unimac-manifest 1 hash127-aes 00\n";
        let Ok((n, t)) = tag_bytes(&m, None, body) else { panic!("tag") };
        assert!(check_bytes(&m, n.as_deref(), &t, body));
        assert!(!check_bytes(&m, n.as_deref(), &t, b"unimac-manifest 1 hash127-aes 01\n"));
        let s = NamedMac::new("shoup4-eval64", &[5u8; 32]);
        if let Ok(s) = s {
            let Ok((n, t)) = tag_bytes(&s, None, body) else { panic!("tag") };
            assert!(n.is_some());
            assert!(check_bytes(&s, n.as_deref(), &t, body));
        }
    }
}
