//! JSON for tables and period reports.
//!
//! A table is written as
//! `{"game": …, "coordinate": "n", "values": [G(0), G(1), …], "max_value": …, "p_positions": …}`,
//! with the array streamed value by value (and `p_positions`, the number of positions with
//! value 0, counted on the way), so a table of any length needs only a fixed buffer.
//! The period report's JSON is written by [`super::period`].

use std::io::{self, BufWriter, Write};

use super::csv::push_decimal;
use serde_json::{json, Map, Value};

use super::misere::periodicity_json;
use super::TableView;
use crate::analysis::misere::MisereSummary;
use crate::engine::{BoxTable, SgTable, Table};
use crate::value::evaluate::ValueTable;
use crate::value::loopy::LoopyTable;
use crate::value::misere::MisereTable;
use crate::value::{HackenbushTable, TableKind, Valued};

/// Bytes collected before each call to the underlying writer.
const BUFFER_BYTES: usize = 1 << 16;

/// Writes `table` as one JSON object, ending with a newline: a heap game's sequence as in the
/// module docs, a position game's box as
/// `{"game", "coordinates", "extents", "values", "max_value", "p_positions"}`, where `values`
/// nests one array level per coordinate (`values[x][y]` for two).
pub fn write_table_json(out: &mut dyn Write, table: &Table, game: &str) -> io::Result<()> {
    match table {
        Table::Sequence { coordinate, values } => {
            write_sequence_json(out, values, game, &coordinate[0])
        }
        Table::Box(table) => write_box_json(out, table, game),
    }
}

/// Writes a heap game's sequence as one JSON object (see the module docs).
pub fn write_sequence_json(
    out: &mut dyn Write,
    table: &SgTable,
    game: &str,
    coordinate: &str,
) -> io::Result<()> {
    let mut buffer = Vec::with_capacity(BUFFER_BYTES + 16);
    buffer.extend_from_slice(b"{\"game\":");
    serde_json::to_writer(&mut buffer, game)?;
    buffer.extend_from_slice(b",\"coordinate\":");
    serde_json::to_writer(&mut buffer, coordinate)?;
    buffer.extend_from_slice(b",\"values\":[");
    let mut p_positions: u64 = 0;
    for (n, value) in table.iter().enumerate() {
        if n > 0 {
            buffer.push(b',');
        }
        p_positions += u64::from(value == 0);
        push_decimal(&mut buffer, u64::from(value));
        if buffer.len() >= BUFFER_BYTES {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    // Writing to a Vec cannot fail.
    let _ = writeln!(
        buffer,
        "],\"max_value\":{},\"p_positions\":{p_positions}}}",
        table.max_value()
    );
    out.write_all(&buffer)?;
    out.flush()
}

/// Writes `table` as one JSON object with nested value arrays (see the module docs).
pub fn write_box_json(out: &mut dyn Write, table: &BoxTable, game: &str) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(BUFFER_BYTES, out);
    out.write_all(b"{\"game\":")?;
    serde_json::to_writer(&mut out, game)?;
    out.write_all(b",\"coordinates\":")?;
    serde_json::to_writer(&mut out, table.coordinates())?;
    out.write_all(b",\"extents\":")?;
    serde_json::to_writer(&mut out, table.extents())?;
    out.write_all(b",\"values\":")?;
    let extents = table.extents();
    let mut position = vec![0u64; extents.len()];
    let mut item = Vec::new();
    for (index, &value) in table.values().iter().enumerate() {
        // Open one bracket per trailing coordinate at 0, and after the value close one per
        // trailing coordinate at its extent.
        item.clear();
        if index > 0 {
            item.push(b',');
        }
        let opening = position.iter().rev().take_while(|&&c| c == 0).count();
        item.extend(std::iter::repeat_n(b'[', opening));
        push_decimal(&mut item, u64::from(value));
        let closing = position
            .iter()
            .zip(extents)
            .rev()
            .take_while(|(c, e)| c == e)
            .count();
        item.extend(std::iter::repeat_n(b']', closing));
        out.write_all(&item)?;
        table.shape().step(&mut position);
    }
    let p_positions = table.values().iter().filter(|&&v| v == 0).count();
    writeln!(
        out,
        ",\"max_value\":{},\"p_positions\":{p_positions}}}",
        table.max_value()
    )?;
    out.flush()
}

/// The JSON exporter: one object per table, streamed position by position.
pub struct Json;

impl super::TableFormat for Json {
    fn supports(&self, _: TableKind) -> bool {
        true
    }

    fn write(&self, out: &mut dyn Write, table: &Valued, view: &TableView<'_>) -> io::Result<()> {
        let game = view.game;
        match table {
            Valued::Normal(table) => write_table_json(out, table, game),
            Valued::Misere(table) => misere_json(
                out,
                table,
                view.misere
                    .expect("a misère table is written with its summary"),
                game,
            ),
            Valued::Loopy(table) => {
                let mut out = BufWriter::new(out);
                loopy_json(&mut out, table, game)?;
                out.flush()
            }
            Valued::Hackenbush(table) => hackenbush_json(out, table, game),
            Valued::Rule(table) => rule_json(out, table, game),
        }
    }
}

/// A value rule's table: `{"game", "rule", "coordinates", "extents", "positions": [{<coordinates>,
/// "outcome", "value"}], "counts": {"P", "N", "D"}}`, `value` only when the rule gives values.
fn rule_json(out: &mut dyn Write, table: &ValueTable, game: &str) -> io::Result<()> {
    let mut out = BufWriter::new(out);
    let mut counts = [0usize; 3];
    write!(out, "{{\"game\":")?;
    serde_json::to_writer(&mut out, game)?;
    write!(out, ",\"rule\":")?;
    serde_json::to_writer(&mut out, table.rule())?;
    write!(out, ",\"coordinates\":")?;
    serde_json::to_writer(&mut out, table.coordinates())?;
    write!(out, ",\"extents\":")?;
    serde_json::to_writer(&mut out, table.extents())?;
    write!(out, ",\"positions\":[")?;
    // Asked once: it looks at every cell.
    let values = table.has_values();
    for (index, (value, outcome)) in table.cells().iter().enumerate() {
        counts[*outcome as usize] += 1;
        let mut item = Map::new();
        match table.names().get(index) {
            Some(name) => {
                item.insert(table.coordinates()[0].clone(), json!(name));
            }
            None => {
                for (name, x) in table.coordinates().iter().zip(table.position_of(index)) {
                    item.insert(name.clone(), json!(x));
                }
            }
        }
        item.insert("outcome".into(), json!(outcome.to_string()));
        if values {
            item.insert("value".into(), json!(value));
        }
        if index > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut out, &Value::Object(item))?;
    }
    let [p, n, d] = counts;
    write!(out, "],\"counts\":")?;
    serde_json::to_writer(&mut out, &json!({"P": p, "N": n, "D": d}))?;
    writeln!(out, "}}")?;
    out.flush()
}

/// A Hackenbush picture: `{"game", "ground", "nodes": [{"node", "value"}], "outcome", "value"}`,
/// streamed node by node (keys in the order `serde_json` sorts them), so that a graph of
/// millions of nodes takes no more memory than its values.
fn hackenbush_json(out: &mut dyn Write, table: &HackenbushTable, game: &str) -> io::Result<()> {
    let mut out = BufWriter::new(out);
    let position = &table.picture;
    write!(out, "{{\"game\":")?;
    serde_json::to_writer(&mut out, game)?;
    write!(out, ",\"ground\":")?;
    serde_json::to_writer(&mut out, &table.names[position.ground() as usize])?;
    write!(out, ",\"nodes\":[")?;
    for (v, (name, value)) in table.names.iter().zip(position.node_values()).enumerate() {
        if v > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut out, &json!({"node": name, "value": value}))?;
    }
    write!(out, "],\"outcome\":")?;
    serde_json::to_writer(&mut out, if position.value() == 0 { "P" } else { "N" })?;
    write!(out, ",\"value\":")?;
    serde_json::to_writer(&mut out, &position.value())?;
    writeln!(out, "}}")?;
    out.flush()
}

fn misere_json(
    out: &mut dyn Write,
    table: &MisereTable,
    summary: &MisereSummary,
    game: &str,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    write!(out, "{{\"game\":")?;
    serde_json::to_writer(&mut out, game)?;
    write!(out, ",\"play\":\"misere\",\"coordinates\":")?;
    serde_json::to_writer(&mut out, &table.coordinates)?;
    write!(out, ",\"extents\":")?;
    serde_json::to_writer(&mut out, &table.extents)?;
    write!(out, ",\"positions\":[")?;
    for (index, cell) in table.cells.iter().enumerate() {
        if index > 0 {
            write!(out, ",")?;
        }
        let mut item = serde_json::Map::new();
        for (name, value) in table.coordinates.iter().zip(table.position_of(index)) {
            item.insert(name.clone(), json!(value));
        }
        item.insert("sg".into(), json!(cell.normal()));
        item.insert("misere_sg".into(), json!(cell.misere()));
        item.insert("genus".into(), json!(cell.genus.to_string()));
        item.insert(
            "genus_superscripts".into(),
            json!(cell.genus.superscripts()),
        );
        item.insert("tame".into(), json!(cell.is_tame()));
        item.insert("species".into(), json!(cell.species));
        item.insert("misere_outcome".into(), json!(cell.outcome().to_string()));
        serde_json::to_writer(&mut out, &item)?;
    }
    write!(out, "],\"p_positions\":{}", summary.p_positions)?;
    write!(out, ",\"first_wild\":")?;
    serde_json::to_writer(&mut out, &summary.first_wild)?;
    write!(out, ",\"genus_period\":")?;
    serde_json::to_writer(&mut out, &periodicity_json(&summary.genus_period))?;
    write!(out, ",\"misere_period\":")?;
    serde_json::to_writer(&mut out, &periodicity_json(&summary.misere_period))?;
    writeln!(out, "}}")?;
    out.flush()
}

/// The JSON object, streamed: one position at a time, so that a table of millions of nodes
/// takes no more memory than the table itself (the keys in the order `serde_json` sorts them).
fn loopy_json(out: &mut dyn Write, table: &LoopyTable, game: &str) -> io::Result<()> {
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
        match table.position(v) {
            None => {
                item.insert(table.coordinates[0].clone(), json!(table.name(v)));
            }
            Some(position) => {
                for (name, x) in table.coordinates.iter().zip(position) {
                    item.insert(name.clone(), json!(x));
                }
            }
        }
        item.insert("outcome".into(), json!(table.outcome[v].to_string()));
        item.insert("remoteness".into(), json!(table.remoteness(v)));
        item.insert("value".into(), json!(table.value(v).to_string()));
        if v > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, &Value::Object(item))?;
    }
    writeln!(out, "]}}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn table_json(values: &[u32], game: &str) -> String {
        let mut out = Vec::new();
        write_sequence_json(&mut out, &SgTable::from_values(values), game, "n").unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn small_table_exact_text() {
        assert_eq!(
            table_json(&[0, 1, 0, 5], "Nim \"like\""),
            "{\"game\":\"Nim \\\"like\\\"\",\"coordinate\":\"n\",\"values\":[0,1,0,5],\
             \"max_value\":5,\"p_positions\":2}\n"
        );
    }

    #[test]
    fn large_table_parses_back_with_every_field() {
        let values: Vec<u32> = (0..50_000u32).map(|n| (n * 7919) % 13).collect();
        let parsed: Value = serde_json::from_str(&table_json(&values, "0.07")).unwrap();
        assert_eq!(parsed["game"], "0.07");
        assert_eq!(parsed["coordinate"], "n");
        let read_back: Vec<u32> = parsed["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(read_back, values);
        assert_eq!(parsed["max_value"], 12);
        let zeros = values.iter().filter(|&&v| v == 0).count();
        assert_eq!(parsed["p_positions"], zeros);
    }

    #[test]
    fn empty_table_is_valid_json() {
        let parsed: Value = serde_json::from_str(&table_json(&[], "empty")).unwrap();
        assert_eq!(parsed["values"], json!([]));
        assert_eq!(parsed["p_positions"], 0);
    }

    mod boxes {
        use super::super::*;
        use crate::export::Format;
        use serde_json::Value;

        use crate::export::testing::{nim, render};
        #[test]
        fn json_nests_one_level_per_coordinate() {
            let json = render(&nim(1, 2), Format::Json);
            assert_eq!(
                json,
                "{\"game\":\"Nim\",\"coordinates\":[\"x\",\"y\"],\"extents\":[1,2],\
                 \"values\":[[0,1,2],[1,0,3]],\"max_value\":3,\"p_positions\":2}\n"
            );
            for extents in [vec![4], vec![2, 0, 3], vec![0, 0]] {
                let coordinates = (0..extents.len()).map(|i| format!("c{i}")).collect();
                let table = BoxTable::from_fn(coordinates, extents.clone(), |p| {
                    p.iter().sum::<u64>() as u32
                });
                let parsed: Value = serde_json::from_str(&render(&table, Format::Json)).unwrap();
                for (position, value) in table.iter() {
                    let mut cell = &parsed["values"];
                    for &c in &position {
                        cell = &cell[c as usize];
                    }
                    assert_eq!(
                        cell.as_u64(),
                        Some(u64::from(value)),
                        "{extents:?} {position:?}"
                    );
                }
                assert_eq!(parsed["extents"], serde_json::json!(extents));
            }
        }
    }
}
