//! Names with a fixed meaning in the rules language (keywords, built-in functions) and the
//! "did you mean" suggestions for misspelt ones, shared by the parser and the checker.

/// Words that start a statement (the last four those of graph files, [`super::graph`]).
pub const STATEMENT_KEYWORDS: [&str; 15] = [
    "name",
    "description",
    "param",
    "heap",
    "position",
    "play",
    "move",
    "subtraction",
    "octal",
    "hex",
    "takebreak",
    "edge",
    "start",
    "ground",
    "hackenbush",
];

/// Words with a fixed meaning inside rules, which cannot name a parameter, binder or coordinate:
/// the statement keywords and the words of a move.
pub const RESERVED: [&str; 19] = concat_words(STATEMENT_KEYWORDS, ["in", "if", "none", "all"]);

/// `first` followed by `second`; `N` must be their total length (checked at compile time).
const fn concat_words<const A: usize, const B: usize, const N: usize>(
    first: [&'static str; A],
    second: [&'static str; B],
) -> [&'static str; N] {
    assert!(
        A + B == N,
        "the word list length is not the sum of its parts"
    );
    let mut words = [""; N];
    let mut i = 0;
    while i < A {
        words[i] = first[i];
        i += 1;
    }
    while i < N {
        words[i] = second[i - A];
        i += 1;
    }
    words
}

/// Built-in functions.
pub const FUNCTIONS: [&str; 15] = [
    "min",
    "max",
    "abs",
    "popcount",
    "ctz",
    "bit",
    "count",
    "gcd",
    "lcm",
    "isqrt",
    "ilog2",
    "floor_div",
    "v_p",
    "is_prime",
    "is_prime_power",
];

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
    let length = name.chars().count();
    let limit = (length / 3).max(1);
    candidates
        .into_iter()
        // The distance is at least the difference in length: a name of a million characters
        // costs one count, not a million-row table.
        .filter(|c| c.chars().count().abs_diff(length) <= limit)
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// A "did you mean" candidate for `name`, but never one that shares no letter position with it
/// (`x` → `k` would be noise).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    did_you_mean(name, candidates)
        .filter(|c| edit_distance(name, c) < name.chars().count().max(c.chars().count()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
