//! hash127 with AVX-512F: the paper's floating-point method (Bernstein,
//! "Floating-point arithmetic and message authentication", §6) on eight lanes of 53-bit doubles, 512-bit FMAs.
//!
//! The same method as `avx2.rs` with twice the lanes: the state is eight
//! limbs (`t_j ∈ 2^(16j) Z`, section 3) in each of eight lanes, and the value
//! it stands for is the sum over lanes and limbs. Lane `l` collects the
//! words at positions `≡ l (mod 8)` of a chunk, so one group of eight message
//! words is one vector, converted once, multiplied by eight vectors of
//! precomputed powers `c_{i,j}` (`fp::Table::tab8`) with eight FMAs: 8 FMAs
//! per 32 bytes instead of per 16. Between chunks each lane is squeezed and
//! multiplied by `r^n` with `prod`, all eight lanes at once; only the final
//! result is summed across lanes and frozen.
//!
//! Every FMA here is exact: its product is exact (`|m·c| <= 1.01·2^46` times
//! the limb's scale) and its sum is within the chunk bound derived at
//! [`super::fp::GROUPS8`] (at most `0.55·2^53` per limb scale), so `fp53`
//! never rounds (Theorem 2.2).

#![deny(unsafe_op_in_unsafe_fn)]

// The SIMD loops index the limbs of several arrays by the same number.
#![allow(clippy::needless_range_loop)]

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::fp::{self, Table, CHUNK_BYTES, CHUNK_WORDS};
use crate::platform::Platform;

/// The vector state: `acc[8j + l]` is limb `j` of lane `l`.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct State {
    acc: [f64; 64],
    /// Nothing absorbed yet and the value is `r` (the leading `r^(l+1)`
    /// term): the first chunk of `n` words then starts from `c_{n+1}` instead
    /// of squeezing and multiplying.
    fresh: bool,
}

impl State {
    /// The start of a message: value `r`.
    pub(crate) fn new() -> State {
        State { acc: [0.0; 64], fresh: true }
    }

    /// The value `x` (any `x < 2^128`), in lane 0 as sixteen-bit limbs.
    pub(crate) fn from_value(x: u128) -> State {
        let mut acc = [0.0; 64];
        for (j, l) in fp::limbs_of(x).into_iter().enumerate() {
            acc[8 * j] = l;
        }
        State { acc, fresh: false }
    }

    pub(crate) fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.acc);
    }
}

/// `y = top_k(x)` on eight lanes (Theorem 2.4), with `a = 3·2^(k+51)`.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn top(x: __m512d, a: __m512d) -> __m512d {
    // SAFETY: register-only AVX-512F instructions; the caller guarantees AVX-512F.
    unsafe { _mm512_sub_pd(_mm512_add_pd(x, a), a) }
}

/// `squeeze` (section 3) on eight lanes at once, in the paper's parallel
/// order (`fp::SQUEEZE_PARALLEL`; bounds `|t_j| <= 0.98·2^53·2^(16j)` in,
/// `|v_j| <= 1.01·2^15·2^(16j)` out, checked in the tests as for Theorem 3.2).
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn squeeze(t: &mut [__m512d; 8]) {
    // SAFETY: register-only AVX-512F and FMA instructions; the caller guarantees them.
    unsafe {
        // Spelled out (indices are literals) so the limbs stay in registers.
        macro_rules! carry {
            (7) => {{
                let y = top(t[7], _mm512_set1_pd(3.0 * fp::pow2(178)));
                t[7] = _mm512_sub_pd(t[7], y);
                // 2^127 ≡ 1 (mod p): y·2^−127 is exact and joins limb 0.
                t[0] = _mm512_fmadd_pd(y, _mm512_set1_pd(fp::pow2(-127)), t[0]);
            }};
            ($i:literal) => {{
                let y = top(t[$i], _mm512_set1_pd(3.0 * fp::pow2(67 + 16 * $i)));
                t[$i] = _mm512_sub_pd(t[$i], y);
                t[$i + 1] = _mm512_add_pd(t[$i + 1], y);
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

/// `d + prod(w, u)` (section 5) on eight lanes, `w` broadcast from
/// `mul = [w_0..w_3, 0, 2^−127 w_1..w_3]`. With `|w_i| <= 1.02·2^31·2^(32i)`
/// and `|u_j| <= 1.01·2^15·2^(16j)` the product limbs are at most
/// `2^50·2^(16j)` (Theorem 5.1), and every partial sum with `d` stays within
/// the chunk bound, so each FMA is exact in any order (Theorem 5.2).
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn prod_add(mul: &[f64; 8], u: &[__m512d; 8], d: &mut [__m512d; 8]) {
    // SAFETY: register-only AVX-512F instructions; the caller guarantees AVX-512F.
    unsafe {
        for a in 0..4 {
            for k in 0..4 {
                let m = _mm512_set1_pd(if k <= a { mul[a - k] } else { mul[8 + a - k] });
                d[2 * a] = _mm512_fmadd_pd(m, u[2 * k], d[2 * a]);
                d[2 * a + 1] = _mm512_fmadd_pd(m, u[2 * k + 1], d[2 * a + 1]);
            }
        }
    }
}

/// The state's limbs in registers.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn load(st: &State) -> [__m512d; 8] {
    // SAFETY: the caller guarantees AVX-512F; `acc` is 64-byte aligned (the
    // first field of a `repr(C, align(64))` struct) and holds 64 doubles, so
    // each aligned load of eight at 8j, j < 8, is in bounds.
    core::array::from_fn(|j| unsafe { _mm512_load_pd(st.acc.as_ptr().add(8 * j)) })
}

/// The limbs `v` back into the state.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn store(st: &mut State, v: &[__m512d; 8]) {
    for (j, x) in v.iter().enumerate() {
        // SAFETY: as in `load`.
        unsafe { _mm512_store_pd(st.acc.as_mut_ptr().add(8 * j), *x) };
    }
}

/// The dot product of section 6 for one group of words `$words`, group
/// `$e` of the table `$tab` counted from the chunk's end: limb j of each
/// lane of the accumulators `$d` gains m·c_{i,j}. For `chunk!` only.
macro_rules! group8 {
    ($d:ident, $tab:ident, $e:expr, $words:expr) => {{
        let w = _mm512_cvtepi32_pd($words);
        // SAFETY: `$e < groups <= tab.len()` (asserted by `chunk!`), and a
        // `Group8` is 64 doubles, 64-byte aligned: each aligned load of
        // eight at 8j, j < 8, is inside it.
        unsafe {
            let c = (*$tab.add($e)).0.as_ptr();
            for j in 0..8 {
                $d[j] = _mm512_fmadd_pd(w, _mm512_load_pd(c.add(8 * j)), $d[j]);
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
    ($st:expr, $t:expr, $tab:expr, $m:expr, $tail:expr) => {{
        let st: &mut State = $st;
        let t: &Table = $t;
        let tab: &[fp::Group8] = $tab;
        let m: &[u8] = $m;
        let tail: Option<i32> = $tail;
        let n0 = m.len() / 4;
        let n = n0 + tail.is_some() as usize;
        assert!(m.len().is_multiple_of(4) && (1..=CHUNK_WORDS).contains(&n));
        let groups = n.div_ceil(8);
        // The group loads below read the table's groups 0..groups.
        assert!(groups <= tab.len(), "hash127 avx512 chunk: the table ends before the chunk");
        // A chunk whose length is not a multiple of eight (only the last one of
        // a message) starts with `lead` zero words, so that its groups line up
        // with the table, which counts groups from the chunk's end.
        let lead = 8 * groups - n;
        let mut d = [_mm512_setzero_pd(); 8];
        let tab = tab.as_ptr();
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
            let w: [i32; 8] = core::array::from_fn(word);
            // SAFETY (the load): `w` is 32 bytes.
            group8!(d, tab, groups - 1, unsafe { _mm256_loadu_si256(w.as_ptr() as *const __m256i) });
            g = 1;
        }
        // Whole groups read straight from `m`: group g is words 8g − lead .. 8g − lead + 7.
        let full_end = if tail.is_some() { groups - 1 } else { groups };
        while g + 2 <= full_end {
            // SAFETY: both groups lie inside `m` (g + 1 < full_end), so the
            // pointer to the first stays inside it.
            let p = unsafe { base.add(4 * (8 * g - lead)) };
            // SAFETY: the first group lies inside `m`.
            group8!(d, tab, groups - 1 - g, unsafe { _mm256_loadu_si256(p as *const __m256i) });
            // SAFETY: the second group lies inside `m`.
            group8!(d, tab, groups - 2 - g, unsafe { _mm256_loadu_si256(p.add(32) as *const __m256i) });
            g += 2;
        }
        while g < groups {
            if g < full_end {
                // SAFETY: the group lies inside `m` (g < full_end).
                group8!(d, tab, groups - 1 - g, unsafe { _mm256_loadu_si256(base.add(4 * (8 * g - lead)) as *const __m256i) });
            } else {
                let w: [i32; 8] = core::array::from_fn(|i| word(8 * g + i));
                // SAFETY: `w` is 32 bytes.
                group8!(d, tab, groups - 1 - g, unsafe { _mm256_loadu_si256(w.as_ptr() as *const __m256i) });
            }
            g += 1;
        }

        if st.fresh {
            // state = r: r·r^n = r^(n+1) = c_{n+1}, in lane 0.
            let c = &t.pow[n + 1];
            for j in 0..8 {
                d[j] = _mm512_mask_add_pd(d[j], 1, d[j], _mm512_set1_pd(c[j]));
            }
            st.fresh = false;
        } else {
            // SAFETY: this function has AVX-512F.
            unsafe {
                let mut u = load(st);
                squeeze(&mut u);
                prod_add(&t.mul[n], &u, &mut d);
            }
        }
        // SAFETY: this function has AVX-512F.
        unsafe { store(st, &d) };
    }};
}

/// Absorb whole chunks: `m.len()` is a multiple of `CHUNK_BYTES`.
///
/// # Panics
/// If `platform` lacks AVX-512F or AVX2 and FMA.
pub(crate) fn chunks(platform: Platform, st: &mut State, t: &Table, m: &[u8]) {
    assert!(platform.avx512() && platform.avx2_fma(), "hash127 avx512 kernel without AVX-512F, AVX2 and FMA");
    // SAFETY: the evidence `platform` shows AVX-512F, AVX2 and FMA.
    unsafe { chunks_avx512(st, t, m) }
}

#[target_feature(enable = "avx512f,avx2,fma")]
fn chunks_avx512(st: &mut State, t: &Table, m: &[u8]) {
    assert!(m.len().is_multiple_of(CHUNK_BYTES));
    let tab = t.tab8();
    let mut pairs = m.chunks_exact(2 * CHUNK_BYTES);
    for two in &mut pairs {
        pair(st, t, tab, two);
    }
    for c in pairs.remainder().chunks_exact(CHUNK_BYTES) {
        chunk!(st, t, tab, c, None);
    }
}

/// Two whole chunks `a` and `b` (`m = a ‖ b`): `state ← (state·r^n +
/// Σa)·r^n + Σb` with `n = CHUNK_WORDS`, the same steps as two `chunk!`s,
/// but the two dot products run side by side and share each load of the
/// table: every table vector feeds two FMAs instead of one. The table is
/// 27 KiB and the dot product otherwise loads one table vector per FMA, so
/// on a CPU that loads one 512-bit vector a cycle (Zen 4) the loads, not the
/// FMAs, set the pace; sharing them halves that traffic. Each FMA and each
/// accumulator is the one `chunk!` uses, so every bound of
/// [`super::fp::GROUPS8`] holds as stated there.
#[target_feature(enable = "avx512f,avx2,fma")]
#[inline]
fn pair(st: &mut State, t: &Table, tab: &[fp::Group8], m: &[u8]) {
    assert!(m.len() == 2 * CHUNK_BYTES && fp::GROUPS8 <= tab.len());
    let mut da = [_mm512_setzero_pd(); 8];
    let mut db = [_mm512_setzero_pd(); 8];
    let a = m.as_ptr();
    let tab = tab.as_ptr();
    for g in 0..fp::GROUPS8 {
        // SAFETY: group g of chunk a is bytes 32g .. 32g + 32 of `m` and
        // that of chunk b is CHUNK_BYTES further, both inside `m` (asserted
        // length; g < GROUPS8 = CHUNK_BYTES / 32); table group
        // GROUPS8 − 1 − g exists (asserted) and is 64 doubles, 64-byte
        // aligned, so each aligned load of eight at 8j, j < 8, is inside it.
        unsafe {
            let wa = _mm512_cvtepi32_pd(_mm256_loadu_si256(a.add(32 * g) as *const __m256i));
            let wb = _mm512_cvtepi32_pd(_mm256_loadu_si256(a.add(CHUNK_BYTES + 32 * g) as *const __m256i));
            let c = (*tab.add(fp::GROUPS8 - 1 - g)).0.as_ptr();
            for j in 0..8 {
                let cj = _mm512_load_pd(c.add(8 * j));
                da[j] = _mm512_fmadd_pd(wa, cj, da[j]);
                db[j] = _mm512_fmadd_pd(wb, cj, db[j]);
            }
        }
    }
    if st.fresh {
        // state = r: r·r^n = r^(n+1) = c_{n+1}, in lane 0.
        let c = &t.pow[CHUNK_WORDS + 1];
        for j in 0..8 {
            da[j] = _mm512_mask_add_pd(da[j], 1, da[j], _mm512_set1_pd(c[j]));
        }
        st.fresh = false;
    } else {
        // SAFETY: this function has AVX-512F.
        unsafe {
            let mut u = load(st);
            squeeze(&mut u);
            prod_add(&t.mul[CHUNK_WORDS], &u, &mut da);
        }
    }
    // `da` is now the state after chunk a, as `chunk!` would store it.
    // SAFETY: this function has AVX-512F.
    unsafe {
        squeeze(&mut da);
        prod_add(&t.mul[CHUNK_WORDS], &da, &mut db);
        store(st, &db);
    }
}

/// Absorb a last, possibly short chunk: the words of `m` (`m.len()` a
/// multiple of 4), then `tail` if present; at most `CHUNK_WORDS` words.
///
/// # Panics
/// If `platform` lacks AVX-512F or AVX2 and FMA.
pub(crate) fn last(platform: Platform, st: &mut State, t: &Table, m: &[u8], tail: Option<i32>) {
    assert!(platform.avx512() && platform.avx2_fma(), "hash127 avx512 kernel without AVX-512F, AVX2 and FMA");
    // SAFETY: the evidence `platform` shows AVX-512F, AVX2 and FMA.
    unsafe { last_avx512(st, t, m, tail) }
}

#[target_feature(enable = "avx512f,avx2,fma")]
fn last_avx512(st: &mut State, t: &Table, m: &[u8], tail: Option<i32>) {
    assert!(m.len().is_multiple_of(4) && m.len() / 4 + tail.is_some() as usize <= CHUNK_WORDS);
    if !m.is_empty() || tail.is_some() {
        chunk!(st, t, t.tab8(), m, tail);
    }
}

/// `(value + k) mod p` as four words: squeeze every lane, add the lanes
/// (`|v_j| <= 8·1.01·2^15·2^(16j)`, exact in any order), `w_j = v_{2j} +
/// v_{2j+1}` (`|w_j| <= 8.1·2^31·2^(32j)`), `t_j = w_j + k_j`
/// (`|t_j| <= 9.1·2^31·2^(32j) <= 2^49·2^(32j)`), then `freeze` (Theorem 4.2).
///
/// # Panics
/// If `platform` lacks AVX-512F or AVX2 and FMA.
pub(crate) fn finish(platform: Platform, st: &State, t: &Table, k: &[f64; 4]) -> [u32; 4] {
    assert!(platform.avx512() && platform.avx2_fma(), "hash127 avx512 kernel without AVX-512F, AVX2 and FMA");
    // SAFETY: the evidence `platform` shows AVX-512F, AVX2 and FMA.
    unsafe { finish_avx512(st, t, k) }
}

#[target_feature(enable = "avx512f,avx2,fma")]
fn finish_avx512(st: &State, t: &Table, k: &[f64; 4]) -> [u32; 4] {
    let mut v = [0.0f64; 8];
    if st.fresh {
        v = t.pow[1];
    } else {
        // SAFETY: this function has AVX-512F.
        let u = unsafe {
            let mut u = load(st);
            squeeze(&mut u);
            u
        };
        for j in 0..8 {
            // Horizontal sum of the eight lanes of limb j (exact: < 2^19·2^(16j)).
            v[j] = _mm512_reduce_add_pd(u[j]);
        }
    }
    let w = fp::merge(&v);
    fp::freeze(&core::array::from_fn(|j| w[j] + k[j]))
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_big_integer_model() {
        super::super::tests::differential(super::super::Backend::Avx512);
    }
}
