//! The MACs by name, each built from its row of the one table
//! ([`crate::macs`]): [`NamedMac`] keys any reusable MAC once and tags and
//! verifies with it (the one interface of the CLI and the Python package);
//! [`OneTimeMac`] is the only door to a one-time MAC (it tags once, by
//! value); [`known_answer`](super::known_answer) computes any row's output from given inputs, for
//! known-answer tests only; [`NamedHash`] makes any name of the catalogue
//! the keyed hash of a Wegman–Carter MAC.
//!
//! The typed MAC behind a name is chosen once, when the key is set up
//! ([`super::engine`]): tagging by name is one `match` and the typed call.

use crate::prelude::*;
use zeroize::Zeroizing;

use super::engine::{key_error, Engine, MAX_TAG};
use super::{Entry, Info, KeySpec, Keyed, Params, Stream};
use crate::error::Error;
use crate::mac::{Hash127OneTime, Hash127OneTime96, KeyedHash, Pending};
use crate::macs::{self, Finish, Framing, MacDesc};
use crate::tag::verify_tag;

/// Whether the MAC `name` (`X` or `mac-X`) authenticates one message per
/// key: its key must never tag twice (the table's `one_time`).
pub fn is_one_time(name: &str) -> bool {
    macs::find(name).is_some_and(|d| d.one_time)
}


/// The row of a MAC name, with the library's errors for unknown names,
/// hashes given as MACs and names this build lacks.
pub fn desc(name: &str) -> Result<&'static MacDesc, Error> {
    macs::find(name).ok_or_else(|| Error::UnknownName(name.to_string()))
}

fn fixed<const N: usize>(d: &MacDesc, key: &[u8]) -> Result<Zeroizing<[u8; N]>, Error> {
    let k: [u8; N] = key.try_into().map_err(|_| key_error(d, key.len()))?;
    Ok(Zeroizing::new(k))
}

/// A reusable MAC by its name (`X` or `mac-X`), keyed once: the one
/// interface the CLI and the Python package tag and verify with.
///
/// One-time names (`hash127`, `hash127-96`) are refused
/// ([`Error::OneTimeOnly`]): they are served by [`OneTimeMac`] only. For
/// `shoup4-*` the library draws the random pair `r ‖ s` itself and the tag
/// is sent as `r ‖ s ‖ tag` (the row's framing); no tagging call takes
/// a pair from the caller.
///
/// ```
/// use unimac::registry::NamedMac;
///
/// let mac = NamedMac::new("wc-mmh32x2", &[9u8; 32]).unwrap(); // K ‖ s
/// let nonce = 1u128.to_le_bytes();
/// let mut tag = [0u8; 16];
/// let n = mac.tag_into(Some(&nonce), b"attack at dawn", &mut tag).unwrap();
/// assert_eq!(n, mac.tag_len());
/// assert!(mac.verify(Some(&nonce), b"attack at dawn", &tag[..n]).is_ok());
/// assert!(mac.verify(Some(&nonce), b"attack at dusk", &tag[..n]).is_err());
/// assert!(NamedMac::new("hash127", &[1u8; 32]).is_err()); // one-time: OneTimeMac
/// ```
pub struct NamedMac {
    desc: &'static MacDesc,
    engine: Engine,
}

impl NamedMac {
    /// `name` is a MAC name such as `hash127-aes` or `wc-mmh32x2`; the key
    /// length is checked.
    pub fn new(name: &str, key: &[u8]) -> Result<NamedMac, Error> {
        NamedMac::of_row(desc(name)?, key)
    }

    /// The tag of the hash value `h` of a message hashed elsewhere (by
    /// [`crate::partial`]'s workers) under `nonce`, the finish of this key.
    pub(crate) fn finish_value(&self, nonce: Option<&[u8]>, h: &[u8]) -> Result<Vec<u8>, Error> {
        self.desc.check_nonce(nonce)?;
        self.engine.finish_value(self.desc, nonce, h)
    }

    /// The MAC of a row of the table (no name looked up again).
    pub(crate) fn of_row(d: &'static MacDesc, key: &[u8]) -> Result<NamedMac, Error> {
        Ok(NamedMac { desc: d, engine: Engine::new(d, key)? })
    }

    /// The row of the table this MAC is.
    pub(crate) fn desc(&self) -> &'static MacDesc {
        self.desc
    }
    /// The name without the `mac-` prefix.
    pub fn name(&self) -> &'static str {
        self.desc.name
    }
    /// The nonce sizes this MAC accepts.
    pub fn nonce_sizes(&self) -> core::ops::RangeInclusive<usize> {
        if self.desc.takes_nonce() {
            self.desc.nonce.min()..=self.desc.nonce.max()
        } else {
            0..=0
        }
    }
    /// Bytes of a tag as sent (for `shoup4-*`, `r ‖ s ‖ tag`).
    pub fn tag_len(&self) -> usize {
        self.desc.sent_len()
    }
    /// Start tagging a message.
    pub fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.desc.check_nonce(nonce)?;
        self.engine.start(nonce)
    }
    /// Start computing the tag of a message received, to compare with the
    /// tag that came with it (for `shoup4-*`, `nonce` is the received `r ‖ s`
    /// and the output the 8-byte tag).
    pub fn start_check(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        if self.desc.framing == Framing::PairThenTag {
            return self.engine.start_check(nonce);
        }
        self.desc.check_nonce(nonce)?;
        self.engine.start_check(nonce)
    }
    /// The tag of `msg` (one-shot: the name's fastest path for a whole message).
    pub fn tag(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let mut t = [0u8; MAX_TAG];
        let n = self.tag_into(nonce, msg, &mut t)?;
        Ok(t[..n].to_vec())
    }
    /// [`tag`](Self::tag) into `out`, which must hold [`tag_len`](Self::tag_len)
    /// bytes; the tag's length is returned. No allocation.
    #[inline]
    pub fn tag_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        if !self.desc.nonce.accepts(nonce) {
            return Err(self.nonce_error(nonce));
        }
        self.engine.tag_into(nonce, msg, out)
    }
    /// Why a nonce was refused (out of line: the rare path).
    #[cold]
    #[inline(never)]
    fn nonce_error(&self, nonce: Option<&[u8]>) -> Error {
        self.desc
            .check_nonce(nonce)
            .err()
            .unwrap_or_else(|| Error::Invalid(format!("{}: nonce refused", self.desc.name)))
    }
    /// `Ok(())` if `tag` is the tag of `msg` (constant-time comparison);
    /// `Err(Error::TagMismatch)` if not, another error for bad arguments.
    /// For `shoup4-*`, `tag` is `r ‖ s ‖ tag` as sent and `nonce` is `None`.
    pub fn verify(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        tag: impl AsRef<[u8]>,
    ) -> Result<(), Error> {
        self.desc.check_nonce(nonce)?;
        self.engine.verify(nonce, msg, tag.as_ref())
    }

    /// Start hashing before the nonce is known: in every MAC the nonce
    /// enters only after the message is hashed, so a caller can reserve a
    /// nonce (e.g. fsync a counter) while the message is being hashed, and
    /// give it to [`Pending::finalize`].
    pub fn start_deferred(&self) -> Result<Pending, Error> {
        self.engine.start_deferred(self.desc)
    }
}

impl core::fmt::Debug for NamedMac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NamedMac")
            .field("name", &self.desc.name)
            .finish_non_exhaustive()
    }
}

/// A one-time MAC by name (`hash127`, `hash127-96`): its key authenticates
/// ONE message, so tagging takes the object by value and it is not `Clone`;
/// checking a tag ([`verify`](Self::verify)) does not spend it.
///
/// ```
/// use unimac::registry::OneTimeMac;
///
/// let k = OneTimeMac::new("hash127", &[5u8; 32]).unwrap();
/// let tag = k.tag(b"msg"); // `k` is gone: no second tag under this key
/// assert!(OneTimeMac::new("hash127", &[5u8; 32]).unwrap().verify(b"msg", &tag).is_ok());
/// assert!(OneTimeMac::new("hash127-aes", &[5u8; 32]).is_err()); // reusable: NamedMac
/// ```
pub struct OneTimeMac {
    desc: &'static MacDesc,
    key: Zeroizing<Vec<u8>>,
}

impl core::fmt::Debug for OneTimeMac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OneTimeMac")
            .field("name", &self.desc.name)
            .finish_non_exhaustive()
    }
}

impl OneTimeMac {
    /// A one-time MAC under `key`; reusable names are refused (use [`NamedMac`]).
    pub fn new(name: &str, key: &[u8]) -> Result<OneTimeMac, Error> {
        let d = desc(name)?;
        if !d.one_time {
            return Err(Error::Invalid(format!(
                "{}: not a one-time MAC; use the reusable interface",
                d.name
            )));
        }
        if !d.accepts_key(key.len()) {
            return Err(key_error(d, key.len()));
        }
        Ok(OneTimeMac {
            desc: d,
            key: Zeroizing::new(key.to_vec()),
        })
    }
    /// The row of the table.
    pub(crate) fn desc(&self) -> &'static MacDesc {
        self.desc
    }
    /// Tag bytes.
    pub fn tag_len(&self) -> usize {
        self.desc.tag
    }
    fn stream(&self) -> Result<Box<dyn Stream>, Error> {
        Ok(match self.desc.finish {
            Finish::OneTimePad => {
                Box::new(Hash127OneTime::new(&*fixed(self.desc, &self.key)?).start())
            }
            Finish::OneTime96 => {
                Box::new(Hash127OneTime96::new(&*fixed(self.desc, &self.key)?).start())
            }
            _ => {
                return Err(Error::Invalid(format!(
                    "{}: not a one-time MAC",
                    self.desc.name
                )))
            }
        })
    }
    /// Start tagging the key's one message, given in pieces by
    /// [`Stream::update`] (a big file read in buffers, never held whole):
    /// `self` is consumed and the stream's [`Stream::finalize`] (which
    /// consumes the stream) gives the one tag, so the key still tags one
    /// message.
    ///
    /// ```
    /// use unimac::registry::OneTimeMac;
    ///
    /// let mut s = OneTimeMac::new("hash127", &[5u8; 32]).unwrap().start().unwrap();
    /// s.update(b"m");
    /// s.update(b"sg");
    /// let tag = s.finalize().unwrap();
    /// assert_eq!(tag, OneTimeMac::new("hash127", &[5u8; 32]).unwrap().tag(b"msg"));
    /// ```
    pub fn start(self) -> Result<Box<dyn Stream>, Error> {
        self.stream()
    }
    /// The tag of the key's one message.
    pub fn tag(self, msg: &[u8]) -> Vec<u8> {
        self.compute(msg)
    }
    fn compute(&self, msg: &[u8]) -> Vec<u8> {
        let mut s = self.stream().expect("checked at construction");
        s.update(msg);
        s.finalize().expect("one-time MACs take any message")
    }
    /// Start checking `expected`, the tag received with a message: the
    /// message goes in by [`Absorb::update`](crate::Absorb::update) and
    /// [`OneTimeCheck::verify`] says whether `expected` is its tag. Does not
    /// spend the key, and gives no tag: the value it computes is only
    /// compared (a tag of the wrong length is refused by `verify`, as a
    /// wrong tag).
    ///
    /// ```
    /// use unimac::registry::OneTimeMac;
    /// use unimac::Absorb;
    ///
    /// let tag = OneTimeMac::new("hash127", &[5u8; 32]).unwrap().tag(b"msg");
    /// let k = OneTimeMac::new("hash127", &[5u8; 32]).unwrap();
    /// let mut c = k.start_check(&tag).unwrap();
    /// c.update(b"m");
    /// c.update(b"sg");
    /// assert!(c.verify().is_ok());
    /// let mut c = k.start_check(&tag).unwrap();
    /// c.update(b"msh");
    /// assert!(c.verify().is_err());
    /// ```
    pub fn start_check(&self, expected: &[u8]) -> Result<OneTimeCheck, Error> {
        Ok(OneTimeCheck {
            name: self.desc.name,
            stream: self.stream()?,
            expected: expected.to_vec(),
        })
    }
    /// `Ok(())` if `tag` is the tag of `msg` (constant-time comparison);
    /// does not spend the key.
    pub fn verify(&self, msg: &[u8], tag: impl AsRef<[u8]>) -> Result<(), Error> {
        Ok(verify_tag(
            &Zeroizing::new(self.compute(msg)),
            tag.as_ref(),
        )?)
    }
}

/// A received tag of a one-time MAC being checked against its message
/// ([`OneTimeMac::start_check`]): the expected tag is given first, the
/// message in pieces by [`Absorb::update`](crate::Absorb::update), and
/// [`verify`](Self::verify) compares in constant time. It has no way to
/// output a tag — no method returns the computed value, which is wiped after
/// the comparison — so checking cannot be used to tag messages under a
/// one-time key. `Debug` shows the MAC's name only.
pub struct OneTimeCheck {
    name: &'static str,
    stream: Box<dyn Stream>,
    expected: Vec<u8>,
}

impl core::fmt::Debug for OneTimeCheck {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OneTimeCheck")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl crate::traits::Absorb for OneTimeCheck {
    fn update(&mut self, data: &[u8]) {
        OneTimeCheck::update(self, data)
    }
}

impl OneTimeCheck {
    /// Absorb more of the message.
    pub(crate) fn update(&mut self, data: &[u8]) {
        self.stream.update(data)
    }
    /// `Ok(())` if the expected tag is the message's tag (constant-time
    /// comparison, as [`verify_tag`]); [`Error::TagMismatch`] if not.
    pub fn verify(self) -> Result<(), Error> {
        let got = Zeroizing::new(self.stream.finalize()?);
        Ok(verify_tag(&got, &self.expected)?)
    }
}

/// The catalogue's keyed object of a `mac-` row: the known-answer view
/// (reached only through [`known_answer`](super::known_answer) for one-time and random-pair rows).
struct KnownAnswer {
    desc: &'static MacDesc,
    engine: Option<Engine>,
    key: Zeroizing<Vec<u8>>,
}

impl Keyed for KnownAnswer {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        match &self.engine {
            Some(e) => e.start_check(nonce),
            None => OneTimeMac {
                desc: self.desc,
                key: self.key.clone(),
            }
            .stream(),
        }
    }
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        match &self.engine {
            Some(e) => e.known_answer_into(nonce, msg, out),
            None => crate::traits::put(
                out,
                &OneTimeMac {
                    desc: self.desc,
                    key: self.key.clone(),
                }
                .compute(msg),
            ),
        }
    }
}

/// The catalogue entry of a row: sizes from the table, the known-answer
/// keyed object.
pub(crate) fn entry(d: &'static MacDesc) -> Entry {
    let key = match d.key_sizes {
        [n] => KeySpec::Fixed(*n),
        v => KeySpec::OneOf(v),
    };
    let info = Info {
        name: d.catalog_name.to_string(),
        key,
        nonce: d.nonce.max(),
        out: d.tag,
        takes_len: false,
        summary: format!("{} ({})", d.summary, d.source),
    };
    let mut e = Entry::keyed(
        info,
        move |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
            let engine = if d.one_time {
                None
            } else {
                Some(Engine::new(d, p.key)?)
            };
            Ok(Box::new(KnownAnswer {
                desc: d,
                engine,
                key: Zeroizing::new(p.key.to_vec()),
            }))
        },
    );
    e.mac = Some(d);
    e
}

/// The names (without `mac-`) of every MAC present in this build, in the
/// table's order.
pub fn names() -> Vec<String> {
    macs::MACS
        .iter()
        .filter(|d| super::lookup(d.catalog_name).is_ok())
        .map(|d| d.name.to_string())
        .collect()
}

/// Any registry name without nonce or `--len` as a keyed hash (looked up when
/// a message is started, so it works for every family present in the build).
#[derive(Clone, Debug)]
pub struct NamedHash {
    name: String,
    key: usize,
    out: usize,
}

#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
impl NamedHash {
    /// The registry name `name`, which must take a fixed-length key and no nonce.
    pub fn new(name: &str) -> Result<NamedHash, Error> {
        let e = super::lookup(name)?;
        Self::from_info(&e.info)
    }

    fn from_info(i: &Info) -> Result<NamedHash, Error> {
        match i.key {
            KeySpec::Fixed(k) if i.nonce == 0 && !i.takes_len && i.out <= 16 => Ok(NamedHash {
                name: i.name.clone(),
                key: k,
                out: i.out,
            }),
            _ => Err(Error::Invalid(format!(
                "{}: not a fixed-key hash with at most 16 output bytes",
                i.name
            ))),
        }
    }
}

impl KeyedHash for NamedHash {
    fn name(&self) -> &str {
        &self.name
    }
    fn key_len(&self) -> usize {
        self.key
    }
    fn out_len(&self) -> usize {
        self.out
    }
    fn start(&self, key: &[u8]) -> Result<Box<dyn Stream>, Error> {
        super::open(
            &self.name,
            &Params {
                key,
                nonce: None,
                len: None,
            },
        )
    }
    fn keyed(&self, key: &[u8]) -> Result<Option<Box<dyn Keyed>>, Error> {
        super::key(
            &self.name,
            &Params {
                key,
                nonce: None,
                len: None,
            },
        )
        .map(Some)
    }
}
