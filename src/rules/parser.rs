//! The parser: tokens → [`ast::File`], by hand-written recursive descent.
//!
//! Like `just`'s parser, it records every token kind it tried at the current position, so that
//! an error can say "expected `=>`, `,` or `if`, found `;`". After an error it skips to the next
//! line and goes on, so one run reports one error per bad line. Expression nesting is bounded
//! ([`MAX_DEPTH`]) so that later passes may recurse without risking the stack.
//!
//! Precedence (Rust's), loosest first: `||`, `&&`, comparisons (non-associative), `|`, `^`,
//! `&`, `<< >>`, `+ -`, `* / %`, prefix `- !`.

use super::ast::{
    self, BinaryOp, Binder, BinderValues, Expr, ExprKind, FamilyForm, FamilyLine, Ident, Item,
    MoveRule, Play, RangeExpr, SetExpr, UnaryOp,
};
use super::code::Notation;
use super::diagnostic::Errors;
use super::lexer::lex;
use super::names::{suggest, STATEMENT_KEYWORDS};
use super::token::{Token, TokenKind};
use super::{Diagnostic, Span};

/// Deepest expression tree accepted (parentheses, prefix operators and operator chains count).
pub const MAX_DEPTH: u32 = 128;

/// Parses a rules text. The syntax errors are returned in source order: the first
/// [`MAX_ERRORS`](super::MAX_ERRORS) ([`parse_counted`] also counts the others).
pub fn parse(text: &str) -> Result<ast::File, Vec<Diagnostic>> {
    parse_counted(text).map_err(|errors| errors.into_parts().0)
}

/// Parses a rules text. The syntax errors are returned in source order: the first
/// [`MAX_ERRORS`](super::MAX_ERRORS), and how many more there are.
pub fn parse_counted(text: &str) -> Result<ast::File, Errors> {
    let (tokens, lex_errors) = lex(text);
    if !lex_errors.is_empty() {
        return Err(lex_errors);
    }
    let mut parser = Parser {
        src: text,
        tokens,
        pos: 0,
        expected: Vec::new(),
        nesting: 0,
    };
    let mut file = ast::File::default();
    let mut errors = Errors::new();
    while parser.peek().kind != TokenKind::Eof {
        match parser.item() {
            Ok(item) => file.items.push(item),
            Err(error) => {
                errors.push(error);
                parser.skip_line();
            }
        }
    }
    if errors.is_empty() {
        Ok(file)
    } else {
        Err(errors)
    }
}

type PResult<T> = Result<T, Diagnostic>;

struct Parser<'a> {
    src: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    /// What was tried at `pos`, for "expected …" messages.
    expected: Vec<&'static str>,
    /// Current recursion depth of the expression parser.
    nesting: u32,
}

impl Parser<'_> {
    fn peek(&self) -> Token {
        self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek_at(&self, ahead: usize) -> Token {
        self.tokens[(self.pos + ahead).min(self.tokens.len() - 1)]
    }

    fn text(&self, token: Token) -> &str {
        token.text(self.src)
    }

    fn advance(&mut self) -> Token {
        let token = self.peek();
        if token.kind != TokenKind::Eof {
            self.pos += 1;
        }
        self.expected.clear();
        token
    }

    /// True if the next token is `kind` (and remembers that `kind` was tried).
    fn at(&mut self, kind: TokenKind) -> bool {
        self.note(kind.describe());
        self.peek().kind == kind
    }

    /// True if the next token is the word `word`.
    fn at_word(&mut self, word: &'static str) -> bool {
        self.note(match word {
            "if" => "`if`",
            "in" => "`in`",
            "none" => "`none`",
            "all" => "`all`",
            "but" => "`but`",
            _ => "a keyword",
        });
        let token = self.peek();
        token.kind == TokenKind::Ident && self.text(token) == word
    }

    /// Remembers that `what` was tried at `pos` (duplicates are dropped when an error is
    /// built: most positions are passed without one, so recording stays cheap).
    fn note(&mut self, what: &'static str) {
        self.expected.push(what);
    }

    fn eat(&mut self, kind: TokenKind) -> bool {
        if self.at(kind) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, kind: TokenKind) -> PResult<Token> {
        if self.at(kind) {
            Ok(self.advance())
        } else {
            Err(self.unexpected())
        }
    }

    fn expect_word(&mut self, word: &'static str) -> PResult<Token> {
        if self.at_word(word) {
            Ok(self.advance())
        } else {
            Err(self.unexpected())
        }
    }

    /// "expected X, Y or Z, found W" at the next token.
    fn unexpected(&self) -> Diagnostic {
        let token = self.peek();
        let found = match token.kind {
            TokenKind::Ident | TokenKind::Int | TokenKind::Str | TokenKind::CodeText => {
                format!("`{}`", self.text(token))
            }
            kind => kind.describe().to_string(),
        };
        // What was tried, each once, in the order first tried.
        let mut tried: Vec<&'static str> = Vec::new();
        for &what in &self.expected {
            if !tried.contains(&what) {
                tried.push(what);
            }
        }
        // Operators that could continue an expression are noise when something else was
        // also possible ("expected `=>`" says more than a list of every operator).
        let mut expected: Vec<&str> = tried
            .iter()
            .copied()
            .filter(|e| !OPERATORS.contains(e))
            .collect();
        if expected.is_empty() {
            expected = tried;
        }
        // A misspelt keyword (`iff` for `if`) gets a suggestion.
        let keywords: Vec<&str> = expected
            .iter()
            .filter_map(|e| e.strip_prefix('`')?.strip_suffix('`'))
            .filter(|w| w.chars().all(char::is_alphabetic))
            .collect();
        let previous = self.tokens[self.pos.saturating_sub(1)];
        let help = match token.kind {
            // `2k`: a number directly followed by a name.
            TokenKind::Ident
                if previous.kind == TokenKind::Int && previous.span.end == token.span.start =>
            {
                Some(format!(
                    "a product needs `*`: write `{} * {}`",
                    self.text(previous),
                    self.text(token)
                ))
            }
            TokenKind::Ident => {
                suggest(self.text(token), keywords).map(|word| format!("did you mean `{word}`?"))
            }
            TokenKind::Assign
                if self.peek_at(1).kind == TokenKind::Gt && self.expected.contains(&"`=>`") =>
            {
                Some("write the arrow `=>` without a space".to_string())
            }
            TokenKind::Assign if self.expected.contains(&"`==`") => {
                Some("equality is written `==` (`=` only appears in `param k = …`)".to_string())
            }
            _ => None,
        };
        let listed = list_alternatives(&expected);
        let diagnostic = Diagnostic::new(format!("expected {listed}, found {found}"), token.span)
            .with_label(format!("expected {listed}"));
        match help {
            Some(help) => diagnostic.with_help(help),
            None => diagnostic,
        }
    }

    fn skip_line(&mut self) {
        while !matches!(self.peek().kind, TokenKind::Newline | TokenKind::Eof) {
            self.advance();
        }
        self.advance();
    }

    fn end_of_statement(&mut self) -> PResult<Span> {
        let last = self.tokens[self.pos.saturating_sub(1)].span;
        self.expect(TokenKind::Newline)?;
        Ok(last)
    }

    fn item(&mut self) -> PResult<Item> {
        self.expected.clear();
        let first = self.peek();
        if first.kind != TokenKind::Ident {
            self.note("a statement such as `move` or `param`");
            return Err(self.unexpected());
        }
        let word = self.text(first).to_string();
        match word.as_str() {
            "name" | "description" => {
                self.advance();
                let value = self.expect(TokenKind::Str)?;
                let value = unescape(self.text(value));
                let span = first.span.to(self.end_of_statement()?);
                Ok(if word == "name" {
                    Item::Name { value, span }
                } else {
                    Item::Description { value, span }
                })
            }
            "param" => {
                self.advance();
                let name = self.ident()?;
                self.expect(TokenKind::Assign)?;
                let default = self.expr()?;
                let span = first.span.to(self.end_of_statement()?);
                Ok(Item::Param {
                    name,
                    default,
                    span,
                })
            }
            "heap" => {
                self.advance();
                let name = self.ident()?;
                let span = first.span.to(self.end_of_statement()?);
                Ok(Item::Heap { name, span })
            }
            "play" => {
                self.advance();
                let word = self.peek();
                let play = match self.text(word) {
                    "misere" if word.kind == TokenKind::Ident => Play::Misere,
                    "normal" if word.kind == TokenKind::Ident => Play::Normal,
                    _ => {
                        self.note("`misere` or `normal`");
                        return Err(self.unexpected());
                    }
                };
                self.advance();
                let span = first.span.to(self.end_of_statement()?);
                Ok(Item::Play { play, span })
            }
            "position" => {
                self.advance();
                self.expect(TokenKind::LParen)?;
                let mut names = vec![self.ident()?];
                while self.eat(TokenKind::Comma) {
                    names.push(self.ident()?);
                }
                self.expect(TokenKind::RParen)?;
                let span = first.span.to(self.end_of_statement()?);
                Ok(Item::Position { names, span })
            }
            "subtraction" => {
                self.advance();
                let all_but = if self.at_word("all") {
                    self.advance();
                    self.expect(TokenKind::Minus)?;
                    self.expect_word("but")?;
                    true
                } else {
                    false
                };
                let set = self.set()?;
                let span = first.span.to(self.end_of_statement()?);
                let form = if all_but {
                    FamilyForm::SubtractionAllBut(set)
                } else {
                    FamilyForm::Subtraction(set)
                };
                Ok(Item::Family(FamilyLine { form, span }))
            }
            "octal" | "hex" | "takebreak" => {
                self.advance();
                let notation = match word.as_str() {
                    "octal" => Notation::Octal,
                    "hex" => Notation::Hex,
                    _ => Notation::General,
                };
                let code = self.peek();
                if code.kind != TokenKind::CodeText {
                    let example = match notation {
                        Notation::Octal => "octal 0.07",
                        Notation::Hex => "hex 0.F",
                        Notation::General => "takebreak 4!.0",
                    };
                    return Err(Diagnostic::new(
                        format!("`{word}` needs a code"),
                        first.span.to(code.span),
                    )
                    .with_label("expected a code after this")
                    .with_help(format!("write the code on the same line, e.g. `{example}`")));
                }
                self.advance();
                let span = first.span.to(self.end_of_statement()?);
                Ok(Item::Family(FamilyLine {
                    form: FamilyForm::Code {
                        notation,
                        text: self.text(code).to_string(),
                        offset: code.span.start,
                    },
                    span,
                }))
            }
            "move" => self.move_rule().map(Item::Move),
            _ => {
                let suggestion = suggest(&word, STATEMENT_KEYWORDS);
                let is_family = suggestion
                    .is_some_and(|s| ["subtraction", "octal", "hex", "takebreak"].contains(&s));
                let message = if is_family {
                    format!("unknown family `{word}`")
                } else {
                    format!("unknown statement `{word}`")
                };
                let help = match suggestion {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!(
                        "a line starts with one of: {}",
                        STATEMENT_KEYWORDS.map(|k| format!("`{k}`")).join(", ")
                    ),
                };
                Err(Diagnostic::new(message, first.span)
                    .with_label("expected a family name or `move`")
                    .with_help(help))
            }
        }
    }

    fn ident(&mut self) -> PResult<Ident> {
        let token = self.expect(TokenKind::Ident)?;
        Ok(Ident {
            name: self.text(token).to_string(),
            span: token.span,
        })
    }

    fn set(&mut self) -> PResult<SetExpr> {
        if self.eat(TokenKind::LBrace) {
            let mut elements = Vec::new();
            while !self.at(TokenKind::RBrace) {
                elements.push(self.expr()?);
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(TokenKind::RBrace)?;
            Ok(SetExpr::List(elements))
        } else {
            Ok(SetExpr::Range(self.range()?))
        }
    }

    fn range(&mut self) -> PResult<RangeExpr> {
        let lo = self.expr()?;
        let inclusive = if self.eat(TokenKind::DotDotEq) {
            true
        } else {
            self.expect(TokenKind::DotDot)?;
            false
        };
        let hi = self.expr()?;
        let span = lo.span.to(hi.span);
        Ok(RangeExpr {
            lo,
            hi,
            inclusive,
            span,
        })
    }

    /// After `x in`: a range `lo..=hi`, or a set function's call `divisors(n)` (a call not
    /// followed by `..` or `..=`).
    fn binder_values(&mut self) -> PResult<BinderValues> {
        let lo = self.expr()?;
        let at_range = matches!(self.peek().kind, TokenKind::DotDot | TokenKind::DotDotEq);
        if let (false, ExprKind::Call(function, args)) = (at_range, &lo.kind) {
            return Ok(BinderValues::Set {
                function: function.clone(),
                args: args.clone(),
                span: lo.span,
            });
        }
        let inclusive = if self.eat(TokenKind::DotDotEq) {
            true
        } else {
            self.expect(TokenKind::DotDot)?;
            false
        };
        let hi = self.expr()?;
        let span = lo.span.to(hi.span);
        Ok(BinderValues::Range(RangeExpr {
            lo,
            hi,
            inclusive,
            span,
        }))
    }

    fn move_rule(&mut self) -> PResult<MoveRule> {
        let start = self.advance().span;
        let mut label = None;
        if self.peek().kind == TokenKind::Ident && self.peek_at(1).kind == TokenKind::Colon {
            label = Some(self.ident()?);
            self.advance();
        }
        let mut binders = Vec::new();
        self.note("a binder such as `x in 1..=n`");
        if self.peek().kind == TokenKind::Ident && !self.at_word("if") {
            loop {
                let name = self.ident()?;
                let values = if self.at_word("in") {
                    self.advance();
                    self.binder_values()?
                } else {
                    self.expect(TokenKind::Assign).map_err(|d| {
                        if d.help.is_some() {
                            return d;
                        }
                        // `move m: n + 1`: the heaps left written without `=>`.
                        let head = match &label {
                            Some(label) => format!("move {}: ", label.name),
                            None => "move ".to_string(),
                        };
                        d.with_help(format!(
                            "binders are written `x in 1..=n` (or `x = …`); the heaps a move leaves come after `=>`, e.g. `{head}x in 1..=n => n - x` or `{head}=> n - 1`"
                        ))
                    })?;
                    // `j = e` binds one value: the range `e..=e`.
                    let value = self.expr()?;
                    BinderValues::Range(RangeExpr {
                        span: value.span,
                        lo: value.clone(),
                        hi: value,
                        inclusive: true,
                    })
                };
                binders.push(Binder { name, values });
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        let condition = if self.at_word("if") {
            self.advance();
            Some(self.expr()?)
        } else {
            None
        };
        self.expect(TokenKind::FatArrow)?;
        let mut result = Vec::new();
        let result_span = if self.at_word("none") {
            self.advance().span
        } else {
            loop {
                result.push(self.expr()?);
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
            result[0].span.to(result[result.len() - 1].span)
        };
        let span = start.to(self.end_of_statement()?);
        Ok(MoveRule {
            label,
            binders,
            condition,
            result,
            result_span,
            span,
        })
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.nesting += 1;
        let result = if self.nesting > MAX_DEPTH {
            Err(self.too_deep(self.peek().span))
        } else {
            self.or()
        };
        self.nesting -= 1;
        result
    }

    fn too_deep(&self, span: Span) -> Diagnostic {
        Diagnostic::new("expression nested too deeply", span)
            .with_label(format!("more than {MAX_DEPTH} levels"))
            .with_help("split the expression, or use a parameter for part of it")
    }

    fn binary(&self, op: BinaryOp, lhs: Expr, rhs: Expr) -> PResult<Expr> {
        let span = lhs.span.to(rhs.span);
        let depth = lhs.depth.max(rhs.depth) + 1;
        if depth > MAX_DEPTH {
            return Err(self.too_deep(span));
        }
        Ok(Expr {
            kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            span,
            depth,
        })
    }

    /// One left-associative precedence level: `next { op next }` for the operators `ops`.
    fn left_assoc(
        &mut self,
        ops: &[(TokenKind, BinaryOp)],
        next: fn(&mut Self) -> PResult<Expr>,
    ) -> PResult<Expr> {
        let mut lhs = next(self)?;
        'operators: loop {
            for &(kind, op) in ops {
                if self.eat(kind) {
                    let rhs = next(self)?;
                    lhs = self.binary(op, lhs, rhs)?;
                    continue 'operators;
                }
            }
            return Ok(lhs);
        }
    }

    fn or(&mut self) -> PResult<Expr> {
        self.left_assoc(&[(TokenKind::OrOr, BinaryOp::Or)], Self::and)
    }

    fn and(&mut self) -> PResult<Expr> {
        self.left_assoc(&[(TokenKind::AndAnd, BinaryOp::And)], Self::comparison)
    }

    fn comparison(&mut self) -> PResult<Expr> {
        let lhs = self.bit_or()?;
        let ops = [
            (TokenKind::EqEq, BinaryOp::Eq),
            (TokenKind::NotEq, BinaryOp::Ne),
            (TokenKind::Le, BinaryOp::Le),
            (TokenKind::Lt, BinaryOp::Lt),
            (TokenKind::Ge, BinaryOp::Ge),
            (TokenKind::Gt, BinaryOp::Gt),
        ];
        for (kind, op) in ops {
            if self.eat(kind) {
                let rhs = self.bit_or()?;
                return self.binary(op, lhs, rhs);
            }
        }
        Ok(lhs)
    }

    fn bit_or(&mut self) -> PResult<Expr> {
        self.left_assoc(&[(TokenKind::Pipe, BinaryOp::BitOr)], Self::bit_xor)
    }

    fn bit_xor(&mut self) -> PResult<Expr> {
        self.left_assoc(&[(TokenKind::Caret, BinaryOp::BitXor)], Self::bit_and)
    }

    fn bit_and(&mut self) -> PResult<Expr> {
        self.left_assoc(&[(TokenKind::Amp, BinaryOp::BitAnd)], Self::shift)
    }

    fn shift(&mut self) -> PResult<Expr> {
        self.left_assoc(
            &[
                (TokenKind::Shl, BinaryOp::Shl),
                (TokenKind::Shr, BinaryOp::Shr),
            ],
            Self::sum,
        )
    }

    fn sum(&mut self) -> PResult<Expr> {
        self.left_assoc(
            &[
                (TokenKind::Plus, BinaryOp::Add),
                (TokenKind::Minus, BinaryOp::Sub),
            ],
            Self::product,
        )
    }

    fn product(&mut self) -> PResult<Expr> {
        self.left_assoc(
            &[
                (TokenKind::Star, BinaryOp::Mul),
                (TokenKind::Slash, BinaryOp::Div),
                (TokenKind::Percent, BinaryOp::Rem),
            ],
            Self::unary,
        )
    }

    fn unary(&mut self) -> PResult<Expr> {
        let op = if self.at(TokenKind::Minus) {
            UnaryOp::Neg
        } else if self.at(TokenKind::Bang) {
            UnaryOp::Not
        } else {
            return self.primary();
        };
        let start = self.advance().span;
        self.nesting += 1;
        let operand = if self.nesting > MAX_DEPTH {
            Err(self.too_deep(start))
        } else {
            self.unary()
        };
        self.nesting -= 1;
        let operand = operand?;
        let depth = operand.depth + 1;
        Ok(Expr {
            span: start.to(operand.span),
            kind: ExprKind::Unary(op, Box::new(operand)),
            depth,
        })
    }

    fn primary(&mut self) -> PResult<Expr> {
        self.note("an expression");
        let token = self.peek();
        match token.kind {
            TokenKind::Int => {
                self.advance();
                let text = self.text(token);
                let value: i64 = text.parse().map_err(|_| {
                    Diagnostic::new(format!("integer `{text}` is too large"), token.span)
                        .with_label("does not fit in 64 bits")
                        .with_help(format!("integers must be at most {}", i64::MAX))
                })?;
                Ok(Expr {
                    kind: ExprKind::Int(value),
                    span: token.span,
                    depth: 1,
                })
            }
            TokenKind::Ident if !matches!(self.text(token), "if" | "in" | "none") => {
                let name = self.ident()?;
                if self.eat(TokenKind::LParen) {
                    let mut args = Vec::new();
                    while !self.at(TokenKind::RParen) {
                        args.push(self.expr()?);
                        if !self.eat(TokenKind::Comma) {
                            break;
                        }
                    }
                    let close = self.expect(TokenKind::RParen)?;
                    let depth = args.iter().map(|a| a.depth).max().unwrap_or(0) + 1;
                    if depth > MAX_DEPTH {
                        return Err(self.too_deep(name.span));
                    }
                    let span = name.span.to(close.span);
                    Ok(Expr {
                        kind: ExprKind::Call(name, args),
                        span,
                        depth,
                    })
                } else {
                    Ok(Expr {
                        kind: ExprKind::Name(name.name),
                        span: name.span,
                        depth: 1,
                    })
                }
            }
            TokenKind::LParen => {
                let open = self.advance().span;
                let inner = self.expr()?;
                if !self.at(TokenKind::Comma) {
                    let close = self.expect(TokenKind::RParen)?;
                    return Ok(Expr {
                        span: open.to(close.span),
                        ..inner
                    });
                }
                // `(a, b, …)`: a tuple.
                let mut elements = vec![inner];
                while self.eat(TokenKind::Comma) && !self.at(TokenKind::RParen) {
                    elements.push(self.expr()?);
                }
                let close = self.expect(TokenKind::RParen)?;
                let depth = elements.iter().map(|e| e.depth).max().unwrap_or(0) + 1;
                if depth > MAX_DEPTH {
                    return Err(self.too_deep(open));
                }
                Ok(Expr {
                    kind: ExprKind::Tuple(elements),
                    span: open.to(close.span),
                    depth,
                })
            }
            _ => Err(self.unexpected()),
        }
    }
}

/// Descriptions of the operator tokens (see [`Parser::unexpected`]).
const OPERATORS: [&str; 20] = [
    "`||`", "`&&`", "`==`", "`!=`", "`<`", "`<=`", "`>`", "`>=`", "`+`", "`-`", "`*`", "`/`",
    "`%`", "`!`", "`(`", "`|`", "`^`", "`&`", "`<<`", "`>>`",
];

/// `["a", "b", "c"]` → "a, b or c".
fn list_alternatives(items: &[&str]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The contents of a string token (with its quotes), with `\"` and `\\` unescaped.
fn unescape(quoted: &str) -> String {
    let inner = quoted.strip_prefix('"').unwrap_or(quoted);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A compact rendering of an expression, fully parenthesised, to check precedence.
    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(v) => v.to_string(),
            ExprKind::Name(n) => n.clone(),
            ExprKind::Unary(UnaryOp::Neg, x) => format!("(-{})", show(x)),
            ExprKind::Unary(UnaryOp::Not, x) => format!("(!{})", show(x)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
            ExprKind::Call(f, args) => format!(
                "{}({})",
                f.name,
                args.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            ExprKind::Tuple(items) => format!(
                "<{}>",
                items.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    fn param_expr(text: &str) -> String {
        let file =
            parse(&format!("param p = {text}\n")).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        match &file.items[0] {
            Item::Param { default, .. } => show(default),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn precedence_table() {
        let cases = [
            ("1 + 2 * 3", "(1 + (2 * 3))"),
            ("1 - 2 - 3", "((1 - 2) - 3)"),
            ("-n % 3", "((-n) % 3)"),
            ("(1 + 2) * 3", "((1 + 2) * 3)"),
            ("a < b && b <= c || !d", "(((a < b) && (b <= c)) || (!d))"),
            ("min(k, n - 1, 3)", "min(k, (n - 1), 3)"),
            ("max()", "max()"),
            ("n / 2 == 0", "((n / 2) == 0)"),
            // Rust's precedence for the bit operators.
            ("a | b ^ c & d", "(a | (b ^ (c & d)))"),
            ("1 << n - 1", "(1 << (n - 1))"),
            ("m >> i & 1 == 1", "(((m >> i) & 1) == 1)"),
            ("x & y == 0 && z", "(((x & y) == 0) && z)"),
            ("(x, y - 1) + (1, 2)", "(<x, (y - 1)> + <1, 2>)"),
            ("(x)", "x"),
        ];
        for (text, want) in cases {
            assert_eq!(param_expr(text), want, "{text}");
        }
    }

    #[test]
    fn statements_table() {
        let ok = [
            "name \"Bash\"\ndescription \"d\"\nparam k = 3\nheap m\n",
            "subtraction {1, 3, 4}",
            "subtraction {}",
            "subtraction 1..=k",
            "subtraction all-but {2, 5}",
            "octal 0.07",
            "move take: x in 1..=min(k, n) => n - x",
            "move i in 0..=n-2 => i, n - 2 - i",
            "move d in 1..n if n % d == 0 => n - d",
            "move a in 0..=n, len in 2..=3 if a + len <= n => a, n - a - len",
            "move if n >= 1 => none",
            "move => none",
            "position (x, y)\nmove t in 1..=x => (x - t, y)",
            "position (m)\nmove i in 0..19, j = i + 1 if m >> i & 1 == 1 => m ^ (1 << i)",
            "move => (x, y) + (y, x), (0, 0)",
        ];
        for text in ok {
            assert!(parse(text).is_ok(), "{text}: {:?}", parse(text).err());
        }
    }

    #[test]
    fn error_messages_table() {
        let cases = [
            (
                "move x in 1..=3 n - x",
                "expected `,`, `if` or `=>`, found `n`",
            ),
            ("move x 1..3 => n", "expected `in` or `=`, found `1`"),
            ("param = 3", "expected a name, found `=`"),
            ("param k 3", "expected `=`, found `3`"),
            ("move x in 1.3 => n", "expected `..=` or `..`, found `.`"),
            ("subtraktion {1, 2}", "unknown family `subtraktion`"),
            ("octl 0.07", "unknown family `octl`"),
            (
                "move x in 1..=n => ",
                "expected `none` or an expression, found end of line",
            ),
            (
                "param k = 99999999999999999999",
                "integer `99999999999999999999` is too large",
            ),
            ("octal", "`octal` needs a code"),
            (
                "42",
                "expected a statement such as `move` or `param`, found `42`",
            ),
            ("param k = 1 2", "expected end of line, found `2`"),
            ("param k = 1 +", "expected an expression, found end of line"),
        ];
        for (text, want) in cases {
            let errors = parse(text).expect_err(text);
            assert_eq!(errors[0].message, want, "{text}");
        }
    }

    #[test]
    fn suggestions_for_misspelt_statements() {
        let errors = parse("octl 0.07").unwrap_err();
        assert_eq!(errors[0].help.as_deref(), Some("did you mean `octal`?"));
        let errors = parse("frobnicate").unwrap_err();
        assert!(errors[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("a line starts with one of"));
    }

    #[test]
    fn misspelt_keywords_inside_a_line() {
        let errors = parse("move x in 1..=n iff x > 1 => n - x").unwrap_err();
        assert_eq!(errors[0].message, "expected `,`, `if` or `=>`, found `iff`");
        assert_eq!(errors[0].help.as_deref(), Some("did you mean `if`?"));
        let errors = parse("move x im 1..=n => n - x").unwrap_err();
        assert_eq!(errors[0].help.as_deref(), Some("did you mean `in`?"));
        let errors = parse("subtraction all-bt {1}").unwrap_err();
        assert_eq!(errors[0].help.as_deref(), Some("did you mean `but`?"));
    }

    #[test]
    fn hints_for_common_slips() {
        let errors = parse("move x in 1..=2k => n - x").unwrap_err();
        assert_eq!(
            errors[0].help.as_deref(),
            Some("a product needs `*`: write `2 * k`")
        );
        let errors = parse("move if n = 3 => none").unwrap_err();
        assert_eq!(errors[0].message, "expected `=>`, found `=`");
        assert_eq!(
            errors[0].help.as_deref(),
            Some("equality is written `==` (`=` only appears in `param k = …`)")
        );
    }

    #[test]
    fn one_error_per_bad_line() {
        let errors = parse("move x => n\nparam = 1\nmove if n > 0 => none\n").unwrap_err();
        assert_eq!(errors.len(), 2);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("param p = {}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(
            parse(&deep).unwrap_err()[0].message,
            "expression nested too deeply"
        );
        let long = format!("param p = 1{}", " + 1".repeat(10_000));
        assert_eq!(
            parse(&long).unwrap_err()[0].message,
            "expression nested too deeply"
        );
        let negs = format!("param p = {}1", "-".repeat(10_000));
        assert_eq!(
            parse(&negs).unwrap_err()[0].message,
            "expression nested too deeply"
        );
        let ok = format!("param p = 1{}", " + 1".repeat(120));
        assert!(parse(&ok).is_ok());
        // The deepest accepted expressions also go through checking, compiling and evaluation
        // (this test also runs in the unoptimised dev profile, where frames are largest).
        let parens = format!(
            "move if {}n{} > 0 => none",
            "(".repeat(125),
            ")".repeat(125)
        );
        let negs = format!("move if {}n > 0 => none", "-".repeat(125));
        let chain = format!("move if n{} > 0 => none", " + 1".repeat(125));
        let calls = format!(
            "move if {}n{} >= 0 => none",
            "abs(".repeat(125),
            ")".repeat(125)
        );
        for text in [parens, negs, chain, calls] {
            let game =
                crate::rules::load(crate::rules::SourceFile::new("t.sg", text.as_str()), &[])
                    .unwrap();
            let crate::rules::GameKind::General { program, .. } = &game.kind else {
                panic!()
            };
            program.for_each_move(3, &mut |_| {}).unwrap();
        }
    }
}
