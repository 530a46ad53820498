//! `unimac-bench`: the table, `--json`, `--plot` and `--paper`, run quickly
//! (`UNIMAC_BENCH_QUICK=1`: a few milliseconds per cell), and its errors.

use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_unimac-bench"))
}

/// `unimac-bench ARGS` with stdin closed.
fn run(args: &[&str]) -> Output {
    bin().args(args).stdin(Stdio::null()).output().expect("run unimac-bench")
}

fn bench(args: &[&str]) -> String {
    let out = bin()
        .args(args)
        .env("UNIMAC_BENCH_QUICK", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run unimac-bench");
    assert!(
        out.status.success(),
        "unimac-bench {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

const PEERS: [&str; 5] = [
    "blake3-keyed",
    "aes-cmac",
    "hmac-sha256",
    "polyval",
    "poly1305",
];
const SIZES: [u64; 6] = [16, 64, 256, 1024, 16 << 10, 1 << 20];

#[test]
fn json_has_every_key_size_and_peer() {
    let text = bench(&["--json"]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    assert!(v["cpu"].as_str().is_some_and(|s| !s.is_empty()));
    let features = v["features"].as_array().expect("features");
    assert!(features.iter().all(|f| f.is_string()));
    let results = v["results"].as_array().expect("results");
    for r in results {
        for k in [
            "cycles_per_message",
            "bytes_per_cycle",
            "ns_per_message",
            "cycles_per_byte",
        ] {
            let x = r[k].as_f64().unwrap_or_else(|| panic!("{k} in {r}"));
            assert!(x.is_finite() && x > 0.0, "{k} = {x} in {r}");
        }
        assert!(SIZES.contains(&r["bytes"].as_u64().expect("bytes")));
        assert!(r["name"].is_string());
    }
    let names: Vec<&str> = results
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    for want in PEERS
        .iter()
        .chain(&["hash127", "mac-hash127-aes", "mac-umac64", "mac-wc-eval64"])
    {
        for s in SIZES {
            assert!(
                results
                    .iter()
                    .any(|r| r["name"] == *want && r["bytes"].as_u64() == Some(s)),
                "{want} at {s} bytes missing"
            );
        }
        assert!(names.contains(want));
    }
}

#[test]
fn plot_writes_an_svg_with_every_series() {
    let dir = std::env::temp_dir().join(format!("unimac-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.svg");
    bench(&["--plot", path.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&path).expect("the SVG file");
    std::fs::remove_dir_all(&dir).unwrap();
    let start = svg.trim_start();
    assert!(start.starts_with("<svg") || start.starts_with("<?xml"));
    assert!(svg.trim_end().ends_with("</svg>"));
    for name in PEERS.iter().chain(&[
        "hash127",
        "tree-mmh32x1",
        "mac-hash127-aes",
        "eval64",
        "modp",
    ]) {
        assert!(svg.contains(name), "{name} not in the plot");
    }
}

#[test]
fn paper_prints_every_table() {
    let text = bench(&["--paper"]);
    for heading in [
        "## hash127: Bernstein",
        "## Shoup, \"On fast and provably secure",
        "## MMH: Halevi and Krawczyk",
        "Table 1",
        "## Square Hash: Etzel, Patel and Ramzan, \"Square Hash: fast message authentication via optimized universal hash functions\", Table 1",
        "## Square Hash: Etzel, Patel and Ramzan, \"Square Hash: fast message authentication via optimized universal hash functions\", Table 2",
        "CPU now:",
    ] {
        assert!(text.contains(heading), "{heading} missing");
    }
    // Every paper row is measured: no empty cells.
    assert!(!text.contains("| |"));
    for fig in ["9275", "25200", "1080", "2061", "816"] {
        assert!(text.contains(fig), "paper figure {fig} missing");
    }
}

#[test]
fn table_names_the_new_peers() {
    let text = bench(&["hash127"]);
    for p in PEERS {
        assert!(text.contains(p), "{p} not in the table");
    }
    assert!(text.contains("16 B") && text.contains("256 B"));
}

/// Every name, one-block functions and 32-bit MACs included, runs without a
/// panic; an unknown name is one line on stderr and exit status 2, with
/// nothing on stdout.
#[test]
fn never_panics_and_refuses_unknown_names() {
    for args in [
        &["mmh32x1", "--millis", "1"][..],
        &["sqh32-asm", "--millis", "1"],
        &["hash127-aes", "--millis", "1"],
        &["--all", "--millis", "1"],
    ] {
        let o = run(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(o.status.success() || err.lines().count() == 1, "{args:?}: {err}");
    }
    let o = run(&["mmh32x1", "--millis", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["no-such-name"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(o.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("unimac-bench: ") && err.contains("unknown name"), "{err}");
}
