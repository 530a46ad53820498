//! Messages, keys, nonces and tags from any C-contiguous Python buffer
//! (`bytes`, `bytearray`, `memoryview`, `array`, numpy arrays), read in place.

use std::ffi::{c_char, c_int, c_void};

use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Inputs from this many bytes on are processed with the GIL released.
pub const GIL_RELEASE_BYTES: usize = 2048;

/// `Py_buffer` of CPython's C API (its layout has been fixed since 3.3, and
/// is part of the stable ABI from 3.11). PyO3 exposes the buffer protocol
/// only for abi3-py311; this package supports 3.9.
#[repr(C)]
struct PyBufferView {
    buf: *mut c_void,
    obj: *mut pyo3::ffi::PyObject,
    len: isize,
    itemsize: isize,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut isize,
    strides: *mut isize,
    suboffsets: *mut isize,
    internal: *mut c_void,
}

extern "C" {
    fn PyObject_GetBuffer(obj: *mut pyo3::ffi::PyObject, view: *mut PyBufferView, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut PyBufferView);
}

/// `PyBUF_SIMPLE`: one C-contiguous block of bytes, any item type; an
/// exporter that cannot give that (a strided view) raises `BufferError`.
const PYBUF_SIMPLE: c_int = 0;

/// A buffer exported by a Python object, released on drop. It holds the GIL
/// token's lifetime, so it cannot outlive the object it views.
pub struct Exported<'py> {
    view: Box<PyBufferView>,
    _obj: Bound<'py, PyAny>,
}

impl Exported<'_> {
    fn as_slice(&self) -> &[u8] {
        let len = usize::try_from(self.view.len).unwrap_or(0);
        if len == 0 || self.view.buf.is_null() {
            return &[];
        }
        // SAFETY: `PyObject_GetBuffer` succeeded with `PyBUF_SIMPLE`, so `buf`
        // points at `len` contiguous bytes that stay allocated and unmoved
        // until `PyBuffer_Release` in `drop` (an exported `bytearray` cannot
        // be resized meanwhile); the slice borrows `self`. A caller that
        // mutates the buffer from another thread while it is hashed gets an
        // unspecified tag, as with hashlib.
        unsafe {
            std::slice::from_raw_parts(self.view.buf as *const u8, len)
        }
    }
}

impl Drop for Exported<'_> {
    fn drop(&mut self) {
        // SAFETY: the view was filled by a successful `PyObject_GetBuffer`
        // and is released once; the GIL is held (`'py`).
        unsafe {
            PyBuffer_Release(&mut *self.view)
        }
    }
}

/// A view of a Python object's bytes, valid while the view lives.
pub enum Data<'py> {
    Bytes(Bound<'py, PyBytes>),
    Buffer(Exported<'py>),
}

impl Data<'_> {
    /// The bytes, without a copy.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Data::Bytes(b) => b.as_bytes(),
            Data::Buffer(b) => b.as_slice(),
        }
    }
}

/// The `TypeError` for a `str` given as `what`: a key written in hex (an
/// even number of hex digits) is meant as the bytes it spells, which
/// `bytes.fromhex` gives (`.encode()` would give a key of twice the length,
/// its characters); anything else is to be encoded, as hashlib says.
fn str_given(what: &str, s: &str) -> String {
    let hex = !s.is_empty() && s.len().is_multiple_of(2) && s.bytes().all(|c| c.is_ascii_hexdigit());
    if what == "key" && hex {
        format!(
            "key: keys are bytes, not str: this str is {} hex digits; for the {}-byte key they spell, pass bytes.fromhex(key) (key.encode() would make a {}-byte key of its characters)",
            s.len(),
            s.len() / 2,
            s.len()
        )
    } else {
        format!("{what}: strings must be encoded before hashing (got str; use .encode())")
    }
}

/// The bytes of `obj` (any C-contiguous buffer); `str` is a `TypeError`, as
/// in hashlib.
pub fn data<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Data<'py>> {
    if let Ok(b) = obj.downcast::<PyBytes>() {
        return Ok(Data::Bytes(b.clone()));
    }
    if let Ok(text) = obj.downcast::<PyString>() {
        return Err(PyTypeError::new_err(str_given(what, &text.to_string_lossy())));
    }
    let mut view = Box::new(PyBufferView {
        buf: std::ptr::null_mut(),
        obj: std::ptr::null_mut(),
        len: 0,
        itemsize: 0,
        readonly: 0,
        ndim: 0,
        format: std::ptr::null_mut(),
        shape: std::ptr::null_mut(),
        strides: std::ptr::null_mut(),
        suboffsets: std::ptr::null_mut(),
        internal: std::ptr::null_mut(),
    });
    // SAFETY: `obj` is a live object (the GIL is held) and `view` a
    // writable `Py_buffer`; on success it is released by `Exported::drop`.
    let r = unsafe { PyObject_GetBuffer(obj.as_ptr(), &mut *view, PYBUF_SIMPLE) };
    if r != 0 {
        let e = PyErr::take(obj.py());
        let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(match e {
            Some(e) if e.is_instance_of::<PyBufferError>(obj.py()) || e.is_instance_of::<pyo3::exceptions::PyValueError>(obj.py()) => {
                PyBufferError::new_err(format!("{what}: a C-contiguous buffer is required ({e})"))
            }
            _ => PyTypeError::new_err(format!("{what}: a bytes-like object is required, not '{name}'")),
        });
    }
    Ok(Data::Buffer(Exported { view, _obj: obj.clone() }))
}

/// Run `f` on the bytes of `obj`, with the GIL released for large inputs.
pub fn with_data<T: Send>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    f: impl FnOnce(&[u8]) -> T + Send,
) -> PyResult<T> {
    let d = data(obj, what)?;
    let s = d.as_slice();
    if s.len() >= GIL_RELEASE_BYTES {
        Ok(obj.py().allow_threads(|| f(s)))
    } else {
        Ok(f(s))
    }
}
