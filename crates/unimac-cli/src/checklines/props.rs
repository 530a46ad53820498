//! Property tests of the check-file parsers on arbitrary bytes: they never
//! panic, every line `tag` writes is read back as written, and an accepted
//! value is the canonical `[NONCE:]TAG` up to the case of its hex digits.

use proptest::prelude::*;

use super::*;

fn mac_names() -> Vec<String> {
    unimac_front::registry::names()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    #[test]
    fn check_lines_never_panic(line in prop::collection::vec(any::<u8>(), 0..160)) {
        if let Some(l) = split_check_line(&line) {
            prop_assert!(!l.file.is_empty());
            prop_assert!(l.mac.as_deref().is_none_or(|m| !m.is_empty() && !m.contains(' ')));
            let _ = decode_value(&l.value, 0..=16, 16);
        }
    }

    #[test]
    fn tag_lines_read_back(
        file in prop::collection::vec(any::<u8>(), 1..40),
        i in 0usize..64,
        nonce in prop::collection::vec(any::<u8>(), 1..=16),
        tag in prop::collection::vec(any::<u8>(), 4..=32),
        bsd in any::<bool>(),
    ) {
        let names = mac_names();
        let name = &names[i % names.len()];
        let nonce = Some(&nonce[..]).filter(|_| i % 2 == 0);
        let line = tag_line(name, &file, nonce, &tag, bsd);
        prop_assert_eq!(line.iter().filter(|&&c| c == b'\n').count(), 1, "one line per file");
        let l = split_check_line(&line[..line.len() - 1]).expect("tag's own line parses");
        prop_assert_eq!(&l.file, &file);
        prop_assert_eq!(l.mac.as_deref(), if bsd { Some(name.as_str()) } else { None });
        let sizes = match nonce { Some(n) => 1..=n.len().max(1), None => 0..=0 };
        let got = decode_value(&l.value, sizes, tag.len());
        prop_assert_eq!(got, Some((nonce.map(<[u8]>::to_vec), tag.clone())));
    }

    #[test]
    fn values_decode_strictly(
        value in prop_oneof![
            "[0-9a-fA-F:]{0,80}",
            any::<String>(),
            (prop::collection::vec(any::<u8>(), 0..20), prop::collection::vec(any::<u8>(), 0..20))
                .prop_map(|(n, t)| format!("{}:{}", hex::encode(n), hex::encode(t))),
        ],
        nmin in 0usize..17, nspan in 0usize..17, tag_len in 0usize..20,
    ) {
        let sizes = nmin..=(nmin + nspan).min(16);
        if let Some((n, t)) = decode_value(&value, sizes.clone(), tag_len) {
            prop_assert_eq!(t.len(), tag_len);
            let canon = match &n {
                Some(n) => {
                    prop_assert!(sizes.contains(&n.len()));
                    format!("{}:{}", hex::encode(n), hex::encode(&t))
                }
                None => {
                    prop_assert_eq!(*sizes.end(), 0);
                    hex::encode(&t)
                }
            };
            prop_assert_eq!(value.to_ascii_lowercase(), canon);
        }
    }
}
