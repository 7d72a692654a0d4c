//! Sprague–Grundy kernels: `G(0..=N)` for a heap game.
//!
//! * [`takebreak`]: the fast kernel for take-and-break codes (every family form, and general
//!   rules that lower to a code), with rayon parallelism over the splits of large heaps;
//! * [`sparse`]: the rare/common-values kernel that [`takebreak`] hands long tables of finite
//!   octal codes to;
//! * [`general`]: compiled general move rules;
//! * [`multi`]: position games (`position (x, y)`) over a box, by waves or a cycle-checking
//!   search;
//! * [`naive`]: deliberately simple reference engines (explicit partitions, a tree-walking
//!   interpreter) that the property tests compare the fast kernels against.
//!
//! All of them share the bitset mex of [`mex`] and the narrow storage of [`table`].
//! [`checkpoint`] saves a computed prefix so that a long run can be resumed, and
//! [`extend_in_chunks`] gives its caller a chance to save one (or to stop) every second or so.

pub mod boxtable;
pub mod checkpoint;
pub mod estimate;
pub mod general;
pub mod interp;
pub mod mex;
pub mod multi;
pub mod naive;
pub mod progress;
pub mod sparse;
pub mod table;
pub mod takebreak;

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::rules::{Diagnostic, Game, GameKind, SourceFile};
pub use mex::MexSet;
pub use progress::Progress;
pub use table::SgTable;
use takebreak::KernelState;

/// How to run a kernel.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// Show a progress bar on stderr (only drawn on a terminal, and only for runs over a second).
    pub progress: bool,
}

/// Why a table could not be computed.
#[derive(Debug, Error)]
pub enum EngineError {
    /// The request would not fit in memory; refused before allocating.
    #[error(
        "a table up to n = {to} needs about {} but only {} is available\n  help: ask for a smaller --to/--max",
        human_bytes(*.needed_bytes),
        human_bytes(*.available_bytes)
    )]
    TooLarge {
        /// The largest position asked for.
        to: u64,
        /// Estimated bytes for the table and the kernel's working memory.
        needed_bytes: u64,
        /// Bytes the machine has available.
        available_bytes: u64,
    },
    /// The request would take far too long (a code whose `!`/`?` digits leave three or more
    /// heaps is computed by listing partitions, whose number grows exponentially).
    #[error(
        "G(0..={to}) of this code would list more than {LISTING_LIMIT:e} partitions: its `!`/`?` digits that leave three or more heaps are computed one partition at a time\n  help: ask for --to/--max below {feasible_to}"
    )]
    TooSlow {
        /// The largest position asked for.
        to: u64,
        /// The largest position within the work limit.
        feasible_to: u64,
    },
    /// General rules whose ranges are so large that the table would take hours.
    #[error(
        "the rules loop over more than {per_position} values at n = {to} alone, so G(0..={to}) would take more than {RULE_STEPS_LIMIT:e} steps\n  help: bound the ranges by n (e.g. `x in 1..=n`), or ask for a smaller --to/--max"
    )]
    RulesTooSlow {
        /// The largest position asked for.
        to: u64,
        /// The budget of loop steps one position was allowed.
        per_position: u64,
    },
    /// The caller's hook of [`extend_in_chunks`] asked to stop (e.g. on Ctrl-C); the table
    /// holds `G(0..at)`.
    #[error("interrupted at n = {at}")]
    Interrupted {
        /// How many values the table holds.
        at: u64,
    },
    /// A general rule did something the engine cannot evaluate (e.g. a move to a larger heap).
    #[error("{}", .diagnostic.render(.file))]
    Rule {
        /// What went wrong, located in the rules text.
        diagnostic: Box<Diagnostic>,
        /// The rules text.
        file: Box<SourceFile>,
    },
}

/// Computes `G(0..=to)` for `game`.
pub fn compute(game: &Game, to: u64, options: &EngineOptions) -> Result<SgTable, EngineError> {
    let mut table = SgTable::new();
    extend(game, &mut table, to, options)?;
    Ok(table)
}

/// Loop steps (binder values and moves) general rules may take for one request.
pub const RULE_STEPS_LIMIT: f64 = 2e10;

/// Partitions the take-and-break kernel may list for one request (about a minute of work).
pub const LISTING_LIMIT: f64 = 2e10;

/// Extends `table` (holding `G(0..len)`) so that it holds `G(0..=to)`.
///
/// The memory check runs first, so a request that cannot fit is refused before allocating.
pub fn extend(
    game: &Game,
    table: &mut SgTable,
    to: u64,
    options: &EngineOptions,
) -> Result<(), EngineError> {
    let Some(len) = prepare(game, table, to)? else {
        return Ok(());
    };
    // Room for every value (address space only until written), which also tells the table
    // whether it is large enough to store values from 256 to 511 in 9 bits.
    table.reserve(len - table.len());
    let mut progress = Progress::new(table.len() as u64, len as u64, options.progress);
    let result = extend_kernel(game, table, len, &mut progress, &mut KernelState::default());
    progress.finish();
    result
}

/// The refusals that come before any work (memory, partition listing, rule loop steps), then
/// the table length to reach, or `None` when `table` already holds `G(0..=to)`.
fn prepare(game: &Game, table: &SgTable, to: u64) -> Result<Option<usize>, EngineError> {
    check_memory(game, to)?;
    if let Some(feasible_to) = feasible_to(game, to) {
        return Err(EngineError::TooSlow { to, feasible_to });
    }
    let len = to as usize + 1;
    if table.len() >= len {
        return Ok(None);
    }
    if let GameKind::General {
        program,
        lowered: None,
    } = &game.kind
    {
        check_rule_steps(program, to)?;
    }
    Ok(Some(len))
}

/// The hook [`extend_in_chunks`] calls between chunks with the table so far; returning
/// [`ControlFlow::Break`] stops the computation.
pub type ChunkHook<'a> = dyn FnMut(&SgTable) -> ControlFlow<()> + 'a;

/// The first chunk of [`extend_in_chunks`], in positions.
const FIRST_CHUNK: usize = 1 << 12;

/// [`extend_in_chunks`] aims at chunks taking about this long: short enough that Ctrl-C is
/// answered quickly, long enough that the kernels' per-call set-up stays a small part of the
/// work (the dense kernel rebuilds its working state from the table; the sparse one keeps it).
const CHUNK_TIME: Duration = Duration::from_millis(500);

/// [`extend`], computing the table in chunks and calling `between_chunks` with the table after
/// each one (and once before the first). When the hook returns [`ControlFlow::Break`] the
/// computation stops with [`EngineError::Interrupted`], the table holding every value computed
/// so far. The values are exactly those of [`extend`]: every kernel extends a table from any
/// prefix of it.
///
/// Chunks start at 4096 positions and double or halve so that each takes about half a second.
/// The sparse kernel keeps its working state from one chunk to the next (Grundy's game to 2^26
/// with a checkpoint: 109.7 s, against 105.4 s in one call; 127.2 s when every chunk rebuilt it).
pub fn extend_in_chunks(
    game: &Game,
    table: &mut SgTable,
    to: u64,
    options: &EngineOptions,
    between_chunks: &mut ChunkHook<'_>,
) -> Result<(), EngineError> {
    let Some(len) = prepare(game, table, to)? else {
        return Ok(());
    };
    // As in `extend`: the table knows its final size from the first chunk on.
    table.reserve(len - table.len());
    let mut progress = Progress::new(table.len() as u64, len as u64, options.progress);
    let mut chunk = FIRST_CHUNK;
    let mut state = KernelState::default();
    let result = loop {
        if between_chunks(table).is_break() {
            break Err(EngineError::Interrupted {
                at: table.len() as u64,
            });
        }
        if table.len() >= len {
            break Ok(());
        }
        let started = Instant::now();
        let end = table.len().saturating_add(chunk).min(len);
        if let Err(e) = extend_kernel(game, table, end, &mut progress, &mut state) {
            break Err(e);
        }
        let took = started.elapsed();
        if took < CHUNK_TIME / 2 {
            chunk = chunk.saturating_mul(2);
        } else if took > CHUNK_TIME * 2 {
            chunk = (chunk / 2).max(64);
        }
    };
    progress.finish();
    result
}

/// Runs the game's kernel from `table.len()` to `len` values, keeping the kernels' working
/// state in `state` for the next call on the same table.
fn extend_kernel(
    game: &Game,
    table: &mut SgTable,
    len: usize,
    progress: &mut Progress,
    state: &mut KernelState,
) -> Result<(), EngineError> {
    match &game.kind {
        GameKind::Code { code, .. }
        | GameKind::General {
            lowered: Some(code),
            ..
        } => {
            takebreak::extend_keeping(code, table, len, progress, state);
            Ok(())
        }
        GameKind::General {
            program,
            lowered: None,
        } => {
            general::extend(program, table, len, progress).map_err(|diagnostic| EngineError::Rule {
                diagnostic: Box::new(diagnostic),
                file: Box::new(game.source.clone()),
            })
        }
    }
}

/// Refuses rules whose work at the largest position, times the number of positions, passes
/// [`RULE_STEPS_LIMIT`] (ranges usually grow with n, so the last position is the costliest).
/// Run-time errors are left to the engine, which reports the first position they occur at.
fn check_rule_steps(program: &crate::rules::Program, to: u64) -> Result<(), EngineError> {
    let per_position = (RULE_STEPS_LIMIT / (to as f64 + 1.0)) as u64;
    let mut budget = per_position;
    match program.for_each_move_within(to, &mut budget, &mut |_| {}) {
        Err(crate::rules::program::Stop::OutOfBudget) => {
            Err(EngineError::RulesTooSlow { to, per_position })
        }
        _ => Ok(()),
    }
}

/// `Some(m)` when computing `G(0..=to)` would exceed [`LISTING_LIMIT`] while `G(0..=m)` would
/// not; `None` when the request is within the limit.
pub fn feasible_to(game: &Game, to: u64) -> Option<u64> {
    let code = game.code()?;
    let len = usize::try_from(to).ok()?.checked_add(1)?;
    let first_too_long = takebreak::listing_work_exceeds(code, len, LISTING_LIMIT)?;
    Some(first_too_long.saturating_sub(2) as u64)
}

/// Estimated peak bytes for `G(0..=to)`: the table (assuming the widest storage, since values
/// are not known in advance) plus per-position working memory of the kernel.
pub fn estimate_bytes(game: &Game, to: u64) -> u64 {
    let values = to.saturating_add(1);
    let per_value = 4 + match game.code() {
        Some(code) => takebreak::working_bytes_per_position(code),
        None => 0,
    };
    // Bitset levels grow with the values (hex 0.9: n²/16 bytes).
    let levels = game
        .code()
        .map_or(0, |code| estimate::level_bytes(code, to));
    values
        .saturating_mul(per_value)
        .max(levels.saturating_add(values.saturating_mul(4)))
}

/// Refuses `to` when [`estimate_bytes`] exceeds the memory available.
pub fn check_memory(game: &Game, to: u64) -> Result<(), EngineError> {
    let needed_bytes = estimate_bytes(game, to);
    let available_bytes = available_memory();
    if to > usize::MAX as u64 / 8 || needed_bytes > available_bytes {
        return Err(EngineError::TooLarge {
            to,
            needed_bytes,
            available_bytes,
        });
    }
    Ok(())
}

/// Memory the machine has available (`MemAvailable` from `/proc/meminfo`, else 4 GiB).
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        })
        .unwrap_or(4 << 30)
}

/// `1536` → `"1.5 KiB"`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load, SourceFile};

    fn game(text: &str) -> Game {
        load(SourceFile::new("<test>", text), &[]).unwrap()
    }

    #[test]
    fn chunked_extension_gives_the_same_table_and_can_stop() {
        let opts = EngineOptions::default();
        for text in [
            "octal 0.07",
            "octal 0.16",
            "takebreak 4!.0",
            "move half: x in 1..=n/2 => n - x",
        ] {
            let game = game(text);
            let whole = compute(&game, 20_000, &opts).unwrap();
            let mut table = SgTable::new();
            let mut calls = 0;
            extend_in_chunks(&game, &mut table, 20_000, &opts, &mut |_| {
                calls += 1;
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(table, whole, "{text}");
            assert!(calls >= 2, "{text}: {calls} calls");

            let mut table = SgTable::new();
            let result = extend_in_chunks(&game, &mut table, 20_000, &opts, &mut |t| {
                if t.len() > 5000 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert!(
                matches!(result, Err(EngineError::Interrupted { at }) if at == table.len() as u64),
                "{text}: {result:?}"
            );
            assert_eq!(table, whole.prefix(table.len()), "{text}");
            extend(&game, &mut table, 20_000, &opts).unwrap();
            assert_eq!(table, whole, "{text}");
        }
    }
}
