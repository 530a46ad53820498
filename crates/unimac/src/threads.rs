//! Threads only when asked. By default every computation runs on the
//! caller's thread; an application that wants long inputs split across
//! cores says so once with [`set_max_threads`] (the `unimac` CLI does).
//! Where a thread cannot be created, the work is done on the caller's
//! thread instead: never a panic.

use std::sync::atomic::{AtomicUsize, Ordering};

static MAX: AtomicUsize = AtomicUsize::new(1);

/// Allow up to `n` threads per computation for inputs long enough to gain
/// from it (hash127 and the tree modes split slices of 4 MiB or more); `0`
/// means every core this process may use; `1` (the default) none besides
/// the caller's.
pub fn set_max_threads(n: usize) {
    MAX.store(n, Ordering::Relaxed);
}

/// The current setting ([`set_max_threads`]; 0 = every core).
pub fn max_threads() -> usize {
    MAX.load(Ordering::Relaxed)
}

/// How many threads a computation may use now: the setting, capped by the
/// cores available to this process.
pub(crate) fn allowed() -> usize {
    let cores = cores();
    match max_threads() {
        0 => cores,
        n => n.min(cores),
    }
}

fn cores() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
