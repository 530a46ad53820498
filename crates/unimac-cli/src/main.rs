//! `unimac`: the command line parsed (clap) and each command handed to its
//! module. Where things live:
//!
//! - the grammar: every command and option with its help text (args.rs);
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
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use args::{Cli, Cmd};
use clap::{CommandFactory, Parser};

mod advise;
mod args;
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
    match run(&cli.cmd) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(Fail(msg)) => {
            eprintln!("unimac: {}", input::clean_msg(&cite(&msg)));
            ExitCode::from(2)
        }
    }
}

/// The command run by its module: `Ok(false)` when what it checked or
/// read failed (exit 1), `Err` for a refusal (exit 2).
fn run(cmd: &Cmd) -> Result<bool, Fail> {
    match cmd {
        Cmd::List { long } => list::list(*long).map(|_| true),
        Cmd::Keygen { name, output, counter, key_file } => keygen_command(name.as_deref(), output.as_deref(), counter.as_deref(), key_file.as_deref()),
        Cmd::Tag {
            key_file, mac, counter, nonce, caller_manages_nonces, random_nonce, bsd, allow_weak, recursive, files_from, zero, zero_lines, files, ..
        } => {
            let list = files::FileList { recursive: *recursive, files_from: files_from.as_deref(), zero: *zero };
            tag_nonces(counter.as_deref(), nonce.as_deref(), *random_nonce, *caller_manages_nonces).and_then(|nonces| {
                let opts = tag::TagOpts { nonces, list, bsd: *bsd, allow_weak: *allow_weak, zero: *zero_lines };
                tag::tag(mac.as_deref(), key_file, opts, files)
            })
        }
        Cmd::Verify { key_file, check, quiet, status, strict, ignore_missing, warn, zero, root, args, .. } => {
            let opts = verify::VerifyOpts { quiet: *quiet, status: *status, ignore_missing: *ignore_missing, strict: *strict, warn: *warn, zero: *zero };
            verify_command(key_file, check, args, root.as_deref(), opts)
        }
        Cmd::Seal { key_file, mac, counter, random_nonce, recursive, files_from, zero, output, allow_weak, files, .. } => {
            seal::recursive_root(*recursive, files, files_from.is_some()).and_then(|(root, files)| {
                let opts = seal::SealOpts {
                    mac: mac.as_deref(),
                    counter: counter.as_deref(),
                    random_nonce: *random_nonce,
                    root,
                    files_from: files_from.as_deref(),
                    zero: *zero,
                    output: output.as_deref(),
                    allow_weak: *allow_weak,
                };
                seal::seal(key_file, opts, files)
            })
        }
        Cmd::Stream { key_file, verify, hold, seen, chunk_size, allow_weak, force_tty, output, input, .. } => stream_chunk(*chunk_size).and_then(|chunk| {
            let opts = stream::StreamOpts {
                verify: *verify,
                hold: *hold,
                chunk,
                seen: seen.as_deref(),
                allow_weak: *allow_weak,
                force_tty: *force_tty,
                output: output.as_deref(),
            };
            stream::stream(key_file, input.as_deref(), opts)
        }),
        Cmd::Bound { name, max_bytes, tags, forgeries, random_nonces, json } => {
            bound::bound(name, *max_bytes, *tags, *forgeries, *random_nonces, *json).map(|_| true)
        }
        Cmd::Compute { name, key, key_file, key_env, nonce, caller_manages_nonces, known_answer, len, file, .. } => {
            let key = key
                .as_deref()
                .map(KeySource::Arg)
                .or(key_file.as_deref().map(KeySource::File))
                .or(key_env.as_deref().map(KeySource::Env));
            compute::compute(name, key, (nonce.as_deref(), *caller_manages_nonces, *known_answer), *len, file.as_deref()).map(|_| true)
        }
        Cmd::Advise { max_bytes, tags, forgeries } => advise::advise(*max_bytes, *tags, *forgeries).map(|_| true),
        Cmd::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "unimac", &mut out);
            io::stdout().write_all(&out).map(|_| true).map_err(Fail::from)
        }
        Cmd::Manpage => manpage::manpage(Cli::command()).map(|_| true),
        Cmd::CheckVectors { files, .. } => check_vectors::check(files),
        Cmd::CheckIdentity { key_file, hex, operands, .. } => identity::check(key_file, operands, *hex),
    }
}

/// `unimac keygen [NAME] [-o FILE] [--counter C]`, or `keygen --counter C
/// --key-file K` (a counter file for an existing key); with no NAME, the
/// default MAC's key, said on stderr.
fn keygen_command(name: Option<&str>, output: Option<&Path>, counter: Option<&Path>, key_file: Option<&Path>) -> Result<bool, Fail> {
    match (key_file, counter, name) {
        (Some(k), Some(c), name) => keygen::counter_for_key(name, k, c),
        (_, _, Some(name)) => keygen::keygen(name, output, counter),
        (_, _, None) => {
            eprintln!("unimac: keygen: no MAC named: a {} key (stateless; name another MAC to choose it)", advise::DEFAULT);
            keygen::keygen(advise::DEFAULT, output, counter)
        }
    }
    .map(|_| true)
}

/// Where `tag`'s nonces come from: at most one of `--counter`, `--nonce`
/// (taken only with `--caller-manages-nonces` once the key's MAC is known:
/// the library's `policy::caller_nonce`) and `--random-nonce`.
fn tag_nonces<'a>(counter: Option<&'a Path>, nonce: Option<&'a str>, random: bool, caller_manages: bool) -> Result<tag::NonceSource<'a>, Fail> {
    let given = counter.is_some() as u8 + nonce.is_some() as u8 + random as u8;
    match (counter, nonce, random) {
        _ if given > 1 => Err(Fail("give one of --counter, --nonce and --random-nonce, not both".into())),
        (Some(c), _, _) => Ok(tag::NonceSource::Counter(c)),
        (None, Some(n), _) => Ok(tag::NonceSource::Fixed(n, caller_manages)),
        (None, None, true) => Ok(tag::NonceSource::Random),
        (None, None, false) => Ok(tag::NonceSource::None),
    }
}

/// `unimac verify`: one sealed manifest (`unimac seal`) checked as a whole,
/// else check files; `--root` applies to a manifest only.
fn verify_command(key_file: &Path, check: &[PathBuf], args: &[PathBuf], root: Option<&Path>, opts: verify::VerifyOpts) -> Result<bool, Fail> {
    let (name, more) = verify::split_verify_args(args)?;
    let checks: Vec<PathBuf> = check.iter().cloned().chain(more).collect();
    match checks.as_slice() {
        [only] if seal::is_manifest(only) => seal::verify_manifest(name.as_deref(), key_file, only, root, opts),
        _ if root.is_some() => Err(Fail("--root applies to one sealed manifest ('unimac seal' output), not to check files".into())),
        _ => verify::verify(name.as_deref(), key_file, &checks, opts),
    }
}

/// `stream --chunk-size N`: 1 to the library's largest chunk.
fn stream_chunk(chunk_size: u64) -> Result<usize, Fail> {
    let max = unimac_front::formats::stream::MAX_CHUNK;
    usize::try_from(chunk_size).ok().filter(|&c| c > 0 && c <= max).ok_or_else(|| Fail(format!("--chunk-size: 1 to {max} bytes, not {chunk_size}")))
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
