//! Big files through the CLI: a memory-mapped file fed in windows by a helper
//! thread (src/input.rs) gives the same output as the same bytes on stdin
//! (read in 1 MiB buffers) and as the library's one-shot computation.

use std::fs;
use std::io::Write;
use std::process::{Command, Output, Stdio};

use unimac::registry::{self, Params};

mod common;
use common::{bytes, TempDir};

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_unimac"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn unimac");
    if let Some(input) = stdin {
        let mut pipe = c.stdin.take().expect("stdin");
        // Written from another thread: the child may fill its stdout first.
        let data = input.to_vec();
        let w = std::thread::spawn(move || pipe.write_all(&data));
        let out = c.wait_with_output().expect("wait");
        w.join().expect("writer").expect("write stdin");
        return out;
    }
    c.wait_with_output().expect("wait")
}

fn ok_line(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone())
        .expect("utf-8")
        .trim_end()
        .to_string()
}


#[test]
fn big_files_equal_stdin_and_one_shot() {
    let dir = TempDir(std::env::temp_dir().join(format!("unimac-big-{}", std::process::id())));
    fs::create_dir_all(&dir.0).expect("temp dir");
    let key32 = bytes(32, 7);
    let key16 = &key32[..16];
    let nonce = bytes(16, 9);
    let (k32, k16, n16) = (hex::encode(&key32), hex::encode(key16), hex::encode(&nonce));
    // Below the windowed size, just at it, and past the ramp of windows
    // (4, 8, 16, 32 MiB ...) with tails that are not whole words or blocks.
    for (len, seed) in [
        ((1 << 20) + 5, 1u64),
        ((16 << 20) + 4097, 2),
        ((45 << 20) + 3, 3),
    ] {
        let data = bytes(len, seed);
        let path = dir.0.join(format!("m{len}"));
        fs::write(&path, &data).expect("write file");
        let file = path.to_str().expect("utf-8 path");
        // hash127's value is a one-time MAC's tag: a known answer only
        // (--known-answer, the library's known_answer); a nonce needs the
        // caller's word that it never repeats.
        let cases: [(&str, &str, Option<&str>, &[u8]); 4] = [
            ("hash127", &k32, None, &key32),
            ("tree-mmh32x2", &k16, None, key16),
            ("mac-hash127-aes", &k32, None, &key32),
            ("mac-wc-mmh32x2", &k32, Some(&n16), &key32),
        ];
        for (name, khex, nhex, key) in cases {
            let one_time = unimac::macs::one_time_row(name).is_some();
            let mut args = vec!["compute", name, "--key", khex];
            if one_time {
                args.push("--known-answer");
            }
            if let Some(n) = nhex {
                args.extend(["--nonce", n, "--caller-manages-nonces"]);
            }
            let p = Params {
                key,
                nonce: nhex.map(|_| nonce.as_slice()),
                len: None,
            };
            let want = if one_time {
                registry::known_answer(name, &p, &data)
            } else {
                registry::compute(name, &p, &data)
            };
            let want = hex::encode(want.expect("library"));
            let mut with_file = args.clone();
            with_file.push(file);
            assert_eq!(
                ok_line(&run(&with_file, None)),
                want,
                "{name}, {len} bytes, file"
            );
            let mut with_dash = args.clone();
            with_dash.push("-");
            assert_eq!(
                ok_line(&run(&with_dash, Some(&data))),
                want,
                "{name}, {len} bytes, stdin"
            );
        }
    }
}

/// `--threads N` (before or after the subcommand) changes nothing but the
/// speed: 1, 2 and every core give the library's one-shot result (hash127's
/// value as a known answer; mac-hash127-aes streams hash127 through the
/// threads).
#[test]
fn threads_option_gives_the_same_results() {
    let dir = TempDir(std::env::temp_dir().join(format!("unimac-threads-{}", std::process::id())));
    fs::create_dir_all(&dir.0).expect("temp dir");
    let data = bytes((9 << 20) + 13, 21);
    let path = dir.0.join("m");
    fs::write(&path, &data).expect("write file");
    let file = path.to_str().expect("utf-8 path");
    let key = bytes(32, 22);
    for (name, key) in [
        ("hash127", &key[..]),
        ("mac-hash127-aes", &key[..]),
        ("eval64", &key[..8]),
        ("tree-mmh32x2", &key[..16]),
    ] {
        let khex = hex::encode(key);
        let p = Params { key, nonce: None, len: None };
        let one_time = unimac::macs::one_time_row(name).is_some();
        let want = if one_time {
            registry::known_answer(name, &p, &data)
        } else {
            registry::compute(name, &p, &data)
        };
        let want = hex::encode(want.expect("library"));
        let ka: &[&str] = if one_time { &["--known-answer"] } else { &[] };
        for t in ["1", "2", "0"] {
            let before = ok_line(&run(
                &[&["--threads", t, "compute", name, "--key", &khex][..], ka, &[file]].concat(),
                None,
            ));
            let after = ok_line(&run(
                &[&["compute", name, "--key", &khex, "--threads", t][..], ka, &[file]].concat(),
                None,
            ));
            assert!(before.contains(&want), "{name} --threads {t}: {before} vs {want}");
            assert_eq!(before, after, "{name}: --threads before and after the subcommand");
        }
    }
    let bad = run(&["--threads", "x", "list"], None);
    assert!(!bad.status.success());
    // Without --known-answer, hash127's one-time value is refused whatever
    // the threads.
    let o = run(&["--threads", "2", "compute", "hash127", "--key", &hex::encode(&key), file], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("one-time"));
}
