//! Playing a sum move by move: against a person in the terminal ([`session`]) or against a
//! contestant's program ([`judge`]).
//!
//! Both sit on one [`Referee`]: for the sum on the table it lists every legal move with the
//! sum it leaves, and marks the moves a perfect player makes. The values come from the value
//! rule the game is played under:
//!
//! * normal play: Sprague–Grundy, a move is good when it leaves XOR 0. A heap game's table
//!   `G(0..=h)` for the largest heap of the start is computed once and kept (heaps only
//!   shrink), so that a turn costs the listing of its moves (ABC278 G at N = 2000 is judged in
//!   seconds, where a new [`solve::solve`] per turn took 27 s); other games, and any sum that
//!   leaves the table, go through [`solve::solve`];
//! * misère play: [`solve::solve_misere`] (the tame rule or the search over the sum's options);
//! * games whose moves can cycle, and graph files: the retrograde analysis of
//!   [`LoopyTable`] over the positions reachable from the start, decided by Smith's rule
//!   ([`solve::loopy::solve_loopy`]): a good move wins, or from a draw keeps the draw.
//!
//! A move is written as the rules name it, `[i:] label v1 v2 …` (the component `i` counted
//! from 1, needed only when several components have the move; the binder values in the
//! rule's order, or as `name=value`), or as the sum it leaves (`= 1 + 4`, or `1 4`).

mod contestant;
pub mod judge;
pub mod session;

use std::fmt::Write as _;
use std::io::{self, BufRead};

use thiserror::Error;

use crate::engine::{self, EngineError, EngineOptions, SgTable};
use crate::rules::{Game, Play};
use crate::solve::{self, moves, GameMove, MisereOptions, Outcome, SolveError};
use crate::value::loopy::LoopyTable;

/// Who is to move, seen from the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The player to move wins with perfect play.
    Wins,
    /// The player to move loses against perfect play.
    Loses,
    /// Neither can force a win: play can go on forever (games that can cycle).
    Draw,
}

/// One legal move of the sum on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayMove {
    /// The move as `solve` names it (component, rule, binders, what the component becomes).
    pub step: GameMove,
    /// A perfect player's move: it wins, or from a draw it keeps the draw.
    pub good: bool,
}

impl PlayMove {
    /// The whole sum after the move, from the sum `before` it: the moved component replaced,
    /// in place, by what it becomes (nothing when it becomes no position). Made on demand: a
    /// sum of many components has many moves, and a copy of the sum for each would cost
    /// `O(moves · components)` a turn.
    pub fn after(&self, before: &[Vec<u64>]) -> Vec<Vec<u64>> {
        replace(before, self.step.component, self.step.result.clone())
    }
}

/// The sum on the table, judged.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The sum judged.
    pub sum: Vec<Vec<u64>>,
    /// Who wins, seen from the player to move.
    pub verdict: Verdict,
    /// Every legal move, in the rules' order.
    pub moves: Vec<PlayMove>,
}

impl Analysis {
    /// The move a perfect player makes: the first good one, else (a lost position) the first
    /// move, so that the game goes on.
    pub fn best(&self) -> Option<&PlayMove> {
        self.moves
            .iter()
            .find(|m| m.good)
            .or_else(|| self.moves.first())
    }
}

/// Why a move typed by a player is not one of the legal moves.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Nothing to read.
    #[error("an empty move")]
    Empty,
    /// The text names no legal move.
    #[error("`{text}` is not a legal move here")]
    Illegal {
        /// The move as typed, quoted by [`quote`].
        text: String,
    },
    /// The text fits several moves of different components.
    #[error("`{text}` fits moves of components {components}: write the component first, e.g. `{example}`")]
    Ambiguous {
        /// The move as typed, quoted by [`quote`].
        text: String,
        /// The components (1-based) it fits, joined by commas.
        components: String,
        /// The move with its component.
        example: String,
    },
}

/// What can stop a game.
#[derive(Debug, Error)]
pub enum PlayError {
    /// The values could not be computed (a refusal, a rule error).
    #[error(transparent)]
    Solve(#[from] Box<SolveError>),
    /// The game cannot be played move by move (yet).
    #[error("{0}")]
    Unsupported(String),
    /// Reading or writing the terminal or the program failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl From<SolveError> for PlayError {
    fn from(error: SolveError) -> Self {
        PlayError::Solve(Box::new(error))
    }
}

impl From<EngineError> for PlayError {
    fn from(error: EngineError) -> Self {
        PlayError::Solve(Box::new(SolveError::Engine(error)))
    }
}

/// How a [`Referee`] values sums.
enum Rule {
    /// Sprague–Grundy values; for a heap game, `G(0..=h)` for the largest heap `h` of the start,
    /// kept for the whole game (heaps only shrink), so that a turn costs the listing of its
    /// moves, not a new table.
    Normal(Option<SgTable>),
    Misere,
    /// Tokens on the nodes of a table that can cycle (a graph file's, or a rules file's
    /// positions reachable from the start); components are `[node]`.
    Loopy(LoopyTable),
}

/// Whether `game` can be played move by move: every game but a hackenbush file, whose
/// position is its whole picture (no `start` line is needed or read) and whose moves are cuts,
/// which the referee does not list yet. Asked before anything else, so that the refusal names
/// the real reason.
pub fn playable(game: &Game) -> Result<(), PlayError> {
    match game.graph().and_then(|graph| graph.hackenbush) {
        Some(_) => Err(PlayError::Unsupported(format!(
            "{} is a hackenbush file: its position is the whole picture (it needs no `start` line) and a move cuts an edge, which is not played move by move yet",
            game.name
        ))),
        None => Ok(()),
    }
}

/// Lists and judges the moves of sums of one game under one value rule.
pub struct Referee<'g> {
    game: &'g Game,
    rule: Rule,
}

impl<'g> Referee<'g> {
    /// A referee for `game` under `play`, for games starting from `start` (a game whose moves
    /// can cycle is valued on the positions reachable from it).
    pub fn new(game: &'g Game, play: Play, start: &[Vec<u64>]) -> Result<Self, PlayError> {
        playable(game)?;
        if let Some(graph) = game.graph() {
            refuse_misere_loopy(play)?;
            return Ok(Referee {
                game,
                rule: Rule::Loopy(LoopyTable::of_graph(graph)?),
            });
        }
        let rule = match play {
            Play::Misere => Rule::Misere,
            Play::Normal => match solve::solve(game, start) {
                Err(SolveError::Engine(EngineError::Cycle { .. })) => {
                    Rule::Loopy(LoopyTable::reachable(game, start)?)
                }
                Err(error) => return Err(error.into()),
                Ok(_) => Rule::Normal(heap_values(game, start)),
            },
        };
        Ok(Referee { game, rule })
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.game
    }

    /// The components of the position written `text` (a graph file's node names).
    pub fn parse_position(&self, text: &str) -> Result<Vec<Vec<u64>>, PlayError> {
        if let Rule::Loopy(table) = &self.rule {
            if self.game.graph().is_some() {
                return text
                    .split('+')
                    .map(|name| {
                        let name = name.trim();
                        table
                            .names
                            .iter()
                            .position(|n| n == name)
                            .map(|v| vec![v as u64])
                            .ok_or_else(|| {
                                PlayError::Unsupported(format!(
                                    "`{name}` is not a node of {}",
                                    self.game.name
                                ))
                            })
                    })
                    .collect();
            }
        }
        let arity = self.game.coordinates().len();
        solve::parse_sum(text, arity).map_err(|e| SolveError::from(e).into())
    }

    /// The sum written as on the command line: `3 + 5`, `(3, 4) + (1, 2)`, `a + b`.
    pub fn show(&self, sum: &[Vec<u64>]) -> String {
        if sum.is_empty() {
            return "nothing (no component left)".to_string();
        }
        match &self.rule {
            Rule::Loopy(table) if self.game.graph().is_some() => sum
                .iter()
                .map(|c| table.names[c[0] as usize].clone())
                .collect::<Vec<_>>()
                .join(" + "),
            _ => solve::show_sum(sum),
        }
    }

    /// Every legal move of `sum`, and who wins it.
    pub fn analyse(&self, sum: &[Vec<u64>]) -> Result<Analysis, PlayError> {
        match &self.rule {
            Rule::Loopy(table) => self.analyse_loopy(table, sum),
            rule => {
                let mut listed = Vec::new();
                for (i, c) in sum.iter().enumerate() {
                    listed.extend(moves::moves_of(self.game, i, c)?);
                }
                if listed.is_empty() {
                    // No move: normal play, the player to move has lost; misère, has won.
                    let verdict = match rule {
                        Rule::Misere => Verdict::Wins,
                        _ => Verdict::Loses,
                    };
                    return Ok(Analysis {
                        sum: sum.to_vec(),
                        verdict,
                        moves: Vec::new(),
                    });
                }
                let listed = match rule {
                    Rule::Normal(Some(values)) => match by_values(values, sum, listed) {
                        Ok(analysis) => return Ok(analysis),
                        Err(listed) => listed,
                    },
                    _ => listed,
                };
                let report = match rule {
                    Rule::Misere => solve::solve_misere(self.game, sum, MisereOptions::default())?,
                    // Every winning move, named as `listed` names it.
                    _ => solve::solve_listing_every_move(self.game, sum)?,
                };
                let verdict = match report.outcome {
                    Outcome::FirstPlayerWins => Verdict::Wins,
                    Outcome::FirstPlayerLoses => Verdict::Loses,
                };
                let moves = listed
                    .into_iter()
                    .map(|step| PlayMove {
                        good: report.winning_moves.contains(&step),
                        step,
                    })
                    .collect();
                Ok(Analysis {
                    sum: sum.to_vec(),
                    verdict,
                    moves,
                })
            }
        }
    }

    fn analyse_loopy(&self, table: &LoopyTable, sum: &[Vec<u64>]) -> Result<Analysis, PlayError> {
        let graph_file = self.game.graph().is_some();
        let node_of = |c: &[u64]| -> Result<u32, PlayError> {
            let node = if graph_file {
                Some(c[0] as u32)
            } else {
                table.node_of(c)
            };
            node.ok_or_else(|| {
                PlayError::Unsupported(format!(
                    "{} is outside the positions valued",
                    solve::show_sum(&[c.to_vec()])
                ))
            })
        };
        let nodes = sum
            .iter()
            .map(|c| node_of(c))
            .collect::<Result<Vec<_>, _>>()?;
        if nodes.is_empty() {
            return Ok(Analysis {
                sum: Vec::new(),
                verdict: Verdict::Loses,
                moves: Vec::new(),
            });
        }
        let report = solve::loopy::solve_loopy(self.game, table, &nodes)?;
        let verdict = match report.outcome {
            crate::value::Outcome::N => Verdict::Wins,
            crate::value::Outcome::P => Verdict::Loses,
            crate::value::Outcome::D => Verdict::Draw,
        };
        let mut moves = Vec::new();
        let (mut winning_at, mut drawing_at) = (0, 0);
        for (i, &v) in nodes.iter().enumerate() {
            for (to, rule, binders) in solve::loopy::moves_of(self.game, table, i, v)? {
                let result: Vec<Vec<u64>> = if (to as usize) >= table.rows {
                    Vec::new()
                } else if graph_file {
                    vec![vec![u64::from(to)]]
                } else {
                    vec![table.positions[to as usize].clone()]
                };
                let name = table.names.get(to as usize).map_or("", String::as_str);
                let is = |m: &solve::loopy::LoopyMove| {
                    m.component == i && m.to == name && m.rule == rule && m.binders == binders
                };
                // `solve_loopy` lists its winning and drawing moves in the order listed here:
                // each list is matched by walking it once, not searched per move (a node of
                // 10^6 successors would cost 10^12 comparisons).
                let next_of = |list: &[solve::loopy::LoopyMove], at: &mut usize| {
                    let found = list.get(*at).is_some_and(is);
                    *at += usize::from(found);
                    found
                };
                let good = next_of(&report.winning_moves, &mut winning_at)
                    || (verdict == Verdict::Draw
                        && next_of(&report.drawing_moves, &mut drawing_at));
                moves.push(PlayMove {
                    step: GameMove {
                        component: i,
                        rule,
                        binders,
                        result,
                    },
                    good,
                });
            }
        }
        Ok(Analysis {
            sum: sum.to_vec(),
            verdict,
            moves,
        })
    }

    /// A move as a player writes it: `label v1 v2 …` (with `i:` first when `sum` has several
    /// components), and what it leaves: `take 2 → 1 + 4`.
    pub fn describe(&self, sum: &[Vec<u64>], m: &PlayMove) -> String {
        let mut text = notation(sum.len(), &m.step);
        let _ = write!(text, " → {}", self.show(&m.after(sum)));
        text
    }

    /// The legal move `text` names (see the module docs).
    pub fn read_move<'a>(
        &self,
        analysis: &'a Analysis,
        text: &str,
    ) -> Result<&'a PlayMove, MoveError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        // Quoted: a move may be up to a megabyte of text, a message quotes its start.
        let illegal = || MoveError::Illegal {
            text: quote(text.as_bytes()),
        };
        // The sum left: `= 1 + 4`, or numbers and tuples alone.
        let as_sum = text.strip_prefix('=').unwrap_or(text);
        if let Ok(after) = self.parse_position(as_sum) {
            let key = sorted(&after);
            return analysis
                .moves
                .iter()
                .find(|m| sorted(&m.after(&analysis.sum)) == key)
                .ok_or_else(illegal);
        }
        let (component, rest) = match text.split_once(':') {
            Some((i, rest)) if i.trim().parse::<usize>().is_ok() => {
                (Some(i.trim().parse::<usize>().unwrap_or(0)), rest)
            }
            _ => (None, text),
        };
        let mut words = rest.split_whitespace();
        let label = words.next().ok_or_else(illegal)?;
        let values: Vec<&str> = words.collect();
        let fits: Vec<&PlayMove> = analysis
            .moves
            .iter()
            .filter(|m| component.is_none_or(|i| m.step.component + 1 == i))
            .filter(|m| rule_label(&m.step.rule) == label && binders_match(&m.step, &values))
            .collect();
        let rest = quote(rest.as_bytes());
        let Some(first) = fits.first() else {
            return Err(illegal());
        };
        // Moves that leave the same sum are one move to the players: any will do.
        let mut components: Vec<usize> = fits.iter().map(|m| m.step.component + 1).collect();
        components.dedup();
        let same = fits
            .iter()
            .all(|m| sorted(&m.after(&analysis.sum)) == sorted(&first.after(&analysis.sum)));
        if components.len() > 1 && !same {
            return Err(MoveError::Ambiguous {
                text: quote(text.as_bytes()),
                components: components
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                example: format!("{}: {rest}", components[0]),
            });
        }
        Ok(first)
    }
}

/// The table of a heap game (one coordinate, no graph) up to the largest heap of `start`, when
/// the engine computes it; `None` otherwise (each turn then goes through `solve`).
fn heap_values(game: &Game, start: &[Vec<u64>]) -> Option<SgTable> {
    if game.graph().is_some() || game.position_program().is_some() {
        return None;
    }
    let largest = start.iter().filter_map(|c| c.first().copied()).max()?;
    engine::compute(game, largest, &EngineOptions::default()).ok()
}

/// The analysis of `sum` in normal play from `values` (Sprague–Grundy: the player to move wins
/// iff the XOR of the components' values is not 0, and a move is good iff it leaves XOR 0), or
/// the listed moves back when a component or a move's result lies outside the table.
fn by_values(
    values: &SgTable,
    sum: &[Vec<u64>],
    listed: Vec<GameMove>,
) -> Result<Analysis, Vec<GameMove>> {
    let value = |c: &Vec<u64>| -> Option<u32> {
        let heap = usize::try_from(*c.first()?).ok()?;
        (heap < values.len()).then(|| values.get(heap))
    };
    let valued = || -> Option<(u32, Vec<bool>)> {
        let mut total = 0u32;
        for c in sum {
            total ^= value(c)?;
        }
        let mut good = Vec::with_capacity(listed.len());
        for step in &listed {
            let mut after = total ^ value(&sum[step.component])?;
            for part in &step.result {
                after ^= value(part)?;
            }
            good.push(after == 0);
        }
        Some((total, good))
    };
    let Some((total, good)) = valued() else {
        return Err(listed);
    };
    // The listed moves are kept, not copied: a judge analyses every turn of a long game.
    let moves = listed
        .into_iter()
        .zip(good)
        .map(|(step, good)| PlayMove { step, good })
        .collect();
    Ok(Analysis {
        sum: sum.to_vec(),
        verdict: if total != 0 {
            Verdict::Wins
        } else {
            Verdict::Loses
        },
        moves,
    })
}

/// The longest line read from a person or a program: 1 MiB. A longer line is cut there (the
/// judge calls it illegal at once; `play` drops it and says so), so that an endless line
/// cannot exhaust the memory.
pub const LINE_LIMIT: usize = 1 << 20;

/// Characters of a line quoted in a message, at most (then `…`).
pub const QUOTED: usize = 200;

/// How [`read_line_capped`] ended a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// At a newline (not kept, nor a `\r` before it) or at the end of the input.
    Whole,
    /// After `limit` bytes without a newline: the rest of the line is not read.
    TooLong,
}

/// Reads one line into `line` (cleared first) as bytes, at most `limit` of them; `None` at
/// the end of the input.
pub(crate) fn read_line_capped(
    input: &mut dyn BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Option<Line>> {
    line.clear();
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok((!line.is_empty()).then_some(Line::Whole));
        }
        let room = limit - line.len();
        let newline = buffer.iter().position(|&b| b == b'\n');
        let take = newline.unwrap_or(buffer.len());
        if take > room {
            line.extend_from_slice(&buffer[..room]);
            input.consume(room);
            return Ok(Some(Line::TooLong));
        }
        line.extend_from_slice(&buffer[..take]);
        match newline {
            Some(at) => {
                input.consume(at + 1);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Some(Line::Whole));
            }
            None => input.consume(take),
        }
    }
}

/// Reads and drops the rest of a line, through its newline.
pub(crate) fn skip_line(input: &mut dyn BufRead) -> io::Result<()> {
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let n = buffer.len();
                input.consume(n);
            }
        }
    }
}

/// A line as messages quote it: at most [`QUOTED`] characters (then `…`), with what would not
/// show escaped — control characters such as NUL as `\0`, `\t` or `\u{1b}`, a backslash as
/// `\\`, and bytes that are not UTF-8 as `\xff`.
pub fn quote(bytes: &[u8]) -> String {
    let mut text = String::new();
    let mut shown = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if shown == QUOTED {
                text.push('…');
                return text;
            }
            shown += 1;
            match c {
                '\\' => text.push_str("\\\\"),
                '\0' => text.push_str("\\0"),
                '\t' => text.push_str("\\t"),
                '\r' => text.push_str("\\r"),
                '\n' => text.push_str("\\n"),
                c if c.is_control() => {
                    let _ = write!(text, "\\u{{{:x}}}", c as u32);
                }
                c => text.push(c),
            }
        }
        for &byte in chunk.invalid() {
            if shown == QUOTED {
                text.push('…');
                return text;
            }
            shown += 1;
            let _ = write!(text, "\\x{byte:02x}");
        }
    }
    text
}

/// Where a line that is not UTF-8 goes wrong, for a message: `byte 0xff at column 4`.
pub fn not_utf8(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(_) => "valid UTF-8".to_string(),
        Err(e) => {
            let at = e.valid_up_to();
            let column = String::from_utf8_lossy(&bytes[..at]).chars().count() + 1;
            format!("byte 0x{:02x} at column {column} is not UTF-8", bytes[at])
        }
    }
}

/// `i: label v1 v2 …` (`i:` only when the sum has several components).
pub fn notation(components: usize, step: &GameMove) -> String {
    let mut text = String::new();
    if components > 1 {
        let _ = write!(text, "{}: ", step.component + 1);
    }
    text.push_str(&rule_label(&step.rule));
    for (_, value) in &step.binders {
        let _ = write!(text, " {value}");
    }
    text
}

/// The word a player types for a rule: its label (`take` for "`take`"), `take` for a code's
/// moves, `line3` for the unlabelled rule at line 3, `edge` for a graph's edges.
fn rule_label(rule: &str) -> String {
    if let Some(label) = rule.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
        return label.to_string();
    }
    if rule.starts_with("the code") {
        return "take".to_string();
    }
    match rule.strip_prefix("the rule at line ") {
        Some(line) => format!("line{line}"),
        None => rule.to_string(),
    }
}

/// Whether `values` (positional, or `name=value`) are the move's binder values. A code's
/// moves list the tokens taken only: `take 2` names every way of taking two.
fn binders_match(step: &GameMove, values: &[&str]) -> bool {
    if values.len() != step.binders.len() {
        return false;
    }
    values
        .iter()
        .zip(&step.binders)
        .all(|(text, (name, value))| {
            let text = match text.split_once('=') {
                Some((n, v)) if n.trim() == name => v,
                Some(_) => return false,
                None => text,
            };
            text.trim().parse::<i64>() == Ok(*value)
        })
}

/// `sum` with component `index` replaced by `parts`.
fn replace(sum: &[Vec<u64>], index: usize, parts: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
    let mut after = Vec::with_capacity(sum.len() + parts.len());
    after.extend_from_slice(&sum[..index]);
    after.extend(parts);
    after.extend_from_slice(&sum[index + 1..]);
    after
}

fn sorted(sum: &[Vec<u64>]) -> Vec<Vec<u64>> {
    let mut sum = sum.to_vec();
    sum.sort();
    sum
}

/// Misère play of a game that can cycle has no value rule here.
fn refuse_misere_loopy(play: Play) -> Result<(), PlayError> {
    match play {
        Play::Misere => Err(PlayError::Unsupported(
            "misère play of a game that can cycle is not supported: drop --misere".into(),
        )),
        Play::Normal => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::SourceFile;

    /// ABC278 G's rules as its statement says them (a block of L..=R cards), and Kayles.
    fn games() -> Vec<Game> {
        let abc = "param L = 2\nparam R = 3\nmove remove: a in 0..=n, len in L..=R if a + len <= n => a, n - a - len\n";
        let kayles = "move take: a in 0..=n, len in 1..=2 if a + len <= n => a, n - a - len\n";
        [abc, kayles]
            .into_iter()
            .map(|text| crate::rules::load(SourceFile::new("t.sg", text), &[]).unwrap())
            .collect()
    }

    proptest! {
        /// The referee's kept table (one per game) against a fresh `solve` of each sum: the same
        /// verdict and the same good moves, turn after turn of a game that shrinks the sum.
        #[test]
        fn kept_values_judge_as_solve_does(
            heaps in proptest::collection::vec(0u64..40, 1..6),
            picks in proptest::collection::vec(0usize..1000, 1..30),
        ) {
            for game in games() {
                let referee = Referee::new(&game, Play::Normal, &[heaps.iter().map(|&h| vec![h]).collect::<Vec<_>>()].concat()).unwrap();
                prop_assert!(matches!(referee.rule, Rule::Normal(Some(_))));
                let mut sum: Vec<Vec<u64>> = heaps.iter().map(|&h| vec![h]).collect();
                for &pick in &picks {
                    let analysis = referee.analyse(&sum).unwrap();
                    if analysis.moves.is_empty() {
                        break;
                    }
                    let report = solve::solve(&game, &sum).unwrap();
                    let wins = report.outcome == Outcome::FirstPlayerWins;
                    prop_assert_eq!(analysis.verdict == Verdict::Wins, wins);
                    for m in &analysis.moves {
                        prop_assert_eq!(m.good, report.winning_moves.contains(&m.step), "{:?}", m.step);
                    }
                    let m = &analysis.moves[pick % analysis.moves.len()];
                    sum = m.after(&sum);
                }
            }
        }
    }
}
