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
use crate::engine::boxtable::BoxTable;
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
            _ => Err(format!(
                "unknown language `{text}`: expected cpp, python, rust or java"
            )),
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
    let Periodicity {
        preperiod,
        period,
        saltus,
    } = *periodicity;
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
        // i128: a saltus near i64::MAX must be refused, not overflow.
        let expected = i128::from(table.get(n)) + i128::from(saltus);
        if i128::from(table.get(n + period)) != expected {
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
        let game = if game.is_empty() {
            "this game".to_string()
        } else {
            game
        };
        let reason = one_line(spec.reason);
        let mut header = vec![format!("Sprague-Grundy values G(n) of {game}.")];
        let values: Vec<u32> = match spec.periodicity {
            Some(Periodicity {
                preperiod,
                period,
                saltus,
            }) => {
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
                header.push(if reason.is_empty() {
                    format!("{status}.")
                } else {
                    format!("{status}: {reason}")
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
        Model {
            values,
            periodicity: spec.periodicity,
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

/// `n − n0` in every language's syntax (just `n` when there is no preperiod).
fn offset_expr(preperiod: usize) -> String {
    if preperiod == 0 {
        "n".to_string()
    } else {
        format!("n - {preperiod}")
    }
}

/// `n0 + offset mod p`, the index into the table, in every language's syntax.
fn index_expr(preperiod: usize, period: usize) -> String {
    if preperiod == 0 {
        format!("offset % {period}")
    } else {
        format!("{preperiod} + offset % {period}")
    }
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

/// The header comment, the includes and the table `SG_TABLE`.
fn cpp_preamble(out: &mut String, model: &Model) {
    comment(out, model, "//");
    let len = model.len();
    let bits = model.bits();
    out.push_str("#include <cstdint>\n#include <stdexcept>\n#include <string>\n\n");
    let _ = writeln!(out, "static const std::uint{bits}_t SG_TABLE[{len}] = {{");
    wrapped(out, model.values.iter().map(u32::to_string), 4);
    out.push_str("};\n\n");
}

fn cpp(out: &mut String, model: &Model) {
    cpp_preamble(out, model);
    c_like(out, model, &CPP);
}

/// How a language whose `sg` reads like C (C++ and Java) spells each part of it: the two
/// bodies run the same steps, so one writer ([`c_like`], [`c_like_box`]) serves both.
struct CLike {
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
    /// The table entry at an index expression.
    lookup: fn(&str) -> String,
    /// An integer turned into text, to join to a string with `+`.
    to_text: fn(&str) -> String,
    /// The doc comment of `sg` holding the text, on its own line(s).
    doc: fn(&str) -> String,
    /// What closes `sg` (and, in Java, the class).
    close: &'static str,
}

const CPP: CLike = CLike {
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
    lookup: |index| format!("SG_TABLE[{index}]"),
    to_text: |number| format!("std::to_string({number})"),
    doc: |text| format!("// {text}"),
    close: "}\n",
};

const JAVA: CLike = CLike {
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
    lookup: |index| format!("TABLE[(int) ({index})]"),
    to_text: str::to_string,
    doc: |text| format!("\n    /** {} */", text.replace("*/", "* /")),
    close: "    }\n}\n",
};

/// The function `sg(n)` of the module docs in C++ or Java, after the preamble.
fn c_like(out: &mut String, model: &Model, c: &CLike) {
    let CLike {
        indent,
        local,
        throw,
        ..
    } = c;
    let len = model.len();
    let n = (c.to_text)("n");
    let _ = writeln!(out, "{}", (c.doc)(&format!("G(n) of {}.", model.game)));
    let _ = writeln!(out, "{}{} n) {{", c.signature, c.int);
    let _ = writeln!(
        out,
        "{indent}if (n < 0) {throw}{}(\"sg: n = \" + {n} + \" is negative\");",
        c.negative
    );
    let _ = writeln!(out, "{indent}if (n < {len}) return {};", c.lookup_n);
    match model.periodicity {
        None => {
            let _ = writeln!(
                out,
                "{indent}{throw}{}(\"sg: n = \" + {n} + \" is beyond the table (0..={}) and no \
                 period is known\");",
                c.outside,
                len - 1
            );
        }
        Some(Periodicity {
            preperiod,
            period,
            saltus,
        }) => {
            let _ = writeln!(out, "{indent}{local}offset = {};", offset_expr(preperiod));
            let _ = writeln!(
                out,
                "{indent}{local}base = {};",
                (c.lookup)(&index_expr(preperiod, period))
            );
            if saltus == 0 {
                let _ = writeln!(out, "{indent}return base;");
            } else {
                let suffix = c.literal_suffix;
                let _ = writeln!(out, "{indent}{local}cycles = offset / {period};");
                let _ = writeln!(
                    out,
                    "{indent}if (cycles > ({} - base) / {saltus}{suffix}) {throw}{}(\"sg: G(\" + \
                     {n} + \") does not fit in 64 bits\");",
                    c.int_max, c.overflow
                );
                let _ = writeln!(out, "{indent}return base + cycles * {saltus}{suffix};");
            }
        }
    }
    out.push_str(c.close);
}

/// The header comment and the table `_SG_TABLE`.
fn python_preamble(out: &mut String, model: &Model) {
    comment(out, model, "#");
    out.push_str("_SG_TABLE = (\n");
    wrapped(out, model.values.iter().map(u32::to_string), 4);
    out.push_str(")\n\n\n");
}

fn python(out: &mut String, model: &Model) {
    python_preamble(out, model);
    let len = model.len();
    out.push_str("def sg(n: int) -> int:\n");
    let _ = writeln!(
        out,
        "    \"\"\"G(n) of {}.\"\"\"",
        model.game.replace(['"', '\\'], " ")
    );
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
        Some(Periodicity {
            preperiod,
            period,
            saltus,
        }) => {
            let _ = writeln!(out, "    offset = {}", offset_expr(preperiod));
            if saltus == 0 {
                let _ = writeln!(
                    out,
                    "    return _SG_TABLE[{}]",
                    index_expr(preperiod, period)
                );
            } else {
                let _ = writeln!(
                    out,
                    "    return _SG_TABLE[{}] + (offset // {period}) * {saltus}",
                    index_expr(preperiod, period)
                );
            }
        }
    }
}

/// The header comment and the table `SG_TABLE`.
fn rust_preamble(out: &mut String, model: &Model) {
    comment(out, model, "//");
    let len = model.len();
    let bits = model.bits();
    let _ = writeln!(out, "static SG_TABLE: [u{bits}; {len}] = [");
    wrapped(out, model.values.iter().map(u32::to_string), 4);
    out.push_str("];\n\n");
}

fn rust(out: &mut String, model: &Model) {
    rust_preamble(out, model);
    let len = model.len();
    let _ = writeln!(out, "/// G(n) of {}.", model.game);
    out.push_str("pub fn sg(n: i64) -> i64 {\n");
    out.push_str("    assert!(n >= 0, \"sg: n = {n} is negative\");\n");
    let _ = writeln!(
        out,
        "    if n < {len} {{\n        return i64::from(SG_TABLE[n as usize]);\n    }}"
    );
    match model.periodicity {
        None => {
            let _ = writeln!(
                out,
                "    panic!(\"sg: n = {{n}} is beyond the table (0..={}) and no period is known\");",
                len - 1
            );
        }
        Some(Periodicity {
            preperiod,
            period,
            saltus,
        }) => {
            let _ = writeln!(out, "    let offset = {};", offset_expr(preperiod));
            let lookup = format!(
                "i64::from(SG_TABLE[({}) as usize])",
                index_expr(preperiod, period)
            );
            if saltus == 0 {
                let _ = writeln!(out, "    {lookup}");
            } else {
                let _ = writeln!(out, "    let base = {lookup};");
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

/// The header comment, the opening of `final class Sg` and its table `TABLE`.
fn java_preamble(out: &mut String, model: &Model) {
    comment(out, model, "//");
    let len = model.len();
    // Java has no unsigned types: int holds values up to 2^31 - 1, long the rest.
    let wide = model.max_value() > i32::MAX as u32;
    let (element, suffix) = if wide { ("long", "L") } else { ("int", "") };
    let literals = |part: &[u32]| {
        part.iter()
            .map(move |v| format!("{v}{suffix}"))
            .collect::<Vec<_>>()
    };
    out.push_str("final class Sg {\n    private Sg() {}\n\n");
    if len <= JAVA_PART {
        let _ = writeln!(out, "    private static final {element}[] TABLE = {{");
        wrapped(out, literals(&model.values), 8);
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
}

fn java(out: &mut String, model: &Model) {
    java_preamble(out, model);
    c_like(out, model, &JAVA);
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
mod tests {
    //! The generated code is compiled and run: for each table it must print exactly the values
    //! the table (or [`Periodicity::extrapolate`]) gives, and fail loudly where it must.

    use std::path::Path;
    use std::process::{Command, Output};

    use super::*;
    use crate::engine::mex::mex_of;

    /// Dawson's Kayles, octal game 0.07: G(n) = mex{G(a) xor G(n − 2 − a)}, computed naively.
    /// Known to have period 34 from n = 53 on (OEIS A002187; Winning Ways, chapter 4).
    fn dawsons_kayles(len: usize) -> Vec<u32> {
        let mut values: Vec<u32> = Vec::with_capacity(len);
        for n in 0..len {
            let options = (0..n.saturating_sub(1)).map(|a| values[a] ^ values[n - 2 - a]);
            values.push(mex_of(options));
        }
        values
    }

    /// One table to generate code for, with the positions to print and the one (if any)
    /// where the code must fail.
    struct Case {
        name: &'static str,
        table: SgTable,
        periodicity: Option<Periodicity>,
        printed: Vec<i64>,
        /// A position where `sg` must fail, and a piece of the expected message.
        fails_at: Option<(i64, &'static str)>,
        /// Python integers do not overflow, so the 64-bit overflow check does not apply.
        python_does_not_fail: bool,
    }

    impl Case {
        fn expected(&self, n: i64) -> u64 {
            match self.periodicity {
                Some(periodicity) => periodicity.extrapolate(|i| self.table.get(i), n as u64),
                None => self.table.get(n as usize) as u64,
            }
        }
    }

    fn around_10_18() -> Vec<i64> {
        let mut ns: Vec<i64> = (0..=3000).collect();
        ns.extend(1_000_000_000_000_000_000 - 40..=1_000_000_000_000_000_000 + 40);
        ns
    }

    fn cases() -> Vec<Case> {
        let pure = Periodicity {
            preperiod: 53,
            period: 34,
            saltus: 0,
        };
        vec![
            Case {
                name: "dawson",
                table: SgTable::from_values(&dawsons_kayles(300)),
                periodicity: Some(pure),
                printed: around_10_18()
                    .into_iter()
                    .chain([i64::MAX - 1, i64::MAX])
                    .collect(),
                fails_at: None,
                python_does_not_fail: false,
            },
            Case {
                // Nim: G(n) = n (Bouton 1901), period 1 and saltus 1 from n = 0.
                name: "nim",
                table: SgTable::from_values(&[0, 1, 2, 3]),
                periodicity: Some(Periodicity {
                    preperiod: 0,
                    period: 1,
                    saltus: 1,
                }),
                printed: around_10_18()
                    .into_iter()
                    .chain([i64::MAX - 1, i64::MAX])
                    .collect(),
                fails_at: None,
                python_does_not_fail: false,
            },
            Case {
                // Synthetic arithmetic periodicity: preperiod 3, then (1, 0, 4, 2) + 3k.
                name: "arith",
                table: SgTable::from_values(&[5, 0, 2, 1, 0, 4, 2, 4, 3, 7, 5, 7]),
                periodicity: Some(Periodicity {
                    preperiod: 3,
                    period: 4,
                    saltus: 3,
                }),
                printed: around_10_18()
                    .into_iter()
                    .chain([i64::MAX - 1, i64::MAX])
                    .collect(),
                fails_at: None,
                python_does_not_fail: false,
            },
            Case {
                // Values above 2^31 − 1, which Java's int cannot hold.
                name: "wide",
                table: SgTable::from_values(&[3_000_000_000, 7, 4_294_967_295]),
                periodicity: Some(Periodicity {
                    preperiod: 1,
                    period: 2,
                    saltus: 0,
                }),
                printed: around_10_18().into_iter().chain([i64::MAX]).collect(),
                fails_at: None,
                python_does_not_fail: false,
            },
            Case {
                // G(n) = 2n: G(2^63 − 1) does not fit in 64 bits.
                name: "overflow",
                table: SgTable::from_values(&[0, 2, 4]),
                periodicity: Some(Periodicity {
                    preperiod: 0,
                    period: 1,
                    saltus: 2,
                }),
                printed: around_10_18(),
                fails_at: Some((i64::MAX, "does not fit in 64 bits")),
                python_does_not_fail: true,
            },
            Case {
                // No period: the whole table (long enough for Java's table parts), then a guard.
                name: "plain",
                table: SgTable::from_values(&dawsons_kayles(2500)),
                periodicity: None,
                printed: (0..2500).collect(),
                fails_at: Some((2500, "beyond the table (0..=2499)")),
                python_does_not_fail: false,
            },
        ]
    }

    fn snippet(lang: Lang, case: &Case) -> String {
        let spec = CodeSpec {
            game: case.name,
            periodicity: case.periodicity,
            proved: case.name == "dawson",
            reason: "test table",
        };
        let code = generate(lang, &case.table, &spec).unwrap();
        assert_no_main(lang, &code);
        code
    }

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

    /// A program printing `sg(n)` for every printed `n`, one per line, then calling
    /// `sg(fails_at)` and printing `no failure` if that returns.
    fn harness(lang: Lang, case: &Case, snippet: &str) -> String {
        let list = |suffix: &str| {
            case.printed
                .iter()
                .map(|n| format!("{n}{suffix}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let fails_at = case.fails_at.map(|(n, _)| n);
        match lang {
            Lang::Cpp => format!(
                "#include <cstdio>\n{snippet}\nint main() {{\n    static const long long ns[] = {{{}}};\n    \
                 for (long long n : ns) std::printf(\"%lld\\n\", (long long) sg(n));\n    \
                 std::fflush(stdout);\n{}    return 0;\n}}\n",
                list("LL"),
                fails_at.map_or(String::new(), |n| format!(
                    "    sg({n}LL);\n    std::printf(\"no failure\\n\");\n"
                )),
            ),
            Lang::Python => format!(
                "{snippet}\nimport sys\nsys.stdout.write(''.join(f'{{sg(n)}}\\n' for n in [{}]))\n{}",
                list(""),
                fails_at.map_or(String::new(), |n| format!("sg({n})\nprint('no failure')\n")),
            ),
            Lang::Rust => format!(
                "{snippet}\nfn main() {{\n    use std::io::Write;\n    let mut out = String::new();\n    \
                 for n in [{}] {{\n        out.push_str(&format!(\"{{}}\\n\", sg(n)));\n    }}\n    \
                 std::io::stdout().write_all(out.as_bytes()).unwrap();\n{}}}\n",
                list("i64"),
                fails_at.map_or(String::new(), |n| format!(
                    "    sg({n});\n    println!(\"no failure\");\n"
                )),
            ),
            Lang::Java => format!(
                "public class Main {{\n    public static void main(String[] args) {{\n        \
                 long[] ns = {{{}}};\n        StringBuilder out = new StringBuilder();\n        \
                 for (long n : ns) out.append(Sg.sg(n)).append('\\n');\n        \
                 System.out.print(out);\n        System.out.flush();\n{}    }}\n}}\n\n{snippet}",
                list("L"),
                fails_at.map_or(String::new(), |n| format!(
                    "        Sg.sg({n}L);\n        System.out.println(\"no failure\");\n"
                )),
            ),
        }
    }

    /// Compiles (where needed) and runs `source`; `None` if the toolchain is missing.
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
            let Ok(compiled) = compiled else {
                println!("note: skipping the {lang} test: compiler not found");
                return None;
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
            Err(_) => {
                println!("note: skipping the {lang} test: interpreter not found");
                None
            }
        }
    }

    fn check_language(lang: Lang) {
        let dir = tempfile::tempdir().unwrap();
        for case in cases() {
            let code = snippet(lang, &case);
            let Some(output) = run(lang, dir.path(), &harness(lang, &case, &code)) else {
                return;
            };
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            let mut lines = stdout.lines();
            for &n in &case.printed {
                let line = lines.next().unwrap_or_else(|| {
                    panic!(
                        "{lang}/{}: no output for n = {n}; stderr:\n{stderr}",
                        case.name
                    )
                });
                assert_eq!(
                    line.parse::<u64>().ok(),
                    Some(case.expected(n)),
                    "{lang}/{}: sg({n}) printed `{line}`",
                    case.name
                );
            }
            match case.fails_at {
                Some((n, message)) if !(lang == Lang::Python && case.python_does_not_fail) => {
                    let context = format!("{lang}/{}: sg({n})", case.name);
                    assert_fails_with(&output, message, &context);
                    assert_eq!(lines.next(), None, "{context} returned");
                }
                _ => assert!(
                    output.status.success(),
                    "{lang}/{} failed:\n{stderr}",
                    case.name
                ),
            }
        }
    }

    test_each_language!(check_language:
        generated_cpp_reproduces_the_tables => Cpp,
        generated_python_reproduces_the_tables => Python,
        generated_rust_reproduces_the_tables => Rust,
        generated_java_reproduces_the_tables => Java,
    );

    #[test]
    fn the_naive_dawsons_kayles_has_the_known_period() {
        // OEIS A002187 starts 0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3.
        let values = dawsons_kayles(400);
        assert_eq!(
            values[..20],
            [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3]
        );
        let pure = Periodicity {
            preperiod: 53,
            period: 34,
            saltus: 0,
        };
        assert!(check_periodicity(&SgTable::from_values(&values), &pure).is_ok());
        // One less preperiod is contradicted (G(52) ≠ G(86)), so the test tables are exact.
        let early = Periodicity {
            preperiod: 52,
            ..pure
        };
        assert!(check_periodicity(&SgTable::from_values(&values), &early).is_err());
    }

    #[test]
    fn header_says_what_the_table_is_and_how_it_was_obtained() {
        let table = SgTable::from_values(&dawsons_kayles(100));
        let periodicity = Some(Periodicity {
            preperiod: 53,
            period: 34,
            saltus: 0,
        });
        let proved = CodeSpec {
            game: "Dawson's Kayles",
            periodicity,
            proved: true,
            reason: "octal periodicity theorem",
        };
        let code = generate(Lang::Python, &table, &proved).unwrap();
        assert!(
            code.starts_with("# Sprague-Grundy values G(n) of Dawson's Kayles.\n"),
            "{code}"
        );
        assert!(
            code.contains("# Periodicity proved: octal periodicity theorem\n"),
            "{code}"
        );
        assert!(
            code.contains("preperiod n0 = 53, period p = 34, saltus s = 0"),
            "{code}"
        );
        let observed = CodeSpec {
            proved: false,
            reason: "",
            ..proved
        };
        let code = generate(Lang::Cpp, &table, &observed).unwrap();
        assert!(
            code.contains("// Periodicity observed, NOT proved.\n"),
            "{code}"
        );
        // Wrapped: no line is much longer than the wrap width.
        assert!(code.lines().all(|line| line.len() <= 120), "{code}");
    }

    #[test]
    fn bad_periodicities_are_refused_with_a_reason() {
        let table = SgTable::from_values(&[0, 1, 0, 1, 0, 1]);
        let spec = |preperiod, period, saltus| CodeSpec {
            game: "test",
            periodicity: Some(Periodicity {
                preperiod,
                period,
                saltus,
            }),
            ..CodeSpec::default()
        };
        let message = |spec: CodeSpec| generate(Lang::Rust, &table, &spec).unwrap_err().to_string();
        assert!(message(spec(0, 0, 0)).contains("at least 1"));
        assert!(message(spec(0, 2, -1)).contains("negative"));
        assert!(message(spec(4, 4, 0)).contains("holds only 6 values"));
        assert!(message(spec(0, 3, 0)).contains("contradicts"));
        assert!(message(spec(0, 2, i64::MAX)).contains("contradicts"));
        assert!(generate(Lang::Rust, &table, &spec(0, 2, 0)).is_ok());
        let empty = generate(Lang::Rust, &SgTable::new(), &CodeSpec::default());
        assert!(matches!(empty, Err(ExportError::EmptyTable)));
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
pub fn generate_box(lang: Lang, table: &BoxTable, game: &str) -> Result<String, ExportError> {
    let model = BoxModel::new(table, game);
    let mut code = String::new();
    match lang {
        Lang::Cpp => cpp_box(&mut code, &model),
        Lang::Python => python_box(&mut code, &model),
        Lang::Rust => rust_box(&mut code, &model),
        Lang::Java => java_box(&mut code, &model),
    }
    Ok(code)
}

/// Words that cannot name a parameter in at least one target language (or would shadow a
/// name the snippet uses).
const RESERVED: &[&str] = &[
    "False",
    "None",
    "SG_TABLE",
    "TABLE",
    "True",
    "_SG_TABLE",
    "abstract",
    "and",
    "as",
    "assert",
    "async",
    "auto",
    "await",
    "bool",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "crate",
    "def",
    "default",
    "del",
    "delete",
    "do",
    "double",
    "dyn",
    "elif",
    "else",
    "enum",
    "except",
    "extends",
    "extern",
    "false",
    "final",
    "finally",
    "float",
    "fn",
    "for",
    "from",
    "global",
    "goto",
    "if",
    "impl",
    "import",
    "in",
    "inline",
    "instanceof",
    "int",
    "interface",
    "is",
    "lambda",
    "let",
    "long",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "native",
    "new",
    "nonlocal",
    "not",
    "null",
    "or",
    "package",
    "pass",
    "private",
    "protected",
    "pub",
    "public",
    "raise",
    "ref",
    "return",
    "self",
    "sg",
    "short",
    "signed",
    "static",
    "std",
    "struct",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "trait",
    "true",
    "try",
    "type",
    "typedef",
    "union",
    "unsafe",
    "unsigned",
    "use",
    "var",
    "void",
    "volatile",
    "where",
    "while",
    "with",
    "yield",
];

/// The box, its parameter names and the shared [`Model`] (header and values).
struct BoxModel {
    model: Model,
    parameters: Vec<String>,
    extents: Vec<u64>,
}

impl BoxModel {
    fn new(table: &BoxTable, game: &str) -> Self {
        let names = table.coordinates();
        let usable = |name: &str| {
            let mut chars = name.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !RESERVED.contains(&name)
        };
        let distinct = names
            .iter()
            .enumerate()
            .all(|(i, n)| !names[..i].contains(n));
        let parameters: Vec<String> = if distinct && names.iter().all(|n| usable(n)) {
            names.to_vec()
        } else {
            (0..names.len()).map(|i| format!("c{i}")).collect()
        };
        let game = match one_line(game) {
            name if name.is_empty() => "this game".to_string(),
            name => name,
        };
        let mut box_model = BoxModel {
            model: Model {
                values: table.values().to_vec(),
                periodicity: None,
                header: Vec::new(),
                game,
            },
            parameters,
            extents: table.extents().to_vec(),
        };
        box_model.model.header = vec![
            format!(
                "Sprague-Grundy values G({}) of {} for {}.",
                box_model.parameters.join(", "),
                box_model.model.game,
                box_model.bounds()
            ),
            format!(
                "The table holds them row-major: G({}) = T[{}].",
                box_model.parameters.join(", "),
                box_model.index_expr()
            ),
            "Outside the box nothing is known: sg fails with an error naming the position."
                .to_string(),
            "Generated by sgscope.".to_string(),
        ];
        box_model
    }

    /// `each(parameter, extent)` for every coordinate, joined by `separator`.
    fn joined(&self, separator: &str, each: impl Fn(&str, u64) -> String) -> String {
        let parts: Vec<String> = self
            .parameters
            .iter()
            .zip(&self.extents)
            .map(|(name, &extent)| each(name, extent))
            .collect();
        parts.join(separator)
    }

    /// `0 <= x <= 30, 0 <= y <= 30`: the box in words every language's strings can hold.
    fn bounds(&self) -> String {
        self.joined(", ", |name, extent| format!("0 <= {name} <= {extent}"))
    }

    /// The row-major index by Horner's rule, e.g. `x * 31 + y`.
    fn index_expr(&self) -> String {
        let mut expr = self.parameters[0].clone();
        for (name, extent) in self.parameters.iter().zip(&self.extents).skip(1) {
            expr = if expr.contains('+') {
                format!("({expr}) * {} + {name}", extent + 1)
            } else {
                format!("{expr} * {} + {name}", extent + 1)
            };
        }
        expr
    }

    /// `x < 0 || x > 30 || y < 0 || y > 30`, for the C-like languages.
    fn outside_condition(&self) -> String {
        self.joined(" || ", |name, extent| {
            format!("{name} < 0 || {name} > {extent}")
        })
    }

    /// `"sg: (" + x + ", " + y + ") is outside …"` in a language whose strings join with `+`
    /// and whose numbers become text with `to_text`.
    fn outside_message(&self, to_text: impl Fn(&str) -> String) -> String {
        format!(
            "\"sg: (\" + {} + \") is outside the box {}\"",
            self.joined(" + \", \" + ", |name, _| to_text(name)),
            self.bounds()
        )
    }

    /// `{x}, {y}`: the position inside a Python f-string or a Rust format string.
    fn interpolated(&self) -> String {
        self.joined(", ", |name, _| format!("{{{name}}}"))
    }
}

fn cpp_box(out: &mut String, boxed: &BoxModel) {
    cpp_preamble(out, &boxed.model);
    c_like_box(out, boxed, &CPP);
}

/// The function `sg(x, y, …)` of [`generate_box`] in C++ or Java, after the preamble.
fn c_like_box(out: &mut String, boxed: &BoxModel, c: &CLike) {
    let doc = format!(
        "G({}) of {}; throws {} outside {}.",
        boxed.parameters.join(", "),
        boxed.model.game,
        c.outside,
        boxed.bounds()
    );
    let _ = writeln!(out, "{}", (c.doc)(&doc));
    let _ = writeln!(
        out,
        "{}{}) {{",
        c.signature,
        boxed.joined(", ", |p, _| format!("{} {p}", c.int))
    );
    let _ = writeln!(
        out,
        "{}if ({}) {}{}({});",
        c.indent,
        boxed.outside_condition(),
        c.throw,
        c.outside,
        boxed.outside_message(c.to_text)
    );
    let _ = writeln!(
        out,
        "{}return {};",
        c.indent,
        (c.lookup)(&boxed.index_expr())
    );
    out.push_str(c.close);
}

fn python_box(out: &mut String, boxed: &BoxModel) {
    python_preamble(out, &boxed.model);
    let parameters = boxed.joined(", ", |p, _| format!("{p}: int"));
    let _ = writeln!(out, "def sg({parameters}) -> int:");
    let _ = writeln!(
        out,
        "    \"\"\"G({}) of {}; raises IndexError outside {}.\"\"\"",
        boxed.parameters.join(", "),
        boxed.model.game.replace(['"', '\\'], " "),
        boxed.bounds()
    );
    let _ = writeln!(
        out,
        "    if not ({}):\n        raise IndexError(f\"sg: ({}) is outside the box {}\")",
        boxed.joined(" and ", |p, e| format!("0 <= {p} <= {e}")),
        boxed.interpolated(),
        boxed.bounds()
    );
    let _ = writeln!(out, "    return _SG_TABLE[{}]", boxed.index_expr());
}

fn rust_box(out: &mut String, boxed: &BoxModel) {
    rust_preamble(out, &boxed.model);
    let _ = writeln!(
        out,
        "/// G({}) of {}.\n///\n/// # Panics\n/// Outside {}.",
        boxed.parameters.join(", "),
        boxed.model.game,
        boxed.bounds()
    );
    let _ = writeln!(
        out,
        "pub fn sg({}) -> i64 {{",
        boxed.joined(", ", |p, _| format!("{p}: i64"))
    );
    let _ = writeln!(
        out,
        "    assert!(\n        {},\n        \"sg: ({}) is outside the box {}\"\n    );",
        boxed.joined(" && ", |p, e| format!("(0..={e}).contains(&{p})")),
        boxed.interpolated(),
        boxed.bounds()
    );
    let _ = writeln!(
        out,
        "    i64::from(SG_TABLE[({}) as usize])\n}}",
        boxed.index_expr()
    );
}

fn java_box(out: &mut String, boxed: &BoxModel) {
    java_preamble(out, &boxed.model);
    c_like_box(out, boxed, &JAVA);
}

#[cfg(test)]
mod box_tests {
    //! The generated box lookups are compiled and run: every position of the box must print
    //! its value, and a position outside must fail with a message naming it.

    use super::tests::{assert_fails_with, assert_no_main, run};
    use super::*;
    use crate::analysis::patterns::tests::wythoff;

    /// Prints `sg(p)` for every position of `table` row-major, then calls `sg(outside)`.
    fn harness(lang: Lang, table: &BoxTable, snippet: &str, outside: &[i64]) -> String {
        let calls: Vec<String> = table
            .iter()
            .map(|(position, _)| {
                let arguments: Vec<String> = position.iter().map(u64::to_string).collect();
                arguments.join(", ")
            })
            .collect();
        let outside: Vec<String> = outside.iter().map(i64::to_string).collect();
        let outside = outside.join(", ");
        let long = |list: &str, suffix: &str| {
            list.split(", ")
                .map(|a| format!("{a}{suffix}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match lang {
            Lang::Cpp => format!(
                "#include <cstdio>\n{snippet}\nint main() {{\n{}    std::fflush(stdout);\n    \
                 sg({});\n    std::printf(\"no failure\\n\");\n}}\n",
                calls
                    .iter()
                    .map(|c| format!("    std::printf(\"%lld\\n\", (long long) sg({}));\n", long(c, "LL")))
                    .collect::<String>(),
                long(&outside, "LL")
            ),
            Lang::Python => format!(
                "{snippet}\nimport sys\nfor p in [{}]:\n    print(sg(*p))\nsys.stdout.flush()\nsg({outside})\nprint('no failure')\n",
                calls.iter().map(|c| format!("({c},)")).collect::<Vec<_>>().join(", ")
            ),
            Lang::Rust => format!(
                "{snippet}\nfn main() {{\n{}    sg({});\n    println!(\"no failure\");\n}}\n",
                calls
                    .iter()
                    .map(|c| format!("    println!(\"{{}}\", sg({}));\n", long(c, "i64")))
                    .collect::<String>(),
                long(&outside, "i64")
            ),
            Lang::Java => format!(
                "public class Main {{\n    public static void main(String[] args) {{\n        \
                 StringBuilder out = new StringBuilder();\n{}        System.out.print(out);\n        \
                 System.out.flush();\n        Sg.sg({});\n        System.out.println(\"no failure\");\n    }}\n}}\n\n{snippet}",
                calls
                    .iter()
                    .map(|c| format!("        out.append(Sg.sg({})).append('\\n');\n", long(c, "L")))
                    .collect::<String>(),
                long(&outside, "L")
            ),
        }
    }

    fn check_language(lang: Lang) {
        let dir = tempfile::tempdir().unwrap();
        // Wythoff's game; three-heap Nim G = a ⊕ b ⊕ c (Bouton 1901) with coordinate names
        // that are keywords, so the parameters become c0, c1, c2.
        let three_heaps = BoxTable::from_fn(
            vec!["in".to_string(), "type".to_string(), "x y".to_string()],
            vec![3, 2, 4],
            |p| (p[0] ^ p[1] ^ p[2]) as u32,
        );
        let cases = [
            (
                wythoff(12),
                "Wythoff",
                vec![3, 13],
                "(3, 13) is outside the box 0 <= x <= 12, 0 <= y <= 12",
            ),
            (
                three_heaps,
                "Nim",
                vec![-1, 0, 0],
                "(-1, 0, 0) is outside the box 0 <= c0 <= 3",
            ),
        ];
        for (table, game, outside, message) in cases {
            let code = generate_box(lang, &table, game).unwrap();
            assert_no_main(lang, &code);
            let Some(output) = run(lang, dir.path(), &harness(lang, &table, &code, &outside))
            else {
                return;
            };
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            let printed: Vec<u32> = stdout.lines().map(|l| l.parse().unwrap()).collect();
            assert_eq!(printed, table.values(), "{lang}/{game}: stderr:\n{stderr}");
            assert_fails_with(&output, message, &format!("{lang}/{game}: sg outside"));
        }
    }

    test_each_language!(check_language:
        generated_cpp_box_lookup_reproduces_the_table => Cpp,
        generated_python_box_lookup_reproduces_the_table => Python,
        generated_rust_box_lookup_reproduces_the_table => Rust,
        generated_java_box_lookup_reproduces_the_table => Java,
    );

    #[test]
    fn header_and_index_name_the_coordinates() {
        let table = BoxTable::from_fn(
            vec!["n".to_string(), "limit".to_string(), "k".to_string()],
            vec![4, 5, 6],
            |p| p.iter().sum::<u64>() as u32,
        );
        let code = generate_box(Lang::Python, &table, "Fibonacci Nim").unwrap();
        assert!(
            code.starts_with(
                "# Sprague-Grundy values G(n, limit, k) of Fibonacci Nim for 0 <= n <= 4, \
                 0 <= limit <= 5, 0 <= k <= 6.\n# The table holds them row-major: \
                 G(n, limit, k) = T[(n * 6 + limit) * 7 + k].\n"
            ),
            "{code}"
        );
        assert!(code.contains("def sg(n: int, limit: int, k: int) -> int:"));
    }
}
