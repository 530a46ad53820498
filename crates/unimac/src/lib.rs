//! # unimac
//!
//! **Which type to use.** Use [`mac::Hash127Aes`] (a 16-byte tag, no nonce
//! to manage, forgery bound about 2^-70 for 2^20 tags of 1 MiB) unless you
//! need one of: a nonce MAC at the highest speed on long messages
//! ([`umac`]'s UMAC-128, [`vmac`]'s VMAC-128, or `wc-eval128` by name
//! through [`registry::NamedMac`]); a MAC chosen by name at run time
//! ([`registry::NamedMac`]); the RustCrypto traits ([`rustcrypto`]); the
//! command line's key files, manifests and streams ([`formats`], feature
//! `std`); or a universal hash itself (each family's module).
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
//! Every public name of the wire format (docs/WIRE.md) is reachable by name through
//! [`registry`]; each family also has its own typed API in its module, and
//! the RustCrypto traits ([`rustcrypto`]).
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
//! - `reference`: the per-backend entry points (`Hash127::new_on`, …), the
//!   reference models, the typed engines of MACs otherwise reached by name
//!   (`mac::WegmanCarter`, Shoup's Theorem 3 and 4 MACs, …) and
//!   `unimac::hazmat`: for tests, benchmarks and research, with no
//!   stability promise.
//! - `frontends`: the plumbing the command line and the Python package
//!   share (the MAC table `macs`, the catalogue's `compute`/`open`, check
//!   lines, purpose keys, the walk); not a stable API.
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

/// `pub` where the condition holds, `pub(crate)` elsewhere: one item, two
/// visibilities. With `feature = "reference"` it is how the arithmetic and
/// the per-backend entry points reach the crate's own tests, benches and
/// `unimac::hazmat` without joining the default API; with
/// `feature = "frontends"`, the plumbing the command line and the Python
/// package share. Works on module items and on associated items:
///
/// ```ignore
/// pub_if! { feature = "reference";
///     /// Docs as usual.
///     pub fn new_on(platform: Platform, key: &[u8; 32]) -> Self { ... }
/// }
/// ```
macro_rules! pub_if {
    ($cond:meta; $(#[$m:meta])* pub $($item:tt)*) => {
        $(#[$m])* #[cfg($cond)] pub $($item)*
        $(#[$m])* #[cfg(not($cond))] #[allow(dead_code, unused_imports)] pub(crate) $($item)*
    };
}

#[cfg(not(feature = "std"))]
mod float;
mod prelude;
mod rng;
mod sync;
mod tail;
#[allow(unsafe_code)] // one SSE2 store (SIMD); its unsafe block has its SAFETY line
mod block;
mod cipher;

pub mod bounds;
#[cfg(feature = "std")]
pub mod formats;
#[cfg(feature = "std")]
pub use formats::counter;
mod error;
pub_if! { feature = "reference";
    pub mod group;
}
pub mod hash127;
#[cfg(feature = "reference")]
pub mod hazmat;
pub mod mac;
pub_if! { any(feature = "frontends", feature = "reference");
    /// The table of MAC rules every surface reads (the command line and the
    /// Python package; tests and research through `reference`). A Rust user
    /// reaches the same facts through the typed MACs and
    /// [`registry::NamedMac`].
    pub mod macs;
}
pub mod mmh;
pub mod modp;
pub mod partial;
pub mod platform;
pub mod registry;
pub mod rustcrypto;
pub mod shoup;
pub_if! { any(feature = "frontends", feature = "reference");
    pub mod size;
}
pub(crate) mod traits;
mod padcache;
mod kinds;
pub mod square;
pub mod stripe;
mod tag;
pub mod threads;
pub mod tree;
pub mod umac;
#[cfg(feature = "vectors")]
pub mod vectors;
pub mod vmac;

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use error::Error;
pub use platform::{Feature, Platform};
pub use registry::Stream;
pub_if! { any(feature = "frontends", feature = "reference");
    pub use registry::{compute, open, Params};
}
pub use traits::Absorb;
pub use tag::{verify_tag, MacError, Tag};
/// The RustCrypto trait crates [`rustcrypto`] implements, at the versions
/// it implements: `universal-hash` 0.6 and `digest` 0.11.
pub use {digest, universal_hash};
