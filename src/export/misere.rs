//! A misère table ([`MisereTable`]) in text, CSV or JSON: each position's normal value `sg`,
//! misère Grundy value `misere_sg` (`G⁻`) and genus, side by side.
//!
//! * CSV: `n,sg,misere_sg,genus` for a heap game; the coordinates' names and then the same
//!   columns for a position game. A genus with two-digit superscripts (`12^{1,12,14}`) is
//!   quoted.
//! * JSON: `{"game", "play": "misere", "coordinates", "extents", "positions": [{…}], …}`, each
//!   position with its coordinates by name, `sg`, `misere_sg`, `genus`, `genus_superscripts`
//!   (the full list `γ0 γ1 …` up to the alternating tail), `tame` and `misere_outcome`; then
//!   the summary: `p_positions` (misère), `first_wild`, `genus_period`, `misere_period`.
//! * text: one line per position, misère P-positions (`G⁻ = 0`: the player to move loses)
//!   marked with `*`, wild positions with `wild`, and the summary below.

use std::io::{self, Write};

use serde_json::json;

use super::Format;
use crate::analysis::misere::MisereSummary;
use crate::analysis::Periodicity;
use crate::value::misere::quotient::{Quotient, Step};
use crate::value::misere::MisereTable;

/// Writes `table` in `format` (text, csv or json; a matrix is refused by the caller).
pub fn write_table(
    out: &mut dyn Write,
    table: &MisereTable,
    summary: &MisereSummary,
    format: Format,
    game: &str,
) -> io::Result<()> {
    match format {
        Format::Csv => write_csv(out, table),
        Format::Json => write_json(out, table, summary, game),
        Format::Text | Format::Matrix => write_text(out, table, summary),
    }
}

fn write_csv(out: &mut dyn Write, table: &MisereTable) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    writeln!(out, "{},sg,misere_sg,genus", table.coordinates.join(","))?;
    for (index, cell) in table.cells.iter().enumerate() {
        let position = table.position_of(index);
        let genus = cell.genus.to_string();
        let genus = if genus.contains(',') {
            format!("\"{genus}\"")
        } else {
            genus
        };
        let coordinates: Vec<String> = position.iter().map(u64::to_string).collect();
        writeln!(
            out,
            "{},{},{},{genus}",
            coordinates.join(","),
            cell.normal(),
            cell.misere()
        )?;
    }
    out.flush()
}

fn periodicity_json(found: &Option<Periodicity>) -> serde_json::Value {
    match found {
        Some(p) => json!({"preperiod": p.preperiod, "period": p.period, "saltus": p.saltus}),
        None => serde_json::Value::Null,
    }
}

fn write_json(
    out: &mut dyn Write,
    table: &MisereTable,
    summary: &MisereSummary,
    game: &str,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    write!(out, "{{\"game\":")?;
    serde_json::to_writer(&mut out, game)?;
    write!(out, ",\"play\":\"misere\",\"coordinates\":")?;
    serde_json::to_writer(&mut out, &table.coordinates)?;
    write!(out, ",\"extents\":")?;
    serde_json::to_writer(&mut out, &table.extents)?;
    write!(out, ",\"positions\":[")?;
    for (index, cell) in table.cells.iter().enumerate() {
        if index > 0 {
            write!(out, ",")?;
        }
        let mut item = serde_json::Map::new();
        for (name, value) in table.coordinates.iter().zip(table.position_of(index)) {
            item.insert(name.clone(), json!(value));
        }
        item.insert("sg".into(), json!(cell.normal()));
        item.insert("misere_sg".into(), json!(cell.misere()));
        item.insert("genus".into(), json!(cell.genus.to_string()));
        item.insert(
            "genus_superscripts".into(),
            json!(cell.genus.superscripts()),
        );
        item.insert("tame".into(), json!(cell.is_tame()));
        item.insert("species".into(), json!(cell.species));
        item.insert("misere_outcome".into(), json!(cell.outcome().to_string()));
        serde_json::to_writer(&mut out, &item)?;
    }
    write!(out, "],\"p_positions\":{}", summary.p_positions)?;
    write!(out, ",\"first_wild\":")?;
    serde_json::to_writer(&mut out, &summary.first_wild)?;
    write!(out, ",\"genus_period\":")?;
    serde_json::to_writer(&mut out, &periodicity_json(&summary.genus_period))?;
    write!(out, ",\"misere_period\":")?;
    serde_json::to_writer(&mut out, &periodicity_json(&summary.misere_period))?;
    writeln!(out, "}}")?;
    out.flush()
}

fn write_text(out: &mut dyn Write, table: &MisereTable, summary: &MisereSummary) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let positions: Vec<String> = (0..table.cells.len())
        .map(|index| {
            let position = table.position_of(index);
            if position.len() == 1 {
                position[0].to_string()
            } else {
                crate::engine::multi::show_position(&position)
            }
        })
        .collect();
    let name = if table.coordinates.len() == 1 {
        table.coordinates[0].clone()
    } else {
        format!("({})", table.coordinates.join(", "))
    };
    let width = positions
        .iter()
        .map(|p| p.chars().count())
        .chain([name.chars().count()])
        .max()
        .unwrap_or(1);
    let genera: Vec<String> = table.cells.iter().map(|c| c.genus.to_string()).collect();
    let genus_width = genera.iter().map(String::len).chain([5]).max().unwrap_or(5);
    writeln!(out, "{name:>width$}  sg  G⁻   genus")?;
    for ((position, cell), genus) in positions.iter().zip(&table.cells).zip(&genera) {
        let mark = if cell.misere() == 0 { "*" } else { " " };
        let species = if cell.is_tame() {
            String::new()
        } else {
            format!("  {}", cell.species.word())
        };
        let line = format!(
            "{position:>width$}  {:>2}  {:>2}{mark}  {genus:<genus_width$}{species}",
            cell.normal(),
            cell.misere(),
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(
        out,
        "* misère P-position (G⁻ = 0: the player to move loses); {} of {} positions",
        summary.p_positions, summary.positions
    )?;
    let kind = if table.heap_game { "heap" } else { "position" };
    match summary.first_wild {
        None => writeln!(
            out,
            "every {kind} shown is tame: sums of them are won as in misère Nim (Conway's tame rule)"
        )?,
        Some(index) => {
            writeln!(
                out,
                "first wild {kind}: {} (genus {}, {}); a wild position is one with a position whose genus is not that of a Nim sum",
                positions[index],
                genera[index],
                table.cells[index].species.word()
            )?;
            writeln!(
                out,
                "restive / restless: not tame, but every option is tame, with normal value ≤ 1 / misère value ≤ 1 (Winning Ways ch. 13)"
            )?;
        }
    }
    if table.heap_game {
        match &summary.genus_period {
            Some(p) => writeln!(
                out,
                "genus sequence: period {} from n = {} (seen in this table, not proved)",
                p.period, p.preperiod
            )?,
            None => writeln!(out, "genus sequence: no period found in this table")?,
        }
    }
    out.flush()
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
    use crate::rules::testing::game;
    use crate::value::misere;

    fn render(text: &str, to: u64, format: Format) -> String {
        let game = game(text);
        let table = misere::table(&game, &[to], None).unwrap();
        let mut out = Vec::new();
        write_table(&mut out, &table, &summarize(&table), format, "g").unwrap();
        String::from_utf8(out).unwrap()
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
