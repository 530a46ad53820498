use crate::prelude::*;
use crate::sync::OnceLock;

use zeroize::Zeroizing;

use crate::error::Error;

use crate::traits::Opening;
pub use crate::traits::Stream;
pub use crate::traits::Keyed;
/// The catalogue's types: what the front ends and the vector runner
/// read about every name (hashes included).
pub use crate::traits::{pad, Entry, Info, KeySpec, Params};

mod engine;
mod named;
/// Name resolution as the front ends present it ("did you mean", citations).
pub mod resolve;
pub use crate::mac::Pending;
pub use named::{is_one_time, names, NamedMac, OneTimeCheck, OneTimeMac};
pub use named::NamedHash;
pub use named::desc;

/// Every implemented name, in the wire format's order.
pub fn entries() -> &'static [Entry] {
    static CATALOG: OnceLock<Vec<Entry>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let mut v = Vec::new();
        v.extend(crate::hash127::catalog());
        v.extend(crate::mmh::catalog());
        v.extend(crate::square::catalog());
        v.extend(crate::shoup::catalog());
        v.extend(crate::tree::catalog());
        v.extend(crate::modp::catalog());
        // The MACs: one entry per row of the table.
        v.extend(crate::macs::MACS.iter().map(named::entry));
        v
    })
}

fn entry_of(info: &Info) -> Option<&'static Entry> {
    entries()
        .iter()
        .find(|e| core::ptr::eq(&e.info, info) || e.info.name == info.name)
}

/// The nonce sizes `name` accepts: `info.nonce..=info.nonce`, or the
/// range of its row of the MAC table.
pub fn nonce_sizes(info: &Info) -> core::ops::RangeInclusive<usize> {
    match entry_of(info).and_then(|e| e.mac) {
        Some(d) => d.nonce.min()..=d.nonce.max(),
        None => info.nonce..=info.nonce,
    }
}

/// The entry of `name`.
pub fn lookup(name: &str) -> Result<&'static Entry, Error> {
    if let Some(e) = entries().iter().find(|e| e.info.name == name) {
        return Ok(e);
    }
    Err(Error::UnknownName(name.to_string()))
}

/// Check the key, nonce and length arguments against `info`.
pub fn check(info: &Info, p: &Params<'_>) -> Result<(), Error> {
    check_key(info, p.key)?;
    check_nonce_info(info, p.nonce)?;
    check_len(info, p.len)
}

fn check_entry(e: &Entry, p: &Params<'_>) -> Result<(), Error> {
    check_key(&e.info, p.key)?;
    check_nonce_entry(e, p.nonce)?;
    check_len(&e.info, p.len)
}

fn check_key(info: &Info, key: &[u8]) -> Result<(), Error> {
    if !info.key.accepts(key.len()) {
        return Err(Error::KeyLength {
            name: info.name.clone(),
            expected: info.key.describe(),
            got: key.len(),
        });
    }
    Ok(())
}

fn check_nonce_info(info: &Info, nonce: Option<&[u8]>) -> Result<(), Error> {
    match entry_of(info) {
        Some(e) => check_nonce_entry(e, nonce),
        None => check_nonce_len(info, info.nonce..=info.nonce, nonce),
    }
}

pub(crate) fn check_nonce_entry(e: &Entry, nonce: Option<&[u8]>) -> Result<(), Error> {
    let info = &e.info;
    let Some(d) = e.mac else {
        return check_nonce_len(info, info.nonce..=info.nonce, nonce);
    };
    check_nonce_len(info, d.nonce.min()..=d.nonce.max(), nonce)?;
    // The row's rule on the value (VMAC: the top bit of a full-length
    // nonce clear); a random pair given for a known answer has none.
    match d.nonce {
        crate::macs::Nonce::Sequence { .. } => d.check_nonce(nonce),
        _ => Ok(()),
    }
}

fn check_nonce_len(
    info: &Info,
    sizes: core::ops::RangeInclusive<usize>,
    nonce: Option<&[u8]>,
) -> Result<(), Error> {
    let name = &info.name;
    match (info.nonce, nonce) {
        (0, Some(_)) => Err(Error::UnexpectedNonce(name.clone())),
        (n, None) if n > 0 => Err(Error::MissingNonce(name.clone())),
        (n, Some(x)) if x.len() != n => {
            if sizes.contains(&x.len()) {
                Ok(())
            } else if sizes.start() == sizes.end() {
                Err(Error::NonceLength {
                    name: name.clone(),
                    expected: n,
                    got: x.len(),
                })
            } else {
                Err(Error::Invalid(format!(
                    "{name}: nonce must be {} to {} bytes, got {}",
                    sizes.start(),
                    sizes.end(),
                    x.len()
                )))
            }
        }
        _ => Ok(()),
    }
}

fn check_len(info: &Info, len: Option<usize>) -> Result<(), Error> {
    let name = &info.name;
    match (info.takes_len, len) {
        (true, None) => Err(Error::Invalid(format!(
            "{name}: needs an output length (--len)"
        ))),
        (false, Some(_)) => Err(Error::Invalid(format!(
            "{name}: takes no output length (--len)"
        ))),
        _ => Ok(()),
    }
}

/// Set `name` up under the given key (and length): the key set-up is done
/// here, once, and every message started from the result shares it.
///
/// The key and `--len` are checked as by [`open`]. The nonce is per message
/// and given to [`Keyed::start_with_nonce`]; `p.nonce`, if given, is only
/// checked here (so a wrong nonce fails as early as with [`open`]).
pub fn key(name: &str, p: &Params<'_>) -> Result<Box<dyn Keyed>, Error> {
    let e = lookup(name)?;
    refuse_known_answer_only(e)?;
    key_entry(e, p)
}

/// One-time MACs and MACs whose random pair the library draws are reached by
/// name only through [`known_answer`](named::known_answer) (known-answer tests): [`key`], [`open`]
/// and [`compute`] refuse them, naming the interface that serves them.
fn refuse_known_answer_only(e: &Entry) -> Result<(), Error> {
    if let Some(d) = crate::macs::one_time_row(&e.info.name) {
        return Err(Error::OneTimeOnly(d.name.to_string()));
    }
    match crate::macs::MACS
        .iter()
        .find(|d| d.catalog_name == e.info.name)
    {
        Some(d) if d.framing == crate::macs::Framing::PairThenTag => {
            Err(Error::CallerPair(d.name.to_string()))
        }
        _ => Ok(()),
    }
}

/// The known answer of the catalogue name `name` for `msg` under `p`, as
/// the wire format's vector files give it, for every name including the
/// one-time MACs (their tag, with no key file and nothing spent) and those
/// that draw their own random pair (`p.nonce` is then `r ‖ s`, the output the
/// 8-byte tag). For checking implementations against known answers only:
/// tagging goes through [`NamedMac`] and [`OneTimeMac`], which [`compute`] and
/// [`open`] leave these names to.
///
/// ```
/// use unimac::unstable::registry::{self, Params};
/// let p = Params { key: &[1u8; 32], nonce: None, len: None };
/// assert!(registry::compute("mac-hash127", &p, b"m").is_err()); // one-time
/// assert_eq!(registry::known_answer("mac-hash127", &p, b"m").unwrap().len(), 16);
/// ```
pub fn known_answer(name: &str, p: &Params<'_>, msg: &[u8]) -> Result<Vec<u8>, Error> {
    let e = lookup(name)?;
    check_entry(e, p)?;
    key_entry(e, p)?.compute(p.nonce, msg)
}

/// [`known_answer`] as a stream: the message goes in by
/// [`Stream::update`] in pieces of any size (a file read in buffers, never
/// held whole) and [`Stream::finalize`] gives the value `known_answer`
/// gives for the whole message. One message per call, nothing spent: for
/// checking implementations against known answers only, as
/// [`known_answer`].
///
/// ```
/// use unimac::unstable::registry::{self, Params};
/// let p = Params { key: &[1u8; 32], nonce: None, len: None };
/// let mut s = registry::known_answer_open("mac-hash127", &p).unwrap();
/// s.update(b"m");
/// s.update(b"sg");
/// assert_eq!(s.finalize().unwrap(), registry::known_answer("mac-hash127", &p, b"msg").unwrap());
/// ```
pub fn known_answer_open(name: &str, p: &Params<'_>) -> Result<Box<dyn Stream>, Error> {
    let e = lookup(name)?;
    check_entry(e, p)?;
    key_entry(e, p)?.start_with_nonce(p.nonce)
}

/// [`known_answer`] with the key set up once, for computing many known
/// answers (and timing them) under one key: the same computation for every
/// name, nothing spent. Never for authenticating: a one-time name's key
/// computes as many values as it is asked for here.
pub fn known_answer_key(name: &str, p: &Params<'_>) -> Result<Box<dyn Keyed>, Error> {
    key_entry(lookup(name)?, p)
}

fn key_entry(e: &'static Entry, p: &Params<'_>) -> Result<Box<dyn Keyed>, Error> {
    let inner = key_unchecked(e, p)?;
    Ok(Box::new(Checked { entry: e, inner }))
}

/// [`key`] for an entry, without the per-message nonce check (the caller
/// checks each nonce with [`check_nonce_entry`]).
pub(crate) fn key_unchecked(e: &'static Entry, p: &Params<'_>) -> Result<Box<dyn Keyed>, Error> {
    check_key(&e.info, p.key)?;
    if p.nonce.is_some() {
        check_nonce_entry(e, p.nonce)?;
    }
    check_len(&e.info, p.len)?;
    let p = Params {
        key: p.key,
        nonce: None,
        len: p.len,
    };
    Ok(match &e.opening {
        Opening::Keyed(f) => f(&p)?,
        Opening::PerMessage(_) => Box::new(PerMessage {
            key: Zeroizing::new(p.key.to_vec()),
            len: p.len,
            entry: e,
        }),
    })
}

/// Checks each message's nonce against the name, then starts it.
struct Checked {
    entry: &'static Entry,
    inner: Box<dyn Keyed>,
}

impl Keyed for Checked {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        check_nonce_entry(self.entry, nonce)?;
        self.inner.start_with_nonce(nonce)
    }
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        check_nonce_entry(self.entry, nonce)?;
        self.inner.compute(nonce, msg)
    }
    #[inline]
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        // A name without a nonce called without one (every hash): nothing
        // to check per message.
        if !(nonce.is_none() && self.entry.info.nonce == 0) {
            check_nonce_entry(self.entry, nonce)?;
        }
        self.inner.compute_into(nonce, msg, out)
    }
    fn start_check(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        check_nonce_entry(self.entry, nonce)?;
        self.inner.start_check(nonce)
    }
}

/// The keyed object of an [`Entry::new`] entry: keeps the key and runs the
/// opener per message.
struct PerMessage {
    key: Zeroizing<Vec<u8>>,
    len: Option<usize>,
    entry: &'static Entry,
}

impl Keyed for PerMessage {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        let Opening::PerMessage(f) = &self.entry.opening else {
            unreachable!("PerMessage wraps Entry::new openers only")
        };
        f(&Params {
            key: &self.key,
            nonce,
            len: self.len,
        })
    }
}

/// Start computing `name` under the given key (and nonce, and length):
/// [`key`] then [`Keyed::start_with_nonce`].
pub fn open(name: &str, p: &Params<'_>) -> Result<Box<dyn Stream>, Error> {
    let e = lookup(name)?;
    refuse_known_answer_only(e)?;
    check_entry(e, p)?;
    key_entry(e, p)?.start_with_nonce(p.nonce)
}

/// One-shot: `name` of `msg` (through [`Keyed::compute`], so a family's
/// one-shot path is used where it has one).
pub fn compute(name: &str, p: &Params<'_>, msg: &[u8]) -> Result<Vec<u8>, Error> {
    let e = lookup(name)?;
    refuse_known_answer_only(e)?;
    check_entry(e, p)?;
    key_entry(e, p)?.compute(p.nonce, msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traits::Buffered;

    #[test]
    fn params_debug_shows_no_key_bytes() {
        let key = [0xabu8; 32];
        let d = format!(
            "{:?}",
            Params {
                key: &key,
                nonce: None,
                len: None
            }
        );
        assert!(
            !d.to_lowercase().contains("ab") && !d.contains("171"),
            "{d}"
        );
        assert!(d.contains("32 secret bytes"), "{d}");
    }

    /// An [`Entry::new`] entry (key set-up per message) keyed through
    /// [`key_entry`]: the key and nonce reach the opener for every message.
    #[test]
    fn per_message_entries_key_like_open() {
        // A static entry (the registry's entries are `&'static`), not a
        // leaked box: the suite runs under a leak checker.
        static E: std::sync::LazyLock<Entry> = std::sync::LazyLock::new(|| {
            let info = Info {
                name: "test-xor".into(),
                key: KeySpec::Fixed(4),
                nonce: 2,
                out: 4,
                takes_len: false,
                summary: String::new(),
            };
            // Output: key ⊕ (nonce, nonce) ⊕ the XOR of the message's 4-byte words.
            Entry::new(info, |p: &Params<'_>| {
                let mut acc = [0u8; 4];
                for (i, b) in acc.iter_mut().enumerate() {
                    *b = p.key[i] ^ p.nonce.expect("checked")[i % 2];
                }
                Ok(Buffered::boxed(move |m: &[u8]| {
                    for (i, x) in m.iter().enumerate() {
                        acc[i % 4] ^= x;
                    }
                    Ok(acc.to_vec())
                }))
            })
        });
        let e: &'static Entry = &E;
        let key = [1u8, 2, 3, 4];
        let k = key_entry(
            e,
            &Params {
                key: &key,
                nonce: None,
                len: None,
            },
        )
        .unwrap();
        for (n, m) in [
            ([9u8, 8], &b"abcdefg"[..]),
            ([0, 0], b""),
            ([255, 1], b"0123456789"),
        ] {
            let mut want = [1 ^ n[0], 2 ^ n[1], 3 ^ n[0], 4 ^ n[1]];
            for (i, x) in m.iter().enumerate() {
                want[i % 4] ^= x;
            }
            assert_eq!(k.compute(Some(&n), m).unwrap(), want);
        }
        assert_eq!(
            k.start_with_nonce(None).err(),
            Some(Error::MissingNonce("test-xor".into()))
        );
        assert_eq!(
            k.start_with_nonce(Some(&[1, 2, 3])).err(),
            Some(Error::NonceLength {
                name: "test-xor".into(),
                expected: 2,
                got: 3
            })
        );
        assert!(matches!(
            key_entry(
                e,
                &Params {
                    key: &key[..3],
                    nonce: None,
                    len: None
                }
            )
            .err(),
            Some(Error::KeyLength { got: 3, .. })
        ));
    }
}
