//! Forgery bounds of the named MACs (SPEC §6): the probability that any of
//! `D` forgery attempts succeeds after `C` tagged messages of at most `L`
//! bytes, with the theorem it comes from. The derivations are in
//! `docs/BOUNDS.md`.
//!
//! Every number is computed in log2 space (`f64` logarithms, sums by
//! log-sum-exp), so bounds like `2^-180` print exactly instead of as 0.
//!
//! The theorems are information-theoretic: they model `f` (AES) as a uniform
//! random function. What that model costs is split in two:
//! - terms that are exact combinatorics (the PRP/PRF switching lemma
//!   `q(q−1)/2^129`, the two-call composition of protocol 3) are computed and
//!   included in the number;
//! - the AES distinguishing advantage `Adv_AES^prp(q)` is a named term, NOT in
//!   the number, with its `q` stated ([`Bound::not_included`]).

use crate::Error;

/// log2 of a non-negative real; `-inf` is 0.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Log2(pub f64);

impl Log2 {
    /// 0.
    pub const ZERO: Log2 = Log2(f64::NEG_INFINITY);

    /// log2 of an integer.
    pub fn int(x: u128) -> Log2 {
        if x == 0 {
            Log2::ZERO
        } else {
            Log2((x as f64).log2())
        }
    }
    /// `2^e`.
    pub fn pow2(e: f64) -> Log2 {
        Log2(e)
    }
    /// Product.
    pub fn mul(self, o: Log2) -> Log2 {
        if self.0 == f64::NEG_INFINITY || o.0 == f64::NEG_INFINITY {
            Log2::ZERO
        } else {
            Log2(self.0 + o.0)
        }
    }
    /// Sum, `log2(2^a + 2^b) = max + log2(1 + 2^(min − max))`.
    pub fn add(self, o: Log2) -> Log2 {
        let (hi, lo) = if self.0 >= o.0 { (self.0, o.0) } else { (o.0, self.0) };
        if lo == f64::NEG_INFINITY {
            return Log2(hi);
        }
        Log2(hi + (lo - hi).exp2().ln_1p() / std::f64::consts::LN_2)
    }
    /// The value as `m × 10^e` text, e.g. `1.27e-29` (exact for tiny values).
    pub fn sci(self) -> String {
        if self.0 == f64::NEG_INFINITY {
            return "0".into();
        }
        let l10 = self.0 * std::f64::consts::LOG10_2;
        let mut e = l10.floor();
        let mut m = 10f64.powf(l10 - e);
        if m >= 9.995 {
            m /= 10.0;
            e += 1.0;
        }
        format!("{m:.2}e{e:+03}")
    }
}

/// The attack a bound is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attack {
    /// `L`: the longest message, tagged or forged, in bytes.
    pub max_bytes: u64,
    /// `C`: messages tagged under the key.
    pub tags: u64,
    /// `D`: forgery attempts (verification queries).
    pub forgeries: u64,
}

/// One term of a bound.
#[derive(Clone, Debug)]
pub struct Term {
    /// What it accounts for.
    pub what: String,
    /// The formula.
    pub formula: String,
    /// log2 of its value.
    pub log2: Log2,
}

/// A forgery bound.
#[derive(Clone, Debug)]
pub struct Bound {
    /// The MAC (without `mac-`).
    pub name: String,
    /// The attack.
    pub attack: Attack,
    /// Where it comes from, e.g. "Bernstein (seed 000), Theorem 9.2".
    pub theorem: String,
    /// The terms that are added up in [`Bound::log2`].
    pub terms: Vec<Term>,
    /// log2 of the bound (sum of the terms).
    pub log2: Log2,
    /// Named terms that must be added but are not in the number (the AES
    /// distinguishing advantage, with its number of queries).
    pub not_included: Vec<String>,
    /// Parameters derived from `L` (words, blocks, tree height, ε).
    pub params: Vec<(String, String)>,
    /// Whether every ingredient is a proven statement (false when an ε is
    /// taken from a paper's unproven claim or the hash's proven property is
    /// for a different group operation than the MAC uses).
    pub proven: bool,
    /// Caveats.
    pub notes: Vec<String>,
}

impl Bound {
    /// One JSON object (`bound_log2`, `theorem`, …).
    pub fn to_json(&self) -> serde_json::Value {
        let num = |l: Log2| if l.0 == f64::NEG_INFINITY { serde_json::Value::Null } else { serde_json::json!(l.0) };
        serde_json::json!({
            "name": self.name,
            "max_bytes": self.attack.max_bytes,
            "tags": self.attack.tags,
            "forgeries": self.attack.forgeries,
            "bound_log2": num(self.log2),
            "bound": self.log2.sci(),
            "theorem": self.theorem,
            "terms": self.terms.iter().map(|t| serde_json::json!({
                "what": t.what, "formula": t.formula, "log2": num(t.log2), "value": t.log2.sci(),
            })).collect::<Vec<_>>(),
            "not_included": self.not_included,
            "params": self.params.iter().map(|(k, v)| (k.clone(), serde_json::json!(v))).collect::<serde_json::Map<_, _>>(),
            "proven": self.proven,
            "notes": self.notes,
        })
    }

    /// Human-readable lines.
    pub fn to_text(&self) -> String {
        let a = &self.attack;
        let mut s = format!(
            "{}: forgery probability <= 2^{:.2} ({})\n  attack: C = {} tagged messages, D = {} forgery attempts, messages of at most L = {} bytes\n  theorem: {}\n",
            self.name,
            self.log2.0,
            self.log2.sci(),
            a.tags,
            a.forgeries,
            a.max_bytes,
            self.theorem
        );
        for (k, v) in &self.params {
            s.push_str(&format!("  {k} = {v}\n"));
        }
        for (i, t) in self.terms.iter().enumerate() {
            let lead = if i == 0 { "=" } else { "+" };
            let v = if t.log2.0 == f64::NEG_INFINITY { "0".to_string() } else { format!("2^{:.2}", t.log2.0) };
            s.push_str(&format!("  {lead} {v:>10}  {}  [{}]\n", t.formula, t.what));
        }
        for n in &self.not_included {
            s.push_str(&format!("  + {n}  [not included in the number]\n"));
        }
        if !self.proven {
            s.push_str("  NOT a proven bound: see the notes\n");
        }
        for n in &self.notes {
            s.push_str(&format!("  note: {n}\n"));
        }
        s
    }
}

fn l2(x: u128) -> Log2 {
    Log2::int(x)
}

/// `q(q − 1)/2^129`: switching AES (a permutation) for a random function on
/// `q` distinct inputs (the PRP/PRF switching lemma).
fn switching(q: u128) -> Log2 {
    l2(q).mul(l2(q.saturating_sub(1))).mul(Log2::pow2(-129.0))
}

fn adv_aes(key: &str, q: u128) -> String {
    format!("Adv_AES^prp(q = {q}): advantage of distinguishing AES-128 under {key} from a random permutation with {q} queries")
}

/// Words of `pad(M, 4)` for `|M| ≤ L`: `⌊L/4⌋ + 1`.
pub fn hash127_words(max_bytes: u64) -> u128 {
    max_bytes as u128 / 4 + 1
}

/// Blocks of `pad(M, B)` for `|M| ≤ L`: `⌊L/B⌋ + 1`.
pub fn blocks(max_bytes: u64, b: u64) -> u128 {
    max_bytes as u128 / b as u128 + 1
}

/// Height of `tree-F` (SPEC §5) for messages of at most `L` bytes: the
/// number of levels, non-decreasing in the length.
pub fn tree_height(max_bytes: u64, block: u64, out: u64) -> u32 {
    let (b, o) = (block as u128, out as u128);
    let mut x = max_bytes as u128;
    let mut t = 1;
    while x >= b {
        x = (x / b + 1) * o;
        t += 1;
    }
    t
}

/// `ε` of a block function `F` (AΔU in the paper's group), as log2, with its source.
struct BlockEps {
    log2: Log2,
    source: String,
    proven: bool,
    note: Option<String>,
}

/// The block functions that have a `wc-` MAC: (B, O, K) of SPEC §5.
fn block_params(f: &str) -> Option<(u64, u64, u64)> {
    if let Some(n) = f.strip_prefix("mmh32x") {
        let n: u64 = n.parse().ok().filter(|n| (1..=4).contains(n))?;
        return Some((128, 4 * n, 4 * (31 + n)));
    }
    match f {
        "nmh32" => return Some((128, 4, 128)),
        "mmh64" => return Some((256, 8, 256)),
        _ => {}
    }
    let rest = f.strip_prefix("sqh")?;
    let (l, v) = rest.split_once('-')?;
    let l: u64 = l.parse().ok()?;
    if !matches!(v, "asm" | "e") {
        return None;
    }
    match l {
        32 | 64 | 96 => Some((22 * l / 8, l / 8, 22 * l / 8)),
        128 => Some((256, 16, 256)),
        _ => None,
    }
}

fn block_eps(f: &str) -> Option<BlockEps> {
    if let Some(n) = f.strip_prefix("mmh32x") {
        let n: f64 = n.parse().ok()?;
        return Some(BlockEps {
            log2: Log2((6f64.log2() - 32.0) * n),
            source: if n == 1.0 {
                "Halevi–Krawczyk (seed 004) Theorem 8: eps <= 6 * 2^-32".into()
            } else {
                format!("Halevi–Krawczyk (seed 004) Theorem 8 with the Toeplitz construction of section 2.4: eps <= (6 * 2^-32)^{n}")
            },
            proven: n == 1.0,
            note: (n != 1.0).then(|| {
                "the paper proves Toeplitz for MMH* (section 2.4, 'a well-known fact') and quotes (6*2^-32)^2 = 2.25/2^60 for the 2-word MMH32 (section 3.3) without restating Theorem 8 for it".into()
            }),
        });
    }
    match f {
        "nmh32" => {
            return Some(BlockEps {
                log2: Log2(6f64.log2() - 32.0),
                source: "NMH32 (seed 004 section 5, Definition 10): the paper claims only 'eps close to 2^-32'; 6 * 2^-32 of Theorem 8 is used".into(),
                proven: false,
                note: Some("no theorem in the paper bounds NMH32's eps; the number assumes Theorem 8's constant".into()),
            })
        }
        "mmh64" => {
            return Some(BlockEps {
                log2: Log2(6f64.log2() - 64.0),
                source: "the proof of Theorem 8 (seed 004) with 64-bit words and p = 2^64 + 13 (section 3.2): eps <= 6 * 2^-64".into(),
                proven: false,
                note: Some("the paper names the 64-bit variant (section 3.2) but states no theorem for it; Theorem 8's proof carries over word for word (Lemma 7: 2 * 2^-64; three integer differences: x3)".into()),
            })
        }
        _ => {}
    }
    let rest = f.strip_prefix("sqh")?;
    let (l, v) = rest.split_once('-')?;
    let l: u32 = l.parse().ok()?;
    match v {
        "asm" => Some(BlockEps {
            log2: Log2(3f64.log2() - l as f64),
            source: format!("Etzel–Patel–Ramzan (seed 003) Theorem 6 (SQH_asm): eps <= 3 * 2^-{l}"),
            proven: true,
            note: None,
        }),
        "e" => {
            let w = l / 32;
            let prod: f64 = (1..=w).map(|i| ((4 * i + 1) as f64).log2() * 2.0).sum();
            let factors: Vec<String> = (1..=w).map(|i| format!("{}^2", 4 * i + 1)).collect();
            Some(BlockEps {
                log2: Log2(6f64.log2() + prod - (32 * w) as f64),
                source: format!(
                    "Etzel–Patel–Ramzan (seed 003) Theorem 10 (SQH_E), word size 32, w = {w}: eps <= 6 * {} / 2^{}",
                    factors.join(" * "),
                    32 * w
                ),
                proven: true,
                note: None,
            })
        }
        _ => None,
    }
}

/// The `ε` of Shoup's hashes for `n` blocks of `pad(M, 8)` (seed 001 §4,
/// adapted to SPEC §4's keys; derivations in docs/BOUNDS.md).
fn shoup_eps(h: &str, n: u128) -> Option<(Log2, String)> {
    match h {
        "eval64" => Some((
            l2(n + 1).mul(Log2::pow2(-64.0)),
            "evaluation hash, Shoup (seed 001) section 4: a nonzero polynomial of degree <= n + 1 in alpha has at most n + 1 roots: eps <= (n + 1)/2^64".into(),
        )),
        "division64" => Some((
            l2(64 * (n + 1)).mul(Log2::pow2(-64.0)),
            "division hash, Shoup (seed 001) section 4: the keys g whose minimal polynomial divides a nonzero polynomial of degree <= 64(n + 1) number at most 64(n + 1): eps <= 64(n + 1)/2^64".into(),
        )),
        "gdivision64" => Some((
            l2(8 * (n + 1)).mul(Log2::pow2(-64.0)),
            "generalized division hash over GF(2^8), Shoup (seed 001) section 4: degree <= 8(n + 1) over GF(2^8): eps <= 8(n + 1)/2^64".into(),
        )),
        _ => None,
    }
}

fn need_positive(a: &Attack) -> Result<(), Error> {
    if a.forgeries == 0 {
        return Err(Error::Invalid("--forgeries must be at least 1".into()));
    }
    if a.tags == 0 {
        return Err(Error::Invalid("--tags must be at least 1".into()));
    }
    Ok(())
}

/// The forgery bound of the MAC `name` (without `mac-`) against `attack`.
///
/// An error when the name has no bound, or when the bound is 1 or more (the
/// theorem then says nothing: the messages are too long or too many).
pub fn bound(name: &str, attack: &Attack) -> Result<Bound, Error> {
    need_positive(attack)?;
    let c = attack.tags as u128;
    let d = attack.forgeries as u128;
    let q = c + d;
    let mut b = Bound {
        name: name.to_string(),
        attack: *attack,
        theorem: String::new(),
        terms: Vec::new(),
        log2: Log2::ZERO,
        not_included: Vec::new(),
        params: Vec::new(),
        proven: true,
        notes: Vec::new(),
    };
    let lw = hash127_words(attack.max_bytes);
    let term = |what: &str, formula: &str, v: Log2| Term { what: what.into(), formula: formula.into(), log2: v };
    match name {
        "hash127" => {
            if c > 1 {
                return Err(Error::Invalid(
                    "hash127: the key authenticates ONE message (seed 000 section 8); use --tags 1 or a hash127-aes MAC".into(),
                ));
            }
            b.theorem = "Bernstein (seed 000), Theorem 8.2: one message per key (r, k)".into();
            b.params.push(("L_w (words of pad(M, 4))".into(), lw.to_string()));
            b.terms.push(term(
                "D attempts, each at most 3(L_w + 2)/2^128",
                "D * 3(L_w + 2)/2^128",
                l2(d).mul(l2(3 * (lw + 2))).mul(Log2::pow2(-128.0)),
            ));
        }
        "hash127-aes" => {
            b.theorem = "Bernstein (seed 000), Theorem 9.2 (protocol 2, f = AES_K)".into();
            b.params.push(("L_w (words of pad(M, 4))".into(), lw.to_string()));
            let pairs = l2(c).mul(l2(c - 1)).mul(Log2::pow2(-1.0)).add(l2(c).mul(l2(d)));
            b.terms.push(term(
                "hash collisions among the C tagged and D forged messages",
                "(C(C-1)/2 + C*D)(L_w + 2)/2^127",
                pairs.mul(l2(lw + 2)).mul(Log2::pow2(-127.0)),
            ));
            b.terms.push(term("guessing a fresh f value", "D/2^128", l2(d).mul(Log2::pow2(-128.0))));
            b.terms.push(term("AES is a permutation, not a function (switching lemma)", "q(q-1)/2^129, q = C + D", switching(q)));
            b.not_included.push(adv_aes("K", q));
        }
        "hash127-aes-add" => {
            b.theorem = "Bernstein (seed 000), Theorem 9.1 (protocol 1, f(n) = AES_K(n) read as an integer in [0, 2^128))".into();
            b.params.push(("L_w (words of pad(M, 4))".into(), lw.to_string()));
            b.terms.push(term(
                "nonuniform f(n) mod p, and D attempts of (L_w + 2)/2^127 each",
                "(C + D(L_w + 2))/2^127",
                l2(c).add(l2(d).mul(l2(lw + 2))).mul(Log2::pow2(-127.0)),
            ));
            b.terms.push(term("AES is a permutation, not a function (switching lemma)", "q(q-1)/2^129, q = C + D", switching(q)));
            b.not_included.push(adv_aes("K", q));
            b.notes.push("nonces must never repeat under one key (Theorem 9.1 assumes message numbers are not reused)".into());
        }
        "hash127-aes-nonce" => {
            b.theorem = "Bernstein (seed 000), Theorem 9.3 (protocol 3, f(n, h) = AES_K(AES_K(n) xor h))".into();
            b.params.push(("L_w (words of pad(M, 4))".into(), lw.to_string()));
            b.terms.push(term(
                "D attempts, each at most (2L_w + 5)/2^128",
                "D(2L_w + 5)/2^128",
                l2(d).mul(l2(2 * lw + 5)).mul(Log2::pow2(-128.0)),
            ));
            // f built from a random function rho: rho(rho(n) xor h) is a random
            // function on q distinct (n, h) unless an outer input repeats
            // another outer input or an inner input (docs/BOUNDS.md).
            let comp = l2(q).mul(l2(q - 1)).mul(Log2::pow2(-1.0)).add(l2(q).mul(l2(q))).mul(Log2::pow2(-128.0));
            b.terms.push(term(
                "f(n, h) = rho(rho(n) xor h) is a random function unless an outer input collides",
                "(q(q-1)/2 + q^2)/2^128, q = C + D",
                comp,
            ));
            b.terms.push(term("AES is a permutation, not a function (switching lemma, 2q calls)", "2q(2q-1)/2^129", switching(2 * q)));
            b.not_included.push(adv_aes("K", 2 * q));
            b.notes.push("a repeated nonce degrades this MAC only to hash127-aes's Theorem 9.2 (seed 000 section 9)".into());
        }
        _ => {
            let Some(h) = name.strip_prefix("wc-") else {
                return Err(Error::UnknownName(name.to_string()));
            };
            wc_bound(&mut b, h, attack)?;
        }
    }
    b.log2 = b.terms.iter().fold(Log2::ZERO, |acc, t| acc.add(t.log2));
    if b.log2.0 >= 0.0 {
        return Err(Error::Invalid(format!(
            "{name}: message too long for the bound: the bound is 2^{:.2} >= 1 for L = {} bytes, C = {}, D = {}",
            b.log2.0, attack.max_bytes, attack.tags, attack.forgeries
        )));
    }
    Ok(b)
}

fn wc_bound(b: &mut Bound, h: &str, attack: &Attack) -> Result<(), Error> {
    let c = attack.tags as u128;
    let d = attack.forgeries as u128;
    let q = c + d;
    let (eps, out_bytes, eps_desc): (Log2, u64, String);
    if let Some(n) = Some(blocks(attack.max_bytes, 8)).filter(|_| shoup_eps(h, 0).is_some()) {
        let (e, desc) = shoup_eps(h, n).expect("checked");
        b.params.push(("n (u64 blocks of pad(M, 8))".into(), n.to_string()));
        eps = e;
        out_bytes = 8;
        eps_desc = desc;
    } else if let (Some((blk, out, key)), Some(be)) = (block_params(h), block_eps(h)) {
        let t = tree_height(attack.max_bytes, blk, out);
        b.params.push(("T (tree height, SPEC section 5)".into(), t.to_string()));
        b.params.push(("eps_F (block function)".into(), format!("2^{:.2}", be.log2.0)));
        eps = be.log2.mul(l2(t as u128));
        out_bytes = out;
        eps_desc = format!(
            "{}; tree of height T: eps_tree <= T * eps_F (a difference must survive some level; docs/BOUNDS.md)",
            be.source
        );
        b.proven &= be.proven;
        if let Some(n) = be.note {
            b.notes.push(n);
        }
        b.notes.push(format!(
            "the paper proves eps-almost-Delta-universality for {}, while SPEC section 6 combines the hash with the pad by XOR; Shoup's Theorem 1 needs eps-AXU, which is assumed here with the same eps",
            if h.starts_with("sqh") { "subtraction mod 2^l" } else { "subtraction mod 2^32 (2^64 for mmh64)" }
        ));
        b.proven = false;
        // The level keys come from the AES key stream under s.
        let ks_blocks = (t as u128 * key as u128).div_ceil(16);
        b.terms.push(Term {
            what: "level keys from the AES key stream under s, modelled as uniform (switching lemma)".into(),
            formula: format!("k(k-1)/2^129, k = {ks_blocks} key-stream blocks"),
            log2: switching(ks_blocks),
        });
        b.not_included.push(adv_aes("s", ks_blocks));
    } else {
        return Err(Error::UnknownName(format!("wc-{h}")));
    }
    b.params.push(("eps (AXU of the hash for L bytes)".into(), format!("2^{:.2}", eps.0)));
    b.params.push(("eps source".into(), eps_desc));
    let thm1 = l2(d).mul(eps).add(switching(q));
    // Theorem 2 needs f to be a permutation of the tag's l-bit strings: only
    // when the tag is the whole AES block.
    let thm2 = (out_bytes == 16 && l2(c).mul(l2(c)).add(eps).0 <= 0.0).then(|| l2(d).mul(eps).mul(Log2::pow2(1.0)));
    match thm2 {
        Some(t2) if t2 < thm1 => {
            b.theorem = "Shoup (seed 001), Theorem 2: f = AES_K a random permutation of 128-bit tags, C^2 <= 1/eps".into();
            b.terms.insert(0, Term { what: "D attempts at 2 eps each".into(), formula: "2 D eps".into(), log2: t2 });
        }
        _ => {
            b.theorem = format!(
                "Shoup (seed 001), Theorem 1: f = AES_K(n)[0..{out_bytes}] as a random function{}",
                if out_bytes < 16 { " (Theorem 2 needs a permutation of the tag space; a truncated AES block is not one)" } else { "" }
            );
            b.terms.insert(0, Term { what: "D attempts at eps each".into(), formula: "D eps".into(), log2: l2(d).mul(eps) });
            b.terms.insert(1, Term {
                what: "AES is a permutation, not a function (switching lemma)".into(),
                formula: "q(q-1)/2^129, q = C + D".into(),
                log2: switching(q),
            });
        }
    }
    b.not_included.insert(0, adv_aes("K", q));
    b.notes.push("nonces must never repeat under one key".into());
    Ok(())
}

/// The MAC names [`bound`] knows, for a build that has all families.
pub fn names() -> Vec<String> {
    let mut v: Vec<String> =
        ["hash127", "hash127-aes", "hash127-aes-nonce", "hash127-aes-add"].iter().map(|s| s.to_string()).collect();
    for h in ["eval64", "division64", "gdivision64"] {
        v.push(format!("wc-{h}"));
    }
    for n in 1..=4 {
        v.push(format!("wc-mmh32x{n}"));
    }
    v.push("wc-nmh32".into());
    v.push("wc-mmh64".into());
    for l in [32, 64, 96, 128] {
        v.push(format!("wc-sqh{l}-asm"));
        v.push(format!("wc-sqh{l}-e"));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use num_traits::{ToPrimitive, Zero};

    /// log2 of a rational n / 2^k, exactly enough for comparing to 1e-9.
    fn big_log2(n: &BigUint, k: i64) -> f64 {
        if n.is_zero() {
            return f64::NEG_INFINITY;
        }
        let bits = n.bits() as i64;
        let shift = (bits - 60).max(0);
        let top = (n >> shift as usize).to_f64().unwrap();
        top.log2() + shift as f64 - k as f64
    }

    fn a(l: u64, c: u64, d: u64) -> Attack {
        Attack { max_bytes: l, tags: c, forgeries: d }
    }

    #[test]
    fn hash127_bounds_equal_the_theorems_in_exact_arithmetic() {
        for &(l, c, d) in &[(0u64, 1u64, 1u64), (1 << 20, 1 << 30, 1 << 20), (u64::MAX, 1 << 10, 1), (1000, 12345, 678)] {
            let lw = BigUint::from(l / 4 + 1);
            let (cb, db) = (BigUint::from(c), BigUint::from(d));
            // Theorem 9.2, exact over 2^129.
            let t92 = ((&cb * (&cb - 1u32)) * 2u32 + &cb * &db * 4u32) * (&lw + 2u32) + &db * 2u32;
            // plus switching q(q-1)/2^129
            let q = &cb + &db;
            let sw = &q * (&q - 1u32);
            let want = big_log2(&(t92 + sw), 129);
            let got = bound("hash127-aes", &a(l, c, d)).unwrap().log2.0;
            assert!((got - want).abs() < 1e-9, "{l} {c} {d}: {got} vs {want}");
            // Theorem 9.1 + switching, over 2^129
            let t91 = (&cb + &db * (&lw + 2u32)) * 4u32 + &q * (&q - 1u32);
            let got = bound("hash127-aes-add", &a(l, c, d)).unwrap().log2.0;
            assert!((got - big_log2(&t91, 129)).abs() < 1e-9);
            // Theorem 9.3 + composition + switching on 2q, over 2^129
            let q2 = &q * 2u32;
            let t93 = &db * (&lw * 2u32 + 5u32) * 2u32 + (&q * (&q - 1u32) + &q * &q * 2u32) + &q2 * (&q2 - 1u32);
            let got = bound("hash127-aes-nonce", &a(l, c, d)).unwrap().log2.0;
            assert!((got - big_log2(&t93, 129)).abs() < 1e-9);
        }
        // L = 2^32 bytes: L_w = 2^30 + 1 words.
        let got = bound("hash127", &a(1 << 32, 1, 1)).unwrap().log2.0;
        let want = big_log2(&(BigUint::from(3u32) * ((1u64 << 30) + 1 + 2)), 128);
        assert!((got - want).abs() < 1e-9);
        // Bernstein's own example (section 8 notes): L around 2^30 words gives about 2^-96.
        assert!((got + 96.4).abs() < 0.1, "{got}");
    }

    #[test]
    fn too_long_or_too_many_is_an_error() {
        assert!(bound("hash127", &a(10, 2, 1)).is_err());
        // mmh32x1 with a huge number of forgeries reaches 1.
        assert!(bound("wc-mmh32x1", &a(1 << 40, 1, u64::MAX)).is_err());
        assert!(bound("hash127-aes", &a(u64::MAX, u64::MAX, u64::MAX)).is_err());
        assert!(bound("wc-eval64", &a(u64::MAX, 1, 1 << 10)).is_err());
        assert!(bound("no-such", &a(1, 1, 1)).is_err());
        assert!(bound("hash127-aes", &a(1, 1, 0)).is_err());
    }

    #[test]
    fn tree_height_matches_the_tree_definition() {
        // Direct simulation of SPEC §5 lengths.
        for (b, o) in [(128u64, 4u64), (128, 16), (256, 8), (704, 32), (256, 16)] {
            for l in [0u64, 1, b - 1, b, b + 1, b * b / o, 1 << 20, 1 << 33] {
                let mut x = l;
                let mut t = 0;
                loop {
                    t += 1;
                    let y = (x / b + 1) * b;
                    if y == b {
                        break;
                    }
                    x = y / b * o;
                }
                assert_eq!(tree_height(l, b, o), t, "B {b} O {o} L {l}");
            }
        }
    }

    #[test]
    fn every_name_has_a_bound_and_json() {
        for n in names() {
            let c = if n == "hash127" { 1 } else { 1 << 20 };
            let b = bound(&n, &a(1 << 20, c, 1 << 10)).unwrap();
            assert!(b.log2.0 < 0.0, "{n}");
            let j = b.to_json();
            assert!(j["bound_log2"].as_f64().unwrap() < 0.0);
            assert!(!j["theorem"].as_str().unwrap().is_empty());
            assert!(!b.not_included.is_empty() || n == "hash127", "{n}: the AES term must be named");
        }
    }

    #[test]
    fn shoup_eps_values() {
        // eval64, L = 8 * 1000 - 1: n = 1000 blocks, eps = 1001/2^64.
        let b = bound("wc-eval64", &a(7999, 1, 1)).unwrap();
        let want = (1001f64.log2() - 64.0).exp2() + (2f64.log2() - 129.0).exp2();
        assert!((b.log2.0 - want.log2()).abs() < 1e-9);
        let b = bound("wc-division64", &a(7999, 1, 1)).unwrap();
        assert!((b.log2.0 - ((64.0 * 1001f64).log2() - 64.0)).abs() < 1e-6);
        let b = bound("wc-gdivision64", &a(7999, 1, 1)).unwrap();
        assert!((b.log2.0 - ((8.0 * 1001f64).log2() - 64.0)).abs() < 1e-6);
    }

    #[test]
    fn log2_arithmetic() {
        assert_eq!(Log2::int(8).0, 3.0);
        assert!((Log2::int(3).add(Log2::int(5)).0 - 3.0).abs() < 1e-12);
        assert_eq!(Log2::ZERO.add(Log2(-500.0)).0, -500.0);
        assert!((Log2(-1000.0).add(Log2(-1000.0)).0 + 999.0).abs() < 1e-12);
        assert_eq!(Log2(-96.0).sci(), "1.26e-29");
        assert_eq!(Log2::int(1000).sci(), "1.00e+03");
        assert_eq!(Log2::ZERO.sci(), "0");
    }
}
