//! Everything `patterns` reports on one table ([`Findings`]): for a heap game or a single
//! coordinate, where the P-positions lie ([`oned`](super::oned)) and a closed form of the values
//! ([`find_sequence`]); for two coordinates, the lines, pairs and criteria of
//! [`analyse_box`] and a closed form of the box's values; for more, the criteria alone
//! ([`CriteriaReport`]); and in normal play of one or two coordinates, a closed form of the
//! smallest winning move ([`find_smallest_move`]). Each holds on the whole table or is not
//! reported.

use serde::Serialize;

use super::winning::SMALLEST_MOVE_STEPS;
use super::{
    analyse_box, find_sequence, find_smallest_move, p_position_patterns, BoxPatternReport,
    FormulaReport, PPositionReport, PatternError, SmallestMoveReport,
};
use crate::analysis::criteria::CriteriaReport;
use crate::engine::boxtable::BoxTable;
use crate::engine::Table;
use crate::rules::{Game, Play};

/// The patterns of one table of values.
#[derive(Clone, Debug)]
pub struct Findings {
    /// The play convention the values are of: normal play's `G`, or misère play's `G⁻`, whose
    /// zeros are the misère P-positions.
    pub play: Play,
    /// The name of the first coordinate (the index of a sequence's patterns).
    pub coordinate: String,
    /// What was found, by the table's number of coordinates.
    pub body: Body,
    /// The smallest winning move's closed form (normal play, one or two coordinates).
    pub smallest: Option<SmallestMoveReport>,
}

/// The findings of a table, by its number of coordinates.
#[derive(Clone, Debug)]
pub enum Body {
    /// A heap game's sequence, or a box of one coordinate.
    Sequence {
        /// Where the P-positions lie.
        report: PPositionReport,
        /// A closed form of the values.
        formula: FormulaReport,
    },
    /// Two coordinates: lines, P-pairs, diagonals, criteria and a closed form.
    Box(Box<BoxPatternReport>),
    /// Three coordinates or more: the criteria.
    Criteria(CriteriaReport),
}

/// The name of the values a formula is of.
fn function(play: Play) -> String {
    match play {
        Play::Misere => "G⁻".to_string(),
        _ => "G".to_string(),
    }
}

/// The patterns of `table`, the values of `game` under `play` (normal values, or misère
/// values `G⁻`).
pub fn find(game: &Game, table: &Table, play: Play) -> Result<Findings, PatternError> {
    let coordinates = table.coordinates().to_vec();
    let boxed = || match table {
        Table::Box(boxed) => boxed.clone(),
        Table::Sequence { .. } => {
            BoxTable::new(coordinates.clone(), table.extents(), table.iter().collect())
        }
    };
    // The smallest winning move's pattern: normal play, one or two coordinates (rows of
    // more coordinates keep their one line of criteria).
    let smallest = (play == Play::Normal && coordinates.len() <= 2)
        .then(|| find_smallest_move(game, &boxed(), SMALLEST_MOVE_STEPS));
    let body = if coordinates.len() == 1 {
        let values: Vec<u32> = table.iter().collect();
        let mut formula = find_sequence(&coordinates[0], &values);
        formula.function = function(play);
        Body::Sequence {
            report: p_position_patterns(&values),
            formula,
        }
    } else if coordinates.len() == 2 {
        let mut report = analyse_box(&boxed())?;
        report.formula.function = function(play);
        Body::Box(Box::new(report))
    } else {
        // Rows and diagonals are 2-D ideas; any number of coordinates has criteria.
        Body::Criteria(CriteriaReport::of(&boxed()))
    };
    Ok(Findings {
        play,
        coordinate: coordinates[0].clone(),
        body,
        smallest,
    })
}

impl Findings {
    /// The report as text: the patterns, then the smallest winning move; misère findings
    /// start with the sentence saying whose P-positions they are.
    pub fn text(&self) -> String {
        let mut text = match &self.body {
            Body::Sequence { report, formula } => {
                format!("{}\n{formula}\n", report.describe(&self.coordinate))
            }
            Body::Box(report) => report.to_string(),
            Body::Criteria(report) => report.to_string(),
        };
        if let Some(smallest) = &self.smallest {
            text.push_str(&smallest.to_string());
        }
        if self.play == Play::Misere {
            text.insert_str(
                0,
                "misère play: the patterns below are those of the misère P-positions (G⁻ = 0, the player to move loses)\n",
            );
        }
        text
    }

    /// The report as one pretty-printed JSON object (with a final newline): the report's
    /// fields, `formula` for a sequence, `smallest_winning_move` when there is one, and
    /// `"play": "misere"` in misère play.
    pub fn json(&self) -> Result<String, serde_json::Error> {
        let mut extra: Vec<(&str, serde_json::Value)> = Vec::new();
        let body = match &self.body {
            Body::Sequence { report, formula } => {
                extra.push(("formula", serde_json::to_value(formula)?));
                serde_json::to_value(report)?
            }
            Body::Box(report) => serde_json::to_value(report)?,
            Body::Criteria(report) => serde_json::to_value(report)?,
        };
        if let Some(smallest) = &self.smallest {
            extra.push(("smallest_winning_move", serde_json::to_value(smallest)?));
        }
        if self.play == Play::Misere {
            extra.push(("play", "misere".into()));
        }
        if extra.is_empty() {
            // The report's own field order.
            return pretty(&self.body);
        }
        let mut value = body;
        if let Some(object) = value.as_object_mut() {
            object.extend(extra.into_iter().map(|(k, v)| (k.to_string(), v)));
        }
        pretty(&value)
    }
}

impl Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Body::Sequence { report, .. } => report.serialize(serializer),
            Body::Box(report) => report.serialize(serializer),
            Body::Criteria(report) => report.serialize(serializer),
        }
    }
}

fn pretty(value: &impl Serialize) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(value).map(|s| s + "\n")
}
