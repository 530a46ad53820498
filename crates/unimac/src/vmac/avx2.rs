//! VHASH's L1 and L2 (draft-krovetz-vmac-01 §5.3–5.4) over four 128-byte
//! blocks per step on CPUs with AVX2 but not IFMA52: NH of two blocks in
//! AVX2 lanes, of the other two by the scalar [`super::nh::nh_block`], and
//! the L2 step ([`super::poly4`]) on the scalar units. The scalar loop
//! spends about half its instructions on NH's 64×64→128 products; the
//! vector half takes some of them off the integer pipes, which then run
//! beside the vector pipes. (All four blocks in lanes, or three, or one,
//! measured slower than two: docs/perf/umac.md, "VMAC without IFMA52".)
//!
//! NH on 64-bit words with `vpmuludq` (32×32→64): for a word pair with
//! `a = m_{2j} + k_{2j}` and `b = m_{2j+1} + k_{2j+1}` (mod `2^64`), split as
//! `a = a0 + a1·2^32`, `b = b0 + b1·2^32`, the schoolbook partial products
//! `ll = a0·b0`, `lh = a0·b1`, `hl = a1·b0`, `hh = a1·b1` give
//! `mid = lh + (hl mod 2^32) + (ll >> 32) <= (2^32 − 1)² + 2(2^32 − 1) <
//! 2^64` (no carry is lost) and
//! `a·b = (ll mod 2^32) + (mid mod 2^32)·2^32 + (hh + (hl >> 32) + (mid >> 32))·2^64`.
//! Per 64-bit lane, three sums: `L` of `ll mod 2^32` (weight 1), `M` of
//! `mid mod 2^32` (weight `2^32`), each below `2^33` per lane for a block's
//! two vectors of four products, and `H` of the high words (weight `2^64`),
//! which wraps mod `2^64` as NH's sum does mod `2^128`. The lanes of the
//! two blocks are summed in a transposing tree (lane `b` then holds block
//! `b`, `L, M < 2^35`), and `L + M·2^32 + H·2^64 mod 2^128` is assembled
//! without a carry: `u = M + (L >> 32)`, low word `(L mod 2^32) + (u mod
//! 2^32)·2^32`, high word `H + (u >> 32)`.
//!
//! Word pairs come from two loaded vectors by `vpunpck{l,h}qdq` (lane order
//! `0, 2, 1, 3` of the block's pairs, which a sum does not see). VMAC-128's
//! second iteration adds the key two words further on to the same words.
//!
//! That split is VMAC-64's ([`quads`]). VMAC-128 ([`blocks128`]) keeps all
//! of NH on the scalar units and gives the vector units only the key
//! additions: eight `vpaddq` a block store both iterations' sums, and each
//! 64×64→128 product is then `mov`, `mul` with a memory operand, `add`,
//! `adc` (inline assembly, [`nh_sums`]); the L2 step's 16 products per
//! iteration are inline assembly too ([`poly4_asm`], `mulx`: BMI2, which
//! the AVX2 evidence includes). On a Sapphire Rapids-class Xeon,
//! where `vpmuludq` and the scalar `mul` share execution ports, the split
//! above was 1.2× slower than the scalar loop for VMAC-128, and this 1.04×
//! faster than it (docs/perf/umac.md, "VMAC-128 without IFMA52 on Intel").
//! The sums are stored one block ahead, in two buffers taken in turn: the
//! loads of a block's sums then come well after the 32-byte stores that
//! wrote them. With one buffer, written just before the loads read it in
//! 8-byte pieces, the whole loop ran about 11 % slower (docs/perf/umac.md,
//! "VMAC-128's sums one block ahead").

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::nh::{BLOCK, KEY_WORDS};
use crate::platform::Platform;
use zeroize::Zeroize;

/// Bytes per kernel step: four blocks, one [`super::poly4`] per iteration.
pub(crate) const QUAD: usize = 4 * BLOCK;

/// The shortest run of whole blocks the dispatch hands this kernel: three
/// quads (1536 bytes). On one or two quads the scalar loop measured faster
/// (docs/perf/umac.md, "VMAC without IFMA52").
pub(crate) const MIN_BYTES: usize = 3 * QUAD;

/// L1 and L2 of VHASH's `N` iterations (1 for VMAC-64, 2 for VMAC-128)
/// over whole quads of blocks (`data`, a multiple of [`QUAD`] bytes), from
/// the L2 states `a` (any values below `2^128`), with the NH key `key` and
/// per iteration the powers `pw[t] = [k, k², …]` of its poly key: per quad
/// and iteration `a ← poly4(a, pw, NH of the four blocks masked to 126
/// bits)`, the states returned lazily reduced as [`super::poly4`] leaves
/// them. Panics if the evidence `p` lacks AVX2 (the `avx2fma` feature).
#[inline(always)]
pub(crate) fn quads<const N: usize>(
    p: Platform,
    key: &[u64; KEY_WORDS],
    data: &[u8],
    pw: &[[u128; 8]; 2],
    a: [u128; N],
) -> [u128; N] {
    assert!(N == 1 || N == 2, "VHASH has one or two iterations");
    assert!(data.len().is_multiple_of(QUAD), "whole quads of VHASH blocks");
    assert!(p.avx2_fma(), "the AVX2 VHASH kernel needs AVX2 and FMA evidence");
    // SAFETY: the evidence `p` (only detection creates it) has AVX2
    // (asserted above); the kernel's loads stay within each quad of `data`
    // and within `key` (see `nh4_one`).
    unsafe { quads_avx2::<N>(key, data, pw, a) }
}

/// The kernel of [`quads`]: per quad, [`nh4`] and one [`super::poly4`]
/// per iteration.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn quads_avx2<const N: usize>(
    key: &[u64; KEY_WORDS],
    data: &[u8],
    pw: &[[u128; 8]; 2],
    mut a: [u128; N],
) -> [u128; N] {
    const M126: u128 = super::M126;
    for q in data.chunks_exact(QUAD) {
        let q: &[u8; QUAD] = q.try_into().unwrap();
        // SAFETY: the CPU has AVX2 (this function's contract).
        let y = unsafe { nh4::<N>(key, q) };
        for t in 0..N {
            let [y0, y1, y2, y3] = y[t];
            a[t] = super::poly4(a[t], &pw[t], [y0 & M126, y1 & M126, y2 & M126, y3 & M126]);
        }
    }
    a
}

/// NH mod `2^128` of the four blocks of `q` for `N` iterations: blocks 0
/// and 1 in vector lanes, 2 and 3 by the scalar loop (see [`nh4_one`]).
///
/// # Safety
/// The CPU must have AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn nh4<const N: usize>(key: &[u64; KEY_WORDS], q: &[u8; QUAD]) -> [[u128; 4]; N] {
    let mut y = [[0u128; 4]; N];
    // SAFETY: the CPU has AVX2 (this function's contract).
    y[0] = unsafe { nh4_one::<N, 0>(key, q) };
    if N == 2 {
        // SAFETY: as above.
        y[N - 1] = unsafe { nh4_one::<N, 1>(key, q) };
    }
    y
}

/// NH mod `2^128` of the four blocks of `q` for iteration `T` (0 or 1),
/// whose key starts `2T` words into `key`: blocks 0 and 1 in vector lanes,
/// then 2 and 3 by [`super::nh::nh_block`] (for VMAC-128 both iterations'
/// calls read the same words, and the compiler keeps one; written this
/// way, with the scalar blocks after the vector ones in the same
/// function, VMAC-64 measured 1.08× faster than with the scalar blocks in
/// the caller). `N`, the caller's, gives each caller its own copy, which
/// the compiler then inlines.
///
/// # Safety
/// The CPU must have AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn nh4_one<const N: usize, const T: usize>(key: &[u64; KEY_WORDS], q: &[u8; QUAD]) -> [u128; 4] {
    const { assert!(T <= 1) };
    let t = T;
    let kp = key.as_ptr();
    let kv = |v: usize| {
        debug_assert!(v < 4);
        // SAFETY: t <= 1 and v <= 3 (every call below), so the four words
        // end at 2 + 12 + 4 = 18 = KEY_WORDS at most: within `key`.
        unsafe { _mm256_loadu_si256(kp.add(2 * t + 4 * v) as *const __m256i) }
    };
    let k = [kv(0), kv(1), kv(2), kv(3)];
    // Lanes 0 and 1: blocks 0 and 1 (2 and 3 repeat them).
    let (l01, m01, h01) = blocks01(q, &k);
    let (l, m, h) = (across(l01, l01), across(m01, m01), across(h01, h01));
    let u = _mm256_add_epi64(m, _mm256_srli_epi64::<32>(l));
    let lo = _mm256_blend_epi32::<0b1010_1010>(l, _mm256_slli_epi64::<32>(u));
    let hi = _mm256_add_epi64(h, _mm256_srli_epi64::<32>(u));
    let (mut lw, mut hw) = ([0u64; 4], [0u64; 4]);
    // SAFETY: 32-byte stores into two local 32-byte arrays.
    unsafe {
        _mm256_storeu_si256(lw.as_mut_ptr() as *mut __m256i, lo);
        _mm256_storeu_si256(hw.as_mut_ptr() as *mut __m256i, hi);
    }
    let y2 = super::nh::nh_block::<2>(key, q[2 * BLOCK..3 * BLOCK].try_into().unwrap())[T];
    let y3 = super::nh::nh_block::<2>(key, q[3 * BLOCK..4 * BLOCK].try_into().unwrap())[T];
    [lw[0] as u128 | (hw[0] as u128) << 64, lw[1] as u128 | (hw[1] as u128) << 64, y2, y3]
}

/// The (L, M, H) lane sums of blocks 0 and 1 of `q` under the key vectors
/// `k`, half summed across lanes ([`half_across`]).
#[inline]
#[target_feature(enable = "avx2")]
fn blocks01(q: &[u8; QUAD], k: &[__m256i; 4]) -> (__m256i, __m256i, __m256i) {
    let (l0, m0, h0) = block(q, 0, k);
    let (l1, m1, h1) = block(q, 1, k);
    (half_across(l0, l1), half_across(m0, m1), half_across(h0, h1))
}

/// The (L, M, H) lane sums of block `b < 4` of `q` under the key vectors `k`.
#[inline]
#[target_feature(enable = "avx2")]
fn block(q: &[u8; QUAD], b: usize, k: &[__m256i; 4]) -> (__m256i, __m256i, __m256i) {
    let blk: &[u8; BLOCK] = q[BLOCK * b..BLOCK * (b + 1)].try_into().unwrap();
    let xv = |v: usize| {
        debug_assert!(v < 4);
        // SAFETY: v < 4 (every call below), so bytes 32v .. 32v + 32 lie
        // within `blk`.
        unsafe { _mm256_add_epi64(_mm256_loadu_si256(blk.as_ptr().add(32 * v) as *const __m256i), k[v]) }
    };
    let m32 = _mm256_set1_epi64x(0xffff_ffff);
    let (l0, m0, h0) = pair(xv(0), xv(1), m32);
    let (l1, m1, h1) = pair(xv(2), xv(3), m32);
    (_mm256_add_epi64(l0, l1), _mm256_add_epi64(m0, m1), _mm256_add_epi64(h0, h1))
}

/// The `(L, M, H)` terms of the four products of two vectors of key-added
/// words (`x0` words `4i..4i+4`, `x1` the next four): see the module
/// documentation. `L` and `M` lanes are below `2^32`.
#[inline]
#[target_feature(enable = "avx2")]
fn pair(x0: __m256i, x1: __m256i, m32: __m256i) -> (__m256i, __m256i, __m256i) {
    let a = _mm256_unpacklo_epi64(x0, x1);
    let b = _mm256_unpackhi_epi64(x0, x1);
    // The high halves moved down by a shuffle (`vpmuludq` reads only the
    // low 32 bits of each lane): with shifts, the compiler recognizes the
    // 64×64 high product and rebuilds it from scalar multiplications.
    let (ah, bh) = (_mm256_shuffle_epi32::<0b11_11_01_01>(a), _mm256_shuffle_epi32::<0b11_11_01_01>(b));
    let ll = _mm256_mul_epu32(a, b);
    let lh = _mm256_mul_epu32(a, bh);
    let hl = _mm256_mul_epu32(ah, b);
    let hh = _mm256_mul_epu32(ah, bh);
    let mid = _mm256_add_epi64(_mm256_add_epi64(lh, _mm256_and_si256(hl, m32)), _mm256_srli_epi64::<32>(ll));
    let high = _mm256_add_epi64(_mm256_add_epi64(hh, _mm256_srli_epi64::<32>(hl)), _mm256_srli_epi64::<32>(mid));
    (_mm256_and_si256(ll, m32), _mm256_and_si256(mid, m32), high)
}

/// `[v0₀+v0₁, v1₀+v1₁, v0₂+v0₃, v1₂+v1₃]` (mod `2^64`): the first
/// half of [`across`].
#[inline]
#[target_feature(enable = "avx2")]
fn half_across(v0: __m256i, v1: __m256i) -> __m256i {
    _mm256_add_epi64(_mm256_unpacklo_epi64(v0, v1), _mm256_unpackhi_epi64(v0, v1))
}

/// From [`half_across`] of `v0, v1` and of `v2, v3`: lane `b` holds the
/// sum of `vb`'s four lanes (mod `2^64`). With the same argument twice,
/// lanes 0 and 1 hold `v0`'s and `v1`'s sums.
#[inline]
#[target_feature(enable = "avx2")]
fn across(t01: __m256i, t23: __m256i) -> __m256i {
    _mm256_add_epi64(_mm256_permute2x128_si256::<0x20>(t01, t23), _mm256_permute2x128_si256::<0x31>(t01, t23))
}

/// The key-added words of one block for VMAC-128's two iterations, as
/// [`blocks128`]'s vector adds store them for [`nh_sums`]: iteration
/// `t`'s word `i` (`m_i + k_(i+2t) mod 2^64`) at index `16t + i`.
#[repr(C, align(32))]
struct Sums([u64; 32]);

impl Sums {
    /// Zeroizes the words (they are the key plus the message), as eight
    /// 32-byte volatile stores rather than 32 of 8 bytes.
    #[inline(always)]
    fn wipe(&mut self) {
        // SAFETY: `Sums` is 256 bytes, aligned to 32 (its `repr`): eight
        // `__m256i` in place, for the exclusive borrow of `self`; any bits
        // are a valid `u64`, so the zeros written are too.
        let v = unsafe { &mut *(self.0.as_mut_ptr() as *mut [__m256i; 8]) };
        v.zeroize();
    }
}

/// NH mod `2^128` of one block for both iterations from its key-added
/// words `s` (see [`Sums`]): per word pair one `mul` (64×64→128) with the
/// pair's second word as its memory operand, the products summed by
/// `add`/`adc`, four instructions a product, the two iterations'
/// products alternated. (Miri runs no inline assembly: under it the same
/// sums in Rust, so that the rest of the kernel is still checked.)
#[cfg(not(miri))]
#[inline(always)]
fn nh_sums(s: &Sums) -> [u128; 2] {
    let (a0l, a0h, a1l, a1h): (u64, u64, u64, u64);
    // SAFETY: the loads read words 0..32 of `s` (byte offsets 0..=248, each
    // 8 bytes): within the reference. No stack, no memory written; `mul`,
    // `add` and `adc` need no feature beyond x86-64; the flags are
    // clobbered (the default).
    unsafe {
        core::arch::asm!(
            "mov rax, qword ptr [{s} + 0]",
            "mul qword ptr [{s} + 8]",
            "mov {a0l}, rax",
            "mov {a0h}, rdx",
            "mov rax, qword ptr [{s} + 128]",
            "mul qword ptr [{s} + 136]",
            "mov {a1l}, rax",
            "mov {a1h}, rdx",
            "mov rax, qword ptr [{s} + 16]",
            "mul qword ptr [{s} + 24]",
            "add {a0l}, rax",
            "adc {a0h}, rdx",
            "mov rax, qword ptr [{s} + 144]",
            "mul qword ptr [{s} + 152]",
            "add {a1l}, rax",
            "adc {a1h}, rdx",
            "mov rax, qword ptr [{s} + 32]",
            "mul qword ptr [{s} + 40]",
            "add {a0l}, rax",
            "adc {a0h}, rdx",
            "mov rax, qword ptr [{s} + 160]",
            "mul qword ptr [{s} + 168]",
            "add {a1l}, rax",
            "adc {a1h}, rdx",
            "mov rax, qword ptr [{s} + 48]",
            "mul qword ptr [{s} + 56]",
            "add {a0l}, rax",
            "adc {a0h}, rdx",
            "mov rax, qword ptr [{s} + 176]",
            "mul qword ptr [{s} + 184]",
            "add {a1l}, rax",
            "adc {a1h}, rdx",
            "mov rax, qword ptr [{s} + 64]",
            "mul qword ptr [{s} + 72]",
            "add {a0l}, rax",
            "adc {a0h}, rdx",
            "mov rax, qword ptr [{s} + 192]",
            "mul qword ptr [{s} + 200]",
            "add {a1l}, rax",
            "adc {a1h}, rdx",
            "mov rax, qword ptr [{s} + 80]",
            "mul qword ptr [{s} + 88]",
            "add {a0l}, rax",
            "adc {a0h}, rdx",
            "mov rax, qword ptr [{s} + 208]",
            "mul qword ptr [{s} + 216]",
            "add {a1l}, rax",
            "adc {a1h}, rdx",
            "mov rax, qword ptr [{s} + 96]",
            "mul qword ptr [{s} + 104]",
            "add {a0l}, rax",
            "adc {a0h}, rdx",
            "mov rax, qword ptr [{s} + 224]",
            "mul qword ptr [{s} + 232]",
            "add {a1l}, rax",
            "adc {a1h}, rdx",
            "mov rax, qword ptr [{s} + 112]",
            "mul qword ptr [{s} + 120]",
            "add {a0l}, rax",
            "adc {a0h}, rdx",
            "mov rax, qword ptr [{s} + 240]",
            "mul qword ptr [{s} + 248]",
            "add {a1l}, rax",
            "adc {a1h}, rdx",
            s = in(reg) s.0.as_ptr(),
            a0l = out(reg) a0l,
            a0h = out(reg) a0h,
            a1l = out(reg) a1l,
            a1h = out(reg) a1h,
            out("rax") _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [a0l as u128 | (a0h as u128) << 64, a1l as u128 | (a1h as u128) << 64]
}

/// [`nh_sums`] in Rust: Miri's, and the tests compare the two.
#[cfg(any(test, miri))]
fn nh_sums_rust(s: &Sums) -> [u128; 2] {
    let mut y = [0u128; 2];
    for (t, acc) in y.iter_mut().enumerate() {
        for j in 0..8 {
            let (a, b) = (s.0[16 * t + 2 * j], s.0[16 * t + 2 * j + 1]);
            *acc = acc.wrapping_add(a as u128 * b as u128);
        }
    }
    y
}

#[cfg(miri)]
use nh_sums_rust as nh_sums;

/// A key power `K < 2^127` as the words the products of [`mac`] read:
/// `[K mod 2^64, K >> 64, 2·(K >> 64)]`.
type KWords = [u64; 3];

/// The [`KWords`] of `k¹ … k⁴` (`pw[0..4]`), for [`poly4_asm`].
fn kwords(pw: &[u128; 8]) -> [KWords; 4] {
    core::array::from_fn(|j| {
        let k = pw[j];
        debug_assert!(k < 1 << 127);
        [k as u64, (k >> 64) as u64, 2 * (k >> 64) as u64]
    })
}

/// One term of [`super::dot`]: `acc = [p0, p1, pc, q0, q1, qc]` (the sums
/// `P` and `Q`, each two words and a carry count) gains `xl·Kl + xh·2Kh`
/// in `P` and `xh·Kl + xl·Kh` in `Q`: per product `mulx` with the key word
/// as memory operand, `add`, `adc`, `adc`; each word of `x` goes to `rdx`
/// once for its two products (the compiler's version of [`super::dot`]
/// spent about twice the instructions, on moves, spills and `setb`).
/// `mulx` is BMI2's, part of the AVX2 evidence ([`crate::Feature::Avx2Fma`]).
#[cfg(not(miri))]
#[inline(always)]
fn mac(acc: &mut [u64; 6], x: u128, k: &KWords) {
    let (xl, xh) = (x as u64, (x >> 64) as u64);
    let [p0, p1, pc, q0, q1, qc] = acc;
    // SAFETY: the loads read words 0..3 of `k` (byte offsets 0, 8, 16):
    // within the reference. No stack, no memory written; `mulx` needs
    // BMI2, which every caller's evidence has (`blocks128`'s assertion);
    // `add` and `adc` need nothing beyond x86-64; the flags are clobbered.
    unsafe {
        core::arch::asm!(
            "mulx {t1}, {t0}, qword ptr [{k}]",
            "add {p0}, {t0}",
            "adc {p1}, {t1}",
            "adc {pc}, 0",
            "mulx {t1}, {t0}, qword ptr [{k} + 8]",
            "add {q0}, {t0}",
            "adc {q1}, {t1}",
            "adc {qc}, 0",
            "mov rdx, {xh}",
            "mulx {t1}, {t0}, qword ptr [{k}]",
            "add {q0}, {t0}",
            "adc {q1}, {t1}",
            "adc {qc}, 0",
            "mulx {t1}, {t0}, qword ptr [{k} + 16]",
            "add {p0}, {t0}",
            "adc {p1}, {t1}",
            "adc {pc}, 0",
            xh = in(reg) xh,
            k = in(reg) k.as_ptr(),
            p0 = inout(reg) *p0,
            p1 = inout(reg) *p1,
            pc = inout(reg) *pc,
            q0 = inout(reg) *q0,
            q1 = inout(reg) *q1,
            qc = inout(reg) *qc,
            t0 = out(reg) _,
            t1 = out(reg) _,
            inout("rdx") xl => _,
            options(pure, readonly, nostack),
        );
    }
}

/// The three message terms of [`super::poly4`] and its constant, as the
/// sums `P` and `Q` of [`mac`] (`[p0, p1, pc, q0, q1, qc]`): the same two
/// values, with fewer carry counts. The message words are below `2^126`
/// (`xh < 2^62`) and the key powers below `2^127` (`2Kh < 2^64`), so some
/// groups of products cannot carry out of 128 bits and are summed with
/// `add`, `adc` alone: `m₃ + Σ xh·2Kh < 2^126 + 3·2^126 = 2^128` (the start
/// of `P`), `Σ xh·Kl < 3·2^126` (the start of `Q`), and the pair
/// `xl₀·Kh₀ + xl₁·Kh₁ < 2·2^127`; only the three `xl·Kl` (each up to
/// `2^128 − 2^65 + 1`), that pair and `xl₂·Kh₂` are added with a carry
/// count: 16 `adc` where [`mac`] takes 24 for the same twelve products.
#[cfg(not(miri))]
#[inline(always)]
fn message_terms(kw: &[KWords; 4], m: &[u128; 4]) -> [u64; 6] {
    debug_assert!(m.iter().all(|&x| x < 1 << 126));
    // Term j is `m[2 − j]` by `kw[j]`.
    let xl = [m[2] as u64, m[1] as u64, m[0] as u64];
    let xh = [(m[2] >> 64) as u64, (m[1] >> 64) as u64, (m[0] >> 64) as u64];
    low_terms(kw, xl, high_terms(kw, xh, m[3]))
}

/// Of [`message_terms`]: `P = m₃ + Σ xh_j·2Kh_j` (below `2^128`) and
/// `Q = Σ xh_j·Kl_j` (below `3·2^126`), no carry, as `[p0, p1, q0, q1]`.
#[cfg(not(miri))]
#[inline(always)]
fn high_terms(kw: &[KWords; 4], [x0h, x1h, x2h]: [u64; 3], m3: u128) -> [u64; 4] {
    let (mut p0, mut p1) = (m3 as u64, (m3 >> 64) as u64);
    let (q0, q1): (u64, u64);
    // SAFETY: the loads read words 0..9 of `kw` (byte offsets 0..=64:
    // `kw[j]` at 24j, its [Kl, Kh, 2Kh] at +0, +8, +16): within the
    // reference. No stack, no memory written; `mulx` needs BMI2, which
    // every caller's evidence has (`blocks128`'s assertion); `add` and
    // `adc` need nothing beyond x86-64; the flags are clobbered.
    unsafe {
        core::arch::asm!(
            "mulx {q1}, {q0}, qword ptr [{k} + 0]",
            "mulx {t1}, {t0}, qword ptr [{k} + 16]",
            "add {p0}, {t0}",
            "adc {p1}, {t1}",
            "mov rdx, {x1h}",
            "mulx {t1}, {t0}, qword ptr [{k} + 24]",
            "add {q0}, {t0}",
            "adc {q1}, {t1}",
            "mulx {t1}, {t0}, qword ptr [{k} + 40]",
            "add {p0}, {t0}",
            "adc {p1}, {t1}",
            "mov rdx, {x2h}",
            "mulx {t1}, {t0}, qword ptr [{k} + 48]",
            "add {q0}, {t0}",
            "adc {q1}, {t1}",
            "mulx {t1}, {t0}, qword ptr [{k} + 64]",
            "add {p0}, {t0}",
            "adc {p1}, {t1}",
            x1h = in(reg) x1h,
            x2h = in(reg) x2h,
            k = in(reg) kw.as_ptr(),
            p0 = inout(reg) p0,
            p1 = inout(reg) p1,
            q0 = out(reg) q0,
            q1 = out(reg) q1,
            t0 = out(reg) _,
            t1 = out(reg) _,
            inout("rdx") x0h => _,
            options(pure, readonly, nostack),
        );
    }
    [p0, p1, q0, q1]
}

/// Of [`message_terms`]: `P += Σ xl_j·Kl_j` and `Q += Σ xl_j·Kh_j`,
/// each product added with a carry count, as `[p0, p1, pc, q0, q1, qc]`:
/// each `xl_j` goes to `rdx` once for its two products (`mulx`, BMI2's).
#[cfg(not(miri))]
#[inline(always)]
fn low_terms(kw: &[KWords; 4], [x0l, x1l, x2l]: [u64; 3], [mut p0, mut p1, mut q0, mut q1]: [u64; 4]) -> [u64; 6] {
    let (mut pc, mut qc) = (0u64, 0u64);
    // SAFETY: the loads read words 0..9 of `kw` (byte offsets 0..=64:
    // `kw[j]` at 24j, its [Kl, Kh, 2Kh] at +0, +8, +16): within the
    // reference. No stack, no memory written; `mulx` needs BMI2, which
    // every caller's evidence has (`blocks128`'s assertion); `add` and
    // `adc` need nothing beyond x86-64; the flags are clobbered.
    unsafe {
        core::arch::asm!(
            "mulx {t1}, {t0}, qword ptr [{k} + 0]",
            "add {p0}, {t0}",
            "adc {p1}, {t1}",
            "adc {pc}, 0",
            "mulx {t1}, {t0}, qword ptr [{k} + 8]",
            "add {q0}, {t0}",
            "adc {q1}, {t1}",
            "adc {qc}, 0",
            "mov rdx, {x1l}",
            "mulx {t1}, {t0}, qword ptr [{k} + 24]",
            "add {p0}, {t0}",
            "adc {p1}, {t1}",
            "adc {pc}, 0",
            "mulx {t1}, {t0}, qword ptr [{k} + 32]",
            "add {q0}, {t0}",
            "adc {q1}, {t1}",
            "adc {qc}, 0",
            "mov rdx, {x2l}",
            "mulx {t1}, {t0}, qword ptr [{k} + 48]",
            "add {p0}, {t0}",
            "adc {p1}, {t1}",
            "adc {pc}, 0",
            "mulx {t1}, {t0}, qword ptr [{k} + 56]",
            "add {q0}, {t0}",
            "adc {q1}, {t1}",
            "adc {qc}, 0",
            x1l = in(reg) x1l,
            x2l = in(reg) x2l,
            k = in(reg) kw.as_ptr(),
            p0 = inout(reg) p0,
            p1 = inout(reg) p1,
            pc = inout(reg) pc,
            q0 = inout(reg) q0,
            q1 = inout(reg) q1,
            qc = inout(reg) qc,
            t0 = out(reg) _,
            t1 = out(reg) _,
            inout("rdx") x0l => _,
            options(pure, readonly, nostack),
        );
    }
    [p0, p1, pc, q0, q1, qc]
}

/// [`super::poly4`] with its products by [`message_terms`] and [`mac`]:
/// the same value (the same sums `P` and `Q`, the same fold by
/// [`super::dot_finish`]). `m` below `2^126` (masked NH outputs). `None`
/// for `a` is a message's first quad, where the polynomial starts from
/// `a = 1` (see `blocks_serial`): its product by `k⁴` is `k⁴` itself,
/// added to `P` without the four products (the sum `P + Q·2^64`, all the
/// fold depends on, is the same). Which quad is first is public, so the
/// branch depends on no secret.
#[cfg(not(miri))]
#[inline(always)]
fn poly4_asm(a: Option<u128>, kw: &[KWords; 4], m: [u128; 4]) -> u128 {
    let mut acc = message_terms(kw, &m);
    if let Some(a) = a {
        mac(&mut acc, a, &kw[3]);
    } else {
        let k4 = kw[3][0] as u128 | (kw[3][1] as u128) << 64;
        let (p, c) = (acc[0] as u128 | (acc[1] as u128) << 64).overflowing_add(k4);
        (acc[0], acc[1], acc[2]) = (p as u64, (p >> 64) as u64, acc[2] + c as u64);
    }
    let [p0, p1, pc, q0, q1, qc] = acc;
    super::dot_finish((p0 as u128 | (p1 as u128) << 64, pc), (q0 as u128 | (q1 as u128) << 64, qc))
}

/// Miri runs no inline assembly: there, [`super::poly4`] itself.
#[cfg(miri)]
#[inline(always)]
fn poly4_asm(a: Option<u128>, kw: &[KWords; 4], m: [u128; 4]) -> u128 {
    let k = |j: usize| kw[j][0] as u128 | (kw[j][1] as u128) << 64;
    super::poly4(a.unwrap_or(1), &[k(0), k(1), k(2), k(3), 0, 0, 0, 0], m)
}

/// L1 and L2 of VMAC-128 (both iterations) over whole blocks (`data`, a
/// multiple of [`BLOCK`] bytes) from the L2 states `a` (any values below
/// `2^128`; `None` where the polynomial starts, from 1, with at least four
/// blocks): per block the message words plus each iteration's key words
/// by eight `vpaddq`, stored to [`Sums`] while the block before is
/// hashed, and NH from there by [`nh_sums`] on the scalar units; per four blocks one [`super::poly4`]
/// per iteration ([`poly4_asm`], its products in inline assembly) with the
/// powers `pw[t] = [k, k², …]` of its poly key, the
/// last one to three blocks one lazy Horner step ([`super::poly_step`])
/// each with the masked poly keys `kp`. The states are returned as those
/// steps leave them (below `2^128`). Panics if the evidence `p` lacks AVX2
/// and BMI2 (the `avx2fma` feature).
#[inline(always)]
pub(crate) fn blocks128(
    p: Platform,
    key: &[u64; KEY_WORDS],
    data: &[u8],
    kp: &[u128; 2],
    pw: &[[u128; 8]; 2],
    a: Option<[u128; 2]>,
) -> [u128; 2] {
    assert!(data.len().is_multiple_of(BLOCK), "whole VHASH blocks");
    assert!(p.avx2_fma(), "the AVX2 VHASH kernel needs AVX2 and FMA evidence");
    // SAFETY: the evidence `p` (only detection creates it) has AVX2 and
    // BMI2 (asserted above: `Feature::Avx2Fma` needs both); the loads stay
    // within each block of `data` and within `key` (see `blocks128_avx2`).
    unsafe { blocks128_avx2(key, data, kp, pw, a) }
}

/// The kernel of [`blocks128`].
///
/// # Safety
/// The CPU must have AVX2 and BMI2 (the `mulx` of [`poly4_asm`]).
#[target_feature(enable = "avx2,bmi2")]
unsafe fn blocks128_avx2(
    key: &[u64; KEY_WORDS],
    data: &[u8],
    kp: &[u128; 2],
    pw: &[[u128; 8]; 2],
    a: Option<[u128; 2]>,
) -> [u128; 2] {
    const M126: u128 = super::M126;
    let kptr = key.as_ptr();
    // SAFETY: words 2t + 4v .. 2t + 4v + 4 with t <= 1 and v <= 3 (every
    // call below) end at 2 + 12 + 4 = 18 = KEY_WORDS at most: within `key`.
    let kv = |t: usize, v: usize| unsafe { _mm256_loadu_si256(kptr.add(2 * t + 4 * v) as *const __m256i) };
    let k0 = [kv(0, 0), kv(0, 1), kv(0, 2), kv(0, 3)];
    let k1 = [kv(1, 0), kv(1, 1), kv(1, 2), kv(1, 3)];
    let mut s2 = [Sums([0; 32]), Sums([0; 32])];
    let prep = |s: &mut Sums, b: &[u8]| {
        assert_eq!(b.len(), BLOCK);
        let bp = b.as_ptr();
        let sp = s.0.as_mut_ptr();
        for v in 0..4 {
            // SAFETY: the load reads bytes 32v .. 32v + 32 (v < 4) of the
            // 128-byte block `b` (asserted); the aligned stores write words
            // 4v .. 4v + 4 and 16 + 4v .. 20 + 4v of the 32 of `s` (32-byte
            // aligned, so both are too).
            unsafe {
                let m = _mm256_loadu_si256(bp.add(32 * v) as *const __m256i);
                _mm256_store_si256(sp.add(4 * v) as *mut __m256i, _mm256_add_epi64(m, k0[v]));
                _mm256_store_si256(sp.add(16 + 4 * v) as *mut __m256i, _mm256_add_epi64(m, k1[v]));
            }
        }
    };
    let mut kw = [kwords(&pw[0]), kwords(&pw[1])];
    let nq = data.len() / QUAD;
    let blk = |i: usize| &data[i * BLOCK..(i + 1) * BLOCK];
    // `None`: the polynomial starts here, from 1 (public: no secret).
    let mut start = a.is_none();
    let mut a = a.unwrap_or([1, 1]);
    // Block i's sums go to `s2[i % 2]` while block i − 1 is hashed: its
    // loads then read stores made a block earlier (see the module docs).
    let nb = data.len() / BLOCK;
    if nb > 0 {
        prep(&mut s2[0], blk(0));
    }
    let mut nh = |i: usize| -> [u128; 2] {
        if i + 1 < nb {
            prep(&mut s2[(i + 1) & 1], blk(i + 1));
        }
        nh_sums(&s2[i & 1])
    };
    for qi in 0..nq {
        let [y0, z0] = nh(4 * qi);
        let [y1, z1] = nh(4 * qi + 1);
        let [y2, z2] = nh(4 * qi + 2);
        let [y3, z3] = nh(4 * qi + 3);
        let (a0, a1) = if start { (None, None) } else { (Some(a[0]), Some(a[1])) };
        start = false;
        a[0] = poly4_asm(a0, &kw[0], [y0 & M126, y1 & M126, y2 & M126, y3 & M126]);
        a[1] = poly4_asm(a1, &kw[1], [z0 & M126, z1 & M126, z2 & M126, z3 & M126]);
    }
    for i in 4 * nq..nb {
        let [y, z] = nh(i);
        a[0] = super::poly_step(a[0], kp[0], y & M126);
        a[1] = super::poly_step(a[1], kp[1], z & M126);
    }
    s2.iter_mut().for_each(Sums::wipe);
    kw.zeroize();
    a
}

#[cfg(test)]
mod tests {
    use super::{BLOCK, KEY_WORDS, QUAD};
    use crate::platform::Platform;
    use crate::vmac::nh::nh_portable;
    use rand::{Rng, RngExt};

    /// The family's differential test, which covers this kernel wherever
    /// the CPU has it: its runs of 1 to 20 blocks (and longer) reach past
    /// the threshold at which the dispatch hands runs to this kernel.
    #[test]
    fn agrees_with_the_model() {
        const { assert!(super::MIN_BYTES <= 16 * BLOCK, "check_vhash's runs must reach the kernel") };
        assert!(super::super::tests::check_vhash() > 0);
    }

    /// The vector NH itself against [`nh_portable`], block by block, for
    /// both iterations: random words and keys, and the extremes of the
    /// 32-bit schoolbook (every `m + k` at `2^64 − 1`, so every partial
    /// product and `mid` at its bound; sums that wrap to 0; alternating).
    #[test]
    fn nh_matches_the_portable_nh() {
        if !Platform::hardware().avx2_fma() {
            crate::platform::skipped_kernel("avx2fma");
            return;
        }
        let mut r = super::super::tests::rng();
        let mut n = 0;
        for case in 0..2000 {
            let mut key = [0u64; KEY_WORDS];
            let mut q = [0u8; QUAD];
            r.fill_bytes(&mut q);
            key.iter_mut().for_each(|w| *w = r.random());
            for (i, w) in q.chunks_exact_mut(8).enumerate() {
                let k = key[i % 16 + 2 * ((case / 4) % 2)];
                let v = match case % 4 {
                    0 => u64::from_le_bytes(w.try_into().unwrap()),
                    1 => u64::MAX.wrapping_sub(k),
                    2 => 0u64.wrapping_sub(k),
                    _ => if i % 2 == 0 { u64::MAX.wrapping_sub(k) } else { r.random() },
                };
                w.copy_from_slice(&v.to_le_bytes());
            }
            // SAFETY: the CPU has AVX2 (checked above).
            let got = unsafe { super::nh4::<2>(&key, &q) };
            for b in 0..4 {
                let want = nh_portable::<2>(&key, &q[b * BLOCK..(b + 1) * BLOCK]);
                assert_eq!([got[0][b], got[1][b]], want, "case {case}, block {b}");
                n += 1;
            }
            // SAFETY: as above.
            let one = unsafe { super::nh4::<1>(&key, &q) };
            assert_eq!(one[0], got[0], "VMAC-64's NH is VMAC-128's first iteration");
        }
        assert_eq!(n, 8000);
    }

    /// VMAC-128's NH from stored key-added words ([`super::nh_sums`], the
    /// `mul`/`add`/`adc` chain) against [`nh_portable`], both iterations:
    /// random words and keys, and the extremes (every `m + k` at
    /// `2^64 − 1`, so every product and carry at its bound; sums that wrap
    /// to 0; alternating). The whole loop ([`super::blocks128`]: the
    /// vector additions and the Horner steps) is `agrees_with_the_model`'s.
    #[test]
    fn nh_sums_match_the_portable_nh() {
        let mut r = super::super::tests::rng();
        let mut n = 0;
        for case in 0..4000 {
            let mut key = [0u64; KEY_WORDS];
            let mut blk = [0u8; BLOCK];
            r.fill_bytes(&mut blk);
            key.iter_mut().for_each(|w| *w = r.random());
            let shift = 2 * ((case / 4) % 2);
            for (i, w) in blk.chunks_exact_mut(8).enumerate() {
                let k = key[i + shift];
                let v = match case % 4 {
                    0 => u64::from_le_bytes(w.try_into().unwrap()),
                    1 => u64::MAX.wrapping_sub(k),
                    2 => 0u64.wrapping_sub(k),
                    _ => if i % 2 == 0 { u64::MAX.wrapping_sub(k) } else { r.random() },
                };
                w.copy_from_slice(&v.to_le_bytes());
            }
            let mut s = super::Sums([0; 32]);
            for t in 0..2 {
                for i in 0..16 {
                    let m = u64::from_le_bytes(blk[8 * i..8 * i + 8].try_into().unwrap());
                    s.0[16 * t + i] = m.wrapping_add(key[i + 2 * t]);
                }
            }
            assert_eq!(super::nh_sums(&s), nh_portable::<2>(&key, &blk), "case {case}");
            assert_eq!(super::nh_sums_rust(&s), nh_portable::<2>(&key, &blk), "case {case}, Miri's form");
            n += 1;
        }
        // Every sum at its largest: each product (2^64 − 1)², sixteen of
        // them, wrapping mod 2^128.
        let s = super::Sums([u64::MAX; 32]);
        let p = u64::MAX as u128 * u64::MAX as u128;
        assert_eq!(super::nh_sums(&s), [p.wrapping_mul(8); 2]);
        assert_eq!(n, 4000);
    }

    /// The L2 step by [`super::poly4_asm`] against the portable
    /// [`super::super::poly4`]: the same value (not only congruent) for
    /// random keys below `2^127`, messages below `2^126` and states below
    /// `2^128`, and at the extremes: every word at its largest (so every
    /// sum and carry at its bound), zeros, and the state 1 of a message's
    /// first quad, also by the shortcut `a·k⁴ = k⁴` (`None`).
    #[test]
    fn poly4_asm_matches_poly4() {
        // Its products are `mulx` (BMI2, part of the AVX2 evidence).
        if !Platform::hardware().avx2_fma() {
            crate::platform::skipped_kernel("avx2fma");
            return;
        }
        const M126: u128 = (1 << 126) - 1;
        const K127: u128 = (1 << 127) - 1;
        let mut r = super::super::tests::rng();
        let (mut n, mut from_one) = (0, 0);
        for case in 0..20_000 {
            let pick = |r: &mut rand::rngs::StdRng, top: u128| match (case / 7) % 5 {
                0 | 1 => r.random::<u128>() & top,
                2 => top,
                3 => top - r.random_range(0..4u128),
                _ => if r.random() { top } else { r.random_range(0..4u128) },
            };
            let mut pw = [0u128; 8];
            pw.iter_mut().for_each(|k| *k = pick(&mut r, K127));
            let m: [u128; 4] = core::array::from_fn(|_| pick(&mut r, M126));
            let a = match case % 7 {
                0 => 1,
                1 => u128::MAX,
                2 => 0,
                3 => (1 << 127) + r.random_range(0..1u128 << 72),
                _ => r.random(),
            };
            let kw = super::kwords(&pw);
            let want = super::super::poly4(a, &pw, m);
            assert_eq!(super::poly4_asm(Some(a), &kw, m), want, "case {case}: a {a:#x}, m {m:x?}, k {pw:x?}");
            if a == 1 {
                assert_eq!(super::poly4_asm(None, &kw, m), want, "case {case}: from 1, m {m:x?}, k {pw:x?}");
                from_one += 1;
            }
            n += 1;
        }
        assert_eq!((n, from_one), (20_000, 2858));
    }

    /// Without the evidence the entry point refuses to run.
    #[test]
    #[should_panic(expected = "AVX2 VHASH kernel needs")]
    fn refuses_without_evidence() {
        let _ = super::quads::<1>(Platform::portable(), &[0; KEY_WORDS], &[0; QUAD], &[[0; 8]; 2], [0]);
    }

    /// Nor does the VMAC-128 block loop.
    #[test]
    #[should_panic(expected = "AVX2 VHASH kernel needs")]
    fn block_loop_refuses_without_evidence() {
        let _ = super::blocks128(Platform::portable(), &[0; KEY_WORDS], &[0; BLOCK], &[0; 2], &[[0; 8]; 2], Some([0; 2]));
    }
}
