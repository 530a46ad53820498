//! `unimac stream`: authenticated streams (the library's
//! `unimac_front::formats::stream`, docs/WIRE.md §10). `stream -k K [IN]` writes
//! the framed stream of IN (stdin by default) to stdout; `stream --verify -k
//! K [IN]` writes the payload, each chunk only once its tag verifies, and
//! stops at the first bad, missing, repeated, reordered or foreign chunk,
//! naming it. `--hold` keeps everything in an anonymous temporary file
//! until the whole stream has verified, for consumers that must not see a
//! prefix. `--seen FILE` records each stream's id before its first byte is
//! released, and refuses an id recorded before (docs/WIRE.md §10).

use std::fs::File;
use std::io::{self, IsTerminal, Read, Seek, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use unimac_front::formats::fsio::NewFile;
use unimac_front::formats::stream::{Receiver, Sender, FRAME_HEAD};

use crate::keyfile;
use crate::Fail;

/// Options of `stream`.
#[derive(Clone, Copy, Debug)]
pub struct StreamOpts<'a> {
    /// Check a stream and write its payload (else: frame the input).
    pub verify: bool,
    /// With `verify`: write nothing until the whole stream verified.
    pub hold: bool,
    /// Bytes per chunk when framing.
    pub chunk: usize,
    /// With `verify`: the file of stream ids seen before under this key;
    /// a repeated id is refused, one about to be released recorded.
    pub seen: Option<&'a Path>,
    /// Use a MAC that is weak for this use (as `tag --allow-weak`).
    pub allow_weak: bool,
    /// Write to standard output even when it is a terminal.
    pub force_tty: bool,
    /// Write to this new file instead of standard output, whole or not at
    /// all ([`unimac_front::formats::fsio::NewFile`]).
    pub output: Option<&'a Path>,
}

/// The verifying side's read buffer until the stream's header is read
/// (then sized from the L2 and the frames, [`check`]).
const BUF: usize = 1 << 20;

/// One progress line on a terminal, as `tag` shows it.
struct Progress {
    on: bool,
    last: Instant,
    shown: bool,
}

impl Progress {
    fn new() -> Progress {
        Progress { on: io::stderr().is_terminal(), last: Instant::now(), shown: false }
    }
    fn update(&mut self, bytes: u64, chunks: u64) {
        if self.on && self.last.elapsed() >= Duration::from_millis(200) {
            self.last = Instant::now();
            self.shown = true;
            eprint!("\r\x1b[Kunimac: stream: {} MiB, {chunks} chunks", bytes >> 20);
        }
    }
    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
            self.shown = false;
        }
    }
}

fn read_some(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            x => return x,
        }
    }
}

fn open_input(input: Option<&Path>) -> Result<Box<dyn Read>, Fail> {
    match input {
        None => Ok(Box::new(io::stdin().lock())),
        Some(p) if p.as_os_str() == "-" => Ok(Box::new(io::stdin().lock())),
        Some(p) => {
            let f = File::open(p).map_err(|e| Fail(format!("cannot open {}: {}", p.display(), crate::input::io_msg(&e))))?;
            if f.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(Fail(format!("cannot read {}: is a directory", p.display())));
            }
            Ok(Box::new(f))
        }
    }
}

/// `unimac stream [--verify [--hold] [--seen FILE]] -k K [--chunk-size N] [IN]`:
/// `Ok(false)` for a stream that does not verify (the reason on stderr).
pub fn stream(key_file: &Path, input: Option<&Path>, opts: StreamOpts<'_>) -> Result<bool, Fail> {
    if key_file.as_os_str() == "-" && input.is_none_or(|p| p.as_os_str() == "-") {
        return Err(Fail("stdin ('-') cannot be both the key file and the stream".into()));
    }
    if opts.hold && !opts.verify {
        return Err(Fail("--hold applies to --verify".into()));
    }
    if opts.seen.is_some() && !opts.verify {
        return Err(Fail("--seen applies to --verify".into()));
    }
    // A stream is binary, and a payload may be: never onto a terminal
    // unless asked (as age refuses), before anything is read.
    if opts.output.is_none() && !opts.force_tty && io::stdout().is_terminal() {
        let what = if opts.verify { "the payload (it may be binary)" } else { "a binary stream" };
        return Err(Fail(format!(
            "standard output is a terminal: not writing {what} to it; redirect it to a file or a pipe, or give --force-tty"
        )));
    }
    let key = keyfile::read_key_file(key_file)?;
    // The strength policy of `tag`, with chunks as the messages.
    unimac_front::formats::policy::check_stream(&key, opts.chunk, opts.allow_weak)?;
    let what = if opts.verify { "payload" } else { "stream" };
    let fail = |e: unimac::Error| Fail(e.to_string());
    // The output file is made (and an existing one refused) before the
    // input is read.
    let mut out = opts.output.map(|p| NewFile::create(p, what)).transpose().map_err(fail)?;
    let mut r = open_input(input)?;
    widen_pipes();
    let mut stdout;
    let w: &mut dyn Write = match out.as_mut() {
        Some(f) => f,
        None => {
            stdout = whole_writes_stdout();
            &mut *stdout
        }
    };
    let ok = if opts.verify { check(&key, &mut *r, opts, w)? } else { send(&key, &mut *r, opts.chunk, w).map(|_| true)? };
    // Placed only when everything was written (and verified): otherwise
    // the new file is dropped and nothing is left under its name.
    match (ok, out) {
        (true, Some(f)) => f.commit(what).map_err(fail).map(|_| true),
        (ok, _) => Ok(ok),
    }
}

/// Ask for 1 MiB pipe buffers on standard input and output where they are
/// pipes (Linux): a 64 KiB pipe makes the two ends of `stream | stream
/// --verify` take turns, a larger one lets each hash while the other copies
/// (docs/PERFORMANCE.md, "Streams"). Refusals (a pipe limit) are ignored.
fn widen_pipes() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::pipe::fcntl_setpipe_size(io::stdin(), 1 << 20);
        let _ = rustix::pipe::fcntl_setpipe_size(io::stdout(), 1 << 20);
    }
}

/// Standard output written as it is given: on Unix its descriptor itself
/// (a duplicate), not Rust's line-buffered `Stdout`, which splits every
/// write at its last newline byte (a chunk of random bytes has one about
/// every 256 bytes) into a `write` up to it and a buffered rest written
/// before the next: two `write`s a frame, and the reader at the other end
/// of a pipe woken for a few bytes (docs/perf/cli.md, "Streams").
fn whole_writes_stdout() -> Box<dyn Write> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(File::from(fd));
        }
    }
    Box::new(io::stdout().lock())
}

/// Fill `buf` from `r` until it is full or the input ends: the bytes read.
fn fill(r: &mut dyn Read, buf: &mut [u8]) -> Result<usize, Fail> {
    let mut n = 0;
    while n < buf.len() {
        let k = read_some(r, &mut buf[n..]).map_err(|e| Fail(format!("cannot read the input: {}", crate::input::io_msg(&e))))?;
        if k == 0 {
            break;
        }
        n += k;
    }
    Ok(n)
}

/// Frame the input: each chunk read straight into its frame (the head in
/// front, the tag after, sealed in place), then written whole; a full
/// chunk waits for the next read to show whether it is the last.
fn send(key: &unimac_front::formats::keyfile::KeyFile, r: &mut dyn Read, chunk: usize, w: &mut dyn Write) -> Result<(), Fail> {
    let mut s = Sender::new(key, chunk).map_err(|e| Fail(e.to_string()))?;
    let size = chunk + s.overhead();
    let (mut a, mut b) = (vec![0u8; size], vec![0u8; size]);
    w.write_all(s.take_header())?;
    let mut progress = Progress::new();
    let mut total = 0u64;
    let mut len = fill(r, &mut a[FRAME_HEAD..FRAME_HEAD + chunk])?;
    loop {
        let next = if len == chunk { fill(r, &mut b[FRAME_HEAD..FRAME_HEAD + chunk])? } else { 0 };
        let last = next == 0;
        let n = s.seal_frame(&mut a, len, last).map_err(|e| Fail(e.to_string()))?;
        w.write_all(&a[..n])?;
        total += len as u64;
        progress.update(total, total / chunk as u64);
        if last {
            break;
        }
        std::mem::swap(&mut a, &mut b);
        len = next;
    }
    w.flush()?;
    progress.clear();
    Ok(())
}

/// One record of the file of seen ids: 32 lowercase hex digits and a
/// newline, written by one `write`.
const RECORD: usize = 33;

/// Why a file of seen ids must have one link.
const ONE_LINK: &str = "the file of seen stream ids has one name (another could be a file it must not change)";

/// Open the file of seen ids `seen` for reading and appending: the file
/// and whether it was created now. Never through a symbolic link
/// (`O_NOFOLLOW`), never a FIFO or device (opened without blocking, then
/// checked); a missing file is created with mode 0600 (`O_EXCL`). The open
/// file must be a regular file with one link, owned by this user and open
/// to no other (`fsio::check_one_link`, `fsio::check_private`): nobody
/// else can change it, or hold its lock.
fn open_seen(seen: &Path) -> Result<(File, bool), Fail> {
    use unimac_front::formats::fsio;
    let shown = seen.display();
    let link = || std::fs::symlink_metadata(seen).is_ok_and(|m| m.file_type().is_symlink());
    let link_fail = || Fail(format!("{shown} is a symbolic link: the file of seen stream ids is never followed through a link; give the file itself"));
    if !cfg!(unix) && link() {
        return Err(link_fail());
    }
    let opts = |create: bool| {
        let mut o = std::fs::OpenOptions::new();
        o.read(true).append(true).create_new(create);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY).mode(0o600);
        }
        o
    };
    let open_fail = |e: io::Error| {
        if link() {
            link_fail()
        } else {
            Fail(format!("cannot open the file of seen stream ids {shown}: {}", crate::input::io_msg(&e)))
        }
    };
    let mut tries = 0;
    let (f, created) = loop {
        match opts(false).open(seen) {
            Ok(f) => break (f, false),
            Err(e) if e.kind() == io::ErrorKind::NotFound => match opts(true).open(seen) {
                Ok(f) => break (f, true),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 8 => tries += 1,
                Err(e) => return Err(open_fail(e)),
            },
            Err(e) => return Err(open_fail(e)),
        }
    };
    let m = f.metadata().map_err(|e| Fail(format!("cannot read {shown}: {}", crate::input::io_msg(&e))))?;
    if !m.is_file() {
        let what = if m.is_dir() { "a directory" } else { fsio::special_kind(m.file_type()).unwrap_or("not a regular file") };
        return Err(Fail(format!("{shown}: is {what}, not a regular file; not used as the file of seen stream ids")));
    }
    check_seen_meta(&m, &shown.to_string())?;
    Ok((f, created))
}

/// The rules a file of seen ids must meet (see [`open_seen`]).
fn check_seen_meta(m: &std::fs::Metadata, shown: &str) -> Result<(), Fail> {
    use unimac_front::formats::fsio;
    let what = "the file of seen stream ids";
    fsio::check_one_link(m, what, shown, ONE_LINK).map_err(|e| Fail(e.to_string()))?;
    fsio::check_private(m, what, shown).map_err(|e| Fail(e.to_string()))
}

/// Open and lock the file of seen ids (exclusive, held until the file is
/// dropped). A new file's directory is synced, so its first record cannot
/// be lost with the name. Once locked, the path must still name the locked
/// file (another process may have removed or replaced it while this one
/// waited): else it is opened again, at most 8 times.
fn lock_seen(seen: &Path) -> Result<File, Fail> {
    let shown = seen.display();
    let io_fail = |e: io::Error| Fail(format!("cannot lock the file of seen stream ids {shown}: {}", crate::input::io_msg(&e)));
    for _ in 0..8 {
        let (f, created) = open_seen(seen)?;
        if created {
            unimac_front::formats::fsio::sync_dir(&unimac_front::formats::fsio::parent_dir(seen)).map_err(io_fail)?;
        }
        f.lock().map_err(io_fail)?;
        let held = f.metadata().map_err(io_fail)?;
        check_seen_meta(&held, &shown.to_string())?;
        if std::fs::symlink_metadata(seen).is_ok_and(|now| same_file(&now, &held)) {
            return Ok(f);
        }
    }
    Err(Fail(format!("{shown}: the file of seen stream ids was replaced or removed each time it was locked (8 times); not used")))
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    true
}

/// What to do with an unterminated last line of a file of seen ids. A
/// record whose `write` was cut (a kill, a full disk, the file-size limit)
/// is a prefix of 32 lowercase hex digits without its newline; such a claim
/// never succeeded, so no byte of its stream was released (docs/WIRE.md
/// §10).
#[derive(Debug, PartialEq, Eq)]
enum Tail {
    /// The file ends with a newline (or is empty).
    None,
    /// 0 to 31 hex digits: names no id; cut off.
    Cut,
    /// All 32 digits, only the newline missing: kept, and completed (a
    /// stream refused once too often is safe; one let through is not).
    Complete,
}

/// A file of seen ids, read whole before anything is changed.
#[derive(Debug)]
struct Seen {
    /// The length of its complete records.
    end: usize,
    /// Its unterminated last line, if any.
    tail: Tail,
    /// Whether the id asked about is there (a complete tail counts).
    found: bool,
}

/// Parse the file of seen ids `text` for `id`: every complete line must be
/// a stream id (32 lowercase hex digits), and an unterminated last line a
/// prefix of one; anything else is refused with its line number, and the
/// file is not a file of seen ids (nothing is changed).
fn parse_seen(text: &[u8], id: &[u8; 16], shown: &str) -> Result<Seen, Fail> {
    let is_digit = |c: &u8| c.is_ascii_digit() || (b'a'..=b'f').contains(c);
    let bad = |n: usize| {
        Fail(format!(
            "{shown}: line {n}: not a stream id (32 lowercase hex digits a line); not a file of seen stream ids, left as it is"
        ))
    };
    let end = text.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    let mut want = [0u8; RECORD - 1];
    hex::encode_to_slice(id, &mut want).expect("32 digits");
    let mut found = false;
    let mut n = 0;
    for line in text[..end].split_inclusive(|&c| c == b'\n') {
        n += 1;
        let l = &line[..line.len() - 1];
        if l.len() != RECORD - 1 || !l.iter().all(is_digit) {
            return Err(bad(n));
        }
        found |= l == want;
    }
    let rest = &text[end..];
    let tail = if rest.is_empty() {
        Tail::None
    } else if rest.len() > RECORD - 1 || !rest.iter().all(is_digit) {
        return Err(bad(n + 1));
    } else if rest.len() == RECORD - 1 {
        found |= rest == want;
        Tail::Complete
    } else {
        Tail::Cut
    };
    Ok(Seen { end, tail, found })
}

/// Claim the stream id `id` in the file of seen ids `seen` (32 hex digits
/// a line, created if missing): under an exclusive lock, the file is read
/// and parsed whole, then a torn last record repaired, and, unless the id
/// is there, the id and its newline are appended by one `write` and
/// synced. `Ok(false)` if it was seen before. Called before the first byte
/// of the stream is released, and only then: without `--hold` once the
/// first chunk verified, with `--hold` once the whole stream verified. A
/// stream cut short and replayed, or the same stream given to two
/// receivers at once, is released once.
fn claim_id(seen: &Path, id: &[u8; 16]) -> Result<bool, Fail> {
    let shown = seen.display();
    let io_fail = |e: io::Error| Fail(format!("cannot record the stream id in {shown}: {}", crate::input::io_msg(&e)));
    let mut f = lock_seen(seen)?;
    let mut text = Vec::new();
    f.read_to_end(&mut text).map_err(io_fail)?;
    let Seen { mut end, tail, found } = parse_seen(&text, id, &shown.to_string())?;
    match tail {
        Tail::None => {}
        Tail::Cut => {
            f.set_len(end as u64).and_then(|_| f.sync_all()).map_err(io_fail)?;
            eprintln!("unimac: stream: {shown}: removed a torn last record ({} of 33 bytes, from a write that was cut; that stream was never released)", text.len() - end);
        }
        Tail::Complete => {
            // On an error the file is left as it is: the id stays recorded
            // (with or without its newline), and the next claim completes it.
            write_record(&f, b"\n").and_then(|_| f.sync_all()).map_err(io_fail)?;
            eprintln!("unimac: stream: {shown}: completed the last record (its newline was missing)");
            // The record is whole now: a failed append below cuts back to
            // here, a whole-record boundary.
            end = text.len() + 1;
        }
    }
    if found {
        return Ok(false);
    }
    let mut rec = [0u8; RECORD];
    hex::encode_to_slice(id, &mut rec[..RECORD - 1]).expect("32 digits");
    rec[RECORD - 1] = b'\n';
    if let Err(e) = write_record(&f, &rec).and_then(|_| f.sync_all()) {
        // Leave the file at its last whole record (a cut record is also
        // repaired by the next claim, under the lock).
        let _ = f.set_len(end as u64);
        return Err(io_fail(e));
    }
    Ok(true)
}

/// Append `rec` by one `write` (the file is opened with `O_APPEND`): all of
/// it, or an error ("short write" when only part went in).
fn write_record(mut f: &File, rec: &[u8]) -> io::Result<()> {
    loop {
        match f.write(rec) {
            Ok(n) if n == rec.len() => return Ok(()),
            Ok(n) => return Err(io::Error::other(format!("short write ({n} of {} bytes; the disk is full or the file too large?)", rec.len()))),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// A stream refused: why on stderr (the progress line cleared), and
/// `Ok(false)`.
fn refused(progress: &mut Progress, e: String) -> Result<bool, Fail> {
    progress.clear();
    eprintln!("unimac: stream: {e}");
    Ok(false)
}

/// Claim the stream id of `recv`'s header in the file of seen ids `seen`
/// ([`claim_id`]): `Some(why)` if it was seen before (a replay).
fn claim_header_id(seen: &Path, recv: &Receiver) -> Result<Option<String>, Fail> {
    let Some(h) = recv.header() else { return Ok(None) };
    if claim_id(seen, &h.id)? {
        return Ok(None);
    }
    let id = hex::encode(h.id);
    Ok(Some(format!("stream id {id} was seen before under this key (a replayed stream); nothing was released")))
}

/// With `--hold`: the anonymous temporary file the payload is held in
/// until the whole stream verified (removed when dropped).
fn held_file(hold: bool) -> Result<Option<File>, Fail> {
    if !hold {
        return Ok(None);
    }
    unimac_front::formats::fsio::anonymous_file(&std::env::temp_dir())
        .map(Some)
        .map_err(|e| Fail(format!("cannot create a temporary file for --hold: {}", crate::input::io_msg(&e))))
}

/// How much of a buffer of `len` bytes the next read fills, `pos` bytes
/// into the stream: once the frames' layout is known (`frames`: where the
/// first starts, a full frame's length), to the end of the frame under
/// way and whole frames after it as far as the buffer goes, so that each
/// frame is checked where it lies, never gathered by a copy.
fn fill_len(frames: Option<(u64, u64)>, pos: u64, len: usize) -> usize {
    match frames {
        Some((start, frame)) if pos >= start => {
            let first = frame - (pos - start) % frame;
            let more = (len as u64).saturating_sub(first) / frame;
            usize::try_from(first + more * frame).unwrap_or(len).min(len)
        }
        _ => len,
    }
}

/// The stream checked and its payload written, each chunk once it
/// verified (with `--hold`, all of it once the whole stream verified);
/// with `--seen`, the stream id claimed before the first byte is released.
/// `Ok(false)` for a stream refused (the reason on stderr).
fn check(key: &unimac_front::formats::keyfile::KeyFile, r: &mut dyn Read, opts: StreamOpts<'_>, mut w: &mut dyn Write) -> Result<bool, Fail> {
    let mut recv = Receiver::new(key).map_err(|e| Fail(e.to_string()))?;
    let mut held = held_file(opts.hold)?;
    let mut buf = vec![0u8; BUF];
    // Once the header is read, the frames' layout (the library's): every
    // fill ends on a frame's end, and the buffer is sized from the L2
    // (input/cache.rs), at least one frame.
    let mut frames: Option<(u64, u64)> = None;
    let mut pos = 0u64;
    let mut progress = Progress::new();
    let mut id_checked = false;
    loop {
        // The buffer filled (or the input ended) before it is checked: a
        // pipe gives at most its capacity (64 KiB) a read.
        let want = fill_len(frames, pos, buf.len());
        let n = fill(r, &mut buf[..want]).map_err(|Fail(e)| Fail(e.replace("the input", "the stream")))?;
        pos += n as u64;
        // Verified chunks straight from the read buffer to the output (or
        // the held file): no copy of a chunk that arrived whole. Until the
        // header's stream id is checked against --seen, what verifies is
        // kept back.
        let sink: &mut dyn Write = match held.as_mut() {
            Some(f) => f,
            None => &mut w,
        };
        let write_err = |e: io::Error| unimac_front::formats::stream::StreamError(format!("cannot write the output: {}", crate::input::io_msg(&e)));
        let res = if n == 0 {
            recv.finish()
        } else if id_checked || opts.seen.is_none() || opts.hold {
            // With --hold the id is claimed at the end, before the release.
            recv.feed_with(&buf[..n], &mut |p| sink.write_all(p).map_err(write_err))
        } else {
            // Kept back until the first chunk verified (its tag covers the
            // header, so the id is the sender's), then the id is claimed.
            let mut first = Vec::new();
            let r = recv.feed(&buf[..n], &mut first);
            if let (Some(p), true) = (opts.seen, recv.chunks() > 0) {
                id_checked = true;
                if let Some(why) = claim_header_id(p, &recv)? {
                    return refused(&mut progress, why);
                }
            }
            sink.write_all(&first).map_err(write_err).and(r)
        };
        if let Err(e) = res {
            w.flush()?;
            return refused(&mut progress, unimac_front::messages::held_message(&e.0, held.is_some()));
        }
        progress.update(recv.released(), recv.chunks());
        if n == 0 {
            break;
        }
        if let (None, Some(layout)) = (frames, recv.frames()) {
            frames = Some(layout);
            buf = vec![0u8; (2 * crate::input::cache::plan().stripe).max(usize::try_from(layout.1).unwrap_or(usize::MAX))];
        }
    }
    if let Some(mut f) = held {
        // The id is claimed now, before the first byte is released: a
        // stream cut or changed on the way released nothing and used up
        // nothing, and its intact resend is accepted.
        if let Some(why) = opts.seen.map(|p| claim_header_id(p, &recv)).transpose()?.flatten() {
            return refused(&mut progress, why);
        }
        f.rewind()?;
        io::copy(&mut f, &mut w)?;
    }
    w.flush()?;
    progress.clear();
    Ok(true)
}
