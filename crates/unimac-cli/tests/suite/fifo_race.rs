//! A named pipe swapped in for a listed file never makes unimac wait for a
//! writer: `seal`, `tag` (on one thread and on the pool) and `verify` of a
//! check file all end, within a time limit, with the file's line or a
//! clear error naming it; a named pipe named on purpose is still read.
#![cfg(target_os = "linux")]

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common;
use common::{bin, run_bounded, stderr, TempDir as Dir};

/// How long a run may take before it counts as blocked (waiting for a
/// writer that never comes).
const LIMIT: Duration = Duration::from_secs(20);

fn mkfifo(p: &Path) {
    assert!(Command::new("mkfifo").arg(p).status().expect("run mkfifo").success(), "mkfifo");
}

/// Exchange the two names (atomically: each name always exists).
fn exchange(a: &Path, b: &Path) {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).expect("rename exchange");
}

/// Every run ends; a failed one names the file and says what it was.
fn check(o: &Output, args: &[&str]) {
    if o.status.success() {
        return;
    }
    let e = stderr(o);
    assert!(matches!(o.status.code(), Some(1)), "{args:?}: {:?} {e}", o.status.code());
    assert!(e.contains("d/zz"), "{args:?}: {e}");
    assert!(
        e.contains("named pipe") || e.contains("changed while reading"),
        "{args:?}: {e}"
    );
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn a_file_swapped_for_a_named_pipe_is_an_error_not_a_wait() {
    let d = Dir::unique("fifo-race");
    let dir = d.path().to_path_buf();
    fs::create_dir_all(dir.join("d")).unwrap();
    fs::create_dir_all(dir.join("spare")).unwrap();
    for i in 0..300 {
        fs::write(dir.join(format!("d/f{i:03}")), vec![i as u8; 4096]).unwrap();
    }
    fs::write(dir.join("d/zz"), b"the file that becomes a pipe").unwrap();
    mkfifo(&dir.join("spare/p"));
    assert!(bin().args(["keygen", "hash127-aes", "-o"]).arg(dir.join("k")).status().unwrap().success());
    // Tags of the regular file, for `verify` to check while it is swapped.
    let sums = run_bounded(&dir, LIMIT, &["tag", "-k", "k", "-r", "d"]);
    assert!(sums.status.success());
    fs::write(dir.join("SUMS"), &sums.stdout).unwrap();

    // The file and the pipe change places every few hundred microseconds,
    // for as long as the runs take.
    let stop = AtomicBool::new(false);
    let (a, b) = (dir.join("d/zz"), dir.join("spare/p"));
    let mut failed = 0;
    /// Stops the swapper however the runs end (a panic included).
    struct Stop<'a>(&'a AtomicBool);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    std::thread::scope(|s| {
        let swapper = s.spawn(|| {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                exchange(&a, &b);
                swaps += 1;
                std::thread::sleep(Duration::from_micros(300));
            }
            // The regular file back in its place.
            if swaps % 2 == 1 {
                exchange(&a, &b);
            }
        });
        let _stop = Stop(&stop);
        let start = Instant::now();
        let mut n = 0;
        while n < 40 || (start.elapsed() < Duration::from_secs(4) && n < 400) {
            let out = format!("m{n}");
            let runs: [&[&str]; 4] = [
                &["seal", "-k", "k", "-r", "d", "-o", &out],
                &["tag", "-k", "k", "-r", "d"],
                &["tag", "--threads", "1", "-k", "k", "-r", "d"],
                &["verify", "-k", "k", "--quiet", "SUMS"],
            ];
            let args = runs[n % 4];
            let o = run_bounded(&dir, LIMIT, args);
            check(&o, args);
            failed += usize::from(!o.status.success());
            n += 1;
        }
        drop(_stop);
        swapper.join().unwrap();
    });
    // Some runs met the pipe (it is there half the time).
    assert!(failed > 0);
    // Once the pipe stays where the file was, each is refused by name.
    exchange(&a, &b);
    for args in [&["seal", "-k", "k", "-r", "d", "-o", "mx"][..], &["seal", "-k", "k", "d/f000", "d/zz", "-o", "my"], &["verify", "-k", "k", "SUMS"]] {
        let o = run_bounded(&dir, LIMIT, args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains("d/zz") && stderr(&o).contains("named pipe"), "{args:?}: {}", stderr(&o));
    }
}

/// A named pipe named on purpose is read as before, blocking until its
/// writer comes: `tag PIPE` tags what the writer wrote.
#[test]
fn a_named_pipe_named_on_purpose_is_read() {
    use std::io::Write;
    let d = Dir::unique("fifo-named");
    let dir = d.path().to_path_buf();
    mkfifo(&dir.join("p"));
    fs::write(dir.join("m"), b"attack at dawn").unwrap();
    assert!(bin().args(["keygen", "hash127-aes", "-o"]).arg(dir.join("k")).status().unwrap().success());
    let want = run_bounded(&dir, LIMIT, &["tag", "-k", "k", "m"]);
    let want = String::from_utf8(want.stdout).unwrap();
    let want = want.split_whitespace().next().unwrap().to_string();
    for threads in ["1", "2"] {
        let child = bin()
            .args(["tag", "--threads", threads, "-k", "k", "p"])
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The writer comes later: the reader waits for it.
        std::thread::sleep(Duration::from_millis(200));
        let mut w = fs::OpenOptions::new().write(true).open(dir.join("p")).unwrap();
        w.write_all(b"attack at dawn").unwrap();
        drop(w);
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(String::from_utf8(o.stdout).unwrap(), format!("{want}  p\n"), "--threads {threads}");
    }
}
