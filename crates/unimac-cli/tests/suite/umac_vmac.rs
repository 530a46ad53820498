//! UMAC and VMAC (docs/WIRE.md §8.6) through the CLI: key files of every accepted size,
//! nonces of 1 to 16 bytes, counter nonces (VMAC's kept below 2^127), the
//! Wycheproof files through check-vectors, and the bounds.

use std::fs;
use std::path::Path;
use std::process::Output;

use crate::common;
use common::{key_hex, run, stderr, TempDir};

fn stdout_ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A private key file for the MAC `mac` holding `hex`.
fn key_file(path: &str, mac: &str, hex: &str) {
    fs::write(path, format!("unimac-key {mac}\n{hex}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o600)).unwrap();
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn list_shows_the_names_with_their_sizes() {
    let out = stdout_ok(&run(&["list"]));
    for n in [
        "mac-umac32",
        "mac-umac64",
        "mac-umac96",
        "mac-umac128",
        "mac-vmac64",
        "mac-vmac128",
    ] {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(n))
            .unwrap_or_else(|| panic!("{n} listed"));
        assert!(line.contains("1..16"), "{line}");
        if n.contains("vmac") {
            assert!(line.contains("16/24/32"), "{line}");
        }
    }
}

#[test]
fn tag_and_verify_with_a_counter_for_every_name() {
    let d = TempDir::new("uv-counter");
    let (a, b) = (d.s("a.txt"), d.s("b.txt"));
    fs::write(&a, b"first file\n").unwrap();
    fs::write(&b, vec![7u8; 5000]).unwrap();
    for name in ["umac32", "umac64", "umac96", "umac128", "vmac64", "vmac128"] {
        let (key, ctr, sums) = (
            d.s(&format!("{name}.key")),
            d.s(&format!("{name}.ctr")),
            d.s(&format!("{name}.sums")),
        );
        stdout_ok(&run(&["keygen", name, "-o", &key, "--counter", &ctr]));
        assert_eq!(key_hex(&key).len(), 32, "{name}: a 16-byte key by default");
        let tags = stdout_ok(&run(&[
            "tag",
            "--allow-weak",
            name,
            "--key-file",
            &key,
            "--counter",
            &ctr,
            &a,
            &b,
        ]));
        let lines: Vec<&str> = tags.lines().collect();
        assert_eq!(lines.len(), 2);
        let nonces: Vec<&str> = lines.iter().map(|l| l.split(':').next().unwrap()).collect();
        if name.starts_with("vmac") {
            // Big-endian counters: the top bit of the nonce block stays clear.
            assert_eq!(nonces, ["0".repeat(32), format!("{}01", "0".repeat(30))]);
        } else {
            assert_eq!(nonces, ["0".repeat(32), format!("01{}", "0".repeat(30))]);
        }
        fs::write(&sums, &tags).unwrap();
        let v = stdout_ok(&run(&["verify", name, "--key-file", &key, "-c", &sums]));
        assert_eq!(v.matches(": OK").count(), 2, "{name}: {v}");
        // Every tag checks against the library.
        for (l, file) in lines.iter().zip([&a, &b]) {
            let (nonce, rest) = l.split_once(':').unwrap();
            let tag = rest.split_whitespace().next().unwrap();
            let keyhex = key_hex(&key);
            let out = stdout_ok(&run(&[
                "compute",
                &format!("mac-{name}"),
                "--key",
                &keyhex,
                "--nonce",
                nonce,
                "--caller-manages-nonces",
                file,
            ]));
            assert_eq!(out.trim(), tag, "{name}");
        }
        fs::write(&b, vec![8u8; 5000]).unwrap();
        let bad = run(&["verify", name, "--key-file", &key, "-c", &sums]);
        assert!(!bad.status.success());
        assert!(String::from_utf8_lossy(&bad.stdout).contains("FAILED"));
        fs::write(&b, vec![7u8; 5000]).unwrap();
    }
}

#[test]
fn short_nonces_and_vmac_key_sizes() {
    let d = TempDir::new("uv-nonce");
    let f = d.s("m");
    fs::write(&f, b"abc").unwrap();
    // Wycheproof vmac_64 tcId 2 (the draft's "abc" example), key in a file.
    let key = d.s("k16");
    key_file(&key, "vmac64", "6162636465666768696a6b6c6d6e6f70");
    // A key file is bound to its MAC: the same key for UMAC needs its own file.
    let ukey = d.s("u16");
    key_file(&ukey, "umac64", "6162636465666768696a6b6c6d6e6f70");
    let t = stdout_ok(&run(&[
        "tag",
        "--allow-weak",
        "vmac64",
        "--key-file",
        &key,
        "--nonce",
        "6263646566676869",
        "--caller-manages-nonces",
        &f,
    ]));
    assert!(t.starts_with("6263646566676869:2d376cf5b1813ce5  "), "{t}");
    let sums = d.s("sums");
    fs::write(&sums, &t).unwrap();
    assert!(
        stdout_ok(&run(&["verify", "vmac64", "--key-file", &key, "-c", &sums])).contains(": OK")
    );
    // RFC 4418: UMAC-64 of "abc", nonce "bcdefghi".
    let o = run(&[
        "tag",
        "--allow-weak",
        "--mac",
        "umac64",
        "--key-file",
        &key,
        "--nonce",
        "6263646566676869",
        "--caller-manages-nonces",
        &f,
    ]);
    assert!(!o.status.success());
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("vmac64 key, not a umac64 key"), "{}", stderr(&o));
    let t = stdout_ok(&run(&[
        "tag",
        "--allow-weak",
        "umac64",
        "--key-file",
        &ukey,
        "--nonce",
        "6263646566676869",
        "--caller-manages-nonces",
        &f,
    ]));
    assert!(t.starts_with("6263646566676869:d4d7b9f6bd4fbfcf  "), "{t}");
    // 24- and 32-byte keys for VMAC; not for UMAC.
    for (len, ok) in [(24, true), (32, true), (20, false)] {
        let k = d.s(&format!("k{len}"));
        key_file(&k, "vmac128", &"ab".repeat(len));
        let o = run(&[
            "tag",
            "--allow-weak",
            "vmac128",
            "--key-file",
            &k,
            "--nonce",
            "01",
            "--caller-manages-nonces",
            &f,
        ]);
        assert_eq!(
            o.status.success(),
            ok,
            "vmac128 with a {len}-byte key: {}",
            stderr(&o)
        );
        let ku = d.s(&format!("u{len}"));
        key_file(&ku, "umac32", &"ab".repeat(len));
        let o = run(&[
            "tag",
            "--allow-weak",
            "umac32",
            "--key-file",
            &ku,
            "--nonce",
            "01",
            "--caller-manages-nonces",
            &f,
        ]);
        assert!(!o.status.success());
        assert!(o.stdout.is_empty());
        assert!(stderr(&o).contains(&format!("holds a {len}-byte key")), "{}", stderr(&o));
    }
    // Nonce sizes: 1..16 bytes; 0 and 17 refused.
    for (n, ok) in [
        ("01", true),
        (&"00".repeat(16)[..], true),
        ("", false),
        (&"00".repeat(17)[..], false),
    ] {
        let k96 = d.s("u96");
        key_file(&k96, "umac96", "6162636465666768696a6b6c6d6e6f70");
        let o = run(&[
            "tag",
            "--allow-weak",
            "umac96",
            "--key-file",
            &k96,
            "--nonce",
            n,
            "--caller-manages-nonces",
            &f,
        ]);
        assert_eq!(o.status.success(), ok, "nonce {n:?}: {}", stderr(&o));
        if !ok {
            assert!(stderr(&o).contains("nonce must be 1 to 16 bytes"), "{}", stderr(&o));
        }
    }
    // Without the caller's word that it never repeats, --nonce is refused.
    let o = run(&["tag", "--allow-weak", "vmac64", "--key-file", &key, "--nonce", "01", &f]);
    assert!(!o.status.success() && o.stdout.is_empty());
    assert!(stderr(&o).contains("--caller-manages-nonces"), "{}", stderr(&o));
    // VMAC: a 16-byte nonce with its top bit set is refused, with the reason.
    let o = run(&[
        "tag",
        "--allow-weak",
        "vmac64",
        "--key-file",
        &key,
        "--nonce",
        &format!("80{}", "00".repeat(15)),
        "--caller-manages-nonces",
        &f,
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("top bit"), "{}", stderr(&o));
}

#[test]
fn vmac_counter_at_the_top_bit_is_refused() {
    let d = TempDir::new("uv-top");
    let (key, ctr, f) = (d.s("k"), d.s("c"), d.s("m"));
    stdout_ok(&run(&["keygen", "vmac64", "-o", &key, "--counter", &ctr]));
    fs::write(&f, b"x").unwrap();
    // The counter keeps its binding line (made by keygen); only its value
    // is moved to the last one VMAC accepts.
    let text = fs::read_to_string(&ctr).unwrap();
    let (head, zero) = text.split_once('\n').unwrap();
    assert!(head.starts_with("unimac-counter vmac64 ") && zero == "0\n", "{text}");
    fs::write(&ctr, format!("{head}\n{}\n", (1u128 << 127) - 1)).unwrap();
    let ok = stdout_ok(&run(&[
        "tag",
        "--allow-weak",
        "vmac64",
        "--key-file",
        &key,
        "--counter",
        &ctr,
        &f,
    ]));
    assert!(ok.starts_with(&format!("7f{}:", "ff".repeat(15))), "{ok}");
    let o = run(&[
        "tag",
        "--allow-weak",
        "vmac64",
        "--key-file",
        &key,
        "--counter",
        &ctr,
        &f,
    ]);
    assert!(!o.status.success());
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("top bit"), "{}", stderr(&o));
    // The counter never goes back below the refused value.
    let text = fs::read_to_string(&ctr).unwrap();
    let (h, v) = text.split_once('\n').unwrap();
    assert_eq!(h, head);
    assert!(v.trim_end().parse::<u128>().unwrap() >= 1u128 << 127, "{text}");
}

#[test]
fn check_vectors_reads_wycheproof_and_jsonl() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    for (f, n) in [("wycheproof/vmac_64_test.json", 764), ("wycheproof/vmac_128_test.json", 764), ("umac.jsonl", 92)] {
        let out = stdout_ok(&run(&["check-vectors", s(&root.join(f))]));
        assert_eq!(
            out.lines().last().unwrap(),
            format!("{n} passed, 0 failed"),
            "{f}"
        );
    }
    // A wrong tag in a valid Wycheproof test is reported against its tcId.
    let text = fs::read_to_string(root.join("wycheproof/vmac_64_test.json")).unwrap();
    let broken = text.replacen(
        "\"tag\" : \"2576be1c56d8b81b\"",
        "\"tag\" : \"2576be1c56d8b81c\"",
        1,
    );
    let broken = if broken == text {
        text.replacen("2576be1c56d8b81b", "2576be1c56d8b81c", 1)
    } else {
        broken
    };
    let d = TempDir::new("uv-wp");
    let p = d.s("broken.json");
    fs::write(&p, broken).unwrap();
    let o = run(&["check-vectors", &p]);
    assert!(!o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(":1: mac-vmac64 FAILED"), "{out}");
    assert_eq!(out.lines().last().unwrap(), "763 passed, 1 failed");
    // The bundled set includes them.
    let out = stdout_ok(&run(&["check-vectors"]));
    let last = out.lines().last().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}

#[test]
fn bounds_of_the_specifications() {
    for (name, want) in [
        ("umac32", "2^-30.00"),
        ("umac64", "2^-60.00"),
        ("umac96", "2^-90.00"),
        ("umac128", "2^-120.00"),
        ("vmac64", "2^-60.00"),
        ("vmac128", "2^-120.00"),
    ] {
        let out = stdout_ok(&run(&["bound", name, "--max-bytes", "1000000"]));
        let alone = out.lines().find(|l| l.contains("formula alone")).unwrap();
        assert!(alone.contains(want), "{name}: {out}");
    }
    let j = stdout_ok(&run(&[
        "bound",
        "umac64",
        "--max-bytes",
        "1024",
        "--forgeries",
        "1024",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&j).unwrap();
    assert!((v["theorem_log2"].as_f64().unwrap() + 50.0).abs() < 1e-9);
}
