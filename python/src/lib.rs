//! `sgscope._sgscope`, the native half of the Python package `sgscope`: a thin layer over the
//! library's facade [`sgscope::api`] (a game loaded from text or a file, valued under a rule by
//! name, one typed [`Valued`]) and over the reports the command line prints with `--json`
//! (periods, solved sums), which cross the boundary as the same JSON text. The Python half
//! (`python/sgscope/__init__.py`) turns them into numpy arrays and report objects.
//!
//! Every long call runs on a worker thread with the GIL released ([`run`]): the calling thread
//! waits for it, wakes ten times a second to let Python handle signals (Ctrl-C) and to hand the
//! latest progress update to the caller's callback, and on an exception (`KeyboardInterrupt`,
//! or one raised by the callback) stops the worker at its next progress update
//! ([`Sink::update`]) before raising it: nothing keeps running behind Python's back.
//!
//! The library calls the binding makes besides the facade are each in ONE function below
//! ([`period_json`], [`solve_json`]) so that they move to the facade's functions in one place.

use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use sgscope::analysis::SearchTiming;
use sgscope::api::{
    self, ApiError, CodeError, CodeNote, CodeRequest, Notice, PeriodRequest, Periodic, Position,
    Registry, Request, SolveRequest, Solved, Valued,
};
use sgscope::census as families;
use sgscope::engine::progress::{Counted, Estimate, Event, Progress, Update};
use sgscope::engine::{EngineError, EngineOptions, Hint, ProgressSink};
use sgscope::export::{self, Format, TableView};
use sgscope::rules::{Game, PathError, Play, RulesError};
use sgscope::solve::SolveError;

/// A loaded game (Python's `sgscope.Game` holds one).
#[pyclass(frozen, module = "sgscope._sgscope")]
struct NativeGame {
    game: Game,
}

#[pymethods]
impl NativeGame {
    /// The game's name (its `name` line, or the family form such as `octal 0.07`).
    #[getter]
    fn name(&self) -> String {
        self.game.name.clone()
    }

    /// The names of a position's coordinates (`["n"]` for a heap game).
    #[getter]
    fn coordinates(&self) -> Vec<String> {
        self.game.coordinates()
    }

    /// `heap`, `position`, `graph` or `hackenbush`.
    #[getter]
    fn kind(&self) -> &'static str {
        match (self.game.graph(), self.game.position_program()) {
            (Some(graph), _) if graph.hackenbush.is_some() => "hackenbush",
            (Some(_), _) => "graph",
            (None, Some(_)) => "position",
            (None, None) => "heap",
        }
    }

    /// The play convention of the file's `play` line (`normal` or `misere`), if it has one.
    #[getter]
    fn play(&self) -> Option<&'static str> {
        self.game.play.map(|(play, _)| play.word())
    }

    /// The take-and-break code the game is (or was lowered to), as `0.07`-style text.
    #[getter]
    fn takebreak_code(&self) -> Option<String> {
        self.game.code().map(|code| code.to_string())
    }

    /// The parameter values, after the ones set when loading.
    #[getter]
    fn params(&self) -> Vec<(String, i64)> {
        self.game.params.clone()
    }

    /// The name the rules text goes by in messages (its path, or `<string>`).
    #[getter]
    fn source_name(&self) -> String {
        self.game.source.name.clone()
    }

    /// The rules text the game was read from.
    #[getter]
    fn source_text(&self) -> String {
        self.game.source.text.to_string()
    }

    /// The kind of table the rule called `rule` returns, before any work.
    fn table_kind(&self, rule: &str) -> PyResult<String> {
        let registry = Registry::standard();
        let rule = api::rule(&registry, rule).map_err(api_error)?;
        Ok(format!("{:?}", rule.kind(&self.game)).to_lowercase())
    }

    /// The values under the rule called `rule` over the box `0..=extents[i]`. Normal values
    /// come as `("normal", shape, bytes)`, the bytes little-endian `u32`s in row-major order;
    /// every other table as `(kind, csv)`, the CSV the command line's `table --format csv`
    /// writes. Notices (a game valued as a loopy game) go to `notices`, a list.
    #[pyo3(signature = (rule, extents, progress=None, notices=None))]
    fn value<'py>(
        &self,
        py: Python<'py>,
        rule: &str,
        extents: Vec<u64>,
        progress: Option<Bound<'py, PyAny>>,
        notices: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let registry = Registry::standard();
        api::rule(&registry, rule).map_err(api_error)?;
        let game = &self.game;
        let (valued, told) = run(py, progress.as_ref(), |options| {
            let told = Mutex::new(Vec::new());
            let listener = |notice: &Notice| told.lock().unwrap().push(notice_text(game, notice));
            let request = Request {
                options,
                notices: Some(&listener),
                ..Request::new(&extents)
            };
            let valued = api::value(&registry, game, rule, &request);
            (valued, told.into_inner().unwrap())
        })?;
        if let Some(notices) = notices {
            for text in told {
                notices.call_method1("append", (text,))?;
            }
        }
        let valued = valued.map_err(api_error)?;
        match &valued {
            Valued::Normal(table) => {
                let shape: Vec<u64> = table.extents().iter().map(|e| e + 1).collect();
                let mut bytes = Vec::with_capacity(table.size() * 4);
                for value in table.iter() {
                    bytes.extend_from_slice(&value.to_le_bytes());
                }
                ("normal", shape, PyBytes::new(py, &bytes))
                    .into_pyobject(py)
                    .map(|t| t.into_any())
            }
            other => {
                let mut csv = Vec::new();
                Format::Csv
                    .exporter()
                    .write(&mut csv, other, &TableView::new(&game.name))
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
                let kind = format!("{:?}", other.kind()).to_lowercase();
                (kind, String::from_utf8_lossy(&csv).into_owned())
                    .into_pyobject(py)
                    .map(|t| t.into_any())
            }
        }
    }

    /// The period report of `period --json` (normal play) or `period --misere --json`.
    #[pyo3(signature = (max=None, misere=false, progress=None))]
    fn period(
        &self,
        py: Python<'_>,
        max: Option<u64>,
        misere: bool,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        if self.game.graph().is_some() || self.game.position_program().is_some() {
            return Err(sgscope_error(
                py,
                "UnsupportedError",
                format!(
                    "`period` analyses heap games; {} is a {} game: try `patterns()` or `table()`",
                    self.game.name,
                    self.kind()
                ),
                None,
            ));
        }
        let game = &self.game;
        run(py, progress.as_ref(), |options| {
            period_json(game, max, misere, options)
        })?
        .map_err(|e| solve_error(py, e))
    }

    /// The report of `patterns --json` over the box `0..=extents[i]`.
    #[pyo3(signature = (extents, misere=false, progress=None))]
    fn patterns(
        &self,
        py: Python<'_>,
        extents: Vec<u64>,
        misere: bool,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        if self.game.graph().is_some() {
            return Err(sgscope_error(
                py,
                "UnsupportedError",
                format!("`patterns` analyses heap and position games; {} is a graph file: try `table()`", self.game.name),
                None,
            ));
        }
        let game = &self.game;
        run(py, progress.as_ref(), |options| {
            patterns_json(game, &extents, misere, options)
        })?
        .map_err(|e| solve_error(py, e))
    }

    /// The report of `sweep --format json` over the ranges `sets` (`k=1..=50`, in order).
    #[pyo3(signature = (sets, max=None, to=None, progress=None))]
    fn sweep(
        &self,
        py: Python<'_>,
        sets: Vec<String>,
        max: Option<u64>,
        to: Option<u64>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let ranges = api::ParamRange::parse_all(&sets)
            .map_err(|e| sgscope_error(py, "RulesError", e.to_string(), None))?;
        let game = &self.game;
        run(py, progress.as_ref(), |options| {
            let request = api::SweepRequest { max, to, options };
            api::sweep(game, &ranges, &request).map(|report| export::sweep::json(&report))
        })?
        .map_err(|e| {
            let class = match e {
                api::SweepError::NotAHeapGame { .. } => "UnsupportedError",
                _ => "RulesError",
            };
            sgscope_error(py, class, e.to_string(), None)
        })
    }

    /// The snippet of `sgscope code --lang LANG`, and the notes the command line prints with it.
    #[pyo3(signature = (lang, max=None, to=None, extrapolate=false, table=false, allow_large=false, misere=false, progress=None))]
    #[allow(clippy::too_many_arguments)] // the flags of `code`, as keyword arguments
    fn snippet(
        &self,
        py: Python<'_>,
        lang: &str,
        max: Option<u64>,
        to: Option<Vec<u64>>,
        extrapolate: bool,
        table: bool,
        allow_large: bool,
        misere: bool,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<(String, Vec<String>)> {
        if self.game.graph().is_some() {
            return Err(sgscope_error(
                py,
                "UnsupportedError",
                format!(
                    "`code` writes the values of heap and position games; {} is a graph file",
                    self.game.name
                ),
                None,
            ));
        }
        let lang = lang
            .parse()
            .map_err(|e: String| sgscope_error(py, "UnsupportedError", e, None))?;
        let game = &self.game;
        run(py, progress.as_ref(), |options| {
            let request = CodeRequest {
                play: if misere { Play::Misere } else { Play::Normal },
                max,
                to,
                extrapolate,
                table,
                allow_large,
                options,
                ..CodeRequest::new(lang)
            };
            api::code(game, &request)
        })?
        .map(|(snippet, notes)| (snippet, notes.iter().map(code_note_text).collect()))
        .map_err(|e| match e {
            CodeError::Api(e) => api_error(e),
            CodeError::Export(e) => solve_error(py, Failure::Export(e)),
            CodeError::TooLarge { bytes, limit } => sgscope_error(
                py,
                "UnsupportedError",
                with_help(
                    format!(
                        "the snippet is {} of source, more than the {} a contest judge accepts (Codeforces takes 64 KB)",
                        export::human_size(bytes),
                        export::human_size(limit)
                    ),
                    Some("a smaller box or table (to=), or allow_large=True to write it anyway".into()),
                ),
                None,
            ),
            // `api::code` is never a sweep's: its errors are code_sweep's only.
            other @ (CodeError::Sweep(_) | CodeError::Instance(_) | CodeError::PositionGame { .. }) => {
                sgscope_error(py, "UnsupportedError", other.to_string(), None)
            }
        })
    }

    /// The report of `solve --json` for a sum of `components` (each a position), or for the
    /// sum written as `text` (`3 5 7`, `(3, 4) + (5, 2)`, a graph file's `a + b`).
    #[pyo3(signature = (text, components=None, misere=false, progress=None))]
    fn solve(
        &self,
        py: Python<'_>,
        text: String,
        components: Option<Vec<Vec<u64>>>,
        misere: bool,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let game = &self.game;
        run(py, progress.as_ref(), |options| {
            solve_json(game, &text, components, misere, options)
        })?
        .map_err(|e| solve_error(py, e))
    }
}

/// Why a request was not answered, before it is raised as one of the package's exceptions.
enum Failure {
    Api(ApiError),
    Export(export::ExportError),
    Engine(EngineError),
    Solve(SolveError),
    Usage(String),
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Self {
        Failure::Engine(e)
    }
}

impl From<export::ExportError> for Failure {
    fn from(e: export::ExportError) -> Self {
        Failure::Export(e)
    }
}

impl From<ApiError> for Failure {
    fn from(e: ApiError) -> Self {
        Failure::Api(e)
    }
}

impl From<SolveError> for Failure {
    fn from(e: SolveError) -> Self {
        Failure::Solve(e)
    }
}

/// `period --json` (or `period --misere --json`), through the facade's `api::period`.
fn period_json(
    game: &Game,
    max: Option<u64>,
    misere: bool,
    options: EngineOptions,
) -> Result<String, Failure> {
    let play = if misere { Play::Misere } else { Play::Normal };
    let started = Instant::now();
    let request = PeriodRequest {
        max,
        options,
        ..PeriodRequest::new(play)
    };
    match api::period(game, request)? {
        Periodic::Misere {
            table,
            summary,
            stopped,
        } => {
            let stopped = stopped.map(|error| (table.cells.len() as u64, error.to_string()));
            Ok(export::misere::period_json(&game.name, &summary, &stopped))
        }
        Periodic::Normal { report, .. } => {
            let timing = SearchTiming::new(report.values_computed, started.elapsed());
            let mut out = Vec::new();
            export::write_report_json(&mut out, &report, Some(&timing))
                .expect("writing to memory cannot fail");
            Ok(String::from_utf8(out).expect("JSON is UTF-8"))
        }
    }
}

/// `patterns --json`, through the facade's `api::patterns`.
fn patterns_json(
    game: &Game,
    extents: &[u64],
    misere: bool,
    options: EngineOptions,
) -> Result<String, Failure> {
    let play = if misere { Play::Misere } else { Play::Normal };
    let request = Request {
        options,
        ..Request::new(extents)
    };
    let findings = match api::patterns(game, play, &request) {
        Err(ApiError::Pattern(e)) => {
            return Err(Failure::Usage(with_help(
                e.to_string(),
                e.hint().map(hint_help),
            )))
        }
        other => other?,
    };
    Ok(findings.json().expect("a report serializes"))
}

/// `solve --json`, through the facade's `api::solve` (or `api::solve_position` for
/// `components` given as lists).
fn solve_json(
    game: &Game,
    text: &str,
    components: Option<Vec<Vec<u64>>>,
    misere: bool,
    options: EngineOptions,
) -> Result<String, Failure> {
    let request = SolveRequest {
        options,
        ..SolveRequest::new(if misere { Play::Misere } else { Play::Normal })
    };
    let solved = match components {
        Some(components) => api::solve_position(game, Position::Components(components), &request),
        None => api::solve(game, text, &request),
    };
    let solved = solved.map_err(|error| match error {
        SolveError::NoPosition => Failure::Usage(match game.graph() {
            Some(graph) => format!(
                "solve needs a position: one or more nodes of {} joined by `+` (e.g. `{}`), or a `start` line in the file",
                game.name,
                graph.name(0)
            ),
            None => "solve needs a position: heaps (`3 5 7`) or tuples joined by `+` (`(3, 4) + (5, 2)`)".into(),
        }),
        SolveError::HackenbushPosition { .. } => Failure::Usage(
            "a hackenbush file is one position, the whole graph: solve it without a position".into(),
        ),
        SolveError::UnknownNode { name, game, .. } => {
            Failure::Usage(format!("`{name}` is not a node of {game}"))
        }
        SolveError::MisereLoopy => Failure::Usage(
            "misère play of a graph file is not supported: its loopy values (outcome, remoteness, generalized Sprague–Grundy value) are those of normal play".into(),
        ),
        other => Failure::Solve(other),
    })?;
    let mut out = Vec::new();
    match &solved {
        Solved::Sum(report) => export::solve::write_json(&mut out, report),
        Solved::Loopy(report) => export::loopy::write_solve_json(&mut out, report),
        Solved::Hackenbush(report) => export::hackenbush::write_solve(&mut out, report, true),
    }
    .expect("writing to memory cannot fail");
    Ok(String::from_utf8(out).expect("JSON is UTF-8"))
}

/// A note of `code` in words, with the keyword arguments that change it.
fn code_note_text(note: &CodeNote) -> String {
    note.describe(&api::CodeKnobs {
        extrapolate: "extrapolate=True",
        table: "table=True",
    })
}

/// The words of a notice.
fn notice_text(game: &Game, notice: &Notice) -> String {
    match notice {
        Notice::ValuedAsLoopy { cycle } => {
            let shown: Vec<String> = cycle
                .iter()
                .take(6)
                .map(|p| {
                    format!(
                        "({})",
                        p.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
                    )
                })
                .collect();
            format!(
                "the moves of {} can cycle ({}{}): its positions are valued as a loopy game (outcome, remoteness, value)",
                game.name,
                shown.join(" → "),
                if cycle.len() > 6 { " → …" } else { "" }
            )
        }
        Notice::NoQuickQuotient { largest, reason } => format!(
            "no misère quotient of the heaps ≤ {largest} within a quick attempt ({reason}); searching the sums"
        ),
        Notice::ManySums { bound, limit } => format!(
            "the misère search over this sum may need up to {} sums of components; it stops past {limit}",
            match *bound {
                u128::MAX => "more than 10^38".to_string(),
                bound => bound.to_string(),
            }
        ),
    }
}

/// The game described by rules `text` (called `name` in messages), with `params` set.
#[pyfunction]
#[pyo3(signature = (name, text, params=Vec::new()))]
fn load_text(
    py: Python<'_>,
    name: &str,
    text: &str,
    params: Vec<(String, i64)>,
) -> PyResult<NativeGame> {
    api::load_text(name, text, &params)
        .map(|game| NativeGame { game })
        .map_err(|e| rules_error(py, &e))
}

/// The game of the rules file at `path`, with `params` set.
#[pyfunction]
#[pyo3(signature = (path, params=Vec::new()))]
fn load_path(py: Python<'_>, path: PathBuf, params: Vec<(String, i64)>) -> PyResult<NativeGame> {
    let shown = path.display().to_string();
    match api::load_path(&path, &params) {
        Ok(game) => Ok(NativeGame { game }),
        Err(PathError::Rules(e)) => Err(rules_error(py, &e)),
        Err(PathError::NotFound(e)) => Err(PyFileNotFoundError::new_err((
            e.raw_os_error().unwrap_or(2),
            format!("no such rules file ({e})"),
            shown,
        ))),
        Err(PathError::Directory) => Err(PyIsADirectoryError::new_err((
            21,
            "it is a directory, not a rules file",
            shown,
        ))),
        Err(other) => Err(PyOSError::new_err(format!(
            "cannot read `{shown}`: {other}"
        ))),
    }
}

/// The smallest `max` of a census, as the command line's `census --max`.
const MIN_CENSUS_MAX: u64 = 64;

/// The rows of `census FAMILY … --format jsonl`: every code of the octal codes of at most
/// `size` digits (`family = "octal"`) or of the subtraction sets of elements at most `size`
/// (`"subtraction"`), one JSON object a line.
#[pyfunction]
#[pyo3(signature = (family, size, max=None, sparse_max=None, progress=None))]
fn census(
    py: Python<'_>,
    family: &str,
    size: u32,
    max: Option<u64>,
    sparse_max: Option<u64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let unsupported = |message: String| sgscope_error(py, "UnsupportedError", message, None);
    let family = match family {
        "octal" if (1..=families::family::MAX_OCTAL_DIGITS).contains(&size) => {
            families::Family::Octal { digits: size }
        }
        "subtraction" if (1..=families::family::MAX_SUBTRACTION_ELEMENT).contains(&size) => {
            families::Family::Subtraction { max_element: size }
        }
        "octal" => {
            return Err(unsupported(format!(
                "an octal census has 1 to {} digits, not {size}",
                families::family::MAX_OCTAL_DIGITS
            )))
        }
        "subtraction" => {
            return Err(unsupported(format!(
                "a subtraction census has elements up to 1 to {}, not {size}",
                families::family::MAX_SUBTRACTION_ELEMENT
            )))
        }
        other => {
            return Err(unsupported(format!(
                "the census families are `octal` and `subtraction`, not `{other}`"
            )))
        }
    };
    let max = max.unwrap_or(families::DEFAULT_MAX);
    let sparse_max = sparse_max.unwrap_or(families::DEFAULT_SPARSE_MAX.max(max));
    if max < MIN_CENSUS_MAX {
        return Err(unsupported(format!("max={max} is too small for a census: each code is searched for a period in G(0..=max), so give max={MIN_CENSUS_MAX} or more (the default is {})", families::DEFAULT_MAX)));
    }
    if sparse_max < max {
        return Err(unsupported(format!("sparse_max={sparse_max} is below max={max}: sparse codes go on from max, so give sparse_max={max} or more")));
    }
    let config = families::Config {
        family,
        max,
        sparse_max,
    };
    run(py, progress.as_ref(), |options| {
        census_jsonl(config, options)
    })?
    .map_err(|e| match *e {
        families::CensusError::Rules(e) => rules_error(py, &e),
        families::CensusError::Engine { source, .. } => engine_error(py, &source),
        other => PyRuntimeError::new_err(other.to_string()),
    })
}

/// `census … --format jsonl`: the one place the binding runs a census, to move to the
/// facade when it has one.
fn census_jsonl(
    config: families::Config,
    options: EngineOptions,
) -> Result<String, Box<families::CensusError>> {
    // A bound whose tables cannot fit is refused before any code runs.
    let probe = config.family.game_text(&config.family.codes()[0]);
    let game = api::load_text(&probe, &probe, &[])
        .map_err(|e| Box::new(families::CensusError::Rules(Box::new(e))))?;
    sgscope::engine::check_memory(&game, config.sparse_max.max(config.max)).map_err(|source| {
        Box::new(families::CensusError::Engine {
            code: probe.clone(),
            source,
        })
    })?;
    let codes = families::Shard::WHOLE.codes(&config.family);
    let tracker = Mutex::new(Progress::items(
        "codes",
        codes.len() as u64,
        options.progress,
    ));
    let records = Mutex::new(Vec::with_capacity(codes.len()));
    // The library's callback, whose error type is the library's.
    #[allow(clippy::result_large_err)]
    let done = |record: families::Record| -> Result<(), families::CensusError> {
        let mut records = records.lock().unwrap_or_else(|e| e.into_inner());
        records.push(record);
        let done = records.len() as u64;
        drop(records);
        tracker.lock().unwrap_or_else(|e| e.into_inner()).set(done);
        Ok(())
    };
    families::run(&config, &codes, &done).map_err(Box::new)?;
    tracker
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .finish();
    let census = families::Census::new(
        config,
        records.into_inner().unwrap_or_else(|e| e.into_inner()),
    )
    .map_err(Box::new)?;
    let mut out = Vec::new();
    export::census::write_jsonl(&mut out, &census.rows()).expect("memory");
    Ok(String::from_utf8(out).expect("UTF-8"))
}

/// The names of the value rules, in registration order.
#[pyfunction]
fn rules() -> Vec<&'static str> {
    Registry::standard().names()
}

/// The native module.
#[pymodule]
fn _sgscope(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<NativeGame>()?;
    module.add_function(wrap_pyfunction!(load_text, module)?)?;
    module.add_function(wrap_pyfunction!(load_path, module)?)?;
    module.add_function(wrap_pyfunction!(rules, module)?)?;
    module.add_function(wrap_pyfunction!(census, module)?)?;
    Ok(())
}

// ---- errors ------------------------------------------------------------------------------

/// An instance of the exception class `class` of `sgscope._errors` with `message` as its text,
/// `line`/`column` from `at` (1-based; `None` when not located).
fn sgscope_error(
    py: Python<'_>,
    class: &str,
    message: String,
    at: Option<(usize, usize)>,
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let class = py.import("sgscope._errors")?.getattr(class)?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("line", at.map(|(line, _)| line))?;
        kwargs.set_item("column", at.map(|(_, column)| column))?;
        let error = class.call((message.trim_end_matches('\n'),), Some(&kwargs))?;
        Ok(PyErr::from_value(error))
    };
    build().unwrap_or_else(|e| e)
}

/// A rules text's errors: `RulesError`, located at its first diagnostic, its text the one the
/// command line prints (the library's renderer: path:line:column, the line, a caret).
fn rules_error(py: Python<'_>, error: &RulesError) -> PyErr {
    let at = error
        .diagnostics
        .iter()
        .find(|d| d.located)
        .map(|d| error.source.line_col(d.span.start));
    sgscope_error(py, "RulesError", error.to_string(), at)
}

/// The class of an engine error: `BudgetError`, `CycleError` or `EngineError`.
fn engine_class(error: &EngineError) -> &'static str {
    match error {
        EngineError::TooLarge { .. }
        | EngineError::TooSlow { .. }
        | EngineError::RulesTooSlow { .. }
        | EngineError::BoxTooSlow { .. }
        | EngineError::TooLong { .. }
        | EngineError::OverBudget { .. }
        | EngineError::TooManySums { .. }
        | EngineError::GraphRoundsOverBudget { .. }
        | EngineError::TooManyOutside { .. } => "BudgetError",
        EngineError::Cycle { .. } | EngineError::GraphCycle { .. } => "CycleError",
        _ => "EngineError",
    }
}

/// Where an engine error is in the rules text (1-based line and column), if it says.
fn engine_location(error: &EngineError) -> Option<(usize, usize)> {
    match error {
        EngineError::OverBudget {
            diagnostic, file, ..
        }
        | EngineError::Rule {
            diagnostic, file, ..
        } if diagnostic.located => Some(file.line_col(diagnostic.span.start)),
        _ => None,
    }
}

/// An engine's refusal or failure, worded as the command line words it (`error: …`), its
/// typed hint in this package's terms ([`hint_help`]).
fn engine_error(py: Python<'_>, error: &EngineError) -> PyErr {
    let message = with_help(error.to_string(), error.hint().map(hint_help));
    sgscope_error(py, engine_class(error), message, engine_location(error))
}

/// `error: message`, then `  help: …` on a line of its own, as the command line writes them.
fn with_help(message: String, help: Option<String>) -> String {
    let mut message = match message.starts_with("error: ") {
        true => message,
        false => format!("error: {message}"),
    };
    if let Some(help) = help {
        if !message.ends_with('\n') {
            message.push('\n');
        }
        message.push_str("  help: ");
        message.push_str(&help);
    }
    message
}

/// What to do, in this package's words (its arguments `to=`, `max=`, `rule=`): the library's
/// typed hints are worded at each edge, the command line's in `cli::hint_help`.
fn hint_help(hint: Hint) -> String {
    match hint {
        Hint::SmallerTable => "ask for a smaller table (`to=`, or `max=` of `period()`)".into(),
        Hint::TableBelow(to) => format!("ask for `to=`/`max=` below {to}"),
        Hint::BoundRanges => "bound the ranges by n (e.g. `x in 1..=n`), or ask for a smaller `to=`/`max=`".into(),
        Hint::SmallerBox => "ask for a smaller `to=`".into(),
        Hint::LargerBox => "enlarge the box with `to=`, or bound the moves".into(),
        Hint::SmallerPositions => "ask about positions with smaller coordinates".into(),
        Hint::SmallerSums => "ask for a smaller `to=`, or a sum of fewer or smaller components".into(),
        Hint::SmallerGraph => "a graph file is valued whole: give it fewer nodes and edges (split it into parts, whose values add as a sum)".into(),
        Hint::RuleOfSums => "use a value rule that values sums (`rule=\"normal\"` does)".into(),
        Hint::DecreasingMoves => "make every move decrease something, e.g. a coordinate or their sum".into(),
        Hint::AcyclicGraphsOnly => "a graph with a cycle has positions whose play need not end (loopy values); the normal-play engine values acyclic graphs only".into(),
        Hint::CheckpointFile => "pass a checkpoint file written by the command line's --checkpoint".into(),
        Hint::StartOver => "delete it to start over".into(),
        Hint::SameGameAsCheckpoint => "use the same game and parameters as the run that wrote it, or another checkpoint file".into(),
        Hint::MoreMemoryOrStartOver => "resume it on a machine with more memory, or delete it to start over".into(),
        Hint::CensusRows => "give the output of `sgscope census … --format jsonl`".into(),
        Hint::TableTo(to) => format!("compute the table further (`to={to}`)"),
        Hint::TwoCoordinates => "fix all but two coordinates".into(),
        Hint::ChartExtension => "use a file name ending in .png or .svg".into(),
        Hint::ValuesAsTable => "get the values with `table()` instead".into(),
        Hint::AtLeastOneValue => "compute at least G(0)".into(),
        Hint::HeapsAtMost(largest) => format!("ask about heaps of at most {largest} tokens"),
        Hint::OnePosition { components } => format!("beyond that a single position can still be decided by a P-position pattern, but a sum of {components} needs their SG values: ask about one position, or smaller ones"),
        Hint::SmallerSolvedPositions => "ask about smaller positions (solve computes every position up to the largest coordinates asked about)".into(),
        Hint::SmallerReachablePositions => "ask about a position with smaller coordinates (solve values every position reachable from the one asked)".into(),
        Hint::FewerReachablePositions => "ask about smaller positions".into(),
        Hint::OneToken => "a game that can cycle is valued as one token on a graph of positions (C. A. B. Smith): write moves that lead to one position, or make every move decrease something so that the game ends".into(),
        Hint::LoopyBoxLeft => "the moves can cycle, so every position a move reaches must be in the table: ask for a larger `to=` (or bound the moves in the rules)".into(),
        Hint::PeriodOfSequence => "a one-coordinate table is analysed by `period()` as a sequence".into(),
    }
}

fn api_error(error: ApiError) -> PyErr {
    Python::attach(|py| match &error {
        ApiError::UnknownRule { name, known } => sgscope_error(
            py,
            "UnknownRuleError",
            format!(
                "unknown value rule `{name}`; the rules are: {}",
                known.join(", ")
            ),
            None,
        ),
        ApiError::Engine(e) => engine_error(py, e),
        ApiError::Pattern(e) => sgscope_error(
            py,
            "UnsupportedError",
            with_help(e.to_string(), e.hint().map(hint_help)),
            None,
        ),
        ApiError::NoValues { .. } | ApiError::NotAHeapGame { .. } => {
            sgscope_error(py, "UnsupportedError", error.to_string(), None)
        }
    })
}

/// A `solve` error: `solve()` has no `to=`, it values what the position asked needs (the
/// command line's `solve_message`, in this package's terms).
fn solve_error(py: Python<'_>, failure: Failure) -> PyErr {
    let error = match failure {
        Failure::Api(e) => return api_error(e),
        Failure::Export(e) => {
            let message = with_help(e.to_string(), e.hint().map(hint_help));
            return sgscope_error(py, "UnsupportedError", message, None);
        }
        Failure::Engine(e) => return engine_error(py, &e),
        Failure::Usage(message) => return sgscope_error(py, "UnsupportedError", message, None),
        Failure::Solve(e) => e,
    };
    let help = match (error.cause(), error.hint()) {
        (SolveError::Engine(_), Some(Hint::SmallerTable | Hint::TableBelow(_) | Hint::BoundRanges)) => Some(
            "solve computes every heap up to the largest one asked about: ask about smaller heaps".to_string(),
        ),
        (_, Some(Hint::SmallerSums)) => Some("ask about a sum of fewer or smaller components".to_string()),
        (_, Some(Hint::SmallerBox | Hint::SmallerPositions)) => Some(
            "solve values every position the one asked needs: ask about positions with smaller coordinates".to_string(),
        ),
        (_, Some(Hint::LargerBox)) => Some(
            "solve fits its box to the position's moves, but the moves keep leaving it: bound the moves, or ask about a smaller position".to_string(),
        ),
        (_, hint) => hint.map(hint_help),
    };
    let (class, at) = match error.cause() {
        SolveError::Engine(e) => (engine_class(e), engine_location(e)),
        SolveError::Position(_) => ("PositionError", None),
        _ => ("SolveError", None),
    };
    sgscope_error(py, class, with_help(error.to_string(), help), at)
}

// ---- long calls: the GIL released, Ctrl-C, progress ----------------------------------------

/// The panic payload that unwinds a stopped worker: raised by [`Sink::update`] once the caller
/// asked to stop, caught by [`run`].
struct Stop;

/// The worker's progress sink: keeps the latest update for the caller and stops the worker
/// when asked.
#[derive(Default)]
struct Sink {
    latest: Mutex<Option<Update>>,
    stop: AtomicBool,
}

impl ProgressSink for Sink {
    fn update(&self, update: &Update) -> bool {
        // Never unwind from a tracker's last update (it may come from a drop while unwinding).
        if self.stop.load(Ordering::Relaxed)
            && update.event != Event::Finished
            && !std::thread::panicking()
        {
            panic::panic_any(Stop);
        }
        *self.latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(update.clone());
        false
    }
}

/// How often the waiting thread looks at signals and progress.
const POLL: Duration = Duration::from_millis(100);

/// Runs `work` on a worker thread with the GIL released, handing it the options of a request
/// (its progress sink). Every [`POLL`] the calling thread checks for signals and calls
/// `progress` with the latest update; when either raises, the worker is stopped (at its next
/// progress update) and joined before the exception is raised.
fn run<R: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(EngineOptions) -> R + Send,
) -> PyResult<R> {
    quiet_stops();
    let sink = Arc::new(Sink::default());
    let options = EngineOptions {
        progress: Some(sink.clone()),
    };
    std::thread::scope(|scope| {
        let caller = std::thread::current();
        let worker = scope.spawn(move || {
            let result = panic::catch_unwind(AssertUnwindSafe(|| work(options)));
            caller.unpark();
            result
        });
        loop {
            py.detach(|| std::thread::park_timeout(POLL));
            if worker.is_finished() {
                break;
            }
            let checked = py
                .check_signals()
                .and_then(|()| report_progress(py, progress, &sink));
            if let Err(error) = checked {
                sink.stop.store(true, Ordering::Relaxed);
                // The worker stops at its next update (within a tenth of a second or so).
                let _ = py.detach(|| worker.join());
                return Err(error);
            }
        }
        let result = worker.join().unwrap_or_else(Err);
        report_progress(py, progress, &sink)?;
        result.map_err(|payload| {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            PyRuntimeError::new_err(format!(
                "sgscope failed (an internal error, please report it): {message}"
            ))
        })
    })
}

/// Calls `progress` with the latest update, if there is a new one.
fn report_progress(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    sink: &Sink,
) -> PyResult<()> {
    let Some(callback) = progress else {
        return Ok(());
    };
    let update = sink.latest.lock().unwrap_or_else(|e| e.into_inner()).take();
    let Some(update) = update else {
        return Ok(());
    };
    let dict = PyDict::new(py);
    dict.set_item(
        "event",
        match update.event {
            Event::Started => "started",
            Event::Reached => "reached",
            Event::Finished => "finished",
        },
    )?;
    let (counted, exact) = match update.counted {
        Counted::Positions => ("positions", true),
        Counted::AtMost(what) => (what, false),
        Counted::Exactly(what) => (what, true),
    };
    dict.set_item("counted", counted)?;
    dict.set_item("exact", exact)?;
    dict.set_item("start", update.start)?;
    dict.set_item("reached", update.reached)?;
    dict.set_item("end", update.end)?;
    dict.set_item(
        "elapsed",
        update.at.duration_since(update.started).as_secs_f64(),
    )?;
    let (rate, left) = match update.estimate {
        Estimate::Measuring { .. } => (None, None),
        Estimate::Ready {
            per_second,
            seconds_left,
        } => (Some(per_second), seconds_left),
    };
    dict.set_item("per_second", rate)?;
    dict.set_item("seconds_left", left)?;
    dict.set_item("stalled_at", update.stalled.map(|s| s.position))?;
    callback.call1((dict,))?;
    Ok(())
}

/// Installs, once, a panic hook that keeps quiet about [`Stop`] (a stopped worker is not an
/// error) and hands every other panic to the hook there was.
fn quiet_stops() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<Stop>().is_none() {
                previous(info);
            }
        }));
    });
}
