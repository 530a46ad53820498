//! The known-answer files shipped in the repository (crates/unimac-cli/vectors/), built
//! into the binary so `unimac check-vectors` runs anywhere.

pub const VECTORS: &[(&str, &str)] = &[
    ("hash127.jsonl", include_str!("../vectors/hash127.jsonl")),
    ("hash127-accuracy.exp", include_str!("../vectors/hash127-accuracy.exp")),
    ("mmh.jsonl", include_str!("../vectors/mmh.jsonl")),
    ("sqh.jsonl", include_str!("../vectors/sqh.jsonl")),
    ("shoup.jsonl", include_str!("../vectors/shoup.jsonl")),
    ("tree.jsonl", include_str!("../vectors/tree.jsonl")),
    ("mac.jsonl", include_str!("../vectors/mac.jsonl")),
    ("eval128.jsonl", include_str!("../vectors/eval128.jsonl")),
    ("modp.jsonl", include_str!("../vectors/modp.jsonl")),
    ("mac2.jsonl", include_str!("../vectors/mac2.jsonl")),
    ("umac.jsonl", include_str!("../vectors/umac.jsonl")),
    ("wycheproof/vmac_64_test.json", include_str!("../vectors/wycheproof/vmac_64_test.json")),
    ("wycheproof/vmac_128_test.json", include_str!("../vectors/wycheproof/vmac_128_test.json")),
];

