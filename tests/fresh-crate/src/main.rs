//! README's library snippet (README.md, "Library"), as it stands there, in
//! `main`; `tests/readme.rs` checks that the two are the same code.

fn main() {
    use unimac::mac::Hash127Aes;

    // Typed MACs: fixed-size tags (constant-time ==), verify returns Result.
    let mac = Hash127Aes::new(&[7u8; 32]);            // r ‖ K, from `unimac keygen hash127-aes`
    let tag = mac.tag(b"attack at dawn");             // unimac::Tag<16>, no allocation
    assert!(mac.verify(b"attack at dawn", &tag).is_ok());
    assert!(mac.verify(b"attack at dusk", &tag).is_err()); // Err(MacError), never Ok
    let hex = tag.to_string();                        // lowercase hex, as check lines write tags ({:x} too)
    assert_eq!(hex.parse::<unimac::Tag<16>>(), Ok(tag)); // FromStr: an Error naming the length or the bad digit

    // The RustCrypto traits (universal-hash 0.6, digest 0.11), re-exported as
    // unimac::universal_hash and unimac::digest: UniversalHash + KeyInit for
    // hash127, eval64, division64 and eval128; digest::Mac for hash127-aes.
    use unimac::universal_hash::{KeyInit, UniversalHash};
    let mut h = unimac::rustcrypto::Eval128Uhf::new(&[3u8; 16].into());
    h.update_padded(b"any bytes; the caller pads");
    let _ = h.finalize();

    use unimac::digest::Mac;
    let mut m = unimac::rustcrypto::Hash127AesMac::new_from_slice(&[7u8; 32]).unwrap();
    m.update(b"attack at dawn");
    assert!(m.verify_slice(tag.as_bytes()).is_ok()); // never verify_truncated_*
    println!("README's library snippet ran");
}
