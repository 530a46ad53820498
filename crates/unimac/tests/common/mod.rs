//! Helpers shared by the library's integration tests: the platforms a
//! family's backends are compared on, the message lengths around a
//! kernel's block edges, and the one form of a check that cannot run here.
#![allow(dead_code)]

mod skipped;
#[allow(unused_imports)]
pub use skipped::skipped;

use unimac::unstable::prelude::*;
use num_bigint::BigInt;
use num_integer::Integer;
use unimac::{Feature, Platform};

/// Every platform this CPU can run with only `features` kept, each subset
/// of them, portable first: every backend a family picks among them, each
/// reached through the evidence the default paths use.
pub fn platforms(features: &[Feature]) -> Vec<Platform> {
    Platform::hardware().only(features).variants()
}

/// Portable, then the hardware's `features` added one at a time, in the
/// order given, as far as this CPU has them: for a family whose each
/// backend needs the previous one's features (AVX2, then AVX-512F, then
/// IFMA52).
pub fn ladder(features: &[Feature]) -> Vec<Platform> {
    let hw = Platform::hardware();
    let mut v = vec![Platform::portable()];
    for (i, f) in features.iter().enumerate() {
        if !hw.has(*f) {
            break;
        }
        v.push(hw.only(&features[..=i]));
    }
    v
}

/// Every length from 0 to `upto`, and each `edge + offset` (the negative
/// ones left out) of each group `(edges, offsets)`: sorted, each once.
pub fn lengths(upto: usize, groups: &[(&[usize], &[i64])]) -> Vec<usize> {
    let mut v: Vec<usize> = (0..=upto).collect();
    for (edges, offsets) in groups {
        for &e in *edges {
            for &d in *offsets {
                if let Ok(n) = usize::try_from(e as i64 + d) {
                    v.push(n);
                }
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// `a · b mod (x^64 + lo)` over GF(2), one bit of `b` at a time from the
/// top: shift the partial result by `x`, reduce its overflow, add `a`.
pub fn gf2_mulmod64(a: u64, b: u64, lo: u64) -> u64 {
    let mut r = 0u64;
    for i in (0..64).rev() {
        let top = r >> 63;
        r <<= 1;
        if top == 1 {
            r ^= lo;
        }
        if (b >> i) & 1 == 1 {
            r ^= a;
        }
    }
    r
}

/// `a · b mod (x^64 + x^4 + x^3 + x + 1)`.
pub fn gf64_mul(a: u64, b: u64) -> u64 {
    gf2_mulmod64(a, b, 0x1b)
}

/// `a · b mod (x^128 + x^7 + x^2 + x + 1)`, bit by bit as
/// [`gf2_mulmod64`].
pub fn gf128_mul(a: u128, b: u128) -> u128 {
    let mut r = 0u128;
    for i in (0..128).rev() {
        let top = r >> 127;
        r <<= 1;
        if top == 1 {
            r ^= 0x87;
        }
        if (b >> i) & 1 == 1 {
            r ^= a;
        }
    }
    r
}

/// hash127's prime, `2^127 − 1`.
pub fn p127() -> BigInt {
    (BigInt::from(1) << 127) - 1
}

/// hash127 by its definition (docs/WIRE.md §2), in big integers:
/// `(r^(l+1) + m_0 r^l + … + m_{l−1} r + k) mod (2^127 − 1)`, everything
/// signed 32-bit words; the 16 bytes of the result.
pub fn hash127_model(r: [i32; 4], k: [i32; 4], m: &[i32]) -> [u8; 16] {
    let p = p127();
    let val = |w: [i32; 4]| -> BigInt { w.iter().enumerate().map(|(i, &x)| BigInt::from(x) << (32 * i)).sum() };
    let r = val(r).mod_floor(&p);
    let mut acc = BigInt::from(1);
    for &w in m {
        acc = (acc * &r + BigInt::from(w)).mod_floor(&p);
    }
    let out = (acc * &r + val(k)).mod_floor(&p);
    let (_, mut bytes) = out.to_bytes_le();
    bytes.resize(16, 0);
    bytes.try_into().unwrap()
}

/// Little-endian signed 32-bit words of `b` (whole words only).
pub fn words_of(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// hash127's key (32 bytes) as its words: `r` and `k`.
pub fn key_words(key: &[u8; 32]) -> ([i32; 4], [i32; 4]) {
    let w = words_of(key);
    ([w[0], w[1], w[2], w[3]], [w[4], w[5], w[6], w[7]])
}

/// hash127's key (32 bytes) from its words: [`key_words`] undone.
pub fn key_bytes(r: [i32; 4], k: [i32; 4]) -> [u8; 32] {
    let mut b = [0u8; 32];
    for i in 0..4 {
        b[4 * i..4 * i + 4].copy_from_slice(&r[i].to_le_bytes());
        b[16 + 4 * i..16 + 4 * i + 4].copy_from_slice(&k[i].to_le_bytes());
    }
    b
}

/// hash127's padding: a 1 byte, then zeros to a whole word.
pub fn pad4(m: &[u8]) -> Vec<u8> {
    let mut v = m.to_vec();
    v.push(1);
    while !v.len().is_multiple_of(4) {
        v.push(0);
    }
    v
}

/// The library's thread setting (`unimac::threads::set_max_threads`) is one
/// per process, and the suite's tests share the process and run side by
/// side: a test that changes it holds this guard for its whole run, so no
/// other such test sets it back in the middle of its threaded checks.
pub fn thread_setting() -> std::sync::MutexGuard<'static, ()> {
    static SETTING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SETTING.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
