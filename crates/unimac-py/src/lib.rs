//! The Python package `unimac` (module `unimac._unimac`): the library's
//! named MACs and hashes with the interfaces of `hmac` and `hashlib`.
//!
//! Everything goes through the library's safe by-name API (`registry`, the
//! by-name MAC, `bounds`, `modp`); the one `unsafe` block of this crate reads
//! a Python buffer in place (`buffer.rs`, the one module allowed unsafe
//! code).
//!
//! One module a topic: `unimac.new`'s object (`hashobj`), `unimac.Mac` and
//! the one-shot calls (`mac`), one-time keys (`onetime`), nonces given by
//! the caller (`nonces`), a file's tag checked (`files`), the names and
//! keys (`catalog`), forgery bounds (`bounds`), nonce counters (`counter`),
//! `SecretPrime` (`modp`), the file formats (`formats`, `stream`), partial
//! hashes (`partial`); this file holds what they share and the module's
//! table.

#![deny(unsafe_code)]

use unimac_front::prelude::*;
use std::sync::{Mutex, MutexGuard};

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use unimac_front::macs::{Framing, MacDesc};
use unimac_front::registry::KeySpec;
use unimac::Error;

mod bounds;
#[allow(unsafe_code)] // reads a Python buffer in place; SAFETY lines there
mod buffer;
mod catalog;
mod counter;
mod files;
mod formats;
mod hashobj;
mod mac;
mod modp;
mod names;
mod nonces;
mod onetime;
mod oserror;
mod partial;
mod sizes;
mod stream;

use buffer::{data, GIL_RELEASE_BYTES};

create_exception!(
    unimac,
    InvalidTag,
    PyValueError,
    "A tag did not verify (wrong value or wrong length). A ValueError."
);

/// A library error as the CLI prints it: `ValueError`, or `InvalidTag` for a
/// tag that does not verify.
fn err(e: Error) -> PyErr {
    match e {
        Error::TagMismatch => InvalidTag::new_err("tag mismatch"),
        Error::OutOfMemory(_) => pyo3::exceptions::PyMemoryError::new_err(e.to_string()),
        e => PyValueError::new_err(names::for_python(&names::cite(&e.to_string()))),
    }
}

/// A `ValueError` of this crate's or the library's text, its pointers to
/// the CLI's `unimac list` made Python's (`unimac.names()`).
fn value_err(s: String) -> PyErr {
    PyValueError::new_err(names::for_python(&s))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn bytes_of(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<Vec<u8>>> {
    obj.map(|o| data(o, what).map(|d| d.as_slice().to_vec()))
        .transpose()
}

/// Whether the MAC sends a random pair it draws itself before its tag
/// (the table's framing; `shoup4-*`).
fn pair_framed(d: &MacDesc) -> bool {
    d.framing == Framing::PairThenTag
}

fn key_size(k: &KeySpec) -> Option<usize> {
    k.default_len()
}

/// Show a key file's warning (open to group or others) as a Python
/// warning.
fn warn_key_file(py: Python<'_>, k: &unimac_front::formats::keyfile::KeyFile) -> PyResult<()> {
    if let Some(w) = k.warning() {
        let cat = py.get_type::<pyo3::exceptions::PyUserWarning>();
        PyErr::warn(py, &cat, &std::ffi::CString::new(w).unwrap_or_default(), 2)?;
    }
    Ok(())
}

#[pymodule]
fn _unimac(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidTag", py.get_type::<InvalidTag>())?;
    hashobj::register(m)?;
    mac::register(m)?;
    bounds::register(m)?;
    counter::register(m)?;
    onetime::register(m)?;
    modp::register(m)?;
    catalog::register(m)?;
    files::register(m)?;
    #[cfg(unix)]
    m.add_function(wrap_pyfunction!(formats::open_argument, m)?)?;
    nonces::register(m)?;
    formats::register(m)?;
    stream::register(m)?;
    partial::register(m)?;
    m.add("GIL_RELEASE_BYTES", GIL_RELEASE_BYTES)?;
    // The package's version is the crate's (pyproject.toml takes it from
    // Cargo.toml): set here, so that `import unimac` reads no distribution
    // metadata (importlib.metadata costs more than the rest of the import).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
