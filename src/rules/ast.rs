//! The syntax tree of a rules file, as written (names unresolved, nothing evaluated).
//! Every node carries the [`Span`] of its text.

use super::code::Notation;
use super::Span;

/// A whole rules file: its statements in order.
#[derive(Clone, Debug, Default)]
pub struct File {
    /// The statements, one per line.
    pub items: Vec<Item>,
}

/// A name as written, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The text.
    pub name: String,
    /// Where it is.
    pub span: Span,
}

/// One statement (line) of a rules file.
#[derive(Clone, Debug)]
pub enum Item {
    /// `name "…"`.
    Name {
        /// The string's contents.
        value: String,
        /// The whole line.
        span: Span,
    },
    /// `description "…"`.
    Description {
        /// The string's contents.
        value: String,
        /// The whole line.
        span: Span,
    },
    /// `param k = expr`.
    Param {
        /// The parameter.
        name: Ident,
        /// Its default value (a constant expression over earlier parameters).
        default: Expr,
        /// The whole line.
        span: Span,
    },
    /// `heap m`: names the coordinate.
    Heap {
        /// The coordinate's name.
        name: Ident,
        /// The whole line.
        span: Span,
    },
    /// `position (x, y)`: names the coordinates of a position game.
    Position {
        /// The coordinates' names, in order.
        names: Vec<Ident>,
        /// The whole line.
        span: Span,
    },
    /// `play misere` or `play normal`: the play convention the file is valued under by default.
    Play {
        /// The convention.
        play: Play,
        /// The whole line.
        span: Span,
    },
    /// A family line.
    Family(FamilyLine),
    /// A `move` rule.
    Move(MoveRule),
}

/// A play convention: who wins when the player to move has no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    /// Normal play: the player who cannot move loses (the last player to move wins).
    Normal,
    /// Misère play: the player who cannot move wins (the last player to move loses).
    Misere,
}

impl Play {
    /// The word of the `play` statement.
    pub fn word(self) -> &'static str {
        match self {
            Play::Normal => "normal",
            Play::Misere => "misere",
        }
    }
}

/// A family line: the whole game as a subtraction set or a take-and-break code.
#[derive(Clone, Debug)]
pub struct FamilyLine {
    /// Which form.
    pub form: FamilyForm,
    /// The whole line (without a trailing comment).
    pub span: Span,
}

/// The forms of family line.
#[derive(Clone, Debug)]
pub enum FamilyForm {
    /// `subtraction {1, 3}` or `subtraction 1..=k`.
    Subtraction(SetExpr),
    /// `subtraction all-but {2, 5}`.
    SubtractionAllBut(SetExpr),
    /// `octal …`, `hex …`, `takebreak …`: the raw code text and where it starts.
    Code {
        /// Which digits the code may use.
        notation: Notation,
        /// The code text, e.g. `0.07`.
        text: String,
        /// Byte offset of `text` in the file.
        offset: usize,
    },
}

/// A set of integers: `{a, b, c}` or a range.
#[derive(Clone, Debug)]
pub enum SetExpr {
    /// `{a, b, c}`.
    List(Vec<Expr>),
    /// `a..b` or `a..=b`.
    Range(RangeExpr),
}

/// `lo..hi` (exclusive) or `lo..=hi` (inclusive).
#[derive(Clone, Debug)]
pub struct RangeExpr {
    /// The first value.
    pub lo: Expr,
    /// The bound.
    pub hi: Expr,
    /// True for `..=`.
    pub inclusive: bool,
    /// The whole range.
    pub span: Span,
}

/// `move [label:] [binders] [if cond] => result` (heaps, or positions of a position game).
#[derive(Clone, Debug)]
pub struct MoveRule {
    /// The optional `label:`.
    pub label: Option<Ident>,
    /// `x in a..=b`, in order; later ranges may use earlier binders.
    pub binders: Vec<Binder>,
    /// The `if` condition.
    pub condition: Option<Expr>,
    /// The heaps (or tuples, or `+`-sums of tuples) left, comma-separated; empty for `none`.
    pub result: Vec<Expr>,
    /// The span of `none` or of the result list.
    pub result_span: Span,
    /// The whole line.
    pub span: Span,
}

/// `x in a..=b`, `x = e` (stored as the one-value range `e..=e`), or `d in divisors(n)`.
#[derive(Clone, Debug)]
pub struct Binder {
    /// The bound name.
    pub name: Ident,
    /// The values it takes.
    pub values: BinderValues,
}

/// What a binder ranges over.
#[derive(Clone, Debug)]
pub enum BinderValues {
    /// `a..b` or `a..=b` (or `= e`).
    Range(RangeExpr),
    /// A set function's call, `divisors(n)` (its name is checked later); the span is the call's.
    Set {
        /// The function's name.
        function: Ident,
        /// Its arguments.
        args: Vec<Expr>,
        /// The whole call.
        span: Span,
    },
}

/// An expression with its span and nesting depth.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
    /// Height of the tree (1 for a leaf); the parser bounds it so later passes may recurse.
    pub depth: u32,
}

/// Expression forms.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// A name: the coordinate, a parameter or a binder.
    Name(String),
    /// `-e` or `!e`.
    Unary(UnaryOp, Box<Expr>),
    /// `a op b`.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `f(a, b, …)`.
    Call(Ident, Vec<Expr>),
    /// `(a, b, …)`: a position of a position game (only as a move's result).
    Tuple(Vec<Expr>),
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-`
    Neg,
    /// `!`
    Not,
}

/// Infix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (floor division)
    Div,
    /// `%` (Euclidean remainder)
    Rem,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `&` (bitwise)
    BitAnd,
    /// `|` (bitwise)
    BitOr,
    /// `^` (bitwise)
    BitXor,
    /// `<<`
    Shl,
    /// `>>` (arithmetic: floor division by a power of two)
    Shr,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            And => "&&",
            Or => "||",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Shl => "<<",
            Shr => ">>",
        }
    }

    /// True for `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }
}
