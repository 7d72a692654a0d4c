//! `sg(x, y, …)` for a position game's table over a box (see [`super::generate`]).

use super::{docstring, CLike, Lang, Snippet, Stored, CPP, JAVA};
use crate::engine::boxtable::BoxTable;

/// Words that cannot name a parameter in at least one target language (or would shadow a
/// name the snippet uses).
pub(super) const RESERVED: &[&str] = &[
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

/// The parameters of `sg`, one per coordinate, and the largest value of each in the box.
pub(super) struct Parameters {
    /// One name per coordinate.
    pub(super) names: Vec<String>,
    /// The largest value of each coordinate in the box.
    pub(super) extents: Vec<u64>,
}

/// The box's parameters and the stored table.
pub(super) struct BoxModel {
    table: Stored,
    parameters: Parameters,
}

impl BoxModel {
    pub(super) fn new(table: &BoxTable, game: &str) -> Self {
        let parameters = Parameters::new(table);
        let about = vec![
            format!(
                "The table holds them row-major: G({}) = T[{}].",
                parameters.position(),
                parameters.index_expr()
            ),
            "Outside the box nothing is known: sg fails with an error naming the position."
                .to_string(),
        ];
        BoxModel {
            table: Stored::new(
                table.values().to_vec(),
                game,
                &parameters.position(),
                &format!(" for {}", parameters.bounds()),
                about,
            ),
            parameters,
        }
    }
}

impl Parameters {
    /// The coordinates' names where every language accepts them, else `c0`, `c1`, ….
    pub(super) fn new(table: &BoxTable) -> Self {
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
        let names: Vec<String> = if distinct && names.iter().all(|n| usable(n)) {
            names.to_vec()
        } else {
            (0..names.len()).map(|i| format!("c{i}")).collect()
        };
        Parameters {
            names,
            extents: table.extents().to_vec(),
        }
    }

    /// `each(parameter, extent)` for every coordinate, joined by `separator`.
    fn joined(&self, separator: &str, each: impl Fn(&str, u64) -> String) -> String {
        let parts: Vec<String> = self
            .names
            .iter()
            .zip(&self.extents)
            .map(|(name, &extent)| each(name, extent))
            .collect();
        parts.join(separator)
    }

    /// `x, y`: the parameters.
    pub(super) fn position(&self) -> String {
        self.names.join(", ")
    }

    /// `0 <= x <= 30, 0 <= y <= 30`: the box in words every language's strings can hold.
    pub(super) fn bounds(&self) -> String {
        self.joined(", ", |name, extent| format!("0 <= {name} <= {extent}"))
    }

    /// The row-major index by Horner's rule, e.g. `x * 31 + y`.
    fn index_expr(&self) -> String {
        let mut expr = self.names[0].clone();
        for (name, extent) in self.names.iter().zip(&self.extents).skip(1) {
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

    /// The message for a position outside the box, `{x}` standing for the value of `x`.
    fn outside_message(&self) -> String {
        let position = self.joined(", ", |name, _| format!("{{{name}}}"));
        format!("sg: ({position}) is outside the box {}", self.bounds())
    }
}

impl Snippet for BoxModel {
    fn table(&self) -> &Stored {
        &self.table
    }

    fn sg(&self, out: &mut String, lang: Lang) {
        let parameters = &self.parameters;
        let position = parameters.position();
        let bounds = parameters.bounds();
        let outside = parameters.outside_message();
        let message = lang.message(&outside);
        let value = lang.lookup(&parameters.index_expr());
        let game = &self.table.game;
        let c_like = |c: &CLike| {
            let CLike { indent, .. } = c;
            format!(
                "{}\n{}{}) {{\n{indent}if ({}) {};\n{indent}return {value};\n{}",
                (c.doc)(&format!(
                    "G({position}) of {game}; throws {} outside {bounds}.",
                    c.outside
                )),
                c.signature,
                parameters.joined(", ", |p, _| format!("{} {p}", c.int)),
                parameters.outside_condition(),
                c.throw(c.outside, &outside),
                c.close
            )
        };
        out.push_str(&match lang {
            Lang::Cpp => c_like(&CPP),
            Lang::Python => format!(
                "def sg({}) -> int:\n    \"\"\"G({position}) of {}; raises IndexError outside \
                 {bounds}.\"\"\"\n    if not ({}):\n        raise IndexError({message})\n    \
                 return {value}\n",
                parameters.joined(", ", |p, _| format!("{p}: int")),
                docstring(game),
                parameters.joined(" and ", |p, e| format!("0 <= {p} <= {e}"))
            ),
            Lang::Rust => format!(
                "/// G({position}) of {game}.\n///\n/// # Panics\n/// Outside {bounds}.\n\
                 pub fn sg({}) -> i64 {{\n    assert!(\n        {},\n        {message}\n    );\n    \
                 {value}\n}}\n",
                parameters.joined(", ", |p, _| format!("{p}: i64")),
                parameters.joined(" && ", |p, e| format!("(0..={e}).contains(&{p})"))
            ),
            Lang::Java => c_like(&JAVA),
        });
    }
}

#[cfg(test)]
mod tests {
    //! The generated box lookups are compiled and run: every position of the box must print
    //! its value, and a position outside must fail with a message naming it.

    use super::super::tests::{assert_fails_with, assert_no_main, run};
    use super::super::{generate_box, test_each_language, Lang};
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
        // Every call, its arguments with the 64-bit `suffix`, each on a line of `print`.
        let printed = |print: fn(&str) -> String, suffix: &str| {
            calls
                .iter()
                .map(|c| print(&long(c, suffix)))
                .collect::<String>()
        };
        match lang {
            Lang::Cpp => format!(
                "#include <cstdio>\n{snippet}\nint main() {{\n{}    std::fflush(stdout);\n    \
                 sg({});\n    std::printf(\"no failure\\n\");\n}}\n",
                printed(|a| format!("    std::printf(\"%lld\\n\", (long long) sg({a}));\n"), "LL"),
                long(&outside, "LL")
            ),
            Lang::Python => format!(
                "{snippet}\nimport sys\nfor p in [{}]:\n    print(sg(*p))\nsys.stdout.flush()\nsg({outside})\nprint('no failure')\n",
                calls.iter().map(|c| format!("({c},)")).collect::<Vec<_>>().join(", ")
            ),
            Lang::Rust => format!(
                "{snippet}\nfn main() {{\n{}    sg({});\n    println!(\"no failure\");\n}}\n",
                printed(|a| format!("    println!(\"{{}}\", sg({a}));\n"), "i64"),
                long(&outside, "i64")
            ),
            Lang::Java => format!(
                "public class Main {{\n    public static void main(String[] args) {{\n        \
                 StringBuilder out = new StringBuilder();\n{}        System.out.print(out);\n        \
                 System.out.flush();\n        Sg.sg({});\n        System.out.println(\"no failure\");\n    }}\n}}\n\n{snippet}",
                printed(|a| format!("        out.append(Sg.sg({a})).append('\\n');\n"), "L"),
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
            let code = generate_box(lang, &table, game);
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
        let code = generate_box(Lang::Python, &table, "Fibonacci Nim");
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
