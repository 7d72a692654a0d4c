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
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
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

/// A source with the start of each of its lines, to locate many offsets in one pass over the
/// text (each call of [`SourceFile::line_col`] scans it from the start).
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    source: &'a SourceFile,
    /// Byte offset of each line's first byte: 0, then one past each `\n`.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// The index of `source`'s lines.
    pub fn new(source: &'a SourceFile) -> Self {
        let newlines = source.text.bytes().enumerate().filter(|&(_, b)| b == b'\n');
        let starts = std::iter::once(0)
            .chain(newlines.map(|(i, _)| i + 1))
            .collect();
        LineIndex { source, starts }
    }

    /// 1-based line and column (in characters) of byte `offset`, as [`SourceFile::line_col`].
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let text = &self.source.text;
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.starts.partition_point(|&start| start <= offset);
        let col = text[self.starts[line - 1]..offset].chars().count() + 1;
        (line, col)
    }

    /// The text of 1-based line `line`, without its newline, as [`SourceFile::line_text`].
    pub fn line_text(&self, line: usize) -> &'a str {
        let text = &self.source.text;
        let Some(&start) = self.starts.get(line - 1) else {
            return "";
        };
        let end = self.starts.get(line).map_or(text.len(), |&next| next - 1);
        text[start..end].trim_end_matches('\r')
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
    /// False for an error about the file as a whole (no line to show; `span` is unused).
    pub located: bool,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn new(message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            message: message.into(),
            span,
            label: None,
            help: None,
            located: true,
        }
    }

    /// An error about the whole text, shown with its name but no line (e.g. a `--set` of a
    /// parameter that the file does not declare, when it declares none).
    pub fn unlocated(message: impl Into<String>) -> Self {
        Diagnostic {
            located: false,
            ..Diagnostic::new(message, Span::new(0, 0))
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
        self.render_indexed(&LineIndex::new(source))
    }

    /// [`Diagnostic::render`] against an indexed source, for rendering many diagnostics.
    pub fn render_indexed(&self, lines: &LineIndex) -> String {
        Rendered {
            diagnostic: self,
            lines,
            kind: "error",
        }
        .to_string()
    }

    /// Renders the diagnostic as a note (`note:` instead of `error:`): information, such as
    /// why rules run on the general interpreter.
    pub fn render_note(&self, source: &SourceFile) -> String {
        Rendered {
            diagnostic: self,
            lines: &LineIndex::new(source),
            kind: "note",
        }
        .to_string()
    }

    /// Renders the diagnostic as a warning (`warning:` instead of `error:`).
    pub fn render_warning(&self, source: &SourceFile) -> String {
        Rendered {
            diagnostic: self,
            lines: &LineIndex::new(source),
            kind: "warning",
        }
        .to_string()
    }
}

struct Rendered<'a> {
    diagnostic: &'a Diagnostic,
    lines: &'a LineIndex<'a>,
    /// `error` or `warning`.
    kind: &'static str,
}

/// Source lines longer than this many characters are shown cut around the caret.
pub const MAX_SHOWN_LINE: usize = 160;
/// How many characters of a cut line are shown on each side of the caret.
const CONTEXT: usize = 60;
/// Quoted text (between backquotes) longer than this many characters is shortened in
/// messages, labels and help lines.
const MAX_QUOTED: usize = 60;

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.diagnostic;
        writeln!(f, "{}: {}", self.kind, shorten_quoted(&d.message))?;
        if !d.located {
            writeln!(f, " --> {}", self.lines.source.name)?;
            if let Some(help) = &d.help {
                writeln!(f, "  |")?;
                writeln!(f, "  = help: {}", shorten_quoted(help))?;
            }
            return Ok(());
        }
        let (line, col) = self.lines.line_col(d.span.start);
        let text = self.lines.line_text(line);
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        writeln!(f, "{pad}--> {}:{line}:{col}", self.lines.source.name)?;
        writeln!(f, "{pad} |")?;
        // The caret is as wide as the span, clipped to the end of the line (at least one).
        let (end_line, end_col) = self.lines.line_col(d.span.end);
        let line_chars = text.chars().count();
        let last_col = if end_line == line {
            end_col
        } else {
            line_chars + 1
        };
        let width = last_col.saturating_sub(col).max(1);
        let (shown, caret_at, width) = cut_line(text, line_chars, col - 1, width);
        writeln!(f, "{line} | {shown}")?;
        write!(f, "{pad} | {}{}", " ".repeat(caret_at), "^".repeat(width))?;
        if let Some(label) = &d.label {
            write!(f, " {}", shorten_quoted(label))?;
        }
        writeln!(f)?;
        if let Some(help) = &d.help {
            writeln!(f, "{pad} |")?;
            writeln!(f, "{pad} = help: {}", shorten_quoted(help))?;
        }
        Ok(())
    }
}

/// The line as shown (tabs as one space, so that columns count characters), the caret's
/// column in it (0-based) and its width. A line of more than [`MAX_SHOWN_LINE`] characters is
/// cut to [`CONTEXT`] characters each side of the caret (itself at most [`CONTEXT`] wide),
/// with `…` where text is left out.
fn cut_line(text: &str, line_chars: usize, caret: usize, width: usize) -> (String, usize, usize) {
    if line_chars <= MAX_SHOWN_LINE {
        return (text.replace('\t', " "), caret, width);
    }
    let width = width.min(CONTEXT);
    let from = caret.saturating_sub(CONTEXT);
    let to = (caret + width + CONTEXT).min(line_chars);
    let mut shown = String::new();
    if from > 0 {
        shown.push('…');
    }
    shown.extend(
        text.chars()
            .skip(from)
            .take(to - from)
            .map(|c| if c == '\t' { ' ' } else { c }),
    );
    if to < line_chars {
        shown.push('…');
    }
    (shown, caret - from + usize::from(from > 0), width)
}

/// `text` with every backquoted part longer than [`MAX_QUOTED`] characters cut to its start
/// and end around a `…`, so that a message quoting a huge token stays short.
fn shorten_quoted(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_QUOTED {
        return text.into();
    }
    let mut out = String::new();
    let mut changed = false;
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        let chars = part.chars().count();
        if i % 2 == 1 && chars > MAX_QUOTED {
            let keep = MAX_QUOTED / 2;
            out.extend(part.chars().take(keep));
            out.push('…');
            out.extend(part.chars().skip(chars - keep / 2));
            changed = true;
        } else {
            out.push_str(part);
        }
    }
    if changed {
        out.into()
    } else {
        text.into()
    }
}

/// The indefinite article of `word` in a message: "an" before a vowel ("an `octal` line"),
/// "a" otherwise ("a `hex` line"). Backquotes and other punctuation before the word are
/// skipped. Judged by the first letter, which is right for the keywords and names messages
/// quote (no word of theirs starts with a silent "h" or a "u" read "you").
pub fn article(word: &str) -> &'static str {
    match word.chars().find(|c| c.is_alphanumeric()) {
        Some(c) if "aeiouAEIOU".contains(c) => "an",
        // A number starting with 8 is read "eight…": "an 8", "an 80".
        Some('8') => "an",
        Some(_) | None => "a",
    }
}

/// The most errors kept for one rules text; later ones are only counted, and reported as
/// "… and N more errors", so that refusing a file full of errors stays fast and short.
pub const MAX_ERRORS: usize = 20;

/// Errors collected in source order: the first [`MAX_ERRORS`] (readable as a slice), and how
/// many more were found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Errors {
    kept: Vec<Diagnostic>,
    more: usize,
}

impl Errors {
    /// No errors.
    pub fn new() -> Self {
        Errors::default()
    }

    /// The first [`MAX_ERRORS`] of `errors` (already in source order), the rest counted.
    pub fn from_sorted(errors: Vec<Diagnostic>) -> Self {
        let mut errors = Errors {
            kept: errors,
            more: 0,
        };
        errors.cap();
        errors
    }

    /// Adds `late` errors, found once the whole text was read (a name used but never
    /// defined), then puts the kept ones in source order (errors about the whole text first):
    /// the first [`MAX_ERRORS`] stay, the others are counted.
    pub fn merge_late(&mut self, late: Vec<Diagnostic>) {
        self.kept.extend(late);
        self.kept.sort_by_key(|d| (d.located, d.span.start));
        self.cap();
    }

    /// Keeps the first [`MAX_ERRORS`] and counts the others.
    fn cap(&mut self) {
        self.more += self.kept.len().saturating_sub(MAX_ERRORS);
        self.kept.truncate(MAX_ERRORS);
    }

    /// Adds the next error (in source order).
    pub fn push(&mut self, error: Diagnostic) {
        self.push_with(|| error);
    }

    /// Adds the next error, built only if it is kept (one of the first [`MAX_ERRORS`]).
    pub fn push_with(&mut self, error: impl FnOnce() -> Diagnostic) {
        if self.kept.len() < MAX_ERRORS {
            self.kept.push(error());
        } else {
            self.more += 1;
        }
    }

    /// How many errors were found after the kept ones.
    pub fn more(&self) -> usize {
        self.more
    }

    /// The kept errors and the number of others.
    pub fn into_parts(self) -> (Vec<Diagnostic>, usize) {
        (self.kept, self.more)
    }
}

impl std::ops::Deref for Errors {
    type Target = [Diagnostic];

    fn deref(&self) -> &[Diagnostic] {
        &self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_before_a_vowel_is_an() {
        let cases = [
            ("octal", "an"),
            ("`octal`", "an"),
            ("edge", "an"),
            ("Interval", "an"),
            ("hex", "a"),
            ("subtraction", "a"),
            ("takebreak", "a"),
            ("8", "an"),
            ("7", "a"),
            ("", "a"),
        ];
        for (word, want) in cases {
            assert_eq!(article(word), want, "{word:?}");
        }
    }

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
    fn long_lines_are_cut_around_the_caret() {
        // Issue 14 item 8: a 12 MB line was echoed whole (20.7 MB of stderr).
        let line = format!(
            "move x in 1..=3 => n - x {}é\tz {}",
            "y".repeat(500),
            "w".repeat(500)
        );
        let at = line.find('é').unwrap();
        let src = SourceFile::new("t.sg", format!("# c\n{line}\n"));
        let d = Diagnostic::new("expected `=>`", Span::new(4 + at, 4 + at + 2));
        let out = d.render(&src);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], " --> t.sg:2:526");
        let shown = lines[3].strip_prefix("2 | ").unwrap();
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert_eq!(shown.chars().count(), 1 + 60 + 1 + 60 + 1);
        // The caret sits under the `é` (counted in characters, the tab shown as a space).
        let caret = lines[4].strip_prefix("  | ").unwrap();
        let column = caret.find('^').unwrap();
        assert_eq!(shown.chars().nth(column), Some('é'));
        assert_eq!(caret.trim(), "^");
        assert!(shown.contains("é z"), "{shown}");
        // A short line is shown whole, as before.
        let src = SourceFile::new("t.sg", "move\tx");
        let out = Diagnostic::new("e", Span::new(5, 6)).render(&src);
        assert!(out.contains("1 | move x\n  |      ^\n"), "{out}");
    }

    #[test]
    fn long_quoted_text_is_shortened_in_messages() {
        let name = "x".repeat(1000);
        let src = SourceFile::new("t.sg", name.clone());
        let out = Diagnostic::new(format!("unknown name `{name}`"), Span::new(0, 1000))
            .with_help(format!("remove `{name}`"))
            .render(&src);
        assert!(out.len() < 700, "{out}");
        assert!(
            out.contains(&format!("`{}…{}`", "x".repeat(30), "x".repeat(15))),
            "{out}"
        );
        // The caret of a span wider than the shown text is cut too.
        assert!(out.contains(&format!(" {}\n", "^".repeat(60))), "{out}");
    }

    #[test]
    fn unlocated_errors_name_the_file_only() {
        let src = SourceFile::new("rules/nim.sg", "move x in 1..=n => n - x\n");
        let out = Diagnostic::unlocated("no parameter `k`")
            .with_help("this file declares no parameters")
            .render(&src);
        assert_eq!(
            out,
            "error: no parameter `k`\n --> rules/nim.sg\n  |\n  = help: this file declares no parameters\n"
        );
    }

    #[test]
    fn line_index_agrees_with_the_scanning_lookups() {
        let texts = [
            "",
            "\n",
            "a\nbc\r\n\r\r\nd",
            "é\nxé\n\ny",
            "one line, no newline",
            "trailing\n\n",
        ];
        for text in texts {
            let source = SourceFile::new("t.sg", text);
            let index = LineIndex::new(&source);
            for offset in 0..=text.len() + 2 {
                let (line, col) = source.line_col(offset);
                assert_eq!(index.line_col(offset), (line, col), "{text:?} at {offset}");
            }
            for line in 1..=text.lines().count() + 2 {
                assert_eq!(
                    index.line_text(line),
                    source.line_text(line),
                    "{text:?} line {line}"
                );
            }
        }
    }

    #[test]
    fn errors_keep_the_first_and_count_the_others() {
        let mut errors = Errors::new();
        for i in 0..MAX_ERRORS + 5 {
            errors.push_with(|| Diagnostic::new(format!("e{i}"), Span::new(i, i)));
        }
        assert_eq!(errors.len(), MAX_ERRORS);
        assert_eq!(errors.more(), 5);
        assert_eq!(errors[0].message, "e0");
        let sorted = (0..3)
            .map(|i| Diagnostic::new("e", Span::new(i, i)))
            .collect();
        assert_eq!(Errors::from_sorted(sorted).into_parts().1, 0);
    }
}
