//! A loopy game's table ([`LoopyTable`]): every position's outcome (P, N or D), Smith's
//! remoteness and generalized Sprague–Grundy value, as text, CSV or JSON.
//!
//! * CSV: the coordinates' names (`node` for a graph file), then `outcome,remoteness,value`;
//!   `remoteness` is empty for a draw, `value` is `3` or `inf{0,2}`.
//! * JSON: `{"game", "coordinates", "positions": [{<coordinates>, "outcome", "remoteness",
//!   "value"}], "counts": {"P", "N", "D"}}`, `remoteness` `null` for a draw.
//! * `solve --json`: `{"play": "normal", "position", "outcome" ("N", "P" or "D"), "value"
//!   (`"3"` or `"inf{0,2}"`), "values" (each component's), "remoteness" (a single token's;
//!   `null` for a draw or a sum), "method", "winning_moves", "drawing_moves"}`, each move
//!   `{"component" (1-based), "from", "to", "rule", "binders"}`.

use std::io::{self, Write};

use serde_json::{json, Map, Value};

use super::Format;
use crate::solve::loopy::{LoopyMove, LoopySolveReport};
use crate::value::loopy::LoopyTable;
use crate::value::Outcome;

/// Writes `table` in `format` (text, csv or json).
pub fn write_table(
    out: &mut dyn Write,
    table: &LoopyTable,
    format: Format,
    game: &str,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    match format {
        Format::Csv => write_csv(&mut out, table)?,
        Format::Json => write_json(&mut out, table, game)?,
        _ => write_text(&mut out, table)?,
    }
    out.flush()
}

fn remoteness(r: Option<u32>) -> String {
    r.map_or_else(String::new, |r| r.to_string())
}

fn write_text(out: &mut dyn Write, table: &LoopyTable) -> io::Result<()> {
    let header = if table.coordinates.len() == 1 {
        table.coordinates[0].clone()
    } else {
        format!("({})", table.coordinates.join(", "))
    };
    let width = table.names[..table.rows]
        .iter()
        .map(|n| n.chars().count())
        .chain([header.chars().count()])
        .max()
        .unwrap_or(1);
    writeln!(out, "{header:>width$}  outcome  remoteness  value")?;
    for v in 0..table.rows {
        let line = format!(
            "{:>width$}  {:<7}  {:>10}  {}",
            table.names[v],
            table.outcome[v].to_string(),
            table.remoteness[v].map_or_else(|| "-".to_string(), |r| r.to_string()),
            table.values[v].pretty()
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    let [p, n, d] = table.counts();
    writeln!(
        out,
        "{p} P (the player to move loses), {n} N (wins), {d} D (draw: neither can force a win) of {} positions",
        table.rows
    )?;
    writeln!(
        out,
        "remoteness: moves until the end when the winner hurries and the loser delays; value: the generalized Sprague–Grundy value (∞{{K}}: K the finite values of its options)"
    )
}

fn write_csv(out: &mut dyn Write, table: &LoopyTable) -> io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    let mut header: Vec<&str> = table.coordinates.iter().map(String::as_str).collect();
    header.extend(["outcome", "remoteness", "value"]);
    writer.write_record(&header).map_err(super::csv_io_error)?;
    for v in 0..table.rows {
        let mut record: Vec<String> = if table.positions.is_empty() {
            vec![table.names[v].clone()]
        } else {
            table.positions[v].iter().map(u64::to_string).collect()
        };
        record.push(table.outcome[v].to_string());
        record.push(remoteness(table.remoteness[v]));
        record.push(table.values[v].to_string());
        writer.write_record(&record).map_err(super::csv_io_error)?;
    }
    writer.flush()
}

/// The JSON object, streamed: one position at a time, so that a table of millions of nodes
/// takes no more memory than the table itself (the keys in the order `serde_json` sorts them).
fn write_json(out: &mut dyn Write, table: &LoopyTable, game: &str) -> io::Result<()> {
    let [p, n, d] = table.counts();
    write!(out, "{{\"coordinates\":")?;
    serde_json::to_writer(&mut *out, &table.coordinates)?;
    write!(out, ",\"counts\":")?;
    serde_json::to_writer(&mut *out, &json!({"P": p, "N": n, "D": d}))?;
    write!(out, ",\"game\":")?;
    serde_json::to_writer(&mut *out, game)?;
    write!(out, ",\"positions\":[")?;
    for v in 0..table.rows {
        let mut item = Map::new();
        if table.positions.is_empty() {
            item.insert(table.coordinates[0].clone(), json!(table.names[v]));
        } else {
            for (name, x) in table.coordinates.iter().zip(&table.positions[v]) {
                item.insert(name.clone(), json!(x));
            }
        }
        item.insert("outcome".into(), json!(table.outcome[v].to_string()));
        item.insert("remoteness".into(), json!(table.remoteness[v]));
        item.insert("value".into(), json!(table.values[v].to_string()));
        if v > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, &Value::Object(item))?;
    }
    writeln!(out, "]}}")
}

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
