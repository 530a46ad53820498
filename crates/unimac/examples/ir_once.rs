//! N one-shot computations of LEN-byte messages by name (registry::key once).
fn main() {
    let mut a = std::env::args().skip(1);
    let name = a.next().unwrap();
    let len: usize = a.next().unwrap().parse().unwrap();
    let n: usize = a.next().unwrap().parse().unwrap();
    let e = unimac::registry::lookup(&name).unwrap();
    let key = vec![0x5a; e.info.key.default_len().unwrap()];
    let nonce = vec![0x11; e.info.nonce];
    let nn = (!nonce.is_empty()).then_some(&nonce[..]);
    let k = unimac::registry::key(&name, &unimac::registry::Params { key: &key, nonce: None, len: None }).unwrap();
    let m = vec![7u8; len];
    let mut x = 0u8;
    for _ in 0..n {
        x ^= k.compute(nn, std::hint::black_box(&m)).unwrap()[0];
    }
    println!("{x}");
}
