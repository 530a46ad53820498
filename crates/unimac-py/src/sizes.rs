//! Counts and sizes as the command line takes them (`unimac bound
//! --max-bytes 1MiB --tags 2^20`): the library's one rule,
//! `unimac_front::size::parse_size`, so a string means the same here and there.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

/// A count or size as people write it (`1048576`, `2^20`, `1e6`, `1MiB`,
/// `1.5MiB`, up to `15EiB`): [`unimac_front::size::parse_size`], the rule of
/// the command line too.
pub fn parse_count(s: &str) -> Result<u64, String> {
    unimac_front::size::parse_size(s).map_err(|e| e.to_string())
}

/// A count argument (`what`, e.g. `max_bytes`): an `int` (0 to 2^64 - 1),
/// or a `str` read by [`parse_count`].
pub fn count(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if let Ok(s) = obj.downcast::<PyString>() {
        return parse_count(&s.to_cow()?).map_err(|e| PyValueError::new_err(format!("{what}: {e}")));
    }
    if obj.is_instance_of::<PyInt>() {
        return obj.extract::<u64>().map_err(|_| {
            PyValueError::new_err(format!("{what}: {} is not in 0 .. 2^64 - 1", obj.str().map(|s| s.to_string()).unwrap_or_default()))
        });
    }
    let t = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    Err(PyTypeError::new_err(format!("{what}: an int or a size such as '1MiB', '2^20' or '1e6' is required, not '{t}'")))
}

#[cfg(test)]
mod tests {
    use super::parse_count;

    /// The library's rule, as the CLI reads it (unimac_front::size has the full
    /// cases).
    #[test]
    fn counts_as_the_cli_reads_them() {
        for (s, v) in [("1048576", 1u64 << 20), ("2^20", 1 << 20), ("1MiB", 1 << 20), ("1.5MiB", 1_572_864), ("15EiB", 15 << 60)] {
            assert_eq!(parse_count(s), Ok(v), "{s}");
        }
        assert_eq!(parse_count("16EiB").unwrap_err(), "'16EiB' is more than 2^64 - 1 bytes");
        assert_eq!(parse_count("1.3KiB").unwrap_err(), "'1.3KiB' is not a whole number of bytes");
    }
}
