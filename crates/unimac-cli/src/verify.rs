//! `unimac verify` of check files ('unimac tag' output, either style), as
//! sha256sum --check: 'FILE: OK' or 'FILE: FAILED' per line, the listed
//! files checked in order or on a pool of threads, a nonce used twice with
//! different tags reported. (A sealed manifest is verified by `seal`.)

use unimac_front::prelude::*;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use unimac_front::registry::{self, NamedMac};

use crate::checklines::{bytes_path, decode_value, display_name, next_record, split_check_line};
use crate::fail::{per_file, Fail};
use crate::input::{io_msg, shown};
use crate::keyfile::{self, modp_not_tags};
use crate::names::{cite, resolve_mac};
use crate::pool;
use crate::split::{feed_split, Absorb, SplitMac};

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
const SHOWN_MALFORMED: usize = unimac_front::messages::SHOWN_MALFORMED;

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
            let macs = unimac_front::macs::MACS.iter();
            if let Some(m) = crate::names::suggest(s, macs.clone().map(|d| d.name).chain(macs.map(|d| d.catalog_name)))
                .and_then(unimac_front::macs::find)
                .map(|d| d.name)
            {
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
    let stdin_lists = stdin_lists(key_file, checks)?;
    let (name, key) = verify_key(name, key_file)?;
    // A line naming a named pipe is an error, never a wait for a writer.
    crate::input::named_pipes_refused();
    let m = Checker::new(&name, &key)?;
    // Named in the hint when every line fails: which key this was.
    let fingerprint = hex::encode(unimac_front::formats::counter::Binding::new(m.desc(), &key).fingerprint());
    let key_shown = shown(Some(key_file));
    let key_about = format!("key file {key_shown}, {name} key fingerprint {fingerprint}");
    // Big files in stripes on all allowed cores (crate::split).
    let split = SplitMac::new(&name, &key);
    // Each check file is read as a stream, line by line (a line longer than
    // MAX_CHECK_LINE is an error), and each listed file is opened once.
    let mut stdin_taken = match (stdin_lists, key_file.as_os_str() == "-") {
        (1, _) => Some("the check list"),
        (_, true) => Some("the key file"),
        _ => None,
    };
    // When stdin is the key file, a check file that lists '-' is refused
    // before anything is checked (a first pass over the named check files;
    // a check list on stdin is refused at its '-' line).
    if key_file.as_os_str() == "-" || stdin_lists == 1 {
        refuse_stdin_lines(checks, opts.zero, stdin_taken)?;
    }
    let mut all_ok = true;
    let mut seen = NoncesSeen::default();
    for c in checks {
        let shown_c = shown(Some(c));
        let reader: Box<dyn io::BufRead> = if c.as_os_str() == "-" {
            Box::new(io::BufReader::new(io::stdin()))
        } else {
            let f = open_check_file(c)?;
            Box::new(io::BufReader::with_capacity(1 << 16, f))
        };
        let list = CheckList { name: &name, m: &m, split: split.as_ref(), sums_name: &shown_c, key_about: &key_about, opts };
        all_ok &= list.verify(reader, &mut seen, &mut stdin_taken)?;
    }
    Ok(all_ok)
}

/// How many of the check files are stdin (`-`): at most one, and none
/// when the key file is stdin.
fn stdin_lists(key_file: &Path, checks: &[PathBuf]) -> Result<usize, Fail> {
    let stdin_lists = checks.iter().filter(|c| c.as_os_str() == "-").count();
    if stdin_lists > 1 {
        return Err(Fail("stdin ('-') can be read only once".into()));
    }
    if stdin_lists == 1 && key_file.as_os_str() == "-" {
        return Err(Fail(
            "stdin ('-') cannot be both the key file and a check file".into(),
        ));
    }
    Ok(stdin_lists)
}

/// The MAC's name and key of `verify`: the key file's, which must be of
/// `name` when one is given; never a modp key.
fn verify_key(name: Option<&str>, key_file: &Path) -> Result<(String, zeroize::Zeroizing<Vec<u8>>), Fail> {
    let (name, key) = match name {
        Some(n) => {
            let n = resolve_mac(n)?;
            let k = keyfile::read_key(key_file, &n)?;
            (n, k)
        }
        None => keyfile::read_named_key(key_file)?,
    };
    if crate::names::is_modp(&name) {
        return Err(modp_not_tags(key_file));
    }
    Ok((name, key))
}

/// A first pass over the check files named (not stdin) when stdin is
/// taken (`stdin_taken`: by what): a line that checks `-` is refused
/// before anything is checked.
fn refuse_stdin_lines(checks: &[PathBuf], zero: bool, stdin_taken: Option<&str>) -> Result<(), Fail> {
    for c in checks.iter().filter(|c| c.as_os_str() != "-") {
        let shown_c = shown(Some(c));
        let f = open_check_file(c)?;
        let mut r = io::BufReader::with_capacity(1 << 16, f);
        let mut buf = Vec::new();
        let mut i = 0usize;
        while let Some(fits) = next_record(&mut r, &mut buf, zero).map_err(|e| Fail(format!("cannot read {shown_c}: {}", io_msg(&e))))? {
            i += 1;
            if fits && split_check_line(&buf).is_some_and(|l| l.file == b"-") {
                return Err(Fail(format!(
                    "{shown_c}: line {i}: checks '-' (stdin), but stdin is {}; give the file by name",
                    stdin_taken.unwrap_or("taken")
                )));
            }
        }
    }
    Ok(())
}

/// A check file named as an argument, opened under the library's rule for
/// arguments (`fsio::open_argument`): a named pipe, device, socket or
/// directory is refused, never read (a check list on a pipe comes as `-`).
fn open_check_file(c: &Path) -> Result<std::fs::File, Fail> {
    crate::input::open_list_argument(c, "check file")
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
            NamedMac::of_row(d, key).map(|m| Checker::Reusable(Box::new(m)))
        };
        r.map_err(|e| Fail(cite(&e.to_string())))
    }
    fn desc(&self) -> &'static unimac_front::macs::MacDesc {
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

impl Absorb for Check {
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
            Check::Reusable(s) => s.finalize().map(|g| unimac::verify_tag(&zeroize::Zeroizing::new(g), want).is_ok()),
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
    /// The key file and its key's fingerprint, for the hint when every
    /// line fails.
    key_about: &'a str,
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
    /// A line holding a NUL byte was named (verify without `-z` of `tag -z`
    /// output).
    nul: bool,
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
    let CheckList { sums_name, opts, .. } = *self;
    let mut t = Tally::default();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut buf = Vec::new();
    let mut i = 0usize;
    let mut next_line = |t: &mut Tally| -> Result<Option<Parsed>, Fail> {
        let fits = match next_record(&mut *r, &mut buf, opts.zero) {
            Ok(Some(f)) => f,
            Ok(None) => return Ok(None),
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                return Err(Fail(format!("{sums_name}: line {}: {}; not a check file", i + 1, io_msg(&e))))
            }
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
        self.check_pooled(threads, &mut next_line, &mut out, &mut t, stdin_taken)?;
    }
    out.flush()?;
    Ok(self.summarize(t))
}

/// The files of a window of lines checked on `threads` workers, the
/// results taken back in line order; a line for stdin, and a big file
/// (which a worker leaves: `Outcome::Big`), are checked here, as `tag`
/// does them (see `tag_pooled`).
fn check_pooled(
    &self,
    threads: usize,
    next_line: &mut dyn FnMut(&mut Tally) -> Result<Option<Parsed>, Fail>,
    out: &mut LineWriter<'_>,
    t: &mut Tally,
    stdin_taken: &mut Option<&'static str>,
) -> Result<(), Fail> {
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
        while let Some((notes, job)) = next_line(t)? {
            match job {
                Some(job) if job.stdin => {
                    while let Some(r) = pool.next()? {
                        emit(r, out, t, stdin_taken)?;
                    }
                    let o = self.check_here(&job, stdin_taken);
                    self.emit(out, t, notes, Some(job), Some(o))?;
                }
                job => {
                    while !pool.has_room() {
                        if let Some(r) = pool.next()? {
                            emit(r, out, t, stdin_taken)?;
                        }
                    }
                    match job {
                        Some(job) => pool.push((notes, job), false),
                        None if pool.is_empty() => self.emit(out, t, notes, None, None)?,
                        None => pool.push_done((notes, None)),
                    }
                }
            }
            while let Some(r) = pool.try_next()? {
                emit(r, out, t, stdin_taken)?;
            }
        }
        while let Some(r) = pool.next()? {
            emit(r, out, t, stdin_taken)?;
        }
        Ok(())
    })
}

/// Whether a check file verified, from its tally; what it found wrong
/// said on stderr (unless `--status`).
fn summarize(&self, t: Tally) -> bool {
    let CheckList { name, sums_name, opts, .. } = *self;
    let Tally { ok, bad, unreadable, malformed, ignored, other_mac, reused, nul } = t;
    if ok + bad + unreadable + ignored + other_mac == 0 {
        if nul && !opts.warn {
            // The NUL line's hint said it.
            return false;
        }
        eprintln!("unimac: {}", unimac_front::messages::no_check_lines(sums_name, name));
        return false;
    }
    if ok + bad + unreadable == 0 && other_mac == 0 {
        eprintln!("unimac: {sums_name}: no file was verified");
        return false;
    }
    let good = bad + unreadable + other_mac + reused == 0 && (malformed == 0 || !opts.strict);
    if opts.status {
        return good;
    }
    let counts = unimac_front::messages::CheckCounts { malformed, other_mac, unreadable, bad, reused };
    for w in unimac_front::messages::check_warnings(&counts, name) {
        eprintln!("unimac: {w}");
    }
    if bad > 1 && ok + unreadable + malformed + ignored + other_mac == 0 {
        eprintln!(
            "unimac: every line failed: is this the key the lines were made with? ({})",
            self.key_about
        );
    }
    good
}

/// Parse the line `buf` (line `i` from 0; `fits`: not longer than
/// [`MAX_CHECK_LINE`](crate::checklines::MAX_CHECK_LINE)), counting it in `t` if it checks no file.
fn parse(&self, buf: &[u8], fits: bool, i: usize, seen: &mut NoncesSeen, t: &mut Tally) -> Parsed {
    let CheckList { name, m, sums_name, opts, .. } = *self;
    let mut notes = Vec::new();
    // `tag -z` output read without -z: one "line" of NUL-ended lines.
    if fits && !opts.zero && buf.contains(&0) {
        t.malformed += 1;
        if !opts.status && (!t.nul || opts.warn) {
            notes.push(format!("unimac: {sums_name}: line {} holds a NUL byte: made with -z? verify with -z", i + 1));
        }
        t.nul = true;
        return (notes, None);
    }
    let line: &[u8] = if fits { buf } else { b"" };
    let parsed = if fits { split_check_line(line) } else { None };
    let made_by = parsed.as_ref().and_then(|l| l.mac.clone());
    // A GNU-style line whose value fits another MAC's sizes, not this one's.
    let other_len = match (&parsed, &made_by) {
        (Some(l), None) => other_mac_tag_len(&l.value, m.desc()),
        _ => None,
    };
    let decoded = parsed.and_then(|l| {
        decode_value(&l.value, m.line_nonce_sizes(), m.desc().tag).map(|v| (v, l.file))
    });
    // A BSD-style line names its MAC: another MAC's line is not checked.
    if let Some(by) = &made_by {
        let by_name = crate::names::mac_name(by).unwrap_or_else(|| by.clone());
        if by_name != name {
            t.other_mac += 1;
            // Named once per check file (--warn: each).
            if !opts.status && (opts.warn || t.other_mac == 1) {
                let by_name = crate::input::terminal_safe(&by_name);
                notes.push(format!("unimac: {sums_name}: line {}: {}", i + 1, unimac_front::messages::made_by_other(&by_name, name)));
            }
            return (notes, None);
        }
    }
    if let (None, Some(n)) = (&decoded, other_len) {
        t.other_mac += 1;
        if !opts.status && (opts.warn || t.other_mac == 1) {
            notes.push(format!("unimac: these lines look made with another MAC (tag length {n} bytes); this is a {name} key"));
        }
        return (notes, None);
    }
    let Some(((nonce, want), file)) = decoded else {
        t.malformed += 1;
        // The first few are named; a file of another format is then
        // summed up (--warn names every one).
        if !opts.status && (opts.warn || t.malformed <= SHOWN_MALFORMED) {
            notes.push(format!("unimac: {}", unimac_front::messages::malformed_line(sums_name, i + 1, name)));
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
                    let hex = hex::encode(nonce.as_deref().unwrap_or_default());
                    notes.push(format!("unimac: {here}: {}", unimac_front::messages::nonce_reused(&hex, first)));
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
        (Some(sp), Some(w)) => sp.finish(job.nonce.as_deref(), &w).map(|g| unimac::verify_tag(&g, &job.want).is_ok()),
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
                line_out.extend_from_slice(format!(": {}\n", unimac_front::messages::CHECK_UNREADABLE).as_bytes());
                out.write_all(&line_out)?;
            }
        }
        Outcome::Checked(true) => {
            t.ok += 1;
            if !opts.quiet && !opts.status {
                line_out.extend_from_slice(format!(": {}\n", unimac_front::messages::CHECK_OK).as_bytes());
                out.write_all(&line_out)?;
            }
        }
        Outcome::Checked(false) => {
            t.bad += 1;
            if !opts.status {
                line_out.extend_from_slice(format!(": {}\n", unimac_front::messages::CHECK_FAILED).as_bytes());
                out.write_all(&line_out)?;
            }
        }
    }
    Ok(())
}
}

/// The tag length (bytes) of a check line's value that fits another MAC's
/// nonce and tag sizes but not `here`'s: a line made with another MAC.
fn other_mac_tag_len(value: &str, here: &unimac_front::macs::MacDesc) -> Option<usize> {
    let fits = |d: &unimac_front::macs::MacDesc| decode_value(value, d.nonce.min()..=d.nonce.max(), d.tag).map(|(_, t)| t.len());
    if fits(here).is_some() {
        return None;
    }
    registry::names()
        .iter()
        .filter_map(|n| registry::desc(n).ok())
        .filter(|d| d.name != here.name)
        .find_map(fits)
}
