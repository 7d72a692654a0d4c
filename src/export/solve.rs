//! The text and the JSON of a [`SolveReport`]: the position, its value or the criterion that
//! decides it, who wins, and the winning moves (the smallest take first).
//!
//! The JSON is one object: `play` (`"normal"` or `"misere"`), `position` (the components: heaps
//! as numbers, a position game's tuples as arrays), `outcome` (`"N"`: the player to move wins;
//! `"P"`: the player to move loses), `value` (normal play: the sum's SG value, the XOR of the
//! components'; misère play: `G⁻` of the sum; `null` when a pattern decided it), `genus`
//! (misère play only: the sum's genus, e.g. `"4^{146}"`), `method` (how it was decided, in
//! words), `rests_on_lowering` (misère play only: true when the genera are Nim's by the
//! theorem for heaps beyond the bound up to which rules lowered to Nim's code were checked,
//! so that the answer rests on the lowering argument), `winning_moves` (in the text's order; each `component`, 1-based as in the text's
//! `component 2:`, `rule` (the rule's name, `null` for an unnamed rule or a code), `by` (the
//! rule as the text names it), `binders` (name → value), `result` (the components the moved
//! one becomes, like `position`)), `complete` (`false` when the list may miss winning moves:
//! capped per component, a search beyond the box cut short — its skipped binder values in
//! `search.unsearched` —, or moves to sums a pattern cannot decide), and beyond the box
//! `search` (how the moves were searched) and, when a pattern of the box's smallest winning
//! moves holds, `smallest_winning_move` (`observed_on_the_box`: always true, it is not
//! proved; `claimed`: whether the move it names leaves a P-position by the criterion and
//! nothing smaller was found; `pattern`, `value`, `move`). A sum valued by a proof
//! ([`Method::Proved`]) adds `capped` (each component with more winning moves than are listed:
//! its 1-based `component`, `total` and `listed`) and `unsearched_from` (the first 1-based
//! component whose moves were not searched, or `null`). A sum valued over the positions
//! reachable from it ([`Method::Reachable`]) adds `reachable_positions` (how many were valued).
//!
//! The text abbreviates a sum of more than [`SHOWN_COMPONENTS`] components (its first and last
//! few, and the count); the JSON keeps every component.

use std::io::{self, Write};

use serde_json::{json, Map, Value};

use crate::engine::multi::show_position;
use crate::solve::beyond::{ObservedMove, ObservedVerdict};
use crate::solve::sums::Valuation;
use crate::solve::{show_sum, GameMove, Genera, Method, MoveSearch, SolveReport};
use crate::value::Outcome;

/// A sum of more components than this is abbreviated in the text: its first
/// [`SHOWN_HEAD`] and last [`SHOWN_TAIL`] components, and how many there are.
pub const SHOWN_COMPONENTS: usize = 12;

/// Components shown before the `…` of an abbreviated sum.
pub const SHOWN_HEAD: usize = 6;

/// Components shown after the `…` of an abbreviated sum.
pub const SHOWN_TAIL: usize = 3;

/// `a + b + c`, or for more than [`SHOWN_COMPONENTS`] components `a + b + … + z (10000
/// components)`.
pub fn show_sum_short(parts: &[Vec<u64>]) -> String {
    if parts.len() <= SHOWN_COMPONENTS {
        return show_sum(parts);
    }
    format!(
        "{} + … + {} ({} components)",
        show_sum(&parts[..SHOWN_HEAD]),
        show_sum(&parts[parts.len() - SHOWN_TAIL..]),
        parts.len()
    )
}

/// Whether every winning move is listed (see the module documentation's `complete`).
pub fn complete(report: &SolveReport) -> bool {
    let proved = match &report.method {
        Method::Proved {
            capped,
            unsearched_from,
            ..
        } => capped.is_empty() && unsearched_from.is_none(),
        _ => true,
    };
    proved && report.complete()
}

/// The first line of a report of a sum valued by a proof whose winning moves are listed in
/// part: which components were capped or not searched. `None` when every move is listed.
fn incomplete_text(report: &SolveReport) -> Option<String> {
    let Method::Proved {
        capped,
        unsearched_from,
        ..
    } = &report.method
    else {
        return None;
    };
    let mut parts = Vec::new();
    let shown = crate::solve::sums::MOVES_PER_COMPONENT;
    let in_all = crate::solve::sums::MOVES_LISTED;
    match capped.as_slice() {
        [] => {}
        [one] => parts.push(format!(
            "component {} has {} winning moves, only the first {} are listed",
            one.component + 1,
            one.total,
            one.listed
        )),
        many => parts.push(format!(
            "{} components have more winning moves than are listed (component {} has {}, the first {} listed); at most {shown} are listed for each component and {in_all} in all",
            many.len(),
            many[0].component + 1,
            many[0].total,
            many[0].listed
        )),
    }
    if let Some(first) = unsearched_from {
        parts.push(format!(
            "the search for winning moves ran out of work: components {}..={} were not searched",
            first + 1,
            report.components.len()
        ));
    }
    (!parts.is_empty()).then(|| format!("incomplete: {}", parts.join("; ")))
}

/// A move's binders as a JSON object, name → value (shared with [`super::loopy`]).
pub(super) fn binders_json(binders: &[(String, i64)]) -> Map<String, Value> {
    binders.iter().map(|(n, v)| (n.clone(), json!(v))).collect()
}

/// Winning moves printed beyond the box (the first found, smallest first; the rest are counted).
pub const SHOWN_MOVES: usize = 20;

/// Writes `report` as `sgscope solve` prints it.
pub fn write_text(out: &mut dyn Write, report: &SolveReport) -> io::Result<()> {
    match (&report.method, &report.search) {
        (Method::Criterion { .. }, Some(search)) => {
            let position = &report.components[0];
            write_header(out, position, &report.method)?;
            let searched = searched(search);
            match report.outcome {
                Outcome::P => writeln!(
                    out,
                    "the first player loses: a P-position by the pattern ({searched}, none to a P-position)"
                ),
                // A sum of a game that cannot cycle is never a draw.
                Outcome::N | Outcome::D => {
                    writeln!(out, "the first player wins: an N-position by the pattern")?;
                    if let Some(observed) = &search.smallest {
                        writeln!(out, "{}", observed_text(observed))?;
                    }
                    let found = &report.winning_moves;
                    if found.is_empty() {
                        return writeln!(
                            out,
                            "no winning move found ({searched}): the pattern says one exists further on"
                        );
                    }
                    if report.complete() {
                        writeln!(
                            out,
                            "winning moves by the pattern ({}; every move examined: {searched}):",
                            found.len()
                        )?;
                    } else {
                        writeln!(
                            out,
                            "incomplete list of winning moves ({} found; {searched}):",
                            found.len()
                        )?;
                    }
                    let shown = &found[..found.len().min(SHOWN_MOVES)];
                    write_moves(out, &report.components, shown)?;
                    if found.len() > SHOWN_MOVES {
                        writeln!(out, "  … {} more", found.len() - SHOWN_MOVES)?;
                    }
                    Ok(())
                }
            }
        }
        (Method::Quotient { .. }, _) => {
            writeln!(out, "position: {}", show_sum_short(&report.components))?;
            writeln!(out, "misère play, {}", method_text(report))?;
            if report.outcome == Outcome::P {
                return writeln!(
                    out,
                    "the first player loses: a misère P-position (every move leads to an N-position)"
                );
            }
            if report.winning_moves.is_empty() {
                return writeln!(
                    out,
                    "the first player wins: no move is left, and in misère play the player who cannot move wins"
                );
            }
            writeln!(out, "the first player wins")?;
            writeln!(out, "winning moves ({}):", report.winning_moves.len())?;
            write_moves(out, &report.components, &report.winning_moves)
        }
        _ if report.misere() => {
            writeln!(out, "position: {}", show_sum_short(&report.components))?;
            writeln!(out, "misère play, {}", method_text(report))?;
            let value = report.value.unwrap_or(0);
            let genus = report
                .genus
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            if report.outcome == Outcome::P {
                return writeln!(
                    out,
                    "G⁻ = {value} (genus {genus}): the first player loses (every move leads to a sum with G⁻ ≠ 0)"
                );
            }
            if report.winning_moves.is_empty() {
                return writeln!(
                    out,
                    "G⁻ = {value} (genus {genus}): the first player wins: no move is left, and in misère play the player who cannot move wins"
                );
            }
            writeln!(out, "G⁻ = {value} (genus {genus}): the first player wins")?;
            writeln!(out, "winning moves ({}):", report.winning_moves.len())?;
            write_moves(out, &report.components, &report.winning_moves)
        }
        _ => {
            if let Some(note) = incomplete_text(report) {
                writeln!(out, "{note}")?;
            }
            writeln!(out, "position: {}", show_sum_short(&report.components))?;
            if let Method::Proved { .. } | Method::Reachable { .. } = report.method {
                writeln!(out, "{}", method_text(report))?;
            }
            let value = report.value.unwrap_or(0);
            if report.outcome == Outcome::P {
                return writeln!(
                    out,
                    "G = {value}: the first player loses (every move leads to a non-zero value)"
                );
            }
            writeln!(out, "G = {value}: the first player wins")?;
            if complete(report) {
                writeln!(out, "winning moves ({}):", report.winning_moves.len())?;
            } else {
                writeln!(
                    out,
                    "winning moves ({} listed):",
                    report.winning_moves.len()
                )?;
            }
            write_moves(out, &report.components, &report.winning_moves)
        }
    }
}

/// The first lines of a position decided by a criterion: the position, and the criterion with
/// the box it holds on (also printed before an error found after them).
pub fn write_header(out: &mut dyn Write, position: &[u64], method: &Method) -> io::Result<()> {
    writeln!(out, "position: {}", show_position(position))?;
    if let Method::Criterion {
        description,
        box_text,
        ..
    } = method
    {
        writeln!(
            out,
            "by the pattern: {description}, which holds on every position of {box_text} (not proved beyond)"
        )?;
    }
    Ok(())
}

/// "not searched: t = 1000001..=999999999998999999 of `first`; 1999998 moves examined; …":
/// what the search of the moves skipped first, then what it examined.
fn searched(search: &MoveSearch) -> String {
    let mut parts = Vec::new();
    if !search.unsearched.is_empty() {
        let skipped: Vec<String> = search.unsearched.iter().map(|u| u.describe()).collect();
        parts.push(format!(
            "not searched: {} (past the cap of {} steps from each end of a rule)",
            skipped.join(", "),
            search.cap
        ));
    }
    parts.push(format!("{} moves examined", search.examined));
    if search.to_sums > 0 {
        parts.push(format!(
            "{} lead to sums, which the pattern cannot decide",
            search.to_sums
        ));
    }
    parts.join("; ")
}

/// The line on the smallest winning move a pattern of the box names: claimed (observed on the
/// box, checked here by the P-position pattern) or not, and why.
fn observed_text(observed: &ObservedMove) -> String {
    let pattern = format!(
        "{}, on every one of {} N-positions of {}",
        observed.pattern, observed.checked, observed.box_text
    );
    let value = observed
        .value
        .map_or_else(|| "no value".to_string(), |v| v.to_string());
    match (observed.verdict, &observed.winning_move) {
        (ObservedVerdict::LeavesP, Some(m)) => format!(
            "smallest winning move, observed on the box: {}{} ({pattern}; not proved beyond the \
             box; the move leaves a P-position by the pattern)",
            m.rule,
            binders_text(&m.binders)
        ),
        (verdict, _) => {
            let why = match verdict {
                ObservedVerdict::NoValue => "it has no value here",
                ObservedVerdict::NoSuchMove => "no rule has such a move here",
                ObservedVerdict::NotP => "that move does not leave a P-position by the pattern",
                _ => "the search found a smaller winning move",
            };
            format!(
                "the smallest winning move observed on the box ({pattern}) would be {value} here, \
                 not claimed: {why}"
            )
        }
    }
}

/// `moves` in the order they are printed, the smallest take first: by binder values, then
/// component and rule.
fn sorted(moves: &[GameMove]) -> Vec<&GameMove> {
    let mut moves: Vec<&GameMove> = moves.iter().collect();
    moves.sort_by(|a, b| {
        a.binders
            .iter()
            .map(|b| b.1)
            .cmp(b.binders.iter().map(|b| b.1))
            .then(a.component.cmp(&b.component))
            .then(a.rule.cmp(&b.rule))
    });
    moves
}

/// How the report was decided, in words: `exact SG values of the heaps 0..=7`, `by the tame
/// rule: …`, `by the search over sums: …`, `by the pattern: …`.
pub fn method_text(report: &SolveReport) -> String {
    match &report.method {
        Method::ExactTable { extents } => {
            let heap_game = report.coordinates.len() == 1 && report.components[0].len() == 1;
            let range: Vec<String> = extents.iter().map(|e| format!("0..={e}")).collect();
            if heap_game {
                format!("exact SG values of the heaps {}", range.join(""))
            } else {
                format!("exact SG values of the box {}", range.join(" × "))
            }
        }
        Method::Reachable { positions } => format!(
            "exact SG values of the {positions} positions reachable from the position asked (a memoised search, no box)"
        ),
        Method::Criterion {
            description,
            box_text,
            ..
        } => format!(
            "by the pattern: {description}, which holds on every position of {box_text} (not proved beyond)"
        ),
        Method::Proved {
            valuation, lowered, ..
        } => {
            let text = match valuation {
                Valuation::Nim { code } => {
                    format!("by G(n) = n: the code {code} is Nim (Bouton 1901)")
                }
                Valuation::Period {
                    code,
                    preperiod,
                    period,
                    computed,
                    proof,
                } => format!(
                    "by the proved period of the code {code}: G(n + {period}) = G(n) for every n ≥ {preperiod} (proved by {proof}; G(0..={}) computed)",
                    computed.saturating_sub(1)
                ),
                Valuation::Table { code, computed } => format!(
                    "exact SG values of the heaps 0..={} (the code {code}; no period proved in that table)",
                    computed.saturating_sub(1)
                ),
            };
            if *lowered {
                format!("{text}; the rules' values are the code's (they were lowered to it)")
            } else {
                text
            }
        }
        Method::TameRule { sums, genera } => {
            let how = match genera {
                Genera::Search => format!("{} valued", plural(*sums, "sum")),
                Genera::Recursion { positions } => format!(
                    "genera of {} by the recursion on options, no search over sums",
                    plural(*positions, "position")
                ),
                Genera::Nim {
                    code,
                    checked_to,
                    largest,
                } => {
                    let mut text = format!(
                        "the game is Nim (code {code}), whose heaps have the genera 0^{{120}}, 1^{{031}} and n^{{n(n⊕2)}} for n ≥ 2 (ONAG ch. 12), no search over sums"
                    );
                    if let Some(v) = checked_to.filter(|v| largest > v) {
                        text.push_str(&format!(
                            "; the rules' moves were checked equal to the code's for every heap ≤ {v} when loading, and beyond {v} they are the code's by the lowering argument (not checked)"
                        ));
                    }
                    text
                }
            };
            format!("by the tame rule: every component is tame (Conway, ONAG ch. 12); {how}")
        }
        Method::OptionRecursion { positions } => format!(
            "by the recursion on options: one component, which is not tame, valued from its options' genera (no search over sums); {} valued",
            plural(*positions, "position")
        ),
        Method::Quotient {
            max_heap,
            order,
            p_portion,
        } => format!(
            "by the misère quotient of the heaps ≤ {max_heap} (Plambeck–Siegel; order {order}, P-portion of {}, proved before use); G⁻ of the sum is not computed",
            plural(*p_portion, "element"),
        ),
        Method::SumSearch { sums, wild, bound } => {
            let why = if wild.is_empty() {
                "without tame addition".to_string()
            } else {
                wild_text(wild)
            };
            let bound = match bound {
                Some(b) if *b < u128::MAX => format!(" (at most {b} possible)"),
                _ => String::new(),
            };
            format!(
                "by the search over sums: {why}; {} of components valued{bound}",
                plural(*sums, "sum")
            )
        }
    }
}

/// `component 2 is wild` / `components 1, 2 are wild` (1-based).
fn wild_text(wild: &[usize]) -> String {
    match wild {
        [one] => format!("component {} is wild", one + 1),
        many => format!(
            "components {} are wild",
            many.iter()
                .map(|i| (i + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Writes `report` as one JSON object (the module documentation lists its fields), ending with
/// a newline.
pub fn write_json(out: &mut dyn Write, report: &SolveReport) -> io::Result<()> {
    let heap_game = report.coordinates.len() == 1;
    let component = |c: &Vec<u64>| -> Value {
        if heap_game {
            json!(c[0])
        } else {
            json!(c)
        }
    };
    // One move at a time, as it is written: a sum of 10^5 heaps has tens of thousands.
    let move_json = |m: &GameMove| -> Value {
        let name = m
            .rule
            .strip_prefix('`')
            .and_then(|r| r.strip_suffix('`'))
            .map(str::to_string);
        let binders = binders_json(&m.binders);
        json!({
            "component": m.component + 1,
            "rule": name,
            "by": m.rule,
            "binders": binders,
            "result": m.result.iter().map(component).collect::<Vec<_>>(),
        })
    };
    let mut object = Map::new();
    let play = if report.misere() { "misere" } else { "normal" };
    object.insert("play".into(), json!(play));
    object.insert("outcome".into(), json!(report.outcome.to_string()));
    object.insert("value".into(), json!(report.value));
    if let Some(genus) = &report.genus {
        object.insert("genus".into(), json!(genus.to_string()));
    }
    object.insert("method".into(), json!(method_text(report)));
    if report.misere() {
        let rests =
            matches!(&report.method, Method::TameRule { genera, .. } if genera.rests_on_lowering());
        object.insert("rests_on_lowering".into(), json!(rests));
    }
    object.insert("complete".into(), json!(complete(report)));
    if let Method::Reachable { positions } = &report.method {
        object.insert("reachable_positions".into(), json!(positions));
    }
    if let Method::Proved {
        capped,
        unsearched_from,
        ..
    } = &report.method
    {
        let capped: Vec<Value> = capped
            .iter()
            .map(|c| json!({"component": c.component + 1, "total": c.total, "listed": c.listed}))
            .collect();
        object.insert("capped".into(), Value::Array(capped));
        object.insert(
            "unsearched_from".into(),
            json!(unsearched_from.map(|i| i + 1)),
        );
    }
    if let Some(search) = &report.search {
        object.insert("search".into(), json!(search));
        if let Some(observed) = &search.smallest {
            object.insert(
                "smallest_winning_move".into(),
                json!({
                    "observed_on_the_box": true,
                    "claimed": observed.verdict == ObservedVerdict::LeavesP,
                    "verdict": observed.verdict,
                    "pattern": observed.pattern,
                    "function": observed.function,
                    "box": observed.box_text,
                    "n_positions_checked": observed.checked,
                    "value": observed.value,
                    "move": observed.winning_move.as_ref().map(move_json),
                }),
            );
        }
    }
    // The object's keys in serde_json's order (sorted), the two long arrays written element by
    // element, without a tree of the whole report in memory.
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.extend(["position", "winning_moves"]);
    keys.sort_unstable();
    write!(out, "{{")?;
    for (i, key) in keys.into_iter().enumerate() {
        if i > 0 {
            write!(out, ",")?;
        }
        serde_json::to_writer(&mut *out, key)?;
        write!(out, ":")?;
        match key {
            "position" => write_array(out, report.components.iter().map(component))?,
            "winning_moves" => write_array(
                out,
                sorted(&report.winning_moves).into_iter().map(move_json),
            )?,
            _ => serde_json::to_writer(&mut *out, &object[key])?,
        }
    }
    writeln!(out, "}}")
}

/// `[a,b,…]` in serde_json's compact form, one element at a time.
fn write_array(out: &mut dyn Write, items: impl Iterator<Item = Value>) -> io::Result<()> {
    write!(out, "[")?;
    for (i, item) in items.enumerate() {
        if i > 0 {
            write!(out, ",")?;
        }
        serde_json::to_writer(&mut *out, &item)?;
    }
    write!(out, "]")
}

/// `moves` in the printed order.
fn write_moves(out: &mut dyn Write, components: &[Vec<u64>], moves: &[GameMove]) -> io::Result<()> {
    for m in sorted(moves) {
        let place = if components.len() > 1 {
            format!("component {}: ", m.component + 1)
        } else {
            String::new()
        };
        let binders = binders_text(&m.binders);
        writeln!(
            out,
            "  {place}{} → {}   by {}{binders}",
            show_position(&components[m.component]),
            show_sum(&m.result),
            m.rule
        )?;
    }
    Ok(())
}

/// `, x = 1, y = 2`: a move's binder values after its rule's name.
pub(crate) fn binders_text(binders: &[(String, i64)]) -> String {
    binders
        .iter()
        .map(|(n, v)| format!(", {n} = {v}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load, Game, SourceFile};
    use crate::solve::solve;

    fn game(path: &str) -> Game {
        let text = std::fs::read_to_string(path).unwrap();
        load(SourceFile::new(path, &text), &[]).unwrap()
    }

    fn text(report: &SolveReport) -> String {
        let mut out = Vec::new();
        write_text(&mut out, report).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn exact_reports() {
        let nim = solve(&game("rules/nim.sg"), &[vec![3], vec![5], vec![7]]).unwrap();
        assert_eq!(
            text(&nim),
            "position: 3 + 5 + 7\nG = 1: the first player wins\nwinning moves (3):\n  \
             component 1: 3 → 2   by `take`, x = 1\n  component 2: 5 → 4   by `take`, x = 1\n  \
             component 3: 7 → 6   by `take`, x = 1\n"
        );
        let wythoff = solve(&game("rules/wythoff.sg"), &[vec![3, 4], vec![5, 2]]).unwrap();
        assert_eq!(
            text(&wythoff),
            "position: (3, 4) + (5, 2)\nG = 6: the first player wins\nwinning moves (3):\n  \
             component 1: (3, 4) → (0, 4)   by `take_x`, t = 3\n  component 1: (3, 4) → (3, 1)   \
             by `take_y`, t = 3\n  component 2: (5, 2) → (0, 2)   by `take_x`, t = 5\n"
        );
        let mut out = Vec::new();
        write_json(&mut out, &wythoff).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["complete"], true);
        assert!(json.get("smallest_winning_move").is_none());
        let p = solve(&game("rules/wythoff.sg"), &[vec![3, 5]]).unwrap();
        assert_eq!(
            text(&p),
            "position: (3, 5)\nG = 0: the first player loses (every move leads to a non-zero value)\n"
        );
    }

    #[test]
    fn misere_reports() {
        let nim = load(SourceFile::new("t", "move take: x in 1..=n => n - x"), &[]).unwrap();
        let heaps = |h: &[u64]| h.iter().map(|&h| vec![h]).collect::<Vec<_>>();
        let n = crate::solve::solve_misere(&nim, &heaps(&[2, 2, 3]), Default::default()).unwrap();
        assert_eq!(
            text(&n),
            "position: 2 + 2 + 3\nmisère play, by the tame rule: every component is tame \
             (Conway, ONAG ch. 12); the game is Nim (code 0.[3]), whose heaps have the genera \
             0^{120}, 1^{031} and n^{n(n⊕2)} for n ≥ 2 (ONAG ch. 12), no search over sums\n\
             G⁻ = 3 (genus 3^{31}): the first player wins\nwinning moves (3):\n  component 1: 2 → 1   by `take`, x = 1\n  \
             component 2: 2 → 1   by `take`, x = 1\n  component 3: 3 → nothing   by `take`, \
             x = 3\n"
        );
        let p = crate::solve::solve_misere(&nim, &heaps(&[1, 1, 1]), Default::default()).unwrap();
        assert!(text(&p).ends_with(
            "G⁻ = 0 (genus 1^{031}): the first player loses (every move leads to a sum with G⁻ ≠ 0)\n"
        ));
        let empty = crate::solve::solve_misere(&nim, &heaps(&[0]), Default::default()).unwrap();
        assert!(text(&empty).contains("no move is left"));
        let json: serde_json::Value = {
            let mut out = Vec::new();
            write_json(&mut out, &n).unwrap();
            serde_json::from_slice(&out).unwrap()
        };
        assert_eq!(json["genus"], "3^{31}");
        assert_eq!(json["winning_moves"][2]["result"], serde_json::json!([]));
        assert_eq!(json["rests_on_lowering"], false);
        // Nim as rules is Nim at every heap (lowered by its thresholds): nothing rests on
        // the lowering argument.
        let big = crate::solve::solve_misere(&nim, &heaps(&[100, 3]), Default::default()).unwrap();
        assert!(!text(&big).contains("lowering argument"), "{}", text(&big));
        // Spelled with a second binder, it lowers by the check up to 68: heaps past it rest on
        // the lowering argument, and the report says so.
        let nim = load(
            SourceFile::new("t", "move take: x in 1..=n, y in 0..=0 => n - x - y"),
            &[],
        )
        .unwrap();
        assert_eq!(nim.lowering().and_then(|l| l.checked_to()), Some(68));
        let big = crate::solve::solve_misere(&nim, &heaps(&[100, 3]), Default::default()).unwrap();
        assert!(text(&big)
            .contains("beyond 68 they are the code's by the lowering argument (not checked)"));
        let json: serde_json::Value = {
            let mut out = Vec::new();
            write_json(&mut out, &big).unwrap();
            serde_json::from_slice(&out).unwrap()
        };
        assert_eq!(json["rests_on_lowering"], true);
    }

    #[test]
    fn beyond_the_box() {
        let fib = solve(
            &game("rules/fibonacci-nim.sg"),
            &[vec![1_000_000_000_000_000, 0]],
        )
        .unwrap();
        let text = text(&fib);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "position: (1000000000000000, 0)");
        assert_eq!(
            lines[1],
            "by the pattern: limit < the smallest term of n's Zeckendorf sum (every limit when n \
             = 0) when limit ≠ 0; when limit = 0, only n = 0, which holds on every position of \
             0 ≤ n ≤ 127, 0 ≤ limit ≤ 127 (not proved beyond)"
        );
        assert_eq!(
            lines[2],
            "the first player wins: an N-position by the pattern"
        );
        // The smallest term of 10^15's Zeckendorf sum is 3 (10^15 = … + 5 + 3, by hand from
        // the greedy sum): named by the pattern of the box, and found by the search too.
        assert!(
            lines[3].starts_with(
                "smallest winning move, observed on the box: `first`, t = 3 (t = the smallest \
                 term of n's Zeckendorf sum"
            ),
            "{}",
            lines[3]
        );
        // The list may miss moves: its first line says so, and what was not searched.
        assert_eq!(
            lines[4],
            "incomplete list of winning moves (7 found; not searched: t = 250000..=\
             999999999750001 of `first` (past the cap of 250000 steps from each end of a \
             rule); 499998 moves examined):"
        );
        assert_eq!(
            lines[5],
            "  (1000000000000000, 0) → (999999999999997, 6)   by `first`, t = 3"
        );
        assert_eq!(
            lines[11],
            "  (1000000000000000, 0) → (0, 0)   by `first`, t = 1000000000000000"
        );
        assert_eq!(lines.len(), 12);
        assert!(!text.contains("\nwinning moves"), "{text}");
        let json: serde_json::Value = {
            let mut out = Vec::new();
            write_json(&mut out, &fib).unwrap();
            serde_json::from_slice(&out).unwrap()
        };
        assert_eq!(json["complete"], false);
        assert_eq!(
            json["search"]["unsearched"][0]["after"],
            serde_json::json!([249_999])
        );
        assert_eq!(json["smallest_winning_move"]["observed_on_the_box"], true);
        assert_eq!(json["smallest_winning_move"]["claimed"], true);
        assert_eq!(json["smallest_winning_move"]["move"]["binders"]["t"], 3);
    }
}
