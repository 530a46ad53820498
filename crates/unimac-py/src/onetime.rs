//! `unimac.OneTimeKey`: the one door to the one-time MACs (`hash127`,
//! `hash127-96`), a key that tags one message, from bytes or from a key
//! file it marks spent.

use unimac_front::prelude::*;
use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use unimac_front::registry;
use unimac::Error;

use crate::buffer::{self, data, with_data};
use crate::{err, formats, lock, names, value_err, warn_key_file};

/// A one-time MAC key (``hash127``, ``hash127-96``): it tags ONE message.
/// :meth:`tag` spends it (a second call raises ``ValueError``);
/// :meth:`verify` never does. The only door to these MACs: :func:`tag`,
/// :func:`compute`, :func:`new`, :class:`Mac`, the partial hashes and
/// ``unimac.dask`` refuse them. A key copied elsewhere (a second object, a
/// copied key file) is not known to be spent: make a fresh key per message
/// (:func:`keygen`).
///
/// >>> import unimac
/// >>> k = unimac.OneTimeKey("hash127", unimac.keygen("hash127"))
/// >>> t = k.tag(b"attack at dawn")
/// >>> k.verify(b"attack at dawn", t)
/// >>> k.tag(b"attack at dusk")
/// Traceback (most recent call last):
/// ...
/// ValueError: hash127: this one-time key has already tagged a message (one message per key); make a new key
#[pyclass(module = "unimac", name = "OneTimeKey", frozen)]
struct PyOneTimeKey {
    name: String,
    tag_size: usize,
    /// The key until it tags; `None` after.
    key: Mutex<Option<registry::OneTimeMac>>,
    /// Checking stays possible after the tag.
    check: registry::OneTimeMac,
    /// The key file it was read from (:meth:`OneTimeKey.from_file`): its
    /// tag spends the file, under the file's lock, as ``unimac tag`` does.
    file: Option<PathBuf>,
}

#[pymethods]
impl PyOneTimeKey {
    #[new]
    fn py_new(name: &str, key: &Bound<'_, PyAny>) -> PyResult<PyOneTimeKey> {
        let d = names::resolve_mac(name).map_err(value_err)?;
        let k = data(key, "key")?;
        let m = registry::OneTimeMac::new(d.name, k.as_slice()).map_err(err)?;
        let check = registry::OneTimeMac::new(d.name, k.as_slice()).map_err(err)?;
        Ok(PyOneTimeKey {
            name: m.desc().name.to_string(),
            tag_size: m.tag_len(),
            key: Mutex::new(Some(m)),
            check,
            file: None,
        })
    }
    /// The one-time key of the key file at ``path`` (``unimac keygen
    /// hash127 -o FILE``), bound to the file: its one tag marks the file
    /// ``spent`` (under the file's lock, synced before the tag is
    /// returned), as ``unimac tag`` does, so no door tags twice with it. A
    /// file already marked spent is refused (``ValueError``) unless
    /// ``spent_ok=True``, which gives a key that only checks (``spent`` is
    /// true); a key file of a reusable MAC is refused.
    ///
    /// >>> import unimac, os, tempfile
    /// >>> path = os.path.join(tempfile.mkdtemp(), "o.key")
    /// >>> unimac.save_key(path, "hash127", unimac.keygen("hash127"))
    /// >>> k = unimac.OneTimeKey.from_file(path)
    /// >>> t = k.tag(b"attack at dawn")
    /// >>> open(path).read().splitlines()[-1]
    /// 'spent'
    /// >>> unimac.OneTimeKey.from_file(path)
    /// Traceback (most recent call last):
    /// ...
    /// ValueError: key file ...: this hash127 key has already tagged a message (one message per key, Bernstein's Theorem 8.2); make a new key with 'unimac keygen hash127'
    #[staticmethod]
    #[pyo3(signature = (path, *, spent_ok = false))]
    fn from_file(py: Python<'_>, path: PathBuf, spent_ok: bool) -> PyResult<PyOneTimeKey> {
        use unimac_front::formats::keyfile::{KeyFile, OneTimeKeyFile};
        let read = KeyFile::read(&path).map_err(|e| formats::error(py, e, &path))?;
        if read.is_spent() && spent_ok {
            warn_key_file(py, &read)?;
            let check = registry::OneTimeMac::new(read.name(), read.key()).map_err(err)?;
            return Ok(PyOneTimeKey {
                name: read.name().to_string(),
                tag_size: check.tag_len(),
                key: Mutex::new(None),
                check,
                file: Some(path),
            });
        }
        let f = py
            .allow_threads(|| OneTimeKeyFile::open(&path))
            .map_err(|e| formats::error(py, e, &path))?;
        let k = f.key_file();
        warn_key_file(py, k)?;
        let m = registry::OneTimeMac::new(k.name(), k.key()).map_err(err)?;
        let check = registry::OneTimeMac::new(k.name(), k.key()).map_err(err)?;
        Ok(PyOneTimeKey {
            name: k.name().to_string(),
            tag_size: m.tag_len(),
            key: Mutex::new(Some(m)),
            check,
            file: Some(path),
        })
    }
    /// The tag of ``data``, the key's one message; the key is spent (and,
    /// for a key from :meth:`from_file`, its file marked spent first).
    fn tag<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let mut slot = lock(&self.key);
        let m = slot
            .take()
            .ok_or_else(|| err(Error::KeySpent(self.name.clone())))?;
        let Some(path) = &self.file else {
            let t = with_data(data, "data", |s| m.tag(s))?;
            return Ok(PyBytes::new(py, &t));
        };
        drop(m);
        // Through the file: locked, refused if another door spent it since,
        // marked spent before the tag is returned.
        let f = unimac_front::formats::keyfile::OneTimeKeyFile::open(path)
            .map_err(|e| formats::error(py, e, path))?;
        let t = with_data(data, "data", |s| f.tag(s))?.map_err(|e| formats::error(py, e, path))?;
        Ok(PyBytes::new(py, &t))
    }
    /// Check ``tag`` for ``data`` in constant time; raise
    /// :class:`unimac.InvalidTag` if it is wrong. Does not spend the key.
    fn verify(&self, data: &Bound<'_, PyAny>, tag: &Bound<'_, PyAny>) -> PyResult<()> {
        let t = buffer::data(tag, "tag")?;
        let ts = t.as_slice();
        with_data(data, "data", |s| self.check.verify(s, ts))?.map_err(err)
    }
    /// Whether the key has tagged its message.
    #[getter]
    fn spent(&self) -> bool {
        lock(&self.key).is_none()
    }
    /// The MAC's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
    /// Tag bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        self.tag_size
    }
    fn __repr__(&self) -> String {
        format!(
            "unimac.OneTimeKey('{}', spent={})",
            self.name,
            if self.spent() { "True" } else { "False" }
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyOneTimeKey>()?;
    Ok(())
}
