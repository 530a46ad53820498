//! NH of draft-krovetz-vmac-01 §5.3 on 64-bit words:
//! `Σ_j ((m_{2j} + k_{2j}) mod 2^64) · ((m_{2j+1} + k_{2j+1}) mod 2^64) mod 2^128`
//! over one block of at most 16 little-endian words — NMH (seed 004
//! Definition 10) with 64-bit words and no prime. VMAC-128's second
//! iteration reads the key two words further on (Toeplitz, seed 004 §2.4),
//! so one pass over the block computes both.


#[cfg(test)]
use super::BLOCK;

/// Words of the zero-padded NH key of the whole-block loops: 16 for one
/// block, 2 more for VMAC-128's second iteration.
pub(crate) const KEY_WORDS: usize = 18;

/// Which implementation computes NH.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// The unrolled scalar loop with 64×64→128 products. (An AVX-512 NH over
    /// eight blocks with 32-bit digit products was exact but slower on every
    /// machine measured, so none is kept: docs/perf/umac.md.)
    Portable,
}

impl Backend {
    /// The fastest backend `p` proves this CPU can run (the scalar loop on
    /// every CPU so far).
    pub(crate) fn for_platform(p: crate::platform::Platform) -> Backend {
        let _ = p;
        Backend::Portable
    }

    /// Every backend (for tests).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Backend> {
        vec![Backend::Portable]
    }
}

/// NH of every whole 128-byte block of `data` (a multiple of 128 bytes), in
/// order, for `N` iterations (1 or 2): `each` receives block `i`'s
/// `[NH(key[2t..2t+16], block i); N]`. The vector kernel takes groups of
/// eight blocks, the unrolled scalar loop the rest. (The whole-block loop of
/// `vmac::blocks_serial` calls [`nh_block`] itself; this is the reference
/// the tests hold every backend to.)
#[cfg(test)]
pub(crate) fn nh_blocks<const N: usize>(
    backend: Backend,
    key: &[u64; KEY_WORDS],
    data: &[u8],
    mut each: impl FnMut([u128; N]),
) {
    assert!(data.len().is_multiple_of(BLOCK), "whole VHASH blocks");
    let _ = backend;
    for b in data.chunks_exact(BLOCK) {
        each(nh_block::<N>(key, b.try_into().unwrap()));
    }
}

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
/// place, a partial last pair zero-padded in a copy (NH sums over pairs, so
/// the padding is one more pair, not a padded block).
#[inline]
pub(crate) fn nh_last<const N: usize>(key: &[u64; KEY_WORDS], block: &[u8]) -> [u128; N] {
    debug_assert!(!block.is_empty() && block.len() <= 128);
    let block = &block[..block.len().min(128)];
    let mut y = [0u128; N];
    let mut add = |j: usize, pair: &[u8; 16]| {
        let m0 = u64::from_le_bytes(pair[..8].try_into().unwrap());
        let m1 = u64::from_le_bytes(pair[8..].try_into().unwrap());
        for (t, acc) in y.iter_mut().enumerate() {
            let a = m0.wrapping_add(key[(2 * j + 2 * t) % KEY_WORDS]);
            let b = m1.wrapping_add(key[(2 * j + 2 * t + 1) % KEY_WORDS]);
            *acc = acc.wrapping_add(a as u128 * b as u128);
        }
    };
    let pairs = block.chunks_exact(16);
    let rest = pairs.remainder();
    let whole = block.len() / 16;
    for (j, pair) in pairs.enumerate() {
        add(j, pair.try_into().unwrap());
    }
    if !rest.is_empty() {
        let mut pair = [0u8; 16];
        pair[..rest.len()].copy_from_slice(rest);
        add(whole, &pair);
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
