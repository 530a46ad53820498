//! One walk of a directory tree, for `tag -r`, `seal -r` and the check of
//! a sealed directory: every entry, sorted by name directory by directory,
//! with what it is. Symbolic links to directories are not followed.

use crate::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};

use super::fsio::{io_msg, special_kind};

/// One entry found under a directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Walked {
    /// A regular file or a symbolic link to one (or an entry whose type is
    /// unknown, or a dangling link: its error comes when it is read).
    File(PathBuf),
    /// A named pipe, socket or device, or a link to one (never opened:
    /// opening a named pipe would wait for a writer forever). The words
    /// say which.
    Special(PathBuf, &'static str),
    /// A symbolic link to a directory: not followed.
    LinkedDir(PathBuf),
    /// A directory that could not be listed: the path and why.
    Error(PathBuf, String),
}

/// Everything under `dir`, sorted by path, directories walked in place.
pub fn walk(dir: &Path) -> Vec<Walked> {
    let mut out = Vec::new();
    walk_into(dir, &mut out);
    out
}

fn walk_into(dir: &Path, out: &mut Vec<Walked>) {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            out.push(Walked::Error(dir.to_path_buf(), format!("{}: {}", dir.display(), io_msg(&e))));
            return;
        }
    };
    // Sorted by path: every path is `dir` joined with a name, so this is
    // the order of the names.
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
