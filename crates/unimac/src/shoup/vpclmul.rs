//! VPCLMULQDQ paths (256-bit carry-less multiplication with AVX2; safe entry
//! points that assert the [`Platform`] evidence): the recurrence of
//! [`clmul`](super::clmul) with thirty-two blocks (256 bytes) aggregated per step,
//! two products per instruction:
//!
//! `X' = X_lo·β^32 + X_hi·(x^64 β^32) + b_0 β^32 + b_1 β^31 + … + b_31 β`.
//!
//! The state products (two 128-bit PCLMULQDQs) are the only dependency between
//! steps; the sixteen 256-bit block products are independent of the state.
//! Shorter tails go to the 128-bit kernel, which keeps the same state.
//! gdivision64 runs the Kronecker kernel of [`clmul`](super::clmul) the same
//! way: two blocks per register, sixteen per step.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::clmul::{eval128_step, from_u128, g_blocks_pclmul, kara, reduce128, ring_blocks_pclmul, set, to_u128, xreduce};
use super::gdiv::GKey;
use super::keys::{Eval128Key, Ring64, STEP};
use crate::platform::Platform;

#[inline]
#[target_feature(enable = "avx2")]
fn set4(a: u64, b: u64, c: u64, d: u64) -> __m256i {
    // Lanes low to high: [a, b | c, d].
    _mm256_set_epi64x(d as i64, c as i64, b as i64, a as i64)
}

/// eval64 / division64 blocks (`data.len()` a multiple of 8).
///
/// Panics if the evidence `p` lacks VPCLMULQDQ (with AVX2) or PCLMULQDQ
/// (with SSE4.1).
pub(crate) fn ring_blocks(p: Platform, key: &Ring64, acc: u128, data: &[u8]) -> u128 {
    assert!(p.vpclmul() && p.pclmul(), "VPCLMULQDQ kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has vpclmulqdq,
    // pclmulqdq, avx2 and sse4.1 (asserted above).
    unsafe { ring_blocks_vpclmul(key, acc, data) }
}

#[target_feature(enable = "vpclmulqdq,pclmulqdq,avx2,sse4.1")]
fn ring_blocks_vpclmul(key: &Ring64, acc: u128, data: &[u8]) -> u128 {
    let pw = &key.pow;
    // q[i] multiplies the four blocks 4i..4i+3 of a step: β^(32−4i) … β^(29−4i).
    let q: [__m256i; 8] =
        core::array::from_fn(|i| set4(pw[32 - 4 * i], pw[31 - 4 * i], pw[30 - 4 * i], pw[29 - 4 * i]));
    let st = _mm_set_epi64x(key.fold[32] as i64, pw[32] as i64);
    let mut a = _mm_set_epi64x((acc >> 64) as i64, acc as i64);
    let prod = |v: __m256i, q: __m256i| {
        _mm256_xor_si256(_mm256_clmulepi64_epi128::<0x00>(v, q), _mm256_clmulepi64_epi128::<0x11>(v, q))
    };
    let mut chunks = data.chunks_exact(256);
    for c in &mut chunks {
        let p = c.as_ptr() as *const __m256i;
        // SAFETY: `c` is 256 readable bytes: eight unaligned 32-byte loads.
        let v: [__m256i; 8] = core::array::from_fn(|i| unsafe { _mm256_loadu_si256(p.add(i)) });
        let t = _mm256_xor_si256(
            _mm256_xor_si256(
                _mm256_xor_si256(prod(v[0], q[0]), prod(v[1], q[1])),
                _mm256_xor_si256(prod(v[2], q[2]), prod(v[3], q[3])),
            ),
            _mm256_xor_si256(
                _mm256_xor_si256(prod(v[4], q[4]), prod(v[5], q[5])),
                _mm256_xor_si256(prod(v[6], q[6]), prod(v[7], q[7])),
            ),
        );
        let t = _mm_xor_si128(_mm256_castsi256_si128(t), _mm256_extracti128_si256::<1>(t));
        a = _mm_xor_si128(t, _mm_xor_si128(_mm_clmulepi64_si128::<0x00>(a, st), _mm_clmulepi64_si128::<0x11>(a, st)));
    }
    let mut out = 0u128;
    // SAFETY: `out` is 16 writable bytes.
    unsafe { _mm_storeu_si128(&mut out as *mut u128 as *mut __m128i, a) };
    let rest = chunks.remainder();
    if rest.is_empty() {
        out
    } else {
        ring_blocks_pclmul(key, out, rest)
    }
}

/// gdivision64 blocks: the Kronecker kernel of [`clmul`](super::clmul) with two
/// blocks per 256-bit register and sixteen blocks (128 bytes) per step; the
/// state (15 reduced coefficients, one per byte) is that of the 128-bit kernel,
/// which takes the tail.
///
/// Panics as [`ring_blocks`] does.
pub(crate) fn g_blocks(p: Platform, key: &GKey, acc: u128, data: &[u8]) -> u128 {
    assert!(p.vpclmul() && p.pclmul(), "VPCLMULQDQ kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has vpclmulqdq,
    // pclmulqdq, avx2 and sse4.1 (asserted above).
    unsafe { g_blocks_vpclmul(key, acc, data) }
}

#[target_feature(enable = "vpclmulqdq,pclmulqdq,avx2,sse4.1")]
fn g_blocks_vpclmul(key: &GKey, acc: u128, data: &[u8]) -> u128 {
    // Per lane: the block's bytes c_0..c_7 (lane 0: bytes 0..7, lane 1: bytes
    // 8..15 of a 16-byte load) are the coefficients of z^7..z^0: reverse and spread.
    let rev = _mm256_setr_epi8(
        7, -1, 6, -1, 5, -1, 4, -1, 3, -1, 2, -1, 1, -1, 0, -1, 15, -1, 14, -1, 13, -1, 12, -1, 11, -1, 10, -1, 9,
        -1, 8, -1,
    );
    // c[i]: spread β^(16−2i) | β^(15−2i); cx[i]: their Karatsuba sums in the low halves.
    let kr = &key.kron;
    let c: [__m256i; 8] =
        core::array::from_fn(|i| set4(kr[16 - 2 * i][0], kr[16 - 2 * i][1], kr[15 - 2 * i][0], kr[15 - 2 * i][1]));
    let cx: [__m256i; 8] = core::array::from_fn(|i| set4(kr[16 - 2 * i][2], 0, kr[15 - 2 * i][2], 0));
    let f = &key.kron_fold[16];
    let (fc, fx) = (set(f[0], f[1]), set(f[2], 0));
    let packed = from_u128(acc);
    let z = _mm_setzero_si128();
    let mut s = [_mm_unpacklo_epi8(packed, z), _mm_unpackhi_epi8(packed, z)];
    let mut chunks = data.chunks_exact(128);
    for ch in &mut chunks {
        let p = ch.as_ptr() as *const __m128i;
        let mut a0 = _mm256_setzero_si256();
        let mut a1 = _mm256_setzero_si256();
        let mut a2 = _mm256_setzero_si256();
        for i in 0..8 {
            // SAFETY: `ch` is 128 readable bytes: eight unaligned 16-byte loads.
            let v = _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(p.add(i)) });
            let mut b = _mm256_shuffle_epi8(v, rev);
            if i == 0 {
                b = _mm256_xor_si256(b, _mm256_inserti128_si256::<0>(_mm256_setzero_si256(), s[0]));
            }
            a0 = _mm256_xor_si256(a0, _mm256_clmulepi64_epi128::<0x00>(b, c[i]));
            a1 = _mm256_xor_si256(a1, _mm256_clmulepi64_epi128::<0x11>(b, c[i]));
            let bm = _mm256_xor_si256(b, _mm256_shuffle_epi32::<0x4e>(b));
            a2 = _mm256_xor_si256(a2, _mm256_clmulepi64_epi128::<0x00>(bm, cx[i]));
        }
        let lanes = |t: __m256i| _mm_xor_si128(_mm256_castsi256_si128(t), _mm256_extracti128_si256::<1>(t));
        let mut acc3 = [lanes(a0), lanes(a1), lanes(a2)];
        // SAFETY: pclmulqdq is enabled here, as `kara` requires.
        unsafe { kara(s[1], fc, fx, &mut acc3) };
        let mid = _mm_xor_si128(acc3[2], _mm_xor_si128(acc3[0], acc3[1]));
        let lo = _mm_xor_si128(acc3[0], _mm_slli_si128::<8>(mid));
        let hi = _mm_xor_si128(acc3[1], _mm_srli_si128::<8>(mid));
        // SAFETY: SSE2 is enabled here, all `xreduce` requires.
        s = unsafe { [xreduce(lo), xreduce(hi)] };
    }
    let out = to_u128(_mm_packus_epi16(s[0], s[1]));
    let rest = chunks.remainder();
    if rest.is_empty() {
        out
    } else {
        g_blocks_pclmul(key, out, rest)
    }
}

/// eval128 blocks (`data.len()` a multiple of 16): sixteen blocks (256 bytes)
/// per step, two per 256-bit register, each register multiplied lane-wise by
/// `α^(16−2i) | α^(15−2i)` with three VPCLMULQDQs (Karatsuba, as in the 512-bit
/// kernel of `vpclmul512`); the lanes are summed and the step reduced once.
/// Shorter tails go to the 128-bit kernel.
///
/// Panics if the evidence `p` (which only detection creates) lacks
/// VPCLMULQDQ with AVX2, or if `data` is not whole blocks.
pub(crate) fn eval128_blocks(p: Platform, key: &Eval128Key, acc: u128, data: &[u8]) -> u128 {
    assert!(p.vpclmul() && p.pclmul(), "eval128: VPCLMULQDQ kernel without the evidence");
    assert_eq!(data.len() % 16, 0, "eval128: whole 16-byte blocks");
    // SAFETY: the evidence `p` has vpclmulqdq, pclmulqdq, avx2 and sse4.1 (asserted above).
    unsafe { eval128_blocks_vpclmul(key, acc, data) }
}

#[target_feature(enable = "vpclmulqdq,pclmulqdq,avx2,sse4.1")]
fn eval128_blocks_vpclmul(key: &Eval128Key, acc: u128, data: &[u8]) -> u128 {
    const N: usize = 16;
    let pw = &key.desc[STEP - N..];
    // SAFETY: `pw[2i..2i+2]` is 32 readable bytes (two u128, lanes in order).
    let h: [__m256i; N / 2] =
        core::array::from_fn(|i| unsafe { _mm256_loadu_si256(pw[2 * i..].as_ptr() as *const __m256i) });
    // Karatsuba: the powers' lo + hi in each lane's low half.
    let hx: [__m256i; N / 2] = core::array::from_fn(|i| _mm256_xor_si256(h[i], _mm256_shuffle_epi32::<0x4e>(h[i])));
    let mut x = from_u128(acc);
    let mut chunks = data.chunks_exact(16 * N);
    for c in &mut chunks {
        let p = c.as_ptr() as *const __m256i;
        // SAFETY: `c` is 256 readable bytes: eight unaligned 32-byte loads.
        let mut v: [__m256i; N / 2] = core::array::from_fn(|i| unsafe { _mm256_loadu_si256(p.add(i)) });
        v[0] = _mm256_xor_si256(v[0], _mm256_set_m128i(_mm_setzero_si128(), x));
        let mut lo = _mm256_setzero_si256();
        let mut mk = _mm256_setzero_si256();
        let mut hi = _mm256_setzero_si256();
        for ((v, h), hx) in v.iter().zip(&h).zip(&hx).rev() {
            lo = _mm256_xor_si256(lo, _mm256_clmulepi64_epi128::<0x00>(*v, *h));
            hi = _mm256_xor_si256(hi, _mm256_clmulepi64_epi128::<0x11>(*v, *h));
            let vx = _mm256_xor_si256(*v, _mm256_shuffle_epi32::<0x4e>(*v));
            mk = _mm256_xor_si256(mk, _mm256_clmulepi64_epi128::<0x00>(vx, *hx));
        }
        let mid = _mm256_xor_si256(mk, _mm256_xor_si256(lo, hi));
        let lanes = |t: __m256i| _mm_xor_si128(_mm256_castsi256_si128(t), _mm256_extracti128_si256::<1>(t));
        x = reduce128(lanes(lo), lanes(mid), lanes(hi));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        x = eval128_step(key, x, rest); // fewer than 16 blocks
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
