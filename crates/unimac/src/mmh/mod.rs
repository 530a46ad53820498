//! mmh (work in progress: names are added to the catalog as they are implemented).

use crate::registry::Entry;
use crate::tree::BlockFamily;

pub(crate) fn catalog() -> Vec<Entry> {
    Vec::new()
}

/// The block functions of this family that have a tree mode (SPEC §5).
pub fn block_families() -> Vec<BlockFamily> {
    Vec::new()
}
