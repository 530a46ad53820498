//! `unimac keygen modp`, `compute modp`, `check-identity`, `bound modp`, and
//! the one-time MAC `hash127-96` end to end.

use std::fs;

use crate::common;
use common::{assert_error, run, stderr, stdout, TempDir as Dir};

/// A modp key of modp.jsonl (line 1).
const P_HEX: &str = "57ad381a88b75b7480475d1496e591e8";

#[test]
fn keygen_modp_writes_a_prime_of_the_range() {
    let d = Dir::new("modp-cli-keygen");
    let k = d.s("k");
    let o = run(&["keygen", "modp", "-o", &k]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = fs::read_to_string(&k).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0], "unimac-key modp");
    assert_eq!(lines[1].len(), 32);
    let p = hex::decode(lines[1]).unwrap();
    // The library accepts it as a key: an odd prime in [2^120, 2^128).
    assert!(unimac_front::modp::SecretPrime::from_bytes(&p).is_ok());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            fs::metadata(&k).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    assert_error(&run(&["keygen", "modp", "-o", &k]), "already exists");
    assert_error(
        &run(&["keygen", "modp", "--counter", &d.s("c")]),
        "no nonce",
    );
    // To stdout.
    let o = run(&["keygen", "modp"]);
    assert!(o.status.success());
    assert!(
        stdout(&o).starts_with("unimac-key modp\n"),
        "{}",
        stdout(&o)
    );
    assert_eq!(stdout(&o).len(), 16 + 33);
}

#[test]
fn compute_modp_and_its_errors() {
    let d = Dir::new("modp-cli-compute");
    // A modp key file works with --key-file too.
    let k = d.write_private("k", format!("unimac-key modp\n{P_HEX}\n").as_bytes());
    let one = d.write_private("one", &[1]);
    let o = run(&["compute", "modp", "--key-file", &k, &one]);
    assert_eq!(
        stdout(&o).trim(),
        format!("01{}", "00".repeat(15)),
        "{}",
        stderr(&o)
    );
    // modp.jsonl: 0x56ad…e8 = p − 1 mod p, and p + 1 ≡ 1.
    let m = d.write_private(
        "m",
        &hex::decode("58ad381a88b75b7480475d1496e591e8").unwrap(),
    );
    let o = run(&["compute", "modp", "--key", P_HEX, &m]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "01000000000000000000000000000000\n");
    let empty = d.write_private("e", b"");
    let o = run(&["compute", "modp", "--key", P_HEX, &empty]);
    assert_eq!(stdout(&o), "00000000000000000000000000000000\n");
    // Not a prime, below the range, even, wrong length.
    assert_error(
        &run(&[
            "compute",
            "modp",
            "--key",
            "59ad381a88b75b7480475d1496e591e8",
            &m,
        ]),
        "prime",
    );
    assert_error(
        &run(&[
            "compute",
            "modp",
            "--key",
            "57ad381a88b75b7480475d1496e59100",
            &m,
        ]),
        "2^120",
    );
    assert_error(
        &run(&[
            "compute",
            "modp",
            "--key",
            "56ad381a88b75b7480475d1496e591e8",
            &m,
        ]),
        "prime",
    );
    assert_error(&run(&["compute", "modp", "--key", "57ad", &m]), "16 bytes");
}

#[test]
fn check_identity_exit_codes_and_probability() {
    let d = Dir::new("modp-cli-identity");
    let k = d.write_private("k", format!("unimac-key modp\n{P_HEX}\n").as_bytes());
    // (2^800 + 5)^2 = 2^1600 + 10·2^800 + 25 = b·c + d·e with b = 2^800,
    // c = 2^800 + 10, d = 5, e = 5.
    let big = |shift: usize, add: u8| {
        let mut v = vec![0u8; shift / 8 + 1];
        v[shift / 8] = 1 << (shift % 8);
        v[0] += add;
        v
    };
    let a = d.write_private("a", &big(800, 5));
    let b = d.write_private("b", &big(800, 0));
    let c = d.write_private("c", &big(800, 10));
    let five = d.write_private("d", &[5]);
    let o = run(&["check-identity", "--key-file", &k, &a, &b, &c, &five, &five]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("OK:"), "{out}");
    // |D| < 2^1603: at most 13 primes >= 2^120 divide it: 13 / 2^121.52.
    assert!(out.contains("2^-117.82"), "{out}");
    let six = d.write_private("six", &[6]);
    let o = run(&["check-identity", "--key-file", &k, &a, &b, &c, &five, &six]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("FAILED:"));
    // Hex operands.
    let o = run(&[
        "check-identity",
        "--key-file",
        &k,
        "--hex",
        "03",
        "02",
        "04",
        "01",
        "01",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&[
        "check-identity",
        "--key-file",
        &k,
        "--hex",
        "03",
        "02",
        "04",
        "01",
        "02",
    ]);
    assert_eq!(o.status.code(), Some(1));
    // Errors: one line, exit 2, nothing on stdout.
    assert_error(
        &run(&[
            "check-identity",
            "--key-file",
            &k,
            "--hex",
            "0x3",
            "02",
            "04",
            "01",
            "01",
        ]),
        "not valid hex",
    );
    assert_error(
        &run(&[
            "check-identity",
            "--key-file",
            &k,
            &a,
            &b,
            &c,
            &five,
            &d.s("missing"),
        ]),
        "missing",
    );
    let bad_key = d.write_private("bk", b"unimac-key modp\n59ad381a88b75b7480475d1496e591e8\n");
    assert_error(
        &run(&[
            "check-identity",
            "--key-file",
            &bad_key,
            &a,
            &b,
            &c,
            &five,
            &five,
        ]),
        "prime",
    );
    let short_key = d.write_private("sk", b"unimac-key modp\n57ad\n");
    assert_error(
        &run(&[
            "check-identity",
            "--key-file",
            &short_key,
            &a,
            &b,
            &c,
            &five,
            &five,
        ]),
        "16 bytes",
    );
}

#[test]
fn bound_knows_both_new_names() {
    let o = run(&["bound", "modp", "--max-bytes", "1048576"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(
            "modp: a false identity a^2 = bc + de passes with probability <= 2^-104.43"
        ),
        "{}",
        stdout(&o)
    );
    let o = run(&["bound", "modp", "--max-bytes", "7", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["bound"], 0.0);
    let o = run(&["bound", "hash127-96", "--max-bytes", "4294967296"]);
    assert!(o.status.success());
    assert!(
        stdout(&o).starts_with("hash127-96: forgery probability <= 2^-95.42"),
        "{}",
        stdout(&o)
    );
    assert_error(
        &run(&["bound", "hash127-96", "--max-bytes", "10", "--tags", "2"]),
        "ONE message",
    );
}

#[test]
fn hash127_96_tag_and_verify() {
    let d = Dir::new("modp-cli-h96");
    let k = d.s("k");
    assert!(run(&["keygen", "hash127-96", "-o", &k]).status.success());
    let text = fs::read_to_string(&k).unwrap();
    assert_eq!(text.lines().nth(1).unwrap().len(), 96, "{text}");
    let m = d.write_private("m", b"attack at dawn");
    let m2 = d.write_private("m2", b"x");
    // One message per key: two files are refused before anything is spent.
    assert_error(
        &run(&["tag", "hash127-96", "--key-file", &k, &m, &m2]),
        "one-time",
    );
    let key = fs::read_to_string(&k)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let o = run(&["tag", "hash127-96", "--key-file", &k, &m]);
    assert!(o.status.success(), "{}", stderr(&o));
    let line = stdout(&o);
    let tag = line.split_whitespace().next().unwrap();
    assert_eq!(tag.len(), 24);
    // The key file is now marked spent: a second tag is refused.
    assert_error(
        &run(&["tag", "hash127-96", "--key-file", &k, &m2]),
        "already tagged",
    );
    // compute gives the one-time value only as a known answer (--key, never
    // the key file); it equals the tag.
    assert_error(
        &run(&["compute", "mac-hash127-96", "--key", key.trim(), &m]),
        "one-time",
    );
    assert_error(
        &run(&["compute", "mac-hash127-96", "--known-answer", "--key-file", &k, &m]),
        "never a key file",
    );
    let o = run(&["compute", "mac-hash127-96", "--known-answer", "--key", key.trim(), &m]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), tag);
    let sums = d.write_private("sums", line.as_bytes());
    let o = run(&["verify", "hash127-96", "--key-file", &k, "-c", &sums]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{m}: OK\n"));
    // verify still checks: another message under the line fails.
    fs::write(&m, b"attack at dusk").unwrap();
    let o = run(&["verify", "hash127-96", "--key-file", &k, "-c", &sums]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{m}: FAILED\n"));
}
