//! The two-thread pipeline: while the main thread finishes one block of heaps, a second
//! thread computes the far splits of every heap of the next block (see the
//! [module docs](super)), from its own copies of the values they read.

use std::ops::Range;
use std::time::{Duration, Instant};

use super::kernel::Kernel;
use super::{Mask, Run};
use crate::engine::mex::FlagSet;
use crate::engine::table::{SgValue, Storage};
use crate::engine::SgTable;

/// The shape of the two-thread pipeline.
#[derive(Clone, Copy)]
pub(super) struct Pipeline {
    /// Heaps per block; the far splits start at twice this.
    pub(super) block: usize,
    /// Splits per heap below which a block is computed by one thread.
    pub(super) min_work: u64,
}

impl Run<'_> {
    /// [`Run::heaps`] for the rest of the table, block by block, with the far splits of the
    /// next block computed by a second thread meanwhile (see the module docs).
    pub(super) fn pipelined(&mut self, pipeline: Pipeline) -> Option<bool> {
        let mut helper = match self.helper.take() {
            Some(helper) if helper.block == pipeline.block => helper,
            _ => Helper::new(&self.kernel, pipeline.block),
        };
        let stop = self.pipelined_with(&mut helper, pipeline);
        self.helper = Some(helper);
        stop
    }

    /// [`Run::pipelined`] with `helper`.
    fn pipelined_with(&mut self, helper: &mut Helper, pipeline: Pipeline) -> Option<bool> {
        let block = pipeline.block;
        let mut far: Option<FarSets> = None;
        // Splits evaluated per heap in the last block: blocks of cheap heaps are not worth a
        // hand-over between threads.
        let mut work_per_heap = 0;
        let mut n = self.table.len();
        while n < self.len {
            let end = (n + block).min(self.len);
            helper.catch_up(&self.kernel, self.table);
            let before = self.evaluated();
            let job = helper.job(end, self.len, self.table.len());
            let Some(job) = job.filter(|_| work_per_heap >= pipeline.min_work) else {
                if let Some(finished) = self.heaps(n..end, far.take().as_ref()) {
                    return Some(finished);
                }
                work_per_heap = (self.evaluated() - before) / (end - n) as u64;
                n = end;
                continue;
            };
            let ((stop, main_time), (next, helper_time)) = rayon::join(
                || timed(|| self.heaps(n..end, far.as_ref())),
                || timed(|| job.run()),
            );
            if stop.is_some() {
                return stop;
            }
            helper.balance(
                Share {
                    splits: self.evaluated() - before,
                    time: main_time,
                },
                Share {
                    splits: next.work,
                    time: helper_time,
                },
            );
            work_per_heap = (self.evaluated() - before + next.work) / (end - n) as u64;
            self.window.sparse += next.work;
            self.helped_blocks += 1;
            far = Some(next);
            n = end;
        }
        None
    }
}

/// The work of one thread over a block of the pipeline.
#[derive(Clone, Copy)]
struct Share {
    splits: u64,
    time: Duration,
}

/// `f()` and how long it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let result = f();
    (result, start.elapsed())
}

/// Heaps per block of the two-thread pipeline; the far splits start at twice this.
pub(super) const PIPELINE_BLOCK: usize = 512;

/// The second thread takes the rare parts below this, and its copy of the table holds about
/// as many values (2^22: 8 MB for `u16` values, next to the 512 MB of a `u16` table of 2^28).
const HELPER_REACH: usize = 1 << 22;

/// Splits per heap below which the pipeline pays less than the hand-over between threads
/// costs (measured: octal 0.354 evaluates about 330 splits per heap and runs slower on two
/// threads, Grundy's game about 2500 and runs faster).
pub(super) const PIPELINE_WORK: u64 = 1000;

/// The splits of each heap of a block that a second thread inserted: every split with a rare
/// part `r` in `near ≤ r < rare_until`, and the scanned splits `near ≤ a < scan_to`.
pub(super) struct FarSets {
    /// The first heap, and the flags of each heap (`width` bytes each).
    pub(super) first: usize,
    pub(super) width: usize,
    pub(super) flags: Vec<u8>,
    /// The mask the rare parts were chosen by.
    pub(super) mask: Mask,
    pub(super) near: usize,
    pub(super) rare_until: usize,
    pub(super) scan_to: usize,
    /// Splits evaluated.
    pub(super) work: u64,
}

impl FarSets {
    /// The part of heap `n`.
    pub(super) fn part(&self, n: usize) -> FarPart<'_> {
        let at = (n - self.first) * self.width;
        FarPart {
            flags: &self.flags[at..at + self.width],
            near: self.near,
            rare_until: self.rare_until,
            scan_to: self.scan_to,
        }
    }
}

/// One heap's part of [`FarSets`].
#[derive(Clone, Copy)]
pub(super) struct FarPart<'a> {
    pub(super) flags: &'a [u8],
    pub(super) near: usize,
    pub(super) rare_until: usize,
    pub(super) scan_to: usize,
}

/// The second thread's copy of what it reads: its own copies, so that the main thread may
/// append to the table meanwhile.
pub(super) struct Helper {
    block: usize,
    /// Rare parts from `near` are the helper's; scanned splits `near ≤ a < near + scan`.
    near: usize,
    scan: usize,
    split_ks: Vec<usize>,
    split_unequal: Vec<bool>,
    /// The rare positions `near ≤ r < rare_until` and their values, under `mask`.
    rare: Vec<(usize, u32)>,
    rare_until: usize,
    mask: Mask,
    /// `G(0..low.len())`, and `G(base..base + recent.len())`.
    low: SgTable,
    recent: SgTable,
    base: usize,
    /// The copies are up to date (not when they would be too large).
    ready: bool,
}

/// The work of the second thread for one block.
struct Job<'a> {
    helper: &'a Helper,
    heaps: Range<usize>,
    /// Width of the flag sets (a power of two above every value so far).
    width: u32,
}

impl Helper {
    fn new(kernel: &Kernel, block: usize) -> Self {
        Helper {
            block,
            near: 2 * block,
            scan: 0,
            split_ks: kernel.split_ks.clone(),
            split_unequal: kernel.split_unequal.clone(),
            rare: Vec::new(),
            rare_until: 0,
            mask: kernel.mask,
            low: SgTable::unpacked(),
            recent: SgTable::unpacked(),
            base: 0,
            ready: false,
        }
    }

    /// Brings the copies up to date with `table` and the kernel's rare list.
    fn catch_up(&mut self, kernel: &Kernel, table: &SgTable) {
        let len = table.len();
        if self.mask != kernel.mask {
            self.mask = kernel.mask;
            self.rare.clear();
            self.rare_until = 0;
        }
        // A rare part `r` pairs with `G(m − r)` as far back as `m − r` small: the helper takes
        // the parts below `HELPER_REACH` only (the main thread the few others), so that its
        // copy of the table stays small.
        let until = len.min(HELPER_REACH);
        let from = kernel
            .rare
            .partition_point(|&r| r < self.rare_until.max(self.near));
        let to = kernel.rare.partition_point(|&r| r < until).max(from);
        let new = kernel.rare[from..to]
            .iter()
            .zip(&kernel.rare_values[from..to]);
        self.rare.extend(new.map(|(&r, &v)| (r, v)));
        self.rare_until = until;
        if self.low.len() < self.near + self.scan {
            self.low = SgTable::unpacked();
            (0..len.min(self.near + self.scan)).for_each(|x| self.low.push(table.get(x)));
        }
        // The lowest position the next job reads: `m − r` for the largest rare part, or
        // `m − a` for the last scanned split, with the smallest `m`.
        let largest = self
            .rare
            .last()
            .map_or(0, |&(r, _)| r)
            .max(self.near + self.scan);
        let lowest =
            (len + self.block).saturating_sub(self.split_ks.last().copied().unwrap_or(0) + largest);
        // Rebuild the copy once its stale part is longer than its live part; a long scan
        // share could still make it too long, and then the pipeline waits.
        self.ready = len - lowest.min(len) <= 2 * HELPER_REACH;
        if !self.ready || lowest < self.base || lowest - self.base > len - lowest {
            self.base = lowest;
            self.recent = SgTable::unpacked();
        }
        if !self.ready {
            return;
        }
        for x in self.base + self.recent.len()..len {
            self.recent.push(table.get(x));
        }
        // Store both copies in the wider of their widths (a value that needs it), and wide
        // enough for the rare values, which need not lie in either copy (a rare position
        // past 255 below `base`: its XORs with 8-bit copies would overflow the flag sets of
        // `Job::run`). They are plain slices (never 9-bit), which `Job::heap` reads side by
        // side.
        let needs_width = match self.low.value_bits().max(self.recent.value_bits()) {
            8 => 0,
            16 => u32::from(u8::MAX) + 1,
            _ => u32::from(u16::MAX) + 1,
        }
        .max(self.rare_max());
        self.low.widen_for(needs_width);
        self.recent.widen_for(needs_width);
    }

    /// The far sets of the block after the main thread's `..end`, if the pipeline may run:
    /// every split it reads is below `known` (the table's length), and its copy of the table
    /// is at most half as long as the table (or the table is small).
    fn job(&self, end: usize, len: usize, known: usize) -> Option<Job<'_>> {
        let heaps = end..(end + self.block).min(len);
        let fits = self.near >= 2 * self.block && self.near + self.scan + self.block <= known;
        (self.ready && !heaps.is_empty() && fits).then(|| Job {
            helper: self,
            heaps,
            width: (self
                .low
                .max_value()
                .max(self.recent.max_value())
                .max(self.rare_max())
                + 1)
            .next_power_of_two(),
        })
    }

    /// The largest value of a rare part the helper takes.
    fn rare_max(&self) -> u32 {
        self.rare.iter().map(|&(_, v)| v).max().unwrap_or(0)
    }

    /// Moves the helper's share of the scan half-way towards equal times of the two threads
    /// over a block: moving `d` splits saves `d` times the main thread's cost per split and
    /// costs `d` times the helper's. Times, not split counts, because a split costs more on
    /// the main thread when it reads a 9-bit table (the helper reads plain copies).
    fn balance(&mut self, main: Share, helper: Share) {
        let cost = |share: Share| share.time.as_secs_f64() / share.splits.max(1) as f64;
        let excess = main.time.as_secs_f64() - helper.time.as_secs_f64();
        let moved = excess / (cost(main) + cost(helper)) / 2.0;
        let per_heap = moved / self.block as f64;
        self.scan = (self.scan as f64 + per_heap).clamp(0.0, (1 << 16) as f64) as usize;
    }
}

impl Job<'_> {
    fn run(self) -> FarSets {
        let helper = self.helper;
        let mut set = FlagSet::for_values_up_to(self.width - 1);
        let width = set.as_bytes().len();
        let mut flags = Vec::with_capacity(width * self.heaps.len());
        let mut work = 0;
        for n in self.heaps.clone() {
            set.clear();
            work += match (helper.low.storage(), helper.recent.storage()) {
                (Storage::U8(low), Storage::U8(recent)) => self.heap(n, low, recent, &mut set),
                (Storage::U16(low), Storage::U16(recent)) => self.heap(n, low, recent, &mut set),
                (Storage::U32(low), Storage::U32(recent)) => self.heap(n, low, recent, &mut set),
                _ => unreachable!("`Helper::catch_up` gives both copies one plain width"),
            };
            flags.extend_from_slice(set.as_bytes());
        }
        FarSets {
            first: self.heaps.start,
            width,
            flags,
            mask: helper.mask,
            near: helper.near,
            rare_until: helper.rare_until,
            scan_to: helper.near + helper.scan,
            work,
        }
    }

    /// Inserts the far splits of heap `n` into `set`; returns how many it evaluated.
    fn heap<T: SgValue>(&self, n: usize, low: &[T], recent: &[T], set: &mut FlagSet) -> u64 {
        let helper = self.helper;
        let (near, base) = (helper.near, helper.base);
        let scan_to = near + helper.scan;
        let mut work = 0;
        let splits = helper.split_ks.iter().zip(&helper.split_unequal);
        for (&k, &unequal) in splits.take_while(|(&k, _)| k + 2 <= n) {
            let m = n - k;
            let below = helper.rare.partition_point(|&(r, _)| r < m);
            let rare = helper.rare[..below].iter();
            // `!`: not the split into two equal heaps.
            let rare = rare.filter(|&&(r, _)| !(unequal && 2 * r == m));
            set.insert_xors::<[T]>(rare.map(|&(r, v)| v ^ recent[m - r - base].to_u32()));
            work += below as u64;
            let last = if unequal { (m - 1) / 2 } else { m / 2 };
            let to = scan_to.min(last + 1);
            if to > near {
                set.insert_zipped(&low[near..to], &recent[m + 1 - to - base..=m - near - base]);
                work += (to - near) as u64;
            }
        }
        work
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::testing::*;
    use super::super::{extend_with, Policy, SparseState};
    use super::*;
    use crate::engine::Progress;

    #[test]
    fn rare_values_past_the_copies_widen_them() {
        // 0.744404 reaches values past 255 at rare positions that lie below the helper's
        // copy of recent values; its copies stayed 8-bit, so the XORs of those rare values
        // overflowed its 256-value flag sets (found by the proptest below under CI's load;
        // the debug assertion in `FlagSet::insert_below` caught it).
        for text in ["0.744404", "0.747404"] {
            let code = code(text);
            let len = 9_000;
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap();
            let mut table = SgTable::new();
            pool.install(|| {
                crate::engine::takebreak::extend(&code, &mut table, len, &mut Progress::hidden())
            });
            assert_eq!(table.to_vec(), dense_values(&code, len), "{text}");
        }
    }

    #[test]
    fn two_threads_give_the_values_of_one() {
        // Grundy's game (`!`, one splitting k), 0.354 (two splitting k's) and 0.6 (values pass
        // 255, so the helper's copies widen); the masks change on the way, which discards the
        // helper's sets of that block.
        for (text, len) in [("4!.0", 20_000), ("0.354", 20_000), ("0.6", 20_000)] {
            let code = code(text);
            let values = dense_values(&code, len);
            for block in [8, 32] {
                let (two, helped) = pipelined_values(&code, len, 2, block);
                assert_eq!(two, values, "{text}, blocks of {block}");
                // The second thread took the far splits of most blocks.
                assert!(
                    2 * helped * block > len,
                    "{text}: {helped} blocks of {block}"
                );
                assert_eq!(pipelined_values(&code, len, 1, block).0, values, "{text}");
            }
        }
        // Through `extend` in a two-thread pool (blocks of PIPELINE_BLOCK heaps, only where
        // they pay).
        let code = code("4!.0");
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let len = 1 << 16;
        let two = pool.install(|| sparse_values(&code, len));
        assert_eq!(two, dense_values(&code, len));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]

        #[test]
        fn two_threads_match_dense(code in prop_oneof![octal_strategy(), modified_strategy()], len in 100usize..3_000, block in 1usize..16) {
            let (values, _) = pipelined_values(&code, len, 2, block);
            prop_assert_eq!(values, dense_values(&code, len), "{}", code);
        }

        /// Calls in chunks that keep their state (kernel, order trial, the second thread's
        /// copies) give the values of one call.
        #[test]
        fn chunks_with_a_kept_state_match_dense(code in prop_oneof![octal_strategy(), modified_strategy()], chunk in 1usize..700, block in 1usize..16) {
            let len = 3_000;
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            let policy = Policy {
                may_give_up: false,
                may_fill: false,
                pipeline: Some(Pipeline { block, min_work: 0 }),
            };
            let mut table = SgTable::packed_from(0);
            let mut state = SparseState::default();
            let mut kept = 0;
            while table.len() < len {
                let end = (table.len() + chunk).min(len);
                let call = || extend_with(&code, &mut table, end, &mut Progress::hidden(), policy, &mut state);
                prop_assert!(pool.install(call).0);
                kept += usize::from(state.is_kept());
            }
            prop_assert_eq!(kept, len.div_ceil(chunk));
            prop_assert_eq!(table.to_vec(), dense_values(&code, len), "{}", code);
        }
    }
}
