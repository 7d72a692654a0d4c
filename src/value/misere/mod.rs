//! Misère play: the player who cannot move *wins* (the last player to move loses).
//!
//! A position's misère Grundy value is `G⁻(0) = 1` for a position with no move and
//! `G⁻(G) = mex{G⁻(G')}` otherwise; the player to move loses iff `G⁻ = 0`. Unlike normal
//! play, `G⁻` of a sum is not determined by the components' values, so a move leaving
//! several components is valued by tame addition when they are all tame and otherwise by the
//! search over sums of [`sums`]; a position alone by the recursion on options of [`plain`].
//! Every position is given its full [`Genus`] (Conway), from which tameness follows.
//!
//! [`Misere`] is the value rule (registered as `misere`); [`table`] values every position of a
//! heap table or a box with both conventions side by side.

pub mod genus;
pub mod plain;
pub mod quotient;
pub mod sums;

pub use genus::{Genus, Species};
pub use plain::{Recursion, Unvalued};
pub use sums::{Sum, Sums, Valued};

use std::sync::Arc;

use super::evaluate;
use super::{DynRule, Outcome, Request};
use crate::engine::progress::{Progress, ProgressSink};
use crate::engine::{BoxShape, BoxTable, EngineError, SgTable, Table};
use crate::rules::Game;

/// Misère play valued by misère Grundy values (with the genus of every position).
#[derive(Clone, Copy, Debug, Default)]
pub struct Misere;

impl DynRule for Misere {
    fn name(&self) -> &'static str {
        "misere"
    }

    fn about(&self) -> &'static str {
        "misère play: misère values G⁻ and genera (the last player to move loses)"
    }

    fn kind(&self, _: &Game) -> super::TableKind {
        super::TableKind::Misere
    }

    fn value(&self, game: &Game, request: &Request<'_>) -> Result<super::Valued, EngineError> {
        Ok(super::Valued::Misere(table(
            game,
            &request.extents,
            request.options.progress.clone(),
        )?))
    }
}

/// One position's worth in both conventions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Its genus: the normal Grundy value `g` and the misère superscripts (`γ0 = G⁻`).
    pub genus: Genus,
    /// Tame, restive, restless or wild ([`Species`]).
    pub species: Species,
}

impl Cell {
    /// Whether the position is tame (its genus and all its positions' are tame).
    pub fn is_tame(&self) -> bool {
        self.species.is_tame()
    }

    /// The normal-play Grundy value.
    pub fn normal(&self) -> u32 {
        self.genus.normal
    }

    /// The misère Grundy value `G⁻`.
    pub fn misere(&self) -> u32 {
        self.genus.misere()
    }

    /// The misère outcome: P (the player to move loses) iff `G⁻ = 0`.
    pub fn outcome(&self) -> Outcome {
        Outcome::of_value(self.misere())
    }
}

/// Every position of a heap table `0..=to` or a box, valued in both conventions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereTable {
    /// The coordinates' names (one, the heap's, for a heap game).
    pub coordinates: Vec<String>,
    /// The largest value of each coordinate.
    pub extents: Vec<u64>,
    /// The cells in row-major order (the last coordinate fastest).
    pub cells: Vec<Cell>,
    /// Whether the positions are heaps (one coordinate, every move to smaller heaps).
    pub heap_game: bool,
}

impl MisereTable {
    /// The misère Grundy values `G⁻`, in row-major order.
    pub fn misere_values(&self) -> Vec<u32> {
        self.cells.iter().map(Cell::misere).collect()
    }

    /// The misère values as a [`Table`] (a sequence for a heap game, a box otherwise), for
    /// the exporters and analyses of normal values (charts, code, patterns, periods).
    pub fn misere_table(&self) -> Table {
        let values = self.misere_values();
        if self.heap_game {
            Table::sequence(&self.coordinates[0], SgTable::from_values(&values))
        } else {
            Table::Box(BoxTable::new(
                self.coordinates.clone(),
                self.extents.clone(),
                values,
            ))
        }
    }

    /// The first heap (or position, in row-major order) that is wild, if any.
    pub fn first_wild(&self) -> Option<usize> {
        self.cells.iter().position(|c| !c.is_tame())
    }

    /// The coordinates of the cell at `index`.
    pub fn position_of(&self, index: usize) -> Vec<u64> {
        BoxShape::new(&self.extents).position(index)
    }
}

/// Values every position of the box `0..=extents[i]` of `game` (for a heap game, one extent:
/// the heaps `0..=to`) in normal and misère play, by the recursion on options of [`plain`]:
/// each position from its options' genera, an option of several components by tame addition
/// when they are all tame, and by the search over sums of [`Sums`] only when one is not (so a
/// game whose moves never split a component never searches sums). Refused before any work,
/// like [`evaluate::evaluate`], when the box does not fit or its rules would take hours;
/// `progress` hears how far it got.
pub fn table(
    game: &Game,
    extents: &[u64],
    progress: Option<Arc<dyn ProgressSink>>,
) -> Result<MisereTable, EngineError> {
    let (table, stopped) = table_until(game, extents, progress, false)?;
    match stopped {
        Some(error) => Err(error),
        None => Ok(table),
    }
}

/// Bytes a position of a misère table costs: its cell in the table returned, its slot in the
/// recursion's table, and the two copies of its genus's superscripts (a few entries each,
/// with the allocator's overhead).
pub const BYTES_PER_POSITION: u64 =
    (std::mem::size_of::<Cell>() + std::mem::size_of::<Option<Valued>>() + 2 * 32) as u64;

/// Refuses a misère table of the box `0..=extents[i]` whose positions, at
/// [`BYTES_PER_POSITION`] each, pass the memory available ([`EngineError::TooLarge`]): checked
/// before the recursion's table and the cells are allocated.
pub fn check_memory(extents: &[u64]) -> Result<(), EngineError> {
    let positions = crate::engine::budget::box_positions(extents);
    let needed = positions.saturating_mul(u128::from(BYTES_PER_POSITION));
    let available_bytes = crate::engine::available_memory();
    if needed > u128::from(available_bytes) || positions > (usize::MAX / 64) as u128 {
        let size = match extents {
            [to] => crate::engine::TableSize::Sequence { to: *to },
            _ => crate::engine::TableSize::Box { positions },
        };
        return Err(EngineError::TooLarge {
            size,
            needed_bytes: u64::try_from(needed).unwrap_or(u64::MAX),
            available_bytes,
        });
    }
    Ok(())
}

/// The sums a misère table's search over sums may store while it runs: its running meter.
/// The search is lazy, from the heaps asked, so the table goes as far as its positions need
/// within this many sums, then stops with the located [`EngineError::OverBudget`] naming the
/// heaps valued. At the search's rate (some 3·10^4 sums a second, a third of it on a loaded
/// machine) that is well under a minute; Kayles gets to heap 55.
pub const TABLE_SUMS: u128 = 400_000;

/// `Σ_{s ≤ n} p(s)`, the multisets of positive heaps with at most `n` tokens in all, for every
/// `n` up to the first past `cap` (saturating): the bound on the sums a heap's options lead to
/// under a take-and-break code, where no move adds tokens.
fn multisets_up_to(cap: u128) -> Vec<u128> {
    // p(s) by Euler's recurrence over the parts, grown until the running total passes `cap`.
    let mut counts: Vec<u128> = vec![1];
    let mut totals: Vec<u128> = vec![1];
    while *totals.last().expect("one") <= cap && counts.len() < 4096 {
        let n = counts.len();
        // p(n) = Σ_k (−1)^{k+1} (p(n − k(3k−1)/2) + p(n − k(3k+1)/2)).
        let (mut plus, mut minus) = (0u128, 0u128);
        for k in 1.. {
            let a = k * (3 * k - 1) / 2;
            if a > n {
                break;
            }
            let b = k * (3 * k + 1) / 2;
            let mut term = counts[n - a];
            if b <= n {
                term = term.saturating_add(counts[n - b]);
            }
            if k % 2 == 1 {
                plus = plus.saturating_add(term);
            } else {
                minus = minus.saturating_add(term);
            }
        }
        counts.push(plus.saturating_sub(minus));
        let total = totals[n - 1].saturating_add(counts[n]);
        totals.push(total);
    }
    totals
}

/// An up-front *estimate* (a worst case, never a refusal) of the sums the search over sums
/// may need for sums of heaps up to `largest` with at most `tokens` tokens in all, of a
/// take-and-break code (or of rules equal to one up to `largest`, so that no move adds
/// tokens): every multiset of heaps with at most `tokens` tokens, `Σ_{s ≤ T} p(s)`, in words
/// (`up to 6.6e6`, or `more than …` when it was not counted to the end). `None` when the
/// bound does not apply (position games, other rules) or is within `cap`. The search itself
/// is lazy and metered ([`TABLE_SUMS`]): it usually needs far fewer.
pub fn sums_estimate(game: &Game, largest: u64, tokens: u64, cap: u128) -> Option<String> {
    if game.position_program().is_some() || game.graph().is_some() {
        return None;
    }
    let token_rule = game.code().is_some()
        && game
            .lowering()
            .is_none_or(|lowering| lowering.exact_to(largest));
    if !token_rule {
        return None;
    }
    let totals = multisets_up_to(u128::MAX / 4);
    match usize::try_from(tokens).ok().and_then(|t| totals.get(t)) {
        Some(&b) if b <= cap => None,
        Some(&b) if b < u128::MAX / 4 => Some(format!(
            "up to {}",
            crate::engine::estimate::count(b as f64)
        )),
        _ => Some(format!(
            "more than {}",
            crate::engine::estimate::count(*totals.last().expect("one") as f64)
        )),
    }
}

/// [`table`], but when `keep_partial` is set a search over sums that reaches its limit
/// ([`EngineError::TooManySums`]) after the first position ends the table there instead: the
/// positions valued so far are returned with the error that stopped them (for analyses that
/// use as many values as can be had, such as a period search).
pub fn table_until(
    game: &Game,
    extents: &[u64],
    progress: Option<Arc<dyn ProgressSink>>,
    keep_partial: bool,
) -> Result<(MisereTable, Option<EngineError>), EngineError> {
    let generator = evaluate::check_request(game, extents)?;
    check_memory(extents)?;
    // The search over sums is lazy (it values only the sums the positions asked lead to) and
    // metered while it runs: past TABLE_SUMS stored sums the table stops, located.
    let mut recursion =
        plain::Recursion::new(game, extents).with_search_within(TABLE_SUMS as usize);
    let shape = BoxShape::new(extents);
    let size = shape.len() as u64;
    let mut bar = Progress::new(0, size, progress);
    let mut table = MisereTable {
        coordinates: game.coordinates(),
        extents: extents.to_vec(),
        cells: Vec::with_capacity(size as usize),
        heap_game: generator.decreasing(),
    };
    for index in 0..size {
        let position = shape.position(index as usize);
        let valued = match recursion.value(&position) {
            Ok(valued) => Ok(valued.clone()),
            Err(plain::Unvalued::Engine(error)) => Err(error),
            Err(plain::Unvalued::WildSum { .. }) => unreachable!("the recursion searches sums"),
        };
        match valued {
            Ok(valued) => table.cells.push(Cell {
                genus: valued.genus,
                species: valued.species,
            }),
            Err(error @ EngineError::TooManySums { .. })
                if keep_partial && index > 0 && table.heap_game =>
            {
                bar.finish();
                table.extents = vec![index - 1];
                return Ok((table, Some(error)));
            }
            Err(EngineError::TooManySums { limit, bytes }) => {
                bar.finish();
                let hint = if table.heap_game {
                    crate::engine::Hint::TableBelow(index.max(1))
                } else {
                    crate::engine::Hint::SmallerBox
                };
                return Err(crate::engine::budget::over_budget(
                    game,
                    generator.program(),
                    None,
                    &position,
                    crate::engine::budget::OverBudget::MisereSums { limit, bytes },
                    u128::from(index),
                    u128::from(size),
                    hint,
                ));
            }
            Err(error) => return Err(evaluate::name_graph_cycle(game, error)),
        }
        bar.tick(index + 1);
    }
    bar.finish();
    Ok((table, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::game;

    #[test]
    fn the_sums_bound_counts_partitions() {
        // p(s) by the parts' recurrence, independent of Euler's pentagonal one used above.
        let n = 120;
        let mut p = vec![0u128; n + 1];
        p[0] = 1;
        for part in 1..=n {
            for s in part..=n {
                p[s] += p[s - part];
            }
        }
        assert_eq!(p[100], 190_569_292); // OEIS A000041
        let totals = multisets_up_to(u128::MAX / 4);
        let mut running = 0;
        for (s, &count) in p.iter().enumerate() {
            running += count;
            assert_eq!(totals[s], running, "s = {s}");
        }
        // Kayles: heaps with up to 50 tokens are within 1.5e6 sums (Σ_{s ≤ 50} p(s) =
        // 1 295 971), 51 are not.
        let kayles = game("octal 0.77");
        assert_eq!(sums_estimate(&kayles, 50, 50, 1_500_000), None);
        assert_eq!(
            sums_estimate(&kayles, 51, 51, 1_500_000).as_deref(),
            Some("up to 1.5e6")
        );
        // A position game has no such bound.
        let positions = game("position (x, y)\nmove t in 1..=x => (x - t, y)");
        assert_eq!(sums_estimate(&positions, 9, 1000, TABLE_SUMS), None);
    }
}
