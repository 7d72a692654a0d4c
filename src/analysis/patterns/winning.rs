//! The smallest winning move of every N-position of a computed box, and a closed form of it as
//! a function of the position: Luogu P6487 asks for Fibonacci Nim's (the smallest term of n's
//! Zeckendorf sum), the Bash game's is `n mod (k + 1)`.
//!
//! A move is winning when it leads to a sum of value 0 (Sprague 1935, Grundy 1939: a sum's
//! value is the XOR of its components'). Moves are ordered as `solve` prints them: by their
//! binder values, lexicographically (a code's move by the tokens it takes), then by rule. A
//! position's smallest winning move is *known* when no move ordered before it leads outside the
//! box (whose value the table does not give); the N-positions where it is not known are counted
//! and left out.
//!
//! [`find_smallest_move`] tries a small family of functions of the position ([`MoveFunction`],
//! simplest first) and keeps the first that gives the smallest winning move's one binder value
//! on *every* N-position where that move is known. It is observed on the box, not proved beyond
//! it: `solve` uses it beyond the box only to name a move, which it then checks leaves a
//! P-position by the P-position criterion.

use std::fmt;
use std::ops::ControlFlow;

use serde::Serialize;

use crate::analysis::criteria::smallest_zeckendorf_term;
use crate::engine::boxtable::BoxTable;
use crate::engine::moves::{code_moves, listable_heap};
use crate::engine::Nimber;
use crate::rules::program::{Scratch, Stop};
use crate::rules::{Game, GameKind};

/// The largest modulus `m` of the family `x mod m`.
pub const MAX_MOVE_MODULUS: u64 = 64;

/// Fewer N-positions with a known smallest winning move than this and no function is claimed.
pub const MIN_KNOWN: usize = 8;

/// The steps (binder values and moves) [`find_smallest_move`] may spend listing moves, for the
/// `patterns` report.
pub const SMALLEST_MOVE_STEPS: u64 = 50_000_000;

/// A function of the position giving the smallest winning move's binder value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveFunction {
    /// The same value everywhere.
    Constant {
        /// The value.
        value: u64,
    },
    /// The coordinate itself (Nim on one heap: take it all).
    Coordinate {
        /// The coordinate's index.
        coordinate: usize,
    },
    /// The coordinate modulo `modulus` (the Bash game, subtraction `1..=k`: `n mod (k + 1)`;
    /// Winning Ways ch. 4).
    Modulo {
        /// The coordinate's index.
        coordinate: usize,
        /// `m ≥ 2`.
        modulus: u64,
    },
    /// The lowest set bit of the coordinate, `x & −x` (no value at 0).
    LowestSetBit {
        /// The coordinate's index.
        coordinate: usize,
    },
    /// The smallest term of the coordinate's Zeckendorf sum, which is the coordinate itself
    /// exactly when it is a Fibonacci number (no value at 0). Fibonacci Nim's smallest winning
    /// take (Whinihan, *Fibonacci Nim*, Fibonacci Quarterly 1, 1963; Luogu P6487).
    SmallestZeckendorfTerm {
        /// The coordinate's index.
        coordinate: usize,
    },
}

impl MoveFunction {
    /// The function's value at `position`, `None` where it has none.
    pub fn at(&self, position: &[u64]) -> Option<u64> {
        match *self {
            MoveFunction::Constant { value } => Some(value),
            MoveFunction::Coordinate { coordinate } => Some(position[coordinate]),
            MoveFunction::Modulo {
                coordinate,
                modulus,
            } => Some(position[coordinate] % modulus),
            MoveFunction::LowestSetBit { coordinate } => {
                let x = position[coordinate];
                (x != 0).then(|| x & x.wrapping_neg())
            }
            MoveFunction::SmallestZeckendorfTerm { coordinate } => {
                smallest_zeckendorf_term(position[coordinate])
            }
        }
    }

    /// The function in words, with the coordinates' names.
    pub fn describe(&self, names: &[String]) -> String {
        match *self {
            MoveFunction::Constant { value } => value.to_string(),
            MoveFunction::Coordinate { coordinate } => names[coordinate].clone(),
            MoveFunction::Modulo {
                coordinate,
                modulus,
            } => format!("{} mod {modulus}", names[coordinate]),
            MoveFunction::LowestSetBit { coordinate } => {
                format!("the lowest set bit of {}", names[coordinate])
            }
            MoveFunction::SmallestZeckendorfTerm { coordinate } => {
                let x = &names[coordinate];
                format!(
                    "the smallest term of {x}'s Zeckendorf sum ({x} itself when {x} is a \
                     Fibonacci number)"
                )
            }
        }
    }

    /// The family, simplest first, for positions of `arity` coordinates; the constant is the
    /// one read off the first known cell.
    fn candidates(arity: usize, first: Option<u64>) -> Vec<MoveFunction> {
        let mut list: Vec<MoveFunction> = first
            .map(|value| MoveFunction::Constant { value })
            .into_iter()
            .collect();
        list.extend((0..arity).map(|coordinate| MoveFunction::Coordinate { coordinate }));
        for coordinate in 0..arity {
            list.extend((2..=MAX_MOVE_MODULUS).map(|modulus| MoveFunction::Modulo {
                coordinate,
                modulus,
            }));
        }
        list.extend((0..arity).map(|coordinate| MoveFunction::LowestSetBit { coordinate }));
        list.extend(
            (0..arity).map(|coordinate| MoveFunction::SmallestZeckendorfTerm { coordinate }),
        );
        list
    }
}

/// A function found by [`find_smallest_move`]: the smallest winning move of every N-position
/// where it is known has one binder, `binder`, whose value is `function` of the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SmallestMove {
    /// The binder's name (`take` for a code's move), or `None` when the rules name it
    /// differently in different positions.
    pub binder: Option<String>,
    /// The function.
    pub function: MoveFunction,
}

impl SmallestMove {
    /// `t = the smallest term of n's Zeckendorf sum (…)`.
    pub fn describe(&self, names: &[String]) -> String {
        let binder = self.binder.as_deref().unwrap_or("its binder");
        format!("{binder} = {}", self.function.describe(names))
    }
}

/// Why [`find_smallest_move`] looked no further.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SmallestMoveStop {
    /// Listing the moves of every N-position would take more than `steps` steps.
    Steps {
        /// The budget.
        steps: u64,
    },
    /// A take-and-break code's heaps past `largest` are too large to list the moves of.
    HeapTooLarge {
        /// The largest heap whose moves are listed.
        largest: u64,
    },
    /// A rule failed at run time while its moves were listed.
    RuleError,
    /// The game's moves are not rules or a code (a graph file).
    NotListed,
}

/// What [`find_smallest_move`] found on a box.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SmallestMoveReport {
    /// The coordinates' names.
    pub coordinates: Vec<String>,
    /// The largest value of each coordinate in the box.
    pub extents: Vec<u64>,
    /// N-positions in the box.
    pub n_positions: usize,
    /// Those whose smallest winning move is known (no move before it leaves the box).
    pub known: usize,
    /// Whether every known smallest winning move has exactly one binder.
    pub one_binder: bool,
    /// The function, when one of the family holds on every known N-position.
    pub smallest_move: Option<SmallestMove>,
    /// Why the moves were not all listed (then nothing is claimed).
    pub stopped: Option<SmallestMoveStop>,
}

impl SmallestMoveReport {
    /// `0 ≤ x ≤ 10, 0 ≤ y ≤ 20`.
    pub fn box_text(&self) -> String {
        crate::engine::box_text(&self.coordinates, &self.extents)
    }
}

/// The smallest winning move of every N-position of `table` (the normal-play values of
/// `game`'s positions over a box, or a heap game's sequence as a box of one coordinate), and
/// the simplest [`MoveFunction`] that gives it on every N-position where it is known (module
/// docs). Listing the moves stops after `steps` steps, and then nothing is claimed.
pub fn find_smallest_move(game: &Game, table: &BoxTable, steps: u64) -> SmallestMoveReport {
    let mut report = SmallestMoveReport {
        coordinates: table.coordinates().to_vec(),
        extents: table.extents().to_vec(),
        n_positions: table.values().iter().filter(|&&v| v != 0).count(),
        known: 0,
        one_binder: true,
        smallest_move: None,
        stopped: None,
    };
    let cells = match smallest_winning_moves(game, table, steps) {
        Ok(cells) => cells,
        Err(stop) => {
            report.stopped = Some(stop);
            return report;
        }
    };
    report.known = cells.len();
    report.one_binder = cells.iter().all(|c| c.binders.len() == 1);
    if !report.one_binder || cells.len() < MIN_KNOWN || cells.iter().any(|c| c.binders[0] < 0) {
        return report;
    }
    let first = cells.first().map(|c| c.binders[0] as u64);
    let function = MoveFunction::candidates(table.dimension(), first)
        .into_iter()
        .find(|f| {
            cells
                .iter()
                .all(|c| f.at(&c.position) == Some(c.binders[0] as u64))
        });
    let binder = cells.first().map(|c| binder_name(game, c.rule));
    let binder = binder.filter(|b| cells.iter().all(|c| binder_name(game, c.rule) == *b));
    report.smallest_move = function.map(|function| SmallestMove { binder, function });
    report
}

/// The smallest winning move of one N-position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The position.
    pub position: Vec<u64>,
    /// The rule of its smallest winning move (0 for a code).
    pub rule: usize,
    /// The move's binder values (a code's move: the tokens taken).
    pub binders: Vec<i64>,
}

/// The name of rule `rule`'s first binder (`take` for a code).
fn binder_name(game: &Game, rule: usize) -> String {
    match &game.kind {
        GameKind::General { program, .. } => program
            .binder_names(rule)
            .first()
            .cloned()
            .unwrap_or_default(),
        _ => "take".to_string(),
    }
}

/// The smallest winning move of every N-position of `table` where it is known, in the table's
/// order (module docs); an error when the moves could not all be listed within `steps`.
pub fn smallest_winning_moves(
    game: &Game,
    table: &BoxTable,
    steps: u64,
) -> Result<Vec<Cell>, SmallestMoveStop> {
    let arity = table.dimension();
    // The value of the sum a move leads to, `None` when a component is outside the box.
    let value_of = |components: &[u64]| -> Option<u32> {
        components
            .chunks(arity)
            .map(|c| table.get(c))
            .sum::<Option<Nimber>>()
            .map(Nimber::value)
    };
    let mut budget = steps;
    let mut scratch = Scratch::default();
    let mut cells = Vec::new();
    for (index, &value) in table.values().iter().enumerate() {
        if value == 0 {
            continue;
        }
        let position = table.position_of(index);
        // The smallest winning move, and the smallest move whose value is unknown.
        let mut best: Option<(Vec<i64>, usize)> = None;
        let mut unknown: Option<(Vec<i64>, usize)> = None;
        // Records a move; true when it is winning.
        let mut consider = |rule: usize, binders: &[i64], result: &[u64]| -> bool {
            let (slot, winning) = match value_of(result) {
                Some(0) => (&mut best, true),
                Some(_) => return false,
                None => (&mut unknown, false),
            };
            if slot
                .as_ref()
                .is_none_or(|(b, r)| (binders, rule) < (b.as_slice(), *r))
            {
                *slot = Some((binders.to_vec(), rule));
            }
            winning
        };
        match &game.kind {
            GameKind::Code { code } => {
                let n = position[0];
                let largest = listable_heap(code.max_heaps());
                if n > largest {
                    return Err(SmallestMoveStop::HeapTooLarge { largest });
                }
                // `code_moves` walks every (tokens taken, heaps left) pair before it lists a
                // partition: about n²/2 cheap iterations, charged as n²/16 steps.
                let walk = (n + 1) * (n + 2) / 16;
                budget = budget
                    .checked_sub(walk)
                    .ok_or(SmallestMoveStop::Steps { steps })?;
                for result in code_moves(code, n) {
                    budget = budget
                        .checked_sub(1)
                        .ok_or(SmallestMoveStop::Steps { steps })?;
                    let taken = (n - result.iter().sum::<u64>()) as i64;
                    if consider(0, &[taken], &result) {
                        break; // the tokens taken only grow from here
                    }
                }
            }
            GameKind::General { program, .. } => {
                // Each rule lists its moves in increasing binder order: past its first winning
                // move, nothing of that rule can be smaller, nor make the cell unknown.
                for rule in 0..program.rule_count() {
                    let listed = program.for_each_option_of_rule(
                        rule,
                        &position,
                        &mut scratch,
                        &mut budget,
                        &mut |rule, binders, m| {
                            m.for_each_concrete(binders, |binders, result| {
                                match consider(rule, binders, result) {
                                    true => ControlFlow::Break(()),
                                    false => ControlFlow::Continue(()),
                                }
                            })
                        },
                    );
                    match listed {
                        Ok(()) | Err(Stop::Break) => {}
                        Err(Stop::OutOfBudget) => return Err(SmallestMoveStop::Steps { steps }),
                        Err(Stop::Error(_)) => return Err(SmallestMoveStop::RuleError),
                    }
                }
            }
            GameKind::Graph { .. } => return Err(SmallestMoveStop::NotListed),
        }
        let Some((binders, rule)) = best else {
            continue;
        };
        if unknown
            .as_ref()
            .is_some_and(|(b, r)| (b.as_slice(), *r) < (binders.as_slice(), rule))
        {
            continue;
        }
        cells.push(Cell {
            position,
            rule,
            binders,
        });
    }
    Ok(cells)
}

impl fmt::Display for SmallestMoveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let range = self.box_text();
        if let Some(stop) = &self.stopped {
            let why = match stop {
                SmallestMoveStop::Steps { steps } => format!(
                    "listing the moves of every N-position of {range} would take more than \
                     {steps} steps"
                ),
                SmallestMoveStop::HeapTooLarge { largest } => {
                    format!("the moves of this code are listed for heaps up to {largest} only")
                }
                SmallestMoveStop::RuleError => "a rule failed while its moves were listed".into(),
                SmallestMoveStop::NotListed => "the moves of this game are not listed".into(),
            };
            return writeln!(f, "smallest winning move: not looked for: {why}");
        }
        let known = if self.known == self.n_positions {
            format!("{} N-positions", self.n_positions)
        } else {
            format!(
                "{} of the {} N-positions; the others have smaller moves leaving the box",
                self.known, self.n_positions
            )
        };
        match &self.smallest_move {
            Some(found) => writeln!(
                f,
                "smallest winning move: {} on every N-position of {range} ({known}; observed, \
                 not proved beyond)",
                found.describe(&self.coordinates)
            ),
            None if !self.one_binder => writeln!(
                f,
                "smallest winning move: no closed form: on some N-positions of {range} it has \
                 no binder or several"
            ),
            None if self.known < MIN_KNOWN => writeln!(
                f,
                "smallest winning move: too few N-positions in {range} for a closed form ({known})"
            ),
            None => writeln!(
                f,
                "smallest winning move: none of the closed forms (a constant, a coordinate, a \
                 coordinate mod m ≤ {MAX_MOVE_MODULUS}, its lowest set bit, the smallest term \
                 of its Zeckendorf sum) fits every N-position of {range} ({known})"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::multi::compute_box;
    use crate::rules::testing::game;

    /// Brute force, independent of the module: every take `t` from `(n, limit)` of Fibonacci
    /// Nim with the whole pile allowed at `limit = 0` (Luogu P6487), by the mex over a table
    /// filled here; the smallest `t` leading to value 0.
    fn fibonacci_nim_smallest(side: usize) -> Vec<Vec<Option<u64>>> {
        let mut g = vec![vec![0u32; side + 1]; side + 1];
        let most = |n: usize, limit: usize| if limit == 0 { n } else { limit.min(n) };
        for n in 0..=side {
            for limit in 0..=side {
                let options: Vec<u32> = (1..=most(n, limit))
                    .map(|t| g[n - t][(2 * t).min(n - t)])
                    .collect();
                g[n][limit] = (0..).find(|v| !options.contains(v)).unwrap();
            }
        }
        (0..=side)
            .map(|n| {
                (0..=side)
                    .map(|limit| {
                        (1..=most(n, limit))
                            .find(|&t| g[n - t][(2 * t).min(n - t)] == 0)
                            .map(|t| t as u64)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn fibonacci_nim_smallest_take_is_the_smallest_zeckendorf_term() {
        let text = std::fs::read_to_string("rules/fibonacci-nim.sg").unwrap();
        let fib = game(&text);
        let table = compute_box(&fib, &[60, 60]).unwrap();
        let cells = smallest_winning_moves(&fib, &table, u64::MAX).unwrap();
        let brute = fibonacci_nim_smallest(60);
        let n_positions = brute.iter().flatten().filter(|t| t.is_some()).count();
        // Every N-position known (the moves stay in the square box), each as the brute force.
        assert_eq!(cells.len(), n_positions);
        for cell in &cells {
            let [n, limit] = [cell.position[0] as usize, cell.position[1] as usize];
            assert_eq!(Some(cell.binders[0] as u64), brute[n][limit], "{:?}", cell);
        }
        let report = find_smallest_move(&fib, &table, u64::MAX);
        assert_eq!(
            report.smallest_move,
            Some(SmallestMove {
                binder: Some("t".into()),
                function: MoveFunction::SmallestZeckendorfTerm { coordinate: 0 }
            })
        );
        let line = report.to_string();
        assert!(
            line.starts_with(
                "smallest winning move: t = the smallest term of n's Zeckendorf sum (n itself \
                 when n is a Fibonacci number) on every N-position of 0 ≤ n ≤ 60, 0 ≤ limit ≤ 60"
            ),
            "{line}"
        );
    }

    #[test]
    fn bash_and_nim_and_no_closed_form() {
        // The Bash game (subtraction 1..=k): take n mod (k + 1) (Winning Ways ch. 4), checked
        // against a brute force over the takes with the values n mod (k + 1) recomputed by mex.
        for k in 2..=6u64 {
            let bash = game(&format!("subtraction 1..={k}"));
            let values = crate::engine::compute(&bash, 120, &Default::default()).unwrap();
            let table = BoxTable::new(
                vec!["n".into()],
                vec![120],
                (0..=120).map(|n| values.get(n)).collect(),
            );
            let mut g = vec![0u32; 121];
            for n in 1..=120usize {
                let options: Vec<u32> = (1..=k as usize)
                    .filter(|&t| t <= n)
                    .map(|t| g[n - t])
                    .collect();
                g[n] = (0..).find(|v| !options.contains(v)).unwrap();
            }
            let cells = smallest_winning_moves(&bash, &table, u64::MAX).unwrap();
            for cell in &cells {
                let n = cell.position[0] as usize;
                let brute = (1..=k as usize).find(|&t| t <= n && g[n - t] == 0);
                assert_eq!(brute, Some(cell.binders[0] as usize), "k = {k}, n = {n}");
            }
            let report = find_smallest_move(&bash, &table, u64::MAX);
            assert_eq!(
                report.smallest_move.map(|m| m.function),
                Some(MoveFunction::Modulo {
                    coordinate: 0,
                    modulus: k + 1
                }),
                "k = {k}"
            );
        }
        // Nim on one heap: take it all.
        let nim = game("move take: x in 1..=n => n - x");
        let values = crate::engine::compute(&nim, 50, &Default::default()).unwrap();
        let table = BoxTable::new(
            vec!["n".into()],
            vec![50],
            (0..=50).map(|n| values.get(n)).collect(),
        );
        let report = find_smallest_move(&nim, &table, u64::MAX);
        assert_eq!(
            report.smallest_move,
            Some(SmallestMove {
                binder: Some("x".into()),
                function: MoveFunction::Coordinate { coordinate: 0 }
            })
        );
        // Wythoff's game: none of the family (the smallest move depends on both coordinates).
        let wythoff = game(&std::fs::read_to_string("rules/wythoff.sg").unwrap());
        let table = compute_box(&wythoff, &[30, 30]).unwrap();
        let report = find_smallest_move(&wythoff, &table, u64::MAX);
        assert_eq!(report.smallest_move, None);
        assert!(
            report.to_string().contains("none of the closed forms"),
            "{report}"
        );
        // A budget too small: nothing claimed, and the report says why.
        let report = find_smallest_move(&wythoff, &table, 1000);
        assert_eq!(
            report.stopped,
            Some(SmallestMoveStop::Steps { steps: 1000 })
        );
        assert!(report.to_string().contains("not looked for"), "{report}");
    }

    #[test]
    fn sets_and_several_binders_against_brute_force() {
        // The divisor game (subtract a proper divisor): a set binder, listed in increasing
        // order; brute force by trial division and mex here.
        let divisor = game("move subtract: d in divisors(n) if d < n => n - d");
        let values = crate::engine::compute(&divisor, 200, &Default::default()).unwrap();
        let table = BoxTable::new(
            vec!["n".into()],
            vec![200],
            (0..=200).map(|n| values.get(n)).collect(),
        );
        let mut g = vec![0u32; 201];
        for n in 1..=200usize {
            let options: Vec<u32> = (1..n)
                .filter(|&d| n.is_multiple_of(d))
                .map(|d| g[n - d])
                .collect();
            g[n] = (0..).find(|v| !options.contains(v)).unwrap();
        }
        let cells = smallest_winning_moves(&divisor, &table, u64::MAX).unwrap();
        assert_eq!(cells.len(), g.iter().filter(|&&v| v != 0).count());
        for cell in &cells {
            let n = cell.position[0] as usize;
            let brute = (1..n).find(|&d| n.is_multiple_of(d) && g[n - d] == 0);
            assert_eq!(brute, Some(cell.binders[0] as usize), "n = {n}");
        }
        // Two binders: take any amounts from one or both heaps; the only P-position is (0, 0),
        // so the smallest winning move (lexicographically) is (i, j) = (x, y).
        let both =
            game("position (x, y)\nmove s: i in 0..=x, j in 0..=y if i + j > 0 => (x - i, y - j)");
        let table = compute_box(&both, &[9, 9]).unwrap();
        let cells = smallest_winning_moves(&both, &table, u64::MAX).unwrap();
        assert_eq!(cells.len(), 99);
        for cell in &cells {
            assert_eq!(
                cell.binders,
                [cell.position[0] as i64, cell.position[1] as i64]
            );
        }
        let report = find_smallest_move(&both, &table, u64::MAX);
        assert!(!report.one_binder && report.smallest_move.is_none());
        assert!(
            report.to_string().contains("no binder or several"),
            "{report}"
        );
    }

    #[test]
    fn moves_leaving_the_box_make_a_cell_unknown() {
        // From (x, y): take from x, or move to (x − 1, y + 5), which leaves a small box. A cell
        // whose smallest winning move would sort after a move leaving the box is not known.
        let g = game("position (x, y)\nmove a: t in 1..=x => (x - t, y)\nmove b: t in 0..=0 if x > 0 => (x - 1, y + 5)");
        let table = compute_box(&g, &[6, 3]).unwrap();
        let cells = smallest_winning_moves(&g, &table, u64::MAX).unwrap();
        // Rule `a` with t ≥ 1 sorts after rule `b`'s t = 0, which leaves the box when y + 5 > 3:
        // no cell is known.
        assert!(cells.is_empty(), "{cells:?}");
        let report = find_smallest_move(&g, &table, u64::MAX);
        assert_eq!(report.known, 0);
        assert!(report.n_positions > 0);
        assert!(report.smallest_move.is_none());
    }
}
