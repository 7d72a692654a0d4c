//! One heap's value: the options with a rare part, then a scan of the other splits until the
//! least missing value is known to be the mex (see the [module docs](super)).

use super::mask::best_mask;
use super::pipeline::FarPart;
use super::Mask;
use crate::engine::mex::FlagSet;
use crate::engine::table::{with_values, Values};
use crate::engine::SgTable;
use crate::rules::code::{Modifier, TakeBreakCode};
use crate::theory::sparse_space::heap_parity_offset;

/// Splits scanned per splitting `k` before the candidate is tested again.
pub(super) const SCAN_BLOCK: usize = 32;

/// Work done in the heaps since the last review, in pairs looked at.
#[derive(Default)]
pub(super) struct Window {
    /// The first heap of the window.
    pub(super) start: usize,
    /// Splits the sparse kernel evaluated (rare splits and scanned splits).
    pub(super) sparse: u64,
    /// Splits the dense kernel would have evaluated.
    pub(super) dense: u64,
    /// Splits the main thread's scans evaluated (part of `sparse`).
    pub(super) scanned: u64,
}

/// The main thread's working state: the code's moves sorted by what they leave, the mask and
/// the rare positions under it, and the option set of the heap being computed.
pub(super) struct Kernel {
    /// `k ≥ 1` whose digit allows leaving no heap.
    pub(super) zero_ks: Vec<usize>,
    /// `k ≥ 1` whose digit allows leaving one heap.
    pub(super) one_ks: Vec<usize>,
    /// `k ≥ 0` whose digit allows leaving two heaps (not under `=`), increasing.
    pub(super) split_ks: Vec<usize>,
    /// For each of `split_ks`: the digit carries `!`, so the two heaps must differ.
    pub(super) split_unequal: Vec<bool>,
    /// `k ≥ 0` whose digit allows leaving two *equal* heaps only (`=`): value 0 when
    /// `n − k ≥ 2` is even.
    pub(super) equal_ks: Vec<usize>,
    /// The parity of the splitting `k`s when they all have one: the heap-parity bit may then be
    /// used, with this offset.
    pub(super) parity_offset: Option<u8>,
    pub(super) mask: Mask,
    /// Rare positions `x ≥ 1`, increasing, and their values.
    pub(super) rare: Vec<usize>,
    pub(super) rare_values: Vec<u32>,
    /// Table length when the mask was last chosen.
    pub(super) chosen_at: usize,
    pub(super) set: FlagSet,
    /// The order of the scan's blocks (see [`scan_order`]).
    pub(super) spread_scan: bool,
}

impl Kernel {
    pub(super) fn new(code: &TakeBreakCode, table: &SgTable) -> Self {
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
        let parity_offset = heap_parity_offset(&code);
        let mut kernel = Kernel {
            zero_ks: with_bit(0, 1, &any),
            one_ks: with_bit(1, 1, &any),
            equal_ks: with_bit(2, 0, &|m| m == Modifier::Equal),
            split_ks,
            split_unequal,
            parity_offset,
            mask: Mask {
                values: 1,
                parity: false,
                parity_offset: 0,
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
    pub(super) fn choose_mask(&mut self, table: &SgTable) {
        self.set.fit(table.max_value());
        with_values!(table.storage(), |values| {
            let all = (0..values.len()).map(|x| values.at(x));
            self.mask = best_mask(all.clone(), table.max_value(), self.parity_offset);
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
    pub(super) fn record(&mut self, x: usize, value: u32) {
        self.set.fit(value);
        if x >= 1 && self.mask.is_rare(x, value) {
            self.rare.push(x);
            self.rare_values.push(value);
        }
    }

    /// `G(n)` for `n = g.len()`, given `g = G(0..n)`.
    pub(super) fn value<V: Values + ?Sized>(
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

/// Windows of [`PROGRESS_EVERY`](super::PROGRESS_EVERY) heaps between two trials of the scan orders.
const ORDER_TRIAL_EVERY: usize = 16;

/// Picks the order of each window's scans (see [`scan_order`]) from the cost of the last
/// window (splits scanned per heap): every [`ORDER_TRIAL_EVERY`] windows one runs in order and
/// the next spread, and the spread order is kept until the next trial if it scanned under
/// three quarters of the splits (it touches more cache lines per split). Only the cost depends
/// on the order, never the values.
#[derive(Default)]
pub(super) struct OrderTrial {
    /// Windows finished.
    pub(super) windows: usize,
    /// Splits scanned per heap in the last in-order trial.
    pub(super) in_order_cost: f64,
}

impl OrderTrial {
    pub(super) fn next_window(&mut self, scan_cost: f64, kernel: &mut Kernel) {
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
pub(super) fn scan_order(longest: usize, spread: bool) -> impl Iterator<Item = usize> {
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

    use super::super::testing::*;
    use super::super::{applies, Policy};
    use super::*;
    use crate::engine::{takebreak, Progress};
    use crate::oracle::naive;

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

    /// Far comparison for the report: `cargo test --release --lib sparse::kernel::tests::far -- --ignored`.
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
}
