//! The command line: argument parsing (clap) and error rendering. Each subcommand converts its
//! arguments into a validated request and calls the library; nothing here computes.

mod commands;
mod game_arg;
mod solve;

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use thiserror::Error;

use crate::engine::checkpoint::CheckpointError;
use crate::engine::EngineError;
use crate::export::{ExportError, Lang};
use crate::rules::RulesError;

pub use game_arg::{load_game, parse_set, GameArgs, Sets};

/// sgscope: Sprague–Grundy tables, periods and proofs for impartial games.
#[derive(Debug, Parser)]
#[command(
    name = "sgscope",
    version,
    about = "Sprague–Grundy tables, periods (with proofs) and lookup code for impartial games",
    after_help = "Examples:\n  sgscope period rules/dawsons-kayles.sg\n  sgscope period 'octal 0.07' --json\n  sgscope table rules/bash.sg --set k=4 --to 30\n  sgscope plot rules/kayles.sg --to 200 -o out/kayles.png\n  sgscope code 'subtraction {1, 3, 4}' --lang cpp\n  sgscope solve rules/wythoff.sg '(3, 4) + (5, 2)'\n  sgscope patterns rules/wythoff.sg --to 200\n  sgscope check rules/*.sg"
)]
pub struct Cli {
    /// Worker threads for the parallel kernels (default: one per core).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    #[command(subcommand)]
    command: Command,
}

/// `--checkpoint` and `--resume`, shared by the subcommands that can run long.
#[derive(Debug, clap::Args)]
struct Checkpointing {
    /// Save the computed values to FILE every two minutes and on Ctrl-C (exit code 130), so
    /// that an interrupted run can go on with --resume FILE.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Start from the values saved in FILE by --checkpoint (same game and --set values);
    /// FILE may be the --checkpoint file itself. A missing FILE is an error unless it is
    /// also the --checkpoint file, so the same command both starts and resumes a run.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
}

// Every subcommand that reads one game ends with `#[command(flatten)] game: GameArgs`: GAME
// (always the first positional argument) and `--set` (listed after the subcommand's own options).
#[derive(Debug, Subcommand)]
enum Command {
    /// Print the SG values G(0..=N) as text, CSV or JSON.
    #[command(
        after_help = "Examples:\n  sgscope table rules/kayles.sg --to 40\n  sgscope table 'octal 0.07' --to 10000000 --format csv -o out/dawson.csv\n  sgscope table rules/bash.sg --set k=5 --format json\n  sgscope table rules/grundys-game.sg --to 3000000 --format csv -o out/grundy.csv --checkpoint grundy.ckpt --resume grundy.ckpt   # Ctrl-C, then run it again to go on"
    )]
    Table {
        /// Last position (the table covers 0..=N); for a position game N bounds every
        /// coordinate, or give one bound each: --to x=100,y=50.
        #[arg(long, default_value = "100", value_name = "N")]
        to: solve::BoxArg,
        /// Output format: text, csv or json (matrix: a plain grid of a position game).
        #[arg(long, default_value = "text", value_parser = solve::parse_grid_format)]
        format: crate::export::grid::GridFormat,
        /// Write to FILE (atomically) instead of stdout; `-` is stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<String>,
        /// Colour P-positions in text output.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
        #[command(flatten)]
        checkpointing: Checkpointing,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Find preperiod, period and saltus; prove periodicity where a theorem allows.
    #[command(
        after_help = "Examples:\n  sgscope period rules/dawsons-kayles.sg\n  sgscope period 'octal 0.07' --json\n  sgscope period rules/grundys-game.sg --max 20000\n  sgscope period 'octal 0.007' --max 5000000 --checkpoint t.ckpt --resume t.ckpt   # Ctrl-C, then run it again to go on"
    )]
    Period {
        /// Compute at most G(0..=N) while looking for a proof.
        #[arg(long, default_value_t = 65536, value_name = "N")]
        max: u64,
        /// Print a JSON object instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        checkpointing: Checkpointing,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Draw G(n) against n (PNG or SVG), with P-positions, preperiod and period marked.
    #[command(
        after_help = "Examples:\n  sgscope plot rules/kayles.sg -o out/kayles.png\n  sgscope plot 'octal 0.07' --to 300 -o out/dawson.svg\n  sgscope plot rules/grundys-game.sg --to 200000 --rare -o out/grundy-rare.png"
    )]
    Plot {
        /// Last position drawn (a position game: every coordinate, or --to x=100,y=50).
        #[arg(long, default_value = "200", value_name = "N")]
        to: solve::BoxArg,
        /// Mark the rare positions under the best mask (take-and-break games; see `period`).
        #[arg(long)]
        rare: bool,
        /// The chart file: .png or .svg.
        #[arg(short, long, value_name = "FILE")]
        output: String,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Emit a lookup function `sg(n)` for n up to 10^18 in C++, Python, Rust or Java.
    #[command(
        after_help = "Examples:\n  sgscope code rules/dawsons-kayles.sg --lang cpp\n  sgscope code 'subtraction {1, 3, 4}' --lang python -o out/sg.py\n  sgscope code rules/grundys-game.sg --lang rust --to 5000   # no period known: table + guard"
    )]
    Code {
        /// Target language: cpp, python, rust or java.
        #[arg(long, value_parser = parse_lang)]
        lang: Lang,
        /// Search for a period up to G(0..=N).
        #[arg(long, default_value_t = 65536, value_name = "N")]
        max: u64,
        /// When no period is found, emit the table G(0..=N) with a guard beyond it (a
        /// position game: the box's table, e.g. --to 100 or --to x=100,y=50).
        #[arg(long, default_value = "1000", value_name = "N")]
        to: solve::BoxArg,
        /// Write to FILE (atomically) instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<String>,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Patterns of the P-positions (residues, progressions, Fibonacci, Beatty pairs) and the
    /// periods of the rows, columns and diagonals of a two-coordinate game.
    #[command(
        after_help = "Examples:\n  sgscope patterns rules/wythoff.sg --to 200\n  sgscope patterns rules/fibonacci-nim.sg --to 150 --json\n  sgscope patterns rules/bash.sg --to 500"
    )]
    Patterns {
        /// The box analysed: 0..=N in every coordinate, or --to x=100,y=50.
        #[arg(long, default_value = "100", value_name = "N")]
        to: solve::BoxArg,
        /// Print a JSON object instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        game: GameArgs,
    },
    /// The SG value of a position (a sum of components), who wins, and every winning move.
    #[command(
        after_help = "Examples:\n  sgscope solve rules/nim.sg 3 5 7\n  sgscope solve rules/wythoff.sg '(3, 5)'\n  sgscope solve rules/wythoff.sg '(3, 4) + (5, 2)'\n  sgscope solve rules/fibonacci-nim.sg '(10, 9)'   # smallest winning first take"
    )]
    Solve {
        /// The position: heaps (`3 5 7`) or tuples joined by `+` (`(3, 4) + (5, 2)`).
        // `index = 2`: after GAME, which `GameArgs` (flattened below) makes the first.
        #[arg(index = 2, required = true, value_name = "POSITION")]
        position: Vec<String>,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Parse and check rules files without computing anything.
    #[command(after_help = "Examples:\n  sgscope check rules/bash.sg\n  sgscope check rules/*.sg")]
    Check {
        /// Rules files (or rules text).
        #[arg(required = true)]
        games: Vec<String>,
        #[command(flatten)]
        sets: Sets,
    },
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

fn with_error_prefix(message: String) -> String {
    if message.starts_with("error: ") {
        message
    } else {
        format!("error: {message}")
    }
}

fn parse_lang(text: &str) -> Result<Lang, String> {
    text.parse()
}

/// Everything that can stop a command, rendered once at the edge.
#[derive(Debug, Error)]
pub enum CliError {
    /// Errors in a rules text (already rendered with locations).
    #[error("{0}")]
    Rules(Box<RulesError>),
    /// The engine refused or failed (rule errors arrive already rendered with their location).
    #[error("{}", with_error_prefix(.0.to_string()))]
    Engine(Box<EngineError>),
    /// A rules file could not be read.
    #[error("error: cannot read `{path}`: {message}")]
    Read {
        /// The path given.
        path: String,
        /// Why.
        message: String,
    },
    /// Writing output failed.
    #[error("error: {0}")]
    Export(#[from] ExportError),
    /// Several errors, already printed; this is the summary.
    #[error("error: {0}")]
    Failed(String),
    /// Arguments that clap accepts but that make no sense together.
    #[error("error: {0}")]
    Usage(String),
    /// A checkpoint could not be read, belongs to another game, or could not be saved.
    #[error("error: {0}")]
    Checkpoint(#[from] CheckpointError),
    /// Ctrl-C stopped a run with `--checkpoint`, after saving it (exit code 130).
    #[error("interrupted at n = {at}; checkpoint saved to {}; resume with: {resume}", .file.display())]
    Interrupted {
        /// The table holds `G(0..at)`.
        at: u64,
        /// The checkpoint file.
        file: PathBuf,
        /// The command line that resumes the run.
        resume: String,
    },
}

impl From<EngineError> for CliError {
    fn from(error: EngineError) -> Self {
        CliError::Engine(Box::new(error))
    }
}

impl From<RulesError> for CliError {
    fn from(error: RulesError) -> Self {
        CliError::Rules(Box::new(error))
    }
}

impl CliError {
    fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            // 128 + SIGINT, as a shell reports a process stopped by Ctrl-C.
            CliError::Interrupted { .. } => 130,
            _ => 1,
        }
    }
}

/// Runs the command line with the process arguments and returns the exit code
/// (0 success, 1 error, 2 usage error).
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    if let Some(threads) = cli.threads {
        // Only fails when a pool exists already, which nothing builds before this point.
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.into())
            .build_global()
        {
            eprintln!("warning: --threads {threads} ignored: {e}");
        }
    }
    match commands::dispatch(cli.command) {
        Ok(()) => 0,
        // `sgscope table … | head` closes the pipe early: that is success, not an error.
        Err(CliError::Export(ExportError::Io { source, .. }))
            if source.kind() == std::io::ErrorKind::BrokenPipe =>
        {
            0
        }
        Err(e) => {
            let mut stderr = std::io::stderr().lock();
            let text = e.to_string();
            let _ = write!(stderr, "{text}");
            if !text.ends_with('\n') {
                let _ = writeln!(stderr);
            }
            e.exit_code()
        }
    }
}
