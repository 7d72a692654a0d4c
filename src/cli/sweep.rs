//! `sweep`: one game over ranges of its parameters — each instance's period and patterns, and
//! the formulas in the parameters that hold on every instance (`api::sweep`).

use std::path::PathBuf;

use crate::api::{self, ParamRange, RangeError, SweepError, SweepRequest};
use crate::export::{self, ChartFormat};

use super::args::{load_game_with_warnings, parse_max};
use super::{CliError, Context};

/// `sweep` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A rules file with `param` lines (e.g. rules/bash.sg), or the rules text itself.
    #[arg(index = 1)]
    game: String,
    /// The values of a parameter (repeatable): a range `k=1..=30` (`k=1..30` leaves 30 out),
    /// a list `a=2,3,5`, or one value `k=7`; a bound may use a parameter set before it
    /// (`R=L..=8`, `b=a+1..=12`).
    #[arg(long = "set", value_name = "NAME=VALUES", required = true)]
    sets: Vec<String>,
    /// Compute each instance at most to G(0..=N) while looking for a proof [default: as
    /// `period`: 65536, or 4·s + 1024 for an instance whose largest take or constant s is
    /// larger].
    #[arg(long, value_name = "N", value_parser = parse_max)]
    max: Option<u64>,
    /// A position game: read the P-position criteria on the box 0..=N of every coordinate
    /// [default: 30 for two coordinates, 7 for more].
    #[arg(long, value_name = "N", value_parser = parse_max)]
    to: Option<u64>,
    /// The output: a text report with the formulas (text), the instances as CSV or JSON
    /// lines, or the whole report with the formulas as one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the output to FILE (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: String,
    /// Also draw period and preperiod against the first parameter (a .png or .svg file).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Csv,
    Jsonl,
    Json,
}

/// Runs `sweep`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let ranges = ParamRange::parse_all(&args.sets).map_err(|e| range_error(e, "--set"))?;
    super::checkpointing::check_output(Some(&args.output))?;
    if let Some(plot) = &args.plot {
        ChartFormat::from_path(plot)?;
        super::checkpointing::check_path("--plot", plot)?;
    }
    let (game, warnings) = load_game_with_warnings(&args.game, &[])?;
    for warning in warnings {
        let text = warning.render_warning(&game.source);
        context.console.note(text.trim_end_matches('\n'));
    }
    if game.position_program().is_some() && args.plot.is_some() {
        return Err(CliError::Usage(format!(
            "--plot draws periods; {} is a position game, whose instances have P-position criteria, not periods",
            game.name
        )));
    }
    let request = SweepRequest {
        max: args.max,
        to: args.to,
        options: super::progress::options(),
    };
    note_if_long(context, &game, &ranges, args.max)?;
    let report = api::sweep(&game, &ranges, &request).map_err(|e| sweep_error(e, "--set"))?;
    if let Some(plot) = &args.plot {
        let bytes = export::sweep::chart(&report, ChartFormat::from_path(plot)?)?;
        crate::fs::write_atomically(plot, |w| w.write_all(&bytes))?;
    }
    context
        .console
        .write_to(&args.output, |out| match args.format {
            Format::Text => out.write_all(export::sweep::text(&report).as_bytes()),
            Format::Csv => export::sweep::write_csv(out, &report),
            Format::Jsonl => export::sweep::write_jsonl(out, &report),
            Format::Json => out.write_all(export::sweep::json(&report).as_bytes()),
        })?;
    Ok(())
}

/// Sweeps whose searches could take more than ten minutes in all get a note up front.
fn note_if_long(
    context: &mut Context<'_>,
    game: &crate::rules::Game,
    ranges: &[ParamRange],
    max: Option<u64>,
) -> Result<(), CliError> {
    let Some(seconds) =
        api::sweep_estimate(game, ranges, max).map_err(|e| sweep_error(e, "--set"))?
    else {
        return Ok(());
    };
    let cores = rayon::current_num_threads().max(1) as f64;
    if seconds / cores > 600.0 {
        context.console.note(&format!(
            "note: if every instance's period search ran to its limit, the sweep would take about {} on {cores} cores (most stop sooner, at a proof); ask for a smaller --max or fewer instances",
            crate::engine::progress::human_duration(seconds / cores)
        ));
    }
    Ok(())
}

/// A range refused, worded with the flag that gave it (`--set` of `sweep`, `--sweep` of `code`).
pub(super) fn range_error(error: RangeError, flag: &str) -> CliError {
    let help = match &error {
        RangeError::Unknown { name, .. } => format!("give {flag} {name}=… first"),
        RangeError::NotNameValues { .. } | RangeError::BadBound { .. } => {
            format!("write NAME=VALUES, e.g. {flag} k=1..=50, {flag} R=L..=8 or {flag} a=2,3,5")
        }
        RangeError::TooMany { .. } => "sweep fewer values, or split the sweep".to_string(),
        RangeError::Empty => format!("give each {flag} at least one value, e.g. k=1..=30"),
        RangeError::Twice { .. } | RangeError::Overflow { .. } => String::new(),
    };
    let message = format!("error: {error} (in {flag})");
    CliError::Usage(if help.is_empty() {
        message.trim_start_matches("error: ").to_string()
    } else {
        format!("{}\n  help: {help}", message.trim_start_matches("error: "))
    })
}

/// A sweep refused before work, worded with the flag that gave the ranges.
pub(super) fn sweep_error(error: SweepError, flag: &str) -> CliError {
    match error {
        SweepError::Range(error) => range_error(error, flag),
        SweepError::NotAParameter {
            name,
            game,
            declared,
        } => {
            let help = if declared.is_empty() {
                "the rules declare no parameter: add a line such as `param k = 3` and use k in the rules".to_string()
            } else {
                format!(
                    "its parameters are {}",
                    declared
                        .iter()
                        .map(|d| format!("`{d}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            CliError::Usage(format!(
                "`{name}` is not a parameter of {game} (in {flag})\n  help: {help}"
            ))
        }
        SweepError::NotAHeapGame { game } => CliError::Usage(format!(
            "{game} is a graph file: it has no parameters to sweep"
        )),
    }
}
