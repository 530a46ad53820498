//! The Wegman–Carter MACs' bounds: the block functions' `ε` (MMH, NMH,
//! Square Hash), the tree lemma, and Shoup's Theorems 1 and 2 for the
//! 64-bit hashes (derivations in docs/BOUNDS.md).

use super::*;

/// `ε` of a block function `F` (AΔU in the group where the MAC adds its pad,
/// [`crate::group::DeltaGroup`]), and `μ_F = max_{y ≠ 0, u} Pr[F(y) = u]`
/// (what the tree lemma needs for messages of different heights), as log2,
/// with their sources.
pub(super) struct BlockEps {
    log2: Log2,
    /// `μ_F`, log2.
    point: Log2,
    source: String,
    point_source: String,
    proven: bool,
    note: Option<String>,
}

/// `ε` of `N` Toeplitz words of MMH32 (`mmh32xN`, docs/WIRE.md §3), derived in
/// docs/BOUNDS.md: `6 · 9^(N−1) / 2^(32N)` (Theorem 8 for one word, at most
/// 9 key values for each further word).
fn toeplitz_eps_log2(n: u32, word_bits: u32) -> f64 {
    6f64.log2() + (n - 1) as f64 * 9f64.log2() - (word_bits * n) as f64
}

/// `ε` and the largest point probability of a tree's block function, with
/// their sources.
pub(super) fn block_eps(f: Block) -> BlockEps {
    if let Some(n) = f.mmh32_words() {
        let n = n as u32;
        let e = Log2(toeplitz_eps_log2(n, 32));
        return BlockEps {
            log2: e,
            point: e,
            source: if n == 1 {
                "Halevi–Krawczyk, “MMH: software message authentication in the Gbit/second rates”, Theorem 8: eps <= 6 * 2^-32 (subtraction mod 2^32)".into()
            } else {
                format!(
                    "Toeplitz MMH32 with {n} words (Halevi–Krawczyk, “MMH: software message authentication in the Gbit/second rates”, section 2.4), subtraction mod 2^32 word by word: eps <= 6 * 9^{} / 2^{} (derived in docs/BOUNDS.md; Theorem 8 for one word, at most 9 key values for each further word; checked exhaustively at reduced word size)",
                    n - 1,
                    32 * n
                )
            },
            point_source: "F is linear and F(0) = 0, so Pr[F(y) = u] = Pr[F(y) - F(0) = u] <= eps".into(),
            proven: true,
            note: (n != 1).then(|| {
                "the paper's (6 * 2^-32)^N is stated for MMH* (section 2.4), not for MMH32 with its mod 2^64 and mod 2^32 wraps; the bound used is the one derived for MMH32".into()
            }),
        };
    }
    match f {
        Block::Nmh32 => {
            return BlockEps {
                log2: Log2(12f64.log2() - 32.0),
                point: Log2(5f64.log2() - 32.0),
                source: "NMH32 (Halevi–Krawczyk, “MMH: software message authentication in the Gbit/second rates”, section 5, Definition 10; the paper claims only 'eps close to 2^-32'): eps <= 12 * 2^-32 (subtraction mod 2^32), derived in crates/unimac/tests/suite/mmh_proofs.rs (4/2^32 mod p as in Lemma 7, x3 as in Theorem 8) and checked exhaustively there at reduced scale".into(),
                point_source: "key shift: a_i = (y_i + x_i) mod 2^32 is uniform whatever y, so Pr[F(y) = u] = Pr_a[G(a) = u] <= 1/2^32 (a_2 = 0) + 4/2^32 (two values mod p, two carries) = 5 * 2^-32".into(),
                proven: true,
                note: None,
            }
        }
        Block::Mmh64 => {
            return BlockEps {
                log2: Log2(6f64.log2() - 64.0),
                point: Log2(6f64.log2() - 64.0),
                source: "Theorem 8 (Halevi–Krawczyk, “MMH: software message authentication in the Gbit/second rates”) with 64-bit words and p = 2^64 + 13 (section 3.2): eps <= 6 * 2^-64 (subtraction mod 2^64)".into(),
                point_source: "F is linear and F(0) = 0: mu <= eps".into(),
                proven: true,
                note: Some("the paper names the 64-bit variant (section 3.2) without restating Theorem 8; its proof is generic in the word size (Lemma 7: 2 * 2^-64; three integer differences: x3)".into()),
            }
        }
        _ => {}
    }
    let (l, v) = f
        .sqh()
        .expect("every block function is MMH, NMH or Square Hash");
    let l = l as u32;
    match v {
        Variant::Asm => BlockEps {
            log2: Log2(3f64.log2() - l as f64),
            point: Log2(4f64.log2() - l as f64),
            source: format!("Etzel–Patel–Ramzan, “Square Hash: fast message authentication via optimized universal hash functions”, Theorem 6 (SQH_asm): eps <= 3 * 2^-{l} (subtraction mod 2^{l})"),
            point_source: format!("(y_1 + x_1)^2 = c mod p has at most 2 roots, each met by at most one l-bit x_1; two values mod p reduce to u mod 2^{l}: mu <= 4 * 2^-{l}"),
            proven: true,
            note: None,
        },
        Variant::E => {
            let w = l / 32;
            let prod: f64 = (1..=w).map(|i| ((4 * i + 1) as f64).log2() * 2.0).sum();
            let factors: Vec<String> = (1..=w).map(|i| format!("{}^2", 4 * i + 1)).collect();
            let e = Log2(6f64.log2() + prod - (32 * w) as f64);
            BlockEps {
                log2: e,
                point: e.times(Log2::pow2(1.0)),
                source: format!(
                    "Etzel–Patel–Ramzan, “Square Hash: fast message authentication via optimized universal hash functions”, Theorem 10 (SQH_E), word size 32, w = {w}: eps <= 6 * {} / 2^{} (subtraction mod 2^{l}): the paper's sketch, not a full proof",
                    factors.join(" * "),
                    32 * w
                ),
                point_source: "mu <= 2 eps, as for SQH_asm (key shift: (y_i + x_i) mod 2^l is uniform); resting on the same sketch".into(),
                proven: false,
                note: Some(
                    "Theorem 10 (carries ignored in the squares and the sum) is only sketched in the paper; the number is the paper's sketch, checked exhaustively at reduced size (crates/unimac/tests/suite/square_proofs.rs), not proven".into(),
                ),
            }
        }
        _ => unreachable!("only SQH_asm and SQH_E have tree modes"),
    }
}

/// The Wegman–Carter MACs on Shoup's 64-bit hashes and on the tree hashes:
/// Shoup's Theorems 1 and 2, or the Wegman–Carter theorem for AΔU hashes.
pub(super) fn wc_bound(b: &mut Bound, desc: &MacDesc, attack: &Attack) -> Result<(), Error> {
    let c = attack.tags as u128;
    let d = attack.forgeries as u128;
    let q = c + d;
    let (eps, out_bytes, eps_desc, tree_mac) = match desc.hash {
        macs::Hash::Shoup64(h) => {
            let n = blocks(attack.max_bytes, 8);
            let (e, desc) = super::shoup::shoup_eps(h, n);
            b.params.push(("n (u64 blocks of pad(M, 8))".into(), n.to_string()));
            (e, 8, desc, false)
        }
        macs::Hash::Tree(block) => {
            let (e, out, desc) = tree_eps(b, block, attack);
            (e, out, desc, true)
        }
        _ => return Err(Error::UnknownName(desc.name.to_string())),
    };
    b.params.push((
        if tree_mac {
            "eps (AdU of the hash for L bytes)"
        } else {
            "eps (AXU of the hash for L bytes)"
        }
        .into(),
        format!("2^{:.2}", eps.0),
    ));
    b.params.push(("eps source".into(), eps_desc));
    wc_theorem(b, eps, out_bytes, tree_mac, (c, d, q));
    b.not_included.insert(0, adv_aes("K", q));
    b.notes.push("nonces must never repeat under one key".into());
    Ok(())
}

/// A tree hash's `ε` for `L` bytes (the tree lemma), its output bytes and
/// source; the level keys' switching term goes into `b`.
fn tree_eps(b: &mut Bound, block: Block, attack: &Attack) -> (Log2, u64, String) {
    let fam = block.family();
    let (blk, out, key) = (fam.block as u64, fam.out as u64, fam.key as u64);
    let be = block_eps(block);
    let t = tree_height(attack.max_bytes, blk, out);
    b.params
        .push(("T (tree height, docs/WIRE.md §6)".into(), t.to_string()));
    b.params.push((
        "eps_F (block function)".into(),
        format!("2^{:.2}", be.log2.0),
    ));
    b.params.push((
        "mu_F (largest point probability of F)".into(),
        format!("2^{:.2}", be.point.0),
    ));
    // The tree lemma (docs/BOUNDS.md): equal heights t <= T give t eps_F;
    // different heights give mu_F (the longer message's top key is fresh).
    let tree = be.log2.times(l2(t as u128));
    let eps = if t >= 2 && be.point > tree {
        be.point
    } else {
        tree
    };
    let out_bytes = out;
    let eps_desc = format!(
        "{}; tree lemma: eps_tree <= max(T * eps_F, mu_F) for T >= 2 (T * eps_F for T = 1), mu_F: {} (docs/BOUNDS.md)",
        be.source, be.point_source
    );
    b.proven &= be.proven;
    if let Some(n) = be.note {
        b.notes.push(n);
    }
    // The level keys come from the AES key stream under s.
    let ks_blocks = (t as u128 * key as u128).div_ceil(16);
    b.terms.push(Term {
        what:
            "level keys from the AES key stream under s, modelled as uniform (switching lemma)"
                .into(),
        formula: format!("k(k-1)/2^129, k = {ks_blocks} key-stream blocks"),
        log2: switching(ks_blocks),
        theorem: false,
    });
    b.not_included.push(adv_aes("s", ks_blocks));
    (eps, out_bytes, eps_desc)
}

/// The theorem that gives the smaller bound, with its terms first in `b`.
fn wc_theorem(b: &mut Bound, eps: Log2, out_bytes: u64, tree_mac: bool, (c, d, q): (u128, u128, u128)) {
    let thm1 = l2(d).times(eps).plus(switching(q));
    // Theorem 2 needs f to be a permutation of the tag's l-bit strings: only
    // when the tag is the whole AES block.
    // The tree MACs add the pad in Z_{2^(8O)} or Z_{2^32}^N: Theorem 1's
    // argument holds in any group, Theorem 2 is used only for XOR.
    let thm2 = (!tree_mac && out_bytes == 16 && l2(c).times(l2(c)).times(eps).0 <= 0.0)
        .then(|| l2(d).times(eps).times(Log2::pow2(1.0)));
    if let Some(t2) = thm2.filter(|&t2| t2 < thm1) {
        b.theorem = "Shoup, “On fast and provably secure message authentication based on universal hashing”, Theorem 2: f = AES_K a random permutation of 128-bit tags, C^2 <= 1/eps".into();
        b.terms.insert(0, term("D attempts at 2 eps each", "2 D eps", t2));
        return;
    }
    b.theorem = if tree_mac {
        format!(
            "Wegman–Carter theorem for eps-almost-Delta-universal hashes (Halevi–Krawczyk, “MMH: software message authentication in the Gbit/second rates”, section 2.3; Etzel–Patel–Ramzan, “Square Hash: fast message authentication via optimized universal hash functions”, section 1): tag = f(n) + H(M) in H's group, f = AES_K(n)[0..{out_bytes}] as a random function"
        )
    } else {
        format!(
            "Shoup, “On fast and provably secure message authentication based on universal hashing”, Theorem 1: f = AES_K(n)[0..{out_bytes}] as a random function{}",
            if out_bytes < 16 { " (Theorem 2 needs a permutation of the tag space; a truncated AES block is not one)" } else { "" }
        )
    };
    b.terms.insert(0, term("D attempts at eps each", "D eps", l2(d).times(eps)));
    b.terms.insert(
        1,
        model("AES is a permutation, not a function (switching lemma)", "q(q-1)/2^129, q = C + D", switching(q)),
    );
}
