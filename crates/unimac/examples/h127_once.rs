//! Instruction counts under callgrind: `N` short hashes of `LEN` bytes.
fn main() {
    let len: usize = std::env::args().nth(1).map_or(64, |s| s.parse().unwrap());
    let n: usize = std::env::args().nth(2).map_or(1000, |s| s.parse().unwrap());
    let k = unimac::hash127::Key::new(&[0x5a; 32]);
    k.precompute();
    let m = vec![7u8; len];
    let mut x = 0u8;
    for _ in 0..n {
        x ^= unimac::hash127::hash127(&k, std::hint::black_box(&m))[0];
    }
    println!("{x}");
}
