//! VHASH's L1 and L2 (draft-krovetz-vmac-01 §5.3–5.4, VMAC-64's one
//! iteration) over eight 128-byte blocks at once with AVX-512 IFMA52, lane
//! `b` holding block `b`: NH, then per lane one Horner step in `k⁸` mod
//! `p127` (see [`groups`]), so the serial chain is one multiplication per
//! eight blocks and the scalar units stay free.
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
//! `NH mod 2^126` per lane in 52-bit limbs, as L2 takes it.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::nh::{BLOCK, KEY_WORDS};
use crate::platform::Platform;

/// Bytes per kernel step: eight blocks.
pub(crate) const GROUP: usize = 8 * BLOCK;

/// L1 and L2 of VMAC-64 over whole groups of eight blocks (`data`, a
/// multiple of [`GROUP`] bytes), with `k8 = k⁸ mod p127` of the poly key
/// `k` and the L2 state `a < 2^128` before them: lane `b` of the result is
/// `Σ_g m_{8g+b}·k8^(G−1−g)` mod `p127` over the `G` groups, lane 7 plus
/// `a·k8^G`, each below `2^128` and not reduced further; `m_i` is the NH of
/// block `i` masked to 126 bits. The caller joins the lanes with `k^(7−b)`.
/// Panics if the evidence `p` lacks AVX-512F or IFMA52.
#[inline(always)]
pub(crate) fn nh_poly(p: Platform, key: &[u64; KEY_WORDS], data: &[u8], k8: u128, a: u128) -> [u128; 8] {
    assert!(data.len().is_multiple_of(GROUP), "whole groups of eight VHASH blocks");
    assert!(k8 < 1 << 127, "k⁸ reduced mod p127");
    assert!(p.avx512() && p.avx512ifma(), "the AVX-512 IFMA VHASH kernel needs AVX-512F and IFMA52 evidence");
    // SAFETY: the evidence `p` (only detection creates it) has AVX-512F and
    // AVX-512 IFMA52 (asserted above); the
    // kernel's loads stay within `data` (see `groups`).
    unsafe { groups(key, data, k8, a) }
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
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA52.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn groups(key: &[u64; KEY_WORDS], data: &[u8], k8: u128, a: u128) -> [u128; 8] {
    let k: [__m512i; 16] = core::array::from_fn(|w| _mm512_set1_epi64(key[w] as i64));
    let m52 = _mm512_set1_epi64(M52 as i64);
    let m23 = _mm512_set1_epi64(M23 as i64);
    let m22 = _mm512_set1_epi64((1 << 22) - 1);
    let z = _mm512_setzero_si512();
    let kk = [k8 as u64 & M52, (k8 >> 52) as u64 & M52, (k8 >> 104) as u64].map(|x| _mm512_set1_epi64(x as i64));
    // Lane 7 starts at a (limbs below 2^52, 2^52, 2^24).
    let start = |x: u64| _mm512_set_epi64(x as i64, 0, 0, 0, 0, 0, 0, 0);
    let (mut h0, mut h1, mut h2) =
        (start(a as u64 & M52), start((a >> 52) as u64 & M52), start((a >> 104) as u64));
    for g in data.chunks_exact(GROUP) {
        let p = g.as_ptr();
        // wv[w]: word w of the eight blocks, lane b = block b.
        let mut wv = [z; 16];
        for h in 0..2 {
            // SAFETY: bytes [128 b + 64 h, 128 b + 64 h + 64) for b < 8,
            // h < 2 lie within the group's GROUP = 1024 bytes.
            let r: [__m512i; 8] =
                core::array::from_fn(|b| unsafe { _mm512_loadu_si512(p.add(BLOCK * b + 64 * h) as *const _) });
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
        // Carries: c0 < 2^56, c1 < 2^58 before; m0, m1 < 2^52 after, and
        // NH mod 2^126 = m0 + m1·2^52 + (c2 mod 2^22)·2^104.
        let c1 = _mm512_add_epi64(c1, _mm512_srli_epi64::<52>(c0));
        let m0 = _mm512_and_si512(c0, m52);
        let c2 = _mm512_add_epi64(c2, _mm512_srli_epi64::<52>(c1));
        let m1 = _mm512_and_si512(c1, m52);
        let m2 = _mm512_and_si512(c2, m22);
        // H·k8: every product from zero, summed per column (short chains).
        let lo = |x, y| _mm512_madd52lo_epu64(z, x, y);
        let hi = |x, y| _mm512_madd52hi_epu64(z, x, y);
        let add = |x, y| _mm512_add_epi64(x, y);
        let [k0, k1, k2] = kk;
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
        let l1 = add(
            add(col1, m1),
            add(_mm512_srli_epi64::<23>(col3), _mm512_slli_epi64::<29>(_mm512_and_si512(col4, m23))),
        );
        let l2 = add(add(_mm512_and_si512(col2, m23), m2), _mm512_srli_epi64::<23>(col4));
        let l1 = add(l1, _mm512_srli_epi64::<52>(l0));
        h0 = _mm512_and_si512(l0, m52);
        h2 = add(l2, _mm512_srli_epi64::<52>(l1));
        h1 = _mm512_and_si512(l1, m52);
    }
    let (mut x0, mut x1, mut x2) = ([0u64; 8], [0u64; 8], [0u64; 8]);
    // SAFETY: 64-byte unaligned stores into 8-word arrays.
    unsafe {
        _mm512_storeu_si512(x0.as_mut_ptr() as *mut _, h0);
        _mm512_storeu_si512(x1.as_mut_ptr() as *mut _, h1);
        _mm512_storeu_si512(x2.as_mut_ptr() as *mut _, h2);
    }
    // H = h0 + h1·2^52 + h2·2^104 ≡ (that with h2 mod 2^23) + (h2 >> 23),
    // below 2^127 + 2^11.
    let out = core::array::from_fn(|b| {
        (x0[b] as u128 | (x1[b] as u128) << 52 | ((x2[b] & M23) as u128) << 104) + (x2[b] >> 23) as u128
    });
    // The lanes are L2 state (key-dependent): wiped.
    for x in [&mut x0, &mut x1, &mut x2] {
        zeroize::Zeroize::zeroize(x);
    }
    out
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
        let _ = super::nh_poly(Platform::portable(), &[0; super::KEY_WORDS], &[0; super::GROUP], 1, 0);
    }
}
