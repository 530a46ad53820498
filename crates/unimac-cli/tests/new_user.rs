//! A new user's first steps, each with its exact message and exit status:
//! `advise` giving one answer on a busy machine, streams refusing to
//! write binary to a terminal (tested on a real pseudo-terminal), manifests
//! that travel (a pipe, `-o`, `--root`, a missing root), the defaults of
//! `keygen` and `bound`, `-r` as one flag everywhere, and the `--hold`
//! message.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::{bin, run, run_in};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Exit status, stderr and stdout of `o`, as text.
fn parts(o: &Output) -> (Option<i32>, String, String) {
    (o.status.code(), text(&o.stderr), text(&o.stdout))
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("unimac-new-user-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

// ---------------------------------------------------------------- advise

/// `advise` ten times while every core is kept busy (spinning threads of
/// this test, on top of whatever else runs): the advice names the same MAC
/// every time. A fact about the answer, never about a speed.
#[test]
fn advise_gives_one_answer_on_a_busy_machine() {
    let stop = Arc::new(AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let spinners: Vec<_> = (0..cores)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let outs: Vec<String> = (0..10).map(|_| text(&run(&["advise"]).stdout)).collect();
    stop.store(true, Ordering::Relaxed);
    for s in spinners {
        s.join().unwrap();
    }
    let name = |out: &str| {
        let line = out.lines().find(|l| l.starts_with("Use ")).unwrap_or_else(|| panic!("no advice in:\n{out}"));
        line["Use ".len()..].split(':').next().unwrap().to_string()
    };
    let names: Vec<String> = outs.iter().map(|o| name(o)).collect();
    assert!(names.iter().all(|n| *n == names[0]), "the advice changed between runs: {names:?}");
    for out in &outs {
        let rule = out.lines().find(|l| l.starts_with("Rule: ")).unwrap_or_else(|| panic!("no rule in:\n{out}"));
        assert!(rule.starts_with("Rule: hash127-aes (stateless: no counter file to keep) unless a MAC whose proven bound meets the use is at least 2x as fast for it"), "{rule}");
        assert!(out.contains("# the machine's noise now: "), "{out}");
        assert!(out.contains("spread"), "{out}");
    }
}
