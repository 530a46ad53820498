//! One naming scheme for the command line: a MAC is named `X` or `mac-X`
//! everywhere (tag, verify, keygen, bound, compute), typos get a "did you
//! mean", and the papers are cited by author and title.

use unimac::registry::{self, KeySpec};

use crate::Fail;

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

/// `text` with every "seed NNN" reference replaced by the paper's author
/// and title ("Bernstein (seed 000)" becomes "Bernstein, “Floating-point
/// …”"); typographic quotes, so the text stays valid inside JSON strings.
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

/// `name` (`X` or `mac-X`) as a MAC name without the prefix, if it is one of
/// this build's MACs.
pub fn mac_name(name: &str) -> Option<String> {
    let bare = name.strip_prefix("mac-").unwrap_or(name);
    registry::names().into_iter().find(|n| n == bare)
}

/// As [`mac_name`], with the CLI's error for anything else.
pub fn resolve_mac(name: &str) -> Result<String, Fail> {
    if let Some(n) = mac_name(name) {
        return Ok(n);
    }
    let bare = name.strip_prefix("mac-").unwrap_or(name);
    let names = registry::names();
    let hint = match suggest(bare, names.iter().map(String::as_str)) {
        Some(s) => format!("did you mean '{s}'? "),
        None => String::new(),
    };
    if registry::lookup(&format!("mac-{bare}")).is_err() && registry::lookup(bare).is_ok() {
        return Err(Fail(format!(
            "'{name}' is a hash, not a MAC; {hint}'unimac list' shows the MACs"
        )));
    }
    Err(Fail(format!(
        "unknown MAC '{name}'; {hint}'unimac list' shows the MACs"
    )))
}

/// The key length of the MAC `name` (already resolved).
pub fn mac_key_spec(name: &str) -> Result<KeySpec, Fail> {
    let e = registry::lookup(&format!("mac-{name}")).map_err(|e| Fail(cite(&e.to_string())))?;
    match e.info.key {
        KeySpec::PerElement(_) => Err(Fail(format!("{name}: not a MAC"))),
        k => Ok(k),
    }
}

/// A name for `compute`: a SPEC name as is; `X` for `mac-X` when `X` is a
/// MAC and not itself a SPEC name (`compute hash127` is the hash,
/// `compute hash127-aes` the MAC); "did you mean" for typos.
pub fn resolve_spec(name: &str) -> Result<String, Fail> {
    if registry::lookup(name).is_ok() {
        return Ok(name.to_string());
    }
    if let Some(m) = mac_name(name) {
        return Ok(format!("mac-{m}"));
    }
    let all = registry::spec_names();
    let hint = match suggest(name, all.iter().map(String::as_str)) {
        Some(s) => format!("did you mean '{s}'? "),
        None => String::new(),
    };
    match registry::lookup(name) {
        Err(unimac::Error::NotImplemented(_)) => {
            Err(Fail(format!("{name}: not implemented in this build")))
        }
        _ => Err(Fail(format!(
            "unknown name '{name}'; {hint}'unimac list' shows every name"
        ))),
    }
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
        let s = cite("Bernstein (seed 000), Theorem 9.2; (seed 004 §2.3)");
        assert!(!s.contains("seed"), "{s}");
        assert!(
            s.contains(
                "Bernstein, “Floating-point arithmetic and message authentication”, Theorem 9.2"
            ),
            "{s}"
        );
        assert!(s.contains("Halevi–Krawczyk"), "{s}");
    }
}
