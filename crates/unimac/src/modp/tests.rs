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
