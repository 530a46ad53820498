//! Big files hashed in stripes on threads (src/split.rs, input.rs
//! `read_message_stripes`): partial hashes for every name that has them,
//! the lowest layer for UMAC, VMAC and the trees. The output for sizes
//! around the split size, the middle of the file and the stripes' ends
//! equals the library's one-shot result; `tag`, `verify` and `seal` give
//! the same lines as the stream path (stdin, `--threads 1`).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use unimac_front::partial;
use unimac_front::registry::{self, Params};

use crate::common;
use common::{bin, bytes, ok, run_input as run, TempDir, KEY_VAR};

/// Files at least this long are hashed in stripes (src/input.rs SPLIT_MIN).
const SPLIT_MIN: usize = 8 << 20;
/// A stripe (src/input/cache.rs: a quarter of a thread's L2 share), rounded
/// up to the name's unit, for an L2 of 1 MiB.
const BUF: usize = 256 << 10;
/// The L2 shares of Zen 3, Zen 4 and Sapphire Rapids (`UNIMAC_L2_BYTES`,
/// which replaces the kernel's figure) and the stripe each gives.
const CLASSES: [(&str, usize); 3] = [("512K", 128 << 10), ("1M", 256 << 10), ("2M", 512 << 10)];
const MIB: usize = 1 << 20;

/// Key and nonce lengths of a name that splits (a MAC's from its row, a
/// hash's from the catalogue).
fn key_and_nonce(name: &str) -> (usize, usize) {
    match unimac_front::macs::find(name) {
        Some(d) => (d.default_key_len(), d.nonce.max()),
        None => match registry::lookup(name).expect("a catalogue name").info.key {
            unimac_front::registry::KeySpec::Fixed(n) => (n, 0),
            other => panic!("{name}: a fixed key expected, got {other:?}"),
        },
    }
}

/// One name's files to `compute` in stripes: each length with the L2
/// shares (`UNIMAC_L2_BYTES`) to run it under.
struct Case {
    name: String,
    seed: u64,
    lens: BTreeMap<usize, Vec<&'static str>>,
}

impl Case {
    fn new(name: &str, seed: u64) -> Case {
        Case { name: name.to_string(), seed, lens: BTreeMap::new() }
    }

    /// Each of `lens`, under the L2 share `l2`.
    fn at(mut self, lens: &[usize], l2: &'static str) -> Case {
        for &len in lens {
            self.lens.entry(len).or_default().push(l2);
        }
        self
    }
}

/// The files a batch writes at most before running them: a layered name
/// has about 20 lengths of 8 to 17 MiB.
const BATCH_BYTES: usize = 512 << 20;

/// `compute` of each case's files in stripes, for each L2 share given,
/// equals the library's one-shot result. A file of each length is written
/// once (the same bytes for every name that hashes that length: a byte at
/// the wrong offset changes every output all the same) and its one-shot
/// result computed once per name; the files are left to settle
/// (`common::settle`: read once, as a user's files are) and removed in
/// batches of at most [`BATCH_BYTES`].
fn check_compute(dir: &TempDir, cases: &[Case]) {
    struct Run {
        name: String,
        args: Vec<String>,
        khex: String,
        path: String,
        len: usize,
        want: String,
        classes: Vec<&'static str>,
    }
    let mut files: BTreeMap<usize, String> = BTreeMap::new();
    let mut runs: Vec<Run> = Vec::new();
    let flush = |files: &mut BTreeMap<usize, String>, runs: &mut Vec<Run>| {
        common::settle(files.values());
        for r in runs.drain(..) {
            for l2 in &r.classes {
                let mut args = r.args.clone();
                args.push(r.path.clone());
                let o = bin().args(&args).env(KEY_VAR, &r.khex).env("UNIMAC_L2_BYTES", l2).output().expect("run");
                assert_eq!(ok(&o).trim_end(), r.want, "{}, {} bytes, in stripes for an L2 of {l2}", r.name, r.len);
            }
        }
        for p in files.values() {
            fs::remove_file(p).expect("remove file");
        }
        files.clear();
    };
    for case in cases {
        let name = case.name.as_str();
        let (kl, nl) = key_and_nonce(name);
        let key = bytes(kl, case.seed ^ 0x55);
        let mut nonce = bytes(nl, case.seed ^ 0xaa);
        if let Some(d) = unimac_front::macs::find(name) {
            d.fix_random_nonce(&mut nonce);
        }
        let (khex, nhex) = (hex::encode(&key), hex::encode(&nonce));
        // A name with partial hashes takes this key's layout for them.
        if partial::granularity(name).is_ok() {
            partial::hash_key(name, &key).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let mut args: Vec<String> = ["--threads", "2", "compute", name, "--key-env", KEY_VAR].map(String::from).to_vec();
        if nl > 0 {
            args.extend(["--nonce".to_string(), nhex.clone(), "--caller-manages-nonces".to_string()]);
        }
        let p = Params { key: &key, nonce: (nl > 0).then_some(nonce.as_slice()), len: None };
        for (&len, classes) in &case.lens {
            let data = match files.get(&len) {
                Some(path) => fs::read(path).expect("read file"),
                None => {
                    if files.keys().sum::<usize>() + len > BATCH_BYTES && !runs.is_empty() {
                        flush(&mut files, &mut runs);
                    }
                    let data = bytes(len, 0x5eed ^ len as u64);
                    let path = dir.s(&format!("m{len}"));
                    fs::write(&path, &data).expect("write file");
                    files.insert(len, path);
                    data
                }
            };
            let want = hex::encode(registry::compute(name, &p, &data).expect("library"));
            runs.push(Run {
                name: name.to_string(),
                args: args.clone(),
                khex: khex.clone(),
                path: files[&len].clone(),
                len,
                want,
                classes: classes.clone(),
            });
        }
    }
    flush(&mut files, &mut runs);
}

/// The stripe of a layered name (src/input/stripes.rs): `buf` rounded up
/// to its unit (1024 for UMAC, 128 for VMAC, `B^2` for a tree of block `B`).
fn stripe_of(unit: usize, buf: usize) -> usize {
    buf.div_ceil(unit) * unit
}

/// Sizes around the split size and the stripes' ends for a layered name:
/// the file's last stripe 1 byte, a unit − 1, a unit, a unit + 1, a whole
/// stripe and a stripe − 1; and past UMAC's change of polynomial (16 MiB).
fn stripe_sizes(unit: usize, buf: usize) -> Vec<usize> {
    let s = stripe_of(unit, buf);
    let base = SPLIT_MIN.div_ceil(s) * s + 3 * s;
    let mut v = vec![SPLIT_MIN - 1, SPLIT_MIN, SPLIT_MIN + 1];
    for extra in [1, unit - 1, unit, unit + 1, s - 1, s] {
        v.push(base + extra);
    }
    v.push(17 * MIB + 5);
    v.sort_unstable();
    v.dedup();
    v
}

/// UMAC, VMAC, a tree's `wc-` MAC and trees with small and large blocks,
/// read in stripes: the one-shot result at every boundary.
#[test]
fn layered_names_in_stripes_equal_one_shot() {
    let dir = TempDir::new("stripes");
    let mut checks = Vec::new();
    // The unit each stream's striper names: 1024 for UMAC, 128 for VMAC,
    // B^2 for a tree (128^2 for the mmh32 blocks, 264^2 for sqh96-asm).
    let cases = [
        ("mac-umac128", 1024),
        ("mac-umac32", 1024),
        ("mac-vmac128", 128),
        ("mac-vmac64", 128),
        ("mac-wc-mmh32x4", 128 * 128),
        ("tree-mmh32x2", 128 * 128),
        ("tree-sqh96-asm", 264 * 264),
    ];
    for (i, (name, unit)) in cases.into_iter().enumerate() {
        let (kl, nl) = key_and_nonce(name);
        let (key, mut nonce) = (vec![1u8; kl], vec![0u8; nl]);
        if let Some(d) = unimac_front::macs::find(name) {
            d.fix_random_nonce(&mut nonce);
        }
        let p = Params { key: &key, nonce: (nl > 0).then_some(nonce.as_slice()), len: None };
        let s = unimac_front::registry::open(name, &p).expect("opens");
        assert_eq!(s.striper().map(|st| st.unit()), Some(unit), "{name}");
        let case = CLASSES.iter().fold(Case::new(name, 300 + i as u64), |c, &(l2, buf)| c.at(&stripe_sizes(unit, buf), l2));
        checks.push(case);
    }
    check_compute(&dir, &checks);
}

/// The default MACs with partial hashes (hash127-aes; wc-eval128 with a
/// counter) at every size around every boundary, their stripes of
/// partials combined in order.
#[test]
fn default_macs_in_stripes_of_partials_equal_one_shot() {
    let dir = TempDir::new("defaults");
    let cases: Vec<Case> = ["mac-hash127-aes", "mac-wc-eval128"]
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let unit = partial::granularity(name).expect("splits");
            CLASSES.iter().fold(Case::new(name, 100 + i as u64), |c, &(l2, buf)| c.at(&stripe_sizes(unit, buf), l2))
        })
        .collect();
    check_compute(&dir, &cases);
}

/// Every other name with partial hashes, at the sizes around the split and
/// the last stripe (the trees' stripes are their lowest levels,
/// src/split.rs: the same sizes check that path).
#[test]
fn every_name_with_partials_in_stripes_equals_one_shot() {
    let dir = TempDir::new("every");
    let names = partial::supported_names();
    assert!(names.len() >= 10, "{names:?}");
    let mut cases = Vec::new();
    for (i, name) in names.iter().enumerate() {
        if ["mac-hash127-aes", "mac-wc-eval128"].contains(&name.as_str()) {
            continue;
        }
        let unit = partial::granularity(name).expect("splits");
        let buf = BUF.div_ceil(unit) * unit;
        let base = (SPLIT_MIN + buf).div_ceil(buf) * buf;
        cases.push(Case::new(name, 200 + i as u64).at(&[SPLIT_MIN, base + unit + 1, 10 * MIB.max(buf) + 3], "1M"));
    }
    check_compute(&dir, &cases);
}

fn keygen(dir: &TempDir, name: &str, counter: bool) -> (String, Option<String>) {
    let k = dir.s(&format!("{name}.key"));
    let c = dir.s(&format!("{name}.ctr"));
    let mut args = vec!["keygen", name, "-o", &k];
    if counter {
        args.extend(["--counter", &c]);
    }
    ok(&run(&args, None));
    (k, counter.then_some(c))
}

fn flip(path: &Path, at: usize) {
    let mut d = fs::read(path).expect("read");
    d[at] ^= 1;
    fs::write(path, &d).expect("write");
}

/// `tag` of a big file in stripes gives the tag the stream path gives (the
/// same bytes on stdin, and `--threads 1`); `verify` says OK, and FAILED
/// once a byte at the start, middle or end changes; `seal` and its check
/// agree.
#[test]
fn tag_verify_seal_in_stripes_agree_with_the_stream_path() {
    let dir = TempDir::new("tag");
    let len = 9 * MIB + 5;
    let data = bytes(len, 77);
    let f = dir.s("big");
    fs::write(&f, &data).expect("write");
    for name in ["hash127-aes", "wc-eval128", "umac128", "vmac128", "wc-mmh32x4"] {
        let counter = name != "hash127-aes";
        let (k, c) = keygen(&dir, name, counter);
        let mut args = vec!["tag", name, "--key-file", &k];
        if let Some(c) = &c {
            args.extend(["--counter", c]);
        }
        let split = ok(&run(&[args.as_slice(), &[&f]].concat(), None));
        // The line's value ("NONCE:TAG" for a nonce MAC); its nonce reused
        // for the stream path.
        let value = split.split_whitespace().next().expect("a value");
        let mut again = vec!["--threads", "1", "tag", name, "--key-file", &k];
        if counter {
            again.extend(["--nonce", value.split(':').next().expect("nonce"), "--caller-manages-nonces"]);
        }
        let stream_stdin = ok(&run(&[again.as_slice(), &["-"]].concat(), Some(&data)));
        assert_eq!(value, stream_stdin.split_whitespace().next().unwrap(), "{name}: tag, stdin");
        let stream_file = ok(&run(&[again.as_slice(), &[&f]].concat(), None));
        assert_eq!(split, stream_file, "{name}: tag, --threads 1");
        let sums = dir.s(&format!("{name}.sums"));
        fs::write(&sums, &split).expect("write sums");
        assert_eq!(ok(&run(&["verify", "--key-file", &k, "-c", &sums], None)), format!("{f}: OK\n"));
        for at in [0, len / 2, len - 1] {
            flip(Path::new(&f), at);
            let o = run(&["verify", "--key-file", &k, "-c", &sums], None);
            assert_eq!(o.status.code(), Some(1), "{name}: byte {at} changed");
            assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{f}: FAILED\n"));
            flip(Path::new(&f), at);
        }
        // A sealed manifest: the same with threads and with one.
        let man = dir.s(&format!("{name}.manifest"));
        let mut seal = vec!["seal", "--key-file", &k, "-o", &man];
        if let Some(c) = &c {
            seal.extend(["--counter", c]);
        }
        ok(&run(&[seal.as_slice(), &[&f]].concat(), None));
        for threads in ["1", "2"] {
            let o = run(&["--threads", threads, "verify", "--key-file", &k, &man], None);
            assert!(o.status.success(), "{name}: seal, --threads {threads}: {}", String::from_utf8_lossy(&o.stderr));
        }
        flip(Path::new(&f), len - 2);
        let o = run(&["verify", "--key-file", &k, &man], None);
        assert_eq!(o.status.code(), Some(1), "{name}: sealed file changed");
        flip(Path::new(&f), len - 2);
        fs::remove_file(&man).expect("remove manifest");
    }
}
