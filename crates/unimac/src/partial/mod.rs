use crate::prelude::*;
use zeroize::{Zeroize, Zeroizing};

use crate::error::Error;
use crate::hash127::{self, portable as fp127};
use crate::macs;
use crate::platform::Platform;
use crate::shoup::{self, eval128, gdiv, gf2};
use crate::tree::{self, BlockFamily, TreeKey};

mod arith;
use arith::{add, multiplier, tree_levels, tree_levels_len};
mod stream;
pub use stream::PartialStream;

/// Tree levels a worker hashes on its own: chunks are whole runs of
/// `B^TREE_LEVELS` bytes.
pub(crate) const TREE_LEVELS: usize = 2;

/// The encoding's tag and version.
const MAGIC: &[u8; 4] = b"UMP\x01";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Field {
    /// hash127: integers mod `2^127 − 1`, 4-byte words; `pad(M, 4)` if `pad`.
    P127 {
        pad: bool,
    },
    Eval64,
    Division64,
    GDivision64,
    Eval128,
}

impl Field {
    fn word(self) -> usize {
        match self {
            Field::P127 { .. } => 4,
            Field::Eval128 => 16,
            _ => 8,
        }
    }
    fn pads(self) -> bool {
        !matches!(self, Field::P127 { pad: false })
    }
}

#[derive(Clone)]
enum PartialHash {
    Poly(Field),
    Tree(BlockFamily),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum PartialEnd {
    /// The hash itself (hash127: plus `k`).
    Hash,
    /// The MAC of a row of the table: its finish is the row's engine's
    /// ([`crate::registry::NamedMac`], keyed by the full key).
    Mac(&'static macs::MacDesc),
}

/// What a name is made of.
struct Spec {
    name: String,
    hash: PartialHash,
    finish: PartialEnd,
    key_len: usize,
    /// The bytes of the key the workers get.
    hash_key: core::ops::Range<usize>,
    nonce: usize,
}

/// The canonical (registry) name of `name`: a catalogue name as is, a MAC
/// `X` as `mac-X`.
fn canonical(name: &str) -> String {
    if crate::registry::lookup(name).is_ok() {
        return name.to_string();
    }
    match macs::find(name) {
        Some(d) => d.catalog_name.to_string(),
        None => name.to_string(),
    }
}

/// The field and key bytes of a polynomial hash; `None` for the others.
fn poly_field(h: macs::Hash) -> Option<(Field, usize)> {
    use crate::shoup::Kind;
    match h {
        macs::Hash::Shoup64(Kind::Eval64) => Some((Field::Eval64, 8)),
        macs::Hash::Shoup64(Kind::Division64) => Some((Field::Division64, 8)),
        macs::Hash::Shoup64(Kind::GDivision64) => Some((Field::GDivision64, 8)),
        macs::Hash::Eval128 => Some((Field::Eval128, 16)),
        _ => None,
    }
}

/// What the name is made of: a MAC's from its row of the table; a plain
/// hash's from its name. One-time MACs (and the hashes that compute them)
/// are refused: a partial is finished many times, a one-time key tags once.
fn spec(name: &str) -> Result<Spec, Error> {
    use crate::macs::{Finish as F, Hash as H};
    let name = canonical(name);
    if let Some(d) = macs::one_time_row(&name) {
        return Err(Error::OneTimeOnly(d.name.to_string()));
    }
    let no_partials = || Error::NotImplemented(format!("{name}: no partial hashes for this name"));
    if let Some(d) = macs::MACS.iter().find(|d| d.catalog_name == name) {
        let hash = match (d.hash, d.finish) {
            (H::Hash127, F::Scramble | F::NonceScramble | F::NoncePadP127) => PartialHash::Poly(Field::P127 { pad: true }),
            (h @ (H::Shoup64(_) | H::Eval128), F::Pad(_)) => PartialHash::Poly(poly_field(h).ok_or_else(no_partials)?.0),
            (H::Tree(b), F::Pad(_)) => PartialHash::Tree(b.family()),
            _ => return Err(no_partials()),
        };
        let finish = PartialEnd::Mac(d);
        return Ok(Spec {
            name: name.clone(),
            hash,
            finish,
            key_len: d.default_key_len(),
            hash_key: d.hash_key.clone(),
            nonce: d.nonce.max(),
        });
    }
    match macs::Hash::of_plain_name(&name) {
        Some(H::Tree(b)) => {
            return Ok(Spec {
                name: name.clone(),
                hash: PartialHash::Tree(b.family()),
                finish: PartialEnd::Hash,
                key_len: 16,
                hash_key: 0..16,
                nonce: 0,
            })
        }
        Some(h) => {
            if let Some((f, k)) = poly_field(h) {
                return Ok(Spec {
                    name: name.clone(),
                    hash: PartialHash::Poly(f),
                    finish: PartialEnd::Hash,
                    key_len: k,
                    hash_key: 0..k,
                    nonce: 0,
                });
            }
        }
        None => {}
    }
    if crate::registry::lookup(&name).is_ok() {
        return Err(no_partials());
    }
    Err(Error::UnknownName(name))
}

/// The row of the MAC that the partial API reads `name` as (a catalogue
/// name first, then `X` for `mac-X`), `None` for a plain hash; refused as
/// every partial function refuses it (an unknown name, a one-time MAC, a
/// name without partial hashes). The one reading of a name in the partial
/// path: a front end that checks a MAC's rules before finishing (a
/// caller's nonce) resolves the name with it, never another way.
pub fn mac_row(name: &str) -> Result<Option<&'static macs::MacDesc>, Error> {
    Ok(match spec(name)?.finish {
        PartialEnd::Mac(d) => Some(d),
        PartialEnd::Hash => None,
    })
}

/// Every name [`Partial::hash`] accepts (canonical forms).
pub fn supported_names() -> Vec<String> {
    crate::registry::entries()
        .iter()
        .map(|e| e.info.name.clone())
        .filter(|n| spec(n).is_ok())
        .collect()
}

/// The alignment of chunks of `name`, in bytes: every chunk starts at a
/// multiple of it, and every chunk but the last is a non-zero multiple of it
/// (the word size for the polynomial hashes, `B^2` for a tree of block `B`).
pub fn granularity(name: &str) -> Result<usize, Error> {
    Ok(match spec(name)?.hash {
        PartialHash::Poly(f) => f.word(),
        PartialHash::Tree(fam) => fam.block.pow(TREE_LEVELS as u32),
    })
}

/// The bytes of `name`'s full key that [`Partial::hash`] needs (see the
/// table in the module documentation); an error if the key has the wrong
/// length.
pub fn hash_key<'k>(name: &str, full_key: &'k [u8]) -> Result<&'k [u8], Error> {
    let s = spec(name)?;
    check_len(&s, "key", full_key.len(), s.key_len)?;
    Ok(&full_key[s.hash_key.clone()])
}

fn check_len(s: &Spec, what: &str, got: usize, want: usize) -> Result<(), Error> {
    if got != want {
        if what == "key" {
            return Err(Error::KeyLength {
                name: s.name.clone(),
                expected: want.to_string(),
                got,
            });
        }
        return Err(Error::Invalid(format!(
            "{}: {what} must be {want} bytes, got {got}",
            s.name
        )));
    }
    Ok(())
}

#[derive(Clone)]
enum State {
    /// `value = S(chunk)` (with the leading 1 if the chunk starts the
    /// message), `mult = β^(blocks of the chunk)`; `modulus`: the key
    /// polynomial of division64 / gdivision64 (0 otherwise).
    Poly {
        value: u128,
        mult: u128,
        modulus: u64,
    },
    /// The chunk's bytes at level [`TREE_LEVELS`]; or, if `complete`, the
    /// tree hash of the whole message (shorter than `B^2` bytes).
    Tree { data: Vec<u8>, complete: bool },
}

/// A partial hash of one chunk (or of several adjacent chunks combined) of a
/// message. **As secret as the hash key** (see the module documentation):
/// wiped when dropped, never shown by `Debug`.
#[derive(Clone)]
pub struct Partial {
    name: String,
    offset: u64,
    len: u64,
    last: bool,
    state: State,
}

impl Drop for Partial {
    fn drop(&mut self) {
        match &mut self.state {
            State::Poly {
                value,
                mult,
                modulus,
            } => {
                value.zeroize();
                mult.zeroize();
                modulus.zeroize();
            }
            State::Tree { data, .. } => data.zeroize(),
        }
    }
}

impl core::fmt::Debug for Partial {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Partial")
            .field("name", &self.name)
            .field("offset", &self.offset)
            .field("len", &self.len)
            .field("last", &self.last)
            .field("state", &"<secret>")
            .finish()
    }
}

/// `β^n` (`n` a public length: its bits may steer, `β`'s do not).
fn pow(mul: &dyn Fn(u128, u128) -> u128, beta: u128, mut n: u64) -> u128 {
    let (mut acc, mut b) = (1u128, beta);
    while n > 0 {
        if n & 1 == 1 {
            acc = mul(acc, b);
        }
        b = mul(b, b);
        n >>= 1;
    }
    b.zeroize();
    acc
}

fn invalid(name: &str, reason: impl core::fmt::Display) -> Error {
    Error::Invalid(format!("{name}: partial: {reason}"))
}

/// Whether `name`'s partial is the same few bytes whatever its range's
/// length (a polynomial hash: two field elements), so a range streams in
/// constant memory and partials combine in constant time; a tree's partial
/// keeps its level-`TREE_LEVELS` bytes, a fixed fraction of the range.
pub fn is_constant_size(name: &str) -> Result<bool, Error> {
    Ok(matches!(spec(name)?.hash, PartialHash::Poly(_)))
}

impl Partial {
    /// The partial hash of `chunk`, the bytes at `offset..offset + chunk.len()`
    /// of a message, under `name`'s hash key ([`hash_key`]; for a MAC, not
    /// its cipher key). `last`: the chunk ends the message (it gets the
    /// padding). `offset` must be a multiple of [`granularity`], and a chunk
    /// that is not the last a non-zero multiple of it.
    pub fn hash(
        name: &str,
        hash_key: &[u8],
        offset: u64,
        chunk: &[u8],
        last: bool,
    ) -> Result<Partial, Error> {
        PartialStream::new(name, hash_key, offset)?.finish(chunk, last)
    }

    /// The name (canonical form) this partial was made for.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where the chunk starts in the message.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The chunk's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the chunk is empty (only a last chunk can be).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the chunk ends the message.
    pub fn is_last(&self) -> bool {
        self.last
    }

    /// Whether this covers the whole message (offset 0, and the end): ready
    /// for [`finish_hash`] / [`finish_mac`].
    pub fn is_whole(&self) -> bool {
        self.offset == 0 && self.last
    }

    /// The partial of `self ‖ other`: `other` must start where `self` ends,
    /// under the same name; `self` must not end the message. Associative:
    /// `(a·b)·c` and `a·(b·c)` are the same partial.
    pub fn combine(&self, other: &Partial) -> Result<Partial, Error> {
        let name = &self.name;
        if other.name != *name {
            return Err(invalid(
                name,
                format!("cannot combine with a partial of {}", other.name),
            ));
        }
        if self.last {
            return Err(invalid(
                name,
                "the left chunk ends the message: nothing follows it",
            ));
        }
        if self.offset.checked_add(self.len) != Some(other.offset) {
            return Err(invalid(
                name,
                format!(
                    "chunks are not adjacent: the left one ends at {}, the right one starts at {}",
                    self.offset.saturating_add(self.len),
                    other.offset
                ),
            ));
        }
        let len = self
            .len
            .checked_add(other.len)
            .ok_or_else(|| invalid(name, "length overflows"))?;
        let state = match (&self.state, &other.state) {
            (
                State::Poly {
                    value: va,
                    mult: ma,
                    modulus: pa,
                },
                State::Poly {
                    value: vb,
                    mult: mb,
                    modulus: pb,
                },
            ) => {
                if pa != pb {
                    return Err(invalid(name, "the partials were made under different keys"));
                }
                let PartialHash::Poly(f) = spec(name)?.hash else {
                    unreachable!("a polynomial name")
                };
                // Two partials, no key: the evidence is taken here, once per
                // combination.
                let mul = multiplier(Platform::detect(), f, *pa);
                State::Poly {
                    value: add(f, mul(*va, *mb), *vb),
                    mult: mul(*ma, *mb),
                    modulus: *pa,
                }
            }
            (
                State::Tree {
                    data: da,
                    complete: false,
                },
                State::Tree {
                    data: db,
                    complete: false,
                },
            ) => {
                let mut data = Vec::with_capacity(da.len() + db.len());
                data.extend_from_slice(da);
                data.extend_from_slice(db);
                State::Tree {
                    data,
                    complete: false,
                }
            }
            _ => return Err(invalid(name, "the partials do not fit together")),
        };
        Ok(Partial {
            name: name.clone(),
            offset: self.offset,
            len,
            last: other.last,
            state,
        })
    }

    /// The encoding: `"UMP" 0x01`, the name's length (1 byte) and the name,
    /// offset and length (u64 little-endian each), flags (bit 0: ends the
    /// message; bit 1: a complete tree hash), then for a polynomial hash the
    /// value and `β^blocks` (16 bytes each) and the key polynomial (8 bytes,
    /// zero unless division64/gdivision64), for a tree the number of levels
    /// (1 byte), the data's length (u64) and the data. As secret as the key.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(64 + self.name.len());
        v.extend_from_slice(MAGIC);
        v.push(self.name.len() as u8);
        v.extend_from_slice(self.name.as_bytes());
        v.extend_from_slice(&self.offset.to_le_bytes());
        v.extend_from_slice(&self.len.to_le_bytes());
        let complete = matches!(self.state, State::Tree { complete: true, .. });
        v.push(u8::from(self.last) | (u8::from(complete) << 1));
        match &self.state {
            State::Poly {
                value,
                mult,
                modulus,
            } => {
                v.extend_from_slice(&value.to_le_bytes());
                v.extend_from_slice(&mult.to_le_bytes());
                v.extend_from_slice(&modulus.to_le_bytes());
            }
            State::Tree { data, .. } => {
                v.push(TREE_LEVELS as u8);
                v.extend_from_slice(&(data.len() as u64).to_le_bytes());
                v.extend_from_slice(data);
            }
        }
        v
    }

    /// Parse [`to_bytes`](Self::to_bytes)' encoding, strictly: the tag and
    /// version, a supported name, an aligned chunk, values in their ranges,
    /// the data length a chunk of that length gives, and nothing after.
    pub fn from_bytes(bytes: &[u8]) -> Result<Partial, Error> {
        let bad = |why: &str| Error::Invalid(format!("partial: malformed encoding: {why}"));
        let mut r = Reader(bytes);
        if r.take(4).ok_or_else(|| bad("too short"))? != MAGIC {
            return Err(bad("not a partial of version 1"));
        }
        let n = r.take(1).ok_or_else(|| bad("too short"))?[0] as usize;
        let name = core::str::from_utf8(r.take(n).ok_or_else(|| bad("too short"))?)
            .map_err(|_| bad("name"))?;
        let s = spec(name).map_err(|_| bad("unsupported name"))?;
        if s.name != name {
            return Err(bad("name not in canonical form"));
        }
        let offset = r.u64().ok_or_else(|| bad("too short"))?;
        let len = r.u64().ok_or_else(|| bad("too short"))?;
        let flags = r.take(1).ok_or_else(|| bad("too short"))?[0];
        if flags & !3 != 0 {
            return Err(bad("unknown flags"));
        }
        let (last, complete) = (flags & 1 != 0, flags & 2 != 0);
        let gran = granularity(name)? as u64;
        if !offset.is_multiple_of(gran) || offset.checked_add(len).is_none() {
            return Err(bad("offset"));
        }
        if !last && (len == 0 || !len.is_multiple_of(gran)) {
            return Err(bad("length of a chunk that is not the last"));
        }
        let state = match &s.hash {
            PartialHash::Poly(f) => {
                if complete {
                    return Err(bad("flags"));
                }
                if !f.pads() && !len.is_multiple_of(4) {
                    return Err(bad("hash127-raw length"));
                }
                let value = r.u128().ok_or_else(|| bad("too short"))?;
                let mult = r.u128().ok_or_else(|| bad("too short"))?;
                let modulus = r.u64().ok_or_else(|| bad("too short"))?;
                let in_range = |x: u128| match f {
                    Field::P127 { .. } => x < hash127::P,
                    Field::Eval128 => true,
                    _ => x >> 64 == 0,
                };
                if !in_range(value) || !in_range(mult) {
                    return Err(bad("value out of range"));
                }
                if modulus != 0 && !matches!(f, Field::Division64 | Field::GDivision64) {
                    return Err(bad("key polynomial"));
                }
                State::Poly {
                    value,
                    mult,
                    modulus,
                }
            }
            PartialHash::Tree(fam) => {
                if r.take(1).ok_or_else(|| bad("too short"))?[0] as usize != TREE_LEVELS {
                    return Err(bad("tree levels"));
                }
                let dlen = r.u64().ok_or_else(|| bad("too short"))?;
                let unit = fam.block.pow(TREE_LEVELS as u32) as u64;
                let want = if complete {
                    if !(last && offset == 0 && len < unit) {
                        return Err(bad("flags"));
                    }
                    Some(fam.out as u64)
                } else if last && offset == 0 && len < unit {
                    return Err(bad("flags"));
                } else {
                    let whole = if last { len / unit * unit } else { len };
                    let head = tree_levels_len(fam, whole, false);
                    let tail = if last {
                        tree_levels_len(fam, len - whole, true)
                    } else {
                        Some(0)
                    };
                    head.zip(tail).and_then(|(a, b)| a.checked_add(b))
                };
                if want != Some(dlen) || r.0.len() as u64 != dlen {
                    return Err(bad("tree data length"));
                }
                State::Tree {
                    data: r.take(dlen as usize).expect("length checked").to_vec(),
                    complete,
                }
            }
        };
        if !r.0.is_empty() {
            return Err(bad("trailing bytes"));
        }
        Ok(Partial {
            name: s.name,
            offset,
            len,
            last,
            state,
        })
    }

    /// The hash (without any key part added at the finish) of the whole
    /// message: a polynomial hash's value (`k` not added) or the tree hash.
    fn whole_hash(&self, s: &Spec, full_key: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        if self.name != s.name {
            return Err(invalid(
                &s.name,
                format!("this partial is for {}", self.name),
            ));
        }
        if !self.is_whole() {
            return Err(invalid(
                &s.name,
                format!(
                    "covers bytes {}..{} and does not end the message: not the whole message",
                    self.offset,
                    self.offset.saturating_add(self.len)
                ),
            ));
        }
        check_len(s, "key", full_key.len(), s.key_len)?;
        Ok(Zeroizing::new(match (&self.state, &s.hash) {
            (State::Poly { value, .. }, PartialHash::Poly(f)) => match f {
                Field::Eval64 | Field::Division64 | Field::GDivision64 => {
                    (*value as u64).to_le_bytes().to_vec()
                }
                _ => value.to_le_bytes().to_vec(),
            },
            (
                State::Tree {
                    data,
                    complete: true,
                },
                PartialHash::Tree(_),
            ) => data.clone(),
            (
                State::Tree {
                    data,
                    complete: false,
                },
                PartialHash::Tree(fam),
            ) => {
                let seed: [u8; 16] = full_key[s.hash_key.clone()]
                    .try_into()
                    .expect("length checked");
                let key = TreeKey::new(fam.clone(), &seed);
                let b = fam.block;
                let mut x = Zeroizing::new(data.clone());
                let mut j = TREE_LEVELS;
                loop {
                    let last_level = x.len() < b;
                    x = Zeroizing::new(tree::hash_levels(&key, j..j + 1, &x, true));
                    if last_level {
                        break;
                    }
                    j += 1;
                }
                x.to_vec()
            }
            _ => unreachable!("the state matches the name"),
        }))
    }
}

/// Reads the encoding front to back.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
    fn u128(&mut self) -> Option<u128> {
        self.take(16)
            .map(|b| u128::from_le_bytes(b.try_into().expect("16 bytes")))
    }
}

/// The hash `name` (not a MAC) of the whole message from its partial
/// ([`Partial::is_whole`]), under the name's full key (hash127: `r ‖ k`,
/// the tree modes: `s`, the tree's levels above the workers' computed here).
pub fn finish_hash(name: &str, full_key: &[u8], partial: &Partial) -> Result<Vec<u8>, Error> {
    let s = spec(name)?;
    if s.finish != PartialEnd::Hash {
        return Err(invalid(&s.name, "a MAC: use finish_mac"));
    }
    Ok(partial.whole_hash(&s, full_key)?.to_vec())
}

/// The tag of the MAC `name` on the whole message from its partial
/// ([`Partial::is_whole`]), under the full key (the cipher key and pads are
/// applied here, never by the workers) and the nonce (`None` for the names
/// without one).
pub fn finish_mac(
    name: &str,
    full_key: &[u8],
    nonce: Option<&[u8]>,
    partial: &Partial,
) -> Result<Vec<u8>, Error> {
    let s = spec(name)?;
    let n = s.name.as_str();
    match (s.nonce, nonce) {
        (0, Some(_)) => return Err(Error::UnexpectedNonce(n.into())),
        (k, None) if k > 0 => return Err(Error::MissingNonce(n.into())),
        (k, Some(x)) if x.len() != k => {
            return Err(Error::NonceLength {
                name: n.into(),
                expected: k,
                got: x.len(),
            })
        }
        _ => {}
    }
    let h = partial.whole_hash(&s, full_key)?;
    match s.finish {
        PartialEnd::Hash => Err(invalid(n, "a hash, not a MAC: use finish_hash")),
        PartialEnd::Mac(d) => crate::registry::NamedMac::of_row(d, full_key)?.finish_value(nonce, &h),
    }
}

#[cfg(test)]
mod name_tests {
    use super::*;

    /// The partial path reads a name one way: a catalogue name first, then
    /// `X` for `mac-X` (`mac_row`, the row the nonce rules are checked
    /// against, is `spec`'s, the one every partial function uses).
    #[test]
    fn one_reading_of_a_name() {
        let row = |n: &str| mac_row(n).map(|d| d.map(|d| d.name));
        assert_eq!(row("wc-eval64").unwrap(), Some("wc-eval64"));
        assert_eq!(row("mac-wc-eval64").unwrap(), Some("wc-eval64"));
        assert_eq!(row("hash127-aes").unwrap(), Some("hash127-aes"));
        assert_eq!(row("eval64").unwrap(), None);
        // `hash127` is both a one-time MAC and a catalogue hash: the hash is
        // read (and refused, since it computes the one-time MAC), never the
        // MAC's row.
        assert!(macs::find("hash127").is_some() && crate::registry::lookup("hash127").is_ok());
        assert!(matches!(mac_row("hash127"), Err(Error::OneTimeOnly(_))));
        assert_eq!(mac_row("hash127").unwrap_err(), finish_mac("hash127", &[0; 32], None, &Partial::hash("eval64", &[1; 8], 0, b"", true).unwrap()).unwrap_err());
        assert!(matches!(mac_row("no-such-mac"), Err(Error::UnknownName(_))));
    }
}
