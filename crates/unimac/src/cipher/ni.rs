//! One AES-128 block with AES-NI (x86-64): the key schedule by
//! `aeskeygenassist` (FIPS-197 §5.2) and the ten rounds by `aesenc` /
//! `aesenclast`, the round keys kept as bytes and zeroized on drop.
//!
//! [`RoundKeys`] exists only where detection found AES-NI (its
//! constructor returns `None` otherwise), so holding one is the evidence
//! the safe [`RoundKeys::encrypt`] needs before its one `unsafe` call into
//! `#[target_feature]` code. No branch or memory index depends on the key
//! or the block.

#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

cpufeatures::new!(cpu_aes, "aes", "sse2");

/// The eleven round keys of an AES-128 key.
#[derive(Clone)]
pub(crate) struct RoundKeys([[u8; 16]; 11]);

impl Drop for RoundKeys {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.0);
    }
}

impl RoundKeys {
    /// The round keys of `key`, or `None` where the CPU lacks AES-NI.
    pub(crate) fn new(key: &[u8; 16]) -> Option<RoundKeys> {
        if !cpu_aes::get() {
            return None;
        }
        let mut rk = RoundKeys([[0; 16]; 11]);
        // SAFETY: the CPU has AES-NI and SSE2 (detected just above).
        unsafe { expand(key, &mut rk.0) };
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

/// One step of the schedule: `t = w ^ (w << 32) ^ (w << 64) ^ (w << 96)`,
/// then each word xored with `SubWord(RotWord(last word)) ^ rcon`, which
/// `aeskeygenassist` leaves in its top word.
#[inline]
#[target_feature(enable = "sse2")]
fn next(w: __m128i, assist: __m128i) -> __m128i {
    let a = _mm_shuffle_epi32::<0xff>(assist);
    let mut t = _mm_xor_si128(w, _mm_slli_si128::<4>(w));
    t = _mm_xor_si128(t, _mm_slli_si128::<4>(t));
    t = _mm_xor_si128(t, _mm_slli_si128::<4>(t));
    _mm_xor_si128(t, a)
}

/// # Safety
/// The CPU must have AES-NI and SSE2.
#[target_feature(enable = "aes,sse2")]
unsafe fn expand(key: &[u8; 16], rk: &mut [[u8; 16]; 11]) {
    // SAFETY: 16 bytes of `key`; `loadu` needs no alignment.
    let mut w = unsafe { _mm_loadu_si128(key.as_ptr() as *const __m128i) };
    let mut keys = [w; 11];
    macro_rules! round {
        ($i:expr, $rcon:expr) => {
            w = next(w, _mm_aeskeygenassist_si128::<$rcon>(w));
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
    for (out, k) in rk.iter_mut().zip(&keys) {
        // SAFETY: 16 bytes of `out`; `storeu` needs no alignment.
        unsafe { _mm_storeu_si128(out.as_mut_ptr() as *mut __m128i, *k) };
    }
    // The schedule's registers' stack copies.
    keys = [_mm_setzero_si128(); 11];
    core::hint::black_box(&keys);
}

/// # Safety
/// The CPU must have AES-NI and SSE2.
#[target_feature(enable = "aes,sse2")]
unsafe fn encrypt(rk: &[[u8; 16]; 11], b: &mut aes::Block) {
    // SAFETY (every load and store below): 16 bytes of `rk[i]` or `b`;
    // `loadu` / `storeu` need no alignment.
    let k = |i: usize| unsafe { _mm_loadu_si128(rk[i].as_ptr() as *const __m128i) };
    let mut x = _mm_xor_si128(unsafe { _mm_loadu_si128(b.as_ptr() as *const __m128i) }, k(0));
    for i in 1..10 {
        x = _mm_aesenc_si128(x, k(i));
    }
    x = _mm_aesenclast_si128(x, k(10));
    unsafe { _mm_storeu_si128(b.as_mut_ptr() as *mut __m128i, x) };
}
