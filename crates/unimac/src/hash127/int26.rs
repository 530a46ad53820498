//! hash127 in five limbs of radix `2^26` held in 64-bit integers: the
//! paper's "64-bit variant" (section 7), with its 63-bit floating-point
//! arithmetic simulated by exact `i64` arithmetic. No floating point, no
//! branch or table index that depends on the key or the message.
//!
//! An element is `v_0 + v_1·2^26 + v_2·2^52 + v_3·2^78 + v_4·2^104` with
//! signed limbs `v_j` (the top limb takes the remaining 23 bits of the 127).
//! A *squeezed* element has `|v_j| ≤ S[j]` (see [`S`]): about `2^25` for the
//! four low limbs, `2^22` for the top one.
//!
//! Products are taken in `Z[x]/(x^5 − 8)` with `x = 2^26`: `2^130 ≡ 8`
//! (mod `p`) because `2^127 ≡ 1`. The message is absorbed in blocks of
//! [`BLOCK`] = 97 words exactly as in sections 6–7: with `v` the value so
//! far and `m_0 … m_96` the words of the block,
//!
//! `v' = (v + m_0)·r^97 + m_1·r^96 + … + m_96·r`,
//!
//! one product by the precomputed `r^97`, 96 multiply-adds of a signed word
//! by the precomputed limbs of `r^96 … r^1`, and one squeeze. The last block
//! of a message may be shorter (`n` words use `r^n … r^1`).

use crate::prelude::*;
use zeroize::Zeroize;

use super::portable;
use super::P;
use crate::platform::Platform;

/// Bits per limb of the low four limbs.
pub const RADIX_BITS: u32 = 26;
/// Bits of the top limb (`127 − 4·26`).
pub const TOP_BITS: u32 = 127 - 4 * RADIX_BITS;
/// Limbs per element.
pub const LIMBS: usize = 5;
/// Words per block: one goes into the product by `r^BLOCK`, `BLOCK − 1` are
/// multiply-added with the table (the paper's 97 and 96).
pub const BLOCK: usize = 97;

/// An element mod `p` as five signed limbs of weights `2^(26j)`.
pub type Elem = [i64; LIMBS];

/// The limb bounds of a squeezed element: `|v_j| ≤ S[j]`. [`squeeze`]
/// produces them from any limbs below [`SQUEEZE_IN`]: the four carries
/// `0→1→2→3→4` leave `|v_j| ≤ 2^25` (`j < 4`), the carry out of the top
/// limb at `2^127` (weight 1, `2^127 ≡ 1`) leaves `|v_4| ≤ 2^22` and adds at
/// most `2^40` to `v_0`, whose last carry adds at most `2^14 + 1` to `v_1`.
pub const S: [u64; LIMBS] = [1 << 25, (1 << 25) + (1 << 15), 1 << 25, 1 << 25, 1 << 22];

/// [`squeeze`] takes limbs with `|u_j| ≤ SQUEEZE_IN` (the carries then stay
/// below `2^38` and no sum leaves `i64`).
pub const SQUEEZE_IN: u64 = (1 << 63) - (1 << 39);

/// The bound, limb by limb, of the sum a full block builds before its squeeze
/// (the headroom argument of the paper's section 7, for these limbs):
///
/// `U_j = Σ_{i+k=j} A_i S_k + 8 Σ_{i+k=j+5} A_i S_k + (BLOCK − 1)·2^31·S_j`
///
/// with `A = S` except `A_0 = S_0 + 2^31` (the first word of the block is
/// added to limb 0 of `v`). The first two sums bound the product by
/// `r^97` (the paper's `|t_j| ≤ 29·2^56·2^(26j)`; here about `1.3·2^56`), the
/// last the 96 products `m·c_{i,j}` with `|m| ≤ 2^31` (the paper's
/// `96·1.01·2^31·2^25·2^(26j)`). Every `U_j` is below [`SQUEEZE_IN`]
/// `< 2^63`, so the `i64` sums are exact: asserted at compile time below and
/// checked by `tests/suite/hash127_int26.rs` on extreme limbs.
pub const fn block_bound() -> [u128; LIMBS] {
    let mut a = [0u128; LIMBS];
    let mut j = 0;
    while j < LIMBS {
        a[j] = S[j] as u128;
        j += 1;
    }
    a[0] += 1 << 31;
    let mut u = [0u128; LIMBS];
    let mut j = 0;
    while j < LIMBS {
        let mut i = 0;
        while i < LIMBS {
            // a_i·c_k lands in limb i + k, or (times 8) in limb i + k − 5.
            let mut k = 0;
            while k < LIMBS {
                if i + k == j {
                    u[j] += a[i] * S[k] as u128;
                } else if i + k == j + LIMBS {
                    u[j] += 8 * a[i] * S[k] as u128;
                }
                k += 1;
            }
            i += 1;
        }
        u[j] += (BLOCK as u128 - 1) * (1 << 31) * S[j] as u128;
        j += 1;
    }
    u
}

#[cfg(target_arch = "aarch64")]
const _: () = assert!(super::neon::LIMBS == LIMBS && super::neon::REST == BLOCK - 1);

/// [`block_bound`], computed once.
pub const BLOCK_BOUND: [u128; LIMBS] = block_bound();

// The headroom argument: a block's sums never leave `i64` (and leave room
// for the squeeze's carries).
const _: () = {
    let u = BLOCK_BOUND;
    let mut j = 0;
    while j < LIMBS {
        assert!(u[j] <= SQUEEZE_IN as u128);
        j += 1;
    }
};

/// Round-to-nearest carry out of `x` at `bits`: `(x − c·2^bits, c)` with the
/// remainder in `[−2^(bits−1), 2^(bits−1))`. Arithmetic shifts and masks
/// only, no branch.
#[inline(always)]
fn carry(x: i64, bits: u32) -> (i64, i64) {
    let half = 1i64 << (bits - 1);
    let c = (x + half) >> bits;
    (((x + half) & ((1i64 << bits) - 1)) - half, c)
}

/// The paper's squeeze with six carries (`0→1→2→3→4`, `4→0` at `2^127`,
/// `0→1`): limbs with `|u_j| ≤ SQUEEZE_IN` to a squeezed element (`|v_j| ≤
/// S[j]`) of the same value mod `p`.
#[inline(always)]
pub fn squeeze(u: Elem) -> Elem {
    debug_assert!(u.iter().all(|x| x.unsigned_abs() <= SQUEEZE_IN), "squeeze input {u:?}");
    let mut v = u;
    for j in 0..4 {
        let (lo, c) = carry(v[j], RADIX_BITS);
        v[j] = lo;
        v[j + 1] += c;
    }
    let (lo, c) = carry(v[4], TOP_BITS);
    v[4] = lo;
    v[0] += c; // 2^127 ≡ 1
    let (lo, c) = carry(v[0], RADIX_BITS);
    v[0] = lo;
    v[1] += c;
    debug_assert!(v.iter().zip(S).all(|(x, s)| x.unsigned_abs() <= s), "squeeze output {v:?}");
    v
}

/// The limbs of `x < 2^127`, squeezed.
pub fn from_u128(x: u128) -> Elem {
    debug_assert!(x < 1 << 127);
    let mut v = [0i64; LIMBS];
    for (j, l) in v.iter_mut().enumerate() {
        *l = ((x >> (RADIX_BITS as usize * j)) as i64) & ((1 << RADIX_BITS) - 1);
    }
    squeeze(v)
}

/// The value in `[0, p−1]` of a squeezed element (plus, limb by limb, at
/// most another squeezed element or the limbs of a number below `2^127`:
/// any `|v_j| ≤ 2^40`). Constant time: carries by arithmetic shifts, the
/// last subtraction of `p` by a mask.
pub fn freeze(v: Elem) -> u128 {
    debug_assert!(v.iter().all(|x| x.unsigned_abs() <= 1 << 40));
    // Back to |v_j| ≤ S[j]; the value V then has |V| < 2^127.
    let mut v = squeeze(v);
    // Add p = 2^127 − 1 (limb 4 gets 2^23, limb 0 loses 1): V + p ≥ 0.
    v[4] += 1 << TOP_BITS;
    v[0] -= 1;
    // Floor carries: limbs 0..3 into [0, 2^26), V + p < 2^128 so the top
    // limb is in [0, 2^24).
    let floor_chain = |v: &mut Elem| {
        for j in 0..4 {
            let c = v[j] >> RADIX_BITS;
            v[j] &= (1 << RADIX_BITS) - 1;
            v[j + 1] += c;
        }
    };
    floor_chain(&mut v);
    // Fold bit 127 (0 or 1) into limb 0: the value is now at most 2^127.
    let c = v[4] >> TOP_BITS;
    v[4] &= (1 << TOP_BITS) - 1;
    v[0] += c;
    floor_chain(&mut v);
    debug_assert!(v.iter().all(|&x| x >= 0) && v[4] <= 1 << TOP_BITS);
    let x = v.iter().enumerate().fold(0u128, |a, (j, &l)| a + ((l as u128) << (RADIX_BITS as usize * j)));
    // x ≤ 2^127 = p + 1: subtract p when x ≥ p, by the sign of x − p.
    let d = x.wrapping_sub(P);
    let keep = ((d as i128) >> 127) as u128; // all ones iff x < p
    (d & !keep) | (x & keep)
}

/// `a·c` in `Z[x]/(x^5 − 8)`, `x = 2^26`: the unreduced limbs
/// `t_j = Σ_{i+k=j} a_i c_k + 8 Σ_{i+k=j+5} a_i c_k`. For `a` squeezed with
/// a word added to limb 0 and `c` squeezed, `|t_j|` is at most the first
/// two sums of [`block_bound`].
#[inline(always)]
pub fn prod(a: &Elem, c: &Elem) -> Elem {
    let c8 = [0, c[1] << 3, c[2] << 3, c[3] << 3, c[4] << 3];
    [
        a[0] * c[0] + a[1] * c8[4] + a[2] * c8[3] + a[3] * c8[2] + a[4] * c8[1],
        a[0] * c[1] + a[1] * c[0] + a[2] * c8[4] + a[3] * c8[3] + a[4] * c8[2],
        a[0] * c[2] + a[1] * c[1] + a[2] * c[0] + a[3] * c8[4] + a[4] * c8[3],
        a[0] * c[3] + a[1] * c[2] + a[2] * c[1] + a[3] * c[0] + a[4] * c8[4],
        a[0] * c[4] + a[1] * c[3] + a[2] * c[2] + a[3] * c[1] + a[4] * c[0],
    ]
}

/// `a·b mod p` for squeezed `a, b`, squeezed.
pub fn mul(a: &Elem, b: &Elem) -> Elem {
    squeeze(prod(a, b))
}

/// The per-key powers: `desc[BLOCK − i] = r^i` for `1 ≤ i ≤ BLOCK`,
/// squeezed (`|c_{i,j}| ≤ S[j]`), so a block of `n` words reads
/// `desc[BLOCK − n ..]` forward.
pub struct Table {
    desc: [Elem; BLOCK],
    /// The limbs of `r^96 … r^1` (`desc[1..]`) as `i32` (`|c_{i,j}| ≤
    /// S[j] < 2^31`), four powers at a time, limb by limb: `cols[q][j][l]`
    /// is limb `j` of `desc[1 + 4q + l]`, the layout of the NEON columns
    /// (one quad's twenty limbs in two loads).
    #[cfg(target_arch = "aarch64")]
    cols: [[[i32; 4]; LIMBS]; (BLOCK - 1) / 4],
}

impl Zeroize for Table {
    fn zeroize(&mut self) {
        for e in self.desc.iter_mut() {
            e.zeroize();
        }
        #[cfg(target_arch = "aarch64")]
        for q in self.cols.iter_mut() {
            for c in q.iter_mut() {
                c.zeroize();
            }
        }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl Table {
    /// Expand `r < p` (97 multiplications mod `p`, about 1 µs).
    pub fn new(r: u128) -> Box<Table> {
        let mut t = Box::new(Table {
            desc: [[0; LIMBS]; BLOCK],
            #[cfg(target_arch = "aarch64")]
            cols: [[[0; 4]; LIMBS]; (BLOCK - 1) / 4],
        });
        let mut x = r;
        for i in 1..=BLOCK {
            t.desc[BLOCK - i] = from_u128(x);
            x = portable::mul_mod(x, r);
        }
        x.zeroize();
        #[cfg(target_arch = "aarch64")]
        for (i, e) in t.desc[1..].iter().enumerate() {
            for (col, &limb) in t.cols[i / 4].iter_mut().zip(e) {
                col[i % 4] = limb as i32;
            }
        }
        t
    }
}

#[inline(always)]
fn word(c: &[u8]) -> i64 {
    i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i64
}

/// One block: `v ← (v + m_0)·r^n + m_1·r^(n−1) + … + m_(n−1)·r` for the
/// little-endian signed words of `words` followed by `tail` if given, `n`
/// words in all, `1 ≤ n ≤ BLOCK`. The sums before the squeeze are bounded by
/// [`block_bound`] (fewer words, smaller sums). Only the (public) length
/// decides the control flow.
#[inline(always)]
fn block(v: &mut Elem, t: &Table, words: &[u8], tail: Option<i32>) {
    let n = words.len() / 4 + tail.is_some() as usize;
    debug_assert!((1..=BLOCK).contains(&n) && words.len().is_multiple_of(4));
    let pw = &t.desc[BLOCK - n..];
    let (first, rest, tail) = match (words.len(), tail) {
        (0, Some(w)) => (w as i64, words, None),
        _ => (word(words), &words[4..], tail),
    };
    let mut a = *v;
    a[0] += first;
    let mut u = prod(&a, &pw[0]);
    // The paper's `u_j = b_j + m_(l−96) c_(96,j) + … + m_(l−1) c_(1,j)`:
    // each term is at most 2^31·S[j] ≤ 2^56·2^(26j) in the paper's scaling,
    // and at most 96 of them join `b_j`, so `|u_j| ≤ block_bound()[j] < 2^63`.
    for (c, p) in rest.chunks_exact(4).zip(&pw[1..]) {
        let m = word(c);
        for j in 0..LIMBS {
            u[j] += m * p[j];
        }
    }
    if let Some(w) = tail {
        let p = &t.desc[BLOCK - 1];
        for j in 0..LIMBS {
            u[j] += w as i64 * p[j];
        }
    }
    // Instrumented in debug builds (the tests): besides Rust's overflow
    // checks on every `i64` operation above, the sums must be within the
    // documented bound.
    debug_assert!(u.iter().zip(BLOCK_BOUND).all(|(x, b)| x.unsigned_abs() as u128 <= b), "block sums {u:?}");
    *v = squeeze(u);
}

/// A full block with the NEON columns: the first word's product by `r^97`
/// and the squeeze as in [`block`], the other 96 multiply-adds in lanes.
#[cfg(target_arch = "aarch64")]
fn block_neon(p: Platform, v: &mut Elem, t: &Table, words: &[u8]) {
    debug_assert_eq!(words.len(), 4 * BLOCK);
    let mut a = *v;
    a[0] += word(words);
    let mut u = prod(&a, &t.desc[0]);
    super::neon::rest(p, &t.cols, &words[4..], &mut u);
    debug_assert!(u.iter().zip(BLOCK_BOUND).all(|(x, b)| x.unsigned_abs() as u128 <= b), "block sums {u:?}");
    *v = squeeze(u);
}

/// Absorb the little-endian signed words of `bytes` (length a multiple of 4),
/// then `tail` if given, into the squeezed value `v` (`v` maps to `(v + m)·r`
/// for each word `m`). Full blocks take the NEON columns where the evidence
/// `p` has NEON (aarch64).
pub fn absorb(p: Platform, v: &mut Elem, t: &Table, bytes: &[u8], tail: Option<i32>) {
    debug_assert!(bytes.len().is_multiple_of(4));
    let mut blocks = bytes.chunks_exact(4 * BLOCK);
    #[cfg(target_arch = "aarch64")]
    if p.has(crate::platform::Feature::Neon) {
        for b in &mut blocks {
            block_neon(p, v, t, b);
        }
    }
    let _ = p;
    for b in &mut blocks {
        block(v, t, b, None);
    }
    // The last, shorter block: fewer than BLOCK words, with the tail at most BLOCK.
    let rest = blocks.remainder();
    if !rest.is_empty() || tail.is_some() {
        block(v, t, rest, tail);
    }
}

/// `(v + k) mod p` in `[0, p−1]` for squeezed `v` and `k < p`.
pub fn finish(v: &Elem, k: u128) -> u128 {
    let k = from_u128(k);
    let mut s = *v;
    for (x, y) in s.iter_mut().zip(k) {
        *x += y;
    }
    freeze(s)
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_big_integer_model() {
        super::super::tests::differential(super::super::Backend::Int26);
    }
}

/// The NEON columns (`neon.rs`) against the scalar ones.
#[cfg(all(test, target_arch = "aarch64"))]
mod neon_tests {
    use super as int26;
    use super::super::{portable, P};
    use crate::platform::{Feature, Platform};
    use rand::{Rng, RngExt, SeedableRng};

    /// `v ← (v + m)·r mod p` for each signed word `m` of `bytes`, then `tail`.
    fn model(v0: u128, r: u128, bytes: &[u8], tail: i32) -> u128 {
        let words = bytes.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap()));
        words.chain([tail]).fold(v0, |v, w| {
            let m = if w < 0 { P - (-(w as i64)) as u128 } else { w as u128 };
            portable::mul_mod((v + m) % P, r)
        })
    }

    /// `int26::absorb` with the NEON columns against the scalar columns and
    /// against the `u128` code, on every length from 0 to three blocks and
    /// a tail, with random words and the extreme ones (`0x7fffffff`,
    /// `0x80000000` = `−2^31`, `0xffffffff` = `−1`), on random keys and on
    /// `r = p − 1`.
    #[test]
    fn neon_columns_equal_the_scalar_ones() {
        let hw = Platform::hardware();
        if !hw.has(Feature::Neon) {
            crate::platform::skipped_kernel("neon");
            return;
        }
        let scalar = Platform::portable();
        let mut rng = rand::rngs::StdRng::seed_from_u64(127);
        let mut compared = 0;
        for key in 0..4 {
            let r = if key == 0 { P - 1 } else { rng.random::<u128>() % P };
            let t = int26::Table::new(r);
            for fill in [None, Some(0x7fff_ffffu32), Some(0x8000_0000), Some(0xffff_ffff)] {
                let mut msg = vec![0u8; 4 * (3 * int26::BLOCK + 5)];
                match fill {
                    None => rng.fill_bytes(&mut msg),
                    Some(w) => msg.chunks_exact_mut(4).for_each(|c| c.copy_from_slice(&w.to_le_bytes())),
                }
                for words in (0..=msg.len() / 4).step_by(7).chain([int26::BLOCK, 2 * int26::BLOCK, 3 * int26::BLOCK]) {
                    let m = &msg[..4 * words];
                    let v0 = rng.random::<u128>() % P;
                    let mut a = int26::from_u128(v0);
                    let mut b = a;
                    int26::absorb(hw, &mut a, &t, m, Some(-7));
                    int26::absorb(scalar, &mut b, &t, m, Some(-7));
                    assert_eq!(int26::freeze(a), int26::freeze(b), "r {r:#x}, {words} words");
                    // And the u128 arithmetic, word by word.
                    let want = model(v0, r, m, -7);
                    assert_eq!(int26::freeze(a), want, "u128 model, {words} words");
                    compared += 1;
                }
            }
        }
        assert!(compared > 0);
    }
}
