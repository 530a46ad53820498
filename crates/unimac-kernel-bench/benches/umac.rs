//! UMAC-64 and VMAC-64 (and their 128-bit tags) at 64 B, 16 KiB and 1 MiB:
//! one full MAC per message (nonce, hash, pad), keyed once. The peers (Nettle's
//! UMAC, Crypto++'s VMAC) are C/C++ libraries measured outside the test build
//! by bench/peers-c/run.sh, which also runs this crate's `umac_speed` example
//! in the same session for cycles per byte side by side.
//!
//! `cargo bench -p unimac-kernel-bench --bench umac`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use unimac::umac::{Umac128, Umac64};
use unimac::vmac::{Vmac128, Vmac64};
use unimac::Stream;

const SIZES: [usize; 3] = [64, 16 << 10, 1 << 20];

fn bench(c: &mut Criterion) {
    let key = *b"abcdefghijklmnop";
    let nonce = *b"bcdefghi";
    let u64m = Umac64::new(&key);
    let u128m = Umac128::new(&key);
    let v64 = Vmac64::new(&key).unwrap();
    let v128 = Vmac128::new(&key).unwrap();
    let mut g = c.benchmark_group("umac-vmac");
    for &n in &SIZES {
        let msg: Vec<u8> = (0..n).map(|i| (i * 131 + 7) as u8).collect();
        g.throughput(Throughput::Bytes(n as u64));
        g.bench_with_input(BenchmarkId::new("umac64", n), &msg, |b, m| b.iter(|| u64m.tag(&nonce, black_box(m)).unwrap()));
        g.bench_with_input(BenchmarkId::new("vmac64", n), &msg, |b, m| b.iter(|| v64.tag(&nonce, black_box(m)).unwrap()));
        g.bench_with_input(BenchmarkId::new("umac128", n), &msg, |b, m| b.iter(|| u128m.tag(&nonce, black_box(m)).unwrap()));
        g.bench_with_input(BenchmarkId::new("vmac128", n), &msg, |b, m| b.iter(|| v128.tag(&nonce, black_box(m)).unwrap()));
        // Streaming in 4 KiB pieces, as a file is read.
        if n > 4096 {
            g.bench_with_input(BenchmarkId::new("umac64-stream4k", n), &msg, |b, m| {
                b.iter(|| {
                    let mut s = u64m.start(&nonce).unwrap();
                    for piece in m.chunks(4096) {
                        s.update(black_box(piece));
                    }
                    s.finalize()
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
