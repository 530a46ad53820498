//! The forgery bounds of docs/WIRE.md §8's Shoup MACs (Shoup, “On fast and provably secure message authentication based on universal hashing” Theorems 2–4): the
//! formulas, and each theorem's condition checked and reported.

use unimac::unstable::bounds::{bound, names, Attack};

fn a(l: u64, c: u64, d: u64) -> Attack {
    Attack::new(l, c, d)
}

fn param<'a>(b: &'a unimac::unstable::bounds::Bound, key: &str) -> &'a str {
    &b.params.iter().find(|(k, _)| k.starts_with(key)).unwrap_or_else(|| panic!("no {key}")).1
}

fn close(x: f64, y: f64) {
    assert!((x - y).abs() < 1e-9, "{x} vs {y}");
}

#[test]
fn every_new_name_has_a_bound() {
    for n in ["wc-eval128", "shoup3-eval128", "shoup4-eval64", "shoup4-division64"] {
        assert!(names().iter().any(|m| m == n), "{n}");
        let b = bound(n, &a(1 << 20, 1 << 20, 1 << 10)).unwrap();
        assert!(b.log2.0 < 0.0 && b.proven, "{n}");
        assert!(!b.not_included.is_empty(), "{n}: the AES term must be named");
        assert!(b.to_string().contains("condition"), "{n}: the theorem's condition is reported");
    }
}

#[test]
fn wc_eval128_theorem_2_and_its_condition() {
    // L = 16·999 + 15: n = 1000 blocks, eps = 1001/2^128; C = 2^20 so C^2 eps < 1.
    let b = bound("wc-eval128", &a(16 * 999 + 15, 1 << 20, 1000)).unwrap();
    assert!(b.theorem.contains("Theorem 2"));
    assert_eq!(param(&b, "n ("), "1000");
    assert!(param(&b, "Theorem 2 condition").starts_with("holds"));
    close(b.log2.0, (2.0 * 1000.0 * 1001.0f64).log2() - 128.0);
    // C = 2^63 and long messages: C^2 eps > 1, Theorem 2 does not apply;
    // Theorem 1 with the switching lemma q(q-1)/2^129 ~ 2^-3.
    let b = bound("wc-eval128", &a(1 << 40, 1 << 63, 1)).unwrap();
    assert!(param(&b, "Theorem 2 condition").starts_with("FAILS"));
    assert!((b.log2.0 + 3.0).abs() < 1e-6, "{}", b.log2.0);
    // Condition failing but the bound meaningful: C^2 eps > 1 needs C > 2^54
    // at n ~ 2^20; Theorem 1 then gives D eps + q(q-1)/2^129.
    let b = bound("wc-eval128", &a(1 << 24, 1 << 55, 1)).unwrap();
    assert!(param(&b, "Theorem 2 condition").starts_with("FAILS"));
    assert!(b.theorem.contains("Theorem 1"));
    let q = (1u128 << 55) as f64 + 1.0;
    let want = ((1u64 << 20) as f64 + 2.0).log2() - 128.0;
    let sw = (q * (q - 1.0)).log2() - 129.0;
    let sum = (want.exp2() + sw.exp2()).log2();
    close(b.log2.0, sum);
}

#[test]
fn shoup3_eval128_is_theorem_3() {
    let b = bound("shoup3-eval128", &a(16 * 999 + 15, u64::MAX, 7)).unwrap();
    assert!(b.theorem.contains("Theorem 3"));
    assert!(param(&b, "Theorem 3 condition").starts_with("holds"), "C < 2^64 always satisfies C^2 <= 2^128");
    close(b.log2.0, (2.0 * 7.0 * 1001.0f64).log2() - 128.0);
}

#[test]
fn shoup4_is_theorem_4_with_its_condition() {
    // n = 1000 u64 blocks, eval64 eps = 1001/2^64; C = 2^30, D = 10.
    let (c, d) = (1u64 << 30, 10u64);
    let b = bound("shoup4-eval64", &a(8 * 999 + 7, c, d)).unwrap();
    assert!(b.theorem.contains("Theorem 4"));
    assert!(param(&b, "Theorem 4 condition").starts_with("holds"));
    let (cf, df) = (c as f64, d as f64);
    let q = cf + df;
    let want = 1.5 * cf * cf / 2f64.powi(128) + df * 1001.0 / 2f64.powi(64) + 2.0 * q * (q - 1.0) / 2f64.powi(129);
    close(b.log2.0, want.log2());
    let th = 1.5 * cf * cf / 2f64.powi(128) + df * 1001.0 / 2f64.powi(64);
    close(b.theorem_log2().0, th.log2());
    let b = bound("shoup4-division64", &a(8 * 999 + 7, 1, 1)).unwrap();
    let want = 1.5 / 2f64.powi(128) + 64.0 * 1001.0 / 2f64.powi(64) + 2.0 * 2.0 / 2f64.powi(129);
    close(b.log2.0, want.log2());
    // q1 < 2^63 is Theorem 4's condition.
    let e = bound("shoup4-eval64", &a(8, 1 << 63, 1)).unwrap_err();
    assert!(e.to_string().contains("2^63"), "{e}");
    // Just below it: 1.5 C^2/2^128 ~ 0.375 plus the switching terms ~ 0.25.
    let b = bound("shoup4-eval64", &a(8, (1 << 63) - 1, 1)).unwrap();
    assert!(param(&b, "Theorem 4 condition").starts_with("holds"));
    close(b.log2.0, 0.625f64.log2());
}
