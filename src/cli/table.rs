//! `table`: the values of every position, as text, CSV, JSON or (position games) a matrix.

use crate::analysis;
use crate::engine::hackenbush::Hackenbush;
use crate::engine::multi::show_position;
use crate::engine::EngineError;
use crate::engine::{self, multi, EngineOptions, Table};
use crate::export::{self, Format};
use crate::rules::GraphGame;
use crate::rules::{Game, Play};
use crate::value::loopy::LoopyTable;
use crate::value::misere;

use super::args::{parse_format, BoxArg, Checkpointing, ColorChoice, GameArgs, PlayArgs};
use super::long_run::{note_if_long, Bound};
use super::{CliError, Context};

/// `table` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Last position (the table covers 0..=N); for a position game N bounds every
    /// coordinate, or give one bound each: --to x=100,y=50.
    #[arg(long, default_value = "100", value_name = "N")]
    to: BoxArg,
    /// Output format: text, csv or json (matrix: a plain grid of a position game).
    #[arg(long, default_value = "text", value_parser = parse_format)]
    format: Format,
    /// Write to FILE (atomically) instead of stdout; `-` is stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
    /// Colour P-positions in text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    checkpointing: Checkpointing,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `table`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    args.checkpointing.check_paths(args.output.as_deref())?;
    let output = args.output.as_deref().unwrap_or("-");
    let color = args.color.enabled(output);
    let play = args.play.resolve(&game, &mut context.console);
    if let Some(graph) = game.graph() {
        args.checkpointing.refuse_for_positions()?;
        refuse_misere_loopy(play)?;
        refuse_matrix(args.format, "a graph file's table is one row per node")?;
        if let Some(ground) = graph.hackenbush {
            let position = hackenbush_of(graph, ground)?;
            context.console.write_to(output, |out| {
                export::hackenbush::write_table(out, graph, &position, args.format, &game.name)
            })?;
            return Ok(());
        }
        let table = LoopyTable::of_graph_with(graph, &super::progress::options())?;
        context.console.write_to(output, |out| {
            export::loopy::write_table(out, &table, args.format, &game.name)
        })?;
        return Ok(());
    }
    if play == Play::Misere {
        return run_misere(&args, &game, context);
    }
    if game.position_program().is_some() {
        args.checkpointing.refuse_for_positions()?;
        let extents = args.to.extents(&game.coordinates())?;
        let table = match multi::compute_box_with(&game, &extents, &super::progress::options()) {
            Ok(table) => Table::Box(table),
            Err(EngineError::Cycle { positions, .. }) => {
                let cycle: Vec<String> = positions.iter().map(|p| show_position(p)).collect();
                context.console.note(&format!(
                    "note: the moves can cycle ({}), so every position is valued as a loopy game: outcome (P, N or D for a draw), remoteness and generalized Sprague–Grundy value",
                    cycle.join(" → ")
                ));
                refuse_matrix(
                    args.format,
                    "a loopy game's table is one row per position (outcome, remoteness, value)",
                )?;
                let table = LoopyTable::of_box_with(&game, &extents, &super::progress::options())?;
                context.console.write_to(output, |out| {
                    export::loopy::write_table(out, &table, args.format, &game.name)
                })?;
                return Ok(());
            }
            Err(error) => return Err(error.into()),
        };
        context.console.write_to(output, |out| {
            export::write_table(out, &table, args.format, &game.name, color)
        })?;
        return Ok(());
    }
    let to = args.to.heap_to(&game)?;
    if args.format == Format::Matrix {
        return Err(CliError::Usage(
            "--format matrix is a grid of a position game (`position (x, y)`); a heap game's table is text, csv or json".into(),
        ));
    }
    let console = &mut context.console;
    let (mut table, ()) = args
        .checkpointing
        .run(&game, &context.args, |mut table, hook| {
            note_if_long(console, &game, table.len(), to, Bound::To, hook.is_some());
            let options = EngineOptions {
                progress: super::progress::sink(),
            };
            match hook {
                Some(hook) => engine::extend_in_chunks(&game, &mut table, to, &options, hook)?,
                None => engine::extend(&game, &mut table, to, &options)?,
            }
            Ok((table, ()))
        })?;
    // A resumed table may hold more values than asked for.
    table.truncate(to as usize + 1);
    let table = Table::sequence(&game.coordinate, table);
    context.console.write_to(output, |out| {
        export::write_table(out, &table, args.format, &game.name, color)
    })?;
    Ok(())
}

/// `--format matrix` is a grid of normal values of a box: refused for the tables that are
/// not one (`why`), which would otherwise print as text.
fn refuse_matrix(format: Format, why: &str) -> Result<(), CliError> {
    if format == Format::Matrix {
        return Err(CliError::Usage(format!(
            "--format matrix is a grid of normal values of a position game's box; {why}: ask for text, csv or json"
        )));
    }
    Ok(())
}

/// `table --misere`: every position's normal value, misère value and genus.
fn run_misere(args: &Args, game: &Game, context: &mut Context<'_>) -> Result<(), CliError> {
    if args.checkpointing.checkpoint.is_some() || args.checkpointing.resume.is_some() {
        return Err(CliError::Usage(
            "--checkpoint is for normal-play tables; a misère table is computed in one piece (drop --checkpoint)".into(),
        ));
    }
    refuse_matrix(args.format, "a misère table is one row per position")?;
    let extents = if game.position_program().is_some() {
        args.to.extents(&game.coordinates())?
    } else {
        vec![args.to.heap_to(game)?]
    };
    let table = misere::table(game, &extents, super::progress::sink())?;
    let summary = analysis::misere::summarize(&table);
    let output = args.output.as_deref().unwrap_or("-");
    context.console.write_to(output, |out| {
        export::misere::write_table(out, &table, &summary, args.format, &game.name)
    })?;
    Ok(())
}

/// Misère play of a game that can cycle is not valued (only normal play's loopy theory is).
pub(super) fn refuse_misere_loopy(play: Play) -> Result<(), CliError> {
    if play == Play::Misere {
        return Err(super::usage_with_help(
            "misère play of a graph or of a game whose moves can cycle is not supported: the loopy values (outcome, remoteness, generalized Sprague–Grundy value) are those of normal play".into(),
            "drop --misere".into(),
        ));
    }
    Ok(())
}

/// The Hackenbush position of a `hackenbush` file.
pub(super) fn hackenbush_of(graph: &GraphGame, ground: u32) -> Result<Hackenbush, CliError> {
    crate::engine::budget::check_graph(
        graph.node_count(),
        graph.undirected.len(),
        crate::engine::budget::HACKENBUSH_COST,
    )?;
    Hackenbush::new(graph.node_count(), graph.undirected.clone(), ground)
        .map_err(|e| CliError::Usage(e.to_string()))
}
