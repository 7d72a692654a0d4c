//! `solve GAME POSITION…`: parses the position, calls [`crate::solve::solve`] and writes its
//! report with [`crate::export::solve::write_text`].

use crate::export;
use crate::solve::{self, SolveError};

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

/// Runs `solve`. What was found before an error (the position and the pattern deciding it,
/// when the pattern then fails on a move) is printed before the error.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    let arity = game.coordinates().len();
    let components = solve::parse_sum(&args.position.join(" "), arity)
        .map_err(|e| CliError::Solve(Box::new(e.into())))?;
    match solve::solve(&game, &components) {
        Ok(report) => {
            context
                .console
                .write_to("-", |out| export::solve::write_text(out, &report))?;
            Ok(())
        }
        Err(error) => {
            if let SolveError::AfterHeader {
                position, method, ..
            } = &error
            {
                context.console.write_to("-", |out| {
                    export::solve::write_header(out, position, method)
                })?;
            }
            Err(CliError::Solve(Box::new(error)))
        }
    }
}
