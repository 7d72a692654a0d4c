//! Charts (stub while being written).
use super::ExportError;
use crate::analysis::Periodicity;
use crate::engine::SgTable;
use std::path::Path;

/// Chart file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartFormat {
    /// PNG.
    Png,
    /// SVG.
    Svg,
}
/// Chart spec.
#[derive(Clone, Debug)]
pub struct ChartSpec {
    /// Title.
    pub game: String,
    /// Coord.
    pub coordinate: String,
    /// Period.
    pub periodicity: Option<Periodicity>,
}
/// Render.
pub fn render_chart(_table: &SgTable, _spec: &ChartSpec, _format: ChartFormat) -> Result<Vec<u8>, ExportError> {
    Err(ExportError::EmptyTable)
}
/// Write.
pub fn write_chart(_path: &Path, _table: &SgTable, _spec: &ChartSpec) -> Result<(), ExportError> {
    Err(ExportError::EmptyTable)
}
