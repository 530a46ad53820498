//! `OSError`s as Python raises them: `OSError(errno, strerror, filename)`,
//! which Python turns into its subclass for the errno (`FileNotFoundError`
//! for `ENOENT`, `FileExistsError` for `EEXIST`, `PermissionError`...).

use std::path::Path;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// An I/O error's text without the "(os error N)" suffix.
fn io_msg(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// `OSError(errno, strerror, filename)`: Python picks the subclass.
fn make(py: Python<'_>, errno: Option<i32>, strerror: String, path: &Path) -> PyErr {
    let made = py.get_type::<PyOSError>().call1((errno, strerror, path.as_os_str()));
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// The error of a file operation on `path`, with its errno and filename,
/// as `open(path)` would raise it.
pub fn from_io(py: Python<'_>, e: &std::io::Error, path: &Path) -> PyErr {
    match e.raw_os_error() {
        Some(n) => make(py, Some(n), io_msg(e), path),
        None => PyErr::from(std::io::Error::new(e.kind(), format!("{}: {}", io_msg(e), path.display()))),
    }
}

/// A library message about `path` (`unimac::Error::Io`, the message kept
/// whole) as the `OSError` subclass of the errno it reports: the message
/// ends with the operating system's text of an errno ("No such file or
/// directory", or with " (os error N)"), or says the file "already exists"
/// (`EEXIST`); a directory given for a file is `EISDIR`. Other refusals (a
/// second hard link, a FIFO) are a plain `OSError` of the message alone.
pub fn from_message(py: Python<'_>, msg: String, path: &Path) -> PyErr {
    let errno = errno_of(py, &msg).or_else(|| {
        let dir = std::fs::metadata(path).is_ok_and(|m| m.is_dir());
        let eisdir = || py.import("errno").ok()?.getattr("EISDIR").ok()?.extract().ok();
        if dir {
            eisdir()
        } else {
            None
        }
    });
    match errno {
        Some(n) => make(py, Some(n), msg, path),
        None => PyOSError::new_err(msg),
    }
}

fn errno_of(py: Python<'_>, msg: &str) -> Option<i32> {
    if let Some(open) = msg.rfind(" (os error ") {
        if let Ok(n) = msg[open + " (os error ".len()..].trim_end_matches(')').parse::<i32>() {
            return Some(n);
        }
    }
    let codes = py.import("errno").ok()?.getattr("errorcode").ok()?;
    let codes = codes.downcast::<PyDict>().ok()?;
    if msg.contains(unimac_front::formats::messages::NOT_OVERWRITING) {
        return py.import("errno").ok()?.getattr("EEXIST").ok()?.extract().ok();
    }
    // The longest matching text wins ("Permission denied" vs. a longer one).
    let mut best: Option<(usize, i32)> = None;
    for (k, _) in codes.iter() {
        let Ok(n) = k.extract::<i32>() else { continue };
        let text = io_msg(&std::io::Error::from_raw_os_error(n));
        if !text.is_empty() && msg.ends_with(&format!(": {text}")) && best.is_none_or(|(l, _)| text.len() > l) {
            best = Some((text.len(), n));
        }
    }
    best.map(|(_, n)| n)
}
