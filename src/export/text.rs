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

use crate::engine::SgTable;

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
}
