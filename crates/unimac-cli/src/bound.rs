//! `unimac bound`: the forgery bound of a MAC (or modp's identity check)
//! for a use, as text or JSON.

use std::io::{self, Write};

use unimac_front::bounds::{self, Attack};

use crate::fail::Fail;
use crate::names::{cite, resolve_mac};

/// The longest message when `--max-bytes` is not given.
const DEFAULT_MAX_BYTES: u64 = 1 << 20;

/// `unimac bound NAME [--max-bytes L] [--tags C] [--forgeries D] [--random-nonces] [--json]`:
/// without `--max-bytes`, messages of at most 1 MiB, and the text says so.
pub fn bound(
    name: &str,
    given_max: Option<u64>,
    tags: u64,
    forgeries: u64,
    random_nonces: bool,
    json: bool,
) -> Result<(), Fail> {
    let max_bytes = given_max.unwrap_or(DEFAULT_MAX_BYTES);
    let default_note = |text: String| match given_max {
        Some(_) => text,
        None => text.replacen(
            &format!("L = {max_bytes} bytes"),
            &format!("L = {max_bytes} bytes (the default, 1 MiB: --max-bytes not given)"),
            1,
        ),
    };
    if crate::names::is_modp(name) {
        return crate::identity::bound(max_bytes, forgeries, json);
    }
    let name = resolve_mac(name)?;
    let b = bounds::bound(
        &name,
        &Attack {
            max_bytes,
            tags,
            forgeries,
            random_nonces,
        },
    )
    .map_err(|e| match e {
        unimac::Error::UnknownName(_) => Fail(format!(
            "no bound for '{name}' (one of: {})",
            bounds::names().join(", ")
        )),
        e => Fail(cite(&e.to_string())),
    })?;
    let text = if json {
        format!("{}\n", b.to_json())
    } else {
        default_note(b.to_string())
    };
    io::stdout().write_all(cite(&text).as_bytes())?;
    Ok(())
}
