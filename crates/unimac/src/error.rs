//! One error type for the whole library; every message is a single line that
//! names the problem, so the CLI can print it as it is.

use crate::prelude::*;
use core::fmt;

/// Everything that can go wrong when a caller hands unimac a name, a key, a
/// nonce or a message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The name is not one of the public names of the wire format (docs/WIRE.md).
    UnknownName(String),
    /// The name is known but this build does not implement it.
    NotImplemented(String),
    /// The key has the wrong length for the name.
    KeyLength { name: String, expected: String, got: usize },
    /// The nonce has the wrong length.
    NonceLength { name: String, expected: usize, got: usize },
    /// A nonce MAC was called without a nonce.
    MissingNonce(String),
    /// A nonce was given to a name that takes none.
    UnexpectedNonce(String),
    /// The message does not fit the name (e.g. `hash127-raw` on a length that is
    /// not a multiple of 4, or a block function fed a message of the wrong size).
    Message { name: String, reason: String },
    /// A tag did not verify.
    TagMismatch,
    /// A one-message key (`hash127`) was already used for a tag.
    KeySpent(String),
    /// A one-time MAC was asked for by a door that could tag twice: it is
    /// served only by the one-time interface.
    OneTimeOnly(String),
    /// A caller offered the random pair of a MAC that draws its own
    /// (`shoup4-*`).
    CallerPair(String),
    /// Memory for an output could not be allocated (the message names what).
    OutOfMemory(String),
    /// Any other invalid argument.
    Invalid(String),
    /// A file could not be created, read, written or synced (the nonce
    /// counter file of `unimac::counter`, feature `std`); the message names
    /// the file.
    Io(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownName(n) => write!(f, "unknown name '{n}' (see 'unimac list')"),
            Error::NotImplemented(n) => write!(f, "{n}: not implemented"),
            Error::KeyLength { name, expected, got } => {
                write!(f, "{name}: key must be {expected} bytes, got {got}")
            }
            Error::NonceLength { name, expected, got } => {
                write!(f, "{name}: nonce must be {expected} bytes, got {got}")
            }
            Error::MissingNonce(n) => write!(f, "{n}: this MAC needs a nonce"),
            Error::UnexpectedNonce(n) => write!(f, "{n}: takes no nonce"),
            Error::Message { name, reason } => write!(f, "{name}: {reason}"),
            Error::TagMismatch => write!(f, "tag mismatch"),
            Error::KeySpent(n) => write!(
                f,
                "{n}: this one-time key has already tagged a message (one message per key); make a new key"
            ),
            Error::OneTimeOnly(n) => write!(
                f,
                "{n} is a one-time MAC (one message per key): only the one-time interface tags with it (Rust: registry::OneTimeMac; Python: unimac.OneTimeKey; command line: 'unimac tag' with its key file, which marks the key spent)"
            ),
            Error::CallerPair(n) => write!(
                f,
                "{n} draws its random r || s for every message itself: no tagging interface takes one (known answers: the known-answer interface)"
            ),
            Error::OutOfMemory(s) => write!(f, "{s}: out of memory"),
            Error::Invalid(s) => write!(f, "{s}"),
            Error::Io(s) => write!(f, "{s}"),
        }
    }
}

impl core::error::Error for Error {}

impl From<crate::tag::MacError> for Error {
    fn from(_: crate::tag::MacError) -> Error {
        Error::TagMismatch
    }
}
