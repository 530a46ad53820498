use crate::prelude::*;

/// sha256sum's escaping of a file name in a line, as sealed manifests
/// write names: `\`, newline and carriage return escaped; `true` if
/// anything was (the line then starts with a backslash). Other bytes,
/// UTF-8 or not, are kept as they are. Check lines and printed names
/// escape more ([`escape_line_name`]).
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

/// Unicode general category Cf (format characters), Unicode 16.0
/// (DerivedGeneralCategory.txt), as inclusive ranges in order.
const FORMAT: [(u32, u32); 21] = [
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// Whether `c` is a format character (general category Cf).
pub fn is_format(c: char) -> bool {
    let c = c as u32;
    FORMAT.binary_search_by(|&(lo, hi)| if hi < c { core::cmp::Ordering::Less } else if lo > c { core::cmp::Ordering::Greater } else { core::cmp::Ordering::Equal }).is_ok()
}

/// Whether `c` is never printed as it is in a name: a control character
/// (Cc), a format character (Cf, [`is_format`]: bidirectional controls,
/// zero-width characters, …), or the line or paragraph separator (U+2028,
/// U+2029). Any of them could make a printed name look like another, or
/// move, recolour or retitle the terminal it is printed on.
pub fn is_hidden(c: char) -> bool {
    c.is_control() || is_format(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// A file name as a check line writes it and as every printed name is
/// shown: `\` as `\\`, newline as `\n`, carriage return as `\r`, every
/// other ASCII control byte as `\xNN`, every other character that
/// [`is_hidden`] (C1 controls, format characters, U+2028, U+2029) as
/// `\u{NNNN}` (its code point in lower-case hex, at least four digits), and
/// a byte 0x80 to 0x9F that is not part of UTF-8 (which an 8-bit terminal
/// takes as a C1 control) as `\xNN`; `true` if anything was (the line then
/// starts with a backslash). Other bytes, UTF-8 or not, are kept as they
/// are. [`unescape_line_name`] gives the bytes back.
pub fn escape_line_name(name: &[u8]) -> (bool, Vec<u8>) {
    let plain = |c: u8| c >= 0x20 && c != 0x7f && c != b'\\' && c < 0x80;
    if name.iter().all(|&c| plain(c)) {
        return (false, name.to_vec());
    }
    let mut out = Vec::with_capacity(name.len() + 8);
    let mut any = false;
    for chunk in name.utf8_chunks() {
        for c in chunk.valid().chars() {
            let n = c as u32;
            match c {
                '\\' => out.extend_from_slice(b"\\\\"),
                '\n' => out.extend_from_slice(b"\\n"),
                '\r' => out.extend_from_slice(b"\\r"),
                _ if n < 0x80 && is_hidden(c) => out.extend_from_slice(format!("\\x{n:02x}").as_bytes()),
                _ if is_hidden(c) => out.extend_from_slice(format!("\\u{{{n:04x}}}").as_bytes()),
                _ => {
                    let mut b = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
                    continue;
                }
            }
            any = true;
        }
        for &b in chunk.invalid() {
            if (0x80..0xa0).contains(&b) {
                out.extend_from_slice(format!("\\x{b:02x}").as_bytes());
                any = true;
            } else {
                out.push(b);
            }
        }
    }
    (any, out)
}

/// The name an escaped check line holds ([`escape_line_name`]'s escapes:
/// `\\`, `\n`, `\r`, `\xNN` a byte, `\u{N…}` a character's UTF-8); `None`
/// for a bad escape.
pub fn unescape_line_name(s: &[u8]) -> Option<Vec<u8>> {
    fn hex(c: u8) -> Option<u32> {
        match c {
            b'0'..=b'9' => Some(u32::from(c - b'0')),
            b'a'..=b'f' => Some(u32::from(c - b'a' + 10)),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        i += 1;
        if c != b'\\' {
            out.push(c);
            continue;
        }
        match *s.get(i)? {
            b'\\' => out.push(b'\\'),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b'x' => {
                let v = (hex(*s.get(i + 1)?)? << 4) | hex(*s.get(i + 2)?)?;
                out.push(v as u8);
                i += 2;
            }
            b'u' => {
                if s.get(i + 1) != Some(&b'{') {
                    return None;
                }
                let close = s[i + 2..].iter().take(7).position(|&c| c == b'}')?;
                let digits = &s[i + 2..i + 2 + close];
                if digits.is_empty() {
                    return None;
                }
                let v = digits.iter().try_fold(0u32, |a, &d| Some((a << 4) | hex(d)?))?;
                let ch = char::from_u32(v)?;
                let mut b = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut b).as_bytes());
                i += 2 + close;
            }
            _ => return None,
        }
        i += 1;
    }
    Some(out)
}

/// The name an escaped manifest line holds (sha256sum's three escapes,
/// [`escape_name`]); `None` for a bad escape.
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
    let (esc, file) = if zero { (false, file.to_vec()) } else { escape_line_name(file) };
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
    let unesc = |f: &[u8]| if escaped { unescape_line_name(f) } else { Some(f.to_vec()) };
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
    use proptest::strategy::Strategy;

    #[test]
    fn format_characters_are_escaped_and_round_trip() {
        for (name, shown) in [
            ("a\u{202e}txt.exe", "a\\u{202e}txt.exe"),
            ("zero\u{200b}width", "zero\\u{200b}width"),
            ("iso\u{2066}late", "iso\\u{2066}late"),
            ("\u{feff}bom", "\\u{feff}bom"),
            ("line\u{2028}sep\u{2029}", "line\\u{2028}sep\\u{2029}"),
            ("soft\u{ad}hyphen", "soft\\u{00ad}hyphen"),
            ("tag\u{e0041}", "tag\\u{e0041}"),
            ("c1\u{85}\u{9b}", "c1\\u{0085}\\u{009b}"),
            ("esc\x1b[31m\x7f\t", "esc\\x1b[31m\\x7f\\x09"),
            ("back\\slash\nnl\rcr", "back\\\\slash\\nnl\\rcr"),
        ] {
            let (esc, e) = escape_line_name(name.as_bytes());
            assert!(esc, "{name:?}");
            assert_eq!(core::str::from_utf8(&e).unwrap(), shown);
            assert_eq!(unescape_line_name(&e).as_deref(), Some(name.as_bytes()));
            for style in [Style::Gnu, Style::Bsd] {
                let l = format_line("hash127-aes", name.as_bytes(), None, &[7; 16], style, false);
                assert!(l.starts_with(b"\\"));
                assert!(!core::str::from_utf8(&l).unwrap().chars().any(|c| is_hidden(c) && c != '\n'), "{l:?}");
                assert_eq!(parse_line(&l[..l.len() - 1]).unwrap().file, name.as_bytes());
            }
        }
        // Bytes that are not UTF-8: 0x80 to 0x9F escaped (8-bit C1), others kept.
        let (esc, e) = escape_line_name(b"caf\xe9\x9b");
        assert!(esc);
        assert_eq!(e, b"caf\xe9\\x9b");
        assert_eq!(unescape_line_name(&e).unwrap(), b"caf\xe9\x9b");
        assert_eq!(escape_line_name("plain é".as_bytes()), (false, "plain é".as_bytes().to_vec()));
        for bad in [&b"\\x1"[..], b"\\xZZ", b"\\u{}", b"\\u{d800}", b"\\u{110000}", b"\\u{1234567}", b"\\u202e", b"\\q"] {
            assert_eq!(unescape_line_name(bad), None, "{bad:?}");
        }
        // The table: every range in order, and what it holds.
        assert!(FORMAT.windows(2).all(|w| w[0].1 < w[1].0));
        for c in ['\u{200b}', '\u{200f}', '\u{202a}', '\u{2069}', '\u{61c}', '\u{180e}', '\u{fffb}', '\u{e007f}', '\u{1343f}'] {
            assert!(is_format(c), "{c:?}");
        }
        for c in ['a', '\u{2065}', '\u{2070}', '\u{200a}', '\u{2010}', '\u{fffc}', '\u{e0000}', '\u{e0080}'] {
            assert!(!is_format(c), "{c:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn escaped_names_round_trip(
            name in proptest::collection::vec(proptest::prop_oneof![
                proptest::prelude::any::<u8>().prop_map(|b| vec![b]),
                proptest::prelude::any::<char>().prop_map(|c| c.to_string().into_bytes()),
                proptest::sample::select(vec!['\u{202e}', '\u{200b}', '\u{2066}', '\u{feff}', '\u{2028}', '\u{2029}', '\\', '\n', '\r', '\u{85}'])
                    .prop_map(|c| c.to_string().into_bytes()),
            ], 1..24).prop_map(|v| v.concat())
        ) {
            let (esc, e) = escape_line_name(&name);
            proptest::prop_assert_eq!(unescape_line_name(&e), Some(name.clone()));
            if !esc {
                proptest::prop_assert_eq!(&e, &name);
            }
            // Nothing hidden is left in the escaped name.
            for chunk in e.utf8_chunks() {
                proptest::prop_assert!(!chunk.valid().chars().any(is_hidden));
                proptest::prop_assert!(!chunk.invalid().iter().any(|b| (0x80..0xa0).contains(b)));
            }
            let l = format_line("hash127-aes", &name, None, &[1; 16], Style::Gnu, false);
            proptest::prop_assert_eq!(parse_line(&l[..l.len() - 1]).map(|p| p.file), Some(name));
        }
    }

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
