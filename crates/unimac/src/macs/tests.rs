use super::*;

#[test]
fn rows_are_consistent() {
    for d in MACS {
        assert_eq!(d.catalog_name, format!("mac-{}", d.name));
        let parts: usize = d.key_parts.iter().map(|p| p.1).sum();
        assert_eq!(parts, d.key_sizes[0], "{}", d.name);
        assert!(d.hash_key.end <= d.key_sizes[0], "{}", d.name);
        assert!(d.tag <= 16, "{}", d.name);
        assert_eq!(
            d.one_time,
            matches!(d.finish, Finish::OneTimePad | Finish::OneTime96),
            "{}",
            d.name
        );
        assert_eq!(
            d.framing == Framing::PairThenTag,
            matches!(d.nonce, Nonce::RandomPair { .. }),
            "{}",
            d.name
        );
        if d.one_time {
            assert_eq!(
                d.nonce,
                Nonce::None,
                "{}: a one-time key takes no nonce",
                d.name
            );
        }
    }
    for d in MACS {
        if let Hash::Tree(b) = d.hash {
            let f = b.family();
            assert_eq!(
                d.tag, f.out,
                "{}: the tag is the block function's output",
                d.name
            );
            assert_eq!(
                d.finish,
                Finish::Pad(f.group),
                "{}: the pad is added in the block function's group",
                d.name
            );
            assert_eq!(
                d.key_sizes,
                &[16 + 16],
                "{}: K and the seed of the key stream",
                d.name
            );
        }
    }
    assert_eq!(
        MACS.iter().filter(|d| d.recommended).count(),
        1,
        "one recommended row"
    );
    assert!(
        !recommended().one_time
            && recommended().nonce == Nonce::None
            && recommended().tag == 16
    );
    let mut names: Vec<&str> = MACS.iter().map(|d| d.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), MACS.len(), "one row per name");
}

#[test]
fn nonces_alias_as_the_specifications_say() {
    let umac = find("umac64").unwrap();
    assert_eq!(umac.canonical_nonce(&[2]), umac.canonical_nonce(&[2, 0]));
    assert_eq!(umac.canonical_nonce(&[2]), umac.canonical_nonce(&[2, 0, 0]));
    assert_ne!(umac.canonical_nonce(&[2]), umac.canonical_nonce(&[0, 2]));
    assert_ne!(
        umac.canonical_nonce(&[3]),
        umac.canonical_nonce(&[3, 0]),
        "UMAC-64: index 1 vs 0"
    );
    let umac32 = find("umac32").unwrap();
    assert_ne!(
        umac32.canonical_nonce(&[2]),
        umac32.canonical_nonce(&[2, 0]),
        "UMAC-32: index 2 vs 0"
    );
    assert_eq!(
        umac32.canonical_nonce(&[4]),
        umac32.canonical_nonce(&[4, 0])
    );
    let vmac = find("mac-vmac64").unwrap();
    assert_eq!(vmac.canonical_nonce(&[1]), vmac.canonical_nonce(&[0, 1]));
    assert_ne!(vmac.canonical_nonce(&[1]), vmac.canonical_nonce(&[1, 0]));
    assert_eq!(vmac.counter_nonce(1 << 127), None);
    assert_eq!(vmac.counter_nonce(1).unwrap()[15], 1);
    assert_eq!(umac.counter_nonce(1).unwrap()[0], 1);
    assert_eq!(vmac.nonce.random_bits(), 127);
    assert_eq!(umac.nonce.random_bits(), 128);
    let mut n = [0xffu8; 16];
    vmac.fix_random_nonce(&mut n);
    assert_eq!(n[0], 0x7f);
    assert_eq!(find("hash127").unwrap().counter_nonce(0), None);
    assert_eq!(find("shoup4-eval64").unwrap().sent_len(), 24);
}
