//! tree-sqh{l}-asm and tree-sqh{l}-e (docs/WIRE.md §6): one-shot and streaming
//! against a direct transcription of docs/WIRE.md §6's recursion over the block names.

use rand::{RngExt, SeedableRng};
use unimac::unstable::registry::{self, pad, Params};
use unimac::unstable::square::{tree_block_bytes, WIDTHS};
use unimac::unstable::tree::keystream;

/// docs/WIRE.md §6 literally: level j keyed by keystream(s, (j+1)K)[jK..], pad, hash
/// every block with the block function by name, until one block is left.
fn tree_model(f: &str, b: usize, s: &[u8; 16], msg: &[u8]) -> Vec<u8> {
    let mut x = msg.to_vec();
    let mut j = 0;
    loop {
        let key = keystream(s, (j + 1) * b)[j * b..].to_vec();
        let y = pad(&x, b);
        let hashed: Vec<u8> = y
            .chunks(b)
            .flat_map(|blk| registry::compute(f, &Params { key: &key, ..Default::default() }, blk).unwrap())
            .collect();
        if y.len() == b {
            return hashed;
        }
        x = hashed;
        j += 1;
    }
}

fn families() -> Vec<(String, usize, usize)> {
    let mut v = Vec::new();
    for l in WIDTHS {
        for s in ["asm", "e"] {
            v.push((format!("sqh{l}-{s}"), tree_block_bytes(l), l / 8));
        }
    }
    v
}

#[test]
fn tree_sizes_match_spec_table() {
    for (f, b, o) in families() {
        let fam = unimac::unstable::tree::family(&f).unwrap_or_else(|| panic!("{f} has no tree mode"));
        assert_eq!((fam.block, fam.out, fam.key), (b, o, b), "{f}");
        let l: usize = f[3..f.find('-').unwrap()].parse().unwrap();
        assert_eq!(b, if l == 128 { 256 } else { 22 * l / 8 });
        assert_eq!(registry::lookup(&format!("tree-{f}")).unwrap().info.out, o);
    }
}

#[test]
fn tree_one_shot_matches_spec_model() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for (f, b, o) in families() {
        let s: [u8; 16] = rng.random();
        // Lengths around one block, two levels and three levels.
        let three = b * (b / o) + 1;
        for len in [0, 1, b - 2, b - 1, b, b + 1, 2 * b, 5 * b + 3, three] {
            let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            let got = registry::compute(&format!("tree-{f}"), &Params { key: &s, ..Default::default() }, &msg).unwrap();
            assert_eq!(got, tree_model(&f, b, &s, &msg), "tree-{f} len {len}");
            assert_eq!(got.len(), o);
        }
    }
}

#[test]
fn tree_streaming_every_split() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    for (f, b, _) in families() {
        let s: [u8; 16] = rng.random();
        let name = format!("tree-{f}");
        let p = Params { key: &s, ..Default::default() };
        let msg: Vec<u8> = (0..3 * b + 7).map(|_| rng.random()).collect();
        let want = registry::compute(&name, &p, &msg).unwrap();
        for i in 0..=msg.len() {
            let mut st = registry::open(&name, &p).unwrap();
            st.update(&msg[..i]);
            st.update(&msg[i..]);
            assert_eq!(st.finalize().unwrap(), want, "{name} split at {i}");
        }
        // Many small chunks of varying size.
        let mut st = registry::open(&name, &p).unwrap();
        let mut off = 0;
        let mut step = 1;
        while off < msg.len() {
            let end = (off + step).min(msg.len());
            st.update(&msg[off..end]);
            off = end;
            step = step % 37 + 1;
        }
        assert_eq!(st.finalize().unwrap(), want, "{name} small chunks");
    }
}

/// The block functions' multi-block path (four blocks per SIMD call) equals
/// the single-block function on every block, on extreme and random blocks.
#[test]
fn block_batches_equal_single_blocks() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    for (f, b, o) in families() {
        let fam = unimac::unstable::tree::family(&f).unwrap();
        let l: usize = f[3..f.find('-').unwrap()].parse().unwrap();
        let variant = if f.ends_with("-e") { unimac::unstable::square::Variant::E } else { unimac::unstable::square::Variant::Asm };
        for key in [vec![0xffu8; b], vec![0u8; b], (0..b).map(|_| rng.random()).collect::<Vec<u8>>()] {
            let h = fam.keyed(&key);
            for n in [1usize, 3, 4, 5, 8, 9, 13, 17] {
                let blocks: Vec<u8> = (0..n * b)
                    .map(|i| match (i / b) % 3 {
                        0 => 0xff,
                        1 => rng.random(),
                        _ => 0,
                    })
                    .collect();
                let mut out = vec![0u8; n * o];
                h.hash_blocks(&blocks, &mut out);
                for (blk, got) in blocks.chunks(b).zip(out.chunks(o)) {
                    assert_eq!(got, unimac::unstable::square::hash(l, variant, &key, blk).unwrap(), "{f} n={n}");
                    assert_eq!(got, unimac::unstable::hazmat::square::reference::hash_bytes(l as u32, variant, &key, blk), "{f} n={n}");
                }
            }
        }
    }
}
