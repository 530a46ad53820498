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

/// Lowercase hex, two digits a byte, as check lines print tags
/// (`{:x}` and `{}` give the same).
impl<const N: usize> core::fmt::LowerHex for Tag<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for b in &self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// The tag in lowercase hex (as [`LowerHex`](core::fmt::LowerHex)).
impl<const N: usize> core::fmt::Display for Tag<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::LowerHex::fmt(self, f)
    }
}

/// A tag from its hex, as check lines write it: exactly `2N` lowercase hex
/// digits. Anything else is an [`Error::Invalid`](crate::Error::Invalid)
/// that names the problem (the length, or the first character that is not
/// a lowercase hex digit, with its place).
impl<const N: usize> core::str::FromStr for Tag<N> {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<Self, crate::Error> {
        let digit = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        if let Some((i, c)) = s.char_indices().find(|&(_, c)| !c.is_ascii() || digit(c as u8).is_none()) {
            let why = if c.is_ascii_hexdigit() { " (tags are lowercase hex)" } else { "" };
            return Err(crate::Error::Invalid(format!(
                "a tag is lowercase hex: {c:?} at character {} is not a lowercase hex digit{why}",
                s[..i].chars().count() + 1
            )));
        }
        if s.len() != 2 * N {
            return Err(crate::Error::Invalid(format!(
                "a tag of {N} bytes is {} hex digits, not {}",
                2 * N,
                s.len()
            )));
        }
        let mut out = [0u8; N];
        for (o, pair) in out.iter_mut().zip(s.as_bytes().chunks_exact(2)) {
            *o = (digit(pair[0]).expect("checked") << 4) | digit(pair[1]).expect("checked");
        }
        Ok(Tag(out))
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

    #[test]
    fn hex_out_and_back() {
        let t = Tag::new([0x01u8, 0xab, 0x00, 0xff]);
        assert_eq!(format!("{t:x}"), "01ab00ff");
        assert_eq!(t.to_string(), "01ab00ff");
        assert_eq!("01ab00ff".parse::<Tag<4>>(), Ok(t));
        let e = |s: &str| s.parse::<Tag<4>>().unwrap_err().to_string();
        assert_eq!(e("01ab00f"), "a tag of 4 bytes is 8 hex digits, not 7");
        assert_eq!(e("01ab00ff00"), "a tag of 4 bytes is 8 hex digits, not 10");
        assert_eq!(e(""), "a tag of 4 bytes is 8 hex digits, not 0");
        assert_eq!(
            e("01AB00ff"),
            "a tag is lowercase hex: 'A' at character 3 is not a lowercase hex digit (tags are lowercase hex)"
        );
        assert_eq!(e("01ab00fg"), "a tag is lowercase hex: 'g' at character 8 is not a lowercase hex digit");
        assert_eq!(e("é1ab00ff"), "a tag is lowercase hex: 'é' at character 1 is not a lowercase hex digit");
        assert_eq!(e(" 1ab00ff"), "a tag is lowercase hex: ' ' at character 1 is not a lowercase hex digit");
        let t16 = Tag::new([7u8; 16]);
        assert_eq!(t16.to_string().parse::<Tag<16>>(), Ok(t16));
    }
}
