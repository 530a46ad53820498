//! Shoup's hash functions (*On Fast and Provably Secure Message Authentication
//! Based on Universal Hashing*, CRYPTO 1996; the wire format, docs/WIRE.md §5), each with an 8-byte key and
//! an 8-byte output:
//!
//! * `eval64` — the evaluation hash `M(α)·α` over `GF(2^64) = GF(2)[x]/(f)`,
//!   `f = x^64 + x^4 + x^3 + x + 1` (§5);
//! * `division64` — the division hash `m(x)·x^64 mod p` (§6), `p` the key
//!   polynomial `division64-key(g)`: the minimal polynomial of a random
//!   `g ∈ GF(2^64)` (§6.2, [`minpoly`]);
//! * `gdivision64` — the generalized division hash over `K = GF(2^8)` (§7), key
//!   `gdivision64-key(g)`: the minimal polynomial over K of a random `g ∈ L`,
//!   `L = K[y]/(y^8 + y^3 + y + 0x0E)` (§7.2, [`gdiv`]);
//! * `eval128` (docs/WIRE.md §5) — the evaluation hash with `l = 128`, 16-byte key and
//!   output, over `GF(2^128) = GF(2)[x]/(x^128 + x^7 + x^2 + x + 1)` ([`eval128`]).
//!
//! The three 64-bit hashes are Horner recurrences over 8-byte blocks of `pad(M, 8)` with an
//! implicit leading 1, computed with many blocks aggregated per step over
//! precomputed powers of the multiplier (see `clmul`). Each has a portable
//! constant-time path (backend `portable`) and constant-time SIMD paths
//! chosen at run time from a [`Platform`] (`clmul`, `vpclmul`, and for
//! gdivision64 `gfni`; [`Hasher::backend`] names the one in use); the paper's table methods are there as
//! non-constant-time benchmark variants (`Backend::Table1`, `Backend::Table2`,
//! with the `reference` feature only).
//!
//! Forgery bounds (§4): for messages of at most `n` blocks (the implicit leading
//! block counted), eval64 is `ε`-AXU with `ε ≤ n/2^64`, division64 with
//! `ε ≤ 64n/2^64` and gdivision64 with `ε ≤ 8n/2^64` (a difference polynomial of
//! degree ≤ 64n has at most that many roots `g`, whatever the key polynomial's
//! degree: the fallback keys included; checked exhaustively at `l = 8` in
//! `tests/shoup_bounds.rs`).

use crate::prelude::*;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::platform::Platform;
use crate::spec::{Entry, Info, KeySpec, Keyed, Params, Stream};
use crate::error::Error;

#[cfg(target_arch = "x86_64")]
mod clmul;
#[cfg(target_arch = "x86_64")]
mod gfni;
#[cfg(target_arch = "x86_64")]
mod vpclmul;
#[cfg(target_arch = "x86_64")]
mod vpclmul512;
pub mod eval128;
pub mod gdiv;
pub mod gf128;
pub mod gf2;
pub mod minpoly;
pub mod portable;
#[cfg(feature = "reference")]
pub mod tables;

use gdiv::GKey;
use gf2::{Modulus, F_LO};

/// Which of Shoup's three hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The evaluation hash over GF(2^64) (§5).
    Eval64,
    /// The division hash over GF(2) with a degree-64 key polynomial (§6).
    Division64,
    /// The generalized division hash over GF(2^8) (§7).
    GDivision64,
}

/// How the hash is computed (private: chosen from a [`Platform`], the only
/// evidence of CPU features). Every backend is constant-time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// Portable (the fallback of every name).
    Portable,
    /// PCLMULQDQ (the default where the CPU has it and lacks VPCLMULQDQ).
    Clmul,
    /// VPCLMULQDQ on 256-bit registers with AVX2 (the default where the CPU
    /// has it, except gdivision64 with GFNI).
    Vpclmul,
    /// GFNI with AVX2: gdivision64 only (its default where the CPU has it).
    Gfni,
    /// VPCLMULQDQ on 512-bit registers with AVX-512F: eval128 only (its
    /// default where the CPU has it).
    Vpclmul512,
}

impl Backend {
    /// The fastest backend `p` proves this CPU can run for `kind`.
    pub(crate) fn for_platform(p: Platform, kind: Kind) -> Backend {
        if !cfg!(target_arch = "x86_64") {
            Backend::Portable
        } else if kind == Kind::GDivision64 && p.gfni() {
            Backend::Gfni
        } else if p.vpclmul() && p.pclmul() {
            Backend::Vpclmul
        } else if p.pclmul() {
            Backend::Clmul
        } else {
            Backend::Portable
        }
    }

    /// A short name, e.g. `"vpclmul"`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Clmul => "clmul",
            Backend::Vpclmul => "vpclmul",
            Backend::Gfni => "gfni",
            Backend::Vpclmul512 => "vpclmul512",
        }
    }
}

/// **Non-constant-time, benchmark only**: the table methods of Shoup's paper
/// ([`Hasher::with_table`]).
#[cfg(feature = "reference")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// eval64: §5 method 1 (`x^i α` in registers, a 0.5 KB reduction table);
    /// division64 / gdivision64: §6.1 method 1 (one 2 KB table).
    Method1,
    /// eval64: §5 method 2 (a 2 KB table of `v α`); division64 /
    /// gdivision64: §6.1 method 2 (four tables, 8 KB).
    Method2,
}

/// The expanded key of a Horner recurrence in `GF(2)[x]/(m)`, `deg m = 64`:
/// `X ← X·β^N + Σ b_j β^(N−j)` (eval64: `m = f`, `β = α`; division64: `m = p`,
/// `β = x^64 mod p`).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct Ring64 {
    /// The modulus and its Barrett constant.
    pub(crate) m: Modulus,
    /// `β^k mod m`, `k = 0..32`.
    pub(crate) pow: [u64; 33],
    /// `x^64 β^k mod m`.
    pub(crate) fold: [u64; 33],
}

impl Ring64 {
    fn new(m: Modulus, beta: u64) -> Ring64 {
        let mut r = Ring64 { m, pow: [0; 33], fold: [0; 33] };
        let mut p = 1u64;
        for k in 0..33 {
            r.pow[k] = p;
            r.fold[k] = r.m.reduce((p as u128) << 64);
            p = r.m.mul(p, beta);
        }
        r
    }
}

/// `division64-key(g)` (§6.2): the key polynomial's low 64 coefficients, by
/// constant-time Berlekamp–Massey (see [`minpoly`] for all three methods).
pub fn division64_key(g: &[u8; 8]) -> [u8; 8] {
    minpoly::key(u64::from_le_bytes(*g)).to_le_bytes()
}

/// `gdivision64-key(g)` (§7.2): the key polynomial's coefficients `c_0..c_7`.
pub fn gdivision64_key(g: &[u8; 8]) -> [u8; 8] {
    gdiv::key_poly(g)
}

#[derive(Clone)]
enum Engine {
    EvalPortable(Box<Ring64>),
    DivisionPortable(Box<Ring64>),
    RingClmul(Box<Ring64>),
    RingVpclmul(Box<Ring64>),
    GPortable(Box<GKey>),
    GClmul(Box<GKey>),
    GVpclmul(Box<GKey>),
    GGfni(Box<GKey>),
    #[cfg(feature = "reference")]
    EvalMethod1(Box<tables::EvalMethod1>),
    #[cfg(feature = "reference")]
    EvalMethod2(Box<tables::EvalMethod2>),
    #[cfg(feature = "reference")]
    OneTable(Box<tables::OneTable>),
    #[cfg(feature = "reference")]
    FourTable(Box<tables::FourTable>),
}

impl Engine {
    fn new(kind: Kind, backend: Backend, key: &[u8; 8]) -> Engine {
        let g = u64::from_le_bytes(*key);
        let ring = || match kind {
            Kind::Eval64 => Box::new(Ring64::new(Modulus::new(F_LO), g)),
            _ => {
                let m = Modulus::new(minpoly::key(g));
                let x64 = m.x64();
                Box::new(Ring64::new(m, x64))
            }
        };
        let gkey = || Box::new(GKey::new(u64::from_le_bytes(gdiv::key_poly(key))));
        match (kind, backend) {
            (Kind::Eval64, Backend::Portable) => Engine::EvalPortable(ring()),
            (Kind::Division64, Backend::Portable) => Engine::DivisionPortable(ring()),
            (Kind::Eval64 | Kind::Division64, Backend::Clmul) => Engine::RingClmul(ring()),
            (Kind::GDivision64, Backend::Portable) => Engine::GPortable(gkey()),
            (Kind::GDivision64, Backend::Clmul) => Engine::GClmul(gkey()),
            (Kind::Eval64 | Kind::Division64, Backend::Vpclmul) => Engine::RingVpclmul(ring()),
            (Kind::GDivision64, Backend::Vpclmul) => Engine::GVpclmul(gkey()),
            (Kind::GDivision64, Backend::Gfni) => Engine::GGfni(gkey()),
            (_, Backend::Gfni | Backend::Vpclmul512) => unreachable!("Backend::for_platform never picks these here"),
        }
    }

    #[cfg(feature = "reference")]
    fn table(kind: Kind, method: Table, key: &[u8; 8]) -> Engine {
        let g = u64::from_le_bytes(*key);
        match (kind, method) {
            (Kind::Eval64, Table::Method1) => Engine::EvalMethod1(Box::new(tables::EvalMethod1::new(g))),
            (Kind::Eval64, Table::Method2) => Engine::EvalMethod2(Box::new(tables::EvalMethod2::new(g))),
            (Kind::Division64, _) => {
                let m = Modulus::new(minpoly::key(g));
                let f = move |v: u64| m.reduce((v as u128) << 64);
                if method == Table::Method1 {
                    Engine::OneTable(Box::new(tables::OneTable::new(f, false)))
                } else {
                    Engine::FourTable(Box::new(tables::FourTable::new(f, false)))
                }
            }
            (Kind::GDivision64, _) => {
                let k = GKey::new(u64::from_le_bytes(gdiv::key_poly(key)));
                let f = |v: u64| k.times_z8(v);
                if method == Table::Method1 {
                    Engine::OneTable(Box::new(tables::OneTable::new(f, true)))
                } else {
                    Engine::FourTable(Box::new(tables::FourTable::new(f, true)))
                }
            }
        }
    }

    /// The name of the kernel.
    fn name(&self) -> &'static str {
        match self {
            Engine::EvalPortable(_) | Engine::DivisionPortable(_) | Engine::GPortable(_) => "portable",
            Engine::RingClmul(_) | Engine::GClmul(_) => "clmul",
            Engine::RingVpclmul(_) | Engine::GVpclmul(_) => "vpclmul",
            Engine::GGfni(_) => "gfni",
            #[cfg(feature = "reference")]
            Engine::EvalMethod1(_) | Engine::OneTable(_) => "table1-nonct",
            #[cfg(feature = "reference")]
            Engine::EvalMethod2(_) | Engine::FourTable(_) => "table2-nonct",
        }
    }

    /// The state before any block: the implicit leading 1 (times `β` for the
    /// recurrences that fold the final multiplication in).
    fn init(&self) -> u128 {
        match self {
            Engine::EvalPortable(r) | Engine::RingClmul(r) | Engine::RingVpclmul(r) => r.pow[1] as u128,
            Engine::GClmul(k) | Engine::GVpclmul(k) | Engine::GGfni(k) => k.pow[1] as u128,
            _ => 1,
        }
    }

    /// Absorb whole 8-byte blocks.
    fn blocks(&self, acc: u128, data: &[u8]) -> u128 {
        debug_assert_eq!(data.len() % 8, 0);
        match self {
            Engine::EvalPortable(r) => portable::eval_blocks(r.pow[1], acc as u64, data) as u128,
            Engine::DivisionPortable(r) => portable::division_blocks(&r.m, acc as u64, data) as u128,
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the engine exists only if the Platform (detection's evidence) had PCLMULQDQ.
            Engine::RingClmul(r) => unsafe { clmul::ring_blocks(r, acc, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Engine::GClmul(k) => unsafe { clmul::g_blocks(k, acc, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the engine exists only if the Platform had VPCLMULQDQ, PCLMULQDQ and AVX2.
            Engine::RingVpclmul(r) => unsafe { vpclmul::ring_blocks(r, acc, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Engine::GVpclmul(k) => unsafe { vpclmul::g_blocks(k, acc, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the engine exists only if the Platform had GFNI and AVX2.
            Engine::GGfni(k) => unsafe { gfni::g_blocks(k, acc, data) },
            #[cfg(not(target_arch = "x86_64"))]
            Engine::RingClmul(_)
            | Engine::GClmul(_)
            | Engine::RingVpclmul(_)
            | Engine::GVpclmul(_)
            | Engine::GGfni(_) => {
                unreachable!("no carry-less engine off x86-64")
            }
            Engine::GPortable(k) => portable::gdivision_blocks(k, acc as u64, data) as u128,
            #[cfg(feature = "reference")]
            Engine::EvalMethod1(t) => tables::eval_blocks(|b| t.mul(b), acc as u64, data) as u128,
            #[cfg(feature = "reference")]
            Engine::EvalMethod2(t) => tables::eval_blocks(|b| t.mul(b), acc as u64, data) as u128,
            #[cfg(feature = "reference")]
            Engine::OneTable(t) => t.blocks(acc as u64, data) as u128,
            #[cfg(feature = "reference")]
            Engine::FourTable(t) => t.blocks(acc as u64, data) as u128,
        }
    }

    /// The state as a reduced value `V` with `V(a‖b) = V(a)·β^|b| + V(b)`
    /// (`|b|` in blocks) such that `V as u128` is again a state of this
    /// engine: `finish(acc)` where `finish` only reduces, the state itself
    /// where `finish` multiplies by `β`. `None` for the table methods.
    fn norm(&self, acc: u128) -> Option<u64> {
        match self {
            Engine::DivisionPortable(_) | Engine::GPortable(_) => Some(acc as u64),
            Engine::EvalPortable(_)
            | Engine::RingClmul(_)
            | Engine::RingVpclmul(_)
            | Engine::GClmul(_)
            | Engine::GVpclmul(_)
            | Engine::GGfni(_) => Some(self.finish(acc)),
            #[cfg(feature = "reference")]
            _ => None,
        }
    }

    /// `a · β^n` in the engine's ring (`n` is public: a length).
    fn times_beta_pow(&self, a: u64, n: u64) -> Option<u64> {
        let (mul, beta): (&dyn Fn(u64, u64) -> u64, u64) = match self {
            Engine::EvalPortable(r)
            | Engine::DivisionPortable(r)
            | Engine::RingClmul(r)
            | Engine::RingVpclmul(r) => (&|x, y| r.m.mul(x, y), r.pow[1]),
            Engine::GPortable(k) | Engine::GClmul(k) | Engine::GVpclmul(k) | Engine::GGfni(k) => {
                (&|x, y| k.mulmod(x, y), k.pow[1])
            }
            #[cfg(feature = "reference")]
            _ => return None,
        };
        Some(mul(a, pow_in(mul, beta, n)))
    }

    fn finish(&self, acc: u128) -> u64 {
        match self {
            Engine::EvalPortable(_) => acc as u64,
            Engine::DivisionPortable(r) => portable::division_finish(&r.m, acc as u64),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the engine exists only if the Platform (detection's evidence) had PCLMULQDQ.
            Engine::RingClmul(r) | Engine::RingVpclmul(r) => unsafe { clmul::ring_finish(r, acc) },
            #[cfg(not(target_arch = "x86_64"))]
            Engine::RingClmul(_) | Engine::RingVpclmul(_) => unreachable!("no carry-less engine off x86-64"),
            Engine::GClmul(k) | Engine::GVpclmul(k) => (acc as u64) ^ k.times_z8((acc >> 64) as u64),
            Engine::GGfni(_) => acc as u64, // already reduced
            Engine::GPortable(k) => k.times_z8(acc as u64),
            #[cfg(feature = "reference")]
            Engine::EvalMethod1(t) => t.mul(acc as u64), // the final ·α: X = h·α
            #[cfg(feature = "reference")]
            Engine::EvalMethod2(t) => t.mul(acc as u64),
            #[cfg(feature = "reference")]
            Engine::OneTable(t) => t.finish(acc as u64),
            #[cfg(feature = "reference")]
            Engine::FourTable(t) => t.finish(acc as u64),
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
/// across [`finalize_reset`](Hasher::finalize_reset), so one `Hasher` serves any
/// number of messages under one key.
#[derive(Clone)]
pub struct Hasher {
    engine: Engine,
    acc: u128,
    buf: [u8; 64],
    n: usize,
}

impl Hasher {
    /// With the fastest constant-time backend of this CPU
    /// ([`Hasher::new_on`] with [`Platform::detect`]).
    pub fn new(kind: Kind, key: &[u8; 8]) -> Hasher {
        Self::new_on(Platform::detect(), kind, key)
    }

    /// With the fastest constant-time backend `platform` allows (tests and
    /// benchmarks pass each of [`Platform::variants`]).
    pub fn new_on(platform: Platform, kind: Kind, key: &[u8; 8]) -> Hasher {
        Self::with_engine(Engine::new(kind, Backend::for_platform(platform, kind), key))
    }

    /// **Non-constant-time, benchmark only**: one of the paper's table
    /// methods, indexed by secret bytes (see [`Table`]).
    #[cfg(feature = "reference")]
    pub fn with_table(kind: Kind, method: Table, key: &[u8; 8]) -> Hasher {
        Self::with_engine(Engine::table(kind, method, key))
    }

    fn with_engine(engine: Engine) -> Hasher {
        let acc = engine.init();
        Hasher { engine, acc, buf: [0; 64], n: 0 }
    }

    /// The kernel in use, e.g. `"portable"`, `"clmul"`, `"vpclmul"`, `"gfni"`.
    pub fn backend(&self) -> &'static str {
        self.engine.name()
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
            self.acc = self.engine.blocks(self.acc, &self.buf);
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
        if !crate::threads::parallel(data.len(), crate::threads::PARALLEL_MIN) {
            return self.engine.blocks(acc, data);
        }
        let pieces = crate::threads::split(data.len(), 64, crate::threads::PARALLEL_MIN);
        let Some(mut v) = (pieces.len() >= 2).then(|| self.engine.norm(acc)).flatten() else {
            return self.engine.blocks(acc, data);
        };
        let values = crate::threads::map(&pieces, |r| self.engine.norm(self.engine.blocks(0, &data[r.clone()])));
        for (pv, r) in values.into_iter().zip(&pieces) {
            let (Some(pv), Some(shifted)) = (pv, self.engine.times_beta_pow(v, (r.len() / 8) as u64)) else {
                unreachable!("norm is Some for this engine")
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
        let mut acc = if first { self.engine.init() } else { 0 };
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
            acc = self.engine.blocks(acc, &last[..len]);
        }
        last.zeroize();
        let h = self.engine.finish(acc);
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
        let acc = if self.n == 0 { self.acc } else { self.engine.blocks(self.acc, &self.buf[..self.n]) };
        self.buf.zeroize();
        Some(self.engine.finish(acc).to_le_bytes())
    }

    /// The hash of the whole message `msg` under this `Hasher`'s key (the
    /// state absorbed so far is neither used nor changed): no copy of the
    /// expanded key, the message read in place, one padded last block;
    /// split across threads as [`update`](Self::update) is.
    pub fn hash(&self, msg: &[u8]) -> [u8; 8] {
        let whole = msg.len() / 64 * 64;
        let mut acc = self.engine.init();
        if whole > 0 {
            acc = self.blocks_bulk(acc, &msg[..whole]);
        }
        let rest = &msg[whole..];
        let mut last = [0u8; 64];
        last[..rest.len()].copy_from_slice(rest);
        last[rest.len()] = 1; // pad(M, 8)
        let len = (rest.len() + 8) & !7;
        let acc = self.engine.blocks(acc, &last[..len]);
        // Only the first `len` bytes ever held message bytes.
        last[..len].zeroize();
        self.engine.finish(acc).to_le_bytes()
    }

    /// The hash of everything absorbed; then start over under the same key.
    pub fn finalize_reset(&mut self) -> [u8; 8] {
        let mut last = [0u8; 64];
        last[..self.n].copy_from_slice(&self.buf[..self.n]);
        last[self.n] = 1; // pad(M, 8): 0x01, then zeros to a multiple of 8
        let len = (self.n + 8) & !7;
        let acc = self.engine.blocks(self.acc, &last[..len]);
        let h = self.engine.finish(acc);
        last.zeroize();
        self.buf.zeroize();
        self.acc = self.engine.init();
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

/// `eval64(alpha, M)`.
pub fn eval64(alpha: &[u8; 8], msg: &[u8]) -> [u8; 8] {
    hash(Kind::Eval64, alpha, msg)
}

/// `division64(g, M)`.
pub fn division64(g: &[u8; 8], msg: &[u8]) -> [u8; 8] {
    hash(Kind::Division64, g, msg)
}

/// `gdivision64(g, M)`.
pub fn gdivision64(g: &[u8; 8], msg: &[u8]) -> [u8; 8] {
    hash(Kind::GDivision64, g, msg)
}

struct HashStream(Hasher);

impl Stream for HashStream {
    fn try_clone(&self) -> Option<Box<dyn Stream>> {
        Some(Box::new(HashStream(self.0.clone())))
    }
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.finalize().to_vec())
    }
}

/// A `-key` name: the output depends on the key only; the message is ignored.
/// Key material: wiped on drop.
#[derive(zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
struct KeyStream([u8; 8]);

impl Stream for KeyStream {
    fn update(&mut self, _data: &[u8]) {}
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.to_vec())
    }
}

/// `eval64` / `division64` / `gdivision64` under one key: the key set-up
/// (the minimal polynomial and its tables) is done once; every message starts
/// from a copy of the empty hasher.
struct KeyedHasher(Hasher);

impl Keyed for KeyedHasher {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(HashStream(self.0.clone())))
    }
    fn compute(&self, _nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(self.0.hash(msg).to_vec())
    }
    fn compute_into(&self, _nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        crate::spec::put(out, self.0.hash(msg).as_ref())
    }
}

/// A `-key` name under one key: its output, computed once.
#[derive(zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
struct KeyedKey([u8; 8]);

impl Keyed for KeyedKey {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(KeyStream(self.0)))
    }
}

fn key8(p: &Params<'_>) -> Result<[u8; 8], Error> {
    p.key.try_into().map_err(|_| Error::Invalid(format!("key must be 8 bytes, got {}", p.key.len())))
}

fn info(name: &str, summary: &str) -> Info {
    Info { name: name.into(), key: KeySpec::Fixed(8), nonce: 0, out: 8, takes_len: false, summary: summary.into() }
}

pub(crate) fn catalog() -> Vec<Entry> {
    vec![
        Entry::keyed(
            info("eval64", "Shoup's evaluation hash M(alpha)*alpha over GF(2^64), pad(M, 8) (docs/WIRE.md §5)"),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedHasher(Hasher::new(Kind::Eval64, &key8(p)?))))
            },
        ),
        Entry::keyed(
            info(
                "division64-key",
                "the division hash's key polynomial: minimal polynomial of g in GF(2^64) (docs/WIRE.md §5); ignores the message",
            ),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedKey(division64_key(&key8(p)?))))
            },
        ),
        Entry::keyed(
            info("division64", "Shoup's division hash m(x)*x^64 mod p, p = division64-key(g) (docs/WIRE.md §5)"),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedHasher(Hasher::new(Kind::Division64, &key8(p)?))))
            },
        ),
        Entry::keyed(
            info(
                "gdivision64-key",
                "the generalized division hash's key: minimal polynomial over GF(2^8) of g (docs/WIRE.md §5); ignores the message",
            ),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedKey(gdivision64_key(&key8(p)?))))
            },
        ),
        Entry::keyed(
            info("gdivision64", "Shoup's generalized division hash over GF(2^8), P = gdivision64-key(g) (docs/WIRE.md §5)"),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedHasher(Hasher::new(Kind::GDivision64, &key8(p)?))))
            },
        ),
        eval128::entry(),
    ]
}
