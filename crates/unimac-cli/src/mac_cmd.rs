//! `unimac keygen | tag | verify | bound`: authenticating files with the
//! named MACs of the wire format, docs/WIRE.md §8 (named `X` or `mac-X`), with sha256sum's line
//! formats, options and exit codes.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use unimac::bounds::{self, Attack};
use unimac::registry::{self, NamedMac};

use crate::input::{io_msg, read_message, shown, Known};
use crate::pool;
use crate::keyfile;
use crate::names::{cite, resolve_mac};
use crate::split::{Bytes, Metered, Sink, SplitMac};
use unimac::partial::Partial;
use crate::Fail;

/// The nonce of the counter value `c` for the MAC `d`: 16 bytes in the
/// row's byte order (`MacDesc::counter_nonce`); VMAC refuses `c ≥ 2^127`.
pub(crate) fn counter_nonce(d: &unimac::macs::MacDesc, c: u128) -> Result<Vec<u8>, Fail> {
    d.counter_nonce(c).map(|n| n.to_vec()).ok_or_else(|| {
        Fail(format!(
            "{}: nonce counter {c} does not fit its nonce (VMAC reserves 16-byte nonces with the top bit set for its key derivation); use a new key",
            d.name
        ))
    })
}

/// `unimac keygen NAME [-o FILE] [--counter FILE]`: the key file's text to
/// `-o FILE` (whole or not at all, never over a file) or stdout.
pub fn keygen(name: &str, out: Option<&Path>, counter: Option<&Path>) -> Result<(), Fail> {
    use unimac::formats::keyfile::{KeyFile, KeyKind};
    let kind = KeyKind::from_name(name).map_err(|e| Fail(e.to_string()))?;
    let row = match kind {
        KeyKind::Mac(d) => Some(d),
        KeyKind::Modp => None,
    };
    let name = kind.name();
    if counter.is_some() && !row.is_some_and(|d| d.takes_nonce()) {
        return Err(Fail(format!(
            "{name} takes no nonce; --counter is for nonce MACs"
        )));
    }
    if let (Some(o), Some(c)) = (out, counter) {
        if o == c {
            return Err(Fail("the key file and the counter file must differ".into()));
        }
    }
    // Refuse before anything is created if a target exists.
    for p in out.iter().chain(counter.iter()) {
        if std::fs::symlink_metadata(p).is_ok() {
            return Err(Fail(format!(
                "{} already exists; not overwriting it",
                p.display()
            )));
        }
    }
    let key = KeyFile::generate(kind).map_err(|e| Fail(e.to_string()))?;
    // Say now, not at the first tag, when `tag` will call this MAC weak.
    if let Some(d) = row {
        if policy::is_weak(d.name, 1 << 20, false) {
            let why = policy::use_bound(d.name, 1 << 20, false)
                .map_or("it has no forgery guarantee".to_string(), |l| format!("its forgery bound is 2^{l:.1}"));
            eprintln!(
                "unimac: warning: {} is weak for tag's default use ({why} for {} tags and 2^32 forgery attempts on 1 MiB messages): 'unimac tag' will ask for --allow-weak",
                d.name,
                policy::use_tags(d.name, 1 << 20)
            );
        }
    }
    let binding = key.fingerprint();
    match out {
        Some(p) => {
            key.write_new(p).map_err(|e| Fail(e.to_string()))?;
            if let (Some(c), Some(b)) = (counter, &binding) {
                if let Err(e) = keyfile::create_counter(c, b) {
                    let _ = std::fs::remove_file(p);
                    return Err(e);
                }
            }
        }
        None => {
            if let (Some(c), Some(b)) = (counter, &binding) {
                keyfile::create_counter(c, b)?;
            }
            io::stdout().write_all(&key.text())?;
        }
    }
    Ok(())
}

pub(crate) use unimac::formats::checkline::escape_name;
pub(crate) use unimac::formats::manifest::{bytes_path, path_bytes};

/// A name as `verify` prints it: escaped as in a tag line, and every other
/// control character as `\xNN` too (then with the leading backslash), so
/// that no control byte of a check line reaches the terminal.
fn display_name(name: &[u8]) -> (bool, Vec<u8>) {
    let (esc, e) = escape_name(name);
    let safe = crate::input::terminal_safe_bytes(&e);
    (esc || safe != e, safe)
}

/// Feed the file at `path` to `sink`, with a progress bar on a terminal
/// for a big file; a big regular file is hashed on all allowed cores when
/// `split` is given (`SplitMac::feed`): stripes of partials, whose whole partial
/// comes back (`sink` gets nothing), or in stripes into `sink`.
pub(crate) fn feed_split(
    path: &Path,
    split: Option<&SplitMac>,
    sink: &mut dyn Sink,
) -> Result<Option<Partial>, Fail> {
    const SLICE: usize = 64 << 20;
    let size = Some(path)
        .filter(|p| p.as_os_str() != "-")
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .unwrap_or(0);
    if size >= SLICE as u64 && io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(size);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(shown(Some(path)));
        let inc = |n: u64| bar.inc(n);
        let mut each = Metered { inner: sink, bar: &bar, slice: SLICE };
        let r = match split {
            Some(s) => s.feed(path, Some(&inc), &mut each),
            None => read_message(Some(path), |d| each.update(d)).map(|_| None),
        };
        bar.finish_and_clear();
        r
    } else {
        match split {
            Some(s) => s.feed(path, None, sink),
            None => read_message(Some(path), |d| sink.update(d)).map(|_| None),
        }
    }
}

/// Whether `path` can be opened as a message (a per-file error if not).
fn check_readable(path: &Path) -> Result<(), String> {
    if path.as_os_str() == "-" {
        return Ok(());
    }
    let name = path.display();
    let f = std::fs::File::open(path).map_err(|e| format!("{name}: {}", io_msg(&e)))?;
    let m = f
        .metadata()
        .map_err(|e| format!("{name}: {}", io_msg(&e)))?;
    if m.is_dir() {
        return Err(format!("{name}: is a directory"));
    }
    Ok(())
}

/// Where `tag` takes its nonces from.
#[derive(Clone, Copy, Debug)]
pub enum NonceSource<'a> {
    /// None given.
    None,
    /// A counter file.
    Counter(&'a Path),
    /// One nonce, hex.
    Fixed(&'a str),
    /// 128 random bits per message from the OS generator (Bernstein,
    /// "Floating-point arithmetic and message authentication" §9, "Random
    /// numbers instead of counters").
    Random,
}

/// Which files `tag` reads, besides the ones named.
#[derive(Clone, Copy, Debug, Default)]
pub struct FileList<'a> {
    /// Tag the files under directories (recursively, sorted by name;
    /// symbolic links to directories are not followed).
    pub recursive: bool,
    /// A file listing the names to tag, one per line (`-`: stdin).
    pub files_from: Option<&'a Path>,
    /// The names in `files_from` end in NUL, not newline.
    pub zero: bool,
}

/// Options of `tag`.
#[derive(Clone, Copy, Debug)]
pub struct TagOpts<'a> {
    pub nonces: NonceSource<'a>,
    pub list: FileList<'a>,
    /// BSD-style lines: `NAME (FILE) = [NONCE:]TAG`.
    pub bsd: bool,
    /// Tag even if the MAC's forgery bound for this use is above 2^-32.
    pub allow_weak: bool,
    /// Lines end in NUL, not newline, and names are not escaped (as
    /// sha256sum -z).
    pub zero: bool,
}

/// One input of `tag`: a path, or an error found while listing.
pub(crate) type Item = (PathBuf, Option<String>);

/// The files to tag: the named ones (directories expanded with
/// `recursive`), then those listed in `files_from`; stdin if none at all.
pub(crate) fn collect_files(files: &[PathBuf], list: FileList<'_>) -> Result<Vec<Item>, Fail> {
    let mut out: Vec<Item> = Vec::new();
    let mut named: Vec<PathBuf> = files.to_vec();
    if let Some(from) = list.files_from {
        let mut text = Vec::new();
        read_message(Some(from), |d| text.extend_from_slice(d))?;
        let sep = if list.zero { b'\0' } else { b'\n' };
        for name in text.split(|&c| c == sep).filter(|n| !n.is_empty()) {
            named.push(bytes_path(name));
        }
    } else if list.zero {
        return Err(Fail("-0 applies to --files-from".into()));
    }
    if named.is_empty() && list.files_from.is_none() {
        named.push(PathBuf::from("-"));
    }
    for p in named {
        if list.recursive && p.as_os_str() != "-" && std::fs::metadata(&p).is_ok_and(|m| m.is_dir())
        {
            walk(&p, &mut out);
        } else {
            out.push((p, None));
        }
    }
    if out.iter().filter(|(f, _)| f.as_os_str() == "-").count() > 1 {
        return Err(Fail("stdin ('-') can be read only once".into()));
    }
    if list.files_from.is_some_and(|f| f.as_os_str() == "-")
        && out.iter().any(|(f, _)| f.as_os_str() == "-")
    {
        return Err(Fail(
            "stdin ('-') is the list of files (--files-from -); it cannot also be tagged".into(),
        ));
    }
    Ok(out)
}

/// The regular files under `dir`, sorted (the library's walk): named
/// pipes, sockets and devices are skipped with a warning (opening a named
/// pipe would wait for a writer forever), symbolic links to directories
/// are not followed.
fn walk(dir: &Path, out: &mut Vec<Item>) {
    use unimac::formats::walk::{walk, Walked};
    for w in walk(dir) {
        match w {
            Walked::File(p) => out.push((p, None)),
            Walked::Error(p, why) => out.push((p, Some(why))),
            Walked::LinkedDir(_) => {}
            Walked::Special(p, what) => eprintln!(
                "unimac: warning: {}: {what}, skipped (-r tags regular files)",
                shown(Some(&p))
            ),
        }
    }
}

pub use unimac::formats::policy::{self, use_tags, USE_FORGERIES, WEAK_LOG2};

/// Refuse a weak MAC for this use unless `--allow-weak`.
pub(crate) fn check_strength(name: &str, items: &[Item], random: bool) -> Result<(), Fail> {
    let sizes: Vec<Option<u64>> = items
        .iter()
        .map(|(p, _)| match std::fs::metadata(p) {
            Ok(m) if m.is_file() && p.as_os_str() != "-" => Some(m.len()),
            _ => None,
        })
        .collect();
    check_strength_for(name, &sizes, random)
}

/// [`check_strength`] from the files' sizes (`None`: not a regular file,
/// counted as 1 GiB).
fn check_strength_for(name: &str, sizes: &[Option<u64>], random: bool) -> Result<(), Fail> {
    policy::check_strength(name, sizes, random).map_err(|e| Fail(e.to_string()))
}

/// `unimac tag NAME --key-file K [--counter F | --nonce HEX | --random-nonce] [--tag] FILE...`:
/// `Ok(false)` if some file could not be read (its error on stderr, the
/// other files' lines printed).
pub fn tag(
    name: &str,
    key_file: &Path,
    opts: TagOpts<'_>,
    files: &[PathBuf],
) -> Result<bool, Fail> {
    // `tag --key-file K FILE...` without NAME: the key file names its MAC
    // (as `verify` takes it), and the first argument is a file.
    let with_first: Vec<PathBuf>;
    let (name, files) = match resolve_mac(name) {
        Ok(n) => (n, files),
        Err(_) if name == "modp" => return Err(modp_not_tags(key_file)),
        Err(e) => {
            let named = (key_file.as_os_str() != "-" && Path::new(name).exists())
                .then(|| keyfile::read_named_key(key_file).ok())
                .flatten();
            match named {
                Some((mac, _)) => {
                    with_first = std::iter::once(PathBuf::from(name)).chain(files.iter().cloned()).collect();
                    (mac, &with_first[..])
                }
                None => return Err(e),
            }
        }
    };
    let name = name.as_str();
    if name == "modp" {
        return Err(modp_not_tags(key_file));
    }
    let desc = registry::desc(name).map_err(|e| Fail(cite(&e.to_string())))?;
    let items = collect_files(files, opts.list)?;
    if key_file.as_os_str() == "-" && items.iter().any(|(f, _)| f.as_os_str() == "-") {
        return Err(Fail(
            "stdin ('-') cannot be both the key file and a file to tag".into(),
        ));
    }
    if opts.list.files_from.is_some_and(|f| f.as_os_str() == "-") && key_file.as_os_str() == "-" {
        return Err(Fail(
            "stdin ('-') cannot be both the key file and the list of files".into(),
        ));
    }
    let (counter, nonce, random) = match opts.nonces {
        NonceSource::None => (None, None, false),
        NonceSource::Counter(c) => (Some(c), None, false),
        NonceSource::Fixed(n) => (None, Some(n), false),
        NonceSource::Random => (None, None, true),
    };
    if desc.one_time && items.len() > 1 {
        return Err(Fail(format!(
            "{name} is a one-time MAC: one message per key"
        )));
    }
    if desc.one_time {
        return tag_one_time(desc, key_file, opts, &items);
    }
    let key = keyfile::read_key(key_file, name)?;
    let m = NamedMac::new(name, &key).map_err(|e| Fail(cite(&e.to_string())))?;
    let nl = m.nonce_len();
    // shoup4-*: stateless, the library draws r || s (the "nonce" of the tag
    // line) per message.
    let stateless = desc.framing == unimac::macs::Framing::PairThenTag;
    let fixed_nonce =
        match (nl, counter, nonce) {
            (0, None, None) if !random => None,
            (0, _, _) if stateless => return Err(Fail(format!(
                "{name} is stateless: r || s is drawn at random for every message (no --counter, --nonce or --random-nonce)"
            ))),
            (0, _, _) => {
                return Err(Fail(format!(
                    "{name} takes no nonce (no --counter, --nonce or --random-nonce)"
                )))
            }
            (_, None, None) if random => None,
            (_, None, None) => {
                return Err(Fail(format!(
                    "{name} needs a nonce: give --counter FILE, --random-nonce, or --nonce HEX"
                )))
            }
            (_, Some(_), Some(_)) => {
                return Err(Fail(
                    "give one of --counter, --nonce and --random-nonce, not both".into(),
                ))
            }
            (_, None, Some(h)) => {
                let n = hex::decode(h.trim())
                    .map_err(|e| Fail(format!("--nonce is not valid hex: {e}")))?;
                let sizes = m.nonce_sizes();
                if !sizes.contains(&n.len()) {
                    let want = if sizes.start() == sizes.end() {
                        format!("{nl} bytes ({} hex digits)", 2 * nl)
                    } else {
                        format!("{} to {} bytes", sizes.start(), sizes.end())
                    };
                    return Err(Fail(format!(
                        "{name}: nonce must be {want}, got {}",
                        n.len()
                    )));
                }
                if items.len() > 1 {
                    return Err(Fail(
                        "--nonce with more than one file would use the nonce twice; use --counter"
                            .into(),
                    ));
                }
                Some(n)
            }
            (_, Some(_), None) => None,
        };
    // One stat per file: a file that does not exist is found now (and gets
    // no nonce), and the sizes serve the strength check and the output.
    // With threads, the stats are spread over them in contiguous runs.
    let (items, sizes, known) = stat_all(items, crate::split::allowed_threads());
    if !opts.allow_weak {
        check_strength_for(name, &sizes, random)?;
    }
    // The nonces are reserved durably (lock, write, fsync, rename, fsync the
    // directory) before any file is hashed: a counter that cannot be used is
    // reported before any work, and no tag is printed before its nonce is on
    // disk. One nonce per file listed; a file that fails skips its nonce.
    let listed = items.iter().filter(|(_, e)| e.is_none()).count();
    let binding = unimac::counter::Binding::new(desc, &key);
    let next = match counter.filter(|_| listed > 0) {
        Some(c) => Some(keyfile::reserve(c, listed as u128, &binding)?),
        None => None,
    };
    let progress = Progress::new(&items, &sizes);
    let mut out = LineOut::new().with_progress(&progress);
    // Big files are hashed in stripes on all allowed cores when the MAC has
    // partial hashes (crate::split).
    let split = if sizes.iter().any(|s| s.is_some_and(|n| n >= crate::input::SPLIT_MIN)) {
        SplitMac::new(name, &key)
    } else {
        None
    };
    let mut tagger = Tagger { name, desc, opts, next, fixed_nonce, random, split: split.as_ref(), all_good: true };
    let threads = crate::split::allowed_threads();
    if threads >= 2 && items.len() >= 2 {
        tag_pooled(&m, &items, &sizes, &known, threads, &progress, &mut out, &mut tagger)?;
        progress.finish();
        out.finish()?;
        return Ok(tagger.all_good);
    }
    // Each file is hashed, tagged and printed in turn, then dropped: one key
    // set-up for the run, the state of one file at a time, and every line
    // out as soon as its file (and all before it) is done.
    for ((f, e), size) in items.iter().zip(&sizes) {
        if e.is_none() {
            out.before(*size)?;
        }
        let hashed = match e {
            Some(e) => Err(e.clone()),
            None => hash_one(&m, f, &progress, split.as_ref()),
        };
        progress.file_done();
        tagger.emit(&mut out, f, hashed)?;
    }
    progress.finish();
    out.finish()?;
    Ok(tagger.all_good)
}

/// The stat pass of `tag`: each item's error if it has one or its path
/// cannot be stat'ed, and the size and stamp of each regular file; on up
/// to `threads` threads, each taking a contiguous run of the items (a stat
/// is too quick to hand out one at a time).
#[allow(clippy::type_complexity)]
fn stat_all(items: Vec<Item>, threads: usize) -> (Vec<Item>, Vec<Option<u64>>, Vec<Option<Known>>) {
    type Stat = (Option<String>, Option<u64>, Option<Known>);
    let stat = |(p, e): &Item| -> Stat {
        if let Some(e) = e {
            return (Some(e.clone()), None, None);
        }
        if p.as_os_str() == "-" {
            return (None, None, None);
        }
        match std::fs::metadata(p) {
            Ok(m) => (None, m.is_file().then_some(m.len()), Known::of(&m)),
            Err(x) => (Some(format!("{}: {}", p.display(), io_msg(&x))), None, None),
        }
    };
    let run = |r: &[Item]| -> Vec<Stat> { r.iter().map(stat).collect() };
    // Below a few hundred files a thread costs more than it saves.
    let runs = threads.min(items.len() / 256).max(1);
    let stated: Vec<Stat> = if runs < 2 {
        run(&items)
    } else {
        let per = items.len().div_ceil(runs);
        std::thread::scope(|s| {
            let run = &run;
            let mut parts = items.chunks(per);
            let first = parts.next().unwrap_or_default();
            // A run whose thread cannot start (or fails) is done here.
            let handles: Vec<_> = parts
                .map(|c| (c, std::thread::Builder::new().spawn_scoped(s, move || run(c)).ok()))
                .collect();
            let mut out = run(first);
            for (c, h) in handles {
                match h.and_then(|h| h.join().ok()) {
                    Some(v) => out.extend(v),
                    None => out.extend(run(c)),
                }
            }
            out
        })
    };
    let mut sizes = Vec::with_capacity(stated.len());
    let mut known = Vec::with_capacity(stated.len());
    let items = items
        .into_iter()
        .zip(stated)
        .map(|((p, _), (e, size, k))| {
            sizes.push(size);
            known.push(k);
            (p, e)
        })
        .collect();
    (items, sizes, known)
}

/// A file hashed for `tag`: its message state, and its whole partial if it
/// was hashed in stripes of partials; or its error line.
type Hashed = Result<(registry::Pending, Option<Partial>), String>;

/// Hash the file at `f` on this thread (a big one in stripes on threads if
/// `split` is given).
fn hash_one(m: &NamedMac, f: &Path, progress: &Progress, split: Option<&SplitMac>) -> Hashed {
    let mut p = m.start_deferred().map_err(|e| cite(&e.to_string()))?;
    let whole = progress.feed(f, split, &mut p).map_err(|Fail(e)| per_file(e))?;
    Ok((p, whole))
}

/// `tag` on `threads` workers: each file's message is hashed by a worker
/// (open, read, `fstat`, close, the listing's stat serving as the "before"
/// stamp, `input::read_known`), and this thread takes the hashed files back
/// in order to give them their nonces, finish and print them, exactly as
/// the loop of one thread would. A big file (`input::SPLIT_MIN` or more) and
/// stdin are done here with no worker busy: the window is drained first,
/// the file then hashed by the one-thread path, which for a big file is the
/// stripes on every core (`SplitMac`) or the pipelined reader beside the
/// hash. Both already use every allowed core, so the workers sit idle
/// rather than compete with them for the cores; what waits is at most one
/// window of small files.
#[allow(clippy::too_many_arguments)]
fn tag_pooled(
    m: &NamedMac,
    items: &[Item],
    sizes: &[Option<u64>],
    known: &[Option<Known>],
    threads: usize,
    progress: &Progress,
    out: &mut LineOut,
    tagger: &mut Tagger<'_>,
) -> Result<(), Fail> {
    let bar = progress.bar.clone();
    // The state is boxed: it is moved from slot to slot, and is large.
    let work = |(i, k): (usize, Option<Known>)| -> (usize, Box<Hashed>) {
        let f = &items[i].0;
        let hashed = m.start_deferred().map_err(|e| cite(&e.to_string())).and_then(|mut p| {
            let update = |d: &[u8]| {
                p.update(d);
                if let Some(b) = &bar {
                    b.inc(d.len() as u64);
                }
            };
            crate::input::read_known(f, k, update).map_err(|Fail(e)| per_file(e))?;
            Ok((p, None))
        });
        (i, Box::new(hashed))
    };
    let split = tagger.split;
    let mut emit = |(i, hashed): (usize, Box<Hashed>), out: &mut LineOut| -> Result<(), Fail> {
        progress.file_done();
        tagger.emit(out, &items[i].0, *hashed)
    };
    pool::run(threads, threads * pool::WINDOW_PER_THREAD, &work, |pool| {
        for (i, (((f, e), size), k)) in items.iter().zip(sizes).zip(known).enumerate() {
            if let Some(e) = e {
                while !pool.has_room() {
                    emit_next(pool, out, &mut emit)?;
                }
                pool.push_done((i, Box::new(Err(e.clone()))));
            } else if f.as_os_str() == "-" || size.is_some_and(|n| n >= crate::input::SPLIT_MIN) {
                while !pool.is_empty() {
                    emit_next(pool, out, &mut emit)?;
                }
                out.before(*size)?;
                let hashed = hash_one(m, f, progress, split);
                emit((i, Box::new(hashed)), out)?;
            } else {
                while !pool.has_room() {
                    emit_next(pool, out, &mut emit)?;
                }
                pool.push((i, *k), size.is_none_or(|n| n >= 1 << 20));
            }
            while let Some(r) = pool.try_next()? {
                emit(r, out)?;
            }
        }
        while !pool.is_empty() {
            emit_next(pool, out, &mut emit)?;
        }
        Ok(())
    })
}

/// Wait for the first result of `pool` and hand it to `emit`; what was
/// printed goes out first if that file may take a while
/// ([`LineOut::before`]).
fn emit_next<J, R>(
    pool: &mut pool::Ordered<'_, J, R>,
    out: &mut LineOut,
    emit: &mut dyn FnMut(R, &mut LineOut) -> Result<(), Fail>,
) -> Result<(), Fail> {
    if pool.waiting_on_slow() {
        out.before(None)?;
    }
    match pool.next()? {
        Some(r) => emit(r, out),
        None => Ok(()),
    }
}

/// How `tag` turns each hashed file into its line, in file order: nonces
/// (a counter's values go to the files that were read, in order), the tag,
/// the line.
struct Tagger<'a> {
    name: &'a str,
    desc: &'static unimac::macs::MacDesc,
    opts: TagOpts<'a>,
    /// The next counter value.
    next: Option<u128>,
    fixed_nonce: Option<Vec<u8>>,
    random: bool,
    split: Option<&'a SplitMac>,
    /// No file failed.
    all_good: bool,
}

impl Tagger<'_> {
    /// Finish and print the file `f` as hashed, or print its error.
    fn emit(&mut self, out: &mut LineOut, f: &Path, hashed: Hashed) -> Result<(), Fail> {
        let desc = self.desc;
        let (p, whole) = match hashed {
            Ok(p) => p,
            Err(e) => {
                self.all_good = false;
                return out.error(&e);
            }
        };
        let n: Option<Vec<u8>> = if let Some(c) = self.next.as_mut() {
            let n = counter_nonce(desc, *c)?;
            *c += 1;
            Some(n)
        } else if let Some(n) = &self.fixed_nonce {
            Some(n.clone())
        } else if self.random {
            // The full nonce length, always: a shorter random nonce could
            // alias a longer one (UMAC extends on the right, VMAC on the left).
            let mut n = vec![0u8; desc.nonce.max()];
            getrandom::fill(&mut n).map_err(|e| {
                Fail(format!(
                    "the operating system's random generator failed: {e}"
                ))
            })?;
            desc.fix_random_nonce(&mut n);
            Some(n)
        } else {
            None
        };
        let sent = match (self.split, whole) {
            (Some(s), Some(w)) => s.finish(n.as_deref(), &w)?,
            _ => p
                .finalize(n.as_deref())
                .map_err(|e| Fail(cite(&e.to_string())))?,
        };
        // A MAC that draws its own pair sends r || s || tag: the pair goes
        // where a nonce goes in the line.
        let (n, t) = match desc.framing {
            unimac::macs::Framing::PairThenTag => {
                let (rs, t) = sent.split_at(desc.nonce.max());
                (Some(rs.to_vec()), t.to_vec())
            }
            unimac::macs::Framing::Tag => (n, sent),
        };
        let opts = self.opts;
        out.line(&tag_line_ended(self.name, &path_bytes(f), n.as_deref(), &t, opts.bsd, opts.zero))
    }
}

/// A modp key file given to `tag` or `verify`.
fn modp_not_tags(key_file: &Path) -> Fail {
    Fail(format!(
        "key file {} is a modp key: modp key files check identities, not tags (unimac check-identity)",
        shown(Some(key_file))
    ))
}

/// A file's read error as `tag` and `verify` print it, as sha256sum does:
/// `FILE: why`.
pub(crate) fn per_file(e: String) -> String {
    match e.strip_prefix("cannot read ").or_else(|| e.strip_prefix("cannot open ")) {
        Some(rest) => rest.to_string(),
        None => e,
    }
}

/// Standard output for lines that must appear in order, each as soon as it
/// is ready for whoever watches: buffered, but flushed before an error goes
/// to stderr, at the end, and whenever a line has waited a fifth of a second.
struct LineOut {
    out: io::BufWriter<io::Stdout>,
    flushed: std::time::Instant,
    bar: Option<indicatif::ProgressBar>,
}

/// `tag`'s progress while stderr is a terminal (never otherwise): one line,
/// updated in place, with the bytes and files done of the whole run.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    files: u64,
    done: std::cell::Cell<u64>,
}

impl Progress {
    fn new(items: &[Item], sizes: &[Option<u64>]) -> Progress {
        let files = items.len() as u64;
        if !io::stderr().is_terminal() {
            return Progress { bar: None, files, done: 0.into() };
        }
        // The sizes of the stat pass (regular files that exist).
        let total: u64 = sizes.iter().flatten().sum();
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::stderr_with_hz(5),
        );
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bytes}/{total_bytes} ({bytes_per_sec}), {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(format!("0/{files} files"));
        Progress { bar: Some(bar), files, done: 0.into() }
    }
    /// Feed the file at `path` to `sink`, counting its bytes; a big
    /// regular file on all allowed cores if `split` is given (stripes of partials,
    /// its whole partial returned, or in stripes, [`feed_split`]).
    fn feed(&self, path: &Path, split: Option<&SplitMac>, sink: &mut dyn Sink) -> Result<Option<Partial>, Fail> {
        let Some(bar) = &self.bar else {
            return match split {
                Some(s) => s.feed(path, None, sink),
                None => read_message(Some(path), |d| sink.update(d)).map(|_| None),
            };
        };
        let inc = |n: u64| bar.inc(n);
        let mut each = Metered { inner: sink, bar, slice: 1 << 20 };
        match split {
            Some(s) => s.feed(path, Some(&inc), &mut each),
            None => read_message(Some(path), |d| each.update(d)).map(|_| None),
        }
    }
    fn file_done(&self) {
        self.done.set(self.done.get() + 1);
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{}/{} files", self.done.get(), self.files));
        }
    }
    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl LineOut {
    fn new() -> LineOut {
        LineOut { out: io::BufWriter::with_capacity(1 << 16, io::stdout()), flushed: std::time::Instant::now(), bar: None }
    }
    /// Lines and errors printed around `progress`'s line (each line at
    /// once, the progress line cleared while it is written).
    fn with_progress(mut self, progress: &Progress) -> LineOut {
        self.bar = progress.bar.clone();
        self
    }
    fn line(&mut self, l: &[u8]) -> Result<(), Fail> {
        self.out.write_all(l)?;
        if let Some(bar) = &self.bar {
            let out = &mut self.out;
            bar.suspend(|| out.flush())?;
        } else if self.flushed.elapsed() >= std::time::Duration::from_millis(200) {
            self.out.flush()?;
            self.flushed = std::time::Instant::now();
        }
        Ok(())
    }
    /// Before hashing a file of `size` bytes (`None`: not a regular file):
    /// lines still in the buffer go out now if it will take a while (1 MiB
    /// or more, or a stream), so
    /// every line appears once its file and those before it are done.
    fn before(&mut self, size: Option<u64>) -> Result<(), Fail> {
        if !self.out.buffer().is_empty() && size.is_none_or(|n| n >= 1 << 20) {
            self.out.flush()?;
            self.flushed = std::time::Instant::now();
        }
        Ok(())
    }
    fn error(&mut self, e: &str) -> Result<(), Fail> {
        self.out.flush()?;
        let e = crate::input::clean_msg(e);
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("unimac: {e}")),
            None => eprintln!("unimac: {e}"),
        }
        Ok(())
    }
    fn finish(mut self) -> Result<(), Fail> {
        self.out.flush()?;
        Ok(())
    }
}

/// `tag` for a one-time MAC: one file, the key file locked and marked spent
/// before its tag is shown; the tag through the one-time interface, which
/// consumes the key.
fn tag_one_time(
    desc: &'static unimac::macs::MacDesc,
    key_file: &Path,
    opts: TagOpts<'_>,
    items: &[Item],
) -> Result<bool, Fail> {
    let name = desc.name;
    if !matches!(opts.nonces, NonceSource::None) {
        return Err(Fail(format!("{name} takes no nonce (no --counter, --nonce or --random-nonce)")));
    }
    let k = keyfile::one_time_key(key_file, name)?;
    let (f, e) = items.first().ok_or_else(|| Fail("no file to tag".into()))?;
    if let Some(e) = e.clone().or_else(|| check_readable(f).err()) {
        return Err(Fail(e)); // not spent: no tag is shown
    }
    // The tag, then the spent mark synced, then the tag shown.
    let mut read_err: Option<Fail> = None;
    let t = k
        .spend_with(|m| {
            let mut s = m.start()?;
            if let Err(e) = feed_split(f, None, &mut Bytes(|d: &[u8]| s.update(d))) {
                read_err = Some(e);
                return Err(unimac::Error::Invalid("read".into()));
            }
            s.finalize()
        })
        .map_err(|e| read_err.take().unwrap_or_else(|| Fail(cite(&e.to_string()))))?;
    print_lines(vec![Ok(tag_line_ended(name, &path_bytes(f), None, &t, opts.bsd, opts.zero))])?;
    Ok(true)
}

/// Print tag lines in order; an error line goes to stderr in its place.
fn print_lines(lines: Vec<Result<Vec<u8>, String>>) -> Result<(), Fail> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for l in lines {
        match l {
            Ok(l) => out.write_all(&l)?,
            Err(e) => {
                out.flush()?;
                eprintln!("unimac: {}", crate::input::clean_msg(&e));
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// One line of `tag`'s output: `[NONCE:]TAG  FILE`, or with `bsd`
/// `NAME (FILE) = [NONCE:]TAG`; a leading backslash if the name is escaped.
#[cfg(test)]
fn tag_line(name: &str, file: &[u8], nonce: Option<&[u8]>, tag: &[u8], bsd: bool) -> Vec<u8> {
    tag_line_ended(name, file, nonce, tag, bsd, false)
}

/// [`tag_line`], or with `zero` the line ended by NUL and the name as it is
/// (sha256sum -z): the library's check line.
fn tag_line_ended(name: &str, file: &[u8], nonce: Option<&[u8]>, tag: &[u8], bsd: bool, zero: bool) -> Vec<u8> {
    let style = if bsd { checkline::Style::Bsd } else { checkline::Style::Gnu };
    checkline::format_line(name, file, nonce, tag, style, zero)
}

use unimac::formats::checkline::{self, split_line as split_check_line};
pub(crate) use unimac::formats::checkline::decode_value;

/// One line of a `--check` file for a MAC with these sizes: (nonce, tag,
/// file), or None if malformed (a GNU-style line).
#[cfg(test)]
fn parse_check_line(
    line: &str,
    nonce_len: usize,
    tag_len: usize,
) -> Option<(Option<Vec<u8>>, Vec<u8>, String)> {
    let l = split_check_line(line.as_bytes())?;
    let (n, t) = decode_value(&l.value, nonce_len..=nonce_len, tag_len)?;
    Some((n, t, String::from_utf8(l.file).ok()?))
}

/// Options of `verify` (as in sha256sum --check).
#[derive(Clone, Copy, Debug, Default)]
pub struct VerifyOpts {
    /// No `OK` lines.
    pub quiet: bool,
    /// Nothing on stdout.
    pub status: bool,
    /// Listed files that do not exist are skipped.
    pub ignore_missing: bool,
    /// Improperly formatted lines make the exit status non-zero.
    pub strict: bool,
    /// Name every improperly formatted line (else the first few).
    pub warn: bool,
    /// Check lines end in NUL, not newline (`tag -z` output).
    pub zero: bool,
}

/// Improperly formatted lines named one by one without `--warn`.
const SHOWN_MALFORMED: usize = 3;

/// The arguments of `verify` split into the MAC name (if the first one is a
/// MAC's name) and check files.
pub fn split_verify_args(args: &[PathBuf]) -> Result<(Option<String>, Vec<PathBuf>), Fail> {
    let Some(first) = args.first() else {
        return Ok((None, Vec::new()));
    };
    if let Some(n) = first.to_str().and_then(crate::names::mac_name) {
        if !first.exists() || args.len() > 1 {
            return Ok((Some(n), args[1..].to_vec()));
        }
    }
    if let Some(s) = first.to_str() {
        if !first.exists() && !s.contains('/') {
            if let Some(m) = crate::names::suggest(
                s.strip_prefix("mac-").unwrap_or(s),
                registry::names().iter().map(String::as_str),
            ) {
                return Err(Fail(format!(
                    "no MAC or check file '{s}'; did you mean '{m}'?"
                )));
            }
        }
    }
    Ok((None, args.to_vec()))
}

/// `unimac verify [NAME] --key-file K [-c SUMS]... [SUMS...]`: `Ok(true)`
/// if every tag matches (and, with `strict`, every line is well formed).
/// NAME defaults to the key file's MAC; it must match it.
pub fn verify(
    name: Option<&str>,
    key_file: &Path,
    checks: &[PathBuf],
    opts: VerifyOpts,
) -> Result<bool, Fail> {
    let stdin = [PathBuf::from("-")];
    let checks: &[PathBuf] = if checks.is_empty() { &stdin } else { checks };
    let stdin_lists = checks.iter().filter(|c| c.as_os_str() == "-").count();
    if stdin_lists > 1 {
        return Err(Fail("stdin ('-') can be read only once".into()));
    }
    if stdin_lists == 1 && key_file.as_os_str() == "-" {
        return Err(Fail(
            "stdin ('-') cannot be both the key file and a check file".into(),
        ));
    }
    let (name, key) = match name {
        Some(n) => {
            let n = resolve_mac(n)?;
            let k = keyfile::read_key(key_file, &n)?;
            (n, k)
        }
        None => keyfile::read_named_key(key_file)?,
    };
    if name == "modp" {
        return Err(modp_not_tags(key_file));
    }
    let m = Checker::new(&name, &key)?;
    // Big files in stripes on all allowed cores (crate::split).
    let split = SplitMac::new(&name, &key);
    // Each check file is read as a stream, line by line (a line longer than
    // MAX_CHECK_LINE is malformed), and each listed file is opened once.
    let mut stdin_taken = match (stdin_lists, key_file.as_os_str() == "-") {
        (1, _) => Some("the check list"),
        (_, true) => Some("the key file"),
        _ => None,
    };
    // When stdin is the key file, a check file that lists '-' is refused
    // before anything is checked (a first pass over the named check files;
    // a check list on stdin is refused at its '-' line).
    if key_file.as_os_str() == "-" || stdin_lists == 1 {
        for c in checks.iter().filter(|c| c.as_os_str() != "-") {
            let shown_c = shown(Some(c));
            let f = std::fs::File::open(c).map_err(|e| Fail(format!("cannot open {shown_c}: {}", io_msg(&e))))?;
            let mut r = io::BufReader::with_capacity(1 << 16, f);
            let mut buf = Vec::new();
            let mut i = 0usize;
            while let Some(fits) = next_record(&mut r, &mut buf, opts.zero).map_err(|e| Fail(format!("cannot read {shown_c}: {}", io_msg(&e))))? {
                i += 1;
                if fits && split_check_line(&buf).is_some_and(|l| l.file == b"-") {
                    return Err(Fail(format!(
                        "{shown_c}: line {i}: checks '-' (stdin), but stdin is {}; give the file by name",
                        stdin_taken.unwrap_or("taken")
                    )));
                }
            }
        }
    }
    let mut all_ok = true;
    let mut seen = NoncesSeen::default();
    for c in checks {
        let shown_c = shown(Some(c));
        let reader: Box<dyn io::BufRead> = if c.as_os_str() == "-" {
            Box::new(io::BufReader::new(io::stdin()))
        } else {
            let f = std::fs::File::open(c).map_err(|e| Fail(format!("cannot open {shown_c}: {}", io_msg(&e))))?;
            if f.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(Fail(format!("cannot read {shown_c}: is a directory")));
            }
            Box::new(io::BufReader::with_capacity(1 << 16, f))
        };
        let list = CheckList { name: &name, m: &m, split: split.as_ref(), sums_name: &shown_c, opts };
        all_ok &= list.verify(reader, &mut seen, &mut stdin_taken)?;
    }
    Ok(all_ok)
}

/// The longest check line read whole; a longer one is malformed (a name
/// can be 4096 bytes, twice that escaped, plus nonce and tag).
const MAX_CHECK_LINE: usize = 16 << 10;

/// Read the next line of `r` into `buf` (without its newline): `Ok(None)` at
/// the end, `Ok(Some(false))` for a line longer than [`MAX_CHECK_LINE`]
/// (skipped to its end), `Ok(Some(true))` otherwise.
/// With `zero`, the next record ended by NUL instead (`verify -z`; a
/// carriage return before it is part of the name).
fn next_record(r: &mut dyn io::BufRead, buf: &mut Vec<u8>, zero: bool) -> io::Result<Option<bool>> {
    let end = if zero { b'\0' } else { b'\n' };
    buf.clear();
    let mut fits = true;
    let mut any = false;
    loop {
        let avail = r.fill_buf()?;
        if avail.is_empty() {
            return Ok(any.then_some(fits));
        }
        any = true;
        let (take, done) = match avail.iter().position(|&c| c == end) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        if fits && buf.len() + take <= MAX_CHECK_LINE + 1 {
            buf.extend_from_slice(&avail[..take]);
        } else {
            fits = false;
            buf.clear();
        }
        r.consume(take);
        if done {
            if buf.last() == Some(&end) {
                buf.pop();
                if zero {
                    return Ok(Some(fits));
                }
                // CRLF line ends, as sha256sum -c takes them (a carriage
                // return in a name is escaped by tag, never raw).
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
            }
            return Ok(Some(fits));
        }
    }
}

/// What `verify` checks tags with: the reusable MAC, or for a one-time MAC
/// its one-time interface (checking never spends the key).
enum Checker {
    Reusable(Box<NamedMac>),
    OneTime(registry::OneTimeMac),
}

impl Checker {
    fn new(name: &str, key: &[u8]) -> Result<Checker, Fail> {
        let d = registry::desc(name).map_err(|e| Fail(cite(&e.to_string())))?;
        let r = if d.one_time {
            registry::OneTimeMac::new(name, key).map(Checker::OneTime)
        } else {
            NamedMac::new(name, key).map(|m| Checker::Reusable(Box::new(m)))
        };
        r.map_err(|e| Fail(cite(&e.to_string())))
    }
    fn desc(&self) -> &'static unimac::macs::MacDesc {
        match self {
            Checker::Reusable(m) => m.desc(),
            Checker::OneTime(m) => m.desc(),
        }
    }
    /// The nonce sizes of a check line (the pair's for `shoup4-*`).
    fn line_nonce_sizes(&self) -> std::ops::RangeInclusive<usize> {
        let n = self.desc().nonce;
        n.min()..=n.max()
    }
    /// Start checking `want`, the tag of a check line.
    fn start_check(&self, nonce: Option<&[u8]>, want: &[u8]) -> Result<Check, unimac::Error> {
        match self {
            Checker::Reusable(m) => m.start_check(nonce).map(Check::Reusable),
            Checker::OneTime(m) => m.start_check(want).map(Check::OneTime),
        }
    }
}

/// One file being checked: a reusable MAC's stream (its tag compared at the
/// end), or a one-time MAC's check, which takes the tag first and never
/// gives one.
enum Check {
    Reusable(Box<dyn unimac::Stream>),
    OneTime(registry::OneTimeCheck),
}

impl Sink for Check {
    fn update(&mut self, data: &[u8]) {
        match self {
            Check::Reusable(s) => s.update(data),
            Check::OneTime(c) => c.update(data),
        }
    }
    fn striper(&self) -> Option<unimac::stripe::Striper> {
        match self {
            Check::Reusable(s) => s.striper(),
            Check::OneTime(_) => None,
        }
    }
    fn absorb_stripe(&mut self, st: &unimac::stripe::Stripe) -> Result<(), unimac::Error> {
        match self {
            Check::Reusable(s) => s.absorb_stripe(st),
            Check::OneTime(_) => Err(unimac::Error::NotImplemented("no stripes".into())),
        }
    }
}

impl Check {
    /// Whether `want` (the tag [`Checker::start_check`] was given) is the
    /// message's tag (constant-time comparison); an error if the message
    /// does not fit the MAC.
    fn verify(self, want: &[u8]) -> Result<bool, Fail> {
        let r = match self {
            Check::Reusable(s) => s.finalize().map(|g| unimac::tag::verify_tag(&zeroize::Zeroizing::new(g), want).is_ok()),
            Check::OneTime(c) => match c.verify() {
                Ok(()) => Ok(true),
                Err(unimac::Error::TagMismatch) => Ok(false),
                Err(e) => Err(e),
            },
        };
        r.map_err(|e| Fail(cite(&e.to_string())))
    }
}

/// The nonces the check lines of one `verify` run used, as the cipher sees
/// them (`MacDesc::canonical_nonce`: UMAC's `02` and `0200` are one nonce),
/// with the first tag and line each came with.
#[derive(Default)]
struct NoncesSeen(std::collections::HashMap<[u8; 17], (Vec<u8>, String)>);

/// One check file being verified.
struct CheckList<'a> {
    name: &'a str,
    m: &'a Checker,
    /// Big files hashed in stripes on every core.
    split: Option<&'a SplitMac>,
    sums_name: &'a str,
    opts: VerifyOpts,
}

/// The counts of one check file's lines.
#[derive(Default)]
struct Tally {
    ok: usize,
    bad: usize,
    unreadable: usize,
    malformed: usize,
    ignored: usize,
    other_mac: usize,
    reused: usize,
}

/// A check line's file to check: where, under which nonce, against which
/// tag, and what to print for it.
struct CheckJob {
    /// The line's number (from 0).
    line: usize,
    path: PathBuf,
    /// The line names `-` (stdin).
    stdin: bool,
    nonce: Option<Vec<u8>>,
    want: Vec<u8>,
    /// The name as printed, before `: OK`.
    line_out: Vec<u8>,
}

/// What checking a line's file gave.
enum Outcome {
    /// Not there, with `--ignore-missing`.
    Missing,
    /// Its read error.
    Unreadable(String),
    /// Whether the tag matched.
    Checked(bool),
    /// A regular file of `input::SPLIT_MIN` bytes or more, not read: left
    /// to the main thread, which hashes it on every core.
    Big,
    /// An error that ends the run.
    Fatal(Fail),
}

/// One check line as parsed, in order: messages for stderr (printed before
/// its result), and the file to check if any.
type Parsed = (Vec<String>, Option<CheckJob>);

/// A line's place in the window of `verify`: its messages, and its file
/// with what checking it gave (none for a line that checks no file).
type Slot = (Vec<String>, Option<(CheckJob, Outcome)>);

/// `verify`'s standard output.
type LineWriter<'a> = io::BufWriter<io::StdoutLock<'a>>;

impl CheckList<'_> {
/// Check the lines of one check file, read from `r` as a stream.
fn verify(
    &self,
    mut r: Box<dyn io::BufRead>,
    seen: &mut NoncesSeen,
    stdin_taken: &mut Option<&'static str>,
) -> Result<bool, Fail> {
    let CheckList { name, sums_name, opts, .. } = *self;
    let mut t = Tally::default();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut buf = Vec::new();
    let mut i = 0usize;
    let mut next_line = |t: &mut Tally| -> Result<Option<Parsed>, Fail> {
        let fits = match next_record(&mut *r, &mut buf, opts.zero) {
            Ok(Some(f)) => f,
            Ok(None) => return Ok(None),
            Err(e) => return Err(Fail(format!("cannot read {sums_name}: {}", io_msg(&e)))),
        };
        i += 1;
        Ok(Some(self.parse(&buf, fits, i - 1, seen, t)))
    };
    let threads = crate::split::allowed_threads();
    if threads < 2 {
        // One line at a time, each file checked as it is read.
        while let Some((notes, job)) = next_line(&mut t)? {
            let outcome = job.as_ref().map(|j| self.check_here(j, stdin_taken));
            self.emit(&mut out, &mut t, notes, job, outcome)?;
        }
    } else {
        // The files of a window of lines checked on the workers, the
        // results taken back in line order; a line for stdin, and a big
        // file (which a worker leaves: `Outcome::Big`), are checked here,
        // as `tag` does them (see `tag_pooled`).
        let work = |(notes, job): (Vec<String>, CheckJob)| -> Slot {
            let o = self.check_small(&job);
            (notes, Some((job, o)))
        };
        pool::run(threads, threads * pool::WINDOW_PER_THREAD, &work, |pool| -> Result<(), Fail> {
            let emit = |(notes, done): Slot, out: &mut LineWriter<'_>, t: &mut Tally, stdin_taken: &mut Option<&'static str>| -> Result<(), Fail> {
                let Some((job, o)) = done else {
                    return self.emit(out, t, notes, None, None);
                };
                let o = match o {
                    Outcome::Big => self.check_here(&job, stdin_taken),
                    o => o,
                };
                self.emit(out, t, notes, Some(job), Some(o))
            };
            while let Some((notes, job)) = next_line(&mut t)? {
                match job {
                    Some(job) if job.stdin => {
                        while let Some(r) = pool.next()? {
                            emit(r, &mut out, &mut t, stdin_taken)?;
                        }
                        let o = self.check_here(&job, stdin_taken);
                        self.emit(&mut out, &mut t, notes, Some(job), Some(o))?;
                    }
                    job => {
                        while !pool.has_room() {
                            if let Some(r) = pool.next()? {
                                emit(r, &mut out, &mut t, stdin_taken)?;
                            }
                        }
                        match job {
                            Some(job) => pool.push((notes, job), false),
                            None if pool.is_empty() => self.emit(&mut out, &mut t, notes, None, None)?,
                            None => pool.push_done((notes, None)),
                        }
                    }
                }
                while let Some(r) = pool.try_next()? {
                    emit(r, &mut out, &mut t, stdin_taken)?;
                }
            }
            while let Some(r) = pool.next()? {
                emit(r, &mut out, &mut t, stdin_taken)?;
            }
            Ok(())
        })?;
    }
    let Tally { ok, bad, unreadable, malformed, ignored, other_mac, reused } = t;
    out.flush()?;
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            one.to_string()
        } else {
            many.to_string()
        }
    };
    if ok + bad + unreadable + ignored + other_mac == 0 {
        eprintln!("unimac: {sums_name}: no properly formatted {name} lines found");
        return Ok(false);
    }
    if ok + bad + unreadable == 0 && other_mac == 0 {
        eprintln!("unimac: {sums_name}: no file was verified");
        return Ok(false);
    }
    let good = bad + unreadable + other_mac + reused == 0 && (malformed == 0 || !opts.strict);
    if opts.status {
        return Ok(good);
    }
    if malformed > 0 {
        eprintln!(
            "unimac: WARNING: {malformed} {} improperly formatted",
            plural(malformed, "line is", "lines are")
        );
    }
    if other_mac > 0 {
        eprintln!(
            "unimac: WARNING: {other_mac} {} made by another MAC, not {name}",
            plural(other_mac, "line was", "lines were")
        );
    }
    if unreadable > 0 {
        eprintln!(
            "unimac: WARNING: {unreadable} listed {} could not be read",
            plural(unreadable, "file", "files")
        );
    }
    if bad > 0 {
        eprintln!(
            "unimac: WARNING: {bad} computed {} did NOT match",
            plural(bad, "tag", "tags")
        );
    }
    if reused > 0 {
        eprintln!(
            "unimac: WARNING: {reused} {} a nonce used before with another tag (nonce reuse under this key)",
            plural(reused, "line reuses", "lines reuse")
        );
    }
    Ok(good)
}

/// Parse the line `buf` (line `i` from 0; `fits`: not longer than
/// [`MAX_CHECK_LINE`]), counting it in `t` if it checks no file.
fn parse(&self, buf: &[u8], fits: bool, i: usize, seen: &mut NoncesSeen, t: &mut Tally) -> Parsed {
    let CheckList { name, m, sums_name, opts, .. } = *self;
    let mut notes = Vec::new();
    let line: &[u8] = if fits { buf } else { b"" };
    let parsed = if fits { split_check_line(line) } else { None };
    let made_by = parsed.as_ref().and_then(|l| l.mac.clone());
    let decoded = parsed.and_then(|l| {
        decode_value(&l.value, m.line_nonce_sizes(), m.desc().tag).map(|v| (v, l.file))
    });
    // A BSD-style line names its MAC: another MAC's line is not checked.
    if let Some(by) = &made_by {
        let by_name = crate::names::mac_name(by).unwrap_or_else(|| by.clone());
        if by_name != name {
            t.other_mac += 1;
            if !opts.status {
                let by_name = crate::input::terminal_safe(&by_name);
                notes.push(format!("unimac: {sums_name}: line {}: made by {by_name}, not checked with this {name} key", i + 1));
            }
            return (notes, None);
        }
    }
    let Some(((nonce, want), file)) = decoded else {
        t.malformed += 1;
        // The first few are named; a file of another format is then
        // summed up (--warn names every one).
        if !opts.status && (opts.warn || t.malformed <= SHOWN_MALFORMED) {
            notes.push(format!("unimac: {sums_name}: {}: improperly formatted {name} line", i + 1));
            if !opts.warn && t.malformed == SHOWN_MALFORMED {
                notes.push(format!("unimac: {sums_name}: further improperly formatted lines are counted, not shown (--warn shows each)"));
            }
        }
        return (notes, None);
    };
    // A nonce that two lines use with different tags was used for two
    // messages: the key's guarantee is gone, whatever the files hold.
    if let Some(c) = nonce.as_deref().and_then(|n| m.desc().canonical_nonce(n)) {
        let here = format!("{sums_name}: line {}", i + 1);
        match seen.0.get(&c) {
            Some((t0, first)) if t0 != &want => {
                t.reused += 1;
                if !opts.status {
                    notes.push(format!(
                        "unimac: {here}: nonce {} was used with another tag at {first}: a nonce must never repeat under one key",
                        hex::encode(nonce.as_deref().unwrap_or_default())
                    ));
                }
            }
            Some(_) => {}
            None => {
                seen.0.insert(c, (want.clone(), here));
            }
        }
    }
    let (esc, shown_name) = display_name(&file);
    let mut line_out = Vec::new();
    if esc {
        line_out.push(b'\\');
    }
    line_out.extend_from_slice(&shown_name);
    let job = CheckJob { line: i, path: bytes_path(&file), stdin: file == b"-", nonce, want, line_out };
    (notes, Some(job))
}

/// Check a line's file on this thread: a big file in stripes on threads
/// when the MAC splits, stdin once.
fn check_here(&self, job: &CheckJob, stdin_taken: &mut Option<&'static str>) -> Outcome {
    let CheckList { m, split, sums_name, opts, .. } = *self;
    if opts.ignore_missing && !job.stdin && std::fs::symlink_metadata(&job.path).is_err() {
        return Outcome::Missing;
    }
    let mut s = match m.start_check(job.nonce.as_deref(), &job.want) {
        Ok(s) => s,
        Err(e) => return Outcome::Fatal(Fail(cite(&e.to_string()))),
    };
    // Stdin can be read once: a second '-', or one while stdin is the
    // key file or the check list, cannot be checked.
    let read = if job.stdin {
        match stdin_taken.replace("an earlier line") {
            Some(taken) => {
                return Outcome::Fatal(Fail(format!(
                    "{sums_name}: line {}: checks '-' (stdin), but stdin is {taken}; give the file by name",
                    job.line + 1
                )))
            }
            None => feed_split(&job.path, None, &mut s),
        }
    } else {
        feed_split(&job.path, split, &mut s)
    };
    let whole = match read {
        Ok(w) => w,
        Err(Fail(e)) => return Outcome::Unreadable(e),
    };
    let good = match (split, whole) {
        (Some(sp), Some(w)) => sp.finish(job.nonce.as_deref(), &w).map(|g| unimac::tag::verify_tag(&g, &job.want).is_ok()),
        _ => s.verify(&job.want),
    };
    match good {
        Ok(g) => Outcome::Checked(g),
        Err(e) => Outcome::Fatal(e),
    }
}

/// Check a line's file on a worker: [`Outcome::Big`] for a regular file of
/// `input::SPLIT_MIN` bytes or more (not read), else as
/// [`check_here`](Self::check_here). Never stdin.
fn check_small(&self, job: &CheckJob) -> Outcome {
    let CheckList { m, opts, .. } = *self;
    if opts.ignore_missing && std::fs::symlink_metadata(&job.path).is_err() {
        return Outcome::Missing;
    }
    let mut s = match m.start_check(job.nonce.as_deref(), &job.want) {
        Ok(s) => s,
        Err(e) => return Outcome::Fatal(Fail(cite(&e.to_string()))),
    };
    match crate::input::read_below(&job.path, crate::input::SPLIT_MIN, |d| s.update(d)) {
        Ok(true) => {}
        Ok(false) => return Outcome::Big,
        Err(Fail(e)) => return Outcome::Unreadable(e),
    }
    match s.verify(&job.want) {
        Ok(g) => Outcome::Checked(g),
        Err(e) => Outcome::Fatal(e),
    }
}

/// Print a line's messages and result, in line order, and count it.
fn emit(&self, out: &mut LineWriter<'_>, t: &mut Tally, notes: Vec<String>, job: Option<CheckJob>, o: Option<Outcome>) -> Result<(), Fail> {
    let opts = self.opts;
    for n in notes {
        out.flush()?;
        eprintln!("{n}");
    }
    let (Some(job), Some(o)) = (job, o) else {
        return Ok(());
    };
    let mut line_out = job.line_out;
    match o {
        Outcome::Missing => t.ignored += 1,
        Outcome::Fatal(e) => {
            out.flush()?;
            return Err(e);
        }
        Outcome::Big => {
            out.flush()?;
            return Err(Fail(format!("{}: not checked", shown(Some(&job.path)))));
        }
        Outcome::Unreadable(e) => {
            t.unreadable += 1;
            if !opts.status {
                out.flush()?;
                eprintln!("unimac: {}", crate::input::clean_msg(&per_file(e)));
                line_out.extend_from_slice(b": FAILED open or read\n");
                out.write_all(&line_out)?;
            }
        }
        Outcome::Checked(true) => {
            t.ok += 1;
            if !opts.quiet && !opts.status {
                line_out.extend_from_slice(b": OK\n");
                out.write_all(&line_out)?;
            }
        }
        Outcome::Checked(false) => {
            t.bad += 1;
            if !opts.status {
                line_out.extend_from_slice(b": FAILED\n");
                out.write_all(&line_out)?;
            }
        }
    }
    Ok(())
}
}


/// `unimac bound NAME --max-bytes L [--tags C] [--forgeries D] [--random-nonces] [--json]`.
pub fn bound(
    name: &str,
    max_bytes: u64,
    tags: u64,
    forgeries: u64,
    random_nonces: bool,
    json: bool,
) -> Result<(), Fail> {
    if name == "modp" {
        return crate::identity::bound(max_bytes, forgeries, json);
    }
    let name = resolve_mac(name)?;
    let b = bounds::bound(
        &name,
        &Attack {
            max_bytes,
            tags,
            forgeries,
            random_nonces,
        },
    )
    .map_err(|e| match e {
        unimac::Error::UnknownName(_) => Fail(format!(
            "no bound for '{name}' (one of: {})",
            bounds::names().join(", ")
        )),
        e => Fail(cite(&e.to_string())),
    })?;
    let text = if json {
        format!("{}\n", b.to_json())
    } else {
        b.to_text()
    };
    io::stdout().write_all(cite(&text).as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod props;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_lines() {
        let t = "00".repeat(16);
        let n = "11".repeat(16);
        assert_eq!(
            parse_check_line(&format!("{t}  a b"), 0, 16),
            Some((None, vec![0; 16], "a b".into()))
        );
        assert_eq!(
            parse_check_line(&format!("{t} *f"), 0, 16).map(|x| x.2),
            Some("f".into())
        );
        assert_eq!(
            parse_check_line(&format!("{n}:{t}  f"), 16, 16),
            Some((Some(vec![0x11; 16]), vec![0; 16], "f".into()))
        );
        assert_eq!(
            parse_check_line(&format!("\\{t}  a\\nb\\\\c"), 0, 16).map(|x| x.2),
            Some("a\nb\\c".into())
        );
        for bad in [
            String::new(),
            format!("{t} f"),
            format!("{t}  "),
            format!("{t}0  f"),
            format!("{}  f", "zz".repeat(16)),
            format!("{t}  f").replace("00", "0"),
            format!("{n}{t}  f"),
        ] {
            assert_eq!(parse_check_line(&bad, 0, 16).map(|_| ()), None, "{bad:?}");
        }
        assert!(
            parse_check_line(&format!("{t}  f"), 16, 16).is_none(),
            "nonce MAC line without nonce"
        );
        assert!(parse_check_line(&format!("{n}:{t}  f"), 0, 16).is_none());
    }

    #[test]
    fn names_escape_round_trip() {
        for s in [&b"plain"[..], b"a\\b", b"new\nline", b"\\n", b"caf\xe9"] {
            let (esc, e) = escape_name(s);
            assert_eq!(esc, s != b"plain" && s != b"caf\xe9");
            assert_eq!(unimac::formats::checkline::unescape_name(&e).as_deref(), Some(s));
        }
    }

    #[test]
    fn bsd_lines() {
        let t = "00".repeat(16);
        let l = split_check_line(format!("hash127-aes (a (b) = c) = {t}").as_bytes()).unwrap();
        assert_eq!(l.mac.as_deref(), Some("hash127-aes"));
        assert_eq!(l.file, b"a (b) = c");
        assert_eq!(l.value, t);
        let line = tag_line("wc-mmh32x2", b"x\ny", Some(&[1]), &[2], true);
        assert_eq!(line, b"\\wc-mmh32x2 (x\\ny) = 01:02\n");
    }
}
