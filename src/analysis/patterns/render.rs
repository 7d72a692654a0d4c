//! The text reports: [`OneDimPattern::describe`], [`PPositionReport::describe`] and the
//! `Display` of [`BoxPatternReport`] (rows, columns and diagonals summarised in runs, the
//! P-pairs and their fits, the P-positions along the diagonals, then the criteria).

use std::fmt;

use super::beatty::PPairs;
use super::lines::{LineFamily, LineKind, LinePeriodicity, MIN_LINE_LENGTH};
use super::oned::{OneDimPattern, PPositionReport, LISTED, MIN_PERIODS, MIN_P_POSITIONS};
use super::BoxPatternReport;

impl OneDimPattern {
    /// The pattern in words, with `index` as the name of the position (e.g. `n`).
    pub fn describe(&self, index: &str) -> String {
        match self {
            OneDimPattern::ResidueClasses {
                modulus,
                residues,
                from,
                exceptions,
            } => {
                let residues: Vec<String> = residues.iter().map(u64::to_string).collect();
                let mut text = if *modulus == 1 {
                    format!("every {index} ≥ {from}")
                } else {
                    format!(
                        "{index} ≡ {} (mod {modulus}) for {index} ≥ {from}",
                        residues.join(" or ")
                    )
                };
                if !exceptions.is_empty() {
                    text.push_str(&format!(", and {} before", list(exceptions)));
                }
                text
            }
            OneDimPattern::ArithmeticProgression {
                start,
                difference,
                exceptions,
            } => {
                let progression = format!("{start} + {difference}k (k ≥ 0)");
                if exceptions.is_empty() {
                    progression
                } else {
                    format!("{}, then {progression}", list(exceptions))
                }
            }
            OneDimPattern::Fibonacci => "the Fibonacci numbers 1, 2, 3, 5, 8, …".to_string(),
            OneDimPattern::PowersOfTwo => "the powers of two 1, 2, 4, 8, …".to_string(),
            OneDimPattern::PowersOfTwoMinusOne => "the numbers 2^k − 1: 0, 1, 3, 7, …".to_string(),
        }
    }
}

impl fmt::Display for OneDimPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("n"))
    }
}

/// `a, b, c` for a short list, `a, b, … (n in all)` for a long one.
fn list(items: &[u64]) -> String {
    let shown: Vec<String> = items.iter().take(LISTED).map(u64::to_string).collect();
    if items.len() > LISTED {
        format!("{}, … ({} in all)", shown.join(", "), items.len())
    } else {
        shown.join(", ")
    }
}

impl PPositionReport {
    /// The report in words, with `index` as the name of the position (e.g. `n`).
    pub fn describe(&self, index: &str) -> String {
        let range = format!("{} ≤ {index} ≤ {}", self.first, self.last);
        let count = self.p_positions;
        if count == 0 {
            return format!("no P-positions for {range}");
        }
        let mut listed = list(&self.listed);
        if count > self.listed.len() {
            listed = format!("{listed}, … ({count} in all)");
        }
        match self.patterns.as_slice() {
            [] if count < MIN_P_POSITIONS => format!(
                "only {count} P-position{} ({listed}) for {range}: too few for a pattern",
                if count == 1 { "" } else { "s" }
            ),
            [] => format!(
                "P-positions {listed}: no simple pattern (residue classes, arithmetic \
                 progression, Fibonacci numbers, powers of two) fits {range}"
            ),
            patterns => {
                let described: Vec<String> = patterns.iter().map(|p| p.describe(index)).collect();
                format!(
                    "P-positions are {} (checked for {range})",
                    described.join("; equally, ")
                )
            }
        }
    }
}

impl fmt::Display for PPositionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("n"))
    }
}

impl LineKind {
    /// How a line of this kind is named, e.g. `x = 3` or `x − y = -1`, from its number.
    fn name(self, coordinates: &[String; 2], line: i64) -> String {
        let [x, y] = coordinates;
        match self {
            LineKind::Rows => format!("{x} = {line}"),
            LineKind::Columns => format!("{y} = {line}"),
            LineKind::Diagonals => format!("{x} − {y} = {line}"),
        }
    }

    /// The coordinate the line is indexed by.
    fn index(self, coordinates: &[String; 2]) -> &str {
        match self {
            LineKind::Rows => &coordinates[1],
            LineKind::Columns | LineKind::Diagonals => &coordinates[0],
        }
    }

    fn noun(self) -> &'static str {
        match self {
            LineKind::Rows => "row",
            LineKind::Columns => "column",
            LineKind::Diagonals => "diagonal",
        }
    }

    fn title(self) -> &'static str {
        match self {
            LineKind::Rows => "Rows",
            LineKind::Columns => "Columns",
            LineKind::Diagonals => "Diagonals",
        }
    }
}

/// Runs of consecutive lines shown in a report before the rest are only counted.
const LISTED_RUNS: usize = 12;

impl LineFamily {
    /// Writes a summary and the runs of consecutive lines with the same period and saltus.
    fn describe(&self, f: &mut fmt::Formatter<'_>, coordinates: &[String; 2]) -> fmt::Result {
        let kind = self.kind;
        let index = kind.index(coordinates);
        writeln!(f, "{} (along {index}):", kind.title())?;
        if self.lines.is_empty() {
            return writeln!(f, "  none with at least {MIN_LINE_LENGTH} values");
        }
        if let Some((from, period, saltus)) = self.uniform_tail() {
            let last = self.lines.last().map_or(from, |l| l.line);
            writeln!(
                f,
                "  every {} {} up to {}: {}",
                kind.noun(),
                kind.name(coordinates, from).replace(" = ", " ≥ "),
                last,
                periodicity_words(period, saltus)
            )?;
        }
        let runs = runs(&self.lines);
        for run in runs.iter().take(LISTED_RUNS) {
            let (first, last) = (run[0], run[run.len() - 1]);
            let mut name = kind.name(coordinates, first.line);
            if run.len() > 1 {
                name.push_str(&format!("..{}", last.line));
            }
            match first.periodicity {
                None => writeln!(f, "  {name}: no period found")?,
                Some(p) => {
                    let preperiods = run
                        .iter()
                        .filter_map(|l| l.periodicity.map(|p| p.preperiod));
                    let (low, high) =
                        preperiods.fold((usize::MAX, 0), |(lo, hi), n| (lo.min(n), hi.max(n)));
                    let from = if low == high {
                        format!("{index} ≥ {low}")
                    } else {
                        format!("{index} ≥ {low}..{high}")
                    };
                    writeln!(
                        f,
                        "  {name}: {} from {from}",
                        periodicity_words(p.period, p.saltus)
                    )?;
                }
            }
        }
        if runs.len() > LISTED_RUNS {
            writeln!(
                f,
                "  … {} more runs (see the JSON report)",
                runs.len() - LISTED_RUNS
            )?;
        }
        Ok(())
    }
}

/// Groups consecutive lines with the same period and saltus (or no period).
fn runs(lines: &[LinePeriodicity]) -> Vec<&[LinePeriodicity]> {
    let key = |l: &LinePeriodicity| l.periodicity.map(|p| (p.period, p.saltus));
    lines.chunk_by(|a, b| key(a) == key(b)).collect()
}

fn periodicity_words(period: usize, saltus: i64) -> String {
    if saltus == 0 {
        format!("period {period}")
    } else {
        format!("additively periodic, period {period}, saltus {saltus}")
    }
}

impl fmt::Display for BoxPatternReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y] = &self.coordinates;
        let [width, height] = self.extents;
        writeln!(
            f,
            "Patterns in the box 0 ≤ {x} ≤ {width}, 0 ≤ {y} ≤ {height} (a period needs {MIN_PERIODS} full \
             periods and 16 matching pairs along a line):"
        )?;
        writeln!(f, "{}", self.formula)?;
        for family in [&self.rows, &self.columns, &self.diagonals] {
            family.describe(f, &self.coordinates)?;
        }
        match &self.p_pairs {
            None => writeln!(
                f,
                "P-positions: the table is not symmetric, so no pairs (a_k, b_k) are formed"
            )?,
            Some(pairs) => pairs.describe(f, &self.coordinates)?,
        }
        writeln!(f, "P-positions along the diagonals (indexed by {x}):")?;
        for (c, report) in &self.diagonal_p_positions {
            writeln!(f, "  {x} − {y} = {c}: {}", report.describe(x))?;
        }
        write!(f, "{}", self.criteria)
    }
}

impl PPairs {
    fn describe(&self, f: &mut fmt::Formatter<'_>, coordinates: &[String; 2]) -> fmt::Result {
        let [x, y] = coordinates;
        let side = self.side;
        let shown: Vec<String> = self
            .pairs
            .iter()
            .take(LISTED)
            .map(|(a, b)| format!("({a}, {b})"))
            .collect();
        let more = if self.pairs.len() > LISTED {
            ", …"
        } else {
            ""
        };
        writeln!(
            f,
            "P-positions ({x}, {y}) = (a_k, b_k) with a_k ≤ b_k ≤ {side} (the table is \
             symmetric): {} pairs {}{more}",
            self.pairs.len(),
            shown.join(", ")
        )?;
        let terms = self.pairs.len();
        if terms < MIN_P_POSITIONS {
            return writeln!(f, "  too few pairs for a pattern");
        }
        match self.difference_fails_at {
            None => writeln!(f, "  b_k − a_k = k for every k ≤ {}", terms - 1)?,
            Some(k) => writeln!(f, "  b_k − a_k = k fails at k = {k}")?,
        }
        for (name, variable, fit, golden) in [
            ("a_k = ⌊kα⌋", "α", &self.alpha, "φ"),
            ("b_k = ⌊kβ⌋", "β", &self.beta, "φ²"),
        ] {
            match (fit.interval, fit.fails_at) {
                (Some(_), _) => writeln!(
                    f,
                    "  {name} for 1 ≤ k ≤ {}: {} ∈ [{:.6}, {:.6}), midpoint {:.6}; {golden} ≈ {:.6} {} in it",
                    fit.terms,
                    variable,
                    fit.low,
                    fit.high,
                    (fit.low + fit.high) / 2.0,
                    golden_value(golden),
                    if fit.golden { "lies" } else { "does not lie" }
                )?,
                (None, Some(k)) => writeln!(f, "  {name}: no number fits (fails at k = {k})")?,
                (None, None) => writeln!(f, "  {name}: no terms to fit")?,
            }
        }
        Ok(())
    }
}

fn golden_value(name: &str) -> f64 {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    if name == "φ" {
        phi
    } else {
        phi + 1.0
    }
}
