//! The family's one differential check: every Square Hash backend this CPU
//! can run against the word-by-word reference (`reference.rs`), for every
//! width and variant, through the one-shot path and [`BlockKey::hash_blocks`]
//! (runs of blocks around the kernels' groups of four and eight), on random
//! and extreme keys and messages. Each kernel module's tests call
//! [`differential`].

use rand::{RngExt, SeedableRng};

use super::*;
use crate::platform;

/// One input: width `l`, variant, a key of `k` elements and `n` blocks of
/// the key's length.
#[derive(Debug)]
pub(super) struct Case {
    l: usize,
    variant: Variant,
    key: Vec<u8>,
    blocks: Vec<u8>,
}

/// A platform this CPU has on which the dispatch picks `b`.
fn platform_for(b: Backend) -> Platform {
    Platform::hardware().variants().into_iter().find(|&p| Backend::for_platform(p) == b).expect("a backend of this CPU")
}

fn cases() -> Vec<Case> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x737168);
    let mut v = Vec::new();
    for l in WIDTHS {
        let e = l / 8;
        for variant in Variant::ALL {
            for (k, n) in [(1, 9), (2, 4), (3, 8), (4, 3), (5, 17), (7, 1), (8, 12), (13, 9), (22, 8)] {
                let keys = [vec![0xff; k * e], vec![0; k * e], (0..k * e).map(|_| rng.random()).collect::<Vec<u8>>()];
                for key in keys {
                    let len = n * k * e;
                    let msgs = [
                        vec![0xff; len],
                        (0..len).map(|i| if i % e == e - 1 { 0x80 } else { 0 }).collect(),
                        (0..len).map(|_| rng.random()).collect::<Vec<u8>>(),
                    ];
                    for blocks in msgs {
                        v.push(Case { l, variant, key: key.clone(), blocks });
                    }
                }
            }
        }
    }
    v
}

/// The reference, block by block.
fn reference(c: &Case) -> Vec<Vec<u8>> {
    let out: Vec<u8> = c
        .blocks
        .chunks_exact(c.key.len())
        .flat_map(|b| super::reference::hash_bytes(c.l as u32, c.variant, &c.key, b))
        .collect();
    vec![out]
}

/// Backend `b` through the one-shot path and through a [`BlockKey`]: the
/// distinct results (one when they agree).
fn dispatch(b: Backend, c: &Case) -> Vec<Vec<u8>> {
    let p = platform_for(b);
    let o = c.variant.out_bytes(c.l);
    let mut one = vec![0u8; c.blocks.len() / c.key.len() * o];
    for (m, out) in c.blocks.chunks_exact(c.key.len()).zip(one.chunks_exact_mut(o)) {
        hash_into_with(p, b, c.l, c.variant, &c.key, m, out).expect("valid sizes");
    }
    let bk = BlockKey::new_on(p, c.l, c.variant, &c.key).expect("valid key");
    assert_eq!(bk.backend, b);
    let mut many = vec![0u8; one.len()];
    bk.hash_blocks(&c.blocks, &mut many).expect("valid sizes");
    let mut got = vec![one, many];
    got.dedup();
    got
}

/// [`platform::check_backends`] over every backend of the family, counting
/// the comparisons of `own` (the calling kernel module's backend).
pub(super) fn differential(own: Backend) -> usize {
    let own_runs = core::cell::Cell::new(0usize);
    let n = platform::check_backends::<Backend, _, _>(&cases(), reference, |b, c| {
        if b == own {
            own_runs.set(own_runs.get() + 1);
        }
        dispatch(b, c)
    });
    assert!(n > 0, "no comparison made");
    if platform::backends::<Backend>().contains(&own) {
        assert!(own_runs.get() > 0, "{} was not compared", own.name());
    } else {
        platform::skipped_kernel(own.name());
    }
    n
}
