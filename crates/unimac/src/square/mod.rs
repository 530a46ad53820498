//! Square Hash (Etzel, Patel and Ramzan, "Square Hash: fast message
//! authentication via optimized universal hash functions", CRYPTO 1999) at the
//! sizes of the wire format (docs/WIRE.md §4).
//!
//! `p_l` is the least prime above `2^l` (`2^32+15`, `2^64+13`, `2^96+61`,
//! `2^128+51`); key and message are `k` elements of `l` bits, `a_i = m_i + x_i`.
//!
//! | name | paper | definition | ε (paper) |
//! |---|---|---|---|
//! | `sqh{l}-star` | Def. 7, Thm 4 | `sum a_i^2 mod p` | `1/p` over Z_p keys |
//! | `sqh{l}-asm` | Def. 9, Thm 6 | `(sum a_i^2 mod p) mod 2^l` | `3 · 2^-l` |
//! | `sqh{l}-asm2` | Def. 10, Thm 7 | `sum (a_i mod 2^l)^2 mod p` | `2 · 2^-l` |
//! | `sqh{l}-c` | Def. 11, Thm 8 | `C(sum a_i^2) mod p` | `3^(2w) / 2^(lw)` |
//! | `sqh{l}-c2` | Def. 12, Thm 9 | `C(sum C2(a_i^2)) mod p` | `prod (4i+1)^2 / 2^(lw)` |
//! | `sqh{l}-e` | Def. 13, Thm 10 | `(C(sum C2((a_i mod 2^l)^2)) mod p) mod 2^l` | `6 prod (4i+1)^2 / 2^(lw)` |
//!
//! (`w = l/32` machine words; in the last three rows the paper's "word size
//! l" is our 32 and `lw` is our `l`.) [`sqh`] and `sqhu` are the
//! single-element SQH of Def. 4 (Δ-universal, Thm 1) and its strongly
//! universal form SQHU of Def. 5 / Lemma 1.
//!
//! Layout: `reference` is the word-by-word definition, generic in the word
//! size, `l` and `p` (the model the tests and the scaled-down proof checks
//! use); `portable.rs` is the exact constant-time path at 32-bit words;
//! `avx2.rs` computes Def. 13 four elements at a time with `vpmuludq`, its
//! carry-free sums with `vpaddd` (which adds the two 32-bit halves of each
//! product with no carry between them: `C` and `C2` for free); `avx512.rs`
//! does Def. 13 for eight blocks at once when AVX-512F is present (each
//! register four elements of each of two blocks, the key arranged once in a
//! `BlockKey`, the blocks' lane sums added at the end), with the reduction
//! in the lanes for `l <= 96`: `BlockKey::hash_blocks`, `hash_blocks`
//! (feature `unstable`) and the tree.

use crate::prelude::*;
use zeroize::Zeroizing;

use crate::error::Error;
use crate::group::DeltaGroup;
use crate::platform::{Backend as _, Platform};
use crate::traits::{BlockFamily, BlockHash};
use crate::traits::{Entry, Info, KeySpec, Keyed, OneShot, Params};

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
mod pairkey;
pub(crate) mod portable;
#[cfg(feature = "unstable")]
pub(crate) mod reference;

/// The six Square Hash variants of the wire format (docs/WIRE.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `SQH*` (Def. 7), keys restricted to `l` bits.
    Star,
    /// `SQH_asm` (Def. 9).
    Asm,
    /// `SQH_asm2` (Def. 10).
    Asm2,
    /// `SQH_c` (Def. 11): carries of the outer sum dropped.
    C,
    /// `SQH_c2` (Def. 12): carries of the outer sum and of the squaring dropped.
    C2,
    /// `SQH_E` (Def. 13): fully optimized.
    E,
}

impl Variant {
    /// All six, in the wire format's order.
    pub const ALL: [Variant; 6] = [
        Variant::Star,
        Variant::Asm,
        Variant::Asm2,
        Variant::C,
        Variant::C2,
        Variant::E,
    ];

    /// The name suffix (`sqh{l}-{suffix}`).
    pub fn suffix(self) -> &'static str {
        match self {
            Variant::Star => "star",
            Variant::Asm => "asm",
            Variant::Asm2 => "asm2",
            Variant::C => "c",
            Variant::C2 => "c2",
            Variant::E => "e",
        }
    }

    /// Output bytes at element size `l`: `l/8` for the variants that end in
    /// `mod 2^l`, else `l/8 + 1` (a value below `p_l`).
    pub fn out_bytes(self, l: usize) -> usize {
        match self {
            Variant::Asm | Variant::E => l / 8,
            _ => l / 8 + 1,
        }
    }
}

/// Which kernels compute Square Hash (private: chosen once per key from a
/// [`Platform`], the only evidence of CPU features, which the key keeps
/// for the kernels to check). Every vector backend has the AVX2 kernels
/// (one block, or four blocks at once); the AVX-512 ones add the
/// eight-block kernels of [`BlockKey::hash_blocks`]: Def. 13, and with
/// IFMA52 the exact sums of Def. 7, 9 and 10. Def. 11 and 12 are portable
/// everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    /// Exact constant-time word arithmetic (`portable.rs`).
    Portable,
    /// AVX2 `vpmuludq` lanes (`avx2.rs`).
    Avx2Fma,
    /// With AVX-512F: eight blocks of Def. 13 at once (`avx512.rs`).
    Avx512,
    /// With AVX-512 IFMA52 too: eight blocks of Def. 7, 9, 10 as well.
    Avx512Ifma,
}

impl crate::platform::Backend for Backend {
    fn for_platform(p: Platform) -> Backend {
        let x86 = cfg!(target_arch = "x86_64");
        if x86 && p.avx2_fma() && p.avx512() && p.avx512ifma() {
            Backend::Avx512Ifma
        } else if x86 && p.avx2_fma() && p.avx512() {
            Backend::Avx512
        } else if x86 && p.avx2_fma() {
            Backend::Avx2Fma
        } else {
            Backend::Portable
        }
    }

    fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2Fma => "avx2fma",
            Backend::Avx512 => "avx512",
            Backend::Avx512Ifma => "avx512ifma",
        }
    }
}

/// The element sizes of the wire format (docs/WIRE.md §4).
pub const WIDTHS: [usize; 4] = [32, 64, 96, 128];

fn check_width(l: usize) -> Result<(), Error> {
    if WIDTHS.contains(&l) {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "Square Hash: l must be 32, 64, 96 or 128, got {l}"
        )))
    }
}

fn name(l: usize, v: Variant) -> String {
    format!("sqh{l}-{}", v.suffix())
}

/// `sqh{l}-{variant}(key, msg)` (docs/WIRE.md §4): `key` and `msg` are `k >= 1`
/// little-endian `l/8`-byte elements each, equally many.
///
/// The key is used once, as long as the message, and needs no arranging:
/// this call is its set-up, so the backend is chosen here, once, from
/// [`Platform::detect`] (a cached load). A key that hashes many blocks is
/// set up once by the tree mode ([`crate::tree::Tree`]).
pub fn hash(l: usize, variant: Variant, key: &[u8], msg: &[u8]) -> Result<Vec<u8>, Error> {
    hash_on(Platform::detect(), l, variant, key, msg)
}

/// [`hash`] on the given backend (tests run every backend the CPU has).
pub fn hash_on(
    platform: Platform,
    l: usize,
    variant: Variant,
    key: &[u8],
    msg: &[u8],
) -> Result<Vec<u8>, Error> {
    check_width(l)?;
    let mut out = vec![0u8; variant.out_bytes(l)];
    hash_into_with(
        platform,
        Backend::for_platform(platform),
        l,
        variant,
        key,
        msg,
        &mut out,
    )?;
    Ok(out)
}

/// [`hash`] into `out` (exactly `variant.out_bytes(l)` bytes), allocating
/// nothing; the backend is chosen as in [`hash`].
pub fn hash_into(
    l: usize,
    variant: Variant,
    key: &[u8],
    msg: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    let platform = Platform::detect();
    hash_into_with(
        platform,
        Backend::for_platform(platform),
        l,
        variant,
        key,
        msg,
        out,
    )
}

/// [`hash_into`] on `backend`, whose features `platform` must show (each
/// kernel asserts them).
fn hash_into_with(
    platform: Platform,
    backend: Backend,
    l: usize,
    variant: Variant,
    key: &[u8],
    msg: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    match l {
        32 => hash_into_v::<1, 2>(platform, backend, variant, key, msg, out),
        64 => hash_into_v::<2, 3>(platform, backend, variant, key, msg, out),
        96 => hash_into_v::<3, 4>(platform, backend, variant, key, msg, out),
        128 => hash_into_v::<4, 5>(platform, backend, variant, key, msg, out),
        _ => check_width(l),
    }
}

/// At `l = 32 V` (`V1 = V + 1`): check the sizes, compute, write `out`.
#[inline(always)]
fn hash_into_v<const V: usize, const V1: usize>(
    platform: Platform,
    backend: Backend,
    variant: Variant,
    key: &[u8],
    msg: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    let (l, b) = (32 * V, 4 * V);
    if key.is_empty() || !key.len().is_multiple_of(b) {
        return Err(Error::KeyLength {
            name: name(l, variant),
            expected: KeySpec::PerElement(b).describe(),
            got: key.len(),
        });
    }
    if msg.len() != key.len() {
        return Err(Error::Message {
            name: name(l, variant),
            reason: format!(
                "the message must be as long as the key ({} bytes), got {} bytes",
                key.len(),
                msg.len()
            ),
        });
    }
    let n = variant.out_bytes(l);
    if out.len() != n {
        return Err(Error::Invalid(format!(
            "{}: output buffer must be {n} bytes, got {}",
            name(l, variant),
            out.len()
        )));
    }
    let w = words::<V, V1>(platform, backend, variant, key, msg);
    let mut bytes = [0u8; 20];
    for (c, w) in bytes.chunks_exact_mut(4).zip(w) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    out.copy_from_slice(&bytes[..n]);
    Ok(())
}

#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn words<const V: usize, const V1: usize>(
    platform: Platform,
    backend: Backend,
    variant: Variant,
    key: &[u8],
    msg: &[u8],
) -> [u32; 5] {
    // Every vector backend has the one-block AVX2 kernels.
    #[cfg(target_arch = "x86_64")]
    match (backend, variant) {
        (Backend::Portable, _) | (_, Variant::C | Variant::C2) => {}
        (_, Variant::E) => return e_finish::<V>(&avx2::e_columns::<V>(platform, key, msg)),
        (_, Variant::Asm2) => {
            return portable::chunked::<V>(variant, key, msg, |k, m, i| {
                avx2::exact_columns::<V, V>(platform, k, m, i)
            })
        }
        (_, Variant::Star | Variant::Asm) => {
            return portable::chunked::<V>(variant, key, msg, |k, m, i| {
                avx2::exact_columns::<V, V1>(platform, k, m, i)
            })
        }
    }
    portable::hash_words::<V, V1>(variant, key, msg)
}

fn to_bytes(words: &[u32; 5], n: usize) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).take(n).collect()
}

fn element_words<const V1: usize>(l: usize, e: &[u8], what: &str) -> Result<[u64; V1], Error> {
    let n = l / 8 + 1;
    if e.len() != n {
        return Err(Error::Invalid(format!(
            "SQH (l = {l}): {what} must be {n} bytes, got {}",
            e.len()
        )));
    }
    let mut buf = [0u8; 20];
    buf[..n].copy_from_slice(e);
    let w: [u64; V1] = core::array::from_fn(|j| {
        u32::from_le_bytes([buf[4 * j], buf[4 * j + 1], buf[4 * j + 2], buf[4 * j + 3]]) as u64
    });
    // Below p = 2^l + t: the top word is 0, or 1 with the low word below t
    // and the middle words 0.
    // (Without short-circuits: the key's value must not steer branches.)
    let v = l / 32;
    let middle = w[1..v].iter().fold(0, |acc, &x| acc | x);
    let below_p = (w[v] == 0) | ((w[v] == 1) & (middle == 0) & (w[0] < portable::T[v]));
    if !below_p {
        return Err(Error::Invalid(format!(
            "SQH (l = {l}): {what} is not below p"
        )));
    }
    Ok(w)
}

fn square_plus_bytes<const V: usize, const V1: usize>(
    l: usize,
    x: &[u8],
    b: &[u8],
    m: &[u8],
) -> Result<Vec<u8>, Error> {
    let x = element_words::<V1>(l, x, "key x")?;
    let b = element_words::<V1>(l, b, "key b")?;
    let m = element_words::<V1>(l, m, "message")?;
    Ok(to_bytes(
        &portable::square_plus::<V, V1>(&m, &x, &b),
        l / 8 + 1,
    ))
}

/// SQH of Def. 4: `h_x(m) = (m + x)^2 mod p_l` on one element of `Z_p`
/// (Δ-universal, Thm 1). `x` and `m` are `l/8 + 1` little-endian bytes, each
/// below `p_l`; the output likewise.
pub fn sqh(l: usize, x: &[u8], m: &[u8]) -> Result<Vec<u8>, Error> {
    sqhu(l, x, &vec![0; l / 8 + 1], m)
}

/// SQHU of Def. 5: `h_{x,b}(m) = ((m + x)^2 + b) mod p_l`, strongly universal
/// (Thm 2, by Lemma 1). Same encodings as [`sqh`].
pub fn sqhu(l: usize, x: &[u8], b: &[u8], m: &[u8]) -> Result<Vec<u8>, Error> {
    check_width(l)?;
    match l {
        32 => square_plus_bytes::<1, 2>(l, x, b, m),
        64 => square_plus_bytes::<2, 3>(l, x, b, m),
        96 => square_plus_bytes::<3, 4>(l, x, b, m),
        _ => square_plus_bytes::<4, 5>(l, x, b, m),
    }
}

/// Every `sqh{l}-{variant}` of docs/WIRE.md §4.
pub(crate) fn catalog() -> Vec<Entry> {
    let mut v = Vec::new();
    for l in WIDTHS {
        for variant in Variant::ALL {
            let summary = format!(
                "Square Hash {} (paper Def. {}), {l}-bit elements, key as long as the message",
                variant.suffix(),
                match variant {
                    Variant::Star => 7,
                    Variant::Asm => 9,
                    Variant::Asm2 => 10,
                    Variant::C => 11,
                    Variant::C2 => 12,
                    Variant::E => 13,
                }
            );
            v.push(Entry::keyed(
                Info {
                    name: name(l, variant),
                    key: KeySpec::PerElement(l / 8),
                    nonce: 0,
                    out: variant.out_bytes(l),
                    takes_len: false,
                    summary,
                },
                move |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                    let key = Zeroizing::new(p.key.to_vec());
                    // The backend is chosen once, when the key is set up.
                    let platform = Platform::detect();
                    let backend = Backend::for_platform(platform);
                    Ok(OneShot::boxed(move |msg: &[u8]| {
                        check_width(l)?;
                        let mut out = vec![0u8; variant.out_bytes(l)];
                        hash_into_with(platform, backend, l, variant, &key, msg, &mut out)?;
                        Ok(out)
                    }))
                },
            ));
        }
    }
    v
}

/// A Square Hash block function under one key (docs/WIRE.md §6).
struct Block(BlockKey);

impl BlockHash for Block {
    fn hash_blocks(&self, blocks: &[u8], out: &mut [u8]) {
        self.0
            .hash_blocks(blocks, out)
            .expect("blocks and output have the family's sizes");
    }
}

/// A Square Hash key set up once for hashing many blocks of its length (the
/// tree's per-level key, or any batch): the key arranged for the SIMD kernels
/// once, as [`crate::mmh::Mmh32::new`] does for MMH. The arranged copies are
/// zeroized on drop.
#[derive(Clone)]
pub struct BlockKey {
    platform: Platform,
    backend: Backend,
    l: usize,
    variant: Variant,
    key: Zeroizing<Vec<u8>>,
    /// Four-block AVX2 kernels (Def. 7, 9, 10 up to `portable::CHUNK`
    /// elements; Def. 13).
    #[cfg(target_arch = "x86_64")]
    avx2: Option<Zeroizing<Vec<[u64; 4]>>>,
    /// Eight-block AVX-512 kernel (Def. 13).
    #[cfg(target_arch = "x86_64")]
    avx512: Option<avx512::PairKey>,
}

#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
impl BlockKey {
    /// `key` is `k >= 1` elements of `l/8` bytes; blocks are then `k`
    /// elements too.
    pub fn new(l: usize, variant: Variant, key: &[u8]) -> Result<BlockKey, Error> {
        BlockKey::new_on(Platform::detect(), l, variant, key)
    }

    /// [`BlockKey::new`] for the given backend (tests run every backend the
    /// CPU has).
    pub fn new_on(
        platform: Platform,
        l: usize,
        variant: Variant,
        key: &[u8],
    ) -> Result<BlockKey, Error> {
        check_width(l)?;
        if key.is_empty() || !key.len().is_multiple_of(l / 8) {
            return Err(Error::Invalid(format!(
                "{}: the key must be a positive multiple of {} bytes, not {}",
                name(l, variant),
                l / 8,
                key.len()
            )));
        }
        let backend = Backend::for_platform(platform);
        #[cfg(target_arch = "x86_64")]
        let (avx2, avx512) = {
            let k = key.len() / (l / 8);
            let exact = matches!(variant, Variant::Star | Variant::Asm | Variant::Asm2)
                && k <= portable::CHUNK;
            let avx2 =
                (backend != Backend::Portable && (exact || variant == Variant::E)).then(|| {
                    Zeroizing::new(match l {
                        32 => avx2::prepare_key::<1>(key),
                        64 => avx2::prepare_key::<2>(key),
                        96 => avx2::prepare_key::<3>(key),
                        _ => avx2::prepare_key::<4>(key),
                    })
                });
            // Def. 13 with AVX-512F; Def. 7, 9, 10 with IFMA52 too (exact sums).
            let exact512 = exact && k <= avx512::EXACT_MAX_K && backend == Backend::Avx512Ifma;
            let e512 =
                variant == Variant::E && matches!(backend, Backend::Avx512 | Backend::Avx512Ifma);
            let avx512 = (e512 || exact512).then(|| match l {
                32 => avx512::PairKey::new::<1>(key),
                64 => avx512::PairKey::new::<2>(key),
                96 => avx512::PairKey::new::<3>(key),
                _ => avx512::PairKey::new::<4>(key),
            });
            (avx2, avx512)
        };
        Ok(BlockKey {
            platform,
            backend,
            l,
            variant,
            key: Zeroizing::new(key.to_vec()),
            #[cfg(target_arch = "x86_64")]
            avx2,
            #[cfg(target_arch = "x86_64")]
            avx512,
        })
    }

    /// The name of the backend chosen when the key was set up:
    /// `"portable"`, `"avx2fma"`, `"avx512"` or `"avx512ifma"` (Def. 11 and
    /// 12 are computed by the portable code on every backend).
    pub fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// The block (and key) length in bytes.
    pub fn block_bytes(&self) -> usize {
        self.key.len()
    }

    /// The output length per block in bytes.
    pub fn out_bytes(&self) -> usize {
        self.variant.out_bytes(self.l)
    }

    /// [`hash`] of each block of `blocks` (whole blocks of
    /// [`BlockKey::block_bytes`]), the outputs concatenated in `out`
    /// ([`BlockKey::out_bytes`] per block). With AVX2, Def. 7, 9, 10 and 13
    /// hash four blocks per SIMD pass (one block per lane, the key element
    /// broadcast to all four); with AVX-512F, Def. 13 hashes eight.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    pub fn hash_blocks(&self, mut blocks: &[u8], mut out: &mut [u8]) -> Result<(), Error> {
        let (l, variant) = (self.l, self.variant);
        let o = self.out_bytes();
        let bl = self.block_bytes();
        if !blocks.len().is_multiple_of(bl) || out.len() != blocks.len() / bl * o {
            return Err(Error::Invalid(format!(
                "{}: blocks must be whole {bl}-byte blocks with {o} output bytes each",
                name(l, variant)
            )));
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(prep) = &self.avx512 {
            // Eight blocks per pass, four elements of each of two blocks per
            // register: Def. 13, or the exact sums with IFMA52.
            let n8 = blocks.len() / bl / 8 * 8;
            if n8 > 0 {
                let (eight, rest) = blocks.split_at(n8 * bl);
                let (o8, orest) = core::mem::take(&mut out).split_at_mut(n8 * o);
                let p = self.platform;
                match (variant == Variant::E, l) {
                    (true, 32) => avx512::e_blocks_reduced::<1>(p, prep, eight, o8),
                    (true, 64) => avx512::e_blocks_reduced::<2>(p, prep, eight, o8),
                    (true, 96) => avx512::e_blocks_reduced::<3>(p, prep, eight, o8),
                    (true, _) => avx512::e_blocks_reduced::<4>(p, prep, eight, o8),
                    (false, 32) => exact_eight::<1, 2>(p, variant, prep, eight, o8),
                    (false, 64) => exact_eight::<2, 3>(p, variant, prep, eight, o8),
                    (false, 96) => exact_eight::<3, 4>(p, variant, prep, eight, o8),
                    (false, _) => exact_eight::<4, 5>(p, variant, prep, eight, o8),
                }
                blocks = rest;
                out = orest;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(prep) = &self.avx2 {
            // Four blocks at a time, one per lane: Def. 13, or the exact sums.
            while blocks.len() >= 4 * bl {
                let (four, rest) = blocks.split_at(4 * bl);
                let (o4, orest) = core::mem::take(&mut out).split_at_mut(4 * o);
                let p = self.platform;
                match (variant == Variant::E, l) {
                    (true, 32) => e_four::<1>(p, prep, four, o4),
                    (true, 64) => e_four::<2>(p, prep, four, o4),
                    (true, 96) => e_four::<3>(p, prep, four, o4),
                    (true, _) => e_four::<4>(p, prep, four, o4),
                    (false, 32) => exact_four::<1, 2>(p, variant, prep, four, o4),
                    (false, 64) => exact_four::<2, 3>(p, variant, prep, four, o4),
                    (false, 96) => exact_four::<3, 4>(p, variant, prep, four, o4),
                    (false, _) => exact_four::<4, 5>(p, variant, prep, four, o4),
                }
                blocks = rest;
                out = orest;
            }
        }
        for (b, o) in blocks.chunks_exact(bl).zip(out.chunks_exact_mut(o)) {
            hash_into_with(self.platform, self.backend, l, variant, &self.key, b, o)?;
        }
        Ok(())
    }
}

/// [`hash`] of each `key.len()`-byte block of `blocks` under one key, the
/// outputs concatenated in `out` (`variant.out_bytes(l)` bytes per block);
/// [`BlockKey`] sets the key up once for many calls.
pub fn hash_blocks(
    l: usize,
    variant: Variant,
    key: &[u8],
    blocks: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    hash_blocks_on(Platform::detect(), l, variant, key, blocks, out)
}

/// [`hash_blocks`] on the given backend (tests run every backend the CPU
/// has).
pub fn hash_blocks_on(
    platform: Platform,
    l: usize,
    variant: Variant,
    key: &[u8],
    blocks: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    BlockKey::new_on(platform, l, variant, key)?.hash_blocks(blocks, out)
}

/// `SQH_E` of four blocks under one key through the AVX2 lanes-per-block kernel.
#[cfg(target_arch = "x86_64")]
fn e_four<const V: usize>(platform: Platform, prep: &[[u64; 4]], four: &[u8], out: &mut [u8]) {
    let mut pairs = [[0u64; 4]; 4];
    avx2::e_blocks4::<V>(platform, prep, four, &mut pairs);
    let o = 4 * V;
    for (pq, out) in pairs.iter().zip(out.chunks_exact_mut(o)) {
        let w = e_finish::<V>(pq);
        for (d, w) in out.chunks_exact_mut(4).zip(w) {
            d.copy_from_slice(&w.to_le_bytes());
        }
    }
}

/// `(words mod p) mod 2^l` of Def. 13 from its carry-free words, given in
/// pairs (word `2i` in the low half of `pairs[i]`, `2i + 1` in the high).
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn e_finish<const V: usize>(pairs: &[u64; 4]) -> [u32; 5] {
    let word = |r: usize| (pairs[r / 2] >> (32 * (r % 2))) & 0xffff_ffff;
    let mut out = [0u32; 5];
    if V <= 3 {
        let (mut lo, mut hi) = (0u128, 0u128);
        for r in 0..V {
            lo |= (word(r) as u128) << (32 * r);
            hi |= (word(r + V) as u128) << (32 * r);
        }
        let r = portable::reduce_2l_u128::<V>(lo, hi);
        // mod 2^l: the low V words.
        for (j, o) in out.iter_mut().enumerate().take(V) {
            *o = (r >> (32 * j)) as u32;
        }
        out
    } else {
        let mut cols = [0u64; portable::COLS];
        for (r, c) in cols.iter_mut().enumerate().take(2 * V) {
            *c = word(r);
        }
        portable::finish::<V>(Variant::E, &cols)
    }
}

/// Def. 7, 9 or 10 of a multiple of eight blocks under one key through the
/// AVX-512 IFMA52 kernel (exact columns and `X mod p` in the lanes).
#[cfg(target_arch = "x86_64")]
fn exact_eight<const V: usize, const V1: usize>(
    platform: Platform,
    variant: Variant,
    prep: &avx512::PairKey,
    blocks: &[u8],
    out: &mut [u8],
) {
    let o = variant.out_bytes(32 * V);
    if variant == Variant::Asm2 {
        avx512::exact_blocks8_reduced::<V, V>(platform, prep, blocks, o, out)
    } else {
        avx512::exact_blocks8_reduced::<V, V1>(platform, prep, blocks, o, out)
    }
}

/// Def. 7, 9 or 10 of four blocks under one key through the AVX2 lanes-per-block kernel.
#[cfg(target_arch = "x86_64")]
fn exact_four<const V: usize, const V1: usize>(
    platform: Platform,
    variant: Variant,
    prep: &[[u64; 4]],
    four: &[u8],
    out: &mut [u8],
) {
    let mut cols = [[0u64; portable::COLS]; 4];
    if variant == Variant::Asm2 {
        avx2::exact_blocks4::<V, V>(platform, prep, four, &mut cols)
    } else {
        avx2::exact_blocks4::<V, V1>(platform, prep, four, &mut cols)
    }
    let o = variant.out_bytes(32 * V);
    for (c, out) in cols.iter().zip(out.chunks_exact_mut(o)) {
        let w = portable::finish::<V>(variant, c);
        let mut bytes = [0u8; 20];
        for (d, w) in bytes.chunks_exact_mut(4).zip(w) {
            d.copy_from_slice(&w.to_le_bytes());
        }
        out.copy_from_slice(&bytes[..o]);
    }
}

/// The block size `B` of the table in docs/WIRE.md §6: `22 l/8` (22 elements: the paper's
/// 2112-bit block at l = 96) for l = 32, 64, 96, and 256 for l = 128.
pub fn tree_block_bytes(l: usize) -> usize {
    if l == 128 {
        256
    } else {
        22 * l / 8
    }
}

/// `sqh{l}-{variant}` as a tree's block function (docs/WIRE.md §6): block
/// and key of `tree_block_bytes(l)` bytes, `l/8` bytes out.
pub(crate) fn block_family(l: usize, variant: Variant) -> BlockFamily {
    let b = tree_block_bytes(l);
    BlockFamily::new(
        name(l, variant),
        b,
        l / 8,
        b,
        DeltaGroup::Integer,
        move |key: &[u8]| -> Box<dyn BlockHash> {
            Box::new(Block(
                BlockKey::new(l, variant, key).expect("the family's key size"),
            ))
        },
    )
}

#[cfg(test)]
mod tests;
