//! What valuing a game returns: one typed table per kind of game and play rule
//! ([`Valued`]), asked for by one [`Request`].

use super::evaluate::ValueTable;
use super::loopy::LoopyTable;
use super::misere::MisereTable;
use super::Outcome;
use crate::engine::hackenbush::Hackenbush;
use crate::engine::{EngineOptions, SgTable, Table};
use crate::rules::{Game, GraphGame};
use std::cell::RefCell;
use std::ops::ControlFlow;

/// Called between chunks of a heap game's sequence with the values so far.
pub type BetweenChunks<'a> = dyn Fn(&SgTable) -> ControlFlow<()> + 'a;

/// What to value: the box `0..=extents[i]` of a game's coordinates (a heap game's sequence
/// `0..=extents[0]`); a graph file is valued whole, whatever the extents.
#[derive(Clone)]
pub struct Request<'a> {
    /// The largest value of each coordinate.
    pub extents: Vec<u64>,
    /// How the kernels run (progress).
    pub options: EngineOptions,
    /// Told, as it happens, what the caller should know before the result (or the error) comes:
    /// a change of method such as [`Notice::ValuedAsLoopy`].
    pub notices: Option<&'a dyn Fn(&Notice)>,
    /// Whether normal play of a position game whose moves cycle is valued as a loopy game
    /// ([`Notice::ValuedAsLoopy`]); when false (a caller that needs Sprague–Grundy values, such
    /// as a chart) the cycle is an error, [`crate::engine::EngineError::Cycle`].
    pub loopy_fallback: bool,
    /// A heap game's sequence: the values already computed, `G(0..len)`, to start from (a
    /// checkpoint). The valuation takes them, leaving the cell empty.
    pub start: Option<&'a RefCell<SgTable>>,
    /// A heap game's sequence: called between chunks of the computation with the values so
    /// far (to save checkpoints); [`ControlFlow::Break`] stops it with
    /// [`crate::engine::EngineError::Interrupted`].
    pub between_chunks: Option<&'a BetweenChunks<'a>>,
}

impl<'a> Request<'a> {
    /// A request for the box `0..=extents[i]`, without progress or notices.
    pub fn new(extents: &[u64]) -> Self {
        Request {
            extents: extents.to_vec(),
            options: EngineOptions::default(),
            notices: None,
            loopy_fallback: true,
            start: None,
            between_chunks: None,
        }
    }

    /// Tells the caller `notice`, if it listens.
    pub fn notify(&self, notice: &Notice) {
        if let Some(listener) = self.notices {
            listener(notice);
        }
    }
}

/// Something a valuation tells its caller before its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The moves of a position game cycle (along `cycle`, which ends where it starts), so its
    /// positions are valued as a loopy game instead of by Sprague–Grundy values.
    ValuedAsLoopy {
        /// The positions of a cycle of moves.
        cycle: Vec<Vec<u64>>,
    },
    /// No misère quotient of the heaps up to `largest` was found within a quick attempt, so the
    /// sums of components are searched instead.
    NoQuickQuotient {
        /// The largest heap of the sum.
        largest: u64,
        /// Why the attempt failed.
        reason: String,
    },
    /// The misère search over a sum may need up to `bound` sums of components (`u128::MAX`:
    /// past 10^38), more than the `limit` it may keep.
    ManySums {
        /// The bound on the sums needed ([`crate::solve::misere::sums_bound`]).
        bound: u128,
        /// The most sums the search keeps.
        limit: usize,
    },
}

/// A game's values under one play rule: the one typed table every subcommand and exporter
/// takes.
#[derive(Clone, Debug)]
pub enum Valued {
    /// Normal play of a game that always ends: Sprague–Grundy values of a heap game's sequence
    /// or of a position game's box.
    Normal(Table),
    /// Misère play: each position's normal value, misère value `G⁻` and genus.
    Misere(MisereTable),
    /// A game whose moves can cycle, or a graph file: outcome, remoteness and generalized
    /// Sprague–Grundy value of each position.
    Loopy(LoopyTable),
    /// A green Hackenbush picture: the value above each node and the winning cuts.
    Hackenbush(HackenbushTable),
    /// Any other rule: each position's value as text (empty when the rule has outcomes only)
    /// and its outcome.
    Rule(ValueTable),
}

impl Valued {
    /// The kind of table, as messages name it (`a misère table`).
    pub fn kind(&self) -> TableKind {
        match self {
            Valued::Normal(Table::Sequence { .. }) => TableKind::Sequence,
            Valued::Normal(Table::Box(_)) => TableKind::Box,
            Valued::Misere(_) => TableKind::Misere,
            Valued::Loopy(table) if table.is_graph_file() => TableKind::Graph,
            Valued::Loopy(_) => TableKind::Loopy,
            Valued::Hackenbush(_) => TableKind::Hackenbush,
            Valued::Rule(_) => TableKind::Rule,
        }
    }

    /// The values analyses and charts read: normal play's Sprague–Grundy values, or misère
    /// play's `G⁻` (whose zeros are the misère P-positions); `None` for the other tables.
    pub fn grundy_values(&self) -> Option<Table> {
        match self {
            Valued::Normal(table) => Some(table.clone()),
            Valued::Misere(table) => Some(table.misere_table()),
            _ => None,
        }
    }

    /// Each position's value as text and its outcome, in row-major order over the box (a graph
    /// file's nodes in file order): one view of every kind of table.
    pub fn cells(&self, rule: &'static str) -> ValueTable {
        match self {
            Valued::Normal(table) => ValueTable::new(
                rule,
                table.coordinates().to_vec(),
                table.extents(),
                table
                    .iter()
                    .map(|v| (v.to_string(), Outcome::of_value(v)))
                    .collect(),
            ),
            Valued::Misere(table) => ValueTable::new(
                rule,
                table.coordinates.clone(),
                table.extents.clone(),
                table
                    .cells
                    .iter()
                    .map(|c| (c.genus.misere().to_string(), c.outcome()))
                    .collect(),
            ),
            Valued::Loopy(table) => ValueTable::new(
                rule,
                table.coordinates.clone(),
                // A box's last position is its extents; a graph file's rows are its nodes.
                match table
                    .rows
                    .checked_sub(1)
                    .and_then(|last| table.position(last))
                {
                    Some(last) => last.to_vec(),
                    None => vec![table.rows.saturating_sub(1) as u64],
                },
                (0..table.rows)
                    .map(|v| (table.value(v).to_string(), table.outcome[v]))
                    .collect(),
            )
            .with_names(match table.is_graph_file() {
                true => (0..table.rows)
                    .map(|v| table.name(v).into_owned())
                    .collect(),
                false => Vec::new(),
            }),
            Valued::Hackenbush(table) => {
                let values = table.picture.node_values();
                ValueTable::new(
                    rule,
                    vec!["node".into()],
                    vec![values.len().saturating_sub(1) as u64],
                    values
                        .iter()
                        .map(|v| {
                            let value = v.unwrap_or(0);
                            (value.to_string(), Outcome::of_value(value))
                        })
                        .collect(),
                )
                .with_names(table.names.clone())
            }
            Valued::Rule(table) => table.clone(),
        }
    }
}

/// The kinds of [`Valued`] tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// Normal values of a heap game, `G(0..=n)`.
    Sequence,
    /// Normal values of a box of positions.
    Box,
    /// Misère values and genera.
    Misere,
    /// Loopy values (outcome, remoteness, generalized Sprague–Grundy value) of positions.
    Loopy,
    /// Loopy values of a graph file's nodes.
    Graph,
    /// Green Hackenbush values.
    Hackenbush,
    /// The values and outcomes of another rule.
    Rule,
}

impl std::fmt::Display for TableKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TableKind::Sequence => "a heap game's table",
            TableKind::Box => "a position game's box",
            TableKind::Misere => "a misère table",
            TableKind::Loopy => "a loopy game's table",
            TableKind::Graph => "a graph file's table",
            TableKind::Hackenbush => "a Hackenbush picture's table",
            TableKind::Rule => "a value rule's table",
        })
    }
}

/// A green Hackenbush picture with its nodes' names.
#[derive(Clone, Debug)]
pub struct HackenbushTable {
    /// The picture, valued.
    pub picture: Hackenbush,
    /// Each node's name, as the file spells it.
    pub names: Vec<String>,
}

/// The green Hackenbush picture of a `hackenbush` graph file, its memory checked first
/// ([`crate::engine::budget::HACKENBUSH_COST`] per node and edge).
pub fn hackenbush_of(
    graph: &GraphGame,
    ground: u32,
) -> Result<Hackenbush, crate::engine::EngineError> {
    crate::engine::budget::check_graph(
        graph.node_count(),
        graph.undirected.len(),
        crate::engine::budget::HACKENBUSH_COST,
    )?;
    Hackenbush::new(graph.node_count(), graph.undirected.clone(), ground)
        .map_err(|e| crate::engine::EngineError::Request(e.to_string()))
}

/// The rule a game is valued by when none is named: its file's `play` line, else normal play.
pub fn default_rule(game: &Game) -> &'static str {
    match game.play {
        Some((crate::rules::Play::Misere, _)) => "misere",
        _ => "normal",
    }
}
