//! AVX-512 IFMA52 reduction mod a secret 128-bit prime: the same dot product
//! as [`super::portable`], eight 32-bit words at a time.
//!
//! A block is [`WORDS`] little-endian 32-bit words `x_i` (2048 bytes); as in
//! the portable path the blocks are read bottom-up, `w ← (w + X_j)·T^-1`, here
//! with `T = 2^(32·WORDS)`. With `c_i = 2^(32i + 128)·T^-1 mod p` split into
//! 52-bit digits `c_i = d_0 + d_1 2^52 + d_2 2^104` (`d_2 < 2^24`), each lane
//! multiplies its word by the three digits with `vpmadd52luq`/`vpmadd52huq`
//! (exact: the low and high 52 bits of a product below `2^104`), into six
//! accumulators of weight `2^0, 2^52, 2^52, 2^104, 2^104, 2^156`. After the
//! block the lanes are summed, the carry-in `w` is added as
//! `w_0 c_0 + w_1 c_2` in scalar code, and the Montgomery fold of the portable
//! path brings the sum back below `2^128`. The top `len mod 2048` bytes go
//! through the portable path, and `M ≡ (w + top)·T^J` at the end
//! ([`super::portable::finish`]).

#![deny(unsafe_op_in_unsafe_fn)]

use crate::prelude::*;

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use zeroize::{Zeroize, ZeroizeOnDrop};

use super::portable::{self, Tables};
use crate::platform::Platform;

/// 32-bit words per block.
pub const WORDS: usize = 512;
/// Bytes per block.
pub const BLOCK_BYTES: usize = 4 * WORDS;
/// Steps of eight words per block.
const STEPS: usize = WORDS / 8;

/// The digits of `c_i` in the order the kernel reads them: for each step `s`,
/// `d_0` of words `8s..8s+8`, then `d_1`, then `d_2` (24 `u64`s), and the two
/// constants of the carry-in.
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct IfmaTables {
    digits: Vec<u64>,
    /// `c_0` and `c_2`: the weights of the carry-in's limbs (bits 0 and 64).
    carry_in: [u128; 2],
}

const MASK52: u64 = (1 << 52) - 1;

impl IfmaTables {
    pub fn new(t: &Tables) -> IfmaTables {
        // T = 2^(32·WORDS) is four of the portable path's blocks.
        const _: () = assert!(32 * WORDS == 4 * 64 * portable::K);
        // c_0 = 2^(128 − 32·WORDS) = 2^(−128·(WORDS/4 − 1)): mont(x, 1) = x·2^-128.
        let mut x = 1u128;
        for _ in 0..WORDS / 4 - 1 {
            x = portable::mont(t, x, 1);
        }
        let mut digits = vec![0u64; 3 * WORDS];
        let mut carry_in = [0u128; 2];
        for i in 0..WORDS {
            let (s, lane) = (i / 8, i % 8);
            digits[24 * s + lane] = x as u64 & MASK52;
            digits[24 * s + 8 + lane] = (x >> 52) as u64 & MASK52;
            digits[24 * s + 16 + lane] = (x >> 104) as u64; // < 2^24
            match i {
                0 => carry_in[0] = x,
                2 => carry_in[1] = x,
                _ => {}
            }
            x = portable::mul_mod(t, x, 1 << 32);
        }
        IfmaTables { digits, carry_in }
    }
}

/// `(lo, hi) += x·2^shift` for `x < 2^64`, `shift < 192`, as 256-bit integers
/// (no overflow by the caller's bound).
#[inline(always)]
fn add_shifted(lo: &mut u128, hi: &mut u128, x: u64, shift: u32) {
    let x = x as u128;
    let (l, h) = match shift {
        0 => (x, 0),
        s if s < 128 => (x << s, if s > 64 { x >> (128 - s) } else { 0 }),
        s => (0, x << (s - 128)),
    };
    let (s, c) = lo.overflowing_add(l);
    *lo = s;
    *hi += h + c as u128;
}

/// The whole blocks `x` (a multiple of 2048 bytes) after `w`, as
/// [`portable::absorb`] (the same invariant: `w ≡ A·2^(-8n)` after `n` bytes,
/// since `T = 2^(8·2048)`).
///
/// # Panics
/// If `platform` lacks AVX-512 IFMA52 (with AVX-512F).
pub(crate) fn absorb(platform: Platform, t: &Tables, it: &IfmaTables, w: u128, x: &[u8]) -> u128 {
    assert!(platform.avx512ifma(), "modp IFMA52 kernel without AVX-512 IFMA52");
    // SAFETY: the evidence `platform` shows AVX-512 IFMA52, which detection
    // reports only with AVX-512F.
    unsafe { absorb_ifma(t, it, w, x) }
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn absorb_ifma(t: &Tables, it: &IfmaTables, mut w: u128, x: &[u8]) -> u128 {
    debug_assert!(x.len().is_multiple_of(BLOCK_BYTES));
    for b in x.chunks_exact(BLOCK_BYTES) {
        w = block(t, it, b, w);
    }
    w
}

/// `(w + X)·T^-1 (mod p)`, `< 2^128`, for one block `X` (`x`, 2048 bytes).
#[target_feature(enable = "avx512f,avx512ifma")]
fn block(t: &Tables, it: &IfmaTables, x: &[u8], v: u128) -> u128 {
    // The loads below read all of `x` and of `digits`.
    assert!(x.len() == BLOCK_BYTES && it.digits.len() == 3 * WORDS, "modp IFMA52 block: lengths");
    let z = _mm512_setzero_si512();
    let (mut a0, mut a1, mut a2, mut a3, mut a4, mut a5) = (z, z, z, z, z, z);
    let xp = x.as_ptr();
    let dp = it.digits.as_ptr();
    for s in 0..STEPS {
        // SAFETY: 32 bytes at 32s < BLOCK_BYTES of `x`; 3·64 bytes at 24s of
        // `digits` (3·WORDS u64s); unaligned loads.
        let (w, d0, d1, d2) = unsafe {
            (
                _mm512_cvtepu32_epi64(_mm256_loadu_si256(xp.add(32 * s) as *const __m256i)),
                _mm512_loadu_si512(dp.add(24 * s) as *const _),
                _mm512_loadu_si512(dp.add(24 * s + 8) as *const _),
                _mm512_loadu_si512(dp.add(24 * s + 16) as *const _),
            )
        };
        // Each lane adds, per step, below 2^52 to a0, a2, a4 (low halves) and
        // below 2^32 to a1, a3, a5 (high halves of products < 2^32·2^52).
        a0 = _mm512_madd52lo_epu64(a0, w, d0);
        a1 = _mm512_madd52hi_epu64(a1, w, d0);
        a2 = _mm512_madd52lo_epu64(a2, w, d1);
        a3 = _mm512_madd52hi_epu64(a3, w, d1);
        a4 = _mm512_madd52lo_epu64(a4, w, d2);
        a5 = _mm512_madd52hi_epu64(a5, w, d2);
    }
    // Per lane after STEPS = 64 steps: a0, a2, a4 < 2^58, a1, a3, a5 < 2^38;
    // so a1 + a2, a3 + a4 < 2^59 per lane and every sum over the 8 lanes
    // below is < 2^62: exact in u64.
    let p0 = _mm512_reduce_add_epi64(a0) as u64;
    let p52 = _mm512_reduce_add_epi64(_mm512_add_epi64(a1, a2)) as u64;
    let p104 = _mm512_reduce_add_epi64(_mm512_add_epi64(a3, a4)) as u64;
    let p156 = _mm512_reduce_add_epi64(a5) as u64;
    // S = p0 + p52·2^52 + p104·2^104 + p156·2^156 + w_0 c_0 + w_1 c_2
    //   < 2^62 + 2^114 + 2^166 + 2^197 + 2·2^192 < 2^198: 256 bits with room,
    // and S ≡ 2^128 (X + w)·T^-1 (mod p).
    let (mut lo, mut hi) = (0u128, 0u128);
    add_shifted(&mut lo, &mut hi, p0, 0);
    add_shifted(&mut lo, &mut hi, p52, 52);
    add_shifted(&mut lo, &mut hi, p104, 104);
    add_shifted(&mut lo, &mut hi, p156, 156);
    for (w, c) in [v as u64, (v >> 64) as u64].into_iter().zip(it.carry_in) {
        let (a, b) = (w as u128 * (c as u64 as u128), w as u128 * (c >> 64));
        add_shifted(&mut lo, &mut hi, a as u64, 0);
        add_shifted(&mut lo, &mut hi, (a >> 64) as u64, 64);
        add_shifted(&mut lo, &mut hi, b as u64, 64);
        add_shifted(&mut lo, &mut hi, (b >> 64) as u64, 128);
    }
    // S < 2^198 < (K + 2)·2^192 (K = 64): the portable fold's bound holds.
    t.fold(lo, hi)
}

// The family's tests load keys, which needs random bases (`getrandom`).
#[cfg(all(test, feature = "getrandom"))]
mod tests {
    use super::super::{tests::differential, Backend};
    use crate::platform::Platform;

    #[test]
    fn matches_the_big_integer_model() {
        differential(Backend::Avx512Ifma, |k, w, x| {
            super::absorb(Platform::hardware(), &k.t, k.ifma.get_or_init(|| super::IfmaTables::new(&k.t)), w, x)
        });
    }
}
