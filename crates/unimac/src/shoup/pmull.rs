//! PMULL paths (aarch64 with the `aes` feature, whose PMULL and PMULL2
//! instructions are 64×64-bit carry-less products): safe entry points that
//! take the [`Platform`] evidence the key's backend was chosen from and
//! assert it before their one `unsafe` call into `#[target_feature]` code.
//!
//! **eval128** (docs/WIRE.md §5): eight blocks per step over the powers
//! `α^8..α^1`, as in the PCLMULQDQ kernel (`clmul`), but schoolbook rather
//! than Karatsuba: each block costs four products (PMULL and PMULL2 against
//! the power and against the power with its halves swapped, precomputed
//! once per call), which needs no shuffle of the message block. The sums
//! `lo + mid·x^64 + hi·x^128` are reduced once per step by two dependent
//! products by `R = x^7 + x^2 + x + 1` ([`reduce128`]). Only block 0's
//! products depend on the state.
//!
//! **eval64 and division64** are the recurrence of `clmul`'s kernel
//! (`X ← X·β^16 + Σ b_j β^(16−j)`, the state kept unreduced as 128 bits and
//! folded by `β^16` and `x^64 β^16 mod m`; one Barrett reduction per
//! message), lane for lane: a 128-bit register holds two 8-byte blocks and
//! PMULL / PMULL2 multiply its low / high lane.
//!
//! Every function here is constant-time: no branch or memory index depends
//! on the key or the message, only on lengths.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::aarch64::*;

use super::keys::{Eval128Key, Ring64, STEP};
use crate::platform::Platform;

type V = uint64x2_t;

#[inline]
#[target_feature(enable = "neon,aes")]
fn from_u128(v: u128) -> V {
    // The lane order is little-endian like the u128.
    vreinterpretq_u64_p128(v)
}

#[inline]
#[target_feature(enable = "neon,aes")]
fn to_u128(v: V) -> u128 {
    vreinterpretq_p128_u64(v)
}

#[inline]
#[target_feature(enable = "neon")]
fn set(lo: u64, hi: u64) -> V {
    vcombine_u64(vcreate_u64(lo), vcreate_u64(hi))
}

/// 16 bytes as two little-endian 64-bit lanes.
#[inline]
#[target_feature(enable = "neon")]
fn load(b: &[u8]) -> V {
    let b: &[u8; 16] = b.try_into().expect("16 bytes");
    // SAFETY: `b` is 16 readable bytes; `vld1q_u8` needs no alignment
    // beyond a byte's.
    vreinterpretq_u64_u8(unsafe { vld1q_u8(b.as_ptr()) })
}

/// Low lane × low lane (PMULL).
#[inline]
#[target_feature(enable = "neon,aes")]
fn mul00(a: V, b: V) -> V {
    vreinterpretq_u64_p128(vmull_p64(vgetq_lane_u64::<0>(a), vgetq_lane_u64::<0>(b)))
}

/// High lane × high lane (PMULL2).
#[inline]
#[target_feature(enable = "neon,aes")]
fn mul11(a: V, b: V) -> V {
    vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)))
}

/// `a`'s halves swapped.
#[inline]
#[target_feature(enable = "neon")]
fn swap(a: V) -> V {
    vextq_u64::<1>(a, a)
}

macro_rules! x {
    ($a:expr, $b:expr) => {
        veorq_u64($a, $b)
    };
}

/// One carry-less product `x · y`.
///
/// Panics if the evidence `p` lacks PMULL.
#[inline]
pub(crate) fn clmul64(p: Platform, x: u64, y: u64) -> u128 {
    assert!(p.pmull(), "PMULL kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has neon and aes (asserted above).
    unsafe { clmul64_pmull(x, y) }
}

#[inline]
#[target_feature(enable = "neon,aes")]
fn clmul64_pmull(x: u64, y: u64) -> u128 {
    vmull_p64(x, y)
}

// ---------------------------------------------------------------- eval128 ----

/// The product sum `lo + mid·x^64 + hi·x^128` (`deg ≤ 254`) reduced modulo
/// `x^128 + x^7 + x^2 + x + 1`: with the 64-bit words `D_3..D_0` of the sum,
/// `D_3 x^192 ≡ D_3 R x^64` (≤ 71 bits, added to `D_2 D_1`), then
/// `D_2 x^128 ≡ D_2 R` (≤ 71 bits, added to `D_1 D_0`).
#[inline]
#[target_feature(enable = "neon,aes")]
fn reduce128(lo: V, mid: V, hi: V) -> V {
    let z = vdupq_n_u64(0);
    let r = vdupq_n_u64(super::gf128::R);
    let lo = x!(lo, vextq_u64::<1>(z, mid)); // D_1 D_0
    let hi = x!(hi, vextq_u64::<1>(mid, z)); // D_3 D_2
    let t = mul11(hi, r); // D_3 · R
    let lo = x!(lo, vextq_u64::<1>(z, t));
    let hi = x!(hi, vextq_u64::<1>(t, z)); // low lane: D_2 + (D_3 R)_hi
    x!(lo, mul00(hi, r))
}

/// The schoolbook partial products of `b · h` (`hs` is `h` with its halves
/// swapped) added to `[lo, mid, hi]`: four products.
#[inline]
#[target_feature(enable = "neon,aes")]
fn mul128_acc(b: V, h: V, hs: V, acc: &mut [V; 3]) {
    acc[0] = x!(acc[0], mul00(b, h));
    acc[2] = x!(acc[2], mul11(b, h));
    acc[1] = x!(acc[1], x!(mul00(b, hs), mul11(b, hs)));
}

/// eval128 blocks (`data.len()` a multiple of 16): eight blocks per step,
/// the rest in one shorter step; `acc` the reduced state `X`.
///
/// Panics if the evidence `p` (which only detection creates) lacks PMULL,
/// or if `data` is not whole blocks.
pub(crate) fn eval128_blocks(p: Platform, key: &Eval128Key, acc: u128, data: &[u8]) -> u128 {
    assert!(p.pmull(), "eval128: PMULL kernel without the evidence");
    assert_eq!(data.len() % 16, 0, "eval128: whole 16-byte blocks");
    // SAFETY: the evidence `p` (only detection creates it) has neon and aes (asserted above).
    unsafe { eval128_blocks_pmull(key, acc, data) }
}

#[target_feature(enable = "neon,aes")]
fn eval128_blocks_pmull(key: &Eval128Key, acc: u128, data: &[u8]) -> u128 {
    let pw = &key.desc[STEP - 8..];
    let h: [V; 8] = core::array::from_fn(|j| from_u128(pw[j]));
    let hs: [V; 8] = core::array::from_fn(|j| swap(h[j]));
    let mut x = from_u128(acc);
    let mut chunks = data.chunks_exact(128);
    for c in &mut chunks {
        let mut v: [V; 8] = core::array::from_fn(|j| load(&c[16 * j..16 * j + 16]));
        v[0] = x!(v[0], x);
        let z = vdupq_n_u64(0);
        let mut a = [z, z, z];
        // Blocks 7..1 first: only block 0's products depend on the state.
        for j in (0..8).rev() {
            mul128_acc(v[j], h[j], hs[j], &mut a);
        }
        x = reduce128(a[0], a[1], a[2]);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        x = eval128_step(key, x, rest, None);
    }
    to_u128(x)
}

/// One aggregated step over the blocks of `data` and then `last` if given,
/// `k ≤ 32` blocks in all: `(X + b_0)·α^k + b_1·α^(k−1) + … + b_(k−1)·α`,
/// reduced.
#[inline]
#[target_feature(enable = "neon,aes")]
fn eval128_step(key: &Eval128Key, x: V, data: &[u8], last: Option<u128>) -> V {
    let k = data.len() / 16 + usize::from(last.is_some());
    assert!(k <= STEP && data.len().is_multiple_of(16), "eval128: at most one step of whole blocks");
    let pw = &key.desc[STEP - k..];
    let z = vdupq_n_u64(0);
    let mut a = [z, z, z];
    let mut add = |j: usize, b: V| {
        let b = if j == 0 { x!(b, x) } else { b };
        let h = from_u128(pw[j]);
        mul128_acc(b, h, swap(h), &mut a);
    };
    for (j, b) in data.chunks_exact(16).enumerate() {
        add(j, load(b));
    }
    if let Some(l) = last {
        add(k - 1, from_u128(l));
    }
    reduce128(a[0], a[1], a[2])
}

/// A whole short message in one aggregated step: the blocks of `data` (a
/// multiple of 16 bytes) and then the block `last`, `k = data.len()/16 + 1 ≤ 32`
/// blocks in all, from the initial state `α`:
/// `α^(k+1) + b_0 α^k + … + b_(k−2) α^2 + last·α`, reduced once.
///
/// Panics if the evidence `p` lacks PMULL or if `data` is too long.
pub(crate) fn eval128_short(p: Platform, key: &Eval128Key, data: &[u8], last: u128) -> u128 {
    assert!(p.pmull(), "eval128: PMULL kernel without the evidence");
    assert!(data.len().is_multiple_of(16) && data.len() / 16 < STEP, "eval128: a short message is fewer than 32 blocks");
    // SAFETY: the evidence `p` (only detection creates it) has neon and aes (asserted above).
    unsafe { eval128_short_pmull(key, data, last) }
}

#[target_feature(enable = "neon,aes")]
fn eval128_short_pmull(key: &Eval128Key, data: &[u8], last: u128) -> u128 {
    to_u128(eval128_step(key, from_u128(key.alpha()), data, Some(last)))
}

// ------------------------------------------------- eval64 and division64 ----

/// eval64 / division64 blocks: `data.len()` a multiple of 8; `acc` the
/// unreduced state `X` (≡ the true state mod `m`).
///
/// Panics if the evidence `p` lacks PMULL.
pub(crate) fn ring_blocks(p: Platform, key: &Ring64, acc: u128, data: &[u8]) -> u128 {
    assert!(p.pmull(), "PMULL kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has neon and aes (asserted above).
    unsafe { ring_blocks_pmull(key, acc, data) }
}

#[target_feature(enable = "neon,aes")]
fn ring_blocks_pmull(key: &Ring64, acc: u128, data: &[u8]) -> u128 {
    assert!(data.len().is_multiple_of(8), "whole 8-byte blocks");
    let pw = &key.pow;
    // q[i] multiplies blocks 2i, 2i+1 of a 16-block step: β^(16−2i), β^(15−2i).
    let q: [V; 8] = core::array::from_fn(|i| set(pw[16 - 2 * i], pw[15 - 2 * i]));
    let st = set(pw[16], key.fold[16]);
    let lo_lane = set(u64::MAX, 0);
    let mut a = from_u128(acc);
    let mut chunks = data.chunks_exact(128);
    for c in &mut chunks {
        let v: [V; 8] = core::array::from_fn(|i| load(&c[16 * i..16 * i + 16]));
        let prod = |v: V, q: V| x!(mul00(v, q), mul11(v, q));
        // The block products do not depend on the state: sum them first
        // (block 0's product by β^16 is folded into the state's).
        let t = x!(
            x!(x!(mul11(v[0], q[0]), prod(v[1], q[1])), x!(prod(v[2], q[2]), prod(v[3], q[3]))),
            x!(x!(prod(v[4], q[4]), prod(v[5], q[5])), x!(prod(v[6], q[6]), prod(v[7], q[7])))
        );
        let a0 = x!(a, vandq_u64(v[0], lo_lane)); // X_lo + b_0 | X_hi
        a = x!(t, x!(mul00(a0, st), mul11(a0, st)));
    }
    // Up to fifteen blocks left: one step of their number, `k`, with `β^k`
    // and `x^64 β^k`.
    let rest = chunks.remainder();
    let k = rest.len() / 8;
    if k > 0 {
        let b = |j: usize| u64::from_le_bytes(rest[8 * j..8 * j + 8].try_into().expect("8 bytes"));
        let a0 = x!(a, set(b(0), 0));
        let sk = set(pw[k], key.fold[k]);
        let mut t = x!(mul00(a0, sk), mul11(a0, sk));
        for j in 1..k {
            t = x!(t, from_u128(vmull_p64(b(j), pw[k - j])));
        }
        a = t;
    }
    to_u128(a)
}

/// `acc mod m` by Barrett reduction (two products).
///
/// Panics if the evidence `p` lacks PMULL.
pub(crate) fn ring_finish(p: Platform, key: &Ring64, acc: u128) -> u64 {
    assert!(p.pmull(), "PMULL kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has neon and aes (asserted above).
    unsafe { ring_finish_pmull(key, acc) }
}

#[target_feature(enable = "neon,aes")]
fn ring_finish_pmull(key: &Ring64, acc: u128) -> u64 {
    let h = (acc >> 64) as u64;
    let q = h ^ (vmull_p64(h, key.m.mu) >> 64) as u64;
    (acc as u64) ^ (vmull_p64(q, key.m.lo) as u64)
}

#[cfg(test)]
mod tests {
    /// The family's differential test, which covers this kernel wherever
    /// the CPU has it.
    #[test]
    fn agrees_with_portable() {
        assert!(super::super::tests::check_kernels() > 0);
    }

    /// Without the evidence the entry points refuse to run.
    #[test]
    #[should_panic(expected = "kernel without the evidence")]
    fn refuses_without_evidence() {
        let p = crate::platform::Platform::portable();
        let _ = super::clmul64(p, 1, 1);
    }
}
