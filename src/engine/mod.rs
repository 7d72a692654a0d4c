//! Sprague–Grundy kernels: `G(0..=N)` for a heap game.
//!
//! * [`takebreak`]: the fast kernel for take-and-break codes (every family form, and general
//!   rules that lower to a code), with rayon parallelism over the splits of large heaps;
//! * [`sparse`]: the rare/common-values kernel that [`takebreak`] hands long tables of finite
//!   octal codes to;
//! * [`general`]: compiled general move rules;
//! * [`graph`]: the nodes of an acyclic directed graph file, in reverse topological order;
//! * [`multi`]: position games (`position (x, y)`) over a box, by waves or a cycle-checking
//!   search;
//! * [`crate::oracle`] (not here): deliberately simple reference engines (explicit partitions,
//!   a tree-walking interpreter) that the property tests compare the fast kernels against.
//!
//! All of them share the bitset mex of [`mex`] and the narrow storage of [`table`]. Every
//! request passes the guards of [`budget`] first (memory, and rule steps for general rules),
//! for heap tables and boxes alike, before anything is allocated; [`moves`] lists the moves of
//! one position (a code's partitions, rules with their lines expanded) for `solve`, the move
//! generator and the messages that name a move.
//! [`checkpoint`] saves a computed prefix so that a long run can be resumed, and
//! [`extend_in_chunks`] gives its caller a chance to save one (or to stop) every second or so.

pub mod boxtable;
pub mod budget;
pub mod checkpoint;
pub mod estimate;
pub mod general;
pub mod generator;
pub mod graph;
pub mod hackenbush;
pub mod jit;
pub mod mex;
pub mod moves;
pub mod multi;
pub mod nimber;
mod partner;
pub mod progress;
pub mod reachable;
pub mod shape;
pub mod sparse;
pub mod subtraction;
pub mod table;
pub mod takebreak;

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::rules::{Diagnostic, Game, GameKind, SourceFile};
pub use boxtable::{BoxTable, Table};
pub use budget::RULE_STEPS_LIMIT;
pub use mex::MexSet;
pub use nimber::Nimber;
pub use progress::{Progress, ProgressSink};
pub use shape::BoxShape;
pub use table::SgTable;
use takebreak::KernelState;

/// How to run a kernel.
#[derive(Clone, Default)]
pub struct EngineOptions {
    /// Where the run reports its progress (see [`progress`] for why a sink per request);
    /// `None` reports nothing.
    pub progress: Option<std::sync::Arc<dyn ProgressSink>>,
}

impl std::fmt::Debug for EngineOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineOptions")
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// What a request covers: a heap game's table `G(0..=to)`, or a box of positions
/// `0..=extents[i]`. Both pass the same guards ([`budget`]) before anything is allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableShape {
    /// `G(0..=to)` of a heap game.
    Sequence {
        /// The last heap.
        to: u64,
    },
    /// Every position of the box `0..=extents[i]` of a position game.
    Box {
        /// The largest value of each coordinate.
        extents: Vec<u64>,
    },
}

impl TableShape {
    /// The box's extents (`[to]` for a heap table).
    pub fn extents(&self) -> Vec<u64> {
        match self {
            TableShape::Sequence { to } => vec![*to],
            TableShape::Box { extents } => extents.clone(),
        }
    }

    /// How an error names the request's size.
    pub fn size(&self) -> TableSize {
        match self {
            TableShape::Sequence { to } => TableSize::Sequence { to: *to },
            TableShape::Box { extents } => TableSize::Box {
                positions: budget::box_positions(extents),
            },
        }
    }
}

/// The size of a refused request, as [`EngineError::TooLarge`] names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSize {
    /// `G(0..=to)` of a heap game.
    Sequence {
        /// The last heap.
        to: u64,
    },
    /// A box of positions.
    Box {
        /// Positions in the box.
        positions: u128,
    },
    /// A graph file, valued whole (a loopy table of its nodes, or a Hackenbush picture).
    Graph {
        /// Its nodes.
        nodes: u64,
        /// Its edges.
        edges: u64,
    },
}

impl std::fmt::Display for TableSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableSize::Sequence { to } => write!(f, "a table up to n = {to}"),
            TableSize::Box { positions } => write!(f, "a box of {positions} positions"),
            TableSize::Graph { nodes, edges } => {
                write!(f, "a graph of {nodes} nodes and {edges} edges")
            }
        }
    }
}

/// What to do about an [`EngineError`], in the engine's terms: the command line words it with
/// its own options (the engine does not know them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Ask for a shorter table (`G(0..=to)` with a smaller `to`).
    SmallerTable,
    /// Ask for a table up to below this heap.
    TableBelow(u64),
    /// Bound the rules' ranges by `n`, or ask for a shorter table.
    BoundRanges,
    /// Ask for a smaller box.
    SmallerBox,
    /// Enlarge the box (so fewer positions lie outside it), or bound the moves.
    LargerBox,
    /// Ask about positions with smaller coordinates: a search over the positions reachable
    /// from the one asked ([`reachable`]) found more than it may value.
    SmallerPositions,
    /// Ask for smaller misère sums: a shorter table, fewer or smaller components.
    SmallerSums,
    /// Give a graph file fewer nodes and edges: it is valued whole.
    SmallerGraph,
    /// Use a value rule that values sums of components (normal play does).
    RuleOfSums,
    /// Make every move decrease something (a coordinate, their sum), so that the game ends.
    DecreasingMoves,
    /// A graph with a cycle is valued as a loopy game: the normal-play engine values acyclic
    /// graphs only.
    AcyclicGraphsOnly,
    /// Pass a checkpoint file that sgscope wrote.
    CheckpointFile,
    /// Delete the checkpoint to start over.
    StartOver,
    /// Pass the same game and parameters as the run that wrote the checkpoint, or another
    /// checkpoint file.
    SameGameAsCheckpoint,
    /// Resume the checkpoint on a machine with more memory, or delete it to start over.
    MoreMemoryOrStartOver,
    /// Give census rows written as JSON lines by a census run.
    CensusRows,
    /// Compute the table further, up to this position.
    TableTo(u64),
    /// Plot a one-coordinate game as a chart, or fix all but two coordinates.
    TwoCoordinates,
    /// Name the chart file with the extension of its format (`.png`, `.svg`).
    ChartExtension,
    /// Print the values as a table instead of drawing them.
    ValuesAsTable,
    /// Compute at least `G(0)`.
    AtLeastOneValue,
    /// Ask about heaps of at most this many tokens (the largest whose moves are listed).
    HeapsAtMost(u64),
    /// A sum of this many components needs their values, beyond the box only a single
    /// position can be decided by a pattern: ask about one position, or smaller ones.
    OnePosition {
        /// The components of the sum.
        components: usize,
    },
    /// Ask about smaller positions: `solve` computes every position up to the largest
    /// coordinates asked about.
    SmallerSolvedPositions,
    /// Ask about a position with smaller coordinates: `solve` values every position reachable
    /// from the one asked.
    SmallerReachablePositions,
    /// Ask about smaller positions: more are reachable than a loopy table holds.
    FewerReachablePositions,
    /// A game that can cycle is valued as one token on a graph of positions (C. A. B. Smith):
    /// moves must lead to one position, or every move decrease something.
    OneToken,
    /// The moves can cycle, so every position a move reaches must be in the table: a larger
    /// box, or bounded moves.
    LoopyBoxLeft,
    /// A one-coordinate table is analysed as a sequence (its period).
    PeriodOfSequence,
}

/// Why a table or a box could not be computed. The messages name no command-line option:
/// what to do about a refusal is a [`Hint`] ([`EngineError::hint`]) that the command line
/// words with its own options.
#[derive(Debug, Error)]
pub enum EngineError {
    /// The request would not fit in memory; refused before allocating.
    #[error(
        "{size} needs about {} but only {} is available",
        human_bytes(*.needed_bytes),
        human_bytes(*.available_bytes)
    )]
    TooLarge {
        /// A heap table up to `to`, or a box of `positions`.
        size: TableSize,
        /// Estimated bytes for the values and the kernel's working memory.
        needed_bytes: u64,
        /// Bytes the machine has available.
        available_bytes: u64,
    },
    /// The request would take far too long (a code whose `!`/`?` digits leave three or more
    /// heaps is computed by listing partitions, whose number grows exponentially).
    #[error(
        "G(0..={to}) of this code would list more than {LISTING_LIMIT:e} partitions: its `!`/`?` digits that leave three or more heaps are computed one partition at a time"
    )]
    TooSlow {
        /// The largest position asked for.
        to: u64,
        /// The largest position within the work limit.
        feasible_to: u64,
    },
    /// General rules whose ranges are so large that the heap table would take hours.
    #[error(
        "G(0..={to}) would take more than {limit:e} rule steps (about {}: binder values and moves, estimated from {samples} of its positions and the rules' ranges; {costliest}): hours of work",
        estimate::count_above(*.estimate, *.limit as f64)
    )]
    RulesTooSlow {
        /// The largest position asked for.
        to: u64,
        /// The limit of rule steps ([`budget::steps_limit`]).
        limit: u64,
        /// The estimated steps.
        estimate: f64,
        /// The positions the estimate was made from.
        samples: u64,
        /// The costliest position sampled and its steps, in words.
        costliest: String,
    },
    /// A box of a position game whose rule steps would take hours.
    #[error(
        "the box {} would take more than {limit:e} rule steps (about {}: binder values and moves, estimated from {samples} of its positions and the rules' ranges; {costliest}): hours of work",
        box_text(.coordinates, .extents),
        estimate::count_above(*.estimate, *.limit as f64)
    )]
    BoxTooSlow {
        /// The coordinates' names.
        coordinates: Vec<String>,
        /// The largest value of each coordinate.
        extents: Vec<u64>,
        /// The limit of rule steps ([`budget::steps_limit`]).
        limit: u64,
        /// The estimated steps.
        estimate: f64,
        /// The positions the estimate was made from.
        samples: u64,
        /// The costliest position sampled and its steps, in words.
        costliest: String,
    },
    /// A take-and-break code's table estimated to take far longer than the budget
    /// ([`budget::check_time`]); refused before any work.
    #[error(
        "G(0..={to}) would take about {} ({work}), far past the budget of {}",
        progress::human_duration(*.seconds),
        progress::human_duration(*.limit_seconds)
    )]
    TooLong {
        /// The largest position asked for.
        to: u64,
        /// The estimated seconds.
        seconds: f64,
        /// The budget ([`budget::TIME_LIMIT_SECONDS`]).
        limit_seconds: f64,
        /// What the time goes to, in words.
        work: String,
    },
    /// A request stopped while running, past the budget its estimate allowed (rule steps,
    /// the work outside a box, the memory of a box's search, the misère search over sums):
    /// located at the rule when one was running, with how far it got
    /// ([`budget::over_budget`]). A stop no rule is to blame for (the diagnostic is
    /// [`Diagnostic::unlocated`]: the misère search over sums, a budget passed between rules)
    /// is shown as its message alone, like the refusals up front: the request's size is the
    /// cause, and there is no place in the text to point at.
    #[error("{}", over_budget_text(.diagnostic, .file))]
    OverBudget {
        /// What happened and where.
        diagnostic: Box<Diagnostic>,
        /// The rules text.
        file: Box<SourceFile>,
        /// What to do about it.
        hint: Hint,
    },
    /// The caller's hook of [`extend_in_chunks`] asked to stop (e.g. on Ctrl-C); the table
    /// holds `G(0..at)`.
    #[error("interrupted at n = {at}")]
    Interrupted {
        /// How many values the table holds.
        at: u64,
    },
    /// The request does not fit the game (e.g. a box of the wrong number of coordinates).
    #[error("{0}")]
    Request(String),
    /// The request does not fit the game, and what to do about it.
    #[error("{message}")]
    Refused {
        /// What does not fit.
        message: String,
        /// What to do about it.
        hint: Hint,
    },
    /// A value rule that cannot value a sum of components met a move leaving several.
    #[error("the value rule `{rule}` cannot value a sum of components, and a move of this game leaves several")]
    NotValued {
        /// The value rule's name.
        rule: &'static str,
    },
    /// A rule did something the engine cannot evaluate (e.g. a move to a larger heap, or a
    /// negative coordinate).
    #[error("{}", .diagnostic.render(.file))]
    Rule {
        /// What went wrong, located in the rules text.
        diagnostic: Box<Diagnostic>,
        /// The rules text.
        file: Box<SourceFile>,
    },
    /// The moves of a position game can repeat a position, so the game need not end.
    #[error(
        "the moves can cycle, so the game need not end:\n{}",
        cycle_text(.positions, .rules)
    )]
    Cycle {
        /// The positions of the cycle, starting and ending at the same one.
        positions: Vec<Vec<u64>>,
        /// The rule leading from each position to the next (`None` when none was found).
        rules: Vec<Option<String>>,
    },
    /// A directed graph file with a cycle: its positions need not lead to an end, which the
    /// normal-play engine (a recursion on options) cannot value.
    #[error(
        "the moves can cycle, so the game need not end:\n{}",
        graph_cycle_text(.nodes)
    )]
    GraphCycle {
        /// The names of the nodes of one cycle, the first repeated at the end.
        nodes: Vec<String>,
    },
    /// A hackenbush file asked of the normal-play engine: its positions are subgraphs, not
    /// nodes or heaps.
    #[error("a hackenbush file's positions are valued by the hackenbush kernel, not by the normal-play engine of heaps, positions and graph nodes")]
    Hackenbush,
    /// A misère search over sums needed more sums than it may keep.
    #[error(
        "the misère search over sums needed more than {limit} sums of components (about {} of memory)",
        human_bytes(*.bytes)
    )]
    TooManySums {
        /// The limit that was reached.
        limit: usize,
        /// The memory of that many sums.
        bytes: u64,
    },
    /// The rounds of generalized Sprague–Grundy values of a graph with cycles passed the rule
    /// steps of the budget (each round visits the edges of the nodes not yet valued; a graph of
    /// `E` edges can need `√(2E)` rounds).
    #[error(
        "the generalized Sprague–Grundy values of this graph passed the budget of {limit:e} steps (edge visits) after {rounds} rounds: {unvalued} of its {nodes} nodes were not valued yet"
    )]
    GraphRoundsOverBudget {
        /// The budget ([`budget::steps_limit`]).
        limit: u64,
        /// Rounds finished.
        rounds: u32,
        /// Nodes whose value was still unknown.
        unvalued: usize,
        /// Nodes of the graph.
        nodes: usize,
    },
    /// Too many positions outside the box were needed.
    #[error(
        "more than {limit} positions outside the box were needed (about {} of memory)",
        human_bytes(*.limit as u64 * multi::OUTSIDE_BYTES)
    )]
    TooManyOutside {
        /// The limit that was reached.
        limit: usize,
    },
}

impl EngineError {
    /// A run-time error of `game`'s rules, rendered against its text.
    pub fn rule(game: &Game, diagnostic: Diagnostic) -> Self {
        EngineError::Rule {
            diagnostic: Box::new(diagnostic),
            file: Box::new(game.source.clone()),
        }
    }

    /// Whether the request was refused up front by the budget's estimate, before any work:
    /// memory ([`EngineError::TooLarge`]), rule steps ([`EngineError::RulesTooSlow`],
    /// [`EngineError::BoxTooSlow`]) or time ([`EngineError::TooLong`], [`EngineError::TooSlow`]).
    /// A run stopped past the budget while it ran ([`EngineError::OverBudget`],
    /// [`EngineError::TooManySums`], [`EngineError::TooManyOutside`]) is not: it did work first.
    pub fn is_refused_up_front(&self) -> bool {
        matches!(
            self,
            EngineError::TooLarge { .. }
                | EngineError::TooSlow { .. }
                | EngineError::RulesTooSlow { .. }
                | EngineError::BoxTooSlow { .. }
                | EngineError::TooLong { .. }
        )
    }

    /// What to do about it, for the errors that are about the request's size.
    pub fn hint(&self) -> Option<Hint> {
        match self {
            EngineError::TooLarge {
                size: TableSize::Sequence { .. },
                ..
            } => Some(Hint::SmallerTable),
            EngineError::TooLarge {
                size: TableSize::Box { .. },
                ..
            }
            | EngineError::BoxTooSlow { .. } => Some(Hint::SmallerBox),
            EngineError::TooLarge {
                size: TableSize::Graph { .. },
                ..
            } => Some(Hint::SmallerGraph),
            EngineError::TooSlow { feasible_to, .. } => Some(Hint::TableBelow(*feasible_to)),
            EngineError::TooLong { .. } => Some(Hint::SmallerTable),
            EngineError::RulesTooSlow { .. } => Some(Hint::BoundRanges),
            EngineError::OverBudget { hint, .. } | EngineError::Refused { hint, .. } => Some(*hint),
            EngineError::TooManyOutside { .. } => Some(Hint::LargerBox),
            EngineError::TooManySums { .. } => Some(Hint::SmallerSums),
            EngineError::GraphRoundsOverBudget { .. } => Some(Hint::SmallerGraph),
            EngineError::NotValued { .. } => Some(Hint::RuleOfSums),
            EngineError::Cycle { .. } => Some(Hint::DecreasingMoves),
            EngineError::GraphCycle { .. } => Some(Hint::AcyclicGraphsOnly),
            _ => None,
        }
    }
}

/// How [`EngineError::OverBudget`] reads: its diagnostic rendered at the rule, or its message
/// alone when it is unlocated.
fn over_budget_text(diagnostic: &Diagnostic, file: &SourceFile) -> String {
    if diagnostic.located {
        diagnostic.render(file)
    } else {
        diagnostic.message.clone()
    }
}

/// `0 ≤ x ≤ 10, 0 ≤ y ≤ 20`.
pub fn box_text(coordinates: &[String], extents: &[u64]) -> String {
    coordinates
        .iter()
        .zip(extents)
        .map(|(name, extent)| format!("0 ≤ {name} ≤ {extent}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A cycle, one step per line: the first position, then `→ next   by rule` for each move.
fn cycle_text(positions: &[Vec<u64>], rules: &[Option<String>]) -> String {
    let mut text = String::new();
    if let Some(first) = positions.first() {
        text += &format!("  {}\n", multi::show_position(first));
    }
    for (next, rule) in positions.iter().skip(1).zip(rules) {
        let by = rule
            .as_ref()
            .map_or_else(String::new, |r| format!("   by {r}"));
        text += &format!("  → {}{by}\n", multi::show_position(next));
    }
    text
}

/// A cycle through named nodes, one step per line, as [`cycle_text`].
fn graph_cycle_text(nodes: &[String]) -> String {
    let mut text = String::new();
    for (i, node) in nodes.iter().enumerate() {
        text += &if i == 0 {
            format!("  {node}\n")
        } else {
            format!("  → {node}\n")
        };
    }
    text
}

/// Computes `G(0..=to)` for `game` (for a graph file: the values of nodes `0..=to`, by
/// index).
pub fn compute(game: &Game, to: u64, options: &EngineOptions) -> Result<SgTable, EngineError> {
    let mut table = SgTable::new();
    extend(game, &mut table, to, options)?;
    Ok(table)
}

/// Partitions the take-and-break kernel may list for one request (about a minute of work).
pub const LISTING_LIMIT: f64 = 2e10;

/// Extends `table` (holding `G(0..len)`) so that it holds `G(0..=to)`.
///
/// The memory check runs first, so a request that cannot fit is refused before allocating.
pub fn extend(
    game: &Game,
    table: &mut SgTable,
    to: u64,
    options: &EngineOptions,
) -> Result<(), EngineError> {
    let Some(len) = prepare(game, table, to)? else {
        return Ok(());
    };
    // Room for every value (address space only until written), which also tells the table
    // whether it is large enough to store values from 256 to 511 in 9 bits.
    table.reserve(len - table.len());
    let mut progress = Progress::new(table.len() as u64, len as u64, options.progress.clone());
    let result = extend_kernel(game, table, len, &mut progress, &mut KernelState::default());
    progress.finish();
    result
}

/// The refusals that come before any work (memory, partition listing, rule loop steps, time), then
/// the table length to reach, or `None` when `table` already holds `G(0..=to)`.
fn prepare(game: &Game, table: &SgTable, to: u64) -> Result<Option<usize>, EngineError> {
    if let GameKind::Graph { graph } = &game.kind {
        check_graph_request(graph, to)?;
    }
    let shape = TableShape::Sequence { to };
    budget::check_memory(&shape, game.code())?;
    if let Some(feasible_to) = feasible_to(game, to) {
        return Err(EngineError::TooSlow { to, feasible_to });
    }
    let len = to as usize + 1;
    if table.len() >= len {
        return Ok(None);
    }
    if let GameKind::General {
        program,
        lowered: None,
    } = &game.kind
    {
        budget::check_rule_steps(game, program, &shape)?;
    }
    budget::check_time(game, table.len() as u64, to)?;
    Ok(Some(len))
}

/// Refuses a table of graph nodes the graph does not have, and a hackenbush file.
fn check_graph_request(graph: &crate::rules::GraphGame, to: u64) -> Result<(), EngineError> {
    if graph.hackenbush.is_some() {
        return Err(EngineError::Hackenbush);
    }
    let n = graph.node_count() as u64;
    if to >= n {
        return Err(EngineError::Request(format!(
            "the graph has {n} nodes, numbered 0..={}: a table of nodes 0..={to} asks for nodes it does not have",
            n.saturating_sub(1)
        )));
    }
    Ok(())
}

/// The hook [`extend_in_chunks`] calls between chunks with the table so far; returning
/// [`ControlFlow::Break`] stops the computation.
pub type ChunkHook<'a> = dyn FnMut(&SgTable) -> ControlFlow<()> + 'a;

/// The first chunk of [`extend_in_chunks`], in positions.
const FIRST_CHUNK: usize = 1 << 12;

/// [`extend_in_chunks`] aims at chunks taking about this long: short enough that Ctrl-C is
/// answered quickly, long enough that the kernels' per-call set-up stays a small part of the
/// work (the dense kernel rebuilds its working state from the table; the sparse one keeps it).
const CHUNK_TIME: Duration = Duration::from_millis(500);

/// [`extend`], computing the table in chunks and calling `between_chunks` with the table after
/// each one (and once before the first). When the hook returns [`ControlFlow::Break`] the
/// computation stops with [`EngineError::Interrupted`], the table holding every value computed
/// so far. The values are exactly those of [`extend`]: every kernel extends a table from any
/// prefix of it.
///
/// Chunks start at 4096 positions and double or halve so that each takes about half a second.
/// The sparse kernel keeps its working state from one chunk to the next (Grundy's game to 2^26
/// with a checkpoint: 109.7 s, against 105.4 s in one call; 127.2 s when every chunk rebuilt it).
pub fn extend_in_chunks(
    game: &Game,
    table: &mut SgTable,
    to: u64,
    options: &EngineOptions,
    between_chunks: &mut ChunkHook<'_>,
) -> Result<(), EngineError> {
    let Some(len) = prepare(game, table, to)? else {
        return Ok(());
    };
    // As in `extend`: the table knows its final size from the first chunk on.
    table.reserve(len - table.len());
    let mut progress = Progress::new(table.len() as u64, len as u64, options.progress.clone());
    let mut chunk = FIRST_CHUNK;
    let mut state = KernelState::default();
    let result = loop {
        if between_chunks(table).is_break() {
            break Err(EngineError::Interrupted {
                at: table.len() as u64,
            });
        }
        if table.len() >= len {
            break Ok(());
        }
        let started = Instant::now();
        let end = table.len().saturating_add(chunk).min(len);
        if let Err(e) = extend_kernel(game, table, end, &mut progress, &mut state) {
            break Err(e);
        }
        let took = started.elapsed();
        if took < CHUNK_TIME / 2 {
            chunk = chunk.saturating_mul(2);
        } else if took > CHUNK_TIME * 2 {
            chunk = (chunk / 2).max(64);
        }
    };
    progress.finish();
    result
}

/// Runs the game's kernel from `table.len()` to `len` values, keeping the kernels' working
/// state in `state` for the next call on the same table.
fn extend_kernel(
    game: &Game,
    table: &mut SgTable,
    len: usize,
    progress: &mut Progress,
    state: &mut KernelState,
) -> Result<(), EngineError> {
    match &game.kind {
        GameKind::Code { code, .. }
        | GameKind::General {
            lowered: Some(code),
            ..
        } => {
            takebreak::extend_keeping(code, table, len, progress, state);
            Ok(())
        }
        GameKind::General {
            program,
            lowered: None,
        } => {
            // One meter per call: a run in chunks (with a checkpoint, resumable) is metered
            // chunk by chunk.
            let mut meter = budget::Meter::default();
            general::extend_within(program, table, len, progress, &mut meter).map_err(|stop| {
                match stop {
                    general::GeneralStop::Rule(diagnostic) => EngineError::rule(game, diagnostic),
                    general::GeneralStop::OutOfBudget { at, rule } => budget::over_budget(
                        game,
                        Some(program),
                        rule,
                        &[at],
                        budget::OverBudget::Steps {
                            limit: meter.limit(),
                        },
                        u128::from(at),
                        len as u128,
                        Hint::BoundRanges,
                    ),
                }
            })
        }
        GameKind::Graph { graph: g } => {
            // Linear in the graph: every call values the whole graph and keeps what it asks.
            let values = graph::values(g)?;
            for &value in &values[table.len()..len] {
                table.push(value);
            }
            progress.tick(len as u64);
            Ok(())
        }
    }
}

/// `Some(m)` when computing `G(0..=to)` would exceed [`LISTING_LIMIT`] while `G(0..=m)` would
/// not; `None` when the request is within the limit.
pub fn feasible_to(game: &Game, to: u64) -> Option<u64> {
    let code = game.code()?;
    let len = usize::try_from(to).ok()?.checked_add(1)?;
    let first_too_long = takebreak::listing_work_exceeds(code, len, LISTING_LIMIT)?;
    Some(first_too_long.saturating_sub(2) as u64)
}

/// Refuses `G(0..=to)` when its memory estimate ([`budget::memory_need`]) exceeds the memory
/// available.
pub fn check_memory(game: &Game, to: u64) -> Result<(), EngineError> {
    budget::check_memory(&TableShape::Sequence { to }, game.code())
}

/// Memory the machine has available (`MemAvailable` from `/proc/meminfo`, else 4 GiB).
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        })
        .unwrap_or(4 << 30)
}

/// `1536` → `"1.5 KiB"`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::game;

    #[test]
    fn chunked_extension_gives_the_same_table_and_can_stop() {
        let opts = EngineOptions::default();
        for text in [
            "octal 0.07",
            "octal 0.16",
            "takebreak 4!.0",
            "move half: x in 1..=n/2 => n - x",
        ] {
            let game = game(text);
            let whole = compute(&game, 20_000, &opts).unwrap();
            let mut table = SgTable::new();
            let mut calls = 0;
            extend_in_chunks(&game, &mut table, 20_000, &opts, &mut |_| {
                calls += 1;
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(table, whole, "{text}");
            assert!(calls >= 2, "{text}: {calls} calls");

            let mut table = SgTable::new();
            let result = extend_in_chunks(&game, &mut table, 20_000, &opts, &mut |t| {
                if t.len() > 5000 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert!(
                matches!(result, Err(EngineError::Interrupted { at }) if at == table.len() as u64),
                "{text}: {result:?}"
            );
            assert_eq!(table, whole.prefix(table.len()), "{text}");
            extend(&game, &mut table, 20_000, &opts).unwrap();
            assert_eq!(table, whole, "{text}");
        }
    }
}
