//! `unimac bound`: the forgery bound of a MAC (or modp's identity check)
//! for a use, as text or JSON.

use std::io::{self, Write};

use unimac::bounds::{self, Attack};

use crate::fail::Fail;
use crate::names::{cite, resolve_mac};

/// `unimac bound NAME --max-bytes L [--tags C] [--forgeries D] [--random-nonces] [--json]`.
pub fn bound(
    name: &str,
    max_bytes: u64,
    tags: u64,
    forgeries: u64,
    random_nonces: bool,
    json: bool,
) -> Result<(), Fail> {
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
        b.to_text()
    };
    io::stdout().write_all(cite(&text).as_bytes())?;
    Ok(())
}
