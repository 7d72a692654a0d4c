//! STUB (being written)
use super::{Progress, SgTable};
use crate::rules::{Diagnostic, Program};
/// Extends `table` to `len` values.
pub fn extend(_program: &Program, _table: &mut SgTable, _len: usize, _progress: &mut Progress) -> Result<(), Diagnostic> {
    unimplemented!()
}
