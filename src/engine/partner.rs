//! A second thread that sweeps one half of a quick wave while the calling thread sweeps the
//! other.
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
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::{self, Scope};

use super::jit::{self, Kernel, Ran, SharedTable};

/// Spins before a waiting thread starts yielding its core.
const SPINS: u32 = 1 << 14;
/// The epoch that tells the partner to stop.
const STOP: u64 = u64::MAX;

/// The job of one wave and its answer, between the calling thread and the partner.
#[derive(Default)]
struct Job {
    /// Bumped by the caller for each job ([`STOP`]: no more).
    epoch: AtomicU64,
    first: AtomicUsize,
    step: AtomicI64,
    count: AtomicUsize,
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
                // SAFETY: the caller lends the table for the job and sweeps only the other
                // half of the wave until it sees the job finished (`Partner::sweep`).
                let ran = unsafe {
                    kernel.box_sweep_shared(
                        theirs.first.load(Ordering::Relaxed),
                        theirs.step.load(Ordering::Relaxed) as isize,
                        theirs.count.load(Ordering::Relaxed),
                        table,
                        theirs.budget.load(Ordering::Relaxed),
                        &mut scratch,
                    )
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
        (first, step, count): (usize, isize, usize),
        values: &mut [u32],
        budget: u64,
        scratch: &mut jit::Scratch,
    ) -> (Ran, Ran) {
        let half = count / 2;
        let table = SharedTable::new(values);
        let job = &*self.job;
        self.epoch += 1;
        job.first.store(first, Ordering::Relaxed);
        job.step.store(step as i64, Ordering::Relaxed);
        job.count.store(half, Ordering::Relaxed);
        job.budget.store(budget / 2, Ordering::Relaxed);
        job.values.store(table.as_ptr() as usize, Ordering::Relaxed);
        job.len.store(table.len(), Ordering::Relaxed);
        job.epoch.store(self.epoch, Ordering::Release);
        let second = first.wrapping_add_signed(half as isize * step);
        // SAFETY: the partner sweeps positions `0..half` of the wave, this call the others;
        // `values` stays borrowed until the partner has finished.
        let mine = unsafe {
            kernel.box_sweep_shared(second, step, count - half, table, budget / 2, scratch)
        };
        let epoch = self.epoch;
        wait(|| (job.finished.load(Ordering::Acquire) == epoch).then_some(()));
        let theirs = Ran {
            done: job.done.load(Ordering::Relaxed),
            steps: job.steps.load(Ordering::Relaxed),
        };
        (theirs, mine)
    }
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
