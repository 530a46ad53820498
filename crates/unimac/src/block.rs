//! The block cipher's input written to memory in one 16-byte store.
//!
//! The `aes` crate reads its input block with one 16-byte load. A block
//! built in general-purpose registers (a `u128`, or the 16 bytes of a hash
//! just computed) is stored as two 8-byte words, and a load that spans two
//! stores still in the store buffer cannot take its bytes from them: it
//! waits until they reach the cache, on the critical path of a short tag,
//! between the hash and the cipher (docs/perf/umac.md, "Store forwarding").
//! On x86-64 the two words are joined in an SSE2 register (SSE2 is part of
//! every x86-64 CPU: the target's baseline, so no run-time check) and
//! stored at once with `movdqu`, straight into the caller's block (a block
//! handed back by value could be copied in two words again). The store is
//! written as inline assembly: through `_mm_storeu_si128` the optimiser
//! split it into two 8-byte stores again. Elsewhere (and under Miri, which
//! runs no assembly) the bytes are copied.

/// Set `b` to the bytes of `lo` (0..8) and `hi` (8..16), little-endian.
#[inline(always)]
pub(crate) fn set_words(b: &mut aes::Block, lo: u64, hi: u64) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
    {
        use core::arch::x86_64::_mm_set_epi64x;
        // SAFETY: SSE2 is enabled for the whole build (the `cfg` above).
        let v = unsafe { _mm_set_epi64x(hi as i64, lo as i64) };
        // SAFETY: `movdqu` (SSE2, enabled for the build) writes the 16 bytes
        // at `b`, which `b` owns; it touches no stack and no flags.
        unsafe {
            core::arch::asm!(
                "movdqu xmmword ptr [{p}], {v}",
                p = in(reg) b.as_mut_ptr(),
                v = in(xmm_reg) v,
                options(nostack, preserves_flags),
            )
        };
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2", not(miri))))]
    {
        b[..8].copy_from_slice(&lo.to_le_bytes());
        b[8..].copy_from_slice(&hi.to_le_bytes());
    }
}

/// Set `b` to the 16 bytes `x`.
#[inline(always)]
pub(crate) fn set_bytes(b: &mut aes::Block, x: &[u8; 16]) {
    set_words(b, u64::from_le_bytes(x[..8].try_into().unwrap()), u64::from_le_bytes(x[8..].try_into().unwrap()));
}

/// Set `b` to `x` big-endian (the bytes of `x.to_be_bytes()`).
#[inline(always)]
pub(crate) fn set_be(b: &mut aes::Block, x: u128) {
    set_words(b, ((x >> 64) as u64).swap_bytes(), (x as u64).swap_bytes());
}

#[cfg(test)]
mod tests {
    #[test]
    fn are_the_bytes() {
        let x: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(29).wrapping_add(3));
        let mut b = aes::Block::default();
        super::set_bytes(&mut b, &x);
        assert_eq!(<[u8; 16]>::from(b), x);
        let v = u128::from_le_bytes(x);
        super::set_be(&mut b, v);
        assert_eq!(<[u8; 16]>::from(b), v.to_be_bytes());
        super::set_words(&mut b, 1, 2);
        assert_eq!(<[u8; 16]>::from(b), (1u128 | 2 << 64).to_le_bytes());
    }
}
