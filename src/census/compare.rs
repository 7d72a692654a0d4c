//! A census against the published tables: a table of codes with their preperiods and periods,
//! or of pairs of equivalent codes, read and checked entry by entry against census rows.
//!
//! # The layouts read
//!
//! One table file may mix the line layouts below; `#` starts a comment (to the end of the
//! line), blank lines are skipped.
//!
//! * **Period lines**, fields separated by white space: `CODE PREPERIOD PERIOD`, e.g.
//!   `0.07 53 34` (Dawson's Kayles). A period published as unknown is written `?`
//!   (`0.6 ? ?`, or `0.6 - ?`): the entry says the game is unsolved.
//! * **Equivalence lines**: `CODE = CODE`, or `CODE = CODE +K` with a heap offset `K`
//!   meaning `G_left(n + K) = G_right(n)` (so `0.4 = 0.07 +1`: a heap of `n + 1` in 0.4 plays
//!   as a heap of `n` in 0.07). Without `+K` the two codes are claimed equivalent up to some
//!   offset, as in the lookup tables of equivalent games, which fold the offset into the
//!   equivalence.
//! * **Markdown tables** in the layout of the published tables of solved games (tczajka's
//!   octal-games `SolvedGames.md`): a header row naming a `game` (or `code`) column, a
//!   `prefix` (or `preperiod`) column and a `period` column, in any order among other columns;
//!   the `:---|---:` row under it; then one row per game. An empty or `?` period cell is an
//!   unsolved game. A line holding `|` belongs to a table; a table ends at the first line
//!   without one.
//!
//! Codes are normalised before they are looked up: a leading `.` is `0.` (`.45` is `0.45`),
//! and trailing zero digits are dropped (`0.070` is the game `0.07`), the form the census
//! writes. A line that reads as none of these is a [`TableError`] located at the offending
//! field, with a `help:` line.
//!
//! # What agreeing means
//!
//! A period entry agrees with the census when the census proved the same preperiod and
//! period. When they differ, the published pair `(n0, p)` is checked against the values
//! themselves (recomputed by the engine): if some `n ≥ n0` has `G(n + p) ≠ G(n)`, the first
//! such `n` is the **first differing heap**, and the published entry is contradicted. A
//! published preperiod a few heaps (at most [`MAX_COMPARED_OFFSET`]) off the census's with the
//! same period is reported as a convention — heaps counted from 1, or in the game with heap
//! sizes reduced as the lookup tables count them — not as an error, with the heap that breaks
//! it when the published one is too small. A census still unsolved at its bounds leaves the
//! entry open, after checking the published period on the values up to `n0 + 2p` (when that
//! is at most [`MAX_RECOMPUTE`]) for a contradiction. An equivalence entry agrees when both codes
//! are in one census class (with the stated offset, if any: the census says
//! `G_code(n + offset) = G_base(n)`, so `K = offset_left − offset_right`); otherwise the
//! sequences are compared for every offset `k = 0..=8` in both directions, and the offset that
//! agrees longest is reported with its first differing heap.

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;
use thiserror::Error;

use super::Row;
use crate::engine::{self, EngineError, EngineOptions, Hint};
use crate::rules::{self, Diagnostic, RulesError, SourceFile, Span};

/// The largest offset tried when two codes are compared without a census class in common.
pub const MAX_COMPARED_OFFSET: usize = 8;

/// The most values recomputed beyond a row's `values_computed` to check a published period
/// (`n0 + 2p` and a margin, when that is larger).
pub const MAX_RECOMPUTE: usize = 1 << 22;

/// Heaps past `n0 + 2p` (or past the later of two preperiods and both periods) recomputed when
/// a published period is checked, so that a period claimed a little too early still shows.
const MARGIN: usize = 64;

/// A code of a published table, normalised (`.45` → `0.45`, `0.070` → `0.07`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Code(pub String);

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What one line of a published table claims.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Claim {
    /// `code` has this preperiod and period; `period: None` when published as unknown.
    Period {
        /// The code.
        code: Code,
        /// The published preperiod (`None` when not given).
        preperiod: Option<usize>,
        /// The published period (`None`: published as unsolved).
        period: Option<usize>,
    },
    /// `left` and `right` have one nim sequence: `G_left(n + offset) = G_right(n)` (any
    /// offset when `None`).
    Equivalent {
        /// The left code.
        left: Code,
        /// The right code.
        right: Code,
        /// The stated offset `K`, if any.
        offset: Option<i64>,
    },
}

/// A claim and where it was read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// 1-based line of the table file.
    pub line: usize,
    /// The claim.
    pub claim: Claim,
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let or_unknown = |v: &Option<usize>| v.map_or("?".to_string(), |v| v.to_string());
        match self {
            Claim::Period {
                code,
                preperiod,
                period,
            } => write!(f, "{code} {} {}", or_unknown(preperiod), or_unknown(period)),
            Claim::Equivalent {
                left,
                right,
                offset,
            } => match offset {
                Some(k) => write!(f, "{left} = {right} {k:+}"),
                None => write!(f, "{left} = {right}"),
            },
        }
    }
}

/// A table file that does not read: the located diagnostic and the file it is located in.
#[derive(Clone, Debug, Error)]
#[error("{}", .diagnostic.render(.file))]
pub struct TableError {
    /// What is wrong, where, and what to do.
    pub diagnostic: Box<Diagnostic>,
    /// The table file.
    pub file: Box<SourceFile>,
}

/// Why a comparison could not be made.
#[derive(Debug, Error)]
pub enum CompareError {
    /// The published table does not read.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A census row of a JSON-lines file does not read.
    #[error("{path}:{line}: not a census row: {message}")]
    Row {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// serde's message.
        message: String,
    },
    /// A code's game did not load (a code outside the rules language's octal codes).
    #[error("`{code}`: {source}")]
    Rules {
        /// The code.
        code: String,
        /// Why.
        source: Box<RulesError>,
    },
    /// The engine refused or failed to recompute a code's values.
    #[error("`{code}`: {source}")]
    Engine {
        /// The code.
        code: String,
        /// Why.
        source: EngineError,
    },
}

impl CompareError {
    /// What to do about it (the command line words it).
    pub fn hint(&self) -> Option<Hint> {
        match self {
            CompareError::Row { .. } => Some(Hint::CensusRows),
            _ => None,
        }
    }
}

/// Normalises an octal code: `.45` → `0.45`, `0.070` → `0.07`, `4.` → `4.0`. `None` when the
/// text is not `D.DDD…` in octal digits.
pub fn normalise_code(text: &str) -> Option<Code> {
    let (whole, digits) = text.split_once('.')?;
    let whole = if whole.is_empty() { "0" } else { whole };
    let octal = |s: &str| s.bytes().all(|b| (b'0'..=b'7').contains(&b));
    if whole.len() != 1 || !octal(whole) || !octal(digits) {
        return None;
    }
    let mut digits = digits.trim_end_matches('0').to_string();
    if digits.is_empty() {
        digits.push('0');
    }
    Some(Code(format!("{whole}.{digits}")))
}

/// A field of a line: its text and its span in the file.
#[derive(Clone, Copy)]
struct Field<'a> {
    text: &'a str,
    span: Span,
}

/// The white-space separated fields of `line`, which starts at byte `at` of the file.
fn fields(line: &str, at: usize) -> Vec<Field<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push(Field {
                    text: &line[s..i],
                    span: Span::new(at + s, at + i),
                });
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The cells of a Markdown table row (between `|`s, trimmed), with their spans.
fn cells(line: &str, at: usize) -> Vec<Field<'_>> {
    let trimmed_start = line.len() - line.trim_start().len();
    let body = line.trim();
    let body_at = trimmed_start;
    let (body, body_at) = match body.strip_prefix('|') {
        Some(rest) => (rest, body_at + 1),
        None => (body, body_at),
    };
    let body = body.strip_suffix('|').unwrap_or(body);
    let mut out = Vec::new();
    let mut offset = body_at;
    for cell in body.split('|') {
        let lead = cell.len() - cell.trim_start().len();
        let text = cell.trim();
        let start = at + offset + lead;
        out.push(Field {
            text,
            span: Span::new(start, start + text.len()),
        });
        offset += cell.len() + 1;
    }
    out
}

/// The columns of a Markdown table: where its code, preperiod and period are.
struct Columns {
    code: usize,
    preperiod: usize,
    period: usize,
    count: usize,
}

/// Reads a published table (see the module docs for the layouts).
pub fn parse(source: &SourceFile) -> Result<Vec<Entry>, TableError> {
    let error = |diagnostic: Diagnostic| TableError {
        diagnostic: Box::new(diagnostic),
        file: Box::new(source.clone()),
    };
    let mut entries = Vec::new();
    // The Markdown table being read: its columns once the header is seen, and whether the
    // `---` row is still to come.
    let mut table: Option<(Columns, bool)> = None;
    let mut at = 0;
    for (index, raw) in source.text.split('\n').enumerate() {
        let line_no = index + 1;
        let line_at = at;
        at += raw.len() + 1;
        let line = raw.trim_end_matches('\r');
        let line = line.split_once('#').map_or(line, |(before, _)| before);
        if line.trim().is_empty() {
            table = None;
            continue;
        }
        if line.contains('|') {
            let row = cells(line, line_at);
            match &mut table {
                None => {
                    table = Some((header(&row, line_at, line).map_err(error)?, true));
                }
                Some((_, separator @ true)) => {
                    if let Some(bad) = row
                        .iter()
                        .find(|c| !c.text.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))
                    {
                        return Err(error(
                            Diagnostic::new("expected the `---` row under the header", bad.span)
                                .with_label("not `---`, `:---` or `---:`")
                                .with_help("a Markdown table's header is followed by a row of `---` cells, one per column"),
                        ));
                    }
                    *separator = false;
                }
                Some((columns, false)) => {
                    entries.push(Entry {
                        line: line_no,
                        claim: table_row(columns, &row, line_at, line).map_err(error)?,
                    });
                }
            }
            continue;
        }
        table = None;
        let fields = fields(line, line_at);
        entries.push(Entry {
            line: line_no,
            claim: plain_line(&fields).map_err(error)?,
        });
    }
    Ok(entries)
}

fn header(row: &[Field<'_>], line_at: usize, line: &str) -> Result<Columns, Diagnostic> {
    let find = |names: &[&str]| {
        row.iter()
            .position(|c| names.contains(&c.text.to_ascii_lowercase().as_str()))
    };
    let code = find(&["game", "code"]);
    let preperiod = find(&["prefix", "preperiod"]);
    let period = find(&["period"]);
    match (code, preperiod, period) {
        (Some(code), Some(preperiod), Some(period)) => Ok(Columns {
            code,
            preperiod,
            period,
            count: row.len(),
        }),
        _ => {
            let missing: Vec<&str> = [
                (code, "`game` (or `code`)"),
                (preperiod, "`prefix` (or `preperiod`)"),
                (period, "`period`"),
            ]
            .iter()
            .filter(|(found, _)| found.is_none())
            .map(|(_, name)| *name)
            .collect();
            Err(Diagnostic::new(
                format!("a table header without a {} column", missing.join(" or a ")),
                Span::new(line_at, line_at + line.trim_end().len()),
            )
            .with_label("read as a Markdown table's header")
            .with_help(
                "name the columns `game | prefix | period` (other columns may come between)",
            ))
        }
    }
}

fn table_row(
    columns: &Columns,
    row: &[Field<'_>],
    line_at: usize,
    line: &str,
) -> Result<Claim, Diagnostic> {
    if row.len()
        < columns
            .count
            .min(columns.code.max(columns.period).max(columns.preperiod) + 1)
    {
        return Err(Diagnostic::new(
            format!(
                "a table row of {} cells under a header of {}",
                row.len(),
                columns.count
            ),
            Span::new(line_at, line_at + line.trim_end().len()),
        )
        .with_help("give every row the header's columns (an empty cell for an unknown value)"));
    }
    let code = code(&row[columns.code])?;
    let period = unknown_or_number(&row[columns.period], "period")?;
    let preperiod = unknown_or_number(&row[columns.preperiod], "preperiod")?;
    Ok(Claim::Period {
        code,
        preperiod,
        period,
    })
}

fn plain_line(fields: &[Field<'_>]) -> Result<Claim, Diagnostic> {
    let first = fields[0];
    if fields.get(1).is_some_and(|f| f.text == "=") {
        let left = code(&first)?;
        let Some(right) = fields.get(2) else {
            return Err(Diagnostic::new(
                "an equivalence without its right-hand code",
                fields[1].span,
            )
            .with_label("expected a code after `=`")
            .with_help("write `CODE = CODE` or `CODE = CODE +K`, e.g. `0.4 = 0.07 +1`"));
        };
        let right = code(right)?;
        let offset = match fields.get(3) {
            None => None,
            Some(k) => Some(offset(k)?),
        };
        if let Some(extra) = fields.get(4) {
            return Err(
                Diagnostic::new("unexpected text after the offset", extra.span)
                    .with_help("one equivalence per line: `CODE = CODE +K`; `#` starts a comment"),
            );
        }
        return Ok(Claim::Equivalent {
            left,
            right,
            offset,
        });
    }
    let code = code(&first)?;
    if fields.len() != 3 {
        let span = fields.get(3).map_or(
            Span::new(
                fields[fields.len() - 1].span.end,
                fields[fields.len() - 1].span.end,
            ),
            |f| f.span,
        );
        let message = if fields.len() > 3 {
            "unexpected text after the period"
        } else {
            "a code without its preperiod and period"
        };
        return Err(Diagnostic::new(message, span).with_help(
            "write `CODE PREPERIOD PERIOD` (`?` for an unknown period), or `CODE = CODE +K`",
        ));
    }
    let preperiod = unknown_or_number(&fields[1], "preperiod")?;
    let period = unknown_or_number(&fields[2], "period")?;
    Ok(Claim::Period {
        code,
        preperiod,
        period,
    })
}

fn code(field: &Field<'_>) -> Result<Code, Diagnostic> {
    normalise_code(field.text).ok_or_else(|| {
        Diagnostic::new(format!("`{}` is not an octal code", field.text), field.span)
            .with_label("expected a code such as `0.07`, `.45` or `4.12`")
            .with_help(
                "an octal code is a digit 0–7, a point and octal digits: `0.137`, `.6`, `4.05`",
            )
    })
}

fn unknown_or_number(field: &Field<'_>, what: &str) -> Result<Option<usize>, Diagnostic> {
    match field.text {
        "" | "?" | "-" => Ok(None),
        text => text.parse().map(Some).map_err(|_| {
            Diagnostic::new(format!("`{text}` is not a {what}"), field.span)
                .with_label(format!("expected the {what}, a whole number"))
                .with_help(format!(
                    "write the {what} as a whole number, or `?` if unknown"
                ))
        }),
    }
}

fn offset(field: &Field<'_>) -> Result<i64, Diagnostic> {
    let text = field.text;
    let parsed = match text.as_bytes().first() {
        Some(b'+' | b'-') => text.parse::<i64>().ok(),
        _ => None,
    };
    parsed.ok_or_else(|| {
        Diagnostic::new(format!("`{text}` is not a heap offset"), field.span)
            .with_label("expected `+K` or `-K`")
            .with_help("`CODE = CODE +K` means G_left(n + K) = G_right(n), e.g. `0.4 = 0.07 +1`")
    })
}

/// The verdict on one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The census says the same.
    Agree,
    /// The census (or the values) contradict the entry.
    Disagree,
    /// The census agrees up to a convention: the same period, a preperiod a few heaps off
    /// (counted from 1, or in the game with heap sizes reduced).
    Convention,
    /// The census's bounds leave it open (e.g. a published period not reached).
    Open,
    /// A code of the entry is not in the census.
    NotInCensus,
}

/// The first heap at which two sequences, or a sequence and its claimed period, differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// The first differing heap `n` (`G(n + p) ≠ G(n)`, or `G_left(n + k) ≠ G_right(n)`).
    pub heap: usize,
    /// For equivalences, the offset `k` (`G_left(n + k) = G_right(n)`; negative: the right code
    /// shifted) that agrees longest; for periods, `None`.
    pub offset: Option<i64>,
    /// The two values that differ (left, right; or `G(n + p)`, `G(n)`).
    pub values: (u32, u32),
}

/// One entry's comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The entry.
    pub entry: Entry,
    /// Agree, disagree, open, or not in the census.
    pub verdict: Verdict,
    /// What the census says, in words.
    pub census: String,
    /// The first differing heap, when the values contradict the entry.
    pub difference: Option<Difference>,
    /// A note on the difference (e.g. a convention: the published preperiod counts from 1).
    pub note: Option<String>,
}

/// A whole comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// One outcome per entry, in the table's order.
    pub outcomes: Vec<Outcome>,
}

impl Comparison {
    /// How many outcomes have `verdict`.
    pub fn count(&self, verdict: Verdict) -> usize {
        self.outcomes
            .iter()
            .filter(|o| o.verdict == verdict)
            .count()
    }
}

/// Values of codes recomputed by the engine, kept for the entries that name a code again.
pub struct Values {
    tables: HashMap<String, Vec<u32>>,
    limit: usize,
}

impl Default for Values {
    fn default() -> Self {
        Values::with_limit(MAX_RECOMPUTE)
    }
}

impl Values {
    /// No values yet; a published period is checked past a row's `values_computed` only up to
    /// `G(0..=limit)` ([`MAX_RECOMPUTE`] by default).
    pub fn with_limit(limit: usize) -> Self {
        Values {
            tables: HashMap::new(),
            limit,
        }
    }

    /// `G(0..=to)` of `octal CODE`.
    pub fn get(&mut self, code: &str, to: usize) -> Result<&[u32], CompareError> {
        let have = self.tables.get(code).map_or(0, Vec::len);
        if have <= to {
            let text = format!("octal {code}");
            let game = rules::load(SourceFile::new(text.clone(), text), &[]).map_err(|e| {
                CompareError::Rules {
                    code: code.to_string(),
                    source: Box::new(e),
                }
            })?;
            let table =
                engine::compute(&game, to as u64, &EngineOptions::default()).map_err(|source| {
                    CompareError::Engine {
                        code: code.to_string(),
                        source,
                    }
                })?;
            let values = (0..table.len()).map(|n| table.get(n)).collect();
            self.tables.insert(code.to_string(), values);
        }
        Ok(&self.tables[code][..=to])
    }
}

/// Compares `entries` with the census `rows`, recomputing values where an entry is not
/// settled by the rows alone (see the module docs).
pub fn compare(
    entries: &[Entry],
    rows: &[Row],
    values: &mut Values,
) -> Result<Comparison, CompareError> {
    let by_code: HashMap<&str, &Row> = rows.iter().map(|r| (r.code.as_str(), r)).collect();
    let mut outcomes = Vec::with_capacity(entries.len());
    for entry in entries {
        let outcome = match &entry.claim {
            Claim::Period {
                code,
                preperiod,
                period,
            } => match by_code.get(code.0.as_str()) {
                None => not_in_census(entry, &[code]),
                Some(row) => compare_period(entry, row, *preperiod, *period, values)?,
            },
            Claim::Equivalent {
                left,
                right,
                offset,
            } => match (by_code.get(left.0.as_str()), by_code.get(right.0.as_str())) {
                (Some(a), Some(b)) => compare_equivalent(entry, a, b, *offset, values)?,
                (a, b) => {
                    let missing: Vec<&Code> = [(a, left), (b, right)]
                        .into_iter()
                        .filter(|(row, _)| row.is_none())
                        .map(|(_, code)| code)
                        .collect();
                    not_in_census(entry, &missing)
                }
            },
        };
        outcomes.push(outcome);
    }
    Ok(Comparison { outcomes })
}

fn not_in_census(entry: &Entry, codes: &[&Code]) -> Outcome {
    let names: Vec<String> = codes.iter().map(|c| c.to_string()).collect();
    Outcome {
        entry: entry.clone(),
        verdict: Verdict::NotInCensus,
        census: format!("{} not in the census", names.join(" and ")),
        difference: None,
        note: None,
    }
}

/// What a row says, in words: `solved: preperiod 53, period 34`.
pub fn describe(row: &Row) -> String {
    match (row.status.as_str(), row.preperiod, row.period) {
        ("unsolved", _, _) | (_, _, None) => {
            format!("unsolved to n = {}", row.values_computed.saturating_sub(1))
        }
        (status, preperiod, Some(period)) => {
            let saltus = if row.saltus == 0 {
                String::new()
            } else {
                format!(", saltus {}", row.saltus)
            };
            let proof = if row.proved {
                String::new()
            } else {
                format!(
                    " (not proved by n = {})",
                    row.values_computed.saturating_sub(1)
                )
            };
            format!(
                "{status}: preperiod {}, period {period}{saltus}{proof}",
                preperiod.unwrap_or(0)
            )
        }
    }
}

/// The first `n ≥ from` with `G(n + p) ≠ G(n)` among `values`.
fn first_break(values: &[u32], from: usize, p: usize) -> Option<Difference> {
    (from..values.len().saturating_sub(p))
        .find(|&n| values[n + p] != values[n])
        .map(|n| Difference {
            heap: n,
            offset: None,
            values: (values[n + p], values[n]),
        })
}

fn compare_period(
    entry: &Entry,
    row: &Row,
    preperiod: Option<usize>,
    period: Option<usize>,
    values: &mut Values,
) -> Result<Outcome, CompareError> {
    let census = describe(row);
    let outcome = |verdict, difference, note: Option<String>| Outcome {
        entry: entry.clone(),
        verdict,
        census: census.clone(),
        difference,
        note,
    };
    let solved = row.proved && row.period.is_some();
    let Some(p) = period else {
        // Published as unsolved.
        return Ok(if solved {
            outcome(
                Verdict::Disagree,
                None,
                Some("published as unsolved; the census proves a period".into()),
            )
        } else {
            outcome(Verdict::Agree, None, None)
        });
    };
    let n0 = preperiod.unwrap_or(0);
    if p == 0 {
        return Ok(outcome(
            Verdict::Disagree,
            None,
            Some("a period of 0 is no period".into()),
        ));
    }
    if solved && row.period == Some(p) && row.preperiod == Some(n0) && row.saltus == 0 {
        return Ok(outcome(Verdict::Agree, None, None));
    }
    let convention = convention(row, n0, p);
    // Check the published (n0, p) on the values themselves, recomputing at most
    // `values.limit` of them (a published period of 10^12 is checked that far, not refused).
    let claim_len = n0
        .saturating_add(p.saturating_mul(2))
        .saturating_add(MARGIN);
    let computed = row.values_computed.saturating_sub(1);
    let (m0, mp) = (row.preperiod.unwrap_or(0), row.period.unwrap_or(0));
    let (to, capped) = if solved {
        let wanted = n0
            .max(m0)
            .saturating_add(p)
            .saturating_add(mp)
            .saturating_add(MARGIN);
        let cap = values.limit.max(computed);
        (wanted.min(cap), wanted > cap)
    } else if claim_len > computed && claim_len <= values.limit {
        (claim_len, false)
    } else {
        (computed, false)
    };
    let limit = values.limit;
    let g = values.get(&row.code, to)?;
    let difference = first_break(g, n0, p);
    if let Some(note) = convention {
        return Ok(outcome(Verdict::Convention, difference, Some(note)));
    }
    if let Some(difference) = difference {
        return Ok(outcome(
            Verdict::Disagree,
            Some(difference),
            Some(format!(
                "G({} + {p}) = {} ≠ G({}) = {}: not periodic with period {p} from {n0}",
                difference.heap, difference.values.0, difference.heap, difference.values.1
            )),
        ));
    }
    let unchecked = format!(
        "the values were checked to n = {to} only (at most {limit} are recomputed); the rest of the claim is unchecked"
    );
    if capped && (row.saltus != 0 || p % mp.max(1) != 0 || n0 < m0) {
        // The proved period settles it: every period of the sequence is a multiple of the
        // least, from the least preperiod on, and an arithmetic-periodic one has none.
        return Ok(outcome(
            Verdict::Disagree,
            None,
            Some(format!(
                "the census proves preperiod {m0} and period {mp}{}, so ({n0}, {p}) is no period; {unchecked}",
                if row.saltus == 0 { String::new() } else { format!(" with saltus {}", row.saltus) }
            )),
        ));
    }
    if !solved {
        let reach = g.len().saturating_sub(p);
        let note = if reach > n0 + p {
            format!("the values bear the period out to n = {}", g.len() - 1)
        } else {
            format!(
                "not reached: the census stops at n = {}, before n0 + 2p = {}",
                g.len() - 1,
                n0 + 2 * p
            )
        };
        return Ok(outcome(Verdict::Open, None, Some(note)));
    }
    // The values bear (n0, p) out: p is a multiple of the census's period, and n0 is at least
    // its preperiod.
    let mut notes = Vec::new();
    if mp != p {
        notes.push(format!(
            "the published period is {} times the least",
            p / mp.max(1)
        ));
    }
    if n0 != m0 {
        notes.push(format!(
            "the published preperiod {n0} is not the least ({m0})"
        ));
    }
    if capped {
        notes.push(unchecked);
    }
    Ok(outcome(Verdict::Disagree, None, Some(notes.join("; "))))
}

/// A published preperiod that differs from the census's by a few heaps with the same period:
/// a convention (heaps counted from 1, or in the game with heap sizes reduced, as the lookup
/// tables fold a forbidden heap of one into an offset), not a different sequence.
fn convention(row: &Row, n0: usize, p: usize) -> Option<String> {
    let (m0, mp) = (row.preperiod?, row.period?);
    let shift = n0.abs_diff(m0);
    if !row.proved || row.saltus != 0 || mp != p || shift == 0 || shift > MAX_COMPARED_OFFSET {
        return None;
    }
    Some(if n0 > m0 {
        format!(
            "convention: the published preperiod is the census's + {shift} ({n0} = {m0} + {shift}); the period is the same"
        )
    } else {
        format!(
            "convention: the published preperiod is the census's − {shift} ({n0} = {m0} − {shift}), as if heaps were counted in the game reduced by {shift}; the period is the same"
        )
    })
}

/// The longest agreement of `G_a(n + k) = G_b(n)` over `k = −MAX..=MAX` (negative `k`:
/// `G_a(n) = G_b(n + |k|)`), as the offset and the first differing heap (`None` when no
/// difference is found in the values given).
fn best_offset(a: &[u32], b: &[u32]) -> (i64, Option<Difference>) {
    // How far an offset agrees: to its first differing heap, or over its whole overlap.
    let mut best: Option<(usize, i64, Option<Difference>)> = None;
    for k in -(MAX_COMPARED_OFFSET as i64)..=MAX_COMPARED_OFFSET as i64 {
        let (overlap, difference) = offset_difference(a, b, k);
        let reach = difference.map_or(overlap, |d| d.heap);
        let better = match &best {
            None => true,
            Some((best_reach, best_k, _)) => {
                reach > *best_reach
                    || (reach == *best_reach && k.unsigned_abs() < best_k.unsigned_abs())
            }
        };
        if better {
            best = Some((reach, k, difference));
        }
    }
    let (_, k, difference) = best.expect("at least one offset is tried");
    (k, difference)
}

fn compare_equivalent(
    entry: &Entry,
    a: &Row,
    b: &Row,
    offset: Option<i64>,
    values: &mut Values,
) -> Result<Outcome, CompareError> {
    let census_offset = a.offset as i64 - b.offset as i64;
    let same_class = a.class == b.class;
    let census = if same_class {
        format!(
            "one class ({}): G_{}(n {:+}) = G_{}(n)",
            a.class, a.code, census_offset, b.code
        )
    } else {
        format!(
            "classes {} ({}) and {} ({})",
            a.class,
            describe(a),
            b.class,
            describe(b)
        )
    };
    let outcome = |verdict, difference, note: Option<String>| Outcome {
        entry: entry.clone(),
        verdict,
        census: census.clone(),
        difference,
        note,
    };
    if same_class && offset.is_none_or(|k| k == census_offset) {
        return Ok(outcome(Verdict::Agree, None, None));
    }
    // Recompute both to what the census computed (and, for solved codes, far enough that
    // agreement there would be agreement forever).
    let reach = |r: &Row| {
        let computed = r.values_computed.saturating_sub(1);
        match (r.proved, r.preperiod, r.period) {
            (true, Some(n0), Some(p)) => computed.max(
                n0.saturating_add(p.saturating_mul(2))
                    .saturating_add(MARGIN)
                    .min(values.limit),
            ),
            _ => computed,
        }
    };
    let to = reach(a).min(reach(b)).max(MAX_COMPARED_OFFSET * 4);
    let ga = values.get(&a.code, to)?.to_vec();
    let gb = values.get(&b.code, to)?;
    if same_class {
        // The stated offset differs from the census's: check the stated one directly.
        let k = offset.expect("checked above");
        let (_, difference) = offset_difference(&ga, gb, k);
        return Ok(match difference {
            None => outcome(
                Verdict::Agree,
                None,
                Some(format!("the offset {k:+} also holds to n = {to}")),
            ),
            Some(d) => outcome(
                Verdict::Disagree,
                Some(d),
                Some(format!("the offset is {census_offset:+}, not {k:+}")),
            ),
        });
    }
    let (k, difference) = match offset {
        Some(k) => (k, offset_difference(&ga, gb, k).1),
        None => best_offset(&ga, gb),
    };
    Ok(match difference {
        Some(d) => outcome(
            Verdict::Disagree,
            Some(d),
            Some(format!(
                "G_{}(n {k:+}) = G_{}(n) fails first at n = {}: {} ≠ {}",
                a.code, b.code, d.heap, d.values.0, d.values.1
            )),
        ),
        None => outcome(
            Verdict::Open,
            None,
            Some(format!(
                "the census keeps them apart, but G_{}(n {k:+}) = G_{}(n) holds to n = {to}",
                a.code, b.code
            )),
        ),
    })
}

/// The heaps compared and the first differing one of `G_a(n + k) = G_b(n)` (negative `k`:
/// `G_a(n) = G_b(n + |k|)`).
fn offset_difference(a: &[u32], b: &[u32], k: i64) -> (usize, Option<Difference>) {
    let shift = k.unsigned_abs() as usize;
    let (left, right) = if k >= 0 {
        (&a[shift.min(a.len())..], b)
    } else {
        (a, &b[shift.min(b.len())..])
    };
    let len = left.len().min(right.len());
    (
        len,
        (0..len).find(|&n| left[n] != right[n]).map(|n| Difference {
            heap: n,
            offset: Some(k),
            values: (left[n], right[n]),
        }),
    )
}

/// Reads census rows from JSON lines (one [`Row`] per line, as `census … --format jsonl`
/// writes them); `path` names the file in errors.
pub fn read_rows(path: &str, text: &str) -> Result<Vec<Row>, CompareError> {
    read_rows_from(path, text.as_bytes())
}

/// The longest line [`read_rows_from`] reads: a census row is a few hundred bytes.
pub const MAX_ROW_LINE: usize = 1 << 16;

/// [`read_rows`] from a reader, line by line, each line read with a cap of [`MAX_ROW_LINE`]
/// bytes: a forged or endless file (`/dev/zero`) is a located error, not a read of it whole.
pub fn read_rows_from(
    path: &str,
    mut reader: impl std::io::BufRead,
) -> Result<Vec<Row>, CompareError> {
    use std::io::{BufRead, Read};
    let mut rows = Vec::new();
    let mut raw = Vec::new();
    for line in 1.. {
        let row_error = |message: String| CompareError::Row {
            path: path.to_string(),
            line,
            message,
        };
        raw.clear();
        let read = reader
            .by_ref()
            .take(MAX_ROW_LINE as u64 + 1)
            .read_until(b'\n', &mut raw)
            .map_err(|e| row_error(format!("cannot read it: {e}")))?;
        if read == 0 {
            break;
        }
        if raw.len() > MAX_ROW_LINE {
            return Err(row_error(format!(
                "a line longer than {MAX_ROW_LINE} bytes (a census row is a few hundred)"
            )));
        }
        let text = std::str::from_utf8(&raw).map_err(|_| row_error("not UTF-8 text".into()))?;
        if text.trim().is_empty() {
            continue;
        }
        rows.push(serde_json::from_str(text).map_err(|e| row_error(e.to_string()))?);
    }
    Ok(rows)
}

/// The codes an entry list names, each once, in order of first mention.
pub fn codes(entries: &[Entry]) -> Vec<Code> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for entry in entries {
        let named: Vec<&Code> = match &entry.claim {
            Claim::Period { code, .. } => vec![code],
            Claim::Equivalent { left, right, .. } => vec![left, right],
        };
        for code in named {
            if seen.insert(code.clone()) {
                out.push(code.clone());
            }
        }
    }
    out
}

/// Census rows of just `codes`, run with `config` in parallel and classified among themselves
/// (the classes are those of these codes only; `class` ids in the order of `codes`).
pub fn run_codes(config: &super::Config, codes: &[Code]) -> Result<Vec<Row>, super::CensusError> {
    run_codes_with(config, codes, &|| {})
}

/// [`run_codes`], calling `done` as each code finishes (for a progress line).
pub fn run_codes_with(
    config: &super::Config,
    codes: &[Code],
    done: &(dyn Fn() + Sync),
) -> Result<Vec<Row>, super::CensusError> {
    use rayon::prelude::*;
    let records: Vec<super::Record> = codes
        .par_iter()
        .with_max_len(1)
        .map(|code| {
            let record = super::run_code(config, &code.0);
            done();
            record
        })
        .collect::<Result<_, _>>()?;
    let known: Vec<super::classes::Known<'_>> = records.iter().map(super::Record::known).collect();
    let classes = super::classes::classify(&known);
    Ok(records
        .iter()
        .zip(classes)
        .map(|(record, (class, offset))| Row::new(record, class, offset))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Vec<Entry>, TableError> {
        parse(&SourceFile::new("t.txt", text))
    }

    #[test]
    fn codes_are_normalised() {
        let n = |s| normalise_code(s).map(|c| c.0);
        assert_eq!(n(".45").as_deref(), Some("0.45"));
        assert_eq!(n("0.070").as_deref(), Some("0.07"));
        assert_eq!(n("4.12").as_deref(), Some("4.12"));
        assert_eq!(n("0.000").as_deref(), Some("0.0"));
        assert_eq!(n("0.8"), None);
        assert_eq!(n("12.3"), None);
        assert_eq!(n("007"), None);
    }

    #[test]
    fn every_layout_reads() {
        let entries = parse_text(
            "# a comment\n0.07 53 34   # Dawson's Kayles\n0.6 ? ?\n.4 = 0.070 +1\n0.161 = .36\n\ngame | x | prefix | period\n:--- | - | ---: | ---:\n.45 | 9 | 498 | 20\n4.12 | | | ?\n",
        )
        .unwrap();
        let claims: Vec<String> = entries.iter().map(|e| e.claim.to_string()).collect();
        assert_eq!(
            claims,
            [
                "0.07 53 34",
                "0.6 ? ?",
                "0.4 = 0.07 +1",
                "0.161 = 0.36",
                "0.45 498 20",
                "4.12 ? ?"
            ]
        );
        let lines: Vec<usize> = entries.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 9, 10]);
    }

    #[test]
    fn bad_lines_are_located_with_help() {
        let error = parse_text("0.07 53 34\n0.9 1 2\n").unwrap_err();
        let text = error.to_string();
        assert!(text.contains("t.txt:2:1"), "{text}");
        assert!(text.contains("2 | 0.9 1 2"), "{text}");
        assert!(text.contains("^^^"), "{text}");
        assert!(text.contains("help:"), "{text}");
        let error = parse_text("0.07 fifty 34\n").unwrap_err().to_string();
        assert!(
            error.contains("t.txt:1:6") && error.contains("^^^^^"),
            "{error}"
        );
        let error = parse_text("0.4 = 0.07 1\n").unwrap_err().to_string();
        assert!(error.contains("not a heap offset"), "{error}");
        let error = parse_text("game | period\n--- | ---\n")
            .unwrap_err()
            .to_string();
        assert!(error.contains("`prefix`"), "{error}");
        let error = parse_text("game | prefix | period\n.45 | 1 | 2\n")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("`---` row") && error.contains("t.txt:2:1"),
            "{error}"
        );
        let error = parse_text("0.07 53\n").unwrap_err().to_string();
        assert!(error.contains("without its preperiod"), "{error}");
    }

    #[test]
    fn offsets_are_found_both_ways() {
        let a = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        let b = [2, 3, 4, 5, 6, 7, 8, 9];
        assert_eq!(best_offset(&a, &b), (2, None));
        let (k, d) = best_offset(&b, &a);
        assert_eq!((k, d), (-2, None));
        let c = [0, 1, 2, 9, 4, 5];
        let (k, d) = best_offset(&a, &c);
        assert_eq!(k, 0);
        assert_eq!(d.map(|d| (d.heap, d.values)), Some((3, (3, 9))));
    }

    #[test]
    fn periods_break_where_the_values_do() {
        let g = [5, 0, 1, 0, 1, 0, 2, 0];
        assert_eq!(first_break(&g, 1, 2).map(|d| d.heap), Some(4));
        assert_eq!(first_break(&g, 1, 1).map(|d| d.heap), Some(1));
        assert_eq!(first_break(&g[..6], 1, 2), None);
    }
}
