//! A check that cannot run here, reported in the one form
//! `scripts/test-all` counts (the library's unit tests include this file
//! too).

/// Report a check that cannot run here: a line `SKIPPED: <test>: <reason>`
/// written straight to the standard error (past the test harness's
/// capture, so that it shows for a test that passes). `<test>` is the test
/// binary's name and the running test's (the harness names its thread
/// after it; where tests run on the main thread, the caller's file and
/// line), with `[part]` when only `part` of it did not run; `<reason>` is a
/// fixed phrase, the same for every check skipped for the same cause, so
/// that the summary counts them by reason. A test that calls this is not
/// counted as passed.
#[track_caller]
pub fn skipped(part: &str, reason: &str) {
    use std::io::Write;
    let here = core::panic::Location::caller();
    let thread = std::thread::current();
    let test = match thread.name() {
        Some(n) if n != "main" => std::format!("{}::{n}", env!("CARGO_CRATE_NAME")),
        _ => std::format!("{}:{}", here.file(), here.line()),
    };
    let part = if part.is_empty() { std::string::String::new() } else { std::format!("[{part}]") };
    let line = std::format!("SKIPPED: {test}{part}: {reason}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}
