use crate::prelude::*;
use std::fs::{self, File, OpenOptions};
use std::io::Read;
use std::path::Path;

use crate::error::Error;
use crate::formats::fsio::{self, io_msg, parent_dir, Perm, Replace};
use crate::macs::MacDesc;

/// What a counter file is bound to: a MAC and a fingerprint of its key.
/// `Debug` shows the name and the fingerprint, which reveals nothing of the
/// key.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Binding {
    name: &'static str,
    fingerprint: [u8; 16],
}

/// The first word of a counter file.
pub const MAGIC: &str = "unimac-counter";

impl Binding {
    /// The binding of `key` for the MAC `desc`: the first 16 bytes of
    /// SHA-256 over a fixed label, the MAC's name and the key.
    pub(crate) fn new(desc: &'static MacDesc, key: &[u8]) -> Binding {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(b"unimac counter binding v1\0");
        h.update(desc.name.as_bytes());
        h.update(b"\0");
        h.update(key);
        let d = h.finalize();
        let mut fingerprint = [0u8; 16];
        fingerprint.copy_from_slice(&d[..16]);
        Binding { name: desc.name, fingerprint }
    }
    /// The key's fingerprint.
    pub fn fingerprint(&self) -> [u8; 16] {
        self.fingerprint
    }
    /// The key's fingerprint in hex.
    pub(crate) fn fingerprint_hex(&self) -> String {
        self.fingerprint.iter().map(|b| format!("{b:02x}")).collect()
    }
    fn header(&self) -> String {
        format!("{MAGIC} {} {}\n", self.name, self.fingerprint_hex())
    }
    /// The text of a counter file at `c`.
    pub(crate) fn file_text(&self, c: u128) -> String {
        format!("{}{c}\n", self.header())
    }
}

fn io(msg: String) -> Error {
    Error::Io(msg)
}

/// Write `text` to a new file at `path` (mode 0600), durably, whole or
/// not at all; never overwrites (`formats::fsio::write_atomic`). `what`
/// names the file in errors ("counter file", "key file").
pub(crate) fn write_new_private(path: &Path, text: &[u8], what: &str) -> Result<(), Error> {
    crate::formats::fsio::write_atomic(path, text, crate::formats::fsio::Replace::Never, true, what)
}

/// Parse a counter file's value line strictly: decimal digits, one newline.
/// `shown` names the file in the error.
pub(crate) fn parse(text: &[u8], shown: &str) -> Result<u128, Error> {
    let bad = || {
        Error::Invalid(format!(
            "counter file {shown} is corrupt (expected a decimal number and a newline); refusing to guess a nonce"
        ))
    };
    let body = text.strip_suffix(b"\n").ok_or_else(bad)?;
    if body.is_empty() || body.len() > 39 || !body.iter().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    std::str::from_utf8(body).ok().and_then(|s| s.parse::<u128>().ok()).ok_or_else(bad)
}

/// Parse a whole counter file bound to `want`: its binding line, then its
/// value. Refuses a file for another MAC or key, and a file without a
/// binding (made before counters were bound to their key).
pub fn parse_bound(text: &[u8], shown: &str, want: &Binding) -> Result<u128, Error> {
    let Some(nl) = text.iter().position(|&c| c == b'\n') else {
        return Err(parse(text, shown).map_or_else(|e| e, |_| unbound(shown)));
    };
    let (head, value) = (&text[..nl], &text[nl + 1..]);
    let head = std::str::from_utf8(head).map_err(|_| unbound(shown))?;
    let mut words = head.split(' ');
    let (Some(MAGIC), Some(name), Some(fp), None) = (words.next(), words.next(), words.next(), words.next()) else {
        return Err(if parse(&text[..=nl], shown).is_ok() { unbound(shown) } else { corrupt(shown) });
    };
    if name != want.name {
        return Err(Error::Invalid(format!(
            "counter file {shown} is bound to {name}, not {}: a counter serves one key of one MAC",
            want.name
        )));
    }
    if fp != want.fingerprint_hex() {
        return Err(Error::Invalid(format!(
            "counter file {shown} belongs to another {name} key (fingerprint {fp}, this key's is {}): its nonces are not this key's; refusing",
            want.fingerprint_hex()
        )));
    }
    parse(value, shown)
}

fn unbound(shown: &str) -> Error {
    Error::Invalid(format!(
        "counter file {shown} is not bound to a key (no 'unimac-counter NAME FINGERPRINT' line): it could hand out nonces another key used; make a new key with its counter ('unimac keygen NAME -o KEYFILE --counter FILE')"
    ))
}

fn corrupt(shown: &str) -> Error {
    Error::Invalid(format!("counter file {shown} is corrupt (expected 'unimac-counter NAME FINGERPRINT' and a decimal number); refusing to guess a nonce"))
}

/// Create a new counter file bound to `binding`, starting at 0 (never over
/// an existing file).
pub fn create(path: &Path, binding: &Binding) -> Result<(), Error> {
    write_new_private(path, binding.file_text(0).as_bytes(), "counter file")
}

/// Refuse anything but a regular file with one link (checked on the path
/// before it is opened, so a FIFO is never opened, and on the open file):
/// the state-file rule of `fsio::check_one_link`.
fn check_plain(meta: &fs::Metadata, shown: &str) -> Result<(), Error> {
    fsio::check_one_link(meta, "counter file", shown, "an update would leave the other names behind with an old value")
}

/// [`check_plain`] on the path, before the file is opened; a file with two
/// links of which the other is a dead writer's temporary file is let
/// through (it is removed under the lock, [`reserve`], or read as it is,
/// [`peek`]).
fn check_path(path: &Path, shown: &str) -> Result<(), Error> {
    match fs::metadata(path) {
        Ok(m) if fsio::dead_twin(path, &m, false) => Ok(()),
        Ok(m) => check_plain(&m, shown),
        Err(_) => Ok(()), // reported by the open
    }
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

/// The next unused counter of the counter file at `path`, which must be
/// bound to `binding` (nothing is reserved; the same checks as [`reserve`],
/// and at most 256 bytes are read).
pub fn peek(path: &Path, binding: &Binding) -> Result<u128, Error> {
    let shown = path.display().to_string();
    fs::metadata(path).map_err(|e| io(format!("cannot open counter file {shown}: {}", io_msg(&e))))?;
    check_path(path, &shown)?;
    let f = File::open(path).map_err(|e| io(format!("cannot open counter file {shown}: {}", io_msg(&e))))?;
    let m = f.metadata().map_err(|e| io(format!("cannot read counter file {shown}: {e}")))?;
    if !fsio::dead_twin(path, &m, false) {
        check_plain(&m, &shown)?;
    }
    let mut text = Vec::new();
    f.take(256).read_to_end(&mut text).map_err(|e| io(format!("cannot read counter file {shown}: {e}")))?;
    parse_bound(&text, &shown, binding)
}

/// Reserve `count` consecutive nonce counters from the counter file at
/// `path`, which must be bound to `binding`; returns the first. Durable
/// before it returns.
pub fn reserve(path: &Path, count: u128, binding: &Binding) -> Result<u128, Error> {
    let shown = path.display().to_string();
    // Work on the real file: renaming over a symbolic link would replace the
    // link and leave the counter it points to behind.
    let real = fs::canonicalize(path);
    let path: &Path = match &real {
        Ok(p) => p,
        Err(_) => path, // reported by the open below
    };
    let read_err = |e: std::io::Error| io(format!("cannot read counter file {shown}: {e}"));
    // Lock the file, then make sure the path still names the locked file
    // (another process may have renamed a new version over it meanwhile).
    let mut f = loop {
        check_path(path, &shown)?;
        let f = File::open(path).map_err(|e| {
            io(format!(
                "cannot open counter file {shown}: {} (create it with its key: 'unimac keygen NAME -o KEYFILE --counter {shown}')",
                io_msg(&e)
            ))
        })?;
        f.lock().map_err(|e| io(format!("cannot lock counter file {shown}: {e}")))?;
        let now = fs::metadata(path).map_err(read_err)?;
        let held = f.metadata().map_err(read_err)?;
        if same_file(&now, &held) {
            break f;
        }
    };
    let mut meta = f.metadata().map_err(read_err)?;
    // A creation killed between the hard link and the unlink of the named
    // way (where `linkat` of an anonymous file and `RENAME_NOREPLACE` are
    // missing: off Linux, or on NFS) leaves the counter with a second link,
    // `.NAME.unimac-tmp-PID-HEX` of a process that no longer runs: that
    // name is removed, under the lock, and the counter used.
    if fsio::dead_twin(path, &meta, true) {
        meta = f.metadata().map_err(read_err)?;
    }
    check_plain(&meta, &shown)?;
    check_writable(path, &meta, &shown)?;
    let mut text = Vec::new();
    (&mut f).take(256).read_to_end(&mut text).map_err(read_err)?;
    let first = parse_bound(&text, &shown, binding)?;
    let next = first.checked_add(count).ok_or_else(|| {
        Error::Invalid(format!("counter file {shown}: the 128-bit nonce counter is exhausted; use a new key"))
    })?;
    let dir = parent_dir(path);
    let base = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "counter".into());
    remove_stale_temporaries(&dir, &base);
    // The next version: written whole with the old one's mode and owner,
    // synced, renamed over it, the directory synced (fsio::write_file).
    fsio::write_file(path, binding.file_text(next).as_bytes(), Replace::Allowed, Perm::Like(&meta), "counter file")?;
    drop(f); // releases the lock
    Ok(first)
}

/// Refuse a counter file we may not write: read-only by its mode (even for
/// root, who could write it anyway: the mode says it is not to change), or
/// not openable for writing.
fn check_writable(path: &Path, meta: &fs::Metadata, shown: &str) -> Result<(), Error> {
    let refuse = |why: String| io(format!("counter file {shown} is {why}; it is not replaced (make it writable to tag with it)"));
    if meta.permissions().readonly() {
        return Err(refuse("read-only".into()));
    }
    OpenOptions::new()
        .write(true)
        .open(path)
        .map(drop)
        .map_err(|e| refuse(format!("not writable by us ({})", io_msg(&e))))
}

/// Remove, under the counter's lock, the temporary files that killed
/// updates left in `dir`: `.NAME.unimac-tmp-PID-HEX` (`fsio`), and the
/// `.BASE.PID.tmp` of earlier versions, whose process PID no longer runs
/// (`fsio::remove_stale`: by the directory's handle, this user's files
/// only).
fn remove_stale_temporaries(dir: &Path, base: &str) {
    fsio::remove_stale_temporaries(dir);
    let prefix = format!(".{base}.");
    fsio::remove_stale(dir, &|n: &str| n.strip_prefix(&prefix).and_then(|r| r.strip_suffix(".tmp")).and_then(|p| p.parse::<u32>().ok()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binding(name: &str, key: &[u8]) -> Binding {
        Binding::new(crate::macs::find(name).unwrap(), key)
    }

    #[test]
    #[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
    fn counters_count_and_bad_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("unimac-counter-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let b = binding("wc-eval128", &[7u8; 32]);
        let p = dir.join("c");
        create(&p, &b).unwrap();
        assert!(matches!(create(&p, &b), Err(Error::Io(m)) if m.contains("already exists")));
        assert_eq!(reserve(&p, 1, &b).unwrap(), 0);
        assert_eq!(reserve(&p, 5, &b).unwrap(), 1);
        assert_eq!(reserve(&p, 1, &b).unwrap(), 6);
        assert_eq!(fs::read(&p).unwrap(), b.file_text(7).as_bytes());
        // Another key, another MAC, no binding (a rolled-back "0"): refused.
        let other = binding("wc-eval128", &[8u8; 32]);
        assert!(matches!(reserve(&p, 1, &other), Err(Error::Invalid(m)) if m.contains("another wc-eval128 key")));
        let mac = binding("umac64", &[7u8; 16]);
        assert!(matches!(reserve(&p, 1, &mac), Err(Error::Invalid(m)) if m.contains("bound to wc-eval128, not umac64")));
        fs::write(&p, b"0\n").unwrap();
        assert!(matches!(reserve(&p, 1, &b), Err(Error::Invalid(m)) if m.contains("not bound to a key")));
        fs::write(&p, format!("{MAGIC} wc-eval128 {}\n12x\n", b.fingerprint_hex())).unwrap();
        assert!(matches!(reserve(&p, 1, &b), Err(Error::Invalid(m)) if m.contains("corrupt")));
        fs::write(&p, b.file_text(u128::MAX)).unwrap();
        assert!(matches!(reserve(&p, 1, &b), Err(Error::Invalid(m)) if m.contains("exhausted")));
        assert!(matches!(reserve(&dir.join("missing"), 1, &b), Err(Error::Io(m)) if m.contains("cannot open counter file")));
        // A second hard link: refused (an update renames over one name only).
        fs::write(&p, b.file_text(3)).unwrap();
        let q = dir.join("c2");
        fs::hard_link(&p, &q).unwrap();
        assert!(matches!(reserve(&q, 1, &b), Err(Error::Io(m)) if m.contains("2 hard links")));
        assert!(matches!(reserve(&p, 1, &b), Err(Error::Io(m)) if m.contains("2 hard links")));
        fs::remove_file(&q).unwrap();
        assert_eq!(reserve(&p, 1, &b).unwrap(), 3);
        // A directory (and, on unix, a FIFO) is refused before it is opened.
        assert!(matches!(reserve(&dir, 1, &b), Err(Error::Io(m)) if m.contains("not a regular file")));
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo");
            let st = std::process::Command::new("mkfifo").arg(&fifo).status();
            if st.is_ok_and(|s| s.success()) {
                assert!(matches!(reserve(&fifo, 1, &b), Err(Error::Io(m)) if m.contains("not a regular file")));
            }
        }
        for bad in [&b""[..], b"\n", b"1", b"01a\n", b" 1\n", b"1\n\n"] {
            assert!(parse(bad, "x").is_err(), "{bad:?}");
        }
        assert_eq!(parse(b"340282366920938463463374607431768211455\n", "x").unwrap(), u128::MAX);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A creation killed between the named way's hard link and its unlink
    /// (off Linux, or on NFS) leaves the counter with a second link named
    /// like a dead writer's temporary file: `peek` reads it, `reserve`
    /// removes that name under the lock and counts on. A second link of a
    /// live writer, of another file's temporary name, or a third link is
    /// still refused, and left.
    #[cfg(unix)]
    #[test]
    fn a_dead_writers_second_link_is_removed_under_the_lock() {
        use std::os::unix::fs::MetadataExt;
        let dir = std::env::temp_dir().join(format!("unimac-counter-twin-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let b = binding("wc-eval128", &[7u8; 32]);
        let p = dir.join("c");
        create(&p, &b).unwrap();
        let dead = {
            let mut c = std::process::Command::new("true").spawn().unwrap();
            let id = c.id();
            c.wait().unwrap();
            id
        };
        assert!(!fsio::process_alive(dead), "process {dead} still runs");
        let twin = dir.join(format!(".c.unimac-tmp-{dead}-0123456789ab"));
        fs::hard_link(&p, &twin).unwrap();
        assert_eq!(fs::metadata(&p).unwrap().nlink(), 2);
        assert_eq!(peek(&p, &b).unwrap(), 0);
        assert!(twin.exists(), "peek changed nothing");
        assert_eq!(reserve(&p, 1, &b).unwrap(), 0);
        assert!(!twin.exists(), "the dead writer's link was removed");
        assert_eq!(fs::metadata(&p).unwrap().nlink(), 1);
        assert_eq!(reserve(&p, 1, &b).unwrap(), 1);
        // Not a dead writer's link to this file: refused, left as it is.
        let live = dir.join(".c.unimac-tmp-1-0123456789ab");
        let other = dir.join(format!(".d.unimac-tmp-{dead}-0123456789ab"));
        let plain = dir.join("c-copy");
        for l in [&live, &other, &plain] {
            fs::hard_link(&p, l).unwrap();
            assert!(matches!(peek(&p, &b), Err(Error::Io(m)) if m.contains("2 hard links")));
            assert!(matches!(reserve(&p, 1, &b), Err(Error::Io(m)) if m.contains("2 hard links")), "{}", l.display());
            assert!(l.exists());
            fs::remove_file(l).unwrap();
        }
        // Three links, one of them a dead writer's: refused.
        fs::hard_link(&p, &twin).unwrap();
        fs::hard_link(&p, &plain).unwrap();
        assert!(matches!(reserve(&p, 1, &b), Err(Error::Io(m)) if m.contains("3 hard links")));
        assert!(twin.exists() && plain.exists());
        fs::remove_file(&plain).unwrap();
        assert_eq!(reserve(&p, 1, &b).unwrap(), 2);
        assert!(!twin.exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_binding_reveals_no_key_byte_and_tells_keys_apart() {
        let a = binding("hash127-aes", &[1u8; 32]);
        assert_eq!(a.fingerprint_hex().len(), 32);
        assert_ne!(a, binding("hash127-aes", &[2u8; 32]));
        assert_ne!(a.fingerprint_hex(), binding("hash127-aes-nonce", &[1u8; 32]).fingerprint_hex());
        assert!(!a.fingerprint_hex().contains("0101010101"));
    }
}
