//! Names as the command line takes them (`unimac_front::names`): a MAC is
//! `X` or `mac-X`, a typo gets a "did you mean", papers are cited by author
//! and title; every message is the CLI's, with its pointers to `unimac
//! list` turned into the Python functions that list the names
//! ([`for_python`]).
//!
//! Names are case-insensitive, as `hashlib.new("SHA256")`: every name a
//! Python caller gives is lower-cased here ([`lower`]) before it is looked
//! up; the canonical (lower-case) name is what results show.
//!
//! A door resolves its name once, here, to the library's row of the MAC
//! table ([`resolve_mac`]) or entry of the catalogue ([`resolve_any`],
//! [`resolve_spec`]), and passes that along; the library's resolvers are
//! asked only for the message of a name refused.

use std::borrow::Cow;

use unimac_front::macs::{self, MacDesc};
use unimac_front::names as n;
use unimac_front::registry::{self, Entry};

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

/// The refusal of `name` (lower-cased `l`) by the library's resolver `r`,
/// with its messages ("did you mean").
fn refused<T>(r: Result<T, unimac::Error>, name: &str, l: &str) -> String {
    match r {
        Err(e) => as_given(e, name),
        // The resolvers read the same tables as this file: not reached.
        Ok(_) => as_given(unimac::Error::UnknownName(l.to_string()), name),
    }
}

/// The catalogue's entry of a MAC's row (every row is one).
fn entry_of(d: &'static MacDesc) -> Result<&'static Entry, String> {
    registry::entries()
        .iter()
        .find(|e| e.mac().is_some_and(|m| std::ptr::eq(m, d)))
        .ok_or_else(|| unimac::Error::UnknownName(d.catalog_name.to_string()).to_string())
}

/// The CLI's refusal of `name` as a MAC ("unknown MAC", "a hash, not a
/// MAC"), for a door that takes a MAC first and `name` resolved to nothing.
pub fn mac_refusal(name: &str) -> String {
    let l = lower(name);
    refused(n::resolve_mac(&l), name, &l)
}

/// The row of the MAC `name` (`X` or `mac-X`, any case), with the CLI's
/// error for anything else (a hash, or an unknown name and its likely
/// spelling).
pub fn resolve_mac(name: &str) -> Result<&'static MacDesc, String> {
    let l = lower(name);
    macs::find(&l).ok_or_else(|| refused(n::resolve_mac(&l), name, &l))
}

/// What `compute` takes (the CLI's `unimac compute`, in the order of
/// `registry::resolve::resolve_spec`): a wire name (docs/WIRE.md) as is, else
/// `X` for `mac-X` when `X` is a MAC. Any case. Its entry of the catalogue.
pub fn resolve_spec(name: &str) -> Result<&'static Entry, String> {
    let l = lower(name);
    if let Ok(e) = registry::lookup(&l) {
        return Ok(e);
    }
    match macs::find(&l) {
        Some(d) => entry_of(d),
        None => Err(refused(n::resolve_spec(&l), name, &l)),
    }
}

/// What `unimac.new` takes (in the order of
/// `registry::resolve::resolve_any`): a MAC (`X` or `mac-X`, as `unimac tag`
/// takes it) or else a wire name (a raw hash such as `eval64`, as `unimac
/// compute` takes it), in any case. Its entry of the catalogue; a MAC's
/// row is the entry's `mac()`.
pub fn resolve_any(name: &str) -> Result<&'static Entry, String> {
    let l = lower(name);
    match macs::find(&l) {
        Some(d) => entry_of(d),
        None => registry::lookup(&l).map_err(|_| refused(n::resolve_any(&l), name, &l)),
    }
}

/// Whether `name` (any case) is the `modp` check's: its key is a prime, not
/// a MAC key (the key files' kinds decide, in the library).
pub fn is_modp(name: &str) -> bool {
    use unimac_front::formats::keyfile::KeyKind;
    matches!(KeyKind::from_name(&lower(name)), Ok(KeyKind::Modp))
}
