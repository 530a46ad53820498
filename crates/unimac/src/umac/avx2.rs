//! NH of RFC 4418 (see [`super::nh`]) with AVX2: two 32-byte groups per
//! step, the 256-bit form of [`super::avx512`]: `vperm2i128` gathers the
//! `lo` and `hi` 128-bit lanes of two groups, two `vpmuludq` multiply the
//! pairs, 64-bit lanes sum mod `2^64`. Keys come from the split copy
//! ([`super::nh::NhKey`]) as in the AVX-512 kernel.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::nh::{NhKey, GROUP};
use crate::platform::Platform;

/// Bytes per step: two groups.
pub(crate) const STEP: usize = 2 * GROUP;

/// NH of the first `msg.len() / 64 * 64` bytes of `msg` for `N` iterations;
/// the caller hashes the rest. Panics if the evidence `p` lacks AVX2.
pub(crate) fn nh<const N: usize>(p: Platform, key: &NhKey, msg: &[u8]) -> [u64; N] {
    let steps = msg.len() / STEP;
    let groups = 2 * steps;
    assert!(key.lanes() >= groups + N / 2 || steps == 0, "NH key shorter than the message");
    assert!((1..=4).contains(&N));
    assert!(p.avx2_fma(), "the AVX2 NH kernel needs AVX2 and FMA evidence");
    // SAFETY: the evidence `p` (only detection creates it) has AVX2 (asserted above); the message loads read bytes
    // [64 i, 64 i + 64) for i < steps, within msg; the key loads read 8 words
    // from lane g + s or g + s + 1, g <= groups − 2, s <= (N − 1)/2, within
    // the `groups + N/2` lanes asserted.
    unsafe { nh_avx2::<N>(key, msg.as_ptr(), steps) }
}

/// The kernel of [`nh`] over `steps` steps of `msg`.
///
/// # Safety
/// The CPU must have AVX2; `msg` must point to `steps · STEP` readable
/// bytes, and `key` must have at least `2 steps + N/2` lanes when
/// `steps > 0`.
#[target_feature(enable = "avx2")]
unsafe fn nh_avx2<const N: usize>(key: &NhKey, msg: *const u8, steps: usize) -> [u64; N] {
    let (ka, kb) = key.split();
    let mut acc = [_mm256_setzero_si256(); N];
    for i in 0..steps {
        // SAFETY: see `nh`: in bounds for i < steps.
        let (y0, y1) = unsafe {
            (
                _mm256_loadu_si256(msg.add(STEP * i) as *const __m256i),
                _mm256_loadu_si256(msg.add(STEP * i + 32) as *const __m256i),
            )
        };
        let lo = _mm256_permute2x128_si256::<0x20>(y0, y1);
        let hi = _mm256_permute2x128_si256::<0x31>(y0, y1);
        let g = 2 * i;
        for (t, a) in acc.iter_mut().enumerate() {
            let s = t / 2;
            // SAFETY: lanes g + s .. g + s + 3 lie within `key.lanes()` (see `nh`).
            let (kl, kh) = unsafe {
                if t % 2 == 0 {
                    (load2(ka, g + s), load2(kb, g + s))
                } else {
                    (load2(kb, g + s), load2(ka, g + s + 1))
                }
            };
            let x = _mm256_add_epi32(lo, kl);
            let y = _mm256_add_epi32(hi, kh);
            let even = _mm256_mul_epu32(x, y);
            let odd = _mm256_mul_epu32(_mm256_srli_epi64::<32>(x), _mm256_srli_epi64::<32>(y));
            *a = _mm256_add_epi64(*a, _mm256_add_epi64(even, odd));
        }
    }
    core::array::from_fn(|t| {
        let v = acc[t];
        let s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        (_mm_cvtsi128_si64(s) as u64).wrapping_add(_mm_extract_epi64::<1>(s) as u64)
    })
}

/// Two 128-bit key lanes from lane `lane` of a split key half.
///
/// # Safety
/// The CPU must have AVX2, and `4 lane + 8 <= half.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load2(half: &[u32], lane: usize) -> __m256i {
    debug_assert!(4 * lane + 8 <= half.len());
    // SAFETY: the caller keeps 4 lane + 8 within `half` (see `nh`).
    unsafe { _mm256_loadu_si256(half.as_ptr().add(4 * lane) as *const __m256i) }
}

#[cfg(test)]
mod tests {
    use crate::platform::Platform;

    /// The family's differential test, which covers this kernel wherever
    /// the CPU has it.
    #[test]
    fn agrees_with_portable() {
        assert!(super::super::tests::check_nh() > 0);
    }

    /// Without the evidence the entry point refuses to run.
    #[test]
    #[should_panic(expected = "NH kernel needs")]
    fn refuses_without_evidence() {
        let key = super::NhKey::new(vec![0; 512]);
        let _ = super::nh::<1>(Platform::portable(), &key, &[0; 4 * super::STEP]);
    }
}
