//! Known-answer files (the wire format, docs/WIRE.md §9.5): `.jsonl` lines,
//! the original hash127 package's accuracy test (`hash127-accuracy.exp`), and
//! Wycheproof's `mac_with_iv` files.

use crate::prelude::*;
use crate::registry::{self, Params};

/// One failed known answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// 1-based line number.
    pub line: usize,
    /// The `fn` of the line (or `?` if the line did not parse).
    pub name: String,
    /// The expected output, hex.
    pub expected: String,
    /// What came out, hex, or the error.
    pub got: String,
}

/// The outcome of a file.
#[derive(Debug, Default, Clone)]
pub struct Report {
    pub passed: usize,
    pub failures: Vec<Failure>,
}

fn field<'a>(v: &'a serde_json::Value, k: &str) -> Result<&'a str, String> {
    v.get(k)
        .and_then(|x| x.as_str())
        .ok_or_else(|| format!("missing string field '{k}'"))
}

fn unhex(s: &str, what: &str) -> Result<Vec<u8>, String> {
    hex::decode(s).map_err(|e| format!("bad hex in '{what}': {e}"))
}

/// Run one `.jsonl` line: `Ok(())` if the output matches.
pub fn check_json_line(line: &str) -> Result<(), (String, String, String)> {
    let v: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| ("?".to_string(), String::new(), format!("bad JSON: {e}")))?;
    let name = field(&v, "fn")
        .map_err(|e| ("?".to_string(), String::new(), e))?
        .to_string();
    let fail = |expected: &str, got: String| (name.clone(), expected.to_string(), got);
    let expected = field(&v, "out")
        .map_err(|e| fail("", e))?
        .to_ascii_lowercase();
    let key = unhex(field(&v, "key").map_err(|e| fail(&expected, e))?, "key")
        .map_err(|e| fail(&expected, e))?;
    let msg = unhex(field(&v, "msg").map_err(|e| fail(&expected, e))?, "msg")
        .map_err(|e| fail(&expected, e))?;
    let nonce = match v.get("nonce") {
        Some(n) => Some(unhex(n.as_str().unwrap_or("?"), "nonce").map_err(|e| fail(&expected, e))?),
        None => None,
    };
    let len = match v.get("len") {
        Some(n) => Some(
            n.as_u64()
                .ok_or_else(|| fail(&expected, "bad 'len'".into()))? as usize,
        ),
        None => None,
    };
    let p = Params {
        key: &key,
        nonce: nonce.as_deref(),
        len,
    };
    match registry::known_answer(&name, &p, &msg) {
        Ok(out) if hex::encode(&out) == expected => Ok(()),
        Ok(out) => Err(fail(&expected, hex::encode(out))),
        Err(e) => Err(fail(&expected, e.to_string())),
    }
}

/// Check every line of a `.jsonl` file's text.
pub fn check_jsonl(text: &str) -> Report {
    let mut r = Report::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match check_json_line(line) {
            Ok(()) => r.passed += 1,
            Err((name, expected, got)) => r.failures.push(Failure {
                line: i + 1,
                name,
                expected,
                got,
            }),
        }
    }
    r
}

/// The key of the original hash127 accuracy test (docs/WIRE.md §9.5).
pub const ACCURACY_R: [i32; 4] = [1234567890, 1234567891, 1234567892, 1234567893];
/// The `k` of the original hash127 accuracy test.
pub const ACCURACY_K: [i32; 4] = [314159265, 358979323, 846264338, 327950288];

/// The message of line `i` of the accuracy test.
pub fn accuracy_message(i: usize) -> Vec<i32> {
    if i < 1000 {
        vec![i32::MIN; i]
    } else {
        let n = i - 1000;
        (0..n)
            .map(|w| {
                let b: [u8; 4] = core::array::from_fn(|j| ((4 * w + j) % 256) as u8);
                i32::from_le_bytes(b)
            })
            .collect()
    }
}

/// Check the original package's accuracy file: line `i` is `i: w0 w1 w2 w3`
/// (or just the four words), the unsigned output words.
pub fn check_accuracy(text: &str) -> Report {
    let key = crate::hash127::Key::from_words(ACCURACY_R, ACCURACY_K);
    let mut r = Report::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let body = line.split_once(':').map_or(line, |(_, b)| b);
        let expected: Vec<&str> = body.split_whitespace().collect();
        let got = crate::hash127::hash127_words(&key, &accuracy_message(i));
        let got_s: Vec<String> = got.iter().map(|w| w.to_string()).collect();
        if expected.len() == 4 && expected.iter().zip(&got_s).all(|(a, b)| a == b) {
            r.passed += 1;
        } else {
            r.failures.push(Failure {
                line: i + 1,
                name: "hash127-accuracy".into(),
                expected: expected.join(" "),
                got: got_s.join(" "),
            });
        }
    }
    r
}

/// The registry name of a Wycheproof `algorithm` with a tag of `tag_bits`.
fn wycheproof_name(algorithm: &str, tag_bits: u64) -> Option<String> {
    let hash = match algorithm {
        "VMAC-AES" => crate::macs::Hash::Vhash,
        _ => return None,
    };
    crate::macs::MACS
        .iter()
        .find(|d| d.hash == hash && 8 * d.tag as u64 == tag_bits)
        .map(|d| d.catalog_name.to_string())
}

/// Whether `text` is one Wycheproof test file (a JSON object with `testGroups`).
pub fn is_wycheproof(text: &str) -> bool {
    text.trim_start().starts_with('{')
        && serde_json::from_str::<serde_json::Value>(text)
            .is_ok_and(|v| v.get("testGroups").is_some())
}

/// Check a Wycheproof `mac_with_iv_test_schema_v1` file (VMAC-AES): every
/// `valid` test must give its tag, every `invalid` one must be rejected (an
/// error, or a tag that differs); `acceptable` tests pass either way. The
/// `line` of a failure is the test's `tcId`.
pub fn check_wycheproof(text: &str) -> Report {
    let mut r = Report::default();
    let fail = |line: usize, name: &str, expected: &str, got: String| Failure {
        line,
        name: name.to_string(),
        expected: expected.to_string(),
        got,
    };
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            r.failures.push(fail(0, "?", "", format!("bad JSON: {e}")));
            return r;
        }
    };
    let algorithm = v.get("algorithm").and_then(|a| a.as_str()).unwrap_or("?");
    let groups = v
        .get("testGroups")
        .and_then(|g| g.as_array())
        .cloned()
        .unwrap_or_default();
    for g in &groups {
        let tag_bits = g.get("tagSize").and_then(|t| t.as_u64()).unwrap_or(0);
        let tests = g
            .get("tests")
            .and_then(|t| t.as_array())
            .cloned()
            .unwrap_or_default();
        let Some(name) = wycheproof_name(algorithm, tag_bits) else {
            for t in &tests {
                let id = t.get("tcId").and_then(|i| i.as_u64()).unwrap_or(0) as usize;
                r.failures.push(fail(
                    id,
                    algorithm,
                    "",
                    format!("no unimac name for {algorithm} with {tag_bits}-bit tags"),
                ));
            }
            continue;
        };
        for t in &tests {
            let id = t.get("tcId").and_then(|i| i.as_u64()).unwrap_or(0) as usize;
            let get = |k: &str| field(t, k).and_then(|s| unhex(s, k));
            let (key, iv, msg, tag) = match (get("key"), get("iv"), get("msg"), get("tag")) {
                (Ok(k), Ok(i), Ok(m), Ok(t)) => (k, i, m, t),
                (k, i, m, t) => {
                    let e = [k.err(), i.err(), m.err(), t.err()]
                        .into_iter()
                        .flatten()
                        .next()
                        .unwrap_or_default();
                    r.failures.push(fail(id, &name, "", e));
                    continue;
                }
            };
            let result = t.get("result").and_then(|x| x.as_str()).unwrap_or("?");
            let got = registry::known_answer(
                &name,
                &Params {
                    key: &key,
                    nonce: Some(&iv),
                    len: None,
                },
                &msg,
            );
            let matches = matches!(&got, Ok(out) if crate::tag::verify_tag(out, &tag).is_ok());
            let ok = match result {
                "valid" => matches,
                "invalid" => !matches,
                "acceptable" => true,
                _ => false,
            };
            if ok {
                r.passed += 1;
            } else {
                let got = match got {
                    Ok(out) => hex::encode(out),
                    Err(e) => e.to_string(),
                };
                let expected = if result == "valid" {
                    hex::encode(&tag)
                } else {
                    format!("rejected ({result})")
                };
                r.failures.push(fail(id, &name, &expected, got));
            }
        }
    }
    r
}

/// Check a known-answer file by its name: `.exp` is the accuracy test, a
/// Wycheproof file (one JSON object with `testGroups`) its own format,
/// anything else JSON lines (docs/WIRE.md §9.5).
pub fn check_file_text(file_name: &str, text: &str) -> Report {
    if file_name.ends_with(".exp") {
        check_accuracy(text)
    } else if is_wycheproof(text) {
        check_wycheproof(text)
    } else {
        check_jsonl(text)
    }
}
