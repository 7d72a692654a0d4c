//! Position games on the command line: `--to` for a box, `table`/`plot` of a box, and
//! `solve GAME POSITION…` for heap and position games alike.

use std::ops::ControlFlow;
use std::path::Path;
use std::str::FromStr;

use crate::analysis::criteria::CriteriaReport;
use crate::analysis::patterns;
use crate::engine::multi::{self, show_position, MultiError, Solver};
use crate::engine::{self, naive};
use crate::export::grid::{self, GridFormat};
use crate::export::heatmap::{self, HeatmapSpec};
use crate::export::{self, Format, Lang};
use crate::rules::program::{Move, Scratch, Stop};
use crate::rules::{Game, GameKind};

use super::{CliError, ColorChoice};

/// `--to`: one bound for every coordinate (`100`), or one per coordinate (`x=100,y=50`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxArg {
    all: Option<u64>,
    named: Vec<(String, u64)>,
}

impl FromStr for BoxArg {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if let Ok(all) = text.trim().parse::<u64>() {
            return Ok(BoxArg {
                all: Some(all),
                named: Vec::new(),
            });
        }
        let named = text
            .split(',')
            .map(|part| {
                let (name, value) = part.split_once('=').ok_or_else(|| {
                    format!("`{part}` is not a bound: write N, or NAME=N for each coordinate (e.g. x=100,y=50)")
                })?;
                let value = value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| format!("`{}` is not a non-negative integer (in --to {text})", value.trim()))?;
                Ok((name.trim().to_string(), value))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(BoxArg { all: None, named })
    }
}

impl BoxArg {
    /// The largest value of each of `coordinates`: every one named exactly once, or all equal.
    pub fn extents(&self, coordinates: &[String]) -> Result<Vec<u64>, CliError> {
        if let Some(all) = self.all {
            return Ok(vec![all; coordinates.len()]);
        }
        for (name, _) in &self.named {
            if !coordinates.contains(name) {
                return Err(CliError::Usage(format!(
                    "--to names `{name}`, but the coordinates are {}",
                    list(coordinates)
                )));
            }
        }
        coordinates
            .iter()
            .map(|c| {
                let mut bounds = self.named.iter().filter(|(n, _)| n == c);
                match (bounds.next(), bounds.next()) {
                    (Some(&(_, value)), None) => Ok(value),
                    (Some(_), Some(_)) => Err(CliError::Usage(format!("--to gives `{c}` twice"))),
                    (None, _) => Err(CliError::Usage(format!(
                        "--to gives no bound for `{c}`: write e.g. --to {}",
                        coordinates
                            .iter()
                            .map(|c| format!("{c}=100"))
                            .collect::<Vec<_>>()
                            .join(",")
                    ))),
                }
            })
            .collect()
    }

    /// The last heap of a heap game's table.
    pub fn heap_to(&self, game: &Game) -> Result<u64, CliError> {
        Ok(self.extents(std::slice::from_ref(&game.coordinate))?[0])
    }
}

fn list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `--format` for `table`: text, csv, json, or matrix (position games only).
pub fn parse_grid_format(text: &str) -> Result<GridFormat, String> {
    if text.eq_ignore_ascii_case("matrix") {
        return Ok(GridFormat::Matrix);
    }
    text.parse::<Format>()
        .map(GridFormat::from)
        .map_err(|_| format!("unknown format `{text}`: expected text, csv, json or matrix"))
}

/// The heap-table format for `format` (`matrix` is a grid of a position game).
pub fn heap_format(format: GridFormat) -> Result<Format, CliError> {
    match format {
        GridFormat::Text => Ok(Format::Text),
        GridFormat::Csv => Ok(Format::Csv),
        GridFormat::Json => Ok(Format::Json),
        GridFormat::Matrix => Err(CliError::Usage(
            "--format matrix is a grid of a position game (`position (x, y)`); a heap game's table is text, csv or json".into(),
        )),
    }
}

impl ColorChoice {
    /// Whether to colour output going to `output` (`-` is stdout).
    pub fn enabled(self, output: &str) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => output == "-" && std::io::stdout().is_terminal(),
        }
    }
}

impl From<MultiError> for CliError {
    fn from(error: MultiError) -> Self {
        match error {
            MultiError::Rule { diagnostic, file } => {
                CliError::Engine(Box::new(engine::EngineError::Rule { diagnostic, file }))
            }
            other => CliError::Failed(other.to_string()),
        }
    }
}

impl super::Checkpointing {
    /// Refuses `--checkpoint`/`--resume` for a position game (they save heap tables).
    pub fn refuse_for_positions(&self) -> Result<(), CliError> {
        if self.checkpoint.is_some() || self.resume.is_some() {
            return Err(CliError::Usage(
                "--checkpoint and --resume save heap tables; a position game's box is computed in one run".into(),
            ));
        }
        Ok(())
    }
}

/// `table` for a position game: the box's values as a grid, CSV, matrix or JSON.
pub fn table(
    game: &Game,
    to: &BoxArg,
    format: GridFormat,
    output: Option<&str>,
    color: ColorChoice,
) -> Result<(), CliError> {
    let output = output.unwrap_or("-");
    let extents = to.extents(&game.coordinates())?;
    let table = multi::compute_box(game, &extents)?;
    let color = color.enabled(output);
    export::write_output(output, |out| {
        grid::write_box(out, &table, format, &game.name, color)
    })?;
    Ok(())
}

/// `plot` for a position game of two coordinates: a heat map.
pub fn plot(game: &Game, to: &BoxArg, output: &str) -> Result<(), CliError> {
    export::ChartFormat::from_path(Path::new(output))?;
    let coordinates = game.coordinates();
    if coordinates.len() != 2 {
        return Err(CliError::Usage(format!(
            "a heat map needs two coordinates, but positions are ({}); use `table` instead",
            coordinates.join(", ")
        )));
    }
    let table = multi::compute_box(game, &to.extents(&coordinates)?)?;
    heatmap::write_heatmap(Path::new(output), &table, &HeatmapSpec::new(&game.name))?;
    eprintln!("wrote {output}");
    Ok(())
}

/// `patterns`: where the P-positions lie (closed-form criteria for any number of
/// coordinates), and the periods along the lines of a 2-D box.
pub fn patterns(game: &Game, to: &BoxArg, json: bool) -> Result<(), CliError> {
    let coordinates = game.coordinates();
    let extents = to.extents(&coordinates)?;
    let text = if game.position_program().is_none() || coordinates.len() == 1 {
        let values = match game.position_program() {
            Some(_) => multi::compute_box(game, &extents)?.values().to_vec(),
            None => {
                let table = engine::compute(game, extents[0], &engine::EngineOptions::default())?;
                table.to_vec()
            }
        };
        let report = patterns::p_position_patterns(&values);
        if json {
            to_json(&report)?
        } else {
            format!("{}\n", report.describe(&coordinates[0]))
        }
    } else if coordinates.len() == 2 {
        let table = multi::compute_box(game, &extents)?;
        let report = patterns::analyse_box(&table).map_err(|e| CliError::Usage(e.to_string()))?;
        if json {
            to_json(&report)?
        } else {
            report.to_string()
        }
    } else {
        // Rows and diagonals are 2-D ideas; any number of coordinates has criteria.
        let report = CriteriaReport::of(&multi::compute_box(game, &extents)?);
        if json {
            to_json(&report)?
        } else {
            report.to_string()
        }
    };
    print!("{text}");
    Ok(())
}

fn to_json(report: &impl serde::Serialize) -> Result<String, CliError> {
    serde_json::to_string_pretty(report)
        .map(|s| s + "\n")
        .map_err(|e| CliError::Failed(e.to_string()))
}

/// `code` for a position game: a lookup function for the box.
pub fn code(game: &Game, lang: Lang, to: &BoxArg, output: Option<&str>) -> Result<(), CliError> {
    let table = multi::compute_box(game, &to.extents(&game.coordinates())?)?;
    let snippet = export::code::generate_box(lang, &table, &game.name)?;
    export::write_output(output.unwrap_or("-"), |out| {
        out.write_all(snippet.as_bytes())
    })?;
    Ok(())
}

/// A move of one component of a sum.
#[derive(Debug)]
struct Candidate {
    component: usize,
    rule: String,
    binders: Vec<(String, i64)>,
    /// The components the moved one becomes.
    result: Vec<Vec<u64>>,
}

/// `solve`: the value of a sum of positions, who wins, and every winning move.
pub fn solve(game: &Game, position: &[String]) -> Result<(), CliError> {
    let arity = game.coordinates().len();
    let components = parse_sum(&position.join(" "), arity)?;
    let (values, candidates, value_of) = match game.position_program() {
        Some(_) => position_moves(game, &components)?,
        None => heap_moves(game, &components)?,
    };
    let total = values.iter().fold(0, |a, v| a ^ v);
    let show_sum = |parts: &[Vec<u64>]| {
        if parts.is_empty() {
            "nothing".to_string()
        } else {
            parts
                .iter()
                .map(|p| show_position(p))
                .collect::<Vec<_>>()
                .join(" + ")
        }
    };
    println!("position: {}", show_sum(&components));
    if total == 0 {
        println!("G = 0: the first player loses (every move leads to a non-zero value)");
        return Ok(());
    }
    println!("G = {total}: the first player wins");
    let mut winning: Vec<&Candidate> = candidates
        .iter()
        .zip(&value_of)
        .filter(|(c, &v)| total ^ values[c.component] ^ v == 0)
        .map(|(c, _)| c)
        .collect();
    // The smallest take first: by binder values, then component and rule.
    winning.sort_by(|a, b| {
        let key = |c: &Candidate| c.binders.iter().map(|b| b.1).collect::<Vec<_>>();
        key(a)
            .cmp(&key(b))
            .then(a.component.cmp(&b.component))
            .then(a.rule.cmp(&b.rule))
    });
    println!("winning moves ({}):", winning.len());
    for c in winning {
        let place = if components.len() > 1 {
            format!("component {}: ", c.component + 1)
        } else {
            String::new()
        };
        let binders = c
            .binders
            .iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        let binders = if binders.is_empty() {
            String::new()
        } else {
            format!(", {binders}")
        };
        println!(
            "  {place}{} → {}   by {}{binders}",
            show_position(&components[c.component]),
            show_sum(&c.result),
            c.rule
        );
    }
    Ok(())
}

/// Component values, every move of every component, and each move's value.
type Analysis = (Vec<u32>, Vec<Candidate>, Vec<u32>);

fn position_moves(game: &Game, components: &[Vec<u64>]) -> Result<Analysis, CliError> {
    let program = game.position_program().expect("a position game");
    let arity = components[0].len();
    let extents: Vec<u64> = (0..arity)
        .map(|i| components.iter().map(|c| c[i]).max().unwrap_or(0))
        .collect();
    let mut solver = Solver::new(game, &extents)?;
    let mut values = Vec::new();
    let mut candidates = Vec::new();
    for (i, c) in components.iter().enumerate() {
        values.push(solver.value(c)?);
        solver.for_each_move(c, &mut |rule, binders, result| {
            candidates.push(Candidate {
                component: i,
                rule: program.rule_name(rule, &game.source),
                binders: program
                    .binder_names(rule)
                    .iter()
                    .cloned()
                    .zip(binders.iter().copied())
                    .collect(),
                result: result.chunks(arity).map(<[u64]>::to_vec).collect(),
            })
        })?;
    }
    let mut move_values = Vec::new();
    for c in &candidates {
        let mut xor = 0;
        for part in &c.result {
            xor ^= solver.value(part)?;
        }
        move_values.push(xor);
    }
    Ok((values, candidates, move_values))
}

fn heap_moves(game: &Game, heaps: &[Vec<u64>]) -> Result<Analysis, CliError> {
    let largest = heaps.iter().map(|h| h[0]).max().unwrap_or(0);
    let table = engine::compute(game, largest, &engine::EngineOptions::default())?;
    let mut candidates = Vec::new();
    for (i, heap) in heaps.iter().enumerate() {
        let n = heap[0];
        match &game.kind {
            GameKind::General { program, .. } => {
                let mut visit = |rule: usize, binders: &[i64], m: Move<'_>| {
                    let names = program.binder_names(rule);
                    let mut push = |binders: Vec<i64>, result: Vec<u64>| {
                        candidates.push(Candidate {
                            component: i,
                            rule: program.rule_name(rule, &game.source),
                            binders: names.iter().cloned().zip(binders).collect(),
                            result: result
                                .into_iter()
                                .filter(|&h| h > 0)
                                .map(|h| vec![h])
                                .collect(),
                        })
                    };
                    match m {
                        Move::Sum(result) => push(binders.to_vec(), result.to_vec()),
                        Move::Line { first, step, count } => {
                            for t in 0..count as i64 {
                                let mut b = binders.to_vec();
                                *b.last_mut().expect("a line has a binder") += t;
                                push(b, vec![(first[0] as i64 + t * step[0]) as u64]);
                            }
                        }
                    }
                    ControlFlow::Continue(())
                };
                let result = program.for_each_option(
                    &[n],
                    &mut Scratch::default(),
                    &mut multi::UNLIMITED.clone(),
                    &mut visit,
                );
                if let Err(Stop::Error(diagnostic)) = result {
                    return Err(CliError::Engine(Box::new(engine::EngineError::Rule {
                        diagnostic: Box::new(diagnostic),
                        file: Box::new(game.source.clone()),
                    })));
                }
            }
            GameKind::Code { code, .. } => {
                // The moves are listed one partition at a time: bound the heap by the work.
                let largest = match code.max_heaps() {
                    Some(0..=2) => 20_000,
                    Some(3) => 400,
                    _ => 60,
                };
                if n > largest {
                    return Err(CliError::Usage(format!(
                        "listing every move of a heap of {n} of {} would take too long (the moves of this code are listed for heaps up to {largest})",
                        game.name
                    )));
                }
                for result in naive::code_moves(code, n) {
                    let taken = n - result.iter().sum::<u64>();
                    candidates.push(Candidate {
                        component: i,
                        rule: format!("the code {code}"),
                        binders: vec![("take".to_string(), taken as i64)],
                        result: result.into_iter().map(|h| vec![h]).collect(),
                    });
                }
            }
        }
    }
    let values = heaps.iter().map(|h| table.get(h[0] as usize)).collect();
    let move_values = candidates
        .iter()
        .map(|c| c.result.iter().fold(0, |a, h| a ^ table.get(h[0] as usize)))
        .collect();
    Ok((values, candidates, move_values))
}

/// `3 5 7`, `3 + 5`, `(3, 4) + (5, 2)`: the components of a sum, `arity` coordinates each.
pub fn parse_sum(text: &str, arity: usize) -> Result<Vec<Vec<u64>>, CliError> {
    let bad = |what: String| {
        CliError::Usage(format!(
            "{what} in the position `{text}`\n  help: write {}",
            if arity == 1 {
                "heaps as numbers, e.g. `3 5 7` or `3 + 5 + 7`".to_string()
            } else {
                format!(
                    "tuples of {arity} numbers joined by `+`, e.g. `({}) + ({})`",
                    vec!["3"; arity].join(", "),
                    vec!["1"; arity].join(", ")
                )
            }
        ))
    };
    let mut components = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let item;
        if let Some(inner) = rest.strip_prefix('(') {
            let close = inner
                .find(')')
                .ok_or_else(|| bad("an unclosed `(`".into()))?;
            item = inner[..close].to_string();
            rest = &inner[close + 1..];
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '+')
                .unwrap_or(rest.len());
            item = rest[..end].to_string();
            rest = &rest[end..];
        }
        let coordinates = item
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| bad(format!("`{}` is not a non-negative integer", v.trim())))
            })
            .collect::<Result<Vec<u64>, _>>()?;
        if coordinates.len() != arity {
            return Err(bad(format!(
                "`{item}` has {} coordinates, not {arity}",
                coordinates.len()
            )));
        }
        components.push(coordinates);
        rest = rest.trim_start().trim_start_matches('+').trim_start();
    }
    if components.is_empty() {
        return Err(bad("no component".into()));
    }
    Ok(components)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_arguments() {
        let names: Vec<String> = ["x", "y"].map(String::from).to_vec();
        assert_eq!(
            "7".parse::<BoxArg>().unwrap().extents(&names).unwrap(),
            [7, 7]
        );
        let named: BoxArg = "y=5, x=3".parse().unwrap();
        assert_eq!(named.extents(&names).unwrap(), [3, 5]);
        assert!("x=3"
            .parse::<BoxArg>()
            .unwrap()
            .extents(&names)
            .unwrap_err()
            .to_string()
            .contains("no bound for `y`"));
        assert!("z=3,x=1,y=2"
            .parse::<BoxArg>()
            .unwrap()
            .extents(&names)
            .is_err());
        assert!("x=-1".parse::<BoxArg>().is_err());
        assert!("big".parse::<BoxArg>().is_err());
    }

    #[test]
    fn sums_of_positions() {
        assert_eq!(parse_sum("3 5 7", 1).unwrap(), [[3], [5], [7]]);
        assert_eq!(parse_sum("3+5 + 7", 1).unwrap(), [[3], [5], [7]]);
        assert_eq!(parse_sum("(3,4) + (5, 2)", 2).unwrap(), [[3, 4], [5, 2]]);
        assert_eq!(parse_sum("(3,4)", 2).unwrap(), [[3, 4]]);
        for bad in ["(3, 4", "(3)", "3 x", "", "(1, -2)"] {
            assert!(parse_sum(bad, 2).is_err(), "{bad}");
        }
    }
}
