//! Censuses: whole families of games solved one by one, classified and compared with the
//! published tables.
//!
//! A census is a [`Config`] (a [`Family`] of codes and the bounds each is computed to) and
//! one [`Record`] per code. Each code is independent, so a census runs its codes in parallel
//! (by games: [`run`] hands them to rayon's pool, each with the engine's single-game kernels),
//! or a deterministic slice of them per process ([`Shard`]), journalled to a resumable
//! [shard file](journal) and merged afterwards (`sgscope census merge`), so that a cluster's batch scheduler
//! can spread a census over machines. The [equivalence classes](classes) are computed once all
//! records are in, from what each record keeps of its sequence.
//!
//! # Bounds
//!
//! Every code is searched for a period as `sgscope period --max MAX` does, stopping as soon as
//! the periodicity theorem proves one. A code still unsolved at `MAX` whose values are
//! *sparse* — at most [`SPARSE_RARE_LIMIT`] rare positions (Flammenkamp's sparse space), the
//! last of them in the first half of the table — goes on to `2·MAX`, `4·MAX`, … up to
//! `SPARSE_MAX`, as long as it stays sparse: the rare-value kernel makes those cheap, and the
//! long solved games (0.16 at n ≈ 5·10^5, 0.56, 0.376 at 4.5·10^6) are of that kind. The
//! bounds depend on the values only, never on time, so every run and every sharding gives the
//! same records.

pub mod classes;
pub mod compare;
pub mod family;
pub mod fingerprint;
pub mod journal;

use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::analysis::{self, PeriodReport, Stop};
use crate::engine::{EngineError, EngineOptions};
use crate::rules::{self, RulesError, SourceFile};
pub use family::Family;
use fingerprint::Fingerprint;

/// The version of the records, their bounds rule and the shard-file layout; a shard of
/// another version is refused.
pub const FORMAT_VERSION: u32 = 2;

/// The most rare positions (under the table's best mask, among `G(1..=MAX)`) with which an
/// unsolved code goes on from `MAX` to `SPARSE_MAX`: 0.127 (693 rare positions by 65536) and
/// 0.376 (444) qualify; the dense games whose rare positions keep coming (0.007: 13964) do
/// not, and would cost hours each at millions of heaps.
pub const SPARSE_RARE_LIMIT: usize = 1024;

/// The default `MAX`: every code is computed to at least `G(0..=MAX)` unless proved before.
pub const DEFAULT_MAX: u64 = 1 << 16;

/// The default `SPARSE_MAX` (2^21): the known long solved 3-digit games up to 0.56
/// (preperiod 326640, proved at n ≈ 6.5·10^5) close; 0.376 (4.5·10^6) and 0.354 (2·10^7)
/// need `--sparse-max 33554432`.
pub const DEFAULT_SPARSE_MAX: u64 = 1 << 21;

/// What a census surveys and how far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The family of codes.
    #[serde(flatten)]
    pub family: Family,
    /// Every code is computed to `G(0..=max)` unless proved first.
    pub max: u64,
    /// Sparse unsolved codes go on to `G(0..=sparse_max)` (see the module docs).
    pub sparse_max: u64,
}

impl Config {
    /// The window lengths at which an unsolved code of `len` values keeps fingerprints: the
    /// powers of two from 1024, the lengths the bounds' doublings stop at, and `len` itself (see
    /// [`classes`]: two codes are compared on the longest length both keep).
    pub fn window_lengths(&self, len: usize) -> Vec<usize> {
        // The lengths a census stops at: MAX·2^j + 1 (the sparse doublings), and the powers
        // of two where a search without a theorem stops on a stable period.
        let stages = (0..usize::BITS)
            .map_while(|j| (self.max as usize).checked_mul(1 << j))
            .take_while(|&bound| bound <= self.sparse_max as usize)
            .map(|bound| bound + 1);
        let mut lengths: Vec<usize> = (10..usize::BITS)
            .map(|bit| 1usize << bit)
            .chain(stages)
            .chain([self.sparse_max as usize + 1, len])
            .filter(|&l| l <= len && l > fingerprint::MAX_OFFSET)
            .collect();
        lengths.sort_unstable();
        lengths.dedup();
        lengths
    }
}

/// A slice `index` of `count` of a census (`--shard K/N` is index `K − 1`): the codes whose
/// position in the census's order is `index` modulo `count`, so that the costly codes, which
/// cluster in the order, spread over the shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// `K − 1`.
    pub index: usize,
    /// `N`.
    pub count: usize,
}

impl Shard {
    /// The whole census.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// How many codes of a census of `total` codes this shard holds (without listing them).
    pub fn len_of(&self, total: usize) -> usize {
        if self.count == 0 || self.index >= total {
            0
        } else {
            (total - self.index).div_ceil(self.count)
        }
    }

    /// True when the code at `position` of the census's order is in this shard.
    pub fn holds(&self, position: usize) -> bool {
        position % self.count == self.index
    }

    /// The codes of `family` in this shard, in the census's order.
    pub fn codes(&self, family: &Family) -> Vec<String> {
        family
            .codes()
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.holds(*i))
            .map(|(_, code)| code)
            .collect()
    }
}

/// One code's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The code as written after the family keyword (`0.07` for `octal 0.07`).
    pub code: String,
    /// The preperiod, when a period was found (proved or not).
    pub preperiod: Option<usize>,
    /// The period, or `None` when the code is unsolved.
    pub period: Option<usize>,
    /// The saltus (0 for pure periodicity).
    pub saltus: i64,
    /// True when a theorem proves the period.
    pub proved: bool,
    /// Values `G(0..values_computed)` computed.
    pub values_computed: usize,
    /// The largest value computed.
    pub max_value: u32,
    /// The first heap with the largest value.
    pub max_value_at: usize,
    /// The rare mask in hex, `+parity` when the heap's parity is part of it (Flammenkamp's
    /// layout); `None` when the code has none.
    pub rare_mask: Option<String>,
    /// Rare positions among `G(1..values_computed)`.
    pub rare_count: Option<usize>,
    /// The last rare position.
    pub last_rare: Option<usize>,
    /// Seconds this code took (the only field that differs between runs).
    pub seconds: f64,
    /// For a code with a proved period: `G(0..preperiod + period)`, its whole sequence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<u32>>,
    /// For a code without a proved period: fingerprints of its computed values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fingerprints: Vec<Fingerprint>,
}

impl Record {
    /// "solved" (a proved period), "periodic" (a period seen, not proved) or "unsolved".
    pub fn status(&self) -> &'static str {
        match (self.proved, self.period) {
            (true, _) => "solved",
            (false, Some(_)) => "periodic",
            (false, None) => "unsolved",
        }
    }

    /// The periodicity found, if any.
    pub fn periodicity(&self) -> Option<analysis::Periodicity> {
        Some(analysis::Periodicity {
            preperiod: self.preperiod?,
            period: self.period?,
            saltus: self.saltus,
        })
    }

    /// What is known of this code's sequence, for [`classes::classify`].
    pub fn known(&self) -> classes::Known<'_> {
        match (&self.values, self.periodicity()) {
            (Some(values), Some(periodicity)) => classes::Known::Periodic {
                values,
                periodicity,
            },
            _ => classes::Known::Prefix {
                len: self.values_computed,
                prints: &self.fingerprints,
            },
        }
    }
}

/// One line of a census's output (CSV, JSON lines, the Markdown report): a [`Record`]'s
/// results without its sequence, with its class and offset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The code as written after the family keyword.
    pub code: String,
    /// "solved", "periodic" or "unsolved" (see [`Record::status`]).
    pub status: String,
    /// The preperiod, when a period was found.
    pub preperiod: Option<usize>,
    /// The period; `None` (null) when unsolved.
    pub period: Option<usize>,
    /// The saltus.
    pub saltus: i64,
    /// True when a theorem proves the period.
    pub proved: bool,
    /// Values computed.
    pub values_computed: usize,
    /// The largest value computed.
    pub max_value: u32,
    /// The first heap with the largest value.
    pub max_value_at: usize,
    /// The rare mask (hex, `+parity`).
    pub rare_mask: Option<String>,
    /// Rare positions.
    pub rare_count: Option<usize>,
    /// The last rare position.
    pub last_rare: Option<usize>,
    /// The equivalence class id.
    pub class: usize,
    /// `G_code(n + offset) = G_base(n)` for the class's base.
    pub offset: usize,
    /// Seconds the code took.
    pub seconds: f64,
    /// The code's first cousin, when the theorem of [`crate::theory::cousin`] applies:
    /// `G_code(n + 1) = G_cousin(n)` for every `n`, proved (the cousin may lie outside the
    /// census). Absent from shard files of earlier versions, hence the default.
    #[serde(default)]
    pub cousin: Option<String>,
}

impl Row {
    /// The row of `record`, in class `class` with offset `offset`.
    pub fn new(record: &Record, class: usize, offset: usize) -> Row {
        Row {
            code: record.code.clone(),
            status: record.status().to_string(),
            preperiod: record.preperiod,
            period: record.period,
            saltus: record.saltus,
            proved: record.proved,
            values_computed: record.values_computed,
            max_value: record.max_value,
            max_value_at: record.max_value_at,
            rare_mask: record.rare_mask.clone(),
            rare_count: record.rare_count,
            last_rare: record.last_rare,
            class,
            offset,
            seconds: record.seconds,
            cousin: crate::theory::cousin::first_cousin(&record.code),
        }
    }
}

/// A code and its first cousin, both in one census (see [`Census::cousin_pairs`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CousinPair {
    /// The code `A`.
    pub code: String,
    /// Its first cousin `B`: `G_A(n + 1) = G_B(n)`, proved.
    pub cousin: String,
    /// Whether the census's classes agree: one class, `A`'s offset one more than `B`'s.
    pub agrees: bool,
}

/// Why a census could not run or merge.
#[derive(Debug, Error)]
pub enum CensusError {
    /// A code of the family did not read as a game (a bug: the family writes its codes).
    #[error("{0}")]
    Rules(#[from] Box<RulesError>),
    /// The engine refused or failed a code.
    #[error("{code}: {source}")]
    Engine {
        /// The code.
        code: String,
        /// The engine's error.
        source: EngineError,
    },
    /// A shard file could not be read, written or trusted.
    #[error(transparent)]
    Journal(#[from] journal::JournalError),
    /// The shards given to `merge` do not make one census.
    #[error("{0}")]
    Merge(String),
}

/// Solves one code of `config`'s family (see the module docs for the bounds).
pub fn run_code(config: &Config, code: &str) -> Result<Record, CensusError> {
    let text = config.family.game_text(code);
    let game = rules::load(SourceFile::new(text.clone(), text), &[]).map_err(Box::new)?;
    let options = EngineOptions::default();
    let engine = |source| CensusError::Engine {
        code: code.to_string(),
        source,
    };
    let started = Instant::now();
    let (mut table, mut report) =
        analysis::find_period(&game, config.max, &options).map_err(engine)?;
    // Sparse codes go on in doublings, each only while the rare values have died out; any
    // code goes on to the proof of the period it shows when that needs at most twice `max`.
    let mut bound = config.max;
    while !report.proved && report.stop == Stop::MaxReached && bound < config.sparse_max {
        let next = if still_sparse(&report) {
            bound.saturating_mul(2).max(bound + 1)
        } else {
            match proof_needs(&report) {
                Some(need) if need > bound && need <= config.max.saturating_mul(2) => need,
                _ => break,
            }
        };
        bound = next.min(config.sparse_max);
        (table, report) =
            analysis::find_period_from(&game, bound, &options, table).map_err(engine)?;
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(record(config, code, &report, &table, seconds))
}

/// True when a table is worth extending with the rare-value kernel: at most
/// [`SPARSE_RARE_LIMIT`] rare positions, none in the second half of the table (the rare values
/// have died out, as they must for the sequence to become periodic; a code whose rare
/// positions keep coming, such as 0.143, would cost the sparse kernel more with every heap).
fn still_sparse(report: &PeriodReport) -> bool {
    report.rare.is_some_and(|rare| {
        rare.rare_count <= SPARSE_RARE_LIMIT
            && rare.last_rare.unwrap_or(0) <= report.values_computed / 2
    })
}

/// The `max` at which the periodicity theorem would prove the period a search found but
/// could not prove yet (0.127's needs n ≈ 93000), if the theorem applies.
fn proof_needs(report: &PeriodReport) -> Option<u64> {
    match report.certificate {
        Some(analysis::proof::Certificate::NeedValues { up_to, .. }) => Some(up_to as u64),
        _ => None,
    }
}

fn record(
    config: &Config,
    code: &str,
    report: &PeriodReport,
    table: &crate::engine::SgTable,
    seconds: f64,
) -> Record {
    let len = report.values_computed.min(table.len());
    // Only a proved period makes the sequence known forever; a period only seen is compared
    // over the values computed, like an unsolved code.
    let (values, fingerprints) = match report.periodicity() {
        Some(p) if report.proved && p.preperiod + p.period <= len => (
            Some((0..p.preperiod + p.period).map(|n| table.get(n)).collect()),
            Vec::new(),
        ),
        _ => (
            None,
            config
                .window_lengths(len)
                .into_iter()
                .filter_map(|window| fingerprint::fingerprint(window, |n| table.get(n)))
                .collect(),
        ),
    };
    Record {
        code: code.to_string(),
        preperiod: report.preperiod,
        period: report.period,
        saltus: report.saltus.unwrap_or(0),
        proved: report.proved,
        values_computed: report.values_computed,
        max_value: report.max_value,
        max_value_at: report.max_value_at,
        rare_mask: report.rare.map(|rare| {
            let parity = if rare.rare_parity_bit { "+parity" } else { "" };
            format!("{:x}{parity}", rare.rare_mask)
        }),
        rare_count: report.rare.map(|rare| rare.rare_count),
        last_rare: report.rare.and_then(|rare| rare.last_rare),
        seconds,
        values,
        fingerprints,
    }
}

/// Runs `codes` of `config` in parallel (by games), calling `done` with each record as it is
/// finished (from the worker threads, one call at a time); stops at the first error.
pub fn run(
    config: &Config,
    codes: &[String],
    done: &(dyn Fn(Record) -> Result<(), CensusError> + Sync),
) -> Result<(), CensusError> {
    // Costly codes cluster in the order; rayon's splitting keeps both cores busy to the end
    // only with one code per task.
    codes
        .par_iter()
        .with_max_len(1)
        .try_for_each(|code| done(run_code(config, code)?))
}

/// A finished census: its configuration, every record in census order, and each record's
/// class and offset (see [`classes`]).
#[derive(Clone, Debug)]
pub struct Census {
    /// The configuration.
    pub config: Config,
    /// One record per code, in the census's order.
    pub records: Vec<Record>,
    /// `(class, offset)` of each record.
    pub classes: Vec<(usize, usize)>,
}

impl Census {
    /// The census of `records`, which must hold every code of the family exactly once (in
    /// any order): sorted into the census's order and classified.
    pub fn new(config: Config, records: Vec<Record>) -> Result<Census, CensusError> {
        let codes = config.family.codes();
        let position: std::collections::HashMap<&str, usize> = codes
            .iter()
            .enumerate()
            .map(|(i, code)| (code.as_str(), i))
            .collect();
        let mut slots: Vec<Option<Record>> = vec![None; codes.len()];
        for record in records {
            let Some(&i) = position.get(record.code.as_str()) else {
                return Err(CensusError::Merge(format!(
                    "`{}` is not a code of the {} census",
                    record.code,
                    config.family.slug()
                )));
            };
            if slots[i].is_some() {
                return Err(CensusError::Merge(format!(
                    "`{}` is present twice: every code must be in exactly one shard",
                    record.code
                )));
            }
            slots[i] = Some(record);
        }
        let missing: Vec<&str> = codes
            .iter()
            .zip(&slots)
            .filter(|(_, slot)| slot.is_none())
            .map(|(code, _)| code.as_str())
            .collect();
        if !missing.is_empty() {
            let shown = missing
                .iter()
                .take(5)
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            let more = if missing.len() > 5 { ", …" } else { "" };
            return Err(CensusError::Merge(format!(
                "{} of {} codes are missing ({shown}{more}): run or resume the shards that hold them",
                missing.len(),
                codes.len()
            )));
        }
        let records: Vec<Record> = slots.into_iter().flatten().collect();
        let known: Vec<classes::Known<'_>> = records.iter().map(Record::known).collect();
        let classes = classes::classify(&known);
        Ok(Census {
            config,
            records,
            classes,
        })
    }

    /// The output rows, in census order.
    pub fn rows(&self) -> Vec<Row> {
        self.records
            .iter()
            .zip(&self.classes)
            .map(|(record, &(class, offset))| Row::new(record, class, offset))
            .collect()
    }

    /// Every code of the census whose [first cousin](crate::theory::cousin) is in the
    /// census too, with it. The theorem proves `G_code(n + 1) = G_cousin(n)`, so the two must
    /// share a class with offsets one apart; `agrees` says whether the classification (from
    /// the values) found that, and a `false` there would be a bug to report.
    pub fn cousin_pairs(&self) -> Vec<CousinPair> {
        let index: std::collections::HashMap<&str, usize> = self
            .records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.code.as_str(), i))
            .collect();
        self.records
            .iter()
            .enumerate()
            .filter_map(|(i, record)| {
                let cousin = crate::theory::cousin::first_cousin(&record.code)?;
                let &j = index.get(cousin.as_str())?;
                let ((class, offset), (cousin_class, cousin_offset)) =
                    (self.classes[i], self.classes[j]);
                Some(CousinPair {
                    code: record.code.clone(),
                    cousin,
                    agrees: class == cousin_class && offset == cousin_offset + 1,
                })
            })
            .collect()
    }

    /// How many classes there are.
    pub fn class_count(&self) -> usize {
        self.classes.iter().map(|&(c, _)| c + 1).max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(digits: u32) -> Config {
        Config {
            family: Family::Octal { digits },
            max: 4096,
            sparse_max: 4096,
        }
    }

    #[test]
    fn a_record_is_what_period_reports() {
        let config = config(2);
        let record = run_code(&config, "0.07").unwrap();
        // Dawson's Kayles: preperiod 53, period 34 (Winning Ways ch. 4; OEIS A002187).
        assert_eq!(record.preperiod, Some(53));
        assert_eq!(record.period, Some(34));
        assert!(record.proved);
        assert_eq!(record.values.as_ref().map(Vec::len), Some(87));
        assert!(record.fingerprints.is_empty());
        let unsolved = run_code(&config, "0.6").unwrap();
        assert_eq!(unsolved.status(), "unsolved");
        assert_eq!(unsolved.values_computed, 4097);
        let lengths: Vec<usize> = unsolved.fingerprints.iter().map(|p| p.len).collect();
        assert_eq!(lengths, vec![1024, 2048, 4096, 4097]);
    }

    #[test]
    fn shards_partition_the_codes() {
        let family = Family::Octal { digits: 2 };
        let all = family.codes();
        let mut seen: Vec<String> = (0..5)
            .flat_map(|index| Shard { index, count: 5 }.codes(&family))
            .collect();
        seen.sort();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(seen, sorted);
    }

    #[test]
    fn dawsons_kayles_and_0_4_are_one_class_with_offset_one() {
        // Winning Ways ch. 4: 0.4 is 0.07 played with one more token, G_0.4(n + 1) = G_0.07(n).
        let config = config(1);
        let codes = ["0.07", "0.4", "0.6"];
        let records: Vec<Record> = codes
            .iter()
            .map(|c| run_code(&config, c).unwrap())
            .collect();
        let known: Vec<classes::Known<'_>> = records.iter().map(Record::known).collect();
        let classes = classes::classify(&known);
        assert_eq!(classes[0].0, classes[1].0);
        assert_eq!((classes[0].1, classes[1].1), (0, 1));
        assert_ne!(classes[2].0, classes[0].0);
    }
}
