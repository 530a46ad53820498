//! The definitions of the MMH paper, generic in the word size `w` and the
//! prime `p`: the "ideal" families MMH* (Definition 2, section 2.4) and NMH*
//! (Definition 9, section 5) over any prime, and the word-oriented families
//! MMH_w (Definition 5), its Toeplitz extension (section 2.4), the hybrid
//! H_w (Definition 6) and NMH_w (Definition 10) for any `w` in {8, 16, 32, 64}
//! and any prime `2^w < p < 2^w + 2^(w/2)` (the footnote of section 3: "any
//! prime which satisfies 2^32 < p < 2^32 + 2^16 will do").
//!
//! This is the research API: plain, exact, not fast. The fast block functions
//! of the wire format (docs/WIRE.md §3) ([`super::portable`], [`super::avx2`]) are tested against this
//! code at `w = 32, p = 2^32 + 15` and `w = 64, p = 2^64 + 13`, and the proof
//! checks run this same code at `w = 8, p = 257`.

// `x % n == 0` rather than `is_multiple_of`, which is stable only since Rust 1.87.
#![allow(clippy::manual_is_multiple_of)]

use crate::prelude::*;
use crate::error::Error;

/// An unsigned machine word of `w` bits.
pub trait Word: Copy + Eq + Default + core::fmt::Debug + Send + Sync + 'static {
    /// `w`.
    const BITS: u32;
    /// The word as an integer.
    fn to_u128(self) -> u128;
    /// `x mod 2^w`.
    fn from_u128(x: u128) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
        }
    };
}
word!(u8);
word!(u16);
word!(u32);
word!(u64);

/// `2^bits - 1` as a `u128` (`bits <= 128`).
#[inline(always)]
fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// A prime `p = 2^w + c` with `0 < c < 2^(w/2)`, the moduli for which the
/// division-less reduction of section 3.1 works (`2^32 + 15`, `2^64 + 13`,
/// and at reduced scale `257 = 2^8 + 1`, `2^16 + 1`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prime<W: Word> {
    c: u128,
    _w: core::marker::PhantomData<W>,
}

impl<W: Word> Prime<W> {
    /// `p = 2^w + c`. Checks `0 < c < 2^(w/2)` and that `p` is odd; whether
    /// `p` is prime is the caller's choice (use [`is_prime`] to check).
    pub fn new(c: u64) -> Result<Self, Error> {
        let c = c as u128;
        if c == 0 || c >= 1u128 << (W::BITS / 2) || c % 2 == 0 {
            return Err(Error::Invalid(format!(
                "mmh: p = 2^{} + {c} must have 0 < c < 2^{} and be odd",
                W::BITS,
                W::BITS / 2
            )));
        }
        Ok(Prime { c, _w: core::marker::PhantomData })
    }

    /// `c = p - 2^w`.
    pub fn c(&self) -> u128 {
        self.c
    }

    /// `p`, if it fits a `u128` (always, as `w <= 64`).
    pub fn p(&self) -> u128 {
        (1u128 << W::BITS) + self.c
    }

    /// `x mod p` for `x < 2^(2w)`, without division (section 3.1).
    ///
    /// Write `x = 2^w a + b`; then `x ≡ b - c a (mod p)` and
    /// `y = b - c a ∈ [-c(2^w - 1), 2^w - 1]`, so `y = 2^w c' + d` with
    /// `c' ∈ [-c, 0]`, `d ∈ [0, 2^w)`. Again `z = d - c c' ≡ x`, now
    /// `z ∈ [0, 2^w - 1 + c^2]`, and as `c^2 < 2^w < p` one conditional
    /// subtraction of `p` finishes. (All intermediates fit an `i128`:
    /// `|c a| < 2^(w/2) 2^w <= 2^96`.)
    #[inline]
    pub fn reduce(&self, x: u128) -> u128 {
        let w = W::BITS;
        debug_assert!(w == 64 || x < 1u128 << (2 * w));
        let a = (x >> w) as i128;
        let b = (x & mask(w)) as i128;
        let y = b - self.c as i128 * a;
        let c1 = y >> w; // floor(y / 2^w), in [-c, 0]
        let d = y & mask(w) as i128;
        let z = (d - self.c as i128 * c1) as u128;
        let p = self.p();
        // Branch-free conditional subtraction.
        let t = z.wrapping_sub(p);
        let keep = 0u128.wrapping_sub(t >> 127); // all ones when z < p
        (t & !keep) | (z & keep)
    }
}

/// Deterministic primality for `n < 2^128` small enough for trial division
/// up to `sqrt(n)` to be quick (`n < 2^40`); larger `n` use Miller–Rabin with
/// the first 20 prime bases over `u128` arithmetic with a big-integer-free
/// modular multiply (correct for `n < 2^127`).
pub fn is_prime(n: u128) -> bool {
    if n < 2 {
        return false;
    }
    for q in [2u128, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71] {
        if n % q == 0 {
            return n == q;
        }
    }
    if n < 1 << 40 {
        let mut q = 73u128;
        while q * q <= n {
            if n % q == 0 {
                return false;
            }
            q += 2;
        }
        return true;
    }
    let mulmod = |mut a: u128, mut b: u128| -> u128 {
        // Double-and-add: exact for n < 2^127.
        let mut r = 0u128;
        a %= n;
        while b > 0 {
            if b & 1 == 1 {
                r = (r + a) % n;
            }
            a = (a + a) % n;
            b >>= 1;
        }
        r
    };
    let powmod = |mut a: u128, mut e: u128| -> u128 {
        let mut r = 1u128;
        while e > 0 {
            if e & 1 == 1 {
                r = mulmod(r, a);
            }
            a = mulmod(a, a);
            e >>= 1;
        }
        r
    };
    let mut d = n - 1;
    let mut s = 0;
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    'bases: for a in [2u128, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71] {
        let mut x = powmod(a, d);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mulmod(x, x);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// MMH* (Definition 2): `g_x(m) = sum_i m_i x_i mod p` over `Z_p`, for any
/// modulus `p < 2^64` (prime for the theorem; the caller chooses). Elements
/// are taken mod `p`; `x.len() == m.len()`.
pub fn mmh_star(p: u64, x: &[u64], m: &[u64]) -> u64 {
    assert_eq!(x.len(), m.len(), "MMH*: key and message have k elements each");
    let p = p as u128;
    let mut s = 0u128;
    for (&xi, &mi) in x.iter().zip(m) {
        // Each product < p^2 < 2^128, reduced before the (then < 2p) sum.
        s = (s + (xi as u128 % p) * (mi as u128 % p) % p) % p;
    }
    s as u64
}

/// NMH* (Definition 9): `sum_{i=1}^{k/2} (m_{2i-1} + x_{2i-1})(m_{2i} + x_{2i}) mod p`,
/// `k` even, any modulus `p < 2^64`.
pub fn nmh_star(p: u64, x: &[u64], m: &[u64]) -> u64 {
    assert_eq!(x.len(), m.len(), "NMH*: key and message have k elements each");
    assert!(m.len() % 2 == 0, "NMH*: k is even");
    let p = p as u128;
    let mut s = 0u128;
    for (xs, ms) in x.chunks_exact(2).zip(m.chunks_exact(2)) {
        let a = (ms[0] as u128 % p + xs[0] as u128 % p) % p;
        let b = (ms[1] as u128 % p + xs[1] as u128 % p) % p;
        s = (s + a * b % p) % p;
    }
    s as u64
}

/// `[sum_i m_i x_i] mod 2^(2w)`: the inner product with the carry out of
/// the double word ignored (section 3.2, second modification).
#[inline]
pub fn inner_product<W: Word>(x: &[W], m: &[W]) -> u128 {
    let mut s = 0u128;
    for (&xi, &mi) in x.iter().zip(m) {
        // Each product < 2^(2w) <= 2^128 fits; the sum wraps at 2^128 and is
        // then cut to 2w bits, which is the same as wrapping at 2^(2w).
        s = s.wrapping_add(xi.to_u128() * mi.to_u128());
    }
    s & mask(2 * W::BITS)
}

/// H_w (Definition 6): `[[sum_i m_i x_i] mod 2^(2w)] mod p`, an element of `Z_p`.
pub fn h_tilde<W: Word>(p: &Prime<W>, x: &[W], m: &[W]) -> u128 {
    assert_eq!(x.len(), m.len(), "H: key and message have k words each");
    p.reduce(inner_product(x, m))
}

/// MMH_w (Definition 5): `[[[sum_i m_i x_i] mod 2^(2w)] mod p] mod 2^w`.
pub fn mmh<W: Word>(p: &Prime<W>, x: &[W], m: &[W]) -> W {
    W::from_u128(h_tilde(p, x, m))
}

/// MMH_w with the Toeplitz key shift of section 2.4: `n` outputs from a key of
/// `k + n - 1` words, output `j` under the key `x_{1+j} .. x_{k+j}`.
pub fn mmh_toeplitz<W: Word>(p: &Prime<W>, x: &[W], m: &[W], n: usize) -> Vec<W> {
    assert_eq!(x.len() + 1, m.len() + n, "Toeplitz MMH: key has k + n - 1 words");
    (0..n).map(|j| mmh(p, &x[j..j + m.len()], m)).collect()
}

/// The inner part of NMH_w: `[sum_{i=1}^{k/2} (m_{2i-1} ± x_{2i-1})(m_{2i} ± x_{2i})] mod 2^(2w)`,
/// `±` addition mod `2^w`.
#[inline]
pub fn nmh_inner<W: Word>(x: &[W], m: &[W]) -> u128 {
    assert_eq!(x.len(), m.len(), "NMH: key and message have k words each");
    assert!(m.len() % 2 == 0, "NMH: k is even");
    let mw = mask(W::BITS);
    let mut s = 0u128;
    for (xs, ms) in x.chunks_exact(2).zip(m.chunks_exact(2)) {
        let a = (ms[0].to_u128() + xs[0].to_u128()) & mw;
        let b = (ms[1].to_u128() + xs[1].to_u128()) & mw;
        s = s.wrapping_add(a * b);
    }
    s & mask(2 * W::BITS)
}

/// The NMH analogue of H_w: NMH_w without the final `mod 2^w`, in `Z_p`.
pub fn nmh_tilde<W: Word>(p: &Prime<W>, x: &[W], m: &[W]) -> u128 {
    p.reduce(nmh_inner(x, m))
}

/// NMH_w (Definition 10): `[[[sum (m_{2i-1} ± x_{2i-1})(m_{2i} ± x_{2i})] mod 2^(2w)] mod p] mod 2^w`.
pub fn nmh<W: Word>(p: &Prime<W>, x: &[W], m: &[W]) -> W {
    W::from_u128(nmh_tilde(p, x, m))
}
