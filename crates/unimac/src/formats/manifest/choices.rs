//! The rules of a seal's arguments, written once for every front end: one
//! directory for a tree, some files otherwise ([`sealed`]); the key must be
//! a reusable MAC's, the nonces come from the source the MAC needs (a
//! counter file or random, for a MAC with nonces; none for a stateless
//! one), stdin is never sealed, and a manifest lists regular files only
//! ([`not_listable`]). Checking a manifest refuses the same keys. Each
//! refusal is one line, the front end's spelling of its options given in
//! [`SealWords`].

use crate::prelude::*;
use std::path::{Path, PathBuf};

use super::super::keyfile::KeyFile;
use super::{Nonces, Sealed};
use crate::error::Error;
use crate::macs::{Framing, MacDesc};

/// How a front end names the options of `seal` in its messages.
#[derive(Clone, Copy, Debug)]
pub struct SealWords {
    /// The counter option among others (`--counter`; Python's `counter`).
    pub counter: &'static str,
    /// The counter option as asked for (`--counter FILE`; `counter`).
    pub counter_asked: &'static str,
    /// The random option among others (`--random-nonce`; `random_nonce`).
    pub random: &'static str,
    /// The random option as asked for (`--random-nonce`; `random_nonce=True`).
    pub random_asked: &'static str,
    /// The flag that seals a tree (`-r`; `recursive=True`).
    pub recursive: &'static str,
    /// A tree's seal as written (`unimac seal -k K -r DIR`;
    /// `unimac.seal(DIR, key, recursive=True)`).
    pub tree: &'static str,
    /// What a seal takes (`FILE..., -r DIR or --files-from FILE`; `paths, or
    /// one directory with recursive=True`).
    pub sources: &'static str,
}

/// What a seal covers, from the paths given (`paths`) and whether a list
/// of them is still to be read (`listed`: the command line's
/// `--files-from`): with `recursive`, the one directory given; else the
/// files. None (and no list) is refused, as are several directories.
pub fn sealed<'p>(recursive: bool, paths: &'p [PathBuf], listed: bool, w: &SealWords) -> Result<Sealed<'p>, Error> {
    let (r, tree) = (w.recursive, w.tree);
    match (recursive, paths) {
        (true, [dir]) => Ok(Sealed::Tree(dir)),
        (true, []) => Err(Error::Invalid(format!("{r} seals one directory: give it ('{tree}')"))),
        (true, _) => Err(Error::Invalid(format!("{r} seals one directory: give one, not {} ('{tree}')", paths.len()))),
        (false, []) if !listed => Err(Error::Invalid(format!("nothing to seal: give {}", w.sources))),
        (false, _) => Ok(Sealed::Files(paths)),
    }
}

/// A path given to seal that is not a regular file (`what`: "a named
/// pipe", "a directory" under a tree, ...): refused unopened (a named pipe
/// or a device could block or never end), in one line.
pub fn not_listable(shown: &str, what: &str) -> String {
    format!("{shown}: is {what}, not a regular file; a manifest lists regular files")
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
    words: &SealWords,
) -> Result<(&'static MacDesc, Nonces<'a>), Error> {
    let desc = super::sealing_desc(key)?;
    let nonces = nonce_source(desc, counter, random, words)?;
    refuse_stdin(paths)?;
    Ok((desc, nonces))
}

/// Where a seal's nonces come from (see [`sealing`]).
fn nonce_source<'a>(desc: &MacDesc, counter: Option<&'a Path>, random: bool, w: &SealWords) -> Result<Nonces<'a>, Error> {
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

    const CLI: SealWords = SealWords {
        counter: "--counter",
        counter_asked: "--counter FILE",
        random: "--random-nonce",
        random_asked: "--random-nonce",
        recursive: "-r",
        tree: "unimac seal -k K -r DIR",
        sources: "FILE..., -r DIR or --files-from FILE",
    };
    const PY: SealWords = SealWords {
        counter: "counter",
        counter_asked: "counter",
        random: "random_nonce",
        random_asked: "random_nonce=True",
        recursive: "recursive=True",
        tree: "unimac.seal(DIR, key, recursive=True)",
        sources: "paths, or one directory with recursive=True",
    };

    fn key(name: &str) -> KeyFile {
        KeyFile::new(KeyKind::from_name(name).unwrap(), &vec![7u8; crate::macs::find(name).unwrap().default_key_len()]).unwrap()
    }

    fn refusal(k: &KeyFile, counter: Option<&Path>, random: bool, paths: &[&str], w: &SealWords) -> String {
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

    #[test]
    fn what_a_seal_covers_in_each_spelling() {
        let p = |n: usize| (0..n).map(|i| PathBuf::from(format!("d{i}"))).collect::<Vec<_>>();
        let refused = |r: bool, n: usize, listed: bool, w: &SealWords| sealed(r, &p(n), listed, w).err().map(|e| e.to_string()).unwrap_or_default();
        let one = p(1);
        assert!(matches!(sealed(true, &one, false, &CLI), Ok(Sealed::Tree(d)) if d == Path::new("d0")));
        assert!(matches!(sealed(false, &p(2), false, &PY), Ok(Sealed::Files(f)) if f.len() == 2));
        assert!(matches!(sealed(false, &[], true, &CLI), Ok(Sealed::Files([]))));
        assert_eq!(refused(true, 0, false, &CLI), "-r seals one directory: give it ('unimac seal -k K -r DIR')");
        assert_eq!(refused(true, 0, false, &PY), "recursive=True seals one directory: give it ('unimac.seal(DIR, key, recursive=True)')");
        assert_eq!(refused(true, 2, false, &CLI), "-r seals one directory: give one, not 2 ('unimac seal -k K -r DIR')");
        assert_eq!(refused(true, 3, false, &PY), "recursive=True seals one directory: give one, not 3 ('unimac.seal(DIR, key, recursive=True)')");
        assert_eq!(refused(false, 0, false, &CLI), "nothing to seal: give FILE..., -r DIR or --files-from FILE");
        assert_eq!(refused(false, 0, false, &PY), "nothing to seal: give paths, or one directory with recursive=True");
        assert_eq!(not_listable("p", "a named pipe"), "p: is a named pipe, not a regular file; a manifest lists regular files");
    }
}
