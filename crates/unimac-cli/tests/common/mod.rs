//! Helpers shared by the CLI's big-file tests.
#![allow(dead_code)]

use std::fs;
use std::path::PathBuf;

/// The environment variable the tests give `compute` its key in
/// (`--key-env`), so that no key is on a command line.
pub const KEY_VAR: &str = "UNIMAC_TEST_KEY";

/// A directory removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A fresh directory under the system's temporary directory, named
    /// after `tag` and this process.
    pub fn new(tag: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("unimac-{tag}-{}", std::process::id()));
        fs::create_dir_all(&d).expect("temp dir");
        TempDir(d)
    }

    /// The path of `name` inside it, as a string argument.
    pub fn p(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("utf-8 path").to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Pseudo-random bytes (xorshift): a byte hashed at the wrong offset, twice
/// or not at all changes every output.
pub fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    let mut v = Vec::with_capacity(len + 8);
    while v.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.extend_from_slice(&x.to_le_bytes());
    }
    v.truncate(len);
    v
}
