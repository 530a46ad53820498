//! Names are printed escaped: control characters, every Unicode format
//! character (the bidi controls U+202A..U+202E and U+2066..U+2069, the
//! zero-width U+200B..U+200F, U+FEFF, …) and U+2028/U+2029, so that an
//! ADDED line cannot pass for another file's OK line; and a name escaped
//! in a check line is read back as the same bytes.
#![cfg(unix)]

use crate::common;

use common::*;

/// Names with a hidden character, and how each is shown.
const NAMES: [(&str, &str); 5] = [
    ("evil\u{202e}txt.exe", "evil\\u{202e}txt.exe"),
    ("zero\u{200b}width", "zero\\u{200b}width"),
    ("iso\u{2066}late", "iso\\u{2066}late"),
    ("\u{feff}bom", "\\u{feff}bom"),
    ("line\u{2028}sep", "line\\u{2028}sep"),
];

/// No character of `s` is one that is never printed raw.
#[track_caller]
fn nothing_hidden(s: &str) {
    for c in s.chars() {
        let hidden = (c.is_control() && c != '\n')
            || matches!(c as u32, 0xad | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x2064 | 0x2066..=0x206f | 0xfeff | 0x2028 | 0x2029);
        assert!(!hidden, "{c:?} printed raw in {s:?}");
    }
}

#[test]
fn tag_lines_escape_format_characters_and_verify_reads_them_back() {
    let d = TempDir::unique("names-tag");
    ok(&run_in(d.path(), &["keygen", "hash127-aes", "-o", "k.key"]));
    for (name, _) in NAMES {
        d.write(name, name.as_bytes());
    }
    for bsd in [false, true] {
        let mut args = vec!["tag", "-k", "k.key"];
        if bsd {
            args.push("--tag");
        }
        args.extend(NAMES.iter().map(|(n, _)| *n));
        let out = ok(&run_in(d.path(), &args));
        nothing_hidden(&out);
        for (line, (_, shown)) in out.lines().zip(NAMES) {
            assert!(line.starts_with('\\'), "{line:?}");
            assert!(line.contains(shown), "{line:?} should show {shown:?}");
        }
        // The escaped names are read back as the files' own names.
        std::fs::write(d.p("SUMS"), &out).unwrap();
        let v = ok(&run_in(d.path(), &["verify", "-k", "k.key", "SUMS"]));
        nothing_hidden(&v);
        let want: String = NAMES.iter().map(|(_, s)| format!("\\{s}: OK\n")).collect();
        assert_eq!(v, want);
    }
    // A changed file: its FAILED line is escaped too.
    d.write(NAMES[0].0, b"changed");
    let o = run_in(d.path(), &["verify", "-k", "k.key", "SUMS"]);
    assert_eq!(o.status.code(), Some(1));
    nothing_hidden(&stdout(&o));
    assert!(stdout(&o).contains(&format!("\\{}: FAILED", NAMES[0].1)), "{}", stdout(&o));
}

#[test]
fn sealed_trees_print_added_removed_and_ok_names_escaped() {
    let d = TempDir::unique("names-seal");
    ok(&run_in(d.path(), &["keygen", "hash127-aes", "-o", "k.key"]));
    std::fs::create_dir(d.p("t")).unwrap();
    for (name, _) in &NAMES[..3] {
        d.write(&format!("t/{name}"), b"x");
    }
    ok(&run_in(d.path(), &["seal", "-k", "k.key", "-o", "M", "-r", "t"]));
    // OK lines.
    let o = run_in(d.path(), &["verify", "-k", "k.key", "M"]);
    nothing_hidden(&stdout(&o));
    nothing_hidden(&stderr(&o));
    for (_, shown) in &NAMES[..3] {
        assert!(stdout(&o).contains(shown), "{}", stdout(&o));
    }
    // ADDED and REMOVED lines.
    std::fs::remove_file(d.p(&format!("t/{}", NAMES[0].0))).unwrap();
    for (name, _) in &NAMES[3..] {
        d.write(&format!("t/{name}"), b"y");
    }
    let o = run_in(d.path(), &["verify", "-k", "k.key", "M"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    nothing_hidden(&out);
    nothing_hidden(&stderr(&o));
    assert!(out.contains(&format!("{}: REMOVED", NAMES[0].1)), "{out}");
    for (_, shown) in &NAMES[3..] {
        assert!(out.contains(&format!("{shown}: ADDED")), "{out}");
    }
    // The manifest itself still names the files by their own bytes.
    let m = std::fs::read(d.p("M")).unwrap();
    assert!(m.windows(NAMES[1].0.len()).any(|w| w == NAMES[1].0.as_bytes()));
}

#[test]
fn error_messages_escape_format_characters() {
    let d = TempDir::unique("names-err");
    ok(&run_in(d.path(), &["keygen", "hash127-aes", "-o", "k.key"]));
    let o = run_in(d.path(), &["verify", "-k", "k.key", "no\u{202e}such"]);
    assert!(!o.status.success());
    nothing_hidden(&stderr(&o));
    assert!(stderr(&o).contains("no\\u{202e}such"), "{}", stderr(&o));
}
