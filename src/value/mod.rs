//! Value rules: what a position is worth.
//!
//! A game is a *move generator* (what a position is and where it can go: a take-and-break
//! code, compiled heap rules, compiled position rules; see [`crate::engine::generator`]) plus a
//! *value rule* (this module): how a position's worth follows from its options', how a sum's
//! worth follows from its components', and which positions the player to move loses.
//!
//! * [`Normal`] is normal play valued by Sprague–Grundy values: `G(p) = mex{G(q) : p → q}` and
//!   `G(a + b) = G(a) ⊕ G(b)` (Sprague 1935, Grundy 1939). The engine has fast kernels for it
//!   (take-and-break, sparse space, waves), which [`crate::engine::compute`] uses; the generic
//!   evaluator of [`evaluate`] computes the same values slowly, and the tests
//!   compare the two.
//! * A new rule (misère play, outcome classes, loopy values) implements [`ValueRule`] in its
//!   own file and is registered in a [`Registry`] ([`Registry::standard`] lists the built-in
//!   ones); the engine then evaluates it on every game through [`evaluate`],
//!   with no change to the kernels or their callers. A rule whose positions can only be valued
//!   by a search of its own (loopy values by retrograde analysis, misère sums by canonical
//!   multisets) overrides [`DynRule::evaluate`] instead of using the recursion on options.

pub mod evaluate;
pub mod loopy;
pub mod misere;
mod normal;
mod outcomes;
mod valued;

use std::fmt;

pub use misere::Misere;
pub use normal::Normal;
pub use outcomes::Outcomes;
pub use valued::{
    default_rule, hackenbush_of, BetweenChunks, HackenbushTable, Notice, Request, TableKind, Valued,
};

use crate::engine::EngineError;
use crate::rules::Game;
use evaluate::ValueTable;

/// Who wins a position with perfect play, the player to move first: the one outcome type of
/// every value rule, of `solve`'s reports and of `play`'s referee. Displayed as `P`, `N`, `D`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Outcome {
    /// The previous player wins: the player to move loses.
    P,
    /// The next player (the one to move) wins.
    N,
    /// Neither: play goes on forever (games whose moves can cycle).
    D,
}

impl Outcome {
    /// The outcome of a position of Grundy value `value` (normal or misère): P iff it is 0.
    pub fn of_value(value: u32) -> Outcome {
        if value == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// `P` when `is_p` (the player to move loses), else `N`.
    pub fn of_p(is_p: bool) -> Outcome {
        if is_p {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// A P-position: the player to move loses against perfect play.
    pub fn is_p(self) -> bool {
        self == Outcome::P
    }

    /// An N-position: the player to move wins with perfect play.
    pub fn is_n(self) -> bool {
        self == Outcome::N
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
            Outcome::D => "D",
        })
    }
}

/// How a position's worth follows from its options' (a recursion on the game tree, for games
/// that always end).
pub trait ValueRule: Send + Sync {
    /// What a position is worth under this rule.
    type Value: Copy + Eq + Send + Sync + fmt::Debug + fmt::Display;

    /// The rule's name, as a user selects it (`normal`, …).
    fn name(&self) -> &'static str;

    /// The value of a position whose options have the values `options` (in no particular
    /// order; a position with no option gets `of_options` of nothing).
    fn of_options(&self, options: &mut dyn Iterator<Item = Self::Value>) -> Self::Value;

    /// The value of a sum of components with these values, when the rule determines it from
    /// them (normal play: their XOR); `None` when it does not (e.g. outcomes alone, or misère
    /// Grundy values), so that a move leaving several components cannot be valued this way.
    fn of_sum(&self, components: &[Self::Value]) -> Option<Self::Value>;

    /// Who wins a position of value `value`.
    fn outcome(&self, value: Self::Value) -> Outcome;

    /// What the rule values, in a line.
    fn about(&self) -> &'static str {
        "values by the recursion on options"
    }
}

/// A value rule behind a pointer: what a [`Registry`] holds, and what values a game under it
/// ([`DynRule::value`]) — the one call behind every subcommand that values a game. A
/// [`ValueRule`] becomes one through [`Recursion`] (the engine's generic recursion on options);
/// a rule with its own search or fast kernels implements this trait directly.
pub trait DynRule: Send + Sync {
    /// The rule's name, as a user selects it (`--rule NAME`).
    fn name(&self) -> &'static str;

    /// What the rule values, in a line (listed by `--rule`'s help and its errors).
    fn about(&self) -> &'static str;

    /// The kind of table [`DynRule::value`] returns for `game`, known before any work (a
    /// position game whose moves turn out to cycle may still be valued as a loopy game).
    fn kind(&self, game: &Game) -> TableKind {
        let _ = game;
        TableKind::Rule
    }

    /// The values of `game` under this rule over the request's box (a graph file: its nodes).
    fn value(&self, game: &Game, request: &Request<'_>) -> Result<Valued, EngineError>;

    /// The value (as text) and outcome of every position of the box `0..=extents[i]` of
    /// `game`: [`DynRule::value`] seen as one kind of table.
    fn evaluate(&self, game: &Game, extents: &[u64]) -> Result<ValueTable, EngineError> {
        Ok(self.value(game, &Request::new(extents))?.cells(self.name()))
    }
}

/// A [`ValueRule`] valued by the engine's generic recursion on options
/// ([`evaluate::evaluate`]): how a rule in one file becomes a [`DynRule`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Recursion<R>(pub R);

impl<R: ValueRule> DynRule for Recursion<R> {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn about(&self) -> &'static str {
        self.0.about()
    }

    fn value(&self, game: &Game, request: &Request<'_>) -> Result<Valued, EngineError> {
        crate::engine::budget::check_value_table(&request.extents)?;
        let values = evaluate::evaluate(&self.0, game, &request.extents)?;
        Ok(Valued::Rule(ValueTable::new(
            self.0.name(),
            game.coordinates(),
            request.extents.clone(),
            values
                .iter()
                .map(|&v| (v.to_string(), self.0.outcome(v)))
                .collect(),
        )))
    }
}

/// The value rules a user can choose from, by name.
pub struct Registry {
    rules: Vec<Box<dyn DynRule>>,
}

impl Registry {
    /// The built-in rules: [`Normal`], [`Misere`], [`loopy::Loopy`] (games that can cycle) and
    /// [`Outcomes`] (P, N or D only).
    pub fn standard() -> Self {
        Registry {
            rules: vec![
                Box::new(Normal),
                Box::new(Misere),
                Box::new(loopy::Loopy),
                Box::new(Outcomes),
            ],
        }
    }

    /// Adds `rule` (a rule of the same name is replaced).
    pub fn register(mut self, rule: impl DynRule + 'static) -> Self {
        self.rules.retain(|r| r.name() != rule.name());
        self.rules.push(Box::new(rule));
        self
    }

    /// The rule called `name`.
    pub fn get(&self, name: &str) -> Option<&dyn DynRule> {
        self.rules.iter().find(|r| r.name() == name).map(|r| &**r)
    }

    /// The names, in registration order.
    pub fn names(&self) -> Vec<&'static str> {
        self.rules.iter().map(|r| r.name()).collect()
    }

    /// Every rule, in registration order.
    pub fn rules(&self) -> impl Iterator<Item = &dyn DynRule> {
        self.rules.iter().map(|r| &**r)
    }
}
