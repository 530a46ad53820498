use crate::prelude::*;
use std::collections::{HashMap, HashSet};
use std::fs::{File, Metadata};
use std::path::{Path, PathBuf};

use super::checkline::{decode_value_as, escape_name, unescape_name, value_hex};
use super::derive::{self, Purpose};
use super::fsio::{self, io_msg, OpenError};
use super::keyfile::KeyFile;
use super::walk::{walk, Tree, Walked};
use crate::counter::Binding;
use crate::error::Error;
use crate::macs::{Framing, MacDesc, Nonce};
use crate::registry::NamedMac;

/// The first word of a manifest.
pub const MAGIC: &str = "unimac-manifest";
/// The version this build writes and reads.
pub const VERSION: &str = "2";

/// Where a manifest's names resolve (its line 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A sealed directory: names are everything under it, and what is
    /// added later is reported.
    Root(Vec<u8>),
    /// A list of files: names resolve against this directory.
    Base(Vec<u8>),
}

impl Place {
    /// The directory, as written.
    pub(crate) fn dir(&self) -> &[u8] {
        match self {
            Place::Root(d) | Place::Base(d) => d,
        }
    }
}

/// One file's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The nonce (for `shoup4-*` the pair), if the MAC has one.
    pub nonce: Option<Vec<u8>>,
    pub tag: Vec<u8>,
    pub size: u64,
    /// The name relative to the place.
    pub name: Vec<u8>,
}

/// Why a name cannot stand in a manifest: it must be relative, with no
/// empty, `.` or `..` component and no NUL.
pub fn check_name(name: &[u8]) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("an empty name");
    }
    if name.contains(&0) {
        return Err("a NUL byte in a name");
    }
    if name.starts_with(b"/") {
        return Err("an absolute name");
    }
    for c in name.split(|&b| b == b'/') {
        match c {
            b"" => return Err("an empty component (a doubled or trailing '/')"),
            b"." => return Err("a '.' component"),
            b".." => return Err("a '..' component"),
            _ => {}
        }
    }
    Ok(())
}

/// The bytes of a path (as given, byte for byte on unix).
pub fn path_bytes(p: &Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        p.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        p.to_string_lossy().into_owned().into_bytes()
    }
}

/// A path from bytes.
pub fn bytes_path(b: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(b))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(b).into_owned())
    }
}

fn named_line(prefix: &[u8], name: &[u8]) -> Vec<u8> {
    let (esc, name) = escape_name(name);
    let mut out = Vec::with_capacity(prefix.len() + name.len() + 2);
    if esc {
        out.push(b'\\');
    }
    out.extend_from_slice(prefix);
    out.extend_from_slice(&name);
    out.push(b'\n');
    out
}

fn header_line(desc: &MacDesc, fp: &str) -> Vec<u8> {
    format!("{MAGIC} {VERSION} {} {fp}\n", desc.name).into_bytes()
}

fn place_line(p: &Place) -> Vec<u8> {
    match p {
        Place::Root(d) => named_line(b"root ", d),
        Place::Base(d) => named_line(b"base ", d),
    }
}

fn entry_line(e: &Entry) -> Vec<u8> {
    named_line(format!("{} {} ", value_hex(e.nonce.as_deref(), &e.tag), e.size).as_bytes(), &e.name)
}

/// The nonce lengths a manifest writes: the MAC's full length only.
fn full_nonce(desc: &MacDesc) -> core::ops::RangeInclusive<usize> {
    let n = desc.nonce.max();
    n..=n
}

/// The seal MAC of `key` (a key file's key of a reusable MAC).
fn seal_mac(desc: &'static MacDesc, key: &[u8]) -> Result<NamedMac, Error> {
    let k = derive::purpose_key(desc, key, Purpose::ManifestSeal);
    NamedMac::new(desc.name, &k)
}

/// The key the files' tags of a manifest are made under: `key` derived
/// for manifest entries (docs/WIRE.md §9.7), so that an entry is never a
/// check line of `unimac tag`, and a manifest rewritten as a check file
/// verifies nothing. A front end that hashes the files itself uses this.
pub fn entry_key(desc: &'static MacDesc, key: &[u8]) -> zeroize::Zeroizing<Vec<u8>> {
    derive::purpose_key(desc, key, Purpose::ManifestEntries)
}

fn entry_mac(desc: &'static MacDesc, key: &[u8]) -> Result<NamedMac, Error> {
    NamedMac::new(desc.name, &entry_key(desc, key))
}

/// A manifest being written: the header and place, then each file's
/// entry, then [`Writer::finish`] seals it.
pub struct Writer {
    desc: &'static MacDesc,
    seal: NamedMac,
    text: Vec<u8>,
    names: HashSet<Vec<u8>>,
}

impl core::fmt::Debug for Writer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer").field("mac", &self.desc.name).field("entries", &self.names.len()).finish_non_exhaustive()
    }
}

impl Writer {
    /// Start a manifest under `key` (a reusable MAC's key file) for files
    /// at `place`.
    pub fn new(key: &KeyFile, place: Place) -> Result<Writer, Error> {
        let desc = sealing_desc(key)?;
        let dir = place.dir();
        if dir.is_empty() || dir.contains(&0) {
            return Err(Error::Invalid("a manifest's directory must be a non-empty path".into()));
        }
        let fp = Binding::new(desc, key.key()).fingerprint_hex();
        let mut text = header_line(desc, &fp);
        text.extend_from_slice(&place_line(&place));
        Ok(Writer { desc, seal: seal_mac(desc, key.key())?, text, names: HashSet::new() })
    }

    /// Add a file's entry: its nonce as tagged (for `shoup4-*` the pair),
    /// tag, size and name relative to the place.
    pub fn entry(&mut self, e: &Entry) -> Result<(), Error> {
        let shown = String::from_utf8_lossy(&e.name);
        check_name(&e.name).map_err(|why| Error::Invalid(format!("{shown}: {why}: a manifest lists names under its directory")))?;
        let n = e.nonce.as_ref().map_or(0, |n| n.len());
        if n != self.desc.nonce.max() || e.tag.len() != self.desc.tag {
            return Err(Error::Invalid(format!("{shown}: a {} entry takes a {}-byte nonce and a {}-byte tag", self.desc.name, self.desc.nonce.max(), self.desc.tag)));
        }
        if !self.names.insert(e.name.clone()) {
            return Err(Error::Invalid(format!("{shown}: listed twice")));
        }
        self.text.extend_from_slice(&entry_line(e));
        Ok(())
    }

    /// Seal: the seal line's tag under `nonce` (a fresh nonce of the key's
    /// counter, or random; none for stateless MACs, and `shoup4-*` draws
    /// its pair), and the whole manifest's text.
    pub fn finish(mut self, nonce: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        if let Some(n) = nonce {
            if n.len() != self.desc.nonce.max() {
                return Err(Error::Invalid(format!("{}: a manifest's seal takes a nonce of {} bytes", self.desc.name, self.desc.nonce.max())));
            }
        }
        let mut s = self.seal.start(nonce)?;
        s.update(&self.text);
        let sent = s.finalize()?;
        let (n, t) = match self.desc.framing {
            Framing::PairThenTag => {
                let (rs, t) = sent.split_at(self.desc.nonce.max());
                (Some(rs.to_vec()), t.to_vec())
            }
            Framing::Tag => (nonce.map(<[u8]>::to_vec), sent),
        };
        self.text.extend_from_slice(format!("seal {}\n", value_hex(n.as_deref(), &t)).as_bytes());
        Ok(self.text)
    }
}

fn sealing_desc(key: &KeyFile) -> Result<&'static MacDesc, Error> {
    let Some(desc) = key.desc() else {
        return Err(Error::Invalid("a modp key is a secret prime, not a MAC key: it seals nothing".into()));
    };
    if desc.one_time {
        return Err(one_time_refused(desc.name, true));
    }
    Ok(desc)
}

/// A manifest whose seal verified: what it lists, trusted.
#[derive(Clone, Debug)]
pub struct Manifest {
    pub desc: &'static MacDesc,
    pub place: Place,
    pub entries: Vec<Entry>,
}

/// Why a manifest was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SealError {
    /// Not a manifest at all (no `unimac-manifest` line 1).
    NotManifest,
    /// A version-1 manifest: forgeable, refused.
    Version1,
    /// A version this build does not read.
    Version(String),
    /// Line 1 names another key: its MAC and fingerprint.
    OtherKey { mac: String, fingerprint: String },
    /// The seal does not verify (changed lines, order, first line or seal;
    /// another spelling of a value; a line appended after the seal).
    Failed,
}

impl SealError {
    /// One line naming the problem for the manifest `shown` checked with
    /// `key` (shown as `key_shown`).
    pub(crate) fn message(&self, shown: &str, key: &KeyFile, key_shown: &str) -> String {
        match self {
            SealError::NotManifest => format!("{shown}: not a manifest (no '{MAGIC} {VERSION} NAME FINGERPRINT' first line)"),
            SealError::Version1 => format!(
                "{shown}: a version 1 manifest, which can be forged (its seal was made under the file key, so a file's tag could pass for a seal); reseal it: unimac seal --key-file {key_shown} -r DIR -o NEW-MANIFEST (or the files it lists)"
            ),
            SealError::Version(v) => format!("{shown}: manifest version {v}, which this build does not read (it reads version {VERSION})"),
            SealError::OtherKey { mac, fingerprint } => {
                let their = if mac == key.name() { String::new() } else { format!("a {mac} key, ") };
                let mine = key.fingerprint().map(|b| b.fingerprint_hex()).unwrap_or_default();
                format!(
                    "{shown} was sealed with {their}key fingerprint {fingerprint}, not with the key in {key_shown} ({} key fingerprint {mine}): give the key it was sealed with (or its first line was changed)",
                    key.name()
                )
            }
            SealError::Failed => format!("{shown}: SEAL FAILED: the manifest was changed (its lines, their order, its first line or its seal); none of the files it lists was read"),
        }
    }
}

/// The reason in a few words, without the file's or the key's name (which
/// the front ends add where they print it).
impl core::fmt::Display for SealError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SealError::NotManifest => write!(f, "not a manifest (no '{MAGIC} {VERSION} NAME FINGERPRINT' first line)"),
            SealError::Version1 => f.write_str("a version 1 manifest, which can be forged; reseal it"),
            SealError::Version(v) => write!(f, "manifest version {v}, which this build does not read (it reads version {VERSION})"),
            SealError::OtherKey { mac, fingerprint } => {
                write!(f, "sealed with another key ({mac}, key fingerprint {fingerprint})")
            }
            SealError::Failed => f.write_str(
                "SEAL FAILED: the manifest was changed (its lines, their order, its first line or its seal)",
            ),
        }
    }
}

impl std::error::Error for SealError {}

/// Whether `text` starts as a manifest of any version does.
pub fn looks_like_manifest(text: &[u8]) -> bool {
    text.starts_with(format!("{MAGIC} ").as_bytes())
}

fn strip_escape(line: &[u8]) -> (bool, &[u8]) {
    match line.strip_prefix(b"\\") {
        Some(rest) => (true, rest),
        None => (false, line),
    }
}

fn read_name(escaped: bool, name: &[u8]) -> Option<Vec<u8>> {
    let name = if escaped { unescape_name(name)? } else { name.to_vec() };
    (!name.is_empty()).then_some(name)
}

fn parse_place(line: &[u8]) -> Option<Place> {
    let (esc, rest) = strip_escape(line);
    if let Some(d) = rest.strip_prefix(b"root ") {
        return Some(Place::Root(read_name(esc, d)?));
    }
    Some(Place::Base(read_name(esc, rest.strip_prefix(b"base ")?)?))
}

fn parse_value(value: &[u8], desc: &MacDesc) -> Option<(Option<Vec<u8>>, Vec<u8>)> {
    decode_value_as(core::str::from_utf8(value).ok()?, full_nonce(desc), desc.tag, true)
}

fn parse_entry(line: &[u8], desc: &MacDesc) -> Option<Entry> {
    let (esc, rest) = strip_escape(line);
    let sp = rest.iter().position(|&c| c == b' ')?;
    let (value, rest) = (&rest[..sp], &rest[sp + 1..]);
    let sp = rest.iter().position(|&c| c == b' ')?;
    let (size, name) = (&rest[..sp], &rest[sp + 1..]);
    if size.is_empty() || !size.iter().all(u8::is_ascii_digit) || (size.len() > 1 && size[0] == b'0') {
        return None;
    }
    let size: u64 = core::str::from_utf8(size).ok()?.parse().ok()?;
    let (nonce, tag) = parse_value(value, desc)?;
    let name = read_name(esc, name)?;
    check_name(&name).ok()?;
    Some(Entry { nonce, tag, size, name })
}

/// Check a manifest's text under `key`: line 1 must name this key, the seal
/// must verify under the seal key, and every line must be in its one byte
/// form. Only then are its lines read, and returned.
pub fn open(text: &[u8], key: &KeyFile) -> Result<Manifest, SealError> {
    let first = text.split(|&c| c == b'\n').next().unwrap_or_default();
    let first = core::str::from_utf8(first).map_err(|_| SealError::NotManifest)?;
    let mut w = first.split(' ');
    if w.next() != Some(MAGIC) {
        return Err(SealError::NotManifest);
    }
    match w.next() {
        Some(VERSION) => {}
        Some("1") => return Err(SealError::Version1),
        Some(v) => return Err(SealError::Version(v.chars().take(20).collect())),
        None => return Err(SealError::NotManifest),
    }
    let (mac, fp) = (w.next().unwrap_or_default(), w.next().unwrap_or_default());
    let Some(desc) = key.desc().filter(|_| sealing_desc(key).is_ok()) else { return Err(SealError::Failed) };
    let mine = Binding::new(desc, key.key()).fingerprint_hex();
    if mac != desc.name || fp != mine || w.next().is_some() {
        let fp_ok = fp.len() == 32 && fp.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
        // Another key's fingerprint: the wrong key (or a changed first
        // line, which the message says too). This key's fingerprint under
        // another name: a changed first line.
        if fp_ok && !mac.is_empty() && fp != mine {
            // The name as read, with anything but a name's characters shown
            // as `?` (no control character reaches a message).
            let mac = mac.chars().take(40).map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '?' }).collect();
            return Err(SealError::OtherKey { mac, fingerprint: fp.to_string() });
        }
        return Err(SealError::Failed);
    }
    // The seal: the last line over every byte above it.
    let body_end = text.strip_suffix(b"\n").ok_or(SealError::Failed)?;
    let start = body_end.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    let (body, last) = (&text[..start], &body_end[start..]);
    let (nonce, tag) = last.strip_prefix(b"seal ").and_then(|v| parse_value(v, desc)).ok_or(SealError::Failed)?;
    let seal = seal_mac(desc, key.key()).map_err(|_| SealError::Failed)?;
    let Ok(mut s) = seal.start_check(nonce.as_deref()) else { return Err(SealError::Failed) };
    s.update(body);
    let ok = s.finalize().is_ok_and(|got| crate::tag::verify_tag(&got, &tag).is_ok());
    if !ok {
        return Err(SealError::Failed);
    }
    // Sealed: now the lines are trusted to be as written, and must be in
    // their one form.
    let mut lines = body.strip_suffix(b"\n").ok_or(SealError::Failed)?.split(|&c| c == b'\n');
    lines.next();
    let place = lines.next().and_then(parse_place).ok_or(SealError::Failed)?;
    // One entry a line (the count of newlines, so the list is allocated
    // once: a manifest of 100 000 files is verified in bounded memory).
    let mut entries = Vec::with_capacity(body.iter().filter(|&&c| c == b'\n').count().saturating_sub(2));
    let mut again = Vec::new();
    for l in lines {
        let e = parse_entry(l, desc).ok_or(SealError::Failed)?;
        again.clear();
        again.extend_from_slice(&entry_line(&e));
        if again.strip_suffix(b"\n") != Some(l) {
            return Err(SealError::Failed);
        }
        entries.push(e);
    }
    // Each name once: the names sorted (by index, not copied) and
    // compared with their neighbours.
    let mut by_name: Vec<u32> = (0..entries.len() as u32).collect();
    by_name.sort_unstable_by(|&a, &b| entries[a as usize].name.cmp(&entries[b as usize].name));
    if by_name.windows(2).any(|w| entries[w[0] as usize].name == entries[w[1] as usize].name) {
        return Err(SealError::Failed);
    }
    drop(by_name);
    if place_line(&place) != [body.split(|&c| c == b'\n').nth(1).unwrap_or_default(), b"\n"].concat() {
        return Err(SealError::Failed);
    }
    Ok(Manifest { desc, place, entries })
}

/// What became of one listed file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Same size and tag.
    Ok,
    /// Another size or tag.
    Changed,
    /// No file by that name.
    Removed,
    /// Found under another name under the root (an added file with its
    /// size and, under its nonce, its tag): the new path.
    Renamed(PathBuf),
    /// Now a directory, FIFO, socket or device: never opened.
    NotRegular(&'static str),
    /// Could not be read: why.
    Unreadable(String),
}

/// One listed file's result.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The name as listed (relative to the place).
    pub name: Vec<u8>,
    /// The path it was looked for at.
    pub path: PathBuf,
    pub status: Status,
}

/// The check of every file a sealed manifest lists.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Each listed file, in the manifest's order.
    pub files: Vec<FileReport>,
    /// Files under a sealed root that it does not list.
    pub added: Vec<PathBuf>,
    /// Named pipes, sockets, devices and symbolic links to directories
    /// under a sealed root: what they are.
    pub unexpected: Vec<(PathBuf, &'static str)>,
    /// Directories under the root that could not be listed, or a root that
    /// is gone.
    pub errors: Vec<String>,
}

impl Report {
    /// Whether everything is as sealed.
    pub fn ok(&self) -> bool {
        self.files.iter().all(|f| f.status == Status::Ok) && self.added.is_empty() && self.unexpected.is_empty() && self.errors.is_empty()
    }
}

/// The directory that holds the manifest file at `m`: its real directory
/// when `m` is a symbolic link (the link followed to the file, as its
/// text was read), else the directory named (`m`'s parent as given).
fn manifest_dir(m: &Path) -> PathBuf {
    let named = fsio::parent_dir(m);
    let linked = std::fs::symlink_metadata(m).is_ok_and(|md| md.file_type().is_symlink()) || through_link(&named);
    if linked {
        if let Some(d) = std::fs::canonicalize(m).ok().and_then(|r| r.parent().map(Path::to_path_buf)) {
            return d;
        }
    }
    named
}

/// The real directory a manifest named `m` resolves against when a link
/// took it elsewhere: `Some` when `m` is a symbolic link into another
/// directory than the one it is named in, or when a directory on `m`'s
/// path is a link (`dirlink/M`); `None` when `m` is reached without one,
/// or by a link that stays in its own directory. `verify` names it.
pub fn linked_elsewhere(m: &Path) -> Option<PathBuf> {
    let named = fsio::parent_dir(m);
    let real = std::fs::canonicalize(m).ok()?.parent()?.to_path_buf();
    if through_link(&named) {
        return Some(real);
    }
    if !std::fs::symlink_metadata(m).ok()?.file_type().is_symlink() {
        return None;
    }
    (real != std::fs::canonicalize(&named).ok()?).then_some(real)
}

/// Whether a directory's path passes through a symbolic link (`dirlink/M`
/// names a manifest whose real directory is elsewhere): each prefix of
/// the path is stat-ed without following it.
fn through_link(dir: &Path) -> bool {
    let mut at = PathBuf::new();
    for c in dir.components() {
        at.push(c);
        if matches!(c, std::path::Component::Normal(_))
            && std::fs::symlink_metadata(&at).is_ok_and(|md| md.file_type().is_symlink())
        {
            return true;
        }
    }
    false
}

/// The directory a manifest's names resolve against: `place`'s directory
/// joined to the directory holding the manifest file (`None`: read from
/// stdin, the current directory). A manifest named through a symbolic
/// link (the file itself, or a directory above it) resolves against the
/// real directory of the file the link leads to, as if it were named
/// there: the place is where the manifest was written.
pub fn resolve_dir(manifest: Option<&Path>, place: &Place) -> PathBuf {
    let dir = bytes_path(place.dir());
    let joined = match manifest {
        Some(m) if !dir.is_absolute() => manifest_dir(m).join(dir),
        _ => dir,
    };
    // `.` components dropped (`./d/a` shows as `d/a`; `..` is kept: it may
    // cross a symbolic link).
    joined.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect()
}

/// The largest manifest read: a manifest is read whole before its seal is
/// checked, so its size bounds the memory a verifier spends on a file an
/// attacker wrote (2^28 bytes: about 2.5 million lines of short names).
pub const MAX_MANIFEST: u64 = 1 << 28;

/// Read the manifest at `path`: a regular file (never a FIFO or device) of
/// at most [`MAX_MANIFEST`] bytes.
pub fn read_manifest(path: &Path) -> Result<Vec<u8>, Error> {
    use std::io::Read as _;
    let shown = path.display().to_string();
    let (f, meta) = fsio::open_regular(path).map_err(|e| Error::Io(e.message(&shown)))?;
    if meta.len() > MAX_MANIFEST {
        return Err(Error::Invalid(format!("{shown}: {} bytes, more than a manifest holds ({MAX_MANIFEST} at most)", meta.len())));
    }
    let mut text = Vec::with_capacity(meta.len() as usize);
    f.take(MAX_MANIFEST + 1).read_to_end(&mut text).map_err(|e| Error::Io(format!("cannot read {shown}: {}", io_msg(&e))))?;
    if text.len() as u64 > MAX_MANIFEST {
        return Err(Error::Invalid(format!("{shown}: more than a manifest holds ({MAX_MANIFEST} bytes at most)")));
    }
    Ok(text)
}

// Where a manifest records its files (`place_dir`, `name_under`,
// `place_for`, `place_absolute`): manifest/place.rs.
#[path = "manifest/place.rs"]
mod place;
pub use place::{name_under, place_absolute, place_dir, place_for};

// The rules of a seal's arguments (`sealed`, `sealing`, `refuse_stdin`,
// `not_listable`, `checking`):
// manifest/choices.rs.
#[path = "manifest/choices.rs"]
mod choices;
pub use choices::{checking, not_listable, one_time_refused, refuse_stdin, sealed, sealing, SealWords};

// Checking files against a manifest (`check_files`, `check_files_at`):
// manifest/check.rs.
#[path = "manifest/check.rs"]
mod check;
use check::{file_id, read_file};
pub use check::{check_files, check_files_at, FileCheck};

/// Nonce source of a library seal.
#[derive(Clone, Copy, Debug)]
pub enum Nonces<'a> {
    /// Stateless MACs (and `shoup4-*`, which draws its pair).
    None,
    /// From the key's counter file: one per file, then the seal's.
    Counter(&'a Path),
    /// Random, of the MAC's full length.
    Random,
}

/// What a library seal covers.
#[derive(Clone, Copy, Debug)]
pub enum Sealed<'a> {
    /// Every regular file under a directory (`seal -r DIR`).
    Tree(&'a Path),
    /// These files, named relative to the current directory.
    Files(&'a [PathBuf]),
}

/// Seal files in one thread (the Python package's `seal`; the command line
/// hashes on every core but writes through the same `Writer`): the
/// manifest's text, to be written at `output` (`None`: it is returned to
/// be written elsewhere in the current directory). Refuses trees holding
/// named pipes, sockets, devices or links to directories, unreadable
/// files, and MACs weak for this use unless `allow_weak`.
pub fn seal(key: &KeyFile, what: Sealed<'_>, nonces: Nonces<'_>, output: Option<&Path>, allow_weak: bool) -> Result<Vec<u8>, Error> {
    let desc = sealing_desc(key)?;
    key.mac()?;
    let mac = entry_mac(desc, key.key())?;
    // A tree's files are opened by handle, through the walk's directories.
    let mut tree: Option<Tree> = None;
    let (root, files) = match what {
        Sealed::Tree(dir) => {
            let mut files = Vec::new();
            let walked = walk(dir);
            tree = Some(walked.tree);
            for w in walked.entries {
                match w {
                    Walked::File(p) => files.push(p),
                    Walked::Special(p, k) => return Err(Error::Invalid(format!("{}: {k}; a sealed tree holds regular files and directories only", p.display()))),
                    Walked::LinkedDir(p) => return Err(Error::Invalid(format!("{}: a symbolic link to a directory; a sealed tree holds regular files and directories only", p.display()))),
                    Walked::Error(_, why) => return Err(Error::Io(why)),
                }
            }
            if let (Some(o), Some(t)) = (output.and_then(file_id), &tree) {
                files.retain(|p| t.stat(p).map(|f| f.stamp.id()).ok() != Some(o));
            }
            (Some(dir), files)
        }
        Sealed::Files(list) => (None, list.to_vec()),
    };
    let (place, names) = place_for(root, &files, output)?;
    let mut sizes = Vec::with_capacity(files.len());
    let open = |p: &Path| match &tree {
        Some(t) => t.open_regular(p),
        None => fsio::open_regular(p),
    };
    for p in &files {
        let size = match &tree {
            Some(t) => t.stat(p).ok().filter(|f| f.what.is_none()).map(|f| f.stamp.len()),
            None => std::fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len()),
        };
        sizes.push(size);
    }
    if !allow_weak {
        super::policy::check_strength(desc.name, &sizes, matches!(nonces, Nonces::Random))?;
    }
    let mut next = match nonces {
        Nonces::Counter(c) => Some(crate::counter::reserve(c, files.len() as u128 + 1, &Binding::new(desc, key.key()))?),
        _ => None,
    };
    let mut nonce = || -> Result<Option<Vec<u8>>, Error> {
        match (nonces, desc.nonce) {
            (_, Nonce::RandomPair { .. }) | (_, Nonce::None) => Ok(None),
            (Nonces::Counter(_), _) => {
                let c = next.as_mut().expect("reserved");
                let n = desc.counter_nonce(*c).ok_or_else(|| Error::Invalid(super::messages::counter_past_nonces(desc.name, *c)))?;
                *c += 1;
                Ok(Some(n.to_vec()))
            }
            (Nonces::Random, _) => {
                let mut n = vec![0u8; desc.nonce.max()];
                getrandom::fill(&mut n).map_err(|e| Error::Io(crate::rng::failed(&e)))?;
                desc.fix_random_nonce(&mut n);
                Ok(Some(n))
            }
            (Nonces::None, _) => Err(Error::MissingNonce(desc.name.into())),
        }
    };
    let mut w = Writer::new(key, place)?;
    for (p, name) in files.iter().zip(names) {
        let (f, meta) = open(p).map_err(|e| Error::Io(e.message(&p.display().to_string())))?;
        let n = nonce()?;
        let mut s = mac.start(n.as_deref())?;
        let size = read_file(&f, meta.len(), &mut |d| s.update(d)).map_err(|why| Error::Io(format!("{}: {why}", p.display())))?;
        let sent = s.finalize()?;
        let (n, tag) = match desc.framing {
            Framing::PairThenTag => {
                let (rs, t) = sent.split_at(desc.nonce.max());
                (Some(rs.to_vec()), t.to_vec())
            }
            Framing::Tag => (n, sent),
        };
        w.entry(&Entry { nonce: n, tag, size, name })?;
    }
    let n = nonce()?;
    w.finish(n.as_deref())
}

#[cfg(test)]
#[path = "manifest/tests.rs"]
mod tests;
