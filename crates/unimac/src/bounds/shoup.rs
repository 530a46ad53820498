//! The bounds of the MACs on Shoup's hashes (Shoup, “On fast and provably
//! secure message authentication based on universal hashing”, Theorems 1–4;
//! derivations in docs/BOUNDS.md).

use super::*;

/// The `ε` of Shoup's hashes for `n` blocks of `pad(M, 8)` (Shoup, "On fast
/// and provably secure message authentication based on universal hashing",
/// §4, adapted to the keys of docs/WIRE.md §5; derivations in docs/BOUNDS.md).
pub(super) fn shoup_eps(h: Kind, n: u128) -> (Log2, String) {
    match h {
        Kind::Eval64 => (
            l2(n + 1).times(Log2::pow2(-64.0)),
            "evaluation hash, Shoup, “On fast and provably secure message authentication based on universal hashing”, section 4: a nonzero polynomial of degree <= n + 1 in alpha has at most n + 1 roots: eps <= (n + 1)/2^64".into(),
        ),
        Kind::Division64 => (
            l2(64 * (n + 1)).times(Log2::pow2(-64.0)),
            "division hash, Shoup, “On fast and provably secure message authentication based on universal hashing”, section 4: the keys g whose minimal polynomial divides a nonzero polynomial of degree <= 64(n + 1) number at most 64(n + 1): eps <= 64(n + 1)/2^64".into(),
        ),
        Kind::GDivision64 => (
            l2(8 * (n + 1)).times(Log2::pow2(-64.0)),
            "generalized division hash over GF(2^8), Shoup, “On fast and provably secure message authentication based on universal hashing”, section 4: degree <= 8(n + 1) over GF(2^8): eps <= 8(n + 1)/2^64".into(),
        ),
    }
}

/// `ε` of eval128 (docs/WIRE.md §5) for messages of at most `L` bytes: `n` blocks of
/// `pad(M, 16)`, a nonzero difference polynomial of degree ≤ `n + 1` in `α`:
/// `ε ≤ (n + 1)/2^128`.
fn eval128_eps(max_bytes: u64) -> (u128, Log2) {
    let n = blocks(max_bytes, 16);
    (n, l2(n + 1).times(Log2::pow2(-128.0)))
}

/// The MACs on Shoup's hashes of docs/WIRE.md §8.5 (Shoup, Theorems 2–4), each with its
/// theorem's condition checked and reported (derivations in docs/BOUNDS.md).
pub(super) fn shoup7_bound(b: &mut Bound, desc: &MacDesc, attack: &Attack) -> Result<(), Error> {
    match desc.finish {
        macs::Finish::Pad(_) => pad_bound(b, desc, attack),
        macs::Finish::Shoup3 => shoup3_bound(b, desc, attack),
        _ => shoup4_bound(b, desc, attack),
    }
}

/// `wc-eval128`: Theorem 2 when its condition holds and it is smaller, else Theorem 1.
fn pad_bound(b: &mut Bound, _: &MacDesc, attack: &Attack) -> Result<(), Error> {
    let c = attack.tags as u128;
    let d = attack.forgeries as u128;
    let q = c + d;
    let c2 = l2(c).times(l2(c));
    let (n, eps) = eval128_eps(attack.max_bytes);
    b.params
        .push(("n (16-byte blocks of pad(M, 16))".into(), n.to_string()));
    b.params.push((
        "eps (AXU of eval128 for L bytes)".into(),
        format!("(n + 1)/2^128 = 2^{:.2}", eps.0),
    ));
    // Theorem 2 (f a random permutation of 128-bit tags) needs C^2 <= 1/eps;
    // Theorem 1 (f a random function) holds always, plus the switching lemma.
    let holds = c2.times(eps).0 <= 0.0;
    b.params.push((
        "Theorem 2 condition C^2 <= 1/eps".into(),
        format!(
            "{} (C^2 eps = 2^{:.2})",
            if holds { "holds" } else { "FAILS" },
            c2.times(eps).0
        ),
    ));
    let thm1 = l2(d).times(eps).plus(switching(q));
    let thm2 = l2(d).times(eps).times(Log2::pow2(1.0));
    if holds && thm2 < thm1 {
        b.theorem = "Shoup, “On fast and provably secure message authentication based on universal hashing”, Theorem 2: f = AES_K a random permutation of 128-bit tags, C^2 <= 1/eps".into();
        b.terms
            .push(term("D attempts at 2 eps each", "2 D eps", thm2));
    } else {
        b.theorem = format!(
            "Shoup, “On fast and provably secure message authentication based on universal hashing”, Theorem 1: f = AES_K as a random function{}",
            if holds { " (smaller here than Theorem 2's 2 D eps)" } else { " (Theorem 2's condition C^2 <= 1/eps fails)" }
        );
        b.terms
            .push(term("D attempts at eps each", "D eps", l2(d).times(eps)));
        b.terms.push(model(
            "AES is a permutation, not a function (switching lemma)",
            "q(q-1)/2^129, q = C + D",
            switching(q),
        ));
    }
    b.not_included.push(adv_aes("K", q));
    b.notes
        .push("nonces must never repeat under one key".into());
    Ok(())
}

/// `shoup3-eval128`: Theorem 3.
fn shoup3_bound(b: &mut Bound, desc: &MacDesc, attack: &Attack) -> Result<(), Error> {
    let name = desc.name;
    let c = attack.tags as u128;
    let d = attack.forgeries as u128;
    let q = c + d;
    let c2 = l2(c).times(l2(c));
    let (n, eps2) = eval128_eps(attack.max_bytes);
    b.params
        .push(("n (16-byte blocks of pad(M, 16))".into(), n.to_string()));
    b.params.push((
        "eps1 (h1(n) = beta n, AXU)".into(),
        "2^-128 (beta n xor beta n' = delta has one root beta for n != n')".into(),
    ));
    b.params.push((
        "eps2 (AXU of eval128 for L bytes)".into(),
        format!("(n + 1)/2^128 = 2^{:.2}", eps2.0),
    ));
    // Condition q1^2 <= 1/eps1 = 2^128, q1 = C.
    let holds = c2.0 <= 128.0;
    b.params.push((
        "Theorem 3 condition C^2 <= 1/eps1 = 2^128".into(),
        format!(
            "{} (C^2 = 2^{:.2})",
            if holds { "holds" } else { "FAILS" },
            c2.0
        ),
    ));
    if !holds {
        return Err(Error::Invalid(format!(
            "{name}: Theorem 3 needs C^2 <= 2^128 (C <= 2^64 tags per key); C = {c}: change the key sooner"
        )));
    }
    b.theorem = "Shoup, “On fast and provably secure message authentication based on universal hashing”, Theorem 3: f = AES_K a random permutation, h1(n) = beta n (eps1 = 2^-128), C^2 <= 1/eps1".into();
    b.terms.push(term(
        "D attempts at 2 eps2 each",
        "2 D eps2",
        l2(d).times(eps2).times(Log2::pow2(1.0)),
    ));
    b.not_included.push(adv_aes("K", q));
    b.notes.push(
        "nonces must never repeat under one key (Theorem 3's tag is a counter)".into(),
    );
    Ok(())
}

/// `shoup4-*`: Theorem 4 (stateless, random `r ‖ s` per tag).
fn shoup4_bound(b: &mut Bound, desc: &MacDesc, attack: &Attack) -> Result<(), Error> {
    let name = desc.name;
    let c = attack.tags as u128;
    let d = attack.forgeries as u128;
    let q = c + d;
    let c2 = l2(c).times(l2(c));
    let macs::Hash::Shoup64(h) = desc.hash else {
        return Err(Error::UnknownName(name.to_string()));
    };
    let n = blocks(attack.max_bytes, 8);
    let (eps, desc) = shoup_eps(h, n);
    b.params
        .push(("n (u64 blocks of pad(M, 8))".into(), n.to_string()));
    b.params
        .push(("l (bits of r, s, alpha and the tag)".into(), "64".into()));
    b.params.push((
        "eps (AXU of the hash for L bytes)".into(),
        format!("2^{:.2}", eps.0),
    ));
    b.params.push(("eps source".into(), desc));
    // Condition q1 < 2^(l-1) = 2^63.
    let holds = c < 1u128 << 63;
    b.params.push((
        "Theorem 4 condition C < 2^(l-1) = 2^63".into(),
        format!(
            "{} (C = 2^{:.2})",
            if holds { "holds" } else { "FAILS" },
            l2(c).0
        ),
    ));
    if !holds {
        return Err(Error::Invalid(format!(
            "{name}: Theorem 4 needs C < 2^63 tags per key; C = {c}"
        )));
    }
    b.theorem = "Shoup, “On fast and provably secure message authentication based on universal hashing”, Theorem 4: f, g random functions on 64-bit strings, r and s uniform per message, C < 2^63".into();
    b.terms.push(term(
        "a repeated pair (r, s) among the C tags, and its consequences",
        "1.5 C^2/2^128",
        c2.times(l2(3)).times(Log2::pow2(-129.0)),
    ));
    b.terms
        .push(term("D attempts at eps each", "D eps", l2(d).times(eps)));
    // f(r) = AES(K_f, r || 0^8)[0..8] is a random function of r once AES under K_f
    // is one of its 128-bit input (truncation keeps it uniform); likewise g under K_g.
    let two = switching(q).times(Log2::pow2(1.0));
    b.terms.push(model(
        "f and g are AES blocks (permutations), not random functions (switching lemma, once per key)",
        "2 q(q-1)/2^129, q = C + D",
        two,
    ));
    b.not_included.push(adv_aes("K_f", q));
    b.not_included.push(adv_aes("K_g", q));
    b.notes.push("stateless: r || s must come from a good random generator (the library draws it from the OS for every tag); Theorem 4 is proved for random functions, not permutations (Shoup, “On fast and provably secure message authentication based on universal hashing”, section 3)".into());
    Ok(())
}
