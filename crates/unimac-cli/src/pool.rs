//! Many small files on every allowed core, their results in order.
//!
//! The main thread walks the files (or check lines) in order and hands each
//! one's work to a few worker threads through [`Ordered`]; it takes the
//! results back in the same order, so nonces, lines and error messages come
//! out exactly as one thread would give them. At most a window of files is
//! in flight at once ([`WINDOW_PER_THREAD`] per thread), so memory does not
//! grow with the number of files, and every result is taken as soon as it
//! and all before it are done.
//!
//! Waking a sleeping thread costs more than hashing a small file (two
//! system calls and a context switch, against well under a microsecond for
//! 4 KiB), so the threads are made to sleep seldom: the main thread does
//! queued jobs itself while it waits for a result, hands jobs over in
//! batches, a worker takes the next job in the same lock as it hands in a
//! result, and a thread is woken only when it sleeps and there is something
//! for it.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use crate::fail::Fail;

/// Files in flight per thread. A line is printed as soon as its file and
/// those before it are done, whatever the window; a wide one lets the
/// other threads go on while one is descheduled on a busy machine (10 000
/// files of 4 KiB on 2 cores shared with two builds: 136 ms with 8 per
/// thread, 129 ms with 32, 108 ms with 128, about 60 ms each when idle),
/// and still bounds memory (a message state is about 1 KiB for
/// hash127-aes; a check line's path and tag).
pub const WINDOW_PER_THREAD: usize = 128;

/// Jobs the main thread gathers before it hands them over under one lock
/// (or fewer, before it waits). Handing each job over at once to an idle
/// worker woke it for every file: on a machine whose other core was busy,
/// 2 000 to 3 000 context switches for 10 000 files, against under 400 in
/// batches of 16.
const BATCH: usize = 16;

/// What the threads share.
struct Shared<J, R> {
    state: Mutex<State<J, R>>,
    /// A worker waits here for a job.
    jobs: Condvar,
    /// The main thread waits here for a result.
    results: Condvar,
    /// Results handed in so far (read without the lock: whether there is
    /// anything new to collect).
    handed_in: AtomicUsize,
    /// Workers asleep waiting for a job (changed under the lock).
    idle: AtomicUsize,
}

struct State<J, R> {
    /// Jobs not yet taken, with their slots.
    queue: VecDeque<(usize, J)>,
    /// Results handed in, with their slots (`None`: the job panicked; the
    /// panic is on stderr already).
    done: Vec<(usize, Option<R>)>,
    /// The main thread is asleep waiting for a result.
    waiting: bool,
    /// No more jobs: the workers end.
    closed: bool,
    /// Workers running.
    workers: usize,
}

/// The jobs in flight and the results not yet taken, in order.
pub struct Ordered<'a, J, R> {
    shared: &'a Shared<J, R>,
    work: &'a (dyn Fn(J) -> R + Sync),
    /// The window, from slot `first` on: whether the slot's work is slow
    /// (see [`Ordered::waiting_on_slow`]), and its result once done.
    window: VecDeque<(bool, Option<Option<R>>)>,
    first: usize,
    cap: usize,
    /// Jobs pushed, not yet handed to the workers.
    local: Vec<(usize, J)>,
    /// [`Shared::handed_in`] when last collected.
    seen: usize,
    /// No worker could be started: each job is done as it is pushed.
    inline: bool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic is caught before it could leave the state half changed.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Do `job` (`None` if it panicked).
fn run_job<J, R>(work: &(dyn Fn(J) -> R + Sync), job: J) -> Option<R> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(job))).ok()
}

/// Run `body` with an [`Ordered`] whose jobs are done by `work` on
/// `threads` threads, at most `window` slots in flight: `threads - 1`
/// workers, and the calling thread itself whenever it waits for a result
/// and a job is queued. The workers end when `body` returns (a job running
/// then is finished, its result dropped).
pub fn run<J: Send, R: Send, T>(
    threads: usize,
    window: usize,
    work: &(dyn Fn(J) -> R + Sync),
    body: impl FnOnce(&mut Ordered<'_, J, R>) -> T,
) -> T {
    let shared = Shared {
        state: Mutex::new(State { queue: VecDeque::new(), done: Vec::new(), waiting: false, closed: false, workers: 0 }),
        jobs: Condvar::new(),
        results: Condvar::new(),
        handed_in: AtomicUsize::new(0),
        idle: AtomicUsize::new(0),
    };
    std::thread::scope(|s| {
        for _ in 1..threads.max(1) {
            let shared = &shared;
            let worker = move || {
                let mut st = lock(&shared.state);
                loop {
                    if let Some((i, j)) = st.queue.pop_front() {
                        drop(st);
                        let r = run_job(work, j);
                        st = lock(&shared.state);
                        st.done.push((i, r));
                        shared.handed_in.fetch_add(1, Ordering::Release);
                        if st.waiting {
                            st.waiting = false;
                            shared.results.notify_one();
                        }
                    } else if st.closed {
                        break;
                    } else {
                        shared.idle.fetch_add(1, Ordering::Relaxed);
                        st = shared.jobs.wait(st).unwrap_or_else(|e| e.into_inner());
                        shared.idle.fetch_sub(1, Ordering::Relaxed);
                    }
                }
                st.workers -= 1;
                if st.waiting {
                    shared.results.notify_one();
                }
            };
            lock(&shared.state).workers += 1;
            if std::thread::Builder::new().spawn_scoped(s, worker).is_err() {
                lock(&shared.state).workers -= 1;
            }
        }
        let inline = lock(&shared.state).workers == 0;
        let cap = window.max(1);
        // The workers end when `body` does, returning or not.
        let _close = Close(&shared);
        let mut o = Ordered { shared: &shared, work, window: VecDeque::with_capacity(cap), first: 0, cap, local: Vec::with_capacity(BATCH), seen: 0, inline };
        body(&mut o)
    })
}

/// When dropped: no more jobs, and the workers end after the job they are
/// on (so the scope's join cannot wait for them forever).
struct Close<'a, J, R>(&'a Shared<J, R>);

impl<J, R> Drop for Close<'_, J, R> {
    fn drop(&mut self) {
        let mut st = lock(&self.0.state);
        st.closed = true;
        st.queue.clear();
        self.0.jobs.notify_all();
    }
}

impl<J, R> Ordered<'_, J, R> {
    /// Whether another slot fits in the window.
    pub fn has_room(&self) -> bool {
        self.window.len() < self.cap
    }

    /// Whether no slot is in the window.
    pub fn is_empty(&self) -> bool {
        self.window.is_empty()
    }

    /// Add a job in the next slot (`slow`: it may take a while, see
    /// [`Ordered::waiting_on_slow`]). Call only when [`Ordered::has_room`].
    pub fn push(&mut self, job: J, slow: bool) {
        let i = self.first + self.window.len();
        if self.inline {
            let r = run_job(self.work, job);
            self.window.push_back((slow, Some(r)));
            return;
        }
        self.local.push((i, job));
        self.window.push_back((slow, None));
        if self.local.len() >= BATCH.min(self.cap / 2).max(1) {
            self.hand_over();
        }
    }

    /// Hand the jobs gathered to the workers, waking one if one sleeps.
    fn hand_over(&mut self) {
        if self.local.is_empty() {
            return;
        }
        let mut st = lock(&self.shared.state);
        st.queue.extend(self.local.drain(..));
        // A batch is enough for every idle worker to start on.
        if self.shared.idle.load(Ordering::Relaxed) > 0 {
            self.shared.jobs.notify_all();
        }
    }

    /// Add a slot whose result is known already.
    pub fn push_done(&mut self, r: R) {
        self.window.push_back((false, Some(Some(r))));
    }

    /// Put the results handed in into their slots.
    fn place(&mut self, done: impl IntoIterator<Item = (usize, Option<R>)>) {
        for (i, r) in done {
            if let Some(slot) = i.checked_sub(self.first).and_then(|k| self.window.get_mut(k)) {
                slot.1 = Some(r);
            }
        }
    }

    /// Whether the first slot is done (`None`: no slot).
    fn front_done(&self) -> Option<bool> {
        self.window.front().map(|s| s.1.is_some())
    }

    /// Take the results handed in so far, without waiting (no lock if
    /// there are none).
    fn collect(&mut self) {
        let n = self.shared.handed_in.load(Ordering::Acquire);
        if n == self.seen {
            return;
        }
        let mut st = lock(&self.shared.state);
        self.seen = self.shared.handed_in.load(Ordering::Acquire);
        let done = std::mem::take(&mut st.done);
        drop(st);
        self.place(done);
    }

    /// Whether the first slot is still being worked on and was pushed as
    /// slow: the caller may flush what it printed so far before it waits.
    pub fn waiting_on_slow(&mut self) -> bool {
        if self.front_done() == Some(false) {
            self.collect();
        }
        matches!(self.window.front(), Some((true, None)))
    }

    /// The result of the first slot if it is done, without waiting.
    pub fn try_next(&mut self) -> Result<Option<R>, Fail> {
        if self.front_done() == Some(false) {
            self.collect();
        }
        match self.front_done() {
            Some(true) => self.pop(),
            _ => Ok(None),
        }
    }

    /// The result of the first slot, waiting for it (and doing queued jobs
    /// meanwhile); `None` if the window is empty.
    pub fn next(&mut self) -> Result<Option<R>, Fail> {
        if self.front_done() == Some(false) {
            self.hand_over();
        }
        while self.front_done() == Some(false) {
            let mut st = lock(&self.shared.state);
            if st.done.is_empty() {
                if let Some((i, j)) = st.queue.pop_front() {
                    drop(st);
                    let r = run_job(self.work, j);
                    self.place(std::iter::once((i, r)));
                    continue;
                }
                if st.workers == 0 {
                    return Err(Fail("a worker thread stopped".into()));
                }
                st.waiting = true;
                st = self.shared.results.wait(st).unwrap_or_else(|e| e.into_inner());
                st.waiting = false;
            }
            // Workers count what they hand in under the lock.
            self.seen = self.shared.handed_in.load(Ordering::Acquire);
            let done = std::mem::take(&mut st.done);
            drop(st);
            self.place(done);
        }
        self.pop()
    }

    fn pop(&mut self) -> Result<Option<R>, Fail> {
        let Some((_, Some(r))) = self.window.pop_front() else {
            return Ok(None);
        };
        self.first += 1;
        r.map(Some).ok_or_else(|| Fail("a worker thread failed".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results come back in the order pushed, whatever the order the
    /// workers finish in, with known results in their places.
    #[test]
    fn results_in_order() {
        for threads in [1, 2, 3] {
            for window in [1, 2, 5] {
                let work = |x: u64| {
                    // Later jobs often finish first.
                    std::thread::sleep(std::time::Duration::from_micros((x * 7919) % 200));
                    x * x
                };
                let got = run(threads, window, &work, |o| {
                    let mut got = Vec::new();
                    for x in 0..200u64 {
                        while !o.has_room() {
                            got.push(o.next().map_err(|e| e.0).expect("worker").expect("slot"));
                        }
                        if x % 17 == 0 {
                            o.push_done(x * x);
                        } else {
                            o.push(x, x % 5 == 0);
                        }
                        while let Some(r) = o.try_next().map_err(|e| e.0).expect("worker") {
                            got.push(r);
                        }
                    }
                    while let Some(r) = o.next().map_err(|e| e.0).expect("worker") {
                        got.push(r);
                    }
                    assert!(o.is_empty());
                    got
                });
                let want: Vec<u64> = (0..200u64).map(|x| x * x).collect();
                assert_eq!(got, want, "{threads} threads, window {window}");
            }
        }
    }

    /// A caller that panics ends the workers (the scope's join returns and
    /// the panic goes on), with jobs still queued.
    #[test]
    fn a_panic_in_the_caller_ends_the_workers() {
        let work = |x: u32| x;
        let r = std::panic::catch_unwind(|| {
            run(2, 64, &work, |o| {
                for x in 0..40 {
                    o.push(x, false);
                }
                panic!("the caller fails");
            })
        });
        assert!(r.is_err());
    }

    /// A job that panics is an error in its place, not a hang.
    #[test]
    fn a_panic_is_an_error() {
        let work = |x: u32| {
            assert!(x != 3, "job 3 fails");
            x
        };
        let r = run(2, 4, &work, |o| {
            let mut got = Vec::new();
            for x in 0..6 {
                while !o.has_room() {
                    got.push(o.next()?.expect("slot"));
                }
                o.push(x, false);
            }
            while let Some(r) = o.next()? {
                got.push(r);
            }
            Ok::<_, Fail>(got)
        });
        assert!(r.is_err());
    }
}
