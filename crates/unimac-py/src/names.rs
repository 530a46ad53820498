//! Names as the command line takes them (`unimac::registry::names`): a MAC is
//! `X` or `mac-X`, a typo gets a "did you mean", papers are cited by author
//! and title; every message is the CLI's.

use unimac::registry::names as n;

pub use n::{cite, mac_name};

/// A MAC name (`X` or `mac-X`), with the CLI's error for anything else.
pub fn resolve_mac(name: &str) -> Result<String, String> {
    n::resolve_mac(name).map_err(|e| e.to_string())
}

/// A name for `compute` (the CLI's `unimac compute`): a wire name
/// (docs/WIRE.md) as is; `X` for `mac-X` when `X` is a MAC and not itself a
/// wire name.
pub fn resolve_spec(name: &str) -> Result<String, String> {
    n::resolve_spec(name).map_err(|e| e.to_string())
}

/// What `unimac.new` takes: a MAC (`X` or `mac-X`, as `unimac tag` takes
/// it) or else a wire name (a raw hash such as `eval64`, as `unimac compute`
/// takes it). `Ok((registry name, is_mac))`.
pub fn resolve_any(name: &str) -> Result<(String, bool), String> {
    n::resolve_any(name).map_err(|e| e.to_string())
}
