//! UMAC and VMAC on every kernel this CPU can run (`Umac::new_on`,
//! `Vmac::new_on` over `Platform::hardware().variants()`) against the
//! portable path: lengths around NH's groups and chunks, random and
//! all-ones messages, streaming in pieces equal to one-shot.

use crate::common;
use unimac::unstable::prelude::*;
use common::lengths;
use rand::{Rng, RngExt, SeedableRng};
use unimac::umac::{Umac, Umac128, Umac64};
use unimac::vmac::{Vmac, Vmac128, Vmac64};
use unimac::{Platform, Stream};

/// Every length to 200, and around the block sizes from 256 to 16 KiB.
const EDGES: &[(&[usize], &[i64])] =
    &[(&[256, 512, 1024, 2048, 4096, 16384], &[-33, -32, -31, -1, 0, 1, 31, 32, 33, 64, 65, 128, 129])];

fn messages(len: usize, r: &mut impl rand::Rng) -> Vec<Vec<u8>> {
    let mut m = vec![0u8; len];
    r.fill_bytes(&mut m);
    vec![m, vec![0xff; len]]
}

fn umac_agrees<const T: usize>(key: &[u8; 16], r: &mut impl rand::Rng) {
    let portable = Umac::<T>::new_on(Platform::portable(), key);
    for p in Platform::hardware().variants() {
        let mac = Umac::<T>::new_on(p, key);
        for len in lengths(200, EDGES) {
            for m in messages(len, r) {
                let nonce = [len as u8, 1, 2, 3, 4, 5, 6, 7];
                let want = portable.tag(&nonce, &m).unwrap();
                assert_eq!(mac.tag(&nonce, &m).unwrap(), want, "umac{} {p} len {len}", 8 * T);
                let mut s = mac.start(&nonce).unwrap();
                let cut = if len == 0 { 0 } else { (len * 7 / 13).min(len) };
                s.update(&m[..cut]);
                s.update(&m[cut..]);
                assert_eq!(s.finalize(), *want.as_ref(), "umac{} {p} streamed len {len}", 8 * T);
            }
        }
    }
}

fn vmac_agrees<const T: usize>(key: &[u8], r: &mut impl rand::Rng) {
    let portable = Vmac::<T>::new_on(Platform::portable(), key).unwrap();
    for p in Platform::hardware().variants() {
        let mac = Vmac::<T>::new_on(p, key).unwrap();
        for len in lengths(200, EDGES) {
            for m in messages(len, r) {
                let nonce = [len as u8, 9, 8, 7, 6, 5, 4, 3];
                let want = portable.tag(&nonce, &m).unwrap();
                assert_eq!(mac.tag(&nonce, &m).unwrap(), want, "vmac{} {p} len {len}", 8 * T);
                let mut s = mac.start(&nonce).unwrap();
                let cut = len / 3;
                s.update(&m[..cut]);
                s.update(&m[cut..]);
                assert_eq!(s.finalize(), *want.as_ref(), "vmac{} {p} streamed len {len}", 8 * T);
            }
        }
    }
}

#[test]
fn umac_every_kernel_equals_portable() {
    let mut r = rand::rngs::StdRng::seed_from_u64(0x4418);
    let key: [u8; 16] = r.random();
    umac_agrees::<4>(&key, &mut r);
    umac_agrees::<8>(&key, &mut r);
    umac_agrees::<12>(&key, &mut r);
    umac_agrees::<16>(&key, &mut r);
    // The default constructor is the detected platform's.
    let m = b"default dispatch";
    assert_eq!(Umac64::new(&key).tag(b"n", m).unwrap(), Umac64::new_on(Platform::detect(), &key).tag(b"n", m).unwrap());
    assert_eq!(Umac128::new(&key).tag(b"n", m).unwrap(), Umac128::new_on(Platform::portable(), &key).tag(b"n", m).unwrap());
}

#[test]
fn vmac_every_kernel_equals_portable() {
    let mut r = rand::rngs::StdRng::seed_from_u64(0x0c4c);
    for klen in [16usize, 24, 32] {
        let mut key = vec![0u8; klen];
        r.fill_bytes(&mut key);
        vmac_agrees::<8>(&key, &mut r);
        vmac_agrees::<16>(&key, &mut r);
    }
    assert!(Vmac64::new_on(Platform::portable(), &[0; 15]).is_err());
    assert!(Vmac128::new_on(Platform::detect(), &[0; 33]).is_err());
}

/// `backend()` names the kernel a platform leads to: the portable path on
/// the portable platform, and for the detected CPU the kernel its features
/// allow (AVX-512 for UMAC's NH with AVX-512 and AVX2; IFMA52 for VMAC-64
/// and VMAC-128 with AVX-512F and IFMA, both iterations of VMAC-128 in one
/// pass).
#[test]
fn backends_are_named_after_the_platform() {
    let key = [7u8; 16];
    assert_eq!(Umac64::new_on(Platform::portable(), &key).backend(), "portable");
    assert_eq!(Vmac64::new_on(Platform::portable(), &key).unwrap().backend(), "portable");
    for p in Platform::hardware().variants() {
        let u = Umac64::new_on(p, &key).backend();
        #[cfg(target_arch = "aarch64")]
        let neon = p.has(unimac::Feature::Neon);
        #[cfg(not(target_arch = "aarch64"))]
        let neon = false;
        let want_u = if p.has(unimac::Feature::Avx512) && p.has(unimac::Feature::Avx2Fma) {
            "avx512"
        } else if p.has(unimac::Feature::Avx2Fma) {
            "avx2fma"
        } else if neon {
            "neon"
        } else {
            "portable"
        };
        assert_eq!(u, want_u, "{p}");
        let want_v = if p.has(unimac::Feature::Avx512) && p.has(unimac::Feature::Avx512Ifma) {
            "avx512ifma"
        } else if p.has(unimac::Feature::Avx2Fma) {
            "avx2fma"
        } else {
            "portable"
        };
        assert_eq!(Vmac64::new_on(p, &key).unwrap().backend(), want_v, "{p}");
        assert_eq!(Vmac128::new_on(p, &key).unwrap().backend(), want_v, "{p}");
    }
}
