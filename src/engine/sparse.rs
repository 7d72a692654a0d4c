//! The sparse-space kernel for octal games: `G(n)` from the few *rare* positions instead of
//! every split.
//!
//! A finite code whose moves leave at most two heaps (modifiers: see below) gives heap `n`, for
//! each `k` with digit `d_k`, the options `0` (bit 0, `k = n`), `G(n − k)` (bit 1) and
//! `G(a) ⊕ G(b)` with `a + b = n − k`, `a, b ≥ 1` (bit 2). The dense kernel
//! ([`super::takebreak`]) visits every split, `O(n)` per heap and `O(N²)` in all. This kernel
//! is the method of the big octal computations (Gangolli & Plambeck 1989, "A note on
//! periodicity in some octal games", Int. J. Game Theory 18; A. Flammenkamp's tables of octal
//! games; Siegel, *Combinatorial Game Theory*, AMS 2013, the section on sparse space):
//!
//! * Fix a bit mask `M` and call a value `v` *rare* when `popcount(v & M)` is even, *common*
//!   otherwise. Parity of popcount is additive under XOR, so common ⊕ common and rare ⊕ rare
//!   are rare, and rare ⊕ common is common. Optionally the heap's parity is a further bit:
//!   position `x` is rare when `popcount(G(x) & M) + e·(x mod 2)` is even; as `a + b = m`, a
//!   split of two common positions then has a value `x` with `popcount(x & M) ≡ e·(m mod 2)`.
//!   That is only used when every splitting `k` has the same parity, so that for each heap
//!   one class of values is "exact" (see below). Both rules are stated once, in
//!   [`crate::theory::sparse_space`] ([`Mask::is_rare`],
//!   [`parity_bit_allowed`](crate::theory::sparse_space::parity_bit_allowed)).
//! * In most octal games one mask makes the rare *positions* few (finitely many in the known
//!   periodic games). The kernel keeps their list, and for heap `n` inserts the one-heap and
//!   no-heap options and, for each splitting `k` and rare position `r < n − k`, the split
//!   `G(r) ⊕ G(n − k − r)`: every split with a rare part. So every option value of the class
//!   that common ⊕ common cannot produce is found exactly; values of the other class may be
//!   missing.
//! * Let `c` be the least value not found so far. If `c` is of the exact class, `G(n) = c`.
//!   Otherwise `c` may still be an option through two common parts, so the kernel scans the
//!   splits in blocks of 32 `a`s per splitting `k`, inserting every value it sees, until a
//!   block brings `c` (then it takes the next `c`, resuming the scan where it stopped) or it
//!   runs out of splits (then `G(n) = c`). Extra values are real options, so testing `c` once
//!   per block instead of after every split changes nothing but the cost. A missing value is
//!   usually met after a few splits; the whole `O(n)` scan is paid essentially only when
//!   `G(n)` itself is rare, i.e. at rare positions.
//!
//! The option set is a [`FlagSet`] (one byte per value: an insert is one store, independent of
//! the others; for `u8` tables a fixed 256-byte array without bounds checks), and the XORs of
//! a block of splits are computed with vector instructions before they are stored.
//!
//! **Two threads.** When the rayon pool has two threads, the heaps go in blocks of `B` (512)
//! and a second thread computes, while the main thread finishes one block, the *far* splits of
//! every heap of the next block: those with a rare part `L = 2B ≤ r < 2^22` known when the
//! block started, and the scanned splits `L ≤ a < L + S`. For heap `n` of the next block such a
//! split reads `G(n − k − r)` or `G(n − k − a)` with index at most `n − L`, below the first
//! heap of the main thread's block, so it only needs values already in the table (the helper
//! reads its own copies of the table's start and of the window its splits reach, so the main
//! thread may append meanwhile). The main thread then starts each heap from those values and
//! adds the near rare parts (`r < L`), the rare positions found since (and any past `2^22`,
//! whose pairs reach back too far for the helper's copy), and the scan outside
//! `L..L + S`: the same set of options, so the same values whatever the thread count. When the
//! mask changes, the helper's sets of that block are dropped. `S` follows the measured work of
//! both threads so that they take about equal shares, and blocks cheaper than 1000 splits per
//! heap stay on one thread (the hand-over would cost more than it saves). In a one-thread pool
//! (`ThreadPoolBuilder::num_threads(1)`) the kernel is the single-thread one.
//!
//! The mask is chosen from the values already known: with `h` the histogram of
//! `G(x) | (x mod 2) << B` over `x ≥ 1`, its Walsh–Hadamard transform `H(M) = Σ_v h(v)
//! (−1)^popcount(v & M)` is `#rare − #common` for every mask at once, and the mask with the
//! least `H` is taken. When the rare list grows past 1% of `n` the mask is chosen again, at
//! most once per doubling of `n` (from the whole table, rebuilding the rare list). When the
//! best mask still leaves more than a quarter of the positions rare, or over a window of 4096
//! heaps the rare splits and scans cost more than a third of the splits the dense kernel would
//! visit and a mask chosen again from the whole table still leaves more than an eighth of the
//! positions rare, [`extend`] stops and leaves the rest to the dense kernel. The values are exactly the
//! dense kernel's: the method changes only which splits are looked at, never the mex.
//!
//! Besides, [`extend`] stops computing as soon as the table proves its own period by the
//! periodicity theorem ([`crate::theory::periodicity`]: Guy & Smith 1956; Winning Ways ch. 4;
//! for a finite code with last non-zero digit `d_t` whose moves leave at most `h` heaps,
//! `G(n + p) = G(n)` for `n0 ≤ n < h·max(n0, 1) + (h − 1)·p + t` implies it for every
//! `n ≥ n0`) and extends the table by that period: checked when a call starts and
//! whenever the table length reaches a power of two. The values are exact either way.
//!
//! **Modifiers on two-heap splits.** A digit with `!` allows only splits into two *different*
//! heaps, `a ≠ m − a` (Grundy's game is `4!.0`: split one heap into two unequal ones); `?`
//! ("not all equal") on a digit of at most two heaps is the same and the code normalizer
//! writes it `!`. The class argument above is unchanged: the splits of a `!` digit are those
//! of a plain digit less the one with `a = m/2`, so the kernel skips that pair both in the
//! rare enumeration (`r = m − r`) and in the scan (which stops at `(m − 1)/2` instead of
//! `m/2`; that bound still shrinks as `k` grows, so the live `k`s stay a prefix). A digit with
//! `=` on two heaps allows only the equal split, worth `G(m/2) ⊕ G(m/2) = 0` when `m` is even;
//! the kernel inserts that 0 directly and keeps such `k`s out of the split list. The
//! periodicity theorem does not hold for these codes (its map from a split of `n + p − k` to
//! one of `n − k` shrinks one part by `p` and can make unequal parts equal), so the
//! proved-period fill is off whenever the code has a modifier. Digits leaving three or more
//! heaps, and infinite codes, stay with the dense kernel. Grundy's game is the classic sparse
//! game (its rare values stay few: Flammenkamp's computations of it, OEIS A002188); here
//! 1273 positions below `2^20` are rare (mask 254, no parity bit), all of them below
//! 2^17.
//!
//! Not every octal game is sparse. Dawson's Kayles (0.07) and Dawson's chess (0.137) have a 0
//! (always rare) and other rare values throughout their period, about a third of all positions
//! under the best mask, so they stay with the dense kernel until their period is proved; Kayles (0.77) has 9 rare positions,
//! 0.16 and 0.56 about 50 up to 10⁵.

use std::ops::Range;
use std::time::{Duration, Instant};

use super::mex::FlagSet;
use super::table::{with_values, SgValue, Storage, Values};
use super::{Progress, SgTable};
use crate::rules::code::{Modifier, TakeBreakCode};
use crate::theory::periodicity::Theorem;
use crate::theory::sparse_space::parity_bit_allowed;
pub use crate::theory::sparse_space::Mask;

/// How often (in heaps) the progress bar is updated and the cost is reviewed.
const PROGRESS_EVERY: usize = 4096;

/// The mask uses at most this many value bits (the transform has `2^(bits + 1)` entries).
const MASK_BITS: u32 = 20;

/// From this many heaps on, the mask is chosen again whenever the table has doubled.
const RECHOOSE_EVERY_DOUBLING_FROM: usize = 1 << 16;

/// Heaps below this are never a reason to give up (the costs are too small to compare).
const GIVE_UP_FROM: usize = 2048;

/// Splits scanned per splitting `k` before the candidate is tested again.
const SCAN_BLOCK: usize = 32;

/// True when `code` is one the sparse kernel handles: finite, no move leaves more than two
/// heaps (every finite octal code), and no modifier other than `!` (`?` on a digit of at most
/// two heaps is normalized to `!`) or `=` (see the module docs).
pub fn applies(code: &TakeBreakCode) -> bool {
    let code = code.normalized();
    code.is_finite()
        && code.max_heaps().is_some_and(|most| most <= 2)
        && code.digits.iter().all(|d| {
            matches!(
                d.modifier,
                Modifier::None | Modifier::Unequal | Modifier::Equal
            )
        })
}

/// Extends `table` (holding `G(0..table.len())`) towards `G(0..len)` for a code that
/// [`applies`], stopping early when the game does not look sparse (few rare positions under
/// the best mask) so that the caller can finish with the dense kernel. Returns true when the
/// table reaches `len`.
///
/// The working state (mask, rare list, the second thread's copies) is taken from `state` when
/// it was left there by a call that ended at this table's length for this code, and is rebuilt
/// from the whole table otherwise; a call that reaches `len` leaves its state there. A run in
/// chunks (see [`crate::engine::extend_in_chunks`]) so pays the rebuild once, not per chunk.
pub fn extend(
    code: &TakeBreakCode,
    table: &mut SgTable,
    len: usize,
    progress: &mut Progress,
    state: &mut SparseState,
) -> bool {
    extend_with(code, table, len, progress, Policy::new(true, true), state).0
}

/// The sparse kernel's working state between two [`extend`] calls on one table (see there).
#[derive(Default)]
pub struct SparseState {
    saved: Option<Saved>,
}

/// What a call leaves for the next one.
struct Saved {
    code: TakeBreakCode,
    /// The table length the state is for.
    len: usize,
    kernel: Kernel,
    order_trial: OrderTrial,
    helper: Option<Helper>,
}

impl SparseState {
    /// True when a call left its state here.
    pub fn is_kept(&self) -> bool {
        self.saved.is_some()
    }
}

/// What an [`extend_with`] call may do besides computing every value.
#[derive(Clone, Copy)]
struct Policy {
    /// Stop when the game does not look sparse (tests turn this off to check the sparse logic
    /// on any game).
    may_give_up: bool,
    /// Fill the table by a period the periodicity theorem proves.
    may_fill: bool,
    /// Give the far splits to a second thread (see the module docs).
    pipeline: Option<Pipeline>,
}

impl Policy {
    /// The pipeline when the current rayon pool has two threads or more.
    fn new(may_give_up: bool, may_fill: bool) -> Self {
        let pipeline = (rayon::current_num_threads() >= 2).then_some(Pipeline {
            block: PIPELINE_BLOCK,
            min_work: PIPELINE_WORK,
        });
        Policy {
            may_give_up,
            may_fill,
            pipeline,
        }
    }
}

/// The shape of the two-thread pipeline.
#[derive(Clone, Copy)]
struct Pipeline {
    /// Heaps per block; the far splits start at twice this.
    block: usize,
    /// Splits per heap below which a block is computed by one thread.
    min_work: u64,
}

/// [`extend`] under `policy`. Returns whether the table reached `len`, and how many blocks had
/// their far splits computed by a second thread.
fn extend_with(
    code: &TakeBreakCode,
    table: &mut SgTable,
    len: usize,
    progress: &mut Progress,
    policy: Policy,
    state: &mut SparseState,
) -> (bool, usize) {
    let Policy {
        may_give_up,
        may_fill,
        pipeline,
    } = policy;
    assert!(applies(code), "the sparse kernel needs a finite octal code");
    let start = table.len();
    if start >= len {
        return (true, 0);
    }
    // The theorem does not cover `!` and `=` codes: its shrink map `(a, b) → (a, b − p)` may
    // turn two unequal heaps into equal ones (or equal into unequal).
    let theorem = if may_fill {
        Theorem::for_code(code).ok()
    } else {
        None
    };
    // The theorem is tried at each power of two (here and in `Run::heaps`): a try costs up to
    // `8·len` comparisons, too many for every call of a run that comes in chunks.
    if start.is_power_of_two()
        && theorem.is_some_and(|theorem| fill_proven_period(table, len, &theorem))
    {
        progress.set(len as u64);
        return (true, 0);
    }
    let saved = state.saved.take();
    let saved = saved.filter(|saved| saved.len == start && saved.code == *code);
    let (kernel, order_trial, helper) = match saved {
        Some(saved) => (saved.kernel, saved.order_trial, saved.helper),
        None => (Kernel::new(code, table), OrderTrial::default(), None),
    };
    if may_give_up && start >= GIVE_UP_FROM && kernel.rare.len() * 4 > start {
        return (false, 0);
    }
    table.reserve(len - start);
    let mut run = Run {
        kernel,
        table,
        progress,
        window: Window {
            start,
            ..Window::default()
        },
        len,
        theorem,
        may_give_up,
        evaluated_before: 0,
        helped_blocks: 0,
        order_trial,
        helper,
    };
    // The pipeline runs inside the pool, so that each block's `join` only pushes the helper's
    // job to a worker's queue.
    let stop = match pipeline {
        Some(pipeline) => rayon::scope(|_| run.pipelined(pipeline)),
        None => run.heaps(start..len, None),
    };
    if let Some(finished) = stop {
        return (finished, run.helped_blocks);
    }
    run.progress.set(len as u64);
    *state = SparseState {
        saved: Some(Saved {
            code: code.clone(),
            len,
            kernel: run.kernel,
            order_trial: run.order_trial,
            helper: run.helper,
        }),
    };
    (true, run.helped_blocks)
}

/// The state of one [`extend_with`] call that the main thread updates heap by heap.
struct Run<'a> {
    kernel: Kernel,
    table: &'a mut SgTable,
    progress: &'a mut Progress,
    window: Window,
    /// The table length the call extends to.
    len: usize,
    /// The periodicity theorem for the code, when the table may be filled by a period it
    /// proves.
    theorem: Option<Theorem>,
    may_give_up: bool,
    /// Splits evaluated in the windows before the current one.
    evaluated_before: u64,
    /// Blocks whose far splits a second thread computed.
    helped_blocks: usize,
    /// Picks the order of the scans.
    order_trial: OrderTrial,
    /// The second thread's copies, kept from an earlier call or made by [`Run::pipelined`].
    helper: Option<Helper>,
}

impl Run<'_> {
    /// [`Run::heaps`] for the rest of the table, block by block, with the far splits of the
    /// next block computed by a second thread meanwhile (see the module docs).
    fn pipelined(&mut self, pipeline: Pipeline) -> Option<bool> {
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

    /// Splits evaluated so far.
    fn evaluated(&self) -> u64 {
        self.evaluated_before + self.window.sparse
    }

    /// Computes `G(n)` for the heaps `heaps` (starting at the table's length), with their far
    /// splits from `far` when it covers them under the current mask. Returns `Some(finished)`
    /// when the call should stop: the table was filled by a proven period (`true`) or the game
    /// is not sparse (`false`).
    fn heaps(&mut self, heaps: Range<usize>, far: Option<&FarSets>) -> Option<bool> {
        let kernel = &mut self.kernel;
        for n in heaps {
            let part = far
                .filter(|far| far.mask == kernel.mask)
                .map(|far| far.part(n));
            let window = &mut self.window;
            let value = with_values!(self.table.storage(), |g| kernel.value(g, window, part));
            self.table.push(value);
            kernel.record(n, value);
            // Try the periodicity theorem each time the table's length is a power of two.
            let power_of_two = (n + 1).is_power_of_two();
            if power_of_two
                && (self.theorem.as_ref())
                    .is_some_and(|theorem| fill_proven_period(self.table, self.len, theorem))
            {
                self.progress.set(self.len as u64);
                return Some(true);
            }
            // Choose the mask again once the table has doubled since the last choice, if the rare
            // list passed 1% of the heaps, and always past 2^16 heaps (O(n) per doubling): new
            // value bits need a mask that sees them (Grundy's game passes 255 near 7.25·10^6;
            // mask 254 chosen before then would leave the rare list to grow).
            let doubled = n >= 2 * kernel.chosen_at;
            if doubled && (kernel.rare.len() * 100 > n || n >= RECHOOSE_EVERY_DOUBLING_FROM) {
                kernel.choose_mask(self.table);
                if self.may_give_up && n >= GIVE_UP_FROM && kernel.rare.len() * 4 > n {
                    self.progress.set(n as u64 + 1);
                    return Some(false);
                }
            }
            if n + 1 - window.start >= PROGRESS_EVERY {
                self.progress.set(n as u64 + 1);
                // The scans and rare splits should stay well below the dense kernel's cost. A
                // better mask may have shown up since the last choice (Grundy's game: at 4096
                // heaps mask 126 leaves 10% of the positions rare, at 16384 mask 254 leaves 7%
                // and falling, 0.12% at 2^20), so choose again first, and give up only if more
                // than an eighth of all positions and a sixth of the window's are still rare: a
                // game whose rare positions thin out is kept (0.6: 16% of the first 8192 heaps
                // are rare, 12% of heaps 4096..8192, and 1583 positions in all up to 2^19).
                if self.may_give_up && n >= GIVE_UP_FROM && window.sparse * 3 > window.dense {
                    kernel.choose_mask(self.table);
                    let recent =
                        kernel.rare.len() - kernel.rare.partition_point(|&r| r < window.start);
                    if kernel.rare.len() * 8 > n && recent * 6 > n + 1 - window.start {
                        return Some(false);
                    }
                }
                self.evaluated_before += window.sparse;
                let scan_cost = window.scanned as f64 / (n + 1 - window.start) as f64;
                *window = Window {
                    start: n + 1,
                    ..Window::default()
                };
                self.order_trial.next_window(scan_cost, kernel);
            }
        }
        None
    }
}

/// Picks the order of each window's scans (see [`scan_order`]) from the cost of the last
/// window (splits scanned per heap): every [`ORDER_TRIAL_EVERY`] windows one runs in order and
/// the next spread, and the spread order is kept until the next trial if it scanned under
/// three quarters of the splits (it touches more cache lines per split). Only the cost depends
/// on the order, never the values.
#[derive(Default)]
struct OrderTrial {
    /// Windows finished.
    windows: usize,
    /// Splits scanned per heap in the last in-order trial.
    in_order_cost: f64,
}

impl OrderTrial {
    fn next_window(&mut self, scan_cost: f64, kernel: &mut Kernel) {
        let phase = self.windows % ORDER_TRIAL_EVERY;
        self.windows += 1;
        match phase {
            0 => {
                self.in_order_cost = scan_cost;
                kernel.spread_scan = true;
            }
            1 => kernel.spread_scan = scan_cost < 0.75 * self.in_order_cost,
            _ if phase == ORDER_TRIAL_EVERY - 1 => kernel.spread_scan = false,
            _ => {}
        }
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
const PIPELINE_BLOCK: usize = 512;

/// The second thread takes the rare parts below this, and its copy of the table holds about
/// as many values (2^22: 8 MB for `u16` values, next to the 512 MB of a `u16` table of 2^28).
const HELPER_REACH: usize = 1 << 22;

/// Splits per heap below which the pipeline pays less than the hand-over between threads
/// costs (measured: octal 0.354 evaluates about 330 splits per heap and runs slower on two
/// threads, Grundy's game about 2500 and runs faster).
const PIPELINE_WORK: u64 = 1000;

/// The splits of each heap of a block that a second thread inserted: every split with a rare
/// part `r` in `near ≤ r < rare_until`, and the scanned splits `near ≤ a < scan_to`.
struct FarSets {
    /// The first heap, and the flags of each heap (`width` bytes each).
    first: usize,
    width: usize,
    flags: Vec<u8>,
    /// The mask the rare parts were chosen by.
    mask: Mask,
    near: usize,
    rare_until: usize,
    scan_to: usize,
    /// Splits evaluated.
    work: u64,
}

impl FarSets {
    /// The part of heap `n`.
    fn part(&self, n: usize) -> FarPart<'_> {
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
struct FarPart<'a> {
    flags: &'a [u8],
    near: usize,
    rare_until: usize,
    scan_to: usize,
}

/// The second thread's copy of what it reads: its own copies, so that the main thread may
/// append to the table meanwhile.
struct Helper {
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
        // Store both copies in the wider of their widths (a value that needs it); they are
        // plain slices (never 9-bit), which `Job::heap` reads side by side.
        let needs_width = match self.low.value_bits().max(self.recent.value_bits()) {
            8 => 0,
            16 => u32::from(u8::MAX) + 1,
            _ => u32::from(u16::MAX) + 1,
        };
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
            width: (self.low.max_value().max(self.recent.max_value()) + 1).next_power_of_two(),
        })
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

/// If the periodicity theorem proves a period from `table` (see [`proven_period`]), extends
/// `table` to `len` values by it and returns true.
fn fill_proven_period(table: &mut SgTable, len: usize, theorem: &Theorem) -> bool {
    let Some((_, period)) = proven_period(table, theorem) else {
        return false;
    };
    table.reserve(len.saturating_sub(table.len()));
    for n in table.len()..len {
        table.push(table.get(n - period));
    }
    true
}

/// A preperiod `n0` and period `p` that `theorem` proves from `table`: `G(n + p) = G(n)` for
/// `n0 ≤ n < B`, with the bound `B` of [`Theorem::bound`], so that the table holds the
/// [`Theorem::needed_len`] values `G(0..B + p)`. Tries `p = 1, 2, …` while a proof from
/// `n0 = 0` could fit; each try compares from the end of the table down to its first mismatch,
/// and the search gives up after about `8·len` comparisons.
fn proven_period(table: &SgTable, theorem: &Theorem) -> Option<(usize, usize)> {
    let len = table.len();
    let fits = |n0, p| {
        theorem
            .needed_len(n0, p)
            .is_some_and(|needed| needed <= len)
    };
    let mut budget = 8 * len + 1024;
    // `needed_len(n0, p)` grows with `n0` and `p`: no larger period fits once `(0, p)` does not.
    for period in (1..).take_while(|&p| fits(0, p)) {
        // The last `n` with `G(n) ≠ G(n + p)`, plus one.
        let mut preperiod = 0;
        for n in (0..len - period).rev() {
            budget = budget.checked_sub(1)?;
            if table.get(n) != table.get(n + period) {
                preperiod = n + 1;
                break;
            }
        }
        if fits(preperiod, period) {
            return Some((preperiod, period));
        }
    }
    None
}

/// Work done in the heaps since the last review, in pairs looked at.
#[derive(Default)]
struct Window {
    /// The first heap of the window.
    start: usize,
    /// Splits the sparse kernel evaluated (rare splits and scanned splits).
    sparse: u64,
    /// Splits the dense kernel would have evaluated.
    dense: u64,
    /// Splits the main thread's scans evaluated (part of `sparse`).
    scanned: u64,
}

/// Picks the mask with the fewest rare positions among `1..values.len()`
/// (see the module docs), `largest` being the largest of them; `parity` allows the heap-parity
/// bit.
pub fn best_mask(values: impl Iterator<Item = u32>, largest: u32, parity: bool) -> Mask {
    let bits = (32 - largest.leading_zeros()).clamp(1, MASK_BITS);
    let low = (1u32 << bits) - 1;
    let size = 1usize << (bits + u32::from(parity));
    let mut h = vec![0i64; size];
    for (x, v) in values.enumerate().skip(1) {
        let parity_bit = if parity { (x % 2) << bits } else { 0 };
        h[(v & low) as usize | parity_bit] += 1;
    }
    // In-place Walsh–Hadamard transform: h[M] becomes Σ_i h[i] (−1)^popcount(i & M).
    let mut half = 1;
    while half < size {
        for block in (0..size).step_by(2 * half) {
            for i in block..block + half {
                let (a, b) = (h[i], h[i + half]);
                h[i] = a + b;
                h[i + half] = a - b;
            }
        }
        half *= 2;
    }
    // Mask 0 makes every value rare; among the rest take the least #rare − #common.
    let best = (1..size).min_by_key(|&m| (h[m], m)).unwrap_or(1);
    Mask {
        values: best as u32 & low,
        parity: parity && best >> bits != 0,
    }
}

struct Kernel {
    /// `k ≥ 1` whose digit allows leaving no heap.
    zero_ks: Vec<usize>,
    /// `k ≥ 1` whose digit allows leaving one heap.
    one_ks: Vec<usize>,
    /// `k ≥ 0` whose digit allows leaving two heaps (not under `=`), increasing.
    split_ks: Vec<usize>,
    /// For each of `split_ks`: the digit carries `!`, so the two heaps must differ.
    split_unequal: Vec<bool>,
    /// `k ≥ 0` whose digit allows leaving two *equal* heaps only (`=`): value 0 when
    /// `n − k ≥ 2` is even.
    equal_ks: Vec<usize>,
    /// Every splitting `k` has the same parity, so the heap-parity bit may be used.
    parity_allowed: bool,
    mask: Mask,
    /// Rare positions `x ≥ 1`, increasing, and their values.
    rare: Vec<usize>,
    rare_values: Vec<u32>,
    /// Table length when the mask was last chosen.
    chosen_at: usize,
    set: FlagSet,
    /// The order of the scan's blocks (see [`scan_order`]).
    spread_scan: bool,
}

impl Kernel {
    fn new(code: &TakeBreakCode, table: &SgTable) -> Self {
        let code = code.normalized();
        let with_bit = |bit: u32, from: usize, keep: &dyn Fn(Modifier) -> bool| -> Vec<usize> {
            let digits = code.digits.iter().enumerate().skip(from);
            digits
                .filter(|(_, d)| d.heaps.allows(bit) && keep(d.modifier))
                .map(|(k, _)| k)
                .collect()
        };
        let any = |_: Modifier| true;
        let split_ks = with_bit(2, 0, &|m| m != Modifier::Equal);
        let split_unequal = split_ks
            .iter()
            .map(|&k| code.digits[k].modifier == Modifier::Unequal)
            .collect();
        let parity_allowed = parity_bit_allowed(&code);
        let mut kernel = Kernel {
            zero_ks: with_bit(0, 1, &any),
            one_ks: with_bit(1, 1, &any),
            equal_ks: with_bit(2, 0, &|m| m == Modifier::Equal),
            split_ks,
            split_unequal,
            parity_allowed,
            mask: Mask {
                values: 1,
                parity: false,
            },
            rare: Vec::new(),
            rare_values: Vec::new(),
            chosen_at: 0,
            spread_scan: false,
            set: FlagSet::for_values_up_to(table.max_value()),
        };
        kernel.choose_mask(table);
        kernel
    }

    /// Chooses the mask from every value in `table` and rebuilds the rare list: two passes
    /// over the table, read in its own width.
    fn choose_mask(&mut self, table: &SgTable) {
        self.set.fit(table.max_value());
        with_values!(table.storage(), |values| {
            let all = (0..values.len()).map(|x| values.at(x));
            self.mask = best_mask(all.clone(), table.max_value(), self.parity_allowed);
            self.chosen_at = values.len();
            self.rare.clear();
            self.rare_values.clear();
            for (x, value) in all.enumerate().skip(1) {
                if self.mask.is_rare(x, value) {
                    self.rare.push(x);
                    self.rare_values.push(value);
                }
            }
        });
    }

    /// Notes `G(x) = value`, adding `x` to the rare list if it is rare.
    fn record(&mut self, x: usize, value: u32) {
        self.set.fit(value);
        if x >= 1 && self.mask.is_rare(x, value) {
            self.rare.push(x);
            self.rare_values.push(value);
        }
    }

    /// `G(n)` for `n = g.len()`, given `g = G(0..n)`.
    fn value<V: Values + ?Sized>(
        &mut self,
        g: &V,
        window: &mut Window,
        far: Option<FarPart>,
    ) -> u32 {
        let n = g.len();
        let set = &mut self.set;
        match far {
            Some(far) => set.reset_to(far.flags),
            None => set.clear(),
        }
        if self.zero_ks.contains(&n) {
            set.insert(0);
        }
        for &k in self.one_ks.iter().take_while(|&&k| k < n) {
            set.insert(g.at(n - k));
        }
        // `=`: two equal heaps, value G(m/2) ⊕ G(m/2) = 0.
        if self
            .equal_ks
            .iter()
            .any(|&k| k + 2 <= n && (n - k).is_multiple_of(2))
        {
            set.insert(0);
        }
        // The rare parts the second thread took (indices into the rare list), if any.
        let far_rare = far.map_or(0..0, |far| {
            let index = |x: usize| self.rare.partition_point(|&r| r < x);
            index(far.near)..index(far.rare_until)
        });
        // Splits with a rare part; and which value class common ⊕ common can produce.
        let splits = self.split_ks.iter().take_while(|&&k| k + 2 <= n);
        let mut missable = [false; 2];
        for (&k, &unequal) in splits.clone().zip(&self.split_unequal) {
            let m = n - k;
            window.dense += (m / 2) as u64;
            missable[usize::from(self.mask.parity && m % 2 == 1)] = true;
            let below = self.rare.partition_point(|&r| r < m);
            // `!`: not the split into two equal heaps.
            let equal = unequal && m.is_multiple_of(2);
            let half = equal
                .then(|| self.rare[..below].binary_search(&(m / 2)).ok())
                .flatten();
            let mut cuts = [far_rare.clone(), half.map_or(0..0, |i| i..i + 1)];
            cuts.sort_by_key(|cut| cut.start);
            // Every rare index below `below` outside the cuts.
            let mut from = 0;
            for cut in cuts.into_iter().chain(std::iter::once(below..below)) {
                let to = cut.start.clamp(from, below);
                let rare = self.rare[from..to].iter().zip(&self.rare_values[from..to]);
                set.insert_xors::<V>(rare.map(|(&r, &v)| v ^ g.at(m - r)));
                window.sparse += (to - from) as u64;
                from = from.max(cut.end.min(below));
            }
        }
        // Scan every split, a block of `a`s at a time across the splitting `k`s (a value missing
        // from one `k`'s splits often comes early in another's). Inserting a whole block and
        // testing the candidate once is cheaper than testing after every insert, and the extra
        // values are real options. `k` increasing means `m` decreasing, and so the last `a` of
        // a `k` (`m/2`, or `(m − 1)/2` under `!`, which is still at least the next `k`'s `m/2`)
        // is non-increasing: the `k`s with `a ≤ last` are a prefix. The blocks come in the
        // order of [`scan_order`]; the second thread's scanned splits `near ≤ a < scan_to` are
        // skipped.
        let skip = far.map_or(0..0, |far| far.near..far.scan_to);
        let count = splits.count();
        let mut c = set.mex();
        let longest = self.split_ks[..count]
            .iter()
            .zip(&self.split_unequal)
            .map(|(&k, &unequal)| last_split(n - k, unequal))
            .max()
            .unwrap_or(0);
        for block in scan_order(longest, self.spread_scan) {
            if !missable[((c & self.mask.values).count_ones() % 2) as usize] {
                return c;
            }
            let from = 1 + block * SCAN_BLOCK;
            for (&k, &unequal) in self.split_ks[..count].iter().zip(&self.split_unequal) {
                let m = n - k;
                let last = last_split(m, unequal);
                if from > last {
                    break;
                }
                let to = (from + SCAN_BLOCK).min(last + 1);
                // `from..to` less the second thread's `skip`: at most two pieces.
                for piece in [from..to.min(skip.start), from.max(skip.end)..to] {
                    if !piece.is_empty() {
                        set.insert_pairs(g, m, piece.start, piece.end);
                        window.sparse += piece.len() as u64;
                        window.scanned += piece.len() as u64;
                    }
                }
            }
            if set.contains(c) {
                c = set.mex();
            }
        }
        // Every split has been seen: the set is complete and `c` is its mex.
        c
    }
}

/// The last `a` of the splits `a + (m − a)` of a heap of `m` (`a ≤ m − a`, and `a ≠ m − a` for
/// a digit with `!`).
fn last_split(m: usize, unequal: bool) -> usize {
    if unequal {
        m.saturating_sub(1) / 2
    } else {
        m / 2
    }
}

/// Windows of [`PROGRESS_EVERY`] heaps between two trials of the scan orders.
const ORDER_TRIAL_EVERY: usize = 16;

/// Blocks scanned in order before the shuffled ones.
const FIRST_BLOCKS: usize = 16;

/// Blocks scanned in a shuffled order before the rest go in order.
const SHUFFLED_BLOCKS: usize = 2048;

/// The order in which the scan visits the blocks `1 + 32·b ..` of the splits `a ≤ longest`:
/// every block once. In order unless `spread`; spread, the first [`FIRST_BLOCKS`] come first;
/// then the others among the first
/// `P` blocks (`P` the largest power of two up to [`SHUFFLED_BLOCKS`] and the number of
/// blocks) in the order `b = j·s mod P` for an odd `s` (a permutation of `0..P`); then the
/// rest in order.
///
/// Why: the scan stops as soon as every value below the candidate has been seen. Many games
/// do best in order (octal 0.376: spread costs 5% more), but in Grundy's game the
/// values of neighbouring splits are strongly correlated (it is nearly periodic with period 3),
/// so consecutive blocks keep producing the same values. Blocks spread over `a < 2^16` reach
/// the last missing value after about half as many splits (measured at n ≈ 4·10^6: 1452
/// instead of 3086), while both halves of each pair stay in the cache: `a < 2^16` and
/// `m − a > m − 2^16`.
fn scan_order(longest: usize, spread: bool) -> impl Iterator<Item = usize> {
    let blocks = longest.div_ceil(SCAN_BLOCK);
    let shuffled = if blocks == 0 || !spread {
        0
    } else {
        (1usize << blocks.ilog2()).min(SHUFFLED_BLOCKS)
    };
    let first = FIRST_BLOCKS.min(shuffled);
    // The golden-ratio multiplier of Fibonacci hashing (odd).
    const SPREAD: usize = 0x9E37_79B9;
    (0..first)
        .chain(
            (0..shuffled)
                .map(move |j| j.wrapping_mul(SPREAD) & (shuffled - 1))
                .filter(move |&b| b >= first),
        )
        .chain(shuffled..blocks)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::engine::{naive, takebreak};
    use crate::rules::code::{Digit, Notation};

    fn code(text: &str) -> TakeBreakCode {
        TakeBreakCode::parse(text, Notation::General, 0).unwrap()
    }

    fn theorem(text: &str) -> Theorem {
        Theorem::for_code(&code(text)).unwrap()
    }

    /// [`extend_with`] with a hidden progress bar and no state kept from an earlier call.
    fn run_once(
        code: &TakeBreakCode,
        table: &mut SgTable,
        len: usize,
        policy: Policy,
    ) -> (bool, usize) {
        extend_with(
            code,
            table,
            len,
            &mut Progress::hidden(),
            policy,
            &mut SparseState::default(),
        )
    }

    /// `G(0..len)` by the sparse kernel alone, from an empty table (9-bit as soon as a value
    /// passes 255), never giving up and never filling by a proven period.
    fn sparse_values(code: &TakeBreakCode, len: usize) -> Vec<u32> {
        let mut table = SgTable::packed_from(0);
        let policy = Policy::new(false, false);
        let finished = run_once(code, &mut table, len, policy).0;
        assert!(finished);
        table.to_vec()
    }

    /// `G(0..len)` by the dense kernel alone.
    fn dense_values(code: &TakeBreakCode, len: usize) -> Vec<u32> {
        let mut table = SgTable::new();
        takebreak::extend_dense(code, &mut table, len, &mut Progress::hidden());
        table.to_vec()
    }

    /// `G(0..len)` by the sparse kernel alone inside a pool of `threads` threads, the second
    /// thread taking the far splits of blocks of `block` heaps however cheap they are; and how
    /// many blocks it took. The table is 9-bit as soon as a value passes 255.
    fn pipelined_values(
        code: &TakeBreakCode,
        len: usize,
        threads: usize,
        block: usize,
    ) -> (Vec<u32>, usize) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut table = SgTable::packed_from(0);
            let policy = Policy {
                may_give_up: false,
                may_fill: false,
                pipeline: Some(Pipeline { block, min_work: 0 }),
            };
            let run = run_once(code, &mut table, len, policy);
            assert!(run.0);
            (table.to_vec(), run.1)
        })
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

    #[test]
    fn applies_to_finite_two_heap_codes_with_unequal_or_equal_splits() {
        let two_heaps = ["0.07", "0.77", "0.137", "4.07", "0.0", "0.3"];
        let modified = ["0.7!", "4!.0", "4?.0", "0.4!7", "0.7=", "4=.07"];
        for text in two_heaps.into_iter().chain(modified) {
            assert!(applies(&code(text)), "{text}");
        }
        for text in ["0.[3]", "0.8", "0.F!", "0.C?", "0.{2+}", "0.F"] {
            assert!(!applies(&code(text)), "{text}");
        }
    }

    #[test]
    fn the_transform_finds_the_mask_with_fewest_rare_positions() {
        // Values 1, 2, …, 3 after G(0): masks 1 and 2 leave three rare positions, 3 only one.
        let values = [0, 1, 2, 1, 2, 1, 2, 3];
        let mask = best_mask(values.iter().copied(), 3, false);
        assert_eq!(mask.values, 3);
        // G(x) = 0 at odd x and 1 at even x: value 0 is rare under every value mask, but with
        // the parity bit (mask 1) every position x ≥ 1 is common.
        let values: Vec<u32> = (0..40).map(|x| (x % 2 == 0) as u32).collect();
        let rare = |mask: Mask| (1..40).filter(|&x| mask.is_rare(x, values[x])).count();
        let mask = best_mask(values.iter().copied(), 1, true);
        assert_eq!(
            mask,
            Mask {
                values: 1,
                parity: true
            }
        );
        assert_eq!(rare(mask), 0);
        assert_eq!(rare(best_mask(values.iter().copied(), 1, false)), 20);
    }

    #[test]
    fn dawsons_kayles_period_34_from_53() {
        let values = sparse_values(&code("0.07"), 20_000);
        assert_eq!(values, dense_values(&code("0.07"), 20_000));
        // Dawson's Kayles: period 34 from n = 53 (Guy & Smith 1956; Winning Ways ch. 4).
        assert!((53..20_000 - 34).all(|n| values[n] == values[n + 34]));
        assert_ne!(values[52], values[52 + 34]);
    }

    #[test]
    fn known_octal_games_match_the_dense_kernel() {
        for (text, len) in [
            ("0.77", 20_000),
            ("0.137", 20_000),
            ("0.16", 20_000),
            ("0.56", 20_000),
            ("4.07", 3_000),
            ("0.64", 20_000),
        ] {
            let code = code(text);
            assert_eq!(
                sparse_values(&code, len),
                dense_values(&code, len),
                "{text}"
            );
        }
    }

    #[test]
    fn the_theorem_proves_a_period_exactly_at_its_bound() {
        // Dawson's Kayles (t = 2): period 34 from 53 needs 2·53 + 2·34 + 2 = 176 values.
        let dawson = theorem("0.07");
        let values = dense_values(&code("0.07"), 176);
        assert_eq!(
            proven_period(&SgTable::from_values(&values), &dawson),
            Some((53, 34))
        );
        let short = SgTable::from_values(&values[..175]);
        assert_eq!(proven_period(&short, &dawson), None);
        // Kayles: period 12 from 71 (Guy & Smith 1956), 2·71 + 2·12 + 2 = 168 values.
        let kayles = theorem("0.77");
        let values = dense_values(&code("0.77"), 168);
        assert_eq!(
            proven_period(&SgTable::from_values(&values), &kayles),
            Some((71, 12))
        );
        assert_eq!(
            proven_period(&SgTable::from_values(&values[..167]), &kayles),
            None
        );
        // An empty or tiny table proves nothing.
        let no_digits = Theorem {
            heaps: 2,
            last_digit: 0,
        };
        assert_eq!(proven_period(&SgTable::new(), &no_digits), None);
        assert_eq!(proven_period(&SgTable::from_values(&[0]), &no_digits), None);
    }

    #[test]
    fn a_period_from_0_needs_the_bound_that_counts_n0_as_1() {
        // 0.4 (take one token, leave exactly two heaps): G = 0 0 0 1 …. G(0..3) = 0 0 0 has
        // G(n + 1) = G(n) for n < 2 = 2·n0 + p + t with n0 = 0 (the classical bound) and holds
        // the 2·n0 + 2·p + t = 3 values that bound reads: a fill by it would give G(3) = 0.
        // The theorem counts n0 = 0 as 1: B = 2·1 + 1 + 1 = 4, so period 1 from 0 needs 5
        // values, and G(3) refutes it.
        let code = code("0.4");
        let values = dense_values(&code, 8);
        assert_eq!(values[..4], [0, 0, 0, 1]);
        let theorem = theorem("0.4");
        assert_eq!(theorem.needed_len(0, 1), Some(5));
        let mut table = SgTable::from_values(&values[..3]);
        assert_eq!(proven_period(&table, &theorem), None);
        assert!(!fill_proven_period(&mut table, 8, &theorem));
        assert_eq!(table.to_vec(), values[..3]);
        // Through the kernel, which tries the theorem when the table reaches 4 values.
        let policy = Policy::new(false, true);
        let call = extend_with(
            &code,
            &mut table,
            8,
            &mut Progress::hidden(),
            policy,
            &mut SparseState::default(),
        );
        assert!(call.0);
        assert_eq!(table.to_vec(), values);
    }

    #[test]
    fn periodic_games_are_filled_by_their_proven_period() {
        // Through the wiring, from empty tables and in steps; values as the dense kernel's.
        for text in ["0.07", "0.77", "0.137", "4.07", "0.0"] {
            let code = code(text);
            let mut table = SgTable::new();
            for len in [50, 5_000, 30_000] {
                takebreak::extend(&code, &mut table, len, &mut Progress::hidden());
            }
            assert_eq!(table.to_vec(), dense_values(&code, 30_000), "{text}");
        }
    }

    /// Checks `G(n + period) = G(n)` for `preperiod ≤ n` up to the bound of the octal
    /// periodicity theorem (Guy & Smith 1956; Winning Ways ch. 4): for a finite code whose last
    /// non-zero digit is `d_t`, `2·preperiod + period + t` heaps, which proves the period; and
    /// that it fails just before `preperiod`.
    fn assert_proved_period(text: &str, preperiod: usize, period: usize) {
        let code = code(text);
        let t = code.last_nonzero().unwrap();
        let len = 2 * preperiod + period + t + 1;
        // The sparse kernel alone: no filling by a period, which would make this circular.
        let values = sparse_values(&code, len);
        let first_miss = (preperiod..len - period).find(|&n| values[n] != values[n + period]);
        assert_eq!(first_miss, None, "{text}");
        assert_ne!(
            values[preperiod - 1],
            values[preperiod - 1 + period],
            "{text}"
        );
    }

    #[test]
    fn octal_016_and_056_have_their_published_periods() {
        // Gangolli & Plambeck 1989: 0.16 has preperiod 105351 and period 149459; 0.56 has
        // preperiod 326640 and period 144 (also in Flammenkamp's octal game tables).
        assert_proved_period("0.16", 105_351, 149_459);
        assert_proved_period("0.56", 326_640, 144);
    }

    #[test]
    fn values_past_255_widen_the_table_mid_run() {
        // 0.04's values grow slowly and pass 255 before heap 20000 (but not 511), so the sparse
        // loop moves from the u8 to the 9-bit storage while it runs, on one thread and with the
        // second thread's plain copies beside it.
        let code = code("0.04");
        let mut table = SgTable::packed_from(0);
        let policy = Policy::new(false, false);
        assert!(run_once(&code, &mut table, 20_000, policy).0);
        assert_eq!(table.value_bits(), 9);
        let values = table.to_vec();
        assert!(values[..3_000].iter().all(|&v| v < 256) && values.iter().any(|&v| v >= 256));
        assert_eq!(values, dense_values(&code, 20_000));
        let (pipelined, helped) = pipelined_values(&code, 20_000, 2, 64);
        assert!(helped > 0);
        assert_eq!(pipelined, values);
    }

    #[test]
    fn heap_parity_in_the_mask() {
        // 0.051 splits only at k = 2; its rare positions are few only with the parity bit.
        let code = code("0.051");
        let len = 20_000;
        let values = dense_values(&code, len);
        let kernel = Kernel::new(&code, &SgTable::from_values(&values[..3_000]));
        assert!(
            kernel.mask.parity && kernel.rare.len() < 10,
            "{:?}",
            kernel.mask
        );
        assert_eq!(sparse_values(&code, len), values);
        // 0.77 splits at k = 1 and k = 2, so the parity bit would make no class exact.
        let kayles = Kernel::new(&self::code("0.77"), &SgTable::new());
        assert!(!kayles.parity_allowed);
    }

    #[test]
    fn gives_up_on_games_that_are_not_sparse() {
        // Dawson's Kayles has a 0 (always rare) every 34 heaps and more: about a third of its
        // positions are rare under every mask, so `extend` hands back to the dense kernel.
        let code = code("0.07");
        let mut table = SgTable::from_values(&dense_values(&code, 4_096));
        let give_up_only = |table: &mut SgTable, len| {
            extend_with(
                &code,
                table,
                len,
                &mut Progress::hidden(),
                Policy::new(true, false),
                &mut SparseState::default(),
            )
            .0
        };
        assert!(!give_up_only(&mut table, 6_000));
        assert_eq!(table.len(), 4_096);
        // From an empty table the mask is re-chosen as the table doubles; the rare list
        // passes a quarter of the heaps (or the scans cost too much) and the kernel stops soon
        // after heap 2048.
        let mut table = SgTable::new();
        assert!(!give_up_only(&mut table, 20_000));
        assert!((2_048..8_192).contains(&table.len()), "{}", table.len());
        assert_eq!(table.to_vec(), dense_values(&code, table.len()));
        // Kayles keeps nine rare positions.
        let code = self::code("0.77");
        let mut table = SgTable::from_values(&dense_values(&code, 4_096));
        assert!(
            extend_with(
                &code,
                &mut table,
                6_000,
                &mut Progress::hidden(),
                Policy::new(true, false),
                &mut SparseState::default(),
            )
            .0
        );
        assert_eq!(table.to_vec(), dense_values(&code, 6_000));
    }

    proptest! {
        /// Either order of the scan visits every block of splits exactly once, so a scan run
        /// to its end has seen every split.
        #[test]
        fn scan_orders_visit_every_block_once(longest in 0usize..200_000, spread: bool) {
            let mut blocks: Vec<usize> = scan_order(longest, spread).collect();
            let in_order = blocks.windows(2).all(|w| w[0] < w[1]);
            prop_assert!(spread || in_order);
            blocks.sort_unstable();
            prop_assert_eq!(blocks, (0..longest.div_ceil(SCAN_BLOCK)).collect::<Vec<_>>());
        }
    }

    /// Grundy's game, 4!.0: Winning Ways p. 96 and OEIS A002188, `G(0..=59)`.
    const GRUNDYS_GAME: [u32; 60] = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
        3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
    ];

    #[test]
    fn grundys_game_first_values() {
        assert_eq!(sparse_values(&code("4!.0"), 60), GRUNDYS_GAME);
        // `?` on two heaps is `!`.
        assert_eq!(sparse_values(&code("4?.0"), 60), GRUNDYS_GAME);
    }

    #[test]
    fn grundys_game_to_2_16_matches_the_dense_kernel() {
        let code = code("4!.0");
        let len = 1 << 16;
        let values = dense_values(&code, len);
        assert_eq!(sparse_values(&code, len), values);
        // Through the wiring (dense prefix, then the sparse kernel, which must not give up
        // or fill by a period), in steps.
        let mut table = SgTable::new();
        for step in [100, 5_000, 20_000, len] {
            takebreak::extend(&code, &mut table, step, &mut Progress::hidden());
        }
        assert_eq!(table.to_vec(), values);
        // Grundy's game is sparse: few rare positions under the chosen mask (1272 of 2^16,
        // under 2%), far below the eighth at which the kernel gives up.
        let kernel = Kernel::new(&code, &table);
        assert!(kernel.rare.len() * 20 < len, "{}", kernel.rare.len());
    }

    #[test]
    fn no_period_fill_for_modified_codes() {
        // 4!.0 and 0.4! have no proved period; a `!` or `=` code must never be filled by
        // one, even when its values repeat: 0.3= is 0.3 (no split of two heaps allowed),
        // but the kernel still refuses the theorem and computes every value.
        let code = code("0.34=");
        let mut table = SgTable::new();
        assert!(
            extend_with(
                &code,
                &mut table,
                5_000,
                &mut Progress::hidden(),
                Policy::new(true, true),
                &mut SparseState::default(),
            )
            .0
        );
        assert_eq!(table.to_vec(), dense_values(&code, 5_000));
    }

    /// Far comparison for the report: `cargo test --release --lib sparse::tests::far -- --ignored`.
    #[test]
    #[ignore]
    fn far_comparison_with_the_dense_kernel() {
        for text in ["0.16", "0.56", "0.77"] {
            let code = code(text);
            assert_eq!(
                sparse_values(&code, 150_000),
                dense_values(&code, 150_000),
                "{text}"
            );
        }
    }

    #[test]
    fn wired_extend_matches_dense_in_steps() {
        // Through `takebreak::extend`, in pieces that start below and above the dense prefix.
        let code = code("0.16");
        let mut table = SgTable::new();
        for len in [100, 5_000, 9_000, 30_000] {
            takebreak::extend(&code, &mut table, len, &mut Progress::hidden());
        }
        assert_eq!(table.to_vec(), dense_values(&code, 30_000));
    }

    /// A random finite octal code: `d0 = 0`, one to six digits after the point.
    fn octal_strategy() -> impl Strategy<Value = TakeBreakCode> {
        prop::collection::vec(0u64..8, 1..7).prop_map(|digits| {
            let mut all = vec![Digit::default()];
            all.extend(digits.into_iter().map(Digit::from_mask));
            TakeBreakCode {
                digits: all,
                tail: Vec::new(),
            }
            .normalized()
        })
    }

    /// A random octal digit of mask `mask`, with modifier `!`, `?`, `=` or none by `which`.
    fn modified_digit(mask: u64, which: u8) -> Digit {
        let modifier = [
            Modifier::None,
            Modifier::Unequal,
            Modifier::Unequal,
            Modifier::NotAllEqual,
            Modifier::Equal,
        ][usize::from(which)];
        Digit {
            modifier,
            ..Digit::from_mask(mask)
        }
    }

    /// A random finite octal code whose digits may carry `!`, `?` or `=`; `d0` is 0, `4`,
    /// `4!` or `4=` (a split that removes nothing, as in Grundy's game `4!.0`).
    fn modified_strategy() -> impl Strategy<Value = TakeBreakCode> {
        let d0 = prop_oneof![
            2 => Just(Digit::default()),
            1 => Just(modified_digit(4, 0)),
            2 => Just(modified_digit(4, 1)),
            1 => Just(modified_digit(4, 4)),
        ];
        let digits = prop::collection::vec((0u64..8, 0u8..5), 0..6);
        (d0, digits).prop_map(|(d0, digits)| {
            let mut all = vec![d0];
            all.extend(digits.into_iter().map(|(mask, m)| modified_digit(mask, m)));
            TakeBreakCode {
                digits: all,
                tail: Vec::new(),
            }
            .normalized()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn sparse_matches_dense_and_naive(code in octal_strategy(), len in 1usize..60, long in 100usize..3_000) {
            prop_assert_eq!(sparse_values(&code, len), naive::code_values(&code, len), "{}", code);
            prop_assert_eq!(sparse_values(&code, long), dense_values(&code, long), "{}", code);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn sparse_matches_dense_and_naive_with_modifiers(code in modified_strategy(), len in 1usize..50, long in 100usize..3_000) {
            prop_assert!(applies(&code), "{}", code);
            prop_assert_eq!(sparse_values(&code, len), naive::code_values(&code, len), "{}", code);
            prop_assert_eq!(sparse_values(&code, long), dense_values(&code, long), "{}", code);
        }
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        #[test]
        fn wired_extend_matches_dense_with_modifiers(code in modified_strategy()) {
            let len = 9_000;
            let mut table = SgTable::new();
            takebreak::extend(&code, &mut table, len, &mut Progress::hidden());
            prop_assert_eq!(table.to_vec(), dense_values(&code, len), "{}", code);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        #[test]
        fn wired_extend_matches_dense_past_the_prefix(code in octal_strategy()) {
            let len = 9_000;
            let mut table = SgTable::new();
            takebreak::extend(&code, &mut table, len, &mut Progress::hidden());
            prop_assert_eq!(table.to_vec(), dense_values(&code, len), "{}", code);
        }
    }
}
