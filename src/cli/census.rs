//! `census`: whole families of codes (`octal`, `subtraction`), run here or in shards, and
//! `merge` of the shard files into the census's outputs.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use crate::census::journal::{self, Header, Journal};
use crate::census::{
    self, family, Census, CensusError, Config, Family, Record, Shard, FORMAT_VERSION,
};
use crate::engine::progress::{human_duration, Progress};
use crate::export::census as out;
use crate::export::ChartFormat;

use super::args::parse_max;
use super::{CliError, Context};

/// `census` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Every octal code 0.d1…dD and 4.d1…dD (each digit 0–7, trailing zeros dropped).
    #[command(
        after_help = "Examples:\n  sgscope census octal --digits 2\n  sgscope census octal --digits 3 --format csv -o octal-3.csv --report octal-3.md\n  sgscope census octal --digits 3 --shard 2/8 --shard-file shards/octal-3-2-of-8.jsonl"
    )]
    Octal(OctalArgs),
    /// Every finite subtraction set and every all-but set of elements ≤ M.
    #[command(
        after_help = "Examples:\n  sgscope census subtraction --max-element 8 --report sub-8.md --plot sub-8.png\n  sgscope census subtraction --max-element 10 --format jsonl -o sub-10.jsonl"
    )]
    Subtraction(SubtractionArgs),
    /// Check the shard files of one census and write its outputs as one run would.
    #[command(
        after_help = "Examples:\n  sgscope census merge shards/*.jsonl --format csv -o census.csv --report census.md"
    )]
    Merge(MergeArgs),
    /// Compare a published table (a code's preperiod and period, or equivalent codes) with a
    /// census: every agreement and disagreement, with the first differing heap.
    #[command(
        after_help = "Examples:\n  sgscope census compare tests/data/census/winning-ways.txt\n  sgscope census compare published.md --census octal-3.jsonl --json"
    )]
    Compare(super::census_compare::CompareArgs),
}

#[derive(Debug, clap::Args)]
struct OctalArgs {
    /// The most code digits after the point (1 to 4).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=i64::from(family::MAX_OCTAL_DIGITS)))]
    digits: u32,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, clap::Args)]
struct SubtractionArgs {
    /// The largest element of the sets (1 to 16).
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..=i64::from(family::MAX_SUBTRACTION_ELEMENT)))]
    max_element: u32,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// Compute every code to at least G(0..=N) unless proved first.
    #[arg(long, value_name = "N", value_parser = parse_max, default_value_t = census::DEFAULT_MAX)]
    max: u64,
    /// Codes with few rare values (sparse space) go on to G(0..=N).
    #[arg(long, value_name = "N", value_parser = parse_max, default_value_t = census::DEFAULT_SPARSE_MAX)]
    sparse_max: u64,
    /// Run only slice K of N (1 ≤ K ≤ N): codes K, K + N, K + 2N, … of the census's order,
    /// journalled to --shard-file; `census merge` joins the shards.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// The resumable shard file (JSON lines, checksummed): finished codes are appended as they
    /// finish and skipped when the same command runs again [default with --shard:
    /// census-FAMILY-K-of-N.jsonl].
    #[arg(long, value_name = "FILE")]
    shard_file: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, clap::Args)]
struct OutputArgs {
    /// The format of the per-code output.
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    format: Format,
    /// Write the output to FILE (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: String,
    /// Also write the Markdown report to FILE.
    #[arg(long, value_name = "FILE")]
    report: Option<String>,
    /// Also draw the distribution of periods (a .png or .svg file).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The shard files, one per slice K/N.
    #[arg(required = true, value_name = "SHARDS")]
    shards: Vec<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Csv,
    Jsonl,
    Markdown,
}

/// Parses `--shard K/N`.
fn parse_shard(text: &str) -> Result<Shard, String> {
    let usage = "write the slice as K/N with 1 ≤ K ≤ N, e.g. --shard 2/8";
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not K/N: {usage}"))?;
    let (k, n) = match (k.trim().parse::<usize>(), n.trim().parse::<usize>()) {
        (Ok(k), Ok(n)) => (k, n),
        _ => return Err(format!("`{text}` is not two whole numbers K/N: {usage}")),
    };
    if n == 0 || k == 0 || k > n {
        return Err(format!("slice {k} of {n} does not exist: {usage}"));
    }
    Ok(Shard {
        index: k - 1,
        count: n,
    })
}

/// Runs `census`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    match args.command {
        Sub::Octal(a) => run_family(Family::Octal { digits: a.digits }, a.run, context),
        Sub::Subtraction(a) => run_family(
            Family::Subtraction {
                max_element: a.max_element,
            },
            a.run,
            context,
        ),
        Sub::Merge(a) => merge(a, context),
        Sub::Compare(a) => super::census_compare::run(a, context),
    }
}

fn census_error(error: CensusError) -> CliError {
    CliError::Failed(error.to_string())
}

/// The smallest `--max` of a census: below it no period of interest can show (and a census
/// to `n = 0` would record nothing but its codes).
const MIN_CENSUS_MAX: u64 = 64;

fn run_family(family: Family, args: RunArgs, context: &mut Context<'_>) -> Result<(), CliError> {
    if args.max < MIN_CENSUS_MAX {
        return Err(CliError::Usage(format!(
            "--max {} is too small for a census: each code is searched for a period in G(0..=MAX), so give --max {MIN_CENSUS_MAX} or more (the default is {})",
            args.max,
            census::DEFAULT_MAX
        )));
    }
    if args.sparse_max < args.max {
        return Err(CliError::Usage(format!(
            "--sparse-max {} is below --max {}: sparse codes go on from --max, so give --sparse-max {} or more",
            args.sparse_max, args.max, args.max
        )));
    }
    if let Some(shard) = args.shard {
        let total = family.len();
        if shard.count > total {
            return Err(CliError::Usage(format!(
                "--shard {}/{}: the {} census has {total} codes, so it has at most {total} slices; give N ≤ {total}",
                shard.index + 1,
                shard.count,
                family.slug()
            )));
        }
    }
    let config = Config {
        family,
        max: args.max,
        sparse_max: args.sparse_max,
    };
    // Refuse a bound whose tables cannot fit before any code runs.
    let probe = config.family.game_text(&config.family.codes()[0]);
    let game = crate::rules::load(crate::rules::SourceFile::new(probe.clone(), probe), &[])?;
    crate::engine::check_memory(&game, config.sparse_max.max(config.max))?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let journal_path = args.shard_file.clone().or_else(|| {
        args.shard.map(|s| {
            PathBuf::from(format!(
                "census-{}-{}-of-{}.jsonl",
                config.family.slug(),
                s.index + 1,
                s.count
            ))
        })
    });
    if args.shard.is_none() {
        check_output_paths(&args.output)?;
    } else if args.output.output != "-"
        || args.output.report.is_some()
        || args.output.plot.is_some()
    {
        return Err(CliError::Usage(
            "a shard writes only its --shard-file; write the outputs with `sgscope census merge SHARDS… -o FILE --report FILE`".into(),
        ));
    }
    let codes = shard.codes(&config.family);
    let header = Header {
        sgscope_census: FORMAT_VERSION,
        config: config.clone(),
        shard,
        codes: codes.len(),
    };
    let (journal, mut records) = match &journal_path {
        Some(path) => {
            let (journal, found) =
                Journal::open(path, &header).map_err(|e| census_error(e.into()))?;
            (Some(journal), found)
        }
        None => (None, Vec::new()),
    };
    let finished: std::collections::HashSet<String> =
        records.iter().map(|r| r.code.clone()).collect();
    let todo: Vec<String> = codes
        .iter()
        .filter(|c| !finished.contains(*c))
        .cloned()
        .collect();
    let threads = rayon::current_num_threads();
    let slice = if shard == Shard::WHOLE {
        String::new()
    } else {
        format!(" (shard {}/{})", shard.index + 1, shard.count)
    };
    let resumed = if records.is_empty() {
        String::new()
    } else {
        format!(
            ", {} already in {}",
            records.len(),
            journal_path
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string())
        )
    };
    // Measured: the 3-digit octal census at the default bounds (1024 codes) in 12 min 42 s on
    // 2 cores, otherwise idle (21 min while sharing them with a build); 4 digits are 8 times
    // as many codes, with longer unsolved ones.
    let expect = match config.family {
        Family::Octal { digits: 3 } => {
            "; the whole 3-digit census took 13 min on 2 cores at the default bounds, progress below"
        }
        Family::Octal { digits: 4.. } => {
            "; 8192 codes take hours (the 3-digit census took 13 min on 2 cores): consider --shard, progress below"
        }
        _ => "",
    };
    context.console.note(&format!(
        "census of {}{slice}: {} codes{resumed}; each to n = {} (sparse codes to n = {}), {threads} at a time{expect}",
        config.family.slug(),
        codes.len(),
        config.max,
        config.sparse_max
    ));
    let started = Instant::now();
    let state = Mutex::new(Run {
        journal,
        records: Vec::with_capacity(todo.len()),
        progress: Progress::items("codes", todo.len() as u64, super::progress::sink()),
        done: 0,
    });
    let result = census::run(&config, &todo, &|record: Record| {
        let mut run = state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(journal) = run.journal.as_mut() {
            journal.append(&record)?;
        }
        run.records.push(record);
        run.done += 1;
        let done = run.done;
        run.progress.set(done);
        Ok(())
    });
    let mut run = state.into_inner().unwrap_or_else(|e| e.into_inner());
    run.progress.finish();
    result.map_err(census_error)?;
    records.append(&mut run.records);
    let elapsed = human_duration(started.elapsed().as_secs_f64());
    if shard != Shard::WHOLE {
        let path = journal_path.expect("a shard has a journal");
        context.console.print(&format!(
            "shard {}/{}: {} codes done in {elapsed}, in {}\n  next: sgscope census merge SHARDS… (every shard of {}) --format csv -o census.csv --report census.md\n",
            shard.index + 1,
            shard.count,
            records.len(),
            path.display(),
            shard.count
        ))?;
        return Ok(());
    }
    let census = Census::new(config, records).map_err(census_error)?;
    context
        .console
        .note(&format!("{} in {elapsed}", out::summary_line(&census)));
    write_outputs(&census, &args.output, context)
}

struct Run {
    journal: Option<Journal>,
    records: Vec<Record>,
    progress: Progress,
    done: u64,
}

/// Checks the output paths before any work: a long census must not fail at its end.
/// Like every subcommand's `-o`, a path that cannot be written is refused up front (exit 2).
fn check_output_paths(output: &OutputArgs) -> Result<(), CliError> {
    for (flag, path) in [
        ("-o", Some(output.output.as_str())),
        ("--report", output.report.as_deref()),
    ] {
        if let Some(path) = path.filter(|p| *p != "-") {
            super::checkpointing::check_path(flag, std::path::Path::new(path))?;
        }
    }
    if let Some(plot) = &output.plot {
        ChartFormat::from_path(plot)?;
        super::checkpointing::check_path("--plot", plot)?;
    }
    Ok(())
}

fn write_outputs(
    census: &Census,
    output: &OutputArgs,
    context: &mut Context<'_>,
) -> Result<(), CliError> {
    let rows = census.rows();
    context
        .console
        .write_to(&output.output, |w| match output.format {
            Format::Csv => out::write_csv(w, &rows),
            Format::Jsonl => out::write_jsonl(w, &rows),
            Format::Markdown => w.write_all(out::markdown(census).as_bytes()),
        })?;
    if let Some(report) = &output.report {
        let text = out::markdown(census);
        context
            .console
            .write_to(report, |w| w.write_all(text.as_bytes()))?;
    }
    if let Some(plot) = &output.plot {
        let bytes = out::period_chart(census, ChartFormat::from_path(plot)?)?;
        crate::fs::write_atomically(plot, |w| w.write_all(&bytes))?;
    }
    Ok(())
}

fn merge(args: MergeArgs, context: &mut Context<'_>) -> Result<(), CliError> {
    check_output_paths(&args.output)?;
    let mut first: Option<(PathBuf, Header)> = None;
    let mut seen: Vec<Option<PathBuf>> = Vec::new();
    let mut records = Vec::new();
    for path in &args.shards {
        let (header, found) = journal::read(path).map_err(|e| census_error(e.into()))?;
        match &first {
            None => {
                seen = vec![None; header.shard.count];
                first = Some((path.clone(), header.clone()));
            }
            Some((first_path, first_header)) => {
                if header.config != first_header.config
                    || header.shard.count != first_header.shard.count
                {
                    return Err(CliError::Failed(format!(
                        "{} and {} are shards of different censuses (or of different slicings): merge the shards of one run",
                        first_path.display(),
                        path.display()
                    )));
                }
            }
        }
        let slot = &mut seen[header.shard.index];
        if let Some(other) = slot {
            return Err(CliError::Failed(format!(
                "{} and {} are both shard {}/{}: give each slice once",
                other.display(),
                path.display(),
                header.shard.index + 1,
                header.shard.count
            )));
        }
        *slot = Some(path.clone());
        if found.len() != header.codes {
            return Err(CliError::Failed(format!(
                "{} holds {} of its {} codes: the shard has not finished; run its command again to resume it",
                path.display(),
                found.len(),
                header.codes
            )));
        }
        records.extend(found);
    }
    let (_, header) = first.expect("clap requires one shard");
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| format!("{}/{}", i + 1, header.shard.count))
        .collect();
    if !missing.is_empty() {
        return Err(CliError::Failed(format!(
            "shards {} are missing: give every shard of the run",
            missing.join(", ")
        )));
    }
    let census = Census::new(header.config, records).map_err(census_error)?;
    context.console.note(&out::summary_line(&census));
    write_outputs(&census, &args.output, context)
}
