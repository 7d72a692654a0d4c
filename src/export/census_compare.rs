//! The report of `census compare` ([`crate::census::compare::Comparison`]): one line per
//! entry of the published table and a summary line, as text, or one JSON object.
//!
//! ```text
//! agree     line 3   0.07 53 34: solved: preperiod 53, period 34
//! DISAGREE  line 7   0.161 = 0.36: classes 12 (…) and 30 (…); first differing heap 519 (offset +0: 3 ≠ 1)
//! 5 entries: 3 agree, 1 disagree, 0 open, 1 not in the census
//! ```

use std::io::{self, Write};

use crate::census::compare::{Comparison, Outcome, Verdict};

/// The word of a verdict in the text report.
fn word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Agree => "agree",
        Verdict::Disagree => "DISAGREE",
        Verdict::Convention => "agree*",
        Verdict::Open => "open",
        Verdict::NotInCensus => "absent",
    }
}

/// One outcome's line, without its newline.
pub fn outcome_line(outcome: &Outcome) -> String {
    let mut line = format!(
        "{:<9} line {:<4} {}: {}",
        word(outcome.verdict),
        outcome.entry.line,
        outcome.entry.claim,
        outcome.census
    );
    if let Some(d) = outcome.difference {
        match d.offset {
            Some(k) => line.push_str(&format!(
                "; first differing heap {} (best offset {k:+}: {} ≠ {})",
                d.heap, d.values.0, d.values.1
            )),
            None => line.push_str(&format!("; first differing heap {}", d.heap)),
        }
    }
    if let Some(note) = outcome.note.as_deref().filter(|n| !n.is_empty()) {
        line.push_str(&format!(" — {note}"));
    }
    line
}

/// The summary line: counts of each verdict.
pub fn summary(comparison: &Comparison) -> String {
    let entries = match comparison.outcomes.len() {
        1 => "1 entry".to_string(),
        n => format!("{n} entries"),
    };
    format!(
        "{entries}: {} agree, {} agree up to a convention (agree*), {} disagree, {} open, {} not in the census",
        comparison.count(Verdict::Agree),
        comparison.count(Verdict::Convention),
        comparison.count(Verdict::Disagree),
        comparison.count(Verdict::Open),
        comparison.count(Verdict::NotInCensus)
    )
}

/// Writes the text report.
pub fn write_text(out: &mut dyn Write, comparison: &Comparison) -> io::Result<()> {
    for outcome in &comparison.outcomes {
        writeln!(out, "{}", outcome_line(outcome))?;
    }
    writeln!(out, "{}", summary(comparison))
}

/// Writes the report as one JSON object: `outcomes` (each with its `entry`, `verdict`,
/// `census`, `difference`, `note`) and `counts`.
pub fn write_json(out: &mut dyn Write, comparison: &Comparison) -> io::Result<()> {
    let value = serde_json::json!({
        "outcomes": comparison.outcomes,
        "counts": {
            "entries": comparison.outcomes.len(),
            "agree": comparison.count(Verdict::Agree),
            "convention": comparison.count(Verdict::Convention),
            "disagree": comparison.count(Verdict::Disagree),
            "open": comparison.count(Verdict::Open),
            "not_in_census": comparison.count(Verdict::NotInCensus),
        },
    });
    serde_json::to_writer_pretty(&mut *out, &value)?;
    writeln!(out)
}
