//! `plot`: a chart of G(n) (heap games and one-coordinate position games), or a heat map of a
//! two-coordinate position game.

use std::path::Path;

use crate::analysis;
use crate::api;
use crate::engine::Table;
use crate::export::graph_plot::GraphDrawing;
use crate::export::{self, ChartSpec};
use crate::rules::Play;
use crate::value::{Outcome, Registry, Request, Valued};

use super::args::{BoxArg, GameArgs, PlayArgs};
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
    play: PlayArgs,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `plot`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    // The chart format is the flag's own: refused (exit 2) before the game is even read.
    let output = Path::new(&args.output);
    let format = export::ChartFormat::from_path(output)?;
    let game = args.game.load(&mut context.console)?;
    super::checkpointing::check_output(Some(&args.output))?;
    if let Some(graph) = game.graph() {
        return plot_graph(&args, &game, graph, format, context);
    }
    // Refuse a meaningless --rare or a box that cannot be drawn before computing anything.
    let coordinates = game.coordinates();
    // A one-coordinate position game gets the chart of a heap game.
    let heat_map = game.position_program().is_some() && coordinates.len() != 1 && !args.rare;
    if heat_map && coordinates.len() != 2 {
        return Err(CliError::Usage(format!(
            "a heat map needs two coordinates, but positions are ({}); use `table` instead",
            coordinates.join(", ")
        )));
    }
    if !heat_map && args.rare && game.code().is_none() {
        return Err(CliError::Usage(format!(
            "--rare needs a take-and-break game: {} has general rules without an equivalent code",
            game.name
        )));
    }
    let misere = args.play.resolve(&game, &mut context.console) == Play::Misere;
    if misere && args.rare {
        return Err(CliError::Usage(
            "--rare marks rare normal values; drop it with --misere".into(),
        ));
    }
    let title = format!("{}, misère play: G⁻", game.name);
    let mut spec = ChartSpec::new(if misere { &title } else { &game.name }, &game.coordinate);
    let extents = if heat_map {
        args.to.extents(&coordinates)?
    } else {
        vec![args.to.heap_to(&game)?]
    };
    let request = Request {
        options: super::progress::options(),
        loopy_fallback: false,
        ..Request::new(&extents)
    };
    let registry = Registry::standard();
    let rule = if misere { "misere" } else { "normal" };
    let table = match api::value(&registry, &game, rule, &request)? {
        Valued::Misere(table) => {
            spec.periodicity = analysis::misere::summarize(&table).misere_period;
            table.misere_table()
        }
        Valued::Normal(table) if heat_map => table,
        Valued::Normal(table) => {
            let values = table
                .to_sequence()
                .expect("one coordinate is a sequence")
                .into_owned();
            let report = analysis::report_for_table(&game.name, game.code(), &values);
            spec.periodicity = report.periodicity();
            spec.rare = report.rare.filter(|_| args.rare).map(|stats| stats.mask());
            Table::sequence(&game.coordinate, values)
        }
        other => unreachable!(
            "normal and misère play of a game that ends: {:?}",
            other.kind()
        ),
    };
    let bytes = export::render_plot(&table, &spec, format)?;
    context
        .console
        .write_to(&args.output, |w| w.write_all(&bytes))?;
    context.console.note(&format!("wrote {}", args.output));
    Ok(())
}

/// `plot` of a graph file: the graph with its nodes coloured by outcome (P, N, D), each
/// labelled with its value (a Hackenbush file: the value of the part above each node).
fn plot_graph(
    args: &Args,
    game: &crate::rules::Game,
    graph: &crate::rules::GraphGame,
    format: export::ChartFormat,
    context: &mut Context<'_>,
) -> Result<(), CliError> {
    if args.rare {
        return Err(CliError::Usage(
            "--rare marks rare values of a heap game; a graph has none (drop --rare)".into(),
        ));
    }
    super::table::refuse_misere_loopy(args.play.resolve(game, &mut context.console).word())?;
    let names: Vec<String> = (0..graph.node_count() as u32)
        .map(|v| graph.name(v).to_string())
        .collect();
    let title = format!("{}: P, N and D positions", game.name);
    let request = super::values_request(&[], true);
    let bytes = match api::value(&Registry::standard(), game, "normal", &request)? {
        Valued::Hackenbush(table) => {
            let values = table.picture.node_values();
            let outcome: Vec<Outcome> = values
                .iter()
                .map(|v| Outcome::of_value(v.unwrap_or(0)))
                .collect();
            let labels: Vec<String> = values
                .iter()
                .map(|v| v.map_or_else(String::new, |v| format!("*{v}")))
                .collect();
            let edges = crate::graph::Graph::from_edges(graph.node_count(), &graph.undirected);
            let title = format!("{}: the value above each node", game.name);
            export::graph_plot::render_graph(
                &GraphDrawing {
                    title: &title,
                    graph: &edges,
                    names: &names,
                    outcome: &outcome,
                    labels: &labels,
                    undirected: true,
                    ground: Some(table.picture.ground()),
                },
                format,
            )?
        }
        Valued::Loopy(table) => {
            let labels: Vec<String> = table.values().iter().map(|v| v.pretty()).collect();
            export::graph_plot::render_graph(
                &GraphDrawing {
                    title: &title,
                    graph: &graph.graph,
                    names: &names,
                    outcome: &table.outcome,
                    labels: &labels,
                    undirected: false,
                    ground: None,
                },
                format,
            )?
        }
        other => unreachable!(
            "a graph file's table is loopy or Hackenbush, not {}",
            other.kind()
        ),
    };
    context
        .console
        .write_to(&args.output, |w| w.write_all(&bytes))?;
    context.console.note(&format!("wrote {}", args.output));
    Ok(())
}
