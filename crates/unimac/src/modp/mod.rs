use crate::prelude::*;
#[cfg(not(feature = "std"))]
#[allow(unused_imports)] // std's methods win wherever a dependency links std
use crate::float::F64Math;
use core::fmt;

use crate::traits::{Entry, Info, KeySpec, Keyed, Params, Stream};
use crate::error::Error;
use crate::platform::{Backend as _, Platform};

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx512;
mod portable;

pub use portable::{BLOCK_BYTES, K};

/// Bytes per block of the AVX-512 IFMA52 kernel (0 where there is none).
#[cfg(target_arch = "x86_64")]
pub const IFMA_BLOCK_BYTES: usize = avx512::BLOCK_BYTES;
#[cfg(not(target_arch = "x86_64"))]
pub const IFMA_BLOCK_BYTES: usize = 0;

/// Inputs from this many bytes on take the IFMA52 kernel where the CPU has
/// it (its tables are built on the first such input).
pub(crate) const IFMA_MIN_BYTES: usize = 4 * IFMA_BLOCK_BYTES;

/// Bytes that both kernels absorb whole: a multiple of both block sizes.
pub(crate) const UNIT: usize = max(IFMA_BLOCK_BYTES, BLOCK_BYTES);

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// Bytes a [`ModpStream`] gathers before absorbing them.
const STREAM_CHUNK: usize = 64 << 10;
const _: () = assert!(STREAM_CHUNK.is_multiple_of(UNIT) && UNIT.is_multiple_of(BLOCK_BYTES));

/// A reduction kernel (private: chosen once per key from a [`Platform`],
/// the only evidence of CPU features, which the key keeps for the kernel to
/// check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    /// `u64 × u64 → u128` products (`portable`).
    Portable,
    /// AVX-512 IFMA52, eight words per instruction.
    Avx512Ifma,
}

impl crate::platform::Backend for Backend {
    fn for_platform(p: Platform) -> Backend {
        if cfg!(target_arch = "x86_64") && p.avx512ifma() {
            Backend::Avx512Ifma
        } else {
            Backend::Portable
        }
    }

    fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx512Ifma => "avx512ifma",
        }
    }
}

/// Bytes of a key (`p`, little-endian).
pub const KEY_BYTES: usize = 16;

/// A secret prime `p` in `[2^120, 2^128)` with its tables (`2^(64i) mod p` for
/// one block, Montgomery's constants). Zeroized on drop; `Debug` shows no key
/// material. Build with [`SecretPrime::generate`] or [`SecretPrime::from_bytes`].
pub struct SecretPrime {
    t: portable::Tables,
    /// The evidence the key was set up with, and the kernel it chose for
    /// long integers.
    platform: Platform,
    backend: Backend,
    /// The IFMA52 kernel's digits, built on first use (they zeroize
    /// themselves when dropped).
    #[cfg(target_arch = "x86_64")]
    ifma: crate::sync::OnceLock<avx512::IfmaTables>,
}

impl fmt::Debug for SecretPrime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretPrime { .. }")
    }
}

fn not_a_key(why: &str) -> Error {
    Error::Invalid(format!("modp: the key must be an odd prime in [2^120, 2^128), 16 bytes little-endian: {why}"))
}

/// Miller–Rabin rounds of the key check with bases from the operating
/// system's random generator: a composite passes one round with probability
/// at most 1/4 (Rabin), so a composite key is accepted with probability at
/// most `4^-48 = 2^-96`, whoever chose it.
pub(crate) const PRIME_ROUNDS: usize = 48;

/// Whether the odd `n ≥ 3` is prime (up to the error of [`PRIME_ROUNDS`]
/// random-base Miller–Rabin rounds), in a time independent of `n`: the
/// split `n − 1 = 2^s·d` is found with masks over all 127 possible `s`, every
/// power is a constant-time Montgomery exponentiation of `crypto-bigint`, and
/// every round squares 127 times whatever `s` is, folding the comparisons
/// into a `subtle::Choice`. `rounds` random bases are tried.
pub(crate) fn is_prime_ct(n: u128, rounds: usize) -> Result<bool, Error> {
    use crypto_bigint::modular::{FixedMontyForm, FixedMontyParams};
    use crypto_bigint::{Odd, U128};
    use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, ConstantTimeLess};

    let m = zeroize::Zeroizing::new(n.wrapping_sub(1));
    // s = the number of trailing zeros of n − 1 (n odd, so s ≥ 1).
    let mut s = 0u32;
    for k in 1..128u32 {
        let low = *m & ((1u128 << k) - 1);
        s += u32::conditional_select(&0, &1, low.ct_eq(&0));
    }
    // d = (n − 1) >> s, selected among all shifts.
    let mut d = zeroize::Zeroizing::new(0u128);
    for k in 1..128u32 {
        d.conditional_assign(&(*m >> k), s.ct_eq(&k));
    }
    let odd: Option<Odd<U128>> = Odd::new(U128::from_u128(n)).into();
    let Some(odd) = odd else { return Ok(false) };
    let params = FixedMontyParams::new(odd);
    let one = FixedMontyForm::one(&params);
    let minus_one = FixedMontyForm::new(&U128::from_u128(*m), &params);
    let d = U128::from_u128(*d);
    let mut prime = Choice::from(1);
    let mut base = zeroize::Zeroizing::new([0u8; 16]);
    for _ in 0..rounds {
        crate::rng::fill(&mut *base)
            .map_err(|e| Error::Invalid(crate::rng::failed(&e)))?;
        let a = FixedMontyForm::new(&U128::from_le_slice(&*base), &params);
        let mut x = a.pow(&d);
        // n passes the round if a^d = 1 or a^(2^i·d) = −1 for some i < s;
        // the bases 0 and ±1 test nothing, and pass (probability 3/n).
        let zero = FixedMontyForm::zero(&params);
        let mut pass = x.ct_eq(&one) | a.ct_eq(&zero) | a.ct_eq(&one) | a.ct_eq(&minus_one);
        for i in 0..127u32 {
            pass |= i.ct_lt(&s) & x.ct_eq(&minus_one);
            x = x.square();
        }
        prime &= pass;
    }
    Ok(bool::from(prime))
}

impl SecretPrime {
    /// A uniformly random prime in `[2^120, 2^128)` from the operating system's
    /// random generator: uniform odd numbers of the range are drawn until one
    /// is prime, so every prime of the range is equally likely.
    pub fn generate() -> Result<SecretPrime, Error> {
        let mut b = zeroize::Zeroizing::new([0u8; 16]);
        loop {
            crate::rng::fill(&mut *b)
                .map_err(|e| Error::Invalid(crate::rng::failed(&e)))?;
            let x = zeroize::Zeroizing::new(u128::from_le_bytes(*b) | 1);
            // One round rejects most composites; the candidate kept passes
            // all. Both run in a time independent of the candidate, and the
            // candidates rejected before it are independent of it.
            if *x >> 120 != 0 && is_prime_ct(*x, 1)? && is_prime_ct(*x, PRIME_ROUNDS)? {
                return Ok(SecretPrime::with_tables(portable::Tables::new(*x)));
            }
        }
    }

    /// The key `p` as 16 little-endian bytes; an error unless `p` is an odd
    /// prime in `[2^120, 2^128)`.
    pub fn from_bytes(key: &[u8]) -> Result<SecretPrime, Error> {
        let k: [u8; 16] = key.try_into().map_err(|_| Error::KeyLength {
            name: "modp".into(),
            expected: KEY_BYTES.to_string(),
            got: key.len(),
        })?;
        let p = zeroize::Zeroizing::new(u128::from_le_bytes(k));
        if *p >> 120 == 0 {
            return Err(not_a_key("below 2^120"));
        }
        if *p & 1 == 0 || !is_prime_ct(*p, PRIME_ROUNDS)? {
            return Err(not_a_key("not prime"));
        }
        Ok(SecretPrime::with_tables(portable::Tables::new(*p)))
    }

    /// The key `p`, 16 bytes little-endian (for writing a key file).
    pub fn to_bytes(&self) -> zeroize::Zeroizing<[u8; 16]> {
        zeroize::Zeroizing::new(self.t.p.to_le_bytes())
    }

    /// The key's set-up: the kernel for long integers is chosen here, once,
    /// from [`Platform::detect`].
    fn with_tables(t: portable::Tables) -> SecretPrime {
        let platform = Platform::detect();
        SecretPrime {
            t,
            platform,
            backend: Backend::for_platform(platform),
            #[cfg(target_arch = "x86_64")]
            ifma: crate::sync::OnceLock::new(),
        }
    }

    /// `M mod p` as an integer in `[0, p)`, `M` the little-endian integer of
    /// `m` (empty = 0).
    pub(crate) fn reduce_u128(&self, m: &[u8]) -> u128 {
        let full = m.len() / UNIT * UNIT;
        let w = self.absorb_auto(0, &m[..full]);
        portable::finish(&self.t, w, full as u64, portable::reduce(&self.t, &m[full..]))
    }

    /// [`reduce_u128`](Self::reduce_u128) on the fastest kernel `platform`
    /// allows, at every length and on one thread (tests and benchmarks pass
    /// each of `Platform::variants`).
    pub(crate) fn reduce_on(&self, platform: Platform, m: &[u8]) -> u128 {
        self.reduce_with(platform, Backend::for_platform(platform), m)
    }

    /// `M mod p` on `backend` at every length, one thread; `platform` must
    /// show the backend's features (its kernel asserts them).
    fn reduce_with(&self, platform: Platform, backend: Backend, m: &[u8]) -> u128 {
        let full = m.len() / UNIT * UNIT;
        let w = self.absorb(platform, backend, 0, &m[..full]);
        portable::finish(&self.t, w, full as u64, portable::reduce(&self.t, &m[full..]))
    }

    /// The kernel `platform` selects for long integers: `"portable"` or
    /// `"avx512ifma"`.
    pub(crate) fn backend_on(platform: Platform) -> &'static str {
        Backend::for_platform(platform).name()
    }

    /// The kernel this key chose for long integers when it was set up:
    /// `"portable"` or `"avx512ifma"`.
    pub(crate) fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// Whole units `x` (a multiple of [`UNIT`] bytes) after `w` on `backend`:
    /// both backends keep `w ≡ A·2^(-8n)` for the `n` bytes read so far.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    fn absorb(&self, platform: Platform, backend: Backend, w: u128, x: &[u8]) -> u128 {
        match backend {
            Backend::Portable => portable::absorb(&self.t, w, x),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Ifma => {
                let it = self.ifma.get_or_init(|| avx512::IfmaTables::new(&self.t));
                avx512::absorb(platform, &self.t, it, w, x)
            }
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Avx512Ifma => unreachable!("no IFMA kernel off x86-64; for_platform never picks it"),
        }
    }

    /// [`absorb`](Self::absorb) on the backend that suits `x.len()`; from
    /// [`crate::threads::PARALLEL_MIN`] bytes on, split across the threads
    /// the application allows: each piece from `w = 0`, joined by
    /// `w ← w·T^(−J) + w_piece` (`J` blocks of `8K` bytes in the piece,
    /// `T = 2^(64K)`).
    fn absorb_auto(&self, w: u128, x: &[u8]) -> u128 {
        if !crate::threads::parallel(x.len(), crate::threads::parallel_min()) {
            return self.absorb_one(w, x);
        }
        let pieces = crate::threads::split(x.len(), UNIT, crate::threads::parallel_min());
        if pieces.len() < 2 {
            return self.absorb_one(w, x);
        }
        let t = &self.t;
        let values = crate::threads::map(&pieces, |r| self.absorb_one(0, &x[r.clone()]));
        // T^-1 = (2^-128)^(K/2), 2^-128 = mont(1, 1).
        const _: () = assert!(K.is_multiple_of(2));
        let t_inv = portable::pow_mod(t, portable::mont(t, 1, 1), (K / 2) as u64);
        let mut w = portable::freeze(w, t.p);
        for (v, r) in values.into_iter().zip(&pieces) {
            let shift = portable::pow_mod(t, t_inv, (r.len() / BLOCK_BYTES) as u64);
            w = portable::add_mod(t, portable::mul_mod(t, w, shift), portable::freeze(v, t.p));
        }
        w
    }

    fn absorb_one(&self, w: u128, x: &[u8]) -> u128 {
        // (IFMA_MIN_BYTES is 0 on targets without the IFMA code.)
        #[allow(clippy::absurd_extreme_comparisons)]
        let b = if x.len() >= IFMA_MIN_BYTES { self.backend } else { Backend::Portable };
        self.absorb(self.platform, b, w, x)
    }

    /// Start reducing an integer that arrives in pieces, lowest bytes first.
    pub fn start(self: &alloc::sync::Arc<Self>) -> ModpStream {
        ModpStream { key: alloc::sync::Arc::clone(self), w: 0, n: 0, buf: zeroize::Zeroizing::new(Vec::with_capacity(STREAM_CHUNK)) }
    }

    /// `M mod p`, 16 bytes little-endian (`modp`, docs/WIRE.md §7).
    pub fn reduce(&self, m: &[u8]) -> [u8; 16] {
        self.reduce_u128(m).to_le_bytes()
    }

    /// Whether `a² ≡ bc + de (mod p)`, each of `a, …, e` a non-negative
    /// integer as little-endian bytes. True whenever `a² = bc + de`; for a
    /// false identity chosen without knowledge of `p`, true with probability
    /// at most `2^`[`false_accept_log2`]`(`[`identity_bits`]`(a, …, e))`
    /// over the key (module documentation).
    pub fn check_identity(&self, a: &[u8], b: &[u8], c: &[u8], d: &[u8], e: &[u8]) -> bool {
        let t = &self.t;
        let [a, b, c, d, e] = [a, b, c, d, e].map(|x| portable::reduce(t, x));
        let lhs = portable::mul_mod(t, a, a);
        let rhs = portable::add_mod(t, portable::mul_mod(t, b, c), portable::mul_mod(t, d, e));
        use subtle::ConstantTimeEq;
        bool::from(lhs.to_le_bytes().ct_eq(&rhs.to_le_bytes()))
    }
}

/// Bits of the little-endian integer of `x` (0 for zero).
pub fn bit_len(x: &[u8]) -> u64 {
    match x.iter().rposition(|&b| b != 0) {
        None => 0,
        Some(i) => 8 * i as u64 + (8 - x[i].leading_zeros()) as u64,
    }
}

/// `N` with `|a² − bc − de| < 2^N`: `max(2|a|, max(|b| + |c|, |d| + |e|) + 1)`
/// in bits (`a² < 2^(2|a|)`, `bc + de < 2^(max + 1)`, and `|x − y| ≤ max(x, y)`
/// for non-negative `x, y`).
pub fn identity_bits(a: &[u8], b: &[u8], c: &[u8], d: &[u8], e: &[u8]) -> u64 {
    let [a, b, c, d, e] = [a, b, c, d, e].map(bit_len);
    (2 * a).max((b + c).max(d + e) + 1)
}

/// log2 of a lower bound on the number of primes in `[2^120, 2^128)`:
/// `π(2^128) − π(2^120) > 2^128/(128 ln 2) − 1.25506·2^120/(120 ln 2)`, by
/// `π(x) > x/ln x` (x ≥ 17) and `π(x) < 1.25506 x/ln x` (x > 1) of Rosser and
/// Schoenfeld (1962). About `2^121.52`.
pub fn primes_in_range_log2() -> f64 {
    let ln2 = core::f64::consts::LN_2;
    let lo = 2f64.powi(128) / (128.0 * ln2) - 1.25506 * 2f64.powi(120) / (120.0 * ln2);
    lo.log2()
}

/// log2 of the false-accept bound for a nonzero difference `|D| < 2^N`:
/// `⌊(N − 1)/120⌋` over the number of primes in `[2^120, 2^128)` (about `2^121.52`); `-inf` (probability 0)
/// when `N ≤ 120`.
pub fn false_accept_log2(n_bits: u64) -> f64 {
    let j = n_bits.saturating_sub(1) / 120;
    if j == 0 {
        return f64::NEG_INFINITY;
    }
    (j as f64).log2() - primes_in_range_log2()
}

/// `M mod p` under way: the integer's bytes arrive lowest first, in any
/// chunking ([`SecretPrime::start`]).
pub struct ModpStream {
    key: alloc::sync::Arc<SecretPrime>,
    /// `w ≡ A·2^(-8n)` for the `n` bytes absorbed so far, `A` their integer.
    w: u128,
    n: u64,
    /// Fewer than `STREAM_CHUNK` bytes not yet absorbed.
    buf: zeroize::Zeroizing<Vec<u8>>,
}

impl ModpStream {
    /// More bytes of the integer (the next higher ones).
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        if !self.buf.is_empty() {
            let take = (STREAM_CHUNK - self.buf.len()).min(data.len());
            self.buf.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.buf.len() < STREAM_CHUNK {
                return;
            }
            self.w = self.key.absorb_auto(self.w, &self.buf);
            self.n += STREAM_CHUNK as u64;
            self.buf.clear();
        }
        let full = data.len() / STREAM_CHUNK * STREAM_CHUNK;
        self.w = self.key.absorb_auto(self.w, &data[..full]);
        self.n += full as u64;
        self.buf.extend_from_slice(&data[full..]);
    }

    /// `M mod p` in `[0, p)`.
    pub(crate) fn finalize_u128(self) -> u128 {
        let full = self.buf.len() / UNIT * UNIT;
        let w = self.key.absorb_auto(self.w, &self.buf[..full]);
        let t = &self.key.t;
        portable::finish(t, w, self.n + full as u64, portable::reduce(t, &self.buf[full..]))
    }

    /// `M mod p`, 16 bytes little-endian.
    pub fn finalize(self) -> [u8; 16] {
        self.finalize_u128().to_le_bytes()
    }
}

impl Stream for ModpStream {
    fn update(&mut self, data: &[u8]) {
        ModpStream::update(self, data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(ModpStream::finalize(*self).to_vec())
    }
}

/// The registry's keyed `modp` (the key's tables built once).
struct KeyedModp(alloc::sync::Arc<SecretPrime>);

impl Keyed for KeyedModp {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(self.0.start()))
    }
    fn compute(&self, _nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(self.0.reduce(msg).to_vec())
    }
    fn compute_into(&self, _nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        crate::traits::put(out, self.0.reduce(msg).as_ref())
    }
}

pub(crate) fn catalog() -> Vec<Entry> {
    vec![Entry::keyed(
        Info {
            name: "modp".into(),
            key: KeySpec::Fixed(KEY_BYTES),
            nonce: 0,
            out: 16,
            takes_len: false,
            summary: "M mod p, p a secret prime in [2^120, 2^128), M little-endian (Bernstein, “Floating-point arithmetic and message authentication”; docs/WIRE.md §7)".into(),
        },
        |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
            Ok(Box::new(KeyedModp(alloc::sync::Arc::new(SecretPrime::from_bytes(p.key)?))))
        },
    )]
}

// Every test here loads a key, which takes random bases (`getrandom`).
#[cfg(all(test, feature = "getrandom"))]
mod tests;
