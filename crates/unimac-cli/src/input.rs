//! Reading messages: every input is read with `read()` into buffers (no
//! memory map, so a file that changes while it is read can only give other
//! bytes, never a fault: a mapped file cut short under the reader would be
//! a SIGBUS). A regular file of [`BUF`] bytes or more is read in buffers
//! sized from this CPU's L2 cache, read at run time ([`cache::plan`]), so
//! the bytes copied in are still in the L2 when they are hashed: with two
//! or more CPUs a helper thread reads it into a few buffers in turn while
//! the hash consumes the previous one (or, big enough, it is read in
//! stripes on every thread, [`read_message_stripes`]); with one CPU one
//! buffer is read and hashed in turn, as `dd` reuses one (docs/perf/cli.md).
//!
//! A regular file is read under the library's rule for files that change
//! while they are read (`unimac_front::formats::race`): its stamp (size, mtime,
//! ctime, device, inode) is compared before and after, and if it changed,
//! or the file ended early or ran long, the read is an error ("changed
//! while reading") and the bytes fed so far are not the file. A file
//! changed within `race::SLACK` of the start of its read (a write may still
//! be running under the read) is read a second time and accepted only if
//! both reads give the same bytes; what was fed is then the first read's.
//!
//! A file named by path is opened with `O_NONBLOCK | O_NOCTTY` and
//! `fstat`-ed (crate::listed): a named pipe swapped in for a file between
//! its stat and its open cannot block the open. A file that was listed as
//! a regular file (`tag`'s stat pass, `seal`'s list, see
//! [`listed_files_are_regular`]) must still be one: anything else is an
//! error naming it, never read. A named pipe or device named as such
//! (`unimac tag PIPE`) is read blocking, as before: `O_NONBLOCK` is cleared
//! and, for a pipe, its first writer awaited.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;
use std::sync::mpsc;

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use unimac_front::formats::fsio::{self, OpenError};
use unimac_front::formats::race::{Pass, ReadWindow, Stamp, Verdict};
use unimac_front::formats::walk::Tree;

use crate::fail::Fail;

/// The size at which a regular file is big: one shorter is read into one
/// buffer of its own size, one this long or longer in buffers sized from
/// the CPU's L2 ([`cache::plan`]).
pub const BUF: usize = 1 << 20;
/// Buffers in flight when a helper thread reads ahead: one being hashed,
/// the others being filled.
const BUFFERS: usize = 4;

/// The name to show for a path (`-`/None is stdin), safe for a terminal:
/// control characters as `\xNN` ([`terminal_safe`]).
pub fn shown(path: Option<&Path>) -> String {
    match path {
        None => "-".to_string(),
        Some(p) => terminal_safe(&p.display().to_string()),
    }
}

/// `s` with every control character (NUL, ESC, newline, DEL, the C1
/// controls U+0080 to U+009F), format character (general category Cf: the
/// bidi controls, zero-width characters, U+FEFF, …) and line or paragraph
/// separator (`checkline::is_hidden`) written as `\xNN` (`\u{NNNN}` past
/// 0xFF), so that a name or a line read from a file cannot move the cursor,
/// recolour or retitle the terminal it is printed on, nor pass for another.
pub fn terminal_safe(s: &str) -> String {
    use unimac_front::formats::checkline::is_hidden;
    if !s.chars().any(is_hidden) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c as u32 {
            _ if !is_hidden(c) => out.push(c),
            n @ 0..=0xff => out.push_str(&format!("\\x{n:02x}")),
            n => out.push_str(&format!("\\u{{{n:04x}}}")),
        }
    }
    out
}

#[cfg(test)]
/// The bytes of a name as [`terminal_safe`] shows them: valid UTF-8 with
/// its control characters escaped; bytes that are not UTF-8 kept as they
/// are (a Latin-1 name stays byte for byte), but for 0x80 to 0x9F, which
/// an 8-bit terminal takes as C1 controls, written as `\xNN`.
pub fn terminal_safe_bytes(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        out.extend_from_slice(terminal_safe(chunk.valid()).as_bytes());
        for &c in chunk.invalid() {
            if (0x80..0xa0).contains(&c) {
                out.extend_from_slice(format!("\\x{c:02x}").as_bytes());
            } else {
                out.push(c);
            }
        }
    }
    out
}

/// A message for the user as printed: Rust's " (os error N)" suffixes
/// removed (wherever an I/O error was formatted whole), and control
/// characters escaped ([`terminal_safe`]).
pub fn clean_msg(msg: &str) -> String {
    let mut s = msg.to_string();
    while let Some(i) = s.find(" (os error ") {
        let rest = &s[i + " (os error ".len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || !rest[digits..].starts_with(')') {
            break;
        }
        s.replace_range(i..i + " (os error ".len() + digits + 1, "");
    }
    terminal_safe(&s)
}

/// Open a list named as an argument (a check file, a `--files-from` list,
/// a vector file; `what` says which) under the library's rule for
/// arguments (`fsio::open_argument`): a named pipe, socket, device or
/// directory is refused unopened, with one line naming it and what it is.
/// Never `-`: the caller reads the standard input itself.
pub fn open_list_argument(path: &Path, what: &str) -> Result<File, Fail> {
    let name = shown(Some(path));
    fsio::open_argument(path).map(|(f, _)| f).map_err(|e| match e {
        OpenError::NotFound => Fail(format!("cannot open {what} {name}: No such file or directory")),
        OpenError::Io(e) => Fail(format!("cannot open {what} {name}: {}", io_msg(&e))),
        OpenError::NotRegular(k) => {
            let hint = if k == "a named pipe" { " (a list on a pipe goes to '-', the standard input)" } else { "" };
            Fail(format!("{what} {name}: is {k}, not a regular file; not opened{hint}"))
        }
    })
}

/// A list of names (`--files-from`) named as an argument: as
/// [`open_list_argument`], but a pipe is read too (`<(find ...)`), never
/// waiting for a writer (`fsio::open_list_argument`).
fn open_names_argument(path: &Path, what: &str) -> Result<File, Fail> {
    let name = shown(Some(path));
    fsio::open_list_argument(path).map_err(|e| match e {
        OpenError::NotFound => Fail(format!("cannot open {what} {name}: No such file or directory")),
        OpenError::Io(e) => Fail(format!("cannot open {what} {name}: {}", io_msg(&e))),
        OpenError::NotRegular(k) => Fail(format!("{what} {name}: is {k}, not a regular file or a pipe; not opened")),
    })
}

/// The whole of a list named as an argument ([`open_list_argument`]; `-`
/// the standard input), at most `cap` bytes: more is an error, never a
/// read without end.
pub fn read_list_argument(path: &Path, what: &str, cap: u64) -> Result<Vec<u8>, Fail> {
    let shown = shown(Some(path));
    let r = if path.as_os_str() == "-" {
        fsio::read_capped(io::stdin().lock(), cap, what, &shown)
    } else {
        fsio::read_capped(open_list_argument(path, what)?, cap, what, &shown)
    };
    r.map_err(|e| Fail(clean_msg(&e.to_string())))
}

/// [`read_list_argument`] for a list of names (`--files-from`), which may
/// also be a pipe ([`open_names_argument`]).
pub fn read_names_argument(path: &Path, cap: u64) -> Result<Vec<u8>, Fail> {
    let shown = shown(Some(path));
    let r = if path.as_os_str() == "-" {
        fsio::read_capped(io::stdin().lock(), cap, "list", &shown)
    } else {
        fsio::read_capped(open_names_argument(path, "list")?, cap, "list", &shown)
    };
    r.map_err(|e| Fail(clean_msg(&e.to_string())))
}

fn is_stdin(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// The error of a read under the rule: the reader's own, or one of
/// `fstat`/`lseek` (shown as "cannot read NAME: ...").
enum RaceErr {
    Fail(Fail),
    Io(io::Error),
}

impl From<io::Error> for RaceErr {
    fn from(e: io::Error) -> Self {
        RaceErr::Io(e)
    }
}

impl From<Fail> for RaceErr {
    fn from(f: Fail) -> Self {
        RaceErr::Fail(f)
    }
}

/// "NAME: changed while reading".
fn changed(name: &str) -> Fail {
    Fail(unimac_front::messages::changed_while_reading(name, None))
}

/// Read the regular file `file` under the rule of [`ReadWindow::read`]
/// (once, or twice when racy): `read` reads it from its start, giving
/// every slice to the sink it is passed (which feeds the caller only on
/// the first read) and returns the bytes read to the end (`None`: stopped
/// at a limit). "NAME: changed while reading" for [`Verdict::Changed`];
/// `name` is called only for an error.
fn under_rule(
    w: &ReadWindow,
    file: &File,
    name: &dyn Fn() -> String,
    f: &mut dyn FnMut(&[u8]),
    mut read: impl FnMut(&mut dyn FnMut(&[u8])) -> Result<Option<u64>, Fail>,
) -> Result<(), Fail> {
    let r = w.read(file, |pass: &mut Pass<'_>| {
        let feeds = pass.feeds();
        let mut sink = |d: &[u8]| {
            if feeds {
                f(d);
            }
            pass.saw(d);
        };
        read(&mut sink).map_err(RaceErr::from)
    });
    match r {
        Ok(Verdict::Changed) => Err(changed(&name())),
        Ok(Verdict::Stable | Verdict::Racy) => Ok(()),
        Err(RaceErr::Fail(e)) => Err(e),
        Err(RaceErr::Io(e)) => Err(Fail(format!("cannot read {}: {}", name(), io_msg(&e)))),
    }
}

/// Every file opened by path from now on was listed as a regular file.
static REGULAR_ONLY: AtomicBool = AtomicBool::new(false);
/// No file opened by path from now on is read if it is a named pipe.
static NO_PIPES: AtomicBool = AtomicBool::new(false);

/// Say that every file this process opens by path from now on was listed
/// as a regular file (`seal`, once its list is checked; `tag`, once its
/// stat pass found every file regular): one that is not one any more (a
/// named pipe or a device swapped in) is an error naming it, not read.
pub fn listed_files_are_regular() {
    REGULAR_ONLY.store(true, Relaxed);
}

/// Say that no file this process opens by path from now on is to be read
/// from a named pipe or socket (`verify`: a check line names a file whose
/// bytes were tagged, which a pipe does not keep): one is an error naming
/// it, never a wait for a writer. Devices are still read.
pub fn named_pipes_refused() {
    NO_PIPES.store(true, Relaxed);
}

// The trees walked for their regular files, and the one a path is under:
// crate::listed, which opens and stats listed files through them.
pub use crate::listed::{walked, walked_tree};

/// Whether `p` is under a directory that was walked ([`walked`]).
fn under_walked(p: &Path) -> bool {
    walked_tree(p).is_some()
}

/// What a file that is not a regular file is, in words.
fn kind(m: &Metadata) -> &'static str {
    if m.is_dir() {
        "a directory"
    } else {
        fsio::special_kind(m.file_type()).unwrap_or("not a regular file")
    }
}

/// "NAME: is a named pipe now, not a regular file; not read".
fn not_regular_now(name: &str, what: &str) -> Fail {
    Fail(format!("{name}: is {what} now, not a regular file; not read"))
}

/// Open the file at `p` (shown as `name`) and `fstat` it, never blocking
/// in the open (crate::listed). A file listed as a regular one
/// (`regular`, or every file after [`listed_files_are_regular`]) must
/// still be one: opened by the library's `open_stated_regular` (the
/// listing's stat was the first), anything else is an error. Otherwise a
/// named pipe or device is made blocking for its reads ([`blocking`]).
fn open_input(p: &Path, name: &str, regular: bool) -> Result<(File, Metadata), Fail> {
    if regular || REGULAR_ONLY.load(Relaxed) {
        let opened = match walked_tree(p) {
            Some(t) => open_walked_regular(&t, p),
            None => fsio::open_stated_regular(p),
        };
        return opened.map_err(|e| match e {
            OpenError::NotFound => Fail(format!("cannot open {name}: No such file or directory")),
            OpenError::NotRegular(what) => not_regular_now(name, what),
            OpenError::Io(e) => Fail(format!("cannot open {name}: {}", io_msg(&e))),
        });
    }
    let file = crate::listed::open(p).map_err(|e| Fail(format!("cannot open {name}: {}", io_msg(&e))))?;
    let meta = file
        .metadata()
        .map_err(|e| Fail(format!("cannot read {name}: {}", io_msg(&e))))?;
    if meta.is_file() || meta.is_dir() {
        return Ok((file, meta));
    }
    if under_walked(p) {
        return Err(not_regular_now(name, kind(&meta)));
    }
    #[cfg(unix)]
    if NO_PIPES.load(Relaxed) {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_fifo() || meta.file_type().is_socket() {
            return Err(Fail(format!("{name}: is {}, not a file; not read", kind(&meta))));
        }
    }
    let file = blocking(file, &meta, p).map_err(|e| Fail(format!("cannot read {name}: {}", io_msg(&e))))?;
    Ok((file, meta))
}

/// [`fsio::open_stated_regular`] of a file the walk of `tree` listed:
/// opened relative to its directory's checked descriptor, without
/// blocking, and `fstat`-ed: anything but a regular file is refused.
fn open_walked_regular(tree: &Tree, p: &Path) -> Result<(File, Metadata), OpenError> {
    let f = tree.open(p).map_err(|e| if e.kind() == io::ErrorKind::NotFound { OpenError::NotFound } else { OpenError::Io(e) })?;
    let m = f.metadata().map_err(OpenError::Io)?;
    if !m.is_file() {
        return Err(OpenError::NotRegular(kind(&m)));
    }
    Ok((f, m))
}

/// A named pipe or device opened without blocking, made blocking for its
/// reads as it would have been opened: `O_NONBLOCK` cleared, and for a
/// named pipe its first writer awaited (opened without blocking, a pipe
/// with no writer yet reads as empty; `poll` waits until a writer wrote or
/// came and went).
#[cfg(target_os = "linux")]
fn blocking(file: File, meta: &Metadata, _path: &Path) -> io::Result<File> {
    use rustix::event::{poll, PollFd, PollFlags};
    use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
    use std::os::unix::fs::FileTypeExt;
    let flags = fcntl_getfl(&file)?;
    fcntl_setfl(&file, flags - OFlags::NONBLOCK)?;
    if meta.file_type().is_fifo() {
        loop {
            match poll(&mut [PollFd::new(&file, PollFlags::IN)], None) {
                Ok(_) => break,
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(file)
}

/// Elsewhere: opened again by path, blocking, as before (and the same file).
#[cfg(not(target_os = "linux"))]
fn blocking(file: File, meta: &Metadata, path: &Path) -> io::Result<File> {
    drop(file);
    let again = File::open(path)?;
    if Stamp::of(&again.metadata()?) != Stamp::of(meta) {
        return Err(io::Error::other("changed while opening"));
    }
    Ok(again)
}

/// Feed the message at `path` (stdin for `-`/None) to `f`, in one or more
/// slices whose concatenation is the message. On an error, what was fed is
/// not the message.
pub fn read_message(path: Option<&Path>, f: impl FnMut(&[u8])) -> Result<(), Fail> {
    read_message_limited(path, u64::MAX, f).map(|_| ())
}

/// As [`read_message`], but stops once more than `limit` bytes were fed;
/// returns whether the input went past `limit` (then it was not all read).
pub fn read_message_limited(
    path: Option<&Path>,
    limit: u64,
    f: impl FnMut(&[u8]),
) -> Result<bool, Fail> {
    read_message_as(path, limit, false, f)
}

/// [`read_message_limited`]; `regular`: the file was listed as a regular
/// file and must still be one ([`open_input`]).
fn read_message_as(path: Option<&Path>, limit: u64, regular: bool, mut f: impl FnMut(&[u8])) -> Result<bool, Fail> {
    let name = shown(path);
    let Some(p) = path.filter(|_| !is_stdin(path)) else {
        return read_stream(io::stdin().lock(), &name, limit, cache::plan().stripe, None, f);
    };
    let (file, meta) = open_input(p, &name, regular)?;
    read_open(file, meta, &name, limit, &mut f)
}

/// [`read_message_limited`] of a file opened, its metadata `meta`.
fn read_open(file: File, meta: Metadata, name: &str, limit: u64, f: impl FnMut(&[u8])) -> Result<bool, Fail> {
    read_open_planned(file, meta, name, limit, f, cache::plan())
}

/// [`read_open`] with the buffers of `plan`.
fn read_open_planned(
    file: File,
    meta: Metadata,
    name: &str,
    limit: u64,
    mut f: impl FnMut(&[u8]),
    plan: cache::Plan,
) -> Result<bool, Fail> {
    if meta.is_dir() {
        return Err(Fail(format!("cannot read {name}: is a directory")));
    }
    if !meta.is_file() {
        return read_stream(file, name, limit, cache::plan().stripe, None, f);
    }
    let w = ReadWindow::since(Stamp::of(&meta));
    let mut over = false;
    // A size of 0 may be a file whose size is not known in advance (/proc);
    // then only the stamps compare (the rule's check of the bytes read).
    under_rule(&w, &file, &|| name.to_string(), &mut f, |sink| {
        if meta.len() >= BUF as u64 && limit == u64::MAX {
            return Ok(Some(read_planned(&file, name, sink, plan)?));
        }
        let mut total = 0u64;
        // A buffer the size of the file (and one byte to see its end): no
        // 1 MiB buffer to clear for every small file.
        let cap = usize::try_from(meta.len()).map_or(BUF, |n| n.saturating_add(1).clamp(4096, BUF));
        // Reading stops at the size the file had: a file that grew is caught
        // by the stamps compared after, without one more read() to see EOF.
        let expect = (meta.len() > 0).then_some(meta.len());
        over = read_stream(&file, name, limit, cap, expect, |d| {
            total += d.len() as u64;
            sink(d)
        })?;
        // Past the limit only a prefix was read: its length is not compared.
        Ok((!over).then_some(total))
    })?;
    Ok(over)
}

/// What the stat of a regular file by its path, taken when it was listed,
/// says about it: its [`Stamp`] (size, modification and change times, and
/// which file it is: device, inode). [`read_known`] takes it as the
/// "before" stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known(Stamp);

impl Known {
    /// The stamp of a regular file as it was listed.
    pub fn listed(stamp: Stamp) -> Known {
        Known(stamp)
    }

    /// The file's size when it was listed.
    pub fn len(&self) -> u64 {
        self.0.len()
    }

    /// Which file it was: its device and inode.
    #[cfg_attr(not(unix), allow(dead_code))]
    pub fn id(&self) -> (u64, u64) {
        self.0.id()
    }
}

/// Stats taken by [`stat_id_kept`], each for the one [`stat_listed`] of
/// its path that follows (`KEEPING`: whether there are any).
static KEPT: std::sync::Mutex<Option<std::collections::HashMap<std::path::PathBuf, crate::listed::Stat>>> =
    std::sync::Mutex::new(None);
static KEEPING: AtomicBool = AtomicBool::new(false);

/// Which file `p` is (device and inode; `None` if it cannot be stat-ed),
/// its stat kept for the [`stat_listed`] of `p` that follows: a list
/// checked for the file standard output writes to is stat-ed once.
#[cfg(unix)]
pub fn stat_id_kept(p: &Path) -> Option<(u64, u64)> {
    let s = crate::listed::stat(p).ok()?;
    let id = s.id;
    KEEPING.store(true, Relaxed);
    KEPT.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(Default::default).insert(p.to_path_buf(), s);
    Some(id)
}

/// The stat of a listed path (symbolic links followed; relative to its
/// directory's descriptor, crate::listed; or the one [`stat_id_kept`]
/// took): the size and [`Known`] stamp of a regular file, nothing of
/// anything else.
pub fn stat_listed(p: &Path) -> io::Result<(Option<u64>, Option<Known>)> {
    let kept = if KEEPING.load(Relaxed) {
        KEPT.lock().unwrap_or_else(|e| e.into_inner()).as_mut().and_then(|m| m.remove(p))
    } else {
        None
    };
    let s = match kept {
        Some(s) => s,
        None => crate::listed::stat(p)?,
    };
    Ok(if s.regular { (Some(s.stamp.len()), Some(Known(s.stamp))) } else { (None, None) })
}

thread_local! {
    /// The read buffer of [`read_known`] on this thread, reused from file
    /// to file (grown, never cleared again).
    static KNOWN_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`read_message`] of a regular file shorter than [`BUF`] whose stat by
/// path when it was listed is `known`: opened, read and checked once after
/// (open, read, `fstat`, close: the listing's stat is the "before" stamp),
/// into this thread's buffer, the file's bytes in one `read` (reading
/// stops at the size listed: a file that grew is caught by the stamps).
/// The file read must be the one listed (same device and inode) and
/// unchanged since (same size, modification and change times), else it is
/// "changed while reading", as a change during the read is; a file changed
/// within `race::SLACK` of the read is read twice (the library's rule). It
/// is opened without blocking (crate::listed): a named pipe or device
/// swapped in since the listing is an error naming it, never a wait. A
/// longer file listed as regular is read by [`read_message`] and must
/// still be a regular file; any other input (no stamp) by
/// [`read_message`].
pub fn read_known(path: &Path, known: Option<Known>, mut f: impl FnMut(&[u8])) -> Result<(), Fail> {
    let Some(Known(k)) = known.filter(|_| path.as_os_str() != "-") else {
        return read_message(Some(path), f);
    };
    if k.len() >= BUF as u64 {
        return read_message_as(Some(path), u64::MAX, true, f).map(|_| ());
    }
    // The name is made only for an error (most files have none).
    let name = || shown(Some(path));
    let file = crate::listed::open(path).map_err(|e| Fail(format!("cannot open {}: {}", name(), io_msg(&e))))?;
    let w = ReadWindow::since(k);
    let cap = usize::try_from(k.len()).map_or(BUF, |n| n.saturating_add(1).clamp(4096, BUF));
    let expect = (!k.is_empty()).then_some(k.len());
    let r = KNOWN_BUF.with(|b| {
        let mut b = b.borrow_mut();
        if b.len() < cap {
            b.resize(cap, 0);
        }
        let buf = &mut b[..cap];
        let mut read_all = |sink: &mut dyn FnMut(&[u8])| -> Result<Option<u64>, Fail> {
            let mut total = 0u64;
            while expect != Some(total) {
                match (&file).read(buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        sink(&buf[..n]);
                        total += n as u64;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(Fail(format!("cannot read {}: {}", name(), io_msg(&e)))),
                }
            }
            Ok(Some(total))
        };
        under_rule(&w, &file, &name, &mut f, &mut read_all)
    });
    // What went wrong with a file that is not a regular file any more: that.
    r.map_err(|e| match file.metadata() {
        Ok(m) if !m.is_file() => not_regular_now(&name(), kind(&m)),
        _ => e,
    })
}

/// [`read_message`] of the file at `path` unless it is a regular file of
/// `max` bytes or more: then `Ok(false)` and nothing is read (it is left
/// for a reader that uses every core). Opened once, as [`read_message`]
/// opens it.
pub fn read_below(path: &Path, max: u64, mut f: impl FnMut(&[u8])) -> Result<bool, Fail> {
    if is_stdin(Some(path)) {
        return read_message(Some(path), f).map(|_| true);
    }
    let name = shown(Some(path));
    let (file, meta) = open_input(path, &name, false)?;
    if meta.is_file() && meta.len() >= max {
        return Ok(false);
    }
    read_open(file, meta, &name, u64::MAX, &mut f).map(|_| true)
}

pub(crate) mod cache;
mod stripes;
pub use stripes::{read_message_stripes, Piece, Stripes, SPLIT_MIN};

/// An I/O error as a message, without Rust's "(os error N)" suffix.
pub fn io_msg(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Fill `buf` from `file` as far as it goes: the bytes read (fewer only at
/// the end of the file).
fn fill(mut file: &File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Read a big regular file under `plan` ([`cache::plan`]), feeding every
/// slice to `f`; the bytes read. With read-ahead, a helper thread reads it
/// into [`BUFFERS`] buffers of `plan.pipelined` bytes in turn while `f`
/// takes the previous one; without (one CPU), one buffer of `plan.stripe`
/// bytes is read and fed in turn.
fn read_planned(file: &File, name: &str, f: &mut dyn FnMut(&[u8]), plan: cache::Plan) -> Result<u64, Fail> {
    let in_turn = |f: &mut dyn FnMut(&[u8]), size: usize| -> Result<u64, Fail> {
        let mut buf = vec![0u8; size];
        let mut total = 0u64;
        loop {
            let n = fill(file, &mut buf).map_err(|e| Fail(format!("cannot read {name}: {}", io_msg(&e))))?;
            f(&buf[..n]);
            total += n as u64;
            if n < buf.len() {
                return Ok(total);
            }
        }
    };
    if !plan.read_ahead {
        return in_turn(f, plan.stripe);
    }
    let size = plan.pipelined;
    let (full_tx, full_rx) = mpsc::sync_channel::<io::Result<(Vec<u8>, usize)>>(BUFFERS);
    let (empty_tx, empty_rx) = mpsc::channel::<Vec<u8>>();
    for _ in 0..BUFFERS {
        let _ = empty_tx.send(vec![0u8; size]);
    }
    std::thread::scope(|scope| {
        let reader = move || {
            // Ends when a read fails, at the end of the file, or when the
            // consumer hangs up (an error on its side).
            while let Ok(mut buf) = empty_rx.recv() {
                let r = fill(file, &mut buf);
                let end = !matches!(r, Ok(n) if n == buf.len());
                if full_tx.send(r.map(|n| (buf, n))).is_err() || end {
                    return;
                }
            }
        };
        if std::thread::Builder::new()
            .spawn_scoped(scope, reader)
            .is_err()
        {
            // No thread: read in turn instead.
            return in_turn(f, plan.stripe);
        }
        let mut total = 0u64;
        loop {
            let (buf, n) = match full_rx.recv() {
                Ok(Ok(x)) => x,
                Ok(Err(e)) => return Err(Fail(format!("cannot read {name}: {}", io_msg(&e)))),
                Err(_) => return Ok(total),
            };
            f(&buf[..n]);
            total += n as u64;
            let last = n < buf.len();
            let _ = empty_tx.send(buf);
            if last {
                return Ok(total);
            }
        }
    })
}

/// Read `input` to its end (or until more than `limit` bytes) into one
/// buffer of `cap` bytes; whether it went past `limit`.
fn read_stream(
    mut input: impl Read,
    name: &str,
    limit: u64,
    cap: usize,
    expect: Option<u64>,
    mut f: impl FnMut(&[u8]),
) -> Result<bool, Fail> {
    let mut buf = vec![0u8; cap];
    let mut total = 0u64;
    loop {
        if expect == Some(total) {
            return Ok(false);
        }
        match input.read(&mut buf) {
            Ok(0) => return Ok(false),
            Ok(n) => {
                f(&buf[..n]);
                total += n as u64;
                if total > limit {
                    return Ok(true);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Fail(format!("cannot read {name}: {}", io_msg(&e)))),
        }
    }
}

#[cfg(test)]
#[path = "input/tests.rs"]
mod tests;
