//! Cycles per byte of UMAC-64 and VMAC-64 (and their wider tags) at 64 B,
//! 1 KiB, 16 KiB and 1 MiB, in the format of bench/peers-c/run.sh: one line
//! `unimac NAME SIZE CPB` each. Also `wc-eval64` (`unstable::mac::shoup::WcShoup64`, a
//! fresh 16-byte counter nonce per message) and `hash127-aes`
//! (`mac::Hash127Aes`, stateless) and `wc-eval128` (`mac::shoup::WcEval128`,
//! a counter nonce), each keyed once, through their typed APIs
//! as UMAC and VMAC are. The cycle counter is the time-stamp counter
//! (reference cycles); the peers' driver reads the same counter.
//!
//! After each size's figures, one line `kernel NAME SIZE KERNEL` a name:
//! the kernel (backend) the library's dispatch chose for that name on this
//! CPU at that size (`UNIMAC_DISABLE` taken into account), and once a line
//! `platform FEATURES`: the features the dispatch saw.
//!
//! `cargo run --release -p unimac --example umac_speed`; with
//! `BENCH_MSG_OFFSET=n` the message starts `n` bytes past a 64-byte
//! boundary (by default, where the allocator puts it).

use unimac::unstable::prelude::*;
use std::hint::black_box;
use std::time::{Duration, Instant};

use unimac::umac::{Umac128, Umac32, Umac64, Umac96};
use unimac::vmac::{Vmac128, Vmac64};

#[cfg(target_arch = "x86_64")]
fn cycles() -> u64 {
    // SAFETY: rdtsc has no preconditions on x86_64.
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(not(target_arch = "x86_64"))]
fn cycles() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
}

/// The median over 15 runs of the cycles per byte of `f` on `len` bytes.
/// With `UMAC_SPEED_FIXED=n` set, instead exactly `n` MiB of calls and no
/// timing (for counting core cycles from outside, e.g. `perf stat -e cycles`).
fn cpb(len: usize, mut f: impl FnMut()) -> f64 {
    if let Some(n) = std::env::var("UMAC_SPEED_FIXED").ok().and_then(|v| v.parse::<usize>().ok()) {
        for _ in 0..(n << 20) / len {
            f();
        }
        return 0.0;
    }
    let reps = (1 << 22) / len.max(64) + 1;
    let warm = Instant::now();
    while warm.elapsed() < Duration::from_millis(50) {
        f();
    }
    let mut v: Vec<f64> = (0..15)
        .map(|_| {
            let t = cycles();
            for _ in 0..reps {
                f();
            }
            (cycles() - t) as f64 / (reps * len) as f64
        })
        .collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    // Arguments: names to measure and sizes in bytes (default: all of both).
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&String> = args.iter().filter(|a| a.parse::<usize>().is_err()).collect();
    let mut sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![64, 1 << 10, 16 << 10, 1 << 20];
    }
    let want = |n: &str| names.is_empty() || names.iter().any(|x| *x == n);
    let key = *b"abcdefghijklmnop";
    let ctr = std::cell::Cell::new(0u64);
    let nonce = || {
        ctr.set(ctr.get() + 1);
        ctr.get().to_be_bytes()
    };
    let u32m = Umac32::new(&key);
    let u64m = Umac64::new(&key);
    let u96m = Umac96::new(&key);
    let u128m = Umac128::new(&key);
    let v64 = Vmac64::new(&key).unwrap();
    let v128 = Vmac128::new(&key).unwrap();
    let wc = unimac::unstable::mac::shoup::WcShoup64::new(unimac::unstable::shoup::Kind::Eval64, &[0x5a; 24]);
    let h127 = unimac::unstable::mac::Hash127Aes::new(&[0x5a; 32]);
    let e128 = unimac::unstable::mac::shoup::WcEval128::new(&[0x5a; 32]);
    let wide = |c: u64| (c as u128).to_le_bytes();
    for len in sizes {
        // The message where the allocator puts it, or `BENCH_MSG_OFFSET`
        // bytes past a 64-byte boundary (as bench/peers-c/peers.cc reads it).
        let off = std::env::var("BENCH_MSG_OFFSET").ok().and_then(|v| v.parse::<usize>().ok());
        let mut buf = vec![0u8; len + 128];
        let start = off.map_or(0, |o| (64 - buf.as_ptr() as usize % 64) % 64 + o % 64);
        let msg = &mut buf[start..start + len];
        msg.iter_mut().enumerate().for_each(|(i, b)| *b = (i * 131 + 7) as u8);
        let m = &*msg;
        let rows: Vec<(&str, f64)> = vec![
            ("umac32", if want("umac32") { cpb(len, || drop(black_box(u32m.tag(&nonce(), black_box(m))))) } else { f64::NAN }),
            ("umac64", if want("umac64") { cpb(len, || drop(black_box(u64m.tag(&nonce(), black_box(m))))) } else { f64::NAN }),
            ("umac96", if want("umac96") { cpb(len, || drop(black_box(u96m.tag(&nonce(), black_box(m))))) } else { f64::NAN }),
            ("umac128", if want("umac128") { cpb(len, || drop(black_box(u128m.tag(&nonce(), black_box(m))))) } else { f64::NAN }),
            ("vmac64", if want("vmac64") { cpb(len, || drop(black_box(v64.tag(&nonce(), black_box(m))))) } else { f64::NAN }),
            ("vmac128", if want("vmac128") { cpb(len, || drop(black_box(v128.tag(&nonce(), black_box(m))))) } else { f64::NAN }),
            ("wc-eval64", if want("wc-eval64") { cpb(len, || { black_box(wc.tag(&wide(u64::from_be_bytes(nonce())), black_box(m))); }) } else { f64::NAN }),
            ("hash127-aes", if want("hash127-aes") { cpb(len, || { black_box(h127.tag(black_box(m))); }) } else { f64::NAN }),
            ("wc-eval128", if want("wc-eval128") { cpb(len, || { black_box(e128.tag(&wide(u64::from_be_bytes(nonce())), black_box(m))); }) } else { f64::NAN }),
        ];
        for (n, c) in rows {
            if !c.is_nan() {
                println!("unimac {n} {len} {c:.3}");
                println!("kernel {n} {len} {}", kernel(n, len));
            }
        }
    }
    println!("platform {}", unimac::platform::Platform::detect());
}

/// The kernel the dispatch chose for `name` at `len` bytes on this CPU: the
/// backend its key (or hash state) names. hash127's one-shot dispatch
/// (`hash127::oneshot_lazy`) first: a message of at most 257 words with its
/// padding (1027 bytes) takes the short path (powers of `r` precomputed,
/// its head in AVX2 from 32 words), a longer one below
/// `hash127::AVX512_MIN` the AVX2 backend where the key's is an AVX-512
/// one.
fn kernel(name: &str, len: usize) -> String {
    let key = *b"abcdefghijklmnop";
    match name {
        "umac32" => Umac32::new(&key).backend().into(),
        "umac64" => Umac64::new(&key).backend().into(),
        "umac96" => Umac96::new(&key).backend().into(),
        "umac128" => Umac128::new(&key).backend().into(),
        "vmac64" => Vmac64::new(&key).map_or("?", |m| m.backend()).into(),
        "vmac128" => Vmac128::new(&key).map_or("?", |m| m.backend()).into(),
        "wc-eval64" => unimac::unstable::shoup::Hasher::new(unimac::unstable::shoup::Kind::Eval64, &[0x5a; 8]).backend().into(),
        "wc-eval128" => unimac::unstable::shoup::eval128::Eval128::new(&[0x5a; 16]).backend().into(),
        "hash127-aes" => {
            let b = unimac::unstable::hash127::Key::new(&[0x5a; 32]).backend();
            let avx2 = unimac::platform::Platform::detect().has(unimac::platform::Feature::Avx2Fma);
            if len / 4 < 257 {
                if len / 4 >= 32 && avx2 { "short+avx2fma" } else { "short" }.into()
            } else if b.starts_with("avx512") && len < unimac::unstable::hash127::AVX512_MIN {
                "avx2fma".into()
            } else {
                b.into()
            }
        }
        _ => "?".into(),
    }
}
