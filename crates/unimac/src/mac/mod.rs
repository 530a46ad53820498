use crate::prelude::*;
use alloc::sync::Arc;

use crate::cipher::Aes128;
use zeroize::Zeroizing;

use crate::error::Error;
use crate::group::DeltaGroup;
use crate::hash127::{self, Hash127};
use crate::macs::MacDesc;
use crate::traits::{BlockFamily, DeferredNonce, Keyed, Stream};
use crate::tag::{verify_tag, MacError, Tag};
use crate::tree::{Tree, TreeKey};

mod hash127_96;
mod pending;
pub use pending::Pending;
pub(crate) use pending::PendingFinish;
pub use hash127_96::{Hash127OneTime96, Hash127x96Stream};

/// `p = 2^127 − 1`.
const P: u128 = hash127::P;

/// `AES(K, x)` of the wire format (docs/WIRE.md §1).
fn aes_block(aes: &Aes128, x: &[u8; 16]) -> Zeroizing<[u8; 16]> {
    Zeroizing::new(aes_raw(aes, x))
}

/// `AES(K, x)` by value, the cipher's working block wiped; the caller wipes
/// what it keeps (or returns it as a tag, which is public).
#[inline(always)]
fn aes_raw(aes: &Aes128, x: &[u8; 16]) -> [u8; 16] {
    let mut b = aes::Block::default();
    crate::block::set_bytes(&mut b, x);
    aes.encrypt_block(&mut b);
    let out = <[u8; 16]>::from(b);
    // The cipher's output lives on in `b` otherwise.
    wipe16(b.as_mut());
    out
}

/// Overwrite a 16-byte secret with zeros in one store that the optimiser
/// keeps (`black_box` makes the zeros observed), instead of `Zeroize`'s
/// sixteen volatile byte stores: on a short message those stores cost as
/// much as a quarter of the tag.
#[inline(always)]
fn wipe16(x: &mut [u8; 16]) {
    *x = [0; 16];
    core::hint::black_box(x);
}

/// `a mod p` for any `a < 2^128`, without a data-dependent branch:
/// `a = 2^127 hi + lo ≡ hi + lo`, and `hi + lo ≤ 2^127` so one conditional
/// subtraction (done with a mask) finishes.
fn reduce128(a: u128) -> u128 {
    let s = (a >> 127) + (a & P); // ≤ 1 + (2^127 − 1) = 2^127
    sub_p_if_ge(s)
}

/// `s − p` if `s ≥ p`, else `s`, for `s < 2p`; constant time.
fn sub_p_if_ge(s: u128) -> u128 {
    let t = s.wrapping_sub(P);
    // `t` has its top bit set exactly when `s < p` (as s < 2p < 2^128).
    let keep_s = 0u128.wrapping_sub(t >> 127);
    (s & keep_s) | (t & !keep_s)
}

/// The hash127 key `r ‖ 0^16` of the AES protocols.
fn r_only(key: &[u8]) -> hash127::Key {
    let mut k = Zeroizing::new([0u8; 32]);
    k[..16].copy_from_slice(&key[..16]);
    hash127::Key::new(&k)
}

fn aes_of(k: &[u8]) -> Aes128 {
    Aes128::from_slice(k)
}

fn nonce16(nonce: &[u8], name: &str) -> Result<[u8; 16], Error> {
    nonce.try_into().map_err(|_| Error::NonceLength {
        name: name.into(),
        expected: 16,
        got: nonce.len(),
    })
}

// ---------------------------------------------------------------------------
// hash127 protocols (Bernstein, "Floating-point arithmetic and message
// authentication", §§8–9)
// ---------------------------------------------------------------------------

/// `mac-hash127`: `s = (k + h_r(M)) mod p` (Bernstein, §8). The key `r ‖ k`
/// authenticates ONE message: a second message under the same key reveals
/// `h_r(m) − h_r(m')` and voids Theorem 8.2. So the type is not `Clone`, and
/// tagging consumes it; checking a tag does not.
///
/// ```
/// use unimac::mac::Hash127OneTime;
/// let k = Hash127OneTime::new(&[5u8; 32]);
/// assert!(k.verify(b"msg", &[0u8; 16]).is_err());
/// let tag = k.tag(b"msg"); // `k` is gone: no second tag under this key
/// assert!(Hash127OneTime::new(&[5u8; 32]).verify(b"msg", tag.as_bytes()).is_ok());
/// ```
pub struct Hash127OneTime {
    key: hash127::Key,
}

impl Hash127OneTime {
    /// `r ‖ k`, 32 bytes.
    pub fn new(key: &[u8; 32]) -> Self {
        Hash127OneTime {
            key: hash127::Key::new(key),
        }
    }
    /// Start tagging the one message of this key.
    pub fn start(self) -> Hash127Stream {
        self.stream()
    }
    fn stream(&self) -> Hash127Stream {
        Hash127Stream {
            h: Hash127::new(&self.key),
            finish: Hash127End::OneTime,
        }
    }
    fn compute(&self, msg: &[u8]) -> [u8; 16] {
        // `k` is in the hash127 key: the hash is the tag (one-shot, the
        // short path's precomputed powers once the key has them).
        hash127::hash127(&self.key, msg)
    }
    /// The tag of `msg`, the one message of this key.
    pub fn tag(self, msg: &[u8]) -> Tag<16> {
        Tag::new(self.compute(msg))
    }
    /// `Ok(())` if `tag` is the tag of `msg` (constant-time comparison); does
    /// not spend the key.
    pub fn verify(&self, msg: &[u8], tag: impl AsRef<[u8]>) -> Result<(), MacError> {
        verify_tag(&self.compute(msg), tag.as_ref())
    }
}

/// `mac-hash127-aes`: `AES_K(h_r(M))`, protocol 2 "scrambling" of Bernstein's §9
/// with Rijndael as the random function `f`. Stateless: no nonce.
#[derive(Clone)]
pub struct Hash127Aes {
    r: hash127::Key,
    aes: Arc<Aes128>,
}

/// `mac-hash127-aes-nonce`: `AES_K(AES_K(n) ⊕ h_r(M))`, protocol 3 "one-time
/// scrambling" of Bernstein's §9, `f(n, h) = AES_K(AES_K(n) ⊕ h)`.
#[derive(Clone)]
pub struct Hash127AesNonce {
    r: hash127::Key,
    aes: Arc<Aes128>,
}

/// `mac-hash127-aes-add`: `(AES_K(n) + h_r(M)) mod p`, protocol 1 "one-time
/// pad" of Bernstein's §9, with `f(n) = AES_K(n)` read as an unsigned integer.
#[derive(Clone)]
pub struct Hash127AesAdd {
    r: hash127::Key,
    aes: Arc<Aes128>,
}

macro_rules! r_k_constructor {
    ($t:ident) => {
        impl $t {
            /// `r ‖ K`, 32 bytes: `r` the hash127 key (four signed words),
            /// `K` the AES-128 key.
            pub fn new(key: &[u8; 32]) -> Self {
                $t {
                    r: r_only(key),
                    aes: Arc::new(aes_of(&key[16..])),
                }
            }
        }
    };
}
r_k_constructor!(Hash127Aes);
r_k_constructor!(Hash127AesNonce);
r_k_constructor!(Hash127AesAdd);

impl Hash127Aes {
    /// Start tagging a message.
    pub fn start(&self) -> Hash127Stream {
        Hash127Stream {
            h: Hash127::new(&self.r),
            finish: Hash127End::Scramble(Arc::clone(&self.aes)),
        }
    }
    /// The tag of `msg` (one-shot: no stream buffer, no allocation).
    pub fn tag(&self, msg: &[u8]) -> Tag<16> {
        let mut h = hash127::hash127(&self.r, msg);
        let t = aes_raw(&self.aes, &h);
        wipe16(&mut h);
        Tag::new(t)
    }
    /// `Ok(())` if `tag` is the tag of `msg` (constant-time comparison).
    pub fn verify(&self, msg: &[u8], tag: impl AsRef<[u8]>) -> Result<(), MacError> {
        self.tag(msg).verify_slice(tag.as_ref())
    }
}

macro_rules! nonce_api {
    ($t:ident, $finish:expr, $oneshot:expr) => {
        // Typed with the reference feature; by name otherwise.
        #[cfg_attr(not(feature = "unstable"), allow(dead_code))]
        impl $t {
            /// Start tagging a message under the nonce `n`; a nonce must never
            /// repeat under one key.
            pub fn start(&self, nonce: &[u8; 16]) -> Hash127Stream {
                Hash127Stream {
                    h: Hash127::new(&self.r),
                    finish: self.finish(nonce),
                }
            }
            fn finish(&self, nonce: &[u8; 16]) -> Hash127End {
                let pad = aes_block(&self.aes, nonce);
                #[allow(clippy::redundant_closure_call)]
                ($finish)(self, pad)
            }
            /// The tag of the hash value `h` (a message's `h_r(M)`, hashed
            /// elsewhere: the partial hashes) under the nonce `n`.
            pub(crate) fn finish_value(&self, nonce: &[u8; 16], h: &[u8; 16]) -> [u8; 16] {
                let mut pad = aes_raw(&self.aes, nonce);
                #[allow(clippy::redundant_closure_call)]
                let t = ($oneshot)(self, &pad, h);
                wipe16(&mut pad);
                t
            }
            /// The tag of `msg` under the nonce `n` (one-shot: no stream buffer).
            pub fn tag(&self, nonce: &[u8; 16], msg: &[u8]) -> Tag<16> {
                let mut pad = aes_raw(&self.aes, nonce);
                let mut h = hash127::hash127(&self.r, msg);
                #[allow(clippy::redundant_closure_call)]
                let t = ($oneshot)(self, &pad, &h);
                wipe16(&mut pad);
                wipe16(&mut h);
                Tag::new(t)
            }
            /// `Ok(())` if `tag` is the tag of `msg` under `nonce`
            /// (constant-time comparison).
            pub fn verify(
                &self,
                nonce: &[u8; 16],
                msg: &[u8],
                tag: impl AsRef<[u8]>,
            ) -> Result<(), MacError> {
                self.tag(nonce, msg).verify_slice(tag.as_ref())
            }
        }
    };
}
nonce_api!(
    Hash127AesNonce,
    |s: &Hash127AesNonce, pad| Hash127End::OneTimeScramble(Arc::clone(&s.aes), pad),
    |s: &Hash127AesNonce, pad: &[u8; 16], h: &[u8; 16]| scramble_pad(&s.aes, pad, h)
);
nonce_api!(
    Hash127AesAdd,
    |_s: &Hash127AesAdd, pad| Hash127End::OneTimePad(pad),
    |_s: &Hash127AesAdd, pad: &[u8; 16], h: &[u8; 16]| add_pad(pad, h)
);

/// `AES_K(pad ⊕ h)` (protocol 3's finish), the sum wiped.
#[inline(always)]
fn scramble_pad(aes: &Aes128, pad: &[u8; 16], h: &[u8; 16]) -> [u8; 16] {
    let mut x = (u128::from_le_bytes(*pad) ^ u128::from_le_bytes(*h)).to_le_bytes();
    let t = aes_raw(aes, &x);
    wipe16(&mut x);
    t
}

/// `(f + h) mod p` with `f = pad` read as an integer below `2^128` (protocol
/// 1's finish): `f` reduced into `[0, p−1]`, `h ∈ [0, p−1]`, the sum below
/// `2p`, so one conditional subtraction.
#[inline(always)]
fn add_pad(pad: &[u8; 16], h: &[u8; 16]) -> [u8; 16] {
    let f = reduce128(u128::from_le_bytes(*pad));
    sub_p_if_ge(f + u128::from_le_bytes(*h)).to_le_bytes()
}

/// What is done with `h_r(M)` at the end.
enum Hash127End {
    /// `k` is already in the hash127 key: the hash is the tag.
    OneTime,
    /// `AES_K(h)` (the schedule shared with the key, not copied per message).
    Scramble(Arc<Aes128>),
    /// `AES_K(AES_K(n) ⊕ h)`, holding `AES_K(n)`.
    OneTimeScramble(Arc<Aes128>, Zeroizing<[u8; 16]>),
    /// `(AES_K(n) + h) mod p`, holding `AES_K(n)`.
    OneTimePad(Zeroizing<[u8; 16]>),
}

/// A hash127 MAC under way: feed the message in any chunking.
pub struct Hash127Stream {
    h: Hash127,
    finish: Hash127End,
}

impl Hash127Stream {
    /// Absorb more of the message.
    pub(crate) fn update(&mut self, data: &[u8]) {
        self.h.update(data);
    }
    /// The tag.
    pub fn finalize(self) -> [u8; 16] {
        self.finish.apply(self.h.finalize())
    }
}

impl Hash127End {
    /// The tag from the hash `h = h_r(M)`.
    fn apply(&self, mut h: [u8; 16]) -> [u8; 16] {
        let t = match self {
            Hash127End::OneTime => h,
            Hash127End::Scramble(aes) => aes_raw(aes, &h),
            Hash127End::OneTimeScramble(aes, pad) => scramble_pad(aes, pad, &h),
            Hash127End::OneTimePad(pad) => add_pad(pad, &h),
        };
        wipe16(&mut h);
        t
    }
}

impl Stream for Hash127Stream {
    fn try_clone(&self) -> Option<Box<dyn Stream>> {
        // Only `hash127-aes` (no nonce, key kept): the others hold a
        // one-time pad or key.
        match &self.finish {
            Hash127End::Scramble(aes) => Some(Box::new(Hash127Stream {
                h: self.h.clone(),
                finish: Hash127End::Scramble(Arc::clone(aes)),
            })),
            _ => None,
        }
    }
    fn update(&mut self, data: &[u8]) {
        Hash127Stream::update(self, data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(Hash127Stream::finalize(*self).to_vec())
    }
}

// ---------------------------------------------------------------------------
// Wegman–Carter over any keyed hash (Shoup §1; Halevi and Krawczyk §2.3)
// ---------------------------------------------------------------------------

/// A keyed hash `H(g, M)` with a fixed output length: what the Wegman–Carter
/// construction needs. Implemented for the tree mode of every block function
/// ([`TreeHash`]) and for any hash by name ([`crate::registry::NamedHash`],
/// e.g. `hash127` or `eval64`).
pub trait KeyedHash: Send + Sync {
    /// The wire name of `H` (e.g. `eval64`, `mmh32x2`).
    fn name(&self) -> &str;
    /// Bytes of the hash key `g`.
    fn key_len(&self) -> usize;
    /// Output bytes `O` (at most 16: the pad is one AES block).
    fn out_len(&self) -> usize;
    /// The group in which `H` is proven almost-Δ-universal: the MAC adds its
    /// pad there (docs/WIRE.md §8.4). XOR unless the hash says otherwise.
    fn group(&self) -> DeltaGroup {
        DeltaGroup::Xor
    }
    /// Start hashing under `key` (`key.len() == key_len()`).
    fn start(&self, key: &[u8]) -> Result<Box<dyn Stream>, Error>;
    /// `H` under `key` with its key set-up done once, if this hash has such a
    /// form (`None`: every message goes through [`start`](Self::start)).
    /// [`WegmanCarter`] keys its hash this way once.
    fn keyed(&self, key: &[u8]) -> Result<Option<Box<dyn Keyed>>, Error> {
        let _ = key;
        Ok(None)
    }
}

/// `tree-F` (docs/WIRE.md §6) as a keyed hash; its key is the 16-byte key-stream seed `s`.
#[derive(Clone)]
pub struct TreeHash(BlockFamily);

impl TreeHash {
    /// The tree mode of the block function `block`.
    pub fn new(block: crate::tree::Block) -> TreeHash {
        TreeHash(block.family())
    }
}

impl KeyedHash for TreeHash {
    fn name(&self) -> &str {
        &self.0.name
    }
    fn key_len(&self) -> usize {
        16
    }
    fn out_len(&self) -> usize {
        self.0.out
    }
    fn group(&self) -> DeltaGroup {
        self.0.group
    }
    fn start(&self, key: &[u8]) -> Result<Box<dyn Stream>, Error> {
        let s: [u8; 16] = key.try_into().map_err(|_| Error::KeyLength {
            name: format!("tree-{}", self.0.name),
            expected: "16".into(),
            got: key.len(),
        })?;
        let s = Zeroizing::new(s);
        Ok(Box::new(Tree::of_family(self.0.clone(), &s)))
    }
    fn keyed(&self, key: &[u8]) -> Result<Option<Box<dyn Keyed>>, Error> {
        let s: [u8; 16] = key.try_into().map_err(|_| Error::KeyLength {
            name: format!("tree-{}", self.0.name),
            expected: "16".into(),
            got: key.len(),
        })?;
        let s = Zeroizing::new(s);
        Ok(Some(Box::new(Arc::new(TreeKey::new(self.0.clone(), &s)))))
    }
}

impl<H: KeyedHash + ?Sized> KeyedHash for Box<H> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn key_len(&self) -> usize {
        (**self).key_len()
    }
    fn out_len(&self) -> usize {
        (**self).out_len()
    }
    fn group(&self) -> DeltaGroup {
        (**self).group()
    }
    fn start(&self, key: &[u8]) -> Result<Box<dyn Stream>, Error> {
        (**self).start(key)
    }
    fn keyed(&self, key: &[u8]) -> Result<Option<Box<dyn Keyed>>, Error> {
        (**self).keyed(key)
    }
}

/// The Wegman–Carter MAC `(n, AES_K(n)[0..O] ⋆ H(g, M))` of Shoup (§1)
/// and Halevi and Krawczyk (§2.3) over a keyed hash `H` with `O`-byte
/// output, `⋆` the group of `H` ([`KeyedHash::group`]: XOR for Shoup's
/// hashes, addition mod `2^32` word by word or mod `2^(8O)` for MMH, NMH and
/// Square Hash). Key: `K` (16 bytes) ‖ `g`.
pub struct WegmanCarter<H: KeyedHash> {
    hash: H,
    aes: Arc<Aes128>,
    hkey: Zeroizing<Vec<u8>>,
    /// `H` under `g`, set up once ([`KeyedHash::keyed`]), if it has that form.
    keyed: Option<Box<dyn Keyed>>,
}

#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
impl<H: KeyedHash> WegmanCarter<H> {
    /// `K ‖ g`: 16 bytes of AES key, then `hash.key_len()` bytes of hash key.
    pub fn new(hash: H, key: &[u8]) -> Result<Self, Error> {
        if hash.out_len() > 16 {
            return Err(Error::Invalid(format!(
                "wc-{}: output longer than one AES block",
                hash.name()
            )));
        }
        let want = 16 + hash.key_len();
        if key.len() != want {
            return Err(Error::KeyLength {
                name: format!("wc-{}", hash.name()),
                expected: want.to_string(),
                got: key.len(),
            });
        }
        let keyed = hash.keyed(&key[16..])?;
        Ok(WegmanCarter {
            aes: Arc::new(aes_of(&key[..16])),
            hkey: Zeroizing::new(key[16..].to_vec()),
            hash,
            keyed,
        })
    }

    /// `AES_K(n)[0..O] ⋆ h` for a hash value `h` hashed elsewhere (the
    /// partial hashes).
    pub(crate) fn finish_value(&self, nonce: &[u8; 16], h: &[u8]) -> Result<Vec<u8>, Error> {
        let o = self.hash.out_len();
        if h.len() != o {
            return Err(Error::Invalid(format!("hash gave {} bytes, expected {o}", h.len())));
        }
        let mut t = vec![0u8; o];
        self.hash.group().combine(&aes_block(&self.aes, nonce)[..o], h, &mut t);
        Ok(t)
    }

    /// The hash `H`.
    pub fn hash(&self) -> &H {
        &self.hash
    }

    /// Tag length `O`.
    pub fn tag_len(&self) -> usize {
        self.hash.out_len()
    }

    /// Start tagging a message under the nonce `n` (never repeat a nonce
    /// under one key).
    pub fn start(&self, nonce: &[u8; 16]) -> Result<WcStream, Error> {
        let pad = aes_block(&self.aes, nonce);
        let inner = match &self.keyed {
            Some(k) => k.start()?,
            None => self.hash.start(&self.hkey)?,
        };
        Ok(WcStream {
            inner,
            pad,
            out: self.hash.out_len(),
            group: self.hash.group(),
        })
    }

    /// A message of the MAC of row `d` started before its nonce is known,
    /// from this key's set-up (the hash's keyed object where it has one:
    /// a tree's level keys are derived once, not per message).
    pub(crate) fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        let inner = match &self.keyed {
            Some(k) => k.start()?,
            None => self.hash.start(&self.hkey)?,
        };
        let finish = PendingFinish::Wc(Arc::clone(&self.aes), self.hash.out_len(), self.hash.group());
        Ok(Pending::other(inner, finish, d))
    }

    /// The tag of `msg` under `nonce` (one-shot: the hash's own one-shot
    /// path where it has one).
    pub fn tag(&self, nonce: &[u8; 16], msg: &[u8]) -> Result<Vec<u8>, Error> {
        let mut t = [0u8; 16];
        let n = self.tag_into(nonce, msg, &mut t)?;
        Ok(t[..n].to_vec())
    }

    /// [`tag`](Self::tag) into `out` (at least [`tag_len`](Self::tag_len)
    /// bytes); the tag's length is returned. No allocation where the hash
    /// has a one-shot path.
    pub fn tag_into(&self, nonce: &[u8; 16], msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let o = self.hash.out_len();
        let mut h = Zeroizing::new([0u8; 16]);
        let n = match &self.keyed {
            Some(k) => k.compute_into(None, msg, &mut h[..])?,
            None => {
                let mut s = self.hash.start(&self.hkey)?;
                s.update(msg);
                crate::traits::put(&mut h[..], &Zeroizing::new(s.finalize()?))?
            }
        };
        if n != o {
            return Err(Error::Invalid(format!("hash gave {n} bytes, expected {o}")));
        }
        let have = out.len();
        let out = out
            .get_mut(..o)
            .ok_or_else(|| Error::Invalid(format!("output buffer of {have} bytes, {o} needed")))?;
        self.hash
            .group()
            .combine(&aes_block(&self.aes, nonce)[..o], &h[..o], out);
        Ok(o)
    }
    /// `Ok(())` if `tag` is the tag of `msg` under `nonce` (constant-time
    /// comparison); `Err(Error::TagMismatch)` if not.
    pub fn verify(&self, nonce: &[u8; 16], msg: &[u8], tag: impl AsRef<[u8]>) -> Result<(), Error> {
        Ok(verify_tag(&self.tag(nonce, msg)?, tag.as_ref())?)
    }
}

/// A Wegman–Carter tag under way.
pub struct WcStream {
    inner: Box<dyn Stream>,
    pad: Zeroizing<[u8; 16]>,
    out: usize,
    group: DeltaGroup,
}

impl WcStream {
    /// Absorb more of the message.
    pub(crate) fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }
    /// `AES_K(n)[0..O] ⋆ H(g, M)` in the hash's group.
    pub fn finalize(self) -> Result<Vec<u8>, Error> {
        let h = Zeroizing::new(self.inner.finalize()?);
        if h.len() != self.out {
            return Err(Error::Invalid(format!(
                "hash gave {} bytes, expected {}",
                h.len(),
                self.out
            )));
        }
        let mut t = vec![0u8; self.out];
        self.group.combine(&self.pad[..], &h, &mut t);
        Ok(t)
    }
}

impl Stream for WcStream {
    fn update(&mut self, data: &[u8]) {
        WcStream::update(self, data)
    }
    fn striper(&self) -> Option<crate::stripe::Striper> {
        self.inner.striper()
    }
    fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        self.inner.absorb_stripe(s)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        WcStream::finalize(*self)
    }
}

// The keyed objects of the `mac-` names (key set-up once; the registry has
// checked each nonce against the name before these run).

impl Keyed for Hash127Aes {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(self.start()))
    }
    fn compute(&self, _nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(self.tag(msg).as_bytes().to_vec())
    }
    fn compute_into(
        &self,
        _nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        crate::traits::put(out, self.tag(msg).as_ref())
    }
}

impl Keyed for Hash127AesNonce {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        let n = nonce16(nonce.unwrap_or_default(), "hash127-aes-nonce")?;
        Ok(Box::new(self.start(&n)))
    }
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let n = nonce16(nonce.unwrap_or_default(), "hash127-aes-nonce")?;
        Ok(self.tag(&n, msg).as_bytes().to_vec())
    }
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let n = nonce16(nonce.unwrap_or_default(), "hash127-aes-nonce")?;
        crate::traits::put(out, self.tag(&n, msg).as_ref())
    }
}

impl Keyed for Hash127AesAdd {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        let n = nonce16(nonce.unwrap_or_default(), "hash127-aes-add")?;
        Ok(Box::new(self.start(&n)))
    }
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let n = nonce16(nonce.unwrap_or_default(), "hash127-aes-add")?;
        Ok(self.tag(&n, msg).as_bytes().to_vec())
    }
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let n = nonce16(nonce.unwrap_or_default(), "hash127-aes-add")?;
        crate::traits::put(out, self.tag(&n, msg).as_ref())
    }
}

impl<H: KeyedHash> WegmanCarter<H> {
    fn nonce_of(&self, nonce: Option<&[u8]>) -> Result<[u8; 16], Error> {
        // The name is formatted only on the error path (not per message).
        match nonce.map(<[u8; 16]>::try_from) {
            Some(Ok(n)) => Ok(n),
            _ => nonce16(
                nonce.unwrap_or_default(),
                &format!("wc-{}", self.hash.name()),
            ),
        }
    }
}

impl<H: KeyedHash> Keyed for WegmanCarter<H> {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(self.start(&self.nonce_of(nonce)?)?))
    }
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        self.tag(&self.nonce_of(nonce)?, msg)
    }
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.tag_into(&self.nonce_of(nonce)?, msg, out)
    }
}

pub mod shoup;

#[cfg(test)]
mod tests;
