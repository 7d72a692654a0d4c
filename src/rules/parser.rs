//! STUB (being written)
use super::{ast, Diagnostic};
/// Parses a rules text.
pub fn parse(_text: &str) -> Result<ast::File, Vec<Diagnostic>> {
    unimplemented!()
}
