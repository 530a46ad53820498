//! Helpers shared by the CLI's integration tests: running the binary, its
//! output as text, the usual assertions on it, key files, temporary
//! directories and test data. A test file whose helper behaves differently
//! (a deadline, an environment variable, a stricter check) keeps its own.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The environment variable the tests give `compute` its key in
/// (`--key-env`), so that no key is on a command line.
pub const KEY_VAR: &str = "UNIMAC_TEST_KEY";

/// The `unimac` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_unimac"))
}

/// `unimac ARGS` with stdin closed.
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    bin().args(args).stdin(Stdio::null()).output().unwrap()
}

/// [`run`] in the working directory `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    bin().args(args).current_dir(dir).stdin(Stdio::null()).output().unwrap()
}

/// [`run`] with the hex `key` in [`KEY_VAR`].
pub fn run_key<S: AsRef<OsStr>>(args: &[S], key: &str) -> Output {
    bin().args(args).env(KEY_VAR, key).stdin(Stdio::null()).output().unwrap()
}

/// Run `c` with its output captured and `stdin` on its standard input if
/// given (else closed), written from another thread (the child may fill
/// its stdout first). Returns the output and how the write went: a process
/// that refuses its arguments exits without reading stdin, and the write
/// then fails with a broken pipe.
fn fed(mut c: Command, stdin: Option<&[u8]>) -> (Output, std::io::Result<()>) {
    let mut c = c
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let Some(input) = stdin else {
        return (c.wait_with_output().expect("wait"), Ok(()));
    };
    let mut pipe = c.stdin.take().expect("stdin");
    let data = input.to_vec();
    let w = std::thread::spawn(move || pipe.write_all(&data));
    let out = c.wait_with_output().expect("wait");
    (out, w.join().expect("writer"))
}

/// Run `c` as [`fed`] does; a failed write of `stdin` is not the test's
/// point, so it is ignored.
pub fn output(c: Command, stdin: Option<&[u8]>) -> Output {
    fed(c, stdin).0
}

/// `unimac ARGS` with `input` on stdin (a failed write ignored: [`output`]).
pub fn run_stdin<S: AsRef<OsStr>>(args: &[S], input: &[u8]) -> Output {
    let mut c = bin();
    c.args(args);
    output(c, Some(input))
}

/// `unimac ARGS` in the working directory `dir`, with `stdin` on its
/// standard input if given (a failed write ignored: [`output`]).
pub fn run_at(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut c = bin();
    c.args(args).current_dir(dir);
    output(c, stdin)
}

/// `unimac ARGS`, with `key` (hex) in [`KEY_VAR`] if given, and `stdin` on
/// its standard input if given (else closed); all of `stdin` must be
/// written.
pub fn run_with(args: &[&str], key: Option<&str>, stdin: Option<&[u8]>) -> Output {
    let mut c = bin();
    c.args(args);
    if let Some(k) = key {
        c.env(KEY_VAR, k);
    }
    let (out, written) = fed(c, stdin);
    written.expect("write stdin");
    out
}

/// `unimac ARGS` in `dir` with stdin closed, killed (and the test failed)
/// if it runs past `limit`: a run that blocks (on a named pipe, a device,
/// a writer that never comes) fails the test instead of hanging it.
pub fn run_bounded(dir: &Path, limit: std::time::Duration, args: &[&str]) -> Output {
    let mut child = bin()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("unimac {args:?} blocked");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// [`run_with`] without a key.
pub fn run_input(args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_with(args, None, stdin)
}

/// Bytes as text (invalid UTF-8 shown as U+FFFD).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// The run did not panic.
#[track_caller]
pub fn no_panic(o: &Output) {
    assert_ne!(o.status.code(), Some(101), "panicked: {}", stderr(o));
    assert!(!stderr(o).contains("panicked"), "panicked: {}", stderr(o));
}

/// Exit status `code`; both outputs shown if not.
#[track_caller]
pub fn assert_code(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "stdout:\n{}stderr:\n{}", stdout(o), stderr(o));
}

/// A user error: non-zero exit, exactly one line on stderr naming the
/// problem (case-insensitive), nothing on stdout, no panic.
#[track_caller]
pub fn assert_error(o: &Output, needle: &str) {
    no_panic(o);
    let e = stderr(o);
    assert!(!o.status.success(), "expected failure, got success; stderr: {e}");
    assert_eq!(e.lines().count(), 1, "one line on stderr, got: {e:?}");
    assert!(
        e.to_lowercase().contains(&needle.to_lowercase()),
        "stderr {e:?} should mention {needle:?}"
    );
    assert!(o.stdout.is_empty(), "nothing on stdout, got: {:?}", stdout(o));
}

/// Success: exit 0, nothing on stderr, no panic; returns stdout.
#[track_caller]
pub fn ok(o: &Output) -> String {
    no_panic(o);
    assert!(o.status.success(), "failed ({:?}): {}", o.status.code(), stderr(o));
    assert!(o.stderr.is_empty(), "stderr: {}", stderr(o));
    stdout(o)
}

/// The hex key of a key file (its second line).
pub fn key_hex(path: &str) -> String {
    fs::read_to_string(path).unwrap().lines().nth(1).unwrap().to_string()
}

/// A fresh, empty directory `unimac-{tag}-{pid}-{n}` under the system's
/// temporary directory (left over from an earlier run: emptied), which the
/// caller removes; `n` counts the calls in this process, whose tests (every
/// module of the test binary) may use one tag twice.
pub fn temp_dir(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("unimac-{tag}-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A directory removed when dropped (read-only leftovers of a test made
/// writable first).
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A fresh directory under the system's temporary directory, named
    /// after `tag` and this process ([`temp_dir`]).
    pub fn new(tag: &str) -> TempDir {
        TempDir(temp_dir(tag))
    }

    /// A fresh directory named after `tag`, this process, a count and the
    /// time: never one another test of the process has, even for one `tag`.
    pub fn unique(tag: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let n = N.fetch_add(1, Ordering::Relaxed);
        TempDir::new(&format!("{tag}-{n}-{nanos}"))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path of `name` inside it.
    pub fn join<P: AsRef<Path>>(&self, name: P) -> PathBuf {
        self.0.join(name)
    }

    /// The path of `name` inside it.
    pub fn p(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The path of `name` inside it, as a string argument.
    pub fn s(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("utf-8 path").to_string()
    }

    /// Write `data` to `name` inside it; returns its path.
    pub fn write(&self, name: &str, data: &[u8]) -> String {
        fs::write(self.join(name), data).unwrap();
        self.s(name)
    }

    /// [`write`](Self::write), private (mode 0600, as keygen writes key
    /// files: one open to others is warned about).
    pub fn write_private(&self, name: &str, data: &[u8]) -> String {
        let p = self.write(name, data);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        }
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Read-only leftovers of a test must not stop the cleanup.
            let _ = fs::set_permissions(&self.0, fs::Permissions::from_mode(0o700));
        }
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// When `path` last changed: the later of its mtime and ctime (the times
/// the torn-read rule compares).
fn changed(path: &Path) -> std::time::SystemTime {
    let m = fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mtime = m.modified().expect("mtime");
    #[cfg(unix)]
    let ctime = {
        use std::os::unix::fs::MetadataExt;
        std::time::UNIX_EPOCH + std::time::Duration::new(m.ctime() as u64, m.ctime_nsec() as u32)
    };
    #[cfg(not(unix))]
    let ctime = mtime;
    mtime.max(ctime)
}

/// Waits until none of `paths` changed within the torn-read rule's window
/// (`unimac_front::formats::race::SLACK`, docs/WIRE.md): a file changed in
/// the last two seconds is read twice and compared by SHA-256, one older is
/// read once, as most of a user's files are. The tests of that rule
/// (torn.rs) read files just written; a test of big files about something
/// else (stripes, threads) lets them settle first: the second read and its
/// SHA-256 were a third of its CPU time.
pub fn settle<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) {
    let Some(newest) = paths.into_iter().map(|p| changed(p.as_ref())).max() else {
        return;
    };
    // The file times come from the kernel's coarse clock, which lags the
    // time the library reads by at most a tick: 50 ms more.
    let until = newest + unimac_front::formats::race::SLACK + std::time::Duration::from_millis(50);
    while let Ok(left) = until.duration_since(std::time::SystemTime::now()) {
        if left.is_zero() {
            break;
        }
        std::thread::sleep(left);
    }
}

/// [`settle`] for every regular file under `dir`.
pub fn settle_tree(dir: &Path) {
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).expect("read_dir") {
            let e = e.expect("entry");
            let t = e.file_type().expect("file type");
            if t.is_dir() {
                files(&e.path(), out);
            } else if t.is_file() {
                out.push(e.path());
            }
        }
    }
    let mut all = Vec::new();
    files(dir, &mut all);
    settle(all);
}

/// Pseudo-random bytes (xorshift): a byte hashed at the wrong offset, twice
/// or not at all changes every output.
pub fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    let mut v = Vec::with_capacity(len + 8);
    while v.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.extend_from_slice(&x.to_le_bytes());
    }
    v.truncate(len);
    v
}

/// A check that cannot run here, reported in the one form
/// `scripts/test-all` counts: a line `SKIPPED: <test>: <reason>` written
/// straight to the standard error (past the test harness's capture, so
/// that it shows for a test that passes). `<test>` is the test binary's
/// name and the running test's (the harness names its thread after it),
/// with `[part]` when only `part` of it did not run; `<reason>` is a fixed
/// phrase, the same for every check skipped for the same cause. A test
/// that calls this is not counted as passed.
#[track_caller]
pub fn skipped(part: &str, reason: &str) {
    let here = std::panic::Location::caller();
    let thread = std::thread::current();
    let test = match thread.name() {
        Some(n) if n != "main" => format!("{}::{n}", env!("CARGO_CRATE_NAME")),
        _ => format!("{}:{}", here.file(), here.line()),
    };
    let part = if part.is_empty() { String::new() } else { format!("[{part}]") };
    let line = format!("SKIPPED: {test}{part}: {reason}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}
