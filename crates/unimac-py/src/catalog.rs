//! What the names are: every name of the wire format, the MAC names, what
//! one takes and gives (`info`), a fresh key for one (`keygen`), and a MAC
//! name without `mac-`.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use unimac_front::macs::MacDesc;
use unimac_front::registry::{self, KeySpec};

use crate::{err, names, pair_framed, value_err};

/// A MAC's row of the table, its name resolved once (:func:`_mac_row`) and
/// passed as it is to the calls that take a MAC (``_check_file``,
/// ``_canonical_nonce``), so that checking the lines of a check file looks
/// no name up again.
#[pyclass(module = "unimac", name = "_MacRow", frozen)]
pub(crate) struct MacRow {
    d: &'static MacDesc,
}

#[pymethods]
impl MacRow {
    /// The MAC's name (without ``mac-``).
    #[getter]
    fn name(&self) -> &'static str {
        self.d.name
    }
    /// The nonce sizes it accepts, ``(min, max)``, as
    /// ``info(name)["nonce_sizes"]``.
    #[getter]
    fn nonce_sizes(&self) -> (usize, usize) {
        (self.d.nonce.min(), self.d.nonce.max())
    }
    /// Tag bytes, as ``info(name)["digest_size"]``.
    #[getter]
    fn digest_size(&self) -> usize {
        self.d.tag
    }
    fn __repr__(&self) -> String {
        format!("<unimac MAC row {}>", self.d.name)
    }
}

/// The row of the MAC ``name`` (``X`` or ``mac-X``, any case);
/// ``ValueError`` (the CLI's message) for anything else.
#[pyfunction]
#[pyo3(name = "_mac_row")]
fn mac_row(name: &str) -> PyResult<MacRow> {
    let d = names::resolve_mac(name).map_err(value_err)?;
    Ok(MacRow { d })
}

/// The row of a door's MAC argument: a :class:`_MacRow` as it is, a name
/// resolved.
pub(crate) fn row_of(mac: &Bound<'_, PyAny>) -> PyResult<&'static MacDesc> {
    if let Ok(r) = mac.downcast::<MacRow>() {
        return Ok(r.get().d);
    }
    names::resolve_mac(&mac.extract::<String>()?).map_err(value_err)
}

/// The MAC ``name`` (``X`` or ``mac-X``) without ``mac-``; ``ValueError``
/// (the CLI's message) for anything else.
#[pyfunction]
#[pyo3(name = "_mac_name")]
fn mac_name_py(name: &str) -> PyResult<String> {
    Ok(names::resolve_mac(name).map_err(value_err)?.name.to_string())
}

/// Every name of the wire format (docs/WIRE.md) in this build (``mac-`` for
/// MACs, ``tree-`` for tree modes), in the wire format's order.
///
/// >>> import unimac
/// >>> "mac-hash127-aes" in unimac.names()
/// True
#[pyfunction]
#[pyo3(name = "names")]
fn all_names() -> Vec<String> {
    registry::entries()
        .iter()
        .map(|e| e.info.name.clone())
        .collect()
}

/// The MAC names (without ``mac-``), as ``unimac tag`` takes them.
///
/// >>> import unimac
/// >>> "wc-mmh32x4" in unimac.mac_names()
/// True
#[pyfunction]
fn mac_names() -> Vec<String> {
    registry::names()
}

/// What the name takes and gives: a dict with ``name``, ``mac``,
/// ``key_size`` (None where the key is as long as the message),
/// ``key_sizes`` (text), ``nonce_size``, ``nonce_sizes`` (min, max),
/// ``digest_size``, ``one_time``, ``nonce``, ``stateless``, ``summary``
/// (with the paper cited).
///
/// >>> import unimac
/// >>> unimac.info("hash127-aes")["key_size"]
/// 32
#[pyfunction]
fn info<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
    let e = names::resolve_any(name).map_err(value_err)?;
    let i = &e.info;
    let full = &i.name;
    // Everything about a MAC comes from its row of the one table.
    let row = e.mac();
    let is_mac = row.is_some();
    // A MAC by its name without `mac-`, a hash by its wire name.
    let shown = row.map_or(full.as_str(), |d| d.name);
    let one_time = unimac_front::macs::one_time_row(full).is_some();
    let pair = row.is_some_and(pair_framed);
    let sizes = registry::nonce_sizes(i);
    let d = PyDict::new(py);
    d.set_item("name", shown)?;
    d.set_item("spec_name", full)?;
    d.set_item("mac", is_mac)?;
    d.set_item(
        "key_size",
        match i.key {
            KeySpec::PerElement(_) => None,
            k => k.default_len(),
        },
    )?;
    d.set_item("key_sizes", i.key.describe())?;
    d.set_item("nonce_size", i.nonce)?;
    d.set_item("nonce_sizes", (*sizes.start(), *sizes.end()))?;
    d.set_item("digest_size", i.out)?;
    d.set_item("sent_size", row.map_or(i.out, |r| r.sent_len()))?;
    d.set_item("takes_length", i.takes_len)?;
    d.set_item("one_time", one_time)?;
    d.set_item("nonce", row.map_or(i.nonce > 0, |r| r.takes_nonce()))?;
    d.set_item("random_pair", pair)?;
    d.set_item(
        "stateless",
        row.map_or(i.nonce == 0, |r| !r.takes_nonce()) && !one_time,
    )?;
    d.set_item("summary", names::cite(&i.summary))?;
    Ok(d)
}

/// A fresh random key for ``name`` from the operating system's generator
/// (``modp``: a random prime of [2^120, 2^128), 16 bytes little-endian).
///
/// >>> import unimac
/// >>> len(unimac.keygen("wc-mmh32x4"))
/// 32
#[pyfunction]
fn keygen<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyBytes>> {
    if names::is_modp(name) {
        let p = unimac_front::modp::SecretPrime::generate().map_err(err)?;
        return Ok(PyBytes::new(py, &p.to_bytes()[..]));
    }
    // A MAC as `unimac keygen` takes it (with its messages), else a hash.
    let e = names::resolve_any(name).map_err(|_| value_err(names::mac_refusal(name)))?;
    let len = match e.info.key {
        KeySpec::PerElement(_) => {
            return Err(value_err(format!(
                "{name}: the key is as long as the message; no fixed-size key to make"
            )))
        }
        k => k.default_len().unwrap_or(0),
    };
    PyBytes::new_with(py, len, |b| {
        getrandom::fill(b).map_err(|e| value_err(unimac_front::formats::messages::random_failed(&e)))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(all_names, m)?)?;
    m.add_function(wrap_pyfunction!(mac_names, m)?)?;
    m.add_function(wrap_pyfunction!(info, m)?)?;
    m.add_function(wrap_pyfunction!(keygen, m)?)?;
    m.add_function(wrap_pyfunction!(mac_name_py, m)?)?;
    m.add_class::<MacRow>()?;
    m.add_function(wrap_pyfunction!(mac_row, m)?)?;
    Ok(())
}
