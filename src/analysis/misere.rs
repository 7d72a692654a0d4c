//! What a misère table shows beyond its values: where the game turns wild, and whether the
//! genus sequence of a heap game repeats.

use super::period;
use super::Periodicity;
use crate::engine::SgTable;
use crate::value::misere::{Genus, MisereTable};

/// A heap game's misère summary: its first wild heap, and the periods of its genus and
/// misère-value sequences (found as `period` finds them, never proved: no theorem bounds
/// them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereSummary {
    /// Heaps (or positions) valued.
    pub positions: usize,
    /// The first wild heap, if any (every heap before it is tame).
    pub first_wild: Option<usize>,
    /// How many positions are misère P-positions (`G⁻ = 0`).
    pub p_positions: usize,
    /// The periodicity of the genus sequence (each distinct genus a symbol), for heap games.
    pub genus_period: Option<Periodicity>,
    /// The periodicity of the sequence `G⁻(0), G⁻(1), …`, for heap games.
    pub misere_period: Option<Periodicity>,
}

/// The summary of `table`.
pub fn summarize(table: &MisereTable) -> MisereSummary {
    let (genus_period, misere_period) = if table.heap_game {
        let mut symbols: Vec<&Genus> = Vec::new();
        let ids: Vec<u32> = table
            .cells
            .iter()
            .map(|c| match symbols.iter().position(|g| **g == c.genus) {
                Some(i) => i as u32,
                None => {
                    symbols.push(&c.genus);
                    (symbols.len() - 1) as u32
                }
            })
            .collect();
        let misere: Vec<u32> = table.cells.iter().map(|c| c.misere()).collect();
        (
            pure(period::detect(&SgTable::from_values(&ids))),
            period::detect(&SgTable::from_values(&misere)),
        )
    } else {
        (None, None)
    };
    MisereSummary {
        positions: table.cells.len(),
        first_wild: table.first_wild(),
        p_positions: table.cells.iter().filter(|c| c.misere() == 0).count(),
        genus_period,
        misere_period,
    }
}

/// Genus symbols are labels, not magnitudes: only a pure period means anything.
fn pure(found: Option<Periodicity>) -> Option<Periodicity> {
    found.filter(|p| p.saltus == 0)
}
