//! One naming scheme for the command line: a MAC is named `X` or `mac-X`
//! everywhere (tag, verify, keygen, bound, compute), typos get a "did you
//! mean", and the papers are cited by author and title
//! (`unimac_front::names`, shared with the Python package).



use crate::fail::Fail;

pub use unimac_front::names::{cite, mac_name, suggest};

/// As [`mac_name`], with the CLI's error for anything else.
pub fn resolve_mac(name: &str) -> Result<String, Fail> {
    unimac_front::names::resolve_mac(name).map_err(|e| Fail(e.to_string()))
}

/// A name for `compute`: a wire name (docs/WIRE.md) as is; `X` for `mac-X`
/// when `X` is a MAC and not itself a wire name (`compute hash127` is the hash,
/// `compute hash127-aes` the MAC); "did you mean" for typos.
pub fn resolve_spec(name: &str) -> Result<String, Fail> {
    unimac_front::names::resolve_spec(name).map_err(|e| Fail(e.to_string()))
}

/// Whether `name` is the `modp` check's (its key is a prime, not a MAC key).
pub fn is_modp(name: &str) -> bool {
    matches!(unimac_front::formats::keyfile::KeyKind::from_name(name), Ok(unimac_front::formats::keyfile::KeyKind::Modp))
}
