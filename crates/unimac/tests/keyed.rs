//! The keyed by-name API (`registry::key`): for every name, one keyed object
//! used for many messages gives exactly what a fresh `open` per message and
//! `compute` give, and its errors are `open`'s.

use rand::{Rng, RngCore, SeedableRng};
use unimac::mac::{KeyedHash, TreeHash, WegmanCarter};
use unimac::registry::NamedHash;
use unimac::registry::{self, Entry, KeySpec, Keyed, Params, Stream};
use unimac::Error;

type Rng64 = rand::rngs::StdRng;

fn bytes(rng: &mut Rng64, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill_bytes(&mut v);
    v
}

/// Message lengths around the block sizes (8, 64, 88, 128, 176, 256, 264),
/// hash127's chunk and lazy-table sizes and the tree's level boundaries.
fn lengths() -> Vec<usize> {
    vec![0, 1, 7, 8, 9, 15, 16, 63, 64, 65, 87, 88, 89, 127, 128, 129, 175, 176, 255, 256, 257, 263, 264, 1023, 1024, 1025, 4095, 4096, 4097, 16 << 10, (16 << 10) + 5, 40_000, 128, 256, 128, 256, 64]
}

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
        return hex::decode(MODP_KEYS[rng.gen_range(0..2)]).unwrap();
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

#[test]
fn keyed_equals_open_and_compute_for_every_name() {
    let mut rng = Rng64::seed_from_u64(0x6b_6579_6564);
    let mut checked = 0usize;
    let mut ok = 0usize;
    for e in registry::entries() {
        let name = &e.info.name;
        // One-message keyed objects start one message only: see
        // one_message_keys_start_once.
        if name.strip_prefix("mac-").is_some_and(unimac::registry::is_one_time) {
            continue;
        }
        let ok_before = ok;
        for key in keys(e, &mut rng) {
            let len = e.info.takes_len.then(|| rng.gen_range(0..2000));
            let p = Params { key: &key, nonce: None, len };
            let keyed: std::sync::Arc<dyn registry::Keyed> =
                registry::key(name, &p).unwrap_or_else(|err| panic!("{name}: {err}")).into();
            // A one-message key (mac-hash127) tags one message per keyed
            // object: each tagging path gets its own; `start_check` (the
            // verifying path) never spends it.
            let one_time = name.strip_prefix("mac-").is_some_and(unimac::registry::is_one_time);
            let tagger = || -> std::sync::Arc<dyn registry::Keyed> {
                if one_time {
                    registry::key(name, &p).unwrap().into()
                } else {
                    std::sync::Arc::clone(&keyed)
                }
            };
            let mut msgs = lengths();
            msgs.extend([key.len().saturating_sub(1), key.len(), key.len() + 1]);
            // Two messages started from one keyed object at once, fed
            // interleaved: they share the key set-up, not the state.
            let pairs: Vec<(Vec<u8>, Option<Vec<u8>>)> =
                msgs.iter().map(|&n| (bytes(&mut rng, n), nonce(e, &mut rng))).collect();
            for (i, (msg, n)) in pairs.iter().enumerate() {
                let n = n.as_deref();
                let p = Params { key: &key, nonce: n, len };
                let fresh = registry::compute(name, &p, msg);
                let opened = registry::open(name, &p).and_then(|s| feed(s, msg, msg.len() / 3));
                let via_key = tagger().start_with_nonce(n).and_then(|s| feed(s, msg, msg.len() / 2 + 1));
                let one_shot = tagger().compute(n, msg);
                let checked_path = keyed.start_check(n).and_then(|s| feed(s, msg, msg.len() / 5 + 1));
                assert_eq!(fresh, checked_path, "{name}: keyed start_check, message {i} ({} bytes)", msg.len());
                assert_eq!(fresh, opened, "{name}: open, message {i} ({} bytes)", msg.len());
                assert_eq!(fresh, via_key, "{name}: keyed stream, message {i} ({} bytes)", msg.len());
                assert_eq!(fresh, one_shot, "{name}: keyed compute, message {i} ({} bytes)", msg.len());
                if n.is_none() {
                    assert_eq!(fresh, tagger().start().and_then(|s| feed(s, msg, 1)), "{name}: start()");
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
    for e in registry::entries().iter().filter(|e| e.info.nonce > 0) {
        let name = &e.info.name;
        let k = e.info.key.default_len().unwrap_or_else(|| panic!("{name}: MACs have keys of set sizes"));
        let key = bytes(&mut rng, k);
        let keyed = registry::key(name, &Params { key: &key, nonce: None, len: None }).unwrap();
        let msg = bytes(&mut rng, 300);
        let mut tags = Vec::new();
        for _ in 0..4 {
            let n = nonce(e, &mut rng).expect("a nonce MAC");
            let t = keyed.compute(Some(&n), &msg).unwrap();
            assert_eq!(Ok(t.clone()), registry::compute(name, &Params { key: &key, nonce: Some(&n), len: None }, &msg));
            tags.push(t);
        }
        tags.sort();
        tags.dedup();
        assert_eq!(tags.len(), 4, "{name}: different nonces give different tags");
        seen += 1;
    }
    assert!(seen >= 4, "the hash127 nonce MACs and wc- MACs are present");
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
            let want = registry::open(name, &p).err();
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
            let want = registry::open(name, &p).err();
            assert_eq!(registry::key(name, &p).err(), want, "{name}: len {l:?}");
        }
    }
}

#[test]
fn keyed_objects_are_shared_across_threads() {
    // Tree level keys are derived lazily under a lock: several threads reaching
    // new levels at once still agree with a fresh computation.
    let mut rng = Rng64::seed_from_u64(3);
    for name in ["tree-mmh32x2", "tree-sqh96-e", "hash127", "mac-wc-nmh32", "division64"] {
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
            let nonce: [u8; 16] = rng.gen();
            let want = registry::compute(&format!("mac-wc-{h}"), &Params { key: &key, nonce: Some(&nonce), len: None }, &msg).unwrap();
            assert_eq!(keyed.tag(&nonce, &msg).unwrap(), want, "wc-{h}");
            assert_eq!(per_msg.tag(&nonce, &msg).unwrap(), want, "wc-{h} per message");
        }
    }
    for f in unimac::tree::families().into_iter().take(3) {
        let key = bytes(&mut rng, 32);
        let wc = WegmanCarter::new(TreeHash(f.clone()), &key).unwrap();
        for n in [0, 127, 128, 129, 5000, 40_000] {
            let msg = bytes(&mut rng, n);
            let nonce: [u8; 16] = rng.gen();
            let want = registry::compute(&format!("mac-wc-{}", f.name), &Params { key: &key, nonce: Some(&nonce), len: None }, &msg).unwrap();
            assert_eq!(wc.tag(&nonce, &msg).unwrap(), want, "wc-{}", f.name);
        }
    }
}

#[test]
fn one_message_keys_start_once() {
    let mut rng = Rng64::seed_from_u64(5);
    for e in registry::entries() {
        let name = &e.info.name;
        if !name.strip_prefix("mac-").is_some_and(unimac::registry::is_one_time) {
            continue;
        }
        let KeySpec::Fixed(k) = e.info.key else { continue };
        let key = bytes(&mut rng, k);
        let p = Params { key: &key, nonce: None, len: None };
        let keyed = registry::key(name, &p).unwrap();
        let msg = bytes(&mut rng, 1000);
        let want = registry::compute(name, &p, &msg);
        assert_eq!(keyed.compute(None, &msg), want, "{name}: the first message");
        assert!(matches!(keyed.compute(None, &msg), Err(Error::KeySpent(_))), "{name}: a second message");
        assert_eq!(keyed.start_check(None).and_then(|s| feed(s, &msg, 300)), want, "{name}: checking never spends");
        assert_eq!(keyed.start_check(None).and_then(|s| feed(s, &msg, 7)), want, "{name}: nor twice");
    }
}
