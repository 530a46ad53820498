//! Names as the command line takes them (`unimac::registry::names`): a MAC is
//! `X` or `mac-X`, a typo gets a "did you mean", papers are cited by author
//! and title; every message is the CLI's, with its pointers to `unimac
//! list` turned into the Python functions that list the names
//! ([`for_python`]).
//!
//! Names are case-insensitive, as `hashlib.new("SHA256")`: every name a
//! Python caller gives is lower-cased here ([`lower`]) before it is looked
//! up; the canonical (lower-case) name is what results show.

use std::borrow::Cow;

use unimac::registry::names as n;

pub use n::cite;

/// `name` in lower case (ASCII only: every name of the wire format is
/// lower-case ASCII, and no other letter may stand for one of them).
pub fn lower(name: &str) -> Cow<'_, str> {
    if name.bytes().any(|c| c.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    }
}

/// A library message as Python shows it: the CLI's `'unimac list'` (which
/// lists the names) becomes `unimac.names()` / `unimac.mac_names()`.
pub fn for_python(msg: &str) -> String {
    if !msg.contains("'unimac list'") {
        return msg.to_string();
    }
    msg.replace(
        "'unimac list' shows the MACs",
        "unimac.mac_names() lists the MACs",
    )
    .replace(
        "'unimac list' shows every name",
        "unimac.names() lists every name",
    )
    .replace("(see 'unimac list')", "(see unimac.names())")
    .replace("'unimac list'", "unimac.names()")
}

/// The message of a name refused after [`lower`]: the name as the caller
/// spelled it (its first quoted mention; a "did you mean" stays lower-case).
fn as_given(e: unimac::Error, name: &str) -> String {
    let msg = e.to_string();
    match lower(name) {
        Cow::Owned(l) => msg.replacen(&format!("'{l}'"), &format!("'{name}'"), 1),
        Cow::Borrowed(_) => msg,
    }
}

/// `name` (`X` or `mac-X`, any case) as a MAC name without the prefix, if it
/// is one of this build's MACs.
pub fn mac_name(name: &str) -> Option<String> {
    n::mac_name(&lower(name))
}

/// A MAC name (`X` or `mac-X`, any case), with the CLI's error for anything
/// else.
pub fn resolve_mac(name: &str) -> Result<String, String> {
    n::resolve_mac(&lower(name)).map_err(|e| as_given(e, name))
}

/// A name for `compute` (the CLI's `unimac compute`): a wire name
/// (docs/WIRE.md) as is; `X` for `mac-X` when `X` is a MAC and not itself a
/// wire name. Any case.
pub fn resolve_spec(name: &str) -> Result<String, String> {
    n::resolve_spec(&lower(name)).map_err(|e| as_given(e, name))
}

/// What `unimac.new` takes: a MAC (`X` or `mac-X`, as `unimac tag` takes
/// it) or else a wire name (a raw hash such as `eval64`, as `unimac compute`
/// takes it), in any case. `Ok((registry name, is_mac))`.
pub fn resolve_any(name: &str) -> Result<(String, bool), String> {
    n::resolve_any(&lower(name)).map_err(|e| as_given(e, name))
}

/// Whether `name` (any case) is the `modp` check's: its key is a prime, not
/// a MAC key (the key files' kinds decide, in the library).
pub fn is_modp(name: &str) -> bool {
    use unimac::formats::keyfile::KeyKind;
    matches!(KeyKind::from_name(&lower(name)), Ok(KeyKind::Modp))
}
