//! Which implementation of hash127 runs: the backends and the choice among
//! them from the CPU's evidence.

use super::*;

/// An implementation of hash127. All give identical results;
/// [`Backend::for_platform`] picks the fastest the evidence allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// Exact `u128` arithmetic mod `p`, no floating point.
    Portable,
    /// The paper's 64-bit variant alone: radix-`2^26` limbs in `i64`, no
    /// floating point. Not picked by [`Backend::for_platform`] (the
    /// `Portable` backend uses its kernel for bulk data, and the `u128` one
    /// and the short path where they are faster); reached through
    /// [`hash127_int26`].
    Int26,
    /// The paper's 53-bit floating-point method, four lanes of AVX2 with FMA.
    Avx2Fma,
    /// The same method on eight lanes of AVX-512F (512-bit FMAs).
    Avx512,
    /// `int26.rs`'s radix-`2^26` limbs on eight lanes of AVX-512F
    /// (`vpmuldq`): five multiplies per 32 bytes instead of eight FMAs.
    Avx512Int,
    /// The portable backend with the radix-`2^26` columns of full blocks in
    /// NEON lanes (`neon.rs`, aarch64).
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl crate::platform::Backend for Backend {
    fn for_platform(p: Platform) -> Backend {
        if cfg!(target_arch = "x86_64") && p.avx512() && p.avx2_fma() {
            if integer_lanes_pay() {
                Backend::Avx512Int
            } else {
                Backend::Avx512
            }
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
            Backend::Int26 => "int26",
            Backend::Avx2Fma => "avx2fma",
            Backend::Avx512 => "avx512",
            Backend::Avx512Int => "avx512-int26",
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => crate::platform::Feature::Neon.name(),
        }
    }
}

/// Whether this CPU's AVX-512 backend should be the integer one
/// (`avx512i.rs`) rather than the floating-point one (`avx512.rs`). Both are
/// exact and give the same results; the choice is speed only. The integer
/// columns take 5 multiplies and 5 adds per 32 bytes, the floating-point
/// ones 8 fused multiply-adds: where vector adds issue on pipes beside the
/// multipliers (AMD's Zen 4 and Zen 5 have four vector pipes), the integer
/// columns are ahead (Zen 4: 0.15 against 0.21 TSC cycles a byte,
/// docs/perf/hash127.md); where 512-bit adds and multiplies share two ports
/// (Intel's AVX-512 cores), the fused form issues fewer operations. Read
/// once from the CPU's vendor string (`cpuid` leaf 0) and cached.
pub(super) fn integer_lanes_pay() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use core::sync::atomic::AtomicU8;
        static AMD: AtomicU8 = AtomicU8::new(0);
        match AMD.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let id = core::arch::x86_64::__cpuid(0);
                let amd = (id.ebx, id.edx, id.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163) // "AuthenticAMD"
                    || (id.ebx, id.edx, id.ecx) == (0x6f67_7948, 0x6e65_476e, 0x656e_6975); // "HygonGenuine"
                AMD.store(1 + amd as u8, Ordering::Relaxed);
                amd
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

impl Backend {
    /// The backends of the portable state (`Acc::Portable` / `Acc::Int26`):
    /// no floating-point table to build.
    pub(super) fn is_portable(self) -> bool {
        #[cfg(target_arch = "aarch64")]
        if self == Backend::Neon {
            return true;
        }
        matches!(self, Backend::Portable | Backend::Int26)
    }

    /// The backend for a one-shot message of `len` bytes when `self` is the
    /// detected one: below [`AVX512_MIN`] bytes the four-lane AVX2 backend
    /// is faster than the eight-lane one (half the state to set up, squeeze
    /// and sum across lanes; the dot product is too short to gain).
    pub(super) fn for_len(self, len: usize) -> Backend {
        if self == Backend::Avx512 && len < AVX512_MIN {
            Backend::Avx2Fma
        } else {
            self
        }
    }
}
