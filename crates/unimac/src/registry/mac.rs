//! The MACs of SPEC by name: [`Mac`] keys any `mac-` name once and tags and
//! verifies with it (the one interface of the CLI and the Python package),
//! and [`NamedHash`] makes any name of the catalogue the keyed hash of a
//! Wegman–Carter MAC.

use zeroize::Zeroizing;

use super::{Entry, Info, KeySpec, Keyed, Params, Stream};
use crate::error::Error;
use crate::mac::{KeyedHash, Pending};
use crate::spec::DeferredNonce;
use crate::tag::verify_tag;

/// Whether the MAC `name` (without `mac-`) authenticates one message per key
/// (seed 000 §8): its key must never tag twice.
pub fn is_one_time(name: &str) -> bool {
    matches!(name, "hash127" | "hash127-96")
}

/// The longest output of a `mac-` name: a `shoup4-` tag with its random pair.
const MAX_TAG: usize = 32;

/// A MAC of SPEC §6 by its name (without the `mac-` prefix), keyed: the one
/// interface the CLI uses for `tag` and `verify`.
///
/// ```
/// use unimac::registry::Mac;
///
/// let mac = Mac::new("wc-mmh32x2", &[9u8; 32]).unwrap(); // K ‖ s
/// let nonce = 1u128.to_le_bytes();
/// let mut tag = [0u8; 16];
/// let n = mac.tag_into(Some(&nonce), b"attack at dawn", &mut tag).unwrap();
/// assert_eq!(n, mac.tag_len());
/// assert!(mac.verify(Some(&nonce), b"attack at dawn", &tag[..n]).is_ok());
/// assert!(mac.verify(Some(&nonce), b"attack at dusk", &tag[..n]).is_err());
/// ```
pub struct Mac {
    entry: &'static Entry,
    info: &'static Info,
    key: Zeroizing<Vec<u8>>,
    /// The MAC under `key`, set up once; `Mac` checks each nonce itself.
    keyed: Box<dyn Keyed>,
    one_time: bool,
}

impl Mac {
    /// `name` is a SPEC §6 name such as `hash127-aes` or `wc-mmh32x2`; the key
    /// length is checked.
    pub fn new(name: &str, key: &[u8]) -> Result<Mac, Error> {
        let full = format!("mac-{name}");
        let e = match super::lookup(&full) {
            Ok(e) => e,
            Err(Error::UnknownName(_)) => return Err(Error::UnknownName(name.to_string())),
            Err(Error::NotImplemented(_)) => return Err(Error::NotImplemented(name.to_string())),
            Err(e) => return Err(e),
        };
        if matches!(e.info.key, KeySpec::PerElement(_)) {
            return Err(Error::Invalid(format!("{name}: not a MAC")));
        }
        if !e.info.key.accepts(key.len()) {
            return Err(Error::KeyLength { name: name.to_string(), expected: e.info.key.describe(), got: key.len() });
        }
        let keyed = super::key_unchecked(e, &Params { key, nonce: None, len: None })?;
        Ok(Mac { entry: e, info: &e.info, key: Zeroizing::new(key.to_vec()), keyed, one_time: is_one_time(name) })
    }

    /// The name without the `mac-` prefix.
    pub fn name(&self) -> &str {
        &self.info.name["mac-".len()..]
    }
    /// Nonce bytes (0 for the stateless names).
    pub fn nonce_len(&self) -> usize {
        self.info.nonce
    }
    /// The nonce sizes this MAC accepts (`nonce_len()..=nonce_len()` but for
    /// UMAC and VMAC, whose nonces are 1 to 16 bytes).
    pub fn nonce_sizes(&self) -> std::ops::RangeInclusive<usize> {
        super::nonce_sizes(self.info)
    }
    /// Tag bytes.
    pub fn tag_len(&self) -> usize {
        self.info.out
    }
    /// Start tagging a message. For a one-message key (`hash127`) the first
    /// message spends the key and a second is refused ([`Error::KeySpent`]).
    pub fn start(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.check(nonce)?;
        self.keyed.start_with_nonce(nonce).map_err(strip_prefix_err)
    }
    /// Start computing the tag of a message received, to compare with the
    /// tag that came with it (never spends a one-message key).
    pub fn start_check(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.check(nonce)?;
        self.keyed.start_check(nonce)
    }
    fn check(&self, nonce: Option<&[u8]>) -> Result<(), Error> {
        super::check_nonce_entry(self.entry, nonce).map_err(strip_prefix_err)
    }
    /// The tag of `msg` (one-shot: the name's fastest path for a whole message).
    pub fn tag(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let mut t = [0u8; MAX_TAG];
        let n = self.tag_into(nonce, msg, &mut t)?;
        Ok(t[..n].to_vec())
    }
    /// [`tag`](Self::tag) into `out`, which must hold [`tag_len`](Self::tag_len)
    /// bytes; the tag's length is returned. No allocation for any MAC whose
    /// key is set up once (every name but the one-message `hash127` ones).
    pub fn tag_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.check(nonce)?;
        self.keyed.compute_into(nonce, msg, out).map_err(strip_prefix_err)
    }
    /// `Ok(())` if `tag` is the tag of `msg` (constant-time comparison);
    /// `Err(Error::TagMismatch)` if not, another error for bad arguments.
    pub fn verify(&self, nonce: Option<&[u8]>, msg: &[u8], tag: impl AsRef<[u8]>) -> Result<(), Error> {
        if self.one_time {
            // Checking never spends a one-message key.
            let mut s = self.start_check(nonce)?;
            s.update(msg);
            return Ok(verify_tag(&s.finalize()?, tag.as_ref())?);
        }
        let mut want = Zeroizing::new([0u8; MAX_TAG]);
        let n = self.tag_into(nonce, msg, &mut want[..])?;
        Ok(verify_tag(&want[..n], tag.as_ref())?)
    }
}

impl Mac {
    /// Start hashing before the nonce is known: in every MAC of SPEC §6 the
    /// nonce enters only after the message is hashed, so a caller can reserve
    /// a nonce (e.g. fsync a counter) while the message is being hashed, and
    /// give it to [`Pending::finalize`].
    pub fn start_deferred(&self) -> Result<Pending, Error> {
        let name = self.name();
        match deferred_spec_mac(name, &self.key)? {
            Some(d) => Ok(Pending::deferred(d, name, self.nonce_len())),
            None => crate::mac::start_deferred(name, &self.key, &*self.keyed, self.nonce_len()),
        }
    }
}

/// The deferred form of `umac*` / `vmac*` (`None` for the other names).
fn deferred_spec_mac(name: &str, key: &[u8]) -> Result<Option<Box<dyn DeferredNonce>>, Error> {
    use crate::umac::Umac;
    use crate::vmac::Vmac;
    let k16 = || -> Result<[u8; 16], Error> {
        key.try_into().map_err(|_| Error::KeyLength { name: name.into(), expected: "16".into(), got: key.len() })
    };
    Ok(Some(match name {
        "umac32" => Box::new(Umac::<4>::new(&k16()?).start_deferred()),
        "umac64" => Box::new(Umac::<8>::new(&k16()?).start_deferred()),
        "umac96" => Box::new(Umac::<12>::new(&k16()?).start_deferred()),
        "umac128" => Box::new(Umac::<16>::new(&k16()?).start_deferred()),
        "vmac64" => Box::new(Vmac::<8>::new(key)?.start_deferred()),
        "vmac128" => Box::new(Vmac::<16>::new(key)?.start_deferred()),
        _ => return Ok(None),
    }))
}

fn strip_prefix_err(e: Error) -> Error {
    let s = |n: String| n.strip_prefix("mac-").map(str::to_string).unwrap_or(n);
    match e {
        Error::NonceLength { name, expected, got } => Error::NonceLength { name: s(name), expected, got },
        Error::MissingNonce(n) => Error::MissingNonce(s(n)),
        Error::UnexpectedNonce(n) => Error::UnexpectedNonce(s(n)),
        e => e,
    }
}

/// The names (without `mac-`) of every MAC present in this build, SPEC order.
pub fn names() -> Vec<String> {
    super::entries()
        .iter()
        .filter_map(|e| e.info.name.strip_prefix("mac-").map(str::to_string))
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

impl NamedHash {
    /// The registry name `name`, which must take a fixed-length key and no nonce.
    pub fn new(name: &str) -> Result<NamedHash, Error> {
        let e = super::lookup(name)?;
        Self::from_info(&e.info)
    }

    fn from_info(i: &Info) -> Result<NamedHash, Error> {
        match i.key {
            KeySpec::Fixed(k) if i.nonce == 0 && !i.takes_len && i.out <= 16 => {
                Ok(NamedHash { name: i.name.clone(), key: k, out: i.out })
            }
            _ => Err(Error::Invalid(format!("{}: not a fixed-key hash with at most 16 output bytes", i.name))),
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
        super::open(&self.name, &Params { key, nonce: None, len: None })
    }
    fn keyed(&self, key: &[u8]) -> Result<Option<Box<dyn Keyed>>, Error> {
        super::key(&self.name, &Params { key, nonce: None, len: None }).map(Some)
    }
}

