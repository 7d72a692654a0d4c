//! STUB (being written)
use super::{Progress, SgTable};
use crate::rules::TakeBreakCode;
/// Extends `table` to `len` values.
pub fn extend(_code: &TakeBreakCode, _table: &mut SgTable, _len: usize, _progress: &mut Progress) {
    unimplemented!()
}
/// Extra bytes per position.
pub fn working_bytes_per_position(_code: &TakeBreakCode) -> u64 {
    0
}
