//! **No stability promise.** The code behind the stable modules, reachable
//! whole, for this workspace's own front ends (the command line and the
//! Python package, through their shared crate `unimac-front`), the
//! benchmark tool, the crate's tests, benches and examples, and research:
//! the families' raw universal hashes with their per-backend entry points
//! (`hash127`, `mmh`, `square`, `shoup`, `tree`, `group`), the table of MAC
//! rules (`macs`), the catalogue behind the names (`registry`'s `key`,
//! `open`, `compute`), the engines of MACs otherwise reached by name
//! (`mac::WegmanCarter`, Shoup's Theorem 3 and 4 MACs), the formats' lower
//! levels and the file rules (`formats`), and [`hazmat`], the arithmetic.
//!
//! Nothing here is covered by semantic versioning: any release may change
//! or remove it. The workspace's crates that use it depend on `unimac` at an
//! exact version (`=`). A Rust application uses the stable modules instead.
//!
//! Methods the stable types have only for these users are the traits
//! [`PlatformExt`], [`ModpExt`], [`UmacExt`], [`VmacExt`], [`NamedExt`], [`OneTimeExt`] and,
//! with `std`, [`KeyFileExt`], [`BindingExt`], [`OneTimeKeyFileExt`] and
//! [`SealErrorExt`]: `use unimac::unstable::*;` brings them into scope.

pub use crate::imp::{bounds, group, hash127, mac, macs, mmh, modp, partial, registry, shoup, square, tree};
/// The formats whole: each format's lower levels, the keys derived for
/// each purpose (`derive`), the strength policy (`policy`), the front ends'
/// shared messages (`messages`), one walk of a tree (`walk`), and the file
/// rules (`fsio`: open only regular files, write whole files or none;
/// `race`: a file that changes while it is read is re-read or refused).
#[cfg(feature = "std")]
pub mod formats {
    pub use crate::formats::imp::*;
}

#[path = "hazmat.rs"]
pub mod hazmat;

/// The threads' parts of the library's tuning.
pub mod threads {
    /// Below this many bytes a message is hashed on the caller's thread
    /// only, however many threads are allowed.
    pub const PARALLEL_MIN: usize = crate::threads::PARALLEL_MIN;

    /// Split from `bytes` on instead of [`PARALLEL_MIN`], process-wide (at
    /// least 1; `PARALLEL_MIN` restores the default): for tests that reach
    /// every family's parallel path with messages shorter than 4 MiB. No
    /// result depends on it; a hash127 stream takes the value when it is
    /// made (`Hash127::parallel_min` sets its own).
    pub fn set_parallel_min(bytes: usize) {
        crate::threads::set_parallel_min(bytes);
    }

    /// The length from which slices are split now.
    pub fn parallel_min() -> usize {
        crate::threads::parallel_min()
    }

    /// How many computations in this process have run on two or more of
    /// the library's threads so far: a test's evidence that a parallel path
    /// was taken, not only that its result was right.
    #[cfg(feature = "std")]
    pub fn splits() -> usize {
        crate::threads::splits()
    }
}

/// UMAC's stream whose nonce comes last.
pub mod umac {
    pub use crate::umac::stream::UmacPending;
}

/// VMAC's stream whose nonce comes last.
pub mod vmac {
    pub use crate::vmac::stream::VmacPending;
}

use crate::prelude::*;
use crate::error::Error;
use crate::macs::MacDesc;
use crate::platform::{Feature, Platform};

/// [`Platform`]'s methods for benches and tests: every variant of a
/// platform, and platforms with features taken away.
pub trait PlatformExt: Sized {
    /// What the CPU has, whatever `UNIMAC_FORCE_PORTABLE`/`UNIMAC_DISABLE` say.
    fn hardware() -> Self;
    /// This platform without one feature.
    fn without(self, f: Feature) -> Self;
    /// This platform with only the listed features (those it has).
    fn only(self, fs: &[Feature]) -> Self;
    /// The features this platform has, in [`Feature::ALL`]'s order.
    fn features(self) -> Vec<Feature>;
    /// This platform and every platform with fewer features: each kernel
    /// the dispatch can pick here.
    fn variants(self) -> Vec<Self>;
}

impl PlatformExt for Platform {
    fn hardware() -> Platform {
        Platform::hardware()
    }
    fn without(self, f: Feature) -> Platform {
        Platform::without(self, f)
    }
    fn only(self, fs: &[Feature]) -> Platform {
        Platform::only(self, fs)
    }
    fn features(self) -> Vec<Feature> {
        Platform::features(self)
    }
    fn variants(self) -> Vec<Platform> {
        Platform::variants(self)
    }
}

/// [`crate::modp::SecretPrime`]'s methods for the front ends, benches and
/// tests.
pub trait ModpExt {
    /// The residue of `m` (big-endian) as a `u128`.
    fn reduce_u128(&self, m: &[u8]) -> u128;
    /// [`ModpExt::reduce_u128`] on one platform's kernel.
    fn reduce_on(&self, platform: Platform, m: &[u8]) -> u128;
    /// The kernel a platform picks.
    fn backend_on(platform: Platform) -> &'static str;
    /// The kernel this key runs on.
    fn backend(&self) -> &'static str;
}

impl ModpExt for crate::modp::SecretPrime {
    fn reduce_u128(&self, m: &[u8]) -> u128 {
        Self::reduce_u128(self, m)
    }
    fn reduce_on(&self, platform: Platform, m: &[u8]) -> u128 {
        Self::reduce_on(self, platform, m)
    }
    fn backend_on(platform: Platform) -> &'static str {
        Self::backend_on(platform)
    }
    fn backend(&self) -> &'static str {
        Self::backend(self)
    }
}

/// [`crate::umac::Umac`]'s methods for benches and tests.
pub trait UmacExt<const T: usize>: Sized {
    /// A key on one platform's kernels.
    fn new_on(platform: Platform, key: &[u8; 16]) -> Self;
    /// The NH kernel this key runs on.
    fn backend(&self) -> &'static str;
    /// A stream whose nonce is given at the end.
    fn start_deferred(&self) -> umac::UmacPending<T>;
}

impl<const T: usize> UmacExt<T> for crate::umac::Umac<T> {
    fn new_on(platform: Platform, key: &[u8; 16]) -> Self {
        Self::new_on(platform, key)
    }
    fn backend(&self) -> &'static str {
        Self::backend(self)
    }
    fn start_deferred(&self) -> umac::UmacPending<T> {
        Self::start_deferred(self)
    }
}

/// [`crate::vmac::Vmac`]'s methods for benches and tests.
pub trait VmacExt<const T: usize>: Sized {
    /// A key on one platform's kernels.
    fn new_on(platform: Platform, key: &[u8]) -> Result<Self, Error>;
    /// The NH kernel this key runs on.
    fn backend(&self) -> &'static str;
    /// A stream whose nonce is given at the end.
    fn start_deferred(&self) -> vmac::VmacPending<T>;
}

impl<const T: usize> VmacExt<T> for crate::vmac::Vmac<T> {
    fn new_on(platform: Platform, key: &[u8]) -> Result<Self, Error> {
        Self::new_on(platform, key)
    }
    fn backend(&self) -> &'static str {
        Self::backend(self)
    }
    fn start_deferred(&self) -> vmac::VmacPending<T> {
        Self::start_deferred(self)
    }
}

/// [`crate::registry::NamedMac`]'s and [`crate::registry::OneTimeMac`]'s
/// row of the MAC table.
pub trait NamedExt: Sized {
    /// A MAC keyed by its row of the table.
    fn of_row(d: &'static MacDesc, key: &[u8]) -> Result<Self, Error>;
    /// The MAC's row of the table.
    fn desc(&self) -> &'static MacDesc;
}

impl NamedExt for crate::registry::NamedMac {
    fn of_row(d: &'static MacDesc, key: &[u8]) -> Result<Self, Error> {
        Self::of_row(d, key)
    }
    fn desc(&self) -> &'static MacDesc {
        Self::desc(self)
    }
}

/// [`crate::registry::OneTimeMac`]'s row of the MAC table.
pub trait OneTimeExt {
    /// The MAC's row of the table.
    fn desc(&self) -> &'static MacDesc;
}

impl OneTimeExt for crate::registry::OneTimeMac {
    fn desc(&self) -> &'static MacDesc {
        Self::desc(self)
    }
}

#[cfg(feature = "std")]
pub use self::fs::*;

#[cfg(feature = "std")]
mod fs {
    use crate::prelude::*;
    use std::io::Read;
    use std::path::Path;
    use zeroize::Zeroizing;

    use crate::error::Error;
    use crate::formats::counter::Binding;
    use crate::formats::keyfile::{KeyFile, OneTimeKeyFile};
    use crate::formats::manifest::SealError;
    use crate::macs::MacDesc;
    use crate::registry::OneTimeMac;

    /// [`KeyFile`]'s methods for the front ends.
    pub trait KeyFileExt: Sized {
        /// The MAC's row of the table (`None` for a `modp` key).
        fn desc(&self) -> Option<&'static MacDesc>;
        /// What the front ends print before using this key, if anything.
        fn warning(&self) -> Option<&str>;
        /// An error unless the key is for `name` (`shown` names the file).
        fn expect(&self, name: &str, shown: &str) -> Result<(), Error>;
        /// The key file's text.
        fn text(&self) -> Zeroizing<Vec<u8>>;
        /// A key file from its text (`shown` names it in errors).
        fn parse(text: &[u8], shown: &str) -> Result<Self, Error>;
        /// A key file from a reader.
        fn read_from(r: impl Read, shown: &str) -> Result<Self, Error>;
        /// A key file read from `path`, for the MAC `expect` if given.
        fn read_expecting(path: &Path, expect: Option<&str>) -> Result<Self, Error>;
    }

    impl KeyFileExt for KeyFile {
        fn desc(&self) -> Option<&'static MacDesc> {
            Self::desc(self)
        }
        fn warning(&self) -> Option<&str> {
            Self::warning(self)
        }
        fn expect(&self, name: &str, shown: &str) -> Result<(), Error> {
            Self::expect(self, name, shown)
        }
        fn text(&self) -> Zeroizing<Vec<u8>> {
            Self::text(self)
        }
        fn parse(text: &[u8], shown: &str) -> Result<Self, Error> {
            Self::parse(text, shown)
        }
        fn read_from(r: impl Read, shown: &str) -> Result<Self, Error> {
            Self::read_from(r, shown)
        }
        fn read_expecting(path: &Path, expect: Option<&str>) -> Result<Self, Error> {
            Self::read_expecting(path, expect)
        }
    }

    /// [`OneTimeKeyFile`]'s methods for the front ends.
    pub trait OneTimeKeyFileExt {
        /// The key file.
        fn key_file(&self) -> &KeyFile;
        /// Spend the key: mark it spent on disk, then give its MAC to `f`.
        fn spend_with<T>(self, f: impl FnOnce(OneTimeMac) -> Result<T, Error>) -> Result<T, Error>;
    }

    impl OneTimeKeyFileExt for OneTimeKeyFile {
        fn key_file(&self) -> &KeyFile {
            Self::key_file(self)
        }
        fn spend_with<T>(self, f: impl FnOnce(OneTimeMac) -> Result<T, Error>) -> Result<T, Error> {
            Self::spend_with(self, f)
        }
    }

    /// [`Binding`]'s methods for the front ends and tests.
    pub trait BindingExt {
        /// The binding of a counter file to a MAC and a key.
        fn new(desc: &'static MacDesc, key: &[u8]) -> Self;
        /// The key's fingerprint in hex.
        fn fingerprint_hex(&self) -> String;
        /// A counter file's text at counter `c`.
        fn file_text(&self, c: u128) -> String;
    }

    impl BindingExt for Binding {
        fn new(desc: &'static MacDesc, key: &[u8]) -> Self {
            Self::new(desc, key)
        }
        fn fingerprint_hex(&self) -> String {
            Self::fingerprint_hex(self)
        }
        fn file_text(&self, c: u128) -> String {
            Self::file_text(self, c)
        }
    }

    /// [`SealError`]'s one-line message as the front ends print it.
    pub trait SealErrorExt {
        /// The message, naming the manifest (`shown`) and the key.
        fn message(&self, shown: &str, key: &KeyFile, key_shown: &str) -> String;
    }

    impl SealErrorExt for SealError {
        fn message(&self, shown: &str, key: &KeyFile, key_shown: &str) -> String {
            Self::message(self, shown, key, key_shown)
        }
    }
}

/// The traits above, for `use unimac::unstable::prelude::*;`.
pub mod prelude {
    pub use super::{ModpExt, NamedExt, OneTimeExt, PlatformExt, UmacExt, VmacExt};
    #[cfg(feature = "std")]
    pub use super::{BindingExt, KeyFileExt, OneTimeKeyFileExt, SealErrorExt};
}
