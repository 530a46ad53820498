//! State files safe at every point of a crash. Each command that writes a
//! key, a counter, a manifest or a file of seen stream ids is killed at
//! each of its system calls in turn (strace's fault injection: `-e
//! inject=NAME:signal=KILL:when=K` kills the process as it enters the K-th
//! call of NAME, which a first traced run says is the N-th system call of
//! the command), and after each kill:
//!
//! - the directory holds only the files it should (no temporary file, so no
//!   copy of a key), each with one link;
//! - a file that is there is whole (a key that tags, a counter that counts,
//!   a manifest that verifies, ids one a line);
//! - the next run works, or refuses only because the whole file is there;
//! - no nonce is handed out twice (every nonce printed by `tag --counter`,
//!   killed or not, is collected: all distinct), and no stream is released
//!   twice under `--seen`.
//!
//! Without a usable strace (missing, or ptrace refused) these say SKIPPED
//! and why. The file-size limit (`ulimit -f`), torn records of the file of
//! seen ids, links, and concurrent receivers are tested without it.
#![cfg(target_os = "linux")]

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common;
use common::{bin, bytes, output, run_at as run, skipped, stderr, text, TempDir};

/// Why strace's fault injection cannot be used here, if it cannot: `true`
/// killed as it enters `exit_group` must die of SIGKILL.
fn no_strace() -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    let o = Command::new("strace")
        .args(["-qq", "-o", "/dev/null", "-e", "trace=exit_group", "-e", "inject=exit_group:signal=KILL:when=1", "--", "true"])
        .stdin(Stdio::null())
        .output();
    match o {
        Err(e) => Some(format!("strace cannot be run ({e}); install it (Debian: strace)")),
        Ok(o) if o.status.signal() == Some(9) => None,
        Ok(o) => Some(format!("strace cannot inject a kill here ({:?}: {})", o.status, text(&o.stderr).trim())),
    }
}

/// One system call of a traced run: its name and which call of that name
/// it is (1-based), as strace's `when=` counts them.
#[derive(Clone, Debug)]
struct Call {
    name: String,
    nth: u32,
}

fn unimac_cmd(dir: &Path, args: &[&str]) -> Command {
    let mut c = bin();
    c.args(args).current_dir(dir);
    c
}


/// `unimac ARGS` in `dir` under strace (the main thread only): its system
/// calls in order, and the index of the first one of `main` (the signal
/// disposition set at start; calls before it, the loader's and the
/// runtime's, are sampled, the rest taken each).
fn trace(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> (Vec<Call>, usize) {
    let log = std::path::PathBuf::from(format!("{}.strace", dir.display()));
    let mut c = Command::new("strace");
    c.args(["-qq", "-o"]).arg(&log).arg("--").arg(env!("CARGO_BIN_EXE_unimac")).args(args).current_dir(dir);
    let o = output(c, stdin);
    assert!(o.status.success(), "traced run of {args:?} failed: {}", stderr(&o));
    let log_text = fs::read_to_string(&log).unwrap();
    let _ = fs::remove_file(&log);
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut calls = Vec::new();
    let mut main = 0;
    for l in log_text.lines() {
        let Some(i) = l.find('(') else { continue };
        let name = &l[..i];
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            continue; // signals, exits
        }
        if l.contains("SIGXFSZ") && main == 0 {
            main = calls.len();
        }
        let n = seen.entry(name.to_string()).or_insert(0);
        *n += 1;
        calls.push(Call { name: name.to_string(), nth: *n });
    }
    assert!(calls.len() > 20, "a trace of {args:?}: {} calls", calls.len());
    (calls, main)
}

/// The calls to kill at: every 8th before `main`, every one from it on
/// (not the first, the `execve` that strace makes before it injects).
fn kill_points(calls: &[Call], main: usize) -> Vec<Call> {
    calls.iter().enumerate().skip(1).filter(|(i, _)| *i >= main || i % 8 == 0).map(|(_, c)| c.clone()).collect()
}

/// `unimac ARGS` in `dir`, killed (SIGKILL) as it enters the call `at`.
fn run_killed(dir: &Path, args: &[&str], at: &Call, stdin: Option<&[u8]>) -> Output {
    let mut c = Command::new("strace");
    c.args(["-qq", "-o", "/dev/null", "-e"])
        .arg(format!("trace={}", at.name))
        .arg("-e")
        .arg(format!("inject={}:signal=KILL:when={}", at.name, at.nth))
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_unimac"))
        .args(args)
        .current_dir(dir);
    output(c, stdin)
}

/// The names in `dir` (hidden ones too), sorted.
fn names(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

#[track_caller]
fn only(dir: &Path, allowed: &[&str], when: &str) {
    let extra: Vec<String> = names(dir).into_iter().filter(|n| !allowed.contains(&n.as_str())).collect();
    assert!(extra.is_empty(), "{when}: files left behind: {extra:?}");
}

#[track_caller]
fn one_link(p: &Path, when: &str) {
    let m = fs::symlink_metadata(p).unwrap();
    assert!(m.is_file(), "{when}: {} is not a regular file", p.display());
    assert_eq!(m.nlink(), 1, "{when}: {} has {} links", p.display(), m.nlink());
}

fn exists(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok()
}

/// Empty `dir` but for `keep`.
fn reset(dir: &Path, keep: &[&str]) {
    for n in names(dir) {
        if !keep.contains(&n.as_str()) {
            let p = dir.join(&n);
            if p.is_dir() {
                fs::remove_dir_all(&p).unwrap();
            } else {
                fs::remove_file(&p).unwrap();
            }
        }
    }
}

/// A whole key file of `name` at `p`, private, with one link, that tags.
#[track_caller]
fn key_ok(dir: &Path, p: &str, name: &str, when: &str) {
    let path = dir.join(p);
    one_link(&path, when);
    assert_eq!(fs::metadata(&path).unwrap().mode() & 0o777, 0o600, "{when}: key file mode");
    let t = fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = t.split_inclusive('\n').collect();
    assert_eq!(lines.len(), 2, "{when}: key file {t:?}");
    assert_eq!(lines[0], format!("unimac-key {name}\n"), "{when}");
}

/// Write a file of seen ids `ids` in `dir` as the receiver makes one:
/// mode 0600 (one open to other users is refused).
fn put_ids(dir: &Path, text: impl AsRef<[u8]>) {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join("ids");
    fs::write(&p, text).unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
}

macro_rules! need_strace {
    () => {
        if let Some(why) = no_strace() {
            // The reason without its details, the same for every test.
            skipped("", why.split(" (").next().unwrap_or(&why));
            println!("{why}");
            return;
        }
    };
}

/// `keygen NAME -o K` killed at each call: no K, or the whole K; never a
/// temporary file; the next run makes K, or refuses because K is whole.
#[test]
fn keygen_killed_at_every_system_call() {
    need_strace!();
    let d = TempDir::unique("crash-keygen");
    let dir = d.path();
    d.write("f", b"data");
    let args = ["keygen", "hash127-aes", "-o", "K"];
    let (calls, main) = trace(dir, &args, None);
    reset(dir, &["f"]);
    let (mut whole, mut killed, points) = (0, 0, kill_points(&calls, main));
    for at in &points {
        let when = format!("keygen killed at {} #{}", at.name, at.nth);
        let o = run_killed(dir, &args, at, None);
        killed += usize::from(o.status.code() != Some(0));
        only(dir, &["f", "K"], &when);
        let next = run(dir, &args, None);
        if exists(&dir.join("K")) && !next.status.success() {
            whole += 1;
            assert!(stderr(&next).contains("already exists"), "{when}: {}", stderr(&next));
        } else {
            assert!(next.status.success(), "{when}: the next run failed: {}", stderr(&next));
        }
        key_ok(dir, "K", "hash127-aes", &when);
        assert!(run(dir, &["tag", "-k", "K", "f"], None).status.success(), "{when}: the key does not tag");
        only(dir, &["f", "K"], &when);
        reset(dir, &["f"]);
    }
    println!("keygen: {killed} of {} runs killed ({} calls traced)", points.len(), calls.len());
    assert!(whole > 0, "no kill came after the key file was linked");
    assert!(killed * 10 >= points.len() * 9, "only {killed} of {} runs were killed", points.len());
}

/// `keygen NAME -o K --counter C`: the key first, then its counter. After a
/// kill: nothing, K alone (given its counter by `keygen --key-file K
/// --counter C`, which the refused next run names), or both, whole.
#[test]
fn keygen_with_counter_killed_at_every_system_call() {
    need_strace!();
    let d = TempDir::unique("crash-keygen-c");
    let dir = d.path();
    d.write("f", b"data");
    let args = ["keygen", "wc-mmh32x4", "-o", "K", "--counter", "C"];
    let (calls, main) = trace(dir, &args, None);
    reset(dir, &["f"]);
    let (mut lone, mut killed, points) = (0, 0, kill_points(&calls, main));
    for at in &points {
        let when = format!("keygen --counter killed at {} #{}", at.name, at.nth);
        let o = run_killed(dir, &args, at, None);
        killed += usize::from(o.status.code() != Some(0));
        only(dir, &["f", "K", "C"], &when);
        let (k, c) = (exists(&dir.join("K")), exists(&dir.join("C")));
        assert!(k || !c, "{when}: a counter without its key");
        let next = run(dir, &args, None);
        match (k, c) {
            (false, _) => assert!(next.status.success(), "{when}: the next run failed: {}", stderr(&next)),
            (true, false) => {
                lone += 1;
                let e = stderr(&next);
                assert!(e.contains("already exists") && e.contains("--key-file K --counter C"), "{when}: {e}");
                let o = run(dir, &["keygen", "--key-file", "K", "--counter", "C"], None);
                assert!(o.status.success(), "{when}: {}", stderr(&o));
            }
            (true, true) => assert!(stderr(&next).contains("already exists"), "{when}: {}", stderr(&next)),
        }
        key_ok(dir, "K", "wc-mmh32x4", &when);
        one_link(&dir.join("C"), &when);
        let o = run(dir, &["tag", "-k", "K", "--counter", "C", "f"], None);
        assert!(o.status.success(), "{when}: {}", stderr(&o));
        assert!(text(&o.stdout).starts_with("00000000000000000000000000000000:"), "{when}: the first nonce is 0");
        only(dir, &["f", "K", "C"], &when);
        reset(dir, &["f"]);
    }
    println!("keygen --counter: {killed} of {} runs killed ({} calls traced)", points.len(), calls.len());
    assert!(lone > 0, "no kill came between the key file and its counter");
    assert!(killed * 10 >= points.len() * 9, "only {killed} of {} runs were killed", points.len());
}

/// `keygen NAME --counter C` with the key on stdout: the key is printed
/// first, its counter made second. After a kill: no counter (and the next
/// run makes key and counter), or a whole counter beside a whole printed
/// key that it is bound to; never a counter whose key was not printed.
#[test]
fn keygen_to_stdout_with_counter_killed_at_every_system_call() {
    need_strace!();
    let d = TempDir::unique("crash-keygen-out");
    let dir = d.path();
    d.write("f", b"data");
    let args = ["keygen", "wc-mmh32x4", "--counter", "C"];
    let (calls, main) = trace(dir, &args, None);
    reset(dir, &["f"]);
    let (mut printed_alone, mut killed, points) = (0, 0, kill_points(&calls, main));
    for at in &points {
        let when = format!("keygen --counter (stdout) killed at {} #{}", at.name, at.nth);
        let o = run_killed(dir, &args, at, None);
        killed += usize::from(o.status.code() != Some(0));
        only(dir, &["f", "C"], &when);
        let key = text(&o.stdout);
        let whole = key.starts_with("unimac-key wc-mmh32x4\n") && key.lines().count() == 2 && key.ends_with('\n');
        if exists(&dir.join("C")) {
            assert!(whole, "{when}: a counter without its printed key: {key:?}");
            one_link(&dir.join("C"), &when);
            d.write_private("K", key.as_bytes());
            let t = run(dir, &["tag", "-k", "K", "--counter", "C", "f"], None);
            assert!(t.status.success(), "{when}: the printed key and its counter: {}", stderr(&t));
        } else {
            printed_alone += usize::from(whole);
            let next = run(dir, &args, None);
            assert!(next.status.success(), "{when}: the next run failed: {}", stderr(&next));
            one_link(&dir.join("C"), &when);
        }
        reset(dir, &["f"]);
    }
    println!("keygen --counter to stdout: {killed} of {} runs killed ({} calls traced)", points.len(), calls.len());
    assert!(printed_alone > 0, "no kill came between the printed key and its counter");
    assert!(killed * 10 >= points.len() * 9, "only {killed} of {} runs were killed", points.len());
}

/// `tag --counter C` of two files, killed at each call, and run again after
/// each kill, on one counter file throughout: every nonce printed, by the
/// killed runs and the others, is distinct; the counter keeps one link and
/// counts on.
#[test]
fn tag_with_counter_killed_at_every_system_call() {
    need_strace!();
    let d = TempDir::unique("crash-tag");
    let dir = d.path();
    d.write("f", b"data");
    d.write("g", b"more data");
    assert!(run(dir, &["keygen", "wc-mmh32x4", "-o", "K", "--counter", "C"], None).status.success());
    let args = ["tag", "-k", "K", "--counter", "C", "--threads", "1", "f", "g"];
    let (calls, main) = trace(dir, &args, None);
    let mut nonces: Vec<String> = Vec::new();
    let mut take = |o: &Output| {
        // Whole lines only: `NONCE:TAG  NAME`.
        for l in text(&o.stdout).split_inclusive('\n').filter(|l| l.ends_with('\n')) {
            nonces.push(l.split(':').next().unwrap().to_string());
        }
    };
    let (mut killed, mut printed_then_killed, points) = (0, 0, kill_points(&calls, main));
    for at in &points {
        let when = format!("tag --counter killed at {} #{}", at.name, at.nth);
        let o = run_killed(dir, &args, at, None);
        if o.status.code() != Some(0) {
            killed += 1;
            printed_then_killed += usize::from(!o.stdout.is_empty());
        }
        take(&o);
        one_link(&dir.join("C"), &when);
        let next = run(dir, &args, None);
        assert!(next.status.success(), "{when}: the next run failed: {}", stderr(&next));
        take(&next);
        one_link(&dir.join("C"), &when);
        only(dir, &["f", "g", "K", "C"], &when);
    }
    println!("tag --counter: {killed} of {} runs killed ({} calls traced)", points.len(), calls.len());
    assert!(killed * 10 >= points.len() * 9, "only {killed} of {} runs were killed", points.len());
    assert!(printed_then_killed > 0, "no run was killed after it printed a tag");
    let distinct: BTreeSet<&String> = nonces.iter().collect();
    assert_eq!(distinct.len(), nonces.len(), "a nonce was handed out twice");
    println!("{} nonces from {killed} killed runs and their next runs, all distinct", nonces.len());
}

/// `seal -o M` killed at each call: no M, or the whole M, which verifies.
#[test]
fn seal_killed_at_every_system_call() {
    need_strace!();
    let d = TempDir::unique("crash-seal");
    let dir = d.path();
    fs::create_dir(dir.join("d")).unwrap();
    d.write("d/a", b"alpha");
    d.write("d/b", b"beta");
    assert!(run(dir, &["keygen", "hash127-aes", "-o", "K"], None).status.success());
    let args = ["seal", "-k", "K", "-r", "d", "-o", "M", "--threads", "1"];
    let (calls, main) = trace(dir, &args, None);
    reset(dir, &["d", "K"]);
    let (mut killed, points) = (0, kill_points(&calls, main));
    for at in &points {
        let when = format!("seal killed at {} #{}", at.name, at.nth);
        let o = run_killed(dir, &args, at, None);
        killed += usize::from(o.status.code() != Some(0));
        only(dir, &["d", "K", "M"], &when);
        let had = exists(&dir.join("M"));
        let next = run(dir, &args, None);
        assert!(next.status.success() != had, "{when}: the next run: {}", stderr(&next));
        one_link(&dir.join("M"), &when);
        let v = run(dir, &["verify", "-k", "K", "M"], None);
        assert!(v.status.success(), "{when}: the manifest does not verify: {}{}", text(&v.stdout), stderr(&v));
        reset(dir, &["d", "K"]);
    }
    println!("seal -o: {killed} of {} runs killed ({} calls traced)", points.len(), calls.len());
    assert!(killed * 10 >= points.len() * 9, "only {killed} of {} runs were killed", points.len());
}

/// `stream --verify --seen ids` (with and without `--hold`) killed at each
/// call, each time with a fresh file of seen ids: what was released is a
/// prefix of the payload; the file holds whole records; the next run
/// releases the whole stream, or refuses it as seen before, and refuses
/// when the killed run released anything; no stream is released twice.
#[test]
fn stream_seen_killed_at_every_system_call() {
    need_strace!();
    let d = TempDir::unique("crash-stream");
    let dir = d.path();
    assert!(run(dir, &["keygen", "hash127-aes", "-o", "K"], None).status.success());
    let payload = bytes(5000, 42);
    let wire = run(dir, &["stream", "-k", "K", "--chunk-size", "1KiB"], Some(&payload)).stdout;
    assert!(wire.len() > payload.len());
    for hold in [false, true] {
        let mut args = vec!["stream", "--verify", "-k", "K", "--seen", "ids"];
        if hold {
            args.insert(2, "--hold");
        }
        let (calls, main) = trace(dir, &args, Some(&wire));
        reset(dir, &["K"]);
        let (points, mut killed) = (kill_points(&calls, main), 0);
        for at in &points {
            let when = format!("stream --verify (hold: {hold}) killed at {} #{}", at.name, at.nth);
            let o = run_killed(dir, &args, at, Some(&wire));
            killed += usize::from(o.status.code() != Some(0) && o.status.code() != Some(1));
            assert!(payload.starts_with(&o.stdout), "{when}: released bytes that are not the payload's");
            only(dir, &["K", "ids"], &when);
            if let Ok(ids) = fs::read(dir.join("ids")) {
                one_link(&dir.join("ids"), &when);
                assert!(ids.is_empty() || (ids.len() % 33 == 0 && ids.ends_with(b"\n")), "{when}: ids {:?}", text(&ids));
            }
            let next = run(dir, &args, Some(&wire));
            if !o.stdout.is_empty() {
                assert_eq!(next.status.code(), Some(1), "{when}: released twice");
            }
            match next.status.code() {
                Some(0) => assert_eq!(next.stdout, payload, "{when}"),
                Some(1) => {
                    assert!(next.stdout.is_empty() && stderr(&next).contains("seen before"), "{when}: {}", stderr(&next))
                }
                c => panic!("{when}: the next run exited {c:?}: {}", stderr(&next)),
            }
            let third = run(dir, &args, Some(&wire));
            assert!(third.stdout.is_empty() && stderr(&third).contains("seen before"), "{when}: {}", stderr(&third));
            reset(dir, &["K"]);
        }
        println!("stream --verify --seen (hold: {hold}): {killed} of {} runs killed ({} calls traced)", points.len(), calls.len());
        assert!(killed * 10 >= points.len() * 9, "only {killed} of {} runs were killed", points.len());
    }
}

// ------------------------------------------------ without strace

/// The file of seen ids: never followed through a symbolic link (its
/// target is not created), never a FIFO; a record cut by a kill or a full
/// disk (a prefix of an id, no newline) is removed under the lock and the
/// stream accepted; an id whose newline alone is missing is kept, refused,
/// and completed.
#[test]
fn seen_file_links_fifos_and_torn_records() {
    let d = TempDir::unique("seen-torn");
    let dir = d.path();
    assert!(run(dir, &["keygen", "hash127-aes", "-o", "K"], None).status.success());
    let payload = bytes(3000, 7);
    let wire = run(dir, &["stream", "-k", "K", "--chunk-size", "1KiB"], Some(&payload)).stdout;
    let id = {
        // The id: 16 bytes after the header's magic, version, name and fingerprint.
        let n = wire[9] as usize;
        let at = 10 + n + 16;
        wire[at..at + 16].iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    let args = ["stream", "--verify", "-k", "K", "--seen", "ids"];
    std::os::unix::fs::symlink(dir.join("elsewhere"), dir.join("ids")).unwrap();
    let o = run(dir, &args, Some(&wire));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("symbolic link") && o.stdout.is_empty(), "{}", stderr(&o));
    assert!(!exists(&dir.join("elsewhere")), "the link's target was created");
    fs::remove_file(dir.join("ids")).unwrap();
    let fifo = dir.join("ids");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let o = run(dir, &args, Some(&wire));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("named pipe") && o.stdout.is_empty(), "{}", stderr(&o));
    fs::remove_file(&fifo).unwrap();
    // A cut record: removed, the stream released, its id recorded.
    let other = "0123456789abcdef0123456789abcdef\n";
    put_ids(dir, format!("{other}{}", &id[..7]));
    let o = run(dir, &args, Some(&wire));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, payload);
    assert!(stderr(&o).contains("torn last record"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(dir.join("ids")).unwrap(), format!("{other}{id}\n"));
    // A whole id without its newline: refused, and completed.
    put_ids(dir, format!("{other}{id}"));
    let o = run(dir, &args, Some(&wire));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty() && stderr(&o).contains("seen before"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(dir.join("ids")).unwrap(), format!("{other}{id}\n"));
    // Anything else on the last line is not a torn record: refused.
    put_ids(dir, format!("{other}xyz"));
    let o = run(dir, &args, Some(&wire));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 2: not a stream id") && o.stdout.is_empty(), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(dir.join("ids")).unwrap(), format!("{other}xyz"), "a refused file was changed");
}

/// The file of seen ids is parsed whole before anything is changed, and
/// must be this user's, open to no other, with one link: a file that is not
/// a file of seen ids (a ledger whose last line has no newline), a second
/// hard link to it, a file other users can open (and so hold its lock, so
/// that every receiver waits), or another user's file is refused with one
/// line and left byte for byte as it was. A new one is made with mode 0600.
#[test]
fn seen_file_is_checked_before_it_is_changed() {
    use std::os::unix::fs::PermissionsExt;
    let d = TempDir::unique("seen-check");
    let dir = d.path();
    assert!(run(dir, &["keygen", "hash127-aes", "-o", "K"], None).status.success());
    let payload = bytes(2000, 5);
    let wire = run(dir, &["stream", "-k", "K", "--chunk-size", "1KiB"], Some(&payload)).stdout;
    let args = ["stream", "--verify", "-k", "K", "--seen", "ids"];
    let refused = |want: &str, when: &str| {
        let before = fs::read(dir.join("ids")).unwrap();
        let o = run(dir, &args, Some(&wire));
        assert_eq!(o.status.code(), Some(2), "{when}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{when}: released bytes");
        assert_eq!(stderr(&o).lines().count(), 1, "{when}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{when}: {}", stderr(&o));
        assert_eq!(fs::read(dir.join("ids")).unwrap(), before, "{when}: the file was changed");
    };
    // Not a file of seen ids: refused by the line that is not an id, even
    // where the last line looks like a cut record (digits, no newline).
    let id1 = "0123456789abcdef0123456789abcdef";
    for (text, line) in [
        ("balance:\n1000".to_string(), "line 1:"),
        (format!("{id1}\nbalance:\n1000"), "line 2:"),
        (format!("{id1}\n{}\n12", id1.to_uppercase()), "line 2:"),
        (format!("{id1} \n12"), "line 1:"),
        (format!("{id1}\n\n12"), "line 2:"),
        (format!("{id1}\n{id1}0"), "line 2:"),
        (format!("{id1}\n12 "), "line 2:"),
        (format!("{id1}\nABC"), "line 2:"),
    ] {
        put_ids(dir, &text);
        refused(line, &format!("{text:?}"));
    }
    // A second hard link (one planted beside it, or the file itself a link
    // to another): refused, neither name changed.
    put_ids(dir, format!("{id1}\n12"));
    fs::hard_link(dir.join("ids"), dir.join("ledger")).unwrap();
    refused("2 hard links", "a second link");
    fs::remove_file(dir.join("ledger")).unwrap();
    // Open to other users (mode 0644, 0660, 0602): refused, with the fix.
    for mode in [0o644, 0o660, 0o602] {
        fs::set_permissions(dir.join("ids"), fs::Permissions::from_mode(mode)).unwrap();
        refused("chmod 600", &format!("mode {mode:o}"));
    }
    fs::set_permissions(dir.join("ids"), fs::Permissions::from_mode(0o600)).unwrap();
    // Another user's file (root only: chown to nobody, uid 65534).
    if rustix_free_euid() == 0 {
        std::os::unix::fs::chown(dir.join("ids"), Some(65534), Some(65534)).unwrap();
        refused("owned by uid 65534", "another user's file");
        std::os::unix::fs::chown(dir.join("ids"), Some(0), Some(0)).unwrap();
    } else {
        skipped("another user's file", "needs root (chown to uid 65534)");
    }
    // Its own file, torn: repaired and used.
    let o = run(dir, &args, Some(&wire));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, payload);
    let t = fs::read_to_string(dir.join("ids")).unwrap();
    assert!(t.starts_with(&format!("{id1}\n")) && t.len() == 66 && t.ends_with('\n'), "{t:?}");
    // A new file: mode 0600 whatever the umask.
    fs::remove_file(dir.join("ids")).unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("umask 000; exec {} stream --verify -k K --seen ids", env!("CARGO_BIN_EXE_unimac")))
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = {
        use std::io::Write;
        let mut o = o;
        o.stdin.take().unwrap().write_all(&wire).unwrap();
        o.wait_with_output().unwrap()
    };
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let m = fs::metadata(dir.join("ids")).unwrap();
    assert_eq!(m.mode() & 0o7777, 0o600, "a new file of seen ids is private");
    assert_eq!(fs::read(dir.join("ids")).unwrap().len(), 33);
}

/// The effective user id, from /proc (the tests do without libc).
fn rustix_free_euid() -> u32 {
    let s = fs::read_to_string("/proc/self/status").unwrap();
    let l = s.lines().find(|l| l.starts_with("Uid:")).unwrap();
    l.split_whitespace().nth(2).unwrap().parse().unwrap()
}

/// A file of seen ids replaced while a receiver waits for its lock (a log
/// rotation): once locked, the receiver sees that the path names another
/// file, opens that one, and records the id there, not in the old file.
#[test]
fn seen_file_replaced_while_waiting_for_its_lock() {
    let d = TempDir::unique("seen-rotate");
    let dir = d.path();
    assert!(run(dir, &["keygen", "hash127-aes", "-o", "K"], None).status.success());
    let payload = bytes(2000, 6);
    let wire = run(dir, &["stream", "-k", "K", "--chunk-size", "1KiB"], Some(&payload)).stdout;
    put_ids(dir, b"");
    let held = fs::OpenOptions::new().read(true).append(true).open(dir.join("ids")).unwrap();
    held.lock().unwrap();
    let mut c = unimac_cmd(dir, &["stream", "--verify", "-k", "K", "--seen", "ids"]);
    c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut ch = c.spawn().unwrap();
    {
        use std::io::Write;
        ch.stdin.take().unwrap().write_all(&wire).unwrap();
    }
    // Wait until the receiver blocks on the lock (its kernel wait channel
    // names a lock), at most 20 s; then rotate the file and release.
    let wchan = format!("/proc/{}/wchan", ch.id());
    let mut waited = false;
    for _ in 0..2000 {
        if fs::read_to_string(&wchan).is_ok_and(|w| w.contains("lock")) {
            waited = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    fs::rename(dir.join("ids"), dir.join("ids.old")).unwrap();
    put_ids(dir, b"");
    drop(held);
    let o = ch.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, payload);
    assert_eq!(fs::read(dir.join("ids.old")).unwrap(), b"", "the id went into the rotated file");
    assert_eq!(fs::read(dir.join("ids")).unwrap().len(), 33, "the id is not in the file the path names");
    if !waited {
        skipped("rotation while waiting", "the receiver was never seen waiting on the lock (/proc/PID/wchan)");
    }
}

/// With `--hold`, a delivery cut or changed on the way releases nothing and
/// uses up nothing: the intact resend is released, once. Without it, a
/// delivery that released a prefix uses the id up.
#[test]
fn held_delivery_claims_its_id_when_it_releases() {
    let d = TempDir::unique("seen-hold");
    let dir = d.path();
    assert!(run(dir, &["keygen", "hash127-aes", "-o", "K"], None).status.success());
    let payload = bytes(5000, 8);
    let wire = run(dir, &["stream", "-k", "K", "--chunk-size", "1KiB"], Some(&payload)).stdout;
    let args = ["stream", "--verify", "--hold", "-k", "K", "--seen", "ids"];
    let mut flipped = wire.clone();
    let at = wire.len() - 40;
    flipped[at] ^= 1;
    for bad in [&wire[..wire.len() - 10], &wire[..wire.len() / 2], &flipped[..]] {
        let o = run(dir, &args, Some(bad));
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty(), "a cut delivery released bytes under --hold");
        assert!(fs::read(dir.join("ids")).map_or(true, |t| t.is_empty()), "a cut delivery used up its id");
    }
    let o = run(dir, &args, Some(&wire));
    assert_eq!(o.status.code(), Some(0), "the intact resend: {}", stderr(&o));
    assert_eq!(o.stdout, payload);
    let o = run(dir, &args, Some(&wire));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty() && stderr(&o).contains("seen before"));
    // Without --hold the verified prefix is released, and the id used up.
    let args = ["stream", "--verify", "-k", "K", "--seen", "ids2"];
    let o = run(dir, &args, Some(&wire[..wire.len() - 10]));
    assert_eq!(o.status.code(), Some(1));
    assert!(!o.stdout.is_empty());
    let o = run(dir, &args, Some(&wire));
    assert!(o.status.code() == Some(1) && o.stdout.is_empty() && stderr(&o).contains("seen before"));
}

/// One stream given to many receivers at once, with and without `--hold`:
/// exactly one releases it.
#[test]
fn concurrent_receivers_release_once() {
    let d = TempDir::unique("seen-race");
    let dir = d.path().to_path_buf();
    assert!(run(&dir, &["keygen", "hash127-aes", "-o", "K"], None).status.success());
    let payload = bytes(200_000, 9);
    let wire = run(&dir, &["stream", "-k", "K", "--chunk-size", "4KiB"], Some(&payload)).stdout;
    for (round, hold) in [(0, false), (1, true), (2, false), (3, true)] {
        let ids = format!("ids{round}");
        let outs: Vec<Output> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..8)
                .map(|_| {
                    let (dir, wire, ids) = (&dir, &wire, &ids);
                    s.spawn(move || {
                        let mut a = vec!["stream", "--verify", "-k", "K", "--seen", ids.as_str()];
                        if hold {
                            a.push("--hold");
                        }
                        run(dir, &a, Some(wire))
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let released: Vec<&Output> = outs.iter().filter(|o| !o.stdout.is_empty()).collect();
        assert_eq!(released.len(), 1, "hold {hold}: {} receivers released", released.len());
        assert_eq!(released[0].stdout, payload);
        assert_eq!(outs.iter().filter(|o| o.status.code() == Some(0)).count(), 1);
        assert!(outs.iter().filter(|o| o.stdout.is_empty()).all(|o| stderr(o).contains("seen before")));
        assert_eq!(fs::read(dir.join(&ids)).unwrap().len(), 33);
    }
}

/// Past the file-size limit (`ulimit -f`), each writer fails with one line
/// naming "File too large" and a non-zero exit (SIGXFSZ ignored, not a
/// silent kill, exit 153), leaves no file or temporary file, and the next
/// run without the limit works.
#[test]
fn file_size_limit_is_an_error_not_a_kill() {
    let d = TempDir::unique("ulimit");
    let dir = d.path();
    d.write("f", &bytes(4000, 3));
    assert!(run(dir, &["keygen", "hash127-aes", "-o", "K"], None).status.success());
    assert!(run(dir, &["keygen", "wc-mmh32x4", "-o", "W", "--counter", "WC"], None).status.success());
    let bin = env!("CARGO_BIN_EXE_unimac");
    let limited = |blocks: u32, cmd: &str| {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -f {blocks}; exec {bin} {cmd}"))
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let e = stderr(&o);
        assert!(!o.status.success(), "{cmd}: succeeded past the limit");
        assert!(o.status.code().is_some(), "{cmd}: killed by a signal: {:?}", o.status);
        assert_ne!(o.status.code(), Some(101), "{cmd}: panicked: {e}");
        assert_eq!(e.lines().count(), 1, "{cmd}: {e:?}");
        assert!(e.contains("File too large"), "{cmd}: {e}");
        o
    };
    let base = ["f", "K", "W", "WC"];
    limited(0, "keygen hash127-aes -o K2");
    limited(0, "keygen wc-mmh32x4 -o K3 --counter C3");
    limited(0, "seal -k K f -o M");
    let counter = fs::read(dir.join("WC")).unwrap();
    limited(0, "tag -k W --counter WC f");
    assert_eq!(fs::read(dir.join("WC")).unwrap(), counter, "the counter changed");
    limited(0, "tag -k K f > T");
    limited(1, "stream -k K f > S");
    only(dir, &["f", "K", "W", "WC", "T", "S"], "after the limited runs");
    fs::remove_file(dir.join("T")).unwrap();
    fs::remove_file(dir.join("S")).unwrap();
    only(dir, &base, "after the limited runs");
    // The file of seen ids past the limit: nothing released, nothing kept.
    let wire = run(dir, &["stream", "-k", "K", "f"], None).stdout;
    fs::write(dir.join("wire"), &wire).unwrap();
    let o = limited(0, "stream --verify -k K --seen ids wire");
    assert!(o.stdout.is_empty());
    assert_eq!(fs::read(dir.join("ids")).unwrap(), b"", "a cut record was kept");
    // A record cut by the limit (15 records fill 495 of the 512 bytes: 17
    // of the next 33 go in): a short write, an error, the file cut back.
    let full: String = (0..15).map(|i| format!("{i:032x}\n")).collect();
    put_ids(dir, &full);
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -f 1; exec {bin} stream --verify -k K --seen ids wire"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(o.stdout.is_empty() && stderr(&o).contains("short write (17 of 33 bytes"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(dir.join("ids")).unwrap(), full, "the cut record was not removed");
    // A whole id without its newline, completed, then an append cut by the
    // limit: the file is cut back to the completed record, newline kept.
    let full14: String = (0..14).map(|i| format!("{i:032x}\n")).collect();
    let last = format!("{:032x}", 99);
    put_ids(dir, format!("{full14}{last}"));
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -f 1; exec {bin} stream --verify -k K --seen ids wire"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("completed the last record") && stderr(&o).contains("short write (17 of 33 bytes"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(dir.join("ids")).unwrap(), format!("{full14}{last}\n"), "not cut back to a whole record");
    put_ids(dir, b"");
    let o = limited(1, "stream --verify --hold -k K wire > out");
    assert!(o.stdout.is_empty());
    fs::remove_file(dir.join("out")).unwrap();
    // Without the limit, each works.
    for cmd in [
        &["keygen", "hash127-aes", "-o", "K2"][..],
        &["keygen", "wc-mmh32x4", "-o", "K3", "--counter", "C3"],
        &["seal", "-k", "K", "f", "-o", "M"],
        &["tag", "-k", "W", "--counter", "WC", "f"],
    ] {
        let o = run(dir, cmd, None);
        assert!(o.status.success(), "{cmd:?}: {}", stderr(&o));
    }
    let o = run(dir, &["stream", "--verify", "-k", "K", "--seen", "ids", "wire"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout, fs::read(dir.join("f")).unwrap());
    only(dir, &["f", "K", "W", "WC", "K2", "K3", "C3", "M", "wire", "ids"], "after the runs without the limit");
}
