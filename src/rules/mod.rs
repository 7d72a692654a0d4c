//! The rules language: from the text of a `.sg` file to a [`Game`].
//!
//! The pipeline is that of a small compiler: [`lexer`] → [`parser`] (building the [`ast`]) →
//! [`check`] (names, parameters, types; to the [`checked`] program) → [`lower`] (to a
//! take-and-break [`code`] when the rules are one, and to a compiled [`program`] otherwise).
//! Keywords, built-in functions and "did you mean" suggestions are in [`names`]. Every error
//! is a [`Diagnostic`] with a span, rendered as `file:line:col`, the line, a caret and a
//! `help:` line; a text with many errors shows the first [`MAX_ERRORS`]. A rules text is at
//! most [`MAX_SOURCE_BYTES`] (1 MiB) of UTF-8: loading takes about 90 bytes of memory per byte
//! of text (tokens, syntax tree and checked program), so a larger one is refused.
//! The grammar is documented in `docs/rules.md`.

pub mod arith;
pub mod ast;
pub mod check;
pub mod checked;
pub mod code;
pub mod diagnostic;
pub mod graph;
pub mod interval;
pub mod lexer;
pub mod linear;
pub mod lower;
pub mod names;
pub mod parser;
pub mod path;
pub mod program;
pub mod sieve;
pub mod thresholds;
pub mod token;
pub mod warn;

use std::fmt;

pub use ast::Play;
pub use code::TakeBreakCode;
pub use diagnostic::{Diagnostic, SourceFile, Span, MAX_ERRORS};
pub use graph::{GraphGame, MAX_GRAPH_SOURCE_BYTES};
pub use path::{load_path, load_path_with_warnings, read_path, PathError};
pub use program::Program;

/// A game read from a rules file, ready for the engine.
#[derive(Clone, Debug)]
pub struct Game {
    /// The `name` line, or a name derived from the family form (e.g. "octal 0.07").
    pub name: String,
    /// The `description` line, if any.
    pub description: Option<String>,
    /// The name of the position coordinate (`n` unless the file says `heap m`).
    pub coordinate: String,
    /// Parameter values after `--set` overrides, in declaration order.
    pub params: Vec<(String, i64)>,
    /// What the moves are.
    pub kind: GameKind,
    /// The text the game was read from, for rendering run-time rule errors.
    pub source: SourceFile,
    /// For general rules lowered to a code (`GameKind::General { lowered: Some(_), .. }`):
    /// why the rules' moves are the code's ([`LoweringProof`]).
    pub lowering_proof: Option<LoweringProof>,
    /// For general rules that stay general rules: why lowering found no code (`check` shows
    /// it, located, with a rewrite where one would lower).
    pub not_lowered: Option<lower::NotLowered>,
    /// The file's `play` line (`play misere`) and where it is written; without one a game is
    /// valued in normal play unless the command line asks for misère play.
    pub play: Option<(Play, Span)>,
}

/// General rules recognised as a take-and-break code (see [`lower`]): the code, and why the
/// rules' moves are the code's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lowering {
    /// The code the engine runs instead of the rules.
    pub code: TakeBreakCode,
    /// Why the rules' moves are the code's.
    pub proof: LoweringProof,
}

/// Why lowered rules have the code's moves at every heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoweringProof {
    /// Checked equal for every heap `n ≤ to` (the verification bound `V`), and beyond it by the
    /// lowering argument of [`lower`] (breakpoints estimated from the constants).
    Checked {
        /// The verification bound `V`.
        to: u64,
    },
    /// Equal for every heap by [`thresholds`]: a subtraction game whose removals are decided by
    /// affine thresholds, compared at every heap where their order can change.
    Thresholds {
        /// How many heaps were compared.
        checks: usize,
    },
}

impl Lowering {
    /// The bound up to which the moves were checked one heap at a time, `None` when they are
    /// the code's at every heap by [`LoweringProof::Thresholds`].
    pub fn checked_to(&self) -> Option<u64> {
        match self.proof {
            LoweringProof::Checked { to } => Some(to),
            LoweringProof::Thresholds { .. } => None,
        }
    }

    /// Whether the code's moves at every heap up to `n` are the rules' by a check or a proof
    /// (not by the estimate of the lowering argument).
    pub fn exact_to(&self, n: u64) -> bool {
        self.checked_to().is_none_or(|to| to >= n)
    }
}

/// How a game's moves are described.
#[derive(Clone, Debug)]
pub enum GameKind {
    /// A family form (`subtraction`, `octal`, `hex`, `takebreak`), as a take-and-break code.
    Code {
        /// The code.
        code: TakeBreakCode,
    },
    /// General move rules, compiled; `lowered` is an equivalent code when lowering found one,
    /// so that the engine can use its fast kernel.
    General {
        /// The compiled rules.
        program: Program,
        /// An equivalent take-and-break code, if the rules are one.
        lowered: Option<TakeBreakCode>,
    },
    /// An explicit graph (a graph file, see [`graph`]): a position is a node of a directed
    /// graph, or, for a hackenbush file, the whole undirected graph with its ground.
    Graph {
        /// The graph, its node names, start and ground.
        graph: GraphGame,
    },
}

impl Game {
    /// The take-and-break code the engine can use for this game, if any.
    pub fn code(&self) -> Option<&TakeBreakCode> {
        match &self.kind {
            GameKind::Code { code, .. } => Some(code),
            GameKind::General { lowered, .. } => lowered.as_ref(),
            GameKind::Graph { .. } => None,
        }
    }

    /// The graph of a graph file, `None` for rules.
    pub fn graph(&self) -> Option<&GraphGame> {
        match &self.kind {
            GameKind::Graph { graph } => Some(graph),
            _ => None,
        }
    }

    /// The game's own scale: the heap size below which its table may show a truncated game
    /// rather than its pattern. For a code, [`TakeBreakCode::scale`]; for general rules, the
    /// largest of the parameters and integer constants written in the rules (a threshold such
    /// as `x <= k` or `n >= 100` changes the moves there); 0 for graph files, whose tables are
    /// not sequences.
    pub fn scale(&self) -> usize {
        match &self.kind {
            GameKind::Code { code } => code.scale(),
            GameKind::General { lowered, .. } => {
                let (tokens, _) = lexer::lex(&self.source.text);
                let constants = tokens
                    .iter()
                    .filter(|t| t.kind == token::TokenKind::Int)
                    .filter_map(|t| t.text(&self.source.text).parse::<u64>().ok());
                let params = self.params.iter().map(|(_, v)| v.unsigned_abs());
                let written = constants.chain(params).max().unwrap_or(0);
                let written = usize::try_from(written).unwrap_or(usize::MAX);
                written.max(lowered.as_ref().map_or(0, TakeBreakCode::scale))
            }
            GameKind::Graph { .. } => 0,
        }
    }

    /// The code general rules were lowered to, with the bound of its verification; `None`
    /// for a family form (which is its code by definition) and for rules without a code.
    pub fn lowering(&self) -> Option<Lowering> {
        match (&self.kind, self.lowering_proof) {
            (
                GameKind::General {
                    lowered: Some(code),
                    ..
                },
                Some(proof),
            ) => Some(Lowering {
                code: code.clone(),
                proof,
            }),
            _ => None,
        }
    }

    /// The compiled rules of a `position (…)` game, `None` for a heap game.
    pub fn position_program(&self) -> Option<&Program> {
        match &self.kind {
            GameKind::General { program, .. } if program.is_position_game() => Some(program),
            _ => None,
        }
    }

    /// The coordinates' names: those of the `position` line, or the heap's (`[n]`); a graph
    /// file's positions are its nodes (`[node]`).
    pub fn coordinates(&self) -> Vec<String> {
        match (self.position_program(), &self.kind) {
            (Some(program), _) => program.coordinates().to_vec(),
            (None, GameKind::Graph { .. }) => vec!["node".to_string()],
            (None, _) => vec![self.coordinate.clone()],
        }
    }

    /// The value of parameter `name`.
    pub fn param(&self, name: &str) -> Option<i64> {
        self.params.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }
}

/// Errors found in a rules text, with the text they refer to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    /// The text the errors are in.
    pub source: SourceFile,
    /// One or more errors, in source order: the first [`MAX_ERRORS`] found.
    pub diagnostics: Vec<Diagnostic>,
    /// How many more errors were found (counted, not kept).
    pub more: usize,
}

impl RulesError {
    fn new(source: &SourceFile, errors: diagnostic::Errors) -> Self {
        let (diagnostics, more) = errors.into_parts();
        RulesError {
            source: source.clone(),
            diagnostics,
            more,
        }
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines = diagnostic::LineIndex::new(&self.source);
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", d.render_indexed(&lines))?;
        }
        if self.more > 0 {
            let s = if self.more == 1 { "" } else { "s" };
            writeln!(f)?;
            writeln!(f, "error: … and {} more error{s}", self.more)?;
        }
        Ok(())
    }
}

impl std::error::Error for RulesError {}

/// The largest rules text loaded, in bytes (1 MiB: the largest shipped file is about 2 KB).
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// The error for a text longer than `limit` ([`MAX_SOURCE_BYTES`], or
/// [`MAX_GRAPH_SOURCE_BYTES`] for a graph file), at its first byte past the limit.
fn too_large(source: &SourceFile, limit: usize) -> RulesError {
    let mut at = limit.min(source.text.len());
    while !source.text.is_char_boundary(at) {
        at -= 1;
    }
    let (size, help) = if limit == MAX_SOURCE_BYTES {
        ("1 MiB", "a game needs a few lines: describe its moves with ranges (`x in 1..=k`) and conditions instead of one line per move")
    } else {
        ("256 MiB", "a graph file holds at most about 2·10^7 edges: split the graph, or describe its moves by rules")
    };
    let diagnostic = Diagnostic::new(
        format!("the rules text is larger than {limit} bytes ({size}), the most sgscope reads"),
        Span::new(at, at),
    )
    .with_label("the limit is reached here")
    .with_help(help);
    RulesError {
        source: source.clone(),
        diagnostics: vec![diagnostic],
        more: 0,
    }
}

/// The most bytes of a rules text read: [`MAX_SOURCE_BYTES`], or [`MAX_GRAPH_SOURCE_BYTES`]
/// when its first `MAX_SOURCE_BYTES` are those of a graph file ([`graph::is_graph_text`]).
pub fn source_limit(prefix: &[u8]) -> usize {
    if graph::is_graph_text(&prefix[..prefix.len().min(MAX_SOURCE_BYTES)]) {
        MAX_GRAPH_SOURCE_BYTES
    } else {
        MAX_SOURCE_BYTES
    }
}

/// The rules text named `name` from the bytes of a file: an error if they are not UTF-8
/// (located at the first bad byte, with its offset) or longer than [`source_limit`].
/// `bytes` may be cut after `source_limit + 1` bytes: only their length is then known.
pub fn source_from_bytes(name: &str, mut bytes: Vec<u8>) -> Result<SourceFile, RulesError> {
    let limit = source_limit(&bytes);
    if bytes.len() > limit {
        bytes.truncate(limit + 1);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        return Err(too_large(&SourceFile::new(name, text), limit));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile::new(name, text)),
        Err(e) => {
            let error = e.utf8_error();
            let at = error.valid_up_to();
            let bad = error.error_len().unwrap_or(e.as_bytes().len() - at);
            let shown = e.as_bytes()[at..at + bad]
                .iter()
                .map(|b| format!("0x{b:02X}"))
                .collect::<Vec<_>>()
                .join(" ");
            // The text up to the bad byte is the same in the lossy copy, so are its offsets.
            let source = SourceFile::new(name, String::from_utf8_lossy(e.as_bytes()).into_owned());
            let diagnostic = Diagnostic::new(
                format!("the rules text is not valid UTF-8: byte {shown} at byte offset {at}"),
                Span::new(at, at + '\u{FFFD}'.len_utf8()),
            )
            .with_label("not UTF-8 (shown as �)")
            .with_help(
                "save the file as UTF-8 text (e.g. `iconv -f latin1 -t utf-8`), or remove the byte",
            );
            Err(RulesError {
                source,
                diagnostics: vec![diagnostic],
                more: 0,
            })
        }
    }
}

/// Reads a game from `source`, applying `--set NAME=VALUE` overrides.
///
/// An override that names no parameter is an error with a "did you mean". A text longer than
/// [`MAX_SOURCE_BYTES`] is refused.
pub fn load(source: SourceFile, overrides: &[(String, i64)]) -> Result<Game, RulesError> {
    Ok(load_with_warnings(source, overrides)?.0)
}

/// [`load`], with the [`warn`]ings about the rules (render them with
/// [`Diagnostic::render_warning`]).
pub fn load_with_warnings(
    source: SourceFile,
    overrides: &[(String, i64)],
) -> Result<(Game, Vec<Diagnostic>), RulesError> {
    let limit = source_limit(source.text.as_bytes());
    if source.text.len() > limit {
        return Err(too_large(&source, limit));
    }
    if graph::is_graph_text(source.text.as_bytes()) {
        return Ok((graph::load(source, overrides)?, Vec::new()));
    }
    let file = parser::parse_counted(&source.text).map_err(|e| RulesError::new(&source, e))?;
    let checked = check::check(&file, overrides)
        .map_err(|e| RulesError::new(&source, diagnostic::Errors::from_sorted(e)))?;
    // The syntax tree is several times the size of the text: free it before lowering.
    drop(file);
    let warnings = warn::warnings(&checked.rules, checked.coordinates.len(), &checked.params);
    Ok((lower::lower(checked, source)?, warnings))
}

/// Games and codes for the unit tests of every module.
#[cfg(test)]
pub(crate) mod testing {
    use super::code::{Notation, TakeBreakCode};
    use super::{load, Game, SourceFile};

    /// The game of the rules `text` (which must load).
    pub(crate) fn game(text: &str) -> Game {
        load(SourceFile::new("t.sg", text), &[]).unwrap()
    }

    /// The take-and-break code `text` in the general notation (e.g. `0.77`, `4!.0`).
    pub(crate) fn code(text: &str) -> TakeBreakCode {
        TakeBreakCode::parse(text, Notation::General, 0).unwrap()
    }
}
