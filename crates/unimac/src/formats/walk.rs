//! One walk of a directory tree, for `tag -r`, `seal -r` and the check of
//! a sealed directory: every entry, sorted by name directory by directory,
//! with what it is. Symbolic links to directories are not followed.
//!
//! **The root** (unix): its last component is opened without following a
//! symbolic link, so a root swapped for a link to another directory by a
//! writer of its parent is an error naming it ([`Walked::Error`]), never
//! walked. A root named with a trailing `/` (`DIR/`) is the user's
//! explicit request to follow a link there, and is followed. The parents
//! of the root are followed as any path the user names.
//!
//! **By handle, not by path** (unix): every directory under the root is
//! opened relative to its parent's descriptor with `O_NOFOLLOW |
//! O_DIRECTORY`, after a `stat` of the entry (not following links) taken
//! when it was listed; the opened directory's `fstat` must be that same
//! directory (device and inode). A directory replaced by a symbolic link,
//! a file or another directory between its listing and its open is
//! reported ([`Walked::Error`], naming it) and never entered, so no name
//! outside the tree is ever listed. The walk goes at most [`MAX_DEPTH`]
//! directories deep: a deeper directory is an error naming it, never
//! entered (the walk recurses, one descriptor and one stack frame a level).
//!
//! The files are opened later the same way ([`Tree::open`]): through the
//! chain of directory descriptors from the root, each re-opened with
//! `O_NOFOLLOW | O_DIRECTORY` and checked against the identity the walk
//! recorded, then the file relative to its directory's descriptor, with
//! `O_NOFOLLOW | O_NONBLOCK | O_NOCTTY`. A path re-resolved later could
//! lead anywhere a writer of the tree points it; a chain of checked
//! descriptors cannot. Each thread keeps the chain of the directory its
//! last file was in (one descriptor per level), so the files of one
//! directory cost one `openat` each, and no more descriptors are open than
//! the tree is deep.
//!
//! **Symbolic links to files** are followed only inside the tree: on Linux
//! a link is resolved with `openat2(root, path under the root,
//! RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`, which refuses any step out
//! of the root (a `..` above it, an absolute target, a `/proc` magic link)
//! as the kernel resolves it, so a link swapped while it is read cannot
//! lead out either. A link that leads outside is listed as
//! [`Walked::Special`] ([`OUTSIDE`]): never opened, never stat-ed through,
//! so nothing of the outside file (name, size, content) reaches a listing
//! or a tag. Where `openat2` is missing (a Linux before 5.6, or another
//! system) a symbolic link to a file is not followed at all
//! ([`UNFOLLOWED`]).
//!
//! Elsewhere (no `openat`, e.g. wasm32-wasip1) the walk and the opens go
//! by path.

use crate::prelude::*;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use super::fsio::OpenError;
use super::race::Stamp;

/// One entry found under a directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Walked {
    /// A regular file or a symbolic link to one inside the tree (or an
    /// entry whose type is unknown, or a dangling link: its error comes
    /// when it is read).
    File(PathBuf),
    /// A named pipe, socket or device, or a link to one, or a symbolic
    /// link leading outside the tree ([`OUTSIDE`]) or not followed here
    /// ([`UNFOLLOWED`]): never opened (opening a named pipe would wait for
    /// a writer forever). The words say which.
    Special(PathBuf, &'static str),
    /// A symbolic link to a directory: not followed.
    LinkedDir(PathBuf),
    /// A directory that could not be listed, or that was replaced while
    /// the tree was walked (never entered): the path and why.
    Error(PathBuf, String),
}

/// A walk's entries and the tree's directories, by which its files are
/// opened ([`Tree::open`]).
#[derive(Debug)]
pub struct Walk {
    /// Everything under the directory, sorted by path, directories walked
    /// in place.
    pub entries: Vec<Walked>,
    /// The directories entered, with their identities.
    pub tree: Tree,
}

/// What a file found through a [`Tree`] is: its stamp (size, times,
/// device, inode) and, if it is not a regular file, what it is in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub stamp: Stamp,
    /// `None` for a regular file; else "a directory", "a named pipe", ….
    pub what: Option<&'static str>,
}

/// How many directories deep a walk goes below its root: a directory
/// deeper is an error naming it, never entered.
pub const MAX_DEPTH: usize = 1024;

/// What a symbolic link that leads outside the walked tree is, in words
/// ([`Walked::Special`]): never followed.
pub const OUTSIDE: &str = "a symbolic link leading outside the tree";

/// What a symbolic link to a file is where it cannot be kept inside the
/// tree as it is followed (no `openat2`): never followed.
pub const UNFOLLOWED: &str = "a symbolic link, not followed on this system";

/// Everything under `dir`, sorted by path, directories walked in place,
/// and the tree of directories entered (see the module's notes): `dir`'s
/// last component is not followed if it is a symbolic link, unless `dir`
/// ends with `/`.
pub fn walk(dir: &Path) -> Walk {
    imp::walk(dir)
}

/// Whether `dir` names a symbolic link that [`walk`] would refuse as its
/// root: its last component is a link, and it does not end with `/`.
pub fn root_is_link(dir: &Path) -> bool {
    !ends_with_slash(dir) && std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink())
}

fn ends_with_slash(dir: &Path) -> bool {
    dir.as_os_str().as_encoded_bytes().last() == Some(&b'/')
}

/// The error of a root that is a symbolic link.
fn root_link(dir: &Path) -> String {
    let d = dir.display();
    format!("{d}: a symbolic link; the root of a tree is not followed through a link (name it {d}/ to follow it)")
}

pub use imp::Tree;
#[cfg(all(test, unix))]
pub(crate) use imp::beneath_supported;

/// The error of a directory that is not the one the walk listed.
#[cfg(unix)]
fn replaced(dir: &Path, now: &str) -> io::Error {
    io::Error::other(format!("{}: {now} since the tree was listed; not entered", dir.display()))
}

impl Tree {
    /// Open the regular file at `p` (a path the walk gave as a
    /// [`Walked::File`]) relative to its directory's checked descriptor,
    /// refusing anything else unopened ([`super::fsio::open_regular`]'s
    /// rule): its stat first, then the open without blocking, then its
    /// `fstat`, which must be the file stat-ed. Returns the file and its
    /// metadata from `fstat`.
    pub fn open_regular(&self, p: &Path) -> Result<(File, std::fs::Metadata), OpenError> {
        let io = |e: io::Error| if e.kind() == io::ErrorKind::NotFound { OpenError::NotFound } else { OpenError::Io(e) };
        let found = self.stat(p).map_err(io)?;
        if let Some(k) = found.what {
            return Err(OpenError::NotRegular(k));
        }
        let f = self.open(p).map_err(io)?;
        let m = f.metadata().map_err(OpenError::Io)?;
        if !m.is_file() {
            return Err(OpenError::NotRegular(if m.is_dir() { "a directory" } else { super::fsio::special_kind(m.file_type()).unwrap_or("not a regular file") }));
        }
        if !Stamp::of(&m).same_file(&found.stamp) {
            return Err(OpenError::Io(io::Error::other("replaced while it was opened")));
        }
        Ok((f, m))
    }
}

#[cfg(unix)]
mod imp {
    use super::{ends_with_slash, replaced, root_link, Found, Walk, Walked, MAX_DEPTH, OUTSIDE, UNFOLLOWED};
    use crate::prelude::*;
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::ffi::{OsStr, OsString};
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags, Stat};

    use crate::formats::fsio::io_msg;
    use crate::formats::race::Stamp;

    /// One directory the walk entered: its parent's index, its name in
    /// the parent, and its identity (device, inode) when it was listed.
    #[derive(Debug)]
    struct Node {
        parent: u32,
        name: OsString,
        id: (u64, u64),
    }

    #[derive(Debug)]
    struct Inner {
        /// Which tree, for each thread's chain of descriptors.
        serial: u64,
        root: PathBuf,
        dirs: Vec<Node>,
        /// Each directory's index by its path as the walk gave it.
        index: HashMap<PathBuf, u32>,
    }

    /// The directories a walk entered, with their identities (cheap to
    /// clone): files under them are opened by handle ([`Tree::open`]).
    #[derive(Clone, Debug)]
    pub struct Tree {
        inner: Arc<Inner>,
    }

    static SERIAL: AtomicU64 = AtomicU64::new(1);

    /// How a symbolic link's target is opened to be stat-ed: `O_PATH`
    /// where there is one (no open of the file itself: no side effect of
    /// opening a device).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const PROBE: OFlags = OFlags::PATH.union(OFlags::CLOEXEC);
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const PROBE: OFlags = OFlags::RDONLY.union(OFlags::NONBLOCK).union(OFlags::NOCTTY).union(OFlags::CLOEXEC);

    const DIR_FLAGS: OFlags = OFlags::RDONLY.union(OFlags::DIRECTORY).union(OFlags::CLOEXEC).union(OFlags::NOCTTY);

    // The casts are for the unix targets whose `stat` fields are narrower.
    #[allow(clippy::unnecessary_cast)]
    fn id_of(s: &Stat) -> (u64, u64) {
        (s.st_dev as u64, s.st_ino as u64)
    }

    fn what_of(t: FileType) -> Option<&'static str> {
        match t {
            FileType::RegularFile => None,
            FileType::Directory => Some("a directory"),
            FileType::Fifo => Some("a named pipe"),
            FileType::Socket => Some("a socket"),
            FileType::CharacterDevice => Some("a character device"),
            FileType::BlockDevice => Some("a block device"),
            _ => Some("not a regular file"),
        }
    }

    #[allow(clippy::unnecessary_cast)]
    fn found_of(s: &Stat) -> Found {
        let t = FileType::from_raw_mode(s.st_mode as _);
        let regular = t == FileType::RegularFile;
        let stamp = Stamp::from_parts(
            s.st_size as u64,
            (s.st_mtime as i64, s.st_mtime_nsec as u32),
            (s.st_ctime as i64, s.st_ctime_nsec as u32),
            s.st_dev as u64,
            s.st_ino as u64,
            regular,
        );
        Found { stamp, what: what_of(t) }
    }

    /// A test's hook.
    #[cfg(test)]
    type Hook = Box<dyn FnMut(&Path)>;

    #[cfg(test)]
    std::thread_local! {
        /// Called between a directory's listing stat and its open (tests:
        /// a swap at the worst moment, every time).
        pub(super) static BEFORE_OPEN: RefCell<Option<Hook>> = RefCell::new(None);
    }

    fn before_open(_p: &Path) {
        #[cfg(test)]
        BEFORE_OPEN.with(|h| {
            if let Some(h) = h.borrow_mut().as_mut() {
                h(_p)
            }
        });
    }

    /// Open the directory `name` under `parent` without following a link,
    /// and check that it is the directory of identity `id` (`p`: its path,
    /// for the error).
    fn open_checked(parent: BorrowedFd<'_>, name: &OsStr, id: (u64, u64), p: &Path) -> io::Result<OwnedFd> {
        let fd = match rustix::fs::openat(parent, name, DIR_FLAGS | OFlags::NOFOLLOW, Mode::empty()) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR) => {
                return Err(replaced(p, "a directory replaced by a symbolic link or a file"))
            }
            Err(rustix::io::Errno::NOENT) => {
                let e = replaced(p, "a directory removed");
                return Err(io::Error::new(io::ErrorKind::NotFound, e.to_string()));
            }
            Err(e) => return Err(e.into()),
        };
        if id_of(&rustix::fs::fstat(&fd)?) != id {
            return Err(replaced(p, "a directory replaced by another directory"));
        }
        Ok(fd)
    }

    /// Open the root `dir`: its parent as named (links followed), then its
    /// last component without following a link, unless `dir` ends with
    /// `/` (the user's request to follow it).
    fn open_root(dir: &Path) -> Result<OwnedFd, String> {
        let shown = |e: rustix::io::Errno| format!("{}: {}", dir.display(), io_msg(&e.into()));
        if ends_with_slash(dir) {
            return rustix::fs::open(dir, DIR_FLAGS, Mode::empty()).map_err(shown);
        }
        let b = dir.as_os_str().as_bytes();
        let (parent, last): (&[u8], &[u8]) = match b.iter().rposition(|&c| c == b'/') {
            Some(0) => (b"/", &b[1..]),
            Some(i) => (&b[..i], &b[i + 1..]),
            None => (b".", b),
        };
        let up = rustix::fs::open(OsStr::from_bytes(parent), DIR_FLAGS, Mode::empty()).map_err(shown)?;
        let last = OsStr::from_bytes(if last.is_empty() { b"." } else { last });
        match rustix::fs::openat(&up, last, DIR_FLAGS | OFlags::NOFOLLOW, Mode::empty()) {
            Ok(fd) => Ok(fd),
            Err(e @ (rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR)) => {
                match rustix::fs::statat(&up, last, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(s) if FileType::from_raw_mode(s.st_mode as _) == FileType::Symlink => Err(root_link(dir)),
                    _ => Err(shown(e)),
                }
            }
            Err(e) => Err(shown(e)),
        }
    }

    pub fn walk(dir: &Path) -> Walk {
        let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
        let mut inner = Inner { serial, root: dir.to_path_buf(), dirs: Vec::new(), index: HashMap::new() };
        let mut out = Vec::new();
        let root = open_root(dir).and_then(|fd| rustix::fs::fstat(&fd).map(|s| (fd, s)).map_err(|e| format!("{}: {}", dir.display(), io_msg(&e.into()))));
        match root {
            Ok((fd, s)) => {
                inner.dirs.push(Node { parent: u32::MAX, name: OsString::new(), id: id_of(&s) });
                inner.index.insert(dir.to_path_buf(), 0);
                walk_into(fd.as_fd(), &fd, 0, 0, dir, &mut inner, &mut out);
            }
            Err(why) => out.push(Walked::Error(dir.to_path_buf(), why)),
        }
        Walk { entries: out, tree: Tree { inner: Arc::new(inner) } }
    }

    /// What the symbolic link at `rel` under the root `root` leads to, if
    /// it stays inside the tree: its stat, through a descriptor opened with
    /// `O_PATH` (no open of the file itself) beneath the root; else the
    /// words of [`Walked::Special`] (`Err(None)`: dangling, a loop, or
    /// unreadable: its error comes when it is read).
    fn link_target(root: BorrowedFd<'_>, rel: &Path) -> Result<Stat, Option<&'static str>> {
        match beneath(root, rel, PROBE) {
            Ok(fd) => rustix::fs::fstat(&fd).map_err(|_| None),
            Err(Beneath::Outside) => Err(Some(OUTSIDE)),
            Err(Beneath::Unsupported) => Err(Some(UNFOLLOWED)),
            Err(Beneath::Io(_)) => Err(None),
        }
    }

    /// Why a path under the root was not opened beneath it.
    enum Beneath {
        /// Its resolution left the root (`EXDEV`), or met a magic link.
        Outside,
        /// No `openat2` here (`ENOSYS`, or refused by a filter: `EPERM`).
        Unsupported,
        Io(rustix::io::Errno),
    }

    /// Open `rel` (a path under the root `root`, links followed) with
    /// `flags`, refusing every step of its resolution that leaves the root.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn beneath(root: BorrowedFd<'_>, rel: &Path, flags: OFlags) -> Result<OwnedFd, Beneath> {
        use rustix::fs::ResolveFlags;
        use std::sync::atomic::AtomicBool;
        static MISSING: AtomicBool = AtomicBool::new(false);
        if MISSING.load(Ordering::Relaxed) {
            return Err(Beneath::Unsupported);
        }
        match rustix::fs::openat2(root, rel, flags, Mode::empty(), ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS) {
            Ok(fd) => Ok(fd),
            Err(rustix::io::Errno::XDEV) => Err(Beneath::Outside),
            Err(rustix::io::Errno::NOSYS | rustix::io::Errno::PERM) => {
                MISSING.store(true, Ordering::Relaxed);
                Err(Beneath::Unsupported)
            }
            Err(e) => Err(Beneath::Io(e)),
        }
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn beneath(_root: BorrowedFd<'_>, _rel: &Path, _flags: OFlags) -> Result<OwnedFd, Beneath> {
        Err(Beneath::Unsupported)
    }

    /// Whether links are resolved beneath a root here (`openat2`; not on a
    /// Linux before 5.6, under a filter that refuses it, or under an
    /// emulator without it): the tests' expectations differ.
    #[cfg(test)]
    pub(crate) fn beneath_supported() -> bool {
        let Ok(root) = rustix::fs::open(".", OFlags::PATH.union(OFlags::DIRECTORY).union(OFlags::CLOEXEC), Mode::empty()) else {
            return false;
        };
        !matches!(beneath(root.as_fd(), Path::new("."), OFlags::PATH.union(OFlags::CLOEXEC)), Err(Beneath::Unsupported))
    }

    #[allow(clippy::too_many_arguments)]
    fn walk_into(root: BorrowedFd<'_>, fd: &OwnedFd, idx: u32, depth: usize, dir: &Path, inner: &mut Inner, out: &mut Vec<Walked>) {
        let err = |e: rustix::io::Errno| Walked::Error(dir.to_path_buf(), format!("{}: {}", dir.display(), io_msg(&e.into())));
        let mut names: Vec<(OsString, FileType)> = Vec::new();
        match Dir::read_from(fd) {
            Ok(mut d) => {
                while let Some(e) = d.read() {
                    match e {
                        Ok(e) => {
                            let n = e.file_name().to_bytes();
                            if n != b"." && n != b".." {
                                names.push((OsStr::from_bytes(n).to_os_string(), e.file_type()));
                            }
                        }
                        Err(e) => {
                            out.push(err(e));
                            break;
                        }
                    }
                }
            }
            Err(e) => {
                out.push(err(e));
                return;
            }
        }
        // Sorted by name: the order of the paths (all are `dir` joined
        // with a name).
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, t) in names {
            let p = dir.join(&name);
            let t = match t {
                FileType::Unknown => match rustix::fs::statat(fd, &name, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(s) => FileType::from_raw_mode(s.st_mode as _),
                    Err(_) => {
                        out.push(Walked::File(p));
                        continue;
                    }
                },
                t => t,
            };
            match t {
                FileType::Directory if depth >= MAX_DEPTH => {
                    let why = format!("{}: more than {MAX_DEPTH} directories deep; not entered", p.display());
                    out.push(Walked::Error(p, why));
                }
                FileType::Directory => subdir(root, fd, &name, idx, depth + 1, p, inner, out),
                // Followed only inside the tree (the module's notes).
                FileType::Symlink => {
                    let target = match p.strip_prefix(&inner.root) {
                        Ok(rel) => link_target(root, rel),
                        Err(_) => Err(None),
                    };
                    let target = match target {
                        // No `openat2`: a link to a directory is still
                        // told (a stat, no open), never followed.
                        Err(Some(UNFOLLOWED)) => match rustix::fs::statat(fd, &name, AtFlags::empty()) {
                            Ok(s) if FileType::from_raw_mode(s.st_mode as _) == FileType::Directory => Ok(s),
                            _ => Err(Some(UNFOLLOWED)),
                        },
                        t => t,
                    };
                    match target {
                        Ok(s) => match FileType::from_raw_mode(s.st_mode as _) {
                            FileType::Directory => out.push(Walked::LinkedDir(p)),
                            t => match what_of(t) {
                                Some(k) if t != FileType::RegularFile => out.push(Walked::Special(p, k)),
                                _ => out.push(Walked::File(p)),
                            },
                        },
                        Err(Some(k)) => out.push(Walked::Special(p, k)),
                        Err(None) => out.push(Walked::File(p)),
                    }
                }
                FileType::RegularFile => out.push(Walked::File(p)),
                t => out.push(Walked::Special(p, what_of(t).unwrap_or("not a regular file"))),
            }
        }
    }

    /// Enter the directory `name` of the directory `fd` (index `parent`):
    /// its stat as listed, then its open without following a link, checked
    /// against that stat.
    #[allow(clippy::too_many_arguments)]
    fn subdir(root: BorrowedFd<'_>, fd: &OwnedFd, name: &OsStr, parent: u32, depth: usize, p: PathBuf, inner: &mut Inner, out: &mut Vec<Walked>) {
        let listed = match rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(s) if FileType::from_raw_mode(s.st_mode as _) == FileType::Directory => id_of(&s),
            Ok(_) => {
                let why = replaced(&p, "a directory replaced by a symbolic link or a file").to_string();
                out.push(Walked::Error(p, why));
                return;
            }
            Err(e) => {
                out.push(Walked::Error(p.clone(), format!("{}: {}", p.display(), io_msg(&e.into()))));
                return;
            }
        };
        before_open(&p);
        match open_checked(fd.as_fd(), name, listed, &p) {
            Ok(sub) => {
                let idx = inner.dirs.len() as u32;
                inner.dirs.push(Node { parent, name: name.to_os_string(), id: listed });
                inner.index.insert(p.clone(), idx);
                walk_into(root, &sub, idx, depth, &p, inner, out);
            }
            Err(e) => {
                let why = match e.kind() {
                    io::ErrorKind::Other => io_msg(&e),
                    _ => format!("{}: {}", p.display(), io_msg(&e)),
                };
                out.push(Walked::Error(p, why));
            }
        }
    }

    /// This thread's chain of open directories: the tree's serial, and
    /// each level's index and descriptor from the root down.
    struct Chain {
        serial: u64,
        fds: Vec<(u32, OwnedFd)>,
    }

    std::thread_local! {
        static CHAIN: RefCell<Chain> = const { RefCell::new(Chain { serial: 0, fds: Vec::new() }) };
    }

    impl Tree {
        /// The directory walked.
        pub fn root(&self) -> &Path {
            &self.inner.root
        }

        /// Whether `p`'s directory is one the walk entered (its files are
        /// opened by handle).
        pub fn holds(&self, p: &Path) -> bool {
            self.dir_of(p).is_some()
        }

        /// The identity (device, inode) the walk recorded for the
        /// directory at `d` (a path it gave), if it entered it.
        pub fn dir_id(&self, d: &Path) -> Option<(u64, u64)> {
            self.inner.index.get(d).map(|&i| self.inner.dirs[i as usize].id)
        }

        fn dir_of<'p>(&self, p: &'p Path) -> Option<(u32, &'p OsStr)> {
            let name = p.file_name()?;
            Some((*self.inner.index.get(p.parent()?)?, name))
        }

        /// `f` with the checked descriptor of directory `idx`: this
        /// thread's chain re-used as far as it leads there, the rest opened
        /// from the deepest level kept, each checked.
        fn with_dir<T>(&self, idx: u32, f: impl FnOnce(BorrowedFd<'_>, BorrowedFd<'_>) -> io::Result<T>) -> io::Result<T> {
            let inner = &*self.inner;
            let mut path = vec![idx];
            while let Some(&d) = path.last() {
                let up = inner.dirs[d as usize].parent;
                if up == u32::MAX {
                    break;
                }
                path.push(up);
            }
            path.reverse();
            CHAIN.with(|c| {
                let mut c = c.borrow_mut();
                if c.serial != inner.serial {
                    c.fds.clear();
                    c.serial = inner.serial;
                }
                let keep = c.fds.iter().zip(&path).take_while(|((a, _), b)| a == *b).count();
                c.fds.truncate(keep);
                for &d in &path[keep..] {
                    let node = &inner.dirs[d as usize];
                    let fd = match c.fds.last() {
                        None => {
                            let fd = open_root(&inner.root).map_err(io::Error::other)?;
                            if id_of(&rustix::fs::fstat(&fd)?) != node.id {
                                return Err(replaced(&inner.root, "the root replaced by another directory"));
                            }
                            fd
                        }
                        Some((_, up)) => {
                            let p = self.path_of(d);
                            open_checked(up.as_fd(), &node.name, node.id, &p)?
                        }
                    };
                    c.fds.push((d, fd));
                }
                let (_, fd) = c.fds.last().expect("the root at least");
                f(c.fds[0].1.as_fd(), fd.as_fd())
            })
        }

        /// The path of directory `idx` as the walk gave it.
        fn path_of(&self, idx: u32) -> PathBuf {
            let inner = &*self.inner;
            let mut names = Vec::new();
            let mut d = idx;
            while d != 0 {
                names.push(&inner.dirs[d as usize].name);
                d = inner.dirs[d as usize].parent;
            }
            let mut p = inner.root.clone();
            for n in names.into_iter().rev() {
                p.push(n);
            }
            p
        }

        fn dir_or_err<'p>(&self, p: &'p Path) -> io::Result<(u32, &'p OsStr)> {
            self.dir_of(p).ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not under a directory the walk entered"))
        }

        /// Open the symbolic link at `p` with `flags`, beneath the root
        /// (the module's notes): an error if it leads outside, or where
        /// links to files are not followed.
        fn open_link(&self, root: BorrowedFd<'_>, p: &Path, flags: OFlags) -> io::Result<OwnedFd> {
            let rel = p.strip_prefix(&self.inner.root).map_err(|_| io::Error::new(io::ErrorKind::NotFound, "not under the root walked"))?;
            beneath(root, rel, flags).map_err(|e| match e {
                Beneath::Outside => io::Error::other(format!("{OUTSIDE}; not followed")),
                Beneath::Unsupported => io::Error::other(UNFOLLOWED),
                Beneath::Io(e) => e.into(),
            })
        }

        /// Open the file at `p` (a path the walk gave) for reading, relative
        /// to its directory's checked descriptor, with `O_NOFOLLOW |
        /// O_NONBLOCK | O_NOCTTY` (never blocking, whatever it turned out
        /// to be: the caller checks what it read with `fstat`). A symbolic
        /// link is followed only beneath the root (the module's notes).
        pub fn open(&self, p: &Path) -> io::Result<File> {
            let (idx, name) = self.dir_or_err(p)?;
            let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
            let fd = self.with_dir(idx, |root, d| match rustix::fs::openat(d, name, flags | OFlags::NOFOLLOW, Mode::empty()) {
                Err(rustix::io::Errno::LOOP) => self.open_link(root, p, flags),
                r => r.map_err(io::Error::from),
            })?;
            Ok(File::from(fd))
        }

        /// The stat of the file at `p` (a path the walk gave) relative to
        /// its directory's checked descriptor; a symbolic link followed
        /// only beneath the root (the module's notes).
        pub fn stat(&self, p: &Path) -> io::Result<Found> {
            let (idx, name) = self.dir_or_err(p)?;
            self.with_dir(idx, |root, d| {
                let s = rustix::fs::statat(d, name, AtFlags::SYMLINK_NOFOLLOW)?;
                if FileType::from_raw_mode(s.st_mode as _) != FileType::Symlink {
                    return Ok(found_of(&s));
                }
                let fd = self.open_link(root, p, PROBE)?;
                Ok(found_of(&rustix::fs::fstat(&fd)?))
            })
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::{Found, Walk, Walked};
    use crate::prelude::*;
    use std::fs::{self, File};
    use std::io;
    use std::path::{Path, PathBuf};

    use crate::formats::fsio::{io_msg, special_kind};
    use crate::formats::race::Stamp;

    /// Where the walk went (no descriptors here: files are opened by
    /// path).
    #[derive(Clone, Debug)]
    pub struct Tree {
        root: PathBuf,
    }

    pub fn walk(dir: &Path) -> Walk {
        let mut out = Vec::new();
        walk_into(dir, &mut out);
        Walk { entries: out, tree: Tree { root: dir.to_path_buf() } }
    }

    fn walk_into(dir: &Path, out: &mut Vec<Walked>) {
        let rd = match fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => {
                out.push(Walked::Error(dir.to_path_buf(), format!("{}: {}", dir.display(), io_msg(&e))));
                return;
            }
        };
        let mut entries: Vec<(PathBuf, Option<fs::FileType>)> = Vec::new();
        for e in rd {
            match e {
                Ok(e) => entries.push((e.path(), e.file_type().ok())),
                Err(e) => out.push(Walked::Error(dir.to_path_buf(), format!("{}: {}", dir.display(), io_msg(&e)))),
            }
        }
        entries.sort_by(|a, b| a.0.as_os_str().cmp(b.0.as_os_str()));
        for (p, t) in entries {
            let Some(t) = t else {
                out.push(Walked::File(p));
                continue;
            };
            if t.is_dir() {
                walk_into(&p, out);
                continue;
            }
            let t = if t.is_symlink() {
                match fs::metadata(&p) {
                    Ok(m) if m.is_dir() => {
                        out.push(Walked::LinkedDir(p));
                        continue;
                    }
                    Ok(m) => m.file_type(),
                    Err(_) => {
                        out.push(Walked::File(p));
                        continue;
                    }
                }
            } else {
                t
            };
            match special_kind(t) {
                Some(k) => out.push(Walked::Special(p, k)),
                None => out.push(Walked::File(p)),
            }
        }
    }

    impl Tree {
        /// The directory walked.
        pub fn root(&self) -> &Path {
            &self.root
        }

        /// Whether `p` is under the directory walked.
        pub fn holds(&self, p: &Path) -> bool {
            p.starts_with(&self.root)
        }

        /// The directory at `d` (by path here): an identity if it is one
        /// under the root (none is recorded here).
        pub fn dir_id(&self, d: &Path) -> Option<(u64, u64)> {
            (d.starts_with(&self.root) && d.is_dir()).then_some((0, 0))
        }

        /// Open the file at `p` for reading (by path here).
        pub fn open(&self, p: &Path) -> io::Result<File> {
            File::open(p)
        }

        /// The stat of the file at `p` (by path here).
        pub fn stat(&self, p: &Path) -> io::Result<Found> {
            let m = fs::metadata(p)?;
            let what = if m.is_file() {
                None
            } else if m.is_dir() {
                Some("a directory")
            } else {
                Some(special_kind(m.file_type()).unwrap_or("not a regular file"))
            };
            Ok(Found { stamp: Stamp::of(&m), what })
        }
    }
}

#[cfg(all(test, unix))]
#[path = "walk/tests.rs"]
mod tests;
