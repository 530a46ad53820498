//! A new user's first steps, each with its exact message and exit status:
//! `advise` giving one answer on a busy machine, streams refusing to
//! write binary to a terminal (tested on a real pseudo-terminal), manifests
//! that travel (a pipe, `-o`, `--root`, a missing root), the defaults of
//! `keygen` and `bound`, `-r` as one flag everywhere, and the `--hold`
//! message.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::{bin, run, run_in, skipped};

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

/// `advise` five times while every core is kept busy (spinning threads of
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
    // Three runs, while a spinner keeps every core busy: the spinners' CPU
    // time is most of this test's cost (ten runs took 26 s of CPU, five 11 s).
    let outs: Vec<String> = (0..3).map(|_| text(&run(&["advise"]).stdout)).collect();
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

// ---------------------------------------------------------------- streams

/// The program a pseudo-terminal test runs (python3's `pty`): `unimac
/// ARGS` with its standard output a new pseudo-terminal, stdin from the
/// file named by $STDIN (or /dev/null); prints the exit status, then
/// stderr, then the bytes that reached the terminal, as JSON.
const ON_A_TTY: &str = r#"
import json, os, pty, select, subprocess, sys
master, slave = pty.openpty()
src = open(os.environ.get("STDIN", os.devnull), "rb")
p = subprocess.Popen(sys.argv[1:], stdin=src, stdout=slave, stderr=subprocess.PIPE)
os.close(slave)
got = b""
while True:
    r, _, _ = select.select([master], [], [], 0.2)
    if r:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
    elif p.poll() is not None:
        break
err = p.stderr.read()
p.wait()
print(json.dumps({"rc": p.returncode, "stderr": err.decode("utf-8", "replace"), "tty": len(got)}))
"#;

/// `unimac ARGS` (in `dir`) with stdout a pseudo-terminal: exit status,
/// stderr, and the number of bytes that reached the terminal; `None` when
/// there is no python3 to open one (the caller says SKIPPED).
fn on_a_tty(dir: &Path, args: &[&str], stdin: Option<&Path>) -> Option<(i64, String, u64)> {
    let mut c = std::process::Command::new("python3");
    c.arg("-c").arg(ON_A_TTY).arg(env!("CARGO_BIN_EXE_unimac")).args(args).current_dir(dir);
    if let Some(s) = stdin {
        c.env("STDIN", s);
    }
    let o = c.output().ok()?;
    if !o.status.success() {
        panic!("the pty helper failed: {}", text(&o.stderr));
    }
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    Some((v["rc"].as_i64().unwrap(), v["stderr"].as_str().unwrap().to_string(), v["tty"].as_u64().unwrap()))
}

/// `stream` and `stream --verify` (with and without `--hold`) refuse a
/// terminal as standard output: one line, exit 2, not a byte written to
/// it; `--force-tty` writes all the same. On a real pseudo-terminal.
#[test]
fn stream_refuses_a_terminal() {
    let d = scratch("tty");
    assert!(run_in(&d, &["keygen", "hash127-aes", "-o", "K"]).status.success());
    std::fs::write(d.join("data"), b"payload\n").unwrap();
    let o = run_in(&d, &["stream", "-k", "K", "data"]);
    assert!(o.status.success());
    std::fs::write(d.join("S"), &o.stdout).unwrap();
    let framing = "unimac: standard output is a terminal: not writing a binary stream to it; redirect it to a file or a pipe, or give --force-tty\n";
    let payload = "unimac: standard output is a terminal: not writing the payload (it may be binary) to it; redirect it to a file or a pipe, or give --force-tty\n";
    let cases: [(&[&str], Option<&str>, &str); 4] = [
        (&["stream", "-k", "K", "data"], None, framing),
        (&["stream", "-k", "K"], Some("data"), framing),
        (&["stream", "--verify", "-k", "K", "S"], None, payload),
        (&["stream", "--verify", "--hold", "-k", "K"], Some("S"), payload),
    ];
    for (args, stdin, want) in cases {
        let Some((rc, err, tty)) = on_a_tty(&d, args, stdin.map(|s| d.join(s)).as_deref()) else {
            skipped("", "no python3 to open a pseudo-terminal");
            return;
        };
        assert_eq!((rc, err.as_str(), tty), (2, want, 0), "{args:?}");
    }
    // Asked for: written.
    let (rc, err, tty) = on_a_tty(&d, &["stream", "--force-tty", "-k", "K", "data"], None).unwrap();
    assert_eq!((rc, err.as_str()), (0, ""));
    assert!(tty > 0, "nothing reached the terminal");
    let (rc, err, tty) = on_a_tty(&d, &["stream", "--verify", "--force-tty", "-k", "K", "S"], None).unwrap();
    assert_eq!((rc, err.as_str()), (0, ""));
    assert!(tty >= 8, "the payload did not reach the terminal ({tty} bytes)");
    // -o FILE: nothing to the terminal, the file written.
    let (rc, err, tty) = on_a_tty(&d, &["stream", "-k", "K", "-o", "S2", "data"], None).unwrap();
    assert_eq!((rc, err.as_str(), tty), (0, "", 0));
    assert_eq!(std::fs::read(d.join("S2")).unwrap().len(), std::fs::read(d.join("S")).unwrap().len());
    let _ = std::fs::remove_dir_all(&d);
}

/// `stream -o FILE` and `stream --verify -o FILE`: the file appears whole,
/// or not at all (a stream that fails to verify, an existing FILE, a
/// missing directory), each refusal one line with its exit status.
#[test]
fn stream_output_files_are_whole_or_absent() {
    let d = scratch("out");
    assert!(run_in(&d, &["keygen", "hash127-aes", "-o", "K"]).status.success());
    let data: Vec<u8> = (0..700_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(d.join("data"), &data).unwrap();
    let o = run_in(&d, &["stream", "-k", "K", "--chunk-size", "64KiB", "-o", "S", "data"]);
    assert_eq!(parts(&o), (Some(0), String::new(), String::new()));
    let piped = run_in(&d, &["stream", "-k", "K", "--chunk-size", "64KiB", "data"]);
    assert_eq!(std::fs::read(d.join("S")).unwrap().len(), piped.stdout.len());
    for hold in [false, true] {
        let mut args = vec!["stream", "--verify", "-k", "K", "-o", "back", "S"];
        if hold {
            args.insert(2, "--hold");
        }
        assert_eq!(parts(&run_in(&d, &args)), (Some(0), String::new(), String::new()));
        assert_eq!(std::fs::read(d.join("back")).unwrap(), data);
        std::fs::remove_file(d.join("back")).unwrap();
    }
    // A changed byte in the eighth chunk: exit 1, and no file at all.
    let mut bad = std::fs::read(d.join("S")).unwrap();
    let at = bad.len() - 200_000;
    bad[at] ^= 1;
    std::fs::write(d.join("bad"), &bad).unwrap();
    let o = run_in(&d, &["stream", "--verify", "-k", "K", "-o", "back", "bad"]);
    let (rc, err, out) = parts(&o);
    assert_eq!((rc, out.as_str()), (Some(1), ""));
    assert!(err.starts_with("unimac: stream: chunk ") && err.ends_with("nothing of it was released\n"), "{err}");
    assert!(!d.join("back").exists(), "a partial payload was left");
    // An existing FILE is refused before anything is read; a missing
    // directory is one line.
    let o = run_in(&d, &["stream", "-k", "K", "-o", "S", "data"]);
    assert_eq!(parts(&o), (Some(2), "unimac: stream S already exists; not overwriting it\n".into(), String::new()));
    let o = run_in(&d, &["stream", "-k", "K", "-o", "no/S", "data"]);
    assert_eq!(parts(&o), (Some(2), "unimac: cannot write stream no/S: No such file or directory\n".into(), String::new()));
    let names: Vec<String> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.contains("unimac-tmp")), "a temporary file was left: {names:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--hold` says "nothing was released" once, with the reason.
#[test]
fn hold_says_nothing_was_released_once() {
    let d = scratch("hold");
    assert!(run_in(&d, &["keygen", "hash127-aes", "-o", "K"]).status.success());
    std::fs::write(d.join("S"), b"UNIMAC-S").unwrap();
    let o = run_in(&d, &["stream", "--verify", "--hold", "-k", "K", "S"]);
    assert_eq!(
        parts(&o),
        (Some(1), "unimac: stream: the stream ended inside its header; nothing was released (--hold)\n".into(), String::new())
    );
    // A chunk that fails: the receiver's "nothing of it" becomes the
    // hold's "nothing", once.
    std::fs::write(d.join("data"), vec![7u8; 3000]).unwrap();
    let mut s = run_in(&d, &["stream", "--chunk-size", "1000", "-k", "K", "data"]).stdout;
    let n = s.len();
    s[n - 20] ^= 1;
    std::fs::write(d.join("S2"), &s).unwrap();
    let o = run_in(&d, &["stream", "--verify", "--hold", "-k", "K", "S2"]);
    let (rc, err, out) = parts(&o);
    assert_eq!((rc, out.as_str()), (Some(1), ""));
    assert_eq!(err.matches("nothing").count(), 1, "{err}");
    assert!(err.ends_with("; nothing was released (--hold)\n"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------- manifests

/// A tree: `tree/a`, `tree/s/b`, a key `K`, and `out/`.
fn tree(tag: &str) -> PathBuf {
    let d = scratch(tag);
    std::fs::create_dir_all(d.join("tree/s")).unwrap();
    std::fs::create_dir_all(d.join("out")).unwrap();
    std::fs::write(d.join("tree/a"), b"alpha\n").unwrap();
    std::fs::write(d.join("tree/s/b"), b"beta\n").unwrap();
    assert!(run_in(&d, &["keygen", "hash127-aes", "-o", "K"]).status.success());
    d
}

/// `seal -r tree | cat > out/M`: the manifest's place is unknown, its
/// root is recorded absolute, and `verify out/M` checks the tree (from any
/// directory).
#[test]
fn a_manifest_through_a_pipe_verifies() {
    let d = tree("pipe");
    let o = run_in(&d, &["seal", "-k", "K", "-r", "tree"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Standard output was a pipe: the test's.
    std::fs::write(d.join("out/M"), &o.stdout).unwrap();
    let abs = std::fs::canonicalize(d.join("tree")).unwrap();
    assert_eq!(text(&o.stdout).lines().nth(1).unwrap(), format!("root {}", abs.display()));
    let o = run_in(&d, &["verify", "-k", "K", "out/M"]);
    let want = format!("manifest: SEAL OK\n{0}/a: OK\n{0}/s/b: OK\n", abs.display());
    assert_eq!(parts(&o), (Some(0), String::new(), want.clone()));
    let o = run_in(&d.join("out"), &["verify", "-k", "../K", "M"]);
    assert_eq!(parts(&o), (Some(0), String::new(), want));
    // A list of files too: `base` absolute.
    let o = run_in(&d, &["seal", "-k", "K", "tree/a"]);
    let cwd = std::fs::canonicalize(&d).unwrap();
    assert_eq!(text(&o.stdout).lines().nth(1).unwrap(), format!("base {}", cwd.display()));
    // `-o` and `> FILE` as before: relative to the manifest's directory.
    assert!(run_in(&d, &["seal", "-k", "K", "-r", "tree", "-o", "out/M2"]).status.success());
    assert_eq!(std::fs::read_to_string(d.join("out/M2")).unwrap().lines().nth(1).unwrap(), "root ../tree");
    let f = std::fs::File::create(d.join("out/M3")).unwrap();
    let o = bin().args(["seal", "-k", "K", "-r", "tree"]).current_dir(&d).stdout(f).output().unwrap();
    assert!(o.status.success());
    assert_eq!(std::fs::read_to_string(d.join("out/M3")).unwrap().lines().nth(1).unwrap(), "root ../tree");
    let _ = std::fs::remove_dir_all(&d);
}

/// A missing root is one error line, exit 2, nothing checked; `--root DIR`
/// checks the tree where it is now (files added under it found).
#[test]
fn verify_root_elsewhere_and_a_missing_root() {
    let d = tree("root");
    assert!(run_in(&d, &["seal", "-k", "K", "-r", "tree", "-o", "out/M"]).status.success());
    std::fs::rename(d.join("tree"), d.join("restored")).unwrap();
    let o = run_in(&d, &["verify", "-k", "K", "out/M"]);
    assert_eq!(
        parts(&o),
        (
            Some(2),
            "unimac: root out/../tree: no such directory (the sealed tree, where the manifest records it from its own directory); nothing was checked: to check the tree where it is now, give --root DIR\n".into(),
            String::new()
        )
    );
    let o = run_in(&d, &["verify", "-k", "K", "--root", "restored", "out/M"]);
    assert_eq!(parts(&o), (Some(0), String::new(), "manifest: SEAL OK\nrestored/a: OK\nrestored/s/b: OK\n".into()));
    std::fs::write(d.join("restored/new"), b"x").unwrap();
    std::fs::write(d.join("restored/a"), b"changed\n").unwrap();
    let o = run_in(&d, &["verify", "-k", "K", "--root", "restored", "out/M"]);
    let (rc, _, out) = parts(&o);
    assert_eq!((rc, out.as_str()), (Some(1), "manifest: SEAL OK\nrestored/a: CHANGED\nrestored/s/b: OK\nrestored/new: ADDED\n"));
    // A root that is a file now: one line too.
    std::fs::write(d.join("tree"), b"").unwrap();
    let o = run_in(&d, &["verify", "-k", "K", "out/M"]);
    assert_eq!(parts(&o).0, Some(2));
    assert_eq!(text(&o.stderr), "unimac: root out/../tree: not a directory now; nothing was checked\n");
    // --root is for a manifest.
    let o = run_in(&d, &["tag", "-k", "K", "restored/s/b"]);
    std::fs::write(d.join("SUMS"), &o.stdout).unwrap();
    let o = run_in(&d, &["verify", "-k", "K", "--root", "restored", "SUMS"]);
    assert_eq!(
        parts(&o),
        (Some(2), "unimac: --root applies to one sealed manifest ('unimac seal' output), not to check files\n".into(), String::new())
    );
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------- defaults

/// `keygen` without a name makes a hash127-aes key and says so; `bound
/// NAME` without `--max-bytes` takes 1 MiB and says so.
#[test]
fn keygen_and_bound_defaults() {
    let d = scratch("defaults");
    let o = run_in(&d, &["keygen", "-o", "K"]);
    assert_eq!(
        parts(&o),
        (Some(0), "unimac: keygen: no MAC named: a hash127-aes key (stateless; name another MAC to choose it)\n".into(), String::new())
    );
    assert!(std::fs::read_to_string(d.join("K")).unwrap().starts_with("unimac-key hash127-aes\n"));
    let o = run(&["bound", "hash127-aes"]);
    let (rc, err, out) = parts(&o);
    assert_eq!((rc, err.as_str()), (Some(0), ""));
    assert_eq!(
        out.lines().nth(1).unwrap(),
        "  attack: C = 1 tagged messages, D = 1 forgery attempts, messages of at most L = 1048576 bytes (the default, 1 MiB: --max-bytes not given)"
    );
    let given = text(&run(&["bound", "hash127-aes", "--max-bytes", "1MiB"]).stdout);
    assert!(!given.contains("the default"), "{given}");
    assert_eq!(out.lines().next(), given.lines().next());
    let _ = std::fs::remove_dir_all(&d);
}

/// `-r` is a flag in every command: `seal -r DIR`, `seal DIR -r` and
/// `seal --recursive DIR` are the same; `seal DIR` and `tag DIR` point at
/// `-r`.
#[test]
fn r_is_a_flag_everywhere() {
    let d = tree("flag");
    let mut sealed = Vec::new();
    for args in [&["seal", "-k", "K", "-r", "tree"][..], &["seal", "-k", "K", "tree", "-r"], &["seal", "-k", "K", "--recursive", "tree"]] {
        let o = run_in(&d, args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        sealed.push(text(&o.stdout).lines().take(5).collect::<Vec<_>>().join("\n"));
    }
    assert!(sealed.iter().all(|s| *s == sealed[0]), "{sealed:?}");
    let o = run_in(&d, &["seal", "-k", "K", "tree"]);
    assert_eq!(
        parts(&o),
        (Some(1), "unimac: tree: is a directory: give -r to take the files under it\nunimac: no manifest written\n".into(), String::new())
    );
    let o = run_in(&d, &["tag", "-k", "K", "tree"]);
    assert_eq!(parts(&o), (Some(1), "unimac: tree: is a directory: give -r to take the files under it\n".into(), String::new()));
    let o = run_in(&d, &["seal", "-k", "K", "-r", "tree", "out"]);
    assert_eq!(
        parts(&o),
        (Some(2), "unimac: -r seals one directory: give one, not 2 ('unimac seal -k K -r DIR')\n".into(), String::new())
    );
    let o = run_in(&d, &["seal", "-k", "K", "-r"]);
    assert_eq!(parts(&o), (Some(2), "unimac: -r seals one directory: give it ('unimac seal -k K -r DIR')\n".into(), String::new()));
    let _ = std::fs::remove_dir_all(&d);
}

/// `stream --help` and the manual page say that a stream authenticates
/// and does not encrypt, with the cipher to add; `keygen --help` names its
/// default; `verify --help` has `--root`.
#[test]
fn help_says_what_streams_do_not_do() {
    let help = text(&run(&["stream", "--help"]).stdout);
    assert!(help.contains("A stream AUTHENTICATES and does NOT ENCRYPT"), "{help}");
    assert!(help.contains("'tar c DIR | age -r RECIPIENT | unimac stream -k K > backup.ums'"), "{help}");
    assert!(help.contains("--force-tty"), "{help}");
    let man = text(&run(&["manpage"]).stdout);
    assert!(man.contains("does NOT ENCRYPT"), "the manual page lacks it");
    assert!(text(&run(&["keygen", "--help"]).stdout).contains("Default: hash127-aes"));
    assert!(text(&run(&["verify", "--help"]).stdout).contains("--root <DIR>"));
}
