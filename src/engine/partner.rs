//! A second thread that sweeps one half of a quick wave while the calling thread sweeps the
//! other: of a diagonal wave, or of a wave of rows, both taking the next row
//! ([`Partner::share_segments`]).
//!
//! A knight's box has thousands of diagonal waves of a few thousand cheap positions each: tens
//! of microseconds a wave, about what handing a job to the thread pool and joining it costs.
//! A partner waits on an atomic instead (spinning, then yielding when no wave comes): a hand-off
//! costs well under a microsecond, so both cores share even these waves.
//!
//! The positions of a wave are not options of each other and their options are valued before
//! the wave, so the two halves write disjoint positions and read only positions nobody writes
//! during the wave ([`Kernel::box_sweep_shared`]).

use std::hint::spin_loop;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::{self, Scope};

use super::jit::{self, Kernel, Ran, SharedTable};

/// Spins before a waiting thread starts yielding its core.
const SPINS: u32 = 1 << 14;
/// The epoch that tells the partner to stop.
const STOP: u64 = u64::MAX;

/// The table indices `first + k·step`, `k < count`, swept in that order: a row, or a half
/// of a diagonal wave.
pub type Segment = (usize, isize, usize);

/// The job of one wave and its answer, between the calling thread and the partner.
#[derive(Default)]
struct Job {
    /// Bumped by the caller for each job ([`STOP`]: no more).
    epoch: AtomicU64,
    /// The partner's segments (a `*const Segment`), swept in order; or, when `pulling`, the
    /// wave's, both threads taking the next one not taken (`next`) until one stops.
    segments: AtomicUsize,
    segments_len: AtomicUsize,
    pulling: AtomicBool,
    next: AtomicUsize,
    stopped: AtomicBool,
    budget: AtomicU64,
    values: AtomicUsize,
    len: AtomicUsize,
    /// The epoch of the last job done, and what it did.
    finished: AtomicU64,
    done: AtomicUsize,
    steps: AtomicU64,
}

/// A partner thread for the waves of one box ([`Partner::start`]); stops when dropped.
pub struct Partner {
    job: Arc<Job>,
    epoch: u64,
}

impl Partner {
    /// A partner sweeping with `kernel` (compiled for runs), for the lifetime of `scope`.
    pub fn start<'scope>(scope: &'scope Scope<'scope, '_>, kernel: Arc<Kernel>) -> Partner {
        let job = Arc::new(Job::default());
        let theirs = Arc::clone(&job);
        scope.spawn(move || {
            let mut scratch = jit::Scratch::default();
            let mut seen = 0;
            loop {
                let epoch = wait(|| {
                    let epoch = theirs.epoch.load(Ordering::Acquire);
                    (epoch != seen).then_some(epoch)
                });
                if epoch == STOP {
                    return;
                }
                seen = epoch;
                let table = SharedTable::from_raw(
                    theirs.values.load(Ordering::Relaxed) as *mut u32,
                    theirs.len.load(Ordering::Relaxed),
                );
                // SAFETY: the caller lends the table and the segments for the job and sweeps
                // only the other half of the wave until it sees the job finished
                // (`Partner::sweep`, `Partner::share_segments`).
                let ran = unsafe {
                    let segments = std::slice::from_raw_parts(
                        theirs.segments.load(Ordering::Relaxed) as *const Segment,
                        theirs.segments_len.load(Ordering::Relaxed),
                    );
                    let budget = theirs.budget.load(Ordering::Relaxed);
                    if theirs.pulling.load(Ordering::Relaxed) {
                        let taken = (&theirs.next, &theirs.stopped);
                        sweep_pulling(&kernel, segments, taken, table, budget, &mut scratch)
                    } else {
                        sweep_all(&kernel, segments, table, budget, &mut scratch)
                    }
                };
                theirs.done.store(ran.done, Ordering::Relaxed);
                theirs.steps.store(ran.steps, Ordering::Relaxed);
                theirs.finished.store(epoch, Ordering::Release);
            }
        });
        Partner { job, epoch: 0 }
    }

    /// Sweeps the positions `first + k·step` (`k < count`) of `values` in place with `kernel`,
    /// the first half by the partner, the second here, each with half of `budget`; what each
    /// half did, the partner's first. A half that stops early leaves its positions from the
    /// one it stopped at to the caller.
    pub fn sweep(
        &mut self,
        kernel: &Kernel,
        (first, step, count): Segment,
        values: &mut [u32],
        budget: u64,
        scratch: &mut jit::Scratch,
    ) -> (Ran, Ran) {
        let half = count / 2;
        let second = first.wrapping_add_signed(half as isize * step);
        let theirs = [(first, step, half)];
        let mine = [(second, step, count - half)];
        self.sweep_segments(kernel, (&theirs, &mine), values, budget, scratch)
    }

    /// Sweeps the segments `theirs` by the partner and `mine` here, at once, each list in its
    /// order and each side with half of `budget`: what each side did, the partner's first, its
    /// positions counted along its list (a side that stops early leaves the rest of its list
    /// to the caller).
    fn sweep_segments(
        &mut self,
        kernel: &Kernel,
        (theirs, mine): (&[Segment], &[Segment]),
        values: &mut [u32],
        budget: u64,
        scratch: &mut jit::Scratch,
    ) -> (Ran, Ran) {
        let table = SharedTable::new(values);
        self.publish(theirs, false, table, budget / 2);
        // SAFETY: the partner sweeps `theirs`, this call `mine`, positions of one wave;
        // `values` and `theirs` stay borrowed until the partner has finished.
        let mine = unsafe { sweep_all(kernel, mine, table, budget / 2, scratch) };
        (self.wait(), mine)
    }

    /// Sweeps the segments of a wave (the rows of a wave of rows, no position of one an option
    /// of a position of another), this thread and the partner each taking the next segment
    /// not yet taken, with half of `budget` each, until every one is swept or one stops
    /// (an option not known yet, a fault, the budget: the rest of the wave is the caller's).
    /// Rows of one wave may cost very differently (Moore's Nim_k's `(12, 0, 0, d)` and
    /// `(4, 4, 4, d)`): taken one at a time they keep both threads busy to the end. True when
    /// every segment was swept; the steps spent.
    pub fn share_segments(
        &mut self,
        kernel: &Kernel,
        segments: &[Segment],
        values: &mut [u32],
        budget: u64,
        scratch: &mut jit::Scratch,
    ) -> (bool, u64) {
        let table = SharedTable::new(values);
        self.publish(segments, true, table, budget / 2);
        let job = &*self.job;
        // SAFETY: each segment is swept by the one thread that took it, positions of one wave;
        // `values` and `segments` stay borrowed until the partner has finished.
        let mine = unsafe {
            let taken = (&job.next, &job.stopped);
            sweep_pulling(kernel, segments, taken, table, budget / 2, scratch)
        };
        let theirs = self.wait();
        let count: usize = segments.iter().map(|&(_, _, count)| count).sum();
        (theirs.done + mine.done == count, theirs.steps + mine.steps)
    }

    /// Hands the partner a job.
    fn publish(&mut self, segments: &[Segment], pulling: bool, table: SharedTable, budget: u64) {
        let job = &*self.job;
        self.epoch += 1;
        job.segments
            .store(segments.as_ptr() as usize, Ordering::Relaxed);
        job.segments_len.store(segments.len(), Ordering::Relaxed);
        job.pulling.store(pulling, Ordering::Relaxed);
        job.next.store(0, Ordering::Relaxed);
        job.stopped.store(false, Ordering::Relaxed);
        job.budget.store(budget, Ordering::Relaxed);
        job.values.store(table.as_ptr() as usize, Ordering::Relaxed);
        job.len.store(table.len(), Ordering::Relaxed);
        job.epoch.store(self.epoch, Ordering::Release);
    }

    /// Waits for the partner to finish its job: what it did.
    fn wait(&self) -> Ran {
        let job = &*self.job;
        let epoch = self.epoch;
        wait(|| (job.finished.load(Ordering::Acquire) == epoch).then_some(()));
        Ran {
            done: job.done.load(Ordering::Relaxed),
            steps: job.steps.load(Ordering::Relaxed),
        }
    }
}

/// Sweeps the segments taken one at a time from `segments` (`next`: the first not taken yet)
/// with `budget` in all, until none is left or some thread stopped at a position (`stopped`):
/// the positions valued here and their steps.
///
/// # Safety
/// As [`Kernel::box_sweep_shared`], for every segment.
unsafe fn sweep_pulling(
    kernel: &Kernel,
    segments: &[Segment],
    (next, stopped): (&AtomicUsize, &AtomicBool),
    table: SharedTable,
    budget: u64,
    scratch: &mut jit::Scratch,
) -> Ran {
    let mut all = Ran { done: 0, steps: 0 };
    while !stopped.load(Ordering::Relaxed) {
        let Some(&(first, step, count)) = segments.get(next.fetch_add(1, Ordering::Relaxed)) else {
            break;
        };
        // SAFETY: the caller's.
        let ran = unsafe {
            kernel.box_sweep_shared(first, step, count, table, budget - all.steps, scratch)
        };
        all.done += ran.done;
        all.steps += ran.steps;
        if ran.done < count {
            stopped.store(true, Ordering::Relaxed);
            break;
        }
    }
    all
}

/// Sweeps `segments` in order with `budget` in all, to the first position the kernel stops at:
/// the positions valued, counted along the list, and their steps.
///
/// # Safety
/// As [`Kernel::box_sweep_shared`], for every segment.
unsafe fn sweep_all(
    kernel: &Kernel,
    segments: &[Segment],
    table: SharedTable,
    budget: u64,
    scratch: &mut jit::Scratch,
) -> Ran {
    let mut all = Ran { done: 0, steps: 0 };
    for &(first, step, count) in segments {
        // SAFETY: the caller's.
        let ran = unsafe {
            kernel.box_sweep_shared(first, step, count, table, budget - all.steps, scratch)
        };
        all.done += ran.done;
        all.steps += ran.steps;
        if ran.done < count {
            break;
        }
    }
    all
}

impl Drop for Partner {
    fn drop(&mut self) {
        self.job.epoch.store(STOP, Ordering::Release);
    }
}

/// Spins until `ready` gives a value, then yields the core between tries.
fn wait<T>(mut ready: impl FnMut() -> Option<T>) -> T {
    let mut spins = 0;
    loop {
        if let Some(value) = ready() {
            return value;
        }
        if spins < SPINS {
            spins += 1;
            spin_loop();
        } else {
            thread::yield_now();
        }
    }
}
