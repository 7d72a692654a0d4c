//! A game whose moves can cycle, valued position by position: its positions become the nodes
//! of an explicit [`Graph`] (a move to one position is an edge; a move that leaves nothing is
//! an edge to a terminal node), which [`retrograde`] and [`gamma`](super::gamma) then value.
//!
//! The positions are a graph file's nodes, every position of a box (whose moves must stay in
//! it), or the positions reachable from given ones (for `solve`). A move to a sum of several
//! positions has no place in such a graph: Smith's theory values sums of tokens, not moves that
//! split one, so such a move is refused.

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::gsg::gamma_within;
use super::{retrograde, LoopyValue};
use crate::engine::budget;
use crate::engine::generator::MoveGenerator;
use crate::engine::moves;
use crate::engine::multi::show_position;
use crate::engine::{BoxShape, EngineError, EngineOptions, Hint};
use crate::graph::Graph;
use crate::rules::program::Scratch;
use crate::rules::{Diagnostic, Game, GraphGame};
use crate::value::evaluate;
use crate::value::Outcome;

/// The most positions [`LoopyTable::reachable`] explores before it refuses.
pub const MAX_REACHABLE: usize = 10_000_000;

/// Every position of a loopy game with its outcome, remoteness and generalized SG value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopyTable {
    /// The coordinates' names (`["node"]` for a graph file).
    pub coordinates: Vec<String>,
    /// Each node's name as printed: a graph file's node names, `7` or `(1, 2)` for positions.
    pub names: Vec<String>,
    /// Each node's coordinates, for the positions of a rules file (empty for a graph file).
    pub positions: Vec<Vec<u64>>,
    /// The nodes shown as rows: the first `rows` (a terminal node standing for "no position
    /// left", when a move leaves nothing, comes after them).
    pub rows: usize,
    /// The moves between the nodes.
    pub graph: Graph,
    /// The outcome of each node with the player to move.
    pub outcome: Vec<Outcome>,
    /// Smith's remoteness (`None` for draws).
    pub remoteness: Vec<Option<u32>>,
    /// The generalized Sprague–Grundy value.
    pub values: Vec<LoopyValue>,
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
            names,
            Vec::new(),
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
        let mut explorer = Explorer::new(game, generator, None);
        for position in BoxShape::new(extents).positions() {
            explorer.node(&position);
        }
        explorer.bounded = Some(extents.to_vec());
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
        let mut explorer = Explorer::new(game, generator, None);
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
        let mut explorer = Explorer::new(game, MoveGenerator::of(game), None);
        explorer.limit = limit.min(MAX_REACHABLE);
        for start in starts {
            explorer.node(start);
        }
        explorer.explore_all()?;
        Ok(explorer.positions.len())
    }

    /// The node of a position (or of a graph file's node name), if the table has it.
    pub fn node_of(&self, position: &[u64]) -> Option<u32> {
        self.positions
            .iter()
            .position(|p| p == position)
            .map(|i| i as u32)
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
        names: Vec<String>,
        positions: Vec<Vec<u64>>,
        rows: usize,
        graph: Graph,
        options: &EngineOptions,
    ) -> Result<LoopyTable, EngineError> {
        let analysis = retrograde(&graph);
        let values =
            gamma_within(&graph, budget::steps_limit(), options.progress.clone())?.values(&graph);
        Ok(LoopyTable {
            coordinates,
            names,
            positions,
            rows,
            outcome: analysis.outcome,
            remoteness: analysis.remoteness,
            values,
            graph,
        })
    }
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

/// Builds the graph of a rules file's positions, breadth first.
struct Explorer<'g> {
    game: &'g Game,
    generator: MoveGenerator<'g>,
    /// A box every move must stay in, or `None` to add every position reached.
    bounded: Option<Vec<u64>>,
    index: HashMap<Vec<u64>, u32>,
    positions: Vec<Vec<u64>>,
    edges: Vec<(u32, u32)>,
    /// Moves that leave no position, from these nodes.
    to_nothing: Vec<u32>,
    next: usize,
    /// The most positions added when `bounded` is `None`.
    limit: usize,
}

impl<'g> Explorer<'g> {
    fn new(game: &'g Game, generator: MoveGenerator<'g>, bounded: Option<Vec<u64>>) -> Self {
        Explorer {
            game,
            generator,
            bounded,
            index: HashMap::new(),
            positions: Vec::new(),
            edges: Vec::new(),
            to_nothing: Vec::new(),
            next: 0,
            limit: MAX_REACHABLE,
        }
    }

    fn node(&mut self, position: &[u64]) -> u32 {
        if let Some(&v) = self.index.get(position) {
            return v;
        }
        let v = self.positions.len() as u32;
        self.index.insert(position.to_vec(), v);
        self.positions.push(position.to_vec());
        v
    }

    fn explore_all(&mut self) -> Result<(), EngineError> {
        let arity = self.generator.arity();
        while self.next < self.positions.len() {
            let v = self.next as u32;
            self.next += 1;
            let position = self.positions[v as usize].clone();
            let mut options: Vec<Vec<u64>> = Vec::new();
            self.generator
                .for_each_option(&position, &mut |flat| options.push(flat.to_vec()))
                .map_err(|diagnostic| EngineError::rule(self.game, diagnostic))?;
            for option in options {
                match option.len() / arity.max(1) {
                    0 => self.to_nothing.push(v),
                    1 => {
                        let w = match (&self.bounded, self.index.get(&option)) {
                            (_, Some(&w)) => w,
                            (Some(extents), None) => {
                                return Err(self.outside(&position, &option, extents));
                            }
                            (None, None) => {
                                if self.positions.len() >= self.limit {
                                    return Err(EngineError::Refused {
                                        message: format!(
                                            "more than {} positions are reachable",
                                            self.limit
                                        ),
                                        hint: Hint::FewerReachablePositions,
                                    });
                                }
                                self.node(&option)
                            }
                        };
                        self.edges.push((v, w));
                    }
                    _ => {
                        return Err(EngineError::Refused {
                            message: format!(
                                "a move from {} leaves a sum of several positions, and the moves of this game can cycle",
                                show(&position)
                            ),
                            hint: Hint::OneToken,
                        });
                    }
                }
            }
        }
        Ok(())
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
        let rows = self.positions.len();
        let mut node_count = rows;
        if !self.to_nothing.is_empty() {
            // One terminal node for "nothing left", after the rows.
            let nothing = rows as u32;
            node_count += 1;
            self.edges
                .extend(self.to_nothing.iter().map(|&v| (v, nothing)));
        }
        let graph = Graph::from_edges(node_count, &self.edges);
        let mut names: Vec<String> = self.positions.iter().map(|p| show(p)).collect();
        if node_count > rows {
            names.push("nothing".into());
        }
        LoopyTable::valued(
            self.game.coordinates(),
            names,
            self.positions,
            rows,
            graph,
            options,
        )
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
