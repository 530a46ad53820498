//! AVX2 Square Hash: `SQH_E` (Def. 13) and the exact sums of Def. 7, 9, 10,
//! four elements of one block, or one element of four blocks, at a time.
//!
//! Each 64-bit lane holds one element's word `a_j` (in its low 32 bits);
//! `vpmuludq` forms the four products `a_j a_k` at once. The carry-free sums
//! come for free: `vpaddd` adds the low and the high 32-bit halves of a
//! product into an accumulator's two halves *with no carry between them*,
//! so accumulator `S_r` (all products with `j + k = r`) holds
//! `sum P mod 2^32` in its low half — word `r` of `C(sum C2(a_i^2))` — and
//! `sum (P >> 32) mod 2^32` in its high half — word `r + 1`. Cross products
//! (`j < k`) are computed once into their own accumulators and doubled at
//! the end, halves separately (the wire format allows this, docs/WIRE.md §4: identical words).
//!
//! The exact variants (Def. 7, 9, 10) use the same lanes with exact column
//! sums: each product is added whole into `S_r` (wrapping mod `2^64`) and
//! its high half into `H_{r+1}`; the exact sum of the low halves is then
//! `S_r - 2^32 H_{r+1}` (below `2^64` for a chunk), as [`portable::columns`]
//! computes them.
//!
//! `a = (m + x) mod 2^l` keeps its inner carries: for l = 96 and 128 the
//! low 64 bits are added in one lane and the carry out of them is detected
//! with a signed compare of sign-flipped values.

#![deny(unsafe_op_in_unsafe_fn)]

use crate::prelude::*;
use core::arch::x86_64::*;

use super::portable::{CHUNK, COLS};
use crate::platform::Platform;

/// The evidence every entry point of this module asserts.
fn require_avx2(platform: Platform) {
    assert!(platform.avx2_fma(), "Square Hash avx2 kernel without AVX2");
}

/// 16 bytes at dword `at` of `p`; with `MASKED`, dwords at or past `rem`
/// read as zero and are not touched (`vpmaskmovd` suppresses their faults).
///
/// # Safety
/// The CPU must support AVX2. Without `MASKED`, the 16 bytes at dword `at` of `p`
/// must be readable; with `MASKED`, those of its four dwords whose index
/// (`at`, `at + 1`, …) is below `rem`.
#[inline(always)]
unsafe fn ld128<const MASKED: bool>(p: *const u8, at: i32, rem: i32) -> __m128i {
    // SAFETY: the caller upholds the contract above: AVX2, and every dword loaded (all four, or those below `rem` with `MASKED`) is readable.
    unsafe {
        // wrapping_add: a masked group may start near the end of the slice, and
        // the masked-off dwords' addresses are never dereferenced.
        let q = p.wrapping_add(4 * at as usize);
        if MASKED {
            let idx = _mm_add_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32(at));
            _mm_maskload_epi32(q as *const i32, _mm_cmpgt_epi32(_mm_set1_epi32(rem), idx))
        } else {
            _mm_loadu_si128(q as *const __m128i)
        }
    }
}

/// 32 bytes at dword `at` of `p`, masked like [`ld128`].
///
/// # Safety
/// The CPU must support AVX2. Without `MASKED`, the 32 bytes at dword `at` of `p`
/// must be readable; with `MASKED`, those of its eight dwords whose index
/// is below `rem`.
#[inline(always)]
unsafe fn ld256<const MASKED: bool>(p: *const u8, at: i32, rem: i32) -> __m256i {
    // SAFETY: the caller upholds the contract above: AVX2, and every dword loaded (all eight, or those below `rem` with `MASKED`) is readable.
    unsafe {
        let q = p.wrapping_add(4 * at as usize);
        if MASKED {
            let idx = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(at));
            _mm256_maskload_epi32(q as *const i32, _mm256_cmpgt_epi32(_mm256_set1_epi32(rem), idx))
        } else {
            _mm256_loadu_si256(q as *const __m256i)
        }
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
    // SAFETY: the caller upholds the contract above (AVX2 and the bytes of `m` and `x` that `split` or the loads read).
    unsafe {
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
}

/// The low 64 bits and the rest (as a 64-bit lane, high garbage allowed
/// for V = 3) of four consecutive `4V`-byte elements, in some fixed lane
/// order (the same for key and message).
///
/// # Safety
/// The CPU must support AVX2. Without `MASKED`, `p` must be readable for
/// `4 · 4V` bytes (V = 4) or `4 · 4V + 4` bytes (V = 3: the last 16-byte
/// load ends 4 bytes past the fourth element); with `MASKED`, the dwords
/// of those below `rem`.
#[inline(always)]
unsafe fn split<const V: usize, const MASKED: bool>(p: *const u8, rem: i32) -> (__m256i, __m256i) {
    // SAFETY: the caller upholds the contract above (AVX2 and the dwords read).
    unsafe {
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
}

/// The words of `C(sum C2((m_i + x_i mod 2^l)^2))` (Def. 13), words `2i`
/// and `2i + 1` as the low and high half of `pairs[i]`.
///
/// # Panics
/// If `platform` lacks AVX2, or `key` and `msg` are not of equal lengths, a
/// multiple of `4V`.
pub(crate) fn e_columns<const V: usize>(platform: Platform, key: &[u8], msg: &[u8]) -> [u64; 4] {
    require_avx2(platform);
    // SAFETY: the evidence `platform` shows AVX2.
    unsafe { e_columns_avx2::<V>(key, msg) }
}

#[target_feature(enable = "avx2")]
fn e_columns_avx2<const V: usize>(key: &[u8], msg: &[u8]) -> [u64; 4] {
    // The loads below rely on both: whole elements, the same count in each.
    assert!(key.len() == msg.len() && key.len().is_multiple_of(4 * V));
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
        let a = unsafe { words4::<V, false>(msg.as_ptr().add(off), key.as_ptr().add(off), 0) };
        // SAFETY: this function has AVX2.
        unsafe { add_products::<V>(&a, &mut diag, &mut cross) };
        off += group;
    }
    while off < key.len() {
        let rem = ((key.len() - off) / 4) as i32;
        // SAFETY: masked loads touch only the `rem` dwords left in both slices.
        let a = unsafe { words4::<V, true>(msg.as_ptr().add(off), key.as_ptr().add(off), rem) };
        // SAFETY: this function has AVX2.
        unsafe { add_products::<V>(&a, &mut diag, &mut cross) };
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
    let mut pairs = [0u64; 4];
    for (i, p) in pairs.iter_mut().enumerate().take(V) {
        let pair = _mm256_blend_epi32::<0b1010_1010>(word[2 * i], _mm256_slli_epi64::<32>(word[2 * i + 1]));
        let s = _mm_add_epi32(_mm256_castsi256_si128(pair), _mm256_extracti128_si256::<1>(pair));
        let s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
        *p = _mm_cvtsi128_si64(s) as u64;
    }
    pairs
}

/// Add the products of one group's words into the accumulators.
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn add_products<const V: usize>(a: &[__m256i; 4], diag: &mut [__m256i; 8], cross: &mut [__m256i; 8]) {
    // SAFETY: register-only AVX2 instructions; the caller guarantees AVX2.
    unsafe {
        for j in 0..V {
            diag[2 * j] = _mm256_add_epi32(diag[2 * j], _mm256_mul_epu32(a[j], a[j]));
            for k in j + 1..V {
                cross[j + k] = _mm256_add_epi32(cross[j + k], _mm256_mul_epu32(a[j], a[k]));
            }
        }
    }
}

/// The words of `a = m + x` as `N` words for four elements: `N = V` is
/// [`words4`]; `N = V + 1` adds the carry out of bit `l` as the top word.
///
/// # Safety
/// The CPU must support AVX2; `m`, `x` and `rem` as for [`words4`].
#[inline(always)]
unsafe fn words4_carry<const V: usize, const N: usize, const MASKED: bool>(m: *const u8, x: *const u8, rem: i32) -> [__m256i; 5] {
    // SAFETY: the caller upholds the contract above (AVX2 and the bytes read, as for [`words4`]).
    unsafe {
        let zero = _mm256_setzero_si256();
        let sign = _mm256_set1_epi64x(i64::MIN);
        let low32 = _mm256_set1_epi64x(0xffff_ffff);
        // Unsigned a < b as a 0/1 lane.
        let below = |a: __m256i, b: __m256i| {
            _mm256_srli_epi64::<63>(_mm256_cmpgt_epi64(_mm256_xor_si256(b, sign), _mm256_xor_si256(a, sign)))
        };
        let mut a = [zero; 5];
        match V {
            1 => {
                let s = _mm256_add_epi64(
                    _mm256_cvtepu32_epi64(ld128::<MASKED>(m, 0, rem)),
                    _mm256_cvtepu32_epi64(ld128::<MASKED>(x, 0, rem)),
                );
                a[0] = s;
                a[1] = _mm256_srli_epi64::<32>(s);
            }
            2 => {
                let (mm, xx) = (ld256::<MASKED>(m, 0, rem), ld256::<MASKED>(x, 0, rem));
                let s = _mm256_add_epi64(mm, xx);
                a[0] = s;
                a[1] = _mm256_srli_epi64::<32>(s);
                a[2] = below(s, xx);
            }
            _ => {
                let (m_lo, m_hi) = split::<V, MASKED>(m, rem);
                let (x_lo, x_hi) = split::<V, MASKED>(x, rem);
                let lo = _mm256_add_epi64(m_lo, x_lo);
                let c = below(lo, x_lo);
                a[0] = lo;
                a[1] = _mm256_srli_epi64::<32>(lo);
                if V == 3 {
                    // The 32-bit top words, cleaned, plus the carry: bit 32 is the carry out of bit 96.
                    let hi = _mm256_add_epi64(_mm256_add_epi64(_mm256_and_si256(m_hi, low32), _mm256_and_si256(x_hi, low32)), c);
                    a[2] = hi;
                    a[3] = _mm256_srli_epi64::<32>(hi);
                } else {
                    let s1 = _mm256_add_epi64(m_hi, x_hi);
                    let hi = _mm256_add_epi64(s1, c);
                    a[2] = hi;
                    a[3] = _mm256_srli_epi64::<32>(hi);
                    // Carry out of bit 128: from m_hi + x_hi, or from adding c.
                    a[4] = _mm256_or_si256(below(s1, x_hi), below(hi, s1));
                }
            }
        }
        if N == V {
            a[V] = zero;
        }
        a
    }
}

/// Exact columns `sum (d_r + 2 x_r)` of [`portable::columns`]`::<V, N>` (the
/// same contract: `init` carried in, at most [`CHUNK`] elements).
///
/// # Panics
/// If `platform` lacks AVX2, or `key` and `msg` are not of equal lengths, a
/// multiple of `4V`, or hold more than [`CHUNK`] elements.
pub(crate) fn exact_columns<const V: usize, const N: usize>(
    platform: Platform,
    key: &[u8],
    msg: &[u8],
    init: &[u64; COLS],
) -> [u64; COLS] {
    require_avx2(platform);
    // SAFETY: the evidence `platform` shows AVX2.
    unsafe { exact_columns_avx2::<V, N>(key, msg, init) }
}

#[target_feature(enable = "avx2")]
fn exact_columns_avx2<const V: usize, const N: usize>(key: &[u8], msg: &[u8], init: &[u64; COLS]) -> [u64; COLS] {
    assert!(key.len() == msg.len() && key.len().is_multiple_of(4 * V) && key.len() / (4 * V) <= CHUNK);
    let b = 4 * V;
    let zero = _mm256_setzero_si256();
    // S: whole products (wrapping); H: their high halves, at the column above.
    let (mut sd, mut hd, mut sx, mut hx) = ([zero; COLS + 1], [zero; COLS + 1], [zero; COLS + 1], [zero; COLS + 1]);
    let group = 4 * b;
    let full = key.len() / group * group;
    let direct = if V == 3 && full == key.len() { full.saturating_sub(group) } else { full };
    let mut off = 0;
    let mut step = |a: &[__m256i; 5]| {
        for j in 0..N {
            let p = _mm256_mul_epu32(a[j], a[j]);
            sd[2 * j] = _mm256_add_epi64(sd[2 * j], p);
            hd[2 * j + 1] = _mm256_add_epi64(hd[2 * j + 1], _mm256_srli_epi64::<32>(p));
            for k in j + 1..N {
                let p = _mm256_mul_epu32(a[j], a[k]);
                sx[j + k] = _mm256_add_epi64(sx[j + k], p);
                hx[j + k + 1] = _mm256_add_epi64(hx[j + k + 1], _mm256_srli_epi64::<32>(p));
            }
        }
    };
    while off < direct {
        // SAFETY: bytes off .. off + group (+ 4 when V = 3) are inside both slices.
        let a = unsafe { words4_carry::<V, N, false>(msg.as_ptr().add(off), key.as_ptr().add(off), 0) };
        step(&a);
        off += group;
    }
    while off < key.len() {
        let rem = ((key.len() - off) / 4) as i32;
        // SAFETY: masked loads touch only the `rem` dwords left in both slices.
        let a = unsafe { words4_carry::<V, N, true>(msg.as_ptr().add(off), key.as_ptr().add(off), rem) };
        step(&a);
        off += group;
    }
    let lanes = |v: __m256i| -> u64 {
        let mut t = [0u64; 4];
        // SAFETY: a 32-byte store into a local array.
        unsafe { _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, v) };
        t[0].wrapping_add(t[1]).wrapping_add(t[2]).wrapping_add(t[3])
    };
    let mut cols = *init;
    for r in 0..2 * N {
        // Low halves of column r: S_r - 2^32 H_{r+1}; high halves: H_r.
        let (sdr, sxr) = (lanes(sd[r]), lanes(sx[r]));
        let (hd1, hx1) = (lanes(hd[r + 1]), lanes(hx[r + 1]));
        let (hdr, hxr) = (lanes(hd[r]), lanes(hx[r]));
        let lo = sdr.wrapping_sub(hd1 << 32).wrapping_add(2 * sxr.wrapping_sub(hx1 << 32));
        cols[r] += lo + hdr + 2 * hxr;
    }
    cols
}

/// Element `i` of four blocks `bl` bytes apart (`last`: the blocks' last), as 64-bit lanes:
/// its low 64 bits and the rest (V >= 3; for V = 3 the upper 32 bits of
/// that lane are the next element's, or zero). No byte outside the four
/// blocks is read: the last element at V = 3 is loaded as 8 + 4 bytes.
///
/// # Safety
/// The CPU must support AVX2; `p` must be readable for four blocks of `bl`
/// bytes, and element `i` (of `4V` bytes) must lie inside each.
#[inline(always)]
unsafe fn lanes4<const V: usize>(p: *const u8, bl: usize, i: usize, last: bool) -> (__m256i, __m256i) {
    // SAFETY: the caller upholds the contract above (AVX2 and element `i` of the four blocks readable).
    unsafe {
        let e = |q: usize| p.add(q * bl + 4 * V * i);
        let ld16 = |q: usize| -> __m128i {
            if V == 3 && last {
                // Exactly the element's 12 bytes: 8, then 4 into dword 2.
                let hi = u32::from_le_bytes(*(e(q).add(8) as *const [u8; 4]));
                _mm_insert_epi32::<2>(_mm_loadl_epi64(e(q) as *const __m128i), hi as i32)
            } else {
                _mm_loadu_si128(e(q) as *const __m128i)
            }
        };
        match V {
            1 => {
                let d = |q: usize| u32::from_le_bytes(*(e(q) as *const [u8; 4])) as i64;
                (_mm256_setr_epi64x(d(0), d(1), d(2), d(3)), _mm256_setzero_si256())
            }
            2 => {
                let q01 = _mm_unpacklo_epi64(_mm_loadl_epi64(e(0) as *const __m128i), _mm_loadl_epi64(e(1) as *const __m128i));
                let q23 = _mm_unpacklo_epi64(_mm_loadl_epi64(e(2) as *const __m128i), _mm_loadl_epi64(e(3) as *const __m128i));
                (_mm256_inserti128_si256::<1>(_mm256_castsi128_si256(q01), q23), _mm256_setzero_si256())
            }
            _ => {
                // Lanes ordered 0, 1, 2, 3: v = (e0 | e2), w = (e1 | e3).
                let v = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(ld16(0)), ld16(2));
                let w = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(ld16(1)), ld16(3));
                (_mm256_unpacklo_epi64(v, w), _mm256_unpackhi_epi64(v, w))
            }
        }
    }
}

/// `SQH_E` of four blocks at once (the tree's case): lane `q` is block `q`,
/// all lanes share the key element, which is broadcast. Writes block `q`'s
/// carry-free words `2i` and `2i + 1` into `pairs[q][i]` (low and high half).
/// `prep` is [`prepare_key`] of the key.
///
/// # Panics
/// If `platform` lacks AVX2, `prep` is empty, or `blocks` is not four
/// blocks of `4V · prep.len()` bytes.
pub(crate) fn e_blocks4<const V: usize>(platform: Platform, prep: &[[u64; 4]], blocks: &[u8], pairs: &mut [[u64; 4]; 4]) {
    require_avx2(platform);
    // SAFETY: the evidence `platform` shows AVX2.
    unsafe { e_blocks4_avx2::<V>(prep, blocks, pairs) }
}

#[target_feature(enable = "avx2")]
fn e_blocks4_avx2<const V: usize>(prep: &[[u64; 4]], blocks: &[u8], pairs: &mut [[u64; 4]; 4]) {
    let bl = prep.len() * 4 * V;
    assert!(!prep.is_empty() && blocks.len() == 4 * bl);
    let k = prep.len();
    let zero = _mm256_setzero_si256();
    let sign = _mm256_set1_epi64x(i64::MIN);
    let mut diag = [zero; 8];
    let mut cross = [zero; 8];
    // One-load broadcasts of the prepared key words.
    // SAFETY: an 8-byte load from a reference to a u64.
    let bcast = |x: &u64| _mm256_broadcastq_epi64(unsafe { _mm_loadl_epi64(x as *const u64 as *const __m128i) });
    let mut step = |i: usize, last: bool| {
        let x = &prep[i];
        // SAFETY: element i < k of each of the four blocks lies inside
        // `blocks` (four blocks of k elements, asserted above).
        let (m_lo, m_hi) = unsafe { lanes4::<V>(blocks.as_ptr(), bl, i, last) };
        let mut a = [zero; 4];
        if V == 1 {
            a[0] = _mm256_add_epi64(m_lo, bcast(&x[0]));
        } else {
            let lo = _mm256_add_epi64(m_lo, bcast(&x[0]));
            a[0] = lo;
            a[1] = _mm256_srli_epi64::<32>(lo);
            if V >= 3 {
                // Carry out of the low 64 bits: lo < x_lo, unsigned.
                let carry = _mm256_cmpgt_epi64(bcast(&x[1]), _mm256_xor_si256(lo, sign));
                let hi = _mm256_sub_epi64(_mm256_add_epi64(m_hi, bcast(&x[2])), carry);
                a[2] = hi;
                a[3] = _mm256_srli_epi64::<32>(hi);
            }
        }
        // SAFETY: this function has AVX2.
        unsafe { add_products::<V>(&a, &mut diag, &mut cross) };
    };
    // Two elements per turn; the last element (loaded from 4 bytes earlier
    // at V = 3) on its own.
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
    // Word r of each lane: lo(col_r) + hi(col_{r-1}), col = diag + 2 cross;
    // words 2i and 2i + 1 side by side in one u64 per lane.
    let mut word = [zero; 8];
    let mut prev = zero;
    for (r, w) in word.iter_mut().enumerate().take(2 * V) {
        let c = _mm256_add_epi32(diag[r], _mm256_add_epi32(cross[r], cross[r]));
        *w = _mm256_add_epi32(c, _mm256_srli_epi64::<32>(prev));
        prev = c;
    }
    for i in 0..V {
        let pair = _mm256_blend_epi32::<0b1010_1010>(word[2 * i], _mm256_slli_epi64::<32>(word[2 * i + 1]));
        let mut t = [0u64; 4];
        // SAFETY: a 32-byte store into a local array.
        unsafe { _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, pair) };
        for q in 0..4 {
            pairs[q][i] = t[q];
        }
    }
}

/// Per key element: its low 64 bits, the same with the sign bit flipped (for
/// the unsigned carry compare), and its next word(s), as [`e_blocks4`] broadcasts them.
pub(crate) fn prepare_key<const V: usize>(key: &[u8]) -> Vec<[u64; 4]> {
    key.chunks_exact(4 * V)
        .map(|x| {
            let mut e = [0u8; 16];
            e[..4 * V].copy_from_slice(x);
            let lo = u64::from_le_bytes(e[..8].try_into().expect("8 bytes"));
            let hi = u64::from_le_bytes(e[8..].try_into().expect("8 bytes"));
            [lo, lo ^ (1 << 63), hi, 0]
        })
        .collect()
}

/// Exact columns of [`portable::columns`]`::<V, N>` for four blocks at once
/// (lanes = blocks, key broadcast from [`prepare_key`]), one column array
/// per block, as [`e_blocks4`] does for Def. 13. `N = V` is Def. 10,
/// `N = V + 1` (the carry out of bit `l` as the top word) Def. 7 and 9.
///
/// # Panics
/// If `platform` lacks AVX2, or `blocks` is not four blocks of
/// `4V · prep.len()` bytes with `1 <= prep.len() <= CHUNK`.
pub(crate) fn exact_blocks4<const V: usize, const N: usize>(
    platform: Platform,
    prep: &[[u64; 4]],
    blocks: &[u8],
    cols: &mut [[u64; COLS]; 4],
) {
    require_avx2(platform);
    // SAFETY: the evidence `platform` shows AVX2.
    unsafe { exact_blocks4_avx2::<V, N>(prep, blocks, cols) }
}

#[target_feature(enable = "avx2")]
fn exact_blocks4_avx2<const V: usize, const N: usize>(prep: &[[u64; 4]], blocks: &[u8], cols: &mut [[u64; COLS]; 4]) {
    let k = prep.len();
    let bl = k * 4 * V;
    assert!(blocks.len() == 4 * bl && (1..=CHUNK).contains(&k));
    let zero = _mm256_setzero_si256();
    let sign = _mm256_set1_epi64x(i64::MIN);
    let low32 = _mm256_set1_epi64x(0xffff_ffff);
    // SAFETY: an 8-byte load from a reference to a u64.
    let bcast = |x: &u64| _mm256_broadcastq_epi64(unsafe { _mm_loadl_epi64(x as *const u64 as *const __m128i) });
    // 0/1 lanes: a < b unsigned, with b^sign given.
    let below = |a: __m256i, b_sign: __m256i| _mm256_srli_epi64::<63>(_mm256_cmpgt_epi64(b_sign, _mm256_xor_si256(a, sign)));
    let (mut sd, mut hd, mut sx, mut hx) = ([zero; COLS + 1], [zero; COLS + 1], [zero; COLS + 1], [zero; COLS + 1]);
    let mut step = |i: usize, last: bool| {
        let x = &prep[i];
        // SAFETY: element i < k of each of the four blocks lies inside
        // `blocks` (four blocks of k elements, asserted above).
        let (m_lo, m_hi) = unsafe { lanes4::<V>(blocks.as_ptr(), bl, i, last) };
        let mut a = [zero; 5];
        let lo = _mm256_add_epi64(m_lo, bcast(&x[0]));
        a[0] = lo;
        a[1] = _mm256_srli_epi64::<32>(lo);
        match V {
            1 => {} // a[1] is the carry out of bit 32 (elements are zero-extended).
            2 => a[2] = below(lo, bcast(&x[1])),
            3 => {
                let c = below(lo, bcast(&x[1]));
                let hi = _mm256_add_epi64(_mm256_add_epi64(_mm256_and_si256(m_hi, low32), bcast(&x[2])), c);
                a[2] = hi;
                a[3] = _mm256_srli_epi64::<32>(hi);
            }
            _ => {
                let c = below(lo, bcast(&x[1]));
                let xh = bcast(&x[2]);
                let s1 = _mm256_add_epi64(m_hi, xh);
                let hi = _mm256_add_epi64(s1, c);
                a[2] = hi;
                a[3] = _mm256_srli_epi64::<32>(hi);
                a[4] = _mm256_or_si256(below(s1, _mm256_xor_si256(xh, sign)), below(hi, _mm256_xor_si256(s1, sign)));
            }
        }
        if N == V {
            a[V] = zero;
        }
        for j in 0..N {
            let p = _mm256_mul_epu32(a[j], a[j]);
            sd[2 * j] = _mm256_add_epi64(sd[2 * j], p);
            hd[2 * j + 1] = _mm256_add_epi64(hd[2 * j + 1], _mm256_srli_epi64::<32>(p));
            for kk in j + 1..N {
                let p = _mm256_mul_epu32(a[j], a[kk]);
                sx[j + kk] = _mm256_add_epi64(sx[j + kk], p);
                hx[j + kk + 1] = _mm256_add_epi64(hx[j + kk + 1], _mm256_srli_epi64::<32>(p));
            }
        }
    };
    for i in 0..k - 1 {
        step(i, false);
    }
    step(k - 1, true);
    // Per lane: low halves of column r are S_r - 2^32 H_{r+1}, high halves H_r.
    for r in 0..2 * N {
        let lo_d = _mm256_sub_epi64(sd[r], _mm256_slli_epi64::<32>(hd[r + 1]));
        let lo_x = _mm256_sub_epi64(sx[r], _mm256_slli_epi64::<32>(hx[r + 1]));
        let c = _mm256_add_epi64(_mm256_add_epi64(lo_d, hd[r]), _mm256_slli_epi64::<1>(_mm256_add_epi64(lo_x, hx[r])));
        let mut t = [0u64; 4];
        // SAFETY: a 32-byte store into a local array.
        unsafe { _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, c) };
        for q in 0..4 {
            cols[q][r] = t[q];
        }
    }
    for c in cols.iter_mut() {
        c[2 * N..].fill(0);
    }
}

#[cfg(test)]
mod differential {
    #[test]
    fn matches_the_reference() {
        super::super::tests::differential(super::super::Backend::Avx2Fma);
    }
}
