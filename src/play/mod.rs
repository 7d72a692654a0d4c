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
//! * green Hackenbush files: the position is the set of standing edges (one component, the
//!   edges' places in the file, 0-based, ascending); a move cuts one and every edge no longer
//!   joined to the ground falls; a cut is good when [`Hackenbush`] (colon and fusion
//!   principles) values what is left 0, searched within the request's step budget
//!   ([`budget::steps_limit`]; cuts left unsearched past it are not marked good). Each turn is
//!   `O(V + E)`.
//!
//! A move is written as the rules name it, `[i:] label v1 v2 …` (the component `i` counted
//! from 1, needed only when several components have the move; the binder values in the
//! rule's order, or as `name=value`), or as the sum it leaves (`= 1 + 4`, or `1 4`). A
//! Hackenbush cut is `cut U V` (the nodes' names, either order; when several standing edges
//! join `U` and `V`, the first of them in the file), `cut U V K` (the edge `U V` at place `K`
//! of the file, counted from 1 as `solve` counts them) or `edge K`; sgscope writes `cut U V`,
//! and `cut U V K` when several standing edges join `U` and `V`.

mod contestant;
pub mod judge;
pub mod session;

use std::fmt::Write as _;
use std::io::{self, BufRead};

use thiserror::Error;

use crate::engine::hackenbush::Hackenbush;
use crate::engine::{self, budget, EngineError, EngineOptions, Nimber, SgTable};
use crate::rules::{Game, GraphGame, Play};
use crate::solve::{self, moves, GameMove, MisereOptions, SolveError};
use crate::value::loopy::LoopyTable;
use crate::value::Outcome;

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
    /// Who wins, the player to move first (`N`: the player to move wins; `D`: neither can
    /// force a win, in games that can cycle).
    pub outcome: Outcome,
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
    /// A green Hackenbush file with its ground node: one component, the standing edges.
    Hackenbush(u32),
}

/// The start of a green Hackenbush file's game: its edges joined to the ground (an edge
/// already cut off is not part of the position), as the one component of the sum; `None` for
/// any other game. Refused, before anything is allocated, when the file is too large to value
/// ([`budget::check_graph`]).
pub fn hackenbush_start(game: &Game) -> Result<Option<Vec<Vec<u64>>>, PlayError> {
    let Some((graph, ground)) = game.graph().and_then(|g| Some((g, g.hackenbush?))) else {
        return Ok(None);
    };
    budget::check_graph(
        graph.node_count(),
        graph.undirected.len(),
        budget::HACKENBUSH_COST,
    )?;
    let all = 0..graph.undirected.len() as u64;
    Ok(Some(vec![joined_to_ground(graph, ground, all)]))
}

/// The edges of `standing` (places in the file) still joined to `ground` by standing edges,
/// ascending: a search from the ground over them, `O(V + E)`.
fn joined_to_ground(
    graph: &GraphGame,
    ground: u32,
    standing: impl Iterator<Item = u64> + Clone,
) -> Vec<u64> {
    let nodes = graph.node_count();
    let edge = |e: u64| graph.undirected[e as usize];
    // Adjacency of the standing edges (CSR): each edge at both ends.
    let mut start = vec![0u32; nodes + 1];
    for e in standing.clone() {
        let (a, b) = edge(e);
        start[a as usize + 1] += 1;
        start[b as usize + 1] += 1;
    }
    for v in 0..nodes {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut next = vec![0u32; start[nodes] as usize];
    for e in standing.clone() {
        let (a, b) = edge(e);
        for (x, y) in [(a, b), (b, a)] {
            next[fill[x as usize] as usize] = y;
            fill[x as usize] += 1;
        }
    }
    let mut reached = vec![false; nodes];
    let mut stack = vec![ground];
    reached[ground as usize] = true;
    while let Some(v) = stack.pop() {
        for &w in &next[start[v as usize] as usize..start[v as usize + 1] as usize] {
            if !reached[w as usize] {
                reached[w as usize] = true;
                stack.push(w);
            }
        }
    }
    let mut kept: Vec<u64> = standing.filter(|&e| reached[edge(e).0 as usize]).collect();
    kept.sort_unstable();
    kept
}

/// Lists and judges the moves of sums of one game under one value rule.
pub struct Referee<'g> {
    game: &'g Game,
    rule: Rule,
    /// Where its preparation and the searches of its turns report progress.
    options: EngineOptions,
}

impl<'g> Referee<'g> {
    /// A referee for `game` under `play`, for games starting from `start` (a game whose moves
    /// can cycle is valued on the positions reachable from it). Reports no progress
    /// ([`Referee::with_options`] does).
    pub fn new(game: &'g Game, play: Play, start: &[Vec<u64>]) -> Result<Self, PlayError> {
        Referee::with_options(game, play, start, EngineOptions::default())
    }

    /// [`Referee::new`], its preparation (the table of the start's heaps, the search over the
    /// positions reachable, a graph's or a cycling game's loopy table) and the misère search
    /// of each turn reporting progress to `options.progress`.
    pub fn with_options(
        game: &'g Game,
        play: Play,
        start: &[Vec<u64>],
        options: EngineOptions,
    ) -> Result<Self, PlayError> {
        if let Some(graph) = game.graph() {
            if let Some(ground) = graph.hackenbush {
                if play == Play::Misere {
                    return Err(PlayError::Unsupported(
                        "misère play of a hackenbush file is not supported: drop --misere".into(),
                    ));
                }
                budget::check_graph(
                    graph.node_count(),
                    graph.undirected.len(),
                    budget::HACKENBUSH_COST,
                )?;
                return Ok(Referee {
                    game,
                    rule: Rule::Hackenbush(ground),
                    options,
                });
            }
            refuse_misere_loopy(play)?;
            let rule = Rule::Loopy(LoopyTable::of_graph_with(graph, &options)?);
            return Ok(Referee {
                game,
                rule,
                options,
            });
        }
        let rule = match play {
            Play::Misere => Rule::Misere,
            Play::Normal => match solve::solve_with(game, start, &options) {
                Err(SolveError::Engine(EngineError::Cycle { .. })) => {
                    Rule::Loopy(LoopyTable::reachable_with(game, start, &options)?)
                }
                Err(error) => return Err(error.into()),
                Ok(_) => Rule::Normal(heap_values(game, start, &options)),
            },
        };
        Ok(Referee {
            game,
            rule,
            options,
        })
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.game
    }

    /// Whether the game is a green Hackenbush file (its moves are cuts).
    pub fn is_hackenbush(&self) -> bool {
        matches!(self.rule, Rule::Hackenbush(_))
    }

    /// The components of the position written `text` (a graph file's node names).
    pub fn parse_position(&self, text: &str) -> Result<Vec<Vec<u64>>, PlayError> {
        if self.is_hackenbush() {
            return Err(PlayError::Unsupported(
                "a hackenbush position is its standing edges: name a move as `cut U V`".into(),
            ));
        }
        if let (Rule::Loopy(_), Some(graph)) = (&self.rule, self.game.graph()) {
            // A graph file's loopy table has its nodes in the file's order.
            return match graph.nodes_of_sum(text) {
                Ok(nodes) => Ok(nodes.into_iter().map(|v| vec![u64::from(v)]).collect()),
                Err(name) => Err(PlayError::Unsupported(format!(
                    "`{name}` is not a node of {}",
                    self.game.name
                ))),
            };
        }
        let arity = self.game.coordinates().len();
        solve::parse_sum(text, arity).map_err(|e| SolveError::from(e).into())
    }

    /// The sum written as on the command line: `3 + 5`, `(3, 4) + (1, 2)`, `a + b`; a
    /// Hackenbush position as `ground r: r-a a-b b-r` (its first [`SHOWN_EDGES`] edges, then
    /// how many stand).
    pub fn show(&self, sum: &[Vec<u64>]) -> String {
        self.show_within(sum, SHOWN_EDGES)
    }

    /// [`Referee::show`], with every edge of a Hackenbush position (the judge's `position`
    /// line: `ground G:` then each standing edge `U-V`, in the file's order).
    pub fn show_whole(&self, sum: &[Vec<u64>]) -> String {
        self.show_within(sum, usize::MAX)
    }

    fn show_within(&self, sum: &[Vec<u64>], most: usize) -> String {
        if let (Rule::Hackenbush(ground), Some(graph)) = (&self.rule, self.game.graph()) {
            let standing = sum.first().map_or(&[][..], Vec::as_slice);
            let mut text = format!("ground {}:", graph.name(*ground));
            if standing.is_empty() {
                text.push_str(" no edge standing");
            }
            for &e in standing.iter().take(most) {
                let (a, b) = graph.undirected[e as usize];
                let _ = write!(text, " {}-{}", graph.name(a), graph.name(b));
            }
            if standing.len() > most {
                let _ = write!(text, " … ({} edges standing)", standing.len());
            }
            return text;
        }
        if sum.is_empty() {
            return "nothing (no component left)".to_string();
        }
        match &self.rule {
            Rule::Loopy(table) if self.game.graph().is_some() => sum
                .iter()
                .map(|c| table.name(c[0] as usize).into_owned())
                .collect::<Vec<_>>()
                .join(" + "),
            _ => solve::show_sum(sum),
        }
    }

    /// Every legal move of `sum`, and who wins it.
    pub fn analyse(&self, sum: &[Vec<u64>]) -> Result<Analysis, PlayError> {
        match &self.rule {
            Rule::Loopy(table) => self.analyse_loopy(table, sum),
            Rule::Hackenbush(ground) => self.analyse_hackenbush(*ground, sum),
            rule => {
                let mut listed = Vec::new();
                for (i, c) in sum.iter().enumerate() {
                    listed.extend(moves::moves_of(self.game, i, c)?);
                }
                if listed.is_empty() {
                    // No move: normal play, the player to move has lost; misère, has won.
                    let outcome = match rule {
                        Rule::Misere => Outcome::N,
                        _ => Outcome::P,
                    };
                    return Ok(Analysis {
                        sum: sum.to_vec(),
                        outcome,
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
                    Rule::Misere => solve::solve_misere(
                        self.game,
                        sum,
                        MisereOptions {
                            progress: self.options.progress.clone(),
                            ..MisereOptions::default()
                        },
                    )?,
                    // Every winning move, named as `listed` names it.
                    _ => solve::solve_listing_every_move(self.game, sum, &self.options)?,
                };
                let outcome = report.outcome;
                let moves = listed
                    .into_iter()
                    .map(|step| PlayMove {
                        good: report.winning_moves.contains(&step),
                        step,
                    })
                    .collect();
                Ok(Analysis {
                    sum: sum.to_vec(),
                    outcome,
                    moves,
                })
            }
        }
    }

    /// The cuts of the standing edges `sum[0]`: one move per standing edge (binders `edge`,
    /// its place in the file from 1, and `parallel`, how many standing edges join the same two
    /// nodes), good when it leaves value 0.
    fn analyse_hackenbush(&self, ground: u32, sum: &[Vec<u64>]) -> Result<Analysis, PlayError> {
        let graph = self.game.graph().expect("a hackenbush referee has a graph");
        let standing = sum.first().map_or(&[][..], Vec::as_slice);
        let edges = standing
            .iter()
            .map(|&e| {
                graph.undirected.get(e as usize).copied().ok_or_else(|| {
                    PlayError::Unsupported(format!("edge {} is not in the file", e + 1))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let position = Hackenbush::new(graph.node_count(), edges, ground)
            .map_err(|e| PlayError::Unsupported(e.to_string()))?;
        let outcome = Outcome::of_value(position.value());
        let mut good = vec![false; standing.len()];
        if outcome == Outcome::N {
            for e in position
                .winning_cuts_within(0, budget::steps_limit())
                .winning
            {
                good[e] = true;
            }
        }
        let pair = |(a, b): (u32, u32)| (a.min(b), a.max(b));
        let mut parallel: std::collections::HashMap<(u32, u32), i64, crate::hash::Fast> =
            Default::default();
        for &edge in position.edges() {
            *parallel.entry(pair(edge)).or_default() += 1;
        }
        let moves = standing
            .iter()
            .enumerate()
            .filter(|&(i, _)| position.in_play(i))
            .map(|(i, &e)| PlayMove {
                step: GameMove {
                    component: 0,
                    rule: "cut".to_string(),
                    binders: vec![
                        ("edge".to_string(), e as i64 + 1),
                        ("parallel".to_string(), parallel[&pair(position.edges()[i])]),
                    ],
                    result: Vec::new(),
                },
                good: good[i],
            })
            .collect();
        Ok(Analysis {
            sum: sum.to_vec(),
            outcome,
            moves,
        })
    }

    /// The whole sum after the move `m` of `sum`: [`PlayMove::after`], or for a Hackenbush
    /// cut the standing edges without the one cut and those that fell with it (`O(V + E)`).
    pub fn after(&self, sum: &[Vec<u64>], m: &PlayMove) -> Vec<Vec<u64>> {
        match (&self.rule, self.game.graph(), cut_edge(m)) {
            (Rule::Hackenbush(ground), Some(graph), Some(cut)) => {
                let standing = sum.first().map_or(&[][..], Vec::as_slice);
                let left = standing.iter().copied().filter(move |&e| e != cut);
                vec![joined_to_ground(graph, *ground, left)]
            }
            _ => m.after(sum),
        }
    }

    /// The move as a player types it: [`notation`], or a Hackenbush cut as `cut U V` (and the
    /// edge's place `K` in the file, `cut U V K`, when several standing edges join `U` and `V`).
    pub fn notation(&self, sum: &[Vec<u64>], m: &PlayMove) -> String {
        match (self.game.graph(), cut_edge(m)) {
            (Some(graph), Some(cut)) if self.is_hackenbush() => {
                let (a, b) = graph.undirected[cut as usize];
                let mut text = format!("cut {} {}", graph.name(a), graph.name(b));
                if m.step.binders.get(1).is_some_and(|(_, n)| *n > 1) {
                    let _ = write!(text, " {}", cut + 1);
                }
                text
            }
            _ => notation(sum.len(), &m.step),
        }
    }

    /// The Hackenbush cut `text` names (see the module docs), `None` when it names none.
    fn read_cut<'a>(&self, analysis: &'a Analysis, text: &str) -> Option<&'a PlayMove> {
        let graph = self.game.graph()?;
        let words: Vec<&str> = text.split_whitespace().collect();
        let place = |k: &str| k.parse::<u64>().ok().and_then(|k| k.checked_sub(1));
        let (ends, place) = match words[..] {
            ["edge", k] => (None, Some(place(k)?)),
            ["cut", u, v] => (Some((u, v)), None),
            ["cut", u, v, k] => (Some((u, v)), Some(place(k)?)),
            _ => return None,
        };
        let ends = match ends {
            Some((u, v)) => {
                let (u, v) = (graph.node(u)?, graph.node(v)?);
                Some((u.min(v), u.max(v)))
            }
            None => None,
        };
        analysis.moves.iter().find(|m| {
            let Some(e) = cut_edge(m) else {
                return false;
            };
            let (a, b) = graph.undirected[e as usize];
            place.is_none_or(|k| k == e) && ends.is_none_or(|ends| ends == (a.min(b), a.max(b)))
        })
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
                outcome: Outcome::P,
                moves: Vec::new(),
            });
        }
        let report = solve::loopy::solve_loopy(self.game, table, &nodes)?;
        let outcome = report.outcome;
        let mut moves = Vec::new();
        let (mut winning_at, mut drawing_at) = (0, 0);
        for (i, &v) in nodes.iter().enumerate() {
            for (to, rule, binders) in solve::loopy::moves_of(self.game, table, i, v)? {
                let result: Vec<Vec<u64>> = if (to as usize) >= table.rows {
                    Vec::new()
                } else if graph_file {
                    vec![vec![u64::from(to)]]
                } else {
                    vec![table.position(to as usize).unwrap_or_default().to_vec()]
                };
                let name = table.name(to as usize);
                let name = name.as_ref();
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
                    || (outcome == Outcome::D && next_of(&report.drawing_moves, &mut drawing_at));
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
            outcome,
            moves,
        })
    }

    /// A move as a player writes it: `label v1 v2 …` (with `i:` first when `sum` has several
    /// components), and what it leaves: `take 2 → 1 + 4`.
    pub fn describe(&self, sum: &[Vec<u64>], m: &PlayMove) -> String {
        let mut text = self.notation(sum, m);
        let _ = write!(text, " → {}", self.show(&self.after(sum, m)));
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
        if self.is_hackenbush() {
            return self.read_cut(analysis, text).ok_or_else(illegal);
        }
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

/// The edge a Hackenbush cut cuts (its place in the file, from 0).
fn cut_edge(m: &PlayMove) -> Option<u64> {
    match (m.step.rule.as_str(), m.step.binders.first()) {
        ("cut", Some((name, k))) if name == "edge" => u64::try_from(*k - 1).ok(),
        _ => None,
    }
}

/// Edges of a Hackenbush position shown by [`Referee::show`], at most.
pub const SHOWN_EDGES: usize = 40;

/// The table of a heap game (one coordinate, no graph) up to the largest heap of `start`, when
/// the engine computes it; `None` otherwise (each turn then goes through `solve`).
fn heap_values(game: &Game, start: &[Vec<u64>], options: &EngineOptions) -> Option<SgTable> {
    if game.graph().is_some() || game.position_program().is_some() {
        return None;
    }
    let largest = start.iter().filter_map(|c| c.first().copied()).max()?;
    engine::compute(game, largest, options).ok()
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
        let total = sum.iter().map(value).sum::<Option<Nimber>>()?;
        let mut good = Vec::with_capacity(listed.len());
        for step in &listed {
            // The moved component replaced by what it leaves (⊕ is its own inverse).
            let after = total + value(&sum[step.component])?;
            let left = step.result.iter().map(value).sum::<Option<Nimber>>()?;
            good.push((after + left).is_zero());
        }
        Some((total.value(), good))
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
        outcome: Outcome::of_value(total),
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

    /// Keeps the events a referee's preparation reports.
    #[derive(Default)]
    struct Heard(std::sync::Mutex<Vec<crate::engine::progress::Event>>);

    impl crate::engine::ProgressSink for Heard {
        fn update(&self, update: &crate::engine::progress::Update) -> bool {
            self.0.lock().unwrap().push(update.event);
            false
        }
    }

    /// A referee's preparation reports its progress to the sink passed with
    /// [`Referee::with_options`] (`play` and `judge` were silent however long it took): the
    /// table of a heap game's start, the loopy table of a graph file that cycles; and
    /// [`Referee::new`] reports nothing.
    #[test]
    fn a_referee_reports_its_preparation_to_the_sink_it_is_given() {
        use crate::engine::progress::Event;
        let kayles = &games()[1];
        let cycle = crate::rules::load(
            SourceFile::new("c.sg", "edge a b\nedge b a\nedge b c\n"),
            &[],
        )
        .unwrap();
        for (game, start) in [(kayles, vec![vec![300]]), (&cycle, vec![vec![0]])] {
            let heard = std::sync::Arc::new(Heard::default());
            let options = EngineOptions {
                progress: Some(heard.clone()),
            };
            Referee::with_options(game, Play::Normal, &start, options).unwrap();
            let events = heard.0.lock().unwrap().clone();
            assert!(
                events.contains(&Event::Started) && events.contains(&Event::Finished),
                "{}: {events:?}",
                game.name
            );
        }
        // A misère turn's search over sums too (Kayles' heaps 8 + 9: a wild sum).
        let heard = std::sync::Arc::new(Heard::default());
        let options = EngineOptions {
            progress: Some(heard.clone()),
        };
        let start = vec![vec![8], vec![9]];
        let referee = Referee::with_options(kayles, Play::Misere, &start, options).unwrap();
        referee.analyse(&start).unwrap();
        assert!(!heard.0.lock().unwrap().is_empty());
    }

    /// ABC278 G's rules as its statement says them (a block of L..=R cards), and Kayles.
    fn games() -> Vec<Game> {
        let abc = "param L = 2\nparam R = 3\nmove remove: a in 0..=n, len in L..=R if a + len <= n => a, n - a - len\n";
        let kayles = "move take: a in 0..=n, len in 1..=2 if a + len <= n => a, n - a - len\n";
        [abc, kayles]
            .into_iter()
            .map(|text| crate::rules::load(SourceFile::new("t.sg", text), &[]).unwrap())
            .collect()
    }

    /// A green Hackenbush file of `edges` (node names as numbers) on the ground 0.
    fn hackenbush_game(edges: &[(u32, u32)]) -> Game {
        let mut text = String::from("hackenbush\nground 0\n");
        for (a, b) in edges {
            let _ = writeln!(text, "edge {a} {b}");
        }
        crate::rules::load(SourceFile::new("h.sg", &text), &[]).unwrap()
    }

    proptest! {
        /// Random small Hackenbush graphs (loops, parallel edges, parts off the ground) played
        /// out, good moves mixed with others: at every turn the outcome and each cut's mark
        /// are the brute-force game tree's (`oracle::hackenbush`), and what a cut leaves is
        /// the oracle's standing edges still joined to the ground.
        #[test]
        fn hackenbush_cuts_are_judged_as_the_game_tree_says(
            first in 1u32..5,
            edges in proptest::collection::vec((0u32..6, 0u32..6), 0..11),
            picks in proptest::collection::vec((any::<bool>(), 0usize..100), 12),
        ) {
            use crate::oracle::hackenbush::BruteForce;
            let edges: Vec<(u32, u32)> = std::iter::once((0, first)).chain(edges).collect();
            let game = hackenbush_game(&edges);
            let graph = game.graph().unwrap();
            let ground = graph.hackenbush.unwrap();
            let start = hackenbush_start(&game).unwrap().unwrap();
            let referee = Referee::new(&game, Play::Normal, &start).unwrap();
            let mut sum = start;
            for &(best, pick) in &picks {
                let standing = sum[0].clone();
                let pairs: Vec<(u32, u32)> =
                    standing.iter().map(|&e| graph.undirected[e as usize]).collect();
                let mut oracle = BruteForce::new(&pairs, ground);
                let all = ((1u64 << pairs.len()) - 1) as u32;
                prop_assert_eq!(oracle.connected(all), all, "only standing edges are kept");
                let analysis = referee.analyse(&sum).unwrap();
                let value = oracle.value();
                prop_assert_eq!(analysis.outcome == Outcome::N, value != 0);
                prop_assert_eq!(analysis.moves.len(), standing.len());
                for (i, m) in analysis.moves.iter().enumerate() {
                    prop_assert_eq!(cut_edge(m), Some(standing[i]));
                    let after = all & !(1 << i);
                    prop_assert_eq!(m.good, oracle.value_of(after) == 0, "cut {}", standing[i] + 1);
                    // The move's notation reads back as the move itself.
                    let text = referee.notation(&sum, m);
                    let read = referee.read_move(&analysis, &text).unwrap();
                    prop_assert_eq!(cut_edge(read), cut_edge(m), "{}", text);
                }
                if analysis.moves.is_empty() {
                    break;
                }
                let m = match analysis.best() {
                    Some(good) if best => good,
                    _ => &analysis.moves[pick % analysis.moves.len()],
                };
                let i = analysis.moves.iter().position(|x| x == m).unwrap();
                let kept = oracle.connected(all & !(1 << i));
                let expected: Vec<u64> = (0..standing.len())
                    .filter(|&j| kept & (1 << j) != 0)
                    .map(|j| standing[j])
                    .collect();
                sum = referee.after(&sum, m);
                prop_assert_eq!(&sum[0], &expected);
            }
        }

        /// The referee's kept table (one per game) against a fresh `solve` of each sum: the same
        /// outcome and the same good moves, turn after turn of a game that shrinks the sum.
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
                    let wins = report.outcome == Outcome::N;
                    prop_assert_eq!(analysis.outcome == Outcome::N, wins);
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
