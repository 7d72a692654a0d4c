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
/// The most positions tried per rule: past it, a sample of the small box
/// ([`small_positions`]).
pub const POSITIONS_TRIED: usize = 100_000;
/// The positions of the sample tried when the small box has more than [`POSITIONS_TRIED`].
const SAMPLE: usize = 4096;

/// The positions with every coordinate in `0..=top`, in row-major order, when there are at
/// most `limit`; else a fixed sample of `sample` of them: the diagonal `(v, …, v)`, each
/// coordinate alone at every value (the others 0, then the others at `top`), then positions
/// drawn by a fixed pseudo-random sequence. The same sample every run, so that what `check`
/// and the warnings say is reproducible.
pub fn small_positions(arity: usize, top: u64, limit: usize, sample: usize) -> Vec<Vec<u64>> {
    let side = top + 1;
    let whole = u32::try_from(arity)
        .ok()
        .and_then(|a| side.checked_pow(a))
        .filter(|&n| n <= limit as u64);
    if let Some(count) = whole {
        return (0..count)
            .map(|index| {
                let mut position = vec![0; arity];
                let mut rest = index;
                for c in position.iter_mut().rev() {
                    *c = rest % side;
                    rest /= side;
                }
                position
            })
            .collect();
    }
    let mut out: Vec<Vec<u64>> = (0..=top).map(|v| vec![v; arity]).collect();
    for background in [0, top] {
        for i in 0..arity {
            for v in 0..=top {
                if v != background {
                    let mut position = vec![background; arity];
                    position[i] = v;
                    out.push(position);
                }
            }
        }
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    while out.len() < sample {
        out.push(
            (0..arity)
                .map(|_| {
                    // xorshift64: a fixed sequence, no dependency.
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state % side
                })
                .collect(),
        );
    }
    out.truncate(sample);
    out
}

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
    // Many coordinates: a sample of the small box, not all of it (5^20 positions would not
    // finish).
    for position in small_positions(arity, top as u64, POSITIONS_TRIED, SAMPLE) {
        for (slot, &c) in slots.iter_mut().zip(&position) {
            *slot = c as i64;
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
    fn small_positions_are_the_box_or_a_fixed_sample_of_it() {
        use super::small_positions;
        let whole = small_positions(2, 4, 100, 10);
        assert_eq!(whole.len(), 25);
        assert_eq!(
            (whole[0].clone(), whole[24].clone()),
            (vec![0, 0], vec![4, 4])
        );
        let sample = small_positions(20, 4, 100_000, 4096);
        assert_eq!(sample.len(), 4096);
        assert_eq!(sample, small_positions(20, 4, 100_000, 4096));
        assert!(sample.iter().flatten().all(|&c| c <= 4));
        // The corners and each coordinate alone come first.
        assert_eq!(sample[0], vec![0; 20]);
        assert!(sample.contains(&{
            let mut p = vec![0; 20];
            p[19] = 3;
            p
        }));
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
