//! Reading messages: regular files of at least [`MAP_MIN`] bytes are
//! memory-mapped and handed over in large windows (so a hash can split each
//! window across cores); stdin, pipes and smaller files are read in 1 MiB
//! buffers.
//!
//! Mapping a file that sits in the page cache costs kernel time per mapped
//! page: a page-table entry to set up before the hash reads the page (a page
//! fault, or `MADV_POPULATE_READ` ahead of time) and one to tear down
//! afterwards (`munmap`, or `MADV_DONTNEED`). With 4 KiB page-cache folios
//! that is ~16 ms for 256 MiB here, as much as hashing the data with two
//! threads; done up front and at exit it is serial, and on this machine it
//! does not get faster on two threads (docs/perf/cli.md). So a big file is
//! fed in windows, and a helper thread populates the windows after the one
//! being hashed and drops the ones hashed before: the kernel work overlaps
//! the hashing instead of preceding and following it. With large folios
//! (a file written in big blocks, or read back through readahead) mapping
//! is nearly free and a join per window would cost more than it saves: the
//! helper times each window, runs ahead while populating is that cheap, and
//! each slice handed to the hash takes every window populated by then.
//!
//! The helper only gives advice: if it is late, or cannot start, or an
//! `madvise` fails, the hash faults the pages in itself and the result is
//! the same bytes.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::mpsc;

use memmap2::{Advice, Mmap, UncheckedAdvice};

use crate::Fail;

/// Regular files at least this long are memory-mapped.
pub const MAP_MIN: u64 = 1 << 20;
/// Mapped files at least this long are fed in windows with a helper thread.
pub const PIPELINE_MIN: usize = 16 << 20;
/// The first (and smallest regular) window: the hashes split a slice across
/// cores from 4 MiB on (`hash127::PARALLEL_MIN`, the tree's parallel update).
pub const FIRST_WINDOW: usize = 4 << 20;
/// The largest window. Windows start at [`FIRST_WINDOW`] and double up to
/// this, and halve again towards the end of the file, so that the kernel
/// work before the first window is hashed and after the last one is small.
pub const MAX_WINDOW: usize = 16 << 20;
/// Windows kept populated: the one being hashed and this many minus one
/// after it. (Tuned on 256 MiB of 4 KiB folios: 2 windows ahead of 16 MiB
/// beat 1 of 32 MiB or 64 MiB by ~10 % for tree-mmh32x2, equal for hash127;
/// populating everything first was worse.)
const POPULATED: usize = 3;

/// The name to show for a path (`-`/None is stdin).
pub fn shown(path: Option<&Path>) -> String {
    match path {
        None => "-".to_string(),
        Some(p) => p.display().to_string(),
    }
}

fn is_stdin(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// Feed the message at `path` (stdin for `-`/None) to `f`, in one or more
/// slices whose concatenation is the message.
pub fn read_message(path: Option<&Path>, mut f: impl FnMut(&[u8])) -> Result<(), Fail> {
    let name = shown(path);
    if is_stdin(path) {
        return read_stream(io::stdin().lock(), &name, f);
    }
    let p = path.expect("not stdin");
    let file = File::open(p).map_err(|e| Fail(format!("cannot open {name}: {e}")))?;
    let meta = file.metadata().map_err(|e| Fail(format!("cannot read {name}: {e}")))?;
    if meta.is_dir() {
        return Err(Fail(format!("cannot read {name}: is a directory")));
    }
    if meta.is_file() && meta.len() >= MAP_MIN {
        // SAFETY: the map is read-only and lives only for this call. If another
        // process truncates the file meanwhile, reads may fault (SIGBUS); that is
        // the documented limit of mapping files and the same as in b3sum.
        if let Ok(map) = unsafe { memmap2::MmapOptions::new().map(&file) } {
            feed_mapped(&map, &mut f);
            return Ok(());
        }
    }
    read_stream(file, &name, f)
}

/// The windows `(offset, length)` in which a mapped file of `len` bytes is
/// fed: consecutive, covering `0..len` exactly; every window but a last short
/// one is at least [`FIRST_WINDOW`] and at most [`MAX_WINDOW`] long and
/// starts at a multiple of [`FIRST_WINDOW`] (so at a page boundary).
pub fn windows(len: usize) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    let (mut at, mut w) = (0, FIRST_WINDOW);
    while at < len {
        let rest = len - at;
        // At most half of what is left (the ramp down), rounded down to a
        // multiple of FIRST_WINDOW; a rest under two first windows is taken whole.
        let size = if rest < 2 * FIRST_WINDOW {
            rest
        } else {
            w.min((rest / 2) / FIRST_WINDOW * FIRST_WINDOW).max(FIRST_WINDOW)
        };
        v.push((at, size));
        at += size;
        w = (w * 2).min(MAX_WINDOW);
    }
    v
}

/// A window populated at this cost or less (nanoseconds per 4 KiB page)
/// means large page-cache folios, where mapping is nearly free: measured
/// here ~0.6 ns for 2 MiB folios mapped by PMD, ~5 ns for the folios that
/// readahead makes, 75–250 ns for 4 KiB folios (docs/perf/cli.md).
const CHEAP_NS_PER_PAGE: u128 = 10;

fn populate_is_cheap(map: &Mmap, (at, len): (usize, usize)) -> bool {
    let start = std::time::Instant::now();
    let ok = map.advise_range(Advice::PopulateRead, at, len).is_ok();
    ok && start.elapsed().as_nanos() <= CHEAP_NS_PER_PAGE * (len as u128 / 4096)
}

/// Feed a mapped file to `f`: small maps populated and fed whole; big ones
/// through [`feed_windows`].
fn feed_mapped(map: &Mmap, f: &mut dyn FnMut(&[u8])) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if map.len() < PIPELINE_MIN || cores < 2 {
        // One MADV_POPULATE_READ costs about half of faulting the pages in one
        // by one while hashing; failure (old kernel) only loses that.
        let _ = map.advise(Advice::PopulateRead);
        f(map);
        return;
    }
    let wins = windows(map.len());
    let cheap = populate_is_cheap(map, wins[0]);
    feed_windows(map, &wins, cheap, f);
}

/// Feed `map` to `f` by the windows `wins` (window 0 populated already),
/// with a helper thread populating ahead and releasing behind. Each call of
/// `f` gets every window populated by then that it has not had yet (whole
/// windows, in order), so while populating is cheap (`cheap`: it was for
/// window 0; then as the helper measures) the helper runs ahead without
/// limit and the rest of the file goes to `f` in one or two slices instead
/// of a join per window.
fn feed_windows(map: &Mmap, wins: &[(usize, usize)], cheap: bool, f: &mut dyn FnMut(&[u8])) {
    let n = wins.len();
    let (ready_tx, ready_rx) = mpsc::channel::<usize>();
    let (done_tx, done_rx) = mpsc::channel::<(usize, usize)>();
    std::thread::scope(|scope| {
        let helper =
            std::thread::Builder::new().spawn_scoped(scope, move || prepare(map, wins, cheap, ready_tx, done_rx));
        if helper.is_err() {
            let _ = map.advise(Advice::PopulateRead);
            f(map);
            return;
        }
        // Windows next.. are still to be fed; 0..ready are populated.
        let (mut next, mut ready) = (0, 1);
        while next < n {
            if ready <= next {
                // An error means the helper is gone: feed the rest, and the
                // hash faults its pages in itself.
                ready = ready_rx.recv().map_or(n, |i| ready.max(i + 1));
            }
            while let Ok(i) = ready_rx.try_recv() {
                ready = ready.max(i + 1);
            }
            let end = ready.min(n);
            let (from, (last, last_len)) = (wins[next].0, wins[end - 1]);
            f(&map[from..last + last_len]);
            let _ = done_tx.send((next, end));
            next = end;
        }
        drop(done_tx);
    });
}

/// The helper: keep the windows being hashed and the next ones, [`POPULATED`]
/// in all, populated (window 0 was populated by the caller; each later one
/// is announced on `ready`), or run ahead while populating is cheap; drop
/// the page-table entries of the windows `done` reports hashed. Ends when
/// `done` closes.
fn prepare(
    map: &Mmap,
    wins: &[(usize, usize)],
    mut cheap: bool,
    ready: mpsc::Sender<usize>,
    done: mpsc::Receiver<(usize, usize)>,
) {
    let (mut populated, mut released) = (1, 0);
    loop {
        if populated < wins.len() && (cheap || populated < released + POPULATED) {
            cheap = populate_is_cheap(map, wins[populated]);
            let _ = ready.send(populated);
            populated += 1;
            continue;
        }
        match done.recv() {
            Ok((a, b)) => {
                let (from, (last, last_len)) = (wins[a].0, wins[b - 1]);
                // SAFETY: the map is a read-only MAP_SHARED file mapping, so
                // MADV_DONTNEED only drops page-table entries: a later read of
                // the range faults the same file bytes in again (nothing is
                // zero-filled, as it would be in a private mapping). And no
                // slice of these windows is alive any more: `f` returned.
                let _ = unsafe { map.unchecked_advise_range(UncheckedAdvice::DontNeed, from, last + last_len - from) };
                released = b;
            }
            Err(_) => return,
        }
    }
}

fn read_stream(mut input: impl Read, name: &str, mut f: impl FnMut(&[u8])) -> Result<(), Fail> {
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match input.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => f(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Fail(format!("cannot read {name}: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_tile_the_file() {
        let mib = 1 << 20;
        let mut lens = vec![0, 1, 4095, 4096, MAP_MIN as usize, PIPELINE_MIN - 1, PIPELINE_MIN, 256 * mib, 1 << 34];
        for k in 1..80 {
            lens.extend([k * mib - 1, k * mib, k * mib + 1, k * mib + 12345]);
        }
        for len in lens {
            let w = windows(len);
            let mut at = 0;
            for (i, &(o, l)) in w.iter().enumerate() {
                assert_eq!(o, at, "len {len}: windows are consecutive");
                assert!(l > 0 && l <= MAX_WINDOW, "len {len}: window {l}");
                assert_eq!(o % FIRST_WINDOW, 0, "len {len}: window at {o}");
                if i + 1 < w.len() {
                    assert!(l >= FIRST_WINDOW, "len {len}: short window {l} before the last");
                    assert_eq!(l % FIRST_WINDOW, 0);
                } else {
                    assert!(l < 2 * FIRST_WINDOW || l % FIRST_WINDOW == 0, "len {len}: last {l}");
                }
                at += l;
            }
            assert_eq!(at, len, "len {len}: windows cover the file");
        }
        // The ramp: 256 MiB starts at 4 MiB, reaches MAX_WINDOW, ends small.
        let w = windows(256 * mib);
        assert_eq!(w[0].1, FIRST_WINDOW);
        assert!(w.iter().any(|&(_, l)| l == MAX_WINDOW));
        assert!(w.last().is_some_and(|&(_, l)| l <= 2 * FIRST_WINDOW));
    }

    /// Every way of feeding a file (read, populated whole, in windows) gives
    /// the same bytes in order; files from 1 byte to past the windows' ramp.
    #[test]
    fn mapped_files_are_fed_whole_and_in_order() {
        let dir = std::env::temp_dir().join(format!("unimac-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for len in [1usize, MAP_MIN as usize, PIPELINE_MIN, PIPELINE_MIN + 4097, 41 << 20] {
            let data: Vec<u8> = (0..len).map(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29) as u8).collect();
            let p = dir.join(format!("f{len}"));
            std::fs::write(&p, &data).expect("write");
            // Whatever read_message chooses.
            let mut got = Vec::with_capacity(len);
            let mut calls = 0;
            read_message(Some(&p), |d| {
                got.extend_from_slice(d);
                calls += 1;
            })
            .map_err(|e| e.0)
            .expect("read");
            assert!(got == data, "len {len}: fed bytes differ");
            assert!(calls >= 1 && calls <= windows(len).len(), "len {len}: {calls} slices");
            // By windows, as for 4 KiB folios and as for large ones.
            if len >= MAP_MIN as usize {
                let file = File::open(&p).expect("open");
                // SAFETY: a private temporary file nobody else changes.
                let map = unsafe { memmap2::MmapOptions::new().map(&file) }.expect("map");
                let wins = windows(len);
                let starts: Vec<usize> = wins.iter().map(|w| w.0).collect();
                for cheap in [false, true] {
                    let _ = map.advise_range(Advice::PopulateRead, wins[0].0, wins[0].1);
                    let mut got = Vec::with_capacity(len);
                    feed_windows(&map, &wins, cheap, &mut |d| {
                        // Every slice starts at a window and ends at one.
                        let at = got.len();
                        assert!(starts.contains(&at), "len {len}: slice at {at}");
                        assert!(at + d.len() == len || starts.contains(&(at + d.len())), "len {len}: slice end");
                        got.extend_from_slice(d);
                    });
                    assert!(got == data, "len {len}, cheap {cheap}: windowed bytes differ");
                }
                // The released windows read back the same (refaulted from the file).
                assert!(map[..] == data[..], "len {len}: map after release");
            }
            std::fs::remove_file(&p).expect("remove");
        }
        let _ = std::fs::remove_dir(&dir);
    }
}
