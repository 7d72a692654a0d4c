//! Patterns in a computed table: preperiod, period and saltus, with proofs where a theorem allows.

pub mod period;
pub mod proof;

use serde::Serialize;

/// `G(n + period) = G(n) + saltus` for every `n ≥ preperiod` (in the range checked).
/// `saltus == 0` is ordinary periodicity; otherwise the sequence is arithmetic-periodic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Periodicity {
    /// The first index from which the relation holds (`G(0)` is index 0).
    pub preperiod: usize,
    /// The smallest period.
    pub period: usize,
    /// The increase per period (0 for pure periodicity).
    pub saltus: i64,
}

impl Periodicity {
    /// `G(n)` for any `n`, from the values `G(0..preperiod + period)` of `table` (which must
    /// hold at least that many values): the formula the generated code uses.
    pub fn extrapolate(&self, prefix: impl Fn(usize) -> u32, n: u64) -> u64 {
        let head = (self.preperiod + self.period) as u64;
        if n < head {
            return prefix(n as usize) as u64;
        }
        let offset = n - self.preperiod as u64;
        let cycles = offset / self.period as u64;
        let base = prefix(self.preperiod + (offset % self.period as u64) as usize) as i128;
        (base + cycles as i128 * self.saltus as i128) as u64
    }
}

/// What `period` reports: the periodicity found, whether it is proved, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PeriodReport {
    /// The game's name.
    pub game: String,
    /// The first index of the periodic part, when a period was found.
    pub preperiod: Option<usize>,
    /// The smallest period, or `None` when none was found.
    pub period: Option<usize>,
    /// The saltus (0 for pure periodicity).
    pub saltus: Option<i64>,
    /// True only with a certificate from a theorem (see [`proof`]).
    pub proved: bool,
    /// How many values `G(0..values_computed)` were computed.
    pub values_computed: usize,
    /// The largest value among them.
    pub max_value: u32,
    /// Full periods seen after the preperiod.
    pub periods_seen: Option<f64>,
    /// For a proof: the theorem's bound (values `n0 ≤ n < bound` were checked).
    pub proof_bound: Option<usize>,
    /// A sentence a person can read: the theorem used, or the evidence, or why nothing was found.
    pub reason: String,
}
