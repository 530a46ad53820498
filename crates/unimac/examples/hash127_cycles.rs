//! Cycles per byte of hash127 (one thread, key expanded once), by `rdtsc`:
//! the least time of many runs, so a busy machine disturbs it less.
//! Run: `cargo run --release -p unimac --example hash127_cycles`.

use std::time::Instant;
use unimac::hash127::{hash127_with, Backend, Key};

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
    let key = Key::new(&[0x5a; 32]);
    for b in Backend::all_supported() {
        for &n in &[64usize, 1024, 2048, 16 << 10, 256 << 10, 1 << 20, 16 << 20] {
            let m: Vec<u8> = (0..n).map(|i| (i * 131) as u8).collect();
            let reps = ((64 << 20) / n).clamp(5, 20000);
            let mut best = u64::MAX;
            for _ in 0..reps {
                let c = ticks();
                std::hint::black_box(hash127_with(b, &key, std::hint::black_box(&m), true, usize::MAX));
                best = best.min(ticks() - c);
            }
            println!("{b:?} {n:>9} B: {best:>10} ticks, {:.3} ticks/byte, {:.2} GiB/s", best as f64 / n as f64, n as f64 / (best as f64 / hz) / (1u64 << 30) as f64);
        }
    }
}
