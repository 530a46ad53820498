//! NH of draft-krovetz-vmac-01 §5.3 on 64-bit words:
//! `Σ_j ((m_{2j} + k_{2j}) mod 2^64) · ((m_{2j+1} + k_{2j+1}) mod 2^64) mod 2^128`
//! over one block of at most 16 little-endian words — NMH (Halevi and
//! Krawczyk, "MMH: software message authentication in the Gbit/second
//! rates", Definition 10) with 64-bit words and no prime. VMAC-128's second
//! iteration reads the key two words further on (Toeplitz, the same paper's §2.4),
//! so one pass over the block computes both.
//!
//! This file holds what the VHASH kernels share (the block size, the key
//! layout, the scalar NH) and imports none of them: the IFMA kernel
//! ([`super::avx512`]) imports it, and [`super`] dispatches.

/// L1 block: 128 bytes, 16 words (the draft's default `L1KeyLen`).
pub const BLOCK: usize = 128;

/// Words of the zero-padded NH key of the whole-block loops: 16 for one
/// block, 2 more for VMAC-128's second iteration.
pub(crate) const KEY_WORDS: usize = 18;

/// NH of whole word pairs (at most 16 words), simply: each product is exact
/// in `u128`, the sum wraps (the tests' reference).
#[cfg(test)]
pub(crate) fn nh_portable<const N: usize>(key: &[u64], block: &[u8]) -> [u128; N] {
    let mut y = [0u128; N];
    for (j, pair) in block.chunks_exact(16).enumerate() {
        let m0 = u64::from_le_bytes(pair[..8].try_into().unwrap());
        let m1 = u64::from_le_bytes(pair[8..].try_into().unwrap());
        for (t, acc) in y.iter_mut().enumerate() {
            let a = m0.wrapping_add(key[2 * j + 2 * t]) as u128;
            let b = m1.wrapping_add(key[2 * j + 2 * t + 1]) as u128;
            *acc = acc.wrapping_add(a * b);
        }
    }
    y
}

/// NH of a last block of 1 to 128 bytes for `N` iterations (1 or 2), with
/// the fixed key of the whole-block loop: the whole 16-byte word pairs in
/// place, a partial last pair zero-padded (NH sums over pairs, so the
/// padding is one more pair, not a padded block) as the 16 bytes that end
/// the block shifted down, or byte by byte below 16 bytes. Always inlined:
/// its result handed back through memory stalled the tag (see `vhash`).
#[inline(always)]
pub(crate) fn nh_last<const N: usize>(key: &[u64; KEY_WORDS], block: &[u8]) -> [u128; N] {
    debug_assert!(!block.is_empty() && block.len() <= 128);
    let len = block.len().min(128);
    let whole = len / 16;
    let mut y = [0u128; N];
    // `j < 8` and `t < N <= 2`: every key index is below 18.
    let mut add = |j: usize, m0: u64, m1: u64| {
        for (t, acc) in y.iter_mut().enumerate() {
            let a = m0.wrapping_add(key[2 * j + 2 * t]);
            let b = m1.wrapping_add(key[2 * j + 2 * t + 1]);
            *acc = acc.wrapping_add(a as u128 * b as u128);
        }
    };
    for j in 0..8 {
        if j == whole {
            break;
        }
        let w = u128::from_le_bytes(block[16 * j..16 * j + 16].try_into().unwrap());
        add(j, w as u64, (w >> 64) as u64);
    }
    let rest = len % 16;
    if rest != 0 && whole < 8 {
        // The partial pair, zero-extended: from the 16 bytes that end the
        // block when there are that many (shifted down), else byte by byte.
        let w = if len >= 16 {
            u128::from_le_bytes(block[len - 16..len].try_into().unwrap()) >> (8 * (16 - rest))
        } else {
            block[..len].iter().rev().fold(0u128, |x, &c| (x << 8) | c as u128)
        };
        add(whole, w as u64, (w >> 64) as u64);
    }
    y
}

/// NH of one whole 128-byte block for `N` iterations (1 or 2), unrolled:
/// eight (sixteen) 64×64→128 products. `key` is the NH key zero-padded to 18
/// words (the second iteration reads words 2..18).
#[inline(always)]
pub(crate) fn nh_block<const N: usize>(key: &[u64; KEY_WORDS], block: &[u8; 128]) -> [u128; N] {
    let w = |i: usize| u64::from_le_bytes(block[8 * i..8 * i + 8].try_into().unwrap());
    let mut y = [0u128; N];
    for j in 0..8 {
        let (m0, m1) = (w(2 * j), w(2 * j + 1));
        for (t, acc) in y.iter_mut().enumerate() {
            let a = m0.wrapping_add(key[2 * j + 2 * t]);
            let b = m1.wrapping_add(key[2 * j + 2 * t + 1]);
            *acc = acc.wrapping_add(a as u128 * b as u128);
        }
    }
    y
}
