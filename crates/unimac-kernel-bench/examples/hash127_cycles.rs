//! Cycles per byte of hash127 (one thread, key expanded once), by `rdtsc`:
//! the least time of many runs, so a busy machine disturbs it less.
//! Run: `cargo run --release -p unimac-kernel-bench --example hash127_cycles`.

use unimac::unstable::prelude::*;
use std::time::Instant;
use unimac::unstable::hash127::{hash127_on, Hash127, Key};
use unimac::{Feature, Platform};

#[cfg(target_arch = "x86_64")]
fn ticks() -> u64 {
    // SAFETY: rdtsc has no preconditions on x86-64.
    unsafe { core::arch::x86_64::_rdtsc() }
}
#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> u64 {
    0
}

fn main() {
    // TSC ticks per second, against the wall clock.
    let (t0, c0) = (Instant::now(), ticks());
    while t0.elapsed().as_millis() < 200 {}
    let hz = (ticks() - c0) as f64 / t0.elapsed().as_secs_f64();
    println!("TSC {:.3} GHz", hz / 1e9);
    // Core clock: a loop of one dependent 1-cycle add per iteration.
    #[cfg(target_arch = "x86_64")]
    {
        let n: u64 = 2_000_000;
        let mut best = u64::MAX;
        for _ in 0..300 {
            let c = ticks();
            let (mut x, mut k) = (0u64, n);
            // SAFETY: plain register arithmetic.
            unsafe {
                core::arch::asm!("2:", "add {x}, 1", "dec {k}", "jnz 2b", x = inout(reg) x, k = inout(reg) k);
            }
            std::hint::black_box((x, k));
            best = best.min(ticks() - c);
        }
        println!("core clock ~ {:.3} GHz (TSC ticks per core cycle {:.3})", hz / 1e9 * n as f64 / best as f64, best as f64 / n as f64);
    }
    let key = Key::new(&[0x5a; 32]);
    key.precompute();
    for b in Platform::hardware().only(&[Feature::Avx2Fma, Feature::Avx512]).variants() {
        if b.has(unimac::Feature::Avx512) && !b.has(unimac::Feature::Avx2Fma) {
            continue; // the portable backend again
        }
        for &n in &[64usize, 128, 256, 512, 1024, 2048, 16 << 10, 256 << 10, 1 << 20, 16 << 20] {
            let m: Vec<u8> = (0..n).map(|i| (i * 131) as u8).collect();
            let batch = ((16 << 10) / n).clamp(1, 256) as u64;
            let reps = (((64 << 20) / n) as u64 / batch).clamp(5, 20000);
            let mut best = u64::MAX;
            for _ in 0..reps {
                let c = ticks();
                for _ in 0..batch {
                    std::hint::black_box(hash127_on(b, &key, std::hint::black_box(&m), true, usize::MAX));
                }
                best = best.min(ticks() - c);
            }
            let best = best / batch;
            println!("{:<8} {n:>9} B: {best:>10} ticks, {:.3} ticks/byte, {:.2} GiB/s", Hash127::new_on(b, &key).backend(), best as f64 / n as f64, n as f64 / (best as f64 / hz) / (1u64 << 30) as f64);
        }
    }
    // Against RustCrypto poly1305 (autodetected AVX2) and BLAKE3 keyed, one
    // thread each, measurements interleaved so a busy machine hits all alike.
    {
        use poly1305::universal_hash::KeyInit;
        let kb = [0x5au8; 32];
        let pk = poly1305::Key::from_slice(&kb);
        let avx2 = Platform::hardware().only(&[Feature::Avx2Fma]);
        println!("least TSC ticks of interleaved runs (one thread); ratios = other / hash127 (default backend {})", Hash127::new(&key).backend());
        for &n in &[0usize, 16, 64, 1024, 16 << 10, 1 << 20] {
            let m: Vec<u8> = (0..n).map(|i| (i * 131) as u8).collect();
            let reps = ((256 << 20) / n.max(1)).clamp(20, 100000);
            // Batches of calls, so short messages are timed well above the
            // TSC's resolution; the figure is per call.
            let batch = ((16 << 10) / n.max(1)).clamp(1, 256) as u64;
            let reps = (reps as u64 / batch).max(20);
            let mut best = [u64::MAX; 4];
            for _ in 0..reps {
                let c = ticks();
                for _ in 0..batch {
                    std::hint::black_box(unimac::unstable::hash127::hash127(&key, std::hint::black_box(&m)));
                }
                let d0 = ticks();
                // The AVX2 backend alone (same as the default where the CPU
                // lacks AVX-512F).
                for _ in 0..batch {
                    std::hint::black_box(hash127_on(avx2, &key, std::hint::black_box(&m), true, usize::MAX));
                }
                let d = ticks();
                for _ in 0..batch {
                    std::hint::black_box(poly1305::Poly1305::new(pk).compute_unpadded(std::hint::black_box(&m)));
                }
                let e = ticks();
                for _ in 0..batch {
                    std::hint::black_box(blake3::keyed_hash(&kb, std::hint::black_box(&m)));
                }
                let f = ticks();
                best = [best[0].min(d0 - c), best[1].min(e - d), best[2].min(f - e), best[3].min(d - d0)];
            }
            let best = best.map(|b| b / batch);
            let gib = |t: u64| n as f64 / (t as f64 / hz) / (1u64 << 30) as f64;
            println!(
                "{n:>8} B: hash127 {:>8} ({:.3}/B, {:.2} GiB/s) | {avx2} {:>8} ({:.3}/B, blake3 x{:.2}) | poly1305 {:>8} ({:.2} GiB/s, x{:.2}) | blake3-keyed {:>8} ({:.2} GiB/s, x{:.2})",
                best[0], best[0] as f64 / n as f64, gib(best[0]),
                best[3], best[3] as f64 / n as f64, best[2] as f64 / best[3] as f64,
                best[1], gib(best[1]), best[1] as f64 / best[0] as f64,
                best[2], gib(best[2]), best[2] as f64 / best[0] as f64,
            );
        }
        let mut best = u64::MAX;
        for _ in 0..200 {
            let c = ticks();
            std::hint::black_box(Key::new(std::hint::black_box(&kb))).precompute();
            best = best.min(ticks() - c);
        }
        println!("key expansion: {best} ticks ({:.2} us)", best as f64 / hz * 1e6);
    }
    // Both cores: 64 MiB in one call, split at the default threshold.
    let n = 64 << 20;
    let m: Vec<u8> = (0..n).map(|i| (i * 131) as u8).collect();
    for (name, par) in [("one thread", usize::MAX), ("threads", unimac::unstable::hash127::PARALLEL_MIN)] {
        let mut best = f64::MAX;
        for _ in 0..9 {
            let t = Instant::now();
            std::hint::black_box(hash127_on(Platform::detect(), &key, std::hint::black_box(&m), true, par));
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("64 MiB, {name}: {:.2} ms, {:.2} GiB/s", best * 1e3, n as f64 / best / (1u64 << 30) as f64);
    }
}
