//! The file formats of `unimac` for Python: key files, check lines and
//! sealed manifests are the library's (`unimac_front::formats`); these functions
//! only convert types. The Python modules `_files.py` and `_seal.py` give
//! them their Pythonic names and result types.

use unimac_front::prelude::*;
use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use unimac_front::formats::checkline::{self, Style};
use unimac_front::formats::keyfile::{KeyFile, KeyKind};
use unimac_front::formats::manifest::{self, SealError, Status};
use unimac::Error;

use crate::{buffer, names, oserror};

/// A library error as Python raises it: a file's trouble as the `OSError`
/// subclass of its errno (naming `path`), anything else `ValueError`.
pub fn error(py: Python<'_>, e: Error, path: &Path) -> PyErr {
    match e {
        Error::Io(m) => oserror::from_message(py, m, path),
        e => PyValueError::new_err(names::for_python(&names::cite(&e.to_string()))),
    }
}

/// The file descriptor of the list at `path` (a check file; `what` names
/// it in errors), opened under the library's rule for arguments
/// (`fsio::open_argument`): a named pipe, device, socket or directory is
/// refused unopened (an `OSError` naming it and what it is:
/// `IsADirectoryError` for a directory), so that reading it can neither
/// block nor run without end. Python takes the descriptor over.
#[cfg(unix)]
#[pyfunction]
#[pyo3(name = "_open_argument")]
pub fn open_argument(py: Python<'_>, path: PathBuf, what: &str) -> PyResult<i32> {
    use std::os::fd::IntoRawFd;
    use unimac_front::formats::fsio::{self, OpenError};
    let shown = path.display().to_string();
    match py.allow_threads(|| fsio::open_argument(&path)) {
        Ok((f, _)) => Ok(f.into_raw_fd()),
        Err(OpenError::Io(e)) => Err(oserror::from_io(py, &e, &path)),
        Err(OpenError::NotFound) => Err(oserror::from_message(py, format!("cannot open {what} {shown}: No such file or directory"), &path)),
        Err(OpenError::NotRegular(k)) => Err(oserror::from_message(py, format!("{what} {shown}: is {k}, not a regular file; not opened"), &path)),
    }
}

/// The key of a key file at `path`, or of `(name, key)`.
pub(crate) fn key_of(
    py: Python<'_>,
    path: Option<PathBuf>,
    name: Option<&str>,
    key: Option<&Bound<'_, PyAny>>,
) -> PyResult<KeyFile> {
    match (path, name, key) {
        (Some(p), _, _) => {
            let k = py
                .allow_threads(|| KeyFile::read(&p))
                .map_err(|e| error(py, e, &p))?;
            crate::warn_key_file(py, &k)?;
            Ok(k)
        }
        (None, Some(n), Some(k)) => {
            let kind = KeyKind::from_name(&names::lower(n))
                .map_err(|e| PyValueError::new_err(names::for_python(&e.to_string())))?;
            let bytes = buffer::data(k, "key")?;
            KeyFile::new(kind, bytes.as_slice())
                .map_err(|e| PyValueError::new_err(names::cite(&e.to_string())))
        }
        _ => Err(PyValueError::new_err("a key file's path, or (name, key)")),
    }
}

/// `(name, key, spent)` of the key file at `path` (the key of a one-time
/// MAC is not returned as bytes: `key` is `None`, and
/// :meth:`OneTimeKey.from_file` tags with it).
#[pyfunction]
#[pyo3(name = "_load_key")]
fn load_key<'py>(
    py: Python<'py>,
    path: PathBuf,
) -> PyResult<(String, Option<Bound<'py, PyBytes>>, bool, bool)> {
    let k = py
        .allow_threads(|| KeyFile::read(&path))
        .map_err(|e| error(py, e, &path))?;
    crate::warn_key_file(py, &k)?;
    let one_time = k.desc().is_some_and(|d| d.one_time);
    let key = (!one_time).then(|| PyBytes::new(py, k.key()));
    Ok((k.name().to_string(), key, k.is_spent(), one_time))
}

/// Write a new key file (mode 0600, whole or not at all, synced); never over
/// an existing file.
#[pyfunction]
#[pyo3(name = "_save_key")]
fn save_key(py: Python<'_>, path: PathBuf, name: &str, key: &Bound<'_, PyAny>) -> PyResult<()> {
    let k = key_of(py, None, Some(name), Some(key))?;
    py.allow_threads(|| k.write_new(&path))
        .map_err(|e| error(py, e, &path))
}

/// One check line (newline or, with `zero`, NUL included).
#[pyfunction]
#[pyo3(name = "_format_check_line")]
fn format_check_line<'py>(
    py: Python<'py>,
    name: &str,
    file: &[u8],
    tag: &[u8],
    nonce: Option<Vec<u8>>,
    bsd: bool,
    zero: bool,
) -> Bound<'py, PyBytes> {
    let style = if bsd { Style::Bsd } else { Style::Gnu };
    PyBytes::new(
        py,
        &checkline::format_line(name, file, nonce.as_deref(), tag, style, zero),
    )
}

type ParsedLine<'py> = (
    Option<String>,
    Option<Bound<'py, PyBytes>>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

/// `(mac, nonce, tag, file)` of a check line without its line end, or
/// `None` if it is malformed; `mac` is the row's name (`X` for `mac-X`)
/// when it names a MAC of the table, else as written.
#[pyfunction]
#[pyo3(name = "_parse_check_line")]
fn parse_check_line<'py>(py: Python<'py>, line: &[u8]) -> Option<ParsedLine<'py>> {
    let p = checkline::parse_line(line)?;
    let mac = p
        .mac
        .map(|m| unimac_front::macs::find(&m).map_or(m, |d| d.name.to_string()));
    Some((
        mac,
        p.nonce.map(|n| PyBytes::new(py, &n)),
        PyBytes::new(py, &p.tag),
        PyBytes::new(py, &p.file),
    ))
}

/// How Python names `seal`'s options in the library's refusals.
const SEAL_WORDS: manifest::SealWords = manifest::SealWords {
    counter: "counter",
    counter_asked: "counter",
    random: "random_nonce",
    random_asked: "random_nonce=True",
    recursive: "recursive=True",
    tree: "unimac.seal(DIR, key, recursive=True)",
    sources: "paths, or one directory with recursive=True",
};

/// The sealed manifest of `paths` (or, `recursive`, of the one directory
/// given), written to `output` when given (never over a file; whole or not
/// at all), as bytes.
#[pyfunction]
#[pyo3(name = "_seal", signature = (paths, recursive, key_path, key_name, key, name, counter, random_nonce, allow_weak, output))]
#[allow(clippy::too_many_arguments)]
fn seal<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    recursive: bool,
    key_path: Option<PathBuf>,
    key_name: Option<String>,
    key: Option<&Bound<'py, PyAny>>,
    name: Option<String>,
    counter: Option<PathBuf>,
    random_nonce: bool,
    allow_weak: bool,
    output: Option<PathBuf>,
) -> PyResult<Bound<'py, PyBytes>> {
    // What is sealed, by the library's rule (as the command line's -r).
    let what = manifest::sealed(recursive, &paths, false, &SEAL_WORDS)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let k = key_of(py, key_path, key_name.as_deref(), key)?;
    if let Some(n) = &name {
        k.expect(&names::lower(n), "given")
            .map_err(|e| PyValueError::new_err(names::for_python(&e.to_string())))?;
    }
    let (_, nonces) = manifest::sealing(&k, counter.as_deref(), random_nonce, &paths, &SEAL_WORDS)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let shown = paths[0].clone();
    if recursive && !paths[0].is_dir() {
        return Err(oserror::from_message(
            py,
            format!("{}: Not a directory", paths[0].display()),
            &paths[0],
        ));
    }
    // Every file is found (and is a regular file) before any nonce is
    // reserved.
    if !recursive {
        for p in &paths {
            let m = std::fs::metadata(p).map_err(|e| oserror::from_io(py, &e, p))?;
            let shown = p.display().to_string();
            match unimac_front::formats::fsio::kind_of(&m) {
                // As the command line says it (IsADirectoryError here).
                Some("a directory") => {
                    let msg = unimac_front::messages::directory_needs_recursive(&shown, "recursive=True");
                    return Err(oserror::from_message(py, msg, p));
                }
                Some(what) => return Err(PyValueError::new_err(manifest::not_listable(&shown, what))),
                None => {}
            }
        }
    }
    let text = py
        .allow_threads(|| manifest::seal(&k, what, nonces, output.as_deref(), allow_weak))
        .map_err(|e| error(py, e, &shown))?;
    if let Some(o) = &output {
        py.allow_threads(|| {
            unimac_front::formats::fsio::write_atomic(
                o,
                &text,
                unimac_front::formats::fsio::Replace::Never,
                false,
                "manifest",
            )
        })
        .map_err(|e| error(py, e, o))?;
    }
    Ok(PyBytes::new(py, &text))
}

/// One listed file's result: `(name, path, status, new path or detail)`.
type FileRow = (
    Vec<u8>,
    Vec<u8>,
    &'static str,
    Option<Vec<u8>>,
    Option<String>,
);

/// What `_verify_manifest` returns: whether the seal verified, each listed
/// file, the added paths, the unexpected entries and the errors.
type Verified = (
    bool,
    Vec<FileRow>,
    Vec<Vec<u8>>,
    Vec<(Vec<u8>, &'static str)>,
    Vec<String>,
);

/// Check a manifest's text (read from `manifest_path` when given, whose
/// directory its names resolve against; else against `base_dir` or the
/// current directory).
#[pyfunction]
#[pyo3(name = "_verify_manifest", signature = (text, manifest_path, base_dir, key_path, key_name, key, root = None))]
#[allow(clippy::too_many_arguments)]
fn verify_manifest(
    py: Python<'_>,
    text: Option<Vec<u8>>,
    manifest_path: Option<PathBuf>,
    base_dir: Option<PathBuf>,
    key_path: Option<PathBuf>,
    key_name: Option<String>,
    key: Option<&Bound<'_, PyAny>>,
    root: Option<PathBuf>,
) -> PyResult<Verified> {
    let k = key_of(py, key_path.clone(), key_name.as_deref(), key)?;
    manifest::checking(&k).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let shown = manifest_path
        .as_ref()
        .map_or("manifest".to_string(), |p| p.display().to_string());
    // A manifest given by path is read by the library: a regular file only,
    // of bounded size.
    let text = match (text, &manifest_path) {
        (Some(t), _) => t,
        (None, Some(p)) => py
            .allow_threads(|| manifest::read_manifest(p))
            .map_err(|e| error(py, e, p))?,
        (None, None) => return Err(PyValueError::new_err("a manifest's bytes or its path")),
    };
    let key_shown = key_path
        .as_ref()
        .map_or("the key given".to_string(), |p| p.display().to_string());
    let m = match manifest::open(&text, &k) {
        Ok(m) => m,
        Err(SealError::Failed) => {
            return Ok((false, Vec::new(), Vec::new(), Vec::new(), Vec::new()))
        }
        Err(e) => return Err(PyValueError::new_err(e.message(&shown, &k, &key_shown))),
    };
    let report = py
        .allow_threads(|| {
            let dir = match (&manifest_path, &base_dir) {
                // `root=DIR`: the tree where it is now.
                _ if root.is_some() => root.clone().unwrap_or_default(),
                (Some(p), _) => manifest::resolve_dir(Some(p), &m.place),
                (None, Some(b)) => manifest::resolve_dir(Some(&b.join("manifest")), &m.place),
                (None, None) => manifest::resolve_dir(None, &m.place),
            };
            manifest::check_files_at(&m, &k, &dir, manifest_path.as_deref(), None)
        })
        .map_err(|e| PyValueError::new_err(e.to_string().replace("--root DIR", "root=DIR")))?;
    let files = report
        .files
        .iter()
        .map(|f| {
            let path = manifest::path_bytes(&f.path);
            let (status, new, detail): (&'static str, Option<Vec<u8>>, Option<String>) =
                match &f.status {
                    Status::Ok => ("OK", None, None),
                    Status::Changed => ("CHANGED", None, None),
                    Status::Removed => ("REMOVED", None, None),
                    Status::Renamed(p) => ("RENAMED", Some(manifest::path_bytes(p)), None),
                    Status::NotRegular(what) => (
                        "CHANGED",
                        None,
                        Some(format!("is {what} now, not a regular file; not opened")),
                    ),
                    Status::Unreadable(why) => ("FAILED", None, Some(why.clone())),
                };
            (f.name.clone(), path, status, new, detail)
        })
        .collect();
    let added = report
        .added
        .iter()
        .map(|p| manifest::path_bytes(p))
        .collect();
    let unexpected = report
        .unexpected
        .iter()
        .map(|(p, w)| (manifest::path_bytes(p), *w))
        .collect();
    Ok((true, files, added, unexpected, report.errors))
}

/// `verify_check_file`'s warning for line `line` of `shown`, as `unimac
/// verify` words it (the library's one text).
#[pyfunction]
#[pyo3(name = "_msg_malformed_line")]
fn msg_malformed_line(shown: &str, line: usize, name: &str) -> String {
    unimac_front::messages::malformed_line(shown, line, name)
}

/// `verify_check_file`'s count of improperly formatted lines, as `unimac
/// verify` ends with it.
#[pyfunction]
#[pyo3(name = "_msg_malformed_count")]
fn msg_malformed_count(n: usize) -> String {
    unimac_front::messages::malformed_count(n)
}

/// `verify_check_file`'s status of a line made by the MAC `by`, after
/// `FAILED: ` (`unimac verify` says it after `SUMS: line N: `).
#[pyfunction]
#[pyo3(name = "_msg_made_by")]
fn msg_made_by(by: &str, name: &str) -> String {
    unimac_front::messages::made_by_other(by, name)
}

/// `verify_check_file`'s status of a line reusing a nonce an earlier line
/// (`first`) used with another tag, after `FAILED: `.
#[pyfunction]
#[pyo3(name = "_msg_nonce_reused")]
fn msg_nonce_reused(nonce_hex: &str, first: &str) -> String {
    unimac_front::messages::nonce_reused(nonce_hex, first)
}

/// A check file without one line to check, as `unimac verify` says it.
#[pyfunction]
#[pyo3(name = "_msg_no_check_lines")]
fn msg_no_check_lines(shown: &str, name: &str) -> String {
    unimac_front::messages::no_check_lines(shown, name)
}

/// The warnings `verify_check_file` ends with, as `unimac verify` ends
/// with them (`unimac_front::messages::check_warnings`).
#[pyfunction]
#[pyo3(name = "_msg_check_warnings")]
fn msg_check_warnings(malformed: usize, other_mac: usize, unreadable: usize, bad: usize, reused: usize, name: &str) -> Vec<String> {
    let c = unimac_front::messages::CheckCounts { malformed, other_mac, unreadable, bad, reused };
    unimac_front::messages::check_warnings(&c, name)
}

/// Why a manifest is never sealed (`sealing`) or checked under a one-time
/// MAC's key (the MAC `name`): for a `OneTimeKey` given to `seal` or
/// `verify_manifest` (the library's one text).
#[pyfunction]
#[pyo3(name = "_msg_one_time_manifest")]
fn msg_one_time_manifest(name: &str, sealing: bool) -> String {
    manifest::one_time_refused(name, sealing).to_string()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(msg_malformed_line, m)?)?;
    m.add_function(wrap_pyfunction!(msg_one_time_manifest, m)?)?;
    m.add_function(wrap_pyfunction!(msg_malformed_count, m)?)?;
    m.add_function(wrap_pyfunction!(msg_made_by, m)?)?;
    m.add_function(wrap_pyfunction!(msg_nonce_reused, m)?)?;
    m.add_function(wrap_pyfunction!(msg_no_check_lines, m)?)?;
    m.add_function(wrap_pyfunction!(msg_check_warnings, m)?)?;
    m.add("_CHECK_OK", unimac_front::messages::CHECK_OK)?;
    m.add("_CHECK_FAILED", unimac_front::messages::CHECK_FAILED)?;
    m.add("_CHECK_UNREADABLE", unimac_front::messages::CHECK_UNREADABLE)?;
    m.add("_SHOWN_MALFORMED", unimac_front::messages::SHOWN_MALFORMED)?;
    m.add_function(wrap_pyfunction!(load_key, m)?)?;
    m.add_function(wrap_pyfunction!(save_key, m)?)?;
    m.add_function(wrap_pyfunction!(format_check_line, m)?)?;
    m.add_function(wrap_pyfunction!(parse_check_line, m)?)?;
    m.add_function(wrap_pyfunction!(seal, m)?)?;
    m.add_function(wrap_pyfunction!(verify_manifest, m)?)?;
    Ok(())
}
