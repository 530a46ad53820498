//! Files rewritten in place while `unimac tag` reads them. The kernel sets
//! a file's mtime and ctime when a `write(2)` starts, so a read that began
//! under a long write can see the same stamps before and after and still
//! be torn (part old, part new content). Under the library's rule
//! (`unimac_front::formats::race`) such a read is racy, read twice and compared:
//! every tag printed is the tag of a version the file held, and a read
//! that saw a mix says "changed while reading".

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::process::Output;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common;
use common::{run_input as run, text, TempDir};

/// The tag `unimac tag` printed (the first field of its one line).
fn tag_of(o: &Output) -> String {
    assert!(o.status.success(), "failed: {}", text(&o.stderr));
    text(&o.stdout).split_whitespace().next().expect("a tag").to_string()
}

/// The tag of `data` read from stdin (a pipe: not subject to the rule).
fn stdin_tag(key: &str, data: &[u8]) -> String {
    tag_of(&run(&["tag", "--key-file", key, "hash127-aes", "-"], Some(data)))
}

fn keygen(d: &TempDir) -> String {
    let k = d.s("k");
    let o = run(&["keygen", "hash127-aes", "-o", &k], None);
    assert!(o.status.success(), "keygen: {}", text(&o.stderr));
    k
}

/// A writer thread rewrites a 24 MiB file in place (no truncation: one
/// `write_all` from offset 0 per version, each version one repeated byte),
/// pausing 0 to 150 ms between versions, while `unimac tag` (one thread, and
/// the striped reader on every core) tags it again and again. Every tag
/// printed (exit 0) is the tag of one of the versions; the other runs say
/// "changed while reading".
#[test]
fn a_file_rewritten_while_read_is_never_tagged_torn() {
    const SIZE: usize = 24 << 20;
    const VERSIONS: u8 = 4;
    let d = TempDir::new("torn");
    let k = keygen(&d);
    let versions: Vec<Vec<u8>> = (0..VERSIONS).map(|v| vec![0x11 * (v + 1); SIZE]).collect();
    let want: Vec<String> = versions.iter().map(|v| stdin_tag(&k, v)).collect();
    let f = d.s("f");
    fs::write(&f, &versions[0]).expect("write");

    let stop = Arc::new(AtomicBool::new(false));
    let writes = Arc::new(AtomicU64::new(0));
    let writer = {
        let (stop, writes, f) = (stop.clone(), writes.clone(), f.clone());
        std::thread::spawn(move || {
            let mut i = 0usize;
            while !stop.load(Ordering::Relaxed) {
                i += 1;
                let mut o = fs::OpenOptions::new().write(true).open(&f).expect("open for writing");
                o.seek(SeekFrom::Start(0)).expect("seek");
                o.write_all(&versions[i % versions.len()]).expect("rewrite");
                drop(o);
                writes.fetch_add(1, Ordering::Relaxed);
                // Pauses of 0 to 150 ms: reads start under a write, between
                // writes, and both.
                std::thread::sleep(Duration::from_millis((i % 4) as u64 * 50));
            }
        })
    };

    let t0 = Instant::now();
    let (mut runs, mut tagged, mut refused) = (0, 0, 0);
    while runs < 40 && t0.elapsed() < Duration::from_secs(60) {
        let threads = if runs % 2 == 0 { "1" } else { "0" };
        let o = run(&["tag", "--threads", threads, "--key-file", &k, "hash127-aes", &f], None);
        runs += 1;
        if o.status.success() {
            let got = tag_of(&o);
            assert!(
                want.contains(&got),
                "run {runs} (--threads {threads}) printed {got}, the tag of no version the file held"
            );
            tagged += 1;
        } else {
            let e = text(&o.stderr);
            assert!(e.contains("changed while reading"), "run {runs}: {e}");
            refused += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    writer.join().expect("writer");
    eprintln!(
        "{runs} runs: {tagged} tagged a version, {refused} changed while reading; {} versions written",
        writes.load(Ordering::Relaxed)
    );
    assert!(runs > 0 && tagged + refused == runs);
    assert!(writes.load(Ordering::Relaxed) > 0);
}

/// Files written just before they are tagged (racy: read twice, the same
/// both times) are tagged, small and big (one thread and the stripes), as
/// their bytes on stdin are.
#[test]
fn a_file_written_just_before_is_tagged() {
    let d = TempDir::new("racy-stable");
    let k = keygen(&d);
    for (i, len) in [0usize, 1, 100, (1 << 20) + 3, 16 << 20].into_iter().enumerate() {
        let data = common::bytes(len, 9 + i as u64);
        let want = stdin_tag(&k, &data);
        for threads in ["1", "0"] {
            let f = d.s(&format!("f{len}-{threads}"));
            fs::write(&f, &data).expect("write");
            let o = run(&["tag", "--threads", threads, "--key-file", &k, "hash127-aes", &f], None);
            assert!(o.stderr.is_empty(), "{len} {threads}: {}", text(&o.stderr));
            assert_eq!(tag_of(&o), want, "{len} --threads {threads}");
        }
        // And several files at once (the listing's stat as the stamp).
        let (a, b) = (d.s(&format!("a{len}")), d.s(&format!("b{len}")));
        fs::write(&a, &data).expect("write");
        fs::write(&b, &data).expect("write");
        let o = run(&["tag", "--key-file", &k, "hash127-aes", &a, &b], None);
        assert!(o.status.success() && o.stderr.is_empty(), "{len}: {}", text(&o.stderr));
        let lines: Vec<String> =
            text(&o.stdout).lines().map(|l| l.split_whitespace().next().unwrap_or("").to_string()).collect();
        assert_eq!(lines, [want.clone(), want], "{len}");
    }
}
