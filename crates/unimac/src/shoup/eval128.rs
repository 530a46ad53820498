//! `eval128` (the wire format, docs/WIRE.md §5): Shoup's evaluation hash
//! ("On fast and provably secure message authentication based on universal
//! hashing", §5) with `l = 128`,
//! over `GF(2^128) = GF(2)[x]/(x^128 + x^7 + x^2 + x + 1)`, elements and blocks
//! read little-endian (module `gf128`).
//!
//! For the blocks `b_0..b_{n-1}` of `pad(M, 16)` and the key `α`:
//!
//! `eval128(α, M) = α^(n+1) + b_0 α^n + … + b_{n-1} α`,
//!
//! the Horner value of `M` with an implicit leading 1, times `α`. As in the
//! 64-bit kernels the state is `X = h·α` (it starts at `α`), and `N` blocks are
//! absorbed at once over the precomputed powers `α^N..α^1`:
//!
//! `X' = (X + b_0)·α^N + b_1·α^(N−1) + … + b_{N−1}·α`,
//!
//! the `N` carry-less products summed unreduced (255 bits) and reduced once per
//! step. Only the first product depends on the state, so the others run ahead
//! of the reduction. The kernels: portable (`Portable`, Horner with
//! `gf128::mul`), PCLMULQDQ (8 blocks per step, `Pclmul`), VPCLMULQDQ
//! on 256-bit registers (16 blocks, `Vpclmul`) and on 512-bit
//! registers with AVX-512F (32 blocks, `Avx512`), and on aarch64 PMULL
//! (8 blocks per step, `Pmull`); all are
//! constant-time. This module dispatches to them; they import only the
//! leaf `keys` (the key type and `STEP`).
//!
//! Forgery bound (§4): a nonzero difference polynomial of degree ≤ `n + 1` in
//! `α` has at most `n + 1` roots, so for messages of at most `n` blocks eval128
//! is `ε`-AXU with `ε ≤ (n + 1)/2^128`.

use crate::prelude::*;
use alloc::sync::Arc;

use zeroize::Zeroize;

pub use super::keys::Eval128Key;
use super::keys::STEP;
use super::portable;
use crate::traits::{Entry, Info, KeySpec, Keyed, Params, Stream};
use crate::error::Error;
use crate::platform::Backend as _;
use crate::platform::Platform;

/// Bytes buffered by the streaming state: one step of the widest kernel.
const BUF: usize = 16 * STEP;

#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
impl Eval128Key {
    /// The powers `α^1..α^32` of the key `α` (16 bytes, little-endian),
    /// with the products [`Platform::detect`] allows.
    pub fn new(alpha: &[u8; 16]) -> Eval128Key {
        Self::new_on(Platform::detect(), alpha)
    }

    /// [`Eval128Key::new`] with the products by [`super::gf128_mul_on`]
    /// under the evidence `p`.
    pub(crate) fn new_on(p: Platform, alpha: &[u8; 16]) -> Eval128Key {
        let a = u128::from_le_bytes(*alpha);
        let mut k = Eval128Key { desc: [0; STEP] };
        let mut x = a;
        for j in (0..STEP).rev() {
            k.desc[j] = x;
            x = super::gf128_mul_on(p, x, a);
        }
        x.zeroize();
        k
    }
}

/// Which kernel computes eval128: chosen once, from the [`Platform`]
/// evidence, when the key is set up, and kept in [`Eval128`] with that
/// evidence (the kernels check it). Every backend is constant-time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// Horner with [`super::gf128::mul`].
    Portable,
    /// PCLMULQDQ, 8 blocks per step.
    #[cfg(target_arch = "x86_64")]
    Pclmul,
    /// VPCLMULQDQ on 256-bit registers with AVX2, 16 blocks per step.
    #[cfg(target_arch = "x86_64")]
    Vpclmul,
    /// VPCLMULQDQ on 512-bit registers with AVX-512F, 32 blocks per step
    /// (the default where the CPU has both).
    #[cfg(target_arch = "x86_64")]
    Avx512,
    /// PMULL on aarch64, 8 blocks per step.
    #[cfg(target_arch = "aarch64")]
    Pmull,
}

impl crate::platform::Backend for Backend {
    fn for_platform(p: Platform) -> Backend {
        #[cfg(target_arch = "x86_64")]
        {
            if p.vpclmul() && p.pclmul() && p.avx512() {
                return Backend::Avx512;
            }
            if p.vpclmul() && p.pclmul() {
                return Backend::Vpclmul;
            }
            if p.pclmul() {
                return Backend::Pclmul;
            }
        }
        #[cfg(target_arch = "aarch64")]
        if p.pmull() {
            return Backend::Pmull;
        }
        let _ = p;
        Backend::Portable
    }

    fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmul => crate::platform::Feature::Pclmul.name(),
            #[cfg(target_arch = "x86_64")]
            Backend::Vpclmul => crate::platform::Feature::Vpclmul.name(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => crate::platform::Feature::Avx512.name(),
            #[cfg(target_arch = "aarch64")]
            Backend::Pmull => crate::platform::Feature::Pmull.name(),
        }
    }
}

/// Absorb whole 16-byte blocks into the state `x` (reduced).
/// `p` is the evidence `backend` was chosen from (the kernels check it).
fn blocks(backend: Backend, p: Platform, key: &Eval128Key, x: u128, data: &[u8]) -> u128 {
    let _ = p;
    match backend {
        Backend::Portable => portable::eval128_blocks(key.alpha(), x, data),
        #[cfg(target_arch = "x86_64")]
        Backend::Pclmul => super::clmul::eval128_blocks(p, key, x, data),
        #[cfg(target_arch = "x86_64")]
        Backend::Vpclmul => super::vpclmul::eval128_blocks(p, key, x, data),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => super::vpclmul512::eval128_blocks(p, key, x, data),
        #[cfg(target_arch = "aarch64")]
        Backend::Pmull => super::pmull::eval128_blocks(p, key, x, data),
    }
}

/// [`blocks`] split across the threads the application allows
/// ([`crate::threads`]) from [`crate::threads::PARALLEL_MIN`] bytes on: each
/// piece hashed from zero, joined with `X(a‖b) = X(a)·α^|b| + X(b)`.
fn blocks_bulk(backend: Backend, p: Platform, key: &Eval128Key, x: u128, data: &[u8]) -> u128 {
    if !crate::threads::parallel(data.len(), crate::threads::parallel_min()) {
        return blocks(backend, p, key, x, data);
    }
    let pieces = crate::threads::split(data.len(), BUF, crate::threads::parallel_min());
    if pieces.len() < 2 {
        return blocks(backend, p, key, x, data);
    }
    let values = crate::threads::map(&pieces, |r| blocks(backend, p, key, 0, &data[r.clone()]));
    let mut v = x;
    for (pv, r) in values.into_iter().zip(&pieces) {
        v = super::gf128_mul_on(p, v, pow128(p, key.alpha(), (r.len() / 16) as u64)) ^ pv;
    }
    v
}

/// `a^n` in GF(2^128) by square-and-multiply (`n` is a public length), the
/// products under the evidence `p`.
pub(crate) fn pow128(p: Platform, a: u128, mut n: u64) -> u128 {
    let (mut acc, mut b) = (1u128, a);
    while n > 0 {
        if n & 1 == 1 {
            acc = super::gf128_mul_on(p, acc, b);
        }
        b = super::gf128_mul_on(p, b, b);
        n >>= 1;
    }
    acc
}

/// Streaming eval128: feed the message in any chunking, then
/// [`finalize`](Eval128::finalize). The expanded key is kept across
/// `finalize_reset` and shared by clones.
#[derive(Clone)]
pub struct Eval128 {
    key: Arc<Eval128Key>,
    backend: Backend,
    /// The evidence `backend` was chosen from.
    platform: Platform,
    acc: u128,
    buf: [u8; BUF],
    n: usize,
}

impl Eval128 {
    /// With the fastest constant-time backend of this CPU
    /// ([`Platform::detect`]).
    pub fn new(alpha: &[u8; 16]) -> Eval128 {
        Self::new_on(Platform::detect(), alpha)
    }

    /// With the fastest constant-time backend `platform` allows (tests and
    /// benchmarks pass each of `Platform::variants`).
    pub fn new_on(platform: Platform, alpha: &[u8; 16]) -> Eval128 {
        Self::with_backend(platform, Backend::for_platform(platform), alpha)
    }

    /// With `backend`, which the evidence `platform` must allow (the
    /// kernels check it).
    pub(crate) fn with_backend(platform: Platform, backend: Backend, alpha: &[u8; 16]) -> Eval128 {
        let key = Arc::new(Eval128Key::new_on(platform, alpha));
        let acc = key.alpha();
        Eval128 { key, backend, platform, acc, buf: [0; BUF], n: 0 }
    }

    /// The kernel in use: `"portable"`, `"pclmul"`, `"vpclmul"` or
    /// `"avx512"` (VPCLMULQDQ on 512-bit registers) on x86-64, `"pmull"`
    /// on aarch64.
    pub fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// Absorb more of the message.
    pub fn update(&mut self, mut data: &[u8]) {
        if self.n > 0 {
            let take = (BUF - self.n).min(data.len());
            self.buf[self.n..self.n + take].copy_from_slice(&data[..take]);
            self.n += take;
            data = &data[take..];
            if self.n < BUF {
                return;
            }
            self.acc = blocks(self.backend, self.platform, &self.key, self.acc, &self.buf);
            self.n = 0;
        }
        let whole = data.len() - data.len() % BUF;
        if whole > 0 {
            self.acc = blocks_bulk(self.backend, self.platform, &self.key, self.acc, &data[..whole]);
        }
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.n = rest.len();
    }

    /// For [`crate::partial`]: the value of one piece of a message hashed on
    /// its own, `Σ b_i α^(l−i)` over its `l` blocks (the blocks of
    /// `pad(piece, 16)` when `pad`), plus `α^(l+1)` for the piece that starts
    /// the message (`first`). Without `pad`, `piece.len()` must be a
    /// multiple of 16. The streaming state is not used.
    pub(crate) fn piece_value(&self, piece: &[u8], first: bool, pad: bool) -> u128 {
        let mut acc = if first { self.key.alpha() } else { 0 };
        let whole = piece.len() - piece.len() % BUF;
        if whole > 0 {
            acc = blocks_bulk(self.backend, self.platform, &self.key, acc, &piece[..whole]);
        }
        let rest = &piece[whole..];
        let mut last = [0u8; BUF + 16];
        last[..rest.len()].copy_from_slice(rest);
        let len = if pad {
            last[rest.len()] = 1;
            (rest.len() + 16) & !15
        } else {
            rest.len()
        };
        if len > 0 {
            acc = blocks(self.backend, self.platform, &self.key, acc, &last[..len]);
        }
        last.zeroize();
        acc
    }

    /// The hash of `msg` alone, under this key (whatever has been absorbed is
    /// neither used nor changed): the one-shot path, without copying the
    /// streaming state.
    pub fn oneshot(&self, msg: &[u8]) -> [u8; 16] {
        // Short messages on a carry-less backend: every block and the padded
        // last one in one aggregated step, read in place.
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if self.backend != Backend::Portable && msg.len() / 16 < STEP {
            let full = msg.len() / 16 * 16;
            // pad(M, 16): the partial block, then a 1 byte.
            let mut last = crate::tail::le_partial(msg, full) | 1 << (8 * (msg.len() - full));
            #[cfg(target_arch = "x86_64")]
            let h = super::clmul::eval128_short(self.platform, &self.key, &msg[..full], last);
            #[cfg(target_arch = "aarch64")]
            let h = super::pmull::eval128_short(self.platform, &self.key, &msg[..full], last);
            last.zeroize();
            return h.to_le_bytes();
        }
        let whole = msg.len() - msg.len() % BUF;
        let mut acc = self.key.alpha();
        if whole > 0 {
            acc = blocks_bulk(self.backend, self.platform, &self.key, acc, &msg[..whole]);
        }
        // The rest (< BUF bytes) and pad(M, 16) in one step of at most BUF bytes.
        let rest = &msg[whole..];
        let mut last = [0u8; BUF];
        last[..rest.len()].copy_from_slice(rest);
        last[rest.len()] = 1;
        let len = (rest.len() + 16) & !15;
        let h = blocks(self.backend, self.platform, &self.key, acc, &last[..len]);
        // Only the first `len` bytes ever held message bytes.
        last[..len].zeroize();
        h.to_le_bytes()
    }

    /// The 16-byte hash of everything absorbed (`pad(M, 16)` applied here).
    pub fn finalize(mut self) -> [u8; 16] {
        self.finalize_reset()
    }

    /// The hash of the whole 16-byte blocks absorbed, without `pad(M, 16)`
    /// (`α^(n+1) + b_0 α^n + … + b_{n-1} α` of the blocks as given: the
    /// `universal_hash` interface, whose caller pads); `None` if a partial
    /// block is left.
    pub fn finalize_unpadded(mut self) -> Option<[u8; 16]> {
        if !self.n.is_multiple_of(16) {
            return None;
        }
        let h = if self.n == 0 { self.acc } else { blocks(self.backend, self.platform, &self.key, self.acc, &self.buf[..self.n]) };
        self.buf.zeroize();
        Some(h.to_le_bytes())
    }

    /// The hash of everything absorbed; then start over under the same key.
    pub fn finalize_reset(&mut self) -> [u8; 16] {
        // pad(M, 16): 0x01, then zeros to a multiple of 16 (n < BUF, so the
        // padded tail is at most BUF bytes).
        let len = (self.n + 16) & !15;
        self.buf[self.n] = 1;
        self.buf[self.n + 1..len].fill(0);
        let h = blocks(self.backend, self.platform, &self.key, self.acc, &self.buf[..len]);
        self.buf.zeroize();
        self.acc = self.key.alpha();
        self.n = 0;
        h.to_le_bytes()
    }
}

impl Drop for Eval128 {
    fn drop(&mut self) {
        self.acc.zeroize();
        self.buf.zeroize();
    }
}

/// `eval128(alpha, M)`, one-shot with the default backend.
pub fn eval128(alpha: &[u8; 16], msg: &[u8]) -> [u8; 16] {
    Eval128::new(alpha).oneshot(msg)
}

struct Eval128Stream(Eval128);

impl Stream for Eval128Stream {
    fn try_clone(&self) -> Option<Box<dyn Stream>> {
        Some(Box::new(Eval128Stream(self.0.clone())))
    }
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.finalize().to_vec())
    }
}

/// eval128 under one key: the powers are computed once; every message starts
/// from a copy of the empty state.
struct KeyedEval128(Eval128);

impl Keyed for KeyedEval128 {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(Eval128Stream(self.0.clone())))
    }
    fn compute(&self, _nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(self.0.oneshot(msg).to_vec())
    }
    fn compute_into(&self, _nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        crate::traits::put(out, self.0.oneshot(msg).as_ref())
    }
}

pub(crate) fn entry() -> Entry {
    Entry::keyed(
        Info {
            name: "eval128".into(),
            key: KeySpec::Fixed(16),
            nonce: 0,
            out: 16,
            takes_len: false,
            summary: "Shoup's evaluation hash M(alpha)*alpha over GF(2^128), little-endian, pad(M, 16) (docs/WIRE.md §5)".into(),
        },
        |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
            let k: [u8; 16] =
                p.key.try_into().map_err(|_| Error::Invalid(format!("key must be 16 bytes, got {}", p.key.len())))?;
            Ok(Box::new(KeyedEval128(Eval128::new(&k))))
        },
    )
}
