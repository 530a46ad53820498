//! Shoup's MACs of docs/WIRE.md §8 against models written from the table (AES by the
//! `aes` crate, the field products bit by bit), through the typed API, the
//! registry, the deferred-nonce path and streaming; shoup4's random `r ‖ s`,
//! which the library draws itself (a given pair only for known answers and
//! for checking a received tag).

use crate::common;
use unimac::unstable::prelude::*;
use common::{gf128_mul, gf64_mul, lengths};
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use rand::{RngExt, SeedableRng};
use unimac::unstable::mac::shoup::{Shoup3Eval128, Shoup4, Shoup4Hash, Shoup4Tag, WcEval128};
use unimac::unstable::macs::Framing;
use unimac::unstable::registry::NamedMac;
use unimac::unstable::registry::{self, Params};
use unimac::{Absorb, Error};

fn aes(k: &[u8], x: [u8; 16]) -> [u8; 16] {
    let c = aes::Aes128::new_from_slice(k).unwrap();
    let mut b = aes::Block::from(x);
    c.encrypt_block(&mut b);
    b.into()
}

fn eval128_model(alpha: &[u8], msg: &[u8]) -> u128 {
    let a = u128::from_le_bytes(alpha.try_into().unwrap());
    let mut m = msg.to_vec();
    m.push(1);
    while !m.len().is_multiple_of(16) {
        m.push(0);
    }
    let mut h = 1u128;
    for b in m.chunks(16) {
        h = gf128_mul(h, a) ^ u128::from_le_bytes(b.try_into().unwrap());
    }
    gf128_mul(h, a)
}

fn wc_model(key: &[u8; 32], n: &[u8; 16], msg: &[u8]) -> [u8; 16] {
    (u128::from_le_bytes(aes(&key[..16], *n)) ^ eval128_model(&key[16..], msg)).to_le_bytes()
}

fn shoup3_model(key: &[u8; 48], n: &[u8; 16], msg: &[u8]) -> [u8; 16] {
    let beta = u128::from_le_bytes(key[16..32].try_into().unwrap());
    let bn = gf128_mul(beta, u128::from_le_bytes(*n));
    (u128::from_le_bytes(aes(&key[..16], *n)) ^ bn ^ eval128_model(&key[32..], msg)).to_le_bytes()
}

fn shoup4_model(which: Shoup4Hash, key: &[u8; 48], rs: &[u8; 16], msg: &[u8]) -> [u8; 8] {
    let half = |x: &[u8]| {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(x);
        b
    };
    let le = |b: &[u8]| u64::from_le_bytes(b[..8].try_into().unwrap());
    let fr = le(&aes(&key[..16], half(&rs[..8])));
    let gs = le(&aes(&key[16..32], half(&rs[8..])));
    let ars = gf64_mul(gf64_mul(le(&key[32..40]), le(&rs[..8])), le(&rs[8..]));
    let h = match which {
        Shoup4Hash::Eval64 => "eval64",
        Shoup4Hash::Division64 => "division64",
    };
    let hm = registry::compute(
        h,
        &Params {
            key: &key[40..48],
            nonce: None,
            len: None,
        },
        msg,
    )
    .unwrap();
    (fr ^ gs ^ ars ^ le(&hm)).to_le_bytes()
}

fn by_name(name: &str, key: &[u8], nonce: &[u8], msg: &[u8]) -> Vec<u8> {
    registry::compute(
        &format!("mac-{name}"),
        &Params {
            key,
            nonce: Some(nonce),
            len: None,
        },
        msg,
    )
    .unwrap()
}

/// The known answer of `mac-{name}` under `nonce` (for `shoup4-`, the pair
/// `r ‖ s`; the output the tag alone).
fn known_answer(name: &str, key: &[u8], nonce: &[u8], msg: &[u8]) -> Vec<u8> {
    registry::known_answer(
        &format!("mac-{name}"),
        &Params {
            key,
            nonce: Some(nonce),
            len: None,
        },
        msg,
    )
    .unwrap()
}

/// The tag through `NamedMac::start_deferred`, the message in two parts, the
/// nonce (or none) given at the end.
fn deferred_with(
    name: &str,
    key: &[u8],
    nonce: Option<&[u8]>,
    msg: &[u8],
) -> Result<Vec<u8>, Error> {
    let m = NamedMac::new(name, key).unwrap();
    let mut p = m.start_deferred().unwrap();
    let cut = msg.len() / 3;
    p.update(&msg[..cut]);
    p.update(&msg[cut..]);
    p.finalize(nonce)
}

fn deferred(name: &str, key: &[u8], nonce: &[u8], msg: &[u8]) -> Vec<u8> {
    deferred_with(name, key, Some(nonce), msg).unwrap()
}

/// The tag of a received message under its received pair, through
/// `NamedMac::start_check`, the message in pieces.
fn checked(name: &str, key: &[u8], rs: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut s = NamedMac::new(name, key)
        .unwrap()
        .start_check(Some(rs))
        .unwrap();
    for c in msg.chunks(11) {
        s.update(c);
    }
    s.finalize().unwrap()
}

/// Around the 8-, 16-byte words and the 64- to 512-byte blocks.
const EDGES: &[(&[usize], &[i64])] = &[(&[8, 16, 64, 128, 512], &[-1, 0, 1]), (&[1000, 4099], &[0])];

#[test]
fn wc_eval128_and_shoup3_match_the_table() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for len in lengths(1, EDGES) {
        let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let n: [u8; 16] = rng.random();
        let k32: [u8; 32] = rng.random();
        let want = wc_model(&k32, &n, &msg);
        let wc = WcEval128::new(&k32);
        assert_eq!(wc.tag(&n, &msg), want, "len {len}");
        let mut s = wc.start(&n);
        for c in msg.chunks(37) {
            s.update(c);
        }
        assert_eq!(s.finalize(), want);
        assert_eq!(by_name("wc-eval128", &k32, &n, &msg), want);
        assert_eq!(known_answer("wc-eval128", &k32, &n, &msg), want);
        assert_eq!(deferred("wc-eval128", &k32, &n, &msg), want);
        assert!(wc.verify(&n, &msg, want).is_ok());
        let mut bad = want;
        bad[15] ^= 0x80;
        assert!(wc.verify(&n, &msg, bad).is_err());
        assert!(wc.verify(&n, &msg, &want[..15]).is_err());

        let mut k48 = [0u8; 48];
        rng.fill(&mut k48[..]);
        let want = shoup3_model(&k48, &n, &msg);
        let s3 = Shoup3Eval128::new(&k48);
        assert_eq!(s3.tag(&n, &msg), want, "len {len}");
        assert_eq!(by_name("shoup3-eval128", &k48, &n, &msg), want);
        assert_eq!(known_answer("shoup3-eval128", &k48, &n, &msg), want);
        assert_eq!(deferred("shoup3-eval128", &k48, &n, &msg), want);
        assert!(s3.verify(&n, &msg, want).is_ok());
        let mut n2 = n;
        n2[0] ^= 1;
        assert!(s3.verify(&n2, &msg, want).is_err());
    }
    // β·n with n = 0 vanishes: shoup3 under β ‖ α equals wc-eval128 under α.
    let k48 = [5u8; 48];
    let mut k32 = [5u8; 32];
    k32[16..].copy_from_slice(&k48[32..]);
    assert_eq!(
        Shoup3Eval128::new(&k48).tag(&[0; 16], b"m"),
        WcEval128::new(&k32).tag(&[0; 16], b"m")
    );
}

#[test]
fn shoup4_matches_the_table_with_a_given_pair() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    for which in [Shoup4Hash::Eval64, Shoup4Hash::Division64] {
        for len in lengths(1, EDGES) {
            let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            let rs: [u8; 16] = rng.random();
            let mut key = [0u8; 48];
            rng.fill(&mut key[..]);
            let want = shoup4_model(which, &key, &rs, &msg);
            let m = Shoup4::new(which, &key);
            assert_eq!(
                m.tag_with_rs_for_known_answers(&rs, &msg),
                want,
                "{which:?} len {len}"
            );
            let mut s = m.start_with_rs_for_known_answers(&rs);
            for c in msg.chunks(5) {
                s.update(c);
            }
            assert_eq!(s.finalize(), Shoup4Tag { rs, tag: want });
            let name = which.name();
            // A given pair: the known answer, and the tag checked under a
            // received pair; no tagging door takes it.
            assert_eq!(known_answer(name, &key, &rs, &msg), want);
            assert_eq!(checked(name, &key, &rs, &msg), want);
            let refused = Err(Error::CallerPair(name.into()));
            let p = Params {
                key: &key,
                nonce: Some(&rs),
                len: None,
            };
            assert_eq!(registry::compute(&format!("mac-{name}"), &p, &msg), refused);
            assert_eq!(
                NamedMac::new(name, &key).unwrap().tag(Some(&rs), &msg),
                refused
            );
            assert_eq!(deferred_with(name, &key, Some(&rs), &msg), refused);
            let sent = Shoup4Tag { rs, tag: want }.to_bytes();
            assert!(m.verify(&msg, sent).is_ok());
            assert!(NamedMac::new(name, &key)
                .unwrap()
                .verify(None, &msg, sent)
                .is_ok());
            // The deferred path draws its own pair and sends r ‖ s ‖ tag.
            let sent = deferred_with(name, &key, None, &msg).unwrap();
            let t = Shoup4Tag::from_bytes(&sent).unwrap();
            assert_eq!(
                t.tag,
                shoup4_model(which, &key, &t.rs, &msg),
                "{which:?} len {len}: deferred"
            );
            assert!(m.verify(&msg, &sent).is_ok());
        }
    }
    // Extreme pairs: r = 0 or s = 0 removes α r s; all-ones.
    let key = [0xffu8; 48];
    for rs in [[0u8; 16], [0xff; 16], {
        let mut x = [0u8; 16];
        x[..8].fill(0xff);
        x
    }] {
        for which in [Shoup4Hash::Eval64, Shoup4Hash::Division64] {
            let m = Shoup4::new(which, &key);
            assert_eq!(
                m.tag_with_rs_for_known_answers(&rs, &[0xff; 40]),
                shoup4_model(which, &key, &rs, &[0xff; 40])
            );
        }
    }
}

#[test]
fn shoup4_draws_a_fresh_pair_per_tag() {
    let key = [9u8; 48];
    for which in [Shoup4Hash::Eval64, Shoup4Hash::Division64] {
        let m = Shoup4::new(which, &key);
        let a = m.tag(b"attack at dawn").unwrap();
        let b = m.tag(b"attack at dawn").unwrap();
        assert_ne!(a.rs, b.rs, "a fresh r || s for every message");
        for t in [a, b] {
            assert_eq!(t.tag, shoup4_model(which, &key, &t.rs, b"attack at dawn"));
            let sent = t.to_bytes();
            assert_eq!(Shoup4Tag::from_bytes(&sent), Some(t));
            assert!(m.verify(b"attack at dawn", sent).is_ok());
            assert!(m.verify(b"attack at dusk", sent).is_err());
            for i in 0..24 {
                let mut bad = sent;
                bad[i] ^= 1 << (i % 8);
                assert!(
                    m.verify(b"attack at dawn", bad).is_err(),
                    "flipped byte {i}"
                );
            }
            assert!(m.verify(b"attack at dawn", &sent[..23]).is_err());
        }
        let mut s = m.start().unwrap();
        s.update(b"attack ");
        s.update(b"at dawn");
        let t = s.finalize();
        assert!(m.verify(b"attack at dawn", t.to_bytes()).is_ok());
    }
}

#[test]
fn names_sizes_and_errors() {
    for (name, key, out) in [("wc-eval128", 32, 16), ("shoup3-eval128", 48, 16)] {
        let m = NamedMac::new(name, &vec![1u8; key]).unwrap();
        assert_eq!((*m.nonce_sizes().end(), m.tag_len()), (16, out), "{name}");
        assert_eq!(m.desc().framing, Framing::Tag, "{name}");
        assert!(
            matches!(
                NamedMac::new(name, &vec![1u8; key - 1]),
                Err(Error::KeyLength { .. })
            ),
            "{name}"
        );
        assert!(
            matches!(m.tag(None, b"x"), Err(Error::MissingNonce(_))),
            "{name}"
        );
        assert!(
            matches!(m.tag(Some(&[0; 15]), b"x"), Err(Error::NonceLength { .. })),
            "{name}"
        );
        let t = m.tag(Some(&[2; 16]), b"x").unwrap();
        assert_eq!(t.len(), out);
        assert!(m.verify(Some(&[2; 16]), b"x", &t).is_ok());
        assert!(unimac::unstable::registry::names().iter().any(|n| n == name));
        assert!(registry::lookup(&format!("mac-{name}")).is_ok());
    }
    // shoup4: the library draws r ‖ s; the tag goes as r ‖ s ‖ tag (8 + 8 + 8
    // bytes) and no call takes a pair to tag with.
    for (name, key, out) in [("shoup4-eval64", 48, 8), ("shoup4-division64", 48, 8)] {
        let m = NamedMac::new(name, &vec![1u8; key]).unwrap();
        assert_eq!(m.name(), name);
        assert_eq!((*m.nonce_sizes().end(), m.tag_len()), (0, 16 + out), "{name}");
        assert_eq!(
            (m.desc().framing, m.desc().tag),
            (Framing::PairThenTag, out),
            "{name}"
        );
        assert!(
            matches!(
                NamedMac::new(name, &vec![1u8; key - 1]),
                Err(Error::KeyLength { .. })
            ),
            "{name}"
        );
        let refused = Some(Error::CallerPair(name.into()));
        assert_eq!(m.tag(Some(&[2; 16]), b"x").err(), refused, "{name}");
        assert_eq!(m.tag(Some(&[0; 15]), b"x").err(), refused, "{name}");
        assert_eq!(m.start(Some(&[2; 16])).err(), refused, "{name}");
        assert_eq!(
            m.verify(Some(&[2; 16]), b"x", [0u8; 24]).err(),
            refused,
            "{name}"
        );
        let p = Params {
            key: &[1u8; 48],
            nonce: Some(&[2; 16]),
            len: None,
        };
        let catalog = format!("mac-{name}");
        assert_eq!(registry::key(&catalog, &p).err(), refused, "{name}");
        assert_eq!(registry::open(&catalog, &p).err(), refused, "{name}");
        assert_eq!(
            registry::compute(&catalog, &p, b"x").err(),
            refused,
            "{name}"
        );
        let t = m.tag(None, b"x").unwrap();
        assert_eq!(t.len(), 16 + out);
        assert!(m.verify(None, b"x", &t).is_ok());
        assert_eq!(m.verify(None, b"y", &t), Err(Error::TagMismatch));
        assert!(m.verify(None, b"x", &t[..23]).is_err());
        let p = Params {
            key: &[1u8; 48],
            nonce: Some(&t[..16]),
            len: None,
        };
        assert_eq!(
            registry::known_answer(&catalog, &p, b"x").unwrap(),
            &t[16..]
        );
        assert_eq!(checked(name, &[1u8; 48], &t[..16], b"x"), &t[16..]);
        assert!(unimac::unstable::registry::names().iter().any(|n| n == name));
        assert!(registry::lookup(&catalog).is_ok());
    }
    assert!(registry::lookup("eval128").is_ok());
}

/// The typed `wc-` MACs over Shoup's 64-bit hashes give the by-name tags.
#[test]
fn typed_wc_shoup64_equals_by_name() {
    use rand::{RngExt, SeedableRng};
    use unimac::unstable::mac::shoup::WcShoup64;
    use unimac::unstable::shoup::Kind;
    let mut rng = rand::rngs::StdRng::seed_from_u64(64);
    for (kind, name) in [
        (Kind::Eval64, "wc-eval64"),
        (Kind::Division64, "wc-division64"),
        (Kind::GDivision64, "wc-gdivision64"),
    ] {
        for len in [0usize, 1, 7, 8, 9, 63, 64, 65, 200, 1000, 5000] {
            let key: [u8; 24] = rng.random();
            let nonce: [u8; 16] = rng.random();
            let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            let typed = WcShoup64::new(kind, &key);
            let t = typed.tag(&nonce, &msg);
            let by_name = NamedMac::new(name, &key)
                .unwrap()
                .tag(Some(&nonce), &msg)
                .unwrap();
            assert_eq!(t.as_bytes(), &by_name[..], "{name} len {len}");
            assert!(typed.verify(&nonce, &msg, &by_name).is_ok());
            let mut bad = by_name.clone();
            bad[len % 8] ^= 1;
            assert!(typed.verify(&nonce, &msg, &bad).is_err());
        }
    }
}
