//! The bounds of hash127's MACs (Bernstein, “Floating-point arithmetic and
//! message authentication”, sections 8 and 9; derivations in docs/BOUNDS.md).

use super::*;

/// The attack's counts: tags `C`, forgeries `D`, `q = C + D`, and `L_w`.
#[derive(Clone, Copy)]
pub(super) struct Counts {
    pub(super) c: u128,
    pub(super) d: u128,
    pub(super) q: u128,
    pub(super) lw: u128,
}

/// `hash127`: one message per key (Theorem 8.2).
pub(super) fn one_time(b: &mut Bound, n: &Counts) -> Result<(), Error> {
    let Counts { c, d, lw, .. } = *n;
    if c > 1 {
        return Err(Error::Invalid(
            "hash127: the key authenticates ONE message (Bernstein, “Floating-point arithmetic and message authentication”, section 8); use --tags 1 or a hash127-aes MAC".into(),
        ));
    }
    b.theorem = "Bernstein, “Floating-point arithmetic and message authentication”, Theorem 8.2: one message per key (r, k)".into();
    b.params
        .push(("L_w (words of pad(M, 4))".into(), lw.to_string()));
    b.terms.push(term(
        "D attempts, each at most 3(L_w + 2)/2^128",
        "D * 3(L_w + 2)/2^128",
        l2(d).times(l2(3 * (lw + 2))).times(Log2::pow2(-128.0)),
    ));
    Ok(())
}

/// `hash127-96`: one message per key, the 96-bit compression.
pub(super) fn one_time96(b: &mut Bound, n: &Counts) -> Result<(), Error> {
    let Counts { c, d, lw, .. } = *n;
    if c > 1 {
        return Err(Error::Invalid(
            "hash127-96: the key authenticates ONE message (Bernstein, “Floating-point arithmetic and message authentication”, section 8 notes); use --tags 1 or a hash127-aes MAC".into(),
        ));
    }
    b.theorem = "Bernstein, “Floating-point arithmetic and message authentication”, Theorem 8.1 and the 96-bit compression of section 8's notes (derivation in docs/BOUNDS.md)".into();
    b.params
        .push(("L_w (words of pad(M, 4))".into(), lw.to_string()));
    // Per attempt: 2^-96 (1 + 2^-31)^2 when the hashes differ, plus
    // (2L_w + 4)(1 + 2^-31)/2^128 for a hash collision.
    let a = Log2(2.0 * (2f64.powi(-31)).ln_1p() / core::f64::consts::LN_2);
    let guess = a.times(Log2::pow2(-96.0));
    let coll = l2(2 * lw + 4)
        .times(Log2(a.0 / 2.0))
        .times(Log2::pow2(-128.0));
    b.terms.push(term(
        "D attempts, each at most (1 + 2^-31)^2/2^96 + (2L_w + 4)(1 + 2^-31)/2^128",
        "D ((1 + 2^-31)^2/2^96 + (2L_w + 4)(1 + 2^-31)/2^128)",
        l2(d).times(guess.plus(coll)),
    ));
    Ok(())
}

/// `hash127-aes`: protocol 2, `AES_K(h)` (Theorem 9.2).
pub(super) fn scramble(b: &mut Bound, n: &Counts) -> Result<(), Error> {
    let Counts { c, d, q, lw } = *n;
    b.theorem = "Bernstein, “Floating-point arithmetic and message authentication”, Theorem 9.2 (protocol 2, f = AES_K)".into();
    b.params
        .push(("L_w (words of pad(M, 4))".into(), lw.to_string()));
    let pairs = l2(c)
        .times(l2(c - 1))
        .times(Log2::pow2(-1.0))
        .plus(l2(c).times(l2(d)));
    b.terms.push(term(
        "hash collisions among the C tagged and D forged messages",
        "(C(C-1)/2 + C*D)(L_w + 2)/2^127",
        pairs.times(l2(lw + 2)).times(Log2::pow2(-127.0)),
    ));
    b.terms.push(term(
        "guessing a fresh f value",
        "D/2^128",
        l2(d).times(Log2::pow2(-128.0)),
    ));
    b.terms.push(model(
        "AES is a permutation, not a function (switching lemma)",
        "q(q-1)/2^129, q = C + D",
        switching(q),
    ));
    b.not_included.push(adv_aes("K", q));
    Ok(())
}

/// `hash127-aes-add`: protocol 1, `AES_K(n) + h mod p` (Theorem 9.1).
pub(super) fn pad(b: &mut Bound, n: &Counts) -> Result<(), Error> {
    let Counts { c, d, q, lw } = *n;
    b.theorem = "Bernstein, “Floating-point arithmetic and message authentication”, Theorem 9.1 (protocol 1, f(n) = AES_K(n) read as an integer in [0, 2^128))".into();
    b.params
        .push(("L_w (words of pad(M, 4))".into(), lw.to_string()));
    b.terms.push(term(
        "nonuniform f(n) mod p, and D attempts of (L_w + 2)/2^127 each",
        "(C + D(L_w + 2))/2^127",
        l2(c)
            .plus(l2(d).times(l2(lw + 2)))
            .times(Log2::pow2(-127.0)),
    ));
    b.terms.push(model(
        "AES is a permutation, not a function (switching lemma)",
        "q(q-1)/2^129, q = C + D",
        switching(q),
    ));
    b.not_included.push(adv_aes("K", q));
    b.notes.push("nonces must never repeat under one key (Theorem 9.1 assumes message numbers are not reused)".into());
    Ok(())
}

/// `hash127-aes-nonce`: protocol 3, `AES_K(AES_K(n) ⊕ h)` (Theorem 9.3).
pub(super) fn nonce_scramble(b: &mut Bound, n: &Counts) -> Result<(), Error> {
    let Counts { d, q, lw, .. } = *n;
    b.theorem = "Bernstein, “Floating-point arithmetic and message authentication”, Theorem 9.3 (protocol 3, f(n, h) = AES_K(AES_K(n) xor h))".into();
    b.params
        .push(("L_w (words of pad(M, 4))".into(), lw.to_string()));
    b.terms.push(term(
        "D attempts, each at most (2L_w + 5)/2^128",
        "D(2L_w + 5)/2^128",
        l2(d).times(l2(2 * lw + 5)).times(Log2::pow2(-128.0)),
    ));
    // f built from a random function rho: rho(rho(n) xor h) is a random
    // function on q distinct (n, h) unless an outer input repeats
    // another outer input or an inner input (docs/BOUNDS.md).
    let comp = l2(q)
        .times(l2(q - 1))
        .times(Log2::pow2(-1.0))
        .plus(l2(q).times(l2(q)))
        .times(Log2::pow2(-128.0));
    b.terms.push(model(
        "f(n, h) = rho(rho(n) xor h) is a random function unless an outer input collides",
        "(q(q-1)/2 + q^2)/2^128, q = C + D",
        comp,
    ));
    b.terms.push(model(
        "AES is a permutation, not a function (switching lemma, 2q calls)",
        "2q(2q-1)/2^129",
        switching(2 * q),
    ));
    b.not_included.push(adv_aes("K", 2 * q));
    b.notes.push("a repeated nonce degrades this MAC only to hash127-aes's Theorem 9.2 (Bernstein, “Floating-point arithmetic and message authentication”, section 9)".into());
    Ok(())
}
