//! Big files in stripes: each thread reads a range of the file into its
//! own buffer and hashes it ([`unimac::stripe`]), the stripes taken in
//! file order by the one ordered step; the torn-read rule of the file as a
//! whole ([`super`]).

use std::fs::File;
use std::io;
use std::path::Path;

use unimac_front::formats::race::{ReadWindow, Stamp, Verdict};

use super::{changed, io_msg, is_stdin, open_input, read_message, read_open, shown};
use crate::fail::Fail;


/// Files at least this long are hashed in [`Stripes`] when two or more
/// threads are allowed.
pub const SPLIT_MIN: u64 = 8 << 20;

/// Open the file at `path` once: if it is regular and at least
/// [`SPLIT_MIN`] bytes long and not changed within `race::SLACK` of the
/// read, `split` reads it (given the file, its size and its shown name) and
/// its stamps are compared before and after (`Some` of what `split` gave);
/// anything else, a racy big file included (read twice under the rule), is
/// read here as one stream into `f` (`None`).
fn split_or_stream<T>(
    path: &Path,
    f: &mut dyn FnMut(&[u8]),
    split: impl FnOnce(&File, u64, &str) -> Result<T, Fail>,
) -> Result<Option<T>, Fail> {
    let name = shown(Some(path));
    let (file, meta) = open_input(path, &name, false)?;
    if !meta.is_file() || meta.len() < SPLIT_MIN {
        return read_open(file, meta, &name, u64::MAX, f).map(|_| None);
    }
    let w = ReadWindow::since(Stamp::of(&meta));
    if w.racy() {
        // Changed within SLACK of this read: read as one stream, which the
        // rule reads twice and compares (stripes are for the common case).
        return read_open(file, meta, &name, u64::MAX, f).map(|_| None);
    }
    let got = split(&file, meta.len(), &name)?;
    // The stripes read exactly the size (a stripe that ended early failed).
    match w.close(&file, Some(meta.len())) {
        Ok(Verdict::Stable) => Ok(Some(got)),
        Ok(Verdict::Racy | Verdict::Changed) => Err(changed(&name)),
        Err(e) => Err(Fail(format!("cannot read {name}: {}", io_msg(&e)))),
    }
}

/// What the ordered step of [`read_message_stripes`] gets, in file order:
/// the bytes of a file read as one stream, or a big file's hashed stripes
/// and then its end.
pub enum Piece<'a, C> {
    /// Message bytes, in order: a file read as one stream.
    Bytes(&'a [u8]),
    /// The hash of the next stripe of a big file (whole units), in order.
    Stripe(C),
    /// The big file's last stripe, as bytes (it ends the message).
    End(&'a [u8]),
}

/// The hash of the stripe of whole units at an offset of the file.
pub type HashStripe<'f, C> = dyn Fn(u64, &[u8]) -> Result<C, String> + Sync + 'f;

/// How to hash a big regular file in stripes: every allowed thread takes
/// the next stripe of the plan's bytes ([`super::cache::plan`]: a quarter
/// of the L2 share of a thread, so the bytes copied in are still there when
/// hashed; rounded up to `unit`), reads it
/// with `pread` into its own buffer and hashes it (`hash`: a partial hash,
/// or a layered hash's lowest layer); the hashed stripes go to the ordered
/// step in file order, whichever thread finished them. Threads that take
/// stripes as they come stay balanced where fixed halves did not (the two
/// halves of one cached file took 20 and 16 ms to copy). The file's last
/// stripe goes to the ordered step as bytes (it carries the message's
/// padding).
pub struct Stripes<'a, C> {
    /// Stripes are multiples of this and start at multiples of it.
    pub unit: usize,
    /// Threads to use (at most; fewer than 2: one stream).
    pub threads: usize,
    /// The hash of the stripe of whole units at an offset of the file (on
    /// any thread).
    pub hash: &'a HashStripe<'a, C>,
    /// Called with the length of every stripe read (a progress bar).
    pub progress: Option<&'a (dyn Fn(u64) + Sync)>,
}

/// Stripes hashed but not yet taken in order, at most, per thread: the
/// memory of a file in stripes is bounded by this many hashed stripes and
/// one buffer per thread.
const STRIPES_AHEAD: u64 = 4;

/// As [`read_message`] with one ordered step `apply` for every piece of the
/// message in order: a regular file of [`SPLIT_MIN`] bytes or more is read
/// in [`Stripes`] on threads (then `apply` gets the stripes' hashes and
/// the file's end as bytes), any other input as [`Piece::Bytes`] only.
/// `apply` runs on one thread at a time. The file is opened once; a file
/// that shrinks, grows or changes while it is read is "changed while
/// reading", and the first stripe in file order that failed gives the error.
pub fn read_message_stripes<C: Send>(
    path: Option<&Path>,
    stripes: &Stripes<'_, C>,
    apply: &mut (dyn FnMut(Piece<'_, C>) -> Result<(), String> + Send),
) -> Result<(), Fail> {
    let mut failed: Option<String> = None;
    // `apply` takes a big file's stripes or any other input's bytes.
    let apply = std::cell::RefCell::new(apply);
    let mut bytes = |d: &[u8]| {
        if failed.is_none() {
            if let Err(e) = (*apply.borrow_mut())(Piece::Bytes(d)) {
                failed = Some(e);
            }
        }
    };
    match path {
        Some(p) if stripes.threads >= 2 && !is_stdin(path) => {
            let split = |file: &File, size, name: &str| read_stripes(file, size, name, stripes, &mut **apply.borrow_mut());
            split_or_stream(p, &mut bytes, split)?;
        }
        _ => read_message(path, &mut bytes)?,
    }
    failed.map_or(Ok(()), |e| Err(Fail(e)))
}

/// A stripe done, waiting for its turn.
enum Done<C> {
    Hashed(C),
    /// The file's last stripe, as bytes.
    End(Vec<u8>),
    Failed(String),
}

/// The ordered side of [`read_stripes`]: the stripes done but not applied,
/// and the first failure.
struct Order<'f, C> {
    /// The next stripe to apply.
    next: u64,
    ready: std::collections::BTreeMap<u64, Done<C>>,
    failed: Option<String>,
    apply: &'f mut (dyn FnMut(Piece<'_, C>) -> Result<(), String> + Send),
}

impl<C> Order<'_, C> {
    /// Apply every stripe that is next in order.
    fn drain(&mut self) {
        while self.failed.is_none() {
            let Some(done) = self.ready.remove(&self.next) else { return };
            let r = match done {
                Done::Hashed(c) => (self.apply)(Piece::Stripe(c)),
                Done::End(b) => (self.apply)(Piece::End(&b)),
                Done::Failed(e) => Err(e),
            };
            if let Err(e) = r {
                self.failed = Some(e);
            }
            self.next += 1;
        }
    }
}

/// Read and hash the stripes of `file` (of `size` bytes when opened) on the
/// allowed threads, applying them in order.
fn read_stripes<C: Send>(
    file: &File,
    size: u64,
    name: &str,
    st: &Stripes<'_, C>,
    apply: &mut (dyn FnMut(Piece<'_, C>) -> Result<(), String> + Send),
) -> Result<(), Fail> {
    use std::os::unix::fs::FileExt;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let unit = st.unit.max(1) as u64;
    let stripe = (super::cache::plan().stripe as u64).div_ceil(unit) * unit;
    let count = size.div_ceil(stripe);
    let ahead = STRIPES_AHEAD * st.threads as u64;
    let taken = AtomicU64::new(0);
    let order = std::sync::Mutex::new(Order { next: 0, ready: Default::default(), failed: None, apply });
    let turn = std::sync::Condvar::new();
    let worker = || {
        let mut buf = vec![0u8; stripe as usize];
        loop {
            let i = taken.fetch_add(1, Relaxed);
            if i >= count {
                return;
            }
            // Wait until stripe i is within the window of stripes not yet
            // applied (the holder of the next one never waits here).
            {
                let mut o = order.lock().unwrap_or_else(|e| e.into_inner());
                while o.failed.is_none() && i >= o.next + ahead {
                    o = turn.wait(o).unwrap_or_else(|e| e.into_inner());
                }
                if o.failed.is_some() {
                    return;
                }
            }
            let at = i * stripe;
            let want = stripe.min(size - at) as usize;
            let mut n = 0;
            let mut err = None;
            while n < want {
                match file.read_at(&mut buf[n..want], at + n as u64) {
                    Ok(0) => {
                        err = Some(format!("{name}: changed while reading"));
                        break;
                    }
                    Ok(k) => n += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        err = Some(format!("cannot read {name}: {}", io_msg(&e)));
                        break;
                    }
                }
            }
            let done = match err {
                Some(e) => Done::Failed(e),
                None if i + 1 == count => {
                    buf.truncate(want);
                    Done::End(core::mem::take(&mut buf))
                }
                None => match (st.hash)(at, &buf[..want]) {
                    Ok(c) => Done::Hashed(c),
                    Err(e) => Done::Failed(e),
                },
            };
            if let Some(p) = st.progress {
                p(want as u64);
            }
            let mut o = order.lock().unwrap_or_else(|e| e.into_inner());
            o.ready.insert(i, done);
            o.drain();
            turn.notify_all();
            drop(o);
            if buf.is_empty() {
                // The last stripe was handed over with its buffer.
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        let worker = &worker;
        for _ in 1..st.threads {
            // A thread that cannot be started leaves its stripes to the others.
            let _ = std::thread::Builder::new().spawn_scoped(scope, worker);
        }
        worker();
    });
    let o = order.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = o.failed {
        return Err(Fail(e));
    }
    if o.next != count {
        return Err(Fail(format!("cannot read {name}: a reading thread failed")));
    }
    Ok(())
}
