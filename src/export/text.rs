//! A table for the terminal: a grid with `per_row` values per line, the line's first `n` in a
//! gutter and the column offset in a header, so `G(n)` sits at row `n − n mod per_row`,
//! column `+(n mod per_row)`:
//!
//! ```text
//!  n | +0  +1  +2  +3  +4  +5  +6  +7  +8  +9
//!  0 |  0*  0*  1   1   2   0*  3   1   1   0*
//! 10 |  3   3   2   2   4   0*  5   2   2   3
//! P-positions (value 0) are marked with *
//! ```
//!
//! P-positions (value 0, where the previous player wins) are shown in bold green when colour
//! is on, and with a `*` after the value otherwise, so the marking survives pipes and
//! colour-blind readers alike; the footer says which.

use std::io::{self, Write};

use super::TableView;
use crate::analysis::misere::MisereSummary;
use crate::engine::{BoxTable, SgTable, Table};
use crate::value::evaluate::ValueTable;
use crate::value::loopy::LoopyTable;
use crate::value::misere::MisereTable;
use crate::value::{HackenbushTable, TableKind, Valued};

/// Bold green, for P-positions when colour is on.
const HIGHLIGHT: &str = "\x1b[1;32m";
/// Back to the terminal's default style.
const RESET: &str = "\x1b[0m";

/// How [`write_text`] lays the table out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextOptions {
    /// Highlight P-positions with ANSI colour instead of a `*` marker.
    pub color: bool,
    /// Values per line (at least 1; 10 makes `n` easy to read off).
    pub per_row: usize,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            color: false,
            per_row: 10,
        }
    }
}

/// Writes `table` as a grid (see the module docs); `coordinate` names the position (e.g. `n`).
pub fn write_text(
    out: &mut dyn Write,
    table: &SgTable,
    coordinate: &str,
    options: &TextOptions,
) -> io::Result<()> {
    let per_row = options.per_row.max(1);
    if table.is_empty() {
        return writeln!(out, "(empty table: no values computed)");
    }
    let last_row_start = (table.len() - 1) / per_row * per_row;
    let gutter = coordinate
        .chars()
        .count()
        .max(digits(last_row_start as u64));
    let header_width = digits((per_row - 1) as u64) + 1;
    let cell = digits(table.max_value() as u64).max(header_width);

    let mut line = String::new();
    line.push_str(&format!("{coordinate:>gutter$} |"));
    for column in 0..per_row {
        line.push_str(&format!(" {:>cell$} ", format!("+{column}")));
    }
    writeln!(out, "{}", line.trim_end())?;

    for row_start in (0..table.len()).step_by(per_row) {
        line.clear();
        line.push_str(&format!("{row_start:>gutter$} |"));
        for n in row_start..(row_start + per_row).min(table.len()) {
            push_cell(&mut line, table.get(n), cell, options.color);
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    write_legend(out, options.color)
}

/// Appends one cell: a space, `value` right-aligned in `width`, then a `*` for a P-position
/// (value 0) without colour or a space otherwise; with colour a P-position is bold green.
pub(super) fn push_cell(line: &mut String, value: u32, width: usize, color: bool) {
    let padded = format!("{value:>width$}");
    match (value == 0, color) {
        (true, true) => line.push_str(&format!(" {HIGHLIGHT}{padded}{RESET} ")),
        (true, false) => line.push_str(&format!(" {padded}*")),
        (false, _) => line.push_str(&format!(" {padded} ")),
    }
}

/// The footer saying how [`push_cell`] marked the P-positions.
pub(super) fn write_legend(out: &mut dyn Write, color: bool) -> io::Result<()> {
    if color {
        writeln!(
            out,
            "P-positions (value 0) are shown in {HIGHLIGHT}bold green{RESET}"
        )
    } else {
        writeln!(out, "P-positions (value 0) are marked with *")
    }
}

/// Decimal digits of `value` (1 for 0).
pub(super) fn digits(value: u64) -> usize {
    value.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Writes `table` for the terminal: a heap game's sequence as in the module docs, a position
/// game's box as grids ([`write_grid_text`]).
pub fn write_table_text(out: &mut dyn Write, table: &Table, color: bool) -> io::Result<()> {
    match table {
        Table::Sequence { coordinate, values } => write_text(
            out,
            values,
            &coordinate[0],
            &TextOptions {
                color,
                ..TextOptions::default()
            },
        ),
        Table::Box(table) => write_grid_text(
            out,
            table,
            &GridOptions {
                color,
                ..GridOptions::default()
            },
        ),
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

/// Writes `table` as text grids (see the module docs).
pub fn write_grid_text(
    out: &mut dyn Write,
    table: &BoxTable,
    options: &GridOptions,
) -> io::Result<()> {
    let coordinates = table.coordinates();
    let extents = table.extents();
    if let [coordinate] = coordinates {
        // One coordinate: the sequence layout.
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

/// The text exporter: a grid of normal values (a sequence, a box), one line per position of the
/// other tables.
pub struct Text;

impl super::TableFormat for Text {
    fn supports(&self, _: TableKind) -> bool {
        true
    }

    fn write(&self, out: &mut dyn Write, table: &Valued, view: &TableView<'_>) -> io::Result<()> {
        match table {
            Valued::Normal(table) => write_table_text(out, table, view.color),
            Valued::Misere(table) => misere_text(
                out,
                table,
                view.misere
                    .expect("a misère table is written with its summary"),
            ),
            Valued::Loopy(table) => {
                let mut out = io::BufWriter::new(out);
                loopy_text(&mut out, table)?;
                out.flush()
            }
            Valued::Hackenbush(table) => hackenbush_text(out, table),
            Valued::Rule(table) => rule_text(out, table),
        }
    }
}

/// A position as a row of a table of positions names it: its node's name, `7`, or `(1, 2)`.
fn position_name(table: &ValueTable, index: usize) -> String {
    if let Some(name) = table.names().get(index) {
        return name.clone();
    }
    let position = table.position_of(index);
    if position.len() == 1 {
        position[0].to_string()
    } else {
        crate::engine::multi::show_position(&position)
    }
}

/// A value rule's table: one line per position with its outcome (and its value, when the rule
/// gives values), then the counts of each outcome.
fn rule_text(out: &mut dyn Write, table: &ValueTable) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let header = if table.coordinates().len() == 1 {
        table.coordinates()[0].clone()
    } else {
        format!("({})", table.coordinates().join(", "))
    };
    let names: Vec<String> = (0..table.cells().len())
        .map(|i| position_name(table, i))
        .collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .chain([header.chars().count()])
        .max()
        .unwrap_or(1);
    let values = table.has_values();
    writeln!(
        out,
        "{}",
        format!(
            "{header:>width$}  outcome  {}",
            if values { "value" } else { "" }
        )
        .trim_end()
    )?;
    let mut counts = [0usize; 3];
    for (name, (value, outcome)) in names.iter().zip(table.cells()) {
        counts[*outcome as usize] += 1;
        let line = format!("{name:>width$}  {:<7}  {value}", outcome.to_string());
        writeln!(out, "{}", line.trim_end())?;
    }
    let [p, n, d] = counts;
    writeln!(
        out,
        "{p} P (the player to move loses), {n} N (wins), {d} D (draw: neither can force a win) of {} positions ({} rule)",
        table.cells().len(),
        table.rule()
    )?;
    out.flush()
}

/// A Hackenbush picture: the value of the part hanging above each node.
fn hackenbush_text(out: &mut dyn Write, table: &HackenbushTable) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let position = &table.picture;
    let values = position.node_values();
    let width = table
        .names
        .iter()
        .map(|n| n.chars().count())
        .chain([4])
        .max()
        .unwrap_or(4);
    writeln!(out, "{:>width$}  value", "node")?;
    for (name, value) in table.names.iter().zip(&values) {
        let shown = value.map_or_else(|| "- (cut off from the ground)".into(), |v| v.to_string());
        writeln!(out, "{name:>width$}  {shown}")?;
    }
    writeln!(
        out,
        "value: the Sprague–Grundy value of the edges hanging above the node ({} principle); the whole position (ground {}) is {}",
        if position.is_tree() { "colon" } else { "colon and fusion" },
        table.names[position.ground() as usize],
        position.value()
    )?;
    out.flush()
}

fn misere_text(
    out: &mut dyn Write,
    table: &MisereTable,
    summary: &MisereSummary,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let positions: Vec<String> = (0..table.cells.len())
        .map(|index| {
            let position = table.position_of(index);
            if position.len() == 1 {
                position[0].to_string()
            } else {
                crate::engine::multi::show_position(&position)
            }
        })
        .collect();
    let name = if table.coordinates.len() == 1 {
        table.coordinates[0].clone()
    } else {
        format!("({})", table.coordinates.join(", "))
    };
    let width = positions
        .iter()
        .map(|p| p.chars().count())
        .chain([name.chars().count()])
        .max()
        .unwrap_or(1);
    let genera: Vec<String> = table.cells.iter().map(|c| c.genus.to_string()).collect();
    let genus_width = genera.iter().map(String::len).chain([5]).max().unwrap_or(5);
    writeln!(out, "{name:>width$}  sg  G⁻   genus")?;
    for ((position, cell), genus) in positions.iter().zip(&table.cells).zip(&genera) {
        let mark = if cell.misere() == 0 { "*" } else { " " };
        let species = if cell.is_tame() {
            String::new()
        } else {
            format!("  {}", cell.species.word())
        };
        let line = format!(
            "{position:>width$}  {:>2}  {:>2}{mark}  {genus:<genus_width$}{species}",
            cell.normal(),
            cell.misere(),
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(
        out,
        "* misère P-position (G⁻ = 0: the player to move loses); {} of {} positions",
        summary.p_positions, summary.positions
    )?;
    let kind = if table.heap_game { "heap" } else { "position" };
    match summary.first_wild {
        None => writeln!(
            out,
            "every {kind} shown is tame: sums of them are won as in misère Nim (Conway's tame rule)"
        )?,
        Some(index) => {
            writeln!(
                out,
                "first wild {kind}: {} (genus {}, {}); a wild position is one with a position whose genus is not that of a Nim sum",
                positions[index],
                genera[index],
                table.cells[index].species.word()
            )?;
            writeln!(
                out,
                "restive / restless: not tame, but every option is tame, with normal value ≤ 1 / misère value ≤ 1 (Winning Ways ch. 13)"
            )?;
        }
    }
    if table.heap_game {
        match &summary.genus_period {
            Some(p) => writeln!(
                out,
                "genus sequence: period {} from n = {} (seen in this table, not proved)",
                p.period, p.preperiod
            )?,
            None => writeln!(out, "genus sequence: no period found in this table")?,
        }
    }
    out.flush()
}

fn loopy_text(out: &mut dyn Write, table: &LoopyTable) -> io::Result<()> {
    let header = if table.coordinates.len() == 1 {
        table.coordinates[0].clone()
    } else {
        format!("({})", table.coordinates.join(", "))
    };
    let names: Vec<_> = (0..table.rows).map(|v| table.name(v)).collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .chain([header.chars().count()])
        .max()
        .unwrap_or(1);
    writeln!(out, "{header:>width$}  outcome  remoteness  value")?;
    for (v, name) in names.iter().enumerate() {
        let line = format!(
            "{:>width$}  {:<7}  {:>10}  {}",
            name,
            table.outcome[v].to_string(),
            table
                .remoteness(v)
                .map_or_else(|| "-".to_string(), |r| r.to_string()),
            table.value(v).pretty()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn render(values: &[u32], coordinate: &str, options: TextOptions) -> String {
        let mut out = Vec::new();
        write_text(
            &mut out,
            &SgTable::from_values(values),
            coordinate,
            &options,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plain_grid_marks_p_positions_with_a_star() {
        // Dawson's Kayles (0.07), G(0..=14): OEIS A002187.
        let values = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4];
        let text = render(
            &values,
            "n",
            TextOptions {
                color: false,
                per_row: 10,
            },
        );
        let expected = [
            " n | +0  +1  +2  +3  +4  +5  +6  +7  +8  +9",
            " 0 |  0*  0*  1   1   2   0*  3   1   1   0*",
            "10 |  3   3   2   2   4",
            "P-positions (value 0) are marked with *",
            "",
        ]
        .join("\n");
        assert_eq!(text, expected);
    }

    #[test]
    fn colour_grid_uses_bold_green_and_no_star() {
        let text = render(
            &[0, 1, 10],
            "heap",
            TextOptions {
                color: true,
                per_row: 2,
            },
        );
        let expected = [
            "heap | +0  +1",
            "   0 | \x1b[1;32m 0\x1b[0m   1",
            "   2 | 10",
            "P-positions (value 0) are shown in \x1b[1;32mbold green\x1b[0m",
            "",
        ]
        .join("\n");
        assert_eq!(text, expected);
    }

    #[test]
    fn wide_values_widen_every_cell() {
        let text = render(
            &[0, 12345],
            "n",
            TextOptions {
                color: false,
                per_row: 2,
            },
        );
        assert_eq!(text.lines().nth(1).unwrap(), "0 |     0* 12345");
    }

    #[test]
    fn empty_table_says_so() {
        assert!(render(&[], "n", TextOptions::default()).contains("empty"));
    }

    mod grids {
        use super::super::*;
        use crate::export::Format;

        use crate::export::testing::{names, nim, render};

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
            assert_eq!(render(&nim(2, 3), Format::Text), expected);
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
            assert!(render(&line, Format::Text).starts_with("n | +0  +1"));
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
    }
}
