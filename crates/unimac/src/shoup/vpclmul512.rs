//! VPCLMULQDQ on 512-bit registers with AVX-512F (a safe entry point that
//! asserts the [`Platform`] evidence): eval128 with thirty-two
//! blocks (512 bytes) aggregated per step, four blocks per register:
//!
//! `X' = (X + b_0)·α^32 + b_1·α^31 + … + b_31·α`.
//!
//! Register `i` holds blocks `4i..4i+3` and is multiplied lane-wise by
//! `α^(32−4i) .. α^(29−4i)` with three VPCLMULQDQs (Karatsuba: `lo·lo`, `hi·hi`
//! and `(lo + hi)·(lo + hi)`, the powers' `lo + hi` precomputed), the three
//! partial sums kept apart and unreduced; the middle term
//! `Σ(lo + hi)(lo + hi) + Σ lo·lo + Σ hi·hi` is formed once per step (the
//! identity is linear, so it holds for the sums). Per step the four lanes are
//! summed and one reduction (two PCLMULQDQs) is done. The state enters only
//! block 0's product. Tails shorter than a step go to the 128-bit kernel,
//! which keeps the same state. (Karatsuba measured faster than the four-product
//! schoolbook on the machine of docs/perf/shoup.md: the carry-less multiplier
//! is the bottleneck, the extra shuffle and XOR run beside it.)

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::clmul::{eval128_step, from_u128, reduce128, to_u128};
use super::keys::{Eval128Key, STEP};
use crate::platform::Platform;

/// eval128 blocks (`data.len()` a multiple of 16); `acc` the reduced state.
///
/// Panics if the evidence `p` (which only detection creates) lacks
/// VPCLMULQDQ with AVX-512F, or if `data` is not whole blocks.
pub(crate) fn eval128_blocks(p: Platform, key: &Eval128Key, acc: u128, data: &[u8]) -> u128 {
    assert!(p.vpclmul() && p.pclmul() && p.avx512(), "eval128: 512-bit VPCLMULQDQ kernel without the evidence");
    assert_eq!(data.len() % 16, 0, "eval128: whole 16-byte blocks");
    // SAFETY: the evidence `p` has vpclmulqdq, pclmulqdq, avx512f, avx2 and
    // sse4.1 (asserted above).
    unsafe { blocks(key, acc, data) }
}

/// `a ⊕ b ⊕ c` in one instruction.
#[inline]
#[target_feature(enable = "avx512f")]
fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<0x96>(a, b, c)
}

#[target_feature(enable = "vpclmulqdq,pclmulqdq,avx512f,avx2,sse4.1")]
fn blocks(key: &Eval128Key, acc: u128, data: &[u8]) -> u128 {
    const R: usize = STEP / 4;
    // SAFETY: `key.desc[4i..4i+4]` is 64 readable bytes (four u128, lanes in
    // order: α^(32−4i) .. α^(29−4i)).
    let h: [__m512i; R] = core::array::from_fn(|i| unsafe { _mm512_loadu_si512(key.desc[4 * i..].as_ptr().cast()) });
    let hx: [__m512i; R] = core::array::from_fn(|i| _mm512_xor_si512(h[i], _mm512_shuffle_epi32::<0x4e>(h[i])));
    let mut x = from_u128(acc);
    let mut chunks = data.chunks_exact(16 * STEP);
    for c in &mut chunks {
        let p = c.as_ptr() as *const __m512i;
        // SAFETY: `c` is 512 readable bytes: eight unaligned 64-byte loads.
        let mut v: [__m512i; R] = core::array::from_fn(|i| unsafe { _mm512_loadu_si512(p.add(i).cast()) });
        v[0] = _mm512_xor_si512(v[0], _mm512_zextsi128_si512(x));
        let mut lo = _mm512_setzero_si512();
        let mut mk = _mm512_setzero_si512();
        let mut hi = _mm512_setzero_si512();
        // Registers 7..1 first: only register 0 depends on the state.
        for ((v, h), hx) in v.iter().zip(&h).zip(&hx).rev() {
            lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128::<0x00>(*v, *h));
            hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128::<0x11>(*v, *h));
            let vx = _mm512_xor_si512(*v, _mm512_shuffle_epi32::<0x4e>(*v));
            mk = _mm512_xor_si512(mk, _mm512_clmulepi64_epi128::<0x00>(vx, *hx));
        }
        let mid = xor3(mk, lo, hi);
        let lanes = |t: __m512i| {
            let y = _mm256_xor_si256(_mm512_castsi512_si256(t), _mm512_extracti64x4_epi64::<1>(t));
            _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256::<1>(y))
        };
        x = reduce128(lanes(lo), lanes(mid), lanes(hi));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        x = eval128_step(key, x, rest); // fewer than 32 blocks
    }
    to_u128(x)
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
        let _ = super::eval128_blocks(p, &super::super::eval128::Eval128Key::new(&[1; 16]), 0, &[0; 16]);
    }
}
