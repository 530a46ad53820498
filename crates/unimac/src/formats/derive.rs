//! One key, one purpose: every use of a key file's key other than tagging
//! a file runs under a key derived for that purpose, so that nothing one
//! purpose outputs is valid in another.
//!
//! The derivation is HKDF with SHA-256 (RFC 5869, the `hkdf` crate):
//!
//! ```text
//! K_purpose = HKDF-SHA256(salt = "unimac purpose keys v1",
//!                         IKM  = K,
//!                         info = LABEL || 0x00 || NAME,
//!                         L    = len(K))
//! ```
//!
//! where `K` is the key file's key, `NAME` the MAC's name (so one key used
//! with two MACs by mistake still gives unrelated keys) and `LABEL` names
//! the purpose ([`Purpose::label`]). `K_purpose` is a key of the same MAC
//! and length. HKDF is a PRF keyed by `K`: without `K`, a derived key is
//! indistinguishable from a fresh random key, so the purposes are as
//! independent as keys drawn separately, and a derived key reveals nothing
//! of `K` or of another purpose's key. A file's tag (under `K` itself) is
//! therefore no seal (under `K_manifest`) and no stream tag, and back.

use zeroize::Zeroizing;

use crate::prelude::*;
use crate::macs::MacDesc;

/// What a derived key is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The seal of a sealed manifest.
    ManifestSeal,
    /// The files' tags a sealed manifest lists (so that no entry is a check
    /// line, and a manifest cannot be turned into a check file).
    ManifestEntries,
    /// The frames of an authenticated stream.
    Stream,
}

impl Purpose {
    /// The label that names the purpose in the derivation.
    pub const fn label(self) -> &'static str {
        match self {
            Purpose::ManifestSeal => "unimac manifest seal",
            Purpose::ManifestEntries => "unimac manifest entries",
            Purpose::Stream => "unimac stream frames",
        }
    }
}

/// The salt of every derivation.
pub const SALT: &[u8] = b"unimac purpose keys v1";

/// `key` (of the MAC `desc`) derived for `purpose`: a key of the same
/// length, zeroized on drop.
pub fn purpose_key(desc: &MacDesc, key: &[u8], purpose: Purpose) -> Zeroizing<Vec<u8>> {
    let hk = hkdf::Hkdf::<sha2::Sha256>::new(Some(SALT), key);
    let mut info = Vec::with_capacity(purpose.label().len() + 1 + desc.name.len());
    info.extend_from_slice(purpose.label().as_bytes());
    info.push(0);
    info.extend_from_slice(desc.name.as_bytes());
    let mut out = Zeroizing::new(vec![0u8; key.len()]);
    // HKDF-SHA256 gives up to 255 · 32 bytes; keys are at most 48.
    hk.expand(&info, &mut out).expect("a key is far shorter than HKDF's limit");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purposes_and_names_give_other_keys_of_every_mac() {
        for d in crate::macs::MACS {
            let k = vec![9u8; d.default_key_len()];
            let a = purpose_key(d, &k, Purpose::ManifestSeal);
            let b = purpose_key(d, &k, Purpose::Stream);
            assert_eq!(a.len(), k.len());
            assert_ne!(&a[..], &k[..]);
            assert_ne!(a, b);
            // Every derived key is a key of its MAC.
            if !d.one_time {
                assert!(crate::registry::NamedMac::new(d.name, &a).is_ok(), "{}", d.name);
            }
        }
        let (u, v) = (crate::macs::find("umac64").unwrap(), crate::macs::find("umac128").unwrap());
        assert_ne!(purpose_key(u, &[1; 16], Purpose::ManifestSeal), purpose_key(v, &[1; 16], Purpose::ManifestSeal));
    }

    /// docs/WIRE.md §9.7's known answers (computed with Python's
    /// `cryptography` HKDF, an independent implementation).
    #[test]
    fn known_answers() {
        let d = crate::macs::find("hash127-aes").unwrap();
        let k: Vec<u8> = (0u8..32).collect();
        let hex = |v: &[u8]| v.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(hex(&purpose_key(d, &k, Purpose::ManifestSeal)), "63de112fc3ca8a771aaffe9e9d23f078b4d10da7276a9accf9fb891c76e1fdb5");
        assert_eq!(hex(&purpose_key(d, &k, Purpose::ManifestEntries)), "066d4e79c4e4d234f59f64e4e461f5ac7ed5664c1dda9d3060f94cb878b0ac25");
        assert_eq!(hex(&purpose_key(d, &k, Purpose::Stream)), "119ae0a526be5fadbfd5793aa06bb47dc3c754d3c8e51a70ccec45a062cfd044");
    }

    /// RFC 5869's first SHA-256 test case, through the same crate call.
    #[test]
    fn hkdf_is_rfc_5869() {
        let ikm = [0x0bu8; 22];
        let salt: Vec<u8> = (0u8..=0x0c).collect();
        let info: Vec<u8> = (0xf0u8..=0xf9).collect();
        let hk = hkdf::Hkdf::<sha2::Sha256>::new(Some(&salt), &ikm);
        let mut okm = [0u8; 42];
        hk.expand(&info, &mut okm).unwrap();
        let want = "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865";
        let got: String = okm.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, want);
    }
}
