//! The generic evaluator: the value of every position of a box under any
//! [`ValueRule`], by the recursion on options that defines it.
//!
//! `v(p) = rule.of_options({ v(q1 + … + qj) : p → q1 + … + qj })`, where a sum's value is
//! `rule.of_sum(v(q1), …, v(qj))`, a single component's is its own, and the empty sum's is
//! that of a position with no option. Heap games are valued in increasing heap size (every
//! move leaves smaller heaps); position games by a depth-first search with an explicit stack,
//! memoised over the box and, for positions outside it, a hash map (at most
//! [`MAX_OUTSIDE`]). A move back to a position on the stack is a
//! cycle, which a recursion on options cannot value: the error says so.
//!
//! This is the slow, obviously right path: it lists every option of every position through
//! the [`MoveGenerator`]. Normal play has fast kernels ([`crate::engine::compute`],
//! [`crate::engine::multi`]); the tests check that this evaluator with [`crate::value::Normal`] gives
//! their values.

use std::collections::HashMap;

use super::{Outcome, ValueRule};
use crate::engine::budget::{Meter, OverBudget};
use crate::engine::generator::MoveGenerator;
use crate::engine::multi::MAX_OUTSIDE;
use crate::engine::{budget, BoxShape, EngineError, Hint, TableShape};
use crate::rules::program::Stop;
use crate::rules::{Diagnostic, Game};

/// The values of every position of the box `0..=extents[i]` of `game` under `rule`, in
/// row-major order (the last coordinate fastest). Refused before allocating when the box would
/// not fit in memory.
pub fn evaluate<R: ValueRule + ?Sized>(
    rule: &R,
    game: &Game,
    extents: &[u64],
) -> Result<Vec<R::Value>, EngineError> {
    let generator = check_request(game, extents)?;
    let rule_error = |diagnostic: Diagnostic| EngineError::rule(game, diagnostic);
    let shape = BoxShape::new(extents);
    let mut search = Search {
        rule,
        generator,
        inside: vec![None; shape.len()],
        shape,
        outside: HashMap::new(),
        meter: std::cell::Cell::new(Meter::default().left),
        game,
    };
    if generator.decreasing() {
        // Options of heap n lie below n, so one pass in increasing n values them first.
        for n in 0..=extents[0] {
            let value = search.value_from_known(&[n]).map_err(|e| match e {
                Failure::Rule(d) => rule_error(d),
                Failure::Engine(e) => e,
                Failure::Unknown(_) => unreachable!("a heap game's options are smaller heaps"),
            })?;
            search.inside[n as usize] = Some(value);
        }
    } else {
        let mut position = vec![0u64; extents.len()];
        loop {
            search
                .solve(&position)
                .map_err(|e| match e {
                    Failure::Rule(d) => rule_error(d),
                    Failure::Engine(e) => e,
                    Failure::Unknown(_) => unreachable!("the search values every option first"),
                })
                .map_err(|e| name_graph_cycle(game, e))?;
            if !search.shape.step(&mut position) {
                break;
            }
        }
    }
    Ok(search
        .inside
        .into_iter()
        .map(|v| v.expect("valued"))
        .collect())
}

/// The move generator of `game`, once the request for the box `0..=extents[i]` is known to
/// fit: the right number of coordinates, the box's memory, and (for rules) the rule steps
/// estimated over samples of the box. Every evaluator over the move generator starts here.
pub fn check_request<'g>(
    game: &'g Game,
    extents: &[u64],
) -> Result<MoveGenerator<'g>, EngineError> {
    let generator = MoveGenerator::of(game);
    if let Some(graph) = game.graph() {
        if graph.hackenbush.is_some() {
            return Err(EngineError::Hackenbush);
        }
        let n = graph.node_count() as u64;
        if extents.first().is_some_and(|&to| to >= n) {
            return Err(EngineError::Request(format!(
                "the graph has {n} nodes, numbered 0..={}: a box to node {} asks for nodes it does not have",
                n.saturating_sub(1),
                extents[0]
            )));
        }
    }
    if extents.len() != generator.arity() {
        return Err(EngineError::Request(format!(
            "positions of {} have {} coordinates, not {}",
            game.name,
            generator.arity(),
            extents.len()
        )));
    }
    budget::check_memory(
        &TableShape::Box {
            extents: extents.to_vec(),
        },
        None,
    )?;
    if let Some(program) = generator.program() {
        let shape = if generator.decreasing() {
            TableShape::Sequence { to: extents[0] }
        } else {
            TableShape::Box {
                extents: extents.to_vec(),
            }
        };
        budget::check_rule_steps(game, program, &shape)?;
    }
    Ok(generator)
}

/// Values of a box under a value rule, type-erased for reports: each position's value as text
/// and its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueTable {
    rule: &'static str,
    coordinates: Vec<String>,
    shape: BoxShape,
    cells: Vec<(String, Outcome)>,
    /// Each position's name when the positions are a graph's nodes (else empty).
    names: Vec<String>,
}

impl ValueTable {
    /// A table of `cells` in row-major order over the box `0..=extents[i]`.
    pub fn new(
        rule: &'static str,
        coordinates: Vec<String>,
        extents: Vec<u64>,
        cells: Vec<(String, Outcome)>,
    ) -> Self {
        let shape = BoxShape::new(&extents);
        assert_eq!(cells.len(), shape.len(), "one cell per position");
        ValueTable {
            rule,
            coordinates,
            shape,
            cells,
            names: Vec::new(),
        }
    }

    /// The same table, its positions named `names` (a graph's nodes, one name per cell).
    pub fn with_names(mut self, names: Vec<String>) -> Self {
        assert!(
            names.is_empty() || names.len() == self.cells.len(),
            "one name per cell"
        );
        self.names = names;
        self
    }

    /// The positions' names, when they are a graph's nodes (else empty).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The position of the cell at `index` (row-major order).
    pub fn position_of(&self, index: usize) -> Vec<u64> {
        self.shape.position(index)
    }

    /// The value rule's name.
    pub fn rule(&self) -> &'static str {
        self.rule
    }

    /// The coordinates' names.
    pub fn coordinates(&self) -> &[String] {
        &self.coordinates
    }

    /// The largest value of each coordinate.
    pub fn extents(&self) -> &[u64] {
        self.shape.extents()
    }

    /// The value (as text) and outcome of `position`, if it lies in the box.
    pub fn get(&self, position: &[u64]) -> Option<(&str, Outcome)> {
        let index = self.shape.index(position)?;
        self.cells
            .get(index)
            .map(|(text, outcome)| (text.as_str(), *outcome))
    }

    /// Every cell, in row-major order.
    pub fn cells(&self) -> &[(String, Outcome)] {
        &self.cells
    }

    /// The same table with its values dropped (empty texts): outcomes only.
    pub fn outcomes_only(mut self) -> Self {
        self.cells.iter_mut().for_each(|(text, _)| text.clear());
        self
    }

    /// Whether the rule gives values, not only outcomes (a look at every cell).
    pub fn has_values(&self) -> bool {
        self.cells.iter().any(|(text, _)| !text.is_empty())
    }
}

enum Failure {
    Rule(Diagnostic),
    Engine(EngineError),
    /// The value of this option's component is not known yet.
    Unknown(Vec<u64>),
}

struct Search<'a, R: ValueRule + ?Sized> {
    rule: &'a R,
    generator: MoveGenerator<'a>,
    shape: BoxShape,
    inside: Vec<Option<R::Value>>,
    outside: HashMap<Vec<u64>, R::Value>,
    /// Rule steps left of the request's budget ([`Meter`]).
    meter: std::cell::Cell<u64>,
    game: &'a Game,
}

impl<R: ValueRule + ?Sized> Search<'_, R> {
    fn known(&self, position: &[u64]) -> Option<R::Value> {
        match self.shape.index(position) {
            Some(i) => self.inside[i],
            None => self.outside.get(position).copied(),
        }
    }

    fn store(&mut self, position: &[u64], value: R::Value) -> Result<(), Failure> {
        match self.shape.index(position) {
            Some(i) => self.inside[i] = Some(value),
            None => {
                if self.outside.len() >= MAX_OUTSIDE {
                    return Err(Failure::Engine(EngineError::TooManyOutside {
                        limit: MAX_OUTSIDE,
                    }));
                }
                self.outside.insert(position.to_vec(), value);
            }
        }
        Ok(())
    }

    /// The value of `position` from its options' values, which must all be known.
    fn value_from_known(&self, position: &[u64]) -> Result<R::Value, Failure> {
        let arity = self.generator.arity();
        let mut options = Vec::new();
        let mut failure = None;
        let mut left = self.meter.get();
        let listed = self
            .generator
            .for_each_option_within(position, &mut left, &mut |flat| {
                if failure.is_some() {
                    return;
                }
                match self.option_value(flat, arity) {
                    Ok(v) => options.push(v),
                    Err(f) => failure = Some(f),
                }
            });
        self.meter.set(left);
        match listed {
            Ok(()) | Err(Stop::Break) => {}
            Err(Stop::Error(diagnostic)) => return Err(Failure::Rule(diagnostic)),
            Err(Stop::OutOfBudget) => {
                let done = self.inside.iter().filter(|v| v.is_some()).count();
                let limit = budget::steps_limit();
                let why = OverBudget::Steps { limit };
                let hint = if self.generator.decreasing() {
                    Hint::BoundRanges
                } else {
                    Hint::SmallerBox
                };
                return Err(Failure::Engine(budget::over_budget(
                    self.game,
                    self.generator.program(),
                    None,
                    position,
                    why,
                    done as u128,
                    self.inside.len() as u128,
                    hint,
                )));
            }
        }
        if let Some(f) = failure {
            return Err(f);
        }
        Ok(self.rule.of_options(&mut options.into_iter()))
    }

    fn option_value(&self, flat: &[u64], arity: usize) -> Result<R::Value, Failure> {
        let mut values = Vec::with_capacity(flat.len() / arity.max(1));
        for component in flat.chunks(arity) {
            values.push(
                self.known(component)
                    .ok_or_else(|| Failure::Unknown(component.to_vec()))?,
            );
        }
        match values.as_slice() {
            [] => Ok(self.rule.of_options(&mut std::iter::empty())),
            [one] => Ok(*one),
            _ => self.rule.of_sum(&values).ok_or_else(|| {
                Failure::Engine(EngineError::NotValued {
                    rule: self.rule.name(),
                })
            }),
        }
    }

    /// Values `root` and everything it needs, depth first with an explicit stack (no
    /// recursion, so no stack overflow however long the game).
    fn solve(&mut self, root: &[u64]) -> Result<(), Failure> {
        if self.known(root).is_some() {
            return Ok(());
        }
        let mut stack: Vec<Vec<u64>> = vec![root.to_vec()];
        // Each position on the stack, with its depth there.
        let mut on_stack: HashMap<Vec<u64>, usize> = HashMap::new();
        on_stack.insert(root.to_vec(), 0);
        while let Some(top) = stack.last().cloned() {
            match self.value_from_known(&top) {
                Ok(value) => {
                    self.store(&top, value)?;
                    on_stack.remove(&top);
                    stack.pop();
                }
                Err(Failure::Unknown(next)) => {
                    if let Some(&depth) = on_stack.get(&next) {
                        // The stack from `next` up is a path of moves back to `next`.
                        let mut positions = stack[depth..].to_vec();
                        positions.push(next);
                        let rules = vec![None; positions.len() - 1];
                        return Err(Failure::Engine(EngineError::Cycle { positions, rules }));
                    }
                    on_stack.insert(next.clone(), stack.len());
                    stack.push(next);
                }
                Err(other) => return Err(other),
            }
        }
        Ok(())
    }
}

/// A cycle through the nodes of a graph file (or sums of them, `a + b`), named by the nodes'
/// names: [`EngineError::GraphCycle`]; any other error unchanged.
pub fn name_graph_cycle(game: &Game, error: EngineError) -> EngineError {
    match (game.graph(), error) {
        (Some(graph), EngineError::Cycle { positions, .. }) => EngineError::GraphCycle {
            nodes: positions
                .iter()
                .map(|p| {
                    p.iter()
                        .map(|&v| graph.name(v as u32))
                        .collect::<Vec<_>>()
                        .join(" + ")
                })
                .collect(),
        },
        (_, error) => error,
    }
}
