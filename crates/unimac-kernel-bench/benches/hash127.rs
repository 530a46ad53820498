//! hash127 (default, and the AVX-512 and AVX2 backends one by one) against
//! RustCrypto `poly1305` (autodetected AVX2 backend) and
//! `blake3::keyed_hash`, one thread each, plus key expansion and the
//! multi-threaded figure. Run: `cargo bench -p unimac-kernel-bench --bench hash127`.

use unimac::unstable::prelude::*;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use poly1305_09::universal_hash::KeyInit;
use std::time::Duration;
use unimac::unstable::hash127::{hash127, hash127_on, Hash127, Key};
use unimac::{Feature, Platform};

fn message(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i as u32).wrapping_mul(2654435761) as u8).collect()
}

fn compare(c: &mut Criterion) {
    let key_bytes: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(11));
    let key = Key::new(&key_bytes);
    key.precompute();
    let p_key = poly1305_09::Key::from(key_bytes);
    let mut g = c.benchmark_group("hash127");
    g.sample_size(15).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    for &n in &[64usize, 1024, 16 << 10, 1 << 20] {
        let m = message(n);
        g.throughput(Throughput::Bytes(n as u64));
        g.bench_with_input(BenchmarkId::new("hash127", n), &m, |b, m| b.iter(|| hash127(&key, black_box(m))));
        // Each vector backend on its own (the default above is AVX-512 where
        // the CPU has it, AVX2 below `AVX512_MIN` bytes).
        let hw = Platform::hardware();
        for (name, p, has) in [
            ("hash127-avx512", hw, hw.has(unimac::Feature::Avx512) && hw.has(unimac::Feature::Avx2Fma)),
            ("hash127-avx2", hw.without(Feature::Avx512), hw.has(unimac::Feature::Avx2Fma)),
        ] {
            if has {
                g.bench_with_input(BenchmarkId::new(name, n), &m, |b, m| {
                    b.iter(|| hash127_on(p, &key, black_box(m), true, usize::MAX))
                });
            }
        }
        if n <= 1024 {
            // A new key per message (one-time MACs): short messages never
            // build the table of powers.
            g.bench_with_input(BenchmarkId::new("hash127-new-key", n), &m, |b, m| {
                b.iter(|| hash127(&Key::new(black_box(&key_bytes)), black_box(m)))
            });
        }
        g.bench_with_input(BenchmarkId::new("hash127-portable", n), &m, |b, m| {
            b.iter(|| {
                let mut h = Hash127::new_on(Platform::portable(), &key);
                h.update(black_box(m));
                h.finalize()
            })
        });
        g.bench_with_input(BenchmarkId::new("poly1305", n), &m, |b, m| {
            b.iter(|| poly1305_09::Poly1305::new(&p_key).compute_unpadded(black_box(m)))
        });
        g.bench_with_input(BenchmarkId::new("blake3-keyed", n), &m, |b, m| {
            b.iter(|| blake3::keyed_hash(&key_bytes, black_box(m)))
        });
    }
    // Several cores: 16 MiB in one `update` (split at PARALLEL_MIN = 4 MiB).
    let n = 16 << 20;
    let m = message(n);
    g.throughput(Throughput::Bytes(n as u64));
    g.bench_with_input(BenchmarkId::new("hash127-1thread", n), &m, |b, m| {
        b.iter(|| {
            let mut h = Hash127::new(&key).parallel_min(usize::MAX);
            h.update(black_box(m));
            h.finalize()
        })
    });
    g.bench_with_input(BenchmarkId::new("hash127-threads", n), &m, |b, m| b.iter(|| hash127(&key, black_box(m))));
    g.finish();

    let mut g = c.benchmark_group("hash127-key");
    g.sample_size(15).measurement_time(Duration::from_secs(1)).warm_up_time(Duration::from_millis(300));
    g.bench_function("expand", |b| {
        b.iter(|| {
            let k = Key::new(black_box(&key_bytes));
            k.precompute();
            k
        })
    });
    g.finish();
}

criterion_group!(benches, compare);
criterion_main!(benches);
