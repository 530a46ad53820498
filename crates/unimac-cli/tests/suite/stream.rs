//! `unimac stream`: round trips at the chunk edges and through 1 GiB, and
//! every tamper refused with only verified bytes released (the receiver's
//! output compared with the verified prefix), with `--hold`, `--seen`, and
//! another key or MAC refused before any output.

use std::io::{Read, Write};
use std::path::Path;
use std::process::Stdio;

use crate::common;
use common::{bin, run_at};

fn dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("unimac-stream-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u32).wrapping_mul(2654435761).to_le_bytes()[1] ^ seed).collect()
}

const CHUNK: usize = 1024;

fn send(d: &Path, key: &str, data: &[u8]) -> Vec<u8> {
    let o = run_at(d, &["stream", "-k", key, "--chunk-size", "1024"], Some(data));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

#[test]
fn round_trips_at_the_chunk_edges() {
    let d = dir("edges");
    for mac in ["hash127-aes", "umac128", "vmac128", "wc-eval128"] {
        let key = format!("{mac}.key");
        assert!(bin().args(["keygen", mac, "-o", &key]).current_dir(&d).status().unwrap().success());
        for len in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 7 * CHUNK + 3] {
            let data = pattern(len, 1);
            let wire = send(&d, &key, &data);
            let o = run_at(&d, &["stream", "--verify", "-k", &key], Some(&wire));
            assert!(o.status.success(), "{mac} {len}: {}", String::from_utf8_lossy(&o.stderr));
            assert_eq!(o.stdout, data, "{mac} {len}");
            assert!(o.stderr.is_empty());
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// 1 GiB through `stream | stream --verify`, compared on the fly (nothing
/// of that size is held in memory).
#[test]
fn a_gibibyte_flows_through() {
    let d = dir("gib");
    assert!(bin().args(["keygen", "hash127-aes", "-o", "k.key"]).current_dir(&d).status().unwrap().success());
    let mut tx = bin().args(["stream", "-k", "k.key"]).current_dir(&d).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut rx = bin()
        .args(["stream", "--verify", "-k", "k.key"])
        .current_dir(&d)
        .stdin(tx.stdout.take().unwrap())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let block = pattern(1 << 20, 7);
    let mut input = tx.stdin.take().unwrap();
    let b = block.clone();
    let feeder = std::thread::spawn(move || {
        for _ in 0..1024 {
            input.write_all(&b).unwrap();
        }
    });
    let mut out = rx.stdout.take().unwrap();
    let mut got = vec![0u8; 1 << 20];
    let mut total = 0usize;
    loop {
        let n = out.read(&mut got[..(1 << 20) - total % (1 << 20)]).unwrap();
        if n == 0 {
            break;
        }
        let at = total % (1 << 20);
        assert_eq!(&got[..n], &block[at..at + n], "at byte {total}");
        total += n;
    }
    feeder.join().unwrap();
    assert!(tx.wait().unwrap().success() && rx.wait().unwrap().success());
    assert_eq!(total, 1 << 30);
    let _ = std::fs::remove_dir_all(&d);
}

/// Each tamper: refused (exit 1, one line naming the chunk), and the output
/// is a prefix of the data that ends at a chunk boundary before the
/// tampered chunk; with --hold, no output at all.
#[test]
fn every_tamper_releases_only_verified_chunks() {
    let d = dir("tamper");
    assert!(bin().args(["keygen", "wc-eval128", "-o", "k.key", "--counter", "k.ctr"]).current_dir(&d).status().unwrap().success());
    let data = pattern(5 * CHUNK + 100, 3);
    let wire = send(&d, "k.key", &data);
    let other = send(&d, "k.key", &data);
    let head = wire.len() - (5 * (CHUNK + 5 + 16) + (100 + 5 + 16));
    let frame = CHUNK + 5 + 16;
    let frames = |w: &[u8]| -> Vec<Vec<u8>> { w[head..].chunks(frame).map(<[u8]>::to_vec).collect() };
    let join = |fs: &[Vec<u8>]| [&wire[..head], &fs.concat()].concat();
    let f = frames(&wire);
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for at in [0, 9, head - 1, head, head + 3, head + 5 + 10, head + frame - 1, wire.len() - 1] {
        let mut w = wire.clone();
        w[at] ^= 0x10;
        cases.push((format!("bit flipped at {at}"), w));
    }
    for cut in [0, 5, head, head + 2, head + frame, head + 2 * frame + 7, wire.len() - 1] {
        cases.push((format!("cut at {cut}"), wire[..cut].to_vec()));
    }
    let mut v = f.clone();
    v.remove(1);
    cases.push(("dropped".into(), join(&v)));
    let mut v = f.clone();
    v.insert(1, f[1].clone());
    cases.push(("repeated".into(), join(&v)));
    let mut v = f.clone();
    v.swap(2, 3);
    cases.push(("reordered".into(), join(&v)));
    let mut v = f.clone();
    v[2] = frames(&other)[2].clone();
    cases.push(("spliced from another stream".into(), join(&v)));
    let mut w = wire.clone();
    w[head + 5 * frame] = 0;
    cases.push(("final flag dropped".into(), w));
    for (what, w) in cases {
        let o = run_at(&d, &["stream", "--verify", "-k", "k.key"], Some(&w));
        assert_eq!(o.status.code(), Some(1), "{what}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(e.lines().count(), 1, "{what}: {e}");
        assert!(["chunk", "header", "not a unimac stream", "fingerprint", "version"].iter().any(|w| e.contains(w)), "{what}: {e}");
        assert!(!e.chars().any(|c| c.is_control() && c != '\n'), "{what}: a control character in {e:?}");
        assert!(data.starts_with(&o.stdout), "{what}: bytes never sent");
        assert_eq!(o.stdout.len() % CHUNK, 0, "{what}: a part chunk released");
        let o = run_at(&d, &["stream", "--verify", "--hold", "-k", "k.key"], Some(&w));
        assert_eq!(o.status.code(), Some(1), "{what}");
        assert!(o.stdout.is_empty(), "{what}: --hold released {} bytes", o.stdout.len());
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn misuse_is_refused_before_any_output() {
    let d = dir("misuse");
    for (k, mac) in [("a.key", "hash127-aes"), ("b.key", "hash127-aes"), ("w.key", "wc-eval128"), ("o.key", "hash127")] {
        assert!(bin().args(["keygen", mac, "-o", k]).current_dir(&d).status().unwrap().success());
    }
    let wire = send(&d, "a.key", b"attack at dawn");
    for (key, want) in [("b.key", "key fingerprint"), ("w.key", "a hash127-aes key")] {
        let o = run_at(&d, &["stream", "--verify", "-k", key], Some(&wire));
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty());
        assert!(String::from_utf8_lossy(&o.stderr).contains(want), "{}", String::from_utf8_lossy(&o.stderr));
    }
    // One-time MACs have no streams.
    let o = run_at(&d, &["stream", "-k", "o.key"], Some(b"x"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("one-time MAC"));
    // A stream id seen twice under one key (a replay) is refused.
    let o = run_at(&d, &["stream", "--verify", "-k", "a.key", "--seen", "ids"], Some(&wire));
    assert!(o.status.success());
    let o = run_at(&d, &["stream", "--verify", "-k", "a.key", "--seen", "ids"], Some(&wire));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty() && String::from_utf8_lossy(&o.stderr).contains("seen before"));
    // A MAC weak for this use (vmac64: 2^-28 for the use 'tag' checks) needs
    // --allow-weak, on both ends.
    assert!(bin().args(["keygen", "vmac64", "-o", "v.key"]).current_dir(&d).output().unwrap().status.success());
    let o = run_at(&d, &["stream", "-k", "v.key"], Some(b"x"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("weak for this use"));
    let o = run_at(&d, &["stream", "-k", "v.key", "--allow-weak"], Some(b"x"));
    assert!(o.status.success());
    assert_eq!(run_at(&d, &["stream", "--verify", "-k", "v.key"], Some(&o.stdout)).status.code(), Some(2));
    let back = run_at(&d, &["stream", "--verify", "--allow-weak", "-k", "v.key"], Some(&o.stdout));
    assert!(back.status.success() && back.stdout == b"x");
    // Options that need --verify; a chunk size out of range.
    assert_eq!(run_at(&d, &["stream", "--hold", "-k", "a.key"], Some(b"")).status.code(), Some(2));
    assert_eq!(run_at(&d, &["stream", "--chunk-size", "0", "-k", "a.key"], Some(b"")).status.code(), Some(2));
    assert_eq!(run_at(&d, &["stream", "--chunk-size", "32MiB", "-k", "a.key"], Some(b"")).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&d);
}

/// --seen claims a stream's id once its first chunk verified and before
/// any byte is out: a stream cut short and replayed is released once.
#[test]
fn a_cut_stream_replayed_is_released_once() {
    let d = dir("replay");
    assert!(bin().args(["keygen", "hash127-aes", "-o", "k.key"]).current_dir(&d).status().unwrap().success());
    let data = pattern(3 * CHUNK, 9);
    let wire = send(&d, "k.key", &data);
    let cut = &wire[..wire.len() - 10];
    let o = run_at(&d, &["stream", "--verify", "-k", "k.key", "--seen", "ids"], Some(cut));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(o.stdout.len(), 2 * CHUNK, "the verified chunks of the cut stream");
    for w in [cut, &wire[..]] {
        let o = run_at(&d, &["stream", "--verify", "-k", "k.key", "--seen", "ids"], Some(w));
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty(), "released again");
        assert!(String::from_utf8_lossy(&o.stderr).contains("seen before"));
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Past the first read (1 MiB) the verifying side reads to frames' ends
/// into a buffer sized from the L2 (`UNIMAC_L2_BYTES`: the shares of Zen 3,
/// Zen 4 and Sapphire Rapids), at least one frame: chunks smaller and
/// larger than that buffer round-trip, and a byte flipped in a late frame
/// releases exactly the chunks before it.
#[test]
fn frames_past_the_first_read_round_trip_for_every_buffer_size() {
    let d = dir("l2");
    assert!(bin().args(["keygen", "hash127-aes", "-o", "k.key"]).current_dir(&d).status().unwrap().success());
    let data = pattern(3 * (1 << 20) + 17, 5);
    for chunk in [1024usize, 65_536, 300_000] {
        let c = chunk.to_string();
        let o = run_at(&d, &["stream", "-k", "k.key", "--chunk-size", &c], Some(&data));
        assert!(o.status.success());
        let wire = o.stdout;
        let frame = chunk + 5 + 16;
        let head = wire.len() - (data.len() / chunk) * frame - (data.len() % chunk + 5 + 16);
        // A byte of the payload of the frame holding the 2.5 MiB point.
        let k = (5 << 19) / chunk;
        let mut bad = wire.clone();
        bad[head + k * frame + 5 + 3] ^= 1;
        for l2 in ["512K", "1M", "2M"] {
            let verify = |w: &[u8]| {
                let mut c = bin();
                c.args(["stream", "--verify", "-k", "k.key"]).env("UNIMAC_L2_BYTES", l2).current_dir(&d);
                let mut c = c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
                let mut i = c.stdin.take().unwrap();
                let w = w.to_vec();
                let t = std::thread::spawn(move || {
                    let _ = i.write_all(&w);
                });
                let o = c.wait_with_output().unwrap();
                t.join().unwrap();
                o
            };
            let o = verify(&wire);
            assert!(o.status.success(), "{chunk} {l2}: {}", String::from_utf8_lossy(&o.stderr));
            assert!(o.stdout == data, "{chunk} {l2}: payload differs");
            let o = verify(&bad);
            assert_eq!(o.status.code(), Some(1), "{chunk} {l2}");
            assert!(o.stdout == data[..k * chunk], "{chunk} {l2}: released {} bytes, {} verified", o.stdout.len(), k * chunk);
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}
