//! Graph files: a game given as an explicit graph, one `edge U V` line per move.
//!
//! A file is a graph file when one of its lines starts with a graph word ([`GRAPH_KEYWORDS`]:
//! `edge`, `start`, `ground`, `hackenbush`). Those words are reserved in the whole language
//! ([`super::names::RESERVED`]), so such a line is an error in any other file and the choice
//! never changes the meaning of a valid file. A graph file is only those lines plus `name`,
//! `description` (and `play normal`); anything else is a located error.
//!
//! Graph lines are read by a fast path of their own, a split on blanks per line, with no
//! token vector and no syntax tree: a file of 10^6 edges is about 12 bytes of text per edge and
//! its load keeps about 8 bytes per edge (the edge list) besides the graph itself. This is what
//! lets a graph file be up to [`MAX_GRAPH_SOURCE_BYTES`] (256 MiB) where other rules texts stop
//! at [`super::MAX_SOURCE_BYTES`]. `name`, `description` and `play` lines go through the
//! ordinary lexer and parser, one line at a time.
//!
//! Nodes are numbered in increasing numeric order when every name is an integer (`edge 3 1`
//! makes node 0 the one named `1`), otherwise in order of first appearance in an `edge` line.

use std::collections::HashMap;

use super::ast::{Item, Play};
use super::check::duplicate;
use super::diagnostic::{article, Errors};
use super::names::{suggest, STATEMENT_KEYWORDS};
use super::{parser, Diagnostic, Game, GameKind, RulesError, SourceFile, Span};
use crate::graph::Graph;

/// The words that start a graph file's own lines.
pub const GRAPH_KEYWORDS: [&str; 4] = ["edge", "start", "ground", "hackenbush"];

/// The largest graph file loaded, in bytes (256 MiB, about 2·10^7 edges).
pub const MAX_GRAPH_SOURCE_BYTES: usize = 256 << 20;

/// A game given as an explicit graph (a graph file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphGame {
    /// Each node's name, by node index (an integer name in decimal, without leading zeros).
    pub names: Vec<String>,
    /// The moves: for a directed file, `edge U V` is a move from `U` to `V` (duplicates kept);
    /// for a hackenbush file, the adjacency of the undirected graph (each edge `u–v` as `u → v`
    /// and `v → u`, a loop `u → u` once), for walks such as "what touches the ground".
    pub graph: Graph,
    /// For a hackenbush file, its edges as given (`edge U V` is `(U, V)`, a loop `(U, U)`);
    /// empty for a directed file.
    pub undirected: Vec<(u32, u32)>,
    /// The `start` node: the position a `solve` or `play` without positions starts from.
    pub start: Option<u32>,
    /// The ground node, for a hackenbush file (`None`: a directed graph game).
    pub hackenbush: Option<u32>,
    /// Where the `start` line's node is written.
    pub start_span: Option<Span>,
    /// Where the `ground` line's node is written.
    pub ground_span: Option<Span>,
}

impl GraphGame {
    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.names.len()
    }

    /// The number of edges as written (moves of a directed file, edges of a hackenbush file).
    pub fn edge_count(&self) -> usize {
        match self.hackenbush {
            Some(_) => self.undirected.len(),
            None => self.graph.edge_count(),
        }
    }

    /// The name of node `v`.
    pub fn name(&self, v: u32) -> &str {
        self.names.get(v as usize).map_or("?", String::as_str)
    }

    /// The node named `name` (an integer name in any spelling: `007` is `7`).
    pub fn node(&self, name: &str) -> Option<u32> {
        let canonical = match parse_int(name) {
            Some(Ok(value)) => value.to_string(),
            _ => name.to_string(),
        };
        self.names
            .iter()
            .position(|n| *n == canonical)
            .map(|v| v as u32)
    }

    /// The nodes of a sum of tokens, names joined by `+` or spaces (`a + b`, `a b`), each read by
    /// [`GraphGame::node`]; the first name that is no node otherwise. The one reading of node
    /// names for `solve`, `play` and `judge`.
    pub fn nodes_of_sum<'t>(&self, text: &'t str) -> Result<Vec<u32>, &'t str> {
        text.split('+')
            .flat_map(str::split_whitespace)
            .map(|name| self.node(name).ok_or(name))
            .collect()
    }

    /// Nodes with no move (directed files).
    pub fn terminal_count(&self) -> usize {
        (0..self.node_count() as u32)
            .filter(|&v| self.graph.out_degree(v) == 0)
            .count()
    }

    /// What `check` says about the graph, e.g. `a graph of 5 nodes and 4 edges, 2 terminal,
    /// with cycles, start a` or `a hackenbush graph of 7 nodes and 6 edges, ground r, a tree`.
    pub fn summary(&self) -> String {
        let (n, m) = (self.node_count(), self.edge_count());
        let size = format!("{} and {}", plural(n, "node"), plural(m, "edge"));
        match self.hackenbush {
            None => {
                let shape = if self.graph.topological_order().is_some() {
                    "acyclic"
                } else {
                    "with cycles"
                };
                let start = self
                    .start
                    .map_or_else(String::new, |s| format!(", start {}", self.name(s)));
                format!(
                    "a graph of {size}, {} terminal, {shape}{start}",
                    self.terminal_count()
                )
            }
            Some(ground) => {
                let grounded = self.grounded_count(ground);
                let shape = if grounded < n {
                    format!(
                        "{} not connected to the ground",
                        plural(n - grounded, "node")
                    )
                } else if m + 1 == n {
                    "a tree".to_string()
                } else {
                    "connected, with cycles".to_string()
                };
                format!(
                    "a hackenbush graph of {size}, ground {}, {shape}",
                    self.name(ground)
                )
            }
        }
    }

    /// Nodes joined to `ground` by a path (itself included).
    fn grounded_count(&self, ground: u32) -> usize {
        let mut seen = vec![false; self.node_count()];
        let mut stack = vec![ground];
        seen[ground as usize] = true;
        let mut count = 1;
        while let Some(v) = stack.pop() {
            for &w in self.graph.successors(v) {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    count += 1;
                    stack.push(w);
                }
            }
        }
        count
    }
}

/// `1 node`, `4 nodes`.
fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

/// Whether `text` is a graph file: some line's first word is one of [`GRAPH_KEYWORDS`].
/// Works on bytes, so that a prefix of a file (cut anywhere) can be asked.
pub fn is_graph_text(text: &[u8]) -> bool {
    text.split(|&b| b == b'\n').any(|line| {
        let word = first_word(line);
        GRAPH_KEYWORDS.iter().any(|k| k.as_bytes() == word)
    })
}

/// The first word of a line: after blanks, up to a blank or `#`.
fn first_word(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        .unwrap_or(line.len());
    let rest = &line[start..];
    let end = rest
        .iter()
        .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'#'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The words of `line` (starting at byte `offset` of the text), up to a `#`, with their spans.
fn words(line: &str, offset: usize) -> impl Iterator<Item = (&str, Span)> {
    let content = line.find('#').map_or(line, |i| &line[..i]);
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &content[at..];
        let skip = rest.find(|c| !matches!(c, ' ' | '\t' | '\r'))?;
        let start = at + skip;
        let len = content[start..]
            .find([' ', '\t', '\r'])
            .unwrap_or(content.len() - start);
        at = start + len;
        Some((
            &content[start..start + len],
            Span::new(offset + start, offset + start + len),
        ))
    })
}

/// `Some(Ok(value))` for a decimal integer, `Some(Err(()))` for one too large for 64 bits,
/// `None` for anything else.
fn parse_int(word: &str) -> Option<Result<u64, ()>> {
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(word.parse().map_err(|_| ()))
}

fn is_identifier(word: &str) -> bool {
    let mut bytes = word.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A node name as written.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key<'a> {
    Int(u64),
    Ident(&'a str),
}

/// The node of a word, or why the word names none.
fn node_key(word: &str, span: Span) -> Result<Key<'_>, Diagnostic> {
    let help = "a node is a non-negative integer (`3`) or a name (`a`, `left_2`)";
    match parse_int(word) {
        Some(Ok(value)) => Ok(Key::Int(value)),
        Some(Err(())) => Err(
            Diagnostic::new(format!("node number `{word}` is too large"), span)
                .with_label("does not fit in 64 bits")
                .with_help(format!(
                    "node numbers are at most {}; or name the node by a word",
                    u64::MAX
                )),
        ),
        None if is_identifier(word) => Ok(Key::Ident(word)),
        None if word.starts_with('-') && parse_int(&word[1..]).is_some() => Err(Diagnostic::new(
            format!("`{word}` cannot name a node: it is negative"),
            span,
        )
        .with_label("a negative number")
        .with_help(help)),
        None => Err(
            Diagnostic::new(format!("`{word}` is not a node name"), span)
                .with_label("not an integer or a name")
                .with_help(help),
        ),
    }
}

/// Node numbers below this are looked up in a plain array rather than the hash map: the
/// usual graph file numbers its nodes `0..n`, and at `n = 10^6` with `10^7` edges the map's
/// random probes were half of the loading time. The array (4 bytes a number, grown by
/// doubling to the largest number seen) is at most 64 MiB.
const DENSE_NODE_LIMIT: u64 = 1 << 24;

/// No node yet in a slot of [`Nodes::dense`].
const ABSENT: u32 = u32::MAX;

/// Numbers the nodes as they are met.
#[derive(Default)]
struct Nodes<'a> {
    /// `dense[v]`: the id of node number `v < DENSE_NODE_LIMIT`, or [`ABSENT`].
    dense: Vec<u32>,
    /// The ids of every other node.
    ids: HashMap<Key<'a>, u32, crate::hash::Fast>,
    keys: Vec<Key<'a>>,
    all_integers: bool,
}

impl<'a> Nodes<'a> {
    fn id(&mut self, key: Key<'a>) -> u32 {
        let next = self.keys.len() as u32;
        let id = match key {
            Key::Int(v) if v < DENSE_NODE_LIMIT => {
                let v = v as usize;
                if v >= self.dense.len() {
                    let len = (v + 1)
                        .max(2 * self.dense.len())
                        .min(DENSE_NODE_LIMIT as usize);
                    self.dense.resize(len, ABSENT);
                }
                if self.dense[v] == ABSENT {
                    self.dense[v] = next;
                }
                self.dense[v]
            }
            _ => *self.ids.entry(key).or_insert(next),
        };
        if id == next {
            self.keys.push(key);
        }
        id
    }

    fn get(&self, key: &Key<'a>) -> Option<u32> {
        match *key {
            Key::Int(v) if v < DENSE_NODE_LIMIT => self
                .dense
                .get(v as usize)
                .copied()
                .filter(|&id| id != ABSENT),
            _ => self.ids.get(key).copied(),
        }
    }
}

/// Reads the graph file `source` (see the module docs); `overrides` must be empty, a graph
/// file having no parameters.
pub fn load(source: SourceFile, overrides: &[(String, i64)]) -> Result<Game, RulesError> {
    let mut lines = Lines::default();
    let mut offset = 0;
    for line in source.text.split('\n') {
        lines.line(line, offset);
        offset += line.len() + 1;
    }
    match lines.finish(overrides) {
        Ok(read) => Ok(Game {
            name: read
                .name
                .unwrap_or_else(|| super::lower::default_general_name(&source)),
            description: read.description,
            coordinate: "node".to_string(),
            params: Vec::new(),
            kind: GameKind::Graph { graph: read.graph },
            source,
            lowering_proof: None,
            not_lowered: None,
            play: read.play,
        }),
        Err(errors) => {
            let (diagnostics, more) = errors.into_parts();
            Err(RulesError {
                source,
                diagnostics,
                more,
            })
        }
    }
}

/// A node line (`start U`, `ground G`): the node, its span and the line's span.
type NodeLine<'a> = Option<(Key<'a>, Span, Span)>;

/// What a graph file's lines say, read one line at a time.
struct Lines<'a> {
    /// The errors of single lines; those of the whole file are found by [`Lines::finish`].
    errors: Errors,
    name: Option<String>,
    description: Option<String>,
    play: Option<(Play, Span)>,
    start: NodeLine<'a>,
    ground: NodeLine<'a>,
    hackenbush: Option<Span>,
    nodes: Nodes<'a>,
    /// The edges, between nodes numbered as they were met.
    edges: Vec<(u32, u32)>,
    /// The last line with a word, where "no edge" is reported.
    last_line: Span,
}

impl Default for Lines<'_> {
    fn default() -> Self {
        Lines {
            errors: Errors::new(),
            name: None,
            description: None,
            play: None,
            start: None,
            ground: None,
            hackenbush: None,
            nodes: Nodes {
                all_integers: true,
                ..Nodes::default()
            },
            edges: Vec::new(),
            last_line: Span::new(0, 0),
        }
    }
}

/// A graph file read without error: the graph and its `name`, `description` and `play` lines.
struct Read {
    graph: GraphGame,
    name: Option<String>,
    description: Option<String>,
    play: Option<(Play, Span)>,
}

impl<'a> Lines<'a> {
    /// Reads `line`, which starts at byte `line_start` of the text.
    fn line(&mut self, line: &'a str, line_start: usize) {
        let mut words = words(line, line_start);
        let Some((keyword, keyword_span)) = words.next() else {
            return;
        };
        let line_end = line_start + line.find('#').unwrap_or(line.len());
        let line_span = Span::new(
            keyword_span.start,
            line_start + line[..line_end - line_start].trim_end().len(),
        );
        self.last_line = line_span;
        match keyword {
            "edge" => self.edge(words, line_span),
            "start" | "ground" => self.node_line(keyword, words, line_span),
            "hackenbush" => self.hackenbush(words, line_span),
            "name" | "description" | "play" => {
                self.parsed_line(keyword, line, line_start, line_span)
            }
            _ => self.errors.push(not_a_graph_line(keyword, keyword_span)),
        }
    }

    /// `edge U V`.
    fn edge(&mut self, mut words: impl Iterator<Item = (&'a str, Span)>, line_span: Span) {
        let (Some((u, u_span)), Some((v, v_span))) = (words.next(), words.next()) else {
            self.errors.push(
                Diagnostic::new("`edge` needs two nodes", line_span)
                    .with_label("expected `edge U V`")
                    .with_help("write the move's two nodes, e.g. `edge a b` (a move from a to b)"),
            );
            return;
        };
        if let Some((third, span)) = words.next() {
            self.errors.push(
                Diagnostic::new(
                    format!("an edge joins two nodes, found a third: `{third}`"),
                    span,
                )
                .with_label("one node too many")
                .with_help("write one edge per line: `edge U V`"),
            );
            return;
        }
        match (node_key(u, u_span), node_key(v, v_span)) {
            (Ok(u), Ok(v)) => {
                self.nodes.all_integers &= matches!((u, v), (Key::Int(_), Key::Int(_)));
                let (u, v) = (self.nodes.id(u), self.nodes.id(v));
                self.edges.push((u, v));
            }
            (Err(e), _) | (_, Err(e)) => self.errors.push(e),
        }
    }

    /// `start U` or `ground G`: one node, on one such line.
    fn node_line(
        &mut self,
        keyword: &str,
        mut words: impl Iterator<Item = (&'a str, Span)>,
        line_span: Span,
    ) {
        let node = match (words.next(), words.next()) {
            (Some((node, span)), None) => node_key(node, span).map(|key| (key, span)),
            (_, Some((_, span))) => {
                Err(Diagnostic::new(format!("`{keyword}` names one node"), span)
                    .with_label("one node too many")
                    .with_help(format!("write `{keyword} U`")))
            }
            (None, None) => Err(
                Diagnostic::new(format!("`{keyword}` needs a node"), line_span)
                    .with_label(format!("expected `{keyword} U`"))
                    .with_help(format!("name the node, e.g. `{keyword} a`")),
            ),
        };
        let slot = if keyword == "start" {
            &mut self.start
        } else {
            &mut self.ground
        };
        match node {
            Ok(_) if slot.is_some() => self.errors.push(duplicate(keyword, line_span)),
            Ok((key, span)) => *slot = Some((key, span, line_span)),
            Err(e) => self.errors.push(e),
        }
    }

    /// `hackenbush`, alone on its line.
    fn hackenbush(&mut self, mut words: impl Iterator<Item = (&'a str, Span)>, line_span: Span) {
        if let Some((_, span)) = words.next() {
            self.errors.push(
                Diagnostic::new("`hackenbush` stands alone on its line", span)
                    .with_label("unexpected")
                    .with_help(
                        "write `hackenbush` alone, and the ground node on its own line: `ground G`",
                    ),
            );
        } else if self.hackenbush.is_some() {
            self.errors.push(duplicate("hackenbush", line_span));
        } else {
            self.hackenbush = Some(line_span);
        }
    }

    /// `name`, `description` or `play`: read by the ordinary parser, on this line alone, its
    /// spans then moved to the file's.
    fn parsed_line(&mut self, keyword: &str, line: &str, line_start: usize, line_span: Span) {
        let shift = |mut d: Diagnostic| {
            d.span = Span::new(d.span.start + line_start, d.span.end + line_start);
            d
        };
        let file = match parser::parse(line) {
            Ok(file) => file,
            Err(es) => return es.into_iter().for_each(|e| self.errors.push(shift(e))),
        };
        match file.items.into_iter().next() {
            Some(Item::Name { value, .. }) if self.name.is_none() => self.name = Some(value),
            Some(Item::Description { value, .. }) if self.description.is_none() => {
                self.description = Some(value)
            }
            Some(Item::Play {
                play: Play::Misere, ..
            }) => self.errors.push(
                Diagnostic::new(
                    "misère play of a graph file is not supported yet",
                    line_span,
                )
                .with_label("graph files are valued in normal play")
                .with_help("remove the `play misere` line"),
            ),
            Some(Item::Play { play, .. }) if self.play.is_none() => {
                self.play = Some((play, line_span))
            }
            _ => self.errors.push(duplicate(keyword, line_span)),
        }
    }

    /// The graph, or every error of the file: those of its lines and those of the whole file
    /// (a `--set`, no edge, a start or ground on no edge, `hackenbush` without `ground`).
    fn finish(mut self, overrides: &[(String, i64)]) -> Result<Read, Errors> {
        let mut late: Vec<Diagnostic> = Vec::new();
        if let Some((key, value)) = overrides.first() {
            late.push(
                Diagnostic::unlocated(format!("no parameter `{key}` (from --set {key}={value})"))
                    .with_help(format!(
                        "a graph file has no parameters: remove `--set {key}={value}`"
                    )),
            );
        }
        if self.edges.is_empty() && self.errors.is_empty() {
            let end = self.last_line.end;
            late.push(
                Diagnostic::new("this graph file has no edge", Span::new(end, end))
                    .with_label("no `edge` line")
                    .with_help("add the moves as `edge U V` lines (a move from U to V)"),
            );
        }
        let (renumber, names) = self.nodes.numbered();
        let start = self.end_node("start", &self.start, &renumber, &mut late);
        let ground = self.end_node("ground", &self.ground, &renumber, &mut late);
        late.extend(self.hackenbush_errors());
        if !self.errors.is_empty() || !late.is_empty() {
            self.errors.merge_late(late);
            return Err(self.errors);
        }
        for (u, v) in &mut self.edges {
            *u = renumber[*u as usize];
            *v = renumber[*v as usize];
        }
        let (graph, undirected) = match self.hackenbush {
            None => (Graph::from_edges(names.len(), &self.edges), Vec::new()),
            Some(_) => (
                Graph::from_edges(names.len(), &both_ways(&self.edges)),
                self.edges,
            ),
        };
        Ok(Read {
            graph: GraphGame {
                names,
                graph,
                undirected,
                start: start.map(|(v, _)| v),
                hackenbush: ground.map(|(v, _)| v),
                start_span: start.map(|(_, s)| s),
                ground_span: ground.map(|(_, s)| s),
            },
            name: self.name,
            description: self.description,
            play: self.play,
        })
    }

    /// The `start` or `ground` node (`what`), numbered, and its span; an error in `late` when
    /// it is on no edge.
    fn end_node(
        &self,
        what: &str,
        at: &NodeLine<'a>,
        renumber: &[u32],
        late: &mut Vec<Diagnostic>,
    ) -> Option<(u32, Span)> {
        let (key, span, _) = at.as_ref()?;
        match self.nodes.get(key) {
            Some(old) => Some((renumber[old as usize], *span)),
            None => {
                late.push(
                    Diagnostic::new(
                        format!("the {what} node `{}` is on no edge", show(key)),
                        *span,
                    )
                    .with_label("not a node of the graph")
                    .with_help(format!("name a node of some `edge` line as the {what}")),
                );
                None
            }
        }
    }

    /// A `hackenbush` line goes with a `ground` line, and without a `start` line.
    fn hackenbush_errors(&self) -> Vec<Diagnostic> {
        let mut errors = Vec::new();
        match (self.hackenbush, &self.ground) {
            (Some(_), Some(_)) | (None, None) => {}
            (None, Some((_, _, line))) => errors.push(
                Diagnostic::new("`ground` without `hackenbush`", *line)
                    .with_label("only a hackenbush graph has a ground")
                    .with_help("add a `hackenbush` line to make the file a green Hackenbush position, or remove the `ground` line"),
            ),
            (Some(line), None) => errors.push(
                Diagnostic::new("a graph with no ground for hackenbush", line)
                    .with_label("`hackenbush` needs a `ground` line")
                    .with_help("name the ground node on a line of its own: `ground G`"),
            ),
        }
        if let (Some(_), Some((_, _, line))) = (self.hackenbush, &self.start) {
            errors.push(
                Diagnostic::new("a hackenbush file has no `start` line", *line)
                    .with_label("`start` in a hackenbush file")
                    .with_help("a hackenbush position is the whole graph: remove the `start` line"),
            );
        }
        errors
    }
}

impl Nodes<'_> {
    /// `renumber[i]`, the number of the i-th node met (in increasing numeric order when every
    /// name is an integer, else in order of appearance), and the names by number.
    fn numbered(&self) -> (Vec<u32>, Vec<String>) {
        let count = self.keys.len();
        let renumber: Vec<u32> = if self.all_integers {
            let mut order: Vec<u32> = (0..count as u32).collect();
            order.sort_unstable_by_key(|&i| match self.keys[i as usize] {
                Key::Int(value) => value,
                Key::Ident(_) => u64::MAX,
            });
            let mut renumber = vec![0u32; count];
            for (new, &old) in order.iter().enumerate() {
                renumber[old as usize] = new as u32;
            }
            renumber
        } else {
            (0..count as u32).collect()
        };
        let mut names = vec![String::new(); count];
        for (old, key) in self.keys.iter().enumerate() {
            names[renumber[old] as usize] = show(key);
        }
        (renumber, names)
    }
}

/// A hackenbush file's edges as moves both ways (a loop once): its edges are undirected.
fn both_ways(edges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    edges
        .iter()
        .flat_map(|&(u, v)| {
            [(u, v), (v, u)]
                .into_iter()
                .take(if u == v { 1 } else { 2 })
        })
        .collect()
}

/// The error for a line that is no graph line: `param`, a family or move line, or a word
/// that is no statement.
fn not_a_graph_line(keyword: &str, keyword_span: Span) -> Diagnostic {
    match keyword {
        "param" => Diagnostic::new("a graph file has no parameters", keyword_span)
            .with_label("`param` in a graph file")
            .with_help("remove the line: a graph file lists its edges, there is nothing to set"),
        "heap" | "position" | "move" | "subtraction" | "octal" | "hex" | "takebreak" => {
            Diagnostic::new(
                format!(
                    "a graph file cannot have {} `{keyword}` line",
                    article(keyword)
                ),
                keyword_span,
            )
                .with_label("not a graph line")
                .with_help("a graph file is only `edge`/`start`/`ground`/`hackenbush` lines plus `name`/`description`; write move rules and family lines in a file of their own")
        }
        _ => {
            let help = match suggest(keyword, STATEMENT_KEYWORDS) {
                Some(s) => format!("did you mean `{s}`?"),
                None => "a graph file's lines start with `edge`, `start`, `ground`, `hackenbush`, `name` or `description`".to_string(),
            };
            Diagnostic::new(format!("unknown statement `{keyword}`"), keyword_span)
                .with_label("expected `edge` or another graph line")
                .with_help(help)
        }
    }
}

fn show(key: &Key) -> String {
    match key {
        Key::Int(value) => value.to_string(),
        Key::Ident(name) => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MAX_ERRORS;

    fn loaded(text: &str) -> Result<Game, RulesError> {
        super::super::load(SourceFile::new("t.sg", text), &[])
    }

    fn graph(text: &str) -> GraphGame {
        match loaded(text).unwrap_or_else(|e| panic!("{e}")).kind {
            GameKind::Graph { graph } => graph,
            _ => panic!("not a graph file"),
        }
    }

    fn first_error(text: &str) -> String {
        loaded(text).expect_err(text).diagnostics[0].message.clone()
    }

    #[test]
    fn graph_files_are_told_by_their_first_words() {
        assert!(is_graph_text(b"# c\n  edge a b # x\n"));
        assert!(is_graph_text(b"name \"g\"\nhackenbush\n"));
        assert!(!is_graph_text(b"# edge a b\nmove => none\nname \"edge\"\n"));
        assert!(!is_graph_text(b"edges a b\n"));
    }

    #[test]
    fn lines_names_and_comments() {
        let game =
            loaded("# g\nname \"a # b\" # c\ndescription \"d\"\nplay normal\nedge a b # e\n")
                .unwrap();
        assert_eq!(game.name, "a # b");
        assert_eq!(game.description.as_deref(), Some("d"));
        assert_eq!(game.coordinates(), ["node"]);
        assert!(game.code().is_none() && game.position_program().is_none());
        let g = graph("edge\ta\tb\r\nstart b\r\n");
        assert_eq!(g.names, ["a", "b"]);
        assert_eq!(g.start, Some(1));
        assert_eq!(
            g.summary(),
            "a graph of 2 nodes and 1 edge, 1 terminal, acyclic, start b"
        );
        assert_eq!(g.node("b"), Some(1));
        assert_eq!(graph("edge 05 1\n").node("5"), Some(1));
    }

    #[test]
    fn hackenbush_summaries() {
        let tree = graph("hackenbush\nground r\nedge r a\nedge a b\nedge r c\n");
        assert_eq!(
            tree.summary(),
            "a hackenbush graph of 4 nodes and 3 edges, ground r, a tree"
        );
        let cyclic = graph("hackenbush\nground r\nedge r a\nedge a r\n");
        assert!(cyclic.summary().ends_with("connected, with cycles"));
        let floating = graph("hackenbush\nground r\nedge r a\nedge b c\n");
        assert!(floating
            .summary()
            .ends_with("2 nodes not connected to the ground"));
    }

    #[test]
    fn error_messages_table() {
        let cases = [
            ("edge a", "`edge` needs two nodes"),
            ("edge a b c", "an edge joins two nodes, found a third: `c`"),
            ("edge 1.5 x", "`1.5` is not a node name"),
            ("edge -2 x", "`-2` cannot name a node: it is negative"),
            ("edge a b\nstart a\nstart b", "a second `start` line"),
            ("edge a b\nstart", "`start` needs a node"),
            ("edge a b\nstart a b", "`start` names one node"),
            (
                "hackenbush x\nground a\nedge a b",
                "`hackenbush` stands alone on its line",
            ),
            ("edge a b\nname \"x\"\nname \"y\"", "a second `name` line"),
            ("edge a b\nname x", "expected a string, found `x`"),
            ("start a", "the start node `a` is on no edge"),
            (
                "edge a b\nsubtraction {1}",
                "a graph file cannot have a `subtraction` line",
            ),
            ("edge a b\nfrobnicate", "unknown statement `frobnicate`"),
        ];
        for (text, want) in cases {
            assert_eq!(first_error(text), want, "{text}");
        }
        let no_edge = loaded("start a").unwrap_err().diagnostics;
        assert_eq!(no_edge[1].message, "this graph file has no edge");
        let located = loaded("edge a b\nname x").unwrap_err().diagnostics[0].span;
        assert_eq!(located, Span::new(14, 15));
        let e = super::super::load(SourceFile::new("t.sg", "edge a b"), &[("k".into(), 1)])
            .unwrap_err();
        assert!(e.diagnostics[0].message.contains("--set k=1"));
    }

    #[test]
    fn many_bad_lines_are_counted_not_kept() {
        let e = loaded(&"edge a\n".repeat(1000)).unwrap_err();
        assert_eq!(e.diagnostics.len(), MAX_ERRORS);
        assert_eq!(e.more, 1000 - MAX_ERRORS);
    }
}
