//! The kernel for finite take-away codes: codes whose moves leave at most one heap — the
//! subtraction games of Winning Ways ch. 4 (`subtraction 1..=k` is `0.333…3`, `k` threes) and
//! their variants that may or must take the whole heap.
//!
//! A move from a heap of `n` takes `k` tokens; digit `d_k` with bit 1 lets it leave the one
//! non-empty heap `n − k` (so `k < n`), bit 0 lets it take the whole heap (`k = n`, value 0).
//! Group the `k` with bit 1 into maximal runs `[a, b]`: run `[a, b]` offers the values of the
//! window `G(max(1, n − b) ..= n − a)`, which slides by one heap as `n` grows. A count per value
//! over all windows, and a two-level bitset of the values whose count is zero, give
//! `G(n) = mex` in `O(runs + V/4096)` per heap, `V` the largest value, where visiting each
//! option costs `O(|S|)`: `subtraction 1..=100000` is one run, so its `2·10^5` heaps — what
//! the periodicity theorem needs to prove its period — take milliseconds instead of `2·10^10`
//! steps.
//!
//! The values are bounded: a heap has at most `Σ (b − a + 1) + 1` options, so
//! `G(n) ≤ |S| + 1` (the reason such a game is never arithmetic-periodic).

use super::table::SgTable;
use super::Progress;
use crate::rules::code::TakeBreakCode;

/// True when every move of `code` leaves at most one heap and the code is finite: the games
/// this kernel computes.
pub fn applies(code: &TakeBreakCode) -> bool {
    let code = code.normalized();
    code.is_finite() && code.max_heaps().is_some_and(|most| most <= 1)
}

/// The moves of a finite take-away code, grouped for the sliding windows.
struct Runs {
    /// Maximal runs `[a, b]` (`a ≥ 1`) of takes whose digit allows leaving one heap.
    leave_one: Vec<(usize, usize)>,
    /// `take_all[n]`: a heap of exactly `n` may be taken whole (digit `d_n` allows 0 heaps).
    take_all: Vec<bool>,
}

impl Runs {
    fn of(code: &TakeBreakCode) -> Self {
        let code = code.normalized();
        let mut leave_one = Vec::new();
        let mut start: Option<usize> = None;
        for k in 1..=code.digits.len() {
            let one = k < code.digits.len() && code.digits[k].heaps.allows(1);
            match (one, start) {
                (true, None) => start = Some(k),
                (false, Some(a)) => {
                    leave_one.push((a, k - 1));
                    start = None;
                }
                _ => {}
            }
        }
        let take_all = code.digits.iter().map(|d| d.heaps.allows(0)).collect();
        Runs {
            leave_one,
            take_all,
        }
    }

    /// Options a heap can have at most (window sizes, plus taking all): a bound on the values.
    fn most_options(&self) -> usize {
        self.leave_one.iter().map(|(a, b)| b - a + 1).sum::<usize>() + 1
    }

    fn takes_all(&self, n: usize) -> bool {
        self.take_all.get(n).copied().unwrap_or(false)
    }
}

/// Counts of the values in the windows, with the values of count zero in a two-level bitset
/// for a fast mex.
struct WindowCounts {
    count: Vec<u32>,
    /// Bit `v`: no window holds value `v`.
    absent: Vec<u64>,
    /// Bit `i`: word `i` of `absent` is non-zero.
    summary: Vec<u64>,
}

impl WindowCounts {
    fn new(values: usize) -> Self {
        let words = values.div_ceil(64);
        let mut absent = vec![u64::MAX; words];
        if !values.is_multiple_of(64) {
            absent[words - 1] = (1u64 << (values % 64)) - 1;
        }
        let mut summary = vec![u64::MAX; words.div_ceil(64)];
        if !words.is_multiple_of(64) {
            summary[words.div_ceil(64) - 1] = (1u64 << (words % 64)) - 1;
        }
        WindowCounts {
            count: vec![0; values],
            absent,
            summary,
        }
    }

    fn add(&mut self, value: u32) {
        let v = value as usize;
        self.count[v] += 1;
        if self.count[v] == 1 {
            let w = v / 64;
            self.absent[w] &= !(1u64 << (v % 64));
            if self.absent[w] == 0 {
                self.summary[w / 64] &= !(1u64 << (w % 64));
            }
        }
    }

    fn remove(&mut self, value: u32) {
        let v = value as usize;
        self.count[v] -= 1;
        if self.count[v] == 0 {
            let w = v / 64;
            self.absent[w] |= 1u64 << (v % 64);
            self.summary[w / 64] |= 1u64 << (w % 64);
        }
    }

    /// The smallest value no window holds, skipping 0 when `zero_reached` (taking all).
    fn mex(&self, zero_reached: bool) -> u32 {
        let mut skip_zero = zero_reached;
        for (s, &summary) in self.summary.iter().enumerate() {
            let mut bits = summary;
            while bits != 0 {
                let w = s * 64 + bits.trailing_zeros() as usize;
                let mut word = self.absent[w];
                if skip_zero && w == 0 {
                    word &= !1;
                    skip_zero = false;
                }
                if word != 0 {
                    return (w * 64 + word.trailing_zeros() as usize) as u32;
                }
                bits &= bits - 1;
            }
        }
        unreachable!("the counts have room for one value more than any heap has options")
    }
}

/// Computes `G(table.len()..len)` for a code that [`applies`] and pushes the values onto
/// `table`. The windows are rebuilt from the table at each call, in `O(|S|)`.
pub fn extend(code: &TakeBreakCode, table: &mut SgTable, len: usize, progress: &mut Progress) {
    let start = table.len();
    if start >= len {
        return;
    }
    let runs = Runs::of(code);
    // One more slot than options, so that the mex always lands in the array.
    let mut counts = WindowCounts::new(runs.most_options() + 1);
    // The window of run [a, b] at heap n: G(m) for max(1, n − b) ≤ m ≤ n − a.
    let window = |n: usize, (a, b): (usize, usize)| (n.saturating_sub(b).max(1), n.checked_sub(a));
    for &run in &runs.leave_one {
        if let (low, Some(high)) = window(start, run) {
            for m in low..=high {
                counts.add(table.get(m));
            }
        }
    }
    for n in start..len {
        if n > start {
            for &(a, b) in &runs.leave_one {
                // Heap n − a enters the window; heap n − 1 − b, its lowest at n − 1, leaves.
                if n > a {
                    counts.add(table.get(n - a));
                }
                if n > b + 1 {
                    counts.remove(table.get(n - 1 - b));
                }
            }
        }
        let value = counts.mex(runs.takes_all(n));
        table.push(value);
        if n % 4096 == 0 {
            progress.tick(n as u64 + 1);
        }
    }
    progress.set(len as u64);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::analysis::testing::code_from_digits;
    use crate::oracle::naive;

    fn kernel(code: &TakeBreakCode, len: usize) -> Vec<u32> {
        let mut table = SgTable::new();
        extend(code, &mut table, len, &mut Progress::hidden());
        table.to_vec()
    }

    /// Subtraction {1, …, k}: G(n) = n mod (k + 1) (Winning Ways ch. 4, the Bash game).
    #[test]
    fn bash_is_n_mod_k_plus_one() {
        for k in [1usize, 2, 3, 7, 100, 3000] {
            let code = code_from_digits(&"3".repeat(k));
            let values = kernel(&code, 3 * k + 10);
            for (n, &v) in values.iter().enumerate() {
                assert_eq!(v as usize, n % (k + 1), "k = {k}, n = {n}");
            }
        }
    }

    /// In chunks, the windows rebuilt at each call give the same table.
    #[test]
    fn chunks_equal_one_call() {
        let code = code_from_digits("3023330003");
        let whole = kernel(&code, 500);
        let mut table = SgTable::new();
        for to in [1, 2, 7, 8, 9, 100, 333, 500] {
            extend(&code, &mut table, to, &mut Progress::hidden());
        }
        assert_eq!(table.to_vec(), whole);
    }

    proptest! {
        /// Against the naive engine (explicit moves, `oracle::naive`), on random one-heap codes
        /// mixing digits 0–3 (take-all only, leave-one only, both).
        #[test]
        fn matches_the_naive_engine(digits in proptest::collection::vec(0u64..4, 1..40), len in 1usize..300) {
            let text: String = digits.iter().map(|d| char::from_digit(*d as u32, 16).unwrap()).collect();
            let code = code_from_digits(&text);
            prop_assert_eq!(kernel(&code, len), naive::code_values(&code, len));
        }
    }
}
