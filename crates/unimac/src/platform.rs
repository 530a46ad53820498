//! Run-time CPU feature detection, in exactly one place.
//!
//! Every family with a fast path asks [`Platform::detect`] which instruction
//! sets it may use; the answer is computed once and cached, so dispatch costs
//! one relaxed load. Setting the environment variable `UNIMAC_FORCE_PORTABLE`
//! to anything non-empty forces the portable paths (useful to test and
//! benchmark both on one machine).

use std::sync::atomic::{AtomicU8, Ordering};

/// The instruction sets unimac's fast paths use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Platform {
    /// AVX2 and FMA (the floating-point and vpmuludq paths).
    pub avx2_fma: bool,
    /// PCLMULQDQ with SSE4.1 (carry-less multiplication for Shoup's hashes).
    pub pclmul: bool,
    /// VPCLMULQDQ on 256-bit registers with AVX2 (two carry-less products per
    /// instruction; Shoup's hashes).
    pub vpclmul: bool,
    /// GFNI with AVX2 (GF(2^8) byte multiplication, `vgf2p8mulb`, for the
    /// generalized division hash).
    pub gfni: bool,
    /// AVX-512F (512-bit vpmuludq for MMH/NMH; 512-bit FMAs for hash127).
    pub avx512: bool,
    /// AVX-512 IFMA52 with AVX-512F (`vpmadd52luq/huq`: exact 52-bit
    /// multiply-adds, Square Hash's exact-sum variants).
    pub avx512ifma: bool,
}

const UNKNOWN: u8 = 0x80;
static CACHE: AtomicU8 = AtomicU8::new(UNKNOWN);

impl Platform {
    /// The portable platform: no fast path at all.
    pub const PORTABLE: Platform =
        Platform { avx2_fma: false, pclmul: false, vpclmul: false, gfni: false, avx512: false, avx512ifma: false };

    /// What this CPU offers (cached after the first call).
    #[inline]
    pub fn detect() -> Platform {
        let v = CACHE.load(Ordering::Relaxed);
        if v != UNKNOWN {
            return Self::from_bits(v);
        }
        let p = Self::probe();
        CACHE.store(p.bits(), Ordering::Relaxed);
        p
    }

    fn bits(self) -> u8 {
        (self.avx2_fma as u8)
            | ((self.pclmul as u8) << 1)
            | ((self.vpclmul as u8) << 2)
            | ((self.gfni as u8) << 3)
            | ((self.avx512 as u8) << 4)
            | ((self.avx512ifma as u8) << 5)
    }

    fn from_bits(v: u8) -> Platform {
        Platform {
            avx2_fma: v & 1 != 0,
            pclmul: v & 2 != 0,
            vpclmul: v & 4 != 0,
            gfni: v & 8 != 0,
            avx512: v & 16 != 0,
            avx512ifma: v & 32 != 0,
        }
    }

    fn probe() -> Platform {
        if std::env::var_os("UNIMAC_FORCE_PORTABLE").is_some_and(|v| !v.is_empty()) {
            return Platform::PORTABLE;
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        {
            Platform {
                avx2_fma: std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("fma"),
                pclmul: std::is_x86_feature_detected!("pclmulqdq")
                    && std::is_x86_feature_detected!("sse4.1"),
                vpclmul: std::is_x86_feature_detected!("vpclmulqdq")
                    && std::is_x86_feature_detected!("pclmulqdq")
                    && std::is_x86_feature_detected!("avx2"),
                gfni: std::is_x86_feature_detected!("gfni") && std::is_x86_feature_detected!("avx2"),
                avx512: std::is_x86_feature_detected!("avx512f"),
                avx512ifma: std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512ifma"),
            }
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
        {
            Platform::PORTABLE
        }
    }
}
