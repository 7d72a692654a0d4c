//! Every move of one component of a sum, for every kind of game through one function
//! ([`for_each_move`]): a take-and-break code's partitions, a heap game's compiled rules, a
//! position game's compiled rules (lines of moves expanded by
//! [`crate::engine::moves::for_each_rule_move`]).

use serde::Serialize;

use super::SolveError;
use crate::engine::moves::{self as engine_moves, code_moves};
use crate::engine::multi::UNLIMITED;
use crate::engine::EngineError;
use crate::rules::program::{CutRule, Scratch, Stop};
use crate::rules::{Diagnostic, Game, GameKind, Program};
use std::ops::ControlFlow;

/// A move of one component of a sum, as the report names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameMove {
    /// The component moved (0-based index into the sum).
    pub component: usize,
    /// How the rules call the rule: "`take`", "the rule at line 3", "the code 0.07".
    pub rule: String,
    /// The rule's binder names and values (a code's move: `take`, the tokens removed).
    pub binders: Vec<(String, i64)>,
    /// The components the moved one becomes (a heap game's empty heaps left out).
    pub result: Vec<Vec<u64>>,
}

/// Which rule a listed move comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleOf {
    /// Rule `i` of the game's compiled program.
    Rule(usize),
    /// The game's take-and-break code.
    Code,
}

/// A move as [`for_each_move`] lists it, before it is named ([`label`]).
#[derive(Clone, Copy, Debug)]
pub struct Listed<'a> {
    /// The rule.
    pub rule: RuleOf,
    /// The rule's binder values (a code's move: the tokens removed).
    pub binders: &'a [i64],
    /// The components the move leads to, flattened (`arity` coordinates each; a heap game's
    /// heaps may be 0).
    pub result: &'a [u64],
}

/// How many moves [`for_each_move`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Every move.
    All,
    /// For a position too large to enumerate in full: at most this many steps (binder values
    /// and moves) per rule, each rule in turn, lines one move at a time (see
    /// [`Program::for_each_option_capped`]).
    StepsPerRule(u64),
}

pub use crate::engine::moves::listable_heap;

/// Refuses a heap `n` of a take-and-break code too large to list the moves of
/// ([`SolveError::CodeMovesTooMany`]; other games list any position's moves).
pub fn check_listable(game: &Game, n: u64) -> Result<(), SolveError> {
    let GameKind::Code { code, .. } = &game.kind else {
        return Ok(());
    };
    let largest = listable_heap(code.max_heaps());
    if n > largest {
        return Err(SolveError::CodeMovesTooMany {
            heap: n,
            game: game.name.clone(),
            largest,
        });
    }
    Ok(())
}

/// Calls `visit` with every move of `component` (a heap `[n]` or a position) of `game`, in
/// rule order (a code's moves by tokens removed), and returns the rules that
/// [`Limit::StepsPerRule`] cut short, with the binder tuples bounding the moves not visited.
///
/// Errors: a rule failing at run time, and a code's heap too large to list the partitions of
/// ([`SolveError::CodeMovesTooMany`]).
pub fn for_each_move(
    game: &Game,
    component: &[u64],
    limit: Limit,
    visit: &mut dyn FnMut(Listed<'_>),
) -> Result<Vec<CutRule>, SolveError> {
    let program = match &game.kind {
        GameKind::Code { code, .. } => {
            let n = component[0];
            check_listable(game, n)?;
            for result in code_moves(code, n) {
                let taken = (n - result.iter().sum::<u64>()) as i64;
                visit(Listed {
                    rule: RuleOf::Code,
                    binders: &[taken],
                    result: &result,
                });
            }
            return Ok(Vec::new());
        }
        GameKind::General { program, .. } => program,
        GameKind::Graph { graph } => {
            return Err(SolveError::Engine(match graph.hackenbush {
                Some(_) => EngineError::Hackenbush,
                None => EngineError::Request(format!(
                    "the moves of {}, a graph file, are not listed by `solve` yet",
                    game.name
                )),
            }))
        }
    };
    let listed = match limit {
        Limit::All => engine_moves::for_each_rule_move(
            program,
            component,
            &mut Scratch::default(),
            &mut UNLIMITED.clone(),
            |rule, binders, result| {
                visit(Listed {
                    rule: RuleOf::Rule(rule),
                    binders,
                    result,
                });
                ControlFlow::Continue(())
            },
        )
        .map(|()| Vec::new()),
        Limit::StepsPerRule(cap) => {
            program.for_each_option_capped(component, cap, &mut |rule, binders, m| {
                let crate::rules::program::Move::Sum(result) = m else {
                    unreachable!("a capped enumeration expands lines")
                };
                visit(Listed {
                    rule: RuleOf::Rule(rule),
                    binders,
                    result,
                });
                ControlFlow::Continue(())
            })
        }
    };
    listed.map_err(|stop| match stop {
        Stop::Error(diagnostic) => rule_error(game, diagnostic),
        // The visitor never stops the listing, and a cap is reported as cut rules.
        Stop::Break | Stop::OutOfBudget => unreachable!("the listing is not stopped"),
    })
}

/// Names a listed move of component `component`: the rule and its binders, the resulting
/// components split by coordinates.
pub fn label(game: &Game, component: usize, listed: Listed<'_>) -> GameMove {
    let arity = game.coordinates().len().max(1);
    let heap_game = game.position_program().is_none();
    let result = listed
        .result
        .chunks(arity)
        // A heap game's empty heaps are no components.
        .filter(|c| !heap_game || c[0] > 0)
        .map(<[u64]>::to_vec)
        .collect();
    let (rule, binders) = match (listed.rule, &game.kind) {
        (RuleOf::Rule(rule), GameKind::General { program, .. }) => (
            program.rule_name(rule, &game.source),
            binders(program, rule, listed.binders),
        ),
        _ => (
            game.code()
                .map_or_else(|| "the code".to_string(), |c| format!("the code {c}")),
            vec![("take".to_string(), listed.binders[0])],
        ),
    };
    GameMove {
        component,
        rule,
        binders,
        result,
    }
}

fn binders(program: &Program, rule: usize, values: &[i64]) -> Vec<(String, i64)> {
    program
        .binder_names(rule)
        .iter()
        .cloned()
        .zip(values.iter().copied())
        .collect()
}

/// Every move of component `index` of a sum, named.
pub fn moves_of(game: &Game, index: usize, component: &[u64]) -> Result<Vec<GameMove>, SolveError> {
    let mut moves = Vec::new();
    for_each_move(game, component, Limit::All, &mut |listed| {
        moves.push(label(game, index, listed))
    })?;
    Ok(moves)
}

/// A rule's run-time error, located in the rules text.
pub fn rule_error(game: &Game, diagnostic: Diagnostic) -> SolveError {
    SolveError::Engine(EngineError::rule(game, diagnostic))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::game;

    #[test]
    fn one_listing_for_codes_heap_rules_and_position_rules() {
        let kayles = moves_of(&game("octal 0.77"), 0, &[3]).unwrap();
        let results: Vec<&Vec<Vec<u64>>> = kayles.iter().map(|m| &m.result).collect();
        assert_eq!(
            results,
            [&vec![vec![2]], &vec![vec![1], vec![1]], &vec![vec![1]]]
        );
        assert!(kayles.iter().all(|m| m.rule == "the code 0.77"));
        assert_eq!(kayles[0].binders, [("take".to_string(), 1)]);

        // Heap rules: a line (`x` only in the result), empty heaps left out.
        let take = moves_of(&game("move take: x in 1..=n => n - x"), 2, &[3]).unwrap();
        assert_eq!(
            take,
            (1..=3)
                .map(|x| GameMove {
                    component: 2,
                    rule: "`take`".into(),
                    binders: vec![("x".into(), x)],
                    result: if x < 3 {
                        vec![vec![3 - x as u64]]
                    } else {
                        vec![]
                    },
                })
                .collect::<Vec<_>>()
        );

        // Position rules: lines expanded, sums split by coordinates.
        let split = game(
            "position (x, y)\nmove t in 1..=x => (x - t, y)\nmove if y > 0 => (x, y - 1) + (0, 0)",
        );
        let moves = moves_of(&split, 0, &[2, 1]).unwrap();
        let results: Vec<&Vec<Vec<u64>>> = moves.iter().map(|m| &m.result).collect();
        assert_eq!(
            results,
            [
                &vec![vec![1, 1]],
                &vec![vec![0, 1]],
                &vec![vec![2, 0], vec![0, 0]]
            ]
        );
        assert_eq!(moves[2].rule, "the rule at line 3");
    }

    #[test]
    fn capped_listing_reports_the_rules_it_cut() {
        let rules = "position (n, m)\nmove take: t in 1..=n => (n - t, m)\nmove both: t in 1..=min(n, m) => (n - t, m - t)";
        let game = game(rules);
        let mut count = [0u64; 2];
        let cut = for_each_move(&game, &[1 << 40, 3], Limit::StepsPerRule(100), &mut |l| {
            if let RuleOf::Rule(r) = l.rule {
                count[r] += 1;
            }
        })
        .unwrap();
        assert_eq!(cut.iter().map(|c| c.rule).collect::<Vec<_>>(), [0]);
        // About 100 steps from each end of the range.
        assert!(count[0] > 180 && count[0] < 200, "{count:?}");
        assert_eq!(count[1], 3);
    }

    #[test]
    fn heaps_of_codes_too_large_to_list_are_refused() {
        let err = moves_of(&game("takebreak 0.[F]"), 0, &[1000]).unwrap_err();
        assert!(err.to_string().contains("would take too long"), "{err}");
    }
}
