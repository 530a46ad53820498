//! A UMAC tag under way ([`UmacStream`]), and one whose nonce comes at the
//! end ([`UmacPending`]).

use super::*;

/// A UMAC tag under way: feed the message in any chunking, then
/// [`finalize`](UmacStream::finalize). `T` is the tag length in bytes.
pub struct UmacStream<const T: usize> {
    pub(super) key: Arc<UmacKey>,
    /// `None` only inside [`UmacPending`] (the nonce comes at the end).
    pub(super) pad: Option<Zeroizing<u128>>,
    /// The partial chunk (message bytes, not key material: not wiped).
    pub(super) buf: [u8; CHUNK],
    pub(super) fill: usize,
    pub(super) l2: [L2; 4],
}

impl<const T: usize> UmacStream<T> {
    /// Absorb more of the message. Full chunks are hashed at once: a full last
    /// chunk gets the same L1 value as any other (its bit length is 8192 and
    /// it needs no padding), so only a partial chunk waits for the end.
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        if self.fill > 0 {
            let n = (CHUNK - self.fill).min(data.len());
            self.buf[self.fill..self.fill + n].copy_from_slice(&data[..n]);
            self.fill += n;
            data = &data[n..];
            if self.fill < CHUNK {
                return;
            }
            l1(&self.key, &mut self.l2, &self.buf[..], (CHUNK * 8) as u64);
            self.fill = 0;
        }
        let whole = data.len() / CHUNK * CHUNK;
        l1_chunks(&self.key, &mut self.l2, &data[..whole]);
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.fill = rest.len();
    }

    /// A [`Striper`](crate::stripe::Striper) for this message's key: the
    /// L1 hashes of stripes of whole chunks on other threads.
    pub(crate) fn striper(&self) -> crate::stripe::Striper {
        crate::stripe::Striper::new(Arc::clone(&self.key))
    }

    /// Take the next stripe of the message (hashed by [`striper`](Self::striper)),
    /// in message order; an error, with nothing absorbed, if this stream
    /// holds part of a chunk or the stripe was made under another key.
    pub(crate) fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        crate::stripe::check(&*self.key, s)?;
        if self.fill != 0 {
            return Err(crate::stripe::unaligned(CHUNK));
        }
        let crate::stripe::Body::Umac(words) = &s.body else {
            return Err(crate::stripe::unsupported());
        };
        let n = self.key.iters;
        for w in words.chunks_exact(n) {
            for ((l2, k), &a) in self.l2.iter_mut().zip(self.key.l2.iter()).zip(w) {
                l2.absorb(k, a);
            }
        }
        Ok(())
    }

    /// The tag.
    pub fn finalize(self) -> [u8; T] {
        let pad = self
            .pad
            .clone()
            .expect("a UmacStream is started with its nonce");
        self.finish(*pad)
    }

    fn finish(mut self, pad: u128) -> [u8; T] {
        // The last chunk, zero-padded to a positive multiple of 32 bytes by
        // `l1`. (A message of whole chunks has had them all hashed already.)
        let n = self.fill;
        if n > 0 || self.l2[0].count == 0 {
            l1(&self.key, &mut self.l2, &self.buf[..n], 8 * n as u64);
        }
        tag_of(&self.key, &self.l2, pad)
    }
}

/// A UMAC message being hashed whose nonce is given at the end
/// (`Umac::start_deferred`): UHASH does not depend on the nonce.
pub struct UmacPending<const T: usize>(pub(super) UmacStream<T>);

impl<const T: usize> UmacPending<T> {
    /// Absorb more of the message.
    pub fn update(&mut self, data: &[u8]) {
        self.0.update(data)
    }
    /// `UmacStream::striper`.
    pub fn striper(&self) -> crate::stripe::Striper {
        self.0.striper()
    }
    /// `UmacStream::absorb_stripe`.
    pub fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        self.0.absorb_stripe(s)
    }
    /// The tag under `nonce` (1 to 16 bytes).
    pub fn finalize(self, nonce: &[u8]) -> Result<[u8; T], Error> {
        check_nonce(Umac::<T>::name(), nonce)?;
        let pad = self.0.key.pad::<T>(nonce);
        Ok(self.0.finish(*pad))
    }
}

impl<const T: usize> crate::traits::DeferredNonce for UmacPending<T> {
    fn update(&mut self, data: &[u8]) {
        UmacPending::update(self, data)
    }
    fn striper(&self) -> Option<crate::stripe::Striper> {
        Some(UmacPending::striper(self))
    }
    fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        UmacPending::absorb_stripe(self, s)
    }
    fn finalize(self: Box<Self>, nonce: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(UmacPending::finalize(*self, nonce)?.to_vec())
    }
}

impl<const T: usize> Stream for UmacStream<T> {
    fn update(&mut self, data: &[u8]) {
        UmacStream::update(self, data)
    }
    fn striper(&self) -> Option<crate::stripe::Striper> {
        Some(UmacStream::striper(self))
    }
    fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        UmacStream::absorb_stripe(self, s)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(UmacStream::finalize(*self).to_vec())
    }
}
