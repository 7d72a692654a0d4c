//! `period`: preperiod, period and saltus of a heap game, proved where a theorem allows.

use std::time::Instant;

use crate::analysis::{self, SearchTiming};
use crate::engine::EngineOptions;
use crate::export;
use crate::rules::{Game, Play};
use crate::value::misere;

use super::args::{parse_max, Checkpointing, GameArgs, PlayArgs};
use super::long_run::{note_if_long, Bound};
use super::{CliError, Context};

/// `period` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Compute at most G(0..=N) while looking for a proof [default: 65536, or 4·s + 1024 for
    /// a game whose largest take or constant s is larger; with --misere 2048, where every
    /// heap's sums are searched].
    #[arg(long, value_name = "N", value_parser = parse_max)]
    max: Option<u64>,
    /// Print a JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    checkpointing: Checkpointing,
    #[command(flatten)]
    game: GameArgs,
}

/// The default --max in misère play.
pub(super) const DEFAULT_MISERE_MAX: u64 = 2048;

/// Runs `period`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    super::refuse_graph(&game, "period")?;
    args.checkpointing.check_paths(None)?;
    if game.position_program().is_some() {
        return Err(CliError::Usage(format!(
            "`period` analyses heap games; {} is a position game: try `sgscope patterns`",
            game.name
        )));
    }
    if args.play.resolve(&game, &mut context.console) == Play::Misere {
        if args.checkpointing.checkpoint.is_some() || args.checkpointing.resume.is_some() {
            return Err(CliError::Usage(
                "--checkpoint is for normal-play searches; drop it with --misere".into(),
            ));
        }
        return run_misere(
            &game,
            args.max.unwrap_or(DEFAULT_MISERE_MAX),
            args.json,
            context,
        );
    }
    let max = args.max.unwrap_or_else(|| analysis::default_max(&game));
    let options = EngineOptions {
        progress: super::progress::sink(),
    };
    // Timed from the table the search starts with (after loading a checkpoint).
    let mut started = (Instant::now(), 0);
    let console = &mut context.console;
    let (table, report) = args
        .checkpointing
        .run(&game, &context.args, |table, hook| {
            note_if_long(console, &game, table.len(), max, Bound::Max, hook.is_some());
            started = (Instant::now(), table.len());
            match hook {
                Some(hook) => analysis::find_period_with_hook(&game, max, &options, table, hook),
                None => analysis::find_period_from(&game, max, &options, table),
            }
        })?;
    let (start, resumed) = started;
    let timing = SearchTiming::new(
        report.values_computed.saturating_sub(resumed),
        start.elapsed(),
    );
    context.console.write_to("-", |out| {
        if args.json {
            export::write_report_json(out, &report, Some(&timing))
        } else {
            let text = export::period::report_text(&game, &report, &table, &timing);
            out.write_all(text.as_bytes())
        }
    })?;
    Ok(())
}

/// `period --misere`: the misère table up to `max` (or as far as the search over sums goes),
/// and the periods of its values and genera.
fn run_misere(
    game: &Game,
    max: u64,
    json: bool,
    context: &mut Context<'_>,
) -> Result<(), CliError> {
    let (table, stopped) = misere::table_until(game, &[max], super::progress::sink(), true)?;
    let summary = analysis::misere::summarize(&table);
    let stopped = stopped.map(|error| (table.cells.len() as u64, error.to_string()));
    let text = if json {
        export::misere::period_json(&game.name, &summary, &stopped)
    } else {
        export::misere::period_text(&game_title(game), &game.coordinate, &summary, &stopped)
    };
    context.console.print(&text)?;
    Ok(())
}

/// The title `check` prints too (see [`export::period::game_title`]).
pub(super) use crate::export::period::game_title;
