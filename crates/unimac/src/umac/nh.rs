//! NH of RFC 4418 §5.2.1: `NH_K(M) = Σ ((m_{8i+j} + k_{8i+j}) mod 2^32) ·
//! ((m_{8i+j+4} + k_{8i+j+4}) mod 2^32) mod 2^64` over 32-byte groups — NMH
//! (Halevi and Krawczyk, "MMH: software message authentication in the
//! Gbit/second rates", Definition 10) with the pairs four words apart and no
//! prime.
//!
//! The `iters` outputs of UHASH (1 to 4) use the same message with the key
//! shifted by 4 words each (the Toeplitz construction of the same paper's §2.4), so
//! one pass over the message computes all of them. This file dispatches to the
//! portable code below or to the vector kernels of [`super::avx2`] /
//! [`super::avx512`] through the [`Platform`] the key was made with.

use crate::prelude::*;
use zeroize::Zeroizing;

use crate::platform::Platform;

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

/// Which implementation computes NH.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Backend {
    /// The backend's name, as `Umac::backend` reports it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => "avx512",
        }
    }

    /// The fastest backend `p` proves this CPU can run.
    pub(crate) fn for_platform(p: Platform) -> Backend {
        #[cfg(target_arch = "x86_64")]
        {
            if p.avx512() && p.avx2_fma() {
                return Backend::Avx512;
            }
            if p.avx2_fma() {
                return Backend::Avx2;
            }
        }
        let _ = p;
        Backend::Portable
    }

    /// Every distinct backend this CPU can run (for tests).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Backend> {
        let mut v: Vec<Backend> = Vec::new();
        for p in Platform::hardware().variants() {
            let b = Backend::for_platform(p);
            if !v.contains(&b) {
                v.push(b);
            }
        }
        v
    }
}

/// `out[t] = NH(key[4t..], msg)` for `t < N` (no length added): `msg` is a
/// multiple of 32 bytes, read as little-endian words (the ENDIAN-SWAP of
/// RFC 4418 §5.2.1), and `key` has at least `msg.len()/4 + 4(N−1)` words.
/// The vector kernels take the whole steps of several groups; NH being a sum
/// over groups, the remaining groups are added by the portable code with the
/// key read from where they start.
pub(crate) fn nh<const N: usize>(backend: Backend, key: &NhKey, msg: &[u8]) -> [u64; N] {
    let words = key.words();
    assert!(msg.len().is_multiple_of(GROUP), "NH input is whole 32-byte groups");
    assert!(words.len() >= msg.len() / 4 + 4 * (N - 1), "NH key shorter than the message");
    // The whole vector steps (none below one step: the kernel is skipped).
    let (mut y, done) = match backend {
        Backend::Portable => ([0u64; N], 0),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 if msg.len() >= super::avx2::STEP => {
            let done = msg.len() / super::avx2::STEP * super::avx2::STEP;
            (super::avx2::nh::<N>(key, &msg[..done]), done)
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if msg.len() >= super::avx512::STEP => {
            let done = msg.len() / super::avx512::STEP * super::avx512::STEP;
            (super::avx512::nh::<N>(key, &msg[..done]), done)
        }
        // Below one AVX-512 step (messages of 64 to 127 bytes), one AVX2
        // step: `for_platform` picks AVX-512 only with AVX2 present.
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if msg.len() >= super::avx2::STEP => {
            (super::avx2::nh::<N>(key, &msg[..super::avx2::STEP]), super::avx2::STEP)
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 | Backend::Avx512 => ([0u64; N], 0),
    };
    if done < msg.len() {
        let z = nh_portable::<N>(&words[done / 4..], &msg[done..]);
        for t in 0..N {
            y[t] = y[t].wrapping_add(z[t]);
        }
    }
    y
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
