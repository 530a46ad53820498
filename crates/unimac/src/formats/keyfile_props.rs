//! Property tests of the key-file and counter-file parsers on arbitrary
//! bytes: they never panic, and what they accept is the canonical text
//! (`KeyFile::text`, a decimal counter) up to the leniencies listed below
//! (for a key file, only a missing final newline).

use proptest::prelude::*;

use super::*;

/// Every key kind of this build: the MACs and modp.
fn kinds() -> Vec<KeyKind> {
    let mut v: Vec<KeyKind> = macs::MACS.iter().map(KeyKind::Mac).collect();
    v.push(KeyKind::Modp);
    v
}

fn key_sizes(k: KeyKind) -> Vec<usize> {
    match k {
        KeyKind::Mac(d) => d.key_sizes.to_vec(),
        KeyKind::Modp => vec![crate::modp::KEY_BYTES],
    }
}

/// A well-formed key file, then a few byte edits: mostly near misses.
fn near_key_file() -> impl Strategy<Value = Vec<u8>> {
    let kinds = kinds();
    (
        0..kinds.len(),
        any::<[u8; 48]>(),
        any::<bool>(),
        prop::collection::vec((any::<u8>(), any::<u16>(), 0u8..4), 0..3),
    )
        .prop_map(move |(i, key, spent, edits)| {
            let sizes = key_sizes(kinds[i]);
            let len = sizes[usize::from(key[0]) % sizes.len()];
            let mut t = KeyFile::new(kinds[i], &key[..len]).unwrap().text().to_vec();
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

/// Strictness: an accepted file is `KeyFile::text` (and `spent`), byte
/// for byte, except that its final newline may be missing.
fn assert_canonical(text: &[u8], k: &KeyFile) {
    let mut want = k.text().to_vec();
    if k.is_spent() {
        want.extend_from_slice(b"spent\n");
    }
    let mut got = text.to_vec();
    if got.last() != Some(&b'\n') {
        got.push(b'\n');
    }
    assert_eq!(got, want, "accepted a non-canonical key file {:?}", String::from_utf8_lossy(text));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    #[test]
    fn key_files_parse_strictly(text in key_file_input()) {
        if let Ok(k) = KeyFile::parse(&text, "k") {
            assert_canonical(&text, &k);
            prop_assert!(k.kind().accepts(k.key().len()));
            // `spent` only on a one-time key.
            prop_assert!(!k.is_spent() || kind_one_time(k.kind()));
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
        if let Ok(c) = crate::formats::imp::counter::parse(&text, "c") {
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
        prop_assert_eq!(crate::formats::imp::counter::parse(format!("{c}\n").as_bytes(), "c").ok(), Some(c));
    }
}
