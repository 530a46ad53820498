//! Short messages: TSC ticks per message (key set up once, one thread) of
//! unimac's hashes and MACs beside the peers people use for short messages,
//! interleaved in one run, the median of batches.
//! Run: `cargo run --release -p unimac-kernel-bench --example short_cycles [-- NAME...]`
//! (`SHORT_CYCLES_SIZES="16 65"` for other lengths than 0, 16, 64, 256, 1024).

use std::hint::black_box;
use std::time::Instant;

use unimac::unstable::registry::{self, NamedMac, OneTimeMac};

#[cfg(target_arch = "x86_64")]
fn ticks() -> u64 {
    // SAFETY: rdtsc has no preconditions on x86-64.
    unsafe { core::arch::x86_64::_rdtsc() }
}
#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> u64 {
    Instant::now().elapsed().as_nanos() as u64
}

type Job = Box<dyn FnMut(&[u8])>;

fn sink<T>(x: T) {
    black_box(x);
}

fn batch_ticks(f: &mut Job, msg: &[u8]) -> f64 {
    let batch = 100;
    let c = ticks();
    for _ in 0..batch {
        f(black_box(msg));
    }
    (ticks() - c) as f64 / batch as f64
}

/// Tagging by name as a caller does: a reusable MAC keyed once (for
/// `shoup4-*` the tag as sent, `r ‖ s ‖ tag`, with the pair drawn per
/// message); a one-time MAC with a fresh `OneTimeMac` per message, its key
/// set-up counted, since its key tags one message.
fn by_name(name: &str) -> Job {
    let d = registry::desc(name).expect("a MAC");
    let key = vec![0x5a; d.default_key_len()];
    if d.one_time {
        let name = d.name;
        return Box::new(move |m: &[u8]| sink(OneTimeMac::new(name, &key).unwrap().tag(m)));
    }
    let mac = NamedMac::new(name, &key).expect("keys");
    let nonce = vec![0x11; *mac.nonce_sizes().end()];
    Box::new(move |m: &[u8]| {
        let n = (!nonce.is_empty()).then_some(&nonce[..]);
        let mut t = [0u8; 32];
        sink(mac.tag_into(n, m, &mut t).unwrap());
        sink(t);
    })
}

fn main() {
    let (t0, c0) = (Instant::now(), ticks());
    while t0.elapsed().as_millis() < 200 {}
    let ghz = (ticks() - c0) as f64 / t0.elapsed().as_secs_f64() / 1e9;
    println!("TSC {ghz:.3} GHz; ticks per message: median of 201 batches of 100, every row measured in turn");
    let key32 = [0x5au8; 32];
    let key16 = [0x5au8; 16];
    let mut jobs: Vec<(String, Job)> = Vec::new();
    // Typed APIs.
    {
        let k = unimac::unstable::hash127::Key::new(&key32);
        k.precompute();
        jobs.push(("hash127 (typed)".into(), Box::new(move |m| sink(unimac::unstable::hash127::hash127(&k, m)))));
        let k2 = unimac::unstable::hash127::Key::new(&key32);
        jobs.push(("hash127 (portable)".into(), Box::new(move |m| sink(unimac::unstable::hash127::hash127_on(unimac::Platform::portable(), &k2, m, true, usize::MAX)))));
        let mac = unimac::unstable::mac::Hash127Aes::new(&key32);
        jobs.push(("hash127-aes tag (typed)".into(), Box::new(move |m| sink(mac.tag(m)))));
        let mac = unimac::unstable::mac::Hash127Aes::new(&key32);
        let t = mac.tag(&[0u8; 64]);
        jobs.push(("hash127-aes verify (typed)".into(), Box::new(move |m| sink(mac.verify(m, t)))));
        let e64 = unimac::unstable::shoup::Hasher::new(unimac::unstable::shoup::Kind::Eval64, &[0x5a; 8]);
        jobs.push(("eval64 (typed)".into(), Box::new(move |m| {
            black_box(e64.hash(m));
        })));
        let e128 = unimac::unstable::shoup::eval128::Eval128::new(&key16);
        jobs.push(("eval128 (typed)".into(), Box::new(move |m| {
            black_box(e128.oneshot(m));
        })));
        let u = unimac::umac::Umac::<8>::new(&key16);
        jobs.push(("umac64 (typed)".into(), Box::new(move |m| sink(u.tag(&[1u8; 8], m).unwrap()))));
    }
    for name in registry::names() {
        jobs.push((format!("{name} tag (by name)"), by_name(&name)));
    }
    // Peers.
    {
        let k = key32;
        jobs.push(("blake3-keyed".into(), Box::new(move |m| sink(blake3::keyed_hash(&k, m)))));
        use polyval07::universal_hash::UniversalHash;
        let pv = polyval07::Polyval::new(&key16.into());
        jobs.push(("polyval".into(), Box::new(move |m| {
            let mut h = pv.clone();
            h.update_padded(m);
            sink(h.finalize());
        })));
        use hmac::Mac as _;
        let hm = <hmac::Hmac<sha2::Sha256> as hmac::KeyInit>::new_from_slice(&key32).unwrap();
        jobs.push(("hmac-sha256".into(), Box::new(move |m| {
            let mut h = hm.clone();
            h.update(m);
            sink(h.finalize());
        })));
        let cm = <cmac::Cmac<aes::Aes128> as cmac::KeyInit>::new_from_slice(&key16).unwrap();
        jobs.push(("aes-cmac".into(), Box::new(move |m| {
            let mut h = cm.clone();
            cmac::Mac::update(&mut h, m);
            sink(cmac::Mac::finalize(h));
        })));
    }
    let filter: Vec<String> = std::env::args().skip(1).collect();
    jobs.retain(|(name, _)| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str())));
    // `SHORT_CYCLES_SIZES="16 63 64 65"` measures other lengths.
    let sizes: Vec<usize> = std::env::var("SHORT_CYCLES_SIZES")
        .ok()
        .map(|v| v.split_whitespace().filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![0, 16, 64, 256, 1024]);
    // Every job measured in turn, batch by batch (interleaved), so a change
    // in the machine's load hits every row alike; the median batch counts.
    let mut table = vec![vec![0f64; sizes.len()]; jobs.len()];
    for (si, &n) in sizes.iter().enumerate() {
        let m: Vec<u8> = (0..n).map(|i| (i * 131) as u8).collect();
        let mut samples = vec![Vec::with_capacity(201); jobs.len()];
        for _ in 0..201 {
            for (ji, (_, job)) in jobs.iter_mut().enumerate() {
                samples[ji].push(batch_ticks(job, &m));
            }
        }
        for (ji, s) in samples.iter_mut().enumerate() {
            s.sort_by(f64::total_cmp);
            table[ji][si] = s[s.len() / 2];
        }
    }
    print!("{:<34}", "");
    for n in sizes {
        print!("{:>9}", format!("{n} B"));
    }
    println!();
    for ((name, _), row) in jobs.iter().zip(&table) {
        print!("{name:<34}");
        for v in row {
            print!("{v:>9.0}");
        }
        println!();
    }
}
