//! `table`: the values of every position, as text, CSV, JSON or (position games) a matrix.

use crate::analysis;
use crate::api;
use std::cell::RefCell;

use crate::engine::{EngineError, Table};
use crate::export::{Format, TableView};
use crate::rules::Game;
use crate::value::{DynRule, Notice, Registry, Request, TableKind, Valued};

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
    /// Value by the rule NAME: normal, misere, loopy (games that can cycle: outcome,
    /// remoteness, generalized SG value) or outcomes (P, N or D only, no values).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["misere", "normal"])]
    rule: Option<String>,
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
    let registry = Registry::standard();
    let rule = match &args.rule {
        Some(name) => rule_by_name(&registry, name)?,
        None => rule_by_name(
            &registry,
            args.play.resolve(&game, &mut context.console).word(),
        )?,
    };
    let kind = rule.kind(&game);
    // Refusals first, before any work.
    if game.graph().is_some() {
        args.checkpointing.refuse_for_positions()?;
        refuse_misere_loopy(rule.name())?;
    } else if kind == TableKind::Misere {
        if args.checkpointing.checkpoint.is_some() || args.checkpointing.resume.is_some() {
            return Err(CliError::Usage(
                "--checkpoint is for normal-play tables; a misère table is computed in one piece (drop --checkpoint)".into(),
            ));
        }
    } else if kind != TableKind::Sequence {
        args.checkpointing.refuse_for_positions()?;
    }
    refuse_format(args.format, kind)?;
    let valued = if kind == TableKind::Sequence {
        sequence(&args, &game, rule, context)?
    } else {
        let extents = match (game.graph(), game.position_program()) {
            (Some(_), _) => Vec::new(),
            (None, Some(_)) => args.to.extents(&game.coordinates())?,
            (None, None) => vec![args.to.heap_to(&game)?],
        };
        let console = RefCell::new(&mut context.console);
        let notices = |notice: &Notice| console.borrow_mut().note(&super::notice_text(notice));
        // A format that cannot show a loopy table stops at the cycle, before valuing it.
        let loopy_fallback = args.format.check(TableKind::Loopy).is_ok();
        let request = Request {
            options: super::progress::options(),
            notices: Some(&notices),
            loopy_fallback,
            ..Request::new(&extents)
        };
        let valued = match rule.value(&game, &request) {
            Err(EngineError::Cycle { positions, .. }) if !loopy_fallback => {
                notices(&Notice::ValuedAsLoopy { cycle: positions });
                return refuse_format(args.format, TableKind::Loopy);
            }
            valued => valued?,
        };
        refuse_format(args.format, valued.kind())?;
        valued
    };
    let summary = match &valued {
        Valued::Misere(table) => Some(analysis::misere::summarize(table)),
        _ => None,
    };
    let view = TableView {
        game: &game.name,
        color,
        misere: summary.as_ref(),
    };
    let exporter = args.format.exporter();
    context
        .console
        .write_to(output, |out| exporter.write(out, &valued, &view))?;
    Ok(())
}

/// A heap game's normal values `G(0..=to)` through the facade, resumable: saved and resumed
/// with `--checkpoint`.
fn sequence(
    args: &Args,
    game: &Game,
    rule: &dyn DynRule,
    context: &mut Context<'_>,
) -> Result<Valued, CliError> {
    let to = args.to.heap_to(game)?;
    let console = &mut context.console;
    let (values, ()) = args.checkpointing.run(game, &context.args, |start, hook| {
        note_if_long(console, game, start.len(), to, Bound::To, hook.is_some());
        let start = RefCell::new(start);
        let request = Request {
            options: super::progress::options(),
            start: Some(&start),
            between_chunks: hook,
            ..Request::new(&[to])
        };
        match rule.value(game, &request)? {
            Valued::Normal(Table::Sequence { values, .. }) => Ok((values, ())),
            other => unreachable!(
                "normal play of a heap game is a sequence, not {}",
                other.kind()
            ),
        }
    })?;
    Ok(Valued::Normal(Table::sequence(&game.coordinate, values)))
}

/// The rule called `name`, or an error listing the rules there are.
fn rule_by_name<'r>(registry: &'r Registry, name: &str) -> Result<&'r dyn DynRule, CliError> {
    if let Ok(rule) = api::rule(registry, name) {
        return Ok(rule);
    }
    let list: Vec<String> = registry
        .rules()
        .map(|r| format!("  {:<9} {}", r.name(), r.about()))
        .collect();
    let suggestion = crate::rules::names::suggest(name, registry.names())
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default();
    Err(CliError::Usage(format!(
        "unknown value rule `{name}`{suggestion}; the rules are:\n{}",
        list.join("\n")
    )))
}

/// A format that cannot show this kind of table is refused (exit 2), in words saying why.
fn refuse_format(format: Format, kind: TableKind) -> Result<(), CliError> {
    if format.check(kind).is_ok() {
        return Ok(());
    }
    let why = match kind {
        TableKind::Sequence => {
            return Err(CliError::Usage(
                "--format matrix is a grid of a position game (`position (x, y)`); a heap game's table is text, csv or json".into(),
            ))
        }
        TableKind::Graph | TableKind::Hackenbush => "a graph file's table is one row per node",
        TableKind::Misere => "a misère table is one row per position",
        TableKind::Loopy => {
            "a loopy game's table is one row per position (outcome, remoteness, value)"
        }
        TableKind::Box | TableKind::Rule => "a value rule's table is one row per position",
    };
    Err(CliError::Usage(format!(
        "--format {} is a grid of normal values of a position game's box; {why}: ask for text, csv or json",
        format.name()
    )))
}

/// Misère play of a game that can cycle is not valued (only normal play's loopy theory is).
pub(super) fn refuse_misere_loopy(rule: &str) -> Result<(), CliError> {
    match rule {
        "misere" => Err(misere_loopy_refusal()),
        _ => Ok(()),
    }
}

/// The refusal of misère play of a graph or of a game whose moves can cycle.
pub(super) fn misere_loopy_refusal() -> CliError {
    super::usage_with_help(
        crate::solve::SolveError::MisereLoopy.to_string(),
        "drop --misere".into(),
    )
}
