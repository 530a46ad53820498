//! `unimac seal`: a sealed manifest of files or of a directory tree, and its
//! check by `unimac verify`. The format, its seal key and every rule of the
//! check are the library's (`unimac_front::formats::manifest`, docs/WIRE.md
//! "Sealed manifests"); this module hashes the files on every allowed core
//! and prints what the check found.
//!
//! `verify` checks the seal first (`manifest: SEAL OK`, or `manifest: SEAL
//! FAILED` and nothing else is read), then each file: `NAME: OK`,
//! `NAME: CHANGED` (tag, size, or no longer a regular file: never opened),
//! `NAME: REMOVED`; for a sealed directory also `NAME: ADDED` (under the
//! root, not listed), `OLD -> NEW: RENAMED` (an added file with the size
//! and, under the removed file's nonce, the tag of a removed one) and
//! `NAME: UNEXPECTED` (a named pipe, socket, device or link to a directory
//! under the root).

use unimac::Absorb as _;
use unimac_front::prelude::*;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use unimac_front::formats::counter::Binding;
use unimac_front::formats::fsio::{self, Replace};
use unimac_front::formats::keyfile::KeyFile;
use unimac_front::formats::manifest::{self, Entry, Place, SealError, Status, Writer};
use unimac_front::formats::walk::{walk, Walked};
use unimac_front::macs::{Framing, MacDesc};
use unimac_front::registry::{self, NamedMac};

use crate::fail::{per_file, Fail};
use crate::files::{collect_files, FileList, Item};
#[cfg(unix)]
use crate::files::{is_file_id, stdout_file};
use crate::keyfile::{self, counter_nonce};
use crate::names::cite;
use crate::split::{feed_split, Counted, SplitMac};
use crate::strength::check_strength;
use crate::verify::VerifyOpts;

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

// ---------------------------------------------------------------------------
// seal
// ---------------------------------------------------------------------------

/// Options of `seal`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SealOpts<'a> {
    /// The MAC the key file must be a key of (`--mac`, an assertion).
    pub mac: Option<&'a str>,
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
                let n = counter_nonce(desc, *c)?;
                *c += 1;
                Ok(Some(n))
            }
            Nonces::Random => {
                let mut n = vec![0u8; desc.nonce.max()];
                getrandom::fill(&mut n).map_err(|e| Fail(unimac_front::formats::messages::random_failed(&e)))?;
                desc.fix_random_nonce(&mut n);
                Ok(Some(n))
            }
        }
    }
}

/// A message on stderr, its control characters escaped.
fn warn(e: &str) {
    eprintln!("unimac: {}", crate::input::clean_msg(e));
}

/// A file hashed for `seal`: its message state, bytes and (hashed in
/// stripes) whole partial; or why not.
enum Hashed {
    Done(Box<(registry::Pending, u64, Option<unimac_front::partial::Partial>)>),
    /// A regular file of `input::SPLIT_MIN` bytes or more, left by a
    /// worker to the main thread.
    Big,
    Unreadable(String),
    Fatal(Fail),
}

/// [`manifest::place_for`] of the items.
fn place_names(root: Option<&Path>, items: &[Item], at: Option<&Path>) -> Result<(Place, Vec<Vec<u8>>), Fail> {
    let files: Vec<PathBuf> = items.iter().map(|(p, _)| p.clone()).collect();
    manifest::place_for(root, &files, at).map_err(|e| Fail(e.to_string()))
}

/// The root and the files of `seal [-r] ARGS...` (`listed`: with
/// `--files-from`): with `-r` (a flag, as in every command), the one DIR
/// given is the tree to seal; the library's rule ([`manifest::sealed`]).
pub fn recursive_root(recursive: bool, files: &[PathBuf], listed: bool) -> Result<(Option<&Path>, &[PathBuf]), Fail> {
    Ok(match manifest::sealed(recursive, files, listed, &SEAL_WORDS)? {
        manifest::Sealed::Tree(dir) => (Some(dir), &[]),
        manifest::Sealed::Files(files) => (None, files),
    })
}

/// How the command line names `seal`'s options in the library's refusals.
const SEAL_WORDS: manifest::SealWords = manifest::SealWords {
    counter: "--counter",
    counter_asked: "--counter FILE",
    random: "--random-nonce",
    random_asked: "--random-nonce",
    recursive: "-r",
    tree: "unimac seal -k K -r DIR",
    sources: "FILE..., -r DIR or --files-from FILE",
};

/// `unimac seal --key-file K [--counter C | --random-nonce] [-r DIR | FILE...
/// | --files-from F [-0]] [-o MANIFEST]`: `Ok(false)` (and no manifest) if
/// some file could not be read.
pub fn seal(key_file: &Path, opts: SealOpts<'_>, files: &[PathBuf]) -> Result<bool, Fail> {
    let (kf, desc, mut nonces) = sealing_key(key_file, opts, files)?;
    refuse_before_reading(key_file, opts)?;
    let items = items_to_seal(opts, files)?;
    let Some((place, names)) = place_or_warn(opts, &items) else { return Ok(false) };
    // Every file is found before any nonce is reserved.
    let Some(known) = stat_listed(opts, &items) else { return Ok(false) };
    // Each is read as a regular file, or is an error (never a wait).
    crate::input::listed_files_are_regular();
    if !opts.allow_weak {
        check_strength(desc.name, &items, opts.random_nonce)?;
    }
    // The files' tags under the key for manifest entries (never a check
    // line's key).
    let ek = manifest::entry_key(desc, kf.key());
    let m = NamedMac::of_row(desc, &ek).map_err(|e| Fail(cite(&e.to_string())))?;
    // Big files in stripes on all allowed cores (crate::split).
    let split = SplitMac::new(desc.name, &ek);
    if let (Some(c), Nonces::Counter(first)) = (opts.counter, &mut nonces) {
        // One nonce per file and one for the seal, durable before any tag.
        *first = keyfile::reserve(c, items.len() as u128 + 1, &Binding::new(desc, kf.key()))?;
    }
    let writer = Writer::new(&kf, place).map_err(|e| Fail(e.to_string()))?;
    let hasher = Hasher { items: &items, known: &known, m: &m, split: split.as_ref() };
    let mut entries = Entries::new(desc, nonces, split.as_ref(), writer, names, &items);
    hasher.hash_all(&mut entries)?;
    if entries.failed {
        warn("no manifest written");
        return Ok(false);
    }
    let nonce = entries.nonces.next(desc)?;
    let text = entries.writer.finish(nonce.as_deref()).map_err(|e| Fail(cite(&e.to_string())))?;
    write_manifest(opts.output, &text)?;
    Ok(true)
}

/// The key file read for `seal` (its MAC as `--mac` asserts), with the
/// library's rules of the arguments ([`manifest::sealing`]): the MAC and
/// where its nonces come from.
fn sealing_key(key_file: &Path, opts: SealOpts<'_>, files: &[PathBuf]) -> Result<(KeyFile, &'static MacDesc, Nonces), Fail> {
    let mac = opts.mac.map(crate::names::resolve_mac).transpose()?;
    let kf = keyfile::read_key_file_for(key_file, mac.as_deref())?;
    if kf.desc().is_none() {
        return Err(Fail(format!("key file {}: a modp key is a secret prime, not a MAC key", key_file.display())));
    }
    let (desc, source) = manifest::sealing(&kf, opts.counter, opts.random_nonce, files, &SEAL_WORDS)?;
    let nonces = match source {
        manifest::Nonces::None => Nonces::None,
        manifest::Nonces::Counter(_) => Nonces::Counter(0),
        manifest::Nonces::Random => Nonces::Random,
    };
    Ok((kf, desc, nonces))
}

/// What is refused before any list is read: an output file that exists,
/// stdin as both the key file and the list of files.
fn refuse_before_reading(key_file: &Path, opts: SealOpts<'_>) -> Result<(), Fail> {
    if let Some(o) = opts.output {
        if std::fs::symlink_metadata(o).is_ok() {
            return Err(Fail(unimac_front::formats::messages::already_exists(&format!("manifest {}", o.display()))));
        }
    }
    if key_file.as_os_str() == "-" && opts.files_from.is_some_and(|f| f.as_os_str() == "-") {
        return Err(Fail("stdin ('-') cannot be both the key file and the list of files".into()));
    }
    Ok(())
}

/// The files to seal (each with its error, if it has one): the tree under
/// `-r DIR`, or the files given and listed; never stdin, never the
/// manifest itself where it is being written.
fn items_to_seal(opts: SealOpts<'_>, files: &[PathBuf]) -> Result<Vec<Item>, Fail> {
    let items = match opts.root {
        Some(root) => tree_items(root)?,
        None => {
            // Some files or a list of them (recursive_root, the library's
            // rule).
            let list = FileList { recursive: false, files_from: opts.files_from, zero: opts.zero };
            collect_files(files, list)?
        }
    };
    let paths: Vec<&Path> = items.iter().map(|(p, _)| p.as_path()).collect();
    manifest::refuse_stdin(&paths)?;
    #[cfg(unix)]
    let items = {
        let out = stdout_file().filter(|_| opts.output.is_none()).map(|(id, _)| id);
        items.into_iter().filter(|(p, _)| !is_file_id(p, out)).collect::<Vec<_>>()
    };
    Ok(items)
}

/// The files under `-r root`: regular files only; a named pipe, socket,
/// device or link to a directory in the tree is an error (a sealed tree is
/// checked for them later).
fn tree_items(root: &Path) -> Result<Vec<Item>, Fail> {
    // The root's last component is not followed through a link (a writer
    // of its parent could point it at any directory) unless named `DIR/`:
    // the user's explicit request.
    if unimac_front::formats::walk::root_is_link(root) {
        let r = root.display();
        return Err(Fail(format!("-r {r}: a symbolic link; not followed (name it {r}/ to follow it)")));
    }
    if !std::fs::metadata(root).is_ok_and(|m| m.is_dir()) {
        return Err(Fail(format!("-r {}: not a directory", root.display())));
    }
    let mut items = Vec::new();
    let w = walk(root);
    crate::input::walked(w.tree);
    for w in w.entries {
        match w {
            Walked::File(p) => items.push((p, None)),
            Walked::Error(p, why) => items.push((p, Some(why))),
            Walked::Special(p, what) => {
                let why = format!("{}: {what}; a sealed tree holds regular files and directories only", p.display());
                items.push((p, Some(why)));
            }
            Walked::LinkedDir(p) => {
                let why = format!("{}: a symbolic link to a directory; a sealed tree holds regular files and directories only", p.display());
                items.push((p, Some(why)));
            }
        }
    }
    Ok(items)
}

/// Where the manifest records its files and their names there; `None`
/// (the reason and "no manifest written" on stderr) if it cannot.
fn place_or_warn(opts: SealOpts<'_>, items: &[Item]) -> Option<(Place, Vec<Vec<u8>>)> {
    // Where the manifest will be: its names resolve against the directory
    // it records, relative to that place (docs/WIRE.md).
    let place_at: Option<PathBuf> = match opts.output {
        Some(o) => Some(o.to_path_buf()),
        #[cfg(unix)]
        None => stdout_file().and_then(|(_, p)| p),
        #[cfg(not(unix))]
        None => None,
    };
    // Written to a pipe or a terminal, the manifest's place is unknown:
    // its directory is recorded absolute (docs/WIRE.md 9.6).
    let placed = place_names(opts.root, items, place_at.as_deref()).and_then(|(place, names)| match place_at {
        Some(_) => Ok((place, names)),
        None => manifest::place_absolute(place).map(|p| (p, names)).map_err(|e| Fail(e.to_string())),
    });
    match placed {
        Ok(x) => Some(x),
        Err(Fail(e)) => {
            warn(&e);
            warn("no manifest written");
            None
        }
    }
}

/// Each item's stamp as listed (a small file read later must be that file,
/// unchanged: its `fstat` after the read compared with it); `None` (each
/// reason and "no manifest written" on stderr) if some item is not a
/// regular file that can be stat-ed.
fn stat_listed(opts: SealOpts<'_>, items: &[Item]) -> Option<Vec<Option<crate::input::Known>>> {
    let mut failed = false;
    let mut known: Vec<Option<crate::input::Known>> = Vec::with_capacity(items.len());
    for (p, e) in items {
        // A manifest lists regular files: anything else is refused
        // unopened (a named pipe or device could block or never end).
        let why: Option<String> = e.clone().or_else(|| match crate::strength::what_is(p) {
            Err(x) => Some(format!("{}: {}", p.display(), crate::input::io_msg(&x))),
            Ok((Some("a directory"), _)) if opts.root.is_none() => {
                Some(unimac_front::messages::directory_needs_recursive(&p.display().to_string(), "-r"))
            }
            Ok((Some(what), _)) => Some(manifest::not_listable(&p.display().to_string(), what)),
            Ok((None, st)) => {
                known.push(Some(crate::input::Known::listed(st)));
                None
            }
        });
        if let Some(why) = why {
            known.push(None);
            warn(&why);
            failed = true;
        }
    }
    if failed {
        warn("no manifest written");
        return None;
    }
    Some(known)
}

/// The manifest's text to its new file (whole or not at all), or stdout.
fn write_manifest(output: Option<&Path>, text: &[u8]) -> Result<(), Fail> {
    match output {
        Some(o) => fsio::write_atomic(o, text, Replace::Never, false, "manifest").map_err(|e| Fail(e.to_string()))?,
        None => {
            let mut out = io::stdout().lock();
            out.write_all(text)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// The manifest's entries as the files are hashed, in order: each file's
/// nonce, tag and entry (a file that cannot be read takes no nonce, and
/// then no manifest is written).
struct Entries<'a> {
    desc: &'static MacDesc,
    nonces: Nonces,
    split: Option<&'a SplitMac>,
    writer: Writer,
    names: Vec<Vec<u8>>,
    index: std::collections::HashMap<&'a Path, usize>,
    /// Some file could not be read.
    failed: bool,
}

impl<'a> Entries<'a> {
    fn new(desc: &'static MacDesc, nonces: Nonces, split: Option<&'a SplitMac>, writer: Writer, names: Vec<Vec<u8>>, items: &'a [Item]) -> Self {
        let index = items.iter().enumerate().map(|(i, (p, _))| (p.as_path(), i)).collect();
        Entries { desc, nonces, split, writer, names, index, failed: false }
    }

    /// The entry of the file `p`, hashed.
    fn emit(&mut self, p: &Path, hashed: Hashed) -> Result<(), Fail> {
        let (pending, mut size, whole) = match hashed {
            Hashed::Done(d) => *d,
            Hashed::Unreadable(e) => {
                warn(&per_file(e));
                self.failed = true;
                return Ok(());
            }
            Hashed::Fatal(e) => return Err(e),
            Hashed::Big => return Err(Fail(format!("{}: not hashed", crate::input::shown(Some(p))))),
        };
        let nonce = self.nonces.next(self.desc)?;
        let sent = match (self.split, whole) {
            (Some(sp), Some(w)) => {
                size = w.len();
                sp.finish(nonce.as_deref(), &w)?
            }
            _ => pending.finalize(nonce.as_deref()).map_err(|e| Fail(cite(&e.to_string())))?,
        };
        let (n, t) = line_value(self.desc, nonce, sent);
        let name = self.names[self.index[p]].clone();
        self.writer.entry(&Entry { nonce: n, tag: t, size, name }).map_err(|e| Fail(e.to_string()))
    }
}

/// The files of a seal hashed: small ones on any thread, big ones here in
/// stripes on every core.
struct Hasher<'a> {
    items: &'a [Item],
    known: &'a [Option<crate::input::Known>],
    m: &'a NamedMac,
    split: Option<&'a SplitMac>,
}

impl Hasher<'_> {
    /// A small file as listed (`known`), read on any thread: opened, read,
    /// `fstat`-ed, and refused ("changed while reading") unless it is the
    /// file listed, unchanged (crate::input::read_known); `None` for a big
    /// one (or one whose size is not known), left to [`Hasher::here`].
    fn small(&self, i: usize) -> Option<Hashed> {
        let k = self.known[i].filter(|k| k.len() < crate::input::SPLIT_MIN)?;
        let mut pending = match self.m.start_deferred() {
            Ok(x) => x,
            Err(e) => return Some(Hashed::Fatal(Fail(cite(&e.to_string())))),
        };
        let mut size = 0u64;
        let read = crate::input::read_known(&self.items[i].0, Some(k), |d| {
            size += d.len() as u64;
            pending.update(d)
        });
        Some(match read {
            Ok(()) => Hashed::Done(Box::new((pending, size, None))),
            Err(Fail(e)) => Hashed::Unreadable(e),
        })
    }

    /// A file hashed on this thread (a big one in stripes on every core).
    fn here(&self, p: &Path) -> Hashed {
        let mut pending = match self.m.start_deferred() {
            Ok(x) => x,
            Err(e) => return Hashed::Fatal(Fail(cite(&e.to_string()))),
        };
        let mut counted = Counted { inner: &mut pending, bytes: 0 };
        let read = feed_split(p, self.split, &mut counted);
        let size = counted.bytes;
        match read {
            Ok(whole) => Hashed::Done(Box::new((pending, size, whole))),
            Err(Fail(e)) => Hashed::Unreadable(e),
        }
    }

    /// Every file hashed and its entry written, in order.
    fn hash_all(&self, entries: &mut Entries<'_>) -> Result<(), Fail> {
        let threads = crate::split::allowed_threads();
        if threads < 2 || self.items.len() < 2 {
            for (i, (p, _)) in self.items.iter().enumerate() {
                let h = self.small(i).unwrap_or_else(|| self.here(p));
                entries.emit(p, h)?;
            }
            return Ok(());
        }
        // Small files on the workers, results in order (as `tag`: a big
        // file, which a worker leaves, is hashed here in stripes on every
        // core).
        let work = |i: usize| -> (usize, Hashed) { (i, self.small(i).unwrap_or(Hashed::Big)) };
        let mut take = |(i, h): (usize, Hashed)| -> Result<(), Fail> {
            let p = &self.items[i].0;
            let h = match h {
                Hashed::Big => self.here(p),
                h => h,
            };
            entries.emit(p, h)
        };
        crate::pool::run(threads, threads * crate::pool::WINDOW_PER_THREAD, &work, |pool| -> Result<(), Fail> {
            for i in 0..self.items.len() {
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
        })
    }
}

// ---------------------------------------------------------------------------
// verify
// ---------------------------------------------------------------------------

/// Whether the file at `path` (a regular file; not stdin, never a FIFO or
/// device) starts as a manifest of any version does.
pub fn is_manifest(path: &Path) -> bool {
    if path.as_os_str() == "-" {
        return false;
    }
    let Ok((f, _)) = fsio::open_regular(path) else { return false };
    let mut head = Vec::with_capacity(manifest::MAGIC.len() + 1);
    f.take(manifest::MAGIC.len() as u64 + 1).read_to_end(&mut head).is_ok() && manifest::looks_like_manifest(&head)
}

/// A name as `verify` shows it: escaped as in a line, and every other
/// control character as `\xNN` (then too with the leading backslash).
fn shown_name(name: &[u8]) -> (bool, Vec<u8>) {
    crate::checklines::display_name(name)
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
/// for a directory, nothing was added). A manifest whose seal fails names
/// no file that is read.
pub fn verify_manifest(name: Option<&str>, key_file: &Path, manifest_path: &Path, root: Option<&Path>, opts: VerifyOpts) -> Result<bool, Fail> {
    if opts.ignore_missing {
        return Err(Fail(
            "--ignore-missing does not apply to a sealed manifest: a listed file that is gone is a change (REMOVED)".into(),
        ));
    }
    let kf = checking_key(name, key_file)?;
    let key_shown = key_file.display().to_string();
    let shown_m = manifest_path.display().to_string();
    let text = manifest::read_manifest(manifest_path).map_err(|e| Fail(e.to_string()))?;
    let show = !opts.status;
    let m = match manifest::open(&text, &kf) {
        Ok(m) => m,
        Err(SealError::Failed) => {
            if show {
                let mut out = io::stdout().lock();
                out.write_all(b"manifest: SEAL FAILED\n")?;
                out.flush()?;
                warn(&SealError::Failed.message(&shown_m, &kf, &key_shown));
            }
            return Ok(false);
        }
        Err(e) => return Err(Fail(e.message(&shown_m, &kf, &key_shown))),
    };
    // Its lines are parsed: the text is not needed while the files are read.
    drop(text);
    if show && root.is_none() {
        if let Some(real) = manifest::linked_elsewhere(manifest_path) {
            warn(&format!("{shown_m} is reached through a symbolic link; its root resolves against its real directory {}", real.display()));
        }
    }
    // `--root DIR`: the names resolve against DIR, wherever the manifest
    // records them.
    let report = match root {
        Some(dir) => manifest::check_files_at(&m, &kf, dir, Some(manifest_path), None),
        None => manifest::check_files(&m, &kf, Some(manifest_path), None),
    }
    .map_err(|e| Fail(cite(&e.to_string())))?;
    let (counts, notes) = print_report(&report, opts)?;
    let good = report.ok();
    if show {
        for e in report.errors.iter().chain(&notes) {
            warn(e);
        }
        warn_counts(&report, &counts);
    }
    Ok(good)
}

/// The key file read for checking a manifest (its MAC as `NAME` asserts);
/// a modp key or a one-time MAC's is refused ([`manifest::checking`]).
fn checking_key(name: Option<&str>, key_file: &Path) -> Result<KeyFile, Fail> {
    let kf = keyfile::read_key_file(key_file)?;
    let key_shown = key_file.display().to_string();
    if let Some(n) = name {
        kf.expect(n, &key_shown).map_err(|e| Fail(e.to_string()))?;
    }
    if kf.desc().is_none() {
        return Err(Fail(format!("key file {key_shown}: a modp key is a secret prime, not a MAC key")));
    }
    manifest::checking(&kf)?;
    Ok(kf)
}

/// How many listed files had each result.
#[derive(Default)]
struct Counts {
    ok: usize,
    changed: usize,
    removed: usize,
    renamed: usize,
    unreadable: usize,
}

/// The status lines of a checked manifest on stdout (unless `--status`;
/// `--quiet` leaves out the OK ones), and a file's read error on stderr in
/// its place: the counts, and the notes to print after the lines.
fn print_report(report: &manifest::Report, opts: VerifyOpts) -> Result<(Counts, Vec<String>), Fail> {
    let show = !opts.status;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if show && !opts.quiet {
        out.write_all(b"manifest: SEAL OK\n")?;
    }
    let mut notes: Vec<String> = Vec::new();
    let mut c = Counts::default();
    for r in &report.files {
        let path = manifest::path_bytes(&r.path);
        let line = match &r.status {
            Status::Ok => {
                c.ok += 1;
                (!opts.quiet).then(|| status_line(&[&path], "OK"))
            }
            Status::Changed => {
                c.changed += 1;
                Some(status_line(&[&path], "CHANGED"))
            }
            Status::NotRegular(what) => {
                c.changed += 1;
                notes.push(format!("{}: is {what} now, not a regular file; not opened", r.path.display()));
                Some(status_line(&[&path], "CHANGED"))
            }
            Status::Removed => {
                c.removed += 1;
                Some(status_line(&[&path], "REMOVED"))
            }
            Status::Renamed(new) => {
                c.renamed += 1;
                Some(status_line(&[&path, &manifest::path_bytes(new)], "RENAMED"))
            }
            Status::Unreadable(why) => {
                c.unreadable += 1;
                if show {
                    out.flush()?;
                    warn(why);
                }
                Some(status_line(&[&path], "FAILED open or read"))
            }
        };
        if let Some(l) = line.filter(|_| show) {
            out.write_all(&l)?;
        }
    }
    for p in &report.added {
        if show {
            out.write_all(&status_line(&[&manifest::path_bytes(p)], "ADDED"))?;
        }
    }
    for (p, what) in &report.unexpected {
        notes.push(format!("{}: {what} under the sealed root (a sealed tree holds regular files and directories only)", p.display()));
        if show {
            out.write_all(&status_line(&[&manifest::path_bytes(p)], "UNEXPECTED"))?;
        }
    }
    out.flush()?;
    Ok((c, notes))
}

/// The closing warning of a check that found changes: how many of the
/// listed files are OK, and what the others are.
fn warn_counts(report: &manifest::Report, c: &Counts) {
    let counts: Vec<String> = [
        (c.changed, "changed"),
        (c.removed, "removed"),
        (report.added.len(), "added"),
        (c.renamed, "renamed"),
        (c.unreadable, "unreadable"),
        (report.unexpected.len(), "unexpected"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    if !counts.is_empty() {
        warn(&format!("WARNING: {} of {} listed files OK; {}", c.ok, report.files.len(), counts.join(", ")));
    }
}
