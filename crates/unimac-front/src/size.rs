//! Counts and sizes as people write them, one rule for every door (the
//! command line's `--max-bytes 1MiB --tags 2^20`, Python's
//! `unimac.bound("hash127-aes", "1.5MiB")`): [`parse_size`], and
//! [`parse_count`], the same with its message as text, as both front ends
//! take it.

use unimac::Error;

/// The units [`parse_size`] knows, as an error message lists them.
const UNITS: &str = "B; KiB, MiB, GiB, TiB, PiB, EiB (or K, M, G, T, P, E); KB, MB, GB, TB, PB, EB";

/// A count or size as people write it, as a `u64`:
///
/// - a whole number: `1048576`, `1_048_576` (`_` between digits);
/// - a power: `2^20`;
/// - a mantissa and a decimal exponent: `1e6`, `1.5e3`;
/// - a number with a unit, binary (`KiB`, `MiB`, `GiB`, `TiB`, `PiB`,
///   `EiB`, and `K`, `M`, `G`, `T`, `P`, `E`) or decimal (`KB` or `kB`,
///   `MB`, `GB`, `TB`, `PB`, `EB`), or `B`: `4KiB`, `1MB`, `15EiB`; the
///   number may have a fraction if the result is a whole number of bytes
///   (`1.5MiB` = 1572864, `0.5KiB` = 512; `1.3KiB` is an error).
///
/// Spaces around the whole and between number and unit are ignored.
/// Anything above 2^64 - 1 is an error (`16EiB`: `'16EiB' is more than
/// 2^64 - 1 bytes`), as are negative numbers and unknown units; every error
/// is [`Error::Invalid`] and quotes the text.
pub fn parse_size(s: &str) -> Result<u64, Error> {
    let t: String = s.trim().chars().filter(|&c| c != '_').collect();
    let bad = |m: String| Error::Invalid(m);
    let over = |bytes: bool| bad(format!("'{s}' is more than 2^64 - 1{}", if bytes { " bytes" } else { "" }));
    if let Some((b, e)) = t.split_once('^') {
        let msg = || bad(format!("'{s}': expected BASE^EXPONENT, e.g. 2^32"));
        let b: u64 = b.trim().parse().map_err(|_| msg())?;
        let e: u32 = e.trim().parse().map_err(|_| msg())?;
        return b.checked_pow(e).ok_or_else(|| over(false));
    }
    // MANTISSAeEXPONENT; an `e` followed by anything but digits (`16EiB`,
    // `1E`) is a unit, below.
    if let Some((m, e)) = t.split_once(['e', 'E']).filter(|(_, e)| !e.is_empty() && e.bytes().all(|c| c.is_ascii_digit())) {
        let e: u32 = e.parse().map_err(|_| over(false))?;
        let Some(p) = 10u128.checked_pow(e).filter(|&p| p <= u64::MAX as u128) else {
            return Err(over(false));
        };
        return match decimal(m.trim(), p) {
            Some(Ok(v)) => u64::try_from(v).map_err(|_| over(false)),
            Some(Err(())) => Err(bad(format!("'{s}' is not a whole number"))),
            None => Err(bad(format!("'{s}': expected MANTISSAeEXPONENT, e.g. 1e6"))),
        };
    }
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',')).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let unit = unit.trim();
    let mul: u64 = match unit {
        "" | "B" => 1,
        "K" | "KiB" => 1 << 10,
        "M" | "MiB" => 1 << 20,
        "G" | "GiB" => 1 << 30,
        "T" | "TiB" => 1 << 40,
        "P" | "PiB" => 1 << 50,
        "E" | "EiB" => 1 << 60,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        "PB" => 1_000_000_000_000_000,
        "EB" => 1_000_000_000_000_000_000,
        _ if n.is_empty() => return Err(bad(format!("'{s}': expected a number such as 1048576, 2^20, 1e6 or 1MiB"))),
        u => return Err(bad(format!("'{s}': unknown unit '{u}' ({UNITS})"))),
    };
    let bytes = !unit.is_empty();
    match decimal(n, mul as u128) {
        Some(Ok(v)) => u64::try_from(v).map_err(|_| over(bytes)),
        Some(Err(())) if bytes => Err(bad(format!("'{s}' is not a whole number of bytes"))),
        Some(Err(())) => Err(bad(format!("'{s}' is not a whole number"))),
        None if n.is_empty() => Err(bad(format!("'{s}': expected a number such as 1048576, 2^20, 1e6 or 1MiB"))),
        None => Err(bad(format!("'{s}': expected a number such as 1048576, 1.5MiB, 2^20 or 1e6"))),
    }
}

/// A count or size as people write it (`1048576`, `2^20`, `1e6`, `1MiB`,
/// `1.5MiB`, `4KB`, up to `15EiB`; [`parse_size`]), or the refusal's one
/// line: the command line's value parser of `--max-bytes`, `--tags`,
/// `--forgeries` and `--chunk-size`, and Python's counts given as strings
/// (`unimac.bound(..., max_bytes="1MiB")`).
pub fn parse_count(s: &str) -> Result<u64, String> {
    parse_size(s).map_err(|e| e.to_string())
}

/// `n × mul` for a decimal `n` (`123` or `1.25`; `,` taken for `.`): `None`
/// if `n` is not such a number, `Some(Err(()))` if the product is not a
/// whole number, and a value above `u64::MAX` (saturating at `u128::MAX`)
/// when it is too large.
fn decimal(n: &str, mul: u128) -> Option<Result<u128, ()>> {
    let (int, frac) = match n.split_once(['.', ',']) {
        Some((i, f)) => (i, f.trim_end_matches('0')),
        None => (n, ""),
    };
    let digits = |x: &str| x.bytes().all(|c| c.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || n.matches(['.', ',']).count() > 1 {
        return None;
    }
    let i = match int.trim_start_matches('0') {
        "" => 0,
        i if i.len() > 20 => return Some(Ok(u128::MAX)),
        i => i.parse::<u128>().ok()?,
    };
    let whole = i.saturating_mul(mul);
    if frac.is_empty() {
        return Some(Ok(whole));
    }
    // mul <= 10^19 < 2^64; a fraction of more than 19 digits (after the
    // trailing zeros are gone) is never whole with such a multiplier.
    if frac.len() > 19 {
        return Some(Err(()));
    }
    let f: u128 = frac.parse().ok()?;
    let den = 10u128.pow(frac.len() as u32);
    let num = f * mul; // < 10^19 * 2^64 < 2^128
    if !num.is_multiple_of(den) {
        return Some(Err(()));
    }
    Some(Ok(whole.saturating_add(num / den)))
}

#[cfg(test)]
mod tests {
    use super::{parse_count, parse_size};

    #[test]
    fn counts_as_both_front_ends_read_them() {
        for (s, v) in [("1048576", 1u64 << 20), ("2^20", 1 << 20), ("1MiB", 1 << 20), ("1.5MiB", 1_572_864), ("1e6", 1_000_000), ("15EiB", 15 << 60)] {
            assert_eq!(parse_count(s), Ok(v), "{s}");
        }
        assert_eq!(parse_count("16EiB").unwrap_err(), "'16EiB' is more than 2^64 - 1 bytes");
        assert_eq!(parse_count("1.3KiB").unwrap_err(), "'1.3KiB' is not a whole number of bytes");
        assert_eq!(parse_count("2^64").unwrap_err(), "'2^64' is more than 2^64 - 1");
    }

    fn err(s: &str) -> String {
        parse_size(s).unwrap_err().to_string()
    }

    #[test]
    fn sizes_as_people_write_them() {
        for (s, v) in [
            ("1048576", 1u64 << 20),
            ("2^20", 1 << 20),
            ("2^32", 1 << 32),
            ("2^63", 1 << 63),
            ("1MiB", 1 << 20),
            ("1M", 1 << 20),
            ("4GiB", 4 << 30),
            ("4KiB", 4096),
            ("1MB", 1_000_000),
            ("1kB", 1000),
            ("1e6", 1_000_000),
            ("1E6", 1_000_000),
            ("1.5e3", 1500),
            ("1_000", 1000),
            (" 7 ", 7),
            ("7B", 7),
            ("1 MiB", 1 << 20),
            ("1.5MiB", 1_572_864),
            ("1,5MiB", 1_572_864),
            ("0.5KiB", 512),
            ("1.50KiB", 1536),
            ("2.5KB", 2500),
            ("1.0", 1),
            ("1PiB", 1 << 50),
            ("1PB", 1_000_000_000_000_000),
            ("15EiB", 15 << 60),
            ("15.9375EiB", (15 << 60) + (15 << 56)),
            ("1E", 1 << 60),
            ("18EB", 18_000_000_000_000_000_000),
            ("16777215TiB", 16_777_215u64 << 40),
            ("18446744073709551615", u64::MAX),
            ("0", 0),
        ] {
            assert_eq!(parse_size(s).ok(), Some(v), "{s}");
        }
    }

    #[test]
    fn refusals_name_the_text() {
        assert_eq!(err("16EiB"), "'16EiB' is more than 2^64 - 1 bytes");
        assert_eq!(err("19EB"), "'19EB' is more than 2^64 - 1 bytes");
        assert_eq!(err("16777216TiB"), "'16777216TiB' is more than 2^64 - 1 bytes");
        assert_eq!(err("2^64"), "'2^64' is more than 2^64 - 1");
        assert_eq!(err("1e30"), "'1e30' is more than 2^64 - 1");
        assert_eq!(err("18446744073709551616"), "'18446744073709551616' is more than 2^64 - 1");
        assert_eq!(err("1.3KiB"), "'1.3KiB' is not a whole number of bytes");
        assert_eq!(err("1.5"), "'1.5' is not a whole number");
        assert_eq!(err("1.5B"), "'1.5B' is not a whole number of bytes");
        assert_eq!(err("1ZiB"), "'1ZiB': unknown unit 'ZiB' (B; KiB, MiB, GiB, TiB, PiB, EiB (or K, M, G, T, P, E); KB, MB, GB, TB, PB, EB)");
        assert_eq!(err("lots"), "'lots': expected a number such as 1048576, 2^20, 1e6 or 1MiB");
        assert_eq!(err("2^"), "'2^': expected BASE^EXPONENT, e.g. 2^32");
        for bad in ["", "x", "-1", "e6", "1e", "1e6x", "1..5MiB", "1.5.2KiB", ".5KiB", "1.2e"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
