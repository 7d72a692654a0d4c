//! A deliberately naive tree-walking interpreter for general move rules.
//!
//! It walks the checked syntax tree ([`crate::rules::check::CExpr::eval`]) for every move, collects each position's
//! options into a fresh `Vec`, and takes their mex: slow and obviously right. Property tests
//! compare the compiled [`crate::rules::Program`] and the general engine against it.

use crate::engine::mex::mex_of;
use crate::engine::Nimber;
use crate::rules::check::{CheckedFamily, CheckedMove, Place, Rules};
use std::sync::OnceLock;

use crate::rules::checked::CheckedValues;
use crate::rules::program::{check_coordinate, check_heap, range_bounds};
use crate::rules::sieve::NumberCache;
use crate::rules::{check, parser, Diagnostic, SourceFile};

/// The interpreter's sieve for set binders, shared by every call (it only grows).
fn numbers() -> &'static NumberCache {
    static NUMBERS: OnceLock<NumberCache> = OnceLock::new();
    NUMBERS.get_or_init(NumberCache::new)
}

/// All moves from `position` under `rules`, by walking the tree: for each move, its
/// components' coordinates, flattened (one heap per component in a heap game).
pub fn moves(
    rules: &[CheckedMove],
    coordinates: &[String],
    position_game: bool,
    position: &[u64],
) -> Result<Vec<Vec<u64>>, Diagnostic> {
    let at = Place {
        names: coordinates,
        values: position,
    };
    let mut out = Vec::new();
    for rule in rules {
        let mut slots: Vec<i64> = position.iter().map(|&c| c as i64).collect();
        walk(rule, &mut slots, at, position_game, &mut out)?;
    }
    Ok(out)
}

fn walk(
    rule: &CheckedMove,
    slots: &mut Vec<i64>,
    at: Place,
    position_game: bool,
    out: &mut Vec<Vec<u64>>,
) -> Result<(), Diagnostic> {
    let fault = |f: check::Fault| f.diagnostic(Some(at));
    let arity = at.names.len();
    let depth = slots.len() - arity;
    if let Some(binder) = rule.binders.get(depth) {
        let values: Vec<i64> = match &binder.values {
            CheckedValues::Range { lo, hi, inclusive } => {
                let lo = lo.eval(slots).map_err(fault)?;
                let hi = hi.eval(slots).map_err(fault)?;
                match range_bounds(lo, hi, *inclusive, binder.span, at)? {
                    Some((lo, hi)) => (lo..=hi).collect(),
                    None => Vec::new(),
                }
            }
            // The sets' one implementation, as the compiled program uses it.
            CheckedValues::Set(set, args) => {
                let args = args
                    .iter()
                    .map(|a| a.eval(slots))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(fault)?;
                numbers()
                    .values(*set, &args)
                    .map_err(|kind| {
                        fault(check::Fault {
                            kind,
                            span: binder.span,
                        })
                    })?
                    .collect()
            }
        };
        for value in values {
            slots.push(value);
            walk(rule, slots, at, position_game, out)?;
            slots.pop();
        }
        return Ok(());
    }
    if let Some(condition) = &rule.condition {
        if condition.eval(slots).map_err(fault)? == 0 {
            return Ok(());
        }
    }
    let mut components = Vec::new();
    for (i, e) in rule.result.iter().enumerate() {
        let value = e.eval(slots).map_err(fault)?;
        components.push(if position_game {
            check_coordinate(value, i % arity, e.span, at, rule.label.as_deref())?
        } else {
            check_heap(value, e.span, at)?
        });
    }
    out.push(components);
    Ok(())
}

/// `G(0..len)` for the rules in `source`, by the naive method: parse, check, then walk the tree
/// for every move of every position. Handles `move` rules and `subtraction` family lines
/// (as the moves `n → n − s`); `octal`/`hex`/`takebreak` lines are an error here. The first
/// error (in the text, or at run time) is returned.
pub fn values(
    source: &SourceFile,
    overrides: &[(String, i64)],
    len: usize,
) -> Result<Vec<u32>, Diagnostic> {
    let first = |mut errors: Vec<Diagnostic>| errors.swap_remove(0);
    let file = parser::parse(&source.text).map_err(first)?;
    let checked = check::check(&file, overrides).map_err(first)?;
    if checked.position_game {
        return Err(Diagnostic::new(
            "a position game has no sequence G(0), G(1), …",
            crate::rules::Span::new(0, 0),
        )
        .with_help("use `position_values` for a box of positions"));
    }
    let mut values: Vec<u32> = Vec::with_capacity(len);
    for n in 0..len as u64 {
        let options: Vec<Vec<u64>> = match &checked.rules {
            Rules::Moves(rules) => moves(rules, &checked.coordinates, false, &[n])?,
            Rules::Family {
                family: CheckedFamily::Subtraction(set),
                ..
            } => set
                .iter()
                .filter(|&&s| s <= n)
                .map(|&s| vec![n - s])
                .collect(),
            Rules::Family {
                family: CheckedFamily::SubtractionAllBut(excluded),
                ..
            } => (1..=n)
                .filter(|s| !excluded.contains(s))
                .map(|s| vec![n - s])
                .collect(),
            Rules::Family { span, .. } => {
                return Err(Diagnostic::new(
                    "the interpreter does not run take-and-break codes",
                    *span,
                )
                .with_help("compare code games with the take-and-break kernel instead"));
            }
        };
        let g = mex_of(options.iter().map(|heaps| {
            heaps
                .iter()
                .map(|&h| values[h as usize])
                .sum::<Nimber>()
                .value()
        }));
        values.push(g);
    }
    Ok(values)
}

/// `G(p)` for every position `p` of the box `0..=extents[i]` of a position game, by the naive
/// method: a memoised recursion over the moves found by walking the tree (no cycle check: for
/// rules whose moves decrease, in tests; a recursion deeper than 100 000 is an error).
pub fn position_values(
    source: &SourceFile,
    overrides: &[(String, i64)],
    extents: &[u64],
) -> Result<Vec<u32>, Diagnostic> {
    let first = |mut errors: Vec<Diagnostic>| errors.swap_remove(0);
    let file = parser::parse(&source.text).map_err(first)?;
    let checked = check::check(&file, overrides).map_err(first)?;
    let Rules::Moves(rules) = &checked.rules else {
        return Err(Diagnostic::new(
            "not a position game",
            crate::rules::Span::new(0, 0),
        ));
    };
    let mut memo = std::collections::HashMap::new();
    let mut out = Vec::new();
    let mut position = vec![0u64; extents.len()];
    loop {
        out.push(value_of(
            rules,
            &checked.coordinates,
            &position,
            &mut memo,
            0,
        )?);
        if !crate::engine::shape::step(extents, &mut position) {
            return Ok(out);
        }
    }
}

fn value_of(
    rules: &[CheckedMove],
    coordinates: &[String],
    position: &[u64],
    memo: &mut std::collections::HashMap<Vec<u64>, u32>,
    depth: usize,
) -> Result<u32, Diagnostic> {
    if let Some(&v) = memo.get(position) {
        return Ok(v);
    }
    if depth > 100_000 {
        return Err(Diagnostic::new(
            "recursion too deep",
            crate::rules::Span::new(0, 0),
        ));
    }
    let mut options = Vec::new();
    for components in moves(rules, coordinates, true, position)? {
        let mut xor = Nimber::ZERO;
        for c in components.chunks(coordinates.len()) {
            xor += value_of(rules, coordinates, c, memo, depth + 1)?;
        }
        options.push(xor.value());
    }
    let g = mex_of(options);
    memo.insert(position.to_vec(), g);
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, len: usize) -> Result<Vec<u32>, Diagnostic> {
        values(&SourceFile::new("t.sg", text), &[], len)
    }

    #[test]
    fn families_and_rules_agree() {
        // S = {1, 3, 4}: 0 1 0 1 2 3 2 with period 7 (Ferguson, Game Theory, part I §1.4).
        let family = run("subtraction {1, 3, 4}", 21).unwrap();
        assert_eq!(family, [0, 1, 0, 1, 2, 3, 2].repeat(3));
        let rules = run("move s in 1..=4 if s != 2 && s <= n => n - s", 21).unwrap();
        assert_eq!(rules, family);
        let all_but = run("subtraction all-but {2, 5}", 30).unwrap();
        assert_eq!(
            all_but,
            run("move s in 1..=n if s != 2 && s != 5 => n - s", 30).unwrap()
        );
        assert!(run("octal 0.07", 3).is_err());
        assert_eq!(
            run("move x in 1..=3 => n - x", 3).unwrap_err().message,
            "at n = 0, this move leaves a heap of -1"
        );
    }
}
