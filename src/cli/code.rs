//! `code`: a lookup function `sg(...)` in C++, Python, Rust or Java, from a proved or
//! observed period, a closed form observed on the table (`ctz(n)`, `popcount(n)`; of two
//! coordinates, `(ab − 1) mod 2`, `f(x) ⊕ g(y)`, the nim product, …), or from a table with a
//! guard beyond it; for a position game whose box has a P-position criterion, `is_p(...)` and
//! `first_player_wins(...)` instead (`--table` for the box's table). A table says its size on
//! stderr and is refused past [`export::PASTE_LIMIT`] unless `--allow-large`.

use crate::analysis;
use crate::analysis::criteria;
use crate::analysis::patterns;
use crate::engine::boxtable::BoxTable;
use crate::engine::{self, EngineOptions, Table};
use crate::export::{self, CodeSpec, Lang};
use crate::rules::{Game, Play};
use crate::solve;
use crate::value::misere;

use super::args::{parse_lang, parse_max, BoxArg, GameArgs, PlayArgs};
use super::{CliError, Context};

/// `code` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Target language: cpp, python, rust or java.
    #[arg(long, value_parser = parse_lang)]
    lang: Lang,
    /// Search for a period up to G(0..=N) [default: 65536, or 4·s + 1024 for a game whose
    /// largest take or constant s is larger; with --misere 2048].
    #[arg(long, value_name = "N", value_parser = parse_max)]
    max: Option<u64>,
    /// When no period is found, emit the table G(0..=N) with a guard beyond it (a
    /// position game: the box's table, e.g. --to 100 or --to x=100,y=50, or a closed form of
    /// two coordinates that holds on it) [default: 1000; a position game of three or more
    /// coordinates: the box 0..=2^j−1 that `solve` looks for criteria on, within a few
    /// seconds of its rules].
    #[arg(long, value_name = "N")]
    to: Option<BoxArg>,
    /// Extend the table by a period that is only observed (a stop rule's candidate, not
    /// proved by a theorem); without it such a snippet is the guarded table up to --to, whose
    /// header names the observed period.
    #[arg(long)]
    extrapolate: bool,
    /// A position game: write the box's table `sg(...)` even when a P-position criterion
    /// (`is_p(...)`) or a closed form of the values was found on the box.
    #[arg(long)]
    table: bool,
    /// Write a table larger than 256 KiB of source (refused by default: judges cap the size
    /// of a submission). A snippet that is a table says its size on stderr either way.
    #[arg(long)]
    allow_large: bool,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    game: GameArgs,
}

/// `--to`'s default: the last heap, and the last value of each coordinate of a box of one or
/// two coordinates.
const DEFAULT_TO: u64 = 1000;

/// The box of a position game: `--to`, else `0..=`[`DEFAULT_TO`] for one or two coordinates,
/// else the box `solve` looks for criteria on ([`solve::beyond::criteria_box`]: 1000 in each
/// of four coordinates would be 10^12 positions).
fn box_extents(game: &Game, args: &Args) -> Result<Vec<u64>, CliError> {
    let coordinates = game.coordinates();
    match (&args.to, game.position_program()) {
        (Some(to), _) => to.extents(&coordinates),
        (None, Some(program)) if coordinates.len() > 2 => {
            Ok(solve::beyond::criteria_box(program, coordinates.len()))
        }
        (None, _) => Ok(vec![DEFAULT_TO; coordinates.len()]),
    }
}

/// The last heap of a heap game's table: `--to`, else [`DEFAULT_TO`].
fn heap_to(game: &Game, args: &Args) -> Result<u64, CliError> {
    args.to
        .as_ref()
        .map_or(Ok(DEFAULT_TO), |to| to.heap_to(game))
}

/// Runs `code`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    super::refuse_graph(&game, "code")?;
    super::checkpointing::check_output(args.output.as_deref())?;
    let misere = args.play.resolve(&game, &mut context.console) == Play::Misere;
    let snippet = if misere {
        misere_code(&game, &args, context)?
    } else if game.position_program().is_some() {
        let table = super::grundy_values(&game, Play::Normal, &box_extents(&game, &args)?, false)?;
        let Table::Box(table) = table else {
            unreachable!("a position game's values are a box")
        };
        position_code(&game, table, &args, context)?
    } else {
        let max = args.max.unwrap_or_else(|| analysis::default_max(&game));
        let to = heap_to(&game, &args)?;
        sequence_code(&game, &args, max, to, context)?
    };
    let output = args.output.as_deref().unwrap_or("-");
    context
        .console
        .write_to(output, |out| out.write_all(snippet.as_bytes()))?;
    Ok(())
}

/// The snippet of a position game's box: a closed form of its values that holds on the box
/// (two coordinates), else a P-position criterion that holds on it (`is_p`), else the box's
/// table; `--table` asks for the table whatever was found. Whatever is extrapolated is said to
/// be observed, NOT proved, on stderr and in the snippet.
fn position_code(
    game: &Game,
    table: BoxTable,
    args: &Args,
    context: &mut Context<'_>,
) -> Result<String, CliError> {
    let bounds = table
        .coordinates()
        .iter()
        .zip(table.extents())
        .map(|(name, e)| format!("0 ≤ {name} ≤ {e}"))
        .collect::<Vec<_>>()
        .join(", ");
    // Two coordinates: a closed form checked on the whole box (or off its zero row and
    // column) is written instead of the table, said to be NOT proved, there and here.
    let fitted = patterns::find_box(&table).and_then(|r| Some((r.formula?, r.from)));
    let fitted = fitted.filter(|(f, _)| export::box_formula_supported(f) && !args.table);
    if let Some((formula, from)) = &fitted {
        context.console.note(&format!(
            "warning: the formula of {}, {formula}, is observed on the box {bounds}, not proved; the snippet extrapolates it",
            game.name,
        ));
        let spec = CodeSpec {
            game: &game.name,
            box_formula: Some(formula),
            formula_from: *from,
            ..CodeSpec::default()
        };
        return Ok(export::generate(args.lang, &Table::Box(table), &spec)?);
    }
    // A P-position criterion checked on every position of the box: `is_p` and
    // `first_player_wins` for any coordinates, said to be NOT proved.
    let criterion = criteria::find_criteria(&table)
        .into_iter()
        .find(|c| export::criterion_supported(c, table.dimension()));
    if let Some(criterion) = criterion.filter(|_| !args.table) {
        let names = table.coordinates().join(", ");
        context.console.note(&format!(
            "warning: the P-positions of {} follow a criterion observed on the box {bounds}, not proved beyond it: {}; the snippet is_p({names}) extrapolates it (--table writes the box's table instead)",
            game.name,
            criterion.describe(table.coordinates())
        ));
        return Ok(export::generate_criterion(
            args.lang, &table, &criterion, &game.name,
        )?);
    }
    let values = table.size();
    let spec = CodeSpec {
        game: &game.name,
        ..CodeSpec::default()
    };
    let snippet = export::generate(args.lang, &Table::Box(table), &spec)?;
    let what = format!("{values} values over the box {bounds}");
    table_snippet(context, snippet, &what, args.allow_large)
}

/// A snippet that is a table (`what` describes it): its size said up front, and refused past
/// [`export::PASTE_LIMIT`] unless `--allow-large`. Snippets that extrapolate a period, a
/// formula or a criterion are not tables and are written whatever their size.
fn table_snippet(
    context: &mut Context<'_>,
    snippet: String,
    what: &str,
    allow_large: bool,
) -> Result<String, CliError> {
    context.console.note(&format!(
        "note: the snippet is a table of {what}: {} of source",
        export::human_size(snippet.len())
    ));
    if snippet.len() <= export::PASTE_LIMIT || allow_large {
        return Ok(snippet);
    }
    Err(super::usage_with_help(
        format!(
            "the snippet is {} of source, more than the {} a contest judge accepts (Codeforces takes 64 KB)",
            export::human_size(snippet.len()),
            export::human_size(export::PASTE_LIMIT)
        ),
        "a smaller box or table (--to), or --allow-large to write it anyway".to_string(),
    ))
}

/// The snippet of a heap game: its period when one is proved up to `max` (or observed, with
/// `extrapolate`), else its table to `to`.
fn sequence_code(
    game: &Game,
    args: &Args,
    max: u64,
    to: u64,
    context: &mut Context<'_>,
) -> Result<String, CliError> {
    let (lang, extrapolate, allow_large) = (args.lang, args.extrapolate, args.allow_large);
    let options = EngineOptions {
        progress: super::progress::sink(),
    };
    let (mut table, report) = analysis::find_period(game, max, &options)?;
    let found = report.periodicity();
    if let Some(observed) = found.filter(|_| !report.proved && !extrapolate) {
        // A stop rule's candidate is no theorem: the guarded table, naming the candidate.
        let reason = format!(
            "a period p = {} from n0 = {} (saltus {}) is observed on G(0..={}), NOT proved ({}); the table stops at its end; `sgscope code --extrapolate` extends it by the observed period",
            observed.period,
            observed.preperiod,
            observed.saltus,
            report.values_computed.saturating_sub(1),
            export::period::explanation(&report)
        );
        context.console.note(&format!(
            "warning: the period of {} is observed, not proved: the snippet is the table G(0..={to}) and fails beyond it (--extrapolate extends it by the observed period)",
            game.name
        ));
        let spec = CodeSpec {
            game: &game.name,
            reason: &reason,
            ..CodeSpec::default()
        };
        let table = Table::sequence(&game.coordinate, engine::compute(game, to, &options)?);
        let snippet = export::generate(lang, &table, &spec)?;
        return table_snippet(context, snippet, &format!("G(0..={to})"), allow_large);
    }
    if found.is_none() {
        // No period, but perhaps a closed form that is not periodic (`ctz(n)`, `popcount(n)`):
        // fitted and checked on every value of the table searched (not a stop rule's
        // candidate), extrapolated and said to be NOT proved, in the snippet and here.
        let values: Vec<u32> = table.iter().collect();
        let fitted = patterns::find_sequence(&game.coordinate, &values).formula;
        if let Some(formula) = fitted.filter(export::formula_supported) {
            let reason = format!(
                "no period found in G(0..={}); `sgscope patterns` found this formula there",
                values.len() - 1
            );
            context.console.note(&format!(
                "warning: the formula of {}, {formula}, is observed on G(0..={}), not proved; the snippet extrapolates it",
                game.name,
                values.len() - 1
            ));
            let spec = CodeSpec {
                game: &game.name,
                reason: &reason,
                formula: Some(&formula),
                ..CodeSpec::default()
            };
            let table = Table::sequence(&game.coordinate, table);
            return Ok(export::generate(lang, &table, &spec)?);
        }
        // No period: the table up to --to, and the snippet refuses anything beyond it.
        table = engine::compute(game, to, &options)?;
    }
    // The snippet's header says "observed, NOT proved: …" itself.
    let reason = export::period::explanation(&report);
    if found.is_some() && !report.proved {
        context.console.note(&format!(
            "warning: the period of {} is observed, not proved ({reason}); the snippet extrapolates it",
            game.name
        ));
    }
    let spec = CodeSpec {
        game: &game.name,
        periodicity: found,
        proved: report.proved,
        reason: &reason,
        formula: None,
        ..CodeSpec::default()
    };
    let last = table.len().saturating_sub(1);
    let table = Table::sequence(&game.coordinate, table);
    let snippet = export::generate(lang, &table, &spec)?;
    if found.is_none() {
        return table_snippet(context, snippet, &format!("G(0..={last})"), allow_large);
    }
    Ok(snippet)
}

/// The snippet of the misère values `G⁻`: a heap game's observed period when one is found up
/// to `--max` (a misère period is never proved), else the table to `--to`; a position game's
/// box.
fn misere_code(game: &Game, args: &Args, context: &mut Context<'_>) -> Result<String, CliError> {
    let name = format!("{} (misère play: G⁻)", game.name);
    if game.position_program().is_some() {
        let table = super::grundy_values(game, Play::Misere, &box_extents(game, args)?, true)?;
        let spec = CodeSpec {
            game: &name,
            ..CodeSpec::default()
        };
        let snippet = export::generate(args.lang, &table, &spec)?;
        return table_snippet(context, snippet, "G⁻ over the box", args.allow_large);
    }
    let max = args.max.unwrap_or(super::period::DEFAULT_MISERE_MAX);
    let (mut table, _) = misere::table_until(game, &[max], super::progress::sink(), true)?;
    let observed = analysis::misere::summarize(&table).misere_period;
    let last = table.cells.len() - 1;
    // No theorem proves a misère period: it is extended only when asked (--extrapolate).
    let found = observed.filter(|_| args.extrapolate);
    let reason = match observed {
        Some(_) if args.extrapolate => format!(
            "the misère values repeat in G⁻(0..={last}), but no theorem proves a misère period"
        ),
        Some(p) => format!(
            "a misère period p = {} from n0 = {} is observed on G⁻(0..={last}), NOT proved (no theorem proves a misère period); the table stops at its end; `sgscope code --extrapolate` extends it by the observed period",
            p.period, p.preperiod
        ),
        None => format!("no period found in G⁻(0..={last})"),
    };
    if found.is_some() {
        context.console.note(&format!(
            "warning: the misère period of {} is observed, not proved ({reason}); the snippet extrapolates it",
            game.name
        ));
    } else {
        let to = heap_to(game, args)?;
        if observed.is_some() {
            context.console.note(&format!(
                "warning: the misère period of {} is observed, not proved: the snippet is the table G⁻(0..={to}) and fails beyond it (--extrapolate extends it by the observed period)",
                game.name
            ));
        }
        table = misere::table(game, &[to], super::progress::sink())?;
    }
    let spec = CodeSpec {
        game: &name,
        periodicity: found,
        proved: false,
        reason: &reason,
        formula: None,
        ..CodeSpec::default()
    };
    let last = table.cells.len().saturating_sub(1);
    let snippet = export::generate(args.lang, &table.misere_table(), &spec)?;
    if found.is_none() {
        let what = format!("G⁻(0..={last})");
        return table_snippet(context, snippet, &what, args.allow_large);
    }
    Ok(snippet)
}
