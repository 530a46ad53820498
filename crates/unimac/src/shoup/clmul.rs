//! PCLMULQDQ paths (x86-64 with `pclmulqdq` and `sse4.1`): safe entry points
//! that take the [`Platform`] evidence the key's backend was chosen from and
//! assert it before their one `unsafe` call into `#[target_feature]` code.
//!
//! **eval64 and division64** are one kernel: both are `X ← X·β^N + Σ b_j β^(N−j)`
//! in `GF(2)[x]/(m)` for a monic `m` of degree 64 (eval64: `m = f`, `β = α`;
//! division64: `m = p`, `β = x^64 mod p`, since `(x^(64n) + Σ b_i x^(64(n−1−i)))·x^64
//! = β^(n+1) + Σ b_i β^(n−i)`). The state `X` is kept unreduced as 128 bits
//! `X_hi x^64 + X_lo`; sixteen blocks (128 bytes) are aggregated per step over
//! the precomputed powers `β^16..β^1`, and the state is folded by `β^16` and
//! `x^64 β^16 mod m`, so a step is seventeen independent PCLMULQDQs whose sum is
//! the new state (one multiplication per 8-byte block, plus one per step):
//!
//! `X' = (X_lo + b_0)·β^16 + X_hi·(x^64 β^16) + b_1 β^15 + … + b_15 β`.
//!
//! (A tail of eight or more blocks takes one eight-block step, the rest one
//! step of its own length with `β^k` and `x^64 β^k`.)
//!
//! The reduction is aggregated to the very end: one Barrett reduction per
//! message (two PCLMULQDQs).
//!
//! **gdivision64** works over `K = GF(2^8)`: a polynomial in `K[z]` of degree < 8
//! is spread Kronecker-fashion into 16-bit slots (`z = x^16`), so one carry-less
//! 128×128-bit product (three PCLMULQDQs, Karatsuba) computes a product in
//! `K[z]` with every coefficient (degree ≤ 14 in `x`) in its own slot. The same
//! aggregated recurrence runs with `β = z^8 mod P`, eight blocks per step, the
//! state split as `S_lo + z^8 S_hi` and folded by `β^8` and `z^8 β^8 mod P`; per
//! step the slots are reduced modulo `x^8 + x^4 + x^3 + x + 1` once (16-bit lane
//! shifts, exact: a slot holds degree ≤ 14, the first fold leaves ≤ 10, the
//! second ≤ 7), and the reduction modulo `P` is again left to the end.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::gdiv::GKey;
use super::keys::{Eval128Key, Ring64, STEP};
use crate::platform::Platform;

#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn set(lo: u64, hi: u64) -> __m128i {
    _mm_set_epi64x(hi as i64, lo as i64)
}

#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn from_u128(v: u128) -> __m128i {
    // The lane order is little-endian like the u128.
    set(v as u64, (v >> 64) as u64)
}

#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn to_u128(v: __m128i) -> u128 {
    let mut out = 0u128;
    // SAFETY: `out` is 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_si128(&mut out as *mut u128 as *mut __m128i, v) };
    out
}

macro_rules! x {
    ($a:expr, $b:expr) => {
        _mm_xor_si128($a, $b)
    };
}
macro_rules! clmul {
    ($a:expr, $b:expr, $imm:literal) => {
        _mm_clmulepi64_si128::<$imm>($a, $b)
    };
}

/// One carry-less product `x · y`.
///
/// Panics if the evidence `p` lacks PCLMULQDQ with SSE4.1.
#[inline]
pub(crate) fn clmul64(p: Platform, x: u64, y: u64) -> u128 {
    assert!(p.pclmul(), "PCLMULQDQ kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has pclmulqdq and sse4.1 (asserted above).
    unsafe { clmul64_pclmul(x, y) }
}

#[inline]
#[target_feature(enable = "pclmulqdq,sse4.1")]
fn clmul64_pclmul(x: u64, y: u64) -> u128 {
    to_u128(clmul!(set(x, 0), set(y, 0), 0x00))
}

/// eval64 / division64 blocks: `data.len()` a multiple of 8; `acc` the
/// unreduced state `X` (≡ the true state mod `m`).
///
/// Panics if the evidence `p` lacks PCLMULQDQ with SSE4.1.
pub(crate) fn ring_blocks(p: Platform, key: &Ring64, acc: u128, data: &[u8]) -> u128 {
    assert!(p.pclmul(), "PCLMULQDQ kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has pclmulqdq and sse4.1 (asserted above).
    unsafe { ring_blocks_pclmul(key, acc, data) }
}

/// The kernel of [`ring_blocks`] (also the tail of the VPCLMULQDQ kernel).
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub(crate) fn ring_blocks_pclmul(key: &Ring64, acc: u128, data: &[u8]) -> u128 {
    let pw = &key.pow;
    // q[i] multiplies blocks 2i, 2i+1 of a 16-block step: β^(16−2i), β^(15−2i).
    let q: [__m128i; 8] = core::array::from_fn(|i| set(pw[16 - 2 * i], pw[15 - 2 * i]));
    let st = set(pw[16], key.fold[16]);
    let mut a = from_u128(acc);
    let mut chunks = data.chunks_exact(128);
    for c in &mut chunks {
        let p = c.as_ptr() as *const __m128i;
        // SAFETY: `c` is 128 readable bytes: eight unaligned 16-byte loads.
        let v: [__m128i; 8] = core::array::from_fn(|i| unsafe { _mm_loadu_si128(p.add(i)) });
        let prod = |v: __m128i, q: __m128i| x!(clmul!(v, q, 0x00), clmul!(v, q, 0x11));
        // The block products do not depend on the state: sum them first
        // (block 0's product by β^16 is folded into the state's).
        let t = x!(
            x!(x!(clmul!(v[0], q[0], 0x11), prod(v[1], q[1])), x!(prod(v[2], q[2]), prod(v[3], q[3]))),
            x!(x!(prod(v[4], q[4]), prod(v[5], q[5])), x!(prod(v[6], q[6]), prod(v[7], q[7])))
        );
        let a0 = x!(a, _mm_move_epi64(v[0])); // X_lo + b_0 | X_hi
        a = x!(t, x!(clmul!(a0, st, 0x00), clmul!(a0, st, 0x11)));
    }
    // Up to fifteen blocks left: eight, then the rest.
    let mut rest = chunks.remainder();
    if rest.len() >= 64 {
        a = from_u128(ring_step8(key, to_u128(a), &rest[..64]));
        rest = &rest[64..];
    }
    let k = rest.len() / 8;
    if k > 0 {
        let b = |j: usize| u64::from_le_bytes(rest[8 * j..8 * j + 8].try_into().expect("8 bytes"));
        let a0 = x!(a, set(b(0), 0));
        let mut t = x!(clmul!(a0, set(pw[k], key.fold[k]), 0x00), clmul!(a0, set(pw[k], key.fold[k]), 0x11));
        for j in 1..k {
            t = x!(t, clmul!(set(b(j), 0), set(pw[k - j], 0), 0x00));
        }
        a = t;
    }
    to_u128(a)
}

/// One step of eight blocks (64 bytes): nine PCLMULQDQs.
#[inline]
#[target_feature(enable = "pclmulqdq,sse4.1")]
fn ring_step8(key: &Ring64, acc: u128, c: &[u8]) -> u128 {
    let pw = &key.pow;
    let p87 = set(pw[8], pw[7]);
    let p65 = set(pw[6], pw[5]);
    let p43 = set(pw[4], pw[3]);
    let p21 = set(pw[2], pw[1]);
    let st = set(pw[8], key.fold[8]);
    let a = from_u128(acc);
    let c: &[u8; 64] = c.try_into().expect("64 bytes");
    let p = c.as_ptr() as *const __m128i;
    // SAFETY: `c` is 64 readable bytes: four unaligned 16-byte loads.
    let (v0, v1, v2, v3) =
        unsafe { (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)), _mm_loadu_si128(p.add(2)), _mm_loadu_si128(p.add(3))) };
    let t = x!(
        x!(clmul!(v0, p87, 0x11), x!(clmul!(v1, p65, 0x00), clmul!(v1, p65, 0x11))),
        x!(x!(clmul!(v2, p43, 0x00), clmul!(v2, p43, 0x11)), x!(clmul!(v3, p21, 0x00), clmul!(v3, p21, 0x11)))
    );
    let a0 = x!(a, _mm_move_epi64(v0)); // X_lo + b_0 | X_hi
    to_u128(x!(t, x!(clmul!(a0, st, 0x00), clmul!(a0, st, 0x11))))
}

/// `acc mod m` by Barrett reduction (two PCLMULQDQs).
///
/// Panics if the evidence `p` lacks PCLMULQDQ with SSE4.1.
pub(crate) fn ring_finish(p: Platform, key: &Ring64, acc: u128) -> u64 {
    assert!(p.pclmul(), "PCLMULQDQ kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has pclmulqdq and sse4.1 (asserted above).
    unsafe { ring_finish_pclmul(key, acc) }
}

#[target_feature(enable = "pclmulqdq,sse4.1")]
fn ring_finish_pclmul(key: &Ring64, acc: u128) -> u64 {
    let h = (acc >> 64) as u64;
    let q = h ^ (to_u128(clmul!(set(h, 0), set(key.m.mu, 0), 0x00)) >> 64) as u64;
    (acc as u64) ^ (to_u128(clmul!(set(q, 0), set(key.m.lo, 0), 0x00)) as u64)
}

/// Reduce every 16-bit slot (a polynomial of degree ≤ 14 in x) modulo
/// `x^8 + x^4 + x^3 + x + 1`: the top 7 bits fold to at most 11 bits, whose top
/// 3 fold to at most 7.
///
/// # Safety
/// None beyond SSE2, which every x86-64 CPU has: `unsafe` only so that it
/// can be `#[inline(always)]` into the `#[target_feature]` kernels (which
/// `#[target_feature]` functions cannot be).
#[inline(always)]
pub(crate) unsafe fn xreduce(v: __m128i) -> __m128i {
    // SAFETY: SSE2 16-bit lane shifts and logic, no memory access.
    unsafe {
        let lo = _mm_set1_epi16(0x00ff);
        let h = _mm_srli_epi16::<8>(v);
        let v = x!(_mm_and_si128(v, lo), x!(x!(h, _mm_slli_epi16::<1>(h)), x!(_mm_slli_epi16::<3>(h), _mm_slli_epi16::<4>(h))));
        let h = _mm_srli_epi16::<8>(v);
        x!(_mm_and_si128(v, lo), x!(x!(h, _mm_slli_epi16::<1>(h)), x!(_mm_slli_epi16::<3>(h), _mm_slli_epi16::<4>(h))))
    }
}

/// One Karatsuba product term: `(lo, hi, mid)` partial products of the spread
/// `a` (128 bits) by the spread constant `c = [c_lo, c_hi, c_lo ^ c_hi]`.
///
/// # Safety
/// The CPU must support `pclmulqdq` (the caller enables it with
/// `#[target_feature]`, into which this is inlined).
#[inline(always)]
pub(crate) unsafe fn kara(a: __m128i, c: __m128i, cx: __m128i, acc: &mut [__m128i; 3]) {
    // SAFETY: PCLMULQDQ (the caller's contract) and SSE2, no memory access.
    unsafe {
        acc[0] = x!(acc[0], clmul!(a, c, 0x00));
        acc[1] = x!(acc[1], clmul!(a, c, 0x11));
        let am = x!(a, _mm_shuffle_epi32::<0x4e>(a));
        acc[2] = x!(acc[2], clmul!(am, cx, 0x00));
    }
}

/// The gdivision64 step over `K` blocks (`K` ≤ 8) of `data` (8·K bytes): the
/// state `s` is 15 reduced coefficients, slots 0..7 in `s[0]`, 8..15 in `s[1]`.
///
/// # Safety
/// The CPU must support `pclmulqdq` and `sse4.1` (the caller enables them
/// with `#[target_feature]`, into which this is inlined), and `data` must
/// hold at least 8·K bytes.
#[inline(always)]
unsafe fn g_step<const K: usize>(key: &GKey, s: [__m128i; 2], data: &[u8]) -> [__m128i; 2] {
    let p = data.as_ptr();
    // SAFETY: `data` holds 8·K bytes (the caller's contract): K unaligned
    // 8-byte loads within it (SSE2).
    let raw: [__m128i; K] = core::array::from_fn(|j| unsafe { _mm_loadl_epi64(p.add(8 * j) as *const __m128i) });
    // SAFETY: pclmulqdq and sse4.1 (the caller's contract; pshufb is SSSE3,
    // which SSE4.1 implies), no memory access.
    unsafe {
        // Block bytes c_0..c_7 are the coefficients of z^7..z^0: reverse and spread.
        let rev = _mm_set_epi8(-1, 0, -1, 1, -1, 2, -1, 3, -1, 4, -1, 5, -1, 6, -1, 7);
        let c = |k: usize| (set(key.kron[k][0], key.kron[k][1]), set(key.kron[k][2], 0));
        let mut acc = [_mm_setzero_si128(); 3];
        for (j, r) in raw.iter().enumerate() {
            let b = _mm_shuffle_epi8(*r, rev);
            let b = if j == 0 { x!(b, s[0]) } else { b };
            let (ck, cx) = c(K - j);
            kara(b, ck, cx, &mut acc);
        }
        let f = &key.kron_fold[K];
        kara(s[1], set(f[0], f[1]), set(f[2], 0), &mut acc);
        let mid = x!(acc[2], x!(acc[0], acc[1]));
        let lo = x!(acc[0], _mm_slli_si128::<8>(mid));
        let hi = x!(acc[1], _mm_srli_si128::<8>(mid));
        [xreduce(lo), xreduce(hi)]
    }
}

/// gdivision64 blocks: `acc` holds the state's 15 coefficients, one per
/// byte; `data.len()` a multiple of 8.
///
/// Panics if the evidence `p` lacks PCLMULQDQ with SSE4.1.
pub(crate) fn g_blocks(p: Platform, key: &GKey, acc: u128, data: &[u8]) -> u128 {
    assert!(p.pclmul(), "PCLMULQDQ kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has pclmulqdq and sse4.1 (asserted above).
    unsafe { g_blocks_pclmul(key, acc, data) }
}

/// The kernel of [`g_blocks`] (also the tail of the VPCLMULQDQ kernel).
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub(crate) fn g_blocks_pclmul(key: &GKey, acc: u128, data: &[u8]) -> u128 {
    let packed = from_u128(acc);
    let z = _mm_setzero_si128();
    let mut s = [_mm_unpacklo_epi8(packed, z), _mm_unpackhi_epi8(packed, z)];
    let mut chunks = data.chunks_exact(64);
    for c in &mut chunks {
        // SAFETY: `c` is 64 bytes; pclmulqdq and sse4.1 are enabled here.
        s = unsafe { g_step::<8>(key, s, c) };
    }
    let rest = chunks.remainder();
    // SAFETY: `rest` holds 8·k bytes for the k chosen; pclmulqdq and sse4.1 are enabled here.
    s = unsafe {
        match rest.len() / 8 {
            0 => s,
            1 => g_step::<1>(key, s, rest),
            2 => g_step::<2>(key, s, rest),
            3 => g_step::<3>(key, s, rest),
            4 => g_step::<4>(key, s, rest),
            5 => g_step::<5>(key, s, rest),
            6 => g_step::<6>(key, s, rest),
            _ => g_step::<7>(key, s, rest),
        }
    };
    to_u128(_mm_packus_epi16(s[0], s[1]))
}

// ---------------------------------------------------------------- eval128 ----

/// The product sum `lo + mid·x^64 + hi·x^128` (each 128 bits, `deg ≤ 254` in
/// all) reduced modulo `x^128 + x^7 + x^2 + x + 1` (`eval128`'s field, docs/WIRE.md §5): with the 64-bit
/// words `D_3..D_0` of the sum, `D_3 x^192 ≡ D_3 R x^64` (`R = x^7 + x^2 + x + 1`,
/// a product of ≤ 71 bits added to `D_2 D_1`), then `D_2 x^128 ≡ D_2 R` (≤ 71 bits,
/// added to `D_1 D_0`): two dependent PCLMULQDQs.
#[inline]
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub(crate) fn reduce128(lo: __m128i, mid: __m128i, hi: __m128i) -> __m128i {
    let r = set(super::gf128::R, 0);
    let lo = x!(lo, _mm_slli_si128::<8>(mid)); // D_1 D_0
    let hi = x!(hi, _mm_srli_si128::<8>(mid)); // D_3 D_2
    let t = clmul!(hi, r, 0x01); // D_3 · R
    let lo = x!(lo, _mm_slli_si128::<8>(t));
    let hi = x!(hi, _mm_srli_si128::<8>(t)); // low lane: D_2 + (D_3 R)_hi
    x!(lo, clmul!(hi, r, 0x00))
}

/// Schoolbook partial products of two 128-bit elements, added to
/// `(lo, mid, hi)`: four PCLMULQDQs.
#[inline]
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub(crate) fn mul128_acc(b: __m128i, h: __m128i, acc: &mut [__m128i; 3]) {
    acc[0] = x!(acc[0], clmul!(b, h, 0x00));
    acc[2] = x!(acc[2], clmul!(b, h, 0x11));
    acc[1] = x!(acc[1], x!(clmul!(b, h, 0x01), clmul!(b, h, 0x10)));
}

/// One aggregated step over the `k = data.len()/16 ≤ 32` blocks of `data`:
/// `(X + b_0)·α^k + b_1·α^(k−1) + … + b_(k−1)·α`, reduced.
#[inline]
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub(crate) fn eval128_step(key: &Eval128Key, x: __m128i, data: &[u8]) -> __m128i {
    let k = data.len() / 16;
    assert!(k <= STEP && data.len().is_multiple_of(16), "eval128: at most one step of whole blocks");
    let pw = &key.desc[STEP - k..];
    let mut acc = [_mm_setzero_si128(); 3];
    for (j, (b, h)) in data.chunks_exact(16).zip(pw).enumerate().rev() {
        // SAFETY: `b` is 16 readable bytes; `h` is a u128 (16 bytes).
        let (b, h) = unsafe { (_mm_loadu_si128(b.as_ptr() as *const __m128i), _mm_loadu_si128(h as *const u128 as *const __m128i)) };
        let b = if j == 0 { x!(b, x) } else { b };
        mul128_acc(b, h, &mut acc);
    }
    reduce128(acc[0], acc[1], acc[2])
}

/// A whole short message in one aggregated step: the blocks of `data` (a
/// multiple of 16 bytes) and then the block `last`, `k = data.len()/16 + 1 ≤ 32`
/// blocks in all, from the initial state `α`:
/// `α^(k+1) + b_0 α^k + … + b_(k−2) α^2 + last·α`, reduced once.
///
/// Panics if the evidence `p` lacks PCLMULQDQ with SSE4.1 or if `data` is
/// too long.
pub(crate) fn eval128_short(p: Platform, key: &Eval128Key, data: &[u8], last: u128) -> u128 {
    assert!(p.pclmul(), "eval128: PCLMULQDQ kernel without the evidence");
    assert!(data.len().is_multiple_of(16) && data.len() / 16 < STEP, "eval128: a short message is fewer than 32 blocks");
    // SAFETY: the evidence `p` (only detection creates it) has pclmulqdq and sse4.1 (asserted above).
    unsafe { eval128_short_pclmul(key, data, last) }
}

#[target_feature(enable = "pclmulqdq,sse4.1")]
fn eval128_short_pclmul(key: &Eval128Key, data: &[u8], last: u128) -> u128 {
    let k = data.len() / 16 + 1;
    let pw = &key.desc[STEP - k..];
    let x = from_u128(key.alpha());
    let mut acc = [_mm_setzero_si128(); 3];
    let load = |h: &u128| {
        // SAFETY: `h` is a u128 (16 readable bytes).
        unsafe { _mm_loadu_si128(h as *const u128 as *const __m128i) }
    };
    for (j, (b, h)) in data.chunks_exact(16).zip(pw).enumerate() {
        // SAFETY: `b` is 16 readable bytes.
        let b = unsafe { _mm_loadu_si128(b.as_ptr() as *const __m128i) };
        let b = if j == 0 { x!(b, x) } else { b };
        mul128_acc(b, load(h), &mut acc);
    }
    let b = from_u128(last);
    let b = if k == 1 { x!(b, x) } else { b };
    mul128_acc(b, load(&pw[k - 1]), &mut acc);
    to_u128(reduce128(acc[0], acc[1], acc[2]))
}

/// eval128 blocks (`data.len()` a multiple of 16): eight blocks per step, three
/// PCLMULQDQs per block (Karatsuba, the powers' `lo + hi` precomputed; the
/// middle term formed once per step from the sums), the rest in one shorter
/// step; `acc` the reduced state `X`.
///
/// Panics if the evidence `p` (which only detection creates) lacks
/// PCLMULQDQ with SSE4.1, or if `data` is not whole blocks.
pub(crate) fn eval128_blocks(p: Platform, key: &Eval128Key, acc: u128, data: &[u8]) -> u128 {
    assert!(p.pclmul(), "eval128: PCLMULQDQ kernel without the evidence");
    assert_eq!(data.len() % 16, 0, "eval128: whole 16-byte blocks");
    // SAFETY: the evidence `p` (only detection creates it) has pclmulqdq and sse4.1 (asserted above).
    unsafe { eval128_blocks_pclmul(key, acc, data) }
}

#[target_feature(enable = "pclmulqdq,sse4.1")]
fn eval128_blocks_pclmul(key: &Eval128Key, acc: u128, data: &[u8]) -> u128 {
    let pw = &key.desc[STEP - 8..];
    // SAFETY: each `pw[j]` is a u128 (16 readable bytes).
    let h: [__m128i; 8] = core::array::from_fn(|j| unsafe { _mm_loadu_si128(&pw[j] as *const u128 as *const __m128i) });
    // Karatsuba: the powers' lo + hi in the low half.
    let hx: [__m128i; 8] = core::array::from_fn(|j| x!(h[j], _mm_shuffle_epi32::<0x4e>(h[j])));
    let mut x = from_u128(acc);
    let mut chunks = data.chunks_exact(128);
    for c in &mut chunks {
        let p = c.as_ptr() as *const __m128i;
        // SAFETY: `c` is 128 readable bytes: eight unaligned 16-byte loads.
        let mut v: [__m128i; 8] = core::array::from_fn(|j| unsafe { _mm_loadu_si128(p.add(j)) });
        v[0] = x!(v[0], x);
        // Blocks 7..1 first: only block 0's product depends on the state.
        let (mut lo, mut mk, mut hi) = (_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128());
        for ((v, h), hx) in v.iter().zip(&h).zip(&hx).rev() {
            lo = x!(lo, clmul!(*v, *h, 0x00));
            hi = x!(hi, clmul!(*v, *h, 0x11));
            mk = x!(mk, clmul!(x!(*v, _mm_shuffle_epi32::<0x4e>(*v)), *hx, 0x00));
        }
        x = reduce128(lo, x!(mk, x!(lo, hi)), hi);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        x = eval128_step(key, x, rest);
    }
    to_u128(x)
}

#[cfg(test)]
mod tests {
    /// The family's differential test, which covers this kernel wherever
    /// the CPU has it.
    #[test]
    fn agrees_with_portable() {
        assert!(super::super::tests::check_kernels() > 0);
    }

    /// Without the evidence the entry point refuses to run.
    #[test]
    #[should_panic(expected = "kernel without the evidence")]
    fn refuses_without_evidence() {
        let p = crate::platform::Platform::portable();
        let _ = super::clmul64(p, 1, 1);
    }
}
