//! Closed forms of the values `G` themselves, not only of where `G = 0`.
//!
//! [`find_sequence`] (one coordinate) and [`find_box`] (two coordinates) fit a few small
//! families of formulas to a computed table and keep the first, in order of simplicity, that
//! holds on *every* computed value: each candidate is checked cell by cell by [`holds_on`]
//! after it is fitted, so a formula reported is never contradicted by the table (it is not
//! proved beyond it either). The fitters read parameters off a few values (the first zero for
//! `n mod k`, `G(0)` for `n ⊕ c`, the period detector of [`crate::analysis::period`] for
//! arithmetic periodicity); nothing enumerates a large space.
//!
//! One coordinate, simplest first: a constant, `n`, `n mod k`, `⌊n/k⌋`, `n ⊕ c`,
//! `popcount(n)`, a short pure period `(…)[n mod p]`, `v_p(n)` (`ctz(n)` for `p = 2`, for
//! `n ≥ 1` with `G(0)` stated: the divisor game), then linear forms on residue classes,
//! `G(n) = a_r·⌊n/k⌋ + b_r` for `n ≡ r (mod k)` (arithmetic periodicity with saltus, e.g.
//! Lasker's Nim, Winning Ways ch. 4, from the period detector; or a slope of its own on each
//! class). A long period is left to `sgscope period`, with a note saying so.
//!
//! Two coordinates: a constant, `(c₀ + c₁x + c₂y + c₃xy) mod k` for `k ≤ 4` (the chocolate
//! bar: `(xy − 1) mod 2`), `f(x) ⊕ g(y)`, `f(x) OR g(y)`, `x AND y` and `f(x) ⊗ g(y)`, the nim
//! product of Conway (*On Numbers and Games*, ch. 6; Winning Ways ch. 14, the Tartan theorem
//! for products of coin-turning games), where `f` and `g` are one-coordinate forms fitted to
//! a row and a column of the table. When nothing holds on the whole box, the box without its
//! zero row and column is tried (a bar of size 0 is often no real position).

use std::fmt;

use serde::Serialize;

use crate::analysis::period::{self, periods_seen};
use crate::engine::boxtable::BoxTable;
use crate::engine::SgTable;

/// Fewer values than this and no formula is claimed (anything fits a handful of values).
pub const MIN_VALUES: usize = 8;
/// A pure period is written out as a list only up to this length (preperiod included).
pub const SHORT_PERIOD: usize = 16;
/// Residue classes tried by the linear fits.
pub const MAX_CLASSES: u64 = 8;
/// The largest modulus of the polynomial forms of two coordinates.
pub const MAX_POLY_MODULUS: u64 = 4;

/// A bitwise operation joining a function of each coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BitOp {
    /// `⊕`, the nim sum.
    Xor,
    /// `OR`.
    Or,
    /// `AND`.
    And,
}

impl BitOp {
    fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            BitOp::Xor => a ^ b,
            BitOp::Or => a | b,
            BitOp::And => a & b,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            BitOp::Xor => "⊕",
            BitOp::Or => "OR",
            BitOp::And => "AND",
        }
    }
}

/// `slope·⌊n/k⌋ + offset` on one residue class `n ≡ r (mod k)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LinearClass {
    /// The rise per step of `k` (never negative: values are never negative).
    pub slope: u64,
    /// The value at `⌊n/k⌋ = 0`, extended (may be negative when the class starts later).
    pub offset: i64,
}

/// A closed form of `G`, checked on a table by [`holds_on`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Formula {
    /// The same value everywhere.
    Constant {
        /// The value.
        value: u64,
    },
    /// `G(n) = n` (Nim on one heap, Bouton 1901).
    Identity,
    /// `G(n) = n mod k`.
    Modulo {
        /// `k ≥ 2`.
        modulus: u64,
    },
    /// `G(n) = ⌊n/k⌋`.
    Quotient {
        /// `k ≥ 2`.
        divisor: u64,
    },
    /// `G(n) = n ⊕ c`.
    XorConstant {
        /// `c ≥ 1`.
        constant: u64,
    },
    /// `G(n)` = the number of ones in the binary digits of `n`.
    Popcount,
    /// `G(n) = v_p(n)`, the exponent of the prime `p` in `n`, for `n ≥ 1`; `G(0) = at_zero`.
    Valuation {
        /// The prime `p` (`ctz` for 2).
        prime: u64,
        /// `G(0)`.
        at_zero: u64,
    },
    /// `G(n) = prefix[n]` for `n < prefix.len()`, else `cycle[n mod cycle.len()]`.
    Periodic {
        /// The values before the period starts.
        prefix: Vec<u64>,
        /// The period, indexed by `n mod p` (not by `n − preperiod`).
        cycle: Vec<u64>,
    },
    /// `G(n) = prefix[n]` for `n < prefix.len()`, else `a_r·⌊n/k⌋ + b_r` with `r = n mod k`.
    ResidueLinear {
        /// The values before the rule starts.
        prefix: Vec<u64>,
        /// `k`.
        modulus: u64,
        /// `(a_r, b_r)` for `r = 0, 1, …, k − 1`.
        classes: Vec<LinearClass>,
    },
    /// `G(x, y) = f(x) op g(y)`.
    Bitwise {
        /// The operation.
        op: BitOp,
        /// `f`, a one-coordinate formula.
        left: Box<Formula>,
        /// `g`, a one-coordinate formula.
        right: Box<Formula>,
    },
    /// `G(x, y) = f(x) ⊗ g(y)`, the nim product.
    NimProduct {
        /// `f`.
        left: Box<Formula>,
        /// `g`.
        right: Box<Formula>,
    },
    /// `G(x, y) = (c₀ + c₁x + c₂y + c₃xy) mod k`.
    PolynomialMod {
        /// `k ≥ 2`.
        modulus: u64,
        /// `[c₀, c₁, c₂, c₃]`, each below `k`.
        coefficients: [u64; 4],
    },
}

/// The nim product `a ⊗ b` (Conway, *On Numbers and Games*, ch. 6): the field multiplication
/// of the nimbers below `2^64`, computed by splitting each factor at the Fermat 2-power
/// `F = 2^32` (then `2^16`, …) with `F ⊗ F = F ⊕ F/2` and Karatsuba's three products. For
/// example `2 ⊗ 2 = 3`, `2 ⊗ 3 = 1`, `4 ⊗ 4 = 6`, `8 ⊗ 8 = 13`.
pub fn nim_product(a: u64, b: u64) -> u64 {
    nim_product_in(a, b, 64)
}

/// `a ⊗ b` for `a, b < 2^bits`, `bits` a power of two.
fn nim_product_in(a: u64, b: u64, bits: u32) -> u64 {
    if a < 2 || b < 2 {
        return a * b;
    }
    let half = bits / 2;
    let mask = (1u64 << half) - 1;
    let (a1, a0) = (a >> half, a & mask);
    let (b1, b0) = (b >> half, b & mask);
    let high = nim_product_in(a1, b1, half);
    let low = nim_product_in(a0, b0, half);
    let cross = nim_product_in(a1 ^ a0, b1 ^ b0, half);
    // (a1·F + a0)(b1·F + b0) = (a1b1 ⊕ a1b0 ⊕ a0b1)·F ⊕ a0b0 ⊕ a1b1 ⊗ F/2.
    ((cross ^ low) << half) | (low ^ nim_product_in(high, 1 << (half - 1), half))
}

/// `v_p(n)` for `n ≥ 1`.
fn valuation(mut n: u64, p: u64) -> u64 {
    let mut v = 0;
    while n > 0 && n.is_multiple_of(p) {
        n /= p;
        v += 1;
    }
    v
}

impl Formula {
    /// The number of coordinates the formula reads.
    pub fn arity(&self) -> usize {
        match self {
            Formula::Bitwise { .. }
            | Formula::NimProduct { .. }
            | Formula::PolynomialMod { .. } => 2,
            _ => 1,
        }
    }

    /// The formula's value at `coords` (the first coordinate for a one-coordinate formula).
    /// Saturates instead of overflowing.
    pub fn eval(&self, coords: &[u64]) -> u64 {
        let n = coords.first().copied().unwrap_or(0);
        let y = coords.get(1).copied().unwrap_or(0);
        match self {
            Formula::Constant { value } => *value,
            Formula::Identity => n,
            Formula::Modulo { modulus } => n % modulus,
            Formula::Quotient { divisor } => n / divisor,
            Formula::XorConstant { constant } => n ^ constant,
            Formula::Popcount => u64::from(n.count_ones()),
            Formula::Valuation { prime, at_zero } => {
                if n == 0 {
                    *at_zero
                } else {
                    valuation(n, *prime)
                }
            }
            Formula::Periodic { prefix, cycle } => match prefix.get(n as usize) {
                Some(&v) => v,
                None => cycle[(n % cycle.len() as u64) as usize],
            },
            Formula::ResidueLinear {
                prefix,
                modulus,
                classes,
            } => {
                if (n as usize) < prefix.len() {
                    return prefix[n as usize];
                }
                let class = classes[(n % modulus) as usize];
                let value =
                    i128::from(class.slope) * i128::from(n / modulus) + i128::from(class.offset);
                value.clamp(0, i128::from(u64::MAX)) as u64
            }
            Formula::Bitwise { op, left, right } => op.apply(left.eval(&[n]), right.eval(&[y])),
            Formula::NimProduct { left, right } => nim_product(left.eval(&[n]), right.eval(&[y])),
            Formula::PolynomialMod {
                modulus: k,
                coefficients: [c0, c1, c2, c3],
            } => {
                let (a, b) = (n % k, y % k);
                (c0 + c1 * a + c2 * b + c3 * a * b) % k
            }
        }
    }

    /// Where the formula's rule starts: values below are listed (`G(0)` of a valuation).
    pub fn prefix(&self) -> Vec<u64> {
        match self {
            Formula::Valuation { at_zero, .. } => vec![*at_zero],
            Formula::Periodic { prefix, .. } | Formula::ResidueLinear { prefix, .. } => {
                prefix.clone()
            }
            _ => Vec::new(),
        }
    }

    /// The right-hand side in math notation, `vars` naming the coordinates (missing names
    /// are `n`, `y`), without the values listed before the rule starts.
    pub fn rule(&self, vars: &[&str]) -> String {
        let n = vars.first().copied().unwrap_or("n");
        let y = vars.get(1).copied().unwrap_or("y");
        match self {
            Formula::Constant { value } => value.to_string(),
            Formula::Identity => n.to_string(),
            Formula::Modulo { modulus } => format!("{n} mod {modulus}"),
            Formula::Quotient { divisor } => format!("⌊{n}/{divisor}⌋"),
            Formula::XorConstant { constant } => format!("{n} ⊕ {constant}"),
            Formula::Popcount => format!("popcount({n})"),
            Formula::Valuation { prime: 2, .. } => format!("ctz({n})"),
            Formula::Valuation { prime, .. } => format!("v_{prime}({n})"),
            Formula::Periodic { cycle, .. } => {
                let listed: Vec<String> = cycle.iter().map(u64::to_string).collect();
                format!("({})[{n} mod {}]", listed.join(", "), cycle.len())
            }
            Formula::ResidueLinear {
                modulus, classes, ..
            } => residue_linear(n, *modulus, classes),
            Formula::Bitwise { op, left, right } => format!(
                "{} {} {}",
                operand(&left.rule(&[n])),
                op.symbol(),
                operand(&right.rule(&[y]))
            ),
            Formula::NimProduct { left, right } => format!(
                "{} ⊗ {}",
                operand(&left.rule(&[n])),
                operand(&right.rule(&[y]))
            ),
            Formula::PolynomialMod {
                modulus,
                coefficients,
            } => polynomial(n, y, *modulus, *coefficients),
        }
    }
}

/// A part of a larger formula, in parentheses when it has spaces.
fn operand(text: &str) -> String {
    if text.contains(' ') && !text.starts_with('(') {
        format!("({text})")
    } else {
        text.to_string()
    }
}

/// `c₀ + c₁x + c₂y + c₃xy mod k`, the constant `k − 1` written `− 1`.
fn polynomial(x: &str, y: &str, k: u64, [c0, c1, c2, c3]: [u64; 4]) -> String {
    let term = |c: u64, name: &str| match c {
        0 => None,
        1 => Some(name.to_string()),
        c => Some(format!("{c}{name}")),
    };
    let terms: Vec<String> = [term(c3, &format!("{x}·{y}")), term(c1, x), term(c2, y)]
        .into_iter()
        .flatten()
        .collect();
    let mut text = terms.join(" + ");
    if c0 != 0 {
        if text.is_empty() {
            text = c0.to_string();
        } else if c0 == k - 1 {
            text.push_str(" − 1");
        } else {
            text.push_str(&format!(" + {c0}"));
        }
    }
    format!("({text}) mod {k}")
}

/// The pieces of a residue-linear rule, `n − 1 if n ≡ 0, n if n ≡ 1 or 2 (mod 4)`.
fn residue_linear(n: &str, k: u64, classes: &[LinearClass]) -> String {
    // In terms of n when every slope is a multiple of k: a·⌊n/k⌋ + b = (a/k)·n + b − (a/k)·r.
    let by_n = classes.iter().all(|c| c.slope.is_multiple_of(k));
    let piece = |r: u64, c: &LinearClass| -> String {
        let (coefficient, variable, constant) = if by_n {
            let a = c.slope / k;
            (a, n.to_string(), c.offset - (a * r) as i64)
        } else {
            (c.slope, format!("⌊{n}/{k}⌋"), c.offset)
        };
        let head = match coefficient {
            0 => String::new(),
            1 => variable,
            a => format!("{a}{variable}"),
        };
        match (head.is_empty(), constant) {
            (true, b) => b.to_string(),
            (false, 0) => head,
            (false, b) if b > 0 => format!("{head} + {b}"),
            (false, b) => format!("{head} − {}", b.unsigned_abs()),
        }
    };
    if k == 1 {
        return piece(0, &classes[0]);
    }
    // Group the residues with the same piece, in order of their first residue.
    let mut groups: Vec<(String, Vec<u64>)> = Vec::new();
    for (r, class) in classes.iter().enumerate() {
        let text = piece(r as u64, class);
        match groups.iter_mut().find(|(t, _)| *t == text) {
            Some((_, residues)) => residues.push(r as u64),
            None => groups.push((text, vec![r as u64])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(text, residues)| {
            let residues: Vec<String> = residues.iter().map(u64::to_string).collect();
            format!("{text} if {n} ≡ {}", residues.join(" or "))
        })
        .collect();
    format!("{} (mod {k})", parts.join(", "))
}

impl fmt::Display for Formula {
    /// `G(n) = ctz(n) for n ≥ 1, G(0) = 0`-style, with the coordinates `n` or `x, y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let vars: &[&str] = if self.arity() == 1 {
            &["n"]
        } else {
            &["x", "y"]
        };
        write!(f, "G({}) = {}", vars.join(", "), self.rule(vars))?;
        let prefix = self.prefix();
        if !prefix.is_empty() {
            write!(
                f,
                " for n ≥ {}; {}",
                prefix.len(),
                listed_prefix("G", &prefix)
            )?;
        }
        Ok(())
    }
}

/// `G(0) = 0` or `G(0..3) = (0, 1, 1)`.
fn listed_prefix(function: &str, prefix: &[u64]) -> String {
    if let [only] = prefix {
        return format!("{function}(0) = {only}");
    }
    let listed: Vec<String> = prefix.iter().map(u64::to_string).collect();
    format!("{function}(0..{}) = ({})", prefix.len(), listed.join(", "))
}

/// True when `formula` gives every value of `values`, `values[i]` being `G(first + i)`.
pub fn holds_on_sequence(formula: &Formula, first: u64, values: &[u64]) -> bool {
    (first..).zip(values).all(|(n, &v)| formula.eval(&[n]) == v)
}

/// True when `formula` gives `G` at every position of `table` whose coordinates are all at
/// least `from` (0: the whole box).
pub fn holds_on(formula: &Formula, table: &BoxTable, from: u64) -> bool {
    table
        .iter()
        .filter(|(p, _)| p.iter().all(|&c| c >= from))
        .all(|(p, v)| formula.eval(&p) == u64::from(v))
}

/// What the search for a closed form of `G` found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormulaReport {
    /// The values the formula is of: `G`, or `G⁻` for misère play.
    pub function: String,
    /// The coordinates' names.
    pub coordinates: Vec<String>,
    /// The smallest value of every coordinate checked (1 when the zero row and column were
    /// left out).
    pub from: u64,
    /// The largest value of each coordinate checked.
    pub extents: Vec<u64>,
    /// The simplest formula that holds on every value checked, if any.
    pub formula: Option<Formula>,
    /// The families tried, simplest first.
    pub tried: Vec<&'static str>,
    /// What else is known when no formula was found (e.g. a long period).
    pub note: Option<String>,
}

/// The one-coordinate families, simplest first, as the report names them.
pub const SEQUENCE_FAMILIES: [&str; 9] = [
    "constant",
    "n",
    "n mod k",
    "⌊n/k⌋",
    "n ⊕ c",
    "popcount(n)",
    "short periods (…)[n mod p]",
    "ctz(n) and v_p(n)",
    "a_r·⌊n/k⌋ + b_r on residue classes (arithmetic periodicity, k ≤ 8)",
];

/// The two-coordinate families, simplest first.
pub const BOX_FAMILIES: [&str; 6] = [
    "constant",
    "(c₀ + c₁x + c₂y + c₃xy) mod k (k ≤ 4)",
    "f(x) ⊕ g(y)",
    "f(x) OR g(y)",
    "x AND y",
    "f(x) ⊗ g(y) (nim product)",
];

impl FormulaReport {
    /// The report in words, e.g. `G(n) = ctz(n) for all 1 ≤ n ≤ 100, and G(0) = 0`.
    pub fn describe(&self) -> String {
        let g = &self.function;
        let vars: Vec<&str> = self.coordinates.iter().map(String::as_str).collect();
        let position = vars.join(", ");
        let Some(formula) = &self.formula else {
            let mut text = format!(
                "no closed form found for {g}({position}) among: {}",
                self.tried.join(", ")
            );
            if let Some(note) = &self.note {
                text.push_str(&format!("; {note}"));
            }
            return text;
        };
        let prefix = formula.prefix();
        let start = self.from.max(prefix.len() as u64);
        let range: Vec<String> = vars
            .iter()
            .zip(&self.extents)
            .map(|(v, e)| format!("{start} ≤ {v} ≤ {e}"))
            .collect();
        let mut text = format!(
            "{g}({position}) = {} for all {}",
            formula.rule(&vars),
            range.join(", ")
        );
        if !prefix.is_empty() {
            text.push_str(&format!(", and {}", listed_prefix(g, &prefix)));
        }
        text.push_str(" (checked on every value, not proved beyond");
        if self.from > 0 {
            text.push_str(&format!(
                "; positions with a coordinate below {} are not covered",
                self.from
            ));
        }
        text.push(')');
        text
    }
}

impl fmt::Display for FormulaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

/// The simplest closed form of the sequence `G(0..values.len())` (see the module docs).
pub fn find_sequence(coordinate: &str, values: &[u32]) -> FormulaReport {
    let wide: Vec<u64> = values.iter().map(|&v| u64::from(v)).collect();
    let mut note = None;
    let formula = if wide.len() < MIN_VALUES {
        note = Some(format!("too few values (fewer than {MIN_VALUES})"));
        None
    } else {
        fit_sequence(&wide, values, &mut note)
    };
    debug_assert!(formula
        .as_ref()
        .is_none_or(|f| holds_on_sequence(f, 0, &wide)));
    FormulaReport {
        function: "G".to_string(),
        coordinates: vec![coordinate.to_string()],
        from: 0,
        extents: vec![(wide.len() as u64).saturating_sub(1)],
        formula,
        tried: SEQUENCE_FAMILIES.to_vec(),
        note,
    }
}

/// The families of [`find_sequence`] in order; each candidate checked on every value.
fn fit_sequence(values: &[u64], narrow: &[u32], note: &mut Option<String>) -> Option<Formula> {
    let checked = |f: Formula| holds_on_sequence(&f, 0, values).then_some(f);
    if let Some(found) = simple(0, values) {
        return Some(found);
    }
    if let Some(found) = fit_valuation(values).and_then(checked) {
        return Some(found);
    }
    if let Some(found) = from_period(values, narrow, note).and_then(checked) {
        return Some(found);
    }
    (1..=MAX_CLASSES)
        .filter_map(|k| fit_classes(values, k))
        .find_map(checked)
}

/// The prefix-free one-coordinate forms, simplest first, fitted to `values[i] = s(first + i)`
/// and checked on all of them: the forms `f`, `g` of the two-coordinate families too.
fn simple(first: u64, values: &[u64]) -> Option<Formula> {
    let len = values.len() as u64;
    let last = first + len.saturating_sub(1);
    let at = |n: u64| values[(n - first) as usize];
    let first_n_with = |v: u64| (first..=last).find(|&n| at(n) == v && n > 0);
    let candidates = [
        Some(Formula::Constant { value: values[0] }),
        Some(Formula::Identity),
        first_n_with(0)
            .filter(|&k| k >= 2 && 2 * k <= last + 1)
            .map(|modulus| Formula::Modulo { modulus }),
        first_n_with(1)
            .filter(|&k| k >= 2 && 2 * k <= last + 1)
            .map(|divisor| Formula::Quotient { divisor }),
        // G(0) = 0 ⊕ c when the first value is G(0); else c = s(first) ⊕ first.
        Some(values[0] ^ first)
            .filter(|&c| c > 0)
            .map(|constant| Formula::XorConstant { constant }),
        Some(Formula::Popcount),
        short_cycle(first, values),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|f| holds_on_sequence(f, first, values))
}

/// The shortest pure period `p ≤ SHORT_PERIOD` with at least three full periods, as a cycle
/// indexed by `n mod p`.
fn short_cycle(first: u64, values: &[u64]) -> Option<Formula> {
    let len = values.len();
    (1..=SHORT_PERIOD.min(len / 3))
        .find(|&p| (p..len).all(|i| values[i] == values[i - p]))
        .map(|p| {
            let mut cycle = vec![0; p];
            for (n, &v) in (first..).zip(&values[..p]) {
                cycle[(n % p as u64) as usize] = v;
            }
            Formula::Periodic {
                prefix: Vec::new(),
                cycle,
            }
        })
}

/// `v_p(n)` for `n ≥ 1`, `p` the first `n ≥ 2` with a value other than 0, when `p` is prime
/// and `p²` is in the table (below it `v_p` is only the indicator of the multiples of `p`).
fn fit_valuation(values: &[u64]) -> Option<Formula> {
    let prime = (2..values.len()).find(|&n| values[n] != 0)? as u64;
    let is_prime = (2..prime)
        .take_while(|d| d * d <= prime)
        .all(|d| !prime.is_multiple_of(d));
    (is_prime && prime * prime < values.len() as u64).then(|| Formula::Valuation {
        prime,
        at_zero: values[0],
    })
}

/// The period detector's periodicity as a formula: a short pure period as a list, an
/// arithmetic periodicity with a short period as linear forms on its residue classes; a long
/// one only as a note.
fn from_period(values: &[u64], narrow: &[u32], note: &mut Option<String>) -> Option<Formula> {
    let found = period::detect(&SgTable::from_values(narrow))?;
    let crate::analysis::Periodicity {
        preperiod,
        period,
        saltus,
    } = found;
    let short = preperiod + period <= SHORT_PERIOD;
    if periods_seen(&found, values.len()) < super::MIN_PERIODS || !short {
        *note = Some(if saltus == 0 {
            format!(
                "G is periodic with period {period} from n ≥ {preperiod} (see `sgscope period`)"
            )
        } else {
            format!(
                "G is arithmetic-periodic with period {period} and saltus {saltus} from n ≥ {preperiod} (see `sgscope period`)"
            )
        });
        return None;
    }
    let prefix = values[..preperiod].to_vec();
    let p = period as u64;
    if saltus == 0 {
        if preperiod + period > SHORT_PERIOD {
            *note = Some(format!(
                "G is periodic with period {period} from n ≥ {preperiod} (see `sgscope period`)"
            ));
            return None;
        }
        let mut cycle = vec![0; period];
        for n in preperiod..preperiod + period {
            cycle[n % period] = values[n];
        }
        return Some(Formula::Periodic { prefix, cycle });
    }
    // G(n) = s·⌊n/p⌋ + b_r for n ≥ n0: b_r from the first n ≥ n0 in each class.
    let classes = (0..p)
        .map(|r| {
            let n = (preperiod as u64..)
                .find(|n| n % p == r)
                .expect("a class member");
            LinearClass {
                slope: saltus as u64,
                offset: values[n as usize] as i64 - saltus * (n / p) as i64,
            }
        })
        .collect();
    Some(Formula::ResidueLinear {
        prefix,
        modulus: p,
        classes,
    })
}

/// A line `a·⌊n/k⌋ + b` through each class `n ≡ r (mod k)`, each read off the class's last two
/// values; the rule starts where, going back from the end, a value is first off its class's
/// line, which must be early (at most `k` values and a quarter of the table), with at least
/// three values of each class beyond it and 16 values in all, and some slope above 0.
fn fit_classes(values: &[u64], k: u64) -> Option<Formula> {
    let len = values.len() as u64;
    let mut classes = Vec::new();
    for r in 0..k {
        let members: Vec<u64> = (r..len).step_by(k as usize).collect();
        let [.., before, last] = members[..] else {
            return None;
        };
        let (vb, vl) = (values[before as usize], values[last as usize]);
        if vl < vb {
            return None;
        }
        let slope = vl - vb;
        let offset = vl as i64 - (slope * (last / k)) as i64;
        classes.push(LinearClass { slope, offset });
    }
    // The rule holds from `start` on only if every class member ≥ start is on its line.
    let start = (0..len)
        .rev()
        .take_while(|&n| {
            let c = classes[(n % k) as usize];
            i128::from(c.slope) * i128::from(n / k) + i128::from(c.offset)
                == i128::from(values[n as usize])
        })
        .last()?;
    let per_class = (len - start) / k;
    // Every slope 0 is a pure period: the detector's, and too long for a list if it came here.
    if classes.iter().all(|c| c.slope == 0)
        || start > k
        || 4 * start > len
        || per_class < 3
        || len - start < 16
    {
        return None;
    }
    Some(Formula::ResidueLinear {
        prefix: values[..start as usize].to_vec(),
        modulus: k,
        classes,
    })
}

/// The simplest closed form of a two-coordinate table (see the module docs); `None` for any
/// other number of coordinates.
pub fn find_box(table: &BoxTable) -> Option<FormulaReport> {
    if table.dimension() != 2 {
        return None;
    }
    let extents = table.extents().to_vec();
    let mut report = FormulaReport {
        function: "G".to_string(),
        coordinates: table.coordinates().to_vec(),
        from: 0,
        extents: extents.clone(),
        formula: None,
        tried: BOX_FAMILIES.to_vec(),
        note: None,
    };
    for from in [0, 1] {
        if extents.iter().any(|&e| e < from + MIN_VALUES as u64 / 2) {
            if from == 0 {
                report.note = Some(format!(
                    "too small a box (fewer than {} values along a coordinate)",
                    MIN_VALUES / 2
                ));
            }
            break;
        }
        if let Some(found) = fit_box(table, from) {
            report.from = from;
            report.formula = Some(found);
            break;
        }
    }
    Some(report)
}

/// The two-coordinate families in order on the positions with both coordinates `≥ from`.
fn fit_box(table: &BoxTable, from: u64) -> Option<Formula> {
    let [w, h] = [table.extents()[0], table.extents()[1]];
    let g = |x: u64, y: u64| u64::from(table.get(&[x, y]).expect("in the box"));
    let column = |y: u64| -> Vec<u64> { (from..=w).map(|x| g(x, y)).collect() };
    let row = |x: u64| -> Vec<u64> { (from..=h).map(|y| g(x, y)).collect() };
    let holds = |f: &Formula| holds_on(f, table, from);
    let boxed = |f: Formula| Box::new(f);
    let mut candidates: Vec<Formula> = vec![Formula::Constant {
        value: g(from, from),
    }];
    // Polynomials mod k: only when every value is below k; the cheap corner first.
    let max = table.max_value() as u64;
    for k in 2..=MAX_POLY_MODULUS {
        if max >= k {
            continue;
        }
        for code in 1..k.pow(4) {
            let c = [code % k, code / k % k, code / k / k % k, code / k / k / k];
            candidates.push(Formula::PolynomialMod {
                modulus: k,
                coefficients: c,
            });
        }
    }
    let corner = g(from, from);
    let (first_column, first_row) = (column(from), row(from));
    let xor_row: Vec<u64> = first_row.iter().map(|v| v ^ corner).collect();
    let xor_column: Vec<u64> = first_column.iter().map(|v| v ^ corner).collect();
    for (left, right) in [(&first_column, &xor_row), (&xor_column, &first_row)] {
        if let (Some(f), Some(gg)) = (simple(from, left), simple(from, right)) {
            candidates.push(Formula::Bitwise {
                op: BitOp::Xor,
                left: boxed(f),
                right: boxed(gg),
            });
        }
    }
    if let (Some(f), Some(gg)) = (simple(from, &first_column), simple(from, &first_row)) {
        candidates.push(Formula::Bitwise {
            op: BitOp::Or,
            left: boxed(f),
            right: boxed(gg),
        });
    }
    candidates.push(Formula::Bitwise {
        op: BitOp::And,
        left: boxed(Formula::Identity),
        right: boxed(Formula::Identity),
    });
    candidates.push(Formula::NimProduct {
        left: boxed(Formula::Identity),
        right: boxed(Formula::Identity),
    });
    // Tartan: G(x, y) = f(x) ⊗ g(y), and with g(1) = 1 the column y = 1 is f.
    if from <= 1 && g(1, 1) == 1 {
        let one = |values: Vec<u64>| {
            if from == 0 {
                values[1..].to_vec()
            } else {
                values
            }
        };
        if let (Some(f), Some(gg)) = (simple(1, &one(column(1))), simple(1, &one(row(1)))) {
            candidates.push(Formula::NimProduct {
                left: boxed(f),
                right: boxed(gg),
            });
        }
    }
    candidates.into_iter().find(|f| holds(f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::mex::mex_of;

    fn names() -> Vec<String> {
        vec!["x".to_string(), "y".to_string()]
    }

    /// The nim product by its definition, `a ⊗ b = mex{a'⊗b ⊕ a⊗b' ⊕ a'⊗b'}` over
    /// `a' < a`, `b' < b` (Conway, ONAG ch. 6): the oracle of [`nim_product`].
    fn nim_products_by_mex(size: usize) -> Vec<Vec<u64>> {
        let mut t = vec![vec![0u64; size]; size];
        for a in 0..size {
            for b in 0..size {
                let options = (0..a).flat_map(|a2| (0..b).map(move |b2| (a2, b2)));
                let options: Vec<u32> = options
                    .map(|(a2, b2)| (t[a2][b] ^ t[a][b2] ^ t[a2][b2]) as u32)
                    .collect();
                t[a][b] = u64::from(mex_of(options));
            }
        }
        t
    }

    #[test]
    fn nim_products_match_the_known_table_and_the_definition() {
        // Winning Ways ch. 14 / ONAG ch. 6: 2⊗2 = 3, 2⊗3 = 1, 4⊗4 = 6, 8⊗8 = 13, 16⊗16 = 24.
        assert_eq!(nim_product(2, 2), 3);
        assert_eq!(nim_product(2, 3), 1);
        assert_eq!(nim_product(3, 3), 2);
        assert_eq!(nim_product(4, 4), 6);
        assert_eq!(nim_product(8, 8), 13);
        assert_eq!(nim_product(16, 16), 24);
        let table = nim_products_by_mex(32);
        for (a, row) in table.iter().enumerate() {
            for (b, &v) in row.iter().enumerate() {
                assert_eq!(nim_product(a as u64, b as u64), v, "{a} ⊗ {b}");
            }
        }
        // A field: commutative, associative, distributive over ⊕, with inverses.
        let samples = [
            3u64,
            77,
            1 << 20,
            0xdead_beef,
            u64::MAX,
            1 << 63,
            12345678901234,
        ];
        for &a in &samples {
            for &b in &samples {
                assert_eq!(nim_product(a, b), nim_product(b, a));
                for &c in &samples {
                    assert_eq!(
                        nim_product(nim_product(a, b), c),
                        nim_product(a, nim_product(b, c))
                    );
                    assert_eq!(nim_product(a, b ^ c), nim_product(a, b) ^ nim_product(a, c));
                }
            }
        }
        // 2^32 ⊗ 2^32 = 2^32 ⊕ 2^31 (a Fermat 2-power squared is its sesquimultiple).
        assert_eq!(nim_product(1 << 32, 1 << 32), (1 << 32) | (1 << 31));
    }

    fn naive(len: usize, options: impl Fn(&[u32], usize) -> Vec<u32>) -> Vec<u32> {
        let mut values = Vec::new();
        for n in 0..len {
            let o = options(&values, n);
            values.push(mex_of(o));
        }
        values
    }

    #[test]
    fn one_coordinate_families() {
        let find = |values: &[u32]| find_sequence("n", values).formula;
        // Nim (Bouton 1901).
        let nim: Vec<u32> = (0..100).collect();
        assert_eq!(find(&nim), Some(Formula::Identity));
        // Subtraction {1, 2, 3}: n mod 4 (Winning Ways ch. 4).
        let sub = naive(100, |v, n| (1..=3.min(n)).map(|t| v[n - t]).collect());
        assert_eq!(find(&sub), Some(Formula::Modulo { modulus: 4 }));
        // The divisor game (subtract a proper divisor): G(n) = ctz(n) for n ≥ 1, G(0) = 0.
        let divisor = naive(200, |v, n| {
            (1..n).filter(|d| n % d == 0).map(|d| v[n - d]).collect()
        });
        assert_eq!(
            find(&divisor),
            Some(Formula::Valuation {
                prime: 2,
                at_zero: 0
            })
        );
        let report = find_sequence("n", &divisor);
        assert_eq!(
            report.to_string(),
            "G(n) = ctz(n) for all 1 ≤ n ≤ 199, and G(0) = 0 (checked on every value, not proved beyond)"
        );
        // Lasker's Nim (Winning Ways ch. 4; OEIS A004396? no: values n, n+1, n−1 by class).
        let lasker = naive(200, |v, n| {
            let mut o: Vec<u32> = (1..=n).map(|t| v[n - t]).collect();
            o.extend((1..n).filter(|&a| 2 * a <= n).map(|a| v[a] ^ v[n - a]));
            o
        });
        let formula = find(&lasker).unwrap();
        assert!(matches!(formula, Formula::ResidueLinear { modulus: 4, .. }));
        assert_eq!(
            formula.to_string(),
            "G(n) = n − 1 if n ≡ 0, n if n ≡ 1 or 2, n + 1 if n ≡ 3 (mod 4) for n ≥ 1; G(0) = 0"
        );
        // Popcount, ⌊n/3⌋, n ⊕ 1, a short period with a prefix.
        let pop: Vec<u32> = (0..64u32).map(|n| n.count_ones()).collect();
        assert_eq!(find(&pop), Some(Formula::Popcount));
        let third: Vec<u32> = (0..64).map(|n| n / 3).collect();
        assert_eq!(find(&third), Some(Formula::Quotient { divisor: 3 }));
        let xor: Vec<u32> = (0..64).map(|n| n ^ 1).collect();
        assert_eq!(find(&xor), Some(Formula::XorConstant { constant: 1 }));
        let mut periodic: Vec<u32> = vec![5, 4];
        periodic.extend((0..60).map(|i| [0, 1, 2][i % 3]));
        let formula = find(&periodic).unwrap();
        assert!(holds_on_sequence(
            &formula,
            0,
            &periodic.iter().map(|&v| u64::from(v)).collect::<Vec<_>>()
        ));
        assert_eq!(
            formula.to_string(),
            "G(n) = (1, 2, 0)[n mod 3] for n ≥ 2; G(0..2) = (5, 4)"
        );
        // Different slopes on the classes: G(2m) = m, G(2m + 1) = 3m + 1.
        let slopes: Vec<u32> = (0..80)
            .map(|n| if n % 2 == 0 { n / 2 } else { 3 * (n / 2) + 1 })
            .collect();
        let formula = find(&slopes).unwrap();
        assert_eq!(
            formula.rule(&["n"]),
            "⌊n/2⌋ if n ≡ 0, 3⌊n/2⌋ + 1 if n ≡ 1 (mod 2)"
        );
    }

    #[test]
    fn games_without_a_closed_form_get_none() {
        // Grundy's game (OEIS A002188): no period known, no formula.
        let grundy = naive(300, |v, n| {
            (1..n)
                .filter(|&a| 2 * a < n)
                .map(|a| v[a] ^ v[n - a])
                .collect()
        });
        let report = find_sequence("n", &grundy);
        assert_eq!(report.formula, None);
        assert!(report
            .to_string()
            .starts_with("no closed form found for G(n) among: constant, n,"));
        // Kayles (OEIS A002186): period 12 from n = 72, too long a preperiod for a list.
        let kayles = naive(400, |v, n| {
            let mut o = Vec::new();
            for take in 1..=2.min(n) {
                for a in 0..=(n - take) {
                    o.push(v[a] ^ v[n - take - a]);
                }
            }
            o
        });
        let report = find_sequence("n", &kayles);
        assert_eq!(report.formula, None);
        assert!(
            report
                .note
                .as_deref()
                .unwrap()
                .contains("period 12 from n ≥ 71"),
            "{report}"
        );
    }

    #[test]
    fn two_coordinate_families() {
        let find = |table: &BoxTable| find_box(table).unwrap();
        // Two-heap Nim: x ⊕ y (Bouton 1901).
        let nim = BoxTable::from_fn(names(), vec![20, 20], |p| (p[0] ^ p[1]) as u32);
        let report = find(&nim);
        assert_eq!(report.formula.as_ref().unwrap().rule(&["x", "y"]), "x ⊕ y");
        // The chocolate bar: (xy − 1) mod 2 for x, y ≥ 1; the zero row and column are 0.
        let bar = BoxTable::from_fn(names(), vec![12, 12], |p| {
            if p[0] == 0 || p[1] == 0 {
                0
            } else {
                ((p[0] * p[1] - 1) % 2) as u32
            }
        });
        let report = find(&bar);
        assert_eq!(report.from, 1);
        assert_eq!(
            report.formula.as_ref().unwrap().rule(&["a", "b"]),
            "(a·b − 1) mod 2"
        );
        assert!(
            report
                .to_string()
                .contains("for all 1 ≤ x ≤ 12, 1 ≤ y ≤ 12"),
            "{report}"
        );
        // (x + y) mod 3, x AND y, nim products, (x mod 2) ⊕ popcount(y).
        let sum = BoxTable::from_fn(names(), vec![10, 10], |p| ((p[0] + p[1]) % 3) as u32);
        assert_eq!(
            find(&sum).formula.unwrap().rule(&["x", "y"]),
            "(x + y) mod 3"
        );
        let and = BoxTable::from_fn(names(), vec![15, 15], |p| (p[0] & p[1]) as u32);
        assert_eq!(find(&and).formula.unwrap().rule(&["x", "y"]), "x AND y");
        let product = BoxTable::from_fn(names(), vec![15, 15], |p| nim_product(p[0], p[1]) as u32);
        assert_eq!(find(&product).formula.unwrap().rule(&["x", "y"]), "x ⊗ y");
        let tartan = BoxTable::from_fn(names(), vec![15, 15], |p| {
            nim_product(p[0] % 3, u64::from(p[1].count_ones())) as u32
        });
        let f = find(&tartan).formula.unwrap();
        assert!(holds_on(&f, &tartan, 0), "{f}");
        assert_eq!(f.rule(&["x", "y"]), "(x mod 3) ⊗ popcount(y)");
        let mixed = BoxTable::from_fn(names(), vec![15, 15], |p| {
            ((p[0] % 2) ^ u64::from(p[1].count_ones())) as u32
        });
        assert_eq!(
            find(&mixed).formula.unwrap().rule(&["x", "y"]),
            "(x mod 2) ⊕ popcount(y)"
        );
        // Wythoff's game: none of them.
        let wythoff = crate::analysis::patterns::tests::wythoff(40);
        assert_eq!(find(&wythoff).formula, None);
    }

    proptest::proptest! {
        /// Any formula reported holds on every value: checked here by evaluating it at every
        /// position, independently of the fitters.
        #[test]
        fn reported_sequence_formulas_hold_everywhere(
            prefix in proptest::collection::vec(0u32..4, 0..6),
            cycle in proptest::collection::vec(0u32..4, 1..5),
            saltus in 0u32..3,
            len in 0usize..80,
        ) {
            let p = cycle.len();
            let values: Vec<u32> = prefix.iter().copied()
                .chain((0..).map(|i: usize| cycle[i % p] + saltus * (i / p) as u32))
                .take(len)
                .collect();
            let report = find_sequence("n", &values);
            if let Some(f) = &report.formula {
                for (n, &v) in values.iter().enumerate() {
                    proptest::prop_assert_eq!(f.eval(&[n as u64]), u64::from(v), "{} at {}", f, n);
                }
            }
        }

        #[test]
        fn reported_box_formulas_hold_everywhere(
            width in 0u64..12,
            height in 0u64..12,
            seed in 0u64..50,
            kind in 0u8..4,
        ) {
            let table = BoxTable::from_fn(names(), vec![width, height], |p| {
                let (x, y) = (p[0], p[1]);
                (match kind {
                    0 => (x * 31 + y * 17 + seed) % 5 % 3,
                    1 => (x ^ y) % (seed % 4 + 2),
                    2 => (x * y + seed) % 2,
                    _ => nim_product(x, y % (seed + 1)),
                }) as u32
            });
            let report = find_box(&table).unwrap();
            if let Some(f) = &report.formula {
                for (position, v) in table.iter() {
                    if position.iter().all(|&c| c >= report.from) {
                        proptest::prop_assert_eq!(f.eval(&position), u64::from(v), "{} at {:?}", f, position);
                    }
                }
            }
        }
    }
}
