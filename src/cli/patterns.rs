//! `patterns`: where the P-positions lie (closed-form criteria for any number of coordinates),
//! and the periods along the lines of a two-coordinate box.

use crate::analysis::criteria::CriteriaReport;
use crate::analysis::patterns;
use crate::engine;
use crate::engine::multi;
use crate::rules::Game;

use super::args::{BoxArg, GameArgs};
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
    game: GameArgs,
}

/// Runs `patterns`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let text = report(&args.game.load(&mut context.console)?, &args.to, args.json)?;
    context.console.print(&text)?;
    Ok(())
}

/// The report, as text or JSON.
fn report(game: &Game, to: &BoxArg, json: bool) -> Result<String, CliError> {
    let coordinates = game.coordinates();
    let extents = to.extents(&coordinates)?;
    let text = if game.position_program().is_none() || coordinates.len() == 1 {
        let values = match game.position_program() {
            Some(_) => multi::compute_box(game, &extents)?.values().to_vec(),
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
        let table = multi::compute_box(game, &extents)?;
        let report = patterns::analyse_box(&table).map_err(|e| CliError::Usage(e.to_string()))?;
        if json {
            to_json(&report)?
        } else {
            report.to_string()
        }
    } else {
        // Rows and diagonals are 2-D ideas; any number of coordinates has criteria.
        let report = CriteriaReport::of(&multi::compute_box(game, &extents)?);
        if json {
            to_json(&report)?
        } else {
            report.to_string()
        }
    };
    Ok(text)
}

fn to_json(report: &impl serde::Serialize) -> Result<String, CliError> {
    serde_json::to_string_pretty(report)
        .map(|s| s + "\n")
        .map_err(|e| CliError::Failed(e.to_string()))
}
