//! Directory handles (unix): the stale-file cleaner and the dead-twin
//! check look at and remove names relative to one open directory.

use super::{own_id, process_alive, TEMP_MARK};
use rustix::fs::{openat, statat, unlinkat, AtFlags, Dir, FileType, Mode, OFlags, CWD};
use std::io;
use std::os::fd::OwnedFd;
use std::path::Path;

/// The directory `dir`, opened to look at, create, link and remove
/// names in it.
pub(super) fn open_dir(dir: &Path) -> io::Result<OwnedFd> {
    Ok(openat(CWD, dir, OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty())?)
}

/// Each name in `d` (`.` and `..` left out), with a handler.
fn each_name(d: &OwnedFd, f: &mut dyn FnMut(&str)) {
    let Ok(mut list) = Dir::read_from(d) else { return };
    while let Some(Ok(e)) = list.read() {
        if let Ok(n) = e.file_name().to_str() {
            if n != "." && n != ".." {
                f(n);
            }
        }
    }
}

pub(super) fn remove_stale_in(d: &OwnedFd, pid_of: &dyn Fn(&str) -> Option<u32>) {
    let me = rustix::process::geteuid().as_raw();
    each_name(d, &mut |n| {
        let Some(pid) = pid_of(n) else { return };
        if pid == own_id() || process_alive(pid) {
            return;
        }
        let Ok(st) = statat(d, n, AtFlags::SYMLINK_NOFOLLOW) else { return };
        if FileType::from_raw_mode(st.st_mode as _) == FileType::RegularFile && st.st_uid == me {
            let _ = unlinkat(d, n, AtFlags::empty());
        }
    });
}

pub(super) fn dead_twin_in(d: &OwnedFd, base: &str, dev: u64, ino: u64, remove: bool) -> bool {
    let prefix = format!(".{base}{TEMP_MARK}");
    let mut found = false;
    each_name(d, &mut |n| {
        if found || !n.starts_with(&prefix) {
            return;
        }
        let Some(pid) = super::temp_pid(n) else { return };
        if pid == own_id() || process_alive(pid) {
            return;
        }
        let Ok(st) = statat(d, n, AtFlags::SYMLINK_NOFOLLOW) else { return };
        // The widths of st_dev and st_ino differ between systems.
        #[allow(clippy::unnecessary_cast)]
        let same = st.st_dev as u64 == dev && st.st_ino as u64 == ino;
        if same {
            found = !remove || unlinkat(d, n, AtFlags::empty()).is_ok();
        }
    });
    found
}
