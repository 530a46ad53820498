//! VHASH's L1 and L2 (draft-krovetz-vmac-01 §5.3–5.4) over eight 128-byte
//! blocks at once with AVX-512 IFMA52, lane `b` holding block `b`, for
//! VMAC-64's one iteration or VMAC-128's two in one pass: NH of both from
//! the same loaded and transposed words (the second reads the key two words
//! further on), then per lane and iteration one Horner step in `k⁸` mod
//! `p127` (see [`groups`]), the two iterations' steps side by side, so the
//! serial chain is one multiplication per eight blocks and the scalar units
//! stay free. At the end lane `b` is multiplied by `k^(7−b)` in the vector
//! unit too and the lanes are summed.
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
//! accumulators for one iteration (even and odd `j`, and the terms of each
//! column in two), five per iteration for two, so no chain of dependent
//! `vpmadd52*` is longer than eight (sixteen with two iterations, whose
//! chains interleave). At the end of the group one carry pass gives the
//! exact `NH mod 2^126` per lane in 52-bit limbs, as L2 takes it.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::nh::{BLOCK, KEY_WORDS};
use crate::platform::Platform;

/// Bytes per kernel step: eight blocks.
pub(crate) const GROUP: usize = 8 * BLOCK;

/// L1 and L2 of VHASH's `N` iterations (1 for VMAC-64, 2 for VMAC-128)
/// over whole groups of eight blocks (`data`, a multiple of [`GROUP`]
/// bytes, at least one), with per iteration `k8[t] = k⁸` of its poly key
/// `k` and `lanes[t]` the limbs of `k^(7−b)` in lane `b` (lane 7: 1; see
/// `lane_limbs` in [`super`]), all reduced mod `p127`, and `start[t] = a·k⁸
/// mod p127` for the L2 state `a` before them: per iteration `a·k^(8G) +
/// Σ_i m_i·k^(8G−1−i)` mod `p127` over the `G·8` blocks, below `2^128` and
/// not reduced further; `m_i` is the NH of block `i` masked to 126 bits.
/// Both iterations' NH come from the same loaded and transposed words, and
/// their L2 steps are scheduled together. Panics if the evidence `p` lacks
/// AVX-512F or IFMA52.
#[inline(always)]
pub(crate) fn nh_poly<const N: usize>(
    p: Platform,
    key: &[u64; KEY_WORDS],
    data: &[u8],
    k8: &[u128; N],
    lanes: &[[[u64; 8]; 3]; N],
    start: &[u128; N],
) -> [u128; N] {
    assert!(N == 1 || N == 2, "VHASH has one or two iterations");
    assert!(!data.is_empty() && data.len().is_multiple_of(GROUP), "whole groups of eight VHASH blocks");
    debug_assert!(k8.iter().chain(start).all(|&x| x < super::P127), "reduced mod p127");
    debug_assert!(lanes.iter().all(|l| l[0].iter().chain(&l[1]).all(|&x| x >> 52 == 0) && l[2].iter().all(|&x| x >> 23 == 0)));
    assert!(p.avx512() && p.avx512ifma(), "the AVX-512 IFMA VHASH kernel needs AVX-512F and IFMA52 evidence");
    // SAFETY: the evidence `p` (only detection creates it) has AVX-512F and
    // AVX-512 IFMA52 (asserted above); the
    // kernel's loads stay within `data` (see `groups`) and `lanes`.
    unsafe { groups(key, data, k8, lanes, start) }
}

const M52: u64 = (1 << 52) - 1;
const M23: u64 = (1 << 23) - 1;

/// The kernel of [`nh_poly`].
///
/// L2 per lane, `H ← H·k8 + m`, on three limbs `H = h0 + h1·2^52 +
/// h2·2^104` with `h0, h1 < 2^52` and `h2 < 2^34` (the `vpmadd52*` inputs
/// must be below `2^52`); `k8 = K0 + K1·2^52 + K2·2^104`, `K2 < 2^23`.
/// The eighteen limb products land in columns `C0..C5` of weights
/// `2^(52i)`, each below `2^55`. Mod `p127`, `2^127 ≡ 1`: `2^156 ≡ 2^29`,
/// `2^208 ≡ 2^81 = 2^52·2^29`, `2^260 ≡ 2^6`, and `C2·2^104` keeps its low
/// 23 bits at `2^104` and moves the rest to `2^0`. So
/// `L0 = C0 + (C2 >> 23) + (C3 mod 2^23)·2^29 + C5·2^6` (`< 2^59`),
/// `L1 = C1 + (C3 >> 23) + (C4 mod 2^23)·2^29` (`< 2^56`),
/// `L2 = (C2 mod 2^23) + (C4 >> 23)` (`< 2^33`), plus the limbs of `m`
/// (`m2 < 2^22`); one carry pass `L0 → L1 → L2` restores the limb bounds.
/// The first group takes no step (its lanes start at its NH, lane 7 plus
/// `start`); after the last, one more step with `m = 0` multiplies lane `b`
/// by `k^(7−b)` (each below `2^127`, as `k8`), and the lanes are summed.
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA52.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn groups<const N: usize>(
    key: &[u64; KEY_WORDS],
    data: &[u8],
    k8: &[u128; N],
    lanes: &[[[u64; 8]; 3]; N],
    start: &[u128; N],
) -> [u128; N] {
    // The key words are broadcast where they are used (an operand of the
    // addition), not set up for the whole kernel.
    let k = |w: usize| _mm512_set1_epi64(key[w] as i64);
    let m52 = _mm512_set1_epi64(M52 as i64);
    let m22 = _mm512_set1_epi64((1 << 22) - 1);
    let z = _mm512_setzero_si512();
    let limbs = |x: u128| [x as u64 & M52, (x >> 52) as u64 & M52, (x >> 104) as u64];
    // Per iteration: k⁸ in every lane; k^(7−b) in lane b.
    let k8: [[__m512i; 3]; N] = core::array::from_fn(|t| limbs(k8[t]).map(|x| _mm512_set1_epi64(x as i64)));
    // SAFETY: 64-byte unaligned loads of 8-word arrays.
    let kl: [[__m512i; 3]; N] =
        core::array::from_fn(|t| core::array::from_fn(|i| unsafe { _mm512_loadu_si512(lanes[t][i].as_ptr() as *const _) }));
    let add = |x, y| _mm512_add_epi64(x, y);
    // NH of the group at `p`, per iteration, mod 2^126 in 52-bit limbs.
    // (Macros, not closures: a closure called twice is not inlined.)
    macro_rules! nh { ($p:expr) => {{ let p: *const u8 = $p;
        // SAFETY: this function has AVX-512F; the group's GROUP = 1024
        // bytes at `p` are in bounds (each caller passes a whole group).
        let wv = unsafe { words(p) };
        // Per iteration t the seven products' halves, each in an
        // accumulator of its own (`c0`; `c1` in 1..4; `c2` in 4..7), and for
        // one iteration split over even and odd j: no chain of dependent
        // `vpmadd52*` is longer than four (eight for two iterations).
        let mut c = [[[z; 7]; 2]; N];
        for j in 0..8 {
            let e = if N == 1 { j & 1 } else { 0 };
            for t in 0..N {
                // Iteration t reads the key 2t words further on.
                let a = add(wv[2 * j], k(2 * j + 2 * t));
                let b = add(wv[2 * j + 1], k(2 * j + 2 * t + 1));
                let a1 = _mm512_srli_epi64::<52>(a);
                let b1 = _mm512_srli_epi64::<52>(b);
                let x = &mut c[t][e];
                x[0] = _mm512_madd52lo_epu64(x[0], a, b);
                x[1] = _mm512_madd52hi_epu64(x[1], a, b);
                x[2] = _mm512_madd52lo_epu64(x[2], a, b1);
                x[3] = _mm512_madd52lo_epu64(x[3], a1, b);
                x[4] = _mm512_madd52hi_epu64(x[4], a, b1);
                x[5] = _mm512_madd52hi_epu64(x[5], a1, b);
                x[6] = _mm512_madd52lo_epu64(x[6], a1, b1);
            }
        }
        core::array::from_fn(|t| {
            let x: [__m512i; 7] = core::array::from_fn(|i| add(c[t][0][i], c[t][1][i]));
            let c0 = x[0];
            let c1 = add(add(x[1], x[2]), x[3]);
            let c2 = add(add(x[4], x[5]), x[6]);
            // Carries: c0 < 2^56, c1 < 2^58 before; m0, m1 < 2^52 after,
            // and NH mod 2^126 = m0 + m1·2^52 + (c2 mod 2^22)·2^104.
            let c1 = add(c1, _mm512_srli_epi64::<52>(c0));
            let c2 = add(c2, _mm512_srli_epi64::<52>(c1));
            [_mm512_and_si512(c0, m52), _mm512_and_si512(c1, m52), _mm512_and_si512(c2, m22)]
        })
    }};
    }
    let mut groups = data.chunks_exact(GROUP);
    let first = groups.next().expect("at least one group");
    let mut h: [[__m512i; 3]; N] = nh!(first.as_ptr());
    // With more than one group, lane 7 of the first takes `start` (limbs
    // below 2^52, 2^52, 2^23), then one carry pass: h0, h1 < 2^52,
    // h2 < 2^24 + 2. With one, `start` is added at the end (off the chain).
    let single = groups.len() == 0;
    if !single {
        for t in 0..N {
            // SAFETY: this function has AVX-512F.
            h[t] = unsafe { add_start(h[t], start[t]) };
        }
    }
    for g in groups {
        let m: [[__m512i; 3]; N] = nh!(g.as_ptr());
        for t in 0..N {
            // SAFETY: this function has AVX-512F and IFMA52.
            h[t] = unsafe { step(h[t], k8[t], m[t]) };
        }
    }
    // SAFETY: this function has AVX-512F and IFMA52.
    core::array::from_fn(|t| unsafe { join(h[t], kl[t], start[t], single) })
}

/// The join of one iteration's lanes `h`: lane `b` times `k^(7−b)` (`kl`;
/// one more [`step`], `m = 0`), then the lanes summed per limb
/// (`s0, s1 < 2^55`, `s2 < 2^37`) and assembled; with a `single` group,
/// folded once and `start` added.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA52.
#[inline(always)]
unsafe fn join(h: [__m512i; 3], kl: [__m512i; 3], start: u128, single: bool) -> u128 {
    // SAFETY: register-only AVX-512F and IFMA52 instructions; the caller
    // guarantees both.
    let [x0, x1, x2] = unsafe { step(h, kl, [_mm512_setzero_si512(); 3]) };
    // SAFETY: as above.
    let [s0, s1, s2] = [x0, x1, x2].map(|x| unsafe { _mm512_reduce_add_epi64(x) } as u64);
    // s2·2^104 ≡ (s2 mod 2^23)·2^104 + (s2 >> 23): the sum v is below
    // 2^55 + 2^107 + 2^127 + 2^14; folded once at bit 127, below
    // 2^127 + 1, plus `start < p127` with one group, below 2^128.
    let v = s0 as u128 + ((s1 as u128) << 52) + (((s2 & M23) as u128) << 104) + (s2 >> 23) as u128;
    if single {
        (v & super::P127) + (v >> 127) + start
    } else {
        v
    }
}

/// `h` (a group's NH, limbs below `2^52`, `2^52`, `2^22`) with `start`
/// (below `2^128`) added in lane 7, then one carry pass: `h0, h1 < 2^52`,
/// `h2 < 2^24 + 2`.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn add_start(h: [__m512i; 3], start: u128) -> [__m512i; 3] {
    let limbs = [start as u64 & M52, (start >> 52) as u64 & M52, (start >> 104) as u64];
    // SAFETY: register-only AVX-512F instructions; the caller guarantees
    // the feature.
    unsafe {
        let m52 = _mm512_set1_epi64(M52 as i64);
        let s = limbs.map(|x| _mm512_set_epi64(x as i64, 0, 0, 0, 0, 0, 0, 0));
        let l0 = _mm512_add_epi64(h[0], s[0]);
        let l1 = _mm512_add_epi64(_mm512_add_epi64(h[1], s[1]), _mm512_srli_epi64::<52>(l0));
        let l2 = _mm512_add_epi64(_mm512_add_epi64(h[2], s[2]), _mm512_srli_epi64::<52>(l1));
        [_mm512_and_si512(l0, m52), _mm512_and_si512(l1, m52), l2]
    }
}

/// The sixteen words of the eight blocks of the group at `p`, one vector
/// each: `wv[w]` holds word `w`, lane `b` of block `b` (two 8×8 transposes
/// of 64-bit words by `vpunpck{l,h}qdq` and `vshufi64x2`).
///
/// # Safety
/// The CPU must support AVX-512F, and `p` must be valid for reading
/// [`GROUP`] bytes.
#[inline(always)]
unsafe fn words(p: *const u8) -> [__m512i; 16] {
    // SAFETY: register-only AVX-512F instructions (the caller guarantees
    // the feature) and the loads below.
    unsafe {
        let mut wv = [_mm512_setzero_si512(); 16];
        for h in 0..2 {
            // Bytes [128 b + 64 h, 128 b + 64 h + 64) for b < 8, h < 2 lie
            // within the group's GROUP = 1024 bytes at `p`.
            let r: [__m512i; 8] = core::array::from_fn(|b| _mm512_loadu_si512(p.add(BLOCK * b + 64 * h) as *const _));
            // 128-bit chunk c of te[i] holds words 2c of rows 2i, 2i+1; of
            // to[i] words 2c + 1.
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
        wv
    }
}

/// `H·K + m` in 52-bit limbs (see [`groups`]' comment): every product
/// from zero, summed per column (short chains).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA52.
#[inline(always)]
unsafe fn step(h: [__m512i; 3], k: [__m512i; 3], m: [__m512i; 3]) -> [__m512i; 3] {
    // SAFETY: register-only AVX-512F and IFMA52 instructions; the caller
    // guarantees both.
    unsafe {
        let ([h0, h1, h2], [k0, k1, k2], [m0, m1, m2]) = (h, k, m);
        let z = _mm512_setzero_si512();
        let m52 = _mm512_set1_epi64(M52 as i64);
        let m23 = _mm512_set1_epi64(M23 as i64);
        let add = |x, y| _mm512_add_epi64(x, y);
        let lo = |x, y| _mm512_madd52lo_epu64(z, x, y);
        let hi = |x, y| _mm512_madd52hi_epu64(z, x, y);
        let col0 = lo(h0, k0);
        let col1 = add(hi(h0, k0), add(lo(h0, k1), lo(h1, k0)));
        let col2 = add(add(hi(h0, k1), hi(h1, k0)), add(add(lo(h0, k2), lo(h1, k1)), lo(h2, k0)));
        let col3 = add(add(hi(h0, k2), hi(h1, k1)), add(add(hi(h2, k0), lo(h1, k2)), lo(h2, k1)));
        let col4 = add(add(hi(h1, k2), hi(h2, k1)), lo(h2, k2));
        let col5 = hi(h2, k2);
        let l0 = add(
            add(add(col0, m0), _mm512_srli_epi64::<23>(col2)),
            add(_mm512_slli_epi64::<29>(_mm512_and_si512(col3, m23)), _mm512_slli_epi64::<6>(col5)),
        );
        let l1 = add(add(col1, m1), add(_mm512_srli_epi64::<23>(col3), _mm512_slli_epi64::<29>(_mm512_and_si512(col4, m23))));
        let l2 = add(add(_mm512_and_si512(col2, m23), m2), _mm512_srli_epi64::<23>(col4));
        let l1 = add(l1, _mm512_srli_epi64::<52>(l0));
        [_mm512_and_si512(l0, m52), _mm512_and_si512(l1, m52), add(l2, _mm512_srli_epi64::<52>(l1))]
    }
}

#[cfg(test)]
mod tests {
    use crate::platform::Platform;

    /// The family's differential test, which covers this kernel wherever
    /// the CPU has it.
    #[test]
    fn agrees_with_the_model() {
        assert!(super::super::tests::check_vhash() > 0);
    }

    /// Without the evidence the entry point refuses to run.
    #[test]
    #[should_panic(expected = "needs AVX-512F and IFMA52 evidence")]
    fn refuses_without_evidence() {
        let _ = super::nh_poly::<1>(Platform::portable(), &[0; super::KEY_WORDS], &[0; super::GROUP], &[1], &[[[0; 8]; 3]], &[0]);
    }
}
