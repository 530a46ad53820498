//! `unimac`: compute any name of the wire format (docs/WIRE.md), list them,
//! and check known answers.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use unimac::registry::{self, Params};
use unimac::vectors;

mod advise;
mod bench;
mod bundled;
mod identity;
mod input;
mod keyfile;
mod mac_cmd;
mod modes;
mod names;
mod seal;
mod pool;
mod split;
mod stream;

use names::cite;

#[derive(Parser)]
#[command(
    name = "unimac",
    version,
    about = "Fast, provably secure message authentication from universal hashing"
)]
struct Cli {
    /// Threads per computation for inputs of 4 MiB or more, and for the
    /// files of tag, verify and seal, hashed side by side (0 = every core,
    /// the default; 1 = the main thread only, one file at a time). The
    /// results do not depend on it.
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Every implemented name with its key, nonce and output sizes.
    List,
    /// Make a new key for MAC NAME (or for modp) from the OS random generator:
    /// a key file ('unimac-key NAME', then the key in hex), mode 0600, never
    /// overwriting.
    Keygen {
        /// A MAC name, e.g. hash127-aes or wc-mmh32x4 (the mac- prefix is
        /// optional); or modp (a random prime in [2^120, 2^128)).
        name: String,
        /// Write the key to this new file (stdout when absent).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Also create this nonce counter file, starting at 0 (nonce MACs).
        #[arg(long)]
        counter: Option<PathBuf>,
    },
    /// Print 'TAG  FILE' (or 'NONCE:TAG  FILE' for nonce MACs) per file, as
    /// sha256sum does; a file that cannot be read is reported on stderr,
    /// the others are still tagged, and the exit status is 1.
    Tag {
        /// A MAC name, e.g. hash127-aes or wc-mmh32x4 (the mac- prefix is optional).
        name: String,
        /// The key file (from 'unimac keygen'; '-' for stdin).
        #[arg(long = "key-file")]
        key_file: PathBuf,
        /// Counter file (made by 'keygen --counter', bound to its key): nonces
        /// are reserved from it and synced to disk before any tag is printed;
        /// the nonce is the counter as 16 bytes in the MAC's byte order
        /// (little-endian; VMAC big-endian with the top bit clear).
        #[arg(long)]
        counter: Option<PathBuf>,
        /// The nonce, hex (interoperation; one file only). Needs
        /// --caller-manages-nonces: unimac cannot know whether this key's
        /// counter or another run already used it.
        #[arg(long)]
        nonce: Option<String>,
        /// Say that the caller, not unimac, keeps --nonce values from ever
        /// repeating under this key.
        #[arg(long = "caller-manages-nonces")]
        caller_manages_nonces: bool,
        /// A fresh random nonce per file from the OS random generator, of the
        /// MAC's full nonce length (no state to keep; 'bound --random-nonces'
        /// adds the chance that two repeat).
        #[arg(long = "random-nonce")]
        random_nonce: bool,
        /// BSD-style lines that name the MAC: 'NAME (FILE) = [NONCE:]TAG'.
        #[arg(long = "tag")]
        bsd: bool,
        /// Tag with a MAC that is weak for this use: forgery bound above
        /// 2^-32 for 2^32 tags (or 4 PiB in all, if fewer) and 2^32 forgery
        /// attempts on messages as long as the longest file (at least 1 MiB;
        /// stdin counts as 1 GiB).
        #[arg(long = "allow-weak")]
        allow_weak: bool,
        /// Tag the files under directories, recursively (sorted; symbolic
        /// links to directories not followed, links to files tagged; named
        /// pipes, sockets and devices skipped with a warning).
        #[arg(short = 'r', long)]
        recursive: bool,
        /// Also tag the files named in FILE, one per line ('-': stdin).
        #[arg(long = "files-from", value_name = "FILE")]
        files_from: Option<PathBuf>,
        /// The names in --files-from end with NUL, not newline (find -print0).
        #[arg(short = '0', long = "null")]
        zero: bool,
        /// End each output line with NUL, not newline, and do not escape
        /// names (as sha256sum -z; 'verify -z' reads them).
        #[arg(short = 'z', long = "zero")]
        zero_lines: bool,
        /// Files to tag; stdin when absent or '-'.
        files: Vec<PathBuf>,
    },
    /// Check the tags listed in check files ('unimac tag' output, either
    /// style): 'FILE: OK' or 'FILE: FAILED'; exit 1 if any failed. NAME may be
    /// left out: the key file names its MAC.
    Verify {
        /// The key file ('-' for stdin).
        #[arg(long = "key-file")]
        key_file: PathBuf,
        /// A check file ('-' for stdin); may be repeated.
        #[arg(short = 'c', long)]
        check: Vec<PathBuf>,
        /// Do not print OK for each file that verifies.
        #[arg(long)]
        quiet: bool,
        /// Print nothing on stdout; the exit status tells.
        #[arg(long)]
        status: bool,
        /// Exit non-zero for improperly formatted lines, too.
        #[arg(long)]
        strict: bool,
        /// Skip listed files that do not exist (instead of failing them).
        #[arg(long = "ignore-missing")]
        ignore_missing: bool,
        /// Name every improperly formatted line (without it, the first three
        /// and a count).
        #[arg(short = 'w', long)]
        warn: bool,
        /// Check lines end with NUL, not newline ('tag -z' output).
        #[arg(short = 'z', long = "zero")]
        zero: bool,
        /// [NAME] [CHECKFILE]...: the MAC (optional; must match the key
        /// file), then more check files (stdin when none at all).
        args: Vec<PathBuf>,
    },
    /// Write a sealed manifest: '[NONCE:]TAG SIZE NAME' per file and a last
    /// line sealing the whole list under the key, so that 'verify --key-file
    /// K MANIFEST' finds changed, removed, added and renamed files and any
    /// change to the manifest itself.
    Seal {
        /// The key file ('-' for stdin); it names the MAC.
        #[arg(long = "key-file")]
        key_file: PathBuf,
        /// The key's counter file (nonce MACs): one nonce per file and one
        /// for the seal, reserved before any tag.
        #[arg(long)]
        counter: Option<PathBuf>,
        /// Random nonces of the MAC's full length instead of a counter.
        #[arg(long = "random-nonce")]
        random_nonce: bool,
        /// Seal the tree under DIR (sorted; links to directories not
        /// followed); 'verify' then also reports files added under it.
        #[arg(short = 'r', long = "recursive", value_name = "DIR", conflicts_with_all = ["files", "files_from"])]
        root: Option<PathBuf>,
        /// Also seal the files named in FILE, one per line ('-': stdin).
        #[arg(long = "files-from", value_name = "FILE")]
        files_from: Option<PathBuf>,
        /// The names in --files-from end with NUL, not newline (find -print0).
        #[arg(short = '0', long = "null")]
        zero: bool,
        /// Write the manifest to this new file (never over an existing one;
        /// stdout when absent).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Seal with a MAC that is weak for this use (as 'tag --allow-weak').
        #[arg(long = "allow-weak")]
        allow_weak: bool,
        /// The files to seal, in this order.
        files: Vec<PathBuf>,
    },
    /// An authenticated stream: frame IN (stdin by default) for an untrusted
    /// channel or storage, or with --verify check one and write its payload,
    /// each chunk only after its tag verifies.
    ///
    /// 'tar c DIR | unimac stream -k K > backup.uma' and back with 'unimac
    /// stream --verify -k K backup.uma | tar x'. The receiver stops at the
    /// first bad, missing, repeated, reordered or foreign chunk, or a stream
    /// cut short, names the chunk and its payload byte offset, and exits 1;
    /// what it wrote before verified. --hold writes nothing until the whole
    /// stream verified. Each chunk is one message of the MAC under a key
    /// derived for this stream: the forgery bound of a stream of N chunks is
    /// 'unimac bound NAME --max-bytes CHUNK+100 --tags N --forgeries D'
    /// (plus S^2/2^129 for S streams under one key, the chance that two
    /// random stream ids collide). docs/WIRE.md section 10.
    Stream {
        /// The key file (a reusable MAC's); it names the MAC.
        #[arg(short = 'k', long = "key-file")]
        key_file: PathBuf,
        /// Check a stream and write its payload to stdout.
        #[arg(long)]
        verify: bool,
        /// With --verify: hold all output in a temporary file until the
        /// whole stream verified (for consumers that must not see a prefix).
        #[arg(long, requires = "verify")]
        hold: bool,
        /// With --verify: a file of stream ids seen before under this key
        /// (created if missing): a repeated id is refused before any output,
        /// a verified one recorded.
        #[arg(long, requires = "verify", value_name = "FILE")]
        seen: Option<PathBuf>,
        /// Bytes per chunk when framing (1 to 16MiB; default 256KiB): the
        /// receiver holds one chunk; smaller chunks cost more tags.
        #[arg(long = "chunk-size", value_parser = parse_count, default_value = "256KiB", value_name = "BYTES")]
        chunk_size: u64,
        /// The input: the data to frame, or with --verify the stream ('-' or
        /// absent: stdin).
        input: Option<PathBuf>,
    },
    /// The forgery bound of MAC NAME: the probability that any of D forgery
    /// attempts succeeds after C tags on messages of at most L bytes; for
    /// modp, that any of D identity checks of operands of at most L bytes
    /// accepts a false identity.
    Bound {
        /// A MAC name, e.g. hash127-aes or wc-mmh32x4, or modp.
        name: String,
        /// L: the longest message, in bytes (1048576, 2^20, 1MiB, 1MB, 4GiB).
        #[arg(long = "max-bytes", value_parser = parse_count)]
        max_bytes: u64,
        /// C: messages tagged under the key (a number, or 2^32, or 1e6).
        #[arg(long, default_value_t = 1, value_parser = parse_count)]
        tags: u64,
        /// D: forgery attempts (a number, or 2^32, or 1e6).
        #[arg(long, default_value_t = 1, value_parser = parse_count)]
        forgeries: u64,
        /// The C nonces are random 128-bit values ('tag --random-nonce'), not
        /// a counter: add the chance that two of them repeat.
        #[arg(long = "random-nonces")]
        random_nonces: bool,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Which MAC for a use, on this machine: times every reusable MAC now
    /// (about a second) and names the fastest whose forgery bound for the
    /// use is at most 2^-32, with its bound, its speed and why.
    Advise {
        /// L: the longest message, in bytes (1048576, 2^20, 1MiB, 1MB, 4GiB).
        #[arg(long = "max-bytes", default_value = "1MiB", value_parser = parse_count)]
        max_bytes: u64,
        /// C: messages tagged under the key (default: 2^32, fewer if that
        /// would be more than 4 PiB in all, as 'tag' checks).
        #[arg(long, value_parser = parse_count)]
        tags: Option<u64>,
        /// D: forgery attempts.
        #[arg(long, default_value = "2^32", value_parser = parse_count)]
        forgeries: u64,
    },
    /// Print the shell completions of unimac (bash, zsh, fish, elvish,
    /// powershell) on stdout.
    #[command(hide = true)]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print unimac's manual page (roff, for man -l -) on stdout.
    #[command(hide = true)]
    Manpage,
    /// Print NAME of a message (FILE, or stdin when absent or '-') as hex.
    Compute {
        /// A name of the wire format (docs/WIRE.md), with the tree- and mac-
        /// prefixes for tree modes and MACs (a MAC's name alone works too
        /// where it is not a hash's).
        name: String,
        /// The key, hex. Other users can see it (ps, /proc) while unimac
        /// runs: a warning says so, except with --known-answer.
        #[arg(long, conflicts_with_all = ["key_file", "key_env"])]
        key: Option<String>,
        /// The key from a key file ('unimac keygen'; '-' for stdin); it must
        /// be a key of this MAC.
        #[arg(long = "key-file", conflicts_with = "key_env")]
        key_file: Option<PathBuf>,
        /// The key, hex, from the environment variable VAR (never shown).
        #[arg(long = "key-env", value_name = "VAR")]
        key_env: Option<String>,
        /// The nonce, hex (nonce MACs only; with a MAC, needs
        /// --caller-manages-nonces).
        #[arg(long)]
        nonce: Option<String>,
        /// Say that the caller, not unimac, keeps --nonce values from ever
        /// repeating under this key.
        #[arg(long = "caller-manages-nonces")]
        caller_manages_nonces: bool,
        /// Compute a known answer of a one-time MAC (hash127, hash127-96, and
        /// the hash hash127 whose value is that MAC's tag) or of shoup4-* under
        /// a given r || s (--nonce): for checking against published vectors,
        /// with --key only (never a key file, which may be a real key).
        #[arg(long = "known-answer")]
        known_answer: bool,
        /// Output length in bytes (keystream only).
        #[arg(long)]
        len: Option<usize>,
        /// The message file; stdin when absent or '-'.
        file: Option<PathBuf>,
    },
    /// Run known-answer files (JSON lines, hash127-accuracy.exp, or Wycheproof
    /// mac_with_iv .json files: docs/WIRE.md §9.5); without FILE, the vectors
    /// bundled in this binary.
    CheckVectors {
        /// Files to check.
        files: Vec<PathBuf>,
    },
    /// Check a^2 = bc + de mod the secret prime of a modp key (from 'unimac
    /// keygen modp'): exit 0 if it holds, 1 if not, printing the probability
    /// that a false identity passes.
    CheckIdentity {
        /// The modp key file.
        #[arg(long = "key-file")]
        key_file: PathBuf,
        /// The operands are hex strings (little-endian bytes), not files.
        #[arg(long)]
        hex: bool,
        /// A B C D E: files holding the non-negative integers as
        /// little-endian bytes ('-' for stdin, once).
        #[arg(num_args = 5, value_names = ["A", "B", "C", "D", "E"])]
        operands: Vec<String>,
    },
    /// Throughput table of unimac's hashes and MACs beside Poly1305, BLAKE3
    /// keyed, HMAC-SHA256, AES-CMAC and POLYVAL, measured now on this machine.
    Bench {
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

/// What `list` and the README advise.
const ADVICE: &str = "\
# Which MAC: hash127-aes by default: stateless (no nonce or counter to manage), a 128-bit tag,
# forgery bound about 2^-70 for 2^20 tags on messages of 1 MiB ('unimac bound hash127-aes
# --max-bytes 1048576 --tags 1048576'). For the highest speed on large files, a nonce MAC with
# a counter file: wc-mmh32x4 ('unimac keygen wc-mmh32x4 -o K --counter C', 'unimac tag wc-mmh32x4
# --key-file K --counter C FILE'). 'weak': bound above 2^-32 for 2^32 tags and 2^32 forgery
# attempts on 1 MiB messages (32-bit tags always are); 'tag' checks the same for its files (as
# long as the longest, at most 4 PiB in all) and refuses a weak MAC without --allow-weak.
# The fastest MAC differs from machine to machine: 'unimac advise [--max-bytes N] [--tags N]'
# times them on this one and names the fastest whose bound meets the use.
";

fn list() -> Result<(), Fail> {
    let mut out = String::new();
    out.push_str(ADVICE);
    out.push_str("\nMACs (keygen, tag, verify, bound; NAME or mac-NAME):\n");
    out.push_str(&format!(
        "{:<22} {:>10} {:>12} {:>10} {:>11}  {}\n",
        "NAME", "KEY(bytes)", "NONCE(bytes)", "TAG(bytes)", "log2(BOUND)", "WHAT"
    ));
    for name in unimac::registry::names() {
        let Ok(e) = registry::lookup(&format!("mac-{name}")) else {
            continue;
        };
        let i = &e.info;
        let key = match i.key {
            registry::KeySpec::Fixed(n) => n.to_string(),
            registry::KeySpec::PerElement(n) => format!("k*{n}"),
            registry::KeySpec::OneOf(v) => v
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join("/"),
        };
        let sizes = registry::nonce_sizes(i);
        let nonce = match i.nonce {
            0 => "-".to_string(),
            n if *sizes.start() == n => n.to_string(),
            n => format!("{}..{n}", sizes.start()),
        };
        let attack = unimac::bounds::Attack::new(
            1 << 20,
            mac_cmd::use_tags(&name, 1 << 20),
            mac_cmd::USE_FORGERIES,
        );
        let (bound, weak) = match unimac::bounds::bound(&name, &attack) {
            Ok(b) => (
                format!("{:.0}{}", b.log2.0, if b.proven { "" } else { "*" }),
                b.log2.0 > mac_cmd::WEAK_LOG2,
            ),
            Err(_) => ("none".to_string(), true),
        };
        let mut what = cite(&i.summary);
        if name == "hash127-aes" {
            what = format!("RECOMMENDED as the stateless default: no nonce or counter to manage (the nonce MACs have smaller bounds, and may be faster: 'unimac advise'); {what}");
        }
        if weak {
            what = format!("weak; {what}");
        }
        out.push_str(&format!(
            "{:<22} {:>10} {:>12} {:>10} {:>11}  {}\n",
            name,
            key,
            nonce,
            i.out,
            bound,
            what
        ));
    }
    out.push_str("# Sizes in bytes (a/b/c: any of them; a..b: from a to b). log2(BOUND): log2 of the forgery bound for 2^32 tags\n");
    out.push_str("# (1 for a one-message MAC) and 2^32 forgery attempts on 1 MiB messages (-44: 2^-44), AES advantage not\n");
    out.push_str("# included; none: no guarantee; * = the paper's sketch, not a full proof (docs/BOUNDS.md).\n");
    out.push_str("\nEvery name ('unimac compute'):\n");
    out.push_str("# Sizes in bytes (k*N: a multiple of N, as long as the message; --len: as asked).\n");
    out.push_str(&format!(
        "{:<22} {:>12} {:>12} {:>13}  {}\n",
        "NAME", "KEY(bytes)", "NONCE(bytes)", "OUTPUT(bytes)", "WHAT"
    ));
    for e in registry::entries() {
        let i = &e.info;
        let key = match i.key {
            registry::KeySpec::Fixed(n) => n.to_string(),
            registry::KeySpec::PerElement(n) => format!("k*{n}"),
            registry::KeySpec::OneOf(v) => v
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join("/"),
        };
        let out_len = if i.takes_len {
            "--len".to_string()
        } else {
            i.out.to_string()
        };
        let sizes = registry::nonce_sizes(i);
        let nonce = match i.nonce {
            0 => "-".to_string(),
            n if *sizes.start() == n => n.to_string(),
            n => format!("{}..{n}", sizes.start()),
        };
        out.push_str(&format!(
            "{:<22} {:>12} {:>12} {:>13}  {}\n",
            i.name,
            key,
            nonce,
            out_len,
            cite(&i.summary)
        ));
    }
    io::stdout().write_all(out.as_bytes())?;
    Ok(())
}

/// The length past which `name` under `key` rejects every message, if it
/// has one (the one-block functions: MMH, NMH, Square Hash): found by
/// computing it on a message that long, so `compute` stops reading there.
fn length_limit(name: &str, key: &[u8], nonce: Option<&[u8]>, len: Option<usize>) -> Option<u64> {
    let probe = (4 * key.len()).max(4096).div_ceil(4096) * 4096;
    let zeros = vec![0u8; probe];
    registry::compute(name, &Params { key, nonce, len }, &zeros)
        .is_err()
        .then_some(probe as u64)
}

/// Where `compute` takes its key from.
#[derive(Clone, Copy)]
enum KeySource<'a> {
    /// `--key HEX`.
    Arg(&'a str),
    /// `--key-file FILE`.
    File(&'a Path),
    /// `--key-env VAR`.
    Env(&'a str),
}

/// The warning `--key HEX` gets outside `--known-answer`.
const KEY_ARG_WARNING: &str =
    "unimac: warning: a key on the command line is visible to other users (ps, /proc); use --key-file FILE or --key-env VAR";

/// The key in the environment variable `var`, hex; the error names the
/// variable, never its value.
fn key_from_env(var: &str) -> Result<zeroize::Zeroizing<Vec<u8>>, Fail> {
    let what = format!("--key-env {var}");
    let v = match std::env::var_os(var) {
        None => return Err(Fail(format!("{what}: the environment variable is not set"))),
        Some(v) => v.into_string().map_err(|v| {
            drop(zeroize::Zeroizing::new(v.into_encoded_bytes()));
            Fail(format!("{what}: the environment variable is not valid hex (an even number of hex digits)"))
        })?,
    };
    let v = zeroize::Zeroizing::new(v);
    if v.trim().is_empty() {
        return Err(Fail(format!("{what}: the environment variable is empty")));
    }
    // hex's error would name a character of the value: not shown.
    hex::decode(v.trim())
        .map(zeroize::Zeroizing::new)
        .map_err(|_| Fail(format!("{what}: the environment variable is not valid hex (an even number of hex digits)")))
}

fn compute(
    name: &str,
    key: Option<KeySource<'_>>,
    (nonce, caller_manages_nonces, known_answer): (Option<&str>, bool, bool),
    len: Option<usize>,
    file: Option<&Path>,
) -> Result<(), Fail> {
    let name = names::resolve_spec(name)?;
    // What the one table says of this name: a one-time MAC's tag (also the
    // plain hash hash127's value), a pair the MAC draws itself, a nonce.
    let one_time = unimac::macs::one_time_row(&name);
    let row = unimac::macs::MACS.iter().find(|d| d.catalog_name == name);
    let pair = row.is_some_and(|d| d.framing == unimac::macs::Framing::PairThenTag);
    if known_answer {
        if matches!(key, Some(KeySource::File(_) | KeySource::Env(_))) {
            return Err(Fail("--known-answer takes the key as --key HEX only, never a key file or --key-env (they may hold a real key)".into()));
        }
        if one_time.is_none() && !pair {
            return Err(Fail(format!("--known-answer is for the one-time MACs and shoup4-*; {name} is computed without it")));
        }
    } else if let Some(d) = one_time {
        return Err(Fail(format!(
            "{name}: the value is a one-time {} tag (one message per key): tag with 'unimac tag {}' and its key file (marked spent when it tags), check with 'unimac verify'; for a published known answer add --known-answer with --key",
            d.name, d.name
        )));
    } else if pair {
        return Err(Fail(format!(
            "{name} draws its random r || s for every message: tag with 'unimac tag'; for a published known answer under a given r || s add --known-answer with --key and --nonce"
        )));
    }
    if nonce.is_some() && row.is_some_and(|d| d.takes_nonce()) && !caller_manages_nonces {
        return Err(Fail(
            "--nonce needs --caller-manages-nonces: unimac cannot tell whether this key's counter or an earlier run used it ('unimac tag --counter' hands out nonces that never repeat)".into(),
        ));
    }
    let key_source = key;
    let key = match key {
        Some(KeySource::Arg(k)) => zeroize::Zeroizing::new(unhex(k, "--key")?),
        Some(KeySource::Env(var)) => key_from_env(var)?,
        Some(KeySource::File(p)) => {
            if p.as_os_str() == "-" && file.is_none_or(|f| f.as_os_str() == "-") {
                return Err(Fail("stdin ('-') cannot be both the key file and the message; give the message as a file".into()));
            }
            let (mac, key) = keyfile::read_named_key(p)?;
            if name != format!("mac-{mac}") && !(mac == "modp" && name == "modp") {
                return Err(Fail(format!(
                    "key file {} is a {mac} key, not a key for {name}",
                    p.display()
                )));
            }
            key
        }
        None => return Err(Fail("give the key: --key-file FILE, --key-env VAR or --key HEX".into())),
    };
    let nonce = nonce.map(|n| unhex(n, "--nonce")).transpose()?;
    let p = Params {
        key: &key,
        nonce: nonce.as_deref(),
        len,
    };
    if known_answer {
        // Streamed in read buffers, never held whole.
        let mut s = registry::known_answer_open(&name, &p).map_err(|e| Fail(cite(&e.to_string())))?;
        input::read_message(file, |d| s.update(d))?;
        let out = s.finalize().map_err(|e| Fail(cite(&e.to_string())))?;
        io::stdout().write_all(format!("{}\n", hex::encode(out)).as_bytes())?;
        return Ok(());
    }
    let mut s = registry::open(&name, &p).map_err(|e| Fail(cite(&e.to_string())))?;
    // Once the arguments are found good (an error stays one line): a key
    // that is not a published vector's was on the command line.
    if matches!(key_source, Some(KeySource::Arg(_))) {
        eprintln!("{KEY_ARG_WARNING}");
    }
    let limit = length_limit(&name, &key, nonce.as_deref(), len);
    // A big file in stripes on all allowed cores (crate::split): partial
    // hashes, and then `s` gets nothing, or the lowest layer of `s`.
    let split = file
        .filter(|f| limit.is_none() && len.is_none() && f.as_os_str() != "-")
        .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.is_file() && m.len() >= input::SPLIT_MIN))
        .and_then(|_| split::SplitMac::new(&name, &key));
    let (over, whole) = match (&split, file) {
        (Some(sp), Some(f)) => (false, sp.feed(f, None, &mut s)?),
        _ => (input::read_message_limited(file, limit.unwrap_or(u64::MAX), |d| s.update(d))?, None),
    };
    if over {
        return Err(Fail(format!(
            "{name}: the message is longer than {} bytes, more than this name takes under a {}-byte key (stopped reading there)",
            limit.unwrap_or(0),
            key.len()
        )));
    }
    let out = match (&split, whole) {
        (Some(sp), Some(w)) => sp.finish(nonce.as_deref(), &w)?,
        _ => s.finalize().map_err(|e| Fail(cite(&e.to_string())))?,
    };
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
            let text = std::fs::read_to_string(f)
                .map_err(|e| Fail(format!("cannot read {}: {}", input::shown(Some(f)), input::io_msg(&e))))?;
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

/// unimac's manual page, from the argument parser: the command's page, then
/// a section per subcommand (hidden ones left out) with its arguments.
fn manpage() -> Result<(), Fail> {
    let cmd = Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
    // Text as roff takes it: backslashes escaped, no line taken as a request.
    let roff = |s: &str| {
        s.replace('\\', "\\e")
            .lines()
            .map(|l| if l.starts_with(['.', '\'']) { format!("\\&{l}") } else { l.to_string() })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut text = String::new();
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        text.push_str(&format!(".SH \"UNIMAC {}\"\n", sub.get_name().to_uppercase()));
        let mut usage = sub.clone().bin_name(format!("unimac {}", sub.get_name()));
        text.push_str(&format!(".B {}\n.PP\n", roff(&usage.render_usage().to_string().replace("Usage: ", ""))));
        if let Some(about) = sub.get_long_about().or(sub.get_about()) {
            text.push_str(&format!("{}\n", roff(&about.to_string())));
        }
        for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            let mut names: Vec<String> = Vec::new();
            if let Some(s) = arg.get_short() {
                names.push(format!("\\fB-{s}\\fR"));
            }
            if let Some(l) = arg.get_long() {
                names.push(format!("\\fB--{}\\fR", roff(l)));
            }
            let values = arg
                .get_value_names()
                .map(|v| v.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "))
                .unwrap_or_else(|| arg.get_id().to_string().to_uppercase());
            let head = if names.is_empty() {
                format!("\\fI{}\\fR", roff(&values))
            } else if arg.get_action().takes_values() {
                format!("{} \\fI{}\\fR", names.join(", "), roff(&values))
            } else {
                names.join(", ")
            };
            let help = arg.get_long_help().or(arg.get_help()).map(|h| h.to_string()).unwrap_or_default();
            text.push_str(&format!(".TP\n{head}\n{}\n", roff(&help)));
        }
    }
    out.extend_from_slice(text.as_bytes());
    io::stdout().write_all(&out)?;
    Ok(())
}

/// Writing to a closed pipe ends the process quietly, as for coreutils
/// (`unimac tag ... | head -1`): the default action of SIGPIPE, which the
/// Rust runtime sets to "ignore".
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of one signal, before any
    // other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => parse_error(e),
    };
    // The command-line tool opts in to threads for long inputs (every core
    // unless --threads says otherwise); the library uses none unless asked.
    unimac::threads::set_max_threads(cli.threads.unwrap_or(0));
    let r = match &cli.cmd {
        Cmd::List => list().map(|_| true),
        Cmd::Keygen {
            name,
            output,
            counter,
        } => mac_cmd::keygen(name, output.as_deref(), counter.as_deref()).map(|_| true),
        Cmd::Tag {
            name,
            key_file,
            counter,
            nonce,
            caller_manages_nonces,
            random_nonce,
            bsd,
            allow_weak,
            recursive,
            files_from,
            zero,
            zero_lines,
            files,
        } => {
            let given = counter.is_some() as u8 + nonce.is_some() as u8 + *random_nonce as u8;
            let src = match (counter, nonce, random_nonce) {
                _ if given > 1 => Err(Fail(
                    "give one of --counter, --nonce and --random-nonce, not both".into(),
                )),
                (Some(c), _, _) => Ok(mac_cmd::NonceSource::Counter(c)),
                (None, Some(_), _) if !*caller_manages_nonces => Err(Fail(
                    "--nonce needs --caller-manages-nonces: unimac cannot tell whether this key's counter or an earlier run used it (use --counter, or --random-nonce)".into(),
                )),
                (None, Some(n), _) => Ok(mac_cmd::NonceSource::Fixed(n)),
                (None, None, true) => Ok(mac_cmd::NonceSource::Random),
                (None, None, false) => Ok(mac_cmd::NonceSource::None),
            };
            let list = mac_cmd::FileList {
                recursive: *recursive,
                files_from: files_from.as_deref(),
                zero: *zero,
            };
            src.and_then(|nonces| {
                mac_cmd::tag(
                    name,
                    key_file,
                    mac_cmd::TagOpts {
                        nonces,
                        list,
                        bsd: *bsd,
                        allow_weak: *allow_weak,
                        zero: *zero_lines,
                    },
                    files,
                )
            })
        }
        Cmd::Verify {
            key_file,
            check,
            quiet,
            status,
            strict,
            ignore_missing,
            warn,
            zero,
            args,
        } => mac_cmd::split_verify_args(args).and_then(|(name, more)| {
            let checks: Vec<PathBuf> = check.iter().cloned().chain(more).collect();
            let opts = mac_cmd::VerifyOpts {
                quiet: *quiet,
                status: *status,
                ignore_missing: *ignore_missing,
                strict: *strict,
                warn: *warn,
                zero: *zero,
            };
            // One sealed manifest ('unimac seal'): checked as a whole.
            match checks.as_slice() {
                [only] if seal::is_manifest(only) => seal::verify_manifest(name.as_deref(), key_file, only, opts),
                _ => mac_cmd::verify(name.as_deref(), key_file, &checks, opts),
            }
        }),
        Cmd::Seal {
            key_file,
            counter,
            random_nonce,
            root,
            files_from,
            zero,
            output,
            allow_weak,
            files,
        } => seal::seal(
            key_file,
            seal::SealOpts {
                counter: counter.as_deref(),
                random_nonce: *random_nonce,
                root: root.as_deref(),
                files_from: files_from.as_deref(),
                zero: *zero,
                output: output.as_deref(),
                allow_weak: *allow_weak,
            },
            files,
        ),
        Cmd::Stream { key_file, verify, hold, seen, chunk_size, input } => {
            let chunk = usize::try_from(*chunk_size).ok().filter(|&c| c > 0 && c <= unimac::formats::stream::MAX_CHUNK).ok_or_else(|| {
                Fail(format!("--chunk-size: 1 to {} bytes, not {chunk_size}", unimac::formats::stream::MAX_CHUNK))
            });
            chunk.and_then(|chunk| {
                stream::stream(
                    key_file,
                    input.as_deref(),
                    stream::StreamOpts { verify: *verify, hold: *hold, chunk, seen: seen.as_deref() },
                )
            })
        }
        Cmd::Bound {
            name,
            max_bytes,
            tags,
            forgeries,
            random_nonces,
            json,
        } => {
            mac_cmd::bound(name, *max_bytes, *tags, *forgeries, *random_nonces, *json).map(|_| true)
        }
        Cmd::Compute {
            name,
            key,
            key_file,
            key_env,
            nonce,
            caller_manages_nonces,
            known_answer,
            len,
            file,
        } => compute(
            name,
            key.as_deref()
                .map(KeySource::Arg)
                .or(key_file.as_deref().map(KeySource::File))
                .or(key_env.as_deref().map(KeySource::Env)),
            (nonce.as_deref(), *caller_manages_nonces, *known_answer),
            *len,
            file.as_deref(),
        )
        .map(|_| true),
        Cmd::Advise {
            max_bytes,
            tags,
            forgeries,
        } => advise::advise(*max_bytes, *tags, *forgeries).map(|_| true),
        Cmd::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "unimac", &mut out);
            io::stdout().write_all(&out).map(|_| true).map_err(Fail::from)
        }
        Cmd::Manpage => manpage().map(|_| true),
        Cmd::CheckVectors { files } => check_vectors(files),
        Cmd::CheckIdentity {
            key_file,
            hex,
            operands,
        } => identity::check(key_file, operands, *hex),
        Cmd::Bench {
            names,
            all,
            millis,
            json,
            plot,
            paper,
            quick,
        } => {
            let quick = *quick || modes::quick_env();
            // Every figure of the bench is one thread's: hash127 and the
            // trees would otherwise split inputs of 4 MiB or more.
            unimac::threads::set_max_threads(1);
            if *json {
                modes::json(quick)
            } else if let Some(p) = plot {
                modes::plot(p, quick)
            } else if *paper {
                modes::paper(quick)
            } else {
                bench::run(names, *all, if quick { 2 } else { *millis })
            }
            .map(|_| true)
        }
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(Fail(msg)) => {
            eprintln!("unimac: {}", input::clean_msg(&cite(&msg)));
            ExitCode::from(2)
        }
    }
}

/// A count or size as people write it: `1048576`, `2^20`, `1e6`, or a
/// number with a unit, binary (`KiB`, `MiB`, `GiB`, `TiB`, and `K`, `M`,
/// `G`, `T`) or decimal (`KB`, `MB`, `GB`, `TB`).
fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    let over = || format!("'{s}' is more than 2^64 - 1");
    if let Some((b, e)) = t.split_once('^') {
        let b: u64 = b.trim().parse().map_err(|_| format!("'{s}': expected BASE^EXPONENT, e.g. 2^32"))?;
        let e: u32 = e.trim().parse().map_err(|_| format!("'{s}': expected BASE^EXPONENT, e.g. 2^32"))?;
        return b.checked_pow(e).ok_or_else(over);
    }
    if let Some((m, e)) = t.split_once(['e', 'E']) {
        let m: u64 = m.trim().parse().map_err(|_| format!("'{s}': expected MANTISSAeEXPONENT, e.g. 1e6"))?;
        let e: u32 = e.trim().parse().map_err(|_| format!("'{s}': expected MANTISSAeEXPONENT, e.g. 1e6"))?;
        return 10u64.checked_pow(e).and_then(|p| m.checked_mul(p)).ok_or_else(over);
    }
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let n: u64 = n.parse().map_err(|_| format!("'{s}': expected a number such as 1048576, 2^20, 1e6 or 1MiB"))?;
    let mul: u64 = match unit.trim() {
        "" | "B" => 1,
        "K" | "KiB" => 1 << 10,
        "M" | "MiB" => 1 << 20,
        "G" | "GiB" => 1 << 30,
        "T" | "TiB" => 1 << 40,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        u => return Err(format!("'{s}': unknown unit '{u}' (KiB, MiB, GiB, TiB; KB, MB, GB, TB)")),
    };
    n.checked_mul(mul).ok_or_else(over)
}

/// An argument error as one line on stderr (`unimac: ...`, the usage left
/// to `--help`), exit 2; help and version as clap prints them, exit 0.
fn parse_error(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) {
        e.exit();
    }
    let text = e.render().to_string();
    // The message is the first paragraph (a list of missing arguments
    // follows on indented lines), joined into one line.
    let para: Vec<&str> = text.lines().map(str::trim).skip_while(|l| l.is_empty()).take_while(|l| !l.is_empty()).collect();
    let msg = para.join(" ");
    let msg = msg.strip_prefix("error: ").unwrap_or(&msg);
    eprintln!("unimac: {msg} (see 'unimac --help')");
    std::process::exit(2)
}

#[cfg(test)]
mod count_tests {
    use super::parse_count;

    #[test]
    fn counts_as_people_write_them() {
        for (s, v) in [
            ("1048576", 1u64 << 20),
            ("2^20", 1 << 20),
            ("2^32", 1 << 32),
            ("1MiB", 1 << 20),
            ("1M", 1 << 20),
            ("4GiB", 4 << 30),
            ("1MB", 1_000_000),
            ("1e6", 1_000_000),
            ("1_000", 1000),
            (" 7 ", 7),
            ("2^63", 1 << 63),
        ] {
            assert_eq!(parse_count(s), Ok(v), "{s}");
        }
        for bad in ["", "x", "2^64", "1ZiB", "-1", "1.5MiB", "2^", "1e30", "18446744073709551616"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }
}
