//! **Non-constant-time, benchmark only.** The table methods of Shoup, "On fast
//! and provably secure message authentication based on universal hashing":
//! §5 methods 1 and 2 for the evaluation hash, §6.1 methods 1 (one table) and
//! 2 (four tables) for the division hashes (§7.1 uses the same code over K).
//!
//! Every lookup below is indexed by a byte of the secret-dependent state, so
//! these leak through the cache; they exist to reproduce the paper's methods and
//! timings, are reachable only through [`Hasher::with_table`](super::Hasher::with_table),
//! and are never the default of any name.

use zeroize::{Zeroize, ZeroizeOnDrop};

use super::gf2::{mul_f, F_LO};

/// `v · x^64 mod f` for `deg v < 8`: 256 entries of at most 12 bits (§5: "each
/// entry will be only 16-bits wide").
static TF: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut v = 0;
    while v < 256 {
        // carry-less v · 0x1b
        let mut r = 0u16;
        let mut i = 0;
        while i < 8 {
            if (v >> i) & 1 == 1 {
                r ^= (F_LO as u16) << i;
            }
            i += 1;
        }
        t[v] = r;
        v += 1;
    }
    t
};

#[inline]
fn times_x8_f(r: u64) -> u64 {
    (r << 8) ^ TF[(r >> 56) as usize] as u64
}

/// §5 method 1: `x^i α mod f` for `i < 8`, and byte-at-a-time multiplication
/// `r ← r·x^8 + b_i α mod f` (the `b_i α` by shifts and adds of the eight).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct EvalMethod1 {
    xa: [u64; 8],
}

impl EvalMethod1 {
    pub fn new(alpha: u64) -> Self {
        let mut xa = [0u64; 8];
        let mut v = alpha;
        for x in xa.iter_mut() {
            *x = v;
            v = mul_f(v, 2);
        }
        EvalMethod1 { xa }
    }

    /// `α · b` in GF(2^64).
    #[inline]
    pub fn mul(&self, b: u64) -> u64 {
        let mut r = 0u64;
        for i in (0..8).rev() {
            let byte = (b >> (8 * i)) & 0xff;
            r = times_x8_f(r);
            for (j, x) in self.xa.iter().enumerate() {
                r ^= x & 0u64.wrapping_sub((byte >> j) & 1);
            }
        }
        r
    }
}

/// §5 method 2: the table `v ↦ v α mod f` (`deg v < 8`, 256 × 64 bits = 2 KB).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct EvalMethod2 {
    a: [u64; 256],
}

impl EvalMethod2 {
    pub fn new(alpha: u64) -> Self {
        let xa = EvalMethod1::new(alpha).xa;
        EvalMethod2 { a: by_linearity(|j| xa[j]) }
    }

    #[inline]
    pub fn mul(&self, b: u64) -> u64 {
        let mut r = 0u64;
        for i in (0..8).rev() {
            r = times_x8_f(r) ^ self.a[((b >> (8 * i)) & 0xff) as usize];
        }
        r
    }
}

/// eval64 blocks with either method: Horner's `h ← h·α + b` (`h` starts at 1;
/// the final `·α` is applied at the end).
pub fn eval_blocks(mul: impl Fn(u64) -> u64, mut h: u64, data: &[u8]) -> u64 {
    for b in data.chunks_exact(8) {
        h = mul(h) ^ u64::from_le_bytes(b.try_into().expect("8 bytes"));
    }
    h
}

/// §6.1 method 1: `T[v] = v · X^64 mod P` for `deg v < 8` (2 KB), and the 64-bit
/// reduction by eight lookups. `X` is `x` (division64, blocks little-endian) or
/// `z` over K (gdivision64, blocks big-endian: one byte is one coefficient).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct OneTable {
    t: [u64; 256],
    #[zeroize(skip)]
    big_endian: bool,
}

impl OneTable {
    /// From the linear map `v ↦ v · X^64 mod P`.
    pub fn new(times_x64: impl Fn(u64) -> u64, big_endian: bool) -> Self {
        OneTable { t: by_linearity(|j| times_x64(1 << j)), big_endian }
    }

    #[inline]
    fn reduce64(&self, mut r: u64) -> u64 {
        for _ in 0..8 {
            r = (r << 8) ^ self.t[(r >> 56) as usize];
        }
        r
    }

    /// `r ← r·X^64 + b mod P` over whole 8-byte blocks.
    pub fn blocks(&self, mut r: u64, data: &[u8]) -> u64 {
        for b in data.chunks_exact(8) {
            r = self.reduce64(r) ^ block(b, self.big_endian);
        }
        r
    }

    /// The final `r · X^64 mod P`.
    pub fn finish(&self, r: u64) -> u64 {
        self.reduce64(r)
    }
}

/// §6.1 method 2: `T_i[v] = v · X^(64+8i) mod P`, `i < 4` (8 KB); a 32-bit
/// reduction is four lookups, a 64-bit one two of those.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct FourTable {
    t: [[u64; 256]; 4],
    #[zeroize(skip)]
    big_endian: bool,
}

impl FourTable {
    pub fn new(times_x64: impl Fn(u64) -> u64, big_endian: bool) -> Self {
        let t = core::array::from_fn(|i| by_linearity(|j| times_x64(1 << (8 * i + j))));
        FourTable { t, big_endian }
    }

    #[inline]
    fn reduce32(&self, r: u64) -> u64 {
        (r << 32)
            ^ self.t[0][((r >> 32) & 0xff) as usize]
            ^ self.t[1][((r >> 40) & 0xff) as usize]
            ^ self.t[2][((r >> 48) & 0xff) as usize]
            ^ self.t[3][(r >> 56) as usize]
    }

    pub fn blocks(&self, mut r: u64, data: &[u8]) -> u64 {
        for b in data.chunks_exact(8) {
            r = self.reduce32(self.reduce32(r)) ^ block(b, self.big_endian);
        }
        r
    }

    pub fn finish(&self, r: u64) -> u64 {
        self.reduce32(self.reduce32(r))
    }
}

/// A table of a GF(2)-linear map on bytes from its values on the eight unit
/// vectors: `t[v] = t[v without its lowest bit] + basis(lowest bit)`.
fn by_linearity(basis: impl Fn(usize) -> u64) -> [u64; 256] {
    let unit: [u64; 8] = core::array::from_fn(basis);
    let mut t = [0u64; 256];
    for v in 1..256usize {
        t[v] = t[v & (v - 1)] ^ unit[v.trailing_zeros() as usize];
    }
    t
}

#[inline]
fn block(b: &[u8], big_endian: bool) -> u64 {
    let a: [u8; 8] = b.try_into().expect("8 bytes");
    if big_endian {
        u64::from_be_bytes(a)
    } else {
        u64::from_le_bytes(a)
    }
}
