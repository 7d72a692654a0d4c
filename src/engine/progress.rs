//! Progress of long runs on stderr: on a terminal a bar, drawn once a run has taken more than a
//! second; otherwise (stderr piped or redirected to a file) a line [`FIRST_LINE_AFTER`] (10 s)
//! into the run and then one every [`LINE_EVERY`] (30 s), with the position reached, the rate
//! and the time left, so that long work is never silent and short runs print nothing.

use std::io::IsTerminal;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

const SHOW_AFTER: Duration = Duration::from_secs(1);

/// How often a progress line is printed when stderr is not a terminal (the first one this long
/// after the process started tracking progress).
pub const LINE_EVERY: Duration = Duration::from_secs(30);

/// When the first progress line is printed when stderr is not a terminal (after the process
/// started tracking progress).
pub const FIRST_LINE_AFTER: Duration = Duration::from_secs(10);

/// When the first tracker of this process was created: progress lines are due at multiples of
/// [`FIRST_LINE_AFTER`] plus multiples of [`LINE_EVERY`] after it, so a computation done in stages (a period search grows its table
/// step by step, each step with its own tracker) prints at the same pace as one in one piece.
static FIRST_TRACKER: OnceLock<Instant> = OnceLock::new();

/// Progress of a table computation from `start` to `end` positions.
pub struct Progress {
    started: Instant,
    start: u64,
    end: u64,
    mode: Mode,
    /// Calls of [`Progress::tick`] left before it next looks at the clock.
    countdown: u32,
    /// How many calls apart [`Progress::tick`] looks at the clock, and when it last did.
    stride: u32,
    checked: Instant,
    /// For [`Progress::counting`] and [`Progress::items`]: what is counted (`sums`, `codes`).
    counting: Option<&'static str>,
    /// For [`Progress::items`]: `end` is the exact count, not an upper bound.
    exact: bool,
}

/// The shortest time a tracker measures its rate over before its first line.
const MEASURE_AT_LEAST: Duration = Duration::from_secs(5);

/// How often [`Progress::tick`] aims to look at the clock.
const TICK_EVERY: Duration = Duration::from_millis(100);

enum Mode {
    Hidden,
    /// On a terminal: the bar, once drawn.
    Bar(Option<ProgressBar>),
    /// Not on a terminal: lines on stderr.
    Lines(Lines),
}

/// The state of the progress lines.
struct Lines {
    /// When the next line is due.
    due: Instant,
    /// The position and time of the last line (or of the start), for the current rate.
    last: (u64, Instant),
    /// The rate (values per second) at the middle of the interval before the last line, with
    /// that middle position: with the current rate, how fast the rate falls as `n` grows.
    previous_rate: Option<(f64, f64)>,
    /// The position being computed and since when.
    moved: (u64, Instant),
}

impl Progress {
    /// A progress tracker for computing positions `start..end`; `enabled` false makes it a no-op.
    pub fn new(start: u64, end: u64, enabled: bool) -> Self {
        let now = Instant::now();
        let mode = if !enabled {
            Mode::Hidden
        } else if std::io::stderr().is_terminal() {
            Mode::Bar(None)
        } else {
            let first = *FIRST_TRACKER.get_or_init(|| now);
            Mode::Lines(Lines::new(first, start, now))
        };
        Progress {
            started: now,
            start,
            end,
            mode,
            countdown: 1,
            stride: 1,
            checked: now,
            counting: None,
            exact: false,
        }
    }

    /// A tracker of a count of things (`what`, e.g. `sums`) that reaches at most `at_most`
    /// (an upper bound, so the time left is one too): lines read `progress: 227326 sums of at
    /// most 5685413 (3%), 22536 sums/s, at most about 4 min left`.
    pub fn counting(what: &'static str, at_most: u64, enabled: bool) -> Self {
        let mut progress = Progress::new(0, at_most, enabled);
        progress.counting = Some(what);
        progress
    }

    /// A tracker of `total` things (`what`, e.g. `codes`) done one by one: a bar with the
    /// count and the time left, or lines `progress: 312 of 1024 codes (30%), 2.1 codes/s, about
    /// 5 min left`.
    pub fn items(what: &'static str, total: u64, enabled: bool) -> Self {
        let mut progress = Progress::counting(what, total, enabled);
        progress.exact = true;
        progress
    }

    /// [`Progress::set`] for kernels that finish positions one at a time at any speed: call it
    /// after every position. It looks at the clock only every so many calls, as many as take
    /// about a tenth of a second at the speed seen so far, so it costs a decrement for fast
    /// kernels and still reports often for slow ones (a heap of a cubic kernel can take
    /// seconds).
    #[inline]
    pub fn tick(&mut self, position: u64) {
        if matches!(self.mode, Mode::Hidden) {
            return;
        }
        self.countdown -= 1;
        if self.countdown == 0 {
            self.tick_slow(position);
        }
    }

    fn tick_slow(&mut self, position: u64) {
        let now = Instant::now();
        let took = now.duration_since(self.checked);
        self.checked = now;
        // Double the stride while checks come faster than TICK_EVERY, halve it otherwise.
        if took < TICK_EVERY / 2 {
            self.stride = self.stride.saturating_mul(2).min(1 << 20);
        } else if took > TICK_EVERY * 2 {
            self.stride = (self.stride / 2).max(1);
        }
        self.countdown = self.stride;
        self.set(position);
    }

    /// A tracker that never draws (for tests and library callers).
    pub fn hidden() -> Self {
        Progress::new(0, 0, false)
    }

    /// Reports that positions below `position` are done. Cheap enough to call every few
    /// thousand positions.
    pub fn set(&mut self, position: u64) {
        match &mut self.mode {
            Mode::Hidden => {}
            Mode::Bar(bar) => {
                if bar.is_none() {
                    if self.started.elapsed() < SHOW_AFTER {
                        return;
                    }
                    let new = ProgressBar::new(self.end.saturating_sub(self.start));
                    let template = if self.exact {
                        "{spinner} {msg} [{bar:40}] {percent}% eta {eta}"
                    } else if self.counting.is_some() {
                        "{spinner} {msg} [{bar:40}] {percent}% of the most possible"
                    } else {
                        "{spinner} n = {msg} [{bar:40}] {percent}% eta {eta}"
                    };
                    new.set_style(
                        ProgressStyle::with_template(template)
                            .expect("static template")
                            .progress_chars("=> "),
                    );
                    *bar = Some(new);
                }
                if let Some(bar) = bar {
                    bar.set_position(position.saturating_sub(self.start));
                    match self.counting {
                        Some(what) if self.exact => {
                            bar.set_message(format!("{position} of {} {what}", self.end))
                        }
                        Some(what) => bar.set_message(format!("{position} {what}")),
                        None => bar.set_message(position.to_string()),
                    }
                }
            }
            Mode::Lines(lines) => {
                let now = Instant::now();
                let line = match self.counting {
                    Some(what) => lines.due(now, position, self.end).map(|(rate, left)| {
                        // Things of very different costs (the codes of a census): the rate
                        // since the start predicts better than the last interval's.
                        let (rate, left) = if self.exact {
                            let seconds = self.started.elapsed().as_secs_f64().max(1e-9);
                            let rate = position as f64 / seconds;
                            let left = (rate > 0.0)
                                .then(|| self.end.saturating_sub(position) as f64 / rate);
                            (rate, left)
                        } else {
                            (rate, left)
                        };
                        counting_line(what, position, self.end, rate, left, self.exact)
                    }),
                    None => lines.due_line(now, position, self.start, self.end),
                };
                if let Some(line) = line {
                    emit(&line);
                }
            }
        }
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if let Mode::Bar(bar) = &mut self.mode {
            if let Some(bar) = bar.take() {
                bar.finish_and_clear();
            }
        }
    }
}

impl Lines {
    /// The line to print at `now` with positions below `position` done, if one is due.
    fn due_line(&mut self, now: Instant, position: u64, start: u64, end: u64) -> Option<String> {
        if position != self.moved.0 {
            self.moved = (position, now);
        }
        let stalled = now.duration_since(self.moved.1);
        let (rate, left) = self.due(now, position, end)?;
        if stalled >= MEASURE_AT_LEAST {
            // One position is taking long (a rule of several binders at a large heap): the
            // rate of the others says nothing about it.
            return Some(stalled_line(position, start, end, stalled.as_secs_f64()));
        }
        Some(progress_line(position, start, end, rate, left))
    }

    fn new(first_tracker: Instant, start: u64, now: Instant) -> Self {
        // The next due time after the first tracker (10 s, 40 s, 70 s, …) that is still ahead.
        let mut due = first_tracker + FIRST_LINE_AFTER;
        while due <= now {
            due += LINE_EVERY;
        }
        Lines {
            due,
            last: (start, now),
            previous_rate: None,
            moved: (start, now),
        }
    }

    /// The rate and the time left to print at `now` with positions below `position` done, if
    /// a line is due.
    fn due(&mut self, now: Instant, position: u64, end: u64) -> Option<(f64, Option<f64>)> {
        // Nothing to say once the work is done (the caller prints the result).
        if now < self.due || position >= end {
            return None;
        }
        // A tracker that has just started (the next stage of a period search) has no rate of
        // its own yet: wait a few seconds rather than print one from a handful of values.
        let (last_position, last_time) = self.last;
        if now.duration_since(last_time) < MEASURE_AT_LEAST && self.previous_rate.is_none() {
            self.due = last_time + MEASURE_AT_LEAST;
            return None;
        }
        while self.due <= now {
            self.due += LINE_EVERY;
        }
        let seconds = now.duration_since(last_time).as_secs_f64().max(1e-9);
        let rate = position.saturating_sub(last_position) as f64 / seconds;
        let middle = (position + last_position) as f64 / 2.0;
        let left = seconds_left(position, end, rate, middle, self.previous_rate);
        self.previous_rate = Some((rate, middle));
        self.last = (position, now);
        Some((rate, left))
    }
}

/// Seconds to reach `end` from `position` at `rate` values per second (measured around
/// `middle`), `None` when nothing moved. When the rate measured before (`previous`, around
/// an earlier position) was higher, the cost per value grows with `n` (like `n^e`, as in the
/// quadratic and cubic kernels), and the time left is extrapolated along that curve rather
/// than at the current rate; `e` is capped at 2.
fn seconds_left(
    position: u64,
    end: u64,
    rate: f64,
    middle: f64,
    previous: Option<(f64, f64)>,
) -> Option<f64> {
    if rate <= 0.0 || !rate.is_finite() {
        return None;
    }
    let (from, to) = (position as f64, end.max(position) as f64);
    let growth = match previous {
        Some((earlier, at)) if earlier > rate && at > 0.0 && middle > at => {
            ((earlier / rate).ln() / (middle / at).ln()).clamp(0.0, 2.0)
        }
        _ => 0.0,
    };
    if growth < 0.05 || middle <= 0.0 {
        return Some((to - from) / rate);
    }
    // ∫ dn / rate(n) with rate(n) = rate · (middle / n)^growth.
    let e1 = growth + 1.0;
    Some((to.powf(e1) - from.powf(e1)) / (e1 * rate * middle.powf(growth)))
}

/// `progress: 227326 sums of at most 5685413 (3%), 22536 sums/s, at most about 4 min left`.
fn counting_line(
    what: &str,
    count: u64,
    at_most: u64,
    rate: f64,
    left: Option<f64>,
    exact: bool,
) -> String {
    let percent = 100 * count.min(at_most) / at_most.max(1);
    let (of, about) = if exact {
        ("of", "about")
    } else {
        ("of at most", "at most about")
    };
    let left_text = match left {
        Some(seconds) => format!("{about} {} left", human_duration(seconds)),
        None => "no progress since the last line".to_string(),
    };
    let rate_text = if rate >= 10.0 {
        format!("{rate:.0}")
    } else {
        format!("{rate:.1}")
    };
    format!(
        "progress: {count} {what} {of} {at_most} ({percent}%), {rate_text} {what}/s, {left_text}"
    )
}

/// `progress: n = 299 of 300 (99%), n = 300 has been running for 14 s` when position
/// `position` has been computed for `seconds`.
fn stalled_line(position: u64, start: u64, end: u64, seconds: f64) -> String {
    let span = end.saturating_sub(start).max(1);
    let percent = 100 * position.saturating_sub(start).min(span) / span;
    format!(
        "progress: n = {} of {} ({percent}%), n = {position} has been running for {}",
        position.saturating_sub(1),
        end.saturating_sub(1),
        human_duration(seconds)
    )
}

/// `progress: n = 1234567 of 4194304 (29%), 41000 values/s, about 72 s left` when positions
/// below `position` of `start..end` are done: the last one done, of the last one asked for.
fn progress_line(position: u64, start: u64, end: u64, rate: f64, left: Option<f64>) -> String {
    let span = end.saturating_sub(start).max(1);
    let percent = 100 * position.saturating_sub(start).min(span) / span;
    let rate_text = if rate >= 10.0 {
        format!("{rate:.0}")
    } else {
        format!("{rate:.1}")
    };
    let left_text = match left {
        Some(seconds) => format!("about {} left", human_duration(seconds)),
        None => "no progress since the last line".to_string(),
    };
    format!(
        "progress: n = {} of {} ({percent}%), {rate_text} values/s, {left_text}",
        position.saturating_sub(1),
        end.saturating_sub(1)
    )
}

/// `72 s`, `14 min`, `3 h 20 min`: rounded to what a person plans with.
pub fn human_duration(seconds: f64) -> String {
    let seconds = seconds.max(0.0);
    if seconds < 90.0 {
        format!("{} s", seconds.round() as u64)
    } else if seconds < 90.0 * 60.0 {
        format!("{} min", (seconds / 60.0).round() as u64)
    } else {
        let minutes = (seconds / 60.0).round() as u64;
        match minutes % 60 {
            0 => format!("{} h", minutes / 60),
            m => format!("{} h {m} min", minutes / 60),
        }
    }
}

/// Set once by the command line: what to do when standard error is closed while a progress
/// line is written (`2> >(head -c 1)`). Without it the lines just stop and the run goes on.
static ON_CLOSED_STDERR: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Standard error was found closed: no more lines are tried.
static STDERR_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Registers `handler`, called (once) when a progress line finds standard error closed; the
/// command line ends the run there, quietly, as it does when standard output is closed.
pub fn on_closed_stderr(handler: fn()) {
    let _ = ON_CLOSED_STDERR.set(handler);
}

/// Whether a progress line found standard error closed.
pub fn stderr_closed() -> bool {
    STDERR_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Writes a progress line to standard error; never panics on a closed stream.
fn emit(line: &str) {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    if STDERR_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    if let Err(error) = writeln!(std::io::stderr(), "{line}") {
        STDERR_CLOSED.store(true, Ordering::Relaxed);
        if crate::fs::is_broken_pipe(&error) {
            if let Some(handler) = ON_CLOSED_STDERR.get() {
                handler();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_that_takes_long_is_named() {
        let start = Instant::now();
        let mut lines = Lines::new(start, 0, start);
        // 299 values in the first 2 s, then heap 300 runs on.
        assert_eq!(
            lines.due_line(start + Duration::from_secs(2), 300, 0, 301),
            None
        );
        assert_eq!(
            lines.due_line(start + Duration::from_secs(10), 300, 0, 301),
            Some("progress: n = 299 of 300 (99%), n = 300 has been running for 8 s".into())
        );
        // Values going by again: the rate and the time left.
        let line = lines.due_line(start + Duration::from_secs(40), 301, 0, 401);
        assert!(line.unwrap().contains("values/s"));
    }

    #[test]
    fn counting_lines_say_at_most() {
        assert_eq!(
            counting_line("sums", 227_326, 5_685_413, 22_536.4, Some(240.0), false),
            "progress: 227326 sums of at most 5685413 (3%), 22536 sums/s, at most about 4 min left"
        );
    }

    #[test]
    fn item_lines_say_of() {
        assert_eq!(
            counting_line("codes", 312, 1024, 2.13, Some(300.0), true),
            "progress: 312 codes of 1024 (30%), 2.1 codes/s, about 5 min left"
        );
    }

    #[test]
    fn progress_line_shows_position_rate_and_time_left() {
        assert_eq!(
            progress_line(1_234_568, 0, 4_194_305, 41_000.0, Some(72.2)),
            "progress: n = 1234567 of 4194304 (29%), 41000 values/s, about 72 s left"
        );
        assert_eq!(
            progress_line(31, 10, 111, 2.5, Some(4000.0)),
            "progress: n = 30 of 110 (20%), 2.5 values/s, about 67 min left"
        );
        assert_eq!(
            progress_line(31, 0, 100, 0.0, None),
            "progress: n = 30 of 99 (31%), 0.0 values/s, no progress since the last line"
        );
        assert_eq!(
            stalled_line(301, 0, 301, 14.2),
            "progress: n = 300 of 300 (100%), n = 301 has been running for 14 s"
        );
        assert_eq!(human_duration(7300.0), "2 h 2 min");
        assert_eq!(human_duration(7200.0), "2 h");
    }

    #[test]
    fn time_left_follows_a_rate_that_falls_with_n() {
        // Constant rate: the rest at that rate.
        assert_eq!(seconds_left(100, 1100, 10.0, 50.0, None), Some(100.0));
        assert_eq!(
            seconds_left(100, 1100, 10.0, 50.0, Some((10.0, 25.0))),
            Some(100.0)
        );
        // The rate halved while n doubled: cost per value ∝ n, so going from n = 100 to 200
        // takes 1.5 times as long as at the current rate (∫ n dn / (10 · 100) = 15 s).
        let left = seconds_left(100, 200, 10.0, 100.0, Some((20.0, 50.0))).unwrap();
        assert!((left - 15.0).abs() < 1e-9, "{left}");
        assert_eq!(seconds_left(100, 200, 0.0, 100.0, None), None);
    }

    #[test]
    fn ticks_look_at_the_clock_less_often_when_positions_are_fast() {
        let now = Instant::now();
        let mut progress = Progress::new(0, 1 << 20, false);
        progress.mode = Mode::Lines(Lines::new(now, 0, now));
        for n in 0..100_000 {
            progress.tick(n);
        }
        // 100000 calls in well under a second: the clock was read a few dozen times at most.
        assert!(progress.stride >= 1024, "{}", progress.stride);
    }

    #[test]
    fn no_line_before_ten_seconds_then_one_per_thirty() {
        let t0 = Instant::now();
        let mut lines = Lines::new(t0, 0, t0);
        let at = |s: u64| t0 + Duration::from_secs(s);
        // A run shorter than 10 s prints nothing, however often it reports.
        for s in 0..10 {
            assert_eq!(lines.due_line(at(s), s * 1000, 0, 100_000), None);
        }
        let line = lines
            .due_line(at(10), 10_000, 0, 100_001)
            .expect("a line at 10 s");
        assert_eq!(
            line,
            "progress: n = 9999 of 100000 (9%), 1000 values/s, about 2 min left"
        );
        // Then one every 30 s.
        assert_eq!(lines.due_line(at(25), 25_000, 0, 100_001), None);
        assert!(lines.due_line(at(41), 41_000, 0, 100_001).is_some());
        assert_eq!(lines.due_line(at(60), 60_000, 0, 100_001), None);
        assert!(lines.due_line(at(70), 70_000, 0, 100_001).is_some());
        // Nor once the work is done.
        assert_eq!(lines.due_line(at(100), 100_001, 0, 100_001), None);
        // A tracker created later in the same process (the next stage of a period search)
        // keeps the pace of the first one.
        let later = Lines::new(t0, 61_000, at(75));
        assert_eq!(later.due, at(100));
    }

    #[test]
    fn a_tracker_started_just_before_a_line_is_due_measures_a_few_seconds_first() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        // The next stage of a period search starts at 39 s; its first heaps are slow.
        let mut stage = Lines::new(t0, 65_536, at(39));
        assert_eq!(stage.due_line(at(40), 65_537, 65_536, 131_072), None);
        assert_eq!(stage.due, at(44));
        let line = stage
            .due_line(at(44), 65_536 + 5_000, 65_536, 131_072)
            .expect("a line once the rate is measured");
        assert!(line.contains(", 1000 values/s,"), "{line}");
        // The lines that follow keep the thirty-second pace.
        assert!(stage.due > at(44));
    }
}
