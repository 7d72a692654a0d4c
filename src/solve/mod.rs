//! `solve`: the value of a sum of positions, who wins, and every winning move, for heap games
//! and position games alike, as a typed [`SolveReport`] (rendered by [`crate::export::solve`]).
//!
//! * The exact path computes the values every component needs (a heap game's table up to the
//!   largest heap, a position game's box up to the largest coordinates of the components and
//!   of every position their moves reach), lists every move of
//!   every component ([`moves::for_each_move`]) and keeps those to a sum of value 0
//!   (Sprague 1935, Grundy 1939: a sum's value is the XOR of its components').
//! * A position game's position whose box is out of reach (its rule steps past
//!   [`SOLVE_EXACT_WORK`], or its memory) is decided by a P-position criterion found on a
//!   smaller box ([`beyond`]), and the report says so; a move list that search may have cut
//!   short says so too ([`SolveReport::complete`], [`beyond::Unsearched`]).
//! * A heap game's sum too large to list every move of (heaps past the listed ones, or many
//!   of them) is valued component by component from a proof — Nim's closed form, or a period
//!   proved by the periodicity theorem — and its winning moves found from it ([`sums`]).

pub mod beyond;
pub mod hackenbush;
pub mod loopy;
pub mod misere;
pub mod moves;
pub mod parse;
pub mod sums;

use serde::Serialize;
use thiserror::Error;

use crate::analysis::criteria::PCriterion;
use crate::engine::budget::{self, Steps};
use crate::engine::multi::{self, show_position, Solver};
use crate::engine::reachable::{self, Reachable};
use crate::engine::{self, human_bytes, EngineError, EngineOptions, Hint, Nimber};
use crate::rules::Game;
use crate::value::misere::Genus;
use crate::value::Outcome;

pub use misere::{solve_misere, Genera, MisereOptions};
pub use moves::GameMove;
pub use parse::{parse_sum, PositionError};

/// At most this many rule steps (estimated by [`budget::rule_steps`]) for the exact values of a
/// position game's sum (about a minute); beyond, a single position is decided by a criterion.
pub const SOLVE_EXACT_WORK: u64 = 1_000_000_000;

/// Why the exact values of a position game's sum are out of reach.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Error)]
pub enum ExactRefusal {
    /// The box's rule steps are estimated past `limit`.
    #[error("the exact values need a box of {positions} positions, more than {limit} rule steps")]
    Work {
        /// Positions in the box.
        positions: u128,
        /// The limit ([`SOLVE_EXACT_WORK`]).
        limit: u64,
    },
    /// The box would not fit in memory.
    #[error(
        "the exact values need a box of {positions} positions, about {}, but only {} is available",
        human_bytes(*.needed_bytes),
        human_bytes(*.available_bytes)
    )]
    Memory {
        /// Positions in the box.
        positions: u128,
        /// Estimated bytes.
        needed_bytes: u64,
        /// Bytes available.
        available_bytes: u64,
    },
    /// The moves kept leaving the box sized to the position's moves (the positions outside
    /// it cost more than the box itself).
    #[error(
        "the exact values need a box of {positions} positions, and more positions outside it than can be valued on demand"
    )]
    LeavesBox {
        /// Positions in the box.
        positions: u128,
    },
}

/// How the answer was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Method {
    /// Exact SG values of a table: a heap game's `G(0..=extents[0])`, or a position game's
    /// box `0..=extents[i]` (positions outside it computed on demand).
    ExactTable {
        /// The table's extents.
        extents: Vec<u64>,
    },
    /// Exact SG values of the positions reachable from the components, by a memoised search
    /// ([`crate::engine::reachable`]): for many coordinates, where the box is far larger than
    /// what the position reaches (or out of reach).
    Reachable {
        /// Positions valued.
        positions: usize,
    },
    /// By a P-position criterion that holds on every position of a smaller box (not proved
    /// beyond it).
    Criterion {
        /// The criterion.
        criterion: PCriterion,
        /// The criterion in words, with the coordinates' names.
        description: String,
        /// The box it was checked on.
        extents: Vec<u64>,
        /// That box in words (`0 ≤ x ≤ 255, 0 ≤ y ≤ 255`).
        box_text: String,
        /// Why the exact values were out of reach.
        refusal: ExactRefusal,
    },
    /// A heap game's components valued one by one by a proof ([`sums`]): Nim's closed form,
    /// a proved period, or a table holding every heap; the winning moves found from it.
    Proved {
        /// How the values were known.
        valuation: sums::Valuation,
        /// Whether the game's rules were lowered to the code whose values these are.
        lowered: bool,
        /// Components with more winning moves than [`sums::MOVES_PER_COMPONENT`]: only the
        /// first ones are listed.
        capped: Vec<sums::CappedMoves>,
        /// When the search for winning moves ran out of work ([`sums::SPLIT_WORK`]): the first
        /// component (0-based) not searched; it and those after it have no moves listed.
        unsearched_from: Option<usize>,
    },
    /// Misère play, every component tame: by Conway's tame addition of the components'
    /// genera ([`Genus::tame_sum`]; ONAG ch. 12), the moves checked through the search.
    TameRule {
        /// Sums of components valued by the search (the components alone, and the sums moved
        /// to); 0 when the genera came without it.
        sums: usize,
        /// How the components' genera were found.
        genera: misere::Genera,
    },
    /// Misère play, one component that is not tame: its genus by the recursion on options
    /// ([`crate::value::misere::Recursion`]), every option a position or a sum of tame
    /// components, so no search over sums; every move leads to an option so valued.
    OptionRecursion {
        /// Positions valued.
        positions: usize,
    },
    /// Misère play, a component wild: by the exact search over canonical sums
    /// ([`crate::value::misere::Sums`]).
    SumSearch {
        /// Sums of components valued.
        sums: usize,
        /// The wild components (0-based indices; empty when the search was forced).
        wild: Vec<usize>,
        /// The bound on the sums the search could need, when one was computed
        /// ([`misere::sums_bound`]).
        bound: Option<u128>,
    },
    /// Misère play, a heap game whose components are not all tame (or too large to value
    /// alone quickly): by the misère quotient of the heaps up to
    /// the largest component (Plambeck–Siegel), proved before use. It decides outcomes only:
    /// the sum's `G⁻` is not computed.
    Quotient {
        /// The largest heap of the quotient.
        max_heap: u64,
        /// Its order (number of elements).
        order: usize,
        /// The size of its P-portion.
        p_portion: usize,
    },
}

/// How the moves of a position beyond the box were searched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveSearch {
    /// Moves examined.
    pub examined: u64,
    /// The steps each rule was allowed ([`beyond::MOVE_CAP`]).
    pub cap: u64,
    /// The rules the cap stopped early, as the rules call them.
    pub capped_rules: Vec<String>,
    /// Moves to sums of positions, which a criterion cannot decide.
    pub to_sums: u64,
    /// The moves of each capped rule the search did not reach.
    pub unsearched: Vec<beyond::Unsearched>,
    /// The smallest winning move named by a pattern observed on the box (`None` when the box
    /// has none, or the position is a P-position); the JSON has it at the top level.
    #[serde(skip)]
    pub smallest: Option<beyond::ObservedMove>,
}

/// What `solve` found about a sum of positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolveReport {
    /// The coordinates' names (`[n]` for a heap game).
    pub coordinates: Vec<String>,
    /// The components of the sum.
    pub components: Vec<Vec<u64>>,
    /// The sum's SG value, when it was computed exactly.
    pub value: Option<u32>,
    /// Who wins, the player to move first: `P` or `N` (a game that cannot cycle is never a
    /// draw; those that can have [`loopy::LoopySolveReport`]).
    pub outcome: Outcome,
    /// The winning moves, in the order they were listed (by component, then the rules' order).
    /// Beyond the box: those found among the moves examined.
    pub winning_moves: Vec<GameMove>,
    /// How the answer was found.
    pub method: Method,
    /// Beyond the box: how the moves were searched (`None` when every move was examined).
    pub search: Option<MoveSearch>,
    /// Misère play: the genus of the sum (its `value` is then `G⁻`, the genus's first
    /// superscript); `None` in normal play, and in misère play when a quotient decided the
    /// outcome without the sum's value.
    #[serde(serialize_with = "genus_text")]
    pub genus: Option<Genus>,
    /// Whether the sum was played misère.
    pub misere: bool,
}

impl SolveReport {
    /// Whether the report is of misère play.
    pub fn misere(&self) -> bool {
        self.misere
    }
}

fn genus_text<S: serde::Serializer>(genus: &Option<Genus>, s: S) -> Result<S::Ok, S::Error> {
    genus.as_ref().map(ToString::to_string).serialize(s)
}

/// Why `solve` gave no answer.
#[derive(Debug, Error)]
pub enum SolveError {
    /// The engine refused or failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The components do not fit the game (none, or the wrong number of coordinates).
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A take-and-break code's heap too large to list every partition of.
    #[error(
        "listing every move of a heap of {heap} of {game} would take too long (the moves of this code are listed for heaps up to {largest})"
    )]
    CodeMovesTooMany {
        /// The heap.
        heap: u64,
        /// The game's name.
        game: String,
        /// The largest heap whose moves are listed.
        largest: u64,
    },
    /// A heap game's sum that neither a proof values ([`sums`]) nor the exact path can list.
    #[error("no proof values this sum: {why}; and the exact values are out of reach: {cause}")]
    Unproved {
        /// Why no proof values the sum.
        why: String,
        /// Why the exact path refused.
        cause: Box<SolveError>,
    },
    /// A sum whose exact values are out of reach (a criterion decides single positions only).
    #[error("{refusal}")]
    SumBeyondBox {
        /// Why the exact values are out of reach.
        refusal: ExactRefusal,
        /// The components of the sum.
        components: usize,
    },
    /// The box a criterion is looked for on could not be computed.
    #[error(
        "{refusal}; the box {} for a P-position pattern failed too: {error}",
        .extents.iter().map(|e| format!("0..={e}")).collect::<Vec<_>>().join(" × ")
    )]
    CriteriaBoxFailed {
        /// Why the exact values are out of reach.
        refusal: ExactRefusal,
        /// The box's extents.
        extents: Vec<u64>,
        /// Why it failed.
        error: Box<EngineError>,
    },
    /// No criterion holds on the smaller box.
    #[error(
        "{refusal}, and no P-position pattern holds on every position of {box_text} to decide \
         it without them"
    )]
    NoCriterion {
        /// Why the exact values are out of reach.
        refusal: ExactRefusal,
        /// The box the criteria were looked for on, in words.
        box_text: String,
    },
    /// A position of so many coordinates that even the smallest box to look for a pattern on
    /// (`0..=1` in each) is out of reach, and the positions it reaches too many to search.
    #[error(
        "{refusal}; with {arity} coordinates the positions reachable from it are too many to search (about {}), and no box is small enough to look for a P-position pattern on",
        crate::engine::estimate::count(*.reachable as f64)
    )]
    TooManyCoordinates {
        /// Why the exact values of the box are out of reach.
        refusal: ExactRefusal,
        /// The coordinates of a position.
        arity: usize,
        /// The estimate of the positions reachable ([`reachable::downward_estimate`]).
        reachable: u128,
    },
    /// The criterion calls the position P and also a position it moves to.
    #[error(
        "the pattern calls {} a P-position, but so it calls {} reached from it by {rule}: it \
         does not hold here",
        show_position(.position),
        show_sum(.reached)
    )]
    CriterionFails {
        /// The position asked about.
        position: Vec<u64>,
        /// The components of the position reached.
        reached: Vec<Vec<u64>>,
        /// The rule reaching it.
        rule: String,
    },
    /// A position of another kind than the game's: nodes for a game that is no graph file,
    /// components for a graph file.
    #[error(
        "that position does not fit {game}: a heap or position game takes components, a graph file its nodes, a hackenbush file no position"
    )]
    PositionKind {
        /// The game's name.
        game: String,
    },
    /// No position was asked about, and the game has none to start from (a graph file's
    /// `start` line).
    #[error("no position to solve")]
    NoPosition,
    /// A position asked about in a Hackenbush file, which is one position: the whole picture.
    #[error("a hackenbush file is one position, the whole graph: it takes no position")]
    HackenbushPosition {
        /// The position given.
        position: String,
    },
    /// A name that is not a node of the graph file.
    #[error("`{name}` is not a node of {game}")]
    UnknownNode {
        /// The name given.
        name: String,
        /// The game's name.
        game: String,
        /// How many nodes the graph has.
        nodes: usize,
    },
    /// Misère play of a graph file or of a game whose moves can cycle: only normal play has a
    /// loopy theory (outcome, remoteness, generalized Sprague–Grundy values).
    #[error(
        "misère play of a graph or of a game whose moves can cycle is not supported: the loopy values (outcome, remoteness, generalized Sprague–Grundy value) are those of normal play"
    )]
    MisereLoopy,
    /// An error found after the position was decided to go by a criterion: the command line
    /// prints the position and the criterion ([`crate::export::solve::write_header`]) before
    /// the error.
    #[error("{error}")]
    AfterHeader {
        /// The position asked about.
        position: Vec<u64>,
        /// The criterion chosen ([`Method::Criterion`]).
        method: Box<Method>,
        /// The error.
        error: Box<SolveError>,
    },
}

impl SolveError {
    /// What to do about it, for an engine error about the request's size (see
    /// [`EngineError::hint`]).
    pub fn hint(&self) -> Option<Hint> {
        match self {
            SolveError::Engine(e) => e.hint(),
            SolveError::CriteriaBoxFailed { error, .. } => error.hint(),
            SolveError::AfterHeader { error, .. } => error.hint(),
            SolveError::Unproved { cause, .. } => cause.hint(),
            SolveError::CodeMovesTooMany { largest, .. } => Some(Hint::HeapsAtMost(*largest)),
            SolveError::SumBeyondBox { components, .. } => Some(Hint::OnePosition {
                components: *components,
            }),
            SolveError::NoCriterion { .. } => Some(Hint::SmallerSolvedPositions),
            SolveError::TooManyCoordinates { .. } => Some(Hint::SmallerReachablePositions),
            _ => None,
        }
    }

    /// The innermost error ([`SolveError::AfterHeader`] and [`SolveError::Unproved`] wrap
    /// one).
    pub fn cause(&self) -> &SolveError {
        match self {
            SolveError::AfterHeader { error, .. } => error.cause(),
            SolveError::Unproved { cause, .. } => cause.cause(),
            other => other,
        }
    }
}

/// `a + b + c`, or `nothing` for the empty sum.
pub fn show_sum(parts: &[Vec<u64>]) -> String {
    if parts.is_empty() {
        "nothing".to_string()
    } else {
        parts
            .iter()
            .map(|p| show_position(p))
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

/// The most positions outside the components' own box valued on demand when the box of their
/// moves was refused (a few seconds of the general rules).
const GROWN_OUTSIDE_POSITIONS: usize = 1 << 16;

/// The value of the sum of `components` of `game`, who wins, and every winning move. A
/// position game's position whose box would take too long or not fit in memory is decided by a
/// P-position criterion instead, when one holds on a smaller box ([`beyond`]). Reports no
/// progress ([`solve_with`] does).
pub fn solve(game: &Game, components: &[Vec<u64>]) -> Result<SolveReport, SolveError> {
    solve_with(game, components, &EngineOptions::default())
}

/// [`solve`], a long search over the positions reachable reporting its progress to
/// `options.progress`.
pub fn solve_with(
    game: &Game,
    components: &[Vec<u64>],
    options: &EngineOptions,
) -> Result<SolveReport, SolveError> {
    check_components(game, components)?;
    let coordinates = game.coordinates();
    let (extents, values, moves, move_values) = match game.position_program() {
        Some(program) => {
            if let Some(report) = solve_reachable(game, program, components, options)? {
                return Ok(report);
            }
            let mut tried_beyond = false;
            let (extents, estimate, moves) = match fitted_box(game, program, components)? {
                Fit::Exact(fitted) => fitted,
                Fit::Refused(refusal) => {
                    return beyond::solve_beyond_box(game, components, refusal)
                }
                // The box of the moves is too large: a criterion, else (a sum, or no pattern)
                // the components' own box with the positions outside it valued on demand.
                Fit::Grown { refusal, own } => {
                    match beyond::solve_beyond_box(game, components, refusal) {
                        Err(SolveError::SumBeyondBox { .. } | SolveError::NoCriterion { .. }) => {
                            tried_beyond = true;
                            own
                        }
                        decided => return decided,
                    }
                }
            };
            let positions = budget::box_positions(&extents);
            let solver = Solver::new(game, &extents).map(|s| {
                let s = s.with_outside_steps(estimate as u64);
                // Only the components' own box, because the box of their moves was refused:
                // the moves are known to reach far beyond it, so few positions outside it are
                // allowed, and a refusal comes in seconds rather than minutes.
                if tried_beyond {
                    s.with_outside_limit(GROWN_OUTSIDE_POSITIONS)
                } else {
                    s
                }
            });
            let mut solver = match solver {
                Err(EngineError::TooLarge {
                    needed_bytes,
                    available_bytes,
                    ..
                }) => {
                    let refusal = ExactRefusal::Memory {
                        positions,
                        needed_bytes,
                        available_bytes,
                    };
                    return beyond::solve_beyond_box(game, components, refusal);
                }
                solver => solver?,
            };
            // Moves that keep leaving even the fitted box: decided by a criterion instead.
            let leaves_box = |error: &EngineError| error.hint() == Some(Hint::LargerBox);
            let valued = (|| {
                let mut values = Vec::new();
                for c in components {
                    values.push(solver.value(c)?);
                }
                let mut move_values = Vec::new();
                for m in &moves {
                    let mut xor = Nimber::ZERO;
                    for part in &m.result {
                        xor += solver.value(part)?;
                    }
                    move_values.push(xor);
                }
                Ok((values, move_values))
            })();
            let (values, move_values) = match valued {
                Err(error) if leaves_box(&error) && !tried_beyond => {
                    let refusal = ExactRefusal::LeavesBox { positions };
                    return beyond::solve_beyond_box(game, components, refusal);
                }
                valued => valued?,
            };
            (extents, values, moves, move_values)
        }
        None => return solve_heaps(game, components, true),
    };
    let total = values.iter().sum::<Nimber>();
    let winning_moves = moves
        .into_iter()
        .zip(move_values)
        .filter(|(m, v)| (total + values[m.component] + *v).is_zero())
        .map(|(m, _)| m)
        .collect();
    Ok(SolveReport {
        coordinates,
        components: components.to_vec(),
        value: Some(total.value()),
        outcome: Outcome::of_value(total.value()),
        winning_moves,
        method: Method::ExactTable { extents },
        search: None,
        genus: None,
        misere: false,
    })
}

/// Boxes from this many positions are compared with the positions the components reach.
const REACHABLE_FROM_BOX: u128 = 1 << 16;

/// A position game's sum valued over the positions its components reach
/// ([`Method::Reachable`]), when that is the cheaper way: their box is out of reach, or at
/// least 16 times the estimate of the positions they reach ([`reachable::downward_estimate`],
/// exact when every move lowers coordinates). `None` when the box is the better way, or
/// the search stopped past its limits while the box is within reach.
fn solve_reachable(
    game: &Game,
    program: &crate::rules::Program,
    components: &[Vec<u64>],
    options: &EngineOptions,
) -> Result<Option<SolveReport>, SolveError> {
    let arity = components[0].len();
    let estimate = reachable::downward_estimate(components);
    let limit = reachable::position_limit(arity);
    if estimate > limit as u128 {
        return Ok(None);
    }
    let own = sum_box(components);
    let positions = budget::box_positions(&own);
    let box_refused = multi::check_box_memory(&own).is_err()
        || !budget::rule_steps(program, &own, SOLVE_EXACT_WORK).is_within();
    let box_larger = positions >= REACHABLE_FROM_BOX && estimate.saturating_mul(16) <= positions;
    if !box_refused && !box_larger {
        return Ok(None);
    }
    let mut search = Reachable::new(game, limit)?.with_progress(
        u64::try_from(estimate).unwrap_or(u64::MAX),
        options.progress.clone().filter(|_| estimate > 1 << 20),
    );
    let valued = (|| -> Result<_, SolveError> {
        let mut values = Vec::new();
        for c in components {
            values.push(search.value(c)?);
        }
        let total = values.iter().sum::<Nimber>();
        let mut winning_moves = Vec::new();
        for (i, c) in components.iter().enumerate() {
            for m in moves::moves_of(game, i, c)? {
                // Component i replaced by what the move leaves (⊕ is its own inverse).
                let mut xor = total + values[i];
                for part in &m.result {
                    xor += search.value(part)?;
                }
                if xor.is_zero() {
                    winning_moves.push(m);
                }
            }
        }
        Ok((total, winning_moves))
    })();
    search.finish();
    let (total, winning_moves) = match valued {
        // Moves that raise coordinates past the estimate: the box, if it can be had.
        Err(SolveError::Engine(e)) if e.hint() == Some(Hint::SmallerPositions) && !box_refused => {
            return Ok(None)
        }
        valued => valued?,
    };
    Ok(Some(SolveReport {
        coordinates: game.coordinates(),
        components: components.to_vec(),
        value: Some(total.value()),
        outcome: Outcome::of_value(total.value()),
        winning_moves,
        method: Method::Reachable {
            positions: search.positions(),
        },
        search: None,
        genus: None,
        misere: false,
    }))
}

/// [`solve`], every move listed and named by the rules, every winning one kept: a heap game's
/// sum never goes by a proof ([`sums`], whose moves are named by the code and capped per
/// component). For callers that match the winning moves against their own listing (`play`);
/// a position game's search reports its progress to `options.progress`.
pub fn solve_listing_every_move(
    game: &Game,
    components: &[Vec<u64>],
    options: &EngineOptions,
) -> Result<SolveReport, SolveError> {
    match game.position_program() {
        Some(_) => solve_with(game, components, options),
        None => {
            check_components(game, components)?;
            solve_heaps(game, components, false)
        }
    }
}

/// A heap game's sum: by a proof ([`sums`]) when listing every move would be heavy (and
/// `by_proof`), else (or when no proof applies) from the table up to the largest heap, every
/// move listed.
fn solve_heaps(
    game: &Game,
    components: &[Vec<u64>],
    by_proof: bool,
) -> Result<SolveReport, SolveError> {
    let largest = components.iter().map(|h| h[0]).max().unwrap_or(0);
    let mut unproved = None;
    if let Some(code) = game.code().filter(|_| by_proof) {
        if sums::listing_is_heavy(code, components) {
            match sums::solve_by_proof(game, components)? {
                Ok(report) => return Ok(report),
                Err(why) => unproved = Some(why),
            }
        }
    }
    // Before any work: a table too large for memory, then a code's heap too large to
    // list the moves of, are refused before the table is computed.
    let exact = engine::check_memory(game, largest)
        .map_err(SolveError::from)
        .and_then(|()| moves::check_listable(game, largest));
    if let Err(cause) = exact {
        return Err(match unproved {
            Some(why) => SolveError::Unproved {
                why,
                cause: Box::new(cause),
            },
            None => cause,
        });
    }
    let table = engine::compute(game, largest, &EngineOptions::default())?;
    let value = |heap: u64| table.get(heap as usize);
    let values: Vec<u32> = components.iter().map(|c| value(c[0])).collect();
    let total = values.iter().sum::<Nimber>();
    // Every move listed, one component at a time, only the winning ones named (a heap
    // game's moves leave heaps, empty ones as 0, whose value is 0).
    let mut winning_moves = Vec::new();
    for (i, c) in components.iter().enumerate() {
        let wanted = total + values[i];
        moves::for_each_move(game, c, moves::Limit::All, &mut |listed| {
            let v = listed.result.iter().map(|&h| value(h)).sum::<Nimber>();
            if v == wanted {
                winning_moves.push(moves::label(game, i, listed));
            }
        })?;
    }
    Ok(SolveReport {
        coordinates: game.coordinates(),
        components: components.to_vec(),
        value: Some(total.value()),
        outcome: Outcome::of_value(total.value()),
        winning_moves,
        method: Method::ExactTable {
            extents: vec![largest],
        },
        search: None,
        genus: None,
        misere: false,
    })
}

/// Refuses an empty sum, or components with the wrong number of coordinates.
fn check_components(game: &Game, components: &[Vec<u64>]) -> Result<(), SolveError> {
    let coordinates = game.coordinates();
    if components.is_empty() || components.iter().any(|c| c.len() != coordinates.len()) {
        return Err(SolveError::Engine(EngineError::Request(format!(
            "a sum of positions of ({}) needs at least one component of {} coordinates",
            coordinates.join(", "),
            coordinates.len()
        ))));
    }
    Ok(())
}

/// The exact values' box, its estimated rule steps and the components' moves.
type Fitted = (Vec<u64>, f64, Vec<GameMove>);

/// What [`fitted_box`] decided.
enum Fit {
    /// The box holding the components and every position their moves reach.
    Exact(Fitted),
    /// Even the components' own box is out of reach.
    Refused(ExactRefusal),
    /// The box of the moves is out of reach (`refusal`), the components' own box is not
    /// (`own`: positions outside it are then valued on demand).
    Grown {
        /// Why the box of the moves is out of reach.
        refusal: ExactRefusal,
        /// The components' own box.
        own: Fitted,
    },
}

/// The box of a position game's exact values, fitted to the question: every component and
/// every position one of their moves reaches (a move may raise a coordinate, as Fibonacci
/// Nim's `limit` grows from `(n, 0)`; positions further out are valued on demand), within
/// [`SOLVE_EXACT_WORK`] rule steps. No move is listed when the components' own box is
/// already out of reach.
fn fitted_box(
    game: &Game,
    program: &crate::rules::Program,
    components: &[Vec<u64>],
) -> Result<Fit, SolveError> {
    let within = |extents: &[u64]| match budget::rule_steps(program, extents, SOLVE_EXACT_WORK) {
        Steps::Within { estimate } => Ok(estimate),
        _ => Err(ExactRefusal::Work {
            positions: budget::box_positions(extents),
            limit: SOLVE_EXACT_WORK,
        }),
    };
    let own = sum_box(components);
    let own_estimate = match within(&own) {
        Ok(estimate) => estimate,
        Err(refusal) => return Ok(Fit::Refused(refusal)),
    };
    let mut moves = Vec::new();
    for (i, c) in components.iter().enumerate() {
        moves.extend(moves::moves_of(game, i, c)?);
    }
    let mut grown = own.clone();
    for part in moves.iter().flat_map(|m| &m.result) {
        for (extent, &c) in grown.iter_mut().zip(part) {
            *extent = (*extent).max(c);
        }
    }
    Ok(match within(&grown) {
        Ok(estimate) => Fit::Exact((grown, estimate, moves)),
        Err(refusal) => Fit::Grown {
            refusal,
            own: (own, own_estimate, moves),
        },
    })
}

/// The smallest box holding every component: the largest value of each coordinate.
fn sum_box(components: &[Vec<u64>]) -> Vec<u64> {
    (0..components[0].len())
        .map(|i| components.iter().map(|c| c[i]).max().unwrap_or(0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load, SourceFile};

    fn game(path: &str) -> Game {
        let text = std::fs::read_to_string(path).unwrap();
        load(SourceFile::new(path, &text), &[]).unwrap()
    }

    fn mv(component: usize, rule: &str, binders: &[(&str, i64)], result: &[&[u64]]) -> GameMove {
        GameMove {
            component,
            rule: rule.to_string(),
            binders: binders.iter().map(|&(n, v)| (n.to_string(), v)).collect(),
            result: result.iter().map(|r| r.to_vec()).collect(),
        }
    }

    #[test]
    fn nim_3_5_7() {
        // Bouton 1901: 3 ⊕ 5 ⊕ 7 = 1; the winning moves take 1 from each heap with that bit.
        let report = solve(&game("rules/nim.sg"), &[vec![3], vec![5], vec![7]]).unwrap();
        assert_eq!(report.value, Some(1));
        assert_eq!(report.outcome, Outcome::N);
        assert_eq!(report.method, Method::ExactTable { extents: vec![7] });
        assert_eq!(report.search, None);
        let moves: Vec<(usize, Vec<Vec<u64>>)> = report
            .winning_moves
            .iter()
            .map(|m| (m.component, m.result.clone()))
            .collect();
        assert_eq!(
            moves,
            [(0, vec![vec![2]]), (1, vec![vec![4]]), (2, vec![vec![6]])]
        );
        let p = solve(&game("rules/nim.sg"), &[vec![1], vec![2], vec![3]]).unwrap();
        assert_eq!((p.value, p.outcome), (Some(0), Outcome::P));
        assert!(p.winning_moves.is_empty());
    }

    #[test]
    fn wythoff_sum() {
        let report = solve(&game("rules/wythoff.sg"), &[vec![3, 4], vec![5, 2]]).unwrap();
        assert_eq!(report.value, Some(6));
        assert_eq!(
            report.method,
            Method::ExactTable {
                extents: vec![5, 4]
            }
        );
        assert_eq!(
            report.winning_moves,
            [
                mv(0, "`take_x`", &[("t", 3)], &[&[0, 4]]),
                mv(0, "`take_y`", &[("t", 3)], &[&[3, 1]]),
                mv(1, "`take_x`", &[("t", 5)], &[&[0, 2]]),
            ]
        );
    }

    #[test]
    fn fibonacci_nim_beyond_the_box() {
        // P6487 (the default, `whole = 1`): the start (n, 0) may take the whole pile.
        let far = vec![1_000_000_000_000_000, 0];
        let report = solve(&game("rules/fibonacci-nim.sg"), std::slice::from_ref(&far)).unwrap();
        assert_eq!(report.value, None);
        assert_eq!(report.outcome, Outcome::N);
        let Method::Criterion {
            description,
            box_text,
            refusal,
            criterion,
            ..
        } = &report.method
        else {
            panic!("{:?}", report.method)
        };
        assert!(description.contains("Zeckendorf"), "{description}");
        assert!(
            matches!(
                criterion,
                PCriterion::Line {
                    coordinate: 1,
                    at: 0,
                    below: 1,
                    ..
                }
            ),
            "{criterion:?}"
        );
        assert_eq!(box_text, "0 ≤ n ≤ 127, 0 ≤ limit ≤ 127");
        assert!(matches!(refusal, ExactRefusal::Work { .. }), "{refusal}");
        let search = report.search.as_ref().unwrap();
        assert_eq!(search.capped_rules, ["`first`"]);
        // 10^15's Zeckendorf sum ends in 3; the takes found from the bottom of the range, then
        // the whole pile from its top, in binder order.
        assert_eq!(report.winning_moves.len(), 7);
        assert_eq!(
            report.winning_moves[0],
            mv(0, "`first`", &[("t", 3)], &[&[999_999_999_999_997, 6]])
        );
        assert_eq!(
            report.winning_moves[6],
            mv(0, "`first`", &[("t", 1_000_000_000_000_000)], &[&[0, 0]])
        );
        // Whinihan's game (`whole = 0`): the start is (n, n − 1), and the criterion is the
        // threshold on the whole box.
        let text = std::fs::read_to_string("rules/fibonacci-nim.sg").unwrap();
        let whinihan = load(
            SourceFile::new("rules/fibonacci-nim.sg", &text),
            &[("whole".to_string(), 0)],
        )
        .unwrap();
        let start = vec![1_000_000_000_000_000, 999_999_999_999_999];
        let report = solve(&whinihan, std::slice::from_ref(&start)).unwrap();
        let Method::Criterion { criterion, .. } = &report.method else {
            panic!("{:?}", report.method)
        };
        assert!(
            matches!(criterion, PCriterion::Threshold { .. }),
            "{criterion:?}"
        );
        assert_eq!(report.search.as_ref().unwrap().capped_rules, ["`take`"]);
        assert_eq!(report.winning_moves.len(), 6);
        assert_eq!(
            report.winning_moves[0],
            mv(0, "`take`", &[("t", 3)], &[&[999_999_999_999_997, 6]])
        );
        // A sum beyond the box needs SG values.
        let err = solve(&game("rules/fibonacci-nim.sg"), &[far.clone(), vec![1, 2]]).unwrap_err();
        assert!(
            matches!(err, SolveError::SumBeyondBox { components: 2, .. }),
            "{err}"
        );
    }

    #[test]
    fn heavy_sums_go_by_proof_unless_every_move_is_asked_for() {
        // 150 Nim heaps adding up past the listing budget: by Bouton's G(n) = n, the moves
        // named by the code; listing every move (as `play` does), named by the rules. Both
        // keep exactly the heaps h with h ⊕ X < h, moved to h ⊕ X (Bouton 1901).
        let nim = game("rules/nim.sg");
        let mut heaps: Vec<Vec<u64>> = (0..150u64)
            .map(|i| vec![10_000 + (i * 7919) % 10_000])
            .collect();
        if heaps.iter().fold(0, |a, h| a ^ h[0]) == 0 {
            heaps[0][0] -= 1;
        }
        let x = heaps.iter().fold(0, |a, h| a ^ h[0]);
        let largest = heaps.iter().map(|h| h[0]).max().unwrap();
        let expected: Vec<(usize, Vec<Vec<u64>>)> = heaps
            .iter()
            .enumerate()
            .filter(|(_, h)| h[0] ^ x < h[0])
            .map(|(i, h)| (i, vec![vec![h[0] ^ x]]))
            .collect();
        assert!(!expected.is_empty());
        let by_proof = solve(&nim, &heaps).unwrap();
        assert!(matches!(by_proof.method, Method::Proved { .. }));
        let listed = solve_listing_every_move(&nim, &heaps, &EngineOptions::default()).unwrap();
        assert_eq!(
            listed.method,
            Method::ExactTable {
                extents: vec![largest]
            }
        );
        for report in [&by_proof, &listed] {
            assert_eq!(report.value, Some(x as u32));
            let got: Vec<(usize, Vec<Vec<u64>>)> = report
                .winning_moves
                .iter()
                .map(|m| (m.component, m.result.clone()))
                .collect();
            assert_eq!(got, expected);
        }
        assert!(listed.winning_moves.iter().all(|m| m.rule == "`take`"));
        assert!(by_proof
            .winning_moves
            .iter()
            .all(|m| m.rule == "the code 0.[3]"));
    }

    #[test]
    fn heap_errors_carry_the_engines_hint() {
        // An infinite code other than Nim: no theorem proves a period, and the table is too
        // large for memory; the refusal says both.
        let infinite = load(SourceFile::new("<t>", "takebreak 0.[7]"), &[]).unwrap();
        let err = solve(&infinite, &[vec![1_000_000_000_000_000]]).unwrap_err();
        let SolveError::Unproved { why, cause } = &err else {
            panic!("{err}")
        };
        assert!(
            matches!(**cause, SolveError::Engine(EngineError::TooLarge { .. })),
            "{cause}"
        );
        assert!(why.contains("infinite codes"), "{why}");
        assert_eq!(err.hint(), Some(Hint::SmallerTable));
        let grid = solve(&game("rules/wythoff.sg"), &[vec![3]]).unwrap_err();
        assert!(
            matches!(grid, SolveError::Engine(EngineError::Request(_))),
            "{grid}"
        );
    }
}
