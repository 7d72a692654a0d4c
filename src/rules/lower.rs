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
//!    points of a finite union of polytopes `{x : A·x ≤ b + c·n}` (min/max and `||` split into
//!    pieces), and each result heap is an affine function of them. As `n` grows, such a
//!    parametric polytope changes combinatorial type (which constraints bind, which pieces are
//!    empty) only at finitely many breakpoints, rational numbers whose size is bounded by the
//!    constants and the products of the multipliers (Cramer's rule); past the last one each
//!    piece grows by translation of its facets, which is how a code's move sets grow.
//! 2. **Inference.** The moves at `n = 0..=V`, with `V = 64 + 4·Σ|constants|·Π|multipliers|`,
//!    give each digit: a move from `n` leaving non-empty heaps `h1..hj` removes `k = n − Σh`
//!    and sets bit `j` of digit `k`. If no move removes more than `V/2` tokens the code is
//!    finite; otherwise a repeating tail (period ≤ 8, starting before `V/4`) is looked for, as
//!    for Nim (`x in 1..=n`: `0.[3]`). If the rules never split into equal heaps where this
//!    code would, the same code with `!` on every splitting digit is the second candidate
//!    (`i in 1..n if 2 * i < n => i, n - i` is Grundy's game `4!.0`).
//! 3. **Verification.** The code's moves are enumerated independently (all partitions of
//!    `n − k` into `j` positive parts for each allowed `(k, j)`) and compared, as sets of
//!    sorted multisets, with the rule's moves for **every** `n ≤ V`. Any difference, any
//!    run-time error, a digit 0 that would move from a heap to itself or remove nothing from an
//!    empty heap, more than three heaps, or a work budget overrun: no lowering. The moves are
//!    never all held at once: step 2 keeps only the digit masks, step 3 the moves of one `n`.
//!
//! Soundness: step 3 is exact on `0..=V`, so the only way to lower wrongly is a rule that
//! agrees with a code up to `V` and departs from it later, at a breakpoint beyond `V`. The
//! bound is chosen so that the breakpoints of the rules seen in practice (thresholds on `n`,
//! on binders, on sums of heaps, with small multipliers) lie below `V/4`; it is a conservative
//! estimate, not a proof for every affine system with several binders and large multipliers.
//! Rules whose move sets grow in proportion to `n` (`2 * x <= n`) never match a code, because
//! a code's moves at small `n` are already those at large `n` translated. The method is
//! conservative by design: a wrong lowering would be a silently wrong table, while a missed
//! one only costs speed. The game keeps `V` ([`Game::lowering`]), so that a period report
//! proved through the code can say that it rests on this argument.

use std::collections::BTreeSet;

use super::ast::BinaryOp;
use super::checked::{CExpr, CExprKind, Checked, CheckedFamily, CheckedMove, Rules};
use super::code::{Digit, Modifier, TakeBreakCode};
use super::{Game, GameKind, Program, RulesError, SourceFile};

/// The largest verification bound `V` tried; rules with larger constants are not lowered.
pub const MAX_VERIFY_BOUND: u64 = 4096;
/// The most heaps a lowered move may leave.
const MAX_LOWERED_HEAPS: usize = 3;
/// The most work units spent on lowering — each binder value and move of the rules, each digit
/// and partition step of a candidate code — so that loading a file stays fast (well under a
/// second) whatever its rules; past it the rules are simply not lowered. The shipped
/// `rules/*.sg` that lower use at most ~33 000.
const WORK_BUDGET: u64 = 2_000_000;

/// Lowers a checked file to a game.
pub fn lower(checked: Checked, source: SourceFile) -> Result<Game, RulesError> {
    let Checked {
        name,
        description,
        coordinate,
        coordinates,
        position_game,
        params,
        play,
        rules,
    } = checked;
    let mut lowering_checked_to = None;
    let (default_name, kind) = match rules {
        Rules::Family { family, span } => {
            let text = source
                .text
                .get(span.start..span.end)
                .unwrap_or("")
                .trim()
                .to_string();
            let code = match family {
                CheckedFamily::Subtraction(set) => TakeBreakCode::subtraction(&set),
                CheckedFamily::SubtractionAllBut(set) => TakeBreakCode::subtraction_all_but(&set),
                CheckedFamily::Code {
                    notation,
                    text,
                    offset,
                } => TakeBreakCode::parse(&text, notation, offset).map_err(|d| RulesError {
                    source: source.clone(),
                    diagnostics: vec![d],
                    more: 0,
                })?,
            };
            (text, GameKind::Code { code })
        }
        Rules::Moves(moves) => {
            let program = Program::new(&moves, &coordinates, position_game);
            // A position game's moves are not heap moves: no code describes them.
            let lowered = if position_game {
                None
            } else {
                lower_moves(&moves, &program)
            };
            if lowered.is_some() {
                lowering_checked_to = verification_bound(&moves);
            }
            (
                default_general_name(&source),
                GameKind::General { program, lowered },
            )
        }
    };
    Ok(Game {
        name: name.unwrap_or(default_name),
        description,
        coordinate,
        params,
        kind,
        source,
        lowering_checked_to,
        play,
    })
}

/// The name of a general game without a `name` line: the file's stem, or "custom rules".
pub(super) fn default_general_name(source: &SourceFile) -> String {
    if source.name.starts_with('<') {
        return "custom rules".to_string();
    }
    let file = source
        .name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&source.name);
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
    // A set binder (`d in divisors(n)`) is not affine in `n`: such rules are never lowered.
    if moves.iter().any(CheckedMove::has_set_binder) {
        return None;
    }
    let bound = verification_bound(moves)? as usize;
    let mut budget = WORK_BUDGET;
    let plain = infer_code(&observe_masks(program, bound, &mut budget)?, bound)?;
    // If the plain code allows splits into equal heaps that the rules do not, the rules may be
    // the code with `!` on its splitting digits (Grundy's game, `4!.0`).
    let unequal = with_unequal_splits(&plain);
    let mut candidates: Vec<TakeBreakCode> = [Some(plain), unequal].into_iter().flatten().collect();
    // Step 3, one `n` at a time (only one `n`'s moves are held), for every candidate still
    // agreeing; the first one left is the plain code if it agrees, else the `!` one.
    for n in 0..=bound as u64 {
        let rule_set = rule_moves(program, n, &mut budget)?;
        let mut agreeing = Vec::with_capacity(candidates.len());
        for code in candidates {
            if code_moves(&code, n, &mut budget)? == rule_set {
                agreeing.push(code);
            }
        }
        candidates = agreeing;
        if candidates.is_empty() {
            return None;
        }
    }
    candidates.into_iter().next()
}

/// The verification bound `V = 64 + 4·Σ|constants|·Π|multipliers|` of `moves` (step 2 of
/// the module documentation), when they pass the syntactic gate (step 1) and
/// `V ≤` [`MAX_VERIFY_BOUND`].
pub fn verification_bound(moves: &[CheckedMove]) -> Option<u64> {
    let mut constants: u64 = 0;
    let mut multipliers: u64 = 1;
    for e in moves.iter().flat_map(expressions) {
        if !is_affine(e) {
            return None;
        }
        constants = constants.saturating_add(constant_sum(e));
        multipliers = multipliers.saturating_mul(multiplier_product(e));
    }
    let bound = constants
        .saturating_mul(multipliers)
        .saturating_mul(4)
        .saturating_add(64);
    (bound <= MAX_VERIFY_BOUND).then_some(bound)
}

/// `code` with the `!` modifier on every digit that allows two or more heaps, if there is one.
fn with_unequal_splits(code: &TakeBreakCode) -> Option<TakeBreakCode> {
    let mut changed = false;
    let mut mark = |d: &Digit| {
        let mut d = *d;
        if d.heaps.mask >> 2 != 0 {
            d.modifier = Modifier::Unequal;
            changed = true;
        }
        d
    };
    let digits = code.digits.iter().map(&mut mark).collect();
    let tail = code.tail.iter().map(&mut mark).collect();
    changed.then_some(TakeBreakCode { digits, tail })
}

/// Every expression of a rule.
fn expressions(m: &CheckedMove) -> impl Iterator<Item = &CExpr> {
    m.binders
        .iter()
        .flat_map(|b| b.expressions())
        .chain(&m.condition)
        .chain(&m.result)
}

/// True if `e` has no run-time values in it.
fn is_constant(e: &CExpr) -> bool {
    !matches!(e.kind, CExprKind::Slot(_)) && e.children().into_iter().all(is_constant)
}

/// The syntactic gate: affine in the slots (see the module documentation).
pub fn is_affine(e: &CExpr) -> bool {
    let affine_children = || e.children().into_iter().all(is_affine);
    match &e.kind {
        CExprKind::Const(_) | CExprKind::Slot(_) => true,
        CExprKind::Neg(_) | CExprKind::Not(_) | CExprKind::Min(_) | CExprKind::Max(_) => {
            affine_children()
        }
        CExprKind::Binary(BinaryOp::Mul, a, b) => {
            affine_children() && (is_constant(a) || is_constant(b))
        }
        CExprKind::Binary(
            BinaryOp::Div
            | BinaryOp::Rem
            | BinaryOp::BitAnd
            | BinaryOp::BitOr
            | BinaryOp::BitXor
            | BinaryOp::Shl
            | BinaryOp::Shr,
            _,
            _,
        ) => false,
        CExprKind::Binary(_, _, _) => affine_children(),
        CExprKind::Abs(_)
        | CExprKind::BitNot(_)
        | CExprKind::Popcount(_)
        | CExprKind::Ctz(_)
        | CExprKind::Bit(_, _)
        | CExprKind::Count(_)
        | CExprKind::Arith(_, _) => false,
    }
}

/// Σ |constants| in `e` (saturating).
fn constant_sum(e: &CExpr) -> u64 {
    let own = e.as_const().map_or(0, i64::unsigned_abs);
    e.children()
        .into_iter()
        .fold(own, |s, c| s.saturating_add(constant_sum(c)))
}

/// Π |c| over the products `c * e` in `e` (saturating; a product that cannot be evaluated
/// counts as unbounded).
fn multiplier_product(e: &CExpr) -> u64 {
    let inner = e
        .children()
        .into_iter()
        .fold(1u64, |p, c| p.saturating_mul(multiplier_product(c)));
    let factor = match &e.kind {
        CExprKind::Binary(BinaryOp::Mul, a, _) if is_constant(a) => {
            a.eval(&[]).map_or(u64::MAX, |v| v.unsigned_abs().max(1))
        }
        CExprKind::Binary(BinaryOp::Mul, _, b) if is_constant(b) => {
            b.eval(&[]).map_or(u64::MAX, |v| v.unsigned_abs().max(1))
        }
        _ => 1,
    };
    inner.saturating_mul(factor)
}

type MoveSet = BTreeSet<Vec<u64>>;

/// Takes `cost` units from `budget`, or `None` when it is spent.
fn spend(budget: &mut u64, cost: u64) -> Option<()> {
    *budget = budget.checked_sub(cost)?;
    Some(())
}

/// Visits the rule's moves at `n`, each as the sorted non-empty heaps it leaves (`None`: a
/// run-time error, or the budget is spent; each binder value and each move costs one unit).
fn for_each_rule_move(
    program: &Program,
    n: u64,
    budget: &mut u64,
    visit: &mut dyn FnMut(Vec<u64>),
) -> Option<()> {
    program
        .for_each_move_within(n, budget, &mut |heaps| {
            let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
            key.sort_unstable();
            visit(key);
        })
        .ok()
}

/// The rule's moves at `n` as a set of sorted multisets of non-empty heaps.
fn rule_moves(program: &Program, n: u64, budget: &mut u64) -> Option<MoveSet> {
    let mut set = MoveSet::new();
    for_each_rule_move(program, n, budget, &mut |key| {
        set.insert(key);
    })?;
    Some(set)
}

/// Step 2's observations: for each `k ≤ bound`, the mask of the heap counts `j` of the moves
/// removing `k` tokens at some `n ≤ bound` (`None`: a move leaving more tokens than `n`, or
/// more than three heaps, a run-time error, or the budget is spent). Nothing is kept of the
/// moves themselves, so memory stays that of one move whatever the rules.
fn observe_masks(program: &Program, bound: usize, budget: &mut u64) -> Option<Vec<u64>> {
    let mut masks = vec![0u64; bound + 1];
    for n in 0..=bound as u64 {
        let mut fits = true;
        for_each_rule_move(program, n, budget, &mut |heaps| {
            let total: u64 = heaps.iter().sum();
            match n.checked_sub(total) {
                Some(k) if heaps.len() <= MAX_LOWERED_HEAPS => {
                    masks[k as usize] |= 1 << heaps.len()
                }
                _ => fits = false,
            }
        })?;
        if !fits {
            return None;
        }
    }
    Some(masks)
}

/// Infers digit masks from observed moves (step 2).
fn infer_code(masks: &[u64], bound: usize) -> Option<TakeBreakCode> {
    if masks[0] & 0b11 != 0 {
        return None;
    }
    let digits = |range: &[u64]| {
        range
            .iter()
            .map(|&m| Digit::from_mask(m))
            .collect::<Vec<_>>()
    };
    let last = masks.iter().rposition(|&m| m != 0).unwrap_or(0);
    if last <= bound / 2 {
        return Some(TakeBreakCode {
            digits: digits(&masks[..=last]),
            tail: Vec::new(),
        });
    }
    // Digits near the end are only partly observed (bit j of digit k needs n ≥ k + j).
    let observed_to = bound.saturating_sub(MAX_LOWERED_HEAPS);
    for period in 1..=8 {
        for start in 1..=bound / 4 {
            let periodic =
                (start..=observed_to).all(|k| masks[k] == masks[start + (k - start) % period]);
            if periodic {
                return Some(TakeBreakCode {
                    digits: digits(&masks[..start]),
                    tail: digits(&masks[start..start + period]),
                });
            }
        }
    }
    None
}

/// The code's moves at `n`, enumerated from the digits (step 3), independently of the rules.
fn code_moves(code: &TakeBreakCode, n: u64, budget: &mut u64) -> Option<MoveSet> {
    let mut set = MoveSet::new();
    for k in 0..=n {
        spend(budget, 1)?;
        let digit = code.digit(k as usize);
        if !matches!(digit.modifier, Modifier::None | Modifier::Unequal) {
            return None;
        }
        let rest = n - k;
        for j in 0..=MAX_LOWERED_HEAPS as u32 {
            if !digit.heaps.allows(j) {
                continue;
            }
            // `!`: the heaps left must all differ, i.e. the sorted parts strictly increase.
            let distinct = digit.modifier == Modifier::Unequal;
            partitions(
                Partitions {
                    rest,
                    parts_left: j as usize,
                    min: 1,
                    distinct,
                },
                &mut Vec::new(),
                &mut set,
                budget,
            )?;
        }
        if digit
            .heaps
            .max_heaps()
            .is_none_or(|most| most > MAX_LOWERED_HEAPS as u32)
        {
            return None;
        }
    }
    Some(set)
}

/// What is left to choose of a partition.
#[derive(Clone, Copy)]
struct Partitions {
    /// The sum still to reach.
    rest: u64,
    /// How many parts are still to choose.
    parts_left: usize,
    /// The smallest allowed next part.
    min: u64,
    /// Parts must strictly increase (all sizes different).
    distinct: bool,
}

/// Adds every partition of `p.rest` into exactly `p.parts_left` parts, each ≥ `p.min`, in
/// non-decreasing (strictly increasing if `p.distinct`) order, after the parts in `parts`.
fn partitions(
    p: Partitions,
    parts: &mut Vec<u64>,
    out: &mut MoveSet,
    budget: &mut u64,
) -> Option<()> {
    if p.parts_left == 0 {
        if p.rest == 0 {
            spend(budget, 1)?;
            out.insert(parts.clone());
        }
        return Some(());
    }
    if p.parts_left == 1 {
        // The last part is what is left: one step, not a scan of every size up to it.
        if p.rest >= p.min {
            spend(budget, 1)?;
            parts.push(p.rest);
            out.insert(parts.clone());
            parts.pop();
        }
        return Some(());
    }
    let mut part = p.min;
    while part.saturating_mul(p.parts_left as u64) <= p.rest {
        spend(budget, 1)?;
        parts.push(part);
        let next_min = if p.distinct { part + 1 } else { part };
        let next = Partitions {
            rest: p.rest - part,
            parts_left: p.parts_left - 1,
            min: next_min,
            distinct: p.distinct,
        };
        partitions(next, parts, out, budget)?;
        parts.pop();
        part += 1;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{check, load, parser};
    use proptest::prelude::*;

    fn masks(digits: &[Digit]) -> Vec<u64> {
        digits.iter().map(|d| d.heaps.mask).collect()
    }

    fn lowered(text: &str) -> Option<TakeBreakCode> {
        let game = load(SourceFile::new("t.sg", text), &[]).unwrap_or_else(|e| panic!("{e}"));
        match game.kind {
            GameKind::General { lowered, .. } => lowered,
            GameKind::Code { .. } | GameKind::Graph { .. } => panic!("family line"),
        }
    }

    #[test]
    fn known_games_lower_to_their_codes() {
        // Codeforces 1704F: remove two adjacent tokens, anywhere: Dawson's Kayles 0.07.
        let dawson = lowered("move i in 0..=n-2 => i, n - 2 - i").expect("0.07");
        assert_eq!(
            (masks(&dawson.digits), masks(&dawson.tail)),
            (vec![0, 0, 7], vec![])
        );
        // AtCoder ABC278G: remove L..=R adjacent tokens: 0.0777 for L = 2, R = 4.
        let abc = lowered(
            "param L = 2\nparam R = 4\nmove len in L..=R, a in 0..=n-len => a, n - a - len",
        )
        .expect("0.0777");
        assert_eq!(masks(&abc.digits), vec![0, 0, 7, 7, 7]);
        let abc2 = lowered("move a in 0..=n, len in 2..=4 if a + len <= n => a, n - a - len")
            .expect("same game");
        assert_eq!(abc2, abc);
        // Bash game with k = 3: 0.333.
        let bash = lowered("param k = 3\nmove take: x in 1..=min(k, n) => n - x").expect("0.333");
        assert_eq!(masks(&bash.digits), vec![0, 3, 3, 3]);
        // Nim: 0.[3].
        let nim = lowered("move x in 1..=n => n - x").expect("0.[3]");
        assert_eq!((masks(&nim.digits), masks(&nim.tail)), (vec![0], vec![3]));
        // Splitting a heap into two non-empty heaps without removing any: 4.0.
        let split = lowered("move i in 1..n => i, n - i").expect("4.0");
        assert_eq!(masks(&split.digits), vec![4]);
        // Kayles 0.77: remove one or two adjacent tokens.
        // Grundy's game: split a heap into two heaps of different sizes: 4!.0.
        let grundy = lowered("move i in 1..n if 2 * i < n => i, n - i").expect("4!.0");
        assert_eq!(masks(&grundy.digits), vec![4]);
        assert_eq!(grundy.digits[0].modifier, Modifier::Unequal);
        assert_eq!(
            lowered("move i in 1..n if i != n - i => i, n - i"),
            Some(grundy)
        );
        // 0.07!: remove two tokens, leaving no heap, one heap, or two heaps of different sizes.
        let unequal = lowered("move i in 0..=n-2 if i != n - 2 - i || i == 0 => i, n - 2 - i")
            .expect("0.07!");
        assert_eq!(
            (masks(&unequal.digits), unequal.digits[2].modifier),
            (vec![0, 0, 7], Modifier::Unequal)
        );
        // Removing a whole heap of any size: 0.[1].
        let all = lowered("move if n >= 1 => none").expect("0.[1]");
        assert_eq!((masks(&all.digits), masks(&all.tail)), (vec![0], vec![1]));
        let kayles = lowered("move k in 1..=2, i in 0..=n-k => i, n - k - i").expect("0.77");
        assert_eq!(masks(&kayles.digits), vec![0, 7, 7]);
    }

    #[test]
    fn expensive_rules_give_up_quickly() {
        // Constants of about 1000 make V ≈ 4000; three nested binders would need ~10^13 steps.
        let text = "move a in 0..=n, b in 0..=n, c in 0..=n if a + b + c == n + 500 - 500 => none";
        let started = std::time::Instant::now();
        assert_eq!(lowered(text), None);
        assert!(started.elapsed().as_secs() < 20);
    }

    #[test]
    fn large_constants_are_bounded_in_time_and_memory() {
        // Issue 14 item 4: V = 4064 with ~3000 moves at each n took 19 s and 454 MB to verify
        // (every move set was kept, and each partition scanned every size up to n).
        for text in [
            "move take: x in 1000..=n => n - x",
            "move take: x in 500..=n => n - x",
        ] {
            let started = std::time::Instant::now();
            let _ = lowered(text);
            assert!(started.elapsed().as_secs() < 5, "{text}");
        }
        // A budget that the verification fits in still lowers it to the right code.
        let game = crate::rules::testing::game("move x in 100..=n => n - x");
        let code = game.code().expect("0.00…0[3]");
        assert_eq!(code.digits.len(), 100);
        assert_eq!(masks(&code.tail), vec![3]);
    }

    #[test]
    fn rules_that_are_not_codes_do_not_lower() {
        let cases = [
            "move d in 1..n if n % d == 0 => n - d", // `%`: gated out
            "move x in 1..=min(3, n) if n < 50 => n - x", // stops at 50
            "move x in 1..=n if 2 * x <= n => n - x", // take at most half
            "move x in 1..=n/2 => n - x",            // the same, gated out
            "move x in 0..=2 => n - x",              // a heap equal to n: run-time error
            "move if n % 2 == 1 => none",            // `%`: gated out
            "move if n == 0 => none",                // a move from the empty heap
            "move x in 1..=3 if x != n - 1 => n - x", // depends on n - x
            "move i in 0..=n-1, j in 0..=n-1-i => i, j, n - 1 - i - j, 1", // depends on sizes
        ];
        for text in cases {
            assert_eq!(lowered(text), None, "{text}");
        }
    }

    /// A random rule file from a small grammar of affine rules (with an occasional non-affine
    /// condition, which must then simply not lower).
    fn affine_rule_file() -> impl Strategy<Value = String> {
        let rule = prop_oneof![
            (1..4i64, 0..5i64).prop_map(|(a, b)| format!("move x in {a}..={} => n - x", a + b)),
            (1..4i64, 0..3i64)
                .prop_map(|(a, c)| format!("move x in {a}..=min(k, n - {c}) => n - x")),
            (0..4i64).prop_map(|c| format!("move i in 0..=n-{c} => i, n - {c} - i")),
            (1..4i64, 0..3i64).prop_map(|(c, d)| format!(
                "move i in 1..n-{c} if i + {d} <= n - {c} - i => i, n - {c} - i"
            )),
            (1..3i64, 0..3i64).prop_map(|(l, w)| format!(
                "move len in {l}..={}, a in 0..=n-len => a, n - a - len",
                l + w
            )),
            (0..3i64).prop_map(|c| format!("move x in 1..=n if x != {c} => n - x")),
            (1..6i64).prop_map(|c| format!("move if n == {c} => none")),
            (1..4i64).prop_map(|c| format!("move x in 1..=n if x <= {c} || x >= n - 1 => n - x")),
            (1..9i64).prop_map(|c| format!("move x in 1..=min(n, {c}) if n >= {c} => n - x")),
            (2..4i64).prop_map(|c| format!("move x in 1..=n if x % {c} == 0 => n - x")),
            (0..3i64)
                .prop_map(|c| format!("move i in 1..n-{c} if 2 * i < n - {c} => i, n - {c} - i")),
            (0..3i64)
                .prop_map(|c| format!("move i in 1..n-{c} if 2 * i <= n - {c} => i, n - {c} - i")),
        ];
        (1..5i64, prop::collection::vec(rule, 1..4))
            .prop_map(|(k, rules)| format!("param k = {k}\n{}\n", rules.join("\n")))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]

        /// When a random affine rule file lowers, the code's moves equal the rule's moves far
        /// beyond the verification bound.
        #[test]
        fn lowered_code_has_the_rules_moves(text in affine_rule_file()) {
            let file = parser::parse(&text).unwrap();
            let checked = check::check(&file, &[]).unwrap();
            let Rules::Moves(moves) = &checked.rules else { unreachable!() };
            let program = Program::new(moves, &["n".to_string()], false);
            if let Some(code) = lower_moves(moves, &program) {
                let mut budget = u64::MAX / 2;
                for n in 0..=200 {
                    let want = rule_moves(&program, n, &mut budget).expect("lowering ran the rules without error");
                    let got = code_moves(&code, n, &mut budget).unwrap();
                    prop_assert_eq!(got, want, "n = {}", n);
                }
            }
        }
    }
}

#[cfg(test)]
mod docs_examples {
    use crate::rules::{load, SourceFile};

    /// Every ```sg block of docs/rules.md loads (family code lines are parsed by another module
    /// and only checked for syntax here).
    #[test]
    fn rules_md_examples_load() {
        let doc = include_str!("../../docs/rules.md");
        let mut blocks = 0;
        for block in doc.split("```sg\n").skip(1) {
            let text = block.split("```").next().unwrap();
            blocks += 1;
            let has_code = text.lines().any(|l| {
                ["octal", "hex", "takebreak"]
                    .iter()
                    .any(|f| l.starts_with(f))
            });
            if has_code {
                assert!(crate::rules::parser::parse(text).is_ok(), "{text}");
            } else if let Err(e) = load(SourceFile::new("docs/rules.md", text), &[]) {
                panic!("{e}");
            }
        }
        assert!(blocks >= 3);
    }
}
