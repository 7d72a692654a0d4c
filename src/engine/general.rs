//! The engine for general move rules: `G(n) = mex { G(h1) ⊕ … ⊕ G(hj) : n → h1 + … + hj }`
//! (the Sprague–Grundy theorem: a sum of heaps has the XOR of their values). Each move's
//! heaps are smaller than `n`, which [`Program::for_each_move`] guarantees, so the table is
//! filled in order.

use super::budget::Meter;
use super::jit::{self, Kernel, Window};
use super::{MexSet, Nimber, Progress, SgTable};
use crate::rules::program::{Scratch, Stop};
use crate::rules::{Diagnostic, Program};

/// Extends `table` (holding `G(0..table.len())`) to `len` values with the moves of `program`.
///
/// On a run-time rule error the table keeps the values computed before the failing position.
pub fn extend(
    program: &Program,
    table: &mut SgTable,
    len: usize,
    progress: &mut Progress,
) -> Result<(), Diagnostic> {
    match extend_within(program, table, len, progress, &mut Meter::new(u64::MAX)) {
        Ok(()) | Err(GeneralStop::OutOfBudget { .. }) => Ok(()),
        Err(GeneralStop::Rule(diagnostic)) => Err(diagnostic),
    }
}

/// Why [`extend_within`] stopped.
#[derive(Debug)]
pub enum GeneralStop {
    /// A rule failed at run time.
    Rule(Diagnostic),
    /// The meter ran out at heap `at` (the table holds `G(0..at)`), in rule `rule`.
    OutOfBudget {
        /// The heap being computed.
        at: u64,
        /// The rule that was running.
        rule: Option<usize>,
    },
}

/// [`extend`], spending the rule steps of `meter` (the interpreter's loop count, handed from
/// one heap to the next: no cost beyond the count it keeps anyway).
pub fn extend_within(
    program: &Program,
    table: &mut SgTable,
    len: usize,
    progress: &mut Progress,
    meter: &mut Meter,
) -> Result<(), GeneralStop> {
    let mut options = MexSet::with_capacity(256);
    let mut scratch = Scratch::default();
    table.reserve(len.saturating_sub(table.len()));
    let mut compiled = Compiled::new(program, table, len);
    for n in table.len()..len {
        if let Some(compiled) = &mut compiled {
            if let Some(value) = compiled.value(n as u64, &mut meter.left) {
                table.push(value);
                compiled.push(value);
                progress.tick(n as u64 + 1);
                continue;
            }
        }
        options.clear();
        let listed =
            program.for_each_move_in(n as u64, &mut scratch, &mut meter.left, &mut |heaps| {
                let value: Nimber = heaps.iter().map(|&h| table.get(h as usize)).sum();
                options.insert(value.value());
                // Within one heap too: a rule of several binders can take minutes at one `n`,
                // and a line then says which `n` is still running.
                progress.tick(n as u64);
            });
        match listed {
            Ok(()) | Err(Stop::Break) => {}
            Err(Stop::Error(diagnostic)) => return Err(GeneralStop::Rule(diagnostic)),
            Err(Stop::OutOfBudget) => {
                return Err(GeneralStop::OutOfBudget {
                    at: n as u64,
                    rule: scratch.out_of_budget_in(),
                })
            }
        }
        let value = options.mex();
        table.push(value);
        if let Some(compiled) = &mut compiled {
            compiled.push(value);
        }
        // `tick` looks at the clock only as often as it needs to.
        progress.tick(n as u64 + 1);
    }
    Ok(())
}

/// The largest table the machine code runs on: it reads a copy of the values as `u32`
/// (4 bytes each, beside the narrow table), and keeps their last occurrences when a rule is a
/// window of the table.
const COMPILED_LIMIT: usize = 1 << 26;

/// A heap game's rules in machine code ([`jit`]), with the copy of the table it reads.
struct Compiled {
    kernel: Kernel,
    values: Vec<u32>,
    window: Window,
    scratch: jit::Scratch,
}

impl Compiled {
    /// `None` when the rules do not compile or the table would be too large for the copy.
    fn new(program: &Program, table: &SgTable, len: usize) -> Option<Compiled> {
        if len > COMPILED_LIMIT || table.len() >= len {
            return None;
        }
        let kernel = Kernel::compile_heap(program)?;
        let values = table.to_vec();
        let window = if kernel.uses_window() {
            Window::new(&values)?
        } else {
            Window::default()
        };
        Some(Compiled {
            kernel,
            values,
            window,
            scratch: jit::Scratch::default(),
        })
    }

    /// `G(n)` by the machine code, its steps spent from `budget`; `None`: the interpreter's.
    fn value(&mut self, n: u64, budget: &mut u64) -> Option<u32> {
        match self
            .kernel
            .heap_value(n, &self.values, &self.window, *budget, &mut self.scratch)
        {
            jit::Valued::Value(value, steps) => {
                *budget -= steps;
                Some(value)
            }
            jit::Valued::Bail => None,
        }
    }

    /// Appends the next value, however it was found.
    fn push(&mut self, value: u32) {
        self.values.push(value);
        if self.kernel.uses_window() {
            self.window.push(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::interp;
    use crate::rules::{load, GameKind, SourceFile};

    fn general_values(text: &str, len: usize) -> Vec<u32> {
        let game = load(SourceFile::new("t.sg", text), &[]).unwrap();
        let GameKind::General { program, .. } = &game.kind else {
            panic!("not general")
        };
        let mut table = SgTable::new();
        extend(program, &mut table, len, &mut Progress::hidden()).unwrap();
        table.to_vec()
    }

    #[test]
    fn known_sequences() {
        // Bash game with k = 3: G(n) = n mod 4 (Winning Ways ch. 4, subtraction games).
        let bash = general_values("param k = 3\nmove x in 1..=min(k, n) => n - x", 40);
        assert_eq!(bash, (0..40).map(|n| n % 4).collect::<Vec<_>>());
        // Dawson's Kayles 0.07 as a split rule: OEIS A002187 starts 0,0,1,1,2,0,3,1,1,0,3,3,2,2,4,0,5,2,2,3.
        let dawson = general_values("move i in 0..=n-2 => i, n - 2 - i", 20);
        assert_eq!(
            dawson,
            vec![0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3]
        );
        // Divisor game "subtract a proper divisor": G(n) = number of times 2 divides n (OEIS A007814
        // shifted: G(n) = v2(n) for n ≥ 1, G(0) = 0 since 0 has no move here).
        let divisors = general_values("move d in 1..n if n % d == 0 => n - d", 33);
        let v2 = |n: u32| if n == 0 { 0 } else { n.trailing_zeros() };
        assert_eq!(divisors, (0..33).map(v2).collect::<Vec<_>>());
    }

    #[test]
    fn take_at_most_half() {
        // Take 1..=n/2 tokens: G(2m) = m, G(2m + 1) = G(m) (OEIS A025480).
        let values = general_values("move take: x in 1..=n/2 => n - x", 200);
        for n in 1..200 {
            let want = if n % 2 == 0 {
                n as u32 / 2
            } else {
                values[n / 2]
            };
            assert_eq!(values[n], want, "n = {n}");
        }
    }

    #[test]
    fn heaps_of_size_zero_are_position_zero() {
        // No move from 0: a heap of 0 adds nothing, so `0, n - 1` is the same as `n - 1`.
        assert_eq!(
            general_values("move x in 1..=min(2, n) => 0, n - x", 12),
            (0..12).map(|n| n % 3).collect::<Vec<_>>()
        );
        // `move => none` also moves from 0, so G(0) = 1 and a heap of 0 counts: from 1 the
        // only move leaves (0, 0), of value 1 ⊕ 1 = 0, and the empty sum, of value 0.
        assert_eq!(
            general_values("move => none\nmove if n >= 1 => 0, 0", 3),
            vec![1, 1, 1]
        );
    }

    #[test]
    fn engine_agrees_with_interpreter() {
        let text =
            "param k = 4\nmove a in 0..=n, len in 1..=k if a + len <= n => a, n - a - len\nmove if n % 3 == 1 => none";
        assert_eq!(
            general_values(text, 60),
            interp::values(&SourceFile::new("t.sg", text), &[], 60).unwrap()
        );
    }

    #[test]
    fn run_time_error_rendering_matches_the_docs() {
        let text = "param k = 3\nmove x in 1..=k => n - x\n";
        let game = load(SourceFile::new("bash.sg", text), &[]).unwrap();
        let GameKind::General { program, .. } = &game.kind else {
            panic!()
        };
        let err = extend(program, &mut SgTable::new(), 10, &mut Progress::hidden()).unwrap_err();
        let want = "error: at n = 0, this move leaves a heap of -1\n --> bash.sg:2:20\n  |\n2 | move x in 1..=k => n - x\n  |                    ^^^^^ a heap cannot be negative\n  |\n  = help: add a condition (`if x <= n`) or bound the range (`1..=min(k, n)`)\n";
        assert_eq!(err.render(&game.source), want);
        assert!(include_str!("../../docs/rules.md").contains(&want.replace("\n", "\n  ")));
    }

    #[test]
    fn run_time_error_stops_with_diagnostic() {
        let game = load(
            SourceFile::new("t.sg", "move x in 1..=min(2, n) => n - x - 1"),
            &[],
        )
        .unwrap();
        let GameKind::General { program, .. } = &game.kind else {
            panic!()
        };
        let mut table = SgTable::new();
        let err = extend(program, &mut table, 10, &mut Progress::hidden()).unwrap_err();
        assert_eq!(err.message, "at n = 1, this move leaves a heap of -1");
        assert_eq!(table.len(), 1);
    }
}
