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

/// One element `i` of eight blocks into the accumulators.
///
/// # Safety
/// AVX-512F; element `i` of each of the eight blocks `bl` bytes apart from
/// `p` is readable.
#[inline(always)]
unsafe fn e_step<const V: usize>(
    x: &[u64; 4],
    p: *const u8,
    bl: usize,
    i: usize,
    last: bool,
    diag: &mut [__m512i; 8],
    cross: &mut [__m512i; 8],
) {
    let zero = _mm512_setzero_si512();
    let (m_lo, m_hi) = lanes8::<V>(p, bl, i, last);
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
        let hi = _mm512_mask_add_epi64(hi, carry, hi, _mm512_set1_epi64(1));
        a[2] = hi;
        a[3] = _mm512_srli_epi64::<32>(hi);
    }
    for j in 0..V {
        diag[2 * j] = _mm512_add_epi32(diag[2 * j], _mm512_mul_epu32(a[j], a[j]));
        for kk in j + 1..V {
            cross[j + kk] = _mm512_add_epi32(cross[j + kk], _mm512_mul_epu32(a[j], a[kk]));
        }
    }
}

/// The carry-free words of Def. 13 for eight blocks (lane `q` = block
/// `q`, all lanes sharing the key element broadcast from `prep`): word `r`
/// in the low 32 bits of each lane of `word[r]`, `r < 2V` (high halves
/// are not part of the word).
///
/// # Safety
/// AVX-512F; `blocks` holds eight blocks of `4V · prep.len()` bytes each,
/// `prep.len() >= 1`.
#[target_feature(enable = "avx512f")]
unsafe fn e_words8<const V: usize>(prep: &[[u64; 4]], blocks: &[u8]) -> [__m512i; 8] {
    let bl = prep.len() * 4 * V;
    debug_assert_eq!(blocks.len(), 8 * bl);
    let k = prep.len();
    let zero = _mm512_setzero_si512();
    let mut diag = [zero; 8];
    let mut cross = [zero; 8];
    let mut step = |i: usize, last: bool| e_step::<V>(&prep[i], blocks.as_ptr(), bl, i, last, &mut diag, &mut cross);
    // Two elements per turn; the last element (loaded as 8 + 4 bytes at
    // V = 3) on its own.
    let mut i = 0;
    while i + 4 < k {
        step(i, false);
        step(i + 1, false);
        step(i + 2, false);
        step(i + 3, false);
        i += 4;
    }
    while i + 1 < k {
        step(i, false);
        i += 1;
    }
    step(k - 1, true);
    // Word r of each lane: lo(col_r) + hi(col_{r-1}), col = diag + 2 cross
    // (all mod 2^32 per half).
    let mut word = [zero; 8];
    let mut prev = zero;
    for (r, w) in word.iter_mut().enumerate().take(2 * V) {
        let c = _mm512_add_epi32(diag[r], _mm512_add_epi32(cross[r], cross[r]));
        *w = _mm512_add_epi32(c, _mm512_srli_epi64::<32>(prev));
        prev = c;
    }
    word
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
    let word = e_words8::<V>(prep, blocks);
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

/// `(X mod p) mod 2^l` per lane (`V <= 3`) of the words `word[0..2V]`
/// (low 32 bits of each lane), as 32-bit words in the low halves of the
/// `V` results; see [`e_blocks8_reduced`] for the method and its bounds.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn reduce8<const V: usize>(word: &[__m512i; 8]) -> [__m512i; 3] {
    let t = super::portable::T[V];
    let m32 = _mm512_set1_epi64(0xffff_ffff);
    let tv = _mm512_set1_epi64(t as i64);
    // y = L + t·!H + t(t + 1), carried into 32-bit limbs u_j and the top c.
    let mut u = [_mm512_setzero_si512(); 3];
    let mut carry = _mm512_set1_epi64((t * (t + 1)) as i64);
    for j in 0..V {
        let not_h = _mm512_andnot_si512(word[V + j], m32);
        let y = _mm512_add_epi64(_mm512_add_epi64(_mm512_and_si512(word[j], m32), carry), _mm512_mul_epu32(not_h, tv));
        u[j] = _mm512_and_si512(y, m32);
        carry = _mm512_srli_epi64::<32>(y);
    }
    // z = u − t c with borrows (arithmetic shifts: limbs become signed).
    let mut borrow = _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_mul_epu32(carry, tv));
    let mut d = [_mm512_setzero_si512(); 3];
    for j in 0..V {
        let v = _mm512_add_epi64(u[j], borrow);
        d[j] = _mm512_and_si512(v, m32);
        borrow = _mm512_srai_epi64::<32>(v);
    }
    // z < 0 (borrow = −1): add t mod 2^l.
    let mut carry = _mm512_and_si512(borrow, tv);
    let mut r = [_mm512_setzero_si512(); 3];
    for j in 0..V {
        let v = _mm512_add_epi64(d[j], carry);
        r[j] = v;
        carry = _mm512_srli_epi64::<32>(v);
    }
    r
}

/// `SQH_E` of eight blocks at once with the reduction in the lanes too
/// (`V <= 3`): writes block `q`'s `4V`-byte output `(X mod p) mod 2^l`
/// to `out[4Vq..]`, `X` its carry-free words.
///
/// With `X = L + 2^l H` (`L, H < 2^l`, `p = 2^l + t`):
/// `X ≡ y = L + t(p − H) = L + t·!H + t(t + 1)` where `!H = 2^l − 1 − H`
/// is `H`'s words complemented; `y < (t + 2) 2^l` (`t ≤ 61`), so
/// `y = u + 2^l c` with `c ≤ t + 1` and `z = u − t c ≡ X`,
/// `−t(t + 1) ≤ z < 2^l`. If `z < 0`, `X mod p = z + p`, whose residue
/// mod `2^l` is `z + t`; else `X mod p = z`. All limbs are 32-bit words in
/// 64-bit lanes (each sum below `2^39`).
///
/// # Safety
/// The CPU must support AVX-512F. `blocks` holds eight blocks of
/// `4V · prep.len()` bytes each, `prep.len() >= 1`; `out` is `32V` bytes.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn e_blocks8_reduced<const V: usize>(prep: &[[u64; 4]], blocks: &[u8], out: &mut [u8]) {
    debug_assert!(V <= 3);
    debug_assert_eq!(out.len(), 32 * V);
    let word = e_words8::<V>(prep, blocks);
    let r = reduce8::<V>(&word);
    // Output dword V q + j is word j of lane q: pack the low halves into
    // the 8V contiguous output dwords and store them whole.
    assert_eq!(out.len(), 32 * V);
    let o = out.as_mut_ptr();
    match V {
        1 => {
            // SAFETY: 32 bytes into `out` (32V = 32 bytes).
            _mm256_storeu_si256(o as *mut __m256i, _mm512_cvtepi64_epi32(r[0]));
        }
        2 => {
            let pair = _mm512_mask_blend_epi32(0xaaaa, r[0], _mm512_slli_epi64::<32>(r[1]));
            // SAFETY: 64 bytes into `out` (32V = 64 bytes).
            _mm512_storeu_si512(o as *mut __m512i, pair);
        }
        _ => {
            let pair = _mm512_mask_blend_epi32(0xaaaa, r[0], _mm512_slli_epi64::<32>(r[1]));
            // Dword n = 3q + j: pair's 2q + j for j < 2, r[2]'s 2q (index 16 + 2q).
            let idx = |n: i32| {
                let (q, j) = (n / 3, n % 3);
                if j < 2 { 2 * q + j } else { 16 + 2 * q }
            };
            let lo = _mm512_setr_epi32(
                idx(0), idx(1), idx(2), idx(3), idx(4), idx(5), idx(6), idx(7),
                idx(8), idx(9), idx(10), idx(11), idx(12), idx(13), idx(14), idx(15),
            );
            let hi = _mm512_setr_epi32(
                idx(16), idx(17), idx(18), idx(19), idx(20), idx(21), idx(22), idx(23),
                0, 0, 0, 0, 0, 0, 0, 0,
            );
            let first = _mm512_permutex2var_epi32(pair, lo, r[2]);
            let second = _mm512_permutex2var_epi32(pair, hi, r[2]);
            // SAFETY: 64 + 32 bytes into `out` (32V = 96 bytes).
            _mm512_storeu_si512(o as *mut __m512i, first);
            _mm256_storeu_si256(o.add(64) as *mut __m256i, _mm512_castsi512_si256(second));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    /// [`reduce8`] against num-bigint on values whose residue lies in
    /// `[2^l, p)` (the `z < 0` case), near multiples of `p`, extremes and
    /// random words.
    fn check<const V: usize>() {
        let l = 32 * V;
        let t = crate::square::portable::T[V];
        let p = (BigUint::from(1u8) << l) + t;
        let top = (BigUint::from(1u8) << (2 * l)) - 1u8;
        let mut xs: Vec<BigUint> = Vec::new();
        for j in 0..=t + 1 {
            xs.push((BigUint::from(1u8) << l) + j);
            xs.push(&p * 3u8 + j);
            xs.push(&p * 7u8 - 1u8 - j);
            xs.push(&top - j);
            xs.push(BigUint::from(j));
            // A large multiple of p plus [2^l, p): below 2^(2l).
            xs.push(&p * ((BigUint::from(1u8) << l) - t - 2u8) + (BigUint::from(1u8) << l) + j);
        }
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..400 {
            let mut x = BigUint::from(0u8);
            for _ in 0..2 * V {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                x = (x << 32) + (s & 0xffff_ffff);
            }
            xs.push(x);
        }
        let m32 = BigUint::from(0xffff_ffffu32);
        for group in xs.chunks(8) {
            let mut lanes = [[0u64; 8]; 8];
            for (q, x) in group.iter().enumerate() {
                for (r, lane) in lanes.iter_mut().enumerate().take(2 * V) {
                    // Garbage in the high halves, which must be ignored.
                    let w: u64 = ((x >> (32 * r)) & &m32).try_into().unwrap();
                    lane[q] = w | 0xdead_beef_0000_0000;
                }
            }
            // SAFETY: AVX-512F checked by the caller; loads and stores of local arrays.
            let out = unsafe {
                let word: [__m512i; 8] = core::array::from_fn(|r| _mm512_loadu_si512(lanes[r].as_ptr() as *const __m512i));
                let r = reduce8::<V>(&word);
                let mut o = [[0u64; 8]; 3];
                for j in 0..V {
                    _mm512_storeu_si512(o[j].as_mut_ptr() as *mut __m512i, r[j]);
                }
                o
            };
            for (q, x) in group.iter().enumerate() {
                assert!(x <= &top);
                let want = (x % &p) & ((BigUint::from(1u8) << l) - 1u8);
                let mut got = BigUint::from(0u8);
                for j in (0..V).rev() {
                    got = (got << 32) + (out[j][q] & 0xffff_ffff);
                }
                assert_eq!(got, want, "l = {l}, X = {x:x}");
            }
        }
    }

    #[test]
    fn reduce8_matches_bigint() {
        if !crate::Platform::detect().avx512 {
            return;
        }
        check::<1>();
        check::<2>();
        check::<3>();
    }
}
