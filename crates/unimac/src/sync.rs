//! The shared-state types the library uses, the same names with and without
//! `std`.
//!
//! - [`Arc`] is `alloc`'s.
//! - [`AtomicU64`] is `core`'s where the target has 64-bit atomics, else
//!   `portable-atomic`'s (e.g. thumbv7em, which has 32-bit ones only).
//! - [`OnceLock`] is std's with `std`; without it, `spin::Once` under std's
//!   method names: the first caller computes the value, callers that come
//!   while it does wait for it (spinning), every caller sees that one value.

pub(crate) use alloc::sync::Arc;

#[cfg(target_has_atomic = "64")]
pub(crate) use core::sync::atomic::AtomicU64;
#[cfg(not(target_has_atomic = "64"))]
pub(crate) use portable_atomic::AtomicU64;

#[cfg(feature = "std")]
pub(crate) use std::sync::OnceLock;

/// A value set at most once (see the module's documentation): the part of
/// `std::sync::OnceLock`'s interface the library uses.
#[cfg(not(feature = "std"))]
pub(crate) struct OnceLock<T>(spin::Once<T>);

#[cfg(not(feature = "std"))]
impl<T> OnceLock<T> {
    /// An empty cell.
    pub(crate) const fn new() -> OnceLock<T> {
        OnceLock(spin::Once::new())
    }

    /// The value, if set.
    pub(crate) fn get(&self) -> Option<&T> {
        self.0.get()
    }

    /// The value, if set, to change it (e.g. to wipe it before it is
    /// dropped).
    pub(crate) fn get_mut(&mut self) -> Option<&mut T> {
        self.0.get_mut()
    }

    /// The value, set to `f()` first if the cell is empty.
    pub(crate) fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
        self.0.call_once(f)
    }
}

#[cfg(not(feature = "std"))]
impl<T> Default for OnceLock<T> {
    fn default() -> OnceLock<T> {
        OnceLock::new()
    }
}

#[cfg(not(feature = "std"))]
impl<T: core::fmt::Debug> core::fmt::Debug for OnceLock<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("OnceLock").field(&self.get()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;

    #[test]
    fn once_lock_keeps_the_first_value() {
        let c: OnceLock<Vec<u32>> = OnceLock::new();
        assert!(c.get().is_none());
        let mut calls = 0;
        assert_eq!(c.get_or_init(|| { calls += 1; vec![1, 2] }), &[1, 2]);
        assert_eq!(c.get_or_init(|| { calls += 1; vec![3] }), &[1, 2]);
        assert_eq!(calls, 1);
        assert_eq!(c.get(), Some(&vec![1, 2]));
        let mut c = c;
        c.get_mut().unwrap().push(3);
        assert_eq!(c.get(), Some(&vec![1, 2, 3]));
        assert!(OnceLock::<u8>::new().get_mut().is_none());
    }

    /// Threads racing to set the cell all see the one value kept.
    #[test]
    #[cfg_attr(all(target_family = "wasm", not(target_feature = "atomics")), ignore = "needs a second thread; wasm32 without atomics has none")]
    fn once_lock_is_set_once_across_threads() {
        let c: OnceLock<usize> = OnceLock::new();
        let cell = &c;
        let seen: Vec<usize> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4).map(|i| s.spawn(move || *cell.get_or_init(|| i + 10))).collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let v = *c.get().unwrap();
        assert!((10..14).contains(&v));
        assert!(seen.iter().all(|&x| x == v), "{seen:?}");
    }

    #[test]
    fn atomic_u64_holds_64_bits() {
        use core::sync::atomic::Ordering;
        let a = AtomicU64::new(u64::MAX - 1);
        a.store(a.load(Ordering::Relaxed) ^ (1 << 63), Ordering::Release);
        assert_eq!(a.load(Ordering::Acquire), (u64::MAX - 1) ^ (1 << 63));
    }
}
