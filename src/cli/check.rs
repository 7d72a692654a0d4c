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

use crate::api::{self, check::Small};
use crate::engine::{self, sparse, takebreak};
use crate::export::period::abbreviated_code;
use crate::rules::{Game, GameKind};

use super::args::Sets;
use super::period::game_title;
use super::{CliError, Context};

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
        match args.sets.load(name, &mut context.console).and_then(|game| {
            let small = api::check::small(&game, &super::progress::options())?;
            Ok((game, small))
        }) {
            Ok((game, Small { loopy, refused })) => {
                if let Some(refusal) = refused {
                    let refusal = CliError::from(refusal).to_string();
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

/// The request `check` makes of a game, in words (for its warning).
fn small_request(game: &Game) -> String {
    match game.position_program() {
        Some(program) => format!(
            "coordinates 0..={}, {} of them",
            api::check::CHECK_BOX,
            program.coordinates().len()
        ),
        None => format!("heaps 0..={}", api::check::CHECK_TO),
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
    for row in api::check::estimates(game) {
        let exponent = row.exponent;
        let memory = row.memory;
        match row.cost {
            Some(estimate) => {
                out += &format!(
                    "{:>12}  {:>9}  {:>10}  ({})\n",
                    format!("10^{exponent}"),
                    short_duration(estimate.seconds),
                    engine::human_bytes(memory.bytes),
                    estimate.work
                )
            }
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
            }
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
