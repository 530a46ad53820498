//! Portable constant-time arithmetic in `GF(2^128) = GF(2)[x]/(x^128 + x^7 + x^2 + x + 1)`
//! (`eval128` of the wire format, docs/WIRE.md §5: Shoup's evaluation hash
//! with `l = 128`, "On fast and provably secure message authentication based
//! on universal hashing", §5).
//!
//! An element is a `u128` whose bit `i` is the coefficient of `x^i` (the
//! little-endian reading of 16 bytes; not GHASH's reflected order). Nothing
//! here branches on, or indexes memory with, its operands.

use super::gf2::clmul64;

/// `x^128 − f`'s low part: `x^7 + x^2 + x + 1`.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64", feature = "unstable")), allow(dead_code))] // the PCLMULQDQ and PMULL reductions
pub const R: u64 = 0x87;

/// The carry-less product `a · b` (degree ≤ 254) as `(low 128 bits, high 128 bits)`,
/// by three 64×64 products (Karatsuba).
#[inline]
pub fn clmul128(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let lo = clmul64(a0, b0);
    let hi = clmul64(a1, b1);
    let mid = clmul64(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

/// [`clmul128`] with the 64×64 carry-less product `clmul` (Karatsuba).
#[inline]
pub fn clmul128_with(a: u128, b: u128, clmul: impl Fn(u64, u64) -> u128) -> (u128, u128) {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let lo = clmul(a0, b0);
    let hi = clmul(a1, b1);
    let mid = clmul(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

/// `hi·x^128 + lo mod f`: `hi·x^128 ≡ hi·(x^7 + x^2 + x + 1)`, whose part above
/// `x^127` (at most 7 bits, from `hi`'s top 7) folds once more and overflows no
/// further (`deg < 7 + 7`).
#[inline]
pub fn reduce(lo: u128, hi: u128) -> u128 {
    let o = (hi >> 127) ^ (hi >> 126) ^ (hi >> 121);
    lo ^ hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7) ^ o ^ (o << 1) ^ (o << 2) ^ (o << 7)
}

/// `a · b` in GF(2^128).
#[inline]
pub fn mul(a: u128, b: u128) -> u128 {
    let (lo, hi) = clmul128(a, b);
    reduce(lo, hi)
}

/// `a · b` in GF(2^128) with the 64×64 carry-less product `clmul` (the key
/// set-ups pass the product their evidence allows, `shoup::gf128_mul_on`).
#[inline]
pub fn mul_with(a: u128, b: u128, clmul: impl Fn(u64, u64) -> u128) -> u128 {
    let (lo, hi) = clmul128_with(a, b, clmul);
    reduce(lo, hi)
}
