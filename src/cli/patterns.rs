//! `patterns`: where the P-positions lie (closed-form criteria for any number of coordinates),
//! the periods along the lines of a two-coordinate box, closed forms of the values
//! themselves for one or two coordinates, and (normal play, one or two coordinates) a closed
//! form of the smallest winning move ([`winning::find_smallest_move`]).

use crate::api;
use crate::rules::Play;

use super::args::{BoxArg, GameArgs, PlayArgs};
use super::{CliError, Context};

/// `patterns` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The box analysed: 0..=N in every coordinate, or --to x=100,y=50.
    #[arg(long, default_value = "100", value_name = "N")]
    to: BoxArg,
    /// Print a JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `patterns`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    super::refuse_graph(&game, "patterns")?;
    let play = args.play.resolve(&game, &mut context.console);
    let extents = args.to.extents(&game.coordinates())?;
    // The misère search shows progress; the normal kernels do not.
    let request = super::values_request(&extents, play == Play::Misere);
    let findings = api::patterns(&game, play, &request)?;
    let text = match args.json {
        true => findings
            .json()
            .map_err(|e| CliError::Failed(e.to_string()))?,
        false => findings.text(),
    };
    context.console.print(&text)?;
    Ok(())
}
