//! Shoup's hashes against RustCrypto's GHASH and POLYVAL (one run, same machine):
//! eval128 (docs/WIRE.md §5) is the like-for-like peer of POLYVAL (a 128-bit evaluation
//! hash over a field of 2^128 elements).
//!
//! `cargo bench -p unimac-kernel-bench --bench shoup` — groups `shoup-hash/<size>` (throughput,
//! expanded key reused across messages for every contender) and `shoup-setup`
//! (key generation and expansion: the paper's "set-up time").

use unimac::unstable::prelude::*;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use unimac::unstable::shoup::eval128::Eval128;
use unimac::unstable::hazmat::shoup::{gdiv, minpoly};
use unimac::unstable::shoup::{Hasher, Kind, Table};
use unimac::{Feature, Platform};

/// A named way to build a hasher from a key.
type Make = (String, Box<dyn Fn(&[u8; 8]) -> Hasher>);

/// Constructors of every distinct kernel this CPU runs for `kind` (one
/// platform per kernel, fastest first) and of both table methods, named.
fn hashers(kind: Kind) -> Vec<Make> {
    let mut v: Vec<Make> = Vec::new();
    for p in Platform::hardware().only(&[Feature::Pclmul, Feature::Vpclmul, Feature::Gfni]).variants().into_iter().rev() {
        let name = Hasher::new_on(p, kind, &KEY).backend().to_string();
        if !v.iter().any(|(n, _)| *n == name) {
            v.push((name, Box::new(move |k: &[u8; 8]| Hasher::new_on(p, kind, k))));
        }
    }
    for (t, name) in [(Table::Method1, "table1-nonct"), (Table::Method2, "table2-nonct")] {
        v.push((name.into(), Box::new(move |k: &[u8; 8]| Hasher::with_table(kind, t, k))));
    }
    v
}

/// One platform per distinct eval128 kernel, fastest first, named.
fn eval128s() -> Vec<(&'static str, Platform)> {
    let mut v: Vec<(&'static str, Platform)> = Vec::new();
    for p in Platform::hardware().only(&[Feature::Pclmul, Feature::Vpclmul, Feature::Avx512]).variants().into_iter().rev() {
        let name = Eval128::new_on(p, &KEY16).backend();
        if !v.iter().any(|(n, _)| *n == name) {
            v.push((name, p));
        }
    }
    v
}

const KEY: [u8; 8] = [0x87, 0xce, 0x53, 0x84, 0x91, 0xf7, 0xb4, 0xab];
const KEY16: [u8; 16] = [0x87, 0xce, 0x53, 0x84, 0x91, 0xf7, 0xb4, 0xab, 0x3c, 0x19, 0xe2, 0x55, 0x0d, 0x6a, 0xf1, 0x28];

fn hashing(c: &mut Criterion) {
    for size in [16 * 1024usize, 1024 * 1024] {
        let data: Vec<u8> = (0..size).map(|i| (i * 131 + 7) as u8).collect();
        let mut g = c.benchmark_group(format!("shoup-hash/{}KiB", size / 1024));
        g.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500));
        g.throughput(Throughput::Bytes(size as u64));
        for (kind, kname) in [(Kind::Eval64, "eval64"), (Kind::Division64, "division64"), (Kind::GDivision64, "gdivision64")] {
            for (bname, make) in hashers(kind) {
                let mut h = make(&KEY);
                g.bench_function(BenchmarkId::new(kname, bname), |bch| {
                    bch.iter(|| {
                        h.update(black_box(&data));
                        h.finalize_reset()
                    })
                });
            }
        }
        for (bname, p) in eval128s() {
            let mut h = Eval128::new_on(p, &KEY16);
            g.bench_function(BenchmarkId::new("eval128", bname), |bch| {
                bch.iter(|| {
                    h.update(black_box(&data));
                    h.finalize_reset()
                })
            });
        }
        {
            use ghash::universal_hash::{KeyInit, UniversalHash};
            let gh = ghash::GHash::new(&[7u8; 16].into());
            g.bench_function(BenchmarkId::new("ghash-0.5", "autodetect"), |bch| {
                bch.iter(|| {
                    let mut s = gh.clone();
                    s.update_padded(black_box(&data));
                    s.finalize()
                })
            });
            let pv = polyval::Polyval::new(&[7u8; 16].into());
            g.bench_function(BenchmarkId::new("polyval-0.6", "autodetect"), |bch| {
                bch.iter(|| {
                    let mut s = pv.clone();
                    s.update_padded(black_box(&data));
                    s.finalize()
                })
            });
        }
        {
            use ghash06::universal_hash::UniversalHash;
            let gh = ghash06::GHash::new(&[7u8; 16].into());
            g.bench_function(BenchmarkId::new("ghash-0.6", "autodetect"), |bch| {
                bch.iter(|| {
                    let mut s = gh.clone();
                    s.update_padded(black_box(&data));
                    s.finalize()
                })
            });
            let pv = polyval07::Polyval::new(&[7u8; 16].into());
            g.bench_function(BenchmarkId::new("polyval-0.7", "autodetect"), |bch| {
                bch.iter(|| {
                    let mut s = pv.clone();
                    s.update_padded(black_box(&data));
                    s.finalize()
                })
            });
        }
        g.finish();
    }
}

fn setup(c: &mut Criterion) {
    let mut g = c.benchmark_group("shoup-setup");
    g.sample_size(20).measurement_time(Duration::from_secs(1)).warm_up_time(Duration::from_millis(300));
    let x = u64::from_le_bytes(KEY);
    // What `division64-key` runs: the products by PCLMULQDQ where detected
    // (the `minpoly/*` methods below use the portable product).
    g.bench_function("division64-key/berlekamp-massey-ct", |b| b.iter(|| unimac::unstable::shoup::division64_key(black_box(&KEY))));
    g.bench_function("minpoly/1-linear-algebra", |b| b.iter(|| minpoly::linear_algebra(black_box(x))));
    g.bench_function("minpoly/2-gordon", |b| b.iter(|| minpoly::gordon(black_box(x))));
    g.bench_function("minpoly/3-berlekamp-massey", |b| b.iter(|| minpoly::berlekamp_massey(black_box(x))));
    g.bench_function("minpoly/3-projected-sequence-only", |b| b.iter(|| minpoly::projected_sequence(black_box(x))));
    g.bench_function("gdivision64-key/berlekamp-massey-ct", |b| b.iter(|| gdiv::key_poly(black_box(&KEY))));
    for (kind, kname) in [(Kind::Eval64, "eval64"), (Kind::Division64, "division64"), (Kind::GDivision64, "gdivision64")] {
        for (bname, make) in hashers(kind) {
            g.bench_function(format!("full-setup/{kname}/{bname}"), |b| b.iter(|| make(black_box(&KEY))));
        }
    }
    for (bname, p) in eval128s() {
        g.bench_function(format!("full-setup/eval128/{bname}"), |b| b.iter(|| Eval128::new_on(p, black_box(&KEY16))));
    }
    g.finish();
}

criterion_group!(benches, hashing, setup);
criterion_main!(benches);
