//! `unimac check-identity` and `unimac bound modp`: checking `a² = bc + de`
//! on huge integers mod a secret random prime (Bernstein, "Floating-point
//! arithmetic and message authentication", "Other applications" in §1;
//! `modp` of the wire format, docs/WIRE.md §7).

use std::io::{self, Write};
use std::path::Path;

use unimac_front::modp::{self, SecretPrime};

use crate::input::read_message;
use crate::fail::Fail;
use crate::keyfile;

fn log2_text(l: f64) -> String {
    if l == f64::NEG_INFINITY {
        "0".into()
    } else {
        format!("2^{l:.2}")
    }
}

/// `unimac check-identity --key-file K [--hex] A B C D E`: `Ok(true)` if
/// `a² ≡ bc + de (mod p)`.
pub fn check(key_file: &Path, operands: &[String], hex_args: bool) -> Result<bool, Fail> {
    let [a, b, c, d, e] = operands else {
        return Err(Fail(format!(
            "check-identity needs five operands A B C D E, got {}",
            operands.len()
        )));
    };
    let key = keyfile::read_key(key_file, "modp")?;
    let p = SecretPrime::from_bytes(&key)?;
    let mut vals: Vec<Vec<u8>> = Vec::with_capacity(5);
    for (name, x) in ["A", "B", "C", "D", "E"].iter().zip([a, b, c, d, e]) {
        let v = if hex_args {
            hex::decode(x.trim()).map_err(|err| Fail(format!("{name} is not valid hex: {err}")))?
        } else {
            if x == "-" && vals.is_empty() && [b, c, d, e].iter().any(|y| *y == "-") {
                return Err(Fail("stdin ('-') can be read only once".into()));
            }
            let mut v = Vec::new();
            read_message(Some(Path::new(x)), |chunk| v.extend_from_slice(chunk))?;
            v
        };
        vals.push(v);
    }
    let [a, b, c, d, e] = [&vals[0], &vals[1], &vals[2], &vals[3], &vals[4]].map(|v| v.as_slice());
    let holds = p.check_identity(a, b, c, d, e);
    let n = modp::identity_bits(a, b, c, d, e);
    let line = if holds {
        format!(
            "OK: a^2 = bc + de (mod p); a false identity of these sizes (|a^2 - bc - de| < 2^{n}) passes with probability <= {}\n",
            log2_text(modp::false_accept_log2(n))
        )
    } else {
        "FAILED: a^2 != bc + de (a true identity never fails)\n".to_string()
    };
    io::stdout().write_all(line.as_bytes())?;
    Ok(holds)
}

/// `unimac bound modp --max-bytes L [--forgeries Q]`: the false-accept bound
/// for `Q` checks of operands of at most `L` bytes each; its limits, numbers
/// and text are the library's (`bounds::modp_bound`), also Python's.
pub fn bound(max_bytes: u64, checks: u64, json: bool) -> Result<(), Fail> {
    let b = unimac_front::bounds::modp_bound(max_bytes, checks)?;
    let text = if json { format!("{}\n", b.to_json()) } else { b.text() };
    io::stdout().write_all(text.as_bytes())?;
    Ok(())
}
