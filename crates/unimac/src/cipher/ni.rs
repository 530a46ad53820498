//! One AES block with AES-NI (x86-64): the key schedules of AES-128,
//! AES-192 and AES-256 by `aeskeygenassist` (FIPS-197 §5.2; the steps of
//! Gueron's "Intel Advanced Encryption Standard (AES) New Instructions
//! Set" white paper) and the rounds by `aesenc` / `aesenclast`, the round
//! keys kept as bytes and zeroized on drop.
//!
//! [`RoundKeys`] exists only where detection found AES-NI (its
//! constructors return `None` otherwise), so holding one is the evidence
//! the safe [`RoundKeys::encrypt`] needs before its one `unsafe` call into
//! `#[target_feature]` code. No branch or memory index depends on the key
//! or the block.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

cpufeatures::new!(cpu_aes, "aes", "sse2");

/// The `R` round keys of an AES key: 11 for AES-128, 13 for AES-192, 15
/// for AES-256.
#[derive(Clone)]
pub(crate) struct RoundKeys<const R: usize>([[u8; 16]; R]);

impl<const R: usize> Drop for RoundKeys<R> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.0);
    }
}

impl<const R: usize> RoundKeys<R> {
    /// The round keys of `key` (16, 24 or 32 bytes for `R` = 11, 13, 15),
    /// or `None` where the CPU lacks AES-NI.
    ///
    /// # Panics
    /// If `key`'s length does not match `R`.
    pub(crate) fn new(key: &[u8]) -> Option<RoundKeys<R>> {
        const { assert!(R == 11 || R == 13 || R == 15) };
        assert_eq!(key.len(), 4 * (R - 7), "an AES key of {} bytes", 4 * (R - 7));
        if !cpu_aes::get() {
            return None;
        }
        let mut rk = RoundKeys([[0; 16]; R]);
        let mut k = [[0u8; 16]; 15];
        // SAFETY: the CPU has AES-NI and SSE2 (detected just above); `key`
        // has the length of `R`'s schedule (asserted above).
        unsafe {
            match R {
                11 => expand128(key.try_into().expect("16 bytes"), &mut k),
                13 => expand192(key.try_into().expect("24 bytes"), &mut k),
                _ => expand256(key.try_into().expect("32 bytes"), &mut k),
            }
        };
        rk.0.copy_from_slice(&k[..R]);
        zeroize::Zeroize::zeroize(&mut k);
        Some(rk)
    }

    /// Encipher `b` in place.
    #[inline]
    pub(crate) fn encrypt(&self, b: &mut aes::Block) {
        // SAFETY: a `RoundKeys` is only made by `new`, after detection found
        // AES-NI and SSE2; the kernel reads the 16 bytes of `b` and writes
        // them back.
        unsafe { encrypt(&self.0, b) };
    }
}

/// `w ^ (w << 32) ^ (w << 64) ^ (w << 96)` (words, little-endian): each
/// word of the schedule's step the xor of those before it.
#[inline]
#[target_feature(enable = "sse2")]
fn prefix_xor(w: __m128i) -> __m128i {
    let mut t = _mm_xor_si128(w, _mm_slli_si128::<4>(w));
    t = _mm_xor_si128(t, _mm_slli_si128::<4>(t));
    _mm_xor_si128(t, _mm_slli_si128::<4>(t))
}

/// Store the schedule's registers as bytes.
#[inline]
#[target_feature(enable = "sse2")]
fn store(keys: &[__m128i], out: &mut [[u8; 16]; 15]) {
    for (o, k) in out.iter_mut().zip(keys) {
        // SAFETY: 16 bytes of `o`; `storeu` needs no alignment.
        unsafe { _mm_storeu_si128(o.as_mut_ptr() as *mut __m128i, *k) };
    }
}

/// # Safety
/// The CPU must have AES-NI and SSE2.
#[target_feature(enable = "aes,sse2")]
unsafe fn expand128(key: &[u8; 16], out: &mut [[u8; 16]; 15]) {
    // SAFETY: 16 bytes of `key`; `loadu` needs no alignment.
    let mut w = unsafe { _mm_loadu_si128(key.as_ptr() as *const __m128i) };
    let mut keys = [w; 11];
    macro_rules! round {
        ($i:expr, $rcon:expr) => {
            // `aeskeygenassist` leaves `SubWord(RotWord(last word)) ^ rcon`
            // in its top word.
            w = _mm_xor_si128(prefix_xor(w), _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<$rcon>(w)));
            keys[$i] = w;
        };
    }
    round!(1, 0x01);
    round!(2, 0x02);
    round!(3, 0x04);
    round!(4, 0x08);
    round!(5, 0x10);
    round!(6, 0x20);
    round!(7, 0x40);
    round!(8, 0x80);
    round!(9, 0x1b);
    round!(10, 0x36);
    store(&keys, out);
    keys = [_mm_setzero_si128(); 11];
    core::hint::black_box(&keys);
}

/// # Safety
/// The CPU must have AES-NI and SSE2.
#[target_feature(enable = "aes,sse2")]
unsafe fn expand192(key: &[u8; 24], out: &mut [[u8; 16]; 15]) {
    // Six words a step: `a` holds four, the low half of `c` two.
    // SAFETY: bytes 0..16 and 16..24 of `key`; no alignment needed.
    let (mut a, mut c) = unsafe {
        (_mm_loadu_si128(key.as_ptr() as *const __m128i), _mm_loadl_epi64(key.as_ptr().add(16) as *const __m128i))
    };
    // The schedule's steps, then cut into round keys.
    let mut halves = [[_mm_setzero_si128(); 2]; 9];
    halves[0] = [a, c];
    macro_rules! step {
        ($i:expr, $rcon:expr) => {
            let t = _mm_shuffle_epi32::<0x55>(_mm_aeskeygenassist_si128::<$rcon>(c));
            a = _mm_xor_si128(prefix_xor(a), t);
            let t = _mm_shuffle_epi32::<0xff>(a);
            c = _mm_xor_si128(_mm_xor_si128(c, _mm_slli_si128::<4>(c)), t);
            halves[$i] = [a, c];
        };
    }
    step!(1, 0x01);
    step!(2, 0x02);
    step!(3, 0x04);
    step!(4, 0x08);
    step!(5, 0x10);
    step!(6, 0x20);
    step!(7, 0x40);
    step!(8, 0x80);
    // Step `i` holds words 6i .. 6i + 6 (four in `a`, two in `c`'s low
    // half); round key `r` is words 4r .. 4r + 4.
    let mut flat = [0u32; 6 * 9];
    for (i, [x, y]) in halves.iter().enumerate() {
        let mut b = [0u32; 8];
        // SAFETY: 32 bytes of `b`; `storeu` needs no alignment.
        unsafe {
            _mm_storeu_si128(b.as_mut_ptr() as *mut __m128i, *x);
            _mm_storeu_si128(b.as_mut_ptr().add(4) as *mut __m128i, *y);
        }
        flat[6 * i..6 * i + 6].copy_from_slice(&b[..6]);
        zeroize::Zeroize::zeroize(&mut b);
    }
    for (r, o) in out.iter_mut().take(13).enumerate() {
        for j in 0..4 {
            o[4 * j..4 * j + 4].copy_from_slice(&flat[4 * r + j].to_le_bytes());
        }
    }
    zeroize::Zeroize::zeroize(&mut flat);
    halves = [[_mm_setzero_si128(); 2]; 9];
    core::hint::black_box(&halves);
}

/// # Safety
/// The CPU must have AES-NI and SSE2.
#[target_feature(enable = "aes,sse2")]
unsafe fn expand256(key: &[u8; 32], out: &mut [[u8; 16]; 15]) {
    // SAFETY: bytes 0..16 and 16..32 of `key`; no alignment needed.
    let (mut a, mut c) = unsafe {
        (_mm_loadu_si128(key.as_ptr() as *const __m128i), _mm_loadu_si128(key.as_ptr().add(16) as *const __m128i))
    };
    let mut keys = [a; 15];
    keys[1] = c;
    macro_rules! even {
        ($i:expr, $rcon:expr) => {
            // Even round keys: `SubWord(RotWord(last word)) ^ rcon`.
            a = _mm_xor_si128(prefix_xor(a), _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<$rcon>(c)));
            keys[2 * $i] = a;
        };
    }
    macro_rules! odd {
        ($i:expr) => {
            // Odd ones: `SubWord(last word)`, no rotation, no rcon.
            c = _mm_xor_si128(prefix_xor(c), _mm_shuffle_epi32::<0xaa>(_mm_aeskeygenassist_si128::<0>(a)));
            keys[2 * $i + 1] = c;
        };
    }
    even!(1, 0x01);
    odd!(1);
    even!(2, 0x02);
    odd!(2);
    even!(3, 0x04);
    odd!(3);
    even!(4, 0x08);
    odd!(4);
    even!(5, 0x10);
    odd!(5);
    even!(6, 0x20);
    odd!(6);
    even!(7, 0x40);
    store(&keys, out);
    keys = [_mm_setzero_si128(); 15];
    core::hint::black_box(&keys);
}

/// # Safety
/// The CPU must have AES-NI and SSE2.
#[target_feature(enable = "aes,sse2")]
unsafe fn encrypt<const R: usize>(rk: &[[u8; 16]; R], b: &mut aes::Block) {
    // SAFETY (every load and store below): 16 bytes of `rk[i]` or `b`;
    // `loadu` / `storeu` need no alignment.
    let k = |i: usize| unsafe { _mm_loadu_si128(rk[i].as_ptr() as *const __m128i) };
    let mut x = _mm_xor_si128(unsafe { _mm_loadu_si128(b.as_ptr() as *const __m128i) }, k(0));
    for i in 1..R - 1 {
        x = _mm_aesenc_si128(x, k(i));
    }
    x = _mm_aesenclast_si128(x, k(R - 1));
    unsafe { _mm_storeu_si128(b.as_mut_ptr() as *mut __m128i, x) };
}

#[cfg(test)]
mod tests {
    use super::RoundKeys;
    use crate::prelude::*;
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    use rand::{RngExt, SeedableRng};

    /// The AES-NI kernel against the `aes` crate, each key size, on zero,
    /// all-ones and random keys and blocks (SKIPPED without AES-NI).
    #[test]
    fn matches_the_aes_crate() {
        if RoundKeys::<11>::new(&[0; 16]).is_none() {
            eprintln!("SKIPPED: this CPU has no AES-NI");
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x6e69_6165);
        let mut blocks: Vec<aes::Block> = vec![[0u8; 16].into(), [0xffu8; 16].into()];
        blocks.extend((0..30).map(|_| aes::Block::from(rng.random::<[u8; 16]>())));
        let mut n = 0;
        macro_rules! check {
            ($r:literal, $theirs:ty, $len:literal) => {
                let mut keys = vec![[0u8; $len], [0xff; $len]];
                keys.extend((0..20).map(|_| core::array::from_fn::<u8, $len, _>(|_| rng.random())));
                for key in keys {
                    let ours = RoundKeys::<$r>::new(&key).expect("AES-NI");
                    let theirs = <$theirs>::new(&key.into());
                    for b in &blocks {
                        let (mut x, mut y) = (*b, *b);
                        ours.encrypt(&mut x);
                        theirs.encrypt_block(&mut y);
                        assert_eq!(x, y, "{}-byte key {key:02x?}", $len);
                        n += 1;
                    }
                }
            };
        }
        check!(11, aes::Aes128, 16);
        check!(13, aes::Aes192, 24);
        check!(15, aes::Aes256, 32);
        assert_eq!(n, 3 * 22 * 32);
    }
}
