//! The plumbing unimac's two front ends share, the command line
//! (`unimac-cli`) and the Python package (`unimac-py`): the table of MAC
//! rules, the catalogue behind the names, name resolution with "did you
//! mean", size parsing, the strength policy, the front ends' messages, the
//! formats' lower levels and the file rules (open only regular files, write
//! whole files or none, re-read or refuse a file that changes while it is
//! read).
//!
//! Everything here is `unimac::unstable`, which this crate pins to one
//! exact version of `unimac`: not a stable API. A Rust application uses
//! `unimac`'s stable modules instead.
//!
//! `use unimac_front::prelude::*;` brings the methods the stable types have
//! for the front ends into scope (`KeyFile::desc`, `NamedMac::of_row`, ...).

pub use unimac::unstable::*;
