use crate::prelude::*;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;

use zeroize::Zeroizing;

use super::fsio::{self, io_msg, Replace};
use crate::error::Error;
use crate::macs::{self, MacDesc};
use crate::registry::{self, NamedMac};

/// The first word of a key file.
pub const MAGIC: &str = "unimac-key";

/// The longest key file accepted (the longest key is 48 bytes).
const MAX_KEY_FILE: u64 = 4096;

/// What a key file holds a key of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// A MAC of the catalogue.
    Mac(&'static MacDesc),
    /// A secret prime of the `modp` check (not a MAC key).
    Modp,
}

impl KeyKind {
    /// The name a key file writes: the MAC's name without `mac-`, or `modp`.
    pub fn name(&self) -> &'static str {
        match self {
            KeyKind::Mac(d) => d.name,
            KeyKind::Modp => "modp",
        }
    }
    /// The kind a name (`X`, `mac-X` or `modp`) stands for; a name that is
    /// not a MAC of this build gets the library's "did you mean".
    pub fn from_name(name: &str) -> Result<KeyKind, Error> {
        if name == KeyKind::Modp.name() {
            return Ok(KeyKind::Modp);
        }
        let bare = registry::resolve::resolve_mac(name)?;
        macs::find(&bare)
            .map(KeyKind::Mac)
            .ok_or_else(|| Error::Invalid(format!("{bare}: not a MAC")))
    }
    fn accepts(&self, len: usize) -> bool {
        match self {
            KeyKind::Mac(d) => d.accepts_key(len),
            KeyKind::Modp => len == crate::modp::KEY_BYTES,
        }
    }
    fn describe_len(&self) -> String {
        match self {
            KeyKind::Mac(d) => {
                let s: Vec<String> = d.key_sizes.iter().map(|n| n.to_string()).collect();
                s.join(" or ")
            }
            KeyKind::Modp => crate::modp::KEY_BYTES.to_string(),
        }
    }
}

/// A key file's contents: what it is a key of, the key (zeroized on drop),
/// and whether it is marked spent. `Debug` shows the name and the mark,
/// never the key.
pub struct KeyFile {
    kind: KeyKind,
    key: Zeroizing<Vec<u8>>,
    spent: bool,
    warning: Option<String>,
}

impl core::fmt::Debug for KeyFile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyFile")
            .field("name", &self.kind.name())
            .field("spent", &self.spent)
            .finish_non_exhaustive()
    }
}

/// A key file's error at a line and byte (from 1).
fn at_byte(shown: &str, line: usize, byte: usize, what: &str) -> Error {
    Error::Invalid(format!("key file {shown}: line {line}, byte {byte}: {what}"))
}

/// What each line's bytes may not be: a carriage return (CRLF line ends),
/// a blank at the end of a line.
fn check_line_ends(lines: &[&[u8]], shown: &str) -> Result<(), Error> {
    for (i, l) in lines.iter().enumerate() {
        if let Some(j) = l.iter().position(|&c| c == b'\r') {
            return Err(at_byte(shown, i + 1, j + 1, "a carriage return; key files end each line with a bare newline"));
        }
        if let Some(&c) = l.last() {
            if c == b' ' || c == b'\t' {
                return Err(at_byte(shown, i + 1, l.len(), "a blank at the end of the line; key files hold none"));
            }
        }
    }
    Ok(())
}

/// The kind of key the first line names (`name`, after the magic): a MAC
/// of this build by its name (never `mac-NAME`), or modp.
fn kind_named(name: &[u8], shown: &str) -> Result<KeyKind, Error> {
    if name.starts_with(b"mac-") {
        return Err(at_byte(shown, 1, MAGIC.len() + 2, "the MAC's name with 'mac-'; key files name it without (as 'unimac keygen' writes it)"));
    }
    let file_name = core::str::from_utf8(name).map_err(|_| not_key(shown))?;
    if file_name == KeyKind::Modp.name() {
        return Ok(KeyKind::Modp);
    }
    match macs::find(file_name).filter(|d| d.name == file_name) {
        Some(d) => Ok(KeyKind::Mac(d)),
        None => Err(Error::Invalid(format!("key file {shown}: made for '{file_name}', not a MAC of this build"))),
    }
}

/// The key of the lower-case hex digits `hexpart`: whole bytes, of a
/// length `kind` takes (else the error names the MACs of that length).
fn key_of_hex(kind: KeyKind, hexpart: &[u8], shown: &str) -> Result<Zeroizing<Vec<u8>>, Error> {
    if !hexpart.len().is_multiple_of(2) {
        return Err(Error::Invalid(format!(
            "key file {shown}: odd number of hex digits"
        )));
    }
    let got = hexpart.len() / 2;
    if !kind.accepts(got) {
        let others = names_with_key_len(got);
        let hint = if others.is_empty() {
            String::new()
        } else {
            format!(" (the key length of {})", others.join(", "))
        };
        return Err(Error::Invalid(format!(
            "key file {shown}: holds a {got}-byte key{hint}, but {} needs {} bytes",
            kind.name(),
            kind.describe_len()
        )));
    }
    let mut key = Zeroizing::new(vec![0u8; got]);
    let d = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
    for (i, pair) in hexpart.chunks(2).enumerate() {
        key[i] = (d(pair[0]) << 4) | d(pair[1]);
    }
    Ok(key)
}

fn not_key(shown: &str) -> Error {
    Error::Invalid(format!("key file {shown}: not a key file (expected '{MAGIC} NAME', the key in hex, each on a line)"))
}

/// The names (without `mac-`) whose key may have `len` bytes.
fn names_with_key_len(len: usize) -> Vec<&'static str> {
    macs::MACS
        .iter()
        .filter(|d| d.accepts_key(len))
        .map(|d| d.name)
        .collect()
}

impl KeyFile {
    /// A key of `kind` from its bytes (checked for length).
    pub fn new(kind: KeyKind, key: &[u8]) -> Result<KeyFile, Error> {
        if !kind.accepts(key.len()) {
            return Err(Error::KeyLength {
                name: kind.name().into(),
                expected: kind.describe_len(),
                got: key.len(),
            });
        }
        Ok(KeyFile {
            kind,
            key: Zeroizing::new(key.to_vec()),
            spent: false,
            warning: None,
        })
    }

    /// A fresh key of `kind` from the operating system's generator (for
    /// `modp`, a random prime of [2^120, 2^128)).
    pub fn generate(kind: KeyKind) -> Result<KeyFile, Error> {
        let key = match kind {
            KeyKind::Modp => {
                Zeroizing::new(crate::modp::SecretPrime::generate()?.to_bytes().to_vec())
            }
            KeyKind::Mac(d) => {
                let mut k = Zeroizing::new(vec![0u8; d.default_key_len()]);
                getrandom::fill(&mut k).map_err(|e| Error::Io(crate::rng::failed(&e)))?;
                k
            }
        };
        Ok(KeyFile {
            kind,
            key,
            spent: false,
            warning: None,
        })
    }

    /// What the key is a key of.
    pub fn kind(&self) -> KeyKind {
        self.kind
    }
    /// The MAC's name (without `mac-`), or `modp`.
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }
    /// The MAC's row, or `None` for a `modp` prime.
    pub(crate) fn desc(&self) -> Option<&'static MacDesc> {
        match self.kind {
            KeyKind::Mac(d) => Some(d),
            KeyKind::Modp => None,
        }
    }
    /// The key's bytes.
    pub fn key(&self) -> &[u8] {
        &self.key
    }
    /// Whether the file was marked spent (a one-time key that has tagged).
    pub fn is_spent(&self) -> bool {
        self.spent
    }
    /// A warning about the file as it was read (open to group or others),
    /// for the front end to show once.
    pub(crate) fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// The key's fingerprint (as counter files and manifests name it): it
    /// reveals nothing of the key. `None` for a `modp` prime.
    pub fn fingerprint(&self) -> Option<crate::counter::Binding> {
        self.desc()
            .map(|d| crate::counter::Binding::new(d, &self.key))
    }

    /// Check that the file is a key of `name` (a name given beside a key
    /// file is an assertion, never a guess).
    pub(crate) fn expect(&self, name: &str, shown: &str) -> Result<(), Error> {
        let want = KeyKind::from_name(name)?;
        if want != self.kind {
            let (have, n) = (self.name(), want.name());
            return Err(Error::Invalid(format!(
                "key file {shown} is a {have} key, not a {n} key; use it with {have} or make a {n} key with 'unimac keygen {n}'"
            )));
        }
        Ok(())
    }

    /// The reusable MAC of this key. A one-time key is refused
    /// ([`Error::OneTimeOnly`]): it tags only through [`OneTimeKeyFile`].
    pub fn mac(&self) -> Result<NamedMac, Error> {
        match self.kind {
            KeyKind::Mac(d) if d.one_time => Err(Error::OneTimeOnly(d.name.into())),
            KeyKind::Mac(d) => NamedMac::of_row(d, &self.key),
            KeyKind::Modp => Err(Error::Invalid(
                "a modp key is a secret prime, not a MAC key".into(),
            )),
        }
    }

    /// Check `tag` of `msg` under this key, for any MAC, one-time ones
    /// included (checking never spends a key).
    pub fn verify(&self, nonce: Option<&[u8]>, msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        match self.kind {
            KeyKind::Mac(d) if d.one_time => {
                if nonce.is_some() {
                    return Err(Error::UnexpectedNonce(d.name.into()));
                }
                registry::OneTimeMac::new(d.name, &self.key)?.verify(msg, tag)
            }
            _ => self.mac()?.verify(nonce, msg, tag),
        }
    }

    /// The text of the key file, in one zeroized buffer of its final size.
    pub(crate) fn text(&self) -> Zeroizing<Vec<u8>> {
        let head = format!("{MAGIC} {}\n", self.name());
        let mut text = Zeroizing::new(vec![0u8; head.len() + 2 * self.key.len() + 1]);
        text[..head.len()].copy_from_slice(head.as_bytes());
        const HEX: &[u8; 16] = b"0123456789abcdef";
        for (i, &b) in self.key.iter().enumerate() {
            text[head.len() + 2 * i] = HEX[(b >> 4) as usize];
            text[head.len() + 2 * i + 1] = HEX[(b & 15) as usize];
        }
        let n = text.len();
        text[n - 1] = b'\n';
        text
    }

    /// Write the key to a new file at `path`: mode 0600, synced, whole or
    /// not at all, never over an existing file.
    pub fn write_new(&self, path: &Path) -> Result<(), Error> {
        fsio::write_atomic(path, &self.text(), Replace::Never, true, "key file")
    }

    /// Parse a key file's text; `shown` names it in errors.
    pub(crate) fn parse(text: &[u8], shown: &str) -> Result<KeyFile, Error> {
        KeyFile::parse_hinted(text, shown, None)
    }

    /// [`KeyFile::parse`], with the MAC the caller expects (a bare hex
    /// file's conversion hint then names it).
    fn parse_hinted(text: &[u8], shown: &str, expect: Option<&str>) -> Result<KeyFile, Error> {
        // Byte by byte, without copies of the key: lines split in place.
        let at = |line: usize, byte: usize, what: &str| at_byte(shown, line, byte, what);
        let body = text.strip_suffix(b"\n").unwrap_or(text);
        let lines: Vec<&[u8]> = body.split(|&c| c == b'\n').collect();
        let first = lines[0];
        let Some(name) = first.strip_prefix(MAGIC.as_bytes()).and_then(|r| r.strip_prefix(b" ")) else {
            if !first.is_empty() && first.iter().all(u8::is_ascii_hexdigit) {
                let n = expect
                    .and_then(|n| KeyKind::from_name(n).ok())
                    .map_or("NAME", |k| k.name());
                return Err(Error::Invalid(format!(
                    "key file {shown}: bare hex without the '{MAGIC} NAME' line; if it is a {n} key, convert it with: sed -i '1i {MAGIC} {n}' {shown}"
                )));
            }
            return Err(not_key(shown));
        };
        check_line_ends(&lines, shown)?;
        let kind = kind_named(name, shown)?;
        let hexpart = *lines.get(1).ok_or_else(|| not_key(shown))?;
        if hexpart.is_empty() {
            return Err(not_key(shown));
        }
        for (j, &c) in hexpart.iter().enumerate() {
            match c {
                b'0'..=b'9' | b'a'..=b'f' => {}
                b'A'..=b'F' => return Err(at(2, j + 1, "upper-case hex; key files are written in lower-case hex")),
                _ => return Err(at(2, j + 1, "not a hex digit")),
            }
        }
        let spent = match lines.get(2) {
            None => false,
            Some(&l) if l == b"spent" && kind_one_time(kind) => true,
            Some(&l) if l == b"spent" => {
                return Err(Error::Invalid(format!(
                    "key file {shown}: line 3: 'spent' marks a one-time MAC's key; {} is not one",
                    kind.name()
                )))
            }
            Some(_) => return Err(at(3, 1, "not 'spent', the one line a key file may hold after the key")),
        };
        if lines.len() > 3 {
            return Err(at(4, 1, "more lines than a key file holds"));
        }
        let key = key_of_hex(kind, hexpart, shown)?;
        Ok(KeyFile {
            kind,
            key,
            spent,
            warning: None,
        })
    }

    /// Read a key file from `r` (at most 4 KiB); `shown` names it in errors.
    pub(crate) fn read_from(r: impl Read, shown: &str) -> Result<KeyFile, Error> {
        KeyFile::read_hinted(r, shown, None)
    }

    fn read_hinted(r: impl Read, shown: &str, expect: Option<&str>) -> Result<KeyFile, Error> {
        // Room for the whole (bounded) file up front: growing the buffer
        // would leave copies of the key in freed memory.
        let mut text = Zeroizing::new(Vec::with_capacity(2 * MAX_KEY_FILE as usize));
        r.take(MAX_KEY_FILE + 1)
            .read_to_end(&mut text)
            .map_err(|e| Error::Io(format!("cannot read key file {shown}: {}", io_msg(&e))))?;
        if text.len() as u64 > MAX_KEY_FILE {
            return Err(Error::Invalid(format!(
                "key file {shown}: too long to be a key file"
            )));
        }
        KeyFile::parse_hinted(&text, shown, expect)
    }

    /// Read the key file at `path` (a regular file: never a FIFO or
    /// device). A file open to group or others is read, with a
    /// warning the command line prints.
    pub fn read(path: &Path) -> Result<KeyFile, Error> {
        KeyFile::read_expecting(path, None)
    }

    /// Read the key file at `path` (`-`: stdin) that must be a key of
    /// `expect` when given (checked with [`KeyFile::expect`]).
    pub(crate) fn read_expecting(path: &Path, expect: Option<&str>) -> Result<KeyFile, Error> {
        let shown = path.display().to_string();
        let k = if path.as_os_str() == "-" {
            KeyFile::read_hinted(std::io::stdin().lock(), "-", expect)?
        } else {
            let (f, meta) = fsio::open_argument(path).map_err(|e| open_error(&e, &shown))?;
            let mut k = KeyFile::read_hinted(f, &shown, expect)?;
            k.warning = open_warning(&meta, &shown);
            k
        };
        if let Some(n) = expect {
            k.expect(n, &shown)?;
        }
        Ok(k)
    }
}

fn open_error(e: &fsio::OpenError, shown: &str) -> Error {
    Error::Io(match e {
        fsio::OpenError::NotFound => {
            format!("cannot open key file {shown}: No such file or directory")
        }
        fsio::OpenError::NotRegular(k) => {
            format!("key file {shown}: is {k}, not a regular file; not opened")
        }
        fsio::OpenError::Io(x) => format!("cannot open key file {shown}: {}", io_msg(x)),
    })
}

fn kind_one_time(k: KeyKind) -> bool {
    matches!(k, KeyKind::Mac(d) if d.one_time)
}

fn open_warning(m: &std::fs::Metadata, shown: &str) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = m.permissions().mode() & 0o777;
        if m.is_file() && mode & 0o077 != 0 {
            return Some(format!("key file {shown} is open to group or others (mode {mode:04o}); 'chmod 600 {shown}'"));
        }
    }
    let _ = (m, shown);
    None
}

/// The key file of a one-time MAC, opened for tagging: locked (an
/// exclusive lock on the file, held until this is dropped) and not marked
/// spent. `OneTimeKeyFile::spend_with` computes the one tag and marks the
/// file spent before handing the tag out.
pub struct OneTimeKeyFile {
    file: File,
    shown: String,
    key: KeyFile,
    /// Whether the file ends with a newline (the mark then goes on a line
    /// of its own either way).
    ends_nl: bool,
}

impl core::fmt::Debug for OneTimeKeyFile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OneTimeKeyFile")
            .field("file", &self.shown)
            .field("name", &self.key.name())
            .finish_non_exhaustive()
    }
}

impl OneTimeKeyFile {
    /// Open and lock the key file at `path` for its one tag. Refuses a
    /// file that is not a one-time MAC's key, and one already marked spent.
    pub fn open(path: &Path) -> Result<OneTimeKeyFile, Error> {
        let shown = path.display().to_string();
        // A regular file only (checked before the open for writing).
        drop(fsio::open_regular(path).map_err(|e| open_error(&e, &shown))?);
        let mut o = OpenOptions::new();
        o.read(true).append(true);
        // Not blocked by a named pipe swapped in since the check above; the
        // open file is checked again below.
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
        }
        let file = o.open(path).map_err(|e| {
            Error::Io(format!(
                "cannot open the one-time key file {shown} for writing (it is marked spent when it tags): {}",
                io_msg(&e)
            ))
        })?;
        file.lock()
            .map_err(|e| Error::Io(format!("cannot lock key file {shown}: {}", io_msg(&e))))?;
        let meta = file
            .metadata()
            .map_err(|e| Error::Io(format!("cannot read key file {shown}: {}", io_msg(&e))))?;
        if !meta.is_file() {
            return Err(open_error(&fsio::OpenError::NotRegular("not a regular file"), &shown));
        }
        let mut text = Zeroizing::new(Vec::with_capacity(2 * MAX_KEY_FILE as usize));
        (&file)
            .take(MAX_KEY_FILE + 1)
            .read_to_end(&mut text)
            .map_err(|e| Error::Io(format!("cannot read key file {shown}: {}", io_msg(&e))))?;
        if text.len() as u64 > MAX_KEY_FILE {
            return Err(Error::Invalid(format!(
                "key file {shown}: too long to be a key file"
            )));
        }
        let ends_nl = text.last() == Some(&b'\n');
        let mut key = KeyFile::parse(&text, &shown)?;
        key.warning = open_warning(&meta, &shown);
        let name = key.name();
        if !kind_one_time(key.kind) {
            return Err(Error::Invalid(format!(
                "key file {shown}: {name} is not a one-time MAC"
            )));
        }
        if key.spent {
            return Err(Error::Invalid(format!(
                "key file {shown}: this {name} key has already tagged a message (one message per key, Bernstein's Theorem 8.2); make a new key with 'unimac keygen {name}'"
            )));
        }
        Ok(OneTimeKeyFile {
            file,
            shown,
            key,
            ends_nl,
        })
    }

    /// The key file's contents (name, warning); its key can check tags.
    pub(crate) fn key_file(&self) -> &KeyFile {
        &self.key
    }

    /// The one tag: `f` gets the one-time MAC of this key and returns what
    /// it made of it (the tag of one message); then the file is marked
    /// `spent` and synced, and only then is the result returned. If the
    /// mark cannot be written, the result is dropped and an error returned:
    /// no tag leaves a key that is not marked.
    pub(crate) fn spend_with<T>(
        mut self,
        f: impl FnOnce(registry::OneTimeMac) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let m = registry::OneTimeMac::new(self.key.name(), &self.key.key)?;
        let out = f(m)?;
        let shown = &self.shown;
        let mark: &[u8] = if self.ends_nl {
            b"spent\n"
        } else {
            b"\nspent\n"
        };
        self.file
            .write_all(mark)
            .and_then(|_| self.file.sync_all())
            .map_err(|e| {
                Error::Io(format!(
                    "cannot mark the one-time key file {shown} as spent: {}; no tag is shown",
                    io_msg(&e)
                ))
            })?;
        Ok(out)
        // Dropping the file releases the lock.
    }

    /// The tag of `msg`, the key's one message (marked spent before it is returned).
    pub fn tag(self, msg: &[u8]) -> Result<Vec<u8>, Error> {
        self.spend_with(|m| Ok(m.tag(msg)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("unimac-keyfile-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn round_trip_and_strict() {
        let k = KeyFile::generate(KeyKind::from_name("hash127-aes").unwrap()).unwrap();
        let t = k.text();
        let back = KeyFile::parse(&t, "k").unwrap();
        assert_eq!(back.key(), k.key());
        assert_eq!(back.name(), "hash127-aes");
        assert!(!format!("{back:?}").contains(
            &t[t.len() - 10..]
                .iter()
                .map(|&c| c as char)
                .collect::<String>()
        ));
        for bad in [
            &b""[..],
            b"unimac-key hash127-aes\n",
            b"unimac-key hash127-aes\n00\n",
            b"unimac-key hash127-aes\nzz\n",
        ] {
            assert!(KeyFile::parse(bad, "k").is_err(), "{bad:?}");
        }
        let e = KeyFile::parse(b"00112233\n", "k").unwrap_err().to_string();
        assert!(e.contains("bare hex"), "{e}");
        // Each lenient form, refused with its line and byte.
        let text = core::str::from_utf8(&t).unwrap().to_string();
        let hex = text.lines().nth(1).unwrap();
        let upper = format!("unimac-key hash127-aes\n{}\n", hex.to_uppercase());
        let first_letter = hex.bytes().position(|c| c.is_ascii_alphabetic()).unwrap_or(0) + 1;
        for (bad, want) in [
            (text.replace('\n', "\r\n"), "key file k.key: line 1, byte 23: a carriage return; key files end each line with a bare newline".to_string()),
            (text.replacen('\n', " \n", 1), "key file k.key: line 1, byte 23: a blank at the end of the line; key files hold none".to_string()),
            (format!("unimac-key hash127-aes\n{hex}\t\n"), "key file k.key: line 2, byte 65: a blank at the end of the line; key files hold none".to_string()),
            (text.replace(" hash127-aes", " mac-hash127-aes"), "key file k.key: line 1, byte 12: the MAC's name with 'mac-'; key files name it without (as 'unimac keygen' writes it)".to_string()),
            (format!("unimac-key hash127-aes\n{hex}\nspent\n"), "key file k.key: line 3: 'spent' marks a one-time MAC's key; hash127-aes is not one".to_string()),
            (format!("unimac-key hash127-aes\n{hex}\nx\n"), "key file k.key: line 3, byte 1: not 'spent', the one line a key file may hold after the key".to_string()),
            (format!("unimac-key hash127-aes\n{}g\n", &hex[1..]), "key file k.key: line 2, byte 64: not a hex digit".to_string()),
        ] {
            assert_eq!(KeyFile::parse(bad.as_bytes(), "k.key").unwrap_err().to_string(), want, "{bad:?}");
        }
        if hex.bytes().any(|c| c.is_ascii_alphabetic()) {
            let e = KeyFile::parse(upper.as_bytes(), "k.key").unwrap_err().to_string();
            assert_eq!(e, format!("key file k.key: line 2, byte {first_letter}: upper-case hex; key files are written in lower-case hex"));
        }
        // What keygen writes parses, with or without its final newline.
        assert_eq!(KeyFile::parse(&t[..t.len() - 1], "k").unwrap().key(), k.key());
        // `spent` means something only on a one-time key.
        let mut s = t.to_vec();
        s.extend_from_slice(b"spent\n");
        assert!(KeyFile::parse(&s, "k").is_err());
        assert!(k.expect("hash127-aes", "k").is_ok());
        assert!(k.expect("mac-hash127-aes", "k").is_ok());
        assert!(k
            .expect("umac64", "k")
            .unwrap_err()
            .to_string()
            .contains("not a umac64 key"));
    }

    #[test]
    #[cfg_attr(
        target_os = "wasi",
        ignore = "std::env::temp_dir panics on WASI (no temporary directory)"
    )]
    fn one_time_key_tags_once_through_the_file() {
        let d = scratch("ot");
        let p = d.join("k");
        let k = KeyFile::generate(KeyKind::from_name("hash127").unwrap()).unwrap();
        k.write_new(&p).unwrap();
        assert!(
            KeyFile::read(&p).unwrap().mac().is_err(),
            "a one-time key is no reusable MAC"
        );
        let t = OneTimeKeyFile::open(&p).unwrap().tag(b"m1").unwrap();
        let read = KeyFile::read(&p).unwrap();
        assert!(read.is_spent());
        assert!(read.verify(None, b"m1", &t).is_ok());
        assert!(read.verify(None, b"m2", &t).is_err());
        let e = OneTimeKeyFile::open(&p).unwrap_err();
        assert!(e.to_string().contains("already tagged"), "{e}");
        // A file without its final newline gets the mark on a line of its
        // own, and still reads as the same key, spent.
        let q2 = d.join("nonl");
        let k2 = KeyFile::generate(KeyKind::from_name("hash127").unwrap()).unwrap();
        std::fs::write(&q2, &k2.text()[..k2.text().len() - 1]).unwrap();
        let t2 = OneTimeKeyFile::open(&q2).unwrap().tag(b"m").unwrap();
        let back = KeyFile::read(&q2).unwrap();
        assert!(back.is_spent() && back.key() == k2.key());
        assert!(back.verify(None, b"m", &t2).is_ok());
        // A reusable key is not a one-time key file.
        let q = d.join("r");
        KeyFile::generate(KeyKind::from_name("hash127-aes").unwrap())
            .unwrap()
            .write_new(&q)
            .unwrap();
        assert!(OneTimeKeyFile::open(&q).is_err());
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[cfg(test)]
#[path = "keyfile_props.rs"]
mod props;
