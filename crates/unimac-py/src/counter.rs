//! The nonce counter file of `unimac keygen --counter` / `unimac tag
//! --counter` (`unimac::counter`: the same format, crash safety and
//! messages as the CLI), with Python's exceptions: `OSError` when a file
//! cannot be opened, read, written or replaced, `ValueError` for a corrupt or
//! exhausted counter.

use std::path::Path;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::PyErr;
use unimac::counter;

fn py(e: unimac::Error) -> PyErr {
    match e {
        unimac::Error::Io(m) => PyOSError::new_err(m),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// Create a new counter file starting at 0 (never over an existing file).
pub fn create(path: &Path) -> Result<(), PyErr> {
    counter::create(path).map_err(py)
}

/// Parse a counter file's text strictly (decimal digits, one newline).
pub fn parse(text: &[u8], shown: &str) -> Result<u128, PyErr> {
    counter::parse(text, shown).map_err(py)
}

/// Reserve `count` consecutive counters; returns the first. Durable before
/// it returns.
pub fn reserve(path: &Path, count: u128) -> Result<u128, PyErr> {
    counter::reserve(path, count).map_err(py)
}
