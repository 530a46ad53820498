//! A big file hashed on all allowed cores, in stripes: every thread takes
//! the next stripe (a quarter of a thread's share of this CPU's L2,
//! input/cache.rs), reads it with `pread` into its own buffer and hashes
//! it, and the stripes are taken in file order by one small ordered step (`input::read_message_stripes`). So both the copy out of
//! the page cache and the hash are split, where a reader thread beside one
//! hashing thread leaves the copy's core the bottleneck, and threads that
//! take stripes as they come stay balanced (docs/perf/cli.md).
//!
//! What a stripe's hash is depends on the name:
//! - **a partial hash** (`unimac_front::partial`) for every polynomial name that
//!   has them — `hash127-aes`, `-aes-nonce`, `-aes-add`, the `wc-` MACs
//!   over eval64, division64, gdivision64 and eval128, and those hashes —
//!   two field elements, combined in order and finished with the whole key;
//! - **a layered hash's lowest layer** (`unimac::stripe`) for UMAC, VMAC,
//!   the trees' `wc-` MACs and `tree-F` — NH, or a tree's two lowest
//!   levels — taken in order by the file's own stream (a tree's partial
//!   would carry its level-2 bytes, a sixteenth of the input for mmh32x4,
//!   and UMAC has none).
//!
//! The file's end goes to the ordered step as bytes. The `shoup4` pairs,
//! modp and the one-time MACs are read as one stream. The result is the
//! one-shot result in every case (tests/suite/split_files.rs,
//! tests/suite/big_files.rs).

use std::io::{self, IsTerminal};
use std::path::Path;

use unimac_front::partial::{self, Partial, PartialStream};
use unimac::stripe::{Stripe, Striper};
use zeroize::Zeroizing;

use crate::fail::Fail;
use crate::input::{read_message, read_message_stripes, shown, Piece, Stripes};

/// Where a file's bytes go: the library's one interface of every stream
/// (a tag under way, a check, a nonce-last MAC), stripes included.
pub use unimac::Absorb;

/// A sink of bytes only (no stripes): a closure.
pub struct Bytes<F>(pub F);

impl<F: FnMut(&[u8]) + Send> Absorb for Bytes<F> {
    fn update(&mut self, data: &[u8]) {
        (self.0)(data)
    }
}

/// A sink that also counts the message's bytes.
pub struct Counted<'a> {
    /// Where the bytes go.
    pub inner: &'a mut dyn Absorb,
    /// Bytes so far (a stripe's length included).
    pub bytes: u64,
}

impl Absorb for Counted<'_> {
    fn update(&mut self, data: &[u8]) {
        self.bytes += data.len() as u64;
        self.inner.update(data)
    }
    fn striper(&self) -> Option<Striper> {
        self.inner.striper()
    }
    fn absorb_stripe(&mut self, s: &Stripe) -> Result<(), unimac::Error> {
        self.inner.absorb_stripe(s)?;
        self.bytes += s.len();
        Ok(())
    }
}

/// A sink whose bytes also move a progress bar (stripes are counted as
/// they are read, by the reader's progress callback).
pub struct Metered<'a> {
    /// Where the bytes go.
    pub inner: &'a mut dyn Absorb,
    /// The bar.
    pub bar: &'a indicatif::ProgressBar,
    /// Slices of at most this many bytes between two moves of the bar.
    pub slice: usize,
}

impl Absorb for Metered<'_> {
    fn update(&mut self, data: &[u8]) {
        for c in data.chunks(self.slice.max(1)) {
            self.inner.update(c);
            self.bar.inc(c.len() as u64);
        }
    }
    fn striper(&self) -> Option<Striper> {
        self.inner.striper()
    }
    fn absorb_stripe(&mut self, s: &Stripe) -> Result<(), unimac::Error> {
        self.inner.absorb_stripe(s)
    }
}

/// One name's key, set up to hash big files on all allowed cores: stripes
/// of partial hashes if it has them (`partials`), else stripes of the
/// lowest layer if the file's stream takes them.
pub struct SplitMac {
    name: String,
    key: Zeroizing<Vec<u8>>,
    mac: bool,
    unit: usize,
    threads: usize,
    partials: bool,
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
    /// `name` under `key` (the whole key, as the MAC or hash takes it) when
    /// two or more threads are allowed (`None` otherwise: every file is
    /// then read and hashed as one stream). A big file's stripes are
    /// partial hashes if the name has them, its key is the layout they take
    /// and its nonce (if any) has one length; else the lowest layer of the
    /// stream they go to, if it has layers ([`feed`](Self::feed)).
    pub fn new(name: &str, key: &[u8]) -> Option<SplitMac> {
        let threads = allowed_threads();
        if threads < 2 {
            return None;
        }
        let desc = unimac_front::macs::find(name);
        let unit = partial::granularity(name).ok().filter(|_| {
            partial::hash_key(name, key).is_ok()
                && partial::is_constant_size(name).unwrap_or(false)
                && desc.is_none_or(|d| d.nonce.min() == d.nonce.max())
        });
        Some(SplitMac {
            name: name.to_string(),
            key: Zeroizing::new(key.to_vec()),
            mac: desc.is_some(),
            unit: unit.unwrap_or(1),
            threads,
            partials: unit.is_some(),
        })
    }

    /// Read the file at `path`: a big regular file in stripes on threads,
    /// either partial hashes (their whole partial returned, `sink` getting
    /// nothing) or the lowest layer of `sink`'s hash (into `sink`, `None`
    /// returned); anything else to `sink` as one stream (`None`).
    /// `progress` gets the bytes of the stripes as they are read.
    pub fn feed(
        &self,
        path: &Path,
        progress: Option<&(dyn Fn(u64) + Sync)>,
        sink: &mut dyn Absorb,
    ) -> Result<Option<Partial>, Fail> {
        if !self.partials {
            return feed_stripes(path, self.threads, progress, sink).map(|_| None);
        }
        let hk = partial::hash_key(&self.name, &self.key).map_err(|e| Fail(e.to_string()))?;
        // One key set-up, shared by the threads (`PartialStream::chunk`).
        let keyed = PartialStream::new(&self.name, hk, 0).map_err(|e| Fail(e.to_string()))?;
        let hash = |at: u64, d: &[u8]| keyed.chunk(at, d, false).map_err(|e| e.to_string());
        let stripes = Stripes { unit: self.unit, threads: self.threads, hash: &hash, progress };
        let mut whole: Option<Partial> = None;
        let mut apply = |p: Piece<'_, Partial>| -> Result<(), String> {
            let next = match p {
                Piece::Bytes(d) => {
                    sink.update(d);
                    return Ok(());
                }
                Piece::Stripe(p) => p,
                Piece::End(d) => {
                    let at = whole.as_ref().map_or(0, |w| w.len());
                    keyed.chunk(at, d, true).map_err(|e| e.to_string())?
                }
            };
            whole = Some(match whole.take() {
                None => next,
                Some(acc) => acc.combine(&next).map_err(|e| e.to_string())?,
            });
            Ok(())
        };
        read_message_stripes(Some(path), &stripes, &mut apply)?;
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

/// Read the file at `path` into `sink`: in stripes on `threads` threads if
/// it is big, regular and `sink` takes stripes; as one stream otherwise.
pub fn feed_stripes(
    path: &Path,
    threads: usize,
    progress: Option<&(dyn Fn(u64) + Sync)>,
    sink: &mut dyn Absorb,
) -> Result<(), Fail> {
    let Some(striper) = sink.striper() else {
        return crate::input::read_message(Some(path), |d| sink.update(d));
    };
    let hash = |_at: u64, d: &[u8]| striper.hash(d).map_err(|e| e.to_string());
    let stripes = Stripes { unit: striper.unit(), threads, hash: &hash, progress };
    let mut apply = |p: Piece<'_, Stripe>| -> Result<(), String> {
        match p {
            Piece::Bytes(d) | Piece::End(d) => {
                sink.update(d);
                Ok(())
            }
            Piece::Stripe(s) => sink.absorb_stripe(&s).map_err(|e| e.to_string()),
        }
    };
    read_message_stripes(Some(path), &stripes, &mut apply)
}

/// Feed the file at `path` to `sink`, with a progress bar on a terminal
/// for a big file; a big regular file is hashed on all allowed cores when
/// `split` is given (`SplitMac::feed`): stripes of partials, whose whole partial
/// comes back (`sink` gets nothing), or in stripes into `sink`.
pub(crate) fn feed_split(
    path: &Path,
    split: Option<&SplitMac>,
    sink: &mut dyn Absorb,
) -> Result<Option<Partial>, Fail> {
    const SLICE: usize = 64 << 20;
    let size = Some(path)
        .filter(|p| p.as_os_str() != "-")
        .and_then(|p| crate::strength::what_is(p).ok())
        .map(|(_, st)| st.len())
        .unwrap_or(0);
    if size >= SLICE as u64 && io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(size);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(shown(Some(path)));
        let inc = |n: u64| bar.inc(n);
        let mut each = Metered { inner: sink, bar: &bar, slice: SLICE };
        let r = match split {
            Some(s) => s.feed(path, Some(&inc), &mut each),
            None => read_message(Some(path), |d| each.update(d)).map(|_| None),
        };
        bar.finish_and_clear();
        r
    } else {
        match split {
            Some(s) => s.feed(path, None, sink),
            None => read_message(Some(path), |d| sink.update(d)).map(|_| None),
        }
    }
}
