//! `sg(x, y)` from a closed form of `G` of two coordinates found by
//! [`crate::analysis::patterns::find_box`] and checked on every position of the computed box
//! it holds on: `(c₀ + c₁x + c₂y + c₃xy) mod k`, `f(x) ⊕ g(y)`, `f(x) OR g(y)`, `x AND y` and
//! the nim product `f(x) ⊗ g(y)`, with `f` and `g` one of the simple one-coordinate forms
//! (a constant, `n`, `n mod k`, `⌊n/k⌋`, `n ⊕ c`, `popcount(n)`, a short pure period).
//!
//! The table `T` holds only the row `x = 0` and the column `y = 0` of the box; when the
//! formula holds from 1 (the chocolate bar, whose zero row and column are no real bar), they
//! are the values the formula does not give, and beyond the box sg fails there. The nim
//! product is computed in unsigned 64-bit arithmetic by halves, `F = 2^32`, `2^16`, … with
//! `F ⊗ F = F ⊕ F/2` (Conway, *On Numbers and Games*, ch. 6), exactly as
//! [`crate::analysis::patterns::nim_product`]; a product past `2^63 − 1` fails rather than
//! wrap. As with the one-coordinate formulas ([`super::formula`]), the formula is observed on
//! the box, never proved: the header says "NOT proved".

use std::fmt::Write as _;

use super::boxed::Parameters;
use super::{docstring, CLike, Lang, Snippet, Stored, CPP, JAVA};
use crate::analysis::patterns::formula::BitOp;
use crate::analysis::patterns::Formula;
use crate::engine::boxtable::BoxTable;

/// Whether `part` (a one-coordinate formula inside a two-coordinate one) can be written as
/// an expression.
fn part_supported(part: &Formula) -> bool {
    match part {
        Formula::Constant { .. }
        | Formula::Identity
        | Formula::Modulo { .. }
        | Formula::Quotient { .. }
        | Formula::XorConstant { .. }
        | Formula::Popcount => true,
        Formula::Periodic { prefix, cycle } => prefix.is_empty() && !cycle.is_empty(),
        _ => false,
    }
}

/// Whether `formula` (of two coordinates) can be written as the body of `sg(x, y)`.
pub(super) fn supported(formula: &Formula) -> bool {
    match formula {
        Formula::Constant { .. } | Formula::PolynomialMod { .. } => true,
        Formula::Bitwise { left, right, .. } | Formula::NimProduct { left, right } => {
            part_supported(left) && part_supported(right)
        }
        _ => false,
    }
}

/// An integer literal of `lang` (64-bit in Java).
fn literal(value: u64, lang: Lang) -> String {
    match lang {
        Lang::Java => format!("{value}L"),
        _ => value.to_string(),
    }
}

/// The one-coordinate `part` at the variable `v`, a non-negative 64-bit expression.
fn part(formula: &Formula, v: &str, lang: Lang) -> String {
    let floor_div = if lang == Lang::Python { "//" } else { "/" };
    match formula {
        Formula::Constant { value } => literal(*value, lang),
        Formula::Identity => v.to_string(),
        Formula::Modulo { modulus } => format!("({v} % {modulus})"),
        Formula::Quotient { divisor } => format!("({v} {floor_div} {divisor})"),
        Formula::XorConstant { constant } => format!("({v} ^ {})", literal(*constant, lang)),
        Formula::Popcount => match lang {
            Lang::Cpp => format!(
                "static_cast<std::int64_t>(__builtin_popcountll(static_cast<unsigned long long>({v})))"
            ),
            Lang::Java => format!("((long) Long.bitCount({v}))"),
            Lang::Rust => format!("i64::from({v}.count_ones())"),
            Lang::Python => format!("bin({v}).count(\"1\")"),
        },
        Formula::Periodic { cycle, .. } => {
            let p = cycle.len();
            match lang {
                Lang::Python => {
                    let listed: Vec<String> = cycle.iter().map(u64::to_string).collect();
                    format!("({},)[{v} % {p}]", listed.join(", "))
                }
                Lang::Rust => {
                    let mut arms: Vec<String> = cycle[..p - 1]
                        .iter()
                        .enumerate()
                        .map(|(r, value)| format!("{r} => {value}"))
                        .collect();
                    arms.push(format!("_ => {}", cycle[p - 1]));
                    format!("(match {v} % {p} {{ {} }})", arms.join(", "))
                }
                Lang::Cpp | Lang::Java => {
                    let mut text = literal(cycle[p - 1], lang);
                    for (r, &value) in cycle[..p - 1].iter().enumerate().rev() {
                        text = format!("{v} % {p} == {r} ? {} : {text}", literal(value, lang));
                    }
                    format!("({text})")
                }
            }
        }
        _ => unreachable!("only supported parts are written"),
    }
}

/// The formula at `(x, y)` as one expression, or the two operands of a nim product.
enum Body {
    /// A non-negative 64-bit expression.
    Plain(String),
    /// `f(x) ⊗ g(y)`: the operands.
    NimProduct(String, String),
}

fn body(formula: &Formula, x: &str, y: &str, lang: Lang) -> Body {
    match formula {
        Formula::Constant { value } => Body::Plain(literal(*value, lang)),
        Formula::PolynomialMod {
            modulus: k,
            coefficients: [c0, c1, c2, c3],
        } => {
            let (a, b) = (format!("({x} % {k})"), format!("({y} % {k})"));
            let ab = format!("{a} * {b}");
            let terms: Vec<String> = [
                (*c0, "1"),
                (*c1, a.as_str()),
                (*c2, b.as_str()),
                (*c3, ab.as_str()),
            ]
            .into_iter()
            .filter(|&(c, _)| c != 0)
            .map(|(c, term)| match (c, term) {
                (c, "1") => c.to_string(),
                (1, term) => term.to_string(),
                (c, term) => format!("{c} * {term}"),
            })
            .collect();
            match terms.as_slice() {
                [] => Body::Plain(literal(0, lang)),
                terms => Body::Plain(format!("({}) % {k}", terms.join(" + "))),
            }
        }
        Formula::Bitwise { op, left, right } => {
            let symbol = match op {
                BitOp::Xor => "^",
                BitOp::Or => "|",
                BitOp::And => "&",
            };
            Body::Plain(format!(
                "{} {symbol} {}",
                part(left, x, lang),
                part(right, y, lang)
            ))
        }
        Formula::NimProduct { left, right } => {
            Body::NimProduct(part(left, x, lang), part(right, y, lang))
        }
        _ => unreachable!("only supported formulas are written"),
    }
}

/// The formula's rule in ASCII, for a comment.
fn ascii_rule(formula: &Formula, x: &str, y: &str) -> String {
    formula
        .rule(&[x, y])
        .replace('⊕', "XOR")
        .replace('⊗', "(x)")
        .replace('·', "*")
        .replace('−', "-")
        .replace('⌊', "floor(")
        .replace('⌋', ")")
        .replace('≡', "==")
}

/// The nim product helper of each language (module docs), before `sg`.
fn nim_helper(lang: Lang) -> &'static str {
    match lang {
        Lang::Cpp => "// The nim product of a and b below 2^bits (bits a power of two), by halves.\n\
inline std::uint64_t sg_nim_product(std::uint64_t a, std::uint64_t b, int bits) {\n    \
if (a < 2 || b < 2) return a * b;\n    \
const int half = bits / 2;\n    \
const std::uint64_t mask = (std::uint64_t(1) << half) - 1;\n    \
const std::uint64_t a1 = a >> half, a0 = a & mask, b1 = b >> half, b0 = b & mask;\n    \
const std::uint64_t high = sg_nim_product(a1, b1, half);\n    \
const std::uint64_t low = sg_nim_product(a0, b0, half);\n    \
const std::uint64_t cross = sg_nim_product(a1 ^ a0, b1 ^ b0, half);\n    \
return ((cross ^ low) << half) | (low ^ sg_nim_product(high, std::uint64_t(1) << (half - 1), half));\n}\n\n",
        Lang::Java => "\n    /** The nim product of a and b below 2^bits (unsigned; bits a power of two), by halves. */\n    \
private static long nimProduct(long a, long b, int bits) {\n        \
if (Long.compareUnsigned(a, 2L) < 0 || Long.compareUnsigned(b, 2L) < 0) return a * b;\n        \
int half = bits / 2;\n        \
long mask = (1L << half) - 1;\n        \
long a1 = a >>> half, a0 = a & mask, b1 = b >>> half, b0 = b & mask;\n        \
long high = nimProduct(a1, b1, half);\n        \
long low = nimProduct(a0, b0, half);\n        \
long cross = nimProduct(a1 ^ a0, b1 ^ b0, half);\n        \
return ((cross ^ low) << half) | (low ^ nimProduct(high, 1L << (half - 1), half));\n    }\n",
        Lang::Rust => "/// The nim product of `a` and `b` below `2^bits` (`bits` a power of two), by halves.\n\
fn nim_product(a: u64, b: u64, bits: u32) -> u64 {\n    \
if a < 2 || b < 2 {\n        return a * b;\n    }\n    \
let half = bits / 2;\n    \
let mask = (1u64 << half) - 1;\n    \
let (a1, a0, b1, b0) = (a >> half, a & mask, b >> half, b & mask);\n    \
let high = nim_product(a1, b1, half);\n    \
let low = nim_product(a0, b0, half);\n    \
let cross = nim_product(a1 ^ a0, b1 ^ b0, half);\n    \
((cross ^ low) << half) | (low ^ nim_product(high, 1 << (half - 1), half))\n}\n\n",
        Lang::Python => "def _nim_product(a: int, b: int, bits: int) -> int:\n    \
\"\"\"The nim product of a and b below 2**bits (bits a power of two), by halves.\"\"\"\n    \
if a < 2 or b < 2:\n        return a * b\n    \
half = bits // 2\n    \
mask = (1 << half) - 1\n    \
a1, a0, b1, b0 = a >> half, a & mask, b >> half, b & mask\n    \
high = _nim_product(a1, b1, half)\n    \
low = _nim_product(a0, b0, half)\n    \
cross = _nim_product(a1 ^ a0, b1 ^ b0, half)\n    \
return ((cross ^ low) << half) | (low ^ _nim_product(high, 1 << (half - 1), half))\n\n\n",
    }
}

/// The row `x = 0` and the column `y = 0` in a table, then the formula.
pub(super) struct FormulaBox {
    table: Stored,
    formula: Formula,
    parameters: Parameters,
    /// The formula holds for `x, y ≥ from` (0 or 1).
    from: u64,
}

impl FormulaBox {
    /// `formula`, observed on every position of `table` with both coordinates `≥ from`.
    pub(super) fn new(table: &BoxTable, formula: &Formula, from: u64, game: &str) -> Self {
        let parameters = Parameters::new(table);
        let [x, y] = [&parameters.names[0], &parameters.names[1]];
        let [ex, ey] = [parameters.extents[0], parameters.extents[1]];
        let value = |p: [u64; 2]| table.get(&p).expect("in the box");
        let mut values: Vec<u32> = (0..=ey).map(|v| value([0, v])).collect();
        values.extend((0..=ex).map(|v| value([v, 0])));
        let rule = ascii_rule(formula, x, y);
        let mut about = vec![
            format!("For {x} >= {from} and {y} >= {from}: G({x}, {y}) = {rule}."),
            format!(
                "T holds the row {x} = 0 (G(0, {y}) = T[{y}], {y} <= {ey}) and the column {y} = 0 \
                 (G({x}, 0) = T[{} + {x}], {x} <= {ex}) of the computed box.",
                ey + 1
            ),
            format!(
                "Formula observed on every position of the box {} with {x}, {y} >= {from}, NOT proved: \
                 sg extrapolates it to every {x}, {y} >= {from} up to 2^63 - 1.",
                parameters.bounds()
            ),
        ];
        if from > 0 {
            about.push(format!(
                "Beyond the box, {x} = 0 or {y} = 0 is not known: sg fails there."
            ));
        }
        FormulaBox {
            table: Stored::new(values, game, &parameters.position(), "", about),
            formula: formula.clone(),
            parameters,
            from,
        }
    }
}

impl Snippet for FormulaBox {
    fn table(&self) -> &Stored {
        &self.table
    }

    fn sg(&self, out: &mut String, lang: Lang) {
        let [x, y] = [
            self.parameters.names[0].as_str(),
            self.parameters.names[1].as_str(),
        ];
        let [ex, ey] = [self.parameters.extents[0], self.parameters.extents[1]];
        let game = &self.table.game;
        let negative = format!("sg: ({{{x}}}, {{{y}}}) has a negative coordinate");
        let off = format!(
            "sg: ({{{x}}}, {{{y}}}) is outside the box {} and off the formula's {x}, {y} >= 1",
            self.parameters.bounds()
        );
        let too_large = format!("sg: G({{{x}}}, {{{y}}}) is beyond 2^63 - 1");
        let body = body(&self.formula, x, y, lang);
        let nim = matches!(body, Body::NimProduct(..));
        // A bare name needs no parentheses (Rust warns about them).
        let row = match lang {
            Lang::Rust => format!("i64::from(SG_TABLE[{y} as usize])"),
            _ => lang.lookup(y),
        };
        let column = lang.lookup(&format!("{} + {x}", ey + 1));
        let from = self.from;
        let edges = if from > 0 {
            format!("; fails for {x} = 0 or {y} = 0 beyond the box")
        } else {
            String::new()
        };
        let result = |c: Option<&CLike>| -> String {
            let indent = c.map_or("    ", |c| c.indent);
            match (&body, lang) {
                (Body::Plain(e), Lang::Rust) => format!("{indent}{e}\n"),
                (Body::Plain(e), Lang::Python) => format!("{indent}return {e}\n"),
                (Body::Plain(e), _) => format!("{indent}return {e};\n"),
                (Body::NimProduct(f, g), Lang::Cpp) => format!(
                    "{indent}const std::uint64_t v = sg_nim_product(static_cast<std::uint64_t>({f}), static_cast<std::uint64_t>({g}), 64);\n\
                     {indent}if (v > static_cast<std::uint64_t>(INT64_MAX)) {};\n\
                     {indent}return static_cast<std::int64_t>(v);\n",
                    CPP.throw(CPP.overflow, &too_large)
                ),
                (Body::NimProduct(f, g), Lang::Java) => format!(
                    "{indent}long v = nimProduct({f}, {g}, 64);\n{indent}if (v < 0) {};\n{indent}return v;\n",
                    JAVA.throw(JAVA.overflow, &too_large)
                ),
                (Body::NimProduct(f, g), Lang::Rust) => format!(
                    "{indent}let v = nim_product({f} as u64, {g} as u64, 64);\n\
                     {indent}i64::try_from(v).unwrap_or_else(|_| panic!({}))\n",
                    lang.message(&too_large)
                ),
                (Body::NimProduct(f, g), Lang::Python) => format!(
                    "{indent}v = _nim_product({f}, {g}, 64)\n{indent}if v > 2**63 - 1:\n\
                     {indent}    raise OverflowError({})\n{indent}return v\n",
                    lang.message(&too_large)
                ),
            }
        };
        let c_like = |c: &CLike| {
            let indent = c.indent;
            let mut text = String::new();
            if nim {
                text.push_str(nim_helper(lang));
            }
            let _ = write!(
                text,
                "{}\n{}{} {x}, {} {y}) {{\n\
                 {indent}if ({x} < 0 || {y} < 0) {};\n\
                 {indent}if ({x} == 0 && {y} <= {ey}) return {row};\n\
                 {indent}if ({y} == 0 && {x} <= {ex}) return {column};\n",
                (c.doc)(&format!(
                    "G({x}, {y}) of {game}; throws {} for a negative coordinate{edges}, {} past 2^63 - 1.",
                    c.negative, c.overflow
                )),
                c.signature,
                c.int,
                c.int,
                c.throw(c.negative, &negative),
            );
            if from > 0 {
                let _ = writeln!(
                    text,
                    "{indent}if ({x} < {from} || {y} < {from}) {};",
                    c.throw(c.outside, &off)
                );
            }
            text.push_str(&result(Some(c)));
            text.push_str(c.close);
            text
        };
        let text = match lang {
            Lang::Cpp => c_like(&CPP),
            Lang::Java => c_like(&JAVA),
            Lang::Python => {
                let mut text = if nim {
                    nim_helper(lang).to_string()
                } else {
                    String::new()
                };
                let _ = write!(
                    text,
                    "def sg({x}: int, {y}: int) -> int:\n    \"\"\"G({x}, {y}) of {}; raises ValueError for a \
                     negative coordinate{edges}.\"\"\"\n    if {x} < 0 or {y} < 0:\n        raise ValueError({})\n    \
                     if {x} == 0 and {y} <= {ey}:\n        return {row}\n    \
                     if {y} == 0 and {x} <= {ex}:\n        return {column}\n",
                    docstring(game),
                    lang.message(&negative)
                );
                if from > 0 {
                    let _ = write!(
                        text,
                        "    if {x} < {from} or {y} < {from}:\n        raise IndexError({})\n",
                        lang.message(&off)
                    );
                }
                text.push_str(&result(None));
                text
            }
            Lang::Rust => {
                let mut text = if nim {
                    nim_helper(lang).to_string()
                } else {
                    String::new()
                };
                let _ = write!(
                    text,
                    "/// G({x}, {y}) of {game}.\n///\n/// # Panics\n/// For a negative coordinate{}, \
                     and past 2^63 - 1.\npub fn sg({x}: i64, {y}: i64) -> i64 {{\n    \
                     assert!({x} >= 0 && {y} >= 0, {});\n    \
                     if {x} == 0 && {y} <= {ey} {{\n        return {row};\n    }}\n    \
                     if {y} == 0 && {x} <= {ex} {{\n        return {column};\n    }}\n",
                    edges.replace("; fails for", ", for"),
                    lang.message(&negative)
                );
                if from > 0 {
                    let _ = writeln!(
                        text,
                        "    assert!({x} >= {from} && {y} >= {from}, {});",
                        lang.message(&off)
                    );
                }
                text.push_str(&result(None));
                text.push_str("}\n");
                text
            }
        };
        out.push_str(&text);
    }
}

#[cfg(test)]
mod tests {
    //! The two-coordinate formula snippets are compiled and run: on the box, beyond it (a
    //! larger box computed by the engine, and coordinates up to `2^63 − 1`) they must print
    //! the values, and fail for a negative coordinate, off the formula's range and past 64 bits.

    use super::super::tests::{assert_fails_with, assert_no_main, run};
    use super::super::{generate, test_each_language, CodeSpec, Lang};
    use super::*;
    use crate::analysis::patterns::{find_box, nim_product};
    use crate::engine::{multi, Table};

    /// Prints `sg(x, y)` for every pair, then calls `sg(fail)`.
    fn harness(lang: Lang, snippet: &str, pairs: &[[i64; 2]], fail: [i64; 2]) -> String {
        let list = |suffix: &str| {
            pairs
                .iter()
                .map(|[x, y]| format!("{{{x}{suffix}, {y}{suffix}}}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let [fx, fy] = fail;
        match lang {
            Lang::Cpp => format!(
                "#include <cstdio>\n{snippet}\nint main() {{\n    static const long long ps[][2] = {{{}}};\n    \
                 for (const auto& p : ps) std::printf(\"%lld\\n\", (long long) sg(p[0], p[1]));\n    \
                 std::fflush(stdout);\n    sg({fx}LL, {fy}LL);\n    std::printf(\"no failure\\n\");\n}}\n",
                list("LL")
            ),
            Lang::Python => format!(
                "{snippet}\nimport sys\nfor p in [{}]:\n    print(sg(*p))\nsys.stdout.flush()\nsg({fx}, {fy})\nprint('no failure')\n",
                pairs
                    .iter()
                    .map(|[x, y]| format!("({x}, {y})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Lang::Rust => format!(
                "{snippet}\nfn main() {{\n    for [x, y] in [{}] {{\n        println!(\"{{}}\", sg(x, y));\n    }}\n    \
                 sg({fx}, {fy});\n    println!(\"no failure\");\n}}\n",
                pairs
                    .iter()
                    .map(|[x, y]| format!("[{x}i64, {y}]"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Lang::Java => format!(
                "public class Main {{\n    public static void main(String[] args) {{\n        long[][] ps = {{{}}};\n        \
                 StringBuilder out = new StringBuilder();\n        for (long[] p : ps) out.append(Sg.sg(p[0], p[1])).append('\\n');\n        \
                 System.out.print(out);\n        System.out.flush();\n        Sg.sg({fx}L, {fy}L);\n        \
                 System.out.println(\"no failure\");\n    }}\n}}\n\n{snippet}",
                list("L")
            ),
        }
    }

    /// Coordinates far beyond any box, up to `2^63 − 1`.
    const FAR: [i64; 7] = [
        1_000_000_000_000_000_000,
        (1 << 62) + 12_345,
        i64::MAX,
        4_294_967_296,
        999_999_999_999,
        65_537,
        77,
    ];

    /// Every pair of `FAR` and of `near`, both coordinates at least `from`.
    fn far_pairs(near: &[i64], from: i64) -> Vec<[i64; 2]> {
        let all: Vec<i64> = FAR.iter().chain(near).copied().collect();
        let mut pairs = Vec::new();
        for &x in &all {
            for &y in &all {
                if x >= from && y >= from {
                    pairs.push([x, y]);
                }
            }
        }
        pairs
    }

    /// Runs the snippet of `formula` found on `small` at `pairs`; the printed values must be
    /// `expected`, and `sg(fail)` must fail with `message`.
    fn check(
        lang: Lang,
        dir: &std::path::Path,
        small: &BoxTable,
        pairs: &[[i64; 2]],
        expected: &[u64],
        fail: [i64; 2],
        message: &str,
    ) {
        let report = find_box(small).unwrap();
        let formula = report.formula.clone().expect("a formula on the small box");
        assert!(supported(&formula), "{formula}");
        let spec = CodeSpec {
            game: "test",
            box_formula: Some(&formula),
            formula_from: report.from,
            ..CodeSpec::default()
        };
        let snippet = generate(lang, &Table::Box(small.clone()), &spec).unwrap();
        assert_no_main(lang, &snippet);
        assert!(snippet.contains("NOT proved"), "{snippet}");
        assert!(!snippet.contains("outside the box 0 <= ") || report.from > 0);
        let Some(output) = run(lang, dir, &harness(lang, &snippet, pairs, fail)) else {
            return;
        };
        let printed: Vec<u64> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(printed, expected, "{lang}: {formula}\n{snippet}");
        assert_fails_with(&output, message, &format!("{lang}: {formula}: sg{fail:?}"));
    }

    fn chocolate(side: u64) -> BoxTable {
        let text = std::fs::read_to_string("rules/chocolate.sg").unwrap();
        let game =
            crate::rules::load(crate::rules::SourceFile::new("chocolate.sg", &text), &[]).unwrap();
        multi::compute_box(&game, &[side, side]).unwrap()
    }

    fn check_language(lang: Lang) {
        let dir = tempfile::tempdir().unwrap();
        // The chocolate bar, (ab − 1) mod 2 off the zero row and column: the code of a 12 × 12
        // box against the engine's 24 × 24 box, and beyond by the formula itself.
        let (small, large) = (chocolate(12), chocolate(24));
        // The zero row and column are known only inside the small box.
        let known = |p: &[u64]| p.iter().all(|&c| c >= 1) || p.iter().all(|&c| c <= 12);
        let (mut pairs, mut expected): (Vec<[i64; 2]>, Vec<u64>) = large
            .iter()
            .filter(|(p, _)| known(p))
            .map(|(p, v)| ([p[0] as i64, p[1] as i64], u64::from(v)))
            .unzip();
        for [x, y] in far_pairs(&[1, 2, 3], 1) {
            pairs.push([x, y]);
            expected.push((x as u64 % 2 * (y as u64 % 2) + 1) % 2);
        }
        check(
            lang,
            dir.path(),
            &small,
            &pairs,
            &expected,
            [0, 13],
            "(0, 13) is outside the box",
        );
        // Nim products of 64-bit operands (Conway): the products below 2^63 by the library's
        // nim_product (checked against the mex definition), and a product past 2^63 − 1 fails.
        let products = BoxTable::from_fn(vec!["x".into(), "y".into()], vec![15, 15], |p| {
            nim_product(p[0], p[1]) as u32
        });
        let pairs: Vec<[i64; 2]> = far_pairs(&[0, 1, 2, 3, 15, 16, 255, 256], 0)
            .into_iter()
            .filter(|&[x, y]| nim_product(x as u64, y as u64) <= i64::MAX as u64)
            .collect();
        assert!(pairs.len() > 150, "{}", pairs.len());
        let expected: Vec<u64> = pairs
            .iter()
            .map(|&[x, y]| nim_product(x as u64, y as u64))
            .collect();
        let beyond = far_pairs(&[77], 0)
            .into_iter()
            .find(|&[x, y]| nim_product(x as u64, y as u64) > i64::MAX as u64)
            .expect("a product past 2^63 − 1");
        check(
            lang,
            dir.path(),
            &products,
            &pairs,
            &expected,
            beyond,
            "is beyond 2^63 - 1",
        );
        // f(x) ⊕ g(y) with a short period and popcount, and (x mod 6) OR ⌊y/3⌋.
        let forms: [fn(u64, u64) -> u64; 2] = [
            |x, y| [1u64, 2, 0, 2, 3][x as usize % 5] ^ u64::from(y.count_ones()),
            |x, y| (x % 6) | (y / 3),
        ];
        for form in forms {
            let small = BoxTable::from_fn(vec!["x".into(), "y".into()], vec![40, 40], |p| {
                form(p[0], p[1]) as u32
            });
            let pairs = far_pairs(&[0, 1, 2, 6, 39, 41], 0);
            let expected: Vec<u64> = pairs
                .iter()
                .map(|&[x, y]| form(x as u64, y as u64))
                .collect();
            check(
                lang,
                dir.path(),
                &small,
                &pairs,
                &expected,
                [-1, 3],
                "(-1, 3) has a negative coordinate",
            );
        }
    }

    test_each_language!(check_language:
        generated_cpp_box_formula_reproduces_the_values => Cpp,
        generated_python_box_formula_reproduces_the_values => Python,
        generated_rust_box_formula_reproduces_the_values => Rust,
        generated_java_box_formula_reproduces_the_values => Java,
    );

    #[test]
    fn a_formula_the_box_contradicts_is_refused() {
        let small = chocolate(12);
        let wrong = Formula::PolynomialMod {
            modulus: 2,
            coefficients: [0, 0, 0, 1],
        };
        let spec = CodeSpec {
            game: "test",
            box_formula: Some(&wrong),
            formula_from: 1,
            ..CodeSpec::default()
        };
        assert!(generate(Lang::Python, &Table::Box(small), &spec).is_err());
    }
}
