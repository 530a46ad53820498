//! tree-sqh{l}-asm and tree-sqh{l}-e (SPEC §5): one-shot and streaming
//! against a direct transcription of SPEC §5's recursion over the block names.

use rand::{Rng, SeedableRng};
use unimac::registry::{self, pad, Params};
use unimac::square::{tree_block_bytes, WIDTHS};
use unimac::tree::keystream;

/// SPEC §5 literally: level j keyed by keystream(s, (j+1)K)[jK..], pad, hash
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
        let fam = unimac::tree::family(&f).unwrap_or_else(|| panic!("{f} has no tree mode"));
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
        let s: [u8; 16] = rng.gen();
        // Lengths around one block, two levels and three levels.
        let three = b * (b / o) + 1;
        for len in [0, 1, b - 2, b - 1, b, b + 1, 2 * b, 5 * b + 3, three] {
            let msg: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
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
        let s: [u8; 16] = rng.gen();
        let name = format!("tree-{f}");
        let p = Params { key: &s, ..Default::default() };
        let msg: Vec<u8> = (0..3 * b + 7).map(|_| rng.gen()).collect();
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
