//! `unimac-bench`: unimac's hashes and MACs measured now on this machine,
//! beside Poly1305, BLAKE3 keyed, HMAC-SHA256, AES-CMAC and POLYVAL. A
//! program of its own, not a command of `unimac`, so that installing the
//! `unimac` command builds none of the peers and no plotting; run it from a
//! checkout with `cargo run --release -p unimac-bench`.
//!
//! - the table (table.rs): throughput at 16 B to 1 MiB, key set-up time and
//!   forgery bound of each name;
//! - `--json`, `--plot FILE.svg`, `--paper` (modes.rs);
//! - the clock that turns nanoseconds into cycles (clock.rs), the error
//!   type (fail.rs).

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

mod clock;
mod fail;
mod modes;
mod table;

use fail::Fail;

/// Throughput table of unimac's hashes and MACs beside Poly1305, BLAKE3
/// keyed, HMAC-SHA256, AES-CMAC and POLYVAL, measured now on this machine,
/// one thread, each key set up once.
#[derive(Parser)]
#[command(name = "unimac-bench", version)]
struct Cli {
    /// Names to measure (default: one per family and construction).
    names: Vec<String>,
    /// Measure every name with a fixed-size key.
    #[arg(long)]
    all: bool,
    /// Time budget per cell, in milliseconds.
    #[arg(long, default_value_t = 100)]
    millis: u64,
    /// One JSON object instead of the table: every default name and every
    /// peer at 16 B, 64 B, 256 B, 1 KiB, 16 KiB and 1 MiB, with cycles per
    /// message, bytes per cycle and nanoseconds per message.
    #[arg(long, conflicts_with_all = ["names", "all", "plot", "paper"])]
    json: bool,
    /// Draw throughput (bytes per cycle) against message length, 16 B to
    /// 64 MiB, log-log, to this SVG file: a name per family, the main
    /// MACs and every peer.
    #[arg(long, value_name = "FILE.svg", conflicts_with_all = ["names", "all", "paper"])]
    plot: Option<PathBuf>,
    /// The speed tables of hash127's, Shoup's, MMH's and Square Hash's
    /// papers, each row measured now beside the paper's figure in
    /// cycles per byte (markdown).
    #[arg(long, conflicts_with_all = ["names", "all"])]
    paper: bool,
    /// Few repetitions, for tests (also UNIMAC_BENCH_QUICK=1).
    #[arg(long, hide = true)]
    quick: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let quick = cli.quick || modes::quick_env();
    // Every figure of the bench is one thread's: hash127 and the trees
    // would otherwise split inputs of 4 MiB or more.
    unimac::threads::set_max_threads(1);
    let r = if cli.json {
        modes::json(quick)
    } else if let Some(p) = &cli.plot {
        modes::plot(p, quick)
    } else if cli.paper {
        modes::paper(quick)
    } else {
        table::run(&cli.names, cli.all, if quick { 2 } else { cli.millis })
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(msg)) => {
            eprintln!("unimac-bench: {}", unimac_front::names::cite(&msg));
            ExitCode::from(2)
        }
    }
}
