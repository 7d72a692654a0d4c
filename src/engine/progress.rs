//! Progress of long runs, measured by the library and reported to a sink the caller passes.
//!
//! A kernel holds a [`Progress`] tracker and tells it how far it got ([`Progress::set`],
//! [`Progress::tick`]); the tracker reads the clock about ten times a second, measures the
//! rate and the time left, notices a position that has been running for seconds, and hands
//! each measurement to the caller's [`ProgressSink`] as a typed [`Update`]. The library never
//! writes to the terminal: how updates are shown (a bar, a line every so often, a Python
//! callback) is the sink's business — the command line's is `cli/progress.rs`.
//!
//! A sink is passed per request, as `Option<Arc<dyn ProgressSink>>` (in
//! [`crate::engine::EngineOptions::progress`] and the like): per request rather than a
//! process global, so that two requests of one process (a Python session) report to their own
//! callbacks; an [`Arc`] rather than a borrow, because trackers live inside long-lived
//! searches (a misère sum search, a reachable search, a census's shared counter across
//! threads) and a binding's callback object must be owned; `None` costs one branch per call.

use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where progress goes: the caller's side of a [`Progress`] tracker.
pub trait ProgressSink: Send + Sync {
    /// Takes one update: when a tracker starts, about ten times a second while it runs, and
    /// when it ends. Returns whether the update was shown to someone as a report (a line
    /// printed, a callback that logged it): the next updates' rate is then measured from this
    /// one. A sink that draws every update (a bar) may return `false` throughout: the rate is
    /// then measured from the start.
    fn update(&self, update: &Update) -> bool;
}

/// What a tracker counts, and how its end bounds the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Positions of a table, `start..end`: `reached` means the positions below it are done.
    Positions,
    /// Things (`sums`, `positions`, `rounds`) of which `end` is an upper bound, not the count.
    AtMost(&'static str),
    /// Things (`codes`) of which `end` is the exact count.
    Exactly(&'static str),
}

/// Where a tracker is in its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The tracker was just made: nothing is done yet.
    Started,
    /// The run reached [`Update::reached`].
    Reached,
    /// The run ended (or stopped): the tracker reports nothing more.
    Finished,
}

/// The rate and time left of an [`Update`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Estimate {
    /// Not yet measured long enough: a tracker that has just started (the next stage of a
    /// period search) gives no rate from a handful of values; one is ready at `until`.
    Measuring {
        /// When the estimate will be ready.
        until: Instant,
    },
    /// Measured since the last update the sink showed (or since the start).
    Ready {
        /// Things (or positions) done per second: over the last interval, or since the start
        /// for [`Counted::Exactly`] (things of very different costs, like the codes of a
        /// census, where the rate since the start predicts better).
        per_second: f64,
        /// Seconds to reach the end, `None` when nothing moved. For positions of a table
        /// whose cost per value grows with `n`, extrapolated along that growth.
        seconds_left: Option<f64>,
    },
}

/// A position that has been running for long: the rate of the others says nothing about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stalled {
    /// The position being computed (`reached`: the ones below it are done).
    pub position: u64,
    /// For how long, in seconds (at least [`STALLED_AFTER`]).
    pub seconds: f64,
}

/// One measurement of a run, handed to a [`ProgressSink`].
#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    /// Started, running or finished.
    pub event: Event,
    /// What is counted.
    pub counted: Counted,
    /// The first position of the run (0 for counts).
    pub start: u64,
    /// How far the run got: positions below it done, or the count reached.
    pub reached: u64,
    /// The end: positions `start..end`, or the bound or exact number of things.
    pub end: u64,
    /// When the tracker started.
    pub started: Instant,
    /// When this update was measured.
    pub at: Instant,
    /// The rate and the time left.
    pub estimate: Estimate,
    /// The position running for [`STALLED_AFTER`] or more, if any.
    pub stalled: Option<Stalled>,
}

/// The shortest time a tracker measures its rate over before its first estimate.
pub const MEASURE_AT_LEAST: Duration = Duration::from_secs(5);

/// How long one position runs before an update names it ([`Update::stalled`]).
pub const STALLED_AFTER: Duration = Duration::from_secs(5);

/// How often [`Progress::tick`] aims to look at the clock.
const TICK_EVERY: Duration = Duration::from_millis(100);

/// Progress of a run from `start` to `end` positions (or of a count up to `end`), reported to
/// a sink.
pub struct Progress {
    sink: Option<Arc<dyn ProgressSink>>,
    started: Instant,
    start: u64,
    end: u64,
    counted: Counted,
    /// Calls of [`Progress::tick`] left before it next looks at the clock.
    countdown: u32,
    /// How many calls apart [`Progress::tick`] looks at the clock, and when it last did.
    stride: u32,
    checked: Instant,
    rate: Rate,
}

/// The measurement of the rate between the updates the sink showed.
struct Rate {
    /// The position and time of the last shown update (or of the start).
    last: (u64, Instant),
    /// The rate (values per second) at the middle of the interval before the last shown
    /// update, with that middle position: with the current rate, how fast the rate falls as
    /// `n` grows.
    previous: Option<(f64, f64)>,
    /// The position being computed and since when.
    moved: (u64, Instant),
}

impl Progress {
    /// A tracker of positions `start..end` of a table, reporting to `sink` (none: a no-op).
    pub fn new(start: u64, end: u64, sink: Option<Arc<dyn ProgressSink>>) -> Self {
        Progress::of(Counted::Positions, start, end, sink, Instant::now())
    }

    /// A tracker of a count of things (`what`, e.g. `sums`) that reaches at most `at_most`
    /// (an upper bound, so the time left is one too).
    pub fn counting(what: &'static str, at_most: u64, sink: Option<Arc<dyn ProgressSink>>) -> Self {
        Progress::of(Counted::AtMost(what), 0, at_most, sink, Instant::now())
    }

    /// A tracker of `total` things (`what`, e.g. `codes`) done one by one.
    pub fn items(what: &'static str, total: u64, sink: Option<Arc<dyn ProgressSink>>) -> Self {
        Progress::of(Counted::Exactly(what), 0, total, sink, Instant::now())
    }

    /// A tracker that reports nothing (for tests and library callers).
    pub fn hidden() -> Self {
        Progress::new(0, 0, None)
    }

    /// A tracker of `counted` from `start` to `end` started at `now`: for callers that keep
    /// their own clock (tests, replays) with [`Progress::set_at`].
    pub fn of(
        counted: Counted,
        start: u64,
        end: u64,
        sink: Option<Arc<dyn ProgressSink>>,
        now: Instant,
    ) -> Self {
        let progress = Progress {
            sink,
            started: now,
            start,
            end,
            counted,
            countdown: 1,
            stride: 1,
            checked: now,
            rate: Rate {
                last: (start, now),
                previous: None,
                moved: (start, now),
            },
        };
        if let Some(sink) = &progress.sink {
            sink.update(&progress.update(Event::Started, start, now));
        }
        progress
    }

    /// [`Progress::set`] for kernels that finish positions one at a time at any speed: call it
    /// after every position. It looks at the clock only every so many calls, as many as take
    /// about a tenth of a second at the speed seen so far, so it costs a decrement for fast
    /// kernels and still reports often for slow ones (a heap of a cubic kernel can take
    /// seconds).
    #[inline]
    pub fn tick(&mut self, position: u64) {
        if self.sink.is_none() {
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

    /// Reports that positions below `position` are done (or that the count reached
    /// `position`). Cheap enough to call every few thousand positions.
    pub fn set(&mut self, position: u64) {
        if self.sink.is_some() {
            self.set_at(position, Instant::now());
        }
    }

    /// [`Progress::set`] measured at `now` (a time not before the last one given).
    pub fn set_at(&mut self, position: u64, now: Instant) {
        let Some(sink) = self.sink.clone() else {
            return;
        };
        if position != self.rate.moved.0 {
            self.rate.moved = (position, now);
        }
        let update = self.update(Event::Reached, position, now);
        if sink.update(&update) {
            // The sink showed it: the next rate is measured from here.
            let (last_position, last_time) = self.rate.last;
            let seconds = now.duration_since(last_time).as_secs_f64().max(1e-9);
            let rate = position.saturating_sub(last_position) as f64 / seconds;
            self.rate.previous = Some((rate, (position + last_position) as f64 / 2.0));
            self.rate.last = (position, now);
        }
    }

    /// Ends the run: the sink hears [`Event::Finished`] (a bar is removed).
    pub fn finish(&mut self) {
        if let Some(sink) = self.sink.take() {
            let now = Instant::now();
            let position = self.rate.moved.0;
            sink.update(&self.update(Event::Finished, position, now));
        }
    }

    /// The update of `event` at `now` with `position` reached.
    fn update(&self, event: Event, position: u64, now: Instant) -> Update {
        let stalled = now.duration_since(self.rate.moved.1);
        Update {
            event,
            counted: self.counted,
            start: self.start,
            reached: position,
            end: self.end,
            started: self.started,
            at: now,
            estimate: self.estimate(position, now),
            stalled: (event == Event::Reached && stalled >= STALLED_AFTER).then_some(Stalled {
                position,
                seconds: stalled.as_secs_f64(),
            }),
        }
    }

    /// The rate and the time left at `now` with `position` reached.
    fn estimate(&self, position: u64, now: Instant) -> Estimate {
        let (last_position, last_time) = self.rate.last;
        if now.duration_since(last_time) < MEASURE_AT_LEAST && self.rate.previous.is_none() {
            return Estimate::Measuring {
                until: last_time + MEASURE_AT_LEAST,
            };
        }
        if let Counted::Exactly(_) = self.counted {
            let seconds = now.duration_since(self.started).as_secs_f64().max(1e-9);
            let per_second = position as f64 / seconds;
            let seconds_left =
                (per_second > 0.0).then(|| self.end.saturating_sub(position) as f64 / per_second);
            return Estimate::Ready {
                per_second,
                seconds_left,
            };
        }
        let seconds = now.duration_since(last_time).as_secs_f64().max(1e-9);
        let per_second = position.saturating_sub(last_position) as f64 / seconds;
        let middle = (position + last_position) as f64 / 2.0;
        Estimate::Ready {
            per_second,
            seconds_left: seconds_left(position, self.end, per_second, middle, self.rate.previous),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Keeps every update; shows one when `show` says so.
    struct Kept {
        updates: Mutex<Vec<Update>>,
        show: fn(&Update) -> bool,
    }

    fn kept(show: fn(&Update) -> bool) -> Arc<Kept> {
        Arc::new(Kept {
            updates: Mutex::new(Vec::new()),
            show,
        })
    }

    impl ProgressSink for Kept {
        fn update(&self, update: &Update) -> bool {
            self.updates.lock().unwrap().push(update.clone());
            (self.show)(update)
        }
    }

    impl Kept {
        fn last(&self) -> Update {
            self.updates.lock().unwrap().last().unwrap().clone()
        }
    }

    #[test]
    fn a_run_is_started_reached_and_finished() {
        let sink = kept(|_| false);
        let t0 = Instant::now();
        let mut progress = Progress::of(Counted::Positions, 10, 20, Some(sink.clone()), t0);
        assert_eq!(sink.last().event, Event::Started);
        progress.set_at(15, t0 + Duration::from_secs(1));
        let update = sink.last();
        assert_eq!(
            (update.event, update.reached, update.start, update.end),
            (Event::Reached, 15, 10, 20)
        );
        assert_eq!(
            update.estimate,
            Estimate::Measuring {
                until: t0 + MEASURE_AT_LEAST
            }
        );
        progress.finish();
        assert_eq!(sink.last().event, Event::Finished);
        // Finished once: nothing more reaches the sink.
        progress.set(17);
        assert_eq!(sink.updates.lock().unwrap().len(), 3);
    }

    #[test]
    fn the_rate_is_measured_from_the_last_update_shown() {
        let sink = kept(|u| u.reached == 10_000);
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut progress = Progress::of(Counted::Positions, 0, 100_001, Some(sink.clone()), t0);
        progress.set_at(10_000, at(10));
        assert_eq!(
            sink.last().estimate,
            Estimate::Ready {
                per_second: 1000.0,
                seconds_left: Some(90.001)
            }
        );
        // Shown: 2000 more in 1 s is 2000/s, not 12000 in 11 s.
        progress.set_at(12_000, at(11));
        let Estimate::Ready { per_second, .. } = sink.last().estimate else {
            panic!("{:?}", sink.last());
        };
        assert_eq!(per_second, 2000.0);
    }

    #[test]
    fn a_position_running_long_is_named() {
        let sink = kept(|_| false);
        let t0 = Instant::now();
        let mut progress = Progress::of(Counted::Positions, 0, 301, Some(sink.clone()), t0);
        progress.set_at(300, t0 + Duration::from_secs(2));
        assert_eq!(sink.last().stalled, None);
        progress.set_at(300, t0 + Duration::from_secs(10));
        assert_eq!(
            sink.last().stalled,
            Some(Stalled {
                position: 300,
                seconds: 8.0
            })
        );
    }

    #[test]
    fn exact_counts_are_rated_since_the_start() {
        let sink = kept(|_| true);
        let t0 = Instant::now();
        let mut progress = Progress::of(Counted::Exactly("codes"), 0, 100, Some(sink.clone()), t0);
        progress.set_at(10, t0 + Duration::from_secs(10));
        progress.set_at(11, t0 + Duration::from_secs(20));
        assert_eq!(
            sink.last().estimate,
            Estimate::Ready {
                per_second: 0.55,
                seconds_left: Some(89.0 / 0.55)
            }
        );
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
        let mut progress = Progress::new(0, 1 << 20, Some(kept(|_| false)));
        for n in 0..100_000 {
            progress.tick(n);
        }
        // 100000 calls in well under a second: the clock was read a few dozen times at most.
        assert!(progress.stride >= 1024, "{}", progress.stride);
    }

    #[test]
    fn durations_are_rounded_for_people() {
        assert_eq!(human_duration(72.2), "72 s");
        assert_eq!(human_duration(4000.0), "67 min");
        assert_eq!(human_duration(7300.0), "2 h 2 min");
        assert_eq!(human_duration(7200.0), "2 h");
    }
}
