//! `unimac compute`: any name of the wire format (docs/WIRE.md) of one
//! message, the key from `--key`, `--key-file` or `--key-env`; a big file in
//! stripes on every allowed core; known answers of the one-time MACs.

use std::io::{self, Write};
use std::path::Path;

use unimac_front::formats::policy::CallerNonceWords;
use unimac_front::registry::{self, Params};

use crate::fail::Fail;
use crate::names::{self, cite};
use crate::{input, keyfile, split};

fn unhex(s: &str, what: &str) -> Result<Vec<u8>, Fail> {
    hex::decode(s.trim()).map_err(|e| Fail(format!("{what} is not valid hex: {e}")))
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
pub(crate) enum KeySource<'a> {
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

/// What `compute` refuses for the name `name` (a spec): a one-time MAC's
/// tag or a pair the MAC draws itself, unless `--known-answer` (which
/// takes the key only as `--key HEX`), and `--known-answer` for any other.
fn refuse_for_name(name: &str, key: Option<KeySource<'_>>, known_answer: bool) -> Result<(), Fail> {
    // What the one table says of this name: a one-time MAC's tag (also the
    // plain hash hash127's value), a pair the MAC draws itself, a nonce.
    let one_time = unimac_front::macs::one_time_row(name);
    let row = unimac_front::macs::MACS.iter().find(|d| d.catalog_name == name);
    let pair = row.is_some_and(|d| d.framing == unimac_front::macs::Framing::PairThenTag);
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
    Ok(())
}

/// The key of `compute`: from `--key HEX`, `--key-env VAR` or a key file,
/// which must be a key for `name` (and not stdin when the message is).
fn compute_key(name: &str, key: Option<KeySource<'_>>, file: Option<&Path>) -> Result<zeroize::Zeroizing<Vec<u8>>, Fail> {
    match key {
        Some(KeySource::Arg(k)) => Ok(zeroize::Zeroizing::new(unhex(k, "--key")?)),
        Some(KeySource::Env(var)) => key_from_env(var),
        Some(KeySource::File(p)) => {
            if p.as_os_str() == "-" && file.is_none_or(|f| f.as_os_str() == "-") {
                return Err(Fail("stdin ('-') cannot be both the key file and the message; give the message as a file".into()));
            }
            let (mac, key) = keyfile::read_named_key(p)?;
            use unimac_front::formats::keyfile::KeyKind;
            let fits = match (KeyKind::from_name(&mac), registry::lookup(name).ok().and_then(|e| e.mac())) {
                (Ok(KeyKind::Mac(d)), Some(row)) => d == row,
                (Ok(KeyKind::Modp), None) => crate::names::is_modp(name),
                _ => false,
            };
            if !fits {
                return Err(Fail(format!("key file {} is a {mac} key, not a key for {name}", p.display())));
            }
            Ok(key)
        }
        None => Err(Fail("give the key: --key-file FILE, --key-env VAR or --key HEX".into())),
    }
}

pub(crate) fn compute(
    name: &str,
    key: Option<KeySource<'_>>,
    (nonce, caller_manages_nonces, known_answer): (Option<&str>, bool, bool),
    len: Option<usize>,
    file: Option<&Path>,
) -> Result<(), Fail> {
    let name = names::resolve_spec(name)?;
    refuse_for_name(&name, key, known_answer)?;
    if let Some(row) = unimac_front::macs::MACS.iter().find(|d| d.catalog_name == name) {
        let words = CallerNonceWords { counter: "'unimac tag --counter FILE'", ..crate::tag::CALLER_NONCE };
        unimac_front::formats::policy::caller_nonce(row, nonce.is_some(), caller_manages_nonces, &words)?;
    }
    let key_source = key;
    let key = compute_key(&name, key, file)?;
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
