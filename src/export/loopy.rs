//! `solve`'s report on a loopy sum (a game that can cycle, or a graph file's tokens): text and
//! JSON. A loopy *table* is written by the format modules, like every kind of table.
//!
//! * `solve --json`: `{"play": "normal", "position", "outcome" ("N", "P" or "D"), "value"
//!   (`"3"` or `"inf{0,2}"`), "values" (each component's), "remoteness" (a single token's;
//!   `null` for a draw or a sum), "method", "winning_moves", "drawing_moves"}`, each move
//!   `{"component" (1-based), "from", "to", "rule", "binders"}`.

use std::io::{self, Write};

use serde_json::{json, Value};

use crate::solve::loopy::{LoopyMove, LoopySolveReport};
use crate::value::Outcome;

/// How a loopy sum is decided, in words.
pub fn method_text(report: &LoopySolveReport) -> String {
    format!(
        "by generalized Sprague–Grundy values (C. A. B. Smith; retrograde analysis of {} positions) and Smith's rule for sums",
        report.positions
    )
}

fn move_text(m: &LoopyMove, components: usize) -> String {
    let place = if components > 1 {
        format!("component {}: ", m.component + 1)
    } else {
        String::new()
    };
    let by = if m.rule == "edge" {
        String::new()
    } else {
        format!("   by {}{}", m.rule, super::solve::binders_text(&m.binders))
    };
    format!("  {place}{} → {}{by}", m.from, m.to)
}

/// Writes `solve`'s report on a loopy sum.
pub fn write_solve_text(out: &mut dyn Write, report: &LoopySolveReport) -> io::Result<()> {
    writeln!(out, "position: {}", report.components.join(" + "))?;
    writeln!(out, "{}", method_text(report))?;
    let remoteness = match report.remoteness {
        Some(r) => format!(", remoteness {r}"),
        None => String::new(),
    };
    let value = report.value.pretty();
    match report.outcome {
        Outcome::P => writeln!(
            out,
            "G = {value}{remoteness}: the first player loses (every move leads to an N-position)"
        ),
        Outcome::N => {
            writeln!(out, "G = {value}{remoteness}: the first player wins")?;
            writeln!(out, "winning moves ({}):", report.winning_moves.len())?;
            for m in &report.winning_moves {
                writeln!(out, "{}", move_text(m, report.components.len()))?;
            }
            Ok(())
        }
        Outcome::D => {
            writeln!(
                out,
                "G = {value}: a draw: with best play neither player can force a win, and play goes on forever"
            )?;
            writeln!(
                out,
                "moves that keep the draw ({}; every other move loses):",
                report.drawing_moves.len()
            )?;
            for m in &report.drawing_moves {
                writeln!(out, "{}", move_text(m, report.components.len()))?;
            }
            Ok(())
        }
    }
}

fn move_json(m: &LoopyMove) -> Value {
    let binders = super::solve::binders_json(&m.binders);
    json!({
        "component": m.component + 1,
        "from": m.from,
        "to": m.to,
        "rule": m.rule,
        "binders": binders,
    })
}

/// Writes `solve --json`'s object for a loopy sum (the module documentation lists its fields).
pub fn write_solve_json(out: &mut dyn Write, report: &LoopySolveReport) -> io::Result<()> {
    let object = json!({
        "play": "normal",
        "position": report.components,
        "outcome": report.outcome.to_string(),
        "value": report.value.to_string(),
        "values": report.values.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "remoteness": report.remoteness,
        "method": method_text(report),
        "winning_moves": report.winning_moves.iter().map(move_json).collect::<Vec<_>>(),
        "drawing_moves": report.drawing_moves.iter().map(move_json).collect::<Vec<_>>(),
    });
    serde_json::to_writer(&mut *out, &object)?;
    writeln!(out)
}
