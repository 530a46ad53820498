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
/// pseudoprimes 2047, 3277, 4033, … among them). With
/// `UNIMAC_SAMPLED_PROOFS` set (scripts/test-all's runs after the first,
/// which ran the full size) every odd `n` below 2^12, which still holds
/// those.
#[test]
fn is_prime_ct_agrees_with_trial_division() {
    let trial = |n: u128| n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d));
    let bits = if std::env::var_os("UNIMAC_SAMPLED_PROOFS").is_some_and(|v| !v.is_empty()) { 12 } else { 14 };
    for n in (3..1u128 << bits).step_by(2) {
        assert_eq!(super::is_prime_ct(n, 40).unwrap(), trial(n), "{n}");
    }
}

/// One input of the differential check: a key and an integer's bytes.
#[derive(Debug)]
pub(super) struct Case {
    key: usize,
    m: Vec<u8>,
}

/// The family's one differential check: `M mod p` by every backend this CPU
/// can run against the big-integer model, for fixed and random primes and
/// random and extreme integers (all ones, zero, alternating words) of every
/// length class around the kernels' blocks and units. `kernel(key, w, x)`
/// is one module's absorb of whole units (`w ≡ A·2^(-8n)`, as
/// [`SecretPrime`]'s dispatch keeps it), standing in for the dispatch on
/// `own`. Returns the number of comparisons.
pub(super) fn differential(own: Backend, kernel: impl Fn(&SecretPrime, u128, &[u8]) -> u128) -> usize {
    use crate::platform::{self, Backend as _};
    use num_bigint::BigUint;
    use rand::{RngExt, SeedableRng};

    let mut keys: Vec<SecretPrime> = [(1u128 << 127) - 1, u128::MAX - 158, (1u128 << 120) + 451]
        .iter()
        .filter_map(|p| SecretPrime::from_bytes(&p.to_le_bytes()).ok())
        .collect();
    keys.push(SecretPrime::generate().unwrap());
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x6d6f6470);
    let mut cases = Vec::new();
    for key in 0..keys.len() {
        for len in [0, 1, 17, BLOCK_BYTES, UNIT - 1, UNIT, UNIT + 5, 2 * UNIT, 4 * UNIT, 4 * UNIT + 3, 5 * UNIT + 511] {
            for m in [
                vec![0xff; len],
                vec![0; len],
                (0..len).map(|i| if (i / 8) % 2 == 0 { 0xff } else { 0 }).collect(),
                (0..len).map(|_| rng.random()).collect::<Vec<u8>>(),
            ] {
                cases.push(Case { key, m });
            }
        }
    }
    let reference = |c: &Case| {
        let p = BigUint::from(keys[c.key].t.p);
        let r = BigUint::from_bytes_le(&c.m) % p;
        r.to_u64_digits().iter().rev().fold(0u128, |a, &d| (a << 64) | d as u128)
    };
    let own_runs = core::cell::Cell::new(0usize);
    let n = platform::check_backends::<Backend, _, _>(&cases, reference, |b, c| {
        let k = &keys[c.key];
        if b != own {
            return k.reduce_with(crate::platform::Platform::hardware(), b, &c.m);
        }
        own_runs.set(own_runs.get() + 1);
        let full = c.m.len() / UNIT * UNIT;
        let w = kernel(k, 0, &c.m[..full]);
        portable::finish(&k.t, w, full as u64, portable::reduce(&k.t, &c.m[full..]))
    });
    assert!(n > 0, "no comparison made");
    if platform::backends::<Backend>().contains(&own) {
        assert!(own_runs.get() > 0, "{} was not compared", own.name());
    } else {
        platform::skipped_kernel(own.name());
    }
    n
}
