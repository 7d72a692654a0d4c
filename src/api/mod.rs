//! The one entry point that values any game under any play rule: the command line and the
//! Python package both call it.
//!
//! ```
//! use sgscope::api;
//! use sgscope::value::{Registry, Request, Valued};
//!
//! // Kayles (octal 0.77): G(n) has period 12 from n = 71 (Guy and Smith 1956).
//! let game = api::load_text("<example>", "octal 0.77", &[]).unwrap();
//! let registry = Registry::standard();
//! let valued = api::value(&registry, &game, "normal", &Request::new(&[100])).unwrap();
//! let Valued::Normal(table) = &valued else { panic!("a heap game's table") };
//! assert_eq!(table.get(&[83]), table.get(&[95]));
//! // Outcome classes only: P, N or D.
//! let outcomes = api::value(&registry, &game, "outcomes", &Request::new(&[10])).unwrap();
//! assert_eq!(outcomes.cells("outcomes").get(&[0]).unwrap().1.to_string(), "P");
//! ```
//!
//! The other questions of the command line are one call each:
//!
//! ```
//! use sgscope::api::{self, PeriodRequest, Periodic, SolveRequest, Solved};
//! use sgscope::rules::Play;
//!
//! // Dawson's Kayles (octal 0.07): period 34 from n = 53 (Guy and Smith 1956), proved by the
//! // periodicity theorem.
//! let game = api::load_text("<example>", "octal 0.07", &[]).unwrap();
//! let Periodic::Normal { report, .. } = api::period(&game, PeriodRequest::new(Play::Normal))
//!     .unwrap() else { panic!("normal play") };
//! assert_eq!((report.period, report.preperiod, report.proved), (Some(34), Some(53), true));
//! // Nim heaps 3, 5, 7 (Bouton): 3 ⊕ 5 ⊕ 7 = 1, a first-player win.
//! let nim = api::load_text("<example>", "move take: x in 1..=n => n - x", &[]).unwrap();
//! let Solved::Sum(solved) = api::solve(&nim, "3 5 7", &SolveRequest::new(Play::Normal))
//!     .unwrap() else { panic!("a sum of heaps") };
//! assert_eq!(solved.value, Some(1));
//! ```
//!
//! * A game comes from rules text ([`load_text`]) or a file ([`load_path`], read within the
//!   size limits: rules texts to 1 MiB, graph files to 256 MiB, bounded reads).
//! * A play rule is picked by name from a [`Registry`]: `normal`, `misere`, `loopy`,
//!   `outcomes`, and any rule registered ([`Registry::register`]).
//! * [`value`] returns one typed [`Valued`] table: a heap game's sequence, a position game's
//!   box or a graph file's nodes. Normal play of a position game whose moves cycle is valued as
//!   a loopy game inside it, told first by [`Notice::ValuedAsLoopy`].
//! * Every exporter writes every kind of [`Valued`] table it can show
//!   ([`crate::export::write_valued`]); a format that cannot show one is a typed refusal.

pub mod check;
mod code;

use thiserror::Error;

use crate::analysis::misere::MisereSummary;
use crate::analysis::patterns::{self, Findings, PatternError};
use crate::analysis::{self, PeriodReport};
use crate::engine::{EngineError, EngineOptions, SgTable, Table};
use crate::rules::{self, Game, Play, RulesError, SourceFile};
use crate::solve::hackenbush::HackenbushReport;
use crate::solve::loopy::LoopySolveReport;
use crate::solve::{MisereOptions, SolveError, SolveReport};
use crate::sweep;
pub use crate::sweep::{ParamRange, RangeError, SweepError, SweepReport, SweepRequest};
use crate::value::loopy::LoopyTable;
use crate::value::misere::{self, MisereTable};
pub use crate::value::{BetweenChunks, DynRule, Notice, Registry, Request, TableKind, Valued};
pub use code::{
    code, code_sweep, CodeError, CodeKnobs, CodeNote, CodeRequest, SweepCodeRequest, DEFAULT_TO,
};

/// Why a game was not valued.
#[derive(Debug, Error)]
pub enum ApiError {
    /// No rule of that name is registered.
    #[error("unknown value rule `{name}`")]
    UnknownRule {
        /// The name asked for.
        name: String,
        /// The names registered, in registration order.
        known: Vec<&'static str>,
    },
    /// The engine refused or failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A table has no values to analyse: a graph file's, or a loopy game's.
    #[error("{kind} has no Sprague–Grundy values to analyse")]
    NoValues {
        /// The kind of table the game has.
        kind: TableKind,
    },
    /// A period is a heap game's: a position game or a graph file has none.
    #[error("{game} is not a heap game: periods are of heap games")]
    NotAHeapGame {
        /// The game's name.
        game: String,
    },
    /// The values have no pattern of that kind (rows and diagonals need two coordinates).
    #[error(transparent)]
    Pattern(#[from] PatternError),
}

/// The game described by rules `text` (named `name` in errors), with parameters set by
/// `params` (`k = 5`).
pub fn load_text(name: &str, text: &str, params: &[(String, i64)]) -> Result<Game, RulesError> {
    rules::load(SourceFile::new(name, text), params)
}

/// The game in the rules file at `path`, read within the size limits ([`rules::load_path`]),
/// with parameters set by `params`.
pub fn load_path(
    path: &std::path::Path,
    params: &[(String, i64)],
) -> Result<Game, rules::PathError> {
    rules::load_path(path, params)
}

/// The rule called `name` in `registry`.
pub fn rule<'r>(registry: &'r Registry, name: &str) -> Result<&'r dyn DynRule, ApiError> {
    registry.get(name).ok_or_else(|| ApiError::UnknownRule {
        name: name.to_string(),
        known: registry.names(),
    })
}

/// The values of `game` under the rule called `rule` over the request's box (a graph file: every
/// node), as one typed table.
pub fn value(
    registry: &Registry,
    game: &Game,
    rule: &str,
    request: &Request<'_>,
) -> Result<Valued, ApiError> {
    Ok(self::rule(registry, rule)?.value(game, request)?)
}

/// The Sprague–Grundy values (`play` normal) or misère values `G⁻` of `game` over the
/// request's box: the values analyses, charts and lookup code read. A game whose moves cycle
/// is [`EngineError::Cycle`] here (the request's `loopy_fallback` is ignored); a graph file is
/// [`ApiError::NoValues`].
pub fn grundy_values(game: &Game, play: Play, request: &Request<'_>) -> Result<Table, ApiError> {
    let registry = Registry::standard();
    let rule = self::rule(&registry, play.word())?;
    let kind = rule.kind(game);
    if matches!(kind, TableKind::Graph | TableKind::Hackenbush) {
        return Err(ApiError::NoValues { kind });
    }
    let request = Request {
        loopy_fallback: false,
        ..request.clone()
    };
    let valued = rule.value(game, &request)?;
    valued.grundy_values().ok_or(ApiError::NoValues {
        kind: valued.kind(),
    })
}

/// What a period search asks for.
pub struct PeriodRequest<'a> {
    /// Compute at most `G(0..=max)` ([`analysis::default_max`] when `None`; in misère play
    /// [`DEFAULT_MISERE_MAX`]).
    pub max: Option<u64>,
    /// The play convention.
    pub play: Play,
    /// How the kernels run (progress).
    pub options: EngineOptions,
    /// Normal play: the values already computed, `G(0..len)`, to start from (a checkpoint).
    pub start: SgTable,
    /// Normal play: called between chunks with the table so far (to save checkpoints);
    /// [`ControlFlow::Break`](std::ops::ControlFlow::Break) stops the search with
    /// [`EngineError::Interrupted`].
    pub between_chunks: Option<&'a BetweenChunks<'a>>,
}

impl PeriodRequest<'_> {
    /// A search up to the default limit under `play`, from nothing, without progress.
    pub fn new(play: Play) -> Self {
        PeriodRequest {
            max: None,
            play,
            options: EngineOptions::default(),
            start: SgTable::new(),
            between_chunks: None,
        }
    }
}

/// The default limit of a misère period search: every heap's sums are searched.
pub const DEFAULT_MISERE_MAX: u64 = 2048;

/// What a period search found.
pub enum Periodic {
    /// Normal play: the report (period, preperiod, saltus, its proof certificate or why none)
    /// and the table it was read from.
    Normal {
        /// The values computed, `G(0..=values_computed − 1)`.
        table: SgTable,
        /// The report.
        report: PeriodReport,
    },
    /// Misère play: the observed periods of `G⁻` and of the genus over the misère table.
    Misere {
        /// The misère table, as far as the search over sums went.
        table: MisereTable,
        /// The periods observed.
        summary: MisereSummary,
        /// Why the table stops before `max`, when it does (the search over sums reached its
        /// limit).
        stopped: Option<EngineError>,
    },
}

/// The period of a heap game under the request's play convention: in normal play, proved
/// where the periodicity theorem applies ([`analysis::find_period`]); in misère play, observed
/// over the misère table ([`analysis::misere::summarize`]).
pub fn period(game: &Game, request: PeriodRequest<'_>) -> Result<Periodic, ApiError> {
    if game.graph().is_some() || game.position_program().is_some() {
        return Err(ApiError::NotAHeapGame {
            game: game.name.clone(),
        });
    }
    if request.play == Play::Misere {
        let max = request.max.unwrap_or(DEFAULT_MISERE_MAX);
        let (table, stopped) = misere::table_until(game, &[max], request.options.progress, true)?;
        let summary = analysis::misere::summarize(&table);
        return Ok(Periodic::Misere {
            table,
            summary,
            stopped,
        });
    }
    let max = request.max.unwrap_or_else(|| analysis::default_max(game));
    let (table, report) = match request.between_chunks {
        Some(hook) => analysis::find_period_with_hook(
            game,
            max,
            &request.options,
            request.start,
            &mut |table| hook(table),
        )?,
        None => analysis::find_period_from(game, max, &request.options, request.start)?,
    };
    Ok(Periodic::Normal { table, report })
}

/// The patterns of `game`'s values under `play` over the request's box: where the
/// P-positions lie, closed forms of the values and of the smallest winning move, each checked
/// on the whole box ([`patterns::findings::find`]).
pub fn patterns(game: &Game, play: Play, request: &Request<'_>) -> Result<Findings, ApiError> {
    let table = grundy_values(game, play, request)?;
    Ok(patterns::findings::find(game, &table, play)?)
}

/// What `solve` asks for.
#[derive(Clone)]
pub struct SolveRequest<'a> {
    /// The play convention.
    pub play: Play,
    /// How the kernels run (progress).
    pub options: EngineOptions,
    /// Told what the caller should know before the result: a long misère search ahead
    /// ([`Notice::ManySums`], [`Notice::NoQuickQuotient`]).
    pub notices: Option<&'a dyn Fn(&Notice)>,
}

impl SolveRequest<'_> {
    /// A request under `play`, without progress or notices.
    pub fn new(play: Play) -> Self {
        SolveRequest {
            play,
            options: EngineOptions::default(),
            notices: None,
        }
    }
}

/// What `solve` found, by the kind of game.
#[derive(Clone, Debug)]
pub enum Solved {
    /// A sum of heaps or positions: its value, outcome and winning moves, and how they were
    /// found.
    Sum(Box<SolveReport>),
    /// Tokens on a graph file's nodes, or a sum of positions whose moves cycle: outcome
    /// (P, N or D), remoteness, generalized Sprague–Grundy values, winning and drawing moves.
    Loopy(LoopySolveReport),
    /// A green Hackenbush file, one position: its value and winning cuts.
    Hackenbush(HackenbushReport),
}

/// A position as written for a game, read ([`read_position`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// A sum of heaps or of tuples of coordinates.
    Components(Vec<Vec<u64>>),
    /// Tokens on a graph file's nodes.
    Nodes(Vec<u32>),
    /// A Hackenbush file's one position: the whole picture.
    Picture,
}

/// Reads `text` as a position of `game`: heaps (`3 5 7`), tuples joined by `+`
/// (`(3, 4) + (5, 2)`), or a graph file's nodes (`a + b`; the file's `start` node when `text`
/// is empty). The one reading of positions for `solve`, `play` and `judge`.
pub fn read_position(game: &Game, text: &str) -> Result<Position, SolveError> {
    let empty = text.split(['+', ' ']).all(|part| part.trim().is_empty());
    let Some(graph) = game.graph() else {
        if text.trim().is_empty() {
            return Err(SolveError::NoPosition);
        }
        let components = crate::solve::parse_sum(text, game.coordinates().len())?;
        return Ok(Position::Components(components));
    };
    if graph.hackenbush.is_some() {
        return match empty {
            true => Ok(Position::Picture),
            false => Err(SolveError::HackenbushPosition {
                position: text.to_string(),
            }),
        };
    }
    match (empty, graph.start) {
        (true, Some(start)) => Ok(Position::Nodes(vec![start])),
        (true, None) => Err(SolveError::NoPosition),
        (false, _) => graph
            .nodes_of_sum(text)
            .map(Position::Nodes)
            .map_err(|name| SolveError::UnknownNode {
                name: name.to_string(),
                game: game.name.clone(),
                nodes: graph.node_count(),
            }),
    }
}

/// Solves the sum written `position` of `game` (read by [`read_position`]). A position game
/// whose moves cycle is solved as a loopy game over the positions reachable from the sum's
/// ([`Solved::Loopy`]).
pub fn solve(
    game: &Game,
    position: &str,
    request: &SolveRequest<'_>,
) -> Result<Solved, SolveError> {
    if game.graph().is_some() && request.play == Play::Misere {
        return Err(SolveError::MisereLoopy);
    }
    solve_position(game, read_position(game, position)?, request)
}

/// [`solve`] of a position already read (a caller with the components at hand, such as the
/// Python package's `solve([(3, 4), (5, 2)])`).
pub fn solve_position(
    game: &Game,
    position: Position,
    request: &SolveRequest<'_>,
) -> Result<Solved, SolveError> {
    if game.graph().is_some() && request.play == Play::Misere {
        return Err(SolveError::MisereLoopy);
    }
    let components = match (position, game.graph()) {
        (Position::Picture, Some(graph)) => {
            let ground = graph.hackenbush.expect("a picture is a hackenbush file's");
            return Ok(Solved::Hackenbush(
                crate::solve::hackenbush::solve_hackenbush(graph, ground)?,
            ));
        }
        (Position::Nodes(nodes), Some(graph)) => {
            let table = LoopyTable::of_graph_with(graph, &request.options)?;
            return Ok(Solved::Loopy(crate::solve::loopy::solve_loopy(
                game, &table, &nodes,
            )?));
        }
        (Position::Components(components), None) => components,
        _ => {
            return Err(SolveError::PositionKind {
                game: game.name.clone(),
            })
        }
    };
    let report = match request.play {
        Play::Normal => match crate::solve::solve_with(game, &components, &request.options) {
            Err(SolveError::Engine(EngineError::Cycle { .. })) => {
                let table = LoopyTable::reachable_with(game, &components, &request.options)?;
                let nodes: Vec<u32> = components
                    .iter()
                    .map(|c| table.node_of(c).expect("every start is a node"))
                    .collect();
                return Ok(Solved::Loopy(crate::solve::loopy::solve_loopy(
                    game, &table, &nodes,
                )?));
            }
            other => other?,
        },
        Play::Misere => crate::solve::solve_misere(
            game,
            &components,
            MisereOptions {
                progress: request.options.progress.clone(),
                notices: request.notices,
                ..Default::default()
            },
        )?,
    };
    Ok(Solved::Sum(Box::new(report)))
}

/// The sweep of `game` over `ranges` of its parameters: every instance's period (proved where
/// the periodicity theorem applies) and shapes, and the formulas in the parameters that hold
/// on every instance they cover ([`sweep::run`]). Refused before work when a swept name is not
/// a parameter of the rules, the game is not a heap game, or the ranges give more than
/// [`sweep::MAX_INSTANCES`] instances.
pub fn sweep(
    game: &Game,
    ranges: &[sweep::ParamRange],
    request: &sweep::SweepRequest,
) -> Result<sweep::SweepReport, sweep::SweepError> {
    sweep::run(game, ranges, request)
}

/// The estimated seconds of a sweep's searches if each ran to its limit
/// ([`sweep::estimate_seconds`]): an upper bound, to say up front that a sweep may take long.
pub fn sweep_estimate(
    game: &Game,
    ranges: &[sweep::ParamRange],
    max: Option<u64>,
) -> Result<Option<f64>, sweep::SweepError> {
    sweep::estimate_seconds(game, ranges, max)
}
