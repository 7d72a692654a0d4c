//! Sweeps of position games: each instance's box of positions valued, and the P-position
//! criterion that holds on the whole box ([`CriteriaReport`]), as a shape the fitter reads
//! when it has one (Moore's Nim_k: `k + 1`; Wythoff's pairs).

use crate::analysis::criteria::{CriteriaReport, PCriterion};
use crate::engine::Table;
use crate::rules::Game;
use crate::value::{Registry, Request};

use super::fit::Shape;
use super::shapes::kind;
use super::InstanceError;

/// What one instance of a position game gave.
#[derive(Clone, Debug)]
pub struct PositionSummary {
    /// The box valued: `0..=extents[i]` for each coordinate.
    pub extents: Vec<u64>,
    /// The coordinates' names.
    pub coordinates: Vec<String>,
    /// Positions in the box.
    pub positions: usize,
    /// P-positions among them.
    pub p_positions: usize,
    /// The first criterion that holds on every position of the box (none: `None`).
    pub criterion: Option<PCriterion>,
}

impl PositionSummary {
    /// The criterion as a shape the fitter reads: Moore's Nim_k as `[k + 1]` (the XOR of all
    /// coordinates as `[2]`, Nim), Wythoff's pairs; other criteria have none.
    pub fn shape(&self) -> Option<Shape> {
        let all = self.coordinates.len();
        let moore = |m: u32| Shape {
            kind: kind::MOORE,
            constants: vec![i64::from(m)],
        };
        match self.criterion.as_ref()? {
            PCriterion::Moore { modulus } => Some(moore(*modulus)),
            PCriterion::Xor { coordinates } if coordinates.len() == all && all >= 2 => {
                Some(moore(2))
            }
            PCriterion::Wythoff => Some(Shape {
                kind: kind::WYTHOFF,
                constants: Vec::new(),
            }),
            _ => None,
        }
    }
}

/// The box each coordinate is valued to when the caller gives none: two coordinates 0..=30,
/// more 0..=7 (a criterion needs a box; its rule steps are the budget's to refuse).
pub fn default_extent(coordinates: usize) -> u64 {
    if coordinates <= 2 {
        30
    } else {
        7
    }
}

/// One instance of a position game.
pub fn run_instance(
    game: &Game,
    names: &[String],
    params: &[i64],
    to: Option<u64>,
) -> Result<PositionSummary, InstanceError> {
    let instance = super::load_instance(game, names, params)?;
    let coordinates = instance.coordinates();
    let extents = vec![to.unwrap_or_else(|| default_extent(coordinates.len())); coordinates.len()];
    let registry = Registry::standard();
    let rule = registry.get("normal").ok_or(InstanceError::NotAHeapGame)?;
    let request = Request {
        loopy_fallback: false,
        ..Request::new(&extents)
    };
    let valued = rule.value(&instance, &request)?;
    let Some(Table::Box(table)) = valued.grundy_values() else {
        return Err(InstanceError::NotAHeapGame);
    };
    let report = CriteriaReport::of(&table);
    Ok(PositionSummary {
        extents,
        coordinates,
        positions: report.positions,
        p_positions: report.p_positions,
        criterion: report.criteria.into_iter().next(),
    })
}
