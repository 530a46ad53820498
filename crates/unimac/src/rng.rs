//! The operating system's random generator, behind the feature `getrandom`
//! (which `std` implies). Without it every caller gets an error that says
//! so: nothing falls back to a weaker source.

use core::fmt;

/// Why no random bytes were had.
#[derive(Debug)]
pub(crate) struct RandomError(Inner);

#[derive(Debug)]
enum Inner {
    #[cfg(feature = "getrandom")]
    Os(getrandom::Error),
    #[cfg(not(feature = "getrandom"))]
    Off,
}

impl fmt::Display for RandomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            #[cfg(feature = "getrandom")]
            Inner::Os(e) => write!(f, "{e}"),
            #[cfg(not(feature = "getrandom"))]
            Inner::Off => f.write_str("this build of unimac has no random generator (enable its `getrandom` or `std` feature)"),
        }
    }
}

/// The one text of a failed draw from the operating system's random
/// generator (`e`: why), for every caller: the library's key, nonce,
/// prime and temporary-name draws and the front ends' own.
pub fn failed(e: &dyn fmt::Display) -> crate::prelude::String {
    format!("the operating system's random generator failed: {e}")
}

/// Fill `buf` from the operating system's random generator.
#[cfg(feature = "getrandom")]
pub(crate) fn fill(buf: &mut [u8]) -> Result<(), RandomError> {
    getrandom::fill(buf).map_err(|e| RandomError(Inner::Os(e)))
}

/// Without the feature `getrandom`: always an error, `buf` untouched.
#[cfg(not(feature = "getrandom"))]
pub(crate) fn fill(_buf: &mut [u8]) -> Result<(), RandomError> {
    Err(RandomError(Inner::Off))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_failed_draw_says_so_once() {
        assert_eq!(super::failed(&"no entropy"), "the operating system's random generator failed: no entropy");
    }

    #[cfg(feature = "getrandom")]
    #[test]
    fn fills_from_the_os() {
        // 32 random bytes are all zero with probability 2^-256.
        let mut b = [0u8; 32];
        super::fill(&mut b).unwrap();
        assert_ne!(b, [0u8; 32]);
    }

    #[cfg(not(feature = "getrandom"))]
    #[test]
    fn without_the_feature_is_an_error() {
        use crate::prelude::*;
        let mut b = [7u8; 4];
        let e = super::fill(&mut b).unwrap_err().to_string();
        assert!(e.contains("getrandom"), "{e}");
        assert_eq!(b, [7u8; 4]);
    }
}
