//! `game.code(lang)`: the lookup function of `sgscope code`, by the same steps as the command
//! line's `code` (`src/cli/code.rs`), its stderr notes collected for the Python half (which
//! warns with those that say something is observed, not proved). The one place the binding
//! generates code, to move to the facade's `api::code` when it lands.

use sgscope::analysis::{self, criteria, patterns};
use sgscope::engine::{self, BoxTable, EngineOptions, Table};
use sgscope::export::{self, CodeSpec, Lang};
use sgscope::rules::{Game, Play};
use sgscope::solve;
use sgscope::value::misere;

use super::{Failure, MISERE_MAX};

/// `--to`'s default: the last heap, and the last value of each coordinate of a box of one or
/// two coordinates.
const DEFAULT_TO: u64 = 1000;

/// What `code` is asked: the command line's flags.
pub(crate) struct Args {
    pub lang: Lang,
    pub max: Option<u64>,
    /// The bounds given (`to=`), one per coordinate.
    pub to: Option<Vec<u64>>,
    pub extrapolate: bool,
    pub table: bool,
    pub allow_large: bool,
    pub misere: bool,
}

/// The snippet, and the notes the command line prints on stderr.
pub(crate) fn snippet(
    game: &Game,
    args: &Args,
    options: EngineOptions,
) -> Result<(String, Vec<String>), Failure> {
    let mut notes = Vec::new();
    let snippet = if args.misere {
        misere_code(game, args, &options, &mut notes)?
    } else if game.position_program().is_some() {
        let table = grundy_values(game, Play::Normal, &box_extents(game, args), &options)?;
        let Table::Box(table) = table else {
            unreachable!("a position game's values are a box")
        };
        position_code(game, table, args, &mut notes)?
    } else {
        let max = args.max.unwrap_or_else(|| analysis::default_max(game));
        sequence_code(game, args, max, heap_to(args), &options, &mut notes)?
    };
    Ok((snippet, notes))
}

fn grundy_values(
    game: &Game,
    play: Play,
    extents: &[u64],
    options: &EngineOptions,
) -> Result<Table, Failure> {
    let request = sgscope::api::Request {
        options: options.clone(),
        loopy_fallback: false,
        ..sgscope::api::Request::new(extents)
    };
    let valued = sgscope::api::value(
        &sgscope::api::Registry::standard(),
        game,
        play.word(),
        &request,
    )?;
    Ok(valued
        .grundy_values()
        .expect("normal and misère play of a game that ends have values"))
}

fn box_extents(game: &Game, args: &Args) -> Vec<u64> {
    let coordinates = game.coordinates();
    match (&args.to, game.position_program()) {
        (Some(to), _) => to.clone(),
        (None, Some(program)) if coordinates.len() > 2 => {
            solve::beyond::criteria_box(program, coordinates.len())
        }
        (None, _) => vec![DEFAULT_TO; coordinates.len()],
    }
}

fn heap_to(args: &Args) -> u64 {
    args.to
        .as_ref()
        .and_then(|to| to.first().copied())
        .unwrap_or(DEFAULT_TO)
}

fn position_code(
    game: &Game,
    table: BoxTable,
    args: &Args,
    notes: &mut Vec<String>,
) -> Result<String, Failure> {
    let bounds = table
        .coordinates()
        .iter()
        .zip(table.extents())
        .map(|(name, e)| format!("0 ≤ {name} ≤ {e}"))
        .collect::<Vec<_>>()
        .join(", ");
    let fitted = patterns::find_box(&table).and_then(|r| Some((r.formula?, r.from)));
    let fitted = fitted.filter(|(f, _)| export::box_formula_supported(f) && !args.table);
    if let Some((formula, from)) = &fitted {
        notes.push(format!(
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
    let criterion = criteria::find_criteria(&table)
        .into_iter()
        .find(|c| export::criterion_supported(c, table.dimension()));
    if let Some(criterion) = criterion.filter(|_| !args.table) {
        let names = table.coordinates().join(", ");
        notes.push(format!(
            "warning: the P-positions of {} follow a criterion observed on the box {bounds}, not proved beyond it: {}; the snippet is_p({names}) extrapolates it (table=True writes the box's table instead)",
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
    table_snippet(notes, snippet, &what, args.allow_large)
}

fn table_snippet(
    notes: &mut Vec<String>,
    snippet: String,
    what: &str,
    allow_large: bool,
) -> Result<String, Failure> {
    notes.push(format!(
        "note: the snippet is a table of {what}: {} of source",
        export::human_size(snippet.len())
    ));
    if snippet.len() <= export::PASTE_LIMIT || allow_large {
        return Ok(snippet);
    }
    Err(Failure::Usage(super::with_help(
        format!(
            "the snippet is {} of source, more than the {} a contest judge accepts (Codeforces takes 64 KB)",
            export::human_size(snippet.len()),
            export::human_size(export::PASTE_LIMIT)
        ),
        Some("a smaller box or table (`to=`), or `allow_large=True` to write it anyway".into()),
    )))
}

fn sequence_code(
    game: &Game,
    args: &Args,
    max: u64,
    to: u64,
    options: &EngineOptions,
    notes: &mut Vec<String>,
) -> Result<String, Failure> {
    let (lang, extrapolate, allow_large) = (args.lang, args.extrapolate, args.allow_large);
    let (mut table, report) = analysis::find_period(game, max, options)?;
    let found = report.periodicity();
    if let Some(observed) = found.filter(|_| !report.proved && !extrapolate) {
        let reason = format!(
            "a period p = {} from n0 = {} (saltus {}) is observed on G(0..={}), NOT proved ({}); the table stops at its end; `sgscope code --extrapolate` extends it by the observed period",
            observed.period,
            observed.preperiod,
            observed.saltus,
            report.values_computed.saturating_sub(1),
            export::period::explanation(&report)
        );
        notes.push(format!(
            "warning: the period of {} is observed, not proved: the snippet is the table G(0..={to}) and fails beyond it (extrapolate=True extends it by the observed period)",
            game.name
        ));
        let spec = CodeSpec {
            game: &game.name,
            reason: &reason,
            ..CodeSpec::default()
        };
        let table = Table::sequence(&game.coordinate, engine::compute(game, to, options)?);
        let snippet = export::generate(lang, &table, &spec)?;
        return table_snippet(notes, snippet, &format!("G(0..={to})"), allow_large);
    }
    if found.is_none() {
        let values: Vec<u32> = table.iter().collect();
        let fitted = patterns::find_sequence(&game.coordinate, &values).formula;
        if let Some(formula) = fitted.filter(export::formula_supported) {
            let reason = format!(
                "no period found in G(0..={}); `sgscope patterns` found this formula there",
                values.len() - 1
            );
            notes.push(format!(
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
        table = engine::compute(game, to, options)?;
    }
    let reason = export::period::explanation(&report);
    if found.is_some() && !report.proved {
        notes.push(format!(
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
        return table_snippet(notes, snippet, &format!("G(0..={last})"), allow_large);
    }
    Ok(snippet)
}

fn misere_code(
    game: &Game,
    args: &Args,
    options: &EngineOptions,
    notes: &mut Vec<String>,
) -> Result<String, Failure> {
    let name = format!("{} (misère play: G⁻)", game.name);
    if game.position_program().is_some() {
        let table = grundy_values(game, Play::Misere, &box_extents(game, args), options)?;
        let spec = CodeSpec {
            game: &name,
            ..CodeSpec::default()
        };
        let snippet = export::generate(args.lang, &table, &spec)?;
        return table_snippet(notes, snippet, "G⁻ over the box", args.allow_large);
    }
    let max = args.max.unwrap_or(MISERE_MAX);
    let (mut table, _) = misere::table_until(game, &[max], options.progress.clone(), true)?;
    let observed = analysis::misere::summarize(&table).misere_period;
    let last = table.cells.len() - 1;
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
        notes.push(format!(
            "warning: the misère period of {} is observed, not proved ({reason}); the snippet extrapolates it",
            game.name
        ));
    } else {
        let to = heap_to(args);
        if observed.is_some() {
            notes.push(format!(
                "warning: the misère period of {} is observed, not proved: the snippet is the table G⁻(0..={to}) and fails beyond it (extrapolate=True extends it by the observed period)",
                game.name
            ));
        }
        table = misere::table(game, &[to], options.progress.clone())?;
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
        return table_snippet(notes, snippet, &what, args.allow_large);
    }
    Ok(snippet)
}
