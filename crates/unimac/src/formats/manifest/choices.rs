//! The rules of a seal's arguments, written once for every front end: the
//! key must be a reusable MAC's, the nonces come from the source the MAC
//! needs (a counter file or random, for a MAC with nonces; none for a
//! stateless one), and stdin is never sealed. Checking a manifest refuses
//! the same keys. Each refusal is one line, the front end's spelling of
//! its options given in [`NonceWords`].

use crate::prelude::*;
use std::path::Path;

use super::super::keyfile::KeyFile;
use super::Nonces;
use crate::error::Error;
use crate::macs::{Framing, MacDesc};

/// How a front end names the nonce options of `seal` in its messages.
#[derive(Clone, Copy, Debug)]
pub struct NonceWords {
    /// The counter option among others (`--counter`; Python's `counter`).
    pub counter: &'static str,
    /// The counter option as asked for (`--counter FILE`; `counter`).
    pub counter_asked: &'static str,
    /// The random option among others (`--random-nonce`; `random_nonce`).
    pub random: &'static str,
    /// The random option as asked for (`--random-nonce`; `random_nonce=True`).
    pub random_asked: &'static str,
}

/// What a seal under `key` takes, from the user's choices: the counter
/// file (`counter`), random nonces (`random`) and the paths to seal
/// (`paths`, as given or as listed). The MAC and where its nonces come
/// from; or the one-line refusal: a modp or one-time key, a nonce source
/// the MAC does not take (or two of them, or none where it needs one), a
/// path that is stdin ([`refuse_stdin`]).
pub fn sealing<'a, P: AsRef<Path>>(
    key: &KeyFile,
    counter: Option<&'a Path>,
    random: bool,
    paths: &[P],
    words: &NonceWords,
) -> Result<(&'static MacDesc, Nonces<'a>), Error> {
    let desc = super::sealing_desc(key)?;
    let nonces = nonce_source(desc, counter, random, words)?;
    refuse_stdin(paths)?;
    Ok((desc, nonces))
}

/// Where a seal's nonces come from (see [`sealing`]).
fn nonce_source<'a>(desc: &MacDesc, counter: Option<&'a Path>, random: bool, w: &NonceWords) -> Result<Nonces<'a>, Error> {
    let name = desc.name;
    let refuse = |m: String| Err(Error::Invalid(m));
    match (desc.takes_nonce(), counter, random) {
        (_, Some(_), true) => refuse(format!("give one of {} and {}, not both", w.counter, w.random)),
        (false, None, false) => Ok(Nonces::None),
        (false, _, _) if desc.framing == Framing::PairThenTag => refuse(format!(
            "{name} is stateless: r || s is drawn at random for every message (no {} or {})",
            w.counter, w.random
        )),
        (false, _, _) => refuse(format!("{name} takes no nonce (no {} or {})", w.counter, w.random)),
        (true, None, false) => {
            refuse(format!("{name} needs nonces: give {} (the key's counter) or {}", w.counter_asked, w.random_asked))
        }
        (true, Some(c), false) => Ok(Nonces::Counter(c)),
        (true, None, true) => Ok(Nonces::Random),
    }
}

/// Stdin (`-`) among the paths to seal: refused, since a manifest names
/// files to check later.
pub fn refuse_stdin<P: AsRef<Path>>(paths: &[P]) -> Result<(), Error> {
    if paths.iter().any(|p| p.as_ref().as_os_str() == "-") {
        return Err(Error::Invalid("stdin ('-') cannot be sealed: a manifest names files to check later".into()));
    }
    Ok(())
}

/// The MAC a manifest is checked under with `key`; a modp key or a
/// one-time MAC's is refused (no manifest is sealed with it).
pub fn checking(key: &KeyFile) -> Result<&'static MacDesc, Error> {
    let Some(desc) = key.desc() else {
        return Err(Error::Invalid("a modp key is a secret prime, not a MAC key".into()));
    };
    if desc.one_time {
        return Err(one_time_refused(desc.name, false));
    }
    Ok(desc)
}

/// A one-time MAC's key (the MAC `name`) refused by a manifest: by a seal
/// (`sealing`: a manifest needs a tag per file and one for its seal) or by
/// a check (no manifest is sealed with it). The one text for a key given
/// as a front end's one-time key object (Python's `OneTimeKey`) too.
pub fn one_time_refused(name: &str, sealing: bool) -> Error {
    Error::Invalid(if sealing {
        format!(
            "{name} is a one-time MAC (one message per key), but a manifest needs a tag per file and one for its seal; seal with a reusable MAC such as hash127-aes"
        )
    } else {
        format!("{name} is a one-time MAC: no manifest is sealed with it")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::keyfile::KeyKind;

    const CLI: NonceWords = NonceWords { counter: "--counter", counter_asked: "--counter FILE", random: "--random-nonce", random_asked: "--random-nonce" };
    const PY: NonceWords = NonceWords { counter: "counter", counter_asked: "counter", random: "random_nonce", random_asked: "random_nonce=True" };

    fn key(name: &str) -> KeyFile {
        KeyFile::new(KeyKind::from_name(name).unwrap(), &vec![7u8; crate::macs::find(name).unwrap().default_key_len()]).unwrap()
    }

    fn refusal(k: &KeyFile, counter: Option<&Path>, random: bool, paths: &[&str], w: &NonceWords) -> String {
        sealing(k, counter, random, paths, w).err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn every_choice_decided_once_in_each_spelling() {
        let c = Some(Path::new("c"));
        let vmac = key("vmac128");
        assert!(matches!(sealing(&vmac, c, false, &["f"], &CLI), Ok((_, Nonces::Counter(p))) if p == Path::new("c")));
        assert!(matches!(sealing(&vmac, None, true, &["f"], &CLI), Ok((_, Nonces::Random))));
        assert_eq!(refusal(&vmac, None, false, &["f"], &CLI), "vmac128 needs nonces: give --counter FILE (the key's counter) or --random-nonce");
        assert_eq!(refusal(&vmac, None, false, &["f"], &PY), "vmac128 needs nonces: give counter (the key's counter) or random_nonce=True");
        assert_eq!(refusal(&vmac, c, true, &["f"], &CLI), "give one of --counter and --random-nonce, not both");
        assert_eq!(refusal(&vmac, c, true, &["f"], &PY), "give one of counter and random_nonce, not both");
        let h = key("hash127-aes");
        assert!(matches!(sealing(&h, None, false, &["f"], &CLI), Ok((d, Nonces::None)) if d.name == "hash127-aes"));
        assert_eq!(refusal(&h, None, true, &["f"], &CLI), "hash127-aes takes no nonce (no --counter or --random-nonce)");
        assert_eq!(refusal(&h, c, false, &["f"], &PY), "hash127-aes takes no nonce (no counter or random_nonce)");
        assert_eq!(
            refusal(&key("shoup4-eval64"), c, false, &["f"], &CLI),
            "shoup4-eval64 is stateless: r || s is drawn at random for every message (no --counter or --random-nonce)"
        );
        let one = key("hash127");
        assert_eq!(
            refusal(&one, None, false, &["f"], &PY),
            "hash127 is a one-time MAC (one message per key), but a manifest needs a tag per file and one for its seal; seal with a reusable MAC such as hash127-aes"
        );
        assert_eq!(refusal(&h, None, false, &["f", "-"], &CLI), "stdin ('-') cannot be sealed: a manifest names files to check later");
        // The key is judged before the nonces, the nonces before the paths.
        assert!(refusal(&one, c, true, &["-"], &CLI).contains("one-time MAC"));
        assert!(refusal(&vmac, None, false, &["-"], &CLI).contains("needs nonces"));
    }

    #[test]
    fn checking_refuses_the_keys_that_seal_nothing() {
        assert_eq!(checking(&key("hash127-aes")).ok().map(|d| d.name), Some("hash127-aes"));
        assert_eq!(checking(&key("hash127")).unwrap_err().to_string(), "hash127 is a one-time MAC: no manifest is sealed with it");
        // The same texts for a one-time key known by its name only.
        assert_eq!(one_time_refused("hash127", false), checking(&key("hash127")).unwrap_err());
        assert_eq!(one_time_refused("hash127-96", true), sealing(&key("hash127-96"), None, false, &["f"], &CLI).unwrap_err());
    }
}
