//! The values a sweep gives each parameter: `k=1..=30`, `R=L..=8` (a bound may use a parameter
//! named before it), `a=2,3,5`, or one value `k=7`.
//!
//! Ranges are read here, typed ([`RangeError`]), and expanded into instances by
//! [`instances`] in the order the parameters were given, the first one outermost, every count
//! checked against [`MAX_INSTANCES`] before any instance is listed.

use std::fmt;

use thiserror::Error;

/// The most instances one sweep lists (each is a period search).
pub const MAX_INSTANCES: u64 = 100_000;

/// A bound of a range: `c₀ + Σ cᵢ·pᵢ` over parameters named before it (`L`, `L + 1`, `2*a`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    /// `c₀`.
    pub constant: i64,
    /// `(cᵢ, pᵢ)`.
    pub terms: Vec<(i64, String)>,
}

/// The values of one parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Values {
    /// `lo..=hi`, or `lo..hi` (`hi` excluded).
    Span {
        /// The first value.
        lo: Bound,
        /// The last value (or one past it).
        hi: Bound,
        /// Whether `hi` is included.
        inclusive: bool,
    },
    /// `v₁,v₂,…`: these values, in this order.
    List(Vec<Bound>),
}

/// One `--set NAME=VALUES` of a sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamRange {
    /// The parameter's name.
    pub name: String,
    /// Its values.
    pub values: Values,
}

/// Why a range was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RangeError {
    /// Not `NAME=VALUES`.
    #[error("`{text}` is not NAME=VALUES (e.g. k=1..=30, R=L..=8 or a=2,3,5)")]
    NotNameValues {
        /// The text given.
        text: String,
    },
    /// A bound that is not an integer, a parameter, or a sum of them.
    #[error("`{bound}` in `{text}` is not a bound: write an integer, a parameter named before, or a sum such as L+1 or 2*a")]
    BadBound {
        /// The whole range.
        text: String,
        /// The bound.
        bound: String,
    },
    /// A bound names a parameter that is not swept before it.
    #[error("`{name}` in `{text}` is not a parameter given before it")]
    Unknown {
        /// The whole range.
        text: String,
        /// The name.
        name: String,
    },
    /// The same parameter twice.
    #[error("`{name}` is given twice")]
    Twice {
        /// The name.
        name: String,
    },
    /// A value past the 64-bit range while expanding.
    #[error("a value of {name} overflows 64-bit integers")]
    Overflow {
        /// The parameter.
        name: String,
    },
    /// More instances than [`MAX_INSTANCES`].
    #[error("the ranges give {count} instances, more than the {MAX_INSTANCES} a sweep runs")]
    TooMany {
        /// How many (a lower bound when counting stopped early).
        count: u64,
    },
    /// No instance at all.
    #[error("the ranges give no instance (every range is empty, e.g. k=5..=1)")]
    Empty,
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (coefficient, name) in &self.terms {
            let sign = if *coefficient < 0 { "-" } else { "+" };
            if !first || *coefficient < 0 {
                write!(f, "{sign}")?;
            }
            match coefficient.unsigned_abs() {
                1 => write!(f, "{name}")?,
                c => write!(f, "{c}*{name}")?,
            }
            first = false;
        }
        if first {
            write!(f, "{}", self.constant)
        } else if self.constant != 0 {
            let sign = if self.constant < 0 { "-" } else { "+" };
            write!(f, "{sign}{}", self.constant.unsigned_abs())
        } else {
            Ok(())
        }
    }
}

impl Bound {
    fn parse(text: &str, whole: &str, known: &[String]) -> Result<Bound, RangeError> {
        let bad = || RangeError::BadBound {
            text: whole.to_string(),
            bound: text.to_string(),
        };
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() {
            return Err(bad());
        }
        let mut bound = Bound {
            constant: 0,
            terms: Vec::new(),
        };
        // Split into signed terms: `2*a-1` → `+2*a`, `-1`.
        let mut terms: Vec<(i64, &str)> = Vec::new();
        let mut start = 0;
        let mut sign = 1;
        let bytes = compact.as_bytes();
        for i in 0..=bytes.len() {
            if i == bytes.len() || ((bytes[i] == b'+' || bytes[i] == b'-') && i > 0) {
                terms.push((sign, &compact[start..i]));
                if i < bytes.len() {
                    sign = if bytes[i] == b'-' { -1 } else { 1 };
                    start = i + 1;
                }
            } else if i == 0 && (bytes[0] == b'-' || bytes[0] == b'+') {
                sign = if bytes[0] == b'-' { -1 } else { 1 };
                start = 1;
            }
        }
        for (sign, term) in terms {
            let (coefficient, name) = match term.split_once('*') {
                Some((c, name)) => (c.parse::<i64>().map_err(|_| bad())?, name),
                None if term.bytes().all(|b| b.is_ascii_digit()) && !term.is_empty() => {
                    let value = term.parse::<i64>().map_err(|_| bad())?;
                    bound.constant = bound.constant.checked_add(sign * value).ok_or_else(bad)?;
                    continue;
                }
                None => (1, term),
            };
            let is_name = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !is_name {
                return Err(bad());
            }
            if !known.iter().any(|k| k == name) {
                return Err(RangeError::Unknown {
                    text: whole.to_string(),
                    name: name.to_string(),
                });
            }
            bound.terms.push((sign * coefficient, name.to_string()));
        }
        Ok(bound)
    }

    /// The bound's value given the earlier parameters' values.
    fn eval(&self, names: &[String], values: &[i64]) -> Option<i64> {
        let mut total = self.constant;
        for (coefficient, name) in &self.terms {
            let index = names.iter().position(|n| n == name)?;
            total = total.checked_add(coefficient.checked_mul(values[index])?)?;
        }
        Some(total)
    }
}

impl ParamRange {
    /// Reads `NAME=VALUES`; `known` are the parameters given before (their names may appear
    /// in the bounds).
    pub fn parse(text: &str, known: &[String]) -> Result<ParamRange, RangeError> {
        let not = || RangeError::NotNameValues {
            text: text.to_string(),
        };
        let (name, values) = text.split_once('=').ok_or_else(not)?;
        let name = name.trim();
        let is_name = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !is_name || values.trim().is_empty() {
            return Err(not());
        }
        if known.iter().any(|k| k == name) {
            return Err(RangeError::Twice {
                name: name.to_string(),
            });
        }
        let values = values.trim();
        let values = if let Some((lo, hi)) = values.split_once("..") {
            let (hi, inclusive) = match hi.strip_prefix('=') {
                Some(hi) => (hi, true),
                None => (hi, false),
            };
            Values::Span {
                lo: Bound::parse(lo, text, known)?,
                hi: Bound::parse(hi, text, known)?,
                inclusive,
            }
        } else {
            let list = values
                .split(',')
                .map(|v| Bound::parse(v, text, known))
                .collect::<Result<Vec<_>, _>>()?;
            Values::List(list)
        };
        Ok(ParamRange {
            name: name.to_string(),
            values,
        })
    }

    /// Reads every `--set` of a sweep, in order.
    pub fn parse_all(texts: &[String]) -> Result<Vec<ParamRange>, RangeError> {
        let mut known: Vec<String> = Vec::new();
        let mut ranges = Vec::new();
        for text in texts {
            let range = ParamRange::parse(text, &known)?;
            known.push(range.name.clone());
            ranges.push(range);
        }
        Ok(ranges)
    }

    /// This parameter's values given the earlier ones (`names[i] = values[i]`).
    fn expand(&self, names: &[String], values: &[i64]) -> Result<Vec<i64>, RangeError> {
        let overflow = || RangeError::Overflow {
            name: self.name.clone(),
        };
        match &self.values {
            Values::List(list) => list
                .iter()
                .map(|b| b.eval(names, values).ok_or_else(overflow))
                .collect(),
            Values::Span { lo, hi, inclusive } => {
                let lo = lo.eval(names, values).ok_or_else(overflow)?;
                let hi = hi.eval(names, values).ok_or_else(overflow)?;
                let hi = if *inclusive {
                    hi
                } else {
                    hi.checked_sub(1).ok_or_else(overflow)?
                };
                if lo > hi {
                    return Ok(Vec::new());
                }
                let count = (hi as i128 - lo as i128 + 1) as u128;
                if count > u128::from(MAX_INSTANCES) {
                    return Err(RangeError::TooMany {
                        count: count.min(u128::from(u64::MAX)) as u64,
                    });
                }
                Ok((lo..=hi).collect())
            }
        }
    }

    /// The text as a user would write it again (`k=1..=30`).
    pub fn describe(&self) -> String {
        match &self.values {
            Values::Span { lo, hi, inclusive } => {
                let dots = if *inclusive { "..=" } else { ".." };
                format!("{}={lo}{dots}{hi}", self.name)
            }
            Values::List(list) => {
                let listed: Vec<String> = list.iter().map(Bound::to_string).collect();
                format!("{}={}", self.name, listed.join(","))
            }
        }
    }
}

/// Every instance of `ranges`: one value per parameter, the first parameter outermost. Counted
/// against [`MAX_INSTANCES`] while listing (never more are listed).
pub fn instances(ranges: &[ParamRange]) -> Result<Vec<Vec<i64>>, RangeError> {
    let names: Vec<String> = ranges.iter().map(|r| r.name.clone()).collect();
    let mut done: Vec<Vec<i64>> = vec![Vec::new()];
    for range in ranges {
        let mut next = Vec::new();
        for prefix in &done {
            for value in range.expand(&names, prefix)? {
                if next.len() as u64 >= MAX_INSTANCES {
                    return Err(RangeError::TooMany {
                        count: next.len() as u64 + 1,
                    });
                }
                let mut instance = prefix.clone();
                instance.push(value);
                next.push(instance);
            }
        }
        done = next;
    }
    if done.is_empty() || ranges.is_empty() {
        return Err(RangeError::Empty);
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(texts: &[&str]) -> Result<Vec<ParamRange>, RangeError> {
        let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
        ParamRange::parse_all(&texts)
    }

    #[test]
    fn spans_lists_and_dependent_bounds_expand_in_order() {
        let ranges = parse(&["L=1..=3", "R=L..=3"]).unwrap();
        let all = instances(&ranges).unwrap();
        assert_eq!(
            all,
            vec![
                vec![1, 1],
                vec![1, 2],
                vec![1, 3],
                vec![2, 2],
                vec![2, 3],
                vec![3, 3]
            ]
        );
        let ranges = parse(&["a=1..4", "b=2*a+1, a + 10"]).unwrap();
        assert_eq!(ranges[1].describe(), "b=2*a+1,a+10");
        let all = instances(&ranges).unwrap();
        assert_eq!(all[0], vec![1, 3]);
        assert_eq!(all[1], vec![1, 11]);
        assert_eq!(all.len(), 6);
        assert_eq!(instances(&parse(&["k=7"]).unwrap()).unwrap(), vec![vec![7]]);
        assert_eq!(
            instances(&parse(&["k=-2..0"]).unwrap()).unwrap(),
            vec![vec![-2], vec![-1]]
        );
    }

    #[test]
    fn bad_ranges_are_typed() {
        assert!(matches!(
            parse(&["k"]),
            Err(RangeError::NotNameValues { .. })
        ));
        assert!(matches!(
            parse(&["k="]),
            Err(RangeError::NotNameValues { .. })
        ));
        assert!(matches!(
            parse(&["R=L..=8"]),
            Err(RangeError::Unknown { name, .. }) if name == "L"
        ));
        assert!(matches!(
            parse(&["k=1..=x!"]),
            Err(RangeError::BadBound { .. })
        ));
        assert!(matches!(
            parse(&["k=1", "k=2"]),
            Err(RangeError::Twice { .. })
        ));
        assert!(matches!(
            instances(&parse(&["k=5..=1"]).unwrap()),
            Err(RangeError::Empty)
        ));
        assert!(matches!(
            instances(&parse(&["a=1..=1000", "b=1..=1000"]).unwrap()),
            Err(RangeError::TooMany { .. })
        ));
        assert!(matches!(
            instances(&parse(&["a=0..=9223372036854775807"]).unwrap()),
            Err(RangeError::TooMany { .. })
        ));
    }
}
