//! The misuse matrix of the `unimac` binary: every way of reusing a
//! one-time key, repeating a nonce or handing the tagger a counter that is
//! not the key's own is refused, with a non-zero exit, one line on stderr
//! naming the problem and nothing on stdout; the allowed paths work with
//! their explicit opt-in.
//!
//! Every run has a deadline: a command that blocks (a FIFO opened as a
//! counter) fails its test instead of hanging the suite.

use std::fs;
use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{key_hex, ok, text, TempDir as Dir};

/// How long one run of the binary may take.
const DEADLINE: Duration = Duration::from_secs(10);

/// Run `unimac ARGS` with stdin closed; kill it and fail if it runs past
/// the deadline.
fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_unimac"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn unimac");
    // Drain both pipes on their own threads so a full pipe never stalls it.
    let drain = |p: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = p {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("try_wait") {
            break s;
        }
        if t0.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            let args: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy().into_owned()).collect();
            panic!("unimac {args:?} did not finish within {DEADLINE:?} (killed)");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// A refusal: exit status `code`, exactly one line on stderr that contains
/// every one of `needles` (case-insensitive), nothing on stdout, no panic.
#[track_caller]
fn refused(o: &Output, code: i32, needles: &[&str]) {
    let e = text(&o.stderr);
    assert!(!e.contains("panicked"), "panicked: {e}");
    assert_eq!(o.status.code(), Some(code), "exit status; stderr: {e}");
    assert!(o.stdout.is_empty(), "nothing on stdout, got {:?}; stderr: {e}", text(&o.stdout));
    assert_eq!(e.lines().count(), 1, "one line on stderr, got {e:?}");
    for n in needles {
        assert!(e.to_lowercase().contains(&n.to_lowercase()), "stderr {e:?} should name {n:?}");
    }
}

impl Dir {
    /// `unimac keygen MAC -o KEY [--counter CTR]`; returns the key file
    /// (named apart from `operator`'s `keygen`, another method of the shared
    /// `TempDir`).
    fn keygen_with(&self, mac: &str, key: &str, counter: Option<&str>) -> String {
        let (k, c) = (self.s(key), counter.map(|c| self.s(c)));
        let mut args = vec!["keygen", mac, "-o", &k];
        if let Some(c) = &c {
            args.extend(["--counter", c]);
        }
        let o = run(&args);
        assert!(o.status.success(), "keygen: {}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stdout.is_empty(), "keygen prints nothing on stdout with -o");
        // Only the weak-MAC warning may go to stderr.
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.is_empty() || (e.lines().count() == 1 && e.contains("is weak")), "{e}");
        k
    }
}

/// The `NONCE:TAG` of a tag line, split.
fn nonce_and_tag(line: &str) -> (String, String) {
    let value = line.split_once("  ").expect("TAG  FILE").0;
    let (n, t) = value.split_once(':').expect("NONCE:TAG");
    (n.to_string(), t.to_string())
}

// ---------------------------------------------------------------- (a) one-time keys

#[test]
fn a_one_time_key_tags_once() {
    let d = Dir::new("once");
    let (f, g) = (d.write("f", b"the one message"), d.write("g", b"another"));
    for mac in ["hash127", "hash127-96"] {
        let k = d.keygen_with(mac, &format!("k-{mac}"), None);
        let line = ok(&run(&["tag", mac, "--key-file", &k, &f]));
        assert_eq!(line.lines().count(), 1, "{line}");
        assert!(fs::read_to_string(&k).unwrap().ends_with("\nspent\n"), "marked spent");
        let spent = fs::read(&k).unwrap();
        // A second tag, of another message or the same one: refused, and
        // the key file is left as it is.
        for m in [&g, &f] {
            refused(&run(&["tag", mac, "--key-file", &k, m]), 2, &["already tagged", mac]);
        }
        assert_eq!(fs::read(&k).unwrap(), spent);
        // Verifying still works with the spent key.
        let sums = d.write(&format!("sums-{mac}"), line.as_bytes());
        assert_eq!(ok(&run(&["verify", mac, "--key-file", &k, "-c", &sums])), format!("{f}: OK\n"));
    }
}

#[test]
fn one_time_values_are_not_computed_without_known_answer() {
    let d = Dir::new("ot-compute");
    let f = d.write("f", b"m");
    let k = d.keygen_with("hash127", "k", None);
    let k96 = d.keygen_with("hash127-96", "k96", None);
    let (hex32, hex48) = (key_hex(&k), key_hex(&k96));
    // By --key: the one-time value under every name that computes it.
    for (name, key) in [
        ("hash127", &hex32),
        ("mac-hash127", &hex32),
        ("hash127-raw", &hex32),
        ("hash127-96", &hex48),
        ("mac-hash127-96", &hex48),
    ] {
        refused(&run(&["compute", name, "--key", key, &f]), 2, &["one-time", "--known-answer"]);
    }
    // By --key-file: a real key's one-time value would be spent unseen.
    for name in ["hash127", "mac-hash127"] {
        refused(&run(&["compute", name, "--key-file", &k, &f]), 2, &["one-time", "unimac tag hash127"]);
    }
    refused(&run(&["compute", "hash127-96", "--key-file", &k96, &f]), 2, &["one-time"]);
    // --known-answer never takes a key file.
    for (name, key) in [("hash127", &k), ("mac-hash127", &k), ("mac-hash127-96", &k96)] {
        refused(
            &run(&["compute", name, "--known-answer", "--key-file", key, &f]),
            2,
            &["--known-answer", "never a key file"],
        );
    }
    // Nothing was spent by any of it: the key still tags once.
    assert!(!fs::read_to_string(&k).unwrap().contains("spent"));
    ok(&run(&["tag", "hash127", "--key-file", &k, &f]));
    // shoup4's pair is the library's to draw: no compute without --known-answer.
    let k4 = d.keygen_with("shoup4-eval64", "k4", None);
    refused(&run(&["compute", "shoup4-eval64", "--key", &key_hex(&k4), &f]), 2, &["r || s", "--known-answer"]);
    refused(
        &run(&["compute", "shoup4-eval64", "--key-file", &k4, "--nonce", &"00".repeat(16), &f]),
        2,
        &["r || s"],
    );
}

// ---------------------------------------------------------------- (b) nonces and counters

/// A wc-eval128 key with its counter (advanced by one tag), and a message.
struct Counted {
    d: Dir,
    key: String,
    ctr: String,
    msg: String,
}

impl Counted {
    fn new(tag: &str) -> Counted {
        let d = Dir::new(tag);
        let key = d.keygen_with("wc-eval128", "k", Some("c"));
        let ctr = d.s("c");
        let msg = d.write("m", b"message");
        let line = ok(&run(&["tag", "wc-eval128", "--key-file", &key, "--counter", &ctr, &msg]));
        assert!(line.starts_with(&format!("{}:", "00".repeat(16))), "{line}");
        Counted { d, key, ctr, msg }
    }
    fn tag_with(&self, counter: &str) -> Output {
        run(&["tag", "wc-eval128", "--key-file", &self.key, "--counter", counter, &self.msg])
    }
}

/// The library's one refusal of a caller's nonce without the opt-in
/// (`policy::caller_nonce`), as the command line spells it.
const OPT_IN: &str = "wc-eval128: --nonce needs --caller-manages-nonces: the caller keeps its nonces from ever repeating under this key";

#[test]
fn caller_nonces_need_the_opt_in() {
    let c = Counted::new("optin");
    let before = fs::read(&c.ctr).unwrap();
    let n = "00".repeat(16); // the nonce the counter already handed out
    // tag --nonce beside the key's counter, without the opt-in.
    refused(
        &run(&["tag", "wc-eval128", "--key-file", &c.key, "--nonce", &n, &c.msg]),
        2,
        &[&format!("{OPT_IN} (unimac cannot know whether one was used before; --counter FILE gives nonces that never repeat)")],
    );
    refused(
        &run(&["tag", "wc-eval128", "--key-file", &c.key, "--counter", &c.ctr, "--nonce", &n, &c.msg]),
        2,
        &["not both"],
    );
    // compute MAC --nonce with the key file, without the opt-in.
    refused(
        &run(&["compute", "wc-eval128", "--key-file", &c.key, "--nonce", &n, &c.msg]),
        2,
        &[&format!("{OPT_IN} (unimac cannot know whether one was used before; 'unimac tag --counter FILE' gives nonces that never repeat)")],
    );
    assert_eq!(fs::read(&c.ctr).unwrap(), before, "the counter is untouched");
    // shoup4 draws r || s itself: no caller nonce, even with the opt-in.
    let k4 = c.d.keygen_with("shoup4-eval64", "k4", None);
    refused(
        &run(&["tag", "shoup4-eval64", "--key-file", &k4, "--allow-weak", "--nonce", &n, &c.msg]),
        2,
        &["shoup4-eval64 is stateless: r || s is drawn at random for every message"],
    );
    refused(
        &run(&[
            "tag",
            "shoup4-eval64",
            "--key-file",
            &k4,
            "--allow-weak",
            "--nonce",
            &n,
            "--caller-manages-nonces",
            &c.msg,
        ]),
        2,
        &["shoup4-eval64 is stateless", "r || s"],
    );
}

#[test]
fn a_rolled_back_counter_is_refused() {
    let c = Counted::new("rollback");
    // The value the counter had before its one tag, without the binding
    // line (as a hand-made or pre-binding counter would hold it).
    fs::write(&c.ctr, "0\n").unwrap();
    refused(&c.tag_with(&c.ctr), 2, &["counter file", "not bound to a key"]);
    assert_eq!(fs::read_to_string(&c.ctr).unwrap(), "0\n", "left alone");
}

#[test]
fn a_counter_of_another_key_or_mac_is_refused() {
    let c = Counted::new("other");
    // Another key of the same MAC, with its own fresh counter.
    c.d.keygen_with("wc-eval128", "k2", Some("c2"));
    let c2 = c.d.s("c2");
    let before = fs::read(&c2).unwrap();
    refused(&c.tag_with(&c2), 2, &["counter file", "another wc-eval128 key"]);
    assert_eq!(fs::read(&c2).unwrap(), before);
    // A counter of another MAC.
    c.d.keygen_with("hash127-aes-nonce", "k3", Some("c3"));
    let c3 = c.d.s("c3");
    let before = fs::read(&c3).unwrap();
    refused(&c.tag_with(&c3), 2, &["counter file", "bound to hash127-aes-nonce, not wc-eval128"]);
    assert_eq!(fs::read(&c3).unwrap(), before);
    // The key's own counter still works, and goes on from 1.
    let line = ok(&c.tag_with(&c.ctr));
    assert!(line.starts_with(&format!("01{}:", "00".repeat(15))), "{line}");
}

#[test]
fn a_counter_with_a_second_hard_link_is_refused() {
    let c = Counted::new("link");
    let link = c.d.s("c-link");
    fs::hard_link(&c.ctr, &link).unwrap();
    let before = fs::read(&c.ctr).unwrap();
    for name in [&c.ctr, &link] {
        refused(&c.tag_with(name), 2, &["counter file", "2 hard links"]);
    }
    assert_eq!(fs::read(&c.ctr).unwrap(), before);
    // One name again: it counts on.
    fs::remove_file(&link).unwrap();
    let line = ok(&c.tag_with(&c.ctr));
    assert!(line.starts_with(&format!("01{}:", "00".repeat(15))), "{line}");
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_directory_as_counter_is_refused() {
    let c = Counted::new("fifo");
    let fifo = c.d.s("fifo");
    let st = Command::new("mkfifo").arg(&fifo).status().expect("run mkfifo");
    assert!(st.success(), "mkfifo");
    // Opening a FIFO with no writer would block: run() fails on a hang.
    refused(&c.tag_with(&fifo), 2, &["counter file", "not a regular file"]);
    let dir = c.d.s("dir");
    fs::create_dir(&dir).unwrap();
    refused(&c.tag_with(&dir), 2, &["counter file", "not a regular file"]);
    // Through a symbolic link to the FIFO: the same.
    let sym = c.d.s("sym");
    std::os::unix::fs::symlink(&fifo, &sym).unwrap();
    refused(&c.tag_with(&sym), 2, &["counter file", "not a regular file"]);
}

/// `verify --quiet` of a check file whose two lines share a nonce (as the
/// cipher sees it) with different tags: exit 1, nothing on stdout, the
/// reuse named once for the second line and in the summary.
#[track_caller]
fn reuse_reported(mac: &str, key: &str, sums: &str, nonce_shown: &str) {
    let o = run(&["verify", mac, "--key-file", key, "--quiet", "-c", sums]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
    let named: Vec<&str> = e.lines().filter(|l| l.contains("was used with another tag")).collect();
    assert_eq!(named.len(), 1, "{e}");
    assert!(named[0].contains(&format!("nonce {nonce_shown} ")) && named[0].contains("line 2"), "{e}");
    assert!(named[0].contains("must never repeat under one key"), "{e}");
    assert!(e.contains("1 line reuses a nonce used before with another tag"), "{e}");
    assert_eq!(e.lines().count(), 2, "the line and the summary: {e}");
    // --status: the exit status alone tells.
    let o = run(&["verify", mac, "--key-file", key, "--status", "-c", sums]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty() && o.stderr.is_empty(), "{}", text(&o.stderr));
}

#[test]
fn verify_reports_a_nonce_used_with_two_tags() {
    let d = Dir::new("reuse");
    let (a, b) = (d.write("a", b"attack at dawn"), d.write("b", b"attack at dusk"));
    let n = "0f".repeat(16);
    let k = d.keygen_with("wc-eval128", "k", None);
    let tag = |f: &str| ok(&run(&["tag", "wc-eval128", "--key-file", &k, "--nonce", &n, "--caller-manages-nonces", f]));
    let (la, lb) = (tag(&a), tag(&b));
    assert_ne!(nonce_and_tag(&la).1, nonce_and_tag(&lb).1);
    let sums = d.write("sums", format!("{la}{lb}").as_bytes());
    reuse_reported("wc-eval128", &k, &sums, &n);
    // Each line's tag is right for its file: only the reuse fails the run.
    let o = run(&["verify", "wc-eval128", "--key-file", &k, "-c", &sums]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stdout), format!("{a}: OK\n{b}: OK\n"));
    // The same line twice is no reuse.
    let twice = d.write("twice", format!("{la}{la}").as_bytes());
    assert_eq!(ok(&run(&["verify", "wc-eval128", "--key-file", &k, "-c", &twice])), format!("{a}: OK\n{a}: OK\n"));
    // Across two check files of one run, too.
    let (sa, sb) = (d.write("sa", la.as_bytes()), d.write("sb", lb.as_bytes()));
    let o = run(&["verify", "wc-eval128", "--key-file", &k, "--quiet", "-c", &sa, "-c", &sb]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(text(&o.stderr).contains("was used with another tag"), "{}", text(&o.stderr));
}

#[test]
fn umac_nonces_are_compared_as_the_cipher_sees_them() {
    let d = Dir::new("alias");
    let (a, b) = (d.write("a", b"attack at dawn"), d.write("b", b"attack at dusk"));
    let k = d.keygen_with("umac64", "k", None);
    let tag = |nonce: &str, f: &str| {
        ok(&run(&["tag", "umac64", "--key-file", &k, "--allow-weak", "--nonce", nonce, "--caller-manages-nonces", f]))
    };
    // RFC 4418 extends a short nonce with zeros on the right: 02 and 0200
    // are one nonce, and the two tags share its pad.
    let (l02, l0200) = (tag("02", &a), tag("0200", &b));
    assert_eq!(nonce_and_tag(&l02).0, "02");
    assert_eq!(nonce_and_tag(&l0200).0, "0200");
    let sums = d.write("sums", format!("{l02}{l0200}").as_bytes());
    reuse_reported("umac64", &k, &sums, "0200");
    // 0002 is another nonce: no reuse.
    let l0002 = tag("0002", &b);
    let fine = d.write("fine", format!("{l02}{l0002}").as_bytes());
    assert_eq!(ok(&run(&["verify", "umac64", "--key-file", &k, "-c", &fine])), format!("{a}: OK\n{b}: OK\n"));
    // VMAC extends on the left: 01 and 0001 are one nonce.
    let kv = d.keygen_with("vmac64", "kv", None);
    let vtag = |nonce: &str, f: &str| {
        ok(&run(&["tag", "vmac64", "--key-file", &kv, "--allow-weak", "--nonce", nonce, "--caller-manages-nonces", f]))
    };
    let sums = d.write("vsums", format!("{}{}", vtag("01", &a), vtag("0001", &b)).as_bytes());
    reuse_reported("vmac64", &kv, &sums, "0001");
}

// ---------------------------------------------------------------- (c) the allowed paths

#[test]
fn known_answers_equal_the_one_time_tag() {
    let d = Dir::new("ka");
    let f = d.write("f", b"a message for one key");
    for (mac, names) in [("hash127", &["hash127", "mac-hash127"][..]), ("hash127-96", &["hash127-96", "mac-hash127-96"][..])] {
        let k = d.keygen_with(mac, &format!("k-{mac}"), None);
        let key = key_hex(&k);
        // The known answers first: they spend nothing.
        let answers: Vec<String> =
            names.iter().map(|n| ok(&run(&["compute", n, "--known-answer", "--key", &key, &f]))).collect();
        assert!(!fs::read_to_string(&k).unwrap().contains("spent"));
        // The tag through the one-time interface, which spends the key.
        let line = ok(&run(&["tag", mac, "--key-file", &k, &f]));
        let tag = line.split_once("  ").unwrap().0;
        assert_eq!(tag.len(), if mac == "hash127" { 32 } else { 24 }, "{line}");
        for (n, a) in names.iter().zip(&answers) {
            assert_eq!(a, &format!("{tag}\n"), "{n}");
        }
    }
}

#[test]
fn random_nonces_of_the_full_length() {
    let d = Dir::new("random");
    let (a, b) = (d.write("a", b"one"), d.write("b", b"two"));
    // UMAC: 16 random bytes per file, in the line.
    let k = d.keygen_with("umac64", "k", None);
    let out = ok(&run(&["tag", "umac64", "--key-file", &k, "--random-nonce", "--allow-weak", &a, &b]));
    let nonces: Vec<String> = out.lines().map(|l| nonce_and_tag(l).0).collect();
    assert_eq!(nonces.len(), 2, "{out}");
    assert!(nonces.iter().all(|n| n.len() == 32 && n.bytes().all(|c| c.is_ascii_hexdigit())), "{out}");
    assert_ne!(nonces[0], nonces[1]);
    let sums = d.write("sums", out.as_bytes());
    assert_eq!(ok(&run(&["verify", "umac64", "--key-file", &k, "-c", &sums])), format!("{a}: OK\n{b}: OK\n"));
    // VMAC: 16 random bytes with the top bit clear, every time.
    let kv = d.keygen_with("vmac64", "kv", None);
    let mut lines = String::new();
    for _ in 0..50 {
        let l = ok(&run(&["tag", "vmac64", "--key-file", &kv, "--random-nonce", "--allow-weak", &a]));
        let (n, _) = nonce_and_tag(&l);
        assert_eq!(n.len(), 32, "{l}");
        let first = u8::from_str_radix(&n[..2], 16).unwrap();
        assert!(first < 0x80, "top bit set: {l}");
        lines.push_str(&l);
    }
    let vsums = d.write("vsums", lines.as_bytes());
    let v = ok(&run(&["verify", "vmac64", "--key-file", &kv, "--quiet", "-c", &vsums]));
    assert_eq!(v, "", "50 lines verify, none reuses a nonce");
}

#[test]
fn bound_counts_random_nonce_collisions() {
    let base = ["bound", "--random-nonces", "--max-bytes", "1024", "--tags", "1000"];
    let with = |mac: &str| ok(&run(&[&base[..1], &[mac], &base[1..]].concat()));
    let u = with("umac64");
    assert!(u.contains("nonces = random, 128 bits each"), "{u}");
    assert!(u.contains("C(C-1)/2^129") && u.contains("two of the C random 128-bit nonces repeat"), "{u}");
    let v = with("vmac64");
    assert!(v.contains("nonces = random, 127 bits each"), "{v}");
    assert!(v.contains("C(C-1)/2^128") && v.contains("two of the C random 127-bit nonces repeat"), "{v}");
    // Without --random-nonces there is no such term.
    let plain = ok(&run(&["bound", "umac64", "--max-bytes", "1024", "--tags", "1000"]));
    assert!(!plain.contains("random 128-bit nonces repeat"), "{plain}");
}

