//! UMAC known answers (docs/WIRE.md §8.6): RFC 4418's appendix and boundary cases
//! around every length where UMAC changes path (the 32-byte NH group, the
//! 1024-byte L1 chunk, and the switch of L2 from POLY64 to POLY128 after
//! `2^14` chunks, 16 MiB). Every case is checked one-shot and streamed in
//! uneven pieces, for all four tag lengths.

use unimac::unstable::registry::{self, Params};
use unimac::umac::{Umac128, Umac32, Umac64, Umac96};

struct Case {
    nonce: &'static [u8],
    /// The message is this pattern repeated, cut to `len` bytes.
    pattern: &'static [u8],
    len: usize,
    t32: &'static str,
    t64: &'static str,
    /// UMAC-128's tag; UMAC-96's is its first 12 bytes.
    t128: &'static str,
}

const KEY: &[u8; 16] = b"abcdefghijklmnop";

/// RFC 4418 appendix: key "abcdefghijklmnop", nonce "bcdefghi". The RFC lists
/// UMAC-32, -64 and -96; the `'a' * 2^25` line is corrected by the RFC's
/// errata (its L2 uses POLY128). UMAC-128's tags (whose first 12 bytes are the
/// RFC's UMAC-96 tags) come from the RFC's authors' reference code.
const RFC: &[Case] = &[
    Case { nonce: b"bcdefghi", pattern: b"", len: 0, t32: "113145fb", t64: "6e155fad26900be1", t128: "32fedb100c79ad58f07ff7643cc60465" },
    Case { nonce: b"bcdefghi", pattern: b"a", len: 3, t32: "3b91d102", t64: "44b5cb542f220104", t128: "185e4fe905cba7bd85e4c2dc3d117d8d" },
    Case { nonce: b"bcdefghi", pattern: b"a", len: 1024, t32: "599b350b", t64: "26bf2f5d60118bd9", t128: "7a54abe04af82d60fb298c3cbd195bcb" },
    Case { nonce: b"bcdefghi", pattern: b"aaaaaaaa", len: 32768, t32: "58dcf532", t64: "27f8ef643b0d118d", t128: "7b136bd911e4b734286ef2be501f2c3c" },
    Case { nonce: b"bcdefghi", pattern: b"aaaaaaaa", len: 1048576, t32: "db6364d1", t64: "a4477e87e9f55853", t128: "f8acfa3ac31cfeea047f7b115b03bef5" },
    Case { nonce: b"bcdefghi", pattern: b"aaaaaaaa", len: 33554432, t32: "85ee5cae", t64: "faca46f856e9b45f", t128: "a621c2457c0012e64f3fdae9e7e1870c" },
    Case { nonce: b"bcdefghi", pattern: b"abc", len: 3, t32: "abf3a3a0", t64: "d4d7b9f6bd4fbfcf", t128: "883c3d4b97a61976ffcf232308cba5a5" },
    Case { nonce: b"bcdefghi", pattern: b"abc", len: 1500, t32: "abeb3c8b", t64: "d4cf26ddefd5c01a", t128: "8824a260c53c66a36c9260a62cb83aa1" },
];

/// Boundary cases (as published in Nettle's test suite, from the same
/// reference code): nonces of every length 1 to 16, messages of "defdef…"
/// around 0, 1024, 2048 and 2^24 bytes (the last L2 POLY64 chunk and the first
/// POLY128 words).
const BOUNDARY: &[Case] = &[
    Case { nonce: b"b", pattern: b"defdefdefdefdef", len: 0, t32: "3a58486b", t64: "9e38f67da91a08d9", t128: "9e38f67da91a08d9c980f4db4089c877" },
    Case { nonce: b"bc", pattern: b"defdefdefdefdef", len: 1, t32: "d86b1512", t64: "fb0e207971b8e66a", t128: "ef406c2ec70d0222f59e860eabb79ed0" },
    Case { nonce: b"bcd", pattern: b"defdefdefdefdef", len: 2, t32: "1ae6e02d", t64: "1ae6e02d73aa9ab2", t128: "1ae6e02d73aa9ab2a27fb89e014dc07b" },
    Case { nonce: b"bcde", pattern: b"defdefdefdefdef", len: 3, t32: "e8c1eb59", t64: "c81cf22342e84302", t128: "82626d0d575e01038e5e2cc6408216f5" },
    Case { nonce: b"bcdef", pattern: b"defdefdefdefdef", len: 4, t32: "8950f0d3", t64: "aba003e7bd673cc3", t128: "aba003e7bd673cc368ba8513cecf2e7c" },
    Case { nonce: b"bcdefg", pattern: b"defdefdefdefdef", len: 1020, t32: "7412167c", t64: "f98828a161bb4ae3", t128: "d8b4811f747d588d7a913360960de7cf" },
    Case { nonce: b"bcdefgh", pattern: b"defdefdefdefdef", len: 1021, t32: "2d54936b", t64: "2d54936be5bff72d", t128: "2d54936be5bff72d2e1052361163b474" },
    Case { nonce: b"bcdefghi", pattern: b"defdefdefdefdef", len: 1022, t32: "53ca8dd2", t64: "2cee9784556387b3", t128: "700513397f8a210a98938d3e7ac3bd88" },
    Case { nonce: b"bcdefghij", pattern: b"defdefdefdefdef", len: 1023, t32: "26cc58df", t64: "24ac4284ca371f42", t128: "24ac4284ca371f4280f60bd274633d67" },
    Case { nonce: b"bcdefghijk", pattern: b"defdefdefdefdef", len: 1024, t32: "3cada45a", t64: "64c6a0fd14615a76", t128: "abc223116cedd2db5af365e641a97539" },
    Case { nonce: b"bcdefghijkl", pattern: b"defdefdefdefdef", len: 1025, t32: "93251e18", t64: "93251e18e56bbdc4", t128: "93251e18e56bbdc457de556f95c59931" },
    Case { nonce: b"bcdefghijklm", pattern: b"defdefdefdefdef", len: 1026, t32: "24a4c3ab", t64: "5d98bd8dfaf16352", t128: "c1298672e52386753383a15ed58c0e42" },
    Case { nonce: b"bcdefghijklmn", pattern: b"defdefdefdefdef", len: 1027, t32: "e7e98945", t64: "5b0557c9fdcf661b", t128: "5b0557c9fdcf661b1758efc603516ebe" },
    Case { nonce: b"bcdefghijklmno", pattern: b"defdefdefdefdef", len: 2046, t32: "e12ddc9f", t64: "65e85d47447c2277", t128: "16bb5183017826ed47c9995c1e5834f3" },
    Case { nonce: b"bcdefghijklmnop", pattern: b"defdefdefdefdef", len: 2047, t32: "34d723a6", t64: "34d723a6cb1676d3", t128: "34d723a6cb1676d3547a5064dc5b0a37" },
    Case { nonce: b"bcdefghijklmnopq", pattern: b"defdefdefdefdef", len: 2048, t32: "21fd8802", t64: "3968d5d0af147884", t128: "84565620def1e3a614d274e87626f215" },
    Case { nonce: b"b", pattern: b"defdefdefdefdef", len: 2049, t32: "097e5abd", t64: "ad1ee4ab606061c5", t128: "ad1ee4ab606061c55e0d2ecfee59940a" },
    Case { nonce: b"bc", pattern: b"defdefdefdefdef", len: 2050, t32: "a03a7fe9", t64: "835f4a8242100055", t128: "971106d5f4a5e41dce40a91704cfe1f3" },
    Case { nonce: b"bcd", pattern: b"defdefdefdefdef", len: 16777212, t32: "7ef41cf3", t64: "7ef41cf351960aaf", t128: "7ef41cf351960aaf729bb19fcee7d8c4" },
    Case { nonce: b"bcde", pattern: b"defdefdefdefdef", len: 16777213, t32: "8bf81932", t64: "ab250048807ff640", t128: "e15b9f6695c9b441de035e9b10b8ac32" },
    Case { nonce: b"bcdef", pattern: b"defdefdefdefdef", len: 16777214, t32: "ddb2f0ab", t64: "ff42039fcfe1248e", t128: "ff42039fcfe1248e36c19efed14d7140" },
    Case { nonce: b"bcdefg", pattern: b"defdefdefdefdef", len: 16777215, t32: "e67ad507", t64: "6be0ebda623d76df", t128: "4adc426477fb64b1ce5afd76d505f048" },
    Case { nonce: b"bcdefgh", pattern: b"defdefdefdefdef", len: 16777216, t32: "42d8562a", t64: "42d8562a224a9e9a", t128: "42d8562a224a9e9a75c2f85d39462d07" },
    Case { nonce: b"bcdefghi", pattern: b"defdefdefdefdef", len: 16777217, t32: "486b138d", t64: "374f09dbb0b84b88", t128: "6ba48d669a51ed3195ebc2aa562ee71b" },
    Case { nonce: b"bcdefghij", pattern: b"defdefdefdefdef", len: 16778239, t32: "850cb2c5", t64: "876ca89ed045777b", t128: "876ca89ed045777bf7efa7934e1758c2" },
    Case { nonce: b"bcdefghijk", pattern: b"defdefdefdefdef", len: 16778240, t32: "b9fc4f81", t64: "e1974b26fb35f2c6", t128: "2e93c8ca83b97a6b1a21082e2a4c540d" },
    Case { nonce: b"bcdefghijkl", pattern: b"defdefdefdefdef", len: 16778241, t32: "ffced8f2", t64: "ffced8f2494d85bf", t128: "ffced8f2494d85bf0cb39408ddfe0295" },
    Case { nonce: b"bcdefghijklm", pattern: b"defdefdefdefdef", len: 16778242, t32: "1c99c5fb", t64: "65a5bbdda3b85368", t128: "f9148022bc6ab64f019e9db83704c17b" },
    Case { nonce: b"bcdefghijklmn", pattern: b"defdefdefdefdef", len: 16778243, t32: "ec304be9", t64: "50dc9565fbfc4884", t128: "50dc9565fbfc48844a4be34403804605" },
    Case { nonce: b"bcdefghijklmno", pattern: b"defdefdefdefdef", len: 16778244, t32: "8034e26f", t64: "04f163b7c2d5d849", t128: "77a26f7387d1dcd39378a3220652cff7" },];

fn message(c: &Case) -> Vec<u8> {
    if c.pattern.is_empty() {
        return Vec::new();
    }
    c.pattern.iter().copied().cycle().take(c.len).collect()
}

fn check(c: &Case) {
    let msg = message(c);
    let t128 = hex::decode(c.t128).unwrap();
    let want: [(&str, Vec<u8>); 4] = [
        ("mac-umac32", hex::decode(c.t32).unwrap()),
        ("mac-umac64", hex::decode(c.t64).unwrap()),
        ("mac-umac96", t128[..12].to_vec()),
        ("mac-umac128", t128.clone()),
    ];
    // Typed API, one-shot.
    assert_eq!(Umac32::new(KEY).tag(c.nonce, &msg).unwrap().as_bytes().to_vec(), want[0].1, "umac32 len {}", c.len);
    assert_eq!(Umac64::new(KEY).tag(c.nonce, &msg).unwrap().as_bytes().to_vec(), want[1].1, "umac64 len {}", c.len);
    assert_eq!(Umac96::new(KEY).tag(c.nonce, &msg).unwrap().as_bytes().to_vec(), want[2].1, "umac96 len {}", c.len);
    assert_eq!(Umac128::new(KEY).tag(c.nonce, &msg).unwrap().as_bytes().to_vec(), want[3].1, "umac128 len {}", c.len);
    // By name, streamed in uneven pieces (crossing every chunk boundary differently).
    for (name, tag) in &want {
        let mut s = registry::open(name, &Params { key: KEY, nonce: Some(c.nonce), len: None }).unwrap();
        let mut rest = &msg[..];
        let mut step = 1usize;
        while !rest.is_empty() {
            let n = step.min(rest.len());
            s.update(&rest[..n]);
            rest = &rest[n..];
            step = (step * 7 + 3) % 5000 + 1;
        }
        assert_eq!(&s.finalize().unwrap(), tag, "{name} streamed, len {}", c.len);
    }
}

#[test]
fn rfc4418_appendix() {
    assert_eq!(RFC.len(), 8);
    for c in RFC {
        check(c);
    }
}

#[test]
fn boundaries() {
    assert_eq!(BOUNDARY.len(), 30);
    for c in BOUNDARY {
        check(c);
    }
}
