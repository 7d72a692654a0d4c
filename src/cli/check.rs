//! `check`: parse and check rules files, and evaluate their moves at the smallest positions
//! (heaps `0..=16`, or a position game's coordinates `0..=4` — for many coordinates the
//! positions reachable from a sample of them), so that a rule failing at run time
//! (`move => n + 1`) is reported as `table` would report it. A game whose moves cycle is
//! valued over the positions reachable from those, whatever its size. Valid rules that the
//! budget refuses even there (ranges past the step budget, moves that keep leaving the box) get
//! a `warning:` naming the refusal that `table` and `solve` would make. A graph file's line adds
//! the graph's summary ([`crate::rules::GraphGame::summary`]).
//!
//! Each heap or position game also gets an `engine:` line: the take-and-break code the fast
//! kernels run (and whether the sparse kernel takes over long tables), or the general rules
//! interpreter, with a located note saying why the rules do not lower
//! ([`crate::rules::lower::NotLowered`]). `--explain` adds the estimated cost of `table --to N`
//! for a few `N` ([`engine::estimate`], [`engine::budget::memory_need`]).

use crate::engine::reachable::Reachable;
use crate::engine::{
    self, budget, multi, sparse, takebreak, EngineError, EngineOptions, TableShape,
};
use crate::export::period::abbreviated_code;
use crate::rules::warn::small_positions;
use crate::rules::{Game, GameKind};
use crate::value::loopy::LoopyTable;

use super::args::Sets;
use super::period::game_title;
use super::{CliError, Context};

/// The last heap evaluated by `check`.
const CHECK_TO: u64 = 16;
/// The largest coordinate of the box evaluated by `check` for a position game.
const CHECK_BOX: u64 = 4;
/// The largest box `0..=CHECK_BOX` evaluated whole; past it, the positions reachable from a
/// sample of it ([`evaluate_positions`]).
const CHECK_BOX_POSITIONS: usize = 100_000;
/// Starts of that sample.
const CHECK_STARTS: usize = 64;
/// Positions valued from each start of the sample.
const CHECK_REACHABLE: usize = 2048;
/// Rule steps spent from each start of the sample.
const CHECK_REACHABLE_STEPS: u64 = 1 << 22;
/// Positions of a game that cycles valued by `check` (reachable from the small ones).
const CHECK_LOOPY: usize = 1_000_000;

/// `check` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules files (or rules text).
    #[arg(required = true)]
    games: Vec<String>,
    #[command(flatten)]
    sets: Sets,
    /// Also print the estimated time and memory of `table --to N` for N = 10^3, 10^4, …
    #[arg(long)]
    explain: bool,
}

/// Runs `check`: one `ok:` line per good file; every error is printed.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let mut failures = Vec::new();
    for name in &args.games {
        match args
            .sets
            .load(name, &mut context.console)
            .and_then(|game| evaluate_small(&game).map(|small| (game, small)))
        {
            Ok((game, Small { loopy, refused })) => {
                if let Some(refusal) = refused {
                    context.console.note(&format!(
                        "warning: {name}: the rules are valid, but `table` and `solve` refuse even its smallest positions ({}): {}",
                        small_request(&game),
                        refusal.trim_start_matches("error: ")
                    ));
                }
                let summary = match (game.graph(), loopy) {
                    (Some(graph), _) => format!(" — {}", graph.summary()),
                    (None, true) => " — its moves can cycle: `table` and `solve` value it as a loopy game (P, N or D, remoteness, generalized SG values)".to_string(),
                    (None, false) => String::new(),
                };
                context
                    .console
                    .print(&format!("ok: {name}: {}{summary}\n", game_title(&game)))?;
                context.console.print(&engine_lines(&game))?;
                if args.explain {
                    context.console.print(&explain(&game))?;
                }
            }
            Err(e) => failures.push(e),
        }
    }
    match failures.len() {
        0 => Ok(()),
        1 => Err(failures.pop().expect("one failure")),
        n => {
            for e in &failures {
                context.console.note(&e.to_string());
            }
            Err(CliError::Failed(format!(
                "{n} of {} rules files have errors",
                args.games.len()
            )))
        }
    }
}

/// What `check` found at the smallest positions of a game whose rules have no error there.
#[derive(Default)]
struct Small {
    /// Its moves can cycle: valued as a loopy game.
    loopy: bool,
    /// The budget's refusal of those positions (a rule's ranges past the step budget, moves
    /// that keep leaving the box), worded as `table` words it: the rules are valid, but every
    /// subcommand that values the game would refuse it, so `check` says so.
    refused: Option<String>,
}

/// The request `check` makes of a game, in words (for its warning).
fn small_request(game: &Game) -> String {
    match game.position_program() {
        Some(program) => format!(
            "coordinates 0..={CHECK_BOX}, {} of them",
            program.coordinates().len()
        ),
        None => format!("heaps 0..={CHECK_TO}"),
    }
}

/// Whether an error of the small positions is a refusal by the budget (up front or while
/// running), not an error of the rules.
fn is_refusal(error: &EngineError) -> bool {
    error.is_refused_up_front()
        || matches!(
            error,
            EngineError::OverBudget { .. }
                | EngineError::TooManyOutside { .. }
                | EngineError::TooManySums { .. }
        )
}

/// Computes the smallest positions of `game`; an error of its rules (a move to a larger heap,
/// a negative heap, an overflow, a cycle) is returned as `table` would report it, while a
/// refusal of the request (memory, time, positions outside the box) is not an error of the
/// rules: it is returned in [`Small::refused`] for a warning. A position game whose moves
/// cycle is valued as a loopy game ([`Small::loopy`]): its small positions are then listed
/// that way, for the rules' errors.
fn evaluate_small(game: &Game) -> Result<Small, CliError> {
    if game.graph().is_some() {
        // A graph's moves are its edges, all checked while loading; a cycle is a draw, not an
        // error of the file.
        return Ok(Small::default());
    }
    let result = match game.position_program() {
        Some(program) => return evaluate_positions(game, program.coordinates().len()),
        None => engine::compute(game, CHECK_TO, &EngineOptions::default()).map(|_| ()),
    };
    match result {
        Err(e @ (EngineError::Rule { .. } | EngineError::Cycle { .. })) => Err(e.into()),
        Err(e) if is_refusal(&e) => Ok(Small {
            loopy: false,
            refused: Some(CliError::from(e).to_string()),
        }),
        _ => Ok(Small::default()),
    }
}

/// The small positions of a position game: the box `0..=CHECK_BOX` when it has at most
/// [`CHECK_BOX_POSITIONS`] positions, else the positions reachable from a fixed sample of it
/// ([`small_positions`]), at most [`CHECK_REACHABLE`] from each start: a game of 20
/// coordinates loads and checks in a fraction of a second, and its rules' errors at small
/// positions are still found. A game whose moves cycle is valued as a loopy game over the
/// positions reachable from those (not over a box, which its moves may leave).
fn evaluate_positions(game: &Game, arity: usize) -> Result<Small, CliError> {
    let extents = vec![CHECK_BOX; arity];
    let starts = small_positions(arity, CHECK_BOX, CHECK_BOX_POSITIONS, CHECK_STARTS);
    let whole_box = budget::box_positions(&extents) <= CHECK_BOX_POSITIONS as u128;
    let result = if whole_box {
        multi::compute_box_with(game, &extents, &super::progress::options()).map(|_| ())
    } else {
        starts.iter().try_for_each(|start| {
            let searched = Reachable::new(game, CHECK_REACHABLE)
                .map(|search| search.with_steps(CHECK_REACHABLE_STEPS))
                .and_then(|mut search| search.value(start));
            match searched {
                // Past its limits the search has still gone through small positions.
                Err(e @ (EngineError::Rule { .. } | EngineError::Cycle { .. })) => Err(e),
                _ => Ok(()),
            }
        })
    };
    match result {
        Err(EngineError::Cycle { .. }) => {
            match LoopyTable::explore_within(game, &starts, CHECK_LOOPY) {
                Err(e @ EngineError::Rule { .. }) => Err(e.into()),
                _ => Ok(Small {
                    loopy: true,
                    refused: None,
                }),
            }
        }
        Err(e @ EngineError::Rule { .. }) => Err(e.into()),
        // The whole small box is what `table` computes first: its refusal is theirs.
        Err(e) if whole_box && is_refusal(&e) => Ok(Small {
            loopy: false,
            refused: Some(CliError::from(e).to_string()),
        }),
        _ => Ok(Small::default()),
    }
}

/// The `engine:` line of a rules file, and for rules that do not lower the note saying why
/// (empty for a graph file, whose summary says what it is).
fn engine_lines(game: &Game) -> String {
    if game.graph().is_some() {
        return String::new();
    }
    if game.position_program().is_some() {
        return "  engine: general rules over boxes of positions (a position game has no \
                take-and-break code)\n"
            .to_string();
    }
    if let Some(code) = game.code() {
        let lowered = game
            .lowering()
            .map_or(String::new(), |l| match l.checked_to() {
                Some(to) => format!(", lowered from the rules (equal to them at every n <= {to})"),
                None => ", lowered from the rules (this code at every n, by their thresholds)"
                    .to_string(),
            });
        let sparse = if sparse::applies(code) {
            format!("; the sparse kernel past n = {}", takebreak::SPARSE_FROM)
        } else {
            String::new()
        };
        let code = abbreviated_code(&code.to_string());
        return format!("  engine: take-and-break code {code}{lowered}{sparse}\n");
    }
    let Some(why) = &game.not_lowered else {
        return "  engine: general rules interpreter\n".to_string();
    };
    let who = match (why.rule, &game.kind) {
        // A labelled rule, or one of several, is named: "rule `split` does not lower".
        (Some(rule), GameKind::General { program, .. })
            if program.rule_count() > 1
                || program.rule_name(rule, &game.source).starts_with('`') =>
        {
            format!(
                "rule {} does not lower",
                program.rule_name(rule, &game.source)
            )
        }
        _ => "the rules do not lower".to_string(),
    };
    let mut out = format!(
        "  engine: general rules interpreter ({who} to a take-and-break code: {})\n",
        why.summary()
    );
    out += &why.diagnostic(&game.source).render_note(&game.source);
    out
}

/// The heaps `--explain` estimates `table --to N` for: powers of ten from 10^3, while the
/// estimate stays under an hour (and at most to 10^12).
const EXPLAIN_FROM: u32 = 3;
const EXPLAIN_TO: u32 = 12;
const EXPLAIN_CHEAP_SECONDS: f64 = 3600.0;

/// The `--explain` lines: the estimated time and memory of `table --to N` for a few `N`.
fn explain(game: &Game) -> String {
    if game.graph().is_some() || game.position_program().is_some() {
        return "  estimates: `table` of a position game or a graph is a box, not a sequence: no \
                estimate by N\n"
            .to_string();
    }
    let mut out = String::from(
        "  estimated cost of `table --to N` (estimates before any work, within a factor of two or three):\n",
    );
    for exponent in EXPLAIN_FROM..=EXPLAIN_TO {
        let to = 10u64.pow(exponent);
        let memory = budget::memory_need(&TableShape::Sequence { to }, game.code());
        let estimate = engine::estimate::estimate(game, 0, to);
        let seconds = estimate.as_ref().map_or(f64::INFINITY, |e| e.seconds);
        let row = match estimate {
            Some(estimate) => format!(
                "{:>12}  {:>9}  {:>10}  ({})",
                format!("10^{exponent}"),
                short_duration(estimate.seconds),
                engine::human_bytes(memory.bytes),
                estimate.work
            ),
            None => {
                let why = if !memory.addressable || memory.bytes > engine::available_memory() {
                    format!(
                        "refused: needs {} of memory, {} available",
                        engine::human_bytes(memory.bytes),
                        engine::human_bytes(engine::available_memory())
                    )
                } else {
                    "refused: past the engine's time or work limits".to_string()
                };
                out += &format!("{:>12}  {why}\n", format!("10^{exponent}"));
                break;
            }
        };
        out += &row;
        out.push('\n');
        if seconds > EXPLAIN_CHEAP_SECONDS {
            break;
        }
    }
    out
}

/// Seconds for the estimate table: milliseconds below a second.
fn short_duration(seconds: f64) -> String {
    if seconds < 0.001 {
        "< 1 ms".to_string()
    } else if seconds < 1.0 {
        format!("{} ms", (seconds * 1000.0).round() as u64)
    } else {
        engine::progress::human_duration(seconds)
    }
}
