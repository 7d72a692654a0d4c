//! Lookup code for a game ([`code`]): what the snippet may claim is decided here, from what was
//! computed and proved.
//!
//! * A heap game: its period when the periodicity theorem proves it within `max` values; a
//!   period only observed (a stop rule's candidate) is extended only when asked
//!   (`extrapolate`), else the snippet is the table up to `to` and fails beyond it; with no
//!   period, a closed form checked on every value searched (`ctz(n)`, `popcount(n)`), said
//!   to be NOT proved; else the table.
//! * A position game: a closed form of two coordinates checked on the whole box, else a
//!   P-position criterion checked on every position of the box (`is_p`), else the box's
//!   table; both said to be NOT proved.
//! * Misère play: no theorem proves a misère period, so one is extended only when asked.
//!
//! Every claim beyond what was computed is said in the snippet's header and told to the caller
//! as a [`CodeNote`] as it is decided.

use thiserror::Error;

use crate::analysis::{self, criteria, patterns};
use crate::engine::boxtable::BoxTable;
use crate::engine::{self, EngineError, EngineOptions, Table};
use crate::export::{self, CodeSpec, ExportError, Lang};
use crate::rules::{Game, Play};
use crate::sweep;
use crate::value::misere;

use super::DEFAULT_MISERE_MAX;

/// The last heap of a heap game's table, and the last value of each coordinate of a box of
/// one or two coordinates, when none is asked for.
pub const DEFAULT_TO: u64 = 1000;

/// What lookup code to write.
pub struct CodeRequest<'a> {
    /// The language.
    pub lang: Lang,
    /// The play convention of the values.
    pub play: Play,
    /// Search for a period up to `G(0..=max)` ([`analysis::default_max`] when `None`; misère
    /// play [`DEFAULT_MISERE_MAX`]).
    pub max: Option<u64>,
    /// The table written when no period or pattern is: a heap game's last heap (one extent),
    /// or a position game's box. When `None`: [`DEFAULT_TO`], or for three coordinates or
    /// more the box `solve` looks for criteria on ([`crate::solve::beyond::criteria_box`]).
    pub to: Option<Vec<u64>>,
    /// Extend a table by a period that is only observed, not proved.
    pub extrapolate: bool,
    /// A position game: the box's table even when a criterion or a closed form was found.
    pub table: bool,
    /// Write a table larger than [`export::PASTE_LIMIT`].
    pub allow_large: bool,
    /// How the kernels run (progress).
    pub options: EngineOptions,
    /// Told each [`CodeNote`] as it is decided (before the work that follows it).
    pub notes: Option<&'a dyn Fn(&CodeNote)>,
}

impl CodeRequest<'_> {
    /// A request for `lang` in normal play, with the defaults.
    pub fn new(lang: Lang) -> Self {
        CodeRequest {
            lang,
            play: Play::Normal,
            max: None,
            to: None,
            extrapolate: false,
            table: false,
            allow_large: false,
            options: EngineOptions::default(),
            notes: None,
        }
    }

    fn note(&self, note: CodeNote, notes: &mut Vec<CodeNote>) {
        if let Some(listener) = self.notes {
            listener(&note);
        }
        notes.push(note);
    }
}

/// What a snippet claims beyond what was computed, or what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeNote {
    /// A period observed, not proved: the snippet is the table `G(0..=to)` instead.
    ObservedPeriodTabled {
        /// The game's name.
        game: String,
        /// The table's last heap.
        to: u64,
        /// Misère play's `G⁻`.
        misere: bool,
    },
    /// A period observed, not proved, extended by the snippet because it was asked to.
    ObservedPeriodExtended {
        /// The game's name.
        game: String,
        /// What the period was observed on, and why it is not proved.
        reason: String,
        /// Misère play's `G⁻`.
        misere: bool,
    },
    /// A closed form observed on the values computed, extended by the snippet.
    ObservedFormula {
        /// The game's name.
        game: String,
        /// The formula.
        formula: String,
        /// What it was checked on: `G(0..=N)`, or `the box 0 ≤ x ≤ N, …`.
        on: String,
    },
    /// A P-position criterion observed on a box, extended by the snippet's `is_p`.
    ObservedCriterion {
        /// The game's name.
        game: String,
        /// The box, `0 ≤ x ≤ N, …`.
        bounds: String,
        /// The criterion in words.
        criterion: String,
        /// The coordinates, `x, y`.
        names: String,
    },
    /// A formula of `G` in the parameters of a sweep, written for the instances it covers.
    SweepFormula {
        /// The game's name.
        game: String,
        /// The instances it covers.
        covered: usize,
        /// The instances swept.
        instances: usize,
        /// It holds for every `n` on each instance it covers (their periods proved).
        every_n: bool,
    },
    /// The snippet is a table of `what`, `bytes` of source.
    Table {
        /// What it holds: `G(0..=1000)`, `N values over the box …`.
        what: String,
        /// Its size in bytes.
        bytes: usize,
    },
}

/// How a caller names the knobs a [`CodeNote`] mentions: the command line's `--extrapolate`,
/// a Python keyword's `extrapolate=True`.
pub struct CodeKnobs<'a> {
    /// The knob that extends a table by an observed period.
    pub extrapolate: &'a str,
    /// The knob that writes a box's table instead of a criterion.
    pub table: &'a str,
}

impl CodeNote {
    /// The note in words, naming the knobs that change it as the caller spells them.
    pub fn describe(&self, knobs: &CodeKnobs<'_>) -> String {
        let CodeKnobs { extrapolate, table } = knobs;
        match self {
            CodeNote::ObservedPeriodTabled {
                game,
                to,
                misere: false,
            } => format!(
                "warning: the period of {game} is observed, not proved: the snippet is the table G(0..={to}) and fails beyond it ({extrapolate} extends it by the observed period)"
            ),
            CodeNote::ObservedPeriodTabled {
                game,
                to,
                misere: true,
            } => format!(
                "warning: the misère period of {game} is observed, not proved: the snippet is the table G⁻(0..={to}) and fails beyond it ({extrapolate} extends it by the observed period)"
            ),
            CodeNote::ObservedPeriodExtended {
                game,
                reason,
                misere,
            } => format!(
                "warning: the {}period of {game} is observed, not proved ({reason}); the snippet extrapolates it",
                if *misere { "misère " } else { "" }
            ),
            CodeNote::ObservedFormula { game, formula, on } => format!(
                "warning: the formula of {game}, {formula}, is observed on {on}, not proved; the snippet extrapolates it"
            ),
            CodeNote::ObservedCriterion {
                game,
                bounds,
                criterion,
                names,
            } => format!(
                "warning: the P-positions of {game} follow a criterion observed on the box {bounds}, not proved beyond it: {criterion}; the snippet is_p({names}) extrapolates it ({table} writes the box's table instead)"
            ),
            CodeNote::SweepFormula {
                game,
                covered,
                instances,
                every_n,
            } => format!(
                "warning: the formula of G for {game} is observed on {covered} of the {instances} swept instances, NOT proved for other parameter values (the snippet refuses them){}",
                if *every_n {
                    "; on those instances it is proved for every n"
                } else {
                    "; on some of them it is NOT proved past the values computed"
                }
            ),
            CodeNote::Table { what, bytes } => format!(
                "note: the snippet is a table of {what}: {} of source",
                crate::export::human_size(*bytes)
            ),
        }
    }
}

/// Why no snippet was written.
#[derive(Debug, Error)]
pub enum CodeError {
    /// The values could not be computed.
    #[error(transparent)]
    Api(#[from] super::ApiError),
    /// The snippet could not be written.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A table snippet larger than a contest judge accepts ([`export::PASTE_LIMIT`]), and
    /// `allow_large` not set.
    #[error(
        "the snippet is {bytes} bytes of source, more than the {limit} a contest judge accepts"
    )]
    TooLarge {
        /// Its size in bytes.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// `code --sweep`: the sweep was refused before work.
    #[error(transparent)]
    Sweep(#[from] sweep::SweepError),
    /// `code --sweep`: an instance's values could not be computed again for its table.
    #[error(transparent)]
    Instance(#[from] sweep::InstanceError),
    /// `code --sweep` of a position game: its sweep reads criteria on boxes, there is no
    /// `sg(n, k)` to write.
    #[error("{game} is a position game: a sweep of it has P-position criteria on boxes, not a lookup function of n")]
    PositionGame {
        /// The game.
        game: String,
    },
}

impl From<EngineError> for CodeError {
    fn from(error: EngineError) -> Self {
        CodeError::Api(error.into())
    }
}

/// Lookup code `sg(...)` (or `is_p(...)`) for `game` in the request's language.
pub fn code(game: &Game, request: &CodeRequest<'_>) -> Result<(String, Vec<CodeNote>), CodeError> {
    if game.graph().is_some() {
        return Err(super::ApiError::NotAHeapGame {
            game: game.name.clone(),
        }
        .into());
    }
    let mut notes = Vec::new();
    let snippet = match (request.play, game.position_program()) {
        (Play::Misere, _) => misere_code(game, request, &mut notes)?,
        (Play::Normal, Some(_)) => position_code(game, request, &mut notes)?,
        (Play::Normal, None) => sequence_code(game, request, &mut notes)?,
    };
    Ok((snippet, notes))
}

/// The box of a position game: `to`, else `0..=`[`DEFAULT_TO`] for one or two coordinates,
/// else the box `solve` looks for criteria on (1000 in each of four coordinates would be
/// 10^12 positions).
fn box_extents(game: &Game, request: &CodeRequest<'_>) -> Vec<u64> {
    let arity = game.coordinates().len();
    match (&request.to, game.position_program()) {
        (Some(to), _) => to.clone(),
        (None, Some(program)) if arity > 2 => crate::solve::beyond::criteria_box(program, arity),
        (None, _) => vec![DEFAULT_TO; arity],
    }
}

/// The last heap of a heap game's table.
fn heap_to(request: &CodeRequest<'_>) -> u64 {
    request
        .to
        .as_ref()
        .and_then(|to| to.first().copied())
        .unwrap_or(DEFAULT_TO)
}

/// The values over `extents` under `play`, with progress when `progress`.
fn values(
    game: &Game,
    play: Play,
    extents: &[u64],
    options: &EngineOptions,
) -> Result<Table, CodeError> {
    let request = super::Request {
        options: options.clone(),
        ..super::Request::new(extents)
    };
    Ok(super::grundy_values(game, play, &request)?)
}

/// A snippet that is a table (`what` describes it): its size told, and refused past
/// [`export::PASTE_LIMIT`] unless `allow_large`. Snippets that extrapolate a period, a
/// formula or a criterion are not tables and are written whatever their size.
fn table_snippet(
    request: &CodeRequest<'_>,
    notes: &mut Vec<CodeNote>,
    snippet: String,
    what: String,
) -> Result<String, CodeError> {
    let bytes = snippet.len();
    request.note(CodeNote::Table { what, bytes }, notes);
    if bytes <= export::PASTE_LIMIT || request.allow_large {
        return Ok(snippet);
    }
    Err(CodeError::TooLarge {
        bytes,
        limit: export::PASTE_LIMIT,
    })
}

/// A position game's box: a closed form of its values that holds on the box (two
/// coordinates), else a P-position criterion that holds on it, else the box's table.
fn position_code(
    game: &Game,
    request: &CodeRequest<'_>,
    notes: &mut Vec<CodeNote>,
) -> Result<String, CodeError> {
    let extents = box_extents(game, request);
    let Table::Box(table) = values(game, Play::Normal, &extents, &EngineOptions::default())? else {
        unreachable!("a position game's values are a box")
    };
    let bounds = bounds_of(&table);
    let lang = request.lang;
    // Two coordinates: a closed form checked on the whole box (or off its zero row and
    // column) is written instead of the table, said to be NOT proved.
    let fitted = patterns::find_box(&table).and_then(|r| Some((r.formula?, r.from)));
    let fitted = fitted.filter(|(f, _)| export::box_formula_supported(f) && !request.table);
    if let Some((formula, from)) = &fitted {
        request.note(
            CodeNote::ObservedFormula {
                game: game.name.clone(),
                formula: formula.to_string(),
                on: format!("the box {bounds}"),
            },
            notes,
        );
        let spec = CodeSpec {
            game: &game.name,
            box_formula: Some(formula),
            formula_from: *from,
            ..CodeSpec::default()
        };
        return Ok(export::generate(lang, &Table::Box(table), &spec)?);
    }
    // A P-position criterion checked on every position of the box: `is_p` and
    // `first_player_wins` for any coordinates, said to be NOT proved.
    let criterion = criteria::find_criteria(&table)
        .into_iter()
        .find(|c| export::criterion_supported(c, table.dimension()));
    if let Some(criterion) = criterion.filter(|_| !request.table) {
        request.note(
            CodeNote::ObservedCriterion {
                game: game.name.clone(),
                bounds,
                criterion: criterion.describe(table.coordinates()),
                names: table.coordinates().join(", "),
            },
            notes,
        );
        return Ok(export::generate_criterion(
            lang, &table, &criterion, &game.name,
        )?);
    }
    let values = table.size();
    let spec = CodeSpec {
        game: &game.name,
        ..CodeSpec::default()
    };
    let snippet = export::generate(lang, &Table::Box(table), &spec)?;
    let what = format!("{values} values over the box {bounds}");
    table_snippet(request, notes, snippet, what)
}

/// `0 ≤ x ≤ 10, 0 ≤ y ≤ 10`.
fn bounds_of(table: &BoxTable) -> String {
    table
        .coordinates()
        .iter()
        .zip(table.extents())
        .map(|(name, e)| format!("0 ≤ {name} ≤ {e}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A heap game: its period when one is proved up to `max` (or observed, with `extrapolate`),
/// else a closed form observed on every value searched, else its table to `to`.
fn sequence_code(
    game: &Game,
    request: &CodeRequest<'_>,
    notes: &mut Vec<CodeNote>,
) -> Result<String, CodeError> {
    let max = request.max.unwrap_or_else(|| analysis::default_max(game));
    let to = heap_to(request);
    let (lang, options) = (request.lang, &request.options);
    let (mut table, report) = analysis::find_period(game, max, options)?;
    let found = report.periodicity();
    if let Some(observed) = found.filter(|_| !report.proved && !request.extrapolate) {
        // A stop rule's candidate is no theorem: the guarded table, naming the candidate.
        let reason = format!(
            "a period p = {} from n0 = {} (saltus {}) is observed on G(0..={}), NOT proved ({}); the table stops at its end; `sgscope code --extrapolate` extends it by the observed period",
            observed.period,
            observed.preperiod,
            observed.saltus,
            report.values_computed.saturating_sub(1),
            export::period::explanation(&report)
        );
        request.note(
            CodeNote::ObservedPeriodTabled {
                game: game.name.clone(),
                to,
                misere: false,
            },
            notes,
        );
        let spec = CodeSpec {
            game: &game.name,
            reason: &reason,
            ..CodeSpec::default()
        };
        let table = Table::sequence(&game.coordinate, engine::compute(game, to, options)?);
        let snippet = export::generate(lang, &table, &spec)?;
        return table_snippet(request, notes, snippet, format!("G(0..={to})"));
    }
    if found.is_none() {
        // No period, but perhaps a closed form that is not periodic (`ctz(n)`, `popcount(n)`):
        // fitted and checked on every value of the table searched (not a stop rule's
        // candidate), extrapolated and said to be NOT proved.
        let values: Vec<u32> = table.iter().collect();
        let fitted = patterns::find_sequence(&game.coordinate, &values).formula;
        if let Some(formula) = fitted.filter(export::formula_supported) {
            let last = values.len() - 1;
            let reason = format!(
                "no period found in G(0..={last}); `sgscope patterns` found this formula there"
            );
            request.note(
                CodeNote::ObservedFormula {
                    game: game.name.clone(),
                    formula: formula.to_string(),
                    on: format!("G(0..={last})"),
                },
                notes,
            );
            let spec = CodeSpec {
                game: &game.name,
                reason: &reason,
                formula: Some(&formula),
                ..CodeSpec::default()
            };
            let table = Table::sequence(&game.coordinate, table);
            return Ok(export::generate(lang, &table, &spec)?);
        }
        // No period: the table up to `to`, and the snippet refuses anything beyond it.
        table = engine::compute(game, to, options)?;
    }
    // The snippet's header says "observed, NOT proved: …" itself.
    let reason = export::period::explanation(&report);
    if found.is_some() && !report.proved {
        request.note(
            CodeNote::ObservedPeriodExtended {
                game: game.name.clone(),
                reason: reason.clone(),
                misere: false,
            },
            notes,
        );
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
        return table_snippet(request, notes, snippet, format!("G(0..={last})"));
    }
    Ok(snippet)
}

/// The misère values `G⁻`: a heap game's observed period when one is found up to `max` and
/// `extrapolate` is set (a misère period is never proved), else the table to `to`; a position
/// game's box.
fn misere_code(
    game: &Game,
    request: &CodeRequest<'_>,
    notes: &mut Vec<CodeNote>,
) -> Result<String, CodeError> {
    let name = format!("{} (misère play: G⁻)", game.name);
    let lang = request.lang;
    if game.position_program().is_some() {
        let extents = box_extents(game, request);
        let table = values(game, Play::Misere, &extents, &request.options)?;
        let spec = CodeSpec {
            game: &name,
            ..CodeSpec::default()
        };
        let snippet = export::generate(lang, &table, &spec)?;
        return table_snippet(request, notes, snippet, "G⁻ over the box".into());
    }
    let max = request.max.unwrap_or(DEFAULT_MISERE_MAX);
    let progress = request.options.progress.clone();
    let (mut table, _) = misere::table_until(game, &[max], progress.clone(), true)?;
    let observed = analysis::misere::summarize(&table).misere_period;
    let last = table.cells.len() - 1;
    // No theorem proves a misère period: it is extended only when asked.
    let found = observed.filter(|_| request.extrapolate);
    let reason = match observed {
        Some(_) if request.extrapolate => format!(
            "the misère values repeat in G⁻(0..={last}), but no theorem proves a misère period"
        ),
        Some(p) => format!(
            "a misère period p = {} from n0 = {} is observed on G⁻(0..={last}), NOT proved (no theorem proves a misère period); the table stops at its end; `sgscope code --extrapolate` extends it by the observed period",
            p.period, p.preperiod
        ),
        None => format!("no period found in G⁻(0..={last})"),
    };
    if found.is_some() {
        request.note(
            CodeNote::ObservedPeriodExtended {
                game: game.name.clone(),
                reason: reason.clone(),
                misere: true,
            },
            notes,
        );
    } else {
        let to = heap_to(request);
        if observed.is_some() {
            request.note(
                CodeNote::ObservedPeriodTabled {
                    game: game.name.clone(),
                    to,
                    misere: true,
                },
                notes,
            );
        }
        table = misere::table(game, &[to], progress)?;
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
    let snippet = export::generate(lang, &table.misere_table(), &spec)?;
    if found.is_none() {
        return table_snippet(request, notes, snippet, format!("G⁻(0..={last})"));
    }
    Ok(snippet)
}

/// What lookup code of a sweep to write ([`code_sweep`]).
pub struct SweepCodeRequest {
    /// The language.
    pub lang: Lang,
    /// Each instance's period search goes up to `G(0..=max)` ([`analysis::default_max`] of the
    /// instance when `None`).
    pub max: Option<u64>,
    /// Write a snippet larger than [`export::PASTE_LIMIT`].
    pub allow_large: bool,
    /// How the instances run (progress).
    pub options: EngineOptions,
}

/// Lookup code `sg(n, k, …)` for `game` over the swept `ranges` of its parameters: the sweep
/// ([`super::sweep()`]), then the fitted formula of `G` where it covers an instance and each
/// other instance's table (its proved period, else the values computed, computed again here),
/// the parameters outside the sweep refused ([`export::generate_sweep`]). Returns the snippet
/// and the sweep's report; `notes` is told what the snippet is as it is decided.
pub fn code_sweep(
    game: &Game,
    ranges: &[sweep::ParamRange],
    request: &SweepCodeRequest,
    notes: Option<&dyn Fn(&CodeNote)>,
) -> Result<(String, sweep::SweepReport), CodeError> {
    if game.position_program().is_some() {
        return Err(CodeError::PositionGame {
            game: game.name.clone(),
        });
    }
    let sweep_request = sweep::SweepRequest {
        max: request.max,
        to: None,
        options: request.options.clone(),
    };
    let report = super::sweep(game, ranges, &sweep_request)?;
    let mut computed = Vec::new();
    for i in export::tables_needed(&report) {
        let instance = &report.instances[i];
        let Ok(summary) = &instance.result else {
            continue;
        };
        let loaded = sweep::load_instance(game, &report.names, &instance.params)?;
        let last = summary.report.values_computed.saturating_sub(1) as u64;
        let table =
            engine::compute(&loaded, last, &request.options).map_err(sweep::InstanceError::from)?;
        computed.push((i, table.to_vec()));
    }
    let code = export::SweepCode {
        report: &report,
        ranges,
        computed: &computed,
    };
    let snippet = export::generate_sweep(request.lang, &code)?;
    let tell = |note: CodeNote| {
        if let Some(listener) = notes {
            listener(&note);
        }
    };
    let instances = report.instances.len();
    let covered = export::covered_by_formula(&report).len();
    if covered > 0 {
        tell(CodeNote::SweepFormula {
            game: game.name.clone(),
            covered,
            instances,
            every_n: report.formula(sweep::Quantity::G).every_n,
        });
    }
    let bytes = snippet.len();
    if covered < instances {
        tell(CodeNote::Table {
            what: format!("{} of the {instances} swept instances", instances - covered),
            bytes,
        });
    }
    if bytes > export::PASTE_LIMIT && !request.allow_large {
        return Err(CodeError::TooLarge {
            bytes,
            limit: export::PASTE_LIMIT,
        });
    }
    Ok((snippet, report))
}
