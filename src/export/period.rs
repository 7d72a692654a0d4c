//! The period report, for people and for programs: the sentences of a typed
//! [`PeriodReport`].
//!
//! * [`reason`] is the one-sentence account of the report: the theorem used and what it
//!   checked (from the [`Certificate`]), or the evidence and why nothing is proved, or why no
//!   period was found, followed by how the search ended ([`Stop`], [`CutShort`]);
//!   [`explanation`] is the same sentence without its leading `"not proved: "`;
//! * [`lowering_note`] says, for general rules lowered to a code, that the values and the
//!   proof are the code's and why the rules' equality with the code, checked for heaps up to
//!   the verification bound `V` when loading, carries over beyond it ([`crate::rules::lower`]);
//! * [`report_text`] is the text of `sgscope period`, with the values of the preperiod and of
//!   one period;
//! * [`write_report_json`] writes the JSON object of `sgscope period --json`: the report's
//!   fields, its `reason`, the lowering (`lowered_to_code`, `lowering_proof` — `"checked"` to
//!   the bound `lowering_checked_to`, or `"thresholds"`, exact at every heap) only for lowered
//!   rules, the first `cousin` when the code has one, and the search's
//!   [`SearchTiming`] when given.

use std::io::{self, Write};

use serde::Serialize;

use crate::analysis::period::MIN_CHECKED_PAIRS;
use crate::analysis::proof::Certificate;
use crate::analysis::rare::RareStats;
use crate::analysis::{CutShort, PeriodReport, Periodicity, SearchTiming, Stop};
use crate::engine::SgTable;
use crate::rules::{Game, Lowering, LoweringProof};

/// The report's reason: [`explanation`], preceded by `"not proved: "` when a period was
/// found but not proved, e.g.
/// `"proved by the octal periodicity theorem (Guy–Smith): G(n+34) = G(n) checked for 53 ≤ n < 2·53+34+2 = 142"`.
pub fn reason(report: &PeriodReport) -> String {
    let explanation = explanation(report);
    match &report.certificate {
        None | Some(Certificate::Proved { .. }) => explanation,
        Some(_) => format!("not proved: {explanation}"),
    }
}

/// The report's reason without the `"not proved: "` that [`reason`] puts before an
/// unproved period's: what the code snippets quote after "observed, NOT proved".
pub fn explanation(report: &PeriodReport) -> String {
    let last = report.values_computed.saturating_sub(1);
    let mut s = match &report.certificate {
        None => {
            let mut s = format!(
                "no period found in G(0..={last}): no candidate had two full periods and {MIN_CHECKED_PAIRS} matching pairs after its preperiod"
            );
            if report.stop == Stop::MaxReached {
                s += "; raise --max to search further";
            }
            s
        }
        Some(certificate) => {
            let seen = report.periods_seen.unwrap_or(0.0);
            let evidence = format!("the period held over {seen:.1} periods (n ≤ {last})");
            let mut s = match certificate {
                Certificate::Proved {
                    theorem, checked, ..
                } => format!("proved by {theorem}: {checked}"),
                Certificate::NeedValues { up_to, .. } => {
                    let how = match report.stop {
                        Stop::MaxReached => format!("raise --max to at least {up_to}"),
                        _ => format!("compute the table to n = {up_to}"),
                    };
                    format!(
                        "the periodicity theorem needs G(0..={up_to}) but only G(0..={last}) is computed ({how}); {evidence}"
                    )
                }
                Certificate::Refuted { at } => format!(
                    "G({at}+{p}) ≠ G({at}) contradicts the candidate period",
                    p = report.period.unwrap_or(0)
                ),
                Certificate::NotApplicable { why } => format!("{why}; {evidence}"),
            };
            if let Stop::Stable { previous_len } = report.stop {
                s += &format!(
                    "; stopped early: the same period was found at n ≤ {} and n ≤ {last}",
                    previous_len.saturating_sub(1)
                );
            }
            s
        }
    };
    if let (Some(cut), false) = (&report.cut_short, report.proved) {
        s += &cut_short_text(cut);
    }
    s
}

/// " (the search stopped at n = 5000, not 20000: …)", after the reason of an unproved search.
fn cut_short_text(cut: &CutShort) -> String {
    let CutShort {
        stopped_at,
        max,
        listing_limit,
    } = *cut;
    format!(
        " (the search stopped at n = {stopped_at}, not {max}: beyond it this code's `!`/`?` digits with three or more heaps would list more than {listing_limit:e} partitions)"
    )
}

/// For general rules lowered to a code: the values (and the proof, when there is one) are the
/// code's, and why that holds for every heap although the rules were checked equal to the code
/// only for heaps `n ≤ V` (the argument of [`crate::rules::lower`]: affine rules change the
/// shape of their move sets only at breakpoints, bounded in terms of the rules' constants and
/// multipliers, and past the last one they grow by translation, as a code's do; `V` is chosen
/// four times past where those bounds put the breakpoints).
pub fn lowering_note(lowering: &Lowering, proved: bool) -> String {
    let what = if proved {
        "the values and the proof"
    } else {
        "the values"
    };
    let code = abbreviated_code(&lowering.code.to_string());
    let checked_to = match lowering.proof {
        LoweringProof::Checked { to } => to,
        LoweringProof::Thresholds { checks } => {
            return format!(
                "{what} are those of code {code}: the rules are this code at every n, proved when loading from their thresholds (affine in n, compared at {checks} heaps around every n where their order can change; between those the moves keep their shape)"
            )
        }
    };
    format!(
        "{what} are those of code {code}: the rules' moves were checked equal to the code's for every n ≤ {checked_to} when loading; beyond {checked_to} they agree by the lowering argument: affine rules change the shape of their move sets only at breakpoints (estimated from the rules' constants and multipliers to lie below {}), past which they grow by translation, as a code's do",
        checked_to / 4
    )
}

/// The human form of a period report, with the values of the preperiod and of one period
/// (from `table`, which holds at least `G(0..values_computed)`).
pub fn report_text(
    game: &Game,
    report: &PeriodReport,
    table: &SgTable,
    timing: &SearchTiming,
) -> String {
    let last = report.values_computed.saturating_sub(1);
    let mut s = String::new();
    s += &format!("game:       {}\n", game_title(game));
    s += &format!(
        "computed:   G(0..={last}), largest value {} (first at {} = {})\n",
        report.max_value, game.coordinate, report.max_value_at
    );
    if let Some(rare) = &report.rare {
        s += &format!("rare:       {}\n", rare_text(rare, last, &game.coordinate));
    }
    match report.periodicity() {
        Some(Periodicity {
            preperiod,
            period,
            saltus,
        }) => {
            s += &format!("preperiod:  {preperiod}\nperiod:     {period}\n");
            if saltus != 0 {
                s += &format!("saltus:     {saltus}   (G(n + {period}) = G(n) + {saltus})\n");
            }
            s += &format!("proved:     {}\n", if report.proved { "yes" } else { "no" });
            if preperiod > 0 {
                let label = format!("G(0..{preperiod}):");
                s += &format!("{label:<12}{}\n", value_list(table, 0, preperiod));
            }
            s += &format!(
                "one period: {}\n",
                value_list(table, preperiod, preperiod + period)
            );
        }
        None => s += "period:     none found\n",
    }
    s += &format!("reason:     {}\n", reason(report));
    if let Some(lowering) = &report.lowering {
        s += &format!("lowering:   {}\n", lowering_note(lowering, report.proved));
    }
    if let Some(cousin) = &report.cousin {
        s += &format!(
            "cousin:     {cousin}: G({c} + 1) = G_{cousin}({c}) for every {c} (the same game tree \
             with one token fewer per heap: a first cousin, Winning Ways ch. 4)\n",
            c = game.coordinate
        );
    }
    s += &format!(
        "time:       {:.3} s, {} values/s\n",
        timing.seconds, timing.values_per_second
    );
    s
}

/// "mask 254: 1273 rare positions in 1..=1048575, the last at n = 96862, largest rare value 9".
fn rare_text(rare: &RareStats, last: usize, coordinate: &str) -> String {
    let parity = if rare.rare_parity_bit {
        " + heap parity"
    } else {
        ""
    };
    let mut s = format!(
        "mask {}{parity}: {} rare position{} in 1..={last}",
        rare.rare_mask,
        rare.rare_count,
        if rare.rare_count == 1 { "" } else { "s" }
    );
    if let (Some(at), Some(value)) = (rare.last_rare, rare.largest_rare_value) {
        s += &format!(", the last at {coordinate} = {at}, largest rare value {value}");
    }
    s
}

/// `G(from..to)` separated by spaces, elided in the middle past 60 values.
fn value_list(table: &SgTable, from: usize, to: usize) -> String {
    const SHOWN: usize = 60;
    let to = to.min(table.len());
    let show = |range: std::ops::Range<usize>| {
        range
            .map(|n| table.get(n).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if to - from <= SHOWN {
        show(from..to)
    } else {
        format!(
            "{} … ({} values) … {}",
            show(from..from + SHOWN / 2),
            to - from,
            show(to - 10..to)
        )
    }
}

/// "Dawson's Kayles (code 0.07)": the name, and the code when the engine uses one (a long code
/// abbreviated, see [`abbreviated_code`]).
pub fn game_title(game: &Game) -> String {
    match game.code() {
        Some(code) if game.name != code.to_string() && !game.name.ends_with(&code.to_string()) => {
            format!(
                "{} (code {})",
                game.name,
                abbreviated_code(&code.to_string())
            )
        }
        _ => game.name.clone(),
    }
}

/// A code as written, or for one longer than 64 characters (`subtraction 1..=100000` is a code
/// of 100000 digits) its first 32 and last 8 characters around the count of those left out.
pub fn abbreviated_code(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    if chars.len() <= 64 {
        return code.to_string();
    }
    let head: String = chars[..32].iter().collect();
    let tail: String = chars[chars.len() - 8..].iter().collect();
    format!("{head}…{tail}, {} characters in all", chars.len())
}

/// The JSON object of a report: its fields in order, the rendered `reason`, the lowering for
/// lowered rules only, then the timing's (`seconds`, `values_per_second`).
#[derive(Serialize)]
struct JsonReport<'a> {
    game: &'a str,
    preperiod: Option<usize>,
    period: Option<usize>,
    saltus: Option<i64>,
    proved: bool,
    values_computed: usize,
    max_value: u32,
    max_value_at: usize,
    #[serde(flatten)]
    rare: Option<&'a RareStats>,
    periods_seen: Option<f64>,
    proof_bound: Option<usize>,
    reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    lowered_to_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lowering_checked_to: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lowering_proof: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cousin: Option<&'a str>,
    #[serde(flatten)]
    timing: Option<&'a SearchTiming>,
}

/// Writes `report` (and `timing`, when given) as one pretty-printed JSON object, ending with
/// a newline (see the module docs for its fields).
pub fn write_report_json(
    out: &mut dyn Write,
    report: &PeriodReport,
    timing: Option<&SearchTiming>,
) -> io::Result<()> {
    let json = JsonReport {
        game: &report.game,
        preperiod: report.preperiod,
        period: report.period,
        saltus: report.saltus,
        proved: report.proved,
        values_computed: report.values_computed,
        max_value: report.max_value,
        max_value_at: report.max_value_at,
        rare: report.rare.as_ref(),
        periods_seen: report.periods_seen,
        proof_bound: report.proof_bound,
        reason: reason(report),
        lowered_to_code: report.lowering.as_ref().map(|l| l.code.to_string()),
        lowering_checked_to: report.lowering.as_ref().and_then(Lowering::checked_to),
        lowering_proof: report.lowering.as_ref().map(|l| match l.proof {
            LoweringProof::Checked { .. } => "checked",
            LoweringProof::Thresholds { .. } => "thresholds",
        }),
        cousin: report.cousin.as_deref(),
        timing,
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)?;
    out.flush()
}

#[cfg(test)]
mod tests {

    #[test]
    fn long_codes_are_abbreviated_in_titles() {
        assert_eq!(abbreviated_code("0.07"), "0.07");
        let long = format!("0.{}", "3".repeat(3000));
        assert_eq!(
            abbreviated_code(&long),
            format!("0.{}…33333333, 3002 characters in all", "3".repeat(30))
        );
    }
    use serde_json::Value;

    use super::*;
    use crate::analysis::proof::{Checked, NotApplicable, Theorem};
    use crate::analysis::testing::{code_from_digits, kernel_table};
    use crate::analysis::{self, find_period};
    use crate::engine::EngineOptions;
    use crate::rules::testing::game;

    /// The certificate of Dawson's Kayles 0.07: n0 = 53, p = 34 (Winning Ways ch. 4), h = 2,
    /// t = 2, so B = 2·53 + 34 + 2 = 142.
    fn dawson_proof() -> Certificate {
        let theorem = Theorem::for_code(&code_from_digits("07")).unwrap();
        Certificate::Proved {
            bound: 142,
            theorem,
            checked: Checked {
                theorem,
                period: 34,
                from: 53,
                to: 142,
            },
        }
    }

    /// A report of `len` values with a candidate (53, 34) and `certificate`, stopped by `stop`.
    fn report(len: usize, certificate: Option<Certificate>, stop: Stop) -> PeriodReport {
        let found = certificate.is_some();
        PeriodReport {
            game: "g".into(),
            preperiod: found.then_some(53),
            period: found.then_some(34),
            saltus: found.then_some(0),
            proved: matches!(certificate, Some(Certificate::Proved { .. })),
            values_computed: len,
            max_value: 9,
            max_value_at: 86,
            rare: None,
            periods_seen: found.then(|| (len - 53) as f64 / 34.0),
            proof_bound: None,
            certificate,
            stop,
            cut_short: None,
            lowering: None,
            cousin: None,
        }
    }

    #[test]
    fn a_proof_names_the_theorem_and_the_arithmetic() {
        let proved = report(176, Some(dawson_proof()), Stop::Analysed);
        let sentence = "proved by the octal periodicity theorem (Guy–Smith): G(n+34) = G(n) checked for 53 ≤ n < 2·53+34+2 = 142";
        assert_eq!(reason(&proved), sentence);
        assert_eq!(explanation(&proved), sentence);
        // The same from the analysis of a computed table.
        let code = code_from_digits("07");
        let analysed =
            analysis::report_for_table("Dawson's Kayles", Some(&code), &kernel_table(&code, 176));
        assert_eq!(reason(&analysed), sentence);
    }

    #[test]
    fn a_proof_short_of_values_says_how_to_get_them() {
        let need = Some(Certificate::NeedValues {
            up_to: 175,
            bound: 142,
        });
        // (175 − 53) / 34 = 3.59 periods.
        let evidence = "the period held over 3.6 periods (n ≤ 174)";
        assert_eq!(
            reason(&report(175, need.clone(), Stop::Analysed)),
            format!("not proved: the periodicity theorem needs G(0..=175) but only G(0..=174) is computed (compute the table to n = 175); {evidence}")
        );
        let at_limit = report(175, need, Stop::MaxReached);
        assert_eq!(
            explanation(&at_limit),
            format!("the periodicity theorem needs G(0..=175) but only G(0..=174) is computed (raise --max to at least 175); {evidence}")
        );
        assert_eq!(
            reason(&at_limit),
            format!("not proved: {}", explanation(&at_limit))
        );
    }

    #[test]
    fn unproved_periods_give_the_evidence_and_the_stop() {
        let saltus = Some(Certificate::NotApplicable {
            why: NotApplicable::Saltus(1),
        });
        let stable = report(2048, saltus, Stop::Stable { previous_len: 1024 });
        assert_eq!(
            reason(&stable),
            "not proved: the periodicity theorem covers pure periodicity only, and this period has saltus 1; the period held over 58.7 periods (n ≤ 2047); stopped early: the same period was found at n ≤ 1023 and n ≤ 2047"
        );
        let general = Some(Certificate::NotApplicable {
            why: NotApplicable::GeneralRules,
        });
        assert_eq!(
            reason(&report(1024, general, Stop::MaxReached)),
            "not proved: no theorem applies to general rules without an equivalent take-and-break code; the period held over 28.6 periods (n ≤ 1023)"
        );
        let refuted = Some(Certificate::Refuted { at: 52 });
        assert_eq!(
            reason(&report(200, refuted, Stop::Analysed)),
            "not proved: G(52+34) ≠ G(52) contradicts the candidate period"
        );
    }

    #[test]
    fn no_period_says_where_it_looked() {
        let none = report(5001, None, Stop::MaxReached);
        let sentence = format!("no period found in G(0..=5000): no candidate had two full periods and {MIN_CHECKED_PAIRS} matching pairs after its preperiod; raise --max to search further");
        assert_eq!(reason(&none), sentence);
        assert_eq!(explanation(&none), sentence);
        // A table analysed as given: nothing to raise.
        let given = report(5001, None, Stop::Analysed);
        assert!(!reason(&given).contains("--max"), "{}", reason(&given));
    }

    #[test]
    fn a_search_cut_short_says_so_unless_proved() {
        let cut = CutShort {
            stopped_at: 5000,
            max: 20000,
            listing_limit: 2e10,
        };
        let unproved = PeriodReport {
            cut_short: Some(cut),
            ..report(5001, None, Stop::MaxReached)
        };
        assert!(
            reason(&unproved).ends_with("; raise --max to search further (the search stopped at n = 5000, not 20000: beyond it this code's `!`/`?` digits with three or more heaps would list more than 2e10 partitions)"),
            "{}",
            reason(&unproved)
        );
        let proved = PeriodReport {
            cut_short: Some(cut),
            ..report(176, Some(dawson_proof()), Stop::Analysed)
        };
        assert!(reason(&proved).ends_with("= 142"), "{}", reason(&proved));
    }

    /// Rules equal to Dawson's Kayles 0.07 (Codeforces 1704F's colouring game, the split
    /// listed up to symmetry): period 34 from n = 53 (Winning Ways ch. 4), proved through the
    /// code they lower to, and the report says so.
    #[test]
    fn a_proof_through_lowering_says_so() {
        let rules = game("name \"colouring\"\nmove i in 0..=(n-2)/2 => i, n - 2 - i\n");
        // V = 64 + 4·(2 + 2 + …) for the constants, `/2` rewritten into an affine constraint.
        let lowering = rules.lowering().expect("lowers to 0.07");
        assert_eq!(
            (lowering.code.to_string(), lowering.checked_to()),
            ("0.07".to_string(), Some(224))
        );
        let (table, report) = find_period(&rules, 100_000, &EngineOptions::default()).unwrap();
        assert_eq!((report.preperiod, report.period), (Some(53), Some(34)));
        assert!(report.proved);
        assert_eq!(report.lowering.as_ref(), Some(&lowering));
        let timing = SearchTiming {
            seconds: 0.5,
            values_per_second: 352,
        };
        let text = report_text(&rules, &report, &table, &timing);
        let line = text
            .lines()
            .find(|l| l.starts_with("lowering:   "))
            .unwrap_or_else(|| panic!("no lowering line:\n{text}"));
        assert_eq!(
            line,
            "lowering:   the values and the proof are those of code 0.07: the rules' moves were checked equal to the code's for every n ≤ 224 when loading; beyond 224 they agree by the lowering argument: affine rules change the shape of their move sets only at breakpoints (estimated from the rules' constants and multipliers to lie below 56), past which they grow by translation, as a code's do"
        );
        // Right after the reason.
        assert!(
            text.contains(&format!("\nreason:     {}\nlowering:   ", reason(&report))),
            "{text}"
        );
        let mut out = Vec::new();
        write_report_json(&mut out, &report, None).unwrap();
        let parsed: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(parsed["lowered_to_code"], "0.07");
        assert_eq!(parsed["lowering_checked_to"], 224);
        assert_eq!(parsed["reason"], reason(&report));
        // Without a proof the note claims only the values.
        assert!(lowering_note(&lowering, false).starts_with("the values are those of code 0.07: "));
        // The family form is its code by definition: no note, no fields.
        let octal = game("octal 0.07\n");
        assert_eq!(octal.lowering(), None);
        let (table, report) = find_period(&octal, 100_000, &EngineOptions::default()).unwrap();
        assert_eq!(report.lowering, None);
        assert!(!report_text(&octal, &report, &table, &timing).contains("lowering:"));
        let mut out = Vec::new();
        write_report_json(&mut out, &report, None).unwrap();
        let parsed: Value = serde_json::from_slice(&out).unwrap();
        assert!(parsed.get("lowered_to_code").is_none(), "{parsed}");
        // Dawson's Kayles' first cousin is Dawson's Chess.
        assert_eq!(parsed["cousin"], "0.137", "{parsed}");
    }

    #[test]
    fn the_text_report_lists_the_values() {
        let code = code_from_digits("07");
        let table = kernel_table(&code, 176);
        let report = analysis::report_for_table("Dawson's Kayles", Some(&code), &table);
        let octal = game("name \"Dawson's Kayles\"\noctal 0.07\n");
        let timing = SearchTiming {
            seconds: 0.001,
            values_per_second: 176000,
        };
        // The values are those of OEIS A002187 (Dawson's Kayles); G(86) = 9 is the first 9.
        let expected = "\
game:       Dawson's Kayles (code 0.07)
computed:   G(0..=175), largest value 9 (first at n = 86)
rare:       mask 6 + heap parity: 53 rare positions in 1..=175, the last at n = 172, largest rare value 9
preperiod:  53
period:     34
proved:     yes
G(0..53):   0 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 2 7 4 0 1 1 2 0 3 1 1 0 3 3 2 2 4 4 5 5 2
one period: 3 3 0 1 1 3 0 2 1 1 0 4 5 3 7 4 8 1 1 2 0 3 1 1 0 3 3 2 2 4 4 5 5 9
reason:     proved by the octal periodicity theorem (Guy–Smith): G(n+34) = G(n) checked for 53 ≤ n < 2·53+34+2 = 142
cousin:     0.137: G(n + 1) = G_0.137(n) for every n (the same game tree with one token fewer per heap: a first cousin, Winning Ways ch. 4)
time:       0.001 s, 176000 values/s
";
        assert_eq!(report_text(&octal, &report, &table, &timing), expected);
        // Past 60 values a list is elided in the middle.
        let long = value_list(&kernel_table(&code, 100), 0, 100);
        assert!(
            long.starts_with(
                "0 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 … (100 values) … "
            ),
            "{long}"
        );
    }

    #[test]
    fn period_report_round_trips_its_fields() {
        let report = PeriodReport {
            game: "Dawson's Kayles".to_string(),
            preperiod: Some(53),
            period: Some(34),
            saltus: Some(0),
            proved: true,
            values_computed: 1000,
            max_value: 9,
            max_value_at: 92,
            rare: Some(RareStats {
                rare_mask: 6,
                rare_parity_bit: true,
                rare_parity_offset: 0,
                rare_count: 40,
                last_rare: Some(990),
                largest_rare_value: None,
            }),
            periods_seen: Some(27.8),
            proof_bound: Some(176),
            certificate: Some(dawson_proof()),
            stop: Stop::Analysed,
            cut_short: None,
            lowering: None,
            cousin: None,
        };
        let timing = SearchTiming {
            seconds: 0.25,
            values_per_second: 4000,
        };
        let mut out = Vec::new();
        write_report_json(&mut out, &report, Some(&timing)).unwrap();
        let parsed: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(parsed["game"], "Dawson's Kayles");
        assert_eq!(parsed["preperiod"], 53);
        assert_eq!(parsed["period"], 34);
        assert_eq!(parsed["proved"], true);
        assert_eq!(parsed["proof_bound"], 176);
        assert_eq!(parsed["periods_seen"], 27.8);
        assert_eq!(parsed["max_value_at"], 92);
        assert_eq!(parsed["rare_mask"], 6);
        assert_eq!(parsed["rare_parity_bit"], true);
        assert_eq!(parsed["rare_count"], 40);
        assert_eq!(parsed["last_rare"], 990);
        assert_eq!(parsed["largest_rare_value"], Value::Null);
        assert_eq!(parsed["seconds"], 0.25);
        assert_eq!(parsed["values_per_second"], 4000);
        assert!(parsed["reason"]
            .as_str()
            .unwrap()
            .starts_with("proved by the octal periodicity theorem"));
        // The timing comes last, after the reason.
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.find("\"reason\"") < text.find("\"seconds\""), "{text}");
        assert!(out.ends_with(b"}\n"));
        // Without a code there are no rare fields; without a timing no timing fields.
        let plain = PeriodReport {
            rare: None,
            ..report
        };
        let mut out = Vec::new();
        write_report_json(&mut out, &plain, None).unwrap();
        let parsed: Value = serde_json::from_slice(&out).unwrap();
        for key in [
            "rare_mask",
            "rare_count",
            "last_rare",
            "seconds",
            "lowered_to_code",
            "lowering_checked_to",
        ] {
            assert!(parsed.get(key).is_none(), "{key} in {parsed}");
        }
        assert_eq!(parsed["max_value_at"], 92);
    }
}
