//! The text and the JSON of a [`MisereCheckReport`]: per rule, "holds for all S sums" or the
//! smallest counterexample, with its values, the prediction and the true misère outcome.

use std::io::{self, Write};

use serde::Serialize;

use crate::analysis::misere_check::{Counterexample, MisereCheckReport, RuleFinding};
use crate::value::misere::Genus;
use crate::value::Outcome;

/// The first line, printed before the work: what is checked and how many sums.
pub fn write_header(
    out: &mut dyn Write,
    game: &str,
    heaps: usize,
    to: u64,
    sums: u64,
) -> io::Result<()> {
    writeln!(
        out,
        "misère check of {game}: every one of the {} {}, against its true misère outcome (exact search over sums)",
        sums,
        scope(heaps, to),
    )
}

/// The findings, after [`write_header`]: the heaps' tameness, then one paragraph per rule.
pub fn write_text(out: &mut dyn Write, report: &MisereCheckReport) -> io::Result<()> {
    match report.first_wild() {
        None => writeln!(out, "heaps 1..={}: all tame", report.to)?,
        Some(wild) => writeln!(
            out,
            "heaps 1..={}: the first wild heap is {wild} (heaps below it are tame)",
            report.to
        )?,
    }
    for finding in &report.findings {
        writeln!(out, "{}:", finding.rule.description())?;
        match &finding.counterexample {
            None => writeln!(
                out,
                "  holds for all {} {}",
                report.sums_checked,
                scope(report.heaps, report.to)
            )?,
            Some(c) => {
                writeln!(
                    out,
                    "  fails on {} of {} sums; the smallest counterexample:",
                    finding.failures, report.sums_checked
                )?;
                write_counterexample(out, c)?;
            }
        }
    }
    Ok(())
}

/// "sums of at most 3 heaps of sizes 1..=10" ("at most 1 heap" for one).
fn scope(heaps: usize, to: u64) -> String {
    let noun = if heaps == 1 { "heap" } else { "heaps" };
    format!("sums of at most {heaps} {noun} of sizes 1..={to}")
}

fn write_counterexample(out: &mut dyn Write, c: &Counterexample) -> io::Result<()> {
    let join = |values: &[u32]| {
        values
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let sum: Vec<String> = c.components.iter().map(u64::to_string).collect();
    let rows = [
        ("sum:", sum.join(" + ")),
        ("SG values:", join(&c.sg_values)),
        ("misère values G⁻:", join(&c.misere_values)),
        ("genera:", genera(c)),
        ("the rule predicts:", outcome_text(c.predicted).to_string()),
        ("true misère outcome:", outcome_text(c.actual).to_string()),
    ];
    for (label, value) in rows {
        writeln!(out, "    {label:<21}{value}")?;
    }
    Ok(())
}

/// `0^{02}, 4^{146} (wild)`.
fn genera(c: &Counterexample) -> String {
    c.genera
        .iter()
        .zip(&c.tame)
        .map(|(g, &tame)| {
            if tame {
                g.to_string()
            } else {
                format!("{g} (wild)")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn outcome_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::P => "P (the first player loses)",
        Outcome::N => "N (the first player wins)",
        Outcome::D => "D (a draw)",
    }
}

/// The JSON object of `misere-check --json`.
#[derive(Serialize)]
struct JsonReport<'a> {
    game: &'a str,
    heaps: usize,
    to: u64,
    sums_checked: u64,
    first_wild_heap: Option<u64>,
    rules: Vec<JsonRule<'a>>,
}

#[derive(Serialize)]
struct JsonRule<'a> {
    rule: &'static str,
    description: &'static str,
    holds: bool,
    failures: u64,
    counterexample: Option<JsonCounterexample<'a>>,
}

#[derive(Serialize)]
struct JsonCounterexample<'a> {
    components: &'a [u64],
    sg_values: &'a [u32],
    misere_values: &'a [u32],
    genera: Vec<String>,
    tame: &'a [bool],
    predicted: String,
    actual: String,
}

fn json_rule(finding: &RuleFinding) -> JsonRule<'_> {
    JsonRule {
        rule: finding.rule.name(),
        description: finding.rule.description(),
        holds: finding.holds(),
        failures: finding.failures,
        counterexample: finding.counterexample.as_ref().map(|c| JsonCounterexample {
            components: &c.components,
            sg_values: &c.sg_values,
            misere_values: &c.misere_values,
            genera: c.genera.iter().map(Genus::to_string).collect(),
            tame: &c.tame,
            predicted: c.predicted.to_string(),
            actual: c.actual.to_string(),
        }),
    }
}

/// Writes the JSON object of `report` (pretty-printed, then a newline): `game`, `heaps`, `to`,
/// `sums_checked`, `first_wild_heap`, and `rules`, each with `rule`, `description`, `holds`,
/// `failures` and `counterexample` (`null`, or `components`, `sg_values`, `misere_values`,
/// `genera` (Conway's notation, e.g. `"0^{02}"`), `tame`, `predicted` and `actual`, the
/// outcomes as `"N"` or `"P"`).
pub fn write_json(out: &mut dyn Write, game: &str, report: &MisereCheckReport) -> io::Result<()> {
    let json = JsonReport {
        game,
        heaps: report.heaps,
        to: report.to,
        sums_checked: report.sums_checked,
        first_wild_heap: report.first_wild(),
        rules: report.findings.iter().map(json_rule).collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::misere_check::{HeapValues, Rule};

    fn report() -> MisereCheckReport {
        let heap = |normal, misere| HeapValues {
            normal,
            misere,
            genus: Genus::tame(normal, misere),
            tame: true,
        };
        MisereCheckReport {
            heaps: 2,
            to: 2,
            sums_checked: 5,
            heap_values: vec![heap(0, 1), heap(1, 0), heap(2, 2)],
            findings: vec![
                RuleFinding {
                    rule: Rule::AntiSg,
                    failures: 0,
                    counterexample: None,
                },
                RuleFinding {
                    rule: Rule::MisereXor,
                    failures: 1,
                    counterexample: Some(Counterexample {
                        components: vec![1, 1],
                        sg_values: vec![1, 1],
                        misere_values: vec![0, 0],
                        genera: vec![Genus::tame(1, 0), Genus::tame(1, 0)],
                        tame: vec![true, true],
                        predicted: Outcome::P,
                        actual: Outcome::N,
                    }),
                },
            ],
            sums_stored: 9,
        }
    }

    #[test]
    fn text_says_holds_or_gives_the_counterexample() {
        let mut out = Vec::new();
        write_header(&mut out, "Nim", 2, 2, 5).unwrap();
        write_text(&mut out, &report()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("misère check of Nim: every one of the 5 sums of at most 2 heaps of sizes 1..=2, against"), "{text}");
        assert!(text.contains("heaps 1..=2: all tame\n"), "{text}");
        assert!(
            text.contains("  holds for all 5 sums of at most 2 heaps of sizes 1..=2\n"),
            "{text}"
        );
        assert!(text.contains("  fails on 1 of 5 sums; the smallest counterexample:\n    sum:                 1 + 1\n"), "{text}");
        assert!(
            text.contains("true misère outcome: N (the first player wins)"),
            "{text}"
        );
    }

    #[test]
    fn json_has_the_documented_fields() {
        let mut out = Vec::new();
        write_json(&mut out, "Nim", &report()).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["sums_checked"], 5);
        assert_eq!(json["first_wild_heap"], serde_json::Value::Null);
        assert_eq!(json["rules"][0]["rule"], "anti-sg");
        assert_eq!(json["rules"][0]["holds"], true);
        assert!(json["rules"][0]["counterexample"].is_null());
        let c = &json["rules"][1]["counterexample"];
        assert_eq!(json["rules"][1]["holds"], false);
        assert_eq!(c["components"], serde_json::json!([1, 1]));
        assert_eq!(c["sg_values"], serde_json::json!([1, 1]));
        assert_eq!(c["genera"], serde_json::json!(["1^{031}", "1^{031}"]));
        assert_eq!(c["predicted"], "P");
        assert_eq!(c["actual"], "N");
    }
}
