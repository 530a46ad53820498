//! The typed MAC behind each reusable name: the one place a MAC joins the
//! by-name table.
//!
//! A row of the table ([`crate::macs::MACS`]) names a hash and a finish;
//! [`Engine::new`] turns the row and a key into the typed MAC that computes
//! it, once, when the key is set up. Everything the by-name interface does
//! with a key ([`NamedMac`](super::NamedMac), the known answers, the
//! deferred nonce of [`Pending`], the partial hashes' finish) goes through
//! the trait [`MacEngine`], which each typed MAC implements below.
//!
//! To add a reusable MAC: implement [`MacEngine`] for its type in this
//! file, add a line `Variant(Type),` to the `engines!` list, and an arm to
//! [`Engine::new`] for its row's `(hash, finish)`. The list generates the
//! enum and every forwarding `match`, so the compiler holds the list and the
//! trait together: a type without the trait, or a method without an arm,
//! does not build. docs/ARCHITECTURE.md has the whole recipe.
//!
//! The engines differ in size (UMAC's and VMAC's key tables are inline);
//! boxing them would add a pointer chase to every tag, which is what
//! choosing the engine at key set-up saves. The forwarding `match` is
//! inlined into each caller, so a tag by name is one branch and the typed
//! call.

use crate::prelude::*;
use zeroize::Zeroizing;

use super::{KeySpec, Keyed, Stream};
use crate::error::Error;
use crate::group::DeltaGroup;
use crate::mac::shoup::{Shoup3Eval128, Shoup4, Shoup4Hash, Shoup4Known, WcEval128, WcShoup64};
use crate::mac::{
    Hash127Aes, Hash127AesAdd, Hash127AesNonce, Pending, PendingFinish, TreeHash, WegmanCarter,
};
use crate::macs::{Finish, Hash, MacDesc};
use crate::shoup::Kind;
use crate::tag::verify_tag;
use crate::umac::Umac;
use crate::vmac::Vmac;

/// The longest output of a `mac-` name: a `shoup4-` tag with its random pair.
pub(super) const MAX_TAG: usize = 32;

/// What the by-name interface needs of a typed MAC, keyed once. Nonces are
/// checked against the row before these are called; a method that can still
/// meet a nonce of the wrong length says so.
pub(crate) trait MacEngine {
    /// The tag of `msg` as sent, into `out`; its length is returned.
    fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error>;

    /// `Ok(())` if `tag` (as sent) is the tag of `msg`, in constant time.
    fn verify(&self, nonce: Option<&[u8]>, msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        let mut want = Zeroizing::new([0u8; MAX_TAG]);
        let n = self.tag_into(nonce, msg, &mut want[..])?;
        Ok(verify_tag(&want[..n], tag)?)
    }

    /// Start a message; the output is the tag as sent.
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error>;

    /// Start a message whose tag is checked against one received (for
    /// `shoup4-` the received pair `r ‖ s` is the nonce).
    fn start_check(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start(nonce)
    }

    /// The row's known answer for the given inputs (for `shoup4-` the
    /// caller's pair gives the 8-byte tag alone).
    fn known_answer_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.tag_into(nonce, msg, out)
    }

    /// Start a message of row `d` before its nonce is known, from the key
    /// set up once (no AES schedule, hash key or table per message).
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error>;

    /// The tag of a hash value `h` computed elsewhere (the partial hashes
    /// of [`crate::partial`]), for the rows whose hash has partials.
    fn finish_value(&self, d: &MacDesc, nonce: Option<&[u8]>, h: &[u8]) -> Result<Vec<u8>, Error> {
        let _ = (nonce, h);
        Err(Error::NotImplemented(format!("{}: no partial hashes for this name", d.name)))
    }
}

/// The list of engines: one line each, `Variant(Type)`. It generates
/// [`Engine`] and its forwarding methods, one `match` per method.
macro_rules! engines {
    ($($v:ident($t:ty),)*) => {
        /// The typed MAC of a reusable row, keyed once.
        #[allow(clippy::large_enum_variant)]
        pub(crate) enum Engine {
            $($v($t),)*
        }

        impl Engine {
            #[inline(always)]
            pub(crate) fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                match self { $(Engine::$v(m) => MacEngine::tag_into(m, nonce, msg, out),)* }
            }
            pub(crate) fn verify(&self, nonce: Option<&[u8]>, msg: &[u8], tag: &[u8]) -> Result<(), Error> {
                match self { $(Engine::$v(m) => MacEngine::verify(m, nonce, msg, tag),)* }
            }
            pub(crate) fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
                match self { $(Engine::$v(m) => MacEngine::start(m, nonce),)* }
            }
            pub(crate) fn start_check(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
                match self { $(Engine::$v(m) => MacEngine::start_check(m, nonce),)* }
            }
            pub(crate) fn known_answer_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                match self { $(Engine::$v(m) => MacEngine::known_answer_into(m, nonce, msg, out),)* }
            }
            pub(crate) fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
                match self { $(Engine::$v(m) => MacEngine::start_deferred(m, d),)* }
            }
            pub(crate) fn finish_value(&self, d: &MacDesc, nonce: Option<&[u8]>, h: &[u8]) -> Result<Vec<u8>, Error> {
                match self { $(Engine::$v(m) => MacEngine::finish_value(m, d, nonce, h),)* }
            }
        }
    };
}

engines! {
    Scramble(Hash127Aes),
    NonceScramble(Hash127AesNonce),
    NoncePad(Hash127AesAdd),
    Shoup64(WcShoup64),
    Tree(WegmanCarter<TreeHash>),
    Eval128(WcEval128),
    Shoup3(Shoup3Eval128),
    Shoup4(Shoup4),
    Umac4(Umac<4>),
    Umac8(Umac<8>),
    Umac12(Umac<12>),
    Umac16(Umac<16>),
    Vmac8(Vmac<8>),
    Vmac16(Vmac<16>),
}

impl Engine {
    /// The typed MAC of `d` under `key` (length checked); one-time rows are
    /// refused ([`Error::OneTimeOnly`]).
    pub(crate) fn new(d: &'static MacDesc, key: &[u8]) -> Result<Engine, Error> {
        if !d.accepts_key(key.len()) {
            return Err(key_error(d, key.len()));
        }
        Ok(match (d.hash, d.finish) {
            (_, Finish::OneTimePad | Finish::OneTime96) => {
                return Err(Error::OneTimeOnly(d.name.to_string()))
            }
            (Hash::Hash127, Finish::Scramble) => Engine::Scramble(Hash127Aes::new(&*fixed(d, key)?)),
            (Hash::Hash127, Finish::NonceScramble) => {
                Engine::NonceScramble(Hash127AesNonce::new(&*fixed(d, key)?))
            }
            (Hash::Hash127, Finish::NoncePadP127) => Engine::NoncePad(Hash127AesAdd::new(&*fixed(d, key)?)),
            (Hash::Shoup64(h), Finish::Pad(_)) => Engine::Shoup64(WcShoup64::new(h, &*fixed(d, key)?)),
            (Hash::Shoup64(h), Finish::Shoup4) => {
                let which = match h {
                    Kind::Eval64 => Shoup4Hash::Eval64,
                    Kind::Division64 => Shoup4Hash::Division64,
                    Kind::GDivision64 => return Err(Error::NotImplemented(d.name.to_string())),
                };
                Engine::Shoup4(Shoup4::new(which, &*fixed(d, key)?))
            }
            (Hash::Tree(b), Finish::Pad(_)) => Engine::Tree(WegmanCarter::new(TreeHash::new(b), key)?),
            (Hash::Eval128, Finish::Pad(_)) => Engine::Eval128(WcEval128::new(&*fixed(d, key)?)),
            (Hash::Eval128, Finish::Shoup3) => Engine::Shoup3(Shoup3Eval128::new(&*fixed(d, key)?)),
            (Hash::Uhash, Finish::Umac) => {
                let k = fixed::<16>(d, key)?;
                match d.tag {
                    4 => Engine::Umac4(Umac::new(&k)),
                    8 => Engine::Umac8(Umac::new(&k)),
                    12 => Engine::Umac12(Umac::new(&k)),
                    _ => Engine::Umac16(Umac::new(&k)),
                }
            }
            (Hash::Vhash, Finish::Vmac) => match d.tag {
                8 => Engine::Vmac8(Vmac::new(key)?),
                _ => Engine::Vmac16(Vmac::new(key)?),
            },
            _ => return Err(Error::NotImplemented(d.name.to_string())),
        })
    }
}

/// The error of a key of the wrong length for row `d`.
pub(super) fn key_error(d: &MacDesc, got: usize) -> Error {
    Error::KeyLength {
        name: d.name.to_string(),
        expected: KeySpec::OneOf(d.key_sizes).describe(),
        got,
    }
}

#[cold]
#[inline(never)]
pub(super) fn short_buffer(have: usize, need: usize) -> Error {
    Error::Invalid(format!("output buffer of {have} bytes, {need} needed"))
}

fn fixed<const N: usize>(d: &MacDesc, key: &[u8]) -> Result<Zeroizing<[u8; N]>, Error> {
    let k: [u8; N] = key.try_into().map_err(|_| key_error(d, key.len()))?;
    Ok(Zeroizing::new(k))
}

/// `t` into the front of `out`, or the error naming both lengths.
#[inline(always)]
fn put<const N: usize>(out: &mut [u8], t: &[u8; N]) -> Result<usize, Error> {
    match out.get_mut(..N) {
        Some(o) => {
            o.copy_from_slice(t);
            Ok(N)
        }
        None => Err(short_buffer(out.len(), N)),
    }
}

/// The 16-byte nonce of the rows that take one.
#[inline(always)]
fn n16(nonce: Option<&[u8]>) -> Result<&[u8; 16], Error> {
    #[cold]
    fn not16() -> Error {
        Error::Invalid("nonce must be 16 bytes".into())
    }
    nonce.unwrap_or_default().try_into().map_err(|_| not16())
}

/// The nonce of a partial hash's finish: missing or short is a missing nonce.
fn finish_nonce(d: &MacDesc, nonce: Option<&[u8]>) -> Result<[u8; 16], Error> {
    nonce.unwrap_or_default().try_into().map_err(|_| Error::MissingNonce(d.name.to_string()))
}

/// A partial hash's value of 16 bytes.
fn value16<'h>(d: &MacDesc, h: &'h [u8]) -> Result<&'h [u8; 16], Error> {
    h.try_into().map_err(|_| bad_value(d, h))
}

fn bad_value(d: &MacDesc, h: &[u8]) -> Error {
    Error::Invalid(format!("{}: a hash value of {} bytes", d.name, h.len()))
}

/// The 16-byte pair `r ‖ s` a `shoup4-` tag was sent with.
fn pair16(nonce: Option<&[u8]>) -> Result<&[u8; 16], Error> {
    nonce.unwrap_or_default().try_into().map_err(|_| Error::Invalid("r || s is 16 bytes".into()))
}

impl MacEngine for Hash127Aes {
    #[inline(always)]
    fn tag_into(&self, _: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        put(out, self.tag(msg).as_bytes())
    }
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        Ok(Hash127Aes::start_deferred(self, d))
    }
    fn finish_value(&self, d: &MacDesc, _: Option<&[u8]>, h: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(Hash127Aes::finish_value(self, value16(d, h)?).to_vec())
    }
}

impl MacEngine for Hash127AesNonce {
    #[inline(always)]
    fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        put(out, self.tag(n16(nonce)?, msg).as_bytes())
    }
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        Ok(Hash127AesNonce::start_deferred(self, d))
    }
    fn finish_value(&self, d: &MacDesc, nonce: Option<&[u8]>, h: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(Hash127AesNonce::finish_value(self, &finish_nonce(d, nonce)?, value16(d, h)?).to_vec())
    }
}

impl MacEngine for Hash127AesAdd {
    #[inline(always)]
    fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        put(out, self.tag(n16(nonce)?, msg).as_bytes())
    }
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        Ok(Hash127AesAdd::start_deferred(self, d))
    }
    fn finish_value(&self, d: &MacDesc, nonce: Option<&[u8]>, h: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(Hash127AesAdd::finish_value(self, &finish_nonce(d, nonce)?, value16(d, h)?).to_vec())
    }
}

impl MacEngine for WcShoup64 {
    #[inline(always)]
    fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        put(out, self.tag(n16(nonce)?, msg).as_bytes())
    }
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        let (s, aes) = WcShoup64::start_deferred(self);
        Ok(Pending::other(s, PendingFinish::Wc(aes, d.tag, DeltaGroup::Xor), d))
    }
    fn finish_value(&self, d: &MacDesc, nonce: Option<&[u8]>, h: &[u8]) -> Result<Vec<u8>, Error> {
        let h = h.try_into().map_err(|_| bad_value(d, h))?;
        Ok(WcShoup64::finish_value(self, &finish_nonce(d, nonce)?, h).to_vec())
    }
}

impl MacEngine for WegmanCarter<TreeHash> {
    #[inline(always)]
    fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        WegmanCarter::tag_into(self, n16(nonce)?, msg, out)
    }
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        WegmanCarter::start_deferred(self, d)
    }
    fn finish_value(&self, d: &MacDesc, nonce: Option<&[u8]>, h: &[u8]) -> Result<Vec<u8>, Error> {
        WegmanCarter::finish_value(self, &finish_nonce(d, nonce)?, h)
    }
}

impl MacEngine for WcEval128 {
    #[inline(always)]
    fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        put(out, self.tag(n16(nonce)?, msg).as_bytes())
    }
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        let (s, aes) = WcEval128::start_deferred(self);
        Ok(Pending::other(s, PendingFinish::Wc(aes, d.tag, DeltaGroup::Xor), d))
    }
    fn finish_value(&self, d: &MacDesc, nonce: Option<&[u8]>, h: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(WcEval128::finish_value(self, &finish_nonce(d, nonce)?, value16(d, h)?).to_vec())
    }
}

impl MacEngine for Shoup3Eval128 {
    #[inline(always)]
    fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        put(out, self.tag(n16(nonce)?, msg).as_bytes())
    }
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        let (s, pad) = Shoup3Eval128::start_deferred(self);
        Ok(Pending::other(s, PendingFinish::Pad(pad), d))
    }
}

/// `shoup4-`: the library draws the pair `r ‖ s` and sends it before the
/// tag; a check takes the received pair as its nonce.
impl MacEngine for Shoup4 {
    #[inline(always)]
    fn tag_into(&self, _: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        put(out, &self.tag(msg)?.to_bytes())
    }
    fn verify(&self, _: Option<&[u8]>, msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        Ok(Shoup4::verify(self, msg, tag)?)
    }
    fn start(&self, _: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(Shoup4::start(self)?))
    }
    fn start_check(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(Shoup4Known::stream(self, pair16(nonce)?)))
    }
    fn known_answer_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        crate::traits::put(out, &self.tag_with_rs_for_known_answers(pair16(nonce)?, msg))
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        let (s, pad) = Shoup4::start_deferred(self);
        Ok(Pending::other(s, PendingFinish::Pad(pad), d))
    }
}

impl<const T: usize> MacEngine for Umac<T> {
    #[inline(always)]
    fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        put(out, self.tag_checked(nonce.unwrap_or_default(), msg).as_bytes())
    }
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        Ok(Pending::deferred(Box::new(Umac::start_deferred(self)), d))
    }
}

impl<const T: usize> MacEngine for Vmac<T> {
    #[inline(always)]
    fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        put(out, self.tag_checked(nonce.unwrap_or_default(), msg).as_bytes())
    }
    fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
    fn start_deferred(&self, d: &'static MacDesc) -> Result<Pending, Error> {
        Ok(Pending::deferred(Box::new(Vmac::start_deferred(self)), d))
    }
}
