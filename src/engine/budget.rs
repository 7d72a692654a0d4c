//! One budget for every request, for heap tables and boxes of positions alike: estimated
//! before the engine allocates or works, and enforced while it runs.
//!
//! * Before: one memory estimate ([`check_memory`]); one estimate of rule steps
//!   ([`rule_steps`]) from one sampler spread over the whole box ([`Samples`]), each sample
//!   counted while cheap and estimated from the rules' ranges beyond
//!   ([`Program::estimate_steps`]); and for take-and-break codes one estimate of time
//!   ([`check_time`]).
//! * While running: a step meter ([`Meter`], [`SharedMeter`] for parallel stages) that the
//!   interpreter spends as it loops, and for boxes the memory of the search and the work
//!   spent outside the box; a request past them stops with [`EngineError::OverBudget`],
//!   located at the rule and saying how far it got.
//!
//! A heap game's table `G(0..=to)` is the one-coordinate box `0..=to` to both: its memory is
//! that of its narrow storage plus the kernel's working memory, its rule steps are sampled
//! over every `n` in `0..=to`.

use std::cell::Cell;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};

use super::jit::{self, Kernel};
use super::{estimate, takebreak, BoxShape, EngineError, Hint, TableShape};
use crate::rules::program::{Scratch, Stop};
use crate::rules::{Game, Program, TakeBreakCode};

/// Loop steps (binder values and moves) general rules may take for one table or box: about a
/// quarter of an hour.
pub const RULE_STEPS_LIMIT: f64 = 2e10;

/// Positions sampled by [`rule_steps`] (a box with no more positions is counted in full).
pub const WORK_SAMPLES: u32 = 256;

/// Bytes a position costs in a box of two or more coordinates beyond its value: the wave
/// order's index (see `multi::Waves`).
const WAVE_BYTES: u128 = 8;

/// What [`memory_need`] found: the bytes a request needs, and whether its positions can be
/// addressed at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryNeed {
    /// Estimated peak bytes.
    pub bytes: u64,
    /// False when the positions outnumber what an index can address.
    pub addressable: bool,
}

/// Positions in the box `0..=extents[i]` (saturating at `u128::MAX`).
pub fn box_positions(extents: &[u64]) -> u128 {
    extents
        .iter()
        .map(|&e| u128::from(e) + 1)
        .try_fold(1u128, |a, b| a.checked_mul(b))
        .unwrap_or(u128::MAX)
}

/// Estimated peak bytes of a request, before anything is allocated.
///
/// * A heap table `G(0..=to)`: 4 bytes per value (the widest storage, since the values are not
///   known in advance) plus the take-and-break kernel's working memory per position, or the
///   table plus the kernel's bitset levels ([`estimate::level_bytes`]) when those are larger.
/// * A box: 4 bytes per value; for two or more coordinates 8 more per position and per wave
///   (coordinate sum) for the wave order.
///
/// `code` is the take-and-break code a heap table is computed by, if any.
pub fn memory_need(shape: &TableShape, code: Option<&TakeBreakCode>) -> MemoryNeed {
    match shape {
        TableShape::Sequence { to } => {
            let values = to.saturating_add(1);
            let per_value = 4 + code.map_or(0, takebreak::working_bytes_per_position);
            // Bitset levels (splits into three or more heaps) grow with the values: hex 0.9
            // needs about n²/16 bytes.
            let levels = code.map_or(0, |code| estimate::level_bytes(code, *to));
            MemoryNeed {
                bytes: values
                    .saturating_mul(per_value)
                    .max(levels.saturating_add(values.saturating_mul(4))),
                addressable: *to <= usize::MAX as u64 / 8,
            }
        }
        TableShape::Box { extents } => {
            let positions = box_positions(extents);
            let waves: u128 = extents.iter().map(|&e| u128::from(e)).sum::<u128>() + 2;
            let needed = if extents.len() >= 2 {
                positions
                    .saturating_mul(4 + WAVE_BYTES)
                    .saturating_add(waves * WAVE_BYTES)
            } else {
                positions.saturating_mul(4)
            };
            MemoryNeed {
                bytes: u64::try_from(needed).unwrap_or(u64::MAX),
                addressable: positions <= usize::MAX as u128 / 16,
            }
        }
    }
}

/// Refuses a request whose [`memory_need`] passes the memory available
/// ([`EngineError::TooLarge`]), before anything is allocated.
pub fn check_memory(shape: &TableShape, code: Option<&TakeBreakCode>) -> Result<(), EngineError> {
    let need = memory_need(shape, code);
    let available_bytes = super::available_memory();
    if !need.addressable || need.bytes > available_bytes {
        return Err(EngineError::TooLarge {
            size: shape.size(),
            needed_bytes: need.bytes,
            available_bytes,
        });
    }
    Ok(())
}

/// The positions [`rule_steps`] looks at: every position of a box of at most `samples`
/// positions, else `samples` positions drawn by a fixed pseudo-random sequence spread over the
/// whole box (so that the answer does not depend on the run). A heap table `0..=to` is the box
/// `[to]`: its samples are heaps across `0..=to`.
#[derive(Clone, Debug)]
pub struct Samples<'a> {
    extents: &'a [u64],
    /// Every position, in row-major order, when the box is small.
    every: bool,
    left: u128,
    state: u64,
    position: Vec<u64>,
    started: bool,
}

impl<'a> Samples<'a> {
    /// At most `samples` positions of the box `0..=extents[i]`.
    pub fn new(extents: &'a [u64], samples: u32) -> Self {
        let positions = box_positions(extents);
        let every = positions <= u128::from(samples);
        Samples {
            extents,
            every,
            left: if every {
                positions
            } else {
                u128::from(samples)
            },
            state: 0x9E37_79B9_7F4A_7C15,
            position: vec![0; extents.len()],
            started: false,
        }
    }

    /// How many positions the sampler gives.
    pub fn count(&self) -> u128 {
        self.left
    }

    /// The next position, or `None` after the last.
    pub fn next_position(&mut self) -> Option<&[u64]> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if self.every {
            if self.started {
                super::shape::step(self.extents, &mut self.position);
            }
        } else {
            for (c, &extent) in self.position.iter_mut().zip(self.extents) {
                // xorshift64: any fixed sequence spread over the box will do.
                self.state ^= self.state << 13;
                self.state ^= self.state >> 7;
                self.state ^= self.state << 17;
                *c = extent
                    .checked_add(1)
                    .map_or(self.state, |side| self.state % side);
            }
        }
        self.started = true;
        Some(&self.position)
    }
}

/// What [`rule_steps`] concluded.
#[derive(Clone, Debug, PartialEq)]
pub enum Steps {
    /// The box's rule steps are estimated at most the limit (about `estimate`).
    Within {
        /// The estimated steps of the whole box.
        estimate: f64,
    },
    /// Estimated past the limit.
    Over {
        /// The estimated steps of the whole box.
        estimate: f64,
        /// The costliest position sampled (the last of equals), and its steps.
        costliest: (Vec<u64>, f64),
    },
    /// A rule failed at a sampled position, and the steps before it are within the limit:
    /// the computation would fail (the engine reports where, at the first position it occurs
    /// at).
    Failed,
}

impl Steps {
    /// True for [`Steps::Within`].
    pub fn is_within(&self) -> bool {
        matches!(self, Steps::Within { .. })
    }
}

/// Steps a sampled position is counted exactly for; past them its steps are estimated from
/// the rules' ranges ([`Program::estimate_steps`]).
const EXACT_STEPS: u64 = 4096;
/// Steps a sampled position is counted for by a [`Lister`]: a sample's count past
/// [`EXACT_STEPS`] is then estimated at once, without the interpreter's [`EXACT_STEPS`]. At
/// most 256 such counts a request, each tens of microseconds; a box whose samples pass it
/// takes more than 256 times as long.
const LISTED_STEPS: u64 = 1 << 16;
/// Random paths per rule of [`Program::estimate_steps`].
const PROBES: u32 = 32;

/// A position game's rules compiled to list a box's moves, and the lister's own scratch.
type Lister = (Kernel, jit::Scratch);

/// A sample this costly makes the rest worth a [`Lister`] (compiling one takes a millisecond).
const LISTER_STEPS: f64 = 1024.0;

/// The steps of one position: counted exactly up to [`EXACT_STEPS`], estimated from the
/// rules' ranges beyond. `Err(steps)` when a rule fails there after `steps`.
fn position_steps(
    program: &Program,
    position: &[u64],
    scratch: &mut Scratch,
    seed: &mut u64,
    lister: Option<&mut Lister>,
) -> Result<f64, f64> {
    let estimated = |seed: &mut u64| {
        Ok(program
            .estimate_steps(position, PROBES, seed)
            .max(EXACT_STEPS as f64))
    };
    // The lister counts the interpreter's steps (tests/compiled.rs), in machine code, up to
    // LISTED_STEPS: a count past EXACT_STEPS is one where the interpreter, which met no rule
    // error on the way, would have run out of them (Nim_k's samples, thousands of binder
    // values each, took 6 ms of the interpreter's counting). What it hands back (an option
    // past its box, a fault, more steps) the interpreter counts.
    if let Some((kernel, list_scratch)) = lister {
        match kernel.box_options(position, LISTED_STEPS, list_scratch) {
            Some((_, steps)) if steps <= EXACT_STEPS => return Ok(steps as f64),
            Some(_) => return estimated(seed),
            None => {}
        }
    }
    let mut budget = EXACT_STEPS;
    let run = program.for_each_option(position, scratch, &mut budget, &mut |_, _, _| {
        ControlFlow::Continue(())
    });
    match run {
        Ok(()) | Err(Stop::Break) => Ok((EXACT_STEPS - budget) as f64),
        Err(Stop::OutOfBudget) => estimated(seed),
        Err(Stop::Error(_)) => Err((EXACT_STEPS - budget) as f64),
    }
}

/// A lister for the box `0..=extents[i]` of a position game ([`Kernel::compile_box_lister`]).
fn box_lister(program: &Program, extents: &[u64]) -> Option<Lister> {
    if !program.is_position_game() {
        return None;
    }
    let shape = BoxShape::checked(extents)?;
    let kernel = Kernel::compile_box_lister(program, extents, shape.strides())?;
    Some((kernel, jit::Scratch::default()))
}

/// Estimates the rule steps (binder values and moves) of every position of the box
/// `0..=extents[i]` (a heap game's table: `[to]`) and compares them with `limit`, from the
/// [`Samples`] of [`WORK_SAMPLES`] positions spread over the whole box (not only its top).
/// Each sample is counted exactly while it is cheap and estimated from the rules' ranges
/// beyond ([`Program::estimate_steps`]), so that judging costs milliseconds however large the
/// positions: the mean of the samples, times the positions, is the estimate.
pub fn rule_steps(program: &Program, extents: &[u64], limit: u64) -> Steps {
    rule_steps_from(program, &vec![0; extents.len()], extents, limit)
}

/// [`rule_steps`] of the positions from `lows` to `highs` (each coordinate in
/// `lows[i]..=highs[i]`).
pub fn rule_steps_from(program: &Program, lows: &[u64], highs: &[u64], limit: u64) -> Steps {
    rule_steps_counted(program, lows, highs, limit, true)
}

/// [`rule_steps_from`], with the samples counted by a [`Lister`] once they are costly when
/// `listing` (the same counts: the tests compare the two).
fn rule_steps_counted(
    program: &Program,
    lows: &[u64],
    highs: &[u64],
    limit: u64,
    listing: bool,
) -> Steps {
    let sides: Vec<u64> = highs
        .iter()
        .zip(lows)
        .map(|(&h, &l)| h.saturating_sub(l))
        .collect();
    let positions = box_positions(&sides);
    let mut samples = Samples::new(&sides, WORK_SAMPLES);
    let count = samples.count().max(1) as f64;
    let mut scratch = Scratch::default();
    let mut seed = 0x2545_F491_4F6C_DD1D;
    let (mut steps, mut failed) = (0.0, false);
    let mut costliest = (Vec::new(), -1.0);
    let mut position = Vec::with_capacity(sides.len());
    // Compiled once a sample is costly (Nim_k's far corner has 13^4 binder values).
    let mut lister: Option<Option<Lister>> = None;
    while let Some(offset) = samples.next_position() {
        position.clear();
        position.extend(offset.iter().zip(lows).map(|(&o, &l)| o + l));
        let compiled = lister.as_mut().and_then(Option::as_mut);
        let counted = position_steps(program, &position, &mut scratch, &mut seed, compiled);
        if listing && lister.is_none() && counted.is_ok_and(|steps| steps >= LISTER_STEPS) {
            lister = Some(box_lister(program, highs));
        }
        let here = match counted {
            Ok(s) => s,
            Err(s) => {
                failed = true;
                s
            }
        };
        steps += here;
        if here >= costliest.1 {
            costliest = (position.clone(), here);
        }
    }
    let estimate = steps / count * positions as f64;
    if estimate > limit as f64 {
        Steps::Over {
            estimate,
            costliest,
        }
    } else if failed {
        Steps::Failed
    } else {
        Steps::Within { estimate }
    }
}

/// Refuses a table or box of general rules whose [`rule_steps`] pass [`steps_limit`]
/// (hours of work): [`EngineError::RulesTooSlow`] for a heap table, [`EngineError::BoxTooSlow`]
/// for a box. Run-time errors are left to the engine, which reports the first position they
/// occur at. Returns the estimate (0 when a rule fails).
pub fn check_rule_steps(
    game: &Game,
    program: &Program,
    shape: &TableShape,
) -> Result<f64, EngineError> {
    let limit = steps_limit();
    let extents = shape.extents();
    let (estimate, costliest) = match rule_steps(program, &extents, limit) {
        Steps::Within { estimate } => return Ok(estimate),
        Steps::Failed => return Ok(0.0),
        Steps::Over {
            estimate,
            costliest,
        } => (estimate, costliest),
    };
    let place = crate::rules::checked::Place {
        names: program.coordinates(),
        values: &costliest.0,
    };
    let costliest = format!("about {} at {place} alone", estimate::count(costliest.1));
    let samples = Samples::new(&extents, WORK_SAMPLES).count() as u64;
    Err(match shape {
        TableShape::Sequence { to } => EngineError::RulesTooSlow {
            to: *to,
            limit,
            estimate,
            samples,
            costliest,
        },
        TableShape::Box { extents } => EngineError::BoxTooSlow {
            coordinates: game.coordinates(),
            extents: extents.clone(),
            limit,
            estimate,
            samples,
            costliest,
        },
    })
}

/// Peak bytes per node and per edge of one way of valuing a graph file whole, beyond the file
/// itself: what [`check_graph`] multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphCost {
    /// Bytes per node.
    pub per_node: u64,
    /// Bytes per edge.
    pub per_edge: u64,
}

/// Green Hackenbush ([`super::hackenbush`]): the fused tree's arrays per node (component,
/// search record, order, weights, local indices, pieces, cycle labels' sums: about 80 bytes)
/// and per edge (the edge, both adjacency entries, bridge and tree flags, cycle label, class
/// mark, grouping, a component's local adjacency: about 100 bytes), rounded up.
pub const HACKENBUSH_COST: GraphCost = GraphCost {
    per_node: 96,
    per_edge: 128,
};

/// A loopy table of a graph file's nodes ([`crate::value::loopy::LoopyTable::of_graph`]): per
/// node its name, value, remoteness and the retrograde analysis's counters (about 100 bytes,
/// more for a value `∞(K)` with a large `K`), per edge the copy of the graph and its reverse
/// (8 bytes), rounded up.
pub const LOOPY_GRAPH_COST: GraphCost = GraphCost {
    per_node: 160,
    per_edge: 16,
};

/// Refuses valuing a graph of `nodes` and `edges` whole when `cost` says it needs more memory
/// than is available ([`EngineError::TooLarge`] with [`super::TableSize::Graph`]), before
/// anything is allocated.
pub fn check_graph(nodes: usize, edges: usize, cost: GraphCost) -> Result<(), EngineError> {
    let needed_bytes = (nodes as u64)
        .saturating_mul(cost.per_node)
        .saturating_add((edges as u64).saturating_mul(cost.per_edge));
    let available_bytes = super::available_memory();
    if needed_bytes > available_bytes {
        return Err(EngineError::TooLarge {
            size: super::TableSize::Graph {
                nodes: nodes as u64,
                edges: edges as u64,
            },
            needed_bytes,
            available_bytes,
        });
    }
    Ok(())
}

/// A value rule's table of texts ([`crate::value::evaluate::ValueTable`]): per position its
/// text and outcome (32 bytes, the text empty for outcomes only), the values it is read from and
/// the exporter's buffers; 10^7 positions of `table --rule outcomes` measured 640 MB in all.
pub const VALUE_TABLE_BYTES_PER_POSITION: u64 = 64;

/// Refuses a value rule's table of the box `0..=extents[i]` when it needs more memory than is
/// available ([`EngineError::TooLarge`]), before anything is allocated.
pub fn check_value_table(extents: &[u64]) -> Result<(), EngineError> {
    let positions = box_positions(extents);
    let needed_bytes = u64::try_from(positions)
        .unwrap_or(u64::MAX)
        .saturating_mul(VALUE_TABLE_BYTES_PER_POSITION);
    let available_bytes = super::available_memory();
    if needed_bytes > available_bytes {
        return Err(EngineError::TooLarge {
            size: match extents {
                [to] => super::TableSize::Sequence { to: *to },
                _ => super::TableSize::Box { positions },
            },
            needed_bytes,
            available_bytes,
        });
    }
    Ok(())
}

/// The longest a heap table of a take-and-break code may be estimated to take
/// ([`estimate::estimate`]): six hours, far past the note that long requests get (ten
/// minutes), so that within the estimate's factor of two or three only requests of a day or
/// more are refused.
pub const TIME_LIMIT_SECONDS: f64 = 6.0 * 3600.0;

/// Refuses extending `G(0..from)` of a take-and-break code to `G(0..=to)` when it is estimated
/// past [`TIME_LIMIT_SECONDS`] ([`EngineError::TooLong`]). Cheap for every request that is
/// not near the limit: the estimate is bounded first with the narrowest and the widest values
/// possible, and the growth of the values is sampled only when those bounds disagree.
pub fn check_time(game: &Game, from: u64, to: u64) -> Result<(), EngineError> {
    let Some(code) = game.code() else {
        return Ok(());
    };
    let (from, len) = match (usize::try_from(from), usize::try_from(to)) {
        (Ok(from), Ok(to)) if to < usize::MAX => (from, to + 1),
        _ => return Ok(()),
    };
    let Some(estimate) = estimate::code_estimate_bounded(code, from, len, TIME_LIMIT_SECONDS)
    else {
        return Ok(());
    };
    if estimate.seconds <= TIME_LIMIT_SECONDS {
        return Ok(());
    }
    Err(EngineError::TooLong {
        to,
        seconds: estimate.seconds,
        limit_seconds: TIME_LIMIT_SECONDS,
        work: estimate.work.to_string(),
    })
}

/// The rule steps a running computation may spend ([`Meter`]), [`RULE_STEPS_LIMIT`] unless
/// lowered by [`set_steps_limit`].
static STEPS_LIMIT: AtomicU64 = AtomicU64::new(RULE_STEPS_LIMIT as u64);

thread_local! {
    /// A limit for the requests made on this thread ([`with_steps_limit`]).
    static THREAD_STEPS_LIMIT: Cell<Option<u64>> = const { Cell::new(None) };
}

/// The rule steps one request may take: estimated before the work ([`check_rule_steps`]) and
/// metered while it runs ([`Meter`]). [`RULE_STEPS_LIMIT`] unless lowered, for the process or
/// for the requests of one thread. Read once per request, on the thread that makes it.
pub fn steps_limit() -> u64 {
    THREAD_STEPS_LIMIT
        .with(Cell::get)
        .unwrap_or_else(|| STEPS_LIMIT.load(Ordering::Relaxed))
}

/// Sets [`steps_limit`] for the whole process (e.g. a fuzz run, so that every case ends
/// quickly whatever its rules).
pub fn set_steps_limit(limit: u64) {
    STEPS_LIMIT.store(limit, Ordering::Relaxed);
}

/// Runs `f` with [`steps_limit`] set to `limit` for the requests it makes on this thread (a
/// test lowers the budget without affecting the tests running beside it).
pub fn with_steps_limit<T>(limit: u64, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<u64>);
    impl Drop for Restore {
        fn drop(&mut self) {
            THREAD_STEPS_LIMIT.with(|l| l.set(self.0));
        }
    }
    let _restore = Restore(THREAD_STEPS_LIMIT.with(|l| l.replace(Some(limit))));
    f()
}

/// A request's running step meter: the rule steps left of [`steps_limit`]. The interpreter
/// spends them as it loops ([`Program::for_each_option`] counts each binder value and move),
/// so metering costs nothing beyond the count it keeps anyway; an engine hands `left` to each
/// position's enumeration and stops with [`EngineError::OverBudget`] when it runs out.
#[derive(Clone, Debug)]
pub struct Meter {
    limit: u64,
    /// Steps left.
    pub left: u64,
}

impl Default for Meter {
    fn default() -> Self {
        Meter::new(steps_limit())
    }
}

impl Meter {
    /// A meter of `limit` steps.
    pub fn new(limit: u64) -> Self {
        Meter { limit, left: limit }
    }

    /// The steps the meter started with.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Steps spent so far.
    pub fn spent(&self) -> u64 {
        self.limit - self.left
    }
}

/// A meter shared by the threads of a parallel stage: each thread spends from a local count
/// and adds it to the shared total every [`SharedMeter::FLUSH`] steps, so that the threads do
/// not write one cache line per position.
#[derive(Debug)]
pub struct SharedMeter {
    limit: u64,
    spent: AtomicU64,
}

impl SharedMeter {
    /// Steps a thread spends between two updates of the shared total.
    pub const FLUSH: u64 = 4096;

    /// A shared meter with `meter`'s steps left.
    pub fn new(meter: &Meter) -> Self {
        SharedMeter {
            limit: meter.left,
            spent: AtomicU64::new(0),
        }
    }

    /// The steps a thread with `local` unreported steps may still spend.
    #[inline]
    pub fn left(&self, local: u64) -> u64 {
        self.limit
            .saturating_sub(self.spent.load(Ordering::Relaxed))
            .saturating_sub(local)
    }

    /// Reports a thread's `local` steps when there are enough of them (or `force`).
    #[inline]
    pub fn report(&self, local: &mut u64, force: bool) {
        if *local >= Self::FLUSH || (force && *local > 0) {
            self.spent.fetch_add(*local, Ordering::Relaxed);
            *local = 0;
        }
    }

    /// Every thread having reported, the steps left for `meter`.
    pub fn settle(&self, meter: &mut Meter) {
        meter.left = self.left(0);
    }
}

/// Why a running request stopped ([`over_budget`]).
#[derive(Clone, Copy, Debug)]
pub enum OverBudget {
    /// The rule steps of the [`Meter`] ran out.
    Steps {
        /// The budget.
        limit: u64,
    },
    /// The positions outside the box cost more rule steps than they may.
    Outside {
        /// Positions outside the box reached.
        positions: usize,
        /// Rule steps they cost.
        steps: u64,
        /// What they were allowed.
        allowed: u64,
    },
    /// The moves a box's search keeps listed (one list per position on its stack) passed the
    /// memory it may use.
    SearchMemory {
        /// Bytes allowed.
        bytes: u64,
        /// Positions on the stack.
        depth: usize,
    },
    /// The misère search over sums, run from the positions asked, stored more sums than the
    /// request's budget allows.
    MisereSums {
        /// The sums allowed.
        limit: usize,
        /// Their memory.
        bytes: u64,
    },
}

/// The error of a request stopped while running, located at `rule` (the rule running, or
/// whose move left the box; unlocated without one), with how far it got: `done` of `total`
/// positions valued.
#[allow(clippy::too_many_arguments)]
pub fn over_budget(
    game: &Game,
    program: Option<&Program>,
    rule: Option<usize>,
    at: &[u64],
    why: OverBudget,
    done: u128,
    total: u128,
    hint: Hint,
) -> EngineError {
    let coordinates = game.coordinates();
    let place = crate::rules::checked::Place {
        names: &coordinates,
        values: at,
    };
    let progress = if game.position_program().is_some() {
        format!("{done} of the box's {total} positions were valued")
    } else if matches!(why, OverBudget::MisereSums { .. }) {
        format!("G⁻ and the genus of the heaps 0..{done} were computed, of {total} values; this table is not printed partially")
    } else {
        format!("G(0..{done}) was computed, of {total} values")
    };
    let (message, label) = match why {
        OverBudget::Steps { limit } => (
            format!(
                "at {place}, the rules passed the budget of {limit:e} rule steps (binder values and moves): {progress}"
            ),
            "this rule was running".to_string(),
        ),
        OverBudget::Outside {
            positions,
            steps,
            allowed,
        } => {
            let (steps, allowed) = estimate::counts_apart(steps, allowed);
            (
                format!(
                    "at {place}, the moves keep leaving the box: {positions} positions outside it took {steps} rule steps, more than the {allowed} allowed (as many as the box is estimated to take, at least {}, and {OUTSIDE_POSITION_STEPS} a position); {progress}",
                    estimate::count(OUTSIDE_STEPS as f64)
                ),
                "this move leads outside the box".to_string(),
            )
        }
        OverBudget::SearchMemory { bytes, depth } => (
            format!(
                "at {place}, the search holds the moves of {depth} positions, more than the {} it may use: {progress}",
                super::human_bytes(bytes)
            ),
            "this rule's moves were listed last".to_string(),
        ),
        OverBudget::MisereSums { limit, bytes } => (
            format!(
                "at {place}, the misère search over sums (run from the positions asked) passed the budget of {} sums of components (about {}): {progress}",
                estimate::count(limit as f64),
                super::human_bytes(bytes)
            ),
            "this rule's moves led to the sums".to_string(),
        ),
    };
    // No rule to point at (the search over sums, a stop between rules): the message alone,
    // never a made-up place such as the text's first character.
    let diagnostic = match rule.zip(program) {
        Some((r, p)) => crate::rules::Diagnostic::new(message, p.rule_span(r)).with_label(label),
        None => crate::rules::Diagnostic::unlocated(message),
    };
    EngineError::OverBudget {
        diagnostic: Box::new(diagnostic),
        file: Box::new(game.source.clone()),
        hint,
    }
}

/// Rule steps each position outside a box earns for the work outside it, besides
/// [`OUTSIDE_STEPS`] (or the box's estimate): a game that needs many cheap positions beyond
/// the box (a knight's moves, a row of counters) gets them, up to
/// [`MAX_OUTSIDE`](super::multi::MAX_OUTSIDE); moves that leave the box with ever more moves
/// per position do not.
pub const OUTSIDE_POSITION_STEPS: u64 = 256;

/// The fewest rule steps positions outside a box may take (when the box itself takes fewer):
/// half a second or so of work.
pub const OUTSIDE_STEPS: u64 = 1 << 24;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::game;

    #[test]
    fn small_boxes_are_counted_in_full_and_large_ones_sampled_across() {
        let every: Vec<Vec<u64>> = {
            let mut s = Samples::new(&[1, 2], 256);
            std::iter::from_fn(|| s.next_position().map(<[u64]>::to_vec)).collect()
        };
        assert_eq!(
            every,
            [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]].map(|p| p.to_vec())
        );
        // A heap table 0..=9999: 256 heaps spread over all of it, not only n = to.
        let mut s = Samples::new(&[9999], 256);
        let mut heaps = Vec::new();
        while let Some(p) = s.next_position() {
            heaps.push(p[0]);
        }
        assert_eq!(heaps.len(), 256);
        assert!(heaps.iter().any(|&h| h < 2500) && heaps.iter().any(|&h| h > 7500));
    }

    #[test]
    fn rule_steps_of_heaps_and_boxes() {
        let rules = "position (n, m)\nmove take: t in 1..=n => (n - t, m)\nmove both: t in 1..=min(n, m) => (n - t, m - t)";
        let program = game(rules).position_program().unwrap().clone();
        // About 2·side steps per position: a 16 × 16 box is cheap, a 10^9 × 10^9 one is not.
        assert!(rule_steps(&program, &[15, 15], 100_000).is_within());
        assert!(matches!(
            rule_steps(&program, &[1_000_000_000, 1_000_000_000], 1_000_000_000),
            Steps::Over { .. }
        ));
        assert!(matches!(
            rule_steps(&program, &[15, 15], 1_000),
            Steps::Over { .. }
        ));
        // Heap rules: the ranges grow with n; sampled across 0..=to.
        let heaps = game("move x in 1..=n * n => n - 1");
        let crate::rules::GameKind::General { program, .. } = &heaps.kind else {
            panic!()
        };
        assert!(rule_steps(program, &[1000], 1_000_000_000).is_within());
        assert!(matches!(
            rule_steps(program, &[100_000], 1_000_000_000),
            Steps::Over { .. }
        ));
        let linear = game("move x in 1..=100 * n => n - 1");
        let crate::rules::GameKind::General { program, .. } = &linear.kind else {
            panic!()
        };
        let shape = TableShape::Sequence { to: 1_000_000 };
        assert!(matches!(
            check_rule_steps(&linear, program, &shape),
            Err(EngineError::RulesTooSlow { to: 1_000_000, .. })
        ));
        // Work only in the middle of the table: the last heap is cheap, the samples across
        // 0..=to catch it.
        // (`x <= 1`, not `x == 1`, which pins the binder to one value: no work at all.)
        let middle = game("move x in 1..=n * (100000 - n) if x <= 1 => n - 1");
        let crate::rules::GameKind::General { program, .. } = &middle.kind else {
            panic!()
        };
        let shape = TableShape::Sequence { to: 100_000 };
        assert!(
            matches!(
                check_rule_steps(&middle, program, &shape),
                Err(EngineError::RulesTooSlow { samples: 256, .. })
            ),
            "{:?}",
            check_rule_steps(&middle, program, &shape)
        );
        // A rule error is the engine's to report.
        let failing = game("move x in 0..=3 => n");
        let crate::rules::GameKind::General { program, .. } = &failing.kind else {
            panic!()
        };
        assert_eq!(rule_steps(program, &[100], 1000), Steps::Failed);
    }

    /// The samples' counts by a lister are the interpreter's: the same estimates (to the last
    /// bit), the same costliest sample, the same failures, for Moore's Nim_k (samples of
    /// thousands of binder values, counted past `EXACT_STEPS` by the lister) and for rules
    /// that fail at some positions after many steps.
    #[test]
    fn listed_samples_are_counted_as_the_interpreter_counts_them() {
        let nim_k = "position (a, b, c, d)\nmove ta in 0..=a, tb in 0..=b, tc in 0..=c, td in 0..=d if count(ta > 0, tb > 0, tc > 0, td > 0) >= 1 && count(ta > 0, tb > 0, tc > 0, td > 0) <= 2 => (a - ta, b - tb, c - tc, d - td)";
        let failing = "position (x, y)\nmove a in 0..=x, b in 0..=y if a + b >= 1 => (x - a, y - b)\nmove t in 1..=x => (x - t, y - 3)";
        let cases: [(&str, &[u64], u64); 5] = [
            (nim_k, &[12, 12, 12, 12], 1 << 40),
            (nim_k, &[12, 12, 12, 12], 1 << 20),
            (nim_k, &[40, 3, 40, 3], 1 << 40),
            (failing, &[150, 150], 1 << 40),
            (failing, &[150, 2], 1 << 40),
        ];
        let mut kinds = Vec::new();
        for (rules, extents, limit) in cases {
            let program = game(rules).position_program().unwrap().clone();
            let lows = vec![0; extents.len()];
            let listed = rule_steps_counted(&program, &lows, extents, limit, true);
            let interpreted = rule_steps_counted(&program, &lows, extents, limit, false);
            assert_eq!(listed, interpreted, "{rules} to {extents:?}");
            kinds.push(std::mem::discriminant(&listed));
        }
        // Every conclusion among them.
        kinds.sort_by_key(|kind| format!("{kind:?}"));
        kinds.dedup();
        assert_eq!(kinds.len(), 3);
    }

    #[test]
    fn one_memory_estimate_for_tables_and_boxes() {
        let kayles = game("octal 0.77");
        let table = memory_need(&TableShape::Sequence { to: 999 }, kayles.code());
        assert!(table.addressable && table.bytes >= 4000, "{table:?}");
        let boxed = memory_need(
            &TableShape::Box {
                extents: vec![9, 9],
            },
            None,
        );
        assert_eq!(boxed.bytes, 100 * 12 + 20 * 8);
        assert!(matches!(
            check_memory(&TableShape::Sequence { to: u64::MAX / 2 }, kayles.code()),
            Err(EngineError::TooLarge { .. })
        ));
        let huge = TableShape::Box {
            extents: vec![1 << 40, 1 << 40],
        };
        let err = check_memory(&huge, None).unwrap_err();
        assert!(err.to_string().starts_with("a box of "), "{err}");
    }

    /// A stop no rule is to blame for (the misère search over sums) reads as its message
    /// alone, like the refusals up front: it was located at `<command line>:1:1`, the text's
    /// first character.
    #[test]
    fn a_stop_without_a_rule_is_not_located() {
        let misere = game("octal 0.77");
        let why = OverBudget::MisereSums {
            limit: 400_000,
            bytes: 48 << 20,
        };
        let error = over_budget(
            &misere,
            None,
            None,
            &[54],
            why,
            54,
            100_001,
            Hint::TableBelow(54),
        );
        assert_eq!(
            error.to_string(),
            "at n = 54, the misère search over sums (run from the positions asked) passed the budget of 400000 sums of components (about 48.0 MiB): G⁻ and the genus of the heaps 0..54 were computed, of 100001 values; this table is not printed partially"
        );
        assert_eq!(error.hint(), Some(Hint::TableBelow(54)));
    }
}
