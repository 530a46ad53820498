//! `tree-F` for the MMH/NMH block functions: streaming in every split equals
//! one-shot equals a plain, non-streaming model of docs/WIRE.md §6 written here with
//! the generic definitions of `unimac::unstable::hazmat::mmh::generic` as `F`.

use rand::{RngExt, SeedableRng};
use unimac::unstable::hazmat::mmh::generic::{self, Prime};
use unimac::unstable::registry::{self, pad, Params};
use unimac::unstable::tree::{family, keystream, tree_hash, Tree};

/// `F(key, block)` from the generic definitions (independent of the fast paths).
fn block_model(name: &str, key: &[u8], block: &[u8]) -> Vec<u8> {
    let w32 = |b: &[u8]| -> Vec<u32> { b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect() };
    let w64 = |b: &[u8]| -> Vec<u64> { b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect() };
    let p32 = Prime::<u32>::new(15).unwrap();
    match name {
        "nmh32" => generic::nmh(&p32, &w32(key), &w32(block)).to_le_bytes().to_vec(),
        "mmh64" => generic::mmh(&Prime::<u64>::new(13).unwrap(), &w64(key), &w64(block)).to_le_bytes().to_vec(),
        _ => {
            let n: usize = name.strip_prefix("mmh32x").unwrap().parse().unwrap();
            generic::mmh_toeplitz(&p32, &w32(key), &w32(block), n).iter().flat_map(|v| v.to_le_bytes()).collect()
        }
    }
}

/// docs/WIRE.md §6 as written: pad, hash every block with the level's key, repeat.
fn tree_model(name: &str, s: &[u8; 16], msg: &[u8]) -> Vec<u8> {
    let f = family(name).unwrap();
    let (b, k) = (f.block, f.key);
    let mut x = msg.to_vec();
    let mut j = 0;
    loop {
        let y = pad(&x, b);
        let key = &keystream(s, (j + 1) * k)[j * k..];
        if y.len() == b {
            return block_model(name, key, &y);
        }
        x = y.chunks(b).flat_map(|blk| block_model(name, key, blk)).collect();
        j += 1;
    }
}

const NAMES: [&str; 6] = ["mmh32x1", "mmh32x2", "mmh32x3", "mmh32x4", "nmh32", "mmh64"];

fn message(rng: &mut impl rand::Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.random()).collect()
}

#[test]
fn block_model_matches_registry() {
    // The model's F is the registry's F (which runs the dispatched fast path).
    let mut rng = rand::rngs::StdRng::seed_from_u64(10);
    for name in NAMES {
        let f = family(name).unwrap();
        for _ in 0..20 {
            let key = message(&mut rng, f.key);
            let blk = message(&mut rng, f.block);
            let got = registry::compute(name, &Params { key: &key, ..Default::default() }, &blk).unwrap();
            assert_eq!(got, block_model(name, &key, &blk), "{name}");
        }
    }
}

#[test]
fn every_split_point_equals_one_shot_and_model() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let s: [u8; 16] = rng.random();
    let mut total = 0;
    for name in NAMES {
        let f = family(name).unwrap();
        let (b, o) = (f.block, f.out);
        let fan = b / o; // blocks of level j that make one block of level j+1
        // Lengths around B, B·(B/O) (where a third level appears) and a little beyond.
        let mut lens = vec![0, 1, b - 2, b - 1, b, b + 1, 2 * b - 1, 2 * b + 5];
        for d in [-2i64, -1, 0, 1, 2] {
            lens.push((b as i64 * fan as i64 - o as i64 + d) as usize);
            lens.push((b as i64 * fan as i64 + d) as usize);
        }
        for len in lens {
            let msg = message(&mut rng, len);
            let want = tree_model(name, &s, &msg);
            assert_eq!(tree_hash(&f, &s, &msg), want, "{name} one-shot, len {len}");
            // Every split point is feasible up to a few thousand bytes; beyond,
            // every block boundary ±1 and 200 random points.
            let splits: Vec<usize> = if len <= 4200 {
                (0..=len).collect()
            } else {
                let mut v: Vec<usize> = (0..=len / b).flat_map(|i| [i * b, i * b + 1, (i * b).saturating_sub(1)]).collect();
                v.extend((0..200).map(|_| rng.random_range(0..=len)));
                v.retain(|&x| x <= len);
                v
            };
            for sp in splits {
                let mut t = Tree::of_family(f.clone(), &s);
                t.update(&msg[..sp]);
                t.update(&msg[sp..]);
                assert_eq!(t.finalize(), want, "{name} len {len} split {sp}");
                total += 1;
            }
        }
    }
    println!("{total} two-piece splits agree with one-shot and the docs/WIRE.md §6 model");
}

#[test]
fn random_chunkings_and_three_levels() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    let s: [u8; 16] = rng.random();
    for name in NAMES {
        let f = family(name).unwrap();
        let (b, o) = (f.block, f.out);
        let fan = b / o;
        // Around B·(B/O)^2, where a fourth level appears.
        for len in [b * fan * fan - 1, b * fan * fan, b * fan * fan + b + 3] {
            let msg = message(&mut rng, len);
            let want = tree_model(name, &s, &msg);
            for _ in 0..6 {
                let mut t = Tree::of_family(f.clone(), &s);
                let mut at = 0;
                while at < len {
                    let n = match rng.random_range(0..4) {
                        0 => rng.random_range(0..8),
                        1 => rng.random_range(0..3 * b),
                        2 => b * rng.random_range(1..40),
                        _ => rng.random_range(0..20_000),
                    }
                    .min(len - at);
                    t.update(&msg[at..at + n]);
                    at += n;
                }
                assert_eq!(t.finalize(), want, "{name} len {len}");
            }
        }
    }
}

#[test]
fn reused_tree_equals_fresh() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    let s: [u8; 16] = rng.random();
    for name in NAMES {
        let f = family(name).unwrap();
        let mut t = Tree::of_family(f.clone(), &s);
        for len in [70_000usize, 0, 5, 129, 20_000, 300_000, 1] {
            let msg = message(&mut rng, len);
            t.update(&msg);
            assert_eq!(t.finalize_reset(), tree_hash(&f, &s, &msg), "{name} len {len}");
        }
        t.update(b"forgotten");
        t.reset();
        t.update(b"abc");
        assert_eq!(t.finalize_reset(), tree_hash(&f, &s, b"abc"));
    }
}

#[test]
fn two_threads_for_large_slices_give_the_same_result() {
    let _setting = crate::common::thread_setting();
    // Slices of 4 MiB and more are cut into runs of B^2 bytes hashed through
    // levels 0 and 1 on the allowed threads; the result must equal feeding
    // the same bytes in small pieces (one thread)
    // and the model, with and without a partial block pending before.
    // Threads only when the application allows them.
    unimac::threads::set_max_threads(0);
    let mut rng = rand::rngs::StdRng::seed_from_u64(14);
    let s: [u8; 16] = rng.random();
    let msg = message(&mut rng, (9 << 20) + 12_345);
    for name in NAMES {
        let f = family(name).unwrap();
        let want = tree_model(name, &s, &msg);
        assert_eq!(tree_hash(&f, &s, &msg), want, "{name} one-shot (parallel)");
        for head in [1usize, 77, f.block, 3 * f.block + 5] {
            let mut t = Tree::of_family(f.clone(), &s);
            t.update(&msg[..head]);
            t.update(&msg[head..]);
            assert_eq!(t.finalize(), want, "{name} head {head} then the rest (parallel)");
        }
        let mut t = Tree::of_family(f.clone(), &s);
        for c in msg.chunks(1 << 20) {
            t.update(c);
        }
        assert_eq!(t.finalize(), want, "{name} in 1 MiB pieces (sequential)");
    }
    // Back to the default: the other modules' tests share this process.
    unimac::threads::set_max_threads(1);
}

#[test]
fn streaming_registry_and_mac_names_exist() {
    for name in NAMES {
        let t = format!("tree-{name}");
        let e = registry::lookup(&t).unwrap();
        assert_eq!(e.info.out, family(name).unwrap().out);
        assert!(registry::lookup(name).is_ok());
    }
}

#[test]
fn keystream_matches_block_by_block_aes() {
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    let mut rng = rand::rngs::StdRng::seed_from_u64(15);
    let s: [u8; 16] = rng.random();
    let aes = aes::Aes128::new((&s).into());
    // docs/WIRE.md §6, one counter block at a time: 100 blocks, across the batch size.
    let model: Vec<u8> = (0u128..100)
        .flat_map(|i| {
            let mut b = aes::Block::from(i.to_le_bytes());
            aes.encrypt_block(&mut b);
            b.to_vec()
        })
        .collect();
    assert_eq!(keystream(&s, 1600), model);
    for off in [0usize, 1, 15, 16, 17, 500, 511, 512, 513, 1000] {
        for n in [0usize, 1, 15, 16, 17, 127, 128, 129, 511, 512, 513, 1600 - 1000] {
            if off + n <= model.len() {
                assert_eq!(unimac::unstable::tree::keystream_range(&s, off, n), &model[off..off + n], "offset {off}, {n} bytes");
            }
        }
    }
}

/// The one-shot path of short messages (every level on the stack) equals the
/// model at every length it takes, for every block family, including the
/// lengths where a second or third level appears; longer messages are left
/// to the streaming tree (and equal the model too).
#[test]
fn short_one_shot_equals_model_for_every_family() {
    use std::sync::Arc;
    use unimac::unstable::tree::{families, TreeKey, SHORT_LEVEL};
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    let s: [u8; 16] = rng.random();
    let mut taken = 0;
    for f in families() {
        let (b, o) = (f.block, f.out);
        let key = Arc::new(TreeKey::new(f.clone(), &s));
        let most = (SHORT_LEVEL / o) * b; // beyond the short path's reach
        let mut lens: Vec<usize> = (0..=2 * b + 2).collect();
        for k in [b / o, 2 * b / o, most / b - 1, most / b] {
            for d in [-1i64, 0, 1] {
                lens.push((k as i64 * b as i64 + d).max(0) as usize);
            }
        }
        for len in lens {
            let msg = message(&mut rng, len);
            let mut out = [0u8; 16];
            let via_key = registry::compute(&format!("tree-{}", f.name), &Params { key: &s, ..Default::default() }, &msg).unwrap();
            match key.hash_short(&msg, &mut out) {
                Some(n) => {
                    assert_eq!(n, o);
                    assert_eq!(&out[..n], &via_key[..], "{} len {len}", f.name);
                    taken += 1;
                }
                None => assert!((len / b + 1) * o > SHORT_LEVEL, "{} len {len} not taken", f.name),
            }
            if NAMES.contains(&f.name.as_str()) {
                assert_eq!(via_key, tree_model(&f.name, &s, &msg), "{} len {len}", f.name);
            }
            let mut t = Tree::of_family(f.clone(), &s);
            t.update(&msg);
            assert_eq!(t.finalize(), via_key, "{} len {len} streaming", f.name);
        }
    }
    assert!(taken > 1000, "{taken}");
}

/// The allocation-free one-shot of any length (`TreeKey::hash_into`: fixed
/// partial blocks per level, outputs handed up in stack batches) equals the
/// streaming tree for every block family, at the lengths where its batches,
/// the second, third and fourth level begin, and at random lengths; and the
/// model of docs/WIRE.md §6 for the MMH/NMH families.
#[test]
fn one_shot_of_any_length_equals_streaming_for_every_family() {
    use std::sync::Arc;
    use unimac::unstable::tree::{families, TreeKey, ONESHOT_BATCH};
    let mut rng = rand::rngs::StdRng::seed_from_u64(17);
    let s: [u8; 16] = rng.random();
    for f in families() {
        let (b, o) = (f.block, f.out);
        let key = Arc::new(TreeKey::new(f.clone(), &s));
        let mut lens: Vec<usize> = (0..3).map(|_| rng.random_range(0..300_000)).collect();
        for base in [b, ONESHOT_BATCH / o * b, 2 * ONESHOT_BATCH / o * b, b * b / o, 2 * b * b / o, b * b / o * b / o] {
            for d in [-(b as i64) - 1, -1, 0, 1, b as i64] {
                let len = (base as i64 + d).max(0) as usize;
                if len <= 2_500_000 {
                    lens.push(len);
                }
            }
        }
        for len in lens {
            let msg = message(&mut rng, len);
            let mut t = Tree::of_family(f.clone(), &s);
            t.update(&msg);
            let want = t.finalize();
            let mut out = [0u8; 16];
            assert_eq!(key.hash_into(&msg, &mut out), Some(o), "{} len {len}", f.name);
            assert_eq!(&out[..o], &want[..], "{} len {len}", f.name);
            if NAMES.contains(&f.name.as_str()) && len <= 70_000 {
                assert_eq!(want, tree_model(&f.name, &s, &msg), "{} len {len}", f.name);
            }
        }
        assert_eq!(key.hash_into(b"", &mut [0u8; 3][..]), None, "{}: a short output buffer", f.name);
    }
}

/// A toy block function with `B = 3·O` (the smallest ratio a tree allows
/// is `B > 2·O`), so that messages of a few hundred KiB already have more
/// than eight levels: the one-shot tree's widest state (`MAX_LEVELS`)
/// against the streaming tree, at every split of a few lengths too.
#[test]
fn one_shot_of_a_tall_tree_equals_streaming() {
    use std::sync::Arc;
    use unimac::unstable::group::DeltaGroup;
    use unimac::unstable::tree::{BlockFamily, BlockHash, TreeKey};
    struct Toy(Vec<u8>);
    impl BlockHash for Toy {
        fn hash_blocks(&self, blocks: &[u8], out: &mut [u8]) {
            for (blk, o) in blocks.chunks_exact(24).zip(out.chunks_exact_mut(8)) {
                let mut acc = 0u64;
                for (i, (&m, &k)) in blk.iter().zip(&self.0).enumerate() {
                    acc = acc.rotate_left(7) ^ (u64::from(m) + u64::from(k)).wrapping_mul(0x9e37_79b9_7f4a_7c15 + i as u64);
                }
                o.copy_from_slice(&acc.to_le_bytes());
            }
        }
    }
    let f = BlockFamily::new("toy24x8", 24, 8, 24, DeltaGroup::Integer, |k| Box::new(Toy(k.to_vec())));
    let s = [0x3cu8; 16];
    let key = Arc::new(TreeKey::new(f.clone(), &s));
    let mut rng = rand::rngs::StdRng::seed_from_u64(23);
    for len in [0usize, 23, 24, 25, 71, 72, 73, 5000, 150_000, 400_000, 400_001] {
        let msg = message(&mut rng, len);
        let mut t = Tree::of_family(f.clone(), &s);
        t.update(&msg);
        let want = t.finalize();
        let mut out = [0u8; 8];
        assert_eq!(key.hash_into(&msg, &mut out), Some(8), "len {len}");
        assert_eq!(&out[..], &want[..], "len {len}");
        if len <= 5000 {
            let mut t = Tree::of_family(f.clone(), &s);
            for piece in msg.chunks(rng.random_range(1..100)) {
                t.update(piece);
            }
            assert_eq!(t.finalize(), want, "len {len} in pieces");
        }
    }
    // Levels: 400 000 bytes at B = 24, O = 8 need more than 8.
    let (mut x, mut levels) = (400_000usize, 1);
    while x >= 24 {
        x = (x / 24 + 1) * 8;
        levels += 1;
    }
    assert!(levels > 8, "{levels}");
}

#[test]
#[should_panic(expected = "2·O < B")]
fn a_family_without_room_for_a_tree_is_refused() {
    use unimac::unstable::group::DeltaGroup;
    use unimac::unstable::tree::{BlockFamily, BlockHash};
    struct Id;
    impl BlockHash for Id {
        fn hash_blocks(&self, _: &[u8], _: &mut [u8]) {}
    }
    let _ = BlockFamily::new("halves", 16, 8, 16, DeltaGroup::Integer, |_| Box::new(Id));
}
