//! Move generators: what a position is, and where it can move.
//!
//! A position is a tuple of `arity` coordinates (one, the heap size, for a heap game). A move
//! leads to a *sum* of components, each a position of the same game: a take-and-break move
//! leaves several heaps, a rule `=> a, n - a` two, `=> none` nothing. The value rules of
//! [`crate::value`] see a game only through [`MoveGenerator::for_each_option`]; the normal-play
//! kernels read the code or the compiled program directly, for speed.
//!
//! To add a kind of position, add a variant here and its options in
//! [`MoveGenerator::for_each_option`]; every value rule then works on it. The nodes of a
//! directed graph file are one ([`MoveGenerator::Graph`]): a position is one coordinate, the
//! node's index, and node 0 is a node like any other, not an empty heap — a graph is not a heap
//! game ([`MoveGenerator::decreasing`] is false), so its positions are valued by the search
//! that follows moves (and finds cycles).

use std::ops::ControlFlow;

use super::moves;
use crate::graph::Graph;
use crate::rules::program::{Scratch, Stop};
use crate::rules::{Diagnostic, Game, GameKind, Program, Span, TakeBreakCode};

/// Where the positions of a game can move.
#[derive(Clone, Copy, Debug)]
pub enum MoveGenerator<'g> {
    /// A take-and-break code on one heap; its options are listed partition by partition.
    Code(&'g TakeBreakCode),
    /// Compiled move rules on one heap.
    Heap(&'g Program),
    /// Compiled move rules on positions of one or more coordinates (`position (x, y)`).
    Positions(&'g Program),
    /// The nodes of a directed graph file: a position `[v]` moves to `[w]` for each edge
    /// `v → w` (a one-component sum).
    Graph(&'g Graph),
    /// A hackenbush file, whose positions (subgraphs) no generator here lists: every listing
    /// fails ([`crate::value::evaluate::check_request`] refuses it first, typed).
    Hackenbush,
}

impl<'g> MoveGenerator<'g> {
    /// The generator of `game`. General rules that lowered to a code keep their rules here:
    /// the code is the normal-play kernels' business, and both list the same options.
    pub fn of(game: &'g Game) -> Self {
        match &game.kind {
            GameKind::Code { code, .. } => MoveGenerator::Code(code),
            GameKind::General { program, .. } if program.is_position_game() => {
                MoveGenerator::Positions(program)
            }
            GameKind::General { program, .. } => MoveGenerator::Heap(program),
            GameKind::Graph { graph } if graph.hackenbush.is_some() => MoveGenerator::Hackenbush,
            GameKind::Graph { graph } => MoveGenerator::Graph(&graph.graph),
        }
    }

    /// Coordinates per position.
    pub fn arity(&self) -> usize {
        match self {
            MoveGenerator::Positions(program) => program.coordinates().len(),
            _ => 1,
        }
    }

    /// Whether every move leads to components smaller than the position (heap games: each
    /// heap left is smaller than the heap moved from), so that positions can be valued in
    /// increasing order. True exactly for heap games: callers also read it as "a position is a
    /// heap, and 0 the empty game" (never so for a graph's nodes).
    pub fn decreasing(&self) -> bool {
        matches!(self, MoveGenerator::Code(_) | MoveGenerator::Heap(_))
    }

    /// Calls `visit` with the components of every option of `position`, flattened (`arity`
    /// coordinates each). Empty heaps are left out: a heap of 0 is the empty game. An option
    /// found twice (by two rules, or two binder values) is visited twice.
    pub fn for_each_option(
        &self,
        position: &[u64],
        visit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), Diagnostic> {
        match self.for_each_option_within(position, &mut u64::MAX.clone(), visit) {
            Err(Stop::Error(diagnostic)) => Err(diagnostic),
            _ => Ok(()),
        }
    }

    /// The program of compiled rules, if the generator has one.
    pub fn program(&self) -> Option<&'g Program> {
        match self {
            MoveGenerator::Code(_) | MoveGenerator::Graph(_) | MoveGenerator::Hackenbush => None,
            MoveGenerator::Heap(program) | MoveGenerator::Positions(program) => Some(program),
        }
    }

    /// [`MoveGenerator::for_each_option`], spending `budget` (a step per binder value and
    /// move of the rules, per option of a code): [`Stop::OutOfBudget`] when it runs out.
    pub fn for_each_option_within(
        &self,
        position: &[u64],
        budget: &mut u64,
        visit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), Stop> {
        let program = match self {
            MoveGenerator::Code(code) => {
                let options = moves::code_moves(code, position[0]);
                *budget = budget
                    .checked_sub(options.len() as u64)
                    .ok_or(Stop::OutOfBudget)?;
                for heaps in options {
                    visit(&heaps);
                }
                return Ok(());
            }
            MoveGenerator::Graph(graph) => {
                let v = position[0];
                if v >= graph.node_count() as u64 {
                    return Err(Stop::Error(Diagnostic::unlocated(format!(
                        "the graph has no node {v} (its nodes are 0..={})",
                        graph.node_count().saturating_sub(1)
                    ))));
                }
                let successors = graph.successors(v as u32);
                *budget = budget
                    .checked_sub(successors.len() as u64)
                    .ok_or(Stop::OutOfBudget)?;
                for &w in successors {
                    visit(&[u64::from(w)]);
                }
                return Ok(());
            }
            MoveGenerator::Hackenbush => {
                return Err(Stop::Error(Diagnostic::new(
                    "the positions of a hackenbush file are valued by the hackenbush kernel",
                    Span::new(0, 0),
                )));
            }
            MoveGenerator::Heap(program) | MoveGenerator::Positions(program) => program,
        };
        let heap_game = !program.is_position_game();
        let mut components = Vec::new();
        moves::for_each_rule_move(
            program,
            position,
            &mut Scratch::default(),
            budget,
            |_, _, flat| {
                if heap_game {
                    components.clear();
                    components.extend(flat.iter().copied().filter(|&h| h > 0));
                    visit(&components);
                } else {
                    visit(flat);
                }
                ControlFlow::Continue(())
            },
        )
        .or_else(|stop| match stop {
            Stop::Break => Ok(()),
            stop => Err(stop),
        })
    }
}
