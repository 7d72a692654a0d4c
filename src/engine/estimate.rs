//! How long a request `G(0..=N)` will take, estimated before any work, so that a caller can
//! say so up front when it is long (see [`estimate`]).
//!
//! The estimate counts the work of the kernel that will run — two-heap splits visited, values
//! of the sparse kernel, words of the bitset levels of three or more heaps, partitions listed,
//! rule loop steps — and multiplies each count by a rate measured on a current 2-core x86
//! machine (the `RATE_*` constants; AMD EPYC and Intel Xeon virtual machines). It is rough, within a factor of two or three: enough
//! to tell seconds from minutes from hours. The width of the values, which the levels' cost
//! depends on, is not known in advance: it is read off a short prefix of the table computed
//! for the purpose (a few milliseconds), and extrapolated.

use std::fmt;
use std::time::{Duration, Instant};

use super::{check_memory, feasible_to, sparse, takebreak, Progress, SgTable};
use crate::rules::code::TakeBreakCode;
use crate::rules::{Game, GameKind, Program};

/// Seconds per two-heap split visited by the dense kernel (0.5 ns while the values fit a
/// register, 2.4 ns for large ones: octal `0.[7]` to 5000 in 25 s).
const RATE_PAIR: f64 = 1.5e-9;
/// Seconds per value of the [sparse](super::sparse) kernel at 2^28 heaps, a little less for
/// smaller tables: `∝ N^0.15` (Grundy's game on 2 cores: 2^28 in 513 s and 2^24 in 21 s on
/// the benchmark machine, 2^22 in 15 s on a busier one).
const RATE_SPARSE_VALUE: f64 = 2.85e-6;
/// Seconds per word of the bitset levels XOR-translated or inserted.
const RATE_LEVEL_WORD: f64 = 2.0e-9;
/// Seconds per word read by the lazy top level (hex `0.9` to 65536 in 20 s, hex `0.F` in 9 s).
const RATE_LAZY_WORD: f64 = 1.0e-8;
/// Seconds per partition part listed (`!`/`?` digits with three or more heaps).
const RATE_PARTITION: f64 = 3.0e-9;
/// Seconds per loop step (binder value or move) of general rules.
const RATE_RULE_STEP: f64 = 3.0e-8;
/// Seconds per word of the running sets of one-heap options of a repeating tail, united into
/// the options and scanned for the mex (Nim, `0.[3]`: values up to n, `G(0..=10^6)` in 5.6 s).
const RATE_RING_WORD: f64 = 3.5e-10;

/// The prefix of the table sampled for the growth of the values: at most this many heaps, and
/// no more once sampling took [`SAMPLE_TIME`].
const SAMPLE_LEN: usize = 8192;
const SAMPLE_TIME: Duration = Duration::from_millis(40);

/// The expected cost of a request.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Expected seconds of computation (within a factor of two or three).
    pub seconds: f64,
    /// The work that dominates.
    pub work: Work,
}

/// What most of the time of a request goes to, with its size.
#[derive(Clone, Debug, PartialEq)]
pub enum Work {
    /// Two-heap splits visited by the dense take-and-break kernel.
    Pairs(f64),
    /// Values computed by the sparse kernel of octal games.
    SparseValues(f64),
    /// Words of the bitsets of splits into three or more heaps, with the values expected at
    /// the end of the table (the cost grows with their width).
    LevelWords {
        /// Words read or written.
        words: f64,
        /// The largest value expected.
        largest_value: u64,
    },
    /// Partitions listed for `!`/`?` digits that leave three or more heaps (times their parts).
    Partitions(f64),
    /// Loop steps (binder values and moves) of general rules.
    RuleSteps(f64),
    /// Words of the running sets of one-heap options of a repeating tail (as wide as the
    /// values: Nim's grow like n).
    RingWords(f64),
}

impl fmt::Display for Work {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Work::Pairs(n) => write!(f, "{} two-heap splits", count(*n)),
            Work::SparseValues(n) => write!(f, "{} values by the sparse kernel", count(*n)),
            Work::LevelWords {
                words,
                largest_value,
            } => write!(
                f,
                "{} bitset words of splits into three or more heaps, values up to about {largest_value}",
                count(*words)
            ),
            Work::Partitions(n) => write!(f, "{} partitions listed", count(*n)),
            Work::RuleSteps(n) => write!(f, "{} rule steps", count(*n)),
            Work::RingWords(n) => write!(f, "{} words of one-heap option sets", count(*n)),
        }
    }
}

/// `2.3e11`, or the number itself below a million.
pub fn count(n: f64) -> String {
    if n < 1e6 {
        format!("{}", n.round() as u64)
    } else {
        format!("{n:.1e}")
    }
}

/// Two counts compared in one message ("took A steps, more than the B allowed"): each as
/// [`count`] writes it, or both as whole numbers when their rounded forms would read the same
/// but the counts differ ("1.8e7, more than the 1.8e7" read as a contradiction).
pub fn counts_apart(a: u64, b: u64) -> (String, String) {
    let (shown_a, shown_b) = (count(a as f64), count(b as f64));
    if shown_a == shown_b && a != b {
        (a.to_string(), b.to_string())
    } else {
        (shown_a, shown_b)
    }
}

/// `n`, an estimate past `bound`, as [`count`] writes it, with more significant digits while
/// it would read as no more than `bound` ("more than 2e10 (about 2.0e10)"), and as a whole
/// number at worst.
pub fn count_above(n: f64, bound: f64) -> String {
    let shown = count(n);
    if n <= bound || reads_above(&shown, bound) {
        return shown;
    }
    (2..=15)
        .map(|digits| format!("{n:.digits$e}"))
        .find(|shown| reads_above(shown, bound))
        .unwrap_or_else(|| format!("{}", n.ceil() as u64))
}

/// Whether the number `shown` is more than `bound`.
fn reads_above(shown: &str, bound: f64) -> bool {
    shown.parse::<f64>().is_ok_and(|read| read > bound)
}

/// The expected cost of extending a table of `G(0..from)` of `game` to `G(0..=to)`; `None` for
/// position games, and for requests the engine refuses before any work (too large for memory,
/// or too slow: past [`budget::TIME_LIMIT_SECONDS`](super::budget::TIME_LIMIT_SECONDS) or the
/// rule steps allowed; those are errors, not estimates).
pub fn estimate(game: &Game, from: u64, to: u64) -> Option<Estimate> {
    if game.position_program().is_some() || check_memory(game, to).is_err() {
        return None;
    }
    if feasible_to(game, to).is_some() {
        return None;
    }
    let len = usize::try_from(to).ok()?.checked_add(1)?;
    let from = usize::try_from(from).ok()?.min(len);
    let parts = match &game.kind {
        GameKind::Code { code, .. }
        | GameKind::General {
            lowered: Some(code),
            ..
        } => code_costs(code, from, len)?,
        GameKind::General {
            program,
            lowered: None,
        } => vec![rule_costs(program, from, len)?],
        // Linear in the graph: never long enough to announce.
        GameKind::Graph { .. } => return None,
    };
    let seconds = parts.iter().map(|(s, _)| s).sum();
    if seconds > super::budget::TIME_LIMIT_SECONDS {
        // The engine refuses it (`budget::check_time`).
        return None;
    }
    let (_, work) = parts
        .into_iter()
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .expect("at least one part");
    Some(Estimate { seconds, work })
}

/// The widths of the values a code's estimate assumes.
enum Widths {
    /// The values read off a sampled prefix and extrapolated ([`ValueGrowth`]).
    Sampled(ValueGrowth),
    /// Every value below 64 (a lower bound of the cost).
    Narrowest,
    /// Values as large as the heap (an upper bound of the cost, for most codes).
    Widest,
}

impl Widths {
    fn largest_at(&self, m: usize) -> u64 {
        match self {
            Widths::Sampled(g) => g.largest_at(m),
            Widths::Narrowest => 0,
            Widths::Widest => m as u64,
        }
    }

    /// 64-bit words of the kernel's bitsets at heap `m` (a power of two).
    fn words_at(&self, m: usize) -> f64 {
        (self.largest_at(m) / 64 + 1).next_power_of_two() as f64
    }
}

/// The costs (seconds, work) of the take-and-break kernels for heaps `from..len`.
fn code_costs(code: &TakeBreakCode, from: usize, len: usize) -> Option<Vec<(f64, Work)>> {
    let needs_widths = (takebreak::has_levels(code) || ring_digits(code) > 0) && len > from;
    let widths = if needs_widths {
        Widths::Sampled(ValueGrowth::sample(code, len))
    } else {
        Widths::Narrowest
    };
    code_costs_with(code, from, len, &widths)
}

/// An estimate of extending `G(0..from)` of `code` to `G(0..len)`, sampling the growth of the
/// values only when the estimates with the narrowest and the widest values fall on either side
/// of `limit` seconds: cheap for every request far from it. `None` where [`estimate`] gives
/// none (a request too large for memory, or for listing partitions).
pub fn code_estimate_bounded(
    code: &TakeBreakCode,
    from: usize,
    len: usize,
    limit: f64,
) -> Option<Estimate> {
    if from >= len {
        return None;
    }
    let total = |parts: Vec<(f64, Work)>| {
        let seconds = parts.iter().map(|(s, _)| s).sum();
        let (_, work) = parts
            .into_iter()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .expect("at least one part");
        Estimate { seconds, work }
    };
    let narrowest = total(code_costs_with(code, from, len, &Widths::Narrowest)?);
    if narrowest.seconds > limit {
        return Some(narrowest);
    }
    let widest = total(code_costs_with(code, from, len, &Widths::Widest)?);
    if widest.seconds <= limit {
        return Some(widest);
    }
    Some(total(code_costs(code, from, len)?))
}

/// Digits of the repeating tail that may leave one heap: the kernel keeps one running set of
/// options per residue class for them (see [`takebreak`]), and unites these many into the
/// options of every heap.
fn ring_digits(code: &TakeBreakCode) -> usize {
    code.normalized()
        .tail
        .iter()
        .filter(|d| d.heaps.allows(1))
        .count()
}

fn code_costs_with(
    code: &TakeBreakCode,
    from: usize,
    len: usize,
    widths: &Widths,
) -> Option<Vec<(f64, Work)>> {
    // Finite octal codes go to the sparse kernel past its first 4096 heaps.
    const SPARSE_FROM: usize = 4096;
    if len > SPARSE_FROM && sparse::applies(code) {
        let values = (len - from.max(SPARSE_FROM)) as f64;
        let rate = RATE_SPARSE_VALUE * (len as f64 / (1u64 << 28) as f64).powf(0.15);
        return Some(vec![(values * rate, Work::SparseValues(values))]);
    }
    let levels_apply = takebreak::has_levels(code);
    let words = |m: usize| {
        if levels_apply {
            widths.words_at(m)
        } else {
            1.0
        }
    };
    let work = |len| takebreak::dense_work(code, len, &words);
    let (all, done) = (work(len), work(from));
    let pairs = all.pairs - done.pairs;
    let levels = (all.level_words - done.level_words) + (all.lazy_words - done.lazy_words);
    let level_seconds = (all.level_words - done.level_words) * RATE_LEVEL_WORD
        + (all.lazy_words - done.lazy_words) * RATE_LAZY_WORD;
    let listed = takebreak::listing_work(code, len, f64::INFINITY).ok()?
        - takebreak::listing_work(code, from, f64::INFINITY).ok()?;
    let largest_value = if levels_apply {
        widths.largest_at(len)
    } else {
        0
    };
    let ring = ring_words(code, from, len, widths);
    Some(vec![
        (pairs * RATE_PAIR, Work::Pairs(pairs)),
        (
            level_seconds,
            Work::LevelWords {
                words: levels,
                largest_value,
            },
        ),
        (listed * RATE_PARTITION, Work::Partitions(listed)),
        (ring * RATE_RING_WORD, Work::RingWords(ring)),
    ])
}

/// Words of the running one-heap option sets of the tail for heaps `from..len`: per heap, each
/// of the [`ring_digits`] sets united into the options and the mex's scan, as wide as the
/// values (in 64-bit words, not rounded up).
fn ring_words(code: &TakeBreakCode, from: usize, len: usize, widths: &Widths) -> f64 {
    let digits = ring_digits(code);
    if digits == 0 || from >= len {
        return 0.0;
    }
    let chunks = 256.min(len - from);
    let mut words = 0.0;
    for c in 0..chunks {
        let (a, b) = (
            from + (len - from) * c / chunks,
            from + (len - from) * (c + 1) / chunks,
        );
        let width = (widths.largest_at((a + b) / 2) / 64 + 1) as f64;
        words += (digits as f64 + 1.0) * width * (b - a) as f64;
    }
    words
}

/// The cost of general rules for heaps `from..len`: the rule steps of heaps sampled across
/// the range ([`budget::rule_steps_from`]). `None` when they pass the steps the engine allows
/// (it refuses the request), or a rule fails (the engine reports it).
fn rule_costs(program: &Program, from: usize, len: usize) -> Option<(f64, Work)> {
    if from >= len {
        return Some((0.0, Work::RuleSteps(0.0)));
    }
    let limit = super::budget::steps_limit();
    let steps =
        match super::budget::rule_steps_from(program, &[from as u64], &[len as u64 - 1], limit) {
            super::budget::Steps::Within { estimate } => estimate,
            _ => return None,
        };
    Some((steps * RATE_RULE_STEP, Work::RuleSteps(steps)))
}

/// How the largest value grows with `n`, from a prefix of the table: `largest(n) ≈
/// largest(L) · (n / L)^e`, with `e` from the largest values at `L/2` and `L` (between 0 for
/// values that stay put and 1 for values that grow like `n`, as those of hex `0.9` do).
struct ValueGrowth {
    len: usize,
    largest: u32,
    exponent: f64,
}

impl ValueGrowth {
    fn sample(code: &TakeBreakCode, len: usize) -> Self {
        let started = Instant::now();
        let mut table = SgTable::new();
        let mut half = 0;
        let mut sampled = 256.min(len);
        loop {
            takebreak::extend(code, &mut table, sampled, &mut Progress::hidden());
            if sampled >= len.min(SAMPLE_LEN) || started.elapsed() > SAMPLE_TIME {
                break;
            }
            half = table.max_value();
            sampled = (2 * sampled).min(len);
        }
        let largest = table.max_value();
        let exponent = if sampled >= len || largest < 2 {
            0.0
        } else if half == 0 {
            1.0
        } else {
            (f64::from(largest) / f64::from(half))
                .log2()
                .clamp(0.0, 1.0)
        };
        ValueGrowth {
            len: sampled,
            largest,
            exponent,
        }
    }

    /// The largest value expected in `G(0..m)`.
    fn largest_at(&self, m: usize) -> u64 {
        if m <= self.len || self.exponent == 0.0 {
            return u64::from(self.largest);
        }
        let scale = (m as f64 / self.len as f64).powf(self.exponent);
        (f64::from(self.largest) * scale).round() as u64
    }

    /// The width in 64-bit words of the kernel's bitsets at heap `m`.
    fn words_at(&self, m: usize) -> u64 {
        (self.largest_at(m) / 64 + 1).next_power_of_two()
    }
}

/// Bytes of the bitset levels (splits into three or more heaps) for `G(0..=to)` of `code`, 0
/// for codes without levels. Their rows are as wide as the values: when even values as large
/// as `n` would fit in a quarter of the memory available, that bound is the answer; otherwise
/// the width is read off a sampled prefix and extrapolated.
pub fn level_bytes(code: &TakeBreakCode, to: u64) -> u64 {
    if !takebreak::has_levels(code) {
        return 0;
    }
    let Some(len) = usize::try_from(to).ok().and_then(|to| to.checked_add(1)) else {
        return u64::MAX;
    };
    let widest = takebreak::level_bytes(code, len, (len / 64 + 1).next_power_of_two());
    if widest <= super::available_memory() / 4 {
        return widest;
    }
    let words = ValueGrowth::sample(code, len).words_at(len);
    takebreak::level_bytes(code, len, usize::try_from(words).unwrap_or(usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load, SourceFile};

    #[test]
    fn compared_counts_read_apart_when_they_differ() {
        // The moves leaving a box: 1.8e7 steps, "more than the 1.8e7 allowed".
        assert_eq!(
            counts_apart(17_825_793, 17_825_792),
            ("17825793".to_string(), "17825792".to_string())
        );
        assert_eq!(
            counts_apart(25_000_000, 17_825_792),
            ("2.5e7".to_string(), "1.8e7".to_string())
        );
        assert_eq!(
            counts_apart(4_000, 3_999),
            ("4000".to_string(), "3999".to_string())
        );
        assert_eq!(
            counts_apart(17_825_792, 17_825_792),
            ("1.8e7".to_string(), "1.8e7".to_string())
        );
        // An estimate past a limit reads past it.
        assert_eq!(count_above(2.04e10, 2e10), "2.04e10");
        assert_eq!(count_above(2.0001e10, 2e10), "2.0001e10");
        assert_eq!(count_above(3.1e10, 2e10), "3.1e10");
        assert_eq!(count_above(20_000_000_001.0, 2e10), "2.0000000001e10");
        assert_eq!(count_above(1.5e9, 2e10), "1.5e9");
    }

    fn game(text: &str) -> Game {
        load(SourceFile::new("<test>", text), &[]).unwrap()
    }

    fn seconds(text: &str, to: u64) -> f64 {
        estimate(&game(text), 0, to).unwrap().seconds
    }

    #[test]
    fn small_requests_are_quick_and_large_ones_are_not() {
        for text in [
            "octal 0.07",
            "hex 0.9",
            "hex 0.F",
            "takebreak 4!.0",
            "octal 0.[7]",
        ] {
            // A second or so (octal 0.[7], cubic: 6.7e8 splits and its one-heap sets).
            assert!(seconds(text, 2000) < 1.5, "{text}");
        }
        // Sparse: Grundy's game to 2^30 takes about half an hour.
        let grundy = estimate(&game("takebreak 4!.0"), 0, 1 << 30).unwrap();
        assert!((600.0..7200.0).contains(&grundy.seconds), "{grundy:?}");
        assert!(matches!(grundy.work, Work::SparseValues(_)));
        // Hex 0.9: values grow like n/2, the cost like n² (about 20 s to 65536).
        let hex = estimate(&game("hex 0.9"), 0, 1 << 18).unwrap();
        assert!(hex.seconds > 60.0, "{hex:?}");
        match hex.work {
            Work::LevelWords { largest_value, .. } => {
                assert!(
                    (100_000..200_000).contains(&largest_value),
                    "{largest_value}"
                )
            }
            other => panic!("{other:?}"),
        }
        // A tail of two-heap splits is cubic: to 20000 in half an hour or so; to 100000 in
        // days, which the engine refuses (no estimate: `budget::check_time`).
        assert!(seconds("octal 0.[7]", 20_000) > 600.0);
        assert_eq!(estimate(&game("octal 0.[7]"), 0, 100_000), None);
        // What is computed already is not counted again.
        let rest = estimate(&game("octal 0.[7]"), 19_500, 20_000).unwrap();
        assert!(rest.seconds < seconds("octal 0.[7]", 20_000) / 10.0);
    }

    #[test]
    fn refused_and_position_requests_have_no_estimate() {
        assert_eq!(estimate(&game("octal 0.07"), 0, 1 << 60), None);
        let position = "position (x, y)\nmove take: t in 1..=x => (x - t, y)\n";
        assert_eq!(estimate(&game(position), 0, 10), None);
        assert_eq!(
            estimate(&game("move x in 0..=1000000000 => n"), 0, 100),
            None
        );
    }

    #[test]
    fn general_rules_count_their_loop_steps() {
        // About n steps at n (the divisor candidates, and a few moves): n²/2 in total.
        let e = estimate(
            &game("move subtract: d in 1..n if n % d == 0 => n - d"),
            0,
            10_000,
        );
        let e = e.unwrap();
        match e.work {
            Work::RuleSteps(steps) => assert!((3e7..2e8).contains(&steps), "{steps}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn level_memory_follows_the_values() {
        // Hex 0.F keeps values 0 and 1: one word per heap. Hex 0.9 grows like n/2: a request
        // that would need terabytes is refused before any work.
        let code = |text: &str| game(text).code().unwrap().clone();
        assert_eq!(level_bytes(&code("octal 0.07"), 1 << 30), 0);
        let small = level_bytes(&code("hex 0.F"), 1 << 40);
        assert!(small < 20 << 40, "{small}");
        let wide = level_bytes(&code("hex 0.9"), 1 << 24);
        assert!(wide > 4 << 40, "{wide}");
        assert!(check_memory(&game("hex 0.9"), 1 << 24).is_err());
        assert!(check_memory(&game("hex 0.9"), u64::MAX / 2).is_err());
    }

    #[test]
    fn work_is_worded_without_flags() {
        let words = Work::LevelWords {
            words: 2.3e11,
            largest_value: 32768,
        };
        assert_eq!(
            words.to_string(),
            "2.3e11 bitset words of splits into three or more heaps, values up to about 32768"
        );
        assert_eq!(Work::Pairs(1234.0).to_string(), "1234 two-heap splits");
    }
}
