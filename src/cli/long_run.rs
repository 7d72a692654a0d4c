//! Saying up front when a request will take long: one note on standard error, with the
//! estimate ([`engine::estimate`]), what the time goes to, and how to go smaller or resumable.

use crate::engine::{self, progress::human_duration};
use crate::rules::Game;

use super::Console;

/// Requests estimated past this many seconds get a note before the work starts.
const NOTE_AFTER_SECONDS: f64 = 600.0;

/// Which option bounds the request: `table --to` computes the whole table, `period --max` only
/// an upper bound of it (the search stops once it has a proof).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    To,
    Max,
}

/// Notes on standard error when extending `G(0..from)` of `game` to `G(0..=to)` is estimated
/// to take more than ten minutes. `checkpointed`: the run already saves checkpoints.
pub(super) fn note_if_long(
    console: &mut Console<'_>,
    game: &Game,
    from: usize,
    to: u64,
    bound: Bound,
    checkpointed: bool,
) {
    let Some(estimate) = engine::estimate::estimate(game, from as u64, to) else {
        return;
    };
    if estimate.seconds <= NOTE_AFTER_SECONDS {
        return;
    }
    let resumable = if checkpointed {
        ""
    } else {
        ", or add --checkpoint FILE to stop and resume it"
    };
    let (what, will, flag) = match bound {
        Bound::Max => (
            "the period search may compute up to ",
            ", which would take",
            "--max",
        ),
        Bound::To => ("", " will take", "--to"),
    };
    console.note(&format!(
        "note: {what}G(0..={to}) of {}{will} about {} ({}); ask for a smaller {flag}{resumable}",
        game.name,
        human_duration(estimate.seconds),
        estimate.work
    ));
}
