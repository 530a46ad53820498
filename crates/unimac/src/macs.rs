//! The one description of every named MAC: what its name means.
//!
//! Each row of [`MACS`] says, for one name, which hash it runs, how the
//! cipher or pad finishes it, how its key is laid out, its nonce rule with
//! the lengths it accepts, whether its key is one-time, its tag size, how the
//! tag is framed when sent, and what its forgery bound is computed from.
//! Everything that acts on a MAC by name reads this table: the by-name MAC
//! and the catalogue ([`crate::registry`]), the partial hashes
//! ([`crate::partial`]), the bounds ([`crate::bounds`]), nonce counters
//! (`counter`, feature `std`), the command line and the Python package. No
//! surface tests a name's spelling to decide a rule.
//!
//! This module is data: it names the families' types (a tree's [`Block`],
//! Shoup's [`Kind`]) and runs none of their code.

use crate::prelude::*;
use core::ops::Range;

use crate::error::Error;
use crate::group::DeltaGroup;
use crate::kinds::{Block, Kind};

/// The hash under a MAC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hash {
    /// hash127: the polynomial mod `2^127 − 1` of Bernstein's hash127, over
    /// `pad(M, 4)`.
    Hash127,
    /// One of Shoup's 64-bit hashes (`eval64`, `division64`, `gdivision64`).
    Shoup64(Kind),
    /// Shoup's evaluation hash over GF(2^128).
    Eval128,
    /// The tree mode of a block function (`mmh32x2`, `sqh64-asm`, …).
    Tree(Block),
    /// UMAC's UHASH (RFC 4418), `T` bytes of it.
    Uhash,
    /// VMAC's VHASH (draft-krovetz-vmac-01).
    Vhash,
}

impl Hash {
    /// The hashes that are names of the catalogue on their own (a hash key,
    /// no finish): Shoup's hashes and the tree modes.
    pub fn plain() -> impl Iterator<Item = Hash> {
        Kind::ALL
            .into_iter()
            .map(Hash::Shoup64)
            .chain([Hash::Eval128])
            .chain(Block::ALL.into_iter().map(Hash::Tree))
    }

    /// The name of the hash on its own in the catalogue (`eval64`,
    /// `eval128`, `tree-mmh32x2`, …); `None` for the hashes that are only
    /// parts of MACs here (hash127's is `hash127-raw`, with its own key
    /// layout; UHASH, VHASH).
    pub const fn plain_name(self) -> Option<&'static str> {
        match self {
            Hash::Shoup64(k) => Some(k.name()),
            Hash::Eval128 => Some("eval128"),
            Hash::Tree(b) => Some(b.tree_name()),
            Hash::Hash127 | Hash::Uhash | Hash::Vhash => None,
        }
    }

    /// The plain hash whose catalogue name is `name`.
    pub fn of_plain_name(name: &str) -> Option<Hash> {
        Hash::plain().find(|h| h.plain_name() == Some(name))
    }
}

/// How the hash value becomes the tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// `k + h mod p`: the key's second half is a one-time pad (hash127).
    OneTimePad,
    /// `low 96 bits of (k + h·u) mod p` (hash127-96), one-time.
    OneTime96,
    /// `AES_K(h)`: stateless scrambling.
    Scramble,
    /// `AES_K(AES_K(n) ⊕ h)`.
    NonceScramble,
    /// `(AES_K(n) + h) mod (2^127 − 1)`.
    NoncePadP127,
    /// `AES_K(n)[0..O] ⋆ h`, `⋆` the hash's group.
    Pad(DeltaGroup),
    /// `AES_K(n) ⊕ β·n ⊕ h` in GF(2^128).
    Shoup3,
    /// `f(r) ⊕ g(s) ⊕ α·r·s ⊕ h` in GF(2^64), `r ‖ s` random per message.
    Shoup4,
    /// RFC 4418's PDF pad, added mod `2^64` word by word.
    Umac,
    /// VMAC's pad, added mod `2^64` word by word.
    Vmac,
}

/// How a counter value is written as a nonce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Little-endian (the wire format's convention).
    Little,
    /// Big-endian (VMAC reads its nonce as a big-endian block).
    Big,
}

/// Where a nonce shorter than the longest is extended with zero bytes to the
/// block the cipher sees: nonces that differ only by such zeros give the same
/// pad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extend {
    /// Only one length is accepted.
    Never,
    /// Zeros appended (RFC 4418: `02`, `0200` and `020000` are one nonce).
    Right,
    /// Zeros prepended (VMAC: `01` and `0001` are one nonce).
    Left,
}

/// What a message's nonce is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nonce {
    /// Stateless: no nonce.
    None,
    /// A nonce of `min..=max` bytes that must never repeat under one key.
    /// Counters and random nonces always use `max` bytes (so no two of them
    /// alias through [`Extend`]), written in `order`; with `top_bit_clear`
    /// a `max`-byte nonce must have the top bit of its first byte clear (VMAC
    /// reserves those blocks for its key derivation), which leaves
    /// `8·max − 1` random bits.
    Sequence {
        min: usize,
        max: usize,
        order: Order,
        extend: Extend,
        top_bit_clear: bool,
    },
    /// A pair drawn at random for every message by the library itself and
    /// sent in front of the tag (Shoup's stateless Theorem 4 scheme); no
    /// tagging interface takes it from the caller.
    RandomPair { len: usize },
}

impl Nonce {
    /// The longest nonce (0 for none).
    pub const fn max(&self) -> usize {
        match *self {
            Nonce::None => 0,
            Nonce::Sequence { max, .. } => max,
            Nonce::RandomPair { len } => len,
        }
    }
    /// The shortest nonce (0 for none).
    pub const fn min(&self) -> usize {
        match *self {
            Nonce::None => 0,
            Nonce::Sequence { min, .. } => min,
            Nonce::RandomPair { len } => len,
        }
    }
    /// Whether `nonce` follows the rule: given exactly for a sequence, of
    /// an accepted length, a full-length one with its top bit clear where
    /// the rule says so (the check on every message; [`MacDesc::check_nonce`]
    /// says why a nonce is refused).
    #[inline(always)]
    pub fn accepts(&self, nonce: Option<&[u8]>) -> bool {
        match (*self, nonce) {
            (Nonce::None | Nonce::RandomPair { .. }, None) => true,
            (
                Nonce::Sequence {
                    min,
                    max,
                    top_bit_clear,
                    ..
                },
                Some(n),
            ) => {
                let l = n.len();
                l >= min && l <= max && !(top_bit_clear && l == max && n[0] & 0x80 != 0)
            }
            _ => false,
        }
    }
    /// Whether the caller supplies a nonce per message (a counter or random
    /// value it manages).
    pub const fn is_sequence(&self) -> bool {
        matches!(self, Nonce::Sequence { .. })
    }
    /// Bits of a random nonce of this rule: `8·max`, one less when the top
    /// bit must be clear; 0 for no nonce.
    pub const fn random_bits(&self) -> u32 {
        match *self {
            Nonce::None => 0,
            Nonce::Sequence {
                max, top_bit_clear, ..
            } => 8 * max as u32 - top_bit_clear as u32,
            Nonce::RandomPair { len } => 8 * len as u32,
        }
    }
}

/// How the tag travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// The tag alone (the nonce, if any, travels beside it).
    Tag,
    /// The random pair, then the tag (`r ‖ s ‖ tag`).
    PairThenTag,
}

/// What the forgery bound of a name is computed from ([`crate::bounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundRule {
    /// Bernstein, Theorem 8.2 (one message per key).
    Hash127OneTime,
    /// Theorem 8.1 with the 96-bit compression.
    Hash127OneTime96,
    /// Theorem 9.2 (protocol 2).
    Hash127Scramble,
    /// Theorem 9.1 (protocol 1).
    Hash127Pad,
    /// Theorem 9.3 (protocol 3).
    Hash127NonceScramble,
    /// Wegman–Carter over the hash's ε-almost-Δ-universality.
    WegmanCarter,
    /// Shoup's Theorems 2–4 over eval128, eval64 or division64.
    Shoup,
    /// The specification's published ε per attempt (`log2`), and its source.
    Published { eps_log2: i32 },
}

/// One named MAC: everything its name means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacDesc {
    /// The name without `mac-` (the catalogue's name is `mac-` and this).
    pub name: &'static str,
    /// The catalogue's name, `mac-` and [`name`](Self::name).
    pub catalog_name: &'static str,
    /// The hash under it.
    pub hash: Hash,
    /// How the hash value becomes the tag.
    pub finish: Finish,
    /// The key's parts in order, as (name, bytes); the key is their
    /// concatenation. VMAC's AES key is 16, 24 or 32 bytes ([`key_sizes`](Self::key_sizes)).
    pub key_parts: &'static [(&'static str, usize)],
    /// Every key length accepted, the first the default.
    pub key_sizes: &'static [usize],
    /// The bytes of the key that the hash needs (what a worker hashing
    /// partials gets: [`crate::partial`]); the rest finishes the tag.
    pub hash_key: Range<usize>,
    /// The nonce rule.
    pub nonce: Nonce,
    /// Whether a key authenticates one message only.
    pub one_time: bool,
    /// The MAC to use unless a reason says otherwise (one row: stateless,
    /// a 128-bit tag, a proven bound).
    pub recommended: bool,
    /// Names of plain hashes in the catalogue whose output under this row's
    /// key IS this MAC's tag (`hash127` with `r ‖ k` adds the one-time pad
    /// `k`): they are the same one-time value, refused and served alike.
    pub same_as_hashes: &'static [&'static str],
    /// Tag bytes (without the random pair of [`Framing::PairThenTag`]).
    pub tag: usize,
    /// How the tag is sent.
    pub framing: Framing,
    /// What the bound is computed from.
    pub bound: BoundRule,
    /// One line on what it is.
    pub summary: &'static str,
    /// Where it comes from.
    pub source: &'static str,
}

impl MacDesc {
    /// Bytes as sent: the tag, after the random pair if it is framed so.
    pub const fn sent_len(&self) -> usize {
        match self.framing {
            Framing::Tag => self.tag,
            Framing::PairThenTag => self.nonce.max() + self.tag,
        }
    }
    /// Whether a key of `len` bytes fits.
    pub fn accepts_key(&self, len: usize) -> bool {
        self.key_sizes.contains(&len)
    }
    /// The length of a fresh key.
    pub fn default_key_len(&self) -> usize {
        self.key_sizes[0]
    }
    /// Whether the caller gives a nonce per message.
    pub const fn takes_nonce(&self) -> bool {
        self.nonce.is_sequence()
    }
    /// The nonce of the counter value `c`: `max` bytes in the rule's byte
    /// order; `None` if `c` does not fit (VMAC: `c ≥ 2^127`) or the name
    /// takes no counter.
    pub fn counter_nonce(&self, c: u128) -> Option<[u8; 16]> {
        let Nonce::Sequence {
            max: 16,
            order,
            top_bit_clear,
            ..
        } = self.nonce
        else {
            return None;
        };
        if top_bit_clear && c >> 127 != 0 {
            return None;
        }
        Some(match order {
            Order::Little => c.to_le_bytes(),
            Order::Big => c.to_be_bytes(),
        })
    }
    /// A nonce as the cipher sees it: the block it enciphers and the part
    /// of the result it keeps, so two nonces give one pad exactly when their
    /// canonical forms are equal. UMAC (RFC 4418 §5.1) reads the nonce as a
    /// big-endian integer, takes its low bits as the index of the pad within
    /// the block for 4- and 8-byte tags, clears them and appends zeros
    /// (`02`, `0200` and `020000` alias under UMAC-64; UMAC-32's index
    /// tells `02` from `0200`); VMAC reads it as a big-endian integer (zeros
    /// in front: `01` and `0001` alias). `None` for names without a caller
    /// nonce or a nonce of a length the name refuses.
    pub fn canonical_nonce(&self, n: &[u8]) -> Option<[u8; 17]> {
        let Nonce::Sequence {
            min, max, extend, ..
        } = self.nonce
        else {
            return None;
        };
        if n.len() < min || n.len() > max || max > 16 {
            return None;
        }
        let mut out = [0u8; 17];
        match extend {
            Extend::Never => out[..n.len()].copy_from_slice(n),
            Extend::Right => {
                out[..n.len()].copy_from_slice(n);
                let mask = match self.tag {
                    4 => 3,
                    8 => 1,
                    _ => 0,
                };
                if let Some(last) = n.len().checked_sub(1) {
                    out[16] = out[last] & mask;
                    out[last] &= !mask;
                }
            }
            Extend::Left => out[max - n.len()..max].copy_from_slice(n),
        }
        Some(out)
    }
    /// Check a message's nonce against the rule: the caller gives one
    /// exactly for [`Nonce::Sequence`] rows, of an accepted length (and a
    /// full-length VMAC nonce with its top bit clear); none for the others
    /// (a `shoup4-` pair is the library's to draw).
    pub fn check_nonce(&self, nonce: Option<&[u8]>) -> Result<(), Error> {
        let name = || self.name.to_string();
        match (self.nonce, nonce) {
            (Nonce::None, None) | (Nonce::RandomPair { .. }, None) => Ok(()),
            (Nonce::None, Some(_)) => Err(Error::UnexpectedNonce(name())),
            (Nonce::RandomPair { .. }, Some(_)) => Err(Error::CallerPair(name())),
            (Nonce::Sequence { .. }, None) => Err(Error::MissingNonce(name())),
            (
                Nonce::Sequence {
                    min,
                    max,
                    top_bit_clear,
                    ..
                },
                Some(n),
            ) => {
                if n.len() < min || n.len() > max {
                    return Err(if min == max {
                        Error::NonceLength {
                            name: name(),
                            expected: max,
                            got: n.len(),
                        }
                    } else {
                        Error::Invalid(format!(
                            "{}: nonce must be {min} to {max} bytes, got {}",
                            self.name,
                            n.len()
                        ))
                    });
                }
                if top_bit_clear && n.len() == max && n[0] & 0x80 != 0 {
                    return Err(Error::Invalid(format!(
                        "{}: a {max}-byte nonce must have its top bit clear (the key derivation uses those blocks)",
                        self.name
                    )));
                }
                Ok(())
            }
        }
    }
    /// Make `n` (of `max` bytes) a valid random nonce: clears the top bit
    /// where the rule reserves it.
    pub fn fix_random_nonce(&self, n: &mut [u8]) {
        if let Nonce::Sequence {
            top_bit_clear: true,
            ..
        } = self.nonce
        {
            if let Some(b) = n.first_mut() {
                *b &= 0x7f;
            }
        }
    }
}

/// The nonce of every `wc-`, `shoup3-` and hash127 nonce MAC: 16 bytes.
const NONCE16: Nonce = Nonce::Sequence {
    min: 16,
    max: 16,
    order: Order::Little,
    extend: Extend::Never,
    top_bit_clear: false,
};
/// UMAC's nonce (RFC 4418 §3.3): the one rule, also checked by [`crate::umac`].
pub(crate) const UMAC_NONCE: Nonce = Nonce::Sequence {
    min: 1,
    max: 16,
    order: Order::Little,
    extend: Extend::Right,
    top_bit_clear: false,
};
/// VMAC's nonce: the one rule, also checked by [`crate::vmac`].
pub(crate) const VMAC_NONCE: Nonce = Nonce::Sequence {
    min: 1,
    max: 16,
    order: Order::Big,
    extend: Extend::Left,
    top_bit_clear: true,
};

const R_K: &[(&str, usize)] = &[("r", 16), ("K", 16)];
const K_G8: &[(&str, usize)] = &[("K", 16), ("g", 8)];
const K_S: &[(&str, usize)] = &[("K", 16), ("s", 16)];

const BERNSTEIN_FP: &str = "Bernstein, “Floating-point arithmetic and message authentication”";
const SHOUP: &str = "Shoup, “On fast and provably secure message authentication based on universal hashing” (CRYPTO 1996)";
const MMH: &str = "Halevi and Krawczyk, “MMH: software message authentication in the Gbit/second rates” (FSE 1997), §2.3";
const SQH: &str = "Etzel, Patel and Ramzan, “Square Hash: fast message authentication via optimized universal hash functions” (CRYPTO 1999), §1";

macro_rules! wc_tree {
    ($name:literal, $f:expr, $o:expr, $g:expr, $summary:literal, $src:expr) => {
        MacDesc {
            name: $name,
            catalog_name: concat!("mac-", $name),
            hash: Hash::Tree($f),
            finish: Finish::Pad($g),
            key_parts: K_S,
            key_sizes: &[32],
            hash_key: 16..32,
            nonce: NONCE16,
            one_time: false,
            recommended: false,
            same_as_hashes: &[],
            tag: $o,
            framing: Framing::Tag,
            bound: BoundRule::WegmanCarter,
            summary: $summary,
            source: $src,
        }
    };
}

macro_rules! wc_shoup64 {
    ($name:literal, $h:expr, $summary:literal) => {
        MacDesc {
            name: $name,
            catalog_name: concat!("mac-", $name),
            hash: Hash::Shoup64($h),
            finish: Finish::Pad(DeltaGroup::Xor),
            key_parts: K_G8,
            key_sizes: &[24],
            hash_key: 16..24,
            nonce: NONCE16,
            one_time: false,
            recommended: false,
            same_as_hashes: &[],
            tag: 8,
            framing: Framing::Tag,
            bound: BoundRule::WegmanCarter,
            summary: $summary,
            source: SHOUP,
        }
    };
}

macro_rules! umac {
    ($name:literal, $t:expr, $eps:expr) => {
        MacDesc {
            name: $name,
            catalog_name: concat!("mac-", $name),
            hash: Hash::Uhash,
            finish: Finish::Umac,
            key_parts: &[("K", 16)],
            key_sizes: &[16],
            hash_key: 0..16,
            nonce: UMAC_NONCE,
            one_time: false,
            recommended: false,
            same_as_hashes: &[],
            tag: $t,
            framing: Framing::Tag,
            bound: BoundRule::Published { eps_log2: $eps },
            summary: "UMAC (RFC 4418): UHASH (NH, POLY, L3) and an AES pad; nonce 1 to 16 bytes",
            source: "RFC 4418",
        }
    };
}

macro_rules! vmac {
    ($name:literal, $t:expr, $eps:expr) => {
        MacDesc {
            name: $name,
            catalog_name: concat!("mac-", $name),
            hash: Hash::Vhash,
            finish: Finish::Vmac,
            key_parts: &[("K", 16)],
            key_sizes: &[16, 24, 32],
            hash_key: 0..0,
            nonce: VMAC_NONCE,
            one_time: false,
        recommended: false,
        same_as_hashes: &[],
            tag: $t,
            framing: Framing::Tag,
            bound: BoundRule::Published { eps_log2: $eps },
            summary: "VMAC-AES (draft-krovetz-vmac-01): VHASH and an AES pad; nonce 1 to 16 bytes, a 16-byte one with its top bit clear",
            source: "draft-krovetz-vmac-01",
        }
    };
}

/// Every named MAC, in the wire format's order.
pub static MACS: &[MacDesc] = &[
    MacDesc {
        name: "hash127",
        catalog_name: "mac-hash127",
        hash: Hash::Hash127,
        finish: Finish::OneTimePad,
        key_parts: &[("r", 16), ("k", 16)],
        key_sizes: &[32],
        hash_key: 0..16,
        nonce: Nonce::None,
        one_time: true,
        recommended: false,
        same_as_hashes: &["hash127", "hash127-raw"],
        tag: 16,
        framing: Framing::Tag,
        bound: BoundRule::Hash127OneTime,
        summary: "k + hash127_r(M) mod p: ONE message per key",
        source: BERNSTEIN_FP,
    },
    MacDesc {
        name: "hash127-aes",
        catalog_name: "mac-hash127-aes",
        hash: Hash::Hash127,
        finish: Finish::Scramble,
        key_parts: R_K,
        key_sizes: &[32],
        hash_key: 0..16,
        nonce: Nonce::None,
        one_time: false,
        recommended: true,
        same_as_hashes: &[],
        tag: 16,
        framing: Framing::Tag,
        bound: BoundRule::Hash127Scramble,
        summary: "AES_K(hash127_r(M)), stateless (protocol 2)",
        source: BERNSTEIN_FP,
    },
    MacDesc {
        name: "hash127-aes-nonce",
        catalog_name: "mac-hash127-aes-nonce",
        hash: Hash::Hash127,
        finish: Finish::NonceScramble,
        key_parts: R_K,
        key_sizes: &[32],
        hash_key: 0..16,
        nonce: NONCE16,
        one_time: false,
        recommended: false,
        same_as_hashes: &[],
        tag: 16,
        framing: Framing::Tag,
        bound: BoundRule::Hash127NonceScramble,
        summary: "AES_K(AES_K(n) xor hash127_r(M)) (protocol 3)",
        source: BERNSTEIN_FP,
    },
    MacDesc {
        name: "hash127-aes-add",
        catalog_name: "mac-hash127-aes-add",
        hash: Hash::Hash127,
        finish: Finish::NoncePadP127,
        key_parts: R_K,
        key_sizes: &[32],
        hash_key: 0..16,
        nonce: NONCE16,
        one_time: false,
        recommended: false,
        same_as_hashes: &[],
        tag: 16,
        framing: Framing::Tag,
        bound: BoundRule::Hash127Pad,
        summary: "AES_K(n) + hash127_r(M) mod p (protocol 1)",
        source: BERNSTEIN_FP,
    },
    MacDesc {
        name: "hash127-96",
        catalog_name: "mac-hash127-96",
        hash: Hash::Hash127,
        finish: Finish::OneTime96,
        key_parts: &[("r", 16), ("k", 16), ("u", 16)],
        key_sizes: &[48],
        hash_key: 0..16,
        nonce: Nonce::None,
        one_time: true,
        recommended: false,
        same_as_hashes: &[],
        tag: 12,
        framing: Framing::Tag,
        bound: BoundRule::Hash127OneTime96,
        summary: "low 96 bits of (k + hash127_r(M)·u) mod p: ONE message per key",
        source: BERNSTEIN_FP,
    },
    wc_shoup64!("wc-eval64", Kind::Eval64, "AES_K(n)[0..8] xor eval64(g, M)"),
    wc_shoup64!("wc-division64", Kind::Division64, "AES_K(n)[0..8] xor division64(g, M)"),
    wc_shoup64!("wc-gdivision64", Kind::GDivision64, "AES_K(n)[0..8] xor gdivision64(g, M)"),
    wc_tree!("wc-mmh32x1", Block::Mmh32x1, 4, DeltaGroup::Words32, "AES_K(n)[0..4] + tree-mmh32x1(s, M) mod 2^32 word by word", MMH),
    wc_tree!("wc-mmh32x2", Block::Mmh32x2, 8, DeltaGroup::Words32, "AES_K(n)[0..8] + tree-mmh32x2(s, M) mod 2^32 word by word", MMH),
    wc_tree!("wc-mmh32x3", Block::Mmh32x3, 12, DeltaGroup::Words32, "AES_K(n)[0..12] + tree-mmh32x3(s, M) mod 2^32 word by word", MMH),
    wc_tree!("wc-mmh32x4", Block::Mmh32x4, 16, DeltaGroup::Words32, "AES_K(n)[0..16] + tree-mmh32x4(s, M) mod 2^32 word by word", MMH),
    wc_tree!("wc-nmh32", Block::Nmh32, 4, DeltaGroup::Words32, "AES_K(n)[0..4] + tree-nmh32(s, M) mod 2^32", MMH),
    wc_tree!("wc-mmh64", Block::Mmh64, 8, DeltaGroup::Integer, "AES_K(n)[0..8] + tree-mmh64(s, M) mod 2^64", MMH),
    wc_tree!("wc-sqh32-asm", Block::Sqh32Asm, 4, DeltaGroup::Integer, "AES_K(n)[0..4] + tree-sqh32-asm(s, M) mod 2^32", SQH),
    wc_tree!("wc-sqh32-e", Block::Sqh32E, 4, DeltaGroup::Integer, "AES_K(n)[0..4] + tree-sqh32-e(s, M) mod 2^32", SQH),
    wc_tree!("wc-sqh64-asm", Block::Sqh64Asm, 8, DeltaGroup::Integer, "AES_K(n)[0..8] + tree-sqh64-asm(s, M) mod 2^64", SQH),
    wc_tree!("wc-sqh64-e", Block::Sqh64E, 8, DeltaGroup::Integer, "AES_K(n)[0..8] + tree-sqh64-e(s, M) mod 2^64", SQH),
    wc_tree!("wc-sqh96-asm", Block::Sqh96Asm, 12, DeltaGroup::Integer, "AES_K(n)[0..12] + tree-sqh96-asm(s, M) mod 2^96", SQH),
    wc_tree!("wc-sqh96-e", Block::Sqh96E, 12, DeltaGroup::Integer, "AES_K(n)[0..12] + tree-sqh96-e(s, M) mod 2^96", SQH),
    wc_tree!("wc-sqh128-asm", Block::Sqh128Asm, 16, DeltaGroup::Integer, "AES_K(n) + tree-sqh128-asm(s, M) mod 2^128", SQH),
    wc_tree!("wc-sqh128-e", Block::Sqh128E, 16, DeltaGroup::Integer, "AES_K(n) + tree-sqh128-e(s, M) mod 2^128", SQH),
    MacDesc {
        name: "wc-eval128",
        catalog_name: "mac-wc-eval128",
        hash: Hash::Eval128,
        finish: Finish::Pad(DeltaGroup::Xor),
        key_parts: &[("K", 16), ("alpha", 16)],
        key_sizes: &[32],
        hash_key: 16..32,
        nonce: NONCE16,
        one_time: false,
        recommended: false,
        same_as_hashes: &[],
        tag: 16,
        framing: Framing::Tag,
        bound: BoundRule::Shoup,
        summary: "AES_K(n) xor eval128(alpha, M) (Theorem 2)",
        source: SHOUP,
    },
    MacDesc {
        name: "shoup3-eval128",
        catalog_name: "mac-shoup3-eval128",
        hash: Hash::Eval128,
        finish: Finish::Shoup3,
        key_parts: &[("K", 16), ("beta", 16), ("alpha", 16)],
        key_sizes: &[48],
        hash_key: 32..48,
        nonce: NONCE16,
        one_time: false,
        recommended: false,
        same_as_hashes: &[],
        tag: 16,
        framing: Framing::Tag,
        bound: BoundRule::Shoup,
        summary: "AES_K(n) xor beta*n xor eval128(alpha, M) (Theorem 3)",
        source: SHOUP,
    },
    MacDesc {
        name: "shoup4-eval64",
        catalog_name: "mac-shoup4-eval64",
        hash: Hash::Shoup64(Kind::Eval64),
        finish: Finish::Shoup4,
        key_parts: &[("K_f", 16), ("K_g", 16), ("alpha", 8), ("g", 8)],
        key_sizes: &[48],
        hash_key: 40..48,
        nonce: Nonce::RandomPair { len: 16 },
        one_time: false,
        recommended: false,
        same_as_hashes: &[],
        tag: 8,
        framing: Framing::PairThenTag,
        bound: BoundRule::Shoup,
        summary: "f(r) xor g(s) xor alpha*r*s xor eval64(g, M), r || s drawn at random per message and sent before the tag (Theorem 4)",
        source: SHOUP,
    },
    MacDesc {
        name: "shoup4-division64",
        catalog_name: "mac-shoup4-division64",
        hash: Hash::Shoup64(Kind::Division64),
        finish: Finish::Shoup4,
        key_parts: &[("K_f", 16), ("K_g", 16), ("alpha", 8), ("g", 8)],
        key_sizes: &[48],
        hash_key: 40..48,
        nonce: Nonce::RandomPair { len: 16 },
        one_time: false,
        recommended: false,
        same_as_hashes: &[],
        tag: 8,
        framing: Framing::PairThenTag,
        bound: BoundRule::Shoup,
        summary: "f(r) xor g(s) xor alpha*r*s xor division64(g, M), r || s drawn at random per message and sent before the tag (Theorem 4)",
        source: SHOUP,
    },
    umac!("umac32", 4, -30),
    umac!("umac64", 8, -60),
    umac!("umac96", 12, -90),
    umac!("umac128", 16, -120),
    vmac!("vmac64", 8, -60),
    vmac!("vmac128", 16, -120),
];

/// The one-time row whose tag the catalogue name `name` computes: the
/// row's own `mac-` name or one of its [`MacDesc::same_as_hashes`].
pub fn one_time_row(name: &str) -> Option<&'static MacDesc> {
    MACS.iter()
        .find(|d| d.one_time && (d.catalog_name == name || d.same_as_hashes.contains(&name)))
}

/// The row to use unless a reason says otherwise.
pub fn recommended() -> &'static MacDesc {
    MACS.iter()
        .find(|d| d.recommended)
        .expect("the table has a recommended row")
}

/// The row of `name` (`X` or `mac-X`).
pub fn find(name: &str) -> Option<&'static MacDesc> {
    MACS.iter()
        .find(|d| d.name == name || d.catalog_name == name)
}

#[cfg(test)]
#[path = "macs/tests.rs"]
mod tests;
