//! `check`: parse and check rules files without computing anything.

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
}

/// Runs `check`: one `ok:` line per good file; every error is printed.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let mut failures = Vec::new();
    for name in &args.games {
        match args.sets.load(name) {
            Ok(game) => context
                .console
                .print(&format!("ok: {name}: {}\n", game_title(&game)))?,
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
