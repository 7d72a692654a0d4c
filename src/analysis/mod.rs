//! Patterns in a computed table: preperiod, period and saltus, with proofs where a theorem allows.
//!
//! * [`period`] finds the smallest period of a finite table, its preperiod and saltus;
//! * [`proof`] turns a period of a take-and-break code into a theorem (the octal periodicity
//!   theorem of Guy and Smith and its extension to moves leaving more heaps), or says how many
//!   more values it needs;
//! * [`find_period`] is the `period` command's loop: grow the table until the period is proved,
//!   or is evidently stable when no theorem applies, or the limit is reached;
//!   [`report_for_table`] analyses a table that is already computed;
//! * [`rare`] gives the rare/common statistics of a take-and-break table (the sparse space).

pub mod criteria;
pub mod misere;
pub mod misere_check;
pub mod patterns;
pub mod period;
pub mod proof;
pub mod rare;

use serde::Serialize;

use crate::engine::{self, ChunkHook, EngineError, EngineOptions, SgTable};
use crate::rules::{Game, Lowering, TakeBreakCode};
use proof::{Certificate, NotApplicable, Theorem};
use rare::RareStats;

/// `G(n + period) = G(n) + saltus` for every `n ≥ preperiod` (in the range checked).
/// `saltus == 0` is ordinary periodicity; otherwise the sequence is arithmetic-periodic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Periodicity {
    /// The first index from which the relation holds (`G(0)` is index 0).
    pub preperiod: usize,
    /// The smallest period.
    pub period: usize,
    /// The increase per period (0 for pure periodicity).
    pub saltus: i64,
}

impl Periodicity {
    /// `G(n)` for any `n`, from the values `G(0..preperiod + period)` of `table` (which must
    /// hold at least that many values): the formula the generated code uses.
    pub fn extrapolate(&self, prefix: impl Fn(usize) -> u32, n: u64) -> u64 {
        let head = (self.preperiod + self.period) as u64;
        if n < head {
            return prefix(n as usize) as u64;
        }
        let offset = n - self.preperiod as u64;
        let cycles = offset / self.period as u64;
        let base = prefix(self.preperiod + (offset % self.period as u64) as usize) as i128;
        (base + cycles as i128 * self.saltus as i128) as u64
    }
}

/// What `period` reports: the periodicity found, whether it is proved, and why, as typed data.
/// The sentences a person reads (the text report, the JSON report's `reason`) are written from
/// it by [`crate::export::period`].
#[derive(Clone, Debug, PartialEq)]
pub struct PeriodReport {
    /// The game's name.
    pub game: String,
    /// The first index of the periodic part, when a period was found.
    pub preperiod: Option<usize>,
    /// The smallest period, or `None` when none was found.
    pub period: Option<usize>,
    /// The saltus (0 for pure periodicity).
    pub saltus: Option<i64>,
    /// True only with a certificate from a theorem (see [`proof`]): `certificate` is
    /// [`Certificate::Proved`].
    pub proved: bool,
    /// How many values `G(0..values_computed)` were computed.
    pub values_computed: usize,
    /// The largest value among them.
    pub max_value: u32,
    /// The first position where the largest value occurs (0 for an empty table).
    pub max_value_at: usize,
    /// For a take-and-break game, the rare/common statistics of the table (see [`rare`]).
    pub rare: Option<RareStats>,
    /// Full periods seen after the preperiod.
    pub periods_seen: Option<f64>,
    /// For a proof: the theorem's bound (values `n0 ≤ n < bound` were checked); also the bound
    /// a proof would need when `certificate` is [`Certificate::NeedValues`].
    pub proof_bound: Option<usize>,
    /// What a theorem says about the period found; `None` when no period was found. General
    /// rules without an equivalent code get [`NotApplicable::GeneralRules`].
    pub certificate: Option<Certificate>,
    /// Why the analysis ended where it did.
    pub stop: Stop,
    /// When the search stopped below the limit asked for because the engine could not go
    /// further (see [`engine::feasible_to`]).
    pub cut_short: Option<CutShort>,
    /// For general rules lowered to a code: the code and the bound of its verification. The
    /// values, and any proof, are then the code's (see [`crate::rules::lower`]).
    pub lowering: Option<Lowering>,
    /// The code's first cousin ([`crate::theory::cousin`]): `G(n + 1) = G_cousin(n)` for
    /// every `n`, by an isomorphism of game trees.
    pub cousin: Option<String>,
}

impl PeriodReport {
    /// The periodicity found, if any (saltus 0 when not given).
    pub fn periodicity(&self) -> Option<Periodicity> {
        Some(Periodicity {
            preperiod: self.preperiod?,
            period: self.period?,
            saltus: self.saltus.unwrap_or(0),
        })
    }
}

/// Why the analysis of a [`PeriodReport`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A proof closed, or a table given was analysed as it is.
    Analysed,
    /// The search reached its limit (`--max`, or the [cut-short](CutShort) limit).
    MaxReached,
    /// The search stopped early, the candidate being the same at `previous_len` values and at
    /// the end, with at least [`STABLE_PERIODS`] periods seen.
    Stable {
        /// The table length at which the same candidate was found before.
        previous_len: usize,
    },
}

/// A search that stopped at `stopped_at` instead of `max`: beyond it, this code's `!`/`?`
/// digits leaving three or more heaps would list more than `listing_limit` partitions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CutShort {
    /// The last `n` computed.
    pub stopped_at: u64,
    /// The limit asked for.
    pub max: u64,
    /// The engine's [`engine::LISTING_LIMIT`].
    pub listing_limit: f64,
}

/// How long a search took: wall-clock seconds (computing and analysing) and the rate at which
/// it computed values. Kept apart from [`PeriodReport`], which is the same on every run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SearchTiming {
    /// Seconds the search took.
    pub seconds: f64,
    /// Values computed by this search (not those resumed from a checkpoint) per second.
    pub values_per_second: u64,
}

impl SearchTiming {
    /// The timing of a search that computed `new_values` values in `elapsed`; the rate is 0
    /// when no time could be measured.
    pub fn new(new_values: usize, elapsed: std::time::Duration) -> Self {
        let seconds = elapsed.as_secs_f64();
        let values_per_second = if seconds > 0.0 {
            (new_values as f64 / seconds).round() as u64
        } else {
            0
        };
        SearchTiming {
            seconds,
            values_per_second,
        }
    }
}

/// Values computed before the first look for a period when no theorem can prove one (fewer if
/// the limit is smaller); also the fewest values at which the search may stop early on a
/// stable candidate (see [`STABLE_PERIODS`]).
pub const FIRST_SEARCH_LEN: usize = 1024;

/// Values computed before the first look for a period when the periodicity theorem applies to
/// the code: no proof for moves leaving two or more heaps needs fewer (`B + p ≥ 2·1 + 1 + 0 + 1`),
/// so the search can stop at the first length where one closes.
pub const FIRST_PROOF_LEN: usize = 4;

/// When no theorem applies, the search stops early once the same candidate is found at two
/// successive sizes with at least this many full periods seen.
pub const STABLE_PERIODS: f64 = 10.0;

/// The limit of a period search when none is asked for: [`DEFAULT_MAX`] values, or `4·s + 1024`
/// for a game whose [scale](Game::scale) `s` is larger. The periodicity theorem needs
/// `h·n0' + (h − 1)·p + t + p` values ([`crate::theory::periodicity`]), which grows with the
/// largest take `t`: `subtraction 1..=k` (period `k + 1`) needs `2k + 3`, so a fixed default
/// would leave every large `k` unproved; `4·s` covers a preperiod and a period up to the scale.
pub fn default_max(game: &Game) -> u64 {
    let scale = game.scale() as u64;
    DEFAULT_MAX.max(scale.saturating_mul(4).saturating_add(1024))
}

/// The default limit of a period search for a game of small scale (see [`default_max`]).
pub const DEFAULT_MAX: u64 = 1 << 16;

/// Grows the table of `game` until its period is proved, or `G(0..=max)` is computed.
///
/// When the periodicity theorem applies to the code, starts with [`FIRST_PROOF_LEN`] values and
/// stops at the first table length where a proof closes: each next size is the doubled one, or
/// sooner the length the [earliest provable](period::earliest_provable) candidate needs. For
/// moves leaving two or more heaps (`h ≥ 2`) this is exact: a period `(n0, p)` not yet seen at
/// length `L` (`n0 + p ≥ L`) needs `h·(n0 + p) + t ≥ 2L` values, so doubling never passes its
/// proof, and once seen its length is scheduled (a candidate needing fewer values is checked
/// first). For `h = 1` the bound `n0 + p + t` is so close that chance candidates would make the
/// search crawl, so it grows by at least a quarter each time, and a proof that closes between
/// two sizes is found at the next one.
///
/// Otherwise (general rules without a code, infinite codes such as Nim, codes with modifiers)
/// starts with [`FIRST_SEARCH_LEN`] values and doubles, and stops early once the same
/// candidate is found at two successive sizes of at least [`FIRST_SEARCH_LEN`] with at least
/// [`STABLE_PERIODS`] periods seen. A `max` whose table cannot fit in memory is refused before
/// any work.
pub fn find_period(
    game: &Game,
    max: u64,
    options: &EngineOptions,
) -> Result<(SgTable, PeriodReport), EngineError> {
    search_game(game, max, options, SgTable::new(), None)
}

/// [`find_period`] starting from `table`, which holds a prefix `G(0..len)` of the game's table
/// (e.g. loaded from a [checkpoint](engine::checkpoint)). The result is exactly that of
/// [`find_period`]: at each size the search analyses only the values it would have computed,
/// and the table returned is cut back to the size where the search stopped.
pub fn find_period_from(
    game: &Game,
    max: u64,
    options: &EngineOptions,
    table: SgTable,
) -> Result<(SgTable, PeriodReport), EngineError> {
    search_game(game, max, options, table, None)
}

/// [`find_period_from`], computing in chunks and calling `between_chunks` with the table
/// between them (see [`engine::extend_in_chunks`]): the hook saves checkpoints, and returning
/// [`ControlFlow::Break`](std::ops::ControlFlow::Break) stops the search with [`EngineError::Interrupted`].
pub fn find_period_with_hook(
    game: &Game,
    max: u64,
    options: &EngineOptions,
    table: SgTable,
    between_chunks: &mut ChunkHook<'_>,
) -> Result<(SgTable, PeriodReport), EngineError> {
    search_game(game, max, options, table, Some(between_chunks))
}

fn search_game(
    game: &Game,
    max: u64,
    options: &EngineOptions,
    initial: SgTable,
    mut between_chunks: Option<&mut ChunkHook<'_>>,
) -> Result<(SgTable, PeriodReport), EngineError> {
    engine::check_memory(game, max)?;
    // A code computed by listing partitions may be out of reach long before `max`: search as
    // far as is feasible and say so, rather than fail or run for hours.
    let feasible = engine::feasible_to(game, max);
    let mut initial = initial;
    // The search computes in stages; room for the last one from the start (address space only
    // until written) lets a table headed for 2^25 values or more store its values from 256 to
    // 511 in 9 bits (see `engine::table::PACK_FROM`).
    let last = feasible.unwrap_or(max) as usize + 1;
    initial.reserve(last.saturating_sub(initial.len()));
    let (table, mut report) = search(
        &game.name,
        game.code(),
        game.scale(),
        feasible.unwrap_or(max),
        initial,
        |table, to| match between_chunks.as_mut() {
            Some(hook) => engine::extend_in_chunks(game, table, to, options, &mut **hook),
            None => engine::extend(game, table, to, options),
        },
    )?;
    report.cut_short = feasible.map(|stopped_at| CutShort {
        stopped_at,
        max,
        listing_limit: engine::LISTING_LIMIT,
    });
    report.lowering = game.lowering();
    Ok((table, report))
}

/// Analyses a table that is already computed (without extending it): the period found, and a
/// proof when `code` is given and the table is long enough for the theorem.
pub fn report_for_table(
    game_name: &str,
    code: Option<&TakeBreakCode>,
    table: &SgTable,
) -> PeriodReport {
    let evidence = evidence_for(code, code.map_or(0, TakeBreakCode::scale));
    report(
        game_name,
        code,
        table,
        &analyse(code, table, evidence),
        Stop::Analysed,
    )
}

/// What is known of a game before its table is read: whether a theorem rules out a saltus,
/// and from which heap on agreements count as evidence (`scale`, see [`Game::scale`]).
fn evidence_for(code: Option<&TakeBreakCode>, scale: usize) -> period::Evidence {
    period::Evidence {
        pure_only: code
            .and_then(crate::theory::periodicity::no_saltus)
            .is_some(),
        from: scale,
    }
}

/// The loop of [`find_period`], with the engine as a parameter so that it can be tested with
/// any table source.
fn search(
    game_name: &str,
    code: Option<&TakeBreakCode>,
    scale: usize,
    max: u64,
    mut table: SgTable,
    mut extend: impl FnMut(&mut SgTable, u64) -> Result<(), EngineError>,
) -> Result<(SgTable, PeriodReport), EngineError> {
    let theorem = code.and_then(|code| Theorem::for_code(code).ok());
    let evidence = evidence_for(code, scale);
    let first_len = if theorem.is_some() {
        FIRST_PROOF_LEN
    } else {
        FIRST_SEARCH_LEN
    };
    let mut to = max.min(first_len as u64 - 1);
    let mut previous: Option<(Periodicity, usize)> = None;
    loop {
        extend(&mut table, to)?;
        // A resumed search may start with more values than this step asks for: analyse (and
        // return) only G(0..=to), as a search from scratch would. The values past it are set
        // aside when they are fewer than G(0..=to), which is copied otherwise, so that the
        // extra memory stays below half the table.
        let wanted = to as usize + 1;
        let prefix;
        let mut tail = None;
        let view = if table.len() <= wanted {
            &table
        } else if table.len() - wanted < wanted {
            tail = Some(table.split_off(wanted));
            &table
        } else {
            prefix = table.prefix(wanted);
            &prefix
        };
        let analysis = analyse(code, view, evidence);
        let len = view.len();
        let theorem_applies = matches!(
            analysis.certificate,
            Some(Certificate::Proved { .. } | Certificate::NeedValues { .. })
        );
        let done = match (&analysis.candidate, &analysis.certificate) {
            (_, Some(Certificate::Proved { .. })) => {
                Some(report(game_name, code, view, &analysis, Stop::Analysed))
            }
            (Some(candidate), _) if !theorem_applies => {
                let stable = previous.is_some_and(|(seen, previous_len)| {
                    seen == *candidate && previous_len >= FIRST_SEARCH_LEN
                }) && periods_past_scale(candidate, scale, len) >= STABLE_PERIODS;
                stable.then(|| {
                    let previous_len = previous.map_or(0, |(_, l)| l);
                    report(
                        game_name,
                        code,
                        view,
                        &analysis,
                        Stop::Stable { previous_len },
                    )
                })
            }
            _ => None,
        };
        let done = done.or_else(|| {
            (to >= max).then(|| report(game_name, code, view, &analysis, Stop::MaxReached))
        });
        if let Some(report) = done {
            table.truncate(wanted);
            return Ok((table, report));
        }
        if let Some(tail) = tail {
            table.append(tail);
        }
        previous = analysis.candidate.map(|c| (c, len));
        let doubled = to.saturating_mul(2).saturating_add(1).min(max);
        to = match (analysis.soonest_proof, theorem) {
            (Some(needed), Some(theorem)) if needed as u64 - 1 > to => {
                let crawl_guard = if theorem.heaps == 1 { to + to / 4 } else { to };
                (needed as u64 - 1).max(crawl_guard).min(doubled)
            }
            _ => doubled,
        };
    }
}

/// Full periods of `candidate` seen past both its preperiod and the game's `scale` in a table of
/// `len` values: what the stable stop counts, so that agreement on a truncated game (heaps
/// below the scale) never stops a search.
fn periods_past_scale(candidate: &Periodicity, scale: usize, len: usize) -> f64 {
    let from = candidate.preperiod.max(scale);
    len.saturating_sub(from) as f64 / candidate.period.max(1) as f64
}

/// A candidate period and what the theorem says about it.
struct Analysis {
    candidate: Option<Periodicity>,
    /// `None` when there is no candidate or no code.
    certificate: Option<Certificate>,
    /// When no proof closed: the fewest values with which one might (see
    /// [`period::earliest_provable`]); `None` when no theorem applies or no pair repeats.
    soonest_proof: Option<usize>,
}

/// The [detected](period::detect) candidate and its certificate; when that is no proof, the
/// [earliest provable](period::earliest_provable) candidate replaces it if the theorem proves
/// it (a proof needs no evidence against chance), or else says how many values one needs.
fn analyse(code: Option<&TakeBreakCode>, table: &SgTable, evidence: period::Evidence) -> Analysis {
    let candidate = period::detect_with(table, evidence);
    let certificate = candidate
        .as_ref()
        .zip(code)
        .map(|(c, code)| proof::certify(code, table, c));
    let mut analysis = Analysis {
        candidate,
        certificate,
        soonest_proof: None,
    };
    if matches!(analysis.certificate, Some(Certificate::Proved { .. })) {
        return analysis;
    }
    let Some((code, theorem)) =
        code.and_then(|code| Theorem::for_code(code).ok().map(|theorem| (code, theorem)))
    else {
        return analysis;
    };
    let Some((earliest, _)) = period::earliest_provable(table, |n0, p| theorem.needed_len(n0, p))
    else {
        return analysis;
    };
    match proof::certify(code, table, &earliest) {
        proved @ Certificate::Proved { .. } => {
            analysis.candidate = Some(earliest);
            analysis.certificate = Some(proved);
        }
        Certificate::NeedValues { up_to, .. } => analysis.soonest_proof = Some(up_to + 1),
        // Not reached: the candidate's pairs match from its preperiod on.
        Certificate::Refuted { .. } | Certificate::NotApplicable { .. } => {}
    }
    analysis
}

fn report(
    game_name: &str,
    code: Option<&TakeBreakCode>,
    table: &SgTable,
    analysis: &Analysis,
    stop: Stop,
) -> PeriodReport {
    let len = table.len();
    let max_value = table.max_value();
    let mut report = PeriodReport {
        game: game_name.to_string(),
        preperiod: None,
        period: None,
        saltus: None,
        proved: false,
        values_computed: len,
        max_value,
        max_value_at: table.iter().position(|v| v == max_value).unwrap_or(0),
        rare: code.map(|code| rare::rare_stats_for_code(code, table)),
        periods_seen: None,
        proof_bound: None,
        certificate: None,
        stop,
        cut_short: None,
        lowering: None,
        cousin: code.and_then(|code| crate::theory::cousin::first_cousin(&code.to_string())),
    };
    let Some(candidate) = analysis.candidate else {
        return report;
    };
    report.preperiod = Some(candidate.preperiod);
    report.period = Some(candidate.period);
    report.saltus = Some(candidate.saltus);
    report.periods_seen = Some(period::periods_seen(&candidate, len));
    let certificate = analysis
        .certificate
        .clone()
        .unwrap_or(Certificate::NotApplicable {
            why: NotApplicable::GeneralRules,
        });
    match &certificate {
        Certificate::Proved { bound, .. } => {
            report.proved = true;
            report.proof_bound = Some(*bound);
        }
        Certificate::NeedValues { bound, .. } => report.proof_bound = Some(*bound),
        Certificate::Refuted { .. } | Certificate::NotApplicable { .. } => {}
    }
    report.certificate = Some(certificate);
    report
}

/// Test data for the analysis tests: codes from digits, and their tables from the engine's
/// take-and-break kernel (itself checked against `oracle::naive` by property tests).
#[cfg(test)]
pub(crate) mod testing {
    use crate::engine::{takebreak, Progress, SgTable};
    use crate::rules::code::{Digit, TakeBreakCode};

    /// The finite code `0.d1d2…` from hexadecimal digits after the point (`"07"` is 0.07).
    pub(crate) fn code_from_digits(after_point: &str) -> TakeBreakCode {
        let mut digits = vec![Digit::default()];
        digits.extend(
            after_point
                .chars()
                .map(|c| Digit::from_mask(c.to_digit(16).expect("hex digit") as u64)),
        );
        TakeBreakCode {
            digits,
            tail: Vec::new(),
        }
    }

    /// `G(0..len)` of `code`, from the take-and-break kernel (not an oracle: the kernel is itself
    /// checked against `oracle::naive`).
    pub(crate) fn kernel_table(code: &TakeBreakCode, len: usize) -> SgTable {
        let mut table = SgTable::new();
        naive_extend(code, &mut table, len);
        table
    }

    /// Extends `table` to `len` values of `code`.
    pub(crate) fn naive_extend(code: &TakeBreakCode, table: &mut SgTable, len: usize) {
        takebreak::extend(code, table, len, &mut Progress::hidden());
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::testing::{code_from_digits, kernel_table, naive_extend};
    use super::*;
    use crate::rules::code::Digit;
    use crate::rules::{GameKind, SourceFile};

    /// Runs the search loop on the naive engine.
    fn naive_search(code: &TakeBreakCode, max: u64) -> (SgTable, PeriodReport) {
        search(
            "test",
            Some(code),
            code.scale(),
            max,
            SgTable::new(),
            |table, to| {
                naive_extend(code, table, to as usize + 1);
                Ok(())
            },
        )
        .expect("the naive engine does not fail")
    }

    /// Runs the search loop on a fixed formula `values(n)`, recording the sizes asked for.
    fn formula_search(
        code: Option<&TakeBreakCode>,
        max: u64,
        values: impl Fn(usize) -> u32,
    ) -> (SgTable, PeriodReport, Vec<u64>) {
        let mut sizes = Vec::new();
        let scale = code.map_or(0, TakeBreakCode::scale);
        let (table, report) = search("formula", code, scale, max, SgTable::new(), |table, to| {
            sizes.push(to);
            while table.len() <= to as usize {
                table.push(values(table.len()));
            }
            Ok(())
        })
        .expect("no engine error");
        (table, report, sizes)
    }

    fn scrambled(n: usize) -> u32 {
        let z = (n as u64 ^ 0x5DEE_CE66).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((z ^ (z >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 40) as u32
    }

    #[test]
    fn search_proves_known_octal_periods() {
        // (code, n0, p) from Winning Ways ch. 4: Dawson's Kayles 0.07 (period 34, exceptional
        // values at n = 0, 15, 17, 18, 32, 35, 52, so n0 = 53), Kayles 0.77 (period 12, last
        // exception at 70), Dawson's chess 0.137 (0.07 shifted by one heap: n0 = 52).
        for (digits, n0, p, bound) in [
            ("07", 53, 34, 2 * 53 + 34 + 2),
            ("77", 71, 12, 2 * 71 + 12 + 2),
            ("137", 52, 34, 2 * 52 + 34 + 3),
        ] {
            let code = code_from_digits(digits);
            let (table, report) = naive_search(&code, 100_000);
            assert_eq!(
                (report.preperiod, report.period, report.saltus),
                (Some(n0), Some(p), Some(0)),
                "0.{digits}"
            );
            assert!(report.proved, "0.{digits}: {:?}", report.certificate);
            assert_eq!(report.proof_bound, Some(bound), "0.{digits}");
            // The search stops at the first length with which the theorem proves the period:
            // G(n + p) = G(n) checked for n0 ≤ n < B reads G(0..B + p).
            assert_eq!(report.values_computed, bound + p, "0.{digits}");
            assert_eq!(table.len(), bound + p);
            // The reason reads "proved by the octal periodicity theorem …".
            let Some(Certificate::Proved { theorem, .. }) = report.certificate else {
                panic!("0.{digits}: {:?}", report.certificate);
            };
            assert!(
                theorem
                    .to_string()
                    .starts_with("the octal periodicity theorem"),
                "{theorem}"
            );
        }
    }

    #[test]
    fn search_stops_at_the_first_length_with_a_proof() {
        // For codes whose moves leave two or three heaps, no prefix shorter than the one the
        // search stops at proves any period: every (n0, p) with n0 the definition's smallest
        // preperiod is certified on every shorter prefix, independently of the search.
        let mut proofs = 0;
        for digits in [
            "03", "05", "06", "07", "13", "15", "16", "17", "31", "33", "35", "37", "51", "53",
            "73", "77", "137", "4", "F", "B3", "0F",
        ] {
            let code = code_from_digits(digits);
            let heaps = Theorem::for_code(&code).expect("finite plain code").heaps;
            let (table, report) = naive_search(&code, 2_000);
            if !report.proved || heaps < 2 {
                continue;
            }
            proofs += 1;
            let values = table.to_vec();
            for len in 1..table.len() {
                let prefix = SgTable::from_values(&values[..len]);
                for p in 1..len {
                    let n0 = (0..len - p)
                        .find(|&n0| (n0..len - p).all(|n| values[n + p] == values[n]))
                        .unwrap_or(len - p);
                    let candidate = Periodicity {
                        preperiod: n0,
                        period: p,
                        saltus: 0,
                    };
                    assert!(
                        !matches!(
                            proof::certify(&code, &prefix, &candidate),
                            Certificate::Proved { .. }
                        ),
                        "0.{digits}: {candidate:?} is proved with {len} values, the search took {}",
                        table.len()
                    );
                }
            }
        }
        assert!(proofs >= 10, "only {proofs} proofs closed");
    }

    #[test]
    fn a_subtraction_game_search_does_not_crawl() {
        // With h = 1 and t = 60 a candidate with m chance pairs would need only 60 − m more
        // values; the search must still grow geometrically (by a quarter at least): from 4 to
        // 100000 values that is at most log(25000) / log(1.25) < 46 sizes.
        let code = TakeBreakCode::subtraction(&[1, 2, 60]);
        let (_, report, sizes) = formula_search(Some(&code), 100_000, |n| scrambled(n) % 3);
        assert_eq!(report.period, None);
        assert!(sizes.len() < 46, "{} sizes: {sizes:?}", sizes.len());
    }

    #[test]
    fn naive_engine_matches_kayles() {
        // Kayles, 0.77: the first values (OEIS A002186; Winning Ways ch. 4).
        let kayles = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7,
        ];
        assert_eq!(
            kernel_table(&code_from_digits("77"), kayles.len()).to_vec(),
            kayles
        );
    }

    #[test]
    fn dawsons_kayles_certificate_shows_the_arithmetic() {
        // The sentence of this certificate is checked in `export::period`.
        let (_, report) = naive_search(&code_from_digits("07"), 10_000);
        let theorem = Theorem::for_code(&code_from_digits("07")).unwrap();
        assert_eq!(
            report.certificate,
            Some(Certificate::Proved {
                bound: 142,
                theorem,
                checked: proof::Checked {
                    theorem,
                    period: 34,
                    from: 53,
                    to: 142
                }
            })
        );
        assert_eq!(report.stop, Stop::Analysed);
        assert_eq!(
            report.max_value, 9,
            "Dawson's Kayles values never exceed 9 (Winning Ways ch. 4)"
        );
    }

    #[test]
    fn search_proves_subtraction_134() {
        // G = 0 1 0 1 2 3 2 repeating (Winning Ways ch. 4).
        let code = TakeBreakCode::subtraction(&[1, 3, 4]);
        let (table, report) = naive_search(&code, 100);
        assert_eq!(table.to_vec()[..7], [0, 1, 0, 1, 2, 3, 2]);
        assert_eq!((report.preperiod, report.period), (Some(0), Some(7)));
        assert!(report.proved, "{:?}", report.certificate);
        // h = 1, t = 4, n0 = 0 counted as 1: B = 1 + 4 = 5, so the proof reads G(0..5 + 7).
        // Only 5 pairs repeat there, too few for the detector: the proof alone reports it.
        assert_eq!(report.values_computed, 5 + 7);
    }

    #[test]
    fn search_claims_nothing_for_treblecross() {
        // Treblecross 0.007 is not known to be periodic (Winning Ways ch. 4 lists it among the
        // unsolved octal games; searches far beyond this one found no period), so the search
        // must neither prove nor claim a period here.
        let (table, report) = naive_search(&code_from_digits("007"), 4_000);
        assert!(!report.proved, "{:?}", report.certificate);
        assert_eq!(report.period, None, "{:?}", report.certificate);
        assert_eq!(table.len(), 4_001);
    }

    #[test]
    fn search_extends_to_exactly_what_the_proof_needs() {
        // 600 scrambled values, then period 5: with h = 2, t = 2 the bound is
        // B = 2·600 + 5 + 2 = 1207, so the proof needs G(0..=1207 + 5 − 1 = 1211).
        let code = code_from_digits("07");
        let values = |n: usize| {
            if n < 600 {
                10 + scrambled(n) % 50
            } else {
                [0, 1, 2, 0, 3][n % 5]
            }
        };
        let (table, report, sizes) = formula_search(Some(&code), 100_000, values);
        // Doubling from 4 values, then (at 1024) straight to the proof; a chance candidate
        // may ask for a look a little before a doubled size, never later.
        assert_eq!(sizes.last(), Some(&1211), "{sizes:?}");
        assert!(
            sizes
                .windows(2)
                .all(|w| w[0] < w[1] && w[1] <= 2 * w[0] + 1),
            "{sizes:?}"
        );
        // The look before the proof already saw the period (one pair needs 600 + 5 + 1).
        assert!(sizes[sizes.len() - 2] >= 605, "{sizes:?}");
        assert_eq!(table.len(), 1212);
        assert_eq!(
            (report.preperiod, report.period, report.proof_bound),
            (Some(600), Some(5), Some(1207))
        );
        assert!(report.proved);
        // With a limit below 1211 the search stops there, unproved, and says how far to go.
        let (_, report, sizes) = formula_search(Some(&code), 1100, values);
        assert_eq!(sizes.last(), Some(&1100), "{sizes:?}");
        assert!(!report.proved);
        // The reason says "raise --max to at least 1211".
        assert!(
            matches!(
                report.certificate,
                Some(Certificate::NeedValues { up_to: 1211, .. })
            ),
            "{:?}",
            report.certificate
        );
        assert_eq!(report.stop, Stop::MaxReached);
    }

    /// HDU 4764 (the Bash game, k up to 10^9 in the statement): subtraction {1, …, k} has
    /// G(n) = n mod (k + 1) (Winning Ways ch. 4), so G(n) = n for every n ≤ k. A search stopped
    /// before the table passed k once offered "period 1, saltus 1" (any k ≥ 2047), wrong at
    /// every multiple of k + 1 past k; now no candidate is offered below the scale, none with a
    /// saltus at all (values are bounded), and the search goes on to the theorem's proof.
    #[test]
    fn bash_is_never_arithmetic_and_is_proved_past_its_scale() {
        let code = code_from_digits(&"3".repeat(3000));
        let (_, report) = naive_search(&code, 2047);
        assert_eq!(report.period, None, "{report:?}");
        assert_eq!(report.stop, Stop::MaxReached);
        for k in [1usize, 2, 5, 30, 2047, 3000, 100_000] {
            let code = code_from_digits(&"3".repeat(k));
            let (table, report) = naive_search(&code, 4 * k as u64 + 1024);
            assert_eq!(
                (report.preperiod, report.period, report.saltus),
                (Some(0), Some(k + 1), Some(0)),
                "k = {k}"
            );
            assert!(report.proved, "k = {k}");
            // The search stops where the proof closes: n0' + t + p values, and G(0..p).
            assert_eq!(report.values_computed, 2 * k + 2, "k = {k}");
            let periodicity = report.periodicity().unwrap();
            for n in [
                0u64,
                1,
                k as u64,
                k as u64 + 1,
                7 * k as u64 + 3,
                1_000_000_000_000_000_000,
            ] {
                let value = periodicity.extrapolate(|i| table.get(i), n);
                assert_eq!(value, n % (k as u64 + 1), "k = {k}, n = {n}");
            }
        }
    }

    /// A table that looks like G(n) = n offers no saltus for a finite one-heap code (bounded
    /// values) or a finite octal code (Austin's theorem), but does for an infinite code (Nim).
    #[test]
    fn a_saltus_is_offered_only_where_no_theorem_rules_it_out() {
        for digits in ["333", "77"] {
            let code = code_from_digits(digits);
            let (_, report, _) = formula_search(Some(&code), 10_000, |n| n as u32);
            assert_eq!(report.period, None, "0.{digits}: {report:?}");
        }
        let nim = TakeBreakCode {
            digits: vec![Digit::default()],
            tail: vec![Digit::from_mask(3)],
        };
        let (_, report, _) = formula_search(Some(&nim), 10_000, |n| n as u32);
        assert_eq!((report.period, report.saltus), (Some(1), Some(1)));
    }

    /// General rules: agreements below the largest constant are no evidence, so a truncated
    /// game (values n up to the threshold) stops no search.
    #[test]
    fn the_stable_stop_waits_for_the_rules_scale() {
        let text = "param k = 5000\nmove take: x in 1..=min(k, n) => n - x\n";
        let game = crate::rules::load(SourceFile::new("bash.sg", text), &[]).unwrap();
        assert_eq!(game.scale(), 5000);
        let mut sizes = Vec::new();
        let (_, report) = search(
            "bash",
            None,
            game.scale(),
            20_000,
            SgTable::new(),
            |t, to| {
                sizes.push(to);
                while t.len() <= to as usize {
                    t.push((t.len() % 5001) as u32);
                }
                Ok(())
            },
        )
        .unwrap();
        // G(n) = n on n ≤ 5000 is seen at 1024, 2048 and 4096 values but is no evidence; the
        // real period 5001 is stable only once twice seen past the scale (10 periods: never
        // within 20000), so the search runs to the limit and offers the period there.
        assert_eq!(report.stop, Stop::MaxReached);
        assert_eq!((report.period, report.saltus), (Some(5001), Some(0)));
        assert!(!report.proved);
    }

    #[test]
    fn search_stops_early_on_a_stable_unprovable_period() {
        // Nim, 0.[3]: G(n) = n, arithmetic period 1 with saltus 1; no theorem applies.
        let nim = TakeBreakCode {
            digits: vec![Digit::default()],
            tail: vec![Digit::from_mask(3)],
        };
        let (_, report, sizes) = formula_search(Some(&nim), 1_000_000, |n| n as u32);
        assert_eq!(sizes, vec![1023, 2047]);
        assert_eq!(
            (report.preperiod, report.period, report.saltus),
            (Some(0), Some(1), Some(1))
        );
        assert!(!report.proved);
        // The reason names the saltus and says the search stopped early.
        assert_eq!(
            report.certificate,
            Some(Certificate::NotApplicable {
                why: NotApplicable::Saltus(1)
            })
        );
        assert_eq!(report.stop, Stop::Stable { previous_len: 1024 });
        // General rules without a code: the same rule.
        let (_, report, sizes) = formula_search(None, 1_000_000, |n| [0, 1, 1][n % 3]);
        assert_eq!(sizes, vec![1023, 2047]);
        // "not proved: no theorem applies to general rules …".
        assert_eq!(
            report.certificate,
            Some(Certificate::NotApplicable {
                why: NotApplicable::GeneralRules
            })
        );
    }

    #[test]
    fn search_does_not_stop_early_with_few_periods() {
        // Period 300 after a preperiod of 200: at 1024 and 2048 values fewer than 10 periods
        // are seen, so the search goes on until 10 are (n ≤ 4095: 13 periods).
        let values = |n: usize| {
            if n < 200 {
                1000 + n as u32
            } else {
                scrambled(n % 300) % 7
            }
        };
        let (_, report, sizes) = formula_search(None, 1_000_000, values);
        assert_eq!(sizes, vec![1023, 2047, 4095]);
        assert_eq!((report.preperiod, report.period), (Some(200), Some(300)));
    }

    #[test]
    fn search_reports_no_period_at_the_limit() {
        let (table, report, sizes) = formula_search(None, 5000, |n| scrambled(n) % 4);
        assert_eq!(sizes, vec![1023, 2047, 4095, 5000]);
        assert_eq!(table.len(), 5001);
        assert_eq!(report.period, None);
        // "no period found in G(0..=5000) …; raise --max to search further".
        assert_eq!(report.certificate, None);
        assert_eq!(report.values_computed, 5001);
        assert_eq!(report.stop, Stop::MaxReached);
    }

    #[test]
    fn timing_rates_new_values_only() {
        let timing = SearchTiming::new(3000, std::time::Duration::from_millis(1500));
        assert_eq!((timing.seconds, timing.values_per_second), (1.5, 2000));
        // Nothing measurable: no rate rather than an infinite one.
        assert_eq!(
            SearchTiming::new(10, std::time::Duration::ZERO).values_per_second,
            0
        );
    }

    #[test]
    fn reports_give_the_largest_value_and_rare_statistics() {
        // Kayles (0.77): G(27) = 8 is its first 8 (OEIS A002186), the largest value; under
        // its best mask 9 positions are rare (see `rare`), none without a code.
        let code = code_from_digits("77");
        let table = kernel_table(&code, 300);
        let report = report_for_table("Kayles", Some(&code), &table);
        assert_eq!((report.max_value, report.max_value_at), (8, 27));
        assert_eq!(report.rare, Some(rare::rare_stats_for_code(&code, &table)));
        assert_eq!(report.rare.map(|r| r.rare_count), Some(9));
        assert_eq!(report_for_table("Kayles", None, &table).rare, None);
    }

    #[test]
    fn report_for_a_given_table() {
        let code = code_from_digits("07");
        // n0 = 53, p = 34: B = 142, the proof needs G(0..=175).
        let report = report_for_table("Dawson's Kayles", Some(&code), &kernel_table(&code, 176));
        assert!(report.proved);
        assert_eq!(report.values_computed, 176);
        let report = report_for_table("Dawson's Kayles", Some(&code), &kernel_table(&code, 175));
        assert!(!report.proved);
        assert_eq!(report.proof_bound, Some(142));
        // The reason says "compute the table to n = 175".
        assert_eq!(
            report.certificate,
            Some(Certificate::NeedValues {
                up_to: 175,
                bound: 142
            })
        );
        assert_eq!(report.stop, Stop::Analysed);
        let report = report_for_table("short", None, &SgTable::from_values(&[0, 1]));
        assert_eq!(report.period, None);
    }

    // Tests against the real engine: they run after the merge (on the engine stub of this
    // branch they panic with `unimplemented!`).

    fn octal_game(name: &str, code: TakeBreakCode) -> Game {
        Game {
            name: name.into(),
            description: None,
            coordinate: "n".into(),
            params: Vec::new(),
            kind: GameKind::Code { code },
            source: SourceFile::new("test.sg", ""),
            lowering_proof: None,
            not_lowered: None,
            play: None,
        }
    }

    #[test]
    fn find_period_dawsons_kayles() {
        let game = octal_game("Dawson's Kayles", code_from_digits("07"));
        let (table, report) = find_period(&game, 100_000, &EngineOptions::default()).expect("fits");
        assert_eq!(table, kernel_table(&code_from_digits("07"), table.len()));
        assert_eq!(
            (report.preperiod, report.period, report.proof_bound),
            (Some(53), Some(34), Some(142))
        );
        assert!(report.proved);
    }

    #[test]
    fn find_period_stops_at_the_bound_for_a_long_preperiod() {
        // 0.16: preperiod 105351, period 149459 (Gangolli and Plambeck 1989). With t = 2 the
        // octal theorem reads G(0..2·105351 + 149459 + 2 + 149459): the search stops exactly
        // there, although the detector cannot see two periods at the last doubled size 2^18.
        let (n0, p) = (105_351, 149_459);
        let bound = 2 * n0 + p + 2;
        let game = octal_game("0.16", code_from_digits("16"));
        let (table, report) = find_period(&game, 600_000, &EngineOptions::default()).expect("fits");
        assert!(report.proved, "{:?}", report.certificate);
        assert_eq!(
            (report.preperiod, report.period, report.proof_bound),
            (Some(n0), Some(p), Some(bound))
        );
        assert_eq!(report.values_computed, bound + p);
        assert_eq!(table.len(), bound + p);
    }

    #[test]
    fn find_period_kayles_and_subtraction() {
        let game = octal_game("Kayles", code_from_digits("77"));
        let (_, report) = find_period(&game, 100_000, &EngineOptions::default()).expect("fits");
        assert_eq!(
            (report.preperiod, report.period, report.proved),
            (Some(71), Some(12), true)
        );
        let game = octal_game("S(1,3,4)", TakeBreakCode::subtraction(&[1, 3, 4]));
        let (_, report) = find_period(&game, 100_000, &EngineOptions::default()).expect("fits");
        assert_eq!(
            (report.preperiod, report.period, report.proved),
            (Some(0), Some(7), true)
        );
    }

    #[test]
    fn find_period_refuses_a_table_that_cannot_fit() {
        let game = octal_game("Dawson's Kayles", code_from_digits("07"));
        let result = find_period(&game, u64::MAX / 2, &EngineOptions::default());
        assert!(matches!(result, Err(EngineError::TooLarge { .. })));
    }

    #[test]
    fn a_search_resumed_from_any_prefix_gives_the_same_result() {
        let opts = EngineOptions::default();
        for (name, digits, max) in [
            ("Dawson's Kayles", "07", 100_000),
            ("treblecross", "007", 6000),
            ("Kayles", "77", 100_000),
        ] {
            let game = octal_game(name, code_from_digits(digits));
            let fresh = find_period(&game, max, &opts).expect("fits");
            for prefix in [0, 1, 100, 1024, 1500, 5000, 6001] {
                let start = engine::compute(&game, prefix, &opts).unwrap();
                let resumed = find_period_from(&game, max, &opts, start).expect("fits");
                assert_eq!(resumed, fresh, "{name} from {prefix} values");
            }
        }
    }

    #[test]
    fn the_hook_sees_growing_tables_and_can_stop_the_search() {
        let opts = EngineOptions::default();
        let game = octal_game("treblecross", code_from_digits("007"));
        let fresh = find_period(&game, 20_000, &opts).expect("fits");
        let mut seen = Vec::new();
        let hooked = find_period_with_hook(&game, 20_000, &opts, SgTable::new(), &mut |t| {
            seen.push(t.len());
            ControlFlow::Continue(())
        })
        .expect("fits");
        assert_eq!(hooked, fresh);
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
        let mut saved = None;
        let result = find_period_with_hook(&game, 20_000, &opts, SgTable::new(), &mut |t| {
            if t.len() >= 3000 {
                saved = Some(t.clone());
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let Err(EngineError::Interrupted { at }) = result else {
            panic!("expected an interruption, got {result:?}");
        };
        let saved = saved.expect("the hook saw the table");
        assert_eq!(saved.len() as u64, at);
        assert_eq!(saved, engine::compute(&game, at - 1, &opts).unwrap());
        let resumed = find_period_from(&game, 20_000, &opts, saved).expect("fits");
        assert_eq!(resumed, fresh);
    }
}
