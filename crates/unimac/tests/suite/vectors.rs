//! The shared known answers (bundled under crates/unimac-cli/vectors/) must all pass.

use unimac::vectors::{check_file_text, Report};

fn run(file: &str) -> Report {
    let path = format!("{}/../unimac-cli/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    check_file_text(file, &text)
}

fn assert_all_pass(file: &str, filter: impl Fn(&str) -> bool) {
    let path = format!("{}/../unimac-cli/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
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

#[test]
fn mmh_jsonl() {
    let r = run("mmh.jsonl");
    assert_eq!(r.passed, 50, "{:#?}", r.failures);
}

#[test]
fn sqh_jsonl() {
    let r = run("sqh.jsonl");
    assert_eq!(r.passed, 120, "{:#?}", r.failures);
}

#[test]
fn shoup_jsonl() {
    let r = run("shoup.jsonl");
    assert_eq!(r.passed, 97, "{:#?}", r.failures);
}

#[test]
fn tree_mmh_nmh_lines_of_tree_jsonl() {
    assert_all_pass("tree.jsonl", |l| {
        l.contains("\"fn\": \"tree-mmh") || l.contains("\"fn\": \"tree-nmh")
    });
}

#[test]
fn tree_sqh_lines_of_tree_jsonl() {
    assert_all_pass("tree.jsonl", |l| l.contains("\"fn\": \"tree-sqh"));
}

#[test]
fn tree_jsonl_whole() {
    let r = run("tree.jsonl");
    assert_eq!(r.passed, 75, "{:#?}", r.failures);
}

#[test]
fn mac_jsonl() {
    let r = run("mac.jsonl");
    assert_eq!(r.passed, 84, "{:#?}", r.failures);
}

#[test]
fn eval128_jsonl() {
    let r = run("eval128.jsonl");
    assert_eq!(r.passed, 32, "{:#?}", r.failures);
    assert!(r.failures.is_empty(), "{:#?}", r.failures);
}

#[test]
fn modp_jsonl() {
    let r = run("modp.jsonl");
    assert_eq!(r.passed, 120, "{:#?}", r.failures);
    assert!(r.failures.is_empty(), "{:#?}", r.failures);
}

/// docs/WIRE.md §9.5's mac2.jsonl whole: hash127-96, wc-eval128, shoup3-eval128,
/// shoup4-eval64, shoup4-division64.
#[test]
fn mac2_jsonl() {
    let r = run("mac2.jsonl");
    assert_eq!(r.passed, 37, "{:#?}", r.failures);
    assert!(r.failures.is_empty(), "{:#?}", r.failures);
}
