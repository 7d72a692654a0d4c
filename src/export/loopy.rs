//! A loopy game's table ([`LoopyTable`]): every position's outcome (P, N or D), Smith's
//! remoteness and generalized Sprague–Grundy value, as text, CSV or JSON.
//!
//! * CSV: the coordinates' names (`node` for a graph file), then `outcome,remoteness,value`;
//!   `remoteness` is empty for a draw, `value` is `3` or `inf{0,2}`.
//! * JSON: `{"game", "coordinates", "positions": [{<coordinates>, "outcome", "remoteness",
//!   "value"}], "counts": {"P", "N", "D"}}`, `remoteness` `null` for a draw.

use std::io::{self, Write};

use serde_json::{json, Map, Value};

use super::Format;
use crate::value::loopy::LoopyTable;

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
    writer.write_record(&header)?;
    for v in 0..table.rows {
        let mut record: Vec<String> = if table.positions.is_empty() {
            vec![table.names[v].clone()]
        } else {
            table.positions[v].iter().map(u64::to_string).collect()
        };
        record.push(table.outcome[v].to_string());
        record.push(remoteness(table.remoteness[v]));
        record.push(table.values[v].to_string());
        writer.write_record(&record)?;
    }
    writer.flush()
}

fn write_json(out: &mut dyn Write, table: &LoopyTable, game: &str) -> io::Result<()> {
    let positions: Vec<Value> = (0..table.rows)
        .map(|v| {
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
            Value::Object(item)
        })
        .collect();
    let [p, n, d] = table.counts();
    let object = json!({
        "game": game,
        "coordinates": table.coordinates,
        "positions": positions,
        "counts": {"P": p, "N": n, "D": d},
    });
    serde_json::to_writer(&mut *out, &object)?;
    writeln!(out)
}
