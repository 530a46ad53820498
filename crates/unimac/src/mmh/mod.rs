//! MMH and NMH: Halevi and Krawczyk, "MMH: Software Message Authentication in
//! the Gbit/second Rates" (FSE 1997), with the byte layout of the wire format
//! (docs/WIRE.md §3).
//!
//! - `generic`: the paper's definitions generic in word size and prime —
//!   MMH* and NMH* over any prime (Definitions 2 and 9), MMH_w, H_w, NMH_w and
//!   the Toeplitz shift for any `2^w < p < 2^w + 2^(w/2)` (Definitions 5, 6,
//!   10; section 2.4), with the division-less reduction of section 3.1.
//! - [`Mmh32`], [`Nmh32`], [`Mmh64`]: the wire format's block functions `mmh32xN`
//!   (`N = 1..4` Toeplitz outputs), `nmh32` and `mmh64` (`p = 2^64 + 13`),
//!   each hashing many 32-element blocks per call, with a portable path
//!   (`portable`), an AVX2 `vpmuludq` path (`avx2`, section 3.2) and
//!   its AVX-512F form (`avx512`), chosen once per key from
//!   [`crate::platform::Platform::detect`] (or the evidence given to `new_on`).
//! - the same as tree block functions ([`crate::tree::Block`]) (docs/WIRE.md §6), so
//!   `tree-mmh32xN`, `tree-nmh32` and `tree-mmh64` hash any length.
//!
//! Security (section 4; every bound below is checked exhaustively at reduced
//! scale, w = 4, 6, 8, in `tests/suite/mmh_proofs.rs`, with this module's generic code):
//! - H_32 is `2/2^32`-AΔU mod p (Lemma 7); MMH_32 is `6/2^32`-AΔU (Theorem 8).
//! - NMH_32 is `12/2^32`-AΔU (`4/2^32` mod p before the final `mod 2^32`):
//!   the paper only says "ε close to 2^-32"; the derivation, Lemma 7's
//!   argument with the extra wrap of `m + x mod 2^32`, is in that test file.
//! - The Toeplitz pair of `mmh32x2` is checked against `(6/2^w)^2`, the bound
//!   section 3.3 states as `2.25/2^60`.
//! - A tree of height `h` adds the collision probabilities of its levels.

use crate::prelude::*;
use zeroize::Zeroizing;

use crate::error::Error;
use crate::group::DeltaGroup;
use crate::platform::{Backend as _, Platform};
use crate::traits::{BlockFamily, BlockHash};
use crate::traits::{Entry, Info, KeySpec, OneShot, Params};

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx2;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx512;
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod neon;
#[cfg(any(test, feature = "unstable"))]
pub(crate) mod generic;
pub(crate) mod portable;

/// Elements per block: `k = 32` (section 3.1, "Fixing the value of k").
pub(crate) const K: usize = 32;
pub(crate) const NMH_PAIRS: usize = K / 2;

/// Block size of `mmh32xN` and `nmh32` in bytes.
pub const BLOCK32: usize = 4 * K;
/// Block size of `mmh64` in bytes.
pub const BLOCK64: usize = 8 * K;

/// Which implementation computes the block functions (private: chosen once,
/// when a key is set up, from a [`Platform`], the only evidence of CPU
/// features, which the key keeps for the kernels to check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    /// Plain Rust ([`portable`]).
    Portable,
    /// AVX2 `vpmuludq` inner products over several blocks at once (`avx2`).
    Avx2Fma,
    /// The same with 512-bit registers, one block in two (`avx512`).
    Avx512,
    /// NEON multiply-accumulate lanes, one block at a time (`neon`, aarch64).
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl crate::platform::Backend for Backend {
    fn for_platform(p: Platform) -> Backend {
        // The AVX-512 path also uses AVX2 instructions (every AVX-512F CPU has them).
        if cfg!(target_arch = "x86_64") && p.avx512() && p.avx2_fma() {
            Backend::Avx512
        } else if cfg!(target_arch = "x86_64") && p.avx2_fma() {
            Backend::Avx2Fma
        } else {
            #[cfg(target_arch = "aarch64")]
            if p.has(crate::platform::Feature::Neon) {
                return Backend::Neon;
            }
            Backend::Portable
        }
    }

    fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2Fma => "avx2fma",
            Backend::Avx512 => "avx512",
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => crate::platform::Feature::Neon.name(),
        }
    }
}

/// `mmh32xN` of `blocks` on `backend`, whose features `platform` must show
/// (each kernel asserts them).
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn run_mmh32(platform: Platform, backend: Backend, key: &[u32], blocks: &[u8], out: &mut [u8]) {
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2Fma => avx2::mmh32(platform, key, blocks, out),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => avx512::mmh32(platform, key, blocks, out),
        #[cfg(target_arch = "aarch64")]
        Backend::Neon => neon::mmh32(platform, key, blocks, out),
        _ => portable::mmh32(key, blocks, out),
    }
}

/// `nmh32` of `blocks` on `backend`, as [`run_mmh32`].
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn run_nmh32(platform: Platform, backend: Backend, key: &[u32; K], blocks: &[u8], out: &mut [u8]) {
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2Fma => avx2::nmh32(platform, key, blocks, out),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => avx512::nmh32(platform, key, blocks, out),
        #[cfg(target_arch = "aarch64")]
        Backend::Neon => neon::nmh32(platform, key, blocks, out),
        _ => portable::nmh32(key, blocks, out),
    }
}

fn words32(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn check_len(name: &str, what: &str, got: usize, want: usize) -> Result<(), Error> {
    if got == want {
        Ok(())
    } else {
        Err(Error::Message {
            name: name.to_string(),
            reason: format!("{what} must be {want} bytes, got {got}"),
        })
    }
}

/// `mmh32xN` (docs/WIRE.md §3): MMH_32 (Definition 5) with `N` Toeplitz outputs.
pub struct Mmh32 {
    key: Zeroizing<Vec<u32>>,
    platform: Platform,
    backend: Backend,
}

impl Mmh32 {
    /// `N` outputs (`1..=4`) under a key of `31 + N` little-endian words.
    pub fn new(n: usize, key: &[u8]) -> Result<Mmh32, Error> {
        Self::new_on(Platform::detect(), n, key)
    }

    /// [`Mmh32::new`] computed by the fastest kernel `platform` allows (tests
    /// and benchmarks pass each of `Platform::variants`).
    pub fn new_on(platform: Platform, n: usize, key: &[u8]) -> Result<Mmh32, Error> {
        if !(1..=4).contains(&n) {
            return Err(Error::Invalid(format!("mmh32xN: N must be 1..4, got {n}")));
        }
        check_len(&format!("mmh32x{n}"), "key", key.len(), 4 * (K - 1 + n))?;
        Ok(Mmh32 {
            key: Zeroizing::new(words32(key)),
            platform,
            backend: Backend::for_platform(platform),
        })
    }

    /// The kernel in use: `"portable"`, `"avx2fma"` or `"avx512"`.
    pub fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// `N`.
    pub fn outputs(&self) -> usize {
        self.key.len() + 1 - K
    }

    /// Hash each 128-byte block of `blocks` into `4N` bytes of `out`.
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of 128 or `out` is not `4N` bytes per block.
    pub fn hash_blocks(&self, blocks: &[u8], out: &mut [u8]) {
        assert_eq!(blocks.len() % BLOCK32, 0, "mmh32xN: whole 128-byte blocks");
        assert_eq!(
            out.len(),
            blocks.len() / BLOCK32 * 4 * self.outputs(),
            "mmh32xN: 4N bytes out per block"
        );
        run_mmh32(self.platform, self.backend, &self.key, blocks, out)
    }

    /// One block (exactly 128 bytes) to `4N` bytes.
    pub fn hash(&self, block: &[u8]) -> Result<Vec<u8>, Error> {
        check_len(
            &format!("mmh32x{}", self.outputs()),
            "the message (one block)",
            block.len(),
            BLOCK32,
        )?;
        let mut out = vec![0u8; 4 * self.outputs()];
        self.hash_blocks(block, &mut out);
        Ok(out)
    }
}

/// `nmh32` (docs/WIRE.md §3): NMH_32 (Definition 10).
pub struct Nmh32 {
    key: Zeroizing<[u32; K]>,
    platform: Platform,
    backend: Backend,
}

impl Nmh32 {
    /// Under a key of 32 little-endian words.
    pub fn new(key: &[u8]) -> Result<Nmh32, Error> {
        Self::new_on(Platform::detect(), key)
    }

    /// [`Nmh32::new`] computed by the fastest kernel `platform` allows.
    pub fn new_on(platform: Platform, key: &[u8]) -> Result<Nmh32, Error> {
        check_len("nmh32", "key", key.len(), BLOCK32)?;
        let mut k = Zeroizing::new([0u32; K]);
        for (w, c) in k.iter_mut().zip(key.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        Ok(Nmh32 {
            key: k,
            platform,
            backend: Backend::for_platform(platform),
        })
    }

    /// The kernel in use: `"portable"`, `"avx2fma"` or `"avx512"`.
    pub fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// Hash each 128-byte block of `blocks` into 4 bytes of `out`.
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of 128 or `out` is not 4 bytes per block.
    pub fn hash_blocks(&self, blocks: &[u8], out: &mut [u8]) {
        assert_eq!(blocks.len() % BLOCK32, 0, "nmh32: whole 128-byte blocks");
        assert_eq!(
            out.len(),
            blocks.len() / BLOCK32 * 4,
            "nmh32: 4 bytes out per block"
        );
        run_nmh32(self.platform, self.backend, &self.key, blocks, out)
    }

    /// One block (exactly 128 bytes) to 4 bytes.
    pub fn hash(&self, block: &[u8]) -> Result<Vec<u8>, Error> {
        check_len("nmh32", "the message (one block)", block.len(), BLOCK32)?;
        let mut out = vec![0u8; 4];
        self.hash_blocks(block, &mut out);
        Ok(out)
    }
}

/// `mmh64` (docs/WIRE.md §3): section 3.2's 64-bit MMH, `p = 2^64 + 13`. AVX2 has no
/// 64×64-bit multiply, so this is the portable `mul`/`adc` loop everywhere.
pub struct Mmh64 {
    key: Zeroizing<[u64; K]>,
}

impl Mmh64 {
    /// Under a key of 32 little-endian u64.
    pub fn new(key: &[u8]) -> Result<Mmh64, Error> {
        check_len("mmh64", "key", key.len(), BLOCK64)?;
        let mut k = Zeroizing::new([0u64; K]);
        for (w, c) in k.iter_mut().zip(key.chunks_exact(8)) {
            *w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        }
        Ok(Mmh64 { key: k })
    }

    /// Hash each 256-byte block of `blocks` into 8 bytes of `out`.
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of 256 or `out` is not 8 bytes per block.
    pub fn hash_blocks(&self, blocks: &[u8], out: &mut [u8]) {
        assert_eq!(blocks.len() % BLOCK64, 0, "mmh64: whole 256-byte blocks");
        assert_eq!(
            out.len(),
            blocks.len() / BLOCK64 * 8,
            "mmh64: 8 bytes out per block"
        );
        portable::mmh64(&self.key, blocks, out)
    }

    /// One block (exactly 256 bytes) to 8 bytes.
    pub fn hash(&self, block: &[u8]) -> Result<Vec<u8>, Error> {
        check_len("mmh64", "the message (one block)", block.len(), BLOCK64)?;
        let mut out = vec![0u8; 8];
        self.hash_blocks(block, &mut out);
        Ok(out)
    }
}

impl BlockHash for Mmh32 {
    fn hash_blocks(&self, blocks: &[u8], out: &mut [u8]) {
        Mmh32::hash_blocks(self, blocks, out)
    }
}

impl BlockHash for Nmh32 {
    fn hash_blocks(&self, blocks: &[u8], out: &mut [u8]) {
        Nmh32::hash_blocks(self, blocks, out)
    }
}

impl BlockHash for Mmh64 {
    fn hash_blocks(&self, blocks: &[u8], out: &mut [u8]) {
        Mmh64::hash_blocks(self, blocks, out)
    }
}

/// `mmh32x1..4`, `nmh32`, `mmh64` as one-block functions (docs/WIRE.md §3): the
/// message must be exactly one block.
pub(crate) fn catalog() -> Vec<Entry> {
    let mut v = Vec::new();
    for n in 1..=4usize {
        v.push(Entry::keyed(
            Info {
                name: format!("mmh32x{n}"),
                key: KeySpec::Fixed(4 * (K - 1 + n)),
                nonce: 0,
                out: 4 * n,
                takes_len: false,
                summary: format!(
                    "MMH_32 on one 128-byte block, {n} Toeplitz output word{} (Def. 5, §2.4)",
                    if n > 1 { "s" } else { "" }
                ),
            },
            move |p: &Params<'_>| {
                let h = Mmh32::new(n, p.key)?;
                Ok(OneShot::boxed(move |m: &[u8]| h.hash(m)))
            },
        ));
    }
    v.push(Entry::keyed(
        Info {
            name: "nmh32".into(),
            key: KeySpec::Fixed(BLOCK32),
            nonce: 0,
            out: 4,
            takes_len: false,
            summary: "NMH_32 on one 128-byte block (Def. 10)".into(),
        },
        |p: &Params<'_>| {
            let h = Nmh32::new(p.key)?;
            Ok(OneShot::boxed(move |m: &[u8]| h.hash(m)))
        },
    ));
    v.push(Entry::keyed(
        Info {
            name: "mmh64".into(),
            key: KeySpec::Fixed(BLOCK64),
            nonce: 0,
            out: 8,
            takes_len: false,
            summary: "64-bit MMH, p = 2^64 + 13, on one 256-byte block (§3.2)".into(),
        },
        |p: &Params<'_>| {
            let h = Mmh64::new(p.key)?;
            Ok(OneShot::boxed(move |m: &[u8]| h.hash(m)))
        },
    ));
    v
}

/// The block function `b` of this family as a tree's block function
/// (docs/WIRE.md §6): `mmh32x1..4` (B = 128, O = 4N, K = 4(31+N)), `nmh32`
/// (128, 4, 128) and `mmh64` (256, 8, 256).
pub(crate) fn block_family(b: crate::kinds::Block) -> BlockFamily {
    use crate::kinds::Block;
    match (b, b.mmh32_words()) {
        (_, Some(n)) => BlockFamily::new(
            b.name(),
            BLOCK32,
            4 * n,
            4 * (K - 1 + n),
            DeltaGroup::Words32,
            move |key: &[u8]| {
                Box::new(Mmh32::new(n, key).expect("tree passes K bytes")) as Box<dyn BlockHash>
            },
        ),
        (Block::Nmh32, _) => BlockFamily::new(
            b.name(),
            BLOCK32,
            4,
            BLOCK32,
            DeltaGroup::Words32,
            |key: &[u8]| {
                Box::new(Nmh32::new(key).expect("tree passes K bytes")) as Box<dyn BlockHash>
            },
        ),
        (Block::Mmh64, _) => BlockFamily::new(
            b.name(),
            BLOCK64,
            8,
            BLOCK64,
            DeltaGroup::Integer,
            |key: &[u8]| {
                Box::new(Mmh64::new(key).expect("tree passes K bytes")) as Box<dyn BlockHash>
            },
        ),
        _ => unreachable!("tree::Block::family sends only MMH and NMH here"),
    }
}

#[cfg(test)]
mod tests;
