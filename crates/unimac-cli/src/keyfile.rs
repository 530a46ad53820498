//! Key files and nonce counters.
//!
//! A key file names its MAC and holds the key in lowercase hex:
//!
//! ```text
//! unimac-key hash127-aes
//! 4f1c…(64 hex digits)
//! ```
//!
//! mode 0600, created once and never overwritten; it is read strictly
//! (exactly these lines, the hex of a key of the MAC's length) and only for
//! the MAC it names: `tag wc-mmh32x2` refuses a hash127-aes key. A bare hex
//! file (the format before the name line) is refused with the command that
//! converts it. A key file readable or writable by group or others is used
//! with a warning. The key of a one-message MAC (`hash127`) is marked spent
//! when it tags: the line `spent` is appended (under an exclusive lock,
//! fsynced before the tag is printed), and `tag` refuses such a file;
//! `verify` still reads it.
//!
//! A counter file names its MAC and a fingerprint of its key (a counter made
//! for another key is refused), then holds, in decimal and a newline, the
//! next unused 128-bit nonce counter `c` (`unimac::counter`); the nonce is
//! `c` as 16 bytes in the MAC's byte order from the table (`unimac::macs`):
//! little-endian, or for VMAC, whose 16-byte nonce is a big-endian block
//! with its top bit clear, big-endian (`c < 2^127`).
//! Nonces are reserved before any tag is printed: the new value is written to
//! a temporary file (with the counter file's mode and owner), fsynced,
//! renamed over the old one and the directory fsynced, all under an
//! exclusive lock, so no nonce is handed out twice even if the process is
//! killed at any point (a crash can only skip nonces). Temporary files left
//! by killed runs are removed by the next reservation. A counter file
//! without write permission is refused, never replaced.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;

use unimac::counter;
use unimac::registry::KeySpec;
use zeroize::Zeroizing;

use crate::Fail;

/// The longest key file accepted (the longest key is 48 bytes).
const MAX_KEY_FILE: u64 = 4096;

fn fail(e: unimac::Error) -> Fail {
    Fail(e.to_string())
}

/// Write `text` to a new file at `path` (mode 0600), durably; never
/// overwrites, and removes the file again if the write fails
/// (`unimac::counter::write_new_private`).
pub fn write_new_private(path: &Path, text: &[u8], what: &str) -> Result<(), Fail> {
    counter::write_new_private(path, text, what).map_err(fail)
}

/// A fresh key of `len` bytes from the operating system's generator.
pub fn random_key(len: usize) -> Result<Zeroizing<Vec<u8>>, Fail> {
    let mut k = Zeroizing::new(vec![0u8; len]);
    getrandom::fill(&mut k).map_err(|e| {
        Fail(format!(
            "the operating system's random generator failed: {e}"
        ))
    })?;
    Ok(k)
}

/// The names (without `mac-`) whose key may have `len` bytes.
fn names_with_key_len(len: usize) -> Vec<String> {
    unimac::registry::entries()
        .iter()
        .filter(|e| {
            e.info.name.starts_with("mac-")
                && !matches!(e.info.key, KeySpec::PerElement(_))
                && e.info.key.accepts(len)
        })
        .map(|e| e.info.name["mac-".len()..].to_string())
        .collect()
}

/// The first line of a key file.
pub const MAGIC: &str = "unimac-key";

/// The text of a new key file for the MAC `name`, in one zeroized buffer
/// of its final size (no reallocation leaves a copy of the key behind).
pub fn key_file_text(name: &str, key: &[u8]) -> Result<Zeroizing<Vec<u8>>, Fail> {
    let head = format!("{MAGIC} {name}\n");
    let mut text = Zeroizing::new(vec![0u8; head.len() + 2 * key.len() + 1]);
    text[..head.len()].copy_from_slice(head.as_bytes());
    hex::encode_to_slice(key, &mut text[head.len()..head.len() + 2 * key.len()])
        .map_err(|e| Fail(e.to_string()))?;
    let n = text.len();
    text[n - 1] = b'\n';
    Ok(text)
}

/// Warn (one line on stderr) if the key file is open to group or others.
fn warn_if_open(f: &File, shown: &str) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(m) = f.metadata() {
            let mode = m.permissions().mode() & 0o777;
            if m.is_file() && mode & 0o077 != 0 {
                eprintln!("unimac: warning: key file {shown} is open to group or others (mode {mode:04o}); 'chmod 600 {shown}'");
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (f, shown);
}

/// Read the key file at `path` (`-`: stdin) for the MAC `name` (without
/// `mac-`), whose key is `want` bytes.
pub fn read_key(path: &Path, name: &str, want: KeySpec) -> Result<Zeroizing<Vec<u8>>, Fail> {
    if path.as_os_str() == "-" {
        return Ok(parse_key_file(std::io::stdin().lock(), "-", Some(name), want)?.0);
    }
    let shown = path.display().to_string();
    let f = File::open(path).map_err(|e| {
        Fail(format!(
            "cannot open key file {shown}: {}",
            crate::input::io_msg(&e)
        ))
    })?;
    warn_if_open(&f, &shown);
    Ok(parse_key_file(f, &shown, Some(name), want)?.0)
}

/// The MAC named by the key file at `path` (`-`: stdin), and its key.
pub fn read_named_key(path: &Path) -> Result<(String, Zeroizing<Vec<u8>>), Fail> {
    let shown = path.display().to_string();
    let (key, _, name) = if path.as_os_str() == "-" {
        parse_key_file(std::io::stdin().lock(), "-", None, KeySpec::Fixed(0))?
    } else {
        let f = File::open(path).map_err(|e| {
            Fail(format!(
                "cannot open key file {shown}: {}",
                crate::input::io_msg(&e)
            ))
        })?;
        warn_if_open(&f, &shown);
        parse_key_file(f, &shown, None, KeySpec::Fixed(0))?
    };
    Ok((name, key))
}

/// A one-message key file, locked: the key, and [`OneTimeKey::spend`] to
/// mark the file spent before the tag is shown.
pub struct OneTimeKey {
    file: File,
    shown: String,
    pub key: Zeroizing<Vec<u8>>,
}

impl OneTimeKey {
    /// Append `spent` and fsync it: from now on `tag` refuses this key file.
    pub fn spend(mut self) -> Result<(), Fail> {
        let shown = &self.shown;
        self.file
            .write_all(b"spent\n")
            .and_then(|_| self.file.sync_all())
            .map_err(|e| {
                Fail(format!(
                    "cannot mark the one-time key file {shown} as spent: {}; no tag is shown",
                    crate::input::io_msg(&e)
                ))
            })
        // Dropping the file releases the lock.
    }
}

/// Open and lock the key file of a one-message MAC for tagging; refuses a
/// key file already marked spent.
pub fn one_time_key(path: &Path, name: &str, want: KeySpec) -> Result<OneTimeKey, Fail> {
    let shown = path.display().to_string();
    if path.as_os_str() == "-" {
        return Err(Fail(format!("{name} is a one-time MAC: its key must be a file (it is marked spent when it tags), not stdin")));
    }
    let f = OpenOptions::new().read(true).append(true).open(path).map_err(|e| {
        Fail(format!("cannot open the one-time key file {shown} for writing (it is marked spent when it tags): {}", crate::input::io_msg(&e)))
    })?;
    f.lock()
        .map_err(|e| Fail(format!("cannot lock key file {shown}: {}", crate::input::io_msg(&e))))?;
    warn_if_open(&f, &shown);
    let (key, spent, _) = parse_key_file(&f, &shown, Some(name), want)?;
    if spent {
        return Err(Fail(format!(
            "key file {shown}: this {name} key has already tagged a message (one message per key, Bernstein's Theorem 8.2); make a new key with 'unimac keygen {name}'"
        )));
    }
    Ok(OneTimeKey {
        file: f,
        shown,
        key,
    })
}

/// The key in a key file's text, whether the file is marked spent, and the
/// MAC it names. With `name`, the file must name that MAC and hold a key of
/// `want` bytes; without, any MAC of this build with its key length.
fn parse_key_file(
    f: impl Read,
    shown: &str,
    name: Option<&str>,
    want: KeySpec,
) -> Result<(Zeroizing<Vec<u8>>, bool, String), Fail> {
    // Room for the whole (bounded) file up front: growing the buffer would
    // leave copies of the key in freed memory.
    let mut text = Zeroizing::new(Vec::with_capacity(2 * MAX_KEY_FILE as usize));
    f.take(MAX_KEY_FILE + 1)
        .read_to_end(&mut text)
        .map_err(|e| Fail(format!("cannot read key file {shown}: {}", crate::input::io_msg(&e))))?;
    if text.len() as u64 > MAX_KEY_FILE {
        return Err(Fail(format!("key file {shown}: too long to be a key file")));
    }
    let not_key = || {
        Fail(format!("key file {shown}: not a key file (expected '{MAGIC} NAME', the key in hex, each on a line)"))
    };
    // Line ends as editors write them: CRLF, and spaces or tabs at the end
    // of a line, are taken as plain newlines (in a zeroized copy).
    if text.iter().any(|&c| c == b'\r' || c == b' ' || c == b'\t') {
        let mut clean = Zeroizing::new(Vec::with_capacity(text.capacity()));
        for line in text.split_inclusive(|&c| c == b'\n') {
            let (body, nl) = match line.strip_suffix(b"\n") {
                Some(b) => (b, true),
                None => (line, false),
            };
            let end = body.iter().rposition(|&c| !matches!(c, b'\r' | b' ' | b'\t')).map_or(0, |i| i + 1);
            clean.extend_from_slice(&body[..end]);
            if nl {
                clean.push(b'\n');
            }
        }
        text = clean;
    }
    let (body, spent): (&[u8], bool) = match text.strip_suffix(b"\nspent\n") {
        Some(b) => (b, true),
        None => (text.strip_suffix(b"\n").unwrap_or(&text), false),
    };
    let Some(rest) = body
        .strip_prefix(MAGIC.as_bytes())
        .and_then(|r| r.strip_prefix(b" "))
    else {
        if !body.is_empty() && body.iter().all(|c| c.is_ascii_hexdigit()) {
            // The old format: bare hex. Which MAC it was made for is unknown.
            let n = name.unwrap_or("NAME");
            return Err(Fail(format!(
                "key file {shown}: bare hex without the '{MAGIC} NAME' line; if it is a {n} key, convert it with: sed -i '1i {MAGIC} {n}' {shown}"
            )));
        }
        return Err(not_key());
    };
    let nl = rest.iter().position(|&c| c == b'\n').ok_or_else(not_key)?;
    let (file_name, hexpart) = (&rest[..nl], &rest[nl + 1..]);
    let file_name = std::str::from_utf8(file_name).map_err(|_| not_key())?;
    // A key file names a MAC, or modp (a secret prime, not a MAC key).
    let known = if file_name == "modp" {
        Some(file_name.to_string())
    } else {
        crate::names::mac_name(file_name)
    };
    let Some(file_name) = known else {
        return Err(Fail(format!(
            "key file {shown}: made for '{file_name}', not a MAC of this build"
        )));
    };
    let want = match name {
        Some(n) if n != file_name => {
            return Err(Fail(format!("key file {shown} is a {file_name} key, not a {n} key; use it with {file_name} or make a {n} key with 'unimac keygen {n}'")));
        }
        Some(_) => want,
        None if file_name == "modp" => KeySpec::Fixed(unimac::modp::KEY_BYTES),
        None => crate::names::mac_key_spec(&file_name)?,
    };
    if hexpart.is_empty() || !hexpart.iter().all(|c| c.is_ascii_hexdigit()) {
        return Err(not_key());
    }
    if !hexpart.len().is_multiple_of(2) {
        return Err(Fail(format!("key file {shown}: odd number of hex digits")));
    }
    let got = hexpart.len() / 2;
    if !want.accepts(got) {
        let others = names_with_key_len(got);
        let hint = if others.is_empty() {
            String::new()
        } else {
            format!(" (the key length of {})", others.join(", "))
        };
        return Err(Fail(format!(
            "key file {shown}: holds a {got}-byte key{hint}, but {file_name} needs {} bytes",
            want.describe()
        )));
    }
    let mut key = Zeroizing::new(vec![0u8; got]);
    hex::decode_to_slice(hexpart, &mut key).map_err(|e| Fail(format!("key file {shown}: {e}")))?;
    Ok((key, spent, file_name))
}

/// Parse a counter file's text strictly: decimal digits, one newline.
#[cfg(test)]
fn parse_counter(text: &[u8], shown: &str) -> Result<u128, Fail> {
    counter::parse(text, shown).map_err(fail)
}

/// Create a new counter file bound to `binding`, starting at 0
/// (`unimac::counter`).
pub fn create_counter(path: &Path, binding: &counter::Binding) -> Result<(), Fail> {
    counter::create(path, binding).map_err(fail)
}

/// Reserve `count` consecutive nonce counters from the counter file at
/// `path`; returns the first. Durable before it returns (`unimac::counter`:
/// lock, write a new version, fsync, rename, fsync the directory).
pub fn reserve(path: &Path, count: u128, binding: &counter::Binding) -> Result<u128, Fail> {
    counter::reserve(path, count, binding).map_err(fail)
}

#[cfg(test)]
mod props;

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn counter_text_is_strict() {
        assert_eq!(parse_counter(b"0\n", "c").ok(), Some(0));
        assert_eq!(
            parse_counter(b"340282366920938463463374607431768211455\n", "c").ok(),
            Some(u128::MAX)
        );
        for bad in [
            &b""[..],
            b"\n",
            b"1",
            b"+1\n",
            b"-1\n",
            b"1 \n",
            b"0x10\n",
            b"340282366920938463463374607431768211456\n",
            b"1\n\n",
        ] {
            assert!(parse_counter(bad, "c").is_err(), "{bad:?}");
        }
    }

    fn ok<T>(r: Result<T, Fail>) -> T {
        match r {
            Ok(v) => v,
            Err(Fail(e)) => panic!("{e}"),
        }
    }

    #[test]
    fn reserve_hands_out_each_counter_once() {
        let d = std::env::temp_dir().join(format!("unimac-ctr-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir(&d).unwrap();
        let desc = unimac::macs::find("wc-eval128").unwrap();
        let b = counter::Binding::new(desc, &[7u8; 32]);
        let text = |c: u128| b.file_text(c);
        let p = d.join("ctr");
        ok(create_counter(&p, &b));
        assert_eq!(fs::read_to_string(&p).unwrap(), text(0));
        assert!(
            fs::read_to_string(&p).unwrap().starts_with(&format!("unimac-counter wc-eval128 {}\n", b.fingerprint_hex())),
            "bound to its MAC and key"
        );
        assert!(create_counter(&p, &b).is_err(), "never overwrites");
        assert_eq!(ok(reserve(&p, 1, &b)), 0);
        assert_eq!(ok(reserve(&p, 3, &b)), 1);
        assert_eq!(ok(reserve(&p, 1, &b)), 4);
        assert_eq!(fs::read_to_string(&p).unwrap(), text(5));
        // Through a symbolic link, the file it points to is the counter.
        #[cfg(unix)]
        {
            let link = d.join("link");
            std::os::unix::fs::symlink(&p, &link).unwrap();
            assert_eq!(ok(reserve(&link, 1, &b)), 5);
            assert!(fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink());
            assert_eq!(fs::read_to_string(&p).unwrap(), text(6));
            assert_eq!(ok(reserve(&p, 1, &b)), 6);
            fs::write(&p, text(5)).unwrap();
        }
        // Another key, another MAC, a bare value (a counter without its
        // binding line): refused, and the file is left as it was.
        let other_key = counter::Binding::new(desc, &[8u8; 32]);
        let other_mac = counter::Binding::new(unimac::macs::find("umac64").unwrap(), &[7u8; 16]);
        for (bad, why) in [(&other_key, "another wc-eval128 key"), (&other_mac, "not umac64")] {
            match reserve(&p, 1, bad) {
                Err(Fail(e)) => assert!(e.contains(why), "{e}"),
                Ok(c) => panic!("a counter of another binding handed out {c}"),
            }
        }
        assert_eq!(fs::read_to_string(&p).unwrap(), text(5));
        fs::write(&p, "5\n").unwrap();
        match reserve(&p, 1, &b) {
            Err(Fail(e)) => assert!(e.contains("not bound to a key"), "{e}"),
            Ok(c) => panic!("an unbound counter handed out {c}"),
        }
        assert_eq!(fs::read_to_string(&p).unwrap(), "5\n");
        fs::write(&p, text(u128::MAX - 1)).unwrap();
        assert_eq!(ok(reserve(&p, 1, &b)), u128::MAX - 1);
        match reserve(&p, 1, &b) {
            Err(Fail(e)) => assert!(e.contains("exhausted"), "{e}"),
            Ok(c) => panic!("an exhausted counter handed out {c}"),
        }
        assert_eq!(fs::read_to_string(&p).unwrap(), text(u128::MAX), "left alone");
        // Concurrent reservations never overlap.
        fs::write(&p, text(0)).unwrap();
        let hs: Vec<_> = (0..4)
            .map(|_| {
                let p = p.clone();
                let b = b.clone();
                std::thread::spawn(move || (0..25).map(|_| ok(reserve(&p, 2, &b))).collect::<Vec<_>>())
            })
            .collect();
        let mut all: Vec<u128> = hs.into_iter().flat_map(|h| h.join().unwrap()).collect();
        all.sort();
        assert_eq!(all, (0..100).map(|i| 2 * i).collect::<Vec<_>>());
        assert_eq!(fs::read_to_string(&p).unwrap(), text(200));
        let _ = fs::remove_dir_all(&d);
    }
}
