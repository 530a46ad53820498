//! README's library snippet as a user's crate meets it: the program runs,
//! it is the same code as README.md's block and as the doc test in
//! crates/unimac/src/lib.rs, and the trait crates this crate depends on
//! directly (the versions `cargo add universal-hash digest` picks) are the
//! ones unimac implements and re-exports.

use std::path::Path;
use std::process::Command;

fn repo_file(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The lines of README's first Rust block under "## Library".
fn readme_snippet() -> Vec<String> {
    let readme = repo_file("README.md");
    let section = &readme[readme.find("\n## Library\n").expect("README has a Library section")..];
    let start = section.find("```rust\n").expect("a Rust block in the Library section") + "```rust\n".len();
    let block = &section[start..];
    let block = &block[..block.find("```\n").expect("the block ends")];
    block.lines().map(|l| l.trim_end().to_string()).collect()
}

#[test]
fn the_snippet_runs() {
    let out = Command::new(env!("CARGO_BIN_EXE_unimac-fresh-crate")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn main_is_readmes_snippet() {
    let main = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/main.rs")).unwrap();
    let body: Vec<String> = main
        .lines()
        .skip_while(|l| *l != "fn main() {")
        .skip(1)
        .take_while(|l| !l.starts_with("    println!(\"README's library snippet ran\")"))
        .map(|l| l.strip_prefix("    ").unwrap_or(l).trim_end().to_string())
        .collect();
    assert_eq!(body, readme_snippet(), "src/main.rs differs from README's library snippet");
}

#[test]
fn the_crates_doc_test_is_readmes_snippet() {
    let lib = repo_file("crates/unimac/src/lib.rs");
    let docs: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end().to_string())
        .collect();
    let snippet = readme_snippet();
    let found = docs.windows(snippet.len() + 2).any(|w| {
        w[0] == "```" && w[snippet.len() + 1] == "```" && w[1..=snippet.len()] == snippet[..]
    });
    assert!(found, "no doc test in crates/unimac/src/lib.rs is README's library snippet");
}

/// The traits through this crate's own dependencies, not the re-exports:
/// what a program written against `universal-hash` 0.6 and `digest` 0.11
/// does.
#[test]
fn the_direct_trait_crates_are_the_implemented_ones() {
    // One `KeyInit` (crypto-common 0.2) keys both the universal hashes and
    // the MAC: the one `universal_hash` and `digest` both re-export.
    use digest::Mac;
    use universal_hash::{KeyInit, UniversalHash};

    fn uhf<U: universal_hash::UniversalHash + universal_hash::KeyInit>(key: &[u8], msg: &[u8]) -> Vec<u8> {
        let mut h = U::new_from_slice(key).unwrap();
        h.update_padded(msg);
        h.finalize().to_vec()
    }
    // The re-exports name the same traits: a bound through one accepts the
    // types through the other.
    fn reexported<U: unimac::universal_hash::UniversalHash + unimac::universal_hash::KeyInit>(key: &[u8], msg: &[u8]) -> Vec<u8> {
        uhf::<U>(key, msg)
    }

    let mut h = unimac::rustcrypto::Eval128Uhf::new(&[3u8; 16].into());
    h.update_padded(b"any bytes; the caller pads");
    let direct = h.finalize();
    assert_eq!(direct.to_vec(), reexported::<unimac::rustcrypto::Eval128Uhf>(&[3u8; 16], b"any bytes; the caller pads"));
    assert_eq!(uhf::<unimac::rustcrypto::Hash127Uhf>(&[1u8; 32], &[2u8; 32]).len(), 16);
    assert_eq!(uhf::<unimac::rustcrypto::Eval64Uhf>(&[1u8; 8], b"x").len(), 8);
    assert_eq!(uhf::<unimac::rustcrypto::Division64Uhf>(&[1u8; 8], b"x").len(), 8);

    let tag = unimac::mac::Hash127Aes::new(&[7u8; 32]).tag(b"attack at dawn");
    let mut m = unimac::rustcrypto::Hash127AesMac::new_from_slice(&[7u8; 32]).unwrap();
    m.update(b"attack at dawn");
    assert!(m.verify_slice(tag.as_bytes()).is_ok());
    let mut m = <unimac::rustcrypto::Hash127AesMac as digest::KeyInit>::new_from_slice(&[7u8; 32]).unwrap();
    m.update(b"attack at dusk");
    assert!(m.verify_slice(tag.as_bytes()).is_err());
}
