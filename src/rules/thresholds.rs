//! One-heap removal rules lowered by their thresholds: exact for every heap, whatever the size
//! of the constants (`move x in 1..=min(k, n) => n - x` with `k = 10^5`).
//!
//! The general method of [`super::lower`] checks the rules' moves against a code on every heap
//! up to a bound that grows with the constants, so large parameters defeat it. Rules of one
//! shape are decided exactly instead: every rule has at most one binder `x` over a range, its
//! bounds and condition are affine in `n` and `x` (with `min`, `max`, `&&`, `||`, `!`; floor
//! quotients by constants are already rewritten by [`super::linear`]), and it leaves one heap
//! `h = a·n ± x + c` (or `h = n + c` without a binder). Writing `r = n − h` for the tokens
//! removed and substituting `x = ±((1 − a)·n − r − c)`, each comparison becomes an atom `α·n + β·r + γ ≥ 0`; we
//! also require `β ∈ {−1, 0, 1}`. At a given `n`, an atom with `β = 1` holds exactly for
//! `r ≥ t(n)` and one with `β = −1` exactly for `r ≤ t(n)`, with `t` affine in `n` with integer
//! coefficients; an atom with `β = 0` holds or not for every `r`.
//!
//! So the amounts removable at `n`, `R(n)`, form a union of the integer segments between
//! consecutive *cuts* `t(n)` (or `t(n) + 1`), and on each segment every atom has one truth
//! value. A subtraction game with set `S` (finite, or `S ⊇ [s, ∞)`: the code's tail) allows
//! `T(n) = S ∩ [1, n]`, which is again a union of segments between cuts (the constants bounding
//! `S`'s runs, `1` and `n + 1`). Put all cuts of both together, as affine functions of `n`.
//! Between two values of `n` where two cuts cross (are equal) or an atom with `β = 0` changes
//! its truth, the order of the cuts is fixed, every segment between distinct cuts is non-empty,
//! and every segment's membership in `R` and in `T` is fixed. Hence `R(n) = T(n)` at one `n`
//! of such a stretch gives it on the whole stretch. [`lower`] computes `S` from `R` past the last
//! crossing, then compares `R` and `T` at every `n` within a few units of each crossing and at
//! one `n` inside every stretch between them and past the last: a proof for every `n ≥ 0`,
//! in work proportional to the square of the number of atoms, not to the constants.

use super::ast::BinaryOp;
use super::checked::{CExpr, CExprKind, CheckedMove, CheckedValues};
use super::code::{Digit, TakeBreakCode};

/// The most leaves an expression's `min`/`max` tree may have, and the most atoms a rule's
/// formula may have (more is not this shape in practice, and would make the check quadratic in
/// something large).
const MAX_LEAVES: usize = 64;
/// Coefficients of `n` and `x` up to this size (and constants up to [`MAX_CONSTANT`]) keep every
/// value the interpreter computes within `i64` for heaps below 2^40 — so that the rules could not
/// fail with an overflow where the code does not.
const MAX_MULTIPLIER: i128 = 1 << 10;
const MAX_CONSTANT: i128 = 1 << 40;
/// The largest amount a lowered code may list one by one (as `subtraction`'s own limit).
pub const MAX_ELEMENT: i128 = 1 << 20;
/// The `n` around each crossing that are checked: `floor(n*) − WINDOW ..= floor(n*) + WINDOW + 1`.
const WINDOW: i128 = 3;
/// Stands for ±∞ in segment ends (well inside `i128`, far outside any cut).
const INFINITY: i128 = 1 << 100;

/// What [`lower`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The rules are not of this shape, or their removals are no subtraction set: the general
    /// method decides.
    NotThisShape,
    /// The rules are exactly the subtraction game of `code`, for every `n`; `checks` values of
    /// `n` were compared.
    Code {
        /// The code, digit 3 on every amount of the set (tail `[3]` for a cofinite set).
        code: TakeBreakCode,
        /// How many heaps were compared.
        checks: usize,
    },
    /// The rules are a subtraction game whose set lists an amount past [`MAX_ELEMENT`].
    TooLarge {
        /// The largest amount listed.
        largest: u128,
    },
}

/// `n·N + r·R + c` (`r` stands for the binder `x` until a rule's result is known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Affine {
    n: i128,
    r: i128,
    c: i128,
}

impl Affine {
    const fn constant(c: i128) -> Self {
        Affine { n: 0, r: 0, c }
    }

    fn plus(self, o: Affine) -> Option<Affine> {
        Affine {
            n: self.n + o.n,
            r: self.r + o.r,
            c: self.c + o.c,
        }
        .bounded()
    }

    fn times(self, k: i128) -> Option<Affine> {
        Affine {
            n: self.n * k,
            r: self.r * k,
            c: self.c * k,
        }
        .bounded()
    }

    fn bounded(self) -> Option<Affine> {
        (self.n.abs() <= MAX_MULTIPLIER
            && self.r.abs() <= MAX_MULTIPLIER
            && self.c.abs() <= MAX_CONSTANT)
            .then_some(self)
    }

    fn at(self, n: i128, r: i128) -> i128 {
        self.n * n + self.r * r + self.c
    }
}

/// A number: affine leaves under `min` and `max`.
#[derive(Clone, Debug)]
enum Tree {
    Leaf(Affine),
    Min(Vec<Tree>),
    Max(Vec<Tree>),
}

impl Tree {
    fn leaves(&self) -> usize {
        match self {
            Tree::Leaf(_) => 1,
            Tree::Min(ts) | Tree::Max(ts) => ts.iter().map(Tree::leaves).sum(),
        }
    }

    /// `k · self` (a negative factor turns `min` into `max`).
    fn times(&self, k: i128) -> Option<Tree> {
        let all = |ts: &[Tree]| ts.iter().map(|t| t.times(k)).collect::<Option<Vec<_>>>();
        Some(match self {
            Tree::Leaf(a) => Tree::Leaf(a.times(k)?),
            Tree::Min(ts) if k >= 0 => Tree::Min(all(ts)?),
            Tree::Max(ts) if k >= 0 => Tree::Max(all(ts)?),
            Tree::Min(ts) => Tree::Max(all(ts)?),
            Tree::Max(ts) => Tree::Min(all(ts)?),
        })
    }

    /// `self + other`, `min`/`max` distributed over the sum.
    fn plus(&self, other: &Tree) -> Option<Tree> {
        if self.leaves() * other.leaves() > MAX_LEAVES {
            return None;
        }
        let spread = |ts: &[Tree], o: &Tree| ts.iter().map(|t| t.plus(o)).collect::<Option<_>>();
        Some(match (self, other) {
            (Tree::Leaf(a), Tree::Leaf(b)) => Tree::Leaf(a.plus(*b)?),
            (Tree::Min(ts), o) => Tree::Min(spread(ts, o)?),
            (Tree::Max(ts), o) => Tree::Max(spread(ts, o)?),
            (l @ Tree::Leaf(_), o) => o.plus(l)?,
        })
    }

    /// `self ≥ 0` as a formula.
    fn non_negative(&self) -> Formula {
        match self {
            Tree::Leaf(a) => Formula::Atom(*a),
            Tree::Min(ts) => Formula::And(ts.iter().map(Tree::non_negative).collect()),
            Tree::Max(ts) => Formula::Or(ts.iter().map(Tree::non_negative).collect()),
        }
    }
}

/// A condition: atoms `a ≥ 0` under `and` and `or` (negations pushed to the atoms).
#[derive(Clone, Debug)]
enum Formula {
    Const(bool),
    Atom(Affine),
    And(Vec<Formula>),
    Or(Vec<Formula>),
}

impl Formula {
    fn not(self) -> Formula {
        match self {
            Formula::Const(b) => Formula::Const(!b),
            // ¬(a ≥ 0) ⇔ a ≤ −1 ⇔ −a − 1 ≥ 0 over the integers.
            Formula::Atom(a) => Formula::Atom(Affine {
                n: -a.n,
                r: -a.r,
                c: -a.c - 1,
            }),
            Formula::And(fs) => Formula::Or(fs.into_iter().map(Formula::not).collect()),
            Formula::Or(fs) => Formula::And(fs.into_iter().map(Formula::not).collect()),
        }
    }

    fn atoms(&self, out: &mut Vec<Affine>) {
        match self {
            Formula::Const(_) => {}
            Formula::Atom(a) => out.push(*a),
            Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|f| f.atoms(out)),
        }
    }

    fn map_atoms(self, f: &dyn Fn(Affine) -> Option<Affine>) -> Option<Formula> {
        let all = |fs: Vec<Formula>| {
            fs.into_iter()
                .map(|x| x.map_atoms(f))
                .collect::<Option<Vec<_>>>()
        };
        Some(match self {
            Formula::Const(b) => Formula::Const(b),
            Formula::Atom(a) => Formula::Atom(f(a)?),
            Formula::And(fs) => Formula::And(all(fs)?),
            Formula::Or(fs) => Formula::Or(all(fs)?),
        })
    }

    fn holds(&self, n: i128, r: i128) -> bool {
        match self {
            Formula::Const(b) => *b,
            Formula::Atom(a) => a.at(n, r) >= 0,
            Formula::And(fs) => fs.iter().all(|f| f.holds(n, r)),
            Formula::Or(fs) => fs.iter().any(|f| f.holds(n, r)),
        }
    }
}

/// A number expression of slots 0 (`n`) and `binder` (`x`) as a tree, or `None`.
fn tree(e: &CExpr, binder: usize) -> Option<Tree> {
    match &e.kind {
        CExprKind::Const(v) => Some(Tree::Leaf(Affine::constant(i128::from(*v)).bounded()?)),
        CExprKind::Slot(0) => Some(Tree::Leaf(Affine { n: 1, r: 0, c: 0 })),
        CExprKind::Slot(s) if *s == binder => Some(Tree::Leaf(Affine { n: 0, r: 1, c: 0 })),
        CExprKind::Neg(a) => tree(a, binder)?.times(-1),
        CExprKind::Binary(BinaryOp::Add, a, b) => tree(a, binder)?.plus(&tree(b, binder)?),
        CExprKind::Binary(BinaryOp::Sub, a, b) => {
            tree(a, binder)?.plus(&tree(b, binder)?.times(-1)?)
        }
        CExprKind::Binary(BinaryOp::Mul, a, b) => {
            let (a, b) = (tree(a, binder)?, tree(b, binder)?);
            match (&a, &b) {
                (Tree::Leaf(k), t) | (t, Tree::Leaf(k)) if k.n == 0 && k.r == 0 => t.times(k.c),
                _ => None,
            }
        }
        CExprKind::Min(args) | CExprKind::Max(args) => {
            let ts = args
                .iter()
                .map(|a| tree(a, binder))
                .collect::<Option<Vec<_>>>()?;
            if ts.iter().map(Tree::leaves).sum::<usize>() > MAX_LEAVES {
                return None;
            }
            Some(match e.kind {
                CExprKind::Min(_) => Tree::Min(ts),
                _ => Tree::Max(ts),
            })
        }
        _ => None,
    }
}

/// `b − a ≥ 0` (that is `a ≤ b`), shifted by `minus` (`a < b` is `b − a − 1 ≥ 0`).
fn at_most(a: &Tree, b: &Tree, minus: i128) -> Option<Formula> {
    let difference = b
        .plus(&a.times(-1)?)?
        .plus(&Tree::Leaf(Affine::constant(-minus)))?;
    Some(difference.non_negative())
}

/// A condition of slots 0 and `binder` as a formula, or `None`.
fn formula(e: &CExpr, binder: usize) -> Option<Formula> {
    let pair = |a: &CExpr, b: &CExpr| Some((tree(a, binder)?, tree(b, binder)?));
    match &e.kind {
        CExprKind::Const(v) => Some(Formula::Const(*v != 0)),
        CExprKind::Not(a) => Some(formula(a, binder)?.not()),
        CExprKind::Binary(BinaryOp::And, a, b) => {
            Some(Formula::And(vec![formula(a, binder)?, formula(b, binder)?]))
        }
        CExprKind::Binary(BinaryOp::Or, a, b) => {
            Some(Formula::Or(vec![formula(a, binder)?, formula(b, binder)?]))
        }
        CExprKind::Binary(op, a, b) => {
            let (a, b) = pair(a, b)?;
            match op {
                BinaryOp::Le => at_most(&a, &b, 0),
                BinaryOp::Lt => at_most(&a, &b, 1),
                BinaryOp::Ge => at_most(&b, &a, 0),
                BinaryOp::Gt => at_most(&b, &a, 1),
                BinaryOp::Eq => Some(Formula::And(vec![at_most(&a, &b, 0)?, at_most(&b, &a, 0)?])),
                BinaryOp::Ne => Some(Formula::Or(vec![at_most(&a, &b, 1)?, at_most(&b, &a, 1)?])),
                _ => None,
            }
        }
        _ => None,
    }
}

/// One rule as a formula in `(n, r)`: the amounts `r` it removes from `n`.
fn removals(m: &CheckedMove) -> Option<Formula> {
    if m.result.len() != 1 || m.binders.len() > 1 {
        return None;
    }
    let binder = 1; // heap games: slot 0 is `n`, the binder slot 1
    let mut parts = Vec::new();
    if let Some(b) = m.binders.first() {
        let CheckedValues::Range { lo, hi, inclusive } = &b.values else {
            return None;
        };
        let x = Tree::Leaf(Affine { n: 0, r: 1, c: 0 });
        parts.push(at_most(&tree(lo, binder)?, &x, 0)?);
        parts.push(at_most(&x, &tree(hi, binder)?, i128::from(!inclusive))?);
    }
    if let Some(c) = &m.condition {
        parts.push(formula(c, binder)?);
    }
    let Tree::Leaf(h) = tree(&m.result[0], binder)? else {
        return None;
    };
    let mut atoms = Vec::new();
    Formula::And(parts.clone()).atoms(&mut atoms);
    if atoms.len() > MAX_LEAVES {
        return None;
    }
    let whole = Formula::And(parts);
    match (m.binders.is_empty(), h.r) {
        // h = n + c: the rule removes −c when its condition (on `n` only) holds.
        (true, 0) if h.n == 1 => {
            let r = Tree::Leaf(Affine { n: 0, r: 1, c: 0 });
            let removed = Tree::Leaf(Affine::constant(-h.c));
            Some(Formula::And(vec![
                whole,
                at_most(&r, &removed, 0)?,
                at_most(&removed, &r, 0)?,
            ]))
        }
        // h = a·n + b·x + c with b = ±1: r = (1 − a)·n − b·x − c, so
        // x = b·(1 − a)·n − b·r − b·c.
        (false, b @ (1 | -1)) => whole.map_atoms(&|atom| {
            Affine {
                n: atom.n + atom.r * b * (1 - h.n),
                r: -b * atom.r,
                c: atom.c - atom.r * b * h.c,
            }
            .bounded()
        }),
        _ => None,
    }
}

/// A sorted list of disjoint, non-adjacent integer segments `[lo, hi]`.
type Segments = Vec<(i128, i128)>;

/// The cut of an atom with `β ≠ 0` at `n`: the atom holds for `r ≥ cut` (`β = 1`) or for
/// `r < cut` (`β = −1`).
fn cut(a: Affine, n: i128) -> i128 {
    if a.r == 1 {
        -(a.n * n + a.c)
    } else {
        a.n * n + a.c + 1
    }
}

/// The amounts removable at `n`, by the cuts of the atoms.
fn removable(rules: &[Formula], atoms: &[Affine], n: i128) -> Segments {
    let mut cuts: Vec<i128> = atoms
        .iter()
        .filter(|a| a.r != 0)
        .map(|&a| cut(a, n))
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    // The segments: (−∞, c1), [c1, c2), …, [ck, ∞); each tested at one of its points.
    let mut starts = vec![-INFINITY];
    starts.extend(cuts.iter().copied());
    let mut segments: Segments = Vec::new();
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(INFINITY, |next| next - 1);
        let probe = if start == -INFINITY { end } else { start };
        if rules.iter().any(|f| f.holds(n, probe)) {
            match segments.last_mut() {
                Some(last) if last.1 + 1 >= start => last.1 = end,
                _ => segments.push((start, end)),
            }
        }
    }
    segments
}

/// `S ∩ [1, n]`.
fn allowed(set: &Segments, n: i128) -> Segments {
    set.iter()
        .map(|&(lo, hi)| (lo.max(1), hi.min(n)))
        .filter(|(lo, hi)| lo <= hi)
        .collect()
}

/// Decides whether `moves` (already through [`super::linear`]) are a subtraction game, for
/// every heap (module documentation).
pub fn lower(moves: &[CheckedMove]) -> Outcome {
    let Some(rules) = moves.iter().map(removals).collect::<Option<Vec<_>>>() else {
        return Outcome::NotThisShape;
    };
    let mut atoms = Vec::new();
    rules.iter().for_each(|f| f.atoms(&mut atoms));
    if atoms.iter().any(|a| a.r.abs() > 1) || atoms.len() > MAX_LEAVES {
        return Outcome::NotThisShape;
    }
    // Where the shape can change: atoms on `n` alone switch, and cuts cross.
    let mut turns: Vec<i128> = Vec::new();
    let lines: Vec<(i128, i128)> = atoms
        .iter()
        .filter(|a| a.r != 0)
        .map(|&a| (cut(a, 1) - cut(a, 0), cut(a, 0)))
        .chain([(0, 1), (1, 1)]) // the cuts of T: r ≥ 1 and r < n + 1
        .collect();
    for a in atoms.iter().filter(|a| a.r == 0 && a.n != 0) {
        turns.push((-a.c).div_euclid(a.n));
    }
    for (i, &(s1, c1)) in lines.iter().enumerate() {
        for &(s2, c2) in &lines[i + 1..] {
            if s1 != s2 {
                turns.push((c2 - c1).div_euclid(s1 - s2));
            }
        }
    }
    // The set S, read past every turn seen so far (the set's own constants come next).
    let beyond = turns.iter().copied().max().unwrap_or(0).max(0) + 2 * WINDOW + 2;
    let at_beyond = removable(&rules, &atoms, beyond);
    let mut set: Segments = Vec::new();
    for &(lo, hi) in &at_beyond {
        if lo < 1 || hi > beyond {
            return Outcome::NotThisShape;
        }
        set.push((lo, if hi == beyond { INFINITY } else { hi }));
    }
    // The cuts of T: each run of S starts and ends somewhere.
    let mut set_lines = Vec::new();
    for &(lo, hi) in &set {
        set_lines.push((0, lo));
        if hi != INFINITY {
            set_lines.push((0, hi + 1));
        }
    }
    for &(s1, c1) in &lines {
        for &(_, c2) in &set_lines {
            if s1 != 0 {
                turns.push((c2 - c1).div_euclid(s1));
            }
        }
    }
    // Every `n` near a turn, and one between each two and past the last.
    let mut checks: Vec<i128> = turns
        .iter()
        .flat_map(|&t| t - WINDOW..=t + WINDOW + 1)
        .chain(0..=2 * WINDOW)
        .filter(|&n| n >= 0)
        .collect();
    checks.sort_unstable();
    checks.dedup();
    let mut between: Vec<i128> = checks.windows(2).map(|w| (w[0] + w[1]) / 2).collect();
    let last = *checks.last().expect("0 is checked");
    between.extend([last + 1, 2 * last + 17]);
    checks.extend(between);
    checks.sort_unstable();
    checks.dedup();
    for &n in &checks {
        if removable(&rules, &atoms, n) != allowed(&set, n) {
            return Outcome::NotThisShape;
        }
    }
    let listed = set
        .iter()
        .map(|&(lo, hi)| if hi == INFINITY { lo - 1 } else { hi })
        .max()
        .unwrap_or(0);
    if listed > MAX_ELEMENT {
        return Outcome::TooLarge {
            largest: listed as u128,
        };
    }
    Outcome::Code {
        code: subtraction_code(&set),
        checks: checks.len(),
    }
}

/// The code of the subtraction set `set` (a last run to ∞ becomes the tail `[3]`).
fn subtraction_code(set: &Segments) -> TakeBreakCode {
    let cofinite = set.last().is_some_and(|&(_, hi)| hi == INFINITY);
    let listed = set
        .iter()
        .map(|&(lo, hi)| if hi == INFINITY { lo - 1 } else { hi })
        .max()
        .unwrap_or(0)
        .max(0) as usize;
    let mut digits = vec![Digit::default(); listed + 1];
    for &(lo, hi) in set {
        for r in lo..=hi.min(listed as i128) {
            digits[r as usize] = Digit::from_mask(3);
        }
    }
    TakeBreakCode {
        digits,
        tail: if cofinite {
            vec![Digit::from_mask(3)]
        } else {
            Vec::new()
        },
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::code::TakeBreakCode;
    use crate::rules::{load, GameKind, LoweringProof, SourceFile};

    /// The code the rules lowered to, and whether by their thresholds.
    fn lowered(text: &str) -> Option<(String, bool)> {
        let game = load(SourceFile::new("t.sg", text), &[]).unwrap_or_else(|e| panic!("{e}"));
        let by_thresholds = matches!(
            game.lowering().map(|l| l.proof),
            Some(LoweringProof::Thresholds { .. })
        );
        match game.kind {
            GameKind::General { lowered, .. } => lowered.map(|c| (c.to_string(), by_thresholds)),
            _ => panic!("family line"),
        }
    }

    #[test]
    fn bash_lowers_whatever_k() {
        for k in [3u64, 1000, 3000, 100_000, 1 << 20] {
            let text = format!("param k = {k}\nmove x in 1..=min(k, n) => n - x\n");
            let set: Vec<u64> = (1..=k).collect();
            assert_eq!(
                lowered(&text),
                Some((TakeBreakCode::subtraction(&set).to_string(), true)),
                "k = {k}"
            );
        }
        // Past the largest set a code may list: the general rules stay, with the reason.
        let text = "param k = 1000000000\nmove x in 1..=min(k, n) => n - x\n";
        assert_eq!(lowered(text), None);
        let game = load(SourceFile::new("t.sg", text), &[]).unwrap();
        let why = game.not_lowered.expect("a reason").summary();
        assert!(why.contains("1000000000"), "{why}");
    }

    #[test]
    fn other_spellings_and_shapes() {
        let by_thresholds = |text: &str| lowered(text).map(|(code, _)| code);
        // Nim, and Nim but 2 (the tail [3]).
        assert_eq!(
            by_thresholds("move x in 1..=n => n - x"),
            Some("0.[3]".into())
        );
        assert_eq!(
            by_thresholds("move x in 1..=n if x != 2 => n - x"),
            Some("0.30[3]".into())
        );
        // A set with a gap, written with a condition, and a rule without a binder.
        assert_eq!(
            by_thresholds("move x in 2..=5 if x != 4 && x <= n => n - x\nmove if n >= 7 => n - 7"),
            Some("0.0330303".into())
        );
        // A large gap; and "leave y" spelled from the other side (every amount from 5000 on).
        assert_eq!(
            lowered("move if n >= 5000 => n - 5000\nmove x in 1..=min(2, n) => n - x"),
            Some((TakeBreakCode::subtraction(&[1, 2, 5000]).to_string(), true))
        );
        let all_from = TakeBreakCode::subtraction_all_but(&(3..5000).collect::<Vec<_>>());
        assert_eq!(
            lowered("move y in 0..=n - 5000 => y\nmove x in 1..=min(2, n) => n - x"),
            Some((all_from.to_string(), true))
        );
    }

    /// The rules' moves at `n` (sorted heaps left, empty ones dropped), by the interpreter, or
    /// `None` when it stops with an error.
    fn rule_moves(game: &crate::rules::Game, n: u64) -> Option<Vec<Vec<u64>>> {
        let GameKind::General { program, .. } = &game.kind else {
            panic!("general rules");
        };
        let mut moves = Vec::new();
        let mut budget = u64::MAX;
        program
            .for_each_move_within(n, &mut budget, &mut |heaps| {
                let mut left: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
                left.sort_unstable();
                moves.push(left);
            })
            .ok()?;
        moves.sort();
        moves.dedup();
        Some(moves)
    }

    /// A subtraction code's moves at `n`, from its digits (digit 3 at `r`: leave `n − r`).
    fn code_moves(code: &TakeBreakCode, n: u64) -> Vec<Vec<u64>> {
        let mut moves: Vec<Vec<u64>> = (1..=n)
            .filter(|&r| code.digit(r as usize).heaps.mask == 3)
            .map(|r| if r == n { vec![] } else { vec![n - r] })
            .collect();
        moves.sort();
        moves
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(600))]
        /// Random rules of the shape, and near it: whenever they lower by their thresholds, the
        /// interpreter's moves are the code's at every heap to well past every constant (the
        /// constants are at most 40; heaps to 400, and a few far ones).
        #[test]
        fn lowered_by_thresholds_means_the_same_moves(
            rules in proptest::collection::vec(
                (0usize..8, 0usize..8, 0usize..8, 0usize..7, 1i64..40, 1i64..40, 1i64..40),
                1..=3,
            )
        ) {
            let lows = ["1", "1", "0", "A", "n - A", "max(1, n - A)", "min(A, n)", "A + 1"];
            let highs = [
                "n", "min(B, n)", "min(B, n)", "B", "n - 1", "min(B, n - A)", "max(A, B)", "n - B",
            ];
            let conditions = [
                "", " if x != C", " if x <= n", " if n >= A", " if x < C || x > B",
                " if !(x == A)", " if x + A <= n", " if 2 * x <= n",
            ];
            let results = ["n - x", "n - x", "x", "n - x - A", "n - A", "n + x - 2 * x", "x - A"];
            let mut text = String::new();
            for &(lo, hi, cond, res, a, b, c) in &rules {
                let line = format!(
                    "move x in {}..={}{} => {}\n",
                    lows[lo], highs[hi], conditions[cond], results[res]
                );
                text += &line
                    .replace('A', &a.to_string())
                    .replace('B', &b.to_string())
                    .replace('C', &c.to_string());
            }
            let Ok(game) = load(SourceFile::new("t.sg", &text), &[]) else {
                return Ok(());
            };
            let Some(LoweringProof::Thresholds { .. }) = game.lowering().map(|l| l.proof) else {
                return Ok(());
            };
            let GameKind::General { lowered: Some(code), .. } = &game.kind else {
                panic!("lowered");
            };
            for n in (0..=400).chain([1000, 4096, 10_007]) {
                proptest::prop_assert_eq!(
                    rule_moves(&game, n),
                    Some(code_moves(code, n)),
                    "{} at n = {}", text, n
                );
            }
        }
    }

    #[test]
    fn rules_that_are_not_subtraction_games_are_not_lowered_by_thresholds() {
        for text in [
            "move x in 1..=n/2 => n - x",                // grows with n
            "move x in 1..=min(5, n) if n > 3 => n - x", // not at n ≤ 3
            "move x in 1..=min(5, n) => n - 2 * x",      // x scaled: a negative heap
        ] {
            assert!(
                !matches!(lowered(text), Some((_, true))),
                "{text}: {:?}",
                lowered(text)
            );
        }
    }
}
