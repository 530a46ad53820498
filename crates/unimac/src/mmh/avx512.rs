//! AVX-512F inner products for `mmh32xN` and `nmh32`: the AVX2 method of
//! [`super::avx2`] (section 3.2's several blocks at once, `vpmuludq` on the
//! even and the shifted odd words, lane sums mod 2^64) with 512-bit
//! registers, so one 128-byte block is exactly two registers: per block and
//! output, `(m_e x_e + m_o x_o)` of both halves is summed in one register,
//! and the 8 lane sums of eight blocks are added up by one transpose (for
//! N <= 2; with more outputs each block is first folded to 256 bits to keep
//! the accumulators in registers); no accumulator is carried from block to
//! block. Each lane adds 4 products < 2^64 and wraps at 2^64, and a wrapped
//! sum of wrapped lane sums is the inner product mod 2^64 (Definition 5).
//! The reduction mod `2^32 + 15` is vectorised too, eight blocks at a time.

#![deny(unsafe_op_in_unsafe_fn)]

// The SIMD loops index several arrays by the same block / output number.
#![allow(clippy::needless_range_loop)]

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::K;
use crate::platform::Platform;

/// `mmh32xN` on each 128-byte block (same contract as [`super::portable::mmh32`]).
///
/// # Panics
/// If `platform` lacks AVX-512F or AVX2.
pub(crate) fn mmh32(platform: Platform, key: &[u32], blocks: &[u8], out: &mut [u8]) {
    assert!(platform.avx512() && platform.avx2_fma(), "mmh avx512 kernel without AVX-512F and AVX2");
    // SAFETY: the evidence `platform` shows the CPU has AVX-512F and AVX2.
    unsafe { mmh32_avx512(key, blocks, out) }
}

#[target_feature(enable = "avx512f,avx2")]
fn mmh32_avx512(key: &[u32], blocks: &[u8], out: &mut [u8]) {
    match key.len() + 1 - K {
        1 => mmh32_n::<1>(key, blocks, out),
        2 => mmh32_n::<2>(key, blocks, out),
        3 => mmh32_n::<3>(key, blocks, out),
        _ => mmh32_n::<4>(key, blocks, out),
    }
}

/// The 8 lane sums of a 512-bit register as the 4 lanes of a 256-bit one
/// (sums mod 2^64 preserved).
///
/// # Safety
/// The CPU must support AVX-512F and AVX2.
#[inline(always)]
unsafe fn fold(a: __m512i) -> __m256i {
    // SAFETY: register-only AVX-512F and AVX2 instructions; the caller guarantees both.
    unsafe {
        _mm256_add_epi64(_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64::<1>(a))
    }
}

/// `[Σa0, Σa1, Σa2, Σa3]` of four 256-bit accumulators (mod 2^64).
///
/// # Safety
/// The CPU must support AVX-512F and AVX2.
#[inline(always)]
unsafe fn hsum4(a: [__m256i; 4]) -> __m256i {
    // SAFETY: register-only AVX-512F and AVX2 instructions; the caller guarantees both.
    unsafe {
        let t0 = _mm256_add_epi64(_mm256_unpacklo_epi64(a[0], a[1]), _mm256_unpackhi_epi64(a[0], a[1]));
        let t1 = _mm256_add_epi64(_mm256_unpacklo_epi64(a[2], a[3]), _mm256_unpackhi_epi64(a[2], a[3]));
        _mm256_add_epi64(_mm256_permute2x128_si256(t0, t1, 0x20), _mm256_permute2x128_si256(t0, t1, 0x31))
    }
}

/// `(s mod (2^32 + 15)) mod 2^32` in each of 8 lanes: section 3.1's
/// division-less reduction (as [`super::portable::reduce32`]), vectorised:
/// `y = b - 15a` (signed, `[-15(2^32 - 1), 2^32 - 1]`), `c = y >> 32`
/// arithmetic (`[-15, 0]`), `z = d - 15c ∈ [0, 2^32 + 225]`, and `z - p`
/// selected by a mask where `z >= p`; then the low words.
///
/// # Safety
/// The CPU must support AVX-512F and AVX2.
#[inline(always)]
unsafe fn reduce8(s: __m512i) -> __m256i {
    // SAFETY: register-only AVX-512F and AVX2 instructions; the caller guarantees both.
    unsafe {
        let lo = _mm512_set1_epi64(0xffff_ffff);
        let p = _mm512_set1_epi64((1 << 32) + 15);
        let a = _mm512_srli_epi64::<32>(s);
        let b = _mm512_and_si512(s, lo);
        let y = _mm512_sub_epi64(b, _mm512_sub_epi64(_mm512_slli_epi64::<4>(a), a));
        let c = _mm512_srai_epi64::<32>(y);
        let d = _mm512_and_si512(y, lo);
        let z = _mm512_sub_epi64(d, _mm512_sub_epi64(_mm512_slli_epi64::<4>(c), c));
        let ge = _mm512_cmpge_epi64_mask(z, p);
        let r = _mm512_mask_blend_epi64(ge, z, _mm512_sub_epi64(z, p));
        _mm512_cvtepi64_epi32(r)
    }
}

/// Lane sums of eight blocks' accumulators, in block order, reduced: the 8
/// output words of output `j` for blocks `b..b+8`.
///
/// # Safety
/// The CPU must support AVX-512F and AVX2.
#[inline(always)]
unsafe fn sums8(acc: &[__m256i; 8]) -> __m256i {
    // SAFETY: register-only AVX-512F and AVX2 instructions; the caller guarantees both.
    unsafe {
        let lo = hsum4([acc[0], acc[1], acc[2], acc[3]]);
        let hi = hsum4([acc[4], acc[5], acc[6], acc[7]]);
        reduce8(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi))
    }
}

/// Two outputs' words of eight blocks from their accumulators `a0`, `a1`
/// ([`sums8z`] of each), interleaved in block order (w0 w1 of the first
/// block, then of the next, …) and stored as 64 bytes at `dst` at once.
///
/// # Safety
/// The CPU must support AVX-512F and AVX2, and `dst` must be valid for
/// writing 64 bytes.
#[inline(always)]
unsafe fn store8x2(a0: &[__m512i; 8], a1: &[__m512i; 8], dst: *mut u8) {
    // SAFETY: register-only AVX-512F and AVX2 instructions (the caller
    // guarantees both), then two 32-byte stores within the caller's 64
    // bytes at `dst`.
    unsafe {
        let (r0, r1) = (sums8z(a0), sums8z(a1));
        let lo = _mm256_unpacklo_epi32(r0, r1); // blocks 0,1 | 4,5
        let hi = _mm256_unpackhi_epi32(r0, r1); // blocks 2,3 | 6,7
        _mm256_storeu_si256(dst as *mut __m256i, _mm256_permute2x128_si256::<0x20>(lo, hi));
        _mm256_storeu_si256(dst.add(32) as *mut __m256i, _mm256_permute2x128_si256::<0x31>(lo, hi));
    }
}

/// The 8 lane sums of each of eight 512-bit accumulators, in block order
/// (mod 2^64), by a three-step transpose-and-add; then reduced.
///
/// # Safety
/// The CPU must support AVX-512F and AVX2.
#[inline(always)]
unsafe fn sums8z(a: &[__m512i; 8]) -> __m256i {
    // SAFETY: register-only AVX-512F and AVX2 instructions; the caller guarantees both.
    unsafe {
        // Step 1: in each 128-bit lane, [Σ pair of a_{2t}, Σ pair of a_{2t+1}].
        let t = |x: __m512i, y: __m512i| _mm512_add_epi64(_mm512_unpacklo_epi64(x, y), _mm512_unpackhi_epi64(x, y));
        let (t01, t23, t45, t67) = (t(a[0], a[1]), t(a[2], a[3]), t(a[4], a[5]), t(a[6], a[7]));
        // Steps 2 and 3: add 128-bit lanes 0+1 and 2+3, then the two halves.
        let v = |x: __m512i, y: __m512i| {
            _mm512_add_epi64(_mm512_shuffle_i64x2::<0b10_00_10_00>(x, y), _mm512_shuffle_i64x2::<0b11_01_11_01>(x, y))
        };
        reduce8(v(v(t01, t23), v(t45, t67)))
    }
}

/// Store output word `j` of blocks `b..b+count` (`count <= 8`) from `r`.
///
/// # Safety
/// The CPU must support AVX-512F and AVX2, and `op` must be valid for writes of
/// `4·n·(b + count)` bytes (the outputs of blocks `0..b+count`, `n` words
/// each), with `j < n` and `count <= 8`.
#[inline(always)]
unsafe fn emit8(r: __m256i, op: *mut u8, b: usize, n: usize, j: usize, count: usize) {
    // SAFETY: the caller guarantees AVX-512F and AVX2, and that `op` has room for the output words of blocks `b..b+count` (the contract above); `l` is 32 writable bytes.
    unsafe {
        if n == 1 && count == 8 {
            // SAFETY: blocks b..b+8 exist, so out has 32 bytes at 4b.
            _mm256_storeu_si256(op.add(b * 4) as *mut __m256i, r);
            return;
        }
        let mut l = [0u32; 8];
        // SAFETY: `l` is 32 writable bytes.
        _mm256_storeu_si256(l.as_mut_ptr() as *mut __m256i, r);
        for (i, w) in l.iter().enumerate().take(count) {
            // SAFETY: block b + i < nblocks; word j of its output is in bounds.
            core::ptr::copy_nonoverlapping(w.to_le_bytes().as_ptr(), op.add(((b + i) * n + j) * 4), 4);
        }
    }
}

/// `N` Toeplitz outputs.
#[target_feature(enable = "avx512f,avx2")]
fn mmh32_n<const N: usize>(key: &[u32], blocks: &[u8], out: &mut [u8]) {
    assert_eq!(key.len(), K + N - 1);
    assert_eq!(blocks.len() % (4 * K), 0);
    assert_eq!(out.len(), blocks.len() / (4 * K) * 4 * N);
    // xe[j][h]: x_{j+16h .. j+16h+15}; xo: the same, odd words moved down.
    let mut xe = [[_mm512_setzero_si512(); 2]; N];
    let mut xo = [[_mm512_setzero_si512(); 2]; N];
    for j in 0..N {
        for h in 0..2 {
            // SAFETY: j + 16h + 16 <= N - 1 + 32 = key.len(): in bounds.
            let v = unsafe { _mm512_loadu_si512(key.as_ptr().add(j + 16 * h) as *const _) };
            xe[j][h] = v;
            xo[j][h] = _mm512_srli_epi64::<32>(v);
        }
    }
    let nblocks = blocks.len() / (4 * K);
    let bp = blocks.as_ptr();
    let op = out.as_mut_ptr();
    // One block, every output j: the 8 lane sums of (m_e x_e + m_o x_o) over
    // both halves, folded to 4 lanes. Four 64-bit products per lane, summed
    // mod 2^64: Definition 5's sum with the carry out of 64 bits ignored.
    // (A macro, not a closure: closures do not inherit the target features.)
    macro_rules! block {
        ($i:expr, $acc:expr, $l:expr) => {{
            let i: usize = $i;
            // SAFETY: the callers pass a block number i < nblocks, so the
            // 128 bytes at 128·i lie inside `blocks`.
            let (m0, m1) = unsafe {
                let p = bp.add(i * 4 * K);
                (_mm512_loadu_si512(p as *const _), _mm512_loadu_si512(p.add(64) as *const _))
            };
            let o0 = _mm512_srli_epi64::<32>(m0);
            let o1 = _mm512_srli_epi64::<32>(m1);
            for j in 0..N {
                let s0 = _mm512_add_epi64(_mm512_mul_epu32(m0, xe[j][0]), _mm512_mul_epu32(o0, xo[j][0]));
                let s1 = _mm512_add_epi64(_mm512_mul_epu32(m1, xe[j][1]), _mm512_mul_epu32(o1, xo[j][1]));
                $acc[j][$l] = _mm512_add_epi64(s0, s1);
            }
        }};
    }
    let mut b = 0;
    // Groups of 8 blocks, fully unrolled (the accumulators stay in registers).
    while b + 8 <= nblocks {
        if N <= 2 {
            // 8N accumulators of 512 bits fit the 32 registers beside the keys.
            let mut acc = [[_mm512_setzero_si512(); 8]; N];
            for l in 0..8 {
                block!(b + l, acc, l);
            }
            if N == 2 {
                // SAFETY: this function has AVX-512F and AVX2; blocks
                // b..b+8 exist, so `out` has 64 bytes at 8b (N = 2).
                unsafe { store8x2(&acc[0], &acc[N - 1], op.add(b * 8)) };
            } else {
                for (j, a) in acc.iter().enumerate() {
                    // SAFETY: this function has AVX-512F and AVX2; blocks b..b+8
                    // exist and `out` has N words for each (asserted above).
                    unsafe { emit8(sums8z(a), op, b, N, j, 8) };
                }
            }
        } else {
            // More outputs: fold each block's sums to 256 bits at once.
            let mut acc = [[_mm256_setzero_si256(); 8]; N];
            for l in 0..8 {
                let mut one = [[_mm512_setzero_si512(); 1]; N];
                block!(b + l, one, 0);
                for j in 0..N {
                    // SAFETY: this function has AVX-512F and AVX2.
                    acc[j][l] = unsafe { fold(one[j][0]) };
                }
            }
            for (j, a) in acc.iter().enumerate() {
                // SAFETY: as for `sums8z` above.
                unsafe { emit8(sums8(a), op, b, N, j, 8) };
            }
        }
        b += 8;
    }
    // The last < 8 blocks, one at a time (short messages and the last block
    // of each tree level end here: keep it all in registers).
    while b < nblocks {
        let mut acc = [[_mm512_setzero_si512(); 1]; N];
        block!(b, acc, 0);
        // All N output words in one store (a later wide read of them then
        // forwards from the store instead of waiting for several to commit).
        let mut r = [0u32; N];
        for (j, a) in acc.iter().enumerate() {
            // SAFETY: this function has AVX-512F and AVX2.
            r[j] = super::portable::reduce32(unsafe { hsum1(fold(a[0])) }).to_le();
        }
        // SAFETY: block b < nblocks: its 4N output bytes are in bounds.
        unsafe { core::ptr::write_unaligned(op.add(b * N * 4) as *mut [u32; N], r) };
        b += 1;
    }
}

/// The lane sum of one 256-bit accumulator (mod 2^64), in registers.
///
/// # Safety
/// The CPU must support AVX-512F and AVX2.
#[inline(always)]
unsafe fn hsum1(a: __m256i) -> u64 {
    // SAFETY: register-only AVX-512F and AVX2 instructions; the caller guarantees both.
    unsafe {
        let x = _mm_add_epi64(_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a));
        let y = _mm_add_epi64(x, _mm_unpackhi_epi64(x, x));
        _mm_cvtsi128_si64(y) as u64
    }
}

/// `nmh32` on each 128-byte block (same contract as [`super::portable::nmh32`]):
/// `vpaddd` for the `±` of Definition 10, `vpmuludq(S, S >> 32)` for the pairs.
///
/// # Panics
/// If `platform` lacks AVX-512F or AVX2.
pub(crate) fn nmh32(platform: Platform, key: &[u32; K], blocks: &[u8], out: &mut [u8]) {
    assert!(platform.avx512() && platform.avx2_fma(), "nmh avx512 kernel without AVX-512F and AVX2");
    // SAFETY: the evidence `platform` shows the CPU has AVX-512F and AVX2.
    unsafe { nmh32_avx512(key, blocks, out) }
}

#[target_feature(enable = "avx512f,avx2")]
fn nmh32_avx512(key: &[u32; K], blocks: &[u8], out: &mut [u8]) {
    assert_eq!(out.len(), blocks.len() / (4 * K) * 4);
    // SAFETY: the key has 32 words: two 64-byte loads.
    let (x0, x1) =
        unsafe { (_mm512_loadu_si512(key.as_ptr() as *const _), _mm512_loadu_si512(key.as_ptr().add(16) as *const _)) };
    let nblocks = blocks.len() / (4 * K);
    let bp = blocks.as_ptr();
    let op = out.as_mut_ptr();
    macro_rules! block {
        ($i:expr) => {{
            let i: usize = $i;
            // SAFETY: the callers pass a block number i < nblocks, so the
            // 128 bytes at 128·i lie inside `blocks`.
            let (m0, m1) = unsafe {
                let p = bp.add(i * 4 * K);
                (_mm512_loadu_si512(p as *const _), _mm512_loadu_si512(p.add(64) as *const _))
            };
            let s0 = _mm512_add_epi32(m0, x0);
            let s1 = _mm512_add_epi32(m1, x1);
            let p0 = _mm512_mul_epu32(s0, _mm512_srli_epi64::<32>(s0));
            let p1 = _mm512_mul_epu32(s1, _mm512_srli_epi64::<32>(s1));
            // SAFETY: this function has AVX-512F and AVX2.
            unsafe { fold(_mm512_add_epi64(p0, p1)) }
        }};
    }
    let mut b = 0;
    while b + 8 <= nblocks {
        let mut acc = [_mm256_setzero_si256(); 8];
        for (l, a) in acc.iter_mut().enumerate() {
            *a = block!(b + l);
        }
        // SAFETY: this function has AVX-512F and AVX2; blocks b..b+8 exist
        // and `out` has a word for each (asserted above).
        unsafe { emit8(sums8(&acc), op, b, 1, 0, 8) };
        b += 8;
    }
    while b < nblocks {
        let s = block!(b);
        // SAFETY: this function has AVX-512F and AVX2.
        let r = super::portable::reduce32(unsafe { hsum1(s) }).to_le_bytes();
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
        differential(Backend::Avx512, |c, out| match c.key.as_slice().try_into() {
            Ok(key) if c.outputs == 0 => super::nmh32(Platform::hardware(), key, &c.blocks, out),
            _ => super::mmh32(Platform::hardware(), &c.key, &c.blocks, out),
        });
    }
}
