//! NH of draft-krovetz-vmac-01 §5.3 (VMAC-64's one iteration) over eight
//! 128-byte blocks at once with AVX-512 IFMA52, lane `b` holding block `b`.
//!
//! The sixteen rows of a group (block `b`, words `8h..8h+8`) are transposed
//! in two 8×8 networks of `vpunpck{l,h}qdq` and two rounds of `vshufi64x2`
//! into one vector per word position. With `a = m_{2j} + k_{2j}` and
//! `b = m_{2j+1} + k_{2j+1}` (mod `2^64`) split as `a = a0 + a1·2^52`
//! (`a0 < 2^52`, `a1 < 2^12`; `vpmadd52*` read only the low 52 bits, so `a`
//! itself stands for `a0`), `a·b = a0·b0 + (a0·b1 + a1·b0)·2^52 +
//! a1·b1·2^104`. Seven `vpmadd52{l,h}uq` add the 52-bit halves of these
//! products to three columns `c0`, `c1`, `c2` (weights `1`, `2^52`,
//! `2^104`) without carries: per lane each column gains at most 24 terms
//! below `2^52`, so it stays below `2^57`. The columns are split over ten
//! accumulators (even and odd `j`, and the terms of each column in two), so
//! no chain of dependent `vpmadd52*` is longer than eight. At the end of the group one carry pass gives the exact
//! `NH mod 2^128` per lane, masked to the 126 bits L2 takes.

use core::arch::x86_64::*;

use super::nh::KEY_WORDS;
use super::BLOCK;
use crate::platform::Platform;

/// Bytes per kernel step: eight blocks.
pub(crate) const GROUP: usize = 8 * BLOCK;

/// For each group of eight whole blocks of `data` (a multiple of [`GROUP`]
/// bytes), in order, `each` receives `NH(key, block b) mod 2^126` for the
/// eight blocks `b`.
#[inline(always)]
pub(crate) fn nh_groups(key: &[u64; KEY_WORDS], data: &[u8], each: impl FnMut(&[u128; 8])) {
    assert!(data.len().is_multiple_of(GROUP), "whole groups of eight VHASH blocks");
    // The CPU's own evidence (not `detect`, which UNIMAC_FORCE_PORTABLE
    // empties: keys made with `new_on(Platform::hardware(), …)` run here too).
    let p = Platform::hardware();
    assert!(p.avx512() && p.avx512ifma(), "the AVX-512 IFMA VHASH NH kernel needs AVX-512F and IFMA52");
    // SAFETY: the CPU has AVX-512F and AVX-512 IFMA52 (asserted above); the
    // kernel's loads stay within `data` (see `groups`).
    unsafe { groups(key, data, each) }
}

/// The kernel of [`nh_groups`].
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA52.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn groups(key: &[u64; KEY_WORDS], data: &[u8], mut each: impl FnMut(&[u128; 8])) {
    let k: [__m512i; 16] = core::array::from_fn(|w| _mm512_set1_epi64(key[w] as i64));
    let m52 = _mm512_set1_epi64((1 << 52) - 1);
    let m62 = _mm512_set1_epi64((1 << 62) - 1);
    let z = _mm512_setzero_si512();
    for g in data.chunks_exact(GROUP) {
        let p = g.as_ptr();
        // wv[w]: word w of the eight blocks, lane b = block b.
        let mut wv = [z; 16];
        for h in 0..2 {
            // SAFETY: bytes [128 b + 64 h, 128 b + 64 h + 64) for b < 8,
            // h < 2 lie within the group's GROUP = 1024 bytes.
            let r: [__m512i; 8] =
                core::array::from_fn(|b| unsafe { _mm512_loadu_si512(p.add(BLOCK * b + 64 * h) as *const _) });
            // 128-bit chunk c of t_even(i) holds words 2c of rows 2i, 2i+1;
            // of t_odd(i) words 2c + 1.
            let te: [__m512i; 4] = core::array::from_fn(|i| _mm512_unpacklo_epi64(r[2 * i], r[2 * i + 1]));
            let to: [__m512i; 4] = core::array::from_fn(|i| _mm512_unpackhi_epi64(r[2 * i], r[2 * i + 1]));
            for (t, first) in [(&te, 0usize), (&to, 1)] {
                // Chunks (0, 2) and (1, 3): words {first, first + 4} and
                // {first + 2, first + 6} of rows 0..4 and of rows 4..8.
                let ua = _mm512_shuffle_i64x2::<0x88>(t[0], t[1]);
                let ub = _mm512_shuffle_i64x2::<0xDD>(t[0], t[1]);
                let va = _mm512_shuffle_i64x2::<0x88>(t[2], t[3]);
                let vb = _mm512_shuffle_i64x2::<0xDD>(t[2], t[3]);
                let w0 = 8 * h + first;
                wv[w0] = _mm512_shuffle_i64x2::<0x88>(ua, va);
                wv[w0 + 4] = _mm512_shuffle_i64x2::<0xDD>(ua, va);
                wv[w0 + 2] = _mm512_shuffle_i64x2::<0x88>(ub, vb);
                wv[w0 + 6] = _mm512_shuffle_i64x2::<0xDD>(ub, vb);
            }
        }
        let (mut c0, mut c1a, mut c1b, mut c2a, mut c2b) = ([z; 2], [z; 2], [z; 2], [z; 2], [z; 2]);
        for j in 0..8 {
            let e = j & 1;
            let a = _mm512_add_epi64(wv[2 * j], k[2 * j]);
            let b = _mm512_add_epi64(wv[2 * j + 1], k[2 * j + 1]);
            let a1 = _mm512_srli_epi64::<52>(a);
            let b1 = _mm512_srli_epi64::<52>(b);
            c0[e] = _mm512_madd52lo_epu64(c0[e], a, b);
            c1a[e] = _mm512_madd52hi_epu64(c1a[e], a, b);
            c1b[e] = _mm512_madd52lo_epu64(c1b[e], a, b1);
            c1a[e] = _mm512_madd52lo_epu64(c1a[e], a1, b);
            c2a[e] = _mm512_madd52hi_epu64(c2a[e], a, b1);
            c2a[e] = _mm512_madd52hi_epu64(c2a[e], a1, b);
            c2b[e] = _mm512_madd52lo_epu64(c2b[e], a1, b1);
        }
        let c0 = _mm512_add_epi64(c0[0], c0[1]);
        let c1 = _mm512_add_epi64(_mm512_add_epi64(c1a[0], c1a[1]), _mm512_add_epi64(c1b[0], c1b[1]));
        let c2 = _mm512_add_epi64(_mm512_add_epi64(c2a[0], c2a[1]), _mm512_add_epi64(c2b[0], c2b[1]));
        // Carries: c0 < 2^56, c1 < 2^58, c2 < 2^56 before; the limbs l0, l1
        // below 2^52 after, and y = l0 + l1·2^52 + c2·2^104 mod 2^128.
        let c1 = _mm512_add_epi64(c1, _mm512_srli_epi64::<52>(c0));
        let l0 = _mm512_and_si512(c0, m52);
        let c2 = _mm512_add_epi64(c2, _mm512_srli_epi64::<52>(c1));
        let l1 = _mm512_and_si512(c1, m52);
        let lo = _mm512_or_si512(l0, _mm512_slli_epi64::<52>(l1));
        let hi = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64::<12>(l1), _mm512_slli_epi64::<40>(c2)), m62);
        let (mut los, mut his) = ([0u64; 8], [0u64; 8]);
        // SAFETY: 64-byte unaligned stores into 8-word arrays.
        unsafe {
            _mm512_storeu_si512(los.as_mut_ptr() as *mut _, lo);
            _mm512_storeu_si512(his.as_mut_ptr() as *mut _, hi);
        }
        each(&core::array::from_fn(|b| ((his[b] as u128) << 64) | los[b] as u128));
    }
}
