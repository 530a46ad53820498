//! The one differential test of Shoup's kernels ([`check_kernels`]), which
//! each kernel module's tests call.

use crate::prelude::*;
use rand::{Rng, RngExt, SeedableRng};

use super::eval128::{self, Eval128};
use super::{gf2, GBackend, Hasher, Kind, RingBackend};
use crate::platform::{check_backends, Platform};

/// Message lengths around every kernel's step and tail: every length up to
/// 80 bytes, then around 128, 256, 512, 1024 and 2048 bytes.
fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=80).collect();
    for edge in [128, 256, 512, 1024, 2048] {
        v.extend([edge - 9, edge - 8, edge - 1, edge, edge + 1, edge + 8, edge + 16 + 5]);
    }
    v
}

/// `x · y` carry-less, bit by bit: the model.
fn clmul_model(x: u64, y: u64) -> u128 {
    (0..64).filter(|j| (y >> j) & 1 == 1).fold(0u128, |z, j| z ^ ((x as u128) << j))
}

/// Every backend of every Shoup hash this CPU can run, through
/// [`check_backends`], against the portable path (whose arithmetic
/// `tests/suite/shoup.rs` checks against models): eval64, division64 and
/// gdivision64 ([`RingBackend`], [`GBackend`]) and eval128
/// ([`eval128::Backend`]) one-shot and streamed in 7-byte pieces, on random
/// and all-ones messages of every length in [`lengths`] under random and
/// extreme keys; and the one-product kernel against the bitwise model on
/// random and extreme operands. Returns the number of comparisons.
pub(super) fn check_kernels() -> usize {
    let mut r = rand::rngs::StdRng::seed_from_u64(0x73686f75);
    let mut random = vec![0u8; 2100];
    r.fill_bytes(&mut random);
    let msgs = [random, vec![0xff; 2100]];
    let keys8: Vec<[u8; 8]> = [0u64, 1, u64::MAX, 1 << 63, r.random(), r.random()].iter().map(|k| k.to_le_bytes()).collect();
    let keys16: Vec<[u8; 16]> =
        [0u128, 1, u128::MAX, 1 << 127, r.random(), r.random()].iter().map(|k| k.to_le_bytes()).collect();
    // (message, key, length); the keys and messages are indexed so that a
    // failure prints the case, not the bytes.
    let cases = |nkeys: usize| -> Vec<(usize, usize, usize)> {
        let mut v = Vec::new();
        for m in 0..msgs.len() {
            for k in 0..nkeys {
                // The long lengths under two keys only: they are slow on
                // the portable path.
                for &len in lengths().iter().filter(|&&l| l <= 80 || k % 3 == 0) {
                    v.push((m, k, len));
                }
            }
        }
        v
    };
    let run = |h: &Hasher, msg: &[u8]| {
        let mut s = h.clone();
        msg.chunks(7).for_each(|c| s.update(c));
        (h.hash(msg), s.finalize())
    };
    let mut n = 0;
    let inputs = cases(keys8.len());
    for kind in [Kind::Eval64, Kind::Division64] {
        let reference: Vec<Hasher> = keys8.iter().map(|k| Hasher::new_on(Platform::portable(), kind, k)).collect();
        n += check_backends(
            &inputs,
            |&(m, k, len)| run(&reference[k], &msgs[m][..len]),
            |b: RingBackend, &(m, k, len)| {
                run(&Hasher::with_backends(kind, &keys8[k], b, GBackend::Portable), &msgs[m][..len])
            },
        );
    }
    let reference: Vec<Hasher> =
        keys8.iter().map(|k| Hasher::new_on(Platform::portable(), Kind::GDivision64, k)).collect();
    n += check_backends(
        &inputs,
        |&(m, k, len)| run(&reference[k], &msgs[m][..len]),
        |b: GBackend, &(m, k, len)| {
            run(&Hasher::with_backends(Kind::GDivision64, &keys8[k], RingBackend::Portable, b), &msgs[m][..len])
        },
    );
    let run128 = |h: &Eval128, msg: &[u8]| {
        let mut s = h.clone();
        msg.chunks(7).for_each(|c| s.update(c));
        (h.oneshot(msg), s.finalize())
    };
    let reference: Vec<Eval128> = keys16.iter().map(|k| Eval128::new_on(Platform::portable(), k)).collect();
    n += check_backends(
        &cases(keys16.len()),
        |&(m, k, len)| run128(&reference[k], &msgs[m][..len]),
        |b: eval128::Backend, &(m, k, len)| {
            run128(&Eval128::with_backend(Platform::hardware(), b, &keys16[k]), &msgs[m][..len])
        },
    );
    let extreme = [0u64, 1, 2, u64::MAX, 1 << 63, 0x5555_5555_5555_5555];
    let mut pairs: Vec<(u64, u64)> = extreme.iter().flat_map(|&a| extreme.iter().map(move |&b| (a, b))).collect();
    pairs.extend((0..500).map(|_| (r.random(), r.random())));
    n += check_backends(
        &pairs,
        |&(x, y)| clmul_model(x, y),
        |b: RingBackend, &(x, y)| match b {
            RingBackend::Portable => gf2::clmul64(x, y),
            #[cfg(target_arch = "x86_64")]
            _ => super::clmul::clmul64(Platform::hardware(), x, y),
            #[cfg(target_arch = "aarch64")]
            RingBackend::Pmull => super::pmull::clmul64(Platform::hardware(), x, y),
        },
    );
    n
}

#[test]
fn every_backend_agrees_with_portable() {
    assert!(check_kernels() > 0);
}
