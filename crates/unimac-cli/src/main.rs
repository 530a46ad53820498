//! `unimac`: the command line parsed (clap) and each command handed to its
//! module. Where things live:
//!
//! - commands: `tag` (tag.rs), `verify` of check files (verify.rs), `seal`
//!   and the verifying of sealed manifests (seal.rs), `keygen` (keygen.rs),
//!   `bound` (bound.rs), `compute` (compute.rs), `list` (list.rs),
//!   `advise` (advise.rs), `check-vectors` (check_vectors.rs),
//!   `check-identity` (identity.rs), the manual page (manpage.rs); the
//!   benchmark is a program of its own (crates/unimac-bench), which
//!   `unimac bench` names ([`bench_moved`]);
//! - shared modules: the error type `Fail` (fail.rs), walking and listing
//!   files (files.rs), check-line I/O (checklines.rs), key files and nonce
//!   counters (keyfile.rs), the strength policy (strength.rs), the clock
//!   of `advise` (clock.rs), reading
//!   input (input.rs; listed files stat-ed and opened relative to their
//!   directory, never blocking: listed.rs), big files in stripes (split.rs), the ordered thread
//!   pool (pool.rs), names (names.rs), the bundled vectors (bundled.rs),
//!   SIGPIPE's default restored and SIGXFSZ ignored (sigpipe.rs: the
//!   crate's one `unsafe` module).

// No unsafe code but the two calls of sigpipe.rs, allowed where it is declared.
#![deny(unsafe_code)]

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

mod advise;
mod bound;
mod bundled;
mod check_vectors;
mod checklines;
mod clock;
mod compute;
mod fail;
mod files;
mod identity;
mod input;
mod listed;
mod keyfile;
mod keygen;
mod list;
mod manpage;
mod names;
mod pool;
mod seal;
#[allow(unsafe_code)] // two libc calls; their SAFETY lines are there
mod sigpipe;
mod split;
mod strength;
mod stream;
mod tag;
mod verify;

use compute::KeySource;
use fail::Fail;
use names::cite;

#[derive(Parser)]
#[command(
    name = "unimac",
    version,
    about = "Fast, provably secure message authentication from universal hashing"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// `--threads`, an option of the commands that hash data (tag, verify,
/// seal, stream, compute, check-vectors, check-identity) and of no other.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
struct ThreadsArg {
    /// Threads to hash with (0 = every core, the default; 1 = the main
    /// thread only, one file at a time).
    ///
    /// Inputs of 4 MiB or more are split across N threads, and the files of
    /// tag, verify and seal hashed side by side. The results do not depend
    /// on it. (Also taken before the command: 'unimac --threads 1 tag ...'.)
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Every implemented name with its key, nonce and output sizes, in 100
    /// columns (--long: whole descriptions and the papers they come from).
    List {
        /// Whole descriptions, each with the paper it comes from (wide rows).
        #[arg(short = 'l', long)]
        long: bool,
    },
    /// Make a new key for MAC NAME (or for modp) from the OS random generator:
    /// a key file ('unimac-key NAME', then the key in hex), mode 0600, never
    /// overwriting; or a counter file for an existing key.
    ///
    /// 'unimac keygen wc-mmh32x4 -o K --counter C' makes a key and its
    /// counter; 'unimac keygen --key-file K --counter C' makes a new counter
    /// file, starting at 0, for the existing key in K (a nonce MAC's), e.g.
    /// when a key made without --counter is to be used with 'tag --counter'.
    /// Only one counter may ever be used with a key: a second counter for
    /// the same key repeats its nonces.
    Keygen {
        /// A MAC name, e.g. hash127-aes or wc-mmh32x4 (the mac- prefix is
        /// optional); or modp (a random prime in [2^120, 2^128)). With
        /// --key-file it may be left out (the key file names its MAC).
        #[arg(required_unless_present = "key_file")]
        name: Option<String>,
        /// Write the key to this new file (stdout when absent).
        #[arg(short = 'o', long = "output", conflicts_with = "key_file")]
        output: Option<PathBuf>,
        /// Also create this nonce counter file, starting at 0 (nonce MACs).
        #[arg(long)]
        counter: Option<PathBuf>,
        /// Make no key: create the --counter file for the existing key in
        /// this key file (a nonce MAC's; '-' for stdin).
        #[arg(short = 'k', long = "key-file", requires = "counter")]
        key_file: Option<PathBuf>,
    },
    /// Print 'TAG  FILE' (or 'NONCE:TAG  FILE' for nonce MACs) per file, as
    /// sha256sum does; a file that cannot be read is reported on stderr,
    /// the others are still tagged, and the exit status is 1.
    Tag {
        /// The key file (from 'unimac keygen'; '-' for stdin); it names the MAC.
        #[arg(short = 'k', long = "key-file")]
        key_file: PathBuf,
        /// The MAC the key file must be a key of (an assertion; the MAC is
        /// the key file's), e.g. hash127-aes (the mac- prefix is optional).
        #[arg(long = "mac", value_name = "NAME")]
        mac: Option<String>,
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
        /// links to directories not followed, links to files tagged only
        /// if they stay inside the tree; named pipes, sockets, devices and
        /// links leading outside skipped with a warning; a directory
        /// replaced while it is walked is an error, never entered). A
        /// directory named through a symbolic link is refused unless given
        /// as DIR/.
        #[arg(short = 'r', long)]
        recursive: bool,
        /// Also tag the files named in FILE, one per line ('-': stdin; a pipe such as <(find ...) is read too).
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
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// Check the tags listed in check files ('unimac tag' output, either
    /// style): 'FILE: OK' or 'FILE: FAILED'; exit 1 if any failed. NAME may be
    /// left out: the key file names its MAC.
    Verify {
        /// The key file ('-' for stdin); it names the MAC.
        #[arg(short = 'k', long = "key-file")]
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
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// Write a sealed manifest: '[NONCE:]TAG SIZE NAME' per file and a last
    /// line sealing the whole list under the key, so that 'verify --key-file
    /// K MANIFEST' finds changed, removed, added and renamed files and any
    /// change to the manifest itself.
    Seal {
        /// The key file ('-' for stdin); it names the MAC.
        #[arg(short = 'k', long = "key-file")]
        key_file: PathBuf,
        /// The MAC the key file must be a key of (an assertion).
        #[arg(long = "mac", value_name = "NAME")]
        mac: Option<String>,
        /// The key's counter file (nonce MACs): one nonce per file and one
        /// for the seal, reserved before any tag.
        #[arg(long)]
        counter: Option<PathBuf>,
        /// Random nonces of the MAC's full length instead of a counter.
        #[arg(long = "random-nonce")]
        random_nonce: bool,
        /// Seal the tree under DIR (sorted; links to directories not
        /// followed, links to files only inside the tree); 'verify' then
        /// also reports files added under it. A DIR that is a symbolic
        /// link is refused unless given as DIR/ (then its target is sealed).
        #[arg(short = 'r', long = "recursive", value_name = "DIR", conflicts_with_all = ["files", "files_from"])]
        root: Option<PathBuf>,
        /// Also seal the files named in FILE, one per line ('-': stdin; a pipe such as <(find ...) is read too).
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
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// An authenticated stream: frame IN (stdin by default) for an untrusted
    /// channel or storage, or with --verify check one and write its payload,
    /// each chunk only after its tag verifies.
    ///
    /// 'tar c DIR | unimac stream -k K > backup.uma' and back with 'unimac
    /// stream --verify --hold -k K backup.uma | tar x' (without --hold, use
    /// 'set -o pipefail': tar may exit 0 on a prefix cut at a file
    /// boundary, and the pipeline's status is tar's). The receiver stops at the
    /// first bad, missing, repeated, reordered or foreign chunk, or a stream
    /// cut short, names the chunk and its payload byte offset, and exits 1;
    /// what it wrote before verified. --hold writes nothing until the whole
    /// stream verified. Each chunk is one message of the MAC under a key
    /// derived for this stream: the forgery bound of a stream of N chunks is
    /// 'unimac bound NAME --max-bytes CHUNK+320 --tags N --forgeries D'
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
        /// (created mode 0600 if missing; never through a symbolic link;
        /// refused unless it is this user's, with one link, open to no
        /// other user, and holds only ids, 32 hex digits a line): a repeated
        /// id is refused before any output; an id is recorded just before
        /// the stream's first byte is released (with --hold, once the whole
        /// stream verified: a cut delivery uses up nothing).
        #[arg(long, requires = "verify", value_name = "FILE")]
        seen: Option<PathBuf>,
        /// Bytes per chunk when framing (1 to 16MiB; default 256KiB): the
        /// receiver holds one chunk; smaller chunks cost more tags.
        #[arg(long = "chunk-size", value_parser = parse_count, default_value = "256KiB", value_name = "BYTES")]
        chunk_size: u64,
        /// Use a MAC that is weak for this use (as 'tag --allow-weak').
        #[arg(long = "allow-weak")]
        allow_weak: bool,
        /// The input: the data to frame, or with --verify the stream ('-' or
        /// absent: stdin).
        input: Option<PathBuf>,
        #[command(flatten)]
        threads: ThreadsArg,
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
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print unimac's manual page (roff: 'unimac manpage | man -l -') on
    /// stdout.
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
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// Run known-answer files (JSON lines, hash127-accuracy.exp, or Wycheproof
    /// mac_with_iv .json files: docs/WIRE.md §9.5); without FILE, the vectors
    /// bundled in this binary.
    CheckVectors {
        /// Files to check.
        files: Vec<PathBuf>,
        #[command(flatten)]
        threads: ThreadsArg,
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
        #[command(flatten)]
        threads: ThreadsArg,
    },
}

impl Cmd {
    /// `--threads` of a command that hashes (`None`: not given, or a
    /// command without it).
    fn threads(&self) -> Option<usize> {
        match self {
            Cmd::Tag { threads, .. }
            | Cmd::Verify { threads, .. }
            | Cmd::Seal { threads, .. }
            | Cmd::Stream { threads, .. }
            | Cmd::Compute { threads, .. }
            | Cmd::CheckVectors { threads, .. }
            | Cmd::CheckIdentity { threads, .. } => threads.threads,
            _ => None,
        }
    }
}

/// The commands that take `--threads`.
const THREADED: [&str; 7] = ["tag", "verify", "seal", "stream", "compute", "check-vectors", "check-identity"];

/// The command line with a `--threads N` given before the command moved
/// after it (`unimac --threads 2 tag ...`, the older place, still taken)
/// when the command is one that takes it; otherwise as it is (clap then
/// refuses `--threads` before a command without it).
fn threads_after_command(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut moved = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let a = args[i].to_string_lossy();
        if a == "--threads" && i + 1 < args.len() {
            moved.extend_from_slice(&args[i..i + 2]);
            i += 2;
        } else if a.starts_with("--threads=") {
            moved.push(args[i].clone());
            i += 1;
        } else {
            break;
        }
    }
    if moved.is_empty() || !args.get(i).is_some_and(|c| THREADED.iter().any(|t| c.as_os_str() == *t)) {
        return args;
    }
    let mut out = Vec::with_capacity(args.len());
    out.push(args[0].clone());
    out.push(args[i].clone());
    out.extend(moved);
    out.extend_from_slice(&args[i + 1..]);
    out
}

fn main() -> ExitCode {
    sigpipe::quiet_on_closed_pipe();
    sigpipe::file_too_large_is_an_error();
    if let Some(msg) = tag_check_habit(std::env::args_os().skip(1)).or_else(|| bench_moved(std::env::args_os().skip(1))) {
        eprintln!("unimac: {msg}");
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse_from(threads_after_command(std::env::args_os().collect())) {
        Ok(c) => c,
        Err(e) => parse_error(e),
    };
    // The command-line tool opts in to threads for long inputs (every core
    // unless --threads says otherwise); the library uses none unless asked.
    unimac::threads::set_max_threads(cli.cmd.threads().unwrap_or(0));
    let r = match &cli.cmd {
        Cmd::List { long } => list::list(*long).map(|_| true),
        Cmd::Keygen {
            name,
            output,
            counter,
            key_file,
        } => match (key_file, counter, name) {
            (Some(k), Some(c), name) => keygen::counter_for_key(name.as_deref(), k, c),
            (_, _, Some(name)) => keygen::keygen(name, output.as_deref(), counter.as_deref()),
            _ => Err(Fail("keygen needs a MAC name (or --key-file K --counter C)".into())),
        }
        .map(|_| true),
        Cmd::Tag {
            key_file,
            mac,
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
            ..
        } => {
            let given = counter.is_some() as u8 + nonce.is_some() as u8 + *random_nonce as u8;
            let src = match (counter, nonce, random_nonce) {
                _ if given > 1 => Err(Fail(
                    "give one of --counter, --nonce and --random-nonce, not both".into(),
                )),
                (Some(c), _, _) => Ok(tag::NonceSource::Counter(c)),
                (None, Some(_), _) if !*caller_manages_nonces => Err(Fail(
                    "--nonce needs --caller-manages-nonces: unimac cannot tell whether this key's counter or an earlier run used it (use --counter, or --random-nonce)".into(),
                )),
                (None, Some(n), _) => Ok(tag::NonceSource::Fixed(n)),
                (None, None, true) => Ok(tag::NonceSource::Random),
                (None, None, false) => Ok(tag::NonceSource::None),
            };
            let list = files::FileList {
                recursive: *recursive,
                files_from: files_from.as_deref(),
                zero: *zero,
            };
            src.and_then(|nonces| {
                tag::tag(
                    mac.as_deref(),
                    key_file,
                    tag::TagOpts {
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
            ..
        } => verify::split_verify_args(args).and_then(|(name, more)| {
            let checks: Vec<PathBuf> = check.iter().cloned().chain(more).collect();
            let opts = verify::VerifyOpts {
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
                _ => verify::verify(name.as_deref(), key_file, &checks, opts),
            }
        }),
        Cmd::Seal {
            key_file,
            mac,
            counter,
            random_nonce,
            root,
            files_from,
            zero,
            output,
            allow_weak,
            files,
            ..
        } => seal::seal(
            key_file,
            seal::SealOpts {
                mac: mac.as_deref(),
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
        Cmd::Stream { key_file, verify, hold, seen, chunk_size, allow_weak, input, .. } => {
            let chunk = usize::try_from(*chunk_size).ok().filter(|&c| c > 0 && c <= unimac::formats::stream::MAX_CHUNK).ok_or_else(|| {
                Fail(format!("--chunk-size: 1 to {} bytes, not {chunk_size}", unimac::formats::stream::MAX_CHUNK))
            });
            chunk.and_then(|chunk| {
                stream::stream(
                    key_file,
                    input.as_deref(),
                    stream::StreamOpts { verify: *verify, hold: *hold, chunk, seen: seen.as_deref(), allow_weak: *allow_weak },
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
            bound::bound(name, *max_bytes, *tags, *forgeries, *random_nonces, *json).map(|_| true)
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
            ..
        } => compute::compute(
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
        Cmd::Manpage => manpage::manpage(Cli::command()).map(|_| true),
        Cmd::CheckVectors { files, .. } => check_vectors::check(files),
        Cmd::CheckIdentity {
            key_file,
            hex,
            operands,
            ..
        } => identity::check(key_file, operands, *hex),
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

/// A count or size as people write it (`1048576`, `2^20`, `1e6`, `1MiB`,
/// `1.5MiB`, `4KB`, up to `15EiB`): the library's one rule,
/// [`unimac::bounds::parse_size`], also Python's.
fn parse_count(s: &str) -> Result<u64, String> {
    unimac::bounds::parse_size(s).map_err(|e| e.to_string())
}

/// `unimac tag -c FILE` (or `--check`), typed by sha256sum users who mean
/// `verify`: the message that says so, instead of clap's "unexpected
/// argument". Arguments after `--` are file names, never options.
fn tag_check_habit(args: impl Iterator<Item = std::ffi::OsString>) -> Option<String> {
    let mut args = args.map(|a| a.to_string_lossy().into_owned());
    // The subcommand: the first argument that is not --threads (and its
    // value), which is also taken before the command.
    loop {
        let a = args.next()?;
        if a == "--threads" {
            args.next();
        } else if !a.starts_with("--threads=") {
            if a != "tag" {
                return None;
            }
            break;
        }
    }
    let check = args.take_while(|a| a != "--").any(|a| a == "-c" || a == "--check" || a.starts_with("--check="));
    let key = if Cli::command().find_subcommand("verify").is_some_and(|v| v.get_arguments().any(|a| a.get_short() == Some('k'))) {
        "-k KEY"
    } else {
        "--key-file KEY"
    };
    check.then(|| format!("tag has no -c: to check a file of tags, use 'unimac verify {key} FILE'"))
}

/// `unimac bench ...`, the command the benchmark was before it became a
/// program of its own (crates/unimac-bench, so that installing `unimac`
/// builds no peer MAC and no plotting): the one line that names the command
/// which runs it, with the same arguments, instead of clap's "unrecognized
/// subcommand".
fn bench_moved(args: impl Iterator<Item = std::ffi::OsString>) -> Option<String> {
    let mut args = args.map(|a| a.to_string_lossy().into_owned());
    loop {
        let a = args.next()?;
        if a == "--threads" {
            args.next();
        } else if !a.starts_with("--threads=") {
            if a != "bench" {
                return None;
            }
            break;
        }
    }
    // The arguments as a POSIX shell takes them back: plain words as they
    // are, anything else in single quotes.
    let rest: Vec<String> = args
        .map(|a| {
            if !a.is_empty() && a.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_=./,:+^@%".contains(&b)) {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect();
    let tail = if rest.is_empty() { String::new() } else { format!(" -- {}", rest.join(" ")) };
    // One line, whatever the arguments hold (control characters escaped).
    Some(input::terminal_safe(&format!(
        "the benchmark is a program of its own: in a checkout of unimac, run: cargo run --release -p unimac-bench{tail}"
    )))
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
            ("1MiB", 1 << 20),
            ("1.5MiB", 1_572_864),
            ("1e6", 1_000_000),
            ("15EiB", 15 << 60),
        ] {
            assert_eq!(parse_count(s), Ok(v), "{s}");
        }
        for bad in ["", "x", "2^64", "1ZiB", "-1", "1.3KiB", "2^", "1e30", "18446744073709551616"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_count("16EiB").unwrap_err(), "'16EiB' is more than 2^64 - 1 bytes");
    }
}
