//! The hash state of each backend and how whole chunks are absorbed into
//! it (on the pool's threads for long slices).

use super::*;

/// The hash state of one backend: the value `v` of the words so far, where
/// after `l` words `v ≡ r^(l+1) + m_0 r^l + … + m_{l−1} r` (or, for a piece
/// hashed on its own from zero, `m_0 r^l + … + m_{l−1} r`).
#[derive(Clone, Copy)]
#[allow(clippy::large_enum_variant)] // one per hash state, never in bulk
pub(super) enum Acc {
    Portable(u128),
    Int26(int26::Elem),
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::State),
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::State),
    #[cfg(target_arch = "x86_64")]
    Avx512Int(int26::Elem),
}

impl Acc {
    pub(super) fn start(b: Backend, key: &Key) -> Acc {
        match b {
            Backend::Portable => Acc::Portable(key.r()),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => Acc::Portable(key.r()),
            Backend::Int26 => Acc::Int26(int26::from_u128(key.r())),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Fma => Acc::Avx2(avx2::State::new()),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => Acc::Avx512(avx512::State::new()),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Int => Acc::Avx512Int(int26::from_u128(key.r())),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Avx2Fma | Backend::Avx512 | Backend::Avx512Int => unreachable!("backend checked at construction"),
        }
    }

    pub(super) fn from_value(b: Backend, v: u128) -> Acc {
        match b {
            Backend::Portable => Acc::Portable(v),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => Acc::Portable(v),
            Backend::Int26 => Acc::Int26(int26::from_u128(v)),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Fma => Acc::Avx2(avx2::State::from_value(v)),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => Acc::Avx512(avx512::State::from_value(v)),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Int => Acc::Avx512Int(int26::from_u128(v)),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Avx2Fma | Backend::Avx512 | Backend::Avx512Int => unreachable!("backend checked at construction"),
        }
    }

    /// Absorb whole chunks (`m.len()` a multiple of `CHUNK_BYTES`). `p` is
    /// the evidence the state's backend was chosen from (its kernel asserts
    /// the features it needs).
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    pub(super) fn chunks(&mut self, p: Platform, key: &Key, m: &[u8]) {
        match self {
            Acc::Portable(v) => {
                if m.len() >= INT26_MIN || key.inner.int26.get().is_some() {
                    *v = int26_absorb(p, key, *v, m, None);
                } else {
                    *v = portable::absorb(*v, &key.inner.powers, m);
                }
            }
            Acc::Int26(v) => int26::absorb(p, v, key.int26(), m, None),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx2(s) => avx2::chunks(p, s, key.table(), m),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx512(s) => avx512::chunks(p, s, key.table(), m),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx512Int(s) => avx512i::chunks(p, s, key.int8(), m),
        }
    }

    /// Absorb a last chunk: the words of `m` (`m.len()` a multiple of 4), then
    /// `tail` if present, at most `CHUNK_BYTES / 4` words in all.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    pub(super) fn last(&mut self, p: Platform, key: &Key, m: &[u8], tail: Option<i32>) {
        match self {
            Acc::Portable(v) if m.len() >= 64 && key.inner.int26.get().is_some() => {
                *v = int26_absorb(p, key, *v, m, tail);
            }
            Acc::Portable(v) => {
                *v = portable::absorb(*v, &key.inner.powers, m);
                if let Some(w) = tail {
                    *v = portable::absorb(*v, &key.inner.powers, &w.to_le_bytes());
                }
            }
            Acc::Int26(v) => int26::absorb(p, v, key.int26(), m, tail),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx2(s) => avx2::last(p, s, key.table(), m, tail),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx512(s) => avx512::last(p, s, key.table(), m, tail),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx512Int(s) => avx512i::last(p, s, key.int8(), m, tail),
        }
    }

    /// `(v + k) mod p`, `k` given as words (`[0; 4]` for the bare value).
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    pub(super) fn finish(&self, p: Platform, key: &Key, k_words: [i32; 4]) -> u128 {
        match self {
            Acc::Portable(v) => portable::add_mod(*v, words_mod_p(k_words)),
            Acc::Int26(v) => int26::finish(v, words_mod_p(k_words)),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx2(s) => {
                let x = avx2::finish(p, s, key.table(), &fp::words(k_words));
                x.iter().rev().fold(0u128, |a, &w| (a << 32) | w as u128)
            }
            #[cfg(target_arch = "x86_64")]
            Acc::Avx512(s) => {
                let x = avx512::finish(p, s, key.table(), &fp::words(k_words));
                x.iter().rev().fold(0u128, |a, &w| (a << 32) | w as u128)
            }
            #[cfg(target_arch = "x86_64")]
            Acc::Avx512Int(v) => int26::finish(v, words_mod_p(k_words)),
        }
    }

    pub(super) fn wipe(&mut self) {
        match self {
            Acc::Portable(v) => v.zeroize(),
            Acc::Int26(v) => v.zeroize(),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx2(s) => s.wipe(),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx512(s) => s.wipe(),
            #[cfg(target_arch = "x86_64")]
            Acc::Avx512Int(v) => v.zeroize(),
        }
    }
}

/// The portable backend's bulk kernel where it pays: the words of `m` (then
/// `tail`) absorbed into `v < p` by `int26.rs` (about twice the speed of
/// `portable::absorb` on x86-64, see `docs/perf/hash127.md`), building the
/// key's radix-`2^26` powers (about 1 µs) on first use.
pub(super) fn int26_absorb(p: Platform, key: &Key, v: u128, m: &[u8], tail: Option<i32>) -> u128 {
    let mut e = int26::from_u128(v);
    int26::absorb(p, &mut e, key.int26(), m, tail);
    let x = int26::freeze(e);
    e.zeroize();
    x
}

/// Whole chunks of at least this many bytes at once (or any, once the key
/// has its radix-`2^26` powers) take `int26.rs` on the portable backend:
/// from two chunks on, its speed pays for building the powers (measured
/// on x86-64: 1 MiB in 0.46 ms against 0.93 ms, powers about 1 µs).
pub(super) const INT26_MIN: usize = 2 * CHUNK_BYTES;

/// Absorb `m` (a multiple of `CHUNK_BYTES`), split across up to
/// [`crate::threads::allowed`] threads of the library's pool when it is at
/// least `par_min` bytes: each piece is hashed from zero on its own thread
/// and the pieces are joined with `S(a‖b) = S(a)·r^|b| + S(b)` (|b| in
/// words).
pub(super) fn absorb_bulk(acc: &mut Acc, p: Platform, b: Backend, key: &Key, m: &[u8], par_min: usize) {
    if !crate::threads::parallel(m.len(), par_min) {
        acc.chunks(p, key, m);
        return;
    }
    let pieces = crate::threads::split(m.len(), CHUNK_BYTES, par_min);
    if pieces.len() < 2 {
        acc.chunks(p, key, m);
        return;
    }
    // `S` of each piece hashed from zero.
    let values = crate::threads::map(&pieces, |range| {
        let mut a = Acc::from_value(b, 0);
        a.chunks(p, key, &m[range.clone()]);
        let v = a.finish(p, key, [0; 4]);
        a.wipe();
        v
    });
    let mut v = acc.finish(p, key, [0; 4]);
    for (sv, range) in values.into_iter().zip(&pieces) {
        let shift = portable::pow_mod(key.r(), (range.len() / 4) as u64);
        v = portable::add_mod(portable::mul_mod(v, shift), sv);
    }
    acc.wipe();
    *acc = Acc::from_value(b, v);
}
