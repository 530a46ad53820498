//! One message hashed in stripes on several threads, the bulk of the work
//! out of order and a small remainder in message order.
//!
//! UMAC, VMAC and the trees are layered: a lowest layer that hashes fixed
//! runs of the message independently (UMAC's NH of each 1024-byte chunk,
//! VMAC's NH of each 128-byte block, a tree's two lowest levels over each
//! run of `B^2` bytes) and a layer above that takes those results in
//! order. A [`Striper`] (cheap to clone, `Send + Sync`) does the lowest
//! layer of one stripe — a run of whole [`units`](Striper::unit) anywhere in
//! the message — into a [`Stripe`], on any thread; the stream the message
//! is being hashed into then takes the stripes in message order
//! ([`Stream::absorb_stripe`](crate::Stream::absorb_stripe),
//! [`Pending::absorb_stripe`](crate::mac::Pending::absorb_stripe)), so a
//! reader per core can copy and hash its own stripes, and only the small
//! ordered step is serial:
//!
//! | hash | unit | a stripe of `n` bytes carries | the ordered step |
//! |---|---|---|---|
//! | UMAC (`T` bytes) | 1024 | the L1 outputs: `T/4` words per chunk (`T·n/4096` bytes) | L2 (POLY) steps |
//! | VMAC | 128 | per iteration `Σ m_i k^(J−i)` over its `J` blocks (32 bytes) | `a ← a·k^J + s` mod `2^127 − 1` |
//! | `tree-F` | `B^2` | its level-2 bytes (`n·O²/B²`; `n/16` for mmh32x4) | the levels above 1 |
//!
//! The result is the one-shot result for every cut into stripes, whoever
//! hashes them; only the message's end (which carries its padding) goes to
//! the stream as bytes. A stripe is as secret as the key's hash outputs: it
//! is wiped when dropped and its `Debug` form shows only its length. A
//! stream refuses a stripe made under another key object (the key is
//! compared by identity) or while it holds a partial unit.
//!
//! ```
//! use unimac::registry::NamedMac;
//!
//! let key = [9u8; 16];
//! let m = NamedMac::new("umac128", &key).unwrap();
//! let msg: Vec<u8> = (0..10_000u32).map(|i| i as u8).collect();
//! let mut p = m.start_deferred().unwrap();
//! let striper = p.striper().unwrap();
//! let unit = striper.unit(); // 1024
//! // Two stripes, as two threads would hash them, then the end as bytes.
//! let (a, b) = (striper.hash(&msg[..4 * unit]).unwrap(), striper.hash(&msg[4 * unit..8 * unit]).unwrap());
//! p.absorb_stripe(&a).unwrap();
//! p.absorb_stripe(&b).unwrap();
//! p.update(&msg[8 * unit..]);
//! let nonce = [1u8; 8];
//! assert_eq!(p.finalize(Some(&nonce)).unwrap(), m.tag(Some(&nonce), &msg).unwrap());
//! ```

use crate::prelude::*;
use crate::sync::Arc;
use zeroize::Zeroize;

use crate::error::Error;

/// The lowest layer of a layered hash under one key (UMAC's, VMAC's and a
/// tree's key objects implement it): the unit of stripes and the hash of a
/// stripe of whole units.
pub(crate) trait LowestLayer: Send + Sync {
    /// What [`Striper::unit`] says.
    fn unit(&self) -> usize;
    /// The lowest layer of `data`, a non-zero multiple of the unit.
    fn hash(&self, data: &[u8]) -> Body;
    /// A short name for `Debug` ("umac", "vmac", "tree").
    fn kind(&self) -> &'static str;
}

/// Hashes stripes of messages under one key: the lowest layer of UMAC,
/// VMAC or a tree (see the module documentation). From
/// [`Stream::striper`](crate::Stream::striper) or
/// [`Pending::striper`](crate::mac::Pending::striper).
#[derive(Clone)]
pub struct Striper {
    key: Arc<dyn LowestLayer>,
}

impl core::fmt::Debug for Striper {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Striper").field("kind", &self.key.kind()).field("unit", &self.key.unit()).finish_non_exhaustive()
    }
}

/// The hashed lowest layer of one stripe: wiped when dropped, `Debug` shows
/// its length only.
pub struct Stripe {
    pub(crate) origin: usize,
    pub(crate) len: u64,
    pub(crate) body: Body,
}

/// What a stripe carries (see the table in the module documentation).
pub(crate) enum Body {
    /// UMAC: per chunk, the L1 output (bit length added) of each iteration.
    Umac(Vec<u64>),
    /// VMAC: per iteration `Σ m_i k^(J−i)` (lazily reduced) over `blocks`.
    Vmac { blocks: u64, a: [u128; 2] },
    /// A tree: the stripe's bytes at level 2.
    Tree(Vec<u8>),
}

impl Drop for Stripe {
    fn drop(&mut self) {
        match &mut self.body {
            Body::Umac(v) => v.zeroize(),
            Body::Vmac { a, .. } => a.zeroize(),
            // Plain stores kept by `black_box`: `zeroize` writes byte by byte.
            Body::Tree(v) => {
                v.fill(0);
                core::hint::black_box(&*v);
            }
        }
    }
}

impl core::fmt::Debug for Stripe {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Stripe").field("len", &self.len).finish_non_exhaustive()
    }
}

impl Stripe {
    /// The message bytes this stripe covers.
    pub fn len(&self) -> u64 {
        self.len
    }
    /// Whether it covers no bytes (never: a stripe is at least one unit).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Striper {
    /// The striper of a key object (shared, not copied).
    pub(crate) fn new<K: LowestLayer + 'static>(key: Arc<K>) -> Striper {
        Striper { key }
    }

    /// The unit of stripes, in bytes: a stripe is a non-zero multiple of it
    /// and starts at a multiple of it (1024 for UMAC, 128 for VMAC, `B^2`
    /// for a tree of block `B`).
    pub fn unit(&self) -> usize {
        self.key.unit()
    }

    /// The lowest layer of `data`, a stripe of the message: a non-zero
    /// multiple of [`unit`](Self::unit) bytes, not the message's end unless
    /// the message is a multiple of the unit and the hash allows it (give
    /// the end to the stream as bytes: that is always right). Runs on this
    /// thread only.
    pub fn hash(&self, data: &[u8]) -> Result<Stripe, Error> {
        let unit = self.unit();
        if data.is_empty() || !data.len().is_multiple_of(unit) {
            return Err(Error::Invalid(format!(
                "a stripe must be a non-zero multiple of {unit} bytes, got {}",
                data.len()
            )));
        }
        let body = self.key.hash(data);
        Ok(Stripe { origin: origin(&self.key), len: data.len() as u64, body })
    }
}

/// The identity of a key object (the address of what the `Arc` holds), as
/// stripes carry it.
pub(crate) fn origin<T: ?Sized>(key: &Arc<T>) -> usize {
    Arc::as_ptr(key) as *const u8 as usize
}

/// `Ok` if `s` was made under the key object `key`.
pub(crate) fn check<T: ?Sized>(key: &Arc<T>, s: &Stripe) -> Result<(), Error> {
    if s.origin != origin(key) {
        return Err(Error::Invalid("a stripe made under another key".into()));
    }
    Ok(())
}

/// The error of a stream that holds part of a unit.
pub(crate) fn unaligned(unit: usize) -> Error {
    Error::Invalid(format!("a stripe must start at a multiple of {unit} bytes of the message"))
}

/// The error of a stream without stripes.
pub(crate) fn unsupported() -> Error {
    Error::NotImplemented("this hash takes no stripes".into())
}
