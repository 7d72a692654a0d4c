//! Formulas in the parameters, fitted over a sweep's instances and checked on every one.
//!
//! A quantity of each instance (its period, its preperiod, the constants of its P-set or of a
//! closed form of `G`) is a [`Shape`]: a kind (`"n mod m"`) and integer constants. [`fit`]
//! looks for the simplest description of those constants as affine functions of the
//! parameters, `c₀ + Σ cᵢ·pᵢ` with small integer `cᵢ`, first one for every instance, then
//! piecewise: two pieces split by a simple condition (`L < R`, `b ≡ a (mod 2a)`,
//! `k ≡ 1 (mod 2)`, `k = 1`) or one piece per residue of a parameter. Each candidate is checked
//! on every instance of its piece: a formula reported holds on every instance it claims, with
//! its exact constants (nothing is sampled). It is not proved for the instances not swept.
//!
//! Fitting is a search over few candidates: coefficients from `−3` to `3` for up to three
//! parameters that vary within a piece (`−1` to `1` for up to six), the constant read off the
//! piece's first instance; a piece needs [`MIN_PIECE`] instances, so that a handful of points
//! is never "explained" by a formula chosen for them.

use std::fmt;

use serde::Serialize;

/// The fewest instances a piece of a piecewise formula must hold on.
pub const MIN_PIECE: usize = 3;

/// An affine function of the parameters, `constant + Σ coefficients[i]·pᵢ`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Affine {
    /// `c₀`.
    pub constant: i64,
    /// `cᵢ`, one per parameter.
    pub coefficients: Vec<i64>,
}

impl Affine {
    /// The value at `params`, `None` on overflow.
    pub fn eval(&self, params: &[i64]) -> Option<i64> {
        let mut total = self.constant;
        for (c, p) in self.coefficients.iter().zip(params) {
            total = total.checked_add(c.checked_mul(*p)?)?;
        }
        Some(total)
    }

    /// In math notation over the parameters' `names`: `k + 1`, `2·a`, `a + b − 1`, `0`.
    pub fn render(&self, names: &[String]) -> String {
        let mut out = String::new();
        for (c, name) in self.coefficients.iter().zip(names) {
            if *c == 0 {
                continue;
            }
            let sign = match (out.is_empty(), *c < 0) {
                (true, false) => "",
                (true, true) => "−",
                (false, false) => " + ",
                (false, true) => " − ",
            };
            out.push_str(sign);
            match c.unsigned_abs() {
                1 => out.push_str(name),
                m => out.push_str(&format!("{m}·{name}")),
            }
        }
        match (out.is_empty(), self.constant) {
            (true, c) if c < 0 => format!("−{}", c.unsigned_abs()),
            (true, c) => c.to_string(),
            (false, 0) => out,
            (false, c) if c < 0 => format!("{out} − {}", c.unsigned_abs()),
            (false, c) => format!("{out} + {c}"),
        }
    }

    /// Whether it is a single term or a constant (no parentheses needed around it).
    pub fn is_atom(&self) -> bool {
        let terms = self.coefficients.iter().filter(|&&c| c != 0).count();
        terms == 0 || (terms == 1 && self.constant == 0)
    }

    fn complexity(&self) -> (usize, u64, u64) {
        let terms = self.coefficients.iter().filter(|&&c| c != 0).count();
        let size: u64 = self.coefficients.iter().map(|c| c.unsigned_abs()).sum();
        (terms, size, self.constant.unsigned_abs())
    }
}

/// A condition on the parameters that splits instances into two pieces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Condition {
    /// Every instance.
    Always,
    /// `p_left < p_right`.
    Less {
        /// Index of the left parameter.
        left: usize,
        /// Index of the right parameter.
        right: usize,
    },
    /// `p_left = p_right`.
    Equal {
        /// Index of the left parameter.
        left: usize,
        /// Index of the right parameter.
        right: usize,
    },
    /// `p_multiple ≡ r·p_base (mod m·p_base)`: `m = 1, r = 0` is "`p_base` divides
    /// `p_multiple`", `m = 2, r = 1` "an odd multiple", `m = 2, r = 0` "an even multiple".
    Multiple {
        /// Index of the base parameter.
        base: usize,
        /// Index of the other parameter.
        multiple: usize,
        /// `m`.
        modulus: i64,
        /// `r`.
        residue: i64,
    },
    /// `p ≡ r (mod m)`.
    Residue {
        /// Index of the parameter.
        param: usize,
        /// `m ≥ 2`.
        modulus: i64,
        /// `0 ≤ r < m`.
        residue: i64,
    },
    /// `p = c`.
    Is {
        /// Index of the parameter.
        param: usize,
        /// `c`.
        value: i64,
    },
    /// The negation of a condition ("otherwise").
    Not(Box<Condition>),
}

impl Condition {
    /// Whether `params` satisfy it.
    pub fn holds(&self, params: &[i64]) -> bool {
        match self {
            Condition::Always => true,
            Condition::Less { left, right } => params[*left] < params[*right],
            Condition::Equal { left, right } => params[*left] == params[*right],
            Condition::Multiple {
                base,
                multiple,
                modulus,
                residue,
            } => {
                let (b, x) = (i128::from(params[*base]), i128::from(params[*multiple]));
                let m = i128::from(*modulus) * b;
                m != 0 && x.rem_euclid(m) == i128::from(*residue) * b.rem_euclid(m)
            }
            Condition::Residue {
                param,
                modulus,
                residue,
            } => params[*param].rem_euclid(*modulus) == *residue,
            Condition::Is { param, value } => params[*param] == *value,
            Condition::Not(inner) => !inner.holds(params),
        }
    }

    /// In words over the parameters' `names`: `L < R`, `b ≡ a (mod 2·a)` (b an odd multiple
    /// of a), `k ≡ 1 (mod 2)`.
    pub fn render(&self, names: &[String]) -> String {
        match self {
            Condition::Always => "always".to_string(),
            Condition::Less { left, right } => format!("{} < {}", names[*left], names[*right]),
            Condition::Equal { left, right } => format!("{} = {}", names[*left], names[*right]),
            Condition::Multiple {
                base,
                multiple,
                modulus,
                residue,
            } => {
                let (b, x) = (&names[*base], &names[*multiple]);
                match (modulus, residue) {
                    (1, _) => format!("{b} divides {x}"),
                    (2, 1) => format!("{x} is an odd multiple of {b}"),
                    (2, 0) => format!("{x} is an even multiple of {b}"),
                    (m, r) => format!("{x} ≡ {r}·{b} (mod {m}·{b})"),
                }
            }
            Condition::Residue {
                param,
                modulus,
                residue,
            } => format!("{} ≡ {residue} (mod {modulus})", names[*param]),
            Condition::Is { param, value } => format!("{} = {value}", names[*param]),
            Condition::Not(inner) => match inner.as_ref() {
                Condition::Less { left, right } => {
                    format!("{} ≥ {}", names[*left], names[*right])
                }
                Condition::Equal { left, right } => {
                    format!("{} ≠ {}", names[*left], names[*right])
                }
                Condition::Is { param, value } => format!("{} ≠ {value}", names[*param]),
                Condition::Multiple {
                    base,
                    multiple,
                    modulus: 1,
                    ..
                } => format!("{} does not divide {}", names[*base], names[*multiple]),
                Condition::Multiple {
                    base,
                    multiple,
                    modulus: 2,
                    residue: 1,
                } => format!(
                    "{} is not an odd multiple of {}",
                    names[*multiple], names[*base]
                ),
                other => format!("not ({})", other.render(names)),
            },
        }
    }
}

/// A quantity of one instance: a kind and its integer constants (a period: kind `"number"`,
/// one constant; a P-set `n mod m ∈ [lo, hi)`: three).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shape {
    /// The kind; instances of different kinds never share a formula.
    pub kind: &'static str,
    /// The constants, each fitted by its own affine function.
    pub constants: Vec<i64>,
}

/// One piece of a fitted formula: where it applies and the constants' affine functions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    /// Which instances it covers.
    pub condition: Condition,
    /// The kind of every instance it covers.
    pub kind: &'static str,
    /// One affine function per constant of the kind.
    pub constants: Vec<Affine>,
    /// How many instances it was checked on.
    pub instances: usize,
}

/// A formula fitted over instances.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fit {
    /// The pieces, in order; an instance takes the first whose condition holds.
    pub pieces: Vec<Piece>,
    /// Instances (indices into the list given) that no piece covers: the formula says
    /// nothing of them (a partial fit).
    pub uncovered: Vec<usize>,
}

impl Fit {
    /// The piece covering `params`, if any.
    pub fn piece(&self, params: &[i64]) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.condition.holds(params))
    }

    /// Whether it covers every instance it was fitted on.
    pub fn is_complete(&self) -> bool {
        self.uncovered.is_empty()
    }
}

/// The affine function of `params` equal to `target` on every item, simplest first; `None`
/// when none with small coefficients exists. `varying` are the parameters that take more
/// than one value among the items (the others get coefficient 0).
fn fit_affine(items: &[(&[i64], i64)], params: usize, varying: &[usize]) -> Option<Affine> {
    let (first_params, first_value) = *items.first()?;
    let span: i64 = match varying.len() {
        0..=3 => 3,
        4..=6 => 1,
        _ => return constant_only(items, params),
    };
    let choices = (2 * span + 1) as usize;
    let total = choices.pow(varying.len() as u32);
    let mut candidates: Vec<Affine> = Vec::with_capacity(total);
    for mut code in 0..total {
        let mut coefficients = vec![0i64; params];
        for &v in varying {
            coefficients[v] = (code % choices) as i64 - span;
            code /= choices;
        }
        let partial = Affine {
            constant: 0,
            coefficients,
        };
        let Some(at_first) = partial.eval(first_params) else {
            continue;
        };
        let Some(constant) = first_value.checked_sub(at_first) else {
            continue;
        };
        candidates.push(Affine {
            constant,
            ..partial
        });
    }
    candidates.sort_by_key(Affine::complexity);
    candidates
        .into_iter()
        .find(|a| items.iter().all(|(p, v)| a.eval(p) == Some(*v)))
}

fn constant_only(items: &[(&[i64], i64)], params: usize) -> Option<Affine> {
    let value = items.first()?.1;
    items.iter().all(|(_, v)| *v == value).then(|| Affine {
        constant: value,
        coefficients: vec![0; params],
    })
}

/// A piece over `members` (indices into `instances`), when every member has the same kind and
/// each constant is affine in the parameters.
fn fit_piece(
    instances: &[(&[i64], &Shape)],
    members: &[usize],
    condition: Condition,
) -> Option<Piece> {
    let (_, first) = instances[*members.first()?];
    if members.iter().any(|&i| instances[i].1.kind != first.kind) {
        return None;
    }
    let params = instances[members[0]].0.len();
    let varying: Vec<usize> = (0..params)
        .filter(|&p| {
            let v0 = instances[members[0]].0[p];
            members.iter().any(|&i| instances[i].0[p] != v0)
        })
        .collect();
    let mut constants = Vec::with_capacity(first.constants.len());
    for c in 0..first.constants.len() {
        let items: Vec<(&[i64], i64)> = members
            .iter()
            .map(|&i| (instances[i].0, instances[i].1.constants[c]))
            .collect();
        constants.push(fit_affine(&items, params, &varying)?);
    }
    // A formula reading u parameters is determined by u + 1 instances: it must hold on at
    // least one more to be evidence of anything.
    let used = constants
        .iter()
        .flat_map(|a| a.coefficients.iter().enumerate().filter(|(_, c)| **c != 0))
        .map(|(i, _)| i)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    if used > 0 && members.len() < used + 2 {
        return None;
    }
    Some(Piece {
        condition,
        kind: first.kind,
        constants,
        instances: members.len(),
    })
}

/// The conditions tried for two pieces, simplest first.
fn conditions(instances: &[(&[i64], &Shape)]) -> Vec<Condition> {
    let params = instances.first().map_or(0, |(p, _)| p.len());
    let mut out = Vec::new();
    for left in 0..params {
        for right in 0..params {
            if left < right {
                out.push(Condition::Less { left, right });
                out.push(Condition::Equal { left, right });
            }
        }
    }
    for base in 0..params {
        for multiple in 0..params {
            if base != multiple {
                for (modulus, residue) in [(1, 0), (2, 1), (2, 0)] {
                    out.push(Condition::Multiple {
                        base,
                        multiple,
                        modulus,
                        residue,
                    });
                }
            }
        }
    }
    for param in 0..params {
        for modulus in 2..=4 {
            for residue in 0..modulus {
                out.push(Condition::Residue {
                    param,
                    modulus,
                    residue,
                });
            }
        }
    }
    for param in 0..params {
        let mut seen: Vec<i64> = instances.iter().map(|(p, _)| p[param]).collect();
        seen.sort_unstable();
        seen.dedup();
        for value in seen.into_iter().take(2) {
            out.push(Condition::Is { param, value });
        }
    }
    out
}

/// The simplest formula for the `instances`' shapes (each with its parameters); `None` when
/// no piece of any split fits. A fit that covers only some instances (one piece fits, the
/// other not) is returned with the rest `uncovered`, the largest such piece first.
pub fn fit(instances: &[(&[i64], &Shape)]) -> Option<Fit> {
    let all: Vec<usize> = (0..instances.len()).collect();
    if instances.is_empty() {
        return None;
    }
    if let Some(piece) = fit_piece(instances, &all, Condition::Always) {
        return Some(Fit {
            pieces: vec![piece],
            uncovered: Vec::new(),
        });
    }
    let split = |condition: &Condition| -> (Vec<usize>, Vec<usize>) {
        all.iter().partition(|&&i| condition.holds(instances[i].0))
    };
    let mut partial: Option<Fit> = None;
    let mut consider = |fit: Fit| {
        let covered = |f: &Fit| instances.len() - f.uncovered.len();
        if partial
            .as_ref()
            .is_none_or(|best| covered(&fit) > covered(best))
        {
            partial = Some(fit);
        }
    };
    for condition in conditions(instances) {
        let (inside, outside) = split(&condition);
        if inside.len() < MIN_PIECE || outside.len() < MIN_PIECE {
            continue;
        }
        let negation = Condition::Not(Box::new(condition.clone()));
        let yes = fit_piece(instances, &inside, condition);
        let no = fit_piece(instances, &outside, negation);
        match (yes, no) {
            (Some(yes), Some(no)) => {
                return Some(Fit {
                    pieces: vec![yes, no],
                    uncovered: Vec::new(),
                })
            }
            (Some(piece), None) => consider(Fit {
                pieces: vec![piece],
                uncovered: outside,
            }),
            (None, Some(piece)) => consider(Fit {
                pieces: vec![piece],
                uncovered: inside,
            }),
            (None, None) => {}
        }
    }
    // One piece per residue class of a parameter.
    let params = instances[0].0.len();
    for param in 0..params {
        for modulus in 2..=4 {
            let pieces: Option<Vec<Piece>> = (0..modulus)
                .map(|residue| {
                    let condition = Condition::Residue {
                        param,
                        modulus,
                        residue,
                    };
                    let (inside, _) = split(&condition);
                    if inside.len() < MIN_PIECE {
                        return None;
                    }
                    fit_piece(instances, &inside, condition)
                })
                .collect();
            if let Some(pieces) = pieces {
                return Some(Fit {
                    pieces,
                    uncovered: Vec::new(),
                });
            }
        }
    }
    partial
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.kind, self.constants)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(v: i64) -> Shape {
        Shape {
            kind: "number",
            constants: vec![v],
        }
    }

    fn fit_numbers(points: &[(Vec<i64>, i64)]) -> Option<Fit> {
        let shapes: Vec<Shape> = points.iter().map(|(_, v)| number(*v)).collect();
        let items: Vec<(&[i64], &Shape)> = points
            .iter()
            .zip(&shapes)
            .map(|((p, _), s)| (p.as_slice(), s))
            .collect();
        fit(&items)
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_affine_function_of_one_parameter() {
        let points: Vec<(Vec<i64>, i64)> = (1..=20).map(|k| (vec![k], k + 1)).collect();
        let fit = fit_numbers(&points).unwrap();
        assert!(fit.is_complete());
        assert_eq!(fit.pieces.len(), 1);
        assert_eq!(fit.pieces[0].constants[0].render(&names(&["k"])), "k + 1");
    }

    #[test]
    fn two_pieces_by_an_odd_multiple() {
        // The shape of the two-element subtraction sets' periods (Benesh et al. 2020).
        let mut points = Vec::new();
        for a in 1..=8 {
            for b in a + 1..=12 {
                let period = if b % (2 * a) == a { 2 * a } else { a + b };
                points.push((vec![a, b], period));
            }
        }
        let fit = fit_numbers(&points).unwrap();
        let n = names(&["a", "b"]);
        assert!(fit.is_complete());
        assert_eq!(
            fit.pieces[0].condition.render(&n),
            "b is an odd multiple of a"
        );
        assert_eq!(fit.pieces[0].constants[0].render(&n), "2·a");
        assert_eq!(fit.pieces[1].constants[0].render(&n), "a + b");
    }

    #[test]
    fn a_partial_fit_names_what_it_leaves_out() {
        // L < R: always 0; L = R: values that follow no formula.
        let mut points = Vec::new();
        let noise = [7, 34, 3, 91, 12];
        for l in 1..=5i64 {
            for r in l..=6 {
                let v = if l < r { 0 } else { noise[(l - 1) as usize] };
                points.push((vec![l, r], v));
            }
        }
        let fit = fit_numbers(&points).unwrap();
        assert!(!fit.is_complete());
        assert_eq!(fit.uncovered.len(), 5);
        assert_eq!(fit.pieces[0].condition.render(&names(&["L", "R"])), "L < R");
    }

    #[test]
    fn nothing_fits_noise_and_few_points_do_not_make_a_piece() {
        let noise = [5, 1, 9, 2, 8, 3, 7, 4, 6, 11, 0, 13];
        let points: Vec<(Vec<i64>, i64)> =
            (0..12).map(|k| (vec![k as i64 + 1], noise[k])).collect();
        assert!(fit_numbers(&points).is_none());
        // Two points: any line fits them, so no formula is claimed beyond a constant.
        assert!(fit_numbers(&[(vec![1], 3), (vec![2], 5)]).is_none());
        assert!(fit_numbers(&[(vec![1], 3), (vec![2], 3)]).is_some());
    }

    #[test]
    fn renders() {
        let n = names(&["a", "b"]);
        let affine = |constant, coefficients: &[i64]| Affine {
            constant,
            coefficients: coefficients.to_vec(),
        };
        assert_eq!(affine(-1, &[2, -1]).render(&n), "2·a − b − 1");
        assert_eq!(affine(0, &[0, 0]).render(&n), "0");
        assert_eq!(affine(-4, &[0, 0]).render(&n), "−4");
        assert_eq!(affine(0, &[-1, 0]).render(&n), "−a");
    }
}
