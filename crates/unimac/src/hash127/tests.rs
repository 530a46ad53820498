//! Checks of the exactness arguments themselves (the theorems' bounds, the
//! chunk bound at `fp::GROUPS`), printing measured against proven.

use super::fp::{self, pow2, Table, CHUNK_WORDS, GROUPS, GROUPS8};
use super::*;

/// The paper's `carrybound_i` (section 3).
fn carrybound(t: &mut [f64; 8], i: usize) {
    if i < 7 {
        t[i + 1] += t[i] + pow2(15 + 16 * i as i32);
        t[i] = pow2(15 + 16 * i as i32);
    } else {
        t[0] += pow2(-127) * t[7] + 0.5;
        t[7] = pow2(126);
    }
}

#[test]
fn squeeze_bound_theorem_3_2() {
    check_squeeze_order("squeeze", &fp::SQUEEZE);
}

/// The paper's parallel variant (section 3, notes), two independent carries
/// per step: its bound is stated there without the check; here it is checked.
#[test]
fn parallel_squeeze_bound() {
    check_squeeze_order("parallel squeeze", &fp::SQUEEZE_PARALLEL);
}

fn check_squeeze_order(name: &str, order: &[usize]) {
    let mut t: [f64; 8] = core::array::from_fn(|j| 0.98 * pow2(53 + 16 * j as i32));
    let mut worst = 0f64;
    for &i in order {
        carrybound(&mut t, i);
        for (j, x) in t.iter().enumerate() {
            let ratio = x / pow2(53 + 16 * j as i32);
            worst = worst.max(ratio);
            assert!(ratio <= 0.99, "carry_{i}: limb {j} bound {ratio}·2^53");
        }
    }
    let out: Vec<f64> = (0..8).map(|j| t[j] / pow2(15 + 16 * j as i32)).collect();
    println!("{name}: largest intermediate {worst:.4}·2^53 (needs <= 0.99); output / 2^(15+16j) = {out:.4?} (needs <= 1.01)");
    assert!(out.iter().all(|&x| x <= 1.01));
}

/// Limb `c` (a multiple of `2^(16j)`) as an integer mod p.
fn limb_mod_p(c: f64, j: usize) -> u128 {
    let x = c * pow2(-16 * j as i32);
    assert_eq!(x, x.trunc(), "limb {j} not a multiple of 2^(16j)");
    let v = portable::mul_mod(x.abs() as u128, 1u128 << (16 * j));
    if x < 0.0 {
        portable::add_mod(P - v, 0)
    } else {
        v
    }
}

pub(super) fn keys() -> Vec<[i32; 4]> {
    vec![[i32::MIN; 4], [i32::MAX; 4], [0; 4], [1, 0, 0, 0], [-1, 0, 0, 0], [-1, -1, -1, i32::MAX],
         [0x1234_5678, -0x0765_4321, 0x7abc_def0, -0x2468_ace0], [-2, -1, -1, i32::MAX]]
}

#[test]
fn powers_theorem_5_3() {
    let mut worst = 0f64;
    for r in keys() {
        let t = Table::new(r);
        let rm = words_mod_p(r);
        let mut want = 1u128;
        for (i, c) in t.pow.iter().enumerate() {
            let got = (0..8).fold(0, |a, j| portable::add_mod(a, limb_mod_p(c[j], j)));
            assert_eq!(got, want, "r^{i} for r = {r:?}");
            for (j, &x) in c.iter().enumerate() {
                worst = worst.max(x.abs() / pow2(15 + 16 * j as i32));
            }
            want = portable::mul_mod(want, rm);
        }
        assert_eq!(t.pow.len(), CHUNK_WORDS + 2);
    }
    println!("power_i: largest |c_(i,j)| = {worst:.4}·2^(15+16j) (Theorem 5.3: <= 1.01)");
    assert!(worst <= 1.01);
}

#[test]
fn chunk_bound() {
    // The bound at fp::GROUPS: 2^50 + G·1.01·2^46 <= 0.98·2^53.
    let proven = |g: f64| (pow2(50) + g * 1.01 * pow2(46)) / pow2(53);
    println!("chunk bound for G = {GROUPS}: {:.4}·2^53 (needs <= 0.98); G + 1 would give {:.4}", proven(GROUPS as f64), proven(GROUPS as f64 + 1.0));
    assert!(proven(GROUPS as f64) <= 0.98);
    // Eight lanes (fp::GROUPS8): 2^50 + G8·1.01·2^46 <= 0.98·2^53.
    println!("eight lanes, G8 = {GROUPS8}: {:.4}·2^53 (needs <= 0.98)", proven(GROUPS8 as f64));
    assert!(proven(GROUPS8 as f64) <= 0.98);
}

/// Messages built to make one limb's lane sums as large as the key allows
/// (each word ±2^31 with the sign of its power's limb), over several chunks
/// so the carried-in product is there too: the fast path must still be exact.
#[test]
#[cfg(target_arch = "x86_64")]
fn adversarial_lane_sums() {
    let fast: Vec<crate::Platform> = crate::Platform::hardware()
        .only(&[crate::Feature::Avx2Fma, crate::Feature::Avx512])
        .variants()
        .into_iter()
        .filter(|&p| Backend::for_platform(p) != Backend::Portable)
        .collect();
    if fast.is_empty() {
        return;
    }
    let mut worst = 0f64;
    let mut worst8 = 0f64;
    for r in keys() {
        let t = Table::new(r);
        let key = Key::from_words(r, [7, -7, 7, -7]);
        for j in 0..8 {
            for sign in [1.0, -1.0] {
                let words: Vec<i32> = (0..3 * CHUNK_WORDS)
                    .map(|i| {
                        let c = t.pow[CHUNK_WORDS - i % CHUNK_WORDS][j] * sign;
                        if c >= 0.0 { i32::MIN } else { i32::MAX }
                    })
                    .collect();
                // The largest lane sum of limb j within one chunk.
                for l in 0..4 {
                    let s: f64 = (l..CHUNK_WORDS).step_by(4).map(|i| (words[i] as f64 * t.pow[CHUNK_WORDS - i][j]).abs()).sum();
                    worst = worst.max(s / pow2(53 + 16 * j as i32));
                }
                // The same for the eight lanes of the AVX-512 backend.
                for l in 0..8 {
                    let s: f64 = (l..CHUNK_WORDS).step_by(8).map(|i| (words[i] as f64 * t.pow[CHUNK_WORDS - i][j]).abs()).sum();
                    worst8 = worst8.max(s / pow2(53 + 16 * j as i32));
                }
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                let slow = hash127_on(crate::Platform::portable(), &key, &bytes, false, usize::MAX);
                for &b in &fast {
                    assert_eq!(hash127_on(b, &key, &bytes, false, usize::MAX), slow, "{b:?} r = {r:?}, limb {j}");
                }
            }
        }
    }
    println!("adversarial dot products: largest lane sum {worst:.4}·2^53 before the carried-in product (bound: {:.4})", GROUPS as f64 * 1.01 * pow2(46) / pow2(53));
    println!("eight lanes: largest lane sum {worst8:.4}·2^53 (bound: {:.4})", GROUPS8 as f64 * 1.01 * pow2(46) / pow2(53));
    println!("backends checked: {fast:?}");
}

#[test]
fn freeze_extremes_theorem_4_2() {
    // t_j = ±2^49·2^(32j) and small neighbours: freeze equals the exact residue.
    let vals = [-pow2(49), -pow2(49) + 1.0, -1.0, 0.0, 1.0, pow2(49) - 1.0, pow2(49)];
    for &a in &vals {
        for &b in &vals {
            for &c in &[-pow2(49), 0.0, pow2(49)] {
                for &d in &vals {
                    let t = [a, b * pow2(32), c * pow2(64), d * pow2(96)];
                    let got = fp::freeze(&t);
                    let got = got.iter().rev().fold(0u128, |x, &w| (x << 32) | w as u128);
                    let want = [a, b, c, d].iter().enumerate().fold(0u128, |x, (j, &v)| {
                        portable::add_mod(x, limb_mod_p(v * pow2(16 * 2 * j as i32), 2 * j))
                    });
                    assert_eq!(got, want, "{t:?}");
                }
            }
        }
    }
}

/// One input of the differential check: key words `(r, k)`, a message, and
/// whether it is `hash127` (padded) or `hash127-raw`.
#[derive(Debug)]
pub(super) struct Case {
    r: [i32; 4],
    k: [i32; 4],
    msg: Vec<u8>,
    pad: bool,
}

/// The big-integer model of docs/WIRE.md §2: `r^(l+1) + Σ m_i r^(l−i) + k
/// mod p` over the signed words of `pad(M, 4)` (or of `M`).
fn model(c: &Case) -> [u8; 16] {
    use num_bigint::BigInt;
    let p = BigInt::from(P);
    let int = |w: &[i32; 4]| w.iter().rev().fold(BigInt::from(0), |a, &x| (a << 32) + BigInt::from(x as u32)) - signed_excess(w);
    let mut m = c.msg.clone();
    if c.pad {
        m.push(1);
        while !m.len().is_multiple_of(4) {
            m.push(0);
        }
    }
    let r = int(&c.r);
    let mut v = BigInt::from(1);
    for w in m.chunks_exact(4) {
        v = (v * &r + BigInt::from(i32::from_le_bytes(w.try_into().unwrap()))) % &p;
    }
    let x = ((v * &r + int(&c.k)) % &p + &p) % &p;
    let (_, digits) = x.to_u64_digits();
    encode(digits.iter().rev().fold(0u128, |a, &d| (a << 64) | d as u128))
}

/// `Σ 2^(32i+32)` over the negative words: the difference between reading
/// the words unsigned and signed.
fn signed_excess(w: &[i32; 4]) -> num_bigint::BigInt {
    w.iter().enumerate().filter(|(_, &x)| x < 0).map(|(i, _)| num_bigint::BigInt::from(1) << (32 * i + 32)).sum()
}

/// A platform this CPU has on which the default dispatch picks `b` (the
/// portable one for `Int26`, which is asked for by name).
fn platform_for(b: Backend) -> Platform {
    Platform::hardware().variants().into_iter().find(|&p| avx512_kind(Backend::for_platform(p)) == avx512_kind(b)).unwrap_or(Platform::portable())
}

/// The two AVX-512 backends as one (the same evidence runs either; the
/// dispatch picks one by vendor, `integer_lanes_pay`); others as themselves.
fn avx512_kind(b: Backend) -> Backend {
    if b == Backend::Avx512Int {
        Backend::Avx512
    } else {
        b
    }
}

/// Every way to hash `c` on backend `b`: one-shot at every length, streamed
/// in uneven pieces, and the default entry points twice (the second use of
/// a key takes the short path where it applies), with the key's table lazy
/// and built.
fn every_path(b: Backend, c: &Case) -> Vec<[u8; 16]> {
    let p = platform_for(b);
    let mut out = Vec::new();
    for built in [false, true] {
        // The backend itself, not the one the dispatch picks for `p` (the
        // AVX-512 ones share their evidence).
        let key = if Backend::for_platform(p) == b || b == Backend::Int26 {
            Key::from_words_on(p, c.r, c.k)
        } else {
            Key::with_backend(p, b, c.r, c.k)
        };
        if built {
            key.precompute();
        }
        let one = if b == Backend::Int26 {
            hash127_int26(&key, &c.msg, c.pad, usize::MAX)
        } else {
            Some(encode(oneshot(&key, p, b, &c.msg, c.pad, usize::MAX)))
        };
        out.push(one.expect("whole words"));
        let mut h = if b == Backend::Int26 { Hash127::new_int26(&key) } else { Hash127::new(&key) };
        let (a, rest) = c.msg.split_at(c.msg.len() / 3);
        let (m1, m2) = rest.split_at(rest.len() / 2 + 1.min(rest.len()));
        for piece in [a, m1, m2] {
            h.update(piece);
        }
        out.push(if c.pad { h.finalize() } else { h.finalize_raw().expect("whole words") });
        if b != Backend::Int26 {
            for _ in 0..2 {
                out.push(if c.pad { hash127(&key, &c.msg) } else { hash127_raw(&key, &c.msg).expect("whole words") });
            }
        }
    }
    out
}

/// The family's one differential check: every backend this CPU can run (and
/// `own`, the calling kernel module's, which stands in for the portable
/// slot when it is `Int26`) against the big-integer model, on extreme and
/// random keys and messages of every length class around the short path,
/// the groups, and the chunks. Returns the number of comparisons.
pub(super) fn differential(own: Backend) -> usize {
    use crate::platform::{self, Backend as _};
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x68313237);
    let mut ks = keys();
    ks.truncate(6);
    ks.push(core::array::from_fn(|_| rng.random()));
    let mut cases = Vec::new();
    for (i, &r) in ks.iter().enumerate() {
        let k = if i % 2 == 0 { [i32::MAX, i32::MIN, -1, 0x1234_5678] } else { rng.random() };
        // The integer AVX-512 kernel's own chunk edges too (576 words).
        let w = 4 * 576;
        for len in [0, 1, 3, 4, 7, 16, 61, 128, 255, 1020, 1024, 1024 + 4, CHUNK_BYTES - 4, CHUNK_BYTES, CHUNK_BYTES + 5, w - 4, w, w + 1, 2 * w, 3 * CHUNK_BYTES + 8] {
            let msgs: Vec<Vec<u8>> = vec![
                vec![0xff; len],
                vec![0; len],
                (0..len).map(|j| if j % 4 == 3 { 0x80 } else { 0 }).collect(),
                (0..len).map(|j| if j % 4 == 3 { 0x7f } else { 0xff }).collect(),
                (0..len).map(|_| rng.random()).collect(),
            ];
            for msg in msgs {
                if len.is_multiple_of(4) {
                    cases.push(Case { r, k, msg: msg.clone(), pad: false });
                }
                cases.push(Case { r, k, msg, pad: true });
            }
        }
    }
    let slot = match own {
        Backend::Int26 => Backend::Portable,
        // Whichever AVX-512 backend the dispatch picks here stands for both.
        Backend::Avx512 | Backend::Avx512Int => platform::backends::<Backend>()
            .into_iter()
            .find(|&b| avx512_kind(b) == Backend::Avx512)
            .unwrap_or(own),
        _ => own,
    };
    let own_runs = core::cell::Cell::new(0usize);
    // Every path must give the model's value: the paths' distinct results.
    let n = platform::check_backends::<Backend, _, _>(
        &cases,
        |c| vec![model(c)],
        |b, c| {
            let b = if b == slot {
                own_runs.set(own_runs.get() + 1);
                own
            } else {
                b
            };
            let mut got = every_path(b, c);
            got.dedup();
            got
        },
    );
    assert!(n > 0, "no comparison made");
    if platform::backends::<Backend>().contains(&slot) {
        assert!(own_runs.get() > 0, "{} was not compared", own.name());
    } else {
        platform::skipped_kernel(own.name());
    }
    n
}

/// The short path's vector columns joined into the scalar sums
/// (`short_from_columns`) equal the columns reduced one by one
/// (`columns_mod_p`, then `short_from`), at the largest columns and on
/// random ones, for every split of the message into head and scalar words.
#[test]
fn short_columns_join_exactly() {
    use portable::{columns_mod_p, short_from, short_from_columns, ShortPowers, LIMBS};
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x636f_6c73);
    let keys = [(P - 1, P - 1), (1, 0), (rng.random::<u128>() % P, rng.random::<u128>() % P)];
    let mut cols_set = vec![[u64::MAX; LIMBS], [0; LIMBS], [u64::MAX, 0, u64::MAX, 0, u64::MAX, 0]];
    for _ in 0..20 {
        cols_set.push(core::array::from_fn(|_| rng.random()));
    }
    for (r, k) in keys {
        let sp = ShortPowers::new(r, k);
        for words in [vec![0xffu8; 4 * 256], vec![0u8; 4 * 64], (0..4 * 17).map(|_| rng.random()).collect()] {
            for tail in [None, Some(i32::MIN), Some(i32::MAX)] {
                if words.len() / 4 + tail.is_some() as usize > portable::SHORT_WORDS {
                    continue;
                }
                for head in [0, 4, words.len() / 4 / 4 * 4] {
                    for cols in &cols_set {
                        assert_eq!(
                            short_from_columns(&sp, &words, tail, head, cols),
                            short_from(&sp, &words, tail, head, columns_mod_p(cols)),
                            "r {r:#x}, {} words, head {head}, tail {tail:?}, cols {cols:x?}",
                            words.len() / 4
                        );
                    }
                }
            }
        }
    }
}
