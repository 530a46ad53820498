//! AVX2 Square Hash `SQH_E` (Def. 13): four elements at a time.
//!
//! Each 64-bit lane holds one element's word `a_j` (in its low 32 bits);
//! `vpmuludq` forms the four products `a_j a_k` at once. The carry-free sums
//! come for free: `vpaddd` adds the low and the high 32-bit halves of a
//! product into an accumulator's two halves *with no carry between them*,
//! so accumulator `S_r` (all products with `j + k = r`) holds
//! `sum P mod 2^32` in its low half — word `r` of `C(sum C2(a_i^2))` — and
//! `sum (P >> 32) mod 2^32` in its high half — word `r + 1`. Cross products
//! (`j < k`) are computed once into their own accumulators and doubled at
//! the end, halves separately (SPEC §3 allows this: identical words).
//! `a = (m + x) mod 2^l` keeps its inner carries: for l = 96 and 128 the
//! low 64 bits are added in one lane and the carry out of them is detected
//! with a signed compare of sign-flipped values.

use core::arch::x86_64::*;

use super::portable::COLS;

/// 16 bytes at dword `at` of `p`; with `MASKED`, dwords at or past `rem`
/// read as zero and are not touched (`vpmaskmovd` suppresses their faults).
#[inline(always)]
unsafe fn ld128<const MASKED: bool>(p: *const u8, at: i32, rem: i32) -> __m128i {
    let q = p.add(4 * at as usize);
    if MASKED {
        let idx = _mm_add_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32(at));
        _mm_maskload_epi32(q as *const i32, _mm_cmpgt_epi32(_mm_set1_epi32(rem), idx))
    } else {
        _mm_loadu_si128(q as *const __m128i)
    }
}

/// 32 bytes at dword `at` of `p`, masked like [`ld128`].
#[inline(always)]
unsafe fn ld256<const MASKED: bool>(p: *const u8, at: i32, rem: i32) -> __m256i {
    let q = p.add(4 * at as usize);
    if MASKED {
        let idx = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(at));
        _mm256_maskload_epi32(q as *const i32, _mm256_cmpgt_epi32(_mm256_set1_epi32(rem), idx))
    } else {
        _mm256_loadu_si256(q as *const __m256i)
    }
}

/// Words `a_0..a_{V-1}` of `(m + x) mod 2^l` for four elements, one per lane
/// (only the low 32 bits of each lane are meaningful).
///
/// # Safety
/// AVX2 must be available; `m` and `x` must be readable for `4 · 4V` bytes,
/// and 4 more when `V = 3`.
#[inline(always)]
unsafe fn words4<const V: usize, const MASKED: bool>(m: *const u8, x: *const u8, rem: i32) -> [__m256i; 4] {
    let zero = _mm256_setzero_si256();
    let mut a = [zero; 4];
    match V {
        1 => {
            let mm = _mm256_cvtepu32_epi64(ld128::<MASKED>(m, 0, rem));
            let xx = _mm256_cvtepu32_epi64(ld128::<MASKED>(x, 0, rem));
            a[0] = _mm256_add_epi64(mm, xx);
        }
        2 => {
            let s = _mm256_add_epi64(ld256::<MASKED>(m, 0, rem), ld256::<MASKED>(x, 0, rem));
            a[0] = s;
            a[1] = _mm256_srli_epi64::<32>(s);
        }
        _ => {
            let (m_lo, m_hi) = split::<V, MASKED>(m, rem);
            let (x_lo, x_hi) = split::<V, MASKED>(x, rem);
            let lo = _mm256_add_epi64(m_lo, x_lo);
            // Carry out of the low 64 bits: lo < x as unsigned numbers.
            let sign = _mm256_set1_epi64x(i64::MIN);
            let carry = _mm256_cmpgt_epi64(_mm256_xor_si256(x_lo, sign), _mm256_xor_si256(lo, sign));
            let hi = _mm256_sub_epi64(_mm256_add_epi64(m_hi, x_hi), carry);
            a[0] = lo;
            a[1] = _mm256_srli_epi64::<32>(lo);
            a[2] = hi;
            a[3] = _mm256_srli_epi64::<32>(hi);
        }
    }
    a
}

/// The low 64 bits and the rest (as a 64-bit lane, high garbage allowed
/// for V = 3) of four consecutive `4V`-byte elements, in some fixed lane
/// order (the same for key and message).
#[inline(always)]
unsafe fn split<const V: usize, const MASKED: bool>(p: *const u8, rem: i32) -> (__m256i, __m256i) {
    if V == 3 {
        // Elements at bytes 0, 12, 24, 36: lanes (e0 | e2) and (e1 | e3),
        // 16 bytes each (the last reads 4 bytes past the group).
        let v = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(ld128::<MASKED>(p, 0, rem)), ld128::<MASKED>(p, 6, rem));
        let w = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(ld128::<MASKED>(p, 3, rem)), ld128::<MASKED>(p, 9, rem));
        (_mm256_unpacklo_epi64(v, w), _mm256_unpackhi_epi64(v, w))
    } else {
        // V = 4: elements of 16 bytes; lanes e0, e2, e1, e3.
        let v = ld256::<MASKED>(p, 0, rem);
        let w = ld256::<MASKED>(p, 8, rem);
        (_mm256_unpacklo_epi64(v, w), _mm256_unpackhi_epi64(v, w))
    }
}

/// The columns of `C(sum C2((m_i + x_i mod 2^l)^2))` (Def. 13) mod `2^32`,
/// as [`portable::finish`] takes them.
///
/// # Safety
/// The CPU must support AVX2. `key` and `msg` have equal lengths, a multiple of `4V`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn e_columns<const V: usize>(key: &[u8], msg: &[u8]) -> [u64; COLS] {
    debug_assert_eq!(key.len(), msg.len());
    let b = 4 * V;
    let zero = _mm256_setzero_si256();
    let mut diag = [zero; 8];
    let mut cross = [zero; 8];
    let group = 4 * b;
    let full = key.len() / group * group;
    // The last group of four may run past the end, and for V = 3 every
    // group reads 4 bytes past itself: such groups use masked loads, the
    // missing elements reading as zero, which add nothing (a = 0 + 0).
    let direct = if V == 3 && full == key.len() { full.saturating_sub(group) } else { full };
    let mut off = 0;
    while off < direct {
        // SAFETY: bytes off .. off + group (+ 4 when V = 3) are inside both slices.
        let a = words4::<V, false>(msg.as_ptr().add(off), key.as_ptr().add(off), 0);
        add_products::<V>(&a, &mut diag, &mut cross);
        off += group;
    }
    while off < key.len() {
        // SAFETY: masked loads touch only the `rem` dwords left in both slices.
        let rem = ((key.len() - off) / 4) as i32;
        let a = words4::<V, true>(msg.as_ptr().add(off), key.as_ptr().add(off), rem);
        add_products::<V>(&a, &mut diag, &mut cross);
        off += group;
    }
    // Column r of one lane is diag_r + 2·cross_r, halves doubled separately
    // (vpaddd); its low half belongs to word r, its high half to word r + 1.
    // So word r of a lane is lo(col_r) + hi(col_{r-1}): one shift and one add.
    let col = |r: usize| _mm256_add_epi32(diag[r], _mm256_add_epi32(cross[r], cross[r]));
    let mut word = [zero; 8];
    let mut prev = zero;
    for (r, w) in word.iter_mut().enumerate().take(2 * V) {
        let c = col(r);
        *w = _mm256_add_epi32(c, _mm256_srli_epi64::<32>(prev));
        prev = c;
    }
    // Pairs of words (2i, 2i + 1) side by side, then the four lanes summed
    // dword-wise: one u64 per pair.
    let mut cols = [0u64; COLS];
    for i in 0..V {
        let pair = _mm256_blend_epi32::<0b1010_1010>(word[2 * i], _mm256_slli_epi64::<32>(word[2 * i + 1]));
        let s = _mm_add_epi32(_mm256_castsi256_si128(pair), _mm256_extracti128_si256::<1>(pair));
        let s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
        let v = _mm_cvtsi128_si64(s) as u64;
        cols[2 * i] = v & 0xffff_ffff;
        cols[2 * i + 1] = v >> 32;
    }
    cols
}

/// Add the products of one group's words into the accumulators.
#[inline(always)]
unsafe fn add_products<const V: usize>(a: &[__m256i; 4], diag: &mut [__m256i; 8], cross: &mut [__m256i; 8]) {
    for j in 0..V {
        diag[2 * j] = _mm256_add_epi32(diag[2 * j], _mm256_mul_epu32(a[j], a[j]));
        for k in j + 1..V {
            cross[j + k] = _mm256_add_epi32(cross[j + k], _mm256_mul_epu32(a[j], a[k]));
        }
    }
}
