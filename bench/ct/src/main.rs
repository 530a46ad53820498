//! dudect-style constant-time tests (Reparaz, Balasch, Verbauwhede, "Dude,
//! is my code constant time?"): each test times one operation on inputs of
//! two classes that differ only in a secret, the message and every public
//! length being the same, and reports Welch's t between the two timing
//! distributions. |t| > 4.5 is suspicious, |t| > 10 a leak to investigate.
//!
//! Run: `cargo run --release --manifest-path bench/ct/Cargo.toml`
//! (add `-- --filter NAME` to run the tests whose name contains NAME, or
//! `-- --continuous NAME` to keep sampling the first of them, N samples a
//! round, until interrupted).

use dudect_bencher::rand::seq::SliceRandom;
use dudect_bencher::rand::{Rng, RngCore};
use dudect_bencher::{ctbench_main, BenchRng, Class, CtRunner};
use unimac::unstable::registry::{self, NamedMac, Params};

/// Samples per test and run.
const N: usize = 100_000;
/// One message for every test (64 bytes: a multiple of every element size).
const MSG: [u8; 64] = [0x5a; 64];

fn random(rng: &mut BenchRng, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill_bytes(&mut v);
    v
}

/// Time `registry::compute(name)` on MSG, the key drawn by `left` or by
/// `right` (with a random class order).
fn keys(runner: &mut CtRunner, rng: &mut BenchRng, name: &str, left: &dyn Fn(&mut BenchRng) -> Vec<u8>, right: &dyn Fn(&mut BenchRng) -> Vec<u8>) {
    keys_msg(runner, rng, name, &MSG, left, right)
}

/// [`keys`] on the message `msg`.
fn keys_msg(runner: &mut CtRunner, rng: &mut BenchRng, name: &str, msg: &[u8], left: &dyn Fn(&mut BenchRng) -> Vec<u8>, right: &dyn Fn(&mut BenchRng) -> Vec<u8>) {
    let info = &registry::lookup(name).expect("a SPEC name").info;
    let nonce = vec![7u8; info.nonce];
    let op = |k: &[u8]| {
        let p = Params { key: k, nonce: (info.nonce > 0).then_some(&nonce[..]), len: None };
        registry::compute(name, &p, msg).expect("computes")
    };
    keys_op(runner, rng, &op, left, right)
}

/// Time `op(key)`, the key drawn by `left` or by `right` (with a random
/// class order).
fn keys_op<T>(runner: &mut CtRunner, rng: &mut BenchRng, op: &dyn Fn(&[u8]) -> T, left: &dyn Fn(&mut BenchRng) -> Vec<u8>, right: &dyn Fn(&mut BenchRng) -> Vec<u8>) {
    let mut inputs = Vec::with_capacity(N);
    for _ in 0..N {
        let (c, k) = if rng.gen::<bool>() { (Class::Left, left(rng)) } else { (Class::Right, right(rng)) };
        inputs.push((c, k));
    }
    for (c, k) in inputs {
        runner.run_one(c, || op(&k));
    }
}

/// hash127 (SPEC §1) of MSG with the key set-up included: the typed
/// `hash127::Key::new` and `hash127::hash127`, what the name `hash127` runs
/// (the registry serves that one-time name only to `OneTimeMac` and known
/// answers).
fn hash127_keys(runner: &mut CtRunner, rng: &mut BenchRng, left: &dyn Fn(&mut BenchRng) -> Vec<u8>, right: &dyn Fn(&mut BenchRng) -> Vec<u8>) {
    keys_op(runner, rng, &|k| unimac::unstable::hash127::hash127(&hash127_key(k), &MSG), left, right)
}

fn hash127_key(k: &[u8]) -> unimac::unstable::hash127::Key {
    unimac::unstable::hash127::Key::new(k.try_into().expect("a 32-byte hash127 key"))
}

/// Keys per class in a [`pool`].
const POOL: usize = 64;

/// As [`keys_op`], but the key set-up is done before timing: [`POOL`] keys
/// of each class are set up with `setup`, and only the per-message work
/// (`op` on a key drawn from the class's pool) is timed. The two classes'
/// keys are drawn and set up interleaved, in a random order, so neither
/// class's keyed objects are systematically allocated first, last or at
/// other addresses; the pools are made anew on every call (every round of
/// `--continuous`).
fn pool<K, T>(runner: &mut CtRunner, rng: &mut BenchRng, setup: &dyn Fn(&[u8]) -> K, op: &dyn Fn(&K) -> T, left: &dyn Fn(&mut BenchRng) -> Vec<u8>, right: &dyn Fn(&mut BenchRng) -> Vec<u8>) {
    let mut order: Vec<usize> = (0..2 * POOL).map(|i| i % 2).collect();
    order.shuffle(rng);
    let mut pools: [Vec<K>; 2] = [Vec::with_capacity(POOL), Vec::with_capacity(POOL)];
    for side in order {
        let key = if side == 0 { left(rng) } else { right(rng) };
        pools[side].push(setup(&key));
    }
    let mut inputs = Vec::with_capacity(N);
    for _ in 0..N {
        let side = usize::from(rng.gen::<bool>());
        inputs.push((side, rng.gen_range(0..POOL)));
    }
    for (side, i) in inputs {
        let c = if side == 0 { Class::Left } else { Class::Right };
        let k = &pools[side][i];
        runner.run_one(c, || op(k));
    }
}

/// [`pool`] of `registry::key(name)` objects, timing `Keyed::compute` on MSG.
fn keyed_pool(runner: &mut CtRunner, rng: &mut BenchRng, name: &str, left: &dyn Fn(&mut BenchRng) -> Vec<u8>, right: &dyn Fn(&mut BenchRng) -> Vec<u8>) {
    let setup = |k: &[u8]| registry::key(name, &Params { key: k, nonce: None, len: None }).expect("keys");
    pool(runner, rng, &setup, &|k| k.compute(None, &MSG).expect("computes"), left, right)
}

/// [`pool`] of hash127 keys (`hash127::Key::new`, powers of `r` expanded),
/// timing `hash127::hash127` on MSG.
fn hash127_pool(runner: &mut CtRunner, rng: &mut BenchRng, left: &dyn Fn(&mut BenchRng) -> Vec<u8>, right: &dyn Fn(&mut BenchRng) -> Vec<u8>) {
    pool(runner, rng, &hash127_key, &|k| unimac::unstable::hash127::hash127(k, &MSG), left, right)
}

fn r_low(rng: &mut BenchRng) -> Vec<u8> {
    let mut k = random(rng, 32);
    k[..16].fill(0);
    k[0] = 1 << rng.gen_range(0..8);
    k
}

fn r_high(rng: &mut BenchRng) -> Vec<u8> {
    let mut k = random(rng, 32);
    k[..16].fill(0xff);
    k[15] = 0x7f;
    k
}

/// hash127 per message (key set up beforehand): `r` of weight 1 vs high weight.
fn hash127_msg_r_weight(runner: &mut CtRunner, rng: &mut BenchRng) {
    hash127_pool(runner, rng, &r_low, &r_high)
}

/// hash127 per message: weight-1 `r` vs uniform `r`.
fn hash127_msg_r_low_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    hash127_pool(runner, rng, &r_low, &|rng| random(rng, 32))
}

/// hash127 per message, two pools of uniformly random keys (a control: the
/// two pools differ only in where their keys sit in memory).
fn hash127_msg_control(runner: &mut CtRunner, rng: &mut BenchRng) {
    hash127_pool(runner, rng, &|rng| random(rng, 32), &|rng| random(rng, 32))
}

/// modp per message (the key's primality check done beforehand): `2^127 - 1`
/// vs another prime.
fn modp_msg_prime(runner: &mut CtRunner, rng: &mut BenchRng) {
    let mersenne = |_: &mut BenchRng| {
        let mut k = vec![0xff; 16];
        k[15] = 0x7f;
        k
    };
    keyed_pool(runner, rng, "modp", &mersenne, &|_| unimac_hex("57ad381a88b75b7480475d1496e591e8"))
}

/// `NamedMac::verify` (hash127-aes) of MSG, each class's tag the right one
/// (`None`) or the right one with byte `i` changed (`Some(i)`). Each call's
/// result is its `is_ok()` (a wrong tag is refused with an `Err`, not a
/// panic).
fn verify_classes(runner: &mut CtRunner, rng: &mut BenchRng, left: Option<usize>, right: Option<usize>) {
    let m = NamedMac::new("hash127-aes", &[3u8; 32]).expect("key");
    let tag = m.tag(None, &MSG).expect("tag");
    let mut inputs = Vec::with_capacity(N);
    for _ in 0..N {
        let (c, at) = if rng.gen::<bool>() { (Class::Left, left) } else { (Class::Right, right) };
        let mut t = tag.clone();
        if let Some(i) = at {
            t[i] ^= 1;
        }
        inputs.push((c, t));
    }
    for (c, t) in inputs {
        runner.run_one(c, || m.verify(None, &MSG, &t).is_ok());
    }
}

/// `NamedMac::verify` with the right tag vs a tag wrong at byte `at` (the
/// last byte if `None`).
fn verify_at(runner: &mut CtRunner, rng: &mut BenchRng, at: Option<usize>) {
    verify_classes(runner, rng, None, Some(at.unwrap_or(15)))
}

/// `NamedMac::verify`, both tags wrong: in the first byte vs in the last
/// (where a comparison that stops early would differ).
fn verify_first_vs_last_byte(runner: &mut CtRunner, rng: &mut BenchRng) {
    verify_classes(runner, rng, Some(0), Some(15))
}

/// `verify_tag` alone: equal vs differing in the first byte.
fn verify_tag_first(runner: &mut CtRunner, rng: &mut BenchRng) {
    let a = random(rng, 16);
    let mut inputs = Vec::with_capacity(N);
    for _ in 0..N {
        let mut b = a.clone();
        let c = if rng.gen::<bool>() { Class::Left } else { b[0] ^= 0x80; Class::Right };
        inputs.push((c, b));
    }
    for (c, b) in inputs {
        runner.run_one(c, || unimac::verify_tag(&a, &b).is_ok());
    }
}

fn verify_first_byte(runner: &mut CtRunner, rng: &mut BenchRng) {
    verify_at(runner, rng, Some(0))
}

fn verify_last_byte(runner: &mut CtRunner, rng: &mut BenchRng) {
    verify_at(runner, rng, None)
}

/// hash127: `r` of Hamming weight 1 vs about 128 ones (k random).
fn hash127_r_weight(runner: &mut CtRunner, rng: &mut BenchRng) {
    let low = |rng: &mut BenchRng| {
        let mut k = random(rng, 32);
        k[..16].fill(0);
        k[0] = 1 << rng.gen_range(0..8);
        k
    };
    let high = |rng: &mut BenchRng| {
        let mut k = random(rng, 32);
        k[..16].fill(0xff);
        k[15] = 0x7f;
        k
    };
    hash127_keys(runner, rng, &low, &high)
}

/// hash127: `r` of Hamming weight 1 vs a uniformly random `r`.
fn hash127_r_low_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    let low = |rng: &mut BenchRng| {
        let mut k = random(rng, 32);
        k[..16].fill(0);
        k[0] = 1 << rng.gen_range(0..8);
        k
    };
    hash127_keys(runner, rng, &low, &|rng| random(rng, 32))
}

/// hash127: `r` with every bit set but the top one vs a uniformly random `r`.
fn hash127_r_high_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    let high = |rng: &mut BenchRng| {
        let mut k = random(rng, 32);
        k[..16].fill(0xff);
        k[15] = 0x7f;
        k
    };
    hash127_keys(runner, rng, &high, &|rng| random(rng, 32))
}

/// hash127: two uniformly random classes (a control: |t| must stay small).
fn hash127_control(runner: &mut CtRunner, rng: &mut BenchRng) {
    hash127_keys(runner, rng, &|rng| random(rng, 32), &|rng| random(rng, 32))
}

/// division64: a key `g` whose minimal polynomial has degree 1 (`g = 1`,
/// in the prime subfield) vs a random `g` (degree 64 but for a 2^-32 chance).
fn division64_minpoly_degree(runner: &mut CtRunner, rng: &mut BenchRng) {
    assert_eq!(unimac::unstable::hazmat::shoup::minpoly::berlekamp_massey(1).degree, 1);
    let len = registry::lookup("division64").expect("name").info.key.default_len().expect("fixed");
    let low = move |rng: &mut BenchRng| {
        let mut k = random(rng, len);
        k[..8].copy_from_slice(&1u64.to_le_bytes());
        k
    };
    let full = move |rng: &mut BenchRng| loop {
        let k = random(rng, len);
        let g = u64::from_le_bytes(k[..8].try_into().expect("8 bytes"));
        if unimac::unstable::hazmat::shoup::minpoly::berlekamp_massey(g).degree == 64 {
            return k;
        }
    };
    keys(runner, rng, "division64", &low, &full)
}

/// Square Hash sqh64-e: every key element all ones (next to `p`) vs random.
fn sqh64_e_key_near_p(runner: &mut CtRunner, rng: &mut BenchRng) {
    keys(runner, rng, "sqh64-e", &|_| vec![0xff; 64], &|rng| random(rng, 64))
}

/// MMH (mmh32x2): all-ones key vs random key.
fn mmh_key(runner: &mut CtRunner, rng: &mut BenchRng) {
    let len = registry::lookup("mmh32x2").expect("name").info.key.default_len().expect("fixed");
    // One block of mmh32x2 is 128 bytes.
    keys_msg(runner, rng, "mmh32x2", &[0x5a; 128], &move |_| vec![0xff; len], &move |rng| random(rng, len))
}

/// eval64 / eval128: key `1` vs random.
fn eval64_key(runner: &mut CtRunner, rng: &mut BenchRng) {
    let len = registry::lookup("eval64").expect("name").info.key.default_len().expect("fixed");
    let one = move |_: &mut BenchRng| {
        let mut k = vec![0u8; len];
        k[0] = 1;
        k
    };
    keys(runner, rng, "eval64", &one, &|rng| random(rng, len))
}

fn eval128_key(runner: &mut CtRunner, rng: &mut BenchRng) {
    let one = |_: &mut BenchRng| {
        let mut k = vec![0u8; 16];
        k[0] = 1;
        k
    };
    keys(runner, rng, "eval128", &one, &|rng| random(rng, 16))
}

/// modp: the prime `2^127 - 1` (all ones) vs another 128-bit prime.
fn modp_prime(runner: &mut CtRunner, rng: &mut BenchRng) {
    let mersenne = |_: &mut BenchRng| {
        let mut k = vec![0xff; 16];
        k[15] = 0x7f;
        k
    };
    let other = |_: &mut BenchRng| unimac_hex("57ad381a88b75b7480475d1496e591e8");
    keys(runner, rng, "modp", &mersenne, &other)
}

/// An AES-based MAC: hash127-aes with an all-zero key vs a random key.
fn aes_mac_key(runner: &mut CtRunner, rng: &mut BenchRng) {
    keys(runner, rng, "mac-hash127-aes", &|_| vec![0u8; 32], &|rng| random(rng, 32))
}

/// Words per sample in the UMAC POLY tests.
const WORDS: usize = 32;

/// UMAC's POLY64 step (L2 of messages over 1 024 bytes, one step per NH
/// output): a chain of [`WORDS`] steps on words that all take the marker
/// (`m ≥ 2^64 − 2^32`) vs uniformly random words (marked with probability
/// 2^-32), the key and the start value random in both classes.
fn umac_poly64_marker(runner: &mut CtRunner, rng: &mut BenchRng) {
    use unimac::unstable::hazmat::umac::poly::{poly64_step, MASK64, P64};
    let mut inputs = Vec::with_capacity(N);
    for _ in 0..N {
        let marked = rng.gen::<bool>();
        let k = rng.gen::<u64>() & MASK64;
        let y = rng.gen::<u64>() % P64;
        let words: [u64; WORDS] = core::array::from_fn(|_| if marked { 0xffff_ffff_0000_0000 | rng.gen::<u32>() as u64 } else { rng.gen() });
        inputs.push((if marked { Class::Left } else { Class::Right }, k, y, words));
    }
    for (c, k, y, words) in inputs {
        runner.run_one(c, || words.iter().fold(y, |y, &m| poly64_step(k, y, m)));
    }
}

/// As [`umac_poly64_marker`] for POLY128 (messages over 16 MiB):
/// `m ≥ 2^128 − 2^96` vs uniformly random words.
fn umac_poly128_marker(runner: &mut CtRunner, rng: &mut BenchRng) {
    use unimac::unstable::hazmat::umac::poly::{poly128_step, MASK128, P128};
    let mut inputs = Vec::with_capacity(N);
    for _ in 0..N {
        let marked = rng.gen::<bool>();
        let k = rng.gen::<u128>() & MASK128;
        let y = rng.gen::<u128>() % P128;
        let words: [u128; WORDS / 2] = core::array::from_fn(|_| if marked { (0xffff_ffffu128 << 96) | rng.gen::<u128>() >> 32 } else { rng.gen() });
        inputs.push((if marked { Class::Left } else { Class::Right }, k, y, words));
    }
    for (c, k, y, words) in inputs {
        runner.run_one(c, || words.iter().fold(y, |y, &m| poly128_step(k, y, m)));
    }
}

fn unimac_hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

ctbench_main!(
    verify_tag_first,
    verify_first_byte,
    verify_last_byte,
    verify_first_vs_last_byte,
    hash127_r_weight,
    hash127_r_low_vs_random,
    hash127_r_high_vs_random,
    hash127_control,
    hash127_msg_r_weight,
    hash127_msg_control,
    hash127_msg_r_low_vs_random,
    modp_msg_prime,
    division64_minpoly_degree,
    sqh64_e_key_near_p,
    mmh_key,
    eval64_key,
    eval128_key,
    modp_prime,
    aes_mac_key,
    umac_poly64_marker,
    umac_poly128_marker
);
