//! `solve` in misère play: the genus of a sum of positions, who wins (P: the player to move
//! loses, `G⁻ = 0`), and every winning move (one to a sum with `G⁻ = 0`), exactly, for any game.
//!
//! * First, without any search over sums (`without_search`): the components' genera come
//!   from Nim's theorem when the game is Nim (the code `0.[3]`, [`is_nim_code`]:
//!   [`Genus::nim_heap`]), else from the recursion on options of
//!   [`crate::value::misere::Recursion`], which stops at the first option that is a sum with a
//!   component that is not tame. When every component is then tame (its genus and those of all
//!   its positions are tame), the sum is decided by Conway's tame addition
//!   ([`Genus::tame_sum`], ONAG ch. 12; Winning Ways ch. 13): the normal values add by XOR and
//!   the misère value is the normal one, flipped (`⊕ 1`) exactly when every component is
//!   fickle (genus `0^{120}` or `1^{031}`) — misère Nim's rule generalised
//!   ([`Method::TameRule`]); every move is checked by the same rule. A sum of one component
//!   that is not tame is its own genus, and every move leads to one of its options, valued
//!   by the recursion ([`Method::OptionRecursion`]).
//! * Otherwise, for a large sum of heaps, a quick attempt at the misère quotient of the heaps
//!   up to the largest (Plambeck–Siegel, [`crate::value::misere::quotient`], proved before
//!   use) decides the outcome of the sum and of every move ([`Method::Quotient`]); `G⁻` of
//!   the sum is then not computed.
//! * Otherwise the sum is valued by the exact search over canonical sums of
//!   [`crate::value::misere::Sums`] ([`Method::SumSearch`]).
//!
//! Either way, every move of every component is checked by valuing the sum it leads to through
//! the same search. Before a search, [`sums_bound`] bounds the sums it can store (heaps of a
//! take-and-break code: multisets of heaps no larger, no more tokens in all); the search stops
//! past its budget of stored sums ([`SOLVE_SUMS`]; the search runs lazily from the sum asked,
//! metered while it runs) with
//! [`crate::engine::EngineError::TooManySums`]. The bound is only an estimate, stated in a
//! note when it is past the budget; no sum is refused by it.

use serde::Serialize;

use crate::engine::progress::{Progress, ProgressSink};
use crate::engine::{EngineError, Nimber};
use crate::rules::code::Digit;
use crate::rules::{Game, GameKind, TakeBreakCode};
use crate::value::evaluate;
use crate::value::misere::quotient::{self, Quotient};
use crate::value::misere::{Genus, Recursion, Sums, Unvalued, Valued};
use crate::value::Notice;

use super::moves::{self, Limit};
use super::{check_components, sum_box, Method, Outcome, SolveError, SolveReport};

/// How [`solve_misere`] runs.
#[derive(Default)]
pub struct MisereOptions<'a> {
    /// Value the sum by the search over its options even when every component is tame (the
    /// search then never uses tame addition): to check the tame rule against the definition.
    pub force_search: bool,
    /// Stop past this many stored sums instead of [`SOLVE_SUMS`] (for tests of the limit).
    pub max_sums: Option<usize>,
    /// Where the search reports its progress (the number of sums stored).
    pub progress: Option<std::sync::Arc<dyn ProgressSink>>,
    /// Try the misère quotient when the search may need more than this many sums instead of
    /// [`QUOTIENT_FROM`] (0: whenever a component is wild; for tests of the quotient path).
    pub quotient_from: Option<u128>,
    /// Told, before a search, when the search may need more sums than it may keep
    /// ([`Notice::ManySums`]), or when no quick misère quotient was found
    /// ([`Notice::NoQuickQuotient`]), so that the caller can say so up front.
    pub notices: Option<&'a dyn Fn(&Notice)>,
}

/// `solve` in misère play (see the module documentation): the report's `value` is `G⁻` of the
/// sum, `genus` its genus, `method` [`Method::TameRule`] or [`Method::SumSearch`].
pub fn solve_misere(
    game: &Game,
    components: &[Vec<u64>],
    options: MisereOptions<'_>,
) -> Result<SolveReport, SolveError> {
    check_components(game, components)?;
    let coordinates = game.coordinates();
    let arity = coordinates.len();
    if !options.force_search {
        if let Some(report) = by_nim_theorem(game, components)? {
            return Ok(report);
        }
    }
    // Before any work: the values of every position up to the largest component (heaps below
    // it, the box under it) must fit and their rules finish, and a code's moves be listable.
    let generator = evaluate::check_request(game, &sum_box(components))?;
    if game.position_program().is_none() {
        let largest = components.iter().map(|c| c[0]).max().unwrap_or(0);
        moves::check_listable(game, largest)?;
    }
    if !options.force_search {
        if let Some(report) = without_search(game, components)? {
            return Ok(report);
        }
    }
    let bound = sums_bound(game, components);
    let mut sums = Sums::new(game);
    if options.force_search {
        sums = sums.without_tame_addition();
    }
    // The search is lazy (only the sums this one leads to) and metered while it runs: past
    // its budget of stored sums it stops with `TooManySums` (exit 1).
    let limit = options.max_sums.unwrap_or(SOLVE_SUMS);
    sums = sums.with_max_sums(limit);
    let end = bound.map_or(limit as u64, |b| b.min(limit as u128) as u64);
    sums = sums.with_progress(Progress::counting("sums", end, options.progress.clone()));

    // A wild sum of heaps may be decided by its misère quotient, without the search. With that
    // to fall back on, the components alone are first valued within the quick limit: a wild
    // heap alone can need millions of sums that the quotient never looks at.
    let quotient_from = options.quotient_from.unwrap_or(QUOTIENT_FROM);
    let quotient_may_help = !options.force_search
        && game.position_program().is_none()
        && generator.decreasing()
        && bound.is_none_or(|b| b > quotient_from);
    if quotient_may_help {
        sums = sums.with_max_sums(QUICK_QUOTIENT.max_sums.min(limit));
    }
    // Each component alone: its genus and whether it is tame.
    let mut genera = Vec::with_capacity(components.len());
    let mut wild = Vec::new();
    let all_valued = value_alone(
        &mut sums,
        components,
        &mut genera,
        &mut wild,
        quotient_may_help,
    )?;
    let flat: Vec<u64> = components.concat();
    let tame_rule = all_valued && wild.is_empty() && !options.force_search;
    if quotient_may_help && !tame_rule {
        let largest = flat.iter().copied().max().unwrap_or(0);
        let attempt = match quotient_of(game, largest)? {
            Ok(quotient) => by_quotient(game, components, &quotient)?
                .ok_or_else(|| "a move leaves a heap beyond the quotient's".to_string()),
            Err(reason) => Err(reason),
        };
        match attempt {
            Ok(report) => {
                sums.finish_progress();
                return Ok(report);
            }
            Err(reason) => {
                if let Some(notices) = options.notices {
                    notices(&Notice::NoQuickQuotient { largest, reason });
                }
                // The search's rate and time left from here, not from before the attempt.
                sums.finish_progress();
                sums =
                    sums.with_progress(Progress::counting("sums", end, options.progress.clone()));
            }
        }
    }
    sums = sums.with_max_sums(limit);
    value_alone(&mut sums, components, &mut genera, &mut wild, false)?;
    let total = sums.canonical(&flat)?;
    let tame_rule = wild.is_empty() && !options.force_search;
    let genus = if tame_rule {
        genera
            .iter()
            .skip(1)
            .fold(genera[0].clone(), |sum, g| sum.tame_sum(g))
    } else {
        if let (Some(notices), Some(bound)) = (options.notices, bound) {
            if bound > limit as u128 {
                notices(&Notice::ManySums { bound, limit });
            }
        }
        sums.value(&total)?.genus.clone()
    };

    // Every move, checked by valuing the sum it leads to.
    let mut winning_moves = Vec::new();
    for (i, component) in components.iter().enumerate() {
        for m in moves::moves_of(game, i, component)? {
            let mut after: Vec<u64> = Vec::with_capacity(flat.len() + arity * m.result.len());
            for (j, other) in components.iter().enumerate() {
                if j != i {
                    after.extend_from_slice(other);
                }
            }
            for part in &m.result {
                after.extend_from_slice(part);
            }
            let after = sums.canonical(&after)?;
            if sums.value(&after)?.genus.misere() == 0 {
                winning_moves.push(m);
            }
        }
    }
    sums.finish_progress();
    let misere = genus.misere();
    let outcome = Outcome::of_value(misere);
    // A sum with no move is won by the player to move, who has no winning *move*.
    debug_assert!((outcome == Outcome::N) != winning_moves.is_empty() || total.is_empty());
    let method = if tame_rule {
        Method::TameRule {
            sums: sums.len(),
            genera: Genera::Search,
        }
    } else {
        Method::SumSearch {
            sums: sums.len(),
            wild,
            bound,
        }
    };
    Ok(SolveReport {
        coordinates,
        components: components.to_vec(),
        value: Some(misere),
        outcome,
        winning_moves,
        method,
        search: None,
        genus: Some(genus),
        misere: true,
    })
}

/// How the components' genera were found for the tame rule ([`Method::TameRule`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Genera {
    /// By the search over sums (the components alone, and the sums moved to).
    Search,
    /// By the recursion on options ([`Recursion`]), no search over sums.
    Recursion {
        /// Positions valued.
        positions: usize,
    },
    /// By the theorem on Nim's genera ([`Genus::nim_heap`]): the game is Nim, the code `0.[3]`.
    Nim {
        /// The code, as written (`0.[3]`).
        code: String,
        /// For rules lowered to the code: the bound up to which their moves were checked
        /// equal to the code's when loading ([`crate::rules::Lowering`]); beyond it, they are
        /// the code's by the lowering argument, not by a check. `None` for a family form,
        /// which is the code by definition, and for rules proved the code's at every heap
        /// ([`crate::rules::LoweringProof::Thresholds`]).
        checked_to: Option<u64>,
        /// The largest heap of the sum.
        largest: u64,
    },
}

impl Genera {
    /// Whether a heap of the sum lies beyond the moves checked when loading (the genera then
    /// rest on the lowering argument).
    pub fn rests_on_lowering(&self) -> bool {
        matches!(self, Genera::Nim { checked_to: Some(v), largest, .. } if largest > v)
    }
}

/// Whether `code` is Nim: no move removes nothing, and removing any `k ≥ 1` tokens may leave
/// one heap or (taking the whole heap) none — digit `3` for every `k ≥ 1`, so the options of
/// heap `n` are exactly the heaps `0..n`.
pub fn is_nim_code(code: &TakeBreakCode) -> bool {
    let three = Digit::from_mask(3);
    !code.tail.is_empty()
        && code.digit(0).is_empty()
        && code.digits.iter().skip(1).all(|d| *d == three)
        && code.tail.iter().all(|d| *d == three)
}

/// A sum of Nim heaps by the theorem on their genera ([`Genus::nim_heap`], so no heap's genus
/// is computed from its options) and the tame rule, the winning moves found from it: misère
/// Nim (Bouton 1902) in time proportional to the number of heaps (each heap's at most two
/// candidate moves checked by the rule, not its every move). `None` when the game is not Nim,
/// or a heap is too large for a genus (`> u32::MAX`).
fn by_nim_theorem(game: &Game, components: &[Vec<u64>]) -> Result<Option<SolveReport>, SolveError> {
    let Some(code) = game.code() else {
        return Ok(None);
    };
    if !is_nim_code(code) || game.position_program().is_some() {
        return Ok(None);
    }
    let largest = components.iter().map(|c| c[0]).max().unwrap_or(0);
    if largest > u64::from(u32::MAX) {
        return Ok(None);
    }
    moves::check_listable(game, largest)?;
    let genera: Vec<Genus> = components
        .iter()
        .map(|c| Genus::nim_heap(c[0] as u32))
        .collect();
    let method = Method::TameRule {
        sums: 0,
        genera: Genera::Nim {
            code: code.to_string(),
            checked_to: game.lowering().and_then(|l| l.checked_to()),
            largest,
        },
    };
    // The tame rule (misère value = normal value, or its opposite parity when no component
    // is firm) asks a move `h → h'` to leave the normal value 0 when a firm heap remains, and
    // 1 when none does: `h'` is the rest's normal value or that with its last bit flipped.
    // So each heap has at most two candidate moves, each checked by the rule as
    // [`tame_report`] checks every move — linear in the heaps, not in their sizes.
    let normal = genera.iter().map(|g| g.normal).sum::<Nimber>();
    let firm = genera.iter().filter(|g| !g.is_fickle()).count();
    let mut winning = Vec::new();
    for (i, (component, genus)) in components.iter().zip(&genera).enumerate() {
        let h = component[0];
        let normal_rest = (normal + genus.normal).value();
        let firm_rest = firm - usize::from(!genus.is_fickle());
        let mut targets = [normal_rest, normal_rest ^ 1];
        // Listed as the code lists them: fewest tokens taken first.
        targets.sort_unstable_by(|a, b| b.cmp(a));
        for (j, &target) in targets.iter().enumerate() {
            if u64::from(target) >= h || (j == 1 && target == targets[0]) {
                continue;
            }
            let left = Genus::nim_heap(target);
            let after_normal = (Nimber(normal_rest) + left.normal).value();
            let after_firm = firm_rest + usize::from(!left.is_fickle());
            let misere = if after_firm == 0 {
                after_normal ^ 1
            } else {
                after_normal
            };
            if misere == 0 {
                winning.push(nim_move(game, i, h, u64::from(target))?);
            }
        }
    }
    let normal = normal.value();
    let misere = if firm == 0 { normal ^ 1 } else { normal };
    let genus = if let [one] = &genera[..] {
        one.clone()
    } else {
        Genus::tame(normal, misere)
    };
    Ok(Some(report(game, components, genus, winning, method)))
}

/// The sum without a search over sums, when the recursion on options values every component
/// without meeting a sum with a component that is not tame: by the tame rule when every
/// component is tame, by the component's own genus when the sum has one. `None` otherwise (the
/// caller searches the sums).
fn without_search(game: &Game, components: &[Vec<u64>]) -> Result<Option<SolveReport>, SolveError> {
    let mut recursion = Recursion::new(game, &sum_box(components));
    let mut valued: Vec<Valued> = Vec::with_capacity(components.len());
    for component in components {
        match recursion.value(component) {
            Ok(v) => valued.push(v.clone()),
            Err(Unvalued::WildSum { .. }) => return Ok(None),
            Err(Unvalued::Engine(error)) => {
                return Err(evaluate::name_graph_cycle(game, error).into())
            }
        }
    }
    let positions = recursion.positions_valued();
    if valued.iter().all(Valued::is_tame) {
        let genera: Vec<Genus> = valued.into_iter().map(|v| v.genus).collect();
        let method = Method::TameRule {
            sums: 0,
            genera: Genera::Recursion { positions },
        };
        return tame_report(
            game,
            components,
            &genera,
            &|part| {
                recursion
                    .known(part)
                    .filter(|v| v.is_tame())
                    .map(|v| v.genus.clone())
            },
            method,
        );
    }
    if components.len() > 1 {
        return Ok(None);
    }
    // One component, not tame: its genus; each move leads to one of its options.
    let mut winning = Vec::new();
    let mut unvalued = false;
    moves::for_each_move(
        game,
        &components[0],
        Limit::All,
        &mut |listed| match recursion.sum_of_known(listed.result) {
            Some(after) if after.genus.misere() == 0 => winning.push(moves::label(game, 0, listed)),
            Some(_) => {}
            None => unvalued = true,
        },
    )?;
    if unvalued {
        return Ok(None);
    }
    let genus = valued.swap_remove(0).genus;
    Ok(Some(report(
        game,
        components,
        genus,
        winning,
        Method::OptionRecursion { positions },
    )))
}

/// The report of a sum of tame components of genera `genera` by Conway's tame rule, each move
/// checked by the same rule: a move leaves a sum whose normal value is the XOR of the
/// components' and whose misère value is that, flipped exactly when every component is fickle.
/// `part` gives the genus of a component a move leaves (`None`, or a genus that is not tame,
/// sends the sum back to the caller's search: `Ok(None)`).
fn tame_report(
    game: &Game,
    components: &[Vec<u64>],
    genera: &[Genus],
    part: &dyn Fn(&[u64]) -> Option<Genus>,
    method: Method,
) -> Result<Option<SolveReport>, SolveError> {
    let normal = genera.iter().map(|g| g.normal).sum::<Nimber>();
    let firm = genera.iter().filter(|g| !g.is_fickle()).count();
    let arity = game.coordinates().len().max(1);
    let mut winning = Vec::new();
    let mut unvalued = false;
    for (i, (component, genus)) in components.iter().zip(genera).enumerate() {
        let normal_rest = normal + genus.normal;
        let firm_rest = firm - usize::from(!genus.is_fickle());
        moves::for_each_move(game, component, Limit::All, &mut |listed| {
            if unvalued {
                return;
            }
            let (mut after_normal, mut after_firm) = (normal_rest, firm_rest);
            for left in listed.result.chunks(arity) {
                match part(left) {
                    Some(g) if g.is_tame() => {
                        after_normal += g.normal;
                        after_firm += usize::from(!g.is_fickle());
                    }
                    _ => {
                        unvalued = true;
                        return;
                    }
                }
            }
            let after_normal = after_normal.value();
            let misere = if after_firm == 0 {
                after_normal ^ 1
            } else {
                after_normal
            };
            if misere == 0 {
                winning.push(moves::label(game, i, listed));
            }
        })?;
        if unvalued {
            return Ok(None);
        }
    }
    let normal = normal.value();
    let misere = if firm == 0 { normal ^ 1 } else { normal };
    let genus = if let [one] = genera {
        one.clone()
    } else {
        Genus::tame(normal, misere)
    };
    Ok(Some(report(game, components, genus, winning, method)))
}

fn report(
    game: &Game,
    components: &[Vec<u64>],
    genus: Genus,
    winning_moves: Vec<super::GameMove>,
    method: Method,
) -> SolveReport {
    let misere = genus.misere();
    SolveReport {
        coordinates: game.coordinates(),
        components: components.to_vec(),
        value: Some(misere),
        outcome: Outcome::of_value(misere),
        winning_moves,
        method,
        search: None,
        genus: Some(genus),
        misere: true,
    }
}

/// Sums whose search may need more sums than this first try the misère quotient (of a heap
/// game whose every move leaves smaller heaps, so that the quotient of the heaps up to the
/// largest covers every position of the sum).
pub const QUOTIENT_FROM: u128 = 100_000;

/// The limits of the quick attempt at a quotient before a search (a few seconds at most).
pub const QUICK_QUOTIENT: quotient::Limits = quotient::Limits {
    max_outcomes: 50_000,
    max_proof_states: 50_000,
    max_sums: 50_000,
};

/// The most rule steps [`nim_move`] spends on one pinned listing.
const PINNED_STEPS: u64 = 4096;

/// The move of component `i`, a Nim heap `h`, to the heap `target`, named as the game names it:
/// by the code, or by the rules that were lowered to it (found by listing the rules with their
/// first binder pinned to the tokens taken or to the heap left, which finds Nim's rules in a
/// few steps, and else by listing the heap's every move).
fn nim_move(game: &Game, i: usize, h: u64, target: u64) -> Result<super::GameMove, SolveError> {
    let left: Vec<u64> = if target == 0 {
        Vec::new()
    } else {
        vec![target]
    };
    let take = h - target;
    let leaves = |result: &[u64]| {
        result
            .iter()
            .copied()
            .filter(|&r| r > 0)
            .eq(left.iter().copied())
    };
    if let GameKind::General { program, .. } = &game.kind {
        for first in [take, target] {
            let Ok(first) = i64::try_from(first) else {
                continue;
            };
            let mut found: Option<(usize, Vec<i64>, Vec<u64>)> = None;
            // A rule's error or cap only ends this quick attempt: the full listing follows.
            let _ = program.for_each_option_with_first(
                &[h],
                first,
                PINNED_STEPS,
                &mut |rule, binders, m| match m {
                    crate::rules::program::Move::Sum(result) if leaves(result) => {
                        found = Some((rule, binders.to_vec(), result.to_vec()));
                        std::ops::ControlFlow::Break(())
                    }
                    _ => std::ops::ControlFlow::Continue(()),
                },
            );
            if let Some((rule, binders, result)) = found {
                return Ok(moves::label(
                    game,
                    i,
                    moves::Listed {
                        rule: moves::RuleOf::Rule(rule),
                        binders: &binders,
                        result: &result,
                    },
                ));
            }
        }
        let mut found = None;
        moves::for_each_move(game, &[h], Limit::All, &mut |listed| {
            if found.is_none() && leaves(listed.result) {
                found = Some(moves::label(game, i, listed));
            }
        })?;
        if let Some(found) = found {
            return Ok(found);
        }
    }
    Ok(moves::label(
        game,
        i,
        moves::Listed {
            rule: moves::RuleOf::Code,
            binders: &[take as i64],
            result: &left,
        },
    ))
}

/// The sums `solve`'s search over sums may store while it runs: half a misère table's
/// ([`crate::value::misere::TABLE_SUMS`]), since a sum of many components has as many more
/// options to list per sum stored.
pub const SOLVE_SUMS: usize = crate::value::misere::TABLE_SUMS as usize / 2;

/// Values the components from `genera.len()` on, each alone, pushing its genus (and its index
/// to `wild` when it is not tame). With `stop_at_limit`, a component past the search's limit
/// ends the loop: `Ok(false)`, the rest not valued.
fn value_alone(
    sums: &mut Sums<'_>,
    components: &[Vec<u64>],
    genera: &mut Vec<Genus>,
    wild: &mut Vec<usize>,
    stop_at_limit: bool,
) -> Result<bool, SolveError> {
    for (i, component) in components.iter().enumerate().skip(genera.len()) {
        match sums
            .canonical(component)
            .and_then(|alone| sums.value(&alone).cloned())
        {
            Ok(valued) => {
                if !valued.is_tame() {
                    wild.push(i);
                }
                genera.push(valued.genus);
            }
            Err(EngineError::TooManySums { .. }) if stop_at_limit => return Ok(false),
            Err(error) => return Err(error.into()),
        }
    }
    Ok(true)
}

/// The misère quotient of the heaps `≤ largest` within [`QUICK_QUOTIENT`], or why there is
/// none.
fn quotient_of(game: &Game, largest: u64) -> Result<Result<Quotient, String>, SolveError> {
    let steps = match quotient::quotients_within(game, largest, 6, QUICK_QUOTIENT, &mut |_| {}) {
        Err(EngineError::TooManySums { limit, .. }) => {
            return Ok(Err(format!("its search went past {limit} sums")))
        }
        other => other?,
    };
    Ok(match steps.into_iter().last() {
        Some(quotient::Step::Found(q)) if q.max_heap == largest => Ok(q),
        Some(quotient::Step::NotFound { max_heap, reason }) => {
            Err(format!("at heap {max_heap}: {reason}"))
        }
        _ => Err("no heap with a move".to_string()),
    })
}

/// The report of a sum of heaps decided by its quotient: P iff the product of the heaps'
/// elements is in the P-portion, and a move wins iff it leads to such a sum. `None` if a
/// move leaves a heap the quotient does not cover.
fn by_quotient(
    game: &Game,
    components: &[Vec<u64>],
    quotient: &Quotient,
) -> Result<Option<SolveReport>, SolveError> {
    let heaps: Vec<u64> = components.iter().map(|c| c[0]).collect();
    let mut winning_moves = Vec::new();
    for (i, component) in components.iter().enumerate() {
        for m in moves::moves_of(game, i, component)? {
            let mut after: Vec<u64> = heaps.clone();
            after.remove(i);
            after.extend(m.result.iter().map(|part| part[0]));
            match quotient.is_p_position(&after) {
                Some(true) => winning_moves.push(m),
                Some(false) => {}
                None => return Ok(None),
            }
        }
    }
    let Some(p) = quotient.is_p_position(&heaps) else {
        return Ok(None);
    };
    let outcome = Outcome::of_p(p);
    Ok(Some(SolveReport {
        coordinates: game.coordinates(),
        components: components.to_vec(),
        value: None,
        outcome,
        winning_moves,
        method: Method::Quotient {
            max_heap: quotient.max_heap,
            order: quotient.order(),
            p_portion: quotient.p_portion.len(),
        },
        search: None,
        genus: None,
        misere: true,
    }))
}

/// An upper bound on the sums the search over a sum of heaps can store, when one is cheap and
/// sure: for a take-and-break code (or rules checked equal to one up to the largest heap),
/// where a move never adds tokens and every heap left is smaller than the heap moved, each
/// stored sum is a multiset of heaps of at most the largest heap `m`, with at most the sum's
/// `T` tokens in all, and a union of such multisets of at most `h` tokens for each heap `h`
/// of the sum. The bound is the smaller count of the two (partitions, by a table of
/// `m · T` entries, computed when that is at most [`BOUND_WORK`]); saturating. `None` for
/// position games and other rules.
pub fn sums_bound(game: &Game, components: &[Vec<u64>]) -> Option<u128> {
    if game.position_program().is_some() {
        return None;
    }
    let largest = components.iter().map(|c| c[0]).max().unwrap_or(0);
    let token_rule = match &game.kind {
        GameKind::Code { .. } => true,
        GameKind::Graph { .. } => false,
        GameKind::General { .. } => game
            .lowering()
            .is_some_and(|lowering| lowering.exact_to(largest)),
    };
    if !token_rule {
        return None;
    }
    let tokens: u64 = components.iter().map(|c| c[0]).sum();
    if (largest as u128) * (tokens as u128 + 1) > BOUND_WORK {
        return None;
    }
    let (m, t) = (largest as usize, tokens as usize);
    // ways[s]: multisets of parts 1..=m with s tokens in all.
    let mut ways = vec![0u128; t + 1];
    ways[0] = 1;
    for part in 1..=m {
        for s in part..=t {
            ways[s] = ways[s].saturating_add(ways[s - part]);
        }
    }
    let global = ways.iter().fold(0u128, |a, &w| a.saturating_add(w));
    // For s ≤ m, ways[s] is every partition of s: up to h tokens, Σ_{s ≤ h} p(s).
    let mut up_to = vec![0u128; m + 1];
    let mut running = 0u128;
    for (s, slot) in up_to.iter_mut().enumerate() {
        running = running.saturating_add(ways[s]);
        *slot = running;
    }
    let product = components
        .iter()
        .fold(1u128, |a, c| a.saturating_mul(up_to[c[0] as usize]));
    Some(global.min(product))
}

/// The most work (table entries) [`sums_bound`] spends.
pub const BOUND_WORK: u128 = 20_000_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::game;

    #[test]
    fn misere_nim_by_the_tame_rule() {
        let nim = game("move take: x in 1..=n => n - x");
        let report =
            solve_misere(&nim, &[vec![1], vec![1], vec![1]], MisereOptions::default()).unwrap();
        assert_eq!(report.outcome, Outcome::P);
        assert!(matches!(report.method, Method::TameRule { .. }));
        assert_eq!(report.genus.as_ref().unwrap().to_string(), "1^{031}");
        let report =
            solve_misere(&nim, &[vec![2], vec![2], vec![3]], MisereOptions::default()).unwrap();
        assert_eq!(report.outcome, Outcome::N);
        for m in &report.winning_moves {
            let mut after = vec![2, 2, 3];
            after.remove(m.component);
            after.extend(m.result.iter().map(|r| r[0]));
            assert!(crate::oracle::misere::bouton_misere_p(&after), "{m:?}");
        }
        assert_eq!(report.winning_moves.len(), 3);
    }

    #[test]
    fn nim_is_recognised_by_its_code_only() {
        let code = |text: &str| game(text).code().cloned().unwrap();
        assert!(is_nim_code(&code("octal 0.[3]")));
        assert!(is_nim_code(&code("octal 0.3[3]")));
        assert!(is_nim_code(&code("move take: x in 1..=n => n - x")));
        for other in [
            "octal 0.[7]",
            "octal 0.333",
            "octal 0.[2]",
            "octal 0.[1]",
            "octal 4.[3]",
        ] {
            assert!(!is_nim_code(&code(other)), "{other}");
        }
        assert!(!is_nim_code(&code("subtraction {1, 2, 3}")));
    }

    #[test]
    fn kayles_is_wild_and_searched() {
        let kayles = game("octal 0.77");
        let report = solve_misere(
            &kayles,
            &[vec![5], vec![5], vec![3]],
            MisereOptions::default(),
        )
        .unwrap();
        let Method::SumSearch { wild, bound, .. } = &report.method else {
            panic!("{:?}", report.method)
        };
        assert_eq!(wild, &[0, 1]);
        assert!(bound.is_some());
        let forced = solve_misere(
            &kayles,
            &[vec![5], vec![5], vec![3]],
            MisereOptions {
                force_search: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(forced.genus, report.genus);
        assert_eq!(forced.winning_moves, report.winning_moves);
    }

    #[test]
    fn bounds_count_multisets_of_heaps() {
        // Heaps 5, 5, 3: 19 · 19 · 7 by components; multisets of parts ≤ 5 with ≤ 13 tokens.
        let kayles = game("octal 0.77");
        let bound = sums_bound(&kayles, &[vec![5], vec![5], vec![3]]).unwrap();
        assert!(bound <= 19 * 19 * 7, "{bound}");
        assert_eq!(sums_bound(&kayles, &[vec![3]]), Some(7));
        assert_eq!(
            sums_bound(
                &game("position (x, y)\nmove t in 1..=x => (x - t, y)"),
                &[vec![1, 2]]
            ),
            None
        );
    }
}
