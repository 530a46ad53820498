//! Multi-core scaling: the median time of one-shot hashes of a 64 MiB
//! message with 1 thread and with 2 (or the counts given), same run.
//!
//! `cargo run --release -p unimac --example threads [MiB] [reps] [names...]`

use std::time::Instant;

use unimac::unstable::registry::{self, Params};
use unimac::threads::set_max_threads;

/// CPU time of this process so far (user + system), in ms.
fn cpu_ms() -> f64 {
    // SAFETY: getrusage writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 * 1e3 + v.tv_usec as f64 / 1e3;
    t(u.ru_utime) + t(u.ru_stime)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mib: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(64);
    let reps: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(11);
    let mut names: Vec<String> = args.iter().skip(2).cloned().collect();
    if names.is_empty() {
        names = ["hash127", "tree-mmh32x2", "eval64", "eval128", "division64", "gdivision64", "tree-sqh64-asm"]
            .map(String::from)
            .to_vec();
    }
    let msg: Vec<u8> = (0..mib << 20).map(|i| (i as u32).wrapping_mul(2654435761) as u8 ^ (i >> 13) as u8).collect();
    println!("{:<16} {:>10} {:>10} {:>8} {:>9}", "name", "1 thr ms", "2 thr ms", "speedup", "cpu/wall");
    // The memory's own limit: XOR of every 64-bit word (the compiler's
    // vector loop), on one thread and split over two.
    {
        let words = |m: &[u8]| m.chunks_exact(64).fold([0u64; 8], |mut a, c| {
            for (x, w) in a.iter_mut().zip(c.chunks_exact(8)) {
                *x ^= u64::from_le_bytes(w.try_into().unwrap());
            }
            a
        });
        let mut times = [Vec::new(), Vec::new()];
        let mut sink = 0u64;
        for _ in 0..reps {
            let t0 = Instant::now();
            sink ^= words(&msg).iter().fold(0, |a, b| a ^ b);
            times[0].push(t0.elapsed().as_secs_f64() * 1e3);
            let t0 = Instant::now();
            let (a, b) = msg.split_at(msg.len() / 2);
            let (x, y) = std::thread::scope(|s| {
                let h = s.spawn(|| words(b));
                (words(a), h.join().unwrap())
            });
            sink ^= x.iter().chain(&y).fold(0, |a, b| a ^ b);
            times[1].push(t0.elapsed().as_secs_f64() * 1e3);
        }
        let (a, b) = (median(times[0].clone()), median(times[1].clone()));
        println!("{:<16} {a:>10.2} {b:>10.2} {:>7.2}x {:>9}  (xor of the words; {sink:x})", "memory read", a / b, "-");
    }
    for name in &names {
        let e = registry::lookup(name).expect("known name");
        let klen = match e.info.key {
            unimac::unstable::registry::KeySpec::Fixed(n) => n,
            _ => 16,
        };
        let key: Vec<u8> = (0..klen).map(|i| (i * 37 + 11) as u8).collect();
        let p = Params { key: &key, nonce: None, len: None };
        // A one-time value (hash127 under r || k) is tagged by a fresh
        // one-time MAC per message (hash127-raw by its typed hash); the
        // other names are keyed once. A nonce MAC gets a fixed nonce (a
        // timing, not a use), a shoup4- MAC a fixed received pair.
        let nonce = vec![0x11; e.info.nonce];
        let nonce = (!nonce.is_empty()).then_some(&nonce[..]);
        let one_time = unimac::unstable::macs::one_time_row(name);
        let pair_drawn = unimac::unstable::macs::MACS
            .iter()
            .any(|d| d.catalog_name == *name && d.framing == unimac::unstable::macs::Framing::PairThenTag);
        let keyed = (one_time.is_none() && !pair_drawn).then(|| registry::key(name, &p).unwrap());
        let mac = pair_drawn.then(|| registry::NamedMac::new(name, &key).unwrap());
        let compute = |msg: &[u8]| -> Vec<u8> {
            match (one_time, &keyed, &mac) {
                (Some(_), _, _) if name == "hash127-raw" => {
                    unimac::unstable::hash127::hash127_raw(&unimac::unstable::hash127::Key::new(key[..].try_into().unwrap()), msg)
                        .unwrap()
                        .to_vec()
                }
                (Some(d), _, _) => registry::OneTimeMac::new(d.name, &key).unwrap().tag(msg),
                (None, Some(k), _) => k.compute(nonce, msg).unwrap(),
                (None, None, Some(m)) => {
                    let mut s = m.start_check(nonce).unwrap();
                    s.update(msg);
                    s.finalize().unwrap()
                }
                (None, None, None) => unreachable!(),
            }
        };
        let mut times = [Vec::new(), Vec::new()];
        let mut cpu2 = (0.0, 0.0);
        let mut outs = [Vec::new(), Vec::new()];
        // Alternate the settings so drift hits both alike.
        for _ in 0..reps {
            for (k, t) in [1usize, 2].into_iter().enumerate() {
                set_max_threads(t);
                let (c0, t0) = (cpu_ms(), Instant::now());
                outs[k] = compute(&msg);
                let wall = t0.elapsed().as_secs_f64() * 1e3;
                times[k].push(wall);
                if t == 2 {
                    cpu2 = (cpu2.0 + cpu_ms() - c0, cpu2.1 + wall);
                }
            }
        }
        assert_eq!(outs[0], outs[1], "{name}: results differ");
        let (a, b) = (median(times[0].clone()), median(times[1].clone()));
        // cpu/wall of the 2-thread runs: near 2 when both threads ran.
        println!("{name:<16} {a:>10.2} {b:>10.2} {:>7.2}x {:>9.2}", a / b, cpu2.0 / cpu2.1);
    }
}
