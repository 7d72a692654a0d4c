//! `solve` for games that can cycle: a sum of tokens, each on a node of one graph (a graph
//! file's nodes, or the positions of a rules file whose moves can cycle), decided by Smith's
//! rule on the generalized Sprague–Grundy values ([`sum_outcome`]): all finite, P iff their XOR
//! is 0; exactly one `∞(K)` with the others XORing to `a`, N iff `a ∈ K`, else D; two or more
//! `∞`, D. A move slides one token along one edge; it wins when it leads to a P sum, and from a
//! drawn sum it keeps the draw when it leads to a D sum (any other move from a draw loses).

use serde::Serialize;

use crate::engine::EngineError;
use crate::rules::Game;
use crate::value::loopy::{sum_outcome, sum_value, LoopyTable, LoopyValue};
use crate::value::Outcome;

use super::moves;
use super::SolveError;

/// One move of a token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoopyMove {
    /// The component moved (0-based).
    pub component: usize,
    /// The node it leaves.
    pub from: String,
    /// The node it goes to (`nothing` when the move leaves no position).
    pub to: String,
    /// The rule, as the rules call it (`edge` for a graph file's edge).
    pub rule: String,
    /// The rule's binder values.
    pub binders: Vec<(String, i64)>,
}

/// What `solve` found about a sum of tokens in a game that can cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopySolveReport {
    /// The components' nodes, by name.
    pub components: Vec<String>,
    /// P, N or D with the first player to move.
    pub outcome: Outcome,
    /// The sum's generalized Sprague–Grundy value (`∞(∅)` for two or more infinite tokens).
    pub value: LoopyValue,
    /// Each component's value.
    pub values: Vec<LoopyValue>,
    /// A single token's remoteness (`None` for a draw or a sum of several).
    pub remoteness: Option<u32>,
    /// The moves to a P sum.
    pub winning_moves: Vec<LoopyMove>,
    /// From a draw, the moves that keep it (to a D sum).
    pub drawing_moves: Vec<LoopyMove>,
    /// How many positions were valued.
    pub positions: usize,
}

/// Solves the sum of tokens at `nodes` of `table`, whose moves the game lists (`game` for the
/// rules of a rules file's positions, to name them).
pub fn solve_loopy(
    game: &Game,
    table: &LoopyTable,
    nodes: &[u32],
) -> Result<LoopySolveReport, SolveError> {
    let values: Vec<LoopyValue> = nodes.iter().map(|&v| table.value(v as usize)).collect();
    let refs: Vec<&LoopyValue> = values.iter().collect();
    let outcome = sum_outcome(&refs);
    let mut winning_moves = Vec::new();
    let mut drawing_moves = Vec::new();
    for (i, &v) in nodes.iter().enumerate() {
        for (to, rule, binders) in moves_of(game, table, i, v)? {
            let mut after = refs.clone();
            let to_value = table.value(to as usize);
            after[i] = &to_value;
            let m = LoopyMove {
                component: i,
                from: table.name(v as usize).into_owned(),
                to: table.name(to as usize).into_owned(),
                rule,
                binders,
            };
            match (outcome, sum_outcome(&after)) {
                (Outcome::N, Outcome::P) => winning_moves.push(m),
                (Outcome::D, Outcome::D) => drawing_moves.push(m),
                _ => {}
            }
        }
    }
    let remoteness = match nodes {
        [v] => table.remoteness(*v as usize),
        _ => None,
    };
    Ok(LoopySolveReport {
        components: nodes
            .iter()
            .map(|&v| table.name(v as usize).into_owned())
            .collect(),
        outcome,
        value: sum_value(&refs),
        values,
        remoteness,
        winning_moves,
        drawing_moves,
        positions: table.rows,
    })
}

/// A move listed for a node: the node it leads to, the rule and its binder values.
pub type Listed = (u32, String, Vec<(String, i64)>);

/// The moves of the token at node `v`: its target nodes with the rule and binders. A graph
/// file's moves are its edges; a rules file's are listed by its rules, matched to the nodes.
pub fn moves_of(
    game: &Game,
    table: &LoopyTable,
    component: usize,
    v: u32,
) -> Result<Vec<Listed>, SolveError> {
    let Some(position) = table.position(v as usize) else {
        return Ok(table
            .graph
            .successors(v)
            .iter()
            .map(|&w| (w, "edge".to_string(), Vec::new()))
            .collect());
    };
    let nothing = (table.rows < table.graph.node_count()).then_some(table.rows as u32);
    let mut listed = Vec::new();
    for m in moves::moves_of(game, component, &position)? {
        let to = match m.result.as_slice() {
            [] => nothing,
            [one] => table.node_of(one),
            _ => None,
        };
        let to = to.ok_or_else(|| {
            SolveError::Engine(EngineError::Request(format!(
                "a move from {} leads outside the positions valued",
                table.name(v as usize)
            )))
        })?;
        listed.push((to, m.rule, m.binders));
    }
    Ok(listed)
}
