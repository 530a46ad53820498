//! hash127's radix-`2^26` columns with NEON (aarch64): the 96 multiply-adds
//! of a full block of `int26.rs` (`u_j += m_i · c_{i,j}` for the words
//! `m_1 … m_96` and the five limbs of `r^96 … r^1`) in lanes.
//!
//! Four words are one vector of signed 32-bit lanes; the key's limbs are
//! stored four powers at a time, limb by limb (`Table::cols`), so the four
//! powers of those words' limb `j` are one vector too, and the five limbs
//! of a quad two loads (`vld1q_s32_x4` and `vld1q_s32`). `vmlal_s32` / `vmlal_high_s32` multiply the
//! lanes exactly (32×32→64 bits, signed) and add them to two vectors of
//! two 64-bit sums per limb; the lanes are added at the end of the block.
//! The sums are those of the scalar code in another order, and every
//! partial sum is a sum of some of the block's terms, so the bound that
//! keeps the scalar sums exact in `i64` (`int26::block_bound`) keeps these
//! exact too. The product by `r^97`, the squeeze and the last, shorter
//! block stay scalar.
//!
//! A safe entry point takes the [`Platform`] evidence and asserts it before
//! the one `unsafe` call into `#[target_feature]` code. No branch or memory
//! index depends on the key or the message.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::aarch64::*;

use crate::platform::{Feature, Platform};

/// Limbs of an element (`int26::LIMBS`; `int26.rs` checks they agree).
pub(crate) const LIMBS: usize = 5;
/// The words after the first of a full block (`int26::BLOCK − 1`).
pub(crate) const REST: usize = 96;

/// An element's limbs, as `int26::Elem`.
type Elem = [i64; LIMBS];

/// The key's limbs in the layout of `Table::cols`.
pub(crate) type Cols = [[[i32; 4]; LIMBS]; REST / 4];

/// `u_j += Σ_i m_i · cols[j][i]` over the `REST` little-endian signed words
/// of `words` (`4·REST` bytes).
pub(crate) fn rest(p: Platform, cols: &Cols, words: &[u8], u: &mut Elem) {
    assert!(p.has(Feature::Neon), "the NEON hash127 kernel needs NEON evidence");
    assert_eq!(words.len(), 4 * REST, "a full block's words after the first");
    // SAFETY: the evidence `p` (only detection creates it) has NEON
    // (asserted above); the kernel reads the `4·REST` bytes of `words`
    // (asserted) and the entries of `cols`.
    let s = unsafe { rest_neon(cols, words) };
    for (x, y) in u.iter_mut().zip(s) {
        *x += y;
    }
}

/// # Safety
/// NEON must be present; `words` is `4·REST` bytes.
#[target_feature(enable = "neon")]
unsafe fn rest_neon(cols: &Cols, words: &[u8]) -> Elem {
    const { assert!(REST.is_multiple_of(4)) };
    let mut lo = [vdupq_n_s64(0); LIMBS];
    let mut hi = [vdupq_n_s64(0); LIMBS];
    let wp = words.as_ptr();
    for (q, quad) in cols.iter().enumerate() {
        // SAFETY: bytes `16q .. 16q + 16` of `words` (`q < REST/4`);
        // `vld1q_u8` needs no alignment; the words are little-endian, as
        // is aarch64 here.
        let m = unsafe { vreinterpretq_s32_u8(vld1q_u8(wp.add(16 * q))) };
        // SAFETY: `quad` is 5 × 4 contiguous `i32`s: limbs 0–3 are the
        // first 16, limb 4 the last 4; `i32` alignment suffices.
        let (c03, c4) = unsafe { (vld1q_s32_x4(quad.as_ptr() as *const i32), vld1q_s32(quad[4].as_ptr())) };
        let c = [c03.0, c03.1, c03.2, c03.3, c4];
        for j in 0..LIMBS {
            lo[j] = vmlal_s32(lo[j], vget_low_s32(m), vget_low_s32(c[j]));
            hi[j] = vmlal_high_s32(hi[j], m, c[j]);
        }
    }
    core::array::from_fn(|j| vaddvq_s64(vaddq_s64(lo[j], hi[j])))
}

/// Column sums of the short path's head (see `portable::ShortPowers`), as
/// the AVX2 kernel's `short_head`: for the `words.len() / 16` groups of
/// four words `m_i` (the first words of a message of `l` words,
/// `off = SHORT_WORDS − l`), `Σ_i u_i·limbs[k][off + i]` for each limb `k`,
/// with `u_i = m_i + 2^31` (unsigned 32 bits). Four words are one vector;
/// a limb's four powers are one deinterleaving load of the 64-bit limbs
/// (`vld2q_u32`: the low halves, the 24-bit limbs themselves, in one
/// register, the zero high halves in the other), and `vmlal_u32` /
/// `vmlal_high_u32` add the four exact 32×32→64-bit products into two
/// vectors of two 64-bit sums. A lane sums at most 64 products below
/// 2^56 and the four lanes of a limb at most 256 (`SHORT_WORDS` words):
/// every sum stays below 2^64.
///
/// # Panics
/// If `p` lacks NEON, or the powers end before the words.
pub(crate) fn short_head(
    p: Platform,
    sp: &super::portable::ShortPowers,
    words: &[u8],
    off: usize,
) -> [u64; super::portable::LIMBS] {
    use super::portable::SHORT_WORDS;
    assert!(p.has(Feature::Neon), "the NEON hash127 kernel needs NEON evidence");
    let groups = words.len() / 16;
    assert!(off + 4 * groups <= SHORT_WORDS, "short_head: the powers end before the words");
    // SAFETY: the evidence `p` has NEON (asserted above); the kernel reads
    // bytes `.. 16·groups` of `words` and entries `off .. off + 4·groups`
    // of each limb (asserted above).
    unsafe { short_head_neon(sp, words, off) }
}

/// # Safety
/// NEON must be present; `off + 4·(words.len() / 16) <= SHORT_WORDS`.
#[target_feature(enable = "neon")]
unsafe fn short_head_neon(sp: &super::portable::ShortPowers, words: &[u8], off: usize) -> [u64; super::portable::LIMBS] {
    use super::portable::LIMBS as SL;
    let groups = words.len() / 16;
    let bias = vdupq_n_u32(0x8000_0000);
    let mut lo = [vdupq_n_u64(0); SL];
    let mut hi = [vdupq_n_u64(0); SL];
    let wp = words.as_ptr();
    for g in 0..groups {
        // SAFETY: bytes `16g .. 16g + 16` of `words` (`g < groups`);
        // `vld1q_u8` needs no alignment; the words are little-endian, as
        // is aarch64 here.
        let u = veorq_u32(unsafe { vreinterpretq_u32_u8(vld1q_u8(wp.add(16 * g))) }, bias);
        for k in 0..SL {
            // SAFETY: entries `off + 4g .. off + 4g + 4` of limb `k`, inside
            // the array (the caller's bound); `u64` alignment suffices for
            // the `u32` load, which reads those four entries' eight halves.
            let c = unsafe { vld2q_u32(sp.limbs[k].as_ptr().add(off + 4 * g) as *const u32) }.0;
            lo[k] = vmlal_u32(lo[k], vget_low_u32(u), vget_low_u32(c));
            hi[k] = vmlal_high_u32(hi[k], u, c);
        }
    }
    core::array::from_fn(|k| vaddvq_u64(vaddq_u64(lo[k], hi[k])))
}

#[cfg(test)]
mod tests {
    use super::super::portable::{ShortPowers, LIMBS, SHORT_WORDS};
    use super::super::P;
    use crate::platform::{Feature, Platform};
    use crate::prelude::*;

    /// The column sums in `u128`, word by word.
    fn model(sp: &ShortPowers, words: &[u8], off: usize) -> [u64; LIMBS] {
        let groups = words.len() / 16;
        core::array::from_fn(|k| {
            let s: u128 = (0..4 * groups)
                .map(|i| {
                    let u = (u32::from_le_bytes(words[4 * i..4 * i + 4].try_into().unwrap()) ^ 0x8000_0000) as u128;
                    u * sp.limbs[k][off + i] as u128
                })
                .sum();
            u64::try_from(s).expect("a column fits 64 bits")
        })
    }

    /// The NEON head against the scalar sums: extreme keys (every limb at
    /// its largest with `r = p − 1`) and words (`u_i = 2^32 − 1` and 0),
    /// random ones, every group count and the offsets at both ends.
    #[test]
    fn short_head_matches_the_scalar_sums() {
        use rand::{RngExt, SeedableRng};
        let p = Platform::hardware();
        if !p.has(Feature::Neon) {
            eprintln!("SKIPPED: this CPU has no NEON");
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x6e68_6561);
        let mut n = 0;
        for r in [P - 1, (1 << 126) + (1 << 24) - 1, rng.random::<u128>() % P] {
            let sp = ShortPowers::new(r, rng.random::<u128>() % P);
            let max_words: Vec<u8> = (0..4 * SHORT_WORDS).map(|i| if i % 4 == 3 { 0x7f } else { 0xff }).collect();
            let min_words: Vec<u8> = (0..4 * SHORT_WORDS).map(|i| if i % 4 == 3 { 0x80 } else { 0 }).collect();
            let rand_words: Vec<u8> = (0..4 * SHORT_WORDS).map(|_| rng.random()).collect();
            for w in [&max_words, &min_words, &rand_words] {
                for groups in 0..=SHORT_WORDS / 4 {
                    for off in [0, SHORT_WORDS - 4 * groups, (SHORT_WORDS - 4 * groups) / 2] {
                        let words = &w[..16 * groups];
                        assert_eq!(super::short_head(p, &sp, words, off), model(&sp, words, off), "{groups} groups, offset {off}");
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 500);
    }

    /// The NEON lanes against the big-integer model, through the family's
    /// one differential check (it says SKIPPED where the CPU has no NEON).
    #[test]
    fn matches_the_big_integer_model() {
        super::super::tests::differential(super::super::Backend::Neon);
    }
}
