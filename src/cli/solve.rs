//! Position games on the command line: `--to` for a box, `table`/`plot` of a box, and
//! `solve GAME POSITION…` for heap and position games alike. A position game's position too
//! large for its exact box is decided by a P-position criterion of [`crate::analysis::criteria`]
//! found on a smaller box, and the answer says so.

use std::ops::ControlFlow;
use std::path::Path;
use std::str::FromStr;

use crate::analysis::criteria::CriteriaReport;
use crate::analysis::patterns;
use crate::engine::boxtable::BoxTable;
use crate::engine::human_bytes;
use crate::engine::multi::{self, show_position, MultiError, Solver};
use crate::engine::{self, naive};
use crate::export::grid::{self, GridFormat};
use crate::export::heatmap::{self, HeatmapSpec};
use crate::export::{self, Format, Lang};
use crate::rules::program::{Move, Scratch, Stop};
use crate::rules::{Diagnostic, Game, GameKind, Program};

use super::{CliError, ColorChoice};

/// `--to`: one bound for every coordinate (`100`), or one per coordinate (`x=100,y=50`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxArg {
    all: Option<u64>,
    named: Vec<(String, u64)>,
}

impl FromStr for BoxArg {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if let Ok(all) = text.trim().parse::<u64>() {
            return Ok(BoxArg {
                all: Some(all),
                named: Vec::new(),
            });
        }
        let named = text
            .split(',')
            .map(|part| {
                let (name, value) = part.split_once('=').ok_or_else(|| {
                    format!("`{part}` is not a bound: write N, or NAME=N for each coordinate (e.g. x=100,y=50)")
                })?;
                let value = value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| format!("`{}` is not a non-negative integer (in --to {text})", value.trim()))?;
                Ok((name.trim().to_string(), value))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(BoxArg { all: None, named })
    }
}

impl BoxArg {
    /// The largest value of each of `coordinates`: every one named exactly once, or all equal.
    pub fn extents(&self, coordinates: &[String]) -> Result<Vec<u64>, CliError> {
        if let Some(all) = self.all {
            return Ok(vec![all; coordinates.len()]);
        }
        for (name, _) in &self.named {
            if !coordinates.contains(name) {
                return Err(CliError::Usage(format!(
                    "--to names `{name}`, but the coordinates are {}",
                    list(coordinates)
                )));
            }
        }
        coordinates
            .iter()
            .map(|c| {
                let mut bounds = self.named.iter().filter(|(n, _)| n == c);
                match (bounds.next(), bounds.next()) {
                    (Some(&(_, value)), None) => Ok(value),
                    (Some(_), Some(_)) => Err(CliError::Usage(format!("--to gives `{c}` twice"))),
                    (None, _) => Err(CliError::Usage(format!(
                        "--to gives no bound for `{c}`: write e.g. --to {}",
                        coordinates
                            .iter()
                            .map(|c| format!("{c}=100"))
                            .collect::<Vec<_>>()
                            .join(",")
                    ))),
                }
            })
            .collect()
    }

    /// The last heap of a heap game's table.
    pub fn heap_to(&self, game: &Game) -> Result<u64, CliError> {
        Ok(self.extents(std::slice::from_ref(&game.coordinate))?[0])
    }
}

fn list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `--format` for `table`: text, csv, json, or matrix (position games only).
pub fn parse_grid_format(text: &str) -> Result<GridFormat, String> {
    if text.eq_ignore_ascii_case("matrix") {
        return Ok(GridFormat::Matrix);
    }
    text.parse::<Format>()
        .map(GridFormat::from)
        .map_err(|_| format!("unknown format `{text}`: expected text, csv, json or matrix"))
}

/// The heap-table format for `format` (`matrix` is a grid of a position game).
pub fn heap_format(format: GridFormat) -> Result<Format, CliError> {
    match format {
        GridFormat::Text => Ok(Format::Text),
        GridFormat::Csv => Ok(Format::Csv),
        GridFormat::Json => Ok(Format::Json),
        GridFormat::Matrix => Err(CliError::Usage(
            "--format matrix is a grid of a position game (`position (x, y)`); a heap game's table is text, csv or json".into(),
        )),
    }
}

impl ColorChoice {
    /// Whether to colour output going to `output` (`-` is stdout).
    pub fn enabled(self, output: &str) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => output == "-" && std::io::stdout().is_terminal(),
        }
    }
}

impl From<MultiError> for CliError {
    fn from(error: MultiError) -> Self {
        match error {
            MultiError::Rule { diagnostic, file } => {
                CliError::Engine(Box::new(engine::EngineError::Rule { diagnostic, file }))
            }
            other => CliError::Failed(other.to_string()),
        }
    }
}

impl super::Checkpointing {
    /// Refuses `--checkpoint`/`--resume` for a position game (they save heap tables).
    pub fn refuse_for_positions(&self) -> Result<(), CliError> {
        if self.checkpoint.is_some() || self.resume.is_some() {
            return Err(CliError::Usage(
                "--checkpoint and --resume save heap tables; a position game's box is computed in one run".into(),
            ));
        }
        Ok(())
    }
}

/// `table` for a position game: the box's values as a grid, CSV, matrix or JSON.
pub fn table(
    game: &Game,
    to: &BoxArg,
    format: GridFormat,
    output: Option<&str>,
    color: ColorChoice,
) -> Result<(), CliError> {
    let output = output.unwrap_or("-");
    let extents = to.extents(&game.coordinates())?;
    let table = requested_box(game, &extents)?;
    let color = color.enabled(output);
    export::write_output(output, |out| {
        grid::write_box(out, &table, format, &game.name, color)
    })?;
    Ok(())
}

/// `plot` for a position game of two coordinates: a heat map.
pub fn plot(game: &Game, to: &BoxArg, output: &str) -> Result<(), CliError> {
    export::ChartFormat::from_path(Path::new(output))?;
    let coordinates = game.coordinates();
    if coordinates.len() != 2 {
        return Err(CliError::Usage(format!(
            "a heat map needs two coordinates, but positions are ({}); use `table` instead",
            coordinates.join(", ")
        )));
    }
    let table = requested_box(game, &to.extents(&coordinates)?)?;
    heatmap::write_heatmap(Path::new(output), &table, &HeatmapSpec::new(&game.name))?;
    eprintln!("wrote {output}");
    Ok(())
}

/// `patterns`: where the P-positions lie (closed-form criteria for any number of
/// coordinates), and the periods along the lines of a 2-D box.
pub fn patterns(game: &Game, to: &BoxArg, json: bool) -> Result<(), CliError> {
    let coordinates = game.coordinates();
    let extents = to.extents(&coordinates)?;
    let text = if game.position_program().is_none() || coordinates.len() == 1 {
        let values = match game.position_program() {
            Some(_) => requested_box(game, &extents)?.values().to_vec(),
            None => {
                let table = engine::compute(game, extents[0], &engine::EngineOptions::default())?;
                table.to_vec()
            }
        };
        let report = patterns::p_position_patterns(&values);
        if json {
            to_json(&report)?
        } else {
            format!("{}\n", report.describe(&coordinates[0]))
        }
    } else if coordinates.len() == 2 {
        let table = requested_box(game, &extents)?;
        let report = patterns::analyse_box(&table).map_err(|e| CliError::Usage(e.to_string()))?;
        if json {
            to_json(&report)?
        } else {
            report.to_string()
        }
    } else {
        // Rows and diagonals are 2-D ideas; any number of coordinates has criteria.
        let report = CriteriaReport::of(&requested_box(game, &extents)?);
        if json {
            to_json(&report)?
        } else {
            report.to_string()
        }
    };
    print!("{text}");
    Ok(())
}

fn to_json(report: &impl serde::Serialize) -> Result<String, CliError> {
    serde_json::to_string_pretty(report)
        .map(|s| s + "\n")
        .map_err(|e| CliError::Failed(e.to_string()))
}

/// `code` for a position game: a lookup function for the box.
pub fn code(game: &Game, lang: Lang, to: &BoxArg, output: Option<&str>) -> Result<(), CliError> {
    let table = requested_box(game, &to.extents(&game.coordinates())?)?;
    let snippet = export::code::generate_box(lang, &table, &game.name)?;
    export::write_output(output.unwrap_or("-"), |out| {
        out.write_all(snippet.as_bytes())
    })?;
    Ok(())
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
pub fn solve(game: &Game, position: &[String]) -> Result<(), CliError> {
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
                return solve_beyond_box(game, &components, &refusal);
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
                    return solve_beyond_box(game, &components, &refusal);
                }
                analysis => analysis?,
            }
        }
        None => heap_moves(game, &components)?,
    };
    let total = values.iter().fold(0, |a, v| a ^ v);
    println!("position: {}", show_sum(&components));
    if total == 0 {
        println!("G = 0: the first player loses (every move leads to a non-zero value)");
        return Ok(());
    }
    println!("G = {total}: the first player wins");
    let winning: Vec<&Candidate> = candidates
        .iter()
        .zip(&value_of)
        .filter(|(c, &v)| total ^ values[c.component] ^ v == 0)
        .map(|(c, _)| c)
        .collect();
    println!("winning moves ({}):", winning.len());
    print_moves(&components, winning);
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
fn print_moves(components: &[Vec<u64>], mut moves: Vec<&Candidate>) {
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
        println!(
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
fn solve_beyond_box(game: &Game, components: &[Vec<u64>], refusal: &str) -> Result<(), CliError> {
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
    println!("position: {}", show_position(position));
    println!(
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
        println!("the first player loses: a P-position by the pattern ({searched}, none to a P-position)");
        return Ok(());
    }
    println!("the first player wins: an N-position by the pattern");
    if to_p.is_empty() {
        println!("no winning move found ({searched}): the pattern says one exists further on");
        return Ok(());
    }
    println!("winning moves ({} found; {searched}):", to_p.len());
    let shown: Vec<&Candidate> = to_p.iter().take(SHOWN_MOVES).collect();
    print_moves(components, shown);
    if to_p.len() > SHOWN_MOVES {
        println!("  … {} more", to_p.len() - SHOWN_MOVES);
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
fn requested_box(game: &Game, extents: &[u64]) -> Result<BoxTable, CliError> {
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
    fn box_arguments() {
        let names: Vec<String> = ["x", "y"].map(String::from).to_vec();
        assert_eq!(
            "7".parse::<BoxArg>().unwrap().extents(&names).unwrap(),
            [7, 7]
        );
        let named: BoxArg = "y=5, x=3".parse().unwrap();
        assert_eq!(named.extents(&names).unwrap(), [3, 5]);
        assert!("x=3"
            .parse::<BoxArg>()
            .unwrap()
            .extents(&names)
            .unwrap_err()
            .to_string()
            .contains("no bound for `y`"));
        assert!("z=3,x=1,y=2"
            .parse::<BoxArg>()
            .unwrap()
            .extents(&names)
            .is_err());
        assert!("x=-1".parse::<BoxArg>().is_err());
        assert!("big".parse::<BoxArg>().is_err());
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
