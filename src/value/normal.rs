//! Normal play: the player who cannot move loses, and a position is worth its Sprague–Grundy
//! value.

use super::loopy::LoopyTable;
use super::{
    hackenbush_of, DynRule, HackenbushTable, Notice, Outcome, Request, TableKind, ValueRule, Valued,
};
use crate::engine::mex::mex_of;
use crate::engine::{self, multi, EngineError, Nimber, SgTable, Table};
use crate::rules::Game;

/// Normal play valued by Sprague–Grundy values: `G(p) = mex{G(q) : p → q}`, a sum is worth the
/// XOR of its components (Sprague 1935, Grundy 1939), and `p` is a P-position iff `G(p) = 0`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Normal;

impl ValueRule for Normal {
    type Value = u32;

    fn name(&self) -> &'static str {
        "normal"
    }

    fn of_options(&self, options: &mut dyn Iterator<Item = u32>) -> u32 {
        mex_of(options)
    }

    fn of_sum(&self, components: &[u32]) -> Option<u32> {
        Some(components.iter().sum::<Nimber>().value())
    }

    fn outcome(&self, value: u32) -> Outcome {
        Outcome::of_value(value)
    }
}

/// Normal play through the engine's fast kernels: a heap game's sequence
/// ([`crate::engine::compute`]), a position game's box ([`crate::engine::multi::compute_box`]).
/// A graph file and a position game whose moves cycle have no Sprague–Grundy values; normal
/// play of them is valued by the loopy theory (outcome, remoteness, generalized
/// Sprague–Grundy value; Smith 1966), which agrees with Sprague–Grundy values where the game
/// ends — told to the caller first by [`Notice::ValuedAsLoopy`]. A Hackenbush file is valued by
/// the colon and fusion principles ([`crate::engine::hackenbush`]).
impl DynRule for Normal {
    fn name(&self) -> &'static str {
        "normal"
    }

    fn about(&self) -> &'static str {
        "normal play: Sprague–Grundy values (the last player to move wins)"
    }

    fn kind(&self, game: &Game) -> TableKind {
        match game.graph() {
            Some(graph) if graph.hackenbush.is_some() => TableKind::Hackenbush,
            Some(_) => TableKind::Graph,
            None if game.position_program().is_some() => TableKind::Box,
            None => TableKind::Sequence,
        }
    }

    fn value(&self, game: &Game, request: &Request<'_>) -> Result<Valued, EngineError> {
        if let Some(graph) = game.graph() {
            return Ok(match graph.hackenbush {
                Some(ground) => Valued::Hackenbush(HackenbushTable {
                    picture: hackenbush_of(graph, ground)?,
                    names: graph.names.clone(),
                }),
                None => Valued::Loopy(LoopyTable::of_graph_with(graph, &request.options)?),
            });
        }
        if game.position_program().is_none() {
            let to = request.extents[0];
            let mut values = request
                .start
                .map(|start| start.replace(SgTable::new()))
                .unwrap_or_default();
            match request.between_chunks {
                Some(hook) => {
                    engine::extend_in_chunks(game, &mut values, to, &request.options, &mut |t| {
                        hook(t)
                    })?
                }
                None => engine::extend(game, &mut values, to, &request.options)?,
            }
            // A table resumed from a checkpoint may hold more values than asked for.
            values.truncate(to as usize + 1);
            return Ok(Valued::Normal(Table::sequence(&game.coordinate, values)));
        }
        match multi::compute_box_with(game, &request.extents, &request.options) {
            Ok(table) => Ok(Valued::Normal(Table::Box(table))),
            Err(EngineError::Cycle { positions, .. }) if request.loopy_fallback => {
                request.notify(&Notice::ValuedAsLoopy { cycle: positions });
                Ok(Valued::Loopy(LoopyTable::of_box_with(
                    game,
                    &request.extents,
                    &request.options,
                )?))
            }
            Err(error) => Err(error),
        }
    }
}
