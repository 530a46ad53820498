//! Every file format of unimac, once, for every front end (the command
//! line and the Python package call these; feature `std`): key files and
//! their one-time spending ([`keyfile`]), sealed manifests ([`manifest`]),
//! authenticated streams ([`stream`]) and nonce counter files ([`counter`],
//! also `unimac::counter`).
//!
//! The plumbing they share is the front ends' (feature `frontends`, which
//! the command line and the Python package turn on; not a stable API): check
//! lines (`checkline`), the keys derived for each purpose (`derive`), the
//! strength policy (`policy`), one walk of a tree (`walk`), and the file
//! rules (`fsio`: open only regular files, write whole files or none;
//! `race`: a file that changes while it is read is re-read or refused).
//!
//! Each format is a construction: one key per purpose (the manifest seal
//! runs under a key derived for it, never the file key), one byte form per
//! value, verifiers that read nothing an unverified list names, writes
//! that leave no half file. docs/WIRE.md gives the bytes, docs/SECURITY.md
//! the reasons.

pub mod checkline;
pub mod counter;
#[cfg(feature = "frontends")]
pub mod derive;
#[cfg(not(feature = "frontends"))]
#[allow(dead_code, unreachable_pub)]
pub(crate) mod derive;
#[cfg(feature = "frontends")]
pub mod fsio;
#[cfg(not(feature = "frontends"))]
#[allow(dead_code, unreachable_pub)]
pub(crate) mod fsio;
pub mod keyfile;
pub mod manifest;
#[cfg(feature = "frontends")]
pub mod messages;
#[cfg(not(feature = "frontends"))]
#[allow(dead_code, unreachable_pub)]
pub(crate) mod messages;
#[cfg(feature = "frontends")]
pub mod policy;
#[cfg(not(feature = "frontends"))]
#[allow(dead_code, unreachable_pub)]
pub(crate) mod policy;
#[cfg(feature = "frontends")]
pub mod race;
#[cfg(not(feature = "frontends"))]
#[allow(dead_code, unreachable_pub)]
pub(crate) mod race;
pub mod stream;
#[cfg(feature = "frontends")]
pub mod walk;
#[cfg(not(feature = "frontends"))]
#[allow(dead_code, unreachable_pub)]
pub(crate) mod walk;

