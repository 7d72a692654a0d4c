//! The fast kernel for take-and-break codes: `G(n)` for every heap size in turn.
//!
//! A move from a heap of `n` removes `k` tokens and leaves the other `m = n − k` as `j`
//! non-empty heaps, where digit `d_k` allows `j` (Guy & Smith 1956; Winning Ways ch. 4). By the
//! Sprague–Grundy theorem a sum of heaps has the XOR of their values, so `G(n)` is the mex of
//! the XORs of every allowed split. Per `(n, k)`:
//!
//! * `j = 0` (when `m = 0`) gives 0 and `j = 1` gives `G(m)`. For the digits of a repeating
//!   tail these are not visited one `k` at a time: the one-heap options of tail digit `r` are
//!   all `G(m)` with `m` in one residue class modulo the tail's period, up to a bound that
//!   grows by one per heap, so a running set per class holds them (`0.[3]`, Nim, costs
//!   `O(N · N/64)` rather than `O(N²)` in total);
//! * `j = 2` gives `G(a) ⊕ G(m − a)` for `1 ≤ a ≤ m/2` (with `!` or `?`: `a < m − a`; with `=`:
//!   only `a = m/2`, value 0). This loop is the whole cost of octal games, `O(N²)` in total
//!   (`O(N³)` for a tail with 2-heap digits, since every `k` is visited). It reads the typed
//!   table slice directly; while values are below 64 it collects the XORs in one register,
//!   below 256 in a byte array, and beyond that in the [`MexSet`]. The `a` range of a large heap
//!   is split across rayon tasks (the splits of one heap are independent, while heaps must be
//!   done in order);
//! * `j ≥ 3` without a modifier uses per-heap bitsets of reachable XORs, built by the recursion
//!   `E_j(m) = ∪_{b ≥ 1} G(b) ⊕ E_{j−1}(m − b)` (exactly `j` heaps, `E_1(m) = {G(m)}`) and
//!   `S_i(m) = ∪_{b ≥ 1} G(b) ⊕ S_{i−1}(m − b)` for `{i+}` (at least `i` heaps, with
//!   `S_1(m) = {G(m)} ∪ ∪_b G(b) ⊕ S_1(m − b)`), `b` running over the smallest heap only
//!   (`b ≤ m/j`). Each level costs `O(m · W/64)` word operations per heap, `W` being the power
//!   of two above the largest value, and keeps `W` bits per heap (see [`level_bytes`]). The top
//!   level, when only digits before the tail use it (hex `0.9`, `0.F`), is not built: the mex
//!   is read off the level below it word by word (`Levels::lazy_mex`), `O(m + 50 · W/64)`
//!   reads per heap instead of `O(m · W/64)`;
//! * `j ≥ 3` with `=` takes `j` equal heaps of `m/j`: XOR `G(m/j)` for odd `j`, 0 for even `j`;
//! * `j ≥ 3` with `!` or `?` falls back to listing the partitions of `m` into allowed numbers of
//!   parts: `O(m^(J−1))` per heap for at most `J` heaps, and exponential in `√m` for `{j+}`.
//!
//! The digit before the point is consulted only for splits into two or more heaps (its bits 0
//! and 1 would not change the position; the parser rejects them). The code is
//! [normalized](TakeBreakCode::normalized) first, which does not change the game.

use rayon::prelude::*;

use super::mex::MexSet;
use super::sparse::SparseState;
use super::table::{SgValue, Storage};
use super::{Progress, SgTable};
use crate::rules::code::{Digit, Modifier, TakeBreakCode};

/// Heaps with at least this many 2-heap splits have them computed by parallel rayon tasks.
const PARALLEL_SPLITS: usize = 8192;

/// Heaps computed densely before the [sparse](super::sparse) kernel takes over a finite
/// octal code (it chooses its mask from these values; below this the dense kernel is cheap).
pub const SPARSE_FROM: usize = 4096;

/// Computes `G(table.len()..len)` for `code` and pushes the values onto `table`.
///
/// Finite octal codes past `SPARSE_FROM` (4096) heaps, also with `!` or `=` on two-heap
/// splits (Grundy's game `4!.0`), go to the [sparse](super::sparse) kernel, which extends the
/// table by its period once the periodicity theorem proves one (codes without modifiers only),
/// and hands back to the dense kernel if the game turns out not to be sparse.
pub fn extend(code: &TakeBreakCode, table: &mut SgTable, len: usize, progress: &mut Progress) {
    extend_keeping(code, table, len, progress, &mut KernelState::default());
}

/// The working state of the kernels kept from one [`extend_keeping`] call to the next on the
/// same table: the sparse kernel's (see [`super::sparse::extend`]), and the dense kernel with
/// its bitset levels, which would otherwise be rebuilt from the whole table at every call (a
/// run in chunks, with a checkpoint, makes one call per half second).
#[derive(Default)]
pub struct KernelState {
    sparse: SparseState,
    dense: Option<Kernel>,
}

/// [`extend`], keeping the kernels' working state in `state` for the next call on the same
/// table.
pub fn extend_keeping(
    code: &TakeBreakCode,
    table: &mut SgTable,
    len: usize,
    progress: &mut Progress,
    state: &mut KernelState,
) {
    if super::subtraction::applies(code) {
        super::subtraction::extend(code, table, len, progress);
        return;
    }
    if len > SPARSE_FROM && super::sparse::applies(code) {
        extend_dense(code, table, SPARSE_FROM, progress);
        super::sparse::extend(code, table, len, progress, &mut state.sparse);
    }
    let kept = state.dense.take().filter(|k| k.done == table.len());
    let kernel = extend_with(code, table, len, progress, PARALLEL_SPLITS, true, kept);
    state.dense = kernel;
}

/// [`extend`] by the dense kernel only.
pub fn extend_dense(
    code: &TakeBreakCode,
    table: &mut SgTable,
    len: usize,
    progress: &mut Progress,
) {
    extend_with(code, table, len, progress, PARALLEL_SPLITS, true, None);
}

/// Extra bytes per position the kernel keeps besides the table: one 64-bit word per bitset
/// level (see the module docs) while values stay below 64, doubling each time the value width
/// doubles past that. Zero for codes that leave at most two heaps, or only use modifiers.
pub fn working_bytes_per_position(code: &TakeBreakCode) -> u64 {
    let plan = LevelPlan::of(code);
    8 * (plan.exact_levels() + plan.at_least_levels) as u64
}

/// The dense kernel's work for `G(0..len)` in counts of its inner loops, for the estimates of
/// [`super::estimate`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DenseWork {
    /// Two-heap splits visited (`G(a) ⊕ G(m − a)`), as options and for the rows of `E_2`.
    pub pairs: f64,
    /// 64-bit words XOR-translated into, or inserted from, the rows of the bitset levels.
    pub level_words: f64,
    /// Words read to find the mex of splits into the top number of heaps without building
    /// their bitsets (the lazy level).
    pub lazy_words: f64,
}

/// Words [`Levels::lazy_mex`] reads to settle one word of values below the mex (measured on
/// hex `0.9`, whose values grow; the mex's own word takes one read per split).
const LAZY_READS_PER_WORD: f64 = 50.0;

/// [`DenseWork`] of `G(0..len)` when the value bitsets are `words(m)` 64-bit words wide at heap
/// `m` (1 while the values stay below 64). The partitions listed for `!`/`?` digits with three
/// or more heaps are counted by [`listing_work`] instead.
pub fn dense_work(code: &TakeBreakCode, len: usize, words: &dyn Fn(usize) -> f64) -> DenseWork {
    let code = code.normalized();
    let plan = LevelPlan::of(&code);
    let pairs_of = |d: &Digit| d.heaps.allows(2) && d.modifier != Modifier::Equal;
    // Rows of stored levels a digit inserts per heap, and lazy splits it defers.
    let rows_of = |d: &Digit| {
        if d.modifier != Modifier::None {
            return (0.0, 0.0);
        }
        let mut rows = f64::from(d.heaps.at_least.is_some_and(|j| j >= 3) as u8);
        let mut lazy = 0.0;
        for j in (3..64).filter(|&j| d.heaps.mask & (1 << j) != 0) {
            if plan.lazy_top && j == plan.max_exact {
                lazy += 1.0;
            } else {
                rows += 1.0;
            }
        }
        (rows, lazy)
    };
    let p = code.tail.len().max(1) as f64;
    let tail_pairs = code.tail.iter().filter(|d| pairs_of(d)).count() as f64 / p;
    let tail_rows = code.tail.iter().map(|d| rows_of(d).0).sum::<f64>() / p;
    let built = (3..=plan.max_exact)
        .take(plan.stored_exact_levels().saturating_sub(1))
        .map(|j| 1.0 / j as f64)
        .chain((1..=plan.at_least_levels).map(|i| 1.0 / i.max(2) as f64))
        .sum::<f64>();
    let ts = code.digits.len();
    let mut work = DenseWork::default();
    // Per heap `n`, evaluated at the middle of each of 256 equal chunks of heaps.
    let chunks = 256.min(len.max(1));
    for c in 0..chunks {
        let (from, to) = (len * c / chunks, len * (c + 1) / chunks);
        let (n, count) = ((from + to) as f64 / 2.0, (to - from) as f64);
        let w = words((from + to) / 2);
        let mut heap = DenseWork::default();
        for (k, d) in code
            .digits
            .iter()
            .enumerate()
            .filter(|(k, _)| (*k as f64) < n)
        {
            let m = n - k as f64;
            if pairs_of(d) {
                heap.pairs += m / 2.0;
            }
            let (rows, lazy) = rows_of(d);
            heap.level_words += rows * w;
            if lazy > 0.0 {
                heap.lazy_words += lazy * (m / plan.max_exact as f64 + LAZY_READS_PER_WORD * w);
            }
        }
        let tail = (n - ts as f64).max(0.0);
        heap.pairs += tail_pairs * tail * tail / 4.0;
        heap.level_words += tail_rows * tail * w;
        if plan.stored_exact_levels() >= 1 {
            heap.pairs += n / 2.0;
        }
        heap.level_words += built * n * w;
        work.pairs += heap.pairs * count;
        work.level_words += heap.level_words * count;
        work.lazy_words += heap.lazy_words * count;
    }
    work
}

/// True when the kernel keeps bitset levels for splits into three or more heaps, whose cost
/// and memory grow with the width of the values.
pub fn has_levels(code: &TakeBreakCode) -> bool {
    let plan = LevelPlan::of(&code.normalized());
    plan.exact_levels() + plan.at_least_levels > 0
}

/// Bytes of the bitset levels for `G(0..len)` when the values stay below `64 · words`: a row
/// of `words` 64-bit words per heap in every stored level, and a few bytes per heap of
/// bookkeeping (row bounds, heap sizes by value) — `len · words · 8` per level, `len²/16`
/// when the values grow like `n/2` (hex `0.9`: 256 MiB at 65536).
pub fn level_bytes(code: &TakeBreakCode, len: usize, words: usize) -> u64 {
    let plan = LevelPlan::of(&code.normalized());
    let levels = (plan.stored_exact_levels() + plan.at_least_levels) as u64;
    if levels == 0 {
        return 0;
    }
    let per_heap = (levels * 8)
        .saturating_mul(words as u64)
        .saturating_add(4 * plan.stored_exact_levels() as u64 + 4);
    per_heap.saturating_mul(len as u64)
}

/// For codes whose `!` or `?` digits leave three or more heaps (the only splits this kernel
/// lists one partition at a time), the table length at which listing `G(0..len)` would pass
/// `limit` partitions; `None` when `G(0..len)` stays within it (always, for other codes).
///
/// Counts partitions of `m` into exactly `j` parts, `P(m, j) = P(m − 1, j − 1) + P(m − j, j)`,
/// or into `j` distinct parts, `Q(m, j) = Q(m − j, j) + Q(m − j, j − 1)`, summed over every
/// listed `(k, j)`; the number grows like `exp(π√(2m/3))`, so without this check a request
/// such as `takebreak 0.{3+}?` to n = 200 would run for ages instead of being refused.
pub fn listing_work_exceeds(code: &TakeBreakCode, len: usize, limit: f64) -> Option<usize> {
    listing_work(code, len, limit).err()
}

/// The partitions (times their parts) that listing `G(0..len)` takes, as counted by
/// [`listing_work_exceeds`]: `Ok(work)` when it stays within `limit` (0 for codes that list
/// nothing), else `Err` with the table length at which it passes the limit.
pub fn listing_work(code: &TakeBreakCode, len: usize, limit: f64) -> Result<f64, usize> {
    let code = code.normalized();
    let listed = |d: &Digit| {
        matches!(d.modifier, Modifier::Unequal | Modifier::NotAllEqual)
            && (d.heaps.mask >> 3 != 0 || d.heaps.at_least.is_some())
    };
    if !code.digits.iter().chain(&code.tail).any(listed) {
        return Ok(0.0);
    }
    // Parts counts above this contribute nothing before the limit is passed.
    const MOST_PARTS: usize = 256;
    let most_parts = code
        .max_heaps()
        .map_or(MOST_PARTS, |j| (j as usize).min(MOST_PARTS));
    // exact[m][j] and distinct[m][j] for every m computed so far.
    let mut exact: Vec<Vec<f64>> = Vec::new();
    let mut distinct: Vec<Vec<f64>> = Vec::new();
    let mut work = 0.0;
    for n in 0..len {
        let mut row_exact = vec![0.0; most_parts + 1];
        let mut row_distinct = vec![0.0; most_parts + 1];
        if n == 0 {
            row_exact[0] = 1.0;
            row_distinct[0] = 1.0;
        }
        for j in 1..=most_parts.min(n) {
            row_exact[j] = exact[n - 1][j - 1] + exact[n - j][j];
            row_distinct[j] = distinct[n - j][j] + distinct[n - j][j - 1];
        }
        exact.push(row_exact);
        distinct.push(row_distinct);
        for k in 0..=n {
            let digit = code.digit(k);
            if k >= code.digits.len() && code.tail.is_empty() {
                break;
            }
            if !listed(&digit) {
                continue;
            }
            let counts = if digit.modifier == Modifier::Unequal {
                &distinct[n - k]
            } else {
                &exact[n - k]
            };
            work += (3..=most_parts)
                .filter(|&j| digit.heaps.allows(j as u32))
                .map(|j| counts[j] * j as f64)
                .sum::<f64>();
        }
        if work > limit {
            return Err(n + 1);
        }
    }
    Ok(work)
}

/// [`extend`] with the number of splits from which a heap's 2-heap splits run in parallel,
/// continuing with `kept`, a kernel whose working state is that of `table` as it is (from an
/// earlier call), else with a new one rebuilt from the table. `lazy` false builds every bitset
/// level, also one [`Levels::lazy_mex`] would not need (the reference the tests compare it
/// with). Returns the kernel, up to date with the table (`None` when there was nothing to do).
fn extend_with(
    code: &TakeBreakCode,
    table: &mut SgTable,
    len: usize,
    progress: &mut Progress,
    parallel_splits: usize,
    lazy: bool,
    kept: Option<Kernel>,
) -> Option<Kernel> {
    let start = table.len();
    if start >= len {
        return kept;
    }
    // This kernel reads plain slices (see `SgTable::unpack`).
    table.unpack();
    let mut kernel = match kept {
        Some(kernel) => kernel,
        None => {
            let mut kernel = Kernel::new(code, table.max_value(), parallel_splits, lazy);
            kernel.catch_up(table);
            kernel
        }
    };
    kernel.levels.reserve(len);
    table.reserve(len - start);
    for n in start..len {
        let max_value = table.max_value();
        // A value from 256 to 511 (after only smaller ones) made the table 9-bit.
        table.unpack();
        let value = match table.storage() {
            Storage::U8(g) => kernel.value(g, max_value),
            Storage::U16(g) => kernel.value(g, max_value),
            Storage::U32(g) => kernel.value(g, max_value),
            Storage::U9(_) => unreachable!("unpacked above"),
        };
        table.push(value);
        kernel.levels.finish_row(value);
        kernel.done = n + 1;
        progress.tick(n as u64 + 1);
    }
    progress.set(len as u64);
    Some(kernel)
}

struct Kernel {
    /// The non-empty digits `(k, d_k)` before the tail.
    digits: Vec<(usize, Digit)>,
    /// Where the repeating tail starts (`k ≥ tail_start`), at least 1.
    tail_start: usize,
    /// The repeating tail (empty for a finite code).
    tail: Vec<Digit>,
    /// True when some tail digit may leave two or more heaps, so every tail `k` is visited.
    tail_splits: bool,
    /// One-heap moves of the tail without visiting every `k`: with `p` the tail's period,
    /// `ring[c]` holds `{G(L), G(L − p), G(L − 2p), …, down to 1}` for the latest `L ≡ c (mod p)`
    /// with `L ≤ n − tail_start`. Empty when no tail digit allows leaving one heap.
    ring: Vec<MexSet>,
    levels: Levels,
    parallel_splits: usize,
    set: MexSet,
    /// The heap sizes `m` whose splits into [`Levels::lazy`] heaps are options of the heap
    /// being computed (see [`Levels::lazy_mex`]).
    deferred: Vec<usize>,
    /// The length of the table the working state is that of.
    done: usize,
}

impl Kernel {
    fn new(code: &TakeBreakCode, max_value: u32, parallel_splits: usize, lazy: bool) -> Self {
        // Normalizing keeps the game and guarantees that `d0` is not part of the tail.
        let code = code.normalized();
        let non_empty = code
            .digits
            .iter()
            .enumerate()
            .filter(|(_, d)| !d.is_empty());
        let leaves_one = code.tail.iter().any(|d| d.heaps.allows(1));
        Kernel {
            digits: non_empty.map(|(k, d)| (k, *d)).collect(),
            tail_start: code.digits.len(),
            tail_splits: code
                .tail
                .iter()
                .any(|d| d.heaps.mask >> 2 != 0 || d.heaps.at_least.is_some()),
            ring: if leaves_one {
                vec![MexSet::default(); code.tail.len()]
            } else {
                Vec::new()
            },
            levels: Levels::new(
                LevelPlan {
                    lazy_top: lazy && LevelPlan::of(&code).lazy_top,
                    ..LevelPlan::of(&code)
                },
                max_value,
            ),
            tail: code.tail,
            parallel_splits: parallel_splits.max(2),
            set: MexSet::with_capacity(256),
            deferred: Vec::new(),
            done: 0,
        }
    }

    /// Brings the working state up to date with `table`, computed by an earlier call.
    fn catch_up(&mut self, table: &SgTable) {
        self.done = table.len();
        for m in 0..table.len() {
            if !self.levels.is_empty() {
                match table.storage() {
                    Storage::U8(g) => self.levels.push_rows(&g[..m]),
                    Storage::U16(g) => self.levels.push_rows(&g[..m]),
                    Storage::U32(g) => self.levels.push_rows(&g[..m]),
                    Storage::U9(_) => unreachable!("`extend_with` unpacks the table"),
                }
                self.levels.finish_row(table.get(m));
            }
            // Heap `m` joins the ring at `n = m + tail_start` (see `value`).
            if !self.ring.is_empty() && m >= 1 && m + self.tail_start < table.len() {
                let p = self.ring.len();
                self.ring[m % p].insert(table.get(m));
            }
        }
    }

    /// `G(n)` for `n = g.len()`, given `g = G(0..n)` whose largest value is `max_value`.
    fn value<T: SgValue>(&mut self, g: &[T], max_value: u32) -> u32 {
        let n = g.len();
        if !self.levels.is_empty() {
            self.levels.push_rows(g);
        }
        self.set.clear();
        self.deferred.clear();
        let ctx = Options {
            g,
            n,
            max_value,
            levels: &self.levels,
            parallel_splits: self.parallel_splits,
        };
        for &(k, digit) in self.digits.iter().take_while(|(k, _)| *k <= n) {
            ctx.insert(k, digit, &mut self.set, &mut self.deferred);
        }
        if self.tail.is_empty() || n < self.tail_start {
            return self.mex(g);
        }
        let p = self.tail.len();
        let digit_at = |k: usize| self.tail[(k - self.tail_start) % p];
        // Leave no heap: only `k = n`.
        if digit_at(n).heaps.allows(0) {
            self.set.insert(0);
        }
        // Leave one heap of `m = n − k`: for tail digit `r` (`k = tail_start + r + tp`), every
        // `m ≥ 1` with `m ≡ last − r (mod p)` up to `last − r`: one ring entry.
        let last = n - self.tail_start;
        if !self.ring.is_empty() {
            if last >= 1 {
                self.ring[last % p].insert(g[last].to_u32());
            }
            for r in (0..p.min(last)).filter(|&r| self.tail[r].heaps.allows(1)) {
                self.set.union_with(&self.ring[(last - r) % p]);
            }
        }
        if self.tail_splits {
            for k in self.tail_start..=n {
                let digit = digit_at(k);
                if !digit.is_empty() {
                    // No tail digit leaves `Levels::lazy` heaps (see `LevelPlan::of`).
                    ctx.insert_splits(k, digit, &mut self.set, &mut self.deferred);
                }
            }
        }
        self.mex(g)
    }

    /// The mex of the options collected in `set` and of the deferred splits.
    fn mex<T: SgValue>(&self, g: &[T]) -> u32 {
        if self.deferred.is_empty() {
            self.set.mex()
        } else {
            self.levels.lazy_mex(g, &self.set, &self.deferred)
        }
    }
}

/// What the options of one heap `n` are computed from.
struct Options<'a, T> {
    g: &'a [T],
    n: usize,
    max_value: u32,
    levels: &'a Levels,
    parallel_splits: usize,
}

impl<T: SgValue> Options<'_, T> {
    /// Inserts the values of the moves that remove `k` tokens under `digit` (deferring splits
    /// into [`Levels::lazy`] heaps of `m` by pushing `m` onto `deferred`).
    fn insert(&self, k: usize, digit: Digit, set: &mut MexSet, deferred: &mut Vec<usize>) {
        let m = self.n - k;
        if k >= 1 {
            if m == 0 && digit.heaps.allows(0) {
                set.insert(0);
            }
            if m >= 1 && digit.heaps.allows(1) {
                set.insert(self.g[m].to_u32());
            }
        }
        self.insert_splits(k, digit, set, deferred);
    }

    /// Inserts the values of the moves that remove `k` tokens and leave two or more heaps.
    fn insert_splits(&self, k: usize, digit: Digit, set: &mut MexSet, deferred: &mut Vec<usize>) {
        let g = self.g;
        let m = self.n - k;
        let heaps = digit.heaps;
        if m >= 2 && heaps.allows(2) {
            match digit.modifier {
                Modifier::None => self.insert_pairs(m, m / 2, set),
                Modifier::Unequal | Modifier::NotAllEqual => self.insert_pairs(m, (m - 1) / 2, set),
                Modifier::Equal if m.is_multiple_of(2) => set.insert(0),
                Modifier::Equal => {}
            }
        }
        if m < 3 || (heaps.mask >> 3 == 0 && heaps.at_least.is_none()) {
            return;
        }
        let most = heaps.max_heaps().map_or(m, |j| (j as usize).min(m));
        match digit.modifier {
            Modifier::None => {
                for j in 3..=most.min(63) {
                    if heaps.mask & (1 << j) == 0 {
                        continue;
                    }
                    if self.levels.lazy == Some(j) {
                        deferred.push(m);
                    } else {
                        self.levels.insert_exact(j, m, set);
                    }
                }
                if let Some(from) = heaps.at_least {
                    self.levels.insert_at_least((from as usize).max(3), m, set);
                }
            }
            Modifier::Equal => {
                for j in (3..=most).filter(|&j| m.is_multiple_of(j) && heaps.allows(j as u32)) {
                    set.insert(if j % 2 == 1 { g[m / j].to_u32() } else { 0 });
                }
            }
            Modifier::Unequal | Modifier::NotAllEqual => {
                let split = Split {
                    g,
                    heaps: digit.heaps,
                    most,
                    distinct: digit.modifier == Modifier::Unequal,
                };
                split.enumerate(m, 1, 0, 0, 0, set);
            }
        }
    }

    /// Inserts `G(a) ⊕ G(m − a)` for `1 ≤ a ≤ last`.
    fn insert_pairs(&self, m: usize, last: usize, set: &mut MexSet) {
        if last == 0 {
            return;
        }
        let g = self.g;
        // Values below 64 keep every XOR below 64: collect them in one register. Values below
        // 256 keep XORs below 256: flag them in a byte array (plain stores, no dependency
        // between splits). Larger values go to the bitset one by one.
        let word = self.max_value < 64;
        let byte = self.max_value < 256;
        if last < self.parallel_splits {
            if word {
                insert_bits(set, 0, pair_bits(g, m, 1, last + 1));
            } else if byte && last >= 64 {
                insert_flags(set, &pair_flags(g, m, 1, last + 1));
            } else {
                insert_pair_values(g, m, 1, last + 1, set);
            }
            return;
        }
        let tasks = rayon::current_num_threads().max(2);
        let chunk = last.div_ceil(tasks);
        let chunks = (1..=last)
            .step_by(chunk)
            .map(|from| (from, (from + chunk).min(last + 1)));
        let chunks: Vec<(usize, usize)> = chunks.collect();
        if word {
            let bits = chunks
                .par_iter()
                .map(|&(from, to)| pair_bits(g, m, from, to))
                .reduce(|| 0, |a, b| a | b);
            insert_bits(set, 0, bits);
        } else if byte {
            let flags = chunks
                .par_iter()
                .map(|&(from, to)| pair_flags(g, m, from, to))
                .reduce(
                    || [false; 256],
                    |mut a, b| {
                        a.iter_mut().zip(b).for_each(|(x, y)| *x |= y);
                        a
                    },
                );
            insert_flags(set, &flags);
        } else {
            let capacity = (self.max_value as usize + 1).next_power_of_two();
            let partial = chunks
                .par_iter()
                .map(|&(from, to)| {
                    let mut part = MexSet::with_capacity(capacity);
                    insert_pair_values(g, m, from, to, &mut part);
                    part
                })
                .reduce(MexSet::default, |mut a, b| {
                    a.union_with(&b);
                    a
                });
            set.union_with(&partial);
        }
    }
}

/// Flags `G(a) ⊕ G(m − a)` for `from ≤ a < to`, for tables whose values are all below 256.
fn pair_flags<T: SgValue>(g: &[T], m: usize, from: usize, to: usize) -> [bool; 256] {
    let low = &g[from..to];
    let high = &g[m + 1 - to..=m - from];
    let mut seen = [false; 256];
    for (&x, &y) in low.iter().zip(high.iter().rev()) {
        seen[((x.to_u32() ^ y.to_u32()) & 255) as usize] = true;
    }
    seen
}

/// Inserts every value whose flag is set.
fn insert_flags(set: &mut MexSet, flags: &[bool; 256]) {
    for (value, _) in flags.iter().enumerate().filter(|(_, &seen)| seen) {
        set.insert(value as u32);
    }
}

/// The bit set `{G(a) ⊕ G(m − a) : from ≤ a < to}`, for tables whose values are all below 64.
#[inline]
fn pair_bits<T: SgValue>(g: &[T], m: usize, from: usize, to: usize) -> u64 {
    let low = &g[from..to];
    let high = &g[m + 1 - to..=m - from];
    low.iter()
        .zip(high.iter().rev())
        .fold(0u64, |bits, (&x, &y)| {
            bits | 1u64.wrapping_shl(x.to_u32() ^ y.to_u32())
        })
}

/// Inserts `G(a) ⊕ G(m − a)` for `from ≤ a < to` one by one (values of any size).
fn insert_pair_values<T: SgValue>(g: &[T], m: usize, from: usize, to: usize, set: &mut MexSet) {
    let low = &g[from..to];
    let high = &g[m + 1 - to..=m - from];
    for (&x, &y) in low.iter().zip(high.iter().rev()) {
        set.insert(x.to_u32() ^ y.to_u32());
    }
}

/// Inserts `base + i` for every bit `i` of `bits` (`base` a multiple of 64).
#[inline]
fn insert_bits(set: &mut MexSet, base: u32, bits: u64) {
    debug_assert_eq!(base % 64, 0);
    set.insert_word((base / 64) as usize, bits);
}

/// Lists the partitions of a heap into `j ≥ 3` parts under a `!` or `?` digit.
struct Split<'a, T> {
    g: &'a [T],
    heaps: crate::rules::code::HeapCounts,
    /// No partition into more parts than this is allowed.
    most: usize,
    /// `!`: parts strictly increasing; otherwise (`?`) non-decreasing and not all equal.
    distinct: bool,
}

impl<T: SgValue> Split<'_, T> {
    /// Extends a partition of `count` parts (XOR `xor`, first part `first`) by non-decreasing
    /// (for `!`, increasing) parts of at least `smallest` summing to `rest ≥ 1`, inserting the
    /// XOR of every complete partition the digit allows.
    fn enumerate(
        &self,
        rest: usize,
        smallest: usize,
        count: usize,
        xor: u32,
        first: usize,
        set: &mut MexSet,
    ) {
        // Finish with one last part `rest` (only partitions of three or more parts count here).
        if count >= 2
            && rest >= smallest
            && self.heaps.allows(count as u32 + 1)
            && (self.distinct || rest != first)
        {
            set.insert(xor ^ self.g[rest].to_u32());
        }
        // Otherwise add a part and at least one more after it.
        if count + 2 > self.most {
            return;
        }
        let largest = if self.distinct {
            (rest - 1) / 2
        } else {
            rest / 2
        };
        for part in smallest..=largest {
            let next = if self.distinct { part + 1 } else { part };
            let first = if count == 0 { part } else { first };
            self.enumerate(
                rest - part,
                next,
                count + 1,
                xor ^ self.g[part].to_u32(),
                first,
                set,
            );
        }
    }
}

/// Which bitset levels a code needs: those of its modifier-free digits with bits `j ≥ 3`.
#[derive(Clone, Copy, Debug, Default)]
struct LevelPlan {
    /// Largest exact heap count `j ≥ 3` used (levels `E_2..=E_j` are needed), or 0.
    max_exact: usize,
    /// Number of "at least" levels `S_1..=S_i` kept (0 when no `{i+}` digit needs them).
    at_least_levels: usize,
    /// True when only digits before the tail leave `max_exact` heaps: that level is then only
    /// ever an option of a few heaps `m` per heap, and [`Levels::lazy_mex`] finds the mex
    /// without building its rows.
    lazy_top: bool,
}

impl LevelPlan {
    fn of(code: &TakeBreakCode) -> Self {
        let mut plan = LevelPlan::default();
        let highest_exact = |digit: &Digit| match digit.heaps.mask >> 3 {
            0 => 0,
            high => 66 - high.leading_zeros() as usize,
        };
        let plain = |d: &&Digit| d.modifier == Modifier::None;
        for digit in code.digits.iter().chain(&code.tail).filter(plain) {
            plan.max_exact = plan.max_exact.max(highest_exact(digit));
            if let Some(from) = digit.heaps.at_least {
                plan.at_least_levels = plan.at_least_levels.max((from as usize).max(3));
            }
        }
        let tail_exact = code.tail.iter().filter(plain).map(highest_exact).max();
        plan.lazy_top = plan.max_exact >= 3 && tail_exact.unwrap_or(0) < plan.max_exact;
        plan
    }

    /// The exact levels `E_2..=E_{max_exact}` (the memory bound of
    /// [`working_bytes_per_position`] counts them all).
    fn exact_levels(&self) -> usize {
        self.max_exact.saturating_sub(1)
    }

    /// The exact levels whose rows are kept: all but a [lazy](Self::lazy_top) top one.
    fn stored_exact_levels(&self) -> usize {
        self.exact_levels() - usize::from(self.lazy_top)
    }
}

/// How far apart the first heap sizes `a` are that [`Levels::lazy_mex`] tries: it visits
/// `a = 1, 1 + s, 1 + 2s, …, then 2, 2 + s, …`, so that the first few hundred sizes tried sample
/// the whole range (the splits that reach a given value often come from a narrow range of `a`).
const LAZY_STRIDE: usize = 16;

/// Per-heap bitsets of reachable XOR values (see the module docs), one row of `words` 64-bit
/// words per heap size in each level; `words` is a power of two above every value so far, so
/// that XOR-translating a row stays inside it.
struct Levels {
    words: usize,
    /// `exact[j − 2]` holds `E_j(m)` for `m = 0, 1, …` (not the [lazy](Self::lazy) level).
    exact: Vec<Vec<u64>>,
    /// `bounds[j − 2][m]` is one more than the largest value of `E_j(m)`, 0 when it is empty.
    bounds: Vec<Vec<u32>>,
    /// `at_least[i − 1]` holds `S_i(m)`.
    at_least: Vec<Vec<u64>>,
    /// `Some(j)`: `E_j` is not stored, [`Self::lazy_mex`] reads it off `E_{j−1}` instead.
    lazy: Option<usize>,
    /// With a lazy level `E_j`, the rows of `E_{j−1}` by columns (instead of `exact`):
    /// `columns[w][m]` is word `w` of `E_{j−1}(m)`, so that [`Self::lazy_mex`], which reads one
    /// word of the rows of many `m`, reads consecutive memory.
    columns: Vec<Vec<u64>>,
    /// Rows each column has room for.
    reserved: usize,
    /// With a lazy level, `by_high[h]` lists the heap sizes `a ≥ 1` with `G(a) >> 6 = h`, in
    /// increasing order.
    by_high: Vec<Vec<u32>>,
    /// A row being built, reused.
    scratch: Vec<u64>,
    /// Rows complete in every level (the next row is for heap `rows`).
    rows: usize,
}

impl Levels {
    fn new(plan: LevelPlan, max_value: u32) -> Self {
        let mut levels = Levels {
            words: 1,
            exact: vec![Vec::new(); plan.stored_exact_levels()],
            bounds: vec![Vec::new(); plan.stored_exact_levels()],
            at_least: vec![Vec::new(); plan.at_least_levels],
            lazy: plan.lazy_top.then_some(plan.max_exact),
            columns: if plan.lazy_top {
                vec![Vec::new()]
            } else {
                Vec::new()
            },
            reserved: 0,
            by_high: Vec::new(),
            scratch: Vec::new(),
            rows: 0,
        };
        levels.ensure_capacity(max_value);
        levels
    }

    fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.at_least.is_empty()
    }

    fn row(level: &[u64], words: usize, m: usize) -> &[u64] {
        &level[m * words..(m + 1) * words]
    }

    /// Appends the rows for heap `m = g.len()` that do not need `G(m)`: every `E_j(m)` and
    /// `S_i(m)` for `i ≥ 2`, and `S_1(m)` without its one-heap value (see [`Self::finish_row`]).
    ///
    /// A split of `m` into `j` heaps (or at least `j`, or at least two for `S_1`) has a
    /// smallest heap `b ≤ m / j`, and the other heaps are a split of `m − b` into one heap
    /// fewer, any of which makes a move with `b`: so `b` runs to `m / j` only.
    fn push_rows<T: SgValue>(&mut self, g: &[T]) {
        let m = g.len();
        debug_assert_eq!(m, self.rows);
        let words = self.words;
        for index in 0..self.exact.len() {
            let parts = index + 2;
            self.scratch.clear();
            self.scratch.resize(words, 0);
            for b in 1..=m / parts {
                let gb = g[b].to_u32();
                if parts == 2 {
                    let value = gb ^ g[m - b].to_u32();
                    self.scratch[(value / 64) as usize] |= 1 << (value % 64);
                } else {
                    xor_translate_into(
                        &mut self.scratch,
                        Self::row(&self.exact[index - 1], words, m - b),
                        gb,
                    );
                }
            }
            let bound = match self.scratch.iter().rposition(|&w| w != 0) {
                Some(w) => 64 * (w as u32 + 1) - self.scratch[w].leading_zeros(),
                None => 0,
            };
            self.bounds[index].push(bound);
            if self.lazy == Some(parts + 1) {
                for (column, &bits) in self.columns.iter_mut().zip(&self.scratch) {
                    column.push(bits);
                }
            } else {
                self.exact[index].extend_from_slice(&self.scratch);
            }
        }
        for index in 0..self.at_least.len() {
            let source = index.saturating_sub(1);
            self.scratch.clear();
            self.scratch.resize(words, 0);
            // Heap sizes `b` up to `m / max(i, 2)` (none for `m = 0`).
            let smallest = &g[..(m / (index + 1).max(2) + 1).min(m)];
            for (b, gb) in smallest.iter().enumerate().skip(1) {
                let row = Self::row(&self.at_least[source], words, m - b);
                xor_translate_into(&mut self.scratch, row, gb.to_u32());
            }
            self.at_least[index].extend_from_slice(&self.scratch);
        }
    }

    /// `mex(set ∪ E_j(m) for every m of deferred)`, `j` being the [lazy](Self::lazy) level,
    /// without building the rows `E_j(m) = ∪_{1 ≤ a ≤ m/j} G(a) ⊕ E_{j−1}(m − a)`.
    ///
    /// The mex is the first value missing, so the words of 64 values are settled in
    /// increasing order: word `t` by OR-ing, for one `a` after another, the word of
    /// `E_{j−1}(m − a)` that the XOR with `G(a)` moves onto it, until it is full; then the
    /// next word. The first word that is not full after every `a` holds the mex. Rows whose
    /// values all lie below that word are skipped by their bound, and the `a` most likely to
    /// fill word `t` come first: those whose `G(a)` has no bit above the word's bits that
    /// `t` lacks (`G(a) >> 6` a submask of `t`, found in [`Self::by_high`]), then the others
    /// [spread out](LAZY_STRIDE). When the values grow with `n` (hex `0.9`: `G(n) ≈ n/2`) a
    /// word is full after some 50 `a` and only the mex's word needs every one of them, so a
    /// heap costs `O(m + W)` word operations instead of the `O(m · W/64)` of building
    /// `E_j(m)` (`W` the value width). For small values (`W = 64`) it is one pass over `a`.
    fn lazy_mex<T: SgValue>(&self, g: &[T], set: &MexSet, deferred: &[usize]) -> u32 {
        let parts = self.lazy.expect("a lazy level");
        let (columns, bounds) = (&self.columns, &self.bounds[parts - 3]);
        // ORs into `acc` the part of `E_j(m)` on word `t`, stopping once it is full.
        let fill = |acc: &mut u64, t: usize, m: usize| {
            let last = m / parts;
            // The `a` whose `G(a) >> 6` is a submask `high` of `t`, read from column `t ⊕ high`.
            let mut high = t;
            loop {
                let column = &columns[t ^ high];
                let sizes = self.by_high.get(high).map_or(&[][..], |a| a.as_slice());
                for &a in sizes.iter().take_while(|&&a| a as usize <= last) {
                    let bits = column[m - a as usize];
                    if bits != 0 {
                        *acc |= xor_permute_bits(bits, g[a as usize].to_u32() % 64);
                        if *acc == u64::MAX {
                            return;
                        }
                    }
                }
                if high == 0 {
                    break;
                }
                high = (high - 1) & t;
            }
            // Then the others, spread out.
            let stride = LAZY_STRIDE.min(last).max(1);
            for first in 1..=stride {
                for a in (first..=last).step_by(stride) {
                    let ga = g[a].to_u32();
                    let high = (ga / 64) as usize;
                    let source = t ^ high;
                    if high & !t != 0 && (source as u32) * 64 < bounds[m - a] {
                        *acc |= xor_permute_bits(columns[source][m - a], ga % 64);
                        if *acc == u64::MAX {
                            return;
                        }
                    }
                }
            }
        };
        for t in 0..self.words {
            let mut acc = set.word(t);
            for &m in deferred {
                if acc == u64::MAX {
                    break;
                }
                fill(&mut acc, t, m);
            }
            if acc != u64::MAX {
                return 64 * t as u32 + (!acc).trailing_zeros();
            }
        }
        64 * self.words as u32
    }

    /// Makes room for the rows of `len` heaps in the columns (the other levels grow as
    /// vectors do).
    fn reserve(&mut self, len: usize) {
        self.reserved = len;
        for column in &mut self.columns {
            column.reserve(len.saturating_sub(column.len()));
        }
    }

    /// Completes heap `m`'s rows once `G(m) = value` is known: `S_1(m)` gains the one-heap
    /// split `{G(m)}`.
    fn finish_row(&mut self, value: u32) {
        if self.is_empty() {
            return;
        }
        self.ensure_capacity(value);
        let m = self.rows;
        if let Some(level) = self.at_least.first_mut() {
            level[m * self.words + (value / 64) as usize] |= 1 << (value % 64);
        }
        // Heaps are never empty: size 0 is no part of a split.
        if self.lazy.is_some() && m >= 1 {
            let high = (value / 64) as usize;
            if high >= self.by_high.len() {
                self.by_high.resize(high + 1, Vec::new());
            }
            self.by_high[high].push(u32::try_from(m).expect("heap sizes of a lazy level fit u32"));
        }
        self.rows += 1;
    }

    /// Widens every row so that `value` (and any XOR of values up to it) fits.
    fn ensure_capacity(&mut self, value: u32) {
        let needed = (value as usize / 64 + 1).next_power_of_two();
        if needed <= self.words {
            return;
        }
        let old = self.words;
        for level in self.exact.iter_mut().chain(self.at_least.iter_mut()) {
            let mut wider = vec![0; level.len() / old * needed];
            for (m, row) in level.chunks(old).enumerate() {
                wider[m * needed..m * needed + old].copy_from_slice(row);
            }
            *level = wider;
        }
        if let Some(first) = self.columns.first() {
            // Values never reached these words before: zero in every row so far.
            let rows = first.len();
            self.columns.resize_with(needed, || {
                let mut column = Vec::with_capacity(rows.max(self.reserved));
                column.resize(rows, 0);
                column
            });
        }
        self.words = needed;
    }

    fn insert_exact(&self, parts: usize, m: usize, set: &mut MexSet) {
        if self.lazy == Some(parts + 1) {
            for (w, column) in self.columns.iter().enumerate() {
                insert_bits(set, w as u32 * 64, column[m]);
            }
        } else {
            Self::insert_row(Self::row(&self.exact[parts - 2], self.words, m), set);
        }
    }

    fn insert_at_least(&self, parts: usize, m: usize, set: &mut MexSet) {
        Self::insert_row(Self::row(&self.at_least[parts - 1], self.words, m), set);
    }

    fn insert_row(row: &[u64], set: &mut MexSet) {
        for (w, &bits) in row.iter().enumerate() {
            insert_bits(set, w as u32 * 64, bits);
        }
    }
}

/// `target |= {x ⊕ shift : x ∈ source}` for bitsets of the same power-of-two length with
/// `shift` below their size: whole words move by `shift / 64`, bits within a word by
/// `shift % 64`.
fn xor_translate_into(target: &mut [u64], source: &[u64], shift: u32) {
    let word_shift = (shift / 64) as usize;
    for (w, &bits) in source.iter().enumerate() {
        if bits != 0 {
            target[w ^ word_shift] |= xor_permute_bits(bits, shift % 64);
        }
    }
}

/// Moves bit `i` of `bits` to bit `i ⊕ shift` (`shift < 64`): for each bit `s` of `shift`,
/// swap the adjacent blocks of `2^s` bits.
#[inline]
fn xor_permute_bits(mut bits: u64, shift: u32) -> u64 {
    const LOW_HALVES: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    for (s, mask) in LOW_HALVES.iter().enumerate() {
        if shift & (1 << s) != 0 {
            let width = 1 << s;
            bits = ((bits & mask) << width) | ((bits >> width) & mask);
        }
    }
    bits
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::oracle::naive;
    use crate::rules::code::{HeapCounts, Notation};

    fn code(text: &str) -> TakeBreakCode {
        TakeBreakCode::parse(text, Notation::General, 0).unwrap()
    }

    fn kernel_values(code: &TakeBreakCode, len: usize) -> Vec<u32> {
        let mut table = SgTable::new();
        extend(code, &mut table, len, &mut Progress::hidden());
        table.to_vec()
    }

    /// Values of `code` by [`extend`] with the parallel split loop forced from `threshold` splits.
    fn kernel_values_parallel(code: &TakeBreakCode, len: usize, threshold: usize) -> Vec<u32> {
        let mut table = SgTable::new();
        extend_with(
            code,
            &mut table,
            len,
            &mut Progress::hidden(),
            threshold,
            true,
            None,
        );
        table.to_vec()
    }

    /// Values of `code` with every bitset level built (no [`Levels::lazy_mex`]).
    fn eager_values(code: &TakeBreakCode, len: usize) -> Vec<u32> {
        let mut table = SgTable::new();
        let progress = &mut Progress::hidden();
        extend_with(
            code,
            &mut table,
            len,
            progress,
            PARALLEL_SPLITS,
            false,
            None,
        );
        table.to_vec()
    }

    /// The smallest preperiod `p` with `G(n + period) = G(n)` for all `p ≤ n` in the table.
    fn preperiod(values: &[u32], period: usize) -> usize {
        (0..values.len() - period)
            .rev()
            .find(|&n| values[n] != values[n + period])
            .map_or(0, |n| n + 1)
    }

    #[test]
    fn kayles_known_values_and_period() {
        // Kayles, octal 0.77: OEIS A002186 (Guy & Smith 1956), n = 0..=83.
        let known = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5,
            4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4,
            2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
        ];
        let values = kernel_values(&code("0.77"), 2000);
        assert_eq!(values[..known.len()], known);
        // Period 12 from n = 71 on (the last exceptional value is G(70) = 6; Winning Ways ch. 4).
        assert_eq!(preperiod(&values, 12), 71);
    }

    #[test]
    fn dawsons_kayles_known_values_and_period() {
        // Dawson's Kayles, octal 0.07: OEIS A002187, n = 0..=71.
        let known = [
            0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
            0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1,
            3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1,
        ];
        let values = kernel_values(&code("0.07"), 2000);
        assert_eq!(values[..known.len()], known);
        // Period 34; the last exceptional value is at n = 52 (51 in Dawson's chess, 0.137).
        assert_eq!(preperiod(&values, 34), 53);
        // Dawson's chess 0.137 is Dawson's Kayles shifted by one (Winning Ways ch. 4).
        let chess = kernel_values(&code("0.137"), 1999);
        assert_eq!(chess[..], values[1..]);
    }

    #[test]
    fn grundys_game_known_values() {
        // Grundy's game 4!.0: Winning Ways p. 96 (OEIS A002188), n = 0..=29.
        let known = [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1,
            2,
        ];
        assert_eq!(kernel_values(&code("4!.0"), known.len()), known);
    }

    #[test]
    fn nim_and_subtraction_closed_forms() {
        // Nim: G(n) = n (Bouton 1901); to 300 so the table widens to u16 and the
        // values-above-64 paths run.
        let nim = kernel_values(&code("0.[3]"), 300);
        assert_eq!(nim, (0..300).collect::<Vec<u32>>());
        // Subtraction {1, 2, 3}: G(n) = n mod 4.
        let bash = kernel_values(&code("0.333"), 200);
        assert_eq!(bash, (0..200).map(|n| n % 4).collect::<Vec<u32>>());
    }

    #[test]
    fn subtraction_games() {
        // Subtraction {1, 3, 4}: period 7, 0 1 0 1 2 3 2 (Winning Ways ch. 4).
        let values = kernel_values(&TakeBreakCode::subtraction(&[1, 3, 4]), 70);
        let period = [0, 1, 0, 1, 2, 3, 2];
        assert_eq!(values, (0..70).map(|n| period[n % 7]).collect::<Vec<u32>>());
        // Long finite codes and "all but" tails against the oracle.
        for code in [
            TakeBreakCode::subtraction(&[2, 5, 11, 40]),
            TakeBreakCode::subtraction_all_but(&[2, 5]),
            TakeBreakCode::subtraction_all_but(&[]),
        ] {
            assert_eq!(
                kernel_values(&code, 150),
                naive::code_values(&code, 150),
                "{code}"
            );
        }
    }

    #[test]
    fn treblecross_matches_the_oracle() {
        let treblecross = code("0.007");
        assert_eq!(
            kernel_values(&treblecross, 300),
            naive::code_values(&treblecross, 300)
        );
    }

    #[test]
    fn parallel_split_loop_matches_the_oracle() {
        // A threshold of 2 sends nearly every heap through the rayon path, small and large values.
        for text in ["0.07", "0.77", "4!.0", "0.6", "4?.0", "0.[7]", "0.3[7]"] {
            let code = code(text);
            let len = 120;
            let expected = naive::code_values(&code, len);
            assert_eq!(kernel_values_parallel(&code, len, 2), expected, "{text}");
            assert_eq!(kernel_values_parallel(&code, len, 17), expected, "{text}");
        }
    }

    #[test]
    fn pair_loop_paths_for_every_value_width() {
        // Every option of 4.[4] is a split into two heaps, and its values grow with n (about
        // n - 1), so one run takes the register (< 64), byte-flag (< 256) and bitset (≥ 256)
        // paths of the 2-heap loop, sequentially and in parallel.
        let code = code("4.[4]");
        let len = 300;
        let expected = naive::code_values(&code, len);
        assert!(
            expected[..len / 2].iter().any(|v| (64..256).contains(v)) && expected[len - 1] >= 256
        );
        for threshold in [PARALLEL_SPLITS, 2, 17] {
            assert_eq!(
                kernel_values_parallel(&code, len, threshold),
                expected,
                "threshold {threshold}"
            );
        }
    }

    #[test]
    fn bitset_levels_widen_past_64() {
        // Digit B (leave 0, 1 or 3 heaps) repeating: values pass 64, so the level rows widen.
        let code = code("0.[B]");
        let kernel = kernel_values(&code, 110);
        assert!(
            kernel.iter().any(|&v| v >= 64),
            "the test must reach values of 64 or more"
        );
        assert_eq!(kernel, naive::code_values(&code, 110));
    }

    #[test]
    fn extending_a_partial_table_rebuilds_the_levels() {
        for text in [
            "0.F", "0.{2+}", "{3+}.7", "0.8[9]", "0.[3]", "0.1[23]", "0.0[37]",
        ] {
            let code = code(text);
            let mut table = SgTable::new();
            extend(&code, &mut table, 17, &mut Progress::hidden());
            extend(&code, &mut table, 30, &mut Progress::hidden());
            assert_eq!(table.to_vec(), naive::code_values(&code, 30), "{text}");
        }
    }

    #[test]
    fn hex_0f_is_the_parity_of_the_heap() {
        // Hex 0.F (remove one token, leave 0 to 3 heaps): G(n) = n mod 2 by induction (the
        // options of n are the parities of n − 1 tokens in 0 to 3 heaps; rules/hex-0f.sg).
        // Three-heap splits go through `lazy_mex` with one word of values.
        let values = kernel_values(&code("0.F"), 3000);
        assert_eq!(values, (0..3000).map(|n| n % 2).collect::<Vec<u32>>());
    }

    #[test]
    fn lazy_three_heap_mex_matches_every_level_built() {
        // Hex 0.9 (remove one token and leave no heap or three heaps): G(n) ≈ n/2, so the
        // values pass 64, 256 and 512 and `lazy_mex` runs over many words.
        let hex_09 = code("0.9");
        let lazy = kernel_values(&hex_09, 1500);
        assert!(lazy.iter().filter(|&&v| v >= 512).count() > 300);
        assert_eq!(lazy, eager_values(&hex_09, 1500));
        assert_eq!(lazy[..90], naive::code_values(&hex_09, 90)[..]);
        // Several digits leaving three heaps, one before the point, and a tail that leaves
        // three heaps too (then nothing is lazy) or only one.
        for text in [
            "0.99", "8.09", "0.B9", "0.3F", "0.9[1]", "0.9[8]", "0.{3,4}",
        ] {
            let code = code(text);
            let len = 400;
            assert_eq!(
                kernel_values(&code, len),
                eager_values(&code, len),
                "{text}"
            );
        }
    }

    #[test]
    fn lazy_levels_only_without_tail_digits_at_the_top() {
        assert!(LevelPlan::of(&code("0.9")).lazy_top);
        assert!(LevelPlan::of(&code("0.9[1]")).lazy_top);
        assert!(!LevelPlan::of(&code("0.9[8]")).lazy_top);
        assert!(!LevelPlan::of(&code("0.07")).lazy_top);
        // Splits into three and four heaps: only E_4 is lazy, E_2 and E_3 are kept.
        let plan = LevelPlan::of(&code("0.{3,4}"));
        assert!(plan.lazy_top && plan.max_exact == 4 && plan.stored_exact_levels() == 2);
    }

    #[test]
    fn a_kept_kernel_continues_the_table() {
        // In chunks with one state the dense kernel carries on from where it stopped (levels,
        // lazy lists, the tail's ring); a table extended elsewhere in between is caught up.
        for text in ["0.9", "0.[B]", "0.9[1]", "0.F", "4.[4]", "0.07"] {
            let code = code(text);
            let whole = kernel_values(&code, 700);
            let mut table = SgTable::new();
            let mut state = KernelState::default();
            for len in [1, 2, 50, 51, 300, 450] {
                extend_keeping(&code, &mut table, len, &mut Progress::hidden(), &mut state);
            }
            extend(&code, &mut table, 500, &mut Progress::hidden());
            extend_keeping(&code, &mut table, 700, &mut Progress::hidden(), &mut state);
            assert_eq!(table.to_vec(), whole, "{text}");
        }
    }

    #[test]
    fn working_memory_counts_bitset_levels() {
        assert_eq!(working_bytes_per_position(&code("0.07")), 0);
        assert_eq!(working_bytes_per_position(&code("0.8!")), 0);
        // Exact three heaps: levels E_2 and E_3.
        assert_eq!(working_bytes_per_position(&code("0.F")), 16);
        // Two or more heaps: S_1, S_2, S_3.
        assert_eq!(working_bytes_per_position(&code("0.{2+}")), 24);
    }

    /// A random digit: a hex mask or `{…}` counts with `j+`, with a random modifier.
    fn digit_strategy(allow_at_least: bool) -> impl Strategy<Value = Digit> {
        let at_least = if allow_at_least {
            prop::option::weighted(0.2, 0u32..5).boxed()
        } else {
            Just(None).boxed()
        };
        (0u64..16, at_least, 0u8..6).prop_map(|(mask, at_least, m)| Digit {
            heaps: HeapCounts { mask, at_least }.normalized(),
            // Half of the digits are plain, the rest carry one of the three modifiers.
            modifier: [
                Modifier::None,
                Modifier::None,
                Modifier::None,
                Modifier::Unequal,
                Modifier::Equal,
                Modifier::NotAllEqual,
            ][m as usize],
        })
    }

    /// A random code: `d0` a split-only digit, up to 5 more digits, sometimes a tail.
    fn code_strategy(allow_at_least: bool) -> impl Strategy<Value = TakeBreakCode> {
        let d0 = digit_strategy(allow_at_least).prop_map(|mut d| {
            d.heaps.mask &= !3;
            d.heaps.at_least = d.heaps.at_least.map(|j| j.max(2));
            d
        });
        // A zero-weighted d0 most of the time: splitting without removing is the rare case.
        let d0 = prop_oneof![3 => Just(Digit::default()), 1 => d0];
        let tail = prop_oneof![3 => Just(Vec::new()), 1 => prop::collection::vec(digit_strategy(allow_at_least), 1..3)];
        (
            d0,
            prop::collection::vec(digit_strategy(allow_at_least), 0..5),
            tail,
        )
            .prop_map(|(d0, rest, tail)| {
                let mut digits = vec![d0];
                digits.extend(rest);
                TakeBreakCode { digits, tail }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn kernel_matches_oracle_on_hex_codes(code in code_strategy(false), len in 1usize..72) {
            prop_assert_eq!(kernel_values(&code, len), naive::code_values(&code, len), "{}", code);
        }
    }

    /// A random hex code whose digits before the point often leave three heaps (bit 8), with
    /// the other bits random, and sometimes a tail.
    fn three_heap_code_strategy() -> impl Strategy<Value = TakeBreakCode> {
        let digit = prop_oneof![
            2 => (0u64..16).prop_map(|mask| mask | 8),
            1 => 0u64..16,
        ]
        .prop_map(Digit::from_mask);
        let d0 = prop_oneof![3 => Just(0u64), 1 => Just(8u64), 1 => Just(12u64)]
            .prop_map(Digit::from_mask);
        let tail = prop_oneof![3 => Just(Vec::new()), 1 => prop::collection::vec((0u64..16).prop_map(Digit::from_mask), 1..3)];
        (d0, prop::collection::vec(digit, 1..4), tail).prop_map(|(d0, rest, tail)| {
            let mut digits = vec![d0];
            digits.extend(rest);
            TakeBreakCode { digits, tail }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn lazy_three_heap_splits_match_the_oracle(code in three_heap_code_strategy(), len in 1usize..90) {
            prop_assert_eq!(kernel_values(&code, len), naive::code_values(&code, len), "{}", code);
        }

        #[test]
        fn lazy_three_heap_splits_match_every_level_built(code in three_heap_code_strategy(), len in 100usize..400) {
            prop_assert_eq!(kernel_values(&code, len), eager_values(&code, len), "{}", code);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        #[test]
        fn kernel_matches_oracle_with_at_least_digits(code in code_strategy(true), len in 1usize..26) {
            prop_assert_eq!(kernel_values(&code, len), naive::code_values(&code, len), "{}", code);
        }
    }
}
