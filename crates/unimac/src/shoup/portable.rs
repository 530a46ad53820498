//! Portable constant-time hashing paths (no table, no branch on secret data).
//!
//! * eval64: Horner's rule `X ← (X + b)·α` in GF(2^64) (Shoup, "On fast and provably
//!   secure message authentication based on universal hashing", §5), the
//!   product by [`clmul64`] and the sparse reduction by `f`.
//! * division64: `r ← r·x^64 + b mod p` (§6.1) by Barrett reduction.
//! * eval128: Horner's rule `X ← (X + b)·α` in GF(2^128) (docs/WIRE.md §5), the
//!   product by three [`clmul64`] (Karatsuba) and the sparse reduction by
//!   `x^128 + x^7 + x^2 + x + 1` ([`gf128`](super::gf128)).
//! * gdivision64: `r ← r·z^8 + B mod P` over K = GF(2^8) (§7.1), the map
//!   `r ↦ r·z^8 mod P` applied as a 64×64 matrix over GF(2) by masks.

use super::gf2::{clmul64, reduce_f, Modulus};
use super::gdiv::GKey;

#[inline]
fn le(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().expect("8-byte block"))
}

#[inline]
fn be(b: &[u8]) -> u64 {
    u64::from_be_bytes(b.try_into().expect("8-byte block"))
}

/// eval64 on whole 8-byte blocks: the state is `X = h·α`, `h` the Horner value
/// so far (it starts at `α`, the implicit leading 1 times `α`).
pub fn eval_blocks(alpha: u64, mut x: u64, data: &[u8]) -> u64 {
    for b in data.chunks_exact(8) {
        x = reduce_f(clmul64(x ^ le(b), alpha));
    }
    x
}

/// division64 on whole 8-byte blocks: `r ← r·x^64 + b mod p` (r starts at 1).
pub fn division_blocks(m: &Modulus, mut r: u64, data: &[u8]) -> u64 {
    for b in data.chunks_exact(8) {
        r = m.reduce_with(((r as u128) << 64) | le(b) as u128, clmul64);
    }
    r
}

/// The final `r·x^64 mod p` of division64.
pub fn division_finish(m: &Modulus, r: u64) -> u64 {
    m.reduce_with((r as u128) << 64, clmul64)
}

/// gdivision64 on whole 8-byte blocks: `r ← r·z^8 + B mod P`, `r` with byte `k`
/// the coefficient of `z^k`, `B` the block read big-endian (its first byte is
/// the coefficient of `z^7`). `r` starts at 1.
pub fn gdivision_blocks(key: &GKey, mut r: u64, data: &[u8]) -> u64 {
    for b in data.chunks_exact(8) {
        r = key.times_z8(r) ^ be(b);
    }
    r
}

/// eval128 on whole 16-byte blocks: the state is `X = h·α`, `h` the Horner
/// value so far (it starts at `α`).
pub fn eval128_blocks(alpha: u128, mut x: u128, data: &[u8]) -> u128 {
    assert_eq!(data.len() % 16, 0, "eval128: whole 16-byte blocks");
    for b in data.chunks_exact(16) {
        x = super::gf128::mul(x ^ u128::from_le_bytes(b.try_into().expect("16-byte block")), alpha);
    }
    x
}
