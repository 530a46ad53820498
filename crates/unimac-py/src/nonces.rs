//! Nonces given by the caller: taken at a door that tags only with
//! `caller_manages_nonces=True`, and a nonce as the MAC's cipher sees it
//! (to find one used twice).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use unimac_front::registry::Entry;

use crate::buffer::data;

/// A caller's nonce at a door that makes a tag (`door`, as the caller wrote
/// it: "Mac.tag", "new", …) is taken only with `caller_manages_nonces=True`,
/// as the command line's `--nonce` needs `--caller-manages-nonces` and
/// `unimac.dask` the same keyword: unimac cannot know whether the nonce was
/// used before under this key. (The opt-in without a nonce changes
/// nothing: code that passes `nonce=None` for the MACs without one may
/// keep the keyword.) Checking a tag (`verify`) takes the nonce it was made
/// with and needs no opt-in.
pub(crate) fn caller_nonce(name: &str, door: &str, given: bool, caller_manages_nonces: bool) -> PyResult<()> {
    if given && !caller_manages_nonces {
        return Err(PyValueError::new_err(format!(
            "{name}: {door}(nonce=...) takes a nonce the caller keeps from ever repeating under this key: pass caller_manages_nonces=True (unimac cannot know whether it was used before; unimac.Counter(...).next() gives nonces that never repeat)"
        )));
    }
    Ok(())
}

/// [`caller_nonce`] at a door of the catalogue's entry `e` (its name
/// resolved by the door): only a MAC that takes a nonce from its caller
/// (not `shoup4-*`, which draws its pair, nor a hash) asks for the opt-in.
pub(crate) fn caller_nonce_of(e: &Entry, door: &str, nonce: Option<&Bound<'_, PyAny>>, caller_manages_nonces: bool) -> PyResult<()> {
    match e.mac().filter(|d| d.takes_nonce()) {
        Some(d) => caller_nonce(d.name, door, nonce.is_some_and(|n| !n.is_none()), caller_manages_nonces),
        None => Ok(()),
    }
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
    Ok(())
}
