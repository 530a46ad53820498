//! GFNI path of gdivision64 (x86-64 with `gfni` and `avx2`; a safe entry
//! point that asserts the [`Platform`] evidence).
//!
//! `VGF2P8MULB` multiplies bytes in GF(2^8) modulo `x^8 + x^4 + x^3 + x + 1`,
//! which is exactly the field `K` of `gdivision64` (docs/WIRE.md §5), 32 products per instruction. Multiplication
//! by a fixed `C ∈ K[z]/(P)` is the K-linear map `B ↦ Σ_i b_i (z^i C mod P)`: the
//! eight coefficients `b_i` broadcast against the eight precomputed columns,
//! two instructions per 8-byte block, and the result is already reduced (no
//! reduction of any kind is left for later). Sixteen blocks are aggregated per
//! step over the matrices of `β^16..β^1` (`β = z^8 mod P`), as in
//! [`clmul`](super::clmul):
//!
//! `X' = X·β^16 + B_0 β^16 + B_1 β^15 + … + B_15 β`,
//!
//! so the only dependency between steps (fold the four lanes, broadcast, one
//! matrix product) is paid once per 128 bytes.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::gdiv::GKey;
use crate::platform::Platform;

/// Per 128-bit lane: bytes 0..7 pick byte `a`, bytes 8..15 byte `b`.
#[inline]
#[target_feature(enable = "avx2")]
fn pick(a: i8, b: i8, c: i8, d: i8) -> __m256i {
    _mm256_setr_epi8(
        a, a, a, a, a, a, a, a, b, b, b, b, b, b, b, b, c, c, c, c, c, c, c, c, d, d, d, d, d, d, d, d,
    )
}

/// `B · C mod P` as four partial sums in the four 64-bit lanes: `v` holds the
/// eight coefficients in every lane, `sel` picks which coefficient meets which
/// column, `m` are the columns `z^i C mod P`.
#[inline]
#[target_feature(enable = "gfni,avx2")]
fn mat(v: __m256i, sel: &[__m256i; 2], m: &[__m256i; 2]) -> __m256i {
    _mm256_xor_si256(
        _mm256_gf2p8mul_epi8(_mm256_shuffle_epi8(v, sel[0]), m[0]),
        _mm256_gf2p8mul_epi8(_mm256_shuffle_epi8(v, sel[1]), m[1]),
    )
}

/// gdivision64 blocks: `acc` is the reduced state `X` (byte `k` = coefficient
/// of `z^k`), `data.len()` a multiple of 8.
///
/// Panics if the evidence `p` lacks GFNI with AVX2.
pub(crate) fn g_blocks(p: Platform, key: &GKey, acc: u128, data: &[u8]) -> u128 {
    assert!(p.gfni(), "GFNI kernel without the evidence");
    // SAFETY: the evidence `p` (only detection creates it) has gfni and avx2 (asserted above).
    unsafe { g_blocks_gfni(key, acc, data) }
}

#[target_feature(enable = "gfni,avx2")]
fn g_blocks_gfni(key: &GKey, acc: u128, data: &[u8]) -> u128 {
    // The columns of β^k: 64 bytes, two 256-bit registers.
    let cols = |k: usize| -> [__m256i; 2] {
        let c = &key.gfni[k];
        let p = c.as_ptr() as *const __m256i;
        // SAFETY: `c` is 8 u64 = 64 readable bytes.
        unsafe { [_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))] }
    };
    // A block's byte j is the coefficient of z^(7−j); the state's byte i of z^i.
    let blk = [pick(7, 6, 5, 4), pick(3, 2, 1, 0)];
    let st = [pick(0, 1, 2, 3), pick(4, 5, 6, 7)];
    let load = |b: &[u8]| _mm256_set1_epi64x(u64::from_le_bytes(b.try_into().expect("8 bytes")) as i64);
    let fold = |t: __m256i| {
        let x = _mm_xor_si128(_mm256_castsi256_si128(t), _mm256_extracti128_si256::<1>(t));
        _mm_xor_si128(x, _mm_unpackhi_epi64(x, x))
    };
    let mut x = _mm_set_epi64x(0, acc as u64 as i64);
    let m: [[__m256i; 2]; 16] = core::array::from_fn(|j| cols(16 - j));
    let mut chunks = data.chunks_exact(128);
    for c in &mut chunks {
        // Two partial sums, so the XOR chains stay short.
        let mut t0 = mat(load(&c[0..8]), &blk, &m[0]);
        let mut t1 = mat(load(&c[8..16]), &blk, &m[1]);
        for j in (2..16).step_by(2) {
            t0 = _mm256_xor_si256(t0, mat(load(&c[8 * j..8 * j + 8]), &blk, &m[j]));
            t1 = _mm256_xor_si256(t1, mat(load(&c[8 * j + 8..8 * j + 16]), &blk, &m[j + 1]));
        }
        let t = _mm256_xor_si256(t0, t1);
        x = fold(_mm256_xor_si256(t, mat(_mm256_broadcastq_epi64(x), &st, &m[0])));
    }
    for r in chunks.remainder().chunks(64) {
        let k = r.len() / 8;
        let mut t = mat(_mm256_broadcastq_epi64(x), &st, &cols(k));
        for j in 0..k {
            t = _mm256_xor_si256(t, mat(load(&r[8 * j..8 * j + 8]), &blk, &cols(k - j)));
        }
        x = fold(t);
    }
    _mm_cvtsi128_si64(x) as u64 as u128
}

#[cfg(test)]
mod tests {
    /// The family's differential test, which covers this kernel wherever
    /// the CPU has it.
    #[test]
    fn agrees_with_portable() {
        assert!(super::super::tests::check_kernels() > 0);
    }

    /// Without the evidence the entry point refuses to run.
    #[test]
    #[should_panic(expected = "kernel without the evidence")]
    fn refuses_without_evidence() {
        let p = crate::platform::Platform::portable();
        let _ = super::g_blocks(p, &super::super::gdiv::GKey::new(1), 0, &[0; 8]);
    }
}
