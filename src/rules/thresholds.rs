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
//!
//! A rule may also leave two heaps `(u, n − r − u)`, with a second binder `y` for the split
//! (`move a in 0..=n, len in L..=R if a + len <= n => a, n - a - len`, AtCoder ABC278 G). When
//! every atom on `u` stands in the rule's top conjunction, the allowed `u` at `(n, r)` form an
//! interval. Four one-heap formulas follow by fixing `u` (to `0`, `n − r`, `−1`, `n − r + 1`)
//! and a fifth by eliminating it (Fourier–Motzkin: every lower bound at most every upper one).
//! If the first two and the fifth prove the same set `S` and the last two the empty set, then
//! for `r ∈ S ∩ [1, n]` the interval is exactly `0..=n − r`: the rest left whole or split in two
//! every way, which is digit 7 at `r`.

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
    /// The rules are exactly the game of `code`, for every `n`; `checks` values of `n` were
    /// compared.
    Code {
        /// The code: digit 7 on the amounts removed with a split, 3 on the other amounts
        /// removed, a tail for a run to ∞.
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

/// `n·N + r·R + u·U + c`. While a rule is read, `r` stands for the binder `x` and `u` for the
/// split binder `y`; once its result is known, `r` is the amount removed and `u` the size of
/// the first heap left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Affine {
    n: i128,
    r: i128,
    u: i128,
    c: i128,
}

impl Affine {
    const N: Affine = Affine {
        n: 1,
        r: 0,
        u: 0,
        c: 0,
    };
    const R: Affine = Affine {
        n: 0,
        r: 1,
        u: 0,
        c: 0,
    };
    const U: Affine = Affine {
        n: 0,
        r: 0,
        u: 1,
        c: 0,
    };

    const fn constant(c: i128) -> Self {
        Affine {
            n: 0,
            r: 0,
            u: 0,
            c,
        }
    }

    fn plus(self, o: Affine) -> Option<Affine> {
        Affine {
            n: self.n + o.n,
            r: self.r + o.r,
            u: self.u + o.u,
            c: self.c + o.c,
        }
        .bounded()
    }

    fn times(self, k: i128) -> Option<Affine> {
        Affine {
            n: self.n * k,
            r: self.r * k,
            u: self.u * k,
            c: self.c * k,
        }
        .bounded()
    }

    fn bounded(self) -> Option<Affine> {
        (self.n.abs() <= MAX_MULTIPLIER
            && self.r.abs() <= MAX_MULTIPLIER
            && self.u.abs() <= MAX_MULTIPLIER
            && self.c.abs() <= MAX_CONSTANT)
            .then_some(self)
    }

    /// `self` with `r` replaced by `by` (an affine form of `n`, `r`, `u`).
    fn put_r(self, by: Affine) -> Option<Affine> {
        Affine { r: 0, ..self }.plus(by.times(self.r)?)
    }

    /// `self` with `u` replaced by `by`.
    fn put_u(self, by: Affine) -> Option<Affine> {
        Affine { u: 0, ..self }.plus(by.times(self.u)?)
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
                u: -a.u,
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

/// The slots of a heap game's rule: 0 is `n`, binder `i` is slot `1 + i`; the first binder is
/// read as `r`'s variable, the second as `u`'s.
type Binders = usize;

/// A number expression of `n` and the rule's binders as a tree, or `None`.
fn tree(e: &CExpr, binders: Binders) -> Option<Tree> {
    match &e.kind {
        CExprKind::Const(v) => Some(Tree::Leaf(Affine::constant(i128::from(*v)).bounded()?)),
        CExprKind::Slot(0) => Some(Tree::Leaf(Affine::N)),
        CExprKind::Slot(1) if binders >= 1 => Some(Tree::Leaf(Affine::R)),
        CExprKind::Slot(2) if binders >= 2 => Some(Tree::Leaf(Affine::U)),
        CExprKind::Neg(a) => tree(a, binders)?.times(-1),
        CExprKind::Binary(BinaryOp::Add, a, b) => tree(a, binders)?.plus(&tree(b, binders)?),
        CExprKind::Binary(BinaryOp::Sub, a, b) => {
            tree(a, binders)?.plus(&tree(b, binders)?.times(-1)?)
        }
        CExprKind::Binary(BinaryOp::Mul, a, b) => {
            let (a, b) = (tree(a, binders)?, tree(b, binders)?);
            match (&a, &b) {
                (Tree::Leaf(k), t) | (t, Tree::Leaf(k)) if k.n == 0 && k.r == 0 && k.u == 0 => {
                    t.times(k.c)
                }
                _ => None,
            }
        }
        CExprKind::Min(args) | CExprKind::Max(args) => {
            let ts = args
                .iter()
                .map(|a| tree(a, binders))
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

/// A condition of `n` and the rule's binders as a formula, or `None`.
fn formula(e: &CExpr, binders: Binders) -> Option<Formula> {
    let pair = |a: &CExpr, b: &CExpr| Some((tree(a, binders)?, tree(b, binders)?));
    match &e.kind {
        CExprKind::Const(v) => Some(Formula::Const(*v != 0)),
        CExprKind::Not(a) => Some(formula(a, binders)?.not()),
        CExprKind::Binary(BinaryOp::And, a, b) => Some(Formula::And(vec![
            formula(a, binders)?,
            formula(b, binders)?,
        ])),
        CExprKind::Binary(BinaryOp::Or, a, b) => Some(Formula::Or(vec![
            formula(a, binders)?,
            formula(b, binders)?,
        ])),
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

/// What one rule allows at `n`, as formulas in `(n, r)`.
// One per rule of a file, read once: the size of a split does not matter.
#[allow(clippy::large_enum_variant)]
enum Rule {
    /// It leaves one heap `n − r`, for exactly the `r` where the formula holds.
    OneHeap(Formula),
    /// It leaves two heaps `(u, n − r − u)`: the rule's formula with `u` fixed, and the `r` for
    /// which some `u` is allowed. If `exists`, `at_zero` and `at_full` hold for the same `r` at
    /// every `n`, and `below` and `above` for none, then for each such `r` the allowed `u`
    /// (an interval: the `u`-atoms form a conjunction) are exactly `0..=n − r`: every split of
    /// the rest, and the rest whole — the moves of digit 7 at `r`.
    Split {
        exists: Formula,
        at_zero: Formula,
        at_full: Formula,
        below: Formula,
        above: Formula,
    },
}

/// `a` with the roles of `r` and `u` exchanged.
fn swapped(a: Affine) -> Option<Affine> {
    Some(Affine {
        r: a.u,
        u: a.r,
        ..a
    })
}

/// `r = −c` as a formula (a rule without a removal binder removes a constant).
fn removes_constant(c: i128) -> Formula {
    Formula::And(vec![
        Formula::Atom(Affine {
            r: 1,
            c,
            ..Affine::default()
        }),
        Formula::Atom(Affine {
            r: -1,
            c: -c,
            ..Affine::default()
        }),
    ])
}

/// One rule in `(n, r)` (and `u` for a split), or `None` when it is not of the shape.
fn rule(m: &CheckedMove) -> Option<Rule> {
    let binders = m.binders.len();
    if binders > 2 || !(1..=2).contains(&m.result.len()) {
        return None;
    }
    let mut parts = Vec::new();
    for (i, b) in m.binders.iter().enumerate() {
        let CheckedValues::Range { lo, hi, inclusive } = &b.values else {
            return None;
        };
        let v = Tree::Leaf([Affine::R, Affine::U][i]);
        parts.push(at_most(&tree(lo, binders)?, &v, 0)?);
        parts.push(at_most(&v, &tree(hi, binders)?, i128::from(!inclusive))?);
    }
    if let Some(c) = &m.condition {
        parts.push(formula(c, binders)?);
    }
    let heaps = m
        .result
        .iter()
        .map(|e| match tree(e, binders)? {
            Tree::Leaf(a) => Some(a),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let mut whole = Formula::And(parts);
    let mut atoms = Vec::new();
    whole.atoms(&mut atoms);
    if atoms.len() > MAX_LEAVES {
        return None;
    }
    let mut left = heaps
        .iter()
        .try_fold(Affine::default(), |sum, h| sum.plus(*h))?;
    let mut first = heaps[0];
    // In a split the heaps' total depends on the removal binder only: make the other one `u`.
    let split = heaps.len() == 2;
    if split && (left.u != 0 || binders == 1) {
        if left.r != 0 {
            return None;
        }
        whole = whole.map_atoms(&swapped)?;
        left = swapped(left)?;
        first = swapped(first)?;
    }
    let has_removal_binder = binders == if split { 2 } else { 1 };
    if !split && binders > 1 {
        return None;
    }
    // r = n − left: with a removal binder x and left = a·n + b·x + c (b = ±1),
    // x = b·(1 − a)·n − b·r − b·c; without one, left must be n + c and r = −c.
    if has_removal_binder {
        let b = left.r;
        if b.abs() != 1 {
            return None;
        }
        let x = Affine {
            n: b * (1 - left.n),
            r: -b,
            u: 0,
            c: -b * left.c,
        };
        whole = whole.map_atoms(&|a| a.put_r(x))?;
        first = first.put_r(x)?;
    } else {
        if left.n != 1 || left.r != 0 || left.u != 0 {
            return None;
        }
        whole = Formula::And(vec![whole, removes_constant(left.c)]);
    }
    if !split {
        return Some(Rule::OneHeap(whole));
    }
    // The first heap u = first(n, r) + d·y with d = ±1: y = d·(u − first(n, r)).
    let d = first.u;
    if d.abs() != 1 {
        return None;
    }
    let y = Affine {
        n: -d * first.n,
        r: -d * first.r,
        u: d,
        c: -d * first.c,
    };
    let whole = whole.map_atoms(&|a| a.put_u(y))?;
    let with_u = |u: Affine| whole.clone().map_atoms(&|a| a.put_u(u));
    let rest = Affine {
        n: 1,
        r: -1,
        ..Affine::default()
    };
    Some(Rule::Split {
        exists: exists_u(&whole)?,
        at_zero: with_u(Affine::default())?,
        at_full: with_u(rest)?,
        below: with_u(Affine::constant(-1))?,
        above: with_u(rest.plus(Affine::constant(1))?)?,
    })
}

/// `∃u` of a formula whose atoms on `u` (coefficient ±1) all stand in its top conjunction:
/// the conjunction of its other parts and of `lower ≤ upper` for every two bounds on `u`
/// (Fourier–Motzkin elimination), or `None` if `u` is unbounded or sits under an `or`.
fn exists_u(whole: &Formula) -> Option<Formula> {
    fn flatten(f: &Formula, out: &mut Vec<Formula>) {
        match f {
            Formula::And(fs) => fs.iter().for_each(|f| flatten(f, out)),
            other => out.push(other.clone()),
        }
    }
    let mut parts = Vec::new();
    flatten(whole, &mut parts);
    let (mut lower, mut upper, mut others) = (Vec::new(), Vec::new(), Vec::new());
    for part in parts {
        match part {
            Formula::Atom(a) if a.u == 1 => lower.push(a),
            Formula::Atom(a) if a.u == -1 => upper.push(a),
            Formula::Atom(a) if a.u != 0 => return None,
            other => {
                let mut atoms = Vec::new();
                other.atoms(&mut atoms);
                if atoms.iter().any(|a| a.u != 0) {
                    return None;
                }
                others.push(other);
            }
        }
    }
    if lower.is_empty() || upper.is_empty() || lower.len() * upper.len() > MAX_LEAVES {
        return None;
    }
    // u + L ≥ 0 and −u + U ≥ 0 for some u ⇔ L + U ≥ 0.
    for l in &lower {
        for h in &upper {
            others.push(Formula::Atom(l.plus(*h)?));
        }
    }
    Some(Formula::And(others))
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

/// The set `S` with `R(n) = S ∩ [1, n]` at every `n`, where `R(n)` is the amounts for which one
/// of `rules` holds, and how many `n` were compared; `None` if there is no such set (or the
/// rules are not of the shape).
fn subtraction_set(rules: &[Formula]) -> Option<(Segments, usize)> {
    let mut atoms = Vec::new();
    rules.iter().for_each(|f| f.atoms(&mut atoms));
    if atoms.iter().any(|a| a.r.abs() > 1 || a.u != 0) || atoms.len() > MAX_LEAVES {
        return None;
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
    let mut set: Segments = Vec::new();
    for (lo, hi) in removable(rules, &atoms, beyond) {
        if lo < 1 || hi > beyond {
            return None;
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
    checks
        .iter()
        .all(|&n| removable(rules, &atoms, n) == allowed(&set, n))
        .then_some((set, checks.len()))
}

/// Decides whether `moves` (already through [`super::linear`]) are a code whose digits are 3
/// (remove, leave one heap) or 7 (remove, leave the rest whole or split in two every way), for
/// every heap (module documentation).
pub fn lower(moves: &[CheckedMove]) -> Outcome {
    let Some(rules) = moves.iter().map(rule).collect::<Option<Vec<_>>>() else {
        return Outcome::NotThisShape;
    };
    let mut checks = 0;
    let mut proved = |formulas: &[Formula]| {
        let (set, count) = subtraction_set(formulas)?;
        checks += count;
        Some(set)
    };
    let one_heap: Vec<Formula> = rules
        .iter()
        .filter_map(|r| match r {
            Rule::OneHeap(f) => Some(f.clone()),
            Rule::Split { .. } => None,
        })
        .collect();
    let single = if one_heap.is_empty() {
        Some(Vec::new())
    } else {
        proved(&one_heap)
    };
    let Some(single) = single else {
        return Outcome::NotThisShape;
    };
    let mut split: Segments = Vec::new();
    for r in &rules {
        let Rule::Split {
            exists,
            at_zero,
            at_full,
            below,
            above,
        } = r
        else {
            continue;
        };
        let Some(set) = proved(std::slice::from_ref(exists)) else {
            return Outcome::NotThisShape;
        };
        let same = [at_zero, at_full]
            .into_iter()
            .all(|f| proved(std::slice::from_ref(f)).as_ref() == Some(&set));
        let outside = [below, above]
            .into_iter()
            .all(|f| proved(std::slice::from_ref(f)).is_some_and(|s| s.is_empty()));
        if !same || !outside {
            return Outcome::NotThisShape;
        }
        split = union(&split, &set);
    }
    let listed = listed(&single).max(listed(&split));
    if listed > MAX_ELEMENT {
        return Outcome::TooLarge {
            largest: listed as u128,
        };
    }
    Outcome::Code {
        code: code_of(&single, &split, listed as usize),
        checks,
    }
}

/// The largest amount a set lists before its tail (a last run to ∞ from `s` lists `s − 1`).
fn listed(set: &Segments) -> i128 {
    set.iter()
        .map(|&(lo, hi)| if hi == INFINITY { lo - 1 } else { hi })
        .max()
        .unwrap_or(0)
        .max(0)
}

/// The union of two segment lists.
fn union(a: &Segments, b: &Segments) -> Segments {
    let mut all: Segments = a.iter().chain(b).copied().collect();
    all.sort_unstable();
    let mut merged: Segments = Vec::new();
    for (lo, hi) in all {
        match merged.last_mut() {
            Some(last) if last.1 + 1 >= lo => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    merged
}

/// The code with digit 7 on `split`, 3 on the rest of `single`, digits listed to `listed` and a
/// tail for a run to ∞.
fn code_of(single: &Segments, split: &Segments, listed: usize) -> TakeBreakCode {
    let has = |set: &Segments, r: i128| set.iter().any(|&(lo, hi)| lo <= r && r <= hi);
    let digit = |r: i128| {
        if has(split, r) {
            Digit::from_mask(7)
        } else if has(single, r) {
            Digit::from_mask(3)
        } else {
            Digit::default()
        }
    };
    let digits = (0..=listed as i128).map(digit).collect();
    let tail_digit = digit(INFINITY);
    TakeBreakCode {
        digits,
        tail: if tail_digit.is_empty() {
            Vec::new()
        } else {
            vec![tail_digit]
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

    /// A code's moves at `n`, from its digits read independently of the engines: digit 3 at
    /// `r` leaves `n − r`, digit 7 also every split of `n − r` into two heaps.
    fn code_moves(code: &TakeBreakCode, n: u64) -> Vec<Vec<u64>> {
        let mut moves: Vec<Vec<u64>> = Vec::new();
        for r in 1..=n {
            let mask = code.digit(r as usize).heaps.mask;
            assert!(mask == 0 || mask == 3 || mask == 7, "digit {mask}");
            if mask != 0 {
                moves.push(if r == n { vec![] } else { vec![n - r] });
            }
            if mask == 7 {
                moves.extend(
                    (1..=(n - r) / 2)
                        .filter(|&a| a < n - r)
                        .map(|a| vec![a, n - r - a]),
                );
            }
        }
        moves.sort();
        moves.dedup();
        moves
    }

    /// When the rules `text` lower by their thresholds, the first heap among `heaps` where the
    /// interpreter's moves are not the code's (described), else `None`.
    fn difference(text: &str, heaps: impl Iterator<Item = u64>) -> Option<String> {
        let game = load(SourceFile::new("t.sg", text), &[]).ok()?;
        let Some(LoweringProof::Thresholds { .. }) = game.lowering().map(|l| l.proof) else {
            return None;
        };
        let GameKind::General {
            lowered: Some(code),
            ..
        } = &game.kind
        else {
            panic!("lowered");
        };
        heaps
            .map(|n| (n, rule_moves(&game, n), code_moves(code, n)))
            .find(|(_, rules, code)| rules.as_ref() != Some(code))
            .map(|(n, rules, code)| format!("{text} at n = {n}: rules {rules:?}, code {code:?}"))
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
            let difference = difference(&text, (0..=400).chain([1000, 4096, 10_007]));
            proptest::prop_assert!(difference.is_none(), "{}", difference.unwrap_or_default());
        }
    }

    #[test]
    fn block_removal_lowers_whatever_its_bounds() {
        // AtCoder ABC278 G: remove a block of L..=R cards from a row; 7s at L..=R.
        for (l, r) in [(2u64, 3u64), (1, 1), (700, 1500), (5000, 5000)] {
            let text = format!(
                "param L = {l}\nparam R = {r}\n\
                 move a in 0..=n, len in L..=R if a + len <= n => a, n - a - len\n"
            );
            let expected: String = (0..=r).map(|i| if i >= l { '7' } else { '0' }).collect();
            let expected = format!("0.{}", &expected[1..]);
            assert_eq!(lowered(&text), Some((expected, true)), "L = {l}, R = {r}");
        }
        // Codeforces 1704F: remove 2, the rest split any way (`0.07`), spelled without a
        // removal binder; and a block with the rest always split in two is not digit 7.
        assert_eq!(
            lowered("move i in 0..=n-2 => i, n - 2 - i"),
            Some(("0.07".into(), true))
        );
        assert!(!matches!(
            lowered("move a in 1..=n, len in 2..=3 if a + len < n => a, n - a - len"),
            Some((_, true))
        ));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        /// Random block removals (with one-heap rules beside them): whenever they lower by
        /// their thresholds, the interpreter's moves are the code's at every heap to well past
        /// every constant.
        #[test]
        fn block_removals_lowered_mean_the_same_moves(
            lo in 0usize..4, hi in 0usize..4, split in 0usize..5, extra in 0usize..4,
            a in 1i64..30, b in 1i64..30, c in 1i64..30,
        ) {
            let lows = ["A", "1", "max(1, n - B)", "A + 1"];
            let highs = ["B", "min(B, n)", "n", "A + B"];
            let splits = [
                "u in 0..=n if u + x <= n => u, n - x - u",
                "u in 0..=n - x => u, n - x - u",
                "u in 0..=n - x => n - x - u, u",
                "u in 1..=n - x => u, n - x - u",
                "u in 0..=n - x if u != C => u, n - x - u",
            ];
            let extras = ["", "move x in 1..=min(C, n) => n - x\n", "move if n >= C => n - C\n",
                "move x in C..=C + 2 if x <= n => n - x\n"];
            let text = format!(
                "move x in {}..={}, {}\n{}",
                lows[lo], highs[hi], splits[split], extras[extra]
            )
            .replace('A', &a.to_string())
            .replace('B', &b.to_string())
            .replace('C', &c.to_string());
            let difference = difference(&text, 0..=160);
            proptest::prop_assert!(difference.is_none(), "{}", difference.unwrap_or_default());
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
