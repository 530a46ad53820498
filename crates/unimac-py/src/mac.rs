//! `unimac.Mac` (a key set up once), the one-shot `tag`, `verify`,
//! `compute` and `known_answer`, and `compare_digest`.

use unimac_front::prelude::*;
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use unimac_front::registry::{self, Entry, NamedMac, Params, Pending};
use unimac::verify_tag;
use unimac::Error;

use crate::buffer::{self, data, with_data};
use crate::files::{feed_file, FileError};
use crate::nonces::{caller_nonce, caller_nonce_of, COUNTER_NEXT};
use crate::{bytes_of, err, names, value_err};

/// A MAC under one key, its key set-up (tables of powers, AES schedules)
/// done once: :meth:`tag`, :meth:`verify` and :meth:`tag_file` any number of
/// messages. Safe to share between threads.
///
/// For ``shoup4-*`` :meth:`tag` returns ``r ‖ s ‖ tag`` (24 bytes: the
/// random pair drawn for the message, then the tag), as sent. A one-message
/// MAC (``hash127``) tags once; :meth:`verify` never spends it.
///
/// >>> import unimac
/// >>> m = unimac.Mac("hash127-aes", unimac.keygen("hash127-aes"))
/// >>> t = m.tag(b"attack at dawn")
/// >>> m.verify(b"attack at dawn", t)
/// >>> m.verify(b"attack at dusk", t)
/// Traceback (most recent call last):
/// ...
/// unimac.InvalidTag: tag mismatch
#[pyclass(module = "unimac", name = "Mac", frozen)]
struct PyMac {
    mac: NamedMac,
    name: String,
    tag_size: usize,
    nonce_size: usize,
    key_size: usize,
}

#[pymethods]
impl PyMac {
    #[new]
    fn py_new(name: &str, key: &Bound<'_, PyAny>) -> PyResult<PyMac> {
        let d = names::resolve_mac(name).map_err(value_err)?;
        let k = data(key, "key")?;
        let mac = NamedMac::of_row(d, k.as_slice()).map_err(err)?;
        Ok(PyMac {
            tag_size: mac.tag_len(),
            nonce_size: *mac.nonce_sizes().end(),
            key_size: k.as_slice().len(),
            name: mac.name().to_string(),
            mac,
        })
    }

    /// The tag of ``data`` (under ``nonce`` for nonce MACs; for ``shoup4-*``
    /// the nonce is ``r ‖ s``, drawn at random when not given, and the
    /// result is ``r ‖ s ‖ tag``).
    ///
    /// A nonce given by the caller is taken only with
    /// ``caller_manages_nonces=True``: unimac cannot know whether it was
    /// used before under this key (:meth:`Counter.next` gives nonces that
    /// never repeat).
    ///
    /// >>> len(unimac.Mac("umac64", bytes(16)).tag(b"msg", nonce=bytes(8), caller_manages_nonces=True))
    /// 8
    #[pyo3(signature = (data, nonce = None, *, caller_manages_nonces = false))]
    fn tag<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        nonce: Option<&Bound<'py, PyAny>>,
        caller_manages_nonces: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        caller_nonce(self.mac.desc(), "Mac.tag", nonce, caller_manages_nonces, COUNTER_NEXT)?;
        let n = match nonce {
            Some(n) => Some(buffer::data(n, "nonce")?),
            None => None,
        };
        let n = n.as_ref().map(|d| d.as_slice());
        let mut t = [0u8; 32];
        let len = with_data(data, "data", |s| self.mac.tag_into(n, s, &mut t))?.map_err(err)?;
        Ok(PyBytes::new(py, &t[..len]))
    }

    /// Check ``tag`` for ``data`` in constant time; raise
    /// :class:`unimac.InvalidTag` if it is wrong. Never spends a one-time key.
    ///
    /// >>> m = unimac.Mac("shoup4-eval64", bytes(48)); sent = m.tag(b"x")
    /// >>> m.verify(b"x", sent)
    #[pyo3(signature = (data, tag, nonce = None))]
    fn verify(
        &self,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
        nonce: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let t = buffer::data(tag, "tag")?;
        let n = match nonce {
            Some(n) => Some(buffer::data(n, "nonce")?),
            None => None,
        };
        let (n, t) = (n.as_ref().map(|d| d.as_slice()), t.as_slice());
        with_data(data, "data", |s| self.mac.verify(n, s, t))?.map_err(err)
    }

    /// The tag of the file at ``path``, read in chunks with the GIL released.
    /// A file that cannot be read raises the ``OSError`` subclass ``open``
    /// would (``FileNotFoundError``...), with ``errno`` and ``filename``.
    ///
    /// >>> with open("msg.txt", "wb") as f: _ = f.write(b"attack at dawn")
    /// >>> m = unimac.Mac("hash127-aes", bytes(32))
    /// >>> m.tag_file("msg.txt") == m.tag(b"attack at dawn")
    /// True
    /// >>> m.tag_file("missing.txt")
    /// Traceback (most recent call last):
    /// ...
    /// FileNotFoundError: [Errno 2] No such file or directory: 'missing.txt'
    #[pyo3(signature = (path, nonce = None, *, caller_manages_nonces = false))]
    fn tag_file<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        nonce: Option<&Bound<'py, PyAny>>,
        caller_manages_nonces: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        caller_nonce(self.mac.desc(), "Mac.tag_file", nonce, caller_manages_nonces, COUNTER_NEXT)?;
        let n = bytes_of(nonce, "nonce")?;
        // The nonce is checked (with the library's messages) before the
        // file is read.
        self.mac.desc().check_nonce(n.as_deref()).map_err(err)?;
        let mut p: Pending = self.mac.start_deferred().map_err(err)?;
        let out = py
            .allow_threads(|| -> Result<Result<Vec<u8>, Error>, FileError> {
                feed_file(&path, &mut p)?;
                Ok(p.finalize(n.as_deref()))
            })
            .map_err(|e| e.into_py(py, &path))?;
        Ok(PyBytes::new(py, &out.map_err(err)?))
    }

    /// The MAC's name (without ``mac-``).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
    /// Tag bytes (for ``shoup4-*`` without the 16 bytes of ``r ‖ s``).
    #[getter]
    fn digest_size(&self) -> usize {
        self.tag_size
    }
    /// Nonce bytes (the largest accepted; 0 for none).
    #[getter]
    fn nonce_size(&self) -> usize {
        self.nonce_size
    }
    /// Key bytes.
    #[getter]
    fn key_size(&self) -> usize {
        self.key_size
    }
    fn __repr__(&self) -> String {
        format!(
            "unimac.Mac({:?}, <{} secret bytes>)",
            self.name, self.key_size
        )
    }
}

/// One-shot tag: ``Mac(name, key).tag(data, nonce, caller_manages_nonces=...)``
/// (a caller's nonce only with ``caller_manages_nonces=True``).
///
/// >>> import unimac
/// >>> len(unimac.tag("hash127-aes", bytes(32), b"attack at dawn"))
/// 16
#[pyfunction]
#[pyo3(signature = (name, key, data, nonce = None, *, caller_manages_nonces = false))]
fn tag<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
    caller_manages_nonces: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let m = PyMac::py_new(name, key)?;
    caller_nonce(m.mac.desc(), "tag", nonce, caller_manages_nonces, COUNTER_NEXT)?;
    m.tag(py, data, nonce, caller_manages_nonces)
}

/// One-shot verification: ``Mac(name, key).verify(data, tag, nonce)``;
/// raises :class:`unimac.InvalidTag` if the tag is wrong.
///
/// >>> import unimac
/// >>> t = unimac.tag("hash127-aes", bytes(32), b"m")
/// >>> unimac.verify("hash127-aes", bytes(32), b"m", t)
#[pyfunction]
#[pyo3(signature = (name, key, data, tag, nonce = None))]
fn verify(
    name: &str,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    tag: &Bound<'_, PyAny>,
    nonce: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    PyMac::py_new(name, key)?.verify(data, tag, nonce)
}

/// Any name of the wire format (docs/WIRE.md) on ``data``, as ``unimac compute``:
/// raw hashes (``hash127``, ``eval64``, ``tree-mmh32x2``, ``modp``,
/// ``keystream`` with ``length``) and MACs (``mac-X``, or ``X`` when ``X``
/// is not itself a hash name).
///
/// A nonce MAC's nonce given by the caller is taken only with
/// ``caller_manages_nonces=True`` (as ``unimac compute --nonce`` needs
/// ``--caller-manages-nonces``).
///
/// >>> import unimac
/// >>> unimac.compute("keystream", bytes(16), b"", length=4).hex()
/// '66e94bd4'
#[pyfunction]
#[pyo3(signature = (name, key, data, nonce = None, length = None, *, caller_manages_nonces = false))]
#[allow(clippy::too_many_arguments)]
fn compute<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
    length: Option<usize>,
    caller_manages_nonces: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let e = names::resolve_spec(name).map_err(value_err)?;
    caller_nonce_of(e, "compute", nonce, caller_manages_nonces)?;
    by_spec(py, e, key, data, nonce, length, registry::compute)
}

/// The catalogue's `compute` or `known_answer`.
type ByName = fn(&str, &Params<'_>, &[u8]) -> Result<Vec<u8>, Error>;

/// The catalogue's entry `e` on ``data`` through `f` (the catalogue's
/// `compute` or `known_answer`), with the arguments as Python gives them.
fn by_spec<'py>(
    py: Python<'py>,
    e: &Entry,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
    length: Option<usize>,
    f: ByName,
) -> PyResult<Bound<'py, PyBytes>> {
    let k = buffer::data(key, "key")?;
    let n = match nonce {
        Some(n) => Some(buffer::data(n, "nonce")?),
        None => None,
    };
    let p = Params {
        key: k.as_slice(),
        nonce: n.as_ref().map(|d| d.as_slice()),
        len: length,
    };
    let out = with_data(data, "data", |s| f(&e.info.name, &p, s))?.map_err(err)?;
    Ok(PyBytes::new(py, &out))
}

/// The known answer of any name of the wire format, as its vector files
/// give it, including the values :func:`compute` and :func:`tag` refuse:
/// one-time MACs (``hash127``, ``hash127-96``, and the hash ``hash127``,
/// whose value under ``r ‖ k`` is that MAC's tag) and ``shoup4-*`` under a
/// given ``r ‖ s`` (``nonce``; the result is the 8-byte tag). For checking
/// against published vectors only: nothing is spent, so never use it to
/// authenticate (:class:`OneTimeKey` tags once).
///
/// >>> import unimac
/// >>> len(unimac.known_answer("hash127", bytes(32), b"abc"))
/// 16
#[pyfunction]
#[pyo3(signature = (name, key, data, nonce = None, length = None))]
fn known_answer<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
    length: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let e = names::resolve_spec(name).map_err(value_err)?;
    by_spec(py, e, key, data, nonce, length, registry::known_answer)
}

/// Compare two buffers in constant time (``hmac.compare_digest``).
///
/// >>> import unimac
/// >>> unimac.compare_digest(b"abc", bytearray(b"abc"))
/// True
#[pyfunction]
fn compare_digest(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    let (a, b) = (data(a, "a")?, data(b, "b")?);
    Ok(verify_tag(a.as_slice(), b.as_slice()).is_ok())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMac>()?;
    m.add_function(wrap_pyfunction!(known_answer, m)?)?;
    m.add_function(wrap_pyfunction!(tag, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(compute, m)?)?;
    m.add_function(wrap_pyfunction!(compare_digest, m)?)?;
    Ok(())
}
