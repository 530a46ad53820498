//! `unimac check-vectors`: known-answer files (JSON lines,
//! hash127-accuracy.exp, Wycheproof), or the vectors bundled in the binary.

use std::io::{self, Write};
use std::path::PathBuf;

use unimac::vectors;

use crate::fail::Fail;
use crate::{bundled, input};

/// The most a vector file given by name may hold (the largest shipped is
/// under 100 KiB).
const MAX_VECTOR_FILE: u64 = 64 << 20;

pub(crate) fn check(files: &[PathBuf]) -> Result<bool, Fail> {
    let mut inputs: Vec<(String, String)> = Vec::new();
    if files.is_empty() {
        for (name, text) in bundled::VECTORS {
            inputs.push((format!("bundled:{name}"), text.to_string()));
        }
    } else {
        for f in files {
            let shown = input::shown(Some(f));
            let bytes = input::read_list_argument(f, "vector file", MAX_VECTOR_FILE)?;
            let text = String::from_utf8(bytes).map_err(|_| Fail(format!("vector file {shown}: not UTF-8 text")))?;
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
