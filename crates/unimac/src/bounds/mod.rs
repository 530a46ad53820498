use crate::error::Error;
#[cfg(not(feature = "std"))]
#[allow(unused_imports)] // std's methods win wherever a dependency links std
use crate::float::F64Math;
use crate::macs::{self, BoundRule, MacDesc};
use crate::prelude::*;
use crate::shoup::Kind;
use crate::square::Variant;
use crate::tree::Block;

mod hash127;
mod modp;
mod published;
mod shoup;
mod wc;
#[cfg(test)]
mod tests;

pub use modp::{modp_bound, ModpBound};


/// log2 of a non-negative real; `-inf` is 0.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Log2(pub f64);

impl Log2 {
    /// 0.
    pub(crate) const ZERO: Log2 = Log2(f64::NEG_INFINITY);

    /// log2 of an integer.
    pub(crate) fn int(x: u128) -> Log2 {
        if x == 0 {
            Log2::ZERO
        } else {
            Log2((x as f64).log2())
        }
    }
    /// `2^e`.
    pub(crate) fn pow2(e: f64) -> Log2 {
        Log2(e)
    }
    /// Product.
    pub(crate) fn times(self, o: Log2) -> Log2 {
        if self.0 == f64::NEG_INFINITY || o.0 == f64::NEG_INFINITY {
            Log2::ZERO
        } else {
            Log2(self.0 + o.0)
        }
    }
    /// Sum, `log2(2^a + 2^b) = max + log2(1 + 2^(min − max))`.
    pub(crate) fn plus(self, o: Log2) -> Log2 {
        let (hi, lo) = if self.0 >= o.0 {
            (self.0, o.0)
        } else {
            (o.0, self.0)
        };
        if lo == f64::NEG_INFINITY {
            return Log2(hi);
        }
        Log2(hi + (lo - hi).exp2().ln_1p() / core::f64::consts::LN_2)
    }
    /// The value as `m × 10^e` text, e.g. `1.27e-29` (exact for tiny values).
    pub(crate) fn sci(self) -> String {
        if self.0 == f64::NEG_INFINITY {
            return "0".into();
        }
        let l10 = self.0 * core::f64::consts::LOG10_2;
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
    /// Whether the `C` nonces are drawn at random (128 bits each, Bernstein,
    /// "Floating-point arithmetic and message authentication", §9
    /// "Random numbers instead of counters") instead of from a counter: the
    /// bound then adds the chance that two of them repeat.
    pub random_nonces: bool,
}

impl Attack {
    /// `C` tags of messages of at most `L` bytes and `D` forgery attempts,
    /// nonces from a counter.
    pub fn new(max_bytes: u64, tags: u64, forgeries: u64) -> Attack {
        Attack {
            max_bytes,
            tags,
            forgeries,
            random_nonces: false,
        }
    }
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
    /// Whether it is the theorem's own formula (false: a modelling term
    /// such as the switching lemma).
    pub theorem: bool,
}

/// A forgery bound.
#[derive(Clone, Debug)]
pub struct Bound {
    /// The MAC (without `mac-`).
    pub name: String,
    /// The attack.
    pub attack: Attack,
    /// Where it comes from, e.g. "Bernstein, “Floating-point arithmetic and
    /// message authentication”, Theorem 9.2".
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
    /// log2 of the theorem's own formula alone (without the modelling terms).
    pub fn theorem_log2(&self) -> Log2 {
        self.terms
            .iter()
            .filter(|t| t.theorem)
            .fold(Log2::ZERO, |acc, t| acc.plus(t.log2))
    }

    /// One JSON object (feature `json`) (`bound_log2`, `theorem`, …).
    #[cfg(feature = "json")]
    pub fn to_json(&self) -> serde_json::Value {
        let num = |l: Log2| {
            if l.0 == f64::NEG_INFINITY {
                serde_json::Value::Null
            } else {
                serde_json::json!(l.0)
            }
        };
        serde_json::json!({
            "name": self.name,
            "max_bytes": self.attack.max_bytes,
            "tags": self.attack.tags,
            "forgeries": self.attack.forgeries,
            "bound_log2": num(self.log2),
            "bound": self.log2.sci(),
            "theorem": self.theorem,
            "theorem_log2": num(self.theorem_log2()),
            "terms": self.terms.iter().map(|t| serde_json::json!({
                "what": t.what, "formula": t.formula, "log2": num(t.log2), "value": t.log2.sci(), "from_theorem": t.theorem,
            })).collect::<Vec<_>>(),
            "not_included": self.not_included,
            "params": self.params.iter().map(|(k, v)| (k.clone(), serde_json::json!(v))).collect::<serde_json::Map<_, _>>(),
            "proven": self.proven,
            "notes": self.notes,
        })
    }

    /// Human-readable lines (the [`Display`](core::fmt::Display) form).
    fn text(&self) -> String {
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
        s.push_str(&format!(
            "  the theorem's formula alone: 2^{:.2} ({})\n",
            self.theorem_log2().0,
            self.theorem_log2().sci()
        ));
        for (k, v) in &self.params {
            s.push_str(&format!("  {k} = {v}\n"));
        }
        for (i, t) in self.terms.iter().enumerate() {
            let lead = if i == 0 { "=" } else { "+" };
            let v = if t.log2.0 == f64::NEG_INFINITY {
                "0".to_string()
            } else {
                format!("2^{:.2}", t.log2.0)
            };
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

/// The bound in human-readable lines: the number, the attack, the theorem,
/// its parameters and terms, what is not included, and the notes.
impl core::fmt::Display for Bound {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.text())
    }
}

fn l2(x: u128) -> Log2 {
    Log2::int(x)
}

/// `q(q − 1)/2^129`: switching AES (a permutation) for a random function on
/// `q` distinct inputs (the PRP/PRF switching lemma).
fn switching(q: u128) -> Log2 {
    l2(q)
        .times(l2(q.saturating_sub(1)))
        .times(Log2::pow2(-129.0))
}

fn adv_aes(key: &str, q: u128) -> String {
    format!("Adv_AES^prp(q = {q}): advantage of distinguishing AES-128 under {key} from a random permutation with {q} queries")
}

/// Words of `pad(M, 4)` for `|M| ≤ L`: `⌊L/4⌋ + 1`.
pub fn hash127_words(max_bytes: u64) -> u128 {
    max_bytes as u128 / 4 + 1
}

/// Blocks of `pad(M, B)` for `|M| ≤ L`: `⌊L/B⌋ + 1`.
pub(crate) fn blocks(max_bytes: u64, b: u64) -> u128 {
    max_bytes as u128 / b as u128 + 1
}

/// Height of `tree-F` (docs/WIRE.md §6) for messages of at most `L` bytes: the
/// number of levels, non-decreasing in the length.
pub(crate) fn tree_height(max_bytes: u64, block: u64, out: u64) -> u32 {
    let (b, o) = (block as u128, out as u128);
    let mut x = max_bytes as u128;
    let mut t = 1;
    while x >= b {
        x = (x / b + 1) * o;
        t += 1;
    }
    t
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

/// A term the theorem states.
fn term(what: &str, formula: &str, v: Log2) -> Term {
    Term { what: what.into(), formula: formula.into(), log2: v, theorem: true }
}

/// A term of the model: what replacing AES by a random function costs.
fn model(what: &str, formula: &str, v: Log2) -> Term {
    Term { what: what.into(), formula: formula.into(), log2: v, theorem: false }
}

/// The forgery bound of the MAC `name` (without `mac-`) against `attack`.
///
/// An error when the name has no bound, or when the bound is 1 or more (the
/// theorem then says nothing: the messages are too long or too many).
pub fn bound(name: &str, attack: &Attack) -> Result<Bound, Error> {
    let desc = macs::find(name).ok_or_else(|| Error::UnknownName(name.to_string()))?;
    need_positive(attack)?;
    let (c, d) = (attack.tags as u128, attack.forgeries as u128);
    let n = hash127::Counts { c, d, q: c + d, lw: hash127_words(attack.max_bytes) };
    let mut b = Bound {
        name: desc.name.to_string(),
        attack: *attack,
        theorem: String::new(),
        terms: Vec::new(),
        log2: Log2::ZERO,
        not_included: Vec::new(),
        params: Vec::new(),
        proven: true,
        notes: Vec::new(),
    };
    match desc.bound {
        BoundRule::Hash127OneTime => hash127::one_time(&mut b, &n)?,
        BoundRule::Hash127OneTime96 => hash127::one_time96(&mut b, &n)?,
        BoundRule::Hash127Scramble => hash127::scramble(&mut b, &n)?,
        BoundRule::Hash127Pad => hash127::pad(&mut b, &n)?,
        BoundRule::Hash127NonceScramble => hash127::nonce_scramble(&mut b, &n)?,
        BoundRule::Shoup => shoup::shoup7_bound(&mut b, desc, attack)?,
        BoundRule::Published { .. } => published::spec_bound(&mut b, desc, attack),
        BoundRule::WegmanCarter => wc::wc_bound(&mut b, desc, attack)?,
    }
    if attack.random_nonces {
        random_nonces(&mut b, desc, c)?;
    }
    b.log2 = b.terms.iter().fold(Log2::ZERO, |acc, t| acc.plus(t.log2));
    if b.log2.0 >= 0.0 {
        return Err(no_guarantee(&b, attack));
    }
    Ok(b)
}

/// The term of `C` random nonces, two of which may repeat.
fn random_nonces(b: &mut Bound, desc: &MacDesc, c: u128) -> Result<(), Error> {
    let name = desc.name;
    if !desc.takes_nonce() {
        return Err(Error::Invalid(format!(
            "{name} takes no nonce: --random-nonces does not apply"
        )));
    }
    // Two of C uniform nonces of `bits` bits are equal with probability
    // at most C(C-1)/2 / 2^bits; counted as a lost key, whatever the MAC.
    let bits = desc.nonce.random_bits();
    b.terms.push(term(
        &format!("two of the C random {bits}-bit nonces repeat (birthday bound)"),
        &format!("C(C-1)/2^{}", bits + 1),
        l2(c)
            .times(l2(c - 1))
            .times(Log2::pow2(-f64::from(bits + 1))),
    ));
    b.params.push((
        "nonces".into(),
        format!(
            "random, {bits} bits each ({} bytes{})",
            desc.nonce.max(),
            if bits.is_multiple_of(8) {
                ""
            } else {
                ", the top bit clear"
            }
        ),
    ));
    if desc.bound == BoundRule::Hash127NonceScramble {
        b.notes.push("a repeated nonce degrades this MAC only to Theorem 9.2 (Bernstein, “Floating-point arithmetic and message authentication”, section 9); the repeat term counts it as a loss, which is conservative".into());
    }
    Ok(())
}

/// The error of a bound of 1 or more: the messages are too long, or the
/// tags and attempts too many whatever the length.
fn no_guarantee(b: &Bound, attack: &Attack) -> Error {
    let name = b.name.as_str();
    // Which way out: if 1-byte messages are still >= 1, the number of
    // tags and forgery attempts alone leaves no guarantee.
    let short = Attack {
        max_bytes: 1,
        ..*attack
    };
    if attack.max_bytes > 1 && bound(name, &short).is_ok() {
        return Error::Invalid(format!(
            "{name}: message too long for the bound: the bound is 2^{:.2} >= 1 for L = {} bytes, C = {}, D = {}",
            b.log2.0, attack.max_bytes, attack.tags, attack.forgeries
        ));
    }
    Error::Invalid(format!(
        "{name}: no guarantee for D = {} forgery attempts after C = {} tags: the bound is 2^{:.2} >= 1 even for 1-byte messages (L = {} bytes); fewer tags or attempts, or a MAC with a longer tag",
        attack.forgeries, attack.tags, b.log2.0, attack.max_bytes
    ))
}

/// The MAC names [`bound`] knows: every row of the table.
pub fn names() -> Vec<String> {
    macs::MACS.iter().map(|d| d.name.to_string()).collect()
}

