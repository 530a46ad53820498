//! A CLI an operator can trust: files that change while they are read, long
//! inputs to one-block names, sha256sum's semantics (per-file errors, byte
//! names, several check files, trees, closed pipes), keys bound to their
//! MAC, counter files kept as they are, tag lines that name their MAC, one
//! naming scheme, advice on weak MACs, and no panic on any input.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{assert_code, assert_error, bin, no_panic, ok, run, run_key, run_stdin, stderr, stdout, TempDir as Dir, KEY_VAR};

impl Dir {
    fn keygen(&self, mac: &str, file: &str) -> String {
        ok(&run(&["keygen", mac, "-o", &self.s(file)]));
        self.s(file)
    }
}

/// The value of a counter file, after checking that it is bound to `mac`
/// (first line `unimac-counter MAC FINGERPRINT`).
#[track_caller]
fn counter_value(path: &Path, mac: &str) -> String {
    let text = fs::read_to_string(path).unwrap();
    let (head, value) = text.split_once('\n').unwrap_or_else(|| panic!("{text:?}"));
    let fp = head
        .strip_prefix(&format!("unimac-counter {mac} "))
        .unwrap_or_else(|| panic!("not bound to {mac}: {text:?}"));
    assert!(fp.len() == 32 && fp.bytes().all(|c| c.is_ascii_hexdigit()), "{text:?}");
    value.strip_suffix('\n').unwrap_or_else(|| panic!("{text:?}")).to_string()
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
fn set_mode(p: &Path, m: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(p, fs::Permissions::from_mode(m)).unwrap();
}

// ---------------------------------------------------------------- crash

/// Whether process `pid` has `path` open (its /proc fd links).
#[cfg(target_os = "linux")]
fn has_open(pid: u32, path: &Path) -> bool {
    let Ok(rd) = fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    rd.flatten()
        .any(|e| fs::read_link(e.path()).is_ok_and(|l| l == path))
}

/// A file truncated by another process while `tag` reads it: an error line
/// for that file ("changed while reading"), exit 1, the other files' lines
/// printed; no SIGBUS.
#[cfg(target_os = "linux")]
#[test]
fn a_file_truncated_while_read_gives_an_error_line_not_a_crash() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let a = d.write("a", b"first");
    let z = d.write("z", b"last");
    let big = d.p("big");
    let big_s = big.display().to_string();
    let o = run_while_cut(&["tag", "hash127-aes", "--key-file", &k, &a, &big_s, &z], &big);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(&o));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains(&big_s) && e.contains("changed while reading"),
        "{e}"
    );
    let out = stdout(&o);
    let names: Vec<&str> = out.lines().map(|l| l.split_once("  ").unwrap().1).collect();
    assert_eq!(names, [a.as_str(), z.as_str()]);
    // The same for verify: the other lines are still checked.
    fs::File::create(&big).unwrap().set_len(0).unwrap();
    let sums = ok(&run(&[
        "tag",
        "hash127-aes",
        "--key-file",
        &k,
        &a,
        &big_s,
        &z,
    ]));
    let sums = d.write("SUMS", sums.as_bytes());
    fs::File::create(&big).unwrap().set_len(64 << 30).unwrap();
    let child = spawn_piped(&["verify", "--key-file", &k, "-c", &sums]);
    let t0 = Instant::now();
    while !has_open(child.id(), &big) {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the big file was never opened"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(20));
    fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .unwrap()
        .set_len(0)
        .unwrap();
    let o = child.wait_with_output().unwrap();
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("changed while reading"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        stdout(&o),
        format!("{a}: OK\n{big_s}: FAILED open or read\n{z}: OK\n")
    );
}

/// The CLI started with `args`, no stdin, its output piped.
fn spawn_piped<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Child {
    bin().args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Run the CLI with `args` while `big`, made a sparse 64 GiB file (far
/// more than can be read in the time the test needs to see it open), is cut
/// to 4096 bytes once the CLI has it open.
#[cfg(target_os = "linux")]
fn run_while_cut(args: &[&str], big: &Path) -> std::process::Output {
    fs::File::create(big).unwrap().set_len(64 << 30).unwrap();
    let child = spawn_piped(args);
    let t0 = Instant::now();
    while !has_open(child.id(), big) {
        assert!(t0.elapsed() < Duration::from_secs(60), "the big file was never opened");
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(20));
    fs::OpenOptions::new().write(true).open(big).unwrap().set_len(4096).unwrap();
    let o = child.wait_with_output().unwrap();
    no_panic(&o);
    o
}

/// The same for a file read in stripes (UMAC): the cut is seen by the
/// stripe that reads past the new end, the error line is the file's, and
/// the other files' lines are printed.
#[cfg(target_os = "linux")]
#[test]
fn a_file_truncated_while_read_in_stripes_gives_an_error_line() {
    let d = Dir::unique("op-test");
    let (k, c) = (d.s("k"), d.s("c"));
    ok(&run(&["keygen", "umac128", "-o", &k, "--counter", &c]));
    let a = d.write("a", b"first");
    let z = d.write("z", b"last");
    let big = d.p("big");
    let big_s = big.display().to_string();
    let o = run_while_cut(&["--threads", "2", "tag", "umac128", "--key-file", &k, "--counter", &c, &a, &big_s, &z], &big);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(&o));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains(&big_s) && e.contains("changed while reading"), "{e}");
    let out = stdout(&o);
    let names: Vec<&str> = out.lines().map(|l| l.split_once("  ").unwrap().1).collect();
    assert_eq!(names, [a.as_str(), z.as_str()]);
}

/// The same for every size of the read buffers (`UNIMAC_L2_BYTES`: the L2
/// shares of Zen 3, Zen 4 and Sapphire Rapids, src/input/cache.rs), in
/// stripes on two threads and read ahead with one: the error line, never a
/// crash.
#[cfg(target_os = "linux")]
#[test]
fn a_file_truncated_while_read_is_an_error_for_every_buffer_size() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let big = d.p("big");
    let big_s = big.display().to_string();
    for l2 in ["512K", "1M", "2M"] {
        for threads in ["1", "2"] {
            fs::File::create(&big).unwrap().set_len(64 << 30).unwrap();
            let mut c = bin();
            c.args(["--threads", threads, "tag", "hash127-aes", "--key-file", &k, &big_s]).env("UNIMAC_L2_BYTES", l2);
            let child = c.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
            let t0 = Instant::now();
            while !has_open(child.id(), &big) {
                assert!(t0.elapsed() < Duration::from_secs(60), "the big file was never opened");
                std::thread::sleep(Duration::from_millis(2));
            }
            std::thread::sleep(Duration::from_millis(20));
            fs::OpenOptions::new().write(true).open(&big).unwrap().set_len(4096).unwrap();
            let o = child.wait_with_output().unwrap();
            no_panic(&o);
            assert_eq!(o.status.code(), Some(1), "{l2} {threads}: {}", stderr(&o));
            assert_eq!(stderr(&o).trim_end(), format!("unimac: {big_s}: changed while reading"), "{l2} {threads}");
            assert_eq!(stdout(&o), "", "{l2} {threads}");
        }
    }
}

// ---------------------------------------------------------------- memory

/// `c`'s output and the peak resident size of its process in KiB (Linux's
/// unit of `ru_maxrss`), from `wait4` on that process alone: the test
/// process's children as a whole (`getrusage(RUSAGE_CHILDREN)`) include
/// every other test's, which share this process.
#[cfg(unix)]
#[expect(clippy::zombie_processes, reason = "the child is reaped by wait4, which gives its usage too")]
fn output_and_peak(mut c: Command) -> (Output, i64) {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let mut child = c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        out.read_to_end(&mut v).unwrap();
        v
    });
    let mut stderr = Vec::new();
    err.read_to_end(&mut stderr).unwrap();
    let stdout = reader.join().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: wait4 fills the status and the zeroed struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut ru) }, pid);
    let status = std::process::ExitStatus::from_raw(status);
    (Output { status, stdout, stderr }, ru.ru_maxrss as i64)
}

#[cfg(not(unix))]
fn output_and_peak(mut c: Command) -> (Output, i64) {
    (c.output().unwrap(), 0)
}

/// A one-block name stops reading once the input passes what it can take:
/// an endless stdin and a 64 GiB sparse file are refused at once.
#[test]
fn one_block_names_stop_reading_past_their_block() {
    let d = Dir::unique("op-test");
    let key = "ab".repeat(128);
    let zero = fs::File::open("/dev/zero").unwrap();
    let t0 = Instant::now();
    let mut c = bin();
    c.args(["compute", "mmh32x1", "--key-env", KEY_VAR]).env(KEY_VAR, &key).stdin(Stdio::from(zero));
    let (o, peak_kib) = output_and_peak(c);
    assert!(t0.elapsed() < Duration::from_secs(30));
    assert_error(&o, "longer than");
    // And it kept little: the child never grew past 256 MiB (reading the
    // input whole would hold gigabytes before rejecting it).
    #[cfg(unix)]
    assert!(peak_kib < 256 * 1024, "the child used {peak_kib} KiB");
    let big = d.p("big");
    fs::File::create(&big).unwrap().set_len(64 << 30).unwrap();
    for (name, key) in [
        ("mmh32x1", "ab".repeat(128)),
        ("nmh32", "ab".repeat(128)),
        ("mmh64", "ab".repeat(256)),
        ("sqh32-asm", "ab".repeat(64)),
    ] {
        let t0 = Instant::now();
        let o = run_key(&["compute", name, "--key-env", KEY_VAR, &big.display().to_string()], &key);
        assert!(t0.elapsed() < Duration::from_secs(30), "{name}");
        assert_error(&o, "longer than");
    }
    // A message that fits still computes.
    let f = d.write("m", &[7u8; 128]);
    ok(&run_key(&["compute", "mmh32x1", "--key-env", KEY_VAR, &f], &key));
}

// ---------------------------------------------------------------- sha256sum semantics

#[test]
fn tag_prints_good_lines_and_reports_unreadable_files() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let a = d.write("a", b"1");
    let b = d.write("b", b"2");
    let o = run(&[
        "tag",
        "hash127-aes",
        "--key-file",
        &k,
        &a,
        &d.s("missing"),
        &d.s(""),
        &b,
    ]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    let names: Vec<String> = stdout(&o)
        .lines()
        .map(|l| l.split_once("  ").unwrap().1.to_string())
        .collect();
    assert_eq!(names, [a.clone(), b.clone()]);
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 2, "{e}");
    assert!(
        e.contains("missing: No such file") && e.contains("is a directory"),
        "{e}"
    );
    // A file whose size is not known in advance (size 0 in its metadata)
    // is read to its end, not taken for a changed file.
    #[cfg(target_os = "linux")]
    {
        let o = ok(&run(&[
            "tag",
            "hash127-aes",
            "--key-file",
            &k,
            "/proc/cpuinfo",
        ]));
        assert!(o.ends_with("  /proc/cpuinfo\n"));
    }
    // With a counter: the good files get consecutive nonces, the bad none.
    ok(&run(&[
        "keygen",
        "wc-mmh32x4",
        "-o",
        &d.s("kc"),
        "--counter",
        &d.s("c"),
    ]));
    let o = run(&[
        "tag",
        "wc-mmh32x4",
        "--key-file",
        &d.s("kc"),
        "--counter",
        &d.s("c"),
        &a,
        &d.s("missing"),
        &b,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2);
    assert_eq!(counter_value(&d.p("c"), "wc-mmh32x4"), "2");
}

#[cfg(unix)]
#[test]
fn file_names_are_bytes_and_round_trip() {
    use std::os::unix::ffi::OsStrExt;
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let names: [&[u8]; 4] = [
        b"caf\xe9",
        b"\xff\xfe back\\slash",
        b"new\nline \xe9",
        b"plain",
    ];
    let mut paths = Vec::new();
    for n in names {
        let p = d.0.join(std::ffi::OsStr::from_bytes(n));
        fs::write(&p, n).unwrap();
        paths.push(p);
    }
    for bsd in [false, true] {
        let mut args: Vec<std::ffi::OsString> = ["tag", "hash127-aes", "--key-file", &k]
            .iter()
            .map(Into::into)
            .collect();
        if bsd {
            args.push("--tag".into());
        }
        args.extend(paths.iter().map(|p| p.as_os_str().to_owned()));
        let o = bin().args(&args).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        // The Latin-1 name is printed byte for byte.
        let raw = d.0.join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
        assert!(o
            .stdout
            .windows(raw.as_os_str().len())
            .any(|w| w == raw.as_os_str().as_bytes()));
        // A check file with a Latin-1 name and Latin-1 lines.
        let sums = d.0.join(std::ffi::OsStr::from_bytes(b"SUMS-\xe9"));
        fs::write(&sums, &o.stdout).unwrap();
        let v = bin()
            .args([
                "verify".as_ref(),
                "--key-file".as_ref(),
                k.as_ref(),
                "-c".as_ref(),
                sums.as_os_str(),
            ])
            .output()
            .unwrap();
        assert!(v.status.success(), "{}", stderr(&v));
        assert_eq!(v.stdout.windows(4).filter(|w| w == b": OK").count(), 4);
        assert!(v.stderr.is_empty());
    }
}

#[test]
fn verify_refuses_stdin_twice() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let a = d.write("a", b"x");
    let line_dash = ok(&run_stdin(&["tag", "hash127-aes", "--key-file", &k], b"x"));
    let line_a = ok(&run(&["tag", "hash127-aes", "--key-file", &k, &a]));
    // The check list on stdin names '-': refused at that line (the list is
    // read as a stream: the lines before it are checked), no FAILED.
    let o = run_stdin(
        &["verify", "hash127-aes", "--key-file", &k, "-c", "-"],
        format!("{line_a}{line_dash}").as_bytes(),
    );
    no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 2: checks '-' (stdin)"), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1);
    assert_eq!(stdout(&o), format!("{a}: OK\n"));
    // '-' listed first: refused before anything is checked.
    let o = run_stdin(
        &["verify", "hash127-aes", "--key-file", &k, "-c", "-"],
        format!("{line_dash}{line_a}").as_bytes(),
    );
    assert_error(&o, "stdin");
    // The key on stdin and a line '-': refused too; the key on stdin with a
    // check file works.
    let sums = d.write("SUMS", line_a.as_bytes());
    let key = fs::read(&k).unwrap();
    let o = run_stdin(&["verify", "--key-file", "-", "-c", &sums], &key);
    assert_eq!(ok(&o), format!("{a}: OK\n"));
    let sums2 = d.write("SUMS2", line_dash.as_bytes());
    assert_error(
        &run_stdin(&["verify", "--key-file", "-", "-c", &sums2], &key),
        "stdin",
    );
    assert_error(
        &run_stdin(&["verify", "--key-file", "-", "-c", "-"], &key),
        "stdin",
    );
}

#[test]
fn verify_quiet_status_strict_and_several_check_files() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let a = d.write("a", b"1");
    let b = d.write("b", b"2");
    let sa = d.write(
        "SA",
        ok(&run(&["tag", "hash127-aes", "--key-file", &k, &a])).as_bytes(),
    );
    let sb = d.write(
        "SB",
        ok(&run(&["tag", "hash127-aes", "--key-file", &k, &b])).as_bytes(),
    );
    // -c twice, positional, and mixed, with or without the MAC's name.
    for args in [
        vec![
            "verify",
            "hash127-aes",
            "--key-file",
            &k,
            "-c",
            &sa,
            "-c",
            &sb,
        ],
        vec!["verify", "--key-file", &k, &sa, &sb],
        vec![
            "verify",
            "mac-hash127-aes",
            "--key-file",
            &k,
            "-c",
            &sa,
            &sb,
        ],
    ] {
        assert_eq!(ok(&run(&args)), format!("{a}: OK\n{b}: OK\n"), "{args:?}");
    }
    // --quiet: only failures; --status: nothing at all.
    assert_eq!(
        ok(&run(&["verify", "--key-file", &k, "--quiet", &sa, &sb])),
        ""
    );
    fs::write(&b, b"changed").unwrap();
    let o = run(&["verify", "--key-file", &k, "--quiet", &sa, &sb]);
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(1), format!("{b}: FAILED\n"))
    );
    let o = run(&["verify", "--key-file", &k, "--status", &sa, &sb]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    // --strict: an improperly formatted line fails the run.
    let mixed = d.write(
        "MIXED",
        format!("{}not a line\n", fs::read_to_string(&sa).unwrap()).as_bytes(),
    );
    let o = run(&["verify", "--key-file", &k, &mixed]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 line is improperly formatted"));
    let o = run(&["verify", "--key-file", &k, "--strict", &mixed]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("{a}: OK\n"));
    // A typo in the MAC's name is not taken for a check file.
    assert_error(
        &run(&["verify", "hash127-ase", "--key-file", &k, &sa]),
        "did you mean 'hash127-aes'",
    );
}

#[test]
fn tag_a_tree_and_a_list_of_files() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    fs::create_dir_all(d.p("t/sub/deeper")).unwrap();
    let files = ["t/b", "t/a", "t/sub/c", "t/sub/deeper/d"];
    for f in files {
        d.write(f, f.as_bytes());
    }
    let tree = ok(&run(&[
        "tag",
        "hash127-aes",
        "--key-file",
        &k,
        "-r",
        &d.s("t"),
    ]));
    let got: Vec<String> = tree
        .lines()
        .map(|l| l.split_once("  ").unwrap().1.to_string())
        .collect();
    let want: Vec<String> = ["t/a", "t/b", "t/sub/c", "t/sub/deeper/d"]
        .iter()
        .map(|f| d.s(f))
        .collect();
    assert_eq!(got, want, "sorted, recursive");
    // Without -r a directory is a per-file error.
    let o = run(&[
        "tag",
        "hash127-aes",
        "--key-file",
        &k,
        &d.s("t"),
        &d.s("t/a"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is a directory"));
    assert_eq!(stdout(&o).lines().count(), 1);
    // --files-from, newline- and NUL-separated, from a file and from stdin.
    let list_nl = d.write("list", format!("{}\n{}\n", want[3], want[0]).as_bytes());
    let by_list = ok(&run(&[
        "tag",
        "hash127-aes",
        "--key-file",
        &k,
        "--files-from",
        &list_nl,
    ]));
    let list0 = format!("{}\0{}\0", want[3], want[0]);
    let by_stdin = ok(&run_stdin(
        &[
            "tag",
            "hash127-aes",
            "--key-file",
            &k,
            "--files-from",
            "-",
            "-0",
        ],
        list0.as_bytes(),
    ));
    assert_eq!(by_list, by_stdin);
    assert_eq!(by_list.lines().count(), 2);
    assert!(by_list.lines().next().unwrap().ends_with("/t/sub/deeper/d"));
    // And the whole tree verifies.
    let sums = d.write("SUMS", tree.as_bytes());
    assert_eq!(
        ok(&run(&["verify", "--key-file", &k, &sums]))
            .lines()
            .count(),
        4
    );
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    fs::create_dir(d.p("many")).unwrap();
    for i in 0..3000 {
        d.write(&format!("many/file-with-a-longish-name-{i:05}"), b"x");
    }
    let script = format!(
        "'{}' tag hash127-aes --key-file '{}' -r '{}' 2>'{}' | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}",
        env!("CARGO_BIN_EXE_unimac"),
        k,
        d.s("many"),
        d.s("err")
    );
    let o = Command::new("bash").args(["-c", &script]).output().unwrap();
    let status: i32 = stdout(&o).trim().parse().unwrap();
    let err = fs::read_to_string(d.p("err")).unwrap();
    assert!(err.is_empty(), "no error spew: {err}");
    // Killed by SIGPIPE (128 + 13) as coreutils are, or done before head closed.
    assert!(status == 141 || status == 0, "exit status {status}");
}

// ---------------------------------------------------------------- keys

#[test]
fn key_files_are_bound_to_their_mac() {
    let d = Dir::unique("op-test");
    let f = d.write("f", b"m");
    let k = d.keygen("hash127-aes", "k");
    assert!(fs::read_to_string(&k)
        .unwrap()
        .starts_with("unimac-key hash127-aes\n"));
    // Another MAC with the same key length refuses it, naming both.
    let o = run(&[
        "tag",
        "--mac",
        "wc-mmh32x2",
        "--key-file",
        &k,
        "--random-nonce",
        "--allow-weak",
        &f,
    ]);
    assert_error(&o, "hash127-aes key, not a wc-mmh32x2 key");
    assert_error(
        &run(&["verify", "wc-mmh32x4", "--key-file", &k, "-c", &f]),
        "not a wc-mmh32x4 key",
    );
    // An old bare-hex key file is refused with the conversion command.
    let hexline = fs::read_to_string(&k)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let old = d.write("old", format!("{hexline}\n").as_bytes());
    #[cfg(unix)]
    set_mode(Path::new(&old), 0o600);
    let o = run(&["tag", "hash127-aes", "--key-file", &old, &f]);
    assert_error(&o, "sed -i '1i unimac-key hash127-aes'");
    let o = Command::new("sed")
        .args(["-i", "1i unimac-key hash127-aes", &old])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(
        ok(&run(&["tag", "hash127-aes", "--key-file", &old, &f])),
        ok(&run(&["tag", "hash127-aes", "--key-file", &k, &f]))
    );
    // compute takes --key-file (of the same MAC, by either name), and '-'.
    let want = ok(&run_key(&["compute", "mac-hash127-aes", "--key-env", KEY_VAR, &f], &hexline));
    assert_eq!(
        ok(&run(&["compute", "mac-hash127-aes", "--key-file", &k, &f])),
        want
    );
    assert_eq!(
        ok(&run(&["compute", "hash127-aes", "--key-file", &k, &f])),
        want
    );
    assert_eq!(
        ok(&run_stdin(
            &["compute", "hash127-aes", "--key-file", "-", &f],
            &fs::read(&k).unwrap()
        )),
        want
    );
    assert_error(
        &run(&["compute", "hash127-aes-nonce", "--key-file", &k, &f]),
        "not a key for mac-hash127-aes-nonce",
    );
    assert_error(
        &run(&["compute", "wc-mmh32x4", "--key-file", &k, &f]),
        "hash127-aes key, not a key for mac-wc-mmh32x4",
    );
    // hash127's value is a one-time tag: never from a key file, whoever's.
    assert_error(
        &run(&["compute", "hash127", "--key-file", &k, &f]),
        "one-time",
    );
    assert_error(
        &run(&["compute", "hash127", "--known-answer", "--key-file", &k, &f]),
        "never a key file",
    );
    assert_error(
        &run_stdin(&["compute", "hash127-aes", "--key-file", "-"], b""),
        "stdin",
    );
    // A one-time key file is not a way around being spent.
    let k1 = d.keygen("hash127", "k1");
    assert_error(
        &run(&["compute", "mac-hash127", "--key-file", &k1, &f]),
        "one-time",
    );
    // tag --key-file - reads the key from stdin.
    let t = ok(&run_stdin(
        &["tag", "hash127-aes", "--key-file", "-", &f],
        &fs::read(&k).unwrap(),
    ));
    assert_eq!(t, format!("{}  {f}\n", want.trim_end()));
    // A key file open to others works, with a one-line warning.
    #[cfg(unix)]
    {
        set_mode(Path::new(&k), 0o644);
        let o = run(&["tag", "hash127-aes", "--key-file", &k, &f]);
        assert!(o.status.success());
        assert_eq!(stdout(&o), t);
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1);
        assert!(
            e.contains("warning") && e.contains("group or others") && e.contains("chmod 600"),
            "{e}"
        );
    }
}

#[cfg(unix)]
#[test]
fn counter_files_keep_their_mode_and_are_never_silently_replaced() {
    use std::os::unix::fs::MetadataExt;
    let d = Dir::unique("op-test");
    let f = d.write("f", b"m");
    let c = d.s("c");
    ok(&run(&[
        "keygen",
        "wc-mmh32x4",
        "-o",
        &d.s("k"),
        "--counter",
        &c,
    ]));
    let k = d.s("k");
    // Mode and owner survive a reservation.
    set_mode(Path::new(&c), 0o640);
    let before = fs::metadata(&c).unwrap();
    ok(&run(&[
        "tag",
        "wc-mmh32x4",
        "--key-file",
        &k,
        "--counter",
        &c,
        &f,
    ]));
    let after = fs::metadata(&c).unwrap();
    assert_eq!(mode(Path::new(&c)), 0o640);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    assert_eq!(counter_value(Path::new(&c), "wc-mmh32x4"), "1");
    let text = fs::read_to_string(&c).unwrap();
    // A read-only counter file is refused and left alone.
    set_mode(Path::new(&c), 0o444);
    let ino = fs::metadata(&c).unwrap().ino();
    assert_error(
        &run(&["tag", "wc-mmh32x4", "--key-file", &k, "--counter", &c, &f]),
        "read-only",
    );
    assert_eq!(fs::read_to_string(&c).unwrap(), text);
    assert_eq!(
        (mode(Path::new(&c)), fs::metadata(&c).unwrap().ino()),
        (0o444, ino)
    );
    set_mode(Path::new(&c), 0o600);
    // Temporary files of killed runs (dead PIDs) are removed; nothing is left.
    let dead = {
        let mut ch = Command::new("true").spawn().unwrap();
        let id = ch.id();
        ch.wait().unwrap();
        id
    };
    let stale = d.write(&format!(".c.{dead}.tmp"), b"7\n");
    let other = d.write(".c.notapid.tmp", b"x");
    ok(&run(&[
        "tag",
        "wc-mmh32x4",
        "--key-file",
        &k,
        "--counter",
        &c,
        &f,
    ]));
    assert!(!Path::new(&stale).exists(), "stale temporary removed");
    assert!(
        Path::new(&other).exists(),
        "only NAME.PID.tmp files are touched"
    );
    let tmps = fs::read_dir(d.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .count();
    assert_eq!(tmps, 1);
}

// ---------------------------------------------------------------- tag lines name their MAC

#[test]
fn bsd_lines_name_the_mac_and_verify_by_it() {
    let d = Dir::unique("op-test");
    let f = d.write("f", b"m");
    let k = d.keygen("hash127-aes", "k");
    ok(&run(&[
        "keygen",
        "wc-mmh32x4",
        "-o",
        &d.s("k4"),
        "--counter",
        &d.s("c4"),
    ]));
    let plain = ok(&run(&["tag", "hash127-aes", "--key-file", &k, &f]));
    let bsd = ok(&run(&[
        "tag",
        "mac-hash127-aes",
        "--key-file",
        &k,
        "--tag",
        &f,
    ]));
    assert_eq!(
        bsd,
        format!(
            "hash127-aes ({f}) = {}\n",
            plain.split_once("  ").unwrap().0
        )
    );
    let nbsd = ok(&run(&[
        "tag",
        "wc-mmh32x4",
        "--key-file",
        &d.s("k4"),
        "--counter",
        &d.s("c4"),
        "--tag",
        &f,
    ]));
    assert!(
        nbsd.starts_with(&format!(
            "wc-mmh32x4 ({f}) = 00000000000000000000000000000000:"
        )),
        "{nbsd}"
    );
    // Verify takes the MAC from the key file and the lines; NAME optional.
    let s = d.write("S", bsd.as_bytes());
    assert_eq!(
        ok(&run(&["verify", "--key-file", &k, &s])),
        format!("{f}: OK\n")
    );
    assert_eq!(
        ok(&run(&["verify", "hash127-aes", "--key-file", &k, "-c", &s])),
        format!("{f}: OK\n")
    );
    let s4 = d.write("S4", nbsd.as_bytes());
    assert_eq!(
        ok(&run(&["verify", "--key-file", &d.s("k4"), &s4])),
        format!("{f}: OK\n")
    );
    // A line made by another MAC: "made by", not FAILED.
    let o = run(&["verify", "--key-file", &k, &s4]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains("FAILED"), "{}", stdout(&o));
    assert!(stderr(&o).contains("made by wc-mmh32x4"), "{}", stderr(&o));
    // A mix of both styles in one check file.
    let mixed = d.write("M", format!("{plain}{bsd}").as_bytes());
    assert_eq!(
        ok(&run(&["verify", "--key-file", &k, &mixed])),
        format!("{f}: OK\n{f}: OK\n")
    );
}

// ---------------------------------------------------------------- names, advice

#[test]
fn one_naming_scheme_and_papers_by_title() {
    let d = Dir::unique("op-test");
    let f = d.write("f", b"m");
    let k = d.keygen("mac-hash127-aes", "k");
    let a = ok(&run(&["tag", "mac-hash127-aes", "--key-file", &k, &f]));
    assert_eq!(a, ok(&run(&["tag", "hash127-aes", "--key-file", &k, &f])));
    ok(&run(&["bound", "mac-hash127-aes", "--max-bytes", "10"]));
    assert_error(
        &run(&["tag", "--mac", "hash127-ase", "--key-file", &k, &f]),
        "did you mean 'hash127-aes'",
    );
    assert_error(&run(&["keygen", "wc-mmh32x5"]), "did you mean");
    assert_error(
        &run(&["bound", "hash127aes", "--max-bytes", "10"]),
        "did you mean 'hash127-aes'",
    );
    assert_error(
        &run(&["compute", "tree-mmh32x9", "--key", "00", &f]),
        "did you mean",
    );
    // list --long: the MACs tag accepts, papers by author and title, never
    // "seed".
    let list = ok(&run(&["list", "--long"]));
    for n in ["hash127-aes ", "wc-mmh32x4 ", "hash127 "] {
        assert!(list.lines().any(|l| l.starts_with(n)), "{n}");
    }
    assert!(!list.contains("seed"), "{list}");
    assert!(list.contains("Bernstein, “Floating-point arithmetic and message authentication”"));
    assert!(
        list.contains("Krawczyk, “MMH: software message authentication in the Gbit/second rates”")
            && list.contains("Shoup, “On fast and provably secure message authentication"),
        "{list}"
    );
    let b = ok(&run(&["bound", "hash127-aes", "--max-bytes", "10"]));
    assert!(!b.contains("seed") && b.contains("Bernstein"), "{b}");
    let e = stderr(&run(&[
        "bound",
        "hash127",
        "--max-bytes",
        "10",
        "--tags",
        "2",
    ]));
    assert!(!e.contains("seed") && e.contains("Bernstein"), "{e}");
}

#[test]
fn advice_and_weak_macs_need_allow_weak() {
    let d = Dir::unique("op-test");
    let f = d.write("f", b"m");
    let list = ok(&run(&["list"]));
    let row = |n: &str| {
        list.lines()
            .find(|l| l.starts_with(&format!("{n} ")))
            .unwrap()
            .to_string()
    };
    assert!(row("hash127-aes").contains("RECOMMENDED"));
    assert!(list.contains("hash127-aes by default"));
    for weak in ["wc-mmh32x1", "wc-nmh32", "wc-mmh32x2", "wc-eval64"] {
        assert!(row(weak).contains("weak"), "{weak}");
    }
    for strong in ["hash127-aes", "hash127-aes-nonce", "wc-mmh32x4"] {
        assert!(!row(strong).contains("weak"), "{strong}");
    }
    // Tagging with a weak MAC needs --allow-weak; keygen says so at once.
    let o = run(&[
        "keygen",
        "wc-mmh32x1",
        "-o",
        &d.s("k"),
        "--counter",
        &d.s("c"),
    ]);
    assert!(o.status.success() && o.stdout.is_empty());
    assert!(stderr(&o).contains("wc-mmh32x1 is weak") && stderr(&o).contains("--allow-weak"), "{}", stderr(&o));
    let args = [
        "tag",
        "wc-mmh32x1",
        "--key-file",
        &d.s("k"),
        "--counter",
        &d.s("c"),
        &f,
    ];
    assert_error(&run(&args), "--allow-weak");
    assert_eq!(counter_value(&d.p("c"), "wc-mmh32x1"), "0", "no nonce spent");
    let mut with = args.to_vec();
    with.push("--allow-weak");
    assert_eq!(ok(&run(&with)).lines().count(), 1);
    // The advised MACs tag without it.
    let k = d.keygen("hash127-aes", "ka");
    ok(&run(&["tag", "hash127-aes", "--key-file", &k, &f]));
    // The recommendation's figure: about 2^-70 at 1 MiB and 2^20 tags.
    let b = ok(&run(&[
        "bound",
        "hash127-aes",
        "--max-bytes",
        "1048576",
        "--tags",
        "1048576",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(b.trim()).unwrap();
    assert!((v["bound_log2"].as_f64().unwrap() + 70.0).abs() < 0.5);
}

// ---------------------------------------------------------------- bench

/// The benchmark is a program of its own (crates/unimac-bench): `unimac
/// bench`, with or without arguments (and with `--help`), is one line on
/// stderr naming the command that runs it with the same arguments, exit
/// status 2, nothing on stdout; never clap's "unrecognized subcommand".
#[test]
fn bench_names_the_program_that_runs_it() {
    for (args, tail) in [
        (&["bench"][..], ""),
        (&["bench", "--json"], " -- --json"),
        (&["bench", "--plot", "docs/throughput.svg"], " -- --plot docs/throughput.svg"),
        (&["bench", "hash127", "--millis", "50"], " -- hash127 --millis 50"),
        (&["bench", "--help"], " -- --help"),
        (&["bench", "--plot", "a b's.svg"], " -- --plot 'a b'\\''s.svg'"),
        (&["--threads", "2", "bench"], ""),
        (&["bench", "--plot", "a\nb\x1b[2J.svg"], " -- --plot 'a\\x0ab\\x1b[2J.svg'"),
    ] {
        let o = run(args);
        assert_code(&o, 2);
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert_eq!(
            stderr(&o),
            format!(
                "unimac: the benchmark is a program of its own: in a checkout of unimac, run: cargo run --release -p unimac-bench{tail}\n"
            ),
            "{args:?}"
        );
    }
    // `bench` as a file name or a MAC name elsewhere is not the command.
    assert_error(&run(&["compute", "bench", "--key", "00"]), "unknown name");
}

/// Check files with CRLF line ends are read as sha256sum -c reads them; a
/// key file is read strictly (docs/WIRE.md 9.1): CRLF line ends, blanks at
/// a line's end, upper-case hex and a `mac-` prefix are each refused with
/// the line and the byte named. A tag that no longer matches still fails.
#[test]
fn crlf_and_trailing_blanks_are_plain_line_ends() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let a = d.write("a", b"alpha");
    let b = d.write("b", b"beta");
    let sums = ok(&run(&["tag", "hash127-aes", "--key-file", &k, &a, &b]));
    let crlf = d.write("SUMS.crlf", sums.replace('\n', "\r\n").as_bytes());
    assert_eq!(ok(&run(&["verify", "--key-file", &k, &crlf])), format!("{a}: OK\n{b}: OK\n"));
    // The same key file in each lenient form: refused, the place named.
    let text = std::fs::read_to_string(&k).unwrap();
    let hex_line = text.lines().nth(1).unwrap().to_string();
    let first_letter = hex_line.bytes().position(|c| c.is_ascii_alphabetic());
    let mut forms = vec![
        ("k.crlf", text.replace('\n', "\r\n"), "line 1, byte 23: a carriage return; key files end each line with a bare newline".to_string()),
        ("k.blank", text.replacen('\n', " \n", 1), "line 1, byte 23: a blank at the end of the line; key files hold none".to_string()),
        ("k.tab", text.replace(&format!("{hex_line}\n"), &format!("{hex_line}\t\n")), "line 2, byte 65: a blank at the end of the line".to_string()),
        ("k.mac", text.replace("unimac-key hash127-aes", "unimac-key mac-hash127-aes"), "line 1, byte 12: the MAC's name with 'mac-'".to_string()),
    ];
    if let Some(j) = first_letter {
        forms.push((
            "k.upper",
            text.replace(&hex_line, &hex_line.to_uppercase()),
            format!("line 2, byte {}: upper-case hex; key files are written in lower-case hex", j + 1),
        ));
    }
    for (name, body, want) in forms {
        let f = d.write(name, body.as_bytes());
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        for args in [vec!["verify", "--key-file", &f, &crlf], vec!["tag", "hash127-aes", "--key-file", &f, &a]] {
            let o = run(&args);
            assert_error(&o, &format!("key file {f}: {want}"));
        }
    }
    // Without its final newline the key file is still the key (docs/WIRE.md 9.1).
    let bare_end = d.write("k.noeol", text.trim_end().as_bytes());
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bare_end, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    assert_eq!(ok(&run(&["verify", "--key-file", &bare_end, &crlf])), format!("{a}: OK\n{b}: OK\n"));
    // A changed file still fails under CRLF lines.
    std::fs::write(&b, b"gamma").unwrap();
    let o = run(&["verify", "--key-file", &k, &crlf]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("{a}: OK\n{b}: FAILED\n"));
    // Blanks inside a line are not trimmed away: a key with a space in its hex is refused.
    let lines: Vec<&str> = text.lines().collect();
    let broken = format!("{}\n{} {}\n", lines[0], &lines[1][..10], &lines[1][10..]);
    let broken = d.write("k.broken", broken.as_bytes());
    assert!(!run(&["verify", "--key-file", &broken, &crlf]).status.success());
}

/// `tag --key-file K FILE` without the MAC's name takes it from the key
/// file, as `verify` does; an argument that is neither the key file's MAC
/// nor a file is a missing file (as sha256sum).
#[test]
fn tag_takes_the_mac_from_the_key_file() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let a = d.write("a", b"alpha");
    let b = d.write("b", b"beta");
    let named = ok(&run(&["tag", "hash127-aes", "--key-file", &k, &a, &b]));
    assert_eq!(ok(&run(&["tag", "--key-file", &k, &a, &b])), named);
    let o = run(&["tag", "--key-file", &k, &d.s("no-such-file")]);
    assert_error(&o, "no-such-file: No such file or directory");
    assert_eq!(o.status.code(), Some(1));
}

/// Argument errors are one line naming the problem, exit 2, nothing on
/// stdout; counts and sizes take the forms README writes (2^32, 1MiB, 1e6).
#[test]
fn argument_errors_are_one_line_and_counts_read_as_written() {
    assert_error(&run(&["tag"]), "required arguments were not provided");
    assert_error(&run(&["--no-such-option"]), "unexpected argument");
    assert_error(&run(&["bound", "hash127-aes", "--max-bytes", "1ZB"]), "unknown unit");
    assert_error(&run(&["bound", "hash127-aes", "--max-bytes", "2^64"]), "more than 2^64");
    let a = ok(&run(&["bound", "hash127-aes", "--max-bytes", "1MiB", "--tags", "2^32", "--forgeries", "2^32"]));
    let b = ok(&run(&["bound", "hash127-aes", "--max-bytes", "1048576", "--tags", "4294967296", "--forgeries", "4294967296"]));
    assert_eq!(a, b);
    assert!(a.contains("L = 1048576 bytes") && a.contains("C = 4294967296"), "{a}");
    let c = ok(&run(&["bound", "hash127-aes", "--max-bytes", "1e6"]));
    assert!(c.contains("L = 1000000 bytes"), "{c}");
}

/// A check file of another format is summed up, as sha256sum does: the
/// first three improperly formatted lines named, then a count; --warn names
/// every one.
#[test]
fn improperly_formatted_lines_are_summed_up() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let a = d.write("a", b"alpha");
    let good = ok(&run(&["tag", "hash127-aes", "--key-file", &k, &a]));
    let other: String = (0..500).map(|i| format!("{i:064x}  file{i}\n")).collect();
    let sums = d.write("SUMS", format!("{good}{other}").as_bytes());
    let o = run(&["verify", "--key-file", &k, &sums]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), format!("{a}: OK\n"));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 5, "{e}");
    assert!(e.contains("counted, not shown") && e.contains("WARNING: 500 lines are improperly formatted"), "{e}");
    let o = run(&["verify", "--warn", "--key-file", &k, &sums]);
    assert_eq!(stderr(&o).lines().filter(|l| l.contains(": improperly formatted hash127-aes line")).count(), 500);
}

/// keygen says at once, on stderr, when tag will call the MAC weak; the
/// key is still made (stdout or the file), and a strong MAC gets no warning.
#[test]
fn keygen_warns_of_a_weak_mac() {
    let o = run(&["keygen", "umac64"]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("unimac-key umac64\n"));
    assert!(stderr(&o).contains("umac64 is weak") && stderr(&o).contains("--allow-weak"), "{}", stderr(&o));
    let o = run(&["keygen", "umac128"]);
    assert!(o.status.success() && o.stderr.is_empty(), "{}", stderr(&o));
}

// ---------------------------------------------------------------- trees, -z, terminals

/// `run` that gives up (and fails the test) after `secs` seconds instead of
/// hanging.
fn run_within<S: AsRef<std::ffi::OsStr>>(secs: u64, args: &[S]) -> Output {
    let mut c = spawn_piped(args);
    let t = Instant::now();
    while c.try_wait().unwrap().is_none() {
        if t.elapsed() > Duration::from_secs(secs) {
            let _ = c.kill();
            panic!("still running after {secs} s: {:?}", args.iter().map(|a| a.as_ref().to_owned()).collect::<Vec<_>>());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    c.wait_with_output().unwrap()
}

/// Under -r: a named pipe, a socket, and links leading outside the tree (to
/// /dev/null, to a directory, an absolute one) are skipped with a one-line
/// warning each, never opened (a pipe would wait forever); a link to a
/// directory inside is not followed and is no error; a link to a regular
/// file inside is tagged.
#[cfg(unix)]
#[test]
fn tag_r_skips_pipes_sockets_devices_and_linked_directories() {
    use std::os::unix::fs::symlink;
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    fs::create_dir_all(d.p("t/sub")).unwrap();
    fs::create_dir_all(d.p("elsewhere")).unwrap();
    d.write("t/a", b"a");
    d.write("t/sub/b", b"b");
    d.write("elsewhere/c", b"c");
    let made = Command::new("mkfifo").arg(d.p("t/fifo")).status().unwrap();
    assert!(made.success());
    let _sock = std::os::unix::net::UnixListener::bind(d.p("t/sock")).unwrap();
    symlink("/dev/null", d.p("t/dev")).unwrap();
    symlink("sub", d.p("t/linkdir")).unwrap();
    symlink(d.p("elsewhere"), d.p("t/outdir")).unwrap();
    symlink("a", d.p("t/linkfile")).unwrap();
    // An absolute link is refused even when it names a file inside.
    symlink(d.p("t/a"), d.p("t/abslink")).unwrap();
    let o = run_within(60, &["tag", "hash127-aes", "--key-file", &k, "-r", &d.s("t")]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names: Vec<String> = stdout(&o)
        .lines()
        .map(|l| l.split_once("  ").unwrap().1.to_string())
        .collect();
    assert_eq!(names, [d.s("t/a"), d.s("t/linkfile"), d.s("t/sub/b")]);
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 5, "{e}");
    let outside = "a symbolic link leading outside the tree";
    for (what, name) in [("named pipe", "t/fifo"), ("socket", "t/sock"), (outside, "t/dev"), (outside, "t/outdir"), (outside, "t/abslink")] {
        assert!(
            e.lines().any(|l| l.contains("warning") && l.contains(what) && l.contains(&d.s(name))),
            "{what}: {e}"
        );
    }
    assert!(!e.contains("linkdir"), "{e}");
    // The link to a file has the file's tag.
    let tag_of = |n: usize| stdout(&o).lines().nth(n).unwrap().split_once("  ").unwrap().0.to_string();
    assert_eq!(tag_of(0), tag_of(1));
}

/// `tag -z`: lines end in NUL and names are not escaped (sha256sum -z);
/// `verify -z` reads them.
#[cfg(unix)]
#[test]
fn zero_terminated_lines_round_trip() {
    use std::os::unix::ffi::OsStrExt;
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let odd = d.0.join(std::ffi::OsStr::from_bytes(b"new\nline\\back"));
    fs::write(&odd, b"x").unwrap();
    let plain = d.write("plain", b"y");
    for bsd in [false, true] {
        let mut args: Vec<std::ffi::OsString> =
            ["tag", "hash127-aes", "--key-file", &k, "-z"].iter().map(Into::into).collect();
        if bsd {
            args.push("--tag".into());
        }
        args.push(odd.clone().into());
        args.push(plain.clone().into());
        let o = bin().args(&args).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let out = o.stdout.clone();
        assert_eq!(out.iter().filter(|&&c| c == 0).count(), 2);
        assert_eq!(out.last(), Some(&0));
        assert!(!out.starts_with(b"\\"), "no escaping with -z");
        assert!(out.windows(odd.as_os_str().len()).any(|w| w == odd.as_os_str().as_bytes()));
        let sums = d.p(if bsd { "SUMS0-bsd" } else { "SUMS0" });
        fs::write(&sums, &out).unwrap();
        let v = ok(&run(&["verify".as_ref(), "-z".as_ref(), "--key-file".as_ref(), k.as_ref(), sums.as_os_str()]));
        assert_eq!(v.matches(": OK").count(), 2, "{v}");
        // A changed file fails.
        fs::write(&plain, b"z").unwrap();
        let o = run(&["verify".as_ref(), "-z".as_ref(), "--key-file".as_ref(), k.as_ref(), sums.as_os_str()]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stdout(&o).contains(": FAILED"));
        fs::write(&plain, b"y").unwrap();
    }
}

/// Nothing from a check line or a name reaches the terminal raw: control
/// bytes are shown as \xNN; and no message carries " (os error N)".
#[cfg(unix)]
#[test]
fn verify_escapes_control_bytes_and_drops_os_error_numbers() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let t = "00".repeat(16);
    let lines = format!(
        "{t}  {dir}/gone\x1b[31mred\x07\n{t}  {dir}/nul\x1b]0;title\x07\nwc\x1bx (f) = {t}\n",
        dir = d.path().display()
    );
    let sums = d.write("SUMS\x1b[2J", lines.as_bytes());
    let o = run(&["verify", "--key-file", &k, &sums]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    for (what, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
        assert!(
            !bytes.iter().any(|&c| c < 0x20 && c != b'\n' || c == 0x7f),
            "{what} has a raw control byte: {:?}",
            String::from_utf8_lossy(bytes)
        );
    }
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(out.contains("gone\\x1b[31mred\\x07: FAILED open or read"), "{out}");
    assert!(err.contains("SUMS\\x1b[2J"), "{err}");
    assert!(err.contains("made by wc\\x1bx"), "{err}");
    assert!(!err.contains("os error"), "{err}");
    // One-line errors: never Rust's os error suffix.
    for args in [
        vec!["verify", "--key-file", &k, "/nonexistent/SUMS"],
        vec!["verify", "--key-file", "/nonexistent/k", &sums],
        vec!["tag", "hash127-aes", "--key-file", "/nonexistent/k", &sums],
        vec!["check-vectors", "/nonexistent/v.json"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&o).contains("os error"), "{}", stderr(&o));
        assert!(stderr(&o).contains("No such file"), "{}", stderr(&o));
    }
}

/// A modp key file given to verify or tag: what it is for, not "unknown name".
#[test]
fn a_modp_key_file_is_for_check_identity() {
    let d = Dir::unique("op-test");
    let p = d.keygen("modp", "p.key");
    let f = d.write("f", b"x");
    let sums = d.write("SUMS", format!("{}  {f}\n", "00".repeat(16)).as_bytes());
    for args in [
        vec!["verify", "--key-file", &p, &sums],
        vec!["tag", "--key-file", &p, &f],
        vec!["tag", "modp", "--key-file", &p, &f],
    ] {
        let o = run(&args);
        assert_error(&o, "modp key files check identities, not tags (unimac check-identity)");
        assert!(!stderr(&o).contains("unknown name"), "{}", stderr(&o));
    }
}

/// `list` names its units: sizes in bytes, the bound as log2; the
/// recommended MAC says why when others show smaller bounds.
#[test]
fn list_labels_its_units_and_explains_the_recommendation() {
    let list = ok(&run(&["list", "--long"]));
    let headers: Vec<&str> = list.lines().filter(|l| l.starts_with("NAME")).collect();
    assert_eq!(headers.len(), 2, "{list}");
    for h in ["KEY(bytes)", "NONCE(bytes)", "TAG(bytes)", "log2(BOUND)"] {
        assert!(headers[0].contains(h), "{}", headers[0]);
    }
    for h in ["KEY(bytes)", "NONCE(bytes)", "OUTPUT(bytes)"] {
        assert!(headers[1].contains(h), "{}", headers[1]);
    }
    let row = |n: &str| list.lines().find(|l| l.starts_with(&format!("{n} "))).unwrap().to_string();
    // TAG in bytes, like KEY and NONCE.
    let cols: Vec<String> = row("hash127-aes").split_whitespace().map(str::to_string).collect();
    assert_eq!(&cols[1..5], ["32", "-", "16", "-44"]);
    let rec = row("hash127-aes");
    assert!(rec.contains("RECOMMENDED") && rec.contains("stateless") && rec.contains("smaller bounds"), "{rec}");
    assert!(list.contains("unimac advise"), "{list}");
}

/// `advise` measures this machine and names a MAC whose bound meets the
/// use (speeds are not asserted).
#[test]
fn advise_names_a_mac_that_meets_the_use() {
    for args in [
        vec!["advise"],
        vec!["advise", "--max-bytes", "64", "--tags", "2^20", "--forgeries", "1e6"],
        vec!["advise", "--max-bytes", "1GiB"],
    ] {
        let out = ok(&run(&args));
        let line = out.lines().find(|l| l.starts_with("Use ")).unwrap_or_else(|| panic!("{out}"));
        let name = line["Use ".len()..].split(':').next().unwrap().to_string();
        assert!(line.contains("GiB/s") && line.contains("forgery bound 2^-"), "{line}");
        assert!(out.lines().any(|l| l.starts_with("Why: ")), "{out}");
        // The named MAC's bound for the use, as `bound` computes it.
        let max = args.iter().position(|a| *a == "--max-bytes").map_or("1MiB", |i| args[i + 1]);
        let mut b = vec!["bound", &name, "--max-bytes", max, "--json"];
        if let Some(i) = args.iter().position(|a| *a == "--tags") {
            b.extend(["--tags", args[i + 1]]);
        } else {
            b.extend(["--tags", if max == "1GiB" { "2^22" } else { "2^32" }]);
        }
        let f = args.iter().position(|a| *a == "--forgeries").map_or("2^32", |i| args[i + 1]);
        b.extend(["--forgeries", f]);
        let v: serde_json::Value = serde_json::from_str(ok(&run(&b)).trim()).unwrap();
        assert!(v["bound_log2"].as_f64().unwrap() <= -32.0, "{name}: {v}");
        assert!(!["hash127", "hash127-96"].contains(&name.as_str()), "one-time MAC advised");
    }
}

/// Shell completions and the manual page come from the argument parser.
#[test]
fn completions_and_manual_page() {
    for shell in ["bash", "zsh", "fish"] {
        let out = ok(&run(&["completions", shell]));
        assert!(out.len() > 100 && out.contains("verify") && out.contains("advise"), "{shell}");
    }
    let man = ok(&run(&["manpage"]));
    assert!(man.starts_with(".ie") || man.contains(".TH"), "{}", &man[..200.min(man.len())]);
    assert!(man.contains("verify") && man.contains("UNIMAC VERIFY") && man.contains("zero"));
    assert_error(&run(&["completions", "tcsh"]), "tcsh");
}

/// On a terminal `tag` shows one progress line (bytes and files of the
/// whole run), cleared at the end; never when stderr is not a terminal.
#[cfg(target_os = "linux")]
#[test]
fn progress_only_on_a_terminal() {
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let big: Vec<u8> = vec![7u8; 32 << 20];
    let a = d.write("a", &big);
    let b = d.write("b", &big);
    // Not a terminal: stderr stays empty.
    assert_eq!(ok(&run(&["tag", "hash127-aes", "--key-file", &k, &a, &b])).lines().count(), 2);
    // A terminal (util-linux script), when there is one to make.
    let cmd = format!("{} tag hash127-aes --key-file {k} {a} {b}", env!("CARGO_BIN_EXE_unimac"));
    let Ok(o) = Command::new("script").args(["-qec", &cmd, "/dev/null"]).stdin(Stdio::null()).output() else {
        return;
    };
    if !o.status.success() {
        return;
    }
    let tty = String::from_utf8_lossy(&o.stdout);
    assert!(tty.contains("files"), "no progress line: {tty:?}");
    assert_eq!(tty.matches(&*a).count(), 1, "{tty:?}");
    assert_eq!(tty.matches(&*b).count(), 1, "{tty:?}");
}

/// A tag line is out as soon as its file is done, before a slow file after
/// it is read: the second "file" is a FIFO whose writer waits to see the
/// first line on tag's stdout (a pipe) before it writes and closes.
#[test]
fn each_line_is_out_before_a_slow_file_is_read() {
    use std::io::{BufRead, Write};
    let d = Dir::unique("op-test");
    let k = d.keygen("hash127-aes", "k");
    let a = d.write("a", b"alpha");
    let fifo = d.s("slow");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let mut child = bin()
        .args(["tag", "hash127-aes", "--key-file", &k, &a, &fifo])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    // The first line arrives while tag is still waiting on the FIFO.
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        tx.send(first).unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
        rest
    });
    let first = rx.recv_timeout(std::time::Duration::from_secs(20));
    // Release the FIFO whatever happened, so the child ends.
    let mut w = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    w.write_all(b"slow data").unwrap();
    drop(w);
    let first = first.expect("the first line was not printed before the slow file was read");
    assert!(first.ends_with(&format!("  {a}\n")), "{first}");
    let rest = reader.join().unwrap();
    assert!(rest.ends_with(&format!("  {fifo}\n")), "{rest}");
    assert!(child.wait().unwrap().success());
}
