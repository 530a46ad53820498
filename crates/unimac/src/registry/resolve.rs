//! Names as people type them: a MAC is `X` or `mac-X`, and a typo gets a
//! "did you mean". `KeyKind::from_name` resolves here; the front ends' wider
//! resolution (any wire name, citations) is `unimac-front`'s `names`, on
//! top of this.

use super::{lookup, names};
use crate::error::Error;
use crate::prelude::*;

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

/// "did you mean 'X'? " for a suggestion, else nothing.
pub fn hint(s: Option<&str>) -> String {
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
    }
}
