//! Portable Square Hash at the wire format's sizes (docs/WIRE.md §4: 32-bit
//! machine words, `V = l/32` words an element), exact and constant-time, giving the identical bytes of
//! [`super::reference`].
//!
//! One kernel serves all six variants. For each element it forms
//! `a = m + x` as 32-bit words (the carry chain of the paper's "we do not
//! ignore the carry bits when we actually compute (x_i + m_i)"), and for every
//! word pair `j <= k` the 64-bit product `P = a_j a_k` adds `P mod 2^32` to
//! column `j + k` and `P >> 32` to column `j + k + 1`, the diagonal (`j = k`)
//! into `d`, the cross products (`j < k`, computed once) into `x`. Column `r`
//! is then `d_r + 2 x_r`:
//! - taken exactly (`sum col_r 2^(32r)`), it is `sum a_i^2`: Def. 7, 9, 10;
//! - taken mod `2^32` word by word, it is `C(sum C2(a_i^2))`: Def. 12, 13 —
//!   doubling a column mod `2^32` doubles the low and high halves of the cross
//!   products separately, as docs/WIRE.md §4 allows, and dropping the column carries
//!   is exactly `C` and `C2`.
//!
//! Def. 11 (`C` of exact squares) needs each square normalised before the
//! carry-free sum, so it takes one square at a time ([`c_accumulate`]).

use super::Variant;

/// `t` of `p_l = 2^l + t`, indexed by `V = l/32` (docs/WIRE.md §4).
pub(crate) const T: [u64; 5] = [0, 15, 13, 61, 51];

/// Columns a chunk may need: `2(V + 1)` for `C2` on `V + 1` words, V <= 4.
pub(crate) const COLS: usize = 10;

/// Elements per chunk. Exactness: per element a column gains at most
/// `(V + 2)` values below `2^32` (two from the diagonal, at most `V` cross
/// halves), so under `2^35`; doubled cross columns and `2^24` elements stay
/// below `2^24 · 3 · 2^35 < 2^61`, far from `u64` overflow.
pub(crate) const CHUNK: usize = 1 << 24;

/// The `V` 32-bit words of an `l`-bit little-endian element.
#[inline(always)]
fn load<const V: usize>(b: &[u8]) -> [u64; V] {
    core::array::from_fn(|j| u32::from_le_bytes([b[4 * j], b[4 * j + 1], b[4 * j + 2], b[4 * j + 3]]) as u64)
}

/// `m + x` as `N` words (`N = V` drops the carry out of bit `l`, `N = V + 1`
/// keeps it as the top word), with the carries between words propagated.
#[inline(always)]
fn add_words<const V: usize, const N: usize>(m: &[u8], x: &[u8]) -> [u64; N] {
    let (m, x) = (load::<V>(m), load::<V>(x));
    let mut a = [0u64; N];
    let mut carry = 0;
    for j in 0..V {
        let s = m[j] + x[j] + carry;
        a[j] = s & 0xffff_ffff;
        carry = s >> 32;
    }
    if N > V {
        a[V] = carry;
    }
    a
}

/// Add the word products of `a` (`N` words) into the columns.
#[inline(always)]
fn products<const N: usize>(a: &[u64; N], d: &mut [u64; COLS], x: &mut [u64; COLS]) {
    for j in 0..N {
        let p = a[j] * a[j];
        d[2 * j] += p & 0xffff_ffff;
        d[2 * j + 1] += p >> 32;
        for k in j + 1..N {
            let p = a[j] * a[k];
            x[j + k] += p & 0xffff_ffff;
            x[j + k + 1] += p >> 32;
        }
    }
}

/// The column sums `d_r + 2 x_r` of `a_i = m_i + x_i` as `N` words over the
/// whole key and message (`N = V` for Def. 10 and 13, `N = V + 1` for Def. 7,
/// 9 and 12); `init` holds the columns carried in from an earlier chunk.
#[inline(always)]
pub(crate) fn columns<const V: usize, const N: usize>(key: &[u8], msg: &[u8], init: &[u64; COLS]) -> [u64; COLS] {
    debug_assert!(key.len() / (4 * V) <= CHUNK);
    let mut d = *init;
    let mut x = [0u64; COLS];
    for (kb, mb) in key.chunks_exact(4 * V).zip(msg.chunks_exact(4 * V)) {
        let a = add_words::<V, N>(mb, kb);
        products::<N>(&a, &mut d, &mut x);
    }
    core::array::from_fn(|r| d[r] + 2 * x[r])
}

/// `C(sum a_i^2)` over `2V + 1` words with exact squares (Def. 11): each
/// square is normalised to words before the carry-free word sums.
pub(crate) fn c_accumulate<const V: usize, const N: usize>(key: &[u8], msg: &[u8], acc: &mut [u64; COLS]) {
    for (kb, mb) in key.chunks_exact(4 * V).zip(msg.chunks_exact(4 * V)) {
        let a = add_words::<V, N>(mb, kb);
        let (mut d, mut x) = ([0u64; COLS], [0u64; COLS]);
        products::<N>(&a, &mut d, &mut x);
        // The exact square a^2 < 2^(2l+2) as 2V + 1 words: propagate carries.
        let mut carry = 0u64;
        for r in 0..2 * V + 1 {
            let s = d[r] + 2 * x[r] + carry;
            acc[r] = acc[r].wrapping_add(s & 0xffff_ffff);
            carry = s >> 32;
        }
    }
    for w in acc.iter_mut() {
        *w &= 0xffff_ffff;
    }
}

/// Propagate signed carries through `V` columns: the value is
/// `sum d_r 2^(32r) + hi 2^l` with every `d_r` in `[0, 2^32)`.
#[inline(always)]
fn normalize<const V: usize>(c: &[i128; COLS]) -> ([i128; COLS], i128) {
    let mut d = [0i128; COLS];
    let mut carry = 0i128;
    for r in 0..V {
        let s = c[r] + carry;
        d[r] = s & 0xffff_ffff;
        carry = s >> 32;
    }
    (d, carry)
}

/// `sum cols[r] 2^(32r) mod p_l`, canonical, as `V + 1` words (the top one is
/// 0 or 1). Constant-time: fixed loops, selections by masks.
///
/// Since `2^l ≡ -t (mod p)`, column `r >= V` folds onto `r - V` times `-t`.
/// With columns below `2^62` and at most `10/V` fold levels the folded columns
/// stay below `2^62 · 16^3 < 2^76` (V = 1, t = 15), well inside `i128`. Each
/// round `d - t·hi` then shrinks the carry `hi` by `2^32/t >= 2^26`:
/// `2^44 → 2^16 → 1`, so after four rounds `|hi| <= 1` and the value lies in
/// `(-p, 2p)`; one conditional `+p` or `-p` makes it canonical.
#[inline(always)]
pub(crate) fn reduce<const V: usize>(cols: &[u64; COLS]) -> [u32; 5] {
    let t = T[V] as i128;
    let mut c = [0i128; COLS];
    for (ci, &x) in c.iter_mut().zip(cols) {
        debug_assert!(x < 1 << 62);
        *ci = x as i128;
    }
    for r in (V..COLS).rev() {
        c[r - V] -= t * c[r];
        c[r] = 0;
    }
    let (mut d, mut hi) = normalize::<V>(&c);
    for _ in 0..4 {
        d[0] -= t * hi;
        (d, hi) = normalize::<V>(&d);
    }
    debug_assert!((-1..=1).contains(&hi));
    // v = d + hi·2^l in (-p, 2p). Candidates v + p and v - p (p = 2^l + t).
    let mut plus = d;
    plus[0] += t;
    let (plus, plus_hi) = normalize::<V>(&plus);
    let plus_hi = plus_hi + hi + 1;
    let mut minus = d;
    minus[0] -= t;
    let (minus, minus_hi) = normalize::<V>(&minus);
    let minus_hi = minus_hi + hi - 1;
    // Masks: all ones when v < 0 (take v + p), when v - p >= 0 (take v - p).
    let neg = (hi >> 127) as u32;
    let ge = !((minus_hi >> 127) as u32) & !neg;
    let keep = !neg & !ge;
    let mut out = [0u32; 5];
    for r in 0..V {
        out[r] = (plus[r] as u32 & neg) | (minus[r] as u32 & ge) | (d[r] as u32 & keep);
    }
    out[V] = (plus_hi as u32 & neg) | (minus_hi as u32 & ge) | (hi as u32 & keep);
    out
}

/// Columns carried between chunks: the exact sum reduced mod p (exact
/// variants), or the words mod `2^32` (carry-free variants).
fn carry_in<const V: usize>(cols: &[u64; COLS], exact: bool) -> [u64; COLS] {
    if exact {
        let r = reduce::<V>(cols);
        core::array::from_fn(|i| if i < 5 { r[i] as u64 } else { 0 })
    } else {
        cols.map(|w| w & 0xffff_ffff)
    }
}

/// The value `mod p_l` (V + 1 words) of `variant` before its final `mod 2^l`
/// (`V1 = V + 1`).
pub(crate) fn hash_words<const V: usize, const V1: usize>(variant: Variant, key: &[u8], msg: &[u8]) -> [u32; 5] {
    debug_assert_eq!(V1, V + 1);
    chunked::<V>(variant, key, msg, |kc, mc, init| match variant {
        Variant::Star | Variant::Asm | Variant::C2 => columns::<V, V1>(kc, mc, init),
        Variant::Asm2 | Variant::E => columns::<V, V>(kc, mc, init),
        Variant::C => {
            let mut cols = *init;
            c_accumulate::<V, V1>(kc, mc, &mut cols);
            cols
        }
    })
}

/// Run a column kernel over chunks of [`CHUNK`] elements, carrying the
/// columns between chunks, then [`finish`].
#[inline(always)]
pub(crate) fn chunked<const V: usize>(
    variant: Variant,
    key: &[u8],
    msg: &[u8],
    kernel: impl Fn(&[u8], &[u8], &[u64; COLS]) -> [u64; COLS],
) -> [u32; 5] {
    let b = 4 * V;
    let exact = matches!(variant, Variant::Star | Variant::Asm | Variant::Asm2);
    // Offsets by hand: `chunks().zip()` would divide twice per call.
    let mut cols = kernel(&key[..key.len().min(CHUNK * b)], &msg[..msg.len().min(CHUNK * b)], &[0u64; COLS]);
    let mut off = CHUNK * b;
    while off < key.len() {
        let end = key.len().min(off + CHUNK * b);
        cols = kernel(&key[off..end], &msg[off..end], &carry_in::<V>(&cols, exact));
        off = end;
    }
    finish::<V>(variant, &cols)
}

/// The word count of the carry-free sum, then `mod p`.
#[inline(always)]
pub(crate) fn finish<const V: usize>(variant: Variant, cols: &[u64; COLS]) -> [u32; 5] {
    // Exact sums of `N`-word squares fill 2N columns (N = V for Def. 10,
    // V + 1 for Def. 7 and 9); the rest are zero.
    let exact = |n: usize| -> [u64; COLS] {
        let mut c = [0u64; COLS];
        c[..n].copy_from_slice(&cols[..n]);
        c
    };
    match variant {
        Variant::Star | Variant::Asm if V <= 3 => reduce_wide::<V>(&exact(2 * V + 2)),
        Variant::Asm2 if V <= 3 => reduce_wide::<V>(&exact(2 * V)),
        Variant::C if V <= 3 => reduce_wide::<V>(&words(cols, 2 * V + 1)),
        Variant::Star | Variant::Asm => reduce::<V>(&exact(2 * V + 2)),
        Variant::Asm2 => reduce::<V>(&exact(2 * V)),
        Variant::C => reduce::<V>(&words(cols, 2 * V + 1)),
        Variant::C2 => reduce::<V>(&words(cols, 2 * V + 2)),
        Variant::E if V <= 3 => reduce_2l::<V>(&words(cols, 2 * V)),
        Variant::E => reduce_2l_words::<V>(&words(cols, 2 * V)),
    }
}

/// [`reduce`] for a value below `2^(2l+32)` (exact sums of at most
/// [`CHUNK`] squares: below `2^(2l+26)`; Def. 11's `2V + 1` words), l <= 96,
/// in `u128`.
///
/// Normalised to words, `x = H1 2^(2l) + H0 2^l + L` with `L, H0 < 2^l` and
/// `H1 < 2^32`. As `2^l ≡ -t`, `x ≡ L - t H0 + t^2 H1`; adding `64 p` (more
/// than `t H0 < 2^(l+6)`) makes it positive: `0 < y < 2^(l+7) + 2^44`.
/// Then `y = h 2^l + y'` with `t h < 2^20 < p`, and `z = y' - t h` plus `p`
/// when negative (by mask) is canonical.
#[inline(always)]
pub(crate) fn reduce_wide<const V: usize>(cols: &[u64; COLS]) -> [u32; 5] {
    debug_assert!(V <= 3);
    let l = 32 * V as u32;
    let t = T[V] as u128;
    let p = (1u128 << l) + t;
    let mut w = [0u64; COLS + 2];
    let mut carry = 0u128;
    for r in 0..COLS {
        let s = cols[r] as u128 + carry;
        w[r] = s as u64 & 0xffff_ffff;
        carry = s >> 32;
    }
    w[COLS] = carry as u64 & 0xffff_ffff;
    w[COLS + 1] = (carry >> 32) as u64;
    let (mut lo, mut h0, mut h1) = (0u128, 0u128, 0u128);
    for r in 0..V {
        lo |= (w[r] as u128) << (32 * r);
        h0 |= (w[r + V] as u128) << (32 * r);
    }
    h1 |= w[2 * V] as u128;
    debug_assert!(w[2 * V + 1..].iter().all(|&x| x == 0), "reduce_wide: value too wide");
    let y = lo + t * t * h1 + 64 * p - t * h0;
    let z = (y & ((1u128 << l) - 1)) as i128 - (t * (y >> l)) as i128;
    let r = (z + ((z >> 127) & p as i128)) as u128;
    let mut out = [0u32; 5];
    for (j, o) in out.iter_mut().enumerate().take(V + 1) {
        *o = (r >> (32 * j)) as u32;
    }
    out
}

/// [`reduce_2l`] on 32-bit words in `u64` (any V; used at l = 128): the same
/// two folds, `y = L + t (p - H)` and `z = y' - t h`, as carry chains, and
/// `+ p` when `z < 0` as `+ t` under a mask (the `2^l` of `p` cancels the
/// final borrow).
#[inline(always)]
pub(crate) fn reduce_2l_words<const V: usize>(w: &[u64; COLS]) -> [u32; 5] {
    const M: u64 = 0xffff_ffff;
    let t = T[V];
    // n = p - H, V + 1 words (p = 2^l + t > H: no final borrow).
    let mut n = [0u64; 5];
    let mut borrow = 0i64;
    for (r, nr) in n.iter_mut().enumerate().take(V + 1) {
        let pr = if r == 0 { t } else if r == V { 1 } else { 0 };
        let hr = if r < V { w[V + r] } else { 0 };
        let s = pr as i64 - hr as i64 + borrow;
        *nr = s as u64 & M;
        borrow = s >> 32;
    }
    // y = L + t n < (t + 1) 2^l + t^2: V words and h = y >> l <= t + 1.
    let mut y = [0u64; 5];
    let mut c = 0u64;
    for r in 0..=V {
        let s = if r < V { w[r] } else { 0 } + t * n[r] + c;
        y[r] = s & M;
        c = s >> 32;
    }
    let h = y[V] + (c << 32);
    // z = y' - t h, signed; borrow is 0 or -1.
    let mut z = [0u32; 5];
    let mut borrow = 0i64;
    for r in 0..V {
        let s = y[r] as i64 - if r == 0 { (t * h) as i64 } else { 0 } + borrow;
        z[r] = s as u32;
        borrow = s >> 32;
    }
    // Negative: add p, i.e. add t and drop the borrow.
    let mut c = t & borrow as u64;
    for zr in z.iter_mut().take(V) {
        let s = *zr as u64 + c;
        *zr = s as u32;
        c = s >> 32;
    }
    z[V] = c as u32;
    z
}

/// [`reduce`] for a value below `2^(2l)` given as `2V` words, l <= 96, in `u128`.
///
/// With `x = H 2^l + L` (`H, L < 2^l`): `-t H ≡ t (p - H)` and `p - H > 0`, so
/// `y = L + t (p - H) ≡ x` with `0 <= y < (t + 1) 2^l + t^2 < 2^(l+7)`, inside
/// `u128`. Then `y = h 2^l + y'` with `h <= t + 1` and `z = y' - t h ≡ x` lies
/// in `(-t (t + 1), 2^l)`: adding `p` when negative (by mask) is canonical.
#[inline(always)]
pub(crate) fn reduce_2l<const V: usize>(w: &[u64; COLS]) -> [u32; 5] {
    let (mut lo, mut hi) = (0u128, 0u128);
    for r in 0..V {
        lo |= (w[r] as u128) << (32 * r);
        hi |= (w[r + V] as u128) << (32 * r);
    }
    let r = reduce_2l_u128::<V>(lo, hi);
    let mut out = [0u32; 5];
    for (j, o) in out.iter_mut().enumerate().take(V + 1) {
        *o = (r >> (32 * j)) as u32;
    }
    out
}

/// `(hi 2^l + lo) mod p_l` for `lo, hi < 2^l`, l <= 96 (see [`reduce_2l`]).
#[inline(always)]
pub(crate) fn reduce_2l_u128<const V: usize>(lo: u128, hi: u128) -> u128 {
    debug_assert!(V <= 3);
    let l = 32 * V as u32;
    let t = T[V] as u128;
    let p = (1u128 << l) + t;
    let y = lo + t * (p - hi);
    let z = (y & ((1u128 << l) - 1)) as i128 - (t * (y >> l)) as i128;
    (z + ((z >> 127) & p as i128)) as u128
}

/// The first `n` columns cut to 32-bit words, the rest dropped.
#[inline(always)]
fn words(cols: &[u64; COLS], n: usize) -> [u64; COLS] {
    let mut w = [0u64; COLS];
    for (w, c) in w.iter_mut().zip(&cols[..n]) {
        *w = c & 0xffff_ffff;
    }
    w
}

/// `((m + x)^2 + b) mod p_l` for `m, x, b` in `Z_p` given as `V + 1` words
/// each (Def. 4 with `b = 0`, Def. 5): the column kernel on one element.
pub(crate) fn square_plus<const V: usize, const V1: usize>(m: &[u64; V1], x: &[u64; V1], b: &[u64; V1]) -> [u32; 5] {
    // m + x < 2p < 2^(l+2): V + 1 words, the top one at most 3.
    let mut a = [0u64; V1];
    let mut carry = 0;
    for j in 0..V1 {
        let s = m[j] + x[j] + carry;
        a[j] = s & 0xffff_ffff;
        carry = s >> 32;
    }
    debug_assert_eq!(carry, 0);
    let mut d = [0u64; COLS];
    let mut xc = [0u64; COLS];
    d[..V1].copy_from_slice(b);
    products::<V1>(&a, &mut d, &mut xc);
    let cols: [u64; COLS] = core::array::from_fn(|r| d[r] + 2 * xc[r]);
    reduce::<V>(&cols)
}

#[cfg(test)]
mod differential {
    #[test]
    fn matches_the_reference() {
        super::super::tests::differential(super::super::Backend::Portable);
    }
}
