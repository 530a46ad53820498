//! A closed pipe ends `unimac` quietly, as it does coreutils: SIGPIPE's
//! default action restored at start (the crate's one `unsafe` call,
//! allowed on this module alone).

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
