//! `unimac seal` and `unimac verify` of a sealed manifest, end to end: the
//! manifest's format, what verify reports for changed, removed, added and
//! renamed files, and that any change to the manifest fails its seal.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_unimac"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[track_caller]
fn assert_code(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "stdout:\n{}stderr:\n{}", stdout(o), stderr(o));
}

/// A user error: exit 2, one line on stderr mentioning `needle`, nothing on
/// stdout.
#[track_caller]
fn assert_error(o: &Output, needle: &str) {
    assert_code(o, 2);
    let e = stderr(o);
    assert_eq!(e.lines().count(), 1, "one line on stderr: {e:?}");
    assert!(e.contains(needle), "{e:?} should mention {needle:?}");
    assert!(o.stdout.is_empty(), "nothing on stdout: {:?}", stdout(o));
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("unimac-seal-{}-{tag}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

/// The files of the sealed tree `d`, in the order `seal -r` lists them.
const TREE: &[(&str, &str)] = &[
    ("d/a", "alpha\n"),
    ("d/b", "bravo bravo\n"),
    ("d/sub/c", "charlie\n"),
    ("d/sub/deeper/e", ""),
];

/// A directory with the tree, a key of `mac` (and its counter for a nonce
/// MAC) and the manifest `m` of `seal -r d`.
struct Sealed {
    dir: PathBuf,
    mac: &'static str,
}

impl Sealed {
    fn new(tag: &str, mac: &'static str, counter: bool) -> Sealed {
        let dir = temp_dir(tag);
        for (p, text) in TREE {
            let p = dir.join(p);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        let mut keygen = vec!["keygen", mac, "-o", "k.key"];
        let mut seal = vec!["seal", "--key-file", "k.key"];
        if counter {
            keygen.extend(["--counter", "k.ctr"]);
            seal.extend(["--counter", "k.ctr"]);
        }
        assert_code(&run_in(&dir, &keygen), 0);
        seal.extend(["-r", "d", "-o", "m"]);
        let o = run_in(&dir, &seal);
        assert_code(&o, 0);
        assert!(o.stdout.is_empty() && o.stderr.is_empty(), "{}", stderr(&o));
        Sealed { dir, mac }
    }
    fn verify(&self) -> Output {
        run_in(&self.dir, &["verify", "--key-file", "k.key", "m"])
    }
    fn manifest(&self) -> String {
        fs::read_to_string(self.dir.join("m")).unwrap()
    }
    fn lines(&self) -> Vec<String> {
        self.manifest().lines().map(str::to_string).collect()
    }
    fn set_lines(&self, lines: &[String]) {
        fs::write(self.dir.join("m"), lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    }
    fn path(&self, p: &str) -> PathBuf {
        self.dir.join(p)
    }
}

impl Drop for Sealed {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// The MACs every scenario runs with: stateless, and a nonce MAC with its
/// counter.
const MACS: &[(&str, bool)] = &[("hash127-aes", false), ("wc-eval128", true)];

#[test]
fn seal_writes_the_documented_format() {
    for &(mac, counter) in MACS {
        let s = Sealed::new(&format!("format-{mac}"), mac, counter);
        let lines = s.lines();
        assert_eq!(lines.len(), 2 + TREE.len() + 1, "{lines:?}");
        let head: Vec<&str> = lines[0].split(' ').collect();
        assert_eq!(head[..3], ["unimac-manifest", "1", mac]);
        assert_eq!(head[3].len(), 32);
        assert!(head[3].bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(lines[1], "root d");
        for (i, (name, text)) in TREE.iter().enumerate() {
            let f: Vec<&str> = lines[2 + i].splitn(3, ' ').collect();
            assert_eq!(f[1], text.len().to_string(), "{}", lines[2 + i]);
            assert_eq!(f[2], *name);
            if counter {
                // Counter i as 16 bytes little-endian: one nonce per file.
                let (n, t) = f[0].split_once(':').unwrap();
                assert_eq!(n, hex(&(i as u128).to_le_bytes()));
                assert_eq!(t.len(), 32);
            } else {
                assert_eq!(f[0].len(), 32);
            }
        }
        let seal = lines.last().unwrap();
        assert!(seal.starts_with("seal "), "{seal}");
        if counter {
            let n = TREE.len() as u128;
            assert!(seal.starts_with(&format!("seal {}:", hex(&n.to_le_bytes()))), "the seal's nonce is the last: {seal}");
            // The counter advanced by files + 1.
            let ctr = fs::read_to_string(s.path("k.ctr")).unwrap();
            assert_eq!(ctr.lines().nth(1), Some((n + 1).to_string().as_str()), "{ctr}");
            assert!(ctr.starts_with(&format!("unimac-counter {mac} {}\n", head[3])), "the same fingerprint: {ctr}");
        }
        let o = s.verify();
        assert_code(&o, 0);
        let mut want = String::from("manifest: SEAL OK\n");
        for (name, _) in TREE {
            want.push_str(&format!("{name}: OK\n"));
        }
        assert_eq!(stdout(&o), want);
        assert!(o.stderr.is_empty(), "{}", stderr(&o));
        // --quiet: nothing for what is OK; --status: nothing at all.
        let o = run_in(&s.dir, &["verify", "--key-file", "k.key", "--quiet", "m"]);
        assert_code(&o, 0);
        assert!(o.stdout.is_empty(), "{}", stdout(&o));
        fs::write(s.path("d/a"), "ALPHA\n").unwrap();
        let o = run_in(&s.dir, &["verify", "--key-file", "k.key", "--status", "m"]);
        assert_code(&o, 1);
        assert!(o.stdout.is_empty() && o.stderr.is_empty(), "{}{}", stdout(&o), stderr(&o));
        fs::write(s.path("d/a"), "alpha\n").unwrap();
        // The MAC may be named, as for check files; another MAC is refused.
        assert_code(&run_in(&s.dir, &["verify", mac, "--key-file", "k.key", "-c", "m"]), 0);
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn changed_removed_added_renamed() {
    for &(mac, counter) in MACS {
        // Changed: same size, and another size.
        let s = Sealed::new(&format!("changed-{mac}"), mac, counter);
        fs::write(s.path("d/a"), "ALPHA\n").unwrap();
        fs::write(s.path("d/sub/c"), "charlie, longer\n").unwrap();
        let o = s.verify();
        assert_code(&o, 1);
        let out = stdout(&o);
        assert!(out.starts_with("manifest: SEAL OK\n"), "{out}");
        assert!(out.contains("d/a: CHANGED\n") && out.contains("d/sub/c: CHANGED\n") && out.contains("d/b: OK\n"), "{out}");
        drop(s);

        // Removed.
        let s = Sealed::new(&format!("removed-{mac}"), mac, counter);
        fs::remove_file(s.path("d/sub/c")).unwrap();
        let o = s.verify();
        assert_code(&o, 1);
        assert!(stdout(&o).contains("d/sub/c: REMOVED\n"), "{}", stdout(&o));
        // --ignore-missing skips it.
        assert_code(&run_in(&s.dir, &["verify", "--key-file", "k.key", "--ignore-missing", "m"]), 0);
        drop(s);

        // Added.
        let s = Sealed::new(&format!("added-{mac}"), mac, counter);
        fs::write(s.path("d/sub/new"), "new\n").unwrap();
        let o = s.verify();
        assert_code(&o, 1);
        let out = stdout(&o);
        assert!(out.starts_with("manifest: SEAL OK\n") && out.ends_with("d/sub/new: ADDED\n"), "{out}");
        for (name, _) in TREE {
            assert!(out.contains(&format!("{name}: OK\n")), "{out}");
        }
        drop(s);

        // Renamed: same content under a new name; a copy with other content
        // of the same size is not taken for it.
        let s = Sealed::new(&format!("renamed-{mac}"), mac, counter);
        fs::write(s.path("d/sub/b-decoy"), "bravo BRAVO\n").unwrap();
        fs::rename(s.path("d/b"), s.path("d/sub/b-moved")).unwrap();
        let o = s.verify();
        assert_code(&o, 1);
        let out = stdout(&o);
        assert!(out.contains("d/b -> d/sub/b-moved: RENAMED\n"), "{out}");
        assert!(out.contains("d/sub/b-decoy: ADDED\n"), "{out}");
        assert!(!out.contains("d/b: REMOVED") && !out.contains("b-moved: ADDED"), "{out}");
        drop(s);
    }
}

/// Every change to the manifest fails its seal (exit 1), and the files are
/// still reported.
#[test]
fn any_change_to_the_manifest_fails_the_seal() {
    for &(mac, counter) in MACS {
        let s = Sealed::new(&format!("tamper-{mac}"), mac, counter);
        let orig = s.lines();
        let other_mac = if mac == "hash127-aes" { "wc-eval128" } else { "wc-mmh32x4" };
        let flip = |l: &str, at: usize| -> String {
            let mut b = l.as_bytes().to_vec();
            b[at] = if b[at] == b'0' { b'1' } else { b'0' };
            String::from_utf8(b).unwrap()
        };
        let mut cases: Vec<(&str, Vec<String>)> = Vec::new();
        let mut l = orig.clone();
        l[2] = flip(&l[2], l[2].find(' ').unwrap() - 1);
        cases.push(("a line's tag", l));
        let mut l = orig.clone();
        l[3] = l[3].replace(" 12 d/b", " 13 d/b");
        assert_ne!(l[3], orig[3]);
        cases.push(("a line's size", l));
        let mut l = orig.clone();
        l[3] = l[3].replace(" d/b", " d/B");
        cases.push(("a line's name", l));
        let mut l = orig.clone();
        l.remove(5);
        cases.push(("a deleted line", l));
        let mut l = orig.clone();
        l.swap(2, 3);
        cases.push(("two lines swapped", l));
        let mut l = orig.clone();
        l.push(orig[2].clone());
        cases.push(("a line appended", l));
        let mut l = orig.clone();
        l.insert(orig.len() - 1, orig[2].clone());
        cases.push(("a line inserted", l));
        let mut l = orig.clone();
        l[0] = l[0].replace(mac, other_mac);
        cases.push(("the MAC's name", l));
        let mut l = orig.clone();
        l[0] = flip(&l[0], l[0].len() - 1);
        cases.push(("the fingerprint", l));
        let mut l = orig.clone();
        l[1] = "root sub".to_string();
        cases.push(("the root", l));
        let mut l = orig.clone();
        l.remove(1);
        cases.push(("the root line dropped", l));
        let mut l = orig.clone();
        let last = l.len() - 1;
        let cut = l[last].len() - 2;
        l[last].truncate(cut);
        cases.push(("the seal truncated", l));
        let mut l = orig.clone();
        l[last] = flip(&l[last], l[last].len() - 1);
        cases.push(("the seal's tag", l));
        let mut l = orig.clone();
        l.pop();
        cases.push(("the seal dropped", l));
        for (what, lines) in cases {
            s.set_lines(&lines);
            let o = s.verify();
            assert_code(&o, 1);
            let out = stdout(&o);
            assert!(out.starts_with("manifest: SEAL FAILED\n"), "{mac}, {what}: {out}");
            // The files are still checked: the untouched ones are OK.
            assert!(out.contains("d/sub/c: OK\n"), "{mac}, {what}: {out}");
            assert!(stderr(&o).contains("seal"), "{mac}, {what}: {}", stderr(&o));
        }
        // The manifest without its final newline, and with CRLF line ends.
        let text = s.manifest();
        for (what, t) in [("no final newline", text.trim_end().to_string()), ("CRLF", text.replace('\n', "\r\n"))] {
            fs::write(s.path("m"), t).unwrap();
            let o = s.verify();
            assert_code(&o, 1);
            assert!(stdout(&o).starts_with("manifest: SEAL FAILED\n"), "{mac}, {what}: {}", stdout(&o));
        }
        // Put back, it verifies again.
        s.set_lines(&orig);
        assert_code(&s.verify(), 0);
    }
}

#[test]
fn wrong_key_is_a_clear_error() {
    for &(mac, counter) in MACS {
        let s = Sealed::new(&format!("wrongkey-{mac}"), mac, counter);
        assert_code(&run_in(&s.dir, &["keygen", mac, "-o", "other.key"]), 0);
        let o = run_in(&s.dir, &["verify", "--key-file", "other.key", "m"]);
        assert_error(&o, "fingerprint");
        assert!(stderr(&o).contains("other.key"), "{}", stderr(&o));
        // A key of another MAC.
        let other = if mac == "hash127-aes" { "wc-mmh32x4" } else { "hash127-aes" };
        assert_code(&run_in(&s.dir, &["keygen", other, "-o", "third.key"]), 0);
        let o = run_in(&s.dir, &["verify", "--key-file", "third.key", "m"]);
        assert_error(&o, "fingerprint");
        assert!(stderr(&o).contains(mac), "{}", stderr(&o));
    }
}

#[test]
fn refusals() {
    let dir = temp_dir("refusals");
    fs::write(dir.join("f"), "x").unwrap();
    // One-time MACs cannot seal: a manifest needs many tags.
    assert_code(&run_in(&dir, &["keygen", "hash127", "-o", "o.key"]), 0);
    assert_error(&run_in(&dir, &["seal", "--key-file", "o.key", "f"]), "one-time MAC");
    assert_eq!(fs::read_to_string(dir.join("o.key")).unwrap().lines().count(), 2, "not spent");
    // A nonce MAC needs its counter or random nonces; a stateless one takes none.
    assert_code(&run_in(&dir, &["keygen", "wc-eval128", "-o", "w.key", "--counter", "w.ctr"]), 0);
    assert_error(&run_in(&dir, &["seal", "--key-file", "w.key", "f"]), "--counter");
    assert_code(&run_in(&dir, &["keygen", "hash127-aes", "-o", "h.key"]), 0);
    assert_error(&run_in(&dir, &["seal", "--key-file", "h.key", "--random-nonce", "f"]), "takes no nonce");
    // Nothing to seal, stdin, a missing file (then no manifest), an
    // existing output.
    assert_error(&run_in(&dir, &["seal", "--key-file", "h.key"]), "nothing to seal");
    assert_error(&run_in(&dir, &["seal", "--key-file", "h.key", "-"]), "stdin");
    let o = run_in(&dir, &["seal", "--key-file", "h.key", "f", "missing", "-o", "m"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));
    assert!(!dir.join("m").exists(), "no manifest written");
    fs::write(dir.join("m"), "").unwrap();
    assert_error(&run_in(&dir, &["seal", "--key-file", "h.key", "f", "-o", "m"]), "already exists");
    assert_error(&run_in(&dir, &["seal", "--key-file", "h.key", "-r", "f"]), "not a directory");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn files_as_given_and_from_a_list() {
    let dir = temp_dir("list");
    for (n, t) in [("one", "1"), ("two", "22"), ("three", "333")] {
        fs::write(dir.join(n), t).unwrap();
    }
    assert_code(&run_in(&dir, &["keygen", "wc-eval128", "-o", "k.key", "--counter", "k.ctr"]), 0);
    let o = run_in(&dir, &["seal", "--key-file", "k.key", "--counter", "k.ctr", "two", "one"]);
    assert_code(&o, 0);
    let m = stdout(&o);
    let names: Vec<&str> = m.lines().skip(1).filter_map(|l| l.splitn(3, ' ').nth(2)).collect();
    assert_eq!(names, ["two", "one"], "in the order given, no root line: {m}");
    fs::write(dir.join("m1"), &m).unwrap();
    // A manifest of files as given reports no added files.
    fs::write(dir.join("extra"), "e").unwrap();
    assert_code(&run_in(&dir, &["verify", "--key-file", "k.key", "m1"]), 0);
    // --files-from with NUL-separated names; random nonces.
    fs::write(dir.join("list"), "three\0one\0").unwrap();
    let o = run_in(&dir, &["seal", "--key-file", "k.key", "--random-nonce", "--files-from", "list", "-0", "-o", "m2"]);
    assert_code(&o, 0);
    let o = run_in(&dir, &["verify", "--key-file", "k.key", "m2"]);
    assert_code(&o, 0);
    assert_eq!(stdout(&o), "manifest: SEAL OK\nthree: OK\none: OK\n");
    // The counter advanced by 2 + 1 for the first seal only.
    assert_eq!(fs::read_to_string(dir.join("k.ctr")).unwrap().lines().nth(1), Some("3"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_manifest_inside_its_tree_is_not_added() {
    let s = Sealed::new("inside", "hash127-aes", false);
    let o = run_in(&s.dir, &["seal", "--key-file", "k.key", "-r", "d", "-o", "d/MANIFEST"]);
    assert_code(&o, 0);
    let o = run_in(&s.dir, &["verify", "--key-file", "k.key", "d/MANIFEST"]);
    assert_code(&o, 0);
    assert!(!stdout(&o).contains("ADDED"), "{}", stdout(&o));
    assert_eq!(s.mac, "hash127-aes");
}

#[cfg(unix)]
#[test]
fn names_are_escaped() {
    let s = Sealed::new("escaped", "hash127-aes", false);
    fs::write(s.path("d/new\nline"), "n").unwrap();
    fs::write(s.path("d/esc\x1b[2J"), "e").unwrap();
    let o = run_in(&s.dir, &["seal", "--key-file", "k.key", "-r", "d", "-o", "m2"]);
    assert_code(&o, 0);
    let m = fs::read_to_string(s.path("m2")).unwrap();
    assert!(m.lines().any(|l| l.starts_with('\\') && l.ends_with(" d/new\\nline")), "{m}");
    let o = run_in(&s.dir, &["verify", "--key-file", "k.key", "m2"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("\\d/new\\nline: OK\n"), "{out}");
    assert!(!out.contains('\x1b'), "no control byte printed raw: {out:?}");
    fs::remove_file(s.path("d/new\nline")).unwrap();
    let o = run_in(&s.dir, &["verify", "--key-file", "k.key", "m2"]);
    assert_code(&o, 1);
    assert!(stdout(&o).contains("\\d/new\\nline: REMOVED\n"), "{}", stdout(&o));
}

#[test]
fn shoup4_pairs_go_where_nonces_go() {
    let dir = temp_dir("shoup4");
    fs::write(dir.join("f"), "shoup").unwrap();
    assert_code(&run_in(&dir, &["keygen", "shoup4-eval64", "-o", "s.key"]), 0);
    assert_error(&run_in(&dir, &["seal", "--key-file", "s.key", "--random-nonce", "f"]), "stateless");
    let o = run_in(&dir, &["seal", "--key-file", "s.key", "--allow-weak", "f", "-o", "m"]);
    assert_code(&o, 0);
    let m = fs::read_to_string(dir.join("m")).unwrap();
    let line = m.lines().nth(1).unwrap();
    let (pair, tag) = line.split(' ').next().unwrap().split_once(':').unwrap();
    assert_eq!((pair.len(), tag.len()), (32, 16), "{line}");
    assert_code(&run_in(&dir, &["verify", "--key-file", "s.key", "m"]), 0);
    let _ = fs::remove_dir_all(&dir);
}
