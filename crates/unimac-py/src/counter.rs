//! The nonce counter file of `unimac keygen --counter` / `unimac tag
//! --counter` (`unimac_front::formats::counter`: the same format, crash safety and
//! messages as the CLI), with Python's exceptions: an `OSError` subclass
//! with `errno` and `filename` when a file cannot be opened, read, written
//! or replaced (`FileNotFoundError`, `FileExistsError`, `PermissionError`...),
//! `ValueError` for a corrupt or exhausted counter.

use unimac_front::prelude::*;
use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use unimac_front::formats::counter;
use unimac_front::macs::MacDesc;
use unimac_front::registry::KeySpec;
use unimac::Error;

use crate::buffer::data;
use crate::{err, names, oserror, value_err};

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

/// The crash-safe nonce counter file of ``unimac keygen --counter`` (same
/// format), bound to one MAC and one key: ``Counter(path, name, key)``. The
/// file's first line names the MAC and a fingerprint of the key (it reveals
/// nothing of the key); a counter made for another key or MAC, one with a
/// second hard link, or anything but a regular file is refused. Every
/// :meth:`next` is on disk (written, fsynced, renamed, directory fsynced,
/// under a lock) before its nonce is returned, so a process killed at any
/// point never hands a nonce out twice.
///
/// The nonce is the counter as the MAC's full-length nonce in its byte
/// order (16 bytes little-endian; VMAC big-endian), as ``unimac tag
/// --counter`` makes them.
///
/// >>> import unimac, tempfile, os
/// >>> path = os.path.join(tempfile.mkdtemp(), "n.ctr")
/// >>> key = unimac.keygen("wc-eval128")
/// >>> c = unimac.Counter.create(path, "wc-eval128", key)
/// >>> c.next() == (0).to_bytes(16, "little"), c.next() == (1).to_bytes(16, "little")
/// (True, True)
/// >>> unimac.Counter(path, "wc-eval128", unimac.keygen("wc-eval128"))
/// Traceback (most recent call last):
/// ...
/// ValueError: counter file ... belongs to another wc-eval128 key ...
#[pyclass(module = "unimac", name = "Counter", frozen)]
struct PyCounter {
    path: PathBuf,
    desc: &'static MacDesc,
    binding: unimac_front::formats::counter::Binding,
}

impl PyCounter {
    fn bind(path: PathBuf, name: &str, key: &Bound<'_, PyAny>) -> PyResult<PyCounter> {
        let desc = names::resolve_mac(name).map_err(value_err)?;
        if !desc.takes_nonce() {
            return Err(value_err(unimac_front::messages::counter_without_nonces(desc.name, "a counter")));
        }
        let k = data(key, "key")?;
        if !desc.accepts_key(k.as_slice().len()) {
            return Err(err(Error::KeyLength {
                name: desc.name.into(),
                expected: KeySpec::OneOf(desc.key_sizes).describe(),
                got: k.as_slice().len(),
            }));
        }
        let binding = unimac_front::formats::counter::Binding::new(desc, k.as_slice());
        Ok(PyCounter {
            path,
            desc,
            binding,
        })
    }
}

#[pymethods]
impl PyCounter {
    /// Open the counter file at ``path`` for MAC ``name`` under ``key``: it
    /// must exist and be bound to them (checked now).
    #[new]
    fn py_new(
        py: Python<'_>,
        path: PathBuf,
        name: &str,
        key: &Bound<'_, PyAny>,
    ) -> PyResult<PyCounter> {
        let c = PyCounter::bind(path, name, key)?;
        c.peek(py)?;
        Ok(c)
    }

    /// Create a new counter file at ``path`` bound to ``name`` and ``key``
    /// (starting at 0; never overwrites: ``FileExistsError``) and open it.
    #[staticmethod]
    fn create(
        py: Python<'_>,
        path: PathBuf,
        name: &str,
        key: &Bound<'_, PyAny>,
    ) -> PyResult<PyCounter> {
        let c = PyCounter::bind(path, name, key)?;
        py.allow_threads(|| create(&c.path, &c.binding))?;
        Ok(c)
    }

    /// Reserve ``count`` consecutive counters durably; returns the first (an int).
    #[pyo3(signature = (count = 1))]
    fn reserve(&self, py: Python<'_>, count: u128) -> PyResult<u128> {
        if count == 0 {
            return Err(value_err("count must be at least 1".into()));
        }
        py.allow_threads(|| reserve(&self.path, count, &self.binding))
    }

    /// The next nonce, durable before it is returned.
    fn next<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let c = self.reserve(py, 1)?;
        let n = self.desc.counter_nonce(c).ok_or_else(|| value_err(unimac_front::formats::messages::counter_past_nonces(self.desc.name, c)))?;
        Ok(PyBytes::new(py, &n))
    }

    /// The next unused counter, as stored (an int; nothing is reserved).
    fn peek(&self, py: Python<'_>) -> PyResult<u128> {
        py.allow_threads(|| peek(&self.path, &self.binding))
    }

    /// The counter file's path.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }
    /// The MAC it serves.
    #[getter]
    fn name(&self) -> &str {
        self.desc.name
    }
    fn __repr__(&self) -> String {
        format!(
            "unimac.Counter({:?}, {:?})",
            self.path.display().to_string(),
            self.desc.name
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCounter>()?;
    Ok(())
}
