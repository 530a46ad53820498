//! hash127 (Bernstein, *Floating-point arithmetic and message authentication*,
//! §§1–6; `hash127` and `hash127-raw` of the wire format, docs/WIRE.md §2):
//! `h_r(m) = (r^(l+1) + m_0 r^l + … + m_{l-1} r) mod p` with `p = 2^127 − 1`,
//! plus `k`.
//!
//! [`Key`] expands `r` once; [`Hash127`] streams a message in any chunking.
//!
//! The backends give identical results; one is chosen once per key, from
//! [`Platform::detect`] when the key is set up (or the evidence given to
//! `Key::new_on` or `Hash127::new_on`, with the `unstable` feature), and no
//! hashing call detects again:
//! - `avx512i.rs` is the 64-bit variant below (radix-`2^26` limbs) on eight
//!   lanes of AVX-512F: 5 `vpmuldq` per 32 bytes, the running value joined
//!   in scalar code once per 576 words. The default on AMD CPUs with
//!   AVX-512F (see `integer_lanes_pay`); its bounds are asserted at compile
//!   time in that module.
//! - `avx512.rs` is the floating-point method on eight lanes of AVX-512F (8
//!   FMAs per 32 bytes instead of per 16), the default on other CPUs with
//!   AVX-512F; its exactness bound is derived at `fp::GROUPS8`.
//! - `avx2.rs` is the paper's method (sections 2–6): 53-bit doubles, the
//!   precomputed powers `c_{i,j}` (`fp.rs`, built once per key), `squeeze`,
//!   `prod`, `freeze`, on four lanes with FMA, in chunks of 432 words whose
//!   exactness bound is derived at `fp::GROUPS`.
//! - `portable.rs` is exact `u128` arithmetic, four words per reduction.
//! - `int26.rs` is the paper's 64-bit variant (section 7): five signed limbs
//!   of radix `2^26` in `i64`, blocks of 97 words per squeeze, no floating
//!   point. It is the portable backend's bulk kernel (whole chunks from
//!   `2 · CHUNK_BYTES` bytes on, or any once the key has its powers): about
//!   twice as fast as `portable.rs` there. `hash127_int26` and
//!   `Hash127::new_int26` (feature `unstable`) run it alone at every length.
//!
//! Where the application allows threads ([`crate::threads::set_max_threads`];
//! none by default), slices of at least 4 MiB are hashed on several cores and
//! joined with `S(a‖b) = S(a)·r^|b| + S(b)`.

use crate::prelude::*;
use core::sync::atomic::Ordering;
use crate::sync::AtomicU64;
use crate::sync::{Arc, OnceLock};

use zeroize::Zeroize;

use crate::traits::{Entry, Info, KeySpec, Keyed, Params, Stream};
use crate::error::Error;
use crate::platform::{Backend as _, Platform};

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx2;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx512;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx512i;
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
mod fp;
// Parts only the tests reach, through `crate::hazmat`.
#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
pub(crate) mod int26;
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod neon;
// Parts only the tests reach, through `crate::hazmat`.
#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
pub(crate) mod portable;
mod backend;
mod catalog;
mod acc;
use acc::{absorb_bulk, Acc};
pub(crate) use backend::Backend;
pub(crate) use catalog::catalog;

/// `p = 2^127 − 1`.
pub const P: u128 = (1u128 << 127) - 1;

/// The integer `v_0 + 2^32 v_1 + 2^64 v_2 + 2^96 v_3` of four signed words,
/// reduced mod `p` into `[0, p−1]`.
pub fn words_mod_p(v: [i32; 4]) -> u128 {
    v.iter().enumerate().fold(0, |acc, (i, &w)| {
        portable::add_mod(acc, portable::mul_mod(portable::word_mod_p(w), 1u128 << (32 * i)))
    })
}

/// Four signed little-endian words of a 16-byte string.
pub(crate) fn le_words(b: &[u8; 16]) -> [i32; 4] {
    core::array::from_fn(|i| i32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap()))
}

/// The 16-byte little-endian encoding of `x < 2^128`.
pub(crate) fn encode(x: u128) -> [u8; 16] {
    x.to_le_bytes()
}

struct KeyInner {
    /// The evidence the key was set up with, and the backend it chose.
    platform: Platform,
    backend: Backend,
    r_words: [i32; 4],
    k_words: [i32; 4],
    r: u128,
    /// `r^1..r^4` for the portable path (four words per reduction).
    powers: portable::Powers,
    k: u128,
    /// The paper's precomputed powers `c_{i,j}` (section 6), built once per
    /// key the first time a floating-point backend needs them.
    table: OnceLock<fp::Table>,
    /// Bytes hashed under this key on the portable path while the table was
    /// not built yet (see [`LAZY_BYTES`]).
    lazy_bytes: AtomicU64,
    /// The short path's powers of `r`, built when the key hashes its second
    /// short message (a one-message key never pays for them).
    short: OnceLock<Box<portable::ShortPowers>>,
    /// Short messages hashed under this key before `short` was built.
    short_uses: AtomicU64,
    /// The powers `r^1..r^97` in radix-`2^26` limbs for `int26.rs`, built
    /// the first time that backend is used.
    int26: OnceLock<Box<int26::Table>>,
    /// The powers `r^0..r^576` in the layout of `avx512i.rs`, built the
    /// first time that backend is used.
    #[cfg(target_arch = "x86_64")]
    int8: OnceLock<avx512i::Table>,
}

impl Drop for KeyInner {
    fn drop(&mut self) {
        self.r_words.zeroize();
        self.k_words.zeroize();
        self.r.zeroize();
        self.powers.zeroize();
        self.k.zeroize();
        // The table and the short powers zeroize themselves when dropped.
    }
}

/// An expanded hash127 key `(r, k)`: computed once, reused for any number of
/// messages, zeroized when the last copy is dropped.
#[derive(Clone)]
pub struct Key {
    inner: Arc<KeyInner>,
}

impl Key {
    /// `r ‖ k`, 32 bytes, each half four signed little-endian words; the
    /// backend is the fastest this CPU has ([`Platform::detect`]).
    pub fn new(key: &[u8; 32]) -> Key {
        Key::new_on(Platform::detect(), key)
    }

    /// [`Key::new`] with the fastest backend `platform` allows.
    pub fn new_on(platform: Platform, key: &[u8; 32]) -> Key {
        let mut r = le_words(key[..16].try_into().unwrap());
        let mut k = le_words(key[16..].try_into().unwrap());
        let key = Key::from_words_on(platform, r, k);
        r.zeroize();
        k.zeroize();
        key
    }

    /// `r` and `k` as four signed words each (the original package's form).
    ///
    /// This computes only `r^1..r^4`. The fast path's table of powers (434
    /// powers of `r`, about 8 µs) is built once per key, when a message of
    /// at least [`LAZY_BYTES`] is hashed or when the key has hashed that many
    /// bytes in shorter messages; until then short messages take the
    /// portable path, which is about as fast below 100 bytes. So a key used
    /// for one short message (a one-time MAC) never pays for the table, and a
    /// key used for many pays for it once. [`Key::precompute`] builds it now.
    pub fn from_words(r: [i32; 4], k: [i32; 4]) -> Key {
        Key::from_words_on(Platform::detect(), r, k)
    }

    /// [`Key::from_words`] with the fastest backend `platform` allows.
    pub fn from_words_on(platform: Platform, r: [i32; 4], k: [i32; 4]) -> Key {
        Key::with_backend(platform, Backend::for_platform(platform), r, k)
    }

    /// A key on `backend`, which the evidence `platform` must allow (its
    /// kernels assert the features they need). Besides `from_words_on`, the
    /// tests use it to run the AVX-512 backend the dispatch does not pick on
    /// this CPU (see `integer_lanes_pay`).
    fn with_backend(platform: Platform, backend: Backend, r: [i32; 4], k: [i32; 4]) -> Key {
        let rm = words_mod_p(r);
        Key {
            inner: Arc::new(KeyInner {
                platform,
                backend,
                r_words: r,
                k_words: k,
                r: rm,
                powers: portable::Powers::new(rm),
                k: words_mod_p(k),
                table: OnceLock::new(),
                lazy_bytes: AtomicU64::new(0),
                short: OnceLock::new(),
                short_uses: AtomicU64::new(0),
                int26: OnceLock::new(),
                #[cfg(target_arch = "x86_64")]
                int8: OnceLock::new(),
            }),
        }
    }

    /// Build the fast path's table of powers now, if the key's backend is a
    /// vector one (otherwise nothing to do), in the layout of every vector
    /// backend the default dispatch may pick.
    pub fn precompute(&self) {
        self.precompute_for(self.inner.backend)
    }

    /// The name of the backend this key chose when it was set up
    /// (`"portable"`, `"avx2fma"`, `"avx512"` or `"avx512-int26"`; `"neon"`
    /// on aarch64).
    pub fn backend(&self) -> &'static str {
        self.inner.backend.name()
    }

    /// [`Key::precompute`] for the backend `platform` selects.
    pub fn precompute_on(&self, platform: Platform) {
        self.precompute_for(Backend::for_platform(platform))
    }

    /// The short path's powers and `backend`'s table.
    fn precompute_for(&self, backend: Backend) {
        self.inner.short.get_or_init(|| portable::ShortPowers::new(self.inner.r, self.inner.k));
        match backend {
            Backend::Portable => {}
            Backend::Int26 => {
                self.int26();
            }
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => {
                self.int26();
            }
            Backend::Avx2Fma => {
                self.table();
            }
            Backend::Avx512 => {
                self.table().tab8();
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Int => {
                self.int8();
            }
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Avx512Int => {}
        }
    }

    /// Which backend a message of `len` bytes (or a stream, `len = 0` so far)
    /// takes under this key on `b`: the portable one while the table is not
    /// built and this key has hashed less than `LAZY_BYTES` in all.
    fn pick(&self, b: Backend, len: usize) -> Backend {
        if b.is_portable()
            || self.tables_built()
            || len >= LAZY_BYTES
            || self.inner.lazy_bytes.load(Ordering::Relaxed) >= LAZY_BYTES as u64
        {
            b
        } else {
            Backend::Portable
        }
    }

    /// Whether a vector backend's powers are built (then every message takes
    /// the key's backend).
    fn tables_built(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.inner.int8.get().is_some() {
            return true;
        }
        self.inner.table.get().is_some()
    }

    /// The short path's powers, built from the second short message on.
    fn short(&self) -> Option<&portable::ShortPowers> {
        if let Some(s) = self.inner.short.get() {
            return Some(s);
        }
        if self.inner.short_uses.fetch_add(1, Ordering::Relaxed) == 0 {
            return None;
        }
        Some(self.inner.short.get_or_init(|| portable::ShortPowers::new(self.inner.r, self.inner.k)))
    }

    /// `r mod p`.
    pub(crate) fn r(&self) -> u128 {
        self.inner.r
    }

    fn table(&self) -> &fp::Table {
        self.inner.table.get_or_init(|| fp::Table::new(self.inner.r_words))
    }

    fn int26(&self) -> &int26::Table {
        self.inner.int26.get_or_init(|| int26::Table::new(self.inner.r))
    }

    /// The integer AVX-512 backend's powers (577 powers of `r`, about
    /// 10 µs), built once per key as the floating-point table is (see
    /// [`LAZY_BYTES`]).
    #[cfg(target_arch = "x86_64")]
    fn int8(&self) -> &avx512i::Table {
        self.inner.int8.get_or_init(|| avx512i::Table::new(self.inner.r))
    }
}

/// Full chunks (in bytes) the fast path hashes between two squeezes; see
/// the exactness bound at `fp::GROUPS`.
pub const CHUNK_BYTES: usize = fp::CHUNK_BYTES;

/// Messages of at least this many bytes, or this many bytes hashed under one
/// key in all, build the key's table of powers for the fast path (see
/// [`Key::from_words`]). Below it the portable path is used: building the
/// table costs about as much as hashing 16 KiB on the portable path.
pub const LAZY_BYTES: usize = 16 << 10;

/// One-shot messages shorter than this take the AVX2 backend even where the
/// CPU has AVX-512F (measured crossover: about 0.9 KiB; see
/// `docs/perf/hash127.md`).
pub const AVX512_MIN: usize = 1024;

/// Default for [`Hash127::parallel_min`]: slices of at least 4 MiB handed to
/// `update` at once are split across the cores the application allows
/// ([`crate::threads::set_max_threads`]).
pub const PARALLEL_MIN: usize = crate::threads::PARALLEL_MIN;

/// For [`crate::partial`]: the value mod `p`, in `[0, p−1]`, of one piece
/// of a message hashed on its own: `Σ m_i r^(l−i)` over its `l` words (the
/// words of `pad(piece, 4)` when `pad`), plus `r^(l+1)` for the piece that
/// starts the message (`first`: the implicit leading 1). `k` is not added.
/// Without `pad`, `piece.len()` must be a multiple of 4.
pub(crate) fn piece_value(key: &Key, piece: &[u8], first: bool, pad: bool) -> u128 {
    debug_assert!(pad || piece.len().is_multiple_of(4));
    let p = key.inner.platform;
    let wanted = key.inner.backend.for_len(piece.len());
    let b = key.pick(wanted, piece.len());
    if b != wanted {
        key.inner.lazy_bytes.fetch_add(piece.len() as u64, Ordering::Relaxed);
    }
    let mut acc = if first { Acc::start(b, key) } else { Acc::from_value(b, 0) };
    let whole = if pad { piece.len() / CHUNK_BYTES * CHUNK_BYTES } else { piece.len().saturating_sub(1) / CHUNK_BYTES * CHUNK_BYTES };
    if whole > 0 {
        absorb_bulk(&mut acc, p, b, key, &piece[..whole], crate::threads::parallel_min());
    }
    let rest = &piece[whole..];
    let (words, tail) = rest.split_at(rest.len() / 4 * 4);
    acc.last(p, key, words, pad.then(|| pad_word(tail)));
    let x = acc.finish(p, key, [0; 4]);
    acc.wipe();
    x
}

/// Streaming hash127 state.
#[derive(Clone)]
pub struct Hash127 {
    key: Key,
    /// The evidence `wanted` was chosen from (passed to its kernels).
    platform: Platform,
    backend: Backend,
    /// The backend asked for: `backend` is the portable one until the key's
    /// table is worth building (see [`LAZY_BYTES`]), then this one.
    wanted: Backend,
    acc: Acc,
    /// Bytes not yet absorbed: less than one chunk.
    buf: [u8; CHUNK_BYTES],
    buf_len: usize,
    /// How much of `buf` was ever written (what `drop` must wipe).
    buf_used: usize,
    bytes: u64,
    par_min: usize,
}

impl Hash127 {
    /// Start hashing under `key` with the backend the key chose when it was
    /// set up (the fastest of this CPU for [`Key::new`]).
    pub fn new(key: &Key) -> Hash127 {
        Self::start(key, key.inner.platform, key.inner.backend)
    }

    /// Start hashing with the fastest backend `platform` allows (tests and
    /// benchmarks pass each of `Platform::variants`).
    pub fn new_on(platform: Platform, key: &Key) -> Hash127 {
        Self::start(key, platform, Backend::for_platform(platform))
    }

    fn start(key: &Key, platform: Platform, wanted: Backend) -> Hash127 {
        let backend = key.pick(wanted, 0);
        Hash127 {
            key: key.clone(),
            platform,
            backend,
            wanted,
            acc: Acc::start(backend, key),
            buf: [0; CHUNK_BYTES],
            buf_len: 0,
            buf_used: 0,
            bytes: 0,
            par_min: crate::threads::parallel_min(),
        }
    }

    /// Split slices of at least `bytes` given to one `update` across the
    /// available cores (default [`PARALLEL_MIN`]; `usize::MAX` keeps one
    /// thread). The result does not depend on it.
    pub fn parallel_min(mut self, bytes: usize) -> Hash127 {
        self.par_min = bytes;
        self
    }

    /// The name of the backend in use (`"portable"` for the start of a
    /// stream whose key has no table yet, see [`LAZY_BYTES`]; otherwise
    /// the key's backend, see [`Key::backend`]).
    pub fn backend(&self) -> &'static str {
        self.backend.name()
    }

    fn count_lazy(&self) {
        if self.backend != self.wanted {
            self.key.inner.lazy_bytes.fetch_add(self.bytes, Ordering::Relaxed);
        }
    }

    /// Start hashing under `key` on the radix-`2^26` integer backend
    /// (`int26.rs`, the paper's section 7), whatever the CPU: for tests and
    /// benchmarks, and for callers that want no floating point at all.
    pub fn new_int26(key: &Key) -> Hash127 {
        Self::start(key, key.inner.platform, Backend::Int26)
    }

    /// Absorb more bytes of the message.
    pub fn update(&mut self, mut data: &[u8]) {
        self.bytes += data.len() as u64;
        if self.backend != self.wanted && self.bytes >= LAZY_BYTES as u64 {
            // Long enough to be worth the table: carry the value over
            // (any chunking gives the same value).
            let v = self.acc.finish(self.platform, &self.key, [0; 4]);
            self.acc.wipe();
            self.backend = self.wanted;
            self.acc = Acc::from_value(self.wanted, v);
        }
        if self.buf_len > 0 {
            let take = (CHUNK_BYTES - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            self.buf_used = self.buf_used.max(self.buf_len);
            data = &data[take..];
            if self.buf_len < CHUNK_BYTES {
                return;
            }
            self.acc.chunks(self.platform, &self.key, &self.buf);
            self.buf_len = 0;
        }
        let whole = data.len() / CHUNK_BYTES * CHUNK_BYTES;
        if whole > 0 {
            absorb_bulk(&mut self.acc, self.platform, self.backend, &self.key, &data[..whole], self.par_min);
        }
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
        self.buf_used = self.buf_used.max(self.buf_len);
    }

    /// `hash127-raw`: an error unless the message length is a multiple of 4.
    pub fn finalize_raw(mut self) -> Result<[u8; 16], Error> {
        if !self.buf_len.is_multiple_of(4) {
            return Err(Error::Message {
                name: "hash127-raw".into(),
                reason: format!("message length {} is not a multiple of 4", self.bytes),
            });
        }
        let n = self.buf_len;
        self.acc.last(self.platform, &self.key, &self.buf[..n], None);
        self.count_lazy();
        Ok(encode(self.acc.finish(self.platform, &self.key, self.key.inner.k_words)))
    }

    /// `hash127`: the message padded with `pad(M, 4)`.
    pub fn finalize(mut self) -> [u8; 16] {
        let n = self.buf_len;
        let (whole, tail) = self.buf[..n].split_at(n / 4 * 4);
        let last = pad_word(tail);
        self.acc.last(self.platform, &self.key, whole, Some(last));
        self.count_lazy();
        encode(self.acc.finish(self.platform, &self.key, self.key.inner.k_words))
    }
}

/// The last word of `pad(M, 4)`: the 0–3 bytes after `M`'s whole words, then
/// `0x01`, then zeros.
fn pad_word(tail: &[u8]) -> i32 {
    // The tail's bytes, then 1, little-endian (no copy loop: `tail` has 0–3 bytes).
    let w = tail.iter().rev().fold(1u32, |w, &b| (w << 8) | b as u32);
    w as i32
}

/// One-shot hash of `msg` on one backend: whole chunks straight from `msg`
/// (split across cores from `par_min` bytes on), the rest plus, for
/// `hash127`, the padding word, as one last chunk. No copy of the message.
/// `p` is the evidence `b` was chosen from.
fn oneshot(key: &Key, p: Platform, b: Backend, msg: &[u8], pad: bool, par_min: usize) -> u128 {
    // The integer AVX-512 kernel takes a whole message at once on one core:
    // its own chunks, then one last chunk with the padding word.
    #[cfg(target_arch = "x86_64")]
    if b == Backend::Avx512Int && !crate::threads::parallel(msg.len(), par_min) {
        let (words, tail) = msg.split_at(msg.len() / 4 * 4);
        let mut v = int26::from_u128(key.r());
        avx512i::absorb(p, &mut v, key.int8(), words, pad.then(|| pad_word(tail)));
        let x = int26::finish(&v, key.inner.k);
        v.zeroize();
        return x;
    }
    let mut acc = Acc::start(b, key);
    // Keep at least one word for the last chunk, so `last` never gets more
    // than a chunk (the padding word makes one more).
    let whole = if pad { msg.len() / CHUNK_BYTES * CHUNK_BYTES } else { msg.len().saturating_sub(1) / CHUNK_BYTES * CHUNK_BYTES };
    if whole > 0 {
        absorb_bulk(&mut acc, p, b, key, &msg[..whole], par_min);
    }
    let rest = &msg[whole..];
    let (words, tail) = rest.split_at(rest.len() / 4 * 4);
    acc.last(p, key, words, pad.then(|| pad_word(tail)));
    let x = acc.finish(p, key, key.inner.k_words);
    acc.wipe();
    x
}

/// [`oneshot`] on the key's backend, or the portable one while the key's
/// table is not worth building yet (see [`LAZY_BYTES`]).
fn oneshot_lazy(key: &Key, msg: &[u8], pad: bool) -> u128 {
    let p = key.inner.platform;
    // Short messages: independent products with precomputed powers, one
    // reduction, no vector state to set up and squeeze.
    if msg.len() / 4 + pad as usize <= portable::SHORT_WORDS {
        if let Some(sp) = key.short() {
            let (words, tail) = msg.split_at(msg.len() / 4 * 4);
            let tail = pad.then(|| pad_word(tail));
            #[cfg(target_arch = "x86_64")]
            if words.len() >= 32 && p.avx2_fma() {
                let off = portable::SHORT_WORDS - (words.len() / 4 + tail.is_some() as usize);
                let head = words.len() / 16 * 4;
                let cols = avx2::short_head(p, sp, &words[..4 * head], off);
                return portable::short_from_columns(sp, words, tail, head, &cols);
            }
            #[cfg(target_arch = "aarch64")]
            if words.len() >= 32 && p.has(crate::platform::Feature::Neon) {
                let off = portable::SHORT_WORDS - (words.len() / 4 + tail.is_some() as usize);
                let head = words.len() / 16 * 4;
                let cols = neon::short_head(p, sp, &words[..4 * head], off);
                return portable::short_from_columns(sp, words, tail, head, &cols);
            }
            return portable::short(sp, words, tail);
        }
    }
    let wanted = key.inner.backend.for_len(msg.len());
    let b = key.pick(wanted, msg.len());
    if b != wanted {
        key.inner.lazy_bytes.fetch_add(msg.len() as u64, Ordering::Relaxed);
    }
    oneshot(key, p, b, msg, pad, crate::threads::parallel_min())
}

impl Drop for Hash127 {
    fn drop(&mut self) {
        self.acc.wipe();
        self.buf[..self.buf_used].zeroize();
    }
}

/// `hash127-raw(key, M)` (docs/WIRE.md §2): `M` must be a whole number of words.
pub fn hash127_raw(key: &Key, msg: &[u8]) -> Result<[u8; 16], Error> {
    if !msg.len().is_multiple_of(4) {
        return Err(Error::Message {
            name: "hash127-raw".into(),
            reason: format!("message length {} is not a multiple of 4", msg.len()),
        });
    }
    Ok(encode(oneshot_lazy(key, msg, false)))
}

/// `hash127(key, M)` = `hash127-raw(key, pad(M, 4))` (docs/WIRE.md §2).
pub fn hash127(key: &Key, msg: &[u8]) -> [u8; 16] {
    encode(oneshot_lazy(key, msg, true))
}

/// [`hash127`] (`pad = true`) or [`hash127_raw`] on the fastest backend
/// `platform` allows, at every length (no short-message or lazy-table
/// refinement), split across cores for messages of at least `par_min`
/// bytes; `None` if `M` is not whole words for `hash127-raw`. For tests and
/// benchmarks that compare backends over `Platform::variants`.
pub fn hash127_on(platform: Platform, key: &Key, msg: &[u8], pad: bool, par_min: usize) -> Option<[u8; 16]> {
    if !pad && !msg.len().is_multiple_of(4) {
        return None;
    }
    Some(encode(oneshot(key, platform, Backend::for_platform(platform), msg, pad, par_min)))
}

/// [`hash127`] (`pad = true`) or [`hash127_raw`] on the radix-`2^26`
/// integer backend (`int26.rs`), as [`hash127_on`] does for the others;
/// `None` if `M` is not whole words for `hash127-raw`.
pub fn hash127_int26(key: &Key, msg: &[u8], pad: bool, par_min: usize) -> Option<[u8; 16]> {
    if !pad && !msg.len().is_multiple_of(4) {
        return None;
    }
    Some(encode(oneshot(key, key.inner.platform, Backend::Int26, msg, pad, par_min)))
}

/// The original package's `hash127_little`: signed words in, the four output
/// words (as unsigned) out.
pub fn hash127_words(key: &Key, m: &[i32]) -> [u32; 4] {
    let bytes: Vec<u8> = m.iter().flat_map(|w| w.to_le_bytes()).collect();
    let x = u128::from_le_bytes(hash127_raw(key, &bytes).expect("whole words"));
    core::array::from_fn(|i| (x >> (32 * i)) as u32)
}

#[cfg(test)]
mod tests;
