//! Counts and sizes as the command line takes them (`unimac bound
//! --max-bytes 1MiB --tags 2^20`): `unimac_front::size::parse_count`, the
//! command line's value parser, so a string means the same here and there.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

/// A count argument (`what`, e.g. `max_bytes`): an `int` (0 to 2^64 - 1),
/// or a `str` read by `unimac_front::size::parse_count`.
pub fn count(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if let Ok(s) = obj.downcast::<PyString>() {
        return unimac_front::size::parse_count(&s.to_cow()?).map_err(|e| PyValueError::new_err(format!("{what}: {e}")));
    }
    if obj.is_instance_of::<PyInt>() {
        return obj.extract::<u64>().map_err(|_| {
            PyValueError::new_err(format!("{what}: {} is not in 0 .. 2^64 - 1", obj.str().map(|s| s.to_string()).unwrap_or_default()))
        });
    }
    let t = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    Err(PyTypeError::new_err(format!("{what}: an int or a size such as '1MiB', '2^20' or '1e6' is required, not '{t}'")))
}
