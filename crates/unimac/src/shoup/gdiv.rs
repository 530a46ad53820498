//! The generalized division hash's fields (Shoup, "On fast and provably secure
//! message authentication based on universal hashing", §7): `K = GF(2^8) =
//! GF(2)[x]/(x^8 + x^4 + x^3 + x + 1)`, `L = K[y]/(F)` with
//! `F = y^8 + y^3 + y + 0x0E` (Shoup's form `y^8 + f_0(y)`, `deg f_0 < 4`), the
//! key polynomial as the minimal polynomial over K of a random `g ∈ L` by
//! Berlekamp–Massey on 16 projected powers (§7.2), and the expanded hashing key.
//!
//! Every operation here is constant-time: K is multiplied bit by bit with
//! masks (not the paper's log/exp tables, which are indexed by secret bytes).

use zeroize::{Zeroize, ZeroizeOnDrop};

/// `f_0` of `F = y^8 + f_0(y)`: coefficients of `y^0..y^7`.
pub const F0: [u8; 8] = [0x0E, 1, 0, 1, 0, 0, 0, 0];

/// `a · x` in K.
#[inline]
pub fn xtime(a: u8) -> u8 {
    (a << 1) ^ (0x1b & 0u8.wrapping_sub(a >> 7))
}

/// `a · b` in K (shift and add, by masks).
#[inline]
pub fn kmul(mut a: u8, b: u8) -> u8 {
    let mut r = 0u8;
    for i in 0..8 {
        r ^= a & 0u8.wrapping_sub((b >> i) & 1);
        a = xtime(a);
    }
    r
}

/// `a^-1` in K (`a^254`; 0 maps to 0).
pub fn kinv(a: u8) -> u8 {
    // 254 = 0b1111_1110: the exponent is public, so its bits may steer.
    let mut r = 1u8;
    let mut p = a;
    for i in 0..8 {
        if (254u32 >> i) & 1 == 1 {
            r = kmul(r, p);
        }
        p = kmul(p, p);
    }
    r
}

/// Eight bytes times `x` each, in K (SWAR).
#[inline]
pub fn xtime8(v: u64) -> u64 {
    ((v & 0x7f7f_7f7f_7f7f_7f7f) << 1) ^ (((v >> 7) & 0x0101_0101_0101_0101) * 0x1b)
}

/// The scalar `t ∈ K` times the vector `v ∈ K^8` (byte by byte).
#[inline]
pub fn scale8(t: u8, mut v: u64) -> u64 {
    let mut r = 0u64;
    for i in 0..8 {
        r ^= v & 0u64.wrapping_sub(((t >> i) & 1) as u64);
        v = xtime8(v);
    }
    r
}

/// `a · b` in `L = K[y]/(F)`; element `g_0..g_7` is `Σ g_i y^i`.
pub fn lmul(a: &[u8; 8], b: &[u8; 8]) -> [u8; 8] {
    // The 15 coefficients of the product, byte k of `p` for y^k: a_i times the
    // vector b, eight bytes at once, shifted to y^i.
    let bv = u64::from_le_bytes(*b);
    let mut p = 0u128;
    for (i, &ai) in a.iter().enumerate() {
        p ^= (scale8(ai, bv) as u128) << (8 * i);
    }
    let mut p = p.to_le_bytes();
    // y^k = y^(k-8) (y^3 + y + 0x0E) for k = 14 down to 8.
    for k in (8..15).rev() {
        let t = p[k];
        p[k - 8] ^= kmul(t, F0[0]);
        p[k - 7] ^= t;
        p[k - 5] ^= t;
    }
    p[..8].try_into().expect("8 coefficients")
}

/// The projected sequence `a_i` = coefficient of `y^0` in `g^i`, `0 ≤ i < 16`
/// (§6.2 method 3 over K, as §7.2 prescribes).
pub fn projected_sequence(g: &[u8; 8]) -> [u8; 16] {
    let mut s = [0u8; 16];
    let mut p = [1u8, 0, 0, 0, 0, 0, 0, 0];
    for a in s.iter_mut() {
        *a = p[0];
        p = lmul(&p, g);
    }
    s
}

/// Sixteen bytes times the scalar `t ∈ K`, byte by byte.
#[inline]
fn scale16(t: u8, v: u128) -> u128 {
    (scale8(t, v as u64) as u128) | ((scale8(t, (v >> 64) as u64) as u128) << 64)
}

/// Bytewise products in K of two 8-byte vectors (SWAR shift and add by masks).
#[inline]
fn vmul8(mut a: u64, b: u64) -> u64 {
    let mut r = 0u64;
    for i in 0..8 {
        r ^= a & (((b >> i) & 0x0101_0101_0101_0101) * 0xff);
        a = xtime8(a);
    }
    r
}

/// Berlekamp–Massey over K on 16 terms, in constant time: fixed iterations,
/// every branch of the textbook algorithm replaced by masks, and the
/// inversion-free form (`C ← γ C − d X^m B`, `γ` the discrepancy at the last
/// length change), which keeps `C` a nonzero scalar multiple of the textbook
/// connection polynomial; one inversion normalizes it at the end. Returns
/// `C(X) = 1 + c_1 X + … + c_8 X^8` (index `i` = `c_i`) and the linear
/// complexity `ℓ ≤ 8`: `Σ c_i a_(n-i) = 0` for `n ≥ ℓ`.
pub fn berlekamp_massey(s: &[u8; 16]) -> ([u8; 9], u32) {
    const NINE: u128 = (1u128 << 72) - 1; // coefficients 0..8, one byte each
    let mut c: u128 = 1;
    // X^m·B; coefficients above degree 8 are never needed, because an update
    // with d ≠ 0 yields deg C ≤ ℓ ≤ 8.
    let mut b: u128 = 1 << 8;
    let mut l: u32 = 0;
    let mut gamma: u8 = 1;
    let mut win: u128 = 0; // byte i = a_(n−i)
    for (n, &sn) in s.iter().enumerate() {
        let n = n as u32;
        win = ((win << 8) | sn as u128) & NINE;
        let prod = vmul8(c as u64, win as u64) ^ (vmul8((c >> 64) as u64, (win >> 64) as u64) & 0xff);
        let mut d = prod;
        d ^= d >> 32;
        d ^= d >> 16;
        d ^= d >> 8;
        let d = d as u8;
        let dnz = 0u32.wrapping_sub(((d as u32).wrapping_neg()) >> 31); // all ones iff d ≠ 0
        let longer = 0u32.wrapping_sub((2 * l).wrapping_sub(n + 1) >> 31); // 2ℓ ≤ n
        let swap = dnz & longer;
        let swap128 = 0u128.wrapping_sub((swap & 1) as u128);
        let t = c;
        c = scale16(gamma, c) ^ scale16(d, b);
        b = (((t & swap128) | (b & !swap128)) << 8) & NINE;
        l = ((n + 1).wrapping_sub(l) & swap) | (l & !swap);
        gamma = (d & swap as u8) | (gamma & !(swap as u8));
    }
    let c = scale16(kinv(c as u8), c).to_le_bytes();
    (core::array::from_fn(|i| c[i]), l)
}

/// `gdivision64-key(g)` (docs/WIRE.md §5): the minimal polynomial `q` of `g` over K,
/// times `z^(8 − deg q)`: the monic degree-8 `Σ c_i z^(8−i)`; its coefficients of
/// `z^0..z^7`, one byte each.
pub fn key_poly(g: &[u8; 8]) -> [u8; 8] {
    let (c, _l) = berlekamp_massey(&projected_sequence(g));
    core::array::from_fn(|k| c[8 - k])
}

/// The expanded gdivision64 hashing key for `P = z^8 + p_lo`.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct GKey {
    /// `P − z^8`, byte `k` the coefficient of `z^k`.
    pub(crate) p_lo: u64,
    /// `cols[8j + b] = x^b · (z^(8+j) mod P)`: the columns of `r ↦ r·z^8 mod P`.
    cols: [u64; 64],
    /// `β^k mod P`, `β = z^8 mod P`, `k = 0..16`.
    pub(crate) pow: [u64; 17],
    /// `z^8 · β^k mod P`.
    pub(crate) fold: [u64; 17],
    /// `spread(β^k)` as `[lo, hi, lo ^ hi]` (Karatsuba), for the PCLMULQDQ path.
    pub(crate) kron: [[u64; 3]; 17],
    /// `spread(z^8 β^k mod P)` likewise.
    pub(crate) kron_fold: [[u64; 3]; 17],
    /// The columns `z^i β^k mod P`, `i = 0..8`: the matrix of `B ↦ B β^k` over K,
    /// for the GFNI path.
    pub(crate) gfni: [[u64; 8]; 17],
}

impl GKey {
    /// Expand `P = z^8 + p_lo` (any `p_lo`).
    pub fn new(p_lo: u64) -> GKey {
        let mut cols = [0u64; 64];
        let mut q = p_lo; // z^8 mod P
        for j in 0..8 {
            let mut v = q;
            for b in 0..8 {
                cols[8 * j + b] = v;
                v = xtime8(v);
            }
            q = (q << 8) ^ scale8((q >> 56) as u8, p_lo);
        }
        let mut k = GKey { p_lo, cols, pow: [0; 17], fold: [0; 17], kron: [[0; 3]; 17], kron_fold: [[0; 3]; 17], gfni: [[0; 8]; 17] };
        let kara = |v: u64| {
            let s = spread(v);
            [s as u64, (s >> 64) as u64, (s as u64) ^ ((s >> 64) as u64)]
        };
        let mut p = 1u64;
        for i in 0..17 {
            k.pow[i] = p;
            k.fold[i] = k.times_z8(p);
            k.kron[i] = kara(k.pow[i]);
            k.kron_fold[i] = kara(k.fold[i]);
            let mut c = p;
            for col in k.gfni[i].iter_mut() {
                *col = c;
                c = (c << 8) ^ scale8((c >> 56) as u8, p_lo);
            }
            p = k.mulmod(p, p_lo);
        }
        k
    }

    /// `r · z^8 mod P` (64 masked XORs of the columns).
    #[inline]
    pub fn times_z8(&self, r: u64) -> u64 {
        let mut acc = 0u64;
        for (i, c) in self.cols.iter().enumerate() {
            acc ^= c & 0u64.wrapping_sub((r >> i) & 1);
        }
        acc
    }

    /// `a · b mod P` in `K[z]` (Horner over the coefficients of `b`).
    pub fn mulmod(&self, a: u64, b: u64) -> u64 {
        let mut r = 0u64;
        for k in (0..8).rev() {
            r = (r << 8) ^ scale8((r >> 56) as u8, self.p_lo);
            r ^= scale8((b >> (8 * k)) as u8, a);
        }
        r
    }
}

/// The Kronecker spread of `v ∈ K[z]`, `deg < 8`: byte `k` moved to bits
/// `16k..16k+8`, so that carry-less products of spread polynomials keep each
/// coefficient product (degree ≤ 14 in x) in its own 16-bit slot.
pub fn spread(v: u64) -> u128 {
    let mut r = 0u128;
    for k in 0..8 {
        r |= (((v >> (8 * k)) & 0xff) as u128) << (16 * k);
    }
    r
}
