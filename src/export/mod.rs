//! Serialisers for tables and reports: pure functions writing to a `Write` (or returning
//! bytes), plus one atomic file writer that all of them go through.
//!
//! * [`text`]: a grid for the terminal, P-positions (value 0) highlighted;
//! * [`csv`]: `<coordinate>,sg` rows, streamed;
//! * [`json`]: the table (streamed) and the period report (via serde);
//! * [`plot`]: PNG and SVG charts, with the period marked when one is known;
//! * [`code`]: lookup functions `sg(n)` in C++, Python, Rust and Java;
//! * [`atomic`]: temp file + fsync + rename, so a target is either the old file or the
//!   complete new one, never half written; `-` means stdout.
//!
//! A position `n` with `G(n) = 0` is a P-position (the previous player wins), by the
//! Sprague–Grundy theorem; every exporter that marks positions marks exactly these.

pub mod atomic;
pub mod code;
pub mod csv;
pub mod json;
pub mod plot;
pub mod text;

use std::path::PathBuf;

use thiserror::Error;

pub use atomic::{write_atomically, write_output, AtomicFile};
pub use code::{generate, CodeSpec, Lang};
pub use csv::write_csv;
pub use json::{write_report_json, write_table_json};
pub use plot::{render_chart, write_chart, ChartFormat, ChartSpec};
pub use text::{write_text, TextOptions};

/// Why an export failed.
#[derive(Debug, Error)]
pub enum ExportError {
    /// A file operation failed.
    #[error("cannot {action} {}: {source}", .path.display())]
    Io {
        /// What was being done, e.g. "write" or "create a temporary file next to".
        action: &'static str,
        /// The file the user asked for.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
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
