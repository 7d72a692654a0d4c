//! What the sparse kernel's tests share: the kernel run alone under a policy, the dense
//! kernel for reference, and random codes.

use proptest::prelude::*;

use super::pipeline::Pipeline;
use super::{extend_with, Policy, SparseState};
use crate::engine::{takebreak, Progress, SgTable};
use crate::rules::code::{Digit, Modifier, Notation, TakeBreakCode};

pub(super) fn code(text: &str) -> TakeBreakCode {
    TakeBreakCode::parse(text, Notation::General, 0).unwrap()
}

/// [`extend_with`] with a hidden progress bar and no state kept from an earlier call.
pub(super) fn run_once(
    code: &TakeBreakCode,
    table: &mut SgTable,
    len: usize,
    policy: Policy,
) -> (bool, usize) {
    extend_with(
        code,
        table,
        len,
        &mut Progress::hidden(),
        policy,
        &mut SparseState::default(),
    )
}

/// `G(0..len)` by the sparse kernel alone, from an empty table (9-bit as soon as a value
/// passes 255), never giving up and never filling by a proven period.
pub(super) fn sparse_values(code: &TakeBreakCode, len: usize) -> Vec<u32> {
    let mut table = SgTable::packed_from(0);
    let policy = Policy::new(false, false);
    let finished = run_once(code, &mut table, len, policy).0;
    assert!(finished);
    table.to_vec()
}

/// `G(0..len)` by the dense kernel alone.
pub(super) fn dense_values(code: &TakeBreakCode, len: usize) -> Vec<u32> {
    let mut table = SgTable::new();
    takebreak::extend_dense(code, &mut table, len, &mut Progress::hidden());
    table.to_vec()
}

/// `G(0..len)` by the sparse kernel alone inside a pool of `threads` threads, the second
/// thread taking the far splits of blocks of `block` heaps however cheap they are; and how
/// many blocks it took. The table is 9-bit as soon as a value passes 255.
pub(super) fn pipelined_values(
    code: &TakeBreakCode,
    len: usize,
    threads: usize,
    block: usize,
) -> (Vec<u32>, usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut table = SgTable::packed_from(0);
        let policy = Policy {
            may_give_up: false,
            may_fill: false,
            pipeline: Some(Pipeline { block, min_work: 0 }),
        };
        let run = run_once(code, &mut table, len, policy);
        assert!(run.0);
        (table.to_vec(), run.1)
    })
}

/// A random finite octal code: `d0 = 0`, one to six digits after the point.
pub(super) fn octal_strategy() -> impl Strategy<Value = TakeBreakCode> {
    prop::collection::vec(0u64..8, 1..7).prop_map(|digits| {
        let mut all = vec![Digit::default()];
        all.extend(digits.into_iter().map(Digit::from_mask));
        TakeBreakCode {
            digits: all,
            tail: Vec::new(),
        }
        .normalized()
    })
}

/// A random octal digit of mask `mask`, with modifier `!`, `?`, `=` or none by `which`.
pub(super) fn modified_digit(mask: u64, which: u8) -> Digit {
    let modifier = [
        Modifier::None,
        Modifier::Unequal,
        Modifier::Unequal,
        Modifier::NotAllEqual,
        Modifier::Equal,
    ][usize::from(which)];
    Digit {
        modifier,
        ..Digit::from_mask(mask)
    }
}

/// A random finite octal code whose digits may carry `!`, `?` or `=`; `d0` is 0, `4`,
/// `4!` or `4=` (a split that removes nothing, as in Grundy's game `4!.0`).
pub(super) fn modified_strategy() -> impl Strategy<Value = TakeBreakCode> {
    let d0 = prop_oneof![
        2 => Just(Digit::default()),
        1 => Just(modified_digit(4, 0)),
        2 => Just(modified_digit(4, 1)),
        1 => Just(modified_digit(4, 4)),
    ];
    let digits = prop::collection::vec((0u64..8, 0u8..5), 0..6);
    (d0, digits).prop_map(|(d0, digits)| {
        let mut all = vec![d0];
        all.extend(digits.into_iter().map(|(mask, m)| modified_digit(mask, m)));
        TakeBreakCode {
            digits: all,
            tail: Vec::new(),
        }
        .normalized()
    })
}
