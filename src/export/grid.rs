//! Tables of games with several coordinates ([`BoxTable`]): a text grid, CSV, a plain matrix
//! and JSON.
//!
//! * text: for two coordinates a grid, rows labelled by the first coordinate and columns by
//!   the second, P-positions (value 0) marked as in [`super::text`] (a `*` after the value, or
//!   bold green with colour on); a box wider or taller than the limits is cut, with a note
//!   saying what is shown. One coordinate is the sequence grid of [`super::text`]; three or
//!   more are shown as one grid of the last two per value of the leading ones.
//!
//!   ```text
//!   x\y | 0  1  2  3
//!     0 | 0* 1  2  3
//!     1 | 1  0* 3  2
//!   P-positions (value 0) are marked with *
//!   ```
//! * CSV: a header with one column per coordinate, named as in the rules file, then `sg`;
//!   one row per position, row-major (the last coordinate fastest);
//! * matrix: plain CSV with no header, one line per value of the leading coordinates (for two
//!   coordinates: one line per value of the first), holding the values along the last;
//! * JSON: `{"game", "coordinates", "extents", "values", "max_value", "p_positions"}`, where
//!   `values` nests one array level per coordinate (`values[x][y]` for two).

use std::io::{self, BufWriter, Write};

use super::csv::{push_decimal, quote_field};
use super::text::{digits, push_cell, write_legend, write_text, TextOptions};
use super::Format;
use crate::engine::boxtable::BoxTable;
use crate::engine::SgTable;

/// Bytes buffered before each call to the underlying writer.
const BUFFER_BYTES: usize = 1 << 16;

/// A format for a [`BoxTable`] (`table --format text|csv|matrix|json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GridFormat {
    /// The terminal grid.
    Text,
    /// One column per coordinate, then `sg`.
    Csv,
    /// The values as a plain CSV grid.
    Matrix,
    /// One JSON object with nested arrays.
    Json,
}

impl From<Format> for GridFormat {
    fn from(format: Format) -> Self {
        match format {
            Format::Text => GridFormat::Text,
            Format::Csv => GridFormat::Csv,
            Format::Json => GridFormat::Json,
        }
    }
}

/// How [`write_grid_text`] lays a table out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridOptions {
    /// Highlight P-positions with ANSI colour instead of a `*` marker.
    pub color: bool,
    /// The widest line, in characters (at least one column is always shown).
    pub width: usize,
    /// The most rows shown per grid.
    pub rows: usize,
    /// The most grids shown for three or more coordinates.
    pub slices: usize,
}

impl Default for GridOptions {
    fn default() -> Self {
        GridOptions {
            color: false,
            width: 100,
            rows: 50,
            slices: 8,
        }
    }
}

/// Writes `table` in `format`; `game` is used by JSON, `color` by text.
pub fn write_box(
    out: &mut dyn Write,
    table: &BoxTable,
    format: GridFormat,
    game: &str,
    color: bool,
) -> io::Result<()> {
    match format {
        GridFormat::Text => write_grid_text(
            out,
            table,
            &GridOptions {
                color,
                ..GridOptions::default()
            },
        ),
        GridFormat::Csv => write_box_csv(out, table),
        GridFormat::Matrix => write_matrix(out, table),
        GridFormat::Json => write_box_json(out, table, game),
    }
}

/// Writes `table` as text grids (see the module docs).
pub fn write_grid_text(
    out: &mut dyn Write,
    table: &BoxTable,
    options: &GridOptions,
) -> io::Result<()> {
    let coordinates = table.coordinates();
    let extents = table.extents();
    if let [coordinate] = coordinates {
        let sequence = SgTable::from_values(table.values());
        let text_options = TextOptions {
            color: options.color,
            ..TextOptions::default()
        };
        return write_text(out, &sequence, coordinate, &text_options);
    }
    let leading = table.dimension() - 2;
    let (rows, columns) = (extents[leading] + 1, extents[leading + 1] + 1);
    let slice_size = (rows * columns) as usize;
    let slices = table.size() / slice_size;
    for slice in 0..slices.min(options.slices.max(1)) {
        let start = slice * slice_size;
        if leading > 0 {
            let position = table.position_of(start);
            let names: Vec<String> = coordinates[..leading]
                .iter()
                .zip(&position)
                .map(|(name, value)| format!("{name} = {value}"))
                .collect();
            writeln!(out, "{}:", names.join(", "))?;
        }
        let grid = Grid {
            values: &table.values()[start..start + slice_size],
            row_name: &coordinates[leading],
            column_name: &coordinates[leading + 1],
            rows: rows as usize,
            columns: columns as usize,
        };
        grid.write(out, options)?;
    }
    if slices > options.slices.max(1) {
        writeln!(
            out,
            "(showing {} of {slices} grids; all values: --format csv)",
            options.slices.max(1)
        )?;
    }
    write_legend(out, options.color)
}

/// One 2-D grid of values, row-major.
struct Grid<'a> {
    values: &'a [u32],
    row_name: &'a str,
    column_name: &'a str,
    rows: usize,
    columns: usize,
}

impl Grid<'_> {
    /// Writes as many rows and columns as `options` allow, then a note if some were cut.
    fn write(&self, out: &mut dyn Write, options: &GridOptions) -> io::Result<()> {
        let corner = format!("{}\\{}", self.row_name, self.column_name);
        let gutter = corner.chars().count().max(digits(self.rows as u64 - 1));
        let widest_value = self.values.iter().copied().max().unwrap_or(0);
        let cell = digits(u64::from(widest_value)).max(digits(self.columns as u64 - 1));
        // A line is the gutter, " |", then a space, the cell and a marker per column.
        let fitting = options.width.saturating_sub(gutter + 2) / (cell + 2);
        let shown_columns = fitting.clamp(1, self.columns);
        let shown_rows = options.rows.clamp(1, self.rows);

        let mut line = format!("{corner:>gutter$} |");
        for column in 0..shown_columns {
            line.push_str(&format!(" {column:>cell$} "));
        }
        writeln!(out, "{}", line.trim_end())?;
        for row in 0..shown_rows {
            line.clear();
            line.push_str(&format!("{row:>gutter$} |"));
            let values = &self.values[row * self.columns..][..shown_columns];
            for &value in values {
                push_cell(&mut line, value, cell, options.color);
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        if shown_rows < self.rows || shown_columns < self.columns {
            writeln!(
                out,
                "(showing {} ≤ {} and {} ≤ {} of {} ≤ {}, {} ≤ {}; all values: --format csv)",
                self.row_name,
                shown_rows - 1,
                self.column_name,
                shown_columns - 1,
                self.row_name,
                self.rows - 1,
                self.column_name,
                self.columns - 1
            )?;
        }
        Ok(())
    }
}

/// Writes `table` as CSV: the coordinates' names and `sg`, then one row per position.
pub fn write_box_csv(out: &mut dyn Write, table: &BoxTable) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(BUFFER_BYTES, out);
    let mut line = Vec::new();
    for name in table.coordinates() {
        line.extend_from_slice(quote_field(name).as_bytes());
        line.push(b',');
    }
    line.extend_from_slice(b"sg\n");
    out.write_all(&line)?;
    let mut position = vec![0u64; table.dimension()];
    for &value in table.values() {
        line.clear();
        for &c in &position {
            push_decimal(&mut line, c);
            line.push(b',');
        }
        push_decimal(&mut line, u64::from(value));
        line.push(b'\n');
        out.write_all(&line)?;
        step(&mut position, table.extents());
    }
    out.flush()
}

/// The next position in row-major order (the last coordinate fastest), wrapping to 0.
fn step(position: &mut [u64], extents: &[u64]) {
    for (c, &extent) in position.iter_mut().zip(extents).rev() {
        if *c < extent {
            *c += 1;
            return;
        }
        *c = 0;
    }
}

/// Writes `table` as a plain CSV grid: one line per value of the leading coordinates.
pub fn write_matrix(out: &mut dyn Write, table: &BoxTable) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(BUFFER_BYTES, out);
    let length = *table.extents().last().expect("a box has a coordinate") as usize + 1;
    let mut line = Vec::new();
    for row in table.values().chunks(length) {
        line.clear();
        for &value in row {
            push_decimal(&mut line, u64::from(value));
            line.push(b',');
        }
        // The last comma becomes the line break.
        line.pop();
        line.push(b'\n');
        out.write_all(&line)?;
    }
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
        step(&mut position, extents);
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
    use serde_json::Value;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Two-heap Nim, G(x, y) = x ⊕ y (Bouton 1901).
    fn nim(rows: u64, columns: u64) -> BoxTable {
        BoxTable::from_fn(names(&["x", "y"]), vec![rows, columns], |p| {
            (p[0] ^ p[1]) as u32
        })
    }

    fn render(table: &BoxTable, format: GridFormat) -> String {
        let mut out = Vec::new();
        write_box(&mut out, table, format, "Nim", false).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn text(table: &BoxTable, options: GridOptions) -> String {
        let mut out = Vec::new();
        write_grid_text(&mut out, table, &options).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn small_grid_marks_p_positions() {
        let expected = [
            "x\\y | 0  1  2  3",
            "  0 | 0* 1  2  3",
            "  1 | 1  0* 3  2",
            "  2 | 2  3  0* 1",
            "P-positions (value 0) are marked with *",
            "",
        ]
        .join("\n");
        assert_eq!(render(&nim(2, 3), GridFormat::Text), expected);
    }

    #[test]
    fn colour_grid_uses_bold_green() {
        let table = nim(1, 1);
        let expected = [
            "x\\y | 0  1",
            "  0 | \x1b[1;32m0\x1b[0m  1",
            "  1 | 1  \x1b[1;32m0\x1b[0m",
            "P-positions (value 0) are shown in \x1b[1;32mbold green\x1b[0m",
            "",
        ]
        .join("\n");
        let options = GridOptions {
            color: true,
            ..GridOptions::default()
        };
        assert_eq!(text(&table, options), expected);
    }

    #[test]
    fn large_boxes_are_cut_with_a_note() {
        let options = GridOptions {
            width: 30,
            rows: 3,
            ..GridOptions::default()
        };
        let grid = text(&nim(100, 200), options);
        let lines: Vec<&str> = grid.lines().collect();
        assert!(lines[..4].iter().all(|l| l.chars().count() <= 30), "{grid}");
        assert_eq!(lines.len(), 1 + 3 + 2, "{grid}");
        assert_eq!(lines[1], "  0 |   0*   1    2    3    4");
        assert_eq!(
            lines[4],
            "(showing x ≤ 2 and y ≤ 4 of x ≤ 100, y ≤ 200; all values: --format csv)"
        );
    }

    #[test]
    fn one_and_three_coordinates() {
        let line = BoxTable::from_fn(names(&["n"]), vec![2], |p| p[0] as u32);
        assert!(render(&line, GridFormat::Text).starts_with("n | +0  +1"));
        let cube = BoxTable::from_fn(names(&["a", "b", "c"]), vec![2, 1, 1], |p| {
            (p[0] ^ p[1] ^ p[2]) as u32
        });
        let options = GridOptions {
            slices: 2,
            ..GridOptions::default()
        };
        let grid = text(&cube, options);
        assert!(
            grid.starts_with("a = 0:\nb\\c | 0  1\n  0 | 0* 1\n"),
            "{grid}"
        );
        assert!(grid.contains("a = 1:\n"));
        assert!(!grid.contains("a = 2:"));
        assert!(grid.contains("(showing 2 of 3 grids"));
    }

    #[test]
    fn csv_has_one_column_per_coordinate_and_parses_back() {
        let table = nim(3, 5);
        let csv = render(&table, GridFormat::Csv);
        assert!(csv.starts_with("x,y,sg\n0,0,0\n0,1,1\n"));
        let mut reader = ::csv::Reader::from_reader(csv.as_bytes());
        assert_eq!(reader.headers().unwrap(), vec!["x", "y", "sg"]);
        let mut rows = 0;
        for record in reader.records() {
            let record = record.unwrap();
            let field = |i: usize| record[i].parse::<u64>().unwrap();
            assert_eq!(table.get(&[field(0), field(1)]), Some(field(2) as u32));
            rows += 1;
        }
        assert_eq!(rows, table.size());
        let odd = BoxTable::from_fn(names(&["a,b", "c"]), vec![0, 0], |_| 7);
        assert_eq!(render(&odd, GridFormat::Csv), "\"a,b\",c,sg\n0,0,7\n");
    }

    #[test]
    fn matrix_is_one_line_per_row() {
        assert_eq!(
            render(&nim(2, 3), GridFormat::Matrix),
            "0,1,2,3\n1,0,3,2\n2,3,0,1\n"
        );
        let line = BoxTable::from_fn(names(&["n"]), vec![3], |p| p[0] as u32);
        assert_eq!(render(&line, GridFormat::Matrix), "0,1,2,3\n");
    }

    #[test]
    fn json_nests_one_level_per_coordinate() {
        let json = render(&nim(1, 2), GridFormat::Json);
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
            let parsed: Value = serde_json::from_str(&render(&table, GridFormat::Json)).unwrap();
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
