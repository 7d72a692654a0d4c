//! Compiled move rules, for heap games and position games alike.
//!
//! Each checked expression ([`CExpr`]) is compiled once into a closure over a slot array
//! (slots `0..k` are the position's coordinates, slot `k + i` the move's binder `i`), so
//! enumerating moves does not re-walk the syntax tree or look up names.
//! [`Program::for_each_option`] enumerates the binders' ranges as nested loops, tests the
//! condition, evaluates the components and checks them: in a heap game each heap `h` must be
//! in `0..n` (a move to a heap `≥ n` could make the game loop), in a position game each
//! coordinate must be `≥ 0` (cycles are the engine's to detect).
//!
//! **Lines.** When a rule's last binder `t` occurs neither in the condition nor anywhere but
//! affinely (`+`, `-`, `*` by a constant) in a single-component result, the positions it
//! reaches for `t = lo..=hi` lie on a line `p(lo) + (t − lo)·d`. Such a rule is reported as one
//! [`Move::Line`], checked at both ends only: every sub-expression is affine in `t`, hence
//! monotone, so the ends bound every value in between (no overflow, no negative coordinate, no
//! heap out of range inside the line when there is none at its ends). The engine then reads
//! the line's values directly from its table, without a closure call per move.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

use super::ast::BinaryOp;
use super::checked::{
    apply, bit, shl, shr, CExpr, CExprKind, CheckedMove, CheckedValues, Fault, FaultKind, Place,
};
use super::sieve::{NumberCache, SetFn};
use super::{Diagnostic, Span};

/// The largest number of values a binder's range may take at one position.
pub const MAX_RANGE_LEN: i128 = 1 << 32;

type Eval = Arc<dyn Fn(&[i64]) -> Result<i64, Fault> + Send + Sync>;

/// Compiled move rules: clone it freely (the code is shared).
#[derive(Clone)]
pub struct Program {
    coordinates: Vec<String>,
    position_game: bool,
    moves: Vec<CompiledMove>,
    slots: usize,
    /// The sieve of the set binders, grown as they need it (shared by clones and threads).
    numbers: Arc<NumberCache>,
    /// The checked rules compiled here, for the machine-code kernel (`engine::jit`).
    checked: Arc<[CheckedMove]>,
}

#[derive(Clone)]
struct CompiledMove {
    label: Option<String>,
    binder_names: Vec<String>,
    span: Span,
    binders: Vec<CompiledBinder>,
    condition: Option<Eval>,
    /// `arity` coordinate expressions per component.
    result: Vec<(Eval, Span)>,
    /// `d(coordinate)/dt` for the last binder `t`, when the rule is a line (module docs).
    line: Option<Vec<i64>>,
    /// `e` when the condition is `c1 && … && t == e && …` for the last binder `t` (a range),
    /// with neither `e` nor the conjuncts before it using `t` ([`pin_of`]): only `t = e` can
    /// pass, so the range is not enumerated.
    pin: Option<Eval>,
}

#[derive(Clone)]
struct CompiledBinder {
    values: CompiledValues,
    span: Span,
}

#[derive(Clone)]
enum CompiledValues {
    Range {
        lo: Eval,
        hi: Eval,
        inclusive: bool,
        /// `j = e`: `lo` and `hi` are the same expression, evaluated once.
        single: bool,
    },
    /// A set function ([`super::sieve`]) and its arguments.
    Set(SetFn, Vec<Eval>),
}

/// One move (or a line of moves) found by [`Program::for_each_option`];
/// [`Move::for_each_concrete`] lists the moves of either.
#[derive(Clone, Copy, Debug)]
pub enum Move<'a> {
    /// The move leads to the sum of these components (`arity` coordinates each, flattened).
    Sum(&'a [u64]),
    /// `count ≥ 1` moves, each to one position: `first + t·step` for `t` in `0..count`.
    Line {
        /// The position for the first binder value.
        first: &'a [u64],
        /// The change per binder value.
        step: &'a [i64],
        /// How many moves.
        count: u64,
    },
}

impl Move<'_> {
    /// How many concrete moves this stands for (1 for a [`Move::Sum`]).
    pub fn count(&self) -> u64 {
        match self {
            Move::Sum(_) => 1,
            Move::Line { count, .. } => *count,
        }
    }

    /// Lists the concrete moves this stands for, in order, as
    /// `visit(binder values, components)`: a [`Move::Sum`] is one move (`binders` as given);
    /// the `t`-th move of a [`Move::Line`] (`t` in `0..count`) has the last binder increased
    /// by `t` and leads to the one component `first + t·step`. `binders` are those reported
    /// with the move by [`Program::for_each_option`]. Stops early if `visit` breaks.
    #[inline]
    pub fn for_each_concrete(
        &self,
        binders: &[i64],
        mut visit: impl FnMut(&[i64], &[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (first, step, count) = match *self {
            Move::Sum(components) => return visit(binders, components),
            Move::Line { first, step, count } => (first, step, count),
        };
        // Small rules (the usual case) are expanded on the stack, without allocating.
        let (mut binder_array, mut point_array) = ([0i64; 8], [0u64; 4]);
        let (mut binder_vec, mut point_vec) = (Vec::new(), Vec::new());
        let line_binders = stack_or_heap(&mut binder_array, &mut binder_vec, binders.len());
        let point = stack_or_heap(&mut point_array, &mut point_vec, first.len());
        line_binders.copy_from_slice(binders);
        point.copy_from_slice(first);
        for t in 0..count {
            if t > 0 {
                // The line's binder is the last one; each move is one step further along it.
                *line_binders.last_mut().expect("a line has a binder") += 1;
                for (c, &d) in point.iter_mut().zip(step) {
                    *c = c.wrapping_add_signed(d);
                }
            }
            visit(line_binders, point)?;
        }
        ControlFlow::Continue(())
    }
}

/// The first `len` elements of `array`, or of `vec` grown to `len` if `array` is too short.
fn stack_or_heap<'a, T: Copy + Default, const N: usize>(
    array: &'a mut [T; N],
    vec: &'a mut Vec<T>,
    len: usize,
) -> &'a mut [T] {
    if len <= N {
        &mut array[..len]
    } else {
        vec.resize(len, T::default());
        vec
    }
}

/// What [`Program::for_each_option`] calls: `(rule, binder values, move)`.
pub type MoveVisitor<'v> = dyn FnMut(usize, &[i64], Move<'_>) -> ControlFlow<()> + 'v;

/// Reusable working memory for [`Program::for_each_option`] (one per thread).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    slots: Vec<i64>,
    components: Vec<u64>,
    line_end: Vec<u64>,
    /// The rule that was running when the budget ran out ([`Stop::OutOfBudget`]).
    out_of_budget_in: Option<usize>,
}

impl Scratch {
    /// The rule that was running when an enumeration last stopped with
    /// [`Stop::OutOfBudget`] (the engine's running meter names it in its error).
    pub fn out_of_budget_in(&self) -> Option<usize> {
        self.out_of_budget_in
    }
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("coordinates", &self.coordinates)
            .field("position_game", &self.position_game)
            .field("moves", &self.moves.len())
            .field(
                "binders",
                &self
                    .moves
                    .iter()
                    .map(|m| m.binders.len())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Program {
    /// Compiles checked move rules over the named coordinates (`[n]` for a heap game).
    pub fn new(moves: &[CheckedMove], coordinates: &[String], position_game: bool) -> Self {
        let arity = coordinates.len();
        let compiled = moves
            .iter()
            .map(|m| CompiledMove {
                label: m.label.clone(),
                binder_names: m.binders.iter().map(|b| b.name.clone()).collect(),
                span: m.span,
                binders: m
                    .binders
                    .iter()
                    .map(|b| CompiledBinder {
                        values: match &b.values {
                            CheckedValues::Range { lo, hi, inclusive } => CompiledValues::Range {
                                lo: compile(lo),
                                hi: compile(hi),
                                inclusive: *inclusive,
                                // The parser stores `j = e` as `e..=e`, both ends with e's span.
                                single: *inclusive && lo.span == hi.span && lo.span == b.span,
                            },
                            CheckedValues::Set(set, args) => {
                                CompiledValues::Set(*set, args.iter().map(compile).collect())
                            }
                        },
                        span: b.span,
                    })
                    .collect(),
                condition: m.condition.as_ref().map(compile),
                result: m.result.iter().map(|e| (compile(e), e.span)).collect(),
                line: line_steps(m, arity),
                pin: pin_of(m, arity).map(compile),
            })
            .collect();
        let slots = arity + moves.iter().map(|m| m.binders.len()).max().unwrap_or(0);
        Program {
            coordinates: coordinates.to_vec(),
            position_game,
            moves: compiled,
            slots,
            numbers: Arc::new(NumberCache::new()),
            checked: moves.into(),
        }
    }

    /// The same rules over the position's coordinates in another order: coordinate `j` of
    /// the new program's positions is coordinate `order[j]` of this one's
    /// ([`CheckedMove::reordered`]), e.g. so that a table stores its longest lines contiguously.
    pub fn reordered(&self, order: &[usize]) -> Program {
        let moves: Vec<CheckedMove> = self.checked.iter().map(|m| m.reordered(order)).collect();
        let coordinates: Vec<String> = order.iter().map(|&i| self.coordinates[i].clone()).collect();
        Program::new(&moves, &coordinates, self.position_game)
    }

    /// The checked rules this program runs (what `engine::jit` compiles to machine code).
    pub fn checked_moves(&self) -> &[CheckedMove] {
        &self.checked
    }

    /// The sieve the set binders list their values from.
    pub fn numbers(&self) -> &Arc<NumberCache> {
        &self.numbers
    }

    /// Number of `move` rules.
    pub fn rule_count(&self) -> usize {
        self.moves.len()
    }

    /// The coordinates' names (`[n]` for a heap game).
    pub fn coordinates(&self) -> &[String] {
        &self.coordinates
    }

    /// True for a `position (…)` game.
    pub fn is_position_game(&self) -> bool {
        self.position_game
    }

    /// The names of rule `rule`'s binders, in order.
    pub fn binder_names(&self, rule: usize) -> &[String] {
        &self.moves[rule].binder_names
    }

    /// How rule `rule` is called in messages: "`take`" for a labelled rule, else "the rule at
    /// line L" (the line is found in `source`).
    pub fn rule_name(&self, rule: usize, source: &super::SourceFile) -> String {
        let m = &self.moves[rule];
        match &m.label {
            Some(label) => format!("`{label}`"),
            None => {
                let line = source.text[..m.span.start.min(source.text.len())]
                    .matches('\n')
                    .count()
                    + 1;
                format!("the rule at line {line}")
            }
        }
    }

    /// The span of rule `rule`'s `move` statement, for messages that point at it.
    pub fn rule_span(&self, rule: usize) -> Span {
        self.moves[rule].span
    }

    /// An estimate of the steps (binder values and moves, counted as by the budget of
    /// [`Program::for_each_option`]) that enumerating the moves of `position` takes, from the
    /// rules' ranges alone, without enumerating them: Knuth's estimator of the size of a
    /// backtrack tree (Knuth 1975, "Estimating the efficiency of backtrack programs"). Each
    /// rule's nested binder loops are a tree; `probes` random paths down it, each multiplying
    /// the lengths of the ranges it meets, average to an unbiased estimate of its nodes. It
    /// sees a range of `2^t` values inside a loop over `t` as well as a single huge range, in
    /// a few range evaluations per probe. A path stops where an expression faults (the engine
    /// reports that at run time). `seed` makes it reproducible.
    pub fn estimate_steps(&self, position: &[u64], probes: u32, seed: &mut u64) -> f64 {
        let arity = self.coordinates.len();
        let mut slots = vec![0i64; self.slots];
        for (slot, &c) in slots.iter_mut().zip(position) {
            match i64::try_from(c) {
                Ok(c) => *slot = c,
                Err(_) => return 1.0,
            }
        }
        let probes = probes.max(1);
        let mut total = 0.0;
        for m in &self.moves {
            if m.binders.is_empty() {
                total += 1.0;
                continue;
            }
            let mut nodes = 0.0;
            for _ in 0..probes {
                nodes += m.probe(&mut slots, arity, seed);
            }
            total += nodes / f64::from(probes);
        }
        total
    }

    /// Calls `visit` with the heaps of every move from heap `n` of a heap game (heaps of size
    /// 0 included as 0; `none` gives an empty slice). A move found by several rules, or by
    /// several binder values, is visited each time.
    ///
    /// Errors: arithmetic overflow, division by zero, a range of more than 2^32 values, a heap
    /// outside `0..n`, or a position game, each located at the expression and naming `n`.
    pub fn for_each_move(&self, n: u64, visit: &mut dyn FnMut(&[u64])) -> Result<(), Diagnostic> {
        let mut unlimited = u64::MAX;
        match self.for_each_move_within(n, &mut unlimited, visit) {
            Ok(()) | Err(Stop::OutOfBudget) | Err(Stop::Break) => Ok(()),
            Err(Stop::Error(d)) => Err(d),
        }
    }

    /// Like [`Program::for_each_move`], but gives up with [`Stop::OutOfBudget`] once `budget`
    /// loop iterations have been spent (each binder value and each move counts one), so that a
    /// caller exploring the rules (lowering) cannot be made to run for hours.
    pub fn for_each_move_within(
        &self,
        n: u64,
        budget: &mut u64,
        visit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), Stop> {
        self.for_each_move_in(n, &mut Scratch::default(), budget, visit)
    }

    /// [`Program::for_each_move_within`] with the caller's working memory, which also tells
    /// which rule was running when the budget ran out ([`Scratch::out_of_budget_in`]).
    pub fn for_each_move_in(
        &self,
        n: u64,
        scratch: &mut Scratch,
        budget: &mut u64,
        visit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), Stop> {
        if self.position_game {
            return Err(Stop::Error(
                Diagnostic::new(
                    format!(
                        "positions of this game are ({}), not heaps",
                        self.coordinates.join(", ")
                    ),
                    Span::new(0, 0),
                )
                .with_help("use `table`, `plot`, `code` or `solve`, which compute position games"),
            ));
        }
        self.for_each_option(&[n], scratch, budget, &mut |_, binders, m| {
            m.for_each_concrete(binders, |_, heaps| {
                visit(heaps);
                ControlFlow::Continue(())
            })
        })
    }

    /// Calls `visit(rule, binders, move)` for every move from `position` (one value per
    /// coordinate), in rule order, with the rule's binder values (for a [`Move::Line`], those
    /// of its first move); `visit` may stop the enumeration ([`Stop::Break`]). Lines of moves
    /// are reported as one [`Move::Line`] (module docs). `budget` is spent as by
    /// [`Program::for_each_move_within`] (a line counts one per move).
    pub fn for_each_option(
        &self,
        position: &[u64],
        scratch: &mut Scratch,
        budget: &mut u64,
        visit: &mut MoveVisitor<'_>,
    ) -> Result<(), Stop> {
        self.run_rules(
            0..self.moves.len(),
            position,
            scratch,
            budget,
            visit,
            Order::Full,
        )
    }

    /// [`Program::for_each_option`] for rule `rule` alone: its moves in increasing order of
    /// their binder tuples (nested loops over ranges and sets, each in increasing order), so
    /// that a caller looking for the smallest move with some property may stop at the first.
    pub fn for_each_option_of_rule(
        &self,
        rule: usize,
        position: &[u64],
        scratch: &mut Scratch,
        budget: &mut u64,
        visit: &mut MoveVisitor<'_>,
    ) -> Result<(), Stop> {
        self.run_rules(
            rule..rule + 1,
            position,
            scratch,
            budget,
            visit,
            Order::Full,
        )
    }

    /// The moves at both ends of each rule of a position too large to enumerate in full
    /// (`solve` beyond a box): each rule in turn runs with its binders' values in increasing
    /// order until `cap` steps (binder values and moves, counted as by the budget of
    /// [`Program::for_each_option`]); a rule cut short then runs again with every binder's
    /// values in decreasing order, for at most `cap` more steps, until it meets a move the first
    /// run visited (binder tuples compared lexicographically, the order of the first run), so
    /// that no move is visited twice and moves like "take the whole heap" at the top of a huge
    /// range are seen. Lines are visited one move at a time as [`Move::Sum`], and a binder's
    /// range may have more than [`MAX_RANGE_LEN`] values (the cap bounds the work). Returns the
    /// rules the cap cut short (those whose middle moves were not all visited), each with the
    /// binder tuples that bound the moves it did not visit ([`CutRule`]).
    pub fn for_each_option_capped(
        &self,
        position: &[u64],
        cap: u64,
        visit: &mut MoveVisitor<'_>,
    ) -> Result<Vec<CutRule>, Stop> {
        let mut scratch = Scratch::default();
        let mut cut = Vec::new();
        for rule in 0..self.moves.len() {
            let mut last: Option<Vec<i64>> = None;
            let ascending = self.run_rules(
                rule..rule + 1,
                position,
                &mut scratch,
                &mut cap.clone(),
                &mut |r, binders, m| {
                    last = Some(binders.to_vec());
                    visit(r, binders, m)
                },
                Order::Ascending,
            );
            match ascending {
                Ok(()) => continue,
                Err(Stop::OutOfBudget) => {}
                Err(stop) => return Err(stop),
            }
            let mut met = false;
            let mut first_down: Option<Vec<i64>> = None;
            let descending = self.run_rules(
                rule..rule + 1,
                position,
                &mut scratch,
                &mut cap.clone(),
                &mut |r, binders, m| {
                    if last.as_deref().is_some_and(|seen| binders <= seen) {
                        met = true;
                        return ControlFlow::Break(());
                    }
                    first_down = Some(binders.to_vec());
                    visit(r, binders, m)
                },
                Order::Descending,
            );
            match descending {
                Err(Stop::Break) if met => {}
                Ok(()) | Err(Stop::OutOfBudget) => {}
                Err(stop) => return Err(stop),
            }
            // Met means every move was visited by one of the two runs.
            if !met {
                cut.push(CutRule {
                    rule,
                    after: last,
                    before: first_down,
                });
            }
        }
        Ok(cut)
    }

    /// The moves from `position` whose first binder takes the value `first` (`solve` naming
    /// the move a formula predicts, beyond a box): each rule with at least one binder runs
    /// with its first binder fixed to `first` when its range or set holds it (a range only
    /// compared with its ends, however long), its other binders in increasing order, lines
    /// visited one move at a time as [`Move::Sum`]. Rules without binders are skipped. At most
    /// `cap` steps per rule (counted as by [`Program::for_each_option`]); returns the rules
    /// the cap cut short.
    pub fn for_each_option_with_first(
        &self,
        position: &[u64],
        first: i64,
        cap: u64,
        visit: &mut MoveVisitor<'_>,
    ) -> Result<Vec<usize>, Stop> {
        let mut scratch = Scratch::default();
        let mut cut = Vec::new();
        for rule in 0..self.moves.len() {
            if self.moves[rule].binders.is_empty() {
                continue;
            }
            match self.run_rules(
                rule..rule + 1,
                position,
                &mut scratch,
                &mut cap.clone(),
                visit,
                Order::Pinned(first),
            ) {
                Ok(()) => {}
                Err(Stop::OutOfBudget) => cut.push(rule),
                Err(stop) => return Err(stop),
            }
        }
        Ok(cut)
    }

    /// Runs the `rules` from `position`; `capped` as in [`Program::for_each_option_capped`].
    fn run_rules(
        &self,
        rules: std::ops::Range<usize>,
        position: &[u64],
        scratch: &mut Scratch,
        budget: &mut u64,
        visit: &mut MoveVisitor<'_>,
        order: Order,
    ) -> Result<(), Stop> {
        let place = Place {
            names: &self.coordinates,
            values: position,
        };
        scratch.slots.clear();
        scratch.slots.resize(self.slots, 0);
        for (slot, &c) in scratch.slots.iter_mut().zip(position) {
            *slot = i64::try_from(c).map_err(|_| {
                Stop::Error(Diagnostic::new(
                    format!("position {place} is too large"),
                    Span::new(0, 0),
                ))
            })?;
        }
        let mut env = Env {
            scratch,
            visit,
            at: place,
            budget,
            arity: self.coordinates.len(),
            heap: !self.position_game,
            rule: 0,
            capped: order != Order::Full,
            descending: order == Order::Descending,
            pinned: match order {
                Order::Pinned(first) => Some(first),
                _ => None,
            },
            numbers: &self.numbers,
        };
        for rule in rules {
            env.rule = rule;
            self.moves[rule].run(0, &mut env)?;
        }
        Ok(())
    }
}

/// Why an enumeration stopped early.
#[derive(Debug)]
pub enum Stop {
    /// A run-time error in the rules.
    Error(Diagnostic),
    /// The iteration budget ran out.
    OutOfBudget,
    /// The visitor asked to stop.
    Break,
}

impl From<Diagnostic> for Stop {
    fn from(d: Diagnostic) -> Self {
        Stop::Error(d)
    }
}

/// How [`Program::run_rules`] enumerates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Every move, lines as [`Move::Line`], ranges up to [`MAX_RANGE_LEN`].
    Full,
    /// Capped ([`Program::for_each_option_capped`]): values increasing.
    Ascending,
    /// Capped: values decreasing.
    Descending,
    /// Capped, the first binder fixed to this value
    /// ([`Program::for_each_option_with_first`]).
    Pinned(i64),
}

/// A rule [`Program::for_each_option_capped`] cut short. Its binder tuples are visited in
/// lexicographic order from both ends, so every move it did not visit has a binder tuple
/// strictly between `after` and `before`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutRule {
    /// The rule.
    pub rule: usize,
    /// The binder tuple of the last move visited from the bottom (`None`: no move there).
    pub after: Option<Vec<i64>>,
    /// The binder tuple of the last move visited from the top (`None`: no move there).
    pub before: Option<Vec<i64>>,
}

/// What a move enumeration carries along.
struct Env<'a, 'v> {
    scratch: &'a mut Scratch,
    visit: &'a mut MoveVisitor<'v>,
    at: Place<'a>,
    budget: &'a mut u64,
    arity: usize,
    /// Heap-game checks (`0 ≤ h < n`) instead of position-game ones (`≥ 0`).
    heap: bool,
    rule: usize,
    /// No lines and no range limit ([`Program::for_each_option_capped`]).
    capped: bool,
    /// Every binder's values in decreasing order (the second run of a capped rule).
    descending: bool,
    /// The first binder's only value ([`Order::Pinned`]).
    pinned: Option<i64>,
    /// The sieve of the set binders.
    numbers: &'a NumberCache,
}

impl Env<'_, '_> {
    #[inline]
    fn spend(&mut self, steps: u64) -> Result<(), Stop> {
        match self.budget.checked_sub(steps) {
            Some(left) => {
                *self.budget = left;
                Ok(())
            }
            None => {
                self.scratch.out_of_budget_in = Some(self.rule);
                Err(Stop::OutOfBudget)
            }
        }
    }

    fn fault(&self) -> impl Fn(Fault) -> Stop + '_ {
        let at = self.at;
        move |f: Fault| Stop::Error(f.diagnostic(Some(at)))
    }

    /// Checks coordinate `index` (of the flattened result) with value `value`.
    fn checked(
        &self,
        value: i64,
        index: usize,
        span: Span,
        label: Option<&str>,
    ) -> Result<u64, Diagnostic> {
        if self.heap {
            check_heap(value, span, self.at)
        } else {
            check_coordinate(value, index % self.arity, span, self.at, label)
        }
    }
}

impl CompiledMove {
    /// One random path down the rule's binder loops ([`Program::estimate_steps`]): the nodes
    /// of the loop tree it stands for, `1 + R0 + R0·R1 + …` for the range lengths `Ri` met.
    fn probe(&self, slots: &mut [i64], arity: usize, seed: &mut u64) -> f64 {
        let (mut weight, mut nodes) = (1.0f64, 1.0f64);
        for (depth, binder) in self.binders.iter().enumerate() {
            // xorshift64: any fixed sequence will do.
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            let (lo, hi, inclusive, single) = match &binder.values {
                CompiledValues::Range {
                    lo,
                    hi,
                    inclusive,
                    single,
                } => (lo, hi, *inclusive, *single),
                CompiledValues::Set(set, args) => {
                    // Estimated sizes (`ln x` divisors, `range / ln hi` primes, exact bits):
                    // listing the set here could cost as much as the run.
                    let mut values = [0i64; 2];
                    for (v, a) in values.iter_mut().zip(args) {
                        let Ok(x) = a(slots) else { return nodes };
                        *v = x;
                    }
                    let Some((len, pick)) = set.estimate(&values[..args.len()], *seed) else {
                        break;
                    };
                    weight *= len;
                    nodes += weight;
                    slots[arity + depth] = pick;
                    continue;
                }
            };
            let Ok(lo) = lo(slots) else { break };
            let hi = if single {
                lo
            } else {
                let Ok(hi) = hi(slots) else { break };
                hi
            };
            let hi = if inclusive {
                i128::from(hi)
            } else {
                i128::from(hi) - 1
            };
            let lo = i128::from(lo);
            if lo > hi {
                break;
            }
            let len = hi - lo + 1;
            weight *= len as f64;
            nodes += weight;
            let pick = lo + (u128::from(*seed) % len as u128) as i128;
            slots[arity + depth] = pick as i64;
        }
        nodes
    }

    fn run(&self, depth: usize, env: &mut Env) -> Result<(), Stop> {
        env.spend(1)?;
        let slot = env.arity + depth;
        if let Some(binder) = self.binders.get(depth) {
            let slots = &env.scratch.slots;
            let (lo, hi, inclusive, single) = match &binder.values {
                CompiledValues::Range {
                    lo,
                    hi,
                    inclusive,
                    single,
                } => (lo, hi, *inclusive, *single),
                CompiledValues::Set(set, args) => {
                    return self.run_set(depth, *set, args, binder.span, env)
                }
            };
            let lo = lo(slots).map_err(env.fault())?;
            let hi = if single {
                lo
            } else {
                hi(slots).map_err(env.fault())?
            };
            let max_len = if env.capped { i128::MAX } else { MAX_RANGE_LEN };
            let Some((lo, hi)) =
                range_bounds_up_to(lo, hi, inclusive, binder.span, env.at, max_len)?
            else {
                return Ok(());
            };
            if depth + 1 == self.binders.len() && !env.capped {
                if let Some(step) = &self.line {
                    if self.run_line(lo, hi, step, env)? {
                        return Ok(());
                    }
                }
            }
            if let (0, Some(first)) = (depth, env.pinned) {
                if (lo..=hi).contains(&first) {
                    env.scratch.slots[slot] = first;
                    self.run(depth + 1, env)?;
                }
                return Ok(());
            }
            if depth + 1 == self.binders.len() && self.run_pinned(lo, hi, env)? {
                return Ok(());
            }
            if env.descending {
                for value in (lo..=hi).rev() {
                    env.scratch.slots[slot] = value;
                    self.run(depth + 1, env)?;
                }
            } else {
                for value in lo..=hi {
                    env.scratch.slots[slot] = value;
                    self.run(depth + 1, env)?;
                }
            }
            return Ok(());
        }
        if let Some(condition) = &self.condition {
            if condition(&env.scratch.slots).map_err(env.fault())? == 0 {
                return Ok(());
            }
        }
        let mut components = std::mem::take(&mut env.scratch.components);
        components.clear();
        let result = self
            .result
            .iter()
            .enumerate()
            .try_for_each(|(i, (eval, span))| {
                let value = eval(&env.scratch.slots).map_err(env.fault())?;
                components.push(env.checked(value, i, *span, self.label.as_deref())?);
                Ok::<(), Stop>(())
            });
        let binders = &env.scratch.slots[env.arity..env.arity + self.binders.len()];
        let flow = result.map(|()| (env.visit)(env.rule, binders, Move::Sum(&components)));
        env.scratch.components = components;
        match flow? {
            ControlFlow::Continue(()) => Ok(()),
            ControlFlow::Break(()) => Err(Stop::Break),
        }
    }

    /// Binder `depth` over a set: its values, listed by the program's sieve
    /// ([`NumberCache::values`], the implementation the interpreter uses too), one by one.
    fn run_set(
        &self,
        depth: usize,
        set: SetFn,
        args: &[Eval],
        span: Span,
        env: &mut Env,
    ) -> Result<(), Stop> {
        let mut values = [0i64; 2];
        for (v, a) in values.iter_mut().zip(args) {
            *v = a(&env.scratch.slots).map_err(env.fault())?;
        }
        let numbers = env.numbers;
        let set_values = numbers
            .values(set, &values[..args.len()])
            .map_err(|kind| env.fault()(Fault { kind, span }))?;
        let slot = env.arity + depth;
        if let (0, Some(first)) = (depth, env.pinned) {
            // Listed in full (each value a step) only to find `first` among them.
            for value in set_values {
                env.spend(1)?;
                if value == first {
                    env.scratch.slots[slot] = first;
                    self.run(depth + 1, env)?;
                }
            }
            return Ok(());
        }
        let values: Box<dyn Iterator<Item = i64>> = if env.descending {
            Box::new(set_values.collect::<Vec<_>>().into_iter().rev())
        } else {
            Box::new(set_values)
        };
        for value in values {
            env.scratch.slots[slot] = value;
            self.run(depth + 1, env)?;
        }
        Ok(())
    }

    /// The last binder over `lo..=hi` (not empty) when the condition pins it to `t = e`
    /// ([`CompiledMove::pin`]): the one value `e` if it is in range. Every other value fails
    /// the condition at the conjunct `t == e` after the same conjuncts before it, which do not
    /// use `t`: so the condition is still evaluated once at `lo` when `e` is out of range, to
    /// report a fault of those conjuncts as the enumeration would. Returns false (nothing
    /// done) when `e` itself faults: the caller then enumerates, and reports the fault at the
    /// first value as before.
    fn run_pinned(&self, lo: i64, hi: i64, env: &mut Env) -> Result<bool, Stop> {
        let Some(pin) = &self.pin else {
            return Ok(false);
        };
        let Ok(value) = pin(&env.scratch.slots) else {
            return Ok(false);
        };
        let slot = env.arity + self.binders.len() - 1;
        if (lo..=hi).contains(&value) {
            env.scratch.slots[slot] = value;
            self.run(self.binders.len(), env)?;
        } else if let Some(condition) = &self.condition {
            env.spend(1)?;
            env.scratch.slots[slot] = lo;
            condition(&env.scratch.slots).map_err(env.fault())?;
        }
        Ok(true)
    }

    /// The last binder's values `lo..=hi` as one [`Move::Line`]. Returns false (nothing
    /// visited) when an end faults or fails its check: the caller then enumerates the values
    /// one by one, which reports the first failing one exactly as without lines.
    fn run_line(&self, lo: i64, hi: i64, step: &[i64], env: &mut Env) -> Result<bool, Stop> {
        let slot = env.arity + self.binders.len() - 1;
        env.scratch.slots[slot] = lo;
        if let Some(condition) = &self.condition {
            // The condition does not use the last binder: one test covers the line.
            if condition(&env.scratch.slots).map_err(env.fault())? == 0 {
                return Ok(true);
            }
        }
        let mut ends = [
            std::mem::take(&mut env.scratch.components),
            std::mem::take(&mut env.scratch.line_end),
        ];
        let mut ok = true;
        for (end, value) in ends.iter_mut().zip([lo, hi]) {
            env.scratch.slots[slot] = value;
            end.clear();
            for (i, (eval, span)) in self.result.iter().enumerate() {
                match eval(&env.scratch.slots)
                    .map(|v| env.checked(v, i, *span, self.label.as_deref()))
                {
                    Ok(Ok(c)) => end.push(c),
                    _ => ok = false,
                }
            }
        }
        let [first, end] = ends;
        let count = (hi - lo) as u64 + 1;
        let flow = if ok {
            env.scratch.slots[slot] = lo;
            env.spend(count).map(|()| {
                let binders = &env.scratch.slots[env.arity..=slot];
                (env.visit)(
                    env.rule,
                    binders,
                    Move::Line {
                        first: &first,
                        step,
                        count,
                    },
                )
            })
        } else {
            Ok(ControlFlow::Continue(()))
        };
        env.scratch.components = first;
        env.scratch.line_end = end;
        match flow? {
            ControlFlow::Continue(()) => Ok(ok),
            ControlFlow::Break(()) => Err(Stop::Break),
        }
    }
}

/// `e` when `m`'s last binder `t` is a range and its condition is a chain of `&&` whose
/// conjuncts, in evaluation order, are some not using `t`, then `t == e` or `e == t` with `e`
/// not using `t` ([`CompiledMove::pin`]).
pub(crate) fn pin_of(m: &CheckedMove, arity: usize) -> Option<&CExpr> {
    let last = arity + m.binders.len().checked_sub(1)?;
    if m.binders.last().is_some_and(|b| b.is_set()) {
        return None;
    }
    for conjunct in conjuncts(m.condition.as_ref()?) {
        if let CExprKind::Binary(BinaryOp::Eq, a, b) = &conjunct.kind {
            let is_t = |e: &CExpr| matches!(e.kind, CExprKind::Slot(s) if s == last);
            if is_t(a) && !b.uses_slot(last) {
                return Some(b);
            }
            if is_t(b) && !a.uses_slot(last) {
                return Some(a);
            }
        }
        if conjunct.uses_slot(last) {
            return None;
        }
    }
    None
}

/// The conjuncts of a chain of `&&`, in evaluation order.
pub(crate) fn conjuncts(condition: &CExpr) -> Vec<&CExpr> {
    fn flatten<'e>(e: &'e CExpr, out: &mut Vec<&'e CExpr>) {
        match &e.kind {
            CExprKind::Binary(BinaryOp::And, a, b) => {
                flatten(a, out);
                flatten(b, out);
            }
            _ => out.push(e),
        }
    }
    let mut out = Vec::new();
    flatten(condition, &mut out);
    out
}

/// The bounds a condition's conjuncts put on its slots by themselves: `(slot, lo, hi)` for
/// each conjunct that compares a slot with a constant (`x >= 2`, `3 > y`, `t == 4`), which
/// wherever the condition holds keeps the slot within `lo..=hi`.
pub(crate) fn slot_bounds(condition: &CExpr) -> Vec<(usize, i128, i128)> {
    let mut bounds = Vec::new();
    for conjunct in conjuncts(condition) {
        let CExprKind::Binary(op, a, b) = &conjunct.kind else {
            continue;
        };
        // `slot op k`, with `k op slot` turned around.
        let (slot, op, k) = match (&a.kind, &b.kind) {
            (CExprKind::Slot(s), CExprKind::Const(k)) => (*s, *op, *k),
            (CExprKind::Const(k), CExprKind::Slot(s)) => {
                let turned = match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Ge => BinaryOp::Le,
                    other => *other,
                };
                (*s, turned, *k)
            }
            _ => continue,
        };
        let k = i128::from(k);
        let (lo, hi) = (i128::from(i64::MIN), i128::from(i64::MAX));
        bounds.push(match op {
            BinaryOp::Lt => (slot, lo, k - 1),
            BinaryOp::Le => (slot, lo, k),
            BinaryOp::Gt => (slot, k + 1, hi),
            BinaryOp::Ge => (slot, k, hi),
            BinaryOp::Eq => (slot, k, k),
            _ => continue,
        });
    }
    bounds
}

/// A test of one bit in a rule's condition: the conjunct `bit(word, t) == c` or `!= c` (`c`
/// 0 or 1, either side), maybe negated by `!`, on the rule's last binder `t`
/// ([`bit_test_of`]).
pub(crate) struct BitTest<'m> {
    /// The conjuncts evaluated before the test.
    pub before: Vec<&'m CExpr>,
    /// The word tested, which does not use `t`.
    pub word: &'m CExpr,
    /// The condition can hold only where bit `t` of `word` is this.
    pub set: bool,
}

/// The first conjunct of `m`'s condition that tests bit `t` of a word not using `t`, for its
/// last binder `t` (a range): the condition fails at every `t` whose bit is not
/// [`BitTest::set`], so a loop over `t` may visit only the others (the one bits of `word` or
/// of `!word` in the range) when the conjuncts before the test cannot fault — the interpreter
/// finds nothing at the values skipped, and reports nothing there either. A natural bitmask
/// rule (`i in 0..width if bit(m, i) == 1 && …`) then costs one iteration per piece, not one
/// per cell.
pub(crate) fn bit_test_of(m: &CheckedMove, arity: usize) -> Option<BitTest<'_>> {
    let last = arity + m.binders.len().checked_sub(1)?;
    if m.binders.last().is_some_and(|b| b.is_set()) {
        return None;
    }
    let all = conjuncts(m.condition.as_ref()?);
    for (k, conjunct) in all.iter().enumerate() {
        if let Some((word, set)) = bit_test_of_conjunct(conjunct, last) {
            return Some(BitTest {
                before: all[..k].to_vec(),
                word,
                set,
            });
        }
    }
    None
}

/// The first conjunct of `m`'s condition that, false at a value of its last binder `t` (a
/// range from `lo`), stays false at every larger one: `popcount(w & ((1 << t) - (1 << c))) ==
/// t - c` with `w` and `c` not using `t` and `lo` equal to `c`. It says that the bits `c..t`
/// of `w` are all ones (the popcount of `t - c` bits is `t - c` only when all are), which
/// fails for good at the first zero bit: the cells between a piece and the empty cell it
/// jumps to (P2575's `e in i + 1..width if … popcount(m & ((1 << e) - (1 << (i + 1)))) == e
/// - i - 1`), so a loop over `t` in increasing order may stop there.
pub(crate) fn closing_conjunct(m: &CheckedMove, arity: usize) -> Option<&CExpr> {
    let t = arity + m.binders.len().checked_sub(1)?;
    let CheckedValues::Range { lo, .. } = &m.binders.last()?.values else {
        return None;
    };
    let all = conjuncts(m.condition.as_ref()?);
    all.into_iter().find(|conjunct| {
        let CExprKind::Binary(BinaryOp::Eq, a, b) = &conjunct.kind else {
            return false;
        };
        [(a, b), (b, a)].into_iter().any(|(count, length)| {
            let Some(c) = ones_below_slot(count, t) else {
                return false;
            };
            // `length = t - c` and `lo = c`, as affine forms.
            let minus_c = Affine::of(c).and_then(|c| c.scaled(-1));
            let want = minus_c.and_then(|minus_c| minus_c.plus(&Affine::slot(t)));
            want.is_some_and(|want| Affine::of(length) == Some(want))
                && Affine::of(lo) == Affine::of(c)
        })
    })
}

/// How an expression moves as one slot grows, the others fixed ([`pruning_conjunct`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    /// It does not use the slot.
    Still,
    /// Never down (a condition: once true, true).
    Up,
    /// Never up (a condition: once false, false).
    Down,
}

impl Direction {
    fn flip(self) -> Direction {
        match self {
            Direction::Still => Direction::Still,
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
        }
    }

    /// The direction of a sum of two terms moving so, if one.
    fn with(self, other: Direction) -> Option<Direction> {
        match (self, other) {
            (Direction::Still, d) | (d, Direction::Still) => Some(d),
            (a, b) if a == b => Some(a),
            _ => None,
        }
    }

    /// Of `e` in slot `t`: slots, constants, `+ - *` by a constant, comparisons `< <= > >=`,
    /// `count`, `&&`, `||`, `!`, `min`, `max` (each monotone in its arguments); `None` for
    /// anything else.
    fn of(e: &CExpr, t: usize) -> Option<Direction> {
        if !e.uses_slot(t) {
            return Some(Direction::Still);
        }
        let all = |es: &[CExpr]| {
            es.iter()
                .try_fold(Direction::Still, |d, e| d.with(Direction::of(e, t)?))
        };
        match &e.kind {
            CExprKind::Slot(_) => Some(Direction::Up),
            CExprKind::Neg(x) | CExprKind::Not(x) => Some(Direction::of(x, t)?.flip()),
            CExprKind::Binary(op, a, b) => {
                let (a_dir, b_dir) = (Direction::of(a, t), Direction::of(b, t));
                match op {
                    BinaryOp::Add | BinaryOp::And | BinaryOp::Or => a_dir?.with(b_dir?),
                    BinaryOp::Sub | BinaryOp::Gt | BinaryOp::Ge => a_dir?.with(b_dir?.flip()),
                    BinaryOp::Lt | BinaryOp::Le => Some(a_dir?.with(b_dir?.flip())?.flip()),
                    BinaryOp::Mul => match (a.as_const(), b.as_const()) {
                        (Some(k), _) => Some(if k < 0 { b_dir?.flip() } else { b_dir? }),
                        (_, Some(k)) => Some(if k < 0 { a_dir?.flip() } else { a_dir? }),
                        _ => None,
                    },
                    _ => None,
                }
            }
            CExprKind::Count(es) | CExprKind::Min(es) | CExprKind::Max(es) => all(es),
            _ => None,
        }
    }
}

/// A conjunct of `m`'s condition that, false at a value of the binder before its last (`u`)
/// with the last binder at the start of its range, is false there at every value of the last
/// binder and at every larger value of `u`: never up in `u` nor in the last binder
/// ([`Direction`]), and using no other binder of the two. Moore's Nim_k's `count(ta > 0, tb >
/// 0, tc > 0, td > 0) <= k`: once `ta`, `tb` and `tc` are all positive (with `k = 2`) no
/// `td` and no larger `tc` moves, so the loop over `tc` may stop there.
pub(crate) fn pruning_conjunct(m: &CheckedMove, arity: usize) -> Option<&CExpr> {
    let n = m.binders.len();
    if n < 2 || m.binders[n - 1].is_set() {
        return None;
    }
    let (u, t) = (arity + n - 2, arity + n - 1);
    conjuncts(m.condition.as_ref()?).into_iter().find(|c| {
        Direction::of(c, u) == Some(Direction::Down)
            && matches!(
                Direction::of(c, t),
                Some(Direction::Down | Direction::Still)
            )
    })
}

/// `c` of `popcount(w & ((1 << t) - (1 << c)))` (either order of `&`), `w` and `c` not using
/// slot `t`.
fn ones_below_slot(e: &CExpr, t: usize) -> Option<&CExpr> {
    let CExprKind::Popcount(inner) = &e.kind else {
        return None;
    };
    let CExprKind::Binary(BinaryOp::BitAnd, a, b) = &inner.kind else {
        return None;
    };
    let range = |x: &'_ CExpr| -> bool {
        matches!(&x.kind, CExprKind::Binary(BinaryOp::Sub, high, _)
            if is_one_shifted_by(high).is_some_and(|by| matches!(by.kind, CExprKind::Slot(s) if s == t)))
    };
    let (word, bits) = match (range(a), range(b)) {
        (true, _) => (b, a),
        (_, true) => (a, b),
        _ => return None,
    };
    let CExprKind::Binary(BinaryOp::Sub, _, low) = &bits.kind else {
        return None;
    };
    let c = is_one_shifted_by(low)?;
    (!word.uses_slot(t) && !c.uses_slot(t)).then_some(c)
}

/// `by` of `1 << by`.
fn is_one_shifted_by(e: &CExpr) -> Option<&CExpr> {
    match &e.kind {
        CExprKind::Binary(BinaryOp::Shl, one, by) if one.as_const() == Some(1) => Some(by),
        _ => None,
    }
}

/// An affine form `Σ k_s·slot_s + constant` of an expression of slots, constants, `+`, `-` and
/// products by a constant (`None` for anything else, or past `i64`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Affine {
    /// `(slot, coefficient)`, by slot, no zero coefficient.
    terms: Vec<(usize, i64)>,
    constant: i64,
}

impl Affine {
    fn slot(s: usize) -> Affine {
        Affine {
            terms: vec![(s, 1)],
            constant: 0,
        }
    }

    fn of(e: &CExpr) -> Option<Affine> {
        match &e.kind {
            CExprKind::Const(c) => Some(Affine {
                terms: Vec::new(),
                constant: *c,
            }),
            CExprKind::Slot(s) => Some(Affine::slot(*s)),
            CExprKind::Neg(x) => Some(Affine::of(x)?.scaled(-1)?),
            CExprKind::Binary(BinaryOp::Add, a, b) => Affine::of(a)?.plus(&Affine::of(b)?),
            CExprKind::Binary(BinaryOp::Sub, a, b) => {
                Affine::of(a)?.plus(&Affine::of(b)?.scaled(-1)?)
            }
            CExprKind::Binary(BinaryOp::Mul, a, b) => match (a.as_const(), b.as_const()) {
                (Some(k), _) => Affine::of(b)?.scaled(k),
                (_, Some(k)) => Affine::of(a)?.scaled(k),
                _ => None,
            },
            _ => None,
        }
    }

    fn scaled(&self, k: i64) -> Option<Affine> {
        let terms = (self.terms.iter())
            .map(|&(s, c)| Some((s, c.checked_mul(k)?)))
            .filter(|term| term.is_none_or(|(_, c)| c != 0))
            .collect::<Option<_>>()?;
        Some(Affine {
            terms,
            constant: self.constant.checked_mul(k)?,
        })
    }

    fn plus(&self, other: &Affine) -> Option<Affine> {
        let mut terms = self.terms.clone();
        for &(s, c) in &other.terms {
            match terms.iter_mut().find(|(t, _)| *t == s) {
                Some((_, k)) => *k = k.checked_add(c)?,
                None => terms.push((s, c)),
            }
        }
        terms.retain(|&(_, c)| c != 0);
        terms.sort_unstable();
        Some(Affine {
            terms,
            constant: self.constant.checked_add(other.constant)?,
        })
    }
}

/// `word` of `bit(word, t)` when `word` does not use `t`.
fn word_of(e: &CExpr, t: usize) -> Option<&CExpr> {
    match &e.kind {
        CExprKind::Bit(word, index)
            if matches!(index.kind, CExprKind::Slot(s) if s == t) && !word.uses_slot(t) =>
        {
            Some(word)
        }
        _ => None,
    }
}
/// `(word, set)` when the conjunct `c` holds exactly where bit `t` (a slot) of `word` is
/// `set`, `word` not using `t` ([`bit_test_of`]).
pub(crate) fn bit_test_of_conjunct(c: &CExpr, t: usize) -> Option<(&CExpr, bool)> {
    match &c.kind {
        CExprKind::Not(inner) => bit_test_of_conjunct(inner, t).map(|(word, set)| (word, !set)),
        CExprKind::Binary(op @ (BinaryOp::Eq | BinaryOp::Ne), a, b) => {
            let (word, other) = match (word_of(a, t), word_of(b, t)) {
                (Some(word), _) => (word, b),
                (None, Some(word)) => (word, a),
                _ => return None,
            };
            match other.as_const()? {
                c @ (0 | 1) => Some((word, (c == 1) == (*op == BinaryOp::Eq))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `d(coordinate)/dt` for each result coordinate, when `m` is a line in its last binder `t`
/// (module docs).
pub(crate) fn line_steps(m: &CheckedMove, arity: usize) -> Option<Vec<i64>> {
    let last = arity + m.binders.len().checked_sub(1)?;
    // A set's values are not consecutive: no line.
    if m.result.len() != arity
        || m.binders.last().is_some_and(|b| b.is_set())
        || m.condition.as_ref().is_some_and(|c| c.uses_slot(last))
    {
        return None;
    }
    m.result.iter().map(|e| slope(e, last)).collect()
}

/// `d(coordinate)/dt` for each coordinate of each component of the result, when `m` moves
/// to a sum of two or more positions each a line in its last binder `t` (chocolate's
/// `i in 1..a => (i, b) + (a - i, b)`), with a condition that does not use `t`.
pub(crate) fn sum_line_steps(m: &CheckedMove, arity: usize) -> Option<Vec<i64>> {
    let last = arity + m.binders.len().checked_sub(1)?;
    if m.result.len() < 2 * arity
        || m.binders.last().is_some_and(|b| b.is_set())
        || m.condition.as_ref().is_some_and(|c| c.uses_slot(last))
    {
        return None;
    }
    m.result.iter().map(|e| slope(e, last)).collect()
}

/// A rule whose result is a line in its last binder `t` on each of two pieces of the binder's
/// range: one `min(A, B)` or `max(A, B)` of two expressions affine in `t` (Fibonacci Nim's
/// `min(2 * t, n - t)`), the rest affine, a condition that does not use `t`. On the piece
/// where `A` is chosen the result is `with_first`, elsewhere `with_second`, both lines.
#[derive(Clone, Debug)]
pub(crate) struct PiecewiseLine {
    /// `A` and `B`.
    pub first: CExpr,
    pub second: CExpr,
    /// `max(A, B)` (`A` where `A >= B`) rather than `min(A, B)` (`A` where `A <= B`).
    pub is_max: bool,
    /// `d(A - B)/dt`.
    pub slope_difference: i64,
    /// The result with `A` for the choice, and the slopes of its coordinates.
    pub with_first: (Vec<CExpr>, Vec<i64>),
    /// The result with `B` for the choice, and the slopes of its coordinates.
    pub with_second: (Vec<CExpr>, Vec<i64>),
}

/// The [`PiecewiseLine`] of `m`, if it is one (one component, a range for its last binder).
pub(crate) fn piecewise_line(m: &CheckedMove, arity: usize) -> Option<PiecewiseLine> {
    let last = arity + m.binders.len().checked_sub(1)?;
    if m.result.len() != arity
        || m.binders.last().is_some_and(|b| b.is_set())
        || m.condition.as_ref().is_some_and(|c| c.uses_slot(last))
    {
        return None;
    }
    let choices: usize = m.result.iter().map(|e| choices(e, last)).sum();
    if choices != 1 {
        return None;
    }
    let (first, second, is_max) = m.result.iter().find_map(|e| choice(e, last))?;
    let slope_difference = slope(&first, last)?.checked_sub(slope(&second, last)?)?;
    let with = |pick: usize| -> Option<(Vec<CExpr>, Vec<i64>)> {
        let result = m
            .result
            .iter()
            .map(|e| chosen(e, last, pick))
            .collect::<Option<Vec<_>>>()?;
        let slopes = result
            .iter()
            .map(|e| slope(e, last))
            .collect::<Option<_>>()?;
        Some((result, slopes))
    };
    Some(PiecewiseLine {
        with_first: with(0)?,
        with_second: with(1)?,
        first,
        second,
        is_max,
        slope_difference,
    })
}

/// A rule that is a line in its last binder `t` but for its condition, which uses `t` only
/// inside comparisons `A op B` of two expressions affine in `t` (Nim_k's
/// `count(ta > 0, tb > 0, tc > 0, td > 0) <= k`). Each comparison is decided by the signs of
/// one or two [`Threshold`]s, affine in `t` too, so it changes at most twice along the range;
/// between those changes every comparison, and so the whole condition, is constant, and the
/// options form a line read along the table.
#[derive(Clone, Debug)]
pub(crate) struct GuardedLine {
    /// `d(coordinate)/dt` for each result coordinate.
    pub step: Vec<i64>,
    /// The thresholds of the comparisons that use `t` with a slope (the others are
    /// constant).
    pub thresholds: Vec<Threshold>,
}

/// Whether `left - right + offset <= 0`: `A <= B` and its negation `A > B` are the threshold
/// of offset 0; `A < B` and `A >= B` of offset 1; `A == B` and `A != B` both. Along `t` the
/// difference has the constant slope `slope` (not 0), so the answer changes at most once.
#[derive(Clone, Debug)]
pub(crate) struct Threshold {
    pub left: CExpr,
    pub right: CExpr,
    pub offset: i64,
    pub slope: i64,
}

/// The [`GuardedLine`] of `m`, if it is one (one component, a range for its last binder, a
/// condition that uses it).
pub(crate) fn guarded_line(m: &CheckedMove, arity: usize) -> Option<GuardedLine> {
    let last = arity + m.binders.len().checked_sub(1)?;
    if m.result.len() != arity || m.binders.last().is_some_and(|b| b.is_set()) {
        return None;
    }
    let condition = m.condition.as_ref().filter(|c| c.uses_slot(last))?;
    let step = m
        .result
        .iter()
        .map(|e| slope(e, last))
        .collect::<Option<Vec<_>>>()?;
    let mut thresholds = Vec::new();
    thresholds_of(condition, last, &mut thresholds).then_some(GuardedLine { step, thresholds })
}

/// Collects the [`Threshold`]s of the comparisons of `e` that use slot `t`; false when `e`
/// uses `t` outside such a comparison of affine expressions.
fn thresholds_of(e: &CExpr, t: usize, out: &mut Vec<Threshold>) -> bool {
    use BinaryOp::{Eq, Ge, Gt, Le, Lt, Ne};
    if !e.uses_slot(t) {
        return true;
    }
    let affine = |a: &CExpr, b: &CExpr| slope(a, t)?.checked_sub(slope(b, t)?);
    match &e.kind {
        // A comparison of non-affine sides (`count(…) >= 1`) is decided by its sides' parts.
        CExprKind::Binary(op @ (Eq | Ne | Lt | Le | Gt | Ge), a, b) if affine(a, b).is_some() => {
            let slope = affine(a, b).unwrap_or_default();
            let offsets: &[i64] = match op {
                Le | Gt => &[0],
                Lt | Ge => &[1],
                _ => &[0, 1],
            };
            if slope != 0 {
                out.extend(offsets.iter().map(|&offset| Threshold {
                    left: (**a).clone(),
                    right: (**b).clone(),
                    offset,
                    slope,
                }));
            }
            true
        }
        CExprKind::Slot(_) => false,
        _ => e.children().into_iter().all(|c| thresholds_of(c, t, out)),
    }
}

/// The number of two-argument `min`/`max` nodes of `e` that use slot `t`.
fn choices(e: &CExpr, t: usize) -> usize {
    let own = match &e.kind {
        CExprKind::Min(args) | CExprKind::Max(args) => {
            usize::from(args.len() == 2 && e.uses_slot(t))
        }
        _ => 0,
    };
    own + e
        .children()
        .into_iter()
        .map(|c| choices(c, t))
        .sum::<usize>()
}

/// The arguments of the `min`/`max` of `e` that uses slot `t` (and whether it is a `max`),
/// when neither holds another.
fn choice(e: &CExpr, t: usize) -> Option<(CExpr, CExpr, bool)> {
    match &e.kind {
        CExprKind::Min(args) | CExprKind::Max(args) if args.len() == 2 && e.uses_slot(t) => {
            let is_max = matches!(e.kind, CExprKind::Max(_));
            (choices(&args[0], t) + choices(&args[1], t) == 0)
                .then(|| (args[0].clone(), args[1].clone(), is_max))
        }
        _ => e.children().into_iter().find_map(|c| choice(c, t)),
    }
}

/// `e` with its `min`/`max` that uses slot `t` replaced by argument `pick`, through the forms
/// [`slope`] reads (`None` past them).
fn chosen(e: &CExpr, t: usize, pick: usize) -> Option<CExpr> {
    if !e.uses_slot(t) {
        return Some(e.clone());
    }
    let kind = match &e.kind {
        CExprKind::Slot(_) => return Some(e.clone()),
        CExprKind::Min(args) | CExprKind::Max(args) if args.len() == 2 => {
            return Some(args[pick].clone())
        }
        CExprKind::Neg(x) => CExprKind::Neg(Box::new(chosen(x, t, pick)?)),
        CExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), a, b) => {
            CExprKind::Binary(
                *op,
                Box::new(chosen(a, t, pick)?),
                Box::new(chosen(b, t, pick)?),
            )
        }
        _ => return None,
    };
    Some(CExpr { kind, span: e.span })
}

/// The integer `c` with `e(t) = e(0) + c·t` for slot `t`, if `e` is affine in it.
fn slope(e: &CExpr, t: usize) -> Option<i64> {
    if !e.uses_slot(t) {
        return Some(0);
    }
    match &e.kind {
        CExprKind::Slot(_) => Some(1),
        CExprKind::Neg(x) => slope(x, t)?.checked_neg(),
        CExprKind::Binary(BinaryOp::Add, a, b) => slope(a, t)?.checked_add(slope(b, t)?),
        CExprKind::Binary(BinaryOp::Sub, a, b) => slope(a, t)?.checked_sub(slope(b, t)?),
        CExprKind::Binary(BinaryOp::Mul, a, b) => match (a.as_const(), b.as_const()) {
            (Some(c), _) => slope(b, t)?.checked_mul(c),
            (_, Some(c)) => slope(a, t)?.checked_mul(c),
            _ => None,
        },
        _ => None,
    }
}

/// The inclusive bounds of a binder's range, `None` if empty; an error if it has more than
/// [`MAX_RANGE_LEN`] values. Shared with the tree-walking interpreter.
pub fn range_bounds(
    lo: i64,
    hi: i64,
    inclusive: bool,
    span: Span,
    at: Place,
) -> Result<Option<(i64, i64)>, Diagnostic> {
    range_bounds_up_to(lo, hi, inclusive, span, at, MAX_RANGE_LEN)
}

/// [`range_bounds`] with another limit on the number of values.
fn range_bounds_up_to(
    lo: i64,
    hi: i64,
    inclusive: bool,
    span: Span,
    at: Place,
    max_len: i128,
) -> Result<Option<(i64, i64)>, Diagnostic> {
    let hi = if inclusive {
        hi as i128
    } else {
        hi as i128 - 1
    };
    let lo = lo as i128;
    if lo > hi {
        return Ok(None);
    }
    if hi - lo + 1 > max_len {
        return Err(Diagnostic::new(
            format!("at {at}, this range has {} values", hi - lo + 1),
            span,
        )
        .with_label("more than 2^32 values")
        .with_help("bound the range, e.g. `1..=min(k, n)`"));
    }
    Ok(Some((lo as i64, hi as i64)))
}

/// Checks that a heap game's move leaves a heap `h` in `0..n`. Shared with the tree-walking
/// interpreter.
pub fn check_heap(h: i64, span: Span, at: Place) -> Result<u64, Diagnostic> {
    let (name, n) = (&at.names[0], at.values[0]);
    if h >= 0 && (h as u64) < n {
        return Ok(h as u64);
    }
    let (label, help) = if h < 0 {
        (
            "a heap cannot be negative".to_string(),
            format!("add a condition (`if x <= {name}`) or bound the range (`1..=min(k, {name})`)"),
        )
    } else {
        (
            format!("a heap must be smaller than {name} = {n}"),
            "a move to a heap as large as the one moved from could repeat forever; bound the range or add a condition (or, for a heap that may grow, write `position (n)`: a game whose moves cycle is then solved as a loopy game)"
                .to_string(),
        )
    };
    Err(Diagnostic::new(
        format!("at {name} = {n}, this move leaves a heap of {h}"),
        span,
    )
    .with_label(label)
    .with_help(help))
}

/// Checks that coordinate `index` of a position game's move (by the rule labelled `label`, if
/// any) is not negative. Shared with the tree-walking interpreter.
pub fn check_coordinate(
    value: i64,
    index: usize,
    span: Span,
    at: Place,
    label: Option<&str>,
) -> Result<u64, Diagnostic> {
    u64::try_from(value).map_err(|_| {
        let name = &at.names[index];
        let rule = label.map_or("this move".to_string(), |l| format!("the move `{l}`"));
        Diagnostic::new(format!("at {at}, {rule} leaves {name} = {value}"), span)
            .with_label("a coordinate cannot be negative")
            .with_help(format!(
                "add a condition (`if t <= {name}`) or bound the range (`1..={name}`)"
            ))
    })
}

/// Compiles an expression to a closure, specialising the common shapes (a slot or constant
/// operand) so that the hot loop does few indirect calls.
fn compile(e: &CExpr) -> Eval {
    let span = e.span;
    let fault = move |kind| Fault { kind, span };
    match &e.kind {
        CExprKind::Const(v) => {
            let v = *v;
            Arc::new(move |_| Ok(v))
        }
        CExprKind::Slot(i) => {
            let i = *i;
            Arc::new(move |s| Ok(s[i]))
        }
        CExprKind::Neg(x) => {
            let x = compile(x);
            Arc::new(move |s| x(s)?.checked_neg().ok_or(fault(FaultKind::Overflow)))
        }
        CExprKind::Abs(x) => {
            let x = compile(x);
            Arc::new(move |s| x(s)?.checked_abs().ok_or(fault(FaultKind::Overflow)))
        }
        CExprKind::Not(x) => {
            let x = compile(x);
            Arc::new(move |s| Ok(i64::from(x(s)? == 0)))
        }
        CExprKind::BitNot(x) => {
            let x = compile(x);
            Arc::new(move |s| Ok(!x(s)?))
        }
        CExprKind::Popcount(x) => {
            let x = compile(x);
            Arc::new(move |s| Ok(i64::from(x(s)?.count_ones())))
        }
        CExprKind::Ctz(x) => {
            let x = compile(x);
            Arc::new(move |s| Ok(i64::from(x(s)?.trailing_zeros())))
        }
        CExprKind::Bit(x, i) => binary(x, i, fault, bit),
        // The same functions as the tree-walking evaluator ([`super::arith`]).
        CExprKind::Arith(f, args) => match &args[..] {
            [x] => {
                let (f, x) = (*f, compile(x));
                Arc::new(move |s| f.apply(&[x(s)?]).map_err(fault))
            }
            [a, b] => {
                let f = *f;
                binary(a, b, fault, move |x, y| f.apply(&[x, y]))
            }
            _ => unreachable!("number-theory functions take one or two arguments"),
        },
        CExprKind::Count(conditions) => {
            let conditions: Vec<Eval> = conditions.iter().map(compile).collect();
            Arc::new(move |s| {
                let mut count = 0;
                for c in &conditions {
                    count += i64::from(c(s)? != 0);
                }
                Ok(count)
            })
        }
        CExprKind::Binary(BinaryOp::And, a, b) => {
            let (a, b) = (compile(a), compile(b));
            Arc::new(move |s| Ok(i64::from(a(s)? != 0 && b(s)? != 0)))
        }
        CExprKind::Binary(BinaryOp::Or, a, b) => {
            let (a, b) = (compile(a), compile(b));
            Arc::new(move |s| Ok(i64::from(a(s)? != 0 || b(s)? != 0)))
        }
        CExprKind::Binary(op, a, b) => {
            // One closure per operator, so that the hot loop does not dispatch on it.
            use BinaryOp::*;
            match op {
                Add => binary(a, b, fault, |x, y| {
                    x.checked_add(y).ok_or(FaultKind::Overflow)
                }),
                Sub => binary(a, b, fault, |x, y| {
                    x.checked_sub(y).ok_or(FaultKind::Overflow)
                }),
                Eq => binary(a, b, fault, |x, y| Ok(i64::from(x == y))),
                Ne => binary(a, b, fault, |x, y| Ok(i64::from(x != y))),
                Lt => binary(a, b, fault, |x, y| Ok(i64::from(x < y))),
                Le => binary(a, b, fault, |x, y| Ok(i64::from(x <= y))),
                Gt => binary(a, b, fault, |x, y| Ok(i64::from(x > y))),
                Ge => binary(a, b, fault, |x, y| Ok(i64::from(x >= y))),
                BitAnd => binary(a, b, fault, |x, y| Ok(x & y)),
                BitXor => binary(a, b, fault, |x, y| Ok(x ^ y)),
                Shl => binary(a, b, fault, shl),
                Shr => binary(a, b, fault, shr),
                op => {
                    let op = *op;
                    binary(a, b, fault, move |x, y| apply(op, x, y))
                }
            }
        }
        CExprKind::Min(args) | CExprKind::Max(args) => {
            let is_min = matches!(e.kind, CExprKind::Min(_));
            let args: Vec<Eval> = args.iter().map(compile).collect();
            Arc::new(move |s| {
                let mut best = args[0](s)?;
                for arg in &args[1..] {
                    let v = arg(s)?;
                    best = if is_min { best.min(v) } else { best.max(v) };
                }
                Ok(best)
            })
        }
    }
}

/// `f(a, b)` as a closure, specialised for a slot or constant operand.
fn binary<F>(
    a: &CExpr,
    b: &CExpr,
    fault: impl Fn(FaultKind) -> Fault + Copy + Send + Sync + 'static,
    f: F,
) -> Eval
where
    F: Fn(i64, i64) -> Result<i64, FaultKind> + Copy + Send + Sync + 'static,
{
    match (&a.kind, &b.kind) {
        (CExprKind::Slot(i), CExprKind::Const(c)) => {
            let (i, c) = (*i, *c);
            Arc::new(move |s| f(s[i], c).map_err(fault))
        }
        (CExprKind::Slot(i), CExprKind::Slot(j)) => {
            let (i, j) = (*i, *j);
            Arc::new(move |s| f(s[i], s[j]).map_err(fault))
        }
        (_, CExprKind::Const(c)) => {
            let (a, c) = (compile(a), *c);
            Arc::new(move |s| f(a(s)?, c).map_err(fault))
        }
        _ => {
            let (a, b) = (compile(a), compile(b));
            Arc::new(move |s| f(a(s)?, b(s)?).map_err(fault))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::closing_conjunct;

    /// A pruning conjunct is never up in the two last binders: `count(… > 0) <= k`, `!(x > …)`,
    /// `a - 2 * u - t >= 0`; not `count(…) >= 1`, not a product of two binders, not `==`.
    #[test]
    fn pruning_conjuncts_are_never_up_in_the_last_two_binders() {
        let found = |condition: &str| {
            let text =
                format!("position (a)\nmove u in 0..=a, t in 0..=a if {condition} => (a - 1)");
            let game =
                crate::rules::load(crate::rules::SourceFile::new("t.sg", &text), &[]).unwrap();
            let program = game.position_program().unwrap();
            super::pruning_conjunct(&program.checked_moves()[0], 1).is_some()
        };
        assert!(found("count(u > 0, t > 0) <= 1"));
        assert!(found("a > 3 && !(u + t > 2)"));
        assert!(found("a - 2 * u - t >= 0"));
        assert!(found("max(u, 3) < a && -t >= -4"));
        assert!(!found("count(u > 0, t > 0) >= 1"));
        assert!(!found("u * t <= 3"));
        assert!(!found("u + t == 2"));
        assert!(!found("u - t <= 2"));
    }

    /// The conjunct "the bits `c..t` of `w` are all ones" is found in either order of `&` and
    /// of `==` and with `c` written either way; not when the length is off by one, when the
    /// range starts elsewhere, or when `w` uses `t`.
    #[test]
    fn closing_conjuncts_are_found_only_where_they_close() {
        let found = |binders: &str, condition: &str| {
            let text = format!("position (m)\nmove {binders} if {condition} => (m + 1)");
            let game =
                crate::rules::load(crate::rules::SourceFile::new("t.sg", &text), &[]).unwrap();
            let program = game.position_program().unwrap();
            closing_conjunct(&program.checked_moves()[0], 1).is_some()
        };
        let natural = "i in bits(m), e in i + 1..20";
        assert!(found(
            natural,
            "bit(m, e) == 0 && popcount(m & ((1 << e) - (1 << (i + 1)))) == e - i - 1"
        ));
        assert!(found(
            natural,
            "e - (1 + i) == popcount(((1 << e) - (1 << (i + 1))) & m)"
        ));
        assert!(!found(
            natural,
            "popcount(m & ((1 << e) - (1 << (i + 1)))) == e - i"
        ));
        assert!(!found(
            "i in bits(m), e in i..20",
            "popcount(m & ((1 << e) - (1 << (i + 1)))) == e - i - 1"
        ));
        assert!(!found(
            natural,
            "popcount(e & ((1 << e) - (1 << (i + 1)))) == e - i - 1"
        ));
        assert!(!found(
            natural,
            "popcount(m & ((1 << e) - (1 << (i + 1)))) != e - i - 1"
        ));
    }

    use crate::rules::{load, GameKind, SourceFile};

    fn moves(text: &str, n: u64) -> Result<Vec<Vec<u64>>, String> {
        let game = load(SourceFile::new("t.sg", text), &[]).map_err(|e| e.to_string())?;
        let GameKind::General { program, .. } = &game.kind else {
            panic!("not general")
        };
        let mut out = Vec::new();
        program
            .for_each_move(n, &mut |h| out.push(h.to_vec()))
            .map_err(|d| d.render(&game.source))?;
        Ok(out)
    }

    /// The up-front estimate counts a set binder by its expected size: over many positions
    /// it is within a small factor of the steps the enumeration really takes.
    #[test]
    fn set_binders_are_estimated_by_their_size() {
        let cases = [
            ("move d in divisors(n) if d < n => n - d", 1..=4000u64),
            ("move p in primes(2, n) => n - p", 1..=4000),
            ("move q in prime_powers(2, n) => n - q", 1..=4000),
            ("move i in bits(n) => n - (1 << i)", 1..=4000),
        ];
        for (text, heaps) in cases {
            let game = load(SourceFile::new("t.sg", text), &[]).unwrap();
            let GameKind::General { program, .. } = &game.kind else {
                panic!("not general")
            };
            let (mut estimated, mut actual, mut seed) = (0.0, 0u64, 7u64);
            for n in heaps {
                estimated += program.estimate_steps(&[n], 8, &mut seed);
                let mut budget = u64::MAX;
                program
                    .for_each_move_within(n, &mut budget, &mut |_| {})
                    .unwrap();
                actual += u64::MAX - budget;
            }
            let ratio = estimated / actual as f64;
            assert!(
                (0.5..2.0).contains(&ratio),
                "{text}: {estimated} vs {actual}"
            );
        }
    }

    /// The tests of one bit of the last binder that let its loop visit only the bits needed:
    /// `(rule, the conjuncts before the test, set)`, `None` where there is none.
    #[test]
    fn bit_tests_are_found_in_the_conjuncts() {
        let cases: [(&str, Option<(usize, bool)>); 8] = [
            (
                "move i in 0..20 if bit(n, i) == 1 => n - (1 << i)",
                Some((0, true)),
            ),
            (
                "move i in 0..20 if 0 == bit(n, i) && i > 0 => n - i",
                Some((0, false)),
            ),
            (
                "move i in 0..20 if i > 1 && bit(n, i) != 1 => n - i",
                Some((1, false)),
            ),
            (
                "move i in 0..20 if !(bit(n, i) == 0) => n - i",
                Some((0, true)),
            ),
            ("move i in 0..20 if bit(n, i) == 2 => n - i", None),
            ("move i in 0..20 if bit(n, i + 1) == 1 => n - i", None),
            ("move i in 0..20 if bit(n + i, i) == 1 => n - i", None),
            (
                "move i in 0..20, j in 0..i if bit(n, i) == 1 => n - j",
                None,
            ),
        ];
        for (text, want) in cases {
            let game = load(SourceFile::new("t.sg", text), &[]).unwrap();
            let GameKind::General { program, .. } = &game.kind else {
                panic!("not general")
            };
            let got = super::bit_test_of(&program.checked_moves()[0], 1)
                .map(|test| (test.before.len(), test.set));
            assert_eq!(got, want, "{text}");
        }
    }

    #[test]
    fn sets_are_listed_ascending_with_their_binders() {
        let text = "move d in divisors(n), i in bits(d) if d < n => n - d\n";
        let game = load(SourceFile::new("t.sg", text), &[]).unwrap();
        let GameKind::General { program, lowered } = &game.kind else {
            panic!("not general")
        };
        assert!(lowered.is_none());
        let (mut seen, mut budget) = (Vec::new(), u64::MAX);
        program
            .for_each_option(
                &[12],
                &mut super::Scratch::default(),
                &mut budget,
                &mut |_, b, m| {
                    assert!(matches!(m, super::Move::Sum(_)));
                    seen.push(b.to_vec());
                    std::ops::ControlFlow::Continue(())
                },
            )
            .unwrap();
        // 1 = 0b1, 2 = 0b10, 3 = 0b11, 4, 6 = 0b110 (12 itself fails the condition).
        assert_eq!(
            seen,
            [[1, 0], [2, 1], [3, 0], [3, 1], [4, 2], [6, 1], [6, 2]].map(|v| v.to_vec())
        );
    }

    #[test]
    fn lines_list_the_moves_they_stand_for() {
        use super::{Move, Scratch};
        use std::ops::ControlFlow;
        // (rule, binders, components) of every concrete move, with lines expanded.
        type Listed = Vec<(usize, Vec<i64>, Vec<u64>)>;
        let cases: [(&str, &[u64]); 3] = [
            (
                "move take: x in 1..=n/2 => n - x\nmove if n > 3 => none",
                &[9],
            ),
            (
                "move a in 0..3, b in 1..=(n - a) / 2 => n - 2 * b - a",
                &[30],
            ),
            (
                "position (x, y)\nmove t in 1..=x, u in 0..=t => (x - t, y + 2 * u)",
                &[4, 1],
            ),
        ];
        for (text, position) in cases {
            let game = load(SourceFile::new("t.sg", text), &[]).unwrap();
            let GameKind::General { program, .. } = &game.kind else {
                panic!("not general")
            };
            let (mut expanded, mut lines): (Listed, usize) = (Vec::new(), 0);
            let mut unlimited = u64::MAX;
            program
                .for_each_option(
                    position,
                    &mut Scratch::default(),
                    &mut unlimited,
                    &mut |r, b, m| {
                        lines += usize::from(matches!(m, Move::Line { .. }));
                        let before = expanded.len();
                        let flow = m.for_each_concrete(b, |b, c| {
                            expanded.push((r, b.to_vec(), c.to_vec()));
                            ControlFlow::Continue(())
                        });
                        assert_eq!((expanded.len() - before) as u64, m.count());
                        flow
                    },
                )
                .unwrap();
            // The capped enumeration visits every move of a line one at a time.
            let mut one_by_one: Listed = Vec::new();
            program
                .for_each_option_capped(position, u64::MAX, &mut |r, b, m| {
                    let Move::Sum(c) = m else { panic!("a line") };
                    one_by_one.push((r, b.to_vec(), c.to_vec()));
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert!(lines > 0, "{text}: no line");
            assert_eq!(expanded, one_by_one, "{text}");
        }
    }

    #[test]
    fn enumerates_binders_conditions_and_sums() {
        assert_eq!(
            moves("move x in 1..=min(3, n) => n - x", 2).unwrap(),
            vec![vec![1], vec![0]]
        );
        assert_eq!(
            moves("move i in 0..=n-2 => i, n - 2 - i", 3).unwrap(),
            vec![vec![0, 1], vec![1, 0]]
        );
        assert_eq!(
            moves("move d in 1..n if n % d == 0 => n - d", 6).unwrap(),
            vec![vec![5], vec![4], vec![3]]
        );
        assert_eq!(
            moves("move if n >= 1 => none", 1).unwrap(),
            vec![Vec::<u64>::new()]
        );
        assert_eq!(
            moves("move if n >= 1 => none", 0).unwrap(),
            Vec::<Vec<u64>>::new()
        );
        assert_eq!(
            moves(
                "move a in 0..=n, len in 2..=3 if a + len <= n => a, n - a - len",
                3
            )
            .unwrap(),
            vec![vec![0, 1], vec![0, 0], vec![1, 0]]
        );
    }

    #[test]
    fn program_is_shareable() {
        fn assert_traits<T: Clone + std::fmt::Debug + Send + Sync>() {}
        assert_traits::<super::Program>();
    }

    #[test]
    fn errors_use_the_coordinate_name() {
        let err = moves("heap m\nmove x in 1..=2 => m - x", 1).unwrap_err();
        assert!(
            err.starts_with("error: at m = 1, this move leaves a heap of -1"),
            "{err}"
        );
        assert!(err.contains("help: add a condition (`if x <= m`)"), "{err}");
        let err = moves("move x in 0..=1 => n + x", 3).unwrap_err();
        assert!(err.contains("a heap must be smaller than n = 3"), "{err}");
    }

    #[test]
    fn run_time_errors_are_located() {
        let err = moves("move x in 1..=3 => n - x", 1).unwrap_err();
        assert_eq!(
            err,
            "error: at n = 1, this move leaves a heap of -1\n --> t.sg:1:20\n  |\n1 | move x in 1..=3 => n - x\n  |                    ^^^^^ a heap cannot be negative\n  |\n  = help: add a condition (`if x <= n`) or bound the range (`1..=min(k, n)`)\n"
        );
        assert!(moves("move => n", 4)
            .unwrap_err()
            .contains("at n = 4, this move leaves a heap of 4"));
        assert!(moves("move x in 0..=n => n / x", 4)
            .unwrap_err()
            .contains("division by zero at n = 4"));
        assert!(moves("move x in 0..=n*9223372036854775807 => 0", 4)
            .unwrap_err()
            .contains("arithmetic overflow at n = 4"));
        assert!(moves("move x in 0..=n*4294967296 => 0", 4)
            .unwrap_err()
            .contains("more than 2^32 values"));
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use crate::engine::{general, Progress, SgTable};
    use crate::oracle::interp;
    use crate::rules::{load, GameKind, SourceFile};

    /// Valid rule files, used as seeds for the token soups.
    const SEEDS: [&str; 9] = [
        "# Bash\nname \"Bash\"\nparam k = 3\nmove take: x in 1..=min(k, n) => n - x\n",
        "param L = 2\nmove len in L..=L+2, a in 0..=n-len => a, n - a - len\n",
        "move d in 1..n if n % d == 0 && !(d > 3 || d == 2) => n - d\nmove if n >= 1 => none\n",
        "subtraction all-but {2, 5}\n",
        "param m = 2*3 + 1\nsubtraction {1, m, -(-4)}\n",
        "heap h\nmove i in 0..=h-2 => i, h - 2 - i\n",
        "position (x, y)\nmove t in 1..=x => (x - t, y)\nmove if x > 0 && y > 0 => (x - 1, 0) + (0, y - 1)\n",
        "position (m)\nmove i in 0..5, j = i + 1 if bit(m, i) == 1 && m >> j & 1 == 0 && j < 6 => m ^ (1 << i) | (1 << j)\n",
        "move d in divisors(n), p in primes(2, d) if d < n => n - d\nmove i in bits(n), q in prime_powers(1, n) if q <= i => n - q\n",
    ];

    /// A random file from a small grammar of rules: subtraction-like, split-like, conditions,
    /// parameters, `/` and `%`, several binders.
    fn expr(names: &'static [&'static str]) -> impl Strategy<Value = String> + Clone {
        let atom = prop_oneof![
            prop::sample::select(names).prop_map(str::to_string),
            (-3..6i64).prop_map(|v| v.to_string())
        ];
        atom.prop_recursive(3, 12, 2, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    prop::sample::select(&["+", "-", "*", "/", "%"][..]),
                    inner.clone()
                )
                    .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
                (inner.clone(), inner).prop_map(|(a, b)| format!("max({a}, {b})")),
            ]
        })
    }

    fn condition(names: &'static [&'static str]) -> impl Strategy<Value = String> + Clone {
        (
            expr(names),
            prop::sample::select(&["<", "<=", "==", "!=", ">"][..]),
            expr(names),
        )
            .prop_map(|(a, op, b)| format!(" if {a} {op} {b}"))
    }

    /// A random file from a small grammar of rules: subtraction-like, split-like, conditions,
    /// parameters, `/` and `%`, several binders.
    fn rule_file() -> impl Strategy<Value = String> {
        const WITH_X: &[&str] = &["n", "k", "x"];
        const WITHOUT_X: &[&str] = &["n", "k"];
        let rule = prop_oneof![
            (1..4i64, prop::option::of(condition(WITH_X))).prop_map(|(a, c)| format!(
                "move x in {a}..=min(k, n){} => n - x",
                c.unwrap_or_default()
            )),
            (0..3i64, prop::option::of(condition(WITH_X))).prop_map(|(c, cond)| format!(
                "move x in 0..=n-{c}{} => x, n - {c} - x",
                cond.unwrap_or_default()
            )),
            (1..3i64, 0..3i64).prop_map(|(l, w)| format!(
                "move y in {l}..={}, x in 0..=n-y => x, n - x - y",
                l + w
            )),
            condition(WITHOUT_X).prop_map(|c| format!("move{c} => none")),
            (expr(WITH_X), condition(WITH_X))
                .prop_map(|(e, c)| format!("move x in 1..=n{c} && ({e}) >= 0 && ({e}) < n => {e}")),
        ];
        (1..5i64, prop::collection::vec(rule, 1..4))
            .prop_map(|(k, rules)| format!("param k = {k}\n{}\n", rules.join("\n")))
    }

    /// A random file whose last binder is pinned by its condition (`… && x == e && …`, or
    /// `e == x`), with conjuncts before it that may fault or be false and `e` that may fault
    /// or fall outside the range: the compiled program takes the one value, the interpreter
    /// lists them all.
    fn pinned_rule_file() -> impl Strategy<Value = String> {
        const WITH_Y: &[&str] = &["n", "k", "y"];
        const WITH_X: &[&str] = &["n", "k", "y", "x"];
        let rule = (
            prop::option::of(condition(WITH_Y)),
            expr(WITH_Y),
            any::<bool>(),
            prop::option::of(condition(WITH_X)),
            0..3i64,
        )
            .prop_map(|(before, e, flipped, after, lo)| {
                let before = before.map(|c| format!("{} && ", &c[4..])).unwrap_or_default();
                let pin = if flipped {
                    format!("({e}) == x")
                } else {
                    format!("x == ({e})")
                };
                let after = after.map(|c| format!(" && {}", &c[4..])).unwrap_or_default();
                format!(
                    "move y in 0..=min(k, n), x in {lo}..=n if {before}{pin}{after} && x + y <= n && x + y > 0 => n - x - y"
                )
            });
        (1..5i64, prop::collection::vec(rule, 1..3))
            .prop_map(|(k, rules)| format!("param k = {k}\n{}\n", rules.join("\n")))
    }

    /// A random file whose rules bind sets (`divisors`, `primes`, `prime_powers`, `bits`),
    /// alone, nested in each other or after a range, with arguments that may be negative or
    /// fault (`bits` of a negative number).
    fn set_rule_file() -> impl Strategy<Value = String> {
        const WITH_X: &[&str] = &["n", "k", "x"];
        let arg = || {
            prop_oneof![
                (-2..3i64).prop_map(|c| format!("n - {c}")),
                expr(&["n", "k"]),
                (1..4i64).prop_map(|c| format!("n / {c}")),
            ]
        };
        let rule = prop_oneof![
            (arg(), prop::option::of(condition(WITH_X))).prop_map(|(a, c)| format!(
                "move x in divisors({a}) if x <= n{} => n - x",
                c.map(|c| c.replacen(" if", " &&", 1)).unwrap_or_default()
            )),
            (arg(), arg()).prop_map(|(a, b)| format!(
                "move x in primes({a}, {b}) if x <= n => n - x"
            )),
            (arg(), arg()).prop_map(|(a, b)| format!(
                "move x in prime_powers({a}, {b}) if x <= n => n - x"
            )),
            arg().prop_map(|a| format!("move x in bits({a}) if x < 63 && (1 << x) <= n => n - (1 << x)")),
            (0..3i64).prop_map(|c| format!(
                "move d in divisors(n), x in bits(d + {c}) if x < 20 && (1 << x) <= n => n - (1 << x)"
            )),
            (0..3i64).prop_map(|c| format!(
                "move y in 1..=k, x in primes(y, n - {c}) => x - 1, n - x"
            )),
        ];
        (1..5i64, prop::collection::vec(rule, 1..4))
            .prop_map(|(k, rules)| format!("param k = {k}\n{}\n", rules.join("\n")))
    }

    fn token_soup() -> impl Strategy<Value = String> {
        let pieces = prop_oneof![
            Just("move"),
            Just("param"),
            Just("in"),
            Just("if"),
            Just("=>"),
            Just("..="),
            Just(".."),
            Just("("),
            Just(")"),
            Just("{"),
            Just("}"),
            Just(","),
            Just("\n"),
            Just("n"),
            Just("x"),
            Just("-"),
            Just("*"),
            Just("/"),
            Just("%"),
            Just("0"),
            Just("99999999999999999999"),
            Just("\""),
            Just("#"),
            Just("octal"),
            Just("min("),
            Just("!"),
            Just("&&"),
            Just("none"),
            Just("é"),
            Just("position"),
            Just("(x, y)"),
            Just("<<"),
            Just("&"),
            Just("^"),
            Just("+ (0, 1)"),
            Just("subtraction"),
            Just("all-but"),
        ];
        (
            0..SEEDS.len(),
            prop::collection::vec((any::<prop::sample::Index>(), pieces, 0..3u8), 0..8),
        )
            .prop_map(|(seed, edits)| {
                let mut tokens: Vec<String> = SEEDS[seed].split(' ').map(str::to_string).collect();
                for (index, piece, action) in edits {
                    let i = index.index(tokens.len() + 1);
                    match action {
                        0 => tokens.insert(i, piece.to_string()),
                        1 if i < tokens.len() => {
                            tokens.remove(i);
                        }
                        _ if i < tokens.len() => tokens[i] = piece.to_string(),
                        _ => {}
                    }
                }
                tokens.join(" ")
            })
    }

    /// Loads `text` and runs the engine a little on whatever it describes (general rules or a
    /// code family): Ok or Err, never a panic or hang.
    fn exercise(text: &str) {
        let Ok(game) = load(SourceFile::new("fuzz.sg", text), &[]) else {
            return;
        };
        match game.position_program() {
            Some(program) => {
                use crate::engine::multi::{Order, Solver};
                let extents = vec![6; program.coordinates().len()];
                if let Ok(solver) = Solver::new(&game, &extents) {
                    let _ = solver.with_outside_limit(10_000).fill_box(Order::Auto);
                }
            }
            None => {
                let _ = crate::engine::compute(&game, 24, &crate::engine::EngineOptions::default());
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn random_strings_never_panic(text in "[ -~\n\té]{0,80}") {
            exercise(&text);
        }

        #[test]
        fn token_soups_never_panic(text in token_soup()) {
            exercise(&text);
        }

        /// A binder pinned by its condition: the compiled program, which takes its one value,
        /// and the interpreter, which lists them all, give the same values or the same error.
        #[test]
        fn pinned_binders_compiled_equal_interpreter(text in pinned_rule_file()) {
            let game = load(SourceFile::new("r.sg", &text), &[]).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let GameKind::General { program, .. } = &game.kind else { return Ok(()) };
            let mut table = SgTable::new();
            let compiled = general::extend(program, &mut table, 40, &mut Progress::hidden());
            let naive = interp::values(&SourceFile::new("r.sg", &text), &[], 40);
            match (compiled, naive) {
                (Ok(()), Ok(values)) => prop_assert_eq!(table.to_vec(), values),
                (Err(a), Err(b)) => prop_assert_eq!(a, b),
                (a, b) => prop_assert!(false, "compiled {:?}, interpreted {:?}", a, b),
            }
        }

        /// The compiled program (through the general engine) and the tree-walking interpreter
        /// give the same values, or both fail at the same position.
        #[test]
        fn compiled_engine_equals_interpreter(text in rule_file()) {
            let game = load(SourceFile::new("r.sg", &text), &[]).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let GameKind::General { program, .. } = &game.kind else { unreachable!() };
            let mut table = SgTable::new();
            let compiled = general::extend(program, &mut table, 48, &mut Progress::hidden());
            let naive = interp::values(&SourceFile::new("r.sg", &text), &[], 48);
            match (compiled, naive) {
                (Ok(()), Ok(values)) => {
                    prop_assert_eq!(table.to_vec(), values);
                }
                (Err(a), Err(b)) => prop_assert_eq!(a, b),
                (a, b) => prop_assert!(false, "compiled {:?}, interpreted {:?}", a, b),
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Set binders: the compiled program and the interpreter (both listing the sets by
        /// [`crate::rules::sieve::NumberCache::values`], the compiled one through its own
        /// cache) give the same values, or the same error at the same position. The rules
        /// never lower to a code.
        #[test]
        fn set_binders_compiled_equals_interpreter(text in set_rule_file()) {
            let game = load(SourceFile::new("r.sg", &text), &[]).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let GameKind::General { program, lowered } = &game.kind else { unreachable!() };
            prop_assert!(lowered.is_none());
            let mut table = SgTable::new();
            let compiled = general::extend(program, &mut table, 64, &mut Progress::hidden());
            let naive = interp::values(&SourceFile::new("r.sg", &text), &[], 64);
            match (compiled, naive) {
                (Ok(()), Ok(values)) => prop_assert_eq!(table.to_vec(), values),
                (Err(a), Err(b)) => prop_assert_eq!(a, b),
                (a, b) => prop_assert!(false, "compiled {:?}, interpreted {:?}", a, b),
            }
        }
    }
}

#[cfg(test)]
mod arith_agreement {
    use super::compile;
    use crate::rules::arith::Function;
    use crate::rules::checked::{CExpr, CExprKind};
    use crate::rules::Span;
    use proptest::prelude::*;

    fn leaf(kind: CExprKind) -> CExpr {
        CExpr {
            kind,
            span: Span::new(0, 1),
        }
    }

    /// Numbers that reach the edge cases: small ones, primes and prime powers, extremes.
    fn number() -> impl Strategy<Value = i64> {
        prop_oneof![
            -20i64..200,
            any::<i64>(),
            prop::sample::select(vec![
                i64::MIN,
                i64::MAX,
                (1 << 61) - 1,
                561,
                1105,
                1 << 62,
                3_037_000_499
            ]),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// The compiled program and the tree-walking evaluator agree (value or fault) on every
        /// number-theory function, with slot and constant operands (the compiler's special
        /// cases).
        #[test]
        fn compiled_and_checked_evaluators_agree(
            index in 0..Function::ALL.len(),
            a in number(),
            b in number(),
            constant in any::<bool>(),
        ) {
            let f = Function::ALL[index];
            let second = if constant { CExprKind::Const(b) } else { CExprKind::Slot(1) };
            let args = match f.arity() {
                1 => vec![leaf(CExprKind::Slot(0))],
                _ => vec![leaf(CExprKind::Slot(0)), leaf(second)],
            };
            // Also nested under a negation, so a non-leaf operand is compiled too.
            let call = leaf(CExprKind::Arith(f, args));
            let nested = leaf(CExprKind::Arith(
                f,
                std::iter::repeat_with(|| leaf(CExprKind::Neg(Box::new(call.clone()))))
                    .take(f.arity())
                    .collect(),
            ));
            for e in [call.clone(), nested] {
                let slots = [a, b];
                prop_assert_eq!(compile(&e)(&slots), e.eval(&slots), "{}({}, {})", f.name(), a, b);
            }
        }
    }
}
