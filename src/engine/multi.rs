//! The engine for position games (`position (x, y)`): SG values over a box of positions.
//!
//! `G(p) = mex { G(q1) ⊕ … ⊕ G(qj) : p → q1 + … + qj }`: a move leads to a sum of positions,
//! whose value is the XOR of theirs (Sprague 1935, Grundy 1939).
//!
//! Values of the box `0..=e1 × 0..=e2 × …` are kept in a dense row-major array (as in
//! [`BoxTable`]); positions a move reaches outside the box are computed on demand and kept in
//! a hash map, up to [`MAX_OUTSIDE`] of them. Two orders of evaluation, with identical values:
//!
//! * **Waves.** When every move seen so far leads to positions of smaller coordinate sum, the
//!   box is computed anti-diagonal by anti-diagonal (all positions of sum `s`, in parallel with
//!   rayon), each position reading only earlier waves. A move that reaches a position not yet
//!   computed (same or later wave, or outside the box) ends this mode; the rest is computed by
//!   the search below.
//! * **Search.** A depth-first search with an explicit stack (no recursion, so no stack
//!   overflow however long the game) and a three-state mark (unvisited, on the stack, done).
//!   A move to a position on the stack closes a cycle: the rules let the game go on forever,
//!   and the error lists the cycle with the rules that produce it (SG values are defined for
//!   games that always end; Smith's loopy generalisation is not computed here).
//!
//! Rules that are lines of moves ([`Move::Line`]) are read straight from the array.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use rayon::prelude::*;

use super::boxtable::BoxTable;
use super::budget::{Meter, OverBudget, SharedMeter};
use super::jit::{self, Kernel};
use super::moves::{self, line_point};
use super::partner::{Partner, Segment};
use super::{
    budget, BoxShape, EngineError, EngineOptions, Hint, MexSet, Nimber, Progress, ProgressSink,
    TableShape,
};
use crate::rules::arith;
use crate::rules::program::{Move, Scratch, Stop};
use crate::rules::{Game, Program};

/// The most positions outside the box that may be computed on demand.
pub const MAX_OUTSIDE: usize = 1 << 21;
/// Bytes an outside position costs (key, value, hash-map slot), for the estimate.
pub const OUTSIDE_BYTES: u64 = 96;
/// Waves smaller than this are computed on the calling thread.
const PARALLEL_WAVE: usize = 64;
/// Diagonal waves smaller than this are not shared with a [`Partner`].
const MIN_SHARED_WAVE: usize = 256;
/// Row sweeps of fewer positions run on one thread ([`Solver::sweep_rows`]).
const MIN_SHARED_ROWS: usize = 1 << 12;
/// A wave expected to take less than this many nanoseconds on one thread is computed on the
/// calling thread: handing it to the pool and joining costs tens of microseconds (the
/// knight's thousands of diagonals of a few thousand cheap positions each).
const PARALLEL_WAVE_NANOS: f64 = 200_000.0;

/// Boxes smaller than this are valued position by position, their moves listed by the
/// interpreter: compiling the code for runs of positions, or a lister, takes a millisecond.
const MIN_RUN_BOX: usize = 4096;
/// Boxes smaller than this are searched sequentially (waves would cost more than they save).
const MIN_WAVE_BOX: usize = 4096;
/// The search's roots between two updates of the progress bar.
const ROOTS_PER_PROGRESS: usize = 4096;

/// The step budget of an enumeration that is not bounded (pass `&mut UNLIMITED.clone()`).
pub const UNLIMITED: u64 = u64::MAX;

const UNVISITED: u32 = u32::MAX;
const ON_STACK: u32 = u32::MAX - 1;
/// Ends a move's list of components in the search's arena.
const END_OF_MOVE: usize = usize::MAX;

/// What [`Solver::for_each_move`] calls: `(rule, binder values, components)`.
pub type MoveSink<'a> = dyn FnMut(usize, &[i64], &[u64]) + 'a;

/// Which evaluation order to use (the values are the same; tests compare them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Waves when the moves allow (and the box has two or more coordinates and is not tiny),
    /// the search otherwise.
    Auto,
    /// Waves whatever the box's size, then the search.
    Waves,
    /// The search only.
    Search,
}

/// The SG values of every position of the box `0..=extents[i]` of a position game, reporting
/// no progress ([`compute_box_with`] reports it).
///
/// Refused before any work when the box would not fit in memory, or when its rule steps,
/// estimated from a sample of its positions, pass [`budget::RULE_STEPS_LIMIT`] (e.g. Wythoff's
/// game on `x ≤ 10^7`, where every position has millions of moves).
pub fn compute_box(game: &Game, extents: &[u64]) -> Result<BoxTable, EngineError> {
    compute_box_with(game, extents, &EngineOptions::default())
}

/// [`compute_box`], reporting progress to `options.progress`.
pub fn compute_box_with(
    game: &Game,
    extents: &[u64],
    options: &EngineOptions,
) -> Result<BoxTable, EngineError> {
    compute_box_reporting(game, extents, Order::Auto, options.progress.clone())
}

/// [`compute_box`] with a chosen evaluation order.
pub fn compute_box_in_order(
    game: &Game,
    extents: &[u64],
    order: Order,
) -> Result<BoxTable, EngineError> {
    compute_box_reporting(game, extents, order, None)
}

fn compute_box_reporting(
    game: &Game,
    extents: &[u64],
    order: Order,
    progress: Option<Arc<dyn ProgressSink>>,
) -> Result<BoxTable, EngineError> {
    let program = box_program(game, extents)?;
    let shape = TableShape::Box {
        extents: extents.to_vec(),
    };
    budget::check_memory(&shape, None)?;
    let estimate = budget::check_rule_steps(game, program, &shape)?;
    let mut solver = Solver::new(game, extents)?
        .with_progress(progress.clone())
        .with_outside_steps(estimate as u64);
    if order != Order::Auto {
        // The orders tests ask for: machine code for runs and lists whatever the box's size,
        // so that small random boxes test it.
        solver.min_run_box = 0;
    }
    if order == Order::Auto {
        if let Some((region, weights)) = solver.reach()? {
            if let Some(table) = enlarged(game, extents, &region, &weights, progress) {
                return Ok(table);
            }
        }
    }
    solver.fill_box(order)?;
    Ok(solver.into_table())
}

/// The most positions the bounding box of an enlarged region may have, as a multiple of the
/// box asked (its values take memory whether computed or not).
const MAX_ENLARGEMENT: u128 = 32;
/// The most positions an enlarged region may compute, as a multiple of the box asked.
const MAX_REGION: usize = 8;
/// A [`Survey`] looks at this many positions spread through the box at least...
const MIN_SURVEY_SPREAD: usize = 16;
/// ...and at more (up to 64) only while it has seen fewer moves than this: the interpreter
/// lists them, and Nim_k's far corner alone has 13^4.
const MAX_SURVEY_MOVES: usize = 1 << 16;
/// Every set of coordinates is tried as a [`Survey`] form up to this many coordinates.
const MAX_FORM_ARITY: usize = 8;

/// The box asked computed within the `region` its moves stay in (dense, in waves of the
/// potential `weights` lowers, in machine code), then cropped: for games whose moves leave
/// the box asked but stay in a region not much larger (a knight moving toward the corner,
/// staircase Nim's coins moving down), cheaper than computing the positions outside on
/// demand one by one. `None` when anything goes wrong there — a rule error, a move leaving
/// the region or not lowering the potential, the budget — and the caller computes the box
/// asked as always, so that every value and every error is the one of the box asked.
fn enlarged(
    game: &Game,
    extents: &[u64],
    region: &Region,
    weights: &[u64],
    progress: Option<Arc<dyn ProgressSink>>,
) -> Option<BoxTable> {
    budget::check_memory(
        &TableShape::Box {
            extents: region.extents.clone(),
        },
        None,
    )
    .ok()?;
    // Stored with the coordinates in increasing order of their extents in the region, the
    // largest last (row-major: its lines contiguous). Moves pour into the coordinate with the
    // most room (staircase Nim's `s1`), so its lines are the longest: `s1 - t` for every `t`.
    let mut order: Vec<usize> = (0..extents.len()).collect();
    order.sort_by_key(|&i| region.extents[i]);
    let reorder = |v: &[u64]| order.iter().map(|&i| v[i]).collect::<Vec<_>>();
    let rules = box_program(game, extents).ok()?;
    let program = rules.reordered(&order);
    let stored = Region {
        extents: reorder(&region.extents),
        forms: (region.forms.iter())
            .map(|(form, bound)| (reorder(form), *bound))
            .collect(),
    };
    let weights = reorder(weights);
    let mut solver = Solver::with_program(game, &program, &stored.extents)
        .ok()?
        .with_progress(progress)
        .with_outside_limit(0);
    // Only the positions of potential at most the box's largest: every move lowers the
    // potential, so those are all the box asked reaches.
    let last = potential(&weights, &reorder(extents));
    let mut rows = Vec::new();
    let waves = potential(&weights, &stored.extents).min(last) as usize + 1;
    for_each_row(
        &solver.layout,
        &weights,
        waves,
        Some(&stored),
        &mut |start, base, count| {
            rows.push((start, base, count));
        },
    );
    let box_len = extents.iter().map(|&e| e as usize + 1).product::<usize>();
    let positions = rows.iter().map(|&(_, _, count)| count).sum::<usize>();
    if positions > MAX_REGION.saturating_mul(box_len) {
        return None;
    }
    // Moves that lower the stored index (staircase Nim's, `s1` last): one sweep of the rows
    // in index order, each position seeing every option valued before it, as the loop a
    // contestant writes — on one thread, but reading its neighbours' lines from the cache.
    // Else (or when the sweep stops) the waves, on every thread.
    let swept = positions >= solver.min_run_box && solver.index_directions().ok()?.0 == 0 && {
        let mut progress = Progress::new(0, positions as u64, solver.progress.clone());
        let swept = solver.sweep_rows(&rows, &mut progress);
        if swept {
            progress.finish();
        }
        swept
    };
    if !swept {
        let waves = Waves::new(&solver.layout, &weights, last, Some(&stored));
        solver.fill_waves(&waves).ok()?;
    }
    // The box asked, row by row (a row: its last coordinate from 0 to its extent), each row
    // read from the stored region at its coordinates' strides there.
    let mut strides = vec![0; extents.len()];
    for (j, &i) in order.iter().enumerate() {
        strides[i] = solver.layout.strides()[j];
    }
    let (&last_extent, _) = extents.split_last()?;
    let (&last_stride, prefix_strides) = strides.split_last()?;
    // On every thread, a run of rows a task (the first touch of the box's pages is most of
    // the copy's time).
    let row_len = last_extent as usize + 1;
    let shape = BoxShape::new(extents);
    let region_values = &solver.values;
    let mut values: Vec<u32> = Vec::with_capacity(box_len);
    values.spare_capacity_mut()[..box_len]
        .par_chunks_mut(row_len)
        .with_min_len((1 << 12) / row_len + 1)
        .enumerate()
        .for_each_init(Vec::new, |position, (row, out)| {
            shape.write_position(row * row_len, position);
            let start: usize = (position.iter().zip(prefix_strides))
                .map(|(&c, &stride)| c as usize * stride)
                .sum();
            for (c, slot) in out.iter_mut().enumerate() {
                slot.write(region_values[start + c * last_stride]);
            }
        });
    // SAFETY: every one of the `box_len` entries was written above (each row's).
    unsafe { values.set_len(box_len) };
    if values.par_iter().any(|&v| v >= ON_STACK) {
        return None;
    }
    Some(BoxTable::new(
        rules.coordinates().to_vec(),
        extents.to_vec(),
        values,
    ))
}

/// `len` values [`UNVISITED`], a large table's filled on every thread: the first touch of
/// its pages (the kernel's zeroing) is most of the cost, and it parallelises.
fn unvisited(len: usize) -> Vec<u32> {
    const PARALLEL_FILL: usize = 1 << 20;
    if len < PARALLEL_FILL {
        return vec![UNVISITED; len];
    }
    // Zeroed pages the allocator maps without touching them.
    let mut values = vec![0u32; len];
    values
        .par_chunks_mut(1 << 16)
        .for_each(|chunk| chunk.fill(UNVISITED));
    values
}

/// `Σ w_i·c_i`.
fn potential(weights: &[u64], position: &[u64]) -> u128 {
    weights
        .iter()
        .zip(position)
        .map(|(&w, &c)| u128::from(w) * u128::from(c))
        .sum()
}

/// `Σ w_i·d_i`: what a move that changes the coordinates by `deltas` adds to the form `w`
/// (each change within ±2⁶⁴, weights below 2⁶: no overflow).
fn potential_change(weights: &[u64], deltas: &[i128]) -> i128 {
    weights
        .iter()
        .zip(deltas)
        .map(|(&w, &d)| i128::from(w) * d)
        .sum()
}

/// The forms of small weights a [`Survey`] tries besides the sums of sets of coordinates: for
/// two coordinates, weights `0..=3` each, for three, `0..=2`; only forms of at least two
/// coordinates, not all weights equal (the sums have those), and not a multiple of another.
fn weighted_forms(arity: usize) -> Vec<Vec<u64>> {
    let top = match arity {
        2 => 3,
        3 => 2,
        _ => return Vec::new(),
    };
    let mut forms = Vec::new();
    let mut form = vec![0u64; arity];
    loop {
        let used: Vec<u64> = form.iter().copied().filter(|&w| w > 0).collect();
        let gcd = used.iter().fold(0, |g, &w| arith::gcd_u64(g, w));
        if used.len() >= 2 && gcd == 1 && used.iter().any(|&w| w != used[0]) {
            forms.push(form.clone());
        }
        // The next weights, as digits `0..=top`.
        let Some(i) = form.iter().position(|&w| w < top) else {
            return forms;
        };
        form[..i].fill(0);
        form[i] += 1;
    }
}

/// The bit mask of the set of all `arity` coordinates.
fn all_coordinates(arity: usize) -> u64 {
    u64::MAX >> (64 - arity.clamp(1, 64))
}

/// What a sample of a box's moves shows about them ([`Solver::survey`]). A guess, which
/// decides the order of evaluation only, never a value: a move that contradicts it reaches a
/// position not computed yet, and the computation falls back to one that needs no guess.
#[derive(Clone, Debug)]
struct Survey {
    /// Some sampled move leaves the box.
    leaves: bool,
    /// The forms `Σ w_i·c_i` (the weights `w`, one a coordinate) that no sampled move raises
    /// (for every component of a move to a sum): at every position the box reaches, such a
    /// form is at most its largest in the box. Sums of sets of coordinates — staircase Nim's
    /// suffix sums `s_k + … + s_4`, a knight toward the corner's `x + y` — and, for two or
    /// three coordinates, small weights: the knight's `2x + y` and `x + 2y`, which cut its
    /// triangle `x + y ≤ 2n` to the quadrilateral it really reaches (three quarters of it).
    forms: Vec<Vec<u64>>,
    /// The weights of a potential `Σ w_i·c_i` that every sampled move lowers: the coordinate
    /// sum, else one coordinate (Fibonacci Nim's heap, whose moves may raise the limit), else
    /// the sum of the kept forms (staircase Nim's `s1 + 2·s2 + 3·s3 + 4·s4`).
    weights: Option<Vec<u64>>,
}

/// The positions a box reaches by a [`Survey`]'s forms: `Σ w_i·c_i ≤ bound_w` for each form
/// `w` (its largest value in the box, at the far corner: the weights are not negative),
/// within the bounding box `0..=extents[i]` they imply.
#[derive(Clone, Debug)]
struct Region {
    extents: Vec<u64>,
    /// `(weights, bound)`, the forms the bounding box does not already imply.
    forms: Vec<(Vec<u64>, u64)>,
}

impl Region {
    /// The region of the box `0..=box_extents[i]` by `forms`; `None` when some coordinate is
    /// in no form (nothing bounds it) or a bound overflows.
    fn of(forms: &[Vec<u64>], box_extents: &[u64]) -> Option<Region> {
        let mut extents = vec![u64::MAX; box_extents.len()];
        let mut bounded = Vec::new();
        for form in forms {
            let bound = u64::try_from(potential(form, box_extents)).ok()?;
            for (extent, &w) in extents.iter_mut().zip(form) {
                if let Some(most) = bound.checked_div(w) {
                    *extent = (*extent).min(most);
                }
            }
            bounded.push((form.clone(), bound));
        }
        if extents.contains(&u64::MAX) {
            return None;
        }
        bounded.retain(|(form, bound)| potential(form, &extents) > u128::from(*bound));
        Some(Region {
            extents,
            forms: bounded,
        })
    }

    /// How large the last coordinate may be after the others, `prefix`, when they are in the
    /// region (`u64::MAX`: no form bounds it); `None` when they are not.
    fn room_for_last(&self, prefix: &[u64]) -> Option<u64> {
        let last = prefix.len();
        let mut room = u64::MAX;
        for (form, bound) in &self.forms {
            let left = u128::from(*bound).checked_sub(potential(form, prefix))? as u64;
            if let Some(most) = left.checked_div(form[last]) {
                room = room.min(most);
            }
        }
        Some(room)
    }
}

/// The program of a position game whose positions have `extents.len()` coordinates.
fn box_program<'g>(game: &'g Game, extents: &[u64]) -> Result<&'g Program, EngineError> {
    if let Some(graph) = game.graph() {
        return Err(match graph.hackenbush {
            Some(_) => EngineError::Hackenbush,
            None => EngineError::Request(format!(
                "{} is a graph file: its positions are its nodes, a table of one coordinate, not a box",
                game.name
            )),
        });
    }
    let Some(program) = game.position_program() else {
        return Err(EngineError::Request(format!(
            "{} is a heap game, not a position game",
            game.name
        )));
    };
    if extents.len() != program.coordinates().len() {
        return Err(EngineError::Request(format!(
            "the box has {} extents but positions are ({})",
            extents.len(),
            program.coordinates().join(", ")
        )));
    }
    Ok(program)
}

/// Positions outside the box, computed on demand; node ids `size + i`.
#[derive(Debug)]
struct Outside {
    ids: HashMap<Vec<u64>, usize>,
    entries: Vec<(Vec<u64>, u32)>,
    /// The rule whose move first reached each entry (`NO_RULE` for a position asked for).
    made_by: Vec<u32>,
    limit: usize,
}

const NO_RULE: u32 = u32::MAX;

/// A position game's values over a box, and on demand outside it.
pub struct Solver<'g> {
    game: &'g Game,
    program: &'g Program,
    layout: BoxShape,
    values: Vec<u32>,
    outside: Outside,
    scratch: Scratch,
    mex: MexSet,
    point: Vec<u64>,
    progress: Option<Arc<dyn ProgressSink>>,
    /// The request's rule steps (module docs of [`budget`]).
    meter: Meter,
    /// Rule steps spent on positions outside the box, and what they may cost.
    outside_steps: (u64, u64),
    /// Bytes the search's stack and listed moves may use.
    search_bytes: u64,
    /// The rules in machine code, when they compile ([`jit`]), tried before the interpreter.
    compiled: Compiled,
    compiled_scratch: jit::Scratch,
    /// Boxes smaller than this are valued without runs or listers ([`MIN_RUN_BOX`]).
    min_run_box: usize,
    /// The box's [`Survey`], once taken (the region's and the waves' choices both read it).
    survey: Option<Survey>,
}

/// A box's rules in machine code ([`jit`]).
struct Compiled {
    /// The rules for one position at a time: compiled when first needed (a box computed
    /// within an enlarged region, or swept in runs, never needs them: a compile is about a
    /// millisecond).
    kernel: OnceLock<Option<Kernel>>,
    /// The same rules for runs of positions, a wave's or a sweep's: compiled when first
    /// needed (a search from one position, a small box, never needs them).
    runs: OnceLock<Option<Arc<Kernel>>>,
    program: Program,
    layout: BoxShape,
}

impl Compiled {
    fn new(program: &Program, layout: &BoxShape) -> Self {
        Compiled {
            kernel: OnceLock::new(),
            runs: OnceLock::new(),
            program: program.clone(),
            layout: layout.clone(),
        }
    }

    /// The rules for runs of positions ([`Kernel::compile_box_runs`]).
    fn runs(&self) -> Option<&Kernel> {
        self.shared_runs().map(|runs| &**runs)
    }

    /// [`Compiled::runs`], shared with another thread.
    fn shared_runs(&self) -> Option<&Arc<Kernel>> {
        let compile = || {
            Kernel::compile_box_runs(&self.program, self.layout.extents(), self.layout.strides())
                .map(Arc::new)
        };
        self.runs.get_or_init(compile).as_ref()
    }

    /// `G(position)` by the machine code when every option is in the box and known, spending
    /// its steps from `budget`; `None`: ask the interpreter ([`jit`]'s bail-outs).
    fn value(
        &self,
        position: &[u64],
        values: &[u32],
        budget: &mut u64,
        scratch: &mut jit::Scratch,
    ) -> Option<u32> {
        let compile =
            || Kernel::compile_box(&self.program, self.layout.extents(), self.layout.strides());
        let kernel = self.kernel.get_or_init(compile).as_ref()?;
        let valued = kernel.box_value(position, values, *budget, scratch);
        match valued {
            jit::Valued::Value(value, steps) => {
                *budget -= steps;
                Some(value)
            }
            jit::Valued::Bail => None,
        }
    }
}

impl<'g> Solver<'g> {
    /// A solver for the box `0..=extents[i]`, refusing a box that would not fit in memory
    /// (before allocating it).
    pub fn new(game: &'g Game, extents: &[u64]) -> Result<Self, EngineError> {
        Solver::with_program(game, box_program(game, extents)?, extents)
    }

    /// [`Solver::new`] running `program`, the game's rules or the same rules over its
    /// coordinates reordered ([`Program::reordered`]), the box's `extents` in its order.
    fn with_program(
        game: &'g Game,
        program: &'g Program,
        extents: &[u64],
    ) -> Result<Self, EngineError> {
        check_box_memory(extents)?;
        let shape = TableShape::Box {
            extents: extents.to_vec(),
        };
        // Half the memory available, less the box's own values.
        let search_bytes = (super::available_memory() / 2)
            .saturating_sub(budget::memory_need(&shape, None).bytes)
            .max(1 << 24);
        let layout = BoxShape::new(extents);
        Ok(Solver {
            compiled: Compiled::new(program, &layout),
            compiled_scratch: jit::Scratch::default(),
            min_run_box: MIN_RUN_BOX,
            game,
            program,
            // Made when first needed: a box computed within an enlarged region never is (the
            // knight's 16 MB, filled for nothing).
            values: Vec::new(),
            layout,
            outside: Outside {
                ids: HashMap::new(),
                entries: Vec::new(),
                made_by: Vec::new(),
                limit: MAX_OUTSIDE,
            },
            scratch: Scratch::default(),
            mex: MexSet::with_capacity(256),
            point: Vec::new(),
            progress: None,
            meter: Meter::default(),
            outside_steps: (0, budget::OUTSIDE_STEPS),
            search_bytes,
            survey: None,
        })
    }

    /// Lets the positions outside the box cost `steps` rule steps (at least
    /// [`budget::OUTSIDE_STEPS`]; [`compute_box`] allows as many as the box is estimated to
    /// take): past them the moves are leaving the box for good, and the search stops with
    /// [`EngineError::OverBudget`] instead of following them.
    pub fn with_outside_steps(mut self, steps: u64) -> Self {
        self.outside_steps.1 = steps.max(budget::OUTSIDE_STEPS);
        self
    }

    /// The box's values, every one [`UNVISITED`], unless made already.
    fn make_values(&mut self) {
        if self.values.len() != self.layout.len() {
            self.values = unvisited(self.layout.len());
        }
    }

    /// Rule steps spent so far (of [`budget::steps_limit`]).
    pub fn steps_spent(&self) -> u64 {
        self.meter.spent()
    }

    /// Lowers the number of positions outside the box that may be computed (at most
    /// [`MAX_OUTSIDE`]), e.g. to keep a fuzz test fast.
    pub fn with_outside_limit(mut self, limit: usize) -> Self {
        self.outside.limit = limit.min(MAX_OUTSIDE);
        self
    }

    /// Reports to `progress` while [`Solver::fill_box`] runs.
    pub fn with_progress(mut self, progress: Option<Arc<dyn ProgressSink>>) -> Self {
        self.progress = progress;
        self
    }

    /// Computes the `waves` only ([`enlarged`]).
    fn fill_waves(&mut self, waves: &Waves) -> Result<(), EngineError> {
        self.make_values();
        let mut progress = Progress::new(0, waves.len() as u64, self.progress.clone());
        let filled = self.waves(&mut progress, waves);
        progress.finish();
        filled.map(|_| ())
    }

    /// Computes every position of the box.
    pub fn fill_box(&mut self, order: Order) -> Result<(), EngineError> {
        self.make_values();
        let mut progress = Progress::new(0, self.layout.len() as u64, self.progress.clone());
        let filled = self.fill_box_reporting(order, &mut progress);
        progress.finish();
        filled
    }

    /// [`Solver::fill_box`], counting the waves' positions and then the search's roots as done.
    fn fill_box_reporting(
        &mut self,
        order: Order,
        progress: &mut Progress,
    ) -> Result<(), EngineError> {
        let worth_it = self.layout.dimension() >= 2 && self.layout.len() >= MIN_WAVE_BOX;
        let mut waves_done = 0;
        if order == Order::Waves || (order == Order::Auto && worth_it) {
            let weights = self.survey()?.weights;
            let weights = weights.unwrap_or_else(|| vec![1; self.layout.dimension()]);
            // Three coordinates or more: first the rows in waves of rows (on two threads,
            // without a list of the box's positions), which most games' moves allow.
            if order == Order::Auto
                && self.layout.dimension() >= 3
                && weights.last().is_some_and(|&w| w > 0)
                && self.layout.len() >= self.min_run_box
            {
                let mut rows = Vec::new();
                for_each_row(
                    &self.layout,
                    &weights,
                    usize::MAX,
                    None,
                    &mut |start, base, count| {
                        rows.push((start, base, count));
                    },
                );
                if self.sweep_rows(&rows, progress) {
                    return Ok(());
                }
            }
            let waves = Waves::new(&self.layout, &weights, u128::MAX, None);
            waves_done = self.waves(progress, &waves)?;
        }
        // Searching from the end the moves lead away from finds the options already done.
        let len = self.layout.len();
        if waves_done == len {
            return Ok(());
        }
        let down = self.moves_raise_index()?;
        let root_at = |scanned: usize| if down { len - 1 - scanned } else { scanned };
        let mut position = Vec::new();
        let (mut scanned, mut next_report) = (0, 0);
        while scanned < len {
            if scanned >= next_report {
                progress.set(waves_done.max(scanned) as u64);
                next_report = scanned + ROOTS_PER_PROGRESS;
            }
            // The roots to the next report in one sweep of the machine code, to the first
            // whose options are not all known.
            let runs_wanted = self.layout.len() >= self.min_run_box;
            if let Some(runs) = runs_wanted.then(|| self.compiled.runs()).flatten() {
                let step = if down { -1 } else { 1 };
                let count = next_report.min(len) - scanned;
                let ran = runs.box_sweep(
                    root_at(scanned),
                    step,
                    count,
                    &mut self.values,
                    self.meter.left,
                    &mut self.compiled_scratch,
                );
                self.meter.left -= ran.steps;
                scanned += ran.done;
                if ran.done == count {
                    continue;
                }
            }
            let root = root_at(scanned);
            scanned += 1;
            if self.values[root] != UNVISITED {
                continue;
            }
            // A root whose options are all known is valued in place, without a search.
            self.layout.write_position(root, &mut position);
            let value = self.compiled.value(
                &position,
                &self.values,
                &mut self.meter.left,
                &mut self.compiled_scratch,
            );
            if let Some(value) = value {
                self.values[root] = value;
                continue;
            }
            self.search(root)?;
        }
        Ok(())
    }

    /// True when most moves from a sample of the box's positions lead to higher indices (as
    /// in a game whose moves raise a mask): only the order of the search depends on it.
    fn moves_raise_index(&mut self) -> Result<bool, EngineError> {
        let (up, down) = self.index_directions()?;
        Ok(up > down)
    }

    /// How many moves from a sample of the box's positions lead to higher indices and how
    /// many to lower ones (in the box).
    fn index_directions(&mut self) -> Result<(u64, u64), EngineError> {
        let (mut up, mut down) = (0u64, 0u64);
        let samples = 64.min(self.layout.len());
        let mut position = Vec::new();
        let mut lister = self.lister();
        for k in 0..samples {
            let index = k * (self.layout.len() / samples);
            self.layout.write_position(index, &mut position);
            let layout = self.layout.clone();
            let arity = layout.dimension();
            self.visit_moves(&mut lister, &position, &mut |components| {
                for c in components.chunks(arity) {
                    match layout.index(c) {
                        Some(i) if i > index => up += 1,
                        Some(i) if i < index => down += 1,
                        _ => {}
                    }
                }
            })?;
        }
        Ok((up, down))
    }

    /// Values the `rows` (the table index of a row's first position, the potential of its
    /// coordinates but the last, and its number of positions; in increasing index) by the
    /// machine code, each position in place: a sweep for moves that lower the index. False
    /// when the machine code stops at a position (an option not known yet, a fault, the
    /// budget): the caller computes the box another way.
    ///
    /// On two threads or more, the rows go in waves of rows, one potential a wave, each
    /// wave's rows shared with a [`Partner`]: a move that lowers the potential and keeps its
    /// row lowers the row's last coordinate (an option swept before it in the row), and one
    /// to another row lowers, by the survey, the rest of the potential (staircase Nim's
    /// `2·s2 + 3·s3 + 4·s4` as coins pour into `s1`): an option in an earlier wave. A move
    /// that contradicts the survey meets a position not known yet and stops the sweep.
    fn sweep_rows(&mut self, rows: &[(usize, usize, usize)], progress: &mut Progress) -> bool {
        self.make_values();
        let Some(runs) = self.compiled.shared_runs().cloned() else {
            return false;
        };
        let total: usize = rows.iter().map(|&(_, _, count)| count).sum();
        let (mut done, mut next_report) = (0, 0);
        let mut order: Vec<usize> = (0..rows.len()).collect();
        let shared = rayon::current_num_threads() > 1 && total >= MIN_SHARED_ROWS;
        if shared {
            // Stable: a wave's rows in index order.
            order.sort_by_key(|&r| rows[r].1);
        }
        let swept = std::thread::scope(|scope| {
            let mut partner = shared.then(|| Partner::start(scope, Arc::clone(&runs)));
            let waves = order.chunk_by(|&a, &b| !shared || rows[a].1 == rows[b].1);
            for wave in waves {
                let segments: Vec<Segment> =
                    (wave.iter()).map(|&r| (rows[r].0, 1, rows[r].2)).collect();
                let wave_len: usize = segments.iter().map(|&(_, _, count)| count).sum();
                if let (Some(partner), true) = (partner.as_mut(), wave_len >= MIN_SHARED_WAVE) {
                    // Each thread takes the next row not taken: rows of one potential may cost
                    // very differently.
                    let (complete, steps) = partner.share_segments(
                        &runs,
                        &segments,
                        &mut self.values,
                        self.meter.left,
                        &mut self.compiled_scratch,
                    );
                    self.meter.left -= steps;
                    if !complete {
                        return false;
                    }
                } else {
                    for &(start, _, count) in &segments {
                        let ran = runs.box_sweep(
                            start,
                            1,
                            count,
                            &mut self.values,
                            self.meter.left,
                            &mut self.compiled_scratch,
                        );
                        self.meter.left -= ran.steps;
                        if ran.done < count {
                            return false;
                        }
                    }
                }
                done += wave_len;
                if done >= next_report {
                    progress.set(done as u64);
                    next_report = done + ROOTS_PER_PROGRESS;
                }
            }
            true
        });
        swept
    }

    /// `G(position)`, computing what it needs.
    pub fn value(&mut self, position: &[u64]) -> Result<u32, EngineError> {
        self.make_values();
        let node = self.node_of(position)?;
        if self.state(node) == UNVISITED {
            self.search(node)?;
        }
        Ok(self.state(node))
    }

    /// The box's values (every position must have been computed by [`Solver::fill_box`]).
    pub fn into_table(mut self) -> BoxTable {
        self.make_values();
        BoxTable::new(
            self.program.coordinates().to_vec(),
            self.layout.extents().to_vec(),
            self.values,
        )
    }

    /// Calls `visit(rule, binders, components)` for every move from `position` (lines
    /// expanded, by [`moves::for_each_rule_move`]).
    pub fn for_each_move(
        &mut self,
        position: &[u64],
        visit: &mut MoveSink<'_>,
    ) -> Result<(), EngineError> {
        let result = moves::for_each_rule_move(
            self.program,
            position,
            &mut self.scratch,
            &mut self.meter.left,
            |rule, binders, components| {
                visit(rule, binders, components);
                ControlFlow::Continue(())
            },
        );
        let rule = self.scratch.out_of_budget_in();
        self.rule_error(result, position, rule)
    }

    /// A lister of the box's moves ([`Kernel::compile_box_lister`]) with a scratch of its
    /// own, for [`Solver::visit_moves`]; none for a box of fewer than `min_run_box`
    /// positions or of more than `u32` indices.
    fn lister(&self) -> Option<(Kernel, jit::Scratch)> {
        let len = self.layout.len();
        if len < self.min_run_box || u32::try_from(len).is_err() {
            return None;
        }
        let kernel =
            Kernel::compile_box_lister(self.program, self.layout.extents(), self.layout.strides())?;
        Some((kernel, jit::Scratch::default()))
    }

    /// The components of every move from `position` (as [`Solver::for_each_move`]), listed
    /// by `lister` ([`Kernel::compile_box_lister`], with a scratch of its own: it writes its
    /// options where the marks of a value's mex would be) when it can, else by the
    /// interpreter.
    fn visit_moves(
        &mut self,
        lister: &mut Option<(Kernel, jit::Scratch)>,
        position: &[u64],
        visit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), EngineError> {
        let listed = lister
            .as_mut()
            .and_then(|(lister, scratch)| lister.box_options(position, self.meter.left, scratch));
        let Some((indices, steps)) = listed else {
            return self.for_each_move(position, &mut |_, _, components| visit(components));
        };
        self.meter.left -= steps;
        let mut option = Vec::new();
        for &index in indices {
            self.layout.write_position(index as usize, &mut option);
            visit(&option);
        }
        Ok(())
    }

    /// The engine's error for a stopped enumeration at `position` (`rule`: the rule running
    /// when the meter ran out).
    fn rule_error(
        &self,
        result: Result<(), Stop>,
        position: &[u64],
        rule: Option<usize>,
    ) -> Result<(), EngineError> {
        match result {
            Ok(()) | Err(Stop::Break) => Ok(()),
            Err(Stop::OutOfBudget) => Err(self.over_budget(
                rule,
                position,
                OverBudget::Steps {
                    limit: self.meter.limit(),
                },
                Hint::SmallerBox,
            )),
            Err(Stop::Error(diagnostic)) => Err(EngineError::rule(self.game, diagnostic)),
        }
    }

    /// [`budget::over_budget`] with how far the box got.
    fn over_budget(
        &self,
        rule: Option<usize>,
        position: &[u64],
        why: OverBudget,
        hint: Hint,
    ) -> EngineError {
        let done = self.values.iter().filter(|&&v| v < ON_STACK).count();
        budget::over_budget(
            self.game,
            Some(self.program),
            rule,
            position,
            why,
            done as u128,
            self.layout.len() as u128,
            hint,
        )
    }

    fn state(&self, node: usize) -> u32 {
        match node.checked_sub(self.layout.len()) {
            None => self.values[node],
            Some(i) => self.outside.entries[i].1,
        }
    }

    fn set_state(&mut self, node: usize, value: u32) {
        match node.checked_sub(self.layout.len()) {
            None => self.values[node] = value,
            Some(i) => self.outside.entries[i].1 = value,
        }
    }

    fn position(&self, node: usize) -> Vec<u64> {
        match node.checked_sub(self.layout.len()) {
            None => {
                let mut p = Vec::new();
                self.layout.write_position(node, &mut p);
                p
            }
            Some(i) => self.outside.entries[i].0.clone(),
        }
    }

    fn node_of(&mut self, position: &[u64]) -> Result<usize, EngineError> {
        node_of(&self.layout, &mut self.outside, position, NO_RULE)
    }

    /// What a sample of the box's moves shows (spread through the box, and on its far
    /// faces, where moves leave it): see [`Survey`]. Taken once (Nim_k's sample, the far
    /// corner's 13^4 binder values among them, cost a tenth of its table when taken twice).
    fn survey(&mut self) -> Result<Survey, EngineError> {
        if let Some(survey) = &self.survey {
            return Ok(survey.clone());
        }
        let survey = self.take_survey()?;
        self.survey = Some(survey.clone());
        Ok(survey)
    }

    /// [`Solver::survey`] taken.
    fn take_survey(&mut self) -> Result<Survey, EngineError> {
        let arity = self.layout.dimension();
        let layout = self.layout.clone();
        let extents = layout.extents();
        // The far corner, the middle of each far face and MIN_SURVEY_SPREAD positions spread
        // through the box always; more of the faces and the box while the moves seen stay
        // fewer than MAX_SURVEY_MOVES.
        let face = |i: usize, fraction: u64| -> Vec<u64> {
            let mut face: Vec<u64> = extents.iter().map(|&e| e * fraction / 4).collect();
            face[i] = extents[i];
            face
        };
        let samples = 64.min(layout.len());
        let spread = |k: usize| -> Vec<u64> {
            let mut position = Vec::new();
            layout.write_position(k * (layout.len() / samples), &mut position);
            position
        };
        // Every fourth spread position first: the first ones cover the whole box too.
        let mut order: Vec<usize> = (0..samples).collect();
        order.sort_by_key(|&k| (k % 4, k));
        let first = samples.min(MIN_SURVEY_SPREAD);
        let mut starts: Vec<Vec<u64>> = vec![extents.to_vec()];
        starts.extend((0..arity).map(|i| face(i, 2)));
        starts.extend(order[..first].iter().map(|&k| spread(k)));
        let always = starts.len();
        starts.extend((0..arity).flat_map(|i| [face(i, 1), face(i, 3)]));
        starts.extend(order[first..].iter().map(|&k| spread(k)));
        // Every set of coordinates when there are few, else each one and all of them.
        let mut forms: Vec<u64> = if arity <= MAX_FORM_ARITY {
            (1..1u64 << arity).collect()
        } else {
            (0..arity)
                .map(|i| 1 << i)
                .chain([all_coordinates(arity)])
                .collect()
        };
        // The change of the sum of a form's coordinates (each change within ±2⁶⁴, at most 64
        // of them: no overflow).
        let form_change = |form: u64, deltas: &[i128]| -> i128 {
            let (mut rest, mut change) = (form, 0);
            while rest != 0 {
                change += deltas[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            change
        };
        let mut kept = vec![true; forms.len()];
        // Forms of small weights, not all equal, for a few coordinates (their changes summed
        // one coordinate at a time: few enough to cost little).
        let mut weighted = weighted_forms(arity);
        let mut weighted_kept = vec![true; weighted.len()];
        // The candidates for the waves' potential: the sum, each coordinate alone.
        let mut candidates = vec![vec![1u64; arity]];
        for i in 0..arity {
            let mut unit = vec![0u64; arity];
            unit[i] = 1;
            candidates.push(unit);
        }
        let mut lowered = vec![true; candidates.len()];
        let mut leaves = false;
        // For each sampled move, the forms it lowers strictly (a bit set; distinct ones kept).
        let mut lowering: HashSet<Vec<u64>> = HashSet::new();
        let mut strict = vec![0u64; forms.len().div_ceil(64)];
        let mut last_strict = Vec::new();
        let mut deltas = vec![0i128; arity];
        let mut seen = 0usize;
        // The moves in machine code where it can list them (Nim_k's corner has 13^4 binder
        // values), else by the interpreter.
        let mut lister = self.lister();
        for (k, from) in starts.into_iter().enumerate() {
            if k >= always && seen >= MAX_SURVEY_MOVES {
                break;
            }
            self.visit_moves(&mut lister, &from, &mut |components| {
                seen += 1;
                for c in components.chunks(arity) {
                    leaves |= layout.index(c).is_none();
                    // What the move adds to each coordinate, then to each form's sum.
                    for ((delta, &after), &before) in deltas.iter_mut().zip(c).zip(&from) {
                        *delta = i128::from(after) - i128::from(before);
                    }
                    strict.fill(0);
                    for (k, (&form, keep)) in forms.iter().zip(kept.iter_mut()).enumerate() {
                        let change = form_change(form, &deltas);
                        *keep &= change <= 0;
                        if change < 0 {
                            strict[k / 64] |= 1 << (k % 64);
                        }
                    }
                    for (form, keep) in weighted.iter().zip(weighted_kept.iter_mut()) {
                        *keep &= potential_change(form, &deltas) <= 0;
                    }
                    // Most moves in a row lower the same forms: no lookup then.
                    if strict != last_strict {
                        if !lowering.contains(&strict) {
                            lowering.insert(strict.clone());
                        }
                        last_strict.clone_from(&strict);
                    }
                    for (w, ok) in candidates.iter().zip(lowered.iter_mut()) {
                        *ok &= potential(w, c) < potential(w, &from);
                    }
                }
            })?;
        }
        // Last candidate: the sum of the kept forms, lowered when every move lowers one.
        let lowers = lowering
            .iter()
            .all(|strict| (0..forms.len()).any(|k| kept[k] && strict[k / 64] >> (k % 64) & 1 == 1));
        let mut keep = kept.iter();
        forms.retain(|_| *keep.next().expect("one flag per form"));
        let mut by_forms = vec![0u64; arity];
        for &form in &forms {
            for (i, w) in by_forms.iter_mut().enumerate() {
                *w += form >> i & 1;
            }
        }
        // Its waves must stay few (one slot each, however empty).
        let waves = potential(&by_forms, extents);
        lowered.push(lowers && waves <= 8 * layout.len() as u128);
        candidates.push(by_forms);
        let weights = lowered
            .iter()
            .position(|&ok| ok)
            .map(|chosen| candidates.swap_remove(chosen));
        let mut keep = weighted_kept.iter();
        weighted.retain(|_| *keep.next().expect("one flag per form"));
        let sums = forms
            .iter()
            .map(|&form| (0..arity).map(|i| form >> i & 1).collect::<Vec<u64>>());
        Ok(Survey {
            leaves,
            forms: sums.chain(weighted).collect(),
            weights,
        })
    }

    /// The region the box's moves stay in, when a sample says that some leave the box, that
    /// a potential lowers ([`Survey`]) and that the region's bounding box has at most
    /// [`MAX_ENLARGEMENT`] times the box's positions; `None` otherwise. A guess from a sample
    /// only: [`enlarged`] gives up when a move leaves the region.
    fn reach(&mut self) -> Result<Option<(Region, Vec<u64>)>, EngineError> {
        if self.layout.dimension() < 2 || self.layout.len() < MIN_WAVE_BOX {
            return Ok(None);
        }
        let survey = self.survey()?;
        let (true, Some(weights)) = (survey.leaves, survey.weights) else {
            return Ok(None);
        };
        let Some(region) = Region::of(&survey.forms, self.layout.extents()) else {
            return Ok(None);
        };
        let size: u128 = region.extents.iter().map(|&e| u128::from(e) + 1).product();
        let enough = size <= MAX_ENLARGEMENT * self.layout.len() as u128;
        Ok(enough.then_some((region, weights)))
    }

    /// The `waves` of equal potential (anti-diagonals for the coordinate sum) in order, each
    /// in parallel, until a move reaches a position not yet computed; the number of positions
    /// they computed.
    fn waves(&mut self, progress: &mut Progress, waves: &Waves) -> Result<usize, EngineError> {
        // Diagonal waves too quick for the pool are shared with a partner thread.
        let partner_runs = (rayon::current_num_threads() > 1
            && waves.diagonals.is_some()
            && self.layout.len() >= self.min_run_box)
            .then(|| self.compiled.shared_runs().cloned())
            .flatten();
        std::thread::scope(|scope| {
            let mut partner = partner_runs.map(|runs| Partner::start(scope, runs));
            self.waves_with(progress, waves, partner.as_mut())
        })
    }

    /// [`Solver::waves`], with the partner that shares the quick diagonal waves, if any.
    fn waves_with(
        &mut self,
        progress: &mut Progress,
        waves: &Waves,
        mut partner: Option<&mut Partner>,
    ) -> Result<usize, EngineError> {
        let mut done = 0;
        let program = self.program;
        let shared = SharedMeter::new(&self.meter);
        // One working state per thread of the pool (and one for the calling thread), kept
        // from wave to wave: a box has thousands of waves, each cut in many chunks.
        let threads = rayon::current_num_threads();
        let states: Vec<Mutex<WaveState>> = (0..=threads).map(|_| Mutex::default()).collect();
        // The values of a wave, in its order (`UNVISITED`: an option was not known).
        let mut computed: Vec<u32> = Vec::new();
        // Nanoseconds of one thread's work a position, from the last wave (none yet: in the
        // pool when large enough).
        let mut nanos_per_position: Option<f64> = None;
        for wave in waves.iter() {
            // A small or quick wave is not worth handing to the pool (a long thin box has
            // millions of waves).
            let parallel = wave.len() >= PARALLEL_WAVE
                && threads > 1
                && nanos_per_position
                    .is_none_or(|nanos| nanos * wave.len() as f64 >= PARALLEL_WAVE_NANOS);
            // On two cores a partner takes half of any diagonal wave: its hand-off costs less
            // than the pool's.
            let pooled = parallel && (partner.is_none() || threads > 2);
            if let (Wave::Diagonal { first, step, count }, false) = (wave, pooled) {
                let started = Instant::now();
                let partner = partner.as_deref_mut();
                let swept = self.diagonal_in_place((first, step, count), &shared, partner);
                nanos_per_position = Some(started.elapsed().as_nanos() as f64 / count as f64);
                shared.settle(&mut self.meter);
                if !swept? {
                    // Some move reaches a position not computed yet: the search does the rest.
                    return Ok(done);
                }
                done += count;
                progress.set(done as u64);
                continue;
            }
            let wave = wave.indices();
            let wave = &wave[..];
            let layout = &self.layout;
            let compiled = &self.compiled;
            let values = &self.values;
            let runs = (self.layout.len() >= self.min_run_box)
                .then(|| compiled.runs())
                .flatten();
            // The threads' time on this wave, summed: waiting for the pool is not work (the
            // wall time of a parallel wave times the threads would count the hand-off as
            // work and keep handing quick waves to the pool).
            let work_nanos = AtomicU64::new(0);
            let run = |(indices, out): (&[usize], &mut [u32])| {
                let started = Instant::now();
                let _work = AddElapsed {
                    started,
                    sum: &work_nanos,
                };
                let slot = rayon::current_thread_index()
                    .unwrap_or(threads)
                    .min(threads);
                let mut state = states[slot].lock().unwrap_or_else(|e| e.into_inner());
                let WaveState {
                    scratch,
                    compiled_scratch,
                    mex,
                    position,
                    point,
                } = &mut *state;
                // Steps not yet reported to the shared meter (reported when dropped).
                let mut spent = ReportOnDrop {
                    meter: &shared,
                    local: 0,
                };
                let mut k = 0;
                while k < indices.len() {
                    if let Some(runs) = runs {
                        // As many positions as the machine code values in one go; the one it
                        // stops at is valued below, by the interpreter.
                        let left = shared.left(spent.local);
                        let ran = runs.box_run(
                            &indices[k..],
                            values,
                            &mut out[k..],
                            left,
                            compiled_scratch,
                        );
                        spent.local += ran.steps;
                        shared.report(&mut spent.local, false);
                        k += ran.done;
                        if k == indices.len() {
                            break;
                        }
                    }
                    let (index, out) = (indices[k], &mut out[k]);
                    k += 1;
                    layout.write_position(index, position);
                    let left = shared.left(spent.local);
                    let mut budget = left;
                    let value = direct_value(
                        program,
                        (compiled, &mut *compiled_scratch),
                        scratch,
                        layout,
                        values,
                        &|_| None,
                        position,
                        mex,
                        point,
                        &mut budget,
                    );
                    spent.local += left - budget;
                    shared.report(&mut spent.local, false);
                    match value {
                        Ok(Some(value)) => *out = value,
                        // An option not known yet: the waves end here.
                        Ok(None) => return Ok(()),
                        Err(stop) => return Err((stop, index, scratch.out_of_budget_in())),
                    }
                }
                Ok(())
            };
            computed.clear();
            computed.resize(wave.len(), UNVISITED);
            let result = if parallel {
                let chunk = (wave.len() / (4 * threads)).max(PARALLEL_WAVE / 2);
                wave.par_chunks(chunk)
                    .zip(computed.par_chunks_mut(chunk))
                    .try_for_each(run)
            } else {
                run((wave, &mut computed))
            };
            nanos_per_position =
                Some(work_nanos.load(Ordering::Relaxed) as f64 / wave.len() as f64);
            shared.settle(&mut self.meter);
            if let Err((stop, index, rule)) = result {
                let mut position = Vec::new();
                self.layout.write_position(index, &mut position);
                return self.rule_error(Err(stop), &position, rule).map(|()| done);
            }
            if computed.contains(&UNVISITED) {
                // Some move reaches a position not computed yet: the search does the rest.
                return Ok(done);
            }
            for (&index, &value) in wave.iter().zip(&computed) {
                self.values[index] = value;
            }
            done += wave.len();
            progress.set(done as u64);
        }
        Ok(done)
    }

    /// The positions `first + k·step` (`k < count`) of one wave, valued in place on this
    /// thread (by runs of machine code, the interpreter where they stop): false when one has
    /// an option not known yet (the waves end; the positions valued stay).
    fn diagonal_in_place(
        &mut self,
        (first, step, count): (usize, isize, usize),
        shared: &SharedMeter,
        partner: Option<&mut Partner>,
    ) -> Result<bool, EngineError> {
        let mut spent = 0;
        let mut position = Vec::new();
        let mut k = 0;
        let runs = self.compiled.runs();
        if let (Some(partner), Some(runs), true) = (partner, runs, count >= MIN_SHARED_WAVE) {
            // Half each; a half that stops leaves its positions to the sweep below, which
            // skips those valued.
            let (theirs, mine) = partner.sweep(
                runs,
                (first, step, count),
                &mut self.values,
                shared.left(spent),
                &mut self.compiled_scratch,
            );
            spent += theirs.steps + mine.steps;
            if theirs.done + mine.done == count {
                shared.report(&mut spent, true);
                return Ok(true);
            }
        }
        while k < count {
            let index = first.wrapping_add_signed(k as isize * step);
            let runs_wanted = self.layout.len() >= self.min_run_box;
            if let Some(runs) = runs_wanted.then(|| self.compiled.runs()).flatten() {
                let ran = runs.box_sweep(
                    index,
                    step,
                    count - k,
                    &mut self.values,
                    shared.left(spent),
                    &mut self.compiled_scratch,
                );
                spent += ran.steps;
                k += ran.done;
                if k == count {
                    break;
                }
            }
            let index = first.wrapping_add_signed(k as isize * step);
            k += 1;
            self.layout.write_position(index, &mut position);
            let left = shared.left(spent);
            let mut budget = left;
            let value = direct_value(
                self.program,
                (&self.compiled, &mut self.compiled_scratch),
                &mut self.scratch,
                &self.layout,
                &self.values,
                &|_| None,
                &position,
                &mut self.mex,
                &mut self.point,
                &mut budget,
            );
            spent += left - budget;
            match value {
                Ok(Some(value)) => self.values[index] = value,
                Ok(None) => {
                    shared.report(&mut spent, true);
                    return Ok(false);
                }
                Err(stop) => {
                    shared.report(&mut spent, true);
                    let rule = self.scratch.out_of_budget_in();
                    self.rule_error(Err(stop), &position, rule)?;
                    return Ok(false);
                }
            }
        }
        shared.report(&mut spent, true);
        Ok(true)
    }

    /// The depth-first search from `root` (module docs).
    fn search(&mut self, root: usize) -> Result<(), EngineError> {
        struct Frame {
            node: usize,
            /// Where this node's moves start in the arena (they run to its end).
            start: usize,
            /// The next arena entry to look at.
            next: usize,
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut arena: Vec<usize> = Vec::new();
        let mut position = Vec::new();
        let mut entering = Some(root);
        loop {
            if let Some(node) = entering.take() {
                position.clear();
                position.extend(self.position(node));
                self.set_state(node, ON_STACK);
                let outside = &self.outside;
                let size = self.layout.len();
                let lookup = |p: &[u64]| {
                    let v = outside.entries[*outside.ids.get(p)? - size].1;
                    (v < ON_STACK).then_some(v)
                };
                let before = self.meter.left;
                let direct = direct_value(
                    self.program,
                    (&self.compiled, &mut self.compiled_scratch),
                    &mut self.scratch,
                    &self.layout,
                    &self.values,
                    &lookup,
                    &position,
                    &mut self.mex,
                    &mut self.point,
                    &mut self.meter.left,
                );
                match direct {
                    Ok(Some(value)) => self.set_state(node, value),
                    Ok(None) => {
                        let start = arena.len();
                        let listed = list_moves(
                            self.program,
                            &mut self.scratch,
                            &self.layout,
                            &mut self.outside,
                            &position,
                            &mut arena,
                            &mut self.meter.left,
                        );
                        let last_rule = match listed {
                            Ok(rule) => rule,
                            Err(ListError::Outside(e)) => return Err(e),
                            Err(ListError::Stop(stop)) => {
                                let rule = self.scratch.out_of_budget_in();
                                self.rule_error(Err(stop), &position, rule)?;
                                None
                            }
                        };
                        stack.push(Frame {
                            node,
                            start,
                            next: start,
                        });
                        // The memory of the search: its frames and the moves they listed.
                        let bytes = (arena.len() * std::mem::size_of::<usize>()
                            + stack.len() * std::mem::size_of::<Frame>())
                            as u64;
                        if bytes > self.search_bytes {
                            let why = OverBudget::SearchMemory {
                                bytes: self.search_bytes,
                                depth: stack.len(),
                            };
                            return Err(self.over_budget(
                                last_rule,
                                &position,
                                why,
                                Hint::SmallerBox,
                            ));
                        }
                    }
                    Err(stop) => {
                        let rule = self.scratch.out_of_budget_in();
                        self.rule_error(Err(stop), &position, rule)?;
                    }
                }
                if let Some(i) = node.checked_sub(self.layout.len()) {
                    // Work outside the box: bounded, so that moves leaving it for good stop.
                    let (spent, allowed) = &mut self.outside_steps;
                    *spent += before - self.meter.left;
                    let earned = self.outside.entries.len() as u64 * budget::OUTSIDE_POSITION_STEPS;
                    if *spent > allowed.saturating_add(earned) {
                        let why = OverBudget::Outside {
                            positions: self.outside.entries.len(),
                            steps: *spent,
                            allowed: allowed.saturating_add(earned),
                        };
                        let rule = self.outside.made_by[i];
                        let rule = (rule != NO_RULE).then_some(rule as usize);
                        let from = self.outside.entries[i].0.clone();
                        return Err(self.over_budget(rule, &from, why, Hint::LargerBox));
                    }
                }
            }
            let Some(top) = stack.last_mut() else {
                return Ok(());
            };
            // The next child that is not done.
            while top.next < arena.len() {
                let child = arena[top.next];
                if child != END_OF_MOVE {
                    let state = self.state(child);
                    if state == UNVISITED {
                        entering = Some(child);
                        break;
                    }
                    if state == ON_STACK {
                        let from = stack
                            .iter()
                            .position(|f| f.node == child)
                            .expect("a node on the stack has a frame");
                        let nodes: Vec<usize> = stack[from..].iter().map(|f| f.node).collect();
                        return Err(self.cycle(&nodes));
                    }
                }
                top.next += 1;
            }
            if entering.is_some() {
                continue;
            }
            // Every option is done: the mex of the moves' XORs.
            let Frame { node, start, .. } = stack.pop().expect("a top frame");
            let mut mex = std::mem::take(&mut self.mex);
            let value = mex.mex_of_sums(&arena[start..], END_OF_MOVE, |child| self.state(child));
            self.mex = mex;
            self.set_state(node, value);
            arena.truncate(start);
        }
    }

    /// The error for a cycle through `nodes` (each moves to the next, the last to the first).
    fn cycle(&mut self, nodes: &[usize]) -> EngineError {
        let positions: Vec<Vec<u64>> = nodes
            .iter()
            .chain(&nodes[..1])
            .map(|&n| self.position(n))
            .collect();
        let mut rules = Vec::new();
        for pair in positions.windows(2) {
            let mut rule = None;
            let _ = self.for_each_move(&pair[0], &mut |r, _, components| {
                let arity = pair[1].len();
                if rule.is_none() && components.chunks(arity).any(|c| c == pair[1].as_slice()) {
                    rule = Some(r);
                }
            });
            rules.push(rule.map(|r| self.program.rule_name(r, &self.game.source)));
        }
        EngineError::Cycle { positions, rules }
    }
}

/// `(3, 4)`, or `5` for one coordinate.
pub fn show_position(position: &[u64]) -> String {
    match position {
        [one] => one.to_string(),
        _ => format!(
            "({})",
            position
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Refuses a box whose values (and wave order) would not fit in memory, before allocating
/// ([`budget::check_memory`]).
pub fn check_box_memory(extents: &[u64]) -> Result<(), EngineError> {
    budget::check_memory(
        &TableShape::Box {
            extents: extents.to_vec(),
        },
        None,
    )
}

/// The box's indices grouped by potential `Σ w_i·c_i`, in increasing potential: wave `s` is
/// `order[starts[s]..starts[s + 1]]`. One flat array (a counting sort), so that a long thin box
/// with many small waves costs 8 bytes per position and per wave, not a vector per wave.
struct Waves {
    order: Vec<usize>,
    starts: Vec<usize>,
    /// A box of two coordinates in waves of `x + y` or of one coordinate: each wave an
    /// anti-diagonal, a row or a column, the table indices `first, first + step, …`
    /// (`(first, count)` a wave), and no `order`.
    diagonals: Option<(Vec<(usize, usize)>, isize)>,
}

/// The positions of one wave ([`Waves::iter`]).
#[derive(Clone, Copy, Debug)]
enum Wave<'w> {
    Listed(&'w [usize]),
    /// The table indices `first + k·step`, `k < count`.
    Diagonal {
        first: usize,
        step: isize,
        count: usize,
    },
}

impl Wave<'_> {
    fn len(&self) -> usize {
        match self {
            Wave::Listed(indices) => indices.len(),
            Wave::Diagonal { count, .. } => *count,
        }
    }

    /// The table indices, listed.
    fn indices(&self) -> std::borrow::Cow<'_, [usize]> {
        match *self {
            Wave::Listed(indices) => indices.into(),
            Wave::Diagonal { first, step, count } => (0..count)
                .map(|k| first.wrapping_add_signed(k as isize * step))
                .collect::<Vec<_>>()
                .into(),
        }
    }
}

impl Waves {
    /// The waves of potential `0..=last` (positions of a larger potential are left out), of
    /// the positions of `region` only when one is given.
    fn new(layout: &BoxShape, weights: &[u64], last: u128, region: Option<&Region>) -> Self {
        let waves = potential(weights, layout.extents()).min(last) as usize + 1;
        // Two coordinates in waves of `x + y`: the anti-diagonals `x + y = s` of the box, `x`
        // from `max(0, s - e1)` to `min(s, e0)`, and within the region's forms `a·x + b·y ≤ B`:
        // `(a - b)·x ≤ B - b·s`, a bound on `x` on one side (none when `a = b`: `s ≤ B/a`).
        if layout.dimension() == 2 && weights == [1, 1] {
            let (e0, e1) = (layout.extents()[0] as i128, layout.extents()[1] as i128);
            let step = layout.strides()[0] as isize - 1;
            let forms = region.map_or(&[][..], |r| &r.forms[..]);
            let diagonals = (0..waves)
                .filter_map(|s| {
                    let s_wide = s as i128;
                    let (mut lo, mut hi) = ((s_wide - e1).max(0), s_wide.min(e0));
                    for (form, bound) in forms {
                        let (a, b) = (i128::from(form[0]), i128::from(form[1]));
                        let room = i128::from(*bound) - b * s_wide;
                        match (a - b).signum() {
                            1 => hi = hi.min(room.div_euclid(a - b)),
                            -1 => {
                                lo = lo.max(
                                    (-room).div_euclid(b - a)
                                        + i128::from((-room).rem_euclid(b - a) != 0),
                                )
                            }
                            _ if room < 0 => hi = -1,
                            _ => {}
                        }
                    }
                    let x = lo as usize;
                    (lo <= hi).then(|| (x * layout.strides()[0] + (s - x), (hi - lo) as usize + 1))
                })
                .collect();
            return Waves {
                order: Vec::new(),
                starts: Vec::new(),
                diagonals: Some((diagonals, step)),
            };
        }
        // Two coordinates in waves of one of them (Fibonacci Nim's heap, whose moves may raise
        // the other): each wave a row or a column of the box, `e + 1` positions a stride apart.
        if layout.dimension() == 2 && region.is_none() && (weights == [1, 0] || weights == [0, 1]) {
            let by_first = weights == [1, 0];
            let (e0, e1) = (layout.extents()[0] as usize, layout.extents()[1] as usize);
            let stride = layout.strides()[0];
            let lines = (0..waves)
                .map(|s| match by_first {
                    true => (s * stride, e1 + 1),
                    false => (s, e0 + 1),
                })
                .collect();
            let step = if by_first { 1 } else { stride as isize };
            return Waves {
                order: Vec::new(),
                starts: Vec::new(),
                diagonals: Some((lines, step)),
            };
        }
        let rows = |visit: &mut dyn FnMut(usize, usize, usize)| {
            for_each_row(layout, weights, waves, region, visit);
        };
        let w_last = *weights.last().expect("one weight a coordinate") as usize;
        let mut starts = vec![0usize; waves + 1];
        rows(&mut |_, base, count| {
            for c in 0..count {
                starts[base + c * w_last + 1] += 1;
            }
        });
        for s in 1..starts.len() {
            starts[s] += starts[s - 1];
        }
        let mut next = starts.clone();
        let mut order = vec![0usize; starts[waves]];
        rows(&mut |row_start, base, count| {
            for c in 0..count {
                let p = base + c * w_last;
                order[next[p]] = row_start + c;
                next[p] += 1;
            }
        });
        Waves {
            order,
            starts,
            diagonals: None,
        }
    }

    /// The positions listed.
    fn len(&self) -> usize {
        match &self.diagonals {
            Some((diagonals, _)) => diagonals.iter().map(|&(_, count)| count).sum(),
            None => self.order.len(),
        }
    }

    fn iter(&self) -> Box<dyn Iterator<Item = Wave<'_>> + '_> {
        match &self.diagonals {
            Some((diagonals, step)) => {
                Box::new(diagonals.iter().map(|&(first, count)| Wave::Diagonal {
                    first,
                    step: *step,
                    count,
                }))
            }
            None => Box::new(
                self.starts
                    .windows(2)
                    .map(|w| Wave::Listed(&self.order[w[0]..w[1]])),
            ),
        }
    }
}

/// The positions of `layout` of potential below `waves` (of `region`'s only when one is
/// given), row by row in index order (a row: the last coordinate from 0 to its largest there,
/// one potential step `weights.last()` apart): `visit(row_start, base, count)` for the row of
/// `count` positions from table index `row_start`, whose first has potential `base`.
fn for_each_row(
    layout: &BoxShape,
    weights: &[u64],
    waves: usize,
    region: Option<&Region>,
    visit: &mut dyn FnMut(usize, usize, usize),
) {
    let (&last_extent, prefix_extents) = layout.extents().split_last().expect("a box");
    let (&w_last, prefix_weights) = weights.split_last().expect("one weight a coordinate");
    let row_len = last_extent as usize + 1;
    let mut prefix = vec![0u64; prefix_extents.len()];
    let mut row_start = 0;
    loop {
        let base = potential(prefix_weights, &prefix);
        let mut top = Some(last_extent);
        if let Some(region) = region {
            top = top.and_then(|top| Some(top.min(region.room_for_last(&prefix)?)));
        }
        if w_last > 0 {
            let room = (waves as u128 - 1)
                .checked_sub(base)
                .map(|r| r / u128::from(w_last));
            top = top.and_then(|top| Some(top.min(room?.min(u128::from(u64::MAX)) as u64)));
        } else if base >= waves as u128 {
            top = None;
        }
        if let Some(top) = top {
            visit(row_start, base as usize, top as usize + 1);
        }
        row_start += row_len;
        if !super::shape::step(prefix_extents, &mut prefix) {
            break;
        }
    }
}

/// `G(position)` when every option is already known (in the box array or by `outside`),
/// else `None`: by the machine code (`compiled`) when it can, else by the interpreter, whose
/// lines inside the box are read by index arithmetic.
#[allow(clippy::too_many_arguments)]
fn direct_value(
    program: &Program,
    (compiled, compiled_scratch): (&Compiled, &mut jit::Scratch),
    scratch: &mut Scratch,
    layout: &BoxShape,
    values: &[u32],
    outside: &dyn Fn(&[u64]) -> Option<u32>,
    position: &[u64],
    mex: &mut MexSet,
    point: &mut Vec<u64>,
    budget: &mut u64,
) -> Result<Option<u32>, Stop> {
    if let Some(value) = compiled.value(position, values, budget, compiled_scratch) {
        return Ok(Some(value));
    }
    mex.clear();
    let arity = layout.dimension();
    let known = |p: &[u64]| match layout.index(p) {
        Some(i) => (values[i] < ON_STACK).then_some(values[i]),
        None => outside(p),
    };
    let result = program.for_each_option(position, scratch, budget, &mut |_, _, m| {
        match m {
            Move::Sum(components) => {
                let mut xor = Nimber::ZERO;
                for c in components.chunks(arity) {
                    let Some(v) = known(c) else {
                        return ControlFlow::Break(());
                    };
                    xor += v;
                }
                mex.insert(xor.value());
            }
            Move::Line { first, step, count } => {
                line_point(first, step, count - 1, point);
                if let (Some(start), Some(_)) = (layout.index(first), layout.index(point)) {
                    // Inside the box from end to end (a box is convex).
                    let stride: isize = step
                        .iter()
                        .zip(layout.strides())
                        .map(|(&d, &s)| d as isize * s as isize)
                        .sum();
                    let mut index = start as isize;
                    for _ in 0..count {
                        let v = values[index as usize];
                        if v >= ON_STACK {
                            return ControlFlow::Break(());
                        }
                        mex.insert(v);
                        index += stride;
                    }
                } else {
                    for t in 0..count {
                        line_point(first, step, t, point);
                        let Some(v) = known(point) else {
                            return ControlFlow::Break(());
                        };
                        mex.insert(v);
                    }
                }
            }
        }
        ControlFlow::Continue(())
    });
    match result {
        Ok(()) => Ok(Some(mex.mex())),
        Err(Stop::Break) => Ok(None),
        Err(stop) => Err(stop),
    }
}

fn node_of(
    layout: &BoxShape,
    outside: &mut Outside,
    position: &[u64],
    rule: u32,
) -> Result<usize, EngineError> {
    if let Some(index) = layout.index(position) {
        return Ok(index);
    }
    if let Some(&id) = outside.ids.get(position) {
        return Ok(id);
    }
    if outside.entries.len() >= outside.limit {
        return Err(EngineError::TooManyOutside {
            limit: outside.limit,
        });
    }
    let id = layout.len() + outside.entries.len();
    outside.entries.push((position.to_vec(), UNVISITED));
    outside.made_by.push(rule);
    outside.ids.insert(position.to_vec(), id);
    Ok(id)
}

enum ListError {
    Stop(Stop),
    Outside(EngineError),
}

/// Appends the node ids of every move's components to `arena`, each move ended by
/// [`END_OF_MOVE`], spending `budget`; the rule of the last move listed.
#[allow(clippy::too_many_arguments)]
fn list_moves(
    program: &Program,
    scratch: &mut Scratch,
    layout: &BoxShape,
    outside: &mut Outside,
    position: &[u64],
    arena: &mut Vec<usize>,
    budget: &mut u64,
) -> Result<Option<usize>, ListError> {
    let arity = layout.dimension();
    let mut failure = None;
    let mut last_rule = None;
    let result =
        moves::for_each_rule_move(program, position, scratch, budget, |rule, _, components| {
            last_rule = Some(rule);
            for c in components.chunks(arity) {
                match node_of(layout, outside, c, rule as u32) {
                    Ok(id) => arena.push(id),
                    Err(e) => {
                        failure = Some(e);
                        return ControlFlow::Break(());
                    }
                }
            }
            arena.push(END_OF_MOVE);
            ControlFlow::Continue(())
        });
    if let Some(e) = failure {
        return Err(ListError::Outside(e));
    }
    result.map(|()| last_rule).map_err(ListError::Stop)
}

/// A thread's steps not yet reported to the [`SharedMeter`], reported when the thread's
/// state is dropped (at the end of a parallel wave).
/// What a thread computing a wave's positions works with ([`Solver::waves`]).
#[derive(Default)]
struct WaveState {
    scratch: Scratch,
    compiled_scratch: jit::Scratch,
    mex: MexSet,
    position: Vec<u64>,
    point: Vec<u64>,
}

/// Adds the time since `started` to `sum` when dropped (however the work ends).
struct AddElapsed<'a> {
    started: Instant,
    sum: &'a AtomicU64,
}

impl Drop for AddElapsed<'_> {
    fn drop(&mut self) {
        let nanos = u64::try_from(self.started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.sum.fetch_add(nanos, Ordering::Relaxed);
    }
}

struct ReportOnDrop<'a> {
    meter: &'a SharedMeter,
    local: u64,
}

impl Drop for ReportOnDrop<'_> {
    fn drop(&mut self) {
        self.meter.report(&mut self.local, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::interp;
    use crate::rules::{load, SourceFile};

    fn game(text: &str) -> Game {
        load(SourceFile::new("t.sg", text), &[]).unwrap_or_else(|e| panic!("{e}"))
    }

    const WYTHOFF: &str = "position (x, y)\nmove t in 1..=x => (x - t, y)\nmove t in 1..=y => (x, y - t)\nmove t in 1..=min(x, y) => (x - t, y - t)\n";

    #[test]
    fn wythoff_p_positions_are_the_beatty_pairs() {
        // Wythoff 1907: the P-positions are (⌊kφ⌋, ⌊kφ²⌋) = (a_k, a_k + k) and their mirrors.
        let table = compute_box(&game(WYTHOFF), &[70, 70]).unwrap();
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        let mut want: Vec<Vec<u64>> = Vec::new();
        for k in 0..=70u64 {
            let (a, b) = ((k as f64 * phi) as u64, (k as f64 * phi * phi) as u64);
            for p in [vec![a, b], vec![b, a]] {
                if p[0] <= 70 && p[1] <= 70 && !want.contains(&p) {
                    want.push(p);
                }
            }
        }
        want.sort();
        let got: Vec<Vec<u64>> = table
            .iter()
            .filter(|(_, v)| *v == 0)
            .map(|(p, _)| p)
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn waves_and_search_give_the_same_values() {
        let game = game(WYTHOFF);
        let waves = compute_box_in_order(&game, &[40, 70], Order::Waves).unwrap();
        let search = compute_box_in_order(&game, &[40, 70], Order::Search).unwrap();
        assert_eq!(waves, search);
        let naive =
            interp::position_values(&SourceFile::new("t.sg", WYTHOFF), &[], &[40, 70]).unwrap();
        assert_eq!(waves.values(), naive.as_slice());
    }

    #[test]
    fn positions_outside_the_box_are_computed_on_demand() {
        // Moves raise y, so a small box needs positions above it.
        let text =
            "position (x, y)\nmove t in 1..=x => (x - t, y + t)\nmove if y >= 2 => (x, y - 2)\n";
        let small = compute_box(&game(text), &[6, 2]).unwrap();
        let large = compute_box(&game(text), &[6, 20]).unwrap();
        for (p, v) in small.iter() {
            assert_eq!(large.get(&p), Some(v), "{p:?}");
        }
        let naive = interp::position_values(&SourceFile::new("t.sg", text), &[], &[6, 2]).unwrap();
        assert_eq!(small.values(), naive.as_slice());
    }

    #[test]
    fn a_cycle_is_reported_with_its_rules() {
        let err = compute_box(
            &game("position (x, y)\nmove swap: if x != y => (y, x)\n"),
            &[3, 3],
        )
        .unwrap_err();
        let EngineError::Cycle { positions, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!(positions, &vec![vec![0, 1], vec![1, 0], vec![0, 1]]);
        assert_eq!(
            err.to_string(),
            "the moves can cycle, so the game need not end:\n  (0, 1)\n  → (1, 0)   by `swap`\n  → (0, 1)   by `swap`\n"
        );
        assert_eq!(err.hint(), Some(Hint::DecreasingMoves));
        let err = compute_box(&game("position (m)\nmove => m\n"), &[3]).unwrap_err();
        assert!(
            err.to_string()
                .contains("  0\n  → 0   by the rule at line 2\n"),
            "{err}"
        );
    }

    #[test]
    fn negative_coordinates_are_located_errors() {
        let err = compute_box(
            &game("position (x, y)\nmove take: t in 1..=2 => (x - t, y)\n"),
            &[3, 3],
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with(
                "error: at (x, y) = (0, 0), the move `take` leaves x = -1\n --> t.sg:2:27"
            ),
            "{err}"
        );
        assert!(err.contains("a coordinate cannot be negative"), "{err}");
    }

    #[test]
    fn huge_boxes_are_refused_before_allocating() {
        let err = compute_box(&game(WYTHOFF), &[1 << 40, 1 << 40]).unwrap_err();
        assert!(err.to_string().starts_with("a box of "), "{err}");
        assert!(matches!(
            compute_box(&game("move => none"), &[3]),
            Err(EngineError::Request(_))
        ));
        assert!(matches!(
            compute_box(&game(WYTHOFF), &[3]),
            Err(EngineError::Request(_))
        ));
    }

    #[test]
    fn sums_of_positions_xor_their_values() {
        // One-coordinate Nim written as a position game: G(h) = h; a move that splits into a
        // sum of two heaps of Nim has value (a ⊕ b) (Bouton 1901).
        let nim = "position (h)\nmove t in 1..=h => h - t\n";
        let table = compute_box(&game(nim), &[20]).unwrap();
        assert_eq!(table.values(), (0..=20).collect::<Vec<u32>>().as_slice());
        let split = "position (x, y)\nmove t in 1..=x => (x - t, y)\nmove t in 1..=y => (x, y - t)\nmove if x > 0 && y > 0 => (x - 1, 0) + (0, y - 1)\n";
        let values = compute_box(&game(split), &[12, 12]).unwrap();
        let naive =
            interp::position_values(&SourceFile::new("t.sg", split), &[], &[12, 12]).unwrap();
        assert_eq!(values.values(), naive.as_slice());
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;
    use crate::oracle::interp;
    use crate::rules::{load, SourceFile};

    #[test]
    fn weighted_forms_are_the_primitive_unequal_ones() {
        let two: Vec<Vec<u64>> = [[2, 1], [3, 1], [1, 2], [3, 2], [1, 3], [2, 3]]
            .iter()
            .map(|w| w.to_vec())
            .collect();
        assert_eq!(weighted_forms(2), two);
        let three = weighted_forms(3);
        // Of the 27 weights `0..=2`: not the 7 with at most one not zero, nor the 8 whose
        // weights not zero are all equal (`(1, 1, 0)`, `(2, 0, 2)`, `(2, 2, 2)`, …).
        assert_eq!(three.len(), 12, "{three:?}");
        assert!(three.contains(&vec![1, 2, 2]) && three.contains(&vec![2, 0, 1]));
        assert!(!three.contains(&vec![2, 2, 0]) && !three.contains(&vec![1, 1, 1]));
        assert!(weighted_forms(1).is_empty() && weighted_forms(4).is_empty());
    }

    /// The knight toward the corner (Winning Ways ch. 12): `x + y`, `2x + y` and `x + 2y` never
    /// grow (nor `2x + 3y`, `3x + 2y`, which they imply), so from the box `0..=n` it reaches
    /// `x, y <= 3n/2` only, the quadrilateral under `2x + y <= 3n` and `x + 2y <= 3n`.
    #[test]
    fn the_knights_region_is_cut_by_its_weighted_forms() {
        let text = "position (x, y)\nmove if x >= 2 => (x - 2, y + 1)\nmove if x >= 2 && y >= 1 => (x - 2, y - 1)\nmove if y >= 2 => (x + 1, y - 2)\nmove if x >= 1 && y >= 2 => (x - 1, y - 2)\n";
        let knight = load(SourceFile::new("k.sg", text), &[]).unwrap();
        let game = &knight;
        let mut solver = Solver::new(game, &[200, 200]).unwrap();
        let (region, weights) = solver.reach().unwrap().expect("a region");
        assert_eq!(weights, [1, 1]);
        assert_eq!(region.extents, [300, 300]);
        let mut forms = region.forms.clone();
        forms.sort();
        let expected = [
            ([1, 1], 400),
            ([1, 2], 600),
            ([2, 1], 600),
            ([2, 3], 1000),
            ([3, 2], 1000),
        ];
        assert_eq!(forms, expected.map(|(w, bound)| (w.to_vec(), bound)));
        // The values through the region equal the interpreter's over the box.
        let naive =
            interp::position_values(&SourceFile::new("k.sg", text), &[], &[40, 40]).unwrap();
        assert_eq!(
            compute_box(game, &[40, 40]).unwrap().values(),
            naive.as_slice()
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The anti-diagonal waves of a region list exactly its positions of potential at most
        /// the last, each once, wave after wave: those of the box whose every form holds.
        #[test]
        fn diagonal_waves_list_the_regions_positions(
            e0 in 0..12u64,
            e1 in 0..12u64,
            forms in prop::collection::vec((0..4u64, 0..4u64, 0..40u64), 0..4),
            last in 0..30u128,
        ) {
            let layout = BoxShape::new(&[e0, e1]);
            let forms: Vec<(Vec<u64>, u64)> = forms
                .into_iter()
                .filter(|&(a, b, _)| a + b > 0)
                .map(|(a, b, bound)| (vec![a, b], bound))
                .collect();
            let region = Region { extents: vec![e0, e1], forms };
            let waves = Waves::new(&layout, &[1, 1], last, Some(&region));
            prop_assert!(waves.diagonals.is_some());
            let mut listed = Vec::new();
            let mut position = Vec::new();
            for wave in waves.iter() {
                for index in wave.indices().iter() {
                    layout.write_position(*index, &mut position);
                    listed.push((position[0] + position[1], position[0], position[1]));
                }
            }
            let mut expected = Vec::new();
            for x in 0..=e0 {
                for y in 0..=e1 {
                    let inside = region.forms.iter().all(|(w, bound)| w[0] * x + w[1] * y <= *bound);
                    if inside && u128::from(x + y) <= last {
                        expected.push((x + y, x, y));
                    }
                }
            }
            expected.sort();
            prop_assert_eq!(waves.len(), listed.len());
            prop_assert_eq!(listed, expected);
        }
    }

    /// A random two-coordinate rule whose moves lower the coordinate sum: lines, conditions on
    /// the binder, bit operations, sums of positions.
    fn rule() -> impl Strategy<Value = String> {
        prop_oneof![
            (0..3i64, 0..3i64).prop_filter("moves", |(a, b)| a + b > 0).prop_map(|(a, b)| {
                format!("move t in 1..=x + y if {a} * t <= x && {b} * t <= y => (x - {a} * t, y - {b} * t)")
            }),
            (1..3i64).prop_map(|a| format!("move t in 1..=x / {a} => (x - {a} * t, y)")),
            (0..4i64).prop_map(|c| format!("move t in 1..=y if popcount(t) <= {c} => (x, y - t)")),
            Just("move if x & 1 == 1 => (x ^ 1, y)".to_string()),
            Just("move t in 1..x => (t, y) + (x - t, 0)".to_string()),
            Just("move t in 0..y, u = y - 1 - t if t <= u => (x, t) + (0, u)".to_string()),
            (0..3i64).prop_map(|s| format!("move if y >> {s} > 0 => (x, (y >> {s}) - 1)")),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// The compiled rules through the engine (both orders, and the search over reachable
        /// positions) equal the naive interpreter.
        #[test]
        fn engine_equals_interpreter(rules in prop::collection::vec(rule(), 1..4), ex in 0..9u64, ey in 0..9u64) {
            let text = format!("position (x, y)\n{}\n", rules.join("\n"));
            let game = load(SourceFile::new("r.sg", &text), &[]).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let naive = interp::position_values(&SourceFile::new("r.sg", &text), &[], &[ex, ey]).map_err(|e| TestCaseError::fail(e.message))?;
            for order in [Order::Waves, Order::Search] {
                let table = compute_box_in_order(&game, &[ex, ey], order).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(table.values(), naive.as_slice(), "{:?}\n{}", order, text);
            }
            // The search over reachable positions (no box) too, row by row.
            let mut search = super::super::reachable::Reachable::new(&game, 1 << 16).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut by_search = Vec::new();
            for x in 0..=ex {
                for y in 0..=ey {
                    by_search.push(search.value(&[x, y]).map_err(|e| TestCaseError::fail(e.to_string()))?);
                }
            }
            prop_assert_eq!(by_search.as_slice(), naive.as_slice(), "reachable\n{}", text);
        }
    }
}
