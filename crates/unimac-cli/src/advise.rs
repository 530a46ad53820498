//! `unimac advise`: which MAC for a use, on this machine. Every reusable
//! MAC of the build is timed now (`registry::NamedMac::tag_into`, one
//! thread, the key set up once, this thread's CPU time: time the scheduler
//! gives to other work is not counted) on a 1 MiB and a 64-byte message,
//! in [`ROUNDS`] rounds that each time every MAC in turn (about a second
//! of CPU time in all); a MAC's speed is its best round, its spread how
//! much slower the median round was. The time of a message as long as the
//! use's longest is estimated from the two lengths (a fixed cost per
//! message plus a cost per byte), and shown in a column of its own when
//! it is neither of the two.
//!
//! The advice is [`DEFAULT`], hash127-aes (stateless: no counter file),
//! unless a MAC whose forgery bound (`unimac_front::bounds::bound`) for the use
//! is at most 2^-32 and proven (not a paper's sketch) is clearly at least
//! [`MARGIN`] times as fast for the use: each such MAC is timed back to
//! back with the default in every round, and the low end of the
//! confidence interval of the rounds' ratios ([`Ratio`]) must clear the
//! bar ([`bar`]). A busy spell of the machine falls on both of a pair, and
//! a MAC near the bar, whose interval straddles it, leaves the default:
//! the advice moves only on differences larger than the noise (see
//! [`choose`]). One-time MACs (one message per key) are left out.

use std::hint::black_box;
use std::io::{self, Write};
use std::time::Duration;

use unimac_front::bounds::{self, Attack};
use unimac_front::registry::{self, NamedMac};

use crate::clock::Clock;
use crate::fail::Fail;
use crate::keyfile::counter_nonce;
use crate::strength::{self, WEAK_LOG2};

/// The two message lengths measured.
const LONG: usize = 1 << 20;
const SHORT: usize = 64;
/// The CPU time all measurements together take, about.
const BUDGET: Duration = Duration::from_millis(1200);
/// Rounds: in each, every MAC is timed once at each length, one after
/// the other, so that a busy spell of the machine falls on all of them;
/// 15 give a 96% confidence interval for the median ratio between the 4th
/// smallest and the 4th largest.
const ROUNDS: usize = 15;
/// The default MAC: stateless, no counter to keep.
pub const DEFAULT: &str = "hash127-aes";
/// How much faster for the use another MAC must be, on the low end of its
/// ratio's confidence interval, to be advised over [`DEFAULT`].
pub const MARGIN: f64 = 2.0;
/// The least spread a time is taken to have (5%): two times closer than
/// this are never told apart.
const NOISE_FLOOR: f64 = 0.05;

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

/// The times of one length over the rounds: the best (least disturbed by
/// other work on the machine) and the median, in nanoseconds.
#[derive(Clone, Copy)]
struct Timing {
    best: f64,
    median: f64,
}

impl Timing {
    fn of(mut v: Vec<f64>) -> Timing {
        v.sort_by(f64::total_cmp);
        Timing { best: v[0], median: v[v.len() / 2] }
    }
    /// The spread: how much slower the median round was than the best.
    fn spread(&self) -> f64 {
        self.median / self.best.max(1e-3) - 1.0
    }
}

/// One MAC measured for the use.
struct Measured {
    name: &'static str,
    /// Its place in the registry's order.
    order: usize,
    /// Whether it is the one the others that meet the use were timed
    /// against ([`DEFAULT`] when it meets the use).
    reference: bool,
    /// log2 of its forgery bound for the use (None: no guarantee).
    bound: Option<f64>,
    /// Whether the bound is proven (not a paper's sketch).
    proven: bool,
    /// A 1 MiB and a 64-byte message.
    long: Timing,
    short: Timing,
    /// How many times as fast as the reference for the use, timed back to
    /// back with it in each round (None: the reference, or not meeting
    /// the use).
    ratio: Option<Ratio>,
    /// Whether it takes a nonce per message (a counter file to keep).
    nonce: bool,
    /// The noise of the machine during the run: the median spread of all
    /// the MACs' times, at least [`NOISE_FLOOR`].
    machine_noise: f64,
}

impl Measured {
    /// Estimated nanoseconds (best rounds) for one message of `len` bytes.
    fn ns_at(&self, len: u64) -> f64 {
        ns_at(self.long.best, self.short.best, len)
    }
    /// The relative noise of its times: the larger spread of its two
    /// lengths, at least the machine's ([`Measured::machine_noise`]).
    fn noise(&self) -> f64 {
        self.long.spread().max(self.short.spread()).max(self.machine_noise)
    }
    /// Whether it is faster than `other` at `len` by more than the noise
    /// of either.
    fn clearly_faster(&self, other: &Measured, len: u64) -> bool {
        self.ns_at(len) * (1.0 + self.noise().max(other.noise())) < other.ns_at(len)
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

/// A MAC ready to be timed: its description, the keyed MAC and its nonce.
struct Timed {
    d: &'static unimac_front::macs::MacDesc,
    m: NamedMac,
    nonce: Option<Vec<u8>>,
}

/// This thread's CPU time now, in nanoseconds: time the scheduler gave
/// to other work on a busy machine is not counted (elsewhere: the wall
/// clock).
#[cfg(target_os = "linux")]
fn now_ns() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
}
#[cfg(not(target_os = "linux"))]
fn now_ns() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as f64
}

/// Sub-batches a batch of calls is timed in: a batch's time is its
/// quickest sub-batch's, so that the cache refilled after the scheduler
/// ran other work, which slows one of the pair and not the other, is left
/// out.
const SUB: u64 = 8;

/// Nanoseconds (this thread's CPU time) per message of `len` bytes over
/// `calls` calls, the quickest of [`SUB`] sub-batches.
fn time_calls(t: &Timed, msg: &[u8], calls: u64) -> f64 {
    let mut out = [0u8; 64];
    let per = calls.div_ceil(SUB).max(1);
    let mut best = f64::INFINITY;
    for _ in 0..SUB.min(calls.max(1)) {
        let start = now_ns();
        for _ in 0..per {
            let _ = t.m.tag_into(t.nonce.as_deref(), black_box(msg), &mut out);
            black_box(&out);
        }
        best = best.min((now_ns() - start) / per as f64);
    }
    best
}

/// Nanoseconds for one message of `len` bytes from the times of one long
/// and one short message: a fixed cost per message plus a cost per byte.
fn ns_at(long: f64, short: f64, len: u64) -> f64 {
    let per_byte = ((long - short) / (LONG - SHORT) as f64).max(0.0);
    let fixed = (short - per_byte * SHORT as f64).max(0.0);
    fixed + per_byte * len as f64
}

/// How many times as fast as the reference a MAC was for the use, from
/// the rounds' ratios (the reference's time over the MAC's, both timed
/// back to back in the same round): their median and a two-sided 96%
/// confidence interval for it (order statistics: no assumption about the
/// noise's shape).
#[derive(Clone, Copy)]
struct Ratio {
    median: f64,
    low: f64,
    high: f64,
}

impl Ratio {
    fn of(mut v: Vec<f64>) -> Ratio {
        v.sort_by(f64::total_cmp);
        let n = v.len();
        // v[k]: the largest order statistic with P(Binomial(n, 1/2) <= k)
        // at most 2.5% (the smallest when there is none).
        let (mut k, mut p, mut cdf) = (0usize, 0.5f64.powi(n as i32), 0.0);
        for j in 0..n / 2 {
            cdf += p;
            if cdf > 0.025 {
                break;
            }
            k = j;
            p *= (n - j) as f64 / (j + 1) as f64;
        }
        Ratio { median: v[n / 2], low: v[k], high: v[n - 1 - k] }
    }
}

/// Time every MAC of `macs` at [`LONG`] and [`SHORT`] bytes in [`ROUNDS`]
/// rounds, each timing every MAC in turn (a batch of calls filling about
/// [`BUDGET`] / (rounds x cells)); each MAC of `paired` is timed back to
/// back with `macs[reference]` in every round (which goes first
/// alternating from round to round), so that the two share whatever the
/// machine was doing then. The first call of each, untimed, checks that
/// it tags. The long and the short [`Timing`] of each, and for the paired
/// the [`Ratio`] of the reference's time to theirs for `at`-byte messages.
fn measure(macs: &[Timed], reference: Option<usize>, paired: &[bool], at: u64) -> Result<Vec<(Timing, Timing, Option<Ratio>)>, Fail> {
    let mut msg = vec![0u8; LONG];
    fill(&mut msg, 0x5eed);
    let pairs = paired.iter().filter(|p| **p).count();
    let cells = 2 * (macs.len() + pairs);
    let cell = BUDGET.as_nanos() as f64 / (ROUNDS * cells.max(1)) as f64;
    let mut calls = Vec::new();
    for t in macs {
        let mut out = [0u8; 64];
        for len in [LONG, SHORT] {
            t.m.tag_into(t.nonce.as_deref(), &msg[..len], &mut out)
                .map_err(|e| Fail(format!("{}: {}", t.d.name, crate::names::cite(&e.to_string()))))?;
            let one = time_calls(t, &msg[..len], 4).max(1.0);
            calls.push(((cell / one) as u64).max(1));
        }
    }
    let n = macs.len();
    let mut long = vec![Vec::with_capacity(ROUNDS); n];
    let mut short = vec![Vec::with_capacity(ROUNDS); n];
    let mut ratios = vec![Vec::with_capacity(ROUNDS); n];
    let time = |i: usize, long: &mut Vec<Vec<f64>>, short: &mut Vec<Vec<f64>>| {
        let l = time_calls(&macs[i], &msg, calls[2 * i]);
        let s = time_calls(&macs[i], &msg[..SHORT], calls[2 * i + 1]);
        long[i].push(l);
        short[i].push(s);
        (l, s)
    };
    for round in 0..ROUNDS {
        for i in 0..n {
            match reference {
                Some(r) if paired[i] && i != r => {
                    let (a, b) = if round % 2 == 0 {
                        let a = time(r, &mut long, &mut short);
                        (a, time(i, &mut long, &mut short))
                    } else {
                        let b = time(i, &mut long, &mut short);
                        (time(r, &mut long, &mut short), b)
                    };
                    ratios[i].push(ns_at(a.0, a.1, at) / ns_at(b.0, b.1, at).max(1e-3));
                }
                Some(r) if i == r && pairs > 0 => {}
                _ => {
                    time(i, &mut long, &mut short);
                }
            }
        }
    }
    Ok(long
        .into_iter()
        .zip(short)
        .zip(ratios)
        .map(|((l, s), r)| (Timing::of(l), Timing::of(s), (!r.is_empty()).then(|| Ratio::of(r))))
        .collect())
}

/// Every reusable MAC of the build, with its bound for the use, timed;
/// each MAC that meets the use timed back to back with the reference
/// ([`DEFAULT`] when it meets the use, else the first that does).
fn measure_all(max_bytes: u64, tags: Option<u64>, forgeries: u64) -> Result<Vec<Measured>, Fail> {
    let mut macs = Vec::new();
    let mut bounds = Vec::new();
    for d in registry::names().iter().filter_map(|n| unimac_front::macs::find(n)).filter(|d| !d.one_time) {
        let mut key = vec![0u8; d.default_key_len()];
        fill(&mut key, 0x6b65);
        let m = NamedMac::new(d.name, &key).map_err(|e| Fail(crate::names::cite(&e.to_string())))?;
        let nonce = if d.takes_nonce() { Some(counter_nonce(d, 1)?) } else { None };
        let tags = tags.unwrap_or_else(|| strength::use_tags(d.name, max_bytes));
        let b = bounds::bound(d.name, &Attack { max_bytes, tags, forgeries, random_nonces: false }).ok();
        bounds.push((b.as_ref().map(|b| b.log2.0), b.is_some_and(|b| b.proven)));
        macs.push(Timed { d, m, nonce });
    }
    let meets: Vec<bool> = bounds.iter().map(|&(b, proven)| proven && b.is_some_and(|b| b <= WEAK_LOG2)).collect();
    let reference = macs
        .iter()
        .position(|t| t.d.name == DEFAULT)
        .filter(|&i| meets[i])
        .or_else(|| meets.iter().position(|m| *m));
    let times = measure(&macs, reference, &meets, max_bytes)?;
    let mut spreads: Vec<f64> = times.iter().flat_map(|(l, s, _)| [l.spread(), s.spread()]).collect();
    spreads.sort_by(f64::total_cmp);
    let machine_noise = spreads.get(spreads.len() / 2).copied().unwrap_or(0.0).max(NOISE_FLOOR);
    Ok(macs
        .iter()
        .zip(times)
        .zip(bounds)
        .enumerate()
        .map(|(order, ((t, (long, short, ratio)), (bound, proven)))| Measured {
            name: t.d.name,
            order,
            reference: Some(order) == reference,
            bound,
            proven,
            long,
            short,
            ratio,
            nonce: t.d.takes_nonce(),
            machine_noise,
        })
        .collect())
}

/// Rank `m` fastest first at `at` bytes, a MAC moved ahead of another
/// only when it is faster by more than the noise ([`Measured::clearly_faster`]);
/// MACs within the noise of each other keep the registry's order. (A
/// strict partial order: the adjacent swaps end.)
fn rank(m: &mut [Measured], at: u64) {
    loop {
        let mut swapped = false;
        for i in 1..m.len() {
            if m[i].clearly_faster(&m[i - 1], at) {
                m.swap(i - 1, i);
                swapped = true;
            }
        }
        if !swapped {
            return;
        }
    }
}

/// The ratio to the reference a MAC's must clear, with its whole
/// confidence interval, to be advised over it: [`MARGIN`] over
/// [`DEFAULT`], merely faster over another reference, with
/// [`NOISE_FLOOR`] more to spare either way.
fn bar(reference: &Measured) -> f64 {
    (if reference.name == DEFAULT { MARGIN } else { 1.0 }) * (1.0 + NOISE_FLOOR)
}

/// The advice: the reference ([`DEFAULT`] when it meets the use), unless
/// a MAC that meets the use was faster than it by the [`bar`] in the
/// rounds, the low end of its ratio's confidence interval counted (a
/// ratio taken within each round, which a busy spell moves for both of the
/// pair alike; a MAC that clears the bar in some runs and not in others is
/// not clearly faster, and the reference stays). Of several that clear it,
/// the smallest bound, then the registry's order: never a speed
/// difference, which two MACs each timed against the reference but not
/// against each other could show one run and not the next.
fn choose(m: &[Measured]) -> Option<&Measured> {
    let reference = m.iter().find(|x| x.reference)?;
    let bar = bar(reference);
    let mut clear: Vec<&Measured> = m.iter().filter(|x| x.meets() && x.ratio.is_some_and(|r| r.low >= bar)).collect();
    clear.sort_by(|a, b| a.bound.unwrap_or(0.0).total_cmp(&b.bound.unwrap_or(0.0)).then(a.order.cmp(&b.order)));
    Some(clear.first().copied().unwrap_or(reference))
}

/// `unimac advise [--max-bytes L] [--tags C] [--forgeries D]`.
pub fn advise(max_bytes: u64, tags: Option<u64>, forgeries: u64) -> Result<(), Fail> {
    if max_bytes == 0 {
        return Err(Fail("--max-bytes must be at least 1".into()));
    }
    // Every figure is one thread's.
    unimac::threads::set_max_threads(1);
    let mut measured = measure_all(max_bytes, tags, forgeries)?;
    let at = max_bytes;
    rank(&mut measured, at);
    let tags_shown = tags.map_or("2^32 (fewer past 4 PiB in all)".to_string(), |t| t.to_string());
    let Some(best) = choose(&measured) else {
        return Err(Fail(format!(
            "no MAC of this build has a forgery bound of at most 2^-32 for {tags_shown} tags and {forgeries} forgery attempts on messages of {max_bytes} bytes (see 'unimac bound')"
        )));
    };
    let mut text = format!(
        "# unimac advise: messages of at most {max_bytes} bytes, {tags_shown} tags, {forgeries} forgery attempts; \
         measured now on this machine ({}), one thread, {ROUNDS} rounds of its CPU time, each MAC that meets the use timed back to back with the reference in each (speeds: the best round; spread: how much slower the median round was), so the choice is this machine's\n",
        crate::clock::cpu_model()
    );
    let noise = measured.first().map_or(0.0, |m| m.machine_noise);
    text.push_str(&format!("# the machine's noise now: {:.0}% (the median spread of all the times)\n", noise * 100.0));
    let speed = speed_text(at);
    text.push_str(&format!("Use {}: forgery bound {} for this use; {}\n", best.name, bound_text(best.bound), speed(best)));
    text.push_str(&why(&measured, best, at));
    text.push_str(&format!(
        "Rule: {DEFAULT} (stateless: no counter file to keep) unless a MAC whose proven bound meets the use is at least {MARGIN}x as fast for it, \
         timed back to back with it in each round, the low end of the 96% confidence interval of the rounds' ratios counted, with {:.0}% more to spare \
         (a MAC not clearly {MARGIN}x as fast leaves {DEFAULT}); of several, the smallest bound, then the registry's fixed order; \
         the table below moves a MAC ahead only when faster beyond the spread of the two\n",
        NOISE_FLOOR * 100.0
    ));
    if best.nonce {
        text.push_str(&format!(
            "It takes a nonce per message: 'unimac keygen {n} -o K --counter C', 'unimac tag {n} --key-file K --counter C FILE'.\n",
            n = best.name
        ));
        if let Some(s) = measured.iter().find(|m| m.meets() && !m.nonce) {
            text.push_str(&format!("Without a nonce to manage: {} (bound {}; {})\n", s.name, bound_text(s.bound), speed(s)));
        }
    }
    text.push_str(&table(&measured, at));
    io::stdout().write_all(text.as_bytes())?;
    Ok(())
}

/// A MAC's speeds as the advice line shows them.
fn speed_text(at: u64) -> impl Fn(&Measured) -> String {
    let clock = Clock::read();
    let cycles = !clock.source.starts_with("unknown");
    move |m: &Measured| {
        let mut s = format!(
            "{:.2} GiB/s on 1 MiB (spread {:.0}%), {:.2} GiB/s on 64 B (spread {:.0}%)",
            gib_s(LONG, m.long.best),
            m.long.spread() * 100.0,
            gib_s(SHORT, m.short.best),
            m.short.spread() * 100.0
        );
        if at != LONG as u64 && at != SHORT as u64 {
            s.push_str(&format!(", about {:.2} GiB/s on {} (estimated)", gib_s_u64(at, m.ns_at(at)), size_label(at)));
        }
        if cycles {
            let cpb = |ns: f64, len: usize| ns * clock.hz * 1e-9 / len as f64;
            s = format!(
                "{s} ({:.2} and {:.1} cycles/byte at {:.2} GHz)",
                cpb(m.long.best, LONG),
                cpb(m.short.best, SHORT),
                clock.hz / 1e9
            );
        }
        s
    }
}

/// A ratio to the reference as the `Why:` line shows it.
fn ratio_text(r: &Ratio) -> String {
    format!("{:.2}x (median of {ROUNDS} rounds; 96% interval {:.2}x to {:.2}x)", r.median, r.low, r.high)
}

/// The `Why:` line of the advice `best`.
fn why(measured: &[Measured], best: &Measured, at: u64) -> String {
    let Some(reference) = measured.iter().find(|m| m.reference) else { return String::new() };
    let bar = bar(reference);
    // The challenger nearest the bar: the one with the highest low end.
    let nearest = measured
        .iter()
        .filter(|m| m.meets() && !m.reference && m.name != best.name)
        .filter_map(|m| m.ratio.map(|r| (m, r)))
        .max_by(|a, b| a.1.low.total_cmp(&b.1.low).then(b.0.order.cmp(&a.0.order)));
    let mut why = if best.reference && best.name == DEFAULT {
        let mut w = format!("Why: stateless, and no MAC whose proven bound meets the use is clearly {MARGIN}x as fast for {at}-byte messages ({bar:.2}x on the low end of its interval)");
        if let Some((n, r)) = nearest {
            let clearly = if r.high >= bar { format!(": not clearly {MARGIN}x faster here") } else { String::new() };
            w.push_str(&format!("; {} (bound {}): {}{clearly}", n.name, bound_text(n.bound), ratio_text(&r)));
        }
        w
    } else if best.reference {
        format!("Why: {DEFAULT}'s bound does not meet this use; of the MACs whose proven bound is at most 2^-32, the first in the registry's fixed order, none clearly faster for {at}-byte messages")
    } else if reference.name == DEFAULT {
        format!(
            "Why: {} as fast as {DEFAULT} for {at}-byte messages, timed back to back with it, above the {bar:.2}x bar on the low end, with a proven bound that meets the use",
            best.ratio.as_ref().map_or(String::new(), ratio_text)
        )
    } else {
        format!(
            "Why: {DEFAULT}'s bound does not meet this use; {} as fast as {} for {at}-byte messages, above the {bar:.2}x bar on the low end",
            best.ratio.as_ref().map_or(String::new(), ratio_text),
            reference.name
        )
    };
    if let Some(w) = measured.first().filter(|m| m.name != best.name && !m.meets()) {
        let weak = match w.bound {
            None => "has no forgery guarantee".to_string(),
            Some(b) if !w.proven && b <= WEAK_LOG2 => format!("its bound, 2^{b:.1}, rests on a paper's sketch, not a proof"),
            Some(b) => format!("its bound is 2^{b:.1}, weak for this use"),
        };
        why.push_str(&format!("; {} is faster but {weak}", w.name));
    }
    why.push('\n');
    why
}

/// The table of every reusable MAC, ranked for the use.
fn table(measured: &[Measured], at: u64) -> String {
    let mut text = String::from("\n# Every reusable MAC, fastest first for this use (ahead only when faster beyond the spread; one-time MACs left out):\n");
    // The column of the length the table is ranked by, when it is neither
    // of the two measured: estimated from them.
    let ranked = (at != LONG as u64 && at != SHORT as u64).then(|| format!("GiB/s ({} est.)", size_label(at)));
    let rw = ranked.as_ref().map_or(0, |h| h.len());
    text.push_str(&format!(
        "{:<20} {:>11} {:>13} {:>7} {:>12} {:>7}{}  {}\n",
        "NAME",
        "log2(BOUND)",
        "GiB/s (1MiB)",
        "spread",
        "GiB/s (64B)",
        "spread",
        ranked.as_ref().map_or(String::new(), |h| format!(" {h}")),
        "NOTE"
    ));
    for m in measured {
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
            "{:<20} {:>11} {:>13.2} {:>6.0}% {:>12.2} {:>6.0}%{}  {}\n",
            m.name,
            m.bound.map_or("none".to_string(), |b| format!("{b:.1}")),
            gib_s(LONG, m.long.best),
            m.long.spread() * 100.0,
            gib_s(SHORT, m.short.best),
            m.short.spread() * 100.0,
            at_col,
            note
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::Ratio;

    /// The interval of the median from order statistics: with 15 rounds
    /// P(Binomial(15, 1/2) <= 3) = 576/32768 = 1.8% and P(<= 4) = 5.9%, so
    /// the 4th smallest and the 4th largest (96.5% coverage); the rounds'
    /// order does not matter.
    #[test]
    fn fifteen_rounds_give_the_fourth_from_each_end() {
        let sorted: Vec<f64> = (1..=15).map(f64::from).collect();
        let mut shuffled = sorted.clone();
        shuffled.reverse();
        shuffled.swap(2, 9);
        for v in [sorted, shuffled] {
            let r = Ratio::of(v);
            assert_eq!((r.low, r.median, r.high), (4.0, 8.0, 12.0));
        }
    }

    /// With 5 rounds even the extremes cover less than 95% (P(<= 0) =
    /// 1/32 = 3.1%): the interval is the whole range, never narrower.
    #[test]
    fn few_rounds_give_the_whole_range() {
        let r = Ratio::of(vec![2.5, 2.0, 3.0, 2.2, 2.8]);
        assert_eq!((r.low, r.median, r.high), (2.0, 2.5, 3.0));
    }

    /// One round far off moves neither end of the interval past the next
    /// order statistic: a pause of the machine in one round cannot carry
    /// the advice across the bar.
    #[test]
    fn one_outlier_round_does_not_move_the_interval_past_its_neighbours() {
        let mut v = vec![2.7; 14];
        v.push(0.5);
        let r = Ratio::of(v);
        assert_eq!((r.low, r.median, r.high), (2.7, 2.7, 2.7));
    }
}
