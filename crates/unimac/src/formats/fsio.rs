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
//! **Writing a file** ([`write_atomic`]): the text goes to a new temporary
//! file beside the target (same directory, so the same file system), is
//! synced, and only then takes the target's name — by a hard link when the
//! target must not be overwritten (the link fails if the name exists, with
//! no window in which another writer's file could be replaced), or by a
//! rename when it may be. The directory is synced after. A writer killed at
//! any point leaves either no target or the whole one; at worst a temporary
//! file `.NAME.unimac-tmp-*` stays behind, never under the target's name.

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

fn kind_of(m: &Metadata) -> Option<&'static str> {
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

/// Whether [`write_atomic`] may replace an existing file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// Never: an existing target is an error, and is left as it is.
    Never,
    /// Yes: the new file takes the name in one rename.
    Allowed,
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

/// A new temporary file beside `path`, created exclusively (mode 0600 when
/// `private`, else 0666 less the umask): its name and the open file.
fn temp_beside(path: &Path, private: bool) -> io::Result<(PathBuf, File)> {
    let dir = parent_dir(path);
    let base = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut last = None;
    for _ in 0..16 {
        let mut r = [0u8; 6];
        getrandom::fill(&mut r).map_err(|e| io::Error::other(format!("the operating system's random generator failed: {e}")))?;
        let tag: String = r.iter().map(|b| format!("{b:02x}")).collect();
        let tmp = dir.join(format!(".{base}.unimac-tmp-{}-{tag}", std::process::id()));
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

/// Write `text` to `path` whole or not at all (see the module's notes):
/// temporary file beside it, fsync, then link (`Replace::Never`) or rename
/// (`Replace::Allowed`) onto the name, fsync the directory. `private` makes
/// the file mode 0600 (key and counter files). `what` names the file in
/// errors ("key file", "manifest").
pub fn write_atomic(path: &Path, text: &[u8], replace: Replace, private: bool, what: &str) -> Result<(), Error> {
    let shown = path.display();
    let exists = || Error::Io(format!("{what} {shown} already exists; not overwriting it"));
    if replace == Replace::Never && fs::symlink_metadata(path).is_ok() {
        return Err(exists());
    }
    let (tmp, mut f) = temp_beside(path, private).map_err(|e| Error::Io(format!("cannot create {what} {shown}: {}", io_msg(&e))))?;
    let cleanup = |e: Error| {
        let _ = fs::remove_file(&tmp);
        e
    };
    f.write_all(text)
        .and_then(|_| f.sync_all())
        .map_err(|e| cleanup(Error::Io(format!("cannot write {what} {shown}: {}", io_msg(&e)))))?;
    drop(f);
    match replace {
        Replace::Allowed => {
            fs::rename(&tmp, path).map_err(|e| cleanup(Error::Io(format!("cannot write {what} {shown}: {}", io_msg(&e)))))?;
        }
        Replace::Never => match fs::hard_link(&tmp, path) {
            Ok(()) => {
                let _ = fs::remove_file(&tmp);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(cleanup(exists())),
            // A file system without hard links: the name was free just
            // above; take it by a rename.
            Err(_) => {
                if fs::symlink_metadata(path).is_ok() {
                    return Err(cleanup(exists()));
                }
                fs::rename(&tmp, path).map_err(|e| cleanup(Error::Io(format!("cannot write {what} {shown}: {}", io_msg(&e)))))?;
            }
        },
    }
    sync_dir(&parent_dir(path)).map_err(|e| Error::Io(format!("cannot sync the directory of {what} {shown}: {}", io_msg(&e))))
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
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("unimac-fsio-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    #[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
    fn writes_whole_and_never_over() {
        let d = scratch("w");
        let p = d.join("out");
        write_atomic(&p, b"one\n", Replace::Never, true, "file").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"one\n");
        let e = write_atomic(&p, b"two\n", Replace::Never, true, "file").unwrap_err();
        assert!(e.to_string().contains("already exists"), "{e}");
        assert_eq!(fs::read(&p).unwrap(), b"one\n");
        write_atomic(&p, b"three\n", Replace::Allowed, false, "file").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"three\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let q = d.join("key");
            write_atomic(&q, b"k\n", Replace::Never, true, "key file").unwrap();
            assert_eq!(fs::metadata(&q).unwrap().permissions().mode() & 0o777, 0o600);
        }
        // No temporary file is left behind.
        let left: Vec<_> = fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.iter().all(|n| !n.to_string_lossy().contains("unimac-tmp")), "{left:?}");
        let _ = fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn opens_only_regular_files() {
        let d = scratch("o");
        let f = d.join("f");
        fs::write(&f, b"x").unwrap();
        assert!(open_regular(&f).is_ok());
        assert!(open_stated_regular(&f).is_ok());
        assert!(matches!(open_stated_regular(Path::new("/dev/null")), Err(OpenError::NotRegular("a character device"))));
        assert!(matches!(open_regular(&d.join("none")), Err(OpenError::NotFound)));
        assert!(matches!(open_regular(&d), Err(OpenError::NotRegular("a directory"))));
        let e = open_regular(Path::new("/dev/null")).unwrap_err();
        assert!(matches!(e, OpenError::NotRegular("a character device")), "{e:?}");
        assert!(e.message("/dev/null").contains("not opened"));
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn paths() {
        assert_eq!(normalize(Path::new("a/./b/../c")), PathBuf::from("a/c"));
        assert_eq!(normalize(Path::new("../a")), PathBuf::from("../a"));
        assert_eq!(normalize(Path::new("/../a")), PathBuf::from("/a"));
        assert_eq!(normalize(Path::new("a/..")), PathBuf::from("."));
        assert_eq!(relative_to(Path::new("/x/y"), Path::new("/x/z/w")), PathBuf::from("../z/w"));
        assert_eq!(relative_to(Path::new("/x"), Path::new("/x")), PathBuf::from("."));
        assert_eq!(relative_to(Path::new("/"), Path::new("/a")), PathBuf::from("a"));
    }
}
