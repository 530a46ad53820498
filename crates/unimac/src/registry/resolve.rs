//! Names as people type them: a MAC is `X` or `mac-X`, a typo gets a "did
//! you mean", and the papers are cited by author and title. The command line
//! and the Python package both resolve names here, so their messages agree.

use super::{entries, lookup, names};
use crate::error::Error;
use crate::prelude::*;

/// The papers behind the library, by the numbers its catalogue uses.
const PAPERS: &[(&str, &str, &str)] = &[
    (
        "000",
        "Bernstein",
        "“Floating-point arithmetic and message authentication”",
    ),
    (
        "001",
        "Shoup",
        "“On fast and provably secure message authentication based on universal hashing”",
    ),
    (
        "002",
        "Bernstein",
        "“Guaranteed message authentication faster than MD5”",
    ),
    (
        "003",
        "Etzel–Patel–Ramzan",
        "“Square Hash: fast message authentication via optimized universal hash functions”",
    ),
    (
        "004",
        "Halevi–Krawczyk",
        "“MMH: software message authentication in the Gbit/second rates”",
    ),
];

/// `text` with every reference of the form "seed" and a paper's three-digit
/// number (the numbers of the table above) replaced by the paper's author and
/// title, "Bernstein, “Floating-point arithmetic and message authentication”"
/// for the first; typographic quotes, so the text stays valid inside JSON
/// strings.
pub fn cite(text: &str) -> String {
    let mut s = text.to_string();
    for (n, author, title) in PAPERS {
        s = s.replace(
            &format!("{author} (seed {n})"),
            &format!("{author}, {title}"),
        );
        s = s.replace(
            &format!("{author}, seed {n}"),
            &format!("{author}, {title}"),
        );
        s = s.replace(&format!("{author} seed {n}"), &format!("{author}, {title}"));
        s = s.replace(&format!("seed {n}"), &format!("{author}, {title}"));
    }
    s
}

/// Levenshtein distance.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The closest of `candidates` to `name`, if close enough to be a typo.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

fn hint(s: Option<&str>) -> String {
    match s {
        Some(s) => format!("did you mean '{s}'? "),
        None => String::new(),
    }
}

/// `name` (`X` or `mac-X`) as a MAC name without the prefix, if it is one of
/// this build's MACs.
pub fn mac_name(name: &str) -> Option<String> {
    crate::macs::find(name).map(|d| d.name.to_string())
}

/// As [`mac_name`], with a one-line error naming the problem otherwise (a
/// hash given for a MAC, or an unknown name with its likely spelling).
pub fn resolve_mac(name: &str) -> Result<String, Error> {
    if let Some(n) = mac_name(name) {
        return Ok(n);
    }
    let macs = names();
    let catalog = crate::macs::MACS.iter().map(|d| d.catalog_name);
    let hint = hint(
        suggest(name, macs.iter().map(String::as_str).chain(catalog))
            .and_then(crate::macs::find)
            .map(|d| d.name),
    );
    if lookup(name).is_ok() {
        return Err(Error::Invalid(format!(
            "'{name}' is a hash, not a MAC; {hint}'unimac list' shows the MACs"
        )));
    }
    Err(Error::Invalid(format!(
        "unknown MAC '{name}'; {hint}'unimac list' shows the MACs"
    )))
}

fn unknown(name: &str) -> Error {
    let all = entries()
        .iter()
        .map(|e| e.info.name.as_str())
        .chain(crate::macs::MACS.iter().map(|d| d.name));
    let hint = hint(suggest(name, all));
    Error::Invalid(format!(
        "unknown name '{name}'; {hint}'unimac list' shows every name"
    ))
}

/// A name to compute: a wire name as is; `X` for `mac-X` when `X` is a MAC
/// and not itself a wire name (`hash127` is the hash, `hash127-aes` the MAC);
/// "did you mean" for typos.
pub fn resolve_spec(name: &str) -> Result<String, Error> {
    if lookup(name).is_ok() {
        return Ok(name.to_string());
    }
    if let Some(d) = crate::macs::find(name) {
        return Ok(d.catalog_name.to_string());
    }
    Err(unknown(name))
}

/// A MAC (`X` or `mac-X`) or else a wire name (a raw hash such as
/// `eval64`): `(catalogue name, is a MAC)`.
pub fn resolve_any(name: &str) -> Result<(String, bool), Error> {
    if let Some(d) = crate::macs::find(name) {
        return Ok((d.catalog_name.to_string(), true));
    }
    if lookup(name).is_ok() {
        return Ok((name.to_string(), false));
    }
    Err(unknown(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_suggestions() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "ab"), 2);
        assert_eq!(
            suggest("hash127-ase", ["hash127-aes", "wc-mmh32x2"]),
            Some("hash127-aes")
        );
        assert_eq!(suggest("zzzz", ["hash127-aes"]), None);
    }

    #[test]
    fn citations_name_the_papers() {
        // Old-style references, built from the table of papers.
        let (b, h) = (PAPERS[0].0, PAPERS[4].0);
        let s = cite(&format!(
            "Bernstein (seed {b}), Theorem 9.2; (seed {h} §2.3)"
        ));
        assert!(!s.contains("seed"), "{s}");
        assert!(
            s.contains(
                "Bernstein, “Floating-point arithmetic and message authentication”, Theorem 9.2"
            ),
            "{s}"
        );
        assert!(s.contains("Halevi–Krawczyk"), "{s}");
    }

    #[test]
    fn resolution_and_messages() {
        assert_eq!(resolve_mac("mac-hash127-aes").unwrap(), "hash127-aes");
        assert_eq!(resolve_mac("hash127-aes").unwrap(), "hash127-aes");
        let e = resolve_mac("hash127-ase").unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown MAC 'hash127-ase'; did you mean 'hash127-aes'? 'unimac list' shows the MACs"
        );
        assert!(resolve_mac("eval64")
            .unwrap_err()
            .to_string()
            .starts_with("'eval64' is a hash, not a MAC"));
        assert_eq!(resolve_spec("hash127").unwrap(), "hash127");
        assert_eq!(resolve_spec("hash127-aes").unwrap(), "mac-hash127-aes");
        assert_eq!(
            resolve_any("eval64").unwrap(),
            ("eval64".to_string(), false)
        );
        assert_eq!(
            resolve_any("umac64").unwrap(),
            ("mac-umac64".to_string(), true)
        );
        assert!(resolve_any("evl64")
            .unwrap_err()
            .to_string()
            .contains("did you mean 'eval64'?"));
    }
}
