//! The frontier runs of issue 3 (`--frontier`): Grundy's game and octal 0.6 to `2^28` heaps,
//! one run each, with their time and peak memory.
//!
//! Each run is a child process (this benchmark started again with `--frontier-child CODE N`),
//! so that its peak resident memory (`VmHWM` of `/proc/self/status`, read by the child after
//! the table is complete and still held) is the table's and nothing else's. The child computes
//! `G(0..=N)` as `sgscope table` does, with the default pool (one thread per core), and prints
//! one line: seconds, peak KiB, the hash of `G(0..=2^20)`, `G(N)`, the largest value. The parent
//! checks the prefix hash against its own table of `2^20` heaps from the sparse kernel on one
//! thread (the heap rows check that one against the dense kernel and the naive C++ loop).
use std::process::Command;
use std::time::Instant;

use sgscope::engine::{self, EngineOptions, SgTable};
use sgscope::rules::{self, Game, SourceFile};

use crate::measure::{seconds_text, size_text, yes_no};
use crate::Report;

/// The games of the frontier rows.
const GAMES: [(&str, &str); 2] = [
    ("takebreak 4!.0", "Grundy's game"),
    ("octal 0.6", "octal 0.6"),
];

/// The prefix both processes hash.
const PREFIX: usize = 1 << 20;

/// The limits issue 3 sets for `2^28` heaps.
const SECONDS_TARGET: f64 = 15.0 * 60.0;
const BYTES_PER_VALUE_TARGET: f64 = 2.0;

fn load(code: &str) -> Game {
    rules::load(SourceFile::new("<bench>", code), &[]).expect("a valid code")
}

fn prefix_hash(table: &SgTable) -> u64 {
    crate::heaps::table_hash(table.iter().take(PREFIX))
}

/// What the child prints.
struct ChildRun {
    seconds: f64,
    peak_kib: u64,
    prefix_hash: u64,
    last: u32,
    largest: u32,
}

/// The child's side: computes `G(0..=to)` and prints one [`ChildRun`] line.
pub fn child(code: &str, to: &str) -> Result<(), String> {
    let to: u64 = crate::parse(to)?;
    let game = load(code);
    let started = Instant::now();
    let table = engine::compute(&game, to, &EngineOptions::default()).map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    let status = std::fs::read_to_string("/proc/self/status").map_err(|e| e.to_string())?;
    let peak_kib = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .ok_or("no VmHWM in /proc/self/status")?;
    println!(
        "{seconds} {peak_kib} {} {} {}",
        prefix_hash(&table),
        table.get(to as usize),
        table.max_value()
    );
    Ok(())
}

fn parse_child(stdout: &str) -> Option<ChildRun> {
    let fields: Vec<&str> = stdout.split_whitespace().collect();
    let [seconds, peak_kib, prefix_hash, last, largest] = fields[..] else {
        return None;
    };
    Some(ChildRun {
        seconds: seconds.parse().ok()?,
        peak_kib: peak_kib.parse().ok()?,
        prefix_hash: prefix_hash.parse().ok()?,
        last: last.parse().ok()?,
        largest: largest.parse().ok()?,
    })
}

/// The parent's side: one row per game, `G(0..=2^log2_to)`.
pub fn run(log2_to: u32, only: impl Fn(&str) -> bool) -> Report {
    let to = 1u64 << log2_to;
    let mut report = Report::default();
    println!("| game | N | time (2 threads, 1 run) | peak memory | bytes per value | largest value | G(N) | G(0..=2^20) |");
    println!("|---|---|---|---|---|---|---|---|");
    for (code, name) in GAMES.into_iter().filter(|(code, _)| only(code)) {
        let game = load(code);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a rayon pool");
        let options = EngineOptions::default();
        let reference = pool.install(|| engine::compute(&game, PREFIX as u64 - 1, &options));
        let reference = prefix_hash(&reference.expect("the prefix"));
        let exe = std::env::current_exe().expect("the benchmark's path");
        let output = Command::new(exe)
            .args(["--frontier-child", code, &to.to_string()])
            .output()
            .expect("the benchmark starts itself");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let Some(child) = output
            .status
            .success()
            .then(|| parse_child(&stdout))
            .flatten()
        else {
            eprintln!(
                "error: the frontier run of {code} failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            report.add(false, None);
            continue;
        };
        let bytes_per_value = child.peak_kib as f64 * 1024.0 / (to + 1) as f64;
        let agrees = child.prefix_hash == reference;
        println!(
            "| {name} | {} | {} | {:.0} MiB | {bytes_per_value:.3} | {} | {} | {} |",
            size_text(to),
            seconds_text(child.seconds),
            child.peak_kib as f64 / 1024.0,
            child.largest,
            child.last,
            if agrees { "agrees" } else { "MISMATCH" },
        );
        let time_target = [
            format!("{name} to {} in ≤ 15 min", size_text(to)),
            seconds_text(child.seconds),
            yes_no(child.seconds <= SECONDS_TARGET).to_string(),
        ];
        // The targets are issue 3's for 2^28; smaller runs (`--frontier-log2`) only check.
        let targets = log2_to >= 28;
        report.add(agrees, targets.then_some(time_target));
        let memory_target = [
            format!("{name} to {}: ≤ 2 bytes per value", size_text(to)),
            format!("{bytes_per_value:.3} (peak resident memory / values)"),
            yes_no(bytes_per_value <= BYTES_PER_VALUE_TARGET).to_string(),
        ];
        report.add(true, targets.then_some(memory_target));
    }
    println!();
    report
}
