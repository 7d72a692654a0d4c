//! Outcome classes only: who wins each position (P, N, or D for a draw), without values — the
//! built-in example of a value rule that is one file and one line of [`super::Registry`].

use super::{DynRule, Request, Valued};
use crate::engine::EngineError;
use crate::rules::Game;

/// Outcome classes only (registered as `outcomes`): a position is P when the player to move
/// loses, N when they win, D when neither can force a win. Read off normal play's values:
/// a position of a game that ends is P iff its Sprague–Grundy value is 0 (Sprague 1935,
/// Grundy 1939), which values moves that split a heap by the nim-sum; a position of a game that
/// can cycle gets its outcome from retrograde analysis (Smith 1966), the only rule of the three
/// with draws.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcomes;

impl DynRule for Outcomes {
    fn name(&self) -> &'static str {
        "outcomes"
    }

    fn about(&self) -> &'static str {
        "outcome classes only: P (the player to move loses), N (wins) or D (draw), no values"
    }

    fn value(&self, game: &Game, request: &Request<'_>) -> Result<Valued, EngineError> {
        if game.graph().is_none() {
            crate::engine::budget::check_value_table(&request.extents)?;
        }
        // Normal play's notices are about its values, which this rule does not show.
        let quiet = Request {
            notices: None,
            loopy_fallback: true,
            ..request.clone()
        };
        let valued = super::Normal.value(game, &quiet)?;
        Ok(Valued::Rule(valued.cells(self.name()).outcomes_only()))
    }
}
