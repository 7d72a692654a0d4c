//! The command line's progress: a [`ProgressSink`] on standard error. On a terminal a bar,
//! drawn once a run has taken more than a second; otherwise (stderr piped or redirected to a
//! file) a line [`FIRST_LINE_AFTER`] (10 s) into the run and then one every [`LINE_EVERY`]
//! (30 s), with the position reached, the rate and the time left, so that long work is never
//! silent and short runs print nothing. A standard error found closed while a line is written
//! ends the run quietly, as a closed standard output does.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::engine::progress::{human_duration, Counted, Estimate, Event, ProgressSink, Update};
use crate::engine::EngineOptions;

/// How long a run goes before its bar is drawn.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// How often a progress line is printed when stderr is not a terminal (the first one this long
/// after the process started tracking progress).
pub const LINE_EVERY: Duration = Duration::from_secs(30);

/// When the first progress line is printed when stderr is not a terminal (after the process
/// started tracking progress).
pub const FIRST_LINE_AFTER: Duration = Duration::from_secs(10);

/// The progress sink of this process's standard error: one for the whole process, since
/// standard error is one, and since progress lines are due at multiples of
/// [`FIRST_LINE_AFTER`] plus multiples of [`LINE_EVERY`] after the first tracker of the
/// process, so that a computation done in stages (a period search grows its table step by
/// step, each step with its own tracker) prints at the same pace as one in one piece.
pub fn sink() -> Option<Arc<dyn ProgressSink>> {
    Some(stderr().clone())
}

/// Engine options that report progress on standard error.
pub fn options() -> EngineOptions {
    EngineOptions { progress: sink() }
}

/// Whether a progress line found standard error closed.
pub fn stderr_closed() -> bool {
    STDERR
        .get()
        .is_some_and(|sink| sink.closed.load(Ordering::Relaxed))
}

static STDERR: OnceLock<Arc<Stderr>> = OnceLock::new();

fn stderr() -> &'static Arc<Stderr> {
    STDERR.get_or_init(|| {
        let shown = if std::io::stderr().is_terminal() {
            Shown::Bar(None)
        } else {
            Shown::Lines(Lines::default())
        };
        Arc::new(Stderr {
            shown: Mutex::new(shown),
            closed: AtomicBool::new(false),
        })
    })
}

/// Progress on standard error, as a bar or as lines.
struct Stderr {
    shown: Mutex<Shown>,
    /// Standard error was found closed: no more lines are tried.
    closed: AtomicBool,
}

enum Shown {
    /// On a terminal: the bar of the current tracker, once drawn.
    Bar(Option<ProgressBar>),
    /// Not on a terminal: lines.
    Lines(Lines),
}

impl ProgressSink for Stderr {
    fn update(&self, update: &Update) -> bool {
        let line = {
            let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
            match &mut *shown {
                Shown::Bar(bar) => {
                    draw(bar, update);
                    return false;
                }
                Shown::Lines(lines) => lines.line(update),
            }
        };
        let Some(line) = line else {
            return false;
        };
        self.emit(&line);
        true
    }
}

impl Stderr {
    /// Writes a progress line to standard error; never panics on a closed stream. A closed
    /// pipe ends the run quietly (a run with `--checkpoint` first saves at its next chunk).
    fn emit(&self, line: &str) {
        if self.closed.load(Ordering::Relaxed) {
            return;
        }
        if let Err(error) = writeln!(std::io::stderr(), "{line}") {
            self.closed.store(true, Ordering::Relaxed);
            if crate::fs::is_broken_pipe(&error) {
                super::end_quietly();
            }
        }
    }
}

/// The bar for `update`: made once the run has taken [`SHOW_AFTER`], removed at its end.
fn draw(bar: &mut Option<ProgressBar>, update: &Update) {
    match update.event {
        Event::Started => *bar = None,
        Event::Finished => {
            if let Some(bar) = bar.take() {
                bar.finish_and_clear();
            }
        }
        Event::Reached => {
            if bar.is_none() {
                if update.at.duration_since(update.started) < SHOW_AFTER {
                    return;
                }
                let new = ProgressBar::new(update.end.saturating_sub(update.start));
                let template = match update.counted {
                    Counted::Exactly(_) => "{spinner} {msg} [{bar:40}] {percent}% eta {eta}",
                    Counted::AtMost(_) => {
                        "{spinner} {msg} [{bar:40}] {percent}% of the most possible"
                    }
                    Counted::Positions => "{spinner} n = {msg} [{bar:40}] {percent}% eta {eta}",
                };
                new.set_style(
                    ProgressStyle::with_template(template)
                        .expect("static template")
                        .progress_chars("=> "),
                );
                *bar = Some(new);
            }
            if let Some(bar) = bar {
                let position = update.reached;
                bar.set_position(position.saturating_sub(update.start));
                match update.counted {
                    Counted::Exactly(what) => {
                        bar.set_message(format!("{position} of {} {what}", update.end))
                    }
                    Counted::AtMost(what) => bar.set_message(format!("{position} {what}")),
                    Counted::Positions => bar.set_message(position.to_string()),
                }
            }
        }
    }
}

/// The pace of the progress lines.
#[derive(Default)]
struct Lines {
    /// When the first tracker started.
    first: Option<Instant>,
    /// When the next line is due.
    due: Option<Instant>,
}

impl Lines {
    /// The line to print for `update`, if one is due.
    fn line(&mut self, update: &Update) -> Option<String> {
        let now = update.at;
        if update.event == Event::Started {
            // The next due time after the first tracker (10 s, 40 s, 70 s, …) still ahead.
            let first = *self.first.get_or_insert(now);
            let mut due = first + FIRST_LINE_AFTER;
            while due <= now {
                due += LINE_EVERY;
            }
            self.due = Some(due);
            return None;
        }
        let due = self.due.get_or_insert(now + FIRST_LINE_AFTER);
        // Nothing to say once the work is done (the caller prints the result).
        if update.event == Event::Finished || now < *due || update.reached >= update.end {
            return None;
        }
        let (rate, left) = match update.estimate {
            // A tracker that has just started (the next stage of a period search) has no rate
            // of its own yet: wait a few seconds rather than print one from a handful of values.
            Estimate::Measuring { until } => {
                *due = until;
                return None;
            }
            Estimate::Ready {
                per_second,
                seconds_left,
            } => (per_second, seconds_left),
        };
        while *due <= now {
            *due += LINE_EVERY;
        }
        let (position, start, end) = (update.reached, update.start, update.end);
        Some(match update.counted {
            Counted::Positions => match update.stalled {
                // One position is taking long (a rule of several binders at a large heap): the
                // rate of the others says nothing about it.
                Some(stalled) => stalled_line(stalled.position, start, end, stalled.seconds),
                None => progress_line(position, start, end, rate, left),
            },
            Counted::AtMost(what) => counting_line(what, position, end, rate, left, false),
            Counted::Exactly(what) => counting_line(what, position, end, rate, left, true),
        })
    }
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
    let left_text = left_text(left, about, exact);
    let rate_text = if rate >= 10.0 {
        format!("{rate:.0}")
    } else {
        format!("{rate:.1}")
    };
    format!(
        "progress: {count} {what} {of} {at_most} ({percent}%), {rate_text} {what}/s, {left_text}"
    )
}

/// The longest time left a progress line states: an estimate past it (a rate measured over a
/// few values at the start of a run whose cost grows fast, extrapolated to the end) is no
/// figure to plan with (it printed "160200935 h"), so the line says only that it is longer.
pub const TIME_LEFT_SHOWN: f64 = 100.0 * 24.0 * 3600.0;

/// The time left of a progress line: `about 72 s left` (`about` is "about", or "at most about"
/// for an upper bound, `exact` false); past [`TIME_LEFT_SHOWN`] `more than 100 days left` (an
/// upper bound past it tells nothing: `time left unknown`); `time left unknown` for an
/// estimate that is no number; and when nothing moved since the last line, that.
fn left_text(left: Option<f64>, about: &str, exact: bool) -> String {
    match left {
        None => "no progress since the last line".to_string(),
        Some(seconds) if !seconds.is_finite() || seconds < 0.0 => "time left unknown".to_string(),
        Some(seconds) if seconds > TIME_LEFT_SHOWN => {
            if exact {
                "more than 100 days left".to_string()
            } else {
                "time left unknown (its upper bound is past 100 days)".to_string()
            }
        }
        Some(seconds) => format!("{about} {} left", human_duration(seconds)),
    }
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
    let left_text = left_text(left, "about", true);
    format!(
        "progress: n = {} of {} ({percent}%), {rate_text} values/s, {left_text}",
        position.saturating_sub(1),
        end.saturating_sub(1)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::progress::Progress;

    /// The lines a [`Lines`] pace prints, kept instead of written.
    #[derive(Default)]
    struct Printed {
        lines: Mutex<Lines>,
        printed: Mutex<Vec<String>>,
    }

    impl ProgressSink for Printed {
        fn update(&self, update: &Update) -> bool {
            let line = self.lines.lock().unwrap().line(update);
            let shown = line.is_some();
            self.printed.lock().unwrap().extend(line);
            shown
        }
    }

    impl Printed {
        /// The lines printed since the last call.
        fn take(&self) -> Vec<String> {
            std::mem::take(&mut *self.printed.lock().unwrap())
        }

        fn due(&self) -> Instant {
            self.lines.lock().unwrap().due.unwrap()
        }
    }

    fn tracker(sink: &Arc<Printed>, start: u64, end: u64, now: Instant) -> Progress {
        Progress::of(Counted::Positions, start, end, Some(sink.clone()), now)
    }

    #[test]
    fn a_position_that_takes_long_is_named() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let sink = Arc::new(Printed::default());
        let mut progress = tracker(&sink, 0, 301, t0);
        // 299 values in the first 2 s, then heap 300 runs on.
        progress.set_at(300, at(2));
        assert_eq!(sink.take(), Vec::<String>::new());
        progress.set_at(300, at(10));
        assert_eq!(
            sink.take(),
            ["progress: n = 299 of 300 (99%), n = 300 has been running for 8 s"]
        );
        // Values going by again: the rate and the time left.
        let mut progress = tracker(&sink, 301, 401, at(39));
        progress.set_at(310, at(45));
        assert!(sink.take()[0].contains("values/s"));
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
    }

    /// An estimate past 100 days, or no number, is not printed as a figure: it read
    /// "about 160200935 h left".
    #[test]
    fn time_left_past_a_hundred_days_or_unknown_is_said_so() {
        assert_eq!(
            progress_line(47, 0, 100_001, 4.5, Some(5.7672e11)),
            "progress: n = 46 of 100000 (0%), 4.5 values/s, more than 100 days left"
        );
        assert_eq!(
            progress_line(47, 0, 100_001, 4.5, Some(f64::INFINITY)),
            "progress: n = 46 of 100000 (0%), 4.5 values/s, time left unknown"
        );
        assert_eq!(
            progress_line(47, 0, 100_001, 4.5, Some(f64::NAN)),
            "progress: n = 46 of 100000 (0%), 4.5 values/s, time left unknown"
        );
        // 100 days exactly is still a figure: 2400 h.
        assert_eq!(
            progress_line(47, 0, 100_001, 4.5, Some(TIME_LEFT_SHOWN)),
            "progress: n = 46 of 100000 (0%), 4.5 values/s, about 2400 h left"
        );
        assert_eq!(
            counting_line("codes", 312, 1024, 2.13, Some(1e10), true),
            "progress: 312 codes of 1024 (30%), 2.1 codes/s, more than 100 days left"
        );
        assert_eq!(
            counting_line("sums", 227_326, 5_685_413, 0.01, Some(1e10), false),
            "progress: 227326 sums of at most 5685413 (3%), 0.0 sums/s, time left unknown (its upper bound is past 100 days)"
        );
    }

    #[test]
    fn no_line_before_ten_seconds_then_one_per_thirty() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let sink = Arc::new(Printed::default());
        let mut progress = tracker(&sink, 0, 100_001, t0);
        // A run shorter than 10 s prints nothing, however often it reports.
        for s in 0..10 {
            progress.set_at(s * 1000, at(s));
        }
        assert_eq!(sink.take(), Vec::<String>::new());
        progress.set_at(10_000, at(10));
        assert_eq!(
            sink.take(),
            ["progress: n = 9999 of 100000 (9%), 1000 values/s, about 2 min left"]
        );
        // Then one every 30 s.
        progress.set_at(25_000, at(25));
        assert_eq!(sink.take().len(), 0);
        progress.set_at(41_000, at(41));
        assert_eq!(sink.take().len(), 1);
        progress.set_at(60_000, at(60));
        assert_eq!(sink.take().len(), 0);
        progress.set_at(70_000, at(70));
        assert_eq!(sink.take().len(), 1);
        // Nor once the work is done.
        progress.set_at(100_001, at(100));
        assert_eq!(sink.take().len(), 0);
        // A tracker created later in the same process (the next stage of a period search)
        // keeps the pace of the first one.
        let _later = tracker(&sink, 61_000, 200_000, at(75));
        assert_eq!(sink.due(), at(100));
    }

    #[test]
    fn a_tracker_started_just_before_a_line_is_due_measures_a_few_seconds_first() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let sink = Arc::new(Printed::default());
        let _first = tracker(&sink, 0, 65_536, t0);
        // The next stage of a period search starts at 39 s; its first heaps are slow.
        let mut stage = tracker(&sink, 65_536, 131_072, at(39));
        stage.set_at(65_537, at(40));
        assert_eq!(sink.take().len(), 0);
        assert_eq!(sink.due(), at(44));
        stage.set_at(65_536 + 5_000, at(44));
        let line = sink.take().pop().expect("a line once the rate is measured");
        assert!(line.contains(", 1000 values/s,"), "{line}");
        // The lines that follow keep the thirty-second pace.
        assert_eq!(sink.due(), at(74));
    }
}
