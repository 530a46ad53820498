//! Authenticated streams for Python (`unimac.stream`): the library's
//! `unimac_front::formats::stream` sender and receiver, which turn bytes into
//! bytes; the file objects around them are in `python/unimac/stream.py`.

use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use unimac_front::formats::stream::{Receiver, Sender};

use crate::buffer;

create_exception!(
    unimac,
    StreamError,
    PyValueError,
    "An authenticated stream that does not verify: a bad, missing, repeated, reordered or foreign chunk, a stream cut short, or another key's stream. The message names the chunk and its payload offset; nothing of that chunk was returned.\n\n>>> import io, unimac, unimac.stream\n>>> issubclass(unimac.StreamError, ValueError)\nTrue\n>>> unimac.stream.open(io.BytesIO(b\"UNIMAC-S\"), \"rb\", key=(\"hash127-aes\", bytes(32))).read()\nTraceback (most recent call last):\n...\nunimac.StreamError: the stream ended inside its header; nothing was released"
);

fn value_err(e: unimac::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The strength policy of `tag` (chunks as the messages), unless
/// `allow_weak`.
fn strength(k: &unimac_front::formats::keyfile::KeyFile, chunk: usize, allow_weak: bool) -> PyResult<()> {
    unimac_front::formats::policy::check_stream(k, chunk, allow_weak)
        .map_err(|e| PyValueError::new_err(e.to_string().replace("--allow-weak", "allow_weak=True")))
}

/// The sending side of a stream: `push(data)` returns the frames it
/// completes, `finish()` the rest.
#[pyclass(module = "unimac", name = "_StreamSender", frozen)]
pub struct PySender {
    s: Mutex<Option<Sender>>,
}

#[pymethods]
impl PySender {
    #[new]
    #[pyo3(signature = (key_path, key_name, key, chunk, allow_weak = false))]
    fn new(py: Python<'_>, key_path: Option<PathBuf>, key_name: Option<String>, key: Option<&Bound<'_, PyAny>>, chunk: usize, allow_weak: bool) -> PyResult<PySender> {
        let k = crate::formats::key_of(py, key_path, key_name.as_deref(), key)?;
        strength(&k, chunk, allow_weak)?;
        Ok(PySender { s: Mutex::new(Some(Sender::new(&k, chunk).map_err(value_err)?)) })
    }
    fn push<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let mut g = self.s.lock().map_err(|_| PyValueError::new_err("the stream is in use"))?;
        let s: &mut Sender = g.as_mut().ok_or_else(|| PyValueError::new_err("the stream was closed"))?;
        let mut out = Vec::new();
        buffer::with_data(data, "data", |d| s.push(d, &mut out))?.map_err(value_err)?;
        Ok(PyBytes::new(py, &out))
    }
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let s = self.s.lock().map_err(|_| PyValueError::new_err("the stream is in use"))?.take();
        let s = s.ok_or_else(|| PyValueError::new_err("the stream was closed"))?;
        let mut out = Vec::new();
        s.finish(&mut out).map_err(value_err)?;
        Ok(PyBytes::new(py, &out))
    }
    fn __repr__(&self) -> &'static str {
        "<unimac stream sender>"
    }
}

/// The receiving side: `feed(data)` returns the payload of every chunk that
/// verifies (raising `StreamError` at the first that does not); `finish()`
/// at the end of the input raises it if the final chunk never came.
#[pyclass(module = "unimac", name = "_StreamReceiver", frozen)]
pub struct PyReceiver {
    r: Mutex<Receiver>,
}

#[pymethods]
impl PyReceiver {
    #[new]
    #[pyo3(signature = (key_path, key_name, key, allow_weak = false))]
    fn new(py: Python<'_>, key_path: Option<PathBuf>, key_name: Option<String>, key: Option<&Bound<'_, PyAny>>, allow_weak: bool) -> PyResult<PyReceiver> {
        let k = crate::formats::key_of(py, key_path, key_name.as_deref(), key)?;
        strength(&k, unimac_front::formats::stream::DEFAULT_CHUNK, allow_weak)?;
        Ok(PyReceiver { r: Mutex::new(Receiver::new(&k).map_err(value_err)?) })
    }
    fn feed<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let mut r = self.r.lock().map_err(|_| PyValueError::new_err("the stream is in use"))?;
        let recv: &mut Receiver = &mut r;
        let mut out = Vec::new();
        buffer::with_data(data, "data", |d| recv.feed(d, &mut out))?.map_err(|e| StreamError::new_err(e.0))?;
        Ok(PyBytes::new(py, &out))
    }
    fn finish(&self) -> PyResult<()> {
        let mut r = self.r.lock().map_err(|_| PyValueError::new_err("the stream is in use"))?;
        r.finish().map_err(|e| StreamError::new_err(e.0))
    }
    /// The stream id (hex), once the first chunk verified (its tag covers
    /// the header); ``None`` before: an id is never taken from a stream
    /// whose sender is not yet known to hold the key.
    #[getter]
    fn stream_id(&self) -> Option<String> {
        let r = self.r.lock().ok()?;
        if r.chunks() == 0 {
            return None;
        }
        r.header().map(|h| h.id.iter().map(|b| format!("{b:02x}")).collect())
    }
    fn __repr__(&self) -> &'static str {
        "<unimac stream receiver>"
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySender>()?;
    m.add_class::<PyReceiver>()?;
    m.add("StreamError", m.py().get_type::<StreamError>())?;
    m.add("_STREAM_DEFAULT_CHUNK", unimac_front::formats::stream::DEFAULT_CHUNK)?;
    Ok(())
}
