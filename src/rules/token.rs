//! Tokens of the rules language. Every token carries its byte [`Span`] so that any later
//! error can point at the exact text.

use super::Span;

/// What a token is. Identifiers and keywords share [`TokenKind::Ident`]; the parser decides
/// by the text, so that a misspelt keyword can still get a "did you mean".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TokenKind {
    /// A name or keyword: `[A-Za-z_][A-Za-z0-9_]*`.
    Ident,
    /// A decimal integer literal.
    Int,
    /// A double-quoted string (no escapes except `\"` and `\\`).
    Str,
    /// The raw code text after `octal`, `hex` or `takebreak`, up to `#` or the end of the line.
    CodeText,
    /// End of a line (only outside brackets: a line break inside `( )` or `{ }` is whitespace).
    Newline,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `=`
    Assign,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `!`
    Bang,
    /// `&`
    Amp,
    /// `|`
    Pipe,
    /// `^`
    Caret,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `.` (used by no construct; lexed so that the parser can report it in context)
    Dot,
    /// `..`
    DotDot,
    /// `..=`
    DotDotEq,
    /// `=>`
    FatArrow,
    /// End of input.
    Eof,
}

impl TokenKind {
    /// How the token is named in "expected X, found Y" messages.
    pub fn describe(self) -> &'static str {
        use TokenKind::*;
        match self {
            Ident => "a name",
            Int => "an integer",
            Str => "a string",
            CodeText => "a code",
            Newline => "end of line",
            LBrace => "`{`",
            RBrace => "`}`",
            LParen => "`(`",
            RParen => "`)`",
            Comma => "`,`",
            Colon => "`:`",
            Assign => "`=`",
            EqEq => "`==`",
            NotEq => "`!=`",
            Lt => "`<`",
            Le => "`<=`",
            Gt => "`>`",
            Ge => "`>=`",
            Plus => "`+`",
            Minus => "`-`",
            Star => "`*`",
            Slash => "`/`",
            Percent => "`%`",
            AndAnd => "`&&`",
            OrOr => "`||`",
            Bang => "`!`",
            Amp => "`&`",
            Pipe => "`|`",
            Caret => "`^`",
            Shl => "`<<`",
            Shr => "`>>`",
            Dot => "`.`",
            DotDot => "`..`",
            DotDotEq => "`..=`",
            FatArrow => "`=>`",
            Eof => "end of input",
        }
    }
}

/// One token: its kind and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Where it is.
    pub span: Span,
}

impl Token {
    /// The token's text in `source`.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.span.start..self.span.end]
    }
}
