//! The shared known answers (bundled under tests/vectors/) must all pass.

use unimac::vectors::{check_file_text, Report};

fn run(file: &str) -> Report {
    let path = format!("{}/../../tests/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    check_file_text(file, &text)
}

fn assert_all_pass(file: &str, filter: impl Fn(&str) -> bool) {
    let path = format!("{}/../../tests/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let selected: String = text
        .lines()
        .filter(|l| filter(l))
        .map(|l| format!("{l}\n"))
        .collect();
    let r = check_file_text(file, &selected);
    assert!(r.passed > 0, "{file}: no line selected");
    assert!(r.failures.is_empty(), "{file}: {} passed, {} failed: {:#?}", r.passed, r.failures.len(), r.failures);
    println!("{file}: {} passed, 0 failed", r.passed);
}

#[test]
fn hash127_jsonl() {
    let r = run("hash127.jsonl");
    assert_eq!(r.passed, 60);
    assert!(r.failures.is_empty(), "{:#?}", r.failures);
}

#[test]
fn hash127_accuracy_exp() {
    let r = run("hash127-accuracy.exp");
    assert_eq!(r.passed, 2000);
    assert!(r.failures.is_empty(), "{:#?}", r.failures);
}

#[test]
fn keystream_lines_of_tree_jsonl() {
    assert_all_pass("tree.jsonl", |l| l.contains("\"fn\": \"keystream\""));
}

/// Every line of mac.jsonl. Lines of MACs whose hash family is not in this
/// build fail with "not implemented" (they pass once every family is in).
#[test]
fn mac_jsonl() {
    let r = run("mac.jsonl");
    let missing: Vec<_> = r.failures.iter().filter(|f| f.got.ends_with("not implemented")).collect();
    let wrong: Vec<_> = r.failures.iter().filter(|f| !f.got.ends_with("not implemented")).collect();
    println!("mac.jsonl: {} passed, {} failed ({} not implemented in this build)", r.passed, r.failures.len(), missing.len());
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(missing.is_empty(), "mac.jsonl: {} lines name MACs not in this build: {:?}", missing.len(),
        missing.iter().map(|f| f.name.as_str()).collect::<std::collections::BTreeSet<_>>());
    assert_eq!(r.passed, 84);
}

/// The hash127 MAC lines of mac.jsonl (these need no other family).
#[test]
fn mac_jsonl_hash127_lines() {
    assert_all_pass("mac.jsonl", |l| l.contains("\"fn\": \"mac-hash127"));
}
