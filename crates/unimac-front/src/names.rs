//! Names as people type them, for both front ends: a MAC is `X` or
//! `mac-X`, a wire name (a raw hash such as `eval64`) is itself, a typo gets
//! a "did you mean", and the papers are cited by author and title. The
//! command line and the Python package both resolve names here, so their
//! messages agree.

use unimac::unstable::macs;
use unimac::unstable::registry::resolve::hint;
use unimac::unstable::registry::{entries, lookup};
use unimac::Error;

pub use unimac::unstable::registry::resolve::{mac_name, resolve_mac, suggest};

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

fn unknown(name: &str) -> Error {
    let all = entries()
        .iter()
        .map(|e| e.info.name.as_str())
        .chain(macs::MACS.iter().map(|d| d.name));
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
    if let Some(d) = macs::find(name) {
        return Ok(d.catalog_name.to_string());
    }
    Err(unknown(name))
}

/// A MAC (`X` or `mac-X`) or else a wire name (a raw hash such as
/// `eval64`): `(catalogue name, is a MAC)`.
pub fn resolve_any(name: &str) -> Result<(String, bool), Error> {
    if let Some(d) = macs::find(name) {
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
    fn wire_names_and_macs() {
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
