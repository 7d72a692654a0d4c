//! `code`: a lookup function `sg(...)` in C++, Python, Rust or Java, from a proved or
//! observed period, a closed form observed on the table (`ctz(n)`, `popcount(n)`; of two
//! coordinates, `(ab − 1) mod 2`, `f(x) ⊕ g(y)`, the nim product, …), or from a table with a
//! guard beyond it; for a position game whose box has a P-position criterion, `is_p(...)` and
//! `first_player_wins(...)` instead (`--table` for the box's table). A table says its size on
//! stderr and is refused past [`export::PASTE_LIMIT`] unless `--allow-large`.
//!
//! `--sweep k=1..=50` (repeatable) writes instead one function `sg(n, k, …)` over the swept
//! instances ([`api::code_sweep`]): the formula of `G` fitted in the parameters where it covers
//! an instance, each other instance's table, and a refusal outside the sweep.

use std::cell::RefCell;

use crate::api::ParamRange;
use crate::api::{self, CodeError, CodeKnobs, CodeNote, CodeRequest};
use crate::export::{self, Lang};
use crate::rules::Play;

use super::args::{parse_lang, parse_max, BoxArg, GameArgs, PlayArgs};
use super::{CliError, Context};

/// `code` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Target language: cpp, python, rust or java.
    #[arg(long, value_parser = parse_lang)]
    lang: Lang,
    /// Search for a period up to G(0..=N) [default: 65536, or 4·s + 1024 for a game whose
    /// largest take or constant s is larger; with --misere 2048; with --sweep, per instance].
    #[arg(long, value_name = "N", value_parser = parse_max)]
    max: Option<u64>,
    /// When no period is found, emit the table G(0..=N) with a guard beyond it (a
    /// position game: the box's table, e.g. --to 100 or --to x=100,y=50, or a closed form of
    /// two coordinates that holds on it) [default: 1000; a position game of three or more
    /// coordinates: the box 0..=2^j−1 that `solve` looks for criteria on, within a few
    /// seconds of its rules].
    #[arg(long, value_name = "N", conflicts_with = "sweep")]
    to: Option<BoxArg>,
    /// Sweep a parameter of the rules over VALUES (repeatable: k=1..=50, R=L..=8, a=2,3,5)
    /// and write one function sg(n, k, …) for the swept instances: a formula of G in the
    /// parameters where one holds, each other instance's table, parameters outside refused.
    #[arg(long, value_name = "NAME=VALUES", conflicts_with_all = ["table", "extrapolate"])]
    sweep: Vec<String>,
    /// Extend the table by a period that is only observed (a stop rule's candidate, not
    /// proved by a theorem); without it such a snippet is the guarded table up to --to, whose
    /// header names the observed period.
    #[arg(long)]
    extrapolate: bool,
    /// A position game: write the box's table `sg(...)` even when a P-position criterion
    /// (`is_p(...)`) or a closed form of the values was found on the box.
    #[arg(long)]
    table: bool,
    /// Write a table larger than 256 KiB of source (refused by default: judges cap the size
    /// of a submission). A snippet that is a table says its size on stderr either way.
    #[arg(long)]
    allow_large: bool,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `code`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    super::refuse_graph(&game, "code")?;
    super::checkpointing::check_output(args.output.as_deref())?;
    let play = args.play.resolve(&game, &mut context.console);
    if !args.sweep.is_empty() {
        return run_sweep(&args, &game, play, context);
    }
    let to = match (&args.to, game.position_program()) {
        (None, _) => None,
        (Some(to), Some(_)) => Some(to.extents(&game.coordinates())?),
        (Some(to), None) => Some(vec![to.heap_to(&game)?]),
    };
    let console = RefCell::new(&mut context.console);
    let notes = |note: &CodeNote| console.borrow_mut().note(&note_text(note));
    let request = CodeRequest {
        play,
        max: args.max,
        to,
        extrapolate: args.extrapolate,
        table: args.table,
        allow_large: args.allow_large,
        options: super::progress::options(),
        notes: Some(&notes),
        ..CodeRequest::new(args.lang)
    };
    let snippet = api::code(&game, &request)
        .map(|(snippet, _)| snippet)
        .map_err(|e| code_error(e, "a smaller box or table (--to)"))?;
    let output = args.output.as_deref().unwrap_or("-");
    console
        .into_inner()
        .write_to(output, |out| out.write_all(snippet.as_bytes()))?;
    Ok(())
}

/// `code --sweep`: the ranges read, the sweep run and its one function written.
fn run_sweep(
    args: &Args,
    game: &crate::rules::Game,
    play: Play,
    context: &mut Context<'_>,
) -> Result<(), CliError> {
    if play == Play::Misere {
        return Err(super::usage_with_help(
            "code --sweep values normal play only".to_string(),
            "drop --misere (or the rules' `play misere` line)".to_string(),
        ));
    }
    let ranges =
        ParamRange::parse_all(&args.sweep).map_err(|e| super::sweep::range_error(e, "--sweep"))?;
    let set = args.game.set_names();
    if let Some(range) = ranges.iter().find(|r| set.contains(&r.name.as_str())) {
        return Err(super::usage_with_help(
            format!("`{}` is both set (--set) and swept (--sweep)", range.name),
            format!("drop --set {}=… or its --sweep", range.name),
        ));
    }
    let console = RefCell::new(&mut context.console);
    let notes = |note: &CodeNote| console.borrow_mut().note(&note_text(note));
    let request = api::SweepCodeRequest {
        lang: args.lang,
        max: args.max,
        allow_large: args.allow_large,
        options: super::progress::options(),
    };
    let snippet = api::code_sweep(game, &ranges, &request, Some(&notes))
        .map(|(snippet, _)| snippet)
        .map_err(|e| {
            code_error(
                e,
                "fewer instances, a smaller --max (the tables of instances without a proved period hold every value computed)",
            )
        })?;
    let output = args.output.as_deref().unwrap_or("-");
    console
        .into_inner()
        .write_to(output, |out| out.write_all(snippet.as_bytes()))?;
    Ok(())
}

/// A note of `code` in words, with the flags that change it.
fn note_text(note: &CodeNote) -> String {
    note.describe(&CodeKnobs {
        extrapolate: "--extrapolate",
        table: "--table",
    })
}

/// A snippet refused, worded; `smaller` says how to ask for a smaller one.
fn code_error(error: CodeError, smaller: &str) -> CliError {
    match error {
        CodeError::TooLarge { bytes, limit } => super::usage_with_help(
            format!(
                "the snippet is {} of source, more than the {} a contest judge accepts (Codeforces takes 64 KB)",
                export::human_size(bytes),
                export::human_size(limit)
            ),
            format!("{smaller}, or --allow-large to write it anyway"),
        ),
        CodeError::Api(error) => error.into(),
        CodeError::Export(error) => error.into(),
        CodeError::Sweep(error) => super::sweep::sweep_error(error, "--sweep"),
        CodeError::PositionGame { game } => CliError::Usage(format!(
            "--sweep writes sg(n, …) of heap games; {game} is a position game: `sgscope sweep` reports its P-position criteria"
        )),
        CodeError::Instance(error) => {
            CliError::Failed(format!("an instance of the sweep: {error}"))
        }
    }
}
