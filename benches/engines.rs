//! Side-by-side benchmark of sgscope's engines (issue 3): one run on one machine prints one
//! markdown table, so that the ratios compare runs under the same load.
//!
//! Engines, per game and size:
//! * **naive C++**: `bench/naive.cpp`, the O(n²) loop every contestant writes (`g++ -O2`; its
//!   path comes with `--naive-cpp`, which `bench/run` passes);
//! * **naive (Rust)**: [`naive::code_values`], the reference engine that lists every move;
//! * **dense**: the take-and-break kernel on its own (every split of every heap);
//! * **sparse, 1 thread / 2 threads**: [`engine::compute`] or, for "to the proof" rows,
//!   [`analysis::find_period`] — what `sgscope table` and `sgscope period` run (dense below
//!   4096 heaps, then the sparse kernel with its proved-period fill) — inside a rayon pool of
//!   1 and of 2 threads.
//!
//! The first three would take hours or years at the larger sizes, so they are *capped*: each
//! is calibrated on tables of 256, 512, … until one takes a twentieth of the time budget
//! (`--budget`), then timed at the row's size `N` if its cost `t ∝ n^e` predicts at most twice
//! the budget there, else at the largest size of the form 1, 2 or 5 × 10^k predicted to fit in
//! the budget (`e = 2` for the naive C++ loop and the dense kernel; `e = 3` for the naive Rust
//! engine, which lists 2-part partitions by trying every first and second part). A time at `N`
//! derived from a smaller size is printed as an estimate, `t(n)·(N/n)^e`, never as a
//! measurement. Rows marked `baseline_at_full_size` time the naive C++ program at `N` whatever
//! it costs, because their target compares against that measurement.
//!
//! Every engine's table is checked against the sparse 2-thread table: a 64-bit FNV-1a hash of
//! `G(0..=n)` for the size `n` the engine ran to (the naive C++ program prints the same hash),
//! and for proof rows the proved preperiod and period against the published ones.
//!
//! Usage: `cargo bench --bench engines -- [--quick] [--reps R] [--budget S] [--only TEXT]
//! [--naive-cpp PATH]`; `bench/run` is the entry point.

use std::collections::HashMap;
use std::process::{Command, ExitCode};
use std::time::Instant;

use sgscope::analysis::{self, PeriodReport};
use sgscope::engine::{self, naive, EngineOptions, SgTable};
use sgscope::rules::{self, Game, SourceFile};

/// What a row measures.
#[derive(Clone, Copy)]
enum Goal {
    /// `G(0..=to)`, as `sgscope table GAME --to N`.
    Table(u64),
    /// The `period` search up to its proof, as `sgscope period GAME --max MAX`; `expected` is
    /// the published (preperiod, period) and where it was published.
    Proof {
        max: u64,
        expected: Option<(usize, usize, &'static str)>,
    },
}

/// One line of the table.
struct Row {
    /// The rules text, as on the command line.
    rules: &'static str,
    /// The same game for `bench/naive.cpp`: the octal digits after the point, or `grundy`.
    naive_cpp_code: &'static str,
    goal: Goal,
    /// Time the naive C++ program at the full size even beyond the budget.
    baseline_at_full_size: bool,
    /// The goal issue 3 sets for this row, if any.
    target: Option<Target>,
}

/// A goal for the engine as the commands run it (the sparse 2-thread column: all cores).
#[derive(Clone, Copy)]
enum Target {
    /// At most this many seconds (median).
    Seconds(f64),
    /// At least this many times faster than the naive C++ program timed at the same size.
    FasterThanNaiveCpp(f64),
}

const fn table_row(rules: &'static str, naive_cpp_code: &'static str, to: u64) -> Row {
    Row {
        rules,
        naive_cpp_code,
        goal: Goal::Table(to),
        baseline_at_full_size: false,
        target: None,
    }
}

const fn proof_row(
    rules: &'static str,
    naive_cpp_code: &'static str,
    expected: Option<(usize, usize, &'static str)>,
) -> Row {
    Row {
        rules,
        naive_cpp_code,
        goal: Goal::Proof {
            max: 1 << 25,
            expected,
        },
        baseline_at_full_size: false,
        target: None,
    }
}

/// `row` with the naive C++ program timed at its full size and `target` to meet.
const fn headline(row: Row, target: Target) -> Row {
    Row {
        baseline_at_full_size: true,
        target: Some(target),
        ..row
    }
}

const fn with_target(row: Row, target: Target) -> Row {
    Row {
        target: Some(target),
        ..row
    }
}

/// Gangolli & Plambeck, "A note on periodicity in some octal games", Int. J. Game Theory 18
/// (1989): the preperiods and periods of 0.16 and 0.56 (also in tests/examples.rs).
const GANGOLLI_PLAMBECK: &str = "Gangolli & Plambeck 1989";
/// The same paper for 0.127, as OEIS A071464 quotes it ("last exception at n = 46577").
const GANGOLLI_PLAMBECK_A071464: &str = "Gangolli & Plambeck 1989 (OEIS A071464)";

const PROVED_0_16: Option<(usize, usize, &str)> = Some((105_351, 149_459, GANGOLLI_PLAMBECK));
const PROVED_0_56: Option<(usize, usize, &str)> = Some((326_640, 144, GANGOLLI_PLAMBECK));
const PROVED_0_127: Option<(usize, usize, &str)> = Some((46_578, 4, GANGOLLI_PLAMBECK_A071464));

/// The full run: issue 3's list and its targets.
fn full_rows() -> Vec<Row> {
    vec![
        headline(
            table_row("octal 0.07", "07", 1_000_000),
            Target::FasterThanNaiveCpp(1000.0),
        ),
        table_row("octal 0.77", "77", 1_000_000),
        with_target(
            proof_row("octal 0.16", "16", PROVED_0_16),
            Target::Seconds(0.3),
        ),
        with_target(
            proof_row("octal 0.56", "56", PROVED_0_56),
            Target::Seconds(0.3),
        ),
        proof_row("octal 0.127", "127", PROVED_0_127),
        with_target(proof_row("octal 0.376", "376", None), Target::Seconds(15.0)),
        with_target(proof_row("octal 0.354", "354", None), Target::Seconds(8.0)),
        table_row("takebreak 4!.0", "grundy", 1 << 22),
        with_target(
            table_row("takebreak 4!.0", "grundy", 1 << 24),
            Target::Seconds(45.0),
        ),
        table_row("octal 0.6", "6", 1 << 22),
        table_row("octal 0.6", "6", 1 << 24),
        // Issue 4 (multi-coordinate games) adds a row here: Wythoff to 1000×1000 from the rules
        // file against a hand-written Rust loop, the rules engine within 3× of it.
    ]
}

/// The quick run: every engine and both kinds of row at small sizes, to check the script.
fn quick_rows() -> Vec<Row> {
    vec![
        headline(
            table_row("octal 0.07", "07", 100_000),
            Target::FasterThanNaiveCpp(100.0),
        ),
        proof_row("octal 0.127", "127", PROVED_0_127),
        with_target(
            proof_row("octal 0.16", "16", PROVED_0_16),
            Target::Seconds(1.0),
        ),
        table_row("takebreak 4!.0", "grundy", 1 << 16),
        table_row("octal 0.6", "6", 1 << 16),
    ]
}

/// The engines too slow for the larger sizes, timed within the budget.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Capped {
    NaiveCpp,
    NaiveRust,
    Dense,
}

impl Capped {
    const ALL: [Capped; 3] = [Capped::NaiveCpp, Capped::NaiveRust, Capped::Dense];

    /// `e` in the cost `t ∝ n^e` of `G(0..=n)`: every split of every heap (2), and for the
    /// naive Rust engine also every candidate second part of each split (3).
    fn cost_exponent(self) -> i32 {
        match self {
            Capped::NaiveRust => 3,
            Capped::NaiveCpp | Capped::Dense => 2,
        }
    }
}

/// The first calibration size of a capped engine.
const CALIBRATION_FROM: u64 = 256;

/// 64-bit FNV-1a over whole values, as `bench/naive.cpp` prints it.
fn table_hash(values: impl Iterator<Item = u32>) -> u64 {
    values.fold(0xcbf2_9ce4_8422_2325, |h, v| {
        (h ^ u64::from(v)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What an engine computed: `G(0..=to)` hashed, and `G(to)`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Checksum {
    to: u64,
    hash: u64,
    last: u32,
}

impl Checksum {
    fn of_prefix(table: &SgTable, to: u64) -> Self {
        let len = to as usize + 1;
        Checksum {
            to,
            hash: table_hash(table.iter().take(len)),
            last: table.get(to as usize),
        }
    }
}

/// Wall-clock seconds of one or more runs.
#[derive(Clone, Copy, Debug)]
struct Timing {
    median: f64,
    min: f64,
    max: f64,
    runs: usize,
}

/// Runs `run` `reps` times, or once when the first run takes `repeat_below` seconds or more,
/// and returns the timing and the last run's result.
fn time_runs<T>(reps: usize, repeat_below: f64, mut run: impl FnMut() -> T) -> (Timing, T) {
    let mut times = Vec::new();
    let mut result;
    loop {
        let started = Instant::now();
        result = run();
        times.push(started.elapsed().as_secs_f64());
        if times.len() >= reps || times[0] >= repeat_below {
            break;
        }
    }
    times.sort_by(f64::total_cmp);
    let timing = Timing {
        median: times[times.len() / 2],
        min: times[0],
        max: times[times.len() - 1],
        runs: times.len(),
    };
    (timing, result)
}

struct Settings {
    reps: usize,
    /// Seconds a capped engine's measurement should take at most (from its calibration).
    budget: f64,
    /// Runs that take at least this long are not repeated.
    repeat_below: f64,
    naive_cpp: Option<String>,
    only: Option<String>,
    quick: bool,
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
                // `cargo bench` passes `--bench` to every bench target.
                "--bench" => {}
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        settings.reps = settings.reps.max(1);
        Ok(settings)
    }
}

fn parse<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("`{text}` is not a number"))
}

/// A timed run of one engine to one size.
#[derive(Clone, Copy, Debug)]
struct Measured {
    timing: Timing,
    checksum: Checksum,
}

/// Times the capped engines, remembering each (engine, game, size) so that rows of the same
/// game share them, and each calibration.
struct CappedBench<'a> {
    settings: &'a Settings,
    measured: HashMap<(Capped, &'static str, u64), Option<Measured>>,
    calibrated: HashMap<(Capped, &'static str), Option<Measured>>,
}

impl CappedBench<'_> {
    /// One run of `engine` to `G(0..=to)`; `None` when the engine is not available.
    fn run_once(&self, engine: Capped, row: &Row, game: &Game, to: u64) -> Option<Checksum> {
        let code = game.code().expect("every benchmark game has a code");
        match engine {
            Capped::NaiveCpp => {
                let program = self.settings.naive_cpp.as_ref()?;
                let output = Command::new(program)
                    .args([row.naive_cpp_code, &to.to_string()])
                    .output()
                    .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
                assert!(output.status.success(), "{program} failed: {output:?}");
                Some(parse_naive_cpp(
                    &String::from_utf8_lossy(&output.stdout),
                    to,
                ))
            }
            Capped::NaiveRust => {
                let values = naive::code_values(code, to as usize + 1);
                Some(Checksum::of_prefix(&SgTable::from_values(&values), to))
            }
            // The dense kernel alone: every split of every heap, no sparse hand-over, no fill.
            Capped::Dense => {
                let mut table = SgTable::new();
                engine::takebreak::extend_dense(
                    code,
                    &mut table,
                    to as usize + 1,
                    &mut engine::Progress::hidden(),
                );
                Some(Checksum::of_prefix(&table, to))
            }
        }
    }

    fn measure(&mut self, engine: Capped, row: &Row, game: &Game, to: u64) -> Option<Measured> {
        let key = (engine, row.rules, to);
        if let Some(&known) = self.measured.get(&key) {
            return known;
        }
        let settings = self.settings;
        let (timing, checksum) = time_runs(settings.reps, settings.repeat_below, || {
            self.run_once(engine, row, game, to)
        });
        let measured = checksum.map(|checksum| Measured { timing, checksum });
        self.measured.insert(key, measured);
        measured
    }

    /// The size to time `engine` at for a row of size `n`: `n` itself when its calibration
    /// predicts at most twice the budget there, else the largest 1-2-5 size predicted to fit.
    fn size_for(&mut self, engine: Capped, row: &Row, game: &Game, n: u64) -> Option<u64> {
        if engine == Capped::NaiveCpp && row.baseline_at_full_size {
            return Some(n);
        }
        let calibration = self.calibrate(engine, row, game, n)?;
        let budget = self.settings.budget;
        let fits = calibration.checksum.to as f64
            * (budget / calibration.timing.median.max(1e-6))
                .powf(1.0 / f64::from(engine.cost_exponent()));
        Some(
            if fits * 2f64.powf(1.0 / f64::from(engine.cost_exponent())) >= n as f64 {
                n
            } else {
                round_down_125(fits as u64).max(calibration.checksum.to)
            },
        )
    }

    /// Times `engine` on `G(0..=256)`, `G(0..=512)`, … until a run takes a twentieth of the
    /// budget or reaches `n`; the last run (remembered per engine and game).
    fn calibrate(&mut self, engine: Capped, row: &Row, game: &Game, n: u64) -> Option<Measured> {
        let key = (engine, row.rules);
        if let Some(&known) = self.calibrated.get(&key) {
            return known;
        }
        let mut to = n.min(CALIBRATION_FROM);
        let calibration = loop {
            let (timing, checksum) = time_runs(1, 0.0, || self.run_once(engine, row, game, to));
            let Some(checksum) = checksum else {
                break None;
            };
            if timing.median >= self.settings.budget / 20.0 || to >= n {
                break Some(Measured { timing, checksum });
            }
            to = (2 * to).min(n);
        };
        self.calibrated.insert(key, calibration);
        calibration
    }
}

/// The largest of 1, 2, 5 × 10^k at most `n` (`n ≥ 1`).
fn round_down_125(n: u64) -> u64 {
    let mut decade = 1;
    while decade * 10 <= n {
        decade *= 10;
    }
    [5, 2, 1]
        .into_iter()
        .map(|m| m * decade)
        .find(|&s| s <= n)
        .unwrap_or(1)
}

/// Reads `G(N) = v, hash = h` from `bench/naive.cpp`.
fn parse_naive_cpp(stdout: &str, to: u64) -> Checksum {
    let numbers: Vec<u64> = stdout
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("digits"))
        .collect();
    match numbers[..] {
        [n, last, hash] if n == to => Checksum {
            to,
            hash,
            last: last as u32,
        },
        _ => panic!("unexpected output of the naive C++ program: {stdout:?}"),
    }
}

/// The engine as `sgscope table` / `sgscope period` run it, timed in `pool`.
struct SparseRun {
    timing: Timing,
    table: SgTable,
    report: Option<PeriodReport>,
}

fn run_sparse(pool: &rayon::ThreadPool, settings: &Settings, game: &Game, goal: Goal) -> SparseRun {
    let options = EngineOptions::default();
    let (timing, (table, report)) = time_runs(settings.reps, settings.repeat_below, || {
        pool.install(|| match goal {
            Goal::Table(to) => {
                let table = engine::compute(game, to, &options).expect("table");
                (table, None)
            }
            Goal::Proof { max, .. } => {
                let (table, report) = analysis::find_period(game, max, &options).expect("period");
                (table, Some(report))
            }
        })
    });
    SparseRun {
        timing,
        table,
        report,
    }
}

/// `2^22`, `10^6`, or the number.
fn size_text(n: u64) -> String {
    if n >= 1024 && n.is_power_of_two() {
        format!("2^{}", n.trailing_zeros())
    } else if n >= 1000 && 10u64.pow(n.ilog10()) == n {
        format!("10^{}", n.ilog10())
    } else {
        n.to_string()
    }
}

fn seconds_text(t: f64) -> String {
    match t {
        t if t < 1.0 => format!("{t:.3} s"),
        t if t < 100.0 => format!("{t:.2} s"),
        t if t < 3600.0 => format!("{t:.0} s"),
        t if t < 86400.0 => format!("{:.1} h", t / 3600.0),
        t if t < 3e7 => format!("{:.1} days", t / 86400.0),
        t if t < 3e10 => format!("{:.0} years", t / 3.15e7),
        t => format!("{:.0e} years", t / 3.15e7),
    }
}

fn timing_text(timing: &Timing) -> String {
    if timing.runs == 1 {
        format!("{} (1 run)", seconds_text(timing.median))
    } else {
        format!(
            "{} [{}..{}]",
            seconds_text(timing.median),
            seconds_text(timing.min),
            seconds_text(timing.max)
        )
    }
}

/// `1234×`, `12×`, `1.2×`.
fn ratio_text(ratio: f64) -> String {
    if ratio < 10.0 {
        format!("{ratio:.2}×")
    } else {
        format!("{ratio:.0}×")
    }
}

/// A capped engine's time at `n`: measured when it ran to `n`, else estimated from its run.
#[derive(Clone, Copy)]
struct AtFullSize {
    seconds: f64,
    estimated: bool,
}

fn at_full_size(engine: Capped, measured: &Measured, n: u64) -> AtFullSize {
    let scale = n as f64 / measured.checksum.to as f64;
    AtFullSize {
        seconds: measured.timing.median * scale.powi(engine.cost_exponent()),
        estimated: measured.checksum.to < n,
    }
}

fn capped_cell(engine: Capped, measured: Option<&Measured>, n: u64) -> String {
    let Some(measured) = measured else {
        return "—".to_string();
    };
    let full = at_full_size(engine, measured, n);
    if full.estimated {
        format!(
            "{} to {}; est. ≈ {} to {}",
            timing_text(&measured.timing),
            size_text(measured.checksum.to),
            seconds_text(full.seconds),
            size_text(n)
        )
    } else {
        timing_text(&measured.timing)
    }
}

/// "0.07" for `octal 0.07`, "4!.0" for `takebreak 4!.0`.
fn game_text(rules: &str) -> &str {
    rules.split_once(' ').map_or(rules, |(_, code)| code)
}

/// What one row gave: its cells, whether every check passed, and its target's line.
struct RowOutcome {
    cells: Vec<String>,
    ok: bool,
    target: Option<[String; 3]>,
}

/// The target's line: what was asked, what was measured, whether it was met.
fn target_line(
    row: &Row,
    size: &str,
    sparse: &Timing,
    naive_cpp: Option<(Measured, AtFullSize)>,
) -> Option<[String; 3]> {
    let game = game_text(row.rules);
    Some(match row.target? {
        Target::Seconds(limit) => [
            format!("{game} to {size} in ≤ {}", seconds_text(limit)),
            seconds_text(sparse.median),
            yes_no(sparse.median <= limit).to_string(),
        ],
        Target::FasterThanNaiveCpp(times) => {
            let asked = format!("{game} to {size} ≥ {times:.0}× faster than naive C++");
            match naive_cpp {
                Some((measured, full)) if !full.estimated => {
                    let ratio = measured.timing.median / sparse.median;
                    [asked, ratio_text(ratio), yes_no(ratio >= times).to_string()]
                }
                _ => [asked, "naive C++ not timed at this size".into(), "—".into()],
            }
        }
    })
}

fn yes_no(met: bool) -> &'static str {
    if met {
        "yes"
    } else {
        "**no**"
    }
}

/// Measures one row.
fn bench_row(
    row: &Row,
    settings: &Settings,
    capped: &mut CappedBench<'_>,
    pools: &[rayon::ThreadPool; 2],
) -> RowOutcome {
    let game = rules::load(SourceFile::new("<bench>", row.rules), &[])
        .unwrap_or_else(|e| panic!("{}: {e}", row.rules));
    let two = run_sparse(&pools[1], settings, &game, row.goal);
    let one = run_sparse(&pools[0], settings, &game, row.goal);
    let n = two.table.len() as u64 - 1;
    let mut problems = Vec::new();
    if one.table != two.table || one.report != two.report {
        problems.push("1 thread ≠ 2 threads".to_string());
    }
    let mut capped_cells = Vec::new();
    let mut naive_cpp = None;
    for engine in Capped::ALL {
        let measured = capped
            .size_for(engine, row, &game, n)
            .and_then(|size| capped.measure(engine, row, &game, size));
        let runs = [capped.calibrated.get(&(engine, row.rules)), Some(&measured)];
        for checksum in runs.into_iter().flatten().flatten().map(|m| m.checksum) {
            if checksum != Checksum::of_prefix(&two.table, checksum.to) {
                problems.push(format!("{engine:?} differs to {}", size_text(checksum.to)));
            }
        }
        capped_cells.push(capped_cell(engine, measured.as_ref(), n));
        if engine == Capped::NaiveCpp {
            naive_cpp = measured;
        }
    }
    let mut values = format!("agree; G(N) = {}", two.table.get(n as usize));
    if let Some(report) = &two.report {
        match (report.proved, report.preperiod, report.period) {
            (true, Some(preperiod), Some(period)) => {
                values += &format!("; proved n0 = {preperiod}, p = {period}");
                if let Goal::Proof {
                    expected: Some((want_preperiod, want_period, source)),
                    ..
                } = row.goal
                {
                    if (preperiod, period) == (want_preperiod, want_period) {
                        values += &format!(" as in {source}");
                    } else {
                        problems.push(format!(
                            "{source} has n0 = {want_preperiod}, p = {want_period}"
                        ));
                    }
                }
            }
            _ => problems.push(format!("not proved: {}", report.reason)),
        }
    }
    let ok = problems.is_empty();
    if !ok {
        values = format!("**MISMATCH**: {}", problems.join("; "));
    }
    let naive_cpp = naive_cpp.map(|m| (m, at_full_size(Capped::NaiveCpp, &m, n)));
    let ratio = naive_cpp.map_or("—".to_string(), |(_, full)| {
        let ratio = ratio_text(full.seconds / two.timing.median);
        if full.estimated {
            format!("est. ≈ {ratio}")
        } else {
            ratio
        }
    });
    let target = target_line(row, &size_text(n), &two.timing, naive_cpp);
    let size = match row.goal {
        Goal::Table(_) => size_text(n),
        Goal::Proof { .. } => format!("{n} (proof)"),
    };
    let mut cells = vec![game_text(row.rules).to_string(), size];
    cells.extend(capped_cells);
    cells.extend([
        timing_text(&one.timing),
        timing_text(&two.timing),
        ratio,
        ratio_text(one.timing.median / two.timing.median),
        values,
    ]);
    RowOutcome { cells, ok, target }
}

fn main() -> ExitCode {
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
    let rows = if settings.quick {
        quick_rows()
    } else {
        full_rows()
    };
    println!(
        "median of {} runs [min..max] (runs of {} or more once); capped engines within about {} each",
        settings.reps,
        seconds_text(settings.repeat_below),
        seconds_text(settings.budget)
    );
    println!();
    println!("| game | N | naive C++ | naive (Rust) | dense | sparse, 1 thread | sparse, 2 threads | naive C++ ÷ sparse 2 threads | 1 ÷ 2 threads | values |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let started = Instant::now();
    let mut capped = CappedBench {
        settings: &settings,
        measured: HashMap::new(),
        calibrated: HashMap::new(),
    };
    let mut all_ok = true;
    let mut targets = Vec::new();
    for row in &rows {
        if settings
            .only
            .as_ref()
            .is_some_and(|only| !row.rules.contains(only.as_str()))
        {
            continue;
        }
        let outcome = bench_row(row, &settings, &mut capped, &pools);
        println!("| {} |", outcome.cells.join(" | "));
        all_ok &= outcome.ok;
        targets.extend(outcome.target);
    }
    println!();
    if !targets.is_empty() {
        println!("| target (sparse, 2 threads) | measured | met |");
        println!("|---|---|---|");
        for line in targets {
            println!("| {} |", line.join(" | "));
        }
        println!();
    }
    println!("total {}", seconds_text(started.elapsed().as_secs_f64()));
    if all_ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: some engines disagree (rows marked MISMATCH)");
        ExitCode::FAILURE
    }
}
