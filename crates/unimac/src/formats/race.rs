//! Files that change while they are read: the "racy timestamp" rule.
//!
//! A tag printed for a file must be of bytes the file held. Comparing the
//! file's size and modification time before and after the read is not
//! enough: the kernel sets a file's mtime and ctime when a `write(2)`
//! *starts*, so a long write already under way when the read begins runs
//! on under it without moving the stamp, and the read can return a mix of
//! the old and new contents (a "torn" read) while the stamps before and
//! after agree.
//!
//! The rule, as version-control tools apply it to their index:
//!
//! 1. Before reading, take the time `t0` and the file's [`Stamp`] (size,
//!    mtime and ctime to the nanosecond, device, inode) from `fstat` (or a
//!    stat taken earlier, e.g. when a directory was listed).
//! 2. After reading, `fstat` again: a different stamp, or a regular file of
//!    `n > 0` bytes of which another number was read, is
//!    [`Verdict::Changed`].
//! 3. If `max(mtime, ctime) ≥ t0 − SLACK` the read is *racy*: the file was
//!    modified during, or shortly before, the start of the read, and a
//!    write that started then may still be running. A racy read is
//!    accepted only if the file read once more gives the same bytes (a
//!    SHA-256 of each read) and the stamp did not move through both reads;
//!    otherwise it is [`Verdict::Changed`].
//!
//! Whether a read is racy is known from the stamp taken *before* it: if the
//! stamp after differs, the read is refused anyway. So a racy read digests
//! its bytes from the start, and a file that is not racy (most files: not
//! modified in the last [`SLACK`]) is read once and pays nothing for the
//! rule but one `clock_gettime` and the `fstat`s it already had. A racy
//! file is read twice: the first read feeds the caller's state and a
//! digest, the second only a digest ([`Pass::feeds`]).
//!
//! Why a write that is not racy cannot tear a read: a write that starts
//! during the read sets mtime and ctime to a later time, so the stamp
//! after differs; one that started before the read set them then, and is
//! racy unless it started more than [`SLACK`] before the read. ctime is
//! the time that cannot be set back by a user (`touch -d` and `utimensat`
//! set mtime, and set ctime to now), and file times come from a coarse
//! clock that can lag the time read here by a tick: [`SLACK`] covers both
//! the tick and writes of up to about two seconds.
//!
//! ```
//! # #[cfg(feature = "unstable")]
//! # fn main() -> std::io::Result<()> {
//! use std::io::Read;
//! use unimac::unstable::formats::race::{ReadWindow, Verdict};
//! # let p = std::env::temp_dir().join(format!("unimac-race-doc-{}", std::process::id()));
//! # std::fs::write(&p, b"attack at dawn").unwrap();
//! let file = std::fs::File::open(&p)?;
//! let mut got = Vec::new();
//! let verdict = ReadWindow::open(&file)?.read(&file, |pass| -> std::io::Result<Option<u64>> {
//!     let mut buf = Vec::new();
//!     (&file).read_to_end(&mut buf)?;
//!     if pass.feeds() {
//!         got.extend_from_slice(&buf); // the caller's state: the first read only
//!     }
//!     pass.saw(&buf); // every byte of every read, in file order
//!     Ok(Some(buf.len() as u64))
//! })?;
//! // Just written, so racy: read twice, the same bytes both times.
//! assert_eq!(verdict, Verdict::Racy);
//! assert_eq!(got, b"attack at dawn");
//! # std::fs::remove_file(&p)?;
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "unstable"))]
//! # fn main() {}
//! ```

use std::fs::{File, Metadata};
use std::io::{self, Seek, SeekFrom};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

/// How recent a change makes a read racy: a file whose mtime or ctime is
/// at or after `t0 − SLACK` (`t0`: the time the read began) is read twice.
/// Two seconds: the file times' coarse clock lags by a tick (1 to 10 ms),
/// and a single `write(2)` that started before the read (and set the times
/// then) may still run; two seconds covers one writing hundreds of MiB to
/// the page cache.
pub const SLACK: Duration = Duration::from_secs(2);

/// What identifies a version of a file, from `fstat` (or `stat`): its size,
/// modification and status-change times (nanoseconds since the epoch),
/// device and inode, and whether it is a regular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stamp {
    len: u64,
    /// Nanoseconds since the epoch ([`UNKNOWN`]: not known), saturated at
    /// the ends of `i64` (the years 1677 and 2262: a time past them is
    /// compared as that end, and a file changed after 2262 is always racy).
    /// Two `i64`s, not `Option<i128>`s: a stamp is kept for every file of a
    /// listing (100 000 files: 4.8 MB, not 9.6).
    mtime: i64,
    ctime: i64,
    dev: u64,
    ino: u64,
    regular: bool,
}

impl Stamp {
    /// The stamp of a file's metadata.
    pub fn of(m: &Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
            Stamp {
                len: m.len(),
                mtime: keep(ns(m.mtime(), m.mtime_nsec())),
                ctime: keep(ns(m.ctime(), m.ctime_nsec())),
                dev: m.dev(),
                ino: m.ino(),
                regular: m.is_file(),
            }
        }
        #[cfg(not(unix))]
        {
            // No ctime, device or inode in std here: the modification time
            // only (a read is racy if it is missing).
            Stamp { len: m.len(), mtime: m.modified().ok().map_or(UNKNOWN, |t| keep(nanos(t))), ctime: UNKNOWN, dev: 0, ino: 0, regular: m.is_file() }
        }
    }

    /// The stamp of a file from the parts a `stat` gives, for a caller
    /// that stats by other means than `std::fs` (e.g. `statx` relative to
    /// a directory's descriptor): its size, modification and status-change
    /// times (seconds and nanoseconds since the epoch), device (encoded as
    /// `std::os::unix::fs::MetadataExt::dev` gives it) and inode, and
    /// whether it is a regular file. Equal to [`Stamp::of`] of the same
    /// file's metadata.
    pub fn from_parts(len: u64, mtime: (i64, u32), ctime: (i64, u32), dev: u64, ino: u64, regular: bool) -> Stamp {
        let ns = |(s, n): (i64, u32)| i128::from(s) * 1_000_000_000 + i128::from(n);
        Stamp { len, mtime: keep(ns(mtime)), ctime: keep(ns(ctime)), dev, ino, regular }
    }

    /// The stamp of an open file (`fstat`).
    pub fn of_file(file: &File) -> io::Result<Stamp> {
        file.metadata().map(|m| Stamp::of(&m))
    }

    /// The file's size.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether it is a regular file.
    pub fn is_file(&self) -> bool {
        self.regular
    }

    /// Which file: its device and inode.
    pub fn id(&self) -> (u64, u64) {
        (self.dev, self.ino)
    }

    /// Whether both stamps are of the same file (device and inode), in
    /// whatever version.
    pub fn same_file(&self, other: &Stamp) -> bool {
        (self.dev, self.ino) == (other.dev, other.ino)
    }

    /// Whether a read that began at `t0` is racy: the file was changed (its
    /// mtime or ctime, the later of the two) at or after `t0 − SLACK`, or
    /// its times are unknown.
    pub fn racy_at(&self, t0: SystemTime) -> bool {
        match self.mtime.max(self.ctime) {
            UNKNOWN => true,
            t => i128::from(t) >= nanos(t0) - SLACK.as_nanos() as i128,
        }
    }
}

/// A stamp's time that is not known.
const UNKNOWN: i64 = i64::MIN;

/// Nanoseconds as a stamp keeps them: saturated, never [`UNKNOWN`].
fn keep(ns: i128) -> i64 {
    ns.clamp(i128::from(UNKNOWN) + 1, i128::from(i64::MAX)) as i64
}

/// Nanoseconds since the epoch (negative before it).
fn nanos(t: SystemTime) -> i128 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    }
}

/// What a read of a regular file was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The file did not change, and was not changed recently: the bytes
    /// read are the file's.
    Stable,
    /// The file did not change while it was read, but was changed within
    /// [`SLACK`] of the start of the read. From [`ReadWindow::close`]: read
    /// it once more and compare. From [`ReadWindow::read`]: it was, and the
    /// second read gave the same bytes: the bytes of the first are the
    /// file's.
    Racy,
    /// The file changed while it was read (its stamp moved, it ended early
    /// or ran long, or two reads differed): the bytes read are not the
    /// file's ("changed while reading").
    Changed,
}

impl Verdict {
    /// Whether the read is refused ([`Verdict::Changed`]).
    pub fn is_changed(self) -> bool {
        self == Verdict::Changed
    }
}

/// The time a read of a regular file began and the file's stamp before it:
/// [`ReadWindow::open`] before reading, [`ReadWindow::close`] after (or
/// [`ReadWindow::read`], which applies the whole rule, reading twice when
/// the read is racy).
#[derive(Clone, Copy, Debug)]
pub struct ReadWindow {
    t0: SystemTime,
    before: Stamp,
}

impl ReadWindow {
    /// Before reading `file` (from its start): the time now and its stamp
    /// (`fstat`).
    pub fn open(file: &File) -> io::Result<ReadWindow> {
        let t0 = SystemTime::now();
        Ok(ReadWindow { t0, before: Stamp::of_file(file)? })
    }

    /// Before reading a file whose stamp `before` was taken earlier (a
    /// `stat` when its directory was listed, an `fstat` just after opening
    /// it): the time now. The stamp must be of a time before the read
    /// begins; the file read must then match it at [`ReadWindow::close`].
    pub fn since(before: Stamp) -> ReadWindow {
        ReadWindow { t0: SystemTime::now(), before }
    }

    /// The stamp the file had before the read.
    pub fn stamp(&self) -> &Stamp {
        &self.before
    }

    /// Whether the read is racy (known before it: a read whose stamp moves
    /// is [`Verdict::Changed`] anyway).
    pub fn racy(&self) -> bool {
        self.before.racy_at(self.t0)
    }

    /// After reading `file`: `bytes_read` is how many bytes were read to
    /// its end (`None`: a part of it was read on purpose, a byte range or
    /// a prefix up to a limit; only the stamps compare). [`Verdict::Changed`] if the stamp
    /// moved or a regular file of `n > 0` bytes did not give `n`;
    /// [`Verdict::Racy`] if the read must be checked by a second one
    /// ([`ReadWindow::read`] does); else [`Verdict::Stable`].
    pub fn close(&self, file: &File, bytes_read: Option<u64>) -> io::Result<Verdict> {
        let after = Stamp::of_file(file)?;
        let b = &self.before;
        let short = bytes_read.is_some_and(|n| b.regular && b.len > 0 && n != b.len);
        Ok(if after != *b || short {
            Verdict::Changed
        } else if self.racy() {
            Verdict::Racy
        } else {
            Verdict::Stable
        })
    }

    /// Read `file` under the rule: `read` reads it (from its start: the
    /// file's position is set back to 0 before a second read; or a byte
    /// range of it, with `pread`) and returns the bytes read to its end
    /// (`None` if it read a part of it on purpose, a byte range or a prefix
    /// up to a limit: then the count is not compared with the size),
    /// calling [`Pass::saw`] with every byte read, in file order, and
    /// feeding the caller's state only when [`Pass::feeds`]. It is called
    /// once, or twice when the read is racy (the second time only to
    /// digest, and it must read the same bytes of the file: the same range).
    ///
    /// [`Verdict::Stable`] or [`Verdict::Racy`]: what the first call fed is
    /// what the file (or its range) held. [`Verdict::Changed`]: it is not.
    /// Errors of `read`, and of `fstat` and `lseek` (as `E`), are returned
    /// as they are.
    pub fn read<E: From<io::Error>>(
        &self,
        file: &File,
        mut read: impl FnMut(&mut Pass<'_>) -> Result<Option<u64>, E>,
    ) -> Result<Verdict, E> {
        if !self.racy() {
            let n = read(&mut Pass { feed: true, digest: None })?;
            return Ok(self.close(file, n)?);
        }
        let mut first = Sha256::new();
        let n1 = read(&mut Pass { feed: true, digest: Some(&mut first) })?;
        if self.close(file, n1)?.is_changed() {
            return Ok(Verdict::Changed);
        }
        (&*file).seek(SeekFrom::Start(0))?;
        let mut second = Sha256::new();
        let n2 = read(&mut Pass { feed: false, digest: Some(&mut second) })?;
        let v = self.close(file, n2)?;
        Ok(if v.is_changed() || n2 != n1 || first.finalize() != second.finalize() {
            Verdict::Changed
        } else {
            Verdict::Racy
        })
    }
}

/// One read of a file under [`ReadWindow::read`].
pub struct Pass<'a> {
    feed: bool,
    digest: Option<&'a mut Sha256>,
}

impl Pass<'_> {
    /// Whether this read's bytes go to the caller's state (the first read);
    /// the second read of a racy file only digests them ([`Pass::saw`]).
    pub fn feeds(&self) -> bool {
        self.feed
    }

    /// Bytes read, in file order (every byte read, each once). Digested
    /// when the read is racy; nothing otherwise.
    #[inline]
    pub fn saw(&mut self, bytes: &[u8]) {
        if let Some(d) = self.digest.as_deref_mut() {
            d.update(bytes);
        }
    }
}

/// Read the whole of the regular file `file` (from its start) under the
/// rule, in buffers of `buf` bytes fed to `feed`: [`ReadWindow::open`],
/// then [`ReadWindow::read`] with `read(2)` to the end of the file. What
/// `feed` got is the file's unless the verdict is [`Verdict::Changed`] (or
/// an error). Not for pipes or devices: a second read of those gives other
/// bytes, and their stamps mean nothing.
pub fn read_whole(file: &File, buf: usize, feed: &mut dyn FnMut(&[u8])) -> io::Result<Verdict> {
    let w = ReadWindow::open(file)?;
    let mut b = vec![0u8; buf.max(1)];
    w.read(file, |pass| {
        let mut total = 0u64;
        loop {
            let k = match io::Read::read(&mut &*file, &mut b) {
                Ok(0) => return Ok(Some(total)),
                Ok(k) => k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if pass.feeds() {
                feed(&b[..k]);
            }
            pass.saw(&b[..k]);
            total += k as u64;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::vec::Vec;
    use std::path::PathBuf;

    fn temp(name: &str, data: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("unimac-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let p = dir.join(name);
        std::fs::write(&p, data).expect("write");
        p
    }

    /// Read the whole file, counting the calls; `tamper(pass_no)` runs
    /// after each read (to change the file between reads).
    fn read_counting(
        w: &ReadWindow,
        file: &File,
        mut tamper: impl FnMut(usize, &mut Vec<u8>),
    ) -> (io::Result<Verdict>, Vec<u8>, usize) {
        let mut fed = Vec::new();
        let mut calls = 0;
        let v = w.read(file, |pass| {
            let mut buf = Vec::new();
            (&*file).read_to_end(&mut buf)?;
            tamper(calls, &mut buf);
            calls += 1;
            if pass.feeds() {
                fed.extend_from_slice(&buf);
            }
            pass.saw(&buf);
            Ok::<_, io::Error>(Some(buf.len() as u64))
        });
        (v, fed, calls)
    }

    /// A file written just now is racy, and stable on the second read: accepted.
    #[test]
    #[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
    fn a_racy_file_that_reads_the_same_twice_is_accepted() {
        let p = temp("racy-stable", b"attack at dawn");
        let f = File::open(&p).expect("open");
        let w = ReadWindow::open(&f).expect("window");
        assert!(w.racy());
        let (v, fed, calls) = read_counting(&w, &f, |_, _| {});
        assert_eq!(v.expect("read"), Verdict::Racy);
        assert_eq!((fed.as_slice(), calls), (&b"attack at dawn"[..], 2));
        let mut fed = Vec::new();
        assert_eq!(read_whole(&File::open(&p).expect("open"), 4, &mut |d| fed.extend_from_slice(d)).expect("read"), Verdict::Racy);
        assert_eq!(fed, b"attack at dawn");
        let _ = std::fs::remove_file(&p);
    }

    /// A racy file whose second read gives other bytes (a write under way,
    /// the stamps unmoved) is refused.
    #[test]
    #[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
    fn a_racy_file_that_reads_differently_is_refused() {
        let p = temp("racy-torn", b"attack at dawn");
        let f = File::open(&p).expect("open");
        let w = ReadWindow::open(&f).expect("window");
        let (v, _, calls) = read_counting(&w, &f, |pass, buf| {
            if pass == 0 {
                buf[0] = b'A'; // what a torn first read would give
            }
        });
        assert_eq!((v.expect("read"), calls), (Verdict::Changed, 2));
        let _ = std::fs::remove_file(&p);
    }

    /// A file changed in place between the two reads (same size) is refused.
    #[test]
    #[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
    fn a_racy_file_rewritten_between_reads_is_refused() {
        let p = temp("racy-rewritten", b"attack at dawn");
        let f = File::open(&p).expect("open");
        let w = ReadWindow::open(&f).expect("window");
        let q = p.clone();
        let (v, _, calls) = read_counting(&w, &f, |pass, _| {
            if pass == 0 {
                let mut o = std::fs::OpenOptions::new().write(true).open(&q).expect("open for writing");
                o.write_all(b"attack at dusk").expect("rewrite");
            }
        });
        // Refused after the first read (the stamp moved).
        assert_eq!((v.expect("read"), calls), (Verdict::Changed, 1));
        let _ = std::fs::remove_file(&p);
    }

    /// A file not changed within SLACK of the read is read once; one whose
    /// stamp moves, or that gives fewer bytes than its size, is refused.
    #[test]
    #[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
    fn an_old_file_is_read_once_and_checked() {
        let p = temp("old", b"attack at dawn");
        let f = File::open(&p).expect("open");
        let before = Stamp::of_file(&f).expect("stat");
        assert_eq!((before.len(), before.is_file()), (14, true));
        // As if the read began an hour after the file was written.
        let later = ReadWindow { t0: SystemTime::now() + Duration::from_secs(3600), before };
        assert!(!later.racy());
        assert!(before.racy_at(SystemTime::now()));
        let (v, fed, calls) = read_counting(&later, &f, |_, _| {});
        assert_eq!((v.expect("read"), fed.len(), calls), (Verdict::Stable, 14, 1));
        // Fewer bytes than the size: changed.
        (&f).seek(SeekFrom::Start(0)).expect("seek");
        let (v, _, _) = read_counting(&later, &f, |_, buf| buf.truncate(3));
        assert_eq!(v.expect("read"), Verdict::Changed);
        // The stamp moved (the file grew).
        std::fs::OpenOptions::new().append(true).open(&p).expect("open").write_all(b"!").expect("append");
        assert_eq!(later.close(&f, None).expect("close"), Verdict::Changed);
        let _ = std::fs::remove_file(&p);
    }

    /// A stamp from its parts equals the stamp of the same metadata.
    #[cfg(unix)]
    #[test]
    #[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
    fn a_stamp_from_its_parts_is_the_same() {
        use std::os::unix::fs::MetadataExt;
        let p = temp("parts", b"attack at dawn");
        let m = std::fs::metadata(&p).expect("stat");
        let t = |s: i64, n: i64| (s, n as u32);
        let parts = Stamp::from_parts(m.len(), t(m.mtime(), m.mtime_nsec()), t(m.ctime(), m.ctime_nsec()), m.dev(), m.ino(), m.is_file());
        assert_eq!(parts, Stamp::of(&m));
        let _ = std::fs::remove_file(&p);
    }

    /// A byte range (`None`: its length is not the file's size) of a racy
    /// file is read twice and compared too.
    #[cfg(unix)]
    #[test]
    #[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
    fn a_racy_range_is_read_again_and_compared() {
        use std::os::unix::fs::FileExt;
        let p = temp("range", b"attack at dawn");
        let f = File::open(&p).expect("open");
        let w = ReadWindow::open(&f).expect("window");
        for torn in [false, true] {
            let mut calls = 0;
            let mut fed = Vec::new();
            let v = w.read(&f, |pass| {
                let mut buf = [0u8; 4];
                f.read_exact_at(&mut buf, 7)?;
                if torn && calls == 0 {
                    buf[0] ^= 1;
                }
                calls += 1;
                if pass.feeds() {
                    fed.extend_from_slice(&buf);
                }
                pass.saw(&buf);
                Ok::<_, io::Error>(None)
            });
            let want = if torn { Verdict::Changed } else { Verdict::Racy };
            assert_eq!((v.expect("read"), calls), (want, 2));
            assert_eq!(fed.len(), 4);
        }
        let _ = std::fs::remove_file(&p);
    }
}
