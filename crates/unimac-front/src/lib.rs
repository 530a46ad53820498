//! The plumbing unimac's two front ends share, the command line
//! (`unimac-cli`) and the Python package (`unimac-py`), and nothing else
//! uses.
//!
//! Its own code: names as people type them, with "did you mean" and the
//! papers cited ([`names`]), counts and sizes as people write them
//! ([`size`]), and the messages both front ends print ([`messages`]).
//!
//! Re-exported from `unimac::unstable`, which this crate pins to one exact
//! version of `unimac`: what the front ends need of the library beyond its
//! stable API (the table of MAC rules `macs`, the catalogue behind the
//! names, the formats' lower levels and the file rules: open only regular
//! files, write whole files or none, re-read or refuse a file that changes
//! while it is read). `use unimac_front::prelude::*;` brings the methods the
//! stable types have for the front ends into scope (`KeyFile::desc`,
//! `NamedMac::of_row`, ...).
//!
//! Not a stable API: a Rust application uses `unimac`'s stable modules.

pub use unimac::unstable::*;

pub mod messages;
pub mod names;
pub mod size;
