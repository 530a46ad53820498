//! `modp` (docs/WIRE.md §8) against num-bigint: random and extreme integers, every
//! length around the block boundaries, 1 MiB; generated keys are primes of the
//! range; the identity check accepts true identities and rejects false ones.

use crate::common;
use unimac::unstable::prelude::*;
use unimac::Absorb as _;
use common::platforms;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use rand::{Rng, RngExt, SeedableRng};
use unimac::unstable::modp::{self, SecretPrime, BLOCK_BYTES, IFMA_BLOCK_BYTES};
use unimac::{Feature, Platform};

/// The evidence modp distinguishes: with and without IFMA52.
const FAMILY: &[Feature] = &[Feature::Avx512Ifma];

fn big(b: &[u8]) -> BigUint {
    BigUint::from_bytes_le(b)
}

fn want(p: u128, m: &[u8]) -> [u8; 16] {
    let r = big(m) % BigUint::from(p);
    let mut out = [0u8; 16];
    let b = r.to_bytes_le();
    out[..b.len()].copy_from_slice(&b);
    out
}

fn key_p(k: &SecretPrime) -> u128 {
    u128::from_le_bytes(*k.to_bytes())
}

/// Miller–Rabin with 40 random bases, on num-bigint (independent of the
/// library's primality test).
fn probably_prime(n: u128, rng: &mut impl Rng) -> bool {
    if n < 4 {
        return n >= 2;
    }
    if n.is_multiple_of(2) {
        return false;
    }
    let nb = BigUint::from(n);
    let nm1 = BigUint::from(n - 1);
    let s = (n - 1).trailing_zeros();
    let d = BigUint::from((n - 1) >> s);
    'bases: for _ in 0..40 {
        let a = BigUint::from(rng.random_range(2..n - 1));
        let mut x = a.modpow(&d, &nb);
        if x.is_one() || x == nm1 {
            continue;
        }
        for _ in 1..s {
            x = (&x * &x) % &nb;
            if x == nm1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// Primes of the range at its edges and in between (found with the
/// Miller–Rabin above): the smallest above 2^120, the largest below 2^128,
/// 2^127 − 1, and random ones.
fn primes(rng: &mut impl Rng) -> Vec<u128> {
    let mut v = vec![(1u128 << 127) - 1];
    let mut x = (1u128 << 120) + 1;
    while !probably_prime(x, rng) {
        x += 2;
    }
    v.push(x);
    let mut x = u128::MAX;
    while !probably_prime(x, rng) {
        x -= 2;
    }
    v.push(x);
    for _ in 0..3 {
        v.push(key_p(&SecretPrime::generate().unwrap()));
    }
    v
}

#[test]
fn generate_gives_primes_in_range() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let mut top_bits = 0u128;
    for _ in 0..40 {
        let p = key_p(&SecretPrime::generate().unwrap());
        assert!(p >> 120 != 0, "{p:#x} below 2^120");
        assert!(probably_prime(p, &mut rng), "{p:#x} is composite");
        top_bits |= 1u128 << (127 - p.leading_zeros());
    }
    // Uniform over the range: not every key has its top bit set (a generator
    // that forced it would draw only from [2^127, 2^128)).
    assert_ne!(top_bits, 1u128 << 127, "every key in [2^127, 2^128)");
}

#[test]
fn from_bytes_refuses_anything_but_primes_of_the_range() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let mut below = (1u128 << 120) - 1;
    while !probably_prime(below, &mut rng) {
        below -= 2;
    }
    let bad: Vec<u128> = vec![
        0,
        1,
        2,
        below,                       // the largest prime below the range
        1 << 120,                    // even
        (1u128 << 127) + 1,          // divisible by 3
        u128::MAX,                   // 3 · 5 · 17 · …
        ((1u128 << 64) - 59) * ((1u128 << 63) - 25), // a product of two primes
    ];
    for x in bad {
        assert!(SecretPrime::from_bytes(&x.to_le_bytes()).is_err(), "{x:#x}");
    }
    assert!(SecretPrime::from_bytes(&[1u8; 15]).is_err());
    assert!(SecretPrime::from_bytes(&[1u8; 17]).is_err());
    for p in primes(&mut rng) {
        assert_eq!(key_p(&SecretPrime::from_bytes(&p.to_le_bytes()).unwrap()), p);
    }
}

/// `from_bytes` agrees with an independent Miller–Rabin model on random odd
/// numbers of the range, and refuses Carmichael numbers of the range (they
/// fool the Fermat test for every base prime to them; the strong test
/// catches them).
#[test]
fn from_bytes_agrees_with_a_model_and_refuses_carmichael_numbers() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let (mut primes_seen, mut composites_seen) = (0, 0);
    for _ in 0..600 {
        let x = rng.random::<u128>() | 1 | (1 << 127);
        let want = probably_prime(x, &mut rng);
        assert_eq!(SecretPrime::from_bytes(&x.to_le_bytes()).is_ok(), want, "{x:#x}");
        if want { primes_seen += 1 } else { composites_seen += 1 }
    }
    assert!(primes_seen > 0 && composites_seen > 0);
    // Chernick's (6k+1)(12k+1)(18k+1), all three prime: a Carmichael number.
    let mut found = 0;
    let mut k: u128 = 1 << 38; // 1296·k³ in [2^120, 2^128)
    while found < 3 {
        k += 1;
        let (a, b, c) = (6 * k + 1, 12 * k + 1, 18 * k + 1);
        if probably_prime(a, &mut rng) && probably_prime(b, &mut rng) && probably_prime(c, &mut rng) {
            let n = a * b * c;
            assert!(n >> 120 != 0);
            assert!(SecretPrime::from_bytes(&n.to_le_bytes()).is_err(), "Carmichael {n:#x} accepted");
            found += 1;
        }
    }
}

#[test]
fn debug_shows_no_key() {
    let k = SecretPrime::generate().unwrap();
    let s = format!("{k:?}");
    let p = key_p(&k);
    assert!(!s.contains(&format!("{p}")) && !s.contains(&format!("{p:x}")) && !s.contains(&hex::encode(p.to_le_bytes())), "{s}");
}

#[test]
fn reduce_matches_num_bigint_at_every_length_and_extremes() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let ps = primes(&mut rng);
    let mut lens: Vec<usize> = (0..=40).collect();
    for j in 1..=4 {
        for d in 0..=17 {
            lens.push(j * BLOCK_BYTES + d);
            lens.push(j * BLOCK_BYTES - d);
        }
    }
    // (IFMA_BLOCK_BYTES is 0 where the IFMA code is not compiled.)
    for j in (1..=5).filter(|_| IFMA_BLOCK_BYTES > 0) {
        for d in 0..=17 {
            lens.push(j * IFMA_BLOCK_BYTES + d);
            lens.push(j * IFMA_BLOCK_BYTES - d);
        }
    }
    lens.extend([4095, 4096, 4097, 65535, 65536, 65537]);
    let backends = platforms(FAMILY);
    println!("backends: {:?}", backends.iter().map(|&p| SecretPrime::backend_on(p)).collect::<Vec<_>>());
    for &p in &ps {
        let k = SecretPrime::from_bytes(&p.to_le_bytes()).unwrap();
        for &n in &lens {
          for &b in &backends {
            let k = Keyed { k: &k, b };
            let mut m = vec![0u8; n];
            rng.fill_bytes(&mut m);
            assert_eq!(k.reduce(&m), want(p, &m), "p = {p:#x}, random, {n} bytes");
            let ones = vec![0xffu8; n];
            assert_eq!(k.reduce(&ones), want(p, &ones), "p = {p:#x}, all ones, {n} bytes");
            let zeros = vec![0u8; n];
            assert_eq!(k.reduce(&zeros), [0; 16]);
            // Sparse: one high byte, the rest zero (leading zeros don't matter).
            if n > 0 {
                let mut s = vec![0u8; n];
                s[n - 1] = 0x80;
                assert_eq!(k.reduce(&s), want(p, &s), "p = {p:#x}, top bit, {n} bytes");
                s.extend_from_slice(&[0; 9]);
                assert_eq!(k.reduce(&s), want(p, &s), "p = {p:#x}, top bit and zeros, {n} bytes");
            }
          }
        }
        // Multiples of p and their neighbours (default dispatch).
        let pb = BigUint::from(p);
        for mult in [BigUint::one(), BigUint::from(255u32), (BigUint::one() << 5000u32) / &pb] {
            for delta in [-1i64, 0, 1] {
                let x = &pb * &mult;
                let x = if delta < 0 { x - 1u32 } else { x + delta as u32 };
                let m = x.to_bytes_le();
                assert_eq!(k.reduce(&m), want(p, &m));
            }
        }
    }
}

/// A key and a backend: `reduce` on that backend.
struct Keyed<'a> {
    k: &'a SecretPrime,
    b: Platform,
}

impl Keyed<'_> {
    fn reduce(&self, m: &[u8]) -> [u8; 16] {
        self.k.reduce_on(self.b, m).to_le_bytes()
    }
}

#[test]
fn reduce_one_mebibyte() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let k = SecretPrime::generate().unwrap();
    let p = key_p(&k);
    let mut m = vec![0u8; 1 << 20];
    rng.fill_bytes(&mut m);
    let ones = vec![0xffu8; 1 << 20];
    assert_eq!(k.reduce(&m), want(p, &m));
    for b in platforms(FAMILY) {
        let kb = Keyed { k: &k, b };
        assert_eq!(kb.reduce(&m), want(p, &m), "{b:?}");
        assert_eq!(kb.reduce(&ones), want(p, &ones), "{b:?}");
    }
}

/// Streaming in any chunking gives the one-shot answer (the stream gathers
/// 64 KiB before absorbing; chunks straddle that and the kernels' blocks).
#[test]
fn stream_matches_one_shot_in_any_chunking() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let k = std::sync::Arc::new(SecretPrime::generate().unwrap());
    let p = key_p(&k);
    for n in [0usize, 1, 2047, 2048, 2049, 65535, 65536, 65537, 200_000, (1 << 20) + 3] {
        let mut m = vec![0u8; n];
        rng.fill_bytes(&mut m);
        let want = want(p, &m);
        for chunk in [1usize, 7, 512, 4096, 65536, 100_000, 1 << 21] {
            if chunk == 1 && n > 70_000 {
                continue;
            }
            let mut s = k.start();
            for c in m.chunks(chunk) {
                s.update(c);
            }
            assert_eq!(s.finalize(), want, "{n} bytes in chunks of {chunk}");
        }
        // Uneven chunks.
        let mut s = k.start();
        let mut rest = &m[..];
        while !rest.is_empty() {
            let c = rng.random_range(1..=rest.len().min(150_000));
            s.update(&rest[..c]);
            rest = &rest[c..];
        }
        assert_eq!(s.finalize(), want, "{n} bytes in random chunks");
    }
}

fn bytes(x: &BigUint) -> Vec<u8> {
    if x.is_zero() {
        Vec::new()
    } else {
        x.to_bytes_le()
    }
}

#[test]
fn identity_check_accepts_true_and_rejects_false_identities() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let k = SecretPrime::generate().unwrap();
    let p = BigUint::from(key_p(&k));
    let rand_big = |rng: &mut rand::rngs::StdRng, n: usize| {
        let mut b = vec![0u8; n];
        rng.fill_bytes(&mut b);
        BigUint::from_bytes_le(&b)
    };
    for n in [0usize, 1, 7, 16, 17, 100, BLOCK_BYTES + 3, 5000] {
        // a² = bc + de with d = a − 1, e = a + 1, b = c = 1: a² = 1 + (a² − 1).
        let a = rand_big(&mut rng, n) + 1u32;
        let (d, e) = (&a - 1u32, &a + 1u32);
        let one = BigUint::one();
        assert!(k.check_identity(&bytes(&a), &bytes(&one), &bytes(&one), &bytes(&d), &bytes(&e)));
        // Random b, c; choose a, then e so that de = a² − bc exactly when d | a² − bc.
        let b = rand_big(&mut rng, n / 2 + 1);
        let c = rand_big(&mut rng, n / 2 + 1);
        let a = &b + &c; // a² − bc = b² + bc + c²
        let rest = &a * &a - &b * &c;
        let (d, e) = (BigUint::one(), rest.clone());
        assert!(k.check_identity(&bytes(&a), &bytes(&b), &bytes(&c), &bytes(&d), &bytes(&e)));
        // Off by one, and off by p (caught unless the difference is a multiple of p).
        let e1 = &e + 1u32;
        assert!(!k.check_identity(&bytes(&a), &bytes(&b), &bytes(&c), &bytes(&d), &bytes(&e1)));
        let e2 = &e + 2u32 * &p + 5u32;
        assert!(!k.check_identity(&bytes(&a), &bytes(&b), &bytes(&c), &bytes(&d), &bytes(&e2)));
        // A difference that is a multiple of p is accepted: the check is mod p.
        let ep = &e + &p;
        assert!(k.check_identity(&bytes(&a), &bytes(&b), &bytes(&c), &bytes(&d), &bytes(&ep)));
    }
}

/// Products mod p near p for primes at both ends of the range (the top one
/// close to 2^128): e = (a² − bc) mod p with d = 1 passes, e + 1 does not.
#[test]
fn identity_check_with_residues_near_p() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(6);
    for p in primes(&mut rng) {
        let k = SecretPrime::from_bytes(&p.to_le_bytes()).unwrap();
        let pb = BigUint::from(p);
        let picks = [BigUint::from(p - 1), BigUint::from(p - 2), BigUint::from(p / 2 + 1), BigUint::from(u128::MAX), BigUint::from(3u32)];
        for a in &picks {
            for b in &picks {
                let c = BigUint::from(p - 3);
                let ab = (a * a + &pb * &pb - (b * &c) % &pb) % &pb;
                let one = BigUint::one();
                assert!(k.check_identity(&bytes(a), &bytes(b), &bytes(&c), &bytes(&one), &bytes(&ab)), "p = {p:#x}");
                let wrong = (&ab + 1u32) % &pb;
                assert!(!k.check_identity(&bytes(a), &bytes(b), &bytes(&c), &bytes(&one), &bytes(&wrong)), "p = {p:#x}");
            }
        }
    }
}

#[test]
fn false_accept_bound() {
    // At most ⌊(N−1)/120⌋ primes ≥ 2^120 divide a nonzero |D| < 2^N.
    assert_eq!(modp::false_accept_log2(120), f64::NEG_INFINITY);
    let l = modp::primes_in_range_log2();
    assert!((l - 121.52).abs() < 0.01, "{l}");
    let one_mib = modp::false_accept_log2(2 * 8 * (1 << 20) + 1);
    // N ≈ 2^24 bits: ⌊(2^24)/120⌋ / 2^121.52 ≈ 2^-104.4.
    assert!((one_mib - (((1u64 << 24) / 120) as f64).log2() + l).abs() < 1e-9);
    assert!(one_mib < -104.0 && one_mib > -105.0, "{one_mib}");
    assert_eq!(modp::identity_bits(&[3], &[2], &[4], &[1], &[1]), 6);
    assert_eq!(modp::identity_bits(&[], &[], &[], &[], &[]), 1);
    assert_eq!(modp::bit_len(&[0, 0x80, 0]), 16);
}
