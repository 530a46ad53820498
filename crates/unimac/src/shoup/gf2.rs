//! Portable constant-time arithmetic in `GF(2)[x]`: carry-less multiplication,
//! `GF(2^64) = GF(2)[x]/(f)` with `f = x^64 + x^4 + x^3 + x + 1` (Shoup, "On fast and
//! provably secure message authentication based on universal hashing", §5),
//! and Barrett reduction modulo any monic polynomial of degree 64 (§6.1).
//!
//! Nothing here branches on, or indexes memory with, its operands.

use zeroize::Zeroize;

/// `f − x^64 = x^4 + x^3 + x + 1`: the low coefficients of the field polynomial.
pub const F_LO: u64 = 0x1b;

const fn mask64(r: u32) -> u64 {
    let mut m = 0u64;
    let mut i = r;
    while i < 64 {
        m |= 1 << i;
        i += 5;
    }
    m
}

const fn mask128(r: u32) -> u128 {
    let mut m = 0u128;
    let mut i = r;
    while i < 128 {
        m |= 1 << i;
        i += 5;
    }
    m
}

const M64: [u64; 5] = [mask64(0), mask64(1), mask64(2), mask64(3), mask64(4)];
const M128: [u128; 5] = [mask128(0), mask128(1), mask128(2), mask128(3), mask128(4)];

/// The carry-less product `x · y` (degree ≤ 126), by integer multiplication
/// "with holes" (BearSSL's trick, with holes 5 bits apart so that one 64×64→128
/// integer multiply serves a whole residue class).
///
/// Exactness: `x_i = x & M_i` keeps the bits at positions ≡ i (mod 5), at most 13
/// of them. In the integer product `x_i · y_j` the count of bit pairs landing on a
/// column `c` is at most 13 < 2^4, so it occupies bits `c..c+3` and never reaches
/// the next column of the class, `c + 5`: bit `c` of the product is the parity of
/// the count, i.e. the carry-less coefficient. Masking each product with its class
/// `M_(i+j) mod 5` and XOR-ing the 25 products gives every coefficient exactly.
#[inline]
pub fn clmul64(x: u64, y: u64) -> u128 {
    let xs = [x & M64[0], x & M64[1], x & M64[2], x & M64[3], x & M64[4]];
    let ys = [y & M64[0], y & M64[1], y & M64[2], y & M64[3], y & M64[4]];
    let mut z = 0u128;
    for (i, &xi) in xs.iter().enumerate() {
        for (j, &yj) in ys.iter().enumerate() {
            z ^= ((xi as u128) * (yj as u128)) & M128[(i + j) % 5];
        }
    }
    z
}

/// `v mod f` for `deg v < 128`: `v_hi x^64 ≡ v_hi (x^4 + x^3 + x + 1)`, folded twice
/// (the first fold overflows by at most 4 bits, the second by none).
#[inline]
pub fn reduce_f(v: u128) -> u64 {
    let hi = (v >> 64) as u64;
    let lo = v as u64;
    let t = hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
    let o = (hi >> 63) ^ (hi >> 61) ^ (hi >> 60);
    lo ^ t ^ o ^ (o << 1) ^ (o << 3) ^ (o << 4)
}

/// `a · b` in GF(2^64) (portable; the key set-ups use the product by
/// PCLMULQDQ where their evidence has it, `shoup::mul_f_on`).
#[inline]
pub fn mul_f(a: u64, b: u64) -> u64 {
    reduce_f(clmul64(a, b))
}

/// A monic modulus `m = x^64 + lo` of degree 64 with its Barrett constant
/// `mu = ⌊x^128 / m⌋ − x^64` (§6.1's division, done by two multiplications).
/// Key material for division64 (the key polynomial): not `Copy`, wiped on
/// drop, and `Debug` shows none of it.
#[derive(Clone, PartialEq, Eq, Zeroize, zeroize::ZeroizeOnDrop)]
pub struct Modulus {
    /// `m − x^64`.
    pub lo: u64,
    /// `⌊x^128 / m⌋ − x^64`.
    pub mu: u64,
}

impl core::fmt::Debug for Modulus {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Modulus { .. }")
    }
}

impl Modulus {
    /// The modulus `x^64 + lo` (any `lo`, reducible or not).
    pub fn new(lo: u64) -> Modulus {
        // Long division of x^128 by m, one quotient bit per step, by masks. The
        // leading step (quotient bit 64) leaves the remainder lo·x^64.
        let m = (1u128 << 64) | lo as u128;
        let mut r = (lo as u128) << 64;
        let mut q = 0u64;
        for i in (0..64).rev() {
            let bit = ((r >> (64 + i)) & 1) as u64;
            q |= bit << i;
            r ^= (m << i) & 0u128.wrapping_sub(bit as u128);
        }
        Modulus { lo, mu: q }
    }

    /// `v mod m` for `deg v < 128` (Barrett: exact for polynomials, no correction).
    ///
    /// With `v = h x^64 + l`: `q = ⌊h · (x^64 + mu) / x^64⌋ = h + hi(h·mu)` is
    /// `⌊h x^64 / m⌋`, and `h x^64 − q m` has degree < 64 and no bits in common
    /// with `h x^64`'s zero low half, so it is `lo64(q · lo)`.
    #[inline]
    pub fn reduce_with(&self, v: u128, clmul: impl Fn(u64, u64) -> u128) -> u64 {
        let h = (v >> 64) as u64;
        let q = h ^ ((clmul(h, self.mu) >> 64) as u64);
        (v as u64) ^ (clmul(q, self.lo) as u64)
    }

    /// [`reduce_with`](Self::reduce_with) by the portable [`clmul64`].
    #[inline]
    #[cfg_attr(not(feature = "unstable"), allow(dead_code))] // used by tests and hazmat
    pub fn reduce(&self, v: u128) -> u64 {
        self.reduce_with(v, clmul64)
    }

    /// `a · b mod m` by [`mul_with`](Self::mul_with) with the portable
    /// [`clmul64`].
    #[inline]
    #[cfg_attr(not(feature = "unstable"), allow(dead_code))] // used by tests and hazmat
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        self.mul_with(a, b, clmul64)
    }

    /// `a · b mod m` with the carry-less product `clmul`.
    #[inline]
    pub fn mul_with(&self, a: u64, b: u64, clmul: impl Fn(u64, u64) -> u128) -> u64 {
        self.reduce_with(clmul(a, b), clmul)
    }

    /// `x^64 mod m`.
    pub fn x64(&self) -> u64 {
        self.lo
    }
}
