//! The `unimac` binary end to end: every subcommand's output format, exit
//! code and error behaviour (one line on stderr, non-zero exit, nothing on
//! stdout, nothing half-written, no panic).

use std::fs;
use std::process::Stdio;

use crate::common;
use common::{assert_error, bin, key_hex, run, run_stdin, stderr, stdout, TempDir as Dir};

fn keygen(d: &Dir, name: &str, file: &str) -> String {
    let o = run(&["keygen", name, "-o", &d.s(file)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    d.s(file)
}

/// The value of a counter file, after checking its binding line
/// (`unimac-counter NAME FINGERPRINT`, 32 lowercase hex digits).
#[track_caller]
fn counter_value(path: &str, mac: &str) -> String {
    let text = fs::read_to_string(path).unwrap();
    let (head, value) = text.split_once('\n').unwrap_or_else(|| panic!("{text:?}"));
    let fp = head
        .strip_prefix(&format!("unimac-counter {mac} "))
        .unwrap_or_else(|| panic!("counter {path} not bound to {mac}: {text:?}"));
    assert!(
        fp.len() == 32 && fp.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)),
        "{text:?}"
    );
    let v = value.strip_suffix('\n').unwrap_or_else(|| panic!("{text:?}"));
    assert!(!v.is_empty() && v.bytes().all(|c| c.is_ascii_digit()), "{text:?}");
    v.to_string()
}

/// The binding line of a counter file (with its newline).
fn counter_head(path: &str) -> String {
    let text = fs::read_to_string(path).unwrap();
    format!("{}\n", text.split_once('\n').unwrap().0)
}

// ---------------------------------------------------------------- list, compute, check-vectors

#[test]
fn list_shows_every_name() {
    let o = run(&["list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.lines().any(|l| l.starts_with("NAME")));
    for n in [
        "hash127-raw",
        "hash127",
        "keystream",
        "mac-hash127",
        "mac-hash127-aes",
        "mac-hash127-aes-nonce",
        "mac-hash127-aes-add",
    ] {
        assert!(
            out.lines().any(|l| l.split_whitespace().next() == Some(n)),
            "{n} missing from list"
        );
    }
    let row = out
        .lines()
        .find(|l| l.starts_with("mac-hash127-aes-nonce "))
        .unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cols[1..4], &["32", "16", "16"]);
}

const H127_KEY: &str = "2a269678a2b7ef174bedb66ab5582709d5fdab1262f87957f0dba2ab01978364";

#[test]
fn compute_file_stdin_and_dash_agree_with_the_vectors() {
    // mac.jsonl line 2: mac-hash127 of 3b.
    let key = "2ada5eac627c82302b7155fa4e1591e14876840705af8bf878c2f14878f2394b";
    let want = "3f318193b259eb8e8653a98f0996c47c\n";
    let d = Dir::unique("cli-test");
    let f = d.write("m", &[0x3b]);
    // mac-hash127 is a one-time MAC: its value is served as a known answer
    // only, with --known-answer and --key.
    fn ka<'a>(args: &[&'a str]) -> Vec<&'a str> {
        [&["compute", "mac-hash127", "--known-answer"][..], args].concat()
    }
    let o = run(&ka(&["--key", key, &f]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), want);
    let o = run_stdin(&ka(&["--key", key]), &[0x3b]);
    assert_eq!(stdout(&o), want);
    let o = run_stdin(&ka(&["--key", key, "-"]), &[0x3b]);
    assert_eq!(stdout(&o), want);
    // The empty message from stdin (mac.jsonl line 1).
    let o = run_stdin(&ka(&["--key", H127_KEY]), b"");
    assert_eq!(stdout(&o), "9553ad9da5c8f19444f18032b588424b\n");
    // Without --known-answer the one-time value is refused, on every input.
    assert_error(&run(&["compute", "mac-hash127", "--key", key, &f]), "one-time");
    assert_error(&run_stdin(&["compute", "mac-hash127", "--key", key, "-"], &[0x3b]), "one-time");
}

/// The warning a key on the command line gets (src/main.rs).
const KEY_WARNING: &str =
    "unimac: warning: a key on the command line is visible to other users (ps, /proc); use --key-file FILE or --key-env VAR\n";

/// `compute --key HEX` (not a published vector's) warns once on stderr
/// that the key is visible in the process list; `--key-env VAR` takes the
/// same key from the environment with nothing on stderr; errors of
/// `--key-env` name the variable, never its value; `--key`, `--key-file`
/// and `--key-env` exclude each other; `--known-answer` takes `--key` only
/// and without the warning.
#[test]
fn compute_key_from_the_environment_and_the_command_line_warning() {
    let d = Dir::unique("cli-test");
    let f = d.write("m", b"abc");
    let key = "0123456789abcdef";
    let o = run(&["compute", "eval64", "--key", key, &f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = stdout(&o);
    assert_eq!(want.len(), 17, "{want:?}");
    assert_eq!(stderr(&o), KEY_WARNING, "one warning line, once");
    // From stdin too, and with --threads: still one warning.
    let o = run_stdin(&["--threads", "2", "compute", "eval64", "--key", key], b"abc");
    assert_eq!((stdout(&o), stderr(&o)), (want.clone(), KEY_WARNING.to_string()));
    // --key-env: the same value, stderr empty, the key nowhere.
    let env_run = |args: &[&str], val: Option<&str>| {
        let mut c = bin();
        c.args(args).stdin(Stdio::null()).env_remove("UNIMAC_TEST_KEY");
        if let Some(v) = val {
            c.env("UNIMAC_TEST_KEY", v);
        }
        c.output().unwrap()
    };
    let o = env_run(&["compute", "eval64", "--key-env", "UNIMAC_TEST_KEY", &f], Some(key));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), want);
    assert_eq!(stderr(&o), "");
    // A key for a MAC, with its nonce.
    let k32 = "5a".repeat(32);
    let nonce = "01".repeat(16);
    let mac = ["compute", "mac-hash127-aes-nonce", "--nonce", &nonce, "--caller-manages-nonces", &f];
    let by_arg = run(&[&mac[..], &["--key", &k32]].concat());
    let by_env = env_run(&[&mac[..], &["--key-env", "UNIMAC_TEST_KEY"]].concat(), Some(&k32));
    assert_eq!(stderr(&by_arg), KEY_WARNING);
    assert_eq!(stderr(&by_env), "");
    assert_eq!(stdout(&by_env), stdout(&by_arg));
    assert_eq!(stdout(&by_env).len(), 33);
    // Errors name the variable, not the value.
    let secret = "c0ffee".repeat(5) + "zz";
    let o = env_run(&["compute", "eval64", "--key-env", "UNIMAC_TEST_KEY", &f], Some(&secret));
    assert_error(&o, "--key-env UNIMAC_TEST_KEY: the environment variable is not valid hex");
    assert!(!stderr(&o).contains("c0ffee") && !stderr(&o).contains('z'), "{}", stderr(&o));
    let o = env_run(&["compute", "eval64", "--key-env", "UNIMAC_TEST_KEY", &f], None);
    assert_error(&o, "--key-env UNIMAC_TEST_KEY: the environment variable is not set");
    let o = env_run(&["compute", "eval64", "--key-env", "UNIMAC_TEST_KEY", &f], Some(""));
    assert_error(&o, "the environment variable is empty");
    let o = env_run(&["compute", "eval64", "--key-env", "UNIMAC_TEST_KEY", &f], Some("00"));
    assert_error(&o, "key must be 8 bytes");
    assert!(!stderr(&o).contains("warning"));
    // The three sources exclude each other (clap, exit 2, one line).
    let kf = d.write_private("k", b"x");
    for args in [
        vec!["compute", "eval64", "--key", key, "--key-env", "UNIMAC_TEST_KEY", &f],
        vec!["compute", "eval64", "--key-file", &kf, "--key-env", "UNIMAC_TEST_KEY", &f],
        vec!["compute", "eval64", "--key", key, "--key-file", &kf, &f],
    ] {
        let o = env_run(&args, Some(key));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_error(&o, "cannot be used with");
        assert!(!stderr(&o).contains(key), "{}", stderr(&o));
    }
    // --known-answer: --key without a warning; never --key-env.
    let o = run(&["compute", "mac-hash127", "--known-answer", "--key", H127_KEY, &f]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let o = env_run(&["compute", "mac-hash127", "--known-answer", "--key-env", "UNIMAC_TEST_KEY", &f], Some(H127_KEY));
    assert_error(&o, "--known-answer takes the key as --key HEX only");
    // A refused command line is one error line, no warning.
    assert_error(&run(&["compute", "eval64", "--key", "00", &f]), "key must be 8 bytes");
}

#[test]
fn compute_errors() {
    let d = Dir::unique("cli-test");
    let f = d.write("m", b"x");
    // hash127's value is a one-time MAC's tag: refused without
    // --known-answer, and the known-answer path reports input errors.
    assert_error(&run(&["compute", "hash127", "--key", H127_KEY, &f]), "one-time");
    let ka = ["compute", "hash127", "--known-answer"];
    assert_error(&run(&[&ka[..], &["--key", "zz", &f]].concat()), "hex");
    assert_error(
        &run(&["compute", "no-such-name", "--key", H127_KEY, &f]),
        "unknown name",
    );
    assert_error(
        &run(&[&ka[..], &["--key", H127_KEY, &d.s("missing")]].concat()),
        "cannot open",
    );
    assert_error(
        &run(&[&ka[..], &["--key", "00", &f]].concat()),
        "key must be 32 bytes",
    );
    assert_error(
        &run(&["compute", "mac-hash127-aes-nonce", "--key", H127_KEY, &f]),
        "needs a nonce",
    );
    assert_error(
        &run(&[
            "compute",
            "mac-hash127-aes-nonce",
            "--key",
            H127_KEY,
            "--nonce",
            "00",
            "--caller-manages-nonces",
            &f,
        ]),
        "nonce must be 16 bytes",
    );
    assert_error(&run(&["compute", "hash127-raw", "--key", H127_KEY, &f]), "one-time");
    assert_error(
        &run(&["compute", "hash127-raw", "--known-answer", "--key", H127_KEY, &f]),
        "multiple of 4",
    );
    assert_error(
        &run(&[&ka[..], &["--key", H127_KEY, d.path().to_str().unwrap()]].concat()),
        "directory",
    );
    // A nonce MAC's --nonce needs the caller's word that it never repeats.
    assert_error(
        &run(&[
            "compute",
            "mac-hash127-aes-nonce",
            "--key",
            H127_KEY,
            "--nonce",
            &"00".repeat(16),
            &f,
        ]),
        "--caller-manages-nonces",
    );
}

#[test]
fn check_vectors_exit_codes_and_summary() {
    let d = Dir::unique("cli-test");
    let good = d.write(
        "good.jsonl",
        b"{\"fn\": \"mac-hash127\", \"key\": \"2ada5eac627c82302b7155fa4e1591e14876840705af8bf878c2f14878f2394b\", \"msg\": \"3b\", \"out\": \"3f318193b259eb8e8653a98f0996c47c\"}\n",
    );
    let o = run(&["check-vectors", &good]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("1 passed, 0 failed"));
    let bad = d.write(
        "bad.jsonl",
        b"{\"fn\": \"mac-hash127\", \"key\": \"2ada5eac627c82302b7155fa4e1591e14876840705af8bf878c2f14878f2394b\", \"msg\": \"3b\", \"out\": \"00318193b259eb8e8653a98f0996c47c\"}\nnot json\n",
    );
    let o = run(&["check-vectors", &good, &bad]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert_eq!(out.lines().last(), Some("1 passed, 2 failed"));
    assert!(out.contains("bad.jsonl:1: mac-hash127 FAILED"));
    assert_error(
        &run(&["check-vectors", &d.s("missing.jsonl")]),
        "cannot open vector file",
    );
    // The bundled vectors: the summary line is always there.
    let o = run(&["check-vectors"]);
    let last = stdout(&o).lines().last().unwrap().to_string();
    assert!(
        last.ends_with(" failed") && last.contains(" passed, "),
        "{last}"
    );
    let failed: usize = last
        .split(", ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(o.status.success(), failed == 0);
}

// ---------------------------------------------------------------- keygen

#[test]
fn keygen_writes_a_private_hex_key_once() {
    let d = Dir::unique("cli-test");
    let k = keygen(&d, "hash127-aes", "k");
    let text = fs::read_to_string(&k).unwrap();
    let (head, hex) = text.split_once('\n').unwrap();
    assert_eq!(head, "unimac-key hash127-aes");
    assert_eq!(hex.len(), 65);
    assert!(hex.ends_with('\n'));
    assert!(hex[..64]
        .bytes()
        .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            fs::metadata(&k).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    // Two keys differ.
    let k2 = keygen(&d, "hash127-aes", "k2");
    assert_ne!(fs::read(&k).unwrap(), fs::read(&k2).unwrap());
    // To stdout.
    let o = run(&["keygen", "hash127-aes-nonce"]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("unimac-key hash127-aes-nonce\n"));
    assert_eq!(stdout(&o).lines().nth(1).unwrap().len(), 64);
}

#[test]
fn keygen_never_overwrites() {
    let d = Dir::unique("cli-test");
    let k = d.write("k", b"precious\n");
    assert_error(&run(&["keygen", "hash127-aes", "-o", &k]), "already exists");
    assert_eq!(fs::read(&k).unwrap(), b"precious\n");
    // An existing counter file stops keygen before the key is written.
    let c = d.write("c", b"7\n");
    assert_error(
        &run(&[
            "keygen",
            "hash127-aes-nonce",
            "-o",
            &d.s("new"),
            "--counter",
            &c,
        ]),
        "already exists",
    );
    assert!(!d.p("new").exists(), "nothing half-written");
    assert_eq!(fs::read(&c).unwrap(), b"7\n");
    assert_error(
        &run(&["keygen", "no-such-mac", "-o", &d.s("x")]),
        "unknown MAC",
    );
    assert!(!d.p("x").exists());
    // mac-X is X.
    let o = run(&["keygen", "mac-hash127-aes", "-o", &d.s("z")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(fs::read_to_string(d.p("z"))
        .unwrap()
        .starts_with("unimac-key hash127-aes\n"));
    assert_error(
        &run(&[
            "keygen",
            "hash127-aes",
            "-o",
            &d.s("x"),
            "--counter",
            &d.s("y"),
        ]),
        "takes no nonce",
    );
    assert!(!d.p("x").exists() && !d.p("y").exists());
}

// ---------------------------------------------------------------- tag / verify

fn tag_ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn tag_output_matches_compute_and_verifies() {
    let d = Dir::unique("cli-test");
    let k = keygen(&d, "hash127-aes", "k");
    let f1 = d.write("a file", b"hello\n");
    let f2 = d.write("big", &vec![0xa5; 3 << 20]); // memory-mapped path
    let out = tag_ok(&["tag", "hash127-aes", "--key-file", &k, &f1, &f2]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    for (line, f) in lines.iter().zip([&f1, &f2]) {
        let (t, name) = line.split_once("  ").unwrap();
        assert_eq!(name, f.as_str());
        let c = run(&["compute", "mac-hash127-aes", "--key", &key_hex(&k), f]);
        assert_eq!(format!("{t}\n"), stdout(&c));
    }
    let sums = d.write("SUMS", out.as_bytes());
    let o = run(&["verify", "hash127-aes", "--key-file", &k, "--check", &sums]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{f1}: OK\n{f2}: OK\n"));
    assert!(o.stderr.is_empty());
    // From stdin, both ways.
    let o = run_stdin(&["tag", "hash127-aes", "--key-file", &k], b"hello\n");
    assert_eq!(
        stdout(&o),
        format!("{}  -\n", lines[0].split_once("  ").unwrap().0)
    );
    let o = run_stdin(
        &["verify", "hash127-aes", "--key-file", &k, "--check", "-"],
        out.as_bytes(),
    );
    assert!(o.status.success());
}

#[test]
fn verify_reports_failures_like_sha256sum() {
    let d = Dir::unique("cli-test");
    let k = keygen(&d, "hash127-aes", "k");
    let f1 = d.write("one", b"1");
    let f2 = d.write("two", b"2");
    let out = tag_ok(&["tag", "hash127-aes", "--key-file", &k, &f1, &f2]);
    let sums = d.write("SUMS", out.as_bytes());
    fs::write(&f2, b"tampered").unwrap();
    let o = run(&["verify", "hash127-aes", "--key-file", &k, "--check", &sums]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("{f1}: OK\n{f2}: FAILED\n"));
    assert!(stderr(&o).contains("WARNING: 1 computed tag did NOT match"));
    // --quiet drops the OK lines.
    let o = run(&[
        "verify",
        "hash127-aes",
        "--key-file",
        &k,
        "--check",
        &sums,
        "--quiet",
    ]);
    assert_eq!(stdout(&o), format!("{f2}: FAILED\n"));
    // A wrong key fails everything.
    let k2 = keygen(&d, "hash127-aes", "k2");
    fs::write(&f2, b"2").unwrap();
    let o = run(&["verify", "hash127-aes", "--key-file", &k2, "--check", &sums]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).matches(": FAILED").count(), 2);
    // --status: nothing printed, the exit code tells.
    fs::write(&f2, b"tampered").unwrap();
    let o = run(&[
        "verify",
        "hash127-aes",
        "--key-file",
        &k,
        "--check",
        &sums,
        "--status",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    fs::write(&f2, b"2").unwrap();
    let o = run(&[
        "verify",
        "hash127-aes",
        "--key-file",
        &k,
        "--check",
        &sums,
        "--status",
    ]);
    assert!(o.status.success() && o.stdout.is_empty() && o.stderr.is_empty());
    // A listed file that cannot be read.
    fs::remove_file(&f1).unwrap();
    let o = run(&["verify", "hash127-aes", "--key-file", &k, "--check", &sums]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("{f1}: FAILED open or read\n{f2}: OK\n"));
    assert!(stderr(&o).contains("1 listed file could not be read"));
    // ... unless missing files are to be ignored.
    let o = run(&[
        "verify",
        "hash127-aes",
        "--key-file",
        &k,
        "--check",
        &sums,
        "--ignore-missing",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{f2}: OK\n"));
    fs::remove_file(&f2).unwrap();
    let o = run(&[
        "verify",
        "hash127-aes",
        "--key-file",
        &k,
        "--check",
        &sums,
        "--ignore-missing",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no file was verified"));
}

#[test]
fn malformed_check_lines() {
    let d = Dir::unique("cli-test");
    let k = keygen(&d, "hash127-aes", "k");
    let f = d.write("f", b"x");
    let good = tag_ok(&["tag", "hash127-aes", "--key-file", &k, &f]);
    let tag = good.split_once("  ").unwrap().0.to_string();
    for bad in [
        format!("{tag} {f}\n"),                                   // one space
        format!("{}  {f}\n", &tag[2..]),                          // short tag
        format!("{}zz  {f}\n", &tag[2..]),                        // not hex
        format!("00000000000000000000000000000000:{tag}  {f}\n"), // nonce on a stateless MAC
        "garbage\n".to_string(),
    ] {
        let sums = d.write("SUMS", bad.as_bytes());
        let o = run(&[
            "verify",
            "hash127-aes",
            "--key-file",
            &k,
            "--check",
            &sums,
            "--strict",
        ]);
        assert_eq!(o.status.code(), Some(1), "{bad:?}");
        assert!(o.stdout.is_empty(), "{bad:?}");
        let e = stderr(&o);
        // (A nonce before a tag of this length is another MAC's line.)
        assert!(e.contains("improperly formatted") || e.contains("look made with another MAC"), "{e}");
        assert!(!e.contains("panicked"));
    }
    // A malformed line among good ones: the good ones are still checked;
    // a warning, and exit 1 only with --strict (as sha256sum).
    let sums = d.write("SUMS", format!("{good}bad line\n").as_bytes());
    let o = run(&["verify", "hash127-aes", "--key-file", &k, "--check", &sums]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), format!("{f}: OK\n"));
    assert!(stderr(&o).contains("WARNING: 1 line is improperly formatted"));
    let o = run(&[
        "verify",
        "hash127-aes",
        "--key-file",
        &k,
        "--check",
        &sums,
        "--strict",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("{f}: OK\n"));
    assert_error(
        &run(&[
            "verify",
            "hash127-aes",
            "--key-file",
            &k,
            "--check",
            &d.s("none"),
        ]),
        "cannot open",
    );
}

#[test]
fn nonce_macs_with_a_counter_never_reuse_a_nonce() {
    let d = Dir::unique("cli-test");
    let c = d.s("ctr");
    let o = run(&[
        "keygen",
        "hash127-aes-nonce",
        "-o",
        &d.s("k"),
        "--counter",
        &c,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let k = d.s("k");
    assert_eq!(counter_value(&c, "hash127-aes-nonce"), "0");
    let f = d.write("f", b"same message");
    let a = tag_ok(&[
        "tag",
        "hash127-aes-nonce",
        "--key-file",
        &k,
        "--counter",
        &c,
        &f,
        &f,
    ]);
    let b = tag_ok(&[
        "tag",
        "hash127-aes-nonce",
        "--key-file",
        &k,
        "--counter",
        &c,
        &f,
    ]);
    assert_eq!(counter_value(&c, "hash127-aes-nonce"), "3");
    let all: Vec<&str> = a.lines().chain(b.lines()).collect();
    let nonces: Vec<&str> = all.iter().map(|l| l.split_once(':').unwrap().0).collect();
    assert_eq!(
        nonces,
        [
            "00000000000000000000000000000000",
            "01000000000000000000000000000000",
            "02000000000000000000000000000000"
        ]
    );
    let tags: std::collections::BTreeSet<&str> =
        all.iter().map(|l| l.split_once(':').unwrap().1).collect();
    assert_eq!(
        tags.len(),
        3,
        "same message, different nonces, different tags"
    );
    // --nonce for interoperation (the caller's word that it never repeats)
    // equals the library; without that word it is refused.
    let n = "000102030405060708090a0b0c0d0e0f";
    assert_error(
        &run(&["tag", "hash127-aes-nonce", "--key-file", &k, "--nonce", n, &f]),
        "--caller-manages-nonces",
    );
    let o = tag_ok(&[
        "tag",
        "hash127-aes-nonce",
        "--key-file",
        &k,
        "--nonce",
        n,
        "--caller-manages-nonces",
        &f,
    ]);
    let c2 = run(&[
        "compute",
        "mac-hash127-aes-nonce",
        "--key",
        &key_hex(&k),
        "--nonce",
        n,
        "--caller-manages-nonces",
        &f,
    ]);
    assert!(c2.status.success(), "{}", stderr(&c2));
    assert_eq!(o, format!("{n}:{}  {f}\n", stdout(&c2).trim_end()));
    let sums = d.write("SUMS", format!("{a}{b}{o}").as_bytes());
    let v = run(&[
        "verify",
        "hash127-aes-nonce",
        "--key-file",
        &k,
        "--check",
        &sums,
    ]);
    assert!(v.status.success(), "{}", stderr(&v));
    assert_eq!(stdout(&v).matches(": OK").count(), 4);
    // hash127-aes-add too.
    let o = run(&[
        "keygen",
        "hash127-aes-add",
        "-o",
        &d.s("ka"),
        "--counter",
        &d.s("ca"),
    ]);
    assert!(o.status.success());
    let t = tag_ok(&[
        "tag",
        "hash127-aes-add",
        "--key-file",
        &d.s("ka"),
        "--counter",
        &d.s("ca"),
        &f,
    ]);
    let sums = d.write("SUMS2", t.as_bytes());
    assert!(run(&[
        "verify",
        "hash127-aes-add",
        "--key-file",
        &d.s("ka"),
        "--check",
        &sums
    ])
    .status
    .success());
}

#[test]
fn tag_errors_write_nothing() {
    let d = Dir::unique("cli-test");
    let f = d.write("f", b"msg");
    let k = d.s("k");
    let ctr = d.s("ctr");
    let o = run(&["keygen", "hash127-aes-nonce", "-o", &k, "--counter", &ctr]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ctr_before = fs::read(&ctr).unwrap();
    // missing key file
    assert_error(
        &run(&["tag", "hash127-aes", "--key-file", &d.s("nokey"), &f]),
        "cannot open key file",
    );
    // non-hex key
    let bad = d.write_private("bad", b"not a key at all\n");
    assert_error(
        &run(&["tag", "hash127-aes", "--key-file", &bad, &f]),
        "not a key file",
    );
    let bad = d.write_private(
        "bad2",
        format!("unimac-key hash127-aes\n{}\n\n", "ab".repeat(32)).as_bytes(),
    );
    assert_error(
        &run(&["tag", "hash127-aes", "--key-file", &bad, &f]),
        "line 3, byte 1: not 'spent', the one line a key file may hold after the key",
    );
    let bad = d.write_private(
        "bad3",
        format!("unimac-key hash127-aes\n {}\n", "ab".repeat(32)).as_bytes(),
    );
    assert_error(
        &run(&["tag", "hash127-aes", "--key-file", &bad, &f]),
        "line 2, byte 1: not a hex digit",
    );
    let bad = d.write_private(
        "bad4",
        format!("unimac-key  hash127-aes\n{}\n", "ab".repeat(32)).as_bytes(),
    );
    assert_error(&run(&["tag", "hash127-aes", "--key-file", &bad, &f]), "");
    // wrong key length
    let short = d.write_private(
        "short",
        format!("unimac-key hash127-aes\n{}\n", "ab".repeat(31)).as_bytes(),
    );
    assert_error(
        &run(&["tag", "hash127-aes", "--key-file", &short, &f]),
        "needs 32 bytes",
    );
    let odd = d.write_private(
        "odd",
        format!("unimac-key hash127-aes\n{}a\n", "ab".repeat(32)).as_bytes(),
    );
    assert_error(
        &run(&["tag", "hash127-aes", "--key-file", &odd, &f]),
        "odd number",
    );
    // a key file of another MAC, even of the same key length
    let o = run(&["keygen", "wc-eval64", "-o", &d.s("keval")]);
    if o.status.success() {
        assert_error(
            &run(&["tag", "--mac", "hash127-aes", "--key-file", &d.s("keval"), &f]),
            "wc-eval64",
        );
        assert_error(
            &run(&[
                "tag",
                "--mac",
                "wc-eval64",
                "--key-file",
                &k,
                "--nonce",
                &"00".repeat(16),
                "--caller-manages-nonces",
                &f,
            ]),
            "not a wc-eval64 key",
        );
    }
    // missing nonce
    assert_error(
        &run(&["tag", "hash127-aes-nonce", "--key-file", &k, &f]),
        "needs a nonce",
    );
    // nonce of the wrong length, bad hex
    assert_error(
        &run(&[
            "tag",
            "hash127-aes-nonce",
            "--key-file",
            &k,
            "--nonce",
            "0011",
            "--caller-manages-nonces",
            &f,
        ]),
        // The library's message, and the digits --nonce takes.
        "hash127-aes-nonce: nonce must be 16 bytes, got 2 (--nonce takes 32 hex digits)",
    );
    assert_error(
        &run(&[
            "tag",
            "hash127-aes-nonce",
            "--key-file",
            &k,
            "--nonce",
            "xyz",
            "--caller-manages-nonces",
            &f,
        ]),
        "not valid hex",
    );
    // a nonce to a stateless MAC, both --nonce and --counter, one nonce for two files
    let k2 = keygen(&d, "hash127-aes", "k2");
    assert_error(
        &run(&[
            "tag",
            "hash127-aes",
            "--key-file",
            &k2,
            "--counter",
            &ctr,
            &f,
        ]),
        "takes no nonce",
    );
    assert_error(
        &run(&[
            "tag",
            "hash127-aes-nonce",
            "--key-file",
            &k,
            "--counter",
            &ctr,
            "--nonce",
            &"00".repeat(16),
            &f,
        ]),
        "not both",
    );
    assert_error(
        &run(&[
            "tag",
            "hash127-aes-nonce",
            "--key-file",
            &k,
            "--nonce",
            &"00".repeat(16),
            "--caller-manages-nonces",
            &f,
            &f,
        ]),
        "twice",
    );
    // unknown --mac NAME
    assert_error(
        &run(&["tag", "--mac", "no-such-mac", "--key-file", &k, &f]),
        "unknown MAC",
    );
    // unreadable FILE alone: nothing printed, and no nonce spent
    assert_error(
        &run(&[
            "tag",
            "hash127-aes-nonce",
            "--key-file",
            &k,
            "--counter",
            &ctr,
            &d.s("missing"),
        ]),
        "no such file",
    );
    assert_eq!(fs::read(&ctr).unwrap(), ctr_before);
    assert_error(
        &run(&[
            "tag",
            "hash127-aes",
            "--key-file",
            &k2,
            d.path().to_str().unwrap(),
        ]),
        "directory",
    );
    // the one-time MAC refuses a second message under its key
    let k1 = keygen(&d, "hash127", "k1");
    assert_error(
        &run(&["tag", "hash127", "--key-file", &k1, &f, &f]),
        "one-time",
    );
}

#[test]
fn corrupt_or_missing_counter_file() {
    let d = Dir::unique("cli-test");
    let f = d.write("f", b"msg");
    let k = d.s("k");
    let good = d.s("good");
    let o = run(&["keygen", "hash127-aes-nonce", "-o", &k, "--counter", &good]);
    assert!(o.status.success(), "{}", stderr(&o));
    let head = counter_head(&good);
    let bound = |v: &str| format!("{head}{v}").into_bytes();
    for bad in [
        &b""[..],
        b"12",
        b"abc\n",
        b"-1\n",
        b"1 2\n",
        b"340282366920938463463374607431768211456\n",
        b"\x00\x01",
        // With its binding line, a corrupt value is still refused.
        &bound("")[..],
        &bound("12")[..],
        &bound("abc\n")[..],
        &bound("-1\n")[..],
        &bound("1 2\n")[..],
        &bound("340282366920938463463374607431768211456\n")[..],
        &bound("1\n\n")[..],
        head.trim_end().as_bytes(),
    ] {
        let c = d.write("ctr", bad);
        assert_error(
            &run(&[
                "tag",
                "hash127-aes-nonce",
                "--key-file",
                &k,
                "--counter",
                &c,
                &f,
            ]),
            "counter file",
        );
        assert_eq!(fs::read(&c).unwrap(), bad, "counter file left alone");
    }
    assert_error(
        &run(&[
            "tag",
            "hash127-aes-nonce",
            "--key-file",
            &k,
            "--counter",
            &d.s("none"),
            &f,
        ]),
        "cannot open counter file",
    );
    assert!(
        !d.p("none").exists(),
        "a missing counter is never silently restarted at 0"
    );
    // A bare value, as counters were before they named their key: refused
    // (it could hand out nonces another key used).
    for bare in ["0\n", "5\n", &format!("{}\n", u128::MAX)] {
        let c = d.write("ctr", bare.as_bytes());
        assert_error(
            &run(&["tag", "hash127-aes-nonce", "--key-file", &k, "--counter", &c, &f]),
            "not bound to a key",
        );
        assert_eq!(fs::read_to_string(&c).unwrap(), bare, "counter file left alone");
    }
    let c = d.write("ctr", &bound(&format!("{}\n", u128::MAX)));
    assert_error(
        &run(&[
            "tag",
            "hash127-aes-nonce",
            "--key-file",
            &k,
            "--counter",
            &c,
            &f,
        ]),
        "exhausted",
    );
    // The counter made with the key works, and counts.
    let t = tag_ok(&["tag", "hash127-aes-nonce", "--key-file", &k, "--counter", &good, &f]);
    assert!(t.starts_with(&format!("{}:", "00".repeat(16))), "{t}");
    assert_eq!(counter_value(&good, "hash127-aes-nonce"), "1");
    // No temporary files are left behind.
    let left: Vec<_> = fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        left.iter().all(|n| !n.to_string_lossy().contains(".tmp")),
        "{left:?}"
    );
}

#[test]
fn file_names_with_newlines_are_escaped() {
    let d = Dir::unique("cli-test");
    let k = keygen(&d, "hash127-aes", "k");
    let f = d.write("a\nb", b"x");
    let out = tag_ok(&["tag", "hash127-aes", "--key-file", &k, &f]);
    assert!(out.starts_with('\\'));
    assert_eq!(out.lines().count(), 1);
    let sums = d.write("SUMS", out.as_bytes());
    let o = run(&["verify", "hash127-aes", "--key-file", &k, "--check", &sums]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with('\\') && stdout(&o).ends_with("a\\nb: OK\n"));
}

// ---------------------------------------------------------------- bound

#[test]
fn bound_text_and_json() {
    let o = run(&[
        "bound",
        "hash127-aes",
        "--max-bytes",
        "1048576",
        "--tags",
        "1000000",
        "--forgeries",
        "1000",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(stdout(&o).lines().count(), 1);
    assert!(v["theorem"].as_str().unwrap().contains("Theorem 9.2"));
    // (C(C-1)/2 + CD)(L_w + 2)/2^127 + D/2^128 + q(q-1)/2^129, L_w = 2^18 + 1.
    let (c, dd, q) = (1e6f64, 1000f64, 1e6f64 + 1000.0);
    let want = ((c * (c - 1.0) / 2.0 + c * dd) * (262145.0 + 2.0) * 4.0 + dd * 2.0 + q * (q - 1.0))
        .log2()
        - 129.0;
    let got = v["bound_log2"].as_f64().unwrap();
    assert!((got - want).abs() < 1e-6, "{got} vs {want}");
    assert!(v["not_included"][0]
        .as_str()
        .unwrap()
        .contains("Adv_AES^prp"));

    let o = run(&["bound", "hash127", "--max-bytes", "4294967296"]);
    assert!(o.status.success());
    let t = stdout(&o);
    assert!(t.contains("Theorem 8.2") && t.contains("2^-96.4"), "{t}");

    for name in [
        "hash127-aes-nonce",
        "hash127-aes-add",
        "wc-eval64",
        "wc-division64",
        "wc-gdivision64",
        "wc-mmh32x2",
        "wc-nmh32",
        "wc-sqh64-e",
    ] {
        let o = run(&["bound", name, "--max-bytes", "1000000", "--json"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert!(v["bound_log2"].as_f64().unwrap() < -20.0, "{name}");
        assert!(
            v["theorem"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("theorem"),
            "{name}"
        );
    }
    // Tiny bounds are printed as numbers, not as 0.
    let o = run(&["bound", "wc-sqh128-e", "--max-bytes", "100"]);
    assert!(stdout(&o).contains("e-30"), "{}", stdout(&o));
}

#[test]
fn bound_errors() {
    assert_error(
        &run(&["bound", "no-such", "--max-bytes", "10"]),
        "unknown MAC",
    );
    assert_error(
        &run(&["bound", "hash127", "--max-bytes", "10", "--tags", "2"]),
        "one message",
    );
    assert_error(
        &run(&[
            "bound",
            "hash127-aes",
            "--max-bytes",
            "18446744073709551615",
            "--tags",
            "1099511627776",
        ]),
        "too long",
    );
    // Too many tags or forgery attempts is not a message length problem.
    let o = run(&[
        "bound",
        "wc-mmh32x1",
        "--max-bytes",
        "18446744073709551615",
        "--forgeries",
        "18446744073709551615",
    ]);
    assert_error(
        &o,
        "no guarantee for D = 18446744073709551615 forgery attempts",
    );
    assert!(!stderr(&o).contains("too long"));
    assert_error(
        &run(&[
            "bound",
            "wc-eval64",
            "--max-bytes",
            "100",
            "--forgeries",
            "18446744073709551615",
        ]),
        "no guarantee",
    );
    assert_error(
        &run(&[
            "bound",
            "hash127-aes",
            "--max-bytes",
            "10",
            "--forgeries",
            "0",
        ]),
        "at least 1",
    );
    let o = run(&["bound", "hash127-aes", "--max-bytes", "ten"]);
    assert!(!o.status.success() && o.stdout.is_empty());
}

#[test]
fn a_killed_tag_never_gives_its_nonce_again() {
    let d = Dir::unique("cli-test");
    let c = d.s("ctr");
    let o = run(&["keygen", "wc-eval64", "-o", &d.s("k"), "--counter", &c]);
    let (name, k) = if o.status.success() {
        ("wc-eval64", d.s("k"))
    } else {
        let o = run(&[
            "keygen",
            "hash127-aes-nonce",
            "-o",
            &d.s("k2"),
            "--counter",
            &c,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        ("hash127-aes-nonce", d.s("k2"))
    };
    // stdin stays open: the process reserves its nonce, then waits for the message.
    let mut child = bin()
        .args([
            "tag",
            name,
            "--key-file",
            &k,
            "--counter",
            &c,
            "--allow-weak",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while counter_value(&c, name) != "1" {
        assert!(t0.elapsed().as_secs() < 20, "the nonce was not reserved");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.stdout.is_empty(), "no tag from a killed process");
    // The next tag takes nonce 1, never 0 again.
    let f = d.write("f", b"m");
    let t = tag_ok(&[
        "tag",
        name,
        "--key-file",
        &k,
        "--counter",
        &c,
        "--allow-weak",
        &f,
    ]);
    assert!(t.starts_with("01000000000000000000000000000000:"), "{t}");
    assert_eq!(counter_value(&c, name), "2");
}

#[test]
fn big_files_tag_like_streamed_stdin_for_every_mac() {
    // A memory-mapped file goes to the MAC in one slice (two-thread paths);
    // stdin comes in 1 MiB reads. Both must give the same tag, for every MAC.
    let d = Dir::unique("cli-test");
    let data: Vec<u8> = (0..(5u32 << 20) + 123)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let f = d.write("big", &data);
    common::settle([&f]);
    let list = stdout(&run(&["list"]));
    let names: Vec<String> = list
        .lines()
        .filter_map(|l| {
            l.split_whitespace()
                .next()?
                .strip_prefix("mac-")
                .map(str::to_string)
        })
        .collect();
    assert!(names.len() >= 4);
    for name in names {
        let k = keygen(&d, &name, &format!("{name}.key"));
        let nonce = "0f".repeat(16);
        let takes_nonce = list.lines().any(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            c.first() == Some(&format!("mac-{name}").as_str()) && c.get(2) != Some(&"-")
        });
        // A MAC that draws its own r || s per message takes no nonce, and
        // its two lines differ: each must verify against the file.
        let draws_pair = unimac_front::macs::find(&name)
            .is_some_and(|m| m.framing == unimac_front::macs::Framing::PairThenTag);
        let mut args = vec![
            "tag",
            name.as_str(),
            "--key-file",
            k.as_str(),
            "--allow-weak",
        ];
        if takes_nonce && !draws_pair {
            args.extend(["--nonce", nonce.as_str(), "--caller-manages-nonces"]);
        }
        // A one-message key is spent by its tag: the stdin run gets a fresh
        // copy of the same key (a copy of a one-time key file defeats its
        // spent mark: only a test may do this).
        let k2 = d.write_private(&format!("{name}.key2"), &fs::read(&k).unwrap());
        let from_file = tag_ok(&[args.clone(), vec![f.as_str()]].concat());
        args[3] = k2.as_str();
        let from_stdin = run_stdin(&args, &data);
        assert!(
            from_stdin.status.success(),
            "{name}: {}",
            stderr(&from_stdin)
        );
        let (file_value, stdin_value) = (
            from_file.split_once("  ").unwrap().0,
            stdout(&from_stdin).split_once("  ").unwrap().0.to_string(),
        );
        if draws_pair {
            assert_ne!(file_value, stdin_value, "{name}: a fresh pair per message");
            let sums = d.write(
                &format!("{name}.sums"),
                format!("{file_value}  {f}\n{stdin_value}  {f}\n").as_bytes(),
            );
            let v = run(&["verify", &name, "--key-file", &k, "--check", &sums]);
            assert!(v.status.success(), "{name}: {}{}", stdout(&v), stderr(&v));
            assert_eq!(stdout(&v), format!("{f}: OK\n{f}: OK\n"), "{name}");
        } else {
            assert_eq!(file_value, stdin_value, "{name}");
        }
    }
}

#[test]
fn one_time_key_tags_once_then_only_verifies() {
    let d = Dir::unique("cli-test");
    let f = d.write("f", b"the one message");
    let g = d.write("g", b"another message");
    let k = keygen(&d, "hash127", "k");
    let key = key_hex(&k);
    // A file that cannot be read spends nothing.
    let before = fs::read_to_string(&k).unwrap();
    assert_error(
        &run(&["tag", "hash127", "--key-file", &k, &d.s("missing")]),
        "no such file",
    );
    assert_eq!(fs::read_to_string(&k).unwrap(), before);
    let sums = tag_ok(&["tag", "hash127", "--key-file", &k, &f]);
    // Marked spent (durably, before the tag was printed); the key is intact.
    assert_eq!(fs::read_to_string(&k).unwrap(), format!("{before}spent\n"));
    // A second tag under the key is refused, whatever the message.
    assert_error(
        &run(&["tag", "hash127", "--key-file", &k, &g]),
        "already tagged",
    );
    assert_error(
        &run(&["tag", "hash127", "--key-file", &k, &f]),
        "already tagged",
    );
    // Verification still works with the spent key.
    let s = d.write("sums", sums.as_bytes());
    let o = run(&["verify", "hash127", "--key-file", &k, "--check", &s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{f}: OK\n"));
    // The tag is the one-shot computation (the known answer of its key);
    // compute refuses the one-time value without --known-answer.
    let o = run(&["compute", "mac-hash127", "--known-answer", "--key", &key, &f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = stdout(&o);
    assert_eq!(want.len(), 33, "{want:?}");
    assert_eq!(sums, format!("{}  {f}\n", want.trim_end()));
    assert_error(&run(&["compute", "mac-hash127", "--key", &key, &f]), "one-time");
    // A key file marked spent is still strict.
    let bad = d.write_private("bad", format!("{before}spent\nspent\n").as_bytes());
    assert_error(
        &run(&["verify", "hash127", "--key-file", &bad, "--check", &s]),
        "line 4, byte 1: more lines than a key file holds",
    );
}

/// `verify` of a one-time MAC's tags (src/verify.rs: the check takes the
/// tag first and gives none): for hash127 and hash127-96, on a small file
/// (read on a worker), a file of 8 MiB and more (read on its own) and
/// stdin, the right tag is OK and a changed tag or a changed file FAILED;
/// checking does not spend the key.
#[test]
fn one_time_tags_verify_on_every_read_path() {
    let d = Dir::unique("cli-test");
    let small = d.write("small", b"the one message");
    let big_data: Vec<u8> = (0..(8usize << 20) + 5).map(|i| (i * 7 + i / 4099) as u8).collect();
    let big = d.write("big", &big_data);
    for name in ["hash127", "hash127-96"] {
        let k = keygen(&d, name, &format!("{name}.key"));
        let key = key_hex(&k);
        let tag_of = |file: &str| {
            let o = run(&["compute", &format!("mac-{name}"), "--known-answer", "--key", &key, file]);
            assert!(o.status.success(), "{}", stderr(&o));
            stdout(&o).trim_end().to_string()
        };
        for file in [&small, &big] {
            let t = tag_of(file);
            let good = d.write("good", format!("{t}  {file}\n").as_bytes());
            let o = run(&["verify", name, "--key-file", &k, "--check", &good]);
            assert!(o.status.success(), "{name} {file}: {}", stderr(&o));
            assert_eq!(stdout(&o), format!("{file}: OK\n"));
            // Stdin as '-'.
            let dash = d.write("dash", format!("{t}  -\n").as_bytes());
            let o = run_stdin(&["verify", name, "--key-file", &k, "--check", &dash], &fs::read(file).unwrap());
            assert!(o.status.success(), "{name} {file} stdin: {}", stderr(&o));
            assert_eq!(stdout(&o), "-: OK\n");
            // A tag with its last digit changed.
            let last = t.chars().last().unwrap();
            let other = if last == '0' { '1' } else { '0' };
            let bad_tag = format!("{}{other}", &t[..t.len() - 1]);
            let bad = d.write("bad", format!("{bad_tag}  {file}\n").as_bytes());
            let o = run(&["verify", name, "--key-file", &k, "--check", &bad]);
            assert_eq!(o.status.code(), Some(1), "{name} {file}: {}", stderr(&o));
            assert_eq!(stdout(&o), format!("{file}: FAILED\n"));
        }
        // The small file changed: its old tag fails.
        let t = tag_of(&small);
        let changed = d.write("changed", b"the one messagf");
        let sums = d.write("sums", format!("{t}  {changed}\n").as_bytes());
        let o = run(&["verify", name, "--key-file", &k, "--check", &sums]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert_eq!(stdout(&o), format!("{changed}: FAILED\n"));
        // Not spent by any of it.
        assert!(!fs::read_to_string(&k).unwrap().contains("spent"));
    }
}

#[test]
fn random_nonces_are_fresh_and_verify() {
    let d = Dir::unique("cli-test");
    let files: Vec<String> = (0..4)
        .map(|i| d.write(&format!("f{i}"), format!("same text {}", i / 2).as_bytes()))
        .collect();
    for name in ["wc-mmh32x2", "hash127-aes-nonce", "wc-eval64", "wc-sqh96-e"] {
        let k = keygen(&d, name, &format!("k-{name}"));
        let mut args = vec![
            "tag",
            name,
            "--key-file",
            &k,
            "--random-nonce",
            "--allow-weak",
        ];
        args.extend(files.iter().map(|s| s.as_str()));
        let sums = tag_ok(&args);
        let nonces: std::collections::HashSet<&str> =
            sums.lines().map(|l| l.split(':').next().unwrap()).collect();
        assert_eq!(
            nonces.len(),
            4,
            "{name}: four distinct random nonces: {sums}"
        );
        assert!(nonces.iter().all(|n| n.len() == 32));
        let s = d.write(&format!("sums-{name}"), sums.as_bytes());
        let o = run(&["verify", name, "--key-file", &k, "--check", &s]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_error(
            &run(&[
                "tag",
                name,
                "--key-file",
                &k,
                "--random-nonce",
                "--nonce",
                &"00".repeat(16),
                &files[0],
            ]),
            "not both",
        );
    }
    let k = keygen(&d, "hash127-aes", "stateless");
    assert_error(
        &run(&[
            "tag",
            "hash127-aes",
            "--key-file",
            &k,
            "--random-nonce",
            &files[0],
        ]),
        "takes no nonce",
    );
    // The bound adds the birthday term of C random 128-bit nonces.
    let j = |args: &[&str]| -> serde_json::Value {
        let o = run(args);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str(stdout(&o).trim()).unwrap()
    };
    let base = [
        "bound",
        "wc-mmh32x4",
        "--max-bytes",
        "1024",
        "--tags",
        "4294967296",
        "--json",
    ];
    let plain = j(&base);
    let mut with: Vec<&str> = base.to_vec();
    with.push("--random-nonces");
    let random = j(&with);
    assert!(random["bound_log2"].as_f64().unwrap() > plain["bound_log2"].as_f64().unwrap());
    assert!(random["terms"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["formula"] == "C(C-1)/2^129"));
    assert_error(
        &run(&[
            "bound",
            "hash127-aes",
            "--max-bytes",
            "10",
            "--random-nonces",
        ]),
        "takes no nonce",
    );
}

#[test]
fn shoup_macs_of_spec_7_tag_verify_and_bound() {
    let d = Dir::unique("cli-test");
    let a = d.write("a", b"attack at dawn");
    let b = d.write("b", b"attack at dusk");
    // shoup4: stateless, a fresh random r || s per message, printed as the nonce.
    for name in ["shoup4-eval64", "shoup4-division64"] {
        let k = keygen(&d, name, &format!("k-{name}"));
        assert_eq!(key_hex(&k).len(), 96);
        // 64-bit tags: weak at the default use (2^32 tags and forgeries).
        assert_error(&run(&["tag", name, "--key-file", &k, &a]), "weak");
        let o = run(&["tag", name, "--allow-weak", "--key-file", &k, &a, &b]);
        assert!(o.status.success(), "{}", stderr(&o));
        let t = stdout(&o);
        let pairs: Vec<&str> = t.lines().map(|l| l.split(':').next().unwrap()).collect();
        assert_eq!(pairs.len(), 2);
        assert!(
            pairs.iter().all(|p| p.len() == 32) && pairs[0] != pairs[1],
            "{t}"
        );
        assert!(
            t.lines().all(|l| l
                .split(':')
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .len()
                == 16),
            "{t}"
        );
        let check = d.write(&format!("check-{name}"), t.as_bytes());
        let o = run(&["verify", name, "--key-file", &k, "--check", &check]);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        assert_error(
            &run(&[
                "tag",
                name,
                "--allow-weak",
                "--key-file",
                &k,
                "--counter",
                &d.s("c"),
                &a,
            ]),
            "stateless",
        );
        let o = run(&["bound", name, "--max-bytes", "1000000", "--tags", "1000000"]);
        assert!(
            o.status.success()
                && stdout(&o).contains("Theorem 4")
                && stdout(&o).contains("condition")
        );
    }
    // wc-eval128 and shoup3-eval128: nonce MACs with a counter.
    for name in ["wc-eval128", "shoup3-eval128"] {
        let k = d.s(&format!("k-{name}"));
        let c = d.s(&format!("c-{name}"));
        let o = run(&["keygen", name, "-o", &k, "--counter", &c]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = run(&["tag", name, "--key-file", &k, "--counter", &c, &a, &b]);
        assert!(o.status.success(), "{}", stderr(&o));
        let check = d.write(&format!("check-{name}"), stdout(&o).as_bytes());
        let o = run(&["verify", name, "--key-file", &k, "--check", &check]);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        let o = run(&["bound", name, "--max-bytes", "1000000", "--json"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert!(v["bound_log2"].as_f64().unwrap() < -100.0, "{name}");
    }
    let o = run(&["list"]);
    for n in [
        "eval128",
        "mac-wc-eval128",
        "mac-shoup3-eval128",
        "mac-shoup4-eval64",
        "mac-shoup4-division64",
    ] {
        assert!(
            stdout(&o).lines().any(|l| l.starts_with(&format!("{n} "))),
            "{n}"
        );
    }
}
