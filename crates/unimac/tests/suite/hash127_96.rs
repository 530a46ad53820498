//! `mac-hash127-96` (docs/WIRE.md §8): the tag is the low 96 bits of
//! `(k + h u) mod p`, checked against num-bigint; streaming equals one-shot;
//! verification is exact. By name it is a one-time MAC: `OneTimeMac` and
//! `registry::known_answer` give the tag, the reusable doors refuse it.

use num_bigint::{BigInt, BigUint};
use rand::{Rng, SeedableRng};
use unimac::unstable::hash127;
use unimac::unstable::mac::Hash127OneTime96;
use unimac::unstable::registry::{self, OneTimeMac};
use unimac::{Absorb, Error};

/// The integer of four signed little-endian words (docs/WIRE.md §2).
fn words(b: &[u8]) -> BigInt {
    (0..4).fold(BigInt::from(0), |acc, i| {
        acc + (BigInt::from(i32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap())) << (32 * i))
    })
}

fn reference(key: &[u8; 48], msg: &[u8]) -> [u8; 12] {
    let p = BigInt::from((1u128 << 127) - 1);
    let mut r0 = [0u8; 32];
    r0[..16].copy_from_slice(&key[..16]);
    let h = BigInt::from(BigUint::from_bytes_le(&hash127::hash127(&hash127::Key::new(&r0), msg)));
    let s = ((words(&key[16..32]) + h * words(&key[32..48])) % &p + &p) % &p;
    let mut b = s.to_biguint().unwrap().to_bytes_le();
    b.resize(16, 0);
    b[..12].try_into().unwrap()
}

#[test]
fn tag_is_the_truncated_k_plus_h_u() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(96);
    for n in [0usize, 1, 3, 4, 5, 15, 16, 17, 100, 1000, 20000] {
        for special in [None, Some(0x00u8), Some(0xff), Some(0x80)] {
            let mut key = [0u8; 48];
            match special {
                None => rng.fill_bytes(&mut key),
                Some(b) => key = [b; 48],
            }
            let mut msg = vec![0u8; n];
            rng.fill_bytes(&mut msg);
            let want = reference(&key, &msg);
            assert_eq!(Hash127OneTime96::new(&key).tag(&msg), want, "{n} bytes, key {special:?}");
            let mut s = Hash127OneTime96::new(&key).start();
            for c in msg.chunks(7) {
                s.update(c);
            }
            assert_eq!(s.finalize(), want);
            assert!(Hash127OneTime96::new(&key).verify(&msg, want).is_ok());
            let mut bad = want;
            bad[11] ^= 0x80;
            assert!(Hash127OneTime96::new(&key).verify(&msg, bad).is_err());
            assert!(Hash127OneTime96::new(&key).verify(&msg, &want[..11]).is_err());
            // By name: the one-time door tags (once, by value) and checks;
            // the known-answer interface gives the same value; the reusable
            // doors refuse the one-time name.
            let p = unimac::unstable::registry::Params { key: &key, nonce: None, len: None };
            assert_eq!(registry::known_answer("mac-hash127-96", &p, &msg).unwrap(), want);
            let one = OneTimeMac::new("hash127-96", &key).unwrap();
            assert!(one.verify(&msg, want).is_ok());
            assert!(one.verify(&msg, bad).is_err());
            assert_eq!(one.tag(&msg), want);
            let mut s = OneTimeMac::new("mac-hash127-96", &key).unwrap().start().unwrap();
            for c in msg.chunks(5) {
                s.update(c);
            }
            assert_eq!(s.finalize().unwrap(), want);
            let refused = Some(Error::OneTimeOnly("hash127-96".into()));
            assert_eq!(unimac::unstable::registry::compute("mac-hash127-96", &p, &msg).err(), refused);
            assert_eq!(registry::NamedMac::new("hash127-96", &key).err(), refused);
        }
    }
}
