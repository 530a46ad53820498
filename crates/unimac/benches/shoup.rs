//! Shoup's hashes against RustCrypto's GHASH and POLYVAL (one run, same machine):
//! eval128 (SPEC §7) is the like-for-like peer of POLYVAL (a 128-bit evaluation
//! hash over a field of 2^128 elements).
//!
//! `cargo bench -p unimac --bench shoup` — groups `shoup-hash/<size>` (throughput,
//! expanded key reused across messages for every contender) and `shoup-setup`
//! (key generation and expansion: the paper's "set-up time").

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use unimac::shoup::eval128::Eval128;
use unimac::shoup::{gdiv, minpoly, Backend, Hasher, Kind};

const KEY: [u8; 8] = [0x87, 0xce, 0x53, 0x84, 0x91, 0xf7, 0xb4, 0xab];
const KEY16: [u8; 16] = [0x87, 0xce, 0x53, 0x84, 0x91, 0xf7, 0xb4, 0xab, 0x3c, 0x19, 0xe2, 0x55, 0x0d, 0x6a, 0xf1, 0x28];

fn hashing(c: &mut Criterion) {
    for size in [16 * 1024usize, 1024 * 1024] {
        let data: Vec<u8> = (0..size).map(|i| (i * 131 + 7) as u8).collect();
        let mut g = c.benchmark_group(format!("shoup-hash/{}KiB", size / 1024));
        g.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500));
        g.throughput(Throughput::Bytes(size as u64));
        for (kind, kname) in [(Kind::Eval64, "eval64"), (Kind::Division64, "division64"), (Kind::GDivision64, "gdivision64")] {
            for (b, bname) in [
                (Backend::Gfni, "gfni"),
                (Backend::Vpclmul, "vpclmul"),
                (Backend::Clmul, "clmul"),
                (Backend::Portable, "portable"),
                (Backend::Table1, "table1-nonct"),
                (Backend::Table2, "table2-nonct"),
            ] {
                if !b.available() || !b.supports(kind) {
                    continue;
                }
                let mut h = Hasher::with_backend(kind, b, &KEY).unwrap();
                g.bench_function(BenchmarkId::new(kname, bname), |bch| {
                    bch.iter(|| {
                        h.update(black_box(&data));
                        h.finalize_reset()
                    })
                });
            }
        }
        for (b, bname) in [
            (Backend::Vpclmul512, "vpclmul512"),
            (Backend::Vpclmul, "vpclmul"),
            (Backend::Clmul, "clmul"),
            (Backend::Portable, "portable"),
        ] {
            if !b.available() {
                continue;
            }
            let mut h = Eval128::with_backend(b, &KEY16).unwrap();
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
    g.bench_function("division64-key/berlekamp-massey-ct", |b| b.iter(|| minpoly::key(black_box(x))));
    g.bench_function("minpoly/1-linear-algebra", |b| b.iter(|| minpoly::linear_algebra(black_box(x))));
    g.bench_function("minpoly/2-gordon", |b| b.iter(|| minpoly::gordon(black_box(x))));
    g.bench_function("minpoly/3-berlekamp-massey", |b| b.iter(|| minpoly::berlekamp_massey(black_box(x))));
    g.bench_function("minpoly/3-projected-sequence-only", |b| b.iter(|| minpoly::projected_sequence(black_box(x))));
    g.bench_function("gdivision64-key/berlekamp-massey-ct", |b| b.iter(|| gdiv::key_poly(black_box(&KEY))));
    for (kind, kname) in [(Kind::Eval64, "eval64"), (Kind::Division64, "division64"), (Kind::GDivision64, "gdivision64")] {
        for (bk, bname) in [
            (Backend::Gfni, "gfni"),
            (Backend::Vpclmul, "vpclmul"),
            (Backend::Clmul, "clmul"),
            (Backend::Portable, "portable"),
            (Backend::Table1, "table1-nonct"),
            (Backend::Table2, "table2-nonct"),
        ] {
            if bk.available() && bk.supports(kind) {
                g.bench_function(format!("full-setup/{kname}/{bname}"), |b| {
                    b.iter(|| Hasher::with_backend(kind, bk, black_box(&KEY)).unwrap())
                });
            }
        }
    }
    for (bk, bname) in [(Backend::Vpclmul512, "vpclmul512"), (Backend::Clmul, "clmul"), (Backend::Portable, "portable")] {
        if bk.available() {
            g.bench_function(format!("full-setup/eval128/{bname}"), |b| {
                b.iter(|| Eval128::with_backend(bk, black_box(&KEY16)).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, hashing, setup);
criterion_main!(benches);
