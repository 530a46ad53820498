use super::*;
use crate::prelude::*;

#[test]
fn matches_the_reference() {
    super::super::tests::differential(super::super::Backend::Avx512);
}

#[test]
fn matches_the_reference_with_ifma() {
    super::super::tests::differential(super::super::Backend::Avx512Ifma);
}
use num_bigint::BigUint;

/// [`reduce8`] against num-bigint on values whose residue lies in
/// `[2^l, p)` (the `z < 0` case), near multiples of `p`, extremes and
/// random words.
fn check<const V: usize>() {
    let l = 32 * V;
    let t = crate::square::portable::T[V];
    let p = (BigUint::from(1u8) << l) + t;
    let top = (BigUint::from(1u8) << (2 * l)) - 1u8;
    let mut xs: Vec<BigUint> = Vec::new();
    for j in 0..=t + 1 {
        xs.push((BigUint::from(1u8) << l) + j);
        xs.push(&p * 3u8 + j);
        xs.push(&p * 7u8 - 1u8 - j);
        xs.push(&top - j);
        xs.push(BigUint::from(j));
        // A large multiple of p plus [2^l, p): below 2^(2l).
        xs.push(&p * ((BigUint::from(1u8) << l) - t - 2u8) + (BigUint::from(1u8) << l) + j);
    }
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..400 {
        let mut x = BigUint::from(0u8);
        for _ in 0..2 * V {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            x = (x << 32) + (s & 0xffff_ffff);
        }
        xs.push(x);
    }
    let m32 = BigUint::from(0xffff_ffffu32);
    for group in xs.chunks(8) {
        let mut lanes = [[0u64; 8]; 8];
        for (q, x) in group.iter().enumerate() {
            for (r, lane) in lanes.iter_mut().enumerate().take(2 * V) {
                // Garbage in the high halves, which must be ignored.
                let w: u64 = ((x >> (32 * r)) & &m32).try_into().unwrap();
                lane[q] = w | 0xdead_beef_0000_0000;
            }
        }
        // SAFETY: AVX-512F checked by the caller; loads and stores of local arrays.
        let out = unsafe {
            let word: [__m512i; 8] = core::array::from_fn(|r| _mm512_loadu_si512(lanes[r].as_ptr() as *const __m512i));
            let r = reduce8::<V>(&word);
            let mut o = [[0u64; 8]; 4];
            for j in 0..V {
                _mm512_storeu_si512(o[j].as_mut_ptr() as *mut __m512i, r[j]);
            }
            o
        };
        for (q, x) in group.iter().enumerate() {
            assert!(x <= &top);
            let want = (x % &p) & ((BigUint::from(1u8) << l) - 1u8);
            let mut got = BigUint::from(0u8);
            for j in (0..V).rev() {
                got = (got << 32) + (out[j][q] & 0xffff_ffff);
            }
            assert_eq!(got, want, "l = {l}, X = {x:x}");
        }
    }
}

/// [`exact_reduce8`] against num-bigint: values up to `2^(2l + 12)` near
/// multiples of `p` (the `z < 0` case among them), in `[2^l, p)`,
/// extremes and random, given as 32-bit words and again with large
/// column values (part of each word moved down as a multiple of 2^32).
fn check_exact<const V: usize>() {
    let l = 32 * V;
    let t = crate::square::portable::T[V];
    let p = (BigUint::from(1u8) << l) + t;
    let top = (BigUint::from(1u8) << (2 * l + 12)) - 1u8;
    let mut xs: Vec<BigUint> = Vec::new();
    for j in 0..=t + 1 {
        xs.push((BigUint::from(1u8) << l) + j);
        xs.push(&p * 5u8 + j);
        xs.push(&p * 70u8 - 1u8 - j);
        xs.push(&top - j);
        xs.push(BigUint::from(j));
        xs.push(&p * ((BigUint::from(1u8) << (l + 11)) - 3u8) + j);
        xs.push(&p * ((BigUint::from(1u8) << (l + 11)) + 7u8) - 1u8 - j);
    }
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for _ in 0..400 {
        let mut x = BigUint::from(0u8);
        for _ in 0..2 * V {
            x = (x << 32) + (next() & 0xffff_ffff);
        }
        xs.push(x + (BigUint::from(next() & 0xfff) << (2 * l)));
    }
    let m32 = BigUint::from(0xffff_ffffu32);
    for (round, group) in xs.chunks(8).enumerate() {
        let mut lanes = [[0u64; 8]; 10];
        for (q, x) in group.iter().enumerate() {
            assert!(x <= &top);
            // (2V + 1 words fill columns 0..=2V <= 8.)
            for (r, lane) in lanes.iter_mut().enumerate().take(2 * V + 1) {
                lane[q] = ((x >> (32 * r)) & &m32).try_into().unwrap();
            }
            if round % 2 == 1 {
                // Move part of word r + 1 down into column r.
                for r in 0..2 * V {
                    let a = lanes[r + 1][q] / 3;
                    lanes[r + 1][q] -= a;
                    lanes[r][q] += a << 32;
                }
            }
        }
        // SAFETY: AVX-512F checked by the caller; loads and stores of local arrays.
        let out = unsafe {
            let cols: [__m512i; 10] = core::array::from_fn(|r| _mm512_loadu_si512(lanes[r].as_ptr() as *const __m512i));
            let r = exact_reduce8::<V>(&cols);
            let mut o = [[0u64; 8]; 5];
            for j in 0..=V {
                _mm512_storeu_si512(o[j].as_mut_ptr() as *mut __m512i, r[j]);
            }
            o
        };
        for (q, x) in group.iter().enumerate() {
            let want = x % &p;
            let mut got = BigUint::from(0u8);
            for j in (0..=V).rev() {
                assert!(out[j][q] <= 0xffff_ffff);
                got = (got << 32) + out[j][q];
            }
            assert_eq!(got, want, "l = {l}, X = {x:x}");
        }
    }
}

#[test]
fn exact_reduce8_matches_bigint() {
    if !crate::platform::Platform::hardware().avx512() {
        crate::platform::skipped_kernel("avx512");
        return;
    }
    check_exact::<1>();
    check_exact::<2>();
    check_exact::<3>();
    check_exact::<4>();
}

#[test]
fn reduce8_matches_bigint() {
    if !crate::platform::Platform::hardware().avx512() {
        crate::platform::skipped_kernel("avx512");
        return;
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
}
