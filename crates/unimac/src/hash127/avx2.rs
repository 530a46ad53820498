//! hash127 with AVX2 and FMA: the paper's floating-point method (Bernstein,
//! "Floating-point arithmetic and message authentication", §6) on four lanes of 53-bit doubles.
//!
//! The state is eight limbs (`t_j ∈ 2^(16j) Z`, section 3) in each of four
//! lanes; the value it stands for is the sum over lanes and limbs. Lane `l`
//! collects the words at positions `≡ l (mod 4)` of a chunk, so one group of
//! four message words is one vector, converted once, multiplied by eight
//! vectors of precomputed powers `c_{i,j}` with eight FMAs (the "8 limbs ×
//! 4 lanes" dot product). Between chunks each lane is squeezed and
//! multiplied by `r^n` with `prod`, all four lanes at once; only the final
//! result is summed across lanes and frozen.
//!
//! Every FMA here is exact: its product is exact (`|m·c| <= 1.01·2^46` times
//! the limb's scale) and its sum is within the chunk bound derived at
//! [`super::fp::GROUPS`], so `fp53` never rounds (Theorem 2.2).

#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::fp::{self, Table, CHUNK_BYTES, CHUNK_WORDS};
use crate::platform::Platform;

/// The vector state: `acc[4j + l]` is limb `j` of lane `l`.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct State {
    acc: [f64; 32],
    /// Nothing absorbed yet and the value is `r` (the leading `r^(l+1)`
    /// term): the first chunk of `n` words then starts from `c_{n+1}` instead
    /// of squeezing and multiplying.
    fresh: bool,
}

impl State {
    /// The start of a message: value `r`.
    pub(crate) fn new() -> State {
        State { acc: [0.0; 32], fresh: true }
    }

    /// The value `x` (any `x < 2^128`), in lane 0 as sixteen-bit limbs.
    pub(crate) fn from_value(x: u128) -> State {
        let mut acc = [0.0; 32];
        for (j, l) in fp::limbs_of(x).into_iter().enumerate() {
            acc[4 * j] = l;
        }
        State { acc, fresh: false }
    }

    pub(crate) fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.acc);
    }
}

/// `y = top_k(x)` on four lanes (Theorem 2.4), with `a = 3·2^(k+51)`.
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[inline(always)]
unsafe fn top(x: __m256d, a: __m256d) -> __m256d {
    // SAFETY: register-only AVX instructions; the caller guarantees AVX2.
    unsafe { _mm256_sub_pd(_mm256_add_pd(x, a), a) }
}

/// `squeeze` (section 3) on four lanes at once, in the paper's parallel
/// order (`fp::SQUEEZE_PARALLEL`: six steps of two independent carries; its
/// bounds, `|t_j| <= 0.98·2^53·2^(16j)` in, `|v_j| <= 1.01·2^15·2^(16j)` out,
/// are checked in the tests as for Theorem 3.2).
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[inline(always)]
unsafe fn squeeze(t: &mut [__m256d; 8]) {
    // SAFETY: register-only AVX2 and FMA instructions; the caller guarantees both.
    unsafe {
        // Spelled out (indices are literals) so the limbs stay in registers.
        macro_rules! carry {
            (7) => {{
                let y = top(t[7], _mm256_set1_pd(3.0 * fp::pow2(178)));
                t[7] = _mm256_sub_pd(t[7], y);
                // 2^127 ≡ 1 (mod p): y·2^−127 is exact and joins limb 0.
                t[0] = _mm256_fmadd_pd(y, _mm256_set1_pd(fp::pow2(-127)), t[0]);
            }};
            ($i:literal) => {{
                let y = top(t[$i], _mm256_set1_pd(3.0 * fp::pow2(67 + 16 * $i)));
                t[$i] = _mm256_sub_pd(t[$i], y);
                t[$i + 1] = _mm256_add_pd(t[$i + 1], y);
            }};
        }
        // fp::SQUEEZE_PARALLEL = [0, 4, 1, 5, 2, 6, 3, 7, 0, 4, 1, 5].
        carry!(0);
        carry!(4);
        carry!(1);
        carry!(5);
        carry!(2);
        carry!(6);
        carry!(3);
        carry!(7);
        carry!(0);
        carry!(4);
        carry!(1);
        carry!(5);
    }
}

/// `d + prod(w, u)` (section 5) on four lanes, `w` broadcast from
/// `mul = [w_0..w_3, 0, 2^−127 w_1..w_3]`. With `|w_i| <= 1.02·2^31·2^(32i)`
/// and `|u_j| <= 1.01·2^15·2^(16j)` the product limbs are at most
/// `2^50·2^(16j)` (Theorem 5.1), and every partial sum with `d` stays within
/// the chunk bound, so each FMA is exact in any order (Theorem 5.2).
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[inline(always)]
unsafe fn prod_add(mul: &[f64; 8], u: &[__m256d; 8], d: &mut [__m256d; 8]) {
    // SAFETY: register-only AVX2 and FMA instructions; the caller guarantees both.
    unsafe {
        for a in 0..4 {
            for k in 0..4 {
                let m = _mm256_set1_pd(if k <= a { mul[a - k] } else { mul[8 + a - k] });
                d[2 * a] = _mm256_fmadd_pd(m, u[2 * k], d[2 * a]);
                d[2 * a + 1] = _mm256_fmadd_pd(m, u[2 * k + 1], d[2 * a + 1]);
            }
        }
    }
}

/// The state's limbs in registers.
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn load(st: &State) -> [__m256d; 8] {
    // SAFETY: the caller guarantees AVX; `acc` is 32-byte aligned (the
    // first field of a `repr(C, align(32))` struct) and holds 32 doubles, so
    // each aligned load of four at 4j, j < 8, is in bounds.
    core::array::from_fn(|j| unsafe { _mm256_load_pd(st.acc.as_ptr().add(4 * j)) })
}

/// The limbs `v` back into the state.
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn store(st: &mut State, v: &[__m256d; 8]) {
    for (j, x) in v.iter().enumerate() {
        // SAFETY: as in `load`.
        unsafe { _mm256_store_pd(st.acc.as_mut_ptr().add(4 * j), *x) };
    }
}

/// The dot product of section 6 for one group of words `$words`, group
/// `$e` of the table `$tab` counted from the chunk's end: limb j of each
/// lane of the accumulators `$d` gains m·c_{i,j}. For `chunk!` only.
macro_rules! group4 {
    ($d:ident, $tab:ident, $e:expr, $words:expr) => {{
        let w = _mm256_cvtepi32_pd($words);
        // SAFETY: `$e < groups <= t.tab.len()` (asserted by `chunk!`), and a
        // `Group` is 32 doubles, 32-byte aligned: each aligned load of
        // four at 4j, j < 8, is inside it.
        unsafe {
            let c = (*$tab.add($e)).0.as_ptr();
            for j in 0..8 {
                $d[j] = _mm256_fmadd_pd(w, _mm256_load_pd(c.add(4 * j)), $d[j]);
            }
        }
    }};
}

/// One chunk: the words of `m` (`m.len()` a multiple of 4) followed by
/// `tail` if present, `n` words in all with `1 <= n <= CHUNK_WORDS`:
/// `state ← state·r^n + Σ_t m_t r^(n−t)`.
///
/// A macro rather than a function: it expands inside each
/// `#[target_feature]` caller (`chunks_*`, `last_*`), where its intrinsics
/// are safe to call and, for whole chunks, the length is a constant the
/// loops are unrolled with, as `#[inline(always)]` gave before (a
/// `#[target_feature]` function cannot be forced inline, and an
/// out-of-line chunk measured 2–10 % slower on bulk data).
macro_rules! chunk {
    ($st:expr, $t:expr, $m:expr, $tail:expr) => {{
        let st: &mut State = $st;
        let t: &Table = $t;
        let m: &[u8] = $m;
        let tail: Option<i32> = $tail;
        let n0 = m.len() / 4;
        let n = n0 + tail.is_some() as usize;
        assert!(m.len().is_multiple_of(4) && (1..=CHUNK_WORDS).contains(&n));
        let groups = n.div_ceil(4);
        // The group loads below read the table's groups 0..groups.
        assert!(groups <= t.tab.len(), "hash127 avx2 chunk: the table ends before the chunk");
        // A chunk whose length is not a multiple of four (only the last one of a
        // message) starts with `lead` zero words, so that its groups line up with
        // the table, which counts groups from the chunk's end.
        let lead = 4 * groups - n;
        let mut d = [_mm256_setzero_pd(); 8];
        let tab = t.tab.as_ptr();
        let base = m.as_ptr();

        // Word `v` of the chunk padded in front with `lead` zeros.
        let word = |v: usize| -> i32 {
            if v < lead {
                0
            } else if v - lead < n0 {
                // SAFETY: v − lead < n0 words lie inside `m`.
                i32::from_le_bytes(unsafe { *(base.add(4 * (v - lead)) as *const [u8; 4]) })
            } else {
                tail.unwrap_or(0)
            }
        };

        let mut g = 0;
        if lead != 0 {
            let w: [i32; 4] = core::array::from_fn(word);
            // SAFETY (the load): `w` is 16 bytes.
            group4!(d, tab, groups - 1, unsafe { _mm_loadu_si128(w.as_ptr() as *const __m128i) });
            g = 1;
        }
        // Whole groups read straight from `m`: group g is words 4g − lead .. 4g − lead + 3.
        let full_end = if tail.is_some() { groups - 1 } else { groups };
        while g + 2 <= full_end {
            // SAFETY: both groups lie inside `m` (g + 1 < full_end), so the
            // pointer to the first stays inside it.
            let p = unsafe { base.add(4 * (4 * g - lead)) };
            // SAFETY: the first group lies inside `m`.
            group4!(d, tab, groups - 1 - g, unsafe { _mm_loadu_si128(p as *const __m128i) });
            // SAFETY: the second group lies inside `m`.
            group4!(d, tab, groups - 2 - g, unsafe { _mm_loadu_si128(p.add(16) as *const __m128i) });
            g += 2;
        }
        while g < groups {
            if g < full_end {
                // SAFETY: the group lies inside `m` (g < full_end).
                group4!(d, tab, groups - 1 - g, unsafe { _mm_loadu_si128(base.add(4 * (4 * g - lead)) as *const __m128i) });
            } else {
                let w: [i32; 4] = core::array::from_fn(|i| word(4 * g + i));
                // SAFETY: `w` is 16 bytes.
                group4!(d, tab, groups - 1 - g, unsafe { _mm_loadu_si128(w.as_ptr() as *const __m128i) });
            }
            g += 1;
        }

        if st.fresh {
            // state = r: r·r^n = r^(n+1) = c_{n+1}, in lane 0.
            let c = &t.pow[n + 1];
            for j in 0..8 {
                d[j] = _mm256_add_pd(d[j], _mm256_set_pd(0.0, 0.0, 0.0, c[j]));
            }
            st.fresh = false;
        } else {
            // SAFETY: this function has AVX2 and FMA.
            unsafe {
                let mut u = load(st);
                squeeze(&mut u);
                prod_add(&t.mul[n], &u, &mut d);
            }
        }
        // SAFETY: this function has AVX2.
        unsafe { store(st, &d) };
    }};
}

/// Absorb whole chunks: `m.len()` is a multiple of `CHUNK_BYTES`.
///
/// # Panics
/// If `platform` lacks AVX2 and FMA.
pub(crate) fn chunks(platform: Platform, st: &mut State, t: &Table, m: &[u8]) {
    assert!(platform.avx2_fma(), "hash127 avx2 kernel without AVX2 and FMA");
    // SAFETY: the evidence `platform` shows AVX2 and FMA.
    unsafe { chunks_avx2(st, t, m) }
}

#[target_feature(enable = "avx2,fma")]
fn chunks_avx2(st: &mut State, t: &Table, m: &[u8]) {
    assert!(m.len().is_multiple_of(CHUNK_BYTES));
    for c in m.chunks_exact(CHUNK_BYTES) {
        chunk!(st, t, c, None);
    }
}

/// Absorb a last, possibly short chunk: the words of `m` (`m.len()` a
/// multiple of 4), then `tail` if present; at most `CHUNK_WORDS` words.
///
/// # Panics
/// If `platform` lacks AVX2 and FMA.
pub(crate) fn last(platform: Platform, st: &mut State, t: &Table, m: &[u8], tail: Option<i32>) {
    assert!(platform.avx2_fma(), "hash127 avx2 kernel without AVX2 and FMA");
    // SAFETY: the evidence `platform` shows AVX2 and FMA.
    unsafe { last_avx2(st, t, m, tail) }
}

#[target_feature(enable = "avx2,fma")]
fn last_avx2(st: &mut State, t: &Table, m: &[u8], tail: Option<i32>) {
    assert!(m.len().is_multiple_of(4) && m.len() / 4 + tail.is_some() as usize <= CHUNK_WORDS);
    if !m.is_empty() || tail.is_some() {
        chunk!(st, t, m, tail);
    }
}

/// `(value + k) mod p` as four words: squeeze every lane, add the lanes
/// (`|v_j| <= 4·1.01·2^15·2^(16j)`), `w_j = v_{2j} + v_{2j+1}`
/// (`|w_j| <= 4.1·2^31·2^(32j)`), `t_j = w_j + k_j` (`|t_j| <= 5.1·2^31·2^(32j)
/// <= 2^49·2^(32j)`), then `freeze` (Theorem 4.2).
///
/// # Panics
/// If `platform` lacks AVX2 and FMA.
pub(crate) fn finish(platform: Platform, st: &State, t: &Table, k: &[f64; 4]) -> [u32; 4] {
    assert!(platform.avx2_fma(), "hash127 avx2 kernel without AVX2 and FMA");
    // SAFETY: the evidence `platform` shows AVX2 and FMA.
    unsafe { finish_avx2(st, t, k) }
}

#[target_feature(enable = "avx2,fma")]
fn finish_avx2(st: &State, t: &Table, k: &[f64; 4]) -> [u32; 4] {
    let mut v = [0.0f64; 8];
    if st.fresh {
        v = t.pow[1];
    } else {
        // SAFETY: this function has AVX2 and FMA.
        let u = unsafe {
            let mut u = load(st);
            squeeze(&mut u);
            u
        };
        for j in 0..8 {
            // Horizontal sum of the four lanes of limb j (exact: < 2^18·2^(16j)).
            let lo = _mm256_castpd256_pd128(u[j]);
            let hi = _mm256_extractf128_pd(u[j], 1);
            let s = _mm_add_pd(lo, hi);
            v[j] = _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
        }
    }
    let w = fp::merge(&v);
    fp::freeze(&core::array::from_fn(|j| w[j] + k[j]))
}

/// Column sums of the short path's head (see `portable::ShortPowers`): for
/// the `words.len() / 16` groups of four words `m_i` (the first words of a
/// message of `l` words, `off = SHORT_WORDS − l`), `Σ_i u_i·limbs[k][off + i]`
/// for each limb `k`, with `u_i = m_i + 2^31`. Four words per vector, one
/// VPMULUDQ per limb; every sum stays below 2^64 (at most 256 products below
/// 2^56).
///
/// # Panics
/// If `platform` lacks AVX2, or the powers end before the words.
pub(crate) fn short_head(
    platform: Platform,
    sp: &super::portable::ShortPowers,
    words: &[u8],
    off: usize,
) -> [u64; super::portable::LIMBS] {
    assert!(platform.avx2_fma(), "hash127 avx2 kernel without AVX2");
    // SAFETY: the evidence `platform` shows AVX2.
    unsafe { short_head_avx2(sp, words, off) }
}

#[target_feature(enable = "avx2")]
fn short_head_avx2(sp: &super::portable::ShortPowers, words: &[u8], off: usize) -> [u64; super::portable::LIMBS] {
    use super::portable::{LIMBS, SHORT_WORDS};
    let groups = words.len() / 16;
    // The loads below read limbs[k][off .. off + 4·groups] and words[.. 16·groups].
    assert!(off + 4 * groups <= SHORT_WORDS, "short_head: the powers end before the words");
    let bias = _mm256_set1_epi64x(0x8000_0000);
    let mut acc = [_mm256_setzero_si256(); LIMBS];
    for g in 0..groups {
        // SAFETY: 16·g + 16 <= words.len() (g < groups).
        let w = unsafe { _mm_loadu_si128(words.as_ptr().add(16 * g) as *const __m128i) };
        let u = _mm256_xor_si256(_mm256_cvtepu32_epi64(w), bias);
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: off + 4·g + 4 <= SHORT_WORDS (asserted above).
            let p = unsafe { _mm256_loadu_si256(sp.limbs[k].as_ptr().add(off + 4 * g) as *const __m256i) };
            *a = _mm256_add_epi64(*a, _mm256_mul_epu32(u, p));
        }
    }
    let mut cols = [0u64; LIMBS];
    for (c, a) in cols.iter_mut().zip(&acc) {
        let s = _mm_add_epi64(_mm256_castsi256_si128(*a), _mm256_extracti128_si256::<1>(*a));
        *c = (_mm_cvtsi128_si64(s) as u64).wrapping_add(_mm_extract_epi64::<1>(s) as u64);
    }
    cols
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_big_integer_model() {
        super::super::tests::differential(super::super::Backend::Avx2Fma);
    }
}
