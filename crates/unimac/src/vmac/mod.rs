//! VMAC-AES, draft-krovetz-vmac-01: `Tag = VHASH(K, M) + PDF(K, Nonce)`
//! (mod `2^64` per 64-bit half), with AES-128, AES-192 or AES-256.
//!
//! VHASH (draft §5) is three layers, once per 64 bits of tag:
//! - L1 (`nh`): NH on 64-bit words over 128-byte blocks, products mod
//!   `2^128` — NMH (Halevi and Krawczyk, "MMH: software message
//!   authentication in the Gbit/second rates", Definition 10) with 64-bit
//!   words and no prime; the second iteration of VMAC-128 reads the key two
//!   words further on (Toeplitz, the same paper's §2.4).
//! - L2: a polynomial mod `p127 = 2^127 − 1` — hash127's field (Bernstein, "Floating-point
//!   arithmetic and message authentication") —
//!   evaluated with hash127's exact integer arithmetic
//!   (`hash127::portable::mul_mod`, `add_mod`)
//!   on the L1 outputs masked to 126 bits, the key masked by
//!   `0x1fffffff1fffffff1fffffff1fffffff`.
//! - L3: the 127-bit result plus the bit length of the last block (times
//!   `2^64`), split by division by `2^64 − 2^32` into `q` and `r`, gives
//!   `(q + k1)(r + k2) mod (2^64 − 257)`.
//!
//! The names are `vmac64` and `vmac128` (docs/WIRE.md §8.6): key 16, 24 or 32 bytes,
//! nonce 1 to 16 bytes, a 16-byte nonce with its top bit clear (blocks with
//! that bit set are the key derivation's).
//!
//! ```
//! use unimac::vmac::Vmac64;
//!
//! let mac = Vmac64::new(b"abcdefghijklmnop").unwrap();
//! let tag = mac.tag(b"bcdefghi", b"abc").unwrap();
//! assert_eq!(tag, [0x2d, 0x37, 0x6c, 0xf5, 0xb1, 0x81, 0x3c, 0xe5]); // draft-krovetz-vmac-01 appendix
//! assert!(mac.verify(b"bcdefghi", b"abc", &tag).is_ok());
//! ```

use crate::prelude::*;
use core::fmt;
use alloc::sync::Arc;

use crate::cipher::{Aes128, Aes192, Aes256};
use zeroize::{Zeroize, Zeroizing};

use crate::hash127::portable::add_mod;
use crate::hash127::P as P127;
use crate::traits::{Keyed, Stream};
use crate::error::Error;
use crate::padcache::PadCache;
use crate::platform::Backend as _;
use crate::platform::Platform;

pub(crate) mod nh;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx2;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod avx512;
pub(crate) mod stream;
use stream::VmacPending;
mod l3;
use l3::l3;
#[cfg(test)]
use l3::{add_p64, divmod_d, mod_p64};
pub use stream::VmacStream;


pub(crate) use nh::BLOCK;

/// Which implementation computes VHASH's L1 and L2: chosen once, from the
/// [`Platform`] evidence, when the key is set up, and kept in it with that
/// evidence (the kernel checks it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// The unrolled scalar loop with 64×64→128 products.
    Portable,
    /// VMAC-64: runs of at least [`avx2::MIN_BYTES`] of whole blocks four
    /// at a time, NH of two of the four in AVX2 lanes beside the scalar
    /// loop's other two and its L2 step ([`avx2::quads`]); shorter runs,
    /// and the last one to three blocks, on the scalar loop. VMAC-128:
    /// every whole block with the key added in AVX2 lanes and NH's products
    /// by the scalar `mul` ([`avx2::blocks128`]).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// Whole blocks eight at a time, NH and L2 of both VMAC-128 iterations
    /// in one pass (or VMAC-64's one), with AVX-512 IFMA52 ([`avx512`]);
    /// the blocks after the last whole group of eight on the scalar loop.
    /// (An AVX-512 NH with 32-bit digit products was exact but slower than
    /// the scalar loop: docs/perf/umac.md.)
    #[cfg(target_arch = "x86_64")]
    Avx512Ifma,
}

impl crate::platform::Backend for Backend {
    fn for_platform(p: Platform) -> Backend {
        #[cfg(target_arch = "x86_64")]
        if p.avx512() && p.avx512ifma() {
            return Backend::Avx512Ifma;
        }
        #[cfg(target_arch = "x86_64")]
        if p.avx2_fma() {
            return Backend::Avx2;
        }
        let _ = p;
        Backend::Portable
    }

    fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => crate::platform::Feature::Avx2Fma.name(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Ifma => crate::platform::Feature::Avx512Ifma.name(),
        }
    }
}
/// `p64 = 2^64 − 257`, L3's prime.
pub(crate) const P64: u64 = 0u64.wrapping_sub(257);
/// The poly key mask (draft §5.4).
const MPOLY: u128 = 0x1fff_ffff_1fff_ffff_1fff_ffff_1fff_ffff;
/// The L1 output mask: 126 bits.
const M126: u128 = (1 << 126) - 1;

/// The block cipher of the draft's `ENCIPHER` (§3.1): AES with the user's key.
enum Cipher {
    A128(Aes128),
    A192(Aes192),
    A256(Aes256),
}

impl Cipher {
    fn new(key: &[u8]) -> Option<Cipher> {
        Some(match key.len() {
            16 => Cipher::A128(Aes128::from_slice(key)),
            24 => Cipher::A192(Aes192::from_slice(key)),
            32 => Cipher::A256(Aes256::from_slice(key)),
            _ => return None,
        })
    }

    /// The enciphered block as a big-endian integer.
    fn encrypt(&self, x: u128) -> Zeroizing<u128> {
        let mut b = aes::Block::default();
        crate::block::set_be(&mut b, x);
        match self {
            Cipher::A128(c) => c.encrypt_block(&mut b),
            Cipher::A192(c) => c.encrypt_block(&mut b),
            Cipher::A256(c) => c.encrypt_block(&mut b),
        }
        let out = Zeroizing::new(u128::from_be_bytes(b.into()));
        b.zeroize();
        out
    }
}

/// Every sub-key of VHASH (draft §3.2 KDF, §5) and the PDF's cipher.
pub(crate) struct VmacKey {
    /// This key object's id, which its stripes carry ([`crate::stripe`]).
    id: crate::stripe::KeyId,
    iters: usize,
    cipher: Cipher,
    /// NH key: `16 + 2(iters − 1)` big-endian words of the key stream at
    /// `0x80 ‖ 0^…`, zero-padded to 18 words.
    nh_fixed: Zeroizing<[u64; nh::KEY_WORDS]>,
    /// Poly keys, masked.
    poly: Zeroizing<[u128; 2]>,
    /// Per iteration `[k, k², …, k⁸]` of the poly key `k`, the powers
    /// fully reduced mod `p127`, for [`poly4`] and the IFMA kernel.
    powers: Zeroizing<[[u128; 8]; 2]>,
    /// Per iteration [`lane_limbs`] of `powers`: the IFMA kernel's join
    /// (read only where that kernel is built).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    lanes: Zeroizing<[[[u64; 8]; 3]; 2]>,
    /// L3 keys `(k1, k2)`, each below `p64` (drawn again until they are).
    l3: Zeroizing<[(u64, u64); 2]>,
    /// VMAC-64: the last enciphered nonce block `(input, output)`; two
    /// nonces that differ in the last bit share it (draft §3.3).
    pad_cache: PadCache,
    /// The L1/L2 kernel, chosen from `platform`.
    backend: Backend,
    /// The evidence `backend` was chosen from (the kernel checks it).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    platform: Platform,
}

impl VmacKey {
    fn new(key: &[u8], iters: usize, platform: Platform) -> Option<VmacKey> {
        assert!(iters == 1 || iters == 2);
        let cipher = Cipher::new(key)?;
        let words = 16 + 2 * (iters - 1);
        let mut nhk = Zeroizing::new(Vec::with_capacity(words));
        for i in 0..words.div_ceil(2) {
            let b = cipher.encrypt((0x80u128 << 120) + i as u128);
            nhk.push((*b >> 64) as u64);
            nhk.push(*b as u64);
        }
        nhk.truncate(words);
        let mut poly = Zeroizing::new([0u128; 2]);
        for (i, p) in poly.iter_mut().enumerate().take(iters) {
            *p = *cipher.encrypt((0xC0u128 << 120) + i as u128) & MPOLY;
        }
        let mut l3 = Zeroizing::new([(0u64, 0u64); 2]);
        let mut ctr = 0u128;
        for l in l3.iter_mut().take(iters) {
            loop {
                let b = cipher.encrypt((0xE0u128 << 120) + ctr);
                ctr += 1;
                let (k1, k2) = ((*b >> 64) as u64, *b as u64);
                if k1 < P64 && k2 < P64 {
                    *l = (k1, k2);
                    break;
                }
            }
        }
        let mut nh_fixed = Zeroizing::new([0u64; nh::KEY_WORDS]);
        nh_fixed[..nhk.len()].copy_from_slice(&nhk);
        let mut powers = Zeroizing::new([[0u128; 8]; 2]);
        for (pw, &k) in powers.iter_mut().zip(poly.iter()).take(iters) {
            *pw = key_powers(k);
        }
        let lanes = Zeroizing::new([lane_limbs(&powers[0]), lane_limbs(&powers[1])]);
        Some(VmacKey { id: crate::stripe::KeyId::fresh(), iters, cipher, nh_fixed, poly, powers, lanes, l3, pad_cache: PadCache::new(), backend: Backend::for_platform(platform), platform })
    }

    /// `PDF(K, Nonce)` (draft §3.3): the nonce, left-padded with zeros to 16
    /// bytes, enciphered; VMAC-64 clears the last bit first and takes the
    /// half that bit selects (two tags share one AES call).
    fn pad(&self, nonce: &[u8]) -> [u64; 2] {
        let n = crate::umac::be_int(nonce);
        let halves = |t: u128| [(t >> 64) as u64, t as u64];
        if self.iters == 1 {
            let idx = (n & 1) as u32;
            let input = n & !1;
            if let Some(t) = self.pad_cache.get(input) {
                return [halves(t)[idx as usize], 0];
            }
            let t = self.cipher.encrypt(input);
            self.pad_cache.put(input, *t);
            [halves(*t)[idx as usize], 0]
        } else {
            halves(*self.cipher.encrypt(n))
        }
    }
}

/// `[k, k², …, k⁸]` for a masked poly key `k`, the powers mod `p127`.
fn key_powers(k: u128) -> [u128; 8] {
    let mut pw = [k; 8];
    for j in 1..8 {
        pw[j] = crate::hash127::portable::mul_mod(pw[j - 1], k);
    }
    pw
}

/// The multipliers of the IFMA kernel's join for the powers `pw = [k, …,
/// k⁸]` (each below `2^127`): limb `i` (52 bits, the last below `2^23`) of
/// `k^(7−b)` in lane `b`, lane 7 holding 1.
fn lane_limbs(pw: &[u128; 8]) -> [[u64; 8]; 3] {
    const M52: u128 = (1 << 52) - 1;
    let lane = |b: usize| if b == 7 { 1 } else { pw[6 - b] };
    core::array::from_fn(|i| core::array::from_fn(|b| ((lane(b) >> (52 * i)) & M52) as u64))
}

/// A nonce of 1 to 16 bytes whose 128-bit block has its top bit clear.
#[inline]
pub(crate) fn check_nonce(name: &str, nonce: &[u8]) -> Result<(), Error> {
    if crate::macs::VMAC_NONCE.accepts(Some(nonce)) {
        return Ok(());
    }
    Err(nonce_error(name, nonce))
}

/// Why [`check_nonce`] refused `nonce` (out of line: the rare path).
#[cold]
#[inline(never)]
fn nonce_error(name: &str, nonce: &[u8]) -> Error {
    let rule = crate::macs::VMAC_NONCE;
    if nonce.len() < rule.min() || nonce.len() > rule.max() {
        return Error::Invalid(format!("{name}: nonce must be {} to {} bytes, got {}", rule.min(), rule.max(), nonce.len()));
    }
    Error::Invalid(format!("{name}: a {}-byte nonce must have its top bit clear (blocks with it set derive the keys)", rule.max()))
}

/// L2 state of both iterations (draft §5.4): `a = k^n + m_1 k^(n−1) + … + m_n
/// mod p127` over the masked L1 outputs `m_i`, kept fully reduced.
#[derive(Default)]
struct Poly {
    blocks: u64,
    a: [u128; 2],
}

/// NH of one block (at most 128 bytes, zero-padded to whole 16-byte word
/// pairs: NH is a sum over pairs, so the whole pairs are hashed in place and
/// only a partial last pair is padded in a copy) for every iteration, into L2.
/// Inlined, as [`vhash`], [`poly`] and [`tag_of`] are: see [`vhash`].
#[inline(always)]
fn l1(k: &VmacKey, p: &mut Poly, block: &[u8]) {
    debug_assert!(!block.is_empty() && block.len() <= BLOCK);
    let y = if k.iters == 1 {
        let [y] = nh::nh_last::<1>(&k.nh_fixed, block);
        [y, 0]
    } else {
        nh::nh_last::<2>(&k.nh_fixed, block)
    };
    poly(k, p, y);
}

/// One L2 step of each iteration on the L1 outputs `y`.
#[inline(always)]
fn poly(k: &VmacKey, p: &mut Poly, y: [u128; 2]) {
    let first = p.blocks == 0;
    p.blocks += 1;
    for (t, y) in y.iter().enumerate().take(k.iters) {
        let m = y & M126;
        // The first step: k + m < 2^125 + 2^126 < p127.
        p.a[t] = if first { k.poly[t] + m } else { poly_step(p.a[t], k.poly[t], m) };
    }
}

/// `a·k + m mod p127`, lazily reduced: for any `a < 2^128`, a key `k` with
/// both 64-bit halves below `2^61` (the mask) and `m < 2^126`, the result is
/// below `2^127 + 5` and congruent to `a·k + m` (the accumulator stays below
/// `2^128`; [`reduce127`] finishes it).
///
/// With `a = ah·2^64 + al`, `k = kh·2^64 + kl` and `2^128 ≡ 2`:
/// `a·k ≡ 2·ah·kh + (ah·kl + al·kh)·2^64 + al·kl`. The middle sum
/// `mid < 2^126` is `mh·2^64 + ml` with `mh < 2^62`, and `mh·2^128 ≡ 2·mh`.
/// `X = al·kl + ml·2^64 < 2^128 + 2^125` (carry `c1`), `Y = 2·ah·kh + 2·mh +
/// m < 2^126 + 2^63 + 2^126`; `X + Y` wraps with carry `c2`, and
/// `(c1 + c2)·2^128 ≡ 2(c1 + c2) <= 4`. The fold `(T mod 2^127) + (T >> 127)`
/// of the wrapped sum `T` is at most `2^127`, plus that at most `2^127 + 4`.
#[inline(always)]
fn poly_step(a: u128, k: u128, m: u128) -> u128 {
    let (ah, al) = ((a >> 64) as u64, a as u64);
    let (kh, kl) = ((k >> 64) as u64, k as u64);
    let mul = |x: u64, y: u64| x as u128 * y as u128;
    let mid = mul(ah, kl) + mul(al, kh);
    let (mh, ml) = (mid >> 64, mid as u64 as u128);
    let (x, c1) = mul(al, kl).overflowing_add(ml << 64);
    let y = 2 * mul(ah, kh) + 2 * mh + m;
    let (t, c2) = x.overflowing_add(y);
    (t & P127) + (t >> 127) + 2 * (c1 as u128 + c2 as u128)
}

/// Four lazy L2 steps at once: `a·k⁴ + m0·k³ + m1·k² + m2·k + m3 mod p127`
/// with `kp = [k, k², k³, k⁴, …]` (each below `2^127`), for any `a < 2^128`
/// and `m_i < 2^126`, by [`dot`]; the result is below `2^128` and congruent
/// to four [`poly_step`]s. Only the product by `k⁴` depends on `a`: the
/// serial chain is one multiplication and one fold per four blocks.
#[inline(always)]
fn poly4(a: u128, kp: &[u128; 8], m: [u128; 4]) -> u128 {
    // The products by a last: the other terms are ready sooner.
    dot([(m[2], kp[0]), (m[1], kp[1]), (m[0], kp[2]), (a, kp[3])], m[3])
}

/// `Σ x_i·K_i + c mod p127`, lazily reduced, for `N <= 8` terms with any
/// `x_i, c < 2^128` and `K_i < 2^127`: below `2^127 + 2^72`, congruent.
///
/// For `x = xh·2^64 + xl` and `K = Kh·2^64 + Kl` (so `2Kh < 2^64`),
/// `x·K ≡ xl·Kl + xh·(2Kh) + (xh·Kl + xl·Kh)·2^64` since `2^128 ≡ 2`. The
/// low products (and `c`) sum in `P`, the middle products in `Q`, each a
/// `u128` plus a carry count at most `2N`. With `Q = qh·2^64 + ql`,
/// `P + Q·2^64 = lo + hi·2^128` where `lo = (P mod 2^128) + ql·2^64` wraps
/// with carry `c'` and `hi = qh + pc + c' + qc·2^64 < 2^69`; `lo + 2·hi`,
/// folded once at bit 127, is below `2^127 + 1 + 2^70`.
#[inline(always)]
fn dot<const N: usize>(terms: [(u128, u128); N], c: u128) -> u128 {
    // `(x mod 2^128, x >> 128)` plus `y < 2^128`, written so that it
    // compiles to one add/adc/adc chain.
    #[inline(always)]
    fn add192((l, h): (u128, u64), y: u128) -> (u128, u64) {
        let s = (l as u64 as u128) + (y as u64 as u128);
        let t = (l >> 64) + (y >> 64) + (s >> 64);
        ((t << 64) | (s as u64 as u128), h + (t >> 64) as u64)
    }
    debug_assert!(N <= 8);
    let mul = |x: u64, y: u64| x as u128 * y as u128;
    let mut p = (c, 0u64);
    let mut q = (0u128, 0u64);
    for (x, k) in terms {
        debug_assert!(k < 1 << 127);
        let (xh, xl) = ((x >> 64) as u64, x as u64);
        let (kh, kl) = ((k >> 64) as u64, k as u64);
        p = add192(add192(p, mul(xl, kl)), mul(xh, 2 * kh));
        q = add192(add192(q, mul(xh, kl)), mul(xl, kh));
    }
    dot_finish(p, q)
}

/// The end of [`dot`]: `P + Q·2^64` from the two 192-bit sums (each a
/// `u128` and a carry count), folded once at bit 127. The result depends
/// on that sum alone.
#[inline(always)]
fn dot_finish((p, pc): (u128, u64), (q, qc): (u128, u64)) -> u128 {
    let (lo, c) = p.overflowing_add(q << 64);
    let hi = (q >> 64) + pc as u128 + c as u128 + ((qc as u128) << 64);
    (lo & P127) + (lo >> 127) + 2 * hi
}

/// `a mod p127` into `[0, p127)` for `a < 2^128` (hash127's exact addition
/// does the last conditional subtraction).
fn reduce127(a: u128) -> u128 {
    add_mod(a & P127, a >> 127)
}

/// [`blocks_serial`], split across the threads the application allows
/// ([`crate::threads`]) from [`crate::threads::PARALLEL_MIN`] bytes on: each
/// piece's polynomial from zero (`Σ m_i k^(J−i)` over its `J` blocks),
/// joined by `a ← a·k^J + s` mod `p127`.
fn blocks(k: &VmacKey, p: &mut Poly, mut data: &[u8]) {
    if !crate::threads::parallel(data.len(), crate::threads::parallel_min()) {
        // Too short to split, or one thread: no allocation.
        return blocks_serial(k, p, data);
    }
    if data.len() >= BLOCK && p.blocks == 0 {
        // The first block starts the polynomial (its leading k^n).
        blocks_serial(k, p, &data[..BLOCK]);
        data = &data[BLOCK..];
    }
    let pieces = crate::threads::split(data.len(), BLOCK, crate::threads::parallel_min());
    if pieces.len() < 2 || p.blocks == 0 {
        return blocks_serial(k, p, data);
    }
    let parts = crate::threads::map(&pieces, |r| {
        // `blocks: 1`: not the first block, so Horner from 0.
        let mut q = Poly { blocks: 1, a: [0; 2] };
        blocks_serial(k, &mut q, &data[r.clone()]);
        q.a
    });
    for (s, r) in parts.into_iter().zip(&pieces) {
        let j = (r.len() / BLOCK) as u64;
        for ((a, s), kp) in p.a.iter_mut().zip(s).zip(k.poly.iter()).take(k.iters) {
            let shift = crate::hash127::portable::pow_mod(*kp, j);
            *a = add_mod(crate::hash127::portable::mul_mod(reduce127(*a), shift), reduce127(s));
        }
        p.blocks += j;
    }
}

/// The IFMA backend's part of [`blocks_serial`]: the whole groups of
/// eight blocks at the start of `data` through [`avx512::nh_poly`] into
/// `p`; the rest returned (all of `data` on another backend).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn ifma_groups<'a>(k: &VmacKey, p: &mut Poly, data: &'a [u8]) -> &'a [u8] {
    if k.backend != Backend::Avx512Ifma || data.len() < avx512::GROUP {
        return data;
    }
    let nhk: &[u64; nh::KEY_WORDS] = &k.nh_fixed;
    let whole = data.len() / avx512::GROUP * avx512::GROUP;
    let pw = &*k.powers;
    // Each lane's state before the groups times k⁸: from the start the
    // state is 1 (the first block's step 1·k + m_1 gives the
    // polynomial's leading k^n), so k⁸ itself.
    let start = |t: usize| if p.blocks == 0 { pw[t][7] } else { reduce127(dot([(p.a[t], pw[t][7])], 0)) };
    let lanes = &*k.lanes;
    if k.iters == 1 {
        let s = Zeroizing::new([start(0)]);
        let [a] = avx512::nh_poly::<1>(k.platform, nhk, &data[..whole], &[pw[0][7]], core::array::from_ref(&lanes[0]), &s);
        p.a[0] = a;
    } else {
        let s = Zeroizing::new([start(0), start(1)]);
        p.a = avx512::nh_poly::<2>(k.platform, nhk, &data[..whole], &[pw[0][7], pw[1][7]], lanes, &s);
    }
    p.blocks += (whole / BLOCK) as u64;
    &data[whole..]
}

/// The AVX2 backend's part of [`blocks_serial`]: from
/// [`avx2::MIN_BYTES`] (three quads of blocks) on, the whole quads at the
/// start of `data` through [`avx2::quads`] from the states `a`; the rest
/// returned (all of `data` on another backend, or when shorter). Below
/// three quads the scalar loop was faster (512 B: 0.355 against 0.381 TSC
/// cycles a byte for VMAC-64 on Zen 4 without IFMA52; 1 KiB level;
/// docs/perf/umac.md).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn avx2_quads<'a>(k: &VmacKey, a: &mut [u128; 2], data: &'a [u8]) -> &'a [u8] {
    if k.backend != Backend::Avx2 || data.len() < avx2::MIN_BYTES {
        return data;
    }
    // VMAC-128 took the whole run to `avx2::blocks128` before this.
    debug_assert_eq!(k.iters, 1);
    let whole = data.len() / avx2::QUAD * avx2::QUAD;
    [a[0]] = avx2::quads::<1>(k.platform, &k.nh_fixed, &data[..whole], &k.powers, [a[0]]);
    &data[whole..]
}

/// L1 and L2 of whole 128-byte blocks, fused. On the IFMA backend: NH of
/// eight blocks at a time and eight Horner chains in `k⁸` per iteration
/// (VMAC-128's two in one pass) in [`avx512`], joined with `k⁰ … k⁷` at
/// the end. On the AVX2 backend VMAC-128's blocks all go to
/// [`avx2::blocks128`]. Then (and otherwise) NH of four blocks ([`nh::nh_block`], the
/// unrolled scalar 64×64→128 loop, both iterations from the same loaded
/// words; on the AVX2 backend VMAC-64's two of the four in vector lanes, [`avx2`])
/// and one L2 step for the four (a message's first four from the
/// state 1, no step of their own for the first block); the last one to
/// three blocks one at a time ([`poly_step`]).
fn blocks_serial(k: &VmacKey, p: &mut Poly, data: &[u8]) {
    debug_assert!(data.len().is_multiple_of(BLOCK));
    let mut data = data;
    let nhk: &[u64; nh::KEY_WORDS] = &k.nh_fixed;
    #[cfg(target_arch = "x86_64")]
    {
        data = ifma_groups(k, p, data);
    }
    // Whether the polynomial starts with this run's first four blocks.
    #[cfg(target_arch = "x86_64")]
    let start = p.blocks == 0 && data.len() >= 4 * BLOCK;
    if p.blocks == 0 {
        if data.is_empty() {
            return;
        }
        if data.len() >= 4 * BLOCK {
            // The polynomial starts at 1 (its leading k^n): from a = 1 the
            // first four blocks are one `poly4` like the others.
            p.a = [1, 1];
        } else {
            l1(k, p, &data[..BLOCK]);
            data = &data[BLOCK..];
        }
    }
    p.blocks += (data.len() / BLOCK) as u64;
    #[cfg(target_arch = "x86_64")]
    if k.backend == Backend::Avx2 && k.iters == 2 {
        // VMAC-128: every whole block on the AVX2 backend's block loop
        // (`None`: from the start, where `a·k⁴ = k⁴` needs no products).
        let a = if start { None } else { Some(p.a) };
        p.a = avx2::blocks128(k.platform, nhk, data, &k.poly, &k.powers, a);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        data = avx2_quads(k, &mut p.a, data);
    }
    // The unrolled scalar loop, written out: closures per block would
    // cost VMAC-128 about a tenth of its speed. Four blocks per L2 step
    // ([`poly4`]), the rest one at a time.
    let mut quads = data.chunks_exact(4 * BLOCK);
    if k.iters == 1 {
        let (kp, pw, mut a) = (k.poly[0], &k.powers[0], p.a[0]);
        for q in quads.by_ref() {
            let [y0] = nh::nh_block::<1>(nhk, nth(q, 0));
            let [y1] = nh::nh_block::<1>(nhk, nth(q, 1));
            let [y2] = nh::nh_block::<1>(nhk, nth(q, 2));
            let [y3] = nh::nh_block::<1>(nhk, nth(q, 3));
            a = poly4(a, pw, [y0 & M126, y1 & M126, y2 & M126, y3 & M126]);
        }
        for b in quads.remainder().chunks_exact(BLOCK) {
            let [y] = nh::nh_block::<1>(nhk, b.try_into().unwrap());
            a = poly_step(a, kp, y & M126);
        }
        p.a[0] = a;
    } else {
        let (kp, pw, mut a) = (*k.poly, &*k.powers, p.a);
        for q in quads.by_ref() {
            let [y0, z0] = nh::nh_block::<2>(nhk, nth(q, 0));
            let [y1, z1] = nh::nh_block::<2>(nhk, nth(q, 1));
            let [y2, z2] = nh::nh_block::<2>(nhk, nth(q, 2));
            let [y3, z3] = nh::nh_block::<2>(nhk, nth(q, 3));
            a[0] = poly4(a[0], &pw[0], [y0 & M126, y1 & M126, y2 & M126, y3 & M126]);
            a[1] = poly4(a[1], &pw[1], [z0 & M126, z1 & M126, z2 & M126, z3 & M126]);
        }
        for b in quads.remainder().chunks_exact(BLOCK) {
            let y = nh::nh_block::<2>(nhk, b.try_into().unwrap());
            a[0] = poly_step(a[0], kp[0], y[0] & M126);
            a[1] = poly_step(a[1], kp[1], y[1] & M126);
        }
        p.a = a;
    }
}

impl crate::stripe::LowestLayer for VmacKey {
    fn id(&self) -> crate::stripe::KeyId {
        self.id
    }
    fn unit(&self) -> usize {
        BLOCK
    }
    fn hash(&self, data: &[u8]) -> crate::stripe::Body {
        let (blocks, a) = stripe_poly(self, data);
        crate::stripe::Body::Vmac { blocks, a }
    }
    fn kind(&self) -> &'static str {
        "vmac"
    }
}

/// The lowest layer of a stripe of whole blocks ([`crate::stripe`]): its
/// block count `J` and, per iteration, `Σ m_i k^(J−i)` (Horner from zero,
/// lazily reduced), which the ordered step joins by `a ← a·k^J + s`.
fn stripe_poly(k: &VmacKey, data: &[u8]) -> (u64, [u128; 2]) {
    debug_assert!(data.len().is_multiple_of(BLOCK));
    // `blocks: 1`: not the first block of the message, so Horner from 0.
    let mut q = Poly { blocks: 1, a: [0; 2] };
    blocks_serial(k, &mut q, data);
    let a = q.a;
    q.a.zeroize();
    ((data.len() / BLOCK) as u64, a)
}

/// `a ← a·k^J + s` mod `p127` per iteration for `J` more blocks whose
/// polynomial from zero is `s` (the first blocks of the message: `a = 1`,
/// the leading `k^n`).
fn join(k: &VmacKey, p: &mut Poly, j: u64, s: &[u128; 2]) {
    use crate::hash127::portable::{mul_mod, pow_mod};
    for ((a, s), kp) in p.a.iter_mut().zip(s).zip(k.poly.iter()).take(k.iters) {
        let base = if p.blocks == 0 { 1 } else { reduce127(*a) };
        let mut shift = pow_mod(*kp, j);
        *a = add_mod(mul_mod(base, shift), reduce127(*s));
        shift.zeroize();
    }
    p.blocks += j;
}

/// Block `i` of a run of whole blocks.
#[inline(always)]
fn nth(b: &[u8], i: usize) -> &[u8; BLOCK] {
    b[i * BLOCK..(i + 1) * BLOCK].try_into().unwrap()
}

/// The tag from the L2 states of a message of `len` bytes and the pad.
/// Inlined: returned through memory, the tag was written as two 8-byte
/// words and read back as one 16-byte word (see [`vhash`]).
#[inline(always)]
fn tag_of<const T: usize>(k: &VmacKey, p: &Poly, len: usize, pad: &[u64; 2]) -> [u8; T] {
    // The empty message: the polynomial is the key alone.
    let bits = 8 * (len % BLOCK) as u64;
    let mut tag = [0u8; T];
    for t in 0..T / 8 {
        let a = if p.blocks == 0 { k.poly[t] } else { p.a[t] };
        let h = l3(a, bits, k.l3[t]).wrapping_add(pad[t]);
        tag[8 * t..8 * t + 8].copy_from_slice(&h.to_be_bytes());
    }
    tag
}

/// VHASH's L1 and L2 over a whole message.
///
/// Inlined, with [`l1`], [`poly`], [`nh::nh_last`] and [`tag_of`]: called,
/// each handed back a `u128` pair or the tag through memory, written as
/// 8-byte words and read back as 16-byte words, and such a load cannot take
/// its bytes from two stores still in the store buffer: it waits until they
/// are written to the cache, on the critical path of every tag. Measured on
/// Zen 4 (`umac_speed`, TSC cycles per tag): a 129-byte VMAC-64 tag took
/// 153 against 63 for 128 bytes, and 95 inlined; VMAC-128 at 64 bytes 102,
/// then 84 (docs/perf/umac.md, "Store forwarding").
#[inline(always)]
fn vhash(k: &VmacKey, msg: &[u8]) -> Poly {
    let mut p = Poly::default();
    let whole = msg.len() / BLOCK * BLOCK;
    if whole > 0 {
        blocks(k, &mut p, &msg[..whole]);
    }
    if whole < msg.len() {
        l1(k, &mut p, &msg[whole..]);
    }
    p
}

/// VMAC-AES with a `T`-byte tag (8 or 16) under one key: the key set-up of
/// the draft (§3.2 and §5) is done once here.
#[derive(Clone)]
pub struct Vmac<const T: usize> {
    key: Arc<VmacKey>,
}

/// VMAC-64 (draft-krovetz-vmac-01), AES-128/192/256.
pub type Vmac64 = Vmac<8>;
/// VMAC-128 (draft-krovetz-vmac-01), AES-128/192/256.
pub type Vmac128 = Vmac<16>;

impl<const T: usize> fmt::Debug for Vmac<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Vmac{} {{ .. }}", 8 * T)
    }
}

impl<const T: usize> Vmac<T> {
    const VALID: () = assert!(T == 8 || T == 16, "VMAC tags are 8 or 16 bytes");

    fn name() -> &'static str {
        if T == 8 {
            "vmac64"
        } else {
            "vmac128"
        }
    }

    /// VMAC under `key`: 16, 24 or 32 bytes (AES-128, -192, -256).
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::new_on(Platform::detect(), key)
    }

    /// [`Vmac::new`] with NH on the fastest kernel `platform` allows (tests
    /// and benchmarks pass each of `Platform::variants`).
    pub(crate) fn new_on(platform: Platform, key: &[u8]) -> Result<Self, Error> {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        let k = VmacKey::new(key, T / 8, platform).ok_or_else(|| Error::KeyLength {
            name: Self::name().into(),
            expected: "16, 24 or 32".into(),
            got: key.len(),
        })?;
        Ok(Vmac { key: Arc::new(k) })
    }

    /// The kernel this key computes VHASH with (`portable`; `avx512ifma`
    /// for whole groups of eight blocks; `avx2fma` for VMAC-64's whole
    /// groups of four in runs of at least 1536 bytes, half their NH in
    /// vector lanes, and VMAC-128's whole blocks, the key added in vector
    /// lanes), as
    /// the other families'
    /// `backend` methods name theirs.
    #[cfg_attr(not(feature = "unstable"), allow(dead_code))] // the benches and tests, through unstable
    pub(crate) fn backend(&self) -> &'static str {
        self.key.backend.name()
    }

    /// Start a message under `nonce` (1 to 16 bytes, a 16-byte one with its
    /// top bit clear; never repeated under one key).
    pub fn start(&self, nonce: &[u8]) -> Result<VmacStream<T>, Error> {
        check_nonce(Self::name(), nonce)?;
        let mut s = self.stream();
        s.pad = Some(Zeroizing::new(self.key.pad(nonce)));
        Ok(s)
    }

    /// Start a message whose nonce is given at the end, to
    /// [`VmacPending::finalize`].
    pub(crate) fn start_deferred(&self) -> VmacPending<T> {
        VmacPending(self.stream())
    }

    fn stream(&self) -> VmacStream<T> {
        VmacStream {
            key: Arc::clone(&self.key),
            pad: None,
            buf: [0u8; BLOCK],
            fill: 0,
            poly: Poly::default(),
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
        if !msg.is_empty() && msg.len() <= BLOCK {
            // One block: its NH, and the polynomial is k + m (see `poly`).
            let y: [u128; 2] = if T == 8 {
                [nh::nh_last::<1>(&k.nh_fixed, msg)[0], 0]
            } else {
                nh::nh_last::<2>(&k.nh_fixed, msg)
            };
            let p = Poly { blocks: 1, a: [k.poly[0] + (y[0] & M126), k.poly[1] + (y[1] & M126)] };
            let pad = Zeroizing::new(k.pad(nonce));
            return crate::tag::Tag::new(tag_of(k, &p, msg.len(), &pad));
        }
        // The pad after VHASH, beside L3: with the pad first, a VMAC-64 tag
        // of 1 KiB measured 0.262 TSC cycles a byte on Zen 4, after 0.229
        // (docs/perf/umac.md).
        let p = vhash(&self.key, msg);
        let pad = Zeroizing::new(self.key.pad(nonce));
        crate::tag::Tag::new(tag_of(&self.key, &p, msg.len(), &pad))
    }

    /// `Ok(())` if `tag` is the tag of `msg` under `nonce` (constant-time
    /// comparison; an invalid nonce verifies nothing).
    pub fn verify(&self, nonce: &[u8], msg: &[u8], tag: impl AsRef<[u8]>) -> Result<(), crate::tag::MacError> {
        self.tag(nonce, msg).map_err(|_| crate::tag::MacError)?.verify_slice(tag.as_ref())
    }
}

impl<const T: usize> Keyed for Vmac<T> {
    fn start_with_nonce(&self, nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        let n = nonce.ok_or_else(|| Error::MissingNonce(format!("mac-{}", Self::name())))?;
        Ok(Box::new(self.start(n)?))
    }
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let n = nonce.ok_or_else(|| Error::MissingNonce(format!("mac-{}", Self::name())))?;
        Ok(self.tag(n, msg)?.as_bytes().to_vec())
    }
    fn compute_into(&self, nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let n = nonce.ok_or_else(|| Error::MissingNonce(format!("mac-{}", Self::name())))?;
        crate::traits::put(out, self.tag(n, msg)?.as_ref())
    }
}

/// The `mac-vmac*` names of the wire format (docs/WIRE.md §8.6).
#[cfg(test)]
mod tests;
