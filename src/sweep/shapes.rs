//! What one instance's values look like, as a [`Shape`] the fitter can read: a closed form of
//! `G` (`n mod m`, `⌊n/d⌋ mod m`, …) and the set of P-positions (`n mod m ∈ [lo, hi)`,
//! `n < c`), each checked on every value computed, and proved for every `n` when the
//! instance's period is proved and the check covers a common period of both.

use crate::analysis::PeriodReport;

use super::fit::{Affine, Shape};

/// A shape found on one instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The shape.
    pub shape: Shape,
    /// It holds for every `n ≥ 0`, not only the values computed: the instance's period is
    /// proved (saltus 0) and the shape was checked on `0..preperiod + lcm(period, its own
    /// period)` (a period of both from there on).
    pub every_n: bool,
}

/// Kinds of closed forms of `G`, with their constants.
pub mod kind {
    /// `G(n) = c`: `[c]`.
    pub const CONSTANT: &str = "constant";
    /// `G(n) = n`: `[]`.
    pub const IDENTITY: &str = "identity";
    /// `G(n) = n mod m`: `[m]`.
    pub const MOD: &str = "mod";
    /// `G(n) = ⌊n/d⌋ mod m`: `[d, m]`.
    pub const DIV_MOD: &str = "div_mod";
    /// `G(n) = ⌊n/d⌋`: `[d]`.
    pub const DIV: &str = "div";
    /// P-positions: `lo ≤ n mod m < hi`: `[m, lo, hi]`.
    pub const RESIDUES: &str = "residues";
    /// P-positions: `n < c`: `[c]`.
    pub const BELOW: &str = "below";
    /// A number (period, preperiod, saltus): `[v]`.
    pub const NUMBER: &str = "number";
    /// A position game's P-positions: in every binary digit, the number of coordinates with
    /// a 1 is divisible by `m` (Moore's Nim_{m−1}; `m = 2` is Nim): `[m]`.
    pub const MOORE: &str = "moore";
    /// A position game's P-positions: Wythoff's pairs `{⌊kφ⌋, ⌊kφ²⌋}`: `[]`.
    pub const WYTHOFF: &str = "wythoff";
}

fn shape(kind: &'static str, constants: &[u64]) -> Shape {
    Shape {
        kind,
        constants: constants.iter().map(|&c| c as i64).collect(),
    }
}

/// The closed form of `G` over the whole table, if one of the kinds holds on every value.
/// The kinds need two full cycles of evidence (`len ≥ 2m`, `len ≥ 2dm`).
pub fn g_form(values: &[u32], report: &PeriodReport) -> Option<Found> {
    let len = values.len() as u64;
    let at = |n: u64| u64::from(values[n as usize]);
    if len < 8 {
        return None;
    }
    let holds = |f: &dyn Fn(u64) -> u64| (0..len).all(|n| at(n) == f(n));
    let first_nonzero = (0..len).find(|&n| at(n) != 0);
    let found = if holds(&|_| at(0)) {
        Some((shape(kind::CONSTANT, &[at(0)]), 1, 0))
    } else if holds(&|n| n) {
        Some((shape(kind::IDENTITY, &[]), 0, 0))
    } else if first_nonzero == Some(1) {
        // n mod m: the first zero after 0 is m.
        let m = (1..len).find(|&n| at(n) == 0)?;
        (len >= 2 * m && holds(&|n| n % m)).then(|| (shape(kind::MOD, &[m]), m, 0))
    } else {
        let d = first_nonzero?;
        match (1..)
            .map(|q| q * d)
            .take_while(|&n| n < len)
            .find(|&n| at(n) == 0)
        {
            Some(zero) => {
                let m = zero / d;
                (len >= 2 * d * m && holds(&|n| (n / d) % m))
                    .then(|| (shape(kind::DIV_MOD, &[d, m]), d * m, 0))
            }
            None => (len >= 4 * d && holds(&|n| n / d)).then(|| (shape(kind::DIV, &[d]), 0, 0)),
        }
    };
    let (shape, own_period, own_start) = found?;
    Some(Found {
        every_n: covers_a_common_period(report, len, own_period, own_start),
        shape,
    })
}

/// The P-positions over the whole table as a shape: `n < c` (none from `c` on) or
/// `lo ≤ n mod m < hi` for the smallest `m` the indicator repeats with, seen at least twice.
pub fn p_set(values: &[u32], report: &PeriodReport) -> Option<Found> {
    let zero: Vec<bool> = values.iter().map(|&v| v == 0).collect();
    let len = zero.len() as u64;
    if len < 8 {
        return None;
    }
    let last_zero = zero.iter().rposition(|&z| z)? as u64;
    if zero[..=last_zero as usize].iter().all(|&z| z) && len >= 2 * (last_zero + 1) {
        let c = last_zero + 1;
        return Some(Found {
            shape: shape(kind::BELOW, &[c]),
            every_n: covers_a_common_period(report, len, 1, c),
        });
    }
    let m = smallest_period(&zero) as u64;
    if len < 2 * m {
        return None;
    }
    let residues: Vec<u64> = (0..m).filter(|&r| zero[r as usize]).collect();
    let (lo, hi) = (*residues.first()?, *residues.last()? + 1);
    if residues.len() as u64 != hi - lo {
        return None;
    }
    Some(Found {
        shape: shape(kind::RESIDUES, &[m, lo, hi]),
        every_n: covers_a_common_period(report, len, m, 0),
    })
}

/// The smallest `m` with `bits[n] = bits[n + m]` for every `n` (the prefix function).
fn smallest_period(bits: &[bool]) -> usize {
    let mut border = vec![0usize; bits.len()];
    for i in 1..bits.len() {
        let mut k = border[i - 1];
        while k > 0 && bits[i] != bits[k] {
            k = border[k - 1];
        }
        if bits[i] == bits[k] {
            k += 1;
        }
        border[i] = k;
    }
    bits.len() - border.last().copied().unwrap_or(0)
}

/// Whether a shape periodic with `own_period` from `own_start` (0: not periodic), checked on
/// `0..len`, holds for every `n` given the instance's proved period.
fn covers_a_common_period(
    report: &PeriodReport,
    len: u64,
    own_period: u64,
    own_start: u64,
) -> bool {
    let (Some(pre), Some(p), true) = (report.preperiod, report.period, report.proved) else {
        return false;
    };
    if report.saltus.unwrap_or(0) != 0 || own_period == 0 {
        return false;
    }
    let p = p as u64;
    let common = p / gcd(p, own_period);
    let Some(common) = common.checked_mul(own_period) else {
        return false;
    };
    (pre as u64).max(own_start).saturating_add(common) <= len
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A fitted shape in math notation, with its constants' formulas over `names`: `n mod (k + 1)`,
/// `n ≡ 0 (mod k + 1)`, `n < L`, `2·a`.
pub fn render(kind: &str, constants: &[Affine], names: &[String]) -> String {
    let atom = |a: &Affine| {
        let text = a.render(names);
        if a.is_atom() {
            text
        } else {
            format!("({text})")
        }
    };
    let plain = |a: &Affine| a.render(names);
    match (kind, constants) {
        (kind::CONSTANT, [c]) | (kind::NUMBER, [c]) => plain(c),
        (kind::IDENTITY, _) => "n".to_string(),
        (kind::MOD, [m]) => format!("n mod {}", atom(m)),
        (kind::DIV, [d]) => format!("⌊n/{}⌋", atom(d)),
        (kind::DIV_MOD, [d, m]) => format!("⌊n/{}⌋ mod {}", atom(d), atom(m)),
        (kind::BELOW, [c]) => format!("n < {}", plain(c)),
        (kind::MOORE, [m]) => format!(
            "in every binary digit, the number of coordinates with a 1 is divisible by {}",
            plain(m)
        ),
        (kind::WYTHOFF, _) => "Wythoff's pairs {⌊kφ⌋, ⌊kφ²⌋}".to_string(),
        (kind::RESIDUES, [m, lo, hi]) => {
            let width = Affine {
                constant: hi.constant - lo.constant,
                coefficients: hi
                    .coefficients
                    .iter()
                    .zip(&lo.coefficients)
                    .map(|(h, l)| h - l)
                    .collect(),
            };
            if width.coefficients.iter().all(|&c| c == 0) && width.constant == 1 {
                format!("n ≡ {} (mod {})", plain(lo), plain(m))
            } else if lo.coefficients.iter().all(|&c| c == 0) && lo.constant == 0 {
                format!("n mod {} < {}", atom(m), plain(hi))
            } else {
                format!("{} ≤ n mod {} < {}", plain(lo), atom(m), plain(hi))
            }
        }
        (other, constants) => {
            let listed: Vec<String> = constants.iter().map(plain).collect();
            format!("{other}({})", listed.join(", "))
        }
    }
}

/// A shape's value at `n` given its constants evaluated at an instance: `G(n)` for the forms
/// of `G`, 1 for a P-position and 0 otherwise for P-sets. `None` on a constant out of range.
pub fn eval(kind: &str, constants: &[i64], n: u64) -> Option<u64> {
    let c = |i: usize| -> Option<u64> { u64::try_from(*constants.get(i)?).ok() };
    Some(match kind {
        kind::CONSTANT | kind::NUMBER => c(0)?,
        kind::IDENTITY => n,
        kind::MOD => n % c(0).filter(|&m| m > 0)?,
        kind::DIV => n / c(0).filter(|&d| d > 0)?,
        kind::DIV_MOD => (n / c(0).filter(|&d| d > 0)?) % c(1).filter(|&m| m > 0)?,
        kind::BELOW => u64::from(n < c(0)?),
        kind::RESIDUES => {
            let r = n % c(0).filter(|&m| m > 0)?;
            u64::from(c(1)? <= r && r < c(2)?)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis;
    use crate::engine::SgTable;

    fn report(values: &[u32]) -> PeriodReport {
        let table = SgTable::from_values(values);
        analysis::report_for_table("test", None, &table)
    }

    #[test]
    fn forms_of_g_are_found_and_checked_on_every_value() {
        let bash: Vec<u32> = (0..40).map(|n| n % 5).collect();
        let found = g_form(&bash, &report(&bash)).unwrap();
        assert_eq!(found.shape, shape(kind::MOD, &[5]));
        let pairs: Vec<u32> = (0..60).map(|n| (n / 2) % 3).collect();
        assert_eq!(
            g_form(&pairs, &report(&pairs)).unwrap().shape,
            shape(kind::DIV_MOD, &[2, 3])
        );
        let mut broken = bash.clone();
        broken[37] = 4;
        assert_eq!(g_form(&broken, &report(&broken)), None);
    }

    #[test]
    fn p_sets_below_and_residue_intervals() {
        // {2, 5}: 0 0 1 1 0 2 1 repeating; P-positions n mod 7 ∈ {0, 1, 4}: not an interval.
        let two_five: Vec<u32> = (0..70).map(|n| [0, 0, 1, 1, 0, 2, 1][n % 7]).collect();
        assert_eq!(p_set(&two_five, &report(&two_five)), None);
        // {2, 3}: 0 0 1 1 2 repeating: n mod 5 < 2.
        let two_three: Vec<u32> = (0..50).map(|n| [0, 0, 1, 1, 2][n % 5]).collect();
        assert_eq!(
            p_set(&two_three, &report(&two_three)).unwrap().shape,
            shape(kind::RESIDUES, &[5, 0, 2])
        );
        let below: Vec<u32> = (0..40).map(|n| u32::from(n >= 3)).collect();
        assert_eq!(
            p_set(&below, &report(&below)).unwrap().shape,
            shape(kind::BELOW, &[3])
        );
    }

    #[test]
    fn renders_the_fitted_shapes() {
        let names = vec!["k".to_string()];
        let k_plus_1 = Affine {
            constant: 1,
            coefficients: vec![1],
        };
        let zero = Affine {
            constant: 0,
            coefficients: vec![0],
        };
        let one = Affine {
            constant: 1,
            coefficients: vec![0],
        };
        assert_eq!(
            render(kind::MOD, std::slice::from_ref(&k_plus_1), &names),
            "n mod (k + 1)"
        );
        assert_eq!(
            render(kind::RESIDUES, &[k_plus_1, zero, one], &names),
            "n ≡ 0 (mod k + 1)"
        );
    }
}
