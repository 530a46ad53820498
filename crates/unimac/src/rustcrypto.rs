//! The RustCrypto traits, so unimac plugs in wherever the ecosystem expects a
//! universal hash or a MAC: the current generation, `universal-hash` 0.6 and
//! `digest` 0.11 (keys and blocks are `hybrid-array` [`Array`]s), which the
//! crate re-exports as [`crate::universal_hash`] and [`crate::digest`], so a
//! program that names the traits through `unimac::` always has the versions
//! implemented here.
//!
//! - [`universal_hash::UniversalHash`] + [`universal_hash::KeyInit`] for the
//!   families that are universal hashes over fixed blocks: [`Hash127Uhf`]
//!   (hash127 as the raw polynomial over 16-byte blocks, `hash127-raw` of
//!   the wire format, docs/WIRE.md), [`Eval64Uhf`], [`Division64Uhf`]
//!   (8-byte blocks) and [`Eval128Uhf`] (16-byte blocks), Shoup's hashes
//!   (`eval64`, `division64`, `eval128` of the wire format). As with POLYVAL
//!   and Poly1305, the caller pads: `update_padded` appends zeros, not the
//!   wire format's `pad(M, B)`, so these are the raw block functions; the
//!   by-name API and the MACs apply the wire format's padding.
//! - [`digest::Mac`] (keyed with [`digest::KeyInit`]) for the stateless MAC
//!   `hash127-aes`: [`Hash127AesMac`], with `verify_slice` in constant time.
//!
//! With the feature `rustcrypto-0_5`, the same types also implement the
//! previous generation, `universal-hash` 0.5 and `digest` 0.10
//! (`generic-array`), re-exported in [`v0_5`](self#previous-generation-feature-rustcrypto-0_5).
//!
//! # Verifying tags: `verify_slice`, never the truncated forms
//!
//! [`Hash127AesMac`] is the only type here that implements [`digest::Mac`],
//! and it gets `verify_truncated_left` and `verify_truncated_right` from
//! `digest`'s blanket implementation (`impl<T: Update + FixedOutput +
//! MacMarker> Mac for T`), which no implementor can override. They accept
//! a tag of **any length from 1 to 16 bytes** and compare only that many
//! bytes of the tag: given a 1-byte tag, they accept a forgery with
//! probability 2^-8. Never call them with a tag whose length an attacker
//! can choose; use `verify_slice` (which refuses every length but 16) or
//! `verify`. The universal-hash types ([`Hash127Uhf`], [`Eval64Uhf`],
//! [`Division64Uhf`], [`Eval128Uhf`]) implement no [`digest::Mac`]:
//! [`universal_hash::UniversalHash::verify`] takes a whole block, its length
//! fixed by the type, so there is no truncated form; and an unpadded
//! universal hash is no MAC, whatever is compared.
//!
//! ```
//! use unimac::digest::{KeyInit as _, Mac as _};
//! use unimac::universal_hash::{KeyInit, UniversalHash};
//! use unimac::rustcrypto::{Eval128Uhf, Hash127AesMac};
//!
//! // A universal hash over 16-byte blocks (the caller pads).
//! let mut h = Eval128Uhf::new(&[3u8; 16].into());
//! h.update_padded(b"sixteen byte blk and more");
//! let out = h.finalize();
//! assert_eq!(out.len(), 16);
//!
//! // A MAC in the `digest` sense: the same tags as `unimac::mac::Hash127Aes`.
//! let mut m = Hash127AesMac::new_from_slice(&[7u8; 32]).unwrap();
//! m.update(b"attack at dawn");
//! let tag = m.finalize().into_bytes();
//! let typed = unimac::mac::Hash127Aes::new(&[7u8; 32]).tag(b"attack at dawn");
//! assert_eq!(tag.as_slice(), typed.as_bytes());
//! let mut m = Hash127AesMac::new_from_slice(&[7u8; 32]).unwrap();
//! m.update(b"attack at dusk");
//! assert!(m.verify_slice(&tag).is_err());
//! ```
//!
//! # Previous generation (feature `rustcrypto-0_5`)
//!
//! Code written against `universal-hash` 0.5 / `digest` 0.10 (the
//! generation of `poly1305` 0.8, `polyval` 0.6, `hmac` 0.12) enables the
//! feature `rustcrypto-0_5` and names those traits through `v0_5`
//! (`unimac::rustcrypto::v0_5::universal_hash`,
//! `unimac::rustcrypto::v0_5::digest`): the same types, the same functions,
//! keys and blocks as `generic-array` arrays. The same rule holds there:
//! `verify_slice`, never the truncated forms.

use alloc::sync::Arc;

#[cfg(doc)]
use universal_hash::array::Array;

use crate::cipher::Aes128;
use zeroize::Zeroizing;

use crate::hash127::{self, Hash127};
use crate::shoup::eval128::Eval128;
use crate::shoup::{Hasher, Kind};

/// hash127 (Bernstein, "Floating-point arithmetic and message
/// authentication", §§6 and 8; `hash127-raw` of the wire format,
/// docs/WIRE.md) as a universal hash over 16-byte blocks: key `r ‖ k`
/// (32 bytes), each block four signed 32-bit words.
///
/// No [`digest::Mac`], so no truncated verification:
/// [`UniversalHash::verify`](universal_hash::UniversalHash::verify)
/// compares a whole 16-byte block.
pub struct Hash127Uhf {
    h: Hash127,
}

macro_rules! shoup_uhf_type {
    ($t:ident, $what:literal) => {
        #[doc = concat!("Shoup's ", $what, " (Shoup, \"On fast and provably secure message authentication based on universal hashing\", CRYPTO 1996, §4; the wire format, docs/WIRE.md) as a universal hash over 8-byte blocks: key 8 bytes; the blocks as given, with the implicit leading 1.")]
        ///
        /// No [`digest::Mac`], so no truncated verification:
        /// [`UniversalHash::verify`](universal_hash::UniversalHash::verify)
        /// compares a whole 8-byte block.
        pub struct $t {
            h: Hasher,
        }
    };
}

shoup_uhf_type!(Eval64Uhf, "evaluation hash eval64");
shoup_uhf_type!(Division64Uhf, "division hash division64");

/// Shoup's evaluation hash (Shoup, "On fast and provably secure message
/// authentication based on universal hashing", CRYPTO 1996, §4) over
/// GF(2^128) (`eval128` of the wire format, docs/WIRE.md) as a universal
/// hash over 16-byte blocks: key `α` (16 bytes); the blocks as given, with
/// the implicit leading 1.
///
/// No [`digest::Mac`], so no truncated verification:
/// [`UniversalHash::verify`](universal_hash::UniversalHash::verify)
/// compares a whole 16-byte block.
pub struct Eval128Uhf {
    h: Eval128,
}

/// `hash127-aes` (Bernstein, "Floating-point arithmetic and message
/// authentication", §9, protocol 2; `mac-hash127-aes` of the wire format,
/// docs/WIRE.md) as a [`digest::Mac`]: key `r ‖ K` (32 bytes), tag
/// `AES_K(hash127_r(M))`, 16 bytes. Streaming; `verify_slice` compares in
/// constant time.
///
/// **Use `verify_slice` (or `verify`), not `verify_truncated_left` /
/// `verify_truncated_right`.** Those two come from `digest`'s blanket
/// implementation of [`digest::Mac`] and cannot be overridden here: they
/// accept a tag of any length from 1 to 16 bytes and check only that many
/// bytes, so a 1-byte tag is guessed with probability 2^-8. They must not
/// be given a tag whose length an attacker chooses. `verify_slice` refuses
/// every length but 16.
///
/// ```
/// use unimac::digest::{KeyInit, Mac};
/// use unimac::rustcrypto::Hash127AesMac;
///
/// let mac = |msg: &[u8]| Hash127AesMac::new_from_slice(&[7u8; 32]).unwrap().chain_update(msg);
/// let tag = mac(b"attack at dawn").finalize().into_bytes();
/// assert!(mac(b"attack at dawn").verify_slice(&tag).is_ok());
/// assert!(mac(b"attack at dawn").verify_slice(&tag[..1]).is_err()); // wrong length: refused
/// // The truncated forms accept 1 byte: never let an attacker pick the length.
/// assert!(mac(b"attack at dawn").verify_truncated_left(&tag[..1]).is_ok());
/// assert!(mac(b"attack at dawn").verify_truncated_right(&tag[15..]).is_ok());
/// ```
pub struct Hash127AesMac {
    h: Hash127,
    aes: Arc<Aes128>,
}

/// The trait implementations of one generation of `universal-hash` and
/// `digest`, in a module that has imported that generation's names
/// (`KeySizeUser`, `KeyInit`, `Key`, `BlockSizeUser`, `ParBlocksSizeUser`,
/// `Block`, `UhfBackend`, `UhfClosure`, `UniversalHash`, `Update`,
/// `OutputSizeUser`, `Output`, `FixedOutput`, `MacMarker` and the `U*`
/// sizes): both generations keep these names and signatures, and differ in
/// the array type behind `Key`, `Block` and `Output`.
macro_rules! rustcrypto_impls {
    () => {
        impl KeySizeUser for Hash127Uhf {
            type KeySize = U32;
        }

        impl KeyInit for Hash127Uhf {
            fn new(key: &Key<Self>) -> Self {
                let k = Zeroizing::new(<[u8; 32]>::from(key.clone()));
                Hash127Uhf { h: Hash127::new(&hash127::Key::new(&k)) }
            }
        }

        impl BlockSizeUser for Hash127Uhf {
            type BlockSize = U16;
        }

        impl ParBlocksSizeUser for Hash127Uhf {
            type ParBlocksSize = U1;
        }

        impl UhfBackend for Hash127Uhf {
            fn proc_block(&mut self, block: &Block<Self>) {
                self.h.update(block);
            }
        }

        impl UniversalHash for Hash127Uhf {
            fn update_with_backend(&mut self, f: impl UhfClosure<BlockSize = Self::BlockSize>) {
                f.call(self);
            }
            fn finalize(self) -> Block<Self> {
                // Only whole 16-byte blocks were absorbed: a multiple of 4 bytes.
                let h = self.h.finalize_raw().expect("whole blocks are whole words");
                h.into()
            }
        }

        rustcrypto_impls!(@shoup64 Eval64Uhf, Kind::Eval64);
        rustcrypto_impls!(@shoup64 Division64Uhf, Kind::Division64);

        impl KeySizeUser for Eval128Uhf {
            type KeySize = U16;
        }

        impl KeyInit for Eval128Uhf {
            fn new(key: &Key<Self>) -> Self {
                let k = Zeroizing::new(<[u8; 16]>::from(key.clone()));
                Eval128Uhf { h: Eval128::new(&k) }
            }
        }

        impl BlockSizeUser for Eval128Uhf {
            type BlockSize = U16;
        }

        impl ParBlocksSizeUser for Eval128Uhf {
            type ParBlocksSize = U1;
        }

        impl UhfBackend for Eval128Uhf {
            fn proc_block(&mut self, block: &Block<Self>) {
                self.h.update(block);
            }
        }

        impl UniversalHash for Eval128Uhf {
            fn update_with_backend(&mut self, f: impl UhfClosure<BlockSize = Self::BlockSize>) {
                f.call(self);
            }
            fn finalize(self) -> Block<Self> {
                self.h.finalize_unpadded().expect("only whole blocks are absorbed").into()
            }
        }

        impl KeySizeUser for Hash127AesMac {
            type KeySize = U32;
        }

        impl KeyInit for Hash127AesMac {
            fn new(key: &Key<Self>) -> Self {
                let mut r = Zeroizing::new([0u8; 32]);
                r[..16].copy_from_slice(&key[..16]);
                Hash127AesMac { h: Hash127::new(&hash127::Key::new(&r)), aes: Arc::new(Aes128::from_slice(&key[16..])) }
            }
        }

        impl Update for Hash127AesMac {
            fn update(&mut self, data: &[u8]) {
                self.h.update(data);
            }
        }

        impl OutputSizeUser for Hash127AesMac {
            type OutputSize = U16;
        }

        impl FixedOutput for Hash127AesMac {
            fn finalize_into(self, out: &mut Output<Self>) {
                let h = Zeroizing::new(self.h.finalize());
                let mut b = aes::Block::from(*h);
                self.aes.encrypt_block(&mut b);
                out.copy_from_slice(&b);
            }
        }

        impl MacMarker for Hash127AesMac {}
    };
    (@shoup64 $t:ident, $kind:expr) => {
        impl KeySizeUser for $t {
            type KeySize = U8;
        }

        impl KeyInit for $t {
            fn new(key: &Key<Self>) -> Self {
                let k = Zeroizing::new(<[u8; 8]>::from(key.clone()));
                $t { h: Hasher::new($kind, &k) }
            }
        }

        impl BlockSizeUser for $t {
            type BlockSize = U8;
        }

        impl ParBlocksSizeUser for $t {
            type ParBlocksSize = U1;
        }

        impl UhfBackend for $t {
            fn proc_block(&mut self, block: &Block<Self>) {
                self.h.update(block);
            }
        }

        impl UniversalHash for $t {
            fn update_with_backend(&mut self, f: impl UhfClosure<BlockSize = Self::BlockSize>) {
                f.call(self);
            }
            fn finalize(self) -> Block<Self> {
                self.h.finalize_unpadded().expect("only whole blocks are absorbed").into()
            }
        }
    };
}

/// `universal-hash` 0.6 and `digest` 0.11 (`hybrid-array`).
mod current {
    use super::*;
    use digest::{FixedOutput, MacMarker, Output, OutputSizeUser, Update};
    use universal_hash::common::{BlockSizeUser, KeySizeUser, ParBlocksSizeUser};
    use universal_hash::consts::{U1, U16, U32, U8};
    use universal_hash::{Block, Key, KeyInit, UhfBackend, UhfClosure, UniversalHash};

    rustcrypto_impls!();
}

/// The previous generation of the RustCrypto traits, `universal-hash` 0.5
/// and `digest` 0.10 (`generic-array`), implemented by the same types as
/// the current one (feature `rustcrypto-0_5`; the module documentation
/// above). The two generations' traits are distinct: import one of them.
///
/// ```
/// use unimac::rustcrypto::v0_5::digest::Mac;
/// use unimac::rustcrypto::v0_5::universal_hash::{KeyInit, UniversalHash};
/// use unimac::rustcrypto::{Eval64Uhf, Hash127AesMac};
///
/// let mut h = Eval64Uhf::new(&[5u8; 8].into());
/// h.update_padded(b"eight-byte blocks; the caller pads");
/// assert_eq!(h.finalize().len(), 8);
///
/// // digest 0.10's `Mac` also has `new_from_slice`: name the trait.
/// let mut m = <Hash127AesMac as Mac>::new_from_slice(&[7u8; 32]).unwrap();
/// m.update(b"attack at dawn");
/// let typed = unimac::mac::Hash127Aes::new(&[7u8; 32]).tag(b"attack at dawn");
/// assert!(m.verify_slice(typed.as_bytes()).is_ok());
/// ```
#[cfg(feature = "rustcrypto-0_5")]
pub mod v0_5 {
    /// `universal-hash` 0.5.
    pub use universal_hash05 as universal_hash;
    /// `digest` 0.10 (with its `mac` feature).
    pub use digest010 as digest;

    use super::*;
    use digest::{FixedOutput, MacMarker, Output, OutputSizeUser, Update};
    use universal_hash::crypto_common::{BlockSizeUser, KeySizeUser, ParBlocksSizeUser};
    use universal_hash::consts::{U1, U16, U32, U8};
    use universal_hash::{Block, Key, KeyInit, UhfBackend, UhfClosure, UniversalHash};

    rustcrypto_impls!();
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::registry::{known_answer as compute, Params};

    fn reference(name: &str, key: &[u8], msg: &[u8]) -> Vec<u8> {
        compute(name, &Params { key, nonce: None, len: None }, msg).unwrap()
    }

    /// The same checks for each generation of the traits the types
    /// implement.
    macro_rules! generation_tests {
        () => {
            /// Each universal hash over whole blocks equals the wire format's
            /// function of the same bytes without its padding: hash127-raw directly; for Shoup's
            /// hashes, `pad(M, B)` of `M` = the blocks minus their last byte when the
            /// last block ends in 0x01 (the pad byte) — so a message whose blocks end
            /// in `01 00..` hashes to the padded function of its prefix.
            #[test]
            fn universal_hashes_are_the_spec_functions() {
                let key32: [u8; 32] = core::array::from_fn(|i| (i * 7 + 1) as u8);
                for blocks in 0..40usize {
                    let msg: alloc::vec::Vec<u8> = (0..16 * blocks).map(|i| (i * 31 + 5) as u8).collect();
                    let mut h = Hash127Uhf::new(&key32.into());
                    h.update_padded(&msg);
                    assert_eq!(h.finalize().as_slice(), reference("hash127-raw", &key32, &msg), "{blocks} blocks");
                    // eval128 / eval64 / division64 of M' = msg[..len-1] padded is msg
                    // with its last byte replaced by 0x01: give that to the UHF.
                    if blocks > 0 {
                        let mut m = msg.clone();
                        *m.last_mut().unwrap() = 1;
                        let prefix = &m[..m.len() - 1];
                        let mut e = Eval128Uhf::new(&key32[..16].try_into().map(|a: [u8; 16]| a.into()).unwrap());
                        e.update_padded(&m);
                        assert_eq!(e.finalize().as_slice(), reference("eval128", &key32[..16], prefix));
                        for (name, kind) in [("eval64", 0), ("division64", 1)] {
                            let k8: [u8; 8] = key32[..8].try_into().unwrap();
                            let got = if kind == 0 {
                                let mut u = Eval64Uhf::new(&k8.into());
                                u.update_padded(&m);
                                u.finalize()
                            } else {
                                let mut u = Division64Uhf::new(&k8.into());
                                u.update_padded(&m);
                                u.finalize()
                            };
                            assert_eq!(got.as_slice(), reference(name, &k8, prefix), "{name} {blocks}");
                        }
                    }
                }
            }

            #[test]
            fn digest_mac_is_hash127_aes() {
                let key: [u8; 32] = core::array::from_fn(|i| (200 - i) as u8);
                for len in [0usize, 1, 15, 16, 17, 1000, 70_000] {
                    let msg: alloc::vec::Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
                    let want = reference("mac-hash127-aes", &key, &msg);
                    let mut m = <Hash127AesMac as KeyInit>::new_from_slice(&key).unwrap();
                    for c in msg.chunks(333) {
                        Mac::update(&mut m, c);
                    }
                    let tag = m.finalize().into_bytes();
                    assert_eq!(tag.as_slice(), want);
                    let mut m = <Hash127AesMac as KeyInit>::new_from_slice(&key).unwrap();
                    Mac::update(&mut m, &msg);
                    assert!(m.verify_slice(&want).is_ok());
                    let mut bad = want.clone();
                    bad[0] ^= 1;
                    let mut m = <Hash127AesMac as KeyInit>::new_from_slice(&key).unwrap();
                    Mac::update(&mut m, &msg);
                    assert!(m.verify_slice(&bad).is_err());
                }
                assert!(<Hash127AesMac as KeyInit>::new_from_slice(&key[..31]).is_err());
            }
        };
    }

    mod current {
        use super::reference;
        use crate::rustcrypto::{Division64Uhf, Eval128Uhf, Eval64Uhf, Hash127AesMac, Hash127Uhf};
        use digest::Mac;
        use universal_hash::{KeyInit, UniversalHash};

        generation_tests!();
    }

    #[cfg(feature = "rustcrypto-0_5")]
    mod v0_5 {
        use super::reference;
        use crate::rustcrypto::v0_5::digest::Mac;
        use crate::rustcrypto::v0_5::universal_hash::{KeyInit, UniversalHash};
        use crate::rustcrypto::{Division64Uhf, Eval128Uhf, Eval64Uhf, Hash127AesMac, Hash127Uhf};

        generation_tests!();
    }
}
