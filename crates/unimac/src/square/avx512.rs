//! AVX-512 Square Hash: `SQH_E` (Def. 13) and, with IFMA52, the exact sums
//! (Def. 7, 9, 10) of eight blocks at once under one key (the tree's and
//! [`super::BlockKey::hash_blocks`]' case).
//!
//! Layout: lanes = elements. Each 512-bit register holds four elements of
//! each of two blocks (lanes 0–3 and 4–7), as 64-bit lanes: two 64-byte
//! loads (masked only at the very end of the input) and one `vpermt2d` (two
//! at l = 96 and 128) per eight elements, the key arranged the same way once
//! ([`PairKey`]). For Def. 13, `vpmuludq` forms eight products `a_j a_k` per
//! instruction; `vpaddd` adds each product's low and high 32-bit halves into
//! an accumulator's two halves with no carry between them, which is exactly
//! the carry-free sum `C(sum C2(·))` (accumulator `S_r` holds word `r` in
//! its low half and word `r + 1`'s contribution in its high half). Cross
//! products `j < k` are summed once and doubled at the end, halves
//! separately (docs/WIRE.md §4: identical words). For the exact sums,
//! `vpmadd52luq`/`vpmadd52huq` add each product's low 52 bits and high bits
//! to two accumulators, exactly. Either way the sums are lane-wise, so the
//! lanes of each block are added at the end in any order: one
//! transpose-and-add ([`half_sums`], [`final_sums`]) turns the four
//! registers of eight blocks into one register, lane `q` = block `q`. (An
//! earlier layout, lanes = blocks with the key element broadcast, spent
//! about a quarter of its time moving eight blocks' 12-byte elements into
//! lanes; docs/perf/square.md.)
//!
//! `a = (m + x) mod 2^l` keeps its inner carries: for l = 96 and 128 the
//! carry out of the low 64 bits is AVX-512F's unsigned compare into a mask
//! (`vpcmpuq`), added to the high lane by a masked `vpsubq` of −1.
//!
//! The reduction mod p (and mod 2^l) also runs in the lanes, eight blocks
//! per register; for Def. 13 it is issued after the next eight blocks'
//! products so the two overlap.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;


use crate::platform::Platform;

pub(crate) use super::pairkey::PairKey;

/// Elements `4n .. 4n + r` (`1 <= r <= 4`) of the blocks at `pa` (lanes
/// 0–3) and `pb` (lanes 4–7) as 64-bit lanes: each element's low 64 bits
/// and, for `V >= 3`, the rest (`V = 3`: its third word in the low half).
/// Lanes past `r` are zero. With `plain`, whole 64-byte loads (`r = 4`;
/// bytes past the four elements are read but not used); otherwise masked
/// loads that read nothing past element `4n + r`.
///
/// # Safety
/// AVX-512F; elements `4n .. 4n + r` of both blocks are readable, and with
/// `plain` the 64 bytes from element `4n` of each block.
#[inline(always)]
unsafe fn pair_lanes<const V: usize>(pa: *const u8, pb: *const u8, n: usize, r: usize, plain: bool) -> (__m512i, __m512i) {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let off = 16 * V * n;
        let (pa, pb) = (pa.add(off), pb.add(off));
        // Dwords (V = 1, 3) or qwords (V = 2, 4) of the r elements.
        let dwords = ((1u32 << (V * r)) - 1) as __mmask16;
        let qwords = ((1u32 << (V / 2 * r)) - 1) as __mmask8;
        let (a, b) = if plain {
            (_mm512_loadu_si512(pa as *const __m512i), _mm512_loadu_si512(pb as *const __m512i))
        } else if V % 2 == 1 {
            (_mm512_maskz_loadu_epi32(dwords, pa as *const i32), _mm512_maskz_loadu_epi32(dwords, pb as *const i32))
        } else {
            (_mm512_maskz_loadu_epi64(qwords, pa as *const i64), _mm512_maskz_loadu_epi64(qwords, pb as *const i64))
        };
        match V {
            1 => {
                // Dwords 0..4 of a and of b (index 16..) zero-extended into qwords.
                let idx = _mm512_setr_epi32(0, 0, 1, 0, 2, 0, 3, 0, 16, 0, 17, 0, 18, 0, 19, 0);
                (_mm512_maskz_permutex2var_epi32(0x5555, a, idx, b), _mm512_setzero_si512())
            }
            2 => (_mm512_shuffle_i64x2::<0x44>(a, b), _mm512_setzero_si512()),
            3 => {
                // Element e at dwords 3e, 3e + 1, 3e + 2 (b's at 16 + ...).
                let lo = _mm512_setr_epi32(0, 1, 3, 4, 6, 7, 9, 10, 16, 17, 19, 20, 22, 23, 25, 26);
                let hi = _mm512_setr_epi32(2, 2, 5, 5, 8, 8, 11, 11, 18, 18, 21, 21, 24, 24, 27, 27);
                (_mm512_permutex2var_epi32(a, lo, b), _mm512_permutex2var_epi32(a, hi, b))
            }
            _ => {
                let lo = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
                let hi = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
                (_mm512_permutex2var_epi64(a, lo, b), _mm512_permutex2var_epi64(a, hi, b))
            }
        }
    }
}

/// [`pair_lanes`] for a partial vector (`r < 4` elements) read by whole
/// 64-byte loads — the bytes past the `r` elements must be readable — the
/// lanes past `r` zeroed by the permutes (masks `kq`, `kd`: output qwords
/// and dwords kept).
///
/// # Safety
/// AVX-512F; the 64 bytes from element `4n` of each block are readable.
#[inline(always)]
unsafe fn pair_lanes_tail<const V: usize>(pa: *const u8, pb: *const u8, n: usize, kq: __mmask8, kd: __mmask16) -> (__m512i, __m512i) {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let off = 16 * V * n;
        let a = _mm512_loadu_si512(pa.add(off) as *const __m512i);
        let b = _mm512_loadu_si512(pb.add(off) as *const __m512i);
        match V {
            1 => {
                let idx = _mm512_setr_epi32(0, 0, 1, 0, 2, 0, 3, 0, 16, 0, 17, 0, 18, 0, 19, 0);
                (_mm512_maskz_permutex2var_epi32(0x5555 & kd, a, idx, b), _mm512_setzero_si512())
            }
            2 => (_mm512_maskz_shuffle_i64x2::<0x44>(kq, a, b), _mm512_setzero_si512()),
            3 => {
                let lo = _mm512_setr_epi32(0, 1, 3, 4, 6, 7, 9, 10, 16, 17, 19, 20, 22, 23, 25, 26);
                let hi = _mm512_setr_epi32(2, 2, 5, 5, 8, 8, 11, 11, 18, 18, 21, 21, 24, 24, 27, 27);
                (_mm512_maskz_permutex2var_epi32(kd, a, lo, b), _mm512_maskz_permutex2var_epi32(kd, a, hi, b))
            }
            _ => {
                let lo = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
                let hi = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
                (_mm512_maskz_permutex2var_epi64(kq, a, lo, b), _mm512_maskz_permutex2var_epi64(kq, a, hi, b))
            }
        }
    }
}

/// One vector of elements (four of each of two blocks) into the
/// accumulators: `a = (m + x) mod 2^l` with its inner carries, then the
/// products `a_j a_k` added halves-wise (`vpaddd`) into `diag[j + k]`
/// (`j = k`) or `cross[j + k]` (`j < k`); with `FIRST` the products
/// initialise the accumulators instead.
///
/// # Safety
/// AVX-512F.
#[inline(always)]
unsafe fn pair_step<const V: usize, const FIRST: bool>(
    x_lo: __m512i,
    x_hi: __m512i,
    m: (__m512i, __m512i),
    diag: &mut [__m512i; 8],
    cross: &mut [__m512i; 8],
) {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let zero = _mm512_setzero_si512();
        let mut a = [zero; 4];
        let lo = _mm512_add_epi64(m.0, x_lo);
        a[0] = lo;
        if V >= 2 {
            a[1] = _mm512_srli_epi64::<32>(lo);
        }
        if V >= 3 {
            // Carry out of the low 64 bits: lo < x_lo, unsigned.
            let carry = _mm512_cmplt_epu64_mask(lo, x_lo);
            let hi = _mm512_add_epi64(m.1, x_hi);
            let hi = _mm512_mask_sub_epi64(hi, carry, hi, _mm512_set1_epi64(-1));
            a[2] = hi;
            a[3] = _mm512_srli_epi64::<32>(hi);
        }
        // With FIRST, an accumulator's first product initialises it (at l = 128
        // two cross products share column 3).
        let mut set = [!FIRST; 8]; // cross[r] initialised
        for j in 0..V {
            let p = _mm512_mul_epu32(a[j], a[j]);
            diag[2 * j] = if FIRST { p } else { _mm512_add_epi32(diag[2 * j], p) };
            for kk in j + 1..V {
                let p = _mm512_mul_epu32(a[j], a[kk]);
                cross[j + kk] = if set[j + kk] { _mm512_add_epi32(cross[j + kk], p) } else { p };
                set[j + kk] = true;
            }
        }
    }
}

/// Key vector `n` of `key` (low and high parts).
///
/// # Safety
/// AVX-512F; `n < key.k.div_ceil(4)`.
#[inline(always)]
unsafe fn key_vec<const V: usize>(key: &PairKey, n: usize) -> (__m512i, __m512i) {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let v = &key.v[n];
        let lo = _mm512_load_si512(v[0].0.as_ptr() as *const __m512i);
        let hi = if V >= 3 { _mm512_load_si512(v[1].0.as_ptr() as *const __m512i) } else { _mm512_setzero_si512() };
        (lo, hi)
    }
}

/// `a + b` per 32-bit half (the carry-free sums of Def. 13) or, with
/// `EXACT`, per 64-bit lane (the exact sums).
///
/// # Safety
/// AVX-512F.
#[inline(always)]
unsafe fn add_lanes<const EXACT: bool>(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        if EXACT {
            _mm512_add_epi64(a, b)
        } else {
            _mm512_add_epi32(a, b)
        }
    }
}

/// First half of the lane sums of four registers (register `p` holding
/// block pair [`PAIRS`]`[p]`: its first block in lanes 0–3, the second in
/// 4–7), added as [`add_lanes`]: of registers 0 and 1 (or 2 and 3),
/// 128-bit lane `i` = `(r0[2i] + r0[2i+1], r1[2i] + r1[2i+1])` — blocks
/// (0, 1) in lanes 0–1 and (2, 3) in lanes 2–3 (or 4–7 likewise).
///
/// # Safety
/// AVX-512F.
#[inline(always)]
unsafe fn half_sums<const EXACT: bool>(r0: __m512i, r1: __m512i) -> __m512i {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        add_lanes::<EXACT>(_mm512_unpacklo_epi64(r0, r1), _mm512_unpackhi_epi64(r0, r1))
    }
}

/// The lane sums from two [`half_sums`]: lane `q` = block `q`'s sum.
///
/// # Safety
/// AVX-512F.
#[inline(always)]
unsafe fn final_sums<const EXACT: bool>(y: __m512i, z: __m512i) -> __m512i {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        add_lanes::<EXACT>(_mm512_shuffle_i64x2::<0x88>(y, z), _mm512_shuffle_i64x2::<0xdd>(y, z))
    }
}

/// Block pairs sharing a register: lanes 0–3 and 4–7 (chosen so that
/// [`final_sums`] yields the blocks in order).
const PAIRS: [(usize, usize); 4] = [(0, 2), (1, 3), (4, 6), (5, 7)];

/// How a block's element vectors are read (the same for every block of a
/// group): `nv` vectors of four elements, `r_last` in the last; the first
/// `n_plain` by whole 64-byte loads (n with 16Vn + 64 <= bl + follow: what
/// they read past the block exists), all before the last vector; the last,
/// if partial, by whole loads too when `tail_plain` (its unused lanes zeroed
/// by the permutes, masks `kq`/`kd`); the rest by masked loads.
struct Plan {
    nv: usize,
    r_last: usize,
    n_plain: usize,
    tail_plain: bool,
    kq: __mmask8,
    kd: __mmask16,
}

impl Plan {
    /// For blocks of `k` elements followed by `follow` readable bytes.
    #[inline(always)]
    fn new<const V: usize>(k: usize, follow: usize) -> Plan {
        let bl = 4 * V * k;
        let nv = k.div_ceil(4);
        let r_last = k - 4 * (nv - 1);
        let reach = bl + follow;
        let n_plain = if reach >= 64 { ((reach - 64) / (16 * V) + 1).min(nv - 1) } else { 0 };
        let tail_plain = r_last < 4 && nv >= 2 && n_plain == nv - 1 && 16 * V * (nv - 1) + 64 <= reach;
        let kq = (((1u32 << r_last) - 1) * 0x11) as __mmask8;
        let kd = (((1u32 << (2 * r_last)) - 1) * 0x0101) as __mmask16;
        Plan { nv, r_last, n_plain, tail_plain, kq, kd }
    }

    /// Elements per vector `n`.
    #[inline(always)]
    fn r(&self, n: usize) -> usize {
        if n + 1 < self.nv {
            4
        } else {
            self.r_last
        }
    }

    /// Vector `n` of the blocks at `pa` and `pb`, read as planned.
    ///
    /// # Safety
    /// AVX-512F; the blocks and `follow` bytes after them are readable.
    #[inline(always)]
    unsafe fn lanes<const V: usize>(&self, pa: *const u8, pb: *const u8, n: usize) -> (__m512i, __m512i) {
        // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
        unsafe {
            if n < self.n_plain {
                pair_lanes::<V>(pa, pb, n, 4, true)
            } else if n + 1 == self.nv && self.tail_plain {
                pair_lanes_tail::<V>(pa, pb, n, self.kq, self.kd)
            } else {
                pair_lanes::<V>(pa, pb, n, self.r(n), false)
            }
        }
    }
}

/// The accumulators of two register pairs of blocks (first blocks at `p0`
/// and `q0` in lanes 0–3, second blocks at `p1` and `q1` in lanes 4–7) over
/// all `key.k` elements: `(diag, cross)` of each pair as [`pair_step`]
/// leaves them. Two pairs per pass: twelve independent accumulators at
/// l = 96, one key load for both.
///
/// # Safety
/// AVX-512F; the four blocks hold `4V · key.k` readable bytes each.
#[inline(always)]
#[allow(clippy::type_complexity)]
unsafe fn pair_acc2<const V: usize>(
    key: &PairKey,
    follow: usize,
    (p0, p1): (*const u8, *const u8),
    (q0, q1): (*const u8, *const u8),
) -> (([__m512i; 8], [__m512i; 8]), ([__m512i; 8], [__m512i; 8])) {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let plan = Plan::new::<V>(key.k, follow);
        let (nv, n_plain) = (plan.nv, plan.n_plain);
        let r_of = |n: usize| plan.r(n);
        let zero = _mm512_setzero_si512();
        let (mut d0, mut c0, mut d1, mut c1) = ([zero; 8], [zero; 8], [zero; 8], [zero; 8]);
        // (Straight-line calls, no closures around the intrinsics: a closure
        // would not inherit AVX-512 and be outlined.)
        let (xl, xh) = key_vec::<V>(key, 0);
        let plain = n_plain > 0;
        pair_step::<V, true>(xl, xh, pair_lanes::<V>(p0, p1, 0, r_of(0), plain), &mut d0, &mut c0);
        pair_step::<V, true>(xl, xh, pair_lanes::<V>(q0, q1, 0, r_of(0), plain), &mut d1, &mut c1);
        for n in 1..n_plain {
            let (xl, xh) = key_vec::<V>(key, n);
            pair_step::<V, false>(xl, xh, pair_lanes::<V>(p0, p1, n, 4, true), &mut d0, &mut c0);
            pair_step::<V, false>(xl, xh, pair_lanes::<V>(q0, q1, n, 4, true), &mut d1, &mut c1);
        }
        let end = if plan.tail_plain { nv - 1 } else { nv };
        for n in n_plain.max(1)..end {
            let (xl, xh) = key_vec::<V>(key, n);
            pair_step::<V, false>(xl, xh, pair_lanes::<V>(p0, p1, n, r_of(n), false), &mut d0, &mut c0);
            pair_step::<V, false>(xl, xh, pair_lanes::<V>(q0, q1, n, r_of(n), false), &mut d1, &mut c1);
        }
        if plan.tail_plain {
            let (xl, xh) = key_vec::<V>(key, nv - 1);
            pair_step::<V, false>(xl, xh, pair_lanes_tail::<V>(p0, p1, nv - 1, plan.kq, plan.kd), &mut d0, &mut c0);
            pair_step::<V, false>(xl, xh, pair_lanes_tail::<V>(q0, q1, nv - 1, plan.kq, plan.kd), &mut d1, &mut c1);
        }
        ((d0, c0), (d1, c1))
    }
}

/// The carry-free words of Def. 13 for eight blocks: word `r` in the low
/// 32 bits of each lane of `word[r]` (lane `q` = block `q`), `r < 2V`.
///
/// # Safety
/// AVX-512F; `p` points to eight blocks of `bl = 4V · key.k` bytes each.
#[inline(always)]
unsafe fn e_words8<const V: usize>(key: &PairKey, p: *const u8, bl: usize, more: bool) -> [__m512i; 8] {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        // Bytes readable after blocks 0–3 (at least blocks 4–7) and after
        // blocks 4–7 (the next group's eight blocks, if `more`).
        let (follow_first, follow_second) = (4 * bl, if more { 8 * bl } else { 0 });
        let at = |(a, b): (usize, usize)| (p.wrapping_add(a * bl), p.wrapping_add(b * bl));
        // Two register pairs of blocks per pass, their accumulators folded to
        // half sums at once (fewer live registers).
        let ((d0, c0), (d1, c1)) = pair_acc2::<V>(key, follow_first, at(PAIRS[0]), at(PAIRS[1]));
        let zero = _mm512_setzero_si512();
        let (mut yd, mut yc) = ([zero; 8], [zero; 8]);
        for r in 0..2 * V {
            if r % 2 == 0 {
                yd[r] = half_sums::<false>(d0[r], d1[r]);
            }
            if r >= 1 && r + 3 <= 2 * V {
                yc[r] = half_sums::<false>(c0[r], c1[r]);
            }
        }
        let ((d2, c2), (d3, c3)) = pair_acc2::<V>(key, follow_second, at(PAIRS[2]), at(PAIRS[3]));
        // Word r of each block: lo(col_r) + hi(col_{r-1}), col = diag + 2 cross
        // (all mod 2^32 per half).
        let mut word = [zero; 8];
        let mut prev = zero;
        for (r, w) in word.iter_mut().enumerate().take(2 * V) {
            let d = if r % 2 == 0 { final_sums::<false>(yd[r], half_sums::<false>(d2[r], d3[r])) } else { zero };
            let c = if r >= 1 && r + 3 <= 2 * V { final_sums::<false>(yc[r], half_sums::<false>(c2[r], c3[r])) } else { zero };
            let col = _mm512_add_epi32(d, _mm512_add_epi32(c, c));
            *w = _mm512_add_epi32(col, _mm512_srli_epi64::<32>(prev));
            prev = col;
        }
        word
    }
}

/// `(X mod p) mod 2^l` per lane of the words `word[0..2V]`
/// (low 32 bits of each lane), as 32-bit words in the low halves of the
/// `V` results; see [`e_blocks_reduced`] for the method and its bounds.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn reduce8<const V: usize>(word: &[__m512i; 8]) -> [__m512i; 4] {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let t = super::portable::T[V];
        let m32 = _mm512_set1_epi64(0xffff_ffff);
        let tv = _mm512_set1_epi64(t as i64);
        // y = L + t·!H + t(t + 1), carried into 32-bit limbs u_j and the top c.
        let mut u = [_mm512_setzero_si512(); 4];
        let mut carry = _mm512_set1_epi64((t * (t + 1)) as i64);
        for j in 0..V {
            let not_h = _mm512_andnot_si512(word[V + j], m32);
            let y = _mm512_add_epi64(_mm512_add_epi64(_mm512_and_si512(word[j], m32), carry), _mm512_mul_epu32(not_h, tv));
            u[j] = _mm512_and_si512(y, m32);
            carry = _mm512_srli_epi64::<32>(y);
        }
        // z = u − t c with borrows (arithmetic shifts: limbs become signed).
        let mut borrow = _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_mul_epu32(carry, tv));
        let mut d = [_mm512_setzero_si512(); 4];
        for j in 0..V {
            let v = _mm512_add_epi64(u[j], borrow);
            d[j] = _mm512_and_si512(v, m32);
            borrow = _mm512_srai_epi64::<32>(v);
        }
        // z < 0 (borrow = −1): add t mod 2^l.
        let mut carry = _mm512_and_si512(borrow, tv);
        let mut r = [_mm512_setzero_si512(); 4];
        for j in 0..V {
            let v = _mm512_add_epi64(d[j], carry);
            r[j] = v;
            carry = _mm512_srli_epi64::<32>(v);
        }
        r
    }
}

/// `SQH_E` of groups of eight blocks with the reduction in the lanes too: writes block `b`'s `4V`-byte output `(X mod p) mod 2^l` to
/// `out[4Vb..]`, `X` its carry-free words.
///
/// With `X = L + 2^l H` (`L, H < 2^l`, `p = 2^l + t`):
/// `X ≡ y = L + t(p − H) = L + t·!H + t(t + 1)` where `!H = 2^l − 1 − H`
/// is `H`'s words complemented; `y < (t + 2) 2^l` (`t ≤ 61`), so
/// `y = u + 2^l c` with `c ≤ t + 1` and `z = u − t c ≡ X`,
/// `−t(t + 1) ≤ z < 2^l`. If `z < 0`, `X mod p = z + p`, whose residue
/// mod `2^l` is `z + t`; else `X mod p = z`. All limbs are 32-bit words in
/// 64-bit lanes (each sum below `2^39`).
///
/// # Panics
/// If `platform` lacks AVX-512F, or `blocks` is not `8n` blocks of
/// `4V · key.k` bytes each (`n >= 1`) with `out` of `32V n` bytes.
pub(crate) fn e_blocks_reduced<const V: usize>(platform: Platform, key: &PairKey, blocks: &[u8], out: &mut [u8]) {
    assert!(platform.avx512(), "Square Hash avx512 kernel without AVX-512F");
    // SAFETY: the evidence `platform` shows AVX-512F.
    unsafe { e_blocks_reduced_avx512::<V>(key, blocks, out) }
}

#[target_feature(enable = "avx512f")]
fn e_blocks_reduced_avx512<const V: usize>(key: &PairKey, blocks: &[u8], out: &mut [u8]) {
    let bl = 4 * V * key.k;
    let n = blocks.len() / (8 * bl);
    assert!(n >= 1 && blocks.len() == 8 * n * bl && out.len() == 32 * V * n);
    let p = blocks.as_ptr();
    let o = out.as_mut_ptr();
    // The reduction is a chain of dependent steps: each group's is issued
    // after the next group's products, so the two overlap.
    // SAFETY: this function has AVX-512F; group 0 of eight blocks lies
    // inside `blocks` (n >= 1, asserted above).
    let mut word = unsafe { e_words8::<V>(key, p, bl, n > 1) };
    for g in 1..n {
        // SAFETY: this function has AVX-512F; group g < n lies inside `blocks`.
        let next = unsafe { e_words8::<V>(key, p.add(8 * g * bl), bl, g + 1 < n) };
        // SAFETY: this function has AVX-512F; group g − 1's 32V output bytes
        // lie inside `out` (32V·n bytes, asserted above).
        unsafe { store_reduced::<V>(&reduce8::<V>(&word), o.add(32 * V * (g - 1))) };
        word = next;
    }
    // SAFETY: as above, for the last group.
    unsafe { store_reduced::<V>(&reduce8::<V>(&word), o.add(32 * V * (n - 1))) };
}

/// Stores eight blocks' `4V`-byte outputs, lane `q` of `r[j]` holding word
/// `j` of block `q` in its low half: output dword `V q + j` — packed and
/// stored whole.
///
/// # Safety
/// AVX-512F; `o` writable for `32V` bytes.
#[inline(always)]
unsafe fn store_reduced<const V: usize>(r: &[__m512i; 4], o: *mut u8) {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        match V {
            1 => {
                // SAFETY: 32 bytes (32V).
                _mm256_storeu_si256(o as *mut __m256i, _mm512_cvtepi64_epi32(r[0]));
            }
            2 => {
                let pair = _mm512_mask_blend_epi32(0xaaaa, r[0], _mm512_slli_epi64::<32>(r[1]));
                // SAFETY: 64 bytes (32V).
                _mm512_storeu_si512(o as *mut __m512i, pair);
            }
            3 => {
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
                // SAFETY: 64 + 32 bytes (32V = 96).
                _mm512_storeu_si512(o as *mut __m512i, first);
                _mm256_storeu_si256(o.add(64) as *mut __m256i, _mm512_castsi512_si256(second));
            }
            _ => {
                // Qword q of p01 / p23: words 0–1 / 2–3 of block q; the unpacks
                // give blocks (0, 2, 4, 6) and (1, 3, 5, 7) as 128-bit lanes.
                let p01 = _mm512_mask_blend_epi32(0xaaaa, r[0], _mm512_slli_epi64::<32>(r[1]));
                let p23 = _mm512_mask_blend_epi32(0xaaaa, r[2], _mm512_slli_epi64::<32>(r[3]));
                let even = _mm512_unpacklo_epi64(p01, p23);
                let odd = _mm512_unpackhi_epi64(p01, p23);
                let first = _mm512_permutex2var_epi64(even, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), odd);
                let second = _mm512_permutex2var_epi64(even, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), odd);
                // SAFETY: 2 × 64 bytes (32V = 128).
                _mm512_storeu_si512(o as *mut __m512i, first);
                _mm512_storeu_si512(o.add(64) as *mut __m512i, second);
            }
        }
    }
}

/// The `N` words of `a = m + x` for the exact definitions, each below
/// `2^32` in its 64-bit lane (the operands IFMA52 multiplies exactly):
/// `N = V` is `a mod 2^l` (Def. 10), `N = V + 1` keeps the carry out of bit
/// `l` as the top word (Def. 7 and 9).
///
/// # Safety
/// AVX-512F.
#[inline(always)]
unsafe fn exact_words<const V: usize, const N: usize>(x_lo: __m512i, x_hi: __m512i, m: (__m512i, __m512i)) -> [__m512i; 5] {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let zero = _mm512_setzero_si512();
        let m32 = _mm512_set1_epi64(0xffff_ffff);
        let mut a = [zero; 5];
        let lo = _mm512_add_epi64(m.0, x_lo);
        a[0] = _mm512_and_si512(lo, m32);
        match V {
            // m.0 is the word zero-extended: bit 32 of the sum is the carry.
            1 => a[1] = _mm512_srli_epi64::<32>(lo),
            2 => {
                a[1] = _mm512_srli_epi64::<32>(lo);
                a[2] = _mm512_maskz_set1_epi64(_mm512_cmplt_epu64_mask(lo, x_lo), 1);
            }
            3 => {
                a[1] = _mm512_srli_epi64::<32>(lo);
                let carry = _mm512_cmplt_epu64_mask(lo, x_lo);
                // The third word alone (the permute duplicates it into the high half).
                let hi = _mm512_add_epi64(_mm512_and_si512(m.1, m32), x_hi);
                let hi = _mm512_mask_sub_epi64(hi, carry, hi, _mm512_set1_epi64(-1));
                a[2] = _mm512_and_si512(hi, m32);
                a[3] = _mm512_srli_epi64::<32>(hi);
            }
            _ => {
                a[1] = _mm512_srli_epi64::<32>(lo);
                let c1 = _mm512_cmplt_epu64_mask(lo, x_lo);
                let s1 = _mm512_add_epi64(m.1, x_hi);
                let hi = _mm512_mask_sub_epi64(s1, c1, s1, _mm512_set1_epi64(-1));
                a[2] = _mm512_and_si512(hi, m32);
                a[3] = _mm512_srli_epi64::<32>(hi);
                // Carry out of bit 128: s1 wrapped, or adding c1 did.
                let c2 = _mm512_cmplt_epu64_mask(s1, x_hi) | _mm512_cmplt_epu64_mask(hi, s1);
                a[4] = _mm512_maskz_set1_epi64(c2, 1);
            }
        }
        if N == V {
            a[V] = zero;
        }
        a
    }
}

/// Exact column sums of one register pair of blocks (first block at `pa`
/// in lanes 0–3, the second at `pb` in lanes 4–7) over all `key.k`
/// elements, with IFMA52: product `a_j a_k` (`j < k` doubled through the
/// operand `2 a_k`, exact) adds its low 52 bits to `lo[j + k]` and its high
/// bits (`>> 52`) to `hi[j + k]`. Exact while a lane takes fewer than
/// `2^12` products per column ([`EXACT_MAX_K`]).
///
/// # Safety
/// AVX-512F and AVX-512 IFMA; both blocks hold `4V · key.k` readable bytes
/// and `follow` readable bytes after them.
#[inline(always)]
unsafe fn exact_pair<const V: usize, const N: usize>(key: &PairKey, follow: usize, pa: *const u8, pb: *const u8) -> ([__m512i; 9], [__m512i; 9]) {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let plan = Plan::new::<V>(key.k, follow);
        let zero = _mm512_setzero_si512();
        let (mut lo, mut hi) = ([zero; 9], [zero; 9]);
        for n in 0..plan.nv {
            let (xl, xh) = key_vec::<V>(key, n);
            let m = plan.lanes::<V>(pa, pb, n);
            let a = exact_words::<V, N>(xl, xh, m);
            let mut d = [zero; 5];
            for (dj, aj) in d.iter_mut().zip(a).take(N).skip(1) {
                *dj = _mm512_add_epi64(aj, aj);
            }
            for j in 0..N {
                lo[2 * j] = _mm512_madd52lo_epu64(lo[2 * j], a[j], a[j]);
                hi[2 * j] = _mm512_madd52hi_epu64(hi[2 * j], a[j], a[j]);
                for kk in j + 1..N {
                    lo[j + kk] = _mm512_madd52lo_epu64(lo[j + kk], a[j], d[kk]);
                    hi[j + kk] = _mm512_madd52hi_epu64(hi[j + kk], a[j], d[kk]);
                }
            }
        }
        (lo, hi)
    }
}

/// The largest element count the IFMA52 kernel takes: a column of a block
/// gains at most `N <= 5` products per element, each adding below `2^52`,
/// so `512 · 5 · 2^52 < 2^64`.
pub(crate) const EXACT_MAX_K: usize = 512;

/// The exact columns of one group of eight blocks at `p` (lanes = blocks):
/// column `r` (weight `2^(32r)`, any 64-bit value) is the low 52 bits of
/// the products at `r` plus their high parts from `r − 1` shifted by 20;
/// columns `2N..` are zero. `more`: blocks follow the group.
///
/// # Safety
/// AVX-512F and AVX-512 IFMA; eight blocks of `bl = 4V · key.k` bytes at
/// `p`, `key.k <= EXACT_MAX_K`.
#[inline(always)]
unsafe fn exact_cols8<const V: usize, const N: usize>(key: &PairKey, p: *const u8, bl: usize, more: bool) -> [__m512i; 10] {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let at = |b: usize| p.wrapping_add(b * bl);
        // Bytes readable after the later block of each pair: blocks 3–7 after
        // 2, 4–7 after 3, 7 after 6, the next group after 7.
        let (l0, h0) = exact_pair::<V, N>(key, 4 * bl, at(0), at(2));
        let (l1, h1) = exact_pair::<V, N>(key, 4 * bl, at(1), at(3));
        let zero = _mm512_setzero_si512();
        let (mut yl, mut yh) = ([zero; 9], [zero; 9]);
        for r in 0..2 * N - 1 {
            yl[r] = half_sums::<true>(l0[r], l1[r]);
            yh[r] = half_sums::<true>(h0[r], h1[r]);
        }
        let (l2, h2) = exact_pair::<V, N>(key, bl, at(4), at(6));
        let (l3, h3) = exact_pair::<V, N>(key, if more { 8 * bl } else { 0 }, at(5), at(7));
        let mut cols = [zero; 10];
        let mut prev_hi = zero;
        for (r, c) in cols.iter_mut().enumerate().take(2 * N) {
            let (lr, hr) = if r + 1 < 2 * N {
                (final_sums::<true>(yl[r], half_sums::<true>(l2[r], l3[r])), final_sums::<true>(yh[r], half_sums::<true>(h2[r], h3[r])))
            } else {
                (zero, zero)
            };
            *c = _mm512_add_epi64(lr, _mm512_slli_epi64::<20>(prev_hi));
            prev_hi = hr;
        }
        cols
    }
}

/// `X mod p` per lane (`X` below `2^(2l + 12)`) from the exact
/// columns: the `V + 1` words of the result in the low halves of the
/// returned registers. The method of [`super::portable::reduce_wide`], in
/// 32-bit limbs: the columns normalised to words `w` (`L`, `H0` of `l`
/// bits, `H1` small); `y = L + t² H1 + 64p − t H0 ≡ X` (`y >= 0`) with its
/// signed limbs carried; `z = (y mod 2^l) − t (y >> l)`, and `X mod p` is
/// `z`, or `z + p` when `z < 0` — the low `l` bits of `z` plus `t`, whose
/// carry is the top word.
///
/// # Safety
/// AVX-512F.
#[inline(always)]
unsafe fn exact_reduce8<const V: usize>(cols: &[__m512i; 10]) -> [__m512i; 5] {
    // SAFETY: the caller upholds this function's contract (# Safety above): the CPU features, and the bounds of every pointer it reads or writes.
    unsafe {
        let t = super::portable::T[V] as i64;
        let m32 = _mm512_set1_epi64(0xffff_ffff);
        let tv = _mm512_set1_epi64(t);
        let zero = _mm512_setzero_si512();
        // Words w_0 .. w_2V (the value is below 2^(2l + 12); column 2V + 1,
        // present for N = V + 1, holds the high bits of a_V^2 <= 1: zero).
        let mut w = [zero; 9];
        let mut carry = zero;
        for r in 0..=2 * V {
            let s = _mm512_add_epi64(cols[r], carry);
            w[r] = _mm512_and_si512(s, m32);
            carry = _mm512_srli_epi64::<32>(s);
        }
        // y = L + t^2 H1 + 64p - t H0, limbs signed, then carried.
        let mut carry = _mm512_add_epi64(_mm512_mul_epu32(w[2 * V], _mm512_set1_epi64(t * t)), _mm512_set1_epi64(64 * t));
        let mut u = [zero; 4];
        for j in 0..V {
            let v = _mm512_sub_epi64(_mm512_add_epi64(w[j], carry), _mm512_mul_epu32(w[V + j], tv));
            u[j] = _mm512_and_si512(v, m32);
            carry = _mm512_srai_epi64::<32>(v);
        }
        let top = _mm512_add_epi64(carry, _mm512_set1_epi64(64));
        // z = (y mod 2^l) - t top, borrows carried; b = -1 if z < 0.
        let mut borrow = _mm512_sub_epi64(zero, _mm512_mul_epu32(top, tv));
        let mut d = [zero; 4];
        for j in 0..V {
            let v = _mm512_add_epi64(u[j], borrow);
            d[j] = _mm512_and_si512(v, m32);
            borrow = _mm512_srai_epi64::<32>(v);
        }
        // z < 0: X mod p = d + t (l + 1 bits); else d.
        let mut carry = _mm512_and_si512(borrow, tv);
        let mut r = [zero; 5];
        for j in 0..V {
            let v = _mm512_add_epi64(d[j], carry);
            r[j] = _mm512_and_si512(v, m32);
            carry = _mm512_srli_epi64::<32>(v);
        }
        r[V] = carry;
        r
    }
}

/// Def. 7, 9 or 10 of groups of eight blocks under one key, with IFMA52 and
/// the reduction in the lanes: block `b`'s output (`o` bytes:
/// `4V + 1` for `X mod p`, Def. 7 and 10; `4V` for its residue mod `2^l`,
/// Def. 9) to `out[o b..]`.
///
/// # Panics
/// If `platform` lacks AVX-512 IFMA52 (with AVX-512F), or `blocks` is not
/// `8n` blocks of `4V · key.k` bytes each with `key.k <= EXACT_MAX_K`,
/// `out.len() == 8n · o` and `o` either `4V` or `4V + 1`.
pub(crate) fn exact_blocks8_reduced<const V: usize, const N: usize>(
    platform: Platform,
    key: &PairKey,
    blocks: &[u8],
    o: usize,
    out: &mut [u8],
) {
    assert!(platform.avx512() && platform.avx512ifma(), "Square Hash IFMA52 kernel without AVX-512F and IFMA52");
    // SAFETY: the evidence `platform` shows AVX-512F and IFMA52.
    unsafe { exact_blocks8_reduced_ifma::<V, N>(key, blocks, o, out) }
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn exact_blocks8_reduced_ifma<const V: usize, const N: usize>(key: &PairKey, blocks: &[u8], o: usize, out: &mut [u8]) {
    assert!(o == 4 * V || o == 4 * V + 1);
    let bl = 4 * V * key.k;
    let n = out.len() / (8 * o);
    assert!(key.k <= EXACT_MAX_K && blocks.len() == 8 * n * bl && out.len() == 8 * n * o);
    for (g, out) in out.chunks_exact_mut(8 * o).enumerate() {
        // SAFETY: this function has AVX-512F and IFMA52; group g < n of
        // eight blocks lies inside `blocks` (asserted above).
        let c = unsafe { exact_cols8::<V, N>(key, blocks.as_ptr().add(8 * g * bl), bl, g + 1 < n) };
        // SAFETY: this function has AVX-512F.
        let r = unsafe { exact_reduce8::<V>(&c) };
        let mut t = [[0u64; 8]; 5];
        for (t, r) in t.iter_mut().zip(r).take(V + 1) {
            // SAFETY: a 64-byte store into a local array.
            unsafe { _mm512_storeu_si512(t.as_mut_ptr() as *mut __m512i, r) };
        }
        for (q, out) in out.chunks_exact_mut(o).enumerate() {
            let mut bytes = [0u8; 20];
            for j in 0..=V {
                bytes[4 * j..4 * j + 4].copy_from_slice(&(t[j][q] as u32).to_le_bytes());
            }
            out.copy_from_slice(&bytes[..o]);
        }
    }
}

#[cfg(test)]
#[path = "avx512/tests.rs"]
mod tests;
