//! A sweep's outputs: the table of instances (text, CSV, JSON lines), the whole report as one
//! JSON object, and the chart of period and preperiod against the first parameter.
//!
//! The first line of the text, and the `partial` field of the JSON, say when instances have no
//! period within their limit or failed: formulas then speak only for the instances they name.

use std::error::Error;
use std::fmt::Write as _;
use std::io::{self, Write};

use plotters::coord::Shift;
use plotters::prelude::*;
use serde_json::{json, Value};

use super::plot::{render_image, ChartFormat, Painter};
use super::ExportError;
use crate::sweep::fit::Affine;
use crate::sweep::shapes::{self, Found};
use crate::sweep::{
    Instance, PositionInstance, PositionSummary, Quantity, QuantityFit, Summary, SweepReport,
};

/// The instances listed by name in a sentence before "and N more".
const NAMED: usize = 8;

/// An instance's parameters: `k = 3`, `L = 2, R = 5`.
pub fn params_text(names: &[String], params: &[i64]) -> String {
    names
        .iter()
        .zip(params)
        .map(|(n, v)| format!("{n} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A shape of one instance in math notation (`n ≡ 0 (mod 4)`, `n mod 4`).
pub fn found_text(found: &Found) -> String {
    let constants: Vec<Affine> = found
        .shape
        .constants
        .iter()
        .map(|&c| Affine {
            constant: c,
            coefficients: Vec::new(),
        })
        .collect();
    shapes::render(found.shape.kind, &constants, &[])
}

fn instances_text(report: &SweepReport, indices: &[usize]) -> String {
    let mut listed: Vec<String> = indices
        .iter()
        .take(NAMED)
        .map(|&i| format!("({})", params_text(&report.names, report.params(i))))
        .collect();
    if indices.len() > NAMED {
        listed.push(format!("and {} more", indices.len() - NAMED));
    }
    listed.join(", ")
}

/// The first line: what was swept and whether every instance has a period (a position game:
/// a criterion on its box).
pub fn headline(report: &SweepReport) -> String {
    let total = report.len();
    let unsolved = report.unsolved();
    let over = format!("{} over {}", report.game, report.ranges.join(", "));
    if !report.positions.is_empty() {
        return if unsolved.is_empty() {
            format!("sweep of {over}: {total} instances, a P-position criterion found on each box")
        } else {
            format!(
                "partial: {} of {total} instances of {over} have no P-position criterion on their box (or an error): {}",
                unsolved.len(),
                instances_text(report, &unsolved)
            )
        };
    }
    if unsolved.is_empty() {
        let proved = report
            .instances
            .iter()
            .filter(|i| i.result.as_ref().is_ok_and(|s| s.report.proved))
            .count();
        let proof = if proved == total {
            "every period proved".to_string()
        } else {
            format!("{proved} of them proved, the others observed")
        };
        format!("sweep of {over}: {total} instances, a period found for each, {proof}")
    } else {
        format!(
            "partial: {} of {total} instances of {over} have no period found (none within their limit, or an error): {}",
            unsolved.len(),
            instances_text(report, &unsolved)
        )
    }
}

/// A position game's box, `0..=7` per coordinate.
fn box_text(summary: &PositionSummary) -> String {
    let sides: Vec<String> = summary.extents.iter().map(|e| format!("0..={e}")).collect();
    sides.join(" × ")
}

/// The row of one instance of a position game: the parameters, then box, positions,
/// P-positions, criterion.
fn position_row(instance: &PositionInstance) -> Vec<String> {
    let mut row: Vec<String> = instance.params.iter().map(i64::to_string).collect();
    match &instance.result {
        Ok(s) => row.extend([
            box_text(s),
            s.positions.to_string(),
            s.p_positions.to_string(),
            s.criterion
                .as_ref()
                .map_or("-".to_string(), |c| c.describe(&s.coordinates)),
        ]),
        Err(error) => {
            row.extend(["-", "-", "-", "-"].map(String::from));
            row.push(format!("error: {error}"));
        }
    }
    row
}

/// Columns laid out in a fixed width each: the first `numeric` right-aligned.
fn layout(header: &[String], rows: &[Vec<String>], numeric: usize) -> String {
    let columns = header.len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .chain([&header[c]])
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut text = String::new();
        for (c, cell) in cells.iter().enumerate() {
            let width = widths.get(c).copied().unwrap_or(0);
            let pad = width.saturating_sub(cell.chars().count());
            if c < numeric {
                let _ = write!(text, "{}{cell}  ", " ".repeat(pad));
            } else {
                let _ = write!(text, "{cell}{}  ", " ".repeat(pad));
            }
        }
        text.trim_end().to_string()
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", line(header));
    for r in rows {
        let _ = writeln!(out, "{}", line(r));
    }
    out
}

fn cell<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// The row of one instance: the parameters, then preperiod, period, saltus, proved, values
/// computed, largest value, P-positions, G.
fn row(instance: &Instance) -> Vec<String> {
    let mut row: Vec<String> = instance.params.iter().map(i64::to_string).collect();
    match &instance.result {
        Ok(s) => {
            let r = &s.report;
            row.extend([
                cell(r.preperiod),
                cell(r.period),
                cell(r.period.map(|_| r.saltus.unwrap_or(0))),
                (if r.proved { "yes" } else { "no" }).to_string(),
                r.values_computed.to_string(),
                r.max_value.to_string(),
                p_positions_text(s),
                s.g_form.as_ref().map_or("-".to_string(), found_text),
            ]);
        }
        Err(error) => {
            row.extend(["-", "-", "-", "no", "-", "-", "-", "-"].map(String::from));
            row.push(format!("error: {error}"));
        }
    }
    row
}

/// An instance's P-positions: its shape, else the first few and how many.
pub fn p_positions_text(summary: &Summary) -> String {
    if let Some(found) = &summary.p_set {
        return found_text(found);
    }
    let listed: Vec<String> = summary.p_first.iter().map(u64::to_string).collect();
    let more = if summary.p_first.len() == crate::sweep::P_LISTED {
        ", …"
    } else {
        ""
    };
    format!("{{{}{more}}}", listed.join(", "))
}

/// The text report: the headline, the table of instances, the formulas.
pub fn text(report: &SweepReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", headline(report));
    let mut header: Vec<String> = report.names.clone();
    let quantities: &[Quantity] = if report.positions.is_empty() {
        header.extend(
            [
                "preperiod",
                "period",
                "saltus",
                "proved",
                "values",
                "max value",
                "P-positions",
                "G(n)",
            ]
            .map(String::from),
        );
        let rows: Vec<Vec<String>> = report.instances.iter().map(row).collect();
        out.push_str(&layout(&header, &rows, header.len() - 2));
        &Quantity::ALL
    } else {
        header.extend(["box", "positions", "P-positions", "criterion"].map(String::from));
        let rows: Vec<Vec<String>> = report.positions.iter().map(position_row).collect();
        out.push_str(&layout(&header, &rows, report.names.len()));
        &[Quantity::PPositions]
    };
    let _ = writeln!(
        out,
        "\nformulas in {}, observed on the instances swept (each checked on every instance it covers; not proved for other values):",
        report.names.join(", ")
    );
    for &quantity in quantities {
        out.push_str(&formula_text(report, report.formula(quantity)));
    }
    out
}

/// One quantity's formula as text lines.
fn formula_text(report: &SweepReport, quantity_fit: &QuantityFit) -> String {
    let name = format!("{}:", quantity_fit.quantity.name());
    let total = report.len();
    let Some(fit) = &quantity_fit.fit else {
        let reason = match quantity_fit.quantity {
            Quantity::PPositions => "no formula (the P-positions of some instances are not an interval of residues or an initial segment)",
            Quantity::G => "no formula (no single closed form of G holds on the instances)",
            _ => "no formula",
        };
        return format!("  {name:<13} {reason}\n");
    };
    let mut out = String::new();
    let texts: Vec<(String, String, usize)> = fit
        .pieces
        .iter()
        .map(|piece| {
            let formula = shapes::render(piece.kind, &piece.constants, &report.names);
            let condition = if fit.pieces.len() == 1 && fit.uncovered.is_empty() {
                String::new()
            } else {
                format!("when {}", piece.condition.render(&report.names))
            };
            (formula, condition, piece.instances)
        })
        .collect();
    let width = texts.iter().map(|t| t.0.chars().count()).max().unwrap_or(0);
    for (i, (formula, condition, count)) in texts.iter().enumerate() {
        let label = if i == 0 { name.as_str() } else { "" };
        let pad = width - formula.chars().count();
        let condition = if condition.is_empty() {
            String::new()
        } else {
            format!("{condition}, ")
        };
        let _ = writeln!(
            out,
            "  {label:<13} {formula}{}   ({condition}{count} of {total} instances)",
            " ".repeat(pad)
        );
    }
    if !quantity_fit.missing.is_empty() {
        let _ = writeln!(
            out,
            "  {:<13} no formula for {} instance{}: {}",
            "",
            quantity_fit.missing.len(),
            if quantity_fit.missing.len() == 1 {
                ""
            } else {
                "s"
            },
            instances_text(report, &quantity_fit.missing)
        );
    }
    let proof = match (quantity_fit.every_n, quantity_fit.quantity) {
        (true, Quantity::Period | Quantity::Preperiod | Quantity::Saltus) => {
            "each instance's value proved by the periodicity theorem"
        }
        (true, _) => "holds for every n of each instance covered (its period proved, checked over a common period)",
        (false, Quantity::Period | Quantity::Preperiod | Quantity::Saltus) => {
            "some instances' periods are observed only"
        }
        (false, _) if !report.positions.is_empty() => {
            "checked on every position of each instance's box only"
        }
        (false, _) => "checked on the values computed only (n ≤ each instance's limit)",
    };
    let _ = writeln!(out, "  {:<13} {proof}", "");
    out
}

/// The CSV header for `names`: the parameters, then the instance's columns (of a position
/// game when `positions`).
pub fn csv_header(names: &[String], positions: bool) -> String {
    let mut header = names.to_vec();
    let columns: &[&str] = if positions {
        &["box", "positions", "p_positions", "criterion", "error"]
    } else {
        &[
            "preperiod",
            "period",
            "saltus",
            "proved",
            "values_computed",
            "max_value",
            "p_positions",
            "g",
            "error",
        ]
    };
    header.extend(columns.iter().map(|c| c.to_string()));
    header.join(",")
}

fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The instances as CSV ([`csv_header`]; `-` cells become empty).
pub fn write_csv(out: &mut dyn Write, report: &SweepReport) -> io::Result<()> {
    let positions = !report.positions.is_empty();
    writeln!(out, "{}", csv_header(&report.names, positions))?;
    let (rows, width): (Vec<Vec<String>>, usize) = if positions {
        (report.positions.iter().map(position_row).collect(), 4)
    } else {
        (report.instances.iter().map(row).collect(), 8)
    };
    for mut cells in rows {
        if cells.len() == report.names.len() + width {
            cells.push(String::new());
        }
        let cells: Vec<String> = cells
            .iter()
            .map(|c| if c == "-" { String::new() } else { csv_cell(c) })
            .collect();
        writeln!(out, "{}", cells.join(","))?;
    }
    Ok(())
}

fn found_json(found: &Option<Found>) -> Value {
    match found {
        Some(f) => json!({
            "text": found_text(f),
            "kind": f.shape.kind,
            "constants": f.shape.constants,
            "every_n": f.every_n,
        }),
        None => Value::Null,
    }
}

/// An instance's parameters as a JSON object, `{"L": 2, "R": 5}`.
fn params_json(names: &[String], params: &[i64]) -> serde_json::Map<String, Value> {
    names
        .iter()
        .zip(params)
        .map(|(n, v)| (n.clone(), json!(v)))
        .collect()
}

/// One instance as a JSON object.
pub fn instance_json(names: &[String], instance: &Instance) -> Value {
    let params = params_json(names, &instance.params);
    match &instance.result {
        Ok(s) => {
            let r = &s.report;
            json!({
                "params": params,
                "preperiod": r.preperiod,
                "period": r.period,
                "saltus": r.period.map(|_| r.saltus.unwrap_or(0)),
                "proved": r.proved,
                "values_computed": r.values_computed,
                "max_value": r.max_value,
                "p_positions": found_json(&s.p_set),
                "p_count": s.p_count,
                "p_first": s.p_first,
                "g": found_json(&s.g_form),
                "error": Value::Null,
            })
        }
        Err(error) => json!({
            "params": params,
            "preperiod": Value::Null,
            "period": Value::Null,
            "saltus": Value::Null,
            "proved": false,
            "error": error.to_string(),
        }),
    }
}

/// One instance of a position game as a JSON object.
pub fn position_json(names: &[String], instance: &PositionInstance) -> Value {
    let params = params_json(names, &instance.params);
    match &instance.result {
        Ok(s) => json!({
            "params": params,
            "extents": s.extents,
            "positions": s.positions,
            "p_positions": s.p_positions,
            "criterion": s.criterion.as_ref().map(|c| c.describe(&s.coordinates)),
            "error": Value::Null,
        }),
        Err(error) => json!({
            "params": params,
            "criterion": Value::Null,
            "error": error.to_string(),
        }),
    }
}

fn instances_json(report: &SweepReport) -> Vec<Value> {
    if report.positions.is_empty() {
        report
            .instances
            .iter()
            .map(|i| instance_json(&report.names, i))
            .collect()
    } else {
        report
            .positions
            .iter()
            .map(|i| position_json(&report.names, i))
            .collect()
    }
}

/// The instances as JSON lines, one object per instance.
pub fn write_jsonl(out: &mut dyn Write, report: &SweepReport) -> io::Result<()> {
    for line in instances_json(report) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn affine_json(names: &[String], affine: &Affine) -> Value {
    json!({
        "text": affine.render(names),
        "constant": affine.constant,
        "coefficients": names.iter().zip(&affine.coefficients).map(|(n, c)| (n.clone(), json!(c))).collect::<serde_json::Map<_, _>>(),
    })
}

/// One quantity's formula as JSON.
fn formula_json(report: &SweepReport, quantity_fit: &QuantityFit) -> Value {
    let names = &report.names;
    let pieces: Vec<Value> = quantity_fit.fit.as_ref().map_or_else(Vec::new, |fit| {
        fit.pieces
            .iter()
            .map(|piece| {
                json!({
                    "when": piece.condition.render(names),
                    "condition": piece.condition,
                    "formula": shapes::render(piece.kind, &piece.constants, names),
                    "kind": piece.kind,
                    "constants": piece.constants.iter().map(|a| affine_json(names, a)).collect::<Vec<_>>(),
                    "instances": piece.instances,
                })
            })
            .collect()
    });
    let params_of = |indices: &[usize]| -> Vec<Vec<i64>> {
        indices.iter().map(|&i| report.params(i).to_vec()).collect()
    };
    json!({
        "quantity": quantity_fit.quantity,
        "found": quantity_fit.fit.is_some(),
        "complete": quantity_fit.missing.is_empty() && quantity_fit.fit.is_some(),
        "pieces": pieces,
        "covered": quantity_fit.covered.len(),
        "missing": params_of(&quantity_fit.missing),
        "every_n": quantity_fit.every_n,
        "proved": false,
        "observed_on": report.ranges,
    })
}

/// The whole report as one JSON object: `partial`, `unsolved`, the instances and the formulas.
pub fn json(report: &SweepReport) -> String {
    let unsolved: Vec<Vec<i64>> = report
        .unsolved()
        .iter()
        .map(|&i| report.params(i).to_vec())
        .collect();
    let value = json!({
        "game": report.game,
        "params": report.names,
        "ranges": report.ranges,
        "partial": !unsolved.is_empty(),
        "unsolved": unsolved,
        "headline": headline(report),
        "instances": instances_json(report),
        "formulas": report.formulas.iter().filter(|f| report.positions.is_empty() || f.quantity == Quantity::PPositions).map(|f| formula_json(report, f)).collect::<Vec<_>>(),
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// Period and preperiod against the first parameter (one point per instance).
pub fn chart(report: &SweepReport, format: ChartFormat) -> Result<Vec<u8>, ExportError> {
    let points: Vec<(i64, Option<usize>, Option<usize>)> = report
        .instances
        .iter()
        .map(|i| {
            let summary = i.result.as_ref().ok();
            let period = summary.and_then(|s| s.report.period);
            let preperiod = summary.and_then(|s| s.report.period.and(s.report.preperiod));
            (i.params[0], period, preperiod)
        })
        .collect();
    let others = if report.names.len() > 1 {
        format!(" (every value of {})", report.names[1..].join(", "))
    } else {
        String::new()
    };
    let chart = SweepChart {
        title: format!("{}: period and preperiod", report.game),
        x_label: format!("{}{others}", report.names[0]),
        points,
    };
    render_image(format, (1200, 600), &chart)
}

/// Reads one series' value off a point.
type Pick = fn(&(i64, Option<usize>, Option<usize>)) -> Option<usize>;

struct SweepChart {
    title: String,
    x_label: String,
    points: Vec<(i64, Option<usize>, Option<usize>)>,
}

impl Painter for SweepChart {
    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), Box<dyn Error>>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let xs = self.points.iter().map(|p| p.0);
        let (lo, hi) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(1));
        let top = self
            .points
            .iter()
            .flat_map(|p| [p.1, p.2])
            .flatten()
            .max()
            .unwrap_or(1)
            .max(1);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(
                lo as f64 - 0.5..hi as f64 + 0.5,
                0f64..top as f64 * 1.05 + 1.0,
            )?;
        chart
            .configure_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc("length")
            .label_style(("sans-serif", 14))
            .draw()?;
        let series: [(&str, RGBColor, Pick); 2] = [
            ("period", RGBColor(31, 119, 180), |p| p.1),
            ("preperiod", RGBColor(255, 127, 14), |p| p.2),
        ];
        for (label, colour, pick) in series {
            chart
                .draw_series(self.points.iter().filter_map(|p| {
                    pick(p).map(|v| Circle::new((p.0 as f64, v as f64), 4, colour.filled()))
                }))?
                .label(label)
                .legend(move |(x, y)| Circle::new((x + 6, y), 4, colour.filled()));
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .label_font(("sans-serif", 15))
            .draw()?;
        Ok(())
    }
}
