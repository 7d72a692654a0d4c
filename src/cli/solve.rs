//! `solve GAME POSITION…`: parses the position, calls [`crate::solve::solve`] (normal play) or
//! [`crate::solve::solve_misere`] (`--misere`, or a file saying `play misere`) and writes its
//! report with [`crate::export::solve::write_text`] or, with `--json`,
//! [`crate::export::solve::write_json`].

use crate::export;
use crate::rules::Play;
use crate::solve::{self, MisereOptions, SolveError};

use super::{CliError, Context, GameArgs, PlayArgs};

/// `solve` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position: heaps (`3 5 7`) or tuples joined by `+` (`(3, 4) + (5, 2)`).
    // `index = 2`: after GAME, which `GameArgs` (flattened below) makes the first.
    #[arg(index = 2, required = true, value_name = "POSITION")]
    position: Vec<String>,
    /// Write the report as one JSON object (outcome, value, winning moves, method).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `solve`. What was found before an error (the position and the pattern deciding it,
/// when the pattern then fails on a move) is printed before the error.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    super::refuse_graph(&game, "solve")?;
    let arity = game.coordinates().len();
    let components = solve::parse_sum(&args.position.join(" "), arity)
        .map_err(|e| CliError::Solve(Box::new(e.into())))?;
    let play = args.play.resolve(&game, &mut context.console);
    let solved = match play {
        Play::Normal => solve::solve(&game, &components),
        Play::Misere => {
            let console = &mut context.console;
            let mut note = |text: String| console.note(&text);
            solve::solve_misere(
                &game,
                &components,
                MisereOptions {
                    progress: true,
                    note: Some(&mut note),
                    ..Default::default()
                },
            )
        }
    };
    match solved {
        Ok(report) => {
            context.console.write_to("-", |out| {
                if args.json {
                    export::solve::write_json(out, &report)
                } else {
                    export::solve::write_text(out, &report)
                }
            })?;
            Ok(())
        }
        Err(error) => {
            if let (
                SolveError::AfterHeader {
                    position, method, ..
                },
                false,
            ) = (&error, args.json)
            {
                context.console.write_to("-", |out| {
                    export::solve::write_header(out, position, method)
                })?;
            }
            Err(CliError::Solve(Box::new(error)))
        }
    }
}
