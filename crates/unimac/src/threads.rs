//! Threads only when asked. By default every computation runs on the
//! caller's thread; an application that wants long inputs split across
//! cores says so once with [`set_max_threads`] (the `unimac` CLI does).
//!
//! The work is spread by a `rayon` pool private to this library, built with
//! the allowed number of threads the first time it is needed (and rebuilt
//! when the setting changes); the global `rayon` pool is never used. Where a
//! pool cannot be built (no thread can be created), the work is done on the
//! caller's thread instead: never a panic. Results never depend on the
//! number of threads.
//!
//! Every family splits a slice of at least 4 MiB (`PARALLEL_MIN`) bytes given to
//! one call (one-shot or `update`): the polynomial hashes (hash127, eval64,
//! eval128, division64, gdivision64) hash pieces independently and join them
//! with `S(a‖b) = S(a)·β^|b| + S(b)` ([`crate::partial`] is the same
//! algebra across processes), the tree modes hash independent runs of blocks
//! through their two lowest levels, modp reduces pieces from zero and joins
//! them, and UMAC and VMAC hash runs of chunks through NH on the threads
//! (VMAC joins its pieces' polynomials mod `2^127 − 1`; UMAC passes the NH
//! outputs to its polynomial in order).
//!
//! Without the feature `std` there are no threads: the setting is kept, but
//! every computation runs on the caller's thread.

use core::sync::atomic::{AtomicUsize, Ordering};
#[cfg(feature = "std")]
use std::sync::{Arc, Mutex};

use crate::prelude::*;

static MAX: AtomicUsize = AtomicUsize::new(1);

/// Slices at least this long handed to one call are split across the
/// threads allowed by [`set_max_threads`] (the default of [`parallel_min`]).
pub(crate) const PARALLEL_MIN: usize = 4 << 20;

static MIN: AtomicUsize = AtomicUsize::new(PARALLEL_MIN);

/// The length from which a slice is split now: [`PARALLEL_MIN`], unless a
/// test lowered it (`unstable::threads::set_parallel_min`) to reach the
/// parallel paths with shorter messages. No result depends on it.
pub(crate) fn parallel_min() -> usize {
    MIN.load(Ordering::Relaxed)
}

#[cfg(feature = "unstable")]
pub(crate) fn set_parallel_min(bytes: usize) {
    MIN.store(bytes.max(1), Ordering::Relaxed);
}

/// How many times [`map`] has handed pieces to two or more threads of the
/// pool in this process (for tests: that a parallel path was taken).
#[cfg(feature = "std")]
static SPLITS: AtomicUsize = AtomicUsize::new(0);

#[cfg(all(feature = "std", feature = "unstable"))]
pub(crate) fn splits() -> usize {
    SPLITS.load(Ordering::Relaxed)
}

/// Allow up to `n` threads per computation for inputs long enough to gain
/// from it (slices of 4 MiB bytes or more); `0` means every core
/// this process may use; `1` (the default) none besides the caller's.
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

#[cfg(not(feature = "std"))]
fn cores() -> usize {
    1
}

#[cfg(feature = "std")]
fn cores() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The library's pool for `n ≥ 2` threads; `None` if it cannot be built.
#[cfg(feature = "std")]
fn pool(n: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOL: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(None);
    // The slot holds a whole value or nothing: a poisoned lock is still good.
    let mut slot = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((k, p)) = slot.as_ref() {
        if *k == n {
            return Some(Arc::clone(p));
        }
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("unimac-{i}"))
            .build()
            .ok()?,
    );
    *slot = Some((n, Arc::clone(&p)));
    Some(p)
}

/// `f(piece)` for every piece, in order, on up to [`allowed`] threads of the
/// library's pool (on the caller's thread if only one is allowed or no pool
/// can be built). Never another `rayon` pool: a caller on a thread of some
/// other pool waits while this library's pool does the work.
pub(crate) fn map<T, R, F>(pieces: &[T], f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync + Send,
{
    #[cfg(feature = "std")]
    use rayon::prelude::*;
    #[cfg(feature = "std")]
    let n = allowed().min(pieces.len());
    #[cfg(feature = "std")]
    if n >= 2 {
        if let Some(p) = pool(n) {
            SPLITS.fetch_add(1, Ordering::Relaxed);
            if p.current_thread_index().is_some() {
                // Already on this pool (a nested split): stay on it.
                return pieces.par_iter().map(&f).collect();
            }
            return p.install(|| pieces.par_iter().map(&f).collect());
        }
    }
    pieces.iter().map(f).collect()
}

/// Whether [`split`] would give a slice of `len` bytes more than one piece
/// at all: `min` bytes or more and two threads allowed. The callers ask
/// first, so that work on one thread allocates nothing.
pub(crate) fn parallel(len: usize, min: usize) -> bool {
    len >= min.max(1) && allowed() >= 2
}

/// The pieces a slice of `len` bytes is split into, each a multiple of
/// `unit` bytes but the last: none below `min` (or with one thread allowed),
/// else four per allowed thread (so a thread held up by other work on the
/// machine leaves its share to the others), each at least 1 MiB.
pub(crate) fn split(len: usize, unit: usize, min: usize) -> Vec<core::ops::Range<usize>> {
    let threads = if len >= min.max(1) { allowed() } else { 1 };
    let units = len / unit;
    let k = if threads < 2 { 1 } else { (4 * threads).min(len / (1 << 20)).max(threads) };
    let k = k.min(units).max(1);
    let per = units / k;
    let mut v = Vec::with_capacity(k);
    let mut at = 0;
    for i in 0..k {
        let end = if i + 1 == k { len } else { at + per * unit };
        v.push(at..end);
        at = end;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_covers_in_order_on_units() {
        for len in [0usize, 1, 63, 64, 1000, 1 << 20] {
            for unit in [4usize, 64, 1000] {
                let r = split(len, unit, 0);
                assert_eq!(r.first().unwrap().start, 0);
                assert_eq!(r.last().unwrap().end, len);
                for w in r.windows(2) {
                    assert_eq!(w[0].end, w[1].start);
                    assert_eq!(w[0].len() % unit, 0);
                }
            }
        }
    }

    /// With two threads allowed (and two cores), the pieces run on two
    /// threads of the library's own pool, not the caller's or rayon's global
    /// pool; with one, on the caller's thread.
    #[cfg(feature = "std")]
    #[test]
    fn map_uses_the_library_pool() {
        let pieces: Vec<u32> = (0..8).collect();
        let where_ = |_: &u32| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            std::thread::current().name().unwrap_or("").to_string()
        };
        set_max_threads(2);
        let names = map(&pieces, where_);
        set_max_threads(1);
        if cores() >= 2 {
            assert!(names.iter().all(|n| n.starts_with("unimac-")), "{names:?}");
            let mut distinct = names.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 2, "{names:?}");
        }
        let me = std::thread::current().name().unwrap_or("").to_string();
        assert!(map(&pieces, where_).iter().all(|n| *n == me));
    }

    /// Where no thread can be started (wasm32 without atomics, e.g.
    /// wasm32-wasip1), the pool cannot be built and every piece runs on the
    /// caller's thread, in order, whatever the setting: never a panic.
    #[test]
    #[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
    fn without_threads_the_callers_thread_does_the_work() {
        assert!(pool(2).is_none());
        set_max_threads(4);
        let v: Vec<u32> = (0..16).collect();
        let me = std::thread::current().id();
        let got = map(&v, |x| (std::thread::current().id() == me, x * 3));
        let pieces = split(64 << 20, 64, 0);
        set_max_threads(1);
        assert!(got.iter().all(|g| g.0));
        assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), v.iter().map(|x| x * 3).collect::<Vec<_>>());
        assert_eq!(pieces, vec![0..64 << 20], "one piece when one thread can run");
    }

    /// Without `std` nothing is ever split: one thread, whatever the setting.
    #[cfg(not(feature = "std"))]
    #[test]
    fn no_threads_without_std() {
        set_max_threads(0);
        let (allowed_now, par) = (allowed(), parallel(1 << 30, 1));
        let pieces = split(64 << 20, 64, PARALLEL_MIN);
        set_max_threads(1);
        assert_eq!(allowed_now, 1);
        assert!(!par);
        assert_eq!(pieces, vec![0..64 << 20]);
    }

    #[test]
    fn map_keeps_order() {
        let v: Vec<u32> = (0..100).collect();
        assert_eq!(map(&v, |x| x * 2), v.iter().map(|x| x * 2).collect::<Vec<_>>());
    }
}
