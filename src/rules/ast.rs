//! STUB (being written)
/// The AST of a rules file.
#[derive(Debug)]
pub struct File;
