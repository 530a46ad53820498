//! MAC layer tests: each construction against a plain model (num-bigint for
//! the mod-p addition), streaming in every chunking, constant-time compare.

use super::*;
use crate::registry::{self, NamedHash, NamedMac, OneTimeMac};
use crate::traits::Params;

/// The reusable MACs whose caller gives the nonce (if any): the one-time rows
/// are served by `OneTimeMac` and the random-pair rows (`shoup4-*`) draw
/// their own pair; both have tests of their own below.
fn names() -> Vec<String> {
    registry::names()
        .into_iter()
        .filter(|n| {
            let d = crate::macs::find(n).unwrap();
            !d.one_time && d.framing == crate::macs::Framing::Tag
        })
        .collect()
}
use num_bigint::BigUint;
use rand::{Rng, RngExt, SeedableRng};

fn rng() -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(0x6d61_6373)
}

fn aes_model(k: &[u8], x: &[u8; 16]) -> [u8; 16] {
    // The `aes` crate itself (not the library's `cipher::Aes128`).
    let aes = <aes::Aes128 as aes::cipher::KeyInit>::new_from_slice(k).unwrap();
    let mut b = aes::Block::from(*x);
    aes::cipher::BlockCipherEncrypt::encrypt_block(&aes, &mut b);
    b.into()
}

fn hash127_model(r: &[u8], msg: &[u8]) -> [u8; 16] {
    let mut key = [0u8; 32];
    key[..16].copy_from_slice(r);
    registry::known_answer(
        "hash127",
        &Params {
            key: &key,
            nonce: None,
            len: None,
        },
        msg,
    )
    .unwrap()
    .try_into()
    .unwrap()
}

fn p_big() -> BigUint {
    (BigUint::from(1u8) << 127u32) - 1u32
}

#[test]
fn reduce128_matches_bigint_on_extremes() {
    let mut r = rng();
    let mut xs: Vec<u128> = vec![
        0,
        1,
        P - 1,
        P,
        P + 1,
        2 * P - 1,
        2 * P,
        2 * P + 1,
        u128::MAX,
        1 << 127,
    ];
    xs.extend((0..1000).map(|_| r.random::<u128>()));
    for x in xs {
        let want = BigUint::from(x) % p_big();
        assert_eq!(BigUint::from(reduce128(x)), want, "{x:#x}");
    }
    for s in [0, 1, P - 1, P, P + 1, 2 * P - 1] {
        let want = BigUint::from(s) % p_big();
        assert_eq!(BigUint::from(sub_p_if_ge(s)), want);
    }
}

fn messages() -> Vec<Vec<u8>> {
    let mut r = rng();
    let mut v: Vec<Vec<u8>> = vec![
        vec![],
        vec![0],
        vec![0xff; 3],
        vec![0xff; 4],
        vec![0xff; 1000],
        vec![0x80; 17],
    ];
    for len in [1usize, 5, 31, 64, 129, 4096, 10_001] {
        let mut m = vec![0u8; len];
        r.fill_bytes(&mut m);
        v.push(m);
    }
    v
}

#[test]
fn hash127_protocols_match_their_definitions() {
    let mut r = rng();
    for msg in messages() {
        let mut key = [0u8; 32];
        r.fill_bytes(&mut key);
        let mut n = [0u8; 16];
        r.fill_bytes(&mut n);
        let h = hash127_model(&key[..16], &msg);
        let kk = &key[16..];
        // protocol 2
        assert_eq!(Hash127Aes::new(&key).tag(&msg), aes_model(kk, &h));
        // protocol 3
        let pad = aes_model(kk, &n);
        let x: [u8; 16] = core::array::from_fn(|i| pad[i] ^ h[i]);
        assert_eq!(Hash127AesNonce::new(&key).tag(&n, &msg), aes_model(kk, &x));
        // protocol 1, against big integers
        let want = (BigUint::from_bytes_le(&pad) + BigUint::from_bytes_le(&h)) % p_big();
        let got = Hash127AesAdd::new(&key).tag(&n, &msg);
        assert_eq!(BigUint::from_bytes_le(got.as_ref()), want);
        // one-time: the hash127 name itself
        let one = registry::known_answer(
            "hash127",
            &Params {
                key: &key,
                nonce: None,
                len: None,
            },
            &msg,
        )
        .unwrap();
        assert_eq!(Hash127OneTime::new(&key).tag(&msg).as_bytes().to_vec(), one);
    }
}

#[test]
fn hash127_aes_add_extreme_pads() {
    // AES outputs near 2^128 and hashes near p: force them through the
    // finishing step directly.
    for pad in [0u128, 1, P - 1, P, P + 1, 2 * P, u128::MAX] {
        for h in [0u128, 1, P - 1] {
            let f = reduce128(pad);
            let got = sub_p_if_ge(f + h);
            let want = (BigUint::from(pad) + BigUint::from(h)) % p_big();
            assert_eq!(BigUint::from(got), want, "pad {pad:#x} h {h:#x}");
        }
    }
}

#[test]
fn every_split_point_equals_one_shot() {
    let mut r = rng();
    let mut key = [0u8; 32];
    r.fill_bytes(&mut key);
    let n = [7u8; 16];
    let names: Vec<String> = names();
    let mut msg = vec![0u8; 300];
    r.fill_bytes(&mut msg);
    for name in &names {
        let e = registry::lookup(&format!("mac-{name}")).unwrap();
        let kl = e.info.key.default_len().expect("a MAC key has a size");
        let mut key = vec![0u8; kl];
        r.fill_bytes(&mut key);
        let mac = NamedMac::new(name, &key).unwrap();
        let nonce = (*mac.nonce_sizes().end() > 0).then_some(&n[..]);
        let whole = mac.tag(nonce, &msg).unwrap();
        assert_eq!(whole.len(), mac.tag_len());
        // start_check: the same computation without spending hash127's
        // one-message key.
        for split in (0..=msg.len()).step_by(1) {
            let mut s = mac.start_check(nonce).unwrap();
            s.update(&msg[..split]);
            s.update(&msg[split..]);
            assert_eq!(s.finalize().unwrap(), whole, "{name} split {split}");
        }
    }
}

#[test]
fn verify_accepts_the_tag_and_rejects_every_one_bit_change() {
    let mut r = rng();
    let mut key = [0u8; 32];
    r.fill_bytes(&mut key);
    let n = [9u8; 16];
    let msg = b"attack at dawn";
    for name in names() {
        let e = registry::lookup(&format!("mac-{name}")).unwrap();
        let kl = e.info.key.default_len().expect("a MAC key has a size");
        let mut key = vec![0u8; kl];
        r.fill_bytes(&mut key);
        let mac = NamedMac::new(&name, &key).unwrap();
        let nonce = (*mac.nonce_sizes().end() > 0).then_some(&n[..]);
        let tag = mac.tag(nonce, msg).unwrap();
        assert!(mac.verify(nonce, msg, &tag).is_ok());
        for bit in 0..tag.len() * 8 {
            let mut t = tag.clone();
            t[bit / 8] ^= 1 << (bit % 8);
            assert!(mac.verify(nonce, msg, &t).is_err(), "{name} bit {bit}");
        }
        assert!(mac.verify(nonce, msg, &tag[..tag.len() - 1]).is_err());
        assert!(mac.verify(nonce, b"attack at dusk", &tag).is_err());
    }
}

/// A keyed hash for testing the generic construction: eval128 by name.
#[test]
fn wegman_carter_is_generic_over_any_keyed_hash() {
    let mut r = rng();
    let h = NamedHash::new("eval128").unwrap();
    assert_eq!((h.key_len(), h.out_len()), (16, 16));
    for msg in messages() {
        let mut key = [0u8; 32];
        r.fill_bytes(&mut key);
        let mut n = [0u8; 16];
        r.fill_bytes(&mut n);
        let wc = WegmanCarter::new(h.clone(), &key).unwrap();
        let hv = registry::compute(
            "eval128",
            &Params {
                key: &key[16..],
                nonce: None,
                len: None,
            },
            &msg,
        )
        .unwrap();
        let pad = aes_model(&key[..16], &n);
        let want: Vec<u8> = hv.iter().zip(pad).map(|(a, b)| a ^ b).collect();
        assert_eq!(wc.tag(&n, &msg).unwrap(), want);
        assert!(wc.verify(&n, &msg, &want).is_ok());
    }
    // Boxed hashes work too (dyn KeyedHash).
    let boxed: Box<dyn KeyedHash> = Box::new(NamedHash::new("eval128").unwrap());
    let wc = WegmanCarter::new(boxed, &[1u8; 32]).unwrap();
    assert_eq!(wc.tag_len(), 16);
    assert!(matches!(
        WegmanCarter::new(NamedHash::new("eval128").unwrap(), &[0u8; 31]),
        Err(Error::KeyLength { .. })
    ));
    assert!(NamedHash::new("keystream").is_err());
    // A hash whose output is a one-time tag cannot be the hash of a reusable MAC.
    assert!(matches!(
        WegmanCarter::new(NamedHash::new("hash127").unwrap(), &[1u8; 48]),
        Err(Error::OneTimeOnly(_))
    ));
}

/// The wire format (docs/WIRE.md §8.4): the `wc-` tree MACs add the pad in the hash's group —
/// word by word mod 2^32 for MMH32/NMH32, one integer mod 2^(8O) for MMH64 and
/// Square Hash (modelled here with big integers, independently of
/// `DeltaGroup`).
#[test]
fn tree_macs_add_the_pad_in_the_hash_group() {
    let mut r = rng();
    for f in crate::tree::families() {
        let mut key = [0u8; 32];
        r.fill_bytes(&mut key);
        let n = [3u8; 16];
        let msg: Vec<u8> = (0..5 * f.block + 3).map(|i| i as u8).collect();
        let s: [u8; 16] = key[16..].try_into().unwrap();
        let h = crate::tree::tree_hash(&f, &s, &msg);
        let pad = aes_model(&key[..16], &n);
        let o = h.len();
        let want: Vec<u8> = if f.name.starts_with("mmh32x") || f.name == "nmh32" {
            h.chunks(4)
                .zip(pad.chunks(4))
                .flat_map(|(a, b)| {
                    let s = (u32::from_le_bytes(a.try_into().unwrap()) as u64
                        + u32::from_le_bytes(b.try_into().unwrap()) as u64)
                        % (1 << 32);
                    (s as u32).to_le_bytes()
                })
                .collect()
        } else {
            let sum = (num_bigint::BigUint::from_bytes_le(&h)
                + num_bigint::BigUint::from_bytes_le(&pad[..o]))
                % (num_bigint::BigUint::from(1u8) << (8 * o));
            let mut v = sum.to_bytes_le();
            v.resize(o, 0);
            v
        };
        let name = format!("wc-{}", f.name);
        assert_eq!(
            NamedMac::new(&name, &key)
                .unwrap()
                .tag(Some(&n), &msg)
                .unwrap(),
            want,
            "{name}"
        );
        let xor: Vec<u8> = h.iter().zip(&pad).map(|(a, b)| a ^ b).collect();
        assert_ne!(
            want, xor,
            "{name}: this key and message must tell addition from XOR"
        );
    }
}

#[test]
fn mac_by_name_rejects_bad_arguments() {
    assert!(matches!(
        NamedMac::new("hash127-aes", &[0; 31]),
        Err(Error::KeyLength { .. })
    ));
    assert!(matches!(
        NamedMac::new("no-such-mac", &[0; 32]),
        Err(Error::UnknownName(_))
    ));
    let m = NamedMac::new("hash127-aes-nonce", &[0; 32]).unwrap();
    assert_eq!(
        m.start(None).err(),
        Some(Error::MissingNonce("hash127-aes-nonce".into()))
    );
    assert!(matches!(
        m.start(Some(&[0; 15])),
        Err(Error::NonceLength { .. })
    ));
    let m = NamedMac::new("hash127-aes", &[0; 32]).unwrap();
    assert!(matches!(
        m.start(Some(&[0; 16])),
        Err(Error::UnexpectedNonce(_))
    ));
}

#[test]
fn every_mac_name_is_a_catalogue_name() {
    for n in registry::names() {
        assert!(registry::lookup(&format!("mac-{n}")).is_ok(), "{n}");
    }
    assert!(names().len() >= 4);
}

#[test]
fn verify_tag_is_exact() {
    use crate::tag::verify_tag;
    assert!(verify_tag(b"abc", b"abc").is_ok());
    assert!(verify_tag(b"abc", b"abd").is_err());
    assert!(verify_tag(b"abc", b"ab").is_err());
    assert!(verify_tag(b"", b"").is_ok());
}

#[test]
fn deferred_nonce_equals_nonce_up_front() {
    let mut r = rng();
    let mut msg = vec![0u8; 777];
    r.fill_bytes(&mut msg);
    for name in names() {
        let e = registry::lookup(&format!("mac-{name}")).unwrap();
        let kl = e.info.key.default_len().expect("a MAC key has a size");
        let mut key = vec![0u8; kl];
        r.fill_bytes(&mut key);
        let mut n = [0u8; 16];
        r.fill_bytes(&mut n);
        n[0] &= 0x7f; // VMAC's 16-byte nonces have the top bit clear
        let mac = || NamedMac::new(&name, &key).unwrap();
        let nonce = (*mac().nonce_sizes().end() > 0).then_some(&n[..]);
        let want = mac().tag(nonce, &msg).unwrap();
        let mut p = mac().start_deferred().unwrap();
        p.update(&msg[..100]);
        p.update(&msg[100..]);
        assert_eq!(p.finalize(nonce).unwrap(), want, "{name}");
        let p = mac().start_deferred().unwrap();
        if *mac().nonce_sizes().end() > 0 {
            assert!(matches!(p.finalize(None), Err(Error::MissingNonce(_))));
            let p = mac().start_deferred().unwrap();
            let sizes = mac().nonce_sizes();
            if sizes.start() == sizes.end() {
                assert!(matches!(
                    p.finalize(Some(&n[..15])),
                    Err(Error::NonceLength { .. })
                ));
            } else {
                assert!(
                    p.finalize(Some(&n[..sizes.start() - 1])).is_err(),
                    "{name}: nonce too short"
                );
            }
        } else {
            assert!(matches!(
                p.finalize(Some(&n)),
                Err(Error::UnexpectedNonce(_))
            ));
        }
    }
}

/// Whole multi-MiB slices (the two-thread paths of hash127 and the trees, as
/// for a memory-mapped file) give the same tags as small updates, for every
/// MAC, including block sizes that do not divide the parallel chunk size
/// (Square Hash's 88, 176 and 264 bytes).
#[test]
fn big_slices_equal_small_updates_for_every_mac() {
    // Threads only when the application allows them.
    crate::threads::set_max_threads(0);
    let mut r = rng();
    let mut msg = vec![0u8; (4 << 20) + (1 << 19) + 77];
    r.fill_bytes(&mut msg);
    for name in names() {
        let e = registry::lookup(&format!("mac-{name}")).unwrap();
        let kl = e.info.key.default_len().expect("a MAC key has a size");
        let mut key = vec![0u8; kl];
        r.fill_bytes(&mut key);
        let n = [5u8; 16];
        let mac = NamedMac::new(&name, &key).unwrap();
        let nonce = (*mac.nonce_sizes().end() > 0).then_some(&n[..]);
        let mut whole = mac.start_check(nonce).unwrap();
        whole.update(&msg);
        let mut small = mac.start_check(nonce).unwrap();
        for c in msg.chunks(65_536 + 3) {
            small.update(c);
        }
        assert_eq!(
            whole.finalize().unwrap(),
            small.finalize().unwrap(),
            "{name}"
        );
    }
}

/// A one-time key (`hash127`, `hash127-96`) tags once: by name only
/// `OneTimeMac` serves it, consumed by tagging; every reusable door refuses
/// it with an error naming that interface (`NamedMac::new`, the catalogue's
/// `key`/`open`/`compute`, also for the plain hash `hash127`, whose output
/// is the same one-time tag); `known_answer` computes it for known-answer
/// tests. The typed `Hash127OneTime` is consumed by tagging and not `Clone`.
#[test]
fn one_time_keys_tag_once_and_verify_always() {
    let key = [0x42u8; 32];
    let want = Hash127OneTime::new(&key).tag(b"first");
    let m = OneTimeMac::new("hash127", &key).unwrap();
    assert!(
        m.verify(b"first", want.as_ref()).is_ok(),
        "verify does not spend"
    );
    assert!(m.verify(b"second", want.as_ref()).is_err());
    assert_eq!(m.tag(b"first"), want.as_ref());
    let m = OneTimeMac::new("mac-hash127", &key).unwrap();
    let mut s = m.start().unwrap();
    s.update(b"fir");
    s.update(b"st");
    assert_eq!(s.finalize().unwrap(), want.as_ref());
    for name in ["hash127", "hash127-96"] {
        let d = crate::macs::find(name).unwrap();
        let k = vec![7u8; d.default_key_len()];
        assert_eq!(
            NamedMac::new(name, &k).err(),
            Some(Error::OneTimeOnly(name.into())),
            "{name}"
        );
        let p = Params {
            key: &k,
            nonce: None,
            len: None,
        };
        let full = format!("mac-{name}");
        assert_eq!(
            registry::compute(&full, &p, b"m").err(),
            Some(Error::OneTimeOnly(name.into()))
        );
        assert!(matches!(
            registry::open(&full, &p),
            Err(Error::OneTimeOnly(_))
        ));
        assert!(matches!(
            registry::key(&full, &p),
            Err(Error::OneTimeOnly(_))
        ));
        let t = registry::known_answer(&full, &p, b"m").unwrap();
        assert_eq!(OneTimeMac::new(name, &k).unwrap().tag(b"m"), t);
        assert!(OneTimeMac::new(name, &k).unwrap().verify(b"m", &t).is_ok());
        assert!(Error::OneTimeOnly(name.into())
            .to_string()
            .contains("OneTimeMac"));
    }
    // The plain hash hash127 under r ‖ k is the one-time tag: refused alike.
    let p = Params {
        key: &key,
        nonce: None,
        len: None,
    };
    for hash in ["hash127", "hash127-raw"] {
        assert_eq!(
            registry::compute(hash, &p, b"abcd").err(),
            Some(Error::OneTimeOnly("hash127".into())),
            "{hash}"
        );
    }
    assert_eq!(
        registry::known_answer("hash127", &p, b"first").unwrap(),
        want.as_ref()
    );
    // Reusable MACs are not one-time.
    assert!(OneTimeMac::new("hash127-aes", &key).is_err());
    let m = NamedMac::new("hash127-aes", &key).unwrap();
    assert_eq!(m.tag(None, b"a").unwrap(), m.tag(None, b"a").unwrap());
}

/// `shoup4-*` draws its random pair `r ‖ s` itself for every message and
/// sends `r ‖ s ‖ tag`; no tagging door takes a pair from the caller.
#[cfg(feature = "getrandom")]
#[test]
fn shoup4_draws_its_own_pair_at_every_door() {
    let key = [0x17u8; 48];
    for name in ["shoup4-eval64", "shoup4-division64"] {
        let m = NamedMac::new(name, &key).unwrap();
        assert_eq!(m.tag_len(), 24);
        assert_eq!(*m.nonce_sizes().end(), 0);
        let a = m.tag(None, b"msg").unwrap();
        let b = m.tag(None, b"msg").unwrap();
        assert_eq!(a.len(), 24);
        assert_ne!(a[..16], b[..16], "{name}: a fresh pair per message");
        assert!(m.verify(None, b"msg", &a).is_ok());
        assert!(m.verify(None, b"msh", &a).is_err());
        assert_eq!(
            m.tag(Some(&[0u8; 16]), b"msg").err(),
            Some(Error::CallerPair(name.into()))
        );
        assert!(matches!(
            m.start(Some(&[0u8; 16])),
            Err(Error::CallerPair(_))
        ));
        let mut s = m.start(None).unwrap();
        s.update(b"msg");
        assert!(m.verify(None, b"msg", s.finalize().unwrap()).is_ok());
        let mut p = m.start_deferred().unwrap();
        p.update(b"msg");
        let sent = p.finalize(None).unwrap();
        assert!(m.verify(None, b"msg", &sent).is_ok());
        assert!(matches!(
            m.start_deferred().unwrap().finalize(Some(&[0u8; 16])),
            Err(Error::CallerPair(_))
        ));
        // The catalogue's tagging doors refuse; known answers take the pair.
        let full = format!("mac-{name}");
        let kp = Params {
            key: &key,
            nonce: Some(&sent[..16]),
            len: None,
        };
        assert!(matches!(
            registry::compute(&full, &kp, b"msg"),
            Err(Error::CallerPair(_))
        ));
        assert_eq!(
            registry::known_answer(&full, &kp, b"msg").unwrap(),
            sent[16..]
        );
        // Checking a received tag: start_check under the received pair.
        let mut c = m.start_check(Some(&sent[..16])).unwrap();
        c.update(b"msg");
        assert_eq!(c.finalize().unwrap(), sent[16..]);
    }
}

/// Without the feature `getrandom`, every door that needs fresh randomness
/// is an error that says so (never a pair or a prime from a weaker
/// source), and the doors that need none still work.
#[cfg(not(feature = "getrandom"))]
#[test]
fn without_getrandom_the_random_doors_are_errors() {
    let says = |e: Error| {
        let m = e.to_string();
        assert!(m.contains("`getrandom`"), "{m}");
    };
    let key = [0x17u8; 48];
    for name in ["shoup4-eval64", "shoup4-division64"] {
        let m = NamedMac::new(name, &key).unwrap();
        says(m.tag(None, b"msg").unwrap_err());
        // The pair is drawn when a stream starts, or when it ends.
        match m.start(None) {
            Err(e) => says(e),
            Ok(mut s) => {
                s.update(b"msg");
                says(s.finalize().unwrap_err());
            }
        }
        match m.start_deferred() {
            Err(e) => says(e),
            Ok(mut p) => {
                p.update(b"msg");
                says(p.finalize(None).unwrap_err());
            }
        }
        // Known answers take the pair from the caller: no randomness, and
        // the tag they give checks.
        let rs = [0x42u8; 16];
        let kp = Params {
            key: &key,
            nonce: Some(&rs),
            len: None,
        };
        let tag = registry::known_answer(&format!("mac-{name}"), &kp, b"msg").unwrap();
        let mut sent = rs.to_vec();
        sent.extend_from_slice(&tag);
        assert!(m.verify(None, b"msg", &sent).is_ok());
        assert!(m.verify(None, b"msh", &sent).is_err());
    }
    says(crate::modp::SecretPrime::generate().unwrap_err());
    // 2^127 - 1 is prime, but checking it takes random bases.
    says(crate::modp::SecretPrime::from_bytes(&((1u128 << 127) - 1).to_le_bytes()).unwrap_err());
    let p = Params {
        key: &((1u128 << 127) - 1).to_le_bytes(),
        nonce: None,
        len: None,
    };
    says(registry::compute("modp", &p, b"abc").unwrap_err());
}

/// Checking a one-time tag takes the expected tag first and gives no tag
/// (`OneTimeCheck` has `update` and `verify` only): for hash127 and
/// hash127-96, the right tag is accepted whatever the cut of the message,
/// and a wrong tag (every one-bit change, a tag of the wrong length, the
/// tag of another message) is refused with `TagMismatch`; the key is not
/// spent, so checks can be repeated.
#[test]
fn one_time_check_verifies_and_gives_no_tag() {
    let mut r = rng();
    for name in ["hash127", "hash127-96"] {
        let d = crate::macs::find(name).unwrap();
        let mut key = vec![0u8; d.default_key_len()];
        r.fill_bytes(&mut key);
        let mut msg = vec![0u8; 1000];
        r.fill_bytes(&mut msg);
        let tag = OneTimeMac::new(name, &key).unwrap().tag(&msg);
        assert_eq!(tag.len(), d.tag, "{name}");
        let m = OneTimeMac::new(name, &key).unwrap();
        for cut in [0, 1, 15, 16, 17, 500, 999, 1000] {
            let mut c = m.start_check(&tag).unwrap();
            c.update(&msg[..cut]);
            c.update(&msg[cut..]);
            assert_eq!(c.verify(), Ok(()), "{name} cut {cut}");
        }
        for bit in 0..8 * tag.len() {
            let mut bad = tag.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            let mut c = m.start_check(&bad).unwrap();
            c.update(&msg);
            assert_eq!(c.verify(), Err(Error::TagMismatch), "{name} bit {bit}");
        }
        for bad in [
            &tag[..tag.len() - 1],
            &[][..],
            &[tag.clone(), vec![0]].concat()[..],
        ] {
            let mut c = m.start_check(bad).unwrap();
            c.update(&msg);
            assert_eq!(
                c.verify(),
                Err(Error::TagMismatch),
                "{name}: {} bytes",
                bad.len()
            );
        }
        let mut c = m.start_check(&tag).unwrap();
        c.update(&msg[1..]);
        assert_eq!(
            c.verify(),
            Err(Error::TagMismatch),
            "{name}: another message"
        );
        let c = m.start_check(&tag).unwrap();
        assert_eq!(
            format!("{c:?}"),
            format!("OneTimeCheck {{ name: {name:?}, .. }}")
        );
        // Not spent by checking: the key still tags its one message.
        assert_eq!(m.tag(&msg), tag);
    }
}

/// `known_answer_open` streams what `known_answer` computes, for the
/// one-time MACs, the hash hash127 and a random-pair row (`shoup4-*`,
/// `r ‖ s` as the nonce), in pieces of every size.
#[test]
fn known_answer_streams_equal_one_shot() {
    let mut r = rng();
    let mut msg = vec![0u8; 5000];
    r.fill_bytes(&mut msg);
    for name in [
        "mac-hash127",
        "mac-hash127-96",
        "hash127",
        "mac-shoup4-eval64",
    ] {
        let e = registry::lookup(name).unwrap();
        let mut key = vec![0u8; e.info.key.default_len().unwrap()];
        r.fill_bytes(&mut key);
        let mut nonce = vec![0u8; e.info.nonce];
        r.fill_bytes(&mut nonce);
        let p = Params {
            key: &key,
            nonce: (!nonce.is_empty()).then_some(&nonce[..]),
            len: None,
        };
        let want = registry::known_answer(name, &p, &msg).unwrap();
        for piece in [1, 7, 16, 100, 4096, 5000] {
            let mut s = registry::known_answer_open(name, &p).unwrap();
            for c in msg.chunks(piece) {
                s.update(c);
            }
            assert_eq!(s.finalize().unwrap(), want, "{name} pieces of {piece}");
        }
    }
    // Checked as known_answer is: a wrong key length, a missing pair.
    let p = Params {
        key: &[1u8; 5],
        nonce: None,
        len: None,
    };
    assert!(registry::known_answer_open("mac-hash127", &p).is_err());
    let p = Params {
        key: &[1u8; 32],
        nonce: None,
        len: None,
    };
    assert!(registry::known_answer_open("mac-shoup4-eval64", &p).is_err());
}
