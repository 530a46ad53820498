//! Shoup's hashes (docs/WIRE.md §5) against plain bit-by-bit polynomial models, every
//! backend on the same inputs, streaming at every split point, the three
//! minimal-polynomial methods against each other, and Rabin's irreducibility
//! test on generated keys.

use crate::common;
use unimac::unstable::prelude::*;
use common::{gf2_mulmod64, gf64_mul, lengths, skipped};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use unimac::unstable::registry::{self, Params};
use unimac::unstable::hazmat::shoup::{gf2, minpoly};
use unimac::unstable::shoup::{self, Hasher, Kind, Table};
use unimac::{Feature, Platform};

// ---------------------------------------------------------------- models ----

fn pad8(m: &[u8]) -> Vec<u8> {
    let mut v = m.to_vec();
    v.push(1);
    while v.len() & 7 != 0 {
        v.push(0);
    }
    v
}

fn model_eval64(alpha: u64, msg: &[u8]) -> u64 {
    let mut h = 1u64;
    for b in pad8(msg).chunks(8) {
        h = gf64_mul(h, alpha) ^ u64::from_le_bytes(b.try_into().unwrap());
    }
    gf64_mul(h, alpha)
}

/// `(x^(64n) + Σ b_i x^(64(n−1−i))) x^64 mod (x^64 + p_lo)` by long division,
/// one bit of the dividend at a time from the top.
fn model_division64(p_lo: u64, msg: &[u8]) -> u64 {
    let p = (1u128 << 64) | p_lo as u128;
    let mut r = 0u128;
    let mut push = |bit: u64| {
        r = (r << 1) | bit as u128;
        if (r >> 64) & 1 == 1 {
            r ^= p;
        }
    };
    push(1);
    for b in pad8(msg).chunks(8) {
        let w = u64::from_le_bytes(b.try_into().unwrap());
        for i in (0..64).rev() {
            push((w >> i) & 1);
        }
    }
    for _ in 0..64 {
        push(0);
    }
    r as u64
}

/// `a · b` in GF(2^8) = GF(2)[x]/(x^8 + x^4 + x^3 + x + 1).
fn kmul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0u8;
    while b != 0 {
        if b & 1 == 1 {
            r ^= a;
        }
        let carry = a & 0x80 != 0;
        a <<= 1;
        if carry {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    r
}

/// `(z^N + Σ c_i z^(N−1−i)) z^8 mod P`, `P = z^8 + Σ p_k z^k`, one coefficient
/// at a time.
fn model_gdivision64(p: [u8; 8], msg: &[u8]) -> [u8; 8] {
    let mut r = [0u8; 8];
    let mut push = |c: u8| {
        let t = r[7];
        for k in (1..8).rev() {
            r[k] = r[k - 1];
        }
        r[0] = c;
        for k in 0..8 {
            r[k] ^= kmul(t, p[k]);
        }
    };
    push(1);
    for &c in &pad8(msg) {
        push(c);
    }
    for _ in 0..8 {
        push(0);
    }
    r
}

/// `a · b` in L = K[y]/(y^8 + y^3 + y + 0x0E).
fn lmul(a: [u8; 8], b: [u8; 8]) -> [u8; 8] {
    let mut p = [0u8; 15];
    for i in 0..8 {
        for j in 0..8 {
            p[i + j] ^= kmul(a[i], b[j]);
        }
    }
    for k in (8..15).rev() {
        let t = p[k];
        p[k] = 0;
        // y^8 = y^3 + y + 0x0E
        p[k - 5] ^= t;
        p[k - 7] ^= t;
        p[k - 8] ^= kmul(t, 0x0e);
    }
    p[..8].try_into().unwrap()
}

/// gdivision64-key by Gordon's method over K: `∏ (X − g^(256^i))` over the
/// distinct conjugates, times `X^(8 − m)`.
fn model_gdivision_key(g: [u8; 8]) -> [u8; 8] {
    let frob = |u: [u8; 8]| (0..8).fold(u, |v, _| lmul(v, v));
    let mut conj = vec![g];
    let mut c = frob(g);
    while c != g {
        conj.push(c);
        c = frob(c);
    }
    let m = conj.len();
    assert!([1, 2, 4, 8].contains(&m), "{m} conjugates");
    let mut h: Vec<[u8; 8]> = vec![[1, 0, 0, 0, 0, 0, 0, 0]];
    for c in &conj {
        let mut nh = vec![[0u8; 8]; h.len() + 1];
        for (k, hk) in h.iter().enumerate() {
            for t in 0..8 {
                nh[k + 1][t] ^= hk[t];
            }
            let prod = lmul(*c, *hk);
            for t in 0..8 {
                nh[k][t] ^= prod[t];
            }
        }
        h = nh;
    }
    let mut out = [0u8; 8];
    for (k, hk) in h.iter().enumerate() {
        assert!(hk[1..].iter().all(|&x| x == 0), "coefficient not in K");
        if 8 - m + k < 8 {
            out[8 - m + k] = hk[0];
        }
    }
    out
}

// ------------------------------------------------------- polynomials mod q ---

fn deg(a: u128) -> i32 {
    127 - a.leading_zeros() as i32
}

fn pmod(mut a: u128, q: u128) -> u128 {
    let dq = deg(q);
    while a != 0 && deg(a) >= dq {
        a ^= q << (deg(a) - dq);
    }
    a
}

fn pmulmod(a: u128, b: u128, q: u128) -> u128 {
    let mut r = 0u128;
    let mut a = pmod(a, q);
    let mut b = b;
    while b != 0 {
        if b & 1 == 1 {
            r ^= a;
        }
        a = pmod(a << 1, q);
        b >>= 1;
    }
    r
}

fn pgcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = pmod(a, b);
        a = b;
        b = t;
    }
    a
}

/// Rabin's test: `q` of degree `d` is irreducible over GF(2) iff
/// `x^(2^d) ≡ x (mod q)` and `gcd(x^(2^(d/r)) − x, q) = 1` for each prime `r | d`.
fn rabin_irreducible(q: u128) -> bool {
    let d = deg(q) as u32;
    if d == 0 {
        return false;
    }
    let frob = |k: u32| (0..k).fold(pmod(2, q), |v, _| pmulmod(v, v, q)); // x^(2^k) mod q
    if frob(d) != pmod(2, q) {
        return false;
    }
    let primes: Vec<u32> = (2..=d).filter(|&r| (d / r) * r == d && (2..r).all(|s| r % s != 0)).collect();
    primes.iter().all(|&r| pgcd(q, frob(d / r) ^ pmod(2, q)) == 1)
}

// ---------------------------------------------------------------- helpers ----

/// One way to compute a hash: the fastest kernel a platform allows, or a
/// (non-constant-time) table method of the paper.
#[derive(Clone, Copy, Debug)]
enum Impl {
    On(Platform),
    Table(Table),
}

/// Every distinct kernel this CPU can run for `kind` (one platform per
/// kernel), and both table methods.
fn backends_for(kind: Kind) -> Vec<Impl> {
    let mut seen = Vec::new();
    let mut v = Vec::new();
    #[allow(unused_mut)]
    let mut features = vec![Feature::Pclmul, Feature::Vpclmul, Feature::Gfni];
    #[cfg(target_arch = "aarch64")]
    features.push(Feature::Pmull);
    for p in Platform::hardware().only(&features).variants() {
        let name = Hasher::new_on(p, kind, &[1; 8]).backend();
        if !seen.contains(&name) {
            seen.push(name);
            v.push(Impl::On(p));
        }
    }
    v.extend([Impl::Table(Table::Method1), Impl::Table(Table::Method2)]);
    v
}

fn hasher(kind: Kind, backend: Impl, key: &[u8; 8]) -> Hasher {
    match backend {
        Impl::On(p) => Hasher::new_on(p, kind, key),
        Impl::Table(t) => Hasher::with_table(kind, t, key),
    }
}

fn run(kind: Kind, backend: Impl, key: &[u8; 8], msg: &[u8]) -> [u8; 8] {
    let mut h = hasher(kind, backend, key);
    h.update(msg);
    h.finalize()
}

fn model(kind: Kind, key: &[u8; 8], msg: &[u8]) -> [u8; 8] {
    let g = u64::from_le_bytes(*key);
    match kind {
        Kind::Eval64 => model_eval64(g, msg).to_le_bytes(),
        Kind::Division64 => model_division64(u64::from_le_bytes(shoup::division64_key(key)), msg).to_le_bytes(),
        Kind::GDivision64 => model_gdivision64(model_gdivision_key(*key), msg),
    }
}

const KINDS: [Kind; 3] = [Kind::Eval64, Kind::Division64, Kind::GDivision64];

/// Random element of the subfield GF(2^k) ⊂ GF(2^64): the relative trace.
fn subfield_element(h: u64, k: u32) -> u64 {
    let mut t = 0u64;
    let mut c = h;
    for _ in 0..64 / k {
        t ^= c;
        for _ in 0..k {
            c = gf64_mul(c, c);
        }
    }
    t
}

/// Every length to 80 and these: around the kernels' block and table edges.
const EDGES: &[(&[usize], &[i64])] = &[(
    &[118, 119, 120, 127, 128, 129, 135, 136, 191, 192, 193, 255, 256, 257, 383, 384, 447, 448, 449, 503, 504, 511, 512, 513, 1000, 4096 + 7],
    &[0],
)];

// ------------------------------------------------------------------ tests ----

/// On a CPU with PMULL (aarch64), eval64 and division64 have a PMULL
/// kernel among the backends compared here (gdivision64 has none);
/// elsewhere this says SKIPPED.
#[test]
fn pmull_kernels_are_compared_where_the_cpu_has_them() {
    #[cfg(target_arch = "aarch64")]
    let pmull = Platform::hardware().has(unimac::Feature::Pmull);
    #[cfg(not(target_arch = "aarch64"))]
    let pmull = false;
    if !pmull {
        skipped("", "no pmull on this CPU");
        return;
    }
    for kind in [Kind::Eval64, Kind::Division64] {
        let names: Vec<&str> = backends_for(kind)
            .iter()
            .filter_map(|b| match b {
                Impl::On(p) => Some(Hasher::new_on(*p, kind, &[1; 8]).backend()),
                Impl::Table(_) => None,
            })
            .collect();
        assert_eq!(names, ["portable", "pmull"], "{kind:?}");
    }
}

#[test]
fn clmul64_and_barrett_match_the_model() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let extreme = [0u64, 1, 2, u64::MAX, 1 << 63, 0x5555_5555_5555_5555];
    for i in 0..3000 {
        let (a, b): (u64, u64) =
            if i < 36 { (extreme[i % 6], extreme[i / 6]) } else { (rng.random(), rng.random()) };
        let mut want = 0u128;
        for j in 0..64 {
            if (b >> j) & 1 == 1 {
                want ^= (a as u128) << j;
            }
        }
        assert_eq!(gf2::clmul64(a, b), want, "{a:x} {b:x}");
        assert_eq!(gf2::mul_f(a, b), gf64_mul(a, b));
        let lo: u64 = if i < 36 { extreme[i % 6] } else { rng.random() };
        let m = gf2::Modulus::new(lo);
        assert_eq!(m.mul(a, b), gf2_mulmod64(a, b, lo), "mod x^64+{lo:x}");
        let v = gf2::clmul64(a, b);
        assert_eq!(m.reduce_with(v, gf2::clmul64), gf2_mulmod64(a, b, lo));
    }
    assert_eq!(gf2::Modulus::new(0x1b).mu, 0x1b, "⌊x^128/f⌋ = x^64 + x^4 + x^3 + x + 1");
}

#[test]
fn every_backend_matches_the_model_on_random_and_extreme_inputs() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let mut keys: Vec<[u8; 8]> = vec![[0; 8], [0xff; 8], [1, 0, 0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 0]];
    keys.extend((0..4).map(|_| rng.random::<[u8; 8]>()));
    let mut n = 0;
    for key in &keys {
        for len in lengths(80, EDGES) {
            let msgs: Vec<Vec<u8>> = vec![
                (0..len).map(|_| rng.random()).collect(),
                vec![0xff; len],
                vec![0; len],
            ];
            for msg in &msgs {
                for kind in KINDS {
                    let want = model(kind, key, msg);
                    for b in backends_for(kind) {
                        assert_eq!(run(kind, b, key, msg), want, "{kind:?} {b:?} key {key:02x?} len {len}");
                        let h = hasher(kind, b, key);
                        assert_eq!(h.hash(msg), want, "one-shot {kind:?} {b:?} key {key:02x?} len {len}");
                        n += 1;
                    }
                    assert_eq!(shoup::hash(kind, key, msg), want);
                }
            }
        }
    }
    println!("{n} backend computations equal the model ({:?})", backends_for(Kind::GDivision64));
}

#[test]
fn streaming_at_every_split_point_equals_one_shot() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for len in [0usize, 7, 8, 9, 63, 64, 65, 130, 200, 520] {
        let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let key: [u8; 8] = rng.random();
        for kind in KINDS {
            for b in backends_for(kind) {
                let whole = run(kind, b, &key, &msg);
                for i in 0..=len {
                    for j in [i, (i + len) / 2, len] {
                        let mut h = hasher(kind, b, &key);
                        h.update(&msg[..i]);
                        h.update(&msg[i..j]);
                        h.update(&msg[j..]);
                        assert_eq!(h.finalize(), whole, "{kind:?} {b:?} len {len} split {i} {j}");
                    }
                }
                // byte at a time
                let mut h = hasher(kind, b, &key);
                for c in msg.chunks(1) {
                    h.update(c);
                }
                assert_eq!(h.finalize(), whole);
            }
            // through the registry, in random chunks
            let name = match kind {
                Kind::Eval64 => "eval64",
                Kind::Division64 => "division64",
                Kind::GDivision64 => "gdivision64",
            };
            let p = Params { key: &key, nonce: None, len: None };
            let mut s = registry::open(name, &p).unwrap();
            let mut rest = &msg[..];
            while !rest.is_empty() {
                let k = rng.random_range(1..=rest.len().min(70));
                s.update(&rest[..k]);
                rest = &rest[k..];
            }
            assert_eq!(s.finalize().unwrap(), model(kind, &key, &msg).to_vec());
        }
    }
}

#[test]
fn the_three_minimal_polynomial_methods_agree() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let mut gs: Vec<u64> = (0..2000).map(|_| rng.random()).collect();
    gs.extend([0, 1, 2, u64::MAX]);
    for k in [1, 2, 4, 8, 16, 32] {
        gs.extend((0..20).map(|_| subfield_element(rng.random(), k)));
    }
    let mut degrees = std::collections::BTreeMap::new();
    for &g in &gs {
        let la = minpoly::linear_algebra(g);
        let go = minpoly::gordon(g).expect("Gordon's coefficients lie in GF(2)");
        let bm = minpoly::berlekamp_massey(g);
        assert_eq!(la, go, "g = {g:x}");
        assert_eq!(la, bm, "g = {g:x}");
        assert_eq!(minpoly::key(g), bm.key());
        // h(g) = 0 with the model's arithmetic, h monic of its degree.
        assert_eq!(la.poly >> la.degree, 1);
        let mut v = 0u64;
        for i in (0..=la.degree).rev() {
            v = gf64_mul(v, g) ^ ((la.poly >> i) & 1) as u64;
        }
        assert_eq!(v, 0, "h(g) != 0 for g = {g:x}");
        *degrees.entry(la.degree).or_insert(0) += 1;
    }
    println!("{} elements, minimal polynomial degrees {degrees:?}", gs.len());
    assert!(degrees.len() >= 6, "subfield fallbacks exercised");
}

#[test]
fn generated_keys_are_irreducible_rabin() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for i in 0..400 {
        let g: u64 = rng.random();
        let key = u64::from_le_bytes(shoup::division64_key(&g.to_le_bytes()));
        let p = (1u128 << 64) | key as u128;
        assert!(rabin_irreducible(p), "key of g = {g:x} is reducible");
        if i < 5 {
            // Sanity of the test itself: a product of two polynomials is reducible.
            assert!(!rabin_irreducible(pmulmod(p >> 32 | 1, 0b111, 1u128 << 100)));
        }
    }
    // Subfield elements: q irreducible of degree d, key = q·x^(64−d).
    for k in [1, 2, 4, 8, 16, 32] {
        for _ in 0..10 {
            let g = subfield_element(rng.random(), k);
            let mp = minpoly::berlekamp_massey(g);
            assert!(k % mp.degree == 0 || mp.degree <= k);
            assert!(rabin_irreducible(mp.poly), "g = {g:x}");
            let key = u64::from_le_bytes(shoup::division64_key(&g.to_le_bytes()));
            assert_eq!((1u128 << 64) | key as u128, mp.poly << (64 - mp.degree));
        }
    }
    assert!(rabin_irreducible((1u128 << 64) | 0x1b), "f itself");
}

#[test]
fn gdivision_keys_match_gordon_over_k() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(6);
    let mut gs: Vec<[u8; 8]> = (0..300).map(|_| rng.random()).collect();
    gs.extend([[0; 8], [0xff; 8], [7, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0]]);
    // Subfields K(y)^σ^k of L: relative traces Σ σ^(ki)(h), σ(u) = u^256.
    let frob = |u: [u8; 8]| (0..8).fold(u, |v, _| lmul(v, v));
    for k in [1, 2, 4] {
        for _ in 0..20 {
            let h: [u8; 8] = rng.random();
            let mut t = [0u8; 8];
            let mut c = h;
            for _ in 0..8 / k {
                for i in 0..8 {
                    t[i] ^= c[i];
                }
                for _ in 0..k {
                    c = frob(c);
                }
            }
            gs.push(t);
        }
    }
    for g in &gs {
        assert_eq!(shoup::gdivision64_key(g), model_gdivision_key(*g), "g = {g:02x?}");
    }
}

#[test]
fn key_names_ignore_the_message_and_bad_keys_are_errors() {
    for name in ["division64-key", "gdivision64-key"] {
        let key = [0x87, 0xce, 0x53, 0x84, 0x91, 0xf7, 0xb4, 0xab];
        let p = Params { key: &key, nonce: None, len: None };
        let a = registry::compute(name, &p, b"").unwrap();
        let b = registry::compute(name, &p, b"anything at all").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 8);
    }
    for name in ["eval64", "division64", "gdivision64", "division64-key", "gdivision64-key"] {
        for bad in [&[0u8; 7][..], &[0u8; 9][..], &[][..]] {
            let p = Params { key: bad, nonce: None, len: None };
            assert!(registry::compute(name, &p, b"m").is_err(), "{name} key {}", bad.len());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_all_backends_equal_model(key in any::<[u8; 8]>(), msg in proptest::collection::vec(any::<u8>(), 0..300)) {
        for kind in KINDS {
            let want = model(kind, &key, &msg);
            for b in backends_for(kind) {
                prop_assert_eq!(run(kind, b, &key, &msg), want);
            }
        }
    }
}

/// Key material never shows in `Debug`: the division hash's key polynomial
/// (as a modulus and as a minimal polynomial) prints no coefficient.
#[test]
fn debug_prints_no_key_material() {
    use unimac::unstable::hazmat::shoup::{gf2, minpoly};
    let lo = 0x1b2c_3d4e_5f60_7182u64;
    let m = gf2::Modulus::new(lo);
    let d = format!("{m:?}");
    assert!(!d.contains(&lo.to_string()) && !d.contains(&format!("{lo:x}")), "{d}");
    let q = minpoly::berlekamp_massey(lo);
    let d = format!("{q:?}");
    assert!(!d.contains(&q.poly.to_string()) && !d.contains(&format!("{:x}", q.poly)), "{d}");
    assert!(d.contains("degree"));
}
