//! Square Hash benchmarks: the Tables 1 and 2 of Etzel, Patel and Ramzan,
//! "Square Hash: fast message authentication via optimized universal hash
//! functions" (CRYPTO 1999, section 6), on this CPU — MMH (mmh32x3) vs SQH1 (`sqh96-asm2`) vs SQH2 (`sqh96-e`) vs
//! HMAC-SHA1, 96-bit output, 2112- and 1056-bit blocks — plus every
//! `sqh{l}-{asm,asm2,e}` block and the tree modes over 1 MiB.
//!
//! Before criterion runs, a `rdtsc` loop prints cycles per block beside the
//! paper's ARM7 figures (TSC cycles: the time-stamp counter ticks at the
//! nominal clock).
//!
//! MMH appears twice: `unimac::unstable::mmh::Mmh32` (the wire format, docs/WIRE.md §3, fixes its block at 32
//! words = 1024 bits, so its cost per 2112 or 1056 bits is scaled from its
//! per-128-byte cost), and `mmh-loop`, a straightforward multiply-add loop
//! over the paper's own block of 66 (33) words with three Toeplitz 64-bit
//! accumulators and the 2^32+15 reduction, compiled for AVX2 so the compiler
//! vectorises it (checked at start-up against `unimac::unstable::mmh` on 32 words).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use hmac::{Hmac, KeyInit, Mac};
use sha1::Sha1;
use unimac::unstable::registry::{self, Params};
use unimac::unstable::square::{self, BlockKey, Variant};

fn fill(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

/// `((x mod 2^64) mod (2^32 + 15)) mod 2^32` without a division: 2^32 ≡ -15.
#[inline(always)]
fn mmh_reduce(x: u64) -> u32 {
    const P: i64 = (1 << 32) + 15;
    let r = (x & 0xffff_ffff) as i64 - 15 * (x >> 32) as i64; // (-15·2^32, 2^32)
    let r = (r & 0xffff_ffff) - 15 * (r >> 32); // [0, 2^32 + 225)
    (if r >= P { r - P } else { r }) as u32
}

/// mmh32x3 over `msg.len()` words: output j = MMH_32 with key `x_{1+j}..`.
#[inline(always)]
fn mmh_loop_body(key: &[u32], msg: &[u32]) -> [u32; 3] {
    let (mut a0, mut a1, mut a2) = (0u64, 0u64, 0u64);
    for (i, &m) in msg.iter().enumerate() {
        let m = m as u64;
        a0 = a0.wrapping_add(m * key[i] as u64);
        a1 = a1.wrapping_add(m * key[i + 1] as u64);
        a2 = a2.wrapping_add(m * key[i + 2] as u64);
    }
    [mmh_reduce(a0), mmh_reduce(a1), mmh_reduce(a2)]
}

#[target_feature(enable = "avx2")]
unsafe fn mmh_loop_avx2(key: &[u32], msg: &[u32]) -> [u32; 3] {
    mmh_loop_body(key, msg)
}

fn mmh_loop(key: &[u32], msg: &[u32]) -> [u32; 3] {
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present.
        unsafe { mmh_loop_avx2(key, msg) }
    } else {
        mmh_loop_body(key, msg)
    }
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn hmac_sha1(key: &[u8], msg: &[u8]) -> [u8; 20] {
    let mut m = <Hmac<Sha1> as KeyInit>::new_from_slice(key).expect("any key length");
    m.update(msg);
    m.finalize().into_bytes().into()
}

/// Minimum TSC cycles per call over several runs.
fn cycles(mut f: impl FnMut()) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::_rdtsc;
        for _ in 0..2000 {
            f();
        }
        let mut best = f64::MAX;
        for _ in 0..40 {
            let n = 2000;
            // SAFETY: rdtsc has no preconditions on x86-64.
            let t0 = unsafe { _rdtsc() };
            for _ in 0..n {
                f();
            }
            // SAFETY: rdtsc has no preconditions on x86-64.
            let t1 = unsafe { _rdtsc() };
            best = best.min((t1 - t0) as f64 / n as f64);
        }
        best
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = &mut f;
        f64::NAN
    }
}

/// TSC cycles of one call.
fn cycles_once(mut f: impl FnMut()) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::_rdtsc;
        // SAFETY: rdtsc has no preconditions on x86-64.
        let t0 = unsafe { _rdtsc() };
        f();
        // SAFETY: rdtsc has no preconditions on x86-64.
        let t1 = unsafe { _rdtsc() };
        (t1 - t0) as f64
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        f();
        f64::NAN
    }
}

/// The paper's ARM7 cycles (Tables 1 and 2): MMH, SQH1, SQH2, HMAC-SHA1.
const PAPER: [(usize, [f64; 4]); 2] = [(264, [2061.0, 1659.0, 1575.0, 4000.0]), (132, [1086.0, 856.0, 816.0, 2000.0])];

fn cycles_table() {
    // The reference loop is MMH: equal to unimac's mmh32x3 on a 32-word block.
    let key = fill(4 * 68, 1);
    let msg = fill(128, 2);
    let mmh = unimac::unstable::mmh::Mmh32::new(3, &key[..4 * 34]).unwrap();
    let want = mmh.hash(&msg).unwrap();
    let got: Vec<u8> = mmh_loop(&words(&key), &words(&msg)).iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(got, want, "mmh-loop is not mmh32x3");

    println!("\nSquare Hash paper, Tables 1 and 2 on this CPU (TSC cycles per block; 96-bit output)");
    println!("(x64: one call over 64 blocks under one key, as the tree calls it, per block; the key set up once: square::BlockKey, mmh::Mmh32)");
    println!(
        "{:<10} {:>8} {:>9} {:>9} {:>6} {:>9} {:>6} {:>9} {:>10} | {:>26}",
        "block", "MMH x64", "MMH loop", "MMH best", "SQH1", "SQH1 x64", "SQH2", "SQH2 x64", "HMAC-SHA1", "paper ARM7: MMH SQH1 SQH2 HMAC"
    );
    for (bytes, paper) in PAPER {
        let key = fill(bytes, 3);
        let msg = fill(bytes, 4);
        let mkey = fill(4 * (bytes / 4 + 2), 5);
        let (mk, mm) = (words(&mkey), words(&msg));
        let mut out = [0u8; 13];
        // unimac mmh32x3: 64 blocks of 128 bytes per call, scaled to `bytes`.
        let many = fill(128 * 64, 6);
        let mut mout = vec![0u8; 12 * 64];
        let mmh_unimac = cycles(|| mmh.hash_blocks(black_box(&many), &mut mout)) / 64.0 * bytes as f64 / 128.0;
        let mmh_loop_c = cycles(|| {
            black_box(mmh_loop(black_box(&mk), black_box(&mm)));
        });
        let sqh1 = cycles(|| square::hash_into(96, Variant::Asm2, black_box(&key), black_box(&msg), &mut out[..13]).unwrap());
        let sqh2 = cycles(|| square::hash_into(96, Variant::E, black_box(&key), black_box(&msg), &mut out[..12]).unwrap());
        let hmac = cycles(|| {
            black_box(hmac_sha1(black_box(&key[..20]), black_box(&msg)));
        });
        let sha1_only = cycles(|| {
            use sha1::Digest;
            black_box(Sha1::digest(black_box(&msg)));
        });
        let many_sqh = fill(bytes * 64, 7);
        let mut sout = vec![0u8; 12 * 64];
        // The key set up once, outside the timing, as for MMH x64.
        let (bk2, bk1) = (BlockKey::new(96, Variant::E, &key).unwrap(), BlockKey::new(96, Variant::Asm2, &key).unwrap());
        let sqh2_x64 = cycles(|| bk2.hash_blocks(black_box(&many_sqh), &mut sout).unwrap()) / 64.0;
        let mut s1out = vec![0u8; 13 * 64];
        let sqh1_x64 = cycles(|| bk1.hash_blocks(black_box(&many_sqh), &mut s1out).unwrap()) / 64.0;
        let best_mmh = mmh_unimac.min(mmh_loop_c);
        let best_sqh1 = sqh1.min(sqh1_x64);
        let best_sqh2 = sqh2.min(sqh2_x64);
        println!(
            "{:<10} {:>8.0} {:>9.0} {:>9.0} {:>6.0} {:>9.0} {:>6.0} {:>9.0} {:>10.0} | {:>6} {:>5} {:>5} {:>5}",
            format!("{}-bit", bytes * 8),
            mmh_unimac,
            mmh_loop_c,
            best_mmh,
            sqh1,
            sqh1_x64,
            sqh2,
            sqh2_x64,
            hmac,
            paper[0],
            paper[1],
            paper[2],
            paper[3]
        );
        println!(
            "{:<10} over best MMH: SQH1 {:.2}x  SQH2 {:.2}x  SQH2 x64 vs MMH x64 {:.2}x  HMAC-SHA1 {:.2}x | paper: SQH1 {:.2}x SQH2 {:.2}x HMAC {:.2}x",
            "",
            best_mmh / best_sqh1,
            best_mmh / best_sqh2,
            mmh_unimac / sqh2_x64,
            best_mmh / hmac,
            paper[0] / paper[1],
            paper[0] / paper[2],
            paper[0] / paper[3]
        );
        println!(
            "{:<10} over HMAC-SHA1: MMH {:.2}x  SQH1 {:.2}x  SQH2 {:.2}x | paper: MMH {:.2}x SQH1 {:.2}x SQH2 {:.2}x  (SHA-1 alone: {:.0} cycles)",
            "",
            hmac / best_mmh,
            hmac / best_sqh1,
            hmac / best_sqh2,
            paper[3] / paper[0],
            paper[3] / paper[1],
            paper[3] / paper[2],
            sha1_only
        );
    }
    // The tree modes over 1 MiB (single-threaded at this size): cycles per byte.
    let msg = fill(1 << 20, 9);
    let s = [7u8; 16];
    print!("tree over 1 MiB, TSC cycles/byte:");
    for name in ["tree-mmh32x3", "tree-sqh96-e", "tree-sqh96-asm", "tree-sqh128-e", "tree-sqh64-e", "tree-sqh32-e"] {
        if registry::lookup(name).is_err() {
            continue;
        }
        let mut best = f64::MAX;
        for _ in 0..15 {
            let c = cycles_once(|| {
                black_box(registry::compute(name, &Params { key: &s, ..Default::default() }, black_box(&msg)).unwrap());
            });
            best = best.min(c);
        }
        print!("  {name} {:.3}", best / msg.len() as f64);
    }
    println!();
    println!();
}

fn tables(c: &mut Criterion) {
    for (bytes, _) in PAPER {
        let mut g = c.benchmark_group(format!("square-table-{}bit", bytes * 8));
        g.sample_size(20).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
        g.throughput(Throughput::Bytes(bytes as u64));
        let key = fill(bytes, 3);
        let msg = fill(bytes, 4);
        let mkey = words(&fill(4 * (bytes / 4 + 2), 5));
        let mm = words(&msg);
        let mut out = [0u8; 13];
        g.bench_function("mmh-loop", |b| b.iter(|| mmh_loop(black_box(&mkey), black_box(&mm))));
        g.bench_function("sqh1-asm2", |b| {
            b.iter(|| square::hash_into(96, Variant::Asm2, black_box(&key), black_box(&msg), &mut out[..13]))
        });
        g.bench_function("sqh2-e", |b| {
            b.iter(|| square::hash_into(96, Variant::E, black_box(&key), black_box(&msg), &mut out[..12]))
        });
        g.bench_function("hmac-sha1", |b| b.iter(|| hmac_sha1(black_box(&key[..20]), black_box(&msg))));
        g.finish();
        // 64 blocks per call under one key, as the tree hashes them.
        let mut g = c.benchmark_group(format!("square-table-{}bit-x64", bytes * 8));
        g.sample_size(20).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
        g.throughput(Throughput::Bytes(64 * bytes as u64));
        let many = fill(64 * bytes, 7);
        let mut out = vec![0u8; 64 * 12];
        let (bk2, bk1) = (BlockKey::new(96, Variant::E, &key).unwrap(), BlockKey::new(96, Variant::Asm2, &key).unwrap());
        g.bench_function("sqh2-e", |b| b.iter(|| bk2.hash_blocks(black_box(&many), &mut out)));
        let mut out1 = vec![0u8; 64 * 13];
        g.bench_function("sqh1-asm2", |b| b.iter(|| bk1.hash_blocks(black_box(&many), &mut out1)));
        g.finish();
    }
    // unimac's mmh32x3 per 128-byte block, batched as the tree batches.
    let mut g = c.benchmark_group("square-table-mmh32x3-unimac");
    g.sample_size(20).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    let many = fill(128 * 64, 6);
    let mut mout = vec![0u8; 12 * 64];
    let mmh = unimac::unstable::mmh::Mmh32::new(3, &fill(4 * 34, 1)).unwrap();
    g.throughput(Throughput::Bytes(many.len() as u64));
    g.bench_function("64x1024bit", |b| b.iter(|| mmh.hash_blocks(black_box(&many), &mut mout)));
    g.finish();
}

fn blocks(c: &mut Criterion) {
    let mut g = c.benchmark_group("square-block");
    g.sample_size(10).measurement_time(Duration::from_secs(1)).warm_up_time(Duration::from_millis(300));
    for l in square::WIDTHS {
        let bytes = square::tree_block_bytes(l);
        let key = fill(bytes, 7);
        let msg = fill(bytes, 8);
        g.throughput(Throughput::Bytes(bytes as u64));
        for v in [Variant::Asm, Variant::Asm2, Variant::E] {
            let mut out = vec![0u8; v.out_bytes(l)];
            g.bench_with_input(BenchmarkId::new(format!("sqh{l}-{}", v.suffix()), bytes), &msg, |b, msg| {
                b.iter(|| square::hash_into(l, v, &key, black_box(msg), &mut out))
            });
        }
    }
    g.finish();
}

fn trees(c: &mut Criterion) {
    let mut g = c.benchmark_group("square-tree-1MiB");
    g.sample_size(10).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(300));
    let msg = fill(1 << 20, 9);
    g.throughput(Throughput::Bytes(msg.len() as u64));
    let s = [7u8; 16];
    for name in ["tree-sqh96-e", "tree-sqh96-asm", "tree-sqh128-e", "tree-sqh64-e", "tree-mmh32x3"] {
        if registry::lookup(name).is_err() {
            continue;
        }
        g.bench_function(name, |b| {
            b.iter(|| registry::compute(name, &Params { key: &s, ..Default::default() }, black_box(&msg)).unwrap())
        });
    }
    g.finish();
}

fn main() {
    cycles_table();
    let mut c = Criterion::default().configure_from_args();
    tables(&mut c);
    blocks(&mut c);
    trees(&mut c);
    c.final_summary();
}
