//! Partial hashes (`unimac::unstable::partial`): for every supported name, random keys,
//! messages and splits into aligned chunks, combined in random orders, give
//! the one-shot result of the registry; the encoding round-trips and rejects
//! malformed bytes; misaligned and non-adjacent pieces are errors. One-time
//! MACs (and the hashes whose output is their tag) are refused by every
//! function.

use proptest::prelude::*;
use unimac::unstable::macs;
use unimac::unstable::partial::{self, finish_hash, finish_mac, Partial, PartialStream};
use unimac::unstable::registry::{self, OneTimeMac, Params};
use unimac::unstable::registry::KeySpec;
use unimac::Error;

fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 29) as u8
        })
        .collect()
}

fn names() -> Vec<String> {
    partial::supported_names()
}

fn key_len(name: &str) -> usize {
    match registry::lookup(name).unwrap().info.key {
        KeySpec::Fixed(n) => n,
        _ => panic!("{name}: fixed key expected"),
    }
}

fn nonce_len(name: &str) -> usize {
    registry::lookup(name).unwrap().info.nonce
}

fn is_mac(name: &str) -> bool {
    name.starts_with("mac-")
}

/// The registry's one-shot result.
fn one_shot(name: &str, key: &[u8], nonce: Option<&[u8]>, msg: &[u8]) -> Vec<u8> {
    registry::compute(name, &Params { key, nonce, len: None }, msg).unwrap()
}

fn finish(name: &str, key: &[u8], nonce: Option<&[u8]>, p: &Partial) -> Vec<u8> {
    if is_mac(name) {
        finish_mac(name, key, nonce, p).unwrap()
    } else {
        finish_hash(name, key, p).unwrap()
    }
}

/// Chunk boundaries: `cuts` are multiples of the granularity inside
/// `(0, len]` (a cut at `len` leaves an empty last chunk).
fn chunks(len: usize, g: usize, picks: &[u64]) -> Vec<(usize, usize)> {
    let slots = len / g; // cut positions g, 2g, …, slots·g (≤ len)
    let mut cuts: Vec<usize> = if slots == 0 { vec![] } else { picks.iter().map(|p| (1 + (*p as usize % slots)) * g).collect() };
    cuts.sort_unstable();
    cuts.dedup();
    let mut v = Vec::new();
    let mut at = 0;
    for c in cuts {
        v.push((at, c));
        at = c;
    }
    v.push((at, len));
    v
}

/// Combine the list in a random association order (adjacent pairs picked by
/// `order`), round-tripping some partials through bytes on the way.
fn combine_all(mut list: Vec<Partial>, order: &[u64]) -> Partial {
    let mut k = 0;
    while list.len() > 1 {
        let i = order.get(k).copied().unwrap_or(0) as usize % (list.len() - 1);
        let b = list.remove(i + 1);
        let a = list.remove(i);
        let mut c = a.combine(&b).unwrap();
        if order.get(k).copied().unwrap_or(0) % 3 == 0 {
            c = Partial::from_bytes(&c.to_bytes()).unwrap();
        }
        list.insert(i, c);
        k += 1;
    }
    list.pop().unwrap()
}

/// Message lengths around the interesting boundaries: empty, one word,
/// multiples of the word and of the granularity, and one either side.
fn length(name: &str, base: usize, delta: i64) -> usize {
    let g = partial::granularity(name).unwrap();
    // The word, or for a tree (granularity B^2) the block B.
    let w = if g <= 16 { g } else { (g as f64).sqrt().round() as usize };
    let bases = [0, w, 2 * w, g, 2 * g, 3 * g, 5 * g];
    let b = bases[base % bases.len()] as i64;
    let mut len = (b + delta).max(0) as usize;
    if name == "hash127-raw" {
        len = len / 4 * 4;
    }
    len
}

/// A name picked by `which`, its key and nonce from `seed`, a message of
/// [`length`]`(name, base, delta)` bytes, and the name's granularity.
fn case(which: &prop::sample::Index, seed: u64, base: usize, delta: i64) -> (String, Vec<u8>, Vec<u8>, Vec<u8>, usize) {
    let names = names();
    let name = which.get(&names).clone();
    let key = bytes(key_len(&name), seed);
    let nonce = bytes(nonce_len(&name), seed ^ 1);
    let msg = bytes(length(&name, base, delta), seed ^ 2);
    let g = partial::granularity(&name).unwrap();
    (name, key, nonce, msg, g)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn combined_partials_equal_one_shot(
        which in any::<prop::sample::Index>(),
        seed in any::<u64>(),
        base in 0usize..7,
        delta in -3i64..4,
        picks in prop::collection::vec(any::<u64>(), 0..5),
        order in prop::collection::vec(any::<u64>(), 0..8),
    ) {
        let (name, key, nonce, msg, g) = case(&which, seed, base, delta);
        let nonce = (!nonce.is_empty()).then_some(&nonce[..]);
        let len = msg.len();
        let hk = partial::hash_key(&name, &key).unwrap();
        let pieces = chunks(len, g, &picks);
        let list: Vec<Partial> = pieces
            .iter()
            .map(|&(a, b)| Partial::hash(&name, hk, a as u64, &msg[a..b], b == len && (a, b) == *pieces.last().unwrap()).unwrap())
            .collect();
        let whole = combine_all(list, &order);
        prop_assert!(whole.is_whole());
        prop_assert_eq!(whole.len(), len as u64);
        let want = one_shot(&name, &key, nonce, &msg);
        prop_assert_eq!(finish(&name, &key, nonce, &whole), want.clone(), "{} len {} chunks {:?}", name, len, pieces);
        // The encoding round-trips exactly, and finishes the same.
        let enc = whole.to_bytes();
        let back = Partial::from_bytes(&enc).unwrap();
        prop_assert_eq!(back.to_bytes(), enc);
        prop_assert_eq!(finish(&name, &key, nonce, &back), want);
    }

    /// A stream fed a range in aligned chunks (the last one any length)
    /// gives the partial of the range hashed in one piece, byte for byte,
    /// and a whole message streamed finishes to the one-shot result.
    #[test]
    fn streamed_partials_equal_one_piece(
        which in any::<prop::sample::Index>(),
        seed in any::<u64>(),
        base in 0usize..7,
        delta in -3i64..4,
        start in any::<u64>(),
        picks in prop::collection::vec(any::<u64>(), 0..5),
        last in any::<bool>(),
    ) {
        let (name, key, nonce, msg, g) = case(&which, seed, base, delta);
        let nonce = (!nonce.is_empty()).then_some(&nonce[..]);
        let len = msg.len();
        let hk = partial::hash_key(&name, &key).unwrap();
        // The range [a, end): a aligned; a range that is not the last ends
        // on a non-zero multiple of the granularity.
        let a = if start % 2 == 0 { 0 } else { (start as usize / 2 % (len / g + 1)) * g };
        let end = if last { len } else { a + (len - a) / g * g };
        prop_assume!(last || end > a);
        let pieces = chunks(end - a, g, &picks);
        let mut s = PartialStream::new(&name, hk, a as u64).unwrap();
        for &(x, y) in &pieces[..pieces.len() - 1] {
            s.update(&msg[a + x..a + y]).unwrap();
        }
        let (x, y) = *pieces.last().unwrap();
        let got = s.finish(&msg[a + x..a + y], last).unwrap();
        let want = Partial::hash(&name, hk, a as u64, &msg[a..end], last).unwrap();
        prop_assert_eq!(got.to_bytes(), want.to_bytes(), "{} range {}..{} of {} chunks {:?}", name, a, end, len, pieces);
        if a == 0 && last {
            prop_assert_eq!(finish(&name, &key, nonce, &got), one_shot(&name, &key, nonce, &msg));
        }
    }

    /// One stream's key set-up hashes chunks at any offsets
    /// (`PartialStream::chunk`), leaving the stream as it was: each chunk's
    /// partial is `Partial::hash`'s, and in order they combine to the
    /// one-shot result.
    #[test]
    fn chunks_of_one_stream_equal_partials(
        which in any::<prop::sample::Index>(),
        seed in any::<u64>(),
        base in 0usize..7,
        delta in -3i64..4,
        picks in prop::collection::vec(any::<u64>(), 0..5),
    ) {
        let (name, key, nonce, msg, g) = case(&which, seed, base, delta);
        let nonce = (!nonce.is_empty()).then_some(&nonce[..]);
        let len = msg.len();
        let hk = partial::hash_key(&name, &key).unwrap();
        let s = PartialStream::new(&name, hk, 0).unwrap();
        let pieces = chunks(len, g, &picks);
        let mut whole: Option<Partial> = None;
        // Hashed last to first, as threads may finish them.
        let mut parts: Vec<Partial> = pieces
            .iter()
            .enumerate()
            .rev()
            .map(|(i, &(x, y))| s.chunk(x as u64, &msg[x..y], i + 1 == pieces.len()).unwrap())
            .collect();
        parts.reverse();
        for (i, (p, &(x, y))) in parts.iter().zip(&pieces).enumerate() {
            let want = Partial::hash(&name, hk, x as u64, &msg[x..y], i + 1 == pieces.len()).unwrap();
            prop_assert_eq!(p.to_bytes(), want.to_bytes());
            whole = Some(match whole {
                None => p.clone(),
                Some(w) => w.combine(p).unwrap(),
            });
        }
        prop_assert_eq!(finish(&name, &key, nonce, &whole.unwrap()), one_shot(&name, &key, nonce, &msg));
        prop_assert!(s.chunk(1, &msg[..g.min(len)], false).is_err());
        // The stream was not changed by its chunks.
        let p = s.finish(&msg, true).unwrap();
        prop_assert_eq!(finish(&name, &key, nonce, &p), one_shot(&name, &key, nonce, &msg));
    }

    /// Arbitrary bytes never panic the parser; a valid encoding with any one
    /// byte changed either fails or encodes back to exactly those bytes.
    #[test]
    fn from_bytes_never_panics(junk in prop::collection::vec(any::<u8>(), 0..200), seed in any::<u64>(), at in any::<prop::sample::Index>(), x in 1u8..=255) {
        let _ = Partial::from_bytes(&junk);
        let names = names();
        let name = &names[seed as usize % names.len()];
        let key = bytes(key_len(name), seed);
        let hk = partial::hash_key(name, &key).unwrap();
        let p = Partial::hash(name, hk, 0, &bytes(100, seed), true).unwrap();
        let mut enc = p.to_bytes();
        let i = at.index(enc.len());
        enc[i] ^= x;
        if let Ok(q) = Partial::from_bytes(&enc) {
            prop_assert_eq!(q.to_bytes(), enc);
        }
    }
}

/// Every family the task names has partials, hashes and MACs alike.
#[test]
fn supported_names_cover_the_families() {
    let names = names();
    for n in [
        "eval64",
        "eval128",
        "division64",
        "gdivision64",
        "mac-hash127-aes",
        "mac-hash127-aes-nonce",
        "mac-hash127-aes-add",
        "mac-wc-eval64",
        "mac-wc-eval128",
        "mac-wc-division64",
        "mac-wc-gdivision64",
    ] {
        assert!(names.iter().any(|x| x == n), "{n} missing");
    }
    for f in unimac::unstable::tree::families() {
        assert!(names.contains(&format!("tree-{}", f.name)), "tree-{}", f.name);
        assert!(names.contains(&format!("mac-wc-{}", f.name)), "mac-wc-{}", f.name);
    }
    // The one-time names are not among them (one_time_names_are_refused).
    for n in ["hash127", "hash127-raw", "mac-hash127", "mac-hash127-96"] {
        assert!(!names.iter().any(|x| x == n), "{n} has partials");
    }
    assert!(names.iter().all(|n| macs::one_time_row(n).is_none()));
    // Every reusable MAC over a polynomial or tree hash has partials.
    for d in macs::MACS.iter().filter(|d| !d.one_time && has_partials(d)) {
        assert!(names.iter().any(|x| x == d.catalog_name), "{} missing", d.catalog_name);
    }
    // Names without a polynomial or tree structure are refused, not guessed.
    for n in ["umac64", "mac-vmac64", "modp", "sqh32-c", "keystream"] {
        assert!(Partial::hash(n, &[0; 16], 0, b"", true).is_err(), "{n}");
    }
    assert!(matches!(partial::granularity("no-such-name"), Err(unimac::Error::UnknownName(_))));
    // The short forms name the same MACs.
    assert_eq!(partial::granularity("wc-eval64").unwrap(), 8);
    let p = Partial::hash("hash127-aes", &[1; 16], 0, b"abc", true).unwrap();
    assert_eq!(p.name(), "mac-hash127-aes");
}

/// The split of each key: workers get exactly these bytes, and the finish
/// uses the rest (a different cipher key or pad changes the tag).
#[test]
fn hash_key_is_the_documented_slice() {
    let cases: &[(&str, std::ops::Range<usize>)] = &[
        ("mac-hash127-aes", 0..16),
        ("mac-hash127-aes-nonce", 0..16),
        ("mac-hash127-aes-add", 0..16),
        ("eval64", 0..8),
        ("eval128", 0..16),
        ("division64", 0..8),
        ("gdivision64", 0..8),
        ("tree-mmh32x2", 0..16),
        ("mac-wc-eval64", 16..24),
        ("mac-wc-eval128", 16..32),
        ("mac-wc-division64", 16..24),
        ("mac-wc-gdivision64", 16..24),
        ("mac-wc-mmh32x2", 16..32),
        ("mac-wc-sqh128-e", 16..32),
    ];
    let msg = bytes(300, 9);
    for (name, r) in cases {
        let key = bytes(key_len(name), 3);
        assert_eq!(partial::hash_key(name, &key).unwrap(), &key[r.clone()], "{name}");
        assert!(partial::hash_key(name, &key[1..]).is_err(), "{name}: short key");
        let p = Partial::hash(name, &key[r.clone()], 0, &msg, true).unwrap();
        let nonce = vec![5u8; nonce_len(name)];
        let nonce = (!nonce.is_empty()).then_some(&nonce[..]);
        let tag = finish(name, &key, nonce, &p);
        // Change one byte outside the hash key: the finish must see it
        // (every name here has key bytes outside the workers' part, except
        // the plain hashes keyed by their hash key alone).
        if let Some(i) = (0..key.len()).find(|i| !r.contains(i)) {
            let mut k2 = key.clone();
            k2[i] ^= 0x40;
            assert_ne!(finish(name, &k2, nonce, &p), tag, "{name}: byte {i} unused by the finish");
        }
    }
    // The MACs' slices are their rows' `hash_key`; the rows without
    // partials are the one-time ones (refused) and those whose finish is not
    // a function of the hash value and the nonce alone.
    for d in macs::MACS {
        let key = bytes(d.default_key_len(), 77);
        match partial::hash_key(d.catalog_name, &key) {
            Ok(hk) => assert_eq!(hk, &key[d.hash_key.clone()], "{}", d.name),
            Err(Error::OneTimeOnly(n)) => assert!(d.one_time && n == d.name, "{}", d.name),
            Err(Error::NotImplemented(_)) => assert!(!d.one_time && !has_partials(d), "{}", d.name),
            Err(e) => panic!("{}: {e}", d.name),
        }
    }
}

/// Whether the row's MAC is finished from its hash value (and nonce) alone.
fn has_partials(d: &macs::MacDesc) -> bool {
    use macs::Finish as F;
    matches!(d.finish, F::Pad(_) | F::Scramble | F::NonceScramble | F::NoncePadP127)
}

/// The one-time names (`mac-hash127`, `mac-hash127-96`, and the hashes
/// `hash127`, `hash127-raw` whose output under `r ‖ k` is `mac-hash127`'s
/// tag) have no partials: every function refuses them with `OneTimeOnly`,
/// since a partial may be finished any number of times. Their values are
/// the known answers, which the one-time MAC gives.
#[test]
fn one_time_names_are_refused() {
    let msg = bytes(300, 4);
    let other = Partial::hash("mac-hash127-aes", &bytes(16, 1), 0, &msg, true).unwrap();
    for (name, row) in [
        ("hash127", "hash127"),
        ("hash127-raw", "hash127"),
        ("mac-hash127", "hash127"),
        ("hash127-96", "hash127-96"),
        ("mac-hash127-96", "hash127-96"),
    ] {
        let refused = Some(Error::OneTimeOnly(row.into()));
        let d = macs::find(row).unwrap();
        let key = bytes(d.default_key_len(), 5);
        assert_eq!(partial::granularity(name).err(), refused, "{name}");
        assert_eq!(partial::hash_key(name, &key).err(), refused, "{name}");
        assert_eq!(Partial::hash(name, &key[..16], 0, &msg, true).err(), refused, "{name}");
        assert_eq!(finish_hash(name, &key, &other).err(), refused, "{name}");
        assert_eq!(finish_mac(name, &key, None, &other).err(), refused, "{name}");
        // Only the one-time door and the known answers compute them.
        let p = Params { key: &key, nonce: None, len: None };
        let catalog = if registry::lookup(name).is_ok() { name.to_string() } else { d.catalog_name.to_string() };
        assert_eq!(registry::compute(&catalog, &p, &msg).err(), refused, "{name}");
        let want = registry::known_answer(&catalog, &p, &msg).unwrap();
        if name != "hash127-raw" {
            assert_eq!(OneTimeMac::new(row, &key).unwrap().tag(&msg), want, "{name}");
        }
    }
    // A partial of another name renamed to a one-time name is refused too.
    let enc = other.to_bytes();
    let nlen = enc[4] as usize;
    let mut renamed = enc[..4].to_vec();
    renamed.push("mac-hash127".len() as u8);
    renamed.extend_from_slice(b"mac-hash127");
    renamed.extend_from_slice(&enc[5 + nlen..]);
    assert!(Partial::from_bytes(&renamed).is_err());
}

#[test]
fn misaligned_and_non_adjacent_pieces_are_errors() {
    let msg = bytes(4096, 5);
    for name in ["mac-hash127-aes-nonce", "eval64", "eval128", "division64", "gdivision64", "tree-mmh32x2", "mac-wc-sqh32-asm"] {
        let key = bytes(key_len(name), 1);
        let hk = partial::hash_key(name, &key).unwrap();
        let g = partial::granularity(name).unwrap();
        let msg = if g > 64 { bytes(3 * g + 5, 6) } else { msg.clone() };
        let h = |off: usize, end: usize, last: bool| Partial::hash(name, hk, off as u64, &msg[off..end], last);
        // Misaligned offset; a middle chunk of a non-multiple length; an
        // empty chunk that is not the last.
        assert!(h(1, 2 * g, false).is_err(), "{name}");
        assert!(h(g / 2, 2 * g, true).is_err() || g == 1, "{name}");
        assert!(h(0, g + 1, false).is_err(), "{name}");
        assert!(h(0, 0, false).is_err(), "{name}");
        assert!(Partial::hash(name, &hk[1..], 0, &msg[..g], false).is_err(), "{name}: short hash key");
        let a = h(0, g, false).unwrap();
        let b = h(g, 2 * g, false).unwrap();
        let c = h(2 * g, msg.len(), true).unwrap();
        // Gaps, wrong order, something after the end, self.
        assert!(a.combine(&c).is_err(), "{name}: gap");
        assert!(b.combine(&a).is_err(), "{name}: reversed");
        assert!(c.combine(&a).is_err(), "{name}: after the last");
        assert!(a.combine(&a).is_err(), "{name}: overlap");
        // Not whole: finishing a piece is an error.
        let partial_ab = a.combine(&b).unwrap();
        let nonce = [0u8; 16];
        let nonce = (nonce_len(name) > 0).then_some(&nonce[..]);
        let fin = |p: &Partial| if is_mac(name) { finish_mac(name, &key, nonce, p) } else { finish_hash(name, &key, p) };
        assert!(fin(&partial_ab).is_err(), "{name}: not the end");
        assert!(fin(&b.combine(&c).unwrap()).is_err(), "{name}: not the start");
        let whole = partial_ab.combine(&c).unwrap();
        assert_eq!(fin(&whole).unwrap(), one_shot(name, &key, nonce, &msg), "{name}");
        // The wrong finish, key or nonce.
        if is_mac(name) {
            assert!(finish_hash(name, &key, &whole).is_err());
            assert!(finish_mac(name, &key, None, &whole).is_err());
            assert!(finish_mac(name, &key, Some(&[0; 15]), &whole).is_err());
        } else {
            assert!(finish_mac(name, &key, None, &whole).is_err());
        }
        assert!(finish_hash("eval64", &[0; 8], &h(0, 16, true).unwrap()).is_err() || name == "eval64");
        assert!(fin(&whole).is_ok() && (if is_mac(name) { finish_mac(name, &key[1..], nonce, &whole) } else { finish_hash(name, &key[1..], &whole) }).is_err());
    }
    // Partials of different names never combine.
    let a = Partial::hash("eval64", &[1; 8], 0, &[0; 8], false).unwrap();
    let b = Partial::hash("division64", &[1; 8], 8, &[0; 8], true).unwrap();
    assert!(a.combine(&b).is_err());
    // division64 partials carry the key polynomial: different keys are caught.
    let a = Partial::hash("division64", &[1; 8], 0, &[0; 8], false).unwrap();
    let b = Partial::hash("division64", &[2; 8], 8, &[0; 8], true).unwrap();
    assert!(a.combine(&b).is_err());
    // hash127-raw (whole words, a one-time value) has no partials at all.
    assert_eq!(
        Partial::hash("hash127-raw", &[1; 16], 0, &[0; 8], true).err(),
        Some(Error::OneTimeOnly("hash127".into()))
    );
}

#[test]
fn malformed_encodings_are_errors() {
    for name in ["mac-hash127-aes", "mac-hash127-aes-add", "eval64", "eval128", "gdivision64", "tree-mmh32x2", "mac-wc-nmh32"] {
        let key = bytes(key_len(name), 2);
        let hk = partial::hash_key(name, &key).unwrap();
        let g = partial::granularity(name).unwrap();
        for p in [
            Partial::hash(name, hk, 0, &bytes(3 * g + 3, 1), true).unwrap(),
            Partial::hash(name, hk, g as u64, &bytes(2 * g, 1), false).unwrap(),
            Partial::hash(name, hk, 0, b"short", true).unwrap(),
        ] {
            let enc = p.to_bytes();
            assert_eq!(Partial::from_bytes(&enc).unwrap().to_bytes(), enc);
            // Every strict prefix, and one byte more.
            for n in 0..enc.len() {
                assert!(Partial::from_bytes(&enc[..n]).is_err(), "{name}: prefix {n}");
            }
            let mut longer = enc.clone();
            longer.push(0);
            assert!(Partial::from_bytes(&longer).is_err(), "{name}: trailing byte");
            // Version, name, flags, offset alignment.
            let nlen = enc[4] as usize;
            let mut v = enc.clone();
            v[3] = 2;
            assert!(Partial::from_bytes(&v).is_err(), "{name}: version");
            let mut v = enc.clone();
            v[5] ^= 0x20;
            assert!(Partial::from_bytes(&v).is_err(), "{name}: name");
            let flags = 5 + nlen + 16;
            let mut v = enc.clone();
            v[flags] |= 4;
            assert!(Partial::from_bytes(&v).is_err(), "{name}: flags");
            let mut v = enc.clone();
            v[5 + nlen] ^= 1; // offset + 1: misaligned
            assert!(Partial::from_bytes(&v).is_err(), "{name}: offset");
            // A tree's data length follows from the chunk's length: a changed
            // length is caught. (A polynomial hash's last chunk may have any
            // length, so only a misaligned middle chunk is.)
            if name.contains("tree-") || name.starts_with("mac-wc-") && g > 16 {
                let mut v = enc.clone();
                let at = 5 + nlen + 8;
                let len = u64::from_le_bytes(v[at..at + 8].try_into().unwrap()) + g as u64;
                v[at..at + 8].copy_from_slice(&len.to_le_bytes());
                assert!(Partial::from_bytes(&v).is_err(), "{name}: length");
            }
            if !p.is_last() {
                let mut v = enc.clone();
                v[5 + nlen + 8] ^= 1;
                assert!(Partial::from_bytes(&v).is_err(), "{name}: misaligned length");
            }
        }
    }
    // A hash127 value of p or more is out of range.
    let p = Partial::hash("mac-hash127-aes", &[3; 16], 0, b"xyz", true).unwrap();
    let mut enc = p.to_bytes();
    let at = 5 + "mac-hash127-aes".len() + 17;
    enc[at..at + 16].copy_from_slice(&u128::MAX.to_le_bytes());
    assert!(Partial::from_bytes(&enc).is_err());
    // eval64's values are 64-bit.
    let p = Partial::hash("eval64", &[3; 8], 0, b"xyz", true).unwrap();
    let mut enc = p.to_bytes();
    let at = 5 + "eval64".len() + 17;
    enc[at + 15] = 1;
    assert!(Partial::from_bytes(&enc).is_err());
    assert!(Partial::from_bytes(b"").is_err());
    assert!(Partial::from_bytes(b"UMP\x01").is_err());
}

#[test]
fn debug_shows_no_secret() {
    let p = Partial::hash("eval64", &[0xab; 8], 0, &[0xcd; 64], true).unwrap();
    let d = format!("{p:?}");
    assert!(d.contains("<secret>") && d.contains("eval64"), "{d}");
    let enc = p.to_bytes();
    let value = u64::from_le_bytes(enc[5 + 6 + 17..5 + 6 + 25].try_into().unwrap());
    assert!(!d.contains(&value.to_string()) && !d.contains(&format!("{value:x}")), "{d}");
}

/// A long message split across chunks that are each long enough for the
/// families' own threading and fast paths (tables, SIMD runs).
#[test]
fn long_chunks_with_threads() {
    let _setting = crate::common::thread_setting();
    unimac::threads::set_max_threads(2);
    let msg = bytes((9 << 20) + 77, 11);
    for name in ["mac-hash127-aes-add", "mac-hash127-aes", "eval64", "eval128", "division64", "gdivision64", "tree-mmh32x2", "mac-wc-sqh96-e"] {
        let key = bytes(key_len(name), 12);
        let nonce = [7u8; 16];
        let nonce = (nonce_len(name) > 0).then_some(&nonce[..]);
        let hk = partial::hash_key(name, &key).unwrap();
        let g = partial::granularity(name).unwrap();
        let cut = (5 << 20) / g * g;
        let a = Partial::hash(name, hk, 0, &msg[..cut], false).unwrap();
        let b = Partial::hash(name, hk, cut as u64, &msg[cut..], true).unwrap();
        let whole = Partial::from_bytes(&a.combine(&b).unwrap().to_bytes()).unwrap();
        assert_eq!(finish(name, &key, nonce, &whole), one_shot(name, &key, nonce, &msg), "{name}");
    }
    unimac::threads::set_max_threads(1);
}

/// A stream refuses what `Partial::hash` refuses: a misaligned start, a
/// chunk that is not the last and not a non-zero multiple of the
/// granularity, and nothing at all.
#[test]
fn stream_misuse_is_an_error() {
    for name in names() {
        let key = bytes(key_len(&name), 5);
        let hk = partial::hash_key(&name, &key).unwrap();
        let g = partial::granularity(&name).unwrap();
        assert!(PartialStream::new(&name, hk, 1).is_err(), "{name}");
        assert!(PartialStream::new(&name, &hk[1..], 0).is_err(), "{name}");
        let mut s = PartialStream::new(&name, hk, 0).unwrap();
        assert!(s.update(&[]).is_err(), "{name}");
        assert!(s.update(&bytes(g + 1, 1)).is_err(), "{name}");
        let e = PartialStream::new(&name, hk, 0).unwrap().finish(&[], false).unwrap_err();
        assert!(e.to_string().contains("non-zero multiple"), "{name}: {e}");
        // A failed update leaves the stream as it was.
        s.update(&bytes(g, 2)).unwrap();
        let p = s.finish(&[], false).unwrap();
        assert_eq!(p.to_bytes(), Partial::hash(&name, hk, 0, &bytes(g, 2), false).unwrap().to_bytes(), "{name}");
    }
}
