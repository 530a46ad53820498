//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`) through the
//! same checks the fuzz targets run (`fuzz/checks.rs`, one copy for both), so
//! every input the fuzzers kept is re-checked by `cargo test`, on the
//! detected backends and under `UNIMAC_FORCE_PORTABLE=1`.

#[path = "../../../../fuzz/checks.rs"]
mod checks;

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: empty corpus", dir.display());
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let r = std::panic::catch_unwind(|| check(&data));
        assert!(r.is_ok(), "{target}: corpus input {} fails its check", f.display());
    }
}

#[test]
fn differential_corpus() {
    replay("differential", checks::differential);
}

#[test]
fn backend_corpus() {
    replay("backend", checks::backend);
}

#[test]
fn kernels_corpus() {
    replay("kernels", checks::kernels);
}

#[test]
fn vectors_corpus() {
    replay("vectors", checks::vectors);
}

#[test]
fn stream_corpus() {
    replay("stream", checks::stream);
}

#[test]
fn every_target_is_replayed() {
    let names: Vec<&str> = checks::TARGETS.iter().map(|t| t.0).collect();
    assert_eq!(names, ["differential", "backend", "kernels", "vectors", "stream"]);
}
