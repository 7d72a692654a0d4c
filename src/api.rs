//! The one entry point that values any game under any play rule: the command line and the
//! Python package both call it.
//!
//! ```
//! use sgscope::api;
//! use sgscope::value::{Registry, Request, Valued};
//!
//! // Kayles (octal 0.77): G(n) has period 12 from n = 71 (Guy and Smith 1956).
//! let game = api::load_text("<example>", "octal 0.77", &[]).unwrap();
//! let registry = Registry::standard();
//! let valued = api::value(&registry, &game, "normal", &Request::new(&[100])).unwrap();
//! let Valued::Normal(table) = &valued else { panic!("a heap game's table") };
//! assert_eq!(table.get(&[83]), table.get(&[95]));
//! // Outcome classes only: P, N or D.
//! let outcomes = api::value(&registry, &game, "outcomes", &Request::new(&[10])).unwrap();
//! assert_eq!(outcomes.cells("outcomes").get(&[0]).unwrap().1.to_string(), "P");
//! ```
//!
//! * A game comes from rules text ([`load_text`]) or a file ([`load_path`], read within the
//!   size limits: rules texts to 1 MiB, graph files to 256 MiB, bounded reads).
//! * A play rule is picked by name from a [`Registry`]: `normal`, `misere`, `loopy`,
//!   `outcomes`, and any rule registered ([`Registry::register`]).
//! * [`value`] returns one typed [`Valued`] table: a heap game's sequence, a position game's
//!   box or a graph file's nodes. Normal play of a position game whose moves cycle is valued as
//!   a loopy game inside it, told first by [`Notice::ValuedAsLoopy`].
//! * Every exporter writes every kind of [`Valued`] table it can show
//!   ([`crate::export::write_valued`]); a format that cannot show one is a typed refusal.

use thiserror::Error;

use crate::engine::EngineError;
use crate::rules::{self, Game, RulesError, SourceFile};
pub use crate::value::{DynRule, Notice, Registry, Request, TableKind, Valued};

/// Why a game was not valued.
#[derive(Debug, Error)]
pub enum ApiError {
    /// No rule of that name is registered.
    #[error("unknown value rule `{name}`")]
    UnknownRule {
        /// The name asked for.
        name: String,
        /// The names registered, in registration order.
        known: Vec<&'static str>,
    },
    /// The engine refused or failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// The game described by rules `text` (named `name` in errors), with parameters set by
/// `params` (`k = 5`).
pub fn load_text(name: &str, text: &str, params: &[(String, i64)]) -> Result<Game, RulesError> {
    rules::load(SourceFile::new(name, text), params)
}

/// The game in the rules file at `path`, read within the size limits ([`rules::load_path`]),
/// with parameters set by `params`.
pub fn load_path(
    path: &std::path::Path,
    params: &[(String, i64)],
) -> Result<Game, rules::PathError> {
    rules::load_path(path, params)
}

/// The rule called `name` in `registry`.
pub fn rule<'r>(registry: &'r Registry, name: &str) -> Result<&'r dyn DynRule, ApiError> {
    registry.get(name).ok_or_else(|| ApiError::UnknownRule {
        name: name.to_string(),
        known: registry.names(),
    })
}

/// The values of `game` under the rule called `rule` over the request's box (a graph file: every
/// node), as one typed table.
pub fn value(
    registry: &Registry,
    game: &Game,
    rule: &str,
    request: &Request<'_>,
) -> Result<Valued, ApiError> {
    Ok(self::rule(registry, rule)?.value(game, request)?)
}
