//! Big files through the CLI: a memory-mapped file fed in windows by a helper
//! thread (src/input.rs) gives the same output as the same bytes on stdin
//! (read in 1 MiB buffers) and as the library's one-shot computation.

use std::fs;
use std::process::{Command, Output, Stdio};

use unimac_front::registry::{self, Params};

use crate::common;
use common::{bytes, ok, run_input as run, run_with as run_key, TempDir, KEY_VAR};

fn ok_line(o: &Output) -> String {
    ok(o).trim_end().to_string()
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
    let sizes = [((1 << 20) + 5, 1u64), ((16 << 20) + 4097, 2), ((45 << 20) + 3, 3)];
    // Written first and settled (read once, as a user's files are: the
    // torn-read tests read files just written).
    for (len, seed) in sizes {
        fs::write(dir.0.join(format!("m{len}")), bytes(len, seed)).expect("write file");
    }
    common::settle(sizes.map(|(len, _)| dir.0.join(format!("m{len}"))));
    for (len, seed) in sizes {
        let data = bytes(len, seed);
        let path = dir.0.join(format!("m{len}"));
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
            let one_time = unimac_front::macs::one_time_row(name).is_some();
            // A published-vector key (--known-answer) on the command line;
            // any other from the environment (--key-env).
            let (mut args, env_key) = if one_time {
                (vec!["compute", name, "--key", khex, "--known-answer"], None)
            } else {
                (vec!["compute", name, "--key-env", KEY_VAR], Some(khex))
            };
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
                ok_line(&run_key(&with_file, env_key, None)),
                want,
                "{name}, {len} bytes, file"
            );
            let mut with_dash = args.clone();
            with_dash.push("-");
            assert_eq!(
                ok_line(&run_key(&with_dash, env_key, Some(&data))),
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
    common::settle([&path]);
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
        let one_time = unimac_front::macs::one_time_row(name).is_some();
        let want = if one_time {
            registry::known_answer(name, &p, &data)
        } else {
            registry::compute(name, &p, &data)
        };
        let want = hex::encode(want.expect("library"));
        // A published-vector key (--known-answer) on the command line; any
        // other from the environment (--key-env).
        let (ka, env_key): (&[&str], _) = if one_time {
            (&["--key", &khex, "--known-answer"], None)
        } else {
            (&["--key-env", KEY_VAR], Some(khex.as_str()))
        };
        for t in ["1", "2", "0"] {
            let before = ok_line(&run_key(&[&["--threads", t, "compute", name][..], ka, &[file]].concat(), env_key, None));
            let after = ok_line(&run_key(&[&["compute", name][..], ka, &["--threads", t, file]].concat(), env_key, None));
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

/// The CLI's read buffer (src/input.rs `BUF`).
const BUF: usize = 1 << 20;

/// `compute --known-answer` streams the message (src/main.rs): for every
/// known-answer name (the one-time MACs, the hash hash127, a random-pair
/// row under its `r || s`), a file and stdin longer than the read buffer
/// give the library's one-shot `known_answer`, with nothing on stderr (a
/// published vector's key on the command line gets no warning).
#[test]
fn known_answers_stream_past_the_read_buffer() {
    let dir = TempDir(std::env::temp_dir().join(format!("unimac-ka-{}", std::process::id())));
    fs::create_dir_all(&dir.0).expect("temp dir");
    for (i, len) in [BUF + 1, 3 * BUF + 5].into_iter().enumerate() {
        let data = bytes(len, 40 + i as u64);
        let path = dir.0.join(format!("m{len}"));
        fs::write(&path, &data).expect("write file");
        let file = path.to_str().expect("utf-8 path");
        for (name, klen, nlen) in [("mac-hash127", 32, 0), ("mac-hash127-96", 48, 0), ("hash127", 32, 0), ("mac-shoup4-eval64", 48, 16)] {
            let key = bytes(klen, 50 + len as u64);
            let nonce = bytes(nlen, 60 + len as u64);
            let p = Params { key: &key, nonce: (nlen > 0).then_some(nonce.as_slice()), len: None };
            let want = hex::encode(registry::known_answer(name, &p, &data).expect("library"));
            let (khex, nhex) = (hex::encode(&key), hex::encode(&nonce));
            let mut args = vec!["compute", name, "--known-answer", "--key", &khex];
            if nlen > 0 {
                args.extend(["--nonce", &nhex]);
            }
            assert_eq!(ok_line(&run(&[&args[..], &[file]].concat(), None)), want, "{name}, {len} bytes, file");
            assert_eq!(ok_line(&run(&[&args[..], &["-"]].concat(), Some(&data))), want, "{name}, {len} bytes, stdin");
        }
    }
}

/// `compute --known-answer` of a file holds a bounded amount, not the
/// message: a 160 MiB file (sparse) under a 64 MiB limit on the data segment
/// (where reading it whole aborts allocating), its value the library's
/// streamed value of as many zero bytes.
#[cfg(target_os = "linux")]
#[test]
fn known_answer_memory_is_bounded() {
    let dir = TempDir(std::env::temp_dir().join(format!("unimac-ka-mem-{}", std::process::id())));
    fs::create_dir_all(&dir.0).expect("temp dir");
    let path = dir.0.join("sparse");
    let len = (160 << 20) + 7;
    fs::File::create(&path).expect("create").set_len(len as u64).expect("set_len");
    // Read once (a racy file is also hashed by SHA-256 for the comparison:
    // memory-bounded either way, but twice the work).
    common::settle([&path]);
    let key = bytes(32, 71);
    let p = Params { key: &key, nonce: None, len: None };
    let mut s = registry::known_answer_open("mac-hash127", &p).expect("library");
    let zeros = vec![0u8; BUF];
    let mut left = len;
    while left > 0 {
        let n = left.min(BUF);
        s.update(&zeros[..n]);
        left -= n;
    }
    let want = hex::encode(s.finalize().expect("library"));
    let o = Command::new("sh")
        .args(["-c", "ulimit -d 65536 && exec \"$0\" \"$@\"", env!("CARGO_BIN_EXE_unimac")])
        .args(["--threads", "1", "compute", "mac-hash127", "--known-answer", "--key", &hex::encode(&key)])
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .expect("sh");
    assert_eq!(ok_line(&o), want);
}
