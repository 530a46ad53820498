//! The key files of the `unimac` command line (`unimac keygen -o FILE`):
//!
//! ```text
//! unimac-key hash127-aes
//! 4f1c…(the key in lowercase hex)
//! ```
//!
//! and, for a one-time key that has tagged its message, a last line
//! `spent`. Read as the CLI reads them (CRLF line ends and blanks at line
//! ends taken as plain newlines; a bare hex file, the key of a MAC not in
//! this build or of the wrong length refused with the CLI's messages);
//! written as `keygen` writes them (mode 0600, durably, never over an
//! existing file).

use std::io::Read;
use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use unimac::registry::{self, KeySpec};
use zeroize::Zeroizing;

use crate::{buffer, names, oserror};

/// The longest key file accepted (the longest key is 48 bytes).
const MAX_KEY_FILE: u64 = 4096;

/// The first word of a key file.
const MAGIC: &str = "unimac-key";

/// The names (without `mac-`) whose key may have `len` bytes.
fn names_with_key_len(len: usize) -> Vec<String> {
    registry::entries()
        .iter()
        .filter(|e| e.info.name.starts_with("mac-") && !matches!(e.info.key, KeySpec::PerElement(_)) && e.info.key.accepts(len))
        .map(|e| e.info.name["mac-".len()..].to_string())
        .collect()
}

/// The key length of `name` (a MAC without `mac-`, or `modp`).
fn key_spec(name: &str) -> Result<KeySpec, String> {
    if name == "modp" {
        return Ok(KeySpec::Fixed(unimac::modp::KEY_BYTES));
    }
    let e = registry::lookup(&format!("mac-{name}")).map_err(|e| names::cite(&e.to_string()))?;
    match e.info.key {
        KeySpec::PerElement(_) => Err(format!("{name}: not a MAC")),
        k => Ok(k),
    }
}

/// The MAC a key file names, its key and whether it is marked spent.
fn parse(mut text: Zeroizing<Vec<u8>>, shown: &str) -> Result<(String, Zeroizing<Vec<u8>>, bool), String> {
    let not_key = || format!("key file {shown}: not a key file (expected '{MAGIC} NAME', the key in hex, each on a line)");
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
    let Some(rest) = body.strip_prefix(MAGIC.as_bytes()).and_then(|r| r.strip_prefix(b" ")) else {
        if !body.is_empty() && body.iter().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!(
                "key file {shown}: bare hex without the '{MAGIC} NAME' line; if it is a NAME key, convert it with: sed -i '1i {MAGIC} NAME' {shown}"
            ));
        }
        return Err(not_key());
    };
    let nl = rest.iter().position(|&c| c == b'\n').ok_or_else(not_key)?;
    let (file_name, hexpart) = (&rest[..nl], &rest[nl + 1..]);
    let file_name = std::str::from_utf8(file_name).map_err(|_| not_key())?;
    let known = if file_name == "modp" { Some(file_name.to_string()) } else { names::mac_name(file_name) };
    let Some(file_name) = known else {
        return Err(format!("key file {shown}: made for '{file_name}', not a MAC of this build"));
    };
    let want = key_spec(&file_name)?;
    if hexpart.is_empty() || !hexpart.iter().all(|c| c.is_ascii_hexdigit()) {
        return Err(not_key());
    }
    if hexpart.len() % 2 != 0 {
        return Err(format!("key file {shown}: odd number of hex digits"));
    }
    let got = hexpart.len() / 2;
    if !want.accepts(got) {
        let others = names_with_key_len(got);
        let hint = if others.is_empty() { String::new() } else { format!(" (the key length of {})", others.join(", ")) };
        return Err(format!(
            "key file {shown}: holds a {got}-byte key{hint}, but {file_name} needs {} bytes",
            want.describe()
        ));
    }
    let mut key = Zeroizing::new(vec![0u8; got]);
    for (i, pair) in hexpart.chunks(2).enumerate() {
        let d = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
        key[i] = d(pair[0]) << 4 | d(pair[1]);
    }
    Ok((file_name, key, spent))
}

/// `(name, key, spent)` of the key file at `path`.
#[pyfunction]
#[pyo3(name = "_load_key")]
pub fn load_key<'py>(py: Python<'py>, path: PathBuf) -> PyResult<(String, Bound<'py, PyBytes>, bool)> {
    let shown = path.display().to_string();
    let text = py.allow_threads(|| -> std::io::Result<Zeroizing<Vec<u8>>> {
        let f = std::fs::File::open(&path)?;
        let mut text = Zeroizing::new(Vec::with_capacity(2 * MAX_KEY_FILE as usize));
        f.take(MAX_KEY_FILE + 1).read_to_end(&mut text)?;
        Ok(text)
    });
    let text = text.map_err(|e| oserror::from_io(py, &e, &path))?;
    if text.len() as u64 > MAX_KEY_FILE {
        return Err(PyValueError::new_err(format!("key file {shown}: too long to be a key file")));
    }
    let (name, key, spent) = parse(text, &shown).map_err(PyValueError::new_err)?;
    Ok((name, PyBytes::new(py, &key), spent))
}

/// The text of a key file for `name` (a MAC, `mac-` optional, or `modp`).
fn text_of(name: &str, key: &[u8]) -> Result<Zeroizing<Vec<u8>>, String> {
    let name = if name == "modp" { name.to_string() } else { names::resolve_mac(name)? };
    let want = key_spec(&name)?;
    if !want.accepts(key.len()) {
        let e = unimac::Error::KeyLength { name: name.clone(), expected: want.describe(), got: key.len() };
        return Err(names::cite(&e.to_string()));
    }
    let head = format!("{MAGIC} {name}\n");
    let mut text = Zeroizing::new(Vec::with_capacity(head.len() + 2 * key.len() + 1));
    text.extend_from_slice(head.as_bytes());
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for &b in key {
        text.push(HEX[(b >> 4) as usize]);
        text.push(HEX[(b & 15) as usize]);
    }
    text.push(b'\n');
    Ok(text)
}

/// Write a new key file (mode 0600, durably); never over an existing file.
#[pyfunction]
#[pyo3(name = "_save_key")]
pub fn save_key(py: Python<'_>, path: PathBuf, name: &str, key: &Bound<'_, PyAny>) -> PyResult<()> {
    let k = buffer::data(key, "key")?;
    let text = text_of(name, k.as_slice()).map_err(PyValueError::new_err)?;
    py.allow_threads(|| unimac::counter::write_new_private(&path, &text, "key file")).map_err(|e| match e {
        unimac::Error::Io(m) => oserror::from_message(py, m, &path),
        e => PyValueError::new_err(e.to_string()),
    })
}

