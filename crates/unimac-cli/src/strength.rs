//! The strength policy on the command line: a MAC weak for the use (the
//! library's `unimac::formats::policy`) is refused unless `--allow-weak`.

use crate::fail::Fail;
use crate::files::Item;

pub use unimac::formats::policy::{self, use_tags, USE_FORGERIES, WEAK_LOG2};

/// Refuse a weak MAC for this use unless `--allow-weak`.
pub(crate) fn check_strength(name: &str, items: &[Item], random: bool) -> Result<(), Fail> {
    let sizes: Vec<Option<u64>> = items
        .iter()
        .map(|(p, _)| match std::fs::metadata(p) {
            Ok(m) if m.is_file() && p.as_os_str() != "-" => Some(m.len()),
            _ => None,
        })
        .collect();
    check_strength_for(name, &sizes, random)
}

/// [`check_strength`] from the files' sizes (`None`: not a regular file,
/// counted as 1 GiB).
pub(crate) fn check_strength_for(name: &str, sizes: &[Option<u64>], random: bool) -> Result<(), Fail> {
    policy::check_strength(name, sizes, random).map_err(|e| Fail(e.to_string()))
}
