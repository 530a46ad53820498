//! `M mod p` for a 1 MiB integer `M` and a random 128-bit prime `p`:
//! unimac's `modp` against GMP's `mpz_mod` (through rug) and num-bigint's `%`,
//! all in the same run on the same inputs, timed alternately.
//!
//! ```text
//! apt-get install -y libgmp-dev
//! cargo run --release --manifest-path bench/peers-gmp/Cargo.toml [BYTES...]
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rug::Integer;
use unimac::modp::SecretPrime;
use unimac::unstable::ModpExt as _;

/// Calls of `f` that take at least 50 µs (short rounds: on a shared machine
/// a short round is more likely to run undisturbed).
fn calls_for(f: &mut dyn FnMut()) -> u32 {
    let mut calls = 1u32;
    loop {
        let t = Instant::now();
        for _ in 0..calls {
            f();
        }
        if t.elapsed() >= Duration::from_micros(50) {
            return calls;
        }
        calls *= 2;
    }
}

/// The three functions timed alternately, `ROUNDS` short rounds each; the
/// best round of each counts (on a shared machine the best is the least
/// disturbed) and the median is shown beside it.
fn interleaved(fs: &mut [&mut dyn FnMut()]) -> Vec<(Duration, Duration)> {
    const ROUNDS: usize = 301;
    let calls: Vec<u32> = fs.iter_mut().map(|f| calls_for(&mut **f)).collect();
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(ROUNDS); fs.len()];
    for _ in 0..ROUNDS {
        for (i, f) in fs.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..calls[i] {
                f();
            }
            times[i].push(t.elapsed() / calls[i]);
        }
    }
    times
        .into_iter()
        .map(|mut v| {
            v.sort();
            (v[0], v[v.len() / 2])
        })
        .collect()
}

fn main() {
    let sizes: Vec<usize> = {
        let a: Vec<usize> = std::env::args().skip(1).map(|s| s.parse().expect("sizes in bytes")).collect();
        if a.is_empty() {
            vec![1 << 20, 64 << 10, 4 << 10, 256]
        } else {
            a
        }
    };
    let key = SecretPrime::generate().expect("OS random generator");
    let p_bytes = key.to_bytes();
    let p = u128::from_le_bytes(*p_bytes);
    let p_gmp = Integer::from(p);
    let p_num = BigUint::from(p);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    println!(
        "# best of 301 interleaved rounds; backend {:?}{}",
        unimac::modp::SecretPrime::backend_on(unimac::Platform::detect()),
        if std::env::var_os("UNIMAC_FORCE_PORTABLE").is_some() { " (UNIMAC_FORCE_PORTABLE)" } else { "" }
    );
    println!(
        "{:>9}  {:>12} {:>8}  {:>12} {:>8}  {:>12} {:>8}  {:>9} {:>9}",
        "bytes", "unimac", "GB/s", "GMP mpz_mod", "GB/s", "num-bigint %", "GB/s", "vs GMP", "vs num"
    );
    for &n in &sizes {
        let mut m = vec![0u8; n];
        rng.fill_bytes(&mut m);
        m[n - 1] |= 0x80;
        let m_gmp = Integer::from_digits(&m, rug::integer::Order::Lsf);
        let m_num = BigUint::from_bytes_le(&m);
        // Same answer from all three.
        let ours = key.reduce_u128(&m);
        let mut r_gmp = Integer::new();
        r_gmp.assign_mod(&m_gmp, &p_gmp);
        assert_eq!(r_gmp, Integer::from(ours));
        assert_eq!(&m_num % &p_num, BigUint::from(ours));
        let mut r = Integer::with_capacity(128);
        let t = interleaved(&mut [
            &mut || {
                black_box(key.reduce_u128(black_box(&m)));
            },
            &mut || {
                // mpz_mod into a preallocated result (no allocation in the loop).
                r.assign_mod(black_box(&m_gmp), &p_gmp);
                black_box(&r);
            },
            &mut || {
                black_box(black_box(&m_num) % &p_num);
            },
        ]);
        let (t_ours, t_gmp, t_num) = (t[0].0, t[1].0, t[2].0);
        let ratio_median = |i: usize| t[i].1.as_secs_f64() / t[0].1.as_secs_f64();
        let gbs = |t: Duration| n as f64 / t.as_secs_f64() / 1e9;
        println!(
            "{:>9}  {:>12.2?} {:>8.2}  {:>12.2?} {:>8.2}  {:>12.2?} {:>8.2}  {:>8.2}x {:>8.2}x",
            n,
            t_ours,
            gbs(t_ours),
            t_gmp,
            gbs(t_gmp),
            t_num,
            gbs(t_num),
            t_gmp.as_secs_f64() / t_ours.as_secs_f64(),
            t_num.as_secs_f64() / t_ours.as_secs_f64()
        );
        println!("{:>9}  medians: unimac {:.2?}, GMP {:.2?} ({:.2}x), num-bigint {:.2?} ({:.2}x)", "", t[0].1, t[1].1, ratio_median(1), t[2].1, ratio_median(2));
    }
}

trait AssignMod {
    fn assign_mod(&mut self, m: &Integer, p: &Integer);
}

impl AssignMod for Integer {
    /// `mpz_mod(self, m, p)`.
    fn assign_mod(&mut self, m: &Integer, p: &Integer) {
        // SAFETY: all three are initialised rug Integers (valid mpz_t), and
        // mpz_mod allows any of them to alias; `self` is borrowed mutably.
        unsafe { gmp_mpfr_sys::gmp::mpz_mod(self.as_raw_mut(), m.as_raw(), p.as_raw()) }
    }
}
