//! `plot`: a chart of G(n) (heap games and one-coordinate position games), or a heat map of a
//! two-coordinate position game.

use std::path::Path;

use crate::analysis;
use crate::engine::multi;
use crate::engine::{self, SgTable};
use crate::export::heatmap::{self, HeatmapSpec};
use crate::export::{self, ChartSpec};
use crate::rules::Game;

use super::args::{BoxArg, GameArgs};
use super::period::periodicity;
use super::{CliError, Context};

/// `plot` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Last position drawn (a position game: every coordinate, or --to x=100,y=50).
    #[arg(long, default_value = "200", value_name = "N")]
    to: BoxArg,
    /// Mark the rare positions under the best mask (take-and-break games; see `period`).
    #[arg(long)]
    rare: bool,
    /// The chart file: .png or .svg.
    #[arg(short, long, value_name = "FILE")]
    output: String,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `plot`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    // A one-coordinate position game gets the chart of a heap game.
    if game.position_program().is_some() && game.coordinates().len() != 1 && !args.rare {
        heat_map(&game, &args.to, &args.output)?;
    } else {
        chart(&game, args.to.heap_to(&game)?, args.rare, &args.output)?;
    }
    context.console.note(&format!("wrote {}", args.output));
    Ok(())
}

fn chart(game: &Game, to: u64, rare: bool, output: &str) -> Result<(), CliError> {
    // Refuse a bad extension or a meaningless --rare before computing anything.
    export::ChartFormat::from_path(Path::new(output))?;
    if rare && game.code().is_none() {
        return Err(CliError::Usage(format!(
            "--rare needs a take-and-break game: {} has general rules without an equivalent code",
            game.name
        )));
    }
    let table = match game.position_program() {
        Some(_) => {
            let boxed = engine::multi::compute_box(game, &[to])?;
            SgTable::from_values(boxed.values())
        }
        None => engine::compute(game, to, &engine::EngineOptions { progress: true })?,
    };
    let report = analysis::report_for_table(&game.name, game.code(), &table);
    let spec = ChartSpec {
        periodicity: periodicity(&report),
        rare: report.rare.filter(|_| rare).map(|stats| stats.mask()),
        ..ChartSpec::new(&game.name, &game.coordinate)
    };
    export::write_chart(Path::new(output), &table, &spec)?;
    Ok(())
}

/// A heat map of a position game of two coordinates.
fn heat_map(game: &Game, to: &BoxArg, output: &str) -> Result<(), CliError> {
    export::ChartFormat::from_path(Path::new(output))?;
    let coordinates = game.coordinates();
    if coordinates.len() != 2 {
        return Err(CliError::Usage(format!(
            "a heat map needs two coordinates, but positions are ({}); use `table` instead",
            coordinates.join(", ")
        )));
    }
    let table = multi::compute_box(game, &to.extents(&coordinates)?)?;
    heatmap::write_heatmap(Path::new(output), &table, &HeatmapSpec::new(&game.name))?;
    Ok(())
}
