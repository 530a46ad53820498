//! `unimac.bound`: the forgery bound of a MAC (or of `modp`'s identity
//! checks) under an attack, as `unimac bound` gives it.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use unimac_front::bounds::{self, Attack};

use crate::{err, names, sizes, value_err};

fn log2_py(l: f64) -> f64 {
    l
}

/// A forgery bound (see :func:`unimac.bound`).
#[pyclass(module = "unimac", name = "Bound", frozen, get_all)]
struct PyBound {
    /// The MAC.
    name: String,
    /// log2 of the bound (``-inf`` for 0).
    log2: f64,
    /// The bound, ``2 ** log2`` (0.0 if it underflows).
    value: f64,
    /// Whether every ingredient is proven.
    proven: bool,
    /// The theorem it comes from.
    theorem: String,
    /// log2 of the theorem's own formula alone.
    theorem_log2: f64,
    /// The terms added up: dicts with ``what``, ``formula``, ``log2``, ``from_theorem``.
    terms: Py<PyList>,
    /// Terms to add that are not in the number (AES's advantage).
    not_included: Vec<String>,
    /// Parameters derived from the attack.
    params: Vec<(String, String)>,
    /// Caveats.
    notes: Vec<String>,
    /// The bound as ``unimac bound`` prints it.
    text: String,
}

#[pymethods]
impl PyBound {
    fn __repr__(&self) -> String {
        format!(
            "<unimac.Bound {}: 2^{:.2}, {}>",
            self.name,
            self.log2,
            if self.proven { "proven" } else { "NOT proven" }
        )
    }
    fn __float__(&self) -> f64 {
        self.value
    }
}

/// The forgery bound of the MAC ``name``: the probability that any of
/// ``forgeries`` attempts succeeds after ``tags`` tagged messages of at most
/// ``max_bytes`` bytes (``random_nonces``: nonces drawn at random instead of
/// from a counter). Raises ``ValueError`` where the theorem says nothing.
/// ``modp``: the probability that a false identity ``a² = bc + de`` on
/// operands of at most ``max_bytes`` bytes passes one of ``forgeries``
/// checks (as ``unimac bound modp``).
///
/// ``max_bytes``, ``tags`` and ``forgeries`` are ints, or strings as
/// ``unimac bound`` takes them: ``"1MiB"``, ``"1.5MiB"``, ``"4KiB"``,
/// ``"1MB"``, ``"1PiB"``, ``"2^20"``, ``"1e6"`` (whole numbers up to
/// 2^64 - 1; ``ValueError`` otherwise).
///
/// >>> import unimac
/// >>> b = unimac.bound("hash127-aes", 1 << 20, tags=1 << 20)
/// >>> b.log2 < -60 and b.proven
/// True
/// >>> unimac.bound("hash127-aes", "1MiB", tags="2^20").log2 == b.log2
/// True
#[pyfunction]
#[pyo3(
    signature = (name, max_bytes, tags = None, forgeries = None, random_nonces = false),
    text_signature = "(name, max_bytes, tags=1, forgeries=1, random_nonces=False)"
)]
fn bound(
    py: Python<'_>,
    name: &str,
    max_bytes: &Bound<'_, PyAny>,
    tags: Option<&Bound<'_, PyAny>>,
    forgeries: Option<&Bound<'_, PyAny>>,
    random_nonces: bool,
) -> PyResult<PyBound> {
    let max_bytes = sizes::count(max_bytes, "max_bytes")?;
    let tags = tags.map_or(Ok(1), |t| sizes::count(t, "tags"))?;
    let forgeries = forgeries.map_or(Ok(1), |f| sizes::count(f, "forgeries"))?;
    if names::is_modp(name) {
        return modp_bound(py, max_bytes, forgeries);
    }
    let d = names::resolve_mac(name).map_err(value_err)?;
    let attack = Attack {
        max_bytes,
        tags,
        forgeries,
        random_nonces,
    };
    let b = bounds::bound(d.name, &attack).map_err(err)?;
    let terms = PyList::empty(py);
    for t in &b.terms {
        let d = PyDict::new(py);
        d.set_item("what", names::cite(&t.what))?;
        d.set_item("formula", &t.formula)?;
        d.set_item("log2", log2_py(t.log2.0))?;
        d.set_item("from_theorem", t.theorem)?;
        terms.append(d)?;
    }
    Ok(PyBound {
        name: b.name.clone(),
        log2: b.log2.0,
        value: b.log2.0.exp2(),
        proven: b.proven,
        theorem: names::cite(&b.theorem),
        theorem_log2: b.theorem_log2().0,
        terms: terms.unbind(),
        not_included: b.not_included.clone(),
        params: b.params.clone(),
        notes: b.notes.iter().map(|n| names::cite(n)).collect(),
        text: names::cite(&b.to_string()),
    })
}

/// `unimac bound modp`: a false identity `a² = bc + de` on operands of at
/// most `max_bytes` bytes passes one of `checks` checks under one secret
/// prime with at most this probability.
fn modp_bound(py: Python<'_>, max_bytes: u64, checks: u64) -> PyResult<PyBound> {
    // The library's limits, numbers and text (as `unimac bound modp`).
    let b = bounds::modp_bound(max_bytes, checks).map_err(err)?;
    let (all, n) = (b.log2.0, b.difference_bits);
    let terms = PyList::empty(py);
    let d = PyDict::new(py);
    d.set_item("what", "a false identity passes one of the checks")?;
    d.set_item(
        "formula",
        "Q * floor((N - 1)/120) / #primes in [2^120, 2^128), N = 16L + 1",
    )?;
    d.set_item("log2", all)?;
    d.set_item("from_theorem", true)?;
    terms.append(d)?;
    let text = b.text();
    Ok(PyBound {
        name: unimac_front::formats::keyfile::KeyKind::Modp.name().into(),
        log2: all,
        value: all.exp2(),
        proven: true,
        theorem: names::cite("Bernstein, “Floating-point arithmetic and message authentication”, \"Other applications\": primes dividing the difference"),
        theorem_log2: all,
        terms: terms.unbind(),
        not_included: Vec::new(),
        params: vec![("N".into(), n.to_string())],
        notes: vec!["the key (the prime) must stay secret from whoever supplies the operands".into()],
        text,
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBound>()?;
    m.add_function(wrap_pyfunction!(bound, m)?)?;
    Ok(())
}
