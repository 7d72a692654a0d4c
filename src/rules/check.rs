//! STUB (being written)
use super::{ast, Diagnostic};
/// A checked file.
pub struct Checked;
/// Checks names and parameters.
pub fn check(_file: &ast::File, _overrides: &[(String, i64)]) -> Result<Checked, Vec<Diagnostic>> {
    unimplemented!()
}
