//! The keyed by-name API (`registry::key`): for every name, one keyed object
//! used for many messages gives exactly what a fresh `open` per message and
//! `compute` give, and its errors are `open`'s. The names these reusable
//! doors refuse (the one-time MACs and the hashes whose output is their tag;
//! the MACs that draw their own random pair) are checked through their own
//! doors: `OneTimeMac`, `NamedMac` and `registry::known_answer`.

use crate::common;
use common::lengths;
use rand::{Rng, RngExt, SeedableRng};
use unimac::unstable::hash127;
use unimac::unstable::mac::{Hash127OneTime, Hash127OneTime96, KeyedHash, TreeHash, WegmanCarter};
use unimac::unstable::macs::{self, Finish, Framing};
use unimac::unstable::registry::NamedHash;
use unimac::unstable::registry::{self, Entry, KeySpec, Keyed, NamedMac, OneTimeMac, Params, Stream};
use unimac::Error;

type Rng64 = rand::rngs::StdRng;

fn bytes(rng: &mut Rng64, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill_bytes(&mut v);
    v
}

/// Message lengths around the block sizes (8, 64, 88, 128, 176, 256, 264), hash127's
/// chunk and lazy-table sizes and the tree's level boundaries.
const EDGES: &[(&[usize], &[i64])] = &[
    (&[8, 64, 88, 128, 256, 1024, 4096], &[-1, 0, 1]),
    (&[16, 176, 264], &[-1, 0]),
    (&[16 << 10, (16 << 10) + 5, 40_000], &[0]),
];

fn feed(mut s: Box<dyn Stream>, msg: &[u8], split: usize) -> Result<Vec<u8>, Error> {
    let (a, b) = msg.split_at(split.min(msg.len()));
    s.update(a);
    s.update(b);
    s.finalize()
}

/// Primes of [2^120, 2^128) (modp.jsonl's first key, and 2^127 − 1): `modp`
/// takes nothing else as a key.
const MODP_KEYS: [&str; 2] = ["57ad381a88b75b7480475d1496e591e8", "ffffffffffffffffffffffffffffff7f"];

/// A valid key of `n` bytes for `e`: random bytes, or a prime for `modp`.
fn key_of(e: &Entry, rng: &mut Rng64, n: usize) -> Vec<u8> {
    if e.info.name == "modp" {
        return hex::decode(MODP_KEYS[rng.random_range(0..2)]).unwrap();
    }
    bytes(rng, n)
}

/// The keys to try for `e`: one random key of each length that fits.
fn keys(e: &Entry, rng: &mut Rng64) -> Vec<Vec<u8>> {
    if e.info.name == "modp" {
        return MODP_KEYS.iter().map(|k| hex::decode(k).unwrap()).collect();
    }
    match e.info.key {
        KeySpec::Fixed(n) => vec![bytes(rng, n), bytes(rng, n)],
        KeySpec::PerElement(w) => [1, 11, 16, 33].iter().map(|k| bytes(rng, k * w)).collect(),
        KeySpec::OneOf(v) => v.iter().map(|&n| bytes(rng, n)).collect(),
    }
}

/// A nonce for `e` (the top bit clear: VMAC's 16-byte nonces need it).
fn nonce(e: &Entry, rng: &mut Rng64) -> Option<Vec<u8>> {
    (e.info.nonce > 0).then(|| {
        let mut n = bytes(rng, e.info.nonce);
        n[0] &= 0x7f;
        n
    })
}

/// The error every reusable door (`key`, `open`, `compute`) gives for the
/// catalogue name `name`, from the table: a one-time MAC, or a hash whose
/// output under its key is that MAC's tag, is `OneTimeOnly`; a MAC that
/// draws its own random pair is `CallerPair`; `None` for the other names.
fn refusal(name: &str) -> Option<Error> {
    if let Some(d) = macs::one_time_row(name) {
        return Some(Error::OneTimeOnly(d.name.to_string()));
    }
    macs::MACS
        .iter()
        .find(|d| d.catalog_name == name && d.framing == Framing::PairThenTag)
        .map(|d| Error::CallerPair(d.name.to_string()))
}

#[test]
fn refused_names_are_the_tables_one_time_and_random_pair_rows() {
    let mut refused: Vec<&str> =
        registry::entries().iter().map(|e| e.info.name.as_str()).filter(|n| refusal(n).is_some()).collect();
    refused.sort_unstable();
    assert_eq!(
        refused,
        ["hash127", "hash127-raw", "mac-hash127", "mac-hash127-96", "mac-shoup4-division64", "mac-shoup4-eval64"]
    );
    for d in macs::MACS {
        assert_eq!(registry::is_one_time(d.name), d.one_time, "{}", d.name);
        assert_eq!(refusal(d.catalog_name).is_some(), d.one_time || d.framing == Framing::PairThenTag, "{}", d.name);
    }
}

#[test]
fn keyed_equals_open_and_compute_for_every_name() {
    let mut rng = Rng64::seed_from_u64(0x6b_6579_6564);
    let mut checked = 0usize;
    let mut ok = 0usize;
    for e in registry::entries() {
        let name = &e.info.name;
        // One-time and random-pair names are refused by `key`: see
        // one_time_names_only_through_one_time_mac and
        // random_pair_names_only_through_mac.
        if refusal(name).is_some() {
            continue;
        }
        let ok_before = ok;
        for key in keys(e, &mut rng) {
            let len = e.info.takes_len.then(|| rng.random_range(0..2000));
            let p = Params { key: &key, nonce: None, len };
            let keyed: std::sync::Arc<dyn registry::Keyed> =
                registry::key(name, &p).unwrap_or_else(|err| panic!("{name}: {err}")).into();
            let mut msgs = lengths(1, EDGES);
            // More messages at the common lengths (each its own bytes).
            msgs.extend([128, 256, 128, 256, 64]);
            msgs.extend([key.len().saturating_sub(1), key.len(), key.len() + 1]);
            // Two messages started from one keyed object at once, fed
            // interleaved: they share the key set-up, not the state.
            let pairs: Vec<(Vec<u8>, Option<Vec<u8>>)> =
                msgs.iter().map(|&n| (bytes(&mut rng, n), nonce(e, &mut rng))).collect();
            for (i, (msg, n)) in pairs.iter().enumerate() {
                let n = n.as_deref();
                let p = Params { key: &key, nonce: n, len };
                let fresh = registry::compute(name, &p, msg);
                assert_eq!(registry::known_answer(name, &p, msg), fresh, "{name}: known_answer, message {i}");
                let opened = registry::open(name, &p).and_then(|s| feed(s, msg, msg.len() / 3));
                let via_key = keyed.start_with_nonce(n).and_then(|s| feed(s, msg, msg.len() / 2 + 1));
                let one_shot = keyed.compute(n, msg);
                let checked_path = keyed.start_check(n).and_then(|s| feed(s, msg, msg.len() / 5 + 1));
                assert_eq!(fresh, checked_path, "{name}: keyed start_check, message {i} ({} bytes)", msg.len());
                assert_eq!(fresh, opened, "{name}: open, message {i} ({} bytes)", msg.len());
                assert_eq!(fresh, via_key, "{name}: keyed stream, message {i} ({} bytes)", msg.len());
                assert_eq!(fresh, one_shot, "{name}: keyed compute, message {i} ({} bytes)", msg.len());
                if n.is_none() {
                    assert_eq!(fresh, keyed.start().and_then(|s| feed(s, msg, 1)), "{name}: start()");
                }
                checked += 1;
                ok += fresh.is_ok() as usize;
            }
            // Interleaved streams from one keyed object.
            let (a, b) = (&pairs[pairs.len() - 3], &pairs[12]);
            let mut sa = keyed.start_check(a.1.as_deref()).unwrap();
            let mut sb = keyed.start_check(b.1.as_deref()).unwrap();
            for (ca, cb) in a.0.chunks(100).zip(b.0.chunks(7)) {
                sa.update(ca);
                sb.update(cb);
            }
            let rest_a = a.0.len().min(a.0.len().div_ceil(100).min(b.0.len().div_ceil(7)) * 100);
            let rest_b = b.0.len().min(a.0.len().div_ceil(100).min(b.0.len().div_ceil(7)) * 7);
            sa.update(&a.0[rest_a..]);
            sb.update(&b.0[rest_b..]);
            let pa = Params { key: &key, nonce: a.1.as_deref(), len };
            let pb = Params { key: &key, nonce: b.1.as_deref(), len };
            assert_eq!(sb.finalize(), registry::compute(name, &pb, &b.0), "{name}: interleaved b");
            assert_eq!(sa.finalize(), registry::compute(name, &pa, &a.0), "{name}: interleaved a");
        }
        assert!(ok - ok_before >= 4, "{name}: only {} messages gave an output", ok - ok_before);
    }
    println!("{checked} messages through key/open/compute, {ok} with an output");
}

#[test]
fn nonce_macs_take_a_nonce_per_message() {
    let mut rng = Rng64::seed_from_u64(7);
    let mut seen = 0;
    let mut pairs = 0;
    for e in registry::entries().iter().filter(|e| e.info.nonce > 0) {
        let name = &e.info.name;
        let k = e.info.key.default_len().unwrap_or_else(|| panic!("{name}: MACs have keys of set sizes"));
        let key = bytes(&mut rng, k);
        let msg = bytes(&mut rng, 300);
        let mut tags = Vec::new();
        if let Some(err) = refusal(name) {
            // A random-pair MAC: its "nonce" is the pair the library draws,
            // never the caller's; a given pair's tag is a known answer, and
            // the same as the by-name MAC computes for a received pair.
            assert_eq!(err, Error::CallerPair(name.strip_prefix("mac-").unwrap().to_string()), "{name}");
            assert_eq!(registry::key(name, &Params { key: &key, nonce: None, len: None }).err(), Some(err.clone()));
            let mac = NamedMac::new(name, &key).unwrap();
            for _ in 0..4 {
                let n = nonce(e, &mut rng).expect("a pair");
                let p = Params { key: &key, nonce: Some(&n), len: None };
                assert_eq!(registry::compute(name, &p, &msg).err(), Some(err.clone()), "{name}");
                let t = registry::known_answer(name, &p, &msg).unwrap();
                assert_eq!(Ok(t.clone()), mac.start_check(Some(&n)).and_then(|s| feed(s, &msg, 100)), "{name}");
                tags.push(t);
            }
            pairs += 1;
        } else {
            let keyed = registry::key(name, &Params { key: &key, nonce: None, len: None }).unwrap();
            for _ in 0..4 {
                let n = nonce(e, &mut rng).expect("a nonce MAC");
                let t = keyed.compute(Some(&n), &msg).unwrap();
                assert_eq!(Ok(t.clone()), registry::compute(name, &Params { key: &key, nonce: Some(&n), len: None }, &msg));
                tags.push(t);
            }
            seen += 1;
        }
        tags.sort();
        tags.dedup();
        assert_eq!(tags.len(), 4, "{name}: different nonces give different tags");
    }
    assert!(seen >= 4, "the hash127 nonce MACs and wc- MACs are present");
    assert_eq!(pairs, 2, "the shoup4- MACs are present");
}

#[test]
fn errors_are_opens() {
    let mut rng = Rng64::seed_from_u64(11);
    let p0 = |key: &'static [u8]| Params { key, nonce: None, len: None };
    // Unknown and not-implemented names.
    for name in ["no-such-name", "tree-", "mac-wc-nope"] {
        assert_eq!(registry::key(name, &p0(&[0; 16])).err(), registry::open(name, &p0(&[0; 16])).err());
    }
    for e in registry::entries() {
        let name = &e.info.name;
        let len = e.info.takes_len.then_some(10);
        let good = match e.info.key {
            KeySpec::Fixed(n) => n,
            KeySpec::PerElement(w) => 4 * w,
            KeySpec::OneOf(v) => v[0],
        };
        let good_nonce = nonce(e, &mut rng);
        // A name served elsewhere: every reusable door refuses it, whatever
        // the arguments, with the same error; the known-answer interface
        // checks the arguments as the catalogue states them.
        let refused = refusal(name);
        let refuses = |p: &Params<'_>, what: &str| {
            let Some(err) = refused.clone() else { return false };
            assert_eq!(registry::key(name, p).err(), Some(err.clone()), "{name}: key, {what}");
            assert_eq!(registry::open(name, p).err(), Some(err.clone()), "{name}: open, {what}");
            assert_eq!(registry::compute(name, p, b"abcd").err(), Some(err), "{name}: compute, {what}");
            assert_eq!(
                registry::known_answer(name, p, b"abcd").err(),
                registry::check(&e.info, p).err(),
                "{name}: known_answer, {what}"
            );
            true
        };
        // Wrong key lengths.
        let mut bad: Vec<usize> = vec![0, good + 1];
        if good > 1 {
            bad.push(good - 1);
        }
        for n in bad {
            if matches!(e.info.key, KeySpec::PerElement(w) if n > 0 && n % w == 0) {
                continue;
            }
            let key = bytes(&mut rng, n);
            let p = Params { key: &key, nonce: good_nonce.as_deref(), len };
            if refuses(&p, &format!("key of {n} bytes")) {
                let p = Params { nonce: None, ..p };
                assert!(refuses(&p, "no nonce"));
                assert!(matches!(registry::known_answer(name, &p, b"abcd").err(), Some(Error::KeyLength { .. })), "{name}");
                continue;
            }
            let want = registry::open(name, &p).err();
            assert!(want.is_some(), "{name}: key of {n} bytes accepted");
            assert_eq!(registry::key(name, &p).err(), want, "{name}: key of {n} bytes");
            let p = Params { nonce: None, ..p };
            assert!(matches!(registry::key(name, &p).err(), Some(Error::KeyLength { .. })), "{name}");
        }
        // Nonces: missing, unexpected, wrong length; given per message and to `key`.
        let key = key_of(e, &mut rng, good);
        let keyed = || registry::key(name, &Params { key: &key, nonce: None, len }).unwrap();
        let mut tries: Vec<Option<Vec<u8>>> = vec![None, Some(vec![]), Some(vec![1; 16]), Some(vec![1; 15]), Some(vec![1; 17])];
        tries.push(good_nonce.clone());
        for n in tries {
            let p = Params { key: &key, nonce: n.as_deref(), len };
            if refuses(&p, &format!("nonce {n:?}")) {
                continue;
            }
            let want = registry::open(name, &p).err();
            assert_eq!(registry::known_answer(name, &p, b"abc").err(), registry::compute(name, &p, b"abc").err(), "{name}");
            assert_eq!(keyed().start_with_nonce(n.as_deref()).err(), want, "{name}: nonce {n:?}");
            assert_eq!(keyed().compute(n.as_deref(), b"abc").err(), registry::compute(name, &p, b"abc").err());
            assert_eq!(keyed().start_check(n.as_deref()).err(), want, "{name}: nonce {n:?}, checking");
            if n.is_some() {
                assert_eq!(registry::key(name, &p).err(), want, "{name}: nonce {n:?} given to key");
            }
        }
        // Output lengths (`--len`).
        for l in [None, Some(5), usize::try_from((1u64 << 32) + 1).ok()] {
            let p = Params { key: &key, nonce: good_nonce.as_deref(), len: l };
            if refuses(&p, &format!("len {l:?}")) {
                continue;
            }
            let want = registry::open(name, &p).err();
            assert_eq!(registry::key(name, &p).err(), want, "{name}: len {l:?}");
        }
    }
}

#[test]
#[cfg_attr(all(target_family = "wasm", not(target_feature = "atomics")), ignore = "needs a second thread; wasm32 without atomics has none")]
fn keyed_objects_are_shared_across_threads() {
    // Tree level keys are derived lazily under a lock: several threads reaching
    // new levels at once still agree with a fresh computation.
    let mut rng = Rng64::seed_from_u64(3);
    // hash127's table of powers of `r` is built lazily and shared too: it
    // is keyed here through the reusable hash127 MAC, since the hash127
    // name itself (a one-time tag) is refused.
    assert_eq!(
        registry::key("hash127", &Params { key: &[7; 32], nonce: None, len: None }).err(),
        Some(Error::OneTimeOnly("hash127".into()))
    );
    for name in ["tree-mmh32x2", "tree-sqh96-e", "mac-hash127-aes", "mac-wc-nmh32", "division64"] {
        let Ok(e) = registry::lookup(name) else { continue };
        let KeySpec::Fixed(k) = e.info.key else { continue };
        let key = bytes(&mut rng, k);
        let keyed = registry::key(name, &Params { key: &key, nonce: None, len: None }).unwrap();
        let msgs: Vec<Vec<u8>> = [70_000, 5_000, 300_000, 17].iter().map(|&n| bytes(&mut rng, n)).collect();
        let nonce = (e.info.nonce > 0).then(|| vec![5u8; e.info.nonce]);
        let keyed: &dyn Keyed = &*keyed;
        std::thread::scope(|s| {
            for m in &msgs {
                let nonce = nonce.as_deref();
                let p = Params { key: &key, nonce, len: None };
                s.spawn(move || {
                    assert_eq!(keyed.compute(nonce, m), registry::compute(name, &p, m), "{name}: {} bytes", m.len());
                });
            }
        });
    }
}

/// A keyed hash without a set-up-once form: Wegman–Carter falls back to
/// `start` per message.
struct PerMessage(NamedHash);

impl KeyedHash for PerMessage {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn key_len(&self) -> usize {
        self.0.key_len()
    }
    fn out_len(&self) -> usize {
        self.0.out_len()
    }
    fn start(&self, key: &[u8]) -> Result<Box<dyn Stream>, Error> {
        self.0.start(key)
    }
}

#[test]
fn wegman_carter_reuses_its_hash_key() {
    let mut rng = Rng64::seed_from_u64(5);
    let mut names: Vec<&str> = vec!["eval64", "division64", "gdivision64"];
    names.retain(|n| registry::lookup(n).is_ok());
    for h in names {
        let key = bytes(&mut rng, 24);
        let keyed = WegmanCarter::new(NamedHash::new(h).unwrap(), &key).unwrap();
        let per_msg = WegmanCarter::new(PerMessage(NamedHash::new(h).unwrap()), &key).unwrap();
        for n in [0, 7, 8, 64, 65, 1000] {
            let msg = bytes(&mut rng, n);
            let nonce: [u8; 16] = rng.random();
            let want = registry::compute(&format!("mac-wc-{h}"), &Params { key: &key, nonce: Some(&nonce), len: None }, &msg).unwrap();
            assert_eq!(keyed.tag(&nonce, &msg).unwrap(), want, "wc-{h}");
            assert_eq!(per_msg.tag(&nonce, &msg).unwrap(), want, "wc-{h} per message");
        }
    }
    for &b in unimac::unstable::tree::Block::ALL.iter().take(3) {
        let key = bytes(&mut rng, 32);
        let wc = WegmanCarter::new(TreeHash::new(b), &key).unwrap();
        for n in [0, 127, 128, 129, 5000, 40_000] {
            let msg = bytes(&mut rng, n);
            let nonce: [u8; 16] = rng.random();
            let want = registry::compute(&format!("mac-wc-{}", b.name()), &Params { key: &key, nonce: Some(&nonce), len: None }, &msg).unwrap();
            assert_eq!(wc.tag(&nonce, &msg).unwrap(), want, "wc-{}", b.name());
        }
    }
}

/// The 32-byte key `r ‖ k` of hash127 from `key`.
fn key32(key: &[u8]) -> [u8; 32] {
    key.try_into().unwrap()
}

/// The one-time names (the MACs `mac-hash127` and `mac-hash127-96`, and the
/// hashes `hash127` and `hash127-raw`, whose output under `r ‖ k` is
/// `mac-hash127`'s tag) are refused by every reusable door with
/// `OneTimeOnly`; `OneTimeMac` tags with them (one message per key, by
/// value) and checks without spending the key, and `known_answer` gives the
/// same value as the typed one-time MACs.
#[test]
fn one_time_names_only_through_one_time_mac() {
    let mut rng = Rng64::seed_from_u64(5);
    let mut seen = Vec::new();
    for e in registry::entries() {
        let name = e.info.name.as_str();
        let Some(d) = macs::one_time_row(name) else { continue };
        seen.push(name);
        let KeySpec::Fixed(k) = e.info.key else { panic!("{name}: a one-time key has one size") };
        assert_eq!(k, d.default_key_len(), "{name}");
        let refused = Some(Error::OneTimeOnly(d.name.to_string()));
        for len in [0usize, 3, 4, 16, 1000, 4096, 40_000] {
            let key = bytes(&mut rng, k);
            let msg = bytes(&mut rng, len);
            let p = Params { key: &key, nonce: None, len: None };
            assert_eq!(registry::key(name, &p).err(), refused, "{name}: key");
            assert_eq!(registry::open(name, &p).err(), refused, "{name}: open");
            assert_eq!(registry::compute(name, &p, &msg).err(), refused, "{name}: compute");
            assert_eq!(NamedMac::new(d.name, &key).err(), refused, "{name}: NamedMac::new of its row");
            assert_eq!(NamedMac::new(d.catalog_name, &key).err(), refused, "{name}: NamedMac::new of its row");
            let known = registry::known_answer(name, &p, &msg);
            if name == "hash127-raw" {
                // The same key and value as mac-hash127, without the padding:
                // whole words only.
                let typed = hash127::hash127_raw(&hash127::Key::new(&key32(&key)), &msg);
                assert_eq!(known, typed.map(|t| t.to_vec()), "{name}: {len} bytes");
                continue;
            }
            let want = known.unwrap_or_else(|err| panic!("{name}: {err}"));
            let typed: Vec<u8> = match d.finish {
                Finish::OneTimePad => Hash127OneTime::new(&key32(&key)).tag(&msg).as_bytes().to_vec(),
                Finish::OneTime96 => Hash127OneTime96::new(&key.clone().try_into().unwrap()).tag(&msg).as_bytes().to_vec(),
                f => panic!("{name}: one-time finish {f:?}"),
            };
            assert_eq!(want, typed, "{name}: {len} bytes");
            assert_eq!(want.len(), d.tag, "{name}");
            // Checking never spends the key, however often.
            let one = OneTimeMac::new(d.name, &key).unwrap();
            assert!(one.verify(&msg, &want).is_ok(), "{name}");
            let mut bad = want.clone();
            let at = len % bad.len();
            bad[at] ^= 4;
            assert_eq!(one.verify(&msg, &bad), Err(Error::TagMismatch), "{name}");
            let check = |expected: &[u8], split: usize| {
                let mut c = one.start_check(expected)?;
                let (a, b) = msg.split_at(split.min(msg.len()));
                unimac::Absorb::update(&mut c, a);
                unimac::Absorb::update(&mut c, b);
                c.verify()
            };
            assert_eq!(check(&want, 300), Ok(()), "{name}: checking");
            assert_eq!(check(&want, 7), Ok(()), "{name}: and again");
            assert_eq!(check(&bad, 7), Err(Error::TagMismatch), "{name}: checking a wrong tag");
            // Tagging takes the key by value: one message.
            assert_eq!(one.tag(&msg), want, "{name}: tag");
            let s = OneTimeMac::new(d.name, &key).unwrap().start().unwrap();
            assert_eq!(feed(s, &msg, len / 3), Ok(want.clone()), "{name}: streamed");
        }
        // A reusable name is not a one-time MAC.
        assert!(OneTimeMac::new("hash127-aes", &[0; 32]).is_err());
    }
    seen.sort_unstable();
    assert_eq!(seen, ["hash127", "hash127-raw", "mac-hash127", "mac-hash127-96"]);
}

/// The `shoup4-` MACs draw their random pair `r ‖ s` themselves: the
/// reusable catalogue doors refuse them with `CallerPair`, as does `NamedMac`
/// given a pair to tag with; `NamedMac` tags as `r ‖ s ‖ tag` and checks a
/// received pair's tag, which is the known answer under that pair.
#[test]
fn random_pair_names_only_through_mac() {
    let mut rng = Rng64::seed_from_u64(44);
    let mut seen = 0;
    for d in macs::MACS.iter().filter(|d| d.framing == Framing::PairThenTag) {
        let name = d.catalog_name;
        let Ok(e) = registry::lookup(name) else { continue };
        seen += 1;
        let refused = Some(Error::CallerPair(d.name.to_string()));
        let key = key_of(e, &mut rng, d.default_key_len());
        let mac = NamedMac::new(name, &key).unwrap();
        assert_eq!((*mac.nonce_sizes().end(), mac.tag_len()), (0, d.nonce.max() + d.tag), "{name}");
        for len in [0usize, 1, 8, 9, 1000, 40_000] {
            let msg = bytes(&mut rng, len);
            let rs = bytes(&mut rng, d.nonce.max());
            let p = Params { key: &key, nonce: Some(&rs), len: None };
            assert_eq!(registry::key(name, &p).err(), refused, "{name}: key");
            assert_eq!(registry::open(name, &p).err(), refused, "{name}: open");
            assert_eq!(registry::compute(name, &p, &msg).err(), refused, "{name}: compute");
            assert_eq!(mac.tag(Some(&rs), &msg).err(), refused, "{name}: tag with a pair");
            assert_eq!(mac.start(Some(&rs)).err(), refused, "{name}: start with a pair");
            let known = registry::known_answer(name, &p, &msg).unwrap();
            assert_eq!(known.len(), d.tag);
            assert_eq!(mac.start_check(Some(&rs)).and_then(|s| feed(s, &msg, len / 2)), Ok(known.clone()), "{name}");
            // Tagged by the library: its own pair, then the tag under it.
            let sent = mac.tag(None, &msg).unwrap();
            assert_eq!(sent.len(), mac.tag_len());
            let (pair, tag) = sent.split_at(d.nonce.max());
            let p = Params { key: &key, nonce: Some(pair), len: None };
            assert_eq!(registry::known_answer(name, &p, &msg).unwrap(), tag, "{name}");
            assert!(mac.verify(None, &msg, &sent).is_ok(), "{name}");
            let streamed = mac.start(None).and_then(|s| feed(s, &msg, len / 3)).unwrap();
            assert!(mac.verify(None, &msg, &streamed).is_ok(), "{name}: streamed");
            assert_ne!(streamed[..16], sent[..16], "{name}: a fresh pair per message");
        }
    }
    assert_eq!(seen, 2);
}
