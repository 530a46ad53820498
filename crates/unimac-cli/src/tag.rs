//! `unimac tag`: authenticating files with the named MACs of the wire
//! format, docs/WIRE.md §8 (named `X` or `mac-X`), with sha256sum's line
//! formats, options and exit codes: nonces from a counter, the command line
//! or the OS generator, files hashed in order or on a pool of threads, a
//! one-time MAC's key marked spent before its tag is shown.

use unimac_front::prelude::*;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use unimac_front::formats::keyfile::KeyFile;
use unimac_front::partial::Partial;
use unimac_front::registry::{self, NamedMac};

use crate::checklines::{path_bytes, tag_line_ended};
use crate::fail::{per_file, Fail};
use crate::files::{collect_files, FileList, Item};
use crate::input::{io_msg, read_message, Known};
use crate::keyfile::{self, counter_nonce, modp_not_tags};
use crate::names::{cite, resolve_mac};
use crate::pool;
use crate::split::{feed_split, Bytes, Metered, Absorb, SplitMac};
use crate::strength::check_strength_for;

/// A file's error line of `tag` ([`per_file`]): a directory named
/// without `-r` points at `-r`.
fn tag_error(e: String) -> String {
    let e = per_file(e);
    match e.strip_suffix(": is a directory") {
        Some(name) => unimac_front::messages::directory_needs_recursive(name, "-r"),
        None => e,
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
        return Err(unimac_front::messages::directory_needs_recursive(&name.to_string(), "-r"));
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
    /// One nonce, hex, and whether the caller opted in
    /// (`--caller-manages-nonces`) to keeping it from ever repeating.
    Fixed(&'a str, bool),
    /// 128 random bits per message from the OS generator (Bernstein,
    /// "Floating-point arithmetic and message authentication" §9, "Random
    /// numbers instead of counters").
    Random,
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

/// `unimac tag -k K [--mac NAME] [--counter F | --nonce HEX | --random-nonce] [--tag] [FILE...]`:
/// the MAC is the key file's (`mac`, if given, must be it); every FILE is
/// a file, but for a first one that is exactly the key file's MAC's name
/// (the old `tag NAME --key-file K FILE...`, taken as `--mac NAME`).
/// `Ok(false)` if some file could not be read (its error on stderr, the
/// other files' lines printed).
pub fn tag(
    mac: Option<&str>,
    key_file: &Path,
    opts: TagOpts<'_>,
    files: &[PathBuf],
) -> Result<bool, Fail> {
    if mac.is_some_and(crate::names::is_modp) {
        return Err(modp_not_tags(key_file));
    }
    let asserted = mac.map(resolve_mac).transpose()?;
    // Stdin is read once: refused before the key file is read from it.
    if key_file.as_os_str() == "-" {
        refuse_stdin_twice(opts.list.files_from, files.iter().map(PathBuf::as_path), files.is_empty())?;
    }
    let (kf, files) = tag_key(asserted.as_deref(), key_file, files)?;
    let name = kf.name();
    let desc = kf.desc().expect("a modp key file was refused above");
    let items = collect_files(files, opts.list)?;
    // One stat per file: a file that does not exist is found now (and gets
    // no nonce), and the sizes serve the strength check and the output.
    // With threads, the stats are spread over them in contiguous runs.
    let (items, sizes, known) = stat_all(items, crate::split::allowed_threads());
    #[cfg(unix)]
    let (items, sizes, known) = without_own_output(items, sizes, known);
    if key_file.as_os_str() == "-" {
        refuse_stdin_twice(opts.list.files_from, items.iter().map(|(f, _)| f.as_path()), false)?;
    }
    if desc.one_time && items.len() > 1 {
        return Err(Fail(format!(
            "{name} is a one-time MAC: one message per key"
        )));
    }
    if desc.one_time {
        return tag_one_time(desc, key_file, opts, &items);
    }
    let key = zeroize::Zeroizing::new(kf.key().to_vec());
    let m = NamedMac::of_row(desc, &key).map_err(|e| Fail(cite(&e.to_string())))?;
    let random = matches!(opts.nonces, NonceSource::Random);
    let fixed_nonce = fixed_nonce(name, desc, &m, opts.nonces, items.len())?;
    // Every file a regular one: one that is not when read is an error.
    if items.iter().zip(&known).all(|((_, e), k)| e.is_some() || k.is_some()) {
        crate::input::listed_files_are_regular();
    }
    if !opts.allow_weak {
        check_strength_for(name, &sizes, random)?;
    }
    // The nonces are reserved durably (lock, write, fsync, rename, fsync the
    // directory) before any file is hashed: a counter that cannot be used is
    // reported before any work, and no tag is printed before its nonce is on
    // disk. One nonce per file listed; a file that fails skips its nonce.
    let listed = items.iter().filter(|(_, e)| e.is_none()).count();
    let binding = unimac_front::formats::counter::Binding::new(desc, &key);
    let next = match opts.nonces {
        NonceSource::Counter(c) if listed > 0 => Some(keyfile::reserve(c, listed as u128, &binding)?),
        _ => None,
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
    } else {
        tag_in_turn(&m, (&items, &sizes, &known), &progress, &mut out, &mut tagger)?;
    }
    progress.finish();
    out.finish()?;
    Ok(tagger.all_good)
}

/// Stdin as the key file (checked by the caller) and also as the list of
/// files or as a file to tag (`files`; `none_given`: no file and no list,
/// so stdin would be the message): refused.
fn refuse_stdin_twice<'a>(files_from: Option<&Path>, mut files: impl Iterator<Item = &'a Path>, none_given: bool) -> Result<(), Fail> {
    if files_from.is_some_and(|f| f.as_os_str() == "-") {
        return Err(Fail(
            "stdin ('-') cannot be both the key file and the list of files".into(),
        ));
    }
    if files.any(|f| f.as_os_str() == "-") || (none_given && files_from.is_none()) {
        return Err(Fail(
            "stdin ('-') cannot be both the key file and a file to tag".into(),
        ));
    }
    Ok(())
}

/// The key file of `tag` (of the MAC `asserted`, if given; never a modp
/// key) and the files to tag: without a first one that is exactly the key
/// file's MAC's name (the old `tag NAME --key-file K FILE...`, an
/// assertion that holds, not a file).
fn tag_key<'f>(asserted: Option<&str>, key_file: &Path, files: &'f [PathBuf]) -> Result<(KeyFile, &'f [PathBuf]), Fail> {
    let first_mac = match asserted {
        None => files.first().and_then(|f| f.to_str()).and_then(crate::names::mac_name),
        Some(_) => None,
    };
    let kf = match keyfile::read_key_file_for(key_file, asserted) {
        Ok(k) => k,
        // The old form `tag NAME --key-file K` with a key file that cannot
        // be read as it is: its error as for NAME (the conversion of a
        // bare-hex key file names it).
        Err(e) => match first_mac.as_deref().filter(|_| key_file.as_os_str() != "-") {
            Some(n) => keyfile::read_key_file_for(key_file, Some(n))?,
            None => return Err(e),
        },
    };
    if kf.kind() == unimac_front::formats::keyfile::KeyKind::Modp {
        return Err(modp_not_tags(key_file));
    }
    let files = match files.split_first() {
        Some((_, rest)) if first_mac.as_deref() == Some(kf.name()) => rest,
        _ => files,
    };
    Ok((kf, files))
}

/// The items without the file standard output is written to: `tag -r
/// DIR > DIR/SUMS` leaves SUMS out (found by the stats just taken: no
/// second stat, nothing kept per file).
#[cfg(unix)]
fn without_own_output(items: Vec<Item>, sizes: Vec<Option<u64>>, known: Vec<Option<Known>>) -> (Vec<Item>, Vec<Option<u64>>, Vec<Option<Known>>) {
    let Some(out) = crate::files::stdout_file().map(|(id, _)| id) else {
        return (items, sizes, known);
    };
    let keep: Vec<bool> = known.iter().map(|k| !k.is_some_and(|k| k.id() == out)).collect();
    let mut it = keep.iter();
    let items: Vec<Item> = items.into_iter().filter(|_| *it.next().unwrap_or(&true)).collect();
    let mut it = keep.iter();
    let sizes: Vec<Option<u64>> = sizes.into_iter().filter(|_| *it.next().unwrap_or(&true)).collect();
    let mut it = keep.iter();
    let known: Vec<Option<Known>> = known.into_iter().filter(|_| *it.next().unwrap_or(&true)).collect();
    (items, sizes, known)
}

/// How the command line names a caller's nonce, its opt-in and the nonces
/// that never repeat in the library's refusal (`policy::caller_nonce`).
pub(crate) const CALLER_NONCE: unimac_front::formats::policy::CallerNonceWords<'static> =
    unimac_front::formats::policy::CallerNonceWords { nonce: "--nonce", opt_in: "--caller-manages-nonces", counter: "--counter FILE" };

/// The one nonce of `tag --nonce HEX` (`None` for any other source), once
/// the source is found to fit the MAC: none for a MAC without nonces (or
/// one that draws its own pair), one for a MAC with them, a fixed nonce of
/// a length the MAC takes and for one file only.
fn fixed_nonce(name: &str, desc: &unimac_front::macs::MacDesc, m: &NamedMac, nonces: NonceSource<'_>, files: usize) -> Result<Option<Vec<u8>>, Fail> {
    let nl = *m.nonce_sizes().end();
    // shoup4-*: stateless, the library draws r || s (the "nonce" of the tag
    // line) per message.
    let stateless = desc.framing == unimac_front::macs::Framing::PairThenTag;
    match (nl, nonces) {
        (0, NonceSource::None) => Ok(None),
        (0, _) if stateless => Err(Fail(format!(
            "{name} is stateless: r || s is drawn at random for every message (no --counter, --nonce or --random-nonce)"
        ))),
        (0, _) => Err(Fail(format!("{name} takes no nonce (no --counter, --nonce or --random-nonce)"))),
        (_, NonceSource::Random | NonceSource::Counter(_)) => Ok(None),
        (_, NonceSource::None) => Err(Fail(format!(
            "{name} needs a nonce: give --counter FILE, --random-nonce, or --nonce HEX"
        ))),
        (_, NonceSource::Fixed(h, opted_in)) => {
            unimac_front::formats::policy::caller_nonce(desc, true, opted_in, &CALLER_NONCE)?;
            let n = hex::decode(h.trim()).map_err(|e| Fail(format!("--nonce is not valid hex: {e}")))?;
            // The library's rule and message for the nonce's length (and
            // VMAC's top bit), with the digits --nonce takes.
            desc.check_nonce(Some(&n)).map_err(|e| match e {
                unimac::Error::NonceLength { expected, .. } => Fail(format!("{e} (--nonce takes {} hex digits)", 2 * expected)),
                e => Fail(e.to_string()),
            })?;
            if files > 1 {
                return Err(Fail("--nonce with more than one file would use the nonce twice; use --counter".into()));
            }
            Ok(Some(n))
        }
    }
}

/// `tag` on this thread: each file hashed, tagged and printed in turn,
/// then dropped: one key set-up for the run, the state of one file at a
/// time, and every line out as soon as its file (and all before it) is
/// done.
fn tag_in_turn(
    m: &NamedMac,
    (items, sizes, known): (&[Item], &[Option<u64>], &[Option<Known>]),
    progress: &Progress,
    out: &mut LineOut,
    tagger: &mut Tagger<'_>,
) -> Result<(), Fail> {
    for (((f, e), size), k) in items.iter().zip(sizes).zip(known) {
        if e.is_none() {
            out.before(*size)?;
        }
        let hashed = match e {
            Some(e) => Err(e.clone()),
            // A small file, as a worker reads it (open, read, fstat, close).
            None if progress.bar.is_none() && size.is_some_and(|n| n < crate::input::BUF as u64) => hash_known(m, f, *k),
            None => hash_one(m, f, progress, tagger.split),
        };
        progress.file_done();
        tagger.emit(out, f, hashed)?;
    }
    Ok(())
}

/// The stat pass of `tag`: each item's error if it has one or its path
/// cannot be stat'ed, and the size and stamp of each regular file; on up
/// to `threads` threads, each taking contiguous runs of the items (a stat
/// is too quick to hand out one at a time). Written in place: nothing per
/// file but the stamp is added (a listing of 100 000 files).
#[allow(clippy::type_complexity)]
fn stat_all(mut items: Vec<Item>, threads: usize) -> (Vec<Item>, Vec<Option<u64>>, Vec<Option<Known>>) {
    let mut known: Vec<Option<Known>> = vec![None; items.len()];
    let run = |its: &mut [Item], ks: &mut [Option<Known>]| {
        for ((p, e), k) in its.iter_mut().zip(ks) {
            if e.is_some() || p.as_os_str() == "-" {
                continue;
            }
            match crate::input::stat_listed(p) {
                Ok((_, got)) => *k = got,
                Err(x) => *e = Some(format!("{}: {}", p.display(), io_msg(&x))),
            }
        }
    };
    // Below a few hundred files a thread costs more than it saves.
    let runs = threads.min(items.len() / 256).max(1);
    if runs < 2 {
        run(&mut items, &mut known);
    } else {
        // Runs of 256 handed out in turn: a thread that cannot start
        // leaves its runs to the others and to this one.
        let per = 256;
        let queue = std::sync::Mutex::new(items.chunks_mut(per).zip(known.chunks_mut(per)));
        let work = || loop {
            let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
            match next {
                Some((its, ks)) => run(its, ks),
                None => return,
            }
        };
        std::thread::scope(|s| {
            for _ in 1..runs {
                let _ = std::thread::Builder::new().spawn_scoped(s, work);
            }
            work();
        });
    }
    let sizes = known.iter().map(|k| k.map(|k| k.len())).collect();
    (items, sizes, known)
}

/// A file hashed for `tag`: its message state, and its whole partial if it
/// was hashed in stripes of partials; or its error line.
type Hashed = Result<(registry::Pending, Option<Partial>), String>;

/// Hash the file at `f` on this thread (a big one in stripes on threads if
/// `split` is given).
fn hash_one(m: &NamedMac, f: &Path, progress: &Progress, split: Option<&SplitMac>) -> Hashed {
    let mut p = m.start_deferred().map_err(|e| cite(&e.to_string()))?;
    let whole = progress.feed(f, split, &mut p).map_err(|Fail(e)| tag_error(e))?;
    Ok((p, whole))
}

/// Hash the small regular file `f`, listed with the stamp `k`, on this
/// thread ([`crate::input::read_known`]: open, read, `fstat`, close).
fn hash_known(m: &NamedMac, f: &Path, k: Option<Known>) -> Hashed {
    let mut p = m.start_deferred().map_err(|e| cite(&e.to_string()))?;
    crate::input::read_known(f, k, |d| p.update(d)).map_err(|Fail(e)| tag_error(e))?;
    Ok((p, None))
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
            crate::input::read_known(f, k, update).map_err(|Fail(e)| tag_error(e))?;
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
    desc: &'static unimac_front::macs::MacDesc,
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
            getrandom::fill(&mut n).map_err(|e| Fail(unimac_front::formats::messages::random_failed(&e)))?;
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
            unimac_front::macs::Framing::PairThenTag => {
                let (rs, t) = sent.split_at(desc.nonce.max());
                (Some(rs.to_vec()), t.to_vec())
            }
            unimac_front::macs::Framing::Tag => (n, sent),
        };
        let opts = self.opts;
        out.line(&tag_line_ended(self.name, &path_bytes(f), n.as_deref(), &t, opts.bsd, opts.zero))
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
    fn feed(&self, path: &Path, split: Option<&SplitMac>, sink: &mut dyn Absorb) -> Result<Option<Partial>, Fail> {
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
    desc: &'static unimac_front::macs::MacDesc,
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
