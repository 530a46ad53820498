//! Every MMH/NMH backend against the portable path, the generic definitions
//! of `unimac::unstable::hazmat::mmh::generic`, and a big-integer model, on random and extreme
//! inputs (all-ones, max words, zero), in runs of every length around the
//! SIMD paths' multi-block groups.

use crate::common;
use common::platforms;
use num_bigint::BigUint;
use rand::{RngExt, SeedableRng};
use unimac::unstable::hazmat::mmh::generic::{self, Prime};
use unimac::unstable::hazmat::mmh::portable::{reduce32, reduce64};
use unimac::unstable::mmh::{Mmh32, Mmh64, Nmh32, BLOCK32, BLOCK64};
/// Words of a block (the wire format's K = 32).
const K: usize = BLOCK32 / 4;
use unimac::{Feature, Platform};

/// Every evidence the CPU allows that MMH distinguishes (AVX2, AVX-512).
/// The evidence MMH/NMH distinguishes.
const FAMILY: &[Feature] = &[Feature::Avx2Fma, Feature::Avx512];

fn words32(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}
fn words64(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}

/// The plain big-integer reading of docs/WIRE.md §3: `((Σ m_i x_i) mod 2^(2w) mod p) mod 2^w`.
fn model_mmh(w: u32, c: u64, x: &[u64], m: &[u64]) -> u64 {
    let s: BigUint = x.iter().zip(m).map(|(&a, &b)| BigUint::from(a) * BigUint::from(b)).sum();
    let two = BigUint::from(2u32);
    let p = two.pow(w) + BigUint::from(c);
    let r = (s % two.pow(2 * w)) % p % two.pow(w);
    r.iter_u64_digits().next().unwrap_or(0)
}

fn model_nmh32(x: &[u32], m: &[u32]) -> u32 {
    let mut s = BigUint::from(0u32);
    for i in 0..K / 2 {
        let a = BigUint::from((m[2 * i] as u64 + x[2 * i] as u64) % (1 << 32));
        let b = BigUint::from((m[2 * i + 1] as u64 + x[2 * i + 1] as u64) % (1 << 32));
        s += a * b;
    }
    let two = BigUint::from(2u32);
    let p = two.pow(32) + BigUint::from(15u32);
    let r = (s % two.pow(64)) % p % two.pow(32);
    r.iter_u32_digits().next().unwrap_or(0)
}

/// Inputs: random, all-ones (max words), zeros, alternating max/0, and
/// random words biased to the extremes.
fn inputs(rng: &mut impl rand::Rng, len: usize) -> Vec<Vec<u8>> {
    let mut v = vec![vec![0xffu8; len], vec![0u8; len], (0..len).map(|i| if (i / 4) % 2 == 0 { 0xff } else { 0 }).collect()];
    for _ in 0..6 {
        v.push((0..len).map(|_| rng.random()).collect());
    }
    v.push(
        (0..len)
            .map(|i| match rng.random_range(0..4) {
                0 => 0xff,
                1 => 0,
                2 => if i % 4 == 3 { 0x80 } else { 0 },
                _ => rng.random(),
            })
            .collect(),
    );
    v
}

fn keys(rng: &mut impl rand::Rng, len: usize) -> Vec<Vec<u8>> {
    let mut v = vec![vec![0xffu8; len], vec![0u8; len]];
    for _ in 0..4 {
        v.push((0..len).map(|_| rng.random()).collect());
    }
    v
}

#[test]
fn reduce32_is_mod_p() {
    let p = (1u64 << 32) + 15;
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let mut xs: Vec<u64> = vec![0, 1, p - 1, p, p + 1, u64::MAX, u64::MAX - 1, 1 << 63, (1 << 32) - 1, 1 << 32];
    // Around every multiple of p near 2^64 and around 2^32 a + b boundaries.
    for a in [0u64, 1, 14, 15, 16, 0xffff_fff0, 0xffff_ffff] {
        for b in [0u64, 1, 14, 15, 16, 224, 225, 226, 0xffff_fff0, 0xffff_ffff] {
            xs.push((a << 32) | b);
        }
    }
    for k in (u64::MAX / p - 3)..=(u64::MAX / p) {
        for d in 0..3 {
            xs.push((k * p).wrapping_add(d));
            xs.push((k * p).wrapping_sub(d));
        }
    }
    xs.extend((0..100_000).map(|_| rng.random::<u64>()));
    for x in xs {
        assert_eq!(reduce32(x) as u64, x % p % (1 << 32), "reduce32({x:#x})");
        assert_eq!(Prime::<u32>::new(15).unwrap().reduce(x as u128), (x % p) as u128, "generic reduce({x:#x})");
    }
}

#[test]
fn reduce64_is_mod_p() {
    let p = (1u128 << 64) + 13;
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let mut xs: Vec<u128> = vec![0, 1, p - 1, p, p + 1, u128::MAX, u128::MAX - 1, 1 << 127];
    for a in [0u128, 1, 12, 13, 14, u64::MAX as u128 - 1, u64::MAX as u128] {
        for b in [0u128, 1, 12, 13, 14, 168, 169, 170, u64::MAX as u128 - 1, u64::MAX as u128] {
            xs.push((a << 64) | b);
        }
    }
    for k in (u128::MAX / p - 3)..=(u128::MAX / p) {
        for d in 0..3 {
            xs.push((k * p).wrapping_add(d));
            xs.push((k * p).wrapping_sub(d));
        }
    }
    xs.extend((0..100_000).map(|_| rng.random::<u128>()));
    let g = Prime::<u64>::new(13).unwrap();
    for x in xs {
        assert_eq!(reduce64(x) as u128, x % p % (1 << 64), "reduce64({x:#x})");
        assert_eq!(g.reduce(x), x % p, "generic reduce({x:#x})");
    }
}

#[test]
fn generic_reduce_every_input_at_8_and_16_bits() {
    // Every x < 2^16 for every prime 2^8 < p < 2^8 + 2^4, and a sweep at 16 bits.
    for c in (1..16u64).step_by(2) {
        let pr = Prime::<u8>::new(c).unwrap();
        let p = 256 + c as u128;
        for x in 0..1u128 << 16 {
            assert_eq!(pr.reduce(x), x % p, "p = {p}, x = {x}");
        }
    }
    for c in [1u64, 3, 15, 255] {
        let pr = Prime::<u16>::new(c).unwrap();
        let p = 65536 + c as u128;
        for x in (0..1u128 << 32).step_by(65_521).chain((1u128 << 32) - 70_000..1u128 << 32) {
            assert_eq!(pr.reduce(x), x % p, "p = {p}, x = {x}");
        }
    }
    assert!(Prime::<u8>::new(0).is_err());
    assert!(Prime::<u8>::new(16).is_err());
    assert!(Prime::<u8>::new(2).is_err());
    assert!(generic::is_prime(257) && generic::is_prime((1 << 32) + 15) && generic::is_prime((1 << 64) + 13));
    assert!(!generic::is_prime((1 << 32) + 1) && !generic::is_prime((1 << 64) + 1));
    // The paper's choice: 2^32 + 15 is the least prime above 2^32, 2^64 + 13 above 2^64.
    assert!((1..15).all(|c| !generic::is_prime((1u128 << 32) + c)));
    assert!((1..13).all(|c| !generic::is_prime((1u128 << 64) + c)));
}

#[test]
fn mmh32_every_backend() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let p32 = Prime::<u32>::new(15).unwrap();
    let mut checked = 0;
    for n in 1..=4usize {
        for key in keys(&mut rng, 4 * (K - 1 + n)) {
            let xw = words32(&key);
            // Runs of 0..=13 blocks cover the 4-, 2- and 1-block groups and their remainders.
            for nb in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 13] {
                for msg in inputs(&mut rng, nb * BLOCK32) {
                    let mut want = vec![0u8; nb * 4 * n];
                    for (blk, o) in msg.chunks_exact(BLOCK32).zip(want.chunks_exact_mut(4 * n)) {
                        let mw = words32(blk);
                        let g = generic::mmh_toeplitz(&p32, &xw, &mw, n);
                        for j in 0..n {
                            let x64: Vec<u64> = xw[j..j + K].iter().map(|&v| v as u64).collect();
                            let m64: Vec<u64> = mw.iter().map(|&v| v as u64).collect();
                            let model = model_mmh(32, 15, &x64, &m64) as u32;
                            assert_eq!(g[j], model, "generic vs big-integer model");
                            o[4 * j..4 * j + 4].copy_from_slice(&model.to_le_bytes());
                        }
                    }
                    for be in platforms(FAMILY) {
                        let h = Mmh32::new_on(be, n, &key).unwrap();
                        let mut got = vec![0u8; nb * 4 * n];
                        h.hash_blocks(&msg, &mut got);
                        assert_eq!(got, want, "mmh32x{n} {be:?}, {nb} blocks");
                        checked += 1;
                    }
                }
            }
        }
    }
    println!("mmh32xN: {checked} runs agree across {:?}, generic and big-integer model", platforms(FAMILY));
}

#[test]
fn nmh32_every_backend() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let p32 = Prime::<u32>::new(15).unwrap();
    for key in keys(&mut rng, BLOCK32) {
        let xw = words32(&key);
        for nb in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 13] {
            for msg in inputs(&mut rng, nb * BLOCK32) {
                let mut want = vec![0u8; nb * 4];
                for (blk, o) in msg.chunks_exact(BLOCK32).zip(want.chunks_exact_mut(4)) {
                    let mw = words32(blk);
                    let model = model_nmh32(&xw, &mw);
                    assert_eq!(generic::nmh(&p32, &xw, &mw), model, "generic vs big-integer model");
                    o.copy_from_slice(&model.to_le_bytes());
                }
                for be in platforms(FAMILY) {
                    let h = Nmh32::new_on(be, &key).unwrap();
                    let mut got = vec![0u8; nb * 4];
                    h.hash_blocks(&msg, &mut got);
                    assert_eq!(got, want, "nmh32 {be:?}, {nb} blocks");
                }
            }
        }
    }
}

#[test]
fn mmh64_against_models() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let p64 = Prime::<u64>::new(13).unwrap();
    for key in keys(&mut rng, BLOCK64) {
        let xw = words64(&key);
        for nb in [0usize, 1, 2, 5] {
            for msg in inputs(&mut rng, nb * BLOCK64) {
                let h = Mmh64::new(&key).unwrap();
                let mut got = vec![0u8; nb * 8];
                h.hash_blocks(&msg, &mut got);
                for (blk, o) in msg.chunks_exact(BLOCK64).zip(got.chunks_exact(8)) {
                    let mw = words64(blk);
                    let model = model_mmh(64, 13, &xw, &mw);
                    assert_eq!(generic::mmh(&p64, &xw, &mw), model, "generic vs big-integer model");
                    assert_eq!(u64::from_le_bytes(o.try_into().unwrap()), model, "mmh64, {nb} blocks");
                }
            }
        }
    }
}

#[test]
fn star_families_are_the_ideal_definitions() {
    // MMH* and NMH* (Definitions 2 and 9) over a caller-chosen prime, against
    // big integers; and Theorem 3's Δ-universality at p = 13, k = 2, exhaustively.
    let mut rng = rand::rngs::StdRng::seed_from_u64(6);
    for p in [13u64, 257, (1 << 31) - 1, (1 << 61) - 1, 18_446_744_073_709_551_557] {
        for _ in 0..200 {
            let x: Vec<u64> = (0..6).map(|_| rng.random()).collect();
            let m: Vec<u64> = (0..6).map(|_| rng.random()).collect();
            let bp = BigUint::from(p);
            let s: BigUint = x.iter().zip(&m).map(|(&a, &b)| (BigUint::from(a) % &bp) * (BigUint::from(b) % &bp)).sum();
            assert_eq!(BigUint::from(generic::mmh_star(p, &x, &m)), s % &bp);
            let mut t = BigUint::from(0u32);
            for i in 0..3 {
                t += (BigUint::from(m[2 * i]) + BigUint::from(x[2 * i])) * (BigUint::from(m[2 * i + 1]) + BigUint::from(x[2 * i + 1]));
            }
            assert_eq!(BigUint::from(generic::nmh_star(p, &x, &m)), t % &bp);
        }
    }
    let p = 13u64;
    for (m, m2) in [([1u64, 2], [3u64, 2]), ([0, 0], [12, 12]), ([5, 7], [7, 5])] {
        for f in [generic::mmh_star as fn(u64, &[u64], &[u64]) -> u64, generic::nmh_star] {
            let mut count = [0u32; 13];
            for x1 in 0..p {
                for x2 in 0..p {
                    let d = (f(p, &[x1, x2], &m) + p - f(p, &[x1, x2], &m2)) % p;
                    count[d as usize] += 1;
                }
            }
            // Δ-universal: every difference has probability exactly 1/p.
            assert!(count.iter().all(|&c| c == 13), "{m:?} vs {m2:?}: {count:?}");
        }
    }
}

#[test]
fn registry_block_functions_check_lengths() {
    use unimac::unstable::registry::{compute, Params};
    let key = vec![1u8; 128];
    assert!(compute("mmh32x1", &Params { key: &key, ..Default::default() }, &[0u8; 127]).is_err());
    assert!(compute("mmh32x1", &Params { key: &key, ..Default::default() }, &[0u8; 129]).is_err());
    assert!(compute("mmh32x2", &Params { key: &key, ..Default::default() }, &[0u8; 128]).is_err());
    assert_eq!(compute("mmh32x1", &Params { key: &key, ..Default::default() }, &[0u8; 128]).unwrap().len(), 4);
    assert_eq!(compute("nmh32", &Params { key: &key, ..Default::default() }, &[0u8; 128]).unwrap().len(), 4);
    let k64 = vec![1u8; 256];
    assert!(compute("mmh64", &Params { key: &k64, ..Default::default() }, &[0u8; 128]).is_err());
    assert_eq!(compute("mmh64", &Params { key: &k64, ..Default::default() }, &[0u8; 256]).unwrap().len(), 8);
    assert!(Mmh32::new(5, &[0u8; 144]).is_err());
    assert!(Mmh32::new(1, &[0u8; 132]).is_err());
    assert!(Nmh32::new(&[0u8; 127]).is_err());
    assert!(Mmh64::new(&[0u8; 128]).is_err());
}

#[test]
fn unaligned_inputs_and_outputs_every_backend() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let nb = 19; // two 8-block groups and a tail
    let data: Vec<u8> = (0..nb * BLOCK32 + 64).map(|_| rng.random()).collect();
    for n in 1..=4usize {
        let key: Vec<u8> = (0..4 * (K - 1 + n)).map(|_| rng.random()).collect();
        let want = {
            let h = Mmh32::new_on(Platform::portable(), n, &key).unwrap();
            let mut o = vec![0u8; nb * 4 * n];
            h.hash_blocks(&data[..nb * BLOCK32], &mut o);
            o
        };
        for be in platforms(FAMILY) {
            let h = Mmh32::new_on(be, n, &key).unwrap();
            for off in 0..8 {
                let mut ob = vec![0u8; nb * 4 * n + 8];
                let src: Vec<u8> = [vec![0u8; off], data[..nb * BLOCK32].to_vec()].concat();
                h.hash_blocks(&src[off..], &mut ob[off..off + nb * 4 * n]);
                assert_eq!(&ob[off..off + nb * 4 * n], &want[..], "mmh32x{n} {be:?} offset {off}");
            }
        }
    }
    let key: Vec<u8> = (0..BLOCK32).map(|_| rng.random()).collect();
    let mut want = vec![0u8; nb * 4];
    Nmh32::new_on(Platform::portable(), &key).unwrap().hash_blocks(&data[..nb * BLOCK32], &mut want);
    for be in platforms(FAMILY) {
        let h = Nmh32::new_on(be, &key).unwrap();
        for off in 0..8 {
            let src: Vec<u8> = [vec![0u8; off], data[..nb * BLOCK32].to_vec()].concat();
            let mut ob = vec![0u8; nb * 4 + 8];
            h.hash_blocks(&src[off..], &mut ob[off..off + nb * 4]);
            assert_eq!(&ob[off..off + nb * 4], &want[..], "nmh32 {be:?} offset {off}");
        }
    }
}
