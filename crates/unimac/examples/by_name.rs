//! What tagging by name costs over the typed MAC: for every reusable MAC of
//! the table, TSC ticks per 64-byte message (key set up once, one thread)
//! through `registry::NamedMac::tag_into` and through the typed MAC, measured in
//! turn batch by batch, the median of 201 batches of 100.
//! Run: `cargo run --release -p unimac --example by_name [-- BYTES [NAME...]]`.

use std::hint::black_box;

use unimac::unstable::mac::shoup::{Shoup3Eval128, Shoup4, Shoup4Hash, WcEval128, WcShoup64};
use unimac::unstable::mac::{Hash127Aes, Hash127AesAdd, Hash127AesNonce, TreeHash, WegmanCarter};
use unimac::unstable::macs::{Finish, Hash, MACS};
use unimac::unstable::registry::NamedMac;
use unimac::unstable::shoup::Kind;
use unimac::umac::Umac;
use unimac::vmac::Vmac;

#[cfg(target_arch = "x86_64")]
fn ticks() -> u64 {
    // SAFETY: rdtsc has no preconditions on x86-64.
    unsafe { core::arch::x86_64::_rdtsc() }
}
#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

type Job = Box<dyn FnMut(&[u8])>;

/// The typed MAC of a row, tagging one message under a fixed nonce.
fn typed(d: &'static unimac::unstable::macs::MacDesc, key: &[u8], n: [u8; 16]) -> Job {
    let k32 = |k: &[u8]| -> [u8; 32] { k.try_into().unwrap() };
    let k48 = |k: &[u8]| -> [u8; 48] { k.try_into().unwrap() };
    match (d.hash, d.finish) {
        (Hash::Hash127, Finish::Scramble) => {
            let m = Hash127Aes::new(&k32(key));
            Box::new(move |x| {
                black_box(m.tag(x));
            })
        }
        (Hash::Hash127, Finish::NonceScramble) => {
            let m = Hash127AesNonce::new(&k32(key));
            Box::new(move |x| {
                black_box(m.tag(&n, x));
            })
        }
        (Hash::Hash127, Finish::NoncePadP127) => {
            let m = Hash127AesAdd::new(&k32(key));
            Box::new(move |x| {
                black_box(m.tag(&n, x));
            })
        }
        (Hash::Shoup64(h), Finish::Pad(_)) => {
            let m = WcShoup64::new(h, &key.try_into().unwrap());
            Box::new(move |x| {
                black_box(m.tag(&n, x));
            })
        }
        (Hash::Shoup64(h), Finish::Shoup4) => {
            let w = if h == Kind::Eval64 {
                Shoup4Hash::Eval64
            } else {
                Shoup4Hash::Division64
            };
            let m = Shoup4::new(w, &k48(key));
            Box::new(move |x| {
                black_box(m.tag(x).unwrap());
            })
        }
        (Hash::Tree(f), Finish::Pad(_)) => {
            let m = WegmanCarter::new(TreeHash::new(f), key).unwrap();
            Box::new(move |x| {
                let mut t = [0u8; 16];
                black_box(m.tag_into(&n, x, &mut t).unwrap());
                black_box(t);
            })
        }
        (Hash::Eval128, Finish::Pad(_)) => {
            let m = WcEval128::new(&k32(key));
            Box::new(move |x| {
                black_box(m.tag(&n, x));
            })
        }
        (Hash::Eval128, _) => {
            let m = Shoup3Eval128::new(&k48(key));
            Box::new(move |x| {
                black_box(m.tag(&n, x));
            })
        }
        (Hash::Uhash, _) => {
            let k: [u8; 16] = key.try_into().unwrap();
            match d.tag {
                4 => {
                    let m = Umac::<4>::new(&k);
                    Box::new(move |x| {
                        black_box(m.tag(&n, x).unwrap());
                    })
                }
                8 => {
                    let m = Umac::<8>::new(&k);
                    Box::new(move |x| {
                        black_box(m.tag(&n, x).unwrap());
                    })
                }
                12 => {
                    let m = Umac::<12>::new(&k);
                    Box::new(move |x| {
                        black_box(m.tag(&n, x).unwrap());
                    })
                }
                _ => {
                    let m = Umac::<16>::new(&k);
                    Box::new(move |x| {
                        black_box(m.tag(&n, x).unwrap());
                    })
                }
            }
        }
        _ => {
            if d.tag == 8 {
                let m = Vmac::<8>::new(key).unwrap();
                Box::new(move |x| {
                    black_box(m.tag(&n, x).unwrap());
                })
            } else {
                let m = Vmac::<16>::new(key).unwrap();
                Box::new(move |x| {
                    black_box(m.tag(&n, x).unwrap());
                })
            }
        }
    }
}

fn main() {
    let bytes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(64);
    let only: Vec<String> = std::env::args().skip(2).collect();
    let msg: Vec<u8> = (0..bytes).map(|i| (i * 131) as u8).collect();
    let n = [0x11u8; 16];
    let mut rows: Vec<(&str, Job, Job)> = Vec::new();
    for d in MACS
        .iter()
        .filter(|d| !d.one_time && (only.is_empty() || only.iter().any(|o| o == d.name)))
    {
        let key = vec![0x5au8; d.default_key_len()];
        let mac = NamedMac::new(d.name, &key).unwrap();
        let nonce = d.takes_nonce().then_some(n);
        let by_name: Job = Box::new(move |x| {
            let mut t = [0u8; 32];
            black_box(
                mac.tag_into(nonce.as_ref().map(|n| &n[..]), x, &mut t)
                    .unwrap(),
            );
            black_box(t);
        });
        rows.push((d.name, typed(d, &key, n), by_name));
    }
    let mut samples = vec![(Vec::new(), Vec::new()); rows.len()];
    for _ in 0..201 {
        for (i, (_, t, b)) in rows.iter_mut().enumerate() {
            let (st, sb) = &mut samples[i];
            for (job, out) in [(t, st), (b, sb)] {
                let c = ticks();
                for _ in 0..100 {
                    job(black_box(&msg));
                }
                out.push((ticks() - c) as f64 / 100.0);
            }
        }
    }
    println!("TSC ticks per {bytes}-byte message, median of 201 batches of 100 (typed and by name measured in turn)");
    println!(
        "{:<20} {:>8} {:>8} {:>7}",
        "name", "typed", "by name", "ratio"
    );
    for (i, (name, _, _)) in rows.iter().enumerate() {
        let med = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (t, b) = (med(&mut samples[i].0), med(&mut samples[i].1));
        println!("{name:<20} {t:>8.0} {b:>8.0} {:>7.3}", b / t);
    }
}
