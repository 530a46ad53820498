//! NEON path of gdivision64 (aarch64; a safe entry point that asserts the
//! [`Platform`] evidence).
//!
//! The algorithm of the GFNI path (`gfni.rs`): multiplication by a fixed
//! `C ∈ K[z]/(P)` is the K-linear map `B ↦ Σ_i b_i (z^i C mod P)`, and
//! sixteen blocks are aggregated per step over the columns of
//! `β^16..β^1` (`β = z^8 mod P`),
//!
//! `X' = X·β^16 + B_0 β^16 + B_1 β^15 + … + B_15 β`.
//!
//! NEON has no multiplication in `K = GF(2^8)`, but `vmull_p8` (PMULL on
//! bytes, part of Advanced SIMD) gives the eight carry-less 8×8-bit
//! products of a coefficient broadcast against a column, unreduced, in
//! 16-bit lanes. Carry-less products add by XOR, so a whole step's
//! products are summed unreduced and reduced once, modulo
//! `x^8 + x^4 + x^3 + x + 1`, by two more products by `0x1b` (the high
//! byte, at most seven bits, then at most three). The result is reduced
//! like the GFNI path's, so the state needs no finishing step.
//!
//! No branch or memory index depends on the key or the message, only on
//! lengths.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::aarch64::*;

use super::gdiv::GKey;
use crate::platform::{Feature, Platform};

/// gdivision64 blocks: `acc` is the reduced state `X` (byte `k` = coefficient
/// of `z^k`), `data.len()` a multiple of 8.
///
/// Panics if the evidence `p` lacks NEON.
pub(crate) fn g_blocks(p: Platform, key: &GKey, acc: u128, data: &[u8]) -> u128 {
    assert!(p.has(Feature::Neon), "NEON kernel without the evidence");
    assert!(data.len().is_multiple_of(8), "whole 8-byte blocks");
    // SAFETY: the evidence `p` (only detection creates it) has NEON
    // (asserted above); the kernel reads whole blocks of `data`.
    unsafe { g_blocks_neon(key, acc as u64, data) as u128 }
}

/// The eight columns `z^i β^k mod P` as byte vectors.
#[inline]
#[target_feature(enable = "neon")]
fn cols(key: &GKey, k: usize) -> [poly8x8_t; 8] {
    core::array::from_fn(|i| vcreate_p8(key.gfni[k][i]))
}

/// `acc ⊕ Σ_i c_i · m_i`, unreduced, for the coefficients `c_i` in lane `i`
/// of `c`: each coefficient broadcast against its column.
#[inline]
#[target_feature(enable = "neon")]
fn times(acc: uint16x8_t, c: uint8x8_t, m: &[poly8x8_t; 8]) -> uint16x8_t {
    let c = vreinterpret_p8_u8(c);
    let t0 = veorq_u16(
        vreinterpretq_u16_p16(vmull_p8(vdup_lane_p8::<0>(c), m[0])),
        vreinterpretq_u16_p16(vmull_p8(vdup_lane_p8::<1>(c), m[1])),
    );
    let t1 = veorq_u16(
        vreinterpretq_u16_p16(vmull_p8(vdup_lane_p8::<2>(c), m[2])),
        vreinterpretq_u16_p16(vmull_p8(vdup_lane_p8::<3>(c), m[3])),
    );
    let t2 = veorq_u16(
        vreinterpretq_u16_p16(vmull_p8(vdup_lane_p8::<4>(c), m[4])),
        vreinterpretq_u16_p16(vmull_p8(vdup_lane_p8::<5>(c), m[5])),
    );
    let t3 = veorq_u16(
        vreinterpretq_u16_p16(vmull_p8(vdup_lane_p8::<6>(c), m[6])),
        vreinterpretq_u16_p16(vmull_p8(vdup_lane_p8::<7>(c), m[7])),
    );
    veorq_u16(acc, veorq_u16(veorq_u16(t0, t1), veorq_u16(t2, t3)))
}

/// Sixteen-bit carry-less sums (degree ≤ 14) reduced modulo
/// `x^8 + x^4 + x^3 + x + 1`, byte by byte.
#[inline]
#[target_feature(enable = "neon")]
fn reduce(t: uint16x8_t) -> uint8x8_t {
    let r = vdup_n_p8(0x1b);
    // x^8 ≡ x^4 + x^3 + x + 1: the high byte (degree ≤ 6) times 0x1b has
    // degree ≤ 10; its high part (degree ≤ 2) times 0x1b fits a byte.
    let hi = vreinterpret_p8_u8(vshrn_n_u16::<8>(t));
    let u = veorq_u16(vmovl_u8(vmovn_u16(t)), vreinterpretq_u16_p16(vmull_p8(hi, r)));
    let hi = vreinterpret_p8_u8(vshrn_n_u16::<8>(u));
    veor_u8(vmovn_u16(u), vmovn_u16(vreinterpretq_u16_p16(vmull_p8(hi, r))))
}

/// A block's coefficients in lane order: block byte `j` is the coefficient
/// of `z^(7−j)`, so the bytes are reversed.
///
/// # Safety
/// `b` must point to 8 readable bytes.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn block(b: *const u8) -> uint8x8_t {
    // SAFETY: 8 readable bytes (the caller's contract); `vld1_u8` needs no
    // alignment.
    vrev64_u8(unsafe { vld1_u8(b) })
}

/// # Safety
/// NEON must be present; `data` is whole 8-byte blocks.
#[target_feature(enable = "neon")]
unsafe fn g_blocks_neon(key: &GKey, acc: u64, data: &[u8]) -> u64 {
    let mut x = vcreate_u8(acc);
    let mut chunks = data.chunks_exact(128);
    for c in &mut chunks {
        let p = c.as_ptr();
        // Two partial sums, so the XOR chains stay short.
        let mut t0 = times(vdupq_n_u16(0), x, &cols(key, 16));
        let mut t1 = vdupq_n_u16(0);
        for j in (0..16).step_by(2) {
            // SAFETY: blocks `j` and `j + 1` of the 128-byte chunk.
            let (b0, b1) = unsafe { (block(p.add(8 * j)), block(p.add(8 * j + 8))) };
            t0 = times(t0, b0, &cols(key, 16 - j));
            t1 = times(t1, b1, &cols(key, 15 - j));
        }
        x = reduce(veorq_u16(t0, t1));
    }
    for r in chunks.remainder().chunks(64) {
        let k = r.len() / 8;
        let mut t = times(vdupq_n_u16(0), x, &cols(key, k));
        for j in 0..k {
            // SAFETY: block `j < k` of `r` (`r.len() = 8k`).
            let b = unsafe { block(r.as_ptr().add(8 * j)) };
            t = times(t, b, &cols(key, k - j));
        }
        x = reduce(t);
    }
    vget_lane_u64::<0>(vreinterpret_u64_u8(x))
}

#[cfg(test)]
mod tests {
    /// The family's differential test, which covers this kernel wherever
    /// the CPU has it.
    #[test]
    fn agrees_with_portable() {
        assert!(super::super::tests::check_kernels() > 0);
    }

    /// Without the evidence the entry point refuses to run.
    #[test]
    #[should_panic(expected = "kernel without the evidence")]
    fn refuses_without_evidence() {
        let p = crate::platform::Platform::portable();
        let _ = super::g_blocks(p, &super::super::gdiv::GKey::new(1), 0, &[0; 8]);
    }
}
