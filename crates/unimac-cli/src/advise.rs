//! `unimac advise`: which MAC for a use, on this machine. Every reusable
//! MAC of the build is timed now (`registry::NamedMac::tag_into`, one thread, the
//! key set up once) on a 1 MiB and a 64-byte message, the median of a few
//! batches, in about a second in all; the time of a message as long as the
//! use's longest is estimated from the two (a fixed cost per message plus a
//! cost per byte), and shown in a column of its own when it is neither
//! of the two. The advice is the fastest MAC whose forgery bound
//! (`unimac::bounds::bound`) for the use is at most 2^-32 and proven (not a
//! paper's sketch); one-time MACs (one message per key) are left out.

use std::hint::black_box;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use unimac::bounds::{self, Attack};
use unimac::registry::{self, NamedMac};

use crate::clock::Clock;
use crate::fail::Fail;
use crate::keyfile::counter_nonce;
use crate::strength::{self, WEAK_LOG2};

/// The two message lengths measured.
const LONG: usize = 1 << 20;
const SHORT: usize = 64;
/// The time all measurements together take, about.
const BUDGET: Duration = Duration::from_millis(700);
/// Batches per length; the median is kept.
const BATCHES: usize = 5;

/// Deterministic filler for the measured messages and keys (a measurement
/// authenticates nothing: they need not be secret).
fn fill(buf: &mut [u8], mut seed: u64) {
    for b in buf.iter_mut() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        *b = seed as u8;
    }
}

/// One MAC measured for the use.
struct Measured {
    name: &'static str,
    /// log2 of its forgery bound for the use (None: no guarantee).
    bound: Option<f64>,
    /// Whether the bound is proven (not a paper's sketch).
    proven: bool,
    /// Nanoseconds per 1 MiB and per 64-byte message.
    ns_long: f64,
    ns_short: f64,
    /// Whether it takes a nonce per message (a counter file to keep).
    nonce: bool,
}

impl Measured {
    /// Estimated nanoseconds for one message of `len` bytes.
    fn ns_at(&self, len: u64) -> f64 {
        let per_byte = ((self.ns_long - self.ns_short) / (LONG - SHORT) as f64).max(0.0);
        let fixed = (self.ns_short - per_byte * SHORT as f64).max(0.0);
        fixed + per_byte * len as f64
    }
    /// Whether its proven bound is at most 2^-32 for the use.
    fn meets(&self) -> bool {
        self.proven && self.bound.is_some_and(|b| b <= WEAK_LOG2)
    }
}

/// GiB/s of `bytes` in `ns` nanoseconds.
fn gib_s(bytes: usize, ns: f64) -> f64 {
    bytes as f64 / ns.max(1e-3) * 1e9 / (1u64 << 30) as f64
}

/// GiB/s of `bytes` in `ns` nanoseconds, for a length that may not fit a
/// `usize` on every target.
fn gib_s_u64(bytes: u64, ns: f64) -> f64 {
    bytes as f64 / ns.max(1e-3) * 1e9 / (1u64 << 30) as f64
}

/// A length as a column title: `4KiB`, `3MiB`, or `1500B`.
fn size_label(n: u64) -> String {
    for (unit, shift) in [("EiB", 60), ("PiB", 50), ("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        if n >= 1 << shift && n.is_multiple_of(1 << shift) {
            return format!("{}{unit}", n >> shift);
        }
    }
    format!("{n}B")
}

fn bound_text(b: Option<f64>) -> String {
    b.map_or("none".to_string(), |b| format!("2^{b:.1}"))
}

/// Nanoseconds per call of `f`: the median of [`BATCHES`] batches, each of
/// as many calls as fill about `budget` / [`BATCHES`].
fn median_ns(budget: Duration, f: &mut dyn FnMut()) -> f64 {
    f();
    let t = Instant::now();
    f();
    let one = t.elapsed().as_nanos().max(1) as f64;
    let calls = ((budget.as_nanos() as f64 / BATCHES as f64 / one) as u64).max(1);
    let mut v: Vec<f64> = (0..BATCHES)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..calls {
                f();
            }
            t.elapsed().as_nanos() as f64 / calls as f64
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `unimac advise [--max-bytes L] [--tags C] [--forgeries D]`.
pub fn advise(max_bytes: u64, tags: Option<u64>, forgeries: u64) -> Result<(), Fail> {
    if max_bytes == 0 {
        return Err(Fail("--max-bytes must be at least 1".into()));
    }
    // Every figure is one thread's.
    unimac::threads::set_max_threads(1);
    let candidates: Vec<&'static unimac::macs::MacDesc> = registry::names()
        .iter()
        .filter_map(|n| unimac::macs::find(n))
        .filter(|d| !d.one_time)
        .collect();
    let per_cell = BUDGET / (2 * candidates.len().max(1)) as u32;
    let mut msg = vec![0u8; LONG];
    fill(&mut msg, 0x5eed);
    let mut measured = Vec::new();
    for d in candidates {
        let tags = tags.unwrap_or_else(|| strength::use_tags(d.name, max_bytes));
        let b = bounds::bound(
            d.name,
            &Attack {
                max_bytes,
                tags,
                forgeries,
                random_nonces: false,
            },
        )
        .ok();
        let (bound, proven) = (b.as_ref().map(|b| b.log2.0), b.is_some_and(|b| b.proven));
        let mut key = vec![0u8; d.default_key_len()];
        fill(&mut key, 0x6b65);
        let m = NamedMac::new(d.name, &key).map_err(|e| Fail(crate::names::cite(&e.to_string())))?;
        let nonce = if d.takes_nonce() {
            Some(counter_nonce(d, 1)?)
        } else {
            None
        };
        let mut out = [0u8; 64];
        let mut time = |len: usize| -> Result<f64, Fail> {
            let m = &m;
            let mut err = None;
            let ns = median_ns(per_cell, &mut || {
                if let Err(e) = m.tag_into(nonce.as_deref(), black_box(&msg[..len]), &mut out) {
                    err = Some(e);
                }
                black_box(&out);
            });
            match err {
                Some(e) => Err(Fail(format!("{}: {}", d.name, crate::names::cite(&e.to_string())))),
                None => Ok(ns),
            }
        };
        let ns_long = time(LONG)?;
        let ns_short = time(SHORT)?;
        measured.push(Measured {
            name: d.name,
            bound,
            proven,
            ns_long,
            ns_short,
            nonce: d.takes_nonce(),
        });
    }
    let at = max_bytes;
    measured.sort_by(|a, b| a.ns_at(at).total_cmp(&b.ns_at(at)));
    let clock = Clock::read();
    let cycles = !clock.source.starts_with("unknown");
    let speed = |m: &Measured| {
        let mut s = format!(
            "{:.2} GiB/s on 1 MiB, {:.2} GiB/s on 64 B",
            gib_s(LONG, m.ns_long),
            gib_s(SHORT, m.ns_short)
        );
        if at != LONG as u64 && at != SHORT as u64 {
            s.push_str(&format!(", about {:.2} GiB/s on {} (estimated)", gib_s_u64(at, m.ns_at(at)), size_label(at)));
        }
        if cycles {
            let cpb = |ns: f64, len: usize| ns * clock.hz * 1e-9 / len as f64;
            s = format!(
                "{} ({:.2} and {:.1} cycles/byte at {:.2} GHz)",
                s,
                cpb(m.ns_long, LONG),
                cpb(m.ns_short, SHORT),
                clock.hz / 1e9
            );
        }
        s
    };
    let tags_shown = tags.map_or("2^32 (fewer past 4 PiB in all)".to_string(), |t| t.to_string());
    let mut text = format!(
        "# unimac advise: messages of at most {max_bytes} bytes, {tags_shown} tags, {forgeries} forgery attempts; \
         measured now on this machine ({}), one thread, so the choice is this machine's\n",
        crate::clock::cpu_model()
    );
    let Some(best) = measured.iter().find(|m| m.meets()) else {
        return Err(Fail(format!(
            "no MAC of this build has a forgery bound of at most 2^-32 for {tags_shown} tags and {forgeries} forgery attempts on messages of {max_bytes} bytes (see 'unimac bound')"
        )));
    };
    text.push_str(&format!(
        "Use {}: forgery bound {} for this use; {}\n",
        best.name,
        bound_text(best.bound),
        speed(best)
    ));
    let next = measured.iter().find(|m| m.meets() && m.name != best.name);
    let faster_weak = measured.first().filter(|m| m.name != best.name);
    let mut why = format!(
        "Why: the fastest here for {at}-byte messages of the MACs whose proven bound is at most 2^-32"
    );
    if let Some(n) = next {
        why.push_str(&format!(
            "; faster than {} ({:.2}x, bound {})",
            n.name,
            n.ns_at(at) / best.ns_at(at).max(1e-3),
            bound_text(n.bound)
        ));
    }
    if let Some(w) = faster_weak {
        let weak = match w.bound {
            None => "has no forgery guarantee".to_string(),
            Some(b) if !w.proven && b <= WEAK_LOG2 => format!("its bound, 2^{b:.1}, rests on a paper's sketch, not a proof"),
            Some(b) => format!("its bound is 2^{b:.1}, weak for this use"),
        };
        why.push_str(&format!("; {} is faster but {weak}", w.name));
    }
    text.push_str(&why);
    text.push('\n');
    if best.nonce {
        text.push_str(&format!(
            "It takes a nonce per message: 'unimac keygen {n} -o K --counter C', 'unimac tag {n} --key-file K --counter C FILE'.\n",
            n = best.name
        ));
        if let Some(s) = measured.iter().find(|m| m.meets() && !m.nonce) {
            text.push_str(&format!(
                "Without a nonce to manage: {} (bound {}; {})\n",
                s.name,
                bound_text(s.bound),
                speed(s)
            ));
        }
    }
    text.push_str("\n# Every reusable MAC, fastest first for this use (one-time MACs left out):\n");
    // The column of the length the table is ranked by, when it is neither
    // of the two measured: estimated from them.
    let ranked = (at != LONG as u64 && at != SHORT as u64).then(|| format!("GiB/s ({} est.)", size_label(at)));
    let rw = ranked.as_ref().map_or(0, |h| h.len());
    text.push_str(&format!(
        "{:<20} {:>11} {:>13} {:>12}{}  {}\n",
        "NAME",
        "log2(BOUND)",
        "GiB/s (1MiB)",
        "GiB/s (64B)",
        ranked.as_ref().map_or(String::new(), |h| format!(" {h}")),
        "NOTE"
    ));
    for m in &measured {
        let note = match (m.meets(), m.nonce) {
            (false, _) if !m.proven && m.bound.is_some_and(|b| b <= WEAK_LOG2) => "bound not proven (a paper's sketch)",
            (false, _) => "weak for this use",
            (true, true) => "nonce (counter file)",
            (true, false) => "stateless",
        };
        let at_col = match &ranked {
            Some(_) => format!(" {:>rw$.2}", gib_s_u64(at, m.ns_at(at))),
            None => String::new(),
        };
        text.push_str(&format!(
            "{:<20} {:>11} {:>13.2} {:>12.2}{}  {}\n",
            m.name,
            m.bound.map_or("none".to_string(), |b| format!("{b:.1}")),
            gib_s(LONG, m.ns_long),
            gib_s(SHORT, m.ns_short),
            at_col,
            note
        ));
    }
    io::stdout().write_all(text.as_bytes())?;
    Ok(())
}
