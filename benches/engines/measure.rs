//! Timing and the text of the tables, shared by every section of the benchmark.

use std::time::Instant;

/// Wall-clock seconds of one or more runs.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub runs: usize,
}

/// Runs `run` `reps` times, or once when the first run takes `repeat_below` seconds or more,
/// and returns the timing and the last run's result.
pub fn time_runs<T>(reps: usize, repeat_below: f64, mut run: impl FnMut() -> T) -> (Timing, T) {
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

/// `2^22`, `10^6`, or the number.
pub fn size_text(n: u64) -> String {
    if n >= 1024 && n.is_power_of_two() {
        format!("2^{}", n.trailing_zeros())
    } else if n >= 1000 && 10u64.pow(n.ilog10()) == n {
        format!("10^{}", n.ilog10())
    } else {
        n.to_string()
    }
}

/// `0.123 s`, `12.34 s`, `123 s`, then hours, days and years (for estimates).
pub fn seconds_text(t: f64) -> String {
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

/// The median and the spread `[min..max]`, or `(1 run)`.
pub fn timing_text(timing: &Timing) -> String {
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
pub fn ratio_text(ratio: f64) -> String {
    if ratio < 10.0 {
        format!("{ratio:.2}×")
    } else {
        format!("{ratio:.0}×")
    }
}

/// Whether a target was met, a miss in bold.
pub fn yes_no(met: bool) -> &'static str {
    if met {
        "yes"
    } else {
        "**no**"
    }
}
