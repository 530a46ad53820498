//! The strength policy on the command line: a MAC weak for the use (the
//! library's `unimac_front::formats::policy`) is refused unless `--allow-weak`.

use crate::fail::Fail;
use crate::files::Item;

pub use unimac_front::formats::policy::{self, use_tags, USE_FORGERIES, WEAK_LOG2};

/// Refuse a weak MAC for this use unless `--allow-weak`.
pub(crate) fn check_strength(name: &str, items: &[Item], random: bool) -> Result<(), Fail> {
    let sizes: Vec<Option<u64>> = items
        .iter()
        .map(|(p, _)| match what_is(p) {
            Ok((None, st)) if p.as_os_str() != "-" => Some(st.len()),
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

/// What the file at `p` is (`None`: a regular file; else in words) and its
/// stamp (size, times, device, inode): through the walk's checked
/// directories for a file a walk found (never by a path a writer of the
/// tree could re-point), else by its path (symbolic links followed).
pub(crate) fn what_is(p: &std::path::Path) -> std::io::Result<(Option<&'static str>, unimac_front::formats::race::Stamp)> {
    if let Some(t) = crate::input::walked_tree(p) {
        let f = t.stat(p)?;
        return Ok((f.what, f.stamp));
    }
    let m = std::fs::metadata(p)?;
    let what = unimac_front::formats::fsio::kind_of(&m);
    Ok((what, unimac_front::formats::race::Stamp::of(&m)))
}
