//! Every file format of unimac, once, for every front end (the command
//! line and the Python package call these; feature `std`): key files and
//! their one-time spending ([`keyfile`]), check lines ([`checkline`]),
//! sealed manifests ([`manifest`]), authenticated streams ([`stream`]), the keys derived for each purpose
//! ([`derive`](mod@derive)), the strength policy ([`policy`]), one walk of a tree
//! ([`walk`]) and the file rules they share ([`fsio`]: open only regular
//! files, write whole files or none; [`race`]: a file that changes while
//! it is read is re-read or refused), and nonce counter files
//! ([`counter`], also `unimac::counter`).
//!
//! Each format is a construction: one key per purpose (the manifest seal
//! runs under a key derived for it, never the file key), one byte form per
//! value, verifiers that read nothing an unverified list names, writes
//! that leave no half file. docs/WIRE.md gives the bytes, docs/SECURITY.md
//! the reasons.

pub mod checkline;
pub mod counter;
pub mod derive;
pub mod fsio;
pub mod keyfile;
pub mod manifest;
pub mod policy;
pub mod race;
pub mod stream;
pub mod walk;

