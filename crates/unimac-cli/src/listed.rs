//! Listed files stat-ed and opened with few, cheap system calls.
//!
//! A file of a long list (`tag -r DIR`: thousands of small files) costs
//! its system calls, not its hash: a stat in the listing pass, then open,
//! read, `fstat`, close. Each call by a path walks the whole path again
//! (`DIR/sub/name`: every component looked up). Here the files of one
//! directory are reached through the directory's descriptor instead
//! (`statx` and `openat` relative to it: one component looked up): each
//! thread keeps the descriptor of the directory its last file was in, opened
//! when a second file of that directory comes (so a file alone in its
//! directory costs no more than by its path), and closed when a file of
//! another directory comes.
//!
//! A file is opened with `O_NONBLOCK | O_NOCTTY`: a named pipe (or a
//! device) put in the place of a file that was listed as a regular one
//! cannot block the open or the read, nor become the controlling terminal;
//! the `fstat` after the read (the rule of `unimac_front::formats::race`) then
//! finds that it is not the file listed. `O_NONBLOCK` has no effect on a
//! regular file's reads.

use std::fs::File;
use std::io;
use std::path::Path;

use unimac_front::formats::race::Stamp;
use unimac_front::formats::walk::Tree;

/// The trees walked for their regular files (`tag -r`, `seal -r`): a file
/// under one is opened through the walk's checked directory descriptors
/// (`unimac_front::formats::walk::Tree`), never by its path, and was listed as a
/// regular file, never named as a pipe.
static WALKED: std::sync::RwLock<Vec<Tree>> = std::sync::RwLock::new(Vec::new());

/// Say that a tree was walked for its regular files: its files are opened
/// by handle ([`walked_tree`]), and a named pipe or device found under it
/// when a file is opened was not one when listed (the walk skips those),
/// and is an error naming it, never read.
pub fn walked(tree: Tree) {
    WALKED.write().unwrap_or_else(|e| e.into_inner()).push(tree);
}

/// The walked tree `p` was found in, if any ([`walked`]).
pub fn walked_tree(p: &Path) -> Option<Tree> {
    let trees = WALKED.read().unwrap_or_else(|e| e.into_inner());
    if trees.is_empty() {
        return None;
    }
    trees.iter().find(|t| t.holds(p)).cloned()
}

/// What the stat of a listed path (following symbolic links) says: the
/// stamp of the file, and whether it is a regular file.
pub struct Stat {
    pub stamp: Stamp,
    pub regular: bool,
    /// Which file: its device and inode.
    #[cfg_attr(not(unix), allow(dead_code))]
    pub id: (u64, u64),
}

#[cfg(target_os = "linux")]
mod imp {
    use std::cell::RefCell;
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use rustix::fs::{AtFlags, FileType, Mode, OFlags, StatxFlags, CWD};

    use super::Stat;
    use unimac_front::formats::race::Stamp;

    /// The directory of this thread's last file, and its descriptor once a
    /// second file of it came.
    enum Dir {
        /// No file yet.
        None,
        /// One file of this directory (by its path): no descriptor yet.
        Seen(Vec<u8>),
        /// Its descriptor (`O_PATH`).
        Open(Vec<u8>, OwnedFd),
        /// It could not be opened (too many files open, say): by path.
        Failed(Vec<u8>),
    }

    thread_local! {
        static LAST: RefCell<Dir> = const { RefCell::new(Dir::None) };
    }

    /// The path's directory and its last component, when the last
    /// component is a plain name (`None`: no `/`, or a last component that
    /// is empty, `.` or `..`; then the path is used as it is).
    fn split(p: &[u8]) -> Option<(&[u8], &[u8])> {
        let i = p.iter().rposition(|&c| c == b'/')?;
        let (d, n) = (&p[..i], &p[i + 1..]);
        if n.is_empty() || n == b"." || n == b".." {
            return None;
        }
        Some((if d.is_empty() { b"/" } else { d }, n))
    }

    /// `f` with a directory descriptor and a path relative to it that
    /// names `p`: the thread's descriptor of `p`'s directory and the last
    /// component, or the working directory and `p` itself.
    fn at<T>(p: &Path, f: impl FnOnce(BorrowedFd<'_>, &[u8]) -> T) -> T {
        let whole = p.as_os_str().as_bytes();
        let Some((dir, name)) = split(whole) else { return f(CWD, whole) };
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            let same = match &*last {
                Dir::Seen(d) | Dir::Open(d, _) | Dir::Failed(d) => d.as_slice() == dir,
                Dir::None => false,
            };
            if !same {
                *last = Dir::Seen(dir.to_vec());
                return f(CWD, whole);
            }
            // The second file of this directory: its descriptor now.
            if matches!(&*last, Dir::Seen(_)) {
                let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
                *last = match rustix::fs::open(dir, flags, Mode::empty()) {
                    Ok(fd) => Dir::Open(dir.to_vec(), fd),
                    Err(_) => Dir::Failed(dir.to_vec()),
                };
            }
            match &*last {
                Dir::Open(_, fd) => f(fd.as_fd(), name),
                _ => f(CWD, whole),
            }
        })
    }

    pub fn stat(p: &Path) -> io::Result<Stat> {
        let x = at(p, |fd, name| rustix::fs::statx(fd, name, AtFlags::STATX_SYNC_AS_STAT, StatxFlags::BASIC_STATS))?;
        let regular = FileType::from_raw_mode(x.stx_mode.into()) == FileType::RegularFile;
        let t = |t: rustix::fs::StatxTimestamp| (t.tv_sec, t.tv_nsec);
        // As std encodes the device of a statx.
        let dev = libc::makedev(x.stx_dev_major, x.stx_dev_minor);
        let stamp = Stamp::from_parts(x.stx_size, t(x.stx_mtime), t(x.stx_ctime), dev, x.stx_ino, regular);
        Ok(Stat { stamp, regular, id: (dev, x.stx_ino) })
    }

    pub fn open(p: &Path) -> io::Result<File> {
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let fd = at(p, |fd, name| rustix::fs::openat(fd, name, flags, Mode::empty()))?;
        Ok(File::from(fd))
    }

    #[cfg(test)]
    #[test]
    fn names_split_only_at_a_plain_last_component() {
        assert_eq!(split(b"d/s/f"), Some((&b"d/s"[..], &b"f"[..])));
        assert_eq!(split(b"/f"), Some((&b"/"[..], &b"f"[..])));
        assert_eq!(split(b"d//f"), Some((&b"d/"[..], &b"f"[..])));
        for whole in [&b"f"[..], b"d/", b"d/.", b"d/..", b"f/."] {
            assert_eq!(split(whole), None, "{}", String::from_utf8_lossy(whole));
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::fs::File;
    use std::io;
    use std::path::Path;

    use super::Stat;
    use unimac_front::formats::race::Stamp;

    pub fn stat(p: &Path) -> io::Result<Stat> {
        let m = std::fs::metadata(p)?;
        #[cfg(unix)]
        let id = {
            use std::os::unix::fs::MetadataExt;
            (m.dev(), m.ino())
        };
        #[cfg(not(unix))]
        let id = (0, 0);
        Ok(Stat { stamp: Stamp::of(&m), regular: m.is_file(), id })
    }

    pub fn open(p: &Path) -> io::Result<File> {
        let mut o = std::fs::OpenOptions::new();
        o.read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
        }
        o.open(p)
    }
}

/// The stat of the listed path `p` (symbolic links followed): through the
/// walk's checked directory descriptors for a file a walk found
/// ([`walked_tree`]), else relative to its directory's
/// descriptor when the thread's last file was in the same directory.
pub fn stat(p: &Path) -> io::Result<Stat> {
    if let Some(t) = walked_tree(p) {
        let f = t.stat(p)?;
        return Ok(Stat { stamp: f.stamp, regular: f.what.is_none(), id: f.stamp.id() });
    }
    imp::stat(p)
}

/// Open the listed path `p` for reading, with `O_NONBLOCK | O_NOCTTY`
/// (never blocking, whatever the file turned out to be: the caller checks
/// what it read with `fstat`), relative to its directory's descriptor as
/// [`stat`] (a walked file through the walk's checked directories).
pub fn open(p: &Path) -> io::Result<File> {
    if let Some(t) = walked_tree(p) {
        return t.open(p);
    }
    imp::open(p)
}
