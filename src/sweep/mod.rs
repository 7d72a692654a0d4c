//! Sweeps: one game over a range of its parameters, each instance's period and patterns, and
//! the formulas in the parameters that hold on every instance ("the period is `k + 1`").
//!
//! A sweep reads the parameters' [ranges] (`k=1..=30`, `R=L..=8`), loads the rules
//! once per instance with those values, and runs the period search of `sgscope period` on each
//! ([`analysis::find_period`]: proved where the periodicity theorem applies), the instances in
//! parallel. Of each instance it keeps the report and two [shapes] read off every
//! value computed: a closed form of `G` and the set of P-positions. Then [`fit`] looks for
//! formulas in the parameters — of the period, the preperiod, the saltus, the P-positions and
//! `G` itself — each checked on every instance it covers, exactly: the fitted constants are
//! the instance's own, and the instance's shape holds on all its values. A formula is
//! observed on the instances swept, never proved for the others.

pub mod fit;
pub mod positions;
pub mod ranges;
pub mod shapes;

use std::sync::Mutex;

use rayon::prelude::*;
use thiserror::Error;

use crate::analysis::{self, PeriodReport};
use crate::engine::progress::Progress;
use crate::engine::{EngineError, EngineOptions, SgTable};
use crate::rules::{self, Game, RulesError};
pub use fit::{Affine, Condition, Fit, Piece, Shape};
pub use positions::PositionSummary;
pub use ranges::{ParamRange, RangeError, MAX_INSTANCES};
pub use shapes::Found;

/// Why one instance has no result.
#[derive(Debug, Error)]
pub enum InstanceError {
    /// The rules refuse these parameter values.
    #[error(transparent)]
    Rules(Box<RulesError>),
    /// The engine refused or failed (a budget, a cycle).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The instance is a position game or a graph: it has no period.
    #[error("not a heap game")]
    NotAHeapGame,
}

/// Why a sweep was refused before any instance ran.
#[derive(Debug, Error)]
pub enum SweepError {
    /// The ranges.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// A swept name is not a parameter of the rules.
    #[error("`{name}` is not a parameter of {game}")]
    NotAParameter {
        /// The name.
        name: String,
        /// The game.
        game: String,
        /// The parameters the rules declare.
        declared: Vec<String>,
    },
    /// The game is a graph file (no parameters to sweep, no period).
    #[error("{game} is a graph file")]
    NotAHeapGame {
        /// The game.
        game: String,
    },
}

/// What one instance gave.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The period search's report (period, preperiod, saltus, proved, largest value, …).
    pub report: PeriodReport,
    /// A closed form of `G` that holds on every value computed.
    pub g_form: Option<Found>,
    /// The P-positions as a shape, when they have one.
    pub p_set: Option<Found>,
    /// How many P-positions among the values computed, `G(0..values_computed)`.
    pub p_count: usize,
    /// The first few P-positions (read past the values computed by a proved period).
    pub p_first: Vec<u64>,
    /// When the period is proved: `G(0..preperiod + period)`, every value there is.
    pub proved_values: Option<Vec<u32>>,
}

/// P-positions listed per instance.
pub const P_LISTED: usize = 8;

/// One instance: its parameters' values and what it gave.
#[derive(Debug)]
pub struct Instance {
    /// One value per swept parameter, in the order of the ranges.
    pub params: Vec<i64>,
    /// Its summary, or why there is none.
    pub result: Result<Summary, InstanceError>,
}

/// A quantity of an instance that a formula can describe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    /// The smallest period of `G`.
    Period,
    /// Where the period starts.
    Preperiod,
    /// The saltus (0: purely periodic).
    Saltus,
    /// The set of P-positions.
    PPositions,
    /// `G(n)` itself.
    G,
}

impl Quantity {
    /// Every quantity, in report order.
    pub const ALL: [Quantity; 5] = [
        Quantity::Period,
        Quantity::Preperiod,
        Quantity::Saltus,
        Quantity::PPositions,
        Quantity::G,
    ];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Quantity::Period => "period",
            Quantity::Preperiod => "preperiod",
            Quantity::Saltus => "saltus",
            Quantity::PPositions => "P-positions",
            Quantity::G => "G(n)",
        }
    }
}

/// A formula of one quantity over the instances.
#[derive(Clone, Debug)]
pub struct QuantityFit {
    /// Which quantity.
    pub quantity: Quantity,
    /// The formula found (pieces, each checked on every instance it covers), or `None`.
    pub fit: Option<Fit>,
    /// Instances (indices into [`SweepReport::instances`]) the formula says nothing of: no
    /// period found, no shape, an error, or not covered by a partial fit.
    pub missing: Vec<usize>,
    /// Instances the formula covers.
    pub covered: Vec<usize>,
    /// Every covered instance's value holds for every `n`, not only those computed (its
    /// period proved; for a period, preperiod and saltus: proved by the theorem).
    pub every_n: bool,
}

/// One instance of a position game: its parameters' values and what its box gave.
#[derive(Debug)]
pub struct PositionInstance {
    /// One value per swept parameter, in the order of the ranges.
    pub params: Vec<i64>,
    /// Its box's criterion, or why there is none.
    pub result: Result<PositionSummary, InstanceError>,
}

/// A finished sweep.
#[derive(Debug)]
pub struct SweepReport {
    /// The game's name (of the first instance).
    pub game: String,
    /// The swept parameters' names, in order.
    pub names: Vec<String>,
    /// The ranges as given (`k=1..=30`).
    pub ranges: Vec<String>,
    /// Each instance of a heap game, in the order of the ranges (first parameter outermost);
    /// empty for a position game.
    pub instances: Vec<Instance>,
    /// Each instance of a position game, in the same order; empty for a heap game.
    pub positions: Vec<PositionInstance>,
    /// One formula search per [`Quantity`], in [`Quantity::ALL`]'s order.
    pub formulas: Vec<QuantityFit>,
    /// The largest `n` computed is at least this for every instance with a summary.
    pub max: u64,
}

impl SweepReport {
    /// The search for one quantity's formula.
    pub fn formula(&self, quantity: Quantity) -> &QuantityFit {
        self.formulas
            .iter()
            .find(|f| f.quantity == quantity)
            .expect("every quantity is searched")
    }

    /// The parameters of instance `i` (of a heap game's or a position game's list).
    pub fn params(&self, i: usize) -> &[i64] {
        match self.instances.get(i) {
            Some(instance) => &instance.params,
            None => &self.positions[i].params,
        }
    }

    /// How many instances the sweep ran.
    pub fn len(&self) -> usize {
        self.instances.len() + self.positions.len()
    }

    /// Whether the sweep ran no instance (never, for a sweep [`run`] returned).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The instances whose period search did not end with a period (none found within
    /// `max`, or an error), or, of a position game, whose box has no criterion or failed:
    /// the part of the sweep a formula cannot speak for.
    pub fn unsolved(&self) -> Vec<usize> {
        if !self.positions.is_empty() {
            return (0..self.positions.len())
                .filter(|&i| {
                    self.positions[i]
                        .result
                        .as_ref()
                        .map_or(true, |s| s.criterion.is_none())
                })
                .collect();
        }
        (0..self.instances.len())
            .filter(|&i| match &self.instances[i].result {
                Ok(summary) => summary.report.period.is_none(),
                Err(_) => true,
            })
            .collect()
    }
}

/// What a sweep asks for.
#[derive(Clone, Default)]
pub struct SweepRequest {
    /// Each instance computes at most `G(0..=max)` ([`analysis::default_max`] of the
    /// instance when `None`).
    pub max: Option<u64>,
    /// A position game: each coordinate's box `0..=to` the criteria are read on
    /// ([`positions::default_extent`] when `None`).
    pub to: Option<u64>,
    /// Where progress over the instances goes.
    pub options: EngineOptions,
}

/// The instances of `ranges` for `game` (whose parameters they set), checked before work:
/// every swept name a parameter of the rules, the count within [`MAX_INSTANCES`].
pub fn plan(game: &Game, ranges: &[ParamRange]) -> Result<Vec<Vec<i64>>, SweepError> {
    if game.graph().is_some() {
        return Err(SweepError::NotAHeapGame {
            game: game.name.clone(),
        });
    }
    let declared: Vec<String> = game.params.iter().map(|(name, _)| name.clone()).collect();
    for range in ranges {
        if !declared.contains(&range.name) {
            return Err(SweepError::NotAParameter {
                name: range.name.clone(),
                game: game.name.clone(),
                declared,
            });
        }
    }
    Ok(ranges::instances(ranges)?)
}

/// The estimated seconds of the sweep's period searches if each ran to its limit, summed over
/// the instances ([`crate::engine::estimate`]; instances it cannot estimate, such as general
/// rules, count nothing), or `None` when no instance can be estimated. An upper bound of the
/// work, since a search stops at its proof; said up front when it is long.
pub fn estimate_seconds(
    game: &Game,
    ranges: &[ParamRange],
    max: Option<u64>,
) -> Result<Option<f64>, SweepError> {
    if game.position_program().is_some() {
        return Ok(None);
    }
    let planned = plan(game, ranges)?;
    let names: Vec<String> = ranges.iter().map(|r| r.name.clone()).collect();
    let mut total: Option<f64> = None;
    for params in &planned {
        let Ok(instance) = load_instance(game, &names, params) else {
            continue;
        };
        let max = max.unwrap_or_else(|| analysis::default_max(&instance));
        if let Some(estimate) = crate::engine::estimate::estimate(&instance, 0, max) {
            *total.get_or_insert(0.0) += estimate.seconds;
        }
    }
    Ok(total)
}

/// Runs the sweep of `game` (its rules reloaded with each instance's values) over `ranges`.
pub fn run(
    game: &Game,
    ranges: &[ParamRange],
    request: &SweepRequest,
) -> Result<SweepReport, SweepError> {
    let planned = plan(game, ranges)?;
    let names: Vec<String> = ranges.iter().map(|r| r.name.clone()).collect();
    let progress = Mutex::new((
        0u64,
        Progress::items(
            "instances",
            planned.len() as u64,
            request.options.progress.clone(),
        ),
    ));
    let count = |progress: &Mutex<(u64, Progress)>| {
        if let Ok(mut guard) = progress.lock() {
            let (done, tracker) = &mut *guard;
            *done += 1;
            tracker.set(*done);
        }
    };
    let position_game = game.position_program().is_some();
    let (instances, positions): (Vec<Instance>, Vec<PositionInstance>) = if position_game {
        let positions = planned
            .par_iter()
            .with_max_len(1)
            .map(|params| {
                let result = positions::run_instance(game, &names, params, request.to);
                count(&progress);
                PositionInstance {
                    params: params.clone(),
                    result,
                }
            })
            .collect();
        (Vec::new(), positions)
    } else {
        let instances = planned
            .par_iter()
            .with_max_len(1)
            .map(|params| {
                let result = run_instance(game, &names, params, request.max);
                count(&progress);
                Instance {
                    params: params.clone(),
                    result,
                }
            })
            .collect();
        (instances, Vec::new())
    };
    if let Ok(mut guard) = progress.lock() {
        guard.1.finish();
    }
    let max = instances
        .iter()
        .filter_map(|i| i.result.as_ref().ok())
        .map(|s| s.report.values_computed.saturating_sub(1) as u64)
        .min()
        .unwrap_or(0);
    let formulas = Quantity::ALL
        .iter()
        .map(|&quantity| {
            let (params, shapes): (Vec<&[i64]>, Vec<Option<Held>>) = if position_game {
                positions
                    .iter()
                    .map(|i| {
                        let shape = match (&i.result, quantity) {
                            // A criterion is read on a box: never claimed for every position.
                            (Ok(s), Quantity::PPositions) => s.shape().map(|shape| (shape, false)),
                            _ => None,
                        };
                        (i.params.as_slice(), shape)
                    })
                    .unzip()
            } else {
                instances
                    .iter()
                    .map(|i| {
                        let shape = i
                            .result
                            .as_ref()
                            .ok()
                            .and_then(|s| quantity_of(s, quantity));
                        (i.params.as_slice(), shape)
                    })
                    .unzip()
            };
            let with_result = if position_game {
                positions.iter().filter(|i| i.result.is_ok()).count()
            } else {
                instances.iter().filter(|i| i.result.is_ok()).count()
            };
            fit_quantity(&params, &shapes, with_result, quantity)
        })
        .collect();
    Ok(SweepReport {
        game: game.name.clone(),
        names,
        ranges: ranges.iter().map(ParamRange::describe).collect(),
        instances,
        positions,
        formulas,
        max,
    })
}

fn run_instance(
    game: &Game,
    names: &[String],
    params: &[i64],
    max: Option<u64>,
) -> Result<Summary, InstanceError> {
    let instance = load_instance(game, names, params)?;
    if instance.graph().is_some() || instance.position_program().is_some() {
        return Err(InstanceError::NotAHeapGame);
    }
    let max = max.unwrap_or_else(|| analysis::default_max(&instance));
    let (table, report) = analysis::find_period(&instance, max, &EngineOptions::default())?;
    Ok(summarize(&table, report))
}

/// One instance of `game`: its rules loaded again with [`instance_sets`].
pub fn load_instance(game: &Game, names: &[String], params: &[i64]) -> Result<Game, InstanceError> {
    rules::load(game.source.clone(), &instance_sets(game, names, params))
        .map_err(|e| InstanceError::Rules(Box::new(e)))
}

/// The parameter values that load one instance: the game's own (after `--set`), the swept
/// ones replaced by `params`.
pub fn instance_sets(game: &Game, names: &[String], params: &[i64]) -> Vec<(String, i64)> {
    let mut sets: Vec<(String, i64)> = game
        .params
        .iter()
        .filter(|(name, _)| !names.contains(name))
        .cloned()
        .collect();
    sets.extend(names.iter().cloned().zip(params.iter().copied()));
    sets
}

/// The fewest values the shapes are read from: a proved period extends a short table (a
/// subtraction game's proof needs only `t` values past the period) to this many, exactly.
pub const SHAPE_VALUES: usize = 256;

/// The most values a proved period extends a table to for the shapes.
pub const SHAPE_VALUES_MAX: usize = 1 << 20;

/// An instance's summary from its table and period report.
pub fn summarize(table: &SgTable, report: PeriodReport) -> Summary {
    let computed = table.to_vec();
    let p_count = computed.iter().filter(|&&v| v == 0).count();
    let proved_values = match (report.proved, report.preperiod, report.period) {
        (true, Some(pre), Some(p)) if report.saltus.unwrap_or(0) == 0 => {
            computed.get(..pre + p).map(<[u32]>::to_vec)
        }
        _ => None,
    };
    let values = extended(computed, &report);
    let p_first = (0u64..)
        .zip(&values)
        .filter(|(_, &v)| v == 0)
        .map(|(n, _)| n)
        .take(P_LISTED)
        .collect();
    Summary {
        g_form: shapes::g_form(&values, &report),
        p_set: shapes::p_set(&values, &report),
        p_count,
        p_first,
        proved_values,
        report,
    }
}

/// The values computed, extended by the proved period and saltus (`G(n + p) = G(n) + s` for
/// `n ≥ preperiod`, exact by the proof) to at least [`SHAPE_VALUES`] and four periods past the
/// preperiod, at most [`SHAPE_VALUES_MAX`].
fn extended(mut values: Vec<u32>, report: &PeriodReport) -> Vec<u32> {
    let (true, Some(pre), Some(p)) = (report.proved, report.preperiod, report.period) else {
        return values;
    };
    let saltus = report.saltus.unwrap_or(0);
    let want = pre
        .saturating_add(p.saturating_mul(4))
        .clamp(SHAPE_VALUES, SHAPE_VALUES_MAX);
    if p == 0 || values.len() < pre + p {
        return values;
    }
    while values.len() < want {
        let back = i64::from(values[values.len() - p]) + saltus;
        match u32::try_from(back) {
            Ok(v) => values.push(v),
            Err(_) => break,
        }
    }
    values
}

/// The quantity's shape on one summary (a number for period, preperiod and saltus), and
/// whether it holds for every `n`.
fn quantity_of(summary: &Summary, quantity: Quantity) -> Option<(Shape, bool)> {
    let report = &summary.report;
    let number = |v: i64| Shape {
        kind: shapes::kind::NUMBER,
        constants: vec![v],
    };
    match quantity {
        Quantity::Period => Some((number(report.period? as i64), report.proved)),
        Quantity::Preperiod => {
            report.period?;
            Some((number(report.preperiod? as i64), report.proved))
        }
        Quantity::Saltus => {
            report.period?;
            Some((number(report.saltus.unwrap_or(0)), report.proved))
        }
        Quantity::PPositions => summary.p_set.as_ref().map(|f| (f.shape.clone(), f.every_n)),
        Quantity::G => summary
            .g_form
            .as_ref()
            .map(|f| (f.shape.clone(), f.every_n)),
    }
}

/// A quantity of one instance and whether it holds for every `n`.
type Held = (Shape, bool);

/// The formula of one quantity over the instances (`params[i]`, `shapes[i]`: the quantity of
/// instance `i` and whether it holds for every `n`, `None` when it has none).
fn fit_quantity(
    params: &[&[i64]],
    shapes: &[Option<Held>],
    with_result: usize,
    quantity: Quantity,
) -> QuantityFit {
    let with: Vec<(usize, &Shape, bool)> = shapes
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.as_ref().map(|(shape, every)| (i, shape, *every)))
        .collect();
    let items: Vec<(&[i64], &Shape)> = with
        .iter()
        .map(|(i, shape, _)| (params[*i], *shape))
        .collect();
    // A formula must speak for at least half of the instances with a result, and for
    // MIN_PIECE of them: one instance with a closed form is not a pattern of the family.
    let enough = |fit: &Fit| {
        let covers = items.len() - fit.uncovered.len();
        2 * covers >= with_result && covers >= fit::MIN_PIECE.min(with_result)
    };
    let fit = fit::fit(&items).filter(enough);
    let (covered, missing): (Vec<usize>, Vec<usize>) = match &fit {
        Some(fit) => {
            let uncovered: Vec<usize> = fit.uncovered.iter().map(|&j| with[j].0).collect();
            (0..params.len()).partition(|i| shapes[*i].is_some() && !uncovered.contains(i))
        }
        None => (Vec::new(), (0..params.len()).collect()),
    };
    let every_n = !covered.is_empty()
        && with
            .iter()
            .filter(|(i, _, _)| covered.contains(i))
            .all(|(_, _, every)| *every);
    QuantityFit {
        quantity,
        fit,
        missing,
        covered,
        every_n,
    }
}
