//! `unimac`: compute any SPEC name, list them, and check known answers.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use unimac::registry::{self, Params};
use unimac::vectors;

mod bench;
mod bundled;
mod input;
mod keyfile;
mod mac_cmd;

use input::read_message;

#[derive(Parser)]
#[command(name = "unimac", version, about = "Fast, provably secure message authentication from universal hashing")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Every implemented name with its key, nonce and output sizes.
    List,
    /// Make a new key for MAC NAME (without the mac- prefix) from the OS
    /// random generator: hex and a newline, mode 0600, never overwriting.
    Keygen {
        /// A MAC name, e.g. hash127-aes or wc-mmh32x2.
        name: String,
        /// Write the key to this new file (stdout when absent).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Also create this nonce counter file, starting at 0 (nonce MACs).
        #[arg(long)]
        counter: Option<PathBuf>,
    },
    /// Print 'TAG  FILE' (or 'NONCE:TAG  FILE' for nonce MACs) per file.
    Tag {
        /// A MAC name, e.g. hash127-aes or wc-mmh32x2.
        name: String,
        /// The key file (from 'unimac keygen').
        #[arg(long = "key-file")]
        key_file: PathBuf,
        /// Counter file (the next unused 128-bit nonce counter in decimal and a
        /// newline; made by 'keygen --counter'): nonces are reserved from it and
        /// synced to disk before any tag is printed; the nonce is the counter as
        /// 16 little-endian bytes (for VMAC, whose nonce block must keep its
        /// top bit clear, as 16 big-endian bytes).
        #[arg(long)]
        counter: Option<PathBuf>,
        /// The nonce, hex (interoperation; one file only; never reuse a nonce).
        #[arg(long)]
        nonce: Option<String>,
        /// Files to tag; stdin when absent or '-'.
        files: Vec<PathBuf>,
    },
    /// Check the tags listed in SUMS ('unimac tag' output): 'FILE: OK' or
    /// 'FILE: FAILED'; exit 1 if any failed or any line is malformed.
    Verify {
        /// A MAC name, e.g. hash127-aes or wc-mmh32x2.
        name: String,
        /// The key file.
        #[arg(long = "key-file")]
        key_file: PathBuf,
        /// The file of tags to check ('-' for stdin).
        #[arg(short = 'c', long)]
        check: PathBuf,
        /// Do not print OK for each file that verifies.
        #[arg(long)]
        quiet: bool,
        /// Print nothing on stdout; the exit status tells.
        #[arg(long)]
        status: bool,
        /// Skip listed files that do not exist (instead of failing them).
        #[arg(long = "ignore-missing")]
        ignore_missing: bool,
    },
    /// The forgery bound of MAC NAME: the probability that any of D forgery
    /// attempts succeeds after C tags on messages of at most L bytes.
    Bound {
        /// A MAC name, e.g. hash127-aes or wc-mmh32x2.
        name: String,
        /// L: the longest message, in bytes.
        #[arg(long = "max-bytes")]
        max_bytes: u64,
        /// C: messages tagged under the key.
        #[arg(long, default_value_t = 1)]
        tags: u64,
        /// D: forgery attempts.
        #[arg(long, default_value_t = 1)]
        forgeries: u64,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print NAME of a message (FILE, or stdin when absent or '-') as hex.
    Compute {
        /// A SPEC name, with the tree- and mac- prefixes for tree modes and MACs.
        name: String,
        /// The key, hex.
        #[arg(long)]
        key: String,
        /// The nonce, hex (nonce MACs only).
        #[arg(long)]
        nonce: Option<String>,
        /// Output length in bytes (keystream only).
        #[arg(long)]
        len: Option<usize>,
        /// The message file; stdin when absent or '-'.
        file: Option<PathBuf>,
    },
    /// Run known-answer files (.jsonl of SPEC §7, hash127-accuracy.exp, or
    /// Wycheproof mac_with_iv .json files); without FILE, the vectors bundled
    /// in this binary.
    CheckVectors {
        /// Files to check.
        files: Vec<PathBuf>,
    },
    /// Throughput table of unimac's hashes and MACs beside Poly1305, BLAKE3
    /// keyed and HMAC-SHA256, measured now on this machine.
    Bench {
        /// Names to measure (default: one per family and construction).
        names: Vec<String>,
        /// Measure every name with a fixed-size key.
        #[arg(long)]
        all: bool,
        /// Time budget per cell, in milliseconds.
        #[arg(long, default_value_t = 100)]
        millis: u64,
    },
}

/// A one-line error for the user.
struct Fail(String);

impl<E: std::fmt::Display> From<E> for Fail {
    fn from(e: E) -> Fail {
        Fail(e.to_string())
    }
}

fn unhex(s: &str, what: &str) -> Result<Vec<u8>, Fail> {
    hex::decode(s.trim()).map_err(|e| Fail(format!("{what} is not valid hex: {e}")))
}

fn list() -> Result<(), Fail> {
    let mut out = String::new();
    out.push_str(&format!("{:<22} {:>12} {:>6} {:>7}  {}\n", "NAME", "KEY", "NONCE", "OUTPUT", "WHAT"));
    for e in registry::entries() {
        let i = &e.info;
        let key = match i.key {
            registry::KeySpec::Fixed(n) => n.to_string(),
            registry::KeySpec::PerElement(n) => format!("k*{n}"),
            registry::KeySpec::OneOf(v) => v.iter().map(|n| n.to_string()).collect::<Vec<_>>().join("/"),
        };
        let out_len = if i.takes_len { "--len".to_string() } else { i.out.to_string() };
        let sizes = registry::nonce_sizes(i);
        let nonce = match i.nonce {
            0 => "-".to_string(),
            n if *sizes.start() == n => n.to_string(),
            n => format!("{}..{n}", sizes.start()),
        };
        out.push_str(&format!("{:<22} {:>12} {:>6} {:>7}  {}\n", i.name, key, nonce, out_len, i.summary));
    }
    io::stdout().write_all(out.as_bytes())?;
    Ok(())
}

fn compute(name: &str, key: &str, nonce: Option<&str>, len: Option<usize>, file: Option<&Path>) -> Result<(), Fail> {
    registry::lookup(name)?;
    let key = unhex(key, "--key")?;
    let nonce = nonce.map(|n| unhex(n, "--nonce")).transpose()?;
    let p = Params { key: &key, nonce: nonce.as_deref(), len };
    let mut s = registry::open(name, &p)?;
    read_message(file, |d| s.update(d))?;
    let out = s.finalize()?;
    let mut line = hex::encode(out);
    line.push('\n');
    io::stdout().write_all(line.as_bytes())?;
    Ok(())
}

fn check_vectors(files: &[PathBuf]) -> Result<bool, Fail> {
    let mut inputs: Vec<(String, String)> = Vec::new();
    if files.is_empty() {
        for (name, text) in bundled::VECTORS {
            inputs.push((format!("bundled:{name}"), text.to_string()));
        }
    } else {
        for f in files {
            let text = std::fs::read_to_string(f).map_err(|e| Fail(format!("cannot read {}: {e}", f.display())))?;
            inputs.push((f.display().to_string(), text));
        }
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut out = String::new();
    for (shown, text) in &inputs {
        let r = vectors::check_file_text(shown, text);
        passed += r.passed;
        failed += r.failures.len();
        for f in r.failures {
            out.push_str(&format!(
                "{shown}:{}: {} FAILED expected {} got {}\n",
                f.line, f.name, f.expected, f.got
            ));
        }
    }
    out.push_str(&format!("{passed} passed, {failed} failed\n"));
    io::stdout().write_all(out.as_bytes())?;
    Ok(failed == 0)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match &cli.cmd {
        Cmd::List => list().map(|_| true),
        Cmd::Keygen { name, output, counter } => {
            mac_cmd::keygen(name, output.as_deref(), counter.as_deref()).map(|_| true)
        }
        Cmd::Tag { name, key_file, counter, nonce, files } => {
            mac_cmd::tag(name, key_file, counter.as_deref(), nonce.as_deref(), files).map(|_| true)
        }
        Cmd::Verify { name, key_file, check, quiet, status, ignore_missing } => {
            mac_cmd::verify(name, key_file, check, mac_cmd::VerifyOpts { quiet: *quiet, status: *status, ignore_missing: *ignore_missing })
        }
        Cmd::Bound { name, max_bytes, tags, forgeries, json } => {
            mac_cmd::bound(name, *max_bytes, *tags, *forgeries, *json).map(|_| true)
        }
        Cmd::Compute { name, key, nonce, len, file } => {
            compute(name, key, nonce.as_deref(), *len, file.as_deref()).map(|_| true)
        }
        Cmd::CheckVectors { files } => check_vectors(files),
        Cmd::Bench { names, all, millis } => bench::run(names, *all, *millis).map(|_| true),
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(Fail(msg)) => {
            eprintln!("unimac: {msg}");
            ExitCode::from(2)
        }
    }
}
