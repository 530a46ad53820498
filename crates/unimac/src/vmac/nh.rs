//! NH of draft-krovetz-vmac-01 §5.3 on 64-bit words:
//! `Σ_j ((m_{2j} + k_{2j}) mod 2^64) · ((m_{2j+1} + k_{2j+1}) mod 2^64) mod 2^128`
//! over one block of at most 16 little-endian words — NMH (Halevi and
//! Krawczyk, "MMH: software message authentication in the Gbit/second
//! rates", Definition 10) with 64-bit words and no prime. VMAC-128's second
//! iteration reads the key two words further on (Toeplitz, the same paper's §2.4),
//! so one pass over the block computes both.



#[cfg(test)]
use super::BLOCK;

/// Words of the zero-padded NH key of the whole-block loops: 16 for one
/// block, 2 more for VMAC-128's second iteration.
pub(crate) const KEY_WORDS: usize = 18;

/// Which implementation computes NH.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// The unrolled scalar loop with 64×64→128 products.
    Portable,
    /// VMAC-64's whole blocks eight at a time, NH and L2, with AVX-512
    /// IFMA52 ([`super::avx512`]); VMAC-128 and the blocks after the last
    /// whole group of eight on the scalar loop.
    /// (An AVX-512 NH with 32-bit digit products was exact but slower than
    /// the scalar loop: docs/perf/umac.md.)
    #[cfg(target_arch = "x86_64")]
    Avx512Ifma,
}

impl Backend {
    /// The backend's name, as `Vmac::backend` reports it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Ifma => "avx512-ifma",
        }
    }

    /// The fastest backend `p` proves this CPU can run.
    pub(crate) fn for_platform(p: crate::platform::Platform) -> Backend {
        #[cfg(target_arch = "x86_64")]
        if p.avx512() && p.avx512ifma() {
            return Backend::Avx512Ifma;
        }
        let _ = p;
        Backend::Portable
    }

    /// Every distinct backend this CPU can run (for tests).
    #[cfg(test)]
    pub(crate) fn available() -> alloc::vec::Vec<Backend> {
        let mut v: alloc::vec::Vec<Backend> = alloc::vec::Vec::new();
        for p in crate::platform::Platform::hardware().variants() {
            let b = Backend::for_platform(p);
            if !v.contains(&b) {
                v.push(b);
            }
        }
        v
    }
}

/// NH of every whole 128-byte block of `data` (a multiple of 128 bytes), in
/// order, for `N` iterations (1 or 2): `each` receives block `i`'s
/// `[NH(key[2t..2t+16], block i); N]`, by [`nh_block`] whatever the
/// backend: the tests' reference (the whole-block loop of
/// `vmac::blocks_serial` calls [`nh_block`] or the IFMA kernel itself).
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
/// place, a partial last pair zero-padded (NH sums over pairs, so the
/// padding is one more pair, not a padded block) as the 16 bytes that end
/// the block shifted down, or byte by byte below 16 bytes.
#[inline]
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
