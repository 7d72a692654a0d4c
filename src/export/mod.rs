//! Serialisers for tables and reports: pure functions writing to a `Write` (or returning
//! bytes); files are written by the command line (atomically, through [`crate::fs`]).
//!
//! **Tables.** One module per format, each writing every kind of valued table
//! ([`crate::value::Valued`]) behind one trait, [`TableFormat`]; [`write_valued`] refuses a
//! kind a format cannot show with a typed [`ExportError::Unsupported`], never a silent fallback:
//!
//! * [`text`]: grids of normal values for the terminal, P-positions (value 0) highlighted; one
//!   line per position of the other tables (misère: `*` on misère P-positions, `wild` on wild
//!   positions, the summary below; loopy: outcome, remoteness, value; Hackenbush: the value
//!   above each node; a value rule: the outcome and value);
//! * [`csv`]: one column per coordinate (`node` for a graph file), then the values: `sg`;
//!   misère `sg,misere_sg,genus` (a genus with two-digit superscripts quoted); loopy
//!   `outcome,remoteness,value` (`remoteness` empty for a draw, `value` `3` or `inf{0,2}`);
//!   Hackenbush `value` (empty for a node cut off from the ground); a rule `value,outcome`;
//! * [`json`]: one object, streamed: `{"game", "coordinate", "values", "max_value",
//!   "p_positions"}` (boxes nest `values`); misère `{"game", "play": "misere", "coordinates",
//!   "extents", "positions": [{…, "sg", "misere_sg", "genus", "genus_superscripts", "tame",
//!   "species", "misere_outcome"}], "p_positions", "first_wild", "genus_period",
//!   "misere_period"}`; loopy `{"coordinates", "counts", "game", "positions": [{…, "outcome",
//!   "remoteness", "value"}]}`; Hackenbush `{"game", "ground", "nodes": [{"node", "value"}],
//!   "outcome", "value"}`; a rule `{"game", "rule", "coordinates", "extents", "positions",
//!   "counts"}`;
//! * [`matrix`]: a plain CSV grid of the normal values of a box (the only kind it shows).
//!
//! **Charts and reports.** [`plot`] and [`heatmap`]: PNG and SVG charts of a sequence, with the
//! period marked when one is known, and heat maps of two-coordinate boxes; [`graph_plot`];
//! [`code`]: lookup functions `sg(…)` in C++, Python, Rust and Java; [`period`]: the text and
//! the JSON of a `period` report, its sentences rendered from the typed report; [`solve`]: the
//! text of a `solve` report; [`misere`], [`loopy`], [`hackenbush`]: their reports.
//!
//! A position `n` with `G(n) = 0` is a P-position (the previous player wins), by the
//! Sprague–Grundy theorem; every exporter that marks positions marks exactly these.

pub mod census;
pub mod census_compare;
pub mod code;
pub mod csv;
pub mod graph_plot;
pub mod hackenbush;
pub mod heatmap;
pub mod json;
pub mod loopy;
pub mod matrix;
pub mod misere;
pub mod misere_check;
pub mod period;
pub mod plot;
pub mod solve;
pub mod sweep;
pub mod text;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use thiserror::Error;

use crate::analysis::misere::MisereSummary;
use crate::engine::{Hint, Table};
use crate::value::{TableKind, Valued};

pub use code::{
    box_formula_supported, covered_by_formula, criterion_supported, formula_supported, generate,
    generate_criterion, generate_sweep, human_size, tables_needed, CodeSpec, Lang, SweepCode,
    PASTE_LIMIT,
};
pub use csv::{write_csv, write_table_csv};

/// A `csv` writer's error as the I/O error underneath it when there is one (so that a closed
/// pipe is still seen as one and ends the run quietly), else wrapped.
pub(crate) fn csv_io_error(error: ::csv::Error) -> std::io::Error {
    if error.is_io_error() {
        if let ::csv::ErrorKind::Io(io) = error.into_kind() {
            return io;
        }
        return std::io::Error::other("the CSV writer failed");
    }
    std::io::Error::other(error)
}
pub use json::write_table_json;
pub use period::write_report_json;
pub use plot::{render_chart, ChartFormat, ChartSpec};
pub use text::{write_table_text, write_text, TextOptions};

/// Why an export failed.
#[derive(Debug, Error)]
pub enum ExportError {
    /// A file operation failed.
    #[error(transparent)]
    File(#[from] crate::fs::FsError),
    /// A chart path whose extension is neither `.png` nor `.svg`.
    #[error(
        "cannot tell the chart format of {}",
        .path.display()
    )]
    UnknownChartFormat {
        /// The path given.
        path: PathBuf,
    },
    /// The plotting library failed while drawing.
    #[error("drawing the chart failed: {message}")]
    Chart {
        /// The library's message.
        message: String,
    },
    /// A graph with more nodes than a drawing of it can show legibly.
    #[error("the graph has {nodes} nodes, more than the {limit} a drawing shows")]
    GraphTooLarge {
        /// The number of nodes of the graph.
        nodes: usize,
        /// The most nodes drawn ([`graph_plot::MAX_DRAWN_NODES`]).
        limit: usize,
    },
    /// A format asked of a kind of table it cannot show ([`TableFormat::supports`]).
    #[error("{} cannot show {kind}", .format.name())]
    Unsupported {
        /// The format asked for.
        format: Format,
        /// The kind of table.
        kind: TableKind,
    },
    /// Writing failed.
    #[error(transparent)]
    Io(std::io::Error),
    /// The table holds no values, so there is nothing to draw or look up.
    #[error("the table is empty: there is nothing to export")]
    EmptyTable,
    /// A heat map of a table that has not two coordinates.
    #[error(
        "drawing the chart failed: a heat map needs exactly two coordinates, but the table has {dimension}"
    )]
    NotTwoCoordinates {
        /// The table's coordinates.
        dimension: usize,
    },
    /// Lookup code of a periodic table that holds less than its preperiod and one period.
    #[error(
        "the lookup code needs G(0..{head}) (preperiod {preperiod} + period {period}) but the table holds only {len} values"
    )]
    TableTooShort {
        /// Preperiod plus period.
        head: usize,
        /// The preperiod.
        preperiod: usize,
        /// The period.
        period: usize,
        /// The values the table holds.
        len: usize,
    },
    /// A periodicity that needs more values than the table holds, or that cannot describe
    /// Sprague–Grundy values.
    #[error("{message}")]
    InvalidPeriodicity {
        /// What is wrong and what to do.
        message: String,
    },
    /// The lookup code of a sweep cannot be written exactly (a parameter past its 64-bit
    /// arithmetic, a formula contradicting an instance, values missing).
    #[error("{message}")]
    SweepCode {
        /// What is wrong.
        message: String,
    },
}

impl ExportError {
    /// What to do about it (the command line words it).
    pub fn hint(&self) -> Option<Hint> {
        match self {
            ExportError::UnknownChartFormat { .. } => Some(Hint::ChartExtension),
            ExportError::GraphTooLarge { .. } => Some(Hint::ValuesAsTable),
            ExportError::EmptyTable => Some(Hint::AtLeastOneValue),
            ExportError::NotTwoCoordinates { .. } => Some(Hint::TwoCoordinates),
            ExportError::TableTooShort { head, .. } => Some(Hint::TableTo(*head as u64 - 1)),
            _ => None,
        }
    }
}

/// A table format (`table --format text|csv|json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The terminal grid of [`text`].
    Text,
    /// `<coordinate>,sg` rows, see [`csv`].
    Csv,
    /// One JSON object, see [`json`].
    Json,
    /// A plain grid of the values, see [`matrix`].
    Matrix,
}

impl Format {
    /// Every format, in the order they are documented.
    pub const ALL: [Format; 4] = [Format::Text, Format::Csv, Format::Json, Format::Matrix];

    /// The name accepted by [`Format::from_str`].
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Matrix => "matrix",
        }
    }

    /// The format a file name suggests (`.txt`, `.csv`, `.json`, any case), if any.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "txt" | "text" => Some(Format::Text),
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    /// Accepts `text`, `csv`, `json` and `matrix`, case-insensitively.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| format!("unknown format `{text}`: expected text, csv, json or matrix"))
    }
}

/// The image of `table` in `format` (PNG or SVG): a chart of `G` against the position for a
/// heap game's sequence or a one-coordinate box ([`plot`]; `spec` marks the periodicity and
/// rare positions), a heat map for a two-coordinate box ([`heatmap`], titled `spec.game`). A
/// box of three or more coordinates is refused. The caller writes the bytes where they go.
pub fn render_plot(
    table: &Table,
    spec: &ChartSpec,
    format: ChartFormat,
) -> Result<Vec<u8>, ExportError> {
    match table {
        Table::Sequence { values, .. } => plot::render_chart(values, spec, format),
        Table::Box(boxed) if boxed.dimension() == 1 => plot::render_chart(
            &crate::engine::SgTable::from_values(boxed.values()),
            spec,
            format,
        ),
        Table::Box(boxed) => {
            heatmap::render_heatmap(boxed, &heatmap::HeatmapSpec::new(spec.game), format)
        }
    }
}

/// What a table exporter writes besides the table itself.
#[derive(Clone, Copy, Debug)]
pub struct TableView<'a> {
    /// The game's name (JSON).
    pub game: &'a str,
    /// Colour P-positions (text).
    pub color: bool,
    /// A misère table's summary (its text footer and JSON tail), computed by the caller.
    pub misere: Option<&'a MisereSummary>,
}

impl<'a> TableView<'a> {
    /// The view of a table of `game`, without colour.
    pub fn new(game: &'a str) -> Self {
        TableView {
            game,
            color: false,
            misere: None,
        }
    }
}

/// A format of tables: one module per format, each writing every kind of [`Valued`] table it
/// supports. Adding a format is one module implementing this and a [`Format`] variant.
pub trait TableFormat: Sync {
    /// Whether this format can show a table of this kind (a matrix is a grid of normal values
    /// of a box: not a misère, loopy or Hackenbush table).
    fn supports(&self, kind: TableKind) -> bool;

    /// Writes `table`, of a kind [`TableFormat::supports`].
    fn write(&self, out: &mut dyn Write, table: &Valued, view: &TableView<'_>) -> io::Result<()>;
}

impl Format {
    /// The exporter of this format.
    pub fn exporter(self) -> &'static dyn TableFormat {
        match self {
            Format::Text => &text::Text,
            Format::Csv => &csv::Csv,
            Format::Json => &json::Json,
            Format::Matrix => &matrix::Matrix,
        }
    }

    /// Refuses a kind of table this format cannot show, before anything is computed or written.
    pub fn check(self, kind: TableKind) -> Result<(), ExportError> {
        if self.exporter().supports(kind) {
            Ok(())
        } else {
            Err(ExportError::Unsupported { format: self, kind })
        }
    }
}

/// Writes any valued table in `format`, or refuses a kind the format cannot show.
pub fn write_valued(
    out: &mut dyn Write,
    table: &Valued,
    format: Format,
    view: &TableView<'_>,
) -> Result<(), ExportError> {
    format.check(table.kind())?;
    format
        .exporter()
        .write(out, table, view)
        .map_err(ExportError::Io)
}

/// Writes `table` in `format`: `game` is used by JSON, `color` by text.
pub fn write_table(
    out: &mut dyn Write,
    table: &Table,
    format: Format,
    game: &str,
    color: bool,
) -> io::Result<()> {
    match format {
        Format::Text => write_table_text(out, table, color),
        Format::Csv => write_table_csv(out, table),
        Format::Json => write_table_json(out, table, game),
        Format::Matrix => matrix::write_matrix(out, table),
    }
}

/// Tables for the exporters' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{write_table, Format};
    use crate::engine::{BoxTable, Table};

    /// Owned coordinate names.
    pub(crate) fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Two-heap Nim, G(x, y) = x ⊕ y (Bouton 1901).
    pub(crate) fn nim(rows: u64, columns: u64) -> BoxTable {
        BoxTable::from_fn(names(&["x", "y"]), vec![rows, columns], |p| {
            (p[0] ^ p[1]) as u32
        })
    }

    /// `table` written in `format` for the game "Nim", without colour.
    pub(crate) fn render(table: &BoxTable, format: Format) -> String {
        let mut out = Vec::new();
        write_table(&mut out, &Table::Box(table.clone()), format, "Nim", false).unwrap();
        String::from_utf8(out).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_and_dispatch() {
        for format in Format::ALL {
            assert_eq!(format.name().parse::<Format>(), Ok(format));
        }
        assert_eq!("CSV".parse::<Format>(), Ok(Format::Csv));
        assert!("xml"
            .parse::<Format>()
            .unwrap_err()
            .contains("expected text, csv, json or matrix"));
        assert_eq!(
            Format::from_extension(Path::new("out/t.JSON")),
            Some(Format::Json)
        );
        assert_eq!(Format::from_extension(Path::new("t.png")), None);

        let table = Table::sequence("n", crate::engine::SgTable::from_values(&[0, 1]));
        let render = |format| {
            let mut out = Vec::new();
            write_table(&mut out, &table, format, "g", false).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(render(Format::Csv), "n,sg\n0,0\n1,1\n");
        assert!(render(Format::Json).starts_with("{\"game\":\"g\""));
        assert!(render(Format::Text).contains("0*"));
    }
}
