//! Counts and sizes as the command line takes them (`unimac bound
//! --max-bytes 1MiB --tags 2^20`): the same rule as the CLI's
//! `parse_count`, so a string means the same here and there.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

/// A count or size as people write it: `1048576`, `2^20`, `1e6`, or a whole
/// number with a unit, binary (`KiB`, `MiB`, `GiB`, `TiB`, and `K`, `M`,
/// `G`, `T`) or decimal (`KB`, `MB`, `GB`, `TB`); `_` between digits.
/// Everything above 2^64 - 1 is refused, as are fractions (`1.5MiB`: the
/// CLI takes none either).
pub fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    let over = || format!("'{s}' is more than 2^64 - 1");
    if let Some((b, e)) = t.split_once('^') {
        let b: u64 = b.trim().parse().map_err(|_| format!("'{s}': expected BASE^EXPONENT, e.g. 2^32"))?;
        let e: u32 = e.trim().parse().map_err(|_| format!("'{s}': expected BASE^EXPONENT, e.g. 2^32"))?;
        return b.checked_pow(e).ok_or_else(over);
    }
    // MANTISSAeEXPONENT; anything else with an `e` (`16EiB`) is left to the
    // units below, to be named as the unit it is not (the CLI refuses the
    // same strings, with "expected MANTISSAeEXPONENT").
    if let Some((m, e)) = t.split_once(['e', 'E']).filter(|(_, e)| e.trim().parse::<u32>().is_ok()) {
        let m: u64 = m.trim().parse().map_err(|_| format!("'{s}': expected MANTISSAeEXPONENT, e.g. 1e6"))?;
        let e: u32 = e.trim().parse().map_err(|_| format!("'{s}': expected MANTISSAeEXPONENT, e.g. 1e6"))?;
        return 10u64.checked_pow(e).and_then(|p| m.checked_mul(p)).ok_or_else(over);
    }
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    if unit.starts_with(['.', ',']) && !n.is_empty() {
        return Err(format!("'{s}': a whole number is required, no fraction (use a smaller unit: 1536KiB, not 1.5MiB)"));
    }
    let n: u64 = match n.parse() {
        Ok(n) => n,
        Err(_) if !n.is_empty() => return Err(over()),
        Err(_) => return Err(format!("'{s}': expected a number such as 1048576, 2^20, 1e6 or 1MiB")),
    };
    let mul: u64 = match unit.trim() {
        "" | "B" => 1,
        "K" | "KiB" => 1 << 10,
        "M" | "MiB" => 1 << 20,
        "G" | "GiB" => 1 << 30,
        "T" | "TiB" => 1 << 40,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        u => return Err(format!("'{s}': unknown unit '{u}' (KiB, MiB, GiB, TiB; KB, MB, GB, TB)")),
    };
    n.checked_mul(mul).ok_or_else(over)
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

    /// The CLI's own cases (unimac-cli, `count_tests`), and the same
    /// refusals.
    #[test]
    fn counts_as_the_cli_reads_them() {
        for (s, v) in [
            ("1048576", 1u64 << 20),
            ("2^20", 1 << 20),
            ("2^32", 1 << 32),
            ("1MiB", 1 << 20),
            ("1M", 1 << 20),
            ("4GiB", 4 << 30),
            ("1MB", 1_000_000),
            ("1e6", 1_000_000),
            ("1_000", 1000),
            (" 7 ", 7),
            ("2^63", 1 << 63),
            ("4KiB", 4096),
            ("16777215TiB", (16_777_215u64) << 40),
        ] {
            assert_eq!(parse_count(s), Ok(v), "{s}");
        }
        for bad in ["", "x", "2^64", "1ZiB", "-1", "1.5MiB", "2^", "1e30", "18446744073709551616", "16EiB", "16777216TiB"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_count("16777216TiB").unwrap_err(), "'16777216TiB' is more than 2^64 - 1");
        assert_eq!(parse_count("18446744073709551616").unwrap_err(), "'18446744073709551616' is more than 2^64 - 1");
        assert!(parse_count("1.5MiB").unwrap_err().contains("no fraction"));
        assert_eq!(parse_count("16EiB").unwrap_err(), "'16EiB': unknown unit 'EiB' (KiB, MiB, GiB, TiB; KB, MB, GB, TB)");
        assert!(parse_count("1e6x").is_err() && parse_count("e6").is_err() && parse_count("1e").is_err());
    }
}
