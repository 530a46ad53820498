//! Portable exact arithmetic mod `p = 2^127 − 1` on `u128`, no floating point.

use crate::prelude::*;
use super::P;

/// `s mod p` for `s <= 2^127`, without a branch on `s` (constant time): the
/// sign of `s − p` (exact as `i128`, since `|s − p| < 2^127`) picks the result.
#[inline]
fn sub_p_if_ge(s: u128) -> u128 {
    let d = s.wrapping_sub(P);
    let keep_s = ((d as i128) >> 127) as u128; // all ones iff s < p
    (d & !keep_s) | (s & keep_s)
}

/// `(a + b) mod p` for `a, b < p`, and more generally for any `a, b` whose
/// sum is below `2^128` (one fold leaves at most `2^127`).
#[inline]
pub fn add_mod(a: u128, b: u128) -> u128 {
    let s = a + b; // < 2^128
    sub_p_if_ge((s & P) + (s >> 127))
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
    sub_p_if_ge((s & P) + (s >> 127))
}

/// `m mod p` for a signed word (no branch on `m`): for `m < 0`,
/// `2^128 + m` wraps to `p + m` when `p` is added.
#[inline]
pub fn word_mod_p(m: i32) -> u128 {
    let x = m as i128 as u128;
    x.wrapping_add(P & ((m >> 31) as i128 as u128))
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
    debug_assert!(bytes.len().is_multiple_of(4));
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

/// The per-key constants of [`absorb`]: `r^1 … r^4 mod p`, and
/// `c = −2^31 (r^4 + r^3 + r^2 + r) mod p`, which undoes the offset that
/// makes the words non-negative.
#[derive(Clone, Copy, Default, zeroize::Zeroize)]
pub struct Powers {
    r: [u128; 4],
    c: u128,
}

impl Powers {
    /// Expand `r < p`.
    pub fn new(r: u128) -> Powers {
        let r2 = mul_mod(r, r);
        let r3 = mul_mod(r2, r);
        let r4 = mul_mod(r3, r);
        let sum = add_mod(add_mod(r, r2), add_mod(r3, r4));
        let off = mul_mod(sum, 1 << 31);
        Powers { r: [r, r2, r3, r4], c: sub_p_if_ge(P - off) }
    }
}

/// `x = hi·2^128 + lo` mod p, for `hi < 2^127`.
#[inline]
fn reduce256(lo: u128, hi: u128) -> u128 {
    // 2^128 ≡ 2 (mod p).
    let lo_r = (lo & P) + (lo >> 127); // <= 2^127
    let (s, c) = lo_r.overflowing_add(hi << 1);
    // On overflow the wrapped sum is small (< 2^127), so adding 2 is safe.
    let s = s + 2 * c as u128;
    sub_p_if_ge((s & P) + (s >> 127))
}

/// `a·b` as 256 bits `(lo, hi)` (any `a, b < 2^128`; UMAC's POLY128 and
/// VHASH's polynomial use it too).
#[inline]
pub(crate) fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64 as u128, a >> 64);
    let (b0, b1) = (b as u64 as u128, b >> 64);
    let ll = a0 * b0;
    let (mid, mc) = (a0 * b1).overflowing_add(a1 * b0);
    let (lo, c1) = ll.overflowing_add(mid << 64);
    let hi = a1 * b1 + (mid >> 64) + ((mc as u128) << 64) + c1 as u128;
    (lo, hi)
}

#[inline]
fn word(c: &[u8]) -> i32 {
    i32::from_le_bytes([c[0], c[1], c[2], c[3]])
}

/// Absorb the little-endian signed words of `bytes` (length a multiple of 4)
/// into `v = r^(l+1) + m_0 r^l + … + m_{l−1} r` (or any partial sum of that
/// shape): each word `m` maps `v` to `(v + m)·r`.
///
/// Four words share one reduction: with `u_k = m_k + 2^31 ∈ [0, 2^32)`,
/// `v' = v·r^4 + u_0 r^4 + u_1 r^3 + u_2 r^2 + u_3 r + c (mod p)`. The
/// unreduced sum is below `2^254 + 4·2^32·2^127 + 2^127 < 2^255`, so it fits
/// the 256-bit accumulator with `hi < 2^127`.
pub fn absorb(mut v: u128, pw: &Powers, bytes: &[u8]) -> u128 {
    debug_assert!(bytes.len().is_multiple_of(4));
    let mut blocks = bytes.chunks_exact(16);
    for b in &mut blocks {
        let (mut lo, mut hi) = mul_wide(v, pw.r[3]);
        // Σ u_k·r^(4−k), split as A + B·2^64 with A = Σ u_k·(r^(4−k) mod 2^64)
        // < 2^98 and B = Σ u_k·(r^(4−k) >> 64) < 2^97.
        let (mut a, mut bb) = (0u128, 0u128);
        for k in 0..4 {
            let u = (word(&b[4 * k..]) as u32 ^ 0x8000_0000) as u128;
            let rk = pw.r[3 - k];
            a += u * (rk as u64 as u128);
            bb += u * (rk >> 64);
        }
        for add in [a, bb << 64, pw.c] {
            let (l, c) = lo.overflowing_add(add);
            lo = l;
            hi += c as u128;
        }
        hi += bb >> 64;
        v = reduce256(lo, hi);
    }
    for c in blocks.remainder().chunks_exact(4) {
        v = mul_mod(add_mod(v, word_mod_p(word(c))), pw.r[0]);
    }
    v
}

/// Messages of at most this many words (the padding word included) take the
/// short path ([`short`]) once a key has its [`ShortPowers`].
pub const SHORT_WORDS: usize = 257;

/// The per-key constants of the short path: the powers `r^SHORT_WORDS …
/// r^1` in descending order, split into low and high 64-bit halves (word `i`
/// of an `l`-word message takes entry `SHORT_WORDS − l + i`, so a message
/// reads them forward from an offset), and for each word count `l`,
/// `d_l = r^(l+1) − 2^31 (r^l + … + r) + k mod p`: the leading power, the
/// correction of the offset that makes the words non-negative, and `k`.
pub struct ShortPowers {
    lo: [u64; SHORT_WORDS],
    hi: [u64; SHORT_WORDS],
    d: [u128; SHORT_WORDS + 1],
    /// The same powers in [`LIMBS`] limbs of [`LIMB_BITS`] bits (limb `k` of
    /// entry `t` at `limbs[k][t]`), for the vector kernels: a 32-bit word
    /// times a limb is below 2^56, so 256 of them sum in a 64-bit lane.
    pub(crate) limbs: [[u64; SHORT_WORDS]; LIMBS],
}

/// Limbs of the vector kernels' powers (see [`ShortPowers`]).
pub const LIMBS: usize = 6;
/// Bits per limb: `6 × 24 = 144 ≥ 127`.
pub const LIMB_BITS: u32 = 24;

impl zeroize::Zeroize for ShortPowers {
    fn zeroize(&mut self) {
        self.lo.zeroize();
        self.hi.zeroize();
        self.d.zeroize();
        for l in self.limbs.iter_mut() {
            l.zeroize();
        }
    }
}

impl Drop for ShortPowers {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self);
    }
}

impl ShortPowers {
    /// Expand `r, k < p` (about `2·SHORT_WORDS` multiplications mod `p`).
    pub fn new(r: u128, k: u128) -> Box<ShortPowers> {
        let mut s = Box::new(ShortPowers {
            lo: [0; SHORT_WORDS],
            hi: [0; SHORT_WORDS],
            d: [0; SHORT_WORDS + 1],
            limbs: [[0; SHORT_WORDS]; LIMBS],
        });
        let mut x = 1u128; // r^j
        let mut sum = 0u128; // r + … + r^j
        for j in 0..=SHORT_WORDS {
            // Here x = r^j and sum = r + … + r^j.
            let next = mul_mod(x, r);
            s.d[j] = add_mod(add_mod(next, sub_p_if_ge(P - mul_mod(sum, 1 << 31))), k);
            if j > 0 {
                s.lo[SHORT_WORDS - j] = x as u64;
                s.hi[SHORT_WORDS - j] = (x >> 64) as u64;
                for k in 0..LIMBS {
                    s.limbs[k][SHORT_WORDS - j] = ((x >> (LIMB_BITS as usize * k)) as u64) & ((1 << LIMB_BITS) - 1);
                }
            }
            x = next;
            sum = add_mod(sum, x);
        }
        s
    }
}

/// `r^(l+1) + m_0 r^l + … + m_{l−1} r + k mod p` for the `l` signed words of
/// `words` (then `tail`, if given, as the last word), `l ≤ SHORT_WORDS`:
/// the words' products with the precomputed powers are independent, so they
/// run in parallel, and the sum is reduced once.
///
/// With `u_i = m_i + 2^31 ∈ [0, 2^32)` and `r^j = h_j·2^64 + g_j`, the sum
/// `Σ u_i r^(l−i)` is `A + B·2^64` with `A = Σ u_i g_{l−i} < 257·2^96` and
/// `B = Σ u_i h_{l−i} < 257·2^95`, both exact in `u128`.
#[inline]
pub fn short(sp: &ShortPowers, words: &[u8], tail: Option<i32>) -> u128 {
    short_from(sp, words, tail, 0, 0)
}

/// [`short`] when the first `head` words of `words` are already summed (by a
/// vector kernel, over the same powers) into `head_value < p`.
#[inline]
pub fn short_from(sp: &ShortPowers, words: &[u8], tail: Option<i32>, head: usize, head_value: u128) -> u128 {
    short_sums(sp, words, tail, head, 0, 0, head_value)
}

/// [`short`] when the first `head` words of `words` are already summed by a
/// vector kernel (over the same powers) into the limb columns `cols`,
/// `Σ_k cols[k]·2^(24k)` (each below 2^64): the columns join the scalar
/// sums `A` and `B` exactly, so the message is reduced once (not once per
/// column, as [`columns_mod_p`] does).
#[inline]
pub fn short_from_columns(sp: &ShortPowers, words: &[u8], tail: Option<i32>, head: usize, cols: &[u64; LIMBS]) -> u128 {
    const { assert!(LIMBS == 6 && LIMB_BITS == 24) };
    // Columns 0–2 (shifts 0, 24, 48) into `A`: below 2^113. Columns 3–5
    // (shifts 72, 96, 120 = 64 + 8, 32, 56) into `B`, the multiple of 2^64:
    // below 2^121.
    let a = cols[0] as u128 + ((cols[1] as u128) << 24) + ((cols[2] as u128) << 48);
    let b = ((cols[3] as u128) << 8) + ((cols[4] as u128) << 32) + ((cols[5] as u128) << 56);
    short_sums(sp, words, tail, head, a, b, 0)
}

/// The body of [`short_from`], the sums starting from `a0 < 2^113` and
/// `b0 < 2^121`.
#[inline(always)]
fn short_sums(sp: &ShortPowers, words: &[u8], tail: Option<i32>, head: usize, a0: u128, b0: u128, head_value: u128) -> u128 {
    debug_assert!(words.len().is_multiple_of(4));
    let l = words.len() / 4 + tail.is_some() as usize;
    assert!(l <= SHORT_WORDS && head <= words.len() / 4, "the short path takes at most {SHORT_WORDS} words");
    let off = SHORT_WORDS - l + head;
    let (mut a, mut b) = (a0, b0);
    for ((c, &g), &h) in words[4 * head..].chunks_exact(4).zip(&sp.lo[off..]).zip(&sp.hi[off..]) {
        let u = (word(c) as u32 ^ 0x8000_0000) as u64;
        a += u as u128 * g as u128;
        b += u as u128 * h as u128;
    }
    if let Some(w) = tail {
        let u = (w as u32 ^ 0x8000_0000) as u64;
        a += u as u128 * sp.lo[SHORT_WORDS - 1] as u128;
        b += u as u128 * sp.hi[SHORT_WORDS - 1] as u128;
    }
    // A + B·2^64 = A + (B mod 2^64)·2^64 + (B >> 64)·2^128, and 2^128 ≡ 2.
    // Here A < 2^113 + 257·2^96 and B < 2^121 + 257·2^95, so B >> 64 < 2^58.
    let (s, carry) = a.overflowing_add((b as u64 as u128) << 64);
    let s = (s & P) + (s >> 127) + 2 * (b >> 64) + 2 * carry as u128; // < 2^127 + 2^60
    add_mod(add_mod(sub_p_if_ge((s & P) + (s >> 127)), head_value), sp.d[l])
}

/// `Σ cols[k]·2^(25k) mod p` (any 64-bit column sums): each column rotated
/// into place within 127 bits (`2^127 ≡ 1`), then added mod `p`.
#[inline]
pub fn columns_mod_p(cols: &[u64; LIMBS]) -> u128 {
    let mut v = 0u128;
    for (k, &c) in cols.iter().enumerate() {
        let s = LIMB_BITS as usize * k;
        let x = c as u128;
        let rot = if s == 0 { x } else { ((x << s) & P) | (x >> (127 - s)) };
        v = add_mod(v, sub_p_if_ge(rot));
    }
    v
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_big_integer_model() {
        super::super::tests::differential(super::super::Backend::Portable);
    }
}
