//! Where the cycles of a short tag go: TSC ticks per call of each part of
//! the 128-bit MACs on 16- and 64-byte messages (key set up once, one
//! thread), measured in turn batch by batch, the minimum and the median of
//! 301 batches of 200 calls. The parts: one AES-128 block alone (the `aes`
//! crate's call, as the MACs use it) both as a chain of dependent calls
//! (its latency) and on independent blocks (its throughput); the hashes
//! alone; the typed MACs; the MACs by name (`registry::NamedMac`) and through
//! the catalogue's keyed object as `unimac-bench` calls it.
//! Run: `cargo run --release -p unimac-kernel-bench --example short_parts [-- FILTER...]`;
//! `SHORT_PARTS_OFFSET=N` places the message `N` bytes into its buffer (64
//! by default), to see what the message's placement costs (e.g. a 64-byte
//! message across a 4 KiB page boundary).

use std::hint::black_box;
use std::time::Instant;

use aes::cipher::{BlockCipherEncrypt, KeyInit};
use unimac::unstable::registry::{self, NamedMac, Params};

#[cfg(target_arch = "x86_64")]
fn ticks() -> u64 {
    // SAFETY: rdtsc has no preconditions on x86-64.
    unsafe { core::arch::x86_64::_rdtsc() }
}
#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

type Job = Box<dyn FnMut(&[u8])>;

const BATCH: u64 = 200;

fn main() {
    let (t0, c0) = (Instant::now(), ticks());
    while t0.elapsed().as_millis() < 300 {}
    let ghz = (ticks() - c0) as f64 / t0.elapsed().as_secs_f64() / 1e9;
    let k32 = [0x5au8; 32];
    let k16 = [0x5au8; 16];
    static N16: [u8; 16] = [0x11u8; 16];
    let n16 = N16;
    let mut jobs: Vec<(String, Job)> = Vec::new();
    {
        let aes = aes::Aes128::new(&k16.into());
        let mut x = aes::Block::from([3u8; 16]);
        jobs.push(("aes-128 block, dependent chain".into(), Box::new(move |_| {
            aes.encrypt_block(&mut x);
            black_box(&x);
        })));
        let aes = aes::Aes128::new(&k16.into());
        jobs.push(("aes-128 block, independent".into(), Box::new(move |m| {
            let mut b = aes::Block::from([m.len() as u8; 16]);
            aes.encrypt_block(&mut b);
            black_box(b);
        })));
    }
    {
        let k = k32;
        jobs.push(("blake3-keyed".into(), Box::new(move |m| {
            black_box(blake3::keyed_hash(&k, m));
        })));
        let hk = unimac::unstable::hash127::Key::new(&k32);
        jobs.push(("hash127 (typed)".into(), Box::new(move |m| {
            black_box(unimac::unstable::hash127::hash127(&hk, m));
        })));
        let e = unimac::unstable::shoup::eval128::Eval128::new(&k16);
        jobs.push(("eval128 (typed)".into(), Box::new(move |m| {
            black_box(e.oneshot(m));
        })));
        let mac = unimac::unstable::mac::Hash127Aes::new(&k32);
        jobs.push(("hash127-aes (typed)".into(), Box::new(move |m| {
            black_box(mac.tag(m));
        })));
        let mac = unimac::unstable::mac::shoup::WcEval128::new(&k32);
        jobs.push(("wc-eval128 (typed)".into(), Box::new(move |m| {
            black_box(mac.tag(&n16, m));
        })));
        let mac = unimac::unstable::mac::shoup::WcEval128::new(&k32);
        jobs.push(("wc-eval128 (typed, copied out)".into(), Box::new(move |m| {
            let mut t = [0u8; 32];
            t[..16].copy_from_slice(mac.tag(&n16, m).as_bytes());
            black_box(t);
        })));
        let u = unimac::umac::Umac::<16>::new(&k16);
        jobs.push(("umac128 (typed)".into(), Box::new(move |m| {
            black_box(u.tag(&n16[..8], m).unwrap());
        })));
    }
    for (name, key, nonce) in [
        ("hash127-aes", &k32[..], None),
        ("wc-eval128", &k32[..], Some(&N16[..])),
        ("umac128", &k16[..], Some(&N16[..8])),
    ] {
        let mac = NamedMac::new(name, key).unwrap();
        jobs.push((format!("{name} (registry::NamedMac)"), Box::new(move |m| {
            let mut t = [0u8; 32];
            black_box(mac.tag_into(nonce, m, &mut t).unwrap());
            black_box(t);
        })));
    }
    for (name, key, nonce) in [
        ("hash127", &k32[..], None),
        ("mac-hash127-aes", &k32[..], None),
        ("mac-wc-eval128", &k32[..], Some(&N16[..])),
        ("mac-umac128", &k16[..], Some(&N16[..8])),
    ] {
        let keyed = registry::known_answer_key(name, &Params { key, nonce: None, len: None }).unwrap();
        jobs.push((format!("{name} (bench: compute_into)"), Box::new(move |m| {
            let mut t = [0u8; 64];
            black_box(keyed.compute_into(nonce, m, &mut t).unwrap());
            black_box(t);
        })));
    }
    let filter: Vec<String> = std::env::args().skip(1).collect();
    jobs.retain(|(name, _)| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str())));
    println!(
        "TSC {ghz:.3} GHz; TSC ticks per call: min / median of 301 batches of {BATCH}, every row in turn"
    );
    let sizes = [16usize, 64];
    let mut table = vec![Vec::new(); jobs.len()];
    for &n in &sizes {
        let off: usize = std::env::var("SHORT_PARTS_OFFSET").ok().and_then(|v| v.parse().ok()).unwrap_or(64);
        let big: Vec<u8> = (0..n + off + 8192).map(|i| (i * 131) as u8).collect();
        let m = &big[off..off + n];
        let mut samples = vec![Vec::with_capacity(301); jobs.len()];
        for _ in 0..301 {
            for (ji, (_, job)) in jobs.iter_mut().enumerate() {
                let c = ticks();
                for _ in 0..BATCH {
                    job(black_box(m));
                }
                samples[ji].push((ticks() - c) as f64 / BATCH as f64);
            }
        }
        for (ji, s) in samples.iter_mut().enumerate() {
            s.sort_by(f64::total_cmp);
            table[ji].push((s[0], s[s.len() / 2]));
        }
    }
    print!("{:<38}", "");
    for n in sizes {
        print!("{:>16}", format!("{n} B min/med"));
    }
    println!();
    for ((name, _), row) in jobs.iter().zip(&table) {
        print!("{name:<38}");
        for (lo, med) in row {
            print!("{:>16}", format!("{lo:.0} / {med:.0}"));
        }
        println!();
    }
}
