//! The CLI's error type: [`Fail`], one line for the user (`unimac: ...`,
//! exit status 2), and how a file's own error reads in `tag`, `verify` and
//! `seal`.

/// A one-line error for the user.
pub(crate) struct Fail(pub(crate) String);

impl<E: std::fmt::Display> From<E> for Fail {
    fn from(e: E) -> Fail {
        Fail(e.to_string())
    }
}

/// A file's read error as `tag` and `verify` print it, as sha256sum does:
/// `FILE: why`.
pub(crate) fn per_file(e: String) -> String {
    match e.strip_prefix("cannot read ").or_else(|| e.strip_prefix("cannot open ")) {
        Some(rest) => rest.to_string(),
        None => e,
    }
}
