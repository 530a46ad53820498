//! hash127 with AVX-512F in integers: the radix-`2^26` limbs of `int26.rs`
//! (the paper's "64-bit variant", section 7) in eight lanes, with the lane
//! layout of `avx512.rs` (section 6 on eight lanes).
//!
//! A chunk of [`WORDS`] words is a dot product with the precomputed powers:
//! lane `l` collects the words at positions `≡ l (mod 8)`, so one group of
//! eight message words is one vector, sign-extended to 64-bit lanes and
//! multiplied by the five vectors of limbs `c_{i,j}` of the matching powers
//! ([`Table`]) with five `vpmuldq` (signed 32×32→64 bits, exact) and five
//! adds into five accumulators. That is 5 multiplies per 32 bytes where
//! the floating-point method takes 8 FMAs.
//!
//! The running value `v` stays out of the lanes: it is five scalar limbs
//! (`int26::Elem`). At the end of a chunk of `n` words the lanes are split
//! into small limbs ([`split`]), summed across lanes ([`lane_sums`]), and
//! joined as `v ← squeeze(v·r^n + sums)` with `int26::prod` on the scalar
//! multiplier, which works beside the vector units ([`join`]). The result is
//! frozen by `int26::finish`.
//!
//! Every product and sum is exact in `i64`: the bounds are [`chunk_bound`],
//! [`split_bound`] and [`join_bound`], asserted at compile time. No branch
//! or memory index depends on the key or the message.

#![deny(unsafe_op_in_unsafe_fn)]

// The SIMD loops index the limbs of several arrays by the same number.
#![allow(clippy::needless_range_loop)]

use crate::prelude::*;
use core::arch::x86_64::*;

use zeroize::Zeroize;

use super::fp::CHUNK_WORDS;
use super::int26::{self, Elem, LIMBS, RADIX_BITS, S, TOP_BITS};
use crate::platform::Platform;

/// Groups of eight words in this kernel's chunk: 576 words (2304 bytes)
/// between two joins. The dispatch hands the kernel whole chunks of
/// [`CHUNK_WORDS`] words (432), which it regroups into its own; a remainder
/// is one shorter chunk. The table is `72 · 320` bytes = 23 KiB, which stays
/// in a 32 KiB L1d beside the message: measured on Zen 4 at 16 KiB – 1 MiB
/// (docs/perf/hash127.md), 54 groups (one join per 1728 bytes) read
/// 0.171 TSC cycles a byte, 64–96 groups 0.151–0.157, and 108 groups
/// (a 34 KiB table) 0.198.
pub(crate) const GROUPS: usize = 72;
/// Words per chunk of this kernel.
pub(crate) const WORDS: usize = 8 * GROUPS;

/// The bound, limb by limb, of any lane's sums before its squeeze: the
/// lane's `GROUPS` products `m·c_{i,j}` with `|m| ≤ 2^31`, `|c_{i,j}| ≤ S_j`
/// (a short last chunk has fewer). The running value never enters a lane:
/// it is multiplied by `r^n` in scalar code and joined after the lanes are
/// squeezed and summed (`join`), where `int26::block_bound` covers it.
pub(crate) const fn chunk_bound() -> [u128; LIMBS] {
    let mut u = [0u128; LIMBS];
    let mut j = 0;
    while j < LIMBS {
        u[j] = GROUPS as u128 * (1 << 31) * S[j] as u128;
        j += 1;
    }
    u
}

// Every lane's sums stay within what `squeeze` takes (and so inside `i64`).
const _: () = {
    let u = chunk_bound();
    let mut j = 0;
    while j < LIMBS {
        assert!(u[j] <= int26::SQUEEZE_IN as u128);
        j += 1;
    }
};

// `vpmuldq` reads the low 32 bits of each lane as a signed number: the
// table's squeezed limbs fit.
const _: () = assert!(S[0] < 1 << 31 && S[1] < 1 << 31 && S[4] < 1 << 31);

/// The bound, limb by limb, of the join's sums before `int26::squeeze`: the
/// product of two squeezed elements (`Σ_{i+k=j} S_i S_k + 8 Σ_{i+k=j+5}
/// S_i S_k`, as `int26::prod` forms it) plus eight split lanes
/// ([`split_bound`]).
pub(crate) const fn join_bound() -> [u128; LIMBS] {
    let mut u = [0u128; LIMBS];
    let mut j = 0;
    while j < LIMBS {
        let mut i = 0;
        while i < LIMBS {
            let mut k = 0;
            while k < LIMBS {
                if i + k == j {
                    u[j] += S[i] as u128 * S[k] as u128;
                } else if i + k == j + LIMBS {
                    u[j] += 8 * S[i] as u128 * S[k] as u128;
                }
                k += 1;
            }
            i += 1;
        }
        u[j] += 8 * split_bound()[j];
        j += 1;
    }
    u
}

const _: () = {
    let u = join_bound();
    let mut j = 0;
    while j < LIMBS {
        assert!(u[j] <= int26::SQUEEZE_IN as u128);
        j += 1;
    }
};

/// 64-byte aligned group of the table: 5 limbs × 8 lanes.
#[derive(Clone, Copy, Zeroize)]
#[repr(C, align(64))]
pub(crate) struct Group(pub(crate) [i64; 8 * LIMBS]);

/// The per-key powers in this backend's layout.
pub(crate) struct Table {
    /// `tab[e].0[8j + l]` = limb `j` of `r^(8e+8−l)` (squeezed): the powers
    /// for the `e`-th group of eight words counted from the end of a chunk,
    /// lane `l` holding word `l` of the group.
    tab: Vec<Group>,
    /// `pow[n] = r^n` squeezed, `0 ≤ n ≤ WORDS`.
    pow: Vec<Elem>,
}

impl Table {
    /// Expand `r < p`: `r^0 … r^WORDS` (576 multiplications mod `p`), in
    /// this backend's layout.
    pub(crate) fn new(r: u128) -> Table {
        let mut pow: Vec<Elem> = Vec::with_capacity(WORDS + 1);
        let mut x = 1u128;
        for _ in 0..=WORDS {
            pow.push(int26::from_u128(x));
            x = super::portable::mul_mod(x, r);
        }
        x.zeroize();
        let tab = (0..GROUPS)
            .map(|e| {
                let mut g = [0i64; 8 * LIMBS];
                for j in 0..LIMBS {
                    for l in 0..8 {
                        g[8 * j + l] = pow[8 * e + 8 - l][j];
                    }
                }
                Group(g)
            })
            .collect();
        Table { tab, pow }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.tab.zeroize();
        for e in self.pow.iter_mut() {
            e.zeroize();
        }
    }
}

/// The bits of limb `j`: 26, and 23 for the top limb (`127 − 4·26`).
const fn limb_bits(j: usize) -> u32 {
    if j + 1 < LIMBS {
        RADIX_BITS
    } else {
        TOP_BITS
    }
}

/// Floor carries `0→1→2→3→4`, then `4→0` (at `2^127 ≡ 1`), in every lane:
/// limbs `1..4` end in `[0, 2^bits)`, limb 0 in `[0, 2^26)` plus the top
/// limb's carry; the value mod `p` is unchanged. Bounds: [`split_bound`].
/// (Fewer operations than a squeeze: no rounding and no second carry out of
/// limb 0; the lanes only need to be small enough to be summed.)
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn split(d: &mut [__m512i; LIMBS]) {
    // SAFETY: register-only AVX-512F instructions; the caller guarantees AVX-512F.
    unsafe {
        for j in 0..LIMBS {
            let bits = limb_bits(j);
            let c = _mm512_sra_epi64(d[j], _mm_cvtsi32_si128(bits as i32));
            d[j] = _mm512_and_si512(d[j], _mm512_set1_epi64((1 << bits) - 1));
            let next = (j + 1) % LIMBS;
            d[next] = _mm512_add_epi64(d[next], c);
        }
    }
}

/// The largest `|limb j|` of a lane after [`split`], from [`chunk_bound`]:
/// carry `c_j ≤ ⌈(B_j + c_(j−1)) / 2^bits_j⌉`; limbs `1..4` below
/// `2^bits`, limb 0 below `2^26 + c_4`.
pub(crate) const fn split_bound() -> [u128; LIMBS] {
    let b = chunk_bound();
    let mut out = [0u128; LIMBS];
    let mut carry = 0u128;
    let mut j = 0;
    while j < LIMBS {
        let bits = limb_bits(j);
        carry = (b[j] + carry).div_ceil(1 << bits);
        out[j] = 1 << bits;
        j += 1;
    }
    out[0] += carry;
    out
}

/// The lanes of each limb summed: `[Σ_l d[0]_l, …, Σ_l d[4]_l]`. Limbs 0–3
/// in three steps that work on two or four limbs at once (128-bit blocks
/// moved with `vshufi64x2`), limb 4 by itself.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn lane_sums(d: &[__m512i; LIMBS]) -> Elem {
    // SAFETY: register-only AVX-512F instructions, and a store to a local
    // array; the caller guarantees AVX-512F.
    unsafe {
        // [a0+a2, a1+a3, b0+b2, b1+b3] in 128-bit blocks, for limbs (a, b).
        let halves = |a: __m512i, b: __m512i| {
            _mm512_add_epi64(_mm512_shuffle_i64x2::<0b01_00_01_00>(a, b), _mm512_shuffle_i64x2::<0b11_10_11_10>(a, b))
        };
        let x = halves(d[0], d[1]);
        let y = halves(d[2], d[3]);
        // Block k is now limb k's four lanes in two pairs: add the pairs.
        let z = _mm512_add_epi64(_mm512_shuffle_i64x2::<0b10_00_10_00>(x, y), _mm512_shuffle_i64x2::<0b11_01_11_01>(x, y));
        // Both 64-bit halves of each block: swap them and add.
        let z = _mm512_add_epi64(z, _mm512_shuffle_epi32::<0b01_00_11_10>(z));
        let mut out = [0i64; 8];
        _mm512_storeu_si512(out.as_mut_ptr() as *mut _, z);
        [out[0], out[2], out[4], out[6], _mm512_reduce_add_epi64(d[4])]
    }
}

/// One group: limb `j` of each lane of `d` gains `m·c_{i,j}` for the eight
/// words at `words` and table group `g`.
///
/// # Safety
/// The CPU must support AVX-512F; `words` points to 32 readable bytes.
#[inline(always)]
unsafe fn group(d: &mut [__m512i; LIMBS], g: &Group, words: *const u8) {
    // SAFETY: the caller guarantees AVX-512F and the 32 bytes at `words`
    // (an unaligned load); `g` is 40 `i64`s, 64-byte aligned, so each
    // aligned load of eight at 8j, j < 5, is inside it.
    unsafe {
        let w = _mm512_cvtepi32_epi64(_mm256_loadu_si256(words as *const __m256i));
        let c = g.0.as_ptr();
        for j in 0..LIMBS {
            d[j] = _mm512_add_epi64(d[j], _mm512_mul_epi32(w, _mm512_load_si512(c.add(8 * j) as *const _)));
        }
    }
}

/// `v ← squeeze(v·r^n + Σ_lanes split(d))`: the chunk's dot products `d`
/// split lane by lane ([`split`]), summed across the lanes ([`lane_sums`]),
/// and added to the product of the running value by `r^n` in scalar
/// arithmetic (`int26::prod`), which runs on the integer multiplier beside
/// the vector one. The sums before the squeeze are bounded by
/// [`join_bound`].
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn join(v: &mut Elem, d: &mut [__m512i; LIMBS], rn: &Elem) {
    // SAFETY: register-only AVX-512F instructions; the caller guarantees AVX-512F.
    unsafe {
        split(d);
        let h = lane_sums(d);
        let mut u = int26::prod(v, rn);
        for j in 0..LIMBS {
            u[j] += h[j];
        }
        *v = int26::squeeze(u);
    }
}

/// One chunk: the words of `m` (`m.len()` a multiple of 4) followed by
/// `tail` if present, `n` words in all with `1 ≤ n ≤ WORDS`:
/// `v ← v·r^n + Σ_t m_t r^(n−t)`. Only the (public) length decides the
/// control flow.
#[inline(always)]
fn chunk(v: &mut Elem, t: &Table, m: &[u8], tail: Option<i32>) {
    let n0 = m.len() / 4;
    let n = n0 + tail.is_some() as usize;
    assert!(m.len().is_multiple_of(4) && (1..=WORDS).contains(&n));
    let groups = n.div_ceil(8);
    assert!(groups <= t.tab.len());
    // A chunk whose length is not a multiple of eight (only the last one of a
    // message) starts with `lead` zero words, so that its groups line up
    // with the table, which counts groups from the chunk's end.
    let lead = 8 * groups - n;
    // SAFETY (every block below): the enclosing `#[target_feature]` callers
    // have AVX-512F.
    let mut d = unsafe { [_mm512_setzero_si512(); LIMBS] };
    // Word `v` of the chunk padded in front with `lead` zeros.
    let word = |v: usize| -> i32 {
        if v < lead {
            0
        } else if v - lead < n0 {
            i32::from_le_bytes(m[4 * (v - lead)..4 * (v - lead) + 4].try_into().unwrap())
        } else {
            tail.unwrap_or(0)
        }
    };
    // Groups `first..full_end` lie wholly inside `m`: group g is words
    // 8g − lead .. 8g − lead + 7, and the last of them ends at word
    // 8·full_end − lead ≤ n0 (with a tail, full_end = groups − 1 and
    // 8·groups − lead = n0 + 1).
    let first = (lead != 0) as usize;
    let full_end = if tail.is_some() { groups - 1 } else { groups };
    if first > 0 {
        let w: [i32; 8] = core::array::from_fn(word);
        // SAFETY: AVX-512F (above); `w` is 32 bytes.
        unsafe { group(&mut d, &t.tab[groups - 1], w.as_ptr() as *const u8) };
    }
    if full_end > first {
        assert!(4 * (8 * full_end - lead) <= m.len());
        for g in first..full_end {
            // SAFETY: AVX-512F (above); group g's 32 bytes start at byte
            // 4·(8g − lead) and end by 4·(8·full_end − lead) ≤ m.len()
            // (asserted).
            unsafe { group(&mut d, &t.tab[groups - 1 - g], m.as_ptr().add(4 * (8 * g - lead))) };
        }
    }
    if full_end.max(first) < groups {
        // The last group, with the tail word.
        let g = groups - 1;
        let w: [i32; 8] = core::array::from_fn(|i| word(8 * g + i));
        // SAFETY: AVX-512F (above); `w` is 32 bytes.
        unsafe { group(&mut d, &t.tab[0], w.as_ptr() as *const u8) };
    }
    // SAFETY: AVX-512F (above).
    unsafe { join(v, &mut d, &t.pow[n]) };
}

/// A whole chunk of this kernel: [`WORDS`] words, the groups read straight
/// from `m` in one loop.
#[inline(always)]
fn big(v: &mut Elem, t: &Table, m: &[u8]) {
    assert!(m.len() == 4 * WORDS && t.tab.len() == GROUPS);
    // SAFETY (every block below): the enclosing `#[target_feature]` caller
    // has AVX-512F.
    let mut d = unsafe { [_mm512_setzero_si512(); LIMBS] };
    for g in 0..GROUPS {
        // SAFETY: AVX-512F (above); group g is bytes 32g .. 32g + 32 of `m`.
        unsafe { group(&mut d, &t.tab[GROUPS - 1 - g], m.as_ptr().add(32 * g)) };
    }
    // SAFETY: AVX-512F (above).
    unsafe { join(v, &mut d, &t.pow[WORDS]) };
}

/// Absorb whole chunks into the squeezed value `v`: `m.len()` is a multiple
/// of `CHUNK_WORDS · 4`.
///
/// # Panics
/// If `platform` lacks AVX-512F.
pub(crate) fn chunks(platform: Platform, v: &mut Elem, t: &Table, m: &[u8]) {
    assert!(platform.avx512(), "hash127 avx512 integer kernel without AVX-512F");
    // SAFETY: the evidence `platform` shows AVX-512F.
    unsafe { chunks_avx512(v, t, m) }
}

/// The words of a first, shorter chunk that make every later group start
/// on a 32-byte boundary, so that no group's load crosses a cache line:
/// `WORDS − lead` for `m` placed `4·lead` bytes past such a boundary
/// (`lead < 8`; the chunk's first group then starts with `lead` zero
/// words, [`chunk`]), or 0 when `m` is already aligned, is not 4-byte
/// aligned (no choice of chunk aligns it), or holds no more than that
/// first chunk. It depends on the address and the length only, both
/// public; the hash is the same for any chunking. Measured on Zen 4 with
/// the message 16 bytes past a 64-byte boundary (where large allocations
/// usually start): 0.150 TSC cycles a byte at 1 MiB against 0.153 without.
fn first_chunk(m: &[u8]) -> usize {
    let off = m.as_ptr() as usize % 32;
    if off == 0 || !off.is_multiple_of(4) || m.len() <= 4 * WORDS {
        return 0;
    }
    WORDS - off / 4
}

#[target_feature(enable = "avx512f")]
fn chunks_avx512(v: &mut Elem, t: &Table, m: &[u8]) {
    assert!(m.len().is_multiple_of(4 * CHUNK_WORDS));
    let first = first_chunk(m);
    let m = if first > 0 {
        chunk(v, t, &m[..4 * first], None);
        &m[4 * first..]
    } else {
        m
    };
    let mut whole = m.chunks_exact(4 * WORDS);
    for c in &mut whole {
        big(v, t, c);
    }
    let rest = whole.remainder();
    if !rest.is_empty() {
        chunk(v, t, rest, None);
    }
}

/// Absorb a whole message into `v`: the words of `m` (`m.len()` a multiple
/// of 4), then `tail` if present, as whole chunks of [`WORDS`] words and one
/// last chunk of 1 to `WORDS` words (the one-shot path: no chunk boundary of
/// the dispatch in between).
///
/// # Panics
/// If `platform` lacks AVX-512F.
pub(crate) fn absorb(platform: Platform, v: &mut Elem, t: &Table, m: &[u8], tail: Option<i32>) {
    assert!(platform.avx512(), "hash127 avx512 integer kernel without AVX-512F");
    // SAFETY: the evidence `platform` shows AVX-512F.
    unsafe { absorb_avx512(v, t, m, tail) }
}

#[target_feature(enable = "avx512f")]
fn absorb_avx512(v: &mut Elem, t: &Table, m: &[u8], tail: Option<i32>) {
    assert!(m.len().is_multiple_of(4));
    let n = m.len() / 4 + tail.is_some() as usize;
    if n == 0 {
        return;
    }
    let first = first_chunk(m);
    let (m, n) = if first > 0 {
        chunk(v, t, &m[..4 * first], None);
        (&m[4 * first..], n - first)
    } else {
        (m, n)
    };
    // Whole chunks, leaving 1 to WORDS words for the last one.
    let whole = (n - 1) / WORDS * WORDS * 4;
    for c in m[..whole].chunks_exact(4 * WORDS) {
        big(v, t, c);
    }
    chunk(v, t, &m[whole..], tail);
}

/// Absorb a last, possibly short chunk into `v`: the words of `m`
/// (`m.len()` a multiple of 4), then `tail` if present; at most
/// `CHUNK_WORDS` words.
///
/// # Panics
/// If `platform` lacks AVX-512F.
pub(crate) fn last(platform: Platform, v: &mut Elem, t: &Table, m: &[u8], tail: Option<i32>) {
    assert!(platform.avx512(), "hash127 avx512 integer kernel without AVX-512F");
    // SAFETY: the evidence `platform` shows AVX-512F.
    unsafe { last_avx512(v, t, m, tail) }
}

#[target_feature(enable = "avx512f")]
fn last_avx512(v: &mut Elem, t: &Table, m: &[u8], tail: Option<i32>) {
    assert!(m.len().is_multiple_of(4) && m.len() / 4 + tail.is_some() as usize <= CHUNK_WORDS);
    if !m.is_empty() || tail.is_some() {
        chunk(v, t, m, tail);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_big_integer_model() {
        // The differential's lengths include this kernel's chunk edges.
        assert_eq!(super::WORDS, 576);
        super::super::tests::differential(super::super::Backend::Avx512Int);
    }

    /// Words built to make one limb's lane sums as large as the key allows
    /// (each word `±2^31` with the sign that makes every product of limb `j`
    /// in a lane the same sign), over three of this kernel's chunks and a
    /// short one: the largest lane sum is within [`super::chunk_bound`], and
    /// the hash equals the portable one.
    #[test]
    fn adversarial_lane_sums() {
        use super::super::{encode, oneshot, tests::keys, words_mod_p, Backend, Key};
        use crate::prelude::*;
        use crate::platform::Platform;
        let hw = Platform::hardware();
        if !(hw.avx512() && hw.avx2_fma()) {
            crate::platform::skipped_kernel("avx512");
            return;
        }
        let bound = super::chunk_bound();
        let mut worst = [0u128; super::LIMBS];
        let mut checked = 0;
        for r in keys() {
            let t = super::Table::new(words_mod_p(r));
            let key = Key::with_backend(hw, Backend::Avx512Int, r, [7, -7, 7, -7]);
            let slow = Key::from_words_on(Platform::portable(), r, [7, -7, 7, -7]);
            for j in 0..super::LIMBS {
                for sign in [1i64, -1] {
                    let words: Vec<i32> = (0..3 * super::WORDS + 100)
                        .map(|i| if t.pow[super::WORDS - i % super::WORDS][j] * sign >= 0 { i32::MIN } else { i32::MAX })
                        .collect();
                    for l in 0..8 {
                        let s: u128 = (l..super::WORDS)
                            .step_by(8)
                            .map(|i| (words[i] as i128 * t.pow[super::WORDS - i][j] as i128).unsigned_abs())
                            .sum();
                        assert!(s <= bound[j], "limb {j}, lane {l}: {s} above {}", bound[j]);
                        worst[j] = worst[j].max(s);
                    }
                    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                    for pad in [false, true] {
                        let fast = oneshot(&key, hw, Backend::Avx512Int, &bytes, pad, usize::MAX);
                        let want = oneshot(&slow, Platform::portable(), Backend::Portable, &bytes, pad, usize::MAX);
                        assert_eq!(encode(fast), encode(want), "r = {r:?}, limb {j}, pad {pad}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 0);
        for j in 0..super::LIMBS {
            println!("limb {j}: largest lane sum {:.4} of the bound", worst[j] as f64 / bound[j] as f64);
        }
    }

    /// Messages at every placement from a 64-byte boundary (each residue
    /// mod 32, so every shortened first chunk of [`super::first_chunk`],
    /// and addresses that are not 4-byte aligned), around this kernel's
    /// chunk edges, one-shot and streamed (the stream hands whole chunks of
    /// the dispatch straight from the caller's slice): the portable hash.
    #[test]
    fn every_placement() {
        use super::super::{encode, hash127, oneshot, tests::keys, Backend, Hash127, Key};
        use crate::platform::Platform;
        use rand::{RngExt, SeedableRng};
        let hw = Platform::hardware();
        if !(hw.avx512() && hw.avx2_fma()) {
            crate::platform::skipped_kernel("avx512");
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x616c69676e);
        let mut buf = vec![0u8; 4 * 4 * super::WORDS + 256];
        rng.fill(&mut buf[..]);
        let base = (64 - buf.as_ptr() as usize % 64) % 64;
        let r = keys()[1];
        let key = Key::with_backend(hw, Backend::Avx512Int, r, [1, -2, 3, -4]);
        let slow = Key::from_words_on(Platform::portable(), r, [1, -2, 3, -4]);
        let w = 4 * super::WORDS;
        let stream_len = 3 * 4 * super::CHUNK_WORDS;
        let (mut shortened, mut checked) = (0, 0);
        for off in 0..36 {
            let want_first = if off % 4 == 0 && off % 32 != 0 { super::WORDS - off % 32 / 4 } else { 0 };
            for len in [w - 4, w, w + 4, w + 28, w + 32, 2 * w + 12, stream_len, 3 * w + 3] {
                let m = &buf[base + off..base + off + len];
                let first = super::first_chunk(&m[..len / 4 * 4]);
                assert_eq!(first, if len / 4 * 4 > w { want_first } else { 0 }, "offset {off}, length {len}");
                shortened += (first > 0) as usize;
                for pad in [false, true] {
                    if !pad && len % 4 != 0 {
                        continue;
                    }
                    let fast = encode(oneshot(&key, hw, Backend::Avx512Int, m, pad, usize::MAX));
                    let want = encode(oneshot(&slow, Platform::portable(), Backend::Portable, m, pad, usize::MAX));
                    assert_eq!(fast, want, "one-shot, offset {off}, length {len}, pad {pad}");
                    checked += 1;
                }
                let mut h = Hash127::new(&key);
                h.update(m);
                assert_eq!(h.finalize(), hash127(&slow, m), "streamed, offset {off}, length {len}");
                checked += 1;
            }
        }
        // Seven 4-byte-aligned misplacements by six lengths above one chunk.
        assert_eq!(shortened, 7 * 6);
        assert!(checked > 0);
    }

    /// Both bounds leave room below what the squeeze takes, and the lanes'
    /// dot products are the large term (the join's product is about `2^55`).
    #[test]
    fn bounds_are_below_the_squeeze_input() {
        let (dots, join) = (super::chunk_bound(), super::join_bound());
        for j in 0..super::LIMBS {
            assert!(dots[j] <= super::int26::SQUEEZE_IN as u128 && join[j] <= super::int26::SQUEEZE_IN as u128, "limb {j}");
            assert!(join[j] < 1 << 57 && dots[j] >= (super::GROUPS as u128) << 53, "limb {j}: {} {}", dots[j], join[j]);
        }
    }
}
