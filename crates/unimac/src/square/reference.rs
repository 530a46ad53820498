//! The word-by-word definitions of Square Hash (docs/WIRE.md §4; Etzel, Patel
//! and Ramzan, "Square Hash: fast message authentication via optimized
//! universal hash functions", sections 4.2–4.8),
//! generic in the machine word size, the element size `l` and the prime `p`.
//!
//! This is the model every fast path is tested against, and the very code the
//! scaled-down proof checks (`tests/suite/square_proofs.rs`) enumerate at 4- and
//! 8-bit machine words: the carry rules `C` and `C2` are written exactly as
//! the wire format states them, one machine word at a time, with no cleverness.
//! It is exact but neither fast nor constant-time (its `mod p` is a plain
//! long division); the library computes through `portable.rs` and
//! `avx2.rs`, which are tested to give the identical bytes.

use crate::prelude::*;
use super::Variant;

/// Limbs of [`Nat`]: 32 × 12 = 384 bits, enough for every definition at
/// l = 128 (the widest, `C2` on 5-word values, is 10 words = 320 bits).
pub const LIMBS: usize = 12;

/// A small fixed-size natural number (little-endian 32-bit limbs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nat(pub [u32; LIMBS]);

impl Nat {
    pub const ZERO: Nat = Nat([0; LIMBS]);

    pub fn from_u128(v: u128) -> Nat {
        let mut n = Nat::ZERO;
        for (i, limb) in n.0.iter_mut().take(4).enumerate() {
            *limb = (v >> (32 * i)) as u32;
        }
        n
    }

    /// Little-endian bytes (at most `4 * LIMBS`).
    pub fn from_le_bytes(b: &[u8]) -> Nat {
        assert!(b.len() <= 4 * LIMBS);
        let mut n = Nat::ZERO;
        for (i, &byte) in b.iter().enumerate() {
            n.0[i / 4] |= (byte as u32) << (8 * (i % 4));
        }
        n
    }

    /// The low `len` bytes, little-endian (the value must fit).
    pub fn to_le_bytes(&self, len: usize) -> Vec<u8> {
        assert!(self.bits() as usize <= 8 * len, "value does not fit in {len} bytes");
        (0..len).map(|i| if i < 4 * LIMBS { (self.0[i / 4] >> (8 * (i % 4))) as u8 } else { 0 }).collect()
    }

    /// The value as a `u128` (it must fit).
    pub fn to_u128(&self) -> u128 {
        assert!(self.bits() <= 128);
        (0..4).fold(0u128, |v, i| v | (self.0[i] as u128) << (32 * i))
    }

    /// Number of significant bits.
    pub fn bits(&self) -> u32 {
        for i in (0..LIMBS).rev() {
            if self.0[i] != 0 {
                return 32 * i as u32 + 32 - self.0[i].leading_zeros();
            }
        }
        0
    }

    pub fn bit(&self, i: u32) -> bool {
        (i as usize) < 32 * LIMBS && (self.0[i as usize / 32] >> (i % 32)) & 1 == 1
    }

    /// `self + o`, exact.
    pub fn add(&self, o: &Nat) -> Nat {
        let mut r = Nat::ZERO;
        let mut carry = 0u64;
        for i in 0..LIMBS {
            let s = self.0[i] as u64 + o.0[i] as u64 + carry;
            r.0[i] = s as u32;
            carry = s >> 32;
        }
        assert_eq!(carry, 0, "Nat overflow");
        r
    }

    /// `self - o`, which must not be negative.
    pub fn sub(&self, o: &Nat) -> Nat {
        let mut r = Nat::ZERO;
        let mut borrow = 0i64;
        for i in 0..LIMBS {
            let s = self.0[i] as i64 - o.0[i] as i64 + borrow;
            r.0[i] = s as u32;
            borrow = s >> 32;
        }
        assert_eq!(borrow, 0, "Nat underflow");
        r
    }

    /// `self * o`, exact (schoolbook over the significant limbs).
    pub fn mul(&self, o: &Nat) -> Nat {
        let (na, nb) = (self.limbs(), o.limbs());
        let mut r = [0u64; 2 * LIMBS];
        for i in 0..na {
            let mut carry = 0u64;
            for j in 0..nb {
                let t = r[i + j] + self.0[i] as u64 * o.0[j] as u64 + carry;
                r[i + j] = t & 0xffff_ffff;
                carry = t >> 32;
            }
            r[i + nb] = carry;
        }
        assert!(r[LIMBS..].iter().all(|&w| w == 0), "Nat overflow");
        Nat(core::array::from_fn(|i| r[i] as u32))
    }

    /// Limbs up to the most significant non-zero one.
    fn limbs(&self) -> usize {
        self.bits().div_ceil(32) as usize
    }

    pub fn ge(&self, o: &Nat) -> bool {
        for i in (0..LIMBS).rev() {
            if self.0[i] != o.0[i] {
                return self.0[i] > o.0[i];
            }
        }
        true
    }

    /// `self mod 2^n`.
    pub fn low_bits(&self, n: u32) -> Nat {
        let mut r = *self;
        for i in 0..LIMBS {
            let lo = 32 * i as u32;
            if lo >= n {
                r.0[i] = 0;
            } else if n - lo < 32 {
                r.0[i] &= (1u32 << (n - lo)) - 1;
            }
        }
        r
    }

    /// `self mod p` by long division.
    pub fn rem(&self, p: &Nat) -> Nat {
        if p.bits() <= 32 {
            // One limb at a time: r < p <= 2^32, so r·2^32 + limb < 2^64.
            let p = p.0[0] as u64;
            let n = self.limbs();
            let r = self.0[..n].iter().rev().fold(0u64, |r, &limb| ((r << 32) | limb as u64) % p);
            return Nat::from_u128(r as u128);
        }
        let mut r = Nat::ZERO;
        for i in (0..self.bits()).rev() {
            r = r.add(&r);
            if self.bit(i) {
                r.0[0] |= 1;
            }
            if r.ge(p) {
                r = r.sub(p);
            }
        }
        r
    }

    /// Word `j` when the value is cut into `w`-bit machine words (`w` divides 32).
    pub fn word(&self, j: u32, w: u32) -> u64 {
        let bit = j * w;
        if bit as usize >= 32 * LIMBS {
            return 0;
        }
        ((self.0[bit as usize / 32] >> (bit % 32)) as u64) & ((1u64 << w) - 1)
    }

    /// The number whose `w`-bit machine words are `words` (each below `2^w`).
    pub fn from_words(words: &[u64], w: u32) -> Nat {
        let mut n = Nat::ZERO;
        for (j, &x) in words.iter().enumerate() {
            assert!(x < 1 << w);
            let bit = j as u32 * w;
            n.0[bit as usize / 32] |= (x as u32) << (bit % 32);
        }
        n
    }
}

/// The sizes of a Square Hash: machine word `word` bits (dividing 32), element
/// `l` bits (a multiple of `word`), and the prime `p` with `2^l < p < 2^l + 2^(l-1)`.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    pub word: u32,
    pub l: u32,
    pub p: Nat,
}

/// The most machine words a carry-free sum in this module handles.
const MAX_WORDS: usize = 64;

impl Geometry {
    /// A geometry; checks the constraints the definitions (Def. 9–13) assume.
    pub fn new(word: u32, l: u32, p: Nat) -> Geometry {
        assert!(word >= 2 && 32 % word == 0, "machine word must divide 32");
        assert!(l.is_multiple_of(word) && l >= word);
        let two_l = Self::pow2(l);
        assert!(p.ge(&two_l.add(&Nat::from_u128(1))), "p must exceed 2^l");
        assert!(!p.ge(&two_l.add(&Self::pow2(l - 1))), "p must be below 2^l + 2^(l-1)");
        assert!(2 * (l / word + 1) as usize <= MAX_WORDS);
        Geometry { word, l, p }
    }

    fn pow2(n: u32) -> Nat {
        let mut r = Nat::ZERO;
        r.0[(n / 32) as usize] = 1 << (n % 32);
        r
    }

    /// The wire format's geometry (docs/WIRE.md §4) for `l` in {32, 64, 96, 128}: 32-bit words, `p_l`.
    pub fn spec(l: u32) -> Geometry {
        let t = match l {
            32 => 15,
            64 => 13,
            96 => 61,
            128 => 51,
            _ => panic!("the wire format has no Square Hash with l = {l}"),
        };
        Geometry::new(32, l, Self::pow2(l).add(&Nat::from_u128(t)))
    }

    /// Machine words in one `l`-bit element (`w` of Theorems 8–10).
    pub fn w(&self) -> u32 {
        self.l / self.word
    }

    /// How many words the carry-free sum `C` of `variant` runs over
    /// (the table of docs/WIRE.md §4); `None` for the exact variants.
    pub fn c_words(&self, v: Variant) -> Option<u32> {
        let w = self.w();
        match v {
            Variant::C => Some(2 * w + 1),
            Variant::C2 => Some(2 * (w + 1)),
            Variant::E => Some(2 * w),
            Variant::Star | Variant::Asm | Variant::Asm2 => None,
        }
    }
}

/// `C(a + b)` over `n` machine words of `w` bits: each word position summed
/// mod `2^w`, no carry into the next word (section 4.7, "ignoring carry bits
/// in the outer summation"). Both inputs must fit in `n` words.
pub fn c_add(a: &Nat, b: &Nat, n: u32, w: u32) -> Nat {
    assert!(a.bits() <= n * w && b.bits() <= n * w, "C: a term wider than {n} words");
    let mut words = [0u64; MAX_WORDS];
    for (j, x) in words.iter_mut().enumerate().take(n as usize) {
        *x = (a.word(j as u32, w) + b.word(j as u32, w)) & ((1 << w) - 1);
    }
    Nat::from_words(&words[..n as usize], w)
}

/// `C2(a^2)` for `a` taken as `v` machine words of `w` bits (section 4.7,
/// "ignoring carry bits when squaring"; docs/WIRE.md §4): start `2v` zero words `R`;
/// for every ordered pair `(j, k)` with `P = a_j a_k`, add `P mod 2^w` to
/// `R_{j+k}` and `P >> w` to `R_{j+k+1}`, each addition mod `2^w`.
pub fn c2_square(a: &Nat, v: u32, w: u32) -> Nat {
    assert!(a.bits() <= v * w, "C2: the value is wider than {v} words");
    let mask = (1u64 << w) - 1;
    let mut r = [0u64; MAX_WORDS];
    for j in 0..v {
        for k in 0..v {
            let p = a.word(j, w) * a.word(k, w);
            let (lo, hi) = (p & mask, p >> w);
            r[(j + k) as usize] = (r[(j + k) as usize] + lo) & mask;
            r[(j + k + 1) as usize] = (r[(j + k + 1) as usize] + hi) & mask;
        }
    }
    Nat::from_words(&r[..2 * v as usize], w)
}

/// The contribution of one element, `a_i = m_i + x_i` (exact), before the outer sum.
pub fn term(g: &Geometry, v: Variant, x: &Nat, m: &Nat) -> Nat {
    let a = x.add(m);
    match v {
        // Def. 7, 9, 11: the exact square of m_i + x_i.
        Variant::Star | Variant::Asm | Variant::C => a.mul(&a),
        // Def. 10: ignore the top bit of m_i + x_i.
        Variant::Asm2 => {
            let a = a.low_bits(g.l);
            a.mul(&a)
        }
        // Def. 12: a_i as w + 1 words (its top word is its carry bit).
        Variant::C2 => c2_square(&a, g.w() + 1, g.word),
        // Def. 13: (m_i + x_i) mod 2^l as w words.
        Variant::E => c2_square(&a.low_bits(g.l), g.w(), g.word),
    }
}

/// The outer sum, one term at a time: exact (kept mod p, which does not change
/// `sum mod p`) or carry-free `C` over the variant's word count.
pub fn accumulate(g: &Geometry, v: Variant, acc: &Nat, t: &Nat) -> Nat {
    match g.c_words(v) {
        None => acc.add(&t.rem(&g.p)).rem(&g.p),
        Some(n) => c_add(acc, t, n, g.word),
    }
}

/// `mod p`, and `mod 2^l` for the variants whose output is `l` bits.
pub fn finish(g: &Geometry, v: Variant, acc: &Nat) -> Nat {
    let r = acc.rem(&g.p);
    match v {
        Variant::Asm | Variant::E => r.low_bits(g.l),
        _ => r,
    }
}

/// `g_x(m)` of `variant` (docs/WIRE.md §4) at geometry `g`: `key` and `msg` are the
/// elements `x_i`, `m_i` (each below `2^l`, same count `k >= 1`).
pub fn hash(g: &Geometry, v: Variant, key: &[Nat], msg: &[Nat]) -> Nat {
    assert_eq!(key.len(), msg.len());
    let acc = key.iter().zip(msg).fold(Nat::ZERO, |acc, (x, m)| accumulate(g, v, &acc, &term(g, v, x, m)));
    finish(g, v, &acc)
}

/// [`hash`] on the byte encoding of docs/WIRE.md §4 at 32-bit words: key and message are
/// `k` little-endian `l/8`-byte elements; the output is `l/8` or `l/8 + 1` bytes.
pub fn hash_bytes(l: u32, v: Variant, key: &[u8], msg: &[u8]) -> Vec<u8> {
    let g = Geometry::spec(l);
    let b = l as usize / 8;
    assert!(key.len() == msg.len() && !key.is_empty() && key.len().is_multiple_of(b));
    let xs: Vec<Nat> = key.chunks(b).map(Nat::from_le_bytes).collect();
    let ms: Vec<Nat> = msg.chunks(b).map(Nat::from_le_bytes).collect();
    hash(&g, v, &xs, &ms).to_le_bytes(v.out_bytes(l as usize))
}

/// SQH of Def. 4 on `Z_p`: `h_x(m) = (m + x)^2 mod p` (Δ-universal, Thm 1).
pub fn sqh(p: &Nat, x: &Nat, m: &Nat) -> Nat {
    let a = x.add(m);
    a.mul(&a).rem(p)
}

/// SQHU of Def. 5: `h_{x,b}(m) = ((m + x)^2 + b) mod p` — Lemma 1's
/// conversion of the Δ-universal SQH into a strongly universal family (Thm 2).
pub fn sqhu(p: &Nat, x: &Nat, b: &Nat, m: &Nat) -> Nat {
    sqh(p, x, m).add(b).rem(p)
}
