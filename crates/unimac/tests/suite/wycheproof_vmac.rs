//! Wycheproof's VMAC-AES files (docs/WIRE.md §8.6), run in full through the registry:
//! every valid test gives its tag, every invalid one is rejected.

use unimac::vectors;

fn run(file: &str, total: usize) {
    let path = format!("{}/../unimac-cli/vectors/wycheproof/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(vectors::is_wycheproof(&text));
    let r = vectors::check_file_text(file, &text);
    assert!(r.failures.is_empty(), "{file}: {} failed, first: {:?}", r.failures.len(), &r.failures[..r.failures.len().min(5)]);
    assert_eq!(r.passed, total, "{file}: every test runs");
}

#[test]
fn vmac_64() {
    run("vmac_64_test.json", 764);
}

#[test]
fn vmac_128() {
    run("vmac_128_test.json", 764);
}
