//! eval128 against RustCrypto's POLYVAL 0.7, best of many runs per size: on a
//! loaded machine the minimum is the steadiest figure (criterion's mean moves
//! with the other processes). `cargo run --release -p unimac-kernel-bench --example eval128_min`.

use unimac::unstable::prelude::*;
use std::hint::black_box;
use std::time::Instant;

use polyval07::universal_hash::UniversalHash;
use unimac::unstable::shoup::eval128::Eval128;
use unimac::{Feature, Platform};

fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut b = f64::MAX;
    for _ in 0..reps {
        let t = Instant::now();
        f();
        b = b.min(t.elapsed().as_secs_f64());
    }
    b
}

fn main() {
    for size in [16usize << 10, 1 << 20] {
        let data: Vec<u8> = (0..size).map(|i| (i * 131 + 7) as u8).collect();
        let reps = if size < 1 << 20 { 20000 } else { 400 };
        let gib = |t: f64| size as f64 / t / (1u64 << 30) as f64;
        let pv = polyval07::Polyval::new(&[7u8; 16].into());
        let tp = best(reps, || {
            let mut s = pv.clone();
            s.update_padded(black_box(&data));
            black_box(s.finalize());
        });
        println!("{:>5} KiB  polyval-0.7            {:6.2} GiB/s", size >> 10, gib(tp));
        let mut seen = vec!["portable"];
        for p in Platform::hardware().only(&[Feature::Pclmul, Feature::Vpclmul, Feature::Avx512]).variants().into_iter().rev() {
            let mut h = Eval128::new_on(p, &[7u8; 16]);
            let b = h.backend();
            if seen.contains(&b) {
                continue;
            }
            seen.push(b);
            let t = best(reps, || {
                h.update(black_box(&data));
                black_box(h.finalize_reset());
            });
            println!("{:>5} KiB  eval128 {:<14} {:6.2} GiB/s  {:.2}x polyval-0.7", size >> 10, b, gib(t), tp / t);
        }
    }
}
