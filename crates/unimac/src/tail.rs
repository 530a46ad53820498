//! A message's last, partial block read as a little-endian integer in
//! place, with loads of the message itself.
//!
//! The obvious way, a zeroed buffer with the bytes copied in and read back
//! as one wide word, is slow on the critical path of a short tag: the copy's
//! stores are narrower than the load that reads them back, and a load that
//! spans several stores still in the store buffer cannot take its bytes
//! from them, so it waits until they reach the cache (docs/perf/umac.md,
//! "Store forwarding"). The lengths decide the loads; no byte of the message
//! does.

/// The little-endian integer of `b`, at most 16 bytes (the bytes past its
/// end read as zeros): one 16-byte load shifted down when `whole` (the
/// message `b` ends) has 16 bytes up to `b`'s end, else loads of 8, 4, 2
/// and 1 bytes as the length asks.
/// (Its callers so far are the carry-less short paths of x86-64 and aarch64.)
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
#[inline(always)]
pub(crate) fn le_partial(whole: &[u8], start: usize) -> u128 {
    let b = &whole[start..];
    let n = b.len();
    debug_assert!(n <= 16);
    if n == 0 {
        return 0;
    }
    if whole.len() >= 16 {
        let end = whole.len();
        return u128::from_le_bytes(whole[end - 16..].try_into().unwrap()) >> (8 * (16 - n));
    }
    let mut x = 0u128;
    let mut at = 0;
    if n - at >= 8 {
        x |= u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as u128;
        at += 8;
    }
    if n - at >= 4 {
        x |= (u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as u128) << (8 * at);
        at += 4;
    }
    if n - at >= 2 {
        x |= (u16::from_le_bytes(b[at..at + 2].try_into().unwrap()) as u128) << (8 * at);
        at += 2;
    }
    if n - at >= 1 {
        x |= (b[at] as u128) << (8 * at);
    }
    x
}

#[cfg(test)]
mod tests {
    /// Every start and length of messages up to 40 bytes: the zero-padded
    /// copy read as one word.
    #[test]
    fn is_the_zero_padded_copy() {
        let msg: crate::prelude::Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(37).wrapping_add(0x91)).collect();
        let mut n = 0;
        for len in 0..=msg.len() {
            let whole = &msg[..len];
            for start in len.saturating_sub(16)..=len {
                let mut padded = [0u8; 16];
                padded[..len - start].copy_from_slice(&whole[start..]);
                assert_eq!(super::le_partial(whole, start), u128::from_le_bytes(padded), "length {len}, start {start}");
                n += 1;
            }
        }
        assert_eq!(n, 17 * 18 / 2 + 24 * 17);
    }
}
