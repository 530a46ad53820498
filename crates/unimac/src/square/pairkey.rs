//! A key laid out for the AVX-512 pair-of-blocks kernel (`avx512.rs`):
//! plain data, arranged once per key; the kernel reads it.

use crate::prelude::*;
use zeroize::Zeroizing;

/// One 512-bit key vector, 64-byte aligned (an unaligned 64-byte load costs
/// two cache-line accesses).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub(crate) struct Lanes(pub(crate) [u64; 8]);

impl zeroize::Zeroize for Lanes {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// A key arranged for the pair-of-blocks kernel: vector `n` holds key
/// elements `4n .. 4n + 4` twice (lanes 0–3 for one block, 4–7 for the
/// other), the element's low 64 bits in `v[n][0]` and the rest in
/// `v[n][1]` (`V >= 3`); lanes past the key's last element are zero, so the
/// message's (zero-loaded) lanes there contribute nothing.
#[derive(Clone)]
pub(crate) struct PairKey {
    /// Elements per key (and block).
    pub(crate) k: usize,
    pub(crate) v: Zeroizing<Vec<[Lanes; 2]>>,
}

impl PairKey {
    /// `key` is `k >= 1` elements of `4V` bytes.
    pub(crate) fn new<const V: usize>(key: &[u8]) -> PairKey {
        let k = key.len() / (4 * V);
        assert!(k >= 1 && key.len() == 4 * V * k);
        let mut v = Zeroizing::new(vec![[Lanes::default(); 2]; k.div_ceil(4)]);
        for (i, x) in key.chunks_exact(4 * V).enumerate() {
            let mut e = Zeroizing::new([0u8; 16]);
            e[..4 * V].copy_from_slice(x);
            let (n, j) = (i / 4, i % 4);
            let q = |at: usize| u64::from_le_bytes(e[at..at + 8].try_into().expect("8 bytes"));
            let (lo, hi) = (q(0), q(8));
            for (h, w) in [lo, hi].into_iter().enumerate() {
                v[n][h].0[j] = w;
                v[n][h].0[j + 4] = w;
            }
        }
        PairKey { k, v }
    }
}
