//! `solve GAME POSITION…`: parses the position, calls [`crate::solve::solve`] (normal play) or
//! [`crate::solve::solve_misere`] (`--misere`, or a file saying `play misere`) and writes its
//! report with [`crate::export::solve::write_text`] or, with `--json`,
//! [`crate::export::solve::write_json`].

use crate::engine::EngineError;
use crate::export;
use crate::rules::{Game, GraphGame, Play};
use crate::solve::{self, MisereOptions, SolveError};
use crate::value::loopy::LoopyTable;

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
    if let Some(graph) = game.graph() {
        return run_graph(&args, &game, graph, play, context);
    }
    if args.position.is_empty() {
        return Err(CliError::Usage(
            "`solve` needs a position: heaps (`3 5 7`) or tuples joined by `+` (`(3, 4) + (5, 2)`)"
                .into(),
        ));
    }
    let arity = game.coordinates().len();
    let components = solve::parse_sum(&args.position.join(" "), arity)
        .map_err(|e| CliError::Solve(Box::new(e.into())))?;
    let solved = match play {
        Play::Normal => match solve::solve_with(&game, &components, &super::progress::options()) {
            Err(SolveError::Engine(EngineError::Cycle { .. })) => {
                // A game whose moves can cycle: the positions reachable from the sum's.
                let table =
                    LoopyTable::reachable_with(&game, &components, &super::progress::options())?;
                let nodes: Vec<u32> = components
                    .iter()
                    .map(|c| table.node_of(c).expect("every start is a node"))
                    .collect();
                return write_loopy(&args, &game, &table, &nodes, context);
            }
            other => other,
        },
        Play::Misere => {
            let console = &mut context.console;
            let mut note = |text: String| console.note(&text);
            solve::solve_misere(
                &game,
                &components,
                MisereOptions {
                    progress: super::progress::sink(),
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

/// `solve` on a graph file: a sum of tokens on its nodes (by name), or a Hackenbush position.
fn run_graph(
    args: &Args,
    game: &Game,
    graph: &GraphGame,
    play: Play,
    context: &mut Context<'_>,
) -> Result<(), CliError> {
    super::table::refuse_misere_loopy(play.word())?;
    if let Some(ground) = graph.hackenbush {
        if !args.position.is_empty() {
            return Err(super::usage_with_help(
                "a hackenbush file is one position, the whole graph: `solve` takes no position for it".to_string(),
                format!("drop `{}`", args.position.join(" ")),
            ));
        }
        let position = crate::value::hackenbush_of(graph, ground)?;
        context.console.write_to("-", |out| {
            export::hackenbush::write_solve(out, graph, &position, args.json)
        })?;
        return Ok(());
    }
    let text = args.position.join(" ");
    let nodes: Vec<u32> = if text.split(['+', ' ']).all(|n| n.trim().is_empty()) {
        match graph.start {
            Some(start) => vec![start],
            None => {
                return Err(CliError::Usage(format!(
                    "`solve` needs a position: one or more nodes of {} joined by `+` (e.g. `{}`), or a `start` line in the file",
                    game.name,
                    graph.name(0)
                )))
            }
        }
    } else {
        graph.nodes_of_sum(&text).map_err(|name| {
            super::usage_with_help(
                format!("`{name}` is not a node of {}", game.name),
                format!("the nodes are named in its `edge` lines ({} nodes; `sgscope table FILE` lists them)", graph.node_count()),
            )
        })?
    };
    let table = LoopyTable::of_graph_with(graph, &super::progress::options())?;
    write_loopy(args, game, &table, &nodes, context)
}

fn write_loopy(
    args: &Args,
    game: &Game,
    table: &LoopyTable,
    nodes: &[u32],
    context: &mut Context<'_>,
) -> Result<(), CliError> {
    let report =
        solve::loopy::solve_loopy(game, table, nodes).map_err(|e| CliError::Solve(Box::new(e)))?;
    context.console.write_to("-", |out| {
        if args.json {
            export::loopy::write_solve_json(out, &report)
        } else {
            export::loopy::write_solve_text(out, &report)
        }
    })?;
    Ok(())
}
