//! The misuse matrix of the library: every door that tags by name (the
//! reusable `registry::NamedMac` with its streaming and deferred forms, the
//! catalogue's `key`/`open`/`compute`, the partial hashes) against every
//! misuse the table rules out: a one-time key through a reusable door, a
//! caller-chosen pair for a MAC that draws its own, a missing, extra,
//! wrongly sized or reserved nonce. Each is refused with the error that
//! names it; the one door each rule leaves open (`OneTimeMac`,
//! `known_answer`) gives the value the refused doors would have given.
//! The CLI and the Python package have matrices of their own.

use unimac::unstable::macs::{self, Framing, Nonce, MACS};
use unimac::unstable::partial::{self, Partial};
use unimac::unstable::registry::{self, NamedMac, OneTimeMac};
use unimac::unstable::registry::Params;
use unimac::{Absorb, Error};

/// A key of the row's default length.
fn key_of(d: &macs::MacDesc) -> Vec<u8> {
    (0..d.default_key_len()).map(|i| (i * 37 + 11) as u8).collect()
}

/// One way of tagging `msg` by name under `nonce`: its result.
type Door = fn(&str, &[u8], Option<&[u8]>, &[u8]) -> Result<Vec<u8>, Error>;

fn door_mac_tag(name: &str, key: &[u8], n: Option<&[u8]>, m: &[u8]) -> Result<Vec<u8>, Error> {
    NamedMac::new(name, key)?.tag(n, m)
}
fn door_mac_stream(name: &str, key: &[u8], n: Option<&[u8]>, m: &[u8]) -> Result<Vec<u8>, Error> {
    let mut s = NamedMac::new(name, key)?.start(n)?;
    s.update(m);
    s.finalize()
}
fn door_mac_deferred(name: &str, key: &[u8], n: Option<&[u8]>, m: &[u8]) -> Result<Vec<u8>, Error> {
    let mut p = NamedMac::new(name, key)?.start_deferred()?;
    p.update(m);
    p.finalize(n)
}
fn door_compute(name: &str, key: &[u8], n: Option<&[u8]>, m: &[u8]) -> Result<Vec<u8>, Error> {
    registry::compute(&format!("mac-{name}"), &Params { key, nonce: n, len: None }, m)
}
fn door_open(name: &str, key: &[u8], n: Option<&[u8]>, m: &[u8]) -> Result<Vec<u8>, Error> {
    let mut s = registry::open(&format!("mac-{name}"), &Params { key, nonce: n, len: None })?;
    s.update(m);
    s.finalize()
}
fn door_key(name: &str, key: &[u8], n: Option<&[u8]>, m: &[u8]) -> Result<Vec<u8>, Error> {
    registry::key(&format!("mac-{name}"), &Params { key, nonce: None, len: None })?.compute(n, m)
}
fn door_partial(name: &str, key: &[u8], n: Option<&[u8]>, m: &[u8]) -> Result<Vec<u8>, Error> {
    let hk = partial::hash_key(name, key)?;
    let p = Partial::hash(name, hk, 0, m, true)?;
    partial::finish_mac(name, key, n, &p)
}

const DOORS: &[(&str, Door)] = &[
    ("NamedMac::tag", door_mac_tag),
    ("NamedMac::start", door_mac_stream),
    ("NamedMac::start_deferred", door_mac_deferred),
    ("registry::compute", door_compute),
    ("registry::open", door_open),
    ("registry::key", door_key),
    ("partial", door_partial),
];

/// Every door refuses a one-time MAC, naming the one-time interface; the
/// one-time interface tags it once and `known_answer` agrees with it.
#[test]
fn one_time_keys_are_refused_by_every_reusable_door() {
    for d in MACS.iter().filter(|d| d.one_time) {
        let key = key_of(d);
        for (door, f) in DOORS {
            let e = f(d.name, &key, None, b"m").expect_err(door);
            assert_eq!(e, Error::OneTimeOnly(d.name.into()), "{door} {}", d.name);
            assert!(e.to_string().contains("OneTimeMac") && e.to_string().contains("OneTimeKey"), "{e}");
        }
        let want = OneTimeMac::new(d.name, &key).unwrap().tag(b"m");
        let p = Params { key: &key, nonce: None, len: None };
        assert_eq!(registry::known_answer(d.catalog_name, &p, b"m").unwrap(), want);
        // The plain hashes whose value is this MAC's tag are refused alike.
        for h in d.same_as_hashes {
            assert_eq!(registry::compute(h, &p, b"abcd").err(), Some(Error::OneTimeOnly(d.name.into())), "{h}");
            assert!(matches!(partial::hash_key(h, &key), Err(Error::OneTimeOnly(_))), "{h}");
            assert_eq!(registry::known_answer(h, &p, b"abcd").unwrap().len(), 16, "{h}");
        }
        if let Some(h) = d.same_as_hashes.first() {
            assert_eq!(registry::known_answer(h, &p, b"m").unwrap(), want, "{h}: the hash's value is the tag");
        }
    }
}

/// A MAC that draws its own random pair refuses a caller's at every door;
/// its own tags verify and differ in their pairs.
#[test]
fn random_pairs_are_never_the_callers() {
    for d in MACS.iter().filter(|d| d.framing == Framing::PairThenTag) {
        let key = key_of(d);
        for (door, f) in DOORS {
            match f(d.name, &key, Some(&[9u8; 16]), b"m") {
                Err(Error::CallerPair(n)) => assert_eq!(n, d.name),
                // The partial API has no such MAC at all.
                Err(Error::NotImplemented(_)) if *door == "partial" => {}
                r => panic!("{door} {}: {r:?}", d.name),
            }
        }
        let m = NamedMac::new(d.name, &key).unwrap();
        let (a, b) = (m.tag(None, b"m").unwrap(), m.tag(None, b"m").unwrap());
        assert_eq!(a.len(), d.sent_len());
        assert_ne!(a[..16], b[..16]);
        assert!(m.verify(None, b"m", &a).is_ok() && m.verify(None, b"m", &b).is_ok());
        // The known-answer door takes the pair and agrees with the tag sent.
        let p = Params { key: &key, nonce: Some(&a[..16]), len: None };
        assert_eq!(registry::known_answer(d.catalog_name, &p, b"m").unwrap(), a[16..]);
    }
}

/// Nonce MACs: no nonce, a nonce of a refused length, and (VMAC) a
/// full-length nonce with its top bit set are refused at every door that
/// takes a nonce; MACs without a nonce refuse one.
#[test]
fn nonces_follow_the_table_at_every_door() {
    for d in MACS.iter().filter(|d| !d.one_time && d.framing == Framing::Tag) {
        let key = key_of(d);
        for (door, f) in DOORS {
            let supported = *door != "partial" || partial::hash_key(d.name, &key).is_ok();
            if !supported {
                continue;
            }
            match d.nonce {
                Nonce::Sequence { min, max, top_bit_clear, .. } => {
                    assert!(matches!(f(d.name, &key, None, b"m"), Err(Error::MissingNonce(_))), "{door} {}", d.name);
                    let long = vec![1u8; max + 1];
                    assert!(f(d.name, &key, Some(&long), b"m").is_err(), "{door} {}: {} bytes", d.name, max + 1);
                    if min > 1 {
                        assert!(f(d.name, &key, Some(&long[..min - 1]), b"m").is_err(), "{door} {}", d.name);
                    }
                    if top_bit_clear {
                        let mut n = vec![0u8; max];
                        n[0] = 0x80;
                        assert!(f(d.name, &key, Some(&n), b"m").is_err(), "{door} {}: top bit", d.name);
                        n[0] = 0x7f;
                        assert!(f(d.name, &key, Some(&n), b"m").is_ok(), "{door} {}", d.name);
                    }
                    let n = vec![3u8; max];
                    let t = f(d.name, &key, Some(&n), b"m").unwrap();
                    assert_eq!(t, door_mac_tag(d.name, &key, Some(&n), b"m").unwrap(), "{door} {}", d.name);
                }
                _ => {
                    assert!(matches!(f(d.name, &key, Some(&[0u8; 16]), b"m"), Err(Error::UnexpectedNonce(_))), "{door} {}", d.name);
                    let t = f(d.name, &key, None, b"m").unwrap();
                    assert_eq!(t, door_mac_tag(d.name, &key, None, b"m").unwrap(), "{door} {}", d.name);
                }
            }
        }
    }
}

/// The nonces that the specifications pad to one cipher block give one
/// pad: the table's canonical form says which, and the MACs agree.
#[test]
fn aliasing_nonces_give_one_tag_as_the_table_says() {
    for d in MACS.iter().filter(|d| matches!(d.nonce, Nonce::Sequence { min: 1, .. })) {
        let key = key_of(d);
        let m = NamedMac::new(d.name, &key).unwrap();
        for (a, b) in [
            (&[2u8][..], &[2u8, 0][..]),
            (&[2u8][..], &[2u8, 0, 0][..]),
            (&[2u8, 0][..], &[2u8, 0, 0][..]),
            (&[2u8][..], &[0u8, 2][..]),
            (&[1u8, 2][..], &[1u8, 2, 0, 0][..]),
            (&[1u8, 4][..], &[1u8, 4, 0, 0][..]),
            (&[5][..], &[0, 0, 5][..]),
            (&[4][..], &[4, 0][..]),
        ] {
            let same_pad = d.canonical_nonce(a) == d.canonical_nonce(b);
            let same_tag = m.tag(Some(a), b"m").unwrap() == m.tag(Some(b), b"m").unwrap();
            assert_eq!(same_pad, same_tag, "{}: {a:?} vs {b:?}", d.name);
        }
        // Counters use the full length: consecutive counters never alias.
        let mut seen = std::collections::HashSet::new();
        for c in [0u128, 1, 2, 255, 256, 512, 1 << 64] {
            assert!(seen.insert(d.canonical_nonce(&d.counter_nonce(c).unwrap()).unwrap()), "{} {c}", d.name);
        }
    }
}
