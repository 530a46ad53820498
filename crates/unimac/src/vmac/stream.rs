//! A VMAC tag under way ([`VmacStream`]), and one whose nonce comes at the
//! end ([`VmacPending`]).

use super::*;

/// A VMAC tag under way: feed the message in any chunking, then
/// [`finalize`](VmacStream::finalize). `T` is the tag length (8 or 16).
pub struct VmacStream<const T: usize> {
    pub(super) key: Arc<VmacKey>,
    /// `None` only inside [`VmacPending`] (the nonce comes at the end).
    pub(super) pad: Option<Zeroizing<[u64; 2]>>,
    /// The partial block (message bytes, not key material: not wiped).
    pub(super) buf: [u8; BLOCK],
    pub(super) fill: usize,
    pub(super) poly: Poly,
}

impl<const T: usize> VmacStream<T> {
    /// Absorb more of the message. A full block is hashed at once: a message
    /// whose length is a positive multiple of 128 has no partial last block,
    /// so its last block is hashed like any other.
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        if self.fill > 0 {
            let n = (BLOCK - self.fill).min(data.len());
            self.buf[self.fill..self.fill + n].copy_from_slice(&data[..n]);
            self.fill += n;
            data = &data[n..];
            if self.fill < BLOCK {
                return;
            }
            l1(&self.key, &mut self.poly, &self.buf[..]);
            self.fill = 0;
        }
        let whole = data.len() / BLOCK * BLOCK;
        blocks(&self.key, &mut self.poly, &data[..whole]);
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.fill = rest.len();
    }

    /// A [`Striper`](crate::stripe::Striper) for this message's key: L1 and
    /// L2 of stripes of whole blocks on other threads.
    pub(crate) fn striper(&self) -> crate::stripe::Striper {
        crate::stripe::Striper::new(Arc::clone(&self.key))
    }

    /// Take the next stripe of the message (hashed by [`striper`](Self::striper)),
    /// in message order; an error, with nothing absorbed, if this stream
    /// holds part of a block or the stripe was made under another key.
    pub(crate) fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        crate::stripe::check(&*self.key, s)?;
        if self.fill != 0 {
            return Err(crate::stripe::unaligned(BLOCK));
        }
        let crate::stripe::Body::Vmac { blocks, a } = &s.body else {
            return Err(crate::stripe::unsupported());
        };
        join(&self.key, &mut self.poly, *blocks, a);
        Ok(())
    }

    /// The tag.
    pub fn finalize(self) -> [u8; T] {
        let pad = self.pad.clone().expect("a VmacStream is started with its nonce");
        self.finish(&pad)
    }

    fn finish(mut self, pad: &[u64; 2]) -> [u8; T] {
        // The last block, zero-padded to a multiple of 16 bytes by `l1`.
        let n = self.fill;
        if n > 0 {
            l1(&self.key, &mut self.poly, &self.buf[..n]);
        }
        tag_of(&self.key, &self.poly, n, pad)
    }
}

/// A VMAC message being hashed whose nonce is given at the end
/// (`Vmac::start_deferred`): VHASH does not depend on the nonce.
pub struct VmacPending<const T: usize>(pub(super) VmacStream<T>);

#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
impl<const T: usize> VmacPending<T> {
    /// Absorb more of the message.
    pub fn update(&mut self, data: &[u8]) {
        self.0.update(data)
    }
    /// `VmacStream::striper`.
    pub fn striper(&self) -> crate::stripe::Striper {
        self.0.striper()
    }
    /// `VmacStream::absorb_stripe`.
    pub fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        self.0.absorb_stripe(s)
    }
    /// The tag under `nonce` (1 to 16 bytes, a 16-byte one with its top bit clear).
    pub fn finalize(self, nonce: &[u8]) -> Result<[u8; T], Error> {
        check_nonce(Vmac::<T>::name(), nonce)?;
        let pad = Zeroizing::new(self.0.key.pad(nonce));
        Ok(self.0.finish(&pad))
    }
}

impl<const T: usize> crate::traits::DeferredNonce for VmacPending<T> {
    fn update(&mut self, data: &[u8]) {
        VmacPending::update(self, data)
    }
    fn striper(&self) -> Option<crate::stripe::Striper> {
        Some(self.0.striper())
    }
    fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        self.0.absorb_stripe(s)
    }
    fn finalize(self: Box<Self>, nonce: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(VmacPending::finalize(*self, nonce)?.to_vec())
    }
}

impl<const T: usize> Stream for VmacStream<T> {
    fn update(&mut self, data: &[u8]) {
        VmacStream::update(self, data)
    }
    fn striper(&self) -> Option<crate::stripe::Striper> {
        Some(VmacStream::striper(self))
    }
    fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        VmacStream::absorb_stripe(self, s)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(VmacStream::finalize(*self).to_vec())
    }
}
