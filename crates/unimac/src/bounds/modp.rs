//! The bound of `modp`'s identity checks (`unimac bound modp`, Python's
//! `unimac.bound("modp", ...)`): its parameters' limits, its numbers and
//! its text, written once.

use super::Log2;
use crate::error::Error;
#[cfg(not(feature = "std"))]
#[allow(unused_imports)] // std's methods win wherever a dependency links std
use crate::float::F64Math;
use crate::modp::{false_accept_log2, primes_in_range_log2};
use crate::prelude::*;

/// A false identity `a² = bc + de` on operands of at most `max_bytes`
/// bytes passes one of `checks` checks under one secret prime with at most
/// probability `2^log2` ([`modp_bound`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ModpBound {
    /// `L`: the longest operand, in bytes.
    pub max_bytes: u64,
    /// `Q`: the checks made under one key.
    pub checks: u64,
    /// `N = 16L + 1`: `|a² − bc − de| < 2^N`.
    pub difference_bits: u64,
    /// log2 of the bound for one check (`-inf`: 0, `N ≤ 120`).
    pub one: Log2,
    /// log2 of the bound for all `Q` checks.
    pub log2: Log2,
}

/// `2^x` as the bounds print it, `0` for `-inf`.
fn power(l: Log2) -> String {
    if l.0 == f64::NEG_INFINITY {
        "0".into()
    } else {
        format!("2^{:.2}", l.0)
    }
}

/// The bound of `checks` checks of `modp` identities on operands of at most
/// `max_bytes` bytes; refused (one line) for no check, for operands so long
/// that `N = 16L + 1` passes 2^64 - 1, and where the bound is 1 or more
/// (it then says nothing).
pub fn modp_bound(max_bytes: u64, checks: u64) -> Result<ModpBound, Error> {
    if checks == 0 {
        return Err(Error::Invalid("modp: forgeries (the number of checks) must be at least 1".into()));
    }
    let n = max_bytes.checked_mul(16).and_then(|x| x.checked_add(1)).ok_or_else(|| {
        Error::Invalid(format!("modp: operands of {max_bytes} bytes are too long: N = 16L + 1 is more than 2^64 - 1"))
    })?;
    let one = Log2(false_accept_log2(n));
    let log2 = one.times(Log2::int(checks as u128));
    if log2.0 >= 0.0 {
        return Err(Error::Invalid(format!("modp: the bound is {} >= 1 for L = {max_bytes} bytes and {checks} checks", power(log2))));
    }
    Ok(ModpBound { max_bytes, checks, difference_bits: n, one, log2 })
}

impl ModpBound {
    /// The bound and how it is reached, as `unimac bound modp` prints it
    /// (Python's `Bound.text`).
    pub fn text(&self) -> String {
        let (l, q, n) = (self.max_bytes, self.checks, self.difference_bits);
        format!(
            "modp: a false identity a^2 = bc + de passes with probability <= {}\n  \
             operands of at most {l} bytes: |a^2 - bc - de| < 2^N, N = 16L + 1 = {n}\n  \
             per check: floor((N - 1)/120) primes >= 2^120 divide it, out of > 2^{:.2} primes in [2^120, 2^128) = {}\n  \
             {q} check(s) under one key: at most {q} times that\n",
            power(self.log2),
            primes_in_range_log2(),
            power(self.one)
        )
    }

    /// One JSON object (feature `json`), as `unimac bound modp --json`
    /// prints it.
    #[cfg(feature = "json")]
    pub fn to_json(&self) -> serde_json::Value {
        let finite = self.log2.0.is_finite();
        serde_json::json!({
            "name": "modp",
            "max_bytes": self.max_bytes,
            "checks": self.checks,
            "difference_bits": self.difference_bits,
            "primes_in_range_log2": primes_in_range_log2(),
            "bound_log2": if finite { serde_json::json!(self.log2.0) } else { serde_json::Value::Null },
            "bound": if finite { self.log2.0.exp2() } else { 0.0 },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(l: u64, q: u64) -> String {
        modp_bound(l, q).unwrap_err().to_string()
    }

    #[test]
    fn the_limits_and_their_texts() {
        assert_eq!(refusal(100, 0), "modp: forgeries (the number of checks) must be at least 1");
        let l = u64::MAX / 16 + 1;
        assert_eq!(refusal(l, 1), format!("modp: operands of {l} bytes are too long: N = 16L + 1 is more than 2^64 - 1"));
        // 16L + 1 fits for the largest L below that.
        assert!(modp_bound(l - 1, 1).is_ok());
        // One check of operands of 2^20 bytes: N = 2^24 + 1, floor(2^24 / 120) = 139810
        // primes over about 2^121.52.
        let b = modp_bound(1 << 20, 1).unwrap();
        assert_eq!(b.difference_bits, (1 << 24) + 1);
        assert!((b.log2.0 - ((139_810f64).log2() - primes_in_range_log2())).abs() < 1e-9, "{}", b.log2.0);
        assert!(b.text().starts_with("modp: a false identity a^2 = bc + de passes with probability <= 2^-104.43\n"), "{}", b.text());
        // Q checks: Q times one.
        let q = modp_bound(1 << 20, 1 << 10).unwrap();
        assert!((q.log2.0 - (b.log2.0 + 10.0)).abs() < 1e-9);
        assert!(q.text().ends_with("1024 check(s) under one key: at most 1024 times that\n"));
        // Short operands: N <= 120, no prime of the range divides, 0.
        let z = modp_bound(7, 5).unwrap();
        assert_eq!(z.log2.0, f64::NEG_INFINITY);
        assert!(z.text().starts_with("modp: a false identity a^2 = bc + de passes with probability <= 0\n"));
        // The worst case of u64 inputs stays below 1 (about 2^-0.43): the
        // refusal of a bound of 1 or more guards the float arithmetic only.
        assert!(modp_bound(u64::MAX / 16, u64::MAX).unwrap().log2.0 < 0.0);
    }
}
