//! One function per subcommand: validate, call the library, write the result.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::analysis::rare::RareStats;
use crate::analysis::{self, PeriodReport, Periodicity, SearchTiming};
use crate::engine::checkpoint::{self, Fingerprint, Saver};
use crate::engine::{self, ChunkHook, EngineError, EngineOptions, SgTable};
use crate::export::{self, ChartSpec, CodeSpec, Format, Lang};
use crate::rules::Game;

use super::{solve, Checkpointing, CliError, ColorChoice, Command, Sets};

pub(super) fn dispatch(command: Command) -> Result<(), CliError> {
    match command {
        Command::Table {
            to,
            format,
            output,
            color,
            checkpointing,
            game,
        } => {
            let game = game.load()?;
            if game.position_program().is_some() {
                checkpointing.refuse_for_positions()?;
                return solve::table(&game, &to, format, output.as_deref(), color);
            }
            table(
                &game,
                to.heap_to(&game)?,
                solve::heap_format(format)?,
                output.as_deref(),
                color,
                &checkpointing,
            )
        }
        Command::Period {
            max,
            json,
            checkpointing,
            game,
        } => {
            let game = game.load()?;
            if game.position_program().is_some() {
                return Err(CliError::Usage(format!(
                    "`period` analyses heap games; {} is a position game: try `sgscope patterns`",
                    game.name
                )));
            }
            period(&game, max, json, &checkpointing)
        }
        Command::Plot {
            to,
            rare,
            output,
            game,
        } => {
            let game = game.load()?;
            // A one-coordinate position game gets the chart of a heap game.
            if game.position_program().is_some() && game.coordinates().len() != 1 && !rare {
                return solve::plot(&game, &to, &output);
            }
            plot(&game, to.heap_to(&game)?, rare, &output)
        }
        Command::Code {
            lang,
            max,
            to,
            output,
            game,
        } => {
            let game = game.load()?;
            if game.position_program().is_some() {
                return solve::code(&game, lang, &to, output.as_deref());
            }
            code(&game, lang, max, to.heap_to(&game)?, output.as_deref())
        }
        Command::Check { games, sets } => check(&games, &sets),
        Command::Patterns { to, json, game } => solve::patterns(&game.load()?, &to, json),
        Command::Solve { position, game } => solve::solve(&game.load()?, &position),
    }
}

fn engine_options() -> EngineOptions {
    EngineOptions { progress: true }
}

fn compute(game: &Game, to: u64) -> Result<SgTable, CliError> {
    Ok(engine::compute(game, to, &engine_options())?)
}

/// Set by the Ctrl-C handler, read by the engine's hook between chunks.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

impl Checkpointing {
    /// The table to start from: the `--resume` file's values, or nothing. A missing file is
    /// no error when it is also the `--checkpoint` file (the first run of a resumable command).
    fn initial_table(&self, fingerprint: &Fingerprint) -> Result<SgTable, CliError> {
        let Some(resume) = &self.resume else {
            return Ok(SgTable::new());
        };
        if !resume.exists() && self.checkpoint.as_ref() == Some(resume) {
            return Ok(SgTable::new());
        }
        Ok(checkpoint::load(resume, fingerprint)?)
    }

    /// Runs `work` on the initial table; with `--checkpoint`, hands it a hook that saves every
    /// [`checkpoint::CHECKPOINT_EVERY`] and on Ctrl-C, and saves the finished table (unless
    /// it is shorter than the one resumed from the same file). Returns the table `work`
    /// returns, along with its other result.
    fn run<T>(
        &self,
        game: &Game,
        work: impl FnOnce(SgTable, Option<&mut ChunkHook<'_>>) -> Result<(SgTable, T), EngineError>,
    ) -> Result<(SgTable, T), CliError> {
        let fingerprint = Fingerprint::of(game);
        let initial = self.initial_table(&fingerprint)?;
        let Some(path) = &self.checkpoint else {
            return Ok(work(initial, None)?);
        };
        // Without --checkpoint Ctrl-C keeps its default (the process ends at once). With it,
        // the first Ctrl-C asks the engine to stop at the next chunk, a second one ends the
        // process as usual.
        if let Err(e) = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        }) {
            eprintln!(
                "warning: cannot catch Ctrl-C ({e}); checkpoints are saved every two minutes only"
            );
        }
        let mut saver = Saver::new(
            path,
            fingerprint,
            checkpoint::CHECKPOINT_EVERY,
            &INTERRUPTED,
        );
        if self.resume.as_ref() == Some(path) {
            saver.saved_len = initial.len();
        }
        let result = work(initial, Some(&mut |table| saver.between_chunks(table)));
        if let Some(error) = saver.error.take() {
            return Err(error.into());
        }
        match result {
            Err(EngineError::Interrupted { at }) => Err(CliError::Interrupted {
                at,
                file: path.clone(),
                resume: resume_command(path),
            }),
            Err(e) => Err(e.into()),
            Ok((table, other)) => {
                if table.len() > saver.saved_len || self.resume.as_ref() != Some(path) {
                    saver.save(&table)?;
                }
                Ok((table, other))
            }
        }
    }
}

/// The command line of this process with `--resume FILE` added (unless it is there already),
/// quoted for a POSIX shell.
fn resume_command(file: &Path) -> String {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let has_resume = args
        .iter()
        .any(|a| a == "--resume" || a.starts_with("--resume="));
    if !has_resume {
        args.push("--resume".into());
        args.push(file.to_string_lossy().into_owned());
    }
    std::iter::once("sgscope".to_string())
        .chain(args.iter().map(|a| shell_quote(a)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `a` as one word for a POSIX shell: unchanged when it is plain, else in single quotes.
fn shell_quote(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

fn table(
    game: &Game,
    to: u64,
    format: Format,
    output: Option<&str>,
    color: ColorChoice,
    checkpointing: &Checkpointing,
) -> Result<(), CliError> {
    let output = output.unwrap_or("-");
    let color = color.enabled(output);
    let (mut table, ()) = checkpointing.run(game, |mut table, hook| {
        note_if_long(game, table.len(), to, "--to", hook.is_some());
        match hook {
            Some(hook) => engine::extend_in_chunks(game, &mut table, to, &engine_options(), hook)?,
            None => engine::extend(game, &mut table, to, &engine_options())?,
        }
        Ok((table, ()))
    })?;
    // A resumed table may hold more values than asked for.
    table.truncate(to as usize + 1);
    export::write_output(output, |out| {
        export::write_table(out, &table, format, &game.name, &game.coordinate, color)
    })?;
    Ok(())
}

fn period(
    game: &Game,
    max: u64,
    json: bool,
    checkpointing: &Checkpointing,
) -> Result<(), CliError> {
    // Timed from the table the search starts with (after loading a checkpoint).
    let mut started = (Instant::now(), 0);
    let (table, report) = checkpointing.run(game, |table, hook| {
        note_if_long(game, table.len(), max, "--max", hook.is_some());
        started = (Instant::now(), table.len());
        match hook {
            Some(hook) => {
                analysis::find_period_with_hook(game, max, &engine_options(), table, hook)
            }
            None => analysis::find_period_from(game, max, &engine_options(), table),
        }
    })?;
    let (start, resumed) = started;
    let timing = SearchTiming::new(
        report.values_computed.saturating_sub(resumed),
        start.elapsed(),
    );
    export::write_output("-", |out| {
        if json {
            export::write_report_json(out, &report, Some(&timing))
        } else {
            out.write_all(report_text(game, &report, &table, &timing).as_bytes())
        }
    })?;
    Ok(())
}

/// Says up front (one line on stderr) when extending `G(0..from)` to `G(0..=to)` is estimated
/// to take more than ten minutes, and how to go smaller or resumable.
fn note_if_long(game: &Game, from: usize, to: u64, flag: &str, checkpointed: bool) {
    let Some(estimate) = engine::estimate::estimate(game, from as u64, to) else {
        return;
    };
    if estimate.seconds > 600.0 {
        let stop = if checkpointed {
            ""
        } else {
            ", or add --checkpoint FILE to stop and resume it"
        };
        let (what, will) = if flag == "--max" {
            ("the period search may compute up to ", ", which would take")
        } else {
            ("", " will take")
        };
        eprintln!(
            "note: {what}G(0..={to}) of {}{will} about {} ({}); ask for a smaller {flag}{stop}",
            game.name,
            engine::progress::human_duration(estimate.seconds),
            estimate.work
        );
    }
}

/// The human form of a period report, with the values of the preperiod and of one period.
fn report_text(
    game: &Game,
    report: &PeriodReport,
    table: &SgTable,
    timing: &SearchTiming,
) -> String {
    let last = report.values_computed.saturating_sub(1);
    let mut s = String::new();
    s += &format!("game:       {}\n", game_title(game));
    s += &format!(
        "computed:   G(0..={last}), largest value {} (first at {} = {})\n",
        report.max_value, game.coordinate, report.max_value_at
    );
    if let Some(rare) = &report.rare {
        s += &format!("rare:       {}\n", rare_text(rare, last, &game.coordinate));
    }
    match periodicity(report) {
        Some(Periodicity {
            preperiod,
            period,
            saltus,
        }) => {
            s += &format!("preperiod:  {preperiod}\nperiod:     {period}\n");
            if saltus != 0 {
                s += &format!("saltus:     {saltus}   (G(n + {period}) = G(n) + {saltus})\n");
            }
            s += &format!("proved:     {}\n", if report.proved { "yes" } else { "no" });
            if preperiod > 0 {
                let label = format!("G(0..{preperiod}):");
                s += &format!("{label:<12}{}\n", value_list(table, 0, preperiod));
            }
            s += &format!(
                "one period: {}\n",
                value_list(table, preperiod, preperiod + period)
            );
        }
        None => s += "period:     none found\n",
    }
    s += &format!("reason:     {}\n", report.reason);
    s += &format!(
        "time:       {:.3} s, {} values/s\n",
        timing.seconds, timing.values_per_second
    );
    s
}

/// "mask 254: 1273 rare positions in 1..=1048575, the last at n = 96862, largest rare value 9".
fn rare_text(rare: &RareStats, last: usize, coordinate: &str) -> String {
    let parity = if rare.rare_parity_bit {
        " + heap parity"
    } else {
        ""
    };
    let mut s = format!(
        "mask {}{parity}: {} rare position{} in 1..={last}",
        rare.rare_mask,
        rare.rare_count,
        if rare.rare_count == 1 { "" } else { "s" }
    );
    if let (Some(at), Some(value)) = (rare.last_rare, rare.largest_rare_value) {
        s += &format!(", the last at {coordinate} = {at}, largest rare value {value}");
    }
    s
}

/// `G(from..to)` separated by spaces, elided in the middle past 60 values.
fn value_list(table: &SgTable, from: usize, to: usize) -> String {
    const SHOWN: usize = 60;
    let to = to.min(table.len());
    let show = |range: std::ops::Range<usize>| {
        range
            .map(|n| table.get(n).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if to - from <= SHOWN {
        show(from..to)
    } else {
        format!(
            "{} … ({} values) … {}",
            show(from..from + SHOWN / 2),
            to - from,
            show(to - 10..to)
        )
    }
}

fn periodicity(report: &PeriodReport) -> Option<Periodicity> {
    Some(Periodicity {
        preperiod: report.preperiod?,
        period: report.period?,
        saltus: report.saltus.unwrap_or(0),
    })
}

/// "Dawson's Kayles (code 0.07)": the name, and the code when the engine uses one.
fn game_title(game: &Game) -> String {
    match game.code() {
        Some(code) if game.name != code.to_string() && !game.name.ends_with(&code.to_string()) => {
            format!("{} (code {code})", game.name)
        }
        _ => game.name.clone(),
    }
}

fn plot(game: &Game, to: u64, rare: bool, output: &str) -> Result<(), CliError> {
    // Refuse a bad extension or a meaningless --rare before computing anything.
    export::ChartFormat::from_path(Path::new(output))?;
    if rare && game.code().is_none() {
        return Err(CliError::Usage(format!(
            "--rare needs a take-and-break game: {} has general rules without an equivalent code",
            game.name
        )));
    }
    let table = match game.position_program() {
        Some(_) => {
            let boxed = engine::multi::compute_box(game, &[to])?;
            SgTable::from_values(boxed.values())
        }
        None => compute(game, to)?,
    };
    let report = analysis::report_for_table(&game.name, game.code(), &table);
    let spec = ChartSpec {
        periodicity: periodicity(&report),
        rare: report.rare.filter(|_| rare).map(|stats| stats.mask()),
        ..ChartSpec::new(&game.name, &game.coordinate)
    };
    export::write_chart(Path::new(output), &table, &spec)?;
    eprintln!("wrote {output}");
    Ok(())
}

fn code(game: &Game, lang: Lang, max: u64, to: u64, output: Option<&str>) -> Result<(), CliError> {
    let (mut table, report) = analysis::find_period(game, max, &engine_options())?;
    let found = periodicity(&report);
    if found.is_none() {
        // No period: the table up to --to, and the snippet refuses anything beyond it.
        table = compute(game, to)?;
    }
    // The snippet's header says "observed, NOT proved: …" itself.
    let reason = report
        .reason
        .strip_prefix("not proved: ")
        .unwrap_or(&report.reason);
    if found.is_some() && !report.proved {
        eprintln!(
            "warning: the period of {} is observed, not proved ({reason}); the snippet extrapolates it",
            game.name
        );
    }
    let spec = CodeSpec {
        game: &game.name,
        periodicity: found,
        proved: report.proved,
        reason,
    };
    let snippet = export::generate(lang, &table, &spec)?;
    export::write_output(output.unwrap_or("-"), |out| {
        out.write_all(snippet.as_bytes())
    })?;
    Ok(())
}

fn check(games: &[String], sets: &Sets) -> Result<(), CliError> {
    let mut failures = Vec::new();
    for name in games {
        match sets.load(name) {
            Ok(game) => println!("ok: {name}: {}", game_title(&game)),
            Err(e) => failures.push(e),
        }
    }
    match failures.len() {
        0 => Ok(()),
        1 => Err(failures.pop().expect("one failure")),
        n => {
            for e in &failures {
                eprintln!("{e}");
            }
            Err(CliError::Failed(format!(
                "{n} of {} rules files have errors",
                games.len()
            )))
        }
    }
}
