//! A big file hashed in ranges on all allowed cores: each thread reads its
//! own range with `pread` into its own 256 KiB buffer and hashes it into a
//! partial hash (`unimac::partial`), and the partials are combined in order
//! and finished with the whole key. Both the copy out of the page cache and
//! the hash are split, where a reader thread beside one hashing thread
//! leaves the copy's core the bottleneck (docs/perf/cli.md).
//!
//! Every polynomial name with partial hashes splits: `hash127-aes`,
//! `-aes-nonce`, `-aes-add`, the `wc-` MACs over eval64, division64,
//! gdivision64 and eval128, and the hashes eval64, division64, gdivision64
//! and eval128: a range's state is two field elements, combined in O(1).
//! The trees (`wc-mmh32x4`, `tree-F`, ...), UMAC, VMAC, the `shoup4` pairs,
//! modp and the one-time MACs are read by the pipelined reader
//! (`input.rs`) as one stream: a tree's partial is its level-2 bytes (a
//! sixteenth of the input for mmh32x4), which is neither O(1) memory nor
//! cheap to combine per buffer (measured: 617 ms of CPU for 256 MiB against
//! 86 ms streamed). The result is the one-shot result in every case
//! (tests/split_files.rs, tests/big_files.rs).

use std::path::Path;

use unimac::partial::{self, Partial, PartialStream};
use zeroize::Zeroizing;

use crate::input::{read_message_ranges, Ranges};
use crate::Fail;

/// One name's key, set up to hash big files in ranges.
pub struct SplitMac {
    name: String,
    key: Zeroizing<Vec<u8>>,
    mac: bool,
    unit: usize,
    threads: usize,
}

/// The threads a computation may use now: `--threads` (0: every core),
/// capped by the cores this process may use.
pub(crate) fn allowed_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match unimac::threads::max_threads() {
        0 => cores,
        n => n.min(cores),
    }
}

impl SplitMac {
    /// `name` under `key` (the whole key, as the MAC or hash takes it), if
    /// it has partial hashes, its key is the layout they take, its nonce
    /// (if any) has one length, and two or more threads are allowed;
    /// `None` otherwise (the file is then read and hashed as one stream).
    pub fn new(name: &str, key: &[u8]) -> Option<SplitMac> {
        let threads = allowed_threads();
        if threads < 2 {
            return None;
        }
        let unit = partial::granularity(name).ok()?;
        partial::hash_key(name, key).ok()?;
        let desc = unimac::macs::find(name);
        // A tree's partial carries its level-2 bytes (a sixteenth of the
        // chunk for mmh32x4): neither O(1) nor cheap to combine buffer by
        // buffer. Trees stream, their levels split by the library.
        if !partial::is_constant_size(name).ok()? {
            return None;
        }
        if desc.is_some_and(|d| d.nonce.min() != d.nonce.max()) {
            return None;
        }
        Some(SplitMac { name: name.to_string(), key: Zeroizing::new(key.to_vec()), mac: desc.is_some(), unit, threads })
    }

    /// Read the file at `path`: a big regular file in ranges on threads
    /// (its whole partial returned), anything else to `update` as one
    /// stream (`None`). `progress` gets the bytes done in ranges.
    pub fn feed(
        &self,
        path: &Path,
        progress: Option<&(dyn Fn(u64) + Sync)>,
        update: &mut dyn FnMut(&[u8]),
    ) -> Result<Option<Partial>, Fail> {
        let hk = partial::hash_key(&self.name, &self.key).map_err(|e| Fail(e.to_string()))?;
        // A thread's state: the name and hash key, its range's stream (from
        // the offset of its first bytes), then, once the message's last
        // bytes are in, the range's partial.
        type State = (String, Zeroizing<Vec<u8>>, Option<PartialStream>, Option<Partial>);
        let begin = || -> Result<State, String> { Ok((self.name.clone(), Zeroizing::new(hk.to_vec()), None, None)) };
        let absorb = |s: &mut State, at: u64, d: &[u8], last: bool| -> Result<(), String> {
            let stream = match s.2.take() {
                Some(st) => st,
                None => PartialStream::new(&s.0, &s.1, at).map_err(|e| e.to_string())?,
            };
            if last {
                s.3 = Some(stream.finish(d, true).map_err(|e| e.to_string())?);
            } else {
                let mut stream = stream;
                stream.update(d).map_err(|e| e.to_string())?;
                s.2 = Some(stream);
            }
            Ok(())
        };
        let ranges = Ranges { unit: self.unit, threads: self.threads, begin: &begin, absorb: &absorb, progress };
        let Some(states) = read_message_ranges(Some(path), Some(&ranges), |d| update(d))? else {
            return Ok(None);
        };
        let mut whole: Option<Partial> = None;
        for (_, _, stream, done) in states {
            let p = match (stream, done) {
                (_, Some(p)) => p,
                (Some(st), None) => st.finish(&[], false).map_err(|e| Fail(e.to_string()))?,
                (None, None) => return Err(Fail(format!("{}: an empty range", crate::input::shown(Some(path))))),
            };
            whole = Some(match whole {
                None => p,
                Some(acc) => acc.combine(&p).map_err(|e| Fail(e.to_string()))?,
            });
        }
        Ok(whole)
    }

    /// The output for the whole partial `p`: the MAC's tag under `nonce`,
    /// or the hash.
    pub fn finish(&self, nonce: Option<&[u8]>, p: &Partial) -> Result<Vec<u8>, Fail> {
        let r = if self.mac {
            partial::finish_mac(&self.name, &self.key, nonce, p)
        } else {
            partial::finish_hash(&self.name, &self.key, p)
        };
        r.map_err(|e| Fail(crate::names::cite(&e.to_string())))
    }
}
