//! `play GAME POSITION`: a person against perfect play in the terminal
//! ([`crate::play::session`]), and `judge GAME POSITION -- PROGRAM`: a program against it
//! ([`crate::play::judge`]).

use std::process::Command;
use std::time::Duration;

use crate::api::{self, Position};
use crate::play::judge::{self, JudgeOptions, Protocol, Result_, Side};
use crate::play::session::{self, Ending, First};
use crate::play::{PlayError, Referee};
use crate::rules::Game;

use super::{CliError, Context, GameArgs, PlayArgs};

/// `play` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position: heaps (`3 5 7`), tuples joined by `+` (`(3, 4) + (5, 2)`), or a graph
    /// file's nodes (`a + b`; its `start` node when none is given); none for a hackenbush file
    /// (the whole picture; a move is `cut U V`, `cut U V K` for the edge at place K of the
    /// file, or `edge K`).
    #[arg(index = 2, value_name = "POSITION")]
    position: Vec<String>,
    /// Who moves first (asked when left out).
    #[arg(long, value_enum)]
    first: Option<FirstArg>,
    /// Moves after which the game is called a draw (a game that can cycle).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_moves: u64,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    game: GameArgs,
}

/// `--first`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum FirstArg {
    /// You move first.
    Me,
    /// The computer moves first.
    Computer,
}

/// Runs `play`: the dialogue on standard input and output.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    let play = args.play.resolve(&game, &mut context.console);
    let start = start_of(&game, &args.position, "play")?;
    let referee = Referee::with_options(&game, play, &start, super::progress::options())
        .map_err(play_error)?;
    let first = args.first.map(|f| match f {
        FirstArg::Me => First::Me,
        FirstArg::Computer => First::Computer,
    });
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let ending = session::run(
        &referee,
        start,
        first,
        args.max_moves,
        &mut input,
        context.console.out(),
    );
    match ending {
        Ok(Ending::PersonWon | Ending::ComputerWon | Ending::Draw | Ending::Quit) => Ok(()),
        // The terminal went away: end quietly.
        Err(PlayError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(play_error(e)),
    }
}

/// `judge` arguments.
#[derive(Debug, clap::Args)]
pub struct JudgeArgs {
    /// The position, as for `play` (none for a hackenbush file).
    #[arg(index = 2, value_name = "POSITION")]
    position: Vec<String>,
    /// The program's side; left out, the program chooses (`side choose`, or `First`/`Second`
    /// in the cards protocol).
    #[arg(long, value_enum)]
    side: Option<SideArg>,
    /// The messages: `lines` (sgscope's, see docs/guide/play-and-judge.md: `position P`, `side
    /// first|second|choose`, then moves, `none`, `illegal`, `draw`; a hackenbush file's
    /// position is `ground G: U-V U-V …` and its moves `cut U V`, `cut U V K` (K: the edge's
    /// place in the file) or `edge K`) or `cards` (AtCoder ABC278 G's: `x y` takes cards
    /// x..x+y-1; answers `a b`, `0 0`, `-1 -1`).
    #[arg(long, value_enum, default_value = "lines")]
    protocol: ProtocolArg,
    // `{n}` in a help text is clap's line break: a reset sequence (stripped from plain output,
    // invisible on a terminal) after each `{` keeps the braces literal.
    #[arg(
        long,
        value_name = "TEXT",
        help = "The cards protocol's first line, `{n\x1b[0m}` and `{PARAM}` replaced [default: `{n\x1b[0m}` then each parameter of the game in file order, e.g. `{n\x1b[0m} {L} {R}` for rules/abc278g.sg: ABC278 G's `N L R` line]"
    )]
    header: Option<String>,
    /// Seconds the program may take for one line.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    time_limit: f64,
    /// Moves after which the game is called a draw.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_moves: u64,
    /// Print every line sent each way.
    #[arg(long)]
    transcript: bool,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    game: GameArgs,
    /// The program and its arguments, after `--`.
    // Declared after GAME (index 1) so that clap numbers it after the position.
    #[arg(index = 3, raw = true, required = true, value_name = "PROGRAM")]
    program: Vec<String>,
}

/// `--side`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum SideArg {
    First,
    Second,
}

/// `--protocol`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ProtocolArg {
    Lines,
    Cards,
}

/// Runs `judge`: exit code 0 when the program won, 1 otherwise (with the reason).
pub fn run_judge(args: JudgeArgs, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    let play = args.play.resolve(&game, &mut context.console);
    let start = start_of(&game, &args.position, "judge")?;
    if !(args.time_limit > 0.0 && args.time_limit <= 86_400.0) {
        return Err(CliError::Usage(
            "--time-limit must be more than 0 and at most 86400 seconds".into(),
        ));
    }
    let referee = Referee::with_options(&game, play, &start, super::progress::options())
        .map_err(play_error)?;
    let options = JudgeOptions {
        side: args.side.map(|s| match s {
            SideArg::First => Side::First,
            SideArg::Second => Side::Second,
        }),
        protocol: match args.protocol {
            ProtocolArg::Lines => Protocol::Lines,
            ProtocolArg::Cards => Protocol::Cards {
                header: args
                    .header
                    .clone()
                    .unwrap_or_else(|| judge::default_header(&game)),
            },
        },
        time_limit: Duration::from_secs_f64(args.time_limit),
        max_moves: args.max_moves,
    };
    let mut command = Command::new(&args.program[0]);
    command.args(&args.program[1..]);
    let report = judge::judge(&referee, start, &mut command, &options).map_err(|e| match e {
        PlayError::Io(io) => {
            CliError::Usage(format!("cannot run `{}`: {io}", args.program.join(" ")))
        }
        other => play_error(other),
    })?;
    context.console.write_to("-", |out| {
        if args.transcript {
            for (from_judge, line) in &report.transcript {
                writeln!(
                    out,
                    "{} {line}",
                    if *from_judge { "judge:  " } else { "program:" }
                )?;
            }
        }
        Ok(())
    })?;
    let winnable = match report.winnable {
        Some(true) => " (the program's side wins with perfect play)",
        Some(false) => " (the program's side loses against perfect play)",
        None => "",
    };
    let moves = match report.moves {
        1 => "1 move".to_string(),
        n => format!("{n} moves"),
    };
    match report.result {
        Result_::ProgramWon => {
            context
                .console
                .print(&format!("the program won after {moves}{winnable}\n"))?;
            Ok(())
        }
        Result_::JudgeWon => Err(CliError::Failed(format!(
            "the program lost after {moves}: it had no move left{winnable}"
        ))),
        Result_::Draw => Err(CliError::Failed(format!(
            "no winner after {moves} (--max-moves): a draw"
        ))),
        Result_::Illegal { line, text, why } => Err(CliError::Failed(format!(
            "the program's line {line}, `{text}`, after {moves}: {why}"
        ))),
        Result_::NoAnswer { expected, why } => {
            let mut message = format!("the program did not send {expected} after {moves}: {why}");
            // In the cards protocol a program that waits for more of its first line than the
            // header gave never answers: name the line it got.
            let header = report.transcript.iter().find(|(from_judge, _)| *from_judge);
            if let (ProtocolArg::Cards, Some((_, header))) = (args.protocol, header) {
                message = super::with_help(message, Some(format!(
                    "the first line sent was `{header}`; if the program reads more there, set the line with --header (parameters as {{NAME}})"
                )));
            }
            Err(CliError::Failed(message))
        }
    }
}

/// The position given, or a graph file's `start` node, read as `solve` reads it
/// ([`api::read_position`]); a Hackenbush file's position is its standing edges.
fn start_of(game: &Game, position: &[String], command: &str) -> Result<Vec<Vec<u64>>, CliError> {
    match api::read_position(game, &position.join(" ")) {
        Ok(Position::Components(components)) => Ok(components),
        Ok(Position::Nodes(nodes)) => Ok(nodes.into_iter().map(|v| vec![u64::from(v)]).collect()),
        Ok(Position::Picture) => Ok(crate::play::hackenbush_start(game)
            .map_err(play_error)?
            .expect("a picture is a hackenbush file's")),
        Err(error) => Err(super::solve::refusal(error, game, position, command)),
    }
}

fn play_error(error: PlayError) -> CliError {
    match error {
        PlayError::Solve(e) => CliError::Solve(e),
        PlayError::Unsupported(text) => CliError::Usage(text),
        PlayError::Io(e) => CliError::Failed(e.to_string()),
    }
}
