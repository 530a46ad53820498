//! Checking a tree or a list against its manifest: each file read under
//! the rule for files that change while they are read, the walk merged
//! with the listed names, renames found, and the report.

use super::*;

/// Read the open regular file `f`, which its `fstat` says holds `size`
/// bytes, into `feed` under the rule for files that change while they are
/// read ([`super::super::race`]): the bytes read, or why not. At most `size + 1`
/// bytes are read: a file that gives more than its size says (`/proc`
/// files report 0 and can give gigabytes) is "changed", not read on.
pub(super) fn read_file(f: &File, size: u64, feed: &mut dyn FnMut(&[u8])) -> Result<u64, String> {
    use std::io::Read as _;
    let w = super::super::race::ReadWindow::open(f).map_err(|x| io_msg(&x))?;
    let limit = size.saturating_add(1);
    let mut buf = vec![0u8; 1 << 20];
    let mut fed = 0u64;
    let v = w
        .read(f, |pass| -> std::io::Result<Option<u64>> {
            let mut total = 0u64;
            loop {
                let want = (limit - total).min(buf.len() as u64) as usize;
                if want == 0 {
                    return Ok(None);
                }
                let k = match (&*f).read(&mut buf[..want]) {
                    Ok(0) => return Ok(Some(total)),
                    Ok(k) => k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if pass.feeds() {
                    feed(&buf[..k]);
                    fed += k as u64;
                }
                pass.saw(&buf[..k]);
                total += k as u64;
            }
        })
        .map_err(|x| io_msg(&x))?;
    if v.is_changed() || fed > size {
        return Err("changed while reading".into());
    }
    Ok(fed)
}

/// The tag of the open regular file `f` (of `meta`) under `entry`'s nonce,
/// compared with `entry`: `Ok(true)` if size and tag match.
pub(super) fn file_matches(mac: &NamedMac, f: File, meta: &Metadata, e: &Entry) -> Result<bool, String> {
    if meta.len() != e.size {
        return Ok(false);
    }
    let Ok(mut s) = mac.start_check(e.nonce.as_deref()) else { return Ok(false) };
    let total = read_file(&f, meta.len(), &mut |d| s.update(d))?;
    if total != e.size {
        return Ok(false);
    }
    let got = s.finalize().map_err(|x| x.to_string())?;
    Ok(crate::tag::verify_tag(&got, &e.tag).is_ok())
}

/// How one listed file is checked: given its path, the open regular file
/// and its metadata, and the entry, `Ok(true)` if it matches. The default
/// ([`check_files`] with `None`) reads it in one thread; a front end may
/// hand its own (several threads), which must read only the file it is
/// given.
pub type FileCheck<'a> = dyn FnMut(&Path, File, &Metadata, &Entry) -> Result<bool, String> + 'a;

/// How a listed file is opened: by path, or through a walk's checked
/// directories.
type Opener<'a> = dyn Fn(&Path) -> Result<(File, Metadata), OpenError> + 'a;

pub(super) fn check_one(mac: &NamedMac, check: &mut Option<&mut FileCheck<'_>>, path: &Path, e: &Entry, open: &Opener<'_>) -> Status {
    match open(path) {
        Err(OpenError::NotFound) => Status::Removed,
        Err(OpenError::NotRegular(k)) => Status::NotRegular(k),
        Err(OpenError::Io(x)) => Status::Unreadable(format!("cannot open {}: {}", path.display(), io_msg(&x))),
        Ok((f, meta)) => {
            if meta.len() != e.size {
                return Status::Changed;
            }
            let r = match check {
                Some(c) => c(path, f, &meta, e),
                None => file_matches(mac, f, &meta, e),
            };
            match r {
                Ok(true) => Status::Ok,
                Ok(false) => Status::Changed,
                Err(why) => Status::Unreadable(format!("{}: {why}", path.display())),
            }
        }
    }
}

/// Check every file a sealed manifest lists (and, under a root, what was
/// added), the manifest itself being at `manifest` (`None`: read from
/// stdin). Only regular files are opened. `key` is the key file's key the
/// manifest was opened with.
pub fn check_files(m: &Manifest, key: &KeyFile, manifest: Option<&Path>, check: Option<&mut FileCheck<'_>>) -> Result<Report, Error> {
    check_files_at(m, key, &resolve_dir(manifest, &m.place), manifest, check)
}

/// A name's components, for the walk's order (a directory's entries
/// sorted by name, each directory's files in its place): `a/b` before
/// `a-c`.
pub(super) fn walk_order(a: &[u8], b: &[u8]) -> core::cmp::Ordering {
    a.split(|&c| c == b'/').cmp(b.split(|&c| c == b'/'))
}

/// Where the manifest file is, to leave it out of the files added under a
/// root: each place it was reached at (the name given, and the real file
/// when that is a symbolic link), as the directory's identity and the
/// file's name, and the file's identity.
pub(super) struct Own {
    #[cfg(unix)]
    places: Vec<((u64, u64), std::ffi::OsString)>,
    #[cfg(unix)]
    file: (u64, u64),
    #[cfg(not(unix))]
    real: Option<PathBuf>,
}

impl Own {
    fn of(p: &Path) -> Option<Own> {
        let file = file_id(p)?;
        let mut places = Vec::new();
        let mut at = |q: &Path| {
            if let (Some(d), Some(n)) = (file_id(&fsio::parent_dir(q)), q.file_name()) {
                places.push((d, n.to_os_string()));
            }
        };
        at(p);
        if std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink()) {
            if let Ok(real) = std::fs::canonicalize(p) {
                at(&real);
            }
        }
        #[cfg(not(unix))]
        let _ = (places, file);
        Some(Own {
            #[cfg(unix)]
            places,
            #[cfg(unix)]
            file,
            #[cfg(not(unix))]
            real: std::fs::canonicalize(p).ok(),
        })
    }

    /// Whether the walked file `p` is the manifest at one of its places
    /// (not another link to it: that is added like any file).
    #[cfg(not(unix))]
    fn is(&self, _tree: &Tree, p: &Path) -> bool {
        self.real.is_some() && std::fs::canonicalize(p).ok() == self.real
    }

    #[cfg(unix)]
    fn is(&self, tree: &Tree, p: &Path) -> bool {
        let Some(name) = p.file_name() else { return false };
        let Some(dir) = p.parent().and_then(|d| tree.dir_id(d)) else { return false };
        self.places.iter().any(|(d, n)| *d == dir && n == name)
            && tree.stat(p).is_ok_and(|f| f.stamp.id() == self.file)
    }
}

/// [`check_files`] with the names resolved against `dir` (the place's
/// directory as found); `own`, the manifest's file if it has one (not
/// counted as added under a root at the place it was read from; a hard or
/// symbolic link to it elsewhere in the tree is added like any file).
///
/// Under a root the tree is walked first, by handle ([`super::super::walk`]),
/// and each listed file is opened through the walk's checked directory
/// descriptors: a listed name under a directory that is now a symbolic
/// link (or was swapped during the check) is never opened; it is
/// REMOVED, and the link UNEXPECTED.
pub fn check_files_at(m: &Manifest, key: &KeyFile, dir: &Path, own: Option<&Path>, mut check: Option<&mut FileCheck<'_>>) -> Result<Report, Error> {
    key.mac()?;
    let mac = entry_mac(m.desc, key.key())?;
    let dir = dir.to_path_buf();
    let mut report = Report::default();
    if let Place::Base(_) = m.place {
        for e in &m.entries {
            let path = dir.join(bytes_path(&e.name));
            let status = check_one(&mac, &mut check, &path, e, &|p| fsio::open_regular(p));
            report.files.push(FileReport { name: e.name.clone(), path, status });
        }
        return Ok(report);
    }
    // The place's directory as looked for; `.` to list it when it is the
    // current directory (paths are then shown without `./`).
    let here = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir.clone() };
    let shown = |p: &Path| -> PathBuf { if dir.as_os_str().is_empty() { p.strip_prefix(".").unwrap_or(p).to_path_buf() } else { p.to_path_buf() } };
    let walked = walk_root(&here)?;
    let tree = walked.tree;
    let own = own.and_then(Own::of);
    let open = |p: &Path| tree.open_regular(p);
    let mut status: Vec<Option<Status>> = vec![None; m.entries.len()];
    let mut added: Vec<PathBuf> = Vec::new();
    // The listed names merged with the walk: each listed file's status set
    // as the walk finds it (`None` until then), the rest added, unexpected
    // or an error.
    for (w, listed) in merge_walk(m, &here, walked.entries) {
        match (w, listed) {
            (Walked::File(p), Some(i)) => status[i] = Some(check_one(&mac, &mut check, &p, &m.entries[i], &open)),
            (Walked::File(p), None) => {
                if !own.as_ref().is_some_and(|o| o.is(&tree, &p)) {
                    added.push(p);
                }
            }
            // A listed name that became one is reported with its line
            // (CHANGED, not opened).
            (Walked::Special(_, k), Some(i)) => status[i] = Some(Status::NotRegular(k)),
            (Walked::Special(p, k), None) => report.unexpected.push((shown(&p), k)),
            (Walked::LinkedDir(_), Some(i)) => status[i] = Some(Status::NotRegular("a directory")),
            (Walked::LinkedDir(p), None) => report.unexpected.push((shown(&p), "a symbolic link to a directory")),
            (Walked::Error(_, why), i) => {
                if let Some(i) = i {
                    status[i] = Some(Status::NotRegular("a directory"));
                }
                report.errors.push(why)
            }
        }
    }
    report.files.reserve_exact(m.entries.len());
    for (e, s) in m.entries.iter().zip(status) {
        let path = dir.join(bytes_path(&e.name));
        // Not found by the walk: gone, or now a directory (entered).
        let s = s.unwrap_or_else(|| if tree.dir_id(&path).is_some() { Status::NotRegular("a directory") } else { Status::Removed });
        report.files.push(FileReport { name: e.name.clone(), path, status: s });
    }
    let taken = find_renamed(m, &mut report, &added, &tree, &mut |p, e| check_one(&mac, &mut check, p, e, &open) == Status::Ok, &shown);
    report.added = added.into_iter().zip(taken).filter(|(_, t)| !t).map(|(p, _)| shown(&p)).collect();
    Ok(report)
}

/// The walk of a sealed root `here`, or the one error that checks
/// nothing: the root is a symbolic link (never followed: a writer of its
/// parent could point it anywhere), gone, or not a directory now (rather
/// than a walk of another tree, or every file REMOVED).
pub(super) fn walk_root(here: &Path) -> Result<super::super::walk::Walk, Error> {
    if super::super::walk::root_is_link(here) {
        return Err(Error::Io(format!("root {}: a symbolic link, not the sealed directory; not followed", here.display())));
    }
    if !std::fs::metadata(here).is_ok_and(|md| md.is_dir()) {
        if std::fs::symlink_metadata(here).is_err() {
            return Err(Error::Io(super::super::messages::root_missing(&here.display().to_string(), "--root DIR")));
        }
        return Err(Error::Io(format!("root {}: not a directory now; nothing was checked", here.display())));
    }
    let walked = walk(here);
    if walked.tree.dir_id(here).is_none() {
        // The root could not be opened as the directory it was (swapped
        // for a link since the check above, or gone).
        let why = walked.entries.into_iter().find_map(|w| if let Walked::Error(_, why) = w { Some(why) } else { None });
        return Err(Error::Io(format!("root {}", why.unwrap_or_else(|| format!("{}: not a directory now", here.display())))));
    }
    Ok(walked)
}

/// The walk's entries under `here`, each with the index of the entry of
/// `m` that lists it, if one does (the listed names sorted in the walk's
/// order, and merged with it).
pub(super) fn merge_walk(m: &Manifest, here: &Path, entries: Vec<Walked>) -> Vec<(Walked, Option<usize>)> {
    let rel = |p: &Path| -> Vec<u8> { p.strip_prefix(here).map(path_bytes).unwrap_or_default() };
    let mut order: Vec<u32> = (0..m.entries.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| walk_order(&m.entries[a as usize].name, &m.entries[b as usize].name));
    let mut next = order.iter().peekable();
    let mut out = Vec::with_capacity(entries.len());
    for w in entries {
        let r = match &w {
            Walked::File(p) | Walked::Special(p, _) | Walked::LinkedDir(p) | Walked::Error(p, _) => rel(p),
        };
        // Listed names before this one that the walk did not find.
        while let Some(&&i) = next.peek() {
            if walk_order(&m.entries[i as usize].name, &r) == core::cmp::Ordering::Less {
                next.next();
            } else {
                break;
            }
        }
        let listed = next.peek().map(|&&i| i as usize).filter(|&i| m.entries[i].name == r);
        if listed.is_some() {
            next.next();
        }
        out.push((w, listed));
    }
    out
}

/// The removed files found again among the `added` ones: an added file
/// with a removed file's size and, under its nonce, its tag (`same`) holds
/// the removed file's content under a new name, and the removed file's
/// status becomes RENAMED. Which added files were taken so.
pub(super) fn find_renamed(
    m: &Manifest,
    report: &mut Report,
    added: &[PathBuf],
    tree: &Tree,
    same: &mut dyn FnMut(&Path, &Entry) -> bool,
    shown: &dyn Fn(&Path) -> PathBuf,
) -> Vec<bool> {
    let mut taken = vec![false; added.len()];
    let sizes: HashMap<usize, u64> =
        added.iter().enumerate().filter_map(|(j, p)| tree.stat(p).ok().filter(|f| f.what.is_none()).map(|f| (j, f.stamp.len()))).collect();
    for (e, f) in m.entries.iter().zip(report.files.iter_mut()) {
        if f.status != Status::Removed {
            continue;
        }
        for (j, p) in added.iter().enumerate() {
            if taken[j] || sizes.get(&j) != Some(&e.size) {
                continue;
            }
            if same(p, e) {
                taken[j] = true;
                f.status = Status::Renamed(shown(p));
                break;
            }
        }
    }
    taken
}

#[cfg(unix)]
pub(super) fn file_id(p: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
pub(super) fn file_id(p: &Path) -> Option<(u64, u64)> {
    std::fs::canonicalize(p).ok().map(|c| (path_bytes(&c).len() as u64, 0))
}
