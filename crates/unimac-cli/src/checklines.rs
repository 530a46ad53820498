//! Check-line I/O: writing `tag`'s lines (`[NONCE:]TAG  FILE`, BSD style
//! `NAME (FILE) = [NONCE:]TAG`, NUL-ended with `-z`), reading check files
//! record by record, and names as `verify` prints them. The line format is
//! the library's (`unimac_front::formats::checkline`).

use std::io;

use unimac_front::formats::checkline;
pub(crate) use unimac_front::formats::checkline::{decode_value, split_line as split_check_line};
#[cfg(test)]
use unimac_front::formats::checkline::escape_name;
pub(crate) use unimac_front::formats::manifest::{bytes_path, path_bytes};

/// A name as `verify` and `seal` print it: escaped as in a tag line
/// (`checkline::escape_line_name`: control and format characters, bidi
/// controls and line separators escaped), so that no name can move the
/// terminal's cursor or pass for another name; `true` if anything was (the
/// line then starts with a backslash).
pub(crate) fn display_name(name: &[u8]) -> (bool, Vec<u8>) {
    checkline::escape_line_name(name)
}

/// One line of `tag`'s output: `[NONCE:]TAG  FILE`, or with `bsd`
/// `NAME (FILE) = [NONCE:]TAG`; a leading backslash if the name is escaped.
#[cfg(test)]
fn tag_line(name: &str, file: &[u8], nonce: Option<&[u8]>, tag: &[u8], bsd: bool) -> Vec<u8> {
    tag_line_ended(name, file, nonce, tag, bsd, false)
}

/// [`tag_line`], or with `zero` the line ended by NUL and the name as it is
/// (sha256sum -z): the library's check line.
pub(crate) fn tag_line_ended(name: &str, file: &[u8], nonce: Option<&[u8]>, tag: &[u8], bsd: bool, zero: bool) -> Vec<u8> {
    let style = if bsd { checkline::Style::Bsd } else { checkline::Style::Gnu };
    checkline::format_line(name, file, nonce, tag, style, zero)
}

/// One line of a `--check` file for a MAC with these sizes: (nonce, tag,
/// file), or None if malformed (a GNU-style line).
#[cfg(test)]
fn parse_check_line(
    line: &str,
    nonce_len: usize,
    tag_len: usize,
) -> Option<(Option<Vec<u8>>, Vec<u8>, String)> {
    let l = split_check_line(line.as_bytes())?;
    let (n, t) = decode_value(&l.value, nonce_len..=nonce_len, tag_len)?;
    Some((n, t, String::from_utf8(l.file).ok()?))
}

/// The longest check line read whole; a longer one is malformed (a name
/// can be 4096 bytes, twice that escaped, plus nonce and tag).
pub(crate) const MAX_CHECK_LINE: usize = 16 << 10;

/// Read the next line of `r` into `buf` (without its newline): `Ok(None)` at
/// the end, `Ok(Some(true))` for a line. A line longer than
/// [`MAX_CHECK_LINE`] is an error (`InvalidData`), read no further: a check
/// file is never read without bound, not even `/dev/zero` given as `-`.
/// With `zero`, the next record ended by NUL instead (`verify -z`; a
/// carriage return before it is part of the name).
pub(crate) fn next_record(r: &mut dyn io::BufRead, buf: &mut Vec<u8>, zero: bool) -> io::Result<Option<bool>> {
    let end = if zero { b'\0' } else { b'\n' };
    buf.clear();
    let fits = true;
    let mut any = false;
    loop {
        let avail = r.fill_buf()?;
        if avail.is_empty() {
            return Ok(any.then_some(fits));
        }
        any = true;
        let (take, done) = match avail.iter().position(|&c| c == end) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        if buf.len() + take > MAX_CHECK_LINE + 2 {
            return Err(io::Error::new(io::ErrorKind::InvalidData, format!("longer than {MAX_CHECK_LINE} bytes")));
        }
        buf.extend_from_slice(&avail[..take]);
        r.consume(take);
        if done {
            if buf.last() == Some(&end) {
                buf.pop();
                if zero {
                    return Ok(Some(fits));
                }
                // CRLF line ends, as sha256sum -c takes them (a carriage
                // return in a name is escaped by tag, never raw).
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
            }
            return Ok(Some(fits));
        }
    }
}

#[cfg(test)]
mod props;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_lines() {
        let t = "00".repeat(16);
        let n = "11".repeat(16);
        assert_eq!(
            parse_check_line(&format!("{t}  a b"), 0, 16),
            Some((None, vec![0; 16], "a b".into()))
        );
        assert_eq!(
            parse_check_line(&format!("{t} *f"), 0, 16).map(|x| x.2),
            Some("f".into())
        );
        assert_eq!(
            parse_check_line(&format!("{n}:{t}  f"), 16, 16),
            Some((Some(vec![0x11; 16]), vec![0; 16], "f".into()))
        );
        assert_eq!(
            parse_check_line(&format!("\\{t}  a\\nb\\\\c"), 0, 16).map(|x| x.2),
            Some("a\nb\\c".into())
        );
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
        assert!(
            parse_check_line(&format!("{t}  f"), 16, 16).is_none(),
            "nonce MAC line without nonce"
        );
        assert!(parse_check_line(&format!("{n}:{t}  f"), 0, 16).is_none());
    }

    #[test]
    fn names_escape_round_trip() {
        for s in [&b"plain"[..], b"a\\b", b"new\nline", b"\\n", b"caf\xe9"] {
            let (esc, e) = escape_name(s);
            assert_eq!(esc, s != b"plain" && s != b"caf\xe9");
            assert_eq!(unimac_front::formats::checkline::unescape_name(&e).as_deref(), Some(s));
        }
    }

    #[test]
    fn bsd_lines() {
        let t = "00".repeat(16);
        let l = split_check_line(format!("hash127-aes (a (b) = c) = {t}").as_bytes()).unwrap();
        assert_eq!(l.mac.as_deref(), Some("hash127-aes"));
        assert_eq!(l.file, b"a (b) = c");
        assert_eq!(l.value, t);
        let line = tag_line("wc-mmh32x2", b"x\ny", Some(&[1]), &[2], true);
        assert_eq!(line, b"\\wc-mmh32x2 (x\\ny) = 01:02\n");
    }
}
