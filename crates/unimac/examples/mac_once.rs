//! `N` tags of `LEN`-byte messages by name, for instruction counts under
//! callgrind: `valgrind --tool=callgrind target/release/examples/mac_once NAME LEN N`.
fn main() {
    let mut a = std::env::args().skip(1);
    let name = a.next().unwrap_or_else(|| "hash127-aes".into());
    let len: usize = a.next().map_or(64, |s| s.parse().expect("a length"));
    let n: usize = a.next().map_or(1000, |s| s.parse().expect("a count"));
    let e = unimac::registry::lookup(&format!("mac-{name}")).expect("a MAC name");
    let key = vec![0x5a; e.info.key.default_len().expect("a fixed key")];
    let mac = unimac::registry::Mac::new(&name, &key).expect("keys");
    let nonce = vec![0x11; mac.nonce_len()];
    let m = vec![7u8; len];
    let mut t = [0u8; 32];
    let mut x = 0u8;
    for _ in 0..n {
        mac.tag_into((!nonce.is_empty()).then_some(&nonce[..]), std::hint::black_box(&m), &mut t).expect("tags");
        x ^= t[0];
    }
    println!("{x}");
}
