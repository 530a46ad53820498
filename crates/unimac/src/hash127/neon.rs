//! hash127's radix-`2^26` columns with NEON (aarch64): the 96 multiply-adds
//! of a full block of `int26.rs` (`u_j += m_i · c_{i,j}` for the words
//! `m_1 … m_96` and the five limbs of `r^96 … r^1`) in lanes.
//!
//! Four words are one vector of signed 32-bit lanes; the key's limbs are
//! stored four powers at a time, limb by limb (`Table::cols`), so the four
//! powers of those words' limb `j` are one vector too, and the five limbs
//! of a quad two loads (`vld1q_s32_x4` and `vld1q_s32`). `vmlal_s32` / `vmlal_high_s32` multiply the
//! lanes exactly (32×32→64 bits, signed) and add them to two vectors of
//! two 64-bit sums per limb; the lanes are added at the end of the block.
//! The sums are those of the scalar code in another order, and every
//! partial sum is a sum of some of the block's terms, so the bound that
//! keeps the scalar sums exact in `i64` (`int26::block_bound`) keeps these
//! exact too. The product by `r^97`, the squeeze and the last, shorter
//! block stay scalar.
//!
//! A safe entry point takes the [`Platform`] evidence and asserts it before
//! the one `unsafe` call into `#[target_feature]` code. No branch or memory
//! index depends on the key or the message.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::aarch64::*;

use crate::platform::{Feature, Platform};

/// Limbs of an element (`int26::LIMBS`; `int26.rs` checks they agree).
pub(crate) const LIMBS: usize = 5;
/// The words after the first of a full block (`int26::BLOCK − 1`).
pub(crate) const REST: usize = 96;

/// An element's limbs, as `int26::Elem`.
type Elem = [i64; LIMBS];

/// The key's limbs in the layout of `Table::cols`.
pub(crate) type Cols = [[[i32; 4]; LIMBS]; REST / 4];

/// `u_j += Σ_i m_i · cols[j][i]` over the `REST` little-endian signed words
/// of `words` (`4·REST` bytes).
pub(crate) fn rest(p: Platform, cols: &Cols, words: &[u8], u: &mut Elem) {
    assert!(p.has(Feature::Neon), "the NEON hash127 kernel needs NEON evidence");
    assert_eq!(words.len(), 4 * REST, "a full block's words after the first");
    // SAFETY: the evidence `p` (only detection creates it) has NEON
    // (asserted above); the kernel reads the `4·REST` bytes of `words`
    // (asserted) and the entries of `cols`.
    let s = unsafe { rest_neon(cols, words) };
    for (x, y) in u.iter_mut().zip(s) {
        *x += y;
    }
}

/// # Safety
/// NEON must be present; `words` is `4·REST` bytes.
#[target_feature(enable = "neon")]
unsafe fn rest_neon(cols: &Cols, words: &[u8]) -> Elem {
    const { assert!(REST.is_multiple_of(4)) };
    let mut lo = [vdupq_n_s64(0); LIMBS];
    let mut hi = [vdupq_n_s64(0); LIMBS];
    let wp = words.as_ptr();
    for (q, quad) in cols.iter().enumerate() {
        // SAFETY: bytes `16q .. 16q + 16` of `words` (`q < REST/4`);
        // `vld1q_u8` needs no alignment; the words are little-endian, as
        // is aarch64 here.
        let m = unsafe { vreinterpretq_s32_u8(vld1q_u8(wp.add(16 * q))) };
        // SAFETY: `quad` is 5 × 4 contiguous `i32`s: limbs 0–3 are the
        // first 16, limb 4 the last 4; `i32` alignment suffices.
        let (c03, c4) = unsafe { (vld1q_s32_x4(quad.as_ptr() as *const i32), vld1q_s32(quad[4].as_ptr())) };
        let c = [c03.0, c03.1, c03.2, c03.3, c4];
        for j in 0..LIMBS {
            lo[j] = vmlal_s32(lo[j], vget_low_s32(m), vget_low_s32(c[j]));
            hi[j] = vmlal_high_s32(hi[j], m, c[j]);
        }
    }
    core::array::from_fn(|j| vaddvq_s64(vaddq_s64(lo[j], hi[j])))
}

#[cfg(test)]
mod tests {
    /// The NEON lanes against the big-integer model, through the family's
    /// one differential check (it says SKIPPED where the CPU has no NEON).
    #[test]
    fn matches_the_big_integer_model() {
        super::super::tests::differential(super::super::Backend::Neon);
    }
}
