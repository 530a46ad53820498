//! The paper's 53-bit floating-point arithmetic mod `p = 2^127 − 1`, scalar
//! (Bernstein, "Floating-point arithmetic and message authentication", §§2–5): `top`/`bottom`, `carry`, `squeeze`, `freeze`,
//! `prod`, `power`. Every value is an `f64` holding an integer multiple of
//! `2^(16j)` (limb `j` of eight) or `2^(32j)` (word `j` of four), exactly as
//! in the paper; no value ever rounds (each theorem cited gives the bound).
//!
//! These are used for key expansion (the table of `c_{i,j}`) and by the
//! vector backend for the final `freeze`. They rely on IEEE double precision
//! with round-to-nearest, which Rust guarantees on every target with SSE2
//! (all of x86-64) and on every other 64-bit target.

use crate::prelude::*;
use crate::sync::OnceLock;

use zeroize::Zeroize;

/// `2^e` as an `f64` (for `-1022 <= e <= 1023`).
#[inline]
pub(crate) const fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// `top_{k,53} x = fp(fp(x + 3·2^(k+51)) − 3·2^(k+51))` (section 2): `x`
/// rounded to a multiple of `2^k`; exact for `|x| <= 2^(k+51)` (Theorem 2.4).
#[inline]
pub(crate) fn top(k: i32, x: f64) -> f64 {
    let a = 3.0 * pow2(k + 51);
    (x + a) - a
}

/// `topleft_{k,53} z = 2^k ⌊z / 2^k⌋` for `z ∈ 2^(k−32) Z`, `|z| <= 2^(k+19)`
/// (Theorem 2.5).
#[inline]
pub(crate) fn topleft(k: i32, z: f64) -> f64 {
    top(k, z - (pow2(k - 1) - pow2(k - 33)))
}

/// `carry_i` (section 3) on eight limbs `t_j ∈ 2^(16j) Z`: moves the part of
/// `t_i` above `2^(16+16i)` into `t_{i+1}` (for `i = 7`, into `t_0` times
/// `2^−127`, since `2^127 ≡ 1`). Exact while `|t_j| <= 0.99·2^53·2^(16j)`
/// (Theorem 3.1).
#[inline]
pub(crate) fn carry(t: &mut [f64; 8], i: usize) {
    if i < 7 {
        let y = top(16 + 16 * i as i32, t[i]);
        t[i] -= y;
        t[i + 1] += y;
    } else {
        let y = top(127, t[7]);
        t[7] -= y;
        t[0] += y * pow2(-127);
    }
}

/// The carries of `squeeze = carry_1 carry_0 carry_7 … carry_1 carry_0`
/// (section 3), in the order applied.
pub(crate) const SQUEEZE: [usize; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1];

/// The paper's parallel variant `carry_5 carry_1 carry_4 carry_0 carry_7
/// carry_3 carry_6 carry_2 carry_5 carry_1 carry_4 carry_0` (section 3,
/// notes), in the order applied: each pair touches disjoint limbs, so six
/// steps deep instead of ten. Same bounds (checked by `carrybound` in the
/// tests: intermediates <= 0.99·2^53, output <= 1.01·2^15, per limb scale).
#[allow(dead_code)] // spelled out in `avx2::squeeze`; its bound is checked in the tests
pub(crate) const SQUEEZE_PARALLEL: [usize; 12] = [0, 4, 1, 5, 2, 6, 3, 7, 0, 4, 1, 5];

/// `squeeze` (section 3): from `|t_j| <= 0.98·2^53·2^(16j)` to
/// `|v_j| <= 1.01·2^15·2^(16j)`, same value mod `p` (Theorem 3.2).
#[inline]
pub(crate) fn squeeze(t: &mut [f64; 8]) {
    for i in SQUEEZE {
        carry(t, i);
    }
}

/// `prod(r_0..r_3, u_0..u_7)` (section 5): the product of four words
/// `|r_i| <= 1.1·2^32·2^(32i)` and eight limbs `|u_j| <= 1.01·2^15·2^(16j)`
/// as eight limbs `|t_j| <= 2^50·2^(16j)` (Theorem 5.1); every partial sum is
/// exact in any order (Theorem 5.2).
pub(crate) fn prod(r: &[f64; 4], u: &[f64; 8]) -> [f64; 8] {
    let s = [0.0, r[1] * pow2(-127), r[2] * pow2(-127), r[3] * pow2(-127)];
    let mut t = [0.0; 8];
    for a in 0..4 {
        for k in 0..4 {
            // Row a, column k of the matrix: r_{a−k}, or 2^−127 r_{4+a−k}.
            let m = if k <= a { r[a - k] } else { s[4 + a - k] };
            t[2 * a] += m * u[2 * k];
            t[2 * a + 1] += m * u[2 * k + 1];
        }
    }
    t
}

/// `power_1(r_0..r_3)`: `c_{1,2j} = bottom_{16+32j} r_j`, `c_{1,2j+1} = top_{16+32j} r_j`
/// (section 5), for words `|r_j| <= 2^31·2^(32j)`.
pub(crate) fn power1(r: &[f64; 4]) -> [f64; 8] {
    let mut c = [0.0; 8];
    for j in 0..4 {
        let hi = top(16 + 32 * j as i32, r[j]);
        c[2 * j] = r[j] - hi;
        c[2 * j + 1] = hi;
    }
    c
}

/// `w_j = c_{2j} + c_{2j+1}`: eight limbs `|c_j| <= 1.01·2^15·2^(16j)` as four
/// words `|w_j| <= 1.02·2^31·2^(32j)` (section 6), exact (`< 2^53·2^(32j)`).
#[inline]
pub(crate) fn merge(c: &[f64; 8]) -> [f64; 4] {
    core::array::from_fn(|j| c[2 * j] + c[2 * j + 1])
}

/// `freeze(t_0..t_3)` (section 4): four words `t_j ∈ 2^(32j) Z` with
/// `|t_j| <= 2^49·2^(32j)` to the base-2^32 digits of `(Σ t_j) mod p`
/// (Theorem 4.2).
pub(crate) fn freeze(t: &[f64; 4]) -> [u32; 4] {
    let q0 = topleft(0, t[3] * pow2(-127) + 0.5);
    let q1 = topleft(32, t[0] + q0);
    let q2 = topleft(64, t[1] + q1);
    let q3 = topleft(96, t[2] + q2);
    let q4 = topleft(127, t[3] + q3);
    let u0 = t[0] + q4 * pow2(-127);
    let y0 = topleft(32, u0);
    let u1 = t[1] + y0;
    let y1 = topleft(64, u1);
    let u2 = t[2] + y1;
    let y2 = topleft(96, u2);
    let x = [u0 - y0, u1 - y1, u2 - y2, (t[3] - q4) + y2];
    // x_j ∈ 2^(32j) Z and 0 <= x_j < 2^32·2^(32j): the scaled value is an
    // integer in [0, 2^32), so the conversion is exact.
    core::array::from_fn(|j| (x[j] * pow2(-32 * j as i32)) as u32)
}

/// Four signed words `v_j` as the paper's reals `v_j·2^(32j)`.
pub(crate) fn words(v: [i32; 4]) -> [f64; 4] {
    core::array::from_fn(|j| v[j] as f64 * pow2(32 * j as i32))
}

/// `x < 2^128` as eight limbs `(x >> 16j & 0xffff)·2^(16j)`: `|t_j| < 2^16·2^(16j)`,
/// far inside `squeeze`'s input bound.
pub(crate) fn limbs_of(x: u128) -> [f64; 8] {
    core::array::from_fn(|j| ((x >> (16 * j)) & 0xffff) as f64 * pow2(16 * j as i32))
}

/// Largest chunk the vector backend hashes between two squeezes, in groups
/// of four words (one AVX2 vector of words).
///
/// Exactness bound (section 6, re-derived for four lanes): a chunk starts
/// from `prod(r^n, squeeze(acc))`, `|t_j| <= 2^50·2^(16j)` per lane (Theorem
/// 5.1), and each lane adds one product `m·c_{i,j}` per group with
/// `|m| <= 2^31`, `|c_{i,j}| <= 1.01·2^15·2^(16j)` (Theorem 5.3). So every
/// partial sum of a lane is an integer multiple of `2^(16j)` of size at most
/// `(2^50 + G·1.01·2^46)·2^(16j)`, which for `G <= 108` is at most
/// `0.98·2^53·2^(16j)`: it never rounds, and `squeeze` accepts it (Theorem
/// 3.2). (The paper's one lane allows 96 words per chunk; four lanes, each
/// summing a quarter of the words, allow 4·108 = 432.)
pub const GROUPS: usize = 108;
/// Words per full chunk.
pub const CHUNK_WORDS: usize = 4 * GROUPS;
/// Bytes per full chunk.
pub const CHUNK_BYTES: usize = 4 * CHUNK_WORDS;

/// Groups of eight words in a full chunk on the AVX-512 backend
/// (`avx512.rs`, eight lanes): the same chunk of [`CHUNK_WORDS`] words.
///
/// Exactness bound (section 6, re-derived for eight lanes): lane `l` now
/// sums the words at positions `≡ l (mod 8)`, `G8 = CHUNK_WORDS / 8 = 54`
/// products `m·c_{i,j}` (`|m| <= 2^31`, `|c_{i,j}| <= 1.01·2^15·2^(16j)`,
/// Theorem 5.3) on top of the carried-in `prod(r^n, squeeze(acc))` with
/// `|t_j| <= 2^50·2^(16j)` (Theorem 5.1). Every partial sum of a lane is an
/// integer multiple of `2^(16j)` of size at most
/// `(2^50 + 54·1.01·2^46)·2^(16j) = 0.55·2^53·2^(16j)`, far below
/// `0.98·2^53·2^(16j)`: no FMA rounds, and `squeeze` accepts the result
/// (Theorem 3.2). The bound would allow `G8 = 108` (864 words per chunk),
/// but the eight-lane table would then be 55 KiB, more than L1d holds
/// (48 KiB here), and the dot product streams one table vector per FMA; so
/// the chunk stays at 432 words (table 27 KiB), the same chunk as the AVX2
/// backend.
pub const GROUPS8: usize = CHUNK_WORDS / 8;
const _: () = assert!(CHUNK_WORDS.is_multiple_of(8));

/// Independent chains in key expansion.
const STRIDE: usize = 8;

/// 32-byte aligned group of the table: 8 limbs × 4 lanes.
#[derive(Clone, Copy, Zeroize)]
#[repr(C, align(32))]
pub(crate) struct Group(pub(crate) [f64; 32]);

/// 64-byte aligned group of the eight-lane table: 8 limbs × 8 lanes.
#[derive(Clone, Copy, Zeroize)]
#[repr(C, align(64))]
pub(crate) struct Group8(pub(crate) [f64; 64]);

/// The per-key precomputation of section 6: `power_i(r)` for
/// `1 <= i <= CHUNK_WORDS + 1`, laid out for the vector backend.
pub(crate) struct Table {
    /// `tab[e].0[4j + l] = c_{4e+4−l, j}`: the powers for the `e`-th group of
    /// four words counted from the end of a chunk, lane `l` holding word `l`.
    pub(crate) tab: Vec<Group>,
    /// `mul[n] = [w_0..w_3, 0, 2^−127 w_1, 2^−127 w_2, 2^−127 w_3]` for
    /// `w = merge(c_n)`, `0 <= n <= CHUNK_WORDS`: the first operand of
    /// `prod` that multiplies by `r^n`.
    pub(crate) mul: Vec<[f64; 8]>,
    /// `pow[i] = c_i` (eight limbs), `0 <= i <= CHUNK_WORDS + 1` (`c_0 = 1`).
    pub(crate) pow: Vec<[f64; 8]>,
    /// The same powers for the eight-lane backend, built the first time it
    /// runs under this key: `tab8[e].0[8j + l] = c_{8e+8−l, j}`.
    tab8: OnceLock<Vec<Group8>>,
}

impl Table {
    /// Expand `r` (four signed words): `power_{i+1} = squeeze(prod(r, power_i))`.
    pub(crate) fn new(r_words: [i32; 4]) -> Table {
        let r = words(r_words);
        let mut pow = Vec::with_capacity(CHUNK_WORDS + 2);
        let mut one = [0.0; 8];
        one[0] = 1.0;
        pow.push(one);
        let mut c = power1(&r);
        pow.push(c);
        for _ in 2..=STRIDE {
            c = prod(&r, &c);
            squeeze(&mut c);
            pow.push(c);
        }
        // power_i = squeeze(prod(w, power_{i−STRIDE})) with w = merge(power_STRIDE):
        // the same step as the paper's recursion with r^STRIDE for r
        // (|w_j| <= 1.02·2^31·2^(32j) meets Theorem 5.1's 1.1·2^32), so
        // Theorems 5.1, 3.2 give the same bounds; STRIDE independent chains
        // let the CPU overlap the steps.
        let w = merge(&pow[STRIDE]);
        for i in STRIDE + 1..=CHUNK_WORDS + 1 {
            let mut c = prod(&w, &pow[i - STRIDE]);
            squeeze(&mut c);
            pow.push(c);
        }
        let mul = pow[..=CHUNK_WORDS]
            .iter()
            .map(|c| {
                let w = merge(c);
                [w[0], w[1], w[2], w[3], 0.0, w[1] * pow2(-127), w[2] * pow2(-127), w[3] * pow2(-127)]
            })
            .collect();
        let tab = (0..GROUPS)
            .map(|e| {
                let mut g = [0.0; 32];
                for j in 0..8 {
                    for l in 0..4 {
                        g[4 * j + l] = pow[4 * e + 4 - l][j];
                    }
                }
                Group(g)
            })
            .collect();
        Table { tab, mul, pow, tab8: OnceLock::new() }
    }

    /// The eight-lane layout of the powers (see [`GROUPS8`]).
    pub(crate) fn tab8(&self) -> &[Group8] {
        self.tab8.get_or_init(|| {
            // Lanes 0–3 of group e are lanes 0–3 of four-lane group 2e + 1
            // (c_{8e+8−l} = c_{4(2e+1)+4−l}), lanes 4–7 those of group 2e.
            (0..GROUPS8)
                .map(|e| {
                    let mut g = [0.0; 64];
                    for j in 0..8 {
                        g[8 * j..8 * j + 4].copy_from_slice(&self.tab[2 * e + 1].0[4 * j..4 * j + 4]);
                        g[8 * j + 4..8 * j + 8].copy_from_slice(&self.tab[2 * e].0[4 * j..4 * j + 4]);
                    }
                    Group8(g)
                })
                .collect()
        })
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.tab.zeroize();
        self.mul.zeroize();
        self.pow.zeroize();
        if let Some(t) = self.tab8.get_mut() {
            t.zeroize();
        }
    }
}
