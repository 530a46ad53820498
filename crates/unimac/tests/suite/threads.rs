//! Results do not depend on the number of threads: every family that splits
//! long slices across the library's pool gives, with 2 or 4 threads, exactly
//! its one-thread result, one-shot and streamed with misaligned updates.
//! The one-time values (`hash127`, `hash127-raw` under `r ‖ k`) go through
//! the doors that serve them: the known answers one-shot, the one-time MAC
//! (and, for the unpadded form, the typed hash) streamed.

use unimac::unstable::hash127;
use unimac::unstable::registry::{self, OneTimeMac, Params};
use unimac::threads::set_max_threads;
use unimac::unstable::threads::{set_parallel_min, splits, PARALLEL_MIN};

/// The length this test splits from: a quarter of the default
/// (`PARALLEL_MIN`, 4 MiB), lowered for the test's run and restored when
/// the guard is dropped (on a failure too). Every family's parallel path
/// still takes two or more pieces at the longer length below, which the
/// test checks (`splits`).
const MIN: usize = 1 << 20;

struct Lowered;

impl Lowered {
    fn new() -> Lowered {
        set_parallel_min(MIN);
        Lowered
    }
}

impl Drop for Lowered {
    fn drop(&mut self) {
        set_parallel_min(PARALLEL_MIN);
        set_max_threads(1);
    }
}

fn message(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The one-shot result: through the known answers for the one-time values.
fn one_shot(name: &str, key: &[u8], nonce: Option<&[u8]>, msg: &[u8]) -> Vec<u8> {
    let p = Params { key, nonce, len: None };
    if unimac::unstable::macs::one_time_row(name).is_some() {
        return registry::known_answer(name, &p, msg).unwrap();
    }
    registry::compute(name, &p, msg).unwrap()
}

/// Streamed as `head` bytes, then the long rest in one update, then 3
/// bytes.
fn streamed(name: &str, key: &[u8], nonce: Option<&[u8]>, msg: &[u8], head: usize) -> Vec<u8> {
    let (a, rest) = msg.split_at(head);
    let (b, c) = rest.split_at(rest.len() - 3);
    if let Some(d) = unimac::unstable::macs::one_time_row(name) {
        if name == "hash127-raw" {
            let mut h = hash127::Hash127::new(&hash127::Key::new(key.try_into().unwrap()));
            h.update(a);
            h.update(b);
            h.update(c);
            return h.finalize_raw().unwrap().to_vec();
        }
        let mut s = OneTimeMac::new(d.name, key).unwrap().start().unwrap();
        s.update(a);
        s.update(b);
        s.update(c);
        return s.finalize().unwrap();
    }
    let p = Params { key, nonce, len: None };
    let mut s = registry::open(name, &p).unwrap();
    s.update(a);
    s.update(b);
    s.update(c);
    s.finalize().unwrap()
}

#[test]
fn thread_count_does_not_change_results() {
    let _setting = crate::common::thread_setting();
    let _lowered = Lowered::new();
    let names: &[(&str, usize, bool)] = &[
        ("hash127", 32, false),
        ("hash127-raw", 32, false),
        ("eval64", 8, false),
        ("division64", 8, false),
        ("gdivision64", 8, false),
        ("eval128", 16, false),
        ("tree-mmh32x2", 16, false),
        ("tree-mmh32x3", 16, false),
        ("tree-nmh32", 16, false),
        ("tree-mmh64", 16, false),
        ("tree-sqh32-asm", 16, false),
        ("tree-sqh96-e", 16, false),
        ("tree-sqh128-asm", 16, false),
        ("mac-hash127-aes-nonce", 32, true),
        ("mac-wc-eval64", 24, true),
        ("mac-wc-mmh32x2", 32, true),
        ("modp", 16, false),
        ("mac-umac64", 16, true),
        ("mac-umac128", 16, true),
        ("mac-vmac64", 16, true),
        ("mac-vmac128", 16, true),
    ];
    // The streams' first updates.
    const HEADS: [usize; 3] = [0, 4, 1000];
    // The heads streamed with `t` threads: every head with 2 (the stream
    // buffers the head's partial block, then splits the aligned rest); with
    // 4, the misaligned one; with 0 (the machine's cores, on a 2-core
    // machine the run with 2 again) the one-shot result only.
    // At the first length, just past the threshold, only the misaligned
    // head with 2 threads (its long update is still past the threshold).
    // With 1 thread, where other counts run too, the misaligned head at
    // the longer length: the stream's own splitting of a long update is
    // the other counts' subject, and streaming against one-shot at every
    // head is each family's streaming test's (most of this test's time on
    // i686 and under qemu went to the one-thread streams of Shoup's
    // families, whose portable carry-less products are slow there).
    // Without other counts (wasm32 without atomics), every head.
    fn heads(t: usize, j: usize) -> &'static [usize] {
        match (t, j) {
            (1, _) if COUNTS.is_empty() => &HEADS,
            (1, 1) => &HEADS[2..],
            (2, 0) => &HEADS[2..],
            (2, _) => &HEADS,
            (4, 1) => &HEADS[2..],
            _ => &[],
        }
    }
    // The thread counts besides 1 (0: the machine's cores). wasm32 without
    // atomics has no threads: the pool is the calling thread whatever the
    // count, so each count would repeat the one-thread run; there the test
    // checks the streams against the one-shot result.
    const COUNTS: &[usize] = if cfg!(all(target_family = "wasm", not(target_feature = "atomics"))) { &[] } else { &[2, 4, 0] };
    // Lengths past the threshold, not multiples of any block or word.
    let lens = [MIN + 4 * 12345, 2 * MIN + 131];
    // Two threads can run here (not wasm32 without atomics, nor one core).
    let two = !COUNTS.is_empty() && std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2;
    if !two {
        crate::common::skipped("the parallel paths taken", "fewer than two threads can run here (the results were still compared)");
    }
    for name in ["hash127", "hash127-raw"] {
        let p = Params { key: &[1; 32], nonce: None, len: None };
        assert_eq!(registry::compute(name, &p, b"abcd").err(), Some(unimac::Error::OneTimeOnly("hash127".into())));
    }
    for (i, &(name, klen, nonced)) in names.iter().enumerate() {
        let mut key = message(klen, 77 + i as u64);
        if name == "modp" {
            // A prime in [2^120, 2^128): 2^127 - 1.
            key = ((1u128 << 127) - 1).to_le_bytes().to_vec();
        }
        let mut nonce = message(16, 5 + i as u64);
        nonce[0] &= 0x7f; // VMAC: a 16-byte nonce has its top bit clear
        let nonce = nonced.then_some(&nonce[..]);
        for (j, &len) in lens.iter().enumerate() {
            let len = if name == "hash127-raw" { len / 4 * 4 } else { len };
            let msg = message(len, 1000 + (i * 7 + j) as u64);
            set_max_threads(1);
            let one = one_shot(name, &key, nonce, &msg);
            for &head in heads(1, j) {
                let s = streamed(name, &key, nonce, &msg, head);
                assert_eq!(s, one, "{name} len {len} head {head}: stream vs one-shot, 1 thread");
            }
            for &t in COUNTS {
                set_max_threads(t);
                let before = splits();
                assert_eq!(one_shot(name, &key, nonce, &msg), one, "{name} len {len}: one-shot, {t} threads");
                if two && j == 1 {
                    assert!(splits() > before, "{name} len {len}: one-shot with {t} threads took no parallel path");
                }
                for &head in heads(t, j) {
                    let before = splits();
                    let s = streamed(name, &key, nonce, &msg, head);
                    assert_eq!(s, one, "{name} len {len} head {head}: streamed, {t} threads");
                    if two && j == 1 {
                        assert!(splits() > before, "{name} len {len} head {head}: streamed with {t} threads took no parallel path");
                    }
                }
            }
        }
    }
}
