//! A deliberately naive tree-walking interpreter for general move rules.
//!
//! It walks the checked syntax tree ([`crate::rules::check::CExpr::eval`]) for every move, collects each position's
//! options into a fresh `Vec`, and takes their mex: slow and obviously right. Property tests
//! compare the compiled [`crate::rules::Program`] and the general engine against it.

use crate::engine::mex::mex_of;
use crate::rules::check::{CheckedMove, Rules};
use crate::rules::program::{check_heap, range_bounds};
use crate::rules::{check, parser, Diagnostic};

/// All moves from `n` under `moves`, as lists of heaps, by walking the tree.
pub fn moves(rules: &[CheckedMove], coordinate: &str, n: u64) -> Result<Vec<Vec<u64>>, Diagnostic> {
    let at = (coordinate, n);
    let mut out = Vec::new();
    for rule in rules {
        let mut slots = vec![n as i64];
        walk(rule, &mut slots, at, &mut out)?;
    }
    Ok(out)
}

fn walk(rule: &CheckedMove, slots: &mut Vec<i64>, at: (&str, u64), out: &mut Vec<Vec<u64>>) -> Result<(), Diagnostic> {
    let fault = |f: check::Fault| f.diagnostic(Some(at));
    let depth = slots.len() - 1;
    if let Some(binder) = rule.binders.get(depth) {
        let lo = binder.lo.eval(slots).map_err(fault)?;
        let hi = binder.hi.eval(slots).map_err(fault)?;
        if let Some((lo, hi)) = range_bounds(lo, hi, binder.inclusive, binder.span, at)? {
            for value in lo..=hi {
                slots.push(value);
                walk(rule, slots, at, out)?;
                slots.pop();
            }
        }
        return Ok(());
    }
    if let Some(condition) = &rule.condition {
        if condition.eval(slots).map_err(fault)? == 0 {
            return Ok(());
        }
    }
    let mut heaps = Vec::new();
    for e in &rule.result {
        heaps.push(check_heap(e.eval(slots).map_err(fault)?, e.span, at)?);
    }
    out.push(heaps);
    Ok(())
}

/// `G(0..len)` for the general rules in `text`, by the naive method. Errors (in the text, or
/// at run time) are returned as diagnostics; a family line is an error here.
pub fn values(text: &str, overrides: &[(String, i64)], len: usize) -> Result<Vec<u32>, Vec<Diagnostic>> {
    let file = parser::parse(text)?;
    let checked = check::check(&file, overrides)?;
    let Rules::Moves(rules) = &checked.rules else {
        return Err(vec![Diagnostic::new("the interpreter only runs `move` rules", Default::default())]);
    };
    let mut values: Vec<u32> = Vec::with_capacity(len);
    for n in 0..len as u64 {
        let options = moves(rules, &checked.coordinate, n).map_err(|d| vec![d])?;
        let g = mex_of(options.iter().map(|heaps| heaps.iter().fold(0, |acc, &h| acc ^ values[h as usize])));
        values.push(g);
    }
    Ok(values)
}
