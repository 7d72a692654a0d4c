//! The command line: argument parsing (clap), one module per subcommand, and error rendering.
//! Each subcommand converts its arguments into a request, calls the library and hands the
//! result to an exporter; nothing here computes. Everything written goes through
//! [`Console`], so [`run_with`] can run the whole command line in-process.

mod args;
mod census;
mod census_compare;
mod check;
mod checkpointing;
mod code;
mod console;
mod long_run;
mod misere_check;
mod patterns;
mod period;
mod play;
mod plot;
mod progress;
mod quotient;
mod solve;
mod sweep;
mod table;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use thiserror::Error;

use crate::engine::checkpoint::CheckpointError;
use crate::engine::{EngineError, Hint};
use crate::export::ExportError;
use crate::fs::FsError;
use crate::rules::RulesError;
use crate::solve::SolveError;

pub use args::{load_game, parse_set, BoxArg, ColorChoice, GameArgs, PlayArgs, Sets};
pub use console::Console;

/// sgscope: Sprague–Grundy tables, periods and proofs for impartial games.
#[derive(Debug, Parser)]
#[command(
    name = "sgscope",
    version,
    about = "Sprague–Grundy tables, periods (with proofs) and lookup code for impartial games",
    after_help = "Examples:\n  sgscope period rules/dawsons-kayles.sg\n  sgscope period 'octal 0.07' --json\n  sgscope table rules/bash.sg --set k=4 --to 30\n  sgscope plot rules/kayles.sg --to 200 -o out/kayles.png\n  sgscope code 'subtraction {1, 3, 4}' --lang cpp\n  sgscope solve rules/wythoff.sg '(3, 4) + (5, 2)'\n  sgscope patterns rules/wythoff.sg --to 200\n  sgscope check rules/*.sg"
)]
pub struct Cli {
    /// Worker threads for the parallel kernels (default: one per core; at most 4 per core).
    #[arg(long, global = true, value_name = "N", value_parser = parse_threads)]
    threads: Option<u16>,
    #[command(subcommand)]
    command: Command,
}

// Every subcommand that reads one game ends with `#[command(flatten)] game: GameArgs`: GAME
// (always the first positional argument) and `--set` (listed after the subcommand's own options).
#[derive(Debug, Subcommand)]
enum Command {
    /// Print the SG values G(0..=N) as text, CSV or JSON.
    #[command(
        after_help = "Examples:\n  sgscope table rules/kayles.sg --to 40\n  sgscope table 'octal 0.07' --to 10000000 --format csv -o out/dawson.csv\n  sgscope table rules/bash.sg --set k=5 --format json\n  sgscope table rules/grundys-game.sg --to 3000000 --format csv -o out/grundy.csv --checkpoint grundy.ckpt --resume grundy.ckpt   # Ctrl-C, then run it again to go on"
    )]
    Table(table::Args),
    /// Find preperiod, period and saltus; prove periodicity where a theorem allows.
    #[command(
        after_help = "Examples:\n  sgscope period rules/dawsons-kayles.sg\n  sgscope period 'octal 0.07' --json\n  sgscope period rules/grundys-game.sg --max 20000\n  sgscope period 'octal 0.007' --max 5000000 --checkpoint t.ckpt --resume t.ckpt   # Ctrl-C, then run it again to go on"
    )]
    Period(period::Args),
    /// Draw G(n) against n (PNG or SVG), with P-positions, preperiod and period marked.
    #[command(
        after_help = "Examples:\n  sgscope plot rules/kayles.sg -o out/kayles.png\n  sgscope plot 'octal 0.07' --to 300 -o out/dawson.svg\n  sgscope plot rules/grundys-game.sg --to 200000 --rare -o out/grundy-rare.png"
    )]
    Plot(plot::Args),
    /// Emit a lookup function `sg(n)` for n up to 10^18 in C++, Python, Rust or Java.
    #[command(
        after_help = "Examples:\n  sgscope code rules/dawsons-kayles.sg --lang cpp\n  sgscope code 'subtraction {1, 3, 4}' --lang python -o out/sg.py\n  sgscope code rules/grundys-game.sg --lang rust --to 5000   # no period known: table + guard"
    )]
    Code(code::Args),
    /// Patterns of the P-positions (residues, progressions, Fibonacci, Beatty pairs) and the
    /// periods of the rows, columns and diagonals of a two-coordinate game.
    #[command(
        after_help = "Examples:\n  sgscope patterns rules/wythoff.sg --to 200\n  sgscope patterns rules/fibonacci-nim.sg --to 150 --json\n  sgscope patterns rules/bash.sg --to 500"
    )]
    Patterns(patterns::Args),
    /// The SG value of a position (a sum of components), who wins, and every winning move.
    #[command(
        after_help = "Examples:\n  sgscope solve rules/nim.sg 3 5 7\n  sgscope solve rules/wythoff.sg '(3, 5)'\n  sgscope solve rules/wythoff.sg '(3, 4) + (5, 2)'\n  sgscope solve rules/fibonacci-nim.sg '(10, 0)'   # P6487: the winning first takes\n  sgscope solve rules/kayles.sg 5 5 3 --misere\n  sgscope solve rules/nim.sg 3 5 7 --json"
    )]
    Solve(solve::Args),
    /// The misère quotient (Plambeck–Siegel) of the sums of heaps up to N: its order,
    /// P-portion and a presentation, proved, for each bound 1..=N.
    #[command(
        after_help = "Examples:\n  sgscope quotient 'octal 0.75' --max-heap 6\n  sgscope quotient rules/anti-nim.sg --max-heap 7\n  sgscope quotient rules/kayles.sg --max-heap 5 --json"
    )]
    Quotient(quotient::Args),
    /// Check the anti-SG (SJ) rule and the XOR of misère values against the exact misère
    /// outcome of every sum of at most K heaps of sizes 1..=N.
    #[command(
        name = "misere-check",
        long_about = misere_check::LONG_ABOUT,
        after_help = "Examples:\n  sgscope misere-check 'octal 0.77' --heaps 3 --to 10   # Kayles: wild from heap 5\n  sgscope misere-check rules/nim.sg --heaps 3 --to 7\n  sgscope misere-check 'subtraction {1, 2}' --heaps 4 --to 12 --json"
    )]
    MisereCheck(misere_check::Args),
    /// Play a sum against perfect play in the terminal (normal, misère, or a game that can
    /// cycle); `hint` shows the winning moves.
    #[command(
        after_help = "Examples:\n  sgscope play rules/nim.sg 3 5 7 --first me\n  sgscope play rules/abc278g.sg 10 --set L=2 --set R=3\n  sgscope play rules/kayles.sg 6 4 --misere\n  sgscope play rules/graph-cycle.sg"
    )]
    Play(play::Args),
    /// Run a program against perfect play over a line protocol, check every move, say who won.
    #[command(
        after_help = "Examples:\n  sgscope judge rules/nim.sg 3 5 7 -- ./my-solution\n  sgscope judge rules/abc278g.sg 2000 --set L=3 --set R=5 --protocol cards -- ./a.out   # first line: 2000 3 5\n  sgscope judge rules/abc278g.sg 2000 --protocol cards --header '{n\x1b[0m} {L} {R}' -- ./a.out\n  sgscope judge rules/subtraction-134.sg 20 --side second --transcript -- python3 sol.py"
    )]
    Judge(play::JudgeArgs),
    /// Survey a whole family (every octal code of up to D digits, every subtraction set of
    /// elements ≤ M): periods with proofs, equivalence classes, the published tables' layout;
    /// in shards for a cluster's batch scheduler.
    #[command(
        after_help = "Examples:\n  sgscope census octal --digits 3 --report octal-3.md\n  sgscope census octal --digits 3 --shard 1/4 --shard-file s1.jsonl   # then: census merge s*.jsonl\n  sgscope census subtraction --max-element 8 --plot periods.png"
    )]
    Census(census::Args),
    /// One game over ranges of its parameters: each instance's period, preperiod and
    /// P-positions, and the formulas in the parameters that hold on every instance
    /// ("period k + 1"), with a chart.
    #[command(
        after_help = "Examples:\n  sgscope sweep rules/bash.sg --set k=1..=50\n  sgscope sweep rules/abc278g.sg --set L=1..=5 --set R=L..=8\n  sgscope sweep rules/subtraction-ab.sg --set a=1..=11 --set b=a+1..=12 --format json\n  sgscope sweep rules/bash.sg --set k=1..=30 --format csv -o bash.csv --plot bash.svg"
    )]
    Sweep(sweep::Args),
    /// Parse and check rules files without computing anything.
    #[command(after_help = "Examples:\n  sgscope check rules/bash.sg\n  sgscope check rules/*.sg")]
    Check(check::Args),
}

/// The most `--threads` accepted per core: more only adds scheduling (4096 threads took 13.5 s
/// for a 10-value table).
const THREADS_PER_CORE: usize = 4;

/// Parses `--threads`: from 1 to [`THREADS_PER_CORE`] × the cores of this machine.
fn parse_threads(text: &str) -> Result<u16, String> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let most = cores
        .saturating_mul(THREADS_PER_CORE)
        .min(usize::from(u16::MAX));
    let range = format!("--threads must be from 1 to {most} ({THREADS_PER_CORE} per core; this machine has {cores})");
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=most as u64).contains(&n) => Ok(n as u16),
        Ok(0) => Err(format!("{range}; leave it out for one thread per core")),
        Ok(_) => Err(format!(
            "{range}: more threads than that only slow the run down"
        )),
        Err(_) => Err(format!("`{text}` is not a number: {range}")),
    }
}

/// The command line's parser: [`Cli`], with `--to` and `--max` taking values that start with
/// `-`, so that `--to -1` is refused by its own parser ("must be a non-negative integer") rather than by
/// clap's "to pass '-1' as a value, use '-- -1'".
fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command().mut_subcommands(|mut sub| {
        for bound in ["to", "max"] {
            if sub.get_arguments().any(|a| a.get_id() == bound) {
                sub = sub.mut_arg(bound, |a| a.allow_negative_numbers(true));
            }
        }
        sub
    })
}

/// Refuses a graph file for subcommand `command`, which reads heap games or position games
/// (periods, plots, lookup code, patterns, sums): a graph's nodes are no sequence.
fn refuse_graph(game: &crate::rules::Game, command: &str) -> Result<(), CliError> {
    let Some(graph) = game.graph() else {
        return Ok(());
    };
    let (what, help) = match graph.hackenbush {
        Some(_) => (
            "a hackenbush graph",
            "`sgscope check FILE` summarises it".to_string(),
        ),
        None => (
            "a graph",
            format!(
                "`sgscope table FILE --to {}` gives the value of every node (by index), `sgscope check FILE` summarises it",
                graph.node_count().saturating_sub(1)
            ),
        ),
    };
    Err(usage_with_help(
        format!(
            "`sgscope {command}` does not apply to graph files: {} is {what} of {} nodes, not a heap or position game",
            game.name,
            graph.node_count()
        ),
        help,
    ))
}

fn with_error_prefix(message: String) -> String {
    if message.starts_with("error: ") {
        message
    } else {
        format!("error: {message}")
    }
}

/// An engine error with the command line's help for its [`Hint`], in terms of its options.
fn engine_message(error: &EngineError) -> String {
    with_help(
        with_error_prefix(error.to_string()),
        error.hint().map(hint_help),
    )
}

/// What to do, in this command line's words and options: every typed [`Hint`] of the
/// library is worded here, and only here.
fn hint_help(hint: Hint) -> String {
    match hint {
        Hint::SmallerTable => "ask for a smaller --to/--max".to_string(),
        Hint::TableBelow(to) => format!("ask for --to/--max below {to}"),
        Hint::BoundRanges => {
            "bound the ranges by n (e.g. `x in 1..=n`), or ask for a smaller --to/--max".to_string()
        }
        Hint::SmallerBox => "ask for a smaller --to".to_string(),
        Hint::LargerBox => "enlarge the box with --to, or bound the moves".to_string(),
        Hint::SmallerPositions => "ask about positions with smaller coordinates".to_string(),
        Hint::SmallerSums => {
            "ask for a smaller --to, or a sum of fewer or smaller components".to_string()
        }
        Hint::SmallerGraph => {
            "a graph file is valued whole: give it fewer nodes and edges (split it into parts, whose values add as a sum)".to_string()
        }
        Hint::RuleOfSums => "use a value rule that values sums (normal play does)".to_string(),
        Hint::DecreasingMoves => {
            "make every move decrease something, e.g. a coordinate or their sum".to_string()
        }
        Hint::AcyclicGraphsOnly => "a graph with a cycle has positions whose play need not end (loopy values); the normal-play engine values acyclic graphs only".to_string(),
        Hint::CheckpointFile => "pass a file written by --checkpoint".to_string(),
        Hint::StartOver => "delete it to start over".to_string(),
        Hint::SameGameAsCheckpoint => "pass the same game and --set values as the run that wrote it, or another checkpoint file".to_string(),
        Hint::MoreMemoryOrStartOver => {
            "resume it on a machine with more memory, or delete it to start over".to_string()
        }
        Hint::CensusRows => "give the output of `sgscope census … --format jsonl`".to_string(),
        Hint::TableTo(to) => format!("compute the table further (--to {to})"),
        Hint::TwoCoordinates => {
            "plot a one-coordinate game as a chart, or fix all but two coordinates".to_string()
        }
        Hint::ChartExtension => "use a file name ending in .png or .svg".to_string(),
        Hint::ValuesAsTable => "print the values with `table` instead".to_string(),
        Hint::AtLeastOneValue => "compute at least G(0)".to_string(),
        Hint::HeapsAtMost(largest) => format!("ask about heaps of at most {largest} tokens"),
        Hint::OnePosition { components } => format!("beyond that a single position can still be decided by a P-position pattern, but a sum of {components} needs their SG values: ask about one position, or smaller ones"),
        Hint::SmallerSolvedPositions => "ask about smaller positions (solve computes every position up to the largest coordinates asked about)".to_string(),
        Hint::SmallerReachablePositions => "ask about a position with smaller coordinates (solve values every position reachable from the one asked)".to_string(),
        Hint::FewerReachablePositions => "ask about smaller positions".to_string(),
        Hint::OneToken => "a game that can cycle is valued as one token on a graph of positions (C. A. B. Smith): write moves that lead to one position, or make every move decrease something so that the game ends".to_string(),
        Hint::LoopyBoxLeft => "the moves can cycle, so every position a move reaches must be in the table: ask for a larger --to (or bound the moves in the rules)".to_string(),
        Hint::PeriodOfSequence => "a one-coordinate table is analysed by `period` as a sequence".to_string(),
    }
}

/// A `solve` error with its help: `solve` has no --to/--max, it computes every heap up to the
/// largest one asked about.
fn solve_message(error: &SolveError) -> String {
    let help = match (error.cause(), error.hint()) {
        (
            SolveError::Engine(_),
            Some(Hint::SmallerTable | Hint::TableBelow(_) | Hint::BoundRanges),
        ) => Some(
            "solve computes every heap up to the largest one asked about: ask about smaller heaps"
                .to_string(),
        ),
        (_, Some(Hint::SmallerSums)) => {
            Some("ask about a sum of fewer or smaller components".to_string())
        }
        // `solve` has no --to: it values the positions the one asked needs.
        (_, Some(Hint::SmallerBox | Hint::SmallerPositions)) => Some(
            "solve values every position the one asked needs: ask about positions with smaller \
             coordinates"
                .to_string(),
        ),
        // `solve` has no --to: it sizes its box from the moves of the position asked.
        (_, Some(Hint::LargerBox)) => Some(
            "solve fits its box to the position's moves, but the moves keep leaving it: bound \
             the moves, or ask about a smaller position"
                .to_string(),
        ),
        (_, hint) => hint.map(hint_help),
    };
    with_help(with_error_prefix(error.to_string()), help)
}

/// A usage error (exit 2) with the command line's own help.
pub(crate) fn usage_with_help(message: String, help: String) -> CliError {
    CliError::Usage(with_help(message, Some(help)))
}

/// `message`, then `  help: …` on a line of its own: the one place a help line is written,
/// for the library's typed hints ([`hint_help`]) and the command line's own help alike.
fn with_help(mut message: String, help: Option<String>) -> String {
    if let Some(help) = help {
        if !message.ends_with('\n') {
            message.push('\n');
        }
        message.push_str("  help: ");
        message.push_str(&help);
    }
    message
}

/// Everything that can stop a command, rendered once at the edge.
#[derive(Debug, Error)]
pub enum CliError {
    /// Errors in a rules text (already rendered with locations).
    #[error("{0}")]
    Rules(Box<RulesError>),
    /// The engine refused or failed (rule errors arrive already rendered with their location);
    /// the help for a refusal names this command line's options.
    #[error("{}", engine_message(.0))]
    Engine(Box<EngineError>),
    /// `solve` gave no answer.
    #[error("{}", solve_message(.0))]
    Solve(Box<SolveError>),
    /// A rules file could not be read.
    #[error("error: cannot read `{path}`: {message}")]
    Read {
        /// The path given.
        path: String,
        /// Why.
        message: String,
    },
    /// Writing output failed.
    #[error("{}", with_help(format!("error: {}", .0), .0.hint().map(hint_help)))]
    Export(#[from] ExportError),
    /// Writing standard output or a file failed.
    #[error("error: {0}")]
    Write(#[from] FsError),
    /// Several errors, already printed; this is the summary.
    #[error("error: {0}")]
    Failed(String),
    /// Arguments that clap accepts but that make no sense together.
    #[error("error: {0}")]
    Usage(String),
    /// A checkpoint could not be read, belongs to another game, or could not be saved.
    #[error("{}", with_help(format!("error: {}", .0), .0.hint().map(hint_help)))]
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
            // A chart file whose extension names no format (`-o x.bmp`, `--plot x.bmp`): a
            // flag's value, refused before any work.
            CliError::Export(ExportError::UnknownChartFormat { .. }) => 2,
            // A request the budget refuses before any work, like a bad argument: 2 for heap
            // games and position games alike; a run stopped past the budget while running is 1.
            CliError::Engine(e) if e.is_refused_up_front() => 2,
            CliError::Solve(e) => match e.cause() {
                SolveError::Position(_) | SolveError::CodeMovesTooMany { .. } => 2,
                SolveError::Engine(e) if e.is_refused_up_front() => 2,
                _ => 1,
            },
            CliError::Interrupted { .. } => INTERRUPTED,
            _ => 1,
        }
    }

    /// `sgscope … | head` closes the pipe early: that is success, not an error.
    fn is_broken_pipe(&self) -> bool {
        match self {
            CliError::Write(e) | CliError::Export(ExportError::File(e)) => e.is_broken_pipe(),
            _ => false,
        }
    }
}

/// What a subcommand gets besides its arguments: the console, and the command line as typed
/// (for the resume hint of an interrupted run).
pub struct Context<'a> {
    /// Standard output and standard error.
    pub console: Console<'a>,
    /// The arguments after the program name.
    pub args: Vec<String>,
}

/// Runs the command line `args` (the first is the program name, as in [`std::env::args_os`])
/// on the process's standard output and error; returns the exit code (0 success, 1 error,
/// 2 usage error, 130 interrupted).
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    use std::io::IsTerminal;
    let stdout = std::io::stdout();
    // clap's help and usage errors in colour on a terminal, as clap prints them itself.
    let color = stdout.is_terminal() && std::io::stderr().is_terminal();
    let mut out = stdout.lock();
    let code = run_on(args, &mut out, &mut std::io::stderr(), color);
    if code == INTERRUPTED && progress::stderr_closed() {
        // Stopped by `end_quietly`, its checkpoint saved.
        return 0;
    }
    code
}

/// The exit status of a run stopped by Ctrl-C: 128 + SIGINT, as a shell reports it.
const INTERRUPTED: i32 = 130;

/// A closed standard error (its reader went away while progress was printed) ends the run as
/// a closed standard output does: quietly, with exit status 0, its temporary files removed. A
/// run with `--checkpoint` first stops at its next chunk and saves its table, as on Ctrl-C.
fn end_quietly() {
    if checkpointing::stop_and_save() {
        return;
    }
    crate::fs::remove_temporaries();
    std::process::exit(0);
}

/// [`run`] writing to `out` and `err` instead of the process's standard streams.
pub fn run_with<'a, I, T>(args: I, out: &'a mut dyn Write, err: &'a mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_on(args, out, err, false)
}

fn run_on<'a, I, T>(args: I, out: &'a mut dyn Write, err: &'a mut dyn Write, color: bool) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let parsed = command()
        .try_get_matches_from(&args)
        .and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let rendered = if color {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            if e.use_stderr() {
                let _ = err.write_all(rendered.as_bytes());
                return code;
            }
            // `--help` and `--version`: output that cannot be written is an error (`--help >
            // /dev/full`), except a reader that went away.
            return match out
                .write_all(rendered.as_bytes())
                .and_then(|()| out.flush())
            {
                Ok(()) => code,
                Err(error) if crate::fs::is_broken_pipe(&error) => 0,
                Err(error) => {
                    let _ = writeln!(err, "error: cannot write -: {error}");
                    1
                }
            };
        }
    };
    let mut context = Context {
        console: Console::new(out, err),
        args: args
            .iter()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    };
    if let Some(threads) = cli.threads {
        // Only fails when a pool exists already, which nothing builds before this point.
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.into())
            .build_global()
        {
            context
                .console
                .note(&format!("warning: --threads {threads} ignored: {e}"));
        }
    }
    let result = match cli.command {
        Command::Table(args) => table::run(args, &mut context),
        Command::Period(args) => period::run(args, &mut context),
        Command::Plot(args) => plot::run(args, &mut context),
        Command::Code(args) => code::run(args, &mut context),
        Command::Patterns(args) => patterns::run(args, &mut context),
        Command::Solve(args) => solve::run(args, &mut context),
        Command::MisereCheck(args) => misere_check::run(args, &mut context),
        Command::Check(args) => check::run(args, &mut context),
        Command::Play(args) => play::run(args, &mut context),
        Command::Judge(args) => play::run_judge(args, &mut context),
        Command::Quotient(args) => quotient::run(args, &mut context),
        Command::Census(args) => census::run(args, &mut context),
        Command::Sweep(args) => sweep::run(args, &mut context),
    };
    match result {
        Ok(()) => 0,
        Err(e) if e.is_broken_pipe() => 0,
        Err(e) => {
            let mut text = e.to_string();
            if !text.ends_with('\n') {
                text.push('\n');
            }
            let err = context.console.err();
            let _ = err.write_all(text.as_bytes());
            let _ = err.flush();
            e.exit_code()
        }
    }
}

/// A [`Notice`](crate::value::Notice) of a valuation, as a note on standard error.
pub(crate) fn notice_text(notice: &crate::value::Notice) -> String {
    match notice {
        crate::value::Notice::ValuedAsLoopy { cycle } => {
            let cycle: Vec<String> = cycle
                .iter()
                .map(|p| crate::engine::multi::show_position(p))
                .collect();
            format!(
                "note: the moves can cycle ({}), so every position is valued as a loopy game: outcome (P, N or D for a draw), remoteness and generalized Sprague–Grundy value",
                cycle.join(" → ")
            )
        }
        crate::value::Notice::NoQuickQuotient { largest, reason } => format!(
            "note: no misère quotient of the heaps ≤ {largest} within a quick attempt ({reason}); searching the sums"
        ),
        crate::value::Notice::ManySums { bound, limit } => format!(
            "note: the misère search over this sum may need up to {} sums of components; it stops past {limit}",
            match *bound {
                u128::MAX => "more than 10^38".to_string(),
                bound => bound.to_string(),
            }
        ),
    }
}

impl From<crate::api::ApiError> for CliError {
    fn from(error: crate::api::ApiError) -> Self {
        use crate::api::ApiError;
        match error {
            ApiError::Engine(error) => error.into(),
            ApiError::Pattern(error) => {
                CliError::Usage(with_help(error.to_string(), error.hint().map(hint_help)))
            }
            refusal @ (ApiError::UnknownRule { .. }
            | ApiError::NoValues { .. }
            | ApiError::NotAHeapGame { .. }) => CliError::Usage(refusal.to_string()),
        }
    }
}

/// A request for the box `0..=extents[i]`, with the progress of standard error or none.
pub(crate) fn values_request(extents: &[u64], progress: bool) -> crate::value::Request<'static> {
    crate::value::Request {
        options: match progress {
            true => progress::options(),
            false => crate::engine::EngineOptions::default(),
        },
        ..crate::value::Request::new(extents)
    }
}
