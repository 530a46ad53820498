//! N one-shot computations of LEN-byte messages by name (registry::key once).
//! The names `registry::key` refuses go through their own doors: a one-time
//! value with a fresh one-time MAC per message (`hash127-raw` by its typed
//! hash, keyed once), a `shoup4-` MAC by `registry::NamedMac`, its pair drawn per
//! message.
use std::hint::black_box;

use unimac::unstable::registry::{self, NamedMac, OneTimeMac, Params};

fn main() {
    let mut a = std::env::args().skip(1);
    let name = a.next().unwrap();
    let len: usize = a.next().unwrap().parse().unwrap();
    let n: usize = a.next().unwrap().parse().unwrap();
    let e = registry::lookup(&name).unwrap();
    let key = vec![0x5a; e.info.key.default_len().unwrap()];
    let nonce = vec![0x11; e.info.nonce];
    let nn = (!nonce.is_empty()).then_some(&nonce[..]);
    let m = vec![7u8; len];
    let mut x = 0u8;
    let pair_drawn = unimac::unstable::macs::MACS
        .iter()
        .any(|d| d.catalog_name == name && d.framing == unimac::unstable::macs::Framing::PairThenTag);
    if name == "hash127-raw" {
        let k = unimac::unstable::hash127::Key::new(key[..].try_into().unwrap());
        for _ in 0..n {
            x ^= unimac::unstable::hash127::hash127_raw(&k, black_box(&m)).unwrap()[0];
        }
    } else if let Some(d) = unimac::unstable::macs::one_time_row(&name) {
        for _ in 0..n {
            x ^= OneTimeMac::new(d.name, &key).unwrap().tag(black_box(&m))[0];
        }
    } else if pair_drawn {
        let mac = NamedMac::new(&name, &key).unwrap();
        let mut t = [0u8; 32];
        for _ in 0..n {
            mac.tag_into(None, black_box(&m), &mut t).unwrap();
            x ^= t[0];
        }
    } else {
        let k = registry::key(&name, &Params { key: &key, nonce: None, len: None }).unwrap();
        for _ in 0..n {
            x ^= k.compute(nn, black_box(&m)).unwrap()[0];
        }
    }
    println!("{x}");
}
