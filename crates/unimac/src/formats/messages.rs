//! The messages of the front ends' that the library itself raises (the
//! others are `unimac-front`'s): written once, so that the command line and
//! the Python package say the same.

use crate::prelude::*;

/// The one text of a failed draw from the operating system's random
/// generator: "the operating system's random generator failed: WHY".
pub use crate::rng::failed as random_failed;

/// How every refusal to write over a file ends (Python's door makes it a
/// `FileExistsError` by it).
pub const NOT_OVERWRITING: &str = " already exists; not overwriting it";

/// A new file (`shown`: its kind and name, "manifest M", or the name
/// alone) not written because a file of that name exists: every writer's
/// one text.
pub fn already_exists(shown: &str) -> String {
    format!("{shown}{NOT_OVERWRITING}")
}

/// A sealed manifest's root that is missing at check time: one line (the
/// front ends exit 2, checking nothing), naming where it was looked for
/// and how to check a tree that is elsewhere (`door`: the command line's
/// `--root DIR`, Python's `root=DIR`).
pub fn root_missing(shown: &str, door: &str) -> String {
    format!(
        "root {shown}: no such directory (the sealed tree, where the manifest records it from its own directory); nothing was checked: to check the tree where it is now, give {door}"
    )
}

/// A nonce counter's value `c` past the nonces of the MAC `name` (VMAC:
/// `c ≥ 2^127`), when a tag would take it (the library's seal, the front
/// ends' counters): the key is done.
pub fn counter_past_nonces(name: &str, c: u128) -> String {
    format!(
        "{name}: nonce counter {c} does not fit its nonce (VMAC reserves 16-byte nonces with the top bit set for its key derivation); use a new key"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_text_each_for_an_existing_file_and_a_failed_draw() {
        assert_eq!(already_exists("manifest m"), "manifest m already exists; not overwriting it");
        assert_eq!(random_failed(&"EIO"), "the operating system's random generator failed: EIO");
    }

    #[test]
    fn a_counter_past_the_nonces() {
        let c = 1u128 << 127;
        assert!(crate::macs::find("vmac128").unwrap().counter_nonce(c).is_none());
        assert_eq!(
            counter_past_nonces("vmac128", c),
            format!("vmac128: nonce counter {c} does not fit its nonce (VMAC reserves 16-byte nonces with the top bit set for its key derivation); use a new key")
        );
    }
}
