//! hash127 (Bernstein, *Floating-point arithmetic and message authentication*,
//! seed 000; SPEC §1): `h_r(m) = (r^(l+1) + m_0 r^l + … + m_{l-1} r) mod p`
//! with `p = 2^127 − 1`, plus `k`.
//!
//! [`Key`] expands `r` once; [`Hash127`] streams a message in any chunking.

use std::sync::Arc;

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::registry::{Entry, Info, KeySpec, Params, Stream};
use crate::Error;

pub mod portable;

/// `p = 2^127 − 1`.
pub const P: u128 = (1u128 << 127) - 1;

/// The integer `v_0 + 2^32 v_1 + 2^64 v_2 + 2^96 v_3` of four signed words,
/// reduced mod `p` into `[0, p−1]`.
pub fn words_mod_p(v: [i32; 4]) -> u128 {
    v.iter().enumerate().fold(0, |acc, (i, &w)| {
        portable::add_mod(acc, portable::mul_mod(portable::word_mod_p(w), 1u128 << (32 * i)))
    })
}

/// Four signed little-endian words of a 16-byte string.
pub fn le_words(b: &[u8; 16]) -> [i32; 4] {
    core::array::from_fn(|i| i32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap()))
}

/// The 16-byte little-endian encoding of `x < 2^128`.
pub fn encode(x: u128) -> [u8; 16] {
    x.to_le_bytes()
}

#[derive(Zeroize, ZeroizeOnDrop)]
struct KeyInner {
    r_words: [i32; 4],
    k_words: [i32; 4],
    r: u128,
    k: u128,
}

/// An expanded hash127 key `(r, k)`: computed once, reused for any number of
/// messages, zeroized when the last copy is dropped.
#[derive(Clone)]
pub struct Key {
    inner: Arc<KeyInner>,
}

impl Key {
    /// `r ‖ k`, 32 bytes, each half four signed little-endian words.
    pub fn new(key: &[u8; 32]) -> Key {
        let r = le_words(key[..16].try_into().unwrap());
        let k = le_words(key[16..].try_into().unwrap());
        Key::from_words(r, k)
    }

    /// `r` and `k` as four signed words each (the original package's form).
    pub fn from_words(r: [i32; 4], k: [i32; 4]) -> Key {
        Key {
            inner: Arc::new(KeyInner { r_words: r, k_words: k, r: words_mod_p(r), k: words_mod_p(k) }),
        }
    }

    /// `r mod p`.
    pub fn r(&self) -> u128 {
        self.inner.r
    }

    /// `k mod p`.
    pub fn k(&self) -> u128 {
        self.inner.k
    }
}

/// Streaming hash127 state.
pub struct Hash127 {
    key: Key,
    /// `(r^(n+1) + m_0 r^n + … + m_{n-1} r) / r` for the `n` words so far,
    /// i.e. the Horner accumulator before the final multiplication by `r`.
    acc: u128,
    /// A word not yet complete.
    partial: [u8; 4],
    partial_len: usize,
    bytes: u64,
}

impl Hash127 {
    /// Start hashing under `key`.
    pub fn new(key: &Key) -> Hash127 {
        Hash127 { key: key.clone(), acc: 1, partial: [0; 4], partial_len: 0, bytes: 0 }
    }

    /// Absorb more bytes of the message.
    pub fn update(&mut self, mut data: &[u8]) {
        self.bytes += data.len() as u64;
        if self.partial_len > 0 {
            let take = (4 - self.partial_len).min(data.len());
            self.partial[self.partial_len..self.partial_len + take].copy_from_slice(&data[..take]);
            self.partial_len += take;
            data = &data[take..];
            if self.partial_len < 4 {
                return;
            }
            let w = i32::from_le_bytes(self.partial);
            self.acc = portable::horner_words(self.acc, self.key.r(), &[w]);
            self.partial_len = 0;
        }
        let whole = data.len() / 4 * 4;
        self.acc = portable::horner_bytes(self.acc, self.key.r(), &data[..whole]);
        let rest = &data[whole..];
        self.partial[..rest.len()].copy_from_slice(rest);
        self.partial_len = rest.len();
    }

    /// `hash127-raw`: an error unless the message length is a multiple of 4.
    pub fn finalize_raw(self) -> Result<[u8; 16], Error> {
        if self.partial_len != 0 {
            return Err(Error::Message {
                name: "hash127-raw".into(),
                reason: format!("message length {} is not a multiple of 4", self.bytes),
            });
        }
        Ok(encode(self.finish_words()))
    }

    /// `hash127`: the message padded with `pad(M, 4)`.
    pub fn finalize(mut self) -> [u8; 16] {
        let mut last = [0u8; 4];
        last[..self.partial_len].copy_from_slice(&self.partial[..self.partial_len]);
        last[self.partial_len] = 1;
        let w = i32::from_le_bytes(last);
        self.acc = portable::horner_words(self.acc, self.key.r(), &[w]);
        self.partial_len = 0;
        encode(self.finish_words())
    }

    fn finish_words(&self) -> u128 {
        portable::add_mod(portable::mul_mod(self.acc, self.key.r()), self.key.k())
    }
}

impl Drop for Hash127 {
    fn drop(&mut self) {
        self.acc.zeroize();
        self.partial.zeroize();
    }
}

/// `hash127-raw(key, M)` (SPEC §1): `M` must be a whole number of words.
pub fn hash127_raw(key: &Key, msg: &[u8]) -> Result<[u8; 16], Error> {
    let mut h = Hash127::new(key);
    h.update(msg);
    h.finalize_raw()
}

/// `hash127(key, M)` = `hash127-raw(key, pad(M, 4))` (SPEC §1).
pub fn hash127(key: &Key, msg: &[u8]) -> [u8; 16] {
    let mut h = Hash127::new(key);
    h.update(msg);
    h.finalize()
}

/// The original package's `hash127_little`: signed words in, the four output
/// words (as unsigned) out.
pub fn hash127_words(key: &Key, m: &[i32]) -> [u32; 4] {
    let acc = portable::horner_words(1, key.r(), m);
    let x = portable::add_mod(portable::mul_mod(acc, key.r()), key.k());
    core::array::from_fn(|i| (x >> (32 * i)) as u32)
}

struct RawStream(Hash127);
struct PadStream(Hash127);

impl Stream for RawStream {
    fn update(&mut self, d: &[u8]) {
        self.0.update(d)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        self.0.finalize_raw().map(|o| o.to_vec())
    }
}

impl Stream for PadStream {
    fn update(&mut self, d: &[u8]) {
        self.0.update(d)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.finalize().to_vec())
    }
}

fn key_of(p: &Params<'_>) -> Key {
    Key::new(p.key.try_into().expect("registry checked the key length"))
}

pub(crate) fn catalog() -> Vec<Entry> {
    vec![
        Entry::new(
            Info {
                name: "hash127-raw".into(),
                key: KeySpec::Fixed(32),
                nonce: 0,
                out: 16,
                takes_len: false,
                summary: "hash127 of a whole number of signed 32-bit words (SPEC §1)".into(),
            },
            |p: &Params<'_>| -> Result<Box<dyn Stream>, Error> {
                Ok(Box::new(RawStream(Hash127::new(&key_of(p)))))
            },
        ),
        Entry::new(
            Info {
                name: "hash127".into(),
                key: KeySpec::Fixed(32),
                nonce: 0,
                out: 16,
                takes_len: false,
                summary: "hash127 of any byte string, pad(M, 4) (SPEC §1)".into(),
            },
            |p: &Params<'_>| -> Result<Box<dyn Stream>, Error> {
                Ok(Box::new(PadStream(Hash127::new(&key_of(p)))))
            },
        ),
    ]
}
