//! What command-line users trip on: sizes written as people write them
//! (one rule with the library and Python), `advise` showing the length it
//! ranks by, a counter for an existing key, `tag -c`, a `list` that fits
//! 100 columns, and one manual page that says what it should.

use std::fs;

mod common;
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
    // The ranking column is sorted: fastest first.
    let col = head.find("GiB/s (4KiB est.)").unwrap() + "GiB/s (4KiB est.)".len();
    let speeds: Vec<f64> = out
        .lines()
        .skip_while(|l| !l.starts_with("NAME"))
        .skip(1)
        .map(|l| l[..col].split_whitespace().last().unwrap().parse().unwrap())
        .collect();
    assert!(speeds.len() > 5 && speeds.windows(2).all(|w| w[0] >= w[1]), "{speeds:?}");
    let out = ok(&run(&["advise", "--max-bytes", "64", "--tags", "2^20"]));
    assert!(!out.contains("est.)"), "{out}");
}