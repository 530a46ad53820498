//! VMAC internals: the lazy polynomial step and the L3 arithmetic against
//! hash127's exact field arithmetic and big integers, streaming against
//! one-shot, nonce rules.

use num_bigint::BigUint;
use rand::{Rng, RngExt, SeedableRng};

use super::*;
use crate::hash127::portable::mul_mod;

pub(super) fn rng() -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(0x766d_6163)
}

fn big(x: u128) -> BigUint {
    BigUint::from(x)
}

#[test]
fn lazy_poly_step_is_exact_and_bounded() {
    let mut r = rng();
    let p = big(P127);
    let edges_a = [0u128, 1, P127 - 1, P127, 1 << 127, (1 << 127) + 4, u128::MAX];
    let edges_m = [0u128, 1, M126];
    for i in 0..50_000 {
        let a = if i < 63 { edges_a[i % 7] } else { r.random() };
        let m = if i < 63 { edges_m[(i / 7) % 3] } else { r.random::<u128>() & M126 };
        let k = if i % 2 == 0 { MPOLY } else { r.random::<u128>() & MPOLY };
        let got = poly_step(a, k, m);
        assert!(got < (1 << 127) + 5, "bound: a={a:x} k={k:x} m={m:x}");
        assert_eq!(big(got) % &p, (big(a) * big(k) + big(m)) % &p);
        // Against hash127's exact arithmetic.
        assert_eq!(reduce127(got), add_mod(mul_mod(reduce127(a), k), m));
    }
}

#[test]
fn l3_arithmetic_is_exact() {
    let mut r = rng();
    let d = big((1 << 64) - (1 << 32));
    let p64 = big(P64 as u128);
    for i in 0..50_000 {
        let v = match i {
            0 => 0,
            1 => P127 - 1,
            2 => (1 << 64) - (1 << 32),
            3 => ((1 << 64) - (1 << 32)) * 3 - 1,
            _ => r.random::<u128>() >> 1,
        };
        let (q, rem) = divmod_d(v);
        assert_eq!(big(q as u128), big(v) / &d, "{v:x}");
        assert_eq!(big(rem as u128), big(v) % &d, "{v:x}");
        let x: u128 = if i < 4 { u128::MAX - i as u128 } else { r.random() };
        assert_eq!(big(mod_p64(x) as u128), big(x) % &p64);
        // L3's key additions, at their extremes too (q up to 2^64 − 1 here,
        // beyond L3's 2^63 + 2^32; the sum stays below 2 p64 only for q < p64 + 257).
        let q = match i % 5 {
            0 => u64::MAX,
            1 => P64,
            2 => P64 - 1,
            3 => 0,
            _ => r.random(),
        };
        let kk = if i % 7 == 0 { P64 - 1 } else { r.random_range(0..P64) };
        if (q as u128 + kk as u128) < 2 * P64 as u128 {
            assert_eq!(big(add_p64(q, kk) as u128), (big(q as u128) + big(kk as u128)) % &p64, "{q:x} {kk:x}");
        }
    }
}

/// L3 of a lazily reduced L2 output (any `a < 2^128`, as the L2 loops and
/// the IFMA kernel leave it) against the draft's steps on big integers:
/// `v = (a + len·2^64) mod p127`, `q = v div d`, `r = v mod d`, then
/// `((q + k1) mod p64)·((r + k2) mod p64) mod p64`.
#[test]
fn l3_of_a_lazy_state_matches_the_model() {
    let mut r = rng();
    let (p127, p64) = (big(P127), big(P64 as u128));
    let d = big((1 << 64) - (1 << 32));
    let edges = [0u128, 1, P127 - 1, P127, 1 << 127, P127 + P127 - 1, u128::MAX - 1, u128::MAX];
    for i in 0..50_000 {
        let a = if i < 64 { edges[i % 8] } else { r.random() };
        let len = if i < 64 { [0u64, 8, 1016, 1023][(i / 8) % 4] } else { r.random_range(0..1024) };
        let k = if i % 3 == 0 { (P64 - 1, 0) } else { (r.random_range(0..P64), r.random_range(0..P64)) };
        let v = (big(a) + (big(len as u128) << 64)) % &p127;
        let (q, rem) = (&v / &d, &v % &d);
        let want = ((q + big(k.0 as u128)) % &p64) * ((rem + big(k.1 as u128)) % &p64) % &p64;
        assert_eq!(big(l3(a, len, k) as u128), want, "a={a:x} len={len} k={k:x?}");
    }
}

/// A stream in random chunkings (and one whose nonce comes at the end)
/// against the one-shot tag, on every backend this CPU has: the whole-block
/// loops see runs of every shape the cuts leave (a first block alone, runs
/// shorter and longer than a quad or an IFMA group).
#[test]
fn streaming_equals_one_shot() {
    let mut r = rng();
    let mut msg = vec![0u8; 4000];
    r.fill_bytes(&mut msg);
    for b in crate::platform::backends::<Backend>() {
    for klen in [16usize, 24, 32] {
        let mut key = vec![0u8; klen];
        r.fill_bytes(&mut key);
        let hw = Platform::hardware();
        let (mut v64, mut v128) = (Vmac64::new_on(hw, &key).unwrap(), Vmac128::new_on(hw, &key).unwrap());
        Arc::get_mut(&mut v64.key).unwrap().backend = b;
        Arc::get_mut(&mut v128.key).unwrap().backend = b;
        for len in [0usize, 1, 15, 16, 17, 127, 128, 129, 255, 256, 257, 384, 1000, 2000, 2048, 3071, 4000] {
            let m = &msg[..len];
            for _ in 0..6 {
                let nlen = r.random_range(1..=16);
                let mut nonce = vec![0u8; nlen];
                r.fill_bytes(&mut nonce);
                nonce[0] &= 0x7f;
                let mut cuts: Vec<usize> = (0..r.random_range(0..6)).map(|_| r.random_range(0..=len)).collect();
                cuts.sort();
                macro_rules! check {
                    ($mac:expr) => {{
                        let want = $mac.tag(&nonce, m).unwrap();
                        let mut s = $mac.start(&nonce).unwrap();
                        let mut p = $mac.start_deferred();
                        let mut at = 0;
                        for &c in cuts.iter().chain([len].iter()) {
                            s.update(&m[at..c]);
                            p.update(&m[at..c]);
                            at = c;
                        }
                        assert_eq!(s.finalize(), want, "key {klen} len {len} cuts {cuts:?}");
                        assert_eq!(p.finalize(&nonce).unwrap(), want);
                    }};
                }
                check!(v64);
                check!(v128);
            }
        }
    }
    }
}

#[test]
fn keys_nonces_and_debug() {
    for bad in [0usize, 8, 15, 17, 20, 33] {
        assert!(matches!(Vmac64::new(&vec![0; bad]), Err(Error::KeyLength { .. })), "{bad}");
    }
    let mac = Vmac64::new(&[0x5a; 32]).unwrap();
    assert!(mac.tag(&[], b"x").is_err());
    assert!(mac.tag(&[0; 17], b"x").is_err());
    let mut n = [0u8; 16];
    assert!(mac.tag(&n, b"x").is_ok());
    n[0] = 0x80;
    assert!(mac.tag(&n, b"x").is_err(), "top bit of a 16-byte nonce");
    assert!(mac.verify(&n, b"x", [0; 8]).is_err());
    // A shorter nonce is left-padded: 0x80 in a 15-byte nonce is fine.
    assert!(mac.tag(&n[..15], b"x").is_ok());
    // Left padding: "\x00\x01" and "\x01" are the same nonce.
    assert_eq!(mac.tag(&[0, 1], b"x").unwrap(), mac.tag(&[1], b"x").unwrap());
    let d = format!("{mac:?}");
    assert_eq!(d, "Vmac64 { .. }");
}

/// VMAC-64's pad cache (nonces that differ in the last bit share one AES
/// block) never changes a tag.
#[test]
fn pad_cache_is_transparent() {
    let key = [0x42u8; 24];
    for order in [[0u8, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]] {
        let shared = Vmac64::new(&key).unwrap();
        for last in order {
            for nonce in [vec![5, last], vec![last], vec![0x7f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, last]] {
                let want = Vmac64::new(&key).unwrap().tag(&nonce, b"message").unwrap();
                assert_eq!(shared.tag(&nonce, b"message").unwrap(), want, "nonce {nonce:?}");
            }
        }
    }
}

/// The one differential test of the VHASH kernels: L1 and L2 over whole
/// blocks ([`blocks_serial`]) on every backend this CPU can run
/// ([`crate::platform::check_backends`]) against NH by [`nh::nh_portable`]
/// and L2 by hash127's exact field arithmetic, for VMAC-64 and VMAC-128:
/// random words and keys; sums `m + k` at or just past `2^64 − 1` in every
/// word, under either iteration's key; all-ones words with a zero key;
/// zeros with an all-ones key (every partial product and digit at its
/// maximum); 1 to 20 blocks (across the AVX2 kernel's threshold of 12) and
/// the runs around the IFMA kernel's groups of eight, from the start and
/// after a first block. Returns the number of comparisons; each kernel
/// module's test calls it.
pub(super) fn check_vhash() -> usize {
    const MAX: usize = 65;
    let mut r = rng();
    let mut cases = Vec::new();
    for kind in 0..5 {
        let mut key = [0u64; nh::KEY_WORDS];
        let mut data = vec![0u8; MAX * BLOCK];
        match kind {
            0 | 1 | 4 => {
                r.fill_bytes(&mut data);
                key.iter_mut().for_each(|w| *w = r.random());
            }
            2 => {
                data.fill(0xff);
                key.fill(0);
            }
            _ => {
                data.fill(0);
                key.fill(u64::MAX);
            }
        }
        if kind == 1 || kind == 4 {
            // Sums near 2^64 in every word: m + k = 2^64 − 1 or wraps to 0,
            // under the first iteration's key words (kind 1) or the
            // second's, two words further on (kind 4).
            for (i, w) in data.chunks_exact_mut(8).enumerate() {
                let k = key[i % 16 + if kind == 4 { 2 } else { 0 }];
                let v = if i % 3 == 0 { u64::MAX.wrapping_sub(k) } else { 0u64.wrapping_sub(k) };
                w.copy_from_slice(&v.to_le_bytes());
            }
        }
        cases.push((key, data));
    }
    const K: [u8; 16] = [0x17; 16];
    // (case, blocks, iterations, whether a first block goes on its own).
    let mut inputs = Vec::new();
    for c in 0..cases.len() {
        for n in (1..=20).chain([23, 24, 25, 31, 32, 33, 64, MAX]) {
            for iters in [1, 2] {
                for split in [false, true] {
                    inputs.push((c, n, iters, split));
                }
            }
        }
    }
    let poly_keys = [1, 2].map(|iters| VmacKey::new(&K, iters, Platform::portable()).unwrap().poly);
    let exact = |&(c, n, iters, _): &(usize, usize, usize, bool)| -> [u128; 2] {
        let (key, data) = &cases[c];
        let kp = &poly_keys[iters - 1];
        let mut a = [1u128, 1];
        for b in data[..n * BLOCK].chunks_exact(BLOCK) {
            let y = nh::nh_portable::<2>(key, b);
            for t in 0..iters {
                a[t] = add_mod(mul_mod(a[t], kp[t]), y[t] & M126);
            }
        }
        a[iters..].fill(0);
        a
    };
    let kernel = |b: Backend, &(c, n, iters, split): &(usize, usize, usize, bool)| -> [u128; 2] {
        let (key, data) = &cases[c];
        // The hardware's evidence, which every enumerated backend needs.
        let mut k = VmacKey::new(&K, iters, Platform::hardware()).unwrap();
        *k.nh_fixed = *key;
        k.backend = b;
        let mut p = Poly::default();
        let d = &data[..n * BLOCK];
        if split {
            blocks_serial(&k, &mut p, &d[..BLOCK]);
            blocks_serial(&k, &mut p, &d[BLOCK..]);
        } else {
            blocks_serial(&k, &mut p, d);
        }
        let mut a = p.a.map(|x| reduce127(x) % P127);
        a[iters..].fill(0);
        a
    };
    crate::platform::check_backends(&inputs, exact, kernel)
}

#[test]
fn vhash_backends_agree_with_the_model() {
    assert!(check_vhash() > 0);
}

/// Whole tags on every backend against the portable one: VMAC-64 and
/// VMAC-128, lengths across 20 blocks and at the IFMA group edges.
#[test]
fn tags_agree_across_backends() {
    let mut r = rng();
    let mut msg = vec![0u8; 20 * BLOCK + 77];
    r.fill_bytes(&mut msg);
    let key = [0x17u8; 16];
    let lens: Vec<usize> =
        (0..=20 * BLOCK + 77).step_by(61).chain([BLOCK, 8 * BLOCK, 9 * BLOCK, 16 * BLOCK + 1]).collect();
    let on = Platform::portable();
    let (pp64, pp128) = (Vmac64::new_on(on, &key).unwrap(), Vmac128::new_on(on, &key).unwrap());
    let n = crate::platform::check_backends(
        &lens,
        |&len| (pp64.tag(b"nonce", &msg[..len]).unwrap(), pp128.tag(b"nonce", &msg[..len]).unwrap()),
        |b: Backend, &len| {
            let hw = Platform::hardware();
            let (mut v64, mut v128) = (Vmac64::new_on(hw, &key).unwrap(), Vmac128::new_on(hw, &key).unwrap());
            Arc::get_mut(&mut v64.key).unwrap().backend = b;
            Arc::get_mut(&mut v128.key).unwrap().backend = b;
            (v64.tag(b"nonce", &msg[..len]).unwrap(), v128.tag(b"nonce", &msg[..len]).unwrap())
        },
    );
    assert!(n > 0);
}


/// [`poly4`] against four [`poly_step`]s and big integers: random and
/// extreme accumulators (up to `2^128 − 1`), L1 outputs (up to `2^126 − 1`)
/// and keys (up to the mask, whose powers are arbitrary below `p127`).
#[test]
fn poly4_is_four_poly_steps() {
    let mut r = rng();
    let p = big(P127);
    let edges_a = [0u128, 1, P127 - 1, P127, 1 << 127, (1 << 127) + (1 << 71), u128::MAX];
    let edges_m = [0u128, 1, M126];
    for i in 0..20_000 {
        let k = match i % 4 {
            0 => MPOLY,
            1 => 1,
            _ => r.random::<u128>() & MPOLY,
        };
        let pw = key_powers(k);
        let a = if i < 700 { edges_a[i % 7] } else { r.random() };
        let m: [u128; 4] = std::array::from_fn(|j| if i < 700 { edges_m[(i / 7 + j) % 3] } else { r.random::<u128>() & M126 });
        let got = poly4(a, &pw, m);
        assert!(got < (1 << 127) + (1 << 72), "bound: a={a:x} k={k:x} m={m:x?}");
        let want = m.iter().fold(a, |acc, &mi| poly_step(acc, k, mi));
        assert_eq!(reduce127(got), reduce127(want), "a={a:x} k={k:x} m={m:x?}");
        let exact = m.iter().fold(big(a), |acc, &mi| (acc * big(k) + big(mi)) % &p);
        assert_eq!(big(reduce127(got)), exact);
    }
}

/// `divmod_d` at the edges of its steps: multiples of `d` and their
/// neighbours up to `2^127 − 1`, and every carry of the two folds.
#[test]
fn divmod_d_edges() {
    let d = (1u128 << 64) - (1 << 32);
    let dd = big(d);
    let mut r = rng();
    let mut vs = vec![0u128, 1, d - 1, d, d + 1, (1 << 127) - 1, (1 << 127) - 2, (1 << 64) - 1, 1 << 64, P127 - 1];
    for _ in 0..20_000 {
        let q = r.random::<u128>() % ((1u128 << 127) / d);
        for delta in [0i128, -1, 1, (1 << 32) - 1, -(1 << 32)] {
            let v = (q * d) as i128 + delta;
            if v >= 0 && (v as u128) < 1 << 127 {
                vs.push(v as u128);
            }
        }
        // Low halves at 2^64 − 1 and high halves at 2^63 − 1.
        vs.push(((r.random::<u64>() >> 1) as u128) << 64 | u64::MAX as u128);
        vs.push((((1u128 << 63) - 1) << 64) | r.random::<u64>() as u128);
    }
    for v in vs {
        let (q, rem) = divmod_d(v);
        assert_eq!((big(q as u128), big(rem as u128)), (big(v) / &dd, big(v) % &dd), "{v:x}");
    }
}

/// VMAC-64 and VMAC-128 one-shot tags of every length up to 300 bytes
/// (one-block messages on their own path) against a stream fed byte by byte.
#[test]
fn short_tags_match_streams() {
    let mut r = rng();
    let mut msg = vec![0u8; 300];
    r.fill_bytes(&mut msg);
    let (v64, v128) = (Vmac64::new(&[7u8; 16]).unwrap(), Vmac128::new(&[9u8; 32]).unwrap());
    for len in 0..=300 {
        let m = &msg[..len];
        let mut s64 = v64.start(b"nonce").unwrap();
        let mut s128 = v128.start(b"nonce").unwrap();
        for b in m {
            s64.update(std::slice::from_ref(b));
            s128.update(std::slice::from_ref(b));
        }
        assert_eq!(s64.finalize(), v64.tag(b"nonce", m).unwrap(), "{len}");
        assert_eq!(s128.finalize(), v128.tag(b"nonce", m).unwrap(), "{len}");
    }
}

/// [`dot`] of up to eight terms against hash127's exact arithmetic, with
/// every input at its largest too.
#[test]
fn dot_is_exact_and_bounded() {
    let mut r = rng();
    for i in 0..20_000 {
        let pick = |r: &mut rand::rngs::StdRng, big: bool| if big { u128::MAX } else { r.random() };
        let edge = i % 5 == 0;
        let terms: [(u128, u128); 7] =
            std::array::from_fn(|_| (pick(&mut r, edge), if edge { P127 - 1 } else { r.random::<u128>() % P127 }));
        let c = pick(&mut r, edge);
        let got = dot(terms, c);
        assert!(got < (1 << 127) + (1 << 72));
        let want = terms.iter().fold(reduce127(c), |s, &(x, k)| add_mod(s, mul_mod(reduce127(x), k)));
        assert_eq!(reduce127(got), want);
        let got4 = dot([terms[0], terms[1], terms[2], terms[3]], c);
        let want4 = terms[..4].iter().fold(reduce127(c), |s, &(x, k)| add_mod(s, mul_mod(reduce127(x), k)));
        assert_eq!(reduce127(got4), want4);
    }
}

/// VHASH one block at a time ([`l1`], the single L2 step) for a reference.
fn vhash_by_blocks(k: &VmacKey, msg: &[u8]) -> Poly {
    let mut p = Poly::default();
    for b in msg.chunks(BLOCK) {
        l1(k, &mut p, b);
    }
    p
}

/// The whole-block loop (four blocks per L2 step) against one block at a
/// time: every length 0..=1100 and a few long ones, random data and
/// all-ones data, random poly keys and the largest ones (the mask).
#[test]
fn block_loop_matches_one_block_at_a_time() {
    let mut r = rng();
    let mut msg = vec![0u8; 40 * BLOCK + 5];
    for case in 0..4 {
        let mut key = [0u8; 16];
        r.fill_bytes(&mut key);
        let mut mac = Vmac128::new(&key).unwrap();
        let k = Arc::get_mut(&mut mac.key).unwrap();
        if case >= 2 {
            // The largest poly keys; all-ones data.
            k.poly = Zeroizing::new([MPOLY, MPOLY - (1 << 64)]);
            k.powers = Zeroizing::new([key_powers(MPOLY), key_powers(MPOLY - (1 << 64))]);
            k.lanes = Zeroizing::new([lane_limbs(&k.powers[0]), lane_limbs(&k.powers[1])]);
        }
        if case % 2 == 1 {
            msg.fill(0xff);
        } else {
            r.fill_bytes(&mut msg);
        }
        let k = &*mac.key;
        for len in (0..=1100).chain([16 * BLOCK, 33 * BLOCK + 3, 40 * BLOCK + 5]) {
            let m = &msg[..len];
            let (got, want) = (vhash(k, m), vhash_by_blocks(k, m));
            assert_eq!(got.blocks, want.blocks);
            for t in 0..2 {
                let g = if got.blocks == 0 { 0 } else { reduce127(got.a[t]) };
                let w = if want.blocks == 0 { 0 } else { reduce127(want.a[t]) };
                assert_eq!(g, w, "case {case} len {len} iteration {t}");
            }
            // One-shot tags of both widths agree with a stream fed byte by
            // byte below 300 bytes (partial blocks through `l1` only).
            if len < 300 {
                let mut s = mac.start(b"n").unwrap();
                m.iter().for_each(|b| s.update(std::slice::from_ref(b)));
                assert_eq!(s.finalize(), mac.tag(b"n", m).unwrap());
            }
        }
    }
}

/// NH of a last block of every length 1..=128 against the reference on a
/// copy zero-padded to whole word pairs.
#[test]
fn nh_last_pads_to_word_pairs() {
    let mut r = rng();
    let mut key = [0u64; nh::KEY_WORDS];
    let mut data = [0u8; BLOCK];
    for round in 0..3 {
        if round == 2 {
            key.fill(u64::MAX);
            data.fill(0xff);
        } else {
            key.iter_mut().for_each(|w| *w = r.random());
            r.fill_bytes(&mut data);
        }
        for len in 1..=BLOCK {
            let mut padded = data[..len].to_vec();
            padded.resize(len.div_ceil(16) * 16, 0);
            assert_eq!(nh::nh_last::<1>(&key, &data[..len]), nh::nh_portable::<1>(&key, &padded), "{len}");
            assert_eq!(nh::nh_last::<2>(&key, &data[..len]), nh::nh_portable::<2>(&key, &padded), "{len}");
        }
    }
}

/// The lock-free pad cache under four threads tagging with nonces that
/// share and do not share AES blocks: every tag equals a fresh key's.
#[test]
#[cfg_attr(all(target_family = "wasm", not(target_feature = "atomics")), ignore = "needs a second thread; wasm32 without atomics has none")]
fn pad_cache_under_four_threads() {
    let key = [0x24u8; 16];
    let shared = Vmac64::new(&key).unwrap();
    let fresh = Vmac64::new(&key).unwrap();
    let want: Vec<_> = (0u64..64).map(|n| fresh.tag(&n.to_be_bytes(), b"message").unwrap()).collect();
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let (shared, want) = (&shared, &want);
            s.spawn(move || {
                for i in 0..20_000u64 {
                    let n = (i * (t + 1) + t) % 64;
                    assert_eq!(shared.tag(&n.to_be_bytes(), b"message").unwrap(), want[n as usize], "thread {t} nonce {n}");
                }
            });
        }
    });
    // Direct: a stored pair is found, another input is not.
    let c = PadCache::new();
    assert!(c.get(0).is_none());
    c.put(6, 42);
    assert_eq!(c.get(6), Some(42));
    assert!(c.get(7).is_none());
}

/// The AVX-512 IFMA kernel (when this CPU has it) against the scalar block
/// NH and hash127's exact arithmetic, for one iteration and for VMAC-128's
/// two in one pass: eight Horner chains in `k⁸`, lane 7 starting from
/// `start`, joined with `k^(7−b)`. Random words and keys, all-ones words
/// with an all-ones key and sums `m + k` at `2^64 − 1` (every NH column and
/// carry at its largest), zeros; the powers random below `p127`, 1 and
/// `p127 − 1` (they need not be one key's powers: the kernel takes each as
/// given); `start` random, 0 and `p127 − 1`; one to five groups.
#[cfg(target_arch = "x86_64")]
#[test]
fn ifma_kernel_agrees_with_scalar() {
    let p = Platform::hardware();
    if !(p.avx512() && p.avx512ifma()) {
        crate::platform::skipped_kernel("avx512ifma");
        return;
    }
    let mut r = rng();
    let mut key = [0u64; nh::KEY_WORDS];
    // Per iteration: Horner over the lanes from `start`, then the join.
    let model = |key: &[u64; nh::KEY_WORDS], data: &[u8], pw: &[u128; 8], start: u128, t: usize| {
        // The first group's lanes are its NH (lane 7 plus `start`).
        let mut h = [0u128; 8];
        h[7] = reduce127(start);
        for (i, b) in data.chunks_exact(BLOCK).enumerate() {
            let m = nh::nh_portable::<2>(key, b)[t] & M126;
            let x = &mut h[i % 8];
            *x = add_mod(if i < 8 { *x } else { mul_mod(*x, pw[7]) }, m % P127);
        }
        (0..7).fold(h[7], |s, b| add_mod(s, mul_mod(h[b], pw[6 - b])))
    };
    let mut n = 0;
    for kind in 0..5 {
        for groups in 1..=5 {
            let mut data = vec![0u8; groups * avx512::GROUP];
            match kind {
                0 => {
                    r.fill_bytes(&mut data);
                    key.iter_mut().for_each(|w| *w = r.random());
                }
                1 => {
                    data.fill(0xff);
                    key.fill(u64::MAX);
                }
                2 => {
                    key.iter_mut().for_each(|w| *w = r.random());
                    for (i, w) in data.chunks_exact_mut(8).enumerate() {
                        w.copy_from_slice(&u64::MAX.wrapping_sub(key[i % 16]).to_le_bytes());
                    }
                }
                3 => {
                    data.fill(0);
                    key.fill(0);
                }
                _ => {
                    data.fill(0xff);
                    key.fill(0);
                }
            }
            for edge in 0..3 {
                let pick = |r: &mut rand::rngs::StdRng| match edge {
                    0 => r.random::<u128>() % P127,
                    1 => 1,
                    _ => P127 - 1,
                };
                let pw: [[u128; 8]; 2] = std::array::from_fn(|_| std::array::from_fn(|_| pick(&mut r)));
                let start: [u128; 2] = match edge {
                    0 => [r.random::<u128>() % P127, r.random::<u128>() % P127],
                    1 => [0, 0],
                    _ => [P127 - 1, P127 - 1],
                };
                let lanes = [lane_limbs(&pw[0]), lane_limbs(&pw[1])];
                let [one] = avx512::nh_poly::<1>(p, &key, &data, &[pw[0][7]], &[lanes[0]], &[start[0]]);
                let two = avx512::nh_poly::<2>(p, &key, &data, &[pw[0][7], pw[1][7]], &lanes, &start);
                let want: [u128; 2] = std::array::from_fn(|t| model(&key, &data, &pw[t], start[t], t));
                assert_eq!(reduce127(one), want[0], "one iteration: kind {kind} groups {groups} edge {edge}");
                assert_eq!(two.map(reduce127), want, "two iterations: kind {kind} groups {groups} edge {edge}");
                n += 1;
            }
        }
    }
    assert_eq!(n, 75);
}

/// VMAC-64 and VMAC-128 tags on the IFMA kernel against the portable
/// backend at every length around the group boundaries, random and
/// all-ones data, one-shot and streamed in random pieces.
#[test]
fn tags_agree_across_backends_at_group_edges() {
    let mut r = rng();
    let mut msg = vec![0u8; 40 * BLOCK + 100];
    for fill in [None, Some(0xffu8)] {
        match fill {
            None => r.fill_bytes(&mut msg),
            Some(b) => msg.fill(b),
        }
        let mut key = [0u8; 16];
        r.fill_bytes(&mut key);
        let hw = crate::platform::Platform::hardware();
        let sw = crate::platform::Platform::portable();
        let (fast64, slow64) = (Vmac64::new_on(hw, &key).unwrap(), Vmac64::new_on(sw, &key).unwrap());
        let (fast128, slow128) = (Vmac128::new_on(hw, &key).unwrap(), Vmac128::new_on(sw, &key).unwrap());
        for len in (0..=40 * BLOCK + 100).filter(|l| l % BLOCK < 3 || l % BLOCK > BLOCK - 3 || l % 97 == 0) {
            let m = &msg[..len];
            let want = (slow64.tag(b"n", m).unwrap(), slow128.tag(b"n", m).unwrap());
            assert_eq!((fast64.tag(b"n", m).unwrap(), fast128.tag(b"n", m).unwrap()), want, "len {len}");
            let (mut s64, mut s128) = (fast64.start(b"n").unwrap(), fast128.start(b"n").unwrap());
            let mut at = 0;
            while at < len {
                // Pieces up to three groups of eight blocks.
                let step = r.random_range(1..=3 * 8 * BLOCK).min(len - at);
                s64.update(&m[at..at + step]);
                s128.update(&m[at..at + step]);
                at += step;
            }
            assert_eq!(s64.finalize(), want.0, "streamed, len {len}");
            assert_eq!(s128.finalize(), want.1, "streamed, len {len}");
        }
    }
}
