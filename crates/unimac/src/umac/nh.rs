//! NH of RFC 4418 §5.2.1: `NH_K(M) = Σ ((m_{8i+j} + k_{8i+j}) mod 2^32) ·
//! ((m_{8i+j+4} + k_{8i+j+4}) mod 2^32) mod 2^64` over 32-byte groups — NMH
//! (seed 004 Definition 10) with the pairs four words apart and no prime.
//!
//! The `iters` outputs of UHASH (1 to 4) use the same message with the key
//! shifted by 4 words each (the Toeplitz construction of seed 004 §2.4), so
//! one pass over the message computes all of them. This file dispatches to the
//! portable code below or to the vector kernels of [`super::avx2`] /
//! [`super::avx512`] through [`Platform::detect`].

use crate::Platform;

/// One NH group: 32 bytes, 8 words.
pub(crate) const GROUP: usize = 32;

/// Which implementation computes NH.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    Portable,
}

impl Backend {
    pub(crate) fn detect() -> Backend {
        let p = Platform::detect();
        let _ = p;
        Backend::Portable
    }

    /// Every backend this CPU can run (for tests).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Backend> {
        let mut v = vec![Backend::Portable];
        v
    }
}

/// `out[t] = NH(key[4t..], msg)` for `t < N` (no length added): `msg` is a
/// multiple of 32 bytes, read as little-endian words (the ENDIAN-SWAP of
/// RFC 4418 §5.2.1), and `key` has at least `msg.len()/4 + 4(N−1)` words.
pub(crate) fn nh<const N: usize>(backend: Backend, key: &[u32], msg: &[u8]) -> [u64; N] {
    assert!(msg.len().is_multiple_of(GROUP), "NH input is whole 32-byte groups");
    assert!(key.len() >= msg.len() / 4 + 4 * (N - 1), "NH key shorter than the message");
    match backend {
        Backend::Portable => nh_portable::<N>(key, msg),
    }
}

/// The portable NH of [`nh`]. Each product is below `2^64` and the sum wraps
/// mod `2^64`, as NH asks.
pub(crate) fn nh_portable<const N: usize>(key: &[u32], msg: &[u8]) -> [u64; N] {
    let mut y = [0u64; N];
    for (g, block) in msg.chunks_exact(GROUP).enumerate() {
        let m: [u32; 8] = core::array::from_fn(|j| u32::from_le_bytes(block[4 * j..4 * j + 4].try_into().unwrap()));
        let k = &key[8 * g..];
        for (t, acc) in y.iter_mut().enumerate() {
            let k = &k[4 * t..4 * t + 8];
            for j in 0..4 {
                let a = m[j].wrapping_add(k[j]) as u64;
                let b = m[j + 4].wrapping_add(k[j + 4]) as u64;
                *acc = acc.wrapping_add(a * b);
            }
        }
    }
    y
}
