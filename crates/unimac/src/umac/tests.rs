//! UMAC internals: every NH backend against the portable one, POLY's
//! arithmetic against exact big integers, streaming against one-shot.

use num_bigint::BigUint;
use rand::{Rng, RngExt, SeedableRng};

use super::nh::{self, NhKey};
use super::poly::{mul_add128, mul_add64, poly128_step, poly64_step, MASK128, MASK64, P128, P64};
use super::*;

fn rng() -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(0x756d_6163)
}

/// The one differential test of the NH kernels: [`super::nh`] on every
/// backend this CPU can run ([`crate::platform::check_backends`]) against
/// [`nh::nh_portable`], for every iteration count and every number of groups
/// of one chunk (whole vector steps and remainders), on random, all-ones and
/// all-zero keys and messages. Returns the number of comparisons; each
/// kernel module's test calls it.
pub(super) fn check_nh() -> usize {
    let mut r = rng();
    let mut cases = Vec::new();
    for fill in [None, Some(0xffu8), Some(0)] {
        let mut words = vec![0u32; 256 + 12];
        let mut msg = vec![0u8; CHUNK];
        match fill {
            None => {
                r.fill(&mut words[..]);
                r.fill_bytes(&mut msg);
            }
            Some(b) => {
                words.iter_mut().for_each(|w| *w = u32::from_ne_bytes([b; 4]));
                msg.iter_mut().for_each(|x| *x = b);
            }
        }
        cases.push((NhKey::new(words), msg));
    }
    // (case, groups): the key and message of `cases[case]`, the first
    // `groups` groups of the message.
    let inputs: Vec<(usize, usize)> =
        (0..cases.len()).flat_map(|c| (0..=CHUNK / nh::GROUP).map(move |g| (c, g))).collect();
    type Out = ([u64; 1], [u64; 2], [u64; 3], [u64; 4]);
    let all = |f: &dyn Fn(&NhKey, &[u8]) -> Out, &(c, g): &(usize, usize)| {
        let (key, msg) = &cases[c];
        f(key, &msg[..g * nh::GROUP])
    };
    let portable = |key: &NhKey, m: &[u8]| -> Out {
        let w = key.words();
        (nh::nh_portable(w, m), nh::nh_portable(w, m), nh::nh_portable(w, m), nh::nh_portable(w, m))
    };
    let p = Platform::hardware();
    crate::platform::check_backends(
        &inputs,
        |x| all(&portable, x),
        |b: Backend, x| all(&|key, m| (nh(b, p, key, m), nh(b, p, key, m), nh(b, p, key, m), nh(b, p, key, m)), x),
    )
}

#[test]
fn nh_backends_agree() {
    assert!(check_nh() > 0);
}

/// NH against its definition (RFC 4418 §5.2.1), pairs four words apart.
#[test]
fn nh_is_the_rfc_definition() {
    let mut r = rng();
    let words: Vec<u32> = (0..256 + 12).map(|_| r.random()).collect();
    let mut msg = vec![0u8; 96];
    r.fill_bytes(&mut msg);
    let m: Vec<u32> = msg.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    for t in 0..4 {
        let k = &words[4 * t..];
        let mut y = 0u64;
        for i in 0..m.len() / 8 {
            for j in 0..4 {
                let a = m[8 * i + j].wrapping_add(k[8 * i + j]) as u64;
                let b = m[8 * i + j + 4].wrapping_add(k[8 * i + j + 4]) as u64;
                y = y.wrapping_add(a * b);
            }
        }
        assert_eq!(nh::nh_portable::<4>(&words, &msg)[t], y);
    }
}

/// The partial last group read in place ([`nh::nh_partial`]) equals NH of
/// the bytes zero-padded to a group, at every length below a group, for
/// every iteration count, on random and all-ones bytes.
#[test]
fn nh_partial_is_the_padded_group() {
    let mut r = rng();
    let mut checked = 0;
    for case in 0..64 {
        let words: Vec<u32> = (0..8 + 12).map(|_| r.random()).collect();
        let mut bytes = [0u8; nh::GROUP];
        if case % 2 == 0 {
            r.fill_bytes(&mut bytes);
        } else {
            bytes = [0xff; nh::GROUP];
        }
        for len in 0..nh::GROUP {
            let mut padded = [0u8; nh::GROUP];
            padded[..len].copy_from_slice(&bytes[..len]);
            let rest = &bytes[..len];
            assert_eq!(nh::nh_partial::<1>(&words, rest), nh::nh_portable::<1>(&words, &padded), "{len}");
            assert_eq!(nh::nh_partial::<2>(&words, rest), nh::nh_portable::<2>(&words, &padded), "{len}");
            assert_eq!(nh::nh_partial::<3>(&words, rest), nh::nh_portable::<3>(&words, &padded), "{len}");
            assert_eq!(nh::nh_partial::<4>(&words, rest), nh::nh_portable::<4>(&words, &padded), "{len}");
            checked += 1;
        }
    }
    assert_eq!(checked, 64 * nh::GROUP);
}

fn big(x: u128) -> BigUint {
    BigUint::from(x)
}

#[test]
fn poly_arithmetic_is_exact() {
    let mut r = rng();
    let p64 = big(P64 as u128);
    let p128 = big(P128);
    let edges64 = [0u64, 1, 58, 59, P64 - 1, P64, u64::MAX - 1, u64::MAX, 0xffff_ffff_0000_0000];
    let edges128 = [0u128, 1, 158, 159, P128 - 1, P128, u128::MAX, 0xffff_ffff << 96];
    for i in 0..20_000 {
        let k = if i % 3 == 0 { MASK64 } else { r.random::<u64>() & MASK64 };
        let y = if i < 81 { edges64[i % 9].min(P64 - 1) } else { r.random::<u64>() % P64 };
        let m = if i < 81 { edges64[i / 9] } else { r.random() };
        let want = (big(k as u128) * big(y as u128) + big(m as u128)) % &p64;
        assert_eq!(big(mul_add64(k, y, m) as u128), want, "k={k:x} y={y:x} m={m:x}");
        let k = if i % 3 == 0 { MASK128 } else { r.random::<u128>() & MASK128 };
        let y = if i < 64 { edges128[i % 8].min(P128 - 1) } else { r.random::<u128>() % P128 };
        let m = if i < 64 { edges128[i / 8] } else { r.random() };
        let want = (big(k) * big(y) + big(m)) % &p128;
        assert_eq!(big(mul_add128(k, y, m)), want, "k={k:x} y={y:x} m={m:x}");
    }
    // The marker: a word at or above the range is sent as p − 1, then m − offset,
    // and the two steps equal y·k^2 + (p − 1)·k + m − offset.
    let (k, y) = (MASK64, 12345u64);
    let m = u64::MAX;
    let want = (big(k as u128) * big(k as u128) * big(y as u128) + big((P64 - 1) as u128) * big(k as u128) + big((m - 59) as u128)) % &p64;
    assert_eq!(big(poly64_step(k, y, m) as u128), want);
    let (k, y) = (MASK128, 999u128);
    let m = u128::MAX;
    let want = (big(k) * big(k) * big(y) + big(P128 - 1) * big(k) + big(m - 159)) % &p128;
    assert_eq!(big(poly128_step(k, y, m)), want);
}

/// Any chunking of a message gives the one-shot tag, for all four tag
/// lengths, on lengths around the chunk size; the deferred nonce too.
#[test]
fn streaming_equals_one_shot() {
    let mut r = rng();
    let mut key = [0u8; 16];
    r.fill_bytes(&mut key);
    let mut msg = vec![0u8; 5000];
    r.fill_bytes(&mut msg);
    let (u32m, u64m, u96m, u128m) = (Umac32::new(&key), Umac64::new(&key), Umac96::new(&key), Umac128::new(&key));
    for len in [0usize, 1, 31, 32, 33, 1023, 1024, 1025, 2048, 3071, 5000] {
        let m = &msg[..len];
        for _ in 0..6 {
            let nlen = r.random_range(1..=16);
            let mut nonce = vec![0u8; nlen];
            r.fill_bytes(&mut nonce);
            let mut cuts: Vec<usize> = (0..r.random_range(0..6)).map(|_| r.random_range(0..=len)).collect();
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
                    assert_eq!(s.finalize(), want, "len {len} cuts {cuts:?}");
                    assert_eq!(p.finalize(&nonce).unwrap(), want);
                    assert!($mac.verify(&nonce, m, want.as_ref()).is_ok());
                }};
            }
            check!(u32m);
            check!(u64m);
            check!(u96m);
            check!(u128m);
        }
    }
}

#[test]
fn nonces_and_debug() {
    let mac = Umac64::new(&[0x5a; 16]);
    assert!(mac.tag(&[], b"x").is_err());
    assert!(mac.tag(&[0; 17], b"x").is_err());
    assert!(mac.verify(&[], b"x", [0; 8]).is_err());
    // UMAC-64: nonces differing in the last bit share one AES block, halves of it.
    assert_ne!(mac.tag(&[2], b"x").unwrap(), mac.tag(&[3], b"x").unwrap());
    let d = format!("{mac:?}");
    assert_eq!(d, "Umac64 { .. }");
    assert!(!d.contains("5a") && !d.contains("90"));
}

/// The pad cache (nonces sharing one AES block) never changes a tag: any
/// order of nonces on one key object equals a fresh object per tag.
#[test]
fn pad_cache_is_transparent() {
    let key = [0x42u8; 16];
    let orders: [&[u8]; 3] = [&[0, 1, 2, 3, 4, 5, 6, 7], &[7, 6, 5, 4, 3, 2, 1, 0], &[0, 4, 1, 5, 2, 6, 3, 7]];
    macro_rules! check {
        ($t:ty) => {{
            for order in orders {
                let shared = <$t>::new(&key);
                for &last in order {
                    for nonce in [vec![9, 9, last], vec![last], vec![1; 16].into_iter().chain([last]).skip(1).collect()] {
                        let want = <$t>::new(&key).tag(&nonce, b"message").unwrap();
                        assert_eq!(shared.tag(&nonce, b"message").unwrap(), want, "nonce {nonce:?}");
                    }
                }
            }
        }};
    }
    check!(Umac32);
    check!(Umac64);
    check!(Umac96);
    check!(Umac128);
}

/// The lock-free pad cache under contention: four threads tag with one
/// shared key object, on nonces that share AES blocks (hits) and nonces that
/// do not (misses), interleaved differently per thread; every tag equals the
/// one a fresh key object gives.
#[test]
#[cfg_attr(all(target_family = "wasm", not(target_feature = "atomics")), ignore = "needs a second thread; wasm32 without atomics has none")]
fn pad_cache_is_thread_safe() {
    let key = [0x37u8; 16];
    macro_rules! check {
        ($t:ty) => {{
            // Groups of four nonces differing in the low two bits: one AES block
            // for UMAC-32, two for UMAC-64; the groups themselves far apart.
            let nonces: Vec<[u8; 8]> =
                (0u64..64).map(|i| ((i / 4).wrapping_mul(0x9e37_79b9_7f4a_7c14) | (i % 4)).to_be_bytes()).collect();
            let want: Vec<_> = nonces.iter().map(|n| <$t>::new(&key).tag(n, b"message").unwrap()).collect();
            let shared = <$t>::new(&key);
            std::thread::scope(|s| {
                for th in 0..4usize {
                    let (shared, nonces, want) = (&shared, &nonces, &want);
                    s.spawn(move || {
                        for round in 0..2000usize {
                            let i = (round * (2 * th + 1) + th) % nonces.len();
                            let got = shared.tag(&nonces[i], b"message").unwrap();
                            assert_eq!(got, want[i], "thread {th}, nonce {:?}", nonces[i]);
                            // The neighbour sharing the AES block: a hit if still cached.
                            let j = i ^ 1;
                            assert_eq!(shared.tag(&nonces[j], b"message").unwrap(), want[j]);
                        }
                    });
                }
            });
        }};
    }
    check!(Umac32);
    check!(Umac64);
}
