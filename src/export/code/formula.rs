//! `sg(n)` from a closed form of `G` found by [`crate::analysis::patterns::find_sequence`]
//! when the period detector found no period: `ctz(n)` / `v_p(n)` (the divisor game) and
//! `popcount(n)`, the forms that are not periodic. (Periodic forms, arithmetic or not, are
//! written by [`super::sequence`] from the detector's periodicity, proved where a theorem
//! applies.)
//!
//! Such a formula is observed on the computed table, never proved: the snippet extrapolates
//! it, as [`super::sequence`] extrapolates an observed period, and its header says
//! "observed, NOT proved" so that a reader knows how far to trust it.

use std::fmt::Write as _;

use super::{docstring, Lang, Snippet, Stored};
use crate::analysis::patterns::Formula;

/// Whether `formula` can be written as the body of `sg(n)` by this module.
pub(super) fn supported(formula: &Formula) -> bool {
    matches!(formula, Formula::Valuation { .. } | Formula::Popcount)
}

/// The formula's rule in ASCII, for a comment.
fn ascii_rule(formula: &Formula) -> String {
    match formula {
        Formula::Valuation { prime: 2, .. } => {
            "ctz(n), the number of trailing zero bits of n".to_string()
        }
        Formula::Valuation { prime, .. } => format!("v_{prime}(n), the exponent of {prime} in n"),
        Formula::Popcount => "popcount(n), the number of one bits of n".to_string(),
        _ => unreachable!("only supported formulas are written"),
    }
}

/// `G(0)` in a table, then the formula.
pub(super) struct FormulaSequence {
    table: Stored,
    formula: Formula,
}

impl FormulaSequence {
    /// `formula` observed on `G(0..=last)`; `reason` says how (may be empty).
    pub(super) fn new(formula: &Formula, last: usize, game: &str, reason: &str) -> Self {
        let mut about = vec![
            format!("T holds G(0); for n >= 1, G(n) = {}.", ascii_rule(formula)),
            format!(
                "Formula observed on G(0..={last}), NOT proved: sg(n) extrapolates it beyond n = {last}."
            ),
        ];
        let reason = super::one_line(reason);
        if !reason.is_empty() {
            about.push(format!("Source: {reason}"));
        }
        FormulaSequence {
            table: Stored::new(vec![formula.eval(&[0]) as u32], game, "n", "", about),
            formula: formula.clone(),
        }
    }
}

impl Snippet for FormulaSequence {
    fn table(&self) -> &Stored {
        &self.table
    }

    fn sg(&self, out: &mut String, lang: Lang) {
        let game = &self.table.game;
        let negative = lang.message("sg: n = {n} is negative");
        let body = match (&self.formula, lang) {
            (Formula::Valuation { prime: p, .. }, Lang::Cpp) => format!(
                "    std::int64_t m = n, v = 0;\n    while (m % {p} == 0) {{\n        m /= {p};\n        ++v;\n    }}\n    return v;\n"
            ),
            (Formula::Valuation { prime: p, .. }, Lang::Java) => format!(
                "        long m = n, v = 0;\n        while (m % {p} == 0) {{\n            m /= {p};\n            v++;\n        }}\n        return v;\n"
            ),
            (Formula::Valuation { prime: p, .. }, Lang::Rust) => format!(
                "    let (mut m, mut v) = (n, 0i64);\n    while m % {p} == 0 {{\n        m /= {p};\n        v += 1;\n    }}\n    v\n"
            ),
            (Formula::Valuation { prime: p, .. }, Lang::Python) => format!(
                "    m, v = n, 0\n    while m % {p} == 0:\n        m //= {p}\n        v += 1\n    return v\n"
            ),
            (_, Lang::Cpp) => "    return static_cast<std::int64_t>(__builtin_popcountll(static_cast<unsigned long long>(n)));\n".to_string(),
            (_, Lang::Java) => "        return Long.bitCount(n);\n".to_string(),
            (_, Lang::Rust) => "    i64::from(n.count_ones())\n".to_string(),
            (_, Lang::Python) => "    return bin(n).count(\"1\")\n".to_string(),
        };
        let _ = match lang {
            Lang::Cpp => write!(
                out,
                "// G(n) of {game}.\ninline std::int64_t sg(std::int64_t n) {{\n    if (n < 0) throw std::invalid_argument({negative});\n    if (n < 1) return SG_TABLE[n];\n{body}}}\n"
            ),
            Lang::Java => write!(
                out,
                "\n    /** G(n) of {}. */\n    static long sg(long n) {{\n        if (n < 0) throw new IllegalArgumentException({negative});\n        if (n < 1) return TABLE[(int) n];\n{body}    }}\n}}\n",
                game.replace("*/", "* /")
            ),
            Lang::Rust => write!(
                out,
                "/// G(n) of {game}.\npub fn sg(n: i64) -> i64 {{\n    assert!(n >= 0, {negative});\n    if n < 1 {{\n        return i64::from(SG_TABLE[n as usize]);\n    }}\n{body}}}\n"
            ),
            Lang::Python => write!(
                out,
                "def sg(n: int) -> int:\n    \"\"\"G(n) of {}.\"\"\"\n    if n < 0:\n        raise ValueError({negative})\n    if n < 1:\n        return _SG_TABLE[n]\n{body}",
                docstring(game)
            ),
        };
    }
}

#[cfg(test)]
mod tests {
    //! The formula snippets are compiled and run: they must print `Formula::eval` at every
    //! `n` tried, up to `2^63 − 1`, and fail for a negative `n`.

    use super::super::tests::{assert_fails_with, assert_no_main, run};
    use super::super::{test_each_language, write, Lang};
    use super::*;

    fn harness(lang: Lang, snippet: &str, ns: &[i64]) -> String {
        let list = |suffix: &str| {
            ns.iter()
                .map(|n| format!("{n}{suffix}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match lang {
            Lang::Cpp => format!(
                "#include <cstdio>\n{snippet}\nint main() {{\n    static const long long ns[] = {{{}}};\n    for (long long n : ns) std::printf(\"%lld\\n\", (long long) sg(n));\n    std::fflush(stdout);\n    sg(-1);\n}}\n",
                list("LL")
            ),
            Lang::Python => format!(
                "{snippet}\nimport sys\nsys.stdout.write(''.join(f'{{sg(n)}}\\n' for n in [{}]))\nsys.stdout.flush()\nsg(-1)\n",
                list("")
            ),
            Lang::Rust => format!(
                "{snippet}\nfn main() {{\n    for n in [{}] {{\n        println!(\"{{}}\", sg(n));\n    }}\n    sg(-1);\n}}\n",
                list("i64")
            ),
            Lang::Java => format!(
                "public class Main {{\n    public static void main(String[] args) {{\n        long[] ns = {{{}}};\n        StringBuilder out = new StringBuilder();\n        for (long n : ns) out.append(Sg.sg(n)).append('\\n');\n        System.out.print(out);\n        System.out.flush();\n        Sg.sg(-1L);\n    }}\n}}\n\n{snippet}",
                list("L")
            ),
        }
    }

    fn check_language(lang: Lang) {
        let dir = tempfile::tempdir().unwrap();
        let mut ns: Vec<i64> = (0..=300).collect();
        ns.extend([1_000_000_000_000_000_000, 1 << 62, 3i64.pow(39), i64::MAX]);
        // The divisor game (ctz), a v_3 and popcount.
        let formulas = [
            Formula::Valuation {
                prime: 2,
                at_zero: 0,
            },
            Formula::Valuation {
                prime: 3,
                at_zero: 7,
            },
            Formula::Popcount,
        ];
        for formula in formulas {
            let snippet = write(lang, &FormulaSequence::new(&formula, 300, "test", "test"));
            assert_no_main(lang, &snippet);
            assert!(snippet.contains("NOT proved"), "{snippet}");
            let Some(output) = run(lang, dir.path(), &harness(lang, &snippet, &ns)) else {
                return;
            };
            let printed: Vec<u64> = String::from_utf8_lossy(&output.stdout)
                .lines()
                .map(|l| l.parse().unwrap())
                .collect();
            let expected: Vec<u64> = ns.iter().map(|&n| formula.eval(&[n as u64])).collect();
            assert_eq!(printed, expected, "{lang}: {formula}\n{snippet}");
            assert_fails_with(&output, "is negative", &format!("{lang}: sg(-1)"));
        }
    }

    test_each_language!(check_language:
        generated_cpp_formula_reproduces_the_values => Cpp,
        generated_python_formula_reproduces_the_values => Python,
        generated_rust_formula_reproduces_the_values => Rust,
        generated_java_formula_reproduces_the_values => Java,
    );
}
