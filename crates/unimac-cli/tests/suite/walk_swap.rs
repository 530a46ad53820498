//! A directory of the tree swapped for a symbolic link to an outside
//! directory, back and forth, while `seal -r`, `verify` of the sealed tree
//! and `tag -r` run: no name or content of the outside directory may reach
//! any output (stdout, stderr, the manifest), and a swap the command ran
//! into is reported, naming the directory. The walk is by handle
//! (`unimac_front::formats::walk`): each directory opened relative to its parent
//! without following links, and checked against what was listed.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::common;
use common::{assert_code, run_in, stderr, stdout, temp_dir};

/// Trials each test runs at least; past them it runs more, up to
/// `MAX_TRIALS`, until the command has met the swap once (whether a trial
/// meets it is up to the scheduler: on a loaded machine a hundred can all
/// run calm).
const TRIALS: usize = 100;
const MAX_TRIALS: usize = 2000;

/// `t/aaa/` with 300 files (walked and read before `sub`, so that the walk
/// and the reads are busy elsewhere while `sub` is swapped), `t/sub/` with
/// 20 and `t/` with a few; `elsewhere/` with files whose names and contents
/// are secret, some with the names `sub` has.
fn setup(tag: &str) -> PathBuf {
    let dir = temp_dir(tag);
    fs::create_dir_all(dir.join("t/sub")).unwrap();
    fs::create_dir_all(dir.join("t/aaa")).unwrap();
    fs::create_dir_all(dir.join("elsewhere")).unwrap();
    for i in 0..300 {
        fs::write(dir.join(format!("t/aaa/f{i:03}")), format!("early {i}\n")).unwrap();
    }
    for i in 0..5 {
        fs::write(dir.join(format!("t/top{i}")), format!("top {i}\n")).unwrap();
    }
    for i in 0..20 {
        fs::write(dir.join(format!("t/sub/f{i:02}")), format!("inside {i}\n")).unwrap();
        fs::write(dir.join(format!("elsewhere/f{i:02}")), format!("SECRET content {i}\n")).unwrap();
        fs::write(dir.join(format!("elsewhere/SECRET-{i:02}")), "SECRET\n").unwrap();
    }
    assert_code(&run_in(&dir, &["keygen", "hash127-aes", "-o", "k.key"]), 0);
    dir
}

/// Swaps `t/sub` for a link to `elsewhere` and back, as fast as it can, until
/// stopped; then puts the directory back. `start` returns once the first
/// swap is done, so that the command starts while the swapper runs.
struct Swapper {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Swapper {
    fn start(dir: &Path) -> Swapper {
        let stop = Arc::new(AtomicBool::new(false));
        let swaps = Arc::new(AtomicUsize::new(0));
        let (s, n, dir) = (stop.clone(), swaps.clone(), dir.to_path_buf());
        let thread = std::thread::spawn(move || {
            let (sub, held, outside) = (dir.join("t/sub"), dir.join("held"), dir.join("elsewhere"));
            while !s.load(Ordering::Relaxed) {
                fs::rename(&sub, &held).unwrap();
                std::os::unix::fs::symlink(&outside, &sub).unwrap();
                n.fetch_add(1, Ordering::Relaxed);
                std::thread::yield_now();
                fs::remove_file(&sub).unwrap();
                fs::rename(&held, &sub).unwrap();
                std::thread::yield_now();
            }
        });
        while swaps.load(Ordering::Relaxed) == 0 {
            std::thread::yield_now();
        }
        Swapper { stop, thread: Some(thread) }
    }
}

/// The trials to run: at least `TRIALS`, then on until `met()` or `MAX_TRIALS`.
fn more(i: usize, met: bool) -> bool {
    i < TRIALS || (!met && i < MAX_TRIALS)
}

impl Drop for Swapper {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}

/// No outside name or content in `text`.
#[track_caller]
fn clean(what: &str, text: &str) {
    assert!(!text.contains("SECRET") && !text.contains("elsewhere"), "{what}: {text}");
}

/// Whether `text` reports the swapped directory: a line naming `t/sub`
/// that is not an OK line (an error, REMOVED, UNEXPECTED, ADDED, FAILED).
fn reports_sub(text: &str) -> bool {
    text.lines().any(|l| l.contains("t/sub") && !l.ends_with(": OK"))
}

#[test]
fn seal_never_lists_a_swapped_directory() {
    let dir = setup("swap-seal");
    let seal = |out: &str| run_in(&dir, &["seal", "--key-file", "k.key", "-r", "t", "-o", out]);
    assert_code(&seal("calm"), 0);
    let calm = fs::read_to_string(dir.join("calm")).unwrap();
    let calm_lines: Vec<&str> = calm.lines().skip(2).filter(|l| !l.starts_with("seal ")).collect();
    let (mut hit, mut linked, mut absent) = (0, 0, 0);
    let mut i = 0;
    while more(i, hit + linked > 0) {
        i += 1;
        let out = format!("m{i}");
        let o = {
            let _s = Swapper::start(&dir);
            seal(&out)
        };
        let (so, se) = (stdout(&o), stderr(&o));
        clean("stdout", &so);
        clean("stderr", &se);
        match fs::read_to_string(dir.join(&out)) {
            Ok(m) => {
                assert_code(&o, 0);
                clean("manifest", &m);
                // Exactly the calm manifest's files, each with its own tag;
                // or, if `sub` was not there when the root was listed (the
                // swapper between its two renames), all but its files.
                let lines: Vec<&str> = m.lines().skip(2).filter(|l| !l.starts_with("seal ")).collect();
                let without: Vec<&str> = calm_lines.iter().copied().filter(|l| !l.contains(" sub/")).collect();
                assert!(lines == calm_lines || lines == without, "trial {i}: {m}");
                absent += usize::from(lines == without);
                fs::remove_file(dir.join(&out)).unwrap();
            }
            Err(_) => {
                assert_code(&o, 1);
                assert!(reports_sub(&se), "trial {i}: the swap is not reported: {se}");
                linked += usize::from(se.contains("symbolic link to a directory") || se.contains("a symbolic link leading outside the tree"));
                hit += usize::from(se.contains("not entered"));
            }
        }
    }
    eprintln!("seal -r, {i} trials: a swap caught after the listing {hit}, a link listed {linked}, sub absent when listed {absent}");
    assert!(hit + linked > 0, "the swap was never met in {i} trials");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn verify_never_enters_a_swapped_directory() {
    let dir = setup("swap-verify");
    assert_code(&run_in(&dir, &["seal", "--key-file", "k.key", "-r", "t", "-o", "m"]), 0);
    let verify = || run_in(&dir, &["verify", "--key-file", "k.key", "m"]);
    assert_code(&verify(), 0);
    let (mut hit, mut caught) = (0, 0);
    let mut i = 0;
    while more(i, hit > 0) {
        i += 1;
        let o = {
            let _s = Swapper::start(&dir);
            verify()
        };
        let (so, se) = (stdout(&o), stderr(&o));
        clean("stdout", &so);
        clean("stderr", &se);
        // An outside file read under an inside name would be CHANGED.
        // Nothing added but `sub` itself (a link listed that was gone when
        // it was stat-ed is a file, as a dangling link is).
        assert!(!so.contains("CHANGED"), "trial {i}: {so}");
        assert!(so.lines().filter(|l| l.contains("ADDED")).all(|l| l == "t/sub: ADDED"), "trial {i}: {so}");
        if o.status.code() != Some(0) {
            assert_code(&o, 1);
            assert!(reports_sub(&so) || reports_sub(&se), "trial {i}: the swap is not reported: {so}{se}");
            hit += 1;
            caught += usize::from(se.contains("not entered") || so.contains("not entered"));
        }
    }
    eprintln!("verify, {i} trials: the swap met and reported {hit}, of which caught after the listing {caught}");
    assert!(hit > 0, "the swap was never met in {i} trials");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn tag_r_never_tags_a_swapped_directory() {
    let dir = setup("swap-tag");
    let tag = || run_in(&dir, &["tag", "--key-file", "k.key", "-r", "t"]);
    let calm = tag();
    assert_code(&calm, 0);
    let calm = stdout(&calm);
    let calm_lines: std::collections::HashSet<&str> = calm.lines().collect();
    let (mut hit, mut skipped) = (0, 0);
    let mut i = 0;
    while more(i, hit + skipped > 0) {
        i += 1;
        let o = {
            let _s = Swapper::start(&dir);
            tag()
        };
        let (so, se) = (stdout(&o), stderr(&o));
        clean("stdout", &so);
        clean("stderr", &se);
        // Every line printed is a calm run's line: no outside content was
        // tagged under an inside name.
        let got: std::collections::HashSet<&str> = so.lines().collect();
        for l in &got {
            assert!(calm_lines.contains(l), "trial {i}: {l}");
        }
        // A file of `sub` not tagged: `sub` was not a directory when the
        // root was listed (gone, or a link, which `-r` does not follow),
        // and none of its files is tagged; or it was listed and then
        // swapped, and each file not tagged is an error naming `sub`.
        let missing: Vec<&str> = calm_lines.iter().copied().filter(|l| !got.contains(l)).collect();
        assert!(missing.iter().all(|l| l.contains("t/sub/")), "trial {i}: {missing:?}");
        let some_sub = got.iter().any(|l| l.contains("t/sub/"));
        if some_sub {
            // Listed, then swapped while its files were read: each file not
            // tagged is an error line naming it.
            for l in &missing {
                let f = l.split_once("  ").map_or(*l, |(_, n)| n);
                assert!(se.lines().any(|e| e.contains(f) && e.contains("t/sub:") && e.contains("not entered")), "trial {i}: {f} neither tagged nor reported: {se}");
            }
        } else if !se.is_empty() {
            // Swapped while the tree was walked or before its files were
            // read: an error naming it.
            assert!(reports_sub(&se), "trial {i}: {se}");
        } else {
            // A link or nothing when the root was listed: not followed.
            skipped += usize::from(!missing.is_empty());
        }
        hit += usize::from(se.contains("not entered"));
    }
    eprintln!("tag -r, {i} trials: a swap caught after the listing {hit}, sub a link or absent when listed {skipped}");
    assert!(hit + skipped > 0, "the swap was never met in {i} trials");
    let _ = fs::remove_dir_all(&dir);
}
