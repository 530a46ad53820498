//! Check lines: what `unimac tag` prints and `unimac verify` reads back,
//! as `sha256sum` writes them.
//!
//! ```text
//! [NONCE:]TAG  FILE                  (GNU style)
//! NAME (FILE) = [NONCE:]TAG          (BSD style, `tag --tag`)
//! ```
//!
//! A file name holding a backslash, newline or carriage return is escaped
//! (`\\`, `\n`, `\r`) and the line then starts with a backslash; with `-z`
//! a line ends with NUL instead of a newline and the name is written as it
//! is. A check line is not sealed: whoever can write the check file can
//! change it, so the tags it lists are only as good as the file's keeping
//! (a sealed manifest is the format for lists that must not change).

use crate::prelude::*;

/// sha256sum's escaping of a file name in a line: `\`, newline and carriage
/// return escaped; `true` if anything was (the line then starts with a
/// backslash). Other bytes, UTF-8 or not, are kept as they are.
pub fn escape_name(name: &[u8]) -> (bool, Vec<u8>) {
    if !name.iter().any(|&c| matches!(c, b'\\' | b'\n' | b'\r')) {
        return (false, name.to_vec());
    }
    let mut out = Vec::with_capacity(name.len() + 4);
    for &c in name {
        match c {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            c => out.push(c),
        }
    }
    (true, out)
}

/// The name an escaped line holds; `None` for a bad escape.
pub fn unescape_name(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut it = s.iter();
    while let Some(&c) = it.next() {
        if c == b'\\' {
            match it.next()? {
                b'\\' => out.push(b'\\'),
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// `[NONCE:]TAG` in lower-case hex.
pub fn value_hex(nonce: Option<&[u8]>, tag: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    fn put(s: &mut String, b: &[u8]) {
        for &c in b {
            s.push(HEX[(c >> 4) as usize] as char);
            s.push(HEX[(c & 15) as usize] as char);
        }
    }
    let mut s = String::with_capacity(2 * (tag.len() + nonce.map_or(0, |n| n.len() + 1)));
    if let Some(n) = nonce {
        put(&mut s, n);
        s.push(':');
    }
    put(&mut s, tag);
    s
}

/// The two styles of a check line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// `[NONCE:]TAG  FILE`.
    #[default]
    Gnu,
    /// `NAME (FILE) = [NONCE:]TAG`.
    Bsd,
}

/// One check line: `mac` (the MAC's name, written by the BSD style), the
/// file name, the nonce (for `shoup4-*` the pair) and the tag; ended by a
/// newline, or with `zero` by NUL (the name then unescaped, as
/// `sha256sum -z`).
pub fn format_line(mac: &str, file: &[u8], nonce: Option<&[u8]>, tag: &[u8], style: Style, zero: bool) -> Vec<u8> {
    let (esc, file) = if zero { (false, file.to_vec()) } else { escape_name(file) };
    let value = value_hex(nonce, tag);
    let mut out = Vec::with_capacity(file.len() + value.len() + mac.len() + 8);
    if esc {
        out.push(b'\\');
    }
    match style {
        Style::Bsd => {
            out.extend_from_slice(mac.as_bytes());
            out.extend_from_slice(b" (");
            out.extend_from_slice(&file);
            out.extend_from_slice(b") = ");
            out.extend_from_slice(value.as_bytes());
        }
        Style::Gnu => {
            out.extend_from_slice(value.as_bytes());
            out.extend_from_slice(b"  ");
            out.extend_from_slice(&file);
        }
    }
    out.push(if zero { 0 } else { b'\n' });
    out
}

/// A check line split (either style), its value not yet decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The MAC named by a BSD-style line (as written).
    pub mac: Option<String>,
    /// `[NONCE:]TAG`, not yet decoded.
    pub value: String,
    /// The file name, unescaped.
    pub file: Vec<u8>,
}

/// Split a check line (without its line end; either style), or `None` if
/// it is malformed.
pub fn split_line(line: &[u8]) -> Option<Line> {
    let (escaped, line) = match line.strip_prefix(b"\\") {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let unesc = |f: &[u8]| if escaped { unescape_name(f) } else { Some(f.to_vec()) };
    // BSD style: NAME (FILE) = VALUE, the value being hex and ':' only.
    if let Some(open) = line.windows(2).position(|w| w == b" (") {
        let close = line.windows(4).rposition(|w| w == b") = ");
        if let Some(close) = close.filter(|&c| c > open) {
            let name = core::str::from_utf8(&line[..open]).ok();
            let value = core::str::from_utf8(&line[close + 4..]).ok();
            if let (Some(name), Some(value)) = (name, value) {
                let value_ok = !value.is_empty() && value.bytes().all(|c| c.is_ascii_hexdigit() || c == b':');
                if !name.is_empty() && !name.contains(' ') && value_ok {
                    let file = unesc(&line[open + 2..close])?;
                    if file.is_empty() {
                        return None;
                    }
                    return Some(Line { mac: Some(name.to_string()), value: value.to_string(), file });
                }
            }
        }
    }
    // GNU style: VALUE  FILE (or VALUE *FILE).
    let sp = line.iter().position(|&c| c == b' ')?;
    let (value, rest) = line.split_at(sp);
    let file = rest.strip_prefix(b"  ").or_else(|| rest.strip_prefix(b" *"))?;
    if file.is_empty() {
        return None;
    }
    let value = core::str::from_utf8(value).ok()?.to_string();
    Some(Line { mac: None, value, file: unesc(file)? })
}

fn hex_digit(c: u8, lower_only: bool) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' if !lower_only => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Bytes of `len` from hex (`lower_only`: the one byte form, lower case).
pub(crate) fn hex_exact(s: &str, len: usize, lower_only: bool) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() != 2 * len {
        return None;
    }
    b.chunks(2).map(|p| Some((hex_digit(p[0], lower_only)? << 4) | hex_digit(p[1], lower_only)?)).collect()
}

/// `[NONCE:]TAG` decoded for a MAC with these sizes (a nonce of a length in
/// `nonce_sizes`, when its end is not 0), or `None` if malformed. Check
/// lines take either case of hex, as `sha256sum -c` does.
pub fn decode_value(value: &str, nonce_sizes: core::ops::RangeInclusive<usize>, tag_len: usize) -> Option<(Option<Vec<u8>>, Vec<u8>)> {
    decode_value_as(value, nonce_sizes, tag_len, false)
}

pub(crate) fn decode_value_as(
    value: &str,
    nonce_sizes: core::ops::RangeInclusive<usize>,
    tag_len: usize,
    lower_only: bool,
) -> Option<(Option<Vec<u8>>, Vec<u8>)> {
    let (n, t) = if *nonce_sizes.end() > 0 {
        let (n, t) = value.split_once(':')?;
        (Some(n), t)
    } else {
        (None, value)
    };
    let nonce = match n {
        Some(n) if n.len().is_multiple_of(2) && nonce_sizes.contains(&(n.len() / 2)) => Some(hex_exact(n, n.len() / 2, lower_only)?),
        Some(_) => return None,
        None => None,
    };
    Some((nonce, hex_exact(t, tag_len, lower_only)?))
}

/// A check line parsed without knowing its MAC's sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The MAC named by a BSD-style line (as written).
    pub mac: Option<String>,
    /// The nonce, if the line has one.
    pub nonce: Option<Vec<u8>>,
    pub tag: Vec<u8>,
    /// The file name, unescaped.
    pub file: Vec<u8>,
}

/// A check line (without its line end) of any MAC: the nonce and tag any
/// non-empty even run of hex. `None` if malformed.
pub fn parse_line(line: &[u8]) -> Option<Parsed> {
    let l = split_line(line)?;
    let (n, t) = match l.value.split_once(':') {
        Some((n, t)) => (Some(n), t),
        None => (None, l.value.as_str()),
    };
    let any = |s: &str| if s.is_empty() || !s.len().is_multiple_of(2) { None } else { hex_exact(s, s.len() / 2, false) };
    let nonce = match n {
        Some(n) => Some(any(n)?),
        None => None,
    };
    Some(Parsed { mac: l.mac, nonce, tag: any(t)?, file: l.file })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        for name in [&b"a b"[..], b"new\nline", b"back\\slash", b"caf\xe9", b"cr\r"] {
            for style in [Style::Gnu, Style::Bsd] {
                let l = format_line("wc-eval128", name, Some(&[1; 16]), &[2; 16], style, false);
                let p = parse_line(&l[..l.len() - 1]).unwrap();
                assert_eq!(p.file, name);
                assert_eq!(p.nonce.as_deref(), Some(&[1u8; 16][..]));
                assert_eq!(p.tag, [2u8; 16]);
                assert_eq!(p.mac.is_some(), style == Style::Bsd);
            }
        }
        assert_eq!(format_line("x", b"f", None, &[0xab], Style::Gnu, false), b"ab  f\n");
        assert_eq!(format_line("x", b"a\nb", None, &[0xab], Style::Gnu, true), b"ab  a\nb\0");
        assert!(parse_line(b"ab  ").is_none());
        assert!(parse_line(b"abc  f").is_none());
        assert!(parse_line(b"\\ab  f\\q").is_none());
        assert_eq!(decode_value("AB", 0..=0, 1), Some((None, vec![0xab])));
        assert_eq!(decode_value_as("AB", 0..=0, 1, true), None);
        assert_eq!(decode_value("01:ab", 1..=16, 1), Some((Some(vec![1]), vec![0xab])));
        assert_eq!(decode_value("01:ab", 16..=16, 1), None);
    }
}
