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
//!   position `x` is rare when `popcount(G(x) & M) + e·((x + s) mod 2)` is even, `s` the
//!   parity of the splitting `k`s; as `a + b = m`, a split of two common positions then has a
//!   value `x` with `popcount(x & M) ≡ e·(m mod 2)`. That is only used when every splitting `k`
//!   has the same parity, so that for each heap one class of values is "exact" (see below), and
//!   the offset `s` makes the exact class the common one, as without the parity bit. Both rules are stated once, in
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
//! The option set is a [`FlagSet`](super::mex::FlagSet) (one byte per value: an insert is one store, independent of
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
//! `n ≥ n0`) and extends the table by that period (submodule `fill`): checked when a call starts and
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
//!
//! The parts (private submodules): `kernel` computes one heap's value (rare splits, then the
//! scan); `pipeline` gives the far splits to a second thread; `mask` chooses the mask; `fill`
//! extends a table by a proved period; this module holds the entry points and the main
//! thread's loop.

mod fill;
mod kernel;
mod mask;
mod pipeline;
#[cfg(test)]
mod testing;

use std::ops::Range;

use super::table::with_values;
use super::{Progress, SgTable};
use crate::rules::code::{Modifier, TakeBreakCode};
use crate::theory::periodicity::Theorem;
use fill::{fill_by_period, fill_proven_period};
use kernel::{Kernel, OrderTrial, Window};
pub use mask::{best_mask, Mask};
use pipeline::{FarSets, Helper, Pipeline, PIPELINE_BLOCK, PIPELINE_WORK};

/// How often (in heaps) the progress bar is updated and the cost is reviewed.
const PROGRESS_EVERY: usize = 4096;

/// From this many heaps on, the mask is chosen again whenever the table has doubled.
const RECHOOSE_EVERY_DOUBLING_FROM: usize = 1 << 16;

/// Heaps below this are never a reason to give up (the costs are too small to compare).
const GIVE_UP_FROM: usize = 2048;

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
    /// A period the periodicity theorem proved for this code's table: a later call extends
    /// the table by it at once, without trying the theorem again (it is tried only at powers
    /// of two, so a run in chunks would otherwise go back to computing every value).
    proven: Option<(TakeBreakCode, usize)>,
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
    if let Some((_, period)) =
        (state.proven.as_ref()).filter(|(c, _)| theorem.is_some() && c == code)
    {
        fill_by_period(table, len, *period);
        progress.set(len as u64);
        return (true, 0);
    }
    // The theorem is tried at each power of two (here and in `Run::heaps`): a try costs up to
    // `8·len` comparisons, too many for every call of a run that comes in chunks.
    if let Some(period) = (theorem.as_ref())
        .filter(|_| start.is_power_of_two())
        .and_then(|theorem| fill_proven_period(table, len, theorem))
    {
        state.proven = Some((code.clone(), period));
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
        proven: None,
    };
    // The pipeline runs inside the pool, so that each block's `join` only pushes the helper's
    // job to a worker's queue.
    let stop = match pipeline {
        Some(pipeline) => rayon::scope(|_| run.pipelined(pipeline)),
        None => run.heaps(start..len, None),
    };
    if let Some(period) = run.proven {
        state.proven = Some((code.clone(), period));
    }
    if let Some(finished) = stop {
        return (finished, run.helped_blocks);
    }
    run.progress.set(len as u64);
    *state = SparseState {
        proven: None,
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
    /// The period the theorem proved, once it filled the table.
    proven: Option<usize>,
}

impl Run<'_> {
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
            if let Some(period) = (self.theorem.as_ref())
                .filter(|_| power_of_two)
                .and_then(|theorem| fill_proven_period(self.table, self.len, theorem))
            {
                self.proven = Some(period);
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::testing::*;
    use super::*;
    use crate::engine::takebreak;

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
