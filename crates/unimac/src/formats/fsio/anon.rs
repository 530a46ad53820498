//! The anonymous way (Linux): the file is made with `O_TMPFILE` in the
//! target's directory, so it has no name while it is written, and is
//! linked into place whole (`linkat`, which never replaces a name); a
//! process killed before that leaves nothing at all.

use super::{set_perm, temp_name, Done, Perm, Replace};
use rustix::fs::{fsync, linkat, openat, renameat, unlinkat, AtFlags, Mode, OFlags, CWD};
use rustix::io::Errno;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;

/// An anonymous file open for writing in the directory `d`; `None`
/// where the file system has no `O_TMPFILE`.
pub(super) fn open_in(d: &OwnedFd, mode: u32, read: bool) -> io::Result<Option<File>> {
    let rw = if read { OFlags::RDWR } else { OFlags::WRONLY };
    match openat(d, ".", OFlags::TMPFILE | rw | OFlags::CLOEXEC, Mode::from_raw_mode(mode)) {
        Ok(fd) => Ok(Some(File::from(fd))),
        Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Link the anonymous file `f` as `name` in `d` (`EEXIST` if taken):
/// by `AT_EMPTY_PATH` where allowed, else through `/proc/self/fd`.
fn link(f: &File, d: &OwnedFd, name: &OsStr) -> Result<(), Errno> {
    match linkat(f, "", d, name, AtFlags::EMPTY_PATH) {
        Err(Errno::NOENT | Errno::PERM | Errno::ACCESS | Errno::INVAL) => {}
        r => return r,
    }
    let proc = format!("/proc/self/fd/{}", f.as_raw_fd());
    linkat(CWD, proc.as_str(), d, name, AtFlags::SYMLINK_FOLLOW)
}

/// Link the written (and synced) anonymous file `f` as `name` in `d`,
/// never over an existing name; the directory synced after.
pub(super) fn place(f: &File, d: &OwnedFd, name: &OsStr) -> io::Result<Done> {
    match link(f, d, name) {
        Ok(()) => {}
        Err(Errno::EXIST) => return Ok(Done::Exists),
        Err(e) => return Err(e.into()),
    }
    fsync(d)?;
    Ok(Done::Written)
}

pub(super) fn write(d: &OwnedFd, name: &OsStr, text: &[u8], replace: Replace, perm: Perm<'_>) -> io::Result<Done> {
    let mode = if matches!(perm, Perm::Shared) { 0o666 } else { 0o600 };
    let Some(mut f) = open_in(d, mode, false)? else {
        return Ok(Done::Unsupported);
    };
    f.write_all(text)?;
    set_perm(&f, perm)?;
    f.sync_all()?;
    match replace {
        Replace::Never => match link(&f, d, name) {
            Ok(()) => {}
            Err(Errno::EXIST) => return Ok(Done::Exists),
            // No /proc to link through: the named way.
            Err(Errno::NOENT) if !Path::new("/proc/self/fd").exists() => return Ok(Done::Unsupported),
            Err(e) => return Err(e.into()),
        },
        Replace::Allowed => {
            // No link replaces a name: a named temporary file for the
            // moment between the link and the rename.
            let base = name.to_string_lossy();
            let mut tmp = temp_name(&base)?;
            let mut tries = 0;
            loop {
                match link(&f, d, OsStr::new(&tmp)) {
                    Ok(()) => break,
                    Err(Errno::EXIST) if tries < 16 => {
                        tries += 1;
                        tmp = temp_name(&base)?;
                    }
                    Err(Errno::NOENT) if !Path::new("/proc/self/fd").exists() => return Ok(Done::Unsupported),
                    Err(e) => return Err(e.into()),
                }
            }
            if let Err(e) = renameat(d, tmp.as_str(), d, name) {
                let _ = unlinkat(d, tmp.as_str(), AtFlags::empty());
                return Err(e.into());
            }
        }
    }
    fsync(d)?;
    Ok(Done::Written)
}
