//! eval128 (docs/WIRE.md §8) against a plain bit-by-bit polynomial model, every
//! backend on the same inputs (random, all-ones, zero; every length 0..=300
//! and the lengths around each kernel's step), streaming in every chunking.

use crate::common;
use unimac::unstable::prelude::*;
use common::{gf128_mul, skipped};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use unimac::unstable::registry::{self, Params};
use unimac::unstable::shoup::eval128::{eval128, Eval128};
use unimac::{Feature, Platform};

// ---------------------------------------------------------------- model ----

/// `pad(M, 16)` (docs/WIRE.md §1).
fn pad16(m: &[u8]) -> Vec<u8> {
    let mut v = m.to_vec();
    v.push(1);
    while !v.len().is_multiple_of(16) {
        v.push(0);
    }
    v
}

/// `α^(n+1) + b_0 α^n + … + b_{n−1} α` by Horner's rule from the leading 1.
fn model(alpha: &[u8; 16], msg: &[u8]) -> [u8; 16] {
    let a = u128::from_le_bytes(*alpha);
    let mut h = 1u128;
    for b in pad16(msg).chunks(16) {
        h = gf128_mul(h, a) ^ u128::from_le_bytes(b.try_into().unwrap());
    }
    gf128_mul(h, a).to_le_bytes()
}

/// The same value as a sum of explicit powers (a second, non-Horner model).
fn model_powers(alpha: &[u8; 16], msg: &[u8]) -> [u8; 16] {
    let a = u128::from_le_bytes(*alpha);
    let blocks: Vec<u128> = pad16(msg).chunks(16).map(|b| u128::from_le_bytes(b.try_into().unwrap())).collect();
    let n = blocks.len();
    let pow = |k: usize| (0..k).fold(1u128, |p, _| gf128_mul(p, a));
    let mut s = pow(n + 1);
    for (i, b) in blocks.iter().enumerate() {
        s ^= gf128_mul(*b, pow(n - i));
    }
    s.to_le_bytes()
}

// -------------------------------------------------------------- backends ----

/// The features eval128's kernels use: PCLMULQDQ, VPCLMULQDQ and AVX-512F
/// on x86-64, PMULL on aarch64.
fn kernel_features() -> Vec<Feature> {
    #[allow(unused_mut)]
    let mut f = vec![Feature::Pclmul, Feature::Vpclmul, Feature::Avx512];
    #[cfg(target_arch = "aarch64")]
    f.push(Feature::Pmull);
    f
}

/// One platform per distinct kernel this CPU can run (portable first).
fn backends() -> Vec<Platform> {
    let mut seen = Vec::new();
    let mut v = Vec::new();
    for p in Platform::hardware().only(&kernel_features()).variants() {
        let name = Eval128::new_on(p, &[1; 16]).backend();
        if !seen.contains(&name) {
            seen.push(name);
            v.push(p);
        }
    }
    v
}

fn run(b: Platform, key: &[u8; 16], msg: &[u8]) -> [u8; 16] {
    let mut h = Eval128::new_on(b, key);
    h.update(msg);
    h.finalize()
}

/// Every length 0..=300, and the lengths around the steps of every kernel
/// (8, 16 and 32 blocks, the 512-byte buffer) and their multiples.
/// Every length to 300, around each of the first five multiples of the
/// 128-, 256- and 512-byte blocks, around 4 KiB and past 64 KiB.
fn lengths() -> Vec<usize> {
    let blocks: Vec<usize> = [128, 256, 512].iter().flat_map(|&b| (1..=5).map(move |k| b * k)).collect();
    common::lengths(300, &[(&blocks, &[-17, -16, -15, -1, 0, 1, 15, 16, 17]), (&[4096], &[-1, 0, 1]), (&[65536 + 3], &[0])])
}

#[test]
fn model_agrees_with_its_power_form_and_the_empty_message() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(128);
    for len in [0usize, 1, 15, 16, 17, 47, 48] {
        let k: [u8; 16] = rng.random();
        let m: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        assert_eq!(model(&k, &m), model_powers(&k, &m), "len {len}");
    }
    // Empty message: pad gives the block 1, so the hash is α^2 + α.
    let a = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
    assert_eq!(model(&a.to_le_bytes(), b""), (gf128_mul(a, a) ^ a).to_le_bytes());
    // α = x: x^128 ≡ x^7 + x^2 + x + 1 (the field polynomial, little-endian).
    assert_eq!(gf128_mul(1 << 127, 2), 0x87);
}

#[test]
fn every_backend_matches_the_model_on_random_and_extreme_inputs() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0xe128);
    let bs = backends();
    assert_eq!(bs[0], Platform::portable());
    println!("backends: {:?}", bs.iter().map(|&p| Eval128::new_on(p, &[1; 16]).backend()).collect::<Vec<_>>());
    let keys: Vec<[u8; 16]> = vec![[0xff; 16], [0; 16], 1u128.to_le_bytes(), (1u128 << 127).to_le_bytes(), rng.random(), rng.random()];
    for len in lengths() {
        let msgs: Vec<Vec<u8>> = vec![vec![0xff; len], vec![0; len], (0..len).map(|_| rng.random()).collect()];
        for key in &keys {
            for m in &msgs {
                let want = model(key, m);
                for &b in &bs {
                    assert_eq!(run(b, key, m), want, "{b:?} len {len} key {key:02x?}");
                }
            }
        }
    }
}

/// On a CPU with PMULL (aarch64), the PMULL kernel is among the backends
/// compared above and is the default; elsewhere this says SKIPPED.
#[test]
fn pmull_kernel_is_compared_where_the_cpu_has_it() {
    let hw = Platform::hardware();
    #[cfg(target_arch = "aarch64")]
    let pmull = hw.has(unimac::Feature::Pmull);
    #[cfg(not(target_arch = "aarch64"))]
    let pmull = false;
    if !pmull {
        skipped("", "no pmull on this CPU");
        return;
    }
    let names: Vec<&str> = backends().iter().map(|&p| Eval128::new_on(p, &[1; 16]).backend()).collect();
    assert_eq!(names, ["portable", "pmull"]);
    if Platform::detect() == hw {
        assert_eq!(Eval128::new(&[1; 16]).backend(), "pmull");
    }
    // The kernel against the model on every length up to 300 and the
    // lengths around its 8-block step, all-ones and all-zero messages
    // under the extreme keys.
    for len in lengths().into_iter().filter(|&l| l <= 1100) {
        for key in [[0xff; 16], [0; 16], 1u128.to_le_bytes(), (1u128 << 127).to_le_bytes()] {
            for m in [vec![0xff; len], vec![0; len]] {
                let want = model(&key, &m);
                assert_eq!(run(hw, &key, &m), want, "len {len}");
                assert_eq!(Eval128::new_on(hw, &key).oneshot(&m), want, "one-shot len {len}");
            }
        }
    }
}

#[test]
fn default_backend_and_registry_match_the_model() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    assert_eq!(Eval128::new(&[1; 16]).backend(), Eval128::new_on(Platform::detect(), &[1; 16]).backend());
    for len in [0usize, 5, 16, 511, 512, 513, 5000] {
        let k: [u8; 16] = rng.random();
        let m: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let want = model(&k, &m);
        assert_eq!(eval128(&k, &m), want);
        let out = registry::compute("eval128", &Params { key: &k, nonce: None, len: None }, &m).unwrap();
        assert_eq!(out, want);
    }
    assert!(registry::compute("eval128", &Params { key: &[0; 8], nonce: None, len: None }, b"").is_err());
}

#[test]
fn streaming_in_any_chunking_equals_one_shot() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(99);
    let msg: Vec<u8> = (0..2100).map(|_| rng.random()).collect();
    let key: [u8; 16] = rng.random();
    for b in backends() {
        for len in [0usize, 1, 16, 33, 300, 512, 1025, 2100] {
            let m = &msg[..len];
            let want = model(&key, m);
            // Every split point into two parts.
            for cut in 0..=len {
                let mut h = Eval128::new_on(b, &key);
                h.update(&m[..cut]);
                h.update(&m[cut..]);
                assert_eq!(h.finalize(), want, "{b:?} len {len} cut {cut}");
            }
            // Fixed chunk sizes, and random ones.
            for chunk in [1usize, 3, 15, 16, 17, 100, 511, 512, 513] {
                let mut h = Eval128::new_on(b, &key);
                for c in m.chunks(chunk) {
                    h.update(c);
                }
                assert_eq!(h.finalize(), want, "{b:?} len {len} chunk {chunk}");
            }
            let mut h = Eval128::new_on(b, &key);
            let mut rest = m;
            while !rest.is_empty() {
                let k = rng.random_range(0..=rest.len().min(700));
                h.update(&rest[..k]);
                rest = &rest[k..];
            }
            assert_eq!(h.finalize(), want, "{b:?} len {len} random chunks");
        }
    }
}

#[test]
fn finalize_reset_starts_over_and_oneshot_leaves_the_state() {
    let key = [0x5a; 16];
    for b in backends() {
        let mut h = Eval128::new_on(b, &key);
        for len in [0usize, 700, 3, 512] {
            let m: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
            h.update(&m[..len / 2]);
            // The one-shot path neither uses nor changes the absorbed state.
            assert_eq!(h.oneshot(&m), model(&key, &m), "{b:?} {len}");
            h.update(&m[len / 2..]);
            assert_eq!(h.finalize_reset(), model(&key, &m), "{b:?} {len}");
        }
        for len in lengths() {
            let m: Vec<u8> = (0..len).map(|i| (i * 13 + len) as u8).collect();
            assert_eq!(h.oneshot(&m), model(&key, &m), "{b:?} {len}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn prop_all_backends_equal_model(key in any::<[u8; 16]>(), msg in proptest::collection::vec(any::<u8>(), 0..1200)) {
        let want = model(&key, &msg);
        for b in backends() {
            prop_assert_eq!(run(b, &key, &msg), want);
        }
    }
}
