//! The nonce counter file of `unimac keygen --counter` / `unimac tag
//! --counter`, same format and same crash safety: the file holds, in decimal
//! and a newline, the next unused 128-bit counter `c`. A reservation locks
//! the file, writes the advanced value to a temporary file (mode and owner
//! of the old one), fsyncs it, renames it over the old one and fsyncs the
//! directory, all before the counter is handed out: a process killed at any
//! point can only skip counters, never hand one out twice.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::PyErr;

fn os(msg: String) -> PyErr {
    PyOSError::new_err(msg)
}

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

/// Write `text` to a new file of mode 0600 (never over an existing one),
/// fsynced, its directory fsynced.
fn write_new_private(path: &Path, text: &[u8], what: &str) -> Result<(), PyErr> {
    let shown = path.display();
    let mut f = open_new_private(path).map_err(|e| os(format!("cannot create {what} {shown}: {e}")))?;
    f.write_all(text)
        .and_then(|_| f.sync_all())
        .map_err(|e| os(format!("cannot write {what} {shown}: {e}")))?;
    sync_dir(&parent_dir(path)).map_err(|e| os(format!("cannot sync the directory of {what} {shown}: {e}")))
}

/// A new counter file starting at 0 (never overwrites).
pub fn create(path: &Path) -> Result<(), PyErr> {
    write_new_private(path, b"0\n", "counter file")
}

/// Parse a counter file's text strictly: decimal digits, one newline.
pub fn parse(text: &[u8], shown: &str) -> Result<u128, PyErr> {
    let bad = || {
        PyValueError::new_err(format!(
            "counter file {shown} is corrupt (expected a decimal number and a newline); refusing to guess a nonce"
        ))
    };
    let body = text.strip_suffix(b"\n").ok_or_else(bad)?;
    if body.is_empty() || body.len() > 39 || !body.iter().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    std::str::from_utf8(body).ok().and_then(|s| s.parse::<u128>().ok()).ok_or_else(bad)
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

/// Reserve `count` consecutive counters; returns the first. Durable before
/// it returns.
pub fn reserve(path: &Path, count: u128) -> Result<u128, PyErr> {
    let shown = path.display().to_string();
    // Work on the real file: renaming over a symbolic link would replace the
    // link and leave the counter it points to behind.
    let real = fs::canonicalize(path);
    let path: &Path = match &real {
        Ok(p) => p,
        Err(_) => path,
    };
    let read_err = |e: std::io::Error| os(format!("cannot read counter file {shown}: {e}"));
    // Lock the file, then make sure the path still names the locked file.
    let mut f = loop {
        let f = File::open(path).map_err(|e| {
            os(format!(
                "cannot open counter file {shown}: {e} (create it with 'unimac keygen NAME -o KEYFILE --counter {shown}', or write 0 and a newline to it for a key never used with a nonce)"
            ))
        })?;
        f.lock().map_err(|e| os(format!("cannot lock counter file {shown}: {e}")))?;
        let now = fs::metadata(path).map_err(read_err)?;
        let held = f.metadata().map_err(read_err)?;
        if same_file(&now, &held) {
            break f;
        }
    };
    let meta = f.metadata().map_err(read_err)?;
    if meta.permissions().readonly() || OpenOptions::new().write(true).open(path).is_err() {
        return Err(os(format!(
            "counter file {shown} is read-only; it is not replaced (make it writable to tag with it)"
        )));
    }
    let mut text = Vec::new();
    (&mut f).take(64).read_to_end(&mut text).map_err(read_err)?;
    let first = parse(&text, &shown)?;
    let next = first.checked_add(count).ok_or_else(|| {
        PyValueError::new_err(format!("counter file {shown}: the 128-bit nonce counter is exhausted; use a new key"))
    })?;
    let dir = parent_dir(path);
    let base = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "counter".into());
    remove_stale_temporaries(&dir, &base);
    let tmp = dir.join(format!(".{base}.{}.tmp", std::process::id()));
    let _ = fs::remove_file(&tmp);
    let r = write_new_private(&tmp, format!("{next}\n").as_bytes(), "temporary counter file")
        .and_then(|_| same_mode_and_owner(&tmp, &meta, &shown));
    if let Err(e) = r {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    if let Err(e) = fs::rename(&tmp, path) {
        let _ = fs::remove_file(&tmp);
        return Err(os(format!("cannot update counter file {shown}: {e}")));
    }
    sync_dir(&dir).map_err(|e| os(format!("cannot sync the directory of counter file {shown}: {e}")))?;
    drop(f); // releases the lock
    Ok(first)
}

#[cfg(unix)]
fn same_mode_and_owner(tmp: &Path, old: &fs::Metadata, shown: &str) -> Result<(), PyErr> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    fs::set_permissions(tmp, fs::Permissions::from_mode(old.permissions().mode() & 0o7777))
        .map_err(|e| os(format!("cannot give the new counter file {shown} its mode: {e}")))?;
    let new = fs::metadata(tmp).map_err(|e| os(format!("cannot read the new counter file {shown}: {e}")))?;
    if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
        std::os::unix::fs::chown(tmp, Some(old.uid()), Some(old.gid())).map_err(|e| {
            os(format!(
                "counter file {shown} belongs to uid {} gid {}: cannot keep its owner when updating it ({e}); not replaced",
                old.uid(),
                old.gid()
            ))
        })?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn same_mode_and_owner(_: &Path, _: &fs::Metadata, _: &str) -> Result<(), PyErr> {
    Ok(())
}

/// Remove `.BASE.PID.tmp` files left by killed runs (PID no longer
/// running); called under the counter's lock.
fn remove_stale_temporaries(dir: &Path, base: &str) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let prefix = format!(".{base}.");
    for e in entries.flatten() {
        let n = e.file_name();
        let Some(n) = n.to_str() else { continue };
        let Some(pid) = n
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(".tmp"))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_alive(pid) {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// Whether process `pid` runs (Linux: `/proc/PID`); where that cannot be
/// told, assume it does and leave its file.
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        proc.join(pid.to_string()).exists()
    } else {
        true
    }
}
