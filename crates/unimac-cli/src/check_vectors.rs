//! `unimac check-vectors`: known-answer files (JSON lines,
//! hash127-accuracy.exp, Wycheproof), or the vectors bundled in the binary.

use std::io::{self, Write};
use std::path::PathBuf;

use unimac::vectors;

use crate::fail::Fail;
use crate::{bundled, input};

pub(crate) fn check(files: &[PathBuf]) -> Result<bool, Fail> {
    let mut inputs: Vec<(String, String)> = Vec::new();
    if files.is_empty() {
        for (name, text) in bundled::VECTORS {
            inputs.push((format!("bundled:{name}"), text.to_string()));
        }
    } else {
        for f in files {
            let text = std::fs::read_to_string(f)
                .map_err(|e| Fail(format!("cannot read {}: {}", input::shown(Some(f)), input::io_msg(&e))))?;
            inputs.push((f.display().to_string(), text));
        }
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut out = String::new();
    for (shown, text) in &inputs {
        let r = vectors::check_file_text(shown, text);
        passed += r.passed;
        failed += r.failures.len();
        for f in r.failures {
            out.push_str(&format!(
                "{shown}:{}: {} FAILED expected {} got {}\n",
                f.line, f.name, f.expected, f.got
            ));
        }
    }
    out.push_str(&format!("{passed} passed, {failed} failed\n"));
    io::stdout().write_all(out.as_bytes())?;
    Ok(failed == 0)
}
