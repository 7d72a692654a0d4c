//! A green Hackenbush picture solved: its value and every winning cut, found by the top-down
//! pass of [`crate::engine::hackenbush`] within the work budget.

use crate::engine::hackenbush::{Cuts, Hackenbush};
use crate::engine::EngineError;
use crate::rules::GraphGame;

/// A Hackenbush position's value, who wins and its winning cuts.
#[derive(Clone, Debug)]
pub struct HackenbushReport {
    /// The picture's value: the nim-sum over the ground's branches (colon and fusion
    /// principles, Winning Ways ch. 7).
    pub value: u32,
    /// The cuts that leave 0, as indices into `edges`.
    pub winning: Vec<usize>,
    /// The edges on cycles whose cuts were not checked within the work budget (empty when the
    /// list of winning cuts is complete).
    pub unsearched: Vec<usize>,
    /// The picture's edges, in file order, as pairs of nodes.
    pub edges: Vec<(u32, u32)>,
    /// The ground node.
    pub ground: u32,
    /// Each node's name, as the file spells it.
    pub names: Vec<String>,
}

impl HackenbushReport {
    /// Whether every cut was checked.
    pub fn complete(&self) -> bool {
        self.unsearched.is_empty()
    }

    /// The name of node `v`.
    pub fn name(&self, v: u32) -> &str {
        self.names.get(v as usize).map_or("?", String::as_str)
    }
}

/// Solves the `hackenbush` graph file `graph` grounded at `ground`: its memory checked first,
/// the winning cuts searched within [`crate::engine::budget::steps_limit`] steps.
pub fn solve_hackenbush(graph: &GraphGame, ground: u32) -> Result<HackenbushReport, EngineError> {
    let position: Hackenbush = crate::value::hackenbush_of(graph, ground)?;
    let Cuts {
        winning,
        unsearched,
    } = position.winning_cuts_within(0, crate::engine::budget::steps_limit());
    Ok(HackenbushReport {
        value: position.value(),
        winning,
        unsearched,
        edges: position.edges().to_vec(),
        ground: position.ground(),
        names: graph.names.clone(),
    })
}
