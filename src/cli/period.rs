//! `period`: preperiod, period and saltus of a heap game, proved where a theorem allows.

use std::time::Instant;

use crate::analysis::{self, SearchTiming};
use crate::engine::EngineOptions;
use crate::export;

use super::args::{parse_max, Checkpointing, GameArgs};
use super::long_run::{note_if_long, Bound};
use super::{CliError, Context};

/// `period` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Compute at most G(0..=N) while looking for a proof.
    #[arg(long, default_value_t = 65536, value_name = "N", value_parser = parse_max)]
    max: u64,
    /// Print a JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    checkpointing: Checkpointing,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `period`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    args.checkpointing.check_paths(None)?;
    if game.position_program().is_some() {
        return Err(CliError::Usage(format!(
            "`period` analyses heap games; {} is a position game: try `sgscope patterns`",
            game.name
        )));
    }
    let options = EngineOptions { progress: true };
    // Timed from the table the search starts with (after loading a checkpoint).
    let mut started = (Instant::now(), 0);
    let console = &mut context.console;
    let (table, report) = args
        .checkpointing
        .run(&game, &context.args, |table, hook| {
            note_if_long(
                console,
                &game,
                table.len(),
                args.max,
                Bound::Max,
                hook.is_some(),
            );
            started = (Instant::now(), table.len());
            match hook {
                Some(hook) => {
                    analysis::find_period_with_hook(&game, args.max, &options, table, hook)
                }
                None => analysis::find_period_from(&game, args.max, &options, table),
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
