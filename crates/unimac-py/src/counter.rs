//! The nonce counter file of `unimac keygen --counter` / `unimac tag
//! --counter` (`unimac::counter`: the same format, crash safety and
//! messages as the CLI), with Python's exceptions: an `OSError` subclass
//! with `errno` and `filename` when a file cannot be opened, read, written
//! or replaced (`FileNotFoundError`, `FileExistsError`, `PermissionError`...),
//! `ValueError` for a corrupt or exhausted counter.

use std::path::Path;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use unimac::counter;

use crate::oserror;

fn py(e: unimac::Error, path: &Path) -> PyErr {
    match e {
        unimac::Error::Io(m) => Python::with_gil(|py| oserror::from_message(py, m, path)),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// Create a new counter file bound to `b`, starting at 0 (never over an
/// existing file: `FileExistsError`).
pub fn create(path: &Path, b: &counter::Binding) -> Result<(), PyErr> {
    counter::create(path, b).map_err(|e| py(e, path))
}

/// The next unused counter of the file bound to `b` (nothing reserved).
pub fn peek(path: &Path, b: &counter::Binding) -> Result<u128, PyErr> {
    counter::peek(path, b).map_err(|e| py(e, path))
}

/// Reserve `count` consecutive counters; returns the first. Durable before
/// it returns.
pub fn reserve(path: &Path, count: u128, b: &counter::Binding) -> Result<u128, PyErr> {
    counter::reserve(path, count, b).map_err(|e| py(e, path))
}
