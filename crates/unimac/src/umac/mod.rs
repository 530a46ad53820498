//! UMAC, RFC 4418: `Tag = UHASH(K, M) ⊕ PDF(K, Nonce)`, with AES-128.
//!
//! UHASH is three layers (RFC 4418 §5), run `iters = taglen/4` times under
//! independent keys:
//! - L1 (`nh`): NH over 1024-byte chunks — NMH of Halevi and Krawczyk, "MMH:
//!   software message authentication in the Gbit/second rates" (Definition 10)
//!   with the pairs four words apart and no prime — plus the chunk's bit
//!   length; the `iters` L1 keys are one key stream read at offsets of 16
//!   bytes, MMH's Toeplitz construction (the same paper's §2.4).
//! - L2 (`poly`): POLY over the L1 outputs, mod `2^64 − 59`, switching to
//!   mod `2^128 − 159` after `2^14` outputs (16 MiB of message); skipped when
//!   the message is one chunk (at most 1024 bytes).
//! - L3: an inner product mod `2^36 − 5` of the 128-bit L2 output's eight
//!   16-bit pieces, truncated to 32 bits and XORed with a key word.
//!
//! The names are `umac32`, `umac64`, `umac96`, `umac128` (docs/WIRE.md §8.6): key 16
//! bytes, nonce 1 to 16 bytes, tag 4/8/12/16 bytes. RFC 4418 §6.2 gives the
//! forgery probability of each (see [`crate::bounds`]).
//!
//! ```
//! use unimac::umac::Umac64;
//!
//! let mac = Umac64::new(b"abcdefghijklmnop");
//! let tag = mac.tag(b"bcdefghi", b"").unwrap();
//! assert_eq!(tag, [0x6e, 0x15, 0x5f, 0xad, 0x26, 0x90, 0x0b, 0xe1]); // RFC 4418 appendix
//! assert!(mac.verify(b"bcdefghi", b"", &tag).is_ok());
//! ```

use crate::prelude::*;
use alloc::sync::Arc;
use core::fmt;

use crate::cipher::Aes128;
use zeroize::{Zeroize, Zeroizing};

use crate::error::Error;
use crate::padcache::PadCache;
use crate::platform::Backend as _;
use crate::platform::Platform;
use crate::traits::{Keyed, Stream};

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx2;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx512;
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod neon;
pub(crate) mod stream;
use stream::UmacPending;
pub use stream::UmacStream;

pub(crate) mod nh;
pub(crate) mod poly;

/// Which implementation computes NH: chosen once, from the [`Platform`]
/// evidence, when the key is set up, and kept in it with that evidence
/// (the kernels check it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2Fma,
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl crate::platform::Backend for Backend {
    fn for_platform(p: Platform) -> Backend {
        #[cfg(target_arch = "x86_64")]
        {
            if p.avx512() && p.avx2_fma() {
                return Backend::Avx512;
            }
            if p.avx2_fma() {
                return Backend::Avx2Fma;
            }
        }
        #[cfg(target_arch = "aarch64")]
        if p.has(crate::platform::Feature::Neon) {
            return Backend::Neon;
        }
        let _ = p;
        Backend::Portable
    }

    fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Fma => crate::platform::Feature::Avx2Fma.name(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => crate::platform::Feature::Avx512.name(),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => crate::platform::Feature::Neon.name(),
        }
    }
}

/// `out[t] = NH(key[4t..], msg)` for `t < N` (no length added) on `backend`,
/// chosen from the evidence `p`: `msg` is a multiple of 32 bytes (see
/// [`nh::nh_portable`]). The vector kernels take the whole steps of several
/// groups; NH being a sum over groups, the remaining groups are added by the
/// portable code with the key read from where they start.
pub(crate) fn nh<const N: usize>(
    backend: Backend,
    p: Platform,
    key: &nh::NhKey,
    msg: &[u8],
) -> [u64; N] {
    let words = key.words();
    assert!(
        msg.len().is_multiple_of(nh::GROUP),
        "NH input is whole 32-byte groups"
    );
    assert!(
        words.len() >= msg.len() / 4 + 4 * (N - 1),
        "NH key shorter than the message"
    );
    let _ = p;
    // The whole vector steps (none below one step: the kernel is skipped).
    let (mut y, done) = match backend {
        Backend::Portable => ([0u64; N], 0),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2Fma if msg.len() >= avx2::STEP => {
            let done = msg.len() / avx2::STEP * avx2::STEP;
            (avx2::nh::<N>(p, key, &msg[..done]), done)
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if msg.len() >= avx512::STEP => {
            let done = msg.len() / avx512::STEP * avx512::STEP;
            (avx512::nh::<N>(p, key, &msg[..done]), done)
        }
        // Below one AVX-512 step (messages of 64 to 127 bytes), one AVX2
        // step: `for_platform` picks AVX-512 only with AVX2 present.
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if msg.len() >= avx2::STEP => {
            (avx2::nh::<N>(p, key, &msg[..avx2::STEP]), avx2::STEP)
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2Fma | Backend::Avx512 => ([0u64; N], 0),
        #[cfg(target_arch = "aarch64")]
        Backend::Neon => {
            let done = msg.len() / neon::STEP * neon::STEP;
            (if done > 0 { neon::nh::<N>(p, key, &msg[..done]) } else { [0u64; N] }, done)
        }
    };
    if done < msg.len() {
        let z = nh::nh_portable::<N>(&words[done / 4..], &msg[done..]);
        for t in 0..N {
            y[t] = y[t].wrapping_add(z[t]);
        }
    }
    y
}

/// L1 chunk: 1024 bytes (RFC 4418 §5.2.1, `L1-HASH`).
pub(crate) const CHUNK: usize = 1024;
/// L1 outputs hashed with POLY64 before the switch to POLY128 (`2^17` bytes).
const POLY64_MAX: u64 = 1 << 14;

/// `KDF(K, index, numbytes)` of RFC 4418 §3.2.1: AES in counter mode on the
/// blocks `index (8 bytes, big-endian) ‖ i (8 bytes, big-endian)`, `i = 1, 2, …`.
fn kdf(aes: &Aes128, index: u64, numbytes: usize) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(Vec::with_capacity(numbytes + 16));
    let mut i = 1u64;
    while out.len() < numbytes {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&index.to_be_bytes());
        b[8..].copy_from_slice(&i.to_be_bytes());
        let mut blk = aes::Block::from(b);
        aes.encrypt_block(&mut blk);
        out.extend_from_slice(&blk);
        blk.zeroize();
        i += 1;
    }
    out.truncate(numbytes);
    out
}

/// The per-key material of UMAC with `iters` iterations: every sub-key of
/// RFC 4418 §5.1 `UHASH` and the PDF's AES key (§3.3). Zeroized on drop.
pub(crate) struct UmacKey {
    /// This key object's id, which its stripes carry ([`crate::stripe`]).
    id: crate::stripe::KeyId,
    iters: usize,
    /// L1 key as big-endian words: `256 + 4(iters − 1)` of them.
    l1: nh::NhKey,
    /// L2 keys `(k64, k128)`, masked (RFC 4418 §5.3); the first `iters` used.
    l2: Zeroizing<[(u64, u128); 4]>,
    /// L3 keys: eight words mod `2^36 − 5`, and the final XOR word; the
    /// first `iters` used.
    l3: Zeroizing<[([u64; 8], u32); 4]>,
    /// `AES(KDF(K, 0, 16), ·)`, the pad derivation (§3.3).
    pdf: Aes128,
    /// The last enciphered nonce block and its output, for UMAC-32 and -64
    /// whose 4 or 2 consecutive nonces share one AES block (RFC 4418 §3.3);
    /// lock-free, so threads never wait on it.
    pad_cache: PadCache,
    /// The NH kernel, chosen from `platform`.
    backend: Backend,
    /// The evidence `backend` was chosen from (the kernels check it).
    platform: Platform,
}

/// The big-endian integer of at most 16 bytes, in registers (no narrow
/// stores read back wide: the common 8- and 16-byte nonces load directly).
#[inline]
pub(crate) fn be_int(b: &[u8]) -> u128 {
    match b.len() {
        16 => u128::from_be_bytes(b.try_into().unwrap()),
        8 => u64::from_be_bytes(b.try_into().unwrap()) as u128,
        _ => b.iter().fold(0u128, |x, &c| (x << 8) | c as u128),
    }
}


impl UmacKey {
    fn new(key: &[u8; 16], iters: usize, platform: Platform) -> UmacKey {
        assert!((1..=4).contains(&iters));
        let aes = Aes128::new(key);
        let pdf_key = kdf(&aes, 0, 16);
        let pdf = Aes128::from_slice(&pdf_key[..16]);
        let l1b = kdf(&aes, 1, CHUNK + 16 * (iters - 1));
        let l1 = nh::NhKey::new(
            l1b.chunks_exact(4)
                .map(|c| u32::from_be_bytes(c.try_into().unwrap()))
                .collect(),
        );
        let l2b = kdf(&aes, 2, 24 * iters);
        let mut l2 = Zeroizing::new([(0u64, 0u128); 4]);
        for (k, c) in l2.iter_mut().zip(l2b.chunks_exact(24)) {
            let k64 = u64::from_be_bytes(c[..8].try_into().unwrap()) & poly::MASK64;
            let k128 = u128::from_be_bytes(c[8..24].try_into().unwrap()) & poly::MASK128;
            *k = (k64, k128);
        }
        let l3a = kdf(&aes, 3, 64 * iters);
        let l3b = kdf(&aes, 4, 4 * iters);
        let mut l3 = Zeroizing::new([([0u64; 8], 0u32); 4]);
        for (t, k) in l3.iter_mut().enumerate().take(iters) {
            let k1: [u64; 8] = core::array::from_fn(|j| {
                let o = 64 * t + 8 * j;
                u64::from_be_bytes(l3a[o..o + 8].try_into().unwrap()) % P36
            });
            let k2 = u32::from_be_bytes(l3b[4 * t..4 * t + 4].try_into().unwrap());
            *k = (k1, k2);
        }
        UmacKey {
            id: crate::stripe::KeyId::fresh(),
            iters,
            l1,
            l2,
            l3,
            pdf,
            pad_cache: PadCache::new(),
            backend: Backend::for_platform(platform),
            platform,
        }
    }

    /// `PDF(K, Nonce, taglen)` of RFC 4418 §3.3: the `taglen` bytes of
    /// `AES(K', Nonce')` that the nonce's low bits select (for 4- and 8-byte
    /// tags, 4 or 2 nonces share one AES call), as the top `taglen` bytes of
    /// a big-endian 128-bit integer.
    #[inline]
    fn pad<const T: usize>(&self, nonce: &[u8]) -> Zeroizing<u128> {
        debug_assert_eq!(T, 4 * self.iters);
        // Nonce ‖ zeros, big-endian; the last nonce byte is at bit `shift`.
        let shift = 8 * (16 - nonce.len()) as u32;
        let v = be_int(nonce);
        // The nonce's low bits select the pad within the block, and are
        // cleared in the AES input.
        let index = match T {
            4 => v & 3,
            8 => v & 1,
            _ => 0,
        } as u32;
        let input = (v ^ index as u128) << shift;
        let top = if T == 16 {
            u128::MAX
        } else {
            !(u128::MAX >> (8 * T as u32))
        };
        let select = |t: u128| (t << (8 * T as u32 * index)) & top;
        // Only UMAC-32 and -64 share blocks between (distinct) nonces.
        if T <= 8 {
            if let Some(t) = self.pad_cache.get(input) {
                return Zeroizing::new(select(t));
            }
        }
        let mut blk = aes::Block::default();
        crate::block::set_be(&mut blk, input);
        self.pdf.encrypt_block(&mut blk);
        // The enciphered block is the pad (of this and up to 3 other nonces).
        let t = Zeroizing::new(u128::from_be_bytes(blk.into()));
        // Wiped with one 16-byte store that `black_box` keeps (not 16
        // volatile byte stores).
        blk = Default::default();
        core::hint::black_box(&blk);
        if T <= 8 {
            self.pad_cache.put(input, *t);
        }
        Zeroizing::new(select(*t))
    }
}

/// `2^36 − 5`, the prime of L3 (RFC 4418 §5.4).
const P36: u64 = (1 << 36) - 5;

/// `L3-HASH(K1, K2, M)` of RFC 4418 §5.4: `M` (16 bytes, as the 128-bit
/// integer `b`) is eight 16-bit pieces, most significant first. Each product
/// is below `2^16 · 2^36`, so the sum of eight is below `2^55`; with
/// `2^36 ≡ 5`, one fold leaves `y < 2^36 + 5 · 2^19 < 2 p36`, and one
/// conditional subtraction (a mask) ends it.
fn l3(k1: &[u64; 8], k2: u32, b: u128) -> u32 {
    let (hi, lo) = ((b >> 64) as u64, b as u64);
    let mut y = 0u64;
    for j in 0..4 {
        y += ((hi >> (48 - 16 * j)) & 0xffff) * k1[j];
        y += ((lo >> (48 - 16 * j)) & 0xffff) * k1[4 + j];
    }
    let y = (y & ((1 << 36) - 1)) + 5 * (y >> 36);
    let (d, borrow) = y.overflowing_sub(P36);
    let keep = 0u64.wrapping_sub(borrow as u64);
    (((y & keep) | (d & !keep)) as u32) ^ k2
}

/// L2 state of one iteration (RFC 4418 §5.3), fed one L1 output at a time.
#[derive(Clone, Copy)]
struct L2 {
    /// L1 outputs so far.
    count: u64,
    /// The first L1 output (the hash of a one-chunk message is that alone).
    first: u64,
    /// POLY64 accumulator, then POLY128's.
    y64: u64,
    y128: u128,
    /// In the POLY128 phase, after an odd number of its words: the high half
    /// of the next 128-bit word.
    half: u64,
}

impl L2 {
    const EMPTY: L2 = L2 {
        count: 0,
        first: 0,
        y64: 0,
        y128: 0,
        half: 0,
    };

    fn absorb(&mut self, k: &(u64, u128), a: u64) {
        self.count += 1;
        match self.count {
            1 => self.first = a,
            2 => {
                self.y64 = poly::poly64_step(k.0, poly::poly64_step(k.0, 1, self.first), a);
            }
            c if c <= POLY64_MAX => self.y64 = poly::poly64_step(k.0, self.y64, a),
            c => {
                if c == POLY64_MAX + 1 {
                    // POLY(128, …, uint2str(y, 16) ‖ M_2): y < 2^64 is below the marker range.
                    self.y128 = poly::poly128_step(k.1, 1, self.y64 as u128);
                }
                if (c - POLY64_MAX) % 2 == 1 {
                    self.half = a;
                } else {
                    self.y128 =
                        poly::poly128_step(k.1, self.y128, ((self.half as u128) << 64) | a as u128);
                }
            }
        }
    }

    /// The 16-byte L2 output as an integer (`zeroes(8) ‖ A` for one chunk).
    fn finish(&self, k: &(u64, u128)) -> u128 {
        match self.count {
            0 | 1 => self.first as u128,
            c if c <= POLY64_MAX => self.y64 as u128,
            _ => {
                // M_2 ‖ 0x80, zero-padded to 16 bytes.
                let last = if (self.count - POLY64_MAX) % 2 == 1 {
                    ((self.half as u128) << 64) | (0x80u128 << 56)
                } else {
                    0x80u128 << 120
                };
                poly::poly128_step(k.1, self.y128, last)
            }
        }
    }
}

/// NH of one chunk for `N` iterations (RFC 4418 §5.2.1, the bit length not
/// yet added). `chunk` is at most 1024 bytes, any length: NH is a sum over
/// 32-byte groups, so the whole groups are hashed in place and only the last
/// partial group (or, for the empty message, one group) is read zero-padded
/// word by word ([`nh::nh_partial`]).
#[inline]
fn nh_chunk<const N: usize>(k: &UmacKey, chunk: &[u8]) -> [u64; N] {
    debug_assert!(chunk.len() <= CHUNK);
    let whole = chunk.len() / nh::GROUP * nh::GROUP;
    let mut y = nh::<N>(k.backend, k.platform, &k.l1, &chunk[..whole]);
    let rest = &chunk[whole..];
    if !rest.is_empty() || chunk.is_empty() {
        let z = nh::nh_partial::<N>(&k.l1.words()[whole / 4..], rest);
        for t in 0..N {
            y[t] = y[t].wrapping_add(z[t]);
        }
    }
    y
}

/// `[u64; N]` into the first `N` of four words.
#[inline]
fn widen<const N: usize>(a: [u64; N]) -> [u64; 4] {
    let mut w = [0u64; 4];
    w[..N].copy_from_slice(&a);
    w
}

/// `NH(chunk) + bitlength` (RFC 4418 §5.2.1) for every iteration.
#[inline]
fn l1_words(k: &UmacKey, chunk: &[u8], bits: u64) -> [u64; 4] {
    let y = match k.iters {
        1 => widen(nh_chunk::<1>(k, chunk)),
        2 => widen(nh_chunk::<2>(k, chunk)),
        3 => widen(nh_chunk::<3>(k, chunk)),
        _ => nh_chunk::<4>(k, chunk),
    };
    y.map(|v| v.wrapping_add(bits))
}

/// `NH(chunk) + bitlength` for every iteration, as [`l1_words`], into L2
/// (the loop over iterations per constant count: the `[u64; 4]` of
/// `l1_words` measured slower on long messages).
fn l1(k: &UmacKey, l2: &mut [L2; 4], chunk: &[u8], bits: u64) {
    macro_rules! go {
        ($n:literal) => {{
            let y = nh_chunk::<$n>(k, chunk);
            for t in 0..$n {
                l2[t].absorb(&k.l2[t], y[t].wrapping_add(bits));
            }
        }};
    }
    match k.iters {
        1 => go!(1),
        2 => go!(2),
        3 => go!(3),
        _ => go!(4),
    }
}

/// [`l1`] over whole chunks (`data` a multiple of [`CHUNK`] bytes): from
/// [`crate::threads::PARALLEL_MIN`] bytes on, the L1 hashes of runs of
/// chunks on the threads the application allows, passed to L2 in order;
/// below that, one loop on this thread with nothing allocated.
fn l1_chunks(k: &UmacKey, l2: &mut [L2; 4], data: &[u8]) {
    if !crate::threads::parallel(data.len(), crate::threads::parallel_min()) {
        for c in data.chunks_exact(CHUNK) {
            l1(k, l2, c, (CHUNK * 8) as u64);
        }
        return;
    }
    let pieces = crate::threads::split(data.len(), CHUNK, crate::threads::parallel_min());
    if pieces.len() < 2 {
        for c in data.chunks_exact(CHUNK) {
            l1(k, l2, c, (CHUNK * 8) as u64);
        }
        return;
    }
    // Runs of 1 MiB, so the values waiting for L2 stay small.
    let runs: Vec<&[u8]> = data.chunks(1 << 20).collect();
    for group in runs.chunks(64) {
        let vals = crate::threads::map(group, |run| {
            run.chunks_exact(CHUNK)
                .map(|c| l1_words(k, c, (CHUNK * 8) as u64))
                .collect::<Vec<_>>()
        });
        for v in vals.iter().flatten() {
            for t in 0..k.iters {
                l2[t].absorb(&k.l2[t], v[t]);
            }
        }
    }
}

impl crate::stripe::LowestLayer for UmacKey {
    fn id(&self) -> crate::stripe::KeyId {
        self.id
    }
    fn unit(&self) -> usize {
        CHUNK
    }
    fn hash(&self, data: &[u8]) -> crate::stripe::Body {
        crate::stripe::Body::Umac(stripe_words(self, data))
    }
    fn kind(&self) -> &'static str {
        "umac"
    }
}

/// The L1 outputs (bit length added) of whole chunks, `iters` words per
/// chunk in order: the lowest layer of a stripe ([`crate::stripe`]).
fn stripe_words(k: &UmacKey, data: &[u8]) -> Vec<u64> {
    debug_assert!(data.len().is_multiple_of(CHUNK));
    let mut out = Vec::with_capacity(data.len() / CHUNK * k.iters);
    macro_rules! go {
        ($n:literal) => {{
            for c in data.chunks_exact(CHUNK) {
                let y = nh_chunk::<$n>(k, c);
                out.extend(y.iter().map(|v| v.wrapping_add((CHUNK * 8) as u64)));
            }
        }};
    }
    match k.iters {
        1 => go!(1),
        2 => go!(2),
        3 => go!(3),
        _ => go!(4),
    }
    out
}

/// The tag from the L2 states and the pad (top-aligned, see
/// [`UmacKey::pad`]): L3 per iteration, big-endian, XOR the pad.
fn tag_of<const T: usize>(k: &UmacKey, l2: &[L2; 4], pad: u128) -> [u8; T] {
    let mut h = 0u128;
    for (t, ((s, k2), k3)) in l2
        .iter()
        .zip(k.l2.iter())
        .zip(k.l3.iter())
        .enumerate()
        .take(T / 4)
    {
        h |= (l3(&k3.0, k3.1, s.finish(k2)) as u128) << (96 - 32 * t);
    }
    top_bytes(h ^ pad)
}

/// The first `T` bytes of `x` big-endian.
#[inline]
fn top_bytes<const T: usize>(x: u128) -> [u8; T] {
    let all = x.to_be_bytes();
    let mut tag = [0u8; T];
    tag.copy_from_slice(&all[..T]);
    tag
}

/// The tag of a message of at most one chunk (RFC 4418 §5.3: its L2 output
/// is the L1 output zero-extended to 16 bytes): L1 straight into L3, XOR the
/// pad; no L2 state, no buffer.
#[inline]
fn tag_one_chunk<const T: usize>(k: &UmacKey, msg: &[u8], pad: u128) -> [u8; T] {
    debug_assert!(msg.len() <= CHUNK && T == 4 * k.iters);
    let y = match T {
        4 => widen(nh_chunk::<1>(k, msg)),
        8 => widen(nh_chunk::<2>(k, msg)),
        12 => widen(nh_chunk::<3>(k, msg)),
        _ => nh_chunk::<4>(k, msg),
    };
    let bits = 8 * msg.len() as u64;
    let mut h = 0u128;
    for (t, (v, k3)) in y.iter().zip(k.l3.iter()).enumerate().take(T / 4) {
        h |= (l3(&k3.0, k3.1, v.wrapping_add(bits) as u128) as u128) << (96 - 32 * t);
    }
    top_bytes(h ^ pad)
}

/// UHASH of a whole message into fresh L2 states: every full chunk (a full
/// last chunk included: same bit length, no padding), then the partial last
/// chunk, or the empty one of the empty message.
#[inline]
fn uhash(k: &UmacKey, msg: &[u8], l2: &mut [L2; 4]) {
    let whole = msg.len() / CHUNK * CHUNK;
    l1_chunks(k, l2, &msg[..whole]);
    let rest = &msg[whole..];
    if !rest.is_empty() || whole == 0 {
        l1(k, l2, rest, 8 * rest.len() as u64);
    }
}

/// UMAC with a `T`-byte tag (`T` = 4, 8, 12 or 16) under one 16-byte key:
/// the key set-up of RFC 4418 (every KDF call) is done once here.
#[derive(Clone)]
pub struct Umac<const T: usize> {
    key: Arc<UmacKey>,
}

/// UMAC-32 (RFC 4418): 4-byte tags.
pub type Umac32 = Umac<4>;
/// UMAC-64 (RFC 4418): 8-byte tags.
pub type Umac64 = Umac<8>;
/// UMAC-96 (RFC 4418): 12-byte tags.
pub type Umac96 = Umac<12>;
/// UMAC-128 (RFC 4418): 16-byte tags.
pub type Umac128 = Umac<16>;

impl<const T: usize> fmt::Debug for Umac<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Umac{} {{ .. }}", 8 * T)
    }
}

/// A nonce of 1 to 16 bytes (RFC 4418 §3.3), or the error for `name`.
#[inline]
pub(crate) fn check_nonce(name: &str, nonce: &[u8]) -> Result<(), Error> {
    let rule = crate::macs::UMAC_NONCE;
    if rule.accepts(Some(nonce)) {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "{name}: nonce must be {} to {} bytes, got {}",
            rule.min(),
            rule.max(),
            nonce.len()
        )))
    }
}

impl<const T: usize> Umac<T> {
    const VALID: () = assert!(
        T == 4 || T == 8 || T == 12 || T == 16,
        "UMAC tags are 4, 8, 12 or 16 bytes"
    );

    /// UMAC under the 16-byte key `key` (the AES-128 key of RFC 4418 §3).
    pub fn new(key: &[u8; 16]) -> Self {
        Self::new_on(Platform::detect(), key)
    }

    /// [`Umac::new`] with NH on the fastest kernel `platform` allows (tests
    /// and benchmarks pass each of `Platform::variants`).
    pub(crate) fn new_on(platform: Platform, key: &[u8; 16]) -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        Umac {
            key: Arc::new(UmacKey::new(key, T / 4, platform)),
        }
    }

    /// The kernel this key computes NH with (`portable`, `avx2fma` or
    /// `avx512`), as the other families' `backend` methods name theirs.
    #[cfg_attr(not(feature = "unstable"), allow(dead_code))] // the benches and tests, through unstable
    pub(crate) fn backend(&self) -> &'static str {
        self.key.backend.name()
    }

    fn name() -> &'static str {
        match T {
            4 => "umac32",
            8 => "umac64",
            12 => "umac96",
            _ => "umac128",
        }
    }

    /// Start a message under `nonce` (1 to 16 bytes, never repeated under one key).
    pub fn start(&self, nonce: &[u8]) -> Result<UmacStream<T>, Error> {
        check_nonce(Self::name(), nonce)?;
        let mut s = self.stream();
        s.pad = Some(self.key.pad::<T>(nonce));
        Ok(s)
    }

    /// Start a message whose nonce is given at the end, to
    /// [`UmacPending::finalize`].
    pub(crate) fn start_deferred(&self) -> UmacPending<T> {
        UmacPending(self.stream())
    }

    fn stream(&self) -> UmacStream<T> {
        UmacStream {
            key: Arc::clone(&self.key),
            pad: None,
            buf: [0u8; CHUNK],
            fill: 0,
            l2: [L2::EMPTY; 4],
        }
    }

    /// The tag of `msg` under `nonce` (one-shot: the message is hashed in
    /// place, no stream buffer).
    pub fn tag(&self, nonce: &[u8], msg: &[u8]) -> Result<crate::tag::Tag<T>, Error> {
        check_nonce(Self::name(), nonce)?;
        Ok(self.tag_checked(nonce, msg))
    }

    /// [`tag`](Self::tag) of a nonce already checked (the by-name MAC checks
    /// it against the table first).
    #[inline]
    pub(crate) fn tag_checked(&self, nonce: &[u8], msg: &[u8]) -> crate::tag::Tag<T> {
        let k = &*self.key;
        if msg.len() <= CHUNK {
            let pad = k.pad::<T>(nonce);
            return crate::tag::Tag::new(tag_one_chunk(k, msg, *pad));
        }
        let mut l2 = [L2::EMPTY; 4];
        uhash(k, msg, &mut l2);
        let pad = k.pad::<T>(nonce);
        crate::tag::Tag::new(tag_of(k, &l2, *pad))
    }

    /// `Ok(())` if `tag` is the tag of `msg` under `nonce` (constant-time
    /// comparison; a nonce of the wrong size verifies nothing).
    pub fn verify(
        &self,
        nonce: &[u8],
        msg: &[u8],
        tag: impl AsRef<[u8]>,
    ) -> Result<(), crate::tag::MacError> {
        self.tag(nonce, msg)
            .map_err(|_| crate::tag::MacError)?
            .verify_slice(tag.as_ref())
    }
}

impl<const T: usize> Keyed for Umac<T> {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        let n = nonce.ok_or_else(|| Error::MissingNonce(format!("mac-{}", Self::name())))?;
        Ok(Box::new(self.start(n)?))
    }
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let n = nonce.ok_or_else(|| Error::MissingNonce(format!("mac-{}", Self::name())))?;
        Ok(self.tag(n, msg)?.as_bytes().to_vec())
    }
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let n = nonce.ok_or_else(|| Error::MissingNonce(format!("mac-{}", Self::name())))?;
        crate::traits::put(out, self.tag(n, msg)?.as_ref())
    }
}

#[cfg(test)]
mod tests;
