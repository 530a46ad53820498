//! `POLY` of RFC 4418 §5.3: Horner's rule mod `p64 = 2^64 − 59` on 64-bit
//! words and mod `p128 = 2^128 − 159` on 128-bit words, `y ← k·y + m`, with
//! every word at or above `2^64 − 2^32` (resp. `2^128 − 2^96`) sent as the
//! marker `p − 1` followed by `m − offset`, so every word is below `p`.
//!
//! The keys are masked ([`MASK64`], [`MASK128`]) and below `2^57` and `2^121`.
//! No branch depends on the key, the accumulator or the message word. The
//! message word is an NH output, so it is secret too: the marker test is a
//! borrow turned into a mask, and every step does the marker path's two
//! multiplications, the first one's result kept only for a marked word.

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

/// All ones if `m ≥ max`, else zero, from the borrow of `m − max` (no branch).
#[inline]
fn ge_mask64(m: u64, max: u64) -> u64 {
    let (_, borrow) = m.overflowing_sub(max);
    (borrow as u64).wrapping_sub(1)
}

/// As [`ge_mask64`] on 128-bit words.
#[inline]
fn ge_mask128(m: u128, max: u128) -> u128 {
    let (_, borrow) = m.overflowing_sub(max);
    (borrow as u128).wrapping_sub(1)
}

/// One POLY64 word: `y ← k·y + m`, through the marker if `m ≥ 2^64 − 2^32`,
/// in constant time. Both cases take two steps: `y' = k·y + (p − 1)` for a
/// marked word, `y' = y` otherwise, then `k·y' + m'` with `m' = m − 59` for
/// a marked word (`2^64 − p64 = 59`), `m' = m` otherwise.
#[inline]
pub fn poly64_step(k: u64, y: u64, m: u64) -> u64 {
    let marked = ge_mask64(m, MAX64);
    let y1 = (mul_add64(k, y, P64 - 1) & marked) | (y & !marked);
    let m1 = (m.wrapping_sub(59) & marked) | (m & !marked);
    mul_add64(k, y1, m1)
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

/// One POLY128 word: `y ← k·y + m`, through the marker if `m ≥ 2^128 − 2^96`,
/// in constant time as [`poly64_step`] (`2^128 − p128 = 159`).
#[inline]
pub fn poly128_step(k: u128, y: u128, m: u128) -> u128 {
    let marked = ge_mask128(m, MAX128);
    let y1 = (mul_add128(k, y, P128 - 1) & marked) | (y & !marked);
    let m1 = (m.wrapping_sub(159) & marked) | (m & !marked);
    mul_add128(k, y1, m1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// RFC 4418's POLY step as written, with the branch on the word.
    fn poly64_step_ref(k: u64, y: u64, m: u64) -> u64 {
        if m >= MAX64 {
            mul_add64(k, mul_add64(k, y, P64 - 1), m - 59)
        } else {
            mul_add64(k, y, m)
        }
    }

    fn poly128_step_ref(k: u128, y: u128, m: u128) -> u128 {
        if m >= MAX128 {
            mul_add128(k, mul_add128(k, y, P128 - 1), m - 159)
        } else {
            mul_add128(k, y, m)
        }
    }

    #[test]
    fn masks() {
        for (m, want) in [(0, 0), (MAX64 - 1, 0), (MAX64, !0), (MAX64 + 1, !0), (u64::MAX, !0)] {
            assert_eq!(ge_mask64(m, MAX64), want, "m={m:x}");
        }
        for (m, want) in [(0, 0), (MAX128 - 1, 0), (MAX128, !0), (MAX128 + 1, !0), (u128::MAX, !0)] {
            assert_eq!(ge_mask128(m, MAX128), want, "m={m:x}");
        }
    }

    /// The masked steps equal the branchy ones on every pair of edge words
    /// (as `y` below `p`, and as `m`) and on random words, with edge and random keys.
    #[test]
    fn steps_match_reference() {
        let mut r = rand::rngs::StdRng::seed_from_u64(0x706f_6c79);
        let edges64 = [0, 1, 58, 59, P64 - 1, P64, MAX64 - 1, MAX64, MAX64 + 1, MAX64 + 59, u64::MAX - 1, u64::MAX];
        let edges128 = [0, 1, 158, 159, P128 - 1, P128, MAX128 - 1, MAX128, MAX128 + 1, MAX128 + 159, u128::MAX - 1, u128::MAX];
        let keys64 = [0, 1, MASK64, r.random::<u64>() & MASK64];
        let keys128 = [0, 1, MASK128, r.random::<u128>() & MASK128];
        for &k in &keys64 {
            for &y in &edges64 {
                let y = y.min(P64 - 1);
                for &m in &edges64 {
                    assert_eq!(poly64_step(k, y, m), poly64_step_ref(k, y, m), "k={k:x} y={y:x} m={m:x}");
                }
            }
        }
        for &k in &keys128 {
            for &y in &edges128 {
                let y = y.min(P128 - 1);
                for &m in &edges128 {
                    assert_eq!(poly128_step(k, y, m), poly128_step_ref(k, y, m), "k={k:x} y={y:x} m={m:x}");
                }
            }
        }
        for i in 0..100_000u32 {
            let k = r.random::<u64>() & MASK64;
            let y = r.random::<u64>() % P64;
            // Every fourth word in the marker range, which random words reach with probability 2^-32.
            let m = if i % 4 == 0 { MAX64 | r.random::<u32>() as u64 } else { r.random() };
            assert_eq!(poly64_step(k, y, m), poly64_step_ref(k, y, m), "k={k:x} y={y:x} m={m:x}");
            let k = r.random::<u128>() & MASK128;
            let y = r.random::<u128>() % P128;
            let m = if i % 4 == 0 { MAX128 | r.random::<u128>() >> 32 } else { r.random() };
            assert_eq!(poly128_step(k, y, m), poly128_step_ref(k, y, m), "k={k:x} y={y:x} m={m:x}");
        }
    }

    /// Chains of steps (the accumulator fed back, as in UMAC's L2) agree too.
    #[test]
    fn chains_match_reference() {
        let mut r = rand::rngs::StdRng::seed_from_u64(0x6c32);
        for _ in 0..200 {
            let (k64, k128) = (r.random::<u64>() & MASK64, r.random::<u128>() & MASK128);
            let (mut a, mut b, mut c, mut d) = (1u64, 1u64, 1u128, 1u128);
            for j in 0..64 {
                let m64 = if r.random::<bool>() { MAX64 | r.random::<u32>() as u64 } else { r.random() };
                let m128 = if j % 2 == 0 { MAX128 | r.random::<u128>() >> 32 } else { r.random() };
                a = poly64_step(k64, a, m64);
                b = poly64_step_ref(k64, b, m64);
                c = poly128_step(k128, c, m128);
                d = poly128_step_ref(k128, d, m128);
            }
            assert_eq!((a, c), (b, d));
        }
    }
}
