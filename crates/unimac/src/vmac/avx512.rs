//! VHASH's NH (see [`super::nh`]) with AVX-512F, eight whole 128-byte blocks
//! per pass, one block per 512-bit vector pair.
//!
//! x86-64 has no vector 64×64→128 multiply, so each factor is split into
//! 32-bit halves, `a = ah·2^32 + al`, `b = bh·2^32 + bl`, and `vpmuludq`
//! gives the four partial products `ll = al·bl`, `lh = al·bh`, `hl = ah·bl`,
//! `hh = ah·bh`, each below `2^64`. The 128-bit product is
//! `hh·2^64 + (lh + hl)·2^32 + ll`; it is summed as four 32-bit digits kept in
//! 64-bit lanes, so no carry is ever lost:
//!
//! - `d0 = ll mod 2^32`
//! - `d1 = ⌊ll/2^32⌋ + (lh mod 2^32) + (hl mod 2^32)`
//! - `d2 = ⌊lh/2^32⌋ + ⌊hl/2^32⌋ + (hh mod 2^32)`
//! - `d3 = ⌊hh/2^32⌋`
//!
//! with product `= d0 + d1·2^32 + d2·2^64 + d3·2^96`. Each digit of one lane
//! is below `3·2^32`; a block sums 8 lanes (its 8 word pairs), below `2^35`
//! per digit, far from `2^64`. The eight lanes of each block's four digit
//! vectors are summed by a transposing tree (lane `i` of the result is the
//! sum of block `i`), and the digits are recombined mod `2^128` in scalar code.
//! VMAC-128's second iteration reads the key two words further on; the
//! message loads and word splits are shared.

use core::arch::x86_64::*;

use super::nh::KEY_WORDS;
use super::BLOCK;
use crate::Platform;

/// Blocks per pass.
pub(crate) const LANES: usize = 8;
/// Bytes per pass.
pub(crate) const STEP: usize = LANES * BLOCK;

/// `out[i][t] = NH(key[2t..2t+16], block i)` for the eight 128-byte blocks
/// of `msg` (exactly [`STEP`] bytes) and `t < N` (1 or 2).
pub(crate) fn nh8<const N: usize>(key: &[u64; KEY_WORDS], msg: &[u8]) -> [[u128; N]; LANES] {
    assert!(msg.len() == STEP, "the AVX-512 VHASH NH takes eight whole blocks");
    assert!(N == 1 || N == 2, "VHASH runs 1 or 2 iterations");
    let p = Platform::detect();
    assert!(p.avx512(), "the AVX-512 VHASH NH kernel needs AVX-512F");
    // SAFETY: AVX-512F is present (asserted above). The message loads read
    // bytes [128 i, 128 i + 128) for i < 8, within `msg` (asserted 1024
    // bytes); the key loads read words [2t, 2t + 16) with t <= 1, within the
    // 18 words of `key` (its type).
    unsafe { nh8_avx512::<N>(key, msg.as_ptr()) }
}

#[target_feature(enable = "avx512f")]
unsafe fn nh8_avx512<const N: usize>(key: &[u64; KEY_WORDS], msg: *const u8) -> [[u128; N]; LANES] {
    // SAFETY: words [2t, 2t + 16) of the 18-word key, t < N <= 2.
    let keys: [(__m512i, __m512i); N] = core::array::from_fn(|t| unsafe {
        let k0 = _mm512_loadu_si512(key.as_ptr().add(2 * t) as *const _);
        let k1 = _mm512_loadu_si512(key.as_ptr().add(2 * t + 8) as *const _);
        (k0, k1)
    });
    let mask = _mm512_set1_epi64(0xffff_ffff);
    let zero = _mm512_setzero_si512();
    let mut d = [[[zero; 4]; LANES]; N];
    let mut out = [[0u128; N]; LANES];
    #[allow(clippy::needless_range_loop)] // `i` indexes the message and `d[t]`
    for i in 0..LANES {
        // SAFETY: bytes [128 i, 128 i + 128) of the 1024-byte message.
        let (m0, m1) = unsafe {
            let p = msg.add(BLOCK * i);
            (_mm512_loadu_si512(p as *const _), _mm512_loadu_si512(p.add(64) as *const _))
        };
        for (t, (k0, k1)) in keys.iter().enumerate() {
            let x0 = _mm512_add_epi64(m0, *k0);
            let x1 = _mm512_add_epi64(m1, *k1);
            // Lanes 2q and 2q + 1 of `a` hold words 2q and 8 + 2q of the
            // block, those of `b` their partners 2q + 1 and 9 + 2q.
            let a = _mm512_unpacklo_epi64(x0, x1);
            let b = _mm512_unpackhi_epi64(x0, x1);
            let ah = _mm512_srli_epi64::<32>(a);
            let bh = _mm512_srli_epi64::<32>(b);
            let ll = _mm512_mul_epu32(a, b);
            let lh = _mm512_mul_epu32(a, bh);
            let hl = _mm512_mul_epu32(ah, b);
            let hh = _mm512_mul_epu32(ah, bh);
            let d0 = _mm512_and_si512(ll, mask);
            let d1 = _mm512_add_epi64(
                _mm512_srli_epi64::<32>(ll),
                _mm512_add_epi64(_mm512_and_si512(lh, mask), _mm512_and_si512(hl, mask)),
            );
            let d2 = _mm512_add_epi64(
                _mm512_add_epi64(_mm512_srli_epi64::<32>(lh), _mm512_srli_epi64::<32>(hl)),
                _mm512_and_si512(hh, mask),
            );
            let d3 = _mm512_srli_epi64::<32>(hh);
            d[t][i] = [d0, d1, d2, d3];
        }
    }
    for (t, dt) in d.iter().enumerate() {
        let mut sums = [[0u64; LANES]; 4];
        for (c, s) in sums.iter_mut().enumerate() {
            let v: [__m512i; LANES] = core::array::from_fn(|i| dt[i][c]);
            let r = hsum8(v);
            // SAFETY: `s` is 8 u64, one 64-byte store.
            unsafe { _mm512_storeu_si512(s.as_mut_ptr() as *mut _, r) };
        }
        for (i, o) in out.iter_mut().enumerate() {
            // Digit sums below 2^35: recombined mod 2^128 (NH wraps).
            let y = (sums[0][i] as u128)
                .wrapping_add((sums[1][i] as u128) << 32)
                .wrapping_add((sums[2][i] as u128) << 64)
                .wrapping_add((sums[3][i] as u128) << 96);
            o[t] = y;
        }
    }
    out
}

/// Lane `i` of the result is the sum of the eight lanes of `v[i]` (a
/// transposing tree: 64-bit pairs, then 128-bit lanes, then 256-bit halves).
#[inline]
#[target_feature(enable = "avx512f")]
fn hsum8(v: [__m512i; LANES]) -> __m512i {
    // Pairs of 64-bit words: lanes (2q, 2q + 1) of p[j] hold sums for v[2j]
    // and v[2j + 1] over the 128-bit lane q.
    let p: [__m512i; 4] = core::array::from_fn(|j| {
        let (x, y) = (v[2 * j], v[2 * j + 1]);
        _mm512_add_epi64(_mm512_unpacklo_epi64(x, y), _mm512_unpackhi_epi64(x, y))
    });
    // 128-bit lanes: with x = p[2j] (v[4j], v[4j + 1]) and y = p[2j + 1]
    // (v[4j + 2], v[4j + 3]), q[j] = (x0 + x1, x2 + x3, y0 + y1, y2 + y3).
    let q: [__m512i; 2] = core::array::from_fn(|j| {
        let (x, y) = (p[2 * j], p[2 * j + 1]);
        let lo = _mm512_shuffle_i64x2::<0b10_00_10_00>(x, y);
        let hi = _mm512_shuffle_i64x2::<0b11_01_11_01>(x, y);
        _mm512_add_epi64(lo, hi)
    });
    // Once more: 128-bit lane j of the sum holds (v[2j], v[2j + 1]) whole.
    let (x, y) = (q[0], q[1]);
    let lo = _mm512_shuffle_i64x2::<0b10_00_10_00>(x, y);
    let hi = _mm512_shuffle_i64x2::<0b11_01_11_01>(x, y);
    _mm512_add_epi64(lo, hi)
}
