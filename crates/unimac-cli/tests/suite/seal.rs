//! `unimac seal` and `unimac verify` of a sealed manifest, end to end: the
//! manifest's format, what verify reports for changed, removed, added and
//! renamed files, and that any change to the manifest fails its seal.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

use crate::common;
use common::{assert_code, run_bounded, run_in, stderr, stdout, temp_dir};

/// How long a run may take before it counts as blocked (a verify on a
/// named pipe, a device).
const LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

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
        assert_eq!(head[..3], ["unimac-manifest", "2", mac]);
        assert_eq!(head[3].len(), 32);
        assert!(head[3].bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(lines[1], "root d");
        for (i, (name, text)) in TREE.iter().enumerate() {
            let f: Vec<&str> = lines[2 + i].splitn(3, ' ').collect();
            assert_eq!(f[1], text.len().to_string(), "{}", lines[2 + i]);
            // Names under the root.
            assert_eq!(f[2], name.strip_prefix("d/").unwrap());
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
        // --ignore-missing would hide a deleted file of a sealed tree: refused.
        assert_error(&run_in(&s.dir, &["verify", "--key-file", "k.key", "--ignore-missing", "m"]), "--ignore-missing");
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

/// Every change to the manifest fails its seal (exit 1), and then no file
/// it lists is read or reported.
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
        l[3] = l[3].replace(" 12 b", " 13 b");
        assert_ne!(l[3], orig[3]);
        cases.push(("a line's size", l));
        let mut l = orig.clone();
        l[3] = l[3].replace(" b", " B");
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
            assert_eq!(out, "manifest: SEAL FAILED\n", "{mac}, {what}: nothing listed is read");
            assert!(stderr(&o).contains("seal"), "{mac}, {what}: {}", stderr(&o));
        }
        // A changed fingerprint reads as another key's manifest: an error
        // that says so, and nothing is read.
        let mut l = orig.clone();
        l[0] = flip(&l[0], l[0].len() - 1);
        s.set_lines(&l);
        assert_error(&s.verify(), "or its first line was changed");
        s.set_lines(&orig);
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
    assert_eq!(names, ["two", "one"], "in the order given: {m}");
    // Written to a pipe (this test's), the manifest's place is unknown: its
    // directory is recorded absolute (docs/WIRE.md 9.6).
    let abs = fs::canonicalize(&dir).unwrap();
    assert_eq!(m.lines().nth(1), Some(format!("base {}", abs.display()).as_str()), "{m}");
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
    assert!(m.lines().any(|l| l.starts_with('\\') && l.ends_with(" new\\nline")), "{m}");
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
    let line = m.lines().nth(2).unwrap();
    let (pair, tag) = line.split(' ').next().unwrap().split_once(':').unwrap();
    assert_eq!((pair.len(), tag.len()), (32, 16), "{line}");
    assert_code(&run_in(&dir, &["verify", "--key-file", "s.key", "m"]), 0);
    let _ = fs::remove_dir_all(&dir);
}

/// The forgery of version 1: someone who can drop files into a tree that is
/// tagged (or sealed) gets the tag of a file whose content is a manifest
/// body of their choosing. Under version 2 that tag is no seal: the seal
/// runs under a key derived for manifests.
#[test]
fn a_file_tag_is_never_a_seal() {
    for &(mac, counter) in MACS {
        let s = Sealed::new(&format!("forge-{mac}"), mac, counter);
        let orig = s.manifest();
        // The attacker's body: the real header and root, d/a listed with
        // the tag of content they wrote (here: its tag as a file).
        fs::write(s.path("d/a"), "evil\n").unwrap();
        let mut args = vec!["tag", mac, "--key-file", "k.key"];
        if counter {
            args.extend(["--counter", "k.ctr"]);
        }
        args.push("d/a");
        let o = run_in(&s.dir, &args);
        assert_code(&o, 0);
        let a_line = stdout(&o);
        let a_value = a_line.split_whitespace().next().unwrap();
        let mut lines: Vec<String> = orig.lines().map(str::to_string).collect();
        lines[2] = format!("{a_value} 5 a");
        lines.pop();
        let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
        // The body dropped as a file and tagged: its tag as the seal.
        fs::write(s.path("body"), &body).unwrap();
        let mut args = vec!["tag", mac, "--key-file", "k.key"];
        if counter {
            args.extend(["--counter", "k.ctr"]);
        }
        args.push("body");
        let o = run_in(&s.dir, &args);
        assert_code(&o, 0);
        let seal_value = stdout(&o).split_whitespace().next().unwrap().to_string();
        fs::write(s.path("m"), format!("{body}seal {seal_value}\n")).unwrap();
        let o = s.verify();
        assert_code(&o, 1);
        assert_eq!(stdout(&o), "manifest: SEAL FAILED\n", "{mac}");
        // The one-round variant: a header-only body.
        let head = format!("{}\n", orig.lines().next().unwrap());
        fs::write(s.path("body"), &head).unwrap();
        let o = run_in(&s.dir, &args);
        let seal_value = stdout(&o).split_whitespace().next().unwrap().to_string();
        fs::write(s.path("m"), format!("{head}seal {seal_value}\n")).unwrap();
        let o = run_in(&s.dir, &["verify", "--key-file", "k.key", "--status", "m"]);
        assert_code(&o, 1);
    }
}

/// One byte form: upper-case hex, or a UMAC seal nonce written short (which
/// UMAC's nonce rule reads as the same nonce), fail the seal.
#[test]
fn one_byte_form_per_seal() {
    for (mac, counter) in [("hash127-aes", false), ("umac128", true), ("wc-eval128", true)] {
        let s = Sealed::new(&format!("form-{mac}"), mac, counter);
        let orig = s.lines();
        let last = orig.len() - 1;
        let mut l = orig.clone();
        l[last] = l[last].to_uppercase().replace("SEAL ", "seal ");
        assert_ne!(l[last], orig[last]);
        s.set_lines(&l);
        assert_code(&s.verify(), 1);
        assert_eq!(stdout(&s.verify()), "manifest: SEAL FAILED\n");
        if mac == "umac128" {
            // The seal's nonce is counter 4, little-endian: `04` then 15
            // zero bytes; `04` alone names the same UMAC nonce.
            let mut l = orig.clone();
            let (n, t) = l[last]["seal ".len()..].split_once(':').unwrap();
            assert_eq!(n, format!("04{}", "00".repeat(15)));
            l[last] = format!("seal 04:{t}");
            s.set_lines(&l);
            assert_eq!(stdout(&s.verify()), "manifest: SEAL FAILED\n");
        }
        s.set_lines(&orig);
        assert_code(&s.verify(), 0);
    }
}

/// A version 1 manifest is refused, with the reason and the command that
/// reseals.
#[test]
fn version_1_is_refused() {
    let s = Sealed::new("v1", "hash127-aes", false);
    let mut l = s.lines();
    l[0] = l[0].replacen(" 2 ", " 1 ", 1);
    s.set_lines(&l);
    let o = s.verify();
    assert_error(&o, "version 1");
    assert!(stderr(&o).contains("forged") && stderr(&o).contains("unimac seal"), "{}", stderr(&o));
}

/// Verify never blocks and never opens what it must not: a listed file
/// that became a named pipe is CHANGED (not opened); named pipes and links
/// to directories added under the root are UNEXPECTED; a manifest whose
/// seal fails reads nothing it lists (a named pipe, /dev/zero, /etc/passwd).
#[cfg(unix)]
#[test]
fn verify_never_blocks_nor_reads_an_unsealed_list() {
    let s = Sealed::new("fifo", "hash127-aes", false);
    fs::remove_file(s.path("d/sub/c")).unwrap();
    assert!(Command::new("mkfifo").arg(s.path("d/sub/c")).status().unwrap().success());
    let o = run_bounded(&s.dir, LIMIT, &["verify", "--key-file", "k.key", "m"]);
    assert_code(&o, 1);
    assert!(stdout(&o).contains("d/sub/c: CHANGED\n"), "{}", stdout(&o));
    assert!(stderr(&o).contains("named pipe"), "{}", stderr(&o));
    fs::remove_file(s.path("d/sub/c")).unwrap();
    fs::write(s.path("d/sub/c"), "charlie\n").unwrap();
    assert_code(&s.verify(), 0);
    // Added under the root: a named pipe and a link to a directory.
    assert!(Command::new("mkfifo").arg(s.path("d/pipe")).status().unwrap().success());
    std::os::unix::fs::symlink("/etc", s.path("d/etc-link")).unwrap();
    let o = run_bounded(&s.dir, LIMIT, &["verify", "--key-file", "k.key", "m"]);
    assert_code(&o, 1);
    let out = stdout(&o);
    assert!(out.contains("d/pipe: UNEXPECTED\n") && out.contains("d/etc-link: UNEXPECTED\n"), "{out}");
    // And sealing such a tree is refused, with no manifest.
    let o = run_bounded(&s.dir, LIMIT, &["seal", "--key-file", "k.key", "-r", "d", "-o", "m2"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("named pipe"), "{}", stderr(&o));
    assert!(!s.path("m2").exists());
    fs::remove_file(s.path("d/pipe")).unwrap();
    fs::remove_file(s.path("d/etc-link")).unwrap();
    // A list naming a pipe, a device and a file outside, under a bad seal.
    let head = s.lines()[0].clone();
    let bad = format!(
        "{head}\nbase /\n{z} 1 dev/zero\n{z} 1 etc/passwd\n{z} 1 {pipe}\nseal {z}\n",
        z = "00".repeat(16),
        pipe = s.path("d/pipe").display().to_string().trim_start_matches('/'),
    );
    assert!(Command::new("mkfifo").arg(s.path("d/pipe")).status().unwrap().success());
    fs::write(s.path("m"), bad).unwrap();
    let o = run_bounded(&s.dir, LIMIT, &["verify", "--key-file", "k.key", "m"]);
    assert_code(&o, 1);
    assert_eq!(stdout(&o), "manifest: SEAL FAILED\n");
    // Sealing a device is refused.
    let o = run_bounded(&s.dir, LIMIT, &["seal", "--key-file", "k.key", "/dev/zero", "-o", "m3"]);
    assert!(!o.status.success(), "{}", stdout(&o));
    assert!(stderr(&o).contains("not a regular file") || stderr(&o).contains("character device"), "{}", stderr(&o));
    assert!(!s.path("m3").exists());
}

/// Names resolve against the directory the manifest records, relative to
/// the manifest's own place: it verifies from any working directory, and a
/// tree moved with its manifest still verifies.
#[test]
fn verifies_from_anywhere_and_moved_with_its_tree() {
    let s = Sealed::new("anywhere", "hash127-aes", false);
    let root = std::env::temp_dir();
    let key = s.path("k.key");
    let m = s.path("m");
    let o = run_in(&root, &["verify", "--key-file", key.to_str().unwrap(), m.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains(&format!("{}: OK", s.path("d/sub/c").display())), "{}", stdout(&o));
    // A list of files given from elsewhere, the manifest written beside them.
    fs::create_dir(s.path("other")).unwrap();
    let o = run_in(&s.dir, &["seal", "--key-file", "k.key", "d/a", "d/sub/c", "-o", "other/list.m"]);
    assert_code(&o, 0);
    let text = fs::read_to_string(s.path("other/list.m")).unwrap();
    assert_eq!(text.lines().nth(1), Some("base .."), "{text}");
    let moved = temp_dir("anywhere-moved");
    fs::remove_dir_all(&moved).unwrap();
    fs::rename(&s.dir, &moved).unwrap();
    let o = run_in(&root, &["verify", "--key-file", moved.join("k.key").to_str().unwrap(), moved.join("m").to_str().unwrap()]);
    assert_code(&o, 0);
    let o = run_in(&moved.join("d/sub"), &["verify", "--key-file", "../../k.key", "../../other/list.m"]);
    assert_code(&o, 0);
    assert_eq!(stdout(&o), "manifest: SEAL OK\n../../other/../d/a: OK\n../../other/../d/sub/c: OK\n");
    fs::rename(&moved, &s.dir).unwrap();
}

/// A writer stopped part-way (here by the file-size limit) leaves no
/// manifest or key file, and the next run is not blocked.
#[cfg(unix)]
#[test]
fn killed_writers_leave_no_half_file() {
    let s = Sealed::new("atomic", "hash127-aes", false);
    let bin = env!("CARGO_BIN_EXE_unimac");
    let sh = |cmd: &str| Command::new("sh").arg("-c").arg(cmd).current_dir(&s.dir).output().unwrap();
    // 1 block of 512 bytes: the manifest of 4 files and the key file are
    // larger than 0 bytes, so each write is cut.
    let o = sh(&format!("ulimit -f 0; exec {bin} seal --key-file k.key -r d -o m2"));
    assert!(!o.status.success());
    assert!(!s.path("m2").exists(), "no partial manifest");
    let o = sh(&format!("ulimit -f 0; exec {bin} keygen hash127-aes -o k2.key"));
    assert!(!o.status.success());
    assert!(!s.path("k2.key").exists(), "no partial key file");
    assert_code(&run_in(&s.dir, &["seal", "--key-file", "k.key", "-r", "d", "-o", "m2"]), 0);
    assert_code(&run_in(&s.dir, &["keygen", "hash127-aes", "-o", "k2.key"]), 0);
    assert_eq!(fs::read_to_string(s.path("k2.key")).unwrap().lines().count(), 2);
}

/// A sealed manifest rewritten as a check file (its entries copied as check
/// lines, changed files left out) verifies nothing: entries are tags under
/// a key derived for manifests, never `unimac tag`'s.
#[test]
fn a_manifest_rewritten_as_check_lines_verifies_nothing() {
    let s = Sealed::new("as-check-lines", "hash127-aes", false);
    let lines = s.lines();
    let check: String = lines[2..lines.len() - 1]
        .iter()
        .filter(|l| !l.ends_with(" b"))
        .map(|l| {
            let f: Vec<&str> = l.splitn(3, ' ').collect();
            format!("{}  d/{}\n", f[0], f[2])
        })
        .collect();
    fs::write(s.path("d/b"), "EVIL").unwrap();
    fs::write(s.path("m"), check).unwrap();
    let o = s.verify();
    assert_code(&o, 1);
    assert!(!stdout(&o).contains(": OK"), "{}", stdout(&o));
}

/// A listed empty file replaced by a link to a /proc file that reports size
/// 0 but gives gigabytes: read no further than its size, reported.
#[cfg(target_os = "linux")]
#[test]
fn a_proc_file_is_not_read_past_its_size() {
    let s = Sealed::new("proc", "hash127-aes", false);
    fs::remove_file(s.path("d/sub/deeper/e")).unwrap();
    std::os::unix::fs::symlink("/proc/self/pagemap", s.path("d/sub/deeper/e")).unwrap();
    let o = run_bounded(&s.dir, LIMIT, &["verify", "--key-file", "k.key", "m"]);
    assert_code(&o, 1);
    assert!(stdout(&o).contains("d/sub/deeper/e: FAILED open or read") || stdout(&o).contains("d/sub/deeper/e: CHANGED"), "{}", stdout(&o));
}

/// Links to the manifest put in the sealed tree (symbolic or hard) are
/// files added like any other; only the manifest's own entry is left out.
#[cfg(unix)]
#[test]
fn links_to_the_manifest_in_the_tree_are_added() {
    let s = Sealed::new("links", "hash127-aes", false);
    assert_code(&run_in(&s.dir, &["seal", "--key-file", "k.key", "-r", "d", "-o", "d/M"]), 0);
    std::os::unix::fs::symlink("M", s.path("d/run.sh")).unwrap();
    fs::hard_link(s.path("d/M"), s.path("d/hard.txt")).unwrap();
    let o = run_in(&s.dir, &["verify", "--key-file", "k.key", "d/M"]);
    assert_code(&o, 1);
    let out = stdout(&o);
    assert!(out.contains("d/run.sh: ADDED") && out.contains("d/hard.txt: ADDED") && !out.contains("d/M: ADDED"), "{out}");
}

/// A manifest named through a symbolic link from another directory
/// resolves against the real directory of the manifest file (where it was
/// written), not the link's: every file OK. So does one whose directory is
/// reached through a link.
#[cfg(unix)]
#[test]
fn a_manifest_reached_through_a_link_resolves_where_it_is() {
    for (mac, counter) in MACS {
        let s = Sealed::new("via-link", mac, *counter);
        fs::create_dir_all(s.path("elsewhere/deeper")).unwrap();
        std::os::unix::fs::symlink(s.path("m"), s.path("elsewhere/deeper/M")).unwrap();
        std::os::unix::fs::symlink("../m", s.path("elsewhere/rel")).unwrap();
        std::os::unix::fs::symlink(&s.dir, s.path("elsewhere/dirlink")).unwrap();
        for m in ["elsewhere/deeper/M", "elsewhere/rel", "elsewhere/dirlink/m"] {
            for cwd in [s.dir.clone(), s.path("elsewhere")] {
                let arg = s.path(m);
                let o = run_in(&cwd, &["verify", "--key-file", s.path("k.key").to_str().unwrap(), arg.to_str().unwrap()]);
                assert_code(&o, 0);
                let out = stdout(&o);
                assert_eq!(out.lines().filter(|l| l.ends_with(": OK")).count(), TREE.len(), "{m}: {out}");
                assert!(!out.contains("REMOVED") && !out.contains("ADDED"), "{m}: {out}");
            }
        }
    }
}

/// A manifest inside its root (`root .`) named through a linked directory
/// (`dirlink/M`) resolves against its real directory: the root is that
/// directory, not the link, and every file is OK.
#[cfg(unix)]
#[test]
fn a_manifest_inside_its_root_named_through_a_linked_directory_verifies() {
    let s = Sealed::new("via-dirlink", "hash127-aes", false);
    assert_code(&run_in(&s.path("d"), &["seal", "--key-file", "../k.key", "-r", ".", "-o", "M"]), 0);
    std::os::unix::fs::symlink("d", s.path("dirlink")).unwrap();
    let o = run_in(&s.dir, &["verify", "--key-file", "k.key", "dirlink/M"]);
    assert_code(&o, 0);
    let real = fs::canonicalize(s.path("d")).unwrap();
    assert_eq!(
        stderr(&o),
        format!("unimac: dirlink/M is reached through a symbolic link; its root resolves against its real directory {}\n", real.display())
    );
    let out = stdout(&o);
    assert!(out.starts_with("manifest: SEAL OK\n") && !out.contains("REMOVED") && !out.contains("ADDED"), "{out}");
    assert!(out.lines().skip(1).all(|l| l.ends_with(": OK")), "{out}");
}

/// A hard link to the manifest in another directory of the tree, under the
/// manifest's own name, is ADDED: the manifest is left out only at its own
/// place. Verified through a symbolic link from outside the tree, the
/// manifest is still left out at its real place.
#[cfg(unix)]
#[test]
fn a_hard_link_to_the_manifest_elsewhere_in_the_tree_is_added() {
    let s = Sealed::new("hard-elsewhere", "hash127-aes", false);
    assert_code(&run_in(&s.dir, &["seal", "--key-file", "k.key", "-r", "d", "-o", "d/M"]), 0);
    let o = run_in(&s.dir, &["verify", "--key-file", "k.key", "d/M"]);
    assert_code(&o, 0);
    std::os::unix::fs::symlink(s.path("d/M"), s.path("via")).unwrap();
    assert_code(&run_in(&s.dir, &["verify", "--key-file", "k.key", "via"]), 0);
    fs::hard_link(s.path("d/M"), s.path("d/sub/M")).unwrap();
    for m in ["d/M", "via"] {
        let o = run_in(&s.dir, &["verify", "--key-file", "k.key", m]);
        assert_code(&o, 1);
        let out = stdout(&o);
        assert!(out.contains("d/sub/M: ADDED") && !out.contains("d/M: ADDED"), "{m}: {out}");
        assert_eq!(out.lines().filter(|l| l.contains("ADDED")).count(), 1, "{m}: {out}");
    }
}
