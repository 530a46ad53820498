//! Combinable partial hashes (`unimac::partial`): hash the chunks of one
//! message in different processes or machines, combine the pieces, and
//! finish the hash or the MAC where the whole key is.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use unimac::partial::{self, Partial};
use zeroize::Zeroize;

use crate::buffer::{data, with_data};
use crate::err;

/// `name` as the partial API takes it; a MAC of the command line (`umac64`)
/// also by its `mac-` name, so that its error says what is missing.
fn pname(name: &str) -> String {
    match partial::granularity(name) {
        Err(unimac::Error::UnknownName(_)) => match crate::names::mac_name(name) {
            Some(m) => format!("mac-{m}"),
            None => name.to_string(),
        },
        _ => name.to_string(),
    }
}

fn decode(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Partial> {
    let d = data(obj, what)?;
    Partial::from_bytes(d.as_slice()).map_err(err)
}

fn encode<'py>(py: Python<'py>, p: &Partial) -> Bound<'py, PyBytes> {
    let mut b = p.to_bytes();
    let out = PyBytes::new(py, &b);
    // The partial is as secret as the hash key: no copy left behind here.
    b.zeroize();
    out
}

/// The partial hash of ``data``, the bytes at ``offset .. offset + len(data)``
/// of a message, under ``name``'s hash key (:func:`hash_key`; for a MAC not
/// its cipher key), as bytes (a self-describing, checked encoding).
///
/// ``last``: the chunk ends the message (it gets the padding). ``offset``
/// must be a multiple of :func:`granularity`, and a chunk that is not the
/// last a non-zero multiple of it. Names are those of the wire
/// format, docs/WIRE.md (``hash127``, ``eval64``, ``tree-mmh32x2``, ``mac-hash127``
/// …); ``hash127-aes…``, ``hash127-96`` and ``wc-…`` stand for their
/// ``mac-`` names. Inputs of 2 KiB or more are hashed with the GIL released.
///
/// A partial reveals the hash key to whoever sees it: send it only over an
/// encrypted, authenticated channel.
///
/// >>> import unimac
/// >>> key = bytes(range(24))                      # wc-eval64: K (16) ‖ g (8)
/// >>> hk = unimac.hash_key("wc-eval64", key)      # g only
/// >>> msg = bytes(1000)
/// >>> a = unimac.partial_hash("wc-eval64", hk, 0, msg[:400], last=False)
/// >>> b = unimac.partial_hash("wc-eval64", hk, 400, msg[400:], last=True)
/// >>> whole = unimac.partial_combine(a, b)
/// >>> n = bytes(16)
/// >>> unimac.finish_mac("wc-eval64", key, whole, nonce=n) == unimac.tag("wc-eval64", key, msg, nonce=n)
/// True
#[pyfunction]
#[pyo3(signature = (name, hash_key, offset, data, last = true))]
pub fn partial_hash<'py>(
    py: Python<'py>,
    name: &str,
    hash_key: &Bound<'py, PyAny>,
    offset: u64,
    data: &Bound<'py, PyAny>,
    last: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let name = pname(name);
    let hk = crate::buffer::data(hash_key, "hash_key")?;
    let hk = hk.as_slice();
    let p = with_data(data, "data", |s| Partial::hash(&name, hk, offset, s, last))?.map_err(err)?;
    Ok(encode(py, &p))
}

/// The partial of two adjacent pieces: ``a`` (the earlier bytes) followed by
/// ``b``. Needs no key; the order matters, the grouping does not
/// (``combine(combine(a, b), c) == combine(a, combine(b, c))``).
///
/// >>> import unimac
/// >>> hk = bytes(8)
/// >>> a = unimac.partial_hash("eval64", hk, 0, bytes(16), last=False)
/// >>> b = unimac.partial_hash("eval64", hk, 16, b"xyz")
/// >>> unimac.finish_hash("eval64", hk, unimac.partial_combine(a, b)) == unimac.compute("eval64", hk, bytes(16) + b"xyz")
/// True
#[pyfunction]
pub fn partial_combine<'py>(py: Python<'py>, a: &Bound<'py, PyAny>, b: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let (pa, pb) = (decode(a, "a")?, decode(b, "b")?);
    let c = if pa.len() + pb.len() >= crate::buffer::GIL_RELEASE_BYTES as u64 {
        py.allow_threads(|| pa.combine(&pb))
    } else {
        pa.combine(&pb)
    }
    .map_err(err)?;
    Ok(encode(py, &c))
}

/// What a serialized partial covers: a dict with ``name`` (canonical),
/// ``offset``, ``length``, ``last`` (it ends the message) and ``whole``
/// (it covers the whole message: ready for :func:`finish_mac` /
/// :func:`finish_hash`). Nothing secret.
///
/// >>> import unimac
/// >>> p = unimac.partial_hash("eval64", bytes(8), 8, b"abc")
/// >>> d = unimac.partial_info(p); (d["offset"], d["length"], d["last"], d["whole"])
/// (8, 3, True, False)
#[pyfunction]
pub fn partial_info<'py>(py: Python<'py>, partial: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let p = decode(partial, "partial")?;
    let d = PyDict::new(py);
    d.set_item("name", p.name())?;
    d.set_item("offset", p.offset())?;
    d.set_item("length", p.len())?;
    d.set_item("last", p.is_last())?;
    d.set_item("whole", p.is_whole())?;
    Ok(d)
}

/// The hash ``name`` (not a MAC) of the whole message from its combined
/// partial, under the name's full key. The hash ``hash127``, whose value
/// under ``r ‖ k`` is a one-time tag, is refused (:class:`unimac.OneTimeKey`).
///
/// >>> import unimac
/// >>> key = bytes(range(8))
/// >>> p = unimac.partial_hash("eval64", unimac.hash_key("eval64", key), 0, b"abc")
/// >>> unimac.finish_hash("eval64", key, p) == unimac.compute("eval64", key, b"abc")
/// True
#[pyfunction]
pub fn finish_hash<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    partial: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let k = data(key, "key")?;
    let p = decode(partial, "partial")?;
    let h = partial::finish_hash(&pname(name), k.as_slice(), &p).map_err(err)?;
    Ok(PyBytes::new(py, &h))
}

/// The tag of the MAC ``name`` on the whole message from its combined
/// partial, under the full key (the cipher key and one-time pads are used
/// here only, never by the workers) and ``nonce`` (for the MACs that take
/// one). Equal to :func:`unimac.tag` of the whole message.
///
/// >>> import unimac
/// >>> key = bytes(range(32))
/// >>> p = unimac.partial_hash("hash127-aes", unimac.hash_key("hash127-aes", key), 0, b"abc")
/// >>> unimac.finish_mac("hash127-aes", key, p) == unimac.tag("hash127-aes", key, b"abc")
/// True
#[pyfunction]
#[pyo3(signature = (name, key, partial, nonce = None))]
pub fn finish_mac<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    partial: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let k = data(key, "key")?;
    let n = crate::bytes_of(nonce, "nonce")?;
    let p = decode(partial, "partial")?;
    let t = partial::finish_mac(&pname(name), k.as_slice(), n.as_deref(), &p).map_err(err)?;
    Ok(PyBytes::new(py, &t))
}

/// The bytes of ``name``'s full ``key`` that :func:`partial_hash` needs (the
/// hash key: ``r`` of hash127, ``g`` of ``wc-eval64``, …), never the cipher
/// key or the one-time pads. ``ValueError`` if the key has the wrong length.
///
/// >>> import unimac
/// >>> key = bytes(range(32))
/// >>> unimac.hash_key("hash127-aes", key) == key[:16]
/// True
#[pyfunction]
pub fn hash_key<'py>(py: Python<'py>, name: &str, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let k = data(key, "key")?;
    let hk = partial::hash_key(&pname(name), k.as_slice()).map_err(err)?;
    Ok(PyBytes::new(py, hk))
}

/// The alignment of chunks of ``name`` in bytes: every chunk starts at a
/// multiple of it and every chunk but the last is a non-zero multiple of it
/// (the word size of a polynomial hash, ``B²`` for a tree of block ``B``).
///
/// >>> import unimac
/// >>> unimac.granularity("hash127-aes"), unimac.granularity("wc-eval64")
/// (4, 8)
#[pyfunction]
pub fn granularity(name: &str) -> PyResult<usize> {
    partial::granularity(&pname(name)).map_err(err)
}

/// Every name :func:`partial_hash` accepts (canonical forms).
///
/// >>> import unimac
/// >>> "mac-hash127-aes" in unimac.partial_names()
/// True
#[pyfunction]
pub fn partial_names() -> Vec<String> {
    partial::supported_names()
}

/// The most threads one computation of this process may use for long inputs
/// (0: every core, the default; 1: single-threaded).
///
/// >>> import unimac
/// >>> unimac.set_max_threads(1); unimac.max_threads()
/// 1
/// >>> unimac.set_max_threads(0)
#[pyfunction]
pub fn set_max_threads(n: usize) {
    unimac::threads::set_max_threads(n);
}

/// The setting of :func:`set_max_threads` (0: every core).
///
/// >>> import unimac
/// >>> unimac.max_threads() >= 0
/// True
#[pyfunction]
pub fn max_threads() -> usize {
    unimac::threads::max_threads()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(partial_hash, m)?)?;
    m.add_function(wrap_pyfunction!(partial_combine, m)?)?;
    m.add_function(wrap_pyfunction!(partial_info, m)?)?;
    m.add_function(wrap_pyfunction!(finish_hash, m)?)?;
    m.add_function(wrap_pyfunction!(finish_mac, m)?)?;
    m.add_function(wrap_pyfunction!(hash_key, m)?)?;
    m.add_function(wrap_pyfunction!(granularity, m)?)?;
    m.add_function(wrap_pyfunction!(partial_names, m)?)?;
    m.add_function(wrap_pyfunction!(set_max_threads, m)?)?;
    m.add_function(wrap_pyfunction!(max_threads, m)?)?;
    Ok(())
}
