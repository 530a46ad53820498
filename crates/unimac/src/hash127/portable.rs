//! Portable exact arithmetic mod `p = 2^127 − 1` on `u128`, no floating point.

use super::P;

/// `(a + b) mod p` for `a, b < p`.
#[inline]
pub fn add_mod(a: u128, b: u128) -> u128 {
    let s = a + b; // < 2^128
    let s = (s & P) + (s >> 127);
    if s >= P {
        s - P
    } else {
        s
    }
}

/// `(a · b) mod p` for `a, b < 2^127`.
#[inline]
pub fn mul_mod(a: u128, b: u128) -> u128 {
    let (a0, a1) = (a as u64 as u128, a >> 64);
    let (b0, b1) = (b as u64 as u128, b >> 64);
    // 256-bit product hi·2^128 + lo.
    let ll = a0 * b0;
    let lh = a0 * b1;
    let hl = a1 * b0;
    let hh = a1 * b1;
    let (mid, mid_carry) = lh.overflowing_add(hl);
    let (lo, c1) = ll.overflowing_add(mid << 64);
    let hi = hh + (mid >> 64) + ((mid_carry as u128) << 64) + c1 as u128;
    // x = hi 2^128 + lo ≡ 2 hi + lo (mod p), with 2^128 ≡ 2; hi < 2^126.
    let lo_r = (lo & P) + (lo >> 127); // < 2^127 + 1
    let s = lo_r + (hi << 1); // < 2^128
    let s = (s & P) + (s >> 127);
    if s >= P {
        s - P
    } else {
        s
    }
}

/// `m mod p` for a signed word.
#[inline]
pub fn word_mod_p(m: i32) -> u128 {
    if m < 0 {
        P - (-(m as i64)) as u128
    } else {
        m as u128
    }
}

/// Horner's rule over signed words: `acc ← acc·r + m_i` for each word.
pub fn horner_words(mut acc: u128, r: u128, m: &[i32]) -> u128 {
    for &w in m {
        acc = add_mod(mul_mod(acc, r), word_mod_p(w));
    }
    acc
}

/// [`horner_words`] over the little-endian words of `bytes` (length a multiple of 4).
pub fn horner_bytes(mut acc: u128, r: u128, bytes: &[u8]) -> u128 {
    debug_assert!(bytes.len() % 4 == 0);
    for c in bytes.chunks_exact(4) {
        let w = i32::from_le_bytes(c.try_into().unwrap());
        acc = add_mod(mul_mod(acc, r), word_mod_p(w));
    }
    acc
}
