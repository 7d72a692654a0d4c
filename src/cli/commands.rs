//! One function per subcommand: validate, call the library, write the result.

use std::io::{IsTerminal, Write};

use crate::analysis::{self, PeriodReport};
use crate::engine::{self, EngineOptions, SgTable};
use crate::rules::{Family, Game, GameKind};

use super::{load_game, CliError, ColorChoice, Command, Lang, TableFormat};

pub(super) fn dispatch(command: Command) -> Result<(), CliError> {
    match command {
        Command::Table { game, to, format, output, color, sets } => {
            table(&load_game(&game, &sets)?, to, format, output.as_deref(), color)
        }
        Command::Period { game, max, json, sets } => period(&load_game(&game, &sets)?, max, json),
        Command::Plot { game, to, output, sets } => plot(&load_game(&game, &sets)?, to, &output),
        Command::Code { game, lang, max, to, output, sets } => {
            code(&load_game(&game, &sets)?, lang, max, to, output.as_deref())
        }
        Command::Check { games, sets } => check(&games, &sets),
    }
}

fn engine_options() -> EngineOptions {
    EngineOptions { progress: true }
}

fn table(game: &Game, to: u64, format: TableFormat, output: Option<&str>, color: ColorChoice) -> Result<(), CliError> {
    let _ = (game, to, format, output, color);
    unimplemented!()
}

fn period(game: &Game, max: u64, json: bool) -> Result<(), CliError> {
    let (_table, report) = analysis::find_period(game, max, &engine_options())?;
    let mut out = std::io::stdout().lock();
    let text = if json {
        serde_json::to_string_pretty(&report).expect("a report always serialises") + "\n"
    } else {
        report_text(game, &report)
    };
    out.write_all(text.as_bytes()).map_err(|e| CliError::Write(e.to_string()))
}

/// The human form of a period report.
fn report_text(game: &Game, report: &PeriodReport) -> String {
    let mut s = String::new();
    s += &format!("game:       {}\n", game_title(game));
    s += &format!(
        "computed:   G(0..={}), largest value {}\n",
        report.values_computed.saturating_sub(1),
        report.max_value
    );
    match (report.preperiod, report.period, report.saltus) {
        (Some(n0), Some(p), Some(saltus)) => {
            s += &format!("preperiod:  {n0}\nperiod:     {p}\n");
            if saltus != 0 {
                s += &format!("saltus:     {saltus}   (G(n + {p}) = G(n) + {saltus})\n");
            }
            s += &format!("proved:     {}\n", if report.proved { "yes" } else { "no" });
        }
        _ => s += "period:     none found\n",
    }
    s += &format!("reason:     {}\n", report.reason);
    s
}

/// "Dawson's Kayles (octal 0.07)": the name, and the code when the engine uses one.
fn game_title(game: &Game) -> String {
    match (&game.kind, game.code()) {
        (GameKind::Code { family: Family::Octal | Family::Hex | Family::TakeBreak, .. }, Some(code))
            if game.name != code.to_string() =>
        {
            format!("{} (code {code})", game.name)
        }
        (GameKind::Code { .. }, Some(code)) | (GameKind::General { .. }, Some(code)) => {
            format!("{} (code {code})", game.name)
        }
        _ => game.name.clone(),
    }
}

fn plot(game: &Game, to: u64, output: &str) -> Result<(), CliError> {
    let _ = (game, to, output);
    unimplemented!()
}

fn code(game: &Game, lang: Lang, max: u64, to: u64, output: Option<&str>) -> Result<(), CliError> {
    let _ = (game, lang, max, to, output);
    unimplemented!()
}

fn check(games: &[String], sets: &[(String, i64)]) -> Result<(), CliError> {
    let mut first_error = None;
    for name in games {
        match load_game(name, sets) {
            Ok(game) => println!("ok: {name}: {}", game_title(&game)),
            Err(e) => {
                eprint!("{e}");
                first_error.get_or_insert(e);
            }
        }
    }
    match first_error {
        None => Ok(()),
        Some(CliError::Rules(_)) if games.len() > 1 => {
            Err(CliError::Usage(format!("{} of {} files have errors", games.len(), games.len())))
        }
        Some(e) => Err(e),
    }
}

#[allow(dead_code)]
fn use_color(choice: ColorChoice, to_file: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => !to_file && std::io::stdout().is_terminal(),
    }
}

#[allow(dead_code)]
fn compute(game: &Game, to: u64) -> Result<SgTable, CliError> {
    Ok(engine::compute(game, to, &engine_options())?)
}
