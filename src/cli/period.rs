//! `period`: preperiod, period and saltus of a heap game, proved where a theorem allows.

use std::time::Instant;

use crate::analysis::rare::RareStats;
use crate::analysis::{self, PeriodReport, Periodicity, SearchTiming};
use crate::engine::{EngineOptions, SgTable};
use crate::export;
use crate::rules::Game;

use super::args::{Checkpointing, GameArgs};
use super::long_run::{note_if_long, Bound};
use super::{CliError, Context};

/// `period` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Compute at most G(0..=N) while looking for a proof.
    #[arg(long, default_value_t = 65536, value_name = "N")]
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
            out.write_all(report_text(&game, &report, &table, &timing).as_bytes())
        }
    })?;
    Ok(())
}

/// The human form of a period report, with the values of the preperiod and of one period.
fn report_text(
    game: &Game,
    report: &PeriodReport,
    table: &SgTable,
    timing: &SearchTiming,
) -> String {
    let last = report.values_computed.saturating_sub(1);
    let mut s = String::new();
    s += &format!("game:       {}\n", game_title(game));
    s += &format!(
        "computed:   G(0..={last}), largest value {} (first at {} = {})\n",
        report.max_value, game.coordinate, report.max_value_at
    );
    if let Some(rare) = &report.rare {
        s += &format!("rare:       {}\n", rare_text(rare, last, &game.coordinate));
    }
    match periodicity(report) {
        Some(Periodicity {
            preperiod,
            period,
            saltus,
        }) => {
            s += &format!("preperiod:  {preperiod}\nperiod:     {period}\n");
            if saltus != 0 {
                s += &format!("saltus:     {saltus}   (G(n + {period}) = G(n) + {saltus})\n");
            }
            s += &format!("proved:     {}\n", if report.proved { "yes" } else { "no" });
            if preperiod > 0 {
                let label = format!("G(0..{preperiod}):");
                s += &format!("{label:<12}{}\n", value_list(table, 0, preperiod));
            }
            s += &format!(
                "one period: {}\n",
                value_list(table, preperiod, preperiod + period)
            );
        }
        None => s += "period:     none found\n",
    }
    s += &format!("reason:     {}\n", report.reason);
    s += &format!(
        "time:       {:.3} s, {} values/s\n",
        timing.seconds, timing.values_per_second
    );
    s
}

/// "mask 254: 1273 rare positions in 1..=1048575, the last at n = 96862, largest rare value 9".
fn rare_text(rare: &RareStats, last: usize, coordinate: &str) -> String {
    let parity = if rare.rare_parity_bit {
        " + heap parity"
    } else {
        ""
    };
    let mut s = format!(
        "mask {}{parity}: {} rare position{} in 1..={last}",
        rare.rare_mask,
        rare.rare_count,
        if rare.rare_count == 1 { "" } else { "s" }
    );
    if let (Some(at), Some(value)) = (rare.last_rare, rare.largest_rare_value) {
        s += &format!(", the last at {coordinate} = {at}, largest rare value {value}");
    }
    s
}

/// `G(from..to)` separated by spaces, elided in the middle past 60 values.
fn value_list(table: &SgTable, from: usize, to: usize) -> String {
    const SHOWN: usize = 60;
    let to = to.min(table.len());
    let show = |range: std::ops::Range<usize>| {
        range
            .map(|n| table.get(n).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if to - from <= SHOWN {
        show(from..to)
    } else {
        format!(
            "{} … ({} values) … {}",
            show(from..from + SHOWN / 2),
            to - from,
            show(to - 10..to)
        )
    }
}

pub(super) fn periodicity(report: &PeriodReport) -> Option<Periodicity> {
    Some(Periodicity {
        preperiod: report.preperiod?,
        period: report.period?,
        saltus: report.saltus.unwrap_or(0),
    })
}

/// "Dawson's Kayles (code 0.07)": the name, and the code when the engine uses one.
pub(super) fn game_title(game: &Game) -> String {
    match game.code() {
        Some(code) if game.name != code.to_string() && !game.name.ends_with(&code.to_string()) => {
            format!("{} (code {code})", game.name)
        }
        _ => game.name.clone(),
    }
}
