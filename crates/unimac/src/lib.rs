//! # unimac
//!
//! **Which type to use.** Use [`mac::Hash127Aes`] (a 16-byte tag, no nonce
//! to manage, forgery bound about 2^-70 for 2^20 tags of 1 MiB) unless you
//! need one of: a nonce MAC at the highest speed on long messages
//! ([`umac`]'s UMAC-128, [`vmac`]'s VMAC-128, or `wc-eval128` by name
//! through [`registry::NamedMac`]); a MAC chosen by name at run time
//! ([`registry::NamedMac`]); the RustCrypto traits ([`rustcrypto`]); the
//! command line's key files, manifests and streams ([`formats`], feature
//! `std`); or a universal hash itself (through [`rustcrypto`]'s
//! `universal_hash` types, or, for research, the feature `unstable`).
//!
//! ```
//! # #[cfg(feature = "std")] {
//! use unimac::formats::keyfile::{KeyFile, KeyKind};
//! use unimac::mac::Hash127Aes;
//!
//! // A fresh key (as `unimac keygen hash127-aes` makes it; `KeyFile::read`
//! // reads the command line's key files, `write_new` writes one).
//! let key = KeyFile::generate(KeyKind::from_name("hash127-aes")?)?;
//! let mac = Hash127Aes::new(key.key().try_into().expect("32 bytes"));
//! let tag = mac.tag(b"attack at dawn");
//! assert!(mac.verify(b"attack at dawn", &tag).is_ok());
//! # }
//! # Ok::<(), unimac::Error>(())
//! ```
//!
//! Fast, provably secure message authentication from universal hashing:
//! Bernstein's hash127, Halevi–Krawczyk's MMH and NMH, Etzel–Patel–Ramzan's
//! Square Hash, and Shoup's evaluation and division hashes, each exact on
//! every input, each with a portable path and run-time-dispatched fast paths,
//! and the Wegman–Carter MACs built on them with their proven forgery bounds.
//!
//! Every MAC of the wire format (docs/WIRE.md) is reachable by name through
//! [`registry`]; the recommended ones also have typed APIs ([`mac`],
//! [`umac`], [`vmac`]), and the RustCrypto traits ([`rustcrypto`]).
//!
//! Long inputs can use several cores ([`threads::set_max_threads`]; none
//! besides the caller's by default), and one message can be hashed in
//! chunks on different machines whose partial hashes are combined and
//! finished where the whole key is ([`partial`]). Within one process, the
//! layered hashes (UMAC, VMAC, the trees) also take stripes hashed on any
//! thread in message order ([`stripe`]): a reader per core can copy and
//! hash its own part of a file.
//!
//! ```
//! use unimac::mac::Hash127Aes;
//! use unimac::MacError;
//!
//! // A typed MAC: fixed-size tags compared in constant time, and a
//! // verification that is an error, never a `false` to forget to check.
//! let mac = Hash127Aes::new(&[7u8; 32]);
//! let tag = mac.tag(b"attack at dawn");
//! assert_eq!(mac.verify(b"attack at dawn", &tag), Ok(()));
//! assert_eq!(mac.verify(b"attack at dusk", &tag), Err(MacError));
//!
//! // The same MAC through `digest::Mac`, and a universal hash through
//! // `universal_hash::UniversalHash`: the trait crates as unimac re-exports
//! // them (`unimac::digest`, `unimac::universal_hash`), so their versions
//! // are the ones implemented.
//! use unimac::digest::{KeyInit as _, Mac as _};
//! let mut m = unimac::rustcrypto::Hash127AesMac::new_from_slice(&[7u8; 32]).unwrap();
//! m.update(b"attack at dawn");
//! assert!(m.verify_slice(tag.as_bytes()).is_ok());
//!
//! use unimac::universal_hash::{KeyInit, UniversalHash};
//! let mut h = unimac::rustcrypto::Eval64Uhf::new(&[5u8; 8].into());
//! h.update_padded(b"eight-byte blocks; the caller pads");
//! assert_eq!(h.finalize().len(), 8);
//! ```
//!
//! ## `no_std`
//!
//! The library is `#![no_std]` and needs `alloc` (a global allocator) and
//! nothing else: every family, every typed MAC and the by-name table
//! ([`registry`]) build for targets without an operating system
//! (`cargo build --no-default-features --target thumbv7em-none-eabihf`, and
//! `wasm32-unknown-unknown`). The features:
//!
//! - `std` (default): the thread pool ([`threads::set_max_threads`] has no
//!   effect without it: every computation runs on the caller's thread),
//!   the nonce counter files of `counter`, the environment variables
//!   `UNIMAC_FORCE_PORTABLE` and `UNIMAC_DISABLE` ([`platform`]), std's
//!   CPU feature detection, and `getrandom`.
//! - `getrandom` (implied by `std`): the operating system's random
//!   generator, for `modp::SecretPrime::{generate, from_bytes}` (a key and
//!   the bases of its primality test) and the random `r ‖ s` of
//!   `mac-shoup4-*` (drawn by the library from the OS generator). Without it those return
//!   [`Error::Invalid`] saying so; nothing falls back to weaker randomness.
//! - `unstable`: the module `unimac::unstable`, the code behind the stable
//!   modules reachable whole: the families' raw universal hashes and their
//!   per-backend entry points (`Hash127::new_on`, …), the reference
//!   models, the typed engines of MACs otherwise reached by name
//!   (`mac::WegmanCarter`, Shoup's Theorem 3 and 4 MACs, …), the MAC table
//!   `macs`, the catalogue's `key`/`open`/`compute`, the formats' lower
//!   levels and `hazmat`: for this workspace's front ends, benches, tests
//!   and research, with no stability promise (its users pin an exact
//!   version).
//! - `json` (`Bound::to_json`), `vectors` (the known-answer runner),
//!   `rustcrypto-0_5` (the previous generation of the RustCrypto traits).
//!
//! Without `std`, x86-64 still detects AVX2, AVX-512, PCLMULQDQ, GFNI and
//! the rest with `cpuid` and `xgetbv` ([`Platform::detect`]); there are no
//! environment variables.
//!
//! README's library snippet, the same code: it needs no dependency but
//! `unimac`, and builds as well beside direct dependencies on
//! `universal-hash` 0.6 and `digest` 0.11, the versions `cargo add` picks.
//!
//! ```
//! use unimac::mac::Hash127Aes;
//!
//! // Typed MACs: fixed-size tags (constant-time ==), verify returns Result.
//! let mac = Hash127Aes::new(&[7u8; 32]);            // r ‖ K, from `unimac keygen hash127-aes`
//! let tag = mac.tag(b"attack at dawn");             // unimac::Tag<16>, no allocation
//! assert!(mac.verify(b"attack at dawn", &tag).is_ok());
//! assert!(mac.verify(b"attack at dusk", &tag).is_err()); // Err(MacError), never Ok
//! let hex = tag.to_string();                        // lowercase hex, as check lines write tags ({:x} too)
//! assert_eq!(hex.parse::<unimac::Tag<16>>(), Ok(tag)); // FromStr: an Error naming the length or the bad digit
//!
//! // The RustCrypto traits (universal-hash 0.6, digest 0.11), re-exported as
//! // unimac::universal_hash and unimac::digest: UniversalHash + KeyInit for
//! // hash127, eval64, division64 and eval128; digest::Mac for hash127-aes.
//! use unimac::universal_hash::{KeyInit, UniversalHash};
//! let mut h = unimac::rustcrypto::Eval128Uhf::new(&[3u8; 16].into());
//! h.update_padded(b"any bytes; the caller pads");
//! let _ = h.finalize();
//!
//! use unimac::digest::Mac;
//! let mut m = unimac::rustcrypto::Hash127AesMac::new_from_slice(&[7u8; 32]).unwrap();
//! m.update(b"attack at dawn");
//! assert!(m.verify_slice(tag.as_bytes()).is_ok()); // never verify_truncated_*
//! ```

#![no_std]
// Inside an `unsafe fn` too, every unsafe operation needs its own `unsafe`
// block, with its own `// SAFETY:` reason.
#![deny(unsafe_op_in_unsafe_fn)]
// No unsafe code outside the SIMD kernel modules (AVX2, AVX-512, PCLMULQDQ,
// VPCLMULQDQ, GFNI; and `block`, one SSE2 store of a cipher input), each
// allowed by name where it is declared
// (`#[allow(unsafe_code)]` on its `mod` line); the safe dispatch that checks
// the CPU's features and calls into the kernels sits in those modules too.
#![deny(unsafe_code)]

// `vec!` and `format!`; in tests std's macros (`println!` too) instead.
#[cfg_attr(not(test), macro_use)]
extern crate alloc;
#[cfg(any(feature = "std", test))]
#[cfg_attr(test, macro_use)]
extern crate std;

// The one form a unit test reports a check it cannot run here in (shared
// with the integration tests).
#[cfg(test)]
#[path = "../tests/common/skipped.rs"]
mod skipped;

#[cfg(not(feature = "std"))]
mod float;
mod prelude;
mod rng;
mod sync;
mod tail;
#[allow(unsafe_code)] // one SSE2 store (SIMD); its unsafe block has its SAFETY line
mod block;
mod cipher;

#[cfg(feature = "std")]
pub mod formats;
#[cfg(feature = "std")]
pub use formats::counter;
mod error;
pub mod platform;
pub mod rustcrypto;
pub mod stripe;
pub mod threads;
pub mod umac;
pub mod vmac;
#[cfg(feature = "vectors")]
pub mod vectors;
pub(crate) mod traits;
mod padcache;
mod kinds;
mod tag;

/// The code behind the modules below, and the families' universal hashes:
/// each module `pub`, reachable from outside only through [`unstable`]
/// (feature `unstable`). The public modules name their stable part.
#[cfg_attr(not(feature = "unstable"), allow(dead_code, unused_imports, unreachable_pub))]
#[path = "."]
mod imp {
    #[path = "bounds/mod.rs"]
    pub mod bounds;
    #[path = "group.rs"]
    pub mod group;
    #[path = "hash127/mod.rs"]
    pub mod hash127;
    #[path = "mac/mod.rs"]
    pub mod mac;
    #[path = "macs.rs"]
    pub mod macs;
    #[path = "mmh/mod.rs"]
    pub mod mmh;
    #[path = "modp/mod.rs"]
    pub mod modp;
    #[path = "partial/mod.rs"]
    pub mod partial;
    #[path = "registry/mod.rs"]
    pub mod registry;
    #[path = "shoup/mod.rs"]
    pub mod shoup;
    #[path = "square/mod.rs"]
    pub mod square;
    #[path = "tree.rs"]
    pub mod tree;
}
pub(crate) use imp::{group, hash127, macs, mmh, shoup, square, tree};

#[cfg(feature = "unstable")]
pub mod unstable;

pub mod bounds {
    //! Forgery bounds of the named MACs (the wire format, docs/WIRE.md §8): the probability that any of
    //! `D` forgery attempts succeeds after `C` tagged messages of at most `L`
    //! bytes, with the theorem it comes from. The derivations are in
    //! `docs/BOUNDS.md`.
    //!
    //! Every number is computed in log2 space (`f64` logarithms, sums by
    //! log-sum-exp), so bounds like `2^-180` print exactly instead of as 0.
    //!
    //! The theorems are information-theoretic: they model `f` (AES) as a uniform
    //! random function. What that model costs is split in two:
    //! - terms that are exact combinatorics (the PRP/PRF switching lemma
    //!   `q(q−1)/2^129`, the two-call composition of protocol 3) are computed and
    //!   included in the number;
    //! - the AES distinguishing advantage `Adv_AES^prp(q)` is a named term, NOT in
    //!   the number, with its `q` stated ([`Bound::not_included`]).

    pub use crate::imp::bounds::{bound, Attack, Bound, Log2, Term};
}

pub mod mac {
    //! The named message authentication codes of the wire format (docs/WIRE.md
    //! §8): the hash127 protocols of Bernstein, "Floating-point arithmetic and
    //! message authentication" (§§8–9), and the Wegman–Carter construction
    //! `(n, f(n) ⊕ h(M))` of Shoup, "On fast and provably secure message
    //! authentication based on universal hashing" (CRYPTO 1996, §1) and of Halevi
    //! and Krawczyk, "MMH: software message authentication in the Gbit/second
    //! rates" (FSE 1997, §2.3), over any keyed hash with a fixed output; Etzel,
    //! Patel and Ramzan, "Square Hash: fast message authentication via optimized
    //! universal hash functions" (CRYPTO 1999), give its group for Square Hash.
    //!
    //! | name | construction | paper |
    //! |---|---|---|
    //! | `hash127` | `k + h_r(M) mod p`, one message per key | Bernstein §8, Theorem 8.2 |
    //! | `hash127-aes` | `AES_K(h_r(M))` | Bernstein §9 protocol 2, Theorem 9.2 |
    //! | `hash127-aes-nonce` | `AES_K(AES_K(n) ⊕ h_r(M))` | Bernstein §9 protocol 3, Theorem 9.3 |
    //! | `hash127-aes-add` | `AES_K(n) + h_r(M) mod p` | Bernstein §9 protocol 1, Theorem 9.1 |
    //! | `wc-H` (Shoup's hashes) | `AES_K(n)[0..O] ⊕ H(g, M)` | Shoup §1, Theorems 1–2 |
    //! | `wc-F` (trees of MMH, NMH, Square Hash) | `AES_K(n)[0..O] + tree-F(s, M)` in `F`'s group | Halevi and Krawczyk §2.3; Etzel, Patel and Ramzan §1 |
    //! | `wc-eval128`, `shoup3-eval128`, `shoup4-*` | see [`shoup`] | Shoup, Theorems 2–4 |
    //!
    //! Every type keeps its key material in zeroized memory (the AES key schedule
    //! too: the `aes` crate's `zeroize` feature), and every `verify` compares tags
    //! in constant time with [`subtle`]. The forgery bounds of each name are in
    //! [`crate::bounds`].
    //!
    //! Typed here: the hash127 MACs, and Shoup's `wc-` MACs in [`shoup`]. The
    //! `wc-F` MACs of the trees are reached by name
    //! ([`NamedMac`](crate::registry::NamedMac)); the generic construction
    //! under them, `WegmanCarter` over any `KeyedHash` (`TreeHash`, or any
    //! hash by name), is `unimac::unstable::mac`, for research.
    //!
    //! ```
    //! use unimac::mac::Hash127Aes;
    //! use unimac::registry::NamedMac;
    //! use unimac::Absorb;
    //!
    //! // Stateless: one 32-byte key r ‖ K, no nonce.
    //! let mac = Hash127Aes::new(&[7u8; 32]);
    //! let tag = mac.tag(b"attack at dawn");
    //! assert!(mac.verify(b"attack at dawn", &tag).is_ok());
    //! assert!(mac.verify(b"attack at dusk", &tag).is_err());
    //!
    //! // Wegman–Carter over the tree mode of MMH: key K ‖ s, a fresh nonce per message.
    //! let m = NamedMac::new("wc-mmh32x2", &[9u8; 32]).unwrap();
    //! let nonce = 1u128.to_le_bytes();
    //! let t = m.tag(Some(&nonce), b"attack at dawn").unwrap();
    //! assert_eq!(t.len(), 8);
    //!
    //! // Streaming, the nonce given at the end.
    //! let mut p = m.start_deferred().unwrap();
    //! p.update(b"attack ");
    //! p.update(b"at dawn");
    //! assert_eq!(p.finalize(Some(&nonce)).unwrap(), t);
    //! ```

    pub use crate::imp::mac::{Hash127Aes, Hash127OneTime, Hash127Stream, Pending};
    pub(crate) use crate::imp::mac::*;
    pub mod shoup {
        //! Shoup's MACs of the wire format (docs/WIRE.md §8.5; Shoup, "On fast and
        //! provably secure message authentication based on universal hashing", §1):
        //! every tag is `pad ⊕ H(M)` in the
        //! hash's own group (XOR: characteristic 2), the pad depending only on the
        //! key and the per-message value (nonce, or the random pair `r ‖ s`).
        //!
        //! | name | tag | theorem |
        //! |---|---|---|
        //! | `wc-eval128` | `AES_K(n) ⊕ eval128(α, M)` | 2 (AES a permutation of 128-bit tags) |
        //! | `shoup3-eval128` | `AES_K(n) ⊕ β·n ⊕ eval128(α, M)` | 3 (`h1(n) = β n`, `ε1 = 2^-128`) |
        //! | `shoup4-eval64`, `shoup4-division64` | `f(r) ⊕ g(s) ⊕ α r s ⊕ H(M)`, `r ‖ s` random | 4 (stateless) |
        //!
        //! `wc-eval128` is typed here ([`WcEval128`]). `wc-eval64`,
        //! `wc-division64` and `wc-gdivision64`, whose hash is one of the raw
        //! 64-bit hashes, and the constructions of Shoup's Theorems 3 and 4
        //! are reached by name ([`NamedMac`](crate::registry::NamedMac));
        //! their typed engines (`WcShoup64` over a `shoup::Kind`,
        //! `Shoup3Eval128`, `Shoup4`) are in `unimac::unstable::mac::shoup`.
        //! `shoup4` keeps no state: it draws `r ‖ s` (8 + 8 bytes) from the
        //! operating system's random generator for every message and sends it with
        //! the tag (`r ‖ s ‖ tag`); by name the "nonce" of a `shoup4-` name is that
        //! pair, as in the vector files, and no tagging call takes it from the
        //! caller (passing `r ‖ s` in is only for checking known answers, with the
        //! `vectors` feature).
        //!
        //! ```
        //! use unimac::registry::NamedMac;
        //!
        //! let mac = NamedMac::new("shoup4-eval64", &[3u8; 48]).unwrap();
        //! let sent = mac.tag(None, b"attack at dawn").unwrap(); // fresh r ‖ s inside
        //! assert_eq!(sent.len(), 24);
        //! assert!(mac.verify(None, b"attack at dawn", &sent).is_ok());
        //! assert!(mac.verify(None, b"attack at dusk", &sent).is_err());
        //! ```

        pub use crate::imp::mac::shoup::{Eval128MacStream, WcEval128};
        pub(crate) use crate::imp::mac::shoup::*;
    }

}

pub mod modp {
    //! `modp` (the wire format, docs/WIRE.md §7): huge integers reduced mod a
    //! secret random 128-bit prime, to check ring identities such as
    //! `a² = bc + de` (Bernstein, "Floating-point arithmetic and message
    //! authentication", "Other applications" in §1).
    //!
    //! Bernstein's remark: to check `a² = bc + de` on integers of millions of
    //! digits, pick a prime `p` in `[2^120, 2^128)` that the prover never sees and
    //! check `(a mod p)² ≡ (b mod p)(c mod p) + (d mod p)(e mod p)`. The reductions
    //! use the method of hash127: a dot product of the message's words with
    //! precomputed powers `2^(64i) mod p`, accumulated exactly in wide registers
    //! and reduced once per block (`portable`).
    //!
    //! **False accepts.** If `D = a² − bc − de ≠ 0` and `|D| < 2^N`, at most
    //! `⌊(N − 1)/120⌋` primes `≥ 2^120` divide `D` (their product is at most `|D|`),
    //! and `[2^120, 2^128)` holds more than `2^128/(128 ln 2) − 1.25506·2^120/(120 ln 2)
    //! ≈ 2^121.52` primes (Rosser–Schoenfeld bounds on `π(x)`). A key drawn
    //! uniformly among them accepts a false identity, chosen without knowledge of
    //! the key, with probability at most `⌊(N − 1)/120⌋ / 2^121.52 ≈ N·2^-128.43`
    //! (`false_accept_log2`); 0 when `N ≤ 120`. Over `q` checks under one key,
    //! adaptive or not, at most `q` times that (until the first false accept every
    //! answer is "reject" for a false identity and "accept" for a true one, so the
    //! answers teach the prover nothing it could not predict).
    //! Derivation: `docs/BOUNDS.md`.
    //!
    //! ```
    //! use unimac::modp::SecretPrime;
    //!
    //! let p = SecretPrime::generate().unwrap();
    //! // 3² = 2·4 + 1·1
    //! assert!(p.check_identity(&[3], &[2], &[4], &[1], &[1]));
    //! assert!(!p.check_identity(&[3], &[2], &[4], &[1], &[2]));
    //! ```

    pub use crate::imp::modp::{false_accept_log2, identity_bits, ModpStream, SecretPrime, KEY_BYTES};
    pub(crate) use crate::imp::modp::*;
}

pub mod partial {
    //! Combinable partial hashes: hash the chunks of one message on different
    //! threads, processes or machines, combine the pieces, and finish the hash or
    //! the MAC where the whole key is.
    //!
    //! Every polynomial hash here (hash127, eval64, eval128, division64,
    //! gdivision64) is `S(M) = Σ b_i β^(l−i)` over the `l` words (blocks) of the
    //! padded message with an implicit leading 1, `β` the key's multiplier (`r`
    //! mod `2^127 − 1`, `α`, `x^64 mod p`, `z^8 mod P`). For adjacent chunks
    //! `S(a‖b) = S(a)·β^|b| + S(b)`, so a [`Partial`] carries its value and
    //! `β^|b|`, and [`Partial::combine`] needs no key. A tree mode (`tree-F` of
    //! the wire format, docs/WIRE.md) hashes a chunk of whole runs of `B^2`
    //! bytes through its two lowest levels on its own; a partial carries those
    //! level-2 bytes, combining concatenates them, and the finish step computes
    //! the levels above.
    //!
    //! The padding (and, for the polynomial hashes, the length it encodes)
    //! belongs to the chunk that ends the message: it is hashed with
    //! `last = true`. Chunks start at multiples of [`granularity`] (the word or
    //! block size: 4, 8 or 16 bytes; `B^2` bytes for a tree), and every chunk
    //! but the last is a non-zero multiple of it. The result is the one-shot
    //! result for every such split and every order of combination.
    //!
    //! ```
    //! use unimac::partial::{self, Partial};
    //!
    //! let key = [7u8; 24]; // mac-wc-eval64: AES key K (16) ‖ g (8)
    //! let nonce = [1u8; 16];
    //! let msg = vec![0x5au8; 1000];
    //! // Workers get the hash key only (here g, bytes 16..24), never K.
    //! let hk = partial::hash_key("mac-wc-eval64", &key).unwrap();
    //! let a = Partial::hash("mac-wc-eval64", hk, 0, &msg[..400], false).unwrap();
    //! let b = Partial::hash("mac-wc-eval64", hk, 400, &msg[400..], true).unwrap();
    //! // A partial travels as bytes.
    //! let b = Partial::from_bytes(&b.to_bytes()).unwrap();
    //! let whole = a.combine(&b).unwrap();
    //! let tag = partial::finish_mac("mac-wc-eval64", &key, Some(&nonce), &whole).unwrap();
    //! let mac = unimac::registry::NamedMac::new("wc-eval64", &key).unwrap();
    //! assert_eq!(tag, mac.tag(Some(&nonce), &msg).unwrap());
    //! ```
    //!
    //! # Keys: what the workers get
    //!
    //! [`hash_key`] gives the bytes of a name's key that [`Partial::hash`]
    //! needs; the rest is needed by [`finish_hash`] / [`finish_mac`] only:
    //!
    //! | name | key | workers get |
    //! |---|---|---|
    //! | `eval64`, `division64`, `gdivision64` | `g` (8) | all of it |
    //! | `eval128` | `α` (16) | all of it |
    //! | `tree-F` | `s` (16) | all of it |
    //! | `mac-hash127-aes`, `-aes-nonce`, `-aes-add` | `r ‖ K` (32) | `r` (0..16); never `K` |
    //! | `mac-wc-eval64`, `-division64`, `-gdivision64` | `K ‖ g` (24) | `g` (16..24) |
    //! | `mac-wc-eval128` | `K ‖ α` (32) | `α` (16..32) |
    //! | `mac-wc-F` (F a tree's block function) | `K ‖ s` (32) | `s` (16..32) |
    //!
    //! The names `wc-…` and `hash127-aes…` are accepted for their `mac-` names.
    //!
    //! **One-time MACs are refused.** `mac-hash127` and `mac-hash127-96` (and
    //! the hashes `hash127` and `hash127-raw`, whose key `r ‖ k` is
    //! `mac-hash127`'s and whose output is its tag) return
    //! `Error::OneTimeOnly` from every function here: their key tags one
    //! message, in one place (`registry::OneTimeMac`), while a partial
    //! can be finished any number of times, and whoever holds `r` and sees
    //! `hash127`'s tag `k + h_r(M)` has `k` too.
    //!
    //! # Across machines: whom to trust
    //!
    //! Keeping `K` on the machine that finishes protects `K` from disclosure;
    //! it does not protect tags from forgery. Every machine that gets the hash
    //! key or a partial, and whatever can read the messages, files or memory
    //! that carry them, must be trusted as much as the **whole key**:
    //!
    //! - A partial is as secret as the hash key: from partials of known chunks
    //!   the key (`r`, `α`, the division polynomial, the tree's level keys'
    //!   outputs) can be recovered. And the hash key alone forges after one
    //!   tag is seen. Under `hash127-aes`, a second message with the same
    //!   hash127 value (a 32-byte tail found by lattice reduction, seconds of
    //!   work) has the same tag, which then verifies. Under a nonce of a `wc-`
    //!   MAC whose tag `t` of `M` was seen, every `M'` gets the tag
    //!   `t' = t − H(M) + H(M')` in the group where the pad is added (XOR for
    //!   `wc-eval64`).
    //! - A partial is trusted as it is received: a worker can return any
    //!   partial, and the finish step then tags, or accepts, whatever contents
    //!   that worker chose. Nothing here can check a partial against the chunk
    //!   it claims to cover.
    //! - What the split does give: a worker cannot compute a tag under a new
    //!   nonce by itself from nothing, and a leak of a worker's memory, or of a
    //!   partial or hash key in transit or on disk, does not expose `K`.
    //!
    //! So hash chunks only on machines trusted with the whole key, and send
    //! partials (and the hash key the workers need) only over an authenticated,
    //! encrypted channel such as TLS.
    //! [`Partial::to_bytes`] gives a self-describing encoding (a version tag,
    //! the name, the chunk's offset and length, the state); [`Partial::from_bytes`]
    //! checks it strictly and returns an error on anything malformed. A partial
    //! is wiped from memory when dropped and its `Debug` form shows no secret.
    //! Nothing in a partial identifies the key: combining partials made under
    //! different keys gives a wrong (rejected) tag, not an error, except for
    //! division64 and gdivision64, whose partials carry the key polynomial.
    //!
    //! Within one process, [`crate::threads::set_max_threads`] already spreads
    //! long inputs over cores with the same algebra; partials are for spreading
    //! one message across processes or machines (or for hashing the parts of a
    //! message as they arrive out of order).

    pub use crate::imp::partial::{finish_hash, finish_mac, granularity, hash_key, Partial, PartialStream};
}

pub mod registry {
    //! Every public name of the wire format (docs/WIRE.md), with its sizes,
    //! behind one lookup.
    //!
    //! For a Rust caller: [`NamedMac`] keys a MAC by name once and tags and
    //! verifies any number of messages, [`OneTimeMac`] takes a one-time key;
    //! [`names`] lists every MAC name. (`unimac::unstable::registry::NamedHash`
    //! is a hash by name as a `mac::KeyedHash`, for the generic
    //! `mac::WegmanCarter`.)
    //!
    //! Underneath, each family module contributes its entries through a
    //! `catalog()` function; the CLI, the vector runner and the Python package
    //! go through the catalogue's `key` / `open` / `compute`
    //! (`unimac::unstable::registry`), so a name behaves identically
    //! everywhere. `key` does a name's key set-up once (hash127's powers of
    //! `r`, Shoup's minimal polynomial, the tree's level keys, AES schedules)
    //! and gives a `Keyed` object that starts any number of messages; `open`
    //! is `key` followed by one start, so both paths run the same code.

    pub use crate::imp::registry::{is_one_time, names, NamedMac, OneTimeCheck, OneTimeMac, Pending, Stream};
    pub(crate) use crate::imp::registry::*;
}

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use error::Error;
pub use platform::{Feature, Platform};
pub use registry::Stream;
pub use traits::Absorb;
pub use tag::{verify_tag, MacError, Tag};
/// The RustCrypto trait crates [`rustcrypto`] implements, at the versions
/// it implements: `universal-hash` 0.6 and `digest` 0.11.
pub use {digest, universal_hash};
