//! A file's tag checked as `unimac verify` checks a line: read in chunks
//! with the GIL released, under the library's rule for files that change
//! while they are read, with a key given or read from a key file.

use unimac_front::prelude::*;
use std::path::PathBuf;

use pyo3::prelude::*;

use unimac_front::macs::MacDesc;
use unimac_front::registry::{self, NamedMac};
use unimac::verify_tag;
use unimac::Error;

use crate::buffer::data;
use crate::{bytes_of, err, formats, oserror};

/// Why [`feed_file`] failed.
pub(crate) enum FileError {
    Io(std::io::Error),
    /// The file changed while it was read: what was fed is not the file.
    Changed,
}

impl From<std::io::Error> for FileError {
    fn from(e: std::io::Error) -> Self {
        FileError::Io(e)
    }
}

impl FileError {
    /// The Python exception: the `OSError` subclass of an I/O error, or
    /// `OSError("PATH: changed while reading")`.
    pub(crate) fn into_py(self, py: Python<'_>, path: &std::path::Path) -> PyErr {
        match self {
            FileError::Io(e) => oserror::from_io(py, &e, path),
            FileError::Changed => pyo3::exceptions::PyOSError::new_err(
                unimac_front::messages::changed_while_reading(&path.display().to_string(), None),
            ),
        }
    }
}

/// Feed the file at `path` to `update` in chunks of 1 MiB. A regular file
/// is read under the library's rule for files that change while they are
/// read (`unimac_front::formats::race`: its stamp compared before and after, and
/// read twice and compared if it was changed within `race::SLACK` of the
/// read); [`FileError::Changed`] if it changed. Anything else (a pipe, a
/// device) is read once to its end.
pub(crate) fn feed_file(path: &std::path::Path, sink: &mut dyn unimac::Absorb) -> Result<(), FileError> {
    use std::io::Read;
    use unimac_front::formats::race;
    let mut f = std::fs::File::open(path)?;
    if f.metadata()?.is_file() {
        return match race::read_whole(&f, 1 << 20, &mut |b: &[u8]| sink.update(b))? {
            race::Verdict::Changed => Err(FileError::Changed),
            race::Verdict::Stable | race::Verdict::Racy => Ok(()),
        };
    }
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let k = match f.read(&mut buf) {
            Ok(k) => k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if k == 0 {
            return Ok(());
        }
        sink.update(&buf[..k]);
    }
}

/// Whether ``tag`` (under ``nonce``: for ``shoup4-*`` the pair ``r ‖ s``)
/// is the tag of the file at ``path`` under the MAC ``mac`` (a name or a
/// ``_MacRow``; one-time MACs included: checking never spends a key), as
/// ``unimac verify`` checks a line; read in chunks with the GIL released.
#[pyfunction]
#[pyo3(name = "_check_file", signature = (mac, key, path, tag, nonce = None))]
fn check_file(
    py: Python<'_>,
    mac: &Bound<'_, PyAny>,
    key: &Bound<'_, PyAny>,
    path: PathBuf,
    tag: &Bound<'_, PyAny>,
    nonce: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let d = crate::catalog::row_of(mac)?;
    let k = data(key, "key")?;
    let t = bytes_of(Some(tag), "tag")?.unwrap_or_default();
    let n = bytes_of(nonce, "nonce")?;
    check_file_under(py, d, k.as_slice(), &path, &t, n.as_deref())
}

/// [`check_file`] with the key of the key file at ``key_path`` (one-time
/// keys included: their bytes never reach Python).
#[pyfunction]
#[pyo3(name = "_check_file_keyfile", signature = (key_path, path, tag, nonce = None))]
fn check_file_keyfile(
    py: Python<'_>,
    key_path: PathBuf,
    path: PathBuf,
    tag: &Bound<'_, PyAny>,
    nonce: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let k = py
        .allow_threads(|| unimac_front::formats::keyfile::KeyFile::read(&key_path))
        .map_err(|e| formats::error(py, e, &key_path))?;
    let t = bytes_of(Some(tag), "tag")?.unwrap_or_default();
    let n = bytes_of(nonce, "nonce")?;
    // A key file of `modp` holds a prime, not a MAC key.
    let d = k.desc().ok_or_else(|| err(Error::UnknownName(k.name().to_string())))?;
    check_file_under(py, d, k.key(), &path, &t, n.as_deref())
}

/// Whether `t` is the tag of the file at `path` under the MAC of the row
/// `d`, key `k` and nonce `n`.
fn check_file_under(
    py: Python<'_>,
    d: &'static MacDesc,
    k: &[u8],
    path: &std::path::Path,
    t: &[u8],
    n: Option<&[u8]>,
) -> PyResult<bool> {
    if d.one_time {
        // The one-time check takes the tag first and gives none.
        let mut c = registry::OneTimeMac::new(d.name, k)
            .and_then(|m| m.start_check(t))
            .map_err(err)?;
        py.allow_threads(|| feed_file(path, &mut c))
            .map_err(|e| e.into_py(py, path))?;
        return match c.verify() {
            Ok(()) => Ok(true),
            Err(Error::TagMismatch) => Ok(false),
            Err(e) => Err(err(e)),
        };
    }
    let mut s = NamedMac::of_row(d, k)
        .and_then(|m| m.start_check(n))
        .map_err(err)?;
    py.allow_threads(|| feed_file(path, &mut s))
        .map_err(|e| e.into_py(py, path))?;
    let got = zeroize::Zeroizing::new(s.finalize().map_err(err)?);
    Ok(verify_tag(&got, t).is_ok())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_file, m)?)?;
    m.add_function(wrap_pyfunction!(check_file_keyfile, m)?)?;
    Ok(())
}
