//! The one message of the front ends' that the library itself raises (the
//! others are `unimac-front`'s): written once, so that the command line and
//! the Python package say the same.

use crate::prelude::*;

/// A sealed manifest's root that is missing at check time: one line (the
/// front ends exit 2, checking nothing), naming where it was looked for
/// and how to check a tree that is elsewhere (`door`: the command line's
/// `--root DIR`, Python's `root=DIR`).
pub fn root_missing(shown: &str, door: &str) -> String {
    format!(
        "root {shown}: no such directory (the sealed tree, where the manifest records it from its own directory); nothing was checked: to check the tree where it is now, give {door}"
    )
}
