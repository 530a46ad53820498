//! The group in which a Wegman–Carter MAC adds its pad to the hash (the wire
//! format, docs/WIRE.md §8.4).
//!
//! Wegman–Carter `tag = f(n) ⋆ H(M)` is secure when `H` is ε-almost-Δ-universal
//! for the group operation `⋆`: `Pr[H(x) − H(y) = δ] ≤ ε` for `x ≠ y` and every
//! `δ` (Halevi and Krawczyk, "MMH: software message authentication in the
//! Gbit/second rates", §2.3; Etzel, Patel and Ramzan, "Square Hash: fast
//! message authentication via optimized universal hash functions", §1). Each hash is proven so for one group only,
//! and the MAC must use that one:
//!
//! | hash | group | proven in |
//! |---|---|---|
//! | MMH32 (Toeplitz words), NMH32 | `Z_{2^32}^N`, word by word | Halevi and Krawczyk, Theorem 8, Definition 10 |
//! | MMH64 | `Z_{2^64}` | Halevi and Krawczyk, §3.2 |
//! | Square Hash `asm`, `E` | `Z_{2^l}` | Etzel, Patel and Ramzan, Theorems 6, 10 |
//! | Shoup's hashes | `GF(2)^l`, XOR | Shoup, "On fast and provably secure message authentication based on universal hashing", §4 (characteristic 2) |

/// The group of a hash's output in which its differences are bounded.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaGroup {
    /// `Z_{2^32}^N`: each little-endian 32-bit word added mod `2^32` (the
    /// product group of MMH32's Toeplitz words; NMH32).
    Words32,
    /// `Z_{2^(8O)}`: the whole `O`-byte output as one little-endian integer,
    /// added mod `2^(8O)` (MMH64, Square Hash).
    Integer,
    /// `GF(2)^(8O)`: XOR (Shoup's hashes over GF(2)).
    Xor,
}

impl DeltaGroup {
    /// `out = pad ⋆ h` for `O = h.len()` bytes (`O ≤ 16`; `pad` at least `O`
    /// bytes, only its first `O` used). No branch or index depends on the
    /// values.
    pub fn combine(self, pad: &[u8], h: &[u8], out: &mut [u8]) {
        let o = h.len();
        assert!(o <= 16 && pad.len() >= o && out.len() == o, "combine: O = {o} bytes, at most 16");
        match self {
            DeltaGroup::Xor => {
                for ((t, a), b) in out.iter_mut().zip(pad).zip(h) {
                    *t = a ^ b;
                }
            }
            DeltaGroup::Words32 => {
                assert!(o.is_multiple_of(4), "Words32 needs whole 32-bit words");
                for ((t, a), b) in out.chunks_exact_mut(4).zip(pad.chunks_exact(4)).zip(h.chunks_exact(4)) {
                    let s = u32::from_le_bytes(a.try_into().expect("4 bytes"))
                        .wrapping_add(u32::from_le_bytes(b.try_into().expect("4 bytes")));
                    t.copy_from_slice(&s.to_le_bytes());
                }
            }
            DeltaGroup::Integer => {
                let mut a = [0u8; 16];
                let mut b = [0u8; 16];
                a[..o].copy_from_slice(&pad[..o]);
                b[..o].copy_from_slice(h);
                // The sum mod 2^128; its low O bytes are the sum mod 2^(8O).
                let s = u128::from_le_bytes(a).wrapping_add(u128::from_le_bytes(b)).to_le_bytes();
                out.copy_from_slice(&s[..o]);
                zeroize::Zeroize::zeroize(&mut a);
                zeroize::Zeroize::zeroize(&mut b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DeltaGroup::*;
    use crate::prelude::*;

    #[test]
    fn combine_is_the_group_operation() {
        let pad: Vec<u8> = (0..16).map(|i| 0xf0 ^ (i * 37) as u8).collect();
        let h: Vec<u8> = (0..16).map(|i| 0x0f ^ (i * 91) as u8).collect();
        for o in [4usize, 8, 12, 16] {
            let mut t = vec![0u8; o];
            Words32.combine(&pad, &h[..o], &mut t);
            for j in 0..o / 4 {
                let w = |x: &[u8]| u32::from_le_bytes(x[4 * j..4 * j + 4].try_into().unwrap());
                assert_eq!(w(&t), w(&pad).wrapping_add(w(&h)));
            }
            Integer.combine(&pad, &h[..o], &mut t);
            let v = |x: &[u8]| {
                let mut b = [0u8; 16];
                b[..o].copy_from_slice(&x[..o]);
                u128::from_le_bytes(b)
            };
            let m = if o == 16 { u128::MAX } else { (1u128 << (8 * o)) - 1 };
            assert_eq!(v(&t), v(&pad).wrapping_add(v(&h)) & m);
            Xor.combine(&pad, &h[..o], &mut t);
            assert!(t.iter().zip(&pad).zip(&h).all(|((t, a), b)| *t == a ^ b));
        }
        // A carry crosses words in Integer, not in Words32.
        let mut t = [0u8; 8];
        Integer.combine(&[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0, 0, 0], &mut t);
        assert_eq!(t, [0, 0, 0, 0, 1, 0, 0, 0]);
        Words32.combine(&[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0, 0, 0], &mut t);
        assert_eq!(t, [0; 8]);
    }
}
