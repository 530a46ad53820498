//! Tags as values: a fixed-size [`Tag`] whose `==` is constant time, and the
//! one error a failed verification gives, [`MacError`] (deliberately without
//! detail: which byte differed is not the caller's business, nor an
//! attacker's).

use crate::prelude::*;
use subtle::ConstantTimeEq;

/// A tag did not verify: wrong value, or wrong length. Carries no detail.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MacError;

impl core::fmt::Display for MacError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("tag mismatch")
    }
}

impl core::error::Error for MacError {}

/// `Ok(())` exactly when `received` equals `computed` (same length, same
/// bytes), compared in constant time.
pub fn verify_tag(computed: &[u8], received: &[u8]) -> Result<(), MacError> {
    if computed.len() == received.len() && bool::from(ct_eq_bytes(computed, received)) {
        Ok(())
    } else {
        Err(MacError)
    }
}

/// Whether `a == b` (equal lengths), in a time that depends on the length
/// only: the XORs of 8-byte words are ORed together and the result compared
/// with zero by `subtle` (no branch on the bytes, and eight bytes a step
/// instead of `subtle`'s one).
fn ct_eq_bytes(a: &[u8], b: &[u8]) -> subtle::Choice {
    debug_assert_eq!(a.len(), b.len());
    let mut diff = 0u64;
    let (mut ca, mut cb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut ca).zip(&mut cb) {
        diff |= u64::from_le_bytes(x.try_into().expect("8 bytes")) ^ u64::from_le_bytes(y.try_into().expect("8 bytes"));
    }
    for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
        diff |= (x ^ y) as u64;
    }
    diff.ct_eq(&0)
}

/// A tag of `N` bytes. Equality is constant time (`subtle`), so comparing a
/// computed tag with a received one leaks nothing through timing. Tags are
/// public values: `Debug` shows them in hex.
#[derive(Clone, Copy)]
pub struct Tag<const N: usize>([u8; N]);

impl<const N: usize> Tag<N> {
    /// The tag with these bytes.
    pub const fn new(bytes: [u8; N]) -> Self {
        Tag(bytes)
    }
    /// Its bytes.
    pub fn as_bytes(&self) -> &[u8; N] {
        &self.0
    }
    /// Its bytes, by value.
    pub fn into_bytes(self) -> [u8; N] {
        self.0
    }
    /// `N`.
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(&self) -> usize {
        N
    }
    /// Its bytes in a new vector (for by-name interfaces of variable length).
    pub fn to_vec(&self) -> Vec<u8> {
        self.0.to_vec()
    }
    /// `Ok(())` if `received` is this tag (constant time; any other length
    /// is a mismatch).
    pub fn verify_slice(&self, received: &[u8]) -> Result<(), MacError> {
        verify_tag(&self.0, received)
    }
}

impl<const N: usize> PartialEq for Tag<N> {
    fn eq(&self, other: &Self) -> bool {
        bool::from(ct_eq_bytes(&self.0, &other.0))
    }
}

impl<const N: usize> Eq for Tag<N> {}

impl<const N: usize> PartialEq<[u8; N]> for Tag<N> {
    fn eq(&self, other: &[u8; N]) -> bool {
        bool::from(ct_eq_bytes(&self.0, other))
    }
}

impl<const N: usize> PartialEq<Tag<N>> for [u8; N] {
    fn eq(&self, other: &Tag<N>) -> bool {
        bool::from(ct_eq_bytes(self, &other.0))
    }
}

impl<const N: usize> PartialEq<[u8]> for Tag<N> {
    fn eq(&self, other: &[u8]) -> bool {
        verify_tag(&self.0, other).is_ok()
    }
}

impl<const N: usize> PartialEq<Vec<u8>> for Tag<N> {
    fn eq(&self, other: &Vec<u8>) -> bool {
        verify_tag(&self.0, other).is_ok()
    }
}

impl<const N: usize> PartialEq<Tag<N>> for Vec<u8> {
    fn eq(&self, other: &Tag<N>) -> bool {
        verify_tag(self, &other.0).is_ok()
    }
}

impl<const N: usize> AsRef<[u8]> for Tag<N> {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl<const N: usize> From<[u8; N]> for Tag<N> {
    fn from(b: [u8; N]) -> Self {
        Tag(b)
    }
}

impl<const N: usize> core::fmt::Debug for Tag<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Tag(")?;
        for b in &self.0 {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_is_a_result_and_length_matters() {
        let t = Tag::new([1u8, 2, 3, 4]);
        assert_eq!(t.verify_slice(&[1, 2, 3, 4]), Ok(()));
        assert_eq!(t.verify_slice(&[1, 2, 3, 5]), Err(MacError));
        assert_eq!(t.verify_slice(&[1, 2, 3]), Err(MacError));
        assert_eq!(t.verify_slice(&[1, 2, 3, 4, 0]), Err(MacError));
        assert!(t.verify_slice(&[9, 2, 3, 4]).is_err(), "a wrong tag is never Ok");
        assert_eq!(t, Tag::new([1, 2, 3, 4]));
        assert_ne!(t, Tag::new([1, 2, 3, 0]));
        assert_eq!(format!("{t:?}"), "Tag(01020304)");
        assert_eq!(MacError.to_string(), "tag mismatch");
    }
}
