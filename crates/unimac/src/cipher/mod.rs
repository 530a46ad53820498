//! AES-128 for the pads, the key derivations and the tree modes' key
//! streams: the `aes` crate (0.9), which picks its backend at run time —
//! the ARMv8 AES instructions on aarch64, AES-NI (and VAES for batches) on
//! x86, its constant-time bit-sliced code elsewhere — except on x86-64 CPUs
//! with AES-NI, where [`Aes128`], [`Aes192`] and [`Aes256`] (one block at
//! a time) are `ni.rs`.
//!
//! There, from version 0.9.3 on, `aes` sends every call to its VAES-512
//! backend where the CPU has AVX-512F and VAES, and that backend
//! broadcasts the eleven round keys into 512-bit registers on every call,
//! a block or a thousand. A short tag enciphers one block: on a Sapphire
//! Rapids-class Xeon that made hash127-aes at 16 B 2.7× slower and
//! VMAC-128 5.6× (docs/perf/umac.md, "AES 0.9"). So on x86-64 a
//! block at a time goes through `ni.rs` (AES-NI, round keys expanded by
//! `aeskeygenassist`); the tree modes' key streams, enciphered 32 blocks
//! at a time, use `aes` directly, where the wide backends pay. `ni.rs` is
//! compared with `aes` on the FIPS-197 example and random keys and blocks.

use zeroize::Zeroizing;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernel (AES-NI); each unsafe block has its SAFETY line
mod ni;

pub(crate) use aes::Block;

macro_rules! aes_type {
    ($name:ident, $crate_ty:ty, $len:literal, $rounds:literal) => {
        #[doc = concat!("AES with a ", stringify!($len), "-byte key, an encryption key schedule (the library only")]
        /// enciphers), for one block at a time.
        #[derive(Clone)]
        pub(crate) enum $name {
            /// The `aes` crate (zeroized on drop: its `zeroize` feature).
            Crate($crate_ty),
            /// AES-NI round keys, where the CPU has AES-NI.
            #[cfg(target_arch = "x86_64")]
            Ni(ni::RoundKeys<$rounds>),
        }

        impl $name {
            /// The cipher under `key`.
            pub(crate) fn new(key: &[u8; $len]) -> $name {
                #[cfg(target_arch = "x86_64")]
                if let Some(k) = ni::RoundKeys::new(key) {
                    return $name::Ni(k);
                }
                $name::Crate(aes::cipher::KeyInit::new(key.into()))
            }

            /// The cipher under `key`, which must have the key's length (a
            /// caller's slice of a key it checked).
            ///
            /// # Panics
            /// If `key` has another length.
            pub(crate) fn from_slice(key: &[u8]) -> $name {
                let k: Zeroizing<[u8; $len]> = Zeroizing::new(key.try_into().expect("an AES key of the cipher's length"));
                $name::new(&k)
            }

            /// Encipher one block in place.
            #[inline]
            pub(crate) fn encrypt_block(&self, b: &mut Block) {
                match self {
                    $name::Crate(c) => aes::cipher::BlockCipherEncrypt::encrypt_block(c, b),
                    #[cfg(target_arch = "x86_64")]
                    $name::Ni(k) => k.encrypt(b),
                }
            }
        }
    };
}

aes_type!(Aes128, aes::Aes128Enc, 16, 11);
aes_type!(Aes192, aes::Aes192Enc, 24, 13);
aes_type!(Aes256, aes::Aes256Enc, 32, 15);

#[cfg(test)]
mod tests {
    use super::Aes128;
    use crate::prelude::*;
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    use rand::{RngExt, SeedableRng};

    /// FIPS-197 Appendix C.1.
    #[test]
    fn fips_197_example() {
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let mut b = super::Block::from(core::array::from_fn::<u8, 16, _>(|i| (i as u8) * 0x11));
        Aes128::new(&key).encrypt_block(&mut b);
        let want = [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];
        assert_eq!(<[u8; 16]>::from(b), want);
    }

    /// Single blocks (AES-NI on x86-64 where present) of each key size
    /// against the `aes` crate's batches, on random and extreme keys and
    /// blocks.
    #[test]
    fn matches_the_aes_crate() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x6165_7331);
        let blocks: Vec<super::Block> = [[0u8; 16], [0xff; 16]]
            .into_iter()
            .chain((0..40).map(|_| rng.random::<[u8; 16]>()))
            .map(super::Block::from)
            .collect();
        macro_rules! check {
            ($ours:ty, $theirs:ty, $len:literal) => {
                let mut keys = vec![[0u8; $len], [0xff; $len]];
                keys.extend((0..30).map(|_| core::array::from_fn::<u8, $len, _>(|_| rng.random())));
                for key in keys {
                    let ours = <$ours>::new(&key);
                    let ours_slice = <$ours>::from_slice(&key);
                    let theirs = <$theirs>::new(&key.into());
                    let mut want = blocks.clone();
                    theirs.encrypt_blocks(&mut want);
                    for (b, w) in blocks.iter().zip(&want) {
                        for o in [&ours, &ours_slice] {
                            let mut x = *b;
                            o.encrypt_block(&mut x);
                            assert_eq!(x, *w, "{}-byte key {key:02x?}", $len);
                        }
                    }
                }
            };
        }
        check!(super::Aes128, aes::Aes128, 16);
        check!(super::Aes192, aes::Aes192, 24);
        check!(super::Aes256, aes::Aes256, 32);
        #[cfg(target_arch = "x86_64")]
        if super::ni::RoundKeys::<11>::new(&[0; 16]).is_none() {
            eprintln!("SKIPPED: this CPU has no AES-NI; the single-block kernel was not compared");
        }
    }

    /// FIPS-197 Appendix C.2 and C.3 (AES-192, AES-256).
    #[test]
    fn fips_197_examples_192_256() {
        let pt = super::Block::from(core::array::from_fn::<u8, 16, _>(|i| (i as u8) * 0x11));
        let mut b = pt;
        super::Aes192::new(&core::array::from_fn(|i| i as u8)).encrypt_block(&mut b);
        assert_eq!(<[u8; 16]>::from(b), [0xdd, 0xa9, 0x7c, 0xa4, 0x86, 0x4c, 0xdf, 0xe0, 0x6e, 0xaf, 0x70, 0xa0, 0xec, 0x0d, 0x71, 0x91]);
        let mut b = pt;
        super::Aes256::new(&core::array::from_fn(|i| i as u8)).encrypt_block(&mut b);
        assert_eq!(<[u8; 16]>::from(b), [0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf, 0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49, 0x60, 0x89]);
    }
}
