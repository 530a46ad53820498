//! The key stream the tree's level keys are cut from: AES-128 in counter
//! mode under a 16-byte seed.

use super::*;

/// The first `n` bytes of `AES(s, 0) ‖ AES(s, 1) ‖ …`, the counter a 16-byte
/// little-endian integer.
pub fn keystream(s: &[u8; 16], n: usize) -> Vec<u8> {
    keystream_range(s, 0, n)
}

/// Bytes `offset .. offset + n` of [`keystream`]`(s, ∞)`.
pub fn keystream_range(s: &[u8; 16], offset: usize, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    keystream_extend(s, offset, n, &mut out);
    out
}

/// [`keystream`] into a buffer reserved with `try_reserve`: an allocation
/// that cannot be made is an error, not an abort.
pub(crate) fn try_keystream(s: &[u8; 16], n: usize) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    out.try_reserve_exact(n)
        .map_err(|_| Error::OutOfMemory(format!("keystream: cannot allocate {n} bytes")))?;
    keystream_extend(s, 0, n, &mut out);
    Ok(out)
}

/// Append bytes `offset .. offset + n` of the key stream to `out`.
pub(super) fn keystream_extend(s: &[u8; 16], offset: usize, n: usize, out: &mut Vec<u8>) {
    let aes = Aes128::new(s.into());
    let first = offset / 16;
    let last = (offset + n).div_ceil(16);
    // Counter blocks encrypted 32 at a time: the AES-NI backend pipelines a
    // batch (~4x faster than one block after another).
    let mut batch = [aes::Block::default(); 32];
    let mut used = 0;
    let mut i = first;
    while i < last {
        let m = (last - i).min(batch.len());
        used = used.max(m);
        for (j, b) in batch[..m].iter_mut().enumerate() {
            *b = aes::Block::from(((i + j) as u128).to_le_bytes());
        }
        aes.encrypt_blocks(&mut batch[..m]);
        for (j, block) in batch[..m].iter().enumerate() {
            let c = i + j;
            let lo = if c == first { offset % 16 } else { 0 };
            let hi = (offset + n - c * 16).min(16);
            out.extend_from_slice(&block[lo..hi]);
        }
        i += m;
    }
    for b in batch[..used].iter_mut() {
        zeroize::Zeroize::zeroize(b.as_mut_slice());
    }
}
