//! Lookup code for contest solutions: a self-contained function `sg(n)` (no `main`) in C++,
//! Python, Rust or Java, taking a 64-bit `n` and returning `G(n)` as a 64-bit integer.
//!
//! With a [`Periodicity`] (preperiod `n0`, period `p`, saltus `s`) the snippet holds the
//! table `T = G(0..n0 + p)` and computes, for larger `n`,
//! `G(n) = T[n0 + (n − n0) mod p] + ⌊(n − n0) / p⌋ · s`, the relation
//! `G(n + p) = G(n) + s` for `n ≥ n0` applied ⌊(n − n0)/p⌋ times (the same formula as
//! [`Periodicity::extrapolate`]). Every intermediate value is at most `n` or the result, so
//! it stays in 64 bits for every `n` up to `2^63 − 1`; only the result itself can exceed 64
//! bits when `s > 0`, and the snippet then fails loudly instead of wrapping (Python integers
//! are unbounded and need no check).
//!
//! Without a periodicity the snippet holds the whole table `G(0..=N)` and fails loudly (an
//! exception or a panic with a message) for `n > N`, since nothing is known beyond it.
//!
//! The header comment names the game, describes the table and says whether the period was
//! proved or only observed, so a reader of a contest solution knows how far to trust it.

use std::fmt::Write as _;
use std::str::FromStr;

use super::ExportError;
use crate::analysis::Periodicity;
use crate::engine::SgTable;

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

    /// The name accepted by [`Lang::from_str`] (`cpp`, `python`, `rust`, `java`).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Cpp => "cpp",
            Lang::Python => "python",
            Lang::Rust => "rust",
            Lang::Java => "java",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Lang::Cpp => "cpp",
            Lang::Python => "py",
            Lang::Rust => "rs",
            Lang::Java => "java",
        }
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
        match text.to_ascii_lowercase().as_str() {
            "cpp" | "c++" | "cxx" => Ok(Lang::Cpp),
            "python" | "py" => Ok(Lang::Python),
            "rust" | "rs" => Ok(Lang::Rust),
            "java" => Ok(Lang::Java),
            _ => Err(format!("unknown language `{text}`: expected cpp, python, rust or java")),
        }
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
}

/// The longest line of wrapped table values, in characters (before indentation).
const WRAP_WIDTH: usize = 92;
/// Java methods are limited to 64 KiB of bytecode, so long tables are filled in parts of
/// this many values, one method each (about 7 bytes of bytecode per value).
const JAVA_PART: usize = 2048;

/// Generates the lookup snippet for `table` (see the module docs).
///
/// Fails if the table is empty, or if the periodicity needs more values than the table
/// holds, has period 0 or a negative saltus, or is contradicted by the table.
pub fn generate(lang: Lang, table: &SgTable, spec: &CodeSpec) -> Result<String, ExportError> {
    if table.is_empty() {
        return Err(ExportError::EmptyTable);
    }
    if let Some(periodicity) = &spec.periodicity {
        check_periodicity(table, periodicity)?;
    }
    let model = Model::new(table, spec);
    let mut code = String::new();
    match lang {
        Lang::Cpp => cpp(&mut code, &model),
        Lang::Python => python(&mut code, &model),
        Lang::Rust => rust(&mut code, &model),
        Lang::Java => java(&mut code, &model),
    }
    Ok(code)
}

/// Refuses a periodicity the generated formula would get wrong.
fn check_periodicity(table: &SgTable, periodicity: &Periodicity) -> Result<(), ExportError> {
    let invalid = |message: String| Err(ExportError::InvalidPeriodicity { message });
    let Periodicity { preperiod, period, saltus } = *periodicity;
    if period == 0 {
        return invalid("a period must be at least 1".to_string());
    }
    if saltus < 0 {
        return invalid(format!(
            "saltus {saltus} would make values negative for large n, and Sprague-Grundy \
             values are never negative"
        ));
    }
    let head = preperiod.saturating_add(period);
    if head > table.len() {
        return invalid(format!(
            "the lookup code needs G(0..{head}) (preperiod {preperiod} + period {period}) but \
             the table holds only {} values\n  help: compute the table further (--to {})",
            table.len(),
            head - 1
        ));
    }
    for n in preperiod..table.len() - period {
        let expected = table.get(n) as i64 + saltus;
        if table.get(n + period) as i64 != expected {
            return invalid(format!(
                "the table contradicts the periodicity: G({}) = {} but G({n}) + saltus = \
                 {expected}",
                n + period,
                table.get(n + period)
            ));
        }
    }
    Ok(())
}

/// The numbers every language needs, computed once.
struct Model {
    /// The values the snippet stores.
    values: Vec<u32>,
    periodicity: Option<Periodicity>,
    /// The header comment, one line per entry, without comment markers.
    header: Vec<String>,
    /// The game's name on one line, safe inside a comment.
    game: String,
}

impl Model {
    fn new(table: &SgTable, spec: &CodeSpec) -> Self {
        let game = one_line(spec.game);
        let game = if game.is_empty() { "this game".to_string() } else { game };
        let reason = one_line(spec.reason);
        let mut header = vec![format!("Sprague-Grundy values G(n) of {game}.")];
        let values: Vec<u32> = match spec.periodicity {
            Some(Periodicity { preperiod, period, saltus }) => {
                header.push(format!(
                    "T holds G(0..{}); beyond it G(n) = T[n0 + (n - n0) % p] + ((n - n0) / p) * s",
                    preperiod + period
                ));
                header.push(format!(
                    "with preperiod n0 = {preperiod}, period p = {period}, saltus s = {saltus}."
                ));
                let status = if spec.proved {
                    "Periodicity proved"
                } else {
                    "Periodicity observed, NOT proved"
                };
                header.push(match reason.is_empty() {
                    true => format!("{status}."),
                    false => format!("{status}: {reason}"),
                });
                table.iter().take(preperiod + period).collect()
            }
            None => {
                let last = table.len() - 1;
                header.push(format!(
                    "T holds G(0..={last}) as computed; no period is known, so sg(n) fails for n > {last}."
                ));
                if !reason.is_empty() {
                    header.push(format!("Source: {reason}"));
                }
                table.to_vec()
            }
        };
        header.push("Generated by sgscope.".to_string());
        Model { values, periodicity: spec.periodicity, header, game }
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
    text.trim().replace(['\n', '\r'], " ").replace("\\u", "\\ u")
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

fn comment(out: &mut String, model: &Model, marker: &str) {
    for line in &model.header {
        let _ = writeln!(out, "{marker} {line}");
    }
}

fn cpp(out: &mut String, model: &Model) {
    comment(out, model, "//");
    let len = model.len();
    let bits = model.bits();
    out.push_str("#include <cstdint>\n#include <stdexcept>\n#include <string>\n\n");
    let _ = writeln!(out, "static const std::uint{bits}_t SG_TABLE[{len}] = {{");
    wrapped(out, model.values.iter().map(u32::to_string), 4);
    out.push_str("};\n\n");
    let _ = writeln!(out, "// G(n) of {}.", model.game);
    out.push_str("inline std::int64_t sg(std::int64_t n) {\n");
    out.push_str(
        "    if (n < 0) throw std::invalid_argument(\"sg: n = \" + std::to_string(n) + \" is negative\");\n",
    );
    let _ = writeln!(out, "    if (n < {len}) return SG_TABLE[n];");
    match model.periodicity {
        None => {
            let _ = writeln!(
                out,
                "    throw std::out_of_range(\"sg: n = \" + std::to_string(n) + \" is beyond the \
                 table (0..={}) and no period is known\");",
                len - 1
            );
        }
        Some(Periodicity { preperiod, period, saltus }) => {
            let _ = writeln!(out, "    const std::int64_t offset = n - {preperiod};");
            let _ = writeln!(
                out,
                "    const std::int64_t base = SG_TABLE[{preperiod} + offset % {period}];"
            );
            if saltus == 0 {
                out.push_str("    return base;\n");
            } else {
                let _ = writeln!(out, "    const std::int64_t cycles = offset / {period};");
                let _ = writeln!(
                    out,
                    "    if (cycles > (INT64_MAX - base) / {saltus}) throw std::overflow_error(\"sg: G(\" + \
                     std::to_string(n) + \") does not fit in 64 bits\");"
                );
                let _ = writeln!(out, "    return base + cycles * {saltus};");
            }
        }
    }
    out.push_str("}\n");
}

fn python(out: &mut String, model: &Model) {
    comment(out, model, "#");
    let len = model.len();
    out.push_str("_SG_TABLE = (\n");
    wrapped(out, model.values.iter().map(u32::to_string), 4);
    out.push_str(")\n\n\n");
    out.push_str("def sg(n: int) -> int:\n");
    let _ = writeln!(out, "    \"\"\"G(n) of {}.\"\"\"", model.game.replace(['"', '\\'], " "));
    out.push_str("    if n < 0:\n        raise ValueError(f\"sg: n = {n} is negative\")\n");
    let _ = writeln!(out, "    if n < {len}:\n        return _SG_TABLE[n]");
    match model.periodicity {
        None => {
            let _ = writeln!(
                out,
                "    raise IndexError(f\"sg: n = {{n}} is beyond the table (0..={}) and no period is known\")",
                len - 1
            );
        }
        Some(Periodicity { preperiod, period, saltus }) => {
            let _ = writeln!(out, "    offset = n - {preperiod}");
            if saltus == 0 {
                let _ = writeln!(out, "    return _SG_TABLE[{preperiod} + offset % {period}]");
            } else {
                let _ = writeln!(
                    out,
                    "    return _SG_TABLE[{preperiod} + offset % {period}] + (offset // {period}) * {saltus}"
                );
            }
        }
    }
}

fn rust(out: &mut String, model: &Model) {
    comment(out, model, "//");
    let len = model.len();
    let bits = model.bits();
    let _ = writeln!(out, "static SG_TABLE: [u{bits}; {len}] = [");
    wrapped(out, model.values.iter().map(u32::to_string), 4);
    out.push_str("];\n\n");
    let _ = writeln!(out, "/// G(n) of {}.", model.game);
    out.push_str("pub fn sg(n: i64) -> i64 {\n");
    out.push_str("    assert!(n >= 0, \"sg: n = {n} is negative\");\n");
    let _ = writeln!(out, "    if n < {len} {{\n        return i64::from(SG_TABLE[n as usize]);\n    }}");
    match model.periodicity {
        None => {
            let _ = writeln!(
                out,
                "    panic!(\"sg: n = {{n}} is beyond the table (0..={}) and no period is known\");",
                len - 1
            );
        }
        Some(Periodicity { preperiod, period, saltus }) => {
            let _ = writeln!(out, "    let offset = n - {preperiod};");
            let _ = writeln!(
                out,
                "    let base = i64::from(SG_TABLE[({preperiod} + offset % {period}) as usize]);"
            );
            if saltus == 0 {
                out.push_str("    base\n");
            } else {
                let _ = writeln!(out, "    (offset / {period})");
                let _ = writeln!(out, "        .checked_mul({saltus})");
                out.push_str("        .and_then(|rise| rise.checked_add(base))\n");
                out.push_str(
                    "        .unwrap_or_else(|| panic!(\"sg: G({n}) does not fit in 64 bits\"))\n",
                );
            }
        }
    }
    out.push_str("}\n");
}

fn java(out: &mut String, model: &Model) {
    comment(out, model, "//");
    let len = model.len();
    // Java has no unsigned types: int holds values up to 2^31 - 1, long the rest.
    let wide = model.max_value() > i32::MAX as u32;
    let (element, suffix) = if wide { ("long", "L") } else { ("int", "") };
    let literals = |part: &[u32]| part.iter().map(move |v| format!("{v}{suffix}")).collect::<Vec<_>>();
    out.push_str("final class Sg {\n    private Sg() {}\n\n");
    if len <= JAVA_PART {
        let _ = writeln!(out, "    private static final {element}[] TABLE = {{");
        wrapped(out, literals(&model.values), 8);
        out.push_str("    };\n");
    } else {
        let _ = writeln!(out, "    private static final {element}[] TABLE = new {element}[{len}];\n");
        let parts = len.div_ceil(JAVA_PART);
        out.push_str("    static {\n");
        for part in 0..parts {
            let _ = writeln!(out, "        fill{part}();");
        }
        out.push_str("    }\n");
        for (part, chunk) in model.values.chunks(JAVA_PART).enumerate() {
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
    let _ = writeln!(out, "\n    /** G(n) of {}. */", model.game.replace("*/", "* /"));
    out.push_str("    static long sg(long n) {\n");
    out.push_str(
        "        if (n < 0) throw new IllegalArgumentException(\"sg: n = \" + n + \" is negative\");\n",
    );
    let _ = writeln!(out, "        if (n < {len}) return TABLE[(int) n];");
    match model.periodicity {
        None => {
            let _ = writeln!(
                out,
                "        throw new IndexOutOfBoundsException(\"sg: n = \" + n + \" is beyond the table \
                 (0..={}) and no period is known\");",
                len - 1
            );
        }
        Some(Periodicity { preperiod, period, saltus }) => {
            let _ = writeln!(out, "        long offset = n - {preperiod}L;");
            let _ = writeln!(out, "        long base = TABLE[(int) ({preperiod}L + offset % {period}L)];");
            if saltus == 0 {
                out.push_str("        return base;\n");
            } else {
                let _ = writeln!(out, "        long cycles = offset / {period}L;");
                let _ = writeln!(
                    out,
                    "        if (cycles > (Long.MAX_VALUE - base) / {saltus}L) throw new ArithmeticException(\"sg: G(\" \
                     + n + \") does not fit in 64 bits\");"
                );
                let _ = writeln!(out, "        return base + cycles * {saltus}L;");
            }
        }
    }
    out.push_str("    }\n}\n");
}
