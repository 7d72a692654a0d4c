//! A game whose moves can cycle, valued position by position: its positions become the nodes
//! of an explicit [`Graph`] (a move to one position is an edge; a move that leaves nothing is
//! an edge to a terminal node), which [`retrograde`](super::retrograde) and
//! [`gamma`](super::gamma) then value.
//!
//! The positions are a graph file's nodes, every position of a box (whose moves must stay in
//! it), or the positions reachable from given ones (for `solve`). A move to a sum of several
//! positions has no place in such a graph: Smith's theory values sums of tokens, not moves that
//! split one, so such a move is refused.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::{ControlFlow, Range};

use rayon::prelude::*;

use super::gsg::gamma_with;
use super::induction::{small_counters, Counter, Predecessors};
use super::retrograde::{retrograde_with, Outcomes, DRAWN};
use super::{Gamma, LoopyValue};
use crate::engine::budget;
use crate::engine::generator::MoveGenerator;
use crate::engine::jit::{self, Kernel};
use crate::engine::moves;
use crate::engine::multi::show_position;
use crate::engine::{BoxShape, EngineError, EngineOptions, Hint};
use crate::graph::Graph;
use crate::rules::program::{Scratch, Stop};
use crate::rules::{Diagnostic, Game, GraphGame};
use crate::value::evaluate;
use crate::value::Outcome;

/// The most positions [`LoopyTable::reachable`] explores before it refuses.
pub const MAX_REACHABLE: usize = 10_000_000;

/// Every position of a loopy game with its outcome, remoteness and generalized SG value.
///
/// Stored compactly, because a box holds millions of positions: the coordinates flat, the
/// values as [`Gamma`]'s labels (the set `K` of an `∞(K)` read off the successors when asked
/// for), the names of a rules file's positions made when asked for. Allocating a `Vec` per
/// position, a `String` per name and a `Vec` per `∞(K)` cost ten times the analysis itself on
/// a table of 3·10⁶ positions (issue 27).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopyTable {
    /// The coordinates' names (`["node"]` for a graph file).
    pub coordinates: Vec<String>,
    /// A graph file's node names, or the positions of a rules file.
    nodes: Nodes,
    /// The nodes shown as rows: the first `rows` (a terminal node standing for "no position
    /// left", when a move leaves nothing, comes after them).
    pub rows: usize,
    /// The moves between the nodes.
    pub graph: Graph,
    /// The outcome of each node with the player to move.
    pub outcome: Vec<Outcome>,
    /// Smith's remoteness, [`DRAWN`] for draws (see [`LoopyTable::remoteness`]).
    remoteness: Vec<u32>,
    /// The generalized Sprague–Grundy values, in compact form.
    gamma: Gamma,
}

/// What the rows of a [`LoopyTable`] are.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Nodes {
    /// A graph file's nodes, by name.
    Graph(Vec<String>),
    /// The positions of a rules file, `arity` coordinates each, flat (one per row).
    Positions { arity: usize, flat: Vec<u64> },
    /// Every position of a box, in row-major order: a row's coordinates are its index's digits
    /// (not stored: 24 MB, and as many page faults, on a box of 3·10⁶ positions).
    Box(BoxShape),
}

impl LoopyTable {
    /// The nodes of a graph file, valued; refused before any work when the memory it needs
    /// ([`budget::LOOPY_GRAPH_COST`]) is more than is available.
    pub fn of_graph(graph: &GraphGame) -> Result<LoopyTable, EngineError> {
        LoopyTable::of_graph_with(graph, &EngineOptions::default())
    }

    /// [`LoopyTable::of_graph`], reporting progress to `options.progress`.
    pub fn of_graph_with(
        graph: &GraphGame,
        options: &EngineOptions,
    ) -> Result<LoopyTable, EngineError> {
        let rows = graph.node_count();
        budget::check_graph(rows, graph.edge_count(), budget::LOOPY_GRAPH_COST)?;
        let names = (0..rows as u32)
            .map(|v| graph.name(v).to_string())
            .collect();
        LoopyTable::valued(
            vec!["node".into()],
            Nodes::Graph(names),
            rows,
            graph.graph.clone(),
            options,
        )
    }

    /// Every position of the box `0..=extents[i]` of a rules file, valued; a move that leaves
    /// the box is an error that names it (ask for a larger box).
    pub fn of_box(game: &Game, extents: &[u64]) -> Result<LoopyTable, EngineError> {
        LoopyTable::of_box_with(game, extents, &EngineOptions::default())
    }

    /// [`LoopyTable::of_box`], reporting progress to `options.progress`.
    pub fn of_box_with(
        game: &Game,
        extents: &[u64],
        options: &EngineOptions,
    ) -> Result<LoopyTable, EngineError> {
        let generator = evaluate::check_request(game, extents)?;
        let mut explorer = Explorer::new(game, generator, Index::Box(BoxShape::new(extents)));
        explorer.explore_all()?;
        explorer.finish(options)
    }

    /// The positions reachable from `starts` (each a position of `game`), valued; refused
    /// past [`MAX_REACHABLE`] positions.
    pub fn reachable(game: &Game, starts: &[Vec<u64>]) -> Result<LoopyTable, EngineError> {
        LoopyTable::reachable_with(game, starts, &EngineOptions::default())
    }

    /// [`LoopyTable::reachable`], reporting progress to `options.progress`.
    pub fn reachable_with(
        game: &Game,
        starts: &[Vec<u64>],
        options: &EngineOptions,
    ) -> Result<LoopyTable, EngineError> {
        LoopyTable::explored(game, starts, MAX_REACHABLE, options)
    }

    /// [`LoopyTable::reachable`], refused past `limit` positions (at most [`MAX_REACHABLE`]).
    pub fn reachable_within(
        game: &Game,
        starts: &[Vec<u64>],
        limit: usize,
    ) -> Result<LoopyTable, EngineError> {
        LoopyTable::explored(game, starts, limit, &EngineOptions::default())
    }

    fn explored(
        game: &Game,
        starts: &[Vec<u64>],
        limit: usize,
        options: &EngineOptions,
    ) -> Result<LoopyTable, EngineError> {
        let generator = MoveGenerator::of(game);
        let mut explorer = Explorer::new(game, generator, Index::Reached(HashMap::new()));
        explorer.limit = limit.min(MAX_REACHABLE);
        for start in starts {
            explorer.node(start);
        }
        explorer.explore_all()?;
        explorer.finish(options)
    }

    /// The positions reachable from `starts`, listed but not valued (their number): every rule
    /// error among them found, refused past `limit` positions (at most [`MAX_REACHABLE`]).
    /// `check` lists a loopy game's positions this way, whatever the size of its board.
    pub fn explore_within(
        game: &Game,
        starts: &[Vec<u64>],
        limit: usize,
    ) -> Result<usize, EngineError> {
        let mut explorer = Explorer::new(
            game,
            MoveGenerator::of(game),
            Index::Reached(HashMap::new()),
        );
        explorer.limit = limit.min(MAX_REACHABLE);
        for start in starts {
            explorer.node(start);
        }
        explorer.explore_all()?;
        Ok(explorer.len())
    }

    /// The node of a position, if the table has it (`None` for a graph file's table).
    pub fn node_of(&self, position: &[u64]) -> Option<u32> {
        match &self.nodes {
            Nodes::Graph(_) => None,
            Nodes::Positions { arity, flat } => flat
                .chunks_exact((*arity).max(1))
                .position(|p| p == position)
                .map(|i| i as u32),
            Nodes::Box(shape) => shape.index(position).map(|i| i as u32),
        }
    }

    /// Whether the rows are a graph file's nodes (else the positions of a rules file).
    pub fn is_graph_file(&self) -> bool {
        matches!(self.nodes, Nodes::Graph(_))
    }

    /// The coordinates of row `v`, for the positions of a rules file (`None` for a graph
    /// file's node, or the terminal node "nothing" after the rows).
    pub fn position(&self, v: usize) -> Option<Vec<u64>> {
        let mut position = Vec::new();
        self.write_position(v, &mut position).then_some(position)
    }

    /// [`LoopyTable::position`] into `out` (cleared first), without an allocation once `out`
    /// has room: what the CSV writer calls per row. `false` (and `out` empty) for a graph
    /// file's node or the terminal node.
    pub fn write_position(&self, v: usize, out: &mut Vec<u64>) -> bool {
        out.clear();
        if v >= self.rows {
            return false;
        }
        match &self.nodes {
            Nodes::Graph(_) => return false,
            Nodes::Positions { arity, flat } => {
                out.extend_from_slice(&flat[v * arity..(v + 1) * arity]);
            }
            Nodes::Box(shape) => shape.write_position(v, out),
        }
        true
    }

    /// Node `v`'s name as printed: a graph file's node name, `7` or `(1, 2)` for a position,
    /// `nothing` for the terminal node after the rows.
    pub fn name(&self, v: usize) -> Cow<'_, str> {
        match &self.nodes {
            Nodes::Graph(names) => Cow::Borrowed(names.get(v).map_or("", String::as_str)),
            Nodes::Positions { .. } | Nodes::Box(_) => match self.position(v) {
                Some(position) => Cow::Owned(show(&position)),
                None => Cow::Borrowed("nothing"),
            },
        }
    }

    /// `γ` of node `v`: `Finite(m)` or `Infinite(K)` (see [`Gamma::value`]).
    pub fn value(&self, v: usize) -> LoopyValue {
        self.gamma.value(&self.graph, v as u32)
    }

    /// `γ` of every node, rows first.
    pub fn values(&self) -> Vec<LoopyValue> {
        self.gamma.values(&self.graph)
    }

    /// `Some(m)` when `γ(v) = m` is finite, `None` when it is ∞ (without building the
    /// [`LoopyValue`]: what the CSV writer asks per row).
    pub fn finite_value(&self, v: usize) -> Option<u32> {
        self.gamma.finite(v as u32)
    }

    /// Appends `γ(v)` in its [`fmt::Display`](std::fmt::Display) form (`3`, `inf{0,2}`) to
    /// `out`, without building the [`LoopyValue`]: what the CSV writer calls per row.
    pub fn push_value(&self, v: usize, out: &mut Vec<u8>, scratch: &mut Vec<u32>) {
        self.gamma.push_value(&self.graph, v as u32, out, scratch);
    }

    /// The set `K` of node `v`'s value `∞(K)` as a bit mask (bit `m` for `m` in `K`), when
    /// every member is below 64 (for a finite value, the finite values of its options: not
    /// what the value means).
    pub fn infinite_mask(&self, v: usize) -> Option<u64> {
        self.gamma.infinite_mask(&self.graph, v as u32)
    }

    /// The box whose positions are the rows, in row-major order (`None` for a graph file and
    /// for positions reached from a start).
    pub fn box_shape(&self) -> Option<&BoxShape> {
        match &self.nodes {
            Nodes::Box(shape) => Some(shape),
            _ => None,
        }
    }

    /// Smith's remoteness of node `v` (`None` for a draw).
    pub fn remoteness(&self, v: usize) -> Option<u32> {
        self.remoteness.get(v).filter(|&&r| r != DRAWN).copied()
    }

    /// How many rows are P, N and D.
    pub fn counts(&self) -> [usize; 3] {
        let mut counts = [0; 3];
        for outcome in &self.outcome[..self.rows] {
            counts[match outcome {
                Outcome::P => 0,
                Outcome::N => 1,
                Outcome::D => 2,
            }] += 1;
        }
        counts
    }

    fn valued(
        coordinates: Vec<String>,
        nodes: Nodes,
        rows: usize,
        graph: Graph,
        options: &EngineOptions,
    ) -> Result<LoopyTable, EngineError> {
        let (analysis, gamma) = match small_counters(&graph) {
            true => analyse::<u32>(&graph, options),
            false => analyse::<u64>(&graph, options),
        };
        Ok(LoopyTable {
            coordinates,
            nodes,
            rows,
            outcome: analysis.outcome,
            remoteness: analysis.remoteness,
            gamma: gamma?,
            graph,
        })
    }
}

/// The outcomes and remoteness of the nodes of `graph`, and their γ values, with edges counted
/// in `C`.
fn analyse<C: Counter>(
    graph: &Graph,
    options: &EngineOptions,
) -> (Outcomes, Result<Gamma, EngineError>) {
    // The two analyses read the same graph and predecessors and nothing of each other: they run
    // side by side.
    let preds = Predecessors::<C>::of(graph);
    rayon::join(
        || retrograde_with(graph, &preds),
        || {
            gamma_with(
                graph,
                &preds,
                budget::steps_limit(),
                options.progress.clone(),
            )
        },
    )
}

/// Normal play of games that can cycle, as a value rule (registered as `loopy`): each position's
/// generalized Sprague–Grundy value (`3`, `inf{0,2}`) and its outcome P, N or D. On a game that
/// always ends it gives the Sprague–Grundy values of [`crate::value::Normal`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Loopy;

impl crate::value::DynRule for Loopy {
    fn name(&self) -> &'static str {
        "loopy"
    }

    fn about(&self) -> &'static str {
        "games that can cycle: outcome P, N or D, remoteness, generalized Sprague–Grundy value"
    }

    fn kind(&self, game: &Game) -> crate::value::TableKind {
        match game.graph() {
            Some(_) => crate::value::TableKind::Graph,
            None => crate::value::TableKind::Loopy,
        }
    }

    fn value(
        &self,
        game: &Game,
        request: &crate::value::Request<'_>,
    ) -> Result<crate::value::Valued, EngineError> {
        Ok(crate::value::Valued::Loopy(match game.graph() {
            Some(graph) => LoopyTable::of_graph_with(graph, &request.options)?,
            None => LoopyTable::of_box_with(game, &request.extents, &request.options)?,
        }))
    }
}

/// The edge to the terminal node "nothing" while the graph is built (it becomes the node after
/// the rows once their number is known).
const NOTHING: u32 = u32::MAX;

/// The boxes from which [`Explorer`] lists the moves on every thread: below, one thread is
/// faster than handing out the work.
const PARALLEL_FROM: usize = 1 << 16;
/// The nodes a chunk lists before it makes room for the rest's successors.
const DEGREE_SAMPLE: usize = 1024;

/// The successors of a run of a box's nodes, listed by one thread.
struct Chunk {
    /// 0, then where each node's successors end in `targets` (CSR offsets).
    ends: Vec<usize>,
    targets: Vec<u32>,
    /// Whether a move leaves no position.
    to_nothing: bool,
}

/// How [`Explorer`] finds the node of a position.
enum Index {
    /// Every position of a box, numbered in row-major order: a node is its flat index, which
    /// [`BoxShape::index`] computes in a few multiplications (a hash map keyed by `Vec<u64>`
    /// cost an allocation and a SipHash per position and per move).
    Box(BoxShape),
    /// The positions reached so far, numbered in the order they were reached.
    Reached(HashMap<Vec<u64>, u32>),
}

/// Builds the graph of a rules file's positions, breadth first, straight into the CSR arrays
/// of a [`Graph`]: the nodes are listed in order and each one's moves once, so its successors
/// are appended as they come (no list of `(tail, head)` pairs to sort by tail).
struct Explorer<'g> {
    game: &'g Game,
    generator: MoveGenerator<'g>,
    index: Index,
    arity: usize,
    /// The positions reached, `arity` coordinates each (none for a box, whose positions are
    /// its indices' digits).
    positions: Vec<u64>,
    /// `offsets[v]..offsets[v + 1]` indexes node `v`'s successors in `targets` (CSR).
    offsets: Vec<usize>,
    targets: Vec<u32>,
    /// Whether some move leaves no position ([`NOTHING`] in `targets`).
    to_nothing: bool,
    /// The most positions added when exploring (not a box).
    limit: usize,
}

impl<'g> Explorer<'g> {
    fn new(game: &'g Game, generator: MoveGenerator<'g>, index: Index) -> Self {
        let arity = generator.arity();
        Explorer {
            game,
            generator,
            index,
            arity,
            positions: Vec::new(),
            offsets: vec![0],
            targets: Vec::new(),
            to_nothing: false,
            limit: MAX_REACHABLE,
        }
    }

    /// The number of positions known.
    fn len(&self) -> usize {
        match &self.index {
            Index::Box(shape) => shape.len(),
            Index::Reached(_) => self.positions.len() / self.arity.max(1),
        }
    }

    fn position(&self, v: usize) -> &[u64] {
        &self.positions[v * self.arity..(v + 1) * self.arity]
    }

    /// The node of a reached position, added if new (the box's nodes are all there already).
    fn node(&mut self, position: &[u64]) -> u32 {
        match &mut self.index {
            Index::Box(shape) => shape.index(position).expect("a start in the box") as u32,
            Index::Reached(index) => {
                if let Some(&v) = index.get(position) {
                    return v;
                }
                let v = (self.positions.len() / self.arity.max(1)) as u32;
                index.insert(position.to_vec(), v);
                self.positions.extend_from_slice(position);
                v
            }
        }
    }

    fn explore_all(&mut self) -> Result<(), EngineError> {
        if let Index::Box(shape) = &self.index {
            // Every node is known up front and each one's moves depend on it alone: the box is
            // cut into one run of nodes per thread, listed side by side. The chunks are joined
            // in node order and the first chunk's error wins, so the graph and any error are
            // those of a listing in node order.
            let len = shape.len();
            let parts = if len >= PARALLEL_FROM {
                rayon::current_num_threads().clamp(1, 64)
            } else {
                1
            };
            let chunk_len = len.div_ceil(parts);
            let this = &*self;
            // The rules in machine code, when they compile: each node's options listed by
            // native loops, the interpreter only for what they hand back.
            let lister = match self.generator {
                MoveGenerator::Positions(program) if len >= PARALLEL_FROM => {
                    Kernel::compile_box_lister(program, shape.extents(), shape.strides())
                }
                _ => None,
            };
            let chunks: Vec<Result<Chunk, EngineError>> = (0..parts)
                .into_par_iter()
                .map(|part| {
                    let start = (part * chunk_len).min(len);
                    this.list_box(shape, start..(start + chunk_len).min(len), lister.as_ref())
                })
                .collect();
            let chunks = chunks.into_iter().collect::<Result<Vec<Chunk>, _>>()?;
            let mut chunks = chunks.into_iter();
            let Some(first) = chunks.next() else {
                return Ok(());
            };
            // The first chunk's lists become the graph's, without a copy; the others' are
            // copied after them on every thread (the first touch of their pages is most of it).
            let rest: Vec<Chunk> = chunks.collect();
            let targets: usize = rest.iter().map(|chunk| chunk.targets.len()).sum();
            let ends: usize = rest.iter().map(|chunk| chunk.ends.len() - 1).sum();
            self.targets = first.targets;
            self.offsets = first.ends;
            self.to_nothing = first.to_nothing;
            self.targets.reserve_exact(targets);
            self.offsets.reserve_exact(ends);
            for chunk in &rest {
                let base = self.targets.len();
                copy_parallel(&mut self.targets, &chunk.targets, |&w| w);
                copy_parallel(&mut self.offsets, &chunk.ends[1..], |&end| base + end);
                self.to_nothing |= chunk.to_nothing;
            }
            return Ok(());
        }
        let arity = self.arity.max(1);
        // One listing's options, flat, and where each ends: reused from node to node.
        let mut flat: Vec<u64> = Vec::new();
        let mut ends: Vec<usize> = Vec::new();
        let mut scratch = Scratch::default();
        let mut position: Vec<u64> = Vec::with_capacity(arity);
        let mut v = 0;
        while v < self.len() {
            position.clear();
            position.extend_from_slice(self.position(v));
            flat.clear();
            ends.clear();
            self.list(&position, &mut scratch, &mut flat, &mut ends)?;
            let mut nothing = 0;
            let mut start = 0;
            for &end in &ends {
                let option = &flat[start..end];
                start = end;
                match option.len() / arity {
                    0 => nothing += 1,
                    1 => {
                        let w = match &self.index {
                            Index::Box(_) => unreachable!("a box is listed by list_box"),
                            Index::Reached(index) => match index.get(option) {
                                Some(&w) => w,
                                None => {
                                    if self.len() >= self.limit {
                                        return Err(EngineError::Refused {
                                            message: format!(
                                                "more than {} positions are reachable",
                                                self.limit
                                            ),
                                            hint: Hint::FewerReachablePositions,
                                        });
                                    }
                                    self.node(option)
                                }
                            },
                        };
                        self.targets.push(w);
                    }
                    _ => return Err(several(&position)),
                }
            }
            // Moves that leave nothing come after the node's other moves, as they always have.
            if nothing > 0 {
                self.to_nothing = true;
                self.targets.extend(std::iter::repeat_n(NOTHING, nothing));
            }
            self.offsets.push(self.targets.len());
            v += 1;
        }
        Ok(())
    }

    /// The successors of the box's nodes `nodes`, in order: a node's options each at its flat
    /// index, its moves that leave nothing last ([`NOTHING`]).
    fn list_box(
        &self,
        shape: &BoxShape,
        nodes: Range<usize>,
        lister: Option<&Kernel>,
    ) -> Result<Chunk, EngineError> {
        let arity = self.arity.max(1);
        let mut offsets = Vec::with_capacity(nodes.len() + 1);
        offsets.push(0);
        let mut chunk = Chunk {
            ends: offsets,
            targets: Vec::with_capacity(nodes.len()),
            to_nothing: false,
        };
        let (mut flat, mut ends, mut scratch) = (Vec::new(), Vec::new(), Scratch::default());
        let mut compiled_scratch = jit::Scratch::default();
        let (first, count) = (nodes.start, nodes.len());
        // The position of node `v`, stepped along in row-major order.
        let mut position = Vec::with_capacity(arity);
        shape.write_position(first, &mut position);
        for v in nodes {
            if v > first {
                shape.step(&mut position);
            }
            if v - first == DEGREE_SAMPLE && count > 2 * DEGREE_SAMPLE {
                // Room for the rest at the degree seen so far (and a tenth more), so that the
                // targets are not copied again and again as they grow.
                let per_node = chunk.targets.len().div_ceil(DEGREE_SAMPLE);
                let rest = (count - DEGREE_SAMPLE) * per_node;
                chunk.targets.reserve(rest + rest / 10);
            }
            let position = &position[..];
            // Unmetered, as the interpreter's listing below.
            let listed = lister
                .and_then(|lister| lister.box_options(position, u64::MAX, &mut compiled_scratch));
            if let Some((options, _)) = listed {
                // One at a time: a node has a few options, fewer than a call to `memcpy` costs.
                for &w in options {
                    chunk.targets.push(w);
                }
                chunk.ends.push(chunk.targets.len());
                continue;
            }
            flat.clear();
            ends.clear();
            self.list(position, &mut scratch, &mut flat, &mut ends)?;
            let mut nothing = 0;
            let mut start = 0;
            for &end in &ends {
                let option = &flat[start..end];
                start = end;
                match option.len() / arity {
                    0 => nothing += 1,
                    1 => match shape.index(option) {
                        Some(w) => chunk.targets.push(w as u32),
                        None => return Err(self.outside(position, option, shape.extents())),
                    },
                    _ => return Err(several(position)),
                }
            }
            if nothing > 0 {
                chunk.to_nothing = true;
                chunk.targets.extend(std::iter::repeat_n(NOTHING, nothing));
            }
            chunk.ends.push(chunk.targets.len());
        }
        Ok(chunk)
    }

    /// Lists the options of `position` into `flat`, the end of each in `ends`, as
    /// [`MoveGenerator::for_each_option`] gives them (a heap game's empty heaps left out). The
    /// rules of a program are run directly with one [`Scratch`] for the whole exploration.
    fn list(
        &self,
        position: &[u64],
        scratch: &mut Scratch,
        flat: &mut Vec<u64>,
        ends: &mut Vec<usize>,
    ) -> Result<(), EngineError> {
        let error = |stop| match stop {
            Stop::Error(diagnostic) => Err(EngineError::rule(self.game, diagnostic)),
            Stop::Break | Stop::OutOfBudget => Ok(()),
        };
        match self.generator {
            MoveGenerator::Heap(program) | MoveGenerator::Positions(program) => {
                let heap_game = !program.is_position_game();
                moves::for_each_rule_move(
                    program,
                    position,
                    scratch,
                    &mut u64::MAX.clone(),
                    |_, _, components| {
                        if heap_game {
                            flat.extend(components.iter().copied().filter(|&h| h > 0));
                        } else {
                            flat.extend_from_slice(components);
                        }
                        ends.push(flat.len());
                        ControlFlow::Continue(())
                    },
                )
                .or_else(error)
            }
            generator => generator
                .for_each_option(position, &mut |components| {
                    flat.extend_from_slice(components);
                    ends.push(flat.len());
                })
                .map_err(|diagnostic| EngineError::rule(self.game, diagnostic)),
        }
    }

    /// The error for a move from `position` to `option`, outside the box: located at the
    /// rule that makes it when the rules are compiled ones.
    fn outside(&self, position: &[u64], option: &[u64], extents: &[u64]) -> EngineError {
        let message = format!(
            "a move from {} leads to {}, outside the table {}",
            show(position),
            show(option),
            box_text(extents)
        );
        let help = "the moves can cycle, so every position a move reaches must be in the table: ask for a larger --to (or bound the moves in the rules)";
        let rule = self.generator.program().and_then(|program| {
            let mut found = None;
            let _ = moves::for_each_rule_move(
                program,
                position,
                &mut Scratch::default(),
                &mut u64::MAX.clone(),
                |rule, _, flat| {
                    if flat == option {
                        found = Some(rule);
                        return ControlFlow::Break(());
                    }
                    ControlFlow::Continue(())
                },
            );
            found.map(|rule| program.rule_span(rule))
        });
        match rule {
            Some(span) => EngineError::Rule {
                diagnostic: Box::new(
                    Diagnostic::new(message, span)
                        .with_label("this move leaves the table")
                        .with_help(help),
                ),
                file: Box::new(self.game.source.clone()),
            },
            None => EngineError::Refused {
                message,
                hint: Hint::LoopyBoxLeft,
            },
        }
    }

    fn finish(mut self, options: &EngineOptions) -> Result<LoopyTable, EngineError> {
        let rows = self.len();
        let mut node_count = rows;
        if self.to_nothing {
            // One terminal node for "nothing left", after the rows.
            node_count += 1;
            for w in &mut self.targets {
                if *w == NOTHING {
                    *w = rows as u32;
                }
            }
            self.offsets.push(self.targets.len());
        }
        let graph = Graph::from_listed_csr(self.offsets, self.targets);
        debug_assert_eq!(graph.node_count(), node_count);
        LoopyTable::valued(
            self.game.coordinates(),
            match self.index {
                Index::Box(shape) => Nodes::Box(shape),
                Index::Reached(_) => Nodes::Positions {
                    arity: self.arity,
                    flat: self.positions,
                },
            },
            rows,
            graph,
            options,
        )
    }
}

/// Appends `f` of each of `from` to `to` (with room for them), a run a task on every thread:
/// the first touch of the new pages, and the copy, in parallel.
fn copy_parallel<T: Copy + Send + Sync, U: Send>(
    to: &mut Vec<U>,
    from: &[T],
    f: impl Fn(&T) -> U + Sync,
) {
    const RUN: usize = 1 << 16;
    let len = to.len();
    to.reserve(from.len());
    to.spare_capacity_mut()[..from.len()]
        .par_chunks_mut(RUN)
        .zip(from.par_chunks(RUN))
        .for_each(|(out, from)| {
            for (slot, x) in out.iter_mut().zip(from) {
                slot.write(f(x));
            }
        });
    // SAFETY: the `from.len()` entries after `len` were written above.
    unsafe { to.set_len(len + from.len()) };
}

/// The refusal of a move from `position` that leaves several positions.
fn several(position: &[u64]) -> EngineError {
    EngineError::Refused {
        message: format!(
            "a move from {} leaves a sum of several positions, and the moves of this game can cycle",
            show(position)
        ),
        hint: Hint::OneToken,
    }
}

/// `7` for one coordinate, `(1, 2)` for more.
fn show(position: &[u64]) -> String {
    if position.len() == 1 {
        position[0].to_string()
    } else {
        show_position(position)
    }
}

/// `0..=10` or `0..=3 × 0..=5`.
fn box_text(extents: &[u64]) -> String {
    extents
        .iter()
        .map(|e| format!("0..={e}"))
        .collect::<Vec<_>>()
        .join(" × ")
}
