//! A single position beyond any box that fits, decided by a P-position criterion of
//! [`crate::analysis::criteria`] found on a smaller box (and the report says so: it is not
//! proved beyond that box).

use crate::analysis::criteria::CriteriaReport;
use crate::engine::budget;
use crate::engine::multi;
use crate::rules::{Game, Program};

use super::moves::{self, Limit};
use super::{ExactRefusal, Method, MoveSearch, Outcome, SolveError, SolveReport};

/// At most this many positions in the box a criterion is looked for on.
pub const CRITERIA_BOX_POSITIONS: u128 = 1 << 20;
/// At most this many rule steps (binder values and moves) for that box, estimated by
/// [`budget::rule_steps`], so that it takes seconds whatever the rules.
pub const CRITERIA_BOX_WORK: u64 = 30_000_000;
/// Steps per rule examined from each end of its ranges when listing the moves of a position
/// beyond the box.
pub const MOVE_CAP: u64 = 1_000_000;

/// `solve` for one position beyond any box that fits (`refusal` says why the exact values are
/// out of reach): find the P-position criteria of a box sized to a work budget
/// ([`criteria_box`]), and when one holds there, decide the position and its moves by it. A
/// move is winning when it leads to a position the criterion calls P. The moves are listed in
/// the rules' binder order, at most [`MOVE_CAP`] steps per rule from each end of its ranges. A sum needs SG values, which a
/// criterion does not give, so it is refused.
///
/// A rule cut by the cap is also searched from the top of its ranges down (see
/// [`Program::for_each_option_capped`]), and the winning moves are reported in binder order.
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
    let mut winning = Vec::new();
    let (mut examined, mut to_sums) = (0u64, 0u64);
    let listed = moves::for_each_move(game, position, Limit::StepsPerRule(MOVE_CAP), &mut |m| {
        examined += 1;
        let leads_to_p = match m.result.len() / arity {
            0 => true,
            1 => criterion.is_p(m.result),
            _ => {
                to_sums += 1;
                false
            }
        };
        if leads_to_p {
            let rule = match m.rule {
                moves::RuleOf::Rule(r) => r,
                moves::RuleOf::Code => 0,
            };
            winning.push((rule, m.binders.to_vec(), moves::label(game, 0, m)));
        }
    });
    // The top end of a capped rule is listed downwards: back to the rules' binder order.
    winning.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let winning: Vec<_> = winning.into_iter().map(|(_, _, m)| m).collect();
    let after_header = |error: SolveError, method: &Method| SolveError::AfterHeader {
        position: position.clone(),
        method: Box::new(method.clone()),
        error: Box::new(error),
    };
    let cut = listed.map_err(|e| after_header(e, &method))?;
    let search = MoveSearch {
        examined,
        cap: MOVE_CAP,
        capped_rules: cut
            .iter()
            .map(|&r| program.rule_name(r, &game.source))
            .collect(),
        to_sums,
    };
    let outcome = if criterion.is_p(position) {
        if let Some(first) = winning.first() {
            let error = SolveError::CriterionFails {
                position: position.clone(),
                reached: first.result.clone(),
                rule: first.rule.clone(),
            };
            return Err(after_header(error, &method));
        }
        Outcome::FirstPlayerLoses
    } else {
        Outcome::FirstPlayerWins
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
        assert_eq!(cut, [0]);
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
        // The criteria box of Wythoff's game: 0..=255 in both coordinates.
        assert_eq!(criteria_box(program, 2), [255, 255]);
    }
}
