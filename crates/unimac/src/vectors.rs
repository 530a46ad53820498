//! Known-answer files: SPEC §7's `.jsonl` lines, and the original hash127
//! package's accuracy test (`hash127-accuracy.exp`).

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
    v.get(k).and_then(|x| x.as_str()).ok_or_else(|| format!("missing string field '{k}'"))
}

fn unhex(s: &str, what: &str) -> Result<Vec<u8>, String> {
    hex::decode(s).map_err(|e| format!("bad hex in '{what}': {e}"))
}

/// Run one `.jsonl` line: `Ok(())` if the output matches.
pub fn check_json_line(line: &str) -> Result<(), (String, String, String)> {
    let v: serde_json::Value =
        serde_json::from_str(line).map_err(|e| ("?".to_string(), String::new(), format!("bad JSON: {e}")))?;
    let name = field(&v, "fn").map_err(|e| ("?".to_string(), String::new(), e))?.to_string();
    let fail = |expected: &str, got: String| (name.clone(), expected.to_string(), got);
    let expected = field(&v, "out").map_err(|e| fail("", e))?.to_ascii_lowercase();
    let key = unhex(field(&v, "key").map_err(|e| fail(&expected, e))?, "key").map_err(|e| fail(&expected, e))?;
    let msg = unhex(field(&v, "msg").map_err(|e| fail(&expected, e))?, "msg").map_err(|e| fail(&expected, e))?;
    let nonce = match v.get("nonce") {
        Some(n) => Some(unhex(n.as_str().unwrap_or("?"), "nonce").map_err(|e| fail(&expected, e))?),
        None => None,
    };
    let len = match v.get("len") {
        Some(n) => Some(n.as_u64().ok_or_else(|| fail(&expected, "bad 'len'".into()))? as usize),
        None => None,
    };
    let p = Params { key: &key, nonce: nonce.as_deref(), len };
    match registry::compute(&name, &p, &msg) {
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
            Err((name, expected, got)) => r.failures.push(Failure { line: i + 1, name, expected, got }),
        }
    }
    r
}

/// The key of the original hash127 accuracy test (SPEC §1).
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

/// Check a known-answer file by its name: `.exp` is the accuracy test,
/// anything else SPEC §7 JSON lines.
pub fn check_file_text(file_name: &str, text: &str) -> Report {
    if file_name.ends_with(".exp") {
        check_accuracy(text)
    } else {
        check_jsonl(text)
    }
}
