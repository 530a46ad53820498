//! # unimac
//!
//! Fast, provably secure message authentication from universal hashing:
//! Bernstein's hash127, Halevi–Krawczyk's MMH and NMH, Etzel–Patel–Ramzan's
//! Square Hash, and Shoup's evaluation and division hashes, each exact on
//! every input, each with a portable path and run-time-dispatched fast paths,
//! and the Wegman–Carter MACs built on them with their proven forgery bounds.
//!
//! Every public name of the wire specification is reachable by name through
//! [`registry`]; each family also has its own typed API in its module.

pub mod bounds;
pub mod error;
pub mod group;
pub mod hash127;
pub mod mac;
pub mod mmh;
pub mod modp;
pub mod platform;
pub mod registry;
pub mod rustcrypto;
pub mod shoup;
pub mod square;
pub mod tag;
pub mod threads;
pub mod tree;
pub mod umac;
#[cfg(feature = "vectors")]
pub mod vectors;
pub mod vmac;

pub use error::Error;
pub use tag::{MacError, Tag};
pub use platform::Platform;
pub use registry::{compute, open, Params, Stream};
