//! Warnings: rules that load but are probably not what was meant. A warning is printed on
//! standard error and does not stop the command.
//!
//! The one warning so far: a `move` binder whose range is empty at every small position
//! (heaps `0..=16`, or coordinates `0..=4` of a position game), so that the rule never moves
//! — typically a `--set` value that makes `1..=k` empty, as `--set k=-1` on the Bash game
//! (whose table is then all zeros). A `subtraction` family with no element gets the same.

use super::checked::{CheckedFamily, CheckedMove, CheckedValues, Rules};
use super::Diagnostic;

/// The largest heap tried.
pub const HEAPS_TRIED: i64 = 16;
/// The largest coordinate tried in a position game.
const COORDINATES_TRIED: i64 = 4;
/// The most binder values enumerated per rule; past it nothing is said about the rule.
const STEPS: usize = 100_000;

/// The warnings for checked `rules` with `arity` coordinates.
pub fn warnings(rules: &Rules, arity: usize, params: &[(String, i64)]) -> Vec<Diagnostic> {
    let params_note = if params.is_empty() {
        String::new()
    } else {
        format!(
            " (with {})",
            params
                .iter()
                .map(|(p, v)| format!("{p} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    match rules {
        Rules::Family {
            family: CheckedFamily::Subtraction(set),
            span,
        } if set.is_empty() => vec![Diagnostic::new(
            format!("the subtraction set is empty{params_note}, so no move is possible"),
            *span,
        )
        .with_label("no move")
        .with_help("every position has value 0: check the set's bounds (and the --set values)")],
        Rules::Family { .. } => Vec::new(),
        Rules::Moves(moves) => moves
            .iter()
            .filter_map(|m| {
                let binder = never_bound(m, arity)?;
                let b = &m.binders[binder];
                let tried = if arity == 1 {
                    format!("n = 0..={HEAPS_TRIED}")
                } else {
                    format!("coordinates 0..={COORDINATES_TRIED}")
                };
                Some(
                    Diagnostic::new(
                        format!(
                            "the range of `{}` is empty for every position tried ({tried}){params_note}",
                            b.name
                        ),
                        b.span,
                    )
                    .with_label("always empty")
                    .with_help("this move never applies: check the range's bounds (and the --set values)"),
                )
            })
            .collect(),
    }
}

/// The first binder of `m` whose range is empty at every position tried and for every value
/// of the binders before it, if the search is complete within [`STEPS`].
fn never_bound(m: &CheckedMove, arity: usize) -> Option<usize> {
    if m.binders.is_empty() {
        return None;
    }
    let top = if arity == 1 {
        HEAPS_TRIED
    } else {
        COORDINATES_TRIED
    };
    let mut search = Search {
        m,
        arity,
        bound: vec![false; m.binders.len()],
        steps: 0,
    };
    let mut slots = vec![0i64; arity + m.binders.len()];
    let positions = (top + 1).checked_pow(u32::try_from(arity).ok()?)?;
    for index in 0..positions {
        let mut rest = index;
        for slot in slots.iter_mut().take(arity) {
            *slot = rest % (top + 1);
            rest /= top + 1;
        }
        search.visit(0, &mut slots)?;
    }
    search.bound.iter().position(|&b| !b)
}

struct Search<'a> {
    m: &'a CheckedMove,
    arity: usize,
    /// Whether binder `i` had a non-empty range somewhere.
    bound: Vec<bool>,
    steps: usize,
}

impl Search<'_> {
    /// Enumerates binder `i` onwards; `None` when out of steps or an expression fails.
    fn visit(&mut self, i: usize, slots: &mut [i64]) -> Option<()> {
        let Some(b) = self.m.binders.get(i) else {
            return Some(());
        };
        let scope = &slots[..self.arity + i];
        let (lo, hi) = match &b.values {
            CheckedValues::Range { lo, hi, inclusive } => {
                let lo = lo.eval(scope).ok()?;
                let hi = hi.eval(scope).ok()?;
                (lo, if *inclusive { hi } else { hi.checked_sub(1)? })
            }
            // Sets are not searched: they are rarely empty everywhere (`divisors(0)` is, but
            // not `divisors(1)`); a set binder counts as bound, and the search stops there.
            CheckedValues::Set(..) => {
                self.bound[i..].iter_mut().for_each(|b| *b = true);
                return Some(());
            }
        };
        if lo > hi {
            return Some(());
        }
        self.bound[i] = true;
        if i + 1 == self.m.binders.len() {
            return Some(());
        }
        let mut v = lo;
        loop {
            self.steps += 1;
            if self.steps > STEPS {
                return None;
            }
            slots[self.arity + i] = v;
            self.visit(i + 1, slots)?;
            if v == hi {
                return Some(());
            }
            v += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{load_with_warnings, SourceFile};

    fn warned(text: &str, sets: &[(String, i64)]) -> Vec<String> {
        let (_, warnings) = load_with_warnings(SourceFile::new("t.sg", text), sets).unwrap();
        warnings.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn an_always_empty_range_is_warned_about() {
        let bash = "param k = 3\nmove x in 1..=min(k, n) => n - x\n";
        assert!(warned(bash, &[]).is_empty());
        let w = warned(bash, &[("k".into(), -1)]);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains("range of `x` is empty") && w[0].contains("k = -1"),
            "{w:?}"
        );
        // A family line: `subtraction 1..=k` with k = -1.
        let family = warned("param k = 3\nsubtraction 1..=k\n", &[("k".into(), -1)]);
        assert!(family[0].contains("subtraction set is empty"), "{family:?}");
        // Ranges empty at some n only, or depending on an earlier binder, are fine.
        assert!(warned("move x in 1..n-5 => n - x\n", &[]).is_empty());
        assert!(warned("move a in 0..=n, b in a+1..=n => a, b - a - 1\n", &[]).is_empty());
        // A later binder that is always empty is named.
        let w = warned("move a in 0..=n, b in n+1..=a => a\n", &[]);
        assert!(w[0].contains("range of `b`"), "{w:?}");
    }
}
