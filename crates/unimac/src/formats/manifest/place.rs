//! Where a sealed manifest records its files: the directory on its
//! place line (`root DIR` or `base DIR`), relative to the manifest's own
//! directory when that is known, absolute when it is not (the manifest
//! written to a pipe), and each file's name under it (docs/WIRE.md 9.6).

use crate::prelude::*;
use std::path::{Path, PathBuf};

use super::super::fsio::{self, io_msg};
use super::{check_name, path_bytes, Place};
use crate::error::Error;

/// Where a manifest that will be written at `output` (`None`: the current
/// directory) records `dir` (a directory path as the user gave it): an
/// absolute `dir` as it is (normalized), a relative one as seen from the
/// manifest's directory.
pub fn place_dir(output: Option<&Path>, dir: &Path) -> Result<Vec<u8>, Error> {
    if dir.is_absolute() {
        return Ok(path_bytes(&fsio::normalize(dir)));
    }
    let cwd = std::env::current_dir().map_err(|e| Error::Io(format!("cannot read the current directory: {}", io_msg(&e))))?;
    let target = fsio::normalize(&cwd.join(dir));
    let from = match output {
        Some(o) => {
            let parent = fsio::parent_dir(o);
            let p = if parent.is_absolute() { parent } else { cwd.join(parent) };
            std::fs::canonicalize(&p).unwrap_or_else(|_| fsio::normalize(&p))
        }
        None => cwd,
    };
    Ok(path_bytes(&fsio::relative_to(&from, &target)))
}

/// A file's name under `dir` for a manifest: `path` relative to `dir`
/// (lexically, both as given), checked by [`check_name`].
pub fn name_under(dir: &Path, path: &Path) -> Result<Vec<u8>, Error> {
    let p = fsio::normalize(path);
    let d = fsio::normalize(dir);
    let rel = if d == Path::new(".") && !p.is_absolute() { p.clone() } else { p.strip_prefix(&d).map(Path::to_path_buf).unwrap_or(p.clone()) };
    let name = path_bytes(&rel);
    check_name(&name).map_err(|why| Error::Invalid(format!("{}: {why}: a manifest lists names under the directory it records", path.display())))?;
    Ok(name)
}

/// The place line of a manifest to be written at `at` (`None`: the
/// current directory) and each file's name under it: for a tree (`root`),
/// `root DIR` and the names under DIR; for files, `base .` and the names
/// as given when they all lie under the current directory, else `base`
/// their deepest common directory (absolute) and the names under it.
pub fn place_for(root: Option<&Path>, files: &[PathBuf], at: Option<&Path>) -> Result<(Place, Vec<Vec<u8>>), Error> {
    if let Some(root) = root {
        // `DIR/` follows a link there (the walk's rule): the manifest
        // records where it led, which a later check does not follow.
        let real;
        let recorded = if root.as_os_str().as_encoded_bytes().ends_with(b"/") && crate::formats::walk::root_is_link(&fsio::normalize(root)) {
            let r = std::fs::canonicalize(root).map_err(|e| Error::Io(format!("{}: {}", root.display(), io_msg(&e))))?;
            // Relative as the user named it: from the current directory
            // (the kernel's, a real path).
            real = match (root.is_absolute(), std::env::current_dir()) {
                (false, Ok(cwd)) => fsio::relative_to(&cwd, &r),
                _ => r,
            };
            real.as_path()
        } else {
            root
        };
        let place = Place::Root(place_dir(at, recorded)?);
        let names = files.iter().map(|p| name_under(root, p)).collect::<Result<_, _>>()?;
        return Ok((place, names));
    }
    let under_cwd: Option<Vec<Vec<u8>>> = files.iter().map(|p| name_under(Path::new("."), p).ok()).collect();
    if let Some(names) = under_cwd {
        return Ok((Place::Base(place_dir(at, Path::new("."))?), names));
    }
    let cwd = std::env::current_dir().map_err(|e| Error::Io(format!("cannot read the current directory: {}", io_msg(&e))))?;
    let abs: Vec<PathBuf> = files.iter().map(|p| fsio::normalize(&cwd.join(p))).collect();
    let mut base: PathBuf = abs.first().and_then(|p| p.parent()).map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("/"));
    for p in &abs {
        while !p.starts_with(&base) {
            if !base.pop() {
                break;
            }
        }
    }
    let names = abs.iter().map(|p| name_under(&base, p)).collect::<Result<_, _>>()?;
    Ok((Place::Base(path_bytes(&base)), names))
}

/// `place` with a relative directory made absolute (from the current
/// directory, normalized): the place of a manifest whose own place is not
/// known (written to a pipe or a terminal), so that it verifies wherever
/// it is stored as long as the files stay where they are.
pub fn place_absolute(place: Place) -> Result<Place, Error> {
    let abs = |b: Vec<u8>| -> Result<Vec<u8>, Error> {
        let p = super::bytes_path(&b);
        if p.is_absolute() {
            return Ok(b);
        }
        let cwd = std::env::current_dir().map_err(|e| Error::Io(format!("cannot read the current directory: {}", io_msg(&e))))?;
        Ok(path_bytes(&fsio::normalize(&cwd.join(p))))
    };
    Ok(match place {
        Place::Root(d) => Place::Root(abs(d)?),
        Place::Base(d) => Place::Base(abs(d)?),
    })
}
