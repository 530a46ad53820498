//! Signal dispositions set at start (the crate's one `unsafe` module):
//! a closed pipe ends `unimac` quietly, as it does coreutils (SIGPIPE's
//! default action restored), and a write past the file-size limit
//! (`ulimit -f`) is an error, not a kill (SIGXFSZ ignored).

/// Writing to a closed pipe ends the process quietly, as for coreutils
/// (`unimac tag ... | head -1`): the default action of SIGPIPE, which the
/// Rust runtime sets to "ignore".
pub(crate) fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of one signal, before any
    // other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A write past the file-size limit (`ulimit -f`) fails with EFBIG ("File
/// too large"), which is reported as one line with a non-zero exit and the
/// file being written removed (or never named: formats::fsio), instead of
/// SIGXFSZ killing the process with no word, part-way through a write
/// (exit 153). CPython does the same at start-up (it ignores SIGXFSZ).
pub(crate) fn file_too_large_is_an_error() {
    #[cfg(unix)]
    // SAFETY: setting one signal's disposition to "ignore", before any
    // other thread exists.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}
