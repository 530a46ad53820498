//! VMAC internals: the lazy polynomial step and the L3 arithmetic against
//! hash127's exact field arithmetic and big integers, streaming against
//! one-shot, nonce rules.

use num_bigint::BigUint;
use rand::{Rng, RngCore, SeedableRng};

use super::*;
use crate::hash127::portable::mul_mod;

fn rng() -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(0x766d_6163)
}

fn big(x: u128) -> BigUint {
    BigUint::from(x)
}

#[test]
fn lazy_poly_step_is_exact_and_bounded() {
    let mut r = rng();
    let p = big(P127);
    let edges_a = [0u128, 1, P127 - 1, P127, 1 << 127, (1 << 127) + 4, u128::MAX];
    let edges_m = [0u128, 1, M126];
    for i in 0..50_000 {
        let a = if i < 63 { edges_a[i % 7] } else { r.gen() };
        let m = if i < 63 { edges_m[(i / 7) % 3] } else { r.gen::<u128>() & M126 };
        let k = if i % 2 == 0 { MPOLY } else { r.gen::<u128>() & MPOLY };
        let got = poly_step(a, k, m);
        assert!(got < (1 << 127) + 5, "bound: a={a:x} k={k:x} m={m:x}");
        assert_eq!(big(got) % &p, (big(a) * big(k) + big(m)) % &p);
        // Against hash127's exact arithmetic.
        assert_eq!(reduce127(got), add_mod(mul_mod(reduce127(a), k), m));
    }
}

#[test]
fn l3_arithmetic_is_exact() {
    let mut r = rng();
    let d = big((1 << 64) - (1 << 32));
    let p64 = big(P64 as u128);
    for i in 0..50_000 {
        let v = match i {
            0 => 0,
            1 => P127 - 1,
            2 => (1 << 64) - (1 << 32),
            3 => ((1 << 64) - (1 << 32)) * 3 - 1,
            _ => r.gen::<u128>() >> 1,
        };
        let (q, rem) = divmod_d(v);
        assert_eq!(big(q as u128), big(v) / &d, "{v:x}");
        assert_eq!(big(rem as u128), big(v) % &d, "{v:x}");
        let x: u128 = if i < 4 { u128::MAX - i as u128 } else { r.gen() };
        assert_eq!(big(mod_p64(x) as u128), big(x) % &p64);
    }
}

#[test]
fn streaming_equals_one_shot() {
    let mut r = rng();
    let mut msg = vec![0u8; 2000];
    r.fill_bytes(&mut msg);
    for klen in [16usize, 24, 32] {
        let mut key = vec![0u8; klen];
        r.fill_bytes(&mut key);
        let (v64, v128) = (Vmac64::new(&key).unwrap(), Vmac128::new(&key).unwrap());
        for len in [0usize, 1, 15, 16, 17, 127, 128, 129, 255, 256, 257, 384, 1000, 2000] {
            let m = &msg[..len];
            for _ in 0..6 {
                let nlen = r.gen_range(1..=16);
                let mut nonce = vec![0u8; nlen];
                r.fill_bytes(&mut nonce);
                nonce[0] &= 0x7f;
                let mut cuts: Vec<usize> = (0..r.gen_range(0..6)).map(|_| r.gen_range(0..=len)).collect();
                cuts.sort();
                macro_rules! check {
                    ($mac:expr) => {{
                        let want = $mac.tag(&nonce, m).unwrap();
                        let mut s = $mac.start(&nonce).unwrap();
                        let mut p = $mac.start_deferred();
                        let mut at = 0;
                        for &c in cuts.iter().chain([len].iter()) {
                            s.update(&m[at..c]);
                            p.update(&m[at..c]);
                            at = c;
                        }
                        assert_eq!(s.finalize(), want, "key {klen} len {len} cuts {cuts:?}");
                        assert_eq!(p.finalize(&nonce).unwrap(), want);
                    }};
                }
                check!(v64);
                check!(v128);
            }
        }
    }
}

#[test]
fn keys_nonces_and_debug() {
    for bad in [0usize, 8, 15, 17, 20, 33] {
        assert!(matches!(Vmac64::new(&vec![0; bad]), Err(Error::KeyLength { .. })), "{bad}");
    }
    let mac = Vmac64::new(&[0x5a; 32]).unwrap();
    assert!(mac.tag(&[], b"x").is_err());
    assert!(mac.tag(&[0; 17], b"x").is_err());
    let mut n = [0u8; 16];
    assert!(mac.tag(&n, b"x").is_ok());
    n[0] = 0x80;
    assert!(mac.tag(&n, b"x").is_err(), "top bit of a 16-byte nonce");
    assert!(mac.verify(&n, b"x", [0; 8]).is_err());
    // A shorter nonce is left-padded: 0x80 in a 15-byte nonce is fine.
    assert!(mac.tag(&n[..15], b"x").is_ok());
    // Left padding: "\x00\x01" and "\x01" are the same nonce.
    assert_eq!(mac.tag(&[0, 1], b"x").unwrap(), mac.tag(&[1], b"x").unwrap());
    let d = format!("{mac:?}");
    assert_eq!(d, "Vmac64 { .. }");
}

/// VMAC-64's pad cache (nonces that differ in the last bit share one AES
/// block) never changes a tag.
#[test]
fn pad_cache_is_transparent() {
    let key = [0x42u8; 24];
    for order in [[0u8, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]] {
        let shared = Vmac64::new(&key).unwrap();
        for last in order {
            for nonce in [vec![5, last], vec![last], vec![0x7f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, last]] {
                let want = Vmac64::new(&key).unwrap().tag(&nonce, b"message").unwrap();
                assert_eq!(shared.tag(&nonce, b"message").unwrap(), want, "nonce {nonce:?}");
            }
        }
    }
}
