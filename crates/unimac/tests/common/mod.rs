//! Helpers shared by the library's integration tests: the platforms a
//! family's backends are compared on, the message lengths around a
//! kernel's block edges, and the one form of a check that cannot run here.
#![allow(dead_code)]

mod skipped;
#[allow(unused_imports)]
pub use skipped::skipped;

use unimac::{Feature, Platform};

/// Every platform this CPU can run with only `features` kept, each subset
/// of them, portable first: every backend a family picks among them, each
/// reached through the evidence the default paths use.
pub fn platforms(features: &[Feature]) -> Vec<Platform> {
    Platform::hardware().only(features).variants()
}

/// Portable, then the hardware's `features` added one at a time, in the
/// order given, as far as this CPU has them: for a family whose each
/// backend needs the previous one's features (AVX2, then AVX-512F, then
/// IFMA52).
pub fn ladder(features: &[Feature]) -> Vec<Platform> {
    let hw = Platform::hardware();
    let mut v = vec![Platform::portable()];
    for (i, f) in features.iter().enumerate() {
        if !hw.has(*f) {
            break;
        }
        v.push(hw.only(&features[..=i]));
    }
    v
}

/// Every length from 0 to `upto`, and each `edge + offset` (the negative
/// ones left out) of each group `(edges, offsets)`: sorted, each once.
pub fn lengths(upto: usize, groups: &[(&[usize], &[i64])]) -> Vec<usize> {
    let mut v: Vec<usize> = (0..=upto).collect();
    for (edges, offsets) in groups {
        for &e in *edges {
            for &d in *offsets {
                if let Ok(n) = usize::try_from(e as i64 + d) {
                    v.push(n);
                }
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}
