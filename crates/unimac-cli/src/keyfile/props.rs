//! Property tests of the key-file and counter-file parsers on arbitrary
//! bytes: they never panic, and what they accept is the canonical text
//! (`key_file_text`, a decimal counter) up to the leniencies listed below.

use proptest::prelude::*;

use super::*;

fn ok<T>(r: Result<T, Fail>) -> T {
    match r {
        Ok(v) => v,
        Err(Fail(e)) => panic!("{e}"),
    }
}

/// The MACs of this build and modp, with their key specs.
fn key_names() -> Vec<(String, KeySpec)> {
    let mut v: Vec<(String, KeySpec)> = unimac::registry::names()
        .into_iter()
        .map(|n| (n.clone(), ok(crate::names::mac_key_spec(&n))))
        .collect();
    v.push(("modp".into(), KeySpec::Fixed(unimac::modp::KEY_BYTES)));
    v
}

/// A well-formed key file, then a few byte edits: mostly near misses.
fn near_key_file() -> impl Strategy<Value = Vec<u8>> {
    let names = key_names();
    (
        0..names.len(),
        any::<[u8; 48]>(),
        any::<bool>(),
        prop::collection::vec((any::<u8>(), any::<u16>(), 0u8..4), 0..3),
    )
        .prop_map(move |(i, key, spent, edits)| {
            let (name, spec) = &names[i];
            let len = match spec {
                KeySpec::Fixed(n) => *n,
                KeySpec::OneOf(v) => v[usize::from(key[0]) % v.len()],
                KeySpec::PerElement(n) => *n,
            };
            let mut t = ok(key_file_text(name, &key[..len])).to_vec();
            if spent {
                t.extend_from_slice(b"spent\n");
            }
            for (b, at, op) in edits {
                let at = usize::from(at) % (t.len() + 1);
                match op {
                    0 => t.insert(at, b),
                    1 if at < t.len() => t[at] = b,
                    2 if at < t.len() => {
                        t.remove(at);
                    }
                    _ => t.truncate(at),
                }
            }
            t
        })
}

fn key_file_input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![prop::collection::vec(any::<u8>(), 0..200), near_key_file()]
}

/// Strictness: an accepted file is `key_file_text(name, key)` (and `spent`),
/// except that hex digits may be upper case, the name may carry the `mac-`
/// prefix, a line may end in blanks (spaces, tabs, a CR), and an unspent
/// file may lack its final newline.
fn assert_canonical(text: &[u8], key: &[u8], spent: bool, name: &str) {
    let mut want = ok(key_file_text(name, key)).to_vec();
    if spent {
        want.extend_from_slice(b"spent\n");
    }
    let mut got = Vec::new();
    for line in text.to_ascii_lowercase().split_inclusive(|&c| c == b'\n') {
        let (body, nl) = match line.strip_suffix(b"\n") {
            Some(b) => (b, true),
            None => (line, false),
        };
        let end = body.iter().rposition(|&c| !matches!(c, b' ' | b'\t' | b'\r')).map_or(0, |i| i + 1);
        got.extend_from_slice(&body[..end]);
        if nl {
            got.push(b'\n');
        }
    }
    let prefixed = format!("{MAGIC} mac-{name}\n");
    if got.starts_with(prefixed.as_bytes()) {
        got.drain(MAGIC.len() + 1..MAGIC.len() + 5);
    }
    if !spent && got.last() != Some(&b'\n') {
        got.push(b'\n');
    }
    assert_eq!(
        got,
        want,
        "accepted a non-canonical key file {:?}",
        String::from_utf8_lossy(text)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    #[test]
    fn key_files_parse_strictly(text in key_file_input()) {
        if let Ok((key, spent, name)) = parse_key_file(&text[..], "k", None, KeySpec::Fixed(0)) {
            assert_canonical(&text, &key, spent, &name);
            // Read for the MAC it names, it gives the same key.
            let spec = key_names().into_iter().find(|(n, _)| *n == name).expect("a known name").1;
            let again = parse_key_file(&text[..], "k", Some(&name), spec).map(|(k, s, _)| (k.to_vec(), s)).ok();
            prop_assert_eq!(again, Some((key.to_vec(), spent)));
        }
    }

    #[test]
    fn key_files_for_a_name_parse_strictly(text in key_file_input(), i in 0usize..64) {
        let names = key_names();
        let (name, spec) = &names[i % names.len()];
        if let Ok((key, spent, file_name)) = parse_key_file(&text[..], "k", Some(name), *spec) {
            prop_assert_eq!(&file_name, name);
            prop_assert!(spec.accepts(key.len()));
            assert_canonical(&text, &key, spent, name);
        }
    }

    #[test]
    fn counters_parse_strictly(text in prop_oneof![
        prop::collection::vec(any::<u8>(), 0..48),
        any::<u128>().prop_map(|c| format!("{c}\n").into_bytes()),
        (any::<u128>(), any::<u8>(), any::<u8>()).prop_map(|(c, b, at)| {
            let mut t = format!("{c}\n").into_bytes();
            let at = usize::from(at) % (t.len() + 1);
            t.insert(at, b);
            t
        }),
    ]) {
        if let Ok(c) = parse_counter(&text, "c") {
            // Decimal digits and one newline; leading zeros are the one leniency.
            let digits = &text[..text.len() - 1];
            let trimmed = match digits.iter().position(|&d| d != b'0') {
                Some(i) => &digits[i..],
                None => &b"0"[..],
            };
            let canon = c.to_string();
            prop_assert_eq!(trimmed, canon.as_bytes());
            prop_assert_eq!(text.last(), Some(&b'\n'));
        }
    }

    #[test]
    fn counters_round_trip(c in any::<u128>()) {
        prop_assert_eq!(parse_counter(format!("{c}\n").as_bytes(), "c").ok(), Some(c));
    }
}
