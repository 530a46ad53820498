//! Messages the front ends share: each written once here, so that the
//! command line and the Python package say the same.

/// The end of a refused stream's message when its output was held
/// (`stream --verify --hold`): nothing at all was released, said once,
/// in place of the receiver's own "nothing (of it) was released".
pub fn held_message(msg: &str, held: bool) -> String {
    if !held {
        return msg.to_string();
    }
    let base = ["; nothing of it was released", "; nothing was released"]
        .iter()
        .find_map(|end| msg.strip_suffix(end))
        .unwrap_or(msg);
    format!("{base}; nothing was released (--hold)")
}

/// A counter asked for with a key of the MAC `name`, which takes no nonce
/// (`counter`: the command line's `--counter`, Python's `a counter`).
pub fn counter_without_nonces(name: &str, counter: &str) -> String {
    format!("{name} takes no nonce; {counter} is for nonce MACs")
}

/// Improperly formatted lines of a check file named one by one before
/// they are only counted (unless every one is asked for: `verify -w`).
pub const SHOWN_MALFORMED: usize = 3;

/// The warning for `n` improperly formatted lines of a check file, as
/// `unimac verify` ends with it and Python's `verify_check_file` warns.
pub fn malformed_count(n: usize) -> String {
    format!("WARNING: {n} {} improperly formatted", if n == 1 { "line is" } else { "lines are" })
}

/// One improperly formatted line (`line` from 1) of the check file
/// `shown`, for a key of `name`.
pub fn malformed_line(shown: &str, line: usize, name: &str) -> String {
    format!("{shown}: {line}: improperly formatted {name} line")
}

/// A check line's file that matched its tag (`unimac verify`'s `FILE: OK`,
/// Python's `CheckResult.status`).
pub const CHECK_OK: &str = "OK";
/// A check line's file that did not match its tag.
pub const CHECK_FAILED: &str = "FAILED";
/// A check line's file that could not be opened or read (Python adds the
/// reason after `: `; the command line says it on stderr).
pub const CHECK_UNREADABLE: &str = "FAILED open or read";

/// A BSD-style check line made by the MAC `by`, not checked with a key of
/// `name` (the command line: after `SUMS: line N: `; Python: after
/// `FAILED: `).
pub fn made_by_other(by: &str, name: &str) -> String {
    format!("made by {by}, not checked with this {name} key")
}

/// A check line whose nonce (`nonce_hex`) an earlier line (`first`: the
/// command line's `SUMS: line N`, Python's `line N`) used with another tag.
pub fn nonce_reused(nonce_hex: &str, first: &str) -> String {
    format!("nonce {nonce_hex} was used with another tag at {first}: a nonce must never repeat under one key")
}

/// A check file (`shown`) without one line to check with a key of `name`.
pub fn no_check_lines(shown: &str, name: &str) -> String {
    format!("{shown}: no properly formatted {name} lines found")
}

/// What a check of a check file counted, for its closing warnings.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckCounts {
    /// Improperly formatted lines.
    pub malformed: usize,
    /// Lines made by another MAC, not checked.
    pub other_mac: usize,
    /// Listed files that could not be read.
    pub unreadable: usize,
    /// Tags that did not match.
    pub bad: usize,
    /// Lines that reuse a nonce with another tag.
    pub reused: usize,
}

/// The warnings a check of a check file ends with, as `sha256sum --check`
/// words its own, in order (`name`: the key's MAC): `unimac verify` prints
/// each on stderr after `unimac: `, Python's `verify_check_file` warns each.
pub fn check_warnings(c: &CheckCounts, name: &str) -> Vec<String> {
    let plural = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    let mut w = Vec::new();
    if c.malformed > 0 {
        w.push(malformed_count(c.malformed));
    }
    if c.other_mac > 0 {
        w.push(format!("WARNING: {} {} made by another MAC, not {name}", c.other_mac, plural(c.other_mac, "line was", "lines were")));
    }
    if c.unreadable > 0 {
        w.push(format!("WARNING: {} listed {} could not be read", c.unreadable, plural(c.unreadable, "file", "files")));
    }
    if c.bad > 0 {
        w.push(format!("WARNING: {} computed {} did NOT match", c.bad, plural(c.bad, "tag", "tags")));
    }
    if c.reused > 0 {
        w.push(format!(
            "WARNING: {} {} a nonce used before with another tag (nonce reuse under this key)",
            c.reused,
            plural(c.reused, "line reuses", "lines reuse")
        ));
    }
    w
}

/// A directory named where `seal` or `tag` takes files, without the flag
/// that walks it (`flag`: `-r` on the command line, `recursive=True` in
/// Python).
pub fn directory_needs_recursive(shown: &str, flag: &str) -> String {
    format!("{shown}: is a directory: give {flag} to take the files under it")
}

/// A file that changed while it was read (its size, identity or times moved,
/// or it ended early): the one error line of every reader, with the reason
/// when one is known.
pub fn changed_while_reading(name: &str, why: Option<&str>) -> String {
    match why {
        Some(w) => format!("{name}: changed while reading ({w})"),
        None => format!("{name}: changed while reading"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_without_nonces_in_each_spelling() {
        assert_eq!(counter_without_nonces("hash127-aes", "--counter"), "hash127-aes takes no nonce; --counter is for nonce MACs");
        assert_eq!(counter_without_nonces("hash127-aes", "a counter"), "hash127-aes takes no nonce; a counter is for nonce MACs");
    }

    #[test]
    fn a_check_file_is_reported_in_one_set_of_words() {
        assert_eq!((CHECK_OK, CHECK_FAILED, CHECK_UNREADABLE), ("OK", "FAILED", "FAILED open or read"));
        assert_eq!(made_by_other("hash127-aes", "wc-mmh32x4"), "made by hash127-aes, not checked with this wc-mmh32x4 key");
        assert_eq!(nonce_reused("00ff", "line 3"), "nonce 00ff was used with another tag at line 3: a nonce must never repeat under one key");
        assert_eq!(no_check_lines("SUMS", "umac64"), "SUMS: no properly formatted umac64 lines found");
        assert!(check_warnings(&CheckCounts::default(), "umac64").is_empty());
        let one = CheckCounts { malformed: 1, other_mac: 1, unreadable: 1, bad: 1, reused: 1 };
        assert_eq!(
            check_warnings(&one, "umac64"),
            [
                "WARNING: 1 line is improperly formatted",
                "WARNING: 1 line was made by another MAC, not umac64",
                "WARNING: 1 listed file could not be read",
                "WARNING: 1 computed tag did NOT match",
                "WARNING: 1 line reuses a nonce used before with another tag (nonce reuse under this key)",
            ]
        );
        let two = CheckCounts { malformed: 2, other_mac: 2, unreadable: 2, bad: 2, reused: 2 };
        assert_eq!(
            check_warnings(&two, "umac64"),
            [
                "WARNING: 2 lines are improperly formatted",
                "WARNING: 2 lines were made by another MAC, not umac64",
                "WARNING: 2 listed files could not be read",
                "WARNING: 2 computed tags did NOT match",
                "WARNING: 2 lines reuse a nonce used before with another tag (nonce reuse under this key)",
            ]
        );
    }

    #[test]
    fn held_says_it_once() {
        assert_eq!(
            held_message("the stream ended inside its header; nothing was released", true),
            "the stream ended inside its header; nothing was released (--hold)"
        );
        assert_eq!(held_message("chunk 3: bad; nothing of it was released", true), "chunk 3: bad; nothing was released (--hold)");
        assert_eq!(held_message("cut short", true), "cut short; nothing was released (--hold)");
        assert_eq!(held_message("chunk 3: bad; nothing of it was released", false), "chunk 3: bad; nothing of it was released");
    }
}
