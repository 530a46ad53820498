//! Square Hash: every backend against the word-by-word reference and an
//! independent num-bigint model, on random, all-ones, maximal and boundary
//! inputs; streaming and tree mode; SQH / SQHU; errors.

use crate::common;
use common::ladder;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use rand::{RngExt, SeedableRng};
use unimac::unstable::registry::{self, Params};
use unimac::unstable::hazmat::square::reference;
use unimac::unstable::square::{self, Variant, WIDTHS};
use unimac::platform::Feature;
use unimac::{Error, Platform};

fn p_of(l: usize) -> BigUint {
    let t = match l {
        32 => 15u32,
        64 => 13,
        96 => 61,
        _ => 51,
    };
    (BigUint::one() << l) + t
}

fn word(a: &BigUint, j: usize) -> u64 {
    ((a >> (32 * j)) & BigUint::from(0xffff_ffffu32)).to_u64().unwrap()
}

fn from_words(w: &[u64]) -> BigUint {
    w.iter().rev().fold(BigUint::zero(), |acc, &x| (acc << 32) + (x & 0xffff_ffff))
}

/// `C(sum terms)` over `n` 32-bit words.
fn c_sum(terms: &[BigUint], n: usize) -> BigUint {
    let w: Vec<u64> = (0..n).map(|j| terms.iter().map(|t| word(t, j)).sum::<u64>()).collect();
    from_words(&w)
}

/// `C2(a^2)` with `a` as `v` words: docs/WIRE.md §4, on BigUint.
fn c2(a: &BigUint, v: usize) -> BigUint {
    let mut r = vec![0u64; 2 * v];
    for j in 0..v {
        for k in 0..v {
            let p = word(a, j) * word(a, k);
            r[j + k] = (r[j + k] + (p & 0xffff_ffff)) & 0xffff_ffff;
            r[j + k + 1] = (r[j + k + 1] + (p >> 32)) & 0xffff_ffff;
        }
    }
    from_words(&r)
}

/// The num-bigint model of docs/WIRE.md §4.
fn model(l: usize, v: Variant, key: &[u8], msg: &[u8]) -> Vec<u8> {
    let b = l / 8;
    let p = p_of(l);
    let two_l = BigUint::one() << l;
    let w = l / 32;
    let a: Vec<BigUint> = key
        .chunks(b)
        .zip(msg.chunks(b))
        .map(|(x, m)| BigUint::from_bytes_le(x) + BigUint::from_bytes_le(m))
        .collect();
    let r = match v {
        Variant::Star => a.iter().map(|a| a * a).sum::<BigUint>() % &p,
        Variant::Asm => (a.iter().map(|a| a * a).sum::<BigUint>() % &p) % &two_l,
        Variant::Asm2 => a.iter().map(|a| (a % &two_l).pow(2)).sum::<BigUint>() % &p,
        Variant::C => c_sum(&a.iter().map(|a| a * a).collect::<Vec<_>>(), 2 * w + 1) % &p,
        Variant::C2 => c_sum(&a.iter().map(|a| c2(a, w + 1)).collect::<Vec<_>>(), 2 * w + 2) % &p,
        Variant::E => (c_sum(&a.iter().map(|a| c2(&(a % &two_l), w)).collect::<Vec<_>>(), 2 * w) % &p) % &two_l,
    };
    let mut out = r.to_bytes_le();
    out.resize(v.out_bytes(l), 0);
    out
}

/// The evidence Square Hash distinguishes, each backend needing the one
/// before: AVX2, AVX-512F (exact sums on the AVX2 kernels), IFMA52.
const FAMILY: &[Feature] = &[Feature::Avx2Fma, Feature::Avx512, Feature::Avx512Ifma];

/// Check one input through every backend, the registry, the reference and the model.
fn check(l: usize, v: Variant, key: &[u8], msg: &[u8]) {
    let want = model(l, v, key, msg);
    assert_eq!(reference::hash_bytes(l as u32, v, key, msg), want, "reference sqh{l}-{} k={}", v.suffix(), key.len() * 8 / l);
    for p in ladder(FAMILY) {
        let got = square::hash_on(p, l, v, key, msg).unwrap();
        assert_eq!(got, want, "{p:?} sqh{l}-{} key={} msg={}", v.suffix(), hex::encode(key), hex::encode(msg));
    }
    let name = format!("sqh{l}-{}", v.suffix());
    let got = registry::compute(&name, &Params { key, ..Default::default() }, msg).unwrap();
    assert_eq!(got, want, "registry {name}");
}

const KS: &[usize] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16, 22, 23, 33, 64];

#[test]
fn random_inputs_all_backends() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for l in WIDTHS {
        for v in Variant::ALL {
            for &k in KS {
                for _ in 0..3 {
                    let n = k * l / 8;
                    let key: Vec<u8> = (0..n).map(|_| rng.random()).collect();
                    let msg: Vec<u8> = (0..n).map(|_| rng.random()).collect();
                    check(l, v, &key, &msg);
                }
            }
        }
    }
}

#[test]
fn extreme_inputs_all_backends() {
    // All-ones and maximal words (every carry set), zeros, one-off patterns,
    // and words that make a = m + x hit exactly 2^l or 2^32 boundaries.
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    for l in WIDTHS {
        let b = l / 8;
        for v in Variant::ALL {
            for &k in KS {
                let n = k * b;
                let ones = vec![0xffu8; n];
                let zeros = vec![0u8; n];
                let mut one = vec![0u8; n];
                for c in one.chunks_mut(b) {
                    c[0] = 1;
                }
                let high_bit: Vec<u8> = (0..n).map(|i| if i % b == b - 1 { 0x80 } else { 0 }).collect();
                let word_max: Vec<u8> = (0..n).map(|i| if i % 4 == 3 { 0x7f } else { 0xff }).collect();
                let rand_words: Vec<u8> = (0..n / 4)
                    .flat_map(|_| [0u32, 1, u32::MAX, u32::MAX - 1, 1 << 31][rng.random_range(0..5)].to_le_bytes())
                    .collect();
                let pairs = [
                    (&ones, &ones),
                    (&ones, &zeros),
                    (&zeros, &ones),
                    (&zeros, &zeros),
                    (&ones, &one),
                    (&one, &ones),
                    (&high_bit, &high_bit),
                    (&word_max, &ones),
                    (&rand_words, &ones),
                    (&rand_words, &rand_words),
                ];
                for (key, msg) in pairs {
                    check(l, v, key, msg);
                }
            }
        }
    }
}

/// Past the portable path's chunk of 2^24 elements (where exact sums are
/// reduced mod p and carry-free ones cut to words before going on): k
/// equal elements have a closed form in the model.
#[test]
fn beyond_one_chunk() {
    let k = (1usize << 24) + 5;
    let l = 32;
    let key = vec![0xffu8; 4 * k];
    let mut msg = vec![0xffu8; 4 * k];
    msg[0] = 0xfe; // not all elements equal: one element differs
    for v in Variant::ALL {
        // model: (k - 1) copies of the all-ones element plus one other.
        let single = |m: &[u8]| -> BigUint {
            let a = BigUint::from_bytes_le(&[0xff; 4]) + BigUint::from_bytes_le(m);
            let two_l = BigUint::one() << l;
            match v {
                Variant::Star | Variant::Asm | Variant::C => &a * &a,
                Variant::Asm2 => { let t: BigUint = &a % &two_l; t.pow(2) },
                Variant::C2 => c2(&a, 2),
                Variant::E => { let t: BigUint = &a % &two_l; c2(&t, 1) }
            }
        };
        let (s_ones, s_first) = (single(&[0xff; 4]), single(&msg[..4]));
        let p = p_of(l);
        let r = match v {
            Variant::Star | Variant::Asm | Variant::Asm2 => {
                let s = (s_ones * BigUint::from(k - 1) + s_first) % &p;
                if v == Variant::Asm {
                    s % (BigUint::one() << l)
                } else {
                    s
                }
            }
            _ => {
                let n = match v {
                    Variant::C => 3,
                    Variant::C2 => 4,
                    _ => 2,
                };
                let w: Vec<u64> = (0..n)
                    .map(|j| (word(&s_ones, j) * (k as u64 - 1) + word(&s_first, j)) & 0xffff_ffff)
                    .collect();
                let s = from_words(&w) % &p;
                if v == Variant::E {
                    s % (BigUint::one() << l)
                } else {
                    s
                }
            }
        };
        let mut want = r.to_bytes_le();
        want.resize(v.out_bytes(l), 0);
        for pf in ladder(FAMILY) {
            assert_eq!(square::hash_on(pf, l, v, &key, &msg).unwrap(), want, "{pf:?} {v:?}");
        }
    }
}

#[test]
fn streaming_equals_one_shot() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for l in WIDTHS {
        for v in Variant::ALL {
            let n = 5 * l / 8;
            let key: Vec<u8> = (0..n).map(|_| rng.random()).collect();
            let msg: Vec<u8> = (0..n).map(|_| rng.random()).collect();
            let name = format!("sqh{l}-{}", v.suffix());
            let p = Params { key: &key, ..Default::default() };
            let want = registry::compute(&name, &p, &msg).unwrap();
            for i in 0..=n {
                for j in i..=n {
                    let mut s = registry::open(&name, &p).unwrap();
                    s.update(&msg[..i]);
                    s.update(&msg[i..j]);
                    s.update(&msg[j..]);
                    assert_eq!(s.finalize().unwrap(), want, "{name} split {i} {j}");
                }
            }
        }
    }
}

#[test]
fn errors_not_panics() {
    let key = [7u8; 24];
    for v in Variant::ALL {
        let name = format!("sqh96-{}", v.suffix());
        let p = Params { key: &key, ..Default::default() };
        for len in [0, 12, 23, 25, 36] {
            let e = registry::compute(&name, &p, &vec![1u8; len]).unwrap_err();
            assert!(matches!(e, Error::Message { .. }), "{name} len {len}: {e}");
            assert!(e.to_string().contains("as long as the key"), "{e}");
        }
        for klen in [0, 11, 13] {
            let e = registry::compute(&name, &Params { key: &vec![0; klen], ..Default::default() }, &[0; 12]).unwrap_err();
            assert!(matches!(e, Error::KeyLength { .. }), "{e}");
        }
        assert!(matches!(square::hash(96, v, &key, &[0; 12]), Err(Error::Message { .. })));
        assert!(matches!(square::hash(48, v, &key, &key), Err(Error::Invalid(_))));
    }
}

#[test]
fn catalog_has_all_24_names() {
    for l in WIDTHS {
        for s in ["star", "asm", "asm2", "c", "c2", "e"] {
            let e = registry::lookup(&format!("sqh{l}-{s}")).unwrap();
            assert_eq!(e.info.key, registry::KeySpec::PerElement(l / 8));
            let out = if s == "asm" || s == "e" { l / 8 } else { l / 8 + 1 };
            assert_eq!(e.info.out, out);
        }
    }
}

fn elem(l: usize, v: &BigUint) -> Vec<u8> {
    let mut b = v.to_bytes_le();
    b.resize(l / 8 + 1, 0);
    b
}

#[test]
fn sqh_and_sqhu_single_element() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(6);
    for l in WIDTHS {
        let p = p_of(l);
        let rand_elem = |rng: &mut rand::rngs::StdRng| -> BigUint {
            let b: Vec<u8> = (0..l / 8 + 1).map(|_| rng.random()).collect();
            BigUint::from_bytes_le(&b) % &p
        };
        let pm1 = &p - 1u32;
        let mut cases: Vec<(BigUint, BigUint, BigUint)> = vec![
            (pm1.clone(), pm1.clone(), pm1.clone()),
            (BigUint::zero(), BigUint::zero(), BigUint::zero()),
            (pm1.clone(), BigUint::one(), BigUint::zero()),
            ((BigUint::one() << l) - 1u32, BigUint::one() << l, pm1.clone()),
        ];
        for _ in 0..200 {
            cases.push((rand_elem(&mut rng), rand_elem(&mut rng), rand_elem(&mut rng)));
        }
        let g = reference::Geometry::spec(l as u32);
        for (x, b, m) in cases {
            let nat = |v: &BigUint| reference::Nat::from_le_bytes(&elem(l, v));
            let want = ((&m + &x).pow(2) + &b) % &p;
            assert_eq!(reference::sqhu(&g.p, &nat(&x), &nat(&b), &nat(&m)).to_le_bytes(l / 8 + 1), elem(l, &want));
            assert_eq!(square::sqhu(l, &elem(l, &x), &elem(l, &b), &elem(l, &m)).unwrap(), elem(l, &want));
            let want0 = (&m + &x).pow(2) % &p;
            assert_eq!(square::sqh(l, &elem(l, &x), &elem(l, &m)).unwrap(), elem(l, &want0));
        }
        // Not an element of Z_p, or the wrong size: an error.
        assert!(square::sqh(l, &elem(l, &p), &elem(l, &BigUint::one())).is_err());
        assert!(square::sqh(l, &elem(l, &BigUint::one()), &elem(l, &(&p + 7u32))).is_err());
        assert!(square::sqh(l, &[0u8; 3], &elem(l, &BigUint::one())).is_err());
    }
}

/// Theorem 1 and Lemma 1 on the real l = 32 prime, one message pair: the
/// difference `h_x(m) - h_x(n)` is `m^2 - n^2 + 2(m - n)x`, a bijection of x.
#[test]
fn sqh_difference_is_linear_in_the_key() {
    let l = 32;
    let p = p_of(l);
    let (m, n) = (BigUint::from(123_456_789u64), BigUint::from(4_000_000_000u64));
    for x in [0u64, 1, 99, 1 << 32, (1 << 32) + 14] {
        let x = BigUint::from(x);
        let hm = BigUint::from_bytes_le(&square::sqh(l, &elem(l, &x), &elem(l, &m)).unwrap());
        let hn = BigUint::from_bytes_le(&square::sqh(l, &elem(l, &x), &elem(l, &n)).unwrap());
        let lhs = (&hm + &p - &hn) % &p;
        let rhs = (&m * &m + &p * &p * 4u32 - &n * &n + (&m + &p - &n) * &x * 2u32) % &p;
        assert_eq!(lhs, rhs);
    }
}

/// `hash_blocks` and a reused [`square::BlockKey`] (eight blocks per AVX-512
/// pass, four elements of two blocks per register, the last register of a
/// block partly filled for every `k mod 4`; four per AVX2 pass) equal the
/// reference on every block, for element counts whose last element sits at
/// a block's very end, one to three groups of eight blocks plus remainders,
/// random and all-ones keys (every carry chain) and extreme blocks.
#[test]
fn hash_blocks_equals_reference() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(10);
    for l in WIDTHS {
        for v in Variant::ALL {
            for (ki, k) in [1usize, 2, 3, 4, 5, 8, 11, 22, 23].into_iter().enumerate() {
                let bl = k * l / 8;
                let key: Vec<u8> = (0..bl).map(|_| if ki % 3 == 2 { 0xff } else { rng.random() }).collect();
                let keyed: Vec<(Platform, square::BlockKey)> =
                    ladder(FAMILY).into_iter().map(|p| (p, square::BlockKey::new_on(p, l, v, &key).unwrap())).collect();
                for n in [1usize, 4, 5, 8, 9, 13, 16, 21, 24] {
                    let blocks: Vec<u8> = (0..n * bl)
                        .map(|i| if (i / bl) % 2 == 0 { rng.random() } else { 0xff })
                        .collect();
                    let o = v.out_bytes(l);
                    let want: Vec<Vec<u8>> = blocks.chunks(bl).map(|blk| reference::hash_bytes(l as u32, v, &key, blk)).collect();
                    let mut out = vec![0u8; n * o];
                    square::hash_blocks(l, v, &key, &blocks, &mut out).unwrap();
                    assert_eq!(out, want.concat(), "sqh{l}-{} k={k} n={n}", v.suffix());
                    // Every backend directly (eight-, four-block and single-block
                    // kernels), one call per key and the key set up once.
                    for (p, bk) in &keyed {
                        let mut out = vec![0u8; n * o];
                        square::hash_blocks_on(*p, l, v, &key, &blocks, &mut out).unwrap();
                        assert_eq!(out, want.concat(), "{p:?} sqh{l}-{} k={k} n={n}", v.suffix());
                        let mut out = vec![0u8; n * o];
                        bk.hash_blocks(&blocks, &mut out).unwrap();
                        assert_eq!(out, want.concat(), "BlockKey {p:?} sqh{l}-{} k={k} n={n}", v.suffix());
                        assert!(bk.hash_blocks(&blocks[1..], &mut out[1..]).is_err());
                    }
                }
            }
            // Wrong sizes are errors.
            let key = vec![0u8; l / 8 * 2];
            assert!(square::hash_blocks(l, v, &key, &vec![0u8; l / 8 * 3], &mut vec![0u8; 2 * v.out_bytes(l)]).is_err());
            assert!(square::hash_blocks(l, v, &key, &vec![0u8; l / 8 * 4], &mut vec![0u8; v.out_bytes(l)]).is_err());
        }
    }
}

/// The SIMD kernels read whole 64-byte vectors where those stay inside the
/// blocks and masked loads at the end: blocks (and single messages) placed
/// flush against an unmapped page hash correctly and fault nowhere, on every
/// backend, for every width, variant and a spread of element counts and
/// block counts.
#[cfg(unix)]
#[test]
fn hash_blocks_reads_nothing_past_the_blocks() {
    const REGION: usize = 4 << 12;
    let page = 4096usize;
    // SAFETY: an anonymous private mapping of REGION + one page, its last
    // page then made inaccessible; unmapped at the end.
    let base = unsafe {
        let p = libc::mmap(core::ptr::null_mut(), REGION + page, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
        assert_ne!(p, libc::MAP_FAILED);
        assert_eq!(libc::mprotect((p as *mut u8).add(REGION) as *mut libc::c_void, page, libc::PROT_NONE), 0);
        p as *mut u8
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for l in WIDTHS {
        for v in Variant::ALL {
            for k in [1usize, 2, 3, 4, 5, 9, 11, 22, 23] {
                let bl = k * l / 8;
                let key: Vec<u8> = (0..bl).map(|_| rng.random()).collect();
                for n in [1usize, 8, 9, 16] {
                    if n * bl > REGION {
                        continue;
                    }
                    let data: Vec<u8> = (0..n * bl).map(|_| rng.random()).collect();
                    // SAFETY: the last n·bl bytes before the guard page, inside the mapping.
                    let blocks = unsafe {
                        let at = base.add(REGION - n * bl);
                        core::ptr::copy_nonoverlapping(data.as_ptr(), at, n * bl);
                        core::slice::from_raw_parts(at as *const u8, n * bl)
                    };
                    let want: Vec<u8> = data.chunks(bl).flat_map(|blk| reference::hash_bytes(l as u32, v, &key, blk)).collect();
                    for p in ladder(FAMILY) {
                        let mut out = vec![0u8; want.len()];
                        square::BlockKey::new_on(p, l, v, &key).unwrap().hash_blocks(blocks, &mut out).unwrap();
                        assert_eq!(out, want, "{p:?} sqh{l}-{} k={k} n={n}", v.suffix());
                        // One block, flush against the guard page (the single-block kernels).
                        let last = &blocks[(n - 1) * bl..];
                        let one = square::hash_on(p, l, v, &key, last).unwrap();
                        assert_eq!(one, want[(n - 1) * one.len()..], "{p:?} one block sqh{l}-{} k={k}", v.suffix());
                    }
                }
            }
        }
    }
    // SAFETY: the mapping made above, no longer used.
    unsafe { libc::munmap(base as *mut libc::c_void, REGION + page) };
}

/// At the IFMA52 kernel's limit (`k = 512` elements, exact up to there) and
/// one past it (the AVX2 kernel takes over): every backend equals the
/// reference on all-ones blocks and keys (the largest columns) and random
/// ones.
#[test]
fn hash_blocks_at_the_exact_kernel_limit() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    for l in WIDTHS {
        for v in [Variant::Star, Variant::Asm, Variant::Asm2, Variant::E] {
            for k in [512usize, 513] {
                let bl = k * l / 8;
                for ones in [true, false] {
                    let byte = |rng: &mut rand::rngs::StdRng| if ones { 0xff } else { rng.random() };
                    let key: Vec<u8> = (0..bl).map(|_| byte(&mut rng)).collect();
                    let blocks: Vec<u8> = (0..9 * bl).map(|_| byte(&mut rng)).collect();
                    let want: Vec<u8> = blocks.chunks(bl).flat_map(|b| reference::hash_bytes(l as u32, v, &key, b)).collect();
                    for p in ladder(FAMILY) {
                        let mut out = vec![0u8; want.len()];
                        square::BlockKey::new_on(p, l, v, &key).unwrap().hash_blocks(&blocks, &mut out).unwrap();
                        assert_eq!(out, want, "{p:?} sqh{l}-{} k={k} ones={ones}", v.suffix());
                    }
                }
            }
        }
    }
}
