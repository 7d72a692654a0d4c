//! A green Hackenbush position ([`Hackenbush`]): the value of the part hanging above each node
//! (the colon principle on the fused graph), and `solve`'s winning cuts.
//!
//! * CSV: `node,value` (`value` empty for a node cut off from the ground).
//! * JSON (`table`): `{"game", "ground", "value", "outcome", "nodes": [{"node", "value"}]}`;
//!   (`solve`): `{"play": "normal", "outcome", "value", "winning_moves": [{"cut": [U, V],
//!   "edge", "result"}], "method", "complete"}`, `edge` the edge's 1-based place among the
//!   file's edges, `result` 0 (the value a winning cut leaves); `complete` is false when the
//!   work budget ran out before every cut of an edge on a cycle was checked, and the edges
//!   not searched are then listed as `unsearched` (1-based).

use std::io::{self, Write};

use serde_json::{json, Value};

use super::Format;
use crate::engine::hackenbush::{Cuts, Hackenbush};
use crate::rules::GraphGame;

/// How `solve` decided a Hackenbush position, in words.
pub const METHOD: &str = "green Hackenbush by the colon and fusion principles (Winning Ways ch. 7): cycles fused to loops, then SG(v) = XOR over the branches c of (SG(c) + 1)";

/// Writes the values of every node's part in `format`.
pub fn write_table(
    out: &mut dyn Write,
    graph: &GraphGame,
    position: &Hackenbush,
    format: Format,
    game: &str,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let values = position.node_values();
    let value_text = |v: Option<u32>| v.map_or_else(String::new, |v| v.to_string());
    match format {
        Format::Csv => {
            let mut writer = csv::Writer::from_writer(&mut out);
            writer
                .write_record(["node", "value"])
                .map_err(super::csv_io_error)?;
            for (v, value) in values.iter().enumerate() {
                writer
                    .write_record([graph.name(v as u32), &value_text(*value)])
                    .map_err(super::csv_io_error)?;
            }
            writer.flush()?;
        }
        Format::Json => {
            // Streamed node by node (keys in the order `serde_json` sorts them), so that a
            // graph of millions of nodes takes no more memory than its values.
            write!(out, "{{\"game\":")?;
            serde_json::to_writer(&mut out, game)?;
            write!(out, ",\"ground\":")?;
            serde_json::to_writer(&mut out, graph.name(position.ground()))?;
            write!(out, ",\"nodes\":[")?;
            for (v, value) in values.iter().enumerate() {
                if v > 0 {
                    out.write_all(b",")?;
                }
                serde_json::to_writer(
                    &mut out,
                    &json!({"node": graph.name(v as u32), "value": value}),
                )?;
            }
            write!(out, "],\"outcome\":")?;
            serde_json::to_writer(&mut out, if position.value() == 0 { "P" } else { "N" })?;
            write!(out, ",\"value\":")?;
            serde_json::to_writer(&mut out, &position.value())?;
            writeln!(out, "}}")?;
        }
        _ => {
            let width = graph
                .names
                .iter()
                .map(|n| n.chars().count())
                .chain([4])
                .max()
                .unwrap_or(4);
            writeln!(out, "{:>width$}  value", "node")?;
            for (v, value) in values.iter().enumerate() {
                let shown =
                    value.map_or_else(|| "- (cut off from the ground)".into(), |v| v.to_string());
                writeln!(out, "{:>width$}  {shown}", graph.name(v as u32))?;
            }
            writeln!(
                out,
                "value: the Sprague–Grundy value of the edges hanging above the node ({} principle); the whole position (ground {}) is {}",
                if position.is_tree() { "colon" } else { "colon and fusion" },
                graph.name(position.ground()),
                position.value()
            )?;
        }
    }
    out.flush()
}

/// Writes `solve`'s answer for the position alone: its value, who wins, every winning cut.
pub fn write_solve(
    out: &mut dyn Write,
    graph: &GraphGame,
    position: &Hackenbush,
    json_output: bool,
) -> io::Result<()> {
    let value = position.value();
    let Cuts {
        winning: cuts,
        unsearched,
    } = position.winning_cuts_within(0, crate::engine::budget::steps_limit());
    let complete = unsearched.is_empty();
    let edges = position.edges();
    let cut_of = |e: usize| {
        let (u, v) = edges[e];
        (graph.name(u), graph.name(v))
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
        graph.node_count(),
        edges.len(),
        graph.name(position.ground())
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
    for &e in &cuts {
        let (u, v) = cut_of(e);
        writeln!(out, "  cut {u} – {v}   (edge {} of the file)", e + 1)?;
    }
    Ok(())
}
