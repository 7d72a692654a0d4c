//! The plain recursion on options: the genus of every position of a box, one position at a
//! time, from its options' genera ([`Genus::from_options`]), without a search over sums.
//!
//! An option is the sum of the components a move leaves. Its genus is known without a search
//! in three cases: no component (the empty game, `0^{120}`), one component (a position, valued
//! by this recursion first), or several components that are all tame, whose genus is Conway's
//! tame sum of theirs ([`Genus::tame_sum`]; ONAG ch. 12, Winning Ways ch. 13: tame games add
//! like misère Nim positions). So a game whose moves never split a component (every option a
//! single position: Fibonacci Nim, subtraction games, most position games) is valued by the
//! recursion `G⁻(terminal) = 1`, `G⁻(G) = mex{G⁻(G')}` (and the genus's other superscripts
//! alike), in time proportional to the number of options listed. Only an option that is a
//! sum of several components, one of them not tame, needs the search over sums of
//! [`Sums`]; a [`Recursion`] either hands that sum to a search of its own
//! ([`Recursion::with_search`]) or stops with [`Unvalued::WildSum`].
//!
//! Heap games are valued in increasing heap size (every move leaves smaller heaps); position
//! games depth first with an explicit stack, memoised over the box and, for positions outside
//! it, a hash map (at most [`MAX_OUTSIDE`]); a move back to a position on the stack is a
//! cycle ([`EngineError::Cycle`]).

use std::collections::HashMap;

use super::genus::{Genus, Species};
use super::sums::{Sums, Valued};
use crate::engine::budget::{self, OverBudget};
use crate::engine::generator::MoveGenerator;
use crate::engine::multi::MAX_OUTSIDE;
use crate::engine::{BoxShape, EngineError, Hint};
use crate::hash::Fast;
use crate::rules::program::Stop;
use crate::rules::Game;

/// Why [`Recursion::value`] gave no genus.
#[derive(Debug)]
pub enum Unvalued {
    /// The engine refused or failed (a rule's error, the step budget, a cycle, the search
    /// over sums past its limit).
    Engine(EngineError),
    /// An option is a sum of several components, one of them not tame, and the recursion has
    /// no search over sums ([`Recursion::with_search`]): `sum` is that option's components,
    /// flattened.
    WildSum {
        /// The components of the option, flattened.
        sum: Vec<u64>,
    },
}

impl From<EngineError> for Unvalued {
    fn from(error: EngineError) -> Self {
        Unvalued::Engine(error)
    }
}

/// The recursion on options over one game (module documentation).
pub struct Recursion<'g> {
    game: &'g Game,
    generator: MoveGenerator<'g>,
    arity: usize,
    shape: BoxShape,
    inside: Vec<Option<Valued>>,
    outside: HashMap<Box<[u64]>, Valued, Fast>,
    steps_left: u64,
    /// The search over sums for options of several components not all tame, when allowed.
    sums: Option<Sums<'g>>,
    search_allowed: bool,
    /// The most sums the search over sums may keep ([`Recursion::with_search_within`]).
    max_sums: usize,
    /// Options listed so far.
    options_listed: u64,
}

/// What one attempt at a position found.
enum Attempt {
    Valued(Valued),
    /// These components of its options are not valued yet.
    Needs(Vec<Vec<u64>>),
}

impl<'g> Recursion<'g> {
    /// A recursion over the positions of `game`, storing those of the box `0..=extents[i]` in
    /// a table (the caller has checked with [`crate::value::evaluate::check_request`] that it
    /// fits) and the others in a hash map. Without a search over sums.
    pub fn new(game: &'g Game, extents: &[u64]) -> Self {
        let generator = MoveGenerator::of(game);
        let shape = BoxShape::new(extents);
        Recursion {
            game,
            generator,
            arity: generator.arity(),
            inside: vec![None; shape.len()],
            shape,
            outside: HashMap::default(),
            steps_left: budget::steps_limit(),
            sums: None,
            search_allowed: false,
            max_sums: super::sums::MAX_SUMS,
            options_listed: 0,
        }
    }

    /// The same recursion handing an option of several components, one not tame, to the
    /// search over sums ([`Sums`], with its limit of sums).
    pub fn with_search(mut self) -> Self {
        self.search_allowed = true;
        self
    }

    /// [`Recursion::with_search`], its search stopping past `max_sums` stored sums
    /// ([`EngineError::TooManySums`]): the running meter of a request's budget. The search is
    /// lazy: it values only the sums the positions asked lead to.
    pub fn with_search_within(mut self, max_sums: usize) -> Self {
        self.search_allowed = true;
        self.max_sums = max_sums;
        self
    }

    /// Options listed so far (each option of each position valued, once).
    pub fn options_listed(&self) -> u64 {
        self.options_listed
    }

    /// Positions valued so far.
    pub fn positions_valued(&self) -> usize {
        self.inside.iter().filter(|v| v.is_some()).count() + self.outside.len()
    }

    /// Sums the search over sums has stored (0 when no option needed it).
    pub fn sums_searched(&self) -> usize {
        self.sums.as_ref().map_or(0, Sums::len)
    }

    /// The genus of `position` if it is valued already.
    pub fn known(&self, position: &[u64]) -> Option<&Valued> {
        match self.shape.index(position) {
            Some(i) => self.inside[i].as_ref(),
            None => self.outside.get(position),
        }
    }

    fn store(&mut self, position: &[u64], valued: Valued) -> Result<(), EngineError> {
        match self.shape.index(position) {
            Some(i) => self.inside[i] = Some(valued),
            None => {
                if self.outside.len() >= MAX_OUTSIDE {
                    return Err(EngineError::TooManyOutside { limit: MAX_OUTSIDE });
                }
                self.outside.insert(position.into(), valued);
            }
        }
        Ok(())
    }

    /// The genus and species of `position` (one component), valuing it and every position
    /// it needs first.
    pub fn value(&mut self, position: &[u64]) -> Result<&Valued, Unvalued> {
        if self.known(position).is_none() {
            self.solve(position)?;
        }
        Ok(self.known(position).expect("valued"))
    }

    /// The genus of the sum of `components` (flattened) when every component is valued and
    /// the sum needs no search: no component, one, or several all tame. `None` otherwise.
    pub fn sum_of_known(&self, components: &[u64]) -> Option<Valued> {
        let mut parts = components.chunks(self.arity.max(1));
        let Some(first) = parts.next() else {
            return Some(Valued {
                genus: Genus::terminal(),
                species: Species::Tame,
            });
        };
        let first = self.known(first)?;
        let mut rest = parts.peekable();
        if rest.peek().is_none() {
            return Some(first.clone());
        }
        if !first.is_tame() {
            return None;
        }
        let mut genus = first.genus.clone();
        for part in rest {
            let valued = self.known(part)?;
            if !valued.is_tame() {
                return None;
            }
            genus = genus.tame_sum(&valued.genus);
        }
        Some(Valued {
            genus,
            species: Species::Tame,
        })
    }

    /// Values `root` and every position it needs. A heap game's heaps in increasing size up
    /// to `root` (every move leaves smaller heaps, so each heap's options are known when it is
    /// reached); a position game depth first with an explicit stack of frames, each position
    /// entered once (its options' unknown components pushed, all at once) and valued when it
    /// is left, so that no position's options are listed more than twice.
    fn solve(&mut self, root: &[u64]) -> Result<(), Unvalued> {
        if self.generator.decreasing() && self.shape.index(root).is_some() {
            for n in 0..=root[0] {
                if self.known(&[n]).is_some() {
                    continue;
                }
                match self.attempt(&[n])? {
                    Attempt::Valued(valued) => self.store(&[n], valued)?,
                    Attempt::Needs(_) => unreachable!("a heap's options are smaller heaps"),
                }
            }
            return Ok(());
        }
        // (position, whether it is being left: its options were entered).
        let mut stack: Vec<(Vec<u64>, bool)> = vec![(root.to_vec(), false)];
        let mut on_path: HashMap<Vec<u64>, (), Fast> = HashMap::default();
        while let Some((top, leaving)) = stack.pop() {
            if !leaving && self.known(&top).is_some() {
                continue;
            }
            match self.attempt(&top)? {
                Attempt::Valued(valued) => {
                    self.store(&top, valued)?;
                    on_path.remove(&top);
                }
                Attempt::Needs(next) => {
                    for component in &next {
                        if on_path.contains_key(component) || component == &top {
                            return Err(self.cycle(&stack, &top, component).into());
                        }
                    }
                    on_path.insert(top.clone(), ());
                    stack.push((top, true));
                    stack.extend(next.into_iter().map(|c| (c, false)));
                }
            }
        }
        Ok(())
    }

    /// The cycle error: the path of positions being left from `back_to` up to `top`, and
    /// `back_to` again.
    fn cycle(&self, stack: &[(Vec<u64>, bool)], top: &[u64], back_to: &[u64]) -> EngineError {
        let path: Vec<Vec<u64>> = stack
            .iter()
            .filter(|(_, leaving)| *leaving)
            .map(|(p, _)| p.clone())
            .chain(std::iter::once(top.to_vec()))
            .collect();
        let from = path.iter().position(|p| p == back_to).unwrap_or(0);
        let mut positions = path[from..].to_vec();
        positions.push(back_to.to_vec());
        let rules = vec![None; positions.len() - 1];
        EngineError::Cycle { positions, rules }
    }

    /// Values `position` from its options, or names every component of its options that is
    /// not valued yet.
    fn attempt(&mut self, position: &[u64]) -> Result<Attempt, Unvalued> {
        let arity = self.arity.max(1);
        // Options by reference into the table where they are single positions inside the
        // box; the others' genera owned.
        let mut inside: Vec<usize> = Vec::new();
        let mut owned: Vec<Genus> = Vec::new();
        let mut all_tame = true;
        let mut needs: Vec<Vec<u64>> = Vec::new();
        let mut wild_sums: Vec<Vec<u64>> = Vec::new();
        let mut listed = 0u64;
        let mut left = self.steps_left;
        let this = &*self;
        let result = this
            .generator
            .for_each_option_within(position, &mut left, &mut |flat| {
                listed += 1;
                for part in flat.chunks(arity) {
                    if this.known(part).is_none() {
                        needs.push(part.to_vec());
                    }
                }
                if !needs.is_empty() {
                    return;
                }
                if flat.len() == arity {
                    if let Some(i) = this.shape.index(flat) {
                        let valued = this.inside[i].as_ref().expect("known");
                        all_tame &= valued.is_tame();
                        inside.push(i);
                        return;
                    }
                }
                match this.sum_of_known(flat) {
                    Some(valued) => {
                        all_tame &= valued.is_tame();
                        owned.push(valued.genus);
                    }
                    None => wild_sums.push(flat.to_vec()),
                }
            });
        self.steps_left = left;
        self.options_listed += listed;
        match result {
            Ok(()) | Err(Stop::Break) => {}
            Err(Stop::Error(diagnostic)) => {
                return Err(EngineError::rule(self.game, diagnostic).into())
            }
            Err(Stop::OutOfBudget) => {
                let hint = if self.generator.decreasing() {
                    Hint::BoundRanges
                } else {
                    Hint::SmallerBox
                };
                let done = self.positions_valued() as u128;
                return Err(budget::over_budget(
                    self.game,
                    self.generator.program(),
                    None,
                    position,
                    OverBudget::Steps {
                        limit: budget::steps_limit(),
                    },
                    done,
                    self.inside.len() as u128,
                    hint,
                )
                .into());
            }
        }
        if !needs.is_empty() {
            needs.sort_unstable();
            needs.dedup();
            return Ok(Attempt::Needs(needs));
        }
        // Options of several components, one not tame: the search over sums, if allowed.
        for flat in wild_sums {
            if !self.search_allowed {
                return Err(Unvalued::WildSum { sum: flat });
            }
            let game = self.game;
            let max_sums = self.max_sums;
            let sums = self
                .sums
                .get_or_insert_with(|| Sums::new(game).with_max_sums(max_sums));
            let valued = sums
                .canonical(&flat)
                .and_then(|sum| sums.value(&sum).cloned())?;
            all_tame &= valued.is_tame();
            owned.push(valued.genus);
        }
        let options: Vec<&Genus> = inside
            .iter()
            .map(|&i| &self.inside[i].as_ref().expect("known").genus)
            .chain(owned.iter())
            .collect();
        let genus = Genus::from_options(&options);
        let species = Species::classify(&genus, all_tame);
        Ok(Attempt::Valued(Valued { genus, species }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::game;

    #[test]
    fn a_cycle_of_positions_is_an_error_naming_it() {
        let looping = game(
            "position (x, y)\nmove a: t in 1..=min(x, 1) => (x - t, y + t)\nmove b: t in 1..=min(y, 1) => (x + t, y - t)",
        );
        let mut recursion = Recursion::new(&looping, &[2, 2]);
        match recursion.value(&[1, 0]) {
            Err(Unvalued::Engine(EngineError::Cycle { positions, .. })) => {
                assert_eq!(positions.first(), positions.last(), "{positions:?}");
                assert!(positions.len() >= 3, "{positions:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn without_a_search_a_sum_with_a_wild_component_is_named() {
        // Kayles: heap 5 is the first that is not tame, and heap 7 may leave 5 + 1.
        let kayles = game("octal 0.77");
        let mut recursion = Recursion::new(&kayles, &[7]);
        assert!(recursion.value(&[5]).is_ok_and(|v| !v.is_tame()));
        match recursion.value(&[7]) {
            Err(Unvalued::WildSum { sum }) => {
                assert!(sum.contains(&5) && sum.len() >= 2, "{sum:?}")
            }
            other => panic!("{other:?}"),
        }
        let mut searching = Recursion::new(&kayles, &[7]).with_search();
        assert!(searching.value(&[7]).is_ok());
        assert!(searching.sums_searched() > 0);
    }
}
