//! The guards a request passes before the engine allocates or works, for heap tables and boxes
//! of positions alike: one memory estimate ([`check_memory`]) and one estimate of rule steps
//! ([`rule_steps`]) from one sampler ([`Samples`]).
//!
//! A heap game's table `G(0..=to)` is the one-coordinate box `0..=to` to both: its memory is
//! that of its narrow storage plus the kernel's working memory, its rule steps are sampled
//! over every `n` in `0..=to`.

use std::ops::ControlFlow;

use super::{estimate, takebreak, EngineError, StepsEvidence, TableShape};
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
                // Odometer step, last coordinate fastest.
                for (c, &extent) in self.position.iter_mut().zip(self.extents).rev() {
                    if *c < extent {
                        *c += 1;
                        break;
                    }
                    *c = 0;
                }
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Steps {
    /// The box's rule steps are estimated at most the limit.
    Within,
    /// Estimated past the limit.
    Over,
    /// A rule failed at a sampled position: the computation would fail (the engine reports
    /// where, at the first position it occurs at).
    Failed,
}

/// Estimates whether the rule steps (binder values and moves) of every position of the box
/// `0..=extents[i]` (a heap game's table: `[to]`) are at most `limit`, from the [`Samples`] of
/// [`WORK_SAMPLES`] positions. The samples share the budget `limit · samples / positions`:
/// past it the estimate is over `limit`, so a box of huge positions costs no more than a small
/// one to judge, and judging costs at most `samples / positions` of the work it allows (a box
/// of at most [`WORK_SAMPLES`] positions is counted exactly, within `limit`).
pub fn rule_steps(program: &Program, extents: &[u64], limit: u64) -> Steps {
    let positions = box_positions(extents);
    let mut samples = Samples::new(extents, WORK_SAMPLES);
    let shared = u128::from(limit) * samples.count() / positions.max(1);
    let mut budget = u64::try_from(shared).unwrap_or(u64::MAX);
    let mut scratch = Scratch::default();
    while let Some(position) = samples.next_position() {
        let run = program.for_each_option(position, &mut scratch, &mut budget, &mut |_, _, _| {
            ControlFlow::Continue(())
        });
        match run {
            Ok(()) => {}
            Err(Stop::Error(_)) => return Steps::Failed,
            Err(_) => return Steps::Over,
        }
    }
    Steps::Within
}

/// Refuses a table or box of general rules whose [`rule_steps`] pass [`RULE_STEPS_LIMIT`]
/// (hours of work): [`EngineError::RulesTooSlow`] for a heap table, [`EngineError::BoxTooSlow`]
/// for a box. Run-time errors are left to the engine, which reports the first position they
/// occur at.
///
/// A heap table is first judged by its last heap alone, allowed `limit / (to + 1)` steps (the
/// ranges of heap rules usually grow with n): a refusal that costs a share of the work instead
/// of [`WORK_SAMPLES`] shares, where a short table of huge ranges would otherwise be counted
/// in full before being refused. The samples across `0..=to` then catch rules whose work lies
/// elsewhere.
pub fn check_rule_steps(
    game: &Game,
    program: &Program,
    shape: &TableShape,
) -> Result<(), EngineError> {
    let limit = RULE_STEPS_LIMIT as u64;
    if let TableShape::Sequence { to } = shape {
        let per_position = (RULE_STEPS_LIMIT / (*to as f64 + 1.0)) as u64;
        let mut budget = per_position;
        let last = program.for_each_option(
            &[*to],
            &mut Scratch::default(),
            &mut budget,
            &mut |_, _, _| ControlFlow::Continue(()),
        );
        if let Err(Stop::OutOfBudget) = last {
            return Err(EngineError::RulesTooSlow {
                to: *to,
                limit,
                evidence: StepsEvidence::LastHeap { per_position },
            });
        }
    }
    let extents = shape.extents();
    if rule_steps(program, &extents, limit) != Steps::Over {
        return Ok(());
    }
    let samples = Samples::new(&extents, WORK_SAMPLES).count() as u64;
    Err(match shape {
        TableShape::Sequence { to } => EngineError::RulesTooSlow {
            to: *to,
            limit,
            evidence: StepsEvidence::Sampled { samples },
        },
        TableShape::Box { extents } => EngineError::BoxTooSlow {
            coordinates: game.coordinates(),
            extents: extents.clone(),
            limit,
            samples,
        },
    })
}

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
        assert_eq!(rule_steps(&program, &[15, 15], 100_000), Steps::Within);
        assert_eq!(
            rule_steps(&program, &[1_000_000_000, 1_000_000_000], 1_000_000_000),
            Steps::Over
        );
        assert_eq!(rule_steps(&program, &[15, 15], 1_000), Steps::Over);
        // Heap rules: the ranges grow with n; sampled across 0..=to.
        let heaps = game("move x in 1..=n * n => n - 1");
        let crate::rules::GameKind::General { program, .. } = &heaps.kind else {
            panic!()
        };
        assert_eq!(rule_steps(program, &[1000], 1_000_000_000), Steps::Within);
        assert_eq!(rule_steps(program, &[100_000], 1_000_000_000), Steps::Over);
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
        let middle = game("move x in 1..=n * (100000 - n) if x == 1 => n - 1");
        let crate::rules::GameKind::General { program, .. } = &middle.kind else {
            panic!()
        };
        let shape = TableShape::Sequence { to: 100_000 };
        assert!(
            matches!(
                check_rule_steps(&middle, program, &shape),
                Err(EngineError::RulesTooSlow {
                    evidence: StepsEvidence::Sampled { samples: 256 },
                    ..
                })
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
}
