//! NH of RFC 4418 (see [`super::nh`]) with AVX-512F: four 32-byte groups per
//! step. The two 64-byte loads hold groups `g..g+4` as 128-bit lanes
//! `lo(g), hi(g), lo(g+1), hi(g+1), …`; one `vshufi64x2` gathers the four `lo`
//! lanes (words `j = 0..3`) and one the four `hi` lanes (`j + 4`), so the
//! pairs NH multiplies sit in the same 32-bit slots. Two `vpmuludq` (even
//! and odd slots) then give the eight products of four groups, summed into
//! 64-bit lanes mod `2^64`, as NH asks. The key is read from its split copy
//! ([`super::nh::NhKey`]): for iteration `t = 2s` the `lo`/`hi` key lanes
//! are `KA[g+s]`/`KB[g+s]`, for `t = 2s + 1` they are `KB[g+s]`/`KA[g+s+1]`
//! (the Toeplitz shift of 4 words is one 128-bit lane).

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::nh::{NhKey, GROUP};
use crate::platform::Platform;

/// Bytes per step: four groups.
pub(crate) const STEP: usize = 4 * GROUP;

/// NH of the first `msg.len() / 128 * 128` bytes of `msg` (whole steps) for
/// `N` iterations; the caller hashes the rest. Panics if the evidence `p`
/// lacks AVX-512F or AVX2.
pub(crate) fn nh<const N: usize>(p: Platform, key: &NhKey, msg: &[u8]) -> [u64; N] {
    let steps = msg.len() / STEP;
    let groups = 4 * steps;
    // Lanes read: up to KA[groups + s] for the odd iterations t = 2s + 1 < N,
    // KB[groups + s − 1] for the even ones: `groups + N/2` lanes cover both.
    assert!(key.lanes() >= groups + N / 2 || steps == 0, "NH key shorter than the message");
    assert!((1..=4).contains(&N));
    assert!(p.avx512() && p.avx2_fma(), "the AVX-512 NH kernel needs AVX-512F and AVX2 evidence");
    // SAFETY: the evidence `p` (only detection creates it) has AVX-512F and AVX2 (asserted above); every load is in bounds:
    // the message loads read bytes [128 i, 128 i + 128) for i < steps, within
    // msg; the key loads read 16 words from lane g + s or g + s + 1 with
    // g <= groups − 4 and s <= (N − 1)/2, within the `groups + N/2` lanes asserted.
    unsafe { nh_avx512::<N>(key, msg.as_ptr(), steps) }
}

/// The kernel of [`nh`] over `steps` steps of `msg`.
///
/// # Safety
/// The CPU must have AVX-512F; `msg` must point to `steps · STEP` readable
/// bytes, and `key` must have at least `4 steps + N/2` lanes when
/// `steps > 0`.
#[target_feature(enable = "avx512f")]
unsafe fn nh_avx512<const N: usize>(key: &NhKey, msg: *const u8, steps: usize) -> [u64; N] {
    let (ka, kb) = key.split();
    let mut acc = [_mm512_setzero_si512(); N];
    for i in 0..steps {
        // SAFETY: see `nh`: in bounds for i < steps.
        let (z0, z1) = unsafe {
            (_mm512_loadu_si512(msg.add(STEP * i) as *const _), _mm512_loadu_si512(msg.add(STEP * i + 64) as *const _))
        };
        let lo = _mm512_shuffle_i64x2::<0x88>(z0, z1);
        let hi = _mm512_shuffle_i64x2::<0xDD>(z0, z1);
        let g = 4 * i;
        for (t, a) in acc.iter_mut().enumerate() {
            let s = t / 2;
            // SAFETY: lanes g + s .. g + s + 5 lie within `key.lanes()` (see `nh`).
            let (kl, kh) = unsafe {
                if t % 2 == 0 {
                    (load4(ka, g + s), load4(kb, g + s))
                } else {
                    (load4(kb, g + s), load4(ka, g + s + 1))
                }
            };
            let x = _mm512_add_epi32(lo, kl);
            let y = _mm512_add_epi32(hi, kh);
            let even = _mm512_mul_epu32(x, y);
            let odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y));
            *a = _mm512_add_epi64(*a, _mm512_add_epi64(even, odd));
        }
    }
    core::array::from_fn(|t| _mm512_reduce_add_epi64(acc[t]) as u64)
}

/// Four 128-bit key lanes from lane `lane` of a split key half.
///
/// # Safety
/// The CPU must have AVX-512F, and `4 lane + 16 <= half.len()`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn load4(half: &[u32], lane: usize) -> __m512i {
    debug_assert!(4 * lane + 16 <= half.len());
    // SAFETY: the caller keeps 4 lane + 16 within `half` (see `nh`).
    unsafe { _mm512_loadu_si512(half.as_ptr().add(4 * lane) as *const _) }
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
