//! Genera of sums, exactly: a memoised search over canonical multisets of components.
//!
//! Misère play has no XOR rule, so a position that is a sum (the heaps left by a
//! take-and-break move, several tuples of a position game) is valued as a game of its own:
//! its options replace one component by one of that component's options. A sum is stored
//! canonically, as the sorted list of its components with every component that has no move
//! left out (it is the empty game, and adding it changes nothing), so that every order of the
//! same heaps is valued once.
//!
//! Two theorems keep the search small. A sum of *tame* components (every position of each
//! has a tame genus, [`Genus::is_tame`]) is valued by Conway's tame addition
//! ([`Genus::tame_sum`]) without listing its options; only sums with a wild component are
//! searched. And a component's own genus comes from its options' genera
//! ([`Genus::from_options`]), never from sums with explicit copies of `*2`.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::genus::{Genus, Species};
use crate::engine::budget::{self, OverBudget};
use crate::engine::generator::MoveGenerator;
use crate::engine::progress::Progress;
use crate::engine::{EngineError, Hint};
use crate::hash::Fast;
use crate::rules::program::Stop;
use crate::rules::Game;

/// The most sums the search keeps (about [`BYTES_PER_SUM`] bytes each), counting the sums
/// valued, the components' options listed and the options a search's stack holds: past it the
/// search stops with [`EngineError::TooManySums`].
pub const MAX_SUMS: usize = 5_000_000;

/// Memory of one stored sum (its key, genus and hash-map overhead), for the limit's message.
pub const BYTES_PER_SUM: u64 = 120;

/// A sum in canonical form: its components sorted, `arity` coordinates each, flattened.
pub type Sum = Box<[u64]>;

/// What the search knows of a sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Valued {
    /// Its genus.
    pub genus: Genus,
    /// Tame, restive, restless or wild ([`Species`]).
    pub species: Species,
}

impl Valued {
    /// Whether it is tame: its genus and those of all its positions are tame.
    pub fn is_tame(&self) -> bool {
        self.species.is_tame()
    }
}

/// The search: the genus of any sum of positions of one game.
pub struct Sums<'g> {
    game: &'g Game,
    generator: MoveGenerator<'g>,
    arity: usize,
    /// Each component's options, each a flat list of components (empty heaps left out).
    options: HashMap<Sum, Rc<[Sum]>, Fast>,
    valued: HashMap<Sum, Valued, Fast>,
    /// Rule steps left of the request's budget.
    steps_left: u64,
    max_sums: usize,
    /// Whether sums of tame components are valued by tame addition (off: every sum is
    /// searched through its options, for tests of the theorem).
    tame_addition: bool,
    /// Ticked with the number of sums stored.
    progress: Progress,
    /// Options kept in `options`, all components together: they count against the limit.
    listed: usize,
    /// For one-coordinate games, whether heap `h` has a move (0 not known yet, 1 no, 2 yes):
    /// asked of every heap of every option listed, so kept apart from `options`.
    heap_moves: Vec<u8>,
    /// Misère outcomes (true for P) of sums whose genus is not needed ([`Sums::is_p`]).
    outcomes: HashMap<Sum, bool, Fast>,
}

/// One step of [`Sums::is_p`]: a sum, its options, and the next one to look at.
struct OutcomeFrame {
    sum: Sum,
    options: Vec<Sum>,
    next: usize,
}

/// The heaps whose [`Sums::has_moves`] is kept in a vector rather than looked up.
const HEAP_MOVES_CACHED: u64 = 1 << 20;

/// One step of the depth-first search: a sum and the sums it needs.
struct Frame {
    sum: Sum,
    /// True while the needed sums are the components alone (for tame addition); false once
    /// they are the options.
    components: bool,
    needs: Vec<Sum>,
    next: usize,
}

impl<'g> Sums<'g> {
    /// A search over sums of positions of `game`.
    pub fn new(game: &'g Game) -> Self {
        let generator = MoveGenerator::of(game);
        Sums {
            game,
            generator,
            arity: generator.arity(),
            options: HashMap::default(),
            valued: HashMap::default(),
            steps_left: budget::steps_limit(),
            max_sums: MAX_SUMS,
            tame_addition: true,
            progress: Progress::hidden(),
            listed: 0,
            heap_moves: Vec::new(),
            outcomes: HashMap::default(),
        }
    }

    /// The same search valuing every sum through its options, never by tame addition (for
    /// checking the tame rule against the definition).
    pub fn without_tame_addition(mut self) -> Self {
        self.tame_addition = false;
        self
    }

    /// The same search reporting the number of sums stored to `progress` (ticked as each sum
    /// is stored; [`Sums::finish_progress`] removes a bar).
    pub fn with_progress(mut self, progress: Progress) -> Self {
        self.progress = progress;
        self
    }

    /// Ends the progress display of [`Sums::with_progress`].
    pub fn finish_progress(&mut self) {
        self.progress.finish();
    }

    /// The same search stopping past `max_sums` stored sums (for tests of the limit).
    pub fn with_max_sums(mut self, max_sums: usize) -> Self {
        self.max_sums = max_sums;
        self
    }

    /// Coordinates per component.
    pub fn arity(&self) -> usize {
        self.arity
    }

    /// Sums stored so far.
    pub fn len(&self) -> usize {
        self.valued.len() + self.outcomes.len()
    }

    /// Whether nothing is stored yet.
    pub fn is_empty(&self) -> bool {
        self.valued.is_empty() && self.outcomes.is_empty()
    }

    /// The canonical form of the sum of `components` (`arity` coordinates each, flattened):
    /// sorted, without the components that have no move.
    pub fn canonical(&mut self, components: &[u64]) -> Result<Sum, EngineError> {
        let mut kept: Vec<&[u64]> = Vec::with_capacity(components.len() / self.arity.max(1));
        for component in components.chunks(self.arity) {
            if self.has_moves(component)? {
                kept.push(component);
            }
        }
        kept.sort_unstable();
        Ok(kept.concat().into_boxed_slice())
    }

    /// Whether `component` has a move (a component with none is the empty game, left out of
    /// canonical sums).
    pub fn has_moves(&mut self, component: &[u64]) -> Result<bool, EngineError> {
        if let [heap] = component {
            if *heap < HEAP_MOVES_CACHED {
                let h = *heap as usize;
                if let Some(&known @ 1..=2) = self.heap_moves.get(h) {
                    return Ok(known == 2);
                }
                let moves = !self.component_options(component)?.is_empty();
                if self.heap_moves.len() <= h {
                    self.heap_moves.resize(h + 1, 0);
                }
                self.heap_moves[h] = if moves { 2 } else { 1 };
                return Ok(moves);
            }
        }
        Ok(!self.component_options(component)?.is_empty())
    }

    /// The options of one component, listed once and kept.
    pub fn component_options(&mut self, component: &[u64]) -> Result<Rc<[Sum]>, EngineError> {
        if let Some(options) = self.options.get(component) {
            return Ok(options.clone());
        }
        let heap_game = self.generator.decreasing();
        let mut listed: Vec<Sum> = Vec::new();
        // Each option once: rules whose binders list the same option many times (64 binders
        // of `0..=1` leading to `n - 1`) keep one copy, and the genus needs only the set.
        let mut seen: HashSet<Sum, Fast> = HashSet::default();
        let room = self
            .max_sums
            .saturating_sub(self.valued.len() + self.listed);
        let mut overflow = false;
        let result =
            self.generator
                .for_each_option_within(component, &mut self.steps_left, &mut |flat| {
                    if overflow || seen.contains(flat) {
                        return;
                    }
                    if listed.len() >= room {
                        overflow = true;
                        return;
                    }
                    seen.insert(flat.into());
                    listed.push(flat.into())
                });
        if overflow {
            return Err(EngineError::TooManySums {
                limit: self.max_sums,
                bytes: self.max_sums as u64 * BYTES_PER_SUM,
            });
        }
        match result {
            Ok(()) | Err(Stop::Break) => {}
            Err(Stop::Error(diagnostic)) => return Err(EngineError::rule(self.game, diagnostic)),
            Err(Stop::OutOfBudget) => {
                let hint = if heap_game {
                    Hint::BoundRanges
                } else {
                    Hint::SmallerBox
                };
                return Err(budget::over_budget(
                    self.game,
                    self.generator.program(),
                    None,
                    component,
                    OverBudget::Steps {
                        limit: budget::steps_limit(),
                    },
                    self.valued.len() as u128,
                    self.valued.len() as u128,
                    hint,
                ));
            }
        }
        self.listed += listed.len();
        self.check_limit(0)?;
        let options: Rc<[Sum]> = listed.into();
        self.options.insert(component.into(), options.clone());
        Ok(options)
    }

    /// The options of the canonical sum `sum`: each replaces one component by one of its
    /// options. Each is given with the index of the component moved (in `sum`'s order) and
    /// the components it left; equal components are moved once.
    pub fn options_of(&mut self, sum: &[u64]) -> Result<Vec<(usize, Sum, Sum)>, EngineError> {
        let mut moves = Vec::new();
        self.for_each_option_sum(sum, &mut |i, left, option| {
            moves.push((i, left.clone(), option))
        })?;
        Ok(moves)
    }

    /// Calls `visit` with each option of the canonical sum `sum` as [`Sums::options_of`] lists
    /// them. The option is built by merging: the rest of `sum` is canonical already, so only
    /// the components left by the move are looked up and sorted.
    fn for_each_option_sum(
        &mut self,
        sum: &[u64],
        visit: &mut dyn FnMut(usize, &Sum, Sum),
    ) -> Result<(), EngineError> {
        let arity = self.arity.max(1);
        let count = sum.len() / arity;
        for i in 0..count {
            let component = &sum[i * arity..(i + 1) * arity];
            if i > 0 && &sum[(i - 1) * arity..i * arity] == component {
                continue;
            }
            let options = self.component_options(component)?;
            let mut parts: Vec<&[u64]> = Vec::new();
            for left in options.iter() {
                parts.clear();
                for part in left.chunks(arity) {
                    if self.has_moves(part)? {
                        parts.push(part);
                    }
                }
                parts.sort_unstable();
                let mut flat: Vec<u64> = Vec::with_capacity(sum.len() + left.len());
                let mut new = parts.iter().peekable();
                for (j, old) in sum.chunks(arity).enumerate() {
                    if j == i {
                        continue;
                    }
                    while let Some(part) = new.next_if(|p| **p < old) {
                        flat.extend_from_slice(part);
                    }
                    flat.extend_from_slice(old);
                }
                for part in new {
                    flat.extend_from_slice(part);
                }
                visit(i, left, flat.into_boxed_slice());
            }
        }
        Ok(())
    }

    /// What the search knows of the canonical sum `sum`, valuing it (and every sum it needs)
    /// first if need be.
    pub fn value(&mut self, sum: &[u64]) -> Result<&Valued, EngineError> {
        if !self.valued.contains_key(sum) {
            self.search(sum.into())?;
        }
        Ok(&self.valued[sum])
    }

    /// Whether the canonical sum `sum` is a misère P-position, when only its outcome is
    /// needed (not its genus): a memoised search that stops at a sum's first option that is a
    /// P-position (the sum is then an N-position), so that most options of N-positions are
    /// never visited. A sum of one component, or of components all tame (valued by tame
    /// addition), or valued already, is read off its genus. The outcomes kept count against
    /// the limit with the sums valued.
    pub fn is_p(&mut self, sum: &[u64]) -> Result<bool, EngineError> {
        if let Some(p) = self.quick_outcome(sum)? {
            return Ok(p);
        }
        let first = self.outcome_frame(sum.into())?;
        let mut stack = vec![first];
        // The outcome of the frame just finished, for the frame below it.
        let mut finished: Option<bool> = None;
        while let Some(top) = stack.last_mut() {
            let mut p_option = false;
            match finished.take() {
                Some(true) => p_option = true,
                Some(false) => top.next += 1,
                None => {}
            }
            let mut descend = None;
            if !p_option {
                while top.next < top.options.len() {
                    let option = top.options[top.next].clone();
                    match self.quick_outcome(&option)? {
                        Some(true) => {
                            p_option = true;
                            break;
                        }
                        Some(false) => {}
                        None => {
                            descend = Some(option);
                            break;
                        }
                    }
                    top.next += 1;
                }
            }
            if let Some(option) = descend {
                let frame = self.outcome_frame(option)?;
                stack.push(frame);
                continue;
            }
            // An option that is a P-position makes an N-position; none, a P-position.
            let done = stack.pop().expect("a frame");
            let p = !p_option;
            if self.valued.len() + self.listed + self.outcomes.len() >= self.max_sums {
                return Err(EngineError::TooManySums {
                    limit: self.max_sums,
                    bytes: self.max_sums as u64 * BYTES_PER_SUM,
                });
            }
            self.outcomes.insert(done.sum, p);
            self.progress
                .tick((self.valued.len() + self.outcomes.len()) as u64);
            finished = Some(p);
        }
        Ok(finished.expect("the root's outcome"))
    }

    /// The outcome of `sum` without a search of its own, when it is known or follows from
    /// genera: no component (an N-position), one component (its genus, by [`Sums::value`]),
    /// components all tame (tame addition), or kept already.
    fn quick_outcome(&mut self, sum: &[u64]) -> Result<Option<bool>, EngineError> {
        if sum.is_empty() {
            return Ok(Some(false));
        }
        if let Some(&p) = self.outcomes.get(sum) {
            return Ok(Some(p));
        }
        if let Some(valued) = self.valued.get(sum) {
            return Ok(Some(valued.genus.misere() == 0));
        }
        let arity = self.arity.max(1);
        if sum.len() == arity {
            return Ok(Some(self.value(sum)?.genus.misere() == 0));
        }
        let mut genus: Option<Genus> = None;
        for component in sum.chunks(arity) {
            let valued = self.value(component)?;
            if !valued.is_tame() {
                return Ok(None);
            }
            genus = Some(match genus {
                None => valued.genus.clone(),
                Some(g) => g.tame_sum(&valued.genus),
            });
        }
        Ok(genus.map(|g| g.misere() == 0))
    }

    fn outcome_frame(&mut self, sum: Sum) -> Result<OutcomeFrame, EngineError> {
        let options = self.option_sums(&sum)?;
        self.check_limit(options.len())?;
        Ok(OutcomeFrame {
            sum,
            options,
            next: 0,
        })
    }

    /// The genus of the canonical sum `sum` if it is valued already.
    pub fn known(&self, sum: &[u64]) -> Option<&Valued> {
        self.valued.get(sum)
    }

    /// Values `root` depth first, with an explicit stack (no recursion, however long the
    /// game); a sum that needs itself is a cycle of moves. The sums the stack's frames hold
    /// (the options listed and not yet valued) and the components' options kept count against
    /// the limit with those stored: a long descent (a large heap whose options are its smaller
    /// heaps' sums) stops before its lists of options outgrow memory.
    fn search(&mut self, root: Sum) -> Result<(), EngineError> {
        let mut on_path: HashSet<Sum, Fast> = HashSet::default();
        let first = self.frame(root)?;
        on_path.insert(first.sum.clone());
        let mut held = first.needs.len();
        let mut stack = vec![first];
        while let Some(top) = stack.last_mut() {
            self.check_limit(held)?;
            // The next sum this frame needs that is not valued yet.
            while top.next < top.needs.len() && self.valued.contains_key(&top.needs[top.next]) {
                top.next += 1;
            }
            if top.next < top.needs.len() {
                let needed = top.needs[top.next].clone();
                if on_path.contains(&needed) {
                    return Err(self.cycle(&stack, &needed));
                }
                let frame = self.frame(needed)?;
                on_path.insert(frame.sum.clone());
                held += frame.needs.len();
                stack.push(frame);
                continue;
            }
            if top.components {
                // Every component, repeated ones as often as they occur (`needs` has each once).
                let parts: Vec<&Valued> = top
                    .sum
                    .chunks(self.arity)
                    .map(|c| &self.valued[c])
                    .collect();
                if parts.iter().all(|p| p.is_tame()) {
                    let genus = parts
                        .iter()
                        .skip(1)
                        .fold(parts[0].genus.clone(), |sum, p| sum.tame_sum(&p.genus));
                    let sum = top.sum.clone();
                    self.store(
                        sum,
                        Valued {
                            genus,
                            species: Species::Tame,
                        },
                    )?;
                    let done = stack.pop().expect("a frame");
                    held -= done.needs.len();
                    on_path.remove(&done.sum);
                    continue;
                }
                let sum = top.sum.clone();
                let needs = self.option_sums(&sum)?;
                let top = stack.last_mut().expect("a frame");
                held = held - top.needs.len() + needs.len();
                top.components = false;
                top.needs = needs;
                top.next = 0;
                continue;
            }
            let options: Vec<&Valued> = top.needs.iter().map(|o| &self.valued[o]).collect();
            let genus = Genus::from_options(&options.iter().map(|o| &o.genus).collect::<Vec<_>>());
            let species = Species::classify(&genus, options.iter().all(|o| o.is_tame()));
            let sum = top.sum.clone();
            self.store(sum, Valued { genus, species })?;
            let done = stack.pop().expect("a frame");
            held -= done.needs.len();
            on_path.remove(&done.sum);
        }
        Ok(())
    }

    /// The frame of `sum`: its components first when it has several (tame addition may value
    /// it), its options otherwise.
    fn frame(&mut self, sum: Sum) -> Result<Frame, EngineError> {
        let count = sum.len() / self.arity.max(1);
        if count >= 2 && self.tame_addition {
            let mut needs: Vec<Sum> = sum.chunks(self.arity).map(Into::into).collect();
            needs.dedup();
            return Ok(Frame {
                sum,
                components: true,
                needs,
                next: 0,
            });
        }
        let needs = self.option_sums(&sum)?;
        Ok(Frame {
            sum,
            components: false,
            needs,
            next: 0,
        })
    }

    /// The distinct options of `sum` (moves in different components often leave the same
    /// sum: each is looked up once).
    fn option_sums(&mut self, sum: &[u64]) -> Result<Vec<Sum>, EngineError> {
        let mut options = Vec::new();
        self.for_each_option_sum(sum, &mut |_, _, option| options.push(option))?;
        options.sort_unstable();
        options.dedup();
        Ok(options)
    }

    /// [`EngineError::TooManySums`] when the sums stored, the components' options kept and
    /// `held` more (those a search's stack holds) are past the limit.
    fn check_limit(&self, held: usize) -> Result<(), EngineError> {
        if self.valued.len() + self.listed + held > self.max_sums {
            return Err(EngineError::TooManySums {
                limit: self.max_sums,
                bytes: self.max_sums as u64 * BYTES_PER_SUM,
            });
        }
        Ok(())
    }

    fn store(&mut self, sum: Sum, valued: Valued) -> Result<(), EngineError> {
        if self.valued.len() >= self.max_sums {
            return Err(EngineError::TooManySums {
                limit: self.max_sums,
                bytes: self.max_sums as u64 * BYTES_PER_SUM,
            });
        }
        self.valued.insert(sum, valued);
        self.progress.tick(self.valued.len() as u64);
        Ok(())
    }

    /// The cycle error: the sums on the stack from `back_to` up, and `back_to` again.
    fn cycle(&self, stack: &[Frame], back_to: &[u64]) -> EngineError {
        let from = stack.iter().position(|f| &*f.sum == back_to).unwrap_or(0);
        let mut positions: Vec<Vec<u64>> = stack[from..].iter().map(|f| f.sum.to_vec()).collect();
        positions.push(back_to.to_vec());
        let rules = vec![None; positions.len() - 1];
        EngineError::Cycle { positions, rules }
    }
}
