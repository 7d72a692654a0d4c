//! STUB (being written)
use super::{check::Checked, Game, RulesError, SourceFile};
/// Lowers a checked file to a game.
pub fn lower(_checked: Checked, _source: SourceFile) -> Result<Game, RulesError> {
    unimplemented!()
}
