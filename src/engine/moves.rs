//! Listing the moves of a position, for every move generator: a take-and-break code's
//! partitions ([`code_moves`]) and compiled rules with their lines of moves expanded one move
//! at a time ([`for_each_rule_move`]). The kernels do not list moves this way (they read lines
//! straight from their tables); `solve` and the messages that name a move do.

use std::ops::ControlFlow;

use crate::rules::code::{Digit, Modifier, TakeBreakCode};
use crate::rules::program::{Scratch, Stop};
use crate::rules::Program;

/// Every move from a heap of `n` tokens under `code`: the sizes of the heaps left (sorted,
/// all non-empty; an empty list means the heap was removed).
///
/// Removing `k` tokens and leaving `j` heaps is a move when digit `d_k` allows `j` heaps, the
/// heap sizes satisfy its modifier (checked only when `j ≥ 2`), and the move changes the
/// position (`k ≥ 1`, or `k = 0` with a split into two or more heaps).
pub fn code_moves(code: &TakeBreakCode, n: u64) -> Vec<Vec<u64>> {
    let mut moves = Vec::new();
    for k in 0..=n {
        let digit = code.digit(k as usize);
        if digit.is_empty() {
            continue;
        }
        let left = n - k;
        for heaps in 0..=left {
            let changes_position = k >= 1 || heaps >= 2;
            let fits = (heaps == 0) == (left == 0);
            if !changes_position || !fits || !digit.heaps.allows(heaps as u32) {
                continue;
            }
            let mut parts = Vec::new();
            partitions(left, heaps, 1, &mut parts, &mut |p| {
                if modifier_allows(&digit, p) {
                    moves.push(p.to_vec());
                }
            });
        }
    }
    moves
}

/// The largest heap of a take-and-break code whose moves are listed, by the heaps a move may
/// leave (the moves are listed one partition at a time).
pub fn listable_heap(max_heaps: Option<u32>) -> u64 {
    match max_heaps {
        Some(0..=2) => 20_000,
        Some(3) => 400,
        _ => 60,
    }
}

/// Calls `visit(rule, binders, components)` for every move of `program` from `position`, in
/// rule order: a line of moves is expanded by
/// [`Move::for_each_concrete`](crate::rules::program::Move::for_each_concrete), the line's
/// binder (the rule's last) counting up from its first value. `components` are the positions
/// the move leads to, flattened (`arity` coordinates each; a heap game's heaps include empty ones as 0). `budget`
/// is spent as by [`Program::for_each_option`]; `visit` may stop the listing
/// ([`Stop::Break`]).
pub fn for_each_rule_move(
    program: &Program,
    position: &[u64],
    scratch: &mut Scratch,
    budget: &mut u64,
    mut visit: impl FnMut(usize, &[i64], &[u64]) -> ControlFlow<()>,
) -> Result<(), Stop> {
    // Generic, not `dyn`: the box search lists millions of moves, and the visitor (`node_of`)
    // is then inlined into the loop over a line's moves.
    program.for_each_option(position, scratch, budget, &mut |rule, binders, m| {
        m.for_each_concrete(binders, |binders, components| {
            visit(rule, binders, components)
        })
    })
}

/// `first + t·step` into `out`.
#[inline]
pub fn line_point(first: &[u64], step: &[i64], t: u64, out: &mut Vec<u64>) {
    out.clear();
    out.extend(
        first
            .iter()
            .zip(step)
            .map(|(&c, &d)| (c as i64 + t as i64 * d) as u64),
    );
}

/// Calls `visit` with every non-decreasing list of `count` parts, each at least `smallest`,
/// summing to `total`.
fn partitions(
    total: u64,
    count: u64,
    smallest: u64,
    parts: &mut Vec<u64>,
    visit: &mut dyn FnMut(&[u64]),
) {
    if count == 0 {
        if total == 0 {
            visit(parts);
        }
        return;
    }
    // One part left: it is the rest (the loop below would try every size up to it, making a
    // split into two heaps quadratic in the heap).
    if count == 1 {
        if total >= smallest {
            parts.push(total);
            visit(parts);
            parts.pop();
        }
        return;
    }
    // The remaining `count` parts are each at least `part`, so `part * count <= total`.
    let mut part = smallest;
    while part.saturating_mul(count) <= total {
        parts.push(part);
        partitions(total - part, count - 1, part, parts, visit);
        parts.pop();
        part += 1;
    }
}

/// True when sorted `heaps` satisfy the digit's modifier (always, for fewer than two heaps).
fn modifier_allows(digit: &Digit, heaps: &[u64]) -> bool {
    if heaps.len() < 2 {
        return true;
    }
    let all_equal = heaps.iter().all(|&h| h == heaps[0]);
    let all_different = heaps.windows(2).all(|w| w[0] != w[1]);
    match digit.modifier {
        Modifier::None => true,
        Modifier::Unequal => all_different,
        Modifier::Equal => all_equal,
        Modifier::NotAllEqual => !all_equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{code, game};

    #[test]
    fn lists_kayles_moves_from_a_row_of_four() {
        // 0.77: remove 1 or 2 tokens, leaving 0, 1 or 2 heaps.
        let mut moves = code_moves(&code("0.77"), 4);
        moves.sort();
        let expected: Vec<Vec<u64>> = vec![vec![1, 1], vec![1, 2], vec![2], vec![3]];
        assert_eq!(moves, expected);
    }

    #[test]
    fn grundy_moves_split_into_unequal_heaps() {
        let mut moves = code_moves(&code("4!.0"), 6);
        moves.sort();
        assert_eq!(moves, vec![vec![1, 5], vec![2, 4]]);
    }

    #[test]
    fn modifiers_on_three_heaps() {
        // Digit 8 = leave exactly three heaps; from 7 tokens with k = 1, six remain.
        let all = code_moves(&code("0.8"), 7);
        assert_eq!(all, vec![vec![1, 1, 4], vec![1, 2, 3], vec![2, 2, 2]]);
        assert_eq!(code_moves(&code("0.8!"), 7), vec![vec![1, 2, 3]]);
        assert_eq!(code_moves(&code("0.8="), 7), vec![vec![2, 2, 2]]);
        assert_eq!(
            code_moves(&code("0.8?"), 7),
            vec![vec![1, 1, 4], vec![1, 2, 3]]
        );
    }

    #[test]
    fn at_least_lists_every_partition() {
        // `{2+}` before the point: split 5 into two or more heaps; p(5) - 1 = 6 partitions.
        let moves = code_moves(&code("{2+}.0"), 5);
        assert_eq!(moves.len(), 6);
        assert!(moves.contains(&vec![1, 1, 1, 1, 1]));
    }

    #[test]
    fn lines_are_expanded_with_their_binder() {
        let game = game(
            "position (x, y)\nmove t in 1..=x => (x - t, y)\nmove if y > 0 => (x, y - 1) + (0, 0)",
        );
        let program = game.position_program().unwrap();
        let mut seen = Vec::new();
        for_each_rule_move(
            program,
            &[3, 1],
            &mut Scratch::default(),
            &mut u64::MAX.clone(),
            |r, b, c| {
                seen.push((r, b.to_vec(), c.to_vec()));
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        assert_eq!(
            seen,
            [
                (0, vec![1], vec![2, 1]),
                (0, vec![2], vec![1, 1]),
                (0, vec![3], vec![0, 1]),
                (1, vec![], vec![3, 0, 0, 0]),
            ]
        );
    }
}
