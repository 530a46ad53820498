//! The collision bounds of the MMH paper (Halevi and Krawczyk, “MMH”, section 4), checked
//! exhaustively at reduced scale with the same generic code that defines the
//! 32- and 64-bit functions (`unimac::unstable::hazmat::mmh::generic`): for `w`-bit words and a
//! prime `2^w < p < 2^w + 2^(w/2)`, enumerate **every** key `x ∈ ({0,1}^w)^k`
//! for many message pairs `m ≠ m'` and count, for every `δ`, the keys with
//! `h_x(m) - h_x(m') = δ`; the largest count over `2^(wk)` is the measured ε.
//!
//! - Lemma 7: `H_w` (Definition 6, difference mod `p`) has ε ≤ 2/2^w.
//! - Theorem 8: `MMH_w` (Definition 5, difference mod `2^w`) has ε ≤ 6/2^w.
//! - NMH (derived below): `NMH~_w` (difference mod `p`) has ε ≤ 4/2^w and
//!   `NMH_w` (Definition 10, difference mod `2^w`) has ε ≤ 12/2^w.
//!
//! ## The NMH bound (the paper only says "ε close to 2^-32")
//!
//! Let `NMH~_x(m) = [Σ_{i=1}^{k/2} u_i v_i mod 2^(2w)] mod p` with
//! `u_i = (m_{2i-1} + x_{2i-1}) mod 2^w`, `v_i = (m_{2i} + x_{2i}) mod 2^w`.
//! Take `m ≠ m'`, differing in some pair, w.l.o.g. pair 1; fix `a ∈ Z_p` and
//! every key word but one.
//!
//! *Case `m_2 ≠ m'_2`.* Fix `x_2, …, x_k` and let `x_1` vary. Then `v ≠ v'`
//! are fixed (`v - v' ≡ m_2 - m'_2 ≢ 0 mod 2^w`), `u` runs over all of
//! `[0, 2^w)` once, and `u' = u + d - 2^w c(u)` with `d = (m'_1 - m_1) mod 2^w`
//! and `c(u) = [u + d ≥ 2^w] ∈ {0, 1}`. As in Lemma 7 the other pairs give
//! fixed `s, s' < 2^(2w)` and `uv + s - 2^(2w) b`, `u'v' + s' - 2^(2w) b'` with
//! `b, b' ∈ {0, 1}`. So, mod `p`,
//!
//! `NMH~(m) - NMH~(m') ≡ u (v - v') + K + 2^w v' c(u) - 2^(2w) (b - b')`
//!
//! with `K = s - s' - d v'` fixed. Since `0 < |v - v'| < 2^w < p`, for each
//! value of `(c, b - b')` at most one `u ∈ [0, 2^w) ⊂ [0, p)` hits `a`. On each
//! of the two intervals where `c(u)` is constant, `u` and `u'` both increase
//! with `u`, so `uv + s` and `u'v' + s'` are non-decreasing and, exactly as in
//! Lemma 7's monotonicity argument, `b - b'` cannot take both values 1 and -1
//! there. Hence at most 2 solutions per interval, 4 in all: Pr ≤ 4/2^w.
//!
//! *Case `m_2 = m'_2`, `m_1 ≠ m'_1`.* Symmetric with `x_1` fixed and `x_2`
//! varying; now `v = v'` runs over `[0, 2^w)`, there is no wrap term, and
//! the bound is Lemma 7's 2/2^w.
//!
//! So `NMH~_w` is `4/2^w`-AΔU mod `p`. The step to `NMH_w` (reduce mod `2^w`)
//! is Theorem 8's: a difference `δ` mod `2^w` comes from at most 3 differences
//! in `(-p, p)`, so `NMH_w` is `12/2^w`-AΔU. At `w = 32`: ε ≤ 12 · 2^-32 < 2^-28.

// `x % n == 0` rather than `is_multiple_of`, which is stable only since Rust 1.87.
#![allow(clippy::manual_is_multiple_of)]

use crate::common;
use common::skipped;
use unimac::unstable::hazmat::mmh::generic::{self, Prime, Word};

/// A 4-bit word (for `k` up to 6 with every key enumerated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct W4(u8);
/// A 6-bit word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct W6(u8);

impl Word for W4 {
    const BITS: u32 = 4;
    fn to_u128(self) -> u128 {
        self.0 as u128
    }
    fn from_u128(x: u128) -> Self {
        W4((x & 15) as u8)
    }
}
impl Word for W6 {
    const BITS: u32 = 6;
    fn to_u128(self) -> u128 {
        self.0 as u128
    }
    fn from_u128(x: u128) -> Self {
        W6((x & 63) as u8)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Family {
    Mmh,
    Nmh,
}

/// Largest number of keys, over all `δ`, with `diff = δ`, for the
/// mod-`p` difference (`tilde`) and the mod-`2^w` difference (`out`).
#[derive(Default, Clone, Copy, Debug)]
struct Max {
    tilde: u64,
    out: u64,
}

/// How many message pairs (or messages) a configuration checks, each against
/// every key: `n`, or `⌈n/16⌉` with `UNIMAC_SAMPLED_PROOFS` set (as
/// scripts/test-all's runs after the first do: with every fast path off,
/// on i686, aarch64, wasm32). The bounds are properties of the arithmetic,
/// not of the target or the backend, and the full count runs once, with
/// the detected features; sampled, every configuration still enumerates
/// its whole key space with the same code, on fewer pairs (but for the
/// largest ones: [`SAMPLED_MAX_KEYS`]).
fn scaled(n: usize) -> usize {
    if sampled() {
        n.div_ceil(16)
    } else {
        n
    }
}

/// Whether `UNIMAC_SAMPLED_PROOFS` is set (see [`scaled`]).
fn sampled() -> bool {
    std::env::var_os("UNIMAC_SAMPLED_PROOFS").is_some_and(|v| !v.is_empty())
}

/// The most keys a sampled run enumerates for one configuration: those
/// with `2^24` keys (two Toeplitz ones, three of Lemma 7 / Theorem 8, two
/// of NMH, two point probabilities; under qemu-aarch64 the Toeplitz pair took 20 of that test's 22 s
/// of CPU, even on one message pair each) are enumerated in the full run
/// only.
const SAMPLED_MAX_KEYS: u64 = 1 << 20;

/// `(a(), b())`, `b` on a second thread where the target has threads; on
/// wasm32 without atomics (wasm32-wasip1: no threads) both on this one, so
/// the enumeration still runs in full.
#[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
fn both<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    std::thread::scope(|s| {
        let h = s.spawn(b);
        (a(), h.join().unwrap())
    })
}

#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
fn both<A, B>(a: impl FnOnce() -> A, b: impl FnOnce() -> B) -> (A, B) {
    (a(), b())
}

/// Enumerate every key for one message pair (two threads, halves of the key space).
fn max_counts<W: Word>(fam: Family, p: &Prime<W>, m: &[W], m2: &[W]) -> Max {
    let w = W::BITS;
    let k = m.len();
    let keys = 1u64 << (w as usize * k);
    let pv = p.p() as usize;
    let half = keys / 2;
    let run = |lo: u64, hi: u64| -> (Vec<u64>, Vec<u64>) {
        let mut ct = vec![0u64; pv];
        let mut co = vec![0u64; 1 << w];
        let mut x = vec![W::default(); k];
        for t in lo..hi {
            for (i, xi) in x.iter_mut().enumerate() {
                *xi = W::from_u128((t >> (w as usize * i)) as u128);
            }
            let (a, b) = match fam {
                Family::Mmh => (generic::h_tilde(p, &x, m), generic::h_tilde(p, &x, m2)),
                Family::Nmh => (generic::nmh_tilde(p, &x, m), generic::nmh_tilde(p, &x, m2)),
            };
            // a − b mod p, both below p: one conditional subtraction (a
            // u128 `%` here was a fifth of the enumeration's time).
            let d = a + p.p() - b;
            ct[(if d >= p.p() { d - p.p() } else { d }) as usize] += 1;
            // The outputs mod 2^w (MMH_w = H_w mod 2^w, NMH_w = NMH~_w mod 2^w).
            let (ao, bo) = (W::from_u128(a).to_u128(), W::from_u128(b).to_u128());
            co[((ao + (1 << w) - bo) & ((1 << w) - 1)) as usize] += 1;
        }
        (ct, co)
    };
    let ((t1, o1), (t2, o2)) = both(|| run(0, half), || run(half, keys));
    Max {
        tilde: t1.iter().zip(&t2).map(|(a, b)| a + b).max().unwrap(),
        out: o1.iter().zip(&o2).map(|(a, b)| a + b).max().unwrap(),
    }
}

/// Deterministic pseudo-random words (splitmix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Message pairs: every pair of distinct messages built from extreme words
/// (0, 1, 2^(w-1) - 1, 2^(w-1), 2^w - 2, 2^w - 1) when there are few enough,
/// else a sample of them, plus random pairs and pairs differing in one word.
fn pairs<W: Word>(k: usize, want: usize, seed: u64) -> Vec<(Vec<W>, Vec<W>)> {
    let w = W::BITS;
    let top = (1u128 << w) - 1;
    let ext: Vec<u128> = vec![0, 1, (1 << (w - 1)) - 1, 1 << (w - 1), top - 1, top];
    let mut rng = Rng(seed);
    let mut all: Vec<Vec<W>> = Vec::new();
    let n_ext = ext.len().pow(k as u32);
    if n_ext <= 40 {
        for t in 0..n_ext {
            let mut v = Vec::new();
            let mut r = t;
            for _ in 0..k {
                v.push(W::from_u128(ext[r % ext.len()]));
                r /= ext.len();
            }
            all.push(v);
        }
    }
    let mut out = Vec::new();
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            out.push((all[i].clone(), all[j].clone()));
        }
    }
    let rand_word = |rng: &mut Rng| -> W {
        if rng.next() % 2 == 0 {
            W::from_u128(ext[(rng.next() % ext.len() as u64) as usize])
        } else {
            W::from_u128(rng.next() as u128)
        }
    };
    while out.len() < want {
        let m: Vec<W> = (0..k).map(|_| rand_word(&mut rng)).collect();
        let mut m2 = m.clone();
        if rng.next() % 2 == 0 {
            let i = (rng.next() % k as u64) as usize;
            m2[i] = rand_word(&mut rng);
        } else {
            m2 = (0..k).map(|_| rand_word(&mut rng)).collect();
        }
        if m2 != m {
            out.push((m, m2));
        }
    }
    out.truncate(want);
    out
}

/// Run one configuration; assert the bounds; print measured vs proven (in
/// units of 2^-w, i.e. `count · 2^w / 2^(wk)`).
fn check<W: Word>(fam: Family, c: u64, k: usize, n_pairs: usize) {
    let n_pairs = scaled(n_pairs);
    let w = W::BITS;
    let p = Prime::<W>::new(c).unwrap();
    assert!(generic::is_prime(p.p()), "{} is prime", p.p());
    let keys = 1u64 << (w as usize * k);
    if sampled() && keys > SAMPLED_MAX_KEYS {
        println!("{fam:?} w={w} p={} k={k}: 2^{} keys, enumerated in the full run only (UNIMAC_SAMPLED_PROOFS)", p.p(), w as usize * k);
        return;
    }
    let unit = keys >> w; // 2^(w(k-1)): ε = count / keys = (count / unit) · 2^-w
    let (bt, bo) = match fam {
        Family::Mmh => (2, 6),
        Family::Nmh => (4, 12),
    };
    let mut worst = Max::default();
    let mut worst_pair = (String::new(), String::new());
    let ps = pairs::<W>(k, n_pairs, 0x5eed ^ (w as u64) << 8 ^ k as u64 ^ c << 16);
    for (m, m2) in &ps {
        let mx = max_counts(fam, &p, m, m2);
        assert!(
            mx.tilde <= bt * unit,
            "{fam:?} w={w} p={} k={k}: Pr[diff mod p = δ] = {}/2^{w} > {bt}/2^{w} for m = {m:?}, m' = {m2:?}",
            p.p(),
            mx.tilde as f64 / unit as f64
        );
        assert!(
            mx.out <= bo * unit,
            "{fam:?} w={w} p={} k={k}: Pr[diff mod 2^w = δ] = {}/2^{w} > {bo}/2^{w} for m = {m:?}, m' = {m2:?}",
            p.p(),
            mx.out as f64 / unit as f64
        );
        if mx.out > worst.out {
            worst_pair = (format!("{m:?}"), format!("{m2:?}"));
        }
        worst.tilde = worst.tilde.max(mx.tilde);
        worst.out = worst.out.max(mx.out);
    }
    let (lt, lo) = match fam {
        Family::Mmh => ("Lemma 7 (H_w mod p)", "Theorem 8 (MMH_w mod 2^w)"),
        Family::Nmh => ("NMH~_w mod p", "NMH_w mod 2^w"),
    };
    println!(
        "{fam:?} w={w} p={} k={k}, {} pairs x 2^{} keys: {lt} measured {:.4}/2^w <= proven {bt}/2^w; {lo} measured {:.4}/2^w <= proven {bo}/2^w (worst pair {} vs {})",
        p.p(),
        ps.len(),
        w as usize * k,
        worst.tilde as f64 / unit as f64,
        worst.out as f64 / unit as f64,
        worst_pair.0,
        worst_pair.1
    );
}

#[test]
fn mmh_lemma7_theorem8_w8() {
    for c in [1u64, 7, 13] {
        // p = 257, 263, 269: every prime 2^8 < p < 2^8 + 2^4.
        check::<u8>(Family::Mmh, c, 2, if c == 1 { 600 } else { 200 });
    }
    check::<u8>(Family::Mmh, 1, 3, 6);
}

#[test]
fn mmh_lemma7_theorem8_small_words_longer_keys() {
    check::<W6>(Family::Mmh, 3, 4, 3); // p = 67, every one of 2^24 keys
    check::<W4>(Family::Mmh, 1, 2, 400); // p = 17
    check::<W4>(Family::Mmh, 1, 4, 300);
    check::<W4>(Family::Mmh, 1, 6, 2);
}

#[test]
fn nmh_derived_bound() {
    check::<u8>(Family::Nmh, 1, 2, 600);
    check::<u8>(Family::Nmh, 13, 2, 200);
    check::<W6>(Family::Nmh, 3, 4, 3);
    check::<W4>(Family::Nmh, 1, 2, 400);
    check::<W4>(Family::Nmh, 1, 4, 300);
    check::<W4>(Family::Nmh, 1, 6, 2);
}

#[test]
fn same_code_as_the_full_size_functions() {
    // The reduced-scale checks call generic::h_tilde / nmh_tilde and take the
    // result mod 2^w; that is generic::mmh / nmh, which the backend tests hold
    // equal to the 32-bit block functions.
    let p = Prime::<u8>::new(1).unwrap();
    let mut rng = Rng(99);
    for _ in 0..10_000 {
        let x: Vec<u8> = (0..4).map(|_| rng.next() as u8).collect();
        let m: Vec<u8> = (0..4).map(|_| rng.next() as u8).collect();
        assert_eq!(generic::mmh(&p, &x, &m), generic::h_tilde(&p, &x, &m) as u8);
        assert_eq!(generic::nmh(&p, &x, &m), generic::nmh_tilde(&p, &x, &m) as u8);
        let s: u32 = x.iter().zip(&m).map(|(&a, &b)| a as u32 * b as u32).sum();
        assert_eq!(generic::h_tilde(&p, &x, &m), ((s % 65536) % 257) as u128);
    }
}

/// Largest number of keys of `k + n − 1` words with
/// `(MMH_{x_j..}(m) − MMH_{x_j..}(m'))_{j<n} = (δ_j)` word by word mod 2^w,
/// over all `δ` (the Toeplitz words of section 2.4, docs/WIRE.md §3's `mmh32xN`).
fn toeplitz_max<W: Word>(p: &Prime<W>, m: &[W], m2: &[W], n: usize) -> u64 {
    let w = W::BITS as usize;
    let k = m.len();
    let keys = 1u64 << (w * (k + n - 1));
    let mask = (1u128 << w) - 1;
    let run = |lo: u64, hi: u64| -> Vec<u64> {
        let mut c = vec![0u64; 1 << (n * w)];
        let mut x = vec![W::default(); k + n - 1];
        for t in lo..hi {
            for (i, xi) in x.iter_mut().enumerate() {
                *xi = W::from_u128((t >> (w * i)) as u128);
            }
            // Output j of `generic::mmh_toeplitz` is MMH_w under the key
            // shifted by j (its definition), here without the vector it
            // returns (allocating it for every key was 40 % of this
            // enumeration's time); the two agree on each range's first key.
            let mut d = 0usize;
            for j in 0..n {
                let a = generic::mmh(p, &x[j..j + k], m).to_u128();
                let b = generic::mmh(p, &x[j..j + k], m2).to_u128();
                d |= (((a + (1 << w) - b) & mask) as usize) << (w * j);
            }
            if t == lo {
                let (a, b) = (generic::mmh_toeplitz(p, &x, m, n), generic::mmh_toeplitz(p, &x, m2, n));
                let mut e = 0usize;
                for j in 0..n {
                    e |= (((a[j].to_u128() + (1 << w) - b[j].to_u128()) & mask) as usize) << (w * j);
                }
                assert_eq!(d, e, "the Toeplitz outputs of the key {x:?}");
            }
            c[d] += 1;
        }
        c
    };
    let (c1, c2) = both(|| run(0, keys / 2), || run(keys / 2, keys));
    c1.iter().zip(&c2).map(|(a, b)| a + b).max().unwrap()
}

/// The Toeplitz bound used for `mmh32xN` (docs/BOUNDS.md): ε ≤ 6·9^(N−1)/2^(wN)
/// for `N` words of MMH_w — Theorem 8 for one word, at most 9 values of
/// each further word's fresh key word. (The paper's (6/2^w)^N is stated for
/// MMH*, which has no mod 2^(2w) and mod 2^w wraps; it is printed beside the
/// measurement, not asserted.) A configuration whose bound is 1 or more says
/// nothing and is reported as skipped, not counted.
#[test]
fn toeplitz_words_within_the_derived_bound() {
    /// Returns whether the bound says something (false: skipped as
    /// vacuous).
    fn one<W: Word>(c: u64, k: usize, n: usize, n_pairs: usize) -> bool {
        let n_pairs = scaled(n_pairs);
        let w = W::BITS;
        let p = Prime::<W>::new(c).unwrap();
        let proven = 6.0 * 9f64.powi(n as i32 - 1) / 2f64.powi((w as usize * n) as i32);
        if proven >= 1.0 {
            skipped(&format!("Toeplitz MMH_w w={w} k={k} N={n}"), "vacuous: the proven bound is 1 or more");
            return false;
        }
        let keys = 1u64 << (w as usize * (k + n - 1));
        if sampled() && keys > SAMPLED_MAX_KEYS {
            println!(
                "Toeplitz MMH_w, w={w} p={} k={k} N={n}: 2^{} keys, enumerated in the full run only (UNIMAC_SAMPLED_PROOFS)",
                p.p(),
                w as usize * (k + n - 1)
            );
            return true;
        }
        let allowed = (proven * keys as f64).floor() as u64;
        let mut worst = 0;
        for (m, m2) in pairs::<W>(k, n_pairs, 0x7e ^ (w as u64) << 8 ^ k as u64 ^ (n as u64) << 20) {
            let mx = toeplitz_max(&p, &m, &m2, n);
            assert!(
                mx <= allowed,
                "Toeplitz w={w} p={} k={k} N={n}: Pr = {mx}/{keys} > 6*9^{}/2^{} for m = {m:?}, m' = {m2:?}",
                p.p(),
                n - 1,
                w as usize * n
            );
            worst = worst.max(mx);
        }
        let measured = worst as f64 / keys as f64;
        println!(
            "Toeplitz MMH_w, w={w} p={} k={k} N={n}, {n_pairs} pairs x 2^{} keys: measured {measured:.5} <= proven 6*9^{}/2^{} = {proven:.5} (the paper's MMH* figure (6/2^w)^N = {:.5})",
            p.p(),
            w as usize * (k + n - 1),
            n - 1,
            w as usize * n,
            (6.0 / 2f64.powi(w as i32)).powi(n as i32)
        );
        true
    }
    let ran = [
        one::<W4>(1, 2, 2, 300),
        one::<W4>(1, 4, 2, 6),
        one::<W4>(1, 2, 3, 200),
        one::<W4>(1, 3, 3, 6),
        one::<W4>(1, 2, 4, 10),
        one::<W6>(3, 2, 2, 20),
        one::<W6>(3, 2, 3, 2),
        one::<u8>(1, 2, 2, 2),
    ];
    assert!(ran.iter().all(|&r| r), "every configuration here has a bound below 1");
}

/// `μ_F = max_{y ≠ 0, u} Pr_x[F_x(y) = u]`, what the tree lemma needs for
/// messages of different heights (docs/BOUNDS.md), every key at reduced
/// scale: MMH_w ≤ 6/2^w (linear, `F(0) = 0`: Theorem 8 with `m' = 0`) and
/// NMH_w ≤ 5/2^w (key shift: `(y_i + x_i) mod 2^w` is uniform; then one
/// zero factor, or two values mod p times two carries).
#[test]
fn point_probabilities_for_the_tree_lemma() {
    fn one<W: Word>(fam: Family, c: u64, k: usize, n_msgs: usize) {
        let n_msgs = scaled(n_msgs).max(3);
        let w = W::BITS;
        let p = Prime::<W>::new(c).unwrap();
        let keys = 1u64 << (w as usize * k);
        if sampled() && keys > SAMPLED_MAX_KEYS {
            println!(
                "{fam:?}_w point probability, w={w} p={} k={k}: 2^{} keys, enumerated in the full run only (UNIMAC_SAMPLED_PROOFS)",
                p.p(),
                w as usize * k
            );
            return;
        }
        let bound = match fam {
            Family::Mmh => 6,
            Family::Nmh => 5,
        };
        let mut rng = Rng(0xa11ce ^ c ^ (k as u64) << 8);
        let top = (1u128 << w) - 1;
        let mut msgs: Vec<Vec<W>> = vec![
            (0..k).map(|i| W::from_u128((i == 0) as u128)).collect(),
            (0..k).map(|_| W::from_u128(top)).collect(),
            (0..k).map(|i| W::from_u128(if i == k - 1 { 1 } else { 0 })).collect(),
        ];
        while msgs.len() < n_msgs {
            let m: Vec<W> = (0..k).map(|_| W::from_u128(rng.next() as u128)).collect();
            if m.iter().any(|x| x.to_u128() != 0) {
                msgs.push(m);
            }
        }
        let mut worst = 0u64;
        for m in &msgs {
            let mut counts = vec![0u64; 1 << w];
            let mut x = vec![W::default(); k];
            for t in 0..keys {
                for (i, xi) in x.iter_mut().enumerate() {
                    *xi = W::from_u128((t >> (w as usize * i)) as u128);
                }
                let v = match fam {
                    Family::Mmh => generic::mmh(&p, &x, m),
                    Family::Nmh => generic::nmh(&p, &x, m),
                };
                counts[v.to_u128() as usize] += 1;
            }
            let mx = *counts.iter().max().unwrap();
            assert!(mx * (1 << w) <= bound * keys, "{fam:?} w={w} k={k}: mu = {mx}/{keys} > {bound}/2^{w} at y = {m:?}");
            worst = worst.max(mx);
        }
        println!(
            "{fam:?}_w point probability, w={w} p={} k={k}, {n_msgs} messages x 2^{} keys: measured {:.3}/2^w <= proven {bound}/2^w",
            p.p(),
            w as usize * k,
            worst as f64 * (1u64 << w) as f64 / keys as f64
        );
    }
    one::<u8>(Family::Mmh, 1, 2, 200);
    one::<u8>(Family::Nmh, 1, 2, 200);
    one::<u8>(Family::Nmh, 13, 2, 100);
    one::<W6>(Family::Nmh, 3, 4, 10);
    one::<W4>(Family::Nmh, 1, 4, 50);
    one::<W6>(Family::Mmh, 3, 4, 10);
}
