//! `solve GAME POSITION…` for heap and position games alike. A position game's position too
//! large for its exact box is decided by a P-position criterion of [`crate::analysis::criteria`]
//! found on a smaller box, and the answer says so.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use crate::analysis::criteria::CriteriaReport;
use crate::engine::boxtable::BoxTable;
use crate::engine::human_bytes;
use crate::engine::multi::{self, show_position, MultiError, Solver};
use crate::engine::{self, naive};
use crate::rules::program::{Move, Scratch, Stop};
use crate::rules::{Diagnostic, Game, GameKind, Program};

use super::{CliError, Context, GameArgs};

/// `solve` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position: heaps (`3 5 7`) or tuples joined by `+` (`(3, 4) + (5, 2)`).
    // `index = 2`: after GAME, which `GameArgs` (flattened below) makes the first.
    #[arg(index = 2, required = true, value_name = "POSITION")]
    position: Vec<String>,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `solve`. What was found before an error (e.g. a pattern that fails on a move) is
/// printed before the error.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load()?;
    let mut out = String::new();
    let result = solve(&game, &args.position, &mut out);
    context.console.print(&out)?;
    result
}

/// `writeln!` into the report text (writing to a `String` cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {
        let _ = writeln!($out, $($arg)*);
    };
}

/// A move of one component of a sum.
#[derive(Debug)]
struct Candidate {
    component: usize,
    rule: String,
    binders: Vec<(String, i64)>,
    /// The components the moved one becomes.
    result: Vec<Vec<u64>>,
}

impl Candidate {
    /// A move of a position game's `component` by `rule` with these binder values.
    fn of_rule(
        game: &Game,
        program: &Program,
        component: usize,
        rule: usize,
        binders: &[i64],
        result: Vec<Vec<u64>>,
    ) -> Self {
        Candidate {
            component,
            rule: program.rule_name(rule, &game.source),
            binders: program
                .binder_names(rule)
                .iter()
                .cloned()
                .zip(binders.iter().copied())
                .collect(),
            result,
        }
    }
}

/// `solve`: the value of a sum of positions, who wins, and every winning move. A position game
/// whose box would not fit in memory is decided by a P-position criterion instead, when one
/// holds on a smaller box ([`solve_beyond_box`]).
fn solve(game: &Game, position: &[String], out: &mut String) -> Result<(), CliError> {
    let arity = game.coordinates().len();
    let components = parse_sum(&position.join(" "), arity)?;
    let (values, candidates, value_of) = match game.position_program() {
        Some(program) => {
            let extents = sum_box(&components);
            let positions = extents
                .iter()
                .map(|&e| u128::from(e) + 1)
                .fold(1u128, u128::saturating_mul);
            if !work_within(program, &extents, SOLVE_EXACT_WORK) {
                let refusal = format!(
                    "the exact values need a box of {positions} positions, more than \
                     {SOLVE_EXACT_WORK} rule steps"
                );
                return solve_beyond_box(game, &components, &refusal, out);
            }
            match position_moves(game, &components, &extents) {
                Err(MultiError::TooLarge {
                    needed_bytes,
                    available_bytes,
                    ..
                }) => {
                    let refusal = format!(
                        "the exact values need a box of {positions} positions, about {}, but only {} is available",
                        human_bytes(needed_bytes),
                        human_bytes(available_bytes)
                    );
                    return solve_beyond_box(game, &components, &refusal, out);
                }
                analysis => analysis?,
            }
        }
        None => heap_moves(game, &components)?,
    };
    let total = values.iter().fold(0, |a, v| a ^ v);
    outln!(out, "position: {}", show_sum(&components));
    if total == 0 {
        outln!(
            out,
            "G = 0: the first player loses (every move leads to a non-zero value)"
        );
        return Ok(());
    }
    outln!(out, "G = {total}: the first player wins");
    let winning: Vec<&Candidate> = candidates
        .iter()
        .zip(&value_of)
        .filter(|(c, &v)| total ^ values[c.component] ^ v == 0)
        .map(|(c, _)| c)
        .collect();
    outln!(out, "winning moves ({}):", winning.len());
    print_moves(&components, winning, out);
    Ok(())
}

/// `a + b + c`, or `nothing` for the empty sum.
fn show_sum(parts: &[Vec<u64>]) -> String {
    if parts.is_empty() {
        "nothing".to_string()
    } else {
        parts
            .iter()
            .map(|p| show_position(p))
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

/// Prints `moves`, the smallest take first: by binder values, then component and rule.
fn print_moves(components: &[Vec<u64>], mut moves: Vec<&Candidate>, out: &mut String) {
    moves.sort_by(|a, b| {
        let key = |c: &Candidate| c.binders.iter().map(|b| b.1).collect::<Vec<_>>();
        key(a)
            .cmp(&key(b))
            .then(a.component.cmp(&b.component))
            .then(a.rule.cmp(&b.rule))
    });
    for c in moves {
        let place = if components.len() > 1 {
            format!("component {}: ", c.component + 1)
        } else {
            String::new()
        };
        let binders = c
            .binders
            .iter()
            .map(|(n, v)| format!(", {n} = {v}"))
            .collect::<String>();
        outln!(
            out,
            "  {place}{} → {}   by {}{binders}",
            show_position(&components[c.component]),
            show_sum(&c.result),
            c.rule
        );
    }
}

/// At most this many positions in the box a criterion for `solve` is looked for on.
const CRITERIA_BOX_POSITIONS: u128 = 1 << 20;
/// At most this many rule steps (binder values and moves) for that box, estimated from a
/// sample of its positions, so that it takes seconds whatever the rules.
const CRITERIA_BOX_WORK: u64 = 30_000_000;
/// At most this many rule steps for the exact values of `solve` (about a minute); beyond, a
/// position is decided by a criterion.
const SOLVE_EXACT_WORK: u64 = 1_000_000_000;
/// Positions sampled for the estimates of work.
const WORK_SAMPLES: u32 = 256;
/// Steps per rule examined when listing the moves of a position beyond the box.
pub const MOVE_CAP: u64 = 1_000_000;
/// Winning moves printed beyond the box (the smallest first; the rest are counted).
const SHOWN_MOVES: usize = 20;

/// `solve` for one position beyond any box that fits: find the P-position criteria of a box
/// sized to a work budget ([`criteria_box`]), and when one holds there, decide the position
/// and its moves by it (saying so: it is not proved beyond the box). A move is winning when it
/// leads to a position the criterion calls P. The moves are enumerated in the rules' binder
/// order, at most [`MOVE_CAP`] steps per rule. A sum needs SG values, which a criterion does
/// not give, so it is refused.
fn solve_beyond_box(
    game: &Game,
    components: &[Vec<u64>],
    refusal: &str,
    out: &mut String,
) -> Result<(), CliError> {
    let [position] = components else {
        return Err(CliError::Failed(format!(
            "{refusal}\n  help: beyond that a single position can still be decided by a \
             P-position pattern, but a sum of {} needs their SG values: ask about one position, \
             or smaller ones",
            components.len()
        )));
    };
    let program = game.position_program().expect("a position game");
    let arity = position.len();
    let extents = criteria_box(program, arity);
    let table = multi::compute_box(game, &extents).map_err(|e| {
        CliError::Failed(format!(
            "{refusal}; the box {} for a P-position pattern failed too: {e}",
            extents
                .iter()
                .map(|e| format!("0..={e}"))
                .collect::<Vec<_>>()
                .join(" × ")
        ))
    })?;
    let report = CriteriaReport::of(&table);
    let Some(criterion) = report.criteria.first() else {
        return Err(CliError::Failed(format!(
            "{refusal}, and no P-position pattern holds on every position of {} to decide it \
             without them\n  help: ask about smaller positions (solve computes every position up \
             to the largest coordinates asked about)",
            report.box_text()
        )));
    };
    outln!(out, "position: {}", show_position(position));
    outln!(
        out,
        "by the pattern: {}, which holds on every position of {} (not proved beyond)",
        criterion.describe(game.coordinates().as_slice()),
        report.box_text()
    );
    let mut to_p = Vec::new();
    let (mut examined, mut undecided) = (0u64, 0u64);
    let cut = program
        .for_each_option_capped(position, MOVE_CAP, &mut |rule, binders, m| {
            let Move::Sum(flat) = m else {
                unreachable!("a capped enumeration expands lines")
            };
            examined += 1;
            let result: Vec<Vec<u64>> = flat.chunks(arity).map(<[u64]>::to_vec).collect();
            let leads_to_p = match result.as_slice() {
                [] => true,
                [one] => criterion.is_p(one),
                _ => {
                    undecided += 1;
                    false
                }
            };
            if leads_to_p {
                to_p.push(Candidate::of_rule(game, program, 0, rule, binders, result));
            }
            ControlFlow::Continue(())
        })
        .map_err(|stop| match stop {
            Stop::Error(diagnostic) => rule_error(game, diagnostic),
            other => CliError::Failed(format!("the moves stopped early: {other:?}")),
        })?;
    let mut searched = format!("{examined} moves examined");
    if !cut.is_empty() {
        let rules: Vec<String> = cut
            .iter()
            .map(|&r| program.rule_name(r, &game.source))
            .collect();
        searched.push_str(&format!(
            "; the cap of {MOVE_CAP} steps per rule stopped {} early",
            rules.join(", ")
        ));
    }
    if undecided > 0 {
        searched.push_str(&format!(
            "; {undecided} lead to sums, which the pattern cannot decide"
        ));
    }
    if criterion.is_p(position) {
        if let Some(c) = to_p.first() {
            return Err(CliError::Failed(format!(
                "the pattern calls {} a P-position, but so it calls {} reached from it by {}: it \
                 does not hold here",
                show_position(position),
                show_sum(&c.result),
                c.rule
            )));
        }
        outln!(out, "the first player loses: a P-position by the pattern ({searched}, none to a P-position)");
        return Ok(());
    }
    outln!(out, "the first player wins: an N-position by the pattern");
    if to_p.is_empty() {
        outln!(
            out,
            "no winning move found ({searched}): the pattern says one exists further on"
        );
        return Ok(());
    }
    outln!(out, "winning moves ({} found; {searched}):", to_p.len());
    let shown: Vec<&Candidate> = to_p.iter().take(SHOWN_MOVES).collect();
    print_moves(components, shown, out);
    if to_p.len() > SHOWN_MOVES {
        outln!(out, "  … {} more", to_p.len() - SHOWN_MOVES);
    }
    Ok(())
}

/// The largest box `0..=2^j − 1` in every coordinate within [`CRITERIA_BOX_POSITIONS`] and
/// [`CRITERIA_BOX_WORK`] (at least `0..=1`).
fn criteria_box(program: &Program, arity: usize) -> Vec<u64> {
    let mut side = 1u64;
    loop {
        let next = vec![2 * side + 1; arity];
        let positions = u128::from(2 * side + 2).pow(arity as u32);
        if positions > CRITERIA_BOX_POSITIONS || !work_within(program, &next, CRITERIA_BOX_WORK) {
            return vec![side; arity];
        }
        side = 2 * side + 1;
    }
}

/// Whether the rule steps (binder values and moves) of every position of the box
/// `0..=extents[i]` are estimated at most `limit`, from [`WORK_SAMPLES`] positions drawn by a
/// fixed pseudo-random sequence (so the answer does not depend on the run). The samples share
/// the budget `limit · samples / positions`: past it, the estimate is over `limit`, so a box
/// of huge positions costs no more than a small one to judge. A rule error answers false
/// (computing the box would fail or take too long).
fn work_within(program: &Program, extents: &[u64], limit: u64) -> bool {
    work_estimate(program, extents, limit).unwrap_or(false)
}

/// [`work_within`], or `None` when a rule fails on a sampled position.
fn work_estimate(program: &Program, extents: &[u64], limit: u64) -> Option<bool> {
    let positions = extents
        .iter()
        .map(|&e| u128::from(e) + 1)
        .fold(1u128, u128::saturating_mul);
    let shared = u128::from(limit) * u128::from(WORK_SAMPLES) / positions;
    let mut budget = u64::try_from(shared).unwrap_or(u64::MAX);
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut scratch = Scratch::default();
    let mut position = vec![0u64; extents.len()];
    for _ in 0..WORK_SAMPLES {
        for (c, &extent) in position.iter_mut().zip(extents) {
            // xorshift64: any fixed sequence spread over the box will do.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *c = extent.checked_add(1).map_or(state, |side| state % side);
        }
        let run = program.for_each_option(&position, &mut scratch, &mut budget, &mut |_, _, _| {
            ControlFlow::Continue(())
        });
        match run {
            Ok(()) => {}
            Err(Stop::Error(_)) => return None,
            Err(_) => return Some(false),
        }
    }
    Some(true)
}

/// The box of a request (`table`, `plot`, `code`, `patterns`): refused before any work when it
/// would not fit in memory, or when its rule steps, estimated from a sample of its positions,
/// pass [`engine::RULE_STEPS_LIMIT`] (about a quarter of an hour; e.g. Wythoff's game on
/// `x ≤ 10^7`, where every position has millions of moves).
pub(super) fn requested_box(game: &Game, extents: &[u64]) -> Result<BoxTable, CliError> {
    multi::check_box_memory(extents)?;
    if let Some(program) = game.position_program() {
        let limit = engine::RULE_STEPS_LIMIT as u64;
        if work_estimate(program, extents, limit) == Some(false) {
            let names = game.coordinates();
            let bounds: Vec<String> = names
                .iter()
                .zip(extents)
                .map(|(name, extent)| format!("0 ≤ {name} ≤ {extent}"))
                .collect();
            return Err(CliError::Usage(format!(
                "the box {} would take more than {limit:e} rule steps (binder values and \
                 moves, estimated from {WORK_SAMPLES} of its positions): hours of work\n  \
                 help: ask for a smaller --to",
                bounds.join(", ")
            )));
        }
    }
    Ok(multi::compute_box(game, extents)?)
}

/// A rule's run-time error, located in the rules text.
fn rule_error(game: &Game, diagnostic: Diagnostic) -> CliError {
    CliError::Engine(Box::new(engine::EngineError::Rule {
        diagnostic: Box::new(diagnostic),
        file: Box::new(game.source.clone()),
    }))
}

/// Component values, every move of every component, and each move's value.
type Analysis = (Vec<u32>, Vec<Candidate>, Vec<u32>);

/// The smallest box holding every component: the largest value of each coordinate.
fn sum_box(components: &[Vec<u64>]) -> Vec<u64> {
    (0..components[0].len())
        .map(|i| components.iter().map(|c| c[i]).max().unwrap_or(0))
        .collect()
}

fn position_moves(
    game: &Game,
    components: &[Vec<u64>],
    extents: &[u64],
) -> Result<Analysis, MultiError> {
    let program = game.position_program().expect("a position game");
    let arity = components[0].len();
    let mut solver = Solver::new(game, extents)?;
    let mut values = Vec::new();
    let mut candidates = Vec::new();
    for (i, c) in components.iter().enumerate() {
        values.push(solver.value(c)?);
        solver.for_each_move(c, &mut |rule, binders, result| {
            candidates.push(Candidate::of_rule(
                game,
                program,
                i,
                rule,
                binders,
                result.chunks(arity).map(<[u64]>::to_vec).collect(),
            ))
        })?;
    }
    let mut move_values = Vec::new();
    for c in &candidates {
        let mut xor = 0;
        for part in &c.result {
            xor ^= solver.value(part)?;
        }
        move_values.push(xor);
    }
    Ok((values, candidates, move_values))
}

fn heap_moves(game: &Game, heaps: &[Vec<u64>]) -> Result<Analysis, CliError> {
    let largest = heaps.iter().map(|h| h[0]).max().unwrap_or(0);
    let table = engine::compute(game, largest, &engine::EngineOptions::default()).map_err(|e| {
        use engine::EngineError::{RulesTooSlow, TooLarge, TooSlow};
        match e {
            // Their help is about --to/--max, which solve has not.
            TooLarge { .. } | TooSlow { .. } | RulesTooSlow { .. } => {
                let message = e.to_string();
                let what = message.split("\n  help:").next().unwrap_or_default();
                CliError::Failed(format!(
                    "{what}\n  help: solve computes every heap up to the largest one asked about: ask about smaller heaps"
                ))
            }
            other => other.into(),
        }
    })?;
    let mut candidates = Vec::new();
    for (i, heap) in heaps.iter().enumerate() {
        let n = heap[0];
        match &game.kind {
            GameKind::General { program, .. } => {
                let mut visit = |rule: usize, binders: &[i64], m: Move<'_>| {
                    let names = program.binder_names(rule);
                    let mut push = |binders: Vec<i64>, result: Vec<u64>| {
                        candidates.push(Candidate {
                            component: i,
                            rule: program.rule_name(rule, &game.source),
                            binders: names.iter().cloned().zip(binders).collect(),
                            result: result
                                .into_iter()
                                .filter(|&h| h > 0)
                                .map(|h| vec![h])
                                .collect(),
                        })
                    };
                    match m {
                        Move::Sum(result) => push(binders.to_vec(), result.to_vec()),
                        Move::Line { first, step, count } => {
                            for t in 0..count as i64 {
                                let mut b = binders.to_vec();
                                *b.last_mut().expect("a line has a binder") += t;
                                push(b, vec![(first[0] as i64 + t * step[0]) as u64]);
                            }
                        }
                    }
                    ControlFlow::Continue(())
                };
                let result = program.for_each_option(
                    &[n],
                    &mut Scratch::default(),
                    &mut multi::UNLIMITED.clone(),
                    &mut visit,
                );
                if let Err(Stop::Error(diagnostic)) = result {
                    return Err(rule_error(game, diagnostic));
                }
            }
            GameKind::Code { code, .. } => {
                // The moves are listed one partition at a time: bound the heap by the work.
                let largest = match code.max_heaps() {
                    Some(0..=2) => 20_000,
                    Some(3) => 400,
                    _ => 60,
                };
                if n > largest {
                    return Err(CliError::Usage(format!(
                        "listing every move of a heap of {n} of {} would take too long (the moves of this code are listed for heaps up to {largest})",
                        game.name
                    )));
                }
                for result in naive::code_moves(code, n) {
                    let taken = n - result.iter().sum::<u64>();
                    candidates.push(Candidate {
                        component: i,
                        rule: format!("the code {code}"),
                        binders: vec![("take".to_string(), taken as i64)],
                        result: result.into_iter().map(|h| vec![h]).collect(),
                    });
                }
            }
        }
    }
    let values = heaps.iter().map(|h| table.get(h[0] as usize)).collect();
    let move_values = candidates
        .iter()
        .map(|c| c.result.iter().fold(0, |a, h| a ^ table.get(h[0] as usize)))
        .collect();
    Ok((values, candidates, move_values))
}

/// `3 5 7`, `3 + 5`, `(3, 4) + (5, 2)`: the components of a sum, `arity` coordinates each.
pub fn parse_sum(text: &str, arity: usize) -> Result<Vec<Vec<u64>>, CliError> {
    let bad = |what: String| {
        CliError::Usage(format!(
            "{what} in the position `{text}`\n  help: write {}",
            if arity == 1 {
                "heaps as numbers, e.g. `3 5 7` or `3 + 5 + 7`".to_string()
            } else {
                format!(
                    "tuples of {arity} numbers joined by `+`, e.g. `({}) + ({})`",
                    vec!["3"; arity].join(", "),
                    vec!["1"; arity].join(", ")
                )
            }
        ))
    };
    let mut components = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let item;
        if let Some(inner) = rest.strip_prefix('(') {
            let close = inner
                .find(')')
                .ok_or_else(|| bad("an unclosed `(`".into()))?;
            item = inner[..close].to_string();
            rest = &inner[close + 1..];
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '+')
                .unwrap_or(rest.len());
            item = rest[..end].to_string();
            rest = &rest[end..];
        }
        let coordinates = item
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| bad(format!("`{}` is not a non-negative integer", v.trim())))
            })
            .collect::<Result<Vec<u64>, _>>()?;
        if coordinates.len() != arity {
            return Err(bad(format!(
                "`{item}` has {} coordinates, not {arity}",
                coordinates.len()
            )));
        }
        components.push(coordinates);
        rest = rest.trim_start().trim_start_matches('+').trim_start();
    }
    if components.is_empty() {
        return Err(bad("no component".into()));
    }
    Ok(components)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let take: Vec<i64> = seen.iter().filter(|s| s.0 == 0).map(|s| s.1).collect();
        assert!(take.len() > 90 && take.len() < 100, "{}", take.len());
        assert!(take.iter().enumerate().all(|(i, &t)| t == i as i64 + 1));
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
    }

    #[test]
    fn sums_of_positions() {
        assert_eq!(parse_sum("3 5 7", 1).unwrap(), [[3], [5], [7]]);
        assert_eq!(parse_sum("3+5 + 7", 1).unwrap(), [[3], [5], [7]]);
        assert_eq!(parse_sum("(3,4) + (5, 2)", 2).unwrap(), [[3, 4], [5, 2]]);
        assert_eq!(parse_sum("(3,4)", 2).unwrap(), [[3, 4]]);
        for bad in ["(3, 4", "(3)", "3 x", "", "(1, -2)"] {
            assert!(parse_sum(bad, 2).is_err(), "{bad}");
        }
    }
}
