//! Key files and nonce counters.
//!
//! A key file is the lowercase hex of the key and a newline, mode 0600,
//! created once and never overwritten; it is read strictly (exactly the hex
//! of a key of the MAC's length, then at most one newline).
//!
//! A counter file holds, in decimal and a newline, the next unused 128-bit
//! nonce counter `c`; the nonce is `c` as 16 little-endian bytes (SPEC §0),
//! or for VMAC, whose 16-byte nonce is a big-endian block with its top bit
//! clear, `c` as 16 big-endian bytes (`c < 2^127`).
//! Nonces are reserved before any tag is printed: the new value is written to
//! a temporary file, fsynced, renamed over the old one and the directory
//! fsynced, all under an exclusive lock, so no nonce is handed out twice even
//! if the process is killed at any point (a crash can only skip nonces).

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use unimac::registry::KeySpec;
use zeroize::Zeroizing;

use crate::Fail;

/// The longest key file accepted (the longest key is 48 bytes).
const MAX_KEY_FILE: u64 = 4096;

fn open_new_private(path: &Path) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    o.open(path)
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// fsync a directory, so a rename or a new entry in it is durable.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Write `text` to a new file at `path` (mode 0600), durably; never
/// overwrites, and removes the file again if the write fails.
pub fn write_new_private(path: &Path, text: &[u8], what: &str) -> Result<(), Fail> {
    let shown = path.display();
    let mut f = open_new_private(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            Fail(format!("{what} {shown} already exists; not overwriting it"))
        } else {
            Fail(format!("cannot create {what} {shown}: {e}"))
        }
    })?;
    let r = f.write_all(text).and_then(|_| f.sync_all()).and_then(|_| sync_dir(&parent_dir(path)));
    if let Err(e) = r {
        drop(f);
        let _ = fs::remove_file(path);
        return Err(Fail(format!("cannot write {what} {shown}: {e}")));
    }
    Ok(())
}

/// A fresh key of `len` bytes from the operating system's generator.
pub fn random_key(len: usize) -> Result<Zeroizing<Vec<u8>>, Fail> {
    let mut k = Zeroizing::new(vec![0u8; len]);
    getrandom::fill(&mut k).map_err(|e| Fail(format!("the operating system's random generator failed: {e}")))?;
    Ok(k)
}

/// The names (without `mac-`) whose key may have `len` bytes.
fn names_with_key_len(len: usize) -> Vec<String> {
    unimac::registry::entries()
        .iter()
        .filter(|e| e.info.name.starts_with("mac-") && !matches!(e.info.key, KeySpec::PerElement(_)) && e.info.key.accepts(len))
        .map(|e| e.info.name["mac-".len()..].to_string())
        .collect()
}

/// Read the key file at `path` for a MAC whose key sizes are `want`.
pub fn read_key(path: &Path, name: &str, want: &KeySpec) -> Result<Zeroizing<Vec<u8>>, Fail> {
    let shown = path.display();
    let f = File::open(path).map_err(|e| Fail(format!("cannot open key file {shown}: {e}")))?;
    // Room for the whole (bounded) file up front: growing the buffer would
    // leave copies of the key in freed memory.
    let mut text = Zeroizing::new(Vec::with_capacity(2 * MAX_KEY_FILE as usize));
    f.take(MAX_KEY_FILE + 1)
        .read_to_end(&mut text)
        .map_err(|e| Fail(format!("cannot read key file {shown}: {e}")))?;
    if text.len() as u64 > MAX_KEY_FILE {
        return Err(Fail(format!("key file {shown}: too long to be a key file")));
    }
    let body: &[u8] = text.strip_suffix(b"\n").unwrap_or(&text);
    if body.is_empty() || !body.iter().all(|c| c.is_ascii_hexdigit()) {
        return Err(Fail(format!("key file {shown}: not a key file (expected the key in hex and one newline)")));
    }
    if !body.len().is_multiple_of(2) {
        return Err(Fail(format!("key file {shown}: odd number of hex digits")));
    }
    let got = body.len() / 2;
    if !want.accepts(got) {
        let others = names_with_key_len(got);
        let hint = if others.is_empty() { String::new() } else { format!(" (the key length of {})", others.join(", ")) };
        return Err(Fail(format!("key file {shown}: holds a {got}-byte key{hint}, but {name} needs {} bytes", want.describe())));
    }
    let mut key = Zeroizing::new(vec![0u8; got]);
    hex::decode_to_slice(body, &mut key).map_err(|e| Fail(format!("key file {shown}: {e}")))?;
    Ok(key)
}

/// Parse a counter file's text strictly: decimal digits, one newline.
fn parse_counter(text: &[u8], shown: &str) -> Result<u128, Fail> {
    let bad = || Fail(format!("counter file {shown} is corrupt (expected a decimal number and a newline); refusing to guess a nonce"));
    let body = text.strip_suffix(b"\n").ok_or_else(bad)?;
    if body.is_empty() || body.len() > 39 || !body.iter().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    std::str::from_utf8(body).ok().and_then(|s| s.parse::<u128>().ok()).ok_or_else(bad)
}

/// Create a new counter file starting at 0.
pub fn create_counter(path: &Path) -> Result<(), Fail> {
    write_new_private(path, b"0\n", "counter file")
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    true
}

/// Reserve `count` consecutive nonce counters from the counter file at
/// `path`; returns the first. Durable before it returns.
pub fn reserve(path: &Path, count: u128) -> Result<u128, Fail> {
    let shown = path.display().to_string();
    // Work on the real file: renaming over a symbolic link would replace the
    // link and leave the counter it points to behind.
    let real = fs::canonicalize(path);
    let path: &Path = match &real {
        Ok(p) => p,
        Err(_) => path, // reported by the open below
    };
    // Lock the file, then make sure the path still names the locked file
    // (another process may have renamed a new version over it meanwhile).
    let mut f = loop {
        let f = File::open(path).map_err(|e| {
            Fail(format!(
                "cannot open counter file {shown}: {e} (create it with 'unimac keygen NAME -o KEYFILE --counter {shown}', or write 0 and a newline to it for a key never used with a nonce)"
            ))
        })?;
        f.lock().map_err(|e| Fail(format!("cannot lock counter file {shown}: {e}")))?;
        let now = fs::metadata(path).map_err(|e| Fail(format!("cannot read counter file {shown}: {e}")))?;
        let held = f.metadata().map_err(|e| Fail(format!("cannot read counter file {shown}: {e}")))?;
        if same_file(&now, &held) {
            break f;
        }
    };
    let mut text = Vec::new();
    (&mut f).take(64).read_to_end(&mut text).map_err(|e| Fail(format!("cannot read counter file {shown}: {e}")))?;
    let first = parse_counter(&text, &shown)?;
    let next = first
        .checked_add(count)
        .ok_or_else(|| Fail(format!("counter file {shown}: the 128-bit nonce counter is exhausted; use a new key")))?;
    let dir = parent_dir(path);
    let base = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "counter".into());
    let tmp = dir.join(format!(".{base}.{}.tmp", std::process::id()));
    let _ = fs::remove_file(&tmp);
    write_new_private(&tmp, format!("{next}\n").as_bytes(), "temporary counter file")?;
    if let Err(e) = fs::rename(&tmp, path) {
        let _ = fs::remove_file(&tmp);
        return Err(Fail(format!("cannot update counter file {shown}: {e}")));
    }
    sync_dir(&dir).map_err(|e| Fail(format!("cannot sync the directory of counter file {shown}: {e}")))?;
    drop(f); // releases the lock
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_text_is_strict() {
        assert_eq!(parse_counter(b"0\n", "c").ok(), Some(0));
        assert_eq!(parse_counter(b"340282366920938463463374607431768211455\n", "c").ok(), Some(u128::MAX));
        for bad in [&b""[..], b"\n", b"1", b"+1\n", b"-1\n", b"1 \n", b"0x10\n", b"340282366920938463463374607431768211456\n", b"1\n\n"] {
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
        let p = d.join("ctr");
        ok(create_counter(&p));
        assert!(create_counter(&p).is_err(), "never overwrites");
        assert_eq!(ok(reserve(&p, 1)), 0);
        assert_eq!(ok(reserve(&p, 3)), 1);
        assert_eq!(ok(reserve(&p, 1)), 4);
        assert_eq!(fs::read_to_string(&p).unwrap(), "5\n");
        // Through a symbolic link, the file it points to is the counter.
        #[cfg(unix)]
        {
            let link = d.join("link");
            std::os::unix::fs::symlink(&p, &link).unwrap();
            assert_eq!(ok(reserve(&link, 1)), 5);
            assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
            assert_eq!(fs::read_to_string(&p).unwrap(), "6\n");
            assert_eq!(ok(reserve(&p, 1)), 6);
            fs::write(&p, "5\n").unwrap();
        }
        fs::write(&p, format!("{}\n", u128::MAX - 1)).unwrap();
        assert_eq!(ok(reserve(&p, 1)), u128::MAX - 1);
        assert!(reserve(&p, 1).is_err(), "exhausted");
        // Concurrent reservations never overlap.
        fs::write(&p, "0\n").unwrap();
        let hs: Vec<_> = (0..4)
            .map(|_| {
                let p = p.clone();
                std::thread::spawn(move || (0..25).map(|_| ok(reserve(&p, 2))).collect::<Vec<_>>())
            })
            .collect();
        let mut all: Vec<u128> = hs.into_iter().flat_map(|h| h.join().unwrap()).collect();
        all.sort();
        assert_eq!(all, (0..100).map(|i| 2 * i).collect::<Vec<_>>());
        let _ = fs::remove_dir_all(&d);
    }
}
