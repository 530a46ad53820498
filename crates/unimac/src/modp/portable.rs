//! Portable reduction of a long little-endian integer mod a secret 128-bit
//! prime: the dot product of "Other applications" (Bernstein, "Floating-point
//! arithmetic and message authentication", §1) on `u64` limbs.
//!
//! Write the integer as 64-bit limbs `x_0, x_1, …` and cut it into blocks of
//! [`K`] limbs, `M = Σ_{j<J} X_j T^j`, `T = 2^(64K)`. The blocks are read in
//! memory order, from the bottom up, as
//!
//! ```text
//! w ← (w + X_j)·T^-1 (mod p),   so that after the last block  w ≡ M·T^-J,
//! ```
//!
//! and one step is one dot product
//!
//! ```text
//! S = Σ_{i<K} x_i·c_i + w_0·c_0 + w_1·c_1,   c_i = 2^(64i + 128)·T^-1 mod p,
//! ```
//!
//! accumulated exactly in 256 bits with no reduction inside the block; two
//! Montgomery steps (`S ← (S + m p)/2^64`, each exact and ≡ `S·2^-64`)
//! cancel the `2^128` folded into the `c_i` and bring `S` back to two limbs.
//! At the end, `M ≡ w·T^J`: one exponentiation by the public block count.
//! Every step is branch-free in the key and the data (branches depend only on
//! lengths).

use crate::prelude::*;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Limbs per block.
pub const K: usize = 64;
/// Bytes per block.
pub const BLOCK_BYTES: usize = 8 * K;

/// What [`reduce`] needs of `p`: `p` itself, `−p^{-1} mod 2^64`,
/// `2^256 mod p`, `T = 2^(64K) mod p`, and `c_i = 2^(64i + 128)·T^-1 mod p`
/// for `i < K`, as (low, high) limbs.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct Tables {
    pub p: u128,
    pinv: u64,
    /// `2^256 mod p`.
    r2: u128,
    /// `T = 2^(64K) mod p`.
    t: u128,
    c: Vec<[u64; 2]>,
}

/// All ones if `x ≠ 0`, else 0; no branch.
#[inline(always)]
fn nonzero_mask(x: u128) -> u128 {
    0u128.wrapping_sub((x | x.wrapping_neg()) >> 127)
}

/// `2x mod p` for `x < p`: `2x < 2^129`, so the carry bit and one
/// conditional subtraction (by mask) finish it.
fn double_mod(x: u128, p: u128) -> u128 {
    let carry = x >> 127;
    let d = x << 1;
    let (t, borrow) = d.overflowing_sub(p);
    // 2x ≥ p iff the doubling carried out or the subtraction did not borrow.
    let take_t = 0u128.wrapping_sub(carry | (!borrow) as u128);
    (t & take_t) | (d & !take_t)
}

/// `r mod p` for any `r < 2^128` (and `p ≥ 2^120`, so `r < 2^8 p`): eight
/// conditional subtractions of `p·2^s`, `s = 7, …, 0`, by mask.
pub fn freeze(mut r: u128, p: u128) -> u128 {
    for s in (0..8u32).rev() {
        let lo = p << s;
        let hi = if s == 0 { 0 } else { p >> (128 - s) }; // s is public
        let (d, borrow) = r.overflowing_sub(lo);
        // r ≥ p·2^s iff the shifted prime fits in 128 bits and r − lo does not borrow.
        let take = !nonzero_mask(hi | borrow as u128);
        r = (d & take) | (r & !take);
    }
    r
}

/// Montgomery's step on a 256-bit `S = (lo, hi)`: `(S + m p)/2^64` with
/// `m = S_0·(−p^{-1}) mod 2^64`, exact (the low limb cancels) and
/// `≡ S·2^-64 (mod p)`; the result is `< S/2^64 + p`. `S + m p` may reach
/// `2^256 + 2^192` (for `S` near `p^2` and `p` near `2^128`): its top carry
/// is kept, as bit 192 of the result.
#[inline(always)]
fn redc_step(lo: u128, hi: u128, p: u128, pinv: u64) -> (u128, u128) {
    let m = (lo as u64).wrapping_mul(pinv) as u128;
    let t0 = m * (p as u64 as u128); // < 2^128
    let t1 = m * (p >> 64); // < 2^128
    // m·p = t0 + t1·2^64 as (mp_lo, mp_hi), < 2^192.
    let (mp_lo, c0) = t0.overflowing_add(t1 << 64);
    let mp_hi = (t1 >> 64) + c0 as u128;
    let (s_lo, c1) = lo.overflowing_add(mp_lo);
    let (s_hi, c2) = hi.overflowing_add(mp_hi);
    let (s_hi, c3) = s_hi.overflowing_add(c1 as u128);
    debug_assert_eq!(s_lo as u64, 0);
    ((s_lo >> 64) | (s_hi << 64), (s_hi >> 64) | (((c2 | c3) as u128) << 64))
}

impl Tables {
    /// The tables of an odd `p` with `2^120 ≤ p < 2^128` (checked by the caller).
    pub fn new(p: u128) -> Tables {
        debug_assert!(p & 1 == 1 && p >> 120 != 0);
        // −p^{-1} mod 2^64 by Newton's iteration: each step doubles the
        // correct low bits (p·p ≡ 1 mod 8 for odd p gives 3 to start).
        let p0 = p as u64;
        let mut inv = p0;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(inv)));
        }
        debug_assert_eq!(p0.wrapping_mul(inv), 1);
        // 2^128 mod p = 2·(2^127 mod p) (2^127 < 2^8 p), and 2^256 mod p by
        // 128 doublings: what `mont` needs before it can be used.
        let x128 = double_mod(freeze(1u128 << 127, p), p);
        let mut r2 = x128;
        for _ in 0..128 {
            r2 = double_mod(r2, p);
        }
        let mut t = Tables { p, pinv: inv.wrapping_neg(), r2, t: 0, c: Vec::new() };
        // T = 2^(64K) = (2^128)^(K/2).
        t.t = pow_mod(&t, x128, K as u64 / 2);
        // c_0 = 2^(128 − 64K) = 2^(−128·(K/2 − 1)): mont(x, 1) = x·2^-128.
        let mut x = 1u128;
        for _ in 0..K / 2 - 1 {
            x = mont(&t, x, 1);
        }
        let mut c = Vec::with_capacity(K);
        for _ in 0..K {
            c.push([x as u64, (x >> 64) as u64]);
            x = mul_mod(&t, x, 1 << 64);
        }
        t.c = c;
        t
    }

    /// `w ≡ (w + X)·T^-1 (mod p)` for one block `X` of `K` limbs (`x`, `8K`
    /// bytes, or fewer whole limbs for the top block), with `w < 2^128` in
    /// and out (not necessarily `< p`).
    #[inline(always)]
    fn block(&self, x: &[u8], v: u128) -> u128 {
        debug_assert!(x.len() <= BLOCK_BYTES && x.len().is_multiple_of(8));
        // Σ x_i c_i split as A + B·2^64, A = Σ x_i·c_i,lo and B = Σ x_i·c_i,hi,
        // each kept exactly as a u128 and a carry count: every product is
        // < 2^128 and there are K + 2 ≤ 2^64 of them, so the counts (< K + 2)
        // never overflow a u64 and the sums are exact.
        let (mut a, mut a2, mut b, mut b2) = (0u128, 0u64, 0u128, 0u64);
        // Two independent sets of sums over the even and odd limbs (more
        // independent carry chains in flight), added at the end.
        let (mut e, mut e2, mut f, mut f2) = (0u128, 0u64, 0u128, 0u64);
        let n = x.len() / 8;
        let (pairs, last) = x.split_at(n / 2 * 16);
        for (w, c) in pairs.chunks_exact(16).zip(self.c[..n / 2 * 2].chunks_exact(2)) {
            let w0 = u64::from_le_bytes(w[..8].try_into().expect("8 bytes")) as u128;
            let w1 = u64::from_le_bytes(w[8..].try_into().expect("8 bytes")) as u128;
            let (s, o) = a.overflowing_add(w0 * c[0][0] as u128);
            a = s;
            a2 += o as u64;
            let (s, o) = b.overflowing_add(w0 * c[0][1] as u128);
            b = s;
            b2 += o as u64;
            let (s, o) = e.overflowing_add(w1 * c[1][0] as u128);
            e = s;
            e2 += o as u64;
            let (s, o) = f.overflowing_add(w1 * c[1][1] as u128);
            f = s;
            f2 += o as u64;
        }
        for (w, c) in last.chunks_exact(8).zip(&self.c[n / 2 * 2..n]) {
            let w = u64::from_le_bytes(w.try_into().expect("8 bytes")) as u128;
            let (s, o) = a.overflowing_add(w * c[0] as u128);
            a = s;
            a2 += o as u64;
            let (s, o) = b.overflowing_add(w * c[1] as u128);
            b = s;
            b2 += o as u64;
        }
        let (s, o) = a.overflowing_add(e);
        a = s;
        a2 += e2 + o as u64;
        let (s, o) = b.overflowing_add(f);
        b = s;
        b2 += f2 + o as u64;
        // w = w_0 + w_1·2^64 enters at the block's limbs 0 and 1.
        for (w, c) in [v as u64, (v >> 64) as u64].into_iter().zip(&self.c[..2]) {
            let w = w as u128;
            let (s, o) = a.overflowing_add(w * c[0] as u128);
            a = s;
            a2 += o as u64;
            let (s, o) = b.overflowing_add(w * c[1] as u128);
            b = s;
            b2 += o as u64;
        }
        // S = a + a2·2^128 + (b + b2·2^128)·2^64 < (K + 2)·2^192, as (lo, hi).
        let (lo, c0) = a.overflowing_add(b << 64);
        let hi = a2 as u128 + (b >> 64) + ((b2 as u128) << 64) + c0 as u128;
        self.fold(lo, hi)
    }

    /// Two Montgomery steps and a conditional subtraction: from
    /// `S < (K + 2)·2^192` to `v ≡ S·2^-128 (mod p)` with `v < 2^128`.
    #[inline(always)]
    pub(super) fn fold(&self, lo: u128, hi: u128) -> u128 {
        // S1 < (K + 2)·2^128 + p < (K + 3)·2^128: fits (lo, hi) with room.
        let (lo, hi) = redc_step(lo, hi, self.p, self.pinv);
        // S2 < (K + 3)·2^64 + p < 2^128 + (K + 3)·2^64: 129 bits at most.
        let (lo, hi) = redc_step(lo, hi, self.p, self.pinv);
        // If S2 ≥ 2^128 then S2 − p < 2^128 + (K + 3)·2^64 − 2^120 < 2^128.
        let over = nonzero_mask(hi);
        (lo.wrapping_sub(self.p) & over) | (lo & !over)
    }

    /// The top, partial block (fewer than `8K` bytes, zero-padded to whole limbs).
    fn top(&self, x: &[u8], w: u128) -> u128 {
        let n = x.len().div_ceil(8) * 8;
        let mut buf = [0u8; BLOCK_BYTES];
        buf[..x.len()].copy_from_slice(x);
        let w = self.block(&buf[..n], w);
        buf[..n].zeroize();
        w
    }
}

/// `x^e mod p` for `x < p` by square-and-multiply over the bits of the
/// public exponent `e`.
pub fn pow_mod(t: &Tables, x: u128, mut e: u64) -> u128 {
    let (mut acc, mut b): (Option<u128>, u128) = (None, x);
    while e > 0 {
        if e & 1 == 1 {
            acc = Some(acc.map_or(b, |a| mul_mod(t, a, b)));
        }
        e >>= 1;
        if e > 0 {
            b = mul_mod(t, b, b);
        }
    }
    acc.unwrap_or_else(|| freeze(1, t.p))
}

/// The whole blocks `x` (a multiple of `8K` bytes) after `w`:
/// `w ← (w + X_j)·T^-1` for each. If `w ≡ A·2^(-8n)` for the `n` bytes read so
/// far, then afterwards `w ≡ A'·2^(-8n')` for the `n' = n + |x|` bytes.
pub fn absorb(t: &Tables, mut w: u128, x: &[u8]) -> u128 {
    debug_assert!(x.len().is_multiple_of(BLOCK_BYTES));
    for b in x.chunks_exact(BLOCK_BYTES) {
        w = t.block(b, w);
    }
    w
}

/// `M mod p` for `M` the little-endian integer of `m`, in `[0, p)`.
pub fn reduce(t: &Tables, m: &[u8]) -> u128 {
    let full = m.len() / BLOCK_BYTES * BLOCK_BYTES;
    let mut w = absorb(t, 0, &m[..full]);
    let top = &m[full..];
    if !top.is_empty() {
        w = t.top(top, w);
    }
    // w ≡ M·T^-J with J blocks.
    mul_mod(t, freeze(w, t.p), pow_mod(t, t.t, m.len().div_ceil(BLOCK_BYTES) as u64))
}

/// `(A + R·2^(8n)) mod p` from `w ≡ A·2^(-8n)` after `n` bytes (a multiple
/// of `8K`) and the rest `R` (`rest`, any length, already `mod p`):
/// `(w + R)·T^(n/8K)`.
pub fn finish(t: &Tables, w: u128, n: u64, rest: u128) -> u128 {
    debug_assert!(n.is_multiple_of(BLOCK_BYTES as u64));
    let s = add_mod(t, freeze(w, t.p), rest);
    if n == 0 {
        return s;
    }
    mul_mod(t, s, pow_mod(t, t.t, n / BLOCK_BYTES as u64))
}

/// `a·b·2^-128 mod p` for `a, b < p` (Montgomery's product): the 256-bit
/// product and two Montgomery steps, then one conditional subtraction.
#[inline]
pub(crate) fn mont(t: &Tables, a: u128, b: u128) -> u128 {
    let (lo, hi) = mul_wide(a, b);
    // ab < p^2: after one step < p(p/2^64 + 1), after the second
    // < p(p/2^128 + 2^-64 + 1) < 2p.
    // That is below 2^129 (p < 2^128): (lo, hi) with hi ≤ 1.
    let (lo, hi) = redc_step(lo, hi, t.p, t.pinv);
    let (lo, hi) = redc_step(lo, hi, t.p, t.pinv);
    debug_assert!(hi <= 1);
    // ≥ p iff bit 128 is set or lo − p does not borrow.
    let (d, borrow) = lo.overflowing_sub(t.p);
    let take_d = 0u128.wrapping_sub(hi | (!borrow) as u128);
    (d & take_d) | (lo & !take_d)
}

/// `(a + b) mod p` for `a, b < p`: `a + b < 2p < 2^129`, one conditional
/// subtraction by mask.
pub fn add_mod(t: &Tables, a: u128, b: u128) -> u128 {
    let (s, carry) = a.overflowing_add(b);
    let (d, borrow) = s.overflowing_sub(t.p);
    let take_d = 0u128.wrapping_sub(carry as u128 | (!borrow) as u128);
    (d & take_d) | (s & !take_d)
}

/// `a·b mod p` for `a, b < p`: `mont(mont(a, b), 2^256 mod p)`.
pub fn mul_mod(t: &Tables, a: u128, b: u128) -> u128 {
    mont(t, mont(t, a, b), t.r2)
}

/// The 256-bit product `a·b` as `(lo, hi)`.
#[inline(always)]
fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64 as u128, a >> 64);
    let (b0, b1) = (b as u64 as u128, b >> 64);
    let ll = a0 * b0;
    let lh = a0 * b1;
    let hl = a1 * b0;
    let hh = a1 * b1;
    let (mid, mc) = lh.overflowing_add(hl);
    let (lo, c1) = ll.overflowing_add(mid << 64);
    let hi = hh + (mid >> 64) + ((mc as u128) << 64) + c1 as u128;
    (lo, hi)
}

// The family's tests load keys, which needs random bases (`getrandom`).
#[cfg(all(test, feature = "getrandom"))]
mod tests {
    use super::super::{tests::differential, Backend};

    #[test]
    fn matches_the_big_integer_model() {
        differential(Backend::Portable, |k, w, x| super::absorb(&k.t, w, x));
    }
}
