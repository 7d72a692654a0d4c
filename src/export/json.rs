//! JSON for tables and period reports.
//!
//! A table is written as
//! `{"game": …, "coordinate": "n", "values": [G(0), G(1), …], "max_value": …, "p_positions": …}`,
//! with the array streamed value by value (and `p_positions`, the number of positions with
//! value 0, counted on the way), so a table of any length needs only a fixed buffer.
//! The period report's JSON is written by [`super::period`].

use std::io::{self, BufWriter, Write};

use super::csv::push_decimal;
use crate::engine::{BoxTable, SgTable, Table};

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
