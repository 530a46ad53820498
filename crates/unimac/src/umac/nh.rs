//! NH of RFC 4418 §5.2.1: `NH_K(M) = Σ ((m_{8i+j} + k_{8i+j}) mod 2^32) ·
//! ((m_{8i+j+4} + k_{8i+j+4}) mod 2^32) mod 2^64` over 32-byte groups — NMH
//! (Halevi and Krawczyk, "MMH: software message authentication in the
//! Gbit/second rates", Definition 10) with the pairs four words apart and no
//! prime.
//!
//! The `iters` outputs of UHASH (1 to 4) use the same message with the key
//! shifted by 4 words each (the Toeplitz construction of the same paper's §2.4), so
//! one pass over the message computes all of them. This file holds what every
//! NH kernel shares (the key, the group size, the portable code); it imports
//! no kernel: the vector kernels ([`super::avx2`], [`super::avx512`]) import
//! it, and [`super`] dispatches to them.

use crate::prelude::*;
use zeroize::Zeroizing;

/// One NH group: 32 bytes, 8 words.
pub(crate) const GROUP: usize = 32;

/// An NH key (big-endian words of the L1 key stream, RFC 4418 §5.1) with
/// the split copy the vector kernels read: the 128-bit lanes of the key,
/// `lane l = words[4l..4l+4]`, even lanes (`KA`, the `lo` halves of the
/// groups) apart from odd lanes (`KB`, the `hi` halves), each zero-padded to
/// `lanes()` lanes.
pub(crate) struct NhKey {
    words: Zeroizing<Vec<u32>>,
    split: Zeroizing<Vec<u32>>,
    lanes: usize,
}

impl NhKey {
    pub(crate) fn new(words: Vec<u32>) -> NhKey {
        let words = Zeroizing::new(words);
        let lanes = words.len().div_ceil(8);
        let mut split = Zeroizing::new(vec![0u32; 8 * lanes]);
        for (i, &w) in words.iter().enumerate() {
            let (group, j) = (i / 8, i % 8);
            let half = if j < 4 { 0 } else { 4 * lanes };
            split[half + 4 * group + j % 4] = w;
        }
        NhKey { words, split, lanes }
    }
    /// The key words.
    #[inline]
    pub(crate) fn words(&self) -> &[u32] {
        &self.words
    }
    /// `(KA, KB)`: the even and the odd 128-bit lanes, `lanes()` each.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline]
    pub(crate) fn split(&self) -> (&[u32], &[u32]) {
        self.split.split_at(4 * self.lanes)
    }
    /// Lanes in each half of [`split`](Self::split).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline]
    pub(crate) fn lanes(&self) -> usize {
        self.lanes
    }
}

/// `out[t] = NH(key[4t..], msg)` for `t < N` (no length added), portably:
/// `msg` is a multiple of 32 bytes, read as little-endian words (the
/// ENDIAN-SWAP of RFC 4418 §5.2.1), and `key` has at least
/// `msg.len()/4 + 4(N−1)` words. Each product is below `2^64` and the sum
/// wraps mod `2^64`, as NH asks.
pub(crate) fn nh_portable<const N: usize>(key: &[u32], msg: &[u8]) -> [u64; N] {
    let mut y = [0u64; N];
    for (g, block) in msg.chunks_exact(GROUP).enumerate() {
        let m: [u32; 8] = core::array::from_fn(|j| u32::from_le_bytes(block[4 * j..4 * j + 4].try_into().unwrap()));
        group(&key[8 * g..], &m, &mut y);
    }
    y
}

/// One group's words `m` into `y[t]` under `key[4t..]`.
#[inline(always)]
fn group<const N: usize>(key: &[u32], m: &[u32; 8], y: &mut [u64; N]) {
    for (t, acc) in y.iter_mut().enumerate() {
        let k = &key[4 * t..4 * t + 8];
        for j in 0..4 {
            let a = m[j].wrapping_add(k[j]) as u64;
            let b = m[j + 4].wrapping_add(k[j + 4]) as u64;
            *acc = acc.wrapping_add(a * b);
        }
    }
}

/// [`nh_portable`] of `rest` (shorter than a group) zero-padded to one
/// group, the words read from `rest` itself: the last, partial word built
/// byte by byte, none copied to a padded buffer first. (A copy made with
/// stores of other sizes than the word loads that follow cannot be
/// forwarded to them: each load waited for the copy to reach the cache,
/// which cost a 65-byte UMAC-64 tag about 40 TSC cycles on Zen 4 against
/// 64 bytes; docs/perf/umac.md, "Store forwarding".)
#[inline(always)]
pub(crate) fn nh_partial<const N: usize>(key: &[u32], rest: &[u8]) -> [u64; N] {
    debug_assert!(rest.len() < GROUP);
    let whole = rest.len() / 4;
    let tail = &rest[4 * whole..];
    let m: [u32; 8] = core::array::from_fn(|j| {
        if j < whole {
            u32::from_le_bytes(rest[4 * j..4 * j + 4].try_into().unwrap())
        } else if j == whole {
            tail.iter().rev().fold(0u32, |x, &c| (x << 8) | c as u32)
        } else {
            0
        }
    });
    let mut y = [0u64; N];
    group(key, &m, &mut y);
    y
}
