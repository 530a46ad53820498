//! The machine-readable and comparative outputs of `unimac-bench`:
//!
//! - `--json`: every default name and every peer at 16 B to 1 MiB, one JSON
//!   object with cycles per message and bytes per cycle;
//! - `--plot FILE.svg`: throughput against message length, 16 B to 64 MiB,
//!   log-log, one line per family representative, main MAC and peer;
//! - `--paper`: the speed tables of the papers the library implements, each
//!   row measured now beside the paper's figure in cycles per byte.
//!
//! Method (all three): each name is keyed once; a cell is the median of
//! several batches of calls, each batch long enough to dwarf the clock's
//! resolution, timed with [`Instant`] (no `unsafe`, so no `rdtsc`).
//! Nanoseconds become cycles with one frequency read once per run: the
//! CPU's base (nominal) frequency from
//! `/sys/devices/system/cpu/cpu0/cpufreq/base_frequency` if the kernel
//! exposes it, else `cpu MHz` of `/proc/cpuinfo` (on virtual machines with
//! `tsc_known_freq` that is the time-stamp counter's frequency). So a cycle
//! here is a TSC (nominal) cycle, as in the criterion benches' cycle figures;
//! turbo makes the core do more than one cycle of work per TSC cycle.
//! `UNIMAC_BENCH_QUICK=1` (or the hidden `--quick`) cuts the repetitions to
//! a few milliseconds per cell, for tests.

use unimac::unstable::prelude::*;
use std::hint::black_box;
use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use hmac::Mac;
use unimac::unstable::registry;

use crate::clock::{cpu_model, Clock};
use crate::table::{self, fill, size_label, Runner};
use crate::fail::Fail;

/// True when `UNIMAC_BENCH_QUICK` is set to anything but empty or `0`.
pub fn quick_env() -> bool {
    std::env::var("UNIMAC_BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// How hard to measure: batches per cell and the target length of a batch.
#[derive(Clone, Copy)]
struct Effort {
    reps: usize,
    batch_ns: f64,
}

impl Effort {
    fn new(quick: bool) -> Effort {
        if quick {
            Effort {
                reps: 3,
                batch_ns: 2e5,
            }
        } else {
            Effort {
                reps: 15,
                batch_ns: 2e6,
            }
        }
    }

    /// Fewer batches for messages past 4 MiB (one call is a batch there).
    fn for_len(self, len: usize) -> Effort {
        if len > 4 << 20 {
            Effort {
                reps: self.reps.min(3),
                ..self
            }
        } else {
            self
        }
    }
}

/// Nanoseconds per call of `f`: the median of `reps` batches, each of as
/// many calls as take about `batch_ns` (found first, from a warm start).
fn median_ns(e: Effort, f: &mut dyn FnMut()) -> f64 {
    batch_ns(e, f).0
}

/// Nanoseconds per call of `f` in the median batch and in the fastest one
/// (on a machine shared with other work the fastest batch is the one least
/// interrupted).
fn batch_ns(e: Effort, f: &mut dyn FnMut()) -> (f64, f64) {
    f();
    let mut iters = 1u64;
    let iters = loop {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        let ns = t.elapsed().as_nanos() as f64;
        if ns >= e.batch_ns / 8.0 || iters >= 1 << 32 {
            break ((iters as f64 * e.batch_ns / ns.max(1.0)).ceil() as u64).max(1);
        }
        iters *= 8;
    };
    let mut v: Vec<f64> = (0..e.reps.max(1))
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                f();
            }
            t.elapsed().as_nanos() as f64 / iters as f64
        })
        .collect();
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

/// Keep the core busy for a while before the first cell (a cold start
/// measured the first cell up to 3x slow).
fn warm_up(e: Effort) {
    let t = Instant::now();
    let buf = [7u8; 1024];
    let limit = std::time::Duration::from_nanos((e.batch_ns * 100.0) as u64);
    while t.elapsed() < limit {
        black_box(blake3::hash(black_box(&buf)));
    }
}

/// The library's fast-path features found on this CPU, as short names.
pub fn features() -> Vec<&'static str> {
    use unimac::platform::Feature;
    unimac::Platform::detect()
        .features()
        .into_iter()
        .map(|f| match f {
            Feature::Avx2Fma => "avx2+fma",
            Feature::Pclmul => "pclmulqdq",
            Feature::Vpclmul => "vpclmulqdq",
            Feature::Gfni => "gfni",
            Feature::Avx512 => "avx512f",
            Feature::Avx512Ifma => "avx512ifma",
            #[cfg(target_arch = "aarch64")]
            Feature::Pmull => "pmull",
            #[cfg(target_arch = "aarch64")]
            Feature::Neon => "neon",
        })
        .collect()
}

/// Message lengths of `--json`.
const JSON_SIZES: &[usize] = &[16, 64, 256, 1024, 16 << 10, 1 << 20];

/// Every default name, then every peer, keyed.
fn all_rows() -> Result<Vec<(String, &'static str, Runner)>, Fail> {
    let mut rows = Vec::new();
    for n in table::default_names() {
        let (run, _) = table::unimac_runner(&n)?;
        rows.push((n, "unimac", run));
    }
    for (n, run) in table::peers() {
        rows.push((n.to_string(), "peer", run));
    }
    Ok(rows)
}

/// `unimac-bench --json`.
pub fn json(quick: bool) -> Result<(), Fail> {
    let effort = Effort::new(quick);
    let clock = Clock::read();
    warm_up(effort);
    let mut msg = vec![0u8; *JSON_SIZES.last().expect("sizes")];
    fill(&mut msg, 1);
    let mut results = Vec::new();
    for (name, kind, mut f) in all_rows()? {
        for &len in JSON_SIZES {
            let m = &msg[..len];
            if !f(m) {
                continue; // a one-block function: not this length
            }
            let (ns, min_ns) = batch_ns(effort, &mut || {
                f(black_box(m));
            });
            let cycles = clock.cycles(ns);
            results.push(serde_json::json!({
                "name": name,
                "kind": kind,
                "bytes": len,
                "ns_per_message": ns,
                "cycles_per_message": cycles,
                "cycles_per_byte": cycles / len as f64,
                "bytes_per_cycle": len as f64 / cycles,
                "gib_per_s": len as f64 / ns * 1e9 / (1u64 << 30) as f64,
                "min_ns_per_message": min_ns,
                "min_cycles_per_message": clock.cycles(min_ns),
            }));
        }
    }
    let doc = serde_json::json!({
        "cpu": cpu_model(),
        "features": features(),
        "clock_hz": clock.hz,
        "clock_source": clock.source,
        "method": format!(
            "median of {} batches of about {} ms per cell (min_*: the fastest batch), \
             key set up once per name; cycles = nanoseconds (Instant) x clock_hz",
            effort.reps,
            effort.batch_ns / 1e6
        ),
        "results": results,
    });
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &doc)?;
    writeln!(out)?;
    Ok(())
}

/// The lines of `--plot` besides the peers: one name per family and the
/// main MACs.
const PLOT_NAMES: &[&str] = &[
    "hash127",
    "tree-mmh32x1",
    "tree-nmh32",
    "tree-mmh64",
    "tree-sqh96-e",
    "eval64",
    "division64",
    "gdivision64",
    "eval128",
    "modp",
    "mac-hash127-aes",
    "mac-wc-mmh32x2",
    "mac-wc-eval64",
    "mac-umac64",
    "mac-vmac64",
];

/// A line of `--plot`: (name, is a peer, (length, bytes per cycle) points).
type Series = (String, bool, Vec<(f64, f64)>);

/// `unimac-bench --plot FILE`: 16 B to 64 MiB (16 B to 1 MiB when quick).
pub fn plot(path: &Path, quick: bool) -> Result<(), Fail> {
    let effort = Effort::new(quick);
    let clock = Clock::read();
    let top = if quick { 1 << 20 } else { 64 << 20 };
    let sizes: Vec<usize> = std::iter::successors(Some(16usize), |s| Some(s * 4))
        .take_while(|s| *s <= top)
        .collect();
    let series = plot_series(effort, &clock, &sizes)?;
    draw_plot(path, &clock, &sizes, &series)?;
    println!(
        "wrote {}: {} lines, {} to {}, bytes per cycle",
        path.display(),
        series.len(),
        size_label(sizes[0]),
        size_label(*sizes.last().expect("sizes"))
    );
    Ok(())
}

/// Every line of `--plot` measured at `sizes`, each shown on standard
/// error as it is done.
fn plot_series(effort: Effort, clock: &Clock, sizes: &[usize]) -> Result<Vec<Series>, Fail> {
    let top = *sizes.last().expect("sizes");
    let mut msg = vec![0u8; top];
    fill(&mut msg, 1);
    let mut rows: Vec<(String, bool, Runner)> = Vec::new();
    for n in PLOT_NAMES.iter().filter(|n| registry::lookup(n).is_ok()) {
        rows.push((n.to_string(), false, table::unimac_runner(n)?.0));
    }
    for (n, run) in table::peers() {
        rows.push((n.to_string(), true, run));
    }
    let mut series: Vec<Series> = Vec::new();
    warm_up(effort);
    let mut err = io::stderr().lock();
    for (name, peer, mut f) in rows {
        let mut pts = Vec::new();
        for &len in sizes {
            let m = &msg[..len];
            if !f(m) {
                continue;
            }
            let ns = median_ns(effort.for_len(len), &mut || {
                f(black_box(m));
            });
            pts.push((len as f64, len as f64 / clock.cycles(ns)));
        }
        let _ = writeln!(
            err,
            "{name:<18} {}",
            pts.iter()
                .map(|p| format!("{:.3}", p.1))
                .collect::<Vec<_>>()
                .join(" ")
        );
        series.push((name, peer, pts));
    }
    Ok(series)
}

/// The SVG of `--plot`: the chart on the left, its legend on the right.
fn draw_plot(path: &Path, clock: &Clock, sizes: &[usize], series: &[Series]) -> Result<(), Fail> {
    use plotters::prelude::*;

    let ys = series.iter().flat_map(|s| s.2.iter().map(|p| p.1));
    let (lo, hi) = ys.fold((f64::MAX, 0f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
    let (lo, hi) = (lo / 1.5, hi * 1.5);

    let root = SVGBackend::new(path, (1280, 860)).into_drawing_area();
    root.fill(&WHITE)?;
    // The chart on the left, its legend in a column on the right (twenty
    // lines would hide part of the chart).
    let (left, right) = root.split_horizontally(1030);
    let cpu = cpu_model();
    let mut chart = ChartBuilder::on(&left)
        .caption(
            format!("unimac-bench --plot: throughput, one thread, key set up once; {cpu}"),
            ("sans-serif", 24),
        )
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (16f64..*sizes.last().expect("sizes") as f64).log_scale(),
            (lo..hi).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("message length (bytes)")
        .y_desc(format!(
            "bytes per cycle ({:.0} MHz nominal clock)",
            clock.hz / 1e6
        ))
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .x_label_formatter(&|x| size_label(x.round() as usize))
        .y_label_formatter(&|y| format!("{y:.2}"))
        .draw()?;
    for (i, (name, peer, pts)) in series.iter().enumerate() {
        let style = ShapeStyle {
            color: Palette99::pick(i).to_rgba(),
            filled: true,
            stroke_width: if *peer { 4 } else { 2 },
        };
        chart.draw_series(LineSeries::new(pts.iter().copied(), style).point_size(2))?;
        let y = 60 + 30 * i as i32;
        right.draw(&PathElement::new(vec![(4, y), (40, y)], style))?;
        let label = if *peer {
            format!("{name} (peer)")
        } else {
            name.clone()
        };
        right.draw(&Text::new(
            label,
            (48, y - 8),
            ("sans-serif", 19).into_font().color(&BLACK),
        ))?;
    }
    root.present()?;
    Ok(())
}

/// Measured cycles per call of `f` on `msg` (fails if `f` refuses it).
fn cycles_of(e: Effort, clock: &Clock, f: &mut Runner, msg: &[u8]) -> Result<f64, Fail> {
    if !f(msg) {
        return Err(Fail(format!("a {}-byte message was refused", msg.len())));
    }
    Ok(clock.cycles(median_ns(e, &mut || {
        f(black_box(msg));
    })))
}

/// A speed-up: one decimal below 10.
fn times(x: f64) -> String {
    if x < 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

/// What every table of `--paper` measures with: the effort, the clock, a
/// message and a key of filler bytes.
struct Bench {
    e: Effort,
    clock: Clock,
    msg: Vec<u8>,
    key: Vec<u8>,
}

/// `unimac-bench --paper`: markdown tables, each paper's figure beside now.
pub fn paper(quick: bool) -> Result<(), Fail> {
    let e = Effort::new(quick);
    let clock = Clock::read();
    let mut msg = vec![0u8; 4 << 20];
    fill(&mut msg, 1);
    warm_up(e);
    let mut key = vec![0u8; 4096];
    fill(&mut key, 0x9e3779b97f4a7c15);
    let b = Bench { e, clock, msg, key };
    let mut o = paper_header(&b);
    paper_hash127(&b, &mut o)?;
    paper_shoup_rates(&b, &mut o)?;
    paper_shoup_setup(&b, &mut o)?;
    paper_mmh(&b, &mut o)?;
    for (table, bits, figures) in [
        (1, 2112usize, [2061u32, 1659, 1575, 4000]),
        (2, 1056, [1086, 856, 816, 2000]),
    ] {
        paper_square(&b, &mut o, table, bits, figures)?;
    }
    io::stdout().write_all(o.as_bytes())?;
    Ok(())
}

/// The title and the method of `--paper`.
fn paper_header(b: &Bench) -> String {
    let (e, clock) = (b.e, &b.clock);
    format!(
        "# unimac-bench --paper: the papers' speed tables beside this machine\n\n\
         CPU now: {} ({:.0} MHz nominal clock: {}); features: {}. One thread, each \
         name keyed once, median of {} batches; \"now\" is the library's default \
         (fastest) implementation of each row, not the paper's table-driven or \
         assembly method; cycles/byte = paper cycles / bytes, or the paper's clock \
         x 8 / its bit rate. \"x\" = paper cycles/byte / now cycles/byte.\n",
        cpu_model(),
        clock.hz / 1e6,
        clock.source,
        features().join(", "),
        e.reps
    )
}

/// Bernstein, hash127 §1: cycles per message of l words.
fn paper_hash127(b: &Bench, o: &mut String) -> Result<(), Fail> {
    let (e, clock, msg) = (b.e, &b.clock, &b.msg);
    o.push_str(
        "\n## hash127: Bernstein, \"Floating-point arithmetic and message authentication\", §1 speed table\n\n\
         Paper: cycles per message in cache, after precomputation depending only on r \
         (Pentium, Pentium-II, Alpha-21264, UltraSPARC-I; given in cycles, no conversion). \
         Now: `hash127` (keyed once), the same l 32-bit words.\n\n\
         | l | bytes | Pentium | Pentium-II | Alpha-21264 | UltraSPARC-I | now cycles | Pentium c/B | now c/B | x (Pentium) |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let table: [(usize, u32, u32, u32, u32); 6] = [
        (16, 550, 566, 600, 570),
        (32, 825, 792, 864, 762),
        (64, 1340, 1303, 1375, 1148),
        (128, 2480, 2406, 2561, 2111),
        (256, 4667, 4527, 4814, 3818),
        (512, 9275, 8850, 9432, 7438),
    ];
    let mut h = table::unimac_runner("hash127")?.0;
    for (l, p, p2, a, u) in table {
        let bytes = 4 * l;
        let now = cycles_of(e, clock, &mut h, &msg[..bytes])?;
        let (pc, nc) = (p as f64 / bytes as f64, now / bytes as f64);
        o.push_str(&format!(
            "| {l} | {bytes} | {p} | {p2} | {a} | {u} | {now:.0} | {pc:.2} | {nc:.3} | {} |\n",
            times(pc / nc)
        ));
    }
    Ok(())
}

/// Shoup's bit rates, 16 KiB messages under one key.
fn paper_shoup_rates(b: &Bench, o: &mut String) -> Result<(), Fail> {
    let (e, clock, msg) = (b.e, &b.clock, &b.msg);
    o.push_str(
        "\n## Shoup, \"On fast and provably secure message authentication based on universal hashing\": timings\n\n\
         Paper: C with gcc on a Sun Sparc-10 at 70 MHz (the generalized division hash also on a \
         90 MHz Pentium); bit rates in Mbit/s, c/B = MHz x 8 / rate (a range: the paper's \
         in-cache and out-of-cache figures). Now: 16 KiB messages under one key.\n\n\
         | paper method | paper rate | paper c/B | now | now c/B | x |\n\
         |---|---:|---:|---|---:|---:|\n",
    );
    let len = 16 << 10;
    let rates: [(&str, f64, f64, f64, &str); 6] = [
        (
            "evaluation hash, method 1 (no table), Sparc-10",
            70.0,
            11.0,
            11.0,
            "eval64",
        ),
        (
            "evaluation hash, method 2 (2 KB table), Sparc-10",
            70.0,
            34.0,
            36.0,
            "eval64",
        ),
        (
            "division hash, method 1 (one 2 KB table), Sparc-10",
            70.0,
            35.0,
            38.0,
            "division64",
        ),
        (
            "division hash, method 2 (four tables, 8 KB), Sparc-10",
            70.0,
            50.0,
            75.0,
            "division64",
        ),
        (
            "generalized division hash (8 KB table), Sparc-10",
            70.0,
            50.0,
            75.0,
            "gdivision64",
        ),
        (
            "generalized division hash, Pentium 90 MHz",
            90.0,
            85.0,
            100.0,
            "gdivision64",
        ),
    ];
    let mut now_cpb = std::collections::HashMap::new();
    for (what, mhz, lo, hi, name) in rates {
        let nc = match now_cpb.get(name) {
            Some(c) => *c,
            None => {
                let mut f = table::unimac_runner(name)?.0;
                let c = cycles_of(e, clock, &mut f, &msg[..len])? / len as f64;
                now_cpb.insert(name, c);
                c
            }
        };
        let (slow, fast) = (mhz * 8.0 / lo, mhz * 8.0 / hi);
        let (rate, cpb, x) = if lo == hi {
            (format!("{lo}"), format!("{slow:.1}"), times(slow / nc))
        } else {
            (
                format!("{lo}-{hi}"),
                format!("{slow:.1}-{fast:.1}"),
                format!("{}-{}", times(fast / nc), times(slow / nc)),
            )
        };
        o.push_str(&format!(
            "| {what} | {rate} | {cpb} | `{name}` | {nc:.3} | {x} |\n"
        ));
    }
    Ok(())
}

/// Shoup's key set-up times.
fn paper_shoup_setup(b: &Bench, o: &mut String) -> Result<(), Fail> {
    let (e, clock) = (b.e, &b.clock);
    o.push_str(
        "\nKey set-up (paper: microseconds at 70 MHz, as cycles; now: one `registry::key` call).\n\n\
         | paper set-up | paper us | paper cycles | now | now cycles | x |\n\
         |---|---:|---:|---|---:|---:|\n",
    );
    let setups: [(&str, f64, &str); 3] = [
        ("evaluation hash, 2 KB table (method 2)", 30.0, "eval64"),
        (
            "division hash: minimal polynomial by Berlekamp-Massey",
            360.0,
            "division64",
        ),
        (
            "generalized division hash: polynomial and 8 KB table",
            255.0,
            "gdivision64",
        ),
    ];
    for (what, us, name) in setups {
        let mut s = table::unimac_runner(name)?.1;
        let now = clock.cycles(median_ns(e, &mut || s()));
        let pc = us * 70.0;
        o.push_str(&format!(
            "| {what} | {us} | {pc:.0} | `{name}` | {now:.0} | {} |\n",
            times(pc / now)
        ));
    }
    Ok(())
}

/// Halevi and Krawczyk's MMH, Table 1: in memory and in cache.
fn paper_mmh(b: &Bench, o: &mut String) -> Result<(), Fail> {
    let (e, clock, msg) = (b.e, &b.clock, &b.msg);
    o.push_str(
        "\n## MMH: Halevi and Krawczyk, \"MMH: Software message authentication in the Gbit/second rates\", Table 1\n\n\
         Paper: hand-written assembly; \"in memory\" hashes a 4 MB buffer 64 times, \"in cache\" \
         reads a buffer of a few KB; c/B = MHz x 8 / rate. Now: `tree-mmh32x1` (32-bit output) and \
         `tree-mmh32x2` (64-bit output) over a 4 MiB message (in memory) and a 16 KiB one (in cache).\n\n\
         | paper machine | output | test | paper Mbit/s | paper c/B | now | now c/B | x |\n\
         |---|---|---|---:|---:|---|---:|---:|\n",
    );
    let mmh: [(&str, f64, [f64; 4]); 3] = [
        ("PowerPC 604, 150 MHz", 150.0, [390.0, 417.0, 597.0, 820.0]),
        ("Pentium-Pro, 150 MHz", 150.0, [296.0, 356.0, 556.0, 813.0]),
        ("Pentium-Pro, 200 MHz", 200.0, [380.0, 500.0, 645.0, 1080.0]),
    ];
    let mut now = std::collections::HashMap::new();
    for (name, out) in [("tree-mmh32x2", "64-bit"), ("tree-mmh32x1", "32-bit")] {
        let mut f = table::unimac_runner(name)?.0;
        for len in [4usize << 20, 16 << 10] {
            let c = cycles_of(e.for_len(len), clock, &mut f, &msg[..len])? / len as f64;
            now.insert((out, len), (name, c));
        }
    }
    for (machine, mhz, r) in mmh {
        for (i, out) in ["64-bit", "32-bit"].into_iter().enumerate() {
            for (j, (test, len)) in [("in memory", 4usize << 20), ("in cache", 16 << 10)]
                .into_iter()
                .enumerate()
            {
                let rate = r[2 * i + j];
                let pc = mhz * 8.0 / rate;
                let (name, nc) = now[&(out, len)];
                o.push_str(&format!(
                    "| {machine} | {out} | {test} | {rate} | {pc:.2} | `{name}` | {nc:.3} | {} |\n",
                    times(pc / nc)
                ));
            }
        }
    }

    Ok(())
}

/// Etzel, Patel and Ramzan's Square Hash, Table `table`: `bits`-bit
/// blocks, the paper's ARM7 cycles `paper` of MMH, SQH1, SQH2 and
/// HMAC-SHA1.
fn paper_square(bench: &Bench, o: &mut String, table: u32, bits: usize, paper: [u32; 4]) -> Result<(), Fail> {
    let (e, clock, msg, key) = (bench.e, &bench.clock, &bench.msg, &bench.key);
    let bytes = bits / 8;
    o.push_str(&format!(
        "\n## Square Hash: Etzel, Patel and Ramzan, \"Square Hash: fast message authentication via optimized universal hash functions\", Table {table}\n\n\
         Paper: ARM7 assembly, 96-bit output, {bits}-bit ({bytes}-byte) input block, cycles per \
         block (given in cycles; HMAC-SHA1 \"4000+\"/\"2000\" is the paper's estimate). Now: cycles \
         per block with the key set up once, one block per call and 64 blocks per call (as the \
         tree hashes them; c/B and x from this column); MMH is `unimac::unstable::mmh::Mmh32` with 3 \
         outputs (`mmh32x3`, 96-bit output) on its 128-byte block, its cycles scaled by \
         {bytes}/128; SQH1 `sqh96-asm2`, SQH2 `sqh96-e` (`unimac::unstable::square::BlockKey`) with a \
         key as long as the block; HMAC-SHA1 RustCrypto `hmac` + `sha1` over one block.\n\n\
         | function | paper ARM7 cycles | paper c/B | now | now cycles, 1 block | now cycles, x64 | now c/B | x |\n\
         |---|---:|---:|---|---:|---:|---:|---:|\n"
    ));
    // Per block: one block per call, and 64 blocks per call (as the tree
    // hashes them), both under a key set up once.
    let per_block = |f: &mut dyn FnMut(&[u8]), block: usize| -> Result<(f64, f64), Fail> {
        let one = clock.cycles(median_ns(e, &mut || f(black_box(&msg[..block]))));
        let many = clock.cycles(median_ns(e, &mut || f(black_box(&msg[..64 * block])))) / 64.0;
        Ok((one, many))
    };
    let mut rows: Vec<(&str, &str, (f64, f64))> = Vec::new();
    let mmh = unimac::unstable::mmh::Mmh32::new(3, &key[..136])?;
    let mut out = vec![0u8; 64 * 12];
    let (one, many) = per_block(
        &mut |b: &[u8]| mmh.hash_blocks(b, &mut out[..b.len() / 128 * 12]),
        128,
    )?;
    let scale = bytes as f64 / 128.0;
    rows.push(("MMH", "mmh32x3", (one * scale, many * scale)));
    for (what, name, variant) in [
        ("SQH1", "sqh96-asm2", unimac::unstable::square::Variant::Asm2),
        (
            "SQH2 (some carries dropped)",
            "sqh96-e",
            unimac::unstable::square::Variant::E,
        ),
    ] {
        let k = unimac::unstable::square::BlockKey::new(96, variant, &key[..bytes])?;
        let ob = k.out_bytes();
        let mut out = vec![0u8; 64 * ob];
        let c = per_block(
            &mut |b: &[u8]| {
                let n = b.len() / bytes * ob;
                black_box(k.hash_blocks(b, &mut out[..n])).expect("whole blocks");
            },
            bytes,
        )?;
        rows.push((what, name, c));
    }
    let hm = <hmac::Hmac<sha1::Sha1> as hmac::KeyInit>::new_from_slice(&key[..20]).expect("any key");
    let m = &msg[..bytes];
    let c = clock.cycles(median_ns(e, &mut || {
        let mut h = hm.clone();
        h.update(black_box(m));
        black_box(h.finalize().into_bytes());
    }));
    rows.push(("HMAC-SHA1", "hmac-sha1", (c, c)));
    for ((what, name, (one, many)), p) in rows.into_iter().zip(paper) {
        let plus = if what == "HMAC-SHA1" && table == 1 {
            "+"
        } else {
            ""
        };
        o.push_str(&format!(
            "| {what} | {p}{plus} | {:.1} | `{name}` | {one:.0} | {many:.0} | {:.3} | {} |\n",
            p as f64 / bytes as f64,
            many / bytes as f64,
            times(p as f64 / many)
        ));
    }
    Ok(())
}
