//! tree-mmh32x1, tree-mmh32x2, tree-nmh32 and tree-mmh64 against RustCrypto
//! poly1305, BLAKE3 keyed hashing and unimac's hash127, at 1 KiB, 16 KiB and
//! 1 MiB. The tree is keyed once and reused (`finalize_reset`), as a MAC key
//! is; `fresh` variants derive the level keys from the seed for every message.
//!
//! `cargo bench -p unimac-kernel-bench --bench mmh`

use unimac::unstable::prelude::*;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use poly1305_09::universal_hash::KeyInit;
use poly1305_09::Poly1305;
use std::time::{Duration, Instant};
use unimac::unstable::tree::{family, tree_hash, Tree};

const SIZES: [usize; 3] = [1 << 10, 16 << 10, 1 << 20];

/// The target ratios measured robustly on a shared machine: the tree and
/// BLAKE3 are timed alternately in short runs, and the best run of each
/// counts (criterion's means below are more exposed to other processes).
fn interleaved_ratios() {
    let seed = [0x5au8; 16];
    let key32 = [0x3cu8; 32];
    println!("interleaved best-of-300 (throughput GiB/s, ratio to blake3::keyed_hash):");
    for &n in &SIZES {
        let msg: Vec<u8> = (0..n).map(|i| (i * 131 + 7) as u8).collect();
        let iters = ((2usize << 20) / n).max(1);
        for name in ["mmh32x1", "mmh32x2", "nmh32", "mmh64"] {
            let mut t = Tree::of_family(family(name).expect("tree family"), &seed);
            let (mut best, mut bbest) = (f64::MAX, f64::MAX);
            for _ in 0..300 {
                let s = Instant::now();
                for _ in 0..iters {
                    t.update(black_box(&msg));
                    black_box(t.finalize_reset());
                }
                best = best.min(s.elapsed().as_secs_f64() / iters as f64);
                let s = Instant::now();
                for _ in 0..iters {
                    black_box(blake3::keyed_hash(&key32, black_box(&msg)));
                }
                bbest = bbest.min(s.elapsed().as_secs_f64() / iters as f64);
            }
            let gib = |t: f64| n as f64 / t / (1u64 << 30) as f64;
            println!("  {n:>8} tree-{name:<8} {:7.2}  blake3 {:6.2}  ratio {:5.2}", gib(best), gib(bbest), bbest / best);
        }
    }
}

/// Each block function alone on 16 KiB of blocks (in L1), through every
/// backend this CPU has: best of 20 runs of 1000 calls.
fn kernels() {
    use unimac::unstable::mmh::{Mmh32, Nmh32};
    use unimac::{Feature, Platform};
    println!("block functions alone, 16 KiB, best of 20x1000 (GiB/s):");
    let msg = vec![0xa5u8; 16 << 10];
    let time = |f: &mut dyn FnMut()| {
        let mut best = f64::MAX;
        for _ in 0..20 {
            let s = Instant::now();
            for _ in 0..1000 {
                f();
            }
            best = best.min(s.elapsed().as_secs_f64() / 1000.0);
        }
        msg.len() as f64 / best / (1u64 << 30) as f64
    };
    let mut seen = Vec::new();
    for p in Platform::hardware().only(&[Feature::Avx2Fma, Feature::Avx512]).variants() {
        let be = Nmh32::new_on(p, &[3u8; 128]).expect("key").backend();
        if seen.contains(&be) {
            continue;
        }
        seen.push(be);
        for n in 1..=4usize {
            let key: Vec<u8> = (0..4 * (31 + n)).map(|i| i as u8).collect();
            let h = Mmh32::new_on(p, n, &key).expect("key");
            let mut out = vec![0u8; msg.len() / 128 * 4 * n];
            let g = time(&mut || h.hash_blocks(black_box(&msg), &mut out));
            println!("  mmh32x{n} {be}: {g:.1}");
        }
        let h = Nmh32::new_on(p, &[3u8; 128]).expect("key");
        let mut out = vec![0u8; msg.len() / 128 * 4];
        let g = time(&mut || h.hash_blocks(black_box(&msg), &mut out));
        println!("  nmh32 {be}: {g:.1}");
    }
    let h = unimac::unstable::mmh::Mmh64::new(&[3u8; 256]).expect("key");
    let mut out = vec![0u8; msg.len() / 256 * 8];
    let g = time(&mut || h.hash_blocks(black_box(&msg), &mut out));
    println!("  mmh64 Portable: {g:.1}");
}

fn bench(c: &mut Criterion) {
    // Only under `cargo bench` (which passes --bench), not when `cargo test
    // --all-targets` runs the benches once as tests, nor for --list.
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--list") {
        kernels();
        interleaved_ratios();
    }
    let seed = [0x5au8; 16];
    let key32 = [0x3cu8; 32];
    let mut g = c.benchmark_group("mmh");
    g.sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500));
    for &n in &SIZES {
        let msg: Vec<u8> = (0..n).map(|i| (i * 131 + 7) as u8).collect();
        g.throughput(Throughput::Bytes(n as u64));
        for name in ["mmh32x1", "mmh32x2", "nmh32", "mmh64"] {
            let f = family(name).expect("tree family");
            let mut t = Tree::of_family(f.clone(), &seed);
            g.bench_with_input(BenchmarkId::new(format!("tree-{name}"), n), &msg, |b, m| {
                b.iter(|| {
                    t.update(black_box(m));
                    t.finalize_reset()
                })
            });
            if name == "mmh32x1" {
                g.bench_with_input(BenchmarkId::new(format!("tree-{name}-fresh"), n), &msg, |b, m| {
                    b.iter(|| tree_hash(&f, &seed, black_box(m)))
                });
            }
        }
        g.bench_with_input(BenchmarkId::new("blake3-keyed", n), &msg, |b, m| {
            b.iter(|| blake3::keyed_hash(&key32, black_box(m)))
        });
        g.bench_with_input(BenchmarkId::new("poly1305-rustcrypto", n), &msg, |b, m| {
            b.iter(|| Poly1305::new((&key32).into()).compute_unpadded(black_box(m)))
        });
        let hk = unimac::unstable::hash127::Key::new(&key32);
        g.bench_with_input(BenchmarkId::new("hash127", n), &msg, |b, m| {
            b.iter(|| unimac::unstable::hash127::hash127(&hk, black_box(m)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
