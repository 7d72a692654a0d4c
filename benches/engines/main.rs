//! Side-by-side benchmark of sgscope's engines: one run on one machine prints markdown tables,
//! so that the ratios compare runs under the same load.
//!
//! * [`heaps`] (issue 3): heap games, sgscope's engines against a naive C++ loop;
//! * [`positions`] (issue 4): position games from their rules files against hand-written Rust
//!   loops for the same tables;
//! * [`frontier`] (issue 3, only with `--frontier`): Grundy's game and octal 0.6 to `2^28`, one
//!   run each in a child process, with its peak memory.
//!
//! Every row checks its tables against an independent computation, and the run exits with
//! status 1 when one differs. Issues' targets are printed as met or not met at the end.
//!
//! Usage: `cargo bench --bench engines -- [--quick] [--reps R] [--budget S] [--only TEXT]
//! [--naive-cpp PATH] [--frontier [--frontier-log2 K]]`; `benches/run` is the entry point.

mod frontier;
mod heaps;
mod measure;
mod positions;

use std::process::ExitCode;
use std::time::Instant;

use measure::seconds_text;

/// The command line.
struct Settings {
    reps: usize,
    /// Seconds a capped engine's measurement should take at most (from its calibration).
    budget: f64,
    /// Runs that take at least this long are not repeated.
    repeat_below: f64,
    naive_cpp: Option<String>,
    /// Only the rows whose rules text (heap games) or rules file (position games) contains it.
    only: Option<String>,
    quick: bool,
    /// Run the frontier rows (to `2^k`) instead of the others.
    frontier: Option<u32>,
}

impl Settings {
    fn from_args() -> Result<Self, String> {
        let mut settings = Settings {
            reps: 3,
            budget: 12.0,
            repeat_below: 10.0,
            naive_cpp: None,
            only: None,
            quick: false,
            frontier: None,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
            match arg.as_str() {
                "--quick" => {
                    settings.quick = true;
                    settings.reps = 1;
                    settings.budget = 1.0;
                }
                "--reps" => settings.reps = parse(&value("--reps")?)?,
                "--budget" => settings.budget = parse(&value("--budget")?)?,
                "--naive-cpp" => settings.naive_cpp = Some(value("--naive-cpp")?),
                "--only" => settings.only = Some(value("--only")?),
                "--frontier" => settings.frontier = settings.frontier.or(Some(28)),
                "--frontier-log2" => settings.frontier = Some(parse(&value("--frontier-log2")?)?),
                // `cargo bench` passes `--bench` to every bench target.
                "--bench" => {}
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        settings.reps = settings.reps.max(1);
        Ok(settings)
    }

    fn selects(&self, name: &str) -> bool {
        self.only.as_ref().is_none_or(|only| name.contains(only))
    }
}

fn parse<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("`{text}` is not a number"))
}

/// What a table found: how many rows failed a check, and the targets' lines (what was asked,
/// what was measured, whether it was met).
#[derive(Default)]
struct Report {
    mismatches: usize,
    targets: Vec<[String; 3]>,
}

impl Report {
    fn add(&mut self, ok: bool, target: Option<[String; 3]>) {
        self.mismatches += usize::from(!ok);
        self.targets.extend(target);
    }

    fn merge(&mut self, other: Report) {
        self.mismatches += other.mismatches;
        self.targets.extend(other.targets);
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, code, to] = &args[..] {
        if flag == "--frontier-child" {
            return match frontier::child(code, to) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            };
        }
    }
    let settings = match Settings::from_args() {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let pools = [1, 2].map(|threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a rayon pool")
    });
    let heap_rows: Vec<_> = heaps::rows(settings.quick)
        .into_iter()
        .filter(|row| settings.selects(row.rules))
        .collect();
    let position_rows: Vec<_> = positions::rows(settings.quick)
        .into_iter()
        .filter(|row| settings.selects(row.path))
        .collect();
    println!(
        "median of {} runs [min..max] (runs of {} or more once); capped engines within about {} each",
        settings.reps,
        seconds_text(settings.repeat_below),
        seconds_text(settings.budget)
    );
    println!();
    let started = Instant::now();
    let mut report = Report::default();
    if let Some(log2_to) = settings.frontier {
        report.merge(frontier::run(log2_to, |code| settings.selects(code)));
    } else if !heap_rows.is_empty() {
        report.merge(heaps::run(&heap_rows, &settings, &pools));
    }
    if settings.frontier.is_none() && !position_rows.is_empty() {
        report.merge(positions::run(&position_rows, &settings, &pools));
    }
    if !report.targets.is_empty() {
        println!("| target (2 threads) | measured | met |");
        println!("|---|---|---|");
        for line in report.targets {
            println!("| {} |", line.join(" | "));
        }
        println!();
    }
    println!("total {}", seconds_text(started.elapsed().as_secs_f64()));
    if report.mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: some engines disagree (rows marked MISMATCH)");
        ExitCode::FAILURE
    }
}
