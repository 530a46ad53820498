//! `N` tags of `LEN`-byte messages by name, for instruction counts under
//! callgrind: `valgrind --tool=callgrind target/release/examples/mac_once NAME LEN N`
//! (or under qemu's instruction-count plugin). `NAME` may also be
//! `blake3-keyed`, the `blake3` crate's keyed hash, as a yardstick.
//! With `MAC_ONCE_COUNTER=1` the nonce is a counter, a new one per tag
//! (its last 8 bytes big-endian), so that a MAC with a nonce runs its
//! cipher for every tag instead of finding the pad of the one fixed nonce
//! in its cache.
fn main() {
    let mut a = std::env::args().skip(1);
    let name = a.next().unwrap_or_else(|| "hash127-aes".into());
    let len: usize = a.next().map_or(64, |s| s.parse().expect("a length"));
    let n: usize = a.next().map_or(1000, |s| s.parse().expect("a count"));
    if name == "blake3-keyed" {
        let m = vec![7u8; len];
        let mut x = 0u8;
        for _ in 0..n {
            x ^= blake3::keyed_hash(&[0x5a; 32], std::hint::black_box(&m)).as_bytes()[0];
        }
        println!("{x}");
        return;
    }
    let d = unimac::unstable::registry::desc(&name).expect("a MAC name");
    let key = vec![0x5a; d.default_key_len()];
    let m = vec![7u8; len];
    let mut x = 0u8;
    if d.one_time {
        // A one-time key tags one message: a fresh one-time MAC per tag.
        for _ in 0..n {
            x ^= unimac::unstable::registry::OneTimeMac::new(d.name, &key).expect("keys").tag(std::hint::black_box(&m))[0];
        }
        println!("{x}");
        return;
    }
    // For shoup4-*, the tag as sent (r || s || tag), the pair drawn per tag.
    let mac = unimac::unstable::registry::NamedMac::new(&name, &key).expect("keys");
    let mut nonce = vec![0x11; *mac.nonce_sizes().end()];
    let counter = std::env::var_os("MAC_ONCE_COUNTER").is_some_and(|v| v == "1");
    let mut t = [0u8; 32];
    for i in 0..n {
        if counter && nonce.len() >= 8 {
            let k = nonce.len() - 8;
            nonce[k..].copy_from_slice(&(i as u64 + 1).to_be_bytes());
        }
        mac.tag_into((!nonce.is_empty()).then_some(&nonce[..]), std::hint::black_box(&m), &mut t).expect("tags");
        x ^= t[0];
    }
    println!("{x}");
}
