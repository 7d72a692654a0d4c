//! What `check` learns of a valid rules file by running it: its moves at the smallest positions
//! ([`small`]), so that a rule failing at run time (`move => n + 1`) is found as `table` would
//! find it, and the estimated cost of long tables ([`estimates`]).

use crate::engine::reachable::Reachable;
use crate::engine::{self, budget, multi, EngineError, EngineOptions, TableShape};
use crate::rules::warn::small_positions;
use crate::rules::Game;
use crate::value::loopy::LoopyTable;

/// The last heap evaluated by [`small`].
pub const CHECK_TO: u64 = 16;
/// The largest coordinate of the box evaluated by [`small`] for a position game.
pub const CHECK_BOX: u64 = 4;
/// The largest box `0..=CHECK_BOX` evaluated whole; past it, the positions reachable from a
/// sample of it.
const CHECK_BOX_POSITIONS: usize = 100_000;
/// Starts of that sample.
const CHECK_STARTS: usize = 64;
/// Positions valued from each start of the sample.
const CHECK_REACHABLE: usize = 2048;
/// Rule steps spent from each start of the sample.
const CHECK_REACHABLE_STEPS: u64 = 1 << 22;
/// Positions of a game that cycles valued by [`small`] (reachable from the small ones).
const CHECK_LOOPY: usize = 1_000_000;

/// What [`small`] found at the smallest positions of a game whose rules have no error there.
#[derive(Debug, Default)]
pub struct Small {
    /// Its moves can cycle: it is valued as a loopy game.
    pub loopy: bool,
    /// The budget's refusal of those positions (a rule's ranges past the step budget, moves
    /// that keep leaving the box): the rules are valid, but every request that values the game
    /// would be refused.
    pub refused: Option<EngineError>,
}

/// Whether an error of the small positions is a refusal by the budget (up front or while
/// running), not an error of the rules.
fn is_refusal(error: &EngineError) -> bool {
    error.is_refused_up_front()
        || matches!(
            error,
            EngineError::OverBudget { .. }
                | EngineError::TooManyOutside { .. }
                | EngineError::TooManySums { .. }
        )
}

/// Values the smallest positions of `game` (heaps `0..=CHECK_TO`, or a position game's
/// coordinates `0..=CHECK_BOX` — for many coordinates the positions reachable from a fixed
/// sample of them, [`small_positions`]). An error of its rules (a move to a larger heap, a
/// negative heap, an overflow) is returned as `table` would return it; a refusal by the budget
/// is no error of the rules ([`Small::refused`]). A position game whose moves cycle is valued
/// over the positions reachable from the small ones as a loopy game ([`Small::loopy`]). A
/// graph file's moves are its edges, all checked while loading.
pub fn small(game: &Game, options: &EngineOptions) -> Result<Small, EngineError> {
    if game.graph().is_some() {
        // A cycle in a graph file is a draw, not an error of the file.
        return Ok(Small::default());
    }
    if let Some(program) = game.position_program() {
        return small_positions_of(game, program.coordinates().len(), options);
    }
    match engine::compute(game, CHECK_TO, &EngineOptions::default()) {
        Err(e @ (EngineError::Rule { .. } | EngineError::Cycle { .. })) => Err(e),
        Err(e) if is_refusal(&e) => Ok(Small {
            loopy: false,
            refused: Some(e),
        }),
        _ => Ok(Small::default()),
    }
}

/// The small positions of a position game: the box `0..=CHECK_BOX` when it has at most
/// [`CHECK_BOX_POSITIONS`] positions, else the positions reachable from a fixed sample of it,
/// at most [`CHECK_REACHABLE`] from each start: a game of 20 coordinates is checked in a
/// fraction of a second, and its rules' errors at small positions are still found.
fn small_positions_of(
    game: &Game,
    arity: usize,
    options: &EngineOptions,
) -> Result<Small, EngineError> {
    let extents = vec![CHECK_BOX; arity];
    let starts = small_positions(arity, CHECK_BOX, CHECK_BOX_POSITIONS, CHECK_STARTS);
    let whole_box = budget::box_positions(&extents) <= CHECK_BOX_POSITIONS as u128;
    let result = if whole_box {
        multi::compute_box_with(game, &extents, options).map(|_| ())
    } else {
        starts.iter().try_for_each(|start| {
            let searched = Reachable::new(game, CHECK_REACHABLE)
                .map(|search| search.with_steps(CHECK_REACHABLE_STEPS))
                .and_then(|mut search| search.value(start));
            match searched {
                // Past its limits the search has still gone through small positions.
                Err(e @ (EngineError::Rule { .. } | EngineError::Cycle { .. })) => Err(e),
                _ => Ok(()),
            }
        })
    };
    match result {
        Err(EngineError::Cycle { .. }) => {
            match LoopyTable::explore_within(game, &starts, CHECK_LOOPY) {
                Err(e @ EngineError::Rule { .. }) => Err(e),
                _ => Ok(Small {
                    loopy: true,
                    refused: None,
                }),
            }
        }
        Err(e @ EngineError::Rule { .. }) => Err(e),
        // The whole small box is what `table` computes first: its refusal is theirs.
        Err(e) if whole_box && is_refusal(&e) => Ok(Small {
            loopy: false,
            refused: Some(e),
        }),
        _ => Ok(Small::default()),
    }
}

/// The heaps [`estimates`] are made for: powers of ten from 10^3, while the estimate stays
/// under an hour (and at most to 10^12).
const EXPLAIN_FROM: u32 = 3;
const EXPLAIN_TO: u32 = 12;
const EXPLAIN_CHEAP_SECONDS: f64 = 3600.0;

/// The estimated cost of a heap game's table `G(0..=to)`, before any work.
#[derive(Clone, Debug)]
pub struct Estimate {
    /// The last heap, a power of ten.
    pub to: u64,
    /// The exponent of `to`.
    pub exponent: u32,
    /// The estimate of seconds and the work counted, or `None` when the request would be
    /// refused.
    pub cost: Option<engine::estimate::Estimate>,
    /// The memory the table needs ([`budget::memory_need`]).
    pub memory: budget::MemoryNeed,
}

/// The estimated cost of `G(0..=10^k)` for `k` from 3, up to the first estimate past an hour or
/// refused (within a factor of two or three); empty for a position game or a graph.
pub fn estimates(game: &Game) -> Vec<Estimate> {
    let mut rows = Vec::new();
    if game.graph().is_some() || game.position_program().is_some() {
        return rows;
    }
    for exponent in EXPLAIN_FROM..=EXPLAIN_TO {
        let to = 10u64.pow(exponent);
        let memory = budget::memory_need(&TableShape::Sequence { to }, game.code());
        let cost = engine::estimate::estimate(game, 0, to);
        let last = cost
            .as_ref()
            .is_none_or(|cost| cost.seconds > EXPLAIN_CHEAP_SECONDS);
        rows.push(Estimate {
            to,
            exponent,
            cost,
            memory,
        });
        if last {
            break;
        }
    }
    rows
}
