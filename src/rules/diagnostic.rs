//! Located error messages for rules files, rendered the way compilers do:
//!
//! ```text
//! error: unknown family `subtraktion`
//!   --> rules/bash.sg:3:1
//!    |
//!  3 | subtraktion {1, 2}
//!    | ^^^^^^^^^^^ expected a family name or `move`
//!    |
//!    = help: did you mean `subtraction`?
//! ```

use std::fmt;

/// A byte range `start..end` in a source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte (equal to `start` for a point, e.g. end of input).
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end: end.max(start),
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A rules text with the name it is reported under (a path, or `<command line>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Shown before `:line:col`.
    pub name: String,
    /// The whole text.
    pub text: String,
}

impl SourceFile {
    /// A source named `name` holding `text`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }

    /// 1-based line and column (in characters) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = self.text[line_start..offset].chars().count() + 1;
        (line, col)
    }

    /// The text of 1-based line `line`, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        self.text
            .split('\n')
            .nth(line - 1)
            .unwrap_or("")
            .trim_end_matches('\r')
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One error in a rules text: where, what, and what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What is wrong, e.g. "unknown parameter `kk`".
    pub message: String,
    /// The text to underline.
    pub span: Span,
    /// A short note printed after the caret, e.g. "expected `=>`".
    pub label: Option<String>,
    /// What to do, e.g. "did you mean `k`?".
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn new(message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            message: message.into(),
            span,
            label: None,
            help: None,
        }
    }

    /// Adds the note shown after the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Adds a `help:` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Renders the diagnostic against its source, as shown to users.
    pub fn render(&self, source: &SourceFile) -> String {
        Rendered {
            diagnostic: self,
            source,
        }
        .to_string()
    }
}

struct Rendered<'a> {
    diagnostic: &'a Diagnostic,
    source: &'a SourceFile,
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.diagnostic;
        let (line, col) = self.source.line_col(d.span.start);
        let text = self.source.line_text(line);
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        writeln!(f, "error: {}", d.message)?;
        writeln!(f, "{pad}--> {}:{line}:{col}", self.source.name)?;
        writeln!(f, "{pad} |")?;
        writeln!(f, "{line} | {}", text.replace('\t', " "))?;
        // The caret is as wide as the span, clipped to the end of the line (at least one).
        let (end_line, end_col) = self.source.line_col(d.span.end);
        let line_chars = text.chars().count();
        let last_col = if end_line == line {
            end_col
        } else {
            line_chars + 1
        };
        let width = last_col.saturating_sub(col).max(1);
        write!(f, "{pad} | {}{}", " ".repeat(col - 1), "^".repeat(width))?;
        if let Some(label) = &d.label {
            write!(f, " {label}")?;
        }
        writeln!(f)?;
        if let Some(help) = &d.help {
            writeln!(f, "{pad} |")?;
            writeln!(f, "{pad} = help: {help}")?;
        }
        Ok(())
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_line_and_caret() {
        let src = SourceFile::new("rules/x.sg", "name \"x\"\nsubtraktion {1, 2}\n");
        let d = Diagnostic::new("unknown family `subtraktion`", Span::new(9, 20))
            .with_label("expected a family name or `move`")
            .with_help("did you mean `subtraction`?");
        let out = d.render(&src);
        assert_eq!(
            out,
            "error: unknown family `subtraktion`\n --> rules/x.sg:2:1\n  |\n2 | subtraktion {1, 2}\n  | ^^^^^^^^^^^ expected a family name or `move`\n  |\n  = help: did you mean `subtraction`?\n"
        );
    }

    #[test]
    fn caret_at_end_of_input_is_one_wide() {
        let src = SourceFile::new("<command line>", "octal");
        let out = Diagnostic::new("expected a code", Span::new(5, 5)).render(&src);
        assert!(out.contains("<command line>:1:6"), "{out}");
        assert!(out.contains("  |      ^\n"), "{out}");
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("subtraktion", ["subtraction", "octal"]),
            Some("subtraction")
        );
        assert_eq!(did_you_mean("zzz", ["subtraction", "octal"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
