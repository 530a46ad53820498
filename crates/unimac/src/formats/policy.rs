//! The strength policy: when a MAC is weak for the use `tag` and `seal`
//! make of it, and the front ends ask for an explicit `--allow-weak`
//! (`allow_weak=True` in Python). And the caller's nonce: taken only with
//! the caller's word that it never repeats ([`caller_nonce`]).
//!
//! The use: 2^32 tags under one key (fewer if that would be more than 2^52
//! bytes, 4 PiB, in all; one for a one-message MAC) and 2^32 forgery
//! attempts, on messages as long as the longest input (at least 1 MiB;
//! stdin and pipes count as 1 GiB). A MAC is weak for it when its proven
//! forgery bound ([`crate::bounds`]) is above 2^-32, or it has none.

use crate::prelude::*;

use crate::bounds::{self, Attack};
use crate::error::Error;
use crate::macs::MacDesc;

/// What is called weak: a forgery bound above 2^-32 for the use.
pub const WEAK_LOG2: f64 = -32.0;
/// Tags under one key in the use.
pub const USE_TAGS: u64 = 1 << 32;
/// Forgery attempts in the use.
pub const USE_FORGERIES: u64 = 1 << 32;
const USE_TOTAL_BYTES: u64 = 1 << 52;
/// The length a message of unknown size (stdin, a pipe) counts as.
pub const UNKNOWN_SIZE: u64 = 1 << 30;

/// The tags of the use for messages of `max_bytes`.
pub fn use_tags(name: &str, max_bytes: u64) -> u64 {
    if crate::macs::find(name).is_some_and(|d| d.one_time) {
        return 1;
    }
    USE_TAGS.min(USE_TOTAL_BYTES / max_bytes.max(1)).max(1)
}

/// The forgery bound of `name` for the use with messages of `max_bytes`:
/// `Some(log2)`, or `None` if the theorem gives nothing.
pub fn use_bound(name: &str, max_bytes: u64, random_nonces: bool) -> Option<f64> {
    let tags = use_tags(name, max_bytes);
    bounds::bound(name, &Attack { max_bytes, tags, forgeries: USE_FORGERIES, random_nonces }).ok().map(|b| b.log2.0)
}

/// Whether `name` is weak for the use with messages of `max_bytes`.
pub fn is_weak(name: &str, max_bytes: u64, random_nonces: bool) -> bool {
    use_bound(name, max_bytes, random_nonces).is_none_or(|l| l > WEAK_LOG2)
}

/// The policy for a stream under `key` sent in chunks of `chunk` bytes
/// (each chunk a message), unless `allow_weak`: as [`check_strength`].
/// A one-time MAC's key is left to the stream, which refuses it.
pub fn check_stream(key: &super::keyfile::KeyFile, chunk: usize, allow_weak: bool) -> Result<(), Error> {
    match key.desc() {
        Some(d) if !d.one_time && !allow_weak => check_strength(d.name, &[Some(chunk as u64)], false),
        _ => Ok(()),
    }
}

/// How a front end names, in [`caller_nonce`]'s refusal, the door a
/// caller's nonce came in by, the opt-in and a source of nonces that never
/// repeat.
#[derive(Clone, Copy, Debug)]
pub struct CallerNonceWords<'a> {
    /// The nonce as given (`--nonce`; Python's `Mac.tag(nonce=...)`).
    pub nonce: &'a str,
    /// The opt-in (`--caller-manages-nonces`; `caller_manages_nonces=True`).
    pub opt_in: &'a str,
    /// Nonces that never repeat (`--counter FILE`; `unimac.Counter(...).next()`).
    pub counter: &'a str,
}

/// A nonce the caller chose (`given`) for a tag under `desc`: taken only
/// with the opt-in (`opted_in`), the caller's word that it keeps its
/// nonces from ever repeating under this key, since unimac cannot know
/// whether one was used before and a nonce used twice gives the tags away.
/// Only a MAC that takes its nonce from the caller asks: a stateless MAC
/// refuses any nonce, and `shoup4-*` a pair, by their own rules
/// ([`MacDesc::check_nonce`]); checking a tag needs no opt-in.
pub fn caller_nonce(desc: &MacDesc, given: bool, opted_in: bool, w: &CallerNonceWords<'_>) -> Result<(), Error> {
    if given && !opted_in && desc.takes_nonce() {
        return Err(Error::Invalid(format!(
            "{}: {} needs {}: the caller keeps its nonces from ever repeating under this key (unimac cannot know whether one was used before; {} gives nonces that never repeat)",
            desc.name, w.nonce, w.opt_in, w.counter
        )));
    }
    Ok(())
}

/// Refuse `name` if it is weak for the use with the given input sizes
/// (`None`: not a regular file, counted as [`UNKNOWN_SIZE`]); the error
/// says why and what to do.
pub fn check_strength(name: &str, sizes: &[Option<u64>], random_nonces: bool) -> Result<(), Error> {
    let longest = sizes.iter().map(|s| s.unwrap_or(UNKNOWN_SIZE)).max().unwrap_or(0).max(1 << 20);
    let why = match use_bound(name, longest, random_nonces) {
        Some(l) if l <= WEAK_LOG2 => return Ok(()),
        Some(l) => format!("its forgery bound is 2^{l:.1}"),
        None => "it has no forgery guarantee".to_string(),
    };
    let tags = use_tags(name, longest);
    Err(Error::Invalid(format!(
        "{name} is weak for this use: {why} (above 2^-32) for {tags} tags and 2^32 forgery attempts on messages of {longest} bytes (see 'unimac bound {name} --max-bytes {longest} --tags {tags} --forgeries 4294967296'); give --allow-weak to tag anyway, or use hash127-aes"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::keyfile::{KeyFile, KeyKind};

    fn key(name: &str) -> KeyFile {
        KeyFile::new(KeyKind::from_name(name).unwrap(), &vec![7u8; crate::macs::find(name).unwrap().default_key_len()]).unwrap()
    }

    #[test]
    fn a_stream_is_judged_by_its_chunks() {
        let e = check_stream(&key("vmac64"), 1 << 18, false).unwrap_err().to_string();
        assert!(e.starts_with("vmac64 is weak for this use") && e.contains("--allow-weak"), "{e}");
        assert!(check_stream(&key("vmac64"), 1 << 18, true).is_ok());
        assert!(check_stream(&key("hash127-aes"), 1 << 18, false).is_ok());
        // A one-time MAC's key: the stream refuses it, not the policy.
        assert!(check_stream(&key("hash127"), 1 << 18, false).is_ok());
    }

    #[test]
    fn a_callers_nonce_needs_the_opt_in_in_each_spelling() {
        const CLI: CallerNonceWords = CallerNonceWords { nonce: "--nonce", opt_in: "--caller-manages-nonces", counter: "--counter FILE" };
        let py = CallerNonceWords { nonce: "Mac.tag(nonce=...)", opt_in: "caller_manages_nonces=True", counter: "unimac.Counter(...).next()" };
        let d = |n| crate::macs::find(n).unwrap();
        assert_eq!(
            caller_nonce(d("wc-eval128"), true, false, &CLI).unwrap_err().to_string(),
            "wc-eval128: --nonce needs --caller-manages-nonces: the caller keeps its nonces from ever repeating under this key (unimac cannot know whether one was used before; --counter FILE gives nonces that never repeat)"
        );
        assert_eq!(
            caller_nonce(d("vmac64"), true, false, &py).unwrap_err().to_string(),
            "vmac64: Mac.tag(nonce=...) needs caller_manages_nonces=True: the caller keeps its nonces from ever repeating under this key (unimac cannot know whether one was used before; unimac.Counter(...).next() gives nonces that never repeat)"
        );
        // With the opt-in, or without a nonce, nothing is refused.
        assert!(caller_nonce(d("wc-eval128"), true, true, &CLI).is_ok());
        assert!(caller_nonce(d("wc-eval128"), false, false, &CLI).is_ok());
        // A MAC that takes no nonce from its caller leaves it to its own rule.
        assert!(caller_nonce(d("hash127-aes"), true, false, &CLI).is_ok());
        assert!(caller_nonce(d("shoup4-eval64"), true, false, &CLI).is_ok());
    }
}
