//! STUB (being written)
use super::Periodicity;
use crate::engine::SgTable;
/// Finds the periodicity.
pub fn detect(_table: &SgTable) -> Option<Periodicity> {
    unimplemented!()
}
