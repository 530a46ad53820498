//! Walking and listing files: the inputs of `tag` and `seal` (the files
//! named, directories walked with `-r`, the names of `--files-from`; stdin
//! when none at all).

use std::path::{Path, PathBuf};

use crate::checklines::bytes_path;
use crate::fail::Fail;
use crate::input::shown;

/// Which files `tag` reads, besides the ones named.
#[derive(Clone, Copy, Debug, Default)]
pub struct FileList<'a> {
    /// Tag the files under directories (recursively, sorted by name;
    /// symbolic links to directories are not followed).
    pub recursive: bool,
    /// A file listing the names to tag, one per line (`-`: stdin).
    pub files_from: Option<&'a Path>,
    /// The names in `files_from` end in NUL, not newline.
    pub zero: bool,
}

/// One input of `tag`: a path, or an error found while listing.
pub(crate) type Item = (PathBuf, Option<String>);

/// The most a `--files-from` list may hold.
const MAX_FILES_FROM: u64 = 1 << 28;

/// The files to tag: the named ones (directories expanded with
/// `recursive`), then those listed in `files_from`; stdin if none at all.
pub(crate) fn collect_files(files: &[PathBuf], list: FileList<'_>) -> Result<Vec<Item>, Fail> {
    let mut out: Vec<Item> = Vec::new();
    let mut named: Vec<PathBuf> = files.to_vec();
    if let Some(from) = list.files_from {
        let text = crate::input::read_names_argument(from, MAX_FILES_FROM)?;
        let sep = if list.zero { b'\0' } else { b'\n' };
        for name in text.split(|&c| c == sep).filter(|n| !n.is_empty()) {
            named.push(bytes_path(name));
        }
    } else if list.zero {
        return Err(Fail("-0 applies to --files-from".into()));
    }
    if named.is_empty() && list.files_from.is_none() {
        named.push(PathBuf::from("-"));
    }
    for p in named {
        if list.recursive && p.as_os_str() != "-" && std::fs::metadata(&p).is_ok_and(|m| m.is_dir())
        {
            walk(&p, &mut out);
        } else {
            out.push((p, None));
        }
    }
    if out.iter().filter(|(f, _)| f.as_os_str() == "-").count() > 1 {
        return Err(Fail("stdin ('-') can be read only once".into()));
    }
    if list.files_from.is_some_and(|f| f.as_os_str() == "-")
        && out.iter().any(|(f, _)| f.as_os_str() == "-")
    {
        return Err(Fail(
            "stdin ('-') is the list of files (--files-from -); it cannot also be tagged".into(),
        ));
    }
    Ok(out)
}

/// The regular files under `dir`, sorted (the library's walk, by handle):
/// named pipes, sockets and devices are skipped with a warning (opening a
/// named pipe would wait for a writer forever), symbolic links to
/// directories are not followed, and a directory replaced while it was
/// walked is an error line naming it (never entered).
fn walk(dir: &Path, out: &mut Vec<Item>) {
    use unimac_front::formats::walk::{walk, Walked};
    // Walked by handle; its files are opened through the walk's checked
    // directories, and a pipe found under it when a file is read was
    // swapped in since.
    let w = walk(dir);
    crate::input::walked(w.tree);
    out.reserve_exact(w.entries.len());
    for w in w.entries {
        match w {
            Walked::File(p) => out.push((p, None)),
            Walked::Error(p, why) => out.push((p, Some(why))),
            Walked::LinkedDir(_) => {}
            Walked::Special(p, what) => eprintln!(
                "unimac: warning: {}: {what}, skipped (-r tags regular files)",
                shown(Some(&p))
            ),
        }
    }
}

/// The file standard output writes to, if it is a regular file (so that
/// `seal -r DIR > DIR/MANIFEST` does not seal its own manifest, nor
/// `tag -r DIR > DIR/SUMS` tag its own output): its
/// device and inode, and (on Linux) its path, where the manifest will be.
#[cfg(unix)]
pub(crate) fn stdout_file() -> Option<((u64, u64), Option<PathBuf>)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let fd = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let m = std::fs::File::from(fd).metadata().ok()?;
    if !m.is_file() {
        return None;
    }
    let path = std::fs::read_link("/proc/self/fd/1").ok().filter(|p| {
        p.is_absolute() && std::fs::metadata(p).is_ok_and(|pm| (pm.dev(), pm.ino()) == (m.dev(), m.ino()))
    });
    Some(((m.dev(), m.ino()), path))
}

/// Whether `p` is the file of device and inode `id` (its stat kept for
/// `tag`'s stat pass, `input::stat_id_kept`).
#[cfg(unix)]
pub(crate) fn is_file_id(p: &Path, id: Option<(u64, u64)>) -> bool {
    id.is_some_and(|id| crate::input::stat_id_kept(p) == Some(id))
}
