//! `unimac.SecretPrime`: a secret random prime of [2^120, 2^128) (wire name
//! `modp`) that checks ring identities on huge integers.

use unimac_front::prelude::*;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::data;
use crate::{err, value_err};

/// A secret random prime ``p`` of [2^120, 2^128) (wire name ``modp``), to
/// check ring identities on huge integers: ``SecretPrime()`` draws one,
/// ``SecretPrime(key)`` takes a 16-byte little-endian key.
///
/// >>> import unimac
/// >>> p = unimac.SecretPrime()
/// >>> p.check_identity(3, 2, 4, 1, 1)   # 3^2 = 2*4 + 1*1
/// True
/// >>> p.reduce(12345)
/// 12345
#[pyclass(module = "unimac", name = "SecretPrime", frozen)]
struct PySecretPrime {
    p: unimac_front::modp::SecretPrime,
}

/// A non-negative Python int as little-endian bytes (buffers taken as they are).
fn int_bytes(x: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if x.is_instance_of::<pyo3::types::PyInt>() {
        if x.lt(0)? {
            return Err(value_err(format!(
                "{what}: a non-negative integer is required"
            )));
        }
        let bits: usize = x.call_method0("bit_length")?.extract()?;
        let b = x.call_method1("to_bytes", (bits.div_ceil(8), "little"))?;
        return Ok(b.downcast::<PyBytes>()?.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err(format!("{what}: an int is required")))
}

#[pymethods]
impl PySecretPrime {
    #[new]
    #[pyo3(signature = (key = None))]
    fn py_new(key: Option<&Bound<'_, PyAny>>) -> PyResult<PySecretPrime> {
        let p = match key {
            None => unimac_front::modp::SecretPrime::generate(),
            Some(k) => unimac_front::modp::SecretPrime::from_bytes(data(k, "key")?.as_slice()),
        }
        .map_err(err)?;
        Ok(PySecretPrime { p })
    }

    /// ``x mod p`` for a non-negative int ``x`` of any size.
    fn reduce(&self, py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<u128> {
        let b = int_bytes(x, "x")?;
        Ok(py.allow_threads(|| self.p.reduce_u128(&b)))
    }

    /// Whether ``a² ≡ bc + de (mod p)`` (non-negative ints), as ``unimac
    /// check-identity``: a true identity always passes; a false one passes
    /// with probability at most :meth:`false_accept_log2` (log2).
    fn check_identity(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
        d: &Bound<'_, PyAny>,
        e: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let v = [
            int_bytes(a, "a")?,
            int_bytes(b, "b")?,
            int_bytes(c, "c")?,
            int_bytes(d, "d")?,
            int_bytes(e, "e")?,
        ];
        Ok(py.allow_threads(|| self.p.check_identity(&v[0], &v[1], &v[2], &v[3], &v[4])))
    }

    /// log2 of the probability that a false identity of these operands
    /// passes (``-inf``: none can).
    #[staticmethod]
    fn false_accept_log2(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
        d: &Bound<'_, PyAny>,
        e: &Bound<'_, PyAny>,
    ) -> PyResult<f64> {
        let v = [
            int_bytes(a, "a")?,
            int_bytes(b, "b")?,
            int_bytes(c, "c")?,
            int_bytes(d, "d")?,
            int_bytes(e, "e")?,
        ];
        let n = unimac_front::modp::identity_bits(&v[0], &v[1], &v[2], &v[3], &v[4]);
        Ok(unimac_front::modp::false_accept_log2(n))
    }

    /// The key ``p``, 16 bytes little-endian (keep it secret).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.p.to_bytes()[..])
    }

    fn __repr__(&self) -> &'static str {
        "unimac.SecretPrime(<secret>)"
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySecretPrime>()?;
    Ok(())
}
