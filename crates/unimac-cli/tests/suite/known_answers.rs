//! Every MAC of the table ships with known answers: a row added without
//! them fails here. The answers are the files in `vectors/` that
//! `unimac check-vectors` runs (built into the binary); this test only
//! counts them per row, and the check-vectors tests run them.

use std::collections::BTreeMap;
use std::path::Path;

/// Bundled answers per function name (`fn` of the JSON lines, or
/// `mac-vmac64`/`mac-vmac128` for Wycheproof's VMAC groups), each with
/// whether one of them has a non-empty message.
fn bundled() -> BTreeMap<String, (usize, bool)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let mut count: BTreeMap<String, (usize, bool)> = BTreeMap::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "jsonl") {
            continue;
        }
        for line in std::fs::read_to_string(&p).unwrap().lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let name = v["fn"].as_str().unwrap().to_string();
            let nonempty = v["msg"].as_str().is_some_and(|m| !m.is_empty());
            let c = count.entry(name).or_default();
            c.0 += 1;
            c.1 |= nonempty;
        }
    }
    for bits in [64, 128] {
        let p = dir.join(format!("wycheproof/vmac_{bits}_test.json"));
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        for g in v["testGroups"].as_array().unwrap() {
            let tag = g["tagSize"].as_u64().unwrap();
            let c = count.entry(format!("mac-vmac{tag}")).or_default();
            for t in g["tests"].as_array().unwrap() {
                c.0 += 1;
                c.1 |= !t["msg"].as_str().unwrap().is_empty();
            }
        }
    }
    count
}

#[test]
fn every_row_of_the_mac_table_has_bundled_known_answers() {
    let have = bundled();
    let mut missing = Vec::new();
    for d in unimac_front::macs::MACS {
        match have.get(d.catalog_name) {
            Some(&(n, nonempty)) if n >= 4 && nonempty => {}
            got => missing.push(format!("{} ({:?})", d.catalog_name, got)),
        }
    }
    assert!(unimac_front::macs::MACS.len() >= 30, "the table has only {} rows", unimac_front::macs::MACS.len());
    assert!(
        missing.is_empty(),
        "rows without at least 4 bundled known answers, one of a non-empty message: {missing:?}"
    );
}
