//! Misère reports: the text and JSON of `period --misere` (the observed periods of `G⁻` and of
//! the genus) and of `quotient` (misère quotients). A misère *table* is written by the format
//! modules ([`super::text`], [`super::csv`], [`super::json`]), like every kind of table.

use serde_json::json;

use crate::analysis::misere::MisereSummary;
use crate::analysis::Periodicity;
use crate::value::misere::quotient::{Quotient, Step};

pub(super) fn periodicity_json(found: &Option<Periodicity>) -> serde_json::Value {
    match found {
        Some(p) => json!({"preperiod": p.preperiod, "period": p.period, "saltus": p.saltus}),
        None => serde_json::Value::Null,
    }
}

/// Why a misère analysis ended before the limit asked for, if it did: the search over sums
/// reached its limit at this heap.
pub type StoppedAt = Option<(u64, String)>;

/// The text of `period --misere`: the periods of `G⁻` and of the genus sequence (observed: no
/// theorem proves a misère period), and where the game turns wild.
pub fn period_text(
    title: &str,
    coordinate: &str,
    summary: &MisereSummary,
    stopped: &StoppedAt,
) -> String {
    let last = summary.positions.saturating_sub(1);
    let mut s = format!(
        "game:       {title}, misère play
"
    );
    s += &format!(
        "computed:   G⁻({coordinate}) and the genus for {coordinate} = 0..={last}
"
    );
    if let Some((at, why)) = stopped {
        s += &format!(
            "stopped:    at {coordinate} = {at}: {why}
"
        );
    }
    let line = |found: &Option<Periodicity>| match found {
        Some(p) if p.saltus == 0 => {
            format!("period {} from {coordinate} = {}", p.period, p.preperiod)
        }
        Some(p) => format!(
            "arithmetic period {} (saltus {}) from {coordinate} = {}",
            p.period, p.saltus, p.preperiod
        ),
        None => format!("no period found in 0..={last}"),
    };
    s += &format!(
        "G⁻:         {}
",
        line(&summary.misere_period)
    );
    s += &format!(
        "genus:      {}
",
        line(&summary.genus_period)
    );
    s += &match summary.first_wild {
        Some(heap) => format!(
            "wild from:  {coordinate} = {heap} (every smaller heap is tame)
"
        ),
        None => format!(
            "tame:       every heap 0..={last} (sums are won as in misère Nim)
"
        ),
    };
    s += "proved:     no (no periodicity theorem covers misère values; the periods are observed)
";
    s
}

/// The JSON of `period --misere`, one object ending with a newline.
pub fn period_json(game: &str, summary: &MisereSummary, stopped: &StoppedAt) -> String {
    let value = json!({
        "game": game,
        "play": "misere",
        "values_computed": summary.positions,
        "preperiod": summary.misere_period.map(|p| p.preperiod),
        "period": summary.misere_period.map(|p| p.period),
        "saltus": summary.misere_period.map(|p| p.saltus),
        "genus_preperiod": summary.genus_period.map(|p| p.preperiod),
        "genus_period": summary.genus_period.map(|p| p.period),
        "first_wild": summary.first_wild,
        "p_positions": summary.p_positions,
        "proved": false,
        "stopped_at": stopped.as_ref().map(|(at, _)| at),
        "stopped_because": stopped.as_ref().map(|(_, why)| why),
    });
    format!("{value}\n")
}

/// The generators (the heaps that brought new elements), the other heaps as elements, the
/// relations and the P-portion, as words.
fn quotient_words(q: &Quotient) -> (Vec<String>, Vec<String>, Vec<String>, Vec<String>) {
    let generators = q
        .essential
        .iter()
        .enumerate()
        .map(|(g, &i)| format!("{} = heap {}", Quotient::generator_name(g), q.heaps[i]))
        .collect();
    let aliases = (0..q.heaps.len())
        .filter(|i| !q.essential.contains(i))
        .map(|i| {
            format!(
                "heap {} = {}",
                q.heaps[i],
                Quotient::word(q.image_of_heap(i))
            )
        })
        .collect();
    let relations = q
        .relations
        .iter()
        .map(|(word, normal)| format!("{} = {}", Quotient::word(word), Quotient::word(normal)))
        .collect();
    let p_portion = q
        .p_portion
        .iter()
        .map(|&x| Quotient::word(&q.elements[x]))
        .collect();
    (generators, aliases, relations, p_portion)
}

/// The bound from which the last quotient found has had its order (where it stopped
/// changing, as far as the search went).
fn stable_from(steps: &[Step]) -> Option<u64> {
    let found: Vec<&Quotient> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Found(q) => Some(q),
            Step::NotFound { .. } => None,
        })
        .collect();
    let last = found.last()?;
    found
        .iter()
        .rev()
        .take_while(|q| q.order() == last.order())
        .last()
        .map(|q| q.max_heap)
}

/// The text of `quotient`: the order and P-portion for each bound, then the last quotient's
/// presentation.
pub fn quotient_text(title: &str, steps: &[Step]) -> String {
    let mut s = format!(
        "game:       {title}, misère play
"
    );
    s += "heaps   order   P-portion
";
    let mut last = None;
    for step in steps {
        match step {
            Step::Found(q) => {
                s += &format!(
                    "≤ {:<5} {:>5}   {:>9}\n",
                    q.max_heap,
                    q.order(),
                    q.p_portion.len()
                );
                last = Some(q);
            }
            Step::NotFound { max_heap, reason } => {
                s += &format!("≤ {max_heap:<5} not found: {reason}\n");
            }
        }
    }
    if let Some(q) = last {
        let (generators, aliases, relations, p_portion) = quotient_words(q);
        s += &format!(
            "quotient of the heaps ≤ {} (order {}):\n",
            q.max_heap,
            q.order()
        );
        s += &format!(
            "  generators: {}\n",
            if generators.is_empty() {
                "none (every heap is the empty game)".to_string()
            } else {
                generators.join(", ")
            }
        );
        if !aliases.is_empty() {
            s += &format!("  the others: {}\n", aliases.join(", "));
        }
        s += &format!(
            "  relations:  {}\n",
            if relations.is_empty() {
                "none".to_string()
            } else {
                relations.join(", ")
            }
        );
        s += &format!("  P-portion:  {}\n", p_portion.join(", "));
        if let Some(from) = stable_from(steps) {
            s += &format!(
                "  the order has been {} since the heaps ≤ {from}\n",
                q.order()
            );
        }
        s += "proved:     yes: the quotient's outcome rule was checked on every state of a sum, which covers every sum by induction (see docs/misere.md)\n";
    }
    s
}

/// The JSON of `quotient`: one object per bound, ending with a newline.
pub fn quotient_json(game: &str, steps: &[Step]) -> String {
    let items: Vec<serde_json::Value> = steps
        .iter()
        .map(|step| match step {
            Step::Found(q) => {
                let (generators, aliases, relations, p_portion) = quotient_words(q);
                json!({
                    "max_heap": q.max_heap,
                    "found": true,
                    "order": q.order(),
                    "p_portion_size": q.p_portion.len(),
                    "generators": generators,
                    "other_heaps": aliases,
                    "relations": relations,
                    "p_portion": p_portion,
                })
            }
            Step::NotFound { max_heap, reason } => json!({
                "max_heap": max_heap,
                "found": false,
                "reason": reason,
            }),
        })
        .collect();
    let value = json!({
        "game": game,
        "play": "misere",
        "quotients": items,
        "stable_from": stable_from(steps),
    });
    format!("{value}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::misere::summarize;
    use crate::export::{write_valued, ExportError, Format, TableView};
    use crate::rules::testing::game;
    use crate::value::{misere, TableKind, Valued};

    /// A misère table of `text` to `to`, written by the one exporter of `format`.
    fn render(text: &str, to: u64, format: Format) -> String {
        let game = game(text);
        let table = misere::table(&game, &[to], None).unwrap();
        let summary = summarize(&table);
        let view = TableView {
            misere: Some(&summary),
            ..TableView::new("g")
        };
        let mut out = Vec::new();
        write_valued(&mut out, &Valued::Misere(table), format, &view).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_matrix_of_a_misere_table_is_a_typed_refusal() {
        let game = game("octal 0.77");
        let table = Valued::Misere(misere::table(&game, &[3], None).unwrap());
        let mut out = Vec::new();
        let error = write_valued(&mut out, &table, Format::Matrix, &TableView::new("g"));
        assert!(
            matches!(
                error,
                Err(ExportError::Unsupported {
                    format: Format::Matrix,
                    kind: TableKind::Misere
                })
            ),
            "{error:?}"
        );
        assert!(out.is_empty(), "nothing written");
        for format in [Format::Text, Format::Csv, Format::Json] {
            assert!(format.check(TableKind::Misere).is_ok(), "{format:?}");
        }
    }

    #[test]
    fn csv_has_the_documented_header_and_one_row_per_heap() {
        let csv = render("octal 0.77", 5, Format::Csv);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "n,sg,misere_sg,genus");
        assert_eq!(lines.len(), 7);
        // Kayles: G(5) = 4 (Guy–Smith 1956); its genus 4^{146} has G⁻ = 1.
        assert_eq!(lines[6], "5,4,1,4^{146}");
    }

    #[test]
    fn json_parses_with_every_field() {
        let json = render("octal 0.77", 6, Format::Json);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["play"], "misere");
        let positions = value["positions"].as_array().unwrap();
        assert_eq!(positions.len(), 7);
        assert_eq!(positions[0]["misere_sg"], 1);
        assert_eq!(positions[0]["misere_outcome"], "N");
        assert_eq!(positions[5]["genus_superscripts"], json!([1, 4, 6]));
        assert_eq!(value["first_wild"], 5);
    }

    #[test]
    fn text_marks_misere_p_positions() {
        // Nim heaps: G⁻(1) = 0, every other heap's G⁻ is its size (Bouton).
        let text = render("move take: x in 1..=n => n - x", 3, Format::Text);
        let marked: Vec<&str> = text.lines().filter(|l| l.contains('*')).collect();
        assert!(marked[0].trim_start().starts_with("1 "), "{text}");
        assert!(text.contains("every heap shown is tame"), "{text}");
    }
}
