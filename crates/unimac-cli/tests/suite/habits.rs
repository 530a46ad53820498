//! The CLI as sha256sum and b3sum users expect it: `tag -k K [FILE...]`
//! with the MAC from the key file (every argument a file, stdin when none
//! or `-`), a missing file reported and the others tagged, `tag -r d >
//! d/SUMS` leaving out its own output, and the hints `verify` gives where a
//! user is stuck (the wrong key, lines of another MAC, `-z` lines read
//! without `-z`).

use std::fs;
use std::process::{Output, Stdio};

use crate::common;
use common::{assert_code, bin, run_in, stderr, stdout, TempDir};

/// `unimac ARGS` in `dir` with `input` on stdin.
fn run_in_stdin(dir: &TempDir, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut c = bin()
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(input).unwrap();
    c.wait_with_output().unwrap()
}

/// A directory with a hash127-aes key `k.key` and files `f1`, `f2`.
fn setup(tag: &str) -> TempDir {
    let d = TempDir::unique(tag);
    let o = run_in(d.path(), &["keygen", "hash127-aes", "-o", "k.key"]);
    assert_code(&o, 0);
    d.write("f1", b"one\n");
    d.write("f2", b"two\n");
    d
}

fn tag_of(d: &TempDir, file: &str) -> String {
    let o = run_in(d.path(), &["tag", "-k", "k.key", file]);
    assert_code(&o, 0);
    stdout(&o)
}

#[test]
fn a_missing_file_among_others_is_reported_and_the_rest_tagged() {
    let d = setup("missing");
    let o = run_in(d.path(), &["tag", "-k", "k.key", "nonexist", "f1"]);
    assert_code(&o, 1);
    assert_eq!(stderr(&o), "unimac: nonexist: No such file or directory\n");
    assert_eq!(stdout(&o), tag_of(&d, "f1"));
    assert!(stdout(&o).ends_with("  f1\n"));
}

#[test]
fn a_missing_key_file_is_one_error() {
    let d = setup("nokey");
    let o = run_in(d.path(), &["tag", "-k", "nokey", "f1"]);
    assert_code(&o, 2);
    assert_eq!(stderr(&o), "unimac: cannot open key file nokey: No such file or directory\n");
    assert!(o.stdout.is_empty());
}

#[test]
fn a_file_named_like_another_mac_is_a_file() {
    let d = setup("umac64file");
    d.write("umac64", b"not a MAC name here\n");
    let o = run_in(d.path(), &["tag", "-k", "k.key", "umac64"]);
    assert_code(&o, 0);
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    let line = stdout(&o);
    assert!(line.ends_with("  umac64\n"), "{line}");
    assert_eq!(line.split("  ").next().unwrap().len(), 32, "a hash127-aes tag: {line}");
}

#[test]
fn the_key_files_mac_named_first_is_an_assertion() {
    let d = setup("oldform");
    let o = run_in(d.path(), &["tag", "hash127-aes", "--key-file", "k.key", "f1"]);
    assert_code(&o, 0);
    assert_eq!(stdout(&o), tag_of(&d, "f1"));
    let o = run_in(d.path(), &["tag", "--mac", "mac-hash127-aes", "-k", "k.key", "f1"]);
    assert_code(&o, 0);
    assert_eq!(stdout(&o), tag_of(&d, "f1"));
}

#[test]
fn stdin_is_tagged_with_no_file_or_dash() {
    let d = setup("stdin");
    d.write("hi", b"hi\n");
    let want = tag_of(&d, "hi").replace("  hi\n", "  -\n");
    for args in [&["tag", "-k", "k.key"][..], &["tag", "-k", "k.key", "-"][..]] {
        let o = run_in_stdin(&d, args, b"hi\n");
        assert_code(&o, 0);
        assert!(o.stderr.is_empty(), "{}", stderr(&o));
        assert_eq!(stdout(&o), want);
    }
}

#[test]
fn mac_of_another_key_is_one_line() {
    let d = setup("macmismatch");
    let o = run_in(d.path(), &["tag", "-k", "k.key", "--mac", "umac64", "f1"]);
    assert_code(&o, 2);
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("unimac: key file k.key is a hash127-aes key, not a umac64 key"), "{e}");
    assert!(o.stdout.is_empty());
}

#[test]
fn tag_r_into_the_tree_leaves_out_its_own_output() {
    let d = setup("ownoutput");
    fs::create_dir(d.p("d")).unwrap();
    d.write("d/a", b"alpha\n");
    d.write("d/b", b"bravo\n");
    let sums = fs::File::create(d.p("d/SUMS")).unwrap();
    let o = bin()
        .args(["tag", "-k", "k.key", "-r", "d"])
        .current_dir(d.path())
        .stdin(Stdio::null())
        .stdout(sums)
        .output()
        .unwrap();
    assert_code(&o, 0);
    let s = fs::read_to_string(d.p("d/SUMS")).unwrap();
    assert_eq!(s.lines().count(), 2, "{s}");
    assert!(!s.contains("SUMS"), "{s}");
    let o = run_in(d.path(), &["verify", "-k", "k.key", "d/SUMS"]);
    assert_code(&o, 0);
    assert_eq!(stdout(&o), "d/a: OK\nd/b: OK\n");
    assert!(!stdout(&o).contains("d/SUMS: FAILED"));
}

#[test]
fn every_line_failed_names_the_key() {
    let d = setup("wrongkey");
    let o = run_in(d.path(), &["keygen", "hash127-aes", "-o", "other.key"]);
    assert_code(&o, 0);
    let o = run_in(d.path(), &["tag", "-k", "other.key", "f1", "f2"]);
    assert_code(&o, 0);
    d.write("SUMS", &o.stdout);
    let o = run_in(d.path(), &["verify", "-k", "k.key", "SUMS"]);
    assert_code(&o, 1);
    assert_eq!(stdout(&o), "f1: FAILED\nf2: FAILED\n");
    let e = stderr(&o);
    let hint = e.lines().last().unwrap();
    let prefix = "unimac: every line failed: is this the key the lines were made with? (key file k.key, hash127-aes key fingerprint ";
    assert!(hint.starts_with(prefix) && hint.ends_with(')'), "{e}");
    let fp = &hint[prefix.len()..hint.len() - 1];
    assert_eq!(fp.len(), 32, "{fp}");
    assert!(fp.bytes().all(|c| c.is_ascii_hexdigit()), "{fp}");
    assert_eq!(e, format!("unimac: WARNING: 2 computed tags did NOT match\n{hint}\n"));
    // One line failing among good ones: no hint.
    let mut mixed = tag_of(&d, "f1");
    mixed.push_str(fs::read_to_string(d.p("SUMS")).unwrap().lines().nth(1).unwrap());
    mixed.push('\n');
    d.write("MIXED", mixed.as_bytes());
    let o = run_in(d.path(), &["verify", "-k", "k.key", "MIXED"]);
    assert_code(&o, 1);
    assert!(!stderr(&o).contains("every line failed"), "{}", stderr(&o));
    // The same key's fingerprint each run.
    let o2 = run_in(d.path(), &["verify", "-k", "k.key", "SUMS"]);
    assert_eq!(stderr(&o2), e);
}

#[test]
fn lines_of_another_mac_are_named_once() {
    let d = setup("othermac");
    let o = run_in(d.path(), &["keygen", "umac64", "-o", "u.key"]);
    assert_code(&o, 0);
    let o = run_in(d.path(), &["tag", "-k", "u.key", "--random-nonce", "--allow-weak", "f1", "f2"]);
    assert_code(&o, 0);
    d.write("USUMS", &o.stdout);
    let o = run_in(d.path(), &["verify", "-k", "k.key", "USUMS"]);
    assert_code(&o, 1);
    assert!(o.stdout.is_empty());
    assert_eq!(
        stderr(&o),
        "unimac: these lines look made with another MAC (tag length 8 bytes); this is a hash127-aes key\n\
         unimac: WARNING: 2 lines were made by another MAC, not hash127-aes\n"
    );
    // And the other way round.
    let o = run_in(d.path(), &["tag", "-k", "k.key", "f1", "f2"]);
    d.write("SUMS", &o.stdout);
    let o = run_in(d.path(), &["verify", "-k", "u.key", "SUMS"]);
    assert_code(&o, 1);
    assert_eq!(
        stderr(&o),
        "unimac: these lines look made with another MAC (tag length 16 bytes); this is a umac64 key\n\
         unimac: WARNING: 2 lines were made by another MAC, not umac64\n"
    );
    // BSD lines name their MAC: named once too.
    let o = run_in(d.path(), &["tag", "-k", "k.key", "--tag", "f1", "f2"]);
    d.write("BSD", &o.stdout);
    let o = run_in(d.path(), &["verify", "-k", "u.key", "BSD"]);
    assert_code(&o, 1);
    assert_eq!(
        stderr(&o),
        "unimac: BSD: line 1: made by hash127-aes, not checked with this umac64 key\n\
         unimac: WARNING: 2 lines were made by another MAC, not umac64\n"
    );
}

#[test]
fn zero_lines_read_without_z_are_one_hint() {
    let d = setup("nul");
    // Several KB of lines: none of it printed.
    let names: Vec<String> = (0..20).map(|i| format!("{i:02}{}", "x".repeat(200))).collect();
    for n in &names {
        d.write(n, b"long name\n");
    }
    let mut args = vec!["tag", "-k", "k.key", "-z", "f1"];
    args.extend(names.iter().map(String::as_str));
    let o = run_in(d.path(), &args);
    assert_code(&o, 0);
    assert!(o.stdout.len() > 4000);
    d.write("ZSUMS", &o.stdout);
    let o = run_in(d.path(), &["verify", "-k", "k.key", "ZSUMS"]);
    assert_code(&o, 1);
    assert!(o.stdout.is_empty(), "{}", stdout(&o));
    assert_eq!(stderr(&o), "unimac: ZSUMS: line 1 holds a NUL byte: made with -z? verify with -z\n");
    let o = run_in(d.path(), &["verify", "-k", "k.key", "-z", "ZSUMS"]);
    assert_code(&o, 0);
    assert_eq!(stdout(&o).lines().count(), 21);
}
