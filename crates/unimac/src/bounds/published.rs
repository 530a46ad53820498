//! UMAC's and VMAC's bounds: the specifications' published `ε` (RFC 4418,
//! draft-krovetz-vmac-01), plus what the AES pads cost.

use super::*;

/// The forgery probability per attempt that the specification of UMAC or
/// VMAC (docs/WIRE.md §8.6)
/// publishes for its MAC with truly random keys and pads, as `(log2 ε, source)`.
pub(super) fn spec_eps(name: &str) -> Option<(f64, &'static str)> {
    const RFC: &str = "RFC 4418 section 1: with truly random keys and pads, an attacker (even computationally unbounded) produces a correct tag for a message of its choosing with probability no more than 1/2^30, 1/2^60, 1/2^90 or 1/2^120 for 32-, 64-, 96- or 128-bit tags; N attempts: at most N times that (UHASH is iterated tag/32 times under independent keys, about 2^-30 each)";
    const VMAC: &str = "draft-krovetz-vmac-01 section 1 (analysis: Krovetz and Dai, VHASH security): with truly random keys and pads, the probability of a correct tag is less than 1/2^60 or 1/2^120 for 64- or 128-bit tags; N attempts: less than N times that";
    let d = macs::find(name)?;
    let BoundRule::Published { eps_log2 } = d.bound else {
        return None;
    };
    Some((
        f64::from(eps_log2),
        if d.hash == macs::Hash::Vhash {
            VMAC
        } else {
            RFC
        },
    ))
}

/// UMAC and VMAC (docs/WIRE.md §8.6): the specification's own `ε` per forgery
/// attempt, plus what replacing the random pads by AES costs.
pub(super) fn spec_bound(b: &mut Bound, desc: &MacDesc, attack: &Attack) {
    let name = desc.name;
    let (eps, source) = spec_eps(name).expect("a published-bound row");
    let c = attack.tags as u128;
    let d = attack.forgeries as u128;
    let q = c + d;
    let vmac = desc.hash == macs::Hash::Vhash;
    b.theorem = if vmac {
        "draft-krovetz-vmac-01 section 1: Wegman-Carter with VHASH; D forgery attempts succeed with probability < D eps".into()
    } else {
        "RFC 4418 section 1: Wegman-Carter with UHASH; D forgery attempts succeed with probability <= D eps".into()
    };
    b.params
        .push(("eps (per attempt, as published)".into(), format!("2^{eps}")));
    b.params.push(("eps source".into(), source.into()));
    b.terms.push(Term {
        what: "D attempts at the published eps each".into(),
        formula: "D eps".into(),
        log2: l2(d).times(Log2::pow2(eps)),
        theorem: true,
    });
    b.terms.push(Term {
        what: "the pads come from AES, a permutation, not a random function (switching lemma)"
            .into(),
        formula: "q(q-1)/2^129, q = C + D nonce blocks".into(),
        log2: switching(q),
        theorem: false,
    });
    let cipher = if vmac { "AES-128/192/256" } else { "AES-128" };
    // Key-derivation blocks: UMAC (RFC 4418 section 5.1, i = tag/4 iterations):
    // the PDF key, L1 (1024 + 16(i-1) bytes), L2 (24i), L3 (64i and 4i).
    // VMAC: NH key (128 + 16(i-1) bytes), poly keys (i blocks), L3 keys (i
    // blocks, more if one is rejected, probability about 2^-55 each).
    let kdf_blocks: u128 = if vmac {
        let i = desc.tag as u128 / 8;
        (8 + i - 1) + i + i
    } else {
        let i = desc.tag as u128 / 4;
        1 + (64 + i - 1) + (24 * i).div_ceil(16) + 4 * i + 1
    };
    b.not_included.push(format!(
        "Adv_{cipher}^prp(q = {}): advantage of distinguishing {cipher} under K from a random permutation with the q = C + D pad blocks and the {kdf_blocks} key-derivation blocks",
        q + kdf_blocks
    ));
    b.notes.push(if vmac {
        "the draft's figure has no length term: its analysis covers every message the draft allows; unimac restates it, docs/BOUNDS.md gives the source".into()
    } else {
        "the RFC's figure has no length term: its analysis covers every message the RFC allows (L2 switches to the 128-bit polynomial beyond 16 MiB so that it does); unimac restates it, docs/BOUNDS.md gives the source".into()
    });
    b.notes.push(if vmac {
        "nonces must never repeat under one key; a 16-byte nonce must have its top bit clear".into()
    } else {
        "nonces must never repeat under one key".into()
    });
}
