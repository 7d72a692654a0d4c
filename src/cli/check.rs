//! `check`: parse and check rules files, and evaluate their moves at the smallest positions
//! (heaps `0..=16`, or a position game's coordinates `0..=4`), so that a rule failing at run
//! time (`move => n + 1`) is reported as `table` would report it. A graph file's line adds
//! the graph's summary ([`crate::rules::GraphGame::summary`]).

use crate::engine::{self, multi, EngineError, EngineOptions};
use crate::rules::Game;
use crate::value::loopy::LoopyTable;

use super::args::Sets;
use super::period::game_title;
use super::{CliError, Context};

/// The last heap evaluated by `check`.
const CHECK_TO: u64 = 16;
/// The largest coordinate of the box evaluated by `check` for a position game.
const CHECK_BOX: u64 = 4;

/// `check` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules files (or rules text).
    #[arg(required = true)]
    games: Vec<String>,
    #[command(flatten)]
    sets: Sets,
}

/// Runs `check`: one `ok:` line per good file; every error is printed.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let mut failures = Vec::new();
    for name in &args.games {
        match args
            .sets
            .load(name, &mut context.console)
            .and_then(|game| evaluate_small(&game).map(|loopy| (game, loopy)))
        {
            Ok((game, loopy)) => {
                let summary = match (game.graph(), loopy) {
                    (Some(graph), _) => format!(" — {}", graph.summary()),
                    (None, true) => " — its moves can cycle: `table` and `solve` value it as a loopy game (P, N or D, remoteness, generalized SG values)".to_string(),
                    (None, false) => String::new(),
                };
                context
                    .console
                    .print(&format!("ok: {name}: {}{summary}\n", game_title(&game)))?
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

/// Computes the smallest positions of `game`; an error of its rules (a move to a larger heap,
/// a negative heap, an overflow, a cycle) is returned as `table` would report it, while a
/// refusal of the request (memory, time, positions outside the box) is not an error of the
/// rules and is ignored. A position game whose moves cycle is valued as a loopy game
/// (`Ok(true)`): its small positions are then listed that way, for the rules' errors.
fn evaluate_small(game: &Game) -> Result<bool, CliError> {
    if game.graph().is_some() {
        // A graph's moves are its edges, all checked while loading; a cycle is a draw, not an
        // error of the file.
        return Ok(false);
    }
    let result = match game.position_program() {
        Some(program) => {
            let extents = vec![CHECK_BOX; program.coordinates().len()];
            match multi::compute_box(game, &extents) {
                Err(EngineError::Cycle { .. }) => {
                    return match LoopyTable::of_box(game, &extents) {
                        Err(e @ EngineError::Rule { .. }) => Err(e.into()),
                        _ => Ok(true),
                    }
                }
                other => other.map(|_| ()),
            }
        }
        None => engine::compute(game, CHECK_TO, &EngineOptions { progress: false }).map(|_| ()),
    };
    match result {
        Err(e @ (EngineError::Rule { .. } | EngineError::Cycle { .. })) => Err(e.into()),
        _ => Ok(false),
    }
}
