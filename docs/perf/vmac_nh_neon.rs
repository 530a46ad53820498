// NH of one 128-byte VMAC block (one iteration), scalar against a NEON sketch,
// for counting instructions (docs/perf/umac.md, "VMAC's NH in NEON lanes"); not
// part of the library. Build and run for aarch64:
//   rustc --edition 2021 -O --target aarch64-unknown-linux-gnu -C linker=aarch64-linux-gnu-gcc -o nh vmac_nh_neon.rs
//   qemu-aarch64 -L /usr/aarch64-linux-gnu ./nh
use core::arch::aarch64::*;

#[inline(never)]
pub fn nh_scalar(key: &[u64; 16], block: &[u8; 128]) -> u128 {
    let w = |i: usize| u64::from_le_bytes(block[8 * i..8 * i + 8].try_into().unwrap());
    let mut y = 0u128;
    for j in 0..8 {
        let a = w(2 * j).wrapping_add(key[2 * j]);
        let b = w(2 * j + 1).wrapping_add(key[2 * j + 1]);
        y = y.wrapping_add(a as u128 * b as u128);
    }
    y
}

/// Two pairs a step: vld2q_u64 splits even and odd words, 64-bit adds, the
/// halves by xtn/shrn, four umull (32x32->64) per two products, each partial
/// product's low half added into a 64-bit column by uaddw and its high half
/// by usra; the four columns joined in scalar at the end of the block.
#[inline(never)]
#[target_feature(enable = "neon")]
pub unsafe fn nh_neon(key: &[u64; 16], block: &[u8; 128]) -> u128 {
    let mut c0 = vdupq_n_u64(0);
    let mut c1 = vdupq_n_u64(0);
    let mut c2 = vdupq_n_u64(0);
    let mut c3 = vdupq_n_u64(0);
    for s in 0..4 {
        let m = vld2q_u64(block.as_ptr().add(32 * s) as *const u64);
        let k = vld2q_u64(key.as_ptr().add(4 * s));
        let a = vaddq_u64(m.0, k.0);
        let b = vaddq_u64(m.1, k.1);
        let (al, ah) = (vmovn_u64(a), vshrn_n_u64::<32>(a));
        let (bl, bh) = (vmovn_u64(b), vshrn_n_u64::<32>(b));
        let ll = vmull_u32(al, bl);
        let lh = vmull_u32(al, bh);
        let hl = vmull_u32(ah, bl);
        let hh = vmull_u32(ah, bh);
        c0 = vaddw_u32(c0, vmovn_u64(ll));
        c1 = vsraq_n_u64::<32>(c1, ll);
        c1 = vaddw_u32(c1, vmovn_u64(lh));
        c2 = vsraq_n_u64::<32>(c2, lh);
        c1 = vaddw_u32(c1, vmovn_u64(hl));
        c2 = vsraq_n_u64::<32>(c2, hl);
        c2 = vaddw_u32(c2, vmovn_u64(hh));
        c3 = vsraq_n_u64::<32>(c3, hh);
    }
    let (s0, s1, s2, s3) = (vaddvq_u64(c0) as u128, vaddvq_u64(c1) as u128, vaddvq_u64(c2) as u128, vaddvq_u64(c3) as u128);
    s0.wrapping_add(s1 << 32).wrapping_add(s2 << 64).wrapping_add(s3 << 96)
}

fn main() {
    let mut x = 0x9e3779b97f4a7c15u64;
    let mut next = || { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x };
    let mut n = 0;
    for t in 0..20000 {
        let mut key = [0u64; 16];
        let mut block = [0u8; 128];
        for k in key.iter_mut() { *k = match t % 4 { 0 => u64::MAX, 1 => 0, _ => next() }; }
        for c in block.chunks_mut(8) { c.copy_from_slice(&(match t % 3 { 0 => u64::MAX, _ => next() }).to_le_bytes()); }
        assert_eq!(nh_scalar(&key, &block), unsafe { nh_neon(&key, &block) }, "case {t}");
        n += 1;
    }
    println!("{n} blocks agree");
}
