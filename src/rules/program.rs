//! STUB (being written)
use super::Diagnostic;
/// Compiled general move rules.
#[derive(Clone, Debug)]
pub struct Program;
impl Program {
    /// Calls `visit` with the heaps of every move from position `n`.
    pub fn for_each_move(&self, _n: u64, _visit: &mut dyn FnMut(&[u64])) -> Result<(), Diagnostic> {
        unimplemented!()
    }
}
