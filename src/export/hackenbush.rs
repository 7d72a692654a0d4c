//! `solve`'s report on a green Hackenbush position ([`HackenbushReport`]): its value and
//! winning cuts.
//! The table of every node's value is written by the format modules, like every kind of table.
//!
//! * `solve --json`: `{"play": "normal", "outcome", "value", "winning_moves": [{"cut": [U, V],
//!   "edge", "result"}], "method", "complete"}`, `edge` the edge's 1-based place among the
//!   file's edges, `result` 0 (the value a winning cut leaves); `complete` is false when the
//!   work budget ran out before every cut of an edge on a cycle was checked, and the edges
//!   not searched are then listed as `unsearched` (1-based).

use std::io::{self, Write};

use serde_json::{json, Value};

use crate::solve::hackenbush::HackenbushReport;

/// How `solve` decided a Hackenbush position, in words.
pub const METHOD: &str = "green Hackenbush by the colon and fusion principles (Winning Ways ch. 7): cycles fused to loops, then SG(v) = XOR over the branches c of (SG(c) + 1)";

/// Writes `solve`'s answer for the position alone: its value, who wins, every winning cut.
pub fn write_solve(
    out: &mut dyn Write,
    report: &HackenbushReport,
    json_output: bool,
) -> io::Result<()> {
    let value = report.value;
    let cuts = &report.winning;
    let unsearched = &report.unsearched;
    let complete = report.complete();
    let edges = &report.edges;
    let cut_of = |e: usize| {
        let (u, v) = edges[e];
        (report.name(u), report.name(v))
    };
    if json_output {
        let moves: Vec<Value> = cuts
            .iter()
            .map(|&e| {
                let (u, v) = cut_of(e);
                // A winning cut leaves 0 (the position alone is searched for cuts to 0).
                json!({"cut": [u, v], "edge": e + 1, "result": 0})
            })
            .collect();
        let mut object = json!({
            "play": "normal",
            "outcome": if value == 0 { "P" } else { "N" },
            "value": value,
            "method": METHOD,
            "winning_moves": moves,
            "complete": complete,
        });
        if !complete {
            object["unsearched"] = json!(unsearched.iter().map(|&e| e + 1).collect::<Vec<_>>());
        }
        serde_json::to_writer(&mut *out, &object)?;
        return writeln!(out);
    }
    writeln!(
        out,
        "position: a hackenbush graph of {} nodes and {} edges, ground {}",
        report.names.len(),
        edges.len(),
        report.name(report.ground)
    )?;
    writeln!(out, "{METHOD}")?;
    if value == 0 {
        return writeln!(
            out,
            "G = 0: the first player loses (every cut leaves a non-zero value)"
        );
    }
    writeln!(out, "G = {value}: the first player wins")?;
    if complete {
        writeln!(out, "winning cuts ({}):", cuts.len())?;
    } else {
        let shown: Vec<String> = unsearched
            .iter()
            .take(10)
            .map(|&e| (e + 1).to_string())
            .collect();
        writeln!(
            out,
            "winning cuts ({} found; the list is not complete: the cuts of {} edges on cycles were not searched within the work budget, edges {}{} of the file):",
            cuts.len(),
            unsearched.len(),
            shown.join(", "),
            if unsearched.len() > 10 { ", …" } else { "" }
        )?;
    }
    for &e in cuts {
        let (u, v) = cut_of(e);
        writeln!(out, "  cut {u} – {v}   (edge {} of the file)", e + 1)?;
    }
    Ok(())
}
