//! Arguments read as a list, a manifest or a key (check files, manifests,
//! key files, `--files-from` lists, vector files) that are not regular
//! files: a named pipe, a character device, a socket or a directory is
//! refused at once with one line naming it and what it is, never read (a
//! named pipe would block the open forever, `/dev/zero` would be read
//! without end). The standard input (`-`) is read, bounded the same way.
//! Every run has a deadline: a hang fails the test instead of hanging it.
#![cfg(unix)]

use crate::common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// How long a refusal may take before the run counts as a hang.
const DEADLINE: Duration = Duration::from_secs(20);

/// `unimac ARGS` in `dir` with `stdin` from the file `stdin_from` (else
/// closed), killed and failed if it is still running at [`DEADLINE`].
#[track_caller]
fn run_deadline(dir: &Path, args: &[&str], stdin_from: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_unimac"));
    c.args(args).current_dir(dir).stdout(Stdio::piped()).stderr(Stdio::piped());
    match stdin_from {
        Some(p) => c.stdin(std::fs::File::open(p).unwrap()),
        None => c.stdin(Stdio::null()),
    };
    let mut child = c.spawn().unwrap();
    let start = Instant::now();
    loop {
        if let Some(_status) = child.try_wait().unwrap() {
            break;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("unimac {args:?} still running after {DEADLINE:?}: it blocked or read without end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // The pipes are drained after the exit: every refusal writes one line.
    let status = child.wait().unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    child.stderr.take().unwrap().read_to_end(&mut err).unwrap();
    Output { status, stdout: out, stderr: err }
}

/// A directory with a key `k.key` (hash127-aes), a file `a`, its check
/// file `SUMS`, a sealed manifest `M` of `a`, and the four kinds of
/// not-regular file: `fifo` (a named pipe nobody writes), `sock` (a bound
/// socket), `dir`, and `/dev/zero`.
struct Doors {
    d: TempDir,
    _sock: std::os::unix::net::UnixListener,
}

impl Doors {
    fn new(tag: &str) -> Doors {
        let d = TempDir::unique(tag);
        ok(&run_in(d.path(), &["keygen", "hash127-aes", "-o", "k.key"]));
        d.write("a", b"attack at dawn");
        let o = run_in(d.path(), &["tag", "-k", "k.key", "a"]);
        d.write("SUMS", ok(&o).as_bytes());
        ok(&run_in(d.path(), &["seal", "-k", "k.key", "-o", "M", "a"]));
        let st = Command::new("mkfifo").arg(d.p("fifo")).status().unwrap();
        assert!(st.success(), "mkfifo");
        std::fs::create_dir(d.p("dir")).unwrap();
        let sock = std::os::unix::net::UnixListener::bind(d.p("sock")).unwrap();
        Doors { d, _sock: sock }
    }
    fn dir(&self) -> &Path {
        self.d.path()
    }
}

/// Each kind of not-regular file and the words its refusal names it by.
const KINDS: [(&str, &str); 4] =
    [("fifo", "is a named pipe"), ("/dev/zero", "is a character device"), ("sock", "is a socket"), ("dir", "is a directory")];

#[test]
fn verify_refuses_a_check_file_or_manifest_that_is_not_a_regular_file() {
    let t = Doors::new("doors-verify");
    // The good ones pass (the doors are not shut for regular files).
    ok(&run_deadline(t.dir(), &["verify", "-k", "k.key", "SUMS"], None));
    ok(&run_deadline(t.dir(), &["verify", "-k", "k.key", "M"], None));
    for (arg, what) in KINDS {
        let o = run_deadline(t.dir(), &["verify", "-k", "k.key", arg], None);
        assert_error(&o, &format!("check file {arg}: {what}, not a regular file"));
        assert_code(&o, 2);
        // Beside a good check file, too: refused before anything is read.
        let o = run_deadline(t.dir(), &["verify", "-k", "k.key", "SUMS", arg], None);
        assert!(!o.status.success());
        assert!(stderr(&o).contains(&format!("check file {arg}: {what}")), "{}", stderr(&o));
    }
    let o = run_deadline(t.dir(), &["verify", "-k", "k.key", "fifo"], None);
    assert!(stderr(&o).contains("(a list on a pipe goes to '-', the standard input)"), "{}", stderr(&o));
}

#[test]
fn verify_reads_stdin_bounded() {
    let t = Doors::new("doors-stdin");
    // A check list on stdin works...
    ok(&run_deadline(t.dir(), &["verify", "-k", "k.key", "-"], Some(&t.d.s("SUMS"))));
    // ...and /dev/zero on stdin is one line too long, not a read without end.
    let o = run_deadline(t.dir(), &["verify", "-k", "k.key", "-"], Some("/dev/zero"));
    assert_error(&o, "-: line 1: longer than 16384 bytes; not a check file");
    // A line of a named check file longer than the cap is the same error.
    let mut long = vec![b'0'; 20_000];
    long.push(b'\n');
    t.d.write("LONG", &long);
    let o = run_deadline(t.dir(), &["verify", "-k", "k.key", "LONG"], None);
    assert_error(&o, "LONG: line 1: longer than 16384 bytes; not a check file");
}

#[test]
fn key_files_that_are_not_regular_files_are_refused_by_every_command() {
    let t = Doors::new("doors-key");
    for (arg, what) in KINDS {
        let want = format!("key file {arg}: {what}, not a regular file; not opened");
        for args in [
            vec!["tag", "-k", arg, "a"],
            vec!["verify", "-k", arg, "SUMS"],
            vec!["verify", "-k", arg, "M"],
            vec!["seal", "-k", arg, "-o", "M2", "a"],
            vec!["stream", "-k", arg, "a"],
            vec!["compute", "hash127-aes", "--key-file", arg, "a"],
            vec!["keygen", "--key-file", arg, "--counter", "c.ctr"],
        ] {
            let o = run_deadline(t.dir(), &args, None);
            assert_error(&o, &want);
        }
    }
    assert!(!t.d.p("c.ctr").exists(), "no counter file made for a refused key");
    // A one-time key file (tag spends it: opened for appending).
    for (arg, what) in KINDS {
        let o = run_deadline(t.dir(), &["tag", "hash127", "-k", arg, "a"], None);
        assert_error(&o, &format!("key file {arg}: {what}"));
    }
    // A key on stdin is bounded: /dev/zero is too long to be a key file.
    let o = run_deadline(t.dir(), &["tag", "-k", "-", "a"], Some("/dev/zero"));
    assert_error(&o, "key file -: too long to be a key file");
}

#[test]
fn lists_and_vector_files_that_are_not_regular_files_are_refused() {
    let t = Doors::new("doors-lists");
    for (arg, what) in KINDS {
        let o = run_deadline(t.dir(), &["check-vectors", arg], None);
        assert_error(&o, &format!("vector file {arg}: {what}, not a regular file"));
        if arg == "fifo" {
            continue;
        }
        let o = run_deadline(t.dir(), &["tag", "-k", "k.key", "--files-from", arg], None);
        assert_error(&o, &format!("list {arg}: {what}, not a regular file or a pipe"));
        let o = run_deadline(t.dir(), &["seal", "-k", "k.key", "-o", "M3", "--files-from", arg], None);
        assert_error(&o, &format!("list {arg}: {what}, not a regular file or a pipe"));
    }
    // A list of names may come on a pipe: a named pipe with no writer is
    // not waited for (the list is empty), and a shell's `<(...)` is read.
    let o = run_deadline(t.dir(), &["tag", "-k", "k.key", "--files-from", "fifo"], None);
    assert!(o.status.success() && o.stdout.is_empty(), "{o:?}");
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!("exec '{}' tag -k k.key --files-from <(echo a)", env!("CARGO_BIN_EXE_unimac")))
        .current_dir(t.dir())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).ends_with("  a\n"));
    assert!(!t.d.p("M3").exists(), "no manifest written");
    // stdin is read, bounded.
    let o = run_deadline(t.dir(), &["tag", "-k", "k.key", "--files-from", "-"], Some("/dev/zero"));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("longer than"), "{}", stderr(&o));
    // A list given by name still works.
    t.d.write("LIST", b"a\n");
    let o = run_deadline(t.dir(), &["tag", "-k", "k.key", "--files-from", "LIST"], None);
    assert!(ok(&o).ends_with("  a\n"));
}
