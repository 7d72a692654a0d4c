//! A progress bar on stderr for long runs: drawn only on a terminal, and only once a run has
//! taken more than a second, so short runs and pipelines stay quiet.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Progress of a table computation from `start` to `end` positions.
pub struct Progress {
    enabled: bool,
    started: Instant,
    start: u64,
    end: u64,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A progress tracker for computing positions `start..end`; `enabled` false makes it a no-op.
    pub fn new(start: u64, end: u64, enabled: bool) -> Self {
        Progress {
            enabled: enabled && std::io::stderr().is_terminal(),
            started: Instant::now(),
            start,
            end,
            bar: None,
        }
    }

    /// A tracker that never draws (for tests and library callers).
    pub fn hidden() -> Self {
        Progress::new(0, 0, false)
    }

    /// Reports that positions below `position` are done. Cheap enough to call every few
    /// thousand positions.
    pub fn set(&mut self, position: u64) {
        if !self.enabled {
            return;
        }
        if self.bar.is_none() {
            if self.started.elapsed() < SHOW_AFTER {
                return;
            }
            let bar = ProgressBar::new(self.end.saturating_sub(self.start));
            bar.set_style(
                ProgressStyle::with_template("{spinner} n = {msg} [{bar:40}] {percent}% eta {eta}")
                    .expect("static template")
                    .progress_chars("=> "),
            );
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(position.saturating_sub(self.start));
            bar.set_message(position.to_string());
        }
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
