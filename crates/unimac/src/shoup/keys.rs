//! The expanded keys the carry-less kernels read, and the step length of
//! eval128's widest kernel: a leaf module (it imports no kernel), so the
//! kernels ([`super::clmul`], [`super::vpclmul`], [`super::vpclmul512`])
//! depend only on it and on [`super::gdiv`], and the dispatching modules
//! ([`super`], [`super::eval128`]) on both. The keys are built where they
//! are dispatched (`Ring64::new` in [`super`], `Eval128Key::new_on` in
//! [`super::eval128`]).

use zeroize::{Zeroize, ZeroizeOnDrop};

use super::gf2::Modulus;

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

/// Blocks per step of eval128's widest kernel; its key holds this many powers.
pub(crate) const STEP: usize = 32;

/// The expanded eval128 key: `desc[j] = α^(32−j)`, so `desc[31] = α` and a
/// step of `N ≤ 32` blocks multiplies block `j` by `desc[32 − N + j]`.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct Eval128Key {
    pub(crate) desc: [u128; STEP],
}

impl Eval128Key {
    /// `α`.
    pub(crate) fn alpha(&self) -> u128 {
        self.desc[STEP - 1]
    }
}
