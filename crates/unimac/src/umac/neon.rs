//! NH with NEON (aarch64): a safe entry point that takes the [`Platform`]
//! evidence the key's backend was chosen from and asserts it before its one
//! `unsafe` call into `#[target_feature]` code.
//!
//! A 32-byte group is two 128-bit vectors, the words `m_0..m_3` and
//! `m_4..m_7`. With the key's words added lane by lane (`vaddq_u32`, mod
//! `2^32`), NH's four products `(m_j + k_j)(m_{j+4} + k_{j+4})` are the
//! lane-wise 32×32→64-bit products of the two sums: `vmlal_u32` on the low
//! halves and `vmlal_high_u32` on the high halves, accumulated (mod `2^64`)
//! into two vectors of two 64-bit lanes per output. Each of the `N` outputs
//! reads the key four words further on (the Toeplitz shift), so the message
//! is loaded once for all of them. Two groups per step, so that the
//! multiply-accumulates of one group need not wait for the other's.
//!
//! No branch or memory index depends on the key or the message, only on
//! lengths.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::aarch64::*;

use super::nh::{NhKey, GROUP};
use crate::platform::{Feature, Platform};

/// Bytes per step of the kernel: two groups.
pub(crate) const STEP: usize = 2 * GROUP;

/// `out[t] = NH(key[4t..], msg)` for `t < N` over the whole steps of `msg`
/// (`msg.len()` a multiple of [`STEP`]); the key has at least
/// `msg.len()/4 + 4(N−1)` words.
pub(crate) fn nh<const N: usize>(p: Platform, key: &NhKey, msg: &[u8]) -> [u64; N] {
    assert!(p.has(Feature::Neon), "the NEON NH kernel needs NEON evidence");
    assert!((1..=4).contains(&N));
    assert!(msg.len().is_multiple_of(STEP), "whole NEON steps");
    let words = key.words();
    assert!(words.len() >= msg.len() / 4 + 4 * (N - 1), "NH key shorter than the message");
    // SAFETY: the evidence `p` (only detection creates it) has NEON
    // (asserted above); every load reads within `msg` (whole steps) or
    // within `words` (its length asserted above covers the last group's
    // words plus the `4(N−1)` of the shift).
    unsafe { nh_neon::<N>(words, msg) }
}

/// The sums of one group's two halves with the key at `k` (eight words).
///
/// # Safety
/// NEON must be present; `m` and `k` must point to 32 and 8·4 readable
/// bytes.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn sums(m: (uint32x4_t, uint32x4_t), k: *const u32) -> (uint32x4_t, uint32x4_t) {
    // SAFETY: `k` points to eight readable words (the caller's contract);
    // `vld1q_u32` needs a word's alignment, which a `u32` pointer has.
    let (ka, kb) = unsafe { (vld1q_u32(k), vld1q_u32(k.add(4))) };
    (vaddq_u32(m.0, ka), vaddq_u32(m.1, kb))
}

/// # Safety
/// NEON must be present; `msg` is whole steps and `words` holds at least
/// `msg.len()/4 + 4(N−1)` words.
#[target_feature(enable = "neon")]
unsafe fn nh_neon<const N: usize>(words: &[u32], msg: &[u8]) -> [u64; N] {
    // Two accumulators per output: the products of lanes 0 and 1 and those
    // of lanes 2 and 3.
    let mut lo = [vdupq_n_u64(0); N];
    let mut hi = [vdupq_n_u64(0); N];
    let kp = words.as_ptr();
    for (s, step) in msg.chunks_exact(STEP).enumerate() {
        let mp = step.as_ptr();
        // SAFETY: `step` is STEP = 64 readable bytes; `vld1q_u8` needs no
        // alignment. The words are little-endian, as NH reads them (RFC
        // 4418's ENDIAN-SWAP), and so is aarch64 here.
        let (g0, g1) = unsafe {
            (
                (vreinterpretq_u32_u8(vld1q_u8(mp)), vreinterpretq_u32_u8(vld1q_u8(mp.add(16)))),
                (vreinterpretq_u32_u8(vld1q_u8(mp.add(32))), vreinterpretq_u32_u8(vld1q_u8(mp.add(48)))),
            )
        };
        for t in 0..N {
            // Group 2s reads key words 16s + 4t .. + 8, group 2s + 1 the
            // next eight: within the asserted length.
            let k = 16 * s + 4 * t;
            // SAFETY: NEON is present (this function's feature); `k + 16`
            // words are within `words` (see above).
            let ((a0, b0), (a1, b1)) = unsafe { (sums(g0, kp.add(k)), sums(g1, kp.add(k + 8))) };
            lo[t] = vmlal_u32(lo[t], vget_low_u32(a0), vget_low_u32(b0));
            hi[t] = vmlal_high_u32(hi[t], a0, b0);
            lo[t] = vmlal_u32(lo[t], vget_low_u32(a1), vget_low_u32(b1));
            hi[t] = vmlal_high_u32(hi[t], a1, b1);
        }
    }
    core::array::from_fn(|t| {
        let s = vaddq_u64(lo[t], hi[t]);
        vgetq_lane_u64::<0>(s).wrapping_add(vgetq_lane_u64::<1>(s))
    })
}

#[cfg(test)]
mod tests {
    use crate::platform::{Backend as _, Feature, Platform};

    /// The NEON kernel is among the backends the NH differential test
    /// compares with the portable code (on every iteration count, every
    /// number of groups of a chunk, random, all-ones and all-zero inputs).
    #[test]
    fn neon_nh_is_compared_with_portable() {
        let hw = Platform::hardware();
        if !hw.has(Feature::Neon) {
            crate::platform::skipped_kernel("neon");
            return;
        }
        assert_eq!(super::super::Backend::for_platform(hw), super::super::Backend::Neon);
        assert!(crate::platform::backends::<super::super::Backend>().contains(&super::super::Backend::Neon));
        assert!(super::super::tests::check_nh() > 0);
    }
}
