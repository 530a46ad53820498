//! AES-128 for the pads, the key derivations and the tree modes' key
//! streams: the `aes` crate (0.9), which picks its backend at run time —
//! the ARMv8 AES instructions on aarch64, AES-NI (and VAES for batches) on
//! x86, its constant-time bit-sliced code elsewhere — except on x86-64 CPUs
//! with AES-NI, where [`Aes128`] (one block at a time) is `ni.rs`.
//!
//! There, from version 0.9.3 on, `aes` sends every call to its VAES-512
//! backend where the CPU has AVX-512F and VAES, and that backend
//! broadcasts the eleven round keys into 512-bit registers on every call,
//! a block or a thousand. A short tag enciphers one block: on a Sapphire
//! Rapids-class Xeon that made hash127-aes at 16 B 2.7× slower and
//! VMAC-128 5.6× (docs/perf/umac.md, "AES on aarch64"). So on x86-64 a
//! block at a time goes through `ni.rs` (AES-NI, round keys expanded by
//! `aeskeygenassist`); the tree modes' key streams, enciphered 32 blocks
//! at a time, use `aes` directly, where the wide backends pay. `ni.rs` is
//! compared with `aes` on the FIPS-197 example and random keys and blocks.

use zeroize::Zeroizing;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernel (AES-NI); each unsafe block has its SAFETY line
mod ni;

pub(crate) use aes::Block;

/// AES-128 with an encryption key schedule (the library only enciphers),
/// for one block at a time.
#[derive(Clone)]
pub(crate) enum Aes128 {
    /// The `aes` crate (zeroized on drop: its `zeroize` feature).
    Crate(aes::Aes128Enc),
    /// AES-NI round keys, where the CPU has AES-NI.
    #[cfg(target_arch = "x86_64")]
    Ni(ni::RoundKeys),
}

impl Aes128 {
    /// The cipher under `key`.
    pub(crate) fn new(key: &[u8; 16]) -> Aes128 {
        #[cfg(target_arch = "x86_64")]
        if let Some(k) = ni::RoundKeys::new(key) {
            return Aes128::Ni(k);
        }
        Aes128::Crate(aes::cipher::KeyInit::new(key.into()))
    }

    /// The cipher under `key`, which must be 16 bytes (a caller's slice of
    /// a key it checked).
    ///
    /// # Panics
    /// If `key` is not 16 bytes.
    pub(crate) fn from_slice(key: &[u8]) -> Aes128 {
        let k: Zeroizing<[u8; 16]> = Zeroizing::new(key.try_into().expect("a 16-byte AES key"));
        Aes128::new(&k)
    }

    /// Encipher one block in place.
    #[inline]
    pub(crate) fn encrypt_block(&self, b: &mut Block) {
        match self {
            Aes128::Crate(c) => aes::cipher::BlockCipherEncrypt::encrypt_block(c, b),
            #[cfg(target_arch = "x86_64")]
            Aes128::Ni(k) => k.encrypt(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Aes128;
    use crate::prelude::*;
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    use rand::{Rng, SeedableRng};

    /// FIPS-197 Appendix C.1.
    #[test]
    fn fips_197_example() {
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let mut b = super::Block::from(core::array::from_fn::<u8, 16, _>(|i| (i as u8) * 0x11));
        Aes128::new(&key).encrypt_block(&mut b);
        let want = [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];
        assert_eq!(<[u8; 16]>::from(b), want);
    }

    /// Single blocks (AES-NI on x86-64 where present) against the `aes`
    /// crate's batches, on random and extreme keys and blocks.
    #[test]
    fn matches_the_aes_crate() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x6165_7331);
        let mut keys = vec![[0u8; 16], [0xff; 16]];
        keys.extend((0..30).map(|_| rng.gen::<[u8; 16]>()));
        for key in keys {
            let ours = Aes128::new(&key);
            let theirs = aes::Aes128::new(&key.into());
            let blocks: Vec<super::Block> = [[0u8; 16], [0xff; 16]]
                .into_iter()
                .chain((0..40).map(|_| rng.gen::<[u8; 16]>()))
                .map(super::Block::from)
                .collect();
            let mut want = blocks.clone();
            theirs.encrypt_blocks(&mut want);
            for (b, w) in blocks.iter().zip(&want) {
                let mut x = *b;
                ours.encrypt_block(&mut x);
                assert_eq!(x, *w, "key {key:02x?}");
            }
        }
        #[cfg(target_arch = "x86_64")]
        if super::ni::RoundKeys::new(&[0; 16]).is_none() {
            eprintln!("SKIPPED: this CPU has no AES-NI; the single-block kernel was not compared");
        }
    }
}
