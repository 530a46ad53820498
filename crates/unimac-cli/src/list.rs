//! `unimac list [--long]`: every implemented name with its key, nonce and
//! output sizes, the MACs with their forgery bounds, and which MAC to use;
//! in 100 columns (each description cut to fit, no citations), or with
//! `--long` whole, each with the paper it comes from.

use std::io::{self, Write};

use unimac_front::registry;

use crate::fail::Fail;
use crate::names::cite;
use crate::strength;

/// What `list` and the README advise.
const ADVICE: &str = "\
# Which MAC: hash127-aes by default: stateless (no nonce or counter to manage), a 128-bit tag,
# forgery bound about 2^-70 for 2^20 tags on messages of 1 MiB ('unimac bound hash127-aes
# --max-bytes 1048576 --tags 1048576'). For the highest speed on large files, a nonce MAC with
# a counter file: wc-mmh32x4 ('unimac keygen wc-mmh32x4 -o K --counter C', 'unimac tag -k K
# --counter C FILE'). 'weak': bound above 2^-32 for 2^32 tags and 2^32 forgery
# attempts on 1 MiB messages (32-bit tags always are); 'tag' checks the same for its files (as
# long as the longest, at most 4 PiB in all) and refuses a weak MAC without --allow-weak.
# The fastest MAC differs from machine to machine: 'unimac advise [--max-bytes N] [--tags N]'
# times them on this one and names the fastest whose bound meets the use.
";

/// The width of `list` without `--long`.
pub(crate) const WIDTH: usize = 100;

/// `text` cut to `width` characters, with `…` where it was cut.
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
    s.truncate(s.trim_end().len());
    s.push('…');
    s
}

pub(crate) fn list(long: bool) -> Result<(), Fail> {
    let mut out = String::new();
    out.push_str(ADVICE);
    out.push_str("\nMACs (keygen, tag, verify, bound; NAME or mac-NAME):\n");
    mac_rows(&mut out, long);
    out.push_str("\nEvery name ('unimac compute'):\n");
    out.push_str("# Sizes in bytes (k*N: a multiple of N, as long as the message; --len: as asked).\n");
    name_rows(&mut out, long);
    io::stdout().write_all(out.as_bytes())?;
    Ok(())
}

/// A key's size as `list` shows it (`k*N`: a multiple of N; `a/b/c`: any
/// of them).
fn key_column(i: &registry::Info) -> String {
    match i.key {
        registry::KeySpec::Fixed(n) => n.to_string(),
        registry::KeySpec::PerElement(n) => format!("k*{n}"),
        registry::KeySpec::OneOf(v) => v.iter().map(|n| n.to_string()).collect::<Vec<_>>().join("/"),
    }
}

/// A nonce's size as `list` shows it (`-`: none; `a..b`: from a to b).
fn nonce_column(i: &registry::Info) -> String {
    let sizes = registry::nonce_sizes(i);
    match i.nonce {
        0 => "-".to_string(),
        n if *sizes.start() == n => n.to_string(),
        n => format!("{}..{n}", sizes.start()),
    }
}

/// The forgery bound of `name` for the use `list` shows (2^32 tags, or one
/// for a one-message MAC, and 2^32 forgery attempts on 1 MiB messages),
/// and whether that makes it weak.
fn bound_column(name: &str) -> (String, bool) {
    let attack = unimac_front::bounds::Attack::new(1 << 20, strength::use_tags(name, 1 << 20), strength::USE_FORGERIES);
    match unimac_front::bounds::bound(name, &attack) {
        Ok(b) => (format!("{:.0}{}", b.log2.0, if b.proven { "" } else { "*" }), b.log2.0 > strength::WEAK_LOG2),
        Err(_) => ("none".to_string(), true),
    }
}

/// The table of MACs: a heading, a row per MAC with its sizes, bound and
/// description (whole and cited with `long`, else cut to [`WIDTH`]), and
/// the notes under it.
fn mac_rows(out: &mut String, long: bool) {
    if long {
        out.push_str(&format!(
            "{:<22} {:>10} {:>12} {:>10} {:>11}  {}\n",
            "NAME", "KEY(bytes)", "NONCE(bytes)", "TAG(bytes)", "log2(BOUND)", "WHAT"
        ));
    } else {
        out.push_str(&format!("{:<17} {:>8} {:>5} {:>3} {:>5}  {}\n", "NAME", "KEY", "NONCE", "TAG", "BOUND", "WHAT"));
    }
    for d in unimac_front::macs::MACS {
        let Ok(e) = registry::lookup(d.catalog_name) else {
            continue;
        };
        let (name, recommended) = (d.name.to_string(), d.recommended);
        let i = &e.info;
        let (key, nonce) = (key_column(i), nonce_column(i));
        let (bound, weak) = bound_column(&name);
        if long {
            let mut what = cite(&i.summary);
            if recommended {
                what = format!("RECOMMENDED as the stateless default: no nonce or counter to manage (the nonce MACs have smaller bounds, and may be faster: 'unimac advise'); {what}");
            }
            if weak {
                what = format!("weak; {what}");
            }
            out.push_str(&format!("{:<22} {:>10} {:>12} {:>10} {:>11}  {}\n", name, key, nonce, i.out, bound, what));
        } else {
            // The description without its source (the paper: --long).
            let mut what = d.summary.to_string();
            if recommended {
                what = format!("RECOMMENDED (stateless); {what}");
            }
            if weak {
                what = format!("weak; {what}");
            }
            let head = format!("{:<17} {:>8} {:>5} {:>3} {:>5}  ", name, key, nonce, i.out, bound);
            let room = WIDTH.saturating_sub(head.chars().count());
            out.push_str(&format!("{head}{}\n", fit(&what, room)));
        }
    }
    if long {
        out.push_str("# Sizes in bytes (a/b/c: any of them; a..b: from a to b). log2(BOUND): log2 of the forgery bound for 2^32 tags\n");
        out.push_str("# (1 for a one-message MAC) and 2^32 forgery attempts on 1 MiB messages (-44: 2^-44), AES advantage not\n");
        out.push_str("# included; none: no guarantee; * = the paper's sketch, not a full proof (docs/BOUNDS.md).\n");
    } else {
        out.push_str("# KEY, NONCE, TAG: bytes (a/b/c: any of them; a..b: from a to b). BOUND: log2 of the forgery bound\n");
        out.push_str("# for 2^32 tags (1 for a one-message MAC) and 2^32 forgery attempts on 1 MiB messages (-44: 2^-44),\n");
        out.push_str("# AES advantage not included; none: no guarantee; * = the paper's sketch, not a full proof\n");
        out.push_str("# (docs/BOUNDS.md). Whole descriptions and the papers they come from: 'unimac list --long'.\n");
    }
}

/// The table of every name (`unimac compute`): a heading and a row per
/// name with its sizes and description.
fn name_rows(out: &mut String, long: bool) {
    if long {
        out.push_str(&format!(
            "{:<22} {:>12} {:>12} {:>13}  {}\n",
            "NAME", "KEY(bytes)", "NONCE(bytes)", "OUTPUT(bytes)", "WHAT"
        ));
    } else {
        out.push_str(&format!("{:<17} {:>8} {:>5} {:>6}  {}\n", "NAME", "KEY", "NONCE", "OUTPUT", "WHAT"));
    }
    for e in registry::entries() {
        let i = &e.info;
        let (key, nonce) = (key_column(i), nonce_column(i));
        let out_len = if i.takes_len { "--len".to_string() } else { i.out.to_string() };
        if long {
            out.push_str(&format!("{:<22} {:>12} {:>12} {:>13}  {}\n", i.name, key, nonce, out_len, cite(&i.summary)));
        } else {
            let head = format!("{:<17} {:>8} {:>5} {:>6}  ", i.name, key, nonce, out_len);
            let room = WIDTH.saturating_sub(head.chars().count());
            out.push_str(&format!("{head}{}\n", fit(&cite(&i.summary), room)));
        }
    }
}
