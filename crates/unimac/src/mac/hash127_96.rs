//! `mac-hash127-96` (the wire format, docs/WIRE.md §8.2): the 96-bit one-time
//! authenticator of the notes to §8 of Bernstein, "Floating-point arithmetic
//! and message authentication": `π((k + h_r(m)·u) mod p)` with `π` the low 96 bits.
//!
//! Carter and Wegman's compression (the same paper, notes to §8): multiplying the hash by
//! a second secret `u` before adding `k` makes the low 96 bits of the sum a
//! good tag. The bare truncation `π((k + h_r(m)) mod p)` is not safe: the 31
//! dropped bits let the forger aim `h_r(m') − h_r(m)` at a multiple of `2^96`,
//! which costs another factor of about `2^31`.
//!
//! Forgery bound (derived in `docs/BOUNDS.md`, checked exhaustively at a
//! reduced size in `tests/suite/hash127_96_bound.rs`): after one tag, any forgery
//! attempt `(m', t')` with `m' ≠ m` of at most `L` words succeeds with
//! probability at most `(1 + 2^-31)^2/2^96 + (2L + 4)(1 + 2^-31)/2^128`.
//!
//! ```
//! use unimac::unstable::mac::Hash127OneTime96;
//!
//! let key = [7u8; 48]; // r ‖ k ‖ u: from a random generator, used once
//! let tag = Hash127OneTime96::new(&key).tag(b"attack at dawn");
//! assert_eq!(tag.as_bytes().len(), 12);
//! // The receiver holds its own copy of the key, also for one message.
//! assert!(Hash127OneTime96::new(&key).verify(b"attack at dawn", &tag).is_ok());
//! ```

use crate::prelude::*;
use zeroize::Zeroizing;

use crate::hash127::{self, portable, Hash127};
use crate::traits::Stream;
use crate::error::Error;

/// Key bytes: `r ‖ k ‖ u`, 16 each.
pub const KEY_BYTES: usize = 48;
/// Tag bytes.
pub const TAG_BYTES: usize = 12;

/// `mac-hash127-96`: tag `= low 96 bits of (k + h_r(M)·u) mod p`, `p = 2^127 − 1`,
/// `h_r = hash127(r ‖ 0^16, ·)`. The key `r ‖ k ‖ u` authenticates ONE
/// message: the type is not `Clone`, and [`tag`](Self::tag),
/// [`verify`](Self::verify) and [`start`](Self::start) consume it.
///
/// ```compile_fail
/// use unimac::mac::Hash127OneTime96;
/// let mac = Hash127OneTime96::new(&[1u8; 48]);
/// let _ = mac.tag(b"first");
/// let _ = mac.tag(b"second"); // the one-time key is used up
/// ```
///
/// ```compile_fail
/// use unimac::mac::Hash127OneTime96;
/// let mac = Hash127OneTime96::new(&[1u8; 48]);
/// let copy = mac.clone(); // not Clone
/// ```
pub struct Hash127OneTime96 {
    r: hash127::Key,
    /// `k mod p` and `u mod p`.
    k: Zeroizing<u128>,
    u: Zeroizing<u128>,
}

#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
impl Hash127OneTime96 {
    /// `r ‖ k ‖ u`, 48 bytes, each 16 bytes four signed little-endian words
    /// (as hash127's keys, docs/WIRE.md §2).
    pub fn new(key: &[u8; KEY_BYTES]) -> Self {
        let mut r0 = Zeroizing::new([0u8; 32]);
        r0[..16].copy_from_slice(&key[..16]);
        let word_value = |b: &[u8]| {
            let mut w = Zeroizing::new(hash127::le_words(b.try_into().expect("16 bytes")));
            let v = Zeroizing::new(hash127::words_mod_p(*w));
            zeroize::Zeroize::zeroize(&mut *w);
            v
        };
        Hash127OneTime96 { r: hash127::Key::new(&r0), k: word_value(&key[16..32]), u: word_value(&key[32..48]) }
    }

    /// Start tagging the key's one message.
    pub fn start(self) -> Hash127x96Stream {
        Hash127x96Stream { h: Hash127::new(&self.r), k: self.k, u: self.u }
    }

    /// The tag of `msg`.
    pub fn tag(self, msg: &[u8]) -> crate::tag::Tag<TAG_BYTES> {
        crate::tag::Tag::new(finish(&hash127::hash127(&self.r, msg), *self.k, *self.u))
    }

    /// `Ok(())` if `tag` is the tag of `msg` (constant-time comparison).
    pub fn verify(self, msg: &[u8], tag: impl AsRef<[u8]>) -> Result<(), crate::tag::MacError> {
        self.tag(msg).verify_slice(tag.as_ref())
    }
}

/// `π((k + h·u) mod p)`: field arithmetic without a branch on secrets
/// (`hash127::portable`'s `mul_mod` and `add_mod` select by masks).
fn finish(h: &[u8; 16], k: u128, u: u128) -> [u8; TAG_BYTES] {
    let h = Zeroizing::new(u128::from_le_bytes(*h)); // in [0, p − 1]
    let s = Zeroizing::new(portable::add_mod(k, portable::mul_mod(*h, u)).to_le_bytes());
    s[..TAG_BYTES].try_into().expect("12 bytes")
}

/// A `mac-hash127-96` tag under way.
pub struct Hash127x96Stream {
    h: Hash127,
    k: Zeroizing<u128>,
    u: Zeroizing<u128>,
}

impl Hash127x96Stream {
    /// Absorb more of the message.
    pub(crate) fn update(&mut self, data: &[u8]) {
        self.h.update(data);
    }
    /// The tag.
    pub fn finalize(self) -> [u8; TAG_BYTES] {
        let h = Zeroizing::new(self.h.finalize());
        finish(&h, *self.k, *self.u)
    }
}

impl Stream for Hash127x96Stream {
    fn update(&mut self, data: &[u8]) {
        Hash127x96Stream::update(self, data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(Hash127x96Stream::finalize(*self).to_vec())
    }
}
