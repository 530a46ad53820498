//! AVX2 inner products for `mmh32xN` and `nmh32` (section 3.2: "working on
//! several messages … at the same time, so we can load a key word just once
//! and use it on several messages").
//!
//! `vpmuludq` multiplies the low 32 bits of each 64-bit lane: for 8 message
//! words `M` and 8 key words `X` in a 256-bit register, `vpmuludq(M, X)` gives
//! the four even products and `vpmuludq(M >> 32, X >> 32)` the four odd ones.
//! Lane-wise `vpaddq` wraps at 2^64, and a sum of lane sums taken mod 2^64 is
//! the whole inner product mod 2^64, which is exactly Definition 5's
//! `[sum m_i x_i] mod 2^64`; so no carry is ever needed. Several blocks go
//! through the loop together, each key vector being used once per block, and
//! the lane sums of four blocks are folded together in one transpose.
//! The final reduction mod `2^32 + 15` is the scalar one of [`super::portable`].

#![deny(unsafe_op_in_unsafe_fn)]

// The SIMD loops index several arrays by the same block / output number.
#![allow(clippy::needless_range_loop)]

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::portable::reduce32;
use super::K;
use crate::platform::Platform;

/// `mmh32xN` on each 128-byte block (same contract as [`super::portable::mmh32`]).
///
/// # Panics
/// If `platform` lacks AVX2 (the evidence of [`crate::platform::Feature::Avx2Fma`]).
pub(crate) fn mmh32(platform: Platform, key: &[u32], blocks: &[u8], out: &mut [u8]) {
    assert!(platform.avx2_fma(), "mmh avx2 kernel without AVX2");
    // SAFETY: the evidence `platform` shows the CPU has AVX2.
    unsafe { mmh32_avx2(key, blocks, out) }
}

#[target_feature(enable = "avx2")]
fn mmh32_avx2(key: &[u32], blocks: &[u8], out: &mut [u8]) {
    match key.len() + 1 - K {
        1 => mmh32_n::<1, 4>(key, blocks, out),
        2 => mmh32_n::<2, 2>(key, blocks, out),
        3 => mmh32_n::<3, 2>(key, blocks, out),
        _ => mmh32_n::<4, 1>(key, blocks, out),
    }
}

/// Lane sums of four accumulators, in order: `[Σa0, Σa1, Σa2, Σa3]` (mod 2^64).
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn hsum4(a: [__m256i; 4]) -> __m256i {
    // SAFETY: register-only AVX2 instructions; the caller guarantees AVX2.
    unsafe {
        let t0 = _mm256_add_epi64(_mm256_unpacklo_epi64(a[0], a[1]), _mm256_unpackhi_epi64(a[0], a[1]));
        let t1 = _mm256_add_epi64(_mm256_unpacklo_epi64(a[2], a[3]), _mm256_unpackhi_epi64(a[2], a[3]));
        _mm256_add_epi64(_mm256_permute2x128_si256(t0, t1, 0x20), _mm256_permute2x128_si256(t0, t1, 0x31))
    }
}

/// Lane sum of one accumulator (mod 2^64), in registers.
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn hsum1(a: __m256i) -> u64 {
    // SAFETY: register-only AVX2 instructions; the caller guarantees AVX2.
    unsafe {
        let x = _mm_add_epi64(_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a));
        let y = _mm_add_epi64(x, _mm_unpackhi_epi64(x, x));
        _mm_cvtsi128_si64(y) as u64
    }
}

/// `N` Toeplitz outputs, `BL` blocks per pass.
#[target_feature(enable = "avx2")]
fn mmh32_n<const N: usize, const BL: usize>(key: &[u32], blocks: &[u8], out: &mut [u8]) {
    assert_eq!(key.len(), K + N - 1);
    assert_eq!(blocks.len() % (4 * K), 0);
    assert_eq!(out.len(), blocks.len() / (4 * K) * 4 * N);
    // Key vectors: xe[j][q] holds x_{j+8q .. j+8q+7}; xo the same shifted right
    // by 32 in each lane (the odd words moved to the low halves).
    let mut xe = [[_mm256_setzero_si256(); 4]; N];
    let mut xo = [[_mm256_setzero_si256(); 4]; N];
    for j in 0..N {
        for q in 0..4 {
            // SAFETY: j + 8q + 8 <= N - 1 + 32 = key.len(): in bounds.
            let v = unsafe { _mm256_loadu_si256(key.as_ptr().add(j + 8 * q) as *const __m256i) };
            xe[j][q] = v;
            xo[j][q] = _mm256_srli_epi64(v, 32);
        }
    }
    let nblocks = blocks.len() / (4 * K);
    let mut b = 0;
    let bp = blocks.as_ptr();
    let op = out.as_mut_ptr();
    while b + BL <= nblocks {
        let mut acc = [[_mm256_setzero_si256(); BL]; N];
        for q in 0..4 {
            for l in 0..BL {
                // SAFETY: block b + l < nblocks, and q*32 + 32 <= 128.
                let m = unsafe { _mm256_loadu_si256(bp.add((b + l) * 4 * K + 32 * q) as *const __m256i) };
                let mo = _mm256_srli_epi64(m, 32);
                for j in 0..N {
                    let pe = _mm256_mul_epu32(m, xe[j][q]);
                    let po = _mm256_mul_epu32(mo, xo[j][q]);
                    acc[j][l] = _mm256_add_epi64(acc[j][l], _mm256_add_epi64(pe, po));
                }
            }
        }
        for j in 0..N {
            if BL == 4 {
                // SAFETY: this function has AVX2.
                let s = unsafe { hsum4([acc[j][0], acc[j][1], acc[j][2], acc[j][3]]) };
                let mut l = [0u64; 4];
                // SAFETY: `l` is 32 writable bytes.
                unsafe { _mm256_storeu_si256(l.as_mut_ptr() as *mut __m256i, s) };
                for (i, &si) in l.iter().enumerate() {
                    let r = reduce32(si).to_le_bytes();
                    // SAFETY: block b + i < nblocks; output word j of it is in bounds.
                    unsafe { core::ptr::copy_nonoverlapping(r.as_ptr(), op.add(((b + i) * N + j) * 4), 4) };
                }
            } else {
                for l in 0..BL {
                    // SAFETY: this function has AVX2.
                    let r = reduce32(unsafe { hsum1(acc[j][l]) }).to_le_bytes();
                    // SAFETY: block b + l < nblocks; output word j of it is in bounds.
                    unsafe { core::ptr::copy_nonoverlapping(r.as_ptr(), op.add(((b + l) * N + j) * 4), 4) };
                }
            }
        }
        b += BL;
    }
    // The last < BL blocks, one at a time.
    while b < nblocks {
        let mut acc = [_mm256_setzero_si256(); N];
        for q in 0..4 {
            // SAFETY: block b < nblocks.
            let m = unsafe { _mm256_loadu_si256(bp.add(b * 4 * K + 32 * q) as *const __m256i) };
            let mo = _mm256_srli_epi64(m, 32);
            for j in 0..N {
                let pe = _mm256_mul_epu32(m, xe[j][q]);
                let po = _mm256_mul_epu32(mo, xo[j][q]);
                acc[j] = _mm256_add_epi64(acc[j], _mm256_add_epi64(pe, po));
            }
        }
        // All N output words in one store (see avx512.rs: a later wide read
        // then forwards from it).
        let mut r = [0u32; N];
        for j in 0..N {
            // SAFETY: this function has AVX2.
            r[j] = reduce32(unsafe { hsum1(acc[j]) }).to_le();
        }
        // SAFETY: block b < nblocks: its 4N output bytes are in bounds.
        unsafe { core::ptr::write_unaligned(op.add(b * N * 4) as *mut [u32; N], r) };
        b += 1;
    }
}

/// `nmh32` on each 128-byte block (same contract as [`super::portable::nmh32`]).
///
/// `vpaddd` adds message and key words mod 2^32 (the `±` of Definition 10);
/// each 64-bit lane then holds one pair `(m_{2i-1} ± x_{2i-1}, m_{2i} ± x_{2i})`
/// and `vpmuludq(S, S >> 32)` is the pair's product.
///
/// # Panics
/// If `platform` lacks AVX2 (the evidence of [`crate::platform::Feature::Avx2Fma`]).
pub(crate) fn nmh32(platform: Platform, key: &[u32; K], blocks: &[u8], out: &mut [u8]) {
    assert!(platform.avx2_fma(), "nmh avx2 kernel without AVX2");
    // SAFETY: the evidence `platform` shows the CPU has AVX2.
    unsafe { nmh32_avx2(key, blocks, out) }
}

#[target_feature(enable = "avx2")]
fn nmh32_avx2(key: &[u32; K], blocks: &[u8], out: &mut [u8]) {
    assert_eq!(out.len(), blocks.len() / (4 * K) * 4);
    let mut x = [_mm256_setzero_si256(); 4];
    for (q, xq) in x.iter_mut().enumerate() {
        // SAFETY: 8q + 8 <= 32 words.
        *xq = unsafe { _mm256_loadu_si256(key.as_ptr().add(8 * q) as *const __m256i) };
    }
    let nblocks = blocks.len() / (4 * K);
    let bp = blocks.as_ptr();
    let op = out.as_mut_ptr();
    let mut b = 0;
    while b + 4 <= nblocks {
        let mut acc = [_mm256_setzero_si256(); 4];
        for (q, &xq) in x.iter().enumerate() {
            for (l, a) in acc.iter_mut().enumerate() {
                // SAFETY: block b + l < nblocks.
                let m = unsafe { _mm256_loadu_si256(bp.add((b + l) * 4 * K + 32 * q) as *const __m256i) };
                let s = _mm256_add_epi32(m, xq);
                *a = _mm256_add_epi64(*a, _mm256_mul_epu32(s, _mm256_srli_epi64(s, 32)));
            }
        }
        // SAFETY: this function has AVX2.
        let s = unsafe { hsum4(acc) };
        let mut l = [0u64; 4];
        // SAFETY: `l` is 32 writable bytes.
        unsafe { _mm256_storeu_si256(l.as_mut_ptr() as *mut __m256i, s) };
        for (i, &si) in l.iter().enumerate() {
            let r = reduce32(si).to_le_bytes();
            // SAFETY: block b + i < nblocks.
            unsafe { core::ptr::copy_nonoverlapping(r.as_ptr(), op.add((b + i) * 4), 4) };
        }
        b += 4;
    }
    while b < nblocks {
        let mut acc = _mm256_setzero_si256();
        for (q, &xq) in x.iter().enumerate() {
            // SAFETY: block b < nblocks.
            let m = unsafe { _mm256_loadu_si256(bp.add(b * 4 * K + 32 * q) as *const __m256i) };
            let s = _mm256_add_epi32(m, xq);
            acc = _mm256_add_epi64(acc, _mm256_mul_epu32(s, _mm256_srli_epi64(s, 32)));
        }
        // SAFETY: this function has AVX2.
        let r = reduce32(unsafe { hsum1(acc) }).to_le_bytes();
        // SAFETY: block b < nblocks.
        unsafe { core::ptr::copy_nonoverlapping(r.as_ptr(), op.add(b * 4), 4) };
        b += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::differential, Backend};
    use crate::platform::Platform;

    #[test]
    fn matches_the_definitions() {
        differential(Backend::Avx2Fma, |c, out| match c.key.as_slice().try_into() {
            Ok(key) if c.outputs == 0 => super::nmh32(Platform::hardware(), key, &c.blocks, out),
            _ => super::mmh32(Platform::hardware(), &c.key, &c.blocks, out),
        });
    }
}
