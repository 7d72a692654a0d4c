//! `census compare TABLE [--census FILE.jsonl] [--json]`: a published table against a census
//! (see [`crate::census::compare`] for the layouts read and what agreeing means).

use crate::census::{self, compare, Config, Family};
use crate::engine::progress::Progress;
use crate::export::census_compare;
use crate::rules::SourceFile;

use super::{CliError, Context};

/// `census compare` arguments.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The published table: `CODE PREPERIOD PERIOD` lines, `CODE = CODE [+K]` lines, or a
    /// Markdown table with `game`, `prefix` and `period` columns.
    #[arg(value_name = "TABLE")]
    pub table: String,
    /// Census rows to compare with (the JSON lines of `census … --format jsonl`); without it,
    /// the codes the table names are run here at the census's default bounds.
    #[arg(long, value_name = "FILE")]
    pub census: Option<String>,
    /// Print a JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The largest published table read (a table of every octal code of four digits is well
/// under 1 MiB): a larger file, or an endless one (`/dev/zero`), is refused, not read whole.
const MAX_TABLE_BYTES: u64 = 16 << 20;

fn read_error(path: &str, message: String) -> CliError {
    CliError::Read {
        path: path.to_string(),
        message,
    }
}

fn read(path: &str) -> Result<String, CliError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| read_error(path, e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_TABLE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(path, e.to_string()))?;
    if bytes.len() as u64 > MAX_TABLE_BYTES {
        return Err(read_error(
            path,
            format!(
                "it is larger than {} MiB, which no published table is: give the table's text file",
                MAX_TABLE_BYTES >> 20
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        read_error(
            path,
            format!(
                "byte {} is not UTF-8 text: give the table's text file",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// A comparison error as the command line shows it (a table's diagnostic is rendered with its
/// own `error:`).
fn failed(error: compare::CompareError) -> CliError {
    let text = error.to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    let help = error.hint().map(super::hint_help);
    CliError::Failed(super::with_help(text.trim_end().to_string(), help))
}

/// Runs `census compare` with `args` parsed (the whole work: [`run`] is this with clap's
/// arguments).
pub fn run_compare(
    table: &str,
    census_file: Option<&str>,
    json: bool,
    context: &mut Context<'_>,
) -> Result<(), CliError> {
    let source = SourceFile::new(table, read(table)?);
    let entries = compare::parse(&source).map_err(|e| failed(e.into()))?;
    let rows = match census_file {
        Some(path) => {
            let file = std::fs::File::open(path).map_err(|e| read_error(path, e.to_string()))?;
            compare::read_rows_from(path, std::io::BufReader::new(file)).map_err(failed)?
        }
        None => {
            let codes = compare::codes(&entries);
            let digits = codes
                .iter()
                .map(|c| c.0.len().saturating_sub(2) as u32)
                .max()
                .unwrap_or(1);
            let config = Config {
                family: Family::Octal { digits },
                max: census::DEFAULT_MAX,
                sparse_max: census::DEFAULT_SPARSE_MAX,
            };
            context.console.note(&format!(
                "running the {} codes of {table} to n = {} (sparse codes to {}); give --census FILE.jsonl to compare with a census run",
                codes.len(),
                config.max,
                config.sparse_max
            ));
            let progress = std::sync::Mutex::new((
                Progress::items("codes", codes.len() as u64, super::progress::sink()),
                0u64,
            ));
            let rows = compare::run_codes_with(&config, &codes, &|| {
                let mut guard = progress.lock().unwrap_or_else(|e| e.into_inner());
                guard.1 += 1;
                let done = guard.1;
                guard.0.set(done);
            });
            progress
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .0
                .finish();
            rows.map_err(|e| CliError::Failed(e.to_string()))?
        }
    };
    let comparison =
        compare::compare(&entries, &rows, &mut compare::Values::default()).map_err(failed)?;
    context.console.write_to("-", |out| {
        if json {
            census_compare::write_json(out, &comparison)
        } else {
            census_compare::write_text(out, &comparison)
        }
    })?;
    Ok(())
}

/// Runs `census compare`.
pub fn run(args: CompareArgs, context: &mut Context<'_>) -> Result<(), CliError> {
    run_compare(&args.table, args.census.as_deref(), args.json, context)
}
