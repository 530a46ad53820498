//! The block functions of the wire format (docs/WIRE.md §3) in portable Rust: `mmh32xN` (Definition 5
//! with the Toeplitz shift of section 2.4), `nmh32` (Definition 10) and
//! `mmh64` (section 3.2's 64-bit variant), with the division-less reductions
//! of section 3.1 specialised to `p = 2^32 + 15` and `p = 2^64 + 13`.

use super::{K, NMH_PAIRS};

/// `p = 2^32 + 15`.
pub const P32: u64 = (1 << 32) + 15;

/// `(x mod (2^32 + 15)) mod 2^32` without division (section 3.1).
///
/// `x = 2^32 a + b ≡ b - 15 a`, and `y = b - 15 a ∈ [-15(2^32 - 1), 2^32 - 1]`
/// fits an `i64`; `y = 2^32 c + d` with `c ∈ [-15, 0]`, and
/// `z = d - 15 c ∈ [0, 2^32 + 225]`; one conditional subtraction of `p` then
/// gives `x mod p`. Branch-free.
#[inline(always)]
pub fn reduce32(x: u64) -> u32 {
    let a = (x >> 32) as i64;
    let b = (x & 0xffff_ffff) as i64;
    let y = b - 15 * a;
    let c = y >> 32; // arithmetic: floor(y / 2^32)
    let d = y & 0xffff_ffff;
    let z = (d - 15 * c) as u64;
    let t = z.wrapping_sub(P32);
    let keep = 0u64.wrapping_sub(t >> 63); // all ones when z < p
    ((t & !keep) | (z & keep)) as u32
}

/// `(x mod (2^64 + 13)) mod 2^64` without division (section 3.1 with
/// `2^64 + 13`): `y = b - 13 a ∈ [-13(2^64 - 1), 2^64 - 1]` (an `i128`),
/// `z = d - 13 c ∈ [0, 2^64 + 169]`, one conditional subtraction.
#[inline(always)]
pub fn reduce64(x: u128) -> u64 {
    const P: u128 = (1 << 64) + 13;
    let a = (x >> 64) as i128;
    let b = (x as u64) as i128;
    let y = b - 13 * a;
    let c = y >> 64;
    let d = (y as u64) as i128;
    let z = (d - 13 * c) as u128;
    let t = z.wrapping_sub(P);
    let keep = 0u128.wrapping_sub(t >> 127);
    ((t & !keep) | (z & keep)) as u64
}

#[inline(always)]
fn words32(block: &[u8]) -> [u32; K] {
    let mut m = [0u32; K];
    for (w, c) in m.iter_mut().zip(block.chunks_exact(4)) {
        *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    m
}

/// `mmh32xN` on each 128-byte block of `blocks`: `key` has `31 + N` words,
/// `out` gets `4N` bytes a block.
pub fn mmh32(key: &[u32], blocks: &[u8], out: &mut [u8]) {
    let n = key.len() + 1 - K;
    debug_assert!((1..=4).contains(&n));
    debug_assert_eq!(blocks.len() % (4 * K), 0);
    debug_assert_eq!(out.len(), blocks.len() / (4 * K) * 4 * n);
    for (block, o) in blocks.chunks_exact(4 * K).zip(out.chunks_exact_mut(4 * n)) {
        let m = words32(block);
        for (j, oj) in o.chunks_exact_mut(4).enumerate() {
            let x = &key[j..j + K];
            // 32 products of 2^64 - 2^33 + 1 at most each; the sum is taken
            // mod 2^64 (Definition 5), so wrapping is the definition.
            let mut s = 0u64;
            for i in 0..K {
                s = s.wrapping_add(m[i] as u64 * x[i] as u64);
            }
            oj.copy_from_slice(&reduce32(s).to_le_bytes());
        }
    }
}

/// `nmh32` on each 128-byte block: `key` has 32 words, 4 bytes out a block.
pub fn nmh32(key: &[u32; K], blocks: &[u8], out: &mut [u8]) {
    debug_assert_eq!(out.len(), blocks.len() / (4 * K) * 4);
    for (block, o) in blocks.chunks_exact(4 * K).zip(out.chunks_exact_mut(4)) {
        let m = words32(block);
        let mut s = 0u64;
        for i in 0..NMH_PAIRS {
            let a = m[2 * i].wrapping_add(key[2 * i]) as u64;
            let b = m[2 * i + 1].wrapping_add(key[2 * i + 1]) as u64;
            s = s.wrapping_add(a * b);
        }
        o.copy_from_slice(&reduce32(s).to_le_bytes());
    }
}

/// `mmh64` on each 256-byte block: `key` has 32 u64, 8 bytes out a block.
pub fn mmh64(key: &[u64; K], blocks: &[u8], out: &mut [u8]) {
    debug_assert_eq!(out.len(), blocks.len() / (8 * K) * 8);
    for (block, o) in blocks.chunks_exact(8 * K).zip(out.chunks_exact_mut(8)) {
        let mut s = 0u128;
        for (i, c) in block.chunks_exact(8).enumerate() {
            let mi = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            // Sum mod 2^128 (section 3.2's 64-bit variant): wrapping is the definition.
            s = s.wrapping_add(mi as u128 * key[i] as u128);
        }
        o.copy_from_slice(&reduce64(s).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::differential, Backend};

    #[test]
    fn matches_the_definitions() {
        differential(Backend::Portable, |c, out| match c.key.as_slice().try_into() {
            Ok(key) if c.outputs == 0 => super::nmh32(key, &c.blocks, out),
            _ => super::mmh32(&c.key, &c.blocks, out),
        });
    }
}
