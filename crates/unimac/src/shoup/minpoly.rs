//! The minimal polynomial over GF(2) of `g ∈ GF(2^64)` (Shoup, "On fast and
//! provably secure message authentication based on universal hashing", §6.2), three
//! ways, as the paper describes them:
//!
//! 1. `linear_algebra`: powers `g^0, g^1, …` reduced against each other by
//!    row operations until the first linear relation (Parkinson–Wunderlich).
//! 2. `gordon`: the product of the conjugates `∏ (X − g^(2^i))`, `i < m`.
//! 3. `berlekamp_massey`: Berlekamp–Massey on the projected sequence
//!    `a_i` = constant term of `g^i`, `i < 128` (Wiedemann's idea).
//!
//! Method 3 is the one `division64-key` uses: it is written in constant time
//! (fixed iteration count, masks instead of branches). Methods 1 and 2 branch
//! on the data and serve as cross-checks and timings only.
//!
//! A polynomial is a `u128` with bit `i` the coefficient of `x^i` (degree ≤ 64).

use super::gf2::mul_f;

/// A minimal polynomial: monic, `degree` ∈ {1, 2, 4, …, 64}. It is the
/// division hash's key: wiped on drop, and `Debug` shows only the degree.
#[derive(Clone, PartialEq, Eq, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
pub struct MinPoly {
    /// Coefficients, bit `i` of `x^i` (bit `degree` set).
    pub poly: u128,
    /// Its degree.
    pub degree: u32,
}

impl core::fmt::Debug for MinPoly {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MinPoly").field("degree", &self.degree).finish_non_exhaustive()
    }
}

impl MinPoly {
    /// The key polynomial of `division64-key` (docs/WIRE.md §5), `q · x^(64 − deg q)`, monic of degree 64, as its
    /// low 64 coefficients (the fallback of §6.2 when `deg q < 64`).
    pub fn key(&self) -> u64 {
        (self.poly << (64 - self.degree)) as u64
    }
}

/// The projected sequence: bit `i` is the constant term of `g^i`, `i < 128`.
pub fn projected_sequence(g: u64) -> u128 {
    projected_sequence_with(g, mul_f)
}

/// [`projected_sequence`] with the multiplication `mul` of GF(2^64) (the
/// key set-up passes the one its evidence allows).
pub(crate) fn projected_sequence_with(g: u64, mul: impl Fn(u64, u64) -> u64) -> u128 {
    let mut s = 0u128;
    let mut p = 1u64;
    for i in 0..128 {
        s |= ((p & 1) as u128) << i;
        p = mul(p, g);
    }
    s
}

/// Berlekamp–Massey over GF(2) on 128 terms, constant-time. Returns the
/// connection polynomial `C = 1 + c_1 X + … + c_ℓ X^ℓ` (bit `i` = `c_i`) and the
/// linear complexity `ℓ`.
pub fn berlekamp_massey_gf2(s: u128) -> (u128, u32) {
    let mut c: u128 = 1;
    // X^m · B, shifted once per step. Bits pushed past 127 are never needed: an
    // update with discrepancy 1 leaves deg C ≤ ℓ ≤ 64, so the X^m·B it adds has
    // degree ≤ 64 too.
    let mut b: u128 = 2;
    let mut l: u32 = 0;
    let mut win: u128 = 0; // bit i = s_(n−i)
    for n in 0..128u32 {
        win = (win << 1) | ((s >> n) & 1);
        let d = ((c & win).count_ones() & 1) as u128;
        let dmask = 0u128.wrapping_sub(d);
        let longer = ((2 * l).wrapping_sub(n + 1) >> 31) as u128; // 2ℓ ≤ n
        let smask = dmask & 0u128.wrapping_sub(longer);
        let t = c;
        c ^= b & dmask;
        b = ((t & smask) | (b & !smask)) << 1;
        let s32 = smask as u32;
        l = ((n + 1).wrapping_sub(l) & s32) | (l & !s32);
    }
    (c, l)
}

#[cfg(feature = "unstable")]
/// Method 3: Berlekamp–Massey on the projected sequence. The sequence is
/// nonzero (`a_0 = 1`) and its minimal polynomial divides the irreducible minimal
/// polynomial `h` of `g`, so it is `h`: the reciprocal `X^ℓ C(1/X)`.
pub fn berlekamp_massey(g: u64) -> MinPoly {
    let (c, l) = berlekamp_massey_gf2(projected_sequence(g));
    // X^64 C(1/X) has bit 64−i = c_i; shift down by 64 − ℓ for X^ℓ C(1/X).
    let full = reverse65(c);
    MinPoly { poly: full >> (64 - l), degree: l }
}

/// The 65-bit reversal `Σ c_i x^(64−i)`.
fn reverse65(c: u128) -> u128 {
    (c.reverse_bits() >> 63) & ((1u128 << 65) - 1)
}

/// `division64-key(g)` in constant time: `X^64 C(1/X)` is directly `q·x^(64−ℓ)`.
pub fn key(g: u64) -> u64 {
    key_with(g, mul_f)
}

/// [`key`] with the multiplication `mul` of GF(2^64).
pub(crate) fn key_with(g: u64, mul: impl Fn(u64, u64) -> u64) -> u64 {
    let (c, _l) = berlekamp_massey_gf2(projected_sequence_with(g, mul));
    reverse65(c) as u64
}

#[cfg(feature = "unstable")]
/// Method 1: linear algebra on the powers of `g` with row operations. Each new
/// power is reduced by the rows found so far (pivot = leading bit), tracking in
/// a second word which powers were combined; the first power that reduces to
/// zero gives the relation `Σ comb_i g^i = 0` of least degree.
pub fn linear_algebra(g: u64) -> MinPoly {
    let mut rows: [(u64, u128); 64] = [(0, 0); 64];
    let mut p = 1u64;
    for i in 0..=64u32 {
        let mut v = p;
        let mut comb = 1u128 << i;
        while v != 0 {
            let top = 63 - v.leading_zeros() as usize;
            let (r, rc) = rows[top];
            if r == 0 {
                break;
            }
            v ^= r;
            comb ^= rc;
        }
        if v == 0 {
            return MinPoly { poly: comb, degree: i };
        }
        rows[63 - v.leading_zeros() as usize] = (v, comb);
        p = mul_f(p, g);
    }
    unreachable!("65 vectors in a 64-dimensional space are dependent")
}

#[cfg(feature = "unstable")]
/// Method 2: Gordon's product of conjugates `∏_(i<m) (X − g^(2^i))`, `m` the
/// least positive integer with `g^(2^m) = g`. The coefficients lie in GF(2)
/// (the product is fixed by the Frobenius map); `None` if one does not, which
/// would be an arithmetic error.
pub fn gordon(g: u64) -> Option<MinPoly> {
    let mut h = [0u64; 65];
    h[0] = 1;
    let mut deg = 0usize;
    let mut c = g;
    loop {
        // h ← h · (X + c)
        for k in (0..=deg + 1).rev() {
            let lower = if k > 0 { h[k - 1] } else { 0 };
            h[k] = lower ^ mul_f(c, h[k]);
        }
        deg += 1;
        c = mul_f(c, c);
        if c == g || deg == 64 {
            break;
        }
    }
    if c != g {
        return None;
    }
    let mut poly = 0u128;
    for (k, &hk) in h.iter().enumerate().take(deg + 1) {
        if hk > 1 {
            return None;
        }
        poly |= (hk as u128) << k;
    }
    Some(MinPoly { poly, degree: deg as u32 })
}
