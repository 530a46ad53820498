//! hash127 against a big-integer model of docs/WIRE.md §2, on every backend this CPU
//! has: random and extreme keys and words, every length up to 400 words,
//! lengths around every chunk boundary, streaming split at every byte, and
//! the multi-threaded path against one thread.

use crate::common;
use unimac::unstable::prelude::*;
use common::{hash127_model, key_bytes, key_words, pad4, platforms, words_of};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use unimac::unstable::hash127::{hash127_on, Hash127, Key, CHUNK_BYTES};
use unimac::{Feature, Platform};

/// Every evidence worth testing: the variants of this CPU over the features
/// hash127 distinguishes (the portable one first, the full one last).
/// The evidence hash127 distinguishes.
const FAMILY: &[Feature] = &[Feature::Avx2Fma, Feature::Avx512];

const NO_THREADS: usize = usize::MAX;

/// Both functions on every backend, one-shot and streamed in one update,
/// must equal the model.
fn check(key: &[u8; 32], msg: &[u8]) {
    let (r, k) = key_words(key);
    let want_pad = hash127_model(r, k, &words_of(&pad4(msg)));
    let want_raw = msg.len().is_multiple_of(4).then(|| hash127_model(r, k, &words_of(msg)));
    let kk = Key::new(key);
    assert_eq!(unimac::unstable::hash127::hash127(&kk, msg), want_pad, "default hash127, len {}", msg.len());
    // Later short messages under the key take the short path (its powers are
    // built from the second short message on).
    assert_eq!(unimac::unstable::hash127::hash127(&kk, msg), want_pad, "default hash127, second message, len {}", msg.len());
    assert_eq!(unimac::unstable::hash127::hash127_raw(&kk, msg).ok(), want_raw, "default hash127-raw, len {}", msg.len());
    for b in platforms(FAMILY) {
        assert_eq!(hash127_on(b, &kk, msg, true, NO_THREADS), Some(want_pad), "{b:?} hash127 len {}", msg.len());
        assert_eq!(hash127_on(b, &kk, msg, false, NO_THREADS), want_raw, "{b:?} raw len {}", msg.len());
        let mut h = Hash127::new_on(b, &kk);
        h.update(msg);
        assert_eq!(h.finalize(), want_pad, "{b:?} streamed len {}", msg.len());
        let mut h = Hash127::new_on(b, &kk);
        h.update(msg);
        assert_eq!(h.finalize_raw().ok(), want_raw, "{b:?} streamed raw len {}", msg.len());
    }
}

fn random_bytes(rng: &mut impl Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.random()).collect()
}

fn word_bytes(words: impl IntoIterator<Item = i32>) -> Vec<u8> {
    words.into_iter().flat_map(|w| w.to_le_bytes()).collect()
}

const MIN: i32 = i32::MIN;
const MAX: i32 = i32::MAX;

/// Keys at the edges: r words at −2^31 / 2^31 − 1, and r ≡ 0, 1, p − 1 mod p
/// in several spellings (p = 2^127 − 1 is the words (−1, −1, −1, 2^31 − 1)).
fn extreme_keys() -> Vec<[u8; 32]> {
    let rs: [[i32; 4]; 10] = [
        [MIN; 4],
        [MAX; 4],
        [0; 4],
        [-1, -1, -1, MAX],   // r = p ≡ 0
        [1, 0, 0, 0],        // r = 1
        [0, 0, 0, MIN],      // r = −2^127 ≡ −1... ≡ p − 1
        [-1, 0, 0, 0],       // r = −1 ≡ p − 1
        [-2, -1, -1, MAX],   // r = p − 1
        [MIN, MAX, MIN, MAX],
        [MAX, MIN, MAX, MIN],
    ];
    let ks: [[i32; 4]; 3] = [[MIN; 4], [MAX; 4], [-1, -1, -1, MAX]];
    let mut out = Vec::new();
    for (i, r) in rs.iter().enumerate() {
        out.push(key_bytes(*r, ks[i % 3]));
    }
    out
}

/// Messages at the edges, `n` words long.
fn extreme_messages(n: usize) -> Vec<Vec<u8>> {
    vec![
        word_bytes(std::iter::repeat_n(MIN, n)),
        word_bytes(std::iter::repeat_n(MAX, n)),
        vec![0xff; 4 * n],
        word_bytes((0..n).map(|i| if i % 2 == 0 { MIN } else { MAX })),
        vec![0; 4 * n],
    ]
}

/// Word counts at and around every chunk boundary: the paper's 96/97, and
/// one, two and three of our chunks.
fn boundary_lengths() -> Vec<usize> {
    let c = CHUNK_BYTES / 4;
    let mut v = vec![95, 96, 97, 98];
    for k in 1..=3 {
        for d in [-2i64, -1, 0, 1, 2] {
            v.push(((k * c) as i64 + d) as usize);
        }
    }
    v
}

#[test]
fn every_length_to_400_words() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(127);
    for n in 0..=400 {
        let key: [u8; 32] = rng.random();
        check(&key, &random_bytes(&mut rng, 4 * n));
        // And a byte length that is not whole words.
        check(&key, &random_bytes(&mut rng, 4 * n + 1 + n % 3));
    }
}

#[test]
fn chunk_boundaries() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(97);
    for n in boundary_lengths() {
        let key: [u8; 32] = rng.random();
        for extra in 0..4 {
            check(&key, &random_bytes(&mut rng, 4 * n + extra));
        }
    }
}

#[test]
fn extreme_keys_and_words() {
    let mut lengths = vec![0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 100];
    lengths.extend(boundary_lengths());
    lengths.push(3 * CHUNK_BYTES / 4 + 50);
    for key in extreme_keys() {
        for &n in &lengths {
            for m in extreme_messages(n) {
                check(&key, &m);
            }
        }
    }
}

#[test]
fn streaming_split_at_every_byte() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let key: [u8; 32] = rng.random();
    let kk = Key::new(&key);
    for len in [0usize, 1, 5, 67, CHUNK_BYTES - 3, CHUNK_BYTES, CHUNK_BYTES + 1, 2 * CHUNK_BYTES + 6] {
        let msg = random_bytes(&mut rng, len);
        for b in platforms(FAMILY) {
            let want = hash127_on(b, &kk, &msg, true, NO_THREADS).unwrap();
            let want_raw = hash127_on(b, &kk, &msg, false, NO_THREADS);
            for split in 0..=len {
                let mut h = Hash127::new_on(b, &kk);
                h.update(&msg[..split]);
                h.update(&msg[split..]);
                assert_eq!(h.finalize(), want, "{b:?} len {len} split {split}");
                if split % 7 == 0 {
                    let mut h = Hash127::new_on(b, &kk);
                    h.update(&msg[..split]);
                    h.update(&[]);
                    h.update(&msg[split..]);
                    assert_eq!(h.finalize_raw().ok(), want_raw, "{b:?} raw len {len} split {split}");
                }
            }
        }
        let (r, k) = key_words(&key);
        assert_eq!(hash127_on(Platform::portable(), &kk, &msg, true, NO_THREADS).unwrap(), hash127_model(r, k, &words_of(&pad4(&msg))));
    }
}

#[test]
fn streaming_random_pieces() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for _ in 0..40 {
        let key: [u8; 32] = rng.random();
        let kk = Key::new(&key);
        let len = rng.random_range(0..5 * CHUNK_BYTES);
        let msg = random_bytes(&mut rng, len);
        let want = hash127_on(Platform::portable(), &kk, &msg, true, NO_THREADS).unwrap();
        for b in platforms(FAMILY) {
            let mut h = Hash127::new_on(b, &kk);
            let mut rest = &msg[..];
            while !rest.is_empty() {
                let n = rng.random_range(0..=rest.len().min(3 * CHUNK_BYTES));
                h.update(&rest[..n]);
                rest = &rest[n..];
            }
            assert_eq!(h.finalize(), want, "{b:?} len {len}");
        }
    }
}

#[test]
fn threads_equal_one_thread() {
    let _setting = crate::common::thread_setting();
    // Threads only when the application allows them.
    unimac::threads::set_max_threads(0);
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let key: [u8; 32] = rng.random();
    let kk = Key::new(&key);
    for len in [2 * CHUNK_BYTES, 7 * CHUNK_BYTES + 13, (9 << 20) + 5] {
        let msg = random_bytes(&mut rng, len);
        for b in platforms(FAMILY) {
            let one = hash127_on(b, &kk, &msg, true, NO_THREADS).unwrap();
            // par_min 0: every slice of at least two chunks is split.
            assert_eq!(hash127_on(b, &kk, &msg, true, 0).unwrap(), one, "{b:?} len {len}");
            let mut h = Hash127::new_on(b, &kk).parallel_min(0);
            h.update(&msg[..5]);
            h.update(&msg[5..]);
            assert_eq!(h.finalize(), one, "{b:?} streamed len {len}");
            // The default threshold (4 MiB) on the large one.
            assert_eq!(unimac::unstable::hash127::hash127(&kk, &msg), one);
        }
        if len < 1 << 20 {
            let (r, k) = key_words(&key);
            assert_eq!(hash127_on(Platform::portable(), &kk, &msg, true, 0).unwrap(), hash127_model(r, k, &words_of(&pad4(&msg))));
        }
    }
    // Back to the default: the other modules' tests share this process.
    unimac::threads::set_max_threads(1);
}

#[test]
fn word_api_matches_bytes() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for n in [0usize, 1, 9, 433, 900] {
        let (r, k): ([i32; 4], [i32; 4]) = (rng.random(), rng.random());
        let m: Vec<i32> = (0..n).map(|_| rng.random()).collect();
        let key = Key::from_words(r, k);
        let got = unimac::unstable::hash127::hash127_words(&key, &m);
        let want = hash127_model(r, k, &m);
        let want: [u32; 4] = core::array::from_fn(|i| u32::from_le_bytes(want[4 * i..4 * i + 4].try_into().unwrap()));
        assert_eq!(got, want, "{n} words");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_keys_and_messages(key in any::<[u8; 32]>(), msg in proptest::collection::vec(any::<u8>(), 0..3 * CHUNK_BYTES)) {
        check(&key, &msg);
    }

    #[test]
    fn words_near_the_edges(
        r in any::<[i32; 4]>(), k in any::<[i32; 4]>(),
        m in proptest::collection::vec(prop_oneof![Just(MIN), Just(MAX), Just(-1), Just(0), any::<i32>()], 0..1000),
    ) {
        check(&key_bytes(r, k), &word_bytes(m));
    }
}

/// A new key starts short messages on the portable path and builds its
/// table once a message, or the key's total, reaches LAZY_BYTES; the values
/// never change across the switch.
#[test]
fn lazy_table_switch() {
    use unimac::unstable::hash127::LAZY_BYTES;
    let mut rng = rand::rngs::StdRng::seed_from_u64(16);
    let fast = *platforms(FAMILY).last().unwrap();
    // One stream crossing the threshold in odd-sized updates.
    let key_b: [u8; 32] = rng.random();
    let msg = random_bytes(&mut rng, 2 * LAZY_BYTES + 77);
    let want = hash127_on(Platform::portable(), &Key::new(&key_b), &msg, true, NO_THREADS).unwrap();
    let key = Key::new(&key_b);
    let mut h = Hash127::new(&key);
    // The floating-point backends wait for the table; the portable state
    // (and NEON's columns, built in a microsecond) start at once.
    let portable_state = ["portable", "neon"];
    assert!(portable_state.contains(&h.backend()), "{}", h.backend());
    for piece in msg.chunks(1001) {
        h.update(piece);
    }
    let detected = {
        let k = Key::new(&key_b);
        k.precompute();
        Hash127::new(&k).backend()
    };
    assert_eq!(h.backend(), detected);
    assert_eq!(h.finalize(), want);
    // Many short messages under one key: the key's total builds the table.
    let key_b: [u8; 32] = rng.random();
    let key = Key::new(&key_b);
    let model = Key::new(&key_b);
    let mut total = 0;
    while total < 2 * LAZY_BYTES {
        let len = rng.random_range(0..600);
        let m = random_bytes(&mut rng, len);
        total += m.len();
        assert_eq!(unimac::unstable::hash127::hash127(&key, &m), hash127_on(Platform::portable(), &model, &m, true, NO_THREADS).unwrap());
        let mut h = Hash127::new(&key);
        h.update(&m);
        assert_eq!(h.finalize(), hash127_on(fast, &model, &m, true, NO_THREADS).unwrap());
    }
    assert_eq!(Hash127::new(&key).backend(), detected);
    // precompute() makes a new key fast at once.
    let key = Key::new(&key_b);
    key.precompute();
    assert_eq!(Hash127::new(&key).backend(), detected);
}

/// Every vector backend the CPU has is reached by some variant of the
/// evidence (so every test above runs on it), a variant without a feature
/// never reaches its backend, and the default is an eight-lane one where
/// AVX-512F is there (`avx512-int26` on AMD, `avx512` elsewhere); one-shot messages on the default path agree with each
/// backend on both sides of `AVX512_MIN`.
#[test]
fn backends_cover_the_cpu() {
    let all = platforms(FAMILY);
    let mut rng = rand::rngs::StdRng::seed_from_u64(127_512);
    let key_b: [u8; 32] = rng.random();
    let key = Key::new(&key_b);
    // The table for every backend the hardware has, even when the default
    // path is forced portable.
    key.precompute_on(Platform::hardware());
    let names: Vec<&str> = all.iter().map(|&p| Hash127::new_on(p, &key).backend()).collect();
    for (&p, &n) in all.iter().zip(&names) {
        match n {
            "portable" => assert!(!(p.has(unimac::Feature::Avx2Fma) && cfg!(target_arch = "x86_64")), "{p} fell back to portable"),
            "avx2fma" => assert!(p.has(unimac::Feature::Avx2Fma) && !p.has(unimac::Feature::Avx512), "{p} chose avx2fma"),
            "avx512" | "avx512-int26" => assert!(p.has(unimac::Feature::Avx2Fma) && p.has(unimac::Feature::Avx512), "{p} chose {n}"),
            other => panic!("unknown backend {other}"),
        }
    }
    assert_eq!(Hash127::new_on(Platform::portable(), &key).backend(), "portable");
    #[cfg(target_arch = "x86_64")]
    {
        let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
        let avx512 = avx2 && std::is_x86_feature_detected!("avx512f");
        assert_eq!(names.contains(&"avx2fma"), avx2);
        let eight = |n: &str| n == "avx512" || n == "avx512-int26";
        assert_eq!(names.iter().any(|n| eight(n)), avx512);
        let forced = std::env::var_os("UNIMAC_FORCE_PORTABLE").is_some_and(|v| !v.is_empty());
        // The default follows the evidence (which UNIMAC_DISABLE narrows).
        let d = Platform::detect();
        if avx512 && !forced && d.has(unimac::Feature::Avx512) {
            assert!(eight(Hash127::new(&key).backend()), "{}", Hash127::new(&key).backend());
        }
        if forced {
            assert_eq!(Hash127::new(&key).backend(), "portable");
        }
    }
    // The key chose its backend once, when it was set up; with its table
    // built, a stream under it starts on that backend.
    assert_eq!(Hash127::new(&key).backend(), key.backend());
    println!("backends: {names:?}, default {}", Hash127::new(&key).backend());
    let min = unimac::unstable::hash127::AVX512_MIN;
    for len in [0, 1, 63, 64, min - 5, min - 4, min - 1, min, min + 1, min + 4, 3 * CHUNK_BYTES + 3] {
        let m = random_bytes(&mut rng, len);
        let want = unimac::unstable::hash127::hash127(&key, &m);
        for &b in &all {
            assert_eq!(hash127_on(b, &key, &m, true, NO_THREADS), Some(want), "{b:?} len {len}");
        }
    }
}

/// The library starts no thread unless the application allows it: with the
/// default setting a large slice is hashed on the caller's thread only.
#[test]
#[cfg_attr(all(target_family = "wasm", not(target_feature = "atomics")), ignore = "needs a child process and a second thread; wasm32-wasip1 has neither")]
fn no_threads_unless_asked() {
    // The integration tests share one process, and others change the
    // setting: check the default in a child process that runs this test
    // alone (its exact name in the test binary), and that it ran.
    if std::env::var_os("UNIMAC_NO_THREADS_CHILD").is_none() {
        let exe = std::env::current_exe().unwrap();
        let out = std::process::Command::new(exe)
            .args(["--exact", "hash127::no_threads_unless_asked", "--nocapture", "--test-threads=1"])
            .env("UNIMAC_NO_THREADS_CHILD", "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("test result: ok. 1 passed"), "the child ran no test: {stdout}");
        return;
    }
    assert_eq!(unimac::threads::max_threads(), 1, "the default is the caller's thread only");
    let threads = || std::fs::read_dir("/proc/self/task").map(|d| d.count()).unwrap_or(1);
    let before = threads();
    let key = Key::new(&[9u8; 32]);
    let msg = vec![0x5au8; 16 << 20];
    let mut h = Hash127::new(&key);
    let t = std::thread::spawn(move || {
        h.update(&msg);
        h.finalize()
    });
    // While the hash runs, no thread besides it and this one appears.
    let mut most = 0;
    while !t.is_finished() {
        most = most.max(threads());
    }
    t.join().unwrap();
    assert!(most <= before + 1, "threads: {before} before, {most} during");
}
