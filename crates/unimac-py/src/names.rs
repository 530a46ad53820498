//! Names as the command line takes them: a MAC is `X` or `mac-X`, a typo
//! gets a "did you mean", papers are cited by author and title; every
//! message is the CLI's.

use unimac::registry;

/// The papers behind the library, by the numbers its catalogue uses.
const PAPERS: &[(&str, &str, &str)] = &[
    ("000", "Bernstein", "“Floating-point arithmetic and message authentication”"),
    ("001", "Shoup", "“On fast and provably secure message authentication based on universal hashing”"),
    ("002", "Bernstein", "“Guaranteed message authentication faster than MD5”"),
    ("003", "Etzel–Patel–Ramzan", "“Square Hash: fast message authentication via optimized universal hash functions”"),
    ("004", "Halevi–Krawczyk", "“MMH: software message authentication in the Gbit/second rates”"),
];

/// `text` with every "seed NNN" reference replaced by the paper's author and
/// title.
pub fn cite(text: &str) -> String {
    let mut s = text.to_string();
    for (n, author, title) in PAPERS {
        s = s.replace(&format!("{author} (seed {n})"), &format!("{author}, {title}"));
        s = s.replace(&format!("{author}, seed {n}"), &format!("{author}, {title}"));
        s = s.replace(&format!("{author} seed {n}"), &format!("{author}, {title}"));
        s = s.replace(&format!("seed {n}"), &format!("{author}, {title}"));
    }
    s
}

/// Levenshtein distance.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The closest of `candidates` to `name`, if close enough to be a typo.
fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

fn hint(s: Option<&str>) -> String {
    match s {
        Some(s) => format!("did you mean '{s}'? "),
        None => String::new(),
    }
}

/// `name` (`X` or `mac-X`) as a MAC name without the prefix, if it is one.
pub fn mac_name(name: &str) -> Option<String> {
    let bare = name.strip_prefix("mac-").unwrap_or(name);
    registry::names().into_iter().find(|n| n == bare)
}

/// A MAC name (`X` or `mac-X`), with the CLI's error for anything else.
pub fn resolve_mac(name: &str) -> Result<String, String> {
    if let Some(n) = mac_name(name) {
        return Ok(n);
    }
    let bare = name.strip_prefix("mac-").unwrap_or(name);
    let names = registry::names();
    let hint = hint(suggest(bare, names.iter().map(String::as_str)));
    if registry::lookup(&format!("mac-{bare}")).is_err() && registry::lookup(bare).is_ok() {
        return Err(format!("'{name}' is a hash, not a MAC; {hint}'unimac list' shows the MACs"));
    }
    Err(format!("unknown MAC '{name}'; {hint}'unimac list' shows the MACs"))
}

/// A name for `compute` (the CLI's `unimac compute`): a SPEC name as is;
/// `X` for `mac-X` when `X` is a MAC and not itself a SPEC name.
pub fn resolve_spec(name: &str) -> Result<String, String> {
    if registry::lookup(name).is_ok() {
        return Ok(name.to_string());
    }
    if let Some(m) = mac_name(name) {
        return Ok(format!("mac-{m}"));
    }
    let all = registry::spec_names();
    let hint = hint(suggest(name, all.iter().map(String::as_str)));
    match registry::lookup(name) {
        Err(unimac::Error::NotImplemented(_)) => Err(format!("{name}: not implemented in this build")),
        _ => Err(format!("unknown name '{name}'; {hint}'unimac list' shows every name")),
    }
}

/// What `unimac.new` takes: a MAC (`X` or `mac-X`, as `unimac tag` takes
/// it) or else a SPEC name (a raw hash such as `eval64`, as `unimac compute`
/// takes it). `Ok((registry name, is_mac))`.
pub fn resolve_any(name: &str) -> Result<(String, bool), String> {
    if let Some(m) = mac_name(name) {
        return Ok((format!("mac-{m}"), true));
    }
    if registry::lookup(name).is_ok() {
        return Ok((name.to_string(), false));
    }
    let mut all = registry::spec_names();
    all.extend(registry::names());
    let hint = hint(suggest(name, all.iter().map(String::as_str)));
    match registry::lookup(name) {
        Err(unimac::Error::NotImplemented(_)) => Err(format!("{name}: not implemented in this build")),
        _ => Err(format!("unknown name '{name}'; {hint}'unimac list' shows every name")),
    }
}
