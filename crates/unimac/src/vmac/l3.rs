//! L3-HASH (draft-krovetz-vmac-01 §5.5): the L2 output reduced to the
//! 64-bit tag word, without a division or a data-dependent branch.

use super::*;

/// `v div (2^64 − 2^32)` and `v mod (2^64 − 2^32)` for `v < 2^127`, without
/// a division or a data-dependent branch: with `d = 2^64 − 2^32`,
/// `2^64 = d + 2^32`, so `v = h·2^64 + l = h·d + w` with `w = h·2^32 + l <
/// 2^95 + 2^64`; `w = wh·2^64 + wl` (`wh < 2^31 + 1`) `= wh·d + x` with
/// `x = wh·2^32 + wl < 2^64 + 2^63 + 2^32`; `x = c·2^64 + xl` is `c·d +
/// (xl + c·2^32)`, and `xl + c·2^32 < 2^64 < 2d` (with `c = 1`, `xl < 2^63 +
/// 2^32`): one conditional subtraction ends it.
pub(super) fn divmod_d(v: u128) -> (u64, u64) {
    const D: u64 = 0u64.wrapping_sub(1 << 32);
    debug_assert!(v < 1 << 127);
    let (h, l) = ((v >> 64) as u64, v as u64);
    // h·2^32 = (h >> 32)·2^64 + (h mod 2^32)·2^32.
    let (wl, c1) = l.overflowing_add(h << 32);
    let wh = (h >> 32) + c1 as u64;
    let (xl, c2) = wl.overflowing_add(wh << 32);
    let y = xl + ((c2 as u64) << 32);
    let ge = (y >= D) as u64;
    (h + wh + c2 as u64 + ge, y - ge * D)
}

/// `x mod p64` for `x < 2^128`: `2^64 ≡ 257`, two folds leave `< 2^64 + 2^18 < 2 p64`.
pub(super) fn mod_p64(x: u128) -> u64 {
    let t = (x >> 64) * 257 + (x as u64 as u128);
    let t = (t >> 64) * 257 + (t as u64 as u128);
    let (d, borrow) = t.overflowing_sub(P64 as u128);
    let keep = 0u128.wrapping_sub(borrow as u128);
    ((t & keep) | (d & !keep)) as u64
}

/// `(q + k) mod p64` for `q < 2^64` and `k < p64` whose sum is below
/// `2 p64`: one conditional subtraction, `s − p64 ≡ s + 257 (mod 2^64)`.
pub(super) fn add_p64(q: u64, k: u64) -> u64 {
    let (s, carry) = q.overflowing_add(k);
    let ge = carry | (s >= P64);
    s.wrapping_add(257 * ge as u64)
}

/// `L3-HASH` (draft §5.5) of the L2 output `a` (any `a < 2^128`, lazily
/// reduced: its reduction mod `p127` is folded into the length's addition)
/// and the bit length `len < 1024` of the last block. With `v < 2^127`,
/// `q = v div (2^64 − 2^32) < 2^63 + 2^32` and `r < 2^64 − 2^32 < p64`, so
/// `q + k1` and `r + k2` are below `2 p64` and one conditional subtraction
/// reduces each.
pub(super) fn l3(a: u128, len: u64, k: (u64, u64)) -> u64 {
    // (a mod 2^127) + (a >> 127) + len·2^64 < 2^127 + 2 + 2^74: one exact
    // addition mod p127 leaves v < p127.
    let v = add_mod(a & P127, (a >> 127) + ((len as u128) << 64));
    let (q, r) = divmod_d(v);
    let x = add_p64(q, k.0);
    let y = add_p64(r, k.1);
    mod_p64(x as u128 * y as u128)
}
