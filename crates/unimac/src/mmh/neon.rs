//! MMH and NMH with NEON (aarch64): safe entry points that take the
//! [`Platform`] evidence the key's backend was chosen from and assert it
//! before their one `unsafe` call into `#[target_feature]` code.
//!
//! `mmh32xN`: each output's inner product `Σ m_i x_i mod 2^64` over the
//! block's 32 words is eight multiply-accumulates of four lanes
//! (`vmlal_u32` on the low two, `vmlal_high_u32` on the high two, into two
//! vectors of two 64-bit sums, which wrap mod `2^64` as Definition 5 asks);
//! output `j` reads the key from word `j` (the Toeplitz shift). `nmh32`:
//! `vuzp1q_u32` / `vuzp2q_u32` split eight words into the even and the odd
//! ones, so the
//! pairs `(m_{2i} + k_{2i})(m_{2i+1} + k_{2i+1})` are lane-wise products of
//! two sums (`vaddq_u32`, mod `2^32`); the key, the same for every block,
//! is split once. The reduction mod `2^32 + 15` is the portable one.
//!
//! No branch or memory index depends on the key or the message, only on
//! lengths.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::aarch64::*;

use super::portable::reduce32;
use super::K;
use crate::platform::{Feature, Platform};

/// `mmh32xN` of each 128-byte block of `blocks` (`key` has `31 + N` words,
/// `out` gets `4N` bytes a block), as [`super::portable::mmh32`].
pub(crate) fn mmh32(p: Platform, key: &[u32], blocks: &[u8], out: &mut [u8]) {
    assert!(p.has(Feature::Neon), "the NEON MMH kernel needs NEON evidence");
    let n = (key.len() + 1).saturating_sub(K);
    assert!((1..=4).contains(&n), "mmh32xN: 1 to 4 outputs");
    assert!(blocks.len().is_multiple_of(4 * K) && out.len() == blocks.len() / (4 * K) * 4 * n, "whole blocks");
    // SAFETY: the evidence `p` (only detection creates it) has NEON
    // (asserted above); the kernel reads whole blocks of `blocks` and the
    // key words `j..j + 32` for `j < n`, within `key.len() = 31 + n`.
    unsafe { mmh32_neon(key, n, blocks, out) }
}

/// # Safety
/// NEON must be present; `key` has `31 + n` words and `blocks` whole blocks.
#[target_feature(enable = "neon")]
unsafe fn mmh32_neon(key: &[u32], n: usize, blocks: &[u8], out: &mut [u8]) {
    let kp = key.as_ptr();
    for (block, o) in blocks.chunks_exact(4 * K).zip(out.chunks_exact_mut(4 * n)) {
        let bp = block.as_ptr();
        // SAFETY: `block` is 128 readable bytes; `vld1q_u8` needs no
        // alignment; the words are little-endian, as is aarch64 here.
        let m: [uint32x4_t; K / 4] = core::array::from_fn(|v| unsafe { vreinterpretq_u32_u8(vld1q_u8(bp.add(16 * v))) });
        for (j, oj) in o.chunks_exact_mut(4).enumerate() {
            let mut lo = vdupq_n_u64(0);
            let mut hi = vdupq_n_u64(0);
            for (v, &mv) in m.iter().enumerate() {
                // SAFETY: words `j + 4v .. j + 4v + 4` are within the key
                // (`j + 4v + 4 <= n − 1 + 32`).
                let x = unsafe { vld1q_u32(kp.add(j + 4 * v)) };
                lo = vmlal_u32(lo, vget_low_u32(mv), vget_low_u32(x));
                hi = vmlal_high_u32(hi, mv, x);
            }
            let s = vaddq_u64(lo, hi);
            let s = vgetq_lane_u64::<0>(s).wrapping_add(vgetq_lane_u64::<1>(s));
            oj.copy_from_slice(&reduce32(s).to_le_bytes());
        }
    }
}

/// `nmh32` of each 128-byte block (`key` has 32 words, 4 bytes out a
/// block), as [`super::portable::nmh32`].
pub(crate) fn nmh32(p: Platform, key: &[u32; K], blocks: &[u8], out: &mut [u8]) {
    assert!(p.has(Feature::Neon), "the NEON NMH kernel needs NEON evidence");
    assert!(blocks.len().is_multiple_of(4 * K) && out.len() == blocks.len() / (4 * K) * 4, "whole blocks");
    // SAFETY: the evidence `p` has NEON (asserted above); the kernel reads
    // the 32 key words and whole blocks of `blocks`.
    unsafe { nmh32_neon(key, blocks, out) }
}

/// # Safety
/// NEON must be present; `blocks` is whole blocks.
#[target_feature(enable = "neon")]
unsafe fn nmh32_neon(key: &[u32; K], blocks: &[u8], out: &mut [u8]) {
    let kp = key.as_ptr();
    // SAFETY: 8 words from `8v`, `v < 4`: within the 32 key words, which
    // are aligned as `u32`s.
    let k: [(uint32x4_t, uint32x4_t); K / 8] = core::array::from_fn(|v| {
        let (k0, k1) = unsafe { (vld1q_u32(kp.add(8 * v)), vld1q_u32(kp.add(8 * v + 4))) };
        (vuzp1q_u32(k0, k1), vuzp2q_u32(k0, k1))
    });
    for (block, o) in blocks.chunks_exact(4 * K).zip(out.chunks_exact_mut(4)) {
        let bp = block.as_ptr();
        let mut lo = vdupq_n_u64(0);
        let mut hi = vdupq_n_u64(0);
        for (v, kv) in k.iter().enumerate() {
            // SAFETY: 32 bytes from `32v`, `v < 4`, within the 128-byte
            // block; `vld1q_u8` needs no alignment; little-endian words.
            let (m0, m1) = unsafe {
                (vreinterpretq_u32_u8(vld1q_u8(bp.add(32 * v))), vreinterpretq_u32_u8(vld1q_u8(bp.add(32 * v + 16))))
            };
            let a = vaddq_u32(vuzp1q_u32(m0, m1), kv.0);
            let b = vaddq_u32(vuzp2q_u32(m0, m1), kv.1);
            lo = vmlal_u32(lo, vget_low_u32(a), vget_low_u32(b));
            hi = vmlal_high_u32(hi, a, b);
        }
        let s = vaddq_u64(lo, hi);
        let s = vgetq_lane_u64::<0>(s).wrapping_add(vgetq_lane_u64::<1>(s));
        o.copy_from_slice(&reduce32(s).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::differential, Backend};
    use crate::platform::{Feature, Platform};

    /// Both kernels against the definitions (the family's differential
    /// test: every N, random, all-ones and all-zero keys and blocks).
    #[test]
    fn neon_kernels_match_the_definitions() {
        let hw = Platform::hardware();
        if !hw.has(Feature::Neon) {
            crate::platform::skipped_kernel("neon");
            return;
        }
        differential(Backend::Neon, |c, out| match c.key.as_slice().try_into() {
            Ok(key) if c.outputs == 0 => super::nmh32(hw, key, &c.blocks, out),
            _ => super::mmh32(hw, &c.key, &c.blocks, out),
        });
    }
}
