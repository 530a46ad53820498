//! Many files on worker threads (src/pool.rs, `tag_pooled` and `verify`
//! in src/tag.rs and src/verify.rs): `tag` and `verify` print exactly what the one-thread
//! path prints (`--threads 1`), byte for byte on stdout and stderr, with
//! the same exit status, the same counter nonces in the same places and the
//! same final counter value; error lines at the same places; also without
//! CPU features (`UNIMAC_FORCE_PORTABLE=1`). The tags themselves are
//! checked against the library's one-shot `NamedMac::tag`.

use std::fs;
use std::path::Path;
use std::process::{Output, Stdio};

use unimac_front::registry::NamedMac;

use crate::common;
use common::{bin, bytes, text, TempDir};

/// Files at least this long are done by the main thread with every core
/// (src/input.rs SPLIT_MIN).
const SPLIT_MIN: usize = 8 << 20;

fn run(args: &[&str], portable: bool) -> Output {
    let mut c = bin();
    c.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if portable {
        c.env("UNIMAC_FORCE_PORTABLE", "1");
    }
    c.output().expect("run unimac")
}

/// `run`, stdout and stderr into one file: the lines and the error
/// messages as they were interleaved (each stream is flushed before the
/// other is written).
fn run_merged(args: &[&str], portable: bool, file: &Path) -> Vec<u8> {
    let f = fs::File::create(file).expect("output file");
    let mut c = bin();
    c.args(args).stdin(Stdio::null()).stdout(f.try_clone().expect("clone")).stderr(f);
    if portable {
        c.env("UNIMAC_FORCE_PORTABLE", "1");
    }
    c.status().expect("run unimac");
    fs::read(file).expect("read output")
}

/// The files of a run: a few hundred of varied sizes (empty ones, around
/// the 4 KiB of a first read, past 1 MiB), odd names, a subdirectory, and
/// with `big` one file hashed in ranges; the list given to `tag` puts
/// missing files, a directory and (when not root) an unreadable file among
/// them. Returns the list and whether an unreadable file is in it.
fn populate(d: &TempDir, big: bool) -> (Vec<String>, bool) {
    fs::create_dir_all(d.0.join("tree/sub")).expect("dirs");
    let mut list = Vec::new();
    for i in 0..300usize {
        let len = match i % 10 {
            0 => 0,
            1 => 1,
            2 => 4095,
            3 => 4096,
            4 => 4097,
            5 => (i * 7919) % 70_000,
            6 => 16,
            7 => 100 + i,
            8 if i % 50 == 8 => (1 << 20) + i,
            _ => (i * 104_729) % 9000,
        };
        let name = match i {
            17 => "tree/back\\slash".to_string(),
            23 => "tree/new\nline".to_string(),
            _ if i % 3 == 0 => format!("tree/sub/f{i:03}"),
            _ => format!("tree/f{i:03}"),
        };
        fs::write(d.0.join(&name), bytes(len, 1000 + i as u64)).expect("write");
        list.push(d.s(&name));
        if i == 40 || i == 41 || i == 250 {
            list.push(d.s(&format!("tree/missing{i}")));
        }
        if i == 120 {
            list.push(d.s("tree/sub"));
        }
        if i == 150 && big {
            fs::write(d.0.join("tree/big"), bytes(SPLIT_MIN + 4097, 7)).expect("write big");
            list.push(d.s("tree/big"));
        }
    }
    // An unreadable file, where permissions bind (not for root).
    let locked = d.0.join("tree/locked");
    fs::write(&locked, b"secret").expect("write");
    #[cfg(unix)]
    let unreadable = {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).expect("chmod");
        fs::File::open(&locked).is_err()
    };
    #[cfg(not(unix))]
    let unreadable = false;
    if unreadable {
        list.insert(200, locked.to_str().expect("utf-8").to_string());
    } else {
        fs::remove_file(&locked).expect("remove");
    }
    (list, unreadable)
}

/// `unimac [--threads T] ARGS`: stdout, stderr and exit status for each
/// thread setting (1, 2, 3, the default), the one-thread run first; each
/// run gets a fresh copy of the counter file `ctr` if given, and its final
/// value is compared too.
fn same_for_all_threads(args: &[&str], ctr: Option<&Path>, portable: bool) -> Output {
    let start = ctr.map(|c| fs::read(c).expect("counter"));
    let mut first: Option<(Output, Option<Vec<u8>>)> = None;
    let mut merged: Option<Vec<u8>> = None;
    for t in [Some("1"), Some("2"), Some("3"), None] {
        if let (Some(c), Some(s)) = (ctr, &start) {
            fs::write(c, s).expect("reset counter");
        }
        let mut a: Vec<&str> = Vec::new();
        if let Some(t) = t {
            a.extend(["--threads", t]);
        }
        a.extend_from_slice(args);
        let o = run(&a, portable);
        assert_ne!(o.status.code(), Some(101), "panicked: {}", text(&o.stderr));
        let end = ctr.map(|c| fs::read(c).expect("counter"));
        if let (Some(c), Some(s)) = (ctr, &start) {
            fs::write(c, s).expect("reset counter");
        }
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let file = std::env::temp_dir().join(format!("unimac-merged-{}-{n}", std::process::id()));
        let m = run_merged(&a, portable, &file);
        let _ = fs::remove_file(&file);
        match &merged {
            None => merged = Some(m),
            Some(fm) => assert_eq!(text(&m), text(fm), "stdout and stderr interleaved, threads {t:?}, {args:?}"),
        }
        match &first {
            None => first = Some((o, end)),
            Some((f, fend)) => {
                assert_eq!(text(&o.stdout), text(&f.stdout), "stdout, threads {t:?}, {args:?}");
                assert_eq!(o.stdout, f.stdout, "stdout bytes, threads {t:?}");
                assert_eq!(text(&o.stderr), text(&f.stderr), "stderr, threads {t:?}, {args:?}");
                assert_eq!(o.status.code(), f.status.code(), "exit status, threads {t:?}");
                assert_eq!(&end, fend, "final counter, threads {t:?}");
            }
        }
    }
    let (o, _) = first.expect("ran");
    o
}

/// The library's tag of each listed file that exists, for a MAC without a
/// nonce.
fn library_tags(name: &str, key_file: &str, list: &[String]) -> Vec<String> {
    let k = fs::read_to_string(key_file).expect("key file");
    let key = hex::decode(k.lines().nth(1).expect("key line")).expect("hex key");
    let m = NamedMac::new(name, &key).expect("mac");
    list.iter()
        .filter_map(|p| fs::read(p).ok())
        .map(|data| hex::encode(m.tag(None, &data).expect("tag")))
        .collect()
}

fn tags_and_verifies(portable: bool, big: bool) {
    let d = TempDir::new(&format!("many-{portable}-{big}"));
    let (list, unreadable) = populate(&d, big);
    // The plain run reads files just written (racy: read twice and
    // compared, on every thread); the others, files a user left earlier
    // (read once).
    if portable || big {
        common::settle_tree(&d.0.join("tree"));
    }
    let list_refs: Vec<&str> = list.iter().map(String::as_str).collect();
    let k = d.s("k");
    assert!(run(&["keygen", "hash127-aes", "-o", &k], false).status.success());

    // No nonce: every line against the library, in order; the missing
    // files, the directory and the unreadable file on stderr in their
    // places, exit status 1.
    let mut args = vec!["tag", "hash127-aes", "--key-file", &k];
    args.extend(&list_refs);
    let o = same_for_all_threads(&args, None, portable);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let errs = text(&o.stderr);
    assert_eq!(errs.lines().count(), 4 + usize::from(unreadable), "{errs}");
    assert!(errs.contains("missing40: No such file") && errs.contains("sub: is a directory"), "{errs}");
    let want = library_tags("hash127-aes", &k, &list);
    let out = text(&o.stdout);
    let mut got_tags: Vec<String> = Vec::new();
    for l in out.split('\n').filter(|l| !l.is_empty()) {
        if let Some((t, _)) = l.trim_start_matches('\\').split_once("  ") {
            got_tags.push(t.to_string());
        }
    }
    assert!(got_tags.len() > 250, "{}", got_tags.len());
    assert_eq!(got_tags, want, "tags in file order equal the library's");
    let sums = d.s("sums");
    fs::write(&sums, &o.stdout).expect("sums");

    // -r over the tree, BSD lines, NUL-ended lines.
    let tree = d.s("tree");
    for extra in [&["-r"][..], &["-r", "--tag"], &["-r", "-z"]] {
        let mut a = vec!["tag", "hash127-aes", "--key-file", &k];
        a.extend_from_slice(extra);
        a.push(&tree);
        same_for_all_threads(&a, None, portable);
    }

    // A counter: the files read get consecutive values in order, the
    // others none; the counter file ends the same.
    for mac in ["wc-eval128", "umac128"] {
        let (kc, c) = (d.s(&format!("{mac}.k")), d.s(&format!("{mac}.c")));
        assert!(run(&["keygen", mac, "-o", &kc, "--counter", &c], false).status.success());
        let mut a = vec!["tag", mac, "--key-file", &kc, "--counter", &c];
        a.extend(&list_refs);
        let o = same_for_all_threads(&a, Some(Path::new(&c)), portable);
        let nonces: Vec<u128> = text(&o.stdout)
            .split('\n')
            .filter_map(|l| l.trim_start_matches('\\').split_once(':'))
            .map(|(n, _)| u128::from_str_radix(n, 16).expect("hex nonce"))
            .collect();
        let first = nonces[0];
        assert!(nonces.len() > 250, "{}", nonces.len());
        for (i, n) in nonces.iter().enumerate() {
            // The row's byte order: big-endian for these MACs' counters
            // read as hex; consecutive either way round.
            let want = first + i as u128;
            assert!(*n == want || n.swap_bytes() == first.swap_bytes() + i as u128, "nonce {i}: {n:x}");
        }
    }

    // seal: the same manifest (entries, nonces, seal line), and its check.
    let (kc, c) = (d.s("wc-eval128.k"), d.s("wc-eval128.c"));
    for (key, ctr) in [(&k, None), (&kc, Some(c.as_str()))] {
        let mut a = vec!["seal", "--key-file", key.as_str(), "-r", &tree];
        if let Some(c) = ctr {
            a.extend(["--counter", c]);
        }
        let o = same_for_all_threads(&a, ctr.map(Path::new), portable);
        assert_eq!(o.status.success(), !unreadable, "{}", text(&o.stderr));
        if !unreadable {
            let manifest = d.s("manifest");
            fs::write(&manifest, &o.stdout).expect("manifest");
            let v = same_for_all_threads(&["verify", "--key-file", key.as_str(), &manifest], None, portable);
            assert!(v.status.success(), "{}", text(&v.stderr));
        }
    }

    // verify: files changed, removed, lines malformed, another MAC's line,
    // a nonce reused: OK/FAILED lines and messages in line order.
    fs::write(d.0.join("tree/f004"), b"changed").expect("change");
    fs::write(d.0.join("tree/sub/f009"), b"changed too").expect("change");
    fs::remove_file(d.0.join("tree/f101")).expect("remove");
    let mut check = fs::read(&sums).expect("sums");
    check.extend_from_slice(b"not a line\n");
    let good_line = text(&o.stdout).lines().nth(5).expect("a line").to_string();
    check.extend_from_slice(format!("wc-eval128 ({}) = 00\n", d.s("tree/f005")).as_bytes());
    check.extend_from_slice(format!("{good_line}\nzz  x\n").as_bytes());
    let mut v = check.clone();
    for _ in 0..3 {
        v.extend_from_slice(&check);
    }
    let vpath = d.s("check");
    fs::write(&vpath, &v).expect("check file");
    for extra in [&[][..], &["--quiet"], &["--ignore-missing"], &["--status"], &["--warn", "--strict"]] {
        let mut a = vec!["verify", "--key-file", &k];
        a.extend_from_slice(extra);
        a.push(&vpath);
        let o = same_for_all_threads(&a, None, portable);
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {}", text(&o.stderr));
        if extra.is_empty() {
            let out = text(&o.stdout);
            assert_eq!(out.matches(": FAILED\n").count(), 8, "{out}");
            assert!(out.contains(": FAILED open or read\n"), "{out}");
            assert!(out.matches(": OK\n").count() > 1000, "{out}");
        }
    }
    // A counter's check file: nonces checked, and reused with another tag.
    let mut a = vec!["tag", "wc-eval128", "--key-file", &kc, "--counter", &c];
    a.extend(&list_refs[..60]);
    let o = run(&a, portable);
    let mut lines = o.stdout.clone();
    let first_line = text(&o.stdout).lines().next().expect("line").to_string();
    let (nonce, rest) = first_line.split_once(':').expect("nonce");
    let other = format!("{nonce}:{}{}\n", "0".repeat(32), &rest[32..]);
    lines.extend_from_slice(other.as_bytes());
    let cpath = d.s("check-ctr");
    fs::write(&cpath, &lines).expect("check file");
    same_for_all_threads(&["verify", "--key-file", &kc, &cpath], None, portable);
}

#[test]
fn many_files_same_output_on_any_threads() {
    tags_and_verifies(false, false);
}

#[test]
fn many_files_same_output_on_any_threads_portable() {
    // Where the whole run has every fast path off (scripts/test-all's
    // second run), the test above is this one: each command it starts
    // inherits the setting.
    if std::env::var_os("UNIMAC_FORCE_PORTABLE").is_some_and(|v| !v.is_empty()) {
        println!("UNIMAC_FORCE_PORTABLE is set for the whole run: many_files_same_output_on_any_threads ran these commands with it");
        return;
    }
    tags_and_verifies(true, false);
}

/// A big file among small ones: done by the main thread in ranges, in its
/// place.
#[test]
fn a_big_file_among_many_in_its_place() {
    tags_and_verifies(false, true);
}
