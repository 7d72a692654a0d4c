//! Heap games (issue 3): sgscope's engines against a naive C++ loop, one markdown table.
//!
//! Engines, per game and size:
//! * **naive C++**: `benches/naive.cpp`, the O(n²) loop every contestant writes (`g++ -O2`; its
//!   path comes with `--naive-cpp`, which `benches/run` passes);
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
use std::collections::HashMap;
use std::process::Command;

use sgscope::analysis::{self, PeriodReport};
use sgscope::engine::{self, EngineOptions, SgTable};
use sgscope::oracle::naive;
use sgscope::rules::{self, Game, SourceFile};

use crate::measure::{ratio_text, seconds_text, size_text, time_runs, timing_text, yes_no, Timing};
use crate::{Report, Settings};

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
pub struct Row {
    /// The rules text, as on the command line.
    pub rules: &'static str,
    /// The same game for `benches/naive.cpp`: the octal digits after the point, or `grundy`.
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

/// The rows of the full run or, with `quick`, of the quick one.
pub fn rows(quick: bool) -> Vec<Row> {
    if quick {
        quick_rows()
    } else {
        full_rows()
    }
}

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

/// 64-bit FNV-1a over whole values, as `benches/naive.cpp` prints it.
pub fn table_hash(values: impl Iterator<Item = u32>) -> u64 {
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

/// Reads `G(N) = v, hash = h` from `benches/naive.cpp`.
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
            _ => problems.push(format!(
                "not proved: {}",
                sgscope::export::period::reason(report)
            )),
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

/// Measures `rows` and prints their table.
pub fn run(rows: &[Row], settings: &Settings, pools: &[rayon::ThreadPool; 2]) -> Report {
    println!("| game | N | naive C++ | naive (Rust) | dense | sparse, 1 thread | sparse, 2 threads | naive C++ ÷ sparse 2 threads | 1 ÷ 2 threads | values |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut capped = CappedBench {
        settings,
        measured: HashMap::new(),
        calibrated: HashMap::new(),
    };
    let mut report = Report::default();
    for row in rows {
        let outcome = bench_row(row, settings, &mut capped, pools);
        println!("| {} |", outcome.cells.join(" | "));
        report.add(outcome.ok, outcome.target);
    }
    println!();
    report
}
