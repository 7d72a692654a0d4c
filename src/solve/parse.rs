//! The position `solve` is asked about, as written on the command line: `3 5 7`, `3 + 5`,
//! `(3, 4) + (5, 2)`.

use thiserror::Error;

/// A position that cannot be read, with what to write instead.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{what} in the position `{text}`\n  help: write {}", example(*.arity))]
pub struct PositionError {
    /// What is wrong, e.g. "`x` is not a non-negative integer".
    pub what: String,
    /// The position as given.
    pub text: String,
    /// The coordinates each component has.
    pub arity: usize,
}

fn example(arity: usize) -> String {
    if arity == 1 {
        "heaps as numbers, e.g. `3 5 7` or `3 + 5 + 7`".to_string()
    } else {
        format!(
            "tuples of {arity} numbers joined by `+`, e.g. `({}) + ({})`",
            vec!["3"; arity].join(", "),
            vec!["1"; arity].join(", ")
        )
    }
}

/// `3 5 7`, `3 + 5`, `(3, 4) + (5, 2)`: the components of a sum, `arity` coordinates each.
pub fn parse_sum(text: &str, arity: usize) -> Result<Vec<Vec<u64>>, PositionError> {
    let bad = |what: String| PositionError {
        what,
        text: text.to_string(),
        arity,
    };
    let mut components = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let item;
        if let Some(inner) = rest.strip_prefix('(') {
            let close = inner
                .find(')')
                .ok_or_else(|| bad("an unclosed `(`".into()))?;
            item = inner[..close].to_string();
            rest = &inner[close + 1..];
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '+')
                .unwrap_or(rest.len());
            item = rest[..end].to_string();
            rest = &rest[end..];
        }
        let coordinates = item
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| bad(format!("`{}` is not a non-negative integer", v.trim())))
            })
            .collect::<Result<Vec<u64>, _>>()?;
        if coordinates.len() != arity {
            return Err(bad(format!(
                "`{item}` has {} coordinates, not {arity}",
                coordinates.len()
            )));
        }
        components.push(coordinates);
        rest = rest.trim_start().trim_start_matches('+').trim_start();
    }
    if components.is_empty() {
        return Err(bad("no component".into()));
    }
    Ok(components)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_of_positions() {
        assert_eq!(parse_sum("3 5 7", 1).unwrap(), [[3], [5], [7]]);
        assert_eq!(parse_sum("3+5 + 7", 1).unwrap(), [[3], [5], [7]]);
        assert_eq!(parse_sum("(3,4) + (5, 2)", 2).unwrap(), [[3, 4], [5, 2]]);
        assert_eq!(parse_sum("(3,4)", 2).unwrap(), [[3, 4]]);
        for bad in ["(3, 4", "(3)", "3 x", "", "(1, -2)"] {
            assert!(parse_sum(bad, 2).is_err(), "{bad}");
        }
        assert_eq!(
            parse_sum("3 5", 2).unwrap_err().to_string(),
            "`3` has 1 coordinates, not 2 in the position `3 5`\n  help: write tuples of 2 \
             numbers joined by `+`, e.g. `(3, 3) + (1, 1)`"
        );
    }
}
