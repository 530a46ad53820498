//! `modp` (M mod a secret 128-bit prime) against num-bigint's `%`, at 4 KiB,
//! 64 KiB and 1 MiB, through each backend this CPU has. GMP is compared in
//! `bench/peers-gmp` (outside the workspace, so this build never compiles GMP).
//!
//! `cargo bench -p unimac-kernel-bench --bench modp`

use unimac::unstable::prelude::*;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use num_bigint::BigUint;
use unimac::unstable::modp::SecretPrime;
use unimac::{Feature, Platform};

fn bench(c: &mut Criterion) {
    let key = SecretPrime::generate().expect("OS random generator");
    let p = BigUint::from(u128::from_le_bytes(*key.to_bytes()));
    let mut g = c.benchmark_group("modp");
    for n in [4usize << 10, 64 << 10, 1 << 20] {
        let m: Vec<u8> = (0..n).map(|i| (i * 131 + 7) as u8).collect();
        let big = BigUint::from_bytes_le(&m);
        g.throughput(Throughput::Bytes(n as u64));
        for b in Platform::hardware().only(&[Feature::Avx512Ifma]).variants() {
            g.bench_with_input(BenchmarkId::new(format!("unimac-{}", SecretPrime::backend_on(b)), n), &m, |bn, m| {
                bn.iter(|| key.reduce_on(b, black_box(m)))
            });
        }
        g.bench_with_input(BenchmarkId::new("num-bigint", n), &big, |bn, x| bn.iter(|| black_box(x) % &p));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
