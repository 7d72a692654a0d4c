//! Lookup code for contest solutions: a self-contained function `sg` (no `main`) in C++,
//! Python, Rust or Java, taking 64-bit integers and returning `G` as a 64-bit integer.
//!
//! [`generate`] takes the one [`engine::Table`] of either shape:
//! * a heap game's sequence `G(0), G(1), …` gets `sg(n)`, extrapolated by its periodicity
//!   where one is known (`sequence`);
//! * a position game's table over a box gets `sg(x, y, …)` (`boxed`).
//!
//! [`generate_criterion`] writes instead `is_p(x, y, …)` and `first_player_wins(x, y, …)` for a
//! position game whose box has a P-position criterion (`criterion`): no table, every
//! coordinate below 2^64, the criterion said to be observed on the box.
//!
//! Both snippets are a header comment, the table `T` of values and the function `sg`; this
//! module writes the first two and holds what both bodies of `sg` spell alike: a table
//! lookup and a failure message in each language (`Lang::lookup`, `Lang::message`) and
//! the `CLike` spellings shared by C++ and Java. `sequence` and `boxed` write only the
//! bodies, through one `Snippet` trait.
//!
//! The header comment names the game, describes the table and (for a sequence) says whether
//! the period was proved or only observed, so a reader of a contest solution knows how far to
//! trust it.

mod boxed;
mod criterion;
mod formula;
mod formula_box;
mod sequence;
mod sweep;

use std::fmt::Write as _;
use std::str::FromStr;

use super::ExportError;
use crate::analysis::criteria::{holds_on_box, PCriterion};
use crate::analysis::patterns::formula::{holds_on, holds_on_sequence};
use crate::analysis::patterns::Formula;
use crate::analysis::Periodicity;
use crate::engine::boxtable::BoxTable;
use crate::engine::{self, SgTable};
pub use sweep::{covered_by_formula, generate_sweep, tables_needed, SweepCode, PARAM_LIMIT};

/// Target language of [`generate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// C++11 or later: `inline std::int64_t sg(std::int64_t n)`.
    Cpp,
    /// Python 3: `def sg(n: int) -> int`.
    Python,
    /// Rust: `pub fn sg(n: i64) -> i64`.
    Rust,
    /// Java 8 or later: `final class Sg { static long sg(long n) }`.
    Java,
}

impl Lang {
    /// Every language, in the order they are documented.
    pub const ALL: [Lang; 4] = [Lang::Cpp, Lang::Python, Lang::Rust, Lang::Java];

    /// The name, the usual file extension and any other spelling of the language: together
    /// the names [`Lang::from_str`] accepts.
    fn spellings(self) -> (&'static str, &'static str, &'static [&'static str]) {
        match self {
            Lang::Cpp => ("cpp", "cpp", &["c++", "cxx"]),
            Lang::Python => ("python", "py", &[]),
            Lang::Rust => ("rust", "rs", &[]),
            Lang::Java => ("java", "java", &[]),
        }
    }

    /// The name accepted by [`Lang::from_str`] (`cpp`, `python`, `rust`, `java`).
    pub fn name(self) -> &'static str {
        self.spellings().0
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        self.spellings().1
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Lang {
    type Err = String;

    /// Accepts the names and extensions, case-insensitively (`c++`, `py` and `rs` too).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let spelt = |lang: &Lang| {
            let (name, extension, others) = lang.spellings();
            [name, extension]
                .iter()
                .chain(others)
                .any(|spelling| spelling.eq_ignore_ascii_case(text))
        };
        Lang::ALL
            .into_iter()
            .find(spelt)
            .ok_or_else(|| format!("unknown language `{text}`: expected cpp, python, rust or java"))
    }
}

/// What the generated code says about where its table came from.
#[derive(Clone, Copy, Debug, Default)]
pub struct CodeSpec<'a> {
    /// The game's name, for the header comment.
    pub game: &'a str,
    /// The periodicity to extrapolate with; `None` for a plain table that stops at its end.
    pub periodicity: Option<Periodicity>,
    /// True when the periodicity is proved (not merely observed).
    pub proved: bool,
    /// How it was obtained, e.g. the theorem used or the evidence (may be empty).
    pub reason: &'a str,
    /// A closed form of a sequence without a periodicity, observed on the whole table (see
    /// [`crate::analysis::patterns::find_sequence`]): the snippet extrapolates it, saying it is
    /// not proved. Only the non-periodic forms `ctz(n)`, `v_p(n)` and `popcount(n)` are
    /// written; [`formula_supported`] says which.
    pub formula: Option<&'a Formula>,
    /// A closed form of a box of two coordinates (see
    /// [`crate::analysis::patterns::find_box`]), which must hold on every position of the box
    /// with both coordinates at least [`CodeSpec::formula_from`]: `sg(x, y)` computes it there
    /// (beyond the box too, saying it is not proved) and reads the row `x = 0` and the column
    /// `y = 0` from the box. [`box_formula_supported`] says which forms are written.
    pub box_formula: Option<&'a Formula>,
    /// Where [`CodeSpec::box_formula`] starts: 0, or 1 when it leaves out the zero row and
    /// column.
    pub formula_from: u64,
}

/// Whether [`generate`] can write the two-coordinate `formula` as the body of `sg(x, y)`.
pub fn box_formula_supported(formula: &Formula) -> bool {
    formula_box::supported(formula)
}

/// Whether [`generate`] can write `formula` as the body of `sg(n)`.
pub fn formula_supported(formula: &Formula) -> bool {
    formula::supported(formula)
}

/// The largest snippet `code` writes without being asked (`--allow-large`): 256 KiB. Judges cap
/// the source of a submission (Codeforces at 64 KB, AtCoder at 512 KiB), so a larger lookup
/// table is rarely of use to paste, and a criterion or a period never comes near it.
pub const PASTE_LIMIT: usize = 256 * 1024;

/// `bytes` for people: `812 B`, `3.4 KiB`, `3.3 MiB`.
pub fn human_size(bytes: usize) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    let (scaled, unit) = match bytes {
        0..1024 => return format!("{bytes} B"),
        1024..1048576 => (b / KIB, "KiB"),
        _ => (b / (KIB * KIB), "MiB"),
    };
    let text = format!("{scaled:.1}");
    format!("{} {unit}", text.strip_suffix(".0").unwrap_or(&text))
}

/// Whether [`generate_criterion`] can write `criterion` exactly for a box of `arity`
/// coordinates (residue classes only up to 2^16 classes; every other family always).
pub fn criterion_supported(criterion: &PCriterion, arity: usize) -> bool {
    criterion::supported(criterion, arity)
}

/// `is_p(x, y, …)` and `first_player_wins(x, y, …)` (Java: `Sg.isP`, `Sg.firstPlayerWins`)
/// for a position game whose box `table` has the P-position criterion `found`: a header saying
/// it is observed on the box and NOT proved beyond (naming the theorem it matches, if any), and
/// exact integer code valid for every coordinate below 2^64 (2^63 in Java).
///
/// Fails unless `found` is [`criterion_supported`] and holds on every position of `table`.
pub fn generate_criterion(
    lang: Lang,
    table: &BoxTable,
    found: &PCriterion,
    game: &str,
) -> Result<String, ExportError> {
    if !criterion::supported(found, table.dimension()) || !holds_on_box(table, found) {
        return Err(ExportError::InvalidPeriodicity {
            message: format!(
                "the criterion {} is not one the code can write for this box, or the box contradicts it",
                found.describe(table.coordinates())
            ),
        });
    }
    Ok(criterion::write(lang, table, found, game))
}

/// The longest line of wrapped table values, in characters (before indentation).
const WRAP_WIDTH: usize = 92;
/// Java methods are limited to 64 KiB of bytecode, so long tables are filled in parts of
/// this many values, one method each (about 7 bytes of bytecode per value).
const JAVA_PART: usize = 2048;

/// Generates the lookup snippet of `table`: `sg(n)` for a heap game's sequence (see
/// `sequence`; `spec.periodicity` extrapolates it), `sg(x, y, …)` for a box of positions
/// (see `boxed`; it knows its box only, so a periodicity is refused).
///
/// Fails if the table is empty, or if the periodicity needs more values than the table
/// holds, has period 0 or a negative saltus, or is contradicted by the table.
pub fn generate(lang: Lang, table: &engine::Table, spec: &CodeSpec) -> Result<String, ExportError> {
    match table {
        engine::Table::Sequence { values, .. } => generate_sequence(lang, values, spec),
        engine::Table::Box(table) => {
            if spec.periodicity.is_some() {
                return Err(ExportError::InvalidPeriodicity {
                    message: "a periodicity extrapolates a heap game's sequence; the lookup code of a box of positions holds that box only".to_string(),
                });
            }
            if let Some(found) = spec.box_formula {
                let from = spec.formula_from;
                if table.dimension() != 2
                    || from > 1
                    || !formula_box::supported(found)
                    || !holds_on(found, table, from)
                {
                    return Err(ExportError::InvalidPeriodicity {
                        message: format!("the formula {found} is not one the lookup code can write for this box, or the box contradicts it"),
                    });
                }
                let snippet = formula_box::FormulaBox::new(table, found, from, spec.game);
                return Ok(write(lang, &snippet));
            }
            Ok(generate_box(lang, table, spec.game))
        }
    }
}

/// `sg(n)` for a heap game's sequence.
fn generate_sequence(lang: Lang, table: &SgTable, spec: &CodeSpec) -> Result<String, ExportError> {
    if table.is_empty() {
        return Err(ExportError::EmptyTable);
    }
    if let Some(periodicity) = &spec.periodicity {
        sequence::check_periodicity(table, periodicity)?;
    }
    if let (Some(found), None) = (spec.formula, spec.periodicity) {
        let values: Vec<u64> = table.iter().map(u64::from).collect();
        if !formula::supported(found) || !holds_on_sequence(found, 0, &values) {
            return Err(ExportError::InvalidPeriodicity {
                message: format!("the formula {found} is not one the lookup code can write, or the table contradicts it"),
            });
        }
        let snippet = formula::FormulaSequence::new(found, table.len() - 1, spec.game, spec.reason);
        return Ok(write(lang, &snippet));
    }
    Ok(write(lang, &sequence::Sequence::new(table, spec)))
}

/// Lookup code for a table over a box of multi-coordinate positions: a function
/// `sg(x, y, …)` with one 64-bit parameter per coordinate, named as in the rules file.
///
/// The snippet holds the values row-major (the last coordinate fastest), so for extents
/// `E_0, …, E_{d−1}` the position `(c_0, …, c_{d−1})` is at index
/// `(…(c_0·(E_1 + 1) + c_1)·(E_2 + 1) + …)·(E_{d−1} + 1) + c_{d−1}` (Horner's rule). Outside the
/// box nothing is known, so the function fails loudly there, as its doc comment says: C++
/// throws `std::out_of_range`, Python raises `IndexError`, Rust panics and Java throws
/// `IndexOutOfBoundsException`, each naming the position and the box. Coordinate names that are
/// not identifiers in every target language (or are keywords in one) become `c0`, `c1`, ….
fn generate_box(lang: Lang, table: &BoxTable, game: &str) -> String {
    write(lang, &boxed::BoxModel::new(table, game))
}

/// The function `sg` of a snippet; [`write`] puts the header comment and the table before it.
trait Snippet {
    /// The values and the header comment.
    fn table(&self) -> &Stored;
    /// `sg` in `lang`.
    fn sg(&self, out: &mut String, lang: Lang);
}

/// The whole snippet in `lang`: header comment, table, `sg`.
fn write(lang: Lang, snippet: &impl Snippet) -> String {
    let mut out = String::new();
    preamble(&mut out, lang, snippet.table());
    snippet.sg(&mut out, lang);
    out
}

/// What every snippet stores: its values and header comment, and the game's name.
struct Stored {
    /// The values the snippet stores.
    values: Vec<u32>,
    /// The header comment, one line per entry, without comment markers.
    header: Vec<String>,
    /// The game's name on one line, safe inside a comment.
    game: String,
}

impl Stored {
    /// The table of `values` with the header `Sprague-Grundy values G(position) of
    /// game[domain].`, then the lines `about`, then a line naming sgscope.
    fn new(values: Vec<u32>, game: &str, position: &str, domain: &str, about: Vec<String>) -> Self {
        let game = match one_line(game) {
            name if name.is_empty() => "this game".to_string(),
            name => name,
        };
        let mut header = vec![format!(
            "Sprague-Grundy values G({position}) of {game}{domain}."
        )];
        header.extend(about);
        header.push("Generated by sgscope.".to_string());
        Stored {
            values,
            header,
            game,
        }
    }

    fn len(&self) -> usize {
        self.values.len()
    }

    fn max_value(&self) -> u32 {
        self.values.iter().copied().max().unwrap_or(0)
    }

    /// Narrowest unsigned element width (8, 16 or 32 bits) for C++ and Rust tables.
    fn bits(&self) -> u32 {
        match self.max_value() {
            0..=0xFF => 8,
            0x100..=0xFFFF => 16,
            _ => 32,
        }
    }
}

/// `text` trimmed and on one line, safe in a line comment of every language (a line break
/// would end the comment; Java reads `\\u` escapes even inside comments).
fn one_line(text: &str) -> String {
    text.trim()
        .replace(['\n', '\r'], " ")
        .replace("\\u", "\\ u")
}

/// Writes `values` as comma-separated lines of at most [`WRAP_WIDTH`] characters, each
/// indented by `indent` spaces and ending with a comma (every language accepts a trailing
/// comma in an array initialiser).
fn wrapped(out: &mut String, values: impl IntoIterator<Item = String>, indent: usize) {
    let mut line = String::new();
    for value in values {
        if !line.is_empty() && line.len() + 1 + value.len() + 1 > WRAP_WIDTH {
            let _ = writeln!(out, "{:indent$}{}", "", line.trim_end());
            line.clear();
        }
        line.push_str(&value);
        line.push_str(", ");
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{:indent$}{}", "", line.trim_end());
    }
}

/// The header comment and the table: `SG_TABLE` in C++ and Rust, `_SG_TABLE` in Python, and
/// in Java the opening of `final class Sg` with its table `TABLE`.
fn preamble(out: &mut String, lang: Lang, table: &Stored) {
    let marker = if lang == Lang::Python { "#" } else { "//" };
    for line in &table.header {
        let _ = writeln!(out, "{marker} {line}");
    }
    let len = table.len();
    let bits = table.bits();
    let (open, close) = match lang {
        Lang::Cpp => (
            format!(
                "#include <cstdint>\n#include <stdexcept>\n#include <string>\n\n\
                 static const std::uint{bits}_t SG_TABLE[{len}] = {{"
            ),
            "};\n\n",
        ),
        Lang::Python => ("_SG_TABLE = (".to_string(), ")\n\n\n"),
        Lang::Rust => (format!("static SG_TABLE: [u{bits}; {len}] = ["), "];\n\n"),
        Lang::Java => return java_table(out, table),
    };
    let _ = writeln!(out, "{open}");
    wrapped(out, table.values.iter().map(u32::to_string), 4);
    out.push_str(close);
}

/// The opening of `final class Sg` and its table `TABLE`, filled in parts of [`JAVA_PART`]
/// values when it is long.
fn java_table(out: &mut String, table: &Stored) {
    let len = table.len();
    // Java has no unsigned types: int holds values up to 2^31 - 1, long the rest.
    let wide = table.max_value() > i32::MAX as u32;
    let (element, suffix) = if wide { ("long", "L") } else { ("int", "") };
    let literals = |part: &[u32]| {
        part.iter()
            .map(move |v| format!("{v}{suffix}"))
            .collect::<Vec<_>>()
    };
    out.push_str("final class Sg {\n    private Sg() {}\n\n");
    if len <= JAVA_PART {
        let _ = writeln!(out, "    private static final {element}[] TABLE = {{");
        wrapped(out, literals(&table.values), 8);
        out.push_str("    };\n");
    } else {
        let _ = writeln!(
            out,
            "    private static final {element}[] TABLE = new {element}[{len}];\n"
        );
        let parts = len.div_ceil(JAVA_PART);
        out.push_str("    static {\n");
        for part in 0..parts {
            let _ = writeln!(out, "        fill{part}();");
        }
        out.push_str("    }\n");
        for (part, chunk) in table.values.chunks(JAVA_PART).enumerate() {
            let _ = writeln!(out, "\n    private static void fill{part}() {{");
            let _ = writeln!(out, "        {element}[] part = {{");
            wrapped(out, literals(chunk), 12);
            out.push_str("        };\n");
            let _ = writeln!(
                out,
                "        System.arraycopy(part, 0, TABLE, {}, part.length);\n    }}",
                part * JAVA_PART
            );
        }
    }
}

impl Lang {
    /// The table entry at an index expression, as a value `sg` can return.
    fn lookup(self, index: &str) -> String {
        match self {
            Lang::Cpp => format!("SG_TABLE[{index}]"),
            Lang::Python => format!("_SG_TABLE[{index}]"),
            Lang::Rust => format!("i64::from(SG_TABLE[({index}) as usize])"),
            Lang::Java => format!("TABLE[(int) ({index})]"),
        }
    }

    /// A message naming numbers known only at run time: each `{name}` of `template` stands
    /// for the variable `name`. Python and Rust read such a template as it is (an f-string, a
    /// format string); C++ and Java join the pieces with `+`, so that `sg: n = {n} is
    /// negative` becomes `"sg: n = " + n + " is negative"`.
    fn message(self, template: &str) -> String {
        let joined = |to_text: fn(&str) -> String| {
            let mut parts = Vec::new();
            let mut rest = template;
            while let Some((text, after)) = rest.split_once('{') {
                let (name, after) = after.split_once('}').expect("a placeholder is closed");
                if !text.is_empty() {
                    parts.push(format!("\"{text}\""));
                }
                parts.push(to_text(name));
                rest = after;
            }
            if !rest.is_empty() || parts.is_empty() {
                parts.push(format!("\"{rest}\""));
            }
            parts.join(" + ")
        };
        match self {
            Lang::Cpp => joined(|name| format!("std::to_string({name})")),
            Lang::Python => format!("f\"{template}\""),
            Lang::Rust => format!("\"{template}\""),
            Lang::Java => joined(str::to_string),
        }
    }
}

/// `text` safe inside a Python docstring.
fn docstring(text: &str) -> String {
    text.replace(['"', '\\'], " ")
}

/// How a language whose `sg` reads like C (C++ and Java) spells each part of it: the bodies
/// run the same steps in both, so one writer per snippet serves both languages.
struct CLike {
    /// Which of the two it is.
    lang: Lang,
    /// The indentation of a statement in the body of `sg`.
    indent: &'static str,
    /// `sg`'s signature up to its parameter list.
    signature: &'static str,
    /// The 64-bit integer type.
    int: &'static str,
    /// Declares a local variable of type [`CLike::int`].
    local: &'static str,
    /// The largest value of [`CLike::int`].
    int_max: &'static str,
    /// The suffix that makes an integer literal 64-bit.
    literal_suffix: &'static str,
    /// `throw`, up to the exception's name.
    throw: &'static str,
    /// The exceptions for a negative `n`, a position beyond the table or outside the box,
    /// and a value beyond 64 bits.
    negative: &'static str,
    outside: &'static str,
    overflow: &'static str,
    /// The table entry at `n`.
    lookup_n: &'static str,
    /// The doc comment of `sg` holding the text, on its own line(s).
    doc: fn(&str) -> String,
    /// What closes `sg` (and, in Java, the class).
    close: &'static str,
}

const CPP: CLike = CLike {
    lang: Lang::Cpp,
    indent: "    ",
    signature: "inline std::int64_t sg(",
    int: "std::int64_t",
    local: "const std::int64_t ",
    int_max: "INT64_MAX",
    literal_suffix: "",
    throw: "throw ",
    negative: "std::invalid_argument",
    outside: "std::out_of_range",
    overflow: "std::overflow_error",
    lookup_n: "SG_TABLE[n]",
    doc: |text| format!("// {text}"),
    close: "}\n",
};

const JAVA: CLike = CLike {
    lang: Lang::Java,
    indent: "        ",
    signature: "    static long sg(",
    int: "long",
    local: "long ",
    int_max: "Long.MAX_VALUE",
    literal_suffix: "L",
    throw: "throw new ",
    negative: "IllegalArgumentException",
    outside: "IndexOutOfBoundsException",
    overflow: "ArithmeticException",
    lookup_n: "TABLE[(int) n]",
    doc: |text| format!("\n    /** {} */", text.replace("*/", "* /")),
    close: "    }\n}\n",
};

impl CLike {
    /// `throw exception(message)`, the message spelt from `template` by [`Lang::message`].
    fn throw(&self, exception: &str, template: &str) -> String {
        format!("{}{exception}({})", self.throw, self.lang.message(template))
    }
}

/// One `#[test]` per language, each calling `check` with it, so that a failure or a missing
/// toolchain is reported under the language's own name.
#[cfg(test)]
macro_rules! test_each_language {
    ($check:ident: $($test:ident => $lang:ident),+ $(,)?) => {
        $(
            #[test]
            fn $test() {
                $check(Lang::$lang);
            }
        )+
    };
}
#[cfg(test)]
use test_each_language;

#[cfg(test)]
mod tests {
    //! What the snippets' tests share: compiling and running a program around a snippet.

    use std::path::Path;
    use std::process::{Command, Output};

    use super::*;

    /// The snippet is a library function: the caller writes `main`.
    pub(super) fn assert_no_main(lang: Lang, code: &str) {
        assert!(
            !code.contains("main"),
            "{lang}: the snippet must not have a main"
        );
    }

    /// `output` is a failed run whose stderr says `message`; `context` names the call.
    pub(super) fn assert_fails_with(output: &Output, message: &str, context: &str) {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{context} must fail");
        assert!(
            stderr.contains(message),
            "{context}: stderr lacks `{message}`:\n{stderr}"
        );
    }

    /// The tool that compiles or runs `lang`'s code, and how to install it.
    fn tool(lang: Lang) -> (&'static str, &'static str) {
        match lang {
            Lang::Cpp => ("g++", "apt-get install g++"),
            Lang::Rust => ("rustc", "rustup, https://rustup.rs"),
            Lang::Python => ("python3", "apt-get install python3"),
            Lang::Java => ("java", "apt-get install default-jdk-headless"),
        }
    }

    /// A missing tool (`error` from starting it) fails the test, as `support::need_tool` does in
    /// the integration tests (`.ci/run` installs the tools): a skipped language would pass
    /// silently. `SGSCOPE_SKIP_MISSING_TOOLS=1` asks to skip instead, and the skip is said on
    /// stderr. Any other error starting the tool fails.
    fn missing(lang: Lang, error: &std::io::Error) {
        let (tool, install) = tool(lang);
        assert!(
            error.kind() == std::io::ErrorKind::NotFound,
            "cannot start `{tool}` for the {lang} test: {error}"
        );
        assert!(
            std::env::var_os("SGSCOPE_SKIP_MISSING_TOOLS").is_some_and(|v| v == "1"),
            "`{tool}` is needed to run the generated {lang} code ({install}; .ci/run installs \
             it; SGSCOPE_SKIP_MISSING_TOOLS=1 skips these checks)"
        );
        eprintln!("{tool} not found: skipped the {lang} test (SGSCOPE_SKIP_MISSING_TOOLS=1)");
    }

    /// Compiles (where needed) and runs `source`. A missing toolchain fails the test, unless
    /// `SGSCOPE_SKIP_MISSING_TOOLS=1`: then `None` (see [`missing`]).
    pub(super) fn run(lang: Lang, dir: &Path, source: &str) -> Option<Output> {
        let file = dir.join(match lang {
            Lang::Java => "Main.java".to_string(),
            _ => format!("main.{}", lang.extension()),
        });
        std::fs::write(&file, source).unwrap();
        let binary = dir.join("main");
        let compile = match lang {
            Lang::Cpp => Some(
                Command::new("g++")
                    .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-o"])
                    .arg(&binary)
                    .arg(&file)
                    .output(),
            ),
            Lang::Rust => Some(
                Command::new("rustc")
                    .args([
                        "--edition",
                        "2021",
                        "-D",
                        "warnings",
                        "-C",
                        "opt-level=0",
                        "-o",
                    ])
                    .arg(&binary)
                    .arg(&file)
                    .output(),
            ),
            Lang::Python | Lang::Java => None,
        };
        if let Some(compiled) = compile {
            let compiled = match compiled {
                Ok(compiled) => compiled,
                Err(error) => {
                    missing(lang, &error);
                    return None;
                }
            };
            assert!(
                compiled.status.success(),
                "{lang} code does not compile:\n{}\n{source}",
                String::from_utf8_lossy(&compiled.stderr)
            );
        }
        let output = match lang {
            Lang::Cpp | Lang::Rust => Command::new(&binary).output(),
            Lang::Python => Command::new("python3").arg(&file).output(),
            // The single-file source launcher (Java 11+) compiles in memory.
            Lang::Java => Command::new("java").arg(&file).output(),
        };
        match output {
            Ok(output) => Some(output),
            // The compiled binary is ours: failing to start it is a fault, not a missing tool.
            Err(error) if matches!(lang, Lang::Cpp | Lang::Rust) => {
                panic!("cannot run the compiled {lang} code: {error}")
            }
            Err(error) => {
                missing(lang, &error);
                None
            }
        }
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_size(812), "812 B");
        assert_eq!(human_size(PASTE_LIMIT), "256 KiB");
        assert_eq!(human_size(2253), "2.2 KiB");
        assert_eq!(human_size(3_292_663), "3.1 MiB");
    }

    #[test]
    fn language_names_parse() {
        for lang in Lang::ALL {
            assert_eq!(lang.name().parse::<Lang>(), Ok(lang));
        }
        assert_eq!("C++".parse::<Lang>(), Ok(Lang::Cpp));
        assert!("cobol"
            .parse::<Lang>()
            .unwrap_err()
            .contains("expected cpp"));
    }

    #[test]
    fn messages_join_their_variables() {
        let message = "sg: ({x}, {y}) is outside";
        assert_eq!(
            Lang::Cpp.message(message),
            "\"sg: (\" + std::to_string(x) + \", \" + std::to_string(y) + \") is outside\""
        );
        assert_eq!(Lang::Java.message("{n}"), "n");
        assert_eq!(Lang::Java.message("plain"), "\"plain\"");
        assert_eq!(
            Lang::Python.message(message),
            "f\"sg: ({x}, {y}) is outside\""
        );
        assert_eq!(Lang::Rust.message(message), "\"sg: ({x}, {y}) is outside\"");
    }
}
