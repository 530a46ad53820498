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

/// `x^n mod p` by square-and-multiply (for combining independently hashed
/// pieces: `S(a‖b) = S(a)·r^|b| + S(b)`).
pub fn pow_mod(x: u128, mut n: u64) -> u128 {
    let (mut acc, mut b) = (1u128, x);
    while n > 0 {
        if n & 1 == 1 {
            acc = mul_mod(acc, b);
        }
        b = mul_mod(b, b);
        n >>= 1;
    }
    acc
}

/// `v < p` reduced from any `v < 2^128`.
#[inline]
fn reduce(v: u128) -> u128 {
    let s = (v & P) + (v >> 127);
    if s >= P {
        s - P
    } else {
        s
    }
}

/// Absorb the little-endian signed words of `bytes` (length a multiple of 4)
/// into `v = r^(l+1) + m_0 r^l + … + m_{l−1} r` (or any partial sum of that
/// shape): each word `m` maps `v` to `(v + m)·r`. Two words share one
/// reduction: `(v + m_0)·r^2 + m_1·r`, with `r^2` given.
pub fn absorb(mut v: u128, r: u128, r2: u128, bytes: &[u8]) -> u128 {
    debug_assert!(bytes.len() % 4 == 0);
    let mut pairs = bytes.chunks_exact(8);
    for c in &mut pairs {
        let m0 = word_mod_p(i32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let m1 = word_mod_p(i32::from_le_bytes([c[4], c[5], c[6], c[7]]));
        v = add_mod(mul_mod(add_mod(v, m0), r2), mul_mod(m1, r));
    }
    for c in pairs.remainder().chunks_exact(4) {
        let m = word_mod_p(i32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        v = mul_mod(add_mod(v, m), r);
    }
    reduce(v)
}
