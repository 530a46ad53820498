//! **Hazardous materials: no security promises; for tests, benches and
//! research.**
//!
//! The arithmetic the families are built from, and the reference models
//! they are tested against, exposed (with the `unstable` feature only) so
//! that the crate's own integration tests, benchmarks, the timing checks and
//! research code can reach them. None of it is a MAC or a universal hash
//! with a bound: it takes raw field elements, reduced or not, and keys that
//! are not checked; some of it is deliberately slow, and the reference
//! models are not constant time. Nothing here is covered by semantic
//! versioning. Use [`crate::mac`], [`crate::registry`] and the family
//! modules instead.
//!
//! The layout follows the families: `hazmat::shoup::gf2` is the arithmetic
//! of `unimac::shoup`, and so on.

/// Arithmetic of Shoup's hashes ([`crate::shoup`]): `GF(2)[x]` and its
/// fields, the minimal polynomials that key the division hash, and the
/// portable block loops.
pub mod shoup {
    /// `GF(2)[x]`: carry-less products, `GF(2^64)` and Barrett reduction
    /// modulo any monic polynomial of degree 64.
    pub mod gf2 {
        pub use crate::shoup::gf2::*;
    }
    /// `GF(2^128)`: the field of eval128.
    pub mod gf128 {
        pub use crate::shoup::gf128::*;
    }
    /// The generalized division hash's fields (`K = GF(2^8)`, `L = K[y]/(F)`)
    /// and its key polynomial (Shoup §7).
    pub mod gdiv {
        pub use crate::shoup::gdiv::*;
    }
    /// The minimal polynomial over `GF(2)` of an element of `GF(2^64)` (the
    /// division hash's key, Shoup §6.2).
    pub mod minpoly {
        pub use crate::shoup::minpoly::*;
    }
    /// The portable block loops of eval64, division64, gdivision64 and
    /// eval128.
    pub mod portable {
        pub use crate::shoup::portable::*;
    }
}

/// Arithmetic of hash127 ([`crate::hash127`]) modulo `2^127 − 1`.
pub mod hash127 {
    /// Portable exact arithmetic modulo `p` on `u128`, no floating point.
    pub mod portable {
        pub use crate::hash127::portable::*;
    }
    /// Five limbs of radix `2^26` in 64-bit integers (Bernstein, "Floating-point
    /// arithmetic and message authentication", §7).
    pub mod int26 {
        pub use crate::hash127::int26::*;
    }
}

/// Arithmetic of MMH and NMH ([`crate::mmh`]).
pub mod mmh {
    /// The block functions of the wire format in portable Rust, with the
    /// division-less reductions modulo `2^32 + 15` and `2^64 + 13`.
    pub mod portable {
        pub use crate::mmh::portable::*;
    }
    /// The paper's definitions, generic in the word size and the prime:
    /// exact, not fast (the model the fast paths are tested against).
    pub mod generic {
        pub use crate::mmh::generic::*;
    }
}

/// Arithmetic of UMAC and VMAC ([`crate::umac`], [`crate::vmac`]).
pub mod umac {
    /// `POLY` of RFC 4418 §5.3: Horner's rule modulo `2^64 − 59` and
    /// `2^128 − 159`.
    pub mod poly {
        pub use crate::umac::poly::*;
    }
}

/// Square Hash's reference model ([`crate::square`]).
pub mod square {
    /// The word-by-word definitions of Square Hash, generic in the machine
    /// word size: exact, not fast, not constant time.
    pub mod reference {
        pub use crate::square::reference::*;
    }
}
