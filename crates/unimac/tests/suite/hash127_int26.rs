//! The radix-2^26 integer backend of hash127 (`hash127/int26.rs`, the
//! paper's section 7): exact against a big-integer model on random and
//! extreme inputs, equal to the portable backend, streaming equal to
//! one-shot, every known answer of the shared vector files, and the headroom
//! argument (the paper's inequality, the documented limb bounds, and the
//! arithmetic on extreme limbs).

use crate::common;
use common::{hash127_model, key_bytes, key_words, p127, pad4, skipped, words_of};
use num_bigint::BigInt;
use num_integer::Integer;
use rand::{RngExt, SeedableRng};
use unimac::unstable::hazmat::hash127::int26::{self, Elem, BLOCK, BLOCK_BOUND, LIMBS, S, SQUEEZE_IN};
use unimac::unstable::hash127::{hash127_int26, hash127_on, Hash127, Key, CHUNK_BYTES};
use unimac::Platform;

const NO_THREADS: usize = usize::MAX;

fn word_bytes(words: impl IntoIterator<Item = i32>) -> Vec<u8> {
    words.into_iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn random_bytes(rng: &mut impl rand::Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.random()).collect()
}

/// One-shot and streamed int26, against the model (when `model`) and the
/// portable backend, both `hash127` and `hash127-raw`.
fn check(key: &[u8; 32], msg: &[u8], model: bool) {
    let kk = Key::new(key);
    let got_pad = hash127_int26(&kk, msg, true, NO_THREADS).unwrap();
    let got_raw = hash127_int26(&kk, msg, false, NO_THREADS);
    let port = Platform::portable();
    assert_eq!(Some(got_pad), hash127_on(port, &kk, msg, true, NO_THREADS), "vs portable, len {}", msg.len());
    assert_eq!(got_raw, hash127_on(port, &kk, msg, false, NO_THREADS), "raw vs portable, len {}", msg.len());
    // The `u128` kernel on its own (the portable backend takes int26 for
    // bulk data, so it is not independent of it beyond a few KiB).
    assert_eq!(got_pad, u128_horner(key, &pad4(msg)), "vs u128 Horner, len {}", msg.len());
    if model {
        let (r, k) = key_words(key);
        assert_eq!(got_pad, hash127_model(r, k, &words_of(&pad4(msg))), "vs model, len {}", msg.len());
        if msg.len().is_multiple_of(4) {
            assert_eq!(got_raw, Some(hash127_model(r, k, &words_of(msg))), "raw vs model, len {}", msg.len());
        }
    }
    let mut h = Hash127::new_int26(&kk);
    assert_eq!(h.backend(), "int26");
    h.update(msg);
    assert_eq!(h.finalize(), got_pad, "streamed, len {}", msg.len());
}

/// hash127-raw of `bytes` (whole words) by `portable.rs`'s `u128` Horner rule.
fn u128_horner(key: &[u8; 32], bytes: &[u8]) -> [u8; 16] {
    use unimac::unstable::hash127::words_mod_p;
    use unimac::unstable::hazmat::hash127::portable;
    let (r, k) = key_words(key);
    let r = words_mod_p(r);
    let acc = portable::horner_bytes(1, r, bytes);
    portable::add_mod(portable::mul_mod(acc, r), words_mod_p(k)).to_le_bytes()
}

fn extreme_keys() -> Vec<[u8; 32]> {
    let vals = [i32::MIN, i32::MAX, 0, -1, 1];
    let mut keys = Vec::new();
    for &a in &vals {
        for &b in &vals {
            keys.push(key_bytes([a, b, a, b], [b, a, b, a]));
            keys.push(key_bytes([a; 4], [b; 4]));
        }
    }
    // r = p − 1 ≡ −1 and r = 2^127 (≡ 1) in signed words.
    keys.push(key_bytes([-2, -1, -1, i32::MAX], [0; 4]));
    keys.push(key_bytes([0, 0, 0, i32::MIN], [-1; 4]));
    keys
}

#[test]
fn every_length_to_300_bytes_random_and_extreme() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(26);
    let mut keys: Vec<[u8; 32]> = (0..3).map(|_| rng.random()).collect();
    keys.extend(extreme_keys().into_iter().step_by(7));
    for key in &keys {
        for len in 0..=300 {
            check(key, &random_bytes(&mut rng, len), true);
        }
    }
}

#[test]
fn extreme_words_and_keys() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(127);
    for key in extreme_keys() {
        for fill in [i32::MIN, i32::MAX, 0, -1] {
            for words in [0, 1, 2, 3, 4, 5, 75, 95, 96, 97, 98, 193, 194, 195, 300, 432, 433, 1000] {
                let msg = word_bytes(std::iter::repeat_n(fill, words));
                check(&key, &msg, words <= 433);
                // A partial word after them.
                let mut m = msg.clone();
                m.extend_from_slice(&[0xff, 0x7f][..rng.random_range(1..=2)]);
                check(&key, &m, words <= 433);
            }
        }
        // Alternating extremes.
        let msg = word_bytes((0..400).map(|i| if i % 2 == 0 { i32::MIN } else { i32::MAX }));
        check(&key, &msg, true);
    }
}

#[test]
fn large_messages() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let key: [u8; 32] = rng.random();
    for len in [4 * BLOCK * 40 + 3, CHUNK_BYTES * 3, CHUNK_BYTES * 3 + 4 * BLOCK - 1, 20_000] {
        check(&key, &random_bytes(&mut rng, len), true);
    }
    for len in [(1 << 20) + 7, 3 << 20] {
        check(&key, &random_bytes(&mut rng, len), false);
        check(&key, &vec![0x80; len], false);
        check(&key, &word_bytes(std::iter::repeat_n(i32::MIN, len / 4)), false);
    }
}

#[test]
fn streaming_any_chunking() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    let key: [u8; 32] = rng.random();
    let kk = Key::new(&key);
    for len in [0, 1, 7, 388, 389, 1000, CHUNK_BYTES - 1, CHUNK_BYTES + 1, 3 * CHUNK_BYTES + 17, 50_000] {
        let msg = random_bytes(&mut rng, len);
        let one = hash127_int26(&kk, &msg, true, NO_THREADS).unwrap();
        let raw = hash127_int26(&kk, &msg, false, NO_THREADS);
        // Every split point (for the shorter ones), then random pieces.
        if len <= 2000 {
            for cut in 0..=len {
                let mut h = Hash127::new_int26(&kk);
                h.update(&msg[..cut]);
                h.update(&msg[cut..]);
                assert_eq!(h.finalize(), one, "len {len} cut {cut}");
            }
        }
        for _ in 0..20 {
            let mut h = Hash127::new_int26(&kk);
            let mut g = Hash127::new_int26(&kk);
            let mut at = 0;
            while at < len {
                let n = rng.random_range(0..=(len - at).min(3 * CHUNK_BYTES));
                h.update(&msg[at..at + n]);
                g.update(&msg[at..at + n]);
                at += n;
            }
            assert_eq!(h.finalize(), one, "len {len}");
            assert_eq!(g.finalize_raw().ok(), raw, "raw len {len}");
        }
    }
}

#[test]
fn threads_equal_one_thread() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let key: [u8; 32] = rng.random();
    let kk = Key::new(&key);
    let msg = random_bytes(&mut rng, 9 * CHUNK_BYTES + 5);
    let one = hash127_int26(&kk, &msg, true, NO_THREADS).unwrap();
    // Whatever threads the application allows, the value is the same.
    assert_eq!(hash127_int26(&kk, &msg, true, 0).unwrap(), one);
    let mut h = Hash127::new_int26(&kk).parallel_min(0);
    h.update(&msg);
    assert_eq!(h.finalize(), one);
}

/// The shared vector files, when the checkout has them next to it.
fn shared(file: &str) -> Option<String> {
    let path = format!("{}/../../../shared/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) => {
            skipped(file, &format!("no {path} ({})", e.kind()));
            None
        }
    }
}

#[test]
fn shared_hash127_jsonl() {
    let Some(text) = shared("hash127.jsonl") else { return };
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let f = v["fn"].as_str().unwrap();
        let key: [u8; 32] = hex::decode(v["key"].as_str().unwrap()).unwrap().try_into().unwrap();
        let msg = hex::decode(v["msg"].as_str().unwrap()).unwrap();
        let out = v["out"].as_str().unwrap().to_ascii_lowercase();
        let kk = Key::new(&key);
        let got = match f {
            "hash127" => hash127_int26(&kk, &msg, true, NO_THREADS),
            "hash127-raw" => hash127_int26(&kk, &msg, false, NO_THREADS),
            other => panic!("unexpected fn {other}"),
        };
        assert_eq!(got.map(hex::encode), Some(out), "{line}");
        n += 1;
    }
    assert_eq!(n, 60);
    println!("hash127.jsonl: {n} passed on int26");
}

#[test]
fn shared_hash127_accuracy_exp() {
    let Some(text) = shared("hash127-accuracy.exp") else { return };
    let key = Key::from_words(unimac::vectors::ACCURACY_R, unimac::vectors::ACCURACY_K);
    let mut n = 0;
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let body = line.split_once(':').map_or(line, |(_, b)| b);
        let want: Vec<u32> = body.split_whitespace().map(|w| w.parse().unwrap()).collect();
        let msg = word_bytes(unimac::vectors::accuracy_message(i));
        let out = hash127_int26(&key, &msg, false, NO_THREADS).unwrap();
        let got: Vec<u32> = out.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(got, want, "line {}", i + 1);
        n += 1;
    }
    assert_eq!(n, 2000);
    println!("hash127-accuracy.exp: {n} passed on int26");
}

// ---- The headroom argument ----

/// The paper's section 7: `29·2^56·2^(26j) + 96·1.01·2^31·2^25·2^(26j)`
/// is below `2^63·2^(26j)` (the factor `2^(26j)` is common, so `j = 0`
/// suffices), checked exactly (scaled by 100) and in `f64`.
#[test]
fn paper_inequality() {
    let lhs100: u128 = 29 * 100 * (1 << 56) + 96 * 101 * (1u128 << 31) * (1 << 25);
    let rhs100: u128 = 100 * (1 << 63);
    assert!(lhs100 < rhs100, "{lhs100} vs {rhs100}");
    // The margin: 125.96·2^56 against 128·2^56.
    assert_eq!(lhs100, 12596 * (1u128 << 56));
    let lhs = 29.0 * 2f64.powi(56) + 96.0 * 1.01 * 2f64.powi(31) * 2f64.powi(25);
    assert!(lhs < 2f64.powi(63));
    // And the paper's "comfortably below 2^64".
    assert!(lhs < 0.5 * 2f64.powi(64));
}

/// This backend's documented bound (`int26::block_bound`): the same shape as
/// the paper's, with its own limb bounds; every entry is below 2^63 with
/// room for the squeeze's carries, and the product part is within the
/// paper's `29·2^56` (scaled to limb `j`).
#[test]
fn documented_bound_below_2_63() {
    let words_part = |j: usize| (BLOCK as u128 - 1) * (1 << 31) * S[j] as u128;
    for (j, &u) in BLOCK_BOUND.iter().enumerate() {
        assert!(u <= SQUEEZE_IN as u128 && u < 1 << 63, "limb {j}: {u}");
        let prod_part = u - words_part(j);
        assert!(prod_part <= 29 << 56, "limb {j}: product part {prod_part}");
        println!(
            "limb {j}: product part {:.3}·2^56, block sum {:.3}·2^56 (2^63 = 128·2^56)",
            prod_part as f64 / 2f64.powi(56),
            u as f64 / 2f64.powi(56)
        );
    }
    // The paper's words part, 96·1.01·2^31·2^25, bounds ours: |c_(i,j)| ≤ S[j] ≤ 1.01·2^25.
    assert!(S.iter().all(|&s| 100 * s as u128 <= 101 << 25));
}

fn to_big(v: &Elem) -> BigInt {
    v.iter().enumerate().map(|(j, &x)| BigInt::from(x) << (26 * j)).sum()
}

/// Every vertex of the box of inputs a block can see: `a` with `|a_0| ≤
/// S_0 + 2^31` (a word added) and `|a_j| ≤ S_j`, the power `c` with
/// `|c_k| ≤ S_k`, each at either sign of its bound (2^10 vertices). The
/// limbs `t_j` are multilinear in the inputs, so their extreme values over
/// the box are taken at vertices: the largest `|t_j|` found, plus 96 words
/// `±2^31` times table limbs `∓S_j`, must reach exactly (never exceed)
/// `BLOCK_BOUND[j]`, and `prod`'s `i64` arithmetic (overflow-checked in
/// debug builds) must equal the `i128` one everywhere.
#[test]
fn extreme_limbs_stay_in_bound() {
    let a_max: [i64; LIMBS] = core::array::from_fn(|j| S[j] as i64 + if j == 0 { 1 << 31 } else { 0 });
    let c_max: [i64; LIMBS] = core::array::from_fn(|j| S[j] as i64);
    let mut worst = [0u128; LIMBS];
    for signs in 0u32..1 << (2 * LIMBS) {
        let sg = |bit: usize| if signs >> bit & 1 == 1 { -1 } else { 1 };
        let a: Elem = core::array::from_fn(|j| sg(j) * a_max[j]);
        let c: Elem = core::array::from_fn(|j| sg(LIMBS + j) * c_max[j]);
        let t = int26::prod(&a, &c);
        for j in 0..LIMBS {
            let mut want = 0i128;
            for (i, &ai) in a.iter().enumerate() {
                for (k, &ck) in c.iter().enumerate() {
                    let x = ai as i128 * ck as i128;
                    if i + k == j {
                        want += x;
                    } else if i + k == j + LIMBS {
                        want += 8 * x;
                    }
                }
            }
            assert_eq!(t[j] as i128, want);
            worst[j] = worst[j].max(want.unsigned_abs());
        }
        // The same limbs as an element: the product is right mod p.
        let p = p127();
        assert_eq!(to_big(&t).mod_floor(&p), (to_big(&a) * to_big(&c)).mod_floor(&p));
    }
    for j in 0..LIMBS {
        let full = worst[j] + (BLOCK as u128 - 1) * (1 << 31) * S[j] as u128;
        assert_eq!(full, BLOCK_BOUND[j], "limb {j}: the bound is reached, not exceeded");
        // The block's sum at that extreme, in i64 (checked) then squeezed.
        let mut u = worst[j] as i64;
        for _ in 0..BLOCK - 1 {
            u += i32::MIN as i64 * -(S[j] as i64);
        }
        assert_eq!(u as u128, full);
        let mut e = [0i64; LIMBS];
        e[j] = u;
        let v = int26::squeeze(e);
        assert!(v.iter().zip(S).all(|(x, s)| x.unsigned_abs() <= s), "{v:?}");
        assert_eq!(to_big(&v).mod_floor(&p127()), to_big(&e).mod_floor(&p127()));
        e[j] = -u;
        let v = int26::squeeze(e);
        assert!(v.iter().zip(S).all(|(x, s)| x.unsigned_abs() <= s), "{v:?}");
        assert_eq!(to_big(&v).mod_floor(&p127()), to_big(&e).mod_floor(&p127()));
    }
}

/// `squeeze` on all 2^5 vertices of `|u_j| ≤ SQUEEZE_IN` (and random limbs):
/// output within `S`, same value mod p; `freeze` gives the value in `[0, p−1]`.
#[test]
fn squeeze_and_freeze_extremes() {
    let p = p127();
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let mut inputs: Vec<Elem> = (0u32..32)
        .map(|s| core::array::from_fn(|j| if s >> j & 1 == 1 { -(SQUEEZE_IN as i64) } else { SQUEEZE_IN as i64 }))
        .collect();
    inputs.extend((0..2000).map(|_| core::array::from_fn(|_| rng.random_range(-(SQUEEZE_IN as i64)..=SQUEEZE_IN as i64))));
    for u in inputs {
        let v = int26::squeeze(u);
        assert!(v.iter().zip(S).all(|(x, s)| x.unsigned_abs() <= s), "{u:?} -> {v:?}");
        let want = to_big(&u).mod_floor(&p);
        assert_eq!(to_big(&v).mod_floor(&p), want);
        assert_eq!(BigInt::from(int26::freeze(v)), want);
    }
    // freeze at and around 0, p and 2^127 (including the limbs of p itself,
    // which must come out as 0), and at the extremes of squeezed limbs.
    let mut vals: Vec<u128> = vec![0, 1, unimac::unstable::hash127::P - 1, unimac::unstable::hash127::P];
    vals.extend((0..100).map(|_| rng.random::<u128>() >> 1));
    for x in vals {
        let limbs: Elem = core::array::from_fn(|j| ((x >> (26 * j)) & ((1 << 26) - 1)) as i64);
        assert_eq!(BigInt::from(int26::freeze(limbs)), BigInt::from(x).mod_floor(&p), "{x}");
        assert_eq!(BigInt::from(int26::freeze(int26::from_u128(x))), BigInt::from(x).mod_floor(&p));
    }
    for s in 0u32..32 {
        let v: Elem = core::array::from_fn(|j| if s >> j & 1 == 1 { -(S[j] as i64) } else { S[j] as i64 });
        assert_eq!(BigInt::from(int26::freeze(v)), to_big(&v).mod_floor(&p));
        // A squeezed element plus the limbs of p − 1 (what `finish` adds).
        let k = int26::from_u128(unimac::unstable::hash127::P - 1);
        let w: Elem = core::array::from_fn(|j| v[j] + k[j]);
        assert_eq!(BigInt::from(int26::freeze(w)), to_big(&w).mod_floor(&p));
    }
}

#[test]
fn mul_matches_bigint() {
    let p = p127();
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    for _ in 0..5000 {
        let (x, y) = (rng.random::<u128>() >> 1, rng.random::<u128>() >> 1);
        let (a, b) = (int26::from_u128(x), int26::from_u128(y));
        let got = int26::freeze(int26::mul(&a, &b));
        assert_eq!(BigInt::from(got), (BigInt::from(x) * BigInt::from(y)).mod_floor(&p));
    }
}

// ---- Measurements (ignored by default; run in release) ----

fn bench_message(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i as u32).wrapping_mul(2654435761) as u8).collect()
}

const BENCH_KEY: [u8; 32] = {
    let mut k = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        k[i] = (i as u8).wrapping_mul(37).wrapping_add(11);
        i += 1;
    }
    k
};

/// One hash of `msg` on `which` (`"int26"`, `"portable"` or `"default"`).
fn run_one(which: &str, key: &Key, msg: &[u8]) -> [u8; 16] {
    match which {
        "int26" => hash127_int26(key, msg, true, NO_THREADS).unwrap(),
        "portable" => hash127_on(Platform::portable(), key, msg, true, NO_THREADS).unwrap(),
        "default" => unimac::unstable::hash127::hash127(key, msg),
        "u128" => {
            // `portable.rs`'s four-words-per-reduction kernel alone.
            use unimac::unstable::hash127::words_mod_p;
            use unimac::unstable::hazmat::hash127::portable;
            let (r, k) = key_words(&BENCH_KEY);
            let pw = portable::Powers::new(words_mod_p(r));
            let (whole, tail) = msg.split_at(msg.len() / 4 * 4);
            let v = portable::absorb(words_mod_p(r), &pw, whole);
            let mut last = [0u8; 4];
            last[..tail.len()].copy_from_slice(tail);
            last[tail.len()] = 1;
            let v = portable::absorb(v, &pw, &last);
            portable::add_mod(v, words_mod_p(k)).to_le_bytes()
        }
        other => panic!("unknown backend {other}"),
    }
}

/// Least wall time of interleaved runs of the integer and the portable
/// backends (and the default dispatch, which is the portable one under
/// `UNIMAC_FORCE_PORTABLE=1`) on 64 B, 1 KiB and 1 MiB, one thread.
/// Run: `cargo test --release -p unimac --test suite -- --ignored --nocapture hash127_int26::timing`.
#[test]
#[ignore]
fn timing() {
    use std::time::Instant;
    let key_bytes = BENCH_KEY;
    let key = Key::new(&key_bytes);
    key.precompute();
    // Build the int26 table and the short path's powers before timing.
    for which in ["int26", "portable", "default", "default", "u128"] {
        run_one(which, &key, &[0; 64]);
    }
    println!("default dispatch: {:?}", unimac::Platform::detect());
    for &n in &[64usize, 1024, 1 << 20] {
        let m = bench_message(n);
        let reps = (4 << 20) / n.max(256);
        let mut best = [f64::MAX; 4];
        let names = ["int26", "portable", "default", "u128"];
        for _round in 0..if n >= 1 << 20 { 15 } else { 40 } {
            for (b, which) in names.iter().enumerate() {
                let t = Instant::now();
                for _ in 0..reps {
                    std::hint::black_box(run_one(which, &key, std::hint::black_box(&m)));
                }
                best[b] = best[b].min(t.elapsed().as_secs_f64() / reps as f64);
            }
        }
        let line: Vec<String> = names
            .iter()
            .zip(best)
            .map(|(w, s)| format!("{w} {:.1} ns ({:.2} GiB/s)", s * 1e9, n as f64 / s / (1u64 << 30) as f64))
            .collect();
        println!("{n:>8} B: {} | int26/u128 time {:.2}", line.join(", "), best[0] / best[3]);
    }
    // A new key per 64-byte message: int26 builds its 97 powers each time.
    let m = bench_message(64);
    let mut best = [f64::MAX; 2];
    for _ in 0..40 {
        for (b, which) in ["int26", "portable"].iter().enumerate() {
            let t = Instant::now();
            for _ in 0..2000 {
                let k = Key::new(std::hint::black_box(&key_bytes));
                std::hint::black_box(run_one(which, &k, &m));
            }
            best[b] = best[b].min(t.elapsed().as_secs_f64() / 2000.0);
        }
    }
    println!("new key + 64 B: int26 {:.1} ns, portable {:.1} ns", best[0] * 1e9, best[1] * 1e9);
}

/// For `valgrind --tool=callgrind`: `INT26_COUNT=backend,bytes,iterations`
/// hashes that many times (run with 1 and with 11 iterations; the
/// difference over 10 is the instruction count of one hash).
#[test]
#[ignore]
fn count() {
    let Ok(spec) = std::env::var("INT26_COUNT") else {
        skipped("", "INT26_COUNT=backend,bytes,iterations not set");
        return;
    };
    let f: Vec<&str> = spec.split(',').collect();
    let (which, n, iters): (&str, usize, usize) = (f[0], f[1].parse().unwrap(), f[2].parse().unwrap());
    let key = Key::new(&BENCH_KEY);
    let m = bench_message(n);
    // Warm-up: the per-key tables, built once.
    run_one(which, &key, &m[..n.min(64)]);
    run_one(which, &key, &m[..n.min(64)]);
    for _ in 0..iters {
        std::hint::black_box(run_one(which, &key, std::hint::black_box(&m)));
    }
}
