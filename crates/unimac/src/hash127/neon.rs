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

use super::int26::{Elem, BLOCK, LIMBS};
use crate::platform::{Feature, Platform};

/// The words after the first of a full block.
pub(crate) const REST: usize = BLOCK - 1;

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

#[cfg(test)]
mod tests {
    use super::super::{int26, portable, P};
    use crate::platform::{Feature, Platform};
    use rand::{Rng, RngCore, SeedableRng};

    /// `int26::absorb` with the NEON columns against the scalar columns and
    /// against the `u128` code, on every length from 0 to three blocks and
    /// a tail, with random words and the extreme ones (`0x7fffffff`,
    /// `0x80000000` = `−2^31`, `0xffffffff` = `−1`), on random keys and on
    /// `r = p − 1`.
    /// `v ← (v + m)·r mod p` for each signed word `m` of `bytes`, then `tail`.
    fn model(v0: u128, r: u128, bytes: &[u8], tail: i32) -> u128 {
        let words = bytes.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap()));
        words.chain([tail]).fold(v0, |v, w| {
            let m = if w < 0 { P - (-(w as i64)) as u128 } else { w as u128 };
            portable::mul_mod((v + m) % P, r)
        })
    }

    #[test]
    fn neon_columns_equal_the_scalar_ones() {
        let hw = Platform::hardware();
        if !hw.has(Feature::Neon) {
            println!("SKIPPED: no NEON on this CPU ({hw:?}); the NEON hash127 columns are not compared here");
            return;
        }
        let scalar = Platform::portable();
        let mut rng = rand::rngs::StdRng::seed_from_u64(127);
        let mut compared = 0;
        for key in 0..4 {
            let r = if key == 0 { P - 1 } else { rng.gen::<u128>() % P };
            let t = int26::Table::new(r);
            for fill in [None, Some(0x7fff_ffffu32), Some(0x8000_0000), Some(0xffff_ffff)] {
                let mut msg = vec![0u8; 4 * (3 * int26::BLOCK + 5)];
                match fill {
                    None => rng.fill_bytes(&mut msg),
                    Some(w) => msg.chunks_exact_mut(4).for_each(|c| c.copy_from_slice(&w.to_le_bytes())),
                }
                for words in (0..=msg.len() / 4).step_by(7).chain([int26::BLOCK, 2 * int26::BLOCK, 3 * int26::BLOCK]) {
                    let m = &msg[..4 * words];
                    let v0 = rng.gen::<u128>() % P;
                    let mut a = int26::from_u128(v0);
                    let mut b = a;
                    int26::absorb(hw, &mut a, &t, m, Some(-7));
                    int26::absorb(scalar, &mut b, &t, m, Some(-7));
                    assert_eq!(int26::freeze(a), int26::freeze(b), "r {r:#x}, {words} words");
                    // And the u128 arithmetic, word by word.
                    let want = model(v0, r, m, -7);
                    assert_eq!(int26::freeze(a), want, "u128 model, {words} words");
                    compared += 1;
                }
            }
        }
        assert!(compared > 0);
    }
}
