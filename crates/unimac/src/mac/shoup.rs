use crate::prelude::*;
use crate::cipher::Aes128;
use alloc::sync::Arc;
use zeroize::Zeroizing;

use super::{aes_block, aes_of, nonce16};
use crate::error::Error;
use crate::shoup::eval128::Eval128;
use crate::shoup::{gf128, Hasher, Kind};
use crate::traits::{Keyed, Stream};
use crate::tag::{verify_tag, MacError, Tag};

fn xor_into<const N: usize>(h: [u8; N], pad: &[u8]) -> [u8; N] {
    let h = Zeroizing::new(h);
    core::array::from_fn(|i| h[i] ^ pad[i])
}

// ---------------------------------------------------------------------------
// wc-eval64, wc-division64, wc-gdivision64, typed
// ---------------------------------------------------------------------------

/// `mac-wc-eval64`, `mac-wc-division64` or `mac-wc-gdivision64` (docs/WIRE.md §8.4),
/// typed: `AES_K(n)[0..8] ⊕ H(g, M)` with `H` one of Shoup's 64-bit hashes.
/// Key `K` (16) ‖ `g` (8); a nonce must never repeat under one key. The same
/// tags as the names through [`crate::registry`], without the by-name layer.
///
/// ```
/// use unimac::unstable::mac::shoup::WcShoup64;
/// use unimac::unstable::shoup::Kind;
///
/// let mac = WcShoup64::new(Kind::Eval64, &[7u8; 24]);
/// let nonce = 5u128.to_le_bytes();
/// let tag = mac.tag(&nonce, b"attack at dawn");
/// assert!(mac.verify(&nonce, b"attack at dawn", &tag).is_ok());
/// let by_name = unimac::registry::NamedMac::new("wc-eval64", &[7u8; 24]).unwrap();
/// assert_eq!(by_name.tag(Some(&nonce), b"attack at dawn").unwrap(), tag.as_bytes());
/// ```
#[derive(Clone)]
pub struct WcShoup64 {
    aes: Arc<Aes128>,
    hash: Hasher,
}

impl WcShoup64 {
    /// `K ‖ g`, 24 bytes, for the hash `kind`.
    pub fn new(kind: Kind, key: &[u8; 24]) -> WcShoup64 {
        let g = Zeroizing::new(<[u8; 8]>::try_from(&key[16..]).expect("8 bytes"));
        WcShoup64 {
            aes: Arc::new(aes_of(&key[..16])),
            hash: Hasher::new(kind, &g),
        }
    }
    /// The tag of `msg` under `nonce` (one-shot, no allocation).
    pub fn tag(&self, nonce: &[u8; 16], msg: &[u8]) -> Tag<8> {
        Tag::new(xor_into(
            self.hash.hash(msg),
            &aes_block(&self.aes, nonce)[..8],
        ))
    }
    /// `Ok(())` if `tag` is the tag of `msg` under `nonce` (constant-time
    /// comparison).
    pub fn verify(
        &self,
        nonce: &[u8; 16],
        msg: &[u8],
        tag: impl AsRef<[u8]>,
    ) -> Result<(), MacError> {
        self.tag(nonce, msg).verify_slice(tag.as_ref())
    }
    /// Start tagging a message under `nonce` (never repeat a nonce under one
    /// key).
    pub fn start(&self, nonce: &[u8; 16]) -> WcShoup64Stream {
        let pad = aes_block(&self.aes, nonce);
        WcShoup64Stream {
            hash: self.hash.clone(),
            pad: Zeroizing::new(pad[..8].try_into().expect("8 bytes")),
        }
    }
}

/// A `wc-eval64` / `wc-division64` / `wc-gdivision64` tag under way.
pub struct WcShoup64Stream {
    hash: Hasher,
    pad: Zeroizing<[u8; 8]>,
}

impl Stream for WcShoup64Stream {
    fn update(&mut self, data: &[u8]) {
        self.hash.update(data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        let s = *self;
        Ok(xor_into(s.hash.finalize(), &*s.pad).to_vec())
    }
}

impl Keyed for WcShoup64 {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        let n = nonce16(nonce.unwrap_or_default(), "wc-eval64")?;
        Ok(Box::new(self.start(&n)))
    }
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let n = nonce16(nonce.unwrap_or_default(), "wc-eval64")?;
        crate::traits::put(out, self.tag(&n, msg).as_ref())
    }
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let n = nonce16(nonce.unwrap_or_default(), "wc-eval64")?;
        Ok(self.tag(&n, msg).as_bytes().to_vec())
    }
}

// ---------------------------------------------------------------------------
// wc-eval128 and shoup3-eval128
// ---------------------------------------------------------------------------

/// `mac-wc-eval128`: `AES_K(n) ⊕ eval128(α, M)`. Key `K` (16) ‖ `α` (16);
/// a nonce must never repeat under one key.
#[derive(Clone)]
pub struct WcEval128 {
    aes: Arc<Aes128>,
    hash: Eval128,
}

/// `mac-shoup3-eval128`: `AES_K(n) ⊕ β·n ⊕ eval128(α, M)`, `β·n` in
/// GF(2^128) with the nonce read as an element. Key `K` (16) ‖ `β` (16) ‖ `α`
/// (16); a nonce must never repeat under one key.
#[derive(Clone)]
pub struct Shoup3Eval128 {
    aes: Aes128,
    beta: Zeroizing<u128>,
    hash: Eval128,
}

impl WcEval128 {
    /// `K ‖ α`, 32 bytes.
    pub fn new(key: &[u8; 32]) -> WcEval128 {
        let alpha = Zeroizing::new(<[u8; 16]>::try_from(&key[16..]).expect("16 bytes"));
        WcEval128 {
            aes: Arc::new(aes_of(&key[..16])),
            hash: Eval128::new(&alpha),
        }
    }
    fn pad(&self, nonce: &[u8; 16]) -> Zeroizing<[u8; 16]> {
        aes_block(&self.aes, nonce)
    }
}

impl Shoup3Eval128 {
    /// `K ‖ β ‖ α`, 48 bytes.
    pub fn new(key: &[u8; 48]) -> Shoup3Eval128 {
        let alpha = Zeroizing::new(<[u8; 16]>::try_from(&key[32..]).expect("16 bytes"));
        let beta = Zeroizing::new(u128::from_le_bytes(
            key[16..32].try_into().expect("16 bytes"),
        ));
        Shoup3Eval128 {
            aes: aes_of(&key[..16]),
            beta,
            hash: Eval128::new(&alpha),
        }
    }
    /// `AES_K(n) ⊕ β·n`.
    fn pad(&self, nonce: &[u8; 16]) -> Zeroizing<[u8; 16]> {
        let f = aes_block(&self.aes, nonce);
        let bn = Zeroizing::new(gf128::mul(*self.beta, u128::from_le_bytes(*nonce)));
        Zeroizing::new((u128::from_le_bytes(*f) ^ *bn).to_le_bytes())
    }
}

macro_rules! nonce_xor_api {
    ($t:ident, $name:literal) => {
        // Shoup3Eval128 is reached by name outside the reference build.
        #[cfg_attr(not(feature = "unstable"), allow(dead_code))]
        impl $t {
            /// Start tagging a message under the nonce `n` (never repeat a nonce
            /// under one key).
            pub fn start(&self, nonce: &[u8; 16]) -> Eval128MacStream {
                Eval128MacStream {
                    hash: self.hash.clone(),
                    pad: self.pad(nonce),
                }
            }
            /// The tag of `msg` under `nonce` (one-shot: no stream buffer).
            pub fn tag(&self, nonce: &[u8; 16], msg: &[u8]) -> Tag<16> {
                Tag::new(xor_into(self.hash.oneshot(msg), &*self.pad(nonce)))
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

        impl Keyed for $t {
            fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
                let n = nonce16(nonce.unwrap_or_default(), $name)?;
                Ok(Box::new(self.start(&n)))
            }
            fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
                let n = nonce16(nonce.unwrap_or_default(), $name)?;
                Ok(self.tag(&n, msg).as_bytes().to_vec())
            }
            fn compute_into(
                &self,
                nonce: Option<&[u8]>,
                msg: &[u8],
                out: &mut [u8],
            ) -> Result<usize, Error> {
                let n = nonce16(nonce.unwrap_or_default(), $name)?;
                crate::traits::put(out, self.tag(&n, msg).as_ref())
            }
        }
    };
}
nonce_xor_api!(WcEval128, "wc-eval128");
nonce_xor_api!(Shoup3Eval128, "shoup3-eval128");

/// A `wc-eval128` or `shoup3-eval128` tag under way.
pub struct Eval128MacStream {
    hash: Eval128,
    pad: Zeroizing<[u8; 16]>,
}

impl Eval128MacStream {
    /// Absorb more of the message.
    pub(crate) fn update(&mut self, data: &[u8]) {
        self.hash.update(data);
    }
    /// The tag: the pad ⊕ `eval128(α, M)`.
    pub fn finalize(self) -> [u8; 16] {
        xor_into(self.hash.finalize(), &*self.pad)
    }
}

impl Stream for Eval128MacStream {
    fn update(&mut self, data: &[u8]) {
        Eval128MacStream::update(self, data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(Eval128MacStream::finalize(*self).to_vec())
    }
}

// ---------------------------------------------------------------------------
// shoup4: stateless, r ‖ s random per message (Theorem 4)
// ---------------------------------------------------------------------------

/// The hash `H` of a `shoup4-` MAC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shoup4Hash {
    /// `shoup4-eval64`.
    Eval64,
    /// `shoup4-division64`.
    Division64,
}

impl Shoup4Hash {
    fn kind(self) -> Kind {
        match self {
            Shoup4Hash::Eval64 => Kind::Eval64,
            Shoup4Hash::Division64 => Kind::Division64,
        }
    }
    /// The wire name without `mac-`.
    pub fn name(self) -> &'static str {
        match self {
            Shoup4Hash::Eval64 => "shoup4-eval64",
            Shoup4Hash::Division64 => "shoup4-division64",
        }
    }
}

/// A fresh `r ‖ s` (8 + 8 bytes) from the operating system's random generator:
/// what [`Shoup4::tag`] uses, for callers that finish a `shoup4-` tag through
/// [`NamedMac::start_deferred`](crate::registry::NamedMac::start_deferred) (the CLI).
pub(crate) fn random_rs() -> Result<[u8; 16], Error> {
    let mut rs = [0u8; 16];
    crate::rng::fill(&mut rs)
        .map_err(|e| Error::Invalid(format!("no random r || s from the OS: {e}")))?;
    Ok(rs)
}

/// What a `shoup4-` MAC sends: the random pair `r ‖ s` and the tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shoup4Tag {
    /// `r ‖ s`, 8 + 8 bytes, drawn afresh for the message.
    pub rs: [u8; 16],
    /// `f(r) ⊕ g(s) ⊕ α r s ⊕ H(M)`.
    pub tag: [u8; 8],
}

impl Shoup4Tag {
    /// `r ‖ s ‖ tag`, 24 bytes: the MAC as sent.
    pub fn to_bytes(self) -> [u8; 24] {
        let mut b = [0u8; 24];
        b[..16].copy_from_slice(&self.rs);
        b[16..].copy_from_slice(&self.tag);
        b
    }
    /// Split `r ‖ s ‖ tag`; `None` unless 24 bytes.
    pub fn from_bytes(b: &[u8]) -> Option<Shoup4Tag> {
        let b: &[u8; 24] = b.try_into().ok()?;
        Some(Shoup4Tag {
            rs: b[..16].try_into().expect("16"),
            tag: b[16..].try_into().expect("8"),
        })
    }
}

/// `mac-shoup4-eval64` / `mac-shoup4-division64` (Shoup Theorem 4): key `K_f`
/// (16) ‖ `K_g` (16) ‖ `α` (8) ‖ `g` (8); tag `f(r) ⊕ g(s) ⊕ α r s ⊕ H(g, M)` in
/// GF(2^64), `f(r) = AES(K_f, r ‖ 0^8)[0..8]`, `g(s) = AES(K_g, s ‖ 0^8)[0..8]`.
#[derive(Clone)]
pub struct Shoup4 {
    which: Shoup4Hash,
    f: Aes128,
    g: Aes128,
    alpha: Zeroizing<u64>,
    hash: Hasher,
}

/// A `shoup4-` tag under way (its `r ‖ s` already chosen).
pub struct Shoup4Stream {
    hash: Hasher,
    rs: [u8; 16],
    pad: Zeroizing<[u8; 8]>,
}

#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
impl Shoup4 {
    /// `K_f ‖ K_g ‖ α ‖ g`, 48 bytes.
    pub fn new(which: Shoup4Hash, key: &[u8; 48]) -> Shoup4 {
        let alpha = Zeroizing::new(u64::from_le_bytes(key[32..40].try_into().expect("8 bytes")));
        let g = Zeroizing::new(<[u8; 8]>::try_from(&key[40..48]).expect("8 bytes"));
        Shoup4 {
            which,
            f: aes_of(&key[..16]),
            g: aes_of(&key[16..32]),
            alpha,
            hash: Hasher::new(which.kind(), &g),
        }
    }

    /// Which hash.
    pub fn hash(&self) -> Shoup4Hash {
        self.which
    }

    /// `f(r) ⊕ g(s) ⊕ α r s`.
    fn pad(&self, rs: &[u8; 16]) -> Zeroizing<[u8; 8]> {
        let mut x = Zeroizing::new([0u8; 16]);
        x[..8].copy_from_slice(&rs[..8]);
        let fr = aes_block(&self.f, &x);
        x[..8].copy_from_slice(&rs[8..]);
        let gs = aes_block(&self.g, &x);
        let r = u64::from_le_bytes(rs[..8].try_into().expect("8 bytes"));
        let s = u64::from_le_bytes(rs[8..].try_into().expect("8 bytes"));
        let p = self.hash.platform();
        let ars = Zeroizing::new(crate::shoup::mul_f_on(
            p,
            crate::shoup::mul_f_on(p, *self.alpha, r),
            s,
        ));
        let le = |b: &[u8]| u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
        Zeroizing::new((le(&*fr) ^ le(&*gs) ^ *ars).to_le_bytes())
    }

    /// Draw a fresh `r ‖ s` from the operating system and start tagging.
    pub fn start(&self) -> Result<Shoup4Stream, Error> {
        Ok(self.start_with_rs_for_known_answers(&random_rs()?))
    }

    /// Start tagging with a GIVEN `r ‖ s`: only for known answers. A MAC
    /// sender must use [`start`](Self::start) / [`tag`](Self::tag), which draw
    /// it at random (Theorem 4 assumes `r`, `s` uniform and independent).
    pub fn start_with_rs_for_known_answers(&self, rs: &[u8; 16]) -> Shoup4Stream {
        Shoup4Stream {
            hash: self.hash.clone(),
            rs: *rs,
            pad: self.pad(rs),
        }
    }

    /// Tag `msg` under a fresh random `r ‖ s`; send [`Shoup4Tag::to_bytes`].
    pub fn tag(&self, msg: &[u8]) -> Result<Shoup4Tag, Error> {
        let rs = random_rs()?;
        Ok(Shoup4Tag {
            rs,
            tag: self.tag_with_rs_for_known_answers(&rs, msg),
        })
    }

    /// The tag of `msg` under a GIVEN `r ‖ s`: only for known answers
    /// (one-shot: no stream state, no allocation).
    pub fn tag_with_rs_for_known_answers(&self, rs: &[u8; 16], msg: &[u8]) -> [u8; 8] {
        xor_into(self.hash.hash(msg), &*self.pad(rs))
    }

    /// `Ok(())` if `sent` (`r ‖ s ‖ tag`, 24 bytes) authenticates `msg`
    /// (constant-time comparison of the tag; any other length is a mismatch).
    pub fn verify(&self, msg: &[u8], sent: impl AsRef<[u8]>) -> Result<(), MacError> {
        let t = Shoup4Tag::from_bytes(sent.as_ref()).ok_or(MacError)?;
        verify_tag(&self.tag_with_rs_for_known_answers(&t.rs, msg), &t.tag)
    }
}

impl Shoup4Stream {
    /// Absorb more of the message.
    pub(crate) fn update(&mut self, data: &[u8]) {
        self.hash.update(data);
    }
    /// The pair `r ‖ s` and the tag.
    pub fn finalize(self) -> Shoup4Tag {
        Shoup4Tag {
            rs: self.rs,
            tag: xor_into(self.hash.finalize(), &*self.pad),
        }
    }
}

/// The MAC as sent: `r ‖ s ‖ tag`, 24 bytes.
impl Stream for Shoup4Stream {
    fn update(&mut self, data: &[u8]) {
        Shoup4Stream::update(self, data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(Shoup4Stream::finalize(*self).to_bytes().to_vec())
    }
}

/// The registry's view of a `shoup4-` name: the "nonce" is the pair `r ‖ s`
/// of a known answer, and the output the 8-byte tag (docs/WIRE.md §8.5, §9.5).
pub(crate) struct Shoup4Known(Shoup4);

/// A `shoup4-` tag under a given pair, its output the 8-byte tag alone.
pub(crate) struct Shoup4KnownStream(Shoup4Stream);

impl Shoup4Known {
    /// A known-answer stream of `m` under the pair `rs`.
    pub(crate) fn stream(m: &Shoup4, rs: &[u8; 16]) -> Shoup4KnownStream {
        Shoup4KnownStream(m.start_with_rs_for_known_answers(rs))
    }
}

impl Stream for Shoup4KnownStream {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.finalize().tag.to_vec())
    }
}

impl Keyed for Shoup4Known {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        let rs = nonce16(nonce.unwrap_or_default(), self.0.which.name())?;
        Ok(Box::new(Shoup4KnownStream(
            self.0.start_with_rs_for_known_answers(&rs),
        )))
    }
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let rs = nonce16(nonce.unwrap_or_default(), self.0.which.name())?;
        Ok(self.0.tag_with_rs_for_known_answers(&rs, msg).to_vec())
    }
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let rs = nonce16(nonce.unwrap_or_default(), self.0.which.name())?;
        crate::traits::put(out, &self.0.tag_with_rs_for_known_answers(&rs, msg))
    }
}

// ---------------------------------------------------------------------------
// By name
// ---------------------------------------------------------------------------

/// The pad of a name of this module under its key: what
/// [`NamedMac::start_deferred`](crate::registry::NamedMac::start_deferred) applies to the hash
/// once the nonce (or `r ‖ s`) is given.
pub(crate) struct DeferredPad(Box<PadFn>);

type PadFn = dyn Fn(&[u8; 16]) -> Zeroizing<Vec<u8>> + Send + Sync;

/// A hash stream and the pad that finishes it.
pub(crate) type Deferred = (Box<dyn Stream>, DeferredPad);

impl DeferredPad {
    pub(crate) fn apply(&self, nonce: &[u8; 16], h: &[u8]) -> Result<Vec<u8>, Error> {
        let pad = (self.0)(nonce);
        if pad.len() != h.len() {
            return Err(Error::Invalid(format!(
                "hash gave {} bytes, expected {}",
                h.len(),
                pad.len()
            )));
        }
        Ok(h.iter().zip(pad.iter()).map(|(a, b)| a ^ b).collect())
    }
}

impl WcShoup64 {
    /// A message started before its nonce is known, from this key's set-up.
    pub(crate) fn start_deferred(&self) -> (Box<dyn Stream>, Arc<Aes128>) {
        (
            Box::new(Shoup4HashOnly(self.hash.clone())),
            Arc::clone(&self.aes),
        )
    }
}

impl WcShoup64 {
    /// `AES_K(n)[0..8] ⊕ h` for a hash value `h` hashed elsewhere (the
    /// partial hashes).
    pub(crate) fn finish_value(&self, nonce: &[u8; 16], h: &[u8; 8]) -> [u8; 8] {
        xor_into(*h, &aes_block(&self.aes, nonce)[..8])
    }
}

impl WcEval128 {
    /// `AES_K(n) ⊕ h` for a hash value `h` hashed elsewhere (the partial
    /// hashes).
    pub(crate) fn finish_value(&self, nonce: &[u8; 16], h: &[u8; 16]) -> [u8; 16] {
        xor_into(*h, &*self.pad(nonce))
    }

    /// A message started before its nonce is known, from this key's set-up.
    pub(crate) fn start_deferred(&self) -> (Box<dyn Stream>, Arc<Aes128>) {
        (
            Box::new(Eval128HashOnly(self.hash.clone())),
            Arc::clone(&self.aes),
        )
    }
}

impl Shoup3Eval128 {
    /// The hash stream and the pad of a message started before its nonce is
    /// known, from this key's set-up.
    pub(crate) fn start_deferred(&self) -> Deferred {
        let m = self.clone();
        let s: Box<dyn Stream> = Box::new(Eval128HashOnly(m.hash.clone()));
        (
            s,
            DeferredPad(Box::new(move |n| Zeroizing::new(m.pad(n).to_vec()))),
        )
    }
}

impl Shoup4 {
    /// The hash stream and the pad of a message whose pair `r ‖ s` is drawn
    /// at the end, from this key's set-up.
    pub(crate) fn start_deferred(&self) -> Deferred {
        let m = self.clone();
        let s: Box<dyn Stream> = Box::new(Shoup4HashOnly(m.hash.clone()));
        (
            s,
            DeferredPad(Box::new(move |rs| Zeroizing::new(m.pad(rs).to_vec()))),
        )
    }
}

struct Eval128HashOnly(Eval128);

impl Stream for Eval128HashOnly {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.finalize().to_vec())
    }
}

struct Shoup4HashOnly(Hasher);

impl Stream for Shoup4HashOnly {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.finalize().to_vec())
    }
}
