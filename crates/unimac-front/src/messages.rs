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
