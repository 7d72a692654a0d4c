//! `sg(n)` for a heap game's sequence `G(0), G(1), …`: a function taking a 64-bit `n` and
//! returning `G(n)` as a 64-bit integer.
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
//! [`Sequence::write_sg`] decides which steps `sg` takes; each language spells them through
//! [`Steps`]: C++ and Java by their [`CLike`] spellings, Python and Rust by a [`Script`].

use std::fmt::Write as _;

use super::{docstring, CLike, CodeSpec, Lang, Snippet, Stored, CPP, JAVA};
use crate::analysis::Periodicity;
use crate::engine::SgTable;
use crate::export::ExportError;

/// Refuses a periodicity the generated formula would get wrong.
pub(super) fn check_periodicity(
    table: &SgTable,
    periodicity: &Periodicity,
) -> Result<(), ExportError> {
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
        return Err(ExportError::TableTooShort {
            head,
            preperiod,
            period,
            len: table.len(),
        });
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

/// The stored prefix of a sequence and the periodicity that extends it.
pub(super) struct Sequence {
    table: Stored,
    periodicity: Option<Periodicity>,
}

impl Sequence {
    pub(super) fn new(table: &SgTable, spec: &CodeSpec) -> Self {
        let reason = super::one_line(spec.reason);
        let mut about = Vec::new();
        let values: Vec<u32> = match spec.periodicity {
            Some(Periodicity {
                preperiod,
                period,
                saltus,
            }) => {
                about.push(format!(
                    "T holds G(0..{}); beyond it G(n) = T[n0 + (n - n0) % p] + ((n - n0) / p) * s",
                    preperiod + period
                ));
                about.push(format!(
                    "with preperiod n0 = {preperiod}, period p = {period}, saltus s = {saltus}."
                ));
                let status = if spec.proved {
                    "Periodicity proved"
                } else {
                    "Periodicity observed, NOT proved"
                };
                about.push(if reason.is_empty() {
                    format!("{status}.")
                } else {
                    format!("{status}: {reason}")
                });
                table.iter().take(preperiod + period).collect()
            }
            None => {
                let last = table.len() - 1;
                about.push(format!(
                    "T holds G(0..={last}) as computed; no proved period is known, so sg(n) fails for n > {last}."
                ));
                if !reason.is_empty() {
                    about.push(format!("Source: {reason}"));
                }
                table.to_vec()
            }
        };
        Sequence {
            table: Stored::new(values, spec.game, "n", "", about),
            periodicity: spec.periodicity,
        }
    }

    /// The function `sg(n)` of the module docs, in the language `steps` spells.
    fn write_sg(&self, out: &mut String, steps: &dyn Steps) {
        let len = self.table.len();
        steps.head(out, &self.table.game, len);
        match self.periodicity {
            None => steps.unknown(
                out,
                &format!(
                    "sg: n = {{n}} is beyond the table (0..={}) and no proved period is known",
                    len - 1
                ),
            ),
            Some(Periodicity {
                preperiod,
                period,
                saltus,
            }) => {
                steps.offset(out, &offset_expr(preperiod));
                let index = index_expr(preperiod, period);
                if saltus == 0 {
                    steps.periodic(out, &index);
                } else {
                    steps.arithmetic(out, &index, period, saltus);
                }
            }
        }
        steps.close(out);
    }
}

impl Snippet for Sequence {
    fn table(&self) -> &Stored {
        &self.table
    }

    fn sg(&self, out: &mut String, lang: Lang) {
        let steps: &dyn Steps = match lang {
            Lang::Cpp => &CPP,
            Lang::Python => &PYTHON,
            Lang::Rust => &RUST,
            Lang::Java => &JAVA,
        };
        self.write_sg(out, steps);
    }
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

/// A negative `n` has no value.
const NEGATIVE: &str = "sg: n = {n} is negative";
/// `G(n)` beyond 64 bits (a positive saltus, a huge `n`).
const OVERFLOW: &str = "sg: G({n}) does not fit in 64 bits";

/// How a language spells each step of `sg(n)`; messages are templates of
/// [`Lang::message`] whose `{n}` is `n`.
trait Steps {
    /// The doc comment and the signature of `sg`, the failure for a negative `n`, and the
    /// lookup for `n < len`.
    fn head(&self, out: &mut String, game: &str, len: usize);
    /// Fails with `message`: nothing is known beyond the table.
    fn unknown(&self, out: &mut String, message: &str);
    /// Declares `offset = expr`.
    fn offset(&self, out: &mut String, expr: &str);
    /// Returns `T[index]` (saltus 0).
    fn periodic(&self, out: &mut String, index: &str);
    /// Returns `T[index] + (offset / period) · saltus`, failing with [`OVERFLOW`] where that
    /// exceeds 64 bits.
    fn arithmetic(&self, out: &mut String, index: &str, period: usize, saltus: i64);
    /// What closes `sg`.
    fn close(&self, out: &mut String);
}

impl Steps for CLike {
    fn head(&self, out: &mut String, game: &str, len: usize) {
        let indent = self.indent;
        let _ = writeln!(out, "{}", (self.doc)(&format!("G(n) of {game}.")));
        let _ = writeln!(out, "{}{} n) {{", self.signature, self.int);
        let negative = self.throw(self.negative, NEGATIVE);
        let _ = writeln!(out, "{indent}if (n < 0) {negative};");
        let _ = writeln!(out, "{indent}if (n < {len}) return {};", self.lookup_n);
    }

    fn unknown(&self, out: &mut String, message: &str) {
        let _ = writeln!(out, "{}{};", self.indent, self.throw(self.outside, message));
    }

    fn offset(&self, out: &mut String, expr: &str) {
        let _ = writeln!(out, "{}{}offset = {expr};", self.indent, self.local);
    }

    fn periodic(&self, out: &mut String, index: &str) {
        self.base(out, index);
        let _ = writeln!(out, "{}return base;", self.indent);
    }

    fn arithmetic(&self, out: &mut String, index: &str, period: usize, saltus: i64) {
        let CLike {
            indent,
            local,
            literal_suffix: suffix,
            ..
        } = self;
        self.base(out, index);
        let _ = writeln!(out, "{indent}{local}cycles = offset / {period};");
        let _ = writeln!(
            out,
            "{indent}if (cycles > ({} - base) / {saltus}{suffix}) {};",
            self.int_max,
            self.throw(self.overflow, OVERFLOW)
        );
        let _ = writeln!(out, "{indent}return base + cycles * {saltus}{suffix};");
    }

    fn close(&self, out: &mut String) {
        out.push_str(self.close);
    }
}

impl CLike {
    /// Declares `base = T[index]`.
    fn base(&self, out: &mut String, index: &str) {
        let _ = writeln!(
            out,
            "{}{}base = {};",
            self.indent,
            self.local,
            self.lang.lookup(index)
        );
    }
}

/// The steps of `sg(n)` in Python or Rust, each written as a whole by one function.
struct Script {
    head: fn(game: &str, len: usize) -> String,
    unknown: fn(message: &str) -> String,
    offset: fn(expr: &str) -> String,
    periodic: fn(index: &str) -> String,
    arithmetic: fn(index: &str, period: usize, saltus: i64) -> String,
    close: &'static str,
}

/// Python integers are unbounded: no overflow to check.
const PYTHON: Script = Script {
    head: |game, len| {
        format!(
            "def sg(n: int) -> int:\n    \"\"\"G(n) of {}.\"\"\"\n    if n < 0:\n        raise \
             ValueError({})\n    if n < {len}:\n        return {}\n",
            docstring(game),
            Lang::Python.message(NEGATIVE),
            Lang::Python.lookup("n")
        )
    },
    unknown: |message| format!("    raise IndexError({})\n", Lang::Python.message(message)),
    offset: |expr| format!("    offset = {expr}\n"),
    periodic: |index| format!("    return {}\n", Lang::Python.lookup(index)),
    arithmetic: |index, period, saltus| {
        format!(
            "    return {} + (offset // {period}) * {saltus}\n",
            Lang::Python.lookup(index)
        )
    },
    close: "",
};

const RUST: Script = Script {
    head: |game, len| {
        format!(
            "/// G(n) of {game}.\npub fn sg(n: i64) -> i64 {{\n    assert!(n >= 0, {});\n    \
             if n < {len} {{\n        return i64::from(SG_TABLE[n as usize]);\n    }}\n",
            Lang::Rust.message(NEGATIVE)
        )
    },
    unknown: |message| format!("    panic!({});\n", Lang::Rust.message(message)),
    offset: |expr| format!("    let offset = {expr};\n"),
    periodic: |index| format!("    {}\n", Lang::Rust.lookup(index)),
    arithmetic: |index, period, saltus| {
        format!(
            "    let base = {};\n    (offset / {period})\n        .checked_mul({saltus})\n        \
             .and_then(|rise| rise.checked_add(base))\n        .unwrap_or_else(|| panic!({}))\n",
            Lang::Rust.lookup(index),
            Lang::Rust.message(OVERFLOW)
        )
    },
    close: "}\n",
};

impl Steps for Script {
    fn head(&self, out: &mut String, game: &str, len: usize) {
        out.push_str(&(self.head)(game, len));
    }

    fn unknown(&self, out: &mut String, message: &str) {
        out.push_str(&(self.unknown)(message));
    }

    fn offset(&self, out: &mut String, expr: &str) {
        out.push_str(&(self.offset)(expr));
    }

    fn periodic(&self, out: &mut String, index: &str) {
        out.push_str(&(self.periodic)(index));
    }

    fn arithmetic(&self, out: &mut String, index: &str, period: usize, saltus: i64) {
        out.push_str(&(self.arithmetic)(index, period, saltus));
    }

    fn close(&self, out: &mut String) {
        out.push_str(self.close);
    }
}

#[cfg(test)]
mod tests {
    //! The generated code is compiled and run: for each table it must print exactly the values
    //! the table (or [`Periodicity::extrapolate`]) gives, and fail loudly where it must.

    use super::super::tests::{assert_fails_with, assert_no_main, run};
    use super::super::{generate_sequence, test_each_language, Lang};
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

    /// [`around_10_18`] and the two largest positions.
    fn up_to_i64_max() -> Vec<i64> {
        around_10_18()
            .into_iter()
            .chain([i64::MAX - 1, i64::MAX])
            .collect()
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
                printed: up_to_i64_max(),
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
                printed: up_to_i64_max(),
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
                printed: up_to_i64_max(),
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
            formula: None,
            ..CodeSpec::default()
        };
        let code = generate_sequence(lang, &case.table, &spec).unwrap();
        assert_no_main(lang, &code);
        code
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
            formula: None,
            ..CodeSpec::default()
        };
        let code = generate_sequence(Lang::Python, &table, &proved).unwrap();
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
        let code = generate_sequence(Lang::Cpp, &table, &observed).unwrap();
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
        let message = |spec: CodeSpec| {
            generate_sequence(Lang::Rust, &table, &spec)
                .unwrap_err()
                .to_string()
        };
        assert!(message(spec(0, 0, 0)).contains("at least 1"));
        assert!(message(spec(0, 2, -1)).contains("negative"));
        assert!(message(spec(4, 4, 0)).contains("holds only 6 values"));
        assert!(message(spec(0, 3, 0)).contains("contradicts"));
        assert!(message(spec(0, 2, i64::MAX)).contains("contradicts"));
        assert!(generate_sequence(Lang::Rust, &table, &spec(0, 2, 0)).is_ok());
        let empty = generate_sequence(Lang::Rust, &SgTable::new(), &CodeSpec::default());
        assert!(matches!(empty, Err(ExportError::EmptyTable)));
    }
}
