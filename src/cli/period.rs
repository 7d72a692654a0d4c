//! `period`: preperiod, period and saltus of a heap game, proved where a theorem allows.

use std::time::Instant;

use crate::analysis::{self, SearchTiming};
use crate::api::{self, ApiError, PeriodRequest, Periodic};
use crate::export;
use crate::rules::Play;

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
    let play = args.play.resolve(&game, &mut context.console);
    let options = super::progress::options();
    if play == Play::Misere {
        if args.checkpointing.checkpoint.is_some() || args.checkpointing.resume.is_some() {
            return Err(CliError::Usage(
                "--checkpoint is for normal-play searches; drop it with --misere".into(),
            ));
        }
        let request = PeriodRequest {
            max: args.max,
            options,
            ..PeriodRequest::new(play)
        };
        let Periodic::Misere {
            table,
            summary,
            stopped,
        } = api::period(&game, request)?
        else {
            unreachable!("misère play's search is a misère table")
        };
        let stopped = stopped.map(|error| (table.cells.len() as u64, error.to_string()));
        let text = if args.json {
            export::misere::period_json(&game.name, &summary, &stopped)
        } else {
            export::misere::period_text(&game_title(&game), &game.coordinate, &summary, &stopped)
        };
        context.console.print(&text)?;
        return Ok(());
    }
    let max = args.max.unwrap_or_else(|| analysis::default_max(&game));
    // Timed from the table the search starts with (after loading a checkpoint).
    let mut started = (Instant::now(), 0);
    let console = &mut context.console;
    let (table, report) = args
        .checkpointing
        .run(&game, &context.args, |start, hook| {
            note_if_long(console, &game, start.len(), max, Bound::Max, hook.is_some());
            started = (Instant::now(), start.len());
            let request = PeriodRequest {
                max: Some(max),
                options,
                start,
                between_chunks: hook,
                play,
            };
            match api::period(&game, request) {
                Ok(Periodic::Normal { table, report }) => Ok((table, report)),
                Ok(Periodic::Misere { .. }) => unreachable!("normal play's search"),
                Err(ApiError::Engine(error)) => Err(error),
                Err(refusal) => unreachable!("a heap game, checked above: {refusal}"),
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

/// The title `check` prints too (see [`export::period::game_title`]).
pub(super) use crate::export::period::game_title;
