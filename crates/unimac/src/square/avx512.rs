//! AVX-512 Square Hash: `SQH_E` (Def. 13) of eight blocks at once under one
//! key (the tree's and [`super::hash_blocks`]' case), one block per 64-bit lane.
//!
//! The method is [`super::avx2`]'s four-block kernel on 512-bit registers:
//! `vpmuludq` forms eight products `a_j a_k` (one per block) per
//! instruction; `vpaddd` adds each product's low and high 32-bit halves
//! into an accumulator's two halves with no carry between them, which is
//! exactly the carry-free sum `C(sum C2(·))` of Def. 13 (accumulator `S_r`
//! holds word `r` in its low half and word `r + 1`'s contribution in its
//! high half). Cross products `j < k` are summed once and doubled at the
//! end, halves separately (SPEC §3: identical words).
//!
//! `a = (m + x) mod 2^l` keeps its inner carries: for l = 96 and 128 the
//! carry out of the low 64 bits is AVX-512F's unsigned compare into a mask
//! (`vpcmpuq`), added to the high lane by a masked `vpaddq` — two
//! instructions where AVX2 needs four.

use core::arch::x86_64::*;

/// Element `i` of eight blocks `bl` bytes apart (`last`: the blocks' last),
/// as 64-bit lanes (lane `q` = block `q`): its low 64 bits and the rest
/// (V >= 3; for V = 3 the upper 32 bits of that lane are the next
/// element's, or zero). No byte outside the eight blocks is read: the last
/// element at V = 3 is loaded as 8 + 4 bytes.
///
/// # Safety
/// AVX-512F; `p` readable for `8 bl` bytes, `4V(i + 1) <= bl`.
#[inline(always)]
unsafe fn lanes8<const V: usize>(p: *const u8, bl: usize, i: usize, last: bool) -> (__m512i, __m512i) {
    let e0 = p.add(4 * V * i);
    match V {
        1 => {
            let d = |q: usize| u32::from_le_bytes(*(e0.add(q * bl) as *const [u8; 4])) as i32;
            let v = _mm256_setr_epi32(d(0), d(1), d(2), d(3), d(4), d(5), d(6), d(7));
            (_mm512_cvtepu32_epi64(v), _mm512_setzero_si512())
        }
        2 => {
            let d = |q: usize| i64::from_le_bytes(*(e0.add(q * bl) as *const [u8; 8]));
            (_mm512_setr_epi64(d(0), d(1), d(2), d(3), d(4), d(5), d(6), d(7)), _mm512_setzero_si512())
        }
        _ => {
            // v = (e0 | e2 | e4 | e6), w = (e1 | e3 | e5 | e7): the 128-bit
            // unpacks give lanes in block order 0..7. (Straight-line code,
            // no closures: they would not inherit AVX-512 and be outlined.)
            let (v, w) = if V == 3 && last {
                (quad12(e0, 2 * bl), quad12(e0.add(bl), 2 * bl))
            } else {
                (quad16(e0, 2 * bl), quad16(e0.add(bl), 2 * bl))
            };
            (_mm512_unpacklo_epi64(v, w), _mm512_unpackhi_epi64(v, w))
        }
    }
}

/// Sixteen bytes at `p`, `p + s`, `p + 2s`, `p + 3s` in the four 128-bit lanes.
#[inline(always)]
unsafe fn quad16(p: *const u8, s: usize) -> __m512i {
    let v = _mm512_castsi128_si512(_mm_loadu_si128(p as *const __m128i));
    let v = _mm512_inserti32x4::<1>(v, _mm_loadu_si128(p.add(s) as *const __m128i));
    let v = _mm512_inserti32x4::<2>(v, _mm_loadu_si128(p.add(2 * s) as *const __m128i));
    _mm512_inserti32x4::<3>(v, _mm_loadu_si128(p.add(3 * s) as *const __m128i))
}

/// Exactly twelve bytes (8, then 4 into dword 2) at `p`, `p + s`, `p + 2s`,
/// `p + 3s` in the four 128-bit lanes (dword 3 zero).
#[inline(always)]
unsafe fn quad12(p: *const u8, s: usize) -> __m512i {
    let ld = |q: *const u8| {
        let hi = u32::from_le_bytes(*(q.add(8) as *const [u8; 4]));
        _mm_insert_epi32::<2>(_mm_loadl_epi64(q as *const __m128i), hi as i32)
    };
    let v = _mm512_castsi128_si512(ld(p));
    let v = _mm512_inserti32x4::<1>(v, ld(p.add(s)));
    let v = _mm512_inserti32x4::<2>(v, ld(p.add(2 * s)));
    _mm512_inserti32x4::<3>(v, ld(p.add(3 * s)))
}

/// `SQH_E` of eight blocks at once: lane `q` is block `q`, all lanes share
/// the key element, broadcast from `prep` ([`super::avx2::prepare_key`]).
/// Writes block `q`'s carry-free words `2i` and `2i + 1` into `pairs[q][i]`
/// (low and high half), as [`super::avx2::e_blocks4`] does for four.
///
/// # Safety
/// The CPU must support AVX-512F. `blocks` holds eight blocks of
/// `4V · prep.len()` bytes each, `prep.len() >= 1`.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn e_blocks8<const V: usize>(prep: &[[u64; 4]], blocks: &[u8], pairs: &mut [[u64; 4]; 8]) {
    let bl = prep.len() * 4 * V;
    debug_assert_eq!(blocks.len(), 8 * bl);
    let k = prep.len();
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi64(1);
    let mut diag = [zero; 8];
    let mut cross = [zero; 8];
    let mut step = |i: usize, last: bool| {
        let x = &prep[i];
        // SAFETY (of the loads in lanes8): element i of each of the eight
        // blocks lies inside `blocks`.
        let (m_lo, m_hi) = lanes8::<V>(blocks.as_ptr(), bl, i, last);
        let mut a = [zero; 4];
        let lo = _mm512_add_epi64(m_lo, _mm512_set1_epi64(x[0] as i64));
        a[0] = lo;
        if V >= 2 {
            a[1] = _mm512_srli_epi64::<32>(lo);
        }
        if V >= 3 {
            // Carry out of the low 64 bits: lo < x_lo, unsigned.
            let carry = _mm512_cmplt_epu64_mask(lo, _mm512_set1_epi64(x[0] as i64));
            let hi = _mm512_add_epi64(m_hi, _mm512_set1_epi64(x[2] as i64));
            let hi = _mm512_mask_add_epi64(hi, carry, hi, one);
            a[2] = hi;
            a[3] = _mm512_srli_epi64::<32>(hi);
        }
        for j in 0..V {
            diag[2 * j] = _mm512_add_epi32(diag[2 * j], _mm512_mul_epu32(a[j], a[j]));
            for kk in j + 1..V {
                cross[j + kk] = _mm512_add_epi32(cross[j + kk], _mm512_mul_epu32(a[j], a[kk]));
            }
        }
    };
    // Two elements per turn; the last element (loaded as 8 + 4 bytes at
    // V = 3) on its own.
    let mut i = 0;
    while i + 2 < k {
        step(i, false);
        step(i + 1, false);
        i += 2;
    }
    if i + 1 < k {
        step(i, false);
    }
    step(k - 1, true);
    // Word r of each lane: lo(col_r) + hi(col_{r-1}), col = diag + 2 cross
    // (all mod 2^32 per half); words 2i and 2i + 1 side by side per lane.
    let mut word = [zero; 8];
    let mut prev = zero;
    for (r, w) in word.iter_mut().enumerate().take(2 * V) {
        let c = _mm512_add_epi32(diag[r], _mm512_add_epi32(cross[r], cross[r]));
        *w = _mm512_add_epi32(c, _mm512_srli_epi64::<32>(prev));
        prev = c;
    }
    for i in 0..V {
        let pair = _mm512_mask_blend_epi32(0xaaaa, word[2 * i], _mm512_slli_epi64::<32>(word[2 * i + 1]));
        let mut t = [0u64; 8];
        // SAFETY: a 64-byte store into a local array.
        _mm512_storeu_si512(t.as_mut_ptr() as *mut __m512i, pair);
        for q in 0..8 {
            pairs[q][i] = t[q];
        }
    }
}
