//! Nonces given by the caller: taken at a door that tags only with
//! `caller_manages_nonces=True`, and a nonce as the MAC's cipher sees it
//! (to find one used twice).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use unimac_front::formats::policy::{self, CallerNonceWords};
use unimac_front::macs::MacDesc;
use unimac_front::registry::Entry;

use crate::buffer::data;

/// A caller's nonce at a door that makes a tag (`door`, as the caller wrote
/// it: "Mac.tag", "new", …) is taken only with `caller_manages_nonces=True`,
/// as the command line's `--nonce` needs `--caller-manages-nonces`: the
/// library's rule and message (`policy::caller_nonce`), in Python's words
/// (`counter`: where nonces that never repeat come from at this door). Only
/// a MAC that takes a nonce from its caller (not `shoup4-*`, which draws
/// its pair, nor a stateless MAC) asks. (The opt-in without a nonce changes
/// nothing: code that passes `nonce=None` for the MACs without one may
/// keep the keyword.) Checking a tag (`verify`) takes the nonce it was made
/// with and needs no opt-in.
pub(crate) fn caller_nonce(d: &MacDesc, door: &str, nonce: Option<&Bound<'_, PyAny>>, caller_manages_nonces: bool, counter: &str) -> PyResult<()> {
    let given = nonce.is_some_and(|n| !n.is_none());
    let nonce = format!("{door}(nonce=...)");
    let words = CallerNonceWords { nonce: &nonce, opt_in: "caller_manages_nonces=True", counter };
    policy::caller_nonce(d, given, caller_manages_nonces, &words).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Where a door that tags one message points for nonces that never repeat.
pub(crate) const COUNTER_NEXT: &str = "unimac.Counter(...).next()";

/// [`caller_nonce`] at a door of the catalogue's entry `e` (its name
/// resolved by the door): a hash takes no opt-in.
pub(crate) fn caller_nonce_of(e: &Entry, door: &str, nonce: Option<&Bound<'_, PyAny>>, caller_manages_nonces: bool) -> PyResult<()> {
    match e.mac() {
        Some(d) => caller_nonce(d, door, nonce, caller_manages_nonces, COUNTER_NEXT),
        None => Ok(()),
    }
}

/// The caller's nonce of a `unimac.dask` door (`door`) for the MAC `mac`
/// (a name, read as the partial API reads it, `partial::mac_row`, as
/// `finish_mac` does; one not known is left to the door): [`caller_nonce`],
/// with `counter=` as the source of nonces that never repeat.
#[pyfunction]
#[pyo3(name = "_caller_nonce")]
fn caller_nonce_py(mac: &str, door: &str, nonce: Option<&Bound<'_, PyAny>>, caller_manages_nonces: bool) -> PyResult<()> {
    match unimac_front::partial::mac_row(&crate::names::lower(mac)).ok().flatten() {
        Some(d) => caller_nonce(d, door, nonce, caller_manages_nonces, "counter=unimac.Counter(...)"),
        None => Ok(()),
    }
}

/// A nonce's length (and VMAC's top bit) for the MAC `mac` (a name or a
/// ``_MacRow``), by the library's rule, with its message (``ValueError``):
/// for `unimac.dask`, which checks a nonce before any hashing.
#[pyfunction]
#[pyo3(name = "_check_nonce")]
fn check_nonce_py(mac: &Bound<'_, PyAny>, nonce: &Bound<'_, PyAny>) -> PyResult<()> {
    let d = crate::catalog::row_of(mac)?;
    let n = data(nonce, "nonce")?;
    d.check_nonce(Some(n.as_slice())).map_err(crate::err)
}

/// The nonce as the MAC's cipher sees it (UMAC's ``02`` and ``0200`` are
/// one nonce), to find a nonce used twice; ``None`` for a MAC without such
/// nonces or a nonce of the wrong size. ``mac``: a name or a ``_MacRow``.
#[pyfunction]
#[pyo3(name = "_canonical_nonce")]
fn canonical_nonce<'py>(
    py: Python<'py>,
    mac: &Bound<'py, PyAny>,
    nonce: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let d = crate::catalog::row_of(mac)?;
    let n = data(nonce, "nonce")?;
    Ok(d.canonical_nonce(n.as_slice())
        .map(|c| PyBytes::new(py, &c)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(canonical_nonce, m)?)?;
    m.add_function(wrap_pyfunction!(caller_nonce_py, m)?)?;
    m.add_function(wrap_pyfunction!(check_nonce_py, m)?)?;
    Ok(())
}
