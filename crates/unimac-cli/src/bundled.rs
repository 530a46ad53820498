//! The known-answer files shipped in the repository (tests/vectors/), built
//! into the binary so `unimac check-vectors` runs anywhere.

pub const VECTORS: &[(&str, &str)] = &[
    (
        "hash127.jsonl",
        include_str!("../../../tests/vectors/hash127.jsonl"),
    ),
    (
        "hash127-accuracy.exp",
        include_str!("../../../tests/vectors/hash127-accuracy.exp"),
    ),
    (
        "mmh.jsonl",
        include_str!("../../../tests/vectors/mmh.jsonl"),
    ),
    (
        "sqh.jsonl",
        include_str!("../../../tests/vectors/sqh.jsonl"),
    ),
    (
        "shoup.jsonl",
        include_str!("../../../tests/vectors/shoup.jsonl"),
    ),
    (
        "tree.jsonl",
        include_str!("../../../tests/vectors/tree.jsonl"),
    ),
    (
        "mac.jsonl",
        include_str!("../../../tests/vectors/mac.jsonl"),
    ),
    (
        "eval128.jsonl",
        include_str!("../../../tests/vectors/eval128.jsonl"),
    ),
    (
        "modp.jsonl",
        include_str!("../../../tests/vectors/modp.jsonl"),
    ),
    (
        "mac2.jsonl",
        include_str!("../../../tests/vectors/mac2.jsonl"),
    ),
    (
        "umac.jsonl",
        include_str!("../../../tests/vectors/umac.jsonl"),
    ),
    (
        "wycheproof/vmac_64_test.json",
        include_str!("../../../tests/vectors/wycheproof/vmac_64_test.json"),
    ),
    (
        "wycheproof/vmac_128_test.json",
        include_str!("../../../tests/vectors/wycheproof/vmac_128_test.json"),
    ),
];

/// Run every bundled known answer: (passed, failed).
pub fn check_all() -> (usize, usize) {
    VECTORS.iter().fold((0, 0), |(p, f), (name, text)| {
        let r = unimac::vectors::check_file_text(name, text);
        (p + r.passed, f + r.failures.len())
    })
}
