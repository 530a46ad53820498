//! The command line's grammar: every command, option and help text of
//! `unimac` as clap parses them (and as `--help`, the completions and the
//! manual page show them); main.rs hands each command to its module.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use unimac_front::size::parse_count;

#[derive(Parser)]
#[command(
    name = "unimac",
    version,
    about = "Fast, provably secure message authentication from universal hashing"
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

/// `--threads`, an option of the commands that hash data (tag, verify,
/// seal, stream, compute, check-vectors, check-identity) and of no other.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct ThreadsArg {
    /// Threads to hash with (0 = every core, the default; 1 = the main
    /// thread only, one file at a time).
    ///
    /// Inputs of 4 MiB or more are split across N threads, and the files of
    /// tag, verify and seal hashed side by side. The results do not depend
    /// on it. (Also taken before the command: 'unimac --threads 1 tag ...'.)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

#[derive(Subcommand)]
pub enum Cmd {
    /// Every implemented name with its key, nonce and output sizes, in 100
    /// columns (--long: whole descriptions and the papers they come from).
    List {
        /// Whole descriptions, each with the paper it comes from (wide rows).
        #[arg(short = 'l', long)]
        long: bool,
    },
    /// Make a new key for MAC NAME (hash127-aes when NAME is left out; or
    /// for modp) from the OS random generator:
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
        /// optional); or modp (a random prime in [2^120, 2^128)). Default:
        /// hash127-aes (stateless, no counter to keep), and stderr says so.
        /// With --key-file it may be left out (the key file names its MAC).
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
        /// Check a sealed manifest's files under DIR instead of where the
        /// manifest records them (a tree restored or copied elsewhere):
        /// names resolve against DIR, and for a sealed tree the files
        /// added under DIR are found.
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
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
    ///
    /// The manifest records where its files are relative to its own
    /// directory: with -o M (or '> M') as seen from M's directory, so that
    /// the tree and its manifest may move together; when standard output
    /// is a pipe or a terminal ('seal ... | ssh host "cat > M"') the
    /// manifest's place is unknown and the directory is recorded as an
    /// absolute path. 'verify --root DIR' checks a tree restored elsewhere.
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
        /// Seal the tree under DIR, the one FILE given ('seal -r DIR', as
        /// 'tag -r'; sorted; links to directories not followed, links to
        /// files only inside the tree); 'verify' then also reports files
        /// added under it. A DIR that is a symbolic link is refused unless
        /// given as DIR/ (then its target is sealed).
        #[arg(short = 'r', long = "recursive", conflicts_with = "files_from")]
        recursive: bool,
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
        /// The files to seal, in this order (with -r: the one DIR).
        files: Vec<PathBuf>,
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// An authenticated stream: frame IN (stdin by default) for an untrusted
    /// channel or storage, or with --verify check one and write its payload,
    /// each chunk only after its tag verifies. A stream AUTHENTICATES and
    /// does NOT ENCRYPT: the payload is in the stream as it was sent.
    ///
    /// For secrecy, encrypt, then stream the ciphertext (the stream then
    /// authenticates what travels, and a changed or cut backup is refused
    /// before the decryption reads a byte of it): 'tar c DIR | age -r
    /// RECIPIENT | unimac stream -k K > backup.ums', and back with
    /// 'unimac stream --verify --hold -k K backup.ums | age -d -i ID | tar
    /// x' (or 'openssl enc -aes-256-ctr -pbkdf2' in place of age). Binary
    /// output to a terminal is refused (exit 2, nothing written) unless
    /// --force-tty is given.
    ///
    /// 'tar c DIR | unimac stream -k K > backup.ums' and back with 'unimac
    /// stream --verify --hold -k K backup.ums | tar x' (without --hold, use
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
        /// Write to a terminal all the same: standard output that is a
        /// terminal is refused otherwise (a stream is binary, and so may
        /// be the payload --verify writes), one line, exit 2, nothing read
        /// or written.
        #[arg(long = "force-tty")]
        force_tty: bool,
        /// Write the stream (with --verify: the payload) to FILE instead of
        /// stdout: a new file, placed whole once everything is written (and
        /// with --verify, verified); on any error, or a stream that fails to
        /// verify, nothing is left under FILE. An existing FILE is refused.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
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
        /// L: the longest message, in bytes (1048576, 2^20, 1MiB, 1MB, 4GiB;
        /// default 1MiB, and the output says so).
        #[arg(long = "max-bytes", value_parser = parse_count)]
        max_bytes: Option<u64>,
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
    /// (about a second of CPU time) and names the MAC to use, with its
    /// bound, its speed and why: hash127-aes (stateless) unless a MAC whose
    /// proven forgery bound for the use is at most 2^-32 is clearly at
    /// least 2x as fast here (timed back to back with it in every round;
    /// the low end of the ratio's 96% interval, with 5% to spare).
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
    pub fn threads(&self) -> Option<usize> {
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

