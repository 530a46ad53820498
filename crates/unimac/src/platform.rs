//! Run-time CPU feature detection, in exactly one place.
//!
//! A [`Platform`] is evidence: only [`Platform::detect`] can say that a
//! feature is present, and safe code can only take features away from it
//! ([`Platform::portable`]; `Platform::without` with the `reference`
//! feature), never add one. Every fast
//! path is chosen through it, so no safe call can reach a kernel the CPU
//! lacks. The answer is computed once and cached, so dispatch costs one
//! relaxed load. Setting the environment variable `UNIMAC_FORCE_PORTABLE` to
//! anything non-empty forces the portable paths (to test and benchmark both
//! on one machine); `UNIMAC_DISABLE=avx512` (a comma-separated list of
//! [`Feature::name`]s) narrows the detected features instead, e.g. to measure
//! the AVX2 paths on a CPU with AVX-512. On aarch64 (little-endian, with
//! `std`) the features are PMULL and NEON (`Feature::Pmull`, `Feature::Neon`,
//! aarch64 only); on every other
//! architecture every path is portable.
//!
//! Without the feature `std` there are no environment variables, and the
//! features are found with `cpuid` and `xgetbv` (the `cpufeatures` crate),
//! which, like std, counts a feature only when the operating system saves
//! the registers it uses; it is stricter than std in one place: GFNI and
//! VPCLMULQDQ count only where the AVX-512 registers are enabled too.
//! Freestanding x86-64 targets (`target_os = "none"`) are portable, and so
//! is aarch64 without `std` (no operating system to ask).

use core::sync::atomic::{AtomicU16, Ordering};

use crate::prelude::*;

/// One instruction-set feature a fast path uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// AVX2 and FMA (the floating-point and vpmuludq paths), with BMI2
    /// (`mulx`, in VMAC's polynomial step), which every CPU with AVX2 has.
    Avx2Fma,
    /// PCLMULQDQ with SSE4.1 (carry-less multiplication for Shoup's hashes).
    Pclmul,
    /// VPCLMULQDQ with AVX2 (several carry-less products per instruction).
    Vpclmul,
    /// GFNI with AVX2 (`vgf2p8mulb`, the generalized division hash).
    Gfni,
    /// AVX-512F (512-bit vpmuludq for MMH/NMH; 512-bit FMAs for hash127).
    Avx512,
    /// AVX-512 IFMA52 with AVX-512F (exact 52-bit multiply-adds).
    Avx512Ifma,
    /// PMULL on aarch64 (64×64-bit carry-less products, part of the `aes`
    /// extension) with NEON: Shoup's hashes.
    #[cfg(target_arch = "aarch64")]
    Pmull,
    /// Advanced SIMD (NEON) on aarch64: 32×32→64-bit multiply-accumulate
    /// lanes for NH (UMAC) and MMH/NMH.
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl Feature {
    /// Every feature.
    #[cfg(not(target_arch = "aarch64"))]
    pub const ALL: [Feature; 6] =
        [Feature::Avx2Fma, Feature::Pclmul, Feature::Vpclmul, Feature::Gfni, Feature::Avx512, Feature::Avx512Ifma];
    /// Every feature.
    #[cfg(target_arch = "aarch64")]
    pub const ALL: [Feature; 8] = [
        Feature::Avx2Fma,
        Feature::Pclmul,
        Feature::Vpclmul,
        Feature::Gfni,
        Feature::Avx512,
        Feature::Avx512Ifma,
        Feature::Pmull,
        Feature::Neon,
    ];

    /// A short lower-case name, e.g. `"avx2fma"`.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Avx2Fma => "avx2fma",
            Feature::Pclmul => "pclmul",
            Feature::Vpclmul => "vpclmul",
            Feature::Gfni => "gfni",
            Feature::Avx512 => "avx512",
            Feature::Avx512Ifma => "avx512ifma",
            #[cfg(target_arch = "aarch64")]
            Feature::Pmull => "pmull",
            #[cfg(target_arch = "aarch64")]
            Feature::Neon => "neon",
        }
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The instruction sets this CPU has, as found by detection (or fewer).
/// `Debug` lists them, e.g. `Platform[Avx2Fma, Pclmul]`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Platform {
    /// One bit per [`Feature`]; set only by [`Platform::detect`].
    bits: u16,
}

impl core::fmt::Display for Platform {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.name())
    }
}

impl core::fmt::Debug for Platform {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Platform{:?}", self.features())
    }
}

const UNKNOWN: u16 = 0x8000;
static CACHE: AtomicU16 = AtomicU16::new(UNKNOWN);
static HARDWARE: AtomicU16 = AtomicU16::new(UNKNOWN);

impl Platform {
    /// The portable platform: no fast path at all.
    pub const fn portable() -> Platform {
        Platform { bits: 0 }
    }

    /// What this CPU offers (cached after the first call).
    #[inline]
    pub fn detect() -> Platform {
        let v = CACHE.load(Ordering::Relaxed);
        if v != UNKNOWN {
            return Platform { bits: v };
        }
        let p = Self::probe();
        CACHE.store(p.bits, Ordering::Relaxed);
        p
    }

    /// What this CPU has, ignoring `UNIMAC_FORCE_PORTABLE`: for tests and
    /// benchmarks that compare every backend the hardware can run. Default
    /// paths use [`Platform::detect`].
    pub(crate) fn hardware() -> Platform {
        let v = HARDWARE.load(Ordering::Relaxed);
        if v != UNKNOWN {
            return Platform { bits: v };
        }
        let p = Self::probe_cpu();
        HARDWARE.store(p.bits, Ordering::Relaxed);
        p
    }

    /// The same evidence without `f` (to test or measure a slower path on
    /// this CPU). Features can only be removed, never added.
    pub(crate) const fn without(self, f: Feature) -> Platform {
        Platform { bits: self.bits & !f.bit() }
    }

    /// The same evidence keeping only the features in `fs` (to enumerate
    /// just the variants one family distinguishes). Like
    /// [`Platform::without`], it can only remove features.
    #[cfg_attr(not(feature = "unstable"), allow(dead_code))] // the benches and tests, through unstable
    pub(crate) fn only(self, fs: &[Feature]) -> Platform {
        let keep = fs.iter().fold(0u16, |m, f| m | f.bit());
        Platform { bits: self.bits & keep }
    }

    /// Whether `f` was detected (and not removed).
    #[inline]
    pub fn has(self, f: Feature) -> bool {
        self.bits & f.bit() != 0
    }

    /// AVX2 and FMA, with BMI2 ([`Feature::Avx2Fma`]).
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn avx2_fma(self) -> bool {
        self.has(Feature::Avx2Fma)
    }
    /// PCLMULQDQ with SSE4.1.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn pclmul(self) -> bool {
        self.has(Feature::Pclmul)
    }
    /// VPCLMULQDQ with AVX2.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn vpclmul(self) -> bool {
        self.has(Feature::Vpclmul)
    }
    /// GFNI with AVX2.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn gfni(self) -> bool {
        self.has(Feature::Gfni)
    }
    /// AVX-512F.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn avx512(self) -> bool {
        self.has(Feature::Avx512)
    }
    /// AVX-512 IFMA52 with AVX-512F.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn avx512ifma(self) -> bool {
        self.has(Feature::Avx512Ifma)
    }
    /// PMULL with NEON (aarch64; never on other architectures).
    #[inline]
    #[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
    pub(crate) fn pmull(self) -> bool {
        #[cfg(target_arch = "aarch64")]
        {
            self.has(Feature::Pmull)
        }
        #[cfg(not(target_arch = "aarch64"))]
        {
            false
        }
    }

    /// The features present, in [`Feature::ALL`] order.
    pub(crate) fn features(self) -> Vec<Feature> {
        Feature::ALL.into_iter().filter(|f| self.has(*f)).collect()
    }

    /// Every distinct platform obtained by removing a subset of this one's
    /// features, smallest first: always includes `self` and
    /// [`Platform::portable`]. Tests and benchmarks iterate
    /// `for p in Platform::hardware().variants()` to reach every backend the
    /// CPU can run, each through the same evidence the default paths use.
    #[cfg_attr(not(feature = "unstable"), allow(dead_code))] // the benches and tests, through unstable
    pub(crate) fn variants(self) -> Vec<Platform> {
        let mut v: Vec<Platform> =
            (0..1u16 << Feature::ALL.len()).filter(|m| m & !self.bits == 0).map(|bits| Platform { bits }).collect();
        v.sort_by_key(|p| (p.bits.count_ones(), p.bits));
        v.dedup();
        v
    }

    /// A short description of the features kept, e.g. `"avx2fma+pclmul"`,
    /// or `"portable"` when there are none.
    pub(crate) fn name(self) -> String {
        if self.bits == 0 {
            return "portable".into();
        }
        let names: Vec<&str> = self.features().into_iter().map(Feature::name).collect();
        names.join("+")
    }

    #[cfg(not(feature = "std"))]
    fn probe() -> Platform {
        Self::hardware()
    }

    #[cfg(feature = "std")]
    fn probe() -> Platform {
        if std::env::var_os("UNIMAC_FORCE_PORTABLE").is_some_and(|v| !v.is_empty()) {
            return Platform::portable();
        }
        let hw = Self::hardware();
        match std::env::var("UNIMAC_DISABLE") {
            Ok(list) => hw.disabled(&list),
            Err(_) => hw,
        }
    }

    /// The evidence without the features named in `list` (comma- or
    /// space-separated [`Feature::name`]s; `avx512` also removes
    /// `avx512ifma`, which needs it); unknown names are ignored. What the
    /// environment variable `UNIMAC_DISABLE` does to [`Platform::detect`].
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn disabled(self, list: &str) -> Platform {
        let mut p = self;
        for name in list.split([',', ' ']).map(str::trim).filter(|n| !n.is_empty()) {
            for f in Feature::ALL {
                if f.name() == name || (name == "avx512" && f == Feature::Avx512Ifma) {
                    p = p.without(f);
                }
            }
        }
        p
    }

    fn probe_cpu() -> Platform {
        // Only x86-64 and little-endian aarch64 (with std) have fast paths
        // compiled in; everywhere else (32-bit x86 included) the evidence
        // stays empty.
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        {
            Self::probe_std()
        }
        #[cfg(all(target_arch = "x86_64", not(feature = "std")))]
        {
            Self::probe_cpuid()
        }
        #[cfg(all(target_arch = "aarch64", target_endian = "little", feature = "std"))]
        {
            Self::probe_aarch64()
        }
        #[cfg(not(any(target_arch = "x86_64", all(target_arch = "aarch64", target_endian = "little", feature = "std"))))]
        {
            Platform::portable()
        }
    }

    /// The evidence from std's run-time detection on aarch64: PMULL (std's
    /// `"pmull"`, the `aes` extension's polynomial products) with NEON.
    #[cfg(all(target_arch = "aarch64", target_endian = "little", feature = "std"))]
    fn probe_aarch64() -> Platform {
        let mut bits = 0u16;
        if std::arch::is_aarch64_feature_detected!("neon") && std::arch::is_aarch64_feature_detected!("pmull") {
            bits |= Feature::Pmull.bit();
        }
        if std::arch::is_aarch64_feature_detected!("neon") {
            bits |= Feature::Neon.bit();
        }
        Platform { bits }
    }

    /// The evidence from std's run-time detection.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    fn probe_std() -> Platform {
        Self::from_flags(|f| match f {
            "avx2" => std::is_x86_feature_detected!("avx2"),
            "fma" => std::is_x86_feature_detected!("fma"),
            "bmi2" => std::is_x86_feature_detected!("bmi2"),
            "pclmulqdq" => std::is_x86_feature_detected!("pclmulqdq"),
            "sse4.1" => std::is_x86_feature_detected!("sse4.1"),
            "vpclmulqdq" => std::is_x86_feature_detected!("vpclmulqdq"),
            "gfni" => std::is_x86_feature_detected!("gfni"),
            "avx512f" => std::is_x86_feature_detected!("avx512f"),
            "avx512ifma" => std::is_x86_feature_detected!("avx512ifma"),
            _ => false,
        })
    }

    /// The evidence from `cpuid` and `xgetbv` through `cpufeatures`, which
    /// needs no operating system (its answers are cached in atomics).
    #[cfg(target_arch = "x86_64")]
    #[cfg_attr(feature = "std", allow(dead_code))]
    fn probe_cpuid() -> Platform {
        cpufeatures::new!(cpu_avx2, "avx2");
        cpufeatures::new!(cpu_fma, "fma");
        cpufeatures::new!(cpu_bmi2, "bmi2");
        cpufeatures::new!(cpu_pclmulqdq, "pclmulqdq");
        cpufeatures::new!(cpu_sse41, "sse4.1");
        cpufeatures::new!(cpu_vpclmulqdq, "vpclmulqdq");
        cpufeatures::new!(cpu_gfni, "gfni");
        cpufeatures::new!(cpu_avx512f, "avx512f");
        cpufeatures::new!(cpu_avx512ifma, "avx512ifma");
        Self::from_flags(|f| match f {
            "avx2" => cpu_avx2::get(),
            "fma" => cpu_fma::get(),
            "bmi2" => cpu_bmi2::get(),
            "pclmulqdq" => cpu_pclmulqdq::get(),
            "sse4.1" => cpu_sse41::get(),
            "vpclmulqdq" => cpu_vpclmulqdq::get(),
            "gfni" => cpu_gfni::get(),
            "avx512f" => cpu_avx512f::get(),
            "avx512ifma" => cpu_avx512ifma::get(),
            _ => false,
        })
    }

    /// The [`Feature`]s from the CPU's flags (`has` answers for the names
    /// of `std::is_x86_feature_detected!`): each feature only when every
    /// flag it needs is there.
    #[cfg(target_arch = "x86_64")]
    fn from_flags(has: impl Fn(&str) -> bool) -> Platform {
        let mut bits = 0u16;
        let mut set = |f: Feature, yes: bool| {
            if yes {
                bits |= f.bit();
            }
        };
        let avx2 = has("avx2");
        set(Feature::Avx2Fma, avx2 && has("fma") && has("bmi2"));
        set(Feature::Pclmul, has("pclmulqdq") && has("sse4.1"));
        set(Feature::Vpclmul, has("vpclmulqdq") && has("pclmulqdq") && avx2);
        set(Feature::Gfni, has("gfni") && avx2);
        let avx512f = has("avx512f");
        set(Feature::Avx512, avx512f);
        set(Feature::Avx512Ifma, avx512f && has("avx512ifma"));
        Platform { bits }
    }
}

/// A family's choice of implementation: one `enum Backend` per family
/// implements this, so every family is dispatched the same way.
///
/// The idiom: the backend is chosen once, from the [`Platform`] evidence,
/// when a key is set up (`new` calls `new_on(Platform::detect(), ..)`), and
/// kept in the key; no hashing call detects again. Each kernel module's
/// entry points are safe functions that take the `Platform` and `assert!`
/// the features they need before their one `unsafe` call into
/// `#[target_feature]` code, so no safe caller can reach an instruction the
/// CPU lacks. Names are the [`Feature::name`] of the feature a backend
/// needs (`"avx2fma"`, `"avx512"`, `"avx512ifma"`, `"pclmul"`,
/// `"vpclmul"`, `"gfni"`), or `"portable"`, or a family's own name for a
/// portable variant (`"int26"`).
pub(crate) trait Backend: Copy + Eq + core::fmt::Debug + 'static {
    /// The fastest backend the evidence `p` allows.
    fn for_platform(p: Platform) -> Self;
    /// The name `backend()` reports.
    fn name(self) -> &'static str;
}

/// Every distinct backend of a family that this CPU can run, portable
/// first: the backends [`Backend::for_platform`] picks for each subset of
/// the hardware's features.
#[cfg(test)]
pub(crate) fn backends<B: Backend>() -> Vec<B> {
    let mut v: Vec<B> = Vec::new();
    for p in Platform::hardware().variants() {
        let b = B::for_platform(p);
        if !v.contains(&b) {
            v.push(b);
        }
    }
    v
}

/// [`crate::skipped::skipped`] for a kernel whose instructions this CPU lacks: the reason
/// names the feature (a backend's name up to its first `-`: `avx512-int26`
/// needs `avx512`).
#[cfg(test)]
#[track_caller]
pub(crate) fn skipped_kernel(backend: &str) {
    let feature = backend.split('-').next().unwrap_or(backend);
    crate::skipped::skipped("", &format!("no {feature} on this CPU"));
}

/// The one differential check every kernel module calls: `kernel(b, x)`
/// must equal `reference(x)` for every backend `b` of the family this CPU
/// can run and every input `x` (the caller supplies random and extreme
/// ones). Returns how many (backend, input) pairs were compared, so a
/// caller can assert that its check was not vacuous.
#[cfg(test)]
pub(crate) fn check_backends<B, I, O>(
    inputs: &[I],
    reference: impl Fn(&I) -> O,
    kernel: impl Fn(B, &I) -> O,
) -> usize
where
    B: Backend,
    I: core::fmt::Debug,
    O: PartialEq + core::fmt::Debug,
{
    let mut n = 0;
    for b in backends::<B>() {
        for x in inputs {
            let want = reference(x);
            let got = kernel(b, x);
            assert_eq!(got, want, "backend {} ({b:?}) differs from the reference on {x:?}", b.name());
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel module (each one a module allowed `unsafe` code, the
    /// only place SIMD lives) holds its own test against the portable path
    /// or a big-integer model: a kernel added without one fails here. The
    /// modules are found by reading the crate's source, so the list cannot
    /// fall behind the code. (Not under WASI, which sees no source tree:
    /// the source is the same on every target, and the host run checks it.)
    #[cfg(not(target_os = "wasi"))]
    #[test]
    fn every_kernel_module_has_a_differential_test() {
        use std::path::{Path, PathBuf};
        fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    rs_files(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rs_files(&src, &mut files);
        let mut kernels = Vec::new();
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (i, l) in lines.iter().enumerate() {
                if !l.trim_start().starts_with("#[allow(unsafe_code)]") {
                    continue;
                }
                // The `mod NAME;` line: on the same line or within the next few.
                let Some(m) = lines[i..(i + 4).min(lines.len())].iter().find_map(|l| {
                    let t = l.split("//").next().unwrap().trim();
                    let at = t.find("mod ")?;
                    t[at + 4..].strip_suffix(';').map(str::trim)
                }) else {
                    continue;
                };
                // A module declared in `x/mod.rs` or `lib.rs` lives beside it;
                // one declared in `x.rs` lives in `x/`.
                let dir = match f.file_name().unwrap().to_str().unwrap() {
                    "mod.rs" | "lib.rs" => f.parent().unwrap().to_path_buf(),
                    name => f.parent().unwrap().join(name.trim_end_matches(".rs")),
                };
                let file = [dir.join(format!("{m}.rs")), dir.join(m).join("mod.rs")]
                    .into_iter()
                    .find(|p| p.exists())
                    .unwrap_or_else(|| panic!("kernel module {m} declared in {} not found", f.display()));
                kernels.push(file);
            }
        }
        assert!(kernels.len() >= 20, "only {} kernel modules found: the scan is broken", kernels.len());
        let untested: Vec<String> = kernels
            .iter()
            .filter(|k| {
                let mut t = std::fs::read_to_string(k).unwrap();
                // A test module in a file of its own (`#[path = "x/tests.rs"]
                // mod tests;`, the path from the kernel file's directory) is
                // read as part of the kernel's file.
                let path = t.lines().zip(t.lines().skip(1)).find_map(|(a, b)| {
                    let p = a.trim().strip_prefix("#[path = \"")?.strip_suffix("\"]")?;
                    (b.trim() == "mod tests;").then(|| p.to_string())
                });
                if let Some(p) = path {
                    t += &std::fs::read_to_string(k.parent().unwrap().join(p)).unwrap();
                }
                !((t.contains("#[cfg(test)]") || t.contains("#[cfg(all(test")) && t.contains("#[test]"))
            })
            .map(|k| k.strip_prefix(&src).unwrap().display().to_string())
            .collect();
        assert!(untested.is_empty(), "kernel modules without a differential test: {untested:?}");
    }

    /// No set of features reads as the cache's "not detected yet" marker,
    /// so every detected platform, one feature or all of them, is cached.
    #[test]
    fn no_feature_set_is_the_unknown_marker() {
        let all = Feature::ALL.iter().fold(0u16, |m, f| m | f.bit());
        assert_eq!(all & UNKNOWN, 0, "a feature bit is the marker's");
        for f in Feature::ALL {
            assert_ne!(f.bit(), UNKNOWN);
        }
        let d = Platform::detect();
        assert_eq!(Platform::detect(), d);
        assert_ne!(CACHE.load(Ordering::Relaxed), UNKNOWN, "detection is cached");
    }

    #[test]
    fn evidence_can_only_shrink() {
        let d = Platform::detect();
        for f in Feature::ALL {
            let w = d.without(f);
            assert!(!w.has(f));
            for g in Feature::ALL {
                assert!(!w.has(g) || d.has(g), "{g:?} appeared after removing {f:?}");
            }
        }
        assert!(Platform::portable().features().is_empty());
        let h = Platform::hardware();
        let vs = h.variants();
        assert_eq!(vs.len(), 1 << h.features().len());
        assert_eq!(vs[0], Platform::portable());
        assert_eq!(*vs.last().unwrap(), h);
        for v in &vs {
            for g in Feature::ALL {
                assert!(!v.has(g) || h.has(g));
            }
        }
        assert_eq!(Platform::portable().to_string(), "portable");
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        assert_eq!(d, Platform::portable());
        #[cfg(target_arch = "aarch64")]
        assert!(d.features().iter().all(|f| matches!(f, Feature::Pmull | Feature::Neon)), "only PMULL and NEON on aarch64: {d:?}");
    }
}

/// The `cpuid` detection used without `std` never claims a feature that
/// std's detection denies (it may claim fewer), on this CPU.
#[cfg(all(test, target_arch = "x86_64", feature = "std"))]
mod cpuid_tests {
    use super::*;

    #[test]
    fn cpuid_evidence_is_within_stds() {
        let (ours, stds) = (Platform::probe_cpuid(), Platform::probe_std());
        for f in Feature::ALL {
            assert!(!ours.has(f) || stds.has(f), "cpuid claims {f:?}, std does not");
        }
        // Where the AVX-512 registers are enabled, the two agree.
        if stds.avx512() {
            assert_eq!(ours, stds);
        }
        assert_eq!(Platform::hardware(), stds);
    }
}

#[cfg(test)]
mod disable_tests {
    use super::*;

    #[test]
    fn disabling_only_removes_the_named_features() {
        let hw = Platform::hardware();
        let p = hw.disabled("avx512");
        assert!(!p.has(Feature::Avx512) && !p.has(Feature::Avx512Ifma));
        for f in [Feature::Avx2Fma, Feature::Pclmul, Feature::Vpclmul, Feature::Gfni] {
            assert_eq!(p.has(f), hw.has(f), "{f:?}");
        }
        let q = hw.disabled("vpclmul, gfni,no-such-feature");
        assert!(!q.has(Feature::Vpclmul) && !q.has(Feature::Gfni));
        assert_eq!(q.has(Feature::Avx512), hw.has(Feature::Avx512));
        assert_eq!(hw.disabled(""), hw);
    }
}
