//! Stripes (`unimac::stripe`): for every MAC over a layered hash (UMAC,
//! VMAC, the trees' `wc-` MACs) and every `tree-F` hash, a message cut into
//! stripes at random multiples of the unit, hashed on other threads and
//! absorbed in order, with whole units as bytes in between and the end as
//! bytes, gives the one-shot tag or hash; exactly those names take stripes;
//! a stripe of another key, a stream that holds part of a unit and a stripe
//! of the wrong length are errors that absorb nothing.

use unimac::unstable::macs::{self, Hash};
use unimac::unstable::registry::{NamedMac, Params};
use unimac::stripe::{Stripe, Striper};
use unimac::Absorb;

fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    (0..len).map(|_| r.below(256) as u8).collect()
}

/// A small deterministic generator (xorshift) for the bytes and the cuts.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The MACs whose hash is layered.
fn striped_macs() -> Vec<&'static macs::MacDesc> {
    macs::MACS
        .iter()
        .filter(|d| !d.one_time && matches!(d.hash, Hash::Uhash | Hash::Vhash | Hash::Tree(_)))
        .collect()
}

fn nonce_for(d: &macs::MacDesc, seed: u64) -> Vec<u8> {
    let mut n = bytes(d.nonce.max(), seed);
    d.fix_random_nonce(&mut n);
    n
}

/// How one message goes in: stripes hashed on other threads (several at
/// once), whole units as bytes now and then, and the end as bytes.
enum Piece {
    Stripe(std::ops::Range<usize>),
    Bytes(std::ops::Range<usize>),
}

fn cut(len: usize, unit: usize, rng: &mut Rng, max_units: u64) -> Vec<Piece> {
    let mut out = Vec::new();
    let whole = len / unit * unit;
    let mut at = 0;
    while at < whole {
        let n = ((1 + rng.below(max_units)) as usize * unit).min(whole - at);
        if rng.below(5) == 0 {
            out.push(Piece::Bytes(at..at + n));
        } else {
            out.push(Piece::Stripe(at..at + n));
        }
        at += n;
    }
    if at < len || rng.below(2) == 0 {
        // The end as bytes (possibly empty); a message of whole units may
        // also end with a stripe.
        out.push(Piece::Bytes(at..len));
    }
    out
}

/// Hash the stripes of `pieces` on two threads (one where threads cannot
/// be started), in order of the pieces.
fn hash_stripes(striper: &Striper, msg: &[u8], pieces: &[Piece]) -> Vec<Option<Stripe>> {
    let ranges: Vec<Option<std::ops::Range<usize>>> = pieces
        .iter()
        .map(|p| match p {
            Piece::Stripe(r) => Some(r.clone()),
            Piece::Bytes(_) => None,
        })
        .collect();
    let half = ranges.len() / 2;
    let (a, b) = ranges.split_at(half);
    let one = |rs: &[Option<std::ops::Range<usize>>]| -> Vec<Option<Stripe>> {
        rs.iter().map(|r| r.clone().map(|r| striper.hash(&msg[r]).unwrap())).collect()
    };
    std::thread::scope(|s| {
        let one = &one;
        // Where there are no threads (wasm32-wasip1), the second half is
        // hashed here too.
        let h = std::thread::Builder::new().spawn_scoped(s, move || one(b));
        let mut out = one(a);
        match h {
            Ok(h) => out.extend(h.join().unwrap()),
            Err(_) => out.extend(one(b)),
        }
        out
    })
}

#[test]
fn exactly_the_layered_macs_take_stripes() {
    let mut with = 0;
    for d in macs::MACS.iter().filter(|d| !d.one_time) {
        let m = NamedMac::new(d.name, &bytes(d.default_key_len(), 1)).unwrap();
        let p = m.start_deferred().unwrap();
        let layered = matches!(d.hash, Hash::Uhash | Hash::Vhash | Hash::Tree(_));
        assert_eq!(p.striper().is_some(), layered, "{}", d.name);
        with += layered as usize;
    }
    // umac32..128, vmac64/128 and at least one tree.
    assert!(with >= 7, "{with} layered MACs");
}

#[test]
fn macs_in_stripes_equal_one_shot() {
    let mut rng = Rng(0x5eed);
    let mut checked = 0;
    for d in striped_macs() {
        let key = bytes(d.default_key_len(), 7);
        let m = NamedMac::new(d.name, &key).unwrap();
        let unit = m.start_deferred().unwrap().striper().unwrap().unit();
        let lens = [0, 1, unit - 1, unit, unit + 1, 2 * unit, 3 * unit + 17, 7 * unit, 9 * unit + unit / 2, 40 * unit + 3];
        for (i, &len) in lens.iter().enumerate() {
            for round in 0..4 {
                let msg = bytes(len, (i * 10 + round) as u64);
                let nonce = nonce_for(d, i as u64);
                let mut p = m.start_deferred().unwrap();
                let striper = p.striper().unwrap();
                let pieces = cut(len, unit, &mut rng, 6);
                let stripes = hash_stripes(&striper, &msg, &pieces);
                for (piece, s) in pieces.iter().zip(&stripes) {
                    match (piece, s) {
                        (Piece::Stripe(_), Some(s)) => p.absorb_stripe(s).unwrap(),
                        (Piece::Bytes(r), None) => p.update(&msg[r.clone()]),
                        _ => unreachable!(),
                    }
                }
                let want = m.tag(Some(&nonce), &msg).unwrap();
                assert_eq!(p.finalize(Some(&nonce)).unwrap(), want, "{} len {len} round {round}", d.name);
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn tree_hashes_in_stripes_equal_one_shot() {
    let mut rng = Rng(0xface);
    let mut checked = 0;
    for fam in unimac::unstable::tree::families() {
        let name = format!("tree-{}", fam.name);
        let key = bytes(16, 3);
        let params = Params { key: &key, nonce: None, len: None };
        let unit = fam.block * fam.block;
        for &len in &[unit, unit + 1, 5 * unit + 9, 12 * unit] {
            let msg = bytes(len, len as u64);
            let mut s = unimac::unstable::registry::open(&name, &params).unwrap();
            let striper = s.striper().unwrap_or_else(|| panic!("{name}: no striper"));
            assert_eq!(striper.unit(), unit);
            let pieces = cut(len, unit, &mut rng, 4);
            let stripes = hash_stripes(&striper, &msg, &pieces);
            for (piece, st) in pieces.iter().zip(&stripes) {
                match (piece, st) {
                    (Piece::Stripe(_), Some(st)) => s.absorb_stripe(st).unwrap(),
                    (Piece::Bytes(r), None) => s.update(&msg[r.clone()]),
                    _ => unreachable!(),
                }
            }
            assert_eq!(s.finalize().unwrap(), unimac::unstable::registry::compute(&name, &params, &msg).unwrap(), "{name} len {len}");
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
}

/// UMAC's L2 changes polynomial after 2^14 chunks (16 MiB): stripes across
/// the change, and VMAC and a tree over the same length.
#[test]
fn long_messages_across_umacs_poly_change() {
    let len = (16 << 20) + 5 * 1024 + 77;
    let msg = bytes(len, 99);
    for name in ["umac128", "umac32", "vmac128", "wc-mmh32x4"] {
        let d = macs::find(name).unwrap();
        let key = bytes(d.default_key_len(), 5);
        let m = NamedMac::new(name, &key).unwrap();
        let nonce = nonce_for(d, 5);
        let mut p = m.start_deferred().unwrap();
        let striper = p.striper().unwrap();
        let unit = striper.unit();
        // Stripes of about 1 MiB, the last one short, then the end.
        let per = (1 << 20) / unit * unit;
        let whole = len / unit * unit;
        let mut at = 0;
        while at < whole {
            let n = per.min(whole - at);
            p.absorb_stripe(&striper.hash(&msg[at..at + n]).unwrap()).unwrap();
            at += n;
        }
        p.update(&msg[at..]);
        assert_eq!(p.finalize(Some(&nonce)).unwrap(), m.tag(Some(&nonce), &msg).unwrap(), "{name}");
    }
}

#[test]
fn misuse_is_an_error_and_absorbs_nothing() {
    for d in striped_macs() {
        let key = bytes(d.default_key_len(), 11);
        let m = NamedMac::new(d.name, &key).unwrap();
        let other = NamedMac::new(d.name, &key).unwrap();
        let nonce = nonce_for(d, 2);
        let mut p = m.start_deferred().unwrap();
        let striper = p.striper().unwrap();
        let unit = striper.unit();
        let msg = bytes(4 * unit + 5, 8);
        // A stripe that is not a whole number of units, or empty.
        assert!(striper.hash(&msg[..unit + 1]).is_err(), "{}", d.name);
        assert!(striper.hash(&[]).is_err(), "{}", d.name);
        // A stream holding part of a unit refuses a stripe.
        p.update(&msg[..1]);
        let s = striper.hash(&msg[unit..2 * unit]).unwrap();
        assert!(p.absorb_stripe(&s).is_err(), "{}: unaligned", d.name);
        p.update(&msg[1..unit]);
        // A stripe made under another key object (the same key bytes) is refused.
        let foreign = other.start_deferred().unwrap().striper().unwrap().hash(&msg[unit..2 * unit]).unwrap();
        assert!(p.absorb_stripe(&foreign).is_err(), "{}: foreign stripe", d.name);
        // Nothing was absorbed by the refusals: the tag is still right.
        p.absorb_stripe(&s).unwrap();
        p.update(&msg[2 * unit..]);
        assert_eq!(p.finalize(Some(&nonce)).unwrap(), m.tag(Some(&nonce), &msg).unwrap(), "{}", d.name);
        assert_eq!(format!("{s:?}"), format!("Stripe {{ len: {unit}, .. }}"));
    }
    // A MAC whose hash is not layered takes no stripes.
    let m = NamedMac::new("hash127-aes", &bytes(32, 1)).unwrap();
    let p = m.start_deferred().unwrap();
    assert!(p.striper().is_none());
    let u = NamedMac::new("umac64", &bytes(16, 1)).unwrap();
    let s = u.start_deferred().unwrap().striper().unwrap().hash(&bytes(1024, 1)).unwrap();
    assert!(m.start_deferred().unwrap().absorb_stripe(&s).is_err());
}
