//! Lowering: a [`Checked`] file to a [`Game`], recognising general rules that are really a
//! take-and-break code so that the engine can use its fast kernel.
//!
//! Family lines lower directly: `subtraction {…}` and ranges to
//! [`TakeBreakCode::subtraction`], `all-but` to [`TakeBreakCode::subtraction_all_but`], and
//! `octal`/`hex`/`takebreak` to [`TakeBreakCode::parse`].
//!
//! # Lowering general rules to codes
//!
//! A take-and-break code (Guy & Smith 1956; Winning Ways ch. 4) allows, from a heap `n`, to
//! remove `k` tokens and leave `j` non-empty heaps of any sizes summing to `n − k`, for each
//! bit `j` of digit `k`. So its move set at `n`, as a set of multisets of non-empty heaps, is
//! determined by the digits. General rules are lowered in three steps, and only when all agree:
//!
//! 1. **Syntactic gate.** Every expression must be affine in `n` and the binders: `+`, `−`,
//!    multiplication by a constant, `min`/`max`, comparisons, `&&`, `||`, `!`; no `/`, `%`,
//!    `abs` or product of two variables. Then the binder values allowed at `n` are the integer
//!    points of a union of polytopes whose facets move affinely with `n`, and each result heap
//!    is an affine function of them. With every constant at most `C` in absolute value, the
//!    combinatorial type of these polytopes (which facets bind, which conditions switch) can
//!    only change at `n` of order `C`; past that the move set at `n + 1` is that at `n` with
//!    the same shapes stretched, which is exactly how a code's move sets grow.
//! 2. **Inference.** The moves at `n = 0..=V`, with `V = 64 + 4·Σ|constants|`, give each
//!    digit: a move from `n` leaving non-empty heaps `h1..hj` removes `k = n − Σh` and sets bit
//!    `j` of digit `k`. If no move removes more than `V/2` tokens the code is finite; otherwise
//!    a repeating tail (period ≤ 8, starting before `V/4`) is looked for, as for Nim
//!    (`x in 1..=n`: `0.[3]`).
//! 3. **Verification.** The code's moves are enumerated independently (all partitions of
//!    `n − k` into `j` positive parts for each allowed `(k, j)`) and compared, as sets of
//!    sorted multisets, with the rule's moves for **every** `n ≤ V`. Any difference, any
//!    run-time error, a digit 0 that would move from a heap to itself or remove nothing from an
//!    empty heap, more than three heaps, or a work budget overrun: no lowering.
//!
//! Since every threshold the rules can express lies below `V/4`, a difference between the
//! rules and the code would have to appear first past the point where the move sets have
//! stopped changing shape, which the verification window `V/4..=V` covers several times over.
//! The method is conservative by design: a wrong lowering would be a silently wrong table,
//! while a missed one only costs speed.

use std::collections::BTreeSet;

use super::ast::BinaryOp;
use super::check::{CExpr, CExprKind, Checked, CheckedFamily, CheckedMove, Rules};
use super::code::{Digit, TakeBreakCode};
use super::{Family, Game, GameKind, Program, RulesError, SourceFile};

/// The largest verification bound `V` tried; rules with larger constants are not lowered.
pub const MAX_VERIFY_BOUND: u64 = 4096;
/// The most heaps a lowered move may leave.
const MAX_LOWERED_HEAPS: usize = 3;
/// The most moves enumerated (rules and code together) while lowering.
const WORK_BUDGET: usize = 4_000_000;

/// Lowers a checked file to a game.
pub fn lower(checked: Checked, source: SourceFile) -> Result<Game, RulesError> {
    let Checked { name, description, coordinate, params, rules } = checked;
    let (default_name, kind) = match rules {
        Rules::Family { family, span } => {
            let text = source.text.get(span.start..span.end).unwrap_or("").trim().to_string();
            let (code, family) = match family {
                CheckedFamily::Subtraction(set) => (TakeBreakCode::subtraction(&set), Family::Subtraction(set)),
                CheckedFamily::SubtractionAllBut(set) => {
                    (TakeBreakCode::subtraction_all_but(&set), Family::SubtractionAllBut(set))
                }
                CheckedFamily::Code { notation, text, offset } => {
                    let code = TakeBreakCode::parse(&text, notation, offset)
                        .map_err(|d| RulesError { source: source.clone(), diagnostics: vec![d] })?;
                    let family = match notation {
                        super::code::Notation::Octal => Family::Octal,
                        super::code::Notation::Hex => Family::Hex,
                        super::code::Notation::General => Family::TakeBreak,
                    };
                    (code, family)
                }
            };
            (text, GameKind::Code { code, family })
        }
        Rules::Moves(moves) => {
            let program = Program::new(&moves, &coordinate);
            let lowered = lower_moves(&moves, &program);
            (default_general_name(&source), GameKind::General { program, lowered })
        }
    };
    Ok(Game { name: name.unwrap_or(default_name), description, coordinate, params, kind, source })
}

/// The name of a general game without a `name` line: the file's stem, or "custom rules".
fn default_general_name(source: &SourceFile) -> String {
    if source.name.starts_with('<') {
        return "custom rules".to_string();
    }
    let file = source.name.rsplit(['/', '\\']).next().unwrap_or(&source.name);
    let stem = file.strip_suffix(".sg").unwrap_or(file);
    if stem.is_empty() {
        "custom rules".to_string()
    } else {
        stem.to_string()
    }
}

/// A take-and-break code with exactly the moves of `moves`, if the method of the module
/// documentation finds and verifies one.
pub fn lower_moves(moves: &[CheckedMove], program: &Program) -> Option<TakeBreakCode> {
    let mut constants: u64 = 0;
    for e in moves.iter().flat_map(expressions) {
        if !is_affine(e) {
            return None;
        }
        constants = constants.saturating_add(constant_sum(e));
    }
    let bound = constants.saturating_mul(4).saturating_add(64);
    if bound > MAX_VERIFY_BOUND {
        return None;
    }
    let bound = bound as usize;
    let mut budget = WORK_BUDGET;
    let rule_moves = observe(program, bound, &mut budget)?;
    let code = infer_code(&rule_moves, bound)?;
    for (n, rule_set) in rule_moves.iter().enumerate() {
        if code_moves(&code, n as u64, &mut budget)? != *rule_set {
            return None;
        }
    }
    Some(code)
}

/// Every expression of a rule.
fn expressions(m: &CheckedMove) -> impl Iterator<Item = &CExpr> {
    m.binders.iter().flat_map(|b| [&b.lo, &b.hi]).chain(&m.condition).chain(&m.result)
}

/// True if `e` has no run-time values in it.
fn is_constant(e: &CExpr) -> bool {
    match &e.kind {
        CExprKind::Const(_) => true,
        CExprKind::Slot(_) => false,
        CExprKind::Neg(x) | CExprKind::Not(x) | CExprKind::Abs(x) => is_constant(x),
        CExprKind::Binary(_, a, b) => is_constant(a) && is_constant(b),
        CExprKind::Min(args) | CExprKind::Max(args) => args.iter().all(is_constant),
    }
}

/// The syntactic gate: affine in the slots (see the module documentation).
pub fn is_affine(e: &CExpr) -> bool {
    match &e.kind {
        CExprKind::Const(_) | CExprKind::Slot(_) => true,
        CExprKind::Neg(x) | CExprKind::Not(x) => is_affine(x),
        CExprKind::Abs(_) => false,
        CExprKind::Binary(BinaryOp::Div | BinaryOp::Rem, _, _) => false,
        CExprKind::Binary(BinaryOp::Mul, a, b) => is_affine(a) && is_affine(b) && (is_constant(a) || is_constant(b)),
        CExprKind::Binary(_, a, b) => is_affine(a) && is_affine(b),
        CExprKind::Min(args) | CExprKind::Max(args) => args.iter().all(is_affine),
    }
}

/// Σ |constants| in `e` (saturating).
fn constant_sum(e: &CExpr) -> u64 {
    match &e.kind {
        CExprKind::Const(v) => v.unsigned_abs(),
        CExprKind::Slot(_) => 0,
        CExprKind::Neg(x) | CExprKind::Not(x) | CExprKind::Abs(x) => constant_sum(x),
        CExprKind::Binary(_, a, b) => constant_sum(a).saturating_add(constant_sum(b)),
        CExprKind::Min(args) | CExprKind::Max(args) => args.iter().fold(0, |s, a| s.saturating_add(constant_sum(a))),
    }
}

type MoveSet = BTreeSet<Vec<u64>>;

/// The rule's moves at `n = 0..=bound` as sets of sorted multisets of non-empty heaps.
fn observe(program: &Program, bound: usize, budget: &mut usize) -> Option<Vec<MoveSet>> {
    let mut all = Vec::with_capacity(bound + 1);
    for n in 0..=bound as u64 {
        let mut set = MoveSet::new();
        let mut over_budget = false;
        program
            .for_each_move(n, &mut |heaps| {
                if *budget == 0 {
                    over_budget = true;
                    return;
                }
                *budget -= 1;
                let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
                key.sort_unstable();
                set.insert(key);
            })
            .ok()?;
        if over_budget {
            return None;
        }
        all.push(set);
    }
    Some(all)
}

/// Infers digit masks from observed moves (step 2).
fn infer_code(rule_moves: &[MoveSet], bound: usize) -> Option<TakeBreakCode> {
    let mut masks = vec![0u64; bound + 1];
    for (n, set) in rule_moves.iter().enumerate() {
        for heaps in set {
            let total: u64 = heaps.iter().sum();
            let k = (n as u64).checked_sub(total)? as usize;
            if heaps.len() > MAX_LOWERED_HEAPS {
                return None;
            }
            masks[k] |= 1 << heaps.len();
        }
    }
    if masks[0] & 0b11 != 0 {
        return None;
    }
    let digits = |range: &[u64]| range.iter().map(|&m| Digit::from_mask(m)).collect::<Vec<_>>();
    let last = masks.iter().rposition(|&m| m != 0).unwrap_or(0);
    if last <= bound / 2 {
        return Some(TakeBreakCode { digits: digits(&masks[..=last]), tail: Vec::new() });
    }
    // Digits near the end are only partly observed (bit j of digit k needs n ≥ k + j).
    let observed_to = bound.saturating_sub(MAX_LOWERED_HEAPS);
    for period in 1..=8 {
        for start in 1..=bound / 4 {
            let periodic = (start..=observed_to).all(|k| masks[k] == masks[start + (k - start) % period]);
            if periodic {
                return Some(TakeBreakCode { digits: digits(&masks[..start]), tail: digits(&masks[start..start + period]) });
            }
        }
    }
    None
}

/// The code's moves at `n`, enumerated from the digits (step 3), independently of the rules.
fn code_moves(code: &TakeBreakCode, n: u64, budget: &mut usize) -> Option<MoveSet> {
    let mut set = MoveSet::new();
    for k in 0..=n {
        let digit = code.digit(k as usize);
        if digit.modifier != super::code::Modifier::None {
            return None;
        }
        let rest = n - k;
        for j in 0..=MAX_LOWERED_HEAPS as u32 {
            if !digit.heaps.allows(j) {
                continue;
            }
            let mut parts = Vec::new();
            partitions(rest, j as usize, 1, &mut parts, &mut set, budget)?;
        }
        if digit.heaps.max_heaps().is_none_or_greater(MAX_LOWERED_HEAPS as u32) {
            return None;
        }
    }
    Some(set)
}

/// Adds every partition of `rest` into exactly `parts_left` parts, each ≥ `min`, in
/// non-decreasing order, after the parts already in `parts`.
fn partitions(rest: u64, parts_left: usize, min: u64, parts: &mut Vec<u64>, out: &mut MoveSet, budget: &mut usize) -> Option<()> {
    if parts_left == 0 {
        if rest == 0 {
            *budget = budget.checked_sub(1)?;
            out.insert(parts.clone());
        }
        return Some(());
    }
    let mut part = min;
    while part.saturating_mul(parts_left as u64) <= rest {
        parts.push(part);
        partitions(rest - part, parts_left - 1, part, parts, out, budget)?;
        parts.pop();
        part += 1;
    }
    Some(())
}

trait MaxHeapsExt {
    fn is_none_or_greater(self, limit: u32) -> bool;
}

impl MaxHeapsExt for Option<u32> {
    /// True for "unbounded" or a bound above `limit`.
    fn is_none_or_greater(self, limit: u32) -> bool {
        self.map_or(true, |m| m > limit)
    }
}
