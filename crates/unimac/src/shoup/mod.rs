//! Shoup's hash functions (*On Fast and Provably Secure Message Authentication
//! Based on Universal Hashing*, CRYPTO 1996; the wire format, docs/WIRE.md §5), each with an 8-byte key and
//! an 8-byte output:
//!
//! * `eval64` — the evaluation hash `M(α)·α` over `GF(2^64) = GF(2)[x]/(f)`,
//!   `f = x^64 + x^4 + x^3 + x + 1` (§5);
//! * `division64` — the division hash `m(x)·x^64 mod p` (§6), `p` the key
//!   polynomial `division64-key(g)`: the minimal polynomial of a random
//!   `g ∈ GF(2^64)` (§6.2, `minpoly`);
//! * `gdivision64` — the generalized division hash over `K = GF(2^8)` (§7), key
//!   `gdivision64-key(g)`: the minimal polynomial over K of a random `g ∈ L`,
//!   `L = K[y]/(y^8 + y^3 + y + 0x0E)` (§7.2, `gdiv`);
//! * `eval128` (docs/WIRE.md §5) — the evaluation hash with `l = 128`, 16-byte key and
//!   output, over `GF(2^128) = GF(2)[x]/(x^128 + x^7 + x^2 + x + 1)` ([`eval128`]).
//!
//! The three 64-bit hashes are Horner recurrences over 8-byte blocks of `pad(M, 8)` with an
//! implicit leading 1, computed with many blocks aggregated per step over
//! precomputed powers of the multiplier (see `clmul`). Each has a portable
//! constant-time path (backend `portable`) and constant-time SIMD paths
//! chosen from a [`Platform`] once, when the key is set up (`pclmul`,
//! `vpclmul`, and for gdivision64 `gfni`; `Hasher::backend` names the one
//! in use); the paper's table methods are there as non-constant-time
//! benchmark variants (`Table`, with the `unstable` feature only).
//!
//! The layout: the kernels (`clmul`, `vpclmul`, `vpclmul512`, `gfni`) import
//! only the leaves (`keys`, `gdiv`, `gf128`); this module and
//! [`eval128`] expand the keys and dispatch to the kernels, whose safe entry
//! points check the evidence.
//!
//! Forgery bounds (§4): for messages of at most `n` blocks (the implicit leading
//! block counted), eval64 is `ε`-AXU with `ε ≤ n/2^64`, division64 with
//! `ε ≤ 64n/2^64` and gdivision64 with `ε ≤ 8n/2^64` (a difference polynomial of
//! degree ≤ 64n has at most that many roots `g`, whatever the key polynomial's
//! degree: the fallback keys included; checked exhaustively at `l = 8` in
//! `tests/suite/shoup_bounds.rs`).

use crate::prelude::*;
use zeroize::Zeroize;

use crate::error::Error;
use crate::platform::Platform;
use crate::traits::{Entry, Info, KeySpec, Keyed, Params, Stream};

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod clmul;
pub mod eval128;
pub(crate) mod gdiv;
pub(crate) mod gf128;
pub(crate) mod gf2;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod gfni;
mod keys;
mod catalog;
pub(crate) use catalog::catalog;
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod neon;
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod pmull;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod vpclmul;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // SIMD kernels; each unsafe block has its SAFETY line
mod vpclmul512;
// Parts only the tests reach, through `crate::hazmat`.
#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
pub(crate) mod minpoly;
pub(crate) mod portable;
#[cfg(feature = "unstable")]
pub(crate) mod tables;

use crate::platform::Backend as _;
use gdiv::GKey;
use gf2::{Modulus, F_LO};
pub use keys::Ring64;

pub use crate::kinds::Kind;

/// One 64×64 carry-less product: by PCLMULQDQ where the evidence `p` has
/// it, else portable ([`gf2::clmul64`]); both constant-time. For key
/// set-ups and the joins of pieces hashed in parallel, whose callers carry
/// the evidence their key was made with.
#[inline]
pub(crate) fn clmul64_on(p: Platform, x: u64, y: u64) -> u128 {
    #[cfg(target_arch = "x86_64")]
    if p.pclmul() {
        return clmul::clmul64(p, x, y);
    }
    #[cfg(target_arch = "aarch64")]
    if p.pmull() {
        return pmull::clmul64(p, x, y);
    }
    let _ = p;
    gf2::clmul64(x, y)
}

/// `a · b` in GF(2^64) by [`clmul64_on`].
#[inline]
pub(crate) fn mul_f_on(p: Platform, a: u64, b: u64) -> u64 {
    gf2::reduce_f(clmul64_on(p, a, b))
}

/// `a · b` in GF(2^128) (eval128's field) by [`clmul64_on`].
#[inline]
pub(crate) fn gf128_mul_on(p: Platform, a: u128, b: u128) -> u128 {
    gf128::mul_with(a, b, |x, y| clmul64_on(p, x, y))
}

/// The kernel of eval64 and division64 (the recurrence in `GF(2)[x]/(m)`,
/// `deg m = 64`, [`Ring64`]): chosen once, from the [`Platform`] evidence,
/// when the key is set up. Every backend is constant-time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RingBackend {
    /// Portable.
    Portable,
    /// PCLMULQDQ (the default where the CPU has it and lacks VPCLMULQDQ).
    #[cfg(target_arch = "x86_64")]
    Pclmul,
    /// VPCLMULQDQ on 256-bit registers with AVX2 (the default where the
    /// CPU has it).
    #[cfg(target_arch = "x86_64")]
    Vpclmul,
    /// PMULL on aarch64 (the default where the CPU has it).
    #[cfg(target_arch = "aarch64")]
    Pmull,
}

impl crate::platform::Backend for RingBackend {
    fn for_platform(p: Platform) -> RingBackend {
        #[cfg(target_arch = "x86_64")]
        {
            if p.vpclmul() && p.pclmul() {
                return RingBackend::Vpclmul;
            }
            if p.pclmul() {
                return RingBackend::Pclmul;
            }
        }
        #[cfg(target_arch = "aarch64")]
        if p.pmull() {
            return RingBackend::Pmull;
        }
        let _ = p;
        RingBackend::Portable
    }

    fn name(self) -> &'static str {
        match self {
            RingBackend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            RingBackend::Pclmul => crate::platform::Feature::Pclmul.name(),
            #[cfg(target_arch = "x86_64")]
            RingBackend::Vpclmul => crate::platform::Feature::Vpclmul.name(),
            #[cfg(target_arch = "aarch64")]
            RingBackend::Pmull => crate::platform::Feature::Pmull.name(),
        }
    }
}

/// The kernel of gdivision64 ([`GKey`]): chosen once, from the
/// [`Platform`] evidence, when the key is set up. Every backend is
/// constant-time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GBackend {
    /// Portable.
    Portable,
    /// PCLMULQDQ on Kronecker-spread polynomials.
    #[cfg(target_arch = "x86_64")]
    Pclmul,
    /// VPCLMULQDQ on 256-bit registers with AVX2.
    #[cfg(target_arch = "x86_64")]
    Vpclmul,
    /// GFNI with AVX2 (the default where the CPU has it).
    #[cfg(target_arch = "x86_64")]
    Gfni,
    /// NEON byte products (`vmull_p8`), aarch64.
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl crate::platform::Backend for GBackend {
    fn for_platform(p: Platform) -> GBackend {
        #[cfg(target_arch = "x86_64")]
        {
            if p.gfni() {
                return GBackend::Gfni;
            }
            if p.vpclmul() && p.pclmul() {
                return GBackend::Vpclmul;
            }
            if p.pclmul() {
                return GBackend::Pclmul;
            }
        }
        #[cfg(target_arch = "aarch64")]
        if p.has(crate::platform::Feature::Neon) {
            return GBackend::Neon;
        }
        let _ = p;
        GBackend::Portable
    }

    fn name(self) -> &'static str {
        match self {
            GBackend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            GBackend::Pclmul => crate::platform::Feature::Pclmul.name(),
            #[cfg(target_arch = "x86_64")]
            GBackend::Vpclmul => crate::platform::Feature::Vpclmul.name(),
            #[cfg(target_arch = "x86_64")]
            GBackend::Gfni => crate::platform::Feature::Gfni.name(),
            #[cfg(target_arch = "aarch64")]
            GBackend::Neon => crate::platform::Feature::Neon.name(),
        }
    }
}

/// **Non-constant-time, benchmark only**: the table methods of Shoup's paper
/// ([`Hasher::with_table`]).
#[cfg(feature = "unstable")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// eval64: §5 method 1 (`x^i α` in registers, a 0.5 KB reduction table);
    /// division64 / gdivision64: §6.1 method 1 (one 2 KB table).
    Method1,
    /// eval64: §5 method 2 (a 2 KB table of `v α`); division64 /
    /// gdivision64: §6.1 method 2 (four tables, 8 KB).
    Method2,
}

impl Ring64 {
    /// The powers of `β` and their folds, the products by [`clmul64_on`]
    /// under the evidence `p`.
    fn new(p: Platform, m: Modulus, beta: u64) -> Ring64 {
        let mut r = Ring64 {
            m,
            pow: [0; 33],
            fold: [0; 33],
        };
        let clmul = |x, y| clmul64_on(p, x, y);
        let mut x = 1u64;
        for k in 0..33 {
            r.pow[k] = x;
            r.fold[k] = r.m.reduce_with((x as u128) << 64, clmul);
            x = r.m.mul_with(x, beta, clmul);
        }
        r
    }
}

/// `division64-key(g)` (§6.2): the key polynomial's low 64 coefficients, by
/// constant-time Berlekamp–Massey (see `minpoly` for all three methods).
pub fn division64_key(g: &[u8; 8]) -> [u8; 8] {
    division64_key_on(Platform::detect(), u64::from_le_bytes(*g)).to_le_bytes()
}

/// [`division64_key`] with the products [`mul_f_on`] the evidence `p` allows.
pub(crate) fn division64_key_on(p: Platform, g: u64) -> u64 {
    minpoly::key_with(g, |a, b| mul_f_on(p, a, b))
}

/// `gdivision64-key(g)` (§7.2): the key polynomial's coefficients `c_0..c_7`.
pub fn gdivision64_key(g: &[u8; 8]) -> [u8; 8] {
    gdiv::key_poly(g)
}

/// A hasher's expanded key with the backend chosen for it from the
/// [`Platform`] evidence (kept beside it in [`Hasher`]), or a table method.
#[derive(Clone)]
enum Expanded {
    Eval(Box<Ring64>, RingBackend),
    Division(Box<Ring64>, RingBackend),
    G(Box<GKey>, GBackend),
    #[cfg(feature = "unstable")]
    EvalMethod1(Box<tables::EvalMethod1>),
    #[cfg(feature = "unstable")]
    EvalMethod2(Box<tables::EvalMethod2>),
    #[cfg(feature = "unstable")]
    OneTable(Box<tables::OneTable>),
    #[cfg(feature = "unstable")]
    FourTable(Box<tables::FourTable>),
}

impl Expanded {
    /// The key of `kind` expanded under the evidence `p`, with the backends
    /// `ring` (eval64, division64) or `g` (gdivision64) chosen from it.
    fn new(p: Platform, kind: Kind, key: &[u8; 8], ring: RingBackend, g: GBackend) -> Expanded {
        let x = u64::from_le_bytes(*key);
        match kind {
            Kind::Eval64 => Expanded::Eval(Box::new(Ring64::new(p, Modulus::new(F_LO), x)), ring),
            Kind::Division64 => {
                let m = Modulus::new(division64_key_on(p, x));
                let x64 = m.x64();
                Expanded::Division(Box::new(Ring64::new(p, m, x64)), ring)
            }
            Kind::GDivision64 => Expanded::G(
                Box::new(GKey::new(u64::from_le_bytes(gdiv::key_poly(key)))),
                g,
            ),
        }
    }

    #[cfg(feature = "unstable")]
    fn table(kind: Kind, method: Table, key: &[u8; 8]) -> Expanded {
        let g = u64::from_le_bytes(*key);
        match (kind, method) {
            (Kind::Eval64, Table::Method1) => {
                Expanded::EvalMethod1(Box::new(tables::EvalMethod1::new(g)))
            }
            (Kind::Eval64, Table::Method2) => {
                Expanded::EvalMethod2(Box::new(tables::EvalMethod2::new(g)))
            }
            (Kind::Division64, _) => {
                let m = Modulus::new(minpoly::key(g));
                let f = move |v: u64| m.reduce((v as u128) << 64);
                if method == Table::Method1 {
                    Expanded::OneTable(Box::new(tables::OneTable::new(f, false)))
                } else {
                    Expanded::FourTable(Box::new(tables::FourTable::new(f, false)))
                }
            }
            (Kind::GDivision64, _) => {
                let k = GKey::new(u64::from_le_bytes(gdiv::key_poly(key)));
                let f = |v: u64| k.times_z8(v);
                if method == Table::Method1 {
                    Expanded::OneTable(Box::new(tables::OneTable::new(f, true)))
                } else {
                    Expanded::FourTable(Box::new(tables::FourTable::new(f, true)))
                }
            }
        }
    }

    /// The name of the kernel.
    fn name(&self) -> &'static str {
        match self {
            Expanded::Eval(_, b) | Expanded::Division(_, b) => b.name(),
            Expanded::G(_, b) => b.name(),
            #[cfg(feature = "unstable")]
            Expanded::EvalMethod1(_) | Expanded::OneTable(_) => "table1-nonct",
            #[cfg(feature = "unstable")]
            Expanded::EvalMethod2(_) | Expanded::FourTable(_) => "table2-nonct",
        }
    }

    /// The state before any block: the implicit leading 1 (times `β` for the
    /// recurrences that fold the final multiplication in).
    fn init(&self) -> u128 {
        match self {
            Expanded::Eval(r, _) => r.pow[1] as u128,
            Expanded::Division(_, b) if *b == RingBackend::Portable => 1,
            Expanded::G(_, b) if *b == GBackend::Portable => 1,
            Expanded::Division(r, _) => r.pow[1] as u128,
            Expanded::G(k, _) => k.pow[1] as u128,
            #[cfg(feature = "unstable")]
            _ => 1,
        }
    }

    /// Absorb whole 8-byte blocks, on the backend chosen from `p`.
    fn blocks(&self, p: Platform, acc: u128, data: &[u8]) -> u128 {
        debug_assert_eq!(data.len() % 8, 0);
        let _ = p;
        match self {
            Expanded::Eval(r, RingBackend::Portable) => {
                portable::eval_blocks(r.pow[1], acc as u64, data) as u128
            }
            Expanded::Division(r, RingBackend::Portable) => {
                portable::division_blocks(&r.m, acc as u64, data) as u128
            }
            #[cfg(target_arch = "x86_64")]
            Expanded::Eval(r, RingBackend::Pclmul) | Expanded::Division(r, RingBackend::Pclmul) => {
                clmul::ring_blocks(p, r, acc, data)
            }
            #[cfg(target_arch = "x86_64")]
            Expanded::Eval(r, RingBackend::Vpclmul)
            | Expanded::Division(r, RingBackend::Vpclmul) => vpclmul::ring_blocks(p, r, acc, data),
            #[cfg(target_arch = "aarch64")]
            Expanded::Eval(r, RingBackend::Pmull) | Expanded::Division(r, RingBackend::Pmull) => {
                pmull::ring_blocks(p, r, acc, data)
            }
            Expanded::G(k, GBackend::Portable) => {
                portable::gdivision_blocks(k, acc as u64, data) as u128
            }
            #[cfg(target_arch = "x86_64")]
            Expanded::G(k, GBackend::Pclmul) => clmul::g_blocks(p, k, acc, data),
            #[cfg(target_arch = "x86_64")]
            Expanded::G(k, GBackend::Vpclmul) => vpclmul::g_blocks(p, k, acc, data),
            #[cfg(target_arch = "x86_64")]
            Expanded::G(k, GBackend::Gfni) => gfni::g_blocks(p, k, acc, data),
            #[cfg(target_arch = "aarch64")]
            Expanded::G(k, GBackend::Neon) => neon::g_blocks(p, k, acc, data),
            #[cfg(feature = "unstable")]
            Expanded::EvalMethod1(t) => tables::eval_blocks(|b| t.mul(b), acc as u64, data) as u128,
            #[cfg(feature = "unstable")]
            Expanded::EvalMethod2(t) => tables::eval_blocks(|b| t.mul(b), acc as u64, data) as u128,
            #[cfg(feature = "unstable")]
            Expanded::OneTable(t) => t.blocks(acc as u64, data) as u128,
            #[cfg(feature = "unstable")]
            Expanded::FourTable(t) => t.blocks(acc as u64, data) as u128,
        }
    }

    /// The state as a reduced value `V` with `V(a‖b) = V(a)·β^|b| + V(b)`
    /// (`|b|` in blocks) such that `V as u128` is again a state of this
    /// key: `finish(acc)` where `finish` only reduces, the state itself
    /// where `finish` multiplies by `β`. `None` for the table methods.
    fn norm(&self, p: Platform, acc: u128) -> Option<u64> {
        match self {
            Expanded::Division(_, b) if *b == RingBackend::Portable => Some(acc as u64),
            Expanded::G(_, b) if *b == GBackend::Portable => Some(acc as u64),
            Expanded::Eval(..) | Expanded::Division(..) | Expanded::G(..) => {
                Some(self.finish(p, acc))
            }
            #[cfg(feature = "unstable")]
            _ => None,
        }
    }

    /// `a · β^n` in the key's ring (`n` is public: a length), the products
    /// under the evidence `p`.
    fn times_beta_pow(&self, p: Platform, a: u64, n: u64) -> Option<u64> {
        let (mul, beta): (&dyn Fn(u64, u64) -> u64, u64) = match self {
            Expanded::Eval(r, _) | Expanded::Division(r, _) => (
                &|x, y| r.m.mul_with(x, y, |u, v| clmul64_on(p, u, v)),
                r.pow[1],
            ),
            Expanded::G(k, _) => (&|x, y| k.mulmod(x, y), k.pow[1]),
            #[cfg(feature = "unstable")]
            _ => return None,
        };
        Some(mul(a, pow_in(mul, beta, n)))
    }

    fn finish(&self, p: Platform, acc: u128) -> u64 {
        let _ = p;
        match self {
            Expanded::Eval(_, RingBackend::Portable) => acc as u64,
            Expanded::Division(r, RingBackend::Portable) => {
                portable::division_finish(&r.m, acc as u64)
            }
            #[cfg(target_arch = "x86_64")]
            Expanded::Eval(r, _) | Expanded::Division(r, _) => clmul::ring_finish(p, r, acc),
            #[cfg(target_arch = "aarch64")]
            Expanded::Eval(r, _) | Expanded::Division(r, _) => pmull::ring_finish(p, r, acc),
            Expanded::G(k, GBackend::Portable) => k.times_z8(acc as u64),
            #[cfg(target_arch = "x86_64")]
            Expanded::G(_, GBackend::Gfni) => acc as u64, // already reduced
            #[cfg(target_arch = "aarch64")]
            Expanded::G(_, GBackend::Neon) => acc as u64, // already reduced
            #[cfg(target_arch = "x86_64")]
            Expanded::G(k, GBackend::Pclmul | GBackend::Vpclmul) => {
                (acc as u64) ^ k.times_z8((acc >> 64) as u64)
            }
            #[cfg(feature = "unstable")]
            Expanded::EvalMethod1(t) => t.mul(acc as u64), // the final ·α: X = h·α
            #[cfg(feature = "unstable")]
            Expanded::EvalMethod2(t) => t.mul(acc as u64),
            #[cfg(feature = "unstable")]
            Expanded::OneTable(t) => t.finish(acc as u64),
            #[cfg(feature = "unstable")]
            Expanded::FourTable(t) => t.finish(acc as u64),
        }
    }
}

/// `beta^n` by square-and-multiply under `mul` (the exponent is a public
/// length; no branch depends on `beta`).
pub(crate) fn pow_in(mul: &dyn Fn(u64, u64) -> u64, beta: u64, mut n: u64) -> u64 {
    let (mut acc, mut b) = (1u64, beta);
    while n > 0 {
        if n & 1 == 1 {
            acc = mul(acc, b);
        }
        b = mul(b, b);
        n >>= 1;
    }
    acc
}

/// Streaming state of eval64, division64 or gdivision64: feed the message in
/// any chunking, then [`finalize`](Hasher::finalize). The expanded key is kept
/// across `finalize_reset`, so one `Hasher` serves any
/// number of messages under one key.
#[derive(Clone)]
pub struct Hasher {
    key: Expanded,
    /// The evidence the key's backend was chosen from (the kernels check it).
    platform: Platform,
    acc: u128,
    buf: [u8; 64],
    n: usize,
}

impl Hasher {
    /// With the fastest constant-time backend of this CPU
    /// ([`Platform::detect`]).
    pub fn new(kind: Kind, key: &[u8; 8]) -> Hasher {
        Self::new_on(Platform::detect(), kind, key)
    }

    /// With the fastest constant-time backend `platform` allows (tests and
    /// benchmarks pass each of `Platform::variants`).
    pub fn new_on(platform: Platform, kind: Kind, key: &[u8; 8]) -> Hasher {
        let (ring, g) = (
            RingBackend::for_platform(platform),
            GBackend::for_platform(platform),
        );
        Self::with_key(Expanded::new(platform, kind, key, ring, g), platform)
    }

    /// **Non-constant-time, benchmark only**: one of the paper's table
    /// methods, indexed by secret bytes (see [`Table`]).
    #[cfg(feature = "unstable")]
    pub fn with_table(kind: Kind, method: Table, key: &[u8; 8]) -> Hasher {
        Self::with_key(Expanded::table(kind, method, key), Platform::portable())
    }

    /// With the backends `ring` / `g` forced, on the hardware's evidence
    /// (which the kernels check): for the differential tests.
    #[cfg(test)]
    pub(crate) fn with_backends(
        kind: Kind,
        key: &[u8; 8],
        ring: RingBackend,
        g: GBackend,
    ) -> Hasher {
        let hw = Platform::hardware();
        Self::with_key(Expanded::new(hw, kind, key, ring, g), hw)
    }

    fn with_key(key: Expanded, platform: Platform) -> Hasher {
        let acc = key.init();
        Hasher {
            key,
            platform,
            acc,
            buf: [0; 64],
            n: 0,
        }
    }

    /// The kernel in use: `"portable"`, `"pclmul"`, `"vpclmul"` or (for
    /// gdivision64) `"gfni"`.
    pub fn backend(&self) -> &'static str {
        self.key.name()
    }

    /// The evidence this hasher's backend was chosen from, for callers that
    /// multiply in its field with [`mul_f_on`].
    pub(crate) fn platform(&self) -> Platform {
        self.platform
    }

    /// Absorb more of the message.
    pub fn update(&mut self, mut data: &[u8]) {
        if self.n > 0 {
            let take = (64 - self.n).min(data.len());
            self.buf[self.n..self.n + take].copy_from_slice(&data[..take]);
            self.n += take;
            data = &data[take..];
            if self.n < 64 {
                return;
            }
            self.acc = self.key.blocks(self.platform, self.acc, &self.buf);
            self.n = 0;
        }
        let whole = data.len() - data.len() % 64;
        if whole > 0 {
            self.acc = self.blocks_bulk(self.acc, &data[..whole]);
        }
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.n = rest.len();
    }

    /// Absorb whole 64-byte runs: split across the threads the application
    /// allows ([`crate::threads`]) from [`crate::threads::PARALLEL_MIN`]
    /// bytes on, each piece hashed from zero and joined with
    /// `V(a‖b) = V(a)·β^|b| + V(b)`.
    fn blocks_bulk(&self, acc: u128, data: &[u8]) -> u128 {
        if !crate::threads::parallel(data.len(), crate::threads::parallel_min()) {
            return self.key.blocks(self.platform, acc, data);
        }
        let pieces = crate::threads::split(data.len(), 64, crate::threads::parallel_min());
        let Some(mut v) = (pieces.len() >= 2)
            .then(|| self.key.norm(self.platform, acc))
            .flatten()
        else {
            return self.key.blocks(self.platform, acc, data);
        };
        let values = crate::threads::map(&pieces, |r| {
            self.key.norm(
                self.platform,
                self.key.blocks(self.platform, 0, &data[r.clone()]),
            )
        });
        for (pv, r) in values.into_iter().zip(&pieces) {
            let (Some(pv), Some(shifted)) = (
                pv,
                self.key
                    .times_beta_pow(self.platform, v, (r.len() / 8) as u64),
            ) else {
                unreachable!("norm is Some for this key")
            };
            v = shifted ^ pv;
        }
        v as u128
    }

    /// For [`crate::partial`]: the value of one piece of a message hashed on
    /// its own, `Σ b_i β^(l−i)` over its `l` blocks (the blocks of
    /// `pad(piece, 8)` when `pad`), plus `β^(l+1)` for the piece that starts
    /// the message (`first`: the implicit leading 1). `β` is `α` for eval64,
    /// `x^64 mod p` for division64, `z^8 mod P` for gdivision64. Without
    /// `pad`, `piece.len()` must be a multiple of 8. The state is not used.
    pub(crate) fn piece_value(&self, piece: &[u8], first: bool, pad: bool) -> u64 {
        let mut acc = if first { self.key.init() } else { 0 };
        let whole = piece.len() - piece.len() % 64;
        if whole > 0 {
            acc = self.blocks_bulk(acc, &piece[..whole]);
        }
        let rest = &piece[whole..];
        let mut last = [0u8; 72];
        last[..rest.len()].copy_from_slice(rest);
        let len = if pad {
            last[rest.len()] = 1;
            (rest.len() + 8) & !7
        } else {
            rest.len()
        };
        if len > 0 {
            acc = self.key.blocks(self.platform, acc, &last[..len]);
        }
        last.zeroize();
        let h = self.key.finish(self.platform, acc);
        acc.zeroize();
        h
    }

    /// The 8-byte hash of everything absorbed (`pad(M, 8)` applied here).
    pub fn finalize(mut self) -> [u8; 8] {
        self.finalize_reset()
    }

    /// The hash of the whole 8-byte blocks absorbed, without `pad(M, 8)` (the
    /// blocks as given, with the implicit leading 1: the `universal_hash`
    /// interface, whose caller pads); `None` if a partial block is left.
    pub fn finalize_unpadded(mut self) -> Option<[u8; 8]> {
        if !self.n.is_multiple_of(8) {
            return None;
        }
        let acc = if self.n == 0 {
            self.acc
        } else {
            self.key
                .blocks(self.platform, self.acc, &self.buf[..self.n])
        };
        self.buf.zeroize();
        Some(self.key.finish(self.platform, acc).to_le_bytes())
    }

    /// The hash of the whole message `msg` under this `Hasher`'s key (the
    /// state absorbed so far is neither used nor changed): no copy of the
    /// expanded key, the message read in place, one padded last block;
    /// split across threads as [`update`](Self::update) is.
    pub fn hash(&self, msg: &[u8]) -> [u8; 8] {
        let whole = msg.len() / 64 * 64;
        let mut acc = self.key.init();
        if whole > 0 {
            acc = self.blocks_bulk(acc, &msg[..whole]);
        }
        let rest = &msg[whole..];
        let mut last = [0u8; 64];
        last[..rest.len()].copy_from_slice(rest);
        last[rest.len()] = 1; // pad(M, 8)
        let len = (rest.len() + 8) & !7;
        let acc = self.key.blocks(self.platform, acc, &last[..len]);
        // Only the first `len` bytes ever held message bytes.
        last[..len].zeroize();
        self.key.finish(self.platform, acc).to_le_bytes()
    }

    /// The hash of everything absorbed; then start over under the same key.
    pub fn finalize_reset(&mut self) -> [u8; 8] {
        let mut last = [0u8; 64];
        last[..self.n].copy_from_slice(&self.buf[..self.n]);
        last[self.n] = 1; // pad(M, 8): 0x01, then zeros to a multiple of 8
        let len = (self.n + 8) & !7;
        let acc = self.key.blocks(self.platform, self.acc, &last[..len]);
        let h = self.key.finish(self.platform, acc);
        last.zeroize();
        self.buf.zeroize();
        self.acc = self.key.init();
        self.n = 0;
        h.to_le_bytes()
    }
}

impl Drop for Hasher {
    fn drop(&mut self) {
        self.acc.zeroize();
        self.buf.zeroize();
    }
}

/// One-shot hash with the default backend.
pub fn hash(kind: Kind, key: &[u8; 8], msg: &[u8]) -> [u8; 8] {
    Hasher::new(kind, key).hash(msg)
}
