//! One naming scheme for the command line: a MAC is named `X` or `mac-X`
//! everywhere (tag, verify, keygen, bound, compute), typos get a "did you
//! mean", and the papers are cited by author and title
//! (`unimac::registry::names`, shared with the Python package).

use unimac::registry::{self, KeySpec};

use crate::Fail;

pub use registry::names::{cite, mac_name, suggest};

/// As [`mac_name`], with the CLI's error for anything else.
pub fn resolve_mac(name: &str) -> Result<String, Fail> {
    registry::names::resolve_mac(name).map_err(|e| Fail(e.to_string()))
}

/// The key length of the MAC `name` (already resolved).
pub fn mac_key_spec(name: &str) -> Result<KeySpec, Fail> {
    let e = registry::lookup(&format!("mac-{name}")).map_err(|e| Fail(cite(&e.to_string())))?;
    match e.info.key {
        KeySpec::PerElement(_) => Err(Fail(format!("{name}: not a MAC"))),
        k => Ok(k),
    }
}

/// A name for `compute`: a wire name (docs/WIRE.md) as is; `X` for `mac-X`
/// when `X` is a MAC and not itself a wire name (`compute hash127` is the hash,
/// `compute hash127-aes` the MAC); "did you mean" for typos.
pub fn resolve_spec(name: &str) -> Result<String, Fail> {
    registry::names::resolve_spec(name).map_err(|e| Fail(e.to_string()))
}
