//! The file rules every format shares: open a listed file only if it is a
//! regular file (never a FIFO, socket or device, which could block or have
//! side effects), and write a file whole or not at all.
//!
//! **Opening a listed file** ([`open_regular`]): the path is stat-ed first
//! (following symbolic links) and anything but a regular file is refused
//! before it is opened; then it is opened with `O_NONBLOCK | O_NOCTTY` (a
//! FIFO swapped in between the stat and the open cannot block the open, and
//! no terminal becomes the controlling one) and `fstat`-ed again: the file
//! read is a regular file. `O_NONBLOCK` has no effect on a regular file's
//! reads.
//!
//! **Writing a file** ([`write_atomic`]): the text goes to a new file that
//! has no name yet, is synced, and only then takes the target's name, so
//! the name shows the whole file or none, and no other name ever shows it.
//! On Linux the new file is anonymous (`O_TMPFILE` in the target's
//! directory, so the same file system) and is linked to the name
//! (`linkat`, which fails if the name exists: never over another writer's
//! file); a file that may be replaced is linked under a temporary name and
//! renamed onto the target. The directory is synced after. A writer killed
//! at any system call leaves no file, or the whole one under its name, and
//! never a second link to it. Where the file system has no anonymous files
//! (or off Linux), the file is written as `.NAME.unimac-tmp-PID-HEX` beside
//! the target and renamed onto the name (`renameat2(RENAME_NOREPLACE)`;
//! where that is missing, a hard link and an unlink); a writer killed then
//! leaves that temporary file, which a later write in the same directory
//! removes once process PID no longer runs, if it is this user's regular
//! file, by the directory's handle (`remove_stale_temporaries`;
//! writes of key and counter files check every time).

use crate::prelude::*;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::Error;

/// An I/O error's text without the "(os error N)" suffix.
pub fn io_msg(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// What a file that is neither a regular file nor a directory is, in
/// words ("a named pipe", "a socket", "a character device", "a block
/// device"); `None` for a regular file, a directory or a symbolic link.
pub fn special_kind(t: fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a named pipe");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
    }
    let _ = t;
    None
}

/// Why a listed file was not opened.
#[derive(Debug)]
pub enum OpenError {
    /// No file by that name.
    NotFound,
    /// A directory, FIFO, socket or device: never opened. The words say
    /// which ("a directory", "a named pipe", …).
    NotRegular(&'static str),
    /// Stat or open failed otherwise.
    Io(io::Error),
}

impl OpenError {
    /// One line naming the problem with `shown`, the file's name.
    pub fn message(&self, shown: &str) -> String {
        match self {
            OpenError::NotFound => format!("{shown}: no such file"),
            OpenError::NotRegular(k) => format!("{shown}: is {k}, not a regular file; not opened"),
            OpenError::Io(e) => format!("cannot open {shown}: {}", io_msg(e)),
        }
    }
}

/// What a file is, in words, if not a regular file: "a directory", a
/// [`special_kind`], else "not a regular file"; `None` for a regular file.
pub fn kind_of(m: &Metadata) -> Option<&'static str> {
    if m.is_file() {
        None
    } else if m.is_dir() {
        Some("a directory")
    } else {
        Some(special_kind(m.file_type()).unwrap_or("not a regular file"))
    }
}

/// Open the file at `path` for reading only if it is a regular file (after
/// symbolic links): stat first, refuse anything else unopened, open without
/// blocking, and check the open file again. Returns the file and its
/// metadata from `fstat`.
pub fn open_regular(path: &Path) -> Result<(File, Metadata), OpenError> {
    let m = fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => OpenError::NotFound,
        _ => OpenError::Io(e),
    })?;
    if let Some(k) = kind_of(&m) {
        return Err(OpenError::NotRegular(k));
    }
    open_stated_regular(path)
}

/// [`open_regular`] of a path already found to be a regular file by a stat
/// of its own (when it was listed, say), without that first stat: opened
/// with `O_NONBLOCK | O_NOCTTY` (a named pipe swapped in since cannot block
/// the open) and `fstat`-ed: anything but a regular file now is refused
/// ([`OpenError::NotRegular`]), never read. Returns the file and its
/// metadata from `fstat`.
pub fn open_stated_regular(path: &Path) -> Result<(File, Metadata), OpenError> {
    let mut o = OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let f = o.open(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => OpenError::NotFound,
        _ => OpenError::Io(e),
    })?;
    let m = f.metadata().map_err(OpenError::Io)?;
    if let Some(k) = kind_of(&m) {
        return Err(OpenError::NotRegular(k));
    }
    Ok((f, m))
}

/// Open a file named as an argument to be read whole or line by line as a
/// list, a manifest or a key (a key file, a check file, a manifest, a
/// vector file): [`open_regular`] (a named pipe, socket, device or
/// directory is refused unopened, and a named pipe swapped in cannot block
/// the open), then `O_NONBLOCK` cleared on the regular file it opened.
/// `-` (the standard input) is the caller's to handle, never a path here.
pub fn open_argument(path: &Path) -> Result<(File, Metadata), OpenError> {
    let (f, m) = open_regular(path)?;
    #[cfg(unix)]
    {
        use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
        let flags = fcntl_getfl(&f).map_err(|e| OpenError::Io(e.into()))?;
        fcntl_setfl(&f, flags - OFlags::NONBLOCK).map_err(|e| OpenError::Io(e.into()))?;
    }
    Ok((f, m))
}

/// [`open_argument`] for a list of names (`--files-from`), which may also
/// come on a pipe, as `find -print0 | ... --files-from -` or a shell's
/// `<(find ...)` give it: a named pipe is opened with `O_NONBLOCK` (the open
/// never waits for a writer; with none, the list reads as empty), checked
/// to be a pipe still by `fstat`, then read blocking. A socket, device or
/// directory is refused unopened, as by [`open_argument`].
pub fn open_list_argument(path: &Path) -> Result<File, OpenError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        let m = fs::metadata(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => OpenError::NotFound,
            _ => OpenError::Io(e),
        })?;
        if m.file_type().is_fifo() {
            use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
            let f = OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
                .open(path)
                .map_err(OpenError::Io)?;
            let now = f.metadata().map_err(OpenError::Io)?;
            if let (false, Some(k)) = (now.file_type().is_fifo(), kind_of(&now)) {
                return Err(OpenError::NotRegular(k));
            }
            let flags = fcntl_getfl(&f).map_err(|e| OpenError::Io(e.into()))?;
            fcntl_setfl(&f, flags - OFlags::NONBLOCK).map_err(|e| OpenError::Io(e.into()))?;
            return Ok(f);
        }
    }
    open_argument(path).map(|(f, _)| f)
}

/// Read `r` whole, at most `cap` bytes: one byte more is an error naming
/// `shown` and `what` ("key file", "vector file") with the cap, never a
/// read without end (`/dev/zero` given as `-`).
pub fn read_capped(r: impl io::Read, cap: u64, what: &str, shown: &str) -> Result<Vec<u8>, Error> {
    use io::Read;
    let mut out = Vec::new();
    r.take(cap + 1)
        .read_to_end(&mut out)
        .map_err(|e| Error::Io(format!("cannot read {what} {shown}: {}", io_msg(&e))))?;
    if out.len() as u64 > cap {
        return Err(Error::Invalid(format!("{what} {shown}: longer than {cap} bytes, the most a {what} may hold")));
    }
    Ok(out)
}

/// Whether [`write_atomic`] may replace an existing file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// Never: an existing target is an error, and is left as it is.
    Never,
    /// Yes: the new file takes the name in one rename.
    Allowed,
}

/// The permissions a new file gets.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Perm<'a> {
    /// Mode 0666 less the umask (manifests).
    Shared,
    /// Mode 0600 (key files, new counter files).
    Private,
    /// The mode and owner of the file it replaces (a counter's next
    /// version); private until then.
    #[cfg_attr(not(unix), allow(dead_code))]
    Like(&'a Metadata),
}

/// A new file written by parts and placed whole or not at all: an
/// anonymous file (`O_TMPFILE`) in the target's directory, linked under its
/// name only by [`NewFile::commit`], after an fsync, never over an existing
/// name; where the file system has no `O_TMPFILE`, a named temporary file
/// beside it, removed if the `NewFile` is dropped uncommitted. Dropped
/// without `commit` (an error, a stream that failed to verify), nothing is
/// left under the name. Mode 0666 less the umask, as a redirection makes.
pub struct NewFile {
    file: File,
    path: PathBuf,
    #[cfg(target_os = "linux")]
    anon: Option<std::os::fd::OwnedFd>,
    temp: Option<PathBuf>,
}

impl NewFile {
    /// Start `path`, which must not exist (`what` names it in errors).
    pub fn create(path: &Path, what: &str) -> Result<NewFile, Error> {
        let shown = path.display();
        let failed = |e: io::Error| Error::Io(format!("cannot write {what} {shown}: {}", io_msg(&e)));
        if fs::symlink_metadata(path).is_ok() {
            return Err(Error::Io(super::messages::already_exists(&format!("{what} {shown}"))));
        }
        if path.file_name().is_none() {
            return Err(Error::Io(format!("cannot write {what} {shown}: not a file name")));
        }
        #[cfg(target_os = "linux")]
        {
            let d = handle::open_dir(&parent_dir(path)).map_err(failed)?;
            if let Some(file) = anon::open_in(&d, 0o666, false).map_err(failed)? {
                return Ok(NewFile { file, path: path.to_path_buf(), anon: Some(d), temp: None });
            }
        }
        let (tmp, file) = temp_beside(path, false).map_err(failed)?;
        Ok(NewFile {
            file,
            path: path.to_path_buf(),
            #[cfg(target_os = "linux")]
            anon: None,
            temp: Some(tmp),
        })
    }

    /// Place the file under its name, whole: fsync, link (or rename) where
    /// no file of that name is, fsync the directory. An error if the name
    /// was taken meanwhile; nothing is left under it then.
    pub fn commit(mut self, what: &str) -> Result<(), Error> {
        let shown = self.path.display().to_string();
        let failed = |e: io::Error| Error::Io(format!("cannot write {what} {shown}: {}", io_msg(&e)));
        self.file.sync_all().map_err(failed)?;
        #[cfg(target_os = "linux")]
        let done = match self.anon.take() {
            Some(d) => {
                let name = self.path.file_name().expect("checked at create").to_os_string();
                anon::place(&self.file, &d, &name).map_err(failed)?
            }
            None => self.place_temp().map_err(failed)?,
        };
        #[cfg(not(target_os = "linux"))]
        let done = self.place_temp().map_err(failed)?;
        match done {
            Done::Exists => Err(Error::Io(super::messages::already_exists(&format!("{what} {shown}")))),
            _ => Ok(()),
        }
    }

    fn place_temp(&mut self) -> io::Result<Done> {
        let tmp = self.temp.take().expect("a named temporary file");
        let placed = place_new(&tmp, &self.path);
        if !matches!(placed, Ok(Done::Written)) {
            let _ = fs::remove_file(&tmp);
        }
        if let Ok(Done::Written) = placed {
            sync_dir(&parent_dir(&self.path))?;
        }
        placed
    }
}

impl Write for NewFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        if let Some(t) = self.temp.take() {
            let _ = fs::remove_file(t);
        }
    }
}

impl core::fmt::Debug for NewFile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NewFile").field("path", &self.path).finish_non_exhaustive()
    }
}

/// The directory a path's file is in (`.` for a bare name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// fsync a directory, so a rename or a new entry in it is durable.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// The marker in the name of a named temporary file, `.NAME.unimac-tmp-PID-HEX`
/// (PID: the writer's process id; HEX: 12 random hex digits).
const TEMP_MARK: &str = ".unimac-tmp-";

/// This process's id, which names its temporary files. WASI has no
/// processes (and `std::process::id` panics there): one fixed id.
pub(crate) fn own_id() -> u32 {
    if cfg!(target_os = "wasi") {
        0
    } else {
        std::process::id()
    }
}

/// Whether process `pid` may still be running: on unix, unless `kill(pid,
/// 0)` says there is no such process; elsewhere assumed (its temporary
/// files are then left).
pub(crate) fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Some(p) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) else {
            return false;
        };
        !matches!(rustix::process::test_kill_process(p), Err(rustix::io::Errno::SRCH))
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// A fresh temporary name for `base`: `.BASE.unimac-tmp-PID-HEX`.
fn temp_name(base: &str) -> io::Result<String> {
    let mut r = [0u8; 6];
    getrandom::fill(&mut r).map_err(|e| io::Error::other(crate::rng::failed(&e)))?;
    let tag: String = r.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!(".{base}{TEMP_MARK}{}-{tag}", own_id()))
}

/// The writer's process id in a temporary file's name
/// `.NAME.unimac-tmp-PID-HEX`; `None` for any other name.
fn temp_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let tail = &rest[rest.rfind(TEMP_MARK)? + TEMP_MARK.len()..];
    let (pid, hex) = tail.split_once('-')?;
    let digits = |s: &str, f: fn(&u8) -> bool| !s.is_empty() && s.as_bytes().iter().all(f);
    if hex.len() != 12 || !digits(hex, |c| c.is_ascii_digit() || (b'a'..=b'f').contains(c)) || !digits(pid, u8::is_ascii_digit) {
        return None;
    }
    pid.parse().ok()
}

/// Remove the temporary files `.NAME.unimac-tmp-PID-HEX` in `dir` whose
/// writer, process PID, no longer runs (killed part-way: they are never
/// renamed into place). A writer's own files, and those of a process that
/// still runs, are left; so is any file owned by another user
/// ([`remove_stale`]).
pub(crate) fn remove_stale_temporaries(dir: &Path) {
    remove_stale(dir, &temp_pid);
}

/// Remove the files in `dir` whose name `pid_of` reads as a temporary
/// file of process PID, where PID is not this process and no longer runs.
/// On unix the directory is opened once and each name is looked at and
/// removed relative to that handle (`fstatat`, `unlinkat`: never through a
/// path that a swapped directory or link could redirect), and only a
/// regular file owned by this process's effective user is removed: run by
/// root in a shared directory such as `/tmp`, the writer never removes
/// another user's file that merely looks like one of its own.
pub(crate) fn remove_stale(dir: &Path, pid_of: &dyn Fn(&str) -> Option<u32>) {
    #[cfg(unix)]
    if let Ok(d) = handle::open_dir(dir) {
        handle::remove_stale_in(&d, pid_of);
    }
    #[cfg(not(unix))]
    {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let n = e.file_name();
            let Some(pid) = n.to_str().and_then(pid_of) else { continue };
            if pid != own_id() && !process_alive(pid) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
}

/// Whether the file `meta` (a counter file, say, found with two links) has
/// its second link under a name `.NAME.unimac-tmp-PID-HEX` in the same
/// directory, where NAME is `path`'s file name and process PID no longer
/// runs: the trace of a writer killed between the hard link and the unlink
/// of the named way (where there is no `renameat2(RENAME_NOREPLACE)`).
/// With `remove`, that name is removed (relative to the directory's handle)
/// and `true` returned only if it was. Only a file with exactly two links
/// qualifies; anything else is `false`, and nothing is changed.
pub(crate) fn dead_twin(path: &Path, meta: &Metadata, remove: bool) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let Some(base) = path.file_name().and_then(|n| n.to_str()) else { return false };
        if meta.nlink() != 2 {
            return false;
        }
        handle::open_dir(&parent_dir(path)).is_ok_and(|d| handle::dead_twin_in(&d, base, meta.dev(), meta.ino(), remove))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, meta, remove);
        false
    }
}

/// The rule for a state file that is changed in place or replaced by a
/// rename (a counter file, the file of seen stream ids): a regular file
/// with one link. `what` and `shown` name the file, `why` says what a
/// second link would do. Checked on the path before a file is opened (so a
/// FIFO is never opened) and again on the open file.
pub fn check_one_link(meta: &Metadata, what: &str, shown: &str, why: &str) -> Result<(), Error> {
    if !meta.is_file() {
        return Err(Error::Io(format!("{what} {shown} is not a regular file; refusing it")));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(Error::Io(format!("{what} {shown} has {} hard links: {why}; refusing it", meta.nlink())));
        }
    }
    let _ = why;
    Ok(())
}

/// The rule for a state file only its owner may open (the file of seen
/// stream ids): owned by this process's effective user, and neither
/// readable nor writable by anyone else (mode `0600` or less), so that no
/// other user can open it, change it, or hold a lock on it (any open
/// descriptor can take `flock`, and a read-only one an `fcntl` read lock,
/// either of which would keep every writer waiting). Unix only; elsewhere
/// nothing is checked.
pub fn check_private(meta: &Metadata, what: &str, shown: &str) -> Result<(), Error> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = rustix::process::geteuid().as_raw();
        if meta.uid() != me {
            return Err(Error::Io(format!(
                "{what} {shown} is owned by uid {}, not by this user (uid {me}): another user's file is never used as one; refusing it",
                meta.uid()
            )));
        }
        if meta.mode() & 0o066 != 0 {
            return Err(Error::Io(format!(
                "{what} {shown} has mode {:04o}: other users can open it (and hold its lock, so that every receiver waits); 'chmod 600 {shown}' to use it",
                meta.mode() & 0o7777
            )));
        }
    }
    let _ = (meta, what, shown);
    Ok(())
}

#[cfg(unix)]
#[path = "fsio/handle.rs"]
mod handle;

/// A new temporary file `.BASE.unimac-tmp-PID-HEX` beside `path`, created
/// exclusively (mode 0600 when `private`, else 0666 less the umask): its
/// name and the open file.
fn temp_beside(path: &Path, private: bool) -> io::Result<(PathBuf, File)> {
    let dir = parent_dir(path);
    let base = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut last = None;
    for _ in 0..16 {
        let tmp = dir.join(temp_name(&base)?);
        let mut o = OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(if private { 0o600 } else { 0o666 });
        }
        #[cfg(not(unix))]
        let _ = private;
        match o.open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary name")))
}

/// Give the open new file the permissions `perm` asks for: for
/// [`Perm::Like`], the owner and then the mode of the old file.
fn set_perm(f: &File, perm: Perm<'_>) -> io::Result<()> {
    #[cfg(unix)]
    if let Perm::Like(old) = perm {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let new = f.metadata()?;
        if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
            std::os::unix::fs::fchown(f, Some(old.uid()), Some(old.gid())).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot keep its owner, uid {} gid {} ({})", old.uid(), old.gid(), io_msg(&e)))
            })?;
        }
        f.set_permissions(fs::Permissions::from_mode(old.permissions().mode() & 0o7777))?;
    }
    let _ = (f, perm);
    Ok(())
}

/// How a write ended, when it did not fail.
enum Done {
    /// The file has its name, and the directory was synced.
    Written,
    /// `Replace::Never` and the name was taken: nothing was written.
    Exists,
    /// No anonymous temporary files here (the named way is taken).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    Unsupported,
}

/// Write `text` to `path` whole or not at all (see the module's notes):
/// an anonymous temporary file in the target's directory (Linux), or a
/// named one beside it, fsync, then link (`Replace::Never`) or rename
/// (`Replace::Allowed`) onto the name, fsync the directory. `private` makes
/// the file mode 0600 (key and counter files). `what` names the file in
/// errors ("key file", "manifest").
pub fn write_atomic(path: &Path, text: &[u8], replace: Replace, private: bool, what: &str) -> Result<(), Error> {
    write_file(path, text, replace, if private { Perm::Private } else { Perm::Shared }, what)
}

/// [`write_atomic`] with the permissions `perm`.
pub(crate) fn write_file(path: &Path, text: &[u8], replace: Replace, perm: Perm<'_>, what: &str) -> Result<(), Error> {
    let shown = path.display();
    let exists = || Error::Io(super::messages::already_exists(&format!("{what} {shown}")));
    let failed = |e: io::Error| Error::Io(format!("cannot write {what} {shown}: {}", io_msg(&e)));
    if replace == Replace::Never && fs::symlink_metadata(path).is_ok() {
        return Err(exists());
    }
    let dir = parent_dir(path);
    let Some(name) = path.file_name() else {
        return Err(Error::Io(format!("cannot write {what} {shown}: not a file name")));
    };
    // The directory, opened once: its stale temporary files are removed
    // and the new file is made and linked relative to this handle.
    #[cfg(unix)]
    let d = handle::open_dir(&dir).map_err(failed)?;
    let clean = || {
        #[cfg(unix)]
        handle::remove_stale_in(&d, &temp_pid);
        #[cfg(not(unix))]
        remove_stale_temporaries(&dir);
    };
    // A secret's directory is small: its stale temporary files (of an
    // earlier version, or of the named way below) are removed each time.
    if !matches!(perm, Perm::Shared) {
        clean();
    }
    #[cfg(target_os = "linux")]
    let done = match anon::write(&d, name, text, replace, perm) {
        Ok(Done::Unsupported) => {
            if matches!(perm, Perm::Shared) {
                clean();
            }
            write_named(path, text, replace, perm)
        }
        r => r,
    };
    #[cfg(not(target_os = "linux"))]
    let done = {
        let _ = name;
        if matches!(perm, Perm::Shared) {
            clean();
        }
        write_named(path, text, replace, perm)
    };
    match done.map_err(failed)? {
        Done::Exists => Err(exists()),
        _ => Ok(()),
    }
}

/// The named way: a temporary file `.NAME.unimac-tmp-PID-HEX` beside the
/// target, written, synced, then renamed onto the name (`Replace::Never`:
/// a rename that refuses to replace, or where there is none a hard link
/// and an unlink), the directory synced; the temporary file is removed on
/// any error. A writer killed before the rename leaves the temporary file,
/// which [`remove_stale_temporaries`] removes later.
fn write_named(path: &Path, text: &[u8], replace: Replace, perm: Perm<'_>) -> io::Result<Done> {
    let (tmp, mut f) = temp_beside(path, !matches!(perm, Perm::Shared))?;
    let r = f.write_all(text).and_then(|_| set_perm(&f, perm)).and_then(|_| f.sync_all());
    drop(f);
    let placed = r.and_then(|_| match replace {
        Replace::Allowed => fs::rename(&tmp, path).map(|_| Done::Written),
        Replace::Never => place_new(&tmp, path),
    });
    if !matches!(placed, Ok(Done::Written)) {
        let _ = fs::remove_file(&tmp);
    }
    if let Ok(Done::Written) = placed {
        sync_dir(&parent_dir(path))?;
    }
    placed
}

/// Give the file `tmp` the free name `path` without ever replacing a file
/// there: `renameat2(RENAME_NOREPLACE)` on Linux; where the file system
/// lacks it, or on other systems, a hard link then an unlink of `tmp`;
/// without hard links, a rename after checking the name is free.
fn place_new(tmp: &Path, path: &Path) -> io::Result<Done> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{renameat_with, RenameFlags, CWD};
        use rustix::io::Errno;
        match renameat_with(CWD, tmp, CWD, path, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(Done::Written),
            Err(Errno::EXIST) => return Ok(Done::Exists),
            Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {}
            Err(e) => return Err(e.into()),
        }
    }
    match fs::hard_link(tmp, path) {
        Ok(()) => {
            let _ = fs::remove_file(tmp);
            Ok(Done::Written)
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(Done::Exists),
        Err(_) => {
            if fs::symlink_metadata(path).is_ok() {
                return Ok(Done::Exists);
            }
            fs::rename(tmp, path).map(|_| Done::Written)
        }
    }
}

#[cfg(target_os = "linux")]
#[path = "fsio/anon.rs"]
mod anon;

/// An anonymous temporary file, open for reading and writing, in `dir`:
/// it never has a name where the system allows (`O_TMPFILE`, Linux);
/// elsewhere it is created under a random name (mode 0600) and that name
/// removed at once. Nothing of it stays behind when the process ends.
pub fn anonymous_file(dir: &Path) -> io::Result<File> {
    #[cfg(target_os = "linux")]
    if let Some(f) = anon::open_in(&handle::open_dir(dir)?, 0o600, true)? {
        return Ok(f);
    }
    let mut last = None;
    for _ in 0..16 {
        let p = dir.join(temp_name("hold")?);
        let mut o = OpenOptions::new();
        o.read(true).write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        match o.open(&p) {
            Ok(f) => {
                fs::remove_file(&p)?;
                return Ok(f);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary name")))
}

/// The path's components with `.` dropped and `..` applied lexically (an
/// absolute path stays absolute; a relative one may keep leading `..`).
pub fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            c => out.push(c),
        }
    }
    let p: PathBuf = out.iter().collect();
    if p.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        p
    }
}

/// The path of `to` as seen from the directory `from` (both absolute and
/// normalized): `..` for each component of `from` past their common
/// prefix, then the rest of `to`; `.` when they are the same.
pub fn relative_to(from: &Path, to: &Path) -> PathBuf {
    let f: Vec<_> = from.components().collect();
    let t: Vec<_> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        out
    }
}

#[cfg(test)]
#[path = "fsio/tests.rs"]
mod tests;
