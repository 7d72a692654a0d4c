//! `solve GAME POSITION…`: parses the position, calls [`crate::solve::solve`] (normal play) or
//! [`crate::solve::solve_misere`] (`--misere`, or a file saying `play misere`) and writes its
//! report with [`crate::export::solve::write_text`] or, with `--json`,
//! [`crate::export::solve::write_json`].

use crate::api::{self, SolveRequest, Solved};
use crate::export;
use crate::rules::Game;
use crate::solve::SolveError;
use crate::value::Notice;

use super::{CliError, Context, GameArgs, PlayArgs};

/// `solve` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position: heaps (`3 5 7`), tuples joined by `+` (`(3, 4) + (5, 2)`), or a graph
    /// file's nodes (`a + b`; a file's `start` node when none is given).
    // `index = 2`: after GAME, which `GameArgs` (flattened below) makes the first.
    #[arg(index = 2, value_name = "POSITION")]
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
    let play = args.play.resolve(&game, &mut context.console);
    let console = std::cell::RefCell::new(&mut context.console);
    let notices = |notice: &Notice| console.borrow_mut().note(&super::notice_text(notice));
    let request = SolveRequest {
        play,
        options: super::progress::options(),
        notices: Some(&notices),
    };
    let solved = api::solve(&game, &args.position.join(" "), &request);
    let console = console.into_inner();
    let report = match solved {
        Ok(Solved::Sum(report)) => report,
        Ok(Solved::Loopy(report)) => {
            console.write_to("-", |out| match args.json {
                true => export::loopy::write_solve_json(out, &report),
                false => export::loopy::write_solve_text(out, &report),
            })?;
            return Ok(());
        }
        Ok(Solved::Hackenbush(report)) => {
            console.write_to("-", |out| {
                export::hackenbush::write_solve(out, &report, args.json)
            })?;
            return Ok(());
        }
        Err(error) => {
            if let (
                SolveError::AfterHeader {
                    position, method, ..
                },
                false,
            ) = (&error, args.json)
            {
                console.write_to("-", |out| {
                    export::solve::write_header(out, position, method)
                })?;
            }
            return Err(refusal(error, &game, &args.position, "solve"));
        }
    };
    console.write_to("-", |out| {
        if args.json {
            export::solve::write_json(out, &report)
        } else {
            export::solve::write_text(out, &report)
        }
    })?;
    Ok(())
}

/// A refusal of the position asked about by `command` (`solve`, `play`, `judge`), worded for
/// the command line (exit 2); any other error as it is.
pub(super) fn refusal(
    error: SolveError,
    game: &Game,
    position: &[String],
    command: &str,
) -> CliError {
    match (&error, game.graph()) {
        (SolveError::NoPosition, None) => CliError::Usage(format!(
            "`{command}` needs a position: heaps (`3 5 7`) or tuples joined by `+` (`(3, 4) + (5, 2)`)"
        )),
        (SolveError::NoPosition, Some(graph)) => CliError::Usage(format!(
            "`{command}` needs a position: one or more nodes of {} joined by `+` (e.g. `{}`), or a `start` line in the file",
            game.name,
            graph.name(0)
        )),
        (SolveError::HackenbushPosition { .. }, _) => super::usage_with_help(
            format!(
                "a hackenbush file is one position, the whole graph: `{command}` takes no position for it"
            ),
            format!("drop `{}`", position.join(" ")),
        ),
        (SolveError::UnknownNode { name, game, nodes }, _) => super::usage_with_help(
            format!("`{name}` is not a node of {game}"),
            format!("the nodes are named in its `edge` lines ({nodes} nodes; `sgscope table FILE` lists them)"),
        ),
        (SolveError::MisereLoopy, _) => super::table::misere_loopy_refusal(),
        _ => CliError::Solve(Box::new(error)),
    }
}
