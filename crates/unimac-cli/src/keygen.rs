//! `unimac keygen`: a new key file from the OS random generator (and, for
//! a nonce MAC, its counter file), whole or not at all; or, with
//! `--key-file K --counter C`, a new counter file for an existing key.

use unimac_front::prelude::*;
use std::io::{self, Write};
use std::path::Path;

use crate::fail::Fail;
use crate::keyfile;
use crate::strength::policy;

/// `unimac keygen NAME [-o FILE] [--counter FILE]`: the key file's text to
/// `-o FILE` (whole or not at all, never over a file) or stdout.
pub fn keygen(name: &str, out: Option<&Path>, counter: Option<&Path>) -> Result<(), Fail> {
    use unimac_front::formats::keyfile::{KeyFile, KeyKind};
    let kind = KeyKind::from_name(name).map_err(|e| Fail(e.to_string()))?;
    let row = match kind {
        KeyKind::Mac(d) => Some(d),
        KeyKind::Modp => None,
    };
    let name = kind.name();
    if counter.is_some() && !row.is_some_and(|d| d.takes_nonce()) {
        return Err(Fail(unimac_front::messages::counter_without_nonces(name, "--counter")));
    }
    if let (Some(o), Some(c)) = (out, counter) {
        if o == c {
            return Err(Fail("the key file and the counter file must differ".into()));
        }
    }
    // Refuse before anything is created if a target exists. The key file
    // is made first and its counter second: a run stopped between the two
    // leaves a key without a counter, which is given one by the command
    // the error names (a counter without its key would be of no use).
    for p in out.iter().chain(counter.iter()) {
        if std::fs::symlink_metadata(p).is_ok() {
            let hint = match (out, counter) {
                (Some(o), Some(c)) if o == *p && std::fs::symlink_metadata(c).is_err() => format!(
                    " (to give that key its counter: 'unimac keygen --key-file {} --counter {}')",
                    o.display(),
                    c.display()
                ),
                _ => String::new(),
            };
            // Named as the writer would name it, had the file appeared later.
            let what = if out == Some(*p) { "key file" } else { "counter file" };
            let exists = unimac_front::formats::messages::already_exists(&format!("{what} {}", p.display()));
            return Err(Fail(format!("{exists}{hint}")));
        }
    }
    let key = KeyFile::generate(kind).map_err(|e| Fail(e.to_string()))?;
    // Say now, not at the first tag, when `tag` will call this MAC weak.
    if let Some(d) = row {
        if policy::is_weak(d.name, 1 << 20, false) {
            let why = policy::use_bound(d.name, 1 << 20, false)
                .map_or("it has no forgery guarantee".to_string(), |l| format!("its forgery bound is 2^{l:.1}"));
            eprintln!(
                "unimac: warning: {} is weak for tag's default use ({why} for {} tags and 2^32 forgery attempts on 1 MiB messages): 'unimac tag' will ask for --allow-weak",
                d.name,
                policy::use_tags(d.name, 1 << 20)
            );
        }
    }
    let binding = key.fingerprint();
    match out {
        Some(p) => {
            key.write_new(p).map_err(|e| Fail(e.to_string()))?;
            if let (Some(c), Some(b)) = (counter, &binding) {
                if let Err(e) = keyfile::create_counter(c, b) {
                    let _ = std::fs::remove_file(p);
                    return Err(e);
                }
            }
        }
        None => {
            // The key first, its counter second, as with -o: a run stopped
            // between the two leaves no counter file behind (which would
            // block the next run), only a printed key without a counter.
            {
                let mut out = io::stdout().lock();
                out.write_all(&key.text())?;
                out.flush()?;
            }
            if let (Some(c), Some(b)) = (counter, &binding) {
                keyfile::create_counter(c, b).map_err(|e| {
                    Fail(format!(
                        "{}; the key printed above has no counter: save it and give it one with 'unimac keygen --key-file KEYFILE --counter {}'",
                        e.0,
                        c.display()
                    ))
                })?;
            }
        }
    }
    Ok(())
}

/// `unimac keygen [NAME] --key-file K --counter FILE`: a new counter file,
/// starting at 0, bound to the existing key of nonce MAC in `K` (which must
/// be a key of NAME when NAME is given); never over an existing file.
pub fn counter_for_key(name: Option<&str>, key_file: &Path, counter: &Path) -> Result<(), Fail> {
    if std::fs::symlink_metadata(counter).is_ok() {
        return Err(Fail(unimac_front::formats::messages::already_exists(&format!("counter file {}", counter.display()))));
    }
    let key = keyfile::read_key_file_for(key_file, name)?;
    let binding = match key.desc() {
        Some(d) if d.takes_nonce() => key.fingerprint(),
        _ => None,
    };
    let Some(binding) = binding else {
        return Err(Fail(format!(
            "{} is a key of {}, which takes no nonce; a counter file is for the key of a nonce MAC",
            crate::input::shown(Some(key_file)),
            key.name()
        )));
    };
    keyfile::create_counter(counter, &binding)
}
