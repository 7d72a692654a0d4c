//! A single position beyond any box that fits, decided by a P-position criterion of
//! [`crate::analysis::criteria`] found on a smaller box (and the report says so: it is not
//! proved beyond that box).
//!
//! The moves of such a position are searched from both ends of each rule's ranges, at most
//! [`MOVE_CAP`] steps from each; what the search did not reach is reported per rule
//! ([`Unsearched`]), and the report is then not [`SolveReport::complete`]. The smallest
//! winning move is also named by a pattern of the box when one holds there
//! ([`crate::analysis::patterns::winning`]): the move it names is listed only after the
//! criterion says it leaves a P-position, and it is marked as observed on the box
//! ([`ObservedMove`]).

use serde::Serialize;

use crate::analysis::criteria::CriteriaReport;
use crate::analysis::patterns::winning::{self, MoveFunction, SmallestMoveReport};
use crate::engine::budget;
use crate::engine::multi;
use crate::rules::program::{CutRule, Move};
use crate::rules::{Game, Program};

use super::moves::{self, GameMove, Limit};
use super::{ExactRefusal, Method, MoveSearch, Outcome, SolveError, SolveReport};

/// At most this many positions in the box a criterion is looked for on.
pub const CRITERIA_BOX_POSITIONS: u128 = 1 << 20;
/// The largest smallest box (`0..=1` in every coordinate) a criterion is looked for on: a
/// position with more coordinates is refused at once ([`SolveError::TooManyCoordinates`]).
pub const CRITERIA_MIN_BOX: u128 = 1 << 16;
/// At most this many rule steps (binder values and moves) for that box, estimated by
/// [`budget::rule_steps`], so that it takes seconds whatever the rules.
pub const CRITERIA_BOX_WORK: u64 = 4_000_000;
/// Steps per rule examined from each end of its ranges when listing the moves of a position
/// beyond the box.
pub const MOVE_CAP: u64 = 250_000;
/// At most this many steps listing the moves of the criteria box's N-positions, for the
/// pattern of their smallest winning moves (past it no move is named by a pattern).
pub const SMALLEST_MOVE_STEPS: u64 = 2 * CRITERIA_BOX_WORK;

/// The moves of a rule the capped search did not reach: every move whose binder tuple lies
/// strictly between `after` and `before` (lexicographically) may be one of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unsearched {
    /// The rule, as the rules call it.
    pub rule: String,
    /// Its binders' names.
    pub binders: Vec<String>,
    /// The binder tuple of the last move reached from the bottom (`None`: none was).
    pub after: Option<Vec<i64>>,
    /// The binder tuple of the last move reached from the top (`None`: none was).
    pub before: Option<Vec<i64>>,
}

impl Unsearched {
    fn of(program: &Program, game: &Game, cut: &CutRule) -> Self {
        Unsearched {
            rule: program.rule_name(cut.rule, &game.source),
            binders: program.binder_names(cut.rule).to_vec(),
            after: cut.after.clone(),
            before: cut.before.clone(),
        }
    }

    /// `t = 1000001..=41266477 of `first``, or for several binders the tuples between two.
    pub fn describe(&self) -> String {
        if let [name] = self.binders.as_slice() {
            let low = self.after.as_ref().map(|a| a[0].saturating_add(1));
            let high = self.before.as_ref().map(|b| b[0].saturating_sub(1));
            let range = match (low, high) {
                // The two ends stopped next to each other: nothing between them was skipped,
                // but the search could not tell (it is still reported as cut short).
                (Some(l), Some(h)) if l > h => format!("nothing between {} and {}", l - 1, h + 1),
                (Some(l), Some(h)) => format!("{l}..={h}"),
                (Some(l), None) => format!("{l} and above"),
                (None, Some(h)) => format!("up to {h}"),
                (None, None) => "every value".to_string(),
            };
            return format!("{name} = {range} of {}", self.rule);
        }
        let tuple = |t: &Vec<i64>| {
            let parts: Vec<String> = t.iter().map(i64::to_string).collect();
            format!("({})", parts.join(", "))
        };
        let names = format!("({})", self.binders.join(", "));
        match (&self.after, &self.before) {
            (Some(a), Some(b)) => format!(
                "{names} strictly between {} and {} of {}",
                tuple(a),
                tuple(b),
                self.rule
            ),
            (Some(a), None) => format!("{names} after {} of {}", tuple(a), self.rule),
            (None, Some(b)) => format!("{names} before {} of {}", tuple(b), self.rule),
            (None, None) => format!("every move of {}", self.rule),
        }
    }
}

/// What became of the smallest winning move a pattern of the box names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObservedVerdict {
    /// The move leaves a P-position by the criterion, and the search found no smaller winning
    /// move: it is reported as the smallest winning move, observed on the box.
    LeavesP,
    /// The pattern has no value here, or one too large for a binder.
    NoValue,
    /// No rule has a move with that binder value here.
    NoSuchMove,
    /// The moves with that binder value do not leave a P-position by the criterion.
    NotP,
    /// The search found a smaller winning move: the pattern fails here.
    SmallerFound,
}

/// The smallest winning move named by the pattern of the box's smallest winning moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObservedMove {
    /// The pattern, in words (`t = the smallest term of n's Zeckendorf sum (…)`).
    pub pattern: String,
    /// The function of the position.
    pub function: MoveFunction,
    /// The box it holds on, in words.
    pub box_text: String,
    /// The N-positions of the box it was checked on.
    pub checked: usize,
    /// The binder value it gives here (`None` when it has none).
    pub value: Option<u64>,
    /// Whether it is claimed.
    pub verdict: ObservedVerdict,
    /// The move, when it leaves a P-position by the criterion (also when a smaller winning
    /// move was found: it is still a winning move by the criterion).
    pub winning_move: Option<GameMove>,
}

impl SolveReport {
    /// Whether the winning moves listed are all of them: every move was examined (exactly,
    /// or by a criterion), none cut by the search's cap and none to a sum a criterion cannot
    /// decide.
    pub fn complete(&self) -> bool {
        self.search
            .as_ref()
            .is_none_or(|s| s.unsearched.is_empty() && s.to_sums == 0)
    }
}

/// `solve` for one position beyond any box that fits (`refusal` says why the exact values are
/// out of reach): find the P-position criteria of a box sized to a work budget
/// ([`criteria_box`]), and when one holds there, decide the position and its moves by it. A
/// move is winning when it leads to a position the criterion calls P. The moves are listed in
/// the rules' binder order, at most [`MOVE_CAP`] steps per rule from each end of its ranges,
/// and what was not reached is reported ([`Unsearched`]). A sum needs SG values, which a
/// criterion does not give, so it is refused.
///
/// A rule cut by the cap is also searched from the top of its ranges down (see
/// [`Program::for_each_option_capped`]), and the winning moves are reported in binder order.
/// For an N-position, the smallest winning move predicted by a pattern of the box
/// ([`winning::find_smallest_move`]) is listed too when the criterion confirms it
/// ([`ObservedMove`]).
pub fn solve_beyond_box(
    game: &Game,
    components: &[Vec<u64>],
    refusal: ExactRefusal,
) -> Result<SolveReport, SolveError> {
    let [position] = components else {
        return Err(SolveError::SumBeyondBox {
            refusal,
            components: components.len(),
        });
    };
    let program = game.position_program().expect("a position game");
    let arity = position.len();
    if arity >= 128 || 1u128 << arity > CRITERIA_MIN_BOX {
        // Even the box `0..=1` in every coordinate is beyond a pattern search's reach.
        return Err(SolveError::TooManyCoordinates {
            refusal,
            arity,
            reachable: crate::engine::reachable::downward_estimate(components),
        });
    }
    let extents = criteria_box(program, arity);
    let table = match multi::compute_box(game, &extents) {
        Ok(table) => table,
        Err(error) => {
            return Err(SolveError::CriteriaBoxFailed {
                refusal,
                extents,
                error: Box::new(error),
            })
        }
    };
    let report = CriteriaReport::of(&table);
    let Some(criterion) = report.criteria.first().cloned() else {
        return Err(SolveError::NoCriterion {
            refusal,
            box_text: report.box_text(),
        });
    };
    let coordinates = game.coordinates();
    let method = Method::Criterion {
        description: criterion.describe(&coordinates),
        criterion: criterion.clone(),
        extents: report.extents.clone(),
        box_text: report.box_text(),
        refusal,
    };
    let leads_to_p = |result: &[u64]| match result.len() / arity {
        0 => Some(true),
        1 => Some(criterion.is_p(result)),
        _ => None,
    };
    let mut winning = Vec::new();
    let (mut examined, mut to_sums) = (0u64, 0u64);
    let listed = moves::for_each_move(game, position, Limit::StepsPerRule(MOVE_CAP), &mut |m| {
        examined += 1;
        let leads = leads_to_p(m.result).unwrap_or_else(|| {
            to_sums += 1;
            false
        });
        if leads {
            let rule = match m.rule {
                moves::RuleOf::Rule(r) => r,
                moves::RuleOf::Code => 0,
            };
            winning.push((rule, m.binders.to_vec(), moves::label(game, 0, m)));
        }
    });
    let after_header = |error: SolveError, method: &Method| SolveError::AfterHeader {
        position: position.clone(),
        method: Box::new(method.clone()),
        error: Box::new(error),
    };
    let cut = listed.map_err(|e| after_header(e, &method))?;
    let is_p = criterion.is_p(position);
    let smallest = if is_p {
        None
    } else {
        let patterns = winning::find_smallest_move(game, &table, SMALLEST_MOVE_STEPS);
        observed_move(game, program, position, &patterns, &leads_to_p, &winning)
            .map_err(|e| after_header(e, &method))?
    };
    if let Some(named) = smallest.as_ref().and_then(|s| s.winning_move.as_ref()) {
        if !winning.iter().any(|w| w.2 == *named) {
            let rule = (0..program.rule_count())
                .find(|&r| program.rule_name(r, &game.source) == named.rule)
                .unwrap_or(0);
            let binders: Vec<i64> = named.binders.iter().map(|b| b.1).collect();
            winning.push((rule, binders, named.clone()));
        }
    }
    // The top end of a capped rule is listed downwards: back to the rules' binder order.
    winning.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let winning: Vec<_> = winning.into_iter().map(|(_, _, m)| m).collect();
    let search = MoveSearch {
        examined,
        cap: MOVE_CAP,
        capped_rules: cut
            .iter()
            .map(|c| program.rule_name(c.rule, &game.source))
            .collect(),
        to_sums,
        unsearched: cut
            .iter()
            .map(|c| Unsearched::of(program, game, c))
            .collect(),
        smallest,
    };
    let outcome = if is_p {
        if let Some(first) = winning.first() {
            let error = SolveError::CriterionFails {
                position: position.clone(),
                reached: first.result.clone(),
                rule: first.rule.clone(),
            };
            return Err(after_header(error, &method));
        }
        Outcome::P
    } else {
        Outcome::N
    };
    Ok(SolveReport {
        coordinates,
        components: components.to_vec(),
        value: None,
        outcome,
        winning_moves: winning,
        method,
        search: Some(search),
        genus: None,
        misere: false,
    })
}

/// The smallest winning move the pattern of `patterns` names at `position`, checked: its
/// moves (every rule whose first binder takes the value, found by
/// [`Program::for_each_option_with_first`]) must lead to a P-position by the criterion
/// (`leads_to_p`), and no winning move the search found (`found`, as `(rule, binders, move)`)
/// may be smaller. `None` when the box has no such pattern.
fn observed_move(
    game: &Game,
    program: &Program,
    position: &[u64],
    patterns: &SmallestMoveReport,
    leads_to_p: &dyn Fn(&[u64]) -> Option<bool>,
    found: &[(usize, Vec<i64>, GameMove)],
) -> Result<Option<ObservedMove>, SolveError> {
    let Some(pattern) = &patterns.smallest_move else {
        return Ok(None);
    };
    let value = pattern.function.at(position);
    let mut observed = ObservedMove {
        pattern: pattern.describe(&patterns.coordinates),
        function: pattern.function,
        box_text: patterns.box_text(),
        checked: patterns.known,
        value,
        verdict: ObservedVerdict::NoValue,
        winning_move: None,
    };
    let Some(t) = value.and_then(|v| i64::try_from(v).ok()) else {
        return Ok(Some(observed));
    };
    let (mut any, mut named) = (false, None);
    program
        .for_each_option_with_first(position, t, MOVE_CAP, &mut |rule, binders, m| {
            let Move::Sum(result) = m else {
                unreachable!("a pinned enumeration expands lines")
            };
            if binders.len() == 1 {
                any = true;
                if named.is_none() && leads_to_p(result) == Some(true) {
                    let listed = moves::Listed {
                        rule: moves::RuleOf::Rule(rule),
                        binders,
                        result,
                    };
                    named = Some(moves::label(game, 0, listed));
                }
            }
            std::ops::ControlFlow::Continue(())
        })
        .map_err(|stop| match stop {
            crate::rules::program::Stop::Error(d) => moves::rule_error(game, d),
            _ => unreachable!("the visitor never stops the listing"),
        })?;
    let smaller = found
        .iter()
        .any(|(_, binders, _)| binders.as_slice() < [t].as_slice());
    observed.verdict = match (&named, any) {
        (Some(_), _) if smaller => ObservedVerdict::SmallerFound,
        (Some(_), _) => ObservedVerdict::LeavesP,
        (None, true) => ObservedVerdict::NotP,
        (None, false) => ObservedVerdict::NoSuchMove,
    };
    observed.winning_move = named;
    Ok(Some(observed))
}

/// The largest box `0..=2^j − 1` in every coordinate within [`CRITERIA_BOX_POSITIONS`] and
/// [`CRITERIA_BOX_WORK`] (at least `0..=1`).
pub fn criteria_box(program: &Program, arity: usize) -> Vec<u64> {
    let mut side = 1u64;
    loop {
        let next = vec![2 * side + 1; arity];
        let positions = u128::from(2 * side + 2).pow(arity as u32);
        if positions > CRITERIA_BOX_POSITIONS
            || !budget::rule_steps(program, &next, CRITERIA_BOX_WORK).is_within()
        {
            return vec![side; arity];
        }
        side = 2 * side + 1;
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;
    use crate::rules::program::Move;

    fn work_within(program: &Program, extents: &[u64], limit: u64) -> bool {
        budget::rule_steps(program, extents, limit).is_within()
    }

    #[test]
    fn capped_moves_and_work_estimates() {
        let rules = "position (n, m)\nmove take: t in 1..=n => (n - t, m)\nmove both: t in 1..=min(n, m) => (n - t, m - t)";
        let game = crate::rules::load(crate::rules::SourceFile::new("t.sg", rules), &[]).unwrap();
        let program = game.position_program().unwrap();
        // A range of 2^40 values: the first rule stops at the cap, the second runs in full.
        let mut seen: Vec<(usize, i64, Vec<u64>)> = Vec::new();
        let cut = program
            .for_each_option_capped(&[1 << 40, 3], 100, &mut |rule, binders, m| {
                if let Move::Sum(p) = m {
                    seen.push((rule, binders[0], p.to_vec()));
                }
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(cut.len(), 1);
        assert_eq!(cut[0].rule, 0);
        let (after, before) = (cut[0].after.clone(), cut[0].before.clone());
        // The bottom of the range upwards, then its top downwards.
        let take: Vec<i64> = seen.iter().filter(|s| s.0 == 0).map(|s| s.1).collect();
        let bottom = take.iter().take_while(|&&t| t < 1000).count();
        assert!(bottom > 90 && bottom < 100, "{bottom}");
        assert!(take[..bottom]
            .iter()
            .enumerate()
            .all(|(i, &t)| t == i as i64 + 1));
        let top = &take[bottom..];
        assert!(top.len() > 90 && top.len() < 100, "{}", top.len());
        assert!(top
            .iter()
            .enumerate()
            .all(|(i, &t)| t == (1 << 40) - i as i64));
        // What was not visited lies strictly between the last values from each end.
        assert_eq!(after, Some(vec![take[bottom - 1]]));
        assert_eq!(before, Some(vec![*top.last().unwrap()]));
        let unsearched = Unsearched {
            rule: "`take`".into(),
            binders: vec!["t".into()],
            after,
            before,
        };
        assert_eq!(
            unsearched.describe(),
            format!(
                "t = {}..={} of `take`",
                take[bottom - 1] + 1,
                top.last().unwrap() - 1
            )
        );
        let both: Vec<&Vec<u64>> = seen.iter().filter(|s| s.0 == 1).map(|s| &s.2).collect();
        assert_eq!(
            both,
            [
                &vec![(1 << 40) - 1, 2],
                &vec![(1 << 40) - 2, 1],
                &vec![(1 << 40) - 3, 0]
            ]
        );
        // About 2·side steps per position: a 16 × 16 box is cheap, a 10^9 × 10^9 one is not.
        assert!(work_within(program, &[15, 15], 100_000));
        assert!(!work_within(
            program,
            &[1_000_000_000, 1_000_000_000],
            1_000_000_000
        ));
        assert!(!work_within(program, &[15, 15], 1_000));
        // A range a little longer than the cap: the two ends meet, every move once, no cut.
        for (n, m) in [(70u64, 3u64), (60, 60), (5, 80)] {
            let mut listed: Vec<(usize, Vec<i64>)> = Vec::new();
            let cut = program
                .for_each_option_capped(&[n, m], 100, &mut |rule, binders, _| {
                    listed.push((rule, binders.to_vec()));
                    ControlFlow::Continue(())
                })
                .unwrap();
            let (mut all, mut budget): (Vec<(usize, Vec<i64>)>, u64) = (Vec::new(), u64::MAX);
            program
                .for_each_option(
                    &[n, m],
                    &mut Default::default(),
                    &mut budget,
                    &mut |rule, binders, mv| {
                        mv.for_each_concrete(binders, |b, _| {
                            all.push((rule, b.to_vec()));
                            ControlFlow::Continue(())
                        })
                    },
                )
                .unwrap();
            listed.sort();
            all.sort();
            assert_eq!(listed, all, "({n}, {m})");
            assert!(cut.is_empty(), "({n}, {m}): {cut:?}");
        }
        // The criteria box of Wythoff's game: 0..=127 in both coordinates.
        assert_eq!(criteria_box(program, 2), [127, 127]);
    }
}
