//! `POLY` of RFC 4418 §5.3: Horner's rule mod `p64 = 2^64 − 59` on 64-bit
//! words and mod `p128 = 2^128 − 159` on 128-bit words, `y ← k·y + m`, with
//! every word at or above `2^64 − 2^32` (resp. `2^128 − 2^96`) sent as the
//! marker `p − 1` followed by `m − offset`, so every word is below `p`.
//!
//! The keys are masked ([`MASK64`], [`MASK128`]) and below `2^57` and `2^121`.
//! No branch depends on the key or the accumulator; the only branch is the
//! marker test on the message word, which RFC 4418 makes part of the function.

use crate::hash127::portable::mul_wide;

/// `p64 = 2^64 − 59`.
pub const P64: u64 = 0u64.wrapping_sub(59);
/// `p128 = 2^128 − 159`.
pub const P128: u128 = 0u128.wrapping_sub(159);
/// Key mask of POLY64: `0x01ffffff01ffffff`.
pub const MASK64: u64 = 0x01ff_ffff_01ff_ffff;
/// Key mask of POLY128.
pub const MASK128: u128 = 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffff;
/// Words at or above this are sent through the marker (`maxwordrange`).
const MAX64: u64 = 0xffff_ffff_0000_0000;
const MAX128: u128 = 0xffff_ffff_0000_0000_0000_0000_0000_0000;

/// `s − p` if `s ≥ p`, else `s` (constant time), for `s < 2p`.
#[inline]
fn sub_if_ge64(s: u128) -> u64 {
    let (d, borrow) = s.overflowing_sub(P64 as u128);
    let keep = 0u128.wrapping_sub(borrow as u128);
    ((s & keep) | (d & !keep)) as u64
}

/// `(k·y + m) mod p64` for `y, m < 2^64`. With `x = hi·2^64 + lo`,
/// `2^64 ≡ 59`: `hi·59 + lo < 2^71`, a second fold leaves `< 2^64 + 2^13 < 2 p64`.
#[inline]
pub fn mul_add64(k: u64, y: u64, m: u64) -> u64 {
    let x = k as u128 * y as u128 + m as u128;
    let t = (x >> 64) * 59 + (x as u64 as u128);
    let t = (t >> 64) * 59 + (t as u64 as u128);
    sub_if_ge64(t)
}

/// One POLY64 word: `y ← k·y + m`, through the marker if `m ≥ 2^64 − 2^32`.
#[inline]
pub fn poly64_step(k: u64, y: u64, m: u64) -> u64 {
    if m >= MAX64 {
        mul_add64(k, mul_add64(k, y, P64 - 1), m - 59)
    } else {
        mul_add64(k, y, m)
    }
}

/// `(k·y + m) mod p128` for `k < 2^121`, `y, m < 2^128`. With
/// `k·y = hi·2^128 + lo` (`hi < 2^121`) and `2^128 ≡ 159`: `hi·159 < 2^129`
/// is `l2 + h2·2^128`; the carries of `lo + l2 + m` and `h2` (at most 3 in
/// all) fold back as multiples of 159, and a wrap of that last addition
/// leaves a small value, so one more fold and one conditional subtraction end it.
#[inline]
pub fn mul_add128(k: u128, y: u128, m: u128) -> u128 {
    let (lo, hi) = mul_wide(k, y);
    let (l2, h2) = mul_wide(hi, 159);
    let (s, c1) = lo.overflowing_add(l2);
    let (s, c2) = s.overflowing_add(m);
    let c = h2 + c1 as u128 + c2 as u128;
    let (s, c3) = s.overflowing_add(c * 159);
    let s = s + c3 as u128 * 159;
    let (d, borrow) = s.overflowing_sub(P128);
    let keep = 0u128.wrapping_sub(borrow as u128);
    (s & keep) | (d & !keep)
}

/// One POLY128 word: `y ← k·y + m`, through the marker if `m ≥ 2^128 − 2^96`.
#[inline]
pub fn poly128_step(k: u128, y: u128, m: u128) -> u128 {
    if m >= MAX128 {
        mul_add128(k, mul_add128(k, y, P128 - 1), m - 159)
    } else {
        mul_add128(k, y, m)
    }
}
