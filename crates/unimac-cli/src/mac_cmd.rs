//! `unimac keygen | tag | verify | bound`: authenticating files with the
//! named MACs of SPEC §6 (names without the `mac-` prefix).

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use unimac::bounds::{self, Attack};
use unimac::mac::{self, Mac};
use unimac::registry::{self, KeySpec};
use zeroize::Zeroizing;

use crate::input::{read_message, shown};
use crate::keyfile;
use crate::Fail;

/// The key sizes of the MAC `name`, with the CLI's error for unknown names.
fn mac_key_spec(name: &str) -> Result<KeySpec, Fail> {
    if let Some(bare) = name.strip_prefix("mac-") {
        return Err(Fail(format!("'{name}': give MAC names without the 'mac-' prefix (e.g. '{bare}')")));
    }
    let e = registry::lookup(&format!("mac-{name}")).map_err(|e| match e {
        unimac::Error::UnknownName(_) => Fail(format!(
            "unknown MAC '{name}' (one of: {})",
            mac::names().join(", ")
        )),
        unimac::Error::NotImplemented(_) => Fail(format!("{name}: not implemented in this build")),
        e => Fail(e.to_string()),
    })?;
    match e.info.key {
        KeySpec::PerElement(_) => Err(Fail(format!("{name}: not a MAC"))),
        k => Ok(k),
    }
}

/// The nonce of the `i`-th counter value `c` for the MAC `name`: `c` as 16
/// little-endian bytes (SPEC §0), except for VMAC, which reads its nonce as a
/// big-endian block whose top bit must be clear (the key derivation's blocks
/// have it set): there the nonce is `c` as 16 big-endian bytes, `c < 2^127`.
fn counter_nonce(name: &str, c: u128) -> Result<Vec<u8>, Fail> {
    if name.starts_with("vmac") {
        if c >> 127 != 0 {
            return Err(Fail(format!(
                "{name}: nonce counter {c} has its top bit set, which VMAC reserves for its key derivation; use a new key"
            )));
        }
        Ok(c.to_be_bytes().to_vec())
    } else {
        Ok(c.to_le_bytes().to_vec())
    }
}

/// `unimac keygen NAME [-o FILE] [--counter FILE]`.
pub fn keygen(name: &str, out: Option<&Path>, counter: Option<&Path>) -> Result<(), Fail> {
    let len = mac_key_spec(name)?.default_len().ok_or_else(|| Fail(format!("{name}: not a MAC")))?;
    let nonce = registry::lookup(&format!("mac-{name}")).map(|e| e.info.nonce).unwrap_or(0);
    if counter.is_some() && nonce == 0 {
        return Err(Fail(format!("{name} takes no nonce; --counter is for nonce MACs")));
    }
    if let (Some(o), Some(c)) = (out, counter) {
        if o == c {
            return Err(Fail("the key file and the counter file must differ".into()));
        }
    }
    // Refuse before anything is created if a target exists.
    for p in out.iter().chain(counter.iter()) {
        if p.exists() {
            return Err(Fail(format!("{} already exists; not overwriting it", p.display())));
        }
    }
    let key = keyfile::random_key(len)?;
    // Hex and newline in one zeroized buffer of the final size (no
    // reallocation leaves a copy of the key behind).
    let mut text = Zeroizing::new(vec![0u8; 2 * len + 1]);
    hex::encode_to_slice(&*key, &mut text[..2 * len]).map_err(|e| Fail(e.to_string()))?;
    text[2 * len] = b'\n';
    match out {
        Some(p) => {
            keyfile::write_new_private(p, &text, "key file")?;
            if let Some(c) = counter {
                if let Err(e) = keyfile::create_counter(c) {
                    let _ = std::fs::remove_file(p);
                    return Err(e);
                }
            }
        }
        None => {
            if let Some(c) = counter {
                keyfile::create_counter(c)?;
            }
            io::stdout().write_all(&text)?;
        }
    }
    Ok(())
}

/// sha256sum's escaping of a file name in a line: `\` and newline escaped,
/// and the line then starts with a backslash.
fn escape_name(name: &str) -> (bool, String) {
    if name.contains('\\') || name.contains('\n') || name.contains('\r') {
        (true, name.replace('\\', "\\\\").replace('\n', "\\n").replace('\r', "\\r"))
    } else {
        (false, name.to_string())
    }
}

fn unescape_name(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next()? {
                '\\' => out.push('\\'),
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Feed the file at `path` to `f`, with a progress bar on a terminal.
fn feed(path: Option<&Path>, update: &mut dyn FnMut(&[u8])) -> Result<(), Fail> {
    const SLICE: usize = 64 << 20;
    let size = path
        .filter(|p| p.as_os_str() != "-")
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .unwrap_or(0);
    if size >= SLICE as u64 && io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(size);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(shown(path));
        let r = read_message(path, |d| {
            for c in d.chunks(SLICE) {
                update(c);
                bar.inc(c.len() as u64);
            }
        });
        bar.finish_and_clear();
        r
    } else {
        read_message(path, |d| update(d))
    }
}

fn check_readable(path: &Path) -> Result<(), Fail> {
    if path.as_os_str() == "-" {
        return Ok(());
    }
    let name = path.display();
    let f = std::fs::File::open(path).map_err(|e| Fail(format!("cannot open {name}: {e}")))?;
    let m = f.metadata().map_err(|e| Fail(format!("cannot read {name}: {e}")))?;
    if m.is_dir() {
        return Err(Fail(format!("cannot read {name}: is a directory")));
    }
    Ok(())
}

/// `unimac tag NAME --key-file K [--counter F | --nonce HEX] FILE...`.
pub fn tag(name: &str, key_file: &Path, counter: Option<&Path>, nonce: Option<&str>, files: &[PathBuf]) -> Result<(), Fail> {
    let klen = mac_key_spec(name)?;
    let key = keyfile::read_key(key_file, name, &klen)?;
    let m = Mac::new(name, &key)?;
    let stdin = [PathBuf::from("-")];
    let files: &[PathBuf] = if files.is_empty() { &stdin } else { files };
    if files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        return Err(Fail("stdin ('-') can be read only once".into()));
    }
    let nl = m.nonce_len();
    let fixed_nonce = match (nl, counter, nonce) {
        (0, None, None) => None,
        (0, _, _) => return Err(Fail(format!("{name} takes no nonce (no --counter, no --nonce)"))),
        (_, Some(_), Some(_)) => return Err(Fail("give --counter or --nonce, not both".into())),
        (_, None, None) => {
            return Err(Fail(format!(
                "{name} needs a nonce: give --counter FILE (recommended) or --nonce HEX"
            )))
        }
        (_, None, Some(h)) => {
            let n = hex::decode(h.trim()).map_err(|e| Fail(format!("--nonce is not valid hex: {e}")))?;
            let sizes = m.nonce_sizes();
            if !sizes.contains(&n.len()) {
                let want = if sizes.start() == sizes.end() {
                    format!("{nl} bytes ({} hex digits)", 2 * nl)
                } else {
                    format!("{} to {} bytes", sizes.start(), sizes.end())
                };
                return Err(Fail(format!("{name}: nonce must be {want}, got {}", n.len())));
            }
            if files.len() > 1 {
                return Err(Fail("--nonce with more than one file would use the nonce twice; use --counter".into()));
            }
            Some(n)
        }
        (_, Some(_), None) => None,
    };
    if name == "hash127" && files.len() > 1 {
        return Err(Fail("hash127 is a one-time MAC: one message per key".into()));
    }
    for f in files {
        check_readable(f)?;
    }
    // Reserve the nonces durably (lock, write, fsync, rename, fsync the
    // directory) on another thread while the files are hashed: the nonce
    // enters every SPEC §6 MAC only after the hash, and no tag is printed
    // before the reservation is on disk.
    let reservation = counter.map(|c| {
        let c = c.to_path_buf();
        let count = files.len() as u128;
        std::thread::spawn(move || keyfile::reserve(&c, count))
    });
    let hashed: Result<Vec<unimac::mac::Pending>, Fail> = files
        .iter()
        .map(|f| {
            let mut p = m.start_deferred()?;
            feed(Some(f.as_path()), &mut |d| p.update(d))?;
            Ok(p)
        })
        .collect();
    let first = match reservation {
        Some(h) => Some(h.join().map_err(|_| Fail("the counter reservation failed".into()))??),
        None => None,
    };
    let hashed = hashed?;
    let nonces: Vec<Option<Vec<u8>>> = match (first, fixed_nonce) {
        (Some(first), _) => {
            (0..files.len() as u128).map(|i| counter_nonce(name, first + i).map(Some)).collect::<Result<_, _>>()?
        }
        (None, Some(n)) => vec![Some(n)],
        (None, None) => vec![None; files.len()],
    };
    let mut out = String::new();
    for ((f, n), p) in files.iter().zip(&nonces).zip(hashed) {
        let t = p.finalize(n.as_deref())?;
        let (esc, shown_name) = escape_name(&shown(Some(f.as_path())));
        if esc {
            out.push('\\');
        }
        if let Some(n) = n {
            out.push_str(&hex::encode(n));
            out.push(':');
        }
        out.push_str(&hex::encode(t));
        out.push_str("  ");
        out.push_str(&shown_name);
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes())?;
    Ok(())
}

/// One line of a `--check` file: (nonce, tag, file), or None if malformed.
/// The nonce has `nonce_len` bytes (or, for UMAC and VMAC, `nonce_min` to
/// `nonce_len`).
#[cfg(test)]
fn parse_check_line(line: &str, nonce_len: usize, tag_len: usize) -> Option<(Option<Vec<u8>>, Vec<u8>, String)> {
    parse_check_line_sized(line, nonce_len..=nonce_len, tag_len)
}

fn parse_check_line_sized(
    line: &str,
    nonce_sizes: std::ops::RangeInclusive<usize>,
    tag_len: usize,
) -> Option<(Option<Vec<u8>>, Vec<u8>, String)> {
    let nonce_len = *nonce_sizes.end();
    let (escaped, line) = match line.strip_prefix('\\') {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let sp = line.find(' ')?;
    let (mac_hex, rest) = line.split_at(sp);
    let file = rest.strip_prefix("  ").or_else(|| rest.strip_prefix(" *"))?;
    if file.is_empty() {
        return None;
    }
    let file = if escaped { unescape_name(file)? } else { file.to_string() };
    let (n, t) = if nonce_len > 0 {
        let (n, t) = mac_hex.split_once(':')?;
        (Some(n), t)
    } else {
        (None, mac_hex)
    };
    let strict_hex = |s: &str, len: usize| -> Option<Vec<u8>> {
        if s.len() != 2 * len || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        hex::decode(s).ok()
    };
    let nonce = match n {
        Some(n) if n.len() % 2 == 0 && nonce_sizes.contains(&(n.len() / 2)) => Some(strict_hex(n, n.len() / 2)?),
        Some(_) => return None,
        None => None,
    };
    Some((nonce, strict_hex(t, tag_len)?, file))
}

/// Options of `verify` (as in sha256sum --check).
#[derive(Clone, Copy, Debug, Default)]
pub struct VerifyOpts {
    /// No `OK` lines.
    pub quiet: bool,
    /// Nothing on stdout.
    pub status: bool,
    /// Listed files that do not exist are skipped.
    pub ignore_missing: bool,
}

/// `unimac verify NAME --key-file K --check SUMS`: `Ok(true)` if every line
/// is well formed and every tag matches.
pub fn verify(name: &str, key_file: &Path, check: &Path, opts: VerifyOpts) -> Result<bool, Fail> {
    let klen = mac_key_spec(name)?;
    let key = keyfile::read_key(key_file, name, &klen)?;
    let m = Mac::new(name, &key)?;
    let sums_name = shown(Some(check));
    let mut sums = Vec::new();
    read_message(Some(check), |d| sums.extend_from_slice(d))?;
    let text = String::from_utf8(sums).map_err(|_| Fail(format!("{sums_name}: not a text file")))?;
    let (mut ok, mut bad, mut unreadable, mut malformed, mut ignored) = (0usize, 0usize, 0usize, 0usize, 0usize);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for (i, line) in text.lines().enumerate() {
        let Some((nonce, want, file)) = parse_check_line_sized(line, m.nonce_sizes(), m.tag_len()) else {
            malformed += 1;
            if !opts.status {
                eprintln!("unimac: {sums_name}: {}: improperly formatted {name} line", i + 1);
            }
            continue;
        };
        let path = PathBuf::from(&file);
        let (esc, shown_name) = escape_name(&file);
        let lead = if esc { "\\" } else { "" };
        if opts.ignore_missing && file != "-" && !path.exists() {
            ignored += 1;
            continue;
        }
        let mut s = m.start(nonce.as_deref())?;
        let read = check_readable(&path).and_then(|_| feed(Some(&path), &mut |d| s.update(d)));
        if let Err(Fail(e)) = read {
            unreadable += 1;
            if !opts.status {
                eprintln!("unimac: {e}");
                writeln!(out, "{lead}{shown_name}: FAILED open or read")?;
            }
            continue;
        }
        let got = s.finalize()?;
        if mac::tags_equal(&got, &want) {
            ok += 1;
            if !opts.quiet && !opts.status {
                writeln!(out, "{lead}{shown_name}: OK")?;
            }
        } else {
            bad += 1;
            if !opts.status {
                writeln!(out, "{lead}{shown_name}: FAILED")?;
            }
        }
    }
    out.flush()?;
    let plural = |n: usize, one: &str, many: &str| if n == 1 { one.to_string() } else { many.to_string() };
    if ok + bad + unreadable + ignored == 0 {
        eprintln!("unimac: {sums_name}: no properly formatted {name} lines found");
        return Ok(false);
    }
    if ok + bad + unreadable == 0 {
        eprintln!("unimac: {sums_name}: no file was verified");
        return Ok(false);
    }
    if opts.status {
        return Ok(bad + unreadable + malformed == 0);
    }
    if malformed > 0 {
        eprintln!("unimac: WARNING: {malformed} {} improperly formatted", plural(malformed, "line is", "lines are"));
    }
    if unreadable > 0 {
        eprintln!("unimac: WARNING: {unreadable} listed {} could not be read", plural(unreadable, "file", "files"));
    }
    if bad > 0 {
        eprintln!("unimac: WARNING: {bad} computed {} did NOT match", plural(bad, "tag", "tags"));
    }
    Ok(bad + unreadable + malformed == 0)
}

/// `unimac bound NAME --max-bytes L [--tags C] [--forgeries D] [--json]`.
pub fn bound(name: &str, max_bytes: u64, tags: u64, forgeries: u64, json: bool) -> Result<(), Fail> {
    let name = name.strip_prefix("mac-").unwrap_or(name);
    let b = bounds::bound(name, &Attack { max_bytes, tags, forgeries }).map_err(|e| match e {
        unimac::Error::UnknownName(_) => Fail(format!("no bound for '{name}' (one of: {})", bounds::names().join(", "))),
        e => Fail(e.to_string()),
    })?;
    let text = if json { format!("{}\n", b.to_json()) } else { b.to_text() };
    io::stdout().write_all(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_lines() {
        let t = "00".repeat(16);
        let n = "11".repeat(16);
        assert_eq!(parse_check_line(&format!("{t}  a b"), 0, 16), Some((None, vec![0; 16], "a b".into())));
        assert_eq!(parse_check_line(&format!("{t} *f"), 0, 16).map(|x| x.2), Some("f".into()));
        assert_eq!(
            parse_check_line(&format!("{n}:{t}  f"), 16, 16),
            Some((Some(vec![0x11; 16]), vec![0; 16], "f".into()))
        );
        assert_eq!(parse_check_line(&format!("\\{t}  a\\nb\\\\c"), 0, 16).map(|x| x.2), Some("a\nb\\c".into()));
        for bad in [
            String::new(),
            format!("{t} f"),
            format!("{t}  "),
            format!("{t}0  f"),
            format!("{}  f", "zz".repeat(16)),
            format!("{t}  f").replace("00", "0"),
            format!("{n}{t}  f"),
        ] {
            assert_eq!(parse_check_line(&bad, 0, 16).map(|_| ()), None, "{bad:?}");
        }
        assert!(parse_check_line(&format!("{t}  f"), 16, 16).is_none(), "nonce MAC line without nonce");
        assert!(parse_check_line(&format!("{n}:{t}  f"), 0, 16).is_none());
    }

    #[test]
    fn names_escape_round_trip() {
        for s in ["plain", "a\\b", "new\nline", "\\n"] {
            let (esc, e) = escape_name(s);
            assert_eq!(esc, s != "plain");
            assert_eq!(unescape_name(&e).as_deref(), Some(s));
        }
    }
}
