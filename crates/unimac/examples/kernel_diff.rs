//! Every SIMD kernel this build can reach, against the portable path, on
//! short inputs that still cross each kernel's thresholds, block edges and
//! tails. Small enough to run under Miri (`scripts/check-unsafe`), where the
//! kernels' loads, stores and intrinsics are checked for undefined
//! behaviour: Miri reports the CPU features the program was compiled with
//! (`-Ctarget-feature=+avx2,+fma,+pclmulqdq,+vpclmulqdq,+gfni`), so those
//! kernels run, each against `Platform::portable()`.
//!
//! Prints one line per family with the backends it compared and exits
//! non-zero on any difference, or when no fast backend was reached at all
//! (a run that compared nothing is not a pass).
//!
//! ```text
//! cargo run --release -p unimac --example kernel_diff          # natively
//! scripts/check-unsafe                                          # under Miri
//! ```

use unimac::unstable::prelude::*;
use unimac::unstable::hash127::{Hash127, Key};
use unimac::unstable::mmh::{Mmh32, Nmh32};
use unimac::platform::{Feature, Platform};
use unimac::unstable::shoup::eval128::Eval128;
use unimac::unstable::shoup::{Hasher, Kind};
use unimac::unstable::square::{BlockKey, Variant};
use unimac::umac::Umac;
use unimac::vmac::Vmac;

/// Deterministic bytes (xorshift), so a failure can be reproduced.
fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// Inputs of these lengths: empty, short, around 16/32/64-byte lanes and
/// blocks, and (scaled by `big`) beyond each kernel's bulk threshold. Every
/// other input is all ones, the extreme value of every word.
fn inputs(lens: &[usize]) -> Vec<Vec<u8>> {
    lens.iter()
        .enumerate()
        .map(|(i, &n)| if i % 2 == 1 { vec![0xff; n] } else { bytes(i as u64 + 1, n) })
        .collect()
}

struct Report {
    family: &'static str,
    backends: Vec<&'static str>,
    compared: usize,
}

fn main() {
    let hw = Platform::detect();
    println!("features: {}", hw);
    let mut reports = Vec::new();
    let mut failures = 0usize;

    // Every variant of the detected features: each subset reaches the
    // backend the dispatch picks for it.
    let variants = hw.variants();
    let portable = Platform::portable();

    // hash127: the AVX2/AVX-512 floating-point kernels start at 32 words.
    {
        let key = Key::new(&bytes(11, 32).try_into().unwrap());
        key.precompute_on(hw);
        let msgs = inputs(&[0, 1, 15, 16, 17, 127, 128, 129, 300, 520, 1030]);
        let mut r = Report { family: "hash127", backends: Vec::new(), compared: 0 };
        for &p in &variants {
            let name = Hash127::new_on(p, &key).backend();
            if r.backends.contains(&name) {
                continue;
            }
            r.backends.push(name);
            for m in &msgs {
                let mut a = Hash127::new_on(p, &key);
                a.update(m);
                let mut b = Hash127::new_on(portable, &key);
                b.update(m);
                if a.finalize() != b.finalize() {
                    eprintln!("hash127 {name}: differs at {} bytes", m.len());
                    failures += 1;
                }
                r.compared += 1;
            }
        }
        reports.push(r);
    }

    // MMH-32 and NMH-32: block kernels, several blocks at once.
    {
        let mut r = Report { family: "mmh32/nmh32", backends: Vec::new(), compared: 0 };
        let mut seen = Vec::new();
        for n in [1usize, 4] {
            let key = bytes(21 + n as u64, 4 * (31 + n));
            let nkey = bytes(31 + n as u64, 4 * 32);
            for &p in &variants {
                let m = Mmh32::new_on(p, n, &key).expect("mmh key");
                let m0 = Mmh32::new_on(portable, n, &key).expect("mmh key");
                let h = Nmh32::new_on(p, &nkey).expect("nmh key");
                let h0 = Nmh32::new_on(portable, &nkey).expect("nmh key");
                let name = m.backend();
                if seen.contains(&(n, name, h.backend())) {
                    continue;
                }
                seen.push((n, name, h.backend()));
                for name in [m.backend(), h.backend()] {
                    if !r.backends.contains(&name) {
                        r.backends.push(name);
                    }
                }
                for blocks in [1usize, 3, 9] {
                    for (i, src) in inputs(&[128 * blocks, 128 * blocks]).iter().enumerate() {
                        let mut a = vec![0u8; 4 * n * blocks];
                        let mut b = a.clone();
                        m.hash_blocks(src, &mut a);
                        m0.hash_blocks(src, &mut b);
                        let mut c = vec![0u8; 4 * blocks];
                        let mut d = c.clone();
                        h.hash_blocks(src, &mut c);
                        h0.hash_blocks(src, &mut d);
                        if a != b || c != d {
                            eprintln!("mmh/nmh {}: differs (n {n}, {blocks} blocks, input {i})", m.backend());
                            failures += 1;
                        }
                        r.compared += 2;
                    }
                }
            }
        }
        reports.push(r);
    }

    // Square Hash: every width and variant, several blocks.
    {
        let mut r = Report { family: "square", backends: Vec::new(), compared: 0 };
        // Square Hash reports no backend name: the AVX2 kernel needs
        // avx2fma, the AVX-512 one avx512 as well.
        let mut platforms = Vec::new();
        for (p, name) in [(hw.only(&[Feature::Avx2Fma]), "avx2fma"), (hw, "avx512")] {
            if p.has(Feature::Avx2Fma) && (name == "avx2fma" || p.has(Feature::Avx512)) {
                r.backends.push(name);
                platforms.push(p);
            }
        }
        for l in [32usize, 64, 96, 128] {
            for v in [Variant::Star, Variant::Asm, Variant::Asm2, Variant::C, Variant::C2, Variant::E] {
                let key = bytes(l as u64 + v as u64, 8 * l / 8);
                for &p in &platforms {
                    let k = BlockKey::new_on(p, l, v, &key).expect("square key");
                    let k0 = BlockKey::new_on(portable, l, v, &key).expect("square key");
                    for blocks in [1usize, 5] {
                        for src in inputs(&[blocks * k.block_bytes(), blocks * k.block_bytes()]) {
                            let mut a = vec![0u8; blocks * k.out_bytes()];
                            let mut b = a.clone();
                            k.hash_blocks(&src, &mut a).expect("square blocks");
                            k0.hash_blocks(&src, &mut b).expect("square blocks");
                            if a != b {
                                eprintln!("square l={l} {v:?}: differs on {p}");
                                failures += 1;
                            }
                            r.compared += 1;
                        }
                    }
                }
            }
        }
        reports.push(r);
    }

    // Shoup's hashes over GF(2^64) and GF(2^128): carry-less products.
    {
        let mut r = Report { family: "shoup", backends: Vec::new(), compared: 0 };
        let (mut seen, mut seen128) = (Vec::new(), Vec::new());
        let msgs = inputs(&[0, 1, 7, 8, 9, 63, 64, 65, 200, 513]);
        let key: [u8; 8] = bytes(41, 8).try_into().unwrap();
        let alpha: [u8; 16] = bytes(43, 16).try_into().unwrap();
        for &p in &variants {
            for kind in [Kind::Eval64, Kind::Division64, Kind::GDivision64] {
                let h = Hasher::new_on(p, kind, &key);
                let h0 = Hasher::new_on(portable, kind, &key);
                let name = h.backend();
                if seen.contains(&(kind, name)) {
                    continue;
                }
                seen.push((kind, name));
                if !r.backends.contains(&name) {
                    r.backends.push(name);
                }
                for m in &msgs {
                    if h.hash(m) != h0.hash(m) {
                        eprintln!("shoup {kind:?} {name}: differs at {} bytes", m.len());
                        failures += 1;
                    }
                    r.compared += 1;
                }
            }
            let e = Eval128::new_on(p, &alpha);
            let e0 = Eval128::new_on(portable, &alpha);
            let name = e.backend();
            if seen128.contains(&name) {
                continue;
            }
            seen128.push(name);
            if !r.backends.contains(&name) {
                r.backends.push(name);
            }
            for m in &msgs {
                if e.oneshot(m) != e0.oneshot(m) {
                    eprintln!("eval128 {name}: differs at {} bytes", m.len());
                    failures += 1;
                }
                r.compared += 1;
            }
        }
        reports.push(r);
    }

    // UMAC and VMAC: the NH kernels (UMAC's 1024-byte and VMAC's 128-byte
    // blocks).
    {
        let mut r = Report { family: "umac/vmac", backends: Vec::new(), compared: 0 };
        let mut seen = Vec::new();
        let key16: [u8; 16] = bytes(51, 16).try_into().unwrap();
        let nonce = [7u8; 8];
        let vnonce = [9u8; 16];
        let msgs = inputs(&[0, 1, 31, 32, 33, 127, 128, 129, 1023, 1024, 1025, 2100]);
        for &p in &variants {
            let u = Umac::<16>::new_on(p, &key16);
            let u0 = Umac::<16>::new_on(portable, &key16);
            let v = Vmac::<16>::new_on(p, &key16).expect("vmac key");
            let v0 = Vmac::<16>::new_on(portable, &key16).expect("vmac key");
            if seen.contains(&(u.backend(), v.backend())) {
                continue;
            }
            seen.push((u.backend(), v.backend()));
            for name in [u.backend(), v.backend()] {
                if !r.backends.contains(&name) {
                    r.backends.push(name);
                }
            }
            for m in &msgs {
                let a = u.tag(&nonce, m).expect("umac");
                let b = u0.tag(&nonce, m).expect("umac");
                let c = v.tag(&vnonce, m).expect("vmac");
                let d = v0.tag(&vnonce, m).expect("vmac");
                if a != b || c != d {
                    eprintln!("umac/vmac {}: differs at {} bytes", u.backend(), m.len());
                    failures += 1;
                }
                r.compared += 2;
            }
        }
        reports.push(r);
    }

    let mut fast = 0usize;
    for r in &reports {
        fast += r.backends.iter().filter(|b| **b != "portable").count();
        println!("{:<12} {:>5} comparisons, backends: {}", r.family, r.compared, r.backends.join(", "));
    }
    if failures > 0 {
        eprintln!("FAILED: {failures} differences");
        std::process::exit(1);
    }
    if fast == 0 {
        eprintln!("FAILED: no fast backend was reached (features: {hw}); nothing was checked");
        std::process::exit(1);
    }
    println!("ok: every reached kernel equals the portable path");
}
