//! Nonce last: a message hashed before its nonce is known (the deferred
//! start of every MAC by name), and the finishes of hash values computed
//! elsewhere.

use super::*;

// ---------------------------------------------------------------------------
// Nonce last: a message hashed before its nonce is known
// ---------------------------------------------------------------------------

impl Hash127Aes {
    /// The tag of the hash value `h` (hashed elsewhere: the partial hashes).
    pub(crate) fn finish_value(&self, h: &[u8; 16]) -> [u8; 16] {
        aes_raw(&self.aes, h)
    }

    /// A message (it takes no nonce) started from this key's set-up: the
    /// typed hash127 state, no stream behind a pointer.
    pub(crate) fn start_deferred(&self, d: &'static MacDesc) -> Pending {
        Pending::h127(Hash127::new(&self.r), PendingFinish::Scramble(Arc::clone(&self.aes)), d)
    }
}

impl Hash127AesNonce {
    /// A message started before its nonce is known, from this key's set-up.
    pub(crate) fn start_deferred(&self, d: &'static MacDesc) -> Pending {
        Pending::h127(
            Hash127::new(&self.r),
            PendingFinish::OneTimeScramble(Arc::clone(&self.aes)),
            d,
        )
    }
}

impl Hash127AesAdd {
    /// A message started before its nonce is known, from this key's set-up.
    pub(crate) fn start_deferred(&self, d: &'static MacDesc) -> Pending {
        Pending::h127(
            Hash127::new(&self.r),
            PendingFinish::OneTimePad(Arc::clone(&self.aes)),
            d,
        )
    }
}

pub(super) enum PendingHash {
    H127(Box<Hash127>),
    Other(Box<dyn Stream>),
    /// UMAC, VMAC: the message hashed, the pad made from the nonce at the end.
    Deferred(Box<dyn DeferredNonce>),
}

pub(crate) enum PendingFinish {
    Scramble(Arc<Aes128>),
    OneTimeScramble(Arc<Aes128>),
    OneTimePad(Arc<Aes128>),
    Wc(Arc<Aes128>, usize, DeltaGroup),
    /// A MAC of [`shoup`] (docs/WIRE.md §8.5): its pad from the nonce, XORed.
    Pad(shoup::DeferredPad),
    Deferred,
}

/// A MAC whose message is being hashed and whose nonce comes at the end
/// ([`crate::registry::NamedMac::start_deferred`]).
pub struct Pending {
    hash: PendingHash,
    finish: PendingFinish,
    desc: &'static MacDesc,
}

impl Pending {
    /// Absorb more of the message.
    pub(crate) fn update(&mut self, data: &[u8]) {
        match &mut self.hash {
            PendingHash::H127(h) => h.update(data),
            PendingHash::Other(s) => s.update(data),
            PendingHash::Deferred(d) => d.update(data),
        }
    }

    /// For a MAC over a layered hash (UMAC, VMAC, a tree's `wc-` MAC): what
    /// hashes stripes of this message on other threads
    /// ([`crate::stripe`]); `None` for the others.
    pub(crate) fn striper(&self) -> Option<crate::stripe::Striper> {
        match &self.hash {
            PendingHash::H127(_) => None,
            PendingHash::Other(s) => s.striper(),
            PendingHash::Deferred(d) => d.striper(),
        }
    }

    /// Take the next stripe of the message, in message order (see
    /// [`crate::stripe`]); an error, with nothing absorbed, if this MAC
    /// takes no stripes, holds part of a unit, or the stripe was made under
    /// another key.
    pub(crate) fn absorb_stripe(&mut self, stripe: &crate::stripe::Stripe) -> Result<(), Error> {
        match &mut self.hash {
            PendingHash::H127(_) => Err(crate::stripe::unsupported()),
            PendingHash::Other(s) => s.absorb_stripe(stripe),
            PendingHash::Deferred(d) => d.absorb_stripe(stripe),
        }
    }

    /// The tag as sent under `nonce`, which must follow the row's nonce
    /// rule (its lengths: [`NamedMac::nonce_sizes`](crate::registry::NamedMac::nonce_sizes)); for a MAC that draws its own
    /// random pair (`shoup4-*`), `nonce` is `None`, the pair is drawn here
    /// and the result is `r ‖ s ‖ tag`.
    pub fn finalize(self, nonce: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        self.desc.check_nonce(nonce)?;
        if let PendingHash::Deferred(d) = self.hash {
            return d.finalize(nonce.unwrap_or_default());
        }
        let pair = match self.desc.framing {
            crate::macs::Framing::PairThenTag => Some(shoup::random_rs()?),
            crate::macs::Framing::Tag => None,
        };
        let n: Option<[u8; 16]> = match (pair, nonce) {
            (Some(rs), _) => Some(rs),
            (None, None) => None,
            (None, Some(n)) => Some(nonce16(n, self.desc.name)?),
        };
        if let Some(rs) = pair {
            let (PendingHash::Other(s), PendingFinish::Pad(pad)) = (self.hash, self.finish) else {
                unreachable!("a random-pair row finishes with its pad")
            };
            let mut sent = rs.to_vec();
            sent.extend_from_slice(&pad.apply(&rs, &Zeroizing::new(s.finalize()?))?);
            return Ok(sent);
        }
        let nonce = || n.expect("nonce MACs have a nonce");
        match (self.hash, self.finish) {
            (PendingHash::H127(h), finish) => {
                let finish = match finish {
                    PendingFinish::Scramble(aes) => Hash127End::Scramble(aes),
                    PendingFinish::OneTimeScramble(aes) => {
                        let pad = aes_block(&aes, &nonce());
                        Hash127End::OneTimeScramble(aes, pad)
                    }
                    PendingFinish::OneTimePad(aes) => Hash127End::OneTimePad(aes_block(&aes, &nonce())),
                    PendingFinish::Wc(..)
                    | PendingFinish::Pad(_)
                    | PendingFinish::Deferred
                    => {
                        unreachable!("hash127 MACs are not wc-")
                    }
                };
                Ok(Hash127Stream { h: *h, finish }.finalize().to_vec())
            }
            (PendingHash::Other(s), PendingFinish::Wc(aes, out, group)) => WcStream {
                inner: s,
                pad: aes_block(&aes, &nonce()),
                out,
                group,
            }
            .finalize(),
            (PendingHash::Other(s), PendingFinish::Pad(pad)) => {
                pad.apply(&nonce(), &Zeroizing::new(s.finalize()?))
            }
            (PendingHash::Other(_), _) => unreachable!("wc- MACs finish with a pad"),
            (PendingHash::Deferred(_), _) => unreachable!("finalized above"),
        }
    }
}

impl crate::traits::Absorb for Pending {
    fn update(&mut self, data: &[u8]) {
        Pending::update(self, data)
    }
    fn striper(&self) -> Option<crate::stripe::Striper> {
        Pending::striper(self)
    }
    fn absorb_stripe(&mut self, stripe: &crate::stripe::Stripe) -> Result<(), Error> {
        Pending::absorb_stripe(self, stripe)
    }
}

impl Pending {
    /// A UMAC or VMAC message (docs/WIRE.md §8.6) under way: its pad comes from the
    /// nonce at the end.
    pub(crate) fn deferred(d: Box<dyn DeferredNonce>, desc: &'static MacDesc) -> Pending {
        Pending {
            hash: PendingHash::Deferred(d),
            finish: PendingFinish::Deferred,
            desc,
        }
    }

    /// A hash127 MAC's message, finished by `finish` once the nonce is known.
    fn h127(h: Hash127, finish: PendingFinish, desc: &'static MacDesc) -> Pending {
        Pending {
            hash: PendingHash::H127(Box::new(h)),
            finish,
            desc,
        }
    }

    /// A message of a hash `stream` whose tag is `finish` applied to its
    /// value once the nonce (or random pair) is known.
    pub(crate) fn other(
        stream: Box<dyn Stream>,
        finish: PendingFinish,
        desc: &'static MacDesc,
    ) -> Pending {
        Pending {
            hash: PendingHash::Other(stream),
            finish,
            desc,
        }
    }
}
