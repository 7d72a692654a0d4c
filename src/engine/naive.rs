//! Deliberately simple reference engines, for property tests of the fast kernels.
//!
//! Nothing here is clever: every move is listed explicitly and the Sprague–Grundy value is
//! the mex of the options' values, each option being a sum of heaps whose value is the XOR
//! of theirs (Sprague 1935, Grundy 1939). The point is to be obviously right, independently
//! of [`super::takebreak`]; the cost is exponential for codes with `{j+}` digits (every
//! partition of the heap is listed), so use it on small heaps only.

use std::collections::BTreeSet;

use crate::rules::code::{Digit, Modifier, TakeBreakCode};

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

/// `G(0..len)` for `code`, by [`code_moves`] and a mex over a `BTreeSet`.
pub fn code_values(code: &TakeBreakCode, len: usize) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::with_capacity(len);
    for n in 0..len {
        let options: BTreeSet<u32> = code_moves(code, n as u64)
            .iter()
            .map(|heaps| heaps.iter().fold(0, |acc, &h| acc ^ values[h as usize]))
            .collect();
        let mex = (0..).find(|v| !options.contains(v)).unwrap_or(0);
        values.push(mex);
    }
    values
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
    use crate::rules::code::Notation;

    fn code(text: &str) -> TakeBreakCode {
        TakeBreakCode::parse(text, Notation::General, 0).unwrap()
    }

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
    fn nim_and_subtraction_values() {
        assert_eq!(
            code_values(&code("0.[3]"), 10),
            (0..10).collect::<Vec<u32>>()
        );
        let bash: Vec<u32> = (0..12).map(|n| n % 4).collect();
        assert_eq!(code_values(&code("0.333"), 12), bash);
    }
}
