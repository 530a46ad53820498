//! Key files and nonce counters on the command line: the formats are the
//! library's (`unimac_front::formats::keyfile`, `unimac_front::formats::counter`); this adds
//! only what a command line needs: `-` for stdin, the one warning line for
//! a key file open to group or others, and the CLI's error type; the
//! nonce of a counter value, and the error for a modp key given to `tag`
//! or `verify`.

use unimac_front::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use unimac_front::formats::counter;
use unimac_front::formats::keyfile::{KeyFile, OneTimeKeyFile};
use zeroize::Zeroizing;

use crate::fail::Fail;
use crate::input::shown;

fn fail(e: unimac::Error) -> Fail {
    Fail(crate::names::cite(&e.to_string()))
}

/// Show a key file's warning once per run, however often it is read.
fn warn_once(k: &KeyFile) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    if let Some(w) = k.warning() {
        if !WARNED.swap(true, Ordering::Relaxed) {
            eprintln!("unimac: warning: {w}");
        }
    }
}

/// Read the key file at `path` (`-`: stdin).
pub fn read_key_file(path: &Path) -> Result<KeyFile, Fail> {
    read_key_file_for(path, None)
}

/// [`read_key_file`] of a key that must be a key of `name` when given.
pub fn read_key_file_for(path: &Path, name: Option<&str>) -> Result<KeyFile, Fail> {
    let k = KeyFile::read_expecting(path, name).map_err(fail)?;
    warn_once(&k);
    Ok(k)
}

/// Read the key file at `path` (`-`: stdin), which must be a key of
/// `name` (`X`, `mac-X` or `modp`).
pub fn read_key(path: &Path, name: &str) -> Result<Zeroizing<Vec<u8>>, Fail> {
    let k = read_key_file_for(path, Some(name))?;
    Ok(Zeroizing::new(k.key().to_vec()))
}

/// The MAC named by the key file at `path` (`-`: stdin), and its key.
pub fn read_named_key(path: &Path) -> Result<(String, Zeroizing<Vec<u8>>), Fail> {
    let k = read_key_file(path)?;
    Ok((k.name().to_string(), Zeroizing::new(k.key().to_vec())))
}

/// Open and lock the key file of a one-message MAC for its one tag
/// (refused if marked spent, or not a key of `name`).
pub fn one_time_key(path: &Path, name: &str) -> Result<OneTimeKeyFile, Fail> {
    if path.as_os_str() == "-" {
        return Err(Fail(format!("{name} is a one-time MAC: its key must be a file (it is marked spent when it tags), not stdin")));
    }
    let k = OneTimeKeyFile::open(path).map_err(fail)?;
    k.key_file().expect(name, &path.display().to_string()).map_err(fail)?;
    warn_once(k.key_file());
    Ok(k)
}

/// Create a new counter file bound to `binding`, starting at 0.
pub fn create_counter(path: &Path, binding: &counter::Binding) -> Result<(), Fail> {
    counter::create(path, binding).map_err(fail)
}

/// Reserve `count` consecutive nonce counters from the counter file at
/// `path`; returns the first. Durable before it returns.
pub fn reserve(path: &Path, count: u128, binding: &counter::Binding) -> Result<u128, Fail> {
    counter::reserve(path, count, binding).map_err(fail)
}

/// The nonce of the counter value `c` for the MAC `d`: 16 bytes in the
/// row's byte order (`MacDesc::counter_nonce`); VMAC refuses `c ≥ 2^127`.
pub(crate) fn counter_nonce(d: &unimac_front::macs::MacDesc, c: u128) -> Result<Vec<u8>, Fail> {
    d.counter_nonce(c).map(|n| n.to_vec()).ok_or_else(|| Fail(unimac_front::formats::messages::counter_past_nonces(d.name, c)))
}

/// A modp key file given to `tag` or `verify`.
pub(crate) fn modp_not_tags(key_file: &Path) -> Fail {
    Fail(format!(
        "key file {} is a modp key: modp key files check identities, not tags (unimac check-identity)",
        shown(Some(key_file))
    ))
}
