//! The lexer: rules text → [`Token`]s.
//!
//! Hand-written and line-aware: a line break ends a statement, except inside brackets. After
//! the family keywords `octal`, `hex` and `takebreak` at the start of a line, the rest of the
//! line (up to `#`) is one [`TokenKind::CodeText`] token, because code notation (`4!.0`,
//! `0.[3]`) is its own little language, parsed by [`super::code`].

use super::diagnostic::Errors;
use super::token::{Token, TokenKind};
use super::{Diagnostic, Span};

/// Family keywords whose argument is raw code text.
pub const CODE_FAMILIES: [&str; 3] = ["octal", "hex", "takebreak"];

/// Splits `source` into tokens, ending with [`TokenKind::Eof`]. Lexical errors (stray
/// characters, unterminated strings) are collected (the first
/// [`MAX_ERRORS`](super::diagnostic::MAX_ERRORS), the others counted); the tokens are still
/// returned so that the caller may decide what to report.
pub fn lex(source: &str) -> (Vec<Token>, Errors) {
    let mut lexer = Lexer {
        src: source,
        bytes: source.as_bytes(),
        pos: 0,
        depth: 0,
        tokens: Vec::new(),
        errors: Errors::new(),
    };
    lexer.run();
    (lexer.tokens, lexer.errors)
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Bracket nesting depth; newlines inside brackets are whitespace.
    depth: usize,
    tokens: Vec<Token>,
    errors: Errors,
}

impl Lexer<'_> {
    fn push(&mut self, kind: TokenKind, start: usize) {
        self.tokens.push(Token {
            kind,
            span: Span::new(start, self.pos),
        });
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn at_line_start(&self) -> bool {
        self.tokens
            .last()
            .is_none_or(|t| t.kind == TokenKind::Newline)
    }

    fn run(&mut self) {
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let c = self.bytes[self.pos];
            match c {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'#' => self.skip_comment(),
                b'\n' => {
                    self.pos += 1;
                    if self.depth == 0 && !self.at_line_start() {
                        self.push(TokenKind::Newline, start);
                    }
                }
                b'"' => self.string(),
                b'0'..=b'9' => {
                    while self.peek(0).is_ascii_digit() {
                        self.pos += 1;
                    }
                    self.push(TokenKind::Int, start);
                }
                c if c.is_ascii_alphabetic() || c == b'_' => self.ident(),
                _ => self.punct(start, c),
            }
        }
        if !self.at_line_start() {
            // Point an unfinished last line's error at its end, not at the empty line after it.
            let end = self.bytes[..self.pos]
                .iter()
                .rposition(|b| !b.is_ascii_whitespace())
                .map_or(0, |i| i + 1);
            self.tokens.push(Token {
                kind: TokenKind::Newline,
                span: Span::new(end, end),
            });
        }
        self.tokens.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(self.pos, self.pos),
        });
    }

    fn skip_comment(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    fn ident(&mut self) {
        let start = self.pos;
        let first_on_line = self.at_line_start();
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.pos += 1;
        }
        self.push(TokenKind::Ident, start);
        if first_on_line && CODE_FAMILIES.contains(&&self.src[start..self.pos]) {
            self.code_text();
        }
    }

    /// The rest of the line after a code family keyword, trimmed, as one token.
    fn code_text(&mut self) {
        while matches!(self.peek(0), b' ' | b'\t') {
            self.pos += 1;
        }
        let start = self.pos;
        let mut end = start;
        while self.pos < self.bytes.len() && !matches!(self.bytes[self.pos], b'\n' | b'#') {
            self.pos += 1;
            if !matches!(self.bytes[self.pos - 1], b' ' | b'\t' | b'\r') {
                end = self.pos;
            }
        }
        if end > start {
            self.tokens.push(Token {
                kind: TokenKind::CodeText,
                span: Span::new(start, end),
            });
        }
    }

    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        loop {
            if self.pos >= self.bytes.len() || self.bytes[self.pos] == b'\n' {
                let span = Span::new(start, self.pos);
                self.errors.push_with(|| {
                    Diagnostic::new("unterminated string", span)
                        .with_label("this string has no closing `\"`")
                        .with_help("close the string with `\"` on the same line")
                });
                self.push(TokenKind::Str, start);
                return;
            }
            match self.bytes[self.pos] {
                b'"' => {
                    self.pos += 1;
                    self.push(TokenKind::Str, start);
                    return;
                }
                b'\\' if matches!(self.peek(1), b'"' | b'\\') => self.pos += 2,
                _ => self.pos += 1,
            }
        }
    }

    fn punct(&mut self, start: usize, c: u8) {
        use TokenKind::*;
        let next = self.peek(1);
        let (kind, len) = match (c, next) {
            (b'=', b'=') => (EqEq, 2),
            (b'=', b'>') => (FatArrow, 2),
            (b'=', _) => (Assign, 1),
            (b'!', b'=') => (NotEq, 2),
            (b'!', _) => (Bang, 1),
            (b'<', b'<') => (Shl, 2),
            (b'<', b'=') => (Le, 2),
            (b'<', _) => (Lt, 1),
            (b'>', b'>') => (Shr, 2),
            (b'>', b'=') => (Ge, 2),
            (b'>', _) => (Gt, 1),
            (b'&', b'&') => (AndAnd, 2),
            (b'|', b'|') => (OrOr, 2),
            (b'&', _) => (Amp, 1),
            (b'|', _) => (Pipe, 1),
            (b'^', _) => (Caret, 1),
            (b'.', b'.') if self.peek(2) == b'=' => (DotDotEq, 3),
            (b'.', b'.') => (DotDot, 2),
            (b'.', _) => (Dot, 1),
            (b'{', _) => (LBrace, 1),
            (b'}', _) => (RBrace, 1),
            (b'(', _) => (LParen, 1),
            (b')', _) => (RParen, 1),
            (b',', _) => (Comma, 1),
            (b':', _) => (Colon, 1),
            (b'+', _) => (Plus, 1),
            (b'-', _) => (Minus, 1),
            (b'*', _) => (Star, 1),
            (b'/', _) => (Slash, 1),
            (b'%', _) => (Percent, 1),
            _ => {
                // A stray character: skip the whole UTF-8 character and report it.
                let ch = self.src[start..].chars().next().unwrap_or('?');
                self.pos += ch.len_utf8();
                let help = match ch {
                    '\'' => "strings use double quotes: \"...\"",
                    _ => "remove it, or start a comment with `#`",
                };
                let span = Span::new(start, self.pos);
                self.errors.push_with(|| {
                    Diagnostic::new(
                        format!("unexpected character `{}`", ch.escape_debug()),
                        span,
                    )
                    .with_label("not part of the rules language")
                    .with_help(help)
                });
                return;
            }
        };
        match kind {
            LBrace | LParen => self.depth += 1,
            RBrace | RParen => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.pos += len;
        self.push(kind, start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        let (tokens, errors) = lex(src);
        assert!(errors.is_empty(), "{errors:?}");
        tokens.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn table_of_token_streams() {
        let cases: &[(&str, &[TokenKind])] = &[
            ("", &[Eof]),
            ("# only a comment\n\n", &[Eof]),
            ("param k = 3", &[Ident, Ident, Assign, Int, Newline, Eof]),
            (
                "move x in 1..=k => n - x",
                &[
                    Ident, Ident, Ident, Int, DotDotEq, Ident, FatArrow, Ident, Minus, Ident,
                    Newline, Eof,
                ],
            ),
            (
                "a..b <= >= == != < > && || !",
                &[
                    Ident, DotDot, Ident, Le, Ge, EqEq, NotEq, Lt, Gt, AndAnd, OrOr, Bang, Newline,
                    Eof,
                ],
            ),
            (
                "subtraction {1,\n 2}\n",
                &[Ident, LBrace, Int, Comma, Int, RBrace, Newline, Eof],
            ),
            ("octal 0.07 # Dawson\n", &[Ident, CodeText, Newline, Eof]),
            ("takebreak 4!.0", &[Ident, CodeText, Newline, Eof]),
            ("name \"a \\\"b\\\"\"", &[Ident, Str, Newline, Eof]),
            ("x.y", &[Ident, Dot, Ident, Newline, Eof]),
            (
                "a & b | c ^ d << 1 >> 2",
                &[
                    Ident, Amp, Ident, Pipe, Ident, Caret, Ident, Shl, Int, Shr, Int, Newline, Eof,
                ],
            ),
        ];
        for (src, want) in cases {
            assert_eq!(&kinds(src), want, "lexing {src:?}");
        }
    }

    #[test]
    fn code_text_is_trimmed_and_stops_at_comment() {
        let src = "hex   0.F  # c";
        let (tokens, _) = lex(src);
        assert_eq!(tokens[1].text(src), "0.F");
        assert_eq!(tokens[1].span.start, 6);
    }

    #[test]
    fn code_text_may_hold_any_characters() {
        let src = "octal 0.0é7 # é\n";
        let (tokens, errors) = lex(src);
        assert!(errors.is_empty());
        assert_eq!(tokens[1].text(src), "0.0é7");
    }

    #[test]
    fn errors_for_stray_characters_and_strings() {
        let (_, errors) = lex("move x in 1..2 => n ; y");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].message, "unexpected character `;`");
        let (_, errors) = lex("name \"unterminated\nmove");
        assert_eq!(errors[0].message, "unterminated string");
        assert_eq!(errors[0].span, Span::new(5, 18));
        let (_, errors) = lex("é");
        assert_eq!(errors[0].span, Span::new(0, 2));
    }
}
