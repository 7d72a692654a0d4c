//! `is_p(x, y, …)` and `first_player_wins(x, y, …)` for a position game whose box has a
//! P-position criterion ([`crate::analysis::criteria`]): a function to paste into a contest
//! solution, valid for every coordinate below 2^64 (2^63 in Java), with no table and no
//! floating point.
//!
//! The criterion is only observed on the box, so the header says so, and names the theorem it
//! matches when there is one (Bouton 1902, Moore 1910, Wythoff 1907, Whinihan 1963: theorems
//! about the named games, while sgscope has only seen that these rules agree with them on the
//! box).
//!
//! Every test is exact integer arithmetic:
//! * **Wythoff's pairs**: with `a = min(x, y)`, `k = |x − y|`, the position is P iff `k = 0 = a`
//!   or `a = ⌊kφ⌋ = k + ⌊k/φ⌋`, and `j = a − k = ⌊k/φ⌋` iff `j(j + k) < k² < (j + 1)(j + 1 + k)`
//!   (`k/φ` is the positive root of `t² + kt − k²`, irrational for `k > 0`, so no equality).
//!   Every product is below 2^128 for coordinates below 2^64, so 128-bit integers hold them
//!   (`unsigned __int128` in C++ (GCC, Clang), `u128` in Rust, `BigInteger` in Java); this
//!   avoids `isqrt(5k²)`, which needs 131 bits at `k` near 2^64.
//! * **Zeckendorf's smallest term**: greedy over the Fibonacci numbers below 2^64.
//! * **Moore's Nim_k**: the ones of every binary digit counted.
//! * **Residue classes**: a string of `'0'`/`'1'` indexed by the residues.

use std::fmt::Write as _;

use super::boxed::Parameters;
use super::{one_line, Lang};
use crate::analysis::criteria::{PCriterion, Threshold};
use crate::analysis::patterns::oned::OneDimPattern;
use crate::engine::boxtable::BoxTable;
use crate::engine::BoxShape;

/// The most residue classes (`m^d`) the snippet spells out as a string.
const MAX_CLASSES: u64 = 1 << 16;

/// Names the snippet uses for itself: a coordinate with one of them is renamed `c0`, `c1`, ….
const LOCALS: &[&str] = &[
    "lo",
    "hi",
    "k",
    "j",
    "bit",
    "ones",
    "is_p",
    "isP",
    "first_player_wins",
    "firstPlayerWins",
    "smallest_zeckendorf_term",
    "smallestZeckendorfTerm",
    "P_CLASSES",
    "sg_u128",
    "java",
    "Sg",
];

/// Whether [`write`] can spell `criterion` exactly for a box of `arity` coordinates.
pub(super) fn supported(criterion: &PCriterion, arity: usize) -> bool {
    match criterion {
        PCriterion::Xor { .. } | PCriterion::Moore { .. } => arity >= 1,
        PCriterion::Wythoff | PCriterion::Threshold { .. } => arity == 2,
        PCriterion::Residues { modulus, .. } => u32::try_from(arity)
            .is_ok_and(|d| modulus.checked_pow(d).is_some_and(|n| n <= MAX_CLASSES)),
        PCriterion::Line { rest, .. } => arity == 2 && supported(rest, arity),
        PCriterion::OneDim { .. } => arity == 1,
    }
}

/// The theorem a criterion matches, for the header: `(theorem, game)`.
fn theorem(criterion: &PCriterion, arity: usize) -> Option<(&'static str, String)> {
    match criterion {
        PCriterion::Xor { coordinates } if coordinates.len() == arity && arity >= 2 => {
            Some(("Bouton's theorem (1902)", format!("Nim on {arity} heaps")))
        }
        PCriterion::Moore { modulus } => Some((
            "Moore's theorem (1910)",
            format!("Nim_k with k = {} on {arity} heaps", modulus - 1),
        )),
        PCriterion::Wythoff => Some(("Wythoff's theorem (1907)", "Wythoff's game".to_string())),
        PCriterion::Threshold {
            threshold: Threshold::SmallestZeckendorfTerm,
            ..
        } => Some((
            "Whinihan's theorem (1963)",
            "Fibonacci Nim as (n, limit)".to_string(),
        )),
        PCriterion::Line { rest, .. } => theorem(rest, arity),
        _ => None,
    }
}

/// `text` in ASCII, for a header every compiler reads whatever its source encoding (`javac`
/// under an ASCII locale rejects other bytes even in comments).
fn ascii(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '⊕' => out.push('^'),
            '≥' => out.push_str(">="),
            '≤' => out.push_str("<="),
            '≠' => out.push_str("!="),
            '≡' => out.push_str("=="),
            // `kφ` reads `k*phi`.
            'φ' if out.ends_with(|p: char| p.is_ascii_alphanumeric()) => out.push_str("*phi"),
            'φ' => out.push_str("phi"),
            '²' => out.push_str("^2"),
            '⌊' => out.push_str("floor("),
            '⌋' => out.push(')'),
            '−' => out.push('-'),
            '·' => out.push('*'),
            c if c.is_ascii() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// The whole snippet: header comment, helpers, `is_p` and `first_player_wins`.
///
/// `criterion` must be [`supported`] and hold on every position of `table` (the caller checks
/// both).
pub(super) fn write(lang: Lang, table: &BoxTable, criterion: &PCriterion, game: &str) -> String {
    let mut parameters = Parameters::new(table);
    if parameters
        .names
        .iter()
        .any(|n| LOCALS.contains(&n.as_str()))
    {
        parameters.names = (0..parameters.names.len())
            .map(|i| format!("c{i}"))
            .collect();
    }
    let names = &parameters.names;
    let game = match one_line(game) {
        name if name.is_empty() => "this game".to_string(),
        name => name,
    };
    let arity = names.len();
    let position = names.join(", ");
    let positions = table.size();
    let p_positions = table.values().iter().filter(|&&v| v == 0).count();
    let (is_p, wins) = match lang {
        Lang::Java => ("isP", "firstPlayerWins"),
        _ => ("is_p", "first_player_wins"),
    };
    let range = match lang {
        Lang::Java => "0 <= coordinate < 2^63",
        _ => "0 <= coordinate < 2^64",
    };
    let mut header = vec![
        format!(
            "P-positions of {game}: {is_p}({position}) is true exactly when the player to move loses, \
             {wins}({position}) when the player to move wins ({range})."
        ),
        format!("Criterion: {}.", criterion.describe(names)),
        format!(
            "Observed on every position of the box {} ({positions} positions, {p_positions} \
             P-positions), NOT proved beyond it.",
            parameters.bounds()
        ),
    ];
    if let Some((theorem, named)) = theorem(criterion, arity) {
        header.push(format!(
            "It matches {theorem} for {named}; sgscope has not proved that these rules are that game."
        ));
    }
    if uses_wythoff(criterion) {
        header.push(
            "Exact integer arithmetic, no floating point: a = floor(k*phi) is tested as \
             j(j + k) < k^2 < (j + 1)(j + 1 + k) with j = a - k, every product below 2^128."
                .to_string(),
        );
    }
    header.push("Generated by sgscope.".to_string());

    let mut out = String::new();
    let marker = if lang == Lang::Python { "#" } else { "//" };
    for line in &header {
        let _ = writeln!(out, "{marker} {}", ascii(line));
    }
    let body = body(lang, criterion, names);
    let unused: Vec<&String> = names
        .iter()
        .enumerate()
        .filter(|(i, _)| !used(criterion, *i))
        .map(|(_, n)| n)
        .collect();
    let doc =
        format!("Whether ({position}) is a P-position of {game} (criterion observed, see above).");
    let wins_doc = format!("Whether the player to move at ({position}) wins: not {is_p}.");
    let classes = residue_string(criterion);
    let zeckendorf = uses_zeckendorf(criterion);
    match lang {
        Lang::Cpp => {
            out.push_str("#include <cstdint>\n\n");
            if uses_wythoff(criterion) {
                out.push_str("__extension__ typedef unsigned __int128 sg_u128;\n\n");
            }
            if zeckendorf {
                out.push_str(CPP_ZECKENDORF);
            }
            let params = join(names, |n| format!("std::uint64_t {n}"));
            let _ = writeln!(out, "// {}\ninline bool is_p({params}) {{", ascii(&doc));
            if let Some(classes) = &classes {
                let _ = writeln!(
                    out,
                    "    static const char P_CLASSES[] =\n{};",
                    wrapped_string(classes, "        ", "\n")
                );
            }
            for n in &unused {
                let _ = writeln!(out, "    (void) {n};");
            }
            push_body(&mut out, lang, &body);
            let _ = writeln!(
                out,
                "}}\n\n// {}\ninline bool first_player_wins({params}) {{\n    return !is_p({position});\n}}",
                ascii(&wins_doc)
            );
        }
        Lang::Rust => {
            if zeckendorf {
                out.push_str(RUST_ZECKENDORF);
            }
            let params = join(names, |n| format!("{n}: u64"));
            let _ = writeln!(out, "/// {}\npub fn is_p({params}) -> bool {{", ascii(&doc));
            if let Some(classes) = &classes {
                let _ = writeln!(
                    out,
                    "    const P_CLASSES: &[u8] = concat!(\n{}\n    )\n    .as_bytes();",
                    wrapped_string(classes, "        ", ",\n")
                );
            }
            if !unused.is_empty() {
                let listed = join(&unused, |n| n.to_string());
                let tuple = if unused.len() == 1 {
                    format!("{listed},")
                } else {
                    listed
                };
                let _ = writeln!(out, "    let _ = ({tuple}); // not used by the criterion");
            }
            push_body(&mut out, lang, &body);
            let _ = writeln!(
                out,
                "}}\n\n/// {}\npub fn first_player_wins({params}) -> bool {{\n    !is_p({position})\n}}",
                ascii(&wins_doc)
            );
        }
        Lang::Python => {
            if let Some(classes) = &classes {
                let _ = writeln!(
                    out,
                    "_P_CLASSES = (\n{}\n)\n",
                    wrapped_string(classes, "    ", "\n")
                );
            }
            if zeckendorf {
                out.push_str(PYTHON_ZECKENDORF);
            }
            let params = join(names, |n| format!("{n}: int"));
            let _ = writeln!(
                out,
                "def is_p({params}) -> bool:\n    \"\"\"{}\"\"\"\n    if not ({}):\n        \
                 raise ValueError(f\"is_p: ({}) needs 0 <= coordinate < 2**64\")",
                ascii(&doc).replace(['"', '\\'], " "),
                names
                    .iter()
                    .map(|n| format!("0 <= {n} < 1 << 64"))
                    .collect::<Vec<_>>()
                    .join(" and "),
                join(names, |n| format!("{{{n}}}"))
            );
            push_body(&mut out, lang, &body);
            let _ = writeln!(
                out,
                "\n\ndef first_player_wins({params}) -> bool:\n    \"\"\"{}\"\"\"\n    return not is_p({position})",
                ascii(&wins_doc)
            );
        }
        Lang::Java => {
            out.push_str("final class Sg {\n    private Sg() {}\n\n");
            if let Some(classes) = &classes {
                let _ = writeln!(
                    out,
                    "    private static final String P_CLASSES =\n{};\n",
                    wrapped_string(classes, "        ", " +\n")
                );
            }
            let params = join(names, |n| format!("long {n}"));
            let negative = names
                .iter()
                .map(|n| format!("{n} < 0"))
                .collect::<Vec<_>>()
                .join(" || ");
            let shown = names.join(" + \", \" + ");
            let _ = writeln!(
                out,
                "    /** {} */\n    static boolean isP({params}) {{\n        if ({negative}) {{\n            \
                 throw new IllegalArgumentException(\"isP: (\" + {shown} + \") needs coordinates >= 0\");\n        }}",
                ascii(&doc).replace("*/", "* /")
            );
            push_body(&mut out, lang, &body);
            let _ = writeln!(
                out,
                "    }}\n\n    /** {} */\n    static boolean firstPlayerWins({params}) {{\n        return !isP({position});\n    }}",
                ascii(&wins_doc).replace("is_p", "isP")
            );
            if zeckendorf {
                out.push_str(JAVA_ZECKENDORF);
            }
            out.push_str("}\n");
        }
    }
    out
}

/// `each` of every item, joined by `, `.
fn join<T>(items: &[T], each: impl Fn(&T) -> String) -> String {
    items.iter().map(each).collect::<Vec<_>>().join(", ")
}

/// `text` as string literals of at most 64 characters, one per line, each indented and
/// separated by `separator` (adjacent literals in C++ and Python, `concat!` arguments in
/// Rust, `+` in Java).
fn wrapped_string(text: &str, indent: &str, separator: &str) -> String {
    let lines: Vec<String> = text
        .as_bytes()
        .chunks(64)
        .map(|chunk| format!("{indent}\"{}\"", String::from_utf8_lossy(chunk)))
        .collect();
    lines.join(separator)
}

/// Whether the criterion reads coordinate `i`.
fn used(criterion: &PCriterion, i: usize) -> bool {
    match criterion {
        PCriterion::Xor { coordinates } => coordinates.contains(&i),
        PCriterion::Threshold {
            limit,
            threshold: Threshold::Constant(_),
            ..
        } => i == *limit,
        _ => true,
    }
}

fn uses_wythoff(criterion: &PCriterion) -> bool {
    match criterion {
        PCriterion::Wythoff => true,
        PCriterion::Line { rest, .. } => uses_wythoff(rest),
        _ => false,
    }
}

fn uses_zeckendorf(criterion: &PCriterion) -> bool {
    match criterion {
        PCriterion::Threshold {
            threshold: Threshold::SmallestZeckendorfTerm,
            ..
        }
        | PCriterion::OneDim {
            pattern: OneDimPattern::Fibonacci,
        } => true,
        PCriterion::Line { rest, .. } => uses_zeckendorf(rest),
        _ => false,
    }
}

/// The P/N status of every residue tuple, row-major, as `'1'`/`'0'`.
fn residue_string(criterion: &PCriterion) -> Option<String> {
    let PCriterion::Residues { modulus, residues } = criterion else {
        return None;
    };
    let arity = residues.first().map_or(0, Vec::len);
    let shape = BoxShape::new(&vec![modulus - 1; arity]);
    let mut classes = vec![b'0'; shape.len()];
    for tuple in residues {
        classes[shape.index(tuple).expect("a residue is below the modulus")] = b'1';
    }
    Some(String::from_utf8(classes).expect("ASCII"))
}

/// One statement of the body of `is_p`.
enum Stmt {
    /// `if cond: return value`.
    If(String, String),
    /// The last statement: `return value`.
    Return(String),
    /// Lines already in the target language (relative indentation of 4 spaces a level).
    Lines(Vec<String>),
}

/// Writes `body` into `is_p`, indented for `lang`.
fn push_body(out: &mut String, lang: Lang, body: &[Stmt]) {
    let indent = if lang == Lang::Java {
        "        "
    } else {
        "    "
    };
    for stmt in body {
        let lines = match stmt {
            Stmt::If(cond, value) => match lang {
                Lang::Python => vec![format!("if {cond}:"), format!("    return {value}")],
                Lang::Rust => vec![
                    format!("if {cond} {{"),
                    format!("    return {value};"),
                    "}".to_string(),
                ],
                Lang::Cpp | Lang::Java => vec![format!("if ({cond}) return {value};")],
            },
            Stmt::Return(value) => match lang {
                Lang::Python => vec![format!("return {value}")],
                Lang::Rust => vec![value.clone()],
                Lang::Cpp | Lang::Java => vec![format!("return {value};")],
            },
            Stmt::Lines(lines) => lines.clone(),
        };
        for line in lines {
            let _ = writeln!(out, "{indent}{line}");
        }
    }
}

/// `parts` joined by the language's `||`.
fn any(lang: Lang, parts: &[String]) -> String {
    parts.join(if lang == Lang::Python { " or " } else { " || " })
}

/// The language's `false`.
fn falsy(lang: Lang) -> String {
    (if lang == Lang::Python {
        "False"
    } else {
        "false"
    })
    .to_string()
}

/// An integer literal of a 64-bit coordinate's type (Java needs `L` past `int`).
fn literal(lang: Lang, n: u64) -> String {
    match lang {
        Lang::Java => format!("{n}L"),
        Lang::Cpp if n > u64::from(u32::MAX) => format!("{n}ULL"),
        _ => n.to_string(),
    }
}

/// The statements of `is_p` for `criterion`, its coordinates named `names`.
fn body(lang: Lang, criterion: &PCriterion, names: &[String]) -> Vec<Stmt> {
    let lit = |n: u64| literal(lang, n);
    match criterion {
        PCriterion::Xor { coordinates } => {
            let terms: Vec<&str> = coordinates.iter().map(|&i| names[i].as_str()).collect();
            let xor = if terms.len() == 1 {
                terms[0].to_string()
            } else {
                format!("({})", terms.join(" ^ "))
            };
            vec![Stmt::Return(format!("{xor} == 0"))]
        }
        PCriterion::Moore { modulus } => {
            let ones = |shift: &str| {
                names
                    .iter()
                    .map(|n| format!("(({n} {shift} bit) & 1)"))
                    .collect::<Vec<_>>()
                    .join(" + ")
            };
            vec![Stmt::Lines(match lang {
                Lang::Cpp => vec![
                    "for (int bit = 0; bit < 64; ++bit) {".to_string(),
                    format!("    const std::uint64_t ones = {};", ones(">>")),
                    format!("    if (ones % {modulus} != 0) return false;"),
                    "}".to_string(),
                    "return true;".to_string(),
                ],
                Lang::Java => vec![
                    "for (int bit = 0; bit < 64; ++bit) {".to_string(),
                    format!("    long ones = {};", ones(">>>")),
                    format!("    if (ones % {modulus} != 0) return false;"),
                    "}".to_string(),
                    "return true;".to_string(),
                ],
                Lang::Rust => vec![format!(
                    "(0..64).all(|bit| ({}) % {modulus} == 0)",
                    ones(">>")
                )],
                Lang::Python => vec![format!(
                    "return all(({}) % {modulus} == 0 for bit in range(64))",
                    ones(">>")
                )],
            })]
        }
        PCriterion::Wythoff => {
            let (x, y) = (&names[0], &names[1]);
            vec![Stmt::Lines(match lang {
                Lang::Cpp => vec![
                    format!("const std::uint64_t lo = {x} < {y} ? {x} : {y};"),
                    format!("const std::uint64_t k = ({x} < {y} ? {y} : {x}) - lo;"),
                    "if (k == 0) return lo == 0;".to_string(),
                    "if (lo < k) return false;  // floor(k*phi) >= k".to_string(),
                    "const sg_u128 j = lo - k, k2 = (sg_u128) k * k;".to_string(),
                    "return j * lo < k2 && k2 < (j + 1) * ((sg_u128) lo + 1);".to_string(),
                ],
                Lang::Rust => vec![
                    format!("let lo = {x}.min({y});"),
                    format!("let k = {x}.max({y}) - lo;"),
                    "if k == 0 {".to_string(),
                    "    return lo == 0;".to_string(),
                    "}".to_string(),
                    "if lo < k {".to_string(),
                    "    return false; // floor(k*phi) >= k".to_string(),
                    "}".to_string(),
                    "let (j, k2, lo) = (u128::from(lo - k), u128::from(k) * u128::from(k), u128::from(lo));".to_string(),
                    "j * lo < k2 && k2 < (j + 1) * (lo + 1)".to_string(),
                ],
                Lang::Python => vec![
                    format!("lo = min({x}, {y})"),
                    format!("k = max({x}, {y}) - lo"),
                    "if k == 0:".to_string(),
                    "    return lo == 0".to_string(),
                    "j = lo - k  # floor(k*phi) >= k: j < 0 is an N-position".to_string(),
                    "return j >= 0 and j * lo < k * k < (j + 1) * (lo + 1)".to_string(),
                ],
                Lang::Java => vec![
                    format!("long lo = Math.min({x}, {y}), k = Math.max({x}, {y}) - lo;"),
                    "if (k == 0) return lo == 0;".to_string(),
                    "if (lo < k) return false;  // floor(k*phi) >= k".to_string(),
                    "java.math.BigInteger j = java.math.BigInteger.valueOf(lo - k);".to_string(),
                    "java.math.BigInteger big = java.math.BigInteger.valueOf(lo);".to_string(),
                    "java.math.BigInteger k2 = java.math.BigInteger.valueOf(k).pow(2);".to_string(),
                    "java.math.BigInteger one = java.math.BigInteger.ONE;".to_string(),
                    "return j.multiply(big).compareTo(k2) < 0".to_string(),
                    "    && k2.compareTo(j.add(one).multiply(big.add(one))) < 0;".to_string(),
                ],
            })]
        }
        PCriterion::Threshold {
            value,
            limit,
            threshold,
        } => {
            let (x, y) = (&names[*value], &names[*limit]);
            let bound = match threshold {
                Threshold::Constant(c) => return vec![Stmt::Return(format!("{y} < {}", lit(*c)))],
                Threshold::SmallestZeckendorfTerm => match lang {
                    Lang::Java => format!("smallestZeckendorfTerm({x})"),
                    Lang::Python => format!("_smallest_zeckendorf_term({x})"),
                    _ => format!("smallest_zeckendorf_term({x})"),
                },
                Threshold::LowestSetBit => match lang {
                    Lang::Cpp => format!("({x} & (~{x} + 1))"),
                    Lang::Rust => format!("({x} & {x}.wrapping_neg())"),
                    Lang::Java => format!("Long.lowestOneBit({x})"),
                    Lang::Python => format!("({x} & -{x})"),
                },
            };
            vec![Stmt::Return(any(
                lang,
                &[format!("{x} == 0"), format!("{y} < {bound}")],
            ))]
        }
        PCriterion::Residues { modulus, residues } => {
            let arity = residues.first().map_or(names.len(), Vec::len);
            let mut index = format!("{} % {}", names[0], lit(*modulus));
            for name in &names[1..arity] {
                index = format!("({index}) * {} + {name} % {}", lit(*modulus), lit(*modulus));
            }
            vec![Stmt::Return(match lang {
                Lang::Cpp => format!("P_CLASSES[{index}] == '1'"),
                Lang::Rust => format!("P_CLASSES[({index}) as usize] == b'1'"),
                Lang::Java => format!("P_CLASSES.charAt((int) ({index})) == '1'"),
                Lang::Python => format!("_P_CLASSES[{index}] == \"1\""),
            })]
        }
        PCriterion::Line {
            coordinate,
            at,
            below,
            rest,
        } => {
            let (c, other) = (&names[*coordinate], &names[1 - coordinate]);
            let mut stmts = vec![Stmt::If(
                format!("{c} == {}", lit(*at)),
                format!("{other} < {}", lit(*below)),
            )];
            stmts.extend(body(lang, rest, names));
            stmts
        }
        PCriterion::OneDim { pattern } => {
            let n = &names[0];
            let among = |list: &[u64]| -> String {
                if list.is_empty() {
                    return falsy(lang);
                }
                any(
                    lang,
                    &list
                        .iter()
                        .map(|&e| format!("{n} == {}", lit(e)))
                        .collect::<Vec<_>>(),
                )
            };
            match pattern {
                OneDimPattern::ResidueClasses {
                    modulus,
                    residues,
                    from,
                    exceptions,
                } => {
                    let residue: Vec<String> = residues
                        .iter()
                        .map(|&r| format!("{n} % {} == {}", lit(*modulus), lit(r)))
                        .collect();
                    let mut stmts = Vec::new();
                    if *from > 0 {
                        stmts.push(Stmt::If(format!("{n} < {}", lit(*from)), among(exceptions)));
                    }
                    stmts.push(Stmt::Return(if residue.is_empty() {
                        falsy(lang)
                    } else {
                        any(lang, &residue)
                    }));
                    stmts
                }
                OneDimPattern::ArithmeticProgression {
                    start,
                    difference,
                    exceptions,
                } => {
                    let mut stmts = Vec::new();
                    if !exceptions.is_empty() {
                        let truthy = if lang == Lang::Python { "True" } else { "true" };
                        stmts.push(Stmt::If(among(exceptions), truthy.to_string()));
                    }
                    let and = if lang == Lang::Python {
                        " and "
                    } else {
                        " && "
                    };
                    stmts.push(Stmt::Return(if *difference == 0 {
                        format!("{n} == {}", lit(*start))
                    } else {
                        format!(
                            "{n} >= {s}{and}({n} - {s}) % {d} == 0",
                            s = lit(*start),
                            d = lit(*difference)
                        )
                    }));
                    stmts
                }
                OneDimPattern::Fibonacci => {
                    let term = match lang {
                        Lang::Java => format!("smallestZeckendorfTerm({n})"),
                        Lang::Python => format!("_smallest_zeckendorf_term({n})"),
                        _ => format!("smallest_zeckendorf_term({n})"),
                    };
                    // n is a Fibonacci number iff its Zeckendorf sum is n alone (0 gives 0).
                    vec![Stmt::Return(format!("{term} == {n}"))]
                }
                OneDimPattern::PowersOfTwo => vec![Stmt::Return(match lang {
                    Lang::Rust => format!("{n} & {n}.wrapping_sub(1) == 0"),
                    _ => format!("({n} & ({n} - 1)) == 0"),
                })],
                OneDimPattern::PowersOfTwoMinusOne => vec![Stmt::Return(match lang {
                    Lang::Rust => format!("{n} & {n}.wrapping_add(1) == 0"),
                    _ => format!("({n} & ({n} + 1)) == 0"),
                })],
            }
        }
    }
}

const CPP_ZECKENDORF: &str = "\
// The smallest term of n's Zeckendorf sum (greedy over the Fibonacci numbers 1, 2, 3, 5, ...
// below 2^64, largest first); 0 for n = 0.
inline std::uint64_t smallest_zeckendorf_term(std::uint64_t n) {
    std::uint64_t fib[92] = {1, 2};
    for (int i = 2; i < 92; ++i) fib[i] = fib[i - 1] + fib[i - 2];
    std::uint64_t smallest = 0;
    for (int i = 91; i >= 0 && n > 0; --i) {
        if (fib[i] <= n) {
            n -= fib[i];
            smallest = fib[i];
        }
    }
    return smallest;
}

";

const RUST_ZECKENDORF: &str = "\
/// The smallest term of n's Zeckendorf sum (greedy over the Fibonacci numbers 1, 2, 3, 5, ...
/// below 2^64, largest first); 0 for n = 0.
fn smallest_zeckendorf_term(mut n: u64) -> u64 {
    let mut fib = [1u64; 92];
    fib[1] = 2;
    for i in 2..92 {
        fib[i] = fib[i - 1] + fib[i - 2];
    }
    let mut smallest = 0;
    for &f in fib.iter().rev() {
        if f <= n {
            n -= f;
            smallest = f;
        }
    }
    smallest
}

";

const PYTHON_ZECKENDORF: &str = "\
def _smallest_zeckendorf_term(n: int) -> int:
    \"\"\"The smallest term of n's Zeckendorf sum (greedy over the Fibonacci numbers 1, 2, 3, 5, ..., largest first); 0 for n = 0.\"\"\"
    fib = [1, 2]
    while fib[-1] <= n:
        fib.append(fib[-1] + fib[-2])
    smallest = 0
    for f in reversed(fib):
        if f <= n:
            n -= f
            smallest = f
    return smallest


";

const JAVA_ZECKENDORF: &str = "
    /** The smallest term of n's Zeckendorf sum (greedy over the Fibonacci numbers 1, 2, 3, 5, ... below 2^63, largest first); 0 for n = 0. */
    private static long smallestZeckendorfTerm(long n) {
        long[] fib = new long[91];
        fib[0] = 1;
        fib[1] = 2;
        for (int i = 2; i < fib.length; ++i) fib[i] = fib[i - 1] + fib[i - 2];
        long smallest = 0;
        for (int i = fib.length - 1; i >= 0 && n > 0; --i) {
            if (fib[i] <= n) {
                n -= fib[i];
                smallest = fib[i];
            }
        }
        return smallest;
    }
";

#[cfg(test)]
mod tests {
    //! Every family the integration tests (`tests/codegen_criteria.rs`) do not reach, in one
    //! program per language (each snippet in its own namespace, module, dict or class), run on
    //! small and 10^18-sized positions and compared with [`PCriterion::is_p`].

    use super::super::test_each_language;
    use super::super::tests::{assert_no_main, run};
    use super::*;

    fn names(n: usize) -> Vec<String> {
        ["x", "y", "z"][..n].iter().map(|s| s.to_string()).collect()
    }

    /// The criteria, each with a small box of its arity.
    fn cases() -> Vec<(PCriterion, usize)> {
        let one = |pattern| (PCriterion::OneDim { pattern }, 1);
        vec![
            (
                PCriterion::Threshold {
                    value: 0,
                    limit: 1,
                    threshold: Threshold::LowestSetBit,
                },
                2,
            ),
            (
                PCriterion::Threshold {
                    value: 1,
                    limit: 0,
                    threshold: Threshold::Constant(3),
                },
                2,
            ),
            (
                PCriterion::Line {
                    coordinate: 0,
                    at: 0,
                    below: 2,
                    rest: Box::new(PCriterion::Xor {
                        coordinates: vec![0, 1],
                    }),
                },
                2,
            ),
            (
                PCriterion::Residues {
                    modulus: 3,
                    residues: vec![vec![0, 0, 0], vec![1, 2, 0], vec![2, 2, 2]],
                },
                3,
            ),
            (
                PCriterion::Xor {
                    coordinates: vec![1],
                },
                3,
            ),
            one(OneDimPattern::ResidueClasses {
                modulus: 5,
                residues: vec![0, 3],
                from: 4,
                exceptions: vec![1],
            }),
            one(OneDimPattern::ArithmeticProgression {
                start: 7,
                difference: 6,
                exceptions: vec![0, 2],
            }),
            one(OneDimPattern::Fibonacci),
            one(OneDimPattern::PowersOfTwo),
            one(OneDimPattern::PowersOfTwoMinusOne),
        ]
    }

    fn positions(arity: usize) -> Vec<Vec<u64>> {
        let mut singles: Vec<u64> = (0..40).collect();
        singles.extend([
            1 << 40,
            (1 << 40) - 1,
            (1 << 40) + 1,
            1_000_000_000_000_000_000,
            999_999_999_999_999_999,
            1_304_969_544_928_657, // a Fibonacci number
            1_304_969_544_928_658,
            3 << 58,
        ]);
        match arity {
            1 => singles.into_iter().map(|n| vec![n]).collect(),
            2 => singles
                .iter()
                .flat_map(|&x| singles.iter().step_by(4).map(move |&y| vec![x, y]))
                .collect(),
            _ => singles
                .iter()
                .flat_map(|&x| {
                    let s = &singles;
                    s.iter()
                        .step_by(8)
                        .flat_map(move |&y| s.iter().step_by(12).map(move |&z| vec![x, y, z]))
                })
                .collect(),
        }
    }

    fn check_language(lang: Lang) {
        let dir = tempfile::tempdir().unwrap();
        let mut program = String::new();
        let mut calls = String::new();
        let mut expected = String::new();
        let mut java_calls = String::new();
        if lang == Lang::Cpp {
            program.push_str("#include <cstdint>\n#include <cstdio>\n");
        }
        for (i, (criterion, arity)) in cases().into_iter().enumerate() {
            let table = BoxTable::from_fn(names(arity), vec![6; arity], |p| {
                u32::from(!criterion.is_p(p))
            });
            let code = write(lang, &table, &criterion, "a test");
            assert_no_main(lang, &code);
            for p in positions(arity) {
                let args: Vec<String> = p.iter().map(u64::to_string).collect();
                let (args, wins) = (args.join(", "), u8::from(!criterion.is_p(&p)));
                expected.push_str(&format!("{}{wins}\n", u8::from(criterion.is_p(&p))));
                calls.push_str(&match lang {
                    Lang::Cpp => format!(
                        "    std::printf(\"%d%d\\n\", (int) c{i}::is_p({a}), (int) c{i}::first_player_wins({a}));\n",
                        a = args.replace(", ", "ULL, ") + "ULL"
                    ),
                    Lang::Rust => format!(
                        "    println!(\"{{}}{{}}\", c{i}::is_p({args}) as u8, c{i}::first_player_wins({args}) as u8);\n"
                    ),
                    Lang::Java => format!(
                        "        out.append(Sg{i}.isP({a}) ? 1 : 0).append(Sg{i}.firstPlayerWins({a}) ? 1 : 0).append('\\n');\n",
                        a = args.replace(", ", "L, ") + "L"
                    ),
                    Lang::Python => format!(
                        "print(f\"{{int(c{i}['is_p']({args}))}}{{int(c{i}['first_player_wins']({args}))}}\")\n"
                    ),
                });
            }
            if lang == Lang::Java {
                // One method per snippet: a method's bytecode is limited to 64 KiB.
                program.push_str(&format!(
                    "final class Calls{i} {{\n    static void run(StringBuilder out) {{\n{calls}    }}\n}}\n\n"
                ));
                calls = format!("        Calls{i}.run(out);\n");
                java_calls.push_str(&calls);
                calls.clear();
            }
            match lang {
                Lang::Cpp => program.push_str(&format!("namespace c{i} {{\n{code}}}\n")),
                Lang::Rust => program.push_str(&format!("mod c{i} {{\n{code}}}\n")),
                Lang::Java => program.push_str(&code.replace("Sg", &format!("Sg{i}"))),
                Lang::Python => program.push_str(&format!("c{i} = {{}}\nexec({code:?}, c{i})\n")),
            }
        }
        let source = match lang {
            Lang::Cpp => format!("{program}int main() {{\n{calls}}}\n"),
            Lang::Rust => format!("{program}fn main() {{\n{calls}}}\n"),
            Lang::Java => format!(
                "public class Main {{\n    public static void main(String[] args) {{\n        \
                 StringBuilder out = new StringBuilder();\n{java_calls}        System.out.print(out);\n    }}\n}}\n\n{program}"
            ),
            Lang::Python => format!("{program}{calls}"),
        };
        let Some(output) = run(lang, dir.path(), &source) else {
            return;
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{lang}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        for (i, (got, want)) in stdout.lines().zip(expected.lines()).enumerate() {
            assert_eq!(got, want, "{lang}: call {i}\n{source}");
        }
        assert_eq!(stdout.lines().count(), expected.lines().count());
    }

    test_each_language!(check_language:
        generated_cpp_criteria_agree_with_is_p => Cpp,
        generated_python_criteria_agree_with_is_p => Python,
        generated_rust_criteria_agree_with_is_p => Rust,
        generated_java_criteria_agree_with_is_p => Java,
    );

    #[test]
    fn supported_families_and_the_header() {
        let wythoff = PCriterion::Wythoff;
        assert!(supported(&wythoff, 2) && !supported(&wythoff, 3));
        let many = PCriterion::Residues {
            modulus: 12,
            residues: vec![vec![0; 5]],
        };
        assert!(!supported(&many, 5), "12^5 classes are too many to spell");
        let table = BoxTable::from_fn(vec!["k".into(), "lo".into()], vec![4, 4], |p| {
            u32::from(p[0] != p[1])
        });
        let xor = PCriterion::Xor {
            coordinates: vec![0, 1],
        };
        let code = write(Lang::Python, &table, &xor, "Nim\non two heaps");
        // `k` and `lo` are names the snippet uses itself: the parameters are renamed.
        assert!(
            code.contains("def is_p(c0: int, c1: int) -> bool:"),
            "{code}"
        );
        assert!(code.starts_with(
            "# P-positions of Nim on two heaps: is_p(c0, c1) is true exactly when the player to move loses"
        ));
        assert!(code.contains(
            "# Observed on every position of the box 0 <= c0 <= 4, 0 <= c1 <= 4 (25 positions, 5 P-positions), NOT proved beyond it.\n\
             # It matches Bouton's theorem (1902) for Nim on 2 heaps; sgscope has not proved that these rules are that game.\n"
        ), "{code}");
        assert_eq!(ascii("⌊kφ⌋ ⊕ φ ≥ ≠ é"), "floor(k*phi) ^ phi >= != ?");
    }
}
