//! The family's one differential check: every `mmh32xN` and `nmh32` kernel
//! this CPU can run against the paper's definitions ([`super::generic`],
//! Definitions 5 and 10 with the Toeplitz shift of section 2.4), on random
//! and extreme keys and blocks, in runs of every length around the kernels'
//! groups of four and eight blocks. Each kernel module's tests call
//! [`differential`] with its own entry point.

use crate::prelude::*;
use rand::{RngExt, SeedableRng};

use super::generic::{self, Prime};
use super::{run_mmh32, run_nmh32, Backend, K};
use crate::platform::{self, Backend as _, Platform};

/// One input: `outputs` Toeplitz words of `mmh32xN` (`1..=4`), or `nmh32`
/// when 0; the key and the blocks as bytes.
#[derive(Debug)]
pub(super) struct Case {
    pub(super) outputs: usize,
    pub(super) key: Vec<u32>,
    pub(super) blocks: Vec<u8>,
}

fn cases() -> Vec<Case> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x6d6d68);
    let mut v = Vec::new();
    for outputs in 0..=4usize {
        let klen = if outputs == 0 { K } else { K - 1 + outputs };
        let keys: Vec<Vec<u32>> =
            vec![vec![u32::MAX; klen], vec![0; klen], (0..klen).map(|_| rng.random()).collect(), (0..klen).map(|_| rng.random()).collect()];
        for key in keys {
            for nblocks in [1usize, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 25] {
                let len = nblocks * 4 * K;
                let msgs: Vec<Vec<u8>> = vec![
                    vec![0xff; len],
                    vec![0; len],
                    (0..len).map(|i| if (i / 4) % 2 == 0 { 0xff } else { 0 }).collect(),
                    (0..len).map(|_| rng.random()).collect(),
                ];
                for blocks in msgs {
                    v.push(Case { outputs, key: key.clone(), blocks });
                }
            }
        }
    }
    v
}

/// The definitions, block by block, as little-endian output words.
fn reference(c: &Case) -> Vec<u8> {
    let p = Prime::<u32>::new(15).expect("2^32 + 15 is prime");
    let mut out = Vec::new();
    for b in c.blocks.chunks_exact(4 * K) {
        let m: Vec<u32> = b.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect();
        if c.outputs == 0 {
            out.extend(generic::nmh(&p, &c.key, &m).to_le_bytes());
        } else {
            for w in generic::mmh_toeplitz(&p, &c.key, &m, c.outputs) {
                out.extend(w.to_le_bytes());
            }
        }
    }
    out
}

/// The family's dispatch on backend `b` (every backend this CPU can run is
/// shown by `Platform::hardware`).
fn dispatch(b: Backend, c: &Case) -> Vec<u8> {
    let words = if c.outputs == 0 { 1 } else { c.outputs };
    let mut out = vec![0u8; c.blocks.len() / (4 * K) * 4 * words];
    if c.outputs == 0 {
        run_nmh32(Platform::hardware(), b, c.key.as_slice().try_into().unwrap(), &c.blocks, &mut out);
    } else {
        run_mmh32(Platform::hardware(), b, &c.key, &c.blocks, &mut out);
    }
    out
}

/// [`platform::check_backends`] over every backend of the family, with
/// `kernel` (one module's entry point, writing `out` for a case) standing in
/// for the dispatch on `own`. Returns the number of comparisons.
pub(super) fn differential(own: Backend, kernel: impl Fn(&Case, &mut [u8])) -> usize {
    let own_runs = core::cell::Cell::new(0usize);
    let n = platform::check_backends::<Backend, _, _>(&cases(), reference, |b, c| {
        if b != own {
            return dispatch(b, c);
        }
        own_runs.set(own_runs.get() + 1);
        let mut out = dispatch(Backend::Portable, c);
        out.fill(0xa5);
        kernel(c, &mut out);
        out
    });
    assert!(n > 0, "no comparison made");
    if platform::backends::<Backend>().contains(&own) {
        assert!(own_runs.get() > 0, "{} was not compared", own.name());
    } else {
        platform::skipped_kernel(own.name());
    }
    n
}

#[test]
fn backend_names_follow_the_platform_scheme() {
    assert_eq!(Backend::Portable.name(), "portable");
    assert_eq!(Backend::Avx2Fma.name(), crate::platform::Feature::Avx2Fma.name());
    assert_eq!(Backend::Avx512.name(), crate::platform::Feature::Avx512.name());
}
