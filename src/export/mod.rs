//! Serialisers for tables and reports: pure functions writing to a `Write` (or returning
//! bytes), plus one atomic file writer that all of them go through.
//!
//! * [`text`]: a grid for the terminal, P-positions (value 0) highlighted;
//! * [`csv`]: `<coordinate>,sg` rows, streamed;
//! * [`json`]: the table (streamed) and the period report (via serde);
//! * [`plot`]: PNG and SVG charts, with the period marked when one is known;
//! * [`code`]: lookup functions `sg(n)` in C++, Python, Rust and Java;
//! * [`solve`]: the text of a `solve` report;
//! * [`atomic`]: temp file + fsync + rename, so a target is either the old file or the
//!   complete new one, never half written; `-` means stdout.
//!
//! A position `n` with `G(n) = 0` is a P-position (the previous player wins), by the
//! Sprague–Grundy theorem; every exporter that marks positions marks exactly these.

pub mod code;
pub mod csv;
pub mod grid;
pub mod heatmap;
pub mod json;
pub mod plot;
pub mod solve;
pub mod text;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use thiserror::Error;

use crate::engine::SgTable;

pub use code::{generate, CodeSpec, Lang};
pub use csv::write_csv;
pub use json::{write_report_json, write_table_json};
pub use plot::{render_chart, write_chart, ChartFormat, ChartSpec};
pub use text::{write_text, TextOptions};

/// Why an export failed.
#[derive(Debug, Error)]
pub enum ExportError {
    /// A file operation failed.
    #[error(transparent)]
    File(#[from] crate::fs::FsError),
    /// A chart path whose extension is neither `.png` nor `.svg`.
    #[error(
        "cannot tell the chart format of {}\n  help: use a file name ending in .png or .svg",
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
    /// The table holds no values, so there is nothing to draw or look up.
    #[error("the table is empty: there is nothing to export\n  help: compute at least G(0)")]
    EmptyTable,
    /// A periodicity that needs more values than the table holds, or that cannot describe
    /// Sprague–Grundy values.
    #[error("{message}")]
    InvalidPeriodicity {
        /// What is wrong and what to do.
        message: String,
    },
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
}

impl Format {
    /// Every format, in the order they are documented.
    pub const ALL: [Format; 3] = [Format::Text, Format::Csv, Format::Json];

    /// The name accepted by [`Format::from_str`].
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Csv => "csv",
            Format::Json => "json",
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

    /// Accepts `text`, `csv` and `json`, case-insensitively.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| format!("unknown format `{text}`: expected text, csv or json"))
    }
}

/// Writes `table` in `format`: `game` is used by JSON, `color` by text (10 values per line).
pub fn write_table(
    out: &mut dyn Write,
    table: &SgTable,
    format: Format,
    game: &str,
    coordinate: &str,
    color: bool,
) -> io::Result<()> {
    match format {
        Format::Text => write_text(
            out,
            table,
            coordinate,
            &TextOptions {
                color,
                ..TextOptions::default()
            },
        ),
        Format::Csv => write_csv(out, table, coordinate),
        Format::Json => write_table_json(out, table, game, coordinate),
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
            .contains("expected text, csv or json"));
        assert_eq!(
            Format::from_extension(Path::new("out/t.JSON")),
            Some(Format::Json)
        );
        assert_eq!(Format::from_extension(Path::new("t.png")), None);

        let table = SgTable::from_values(&[0, 1]);
        let render = |format| {
            let mut out = Vec::new();
            write_table(&mut out, &table, format, "g", "n", false).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(render(Format::Csv), "n,sg\n0,0\n1,1\n");
        assert!(render(Format::Json).starts_with("{\"game\":\"g\""));
        assert!(render(Format::Text).contains("0*"));
    }
}
