//! The benchmark's error type: [`Fail`], one line for the user
//! (`unimac-bench: ...`, exit status 2).

/// A one-line error for the user.
pub(crate) struct Fail(pub(crate) String);

impl<E: std::fmt::Display> From<E> for Fail {
    fn from(e: E) -> Fail {
        Fail(e.to_string())
    }
}
