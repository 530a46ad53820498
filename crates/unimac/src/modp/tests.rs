use super::*;

#[test]
fn small_known_answers() {
    // 2^127 - 1 is prime and in range.
    let p = SecretPrime::from_bytes(&((1u128 << 127) - 1).to_le_bytes()).unwrap();
    assert_eq!(p.reduce_u128(&[]), 0);
    assert_eq!(p.reduce_u128(&[5]), 5);
    assert_eq!(p.reduce_u128(&[0xff; 16]), 1);
    assert_eq!(p.reduce_u128(&[0xff; 32]), 3);
}

#[test]
fn mul_mod_and_add_mod_near_2_128() {
    use num_bigint::BigUint;
    for p in [u128::MAX - 158, (1u128 << 127) - 1, (1u128 << 120) + 451] {
        if crate::modp::SecretPrime::from_bytes(&p.to_le_bytes()).is_err() {
            continue;
        }
        let t = portable::Tables::new(p);
        let pb = BigUint::from(p);
        let vals = [0u128, 1, 2, 3, p - 1, p - 2, p / 2, p / 2 + 1, 1 << 64, (1 << 64) - 1, 0x1234_5678_9abc_def0_1122_3344_5566_7788 % p];
        for &a in &vals {
            for &b in &vals {
                let want = (BigUint::from(a) * BigUint::from(b)) % &pb;
                assert_eq!(BigUint::from(portable::mul_mod(&t, a, b)), want, "p {p:#x} a {a:#x} b {b:#x}");
                let want = (BigUint::from(a) + BigUint::from(b)) % &pb;
                assert_eq!(BigUint::from(portable::add_mod(&t, a, b)), want, "add p {p:#x} a {a:#x} b {b:#x}");
            }
        }
    }
}

/// The constant-time Miller–Rabin test against trial division for every odd
/// `n` below 2^14 (Carmichael numbers 561, 1105, … and the base-2 strong
/// pseudoprimes 2047, 3277, 4033, … among them). Under emulation
/// (`UNIMAC_EMULATED` set, scripts/test-all's aarch64 and wasm32 stanzas)
/// every odd `n` below 2^12, which still holds those.
#[test]
fn is_prime_ct_agrees_with_trial_division() {
    let trial = |n: u128| n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d));
    let bits = if std::env::var_os("UNIMAC_EMULATED").is_some_and(|v| !v.is_empty()) { 12 } else { 14 };
    for n in (3..1u128 << bits).step_by(2) {
        assert_eq!(super::is_prime_ct(n, 40).unwrap(), trial(n), "{n}");
    }
}
