//! VMAC known answers with long messages (docs/WIRE.md §8.6): the appendix of
//! draft-krovetz-vmac-01 (key "abcdefghijklmnop", nonce "bcdefghi", messages
//! "abc" repeated 0, 1, 16, 100 and 1,000,000 times) and further messages
//! across the 128-byte block boundary as published with Crypto++'s VMAC test
//! vectors from the same reference code. Wycheproof's files stop at 300
//! bytes; these reach 3 MB, through every path: one-shot (whole blocks
//! fused), streamed in uneven pieces, and by name with the nonce deferred.

use unimac::unstable::registry::NamedMac;
use unimac::vmac::{Vmac128, Vmac64};
use unimac::Absorb;

const KEY: &[u8; 16] = b"abcdefghijklmnop";
const NONCE: &[u8] = b"bcdefghi";

/// (message pattern repeated `n` times, then `tail`), VMAC-64 tag, VMAC-128 tag.
type Case = (&'static [u8], usize, &'static [u8], &'static str, &'static str);

const CASES: &[Case] = &[
    (b"abc", 0, b"", "2576be1c56d8b81b", "472766c70f74ed23481d6d7de4e80dac"),
    (b"abc", 1, b"", "2d376cf5b1813ce5", "4ee815a06a1d71edd36fc75d51188a42"),
    (b"abc", 16, b"", "e8421f61d573d298", "09f2c80c8e1007a0c12fae19fe4504ae"),
    (b"abc", 100, b"", "4492df6c5cac1bbe", "66438817154850c61d8a412164803bcb"),
    (b"abc", 1_000_000, b"", "09ba597dd7601113", "2b6b02288ffc461b75485de893c629dc"),
    (b"abc", 42, b"ab", "d638b73921f184de", "f7e95fe3da8db9e6bb973e65d0b4cea5"),
    (b"abc", 170, b"ab", "9da310281e6fd0a0", "bf53b8d2d70c05a85880c2e21caf1299"),
    (b"a", 65, b"", "90ea57cb51bc92a3", "b29b00760a58c7ab92d66024d69c1b92"),
    (b"a", 129, b"", "86348387d13d8233", "a7e52c3289d9b73b53576f059585ee79"),
    (b"abc", 65, b"", "e86a86ec77a8bf61", "0a1b2f973044f469f405917e45010334"),
];

fn message(p: &[u8], n: usize, tail: &[u8]) -> Vec<u8> {
    let mut m = p.repeat(n);
    m.extend_from_slice(tail);
    m
}

fn streamed<S>(mut s: S, msg: &[u8], mut update: impl FnMut(&mut S, &[u8])) -> S {
    let (mut rest, mut step) = (msg, 1usize);
    while !rest.is_empty() {
        let n = step.min(rest.len());
        update(&mut s, &rest[..n]);
        rest = &rest[n..];
        step = (step * 5 + 1) % 1000 + 1;
    }
    s
}

#[test]
fn draft_appendix_and_block_boundaries() {
    let v64 = Vmac64::new(KEY).unwrap();
    let v128 = Vmac128::new(KEY).unwrap();
    let m64 = NamedMac::new("vmac64", KEY).unwrap();
    let m128 = NamedMac::new("vmac128", KEY).unwrap();
    for &(p, n, tail, t64, t128) in CASES {
        let msg = message(p, n, tail);
        let (t64, t128) = (hex::decode(t64).unwrap(), hex::decode(t128).unwrap());
        let len = msg.len();
        assert_eq!(v64.tag(NONCE, &msg).unwrap().as_bytes().to_vec(), t64, "vmac64 one-shot, {len} bytes");
        assert_eq!(v128.tag(NONCE, &msg).unwrap().as_bytes().to_vec(), t128, "vmac128 one-shot, {len} bytes");
        let s = streamed(v64.start(NONCE).unwrap(), &msg, |s, d| s.update(d));
        assert_eq!(s.finalize().to_vec(), t64, "vmac64 streamed, {len} bytes");
        let s = streamed(v128.start(NONCE).unwrap(), &msg, |s, d| s.update(d));
        assert_eq!(s.finalize().to_vec(), t128, "vmac128 streamed, {len} bytes");
        let p = streamed(m64.start_deferred().unwrap(), &msg, |s, d| s.update(d));
        assert_eq!(p.finalize(Some(NONCE)).unwrap(), t64, "vmac64 deferred, {len} bytes");
        let p = streamed(m128.start_deferred().unwrap(), &msg, |s, d| s.update(d));
        assert_eq!(p.finalize(Some(NONCE)).unwrap(), t128, "vmac128 deferred, {len} bytes");
        assert!(v64.verify(NONCE, &msg, &t64).is_ok());
        let mut bad = t128.clone();
        bad[15] ^= 2;
        assert!(v128.verify(NONCE, &msg, &bad).is_err());
    }
}
