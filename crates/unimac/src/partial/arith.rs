//! The arithmetic of combining partials: the fields' and rings'
//! multiplications, `β^n`, and a tree's level bytes.

use super::*;

/// Multiplication in the field (or ring) of `f`, its key polynomial and
/// the carry-less product the CPU allows set up once.
pub(super) fn multiplier(p: Platform, f: Field, modulus: u64) -> Box<dyn Fn(u128, u128) -> u128> {
    match f {
        Field::P127 { .. } => Box::new(fp127::mul_mod),
        Field::Eval64 => Box::new(move |a, b| shoup::mul_f_on(p, a as u64, b as u64) as u128),
        Field::Division64 => {
            let m = gf2::Modulus::new(modulus);
            Box::new(move |a, b| {
                m.mul_with(a as u64, b as u64, |x, y| shoup::clmul64_on(p, x, y)) as u128
            })
        }
        Field::GDivision64 => {
            let k = gdiv::GKey::new(modulus);
            Box::new(move |a, b| k.mulmod(a as u64, b as u64) as u128)
        }
        Field::Eval128 => Box::new(move |a, b| shoup::gf128_mul_on(p, a, b)),
    }
}

pub(super) fn add(f: Field, a: u128, b: u128) -> u128 {
    match f {
        Field::P127 { .. } => fp127::add_mod(a, b),
        _ => a ^ b,
    }
}


/// The bytes at level [`TREE_LEVELS`] of a chunk, runs of `B^2` bytes split
/// across the allowed threads; the end of the message padded if `last`.
pub(super) fn tree_levels(key: &TreeKey, chunk: &[u8], last: bool) -> Vec<u8> {
    let b = key.family().block;
    let unit = b.pow(TREE_LEVELS as u32);
    let whole = if last {
        chunk.len() / unit * unit
    } else {
        chunk.len()
    };
    let ranges = crate::threads::split(whole, unit, crate::threads::parallel_min());
    let outs = crate::threads::map(&ranges, |r| {
        tree::hash_levels(key, 0..TREE_LEVELS, &chunk[r.clone()], false)
    });
    let mut data: Vec<u8> = outs.concat();
    for mut o in outs {
        o.zeroize();
    }
    if last {
        data.extend(tree::hash_levels(
            key,
            0..TREE_LEVELS,
            &chunk[whole..],
            true,
        ));
    }
    data
}

/// Level-[`TREE_LEVELS`] bytes of a chunk of `len` bytes (`last`: with the
/// padding of each level), as [`tree_levels`] makes them.
pub(super) fn tree_levels_len(fam: &BlockFamily, len: u64, last: bool) -> Option<u64> {
    let (b, o) = (fam.block as u64, fam.out as u64);
    let mut l = len;
    for _ in 0..TREE_LEVELS {
        l = if last {
            (l / b + 1).checked_mul(o)?
        } else {
            (l / b).checked_mul(o)?
        };
    }
    Some(l)
}
