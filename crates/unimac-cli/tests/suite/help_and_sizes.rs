//! What command-line users trip on: sizes written as people write them
//! (one rule with the library and Python), `advise` showing the length it
//! ranks by, a counter for an existing key, `tag -c`, a `list` that fits
//! 100 columns, and one manual page that says what it should.

use std::fs;

use crate::common;
use common::{assert_code, assert_error, ok, run, stderr, stdout, TempDir as Dir};

fn bound_json(max: &str) -> serde_json::Value {
    serde_json::from_str(ok(&run(&["bound", "hash127-aes", "--max-bytes", max, "--json"])).trim()).unwrap()
}

/// Fractions with units, PiB and EiB; 2^64 and more refused by name.
#[test]
fn sizes_with_fractions_and_large_units() {
    assert_eq!(bound_json("1.5MiB"), bound_json("1572864"));
    assert_eq!(bound_json("0.5KiB"), bound_json("512"));
    assert_eq!(bound_json("1PiB"), bound_json("2^50"));
    assert_eq!(bound_json("2PB"), bound_json("2e15"));
    ok(&run(&["bound", "wc-mmh32x4", "--max-bytes", "1MiB", "--tags", "15EiB"]));
    let e = run(&["bound", "hash127-aes", "--max-bytes", "16EiB"]);
    assert_error(&e, "'16EiB' is more than 2^64 - 1 bytes");
    assert_code(&e, 2);
    assert_error(&run(&["bound", "hash127-aes", "--max-bytes", "1.3KiB"]), "'1.3KiB' is not a whole number of bytes");
    assert_error(&run(&["advise", "--max-bytes", "1.5"]), "'1.5' is not a whole number");
}

/// `advise --max-bytes 4KiB` shows the 4 KiB column it ranks by; at 64 B
/// and 1 MiB, the measured columns are the ranking's.
#[test]
fn advise_shows_the_length_it_ranks_by() {
    let out = ok(&run(&["advise", "--max-bytes", "4KiB", "--tags", "2^20"]));
    let head = out.lines().find(|l| l.starts_with("NAME")).unwrap_or_else(|| panic!("{out}"));
    assert!(head.contains("GiB/s (4KiB est.)"), "{head}");
    let use_line = out.lines().find(|l| l.starts_with("Use ")).unwrap();
    assert!(use_line.contains("GiB/s on 4KiB (estimated)"), "{use_line}");
    // The ranking column is sorted, fastest first, up to the noise: a
    // MAC is moved ahead of its neighbour only when faster beyond the
    // larger spread (at least the machine's), so none is faster than the
    // one just above it by more than the largest spread of the run.
    let col = head.find("GiB/s (4KiB est.)").unwrap() + "GiB/s (4KiB est.)".len();
    let rows: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("NAME")).skip(1).collect();
    let speeds: Vec<f64> = rows.iter().map(|l| l[..col].split_whitespace().last().unwrap().parse().unwrap()).collect();
    let noise = rows
        .iter()
        .flat_map(|l| l.split_whitespace().filter_map(|w| w.strip_suffix('%')).map(|p| p.parse::<f64>().unwrap() / 100.0))
        .fold(0.05f64, f64::max);
    assert!(speeds.len() > 5, "{out}");
    for w in speeds.windows(2) {
        assert!(w[1] <= w[0] * (1.0 + noise) * 1.01, "{} ranked below {} (noise {noise}): {speeds:?}", w[1], w[0]);
    }
    let out = ok(&run(&["advise", "--max-bytes", "64", "--tags", "2^20"]));
    assert!(!out.contains("est.)"), "{out}");
}

/// `keygen --key-file K --counter C`: a counter for an existing nonce-MAC
/// key, which `tag --counter` then uses; refused for a MAC without a nonce,
/// an existing file, and a NAME the key is not of.
#[test]
fn counter_for_an_existing_key() {
    let d = Dir::unique("habits-test");
    let k = d.s("k");
    ok(&run(&["keygen", "wc-mmh32x4", "-o", &k]));
    let c = d.s("c");
    ok(&run(&["keygen", "--key-file", &k, "--counter", &c]));
    let text = fs::read_to_string(&c).unwrap();
    assert!(text.starts_with("unimac-counter wc-mmh32x4 ") && text.ends_with("\n0\n"), "{text:?}");
    let f = d.write("f", b"message");
    let line = ok(&run(&["tag", "wc-mmh32x4", "--key-file", &k, "--counter", &c, &f]));
    assert!(line.contains(':') && line.trim_end().ends_with(&*f), "{line}");
    assert!(fs::read_to_string(&c).unwrap().ends_with("\n1\n"));
    let tags = d.write("tags", line.as_bytes());
    ok(&run(&["verify", "--key-file", &k, &tags]));
    // The same key from another counter file made with the key: the same
    // binding line.
    let k2 = d.s("k2");
    let c2 = d.s("c2");
    ok(&run(&["keygen", "wc-mmh32x4", "-o", &k2, "--counter", &c2]));
    let c3 = d.s("c3");
    ok(&run(&["keygen", "wc-mmh32x4", "-k", &k2, "--counter", &c3]));
    assert_eq!(fs::read_to_string(&c2).unwrap(), fs::read_to_string(&c3).unwrap());
    // Refusals, and nothing created.
    let e = run(&["keygen", "--key-file", &k, "--counter", &c]);
    assert_error(&e, "already exists; not overwriting it");
    assert_code(&e, 2);
    assert!(fs::read_to_string(&c).unwrap().ends_with("\n1\n"));
    let ka = d.s("ka");
    ok(&run(&["keygen", "hash127-aes", "-o", &ka]));
    let e = run(&["keygen", "--key-file", &ka, "--counter", &d.s("ca")]);
    assert_error(&e, "hash127-aes, which takes no nonce");
    assert!(!d.p("ca").exists());
    assert!(!stderr(&run(&["keygen", "hash127-aes", "--key-file", &k, "--counter", &d.s("cb")])).is_empty());
    assert!(!d.p("cb").exists());
    assert_error(&run(&["keygen", "--key-file", &k]), "--counter");
    assert_error(&run(&["keygen", "--key-file", &k, "--counter", &d.s("cc"), "-o", &d.s("x")]), "cannot be used with");
    let help = ok(&run(&["keygen", "--help"]));
    assert!(help.contains("--key-file") && help.contains("unimac keygen --key-file K --counter C"), "{help}");
}

/// sha256sum's `-c` given to `tag`: the message names `verify`, exit 2.
#[test]
fn tag_dash_c_points_to_verify() {
    let verify_help = ok(&run(&["verify", "--help"]));
    let key = if verify_help.contains("-k, --key-file") { "-k KEY" } else { "--key-file KEY" };
    let want = format!("unimac: tag has no -c: to check a file of tags, use 'unimac verify {key} FILE'\n");
    for args in [
        vec!["tag", "-c", "SUMS"],
        vec!["tag", "hash127-aes", "--key-file", "K", "-c", "SUMS"],
        vec!["tag", "--check", "SUMS"],
        vec!["tag", "--check=SUMS"],
        vec!["--threads", "2", "tag", "-c", "SUMS"],
    ] {
        let o = run(&args);
        assert_code(&o, 2);
        assert_eq!(stderr(&o), want, "{args:?}");
        assert!(stdout(&o).is_empty());
    }
    // After `--`, -c is a file name.
    assert!(!stderr(&run(&["tag", "hash127-aes", "--key-file", "/nonexistent/K", "--", "-c"])).contains("tag has no -c"));
}

/// `list` fits 100 columns, without a citation on every row; `list
/// --long` has the citations.
#[test]
fn list_fits_100_columns() {
    let list = ok(&run(&["list"]));
    for l in list.lines() {
        assert!(l.chars().count() <= 100, "{} columns: {l}", l.chars().count());
    }
    assert!(!list.contains("Floating-point arithmetic"), "{list}");
    assert!(list.contains("'unimac list --long'"));
    for n in ["hash127-aes ", "wc-mmh32x4 ", "umac128 ", "eval128 "] {
        assert!(list.lines().any(|l| l.starts_with(n)), "{n}");
    }
    let long = ok(&run(&["list", "--long"]));
    assert!(long.contains("Bernstein, “Floating-point arithmetic and message authentication”"));
    assert!(long.lines().any(|l| l.chars().count() > 100));
    assert_eq!(list.lines().filter(|l| !l.starts_with('#')).count(), long.lines().filter(|l| !l.starts_with('#')).count());
}

/// `--help` lists manpage and completions; the manual page has EXIT
/// STATUS, ENVIRONMENT and EXAMPLES, refers to no unimac-COMMAND(1) page,
/// and its DESCRIPTION is not its NAME line again.
#[test]
fn help_and_manual_page() {
    let help = ok(&run(&["--help"]));
    for c in ["manpage", "completions", "list", "advise"] {
        assert!(help.lines().any(|l| l.trim_start().starts_with(c)), "{c}: {help}");
    }
    let man = ok(&run(&["manpage"]));
    for s in [".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".SH EXAMPLES", ".SH DESCRIPTION", ".SH NAME", ".SH \"UNIMAC LIST\""] {
        assert!(man.contains(s), "{s}");
    }
    assert!(man.contains("UNIMAC_FORCE_PORTABLE") && man.contains("UNIMAC_DISABLE"));
    assert!(!man.contains("unimac\\-list(1)") && !man.contains("(1)\n"), "a reference to a page that does not exist");
    for l in man.lines() {
        if let Some(i) = l.find("unimac\\-") {
            assert!(!l[i..].contains("(1)"), "{l}");
        }
    }
    let section = |name: &str| -> String {
        let start = man.find(&format!(".SH {name}\n")).unwrap() + name.len() + 5;
        man[start..].split("\n.SH").next().unwrap().to_string()
    };
    let name_line = section("NAME");
    let about = name_line.trim().split_once("\\- ").unwrap().1.to_string();
    assert!(!section("DESCRIPTION").contains(&about), "DESCRIPTION repeats NAME");
    assert!(section("DESCRIPTION").contains("\\fBunimac verify\\fR"));
}

/// `--threads` is an option of the commands that hash, and only of them:
/// in `tag --help` (and its section of the manual page), not in `list
/// --help`, `keygen --help` or the manual page's global options; `list
/// --threads 2` is an argument error (exit 2, one line); before a command
/// that hashes it is still taken.
#[test]
fn threads_only_where_data_is_hashed() {
    for c in ["tag", "verify", "seal", "stream", "compute", "check-vectors", "check-identity"] {
        assert!(ok(&run(&[c, "--help"])).contains("--threads <N>"), "{c} --help");
    }
    for c in ["list", "keygen", "bound", "advise", "manpage", "completions"] {
        assert!(!ok(&run(&[c, "--help"])).contains("--threads"), "{c} --help");
    }
    assert!(!ok(&run(&["--help"])).contains("--threads"));
    for args in [&["list", "--threads", "2"][..], &["--threads", "2", "list"], &["keygen", "--threads", "2", "hash127-aes"]] {
        let o = run(args);
        assert_code(&o, 2);
        assert_error(&o, "unexpected argument '--threads'");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
    let man = ok(&run(&["manpage"]));
    let options = man.split(".SH OPTIONS").nth(1).and_then(|s| s.split("\n.SH ").next()).unwrap_or("");
    assert!(options.contains("help"), "{options}");
    assert!(!options.contains("threads"), "global options: {options}");
    let tag_section = man.split(".SH \"UNIMAC TAG\"").nth(1).expect("tag section");
    let tag_section = tag_section.split("\n.SH ").next().unwrap_or("");
    assert!(tag_section.contains("\\fB--threads\\fR"), "{tag_section}");
    // Before or after the command, the same.
    let d = Dir::unique("threads-place");
    let m = d.s("m");
    fs::write(&m, b"attack at dawn").unwrap();
    let a = run(&["--threads", "1", "compute", "eval64", "--key", "0001020304050607", &m]);
    let b = run(&["compute", "eval64", "--threads", "1", "--key", "0001020304050607", &m]);
    assert_code(&a, 0);
    assert_eq!((a.status.code(), &a.stdout, &a.stderr), (b.status.code(), &b.stdout, &b.stderr));
}
