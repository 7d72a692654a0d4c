//! SG values of a position game over the positions reachable from those asked, not over a box.
//!
//! A game of many coordinates (a Nim of 20 heaps written as one position, a vector of piles or
//! vertices) has a box far larger than the positions one question needs: `(1, 0, 1, …, 1)`
//! with twelve 1s reaches 4096 positions, its box `0..=1` in each of 20 coordinates holds 2^20.
//! [`Reachable`] values a position by a memoised depth-first search over the positions its
//! moves reach, keyed in a hash map ([`crate::hash`]), with an explicit stack (no recursion
//! depth risk) and the three-state mark of [`super::multi`]'s search: a move back to a position
//! on the stack closes a cycle, reported as [`EngineError::Cycle`] (the caller then values the
//! game as a loopy one). For a game whose moves only lower coordinates the positions reachable
//! from `c` are at most `∏ (c_i + 1)` ([`downward_estimate`]).
//!
//! The search is metered like every request ([`super::budget`]): rule steps by the request's
//! [`Meter`], positions by a limit fitted to the memory available; past either it stops with
//! [`EngineError::OverBudget`] located at the rule running, with [`Hint::SmallerPositions`].

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;

use super::budget::Meter;
use super::{moves, EngineError, Hint, MexSet, Progress, ProgressSink};
use crate::hash::Fast;
use crate::rules::program::{Scratch, Stop};
use crate::rules::{Diagnostic, Game, Program};

/// The most positions a search may value (about 200 bytes each for 20 coordinates).
pub const MAX_POSITIONS: usize = 1 << 24;

const UNVISITED: u32 = u32::MAX;
const ON_STACK: u32 = u32::MAX - 1;
/// Ends a move's list of components in the search's arena.
const END_OF_MOVE: u32 = u32::MAX;

/// Bytes one position costs: its coordinates twice (the map's key and the list), its value,
/// and the map's slot.
fn position_bytes(arity: usize) -> u64 {
    2 * 8 * arity as u64 + 64
}

/// The number of positions reachable from `components` when every move lowers coordinates
/// (and an upper bound then): `Σ ∏ (c_i + 1)`, saturating.
pub fn downward_estimate(components: &[Vec<u64>]) -> u128 {
    components
        .iter()
        .map(|c| {
            c.iter()
                .fold(1u128, |p, &x| p.saturating_mul(u128::from(x) + 1))
        })
        .fold(0u128, u128::saturating_add)
}

/// The positions a search may value within the memory available (at most [`MAX_POSITIONS`]).
pub fn position_limit(arity: usize) -> usize {
    let fit = super::available_memory() / 2 / position_bytes(arity);
    (fit.min(MAX_POSITIONS as u64) as usize).max(1)
}

/// A position game's SG values, computed on demand over the positions reachable from those
/// asked (module docs).
pub struct Reachable<'g> {
    game: &'g Game,
    program: &'g Program,
    arity: usize,
    ids: HashMap<Box<[u64]>, u32, Fast>,
    /// Every position met, `arity` coordinates each, in the order met.
    positions: Vec<u64>,
    values: Vec<u32>,
    limit: usize,
    meter: Meter,
    scratch: Scratch,
    mex: MexSet,
    progress: Progress,
}

impl<'g> Reachable<'g> {
    /// A search over the positions of `game` (a position game), valuing at most `limit`
    /// positions (at most [`position_limit`]) within the request's rule steps
    /// ([`super::budget::steps_limit`]).
    pub fn new(game: &'g Game, limit: usize) -> Result<Self, EngineError> {
        let Some(program) = game.position_program() else {
            return Err(EngineError::Request(format!(
                "{} is not a position game: its positions are not tuples of coordinates",
                game.name
            )));
        };
        let arity = program.coordinates().len();
        Ok(Reachable {
            game,
            program,
            arity,
            ids: HashMap::default(),
            positions: Vec::new(),
            values: Vec::new(),
            limit: limit.min(position_limit(arity)),
            meter: Meter::default(),
            scratch: Scratch::default(),
            mex: MexSet::with_capacity(64),
            progress: Progress::hidden(),
        })
    }

    /// Lets the search spend at most `steps` rule steps (fewer than the request's budget).
    pub fn with_steps(mut self, steps: u64) -> Self {
        self.meter = Meter::new(steps.min(self.meter.limit()));
        self
    }

    /// Reports progress to `progress`, counting positions valued, of at most `expected`.
    pub fn with_progress(mut self, expected: u64, progress: Option<Arc<dyn ProgressSink>>) -> Self {
        self.progress = Progress::counting("positions", expected.max(1), progress);
        self
    }

    /// Positions valued (or met) so far.
    pub fn positions(&self) -> usize {
        self.values.len()
    }

    /// Rule steps spent so far.
    pub fn steps_spent(&self) -> u64 {
        self.meter.spent()
    }

    /// `G(position)`, searching the positions it reaches that are not valued yet.
    pub fn value(&mut self, position: &[u64]) -> Result<u32, EngineError> {
        if position.len() != self.arity {
            return Err(EngineError::Request(format!(
                "a position of {} needs {} coordinates",
                self.game.name, self.arity
            )));
        }
        let node = self.node_of(position, None, position)?;
        if self.values[node as usize] == UNVISITED {
            let searched = self.search(node);
            if searched.is_err() {
                // A stopped search leaves marks on its stack: forget them, so a later call
                // does not read them as a cycle.
                for v in &mut self.values {
                    if *v == ON_STACK {
                        *v = UNVISITED;
                    }
                }
            }
            searched?;
        }
        Ok(self.values[node as usize])
    }

    /// Stops the progress display.
    pub fn finish(&mut self) {
        self.progress.finish();
    }

    fn position(&self, node: u32) -> &[u64] {
        let start = node as usize * self.arity;
        &self.positions[start..start + self.arity]
    }

    /// The node of `position`, added (unvisited) when new; `from` and `rule` locate the error
    /// past the limit.
    fn node_of(
        &mut self,
        position: &[u64],
        rule: Option<usize>,
        from: &[u64],
    ) -> Result<u32, EngineError> {
        if let Some(&id) = self.ids.get(position) {
            return Ok(id);
        }
        if self.values.len() >= self.limit {
            let message = format!(
                "more than {} positions are reachable from the position asked (about {} of memory): {} were valued",
                self.limit,
                super::human_bytes(self.limit as u64 * position_bytes(self.arity)),
                self.values.iter().filter(|&&v| v < ON_STACK).count()
            );
            return Err(self.over_budget(message, rule, from));
        }
        let id = self.values.len() as u32;
        self.ids.insert(position.into(), id);
        self.positions.extend_from_slice(position);
        self.values.push(UNVISITED);
        Ok(id)
    }

    /// An over-budget error at `at`, located at `rule` when known (else unlocated: no made-up
    /// place).
    fn over_budget(&self, message: String, rule: Option<usize>, at: &[u64]) -> EngineError {
        let coordinates = self.game.coordinates();
        let place = crate::rules::checked::Place {
            names: &coordinates,
            values: at,
        };
        let message = format!("at {place}, {message}");
        let diagnostic = match rule {
            Some(r) => Diagnostic::new(message, self.program.rule_span(r))
                .with_label("this rule was running"),
            None => Diagnostic::unlocated(message),
        };
        EngineError::OverBudget {
            diagnostic: Box::new(diagnostic),
            file: Box::new(self.game.source.clone()),
            hint: Hint::SmallerPositions,
        }
    }

    /// Appends the node of every move's components from `node` to `arena`, each move ended
    /// by [`END_OF_MOVE`].
    fn list_moves(&mut self, node: u32, arena: &mut Vec<u32>) -> Result<(), EngineError> {
        let from = self.position(node).to_vec();
        let mut listed: Vec<(usize, Vec<u64>)> = Vec::new();
        let result = moves::for_each_rule_move(
            self.program,
            &from,
            &mut self.scratch,
            &mut self.meter.left,
            |rule, _, components| {
                listed.push((rule, components.to_vec()));
                ControlFlow::Continue(())
            },
        );
        match result {
            Ok(()) | Err(Stop::Break) => {}
            Err(Stop::OutOfBudget) => {
                let message = format!(
                    "the rules passed the budget of {:e} rule steps (binder values and moves): {} positions were valued",
                    self.meter.limit(),
                    self.values.iter().filter(|&&v| v < ON_STACK).count()
                );
                let rule = self.scratch.out_of_budget_in();
                return Err(self.over_budget(message, rule, &from));
            }
            Err(Stop::Error(diagnostic)) => return Err(EngineError::rule(self.game, diagnostic)),
        }
        for (rule, components) in listed {
            for c in components.chunks(self.arity) {
                let id = self.node_of(c, Some(rule), &from)?;
                arena.push(id);
            }
            arena.push(END_OF_MOVE);
        }
        Ok(())
    }

    /// The depth-first search from `root`.
    fn search(&mut self, root: u32) -> Result<(), EngineError> {
        struct Frame {
            node: u32,
            /// Where this node's moves start in the arena (they run to its end).
            start: usize,
            /// The next arena entry to look at.
            next: usize,
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut arena: Vec<u32> = Vec::new();
        let mut entering = Some(root);
        loop {
            if let Some(node) = entering.take() {
                self.values[node as usize] = ON_STACK;
                let start = arena.len();
                self.list_moves(node, &mut arena)?;
                stack.push(Frame {
                    node,
                    start,
                    next: start,
                });
            }
            let Some(top) = stack.last_mut() else {
                return Ok(());
            };
            while top.next < arena.len() {
                let child = arena[top.next];
                if child != END_OF_MOVE {
                    match self.values[child as usize] {
                        UNVISITED => {
                            entering = Some(child);
                            break;
                        }
                        ON_STACK => {
                            let from = stack
                                .iter()
                                .position(|f| f.node == child)
                                .expect("a node on the stack has a frame");
                            let nodes: Vec<u32> = stack[from..].iter().map(|f| f.node).collect();
                            return Err(self.cycle(&nodes));
                        }
                        _ => {}
                    }
                }
                top.next += 1;
            }
            if entering.is_some() {
                continue;
            }
            // Every option is valued: the mex of the moves' XORs.
            let Frame { node, start, .. } = stack.pop().expect("a top frame");
            let values = &self.values;
            let value = self
                .mex
                .mex_of_sums(&arena[start..], END_OF_MOVE, |child| values[child as usize]);
            self.values[node as usize] = value;
            arena.truncate(start);
            self.progress.tick(self.values.len() as u64);
        }
    }

    /// The error for a cycle through `nodes` (each moves to the next, the last to the first).
    fn cycle(&mut self, nodes: &[u32]) -> EngineError {
        let positions: Vec<Vec<u64>> = nodes
            .iter()
            .chain(&nodes[..1])
            .map(|&n| self.position(n).to_vec())
            .collect();
        let mut rules = Vec::new();
        for pair in positions.windows(2) {
            let mut rule = None;
            let _ = moves::for_each_rule_move(
                self.program,
                &pair[0],
                &mut Scratch::default(),
                &mut u64::MAX.clone(),
                |r, _, components| {
                    if components
                        .chunks(self.arity)
                        .any(|c| c == pair[1].as_slice())
                    {
                        rule = Some(r);
                        return ControlFlow::Break(());
                    }
                    ControlFlow::Continue(())
                },
            );
            rules.push(rule.map(|r| self.program.rule_name(r, &self.game.source)));
        }
        EngineError::Cycle { positions, rules }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load, SourceFile};

    fn nim(heaps: usize) -> Game {
        let names: Vec<String> = (0..heaps).map(|i| format!("h{i}")).collect();
        let mut text = format!("position ({})\n", names.join(", "));
        for (i, v) in names.iter().enumerate() {
            let result: Vec<String> = names
                .iter()
                .enumerate()
                .map(|(j, w)| {
                    if i == j {
                        format!("{v} - t")
                    } else {
                        w.clone()
                    }
                })
                .collect();
            text += &format!("move take{i}: t in 1..={v} => ({})\n", result.join(", "));
        }
        load(SourceFile::new("<nim>", &text), &[]).unwrap()
    }

    #[test]
    fn nim_of_many_heaps_is_the_xor() {
        // Bouton 1901: G(h) = h_0 ⊕ … ⊕ h_k.
        let game = nim(12);
        let mut search = Reachable::new(&game, MAX_POSITIONS).unwrap();
        let position = [1, 0, 3, 1, 0, 2, 1, 1, 0, 0, 1, 2];
        let xor = position.iter().fold(0, |a, &h| a ^ h) as u32;
        assert_eq!(search.value(&position).unwrap(), xor);
        assert_eq!(
            search.positions() as u128,
            downward_estimate(&[position.to_vec()])
        );
    }

    #[test]
    fn limits_and_cycles_are_typed_errors() {
        let game = nim(6);
        let mut small = Reachable::new(&game, 10).unwrap();
        let err = small.value(&[3, 3, 3, 3, 3, 3]).unwrap_err();
        assert_eq!(err.hint(), Some(Hint::SmallerPositions), "{err}");
        // 4^6 positions fit a larger limit: six heaps of 3 XOR to 0.
        let mut large = Reachable::new(&game, 4096).unwrap();
        assert_eq!(large.value(&[3, 3, 3, 3, 3, 3]).unwrap(), 0);
        assert_eq!(large.positions(), 4096);
        let loopy = load(
            SourceFile::new("<t>", "position (x, y)\nmove if x >= 1 => (x - 1, y + 1)\nmove if y >= 1 => (x + 1, y - 1)"),
            &[],
        )
        .unwrap();
        let err = Reachable::new(&loopy, 100)
            .unwrap()
            .value(&[1, 1])
            .unwrap_err();
        assert!(matches!(err, EngineError::Cycle { .. }), "{err}");
    }
}
