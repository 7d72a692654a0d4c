//! A deliberately simple reference engine, for property tests of the fast kernels.
//!
//! Nothing here is clever: every move is listed explicitly (by [`crate::engine::moves::code_moves`])
//! and the Sprague–Grundy value is the mex of the options' values, each option being a sum of
//! heaps whose value is the XOR of theirs (Sprague 1935, Grundy 1939). The point is to be
//! obviously right, independently of [`crate::engine::takebreak`]; the cost is exponential for codes
//! with `{j+}` digits (every partition of the heap is listed), so use it on small heaps only.

use std::collections::BTreeSet;

use crate::engine::moves::code_moves;
use crate::engine::Nimber;
use crate::rules::code::TakeBreakCode;

/// `G(0..len)` for `code`, by [`code_moves`] and a mex over a `BTreeSet`.
pub fn code_values(code: &TakeBreakCode, len: usize) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::with_capacity(len);
    for n in 0..len {
        let options: BTreeSet<u32> = code_moves(code, n as u64)
            .iter()
            .map(|heaps| {
                heaps
                    .iter()
                    .map(|&h| values[h as usize])
                    .sum::<Nimber>()
                    .value()
            })
            .collect();
        let mex = (0..).find(|v| !options.contains(v)).unwrap_or(0);
        values.push(mex);
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::code;

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
