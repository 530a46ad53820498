//! The traits a computation is used through — [`Stream`] (a computation
//! under way), [`Absorb`] (a message fed in stripes), [`Keyed`] (a name
//! under one key), [`BlockHash`] — and the vocabulary every family speaks
//! to the catalogue of names: a name's
//! sizes ([`Info`], [`KeySpec`]), its arguments ([`Params`]), a computation
//! under way ([`Stream`]), a name under one key ([`Keyed`]), and how to start
//! one ([`Entry`]). The families build their entries from these; the
//! catalogue ([`crate::registry`]) gathers them and looks names up. Neither
//! this module nor the families import the catalogue.

// The catalogue's constructors and fields are read by the front ends and
// the tests (through `unimac::unstable`); without it, by less.
#![cfg_attr(not(feature = "unstable"), allow(dead_code))]

use crate::prelude::*;
use alloc::sync::Arc;

use crate::error::Error;
use crate::group::DeltaGroup;

/// How long the key of a name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeySpec {
    /// Exactly this many bytes.
    Fixed(usize),
    /// One element of this many bytes per message element: the key is as long
    /// as the message (Square Hash's `k` elements of `l/8` bytes).
    PerElement(usize),
    /// Any one of these sizes (VMAC's AES-128/192/256 keys), the first the default.
    OneOf(&'static [usize]),
}

impl KeySpec {
    /// A human-readable size, e.g. `32` or `a multiple of 4 (as long as the message)`.
    pub fn describe(&self) -> String {
        match self {
            KeySpec::Fixed(n) => n.to_string(),
            KeySpec::PerElement(n) => {
                format!("a positive multiple of {n} (as long as the message)")
            }
            KeySpec::OneOf(v) => {
                let s: Vec<String> = v.iter().map(|n| n.to_string()).collect();
                match s.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => s.concat(),
                }
            }
        }
    }

    /// The key size a fresh key gets (`None` for [`KeySpec::PerElement`]).
    pub fn default_len(&self) -> Option<usize> {
        match self {
            KeySpec::Fixed(n) => Some(*n),
            KeySpec::OneOf(v) => v.first().copied(),
            KeySpec::PerElement(_) => None,
        }
    }

    /// Whether a key of `len` bytes fits.
    pub fn accepts(&self, len: usize) -> bool {
        match self {
            KeySpec::Fixed(n) => len == *n,
            KeySpec::PerElement(n) => len > 0 && len.is_multiple_of(*n),
            KeySpec::OneOf(v) => v.contains(&len),
        }
    }
}

/// What a name takes and gives.
#[derive(Clone, Debug)]
pub struct Info {
    /// The name as `unimac compute` takes it (with `tree-`/`mac-` prefixes).
    pub name: String,
    /// Key size.
    pub key: KeySpec,
    /// Nonce size in bytes, or 0 for none; for names whose nonce may be
    /// shorter (`nonce_sizes`), the largest size.
    pub nonce: usize,
    /// Output size in bytes (for `keystream`, the `--len` argument decides).
    pub out: usize,
    /// Whether the name takes `--len` (only `keystream`).
    pub takes_len: bool,
    /// One line on what it is.
    pub summary: String,
}

/// Arguments of one computation. `Debug` shows the key's length, never its
/// bytes.
#[derive(Clone, Copy, Default)]
pub struct Params<'a> {
    pub key: &'a [u8],
    pub nonce: Option<&'a [u8]>,
    pub len: Option<usize>,
}

impl core::fmt::Debug for Params<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Params")
            .field("key", &format_args!("<{} secret bytes>", self.key.len()))
            .field("nonce", &self.nonce)
            .field("len", &self.len)
            .finish()
    }
}

/// A computation under way: feed the message in any chunking, then finalize.
pub trait Stream: Send {
    /// A copy of this computation in its current state, for the names whose
    /// output is a function of the message alone under a key kept for many
    /// messages (hashes and stateless MACs); `None` where a copy could tag two
    /// messages under one nonce or one-message key, or the state cannot be
    /// copied.
    fn try_clone(&self) -> Option<Box<dyn Stream>> {
        None
    }

    /// Absorb more of the message.
    fn update(&mut self, data: &[u8]);
    /// The output; an error if the message as a whole does not fit the name.
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error>;

    /// For a layered hash (UMAC, VMAC, a tree): what hashes stripes of this
    /// message on other threads ([`crate::stripe`]); `None` for the others.
    fn striper(&self) -> Option<crate::stripe::Striper> {
        None
    }
    /// Take the next stripe of the message, in message order (see
    /// [`crate::stripe`]); an error, with nothing absorbed, if this stream
    /// takes no stripes, holds part of a unit, or the stripe was made
    /// under another key.
    fn absorb_stripe(&mut self, _stripe: &crate::stripe::Stripe) -> Result<(), Error> {
        Err(crate::stripe::unsupported())
    }
}

/// What a message's bytes are fed into: every stream the command line, the
/// Python package and its Dask path feed — a [`Stream`], a MAC whose nonce
/// comes at the end ([`crate::mac::Pending`]), a one-time MAC's check
/// ([`crate::registry::OneTimeCheck`]) — with the stripes of
/// [`crate::stripe`] where the hash is layered. One interface, so a reader
/// of files is written once for all of them.
pub trait Absorb: Send {
    /// Absorb more of the message.
    fn update(&mut self, data: &[u8]);
    /// What hashes stripes of this message on other threads, for a layered
    /// hash (UMAC, VMAC, a tree); `None` for the others.
    fn striper(&self) -> Option<crate::stripe::Striper> {
        None
    }
    /// Take the next stripe of the message, in message order; an error,
    /// with nothing absorbed, if this stream takes no stripes.
    fn absorb_stripe(&mut self, _stripe: &crate::stripe::Stripe) -> Result<(), Error> {
        Err(crate::stripe::unsupported())
    }
}

impl<S: Stream + ?Sized> Absorb for S {
    fn update(&mut self, data: &[u8]) {
        Stream::update(self, data)
    }
    fn striper(&self) -> Option<crate::stripe::Striper> {
        Stream::striper(self)
    }
    fn absorb_stripe(&mut self, stripe: &crate::stripe::Stripe) -> Result<(), Error> {
        Stream::absorb_stripe(self, stripe)
    }
}

impl<S: Stream + ?Sized> Stream for Box<S> {
    fn try_clone(&self) -> Option<Box<dyn Stream>> {
        (**self).try_clone()
    }
    fn update(&mut self, data: &[u8]) {
        (**self).update(data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        S::finalize(*self)
    }
    fn striper(&self) -> Option<crate::stripe::Striper> {
        (**self).striper()
    }
    fn absorb_stripe(&mut self, stripe: &crate::stripe::Stripe) -> Result<(), Error> {
        (**self).absorb_stripe(stripe)
    }
}

pub(crate) type Opener = Box<dyn Fn(&Params<'_>) -> Result<Box<dyn Stream>, Error> + Send + Sync>;
pub(crate) type KeyOpener = Box<dyn Fn(&Params<'_>) -> Result<Box<dyn Keyed>, Error> + Send + Sync>;

/// A name under one key, with its key set-up done once (hash127's powers of
/// `r`, Shoup's minimal polynomial, the tree's level keys, AES schedules):
/// start any number of messages from it. Made by the catalogue's `key`.
///
/// The nonce of a nonce MAC is per message: give it to
/// [`Keyed::start_with_nonce`] (checked against the name's nonce size, with
/// the same errors as the catalogue's `open`); names without a nonce take `None`.
///
/// `mac-hash127` authenticates one message per key (docs/WIRE.md §8.2): its keyed
/// object starts one message and refuses the next ([`Error::KeySpent`]);
/// [`Keyed::start_check`] verifies any number.
pub trait Keyed: Send + Sync {
    /// Start a message under `nonce` (`Some` exactly for nonce MACs).
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error>;

    /// Start a message of a name without a nonce.
    fn start(&self) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(None)
    }

    /// One-shot: the output for `msg` (under `nonce` for nonce MACs).
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let mut s = self.start_with_nonce(nonce)?;
        Stream::update(&mut s, msg);
        s.finalize()
    }

    /// One-shot into `out`, which must hold the output (its length is
    /// returned): [`compute`](Self::compute) without an allocation where the
    /// family has such a path (every MAC of docs/WIRE.md §8 and the hashes under
    /// them); by default `compute`, copied.
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        put(out, &self.compute(nonce, msg)?)
    }

    /// Start a message whose output is only compared with a tag received
    /// (verification): the same computation, but it never spends a one-time
    /// key (`mac-hash127`), which [`start_with_nonce`](Self::start_with_nonce)
    /// does.
    fn start_check(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        self.start_with_nonce(nonce)
    }
}

pub(crate) enum Opening {
    /// Key set-up per message (entries made with [`Entry::new`]).
    PerMessage(Opener),
    /// Key set-up once ([`Entry::keyed`]).
    Keyed(KeyOpener),
}

/// A name and how to start computing it. Lengths are checked by [`open`](crate::registry::open) /
/// [`key`](crate::registry::key) before the opener runs.
pub struct Entry {
    pub info: Info,
    pub(crate) opening: Opening,
    /// The row of the MAC table this entry is (`mac-` names): its nonce
    /// rule is the row's.
    pub(crate) mac: Option<&'static crate::macs::MacDesc>,
    /// The output does not depend on the message (a key set-up shown as a
    /// name: `division64-key`, `gdivision64-key`).
    pub(crate) ignores_message: bool,
}

impl Entry {
    /// An entry of a family's catalog whose opener does its key set-up for
    /// every message.
    pub fn new(
        info: Info,
        opener: impl Fn(&Params<'_>) -> Result<Box<dyn Stream>, Error> + Send + Sync + 'static,
    ) -> Entry {
        Entry {
            info,
            opening: Opening::PerMessage(Box::new(opener)),
            mac: None,
            ignores_message: false,
        }
    }

    /// An entry whose opener sets the key up once and returns a [`Keyed`]
    /// object. The opener gets checked key and length arguments (its `nonce`
    /// is always `None`); the keyed object gets nonces already checked.
    pub fn keyed(
        info: Info,
        opener: impl Fn(&Params<'_>) -> Result<Box<dyn Keyed>, Error> + Send + Sync + 'static,
    ) -> Entry {
        Entry {
            info,
            opening: Opening::Keyed(Box::new(opener)),
            mac: None,
            ignores_message: false,
        }
    }

    /// The row of the MAC table this name is (`mac-` names); `None` for
    /// hashes.
    pub fn mac(&self) -> Option<&'static crate::macs::MacDesc> {
        self.mac
    }

    /// Whether the output is a function of a message (not of the key
    /// alone, or of a `--len`).
    pub fn hashes_message(&self) -> bool {
        !self.ignores_message && !self.info.takes_len
    }

    /// Marks an entry whose output does not depend on the message.
    pub(crate) fn ignoring_message(mut self) -> Entry {
        self.ignores_message = true;
        self
    }
}

/// A [`Keyed`] object of a one-block function: the message is kept whole and
/// `f` applied at the end (MMH/NMH, Square Hash: keys cheap to set up).
/// Copy `bytes` to the front of `out` (for [`Keyed::compute_into`]).
pub(crate) fn put(out: &mut [u8], bytes: &[u8]) -> Result<usize, Error> {
    match out.get_mut(..bytes.len()) {
        Some(o) => {
            o.copy_from_slice(bytes);
            Ok(bytes.len())
        }
        None => Err(Error::Invalid(format!(
            "output buffer of {} bytes, {} needed",
            out.len(),
            bytes.len()
        ))),
    }
}

pub(crate) struct OneShot<F>(pub(crate) Arc<F>);

impl<F: Fn(&[u8]) -> Result<Vec<u8>, Error> + Send + Sync + 'static> Keyed for OneShot<F> {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        let f = Arc::clone(&self.0);
        Ok(Buffered::boxed(move |m: &[u8]| f(m)))
    }
}

impl<F: Fn(&[u8]) -> Result<Vec<u8>, Error> + Send + Sync + 'static> OneShot<F> {
    pub(crate) fn boxed(f: F) -> Box<dyn Keyed> {
        Box::new(OneShot(Arc::new(f)))
    }
}

/// A [`Stream`] that keeps the whole message and applies a one-shot function
/// at the end; for block functions whose input is one bounded block.
pub(crate) struct Buffered<F: FnOnce(&[u8]) -> Result<Vec<u8>, Error> + Send> {
    msg: Vec<u8>,
    f: Option<F>,
}

impl<F: FnOnce(&[u8]) -> Result<Vec<u8>, Error> + Send> Buffered<F> {
    pub(crate) fn boxed(f: F) -> Box<dyn Stream>
    where
        F: 'static,
    {
        Box::new(Buffered {
            msg: Vec::new(),
            f: Some(f),
        })
    }
}

impl<F: FnOnce(&[u8]) -> Result<Vec<u8>, Error> + Send> Stream for Buffered<F> {
    fn update(&mut self, data: &[u8]) {
        self.msg.extend_from_slice(data);
    }
    fn finalize(mut self: Box<Self>) -> Result<Vec<u8>, Error> {
        let f = self.f.take().expect("finalize runs once");
        f(&self.msg)
    }
}

/// `pad(M, B)` of the wire format (docs/WIRE.md §1): append 0x01, then zeros to a multiple of `b`.
pub fn pad(m: &[u8], b: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(m.len() + b);
    v.extend_from_slice(m);
    v.push(1);
    while v.len() % b != 0 {
        v.push(0);
    }
    v
}

// ---------------------------------------------------------------------------
// Block functions (docs/WIRE.md §6): what the tree mode is built from
// ---------------------------------------------------------------------------

/// A block function under one key: hashes whole blocks, many at a time (so a
/// fast path can work across blocks).
pub trait BlockHash: Send + Sync {
    /// `blocks.len()` is a multiple of the block size `B`; writes `O` bytes per
    /// block into `out` (`out.len() == blocks.len() / B * O`).
    fn hash_blocks(&self, blocks: &[u8], out: &mut [u8]);
}

type KeyedFn = Arc<dyn Fn(&[u8]) -> Box<dyn BlockHash> + Send + Sync>;

/// A block function of the table in docs/WIRE.md §6: its sizes and how to key it.
#[derive(Clone)]
pub struct BlockFamily {
    /// Wire name of `F` (e.g. `mmh32x2`).
    pub name: String,
    /// Block size `B` in bytes.
    pub block: usize,
    /// Output size `O` in bytes.
    pub out: usize,
    /// Key size `K` in bytes.
    pub key: usize,
    /// The group in which `F` (and so `tree-F`) is proven
    /// almost-Δ-universal: where a Wegman–Carter MAC adds its pad.
    pub group: DeltaGroup,
    keyed: KeyedFn,
}

impl BlockFamily {
    /// A block family; `keyed` gets exactly `key` bytes.
    pub fn new(
        name: impl Into<String>,
        block: usize,
        out: usize,
        key: usize,
        group: DeltaGroup,
        keyed: impl Fn(&[u8]) -> Box<dyn BlockHash> + Send + Sync + 'static,
    ) -> BlockFamily {
        // pad(X, B) adds at least one byte, so a level of `n` blocks gives
        // `(n + 1)·O` bytes to the next: the tree ends only if `2·O < B`.
        assert!(2 * out < block, "a tree needs 2·O < B");
        BlockFamily {
            name: name.into(),
            block,
            out,
            key,
            group,
            keyed: Arc::new(keyed),
        }
    }

    /// `F` under `key` (`key.len() == self.key`).
    pub fn keyed(&self, key: &[u8]) -> Box<dyn BlockHash> {
        assert_eq!(key.len(), self.key);
        (self.keyed)(key)
    }
}

// ---------------------------------------------------------------------------
// MACs whose nonce comes last
// ---------------------------------------------------------------------------

/// A MAC whose message is hashed before its nonce is known (UMAC and VMAC
/// add their pad last, as every nonce MAC of docs/WIRE.md §8 does): the by-name
/// `NamedMac::start_deferred` of [`crate::registry`] hands one out.
pub(crate) trait DeferredNonce: Send {
    /// Absorb more of the message.
    fn update(&mut self, data: &[u8]);
    /// As [`Stream::striper`].
    fn striper(&self) -> Option<crate::stripe::Striper> {
        None
    }
    /// As [`Stream::absorb_stripe`].
    fn absorb_stripe(&mut self, _stripe: &crate::stripe::Stripe) -> Result<(), Error> {
        Err(crate::stripe::unsupported())
    }
    /// The tag under `nonce`.
    fn finalize(self: Box<Self>, nonce: &[u8]) -> Result<Vec<u8>, Error>;
}
