//! `patterns`: where the P-positions lie (closed-form criteria for any number of coordinates),
//! the periods along the lines of a two-coordinate box, closed forms of the values
//! themselves for one or two coordinates, and (normal play, one or two coordinates) a closed
//! form of the smallest winning move ([`winning::find_smallest_move`]).

use crate::analysis::criteria::CriteriaReport;
use crate::analysis::patterns;
use crate::analysis::patterns::winning;
use crate::engine::boxtable::BoxTable;
use crate::engine::Table;
use crate::rules::{Game, Play};

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
    let text = report(&game, &args.to, args.json, play)?;
    context.console.print(&text)?;
    Ok(())
}

/// The values the patterns are sought in: normal values, or misère values `G⁻` (whose zeros
/// are the misère P-positions); the misère search shows progress, the normal kernels do not.
fn values(game: &Game, extents: &[u64], play: Play) -> Result<Table, CliError> {
    super::grundy_values(game, play, extents, play == Play::Misere)
}

/// The report, as text or JSON.
fn report(game: &Game, to: &BoxArg, json: bool, play: Play) -> Result<String, CliError> {
    let coordinates = game.coordinates();
    let extents = to.extents(&coordinates)?;
    let table = values(game, &extents, play)?;
    let boxed = |table: Table| match table {
        Table::Box(boxed) => boxed,
        Table::Sequence { .. } => unreachable!("a position game's table is a box"),
    };
    // The smallest winning move's pattern: normal play, one or two coordinates (rows of
    // more coordinates keep their one line of criteria).
    let smallest = (play == Play::Normal && coordinates.len() <= 2).then(|| {
        let boxed = match &table {
            Table::Box(boxed) => boxed.clone(),
            Table::Sequence { .. } => {
                BoxTable::new(coordinates.clone(), table.extents(), table.iter().collect())
            }
        };
        winning::find_smallest_move(game, &boxed, winning::SMALLEST_MOVE_STEPS)
    });
    let text = if game.position_program().is_none() || coordinates.len() == 1 {
        let values: Vec<u32> = table.iter().collect();
        let report = patterns::p_position_patterns(&values);
        let mut formula = patterns::find_sequence(&coordinates[0], &values);
        formula.function = function(play);
        if json {
            let mut value =
                serde_json::to_value(&report).map_err(|e| CliError::Failed(e.to_string()))?;
            if let Some(object) = value.as_object_mut() {
                object.insert(
                    "formula".into(),
                    serde_json::to_value(&formula).map_err(|e| CliError::Failed(e.to_string()))?,
                );
            }
            to_json(&value)?
        } else {
            format!("{}\n{formula}\n", report.describe(&coordinates[0]))
        }
    } else if coordinates.len() == 2 {
        let table = boxed(table);
        let mut report = patterns::analyse_box(&table).map_err(|e| {
            CliError::Usage(super::with_help(
                e.to_string(),
                e.hint().map(super::hint_help),
            ))
        })?;
        report.formula.function = function(play);
        if json {
            to_json(&report)?
        } else {
            report.to_string()
        }
    } else {
        // Rows and diagonals are 2-D ideas; any number of coordinates has criteria.
        let report = CriteriaReport::of(&boxed(table));
        if json {
            to_json(&report)?
        } else {
            report.to_string()
        }
    };
    if let Some(smallest) = &smallest {
        if json {
            let mut value: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| CliError::Failed(e.to_string()))?;
            if let Some(object) = value.as_object_mut() {
                object.insert(
                    "smallest_winning_move".into(),
                    serde_json::to_value(smallest).map_err(|e| CliError::Failed(e.to_string()))?,
                );
            }
            return to_json(&value);
        }
        return Ok(format!("{text}{smallest}"));
    }
    if play == Play::Normal {
        return Ok(text);
    }
    if json {
        let mut value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| CliError::Failed(e.to_string()))?;
        if let Some(object) = value.as_object_mut() {
            object.insert("play".into(), "misere".into());
        }
        return to_json(&value);
    }
    Ok(format!(
        "misère play: the patterns below are those of the misère P-positions (G⁻ = 0, the player to move loses)\n{text}"
    ))
}

/// The name of the values a formula is of.
fn function(play: Play) -> String {
    match play {
        Play::Misere => "G⁻".to_string(),
        _ => "G".to_string(),
    }
}

fn to_json(report: &impl serde::Serialize) -> Result<String, CliError> {
    serde_json::to_string_pretty(report)
        .map(|s| s + "\n")
        .map_err(|e| CliError::Failed(e.to_string()))
}
