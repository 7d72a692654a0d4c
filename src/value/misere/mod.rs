//! Misère play: the player who cannot move *wins* (the last player to move loses).
//!
//! A position's misère Grundy value is `G⁻(0) = 1` for a position with no move and
//! `G⁻(G) = mex{G⁻(G')}` otherwise; the player to move loses iff `G⁻ = 0`. Unlike normal
//! play, `G⁻` of a sum is not determined by the components' values, so a move leaving
//! several components is valued by tame addition when they are all tame and otherwise by the
//! search over sums of [`sums`]; a position alone by the recursion on options of [`plain`].
//! Every position is given its full [`Genus`] (Conway), from which tameness follows.
//!
//! [`Misere`] is the value rule (registered as `misere`); [`table`] values every position of a
//! heap table or a box with both conventions side by side.

pub mod genus;
pub mod plain;
pub mod quotient;
pub mod sums;

pub use genus::{Genus, Species};
pub use plain::{Recursion, Unvalued};
pub use sums::{Sum, Sums, Valued};

use super::evaluate::{self, ValueTable};
use super::{DynRule, Outcome};
use crate::engine::progress::Progress;
use crate::engine::{BoxTable, EngineError, SgTable, Table};
use crate::rules::Game;

/// Misère play valued by misère Grundy values (with the genus of every position).
#[derive(Clone, Copy, Debug, Default)]
pub struct Misere;

impl DynRule for Misere {
    fn name(&self) -> &'static str {
        "misere"
    }

    fn evaluate(&self, game: &Game, extents: &[u64]) -> Result<ValueTable, EngineError> {
        let table = table(game, extents, false)?;
        Ok(ValueTable::new(
            "misere",
            table.coordinates.clone(),
            table.extents.clone(),
            table
                .cells
                .iter()
                .map(|c| (c.genus.misere().to_string(), c.outcome()))
                .collect(),
        ))
    }
}

/// One position's worth in both conventions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Its genus: the normal Grundy value `g` and the misère superscripts (`γ0 = G⁻`).
    pub genus: Genus,
    /// Tame, restive, restless or wild ([`Species`]).
    pub species: Species,
}

impl Cell {
    /// Whether the position is tame (its genus and all its positions' are tame).
    pub fn is_tame(&self) -> bool {
        self.species.is_tame()
    }

    /// The normal-play Grundy value.
    pub fn normal(&self) -> u32 {
        self.genus.normal
    }

    /// The misère Grundy value `G⁻`.
    pub fn misere(&self) -> u32 {
        self.genus.misere()
    }

    /// The misère outcome: P (the player to move loses) iff `G⁻ = 0`.
    pub fn outcome(&self) -> Outcome {
        Outcome::of_value(self.misere())
    }
}

/// Every position of a heap table `0..=to` or a box, valued in both conventions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereTable {
    /// The coordinates' names (one, the heap's, for a heap game).
    pub coordinates: Vec<String>,
    /// The largest value of each coordinate.
    pub extents: Vec<u64>,
    /// The cells in row-major order (the last coordinate fastest).
    pub cells: Vec<Cell>,
    /// Whether the positions are heaps (one coordinate, every move to smaller heaps).
    pub heap_game: bool,
}

impl MisereTable {
    /// The misère Grundy values `G⁻`, in row-major order.
    pub fn misere_values(&self) -> Vec<u32> {
        self.cells.iter().map(Cell::misere).collect()
    }

    /// The misère values as a [`Table`] (a sequence for a heap game, a box otherwise), for
    /// the exporters and analyses of normal values (charts, code, patterns, periods).
    pub fn misere_table(&self) -> Table {
        let values = self.misere_values();
        if self.heap_game {
            Table::sequence(&self.coordinates[0], SgTable::from_values(&values))
        } else {
            Table::Box(BoxTable::new(
                self.coordinates.clone(),
                self.extents.clone(),
                values,
            ))
        }
    }

    /// The first heap (or position, in row-major order) that is wild, if any.
    pub fn first_wild(&self) -> Option<usize> {
        self.cells.iter().position(|c| !c.is_tame())
    }

    /// The coordinates of the cell at `index`.
    pub fn position_of(&self, index: usize) -> Vec<u64> {
        let mut position = vec![0; self.extents.len()];
        let mut rest = index as u64;
        for (i, &extent) in self.extents.iter().enumerate().rev() {
            position[i] = rest % (extent + 1);
            rest /= extent + 1;
        }
        position
    }
}

/// Values every position of the box `0..=extents[i]` of `game` (for a heap game, one extent:
/// the heaps `0..=to`) in normal and misère play, by the recursion on options of [`plain`]:
/// each position from its options' genera, an option of several components by tame addition
/// when they are all tame, and by the search over sums of [`Sums`] only when one is not (so a
/// game whose moves never split a component never searches sums). Refused before any work,
/// like [`evaluate::evaluate`], when the box does not fit or its rules would take hours;
/// `progress` draws a bar on a terminal.
pub fn table(game: &Game, extents: &[u64], progress: bool) -> Result<MisereTable, EngineError> {
    let (table, stopped) = table_until(game, extents, progress, false)?;
    match stopped {
        Some(error) => Err(error),
        None => Ok(table),
    }
}

/// [`table`], but when `keep_partial` is set a search over sums that reaches its limit
/// ([`EngineError::TooManySums`]) after the first position ends the table there instead: the
/// positions valued so far are returned with the error that stopped them (for analyses that
/// use as many values as can be had, such as a period search).
pub fn table_until(
    game: &Game,
    extents: &[u64],
    progress: bool,
    keep_partial: bool,
) -> Result<(MisereTable, Option<EngineError>), EngineError> {
    let generator = evaluate::check_request(game, extents)?;
    let mut recursion = plain::Recursion::new(game, extents).with_search();
    let size: u64 = extents.iter().map(|&e| e + 1).product();
    let mut bar = Progress::new(0, size, progress);
    let mut table = MisereTable {
        coordinates: game.coordinates(),
        extents: extents.to_vec(),
        cells: Vec::with_capacity(size as usize),
        heap_game: generator.decreasing(),
    };
    for index in 0..size {
        let position = table.position_of(index as usize);
        let valued = match recursion.value(&position) {
            Ok(valued) => Ok(valued.clone()),
            Err(plain::Unvalued::Engine(error)) => Err(error),
            Err(plain::Unvalued::WildSum { .. }) => unreachable!("the recursion searches sums"),
        };
        match valued {
            Ok(valued) => table.cells.push(Cell {
                genus: valued.genus,
                species: valued.species,
            }),
            Err(error @ EngineError::TooManySums { .. })
                if keep_partial && index > 0 && table.heap_game =>
            {
                bar.finish();
                table.extents = vec![index - 1];
                return Ok((table, Some(error)));
            }
            Err(error) => return Err(evaluate::name_graph_cycle(game, error)),
        }
        bar.tick(index + 1);
    }
    bar.finish();
    Ok((table, None))
}
