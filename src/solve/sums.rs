//! Sums at any size: a heap game's sum of many components, or of heaps far past any table,
//! valued component by component from a **proof** about the game's values, and its winning
//! moves found from the same proof, without listing every move.
//!
//! * Nim (the code `0.[3]`): `G(n) = n` (Bouton 1901); the one winning move of a heap `h`, when
//!   there is one, leaves `h ⊕ X` (`X` the sum's value).
//! * A finite code without modifiers whose moves leave at most two heaps: its period, found and
//!   **proved** by [`crate::analysis::find_period`] (the periodicity theorem,
//!   [`crate::theory::periodicity`]: `G(n + p) = G(n)` checked for `n0 ≤ n < B` holds for every
//!   `n ≥ n0`), computing only the table the proof needs. `G(n)` past the table is
//!   `G(n0 + (n − n0) mod p)`. When no proof closes within [`PERIOD_SEARCH_MAX`] values and
//!   every heap lies in the table, the table's exact values are used instead; a heap past an
//!   unproved table is never valued (the caller refuses, with the reason).
//!
//! The winning moves of a component `h` are its options of value `G(h) ⊕ X` (Sprague 1935,
//! Grundy 1939: a sum's value is the XOR of its components'). For each `k` whose digit allows
//! it: the heap removed (`k = h`), the heap `h − k`, and the splits `a + b = h − k`. Where both
//! `a` and `b` are past the preperiod, `G(a) ⊕ G(b)` depends only on `a mod p`, so the winning
//! splits are a few arithmetic progressions, counted exactly and listed from the smallest `a`,
//! at most [`MOVES_PER_COMPONENT`] per component.

use serde::Serialize;

use super::moves::{label, Listed, RuleOf};
use super::{Method, Outcome, SolveError, SolveReport};
use crate::analysis::proof::{Certificate, Theorem};
use crate::analysis::{find_period, Periodicity};
use crate::engine::{EngineOptions, Nimber};
use crate::rules::code::{Modifier, Notation};
use crate::rules::{Game, TakeBreakCode};

/// The longest table the period search may compute to prove a period (`G(0..=2^20)`: a few
/// seconds for the hardest octal codes of three digits).
pub const PERIOD_SEARCH_MAX: u64 = 1 << 20;

/// At most this many winning moves of one component are listed; the rest are counted
/// ([`CappedMoves`]).
pub const MOVES_PER_COMPONENT: usize = 100;

/// At most this many winning moves are listed in all (a sum of 10^5 Nim heaps has at most one
/// per component, so all of them); past it, the components' moves are only counted.
pub const MOVES_LISTED: usize = 100_000;

/// Values of `G` read while searching the splits of every component (about a second); the
/// components left when it is spent are not searched ([`Method::Proved`]'s `unsearched_from`).
pub const SPLIT_WORK: u64 = 200_000_000;

/// Below this sum of the heaps (and for heaps whose moves are listed), `solve` lists every
/// move of every component from the table instead ([`listing_is_heavy`]).
pub const LISTING_WORK: u64 = 1 << 20;

/// How the components' values were known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Valuation {
    /// The game is Nim (the code `0.[3]`): `G(n) = n`, Bouton 1901.
    Nim {
        /// The code, as written.
        code: String,
    },
    /// A period proved by a theorem: `G(n + period) = G(n)` for every `n ≥ preperiod`.
    Period {
        /// The code, as written.
        code: String,
        /// `n0`.
        preperiod: usize,
        /// `p`.
        period: usize,
        /// Values `G(0..computed)` computed for the proof.
        computed: usize,
        /// The theorem and what it checked, in words.
        proof: String,
    },
    /// Exact values of a table holding every heap of the sum (no period was proved in it).
    Table {
        /// The code, as written.
        code: String,
        /// Values `G(0..computed)` computed.
        computed: usize,
    },
}

/// A component with more winning moves than are listed: more than [`MOVES_PER_COMPONENT`],
/// or past [`MOVES_LISTED`] in all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CappedMoves {
    /// The component (0-based).
    pub component: usize,
    /// Its winning moves, all counted (saturating at `u64::MAX`).
    pub total: u64,
    /// How many of them are listed (the first ones).
    pub listed: usize,
}

/// `G(n)` for every heap `n`, by a proof or from a table.
enum Values {
    Nim,
    Periodic {
        prefix: Vec<u32>,
        periodicity: Periodicity,
    },
    Table(Vec<u32>),
}

impl Values {
    /// `G(n)`; `None` for a heap past an unproved table, or a value past `u32`.
    fn get(&self, n: u64) -> Option<u32> {
        match self {
            Values::Nim => u32::try_from(n).ok(),
            Values::Table(table) => usize::try_from(n).ok().and_then(|n| table.get(n).copied()),
            Values::Periodic {
                prefix,
                periodicity:
                    Periodicity {
                        preperiod, period, ..
                    },
            } => Some(match usize::try_from(n) {
                Ok(n) if n < prefix.len() => prefix[n],
                _ => {
                    let offset = (n - *preperiod as u64) % *period as u64;
                    prefix[*preperiod + offset as usize]
                }
            }),
        }
    }
}

/// Nim's code, `0.[3]` (any positive number of tokens from one heap).
pub fn is_nim(code: &TakeBreakCode) -> bool {
    TakeBreakCode::parse("0.[3]", Notation::General, 0)
        .is_ok_and(|nim| nim.normalized() == code.normalized())
}

/// Whether listing every move of every component from a table would be heavy: a heap past
/// those whose moves [`super::moves`] lists, or heaps adding up past [`LISTING_WORK`].
pub fn listing_is_heavy(code: &TakeBreakCode, components: &[Vec<u64>]) -> bool {
    let largest = components.iter().map(|c| c[0]).max().unwrap_or(0);
    let total = components.iter().fold(0u64, |a, c| a.saturating_add(c[0]));
    largest > super::moves::listable_heap(code.max_heaps()) || total > LISTING_WORK
}

/// Why the moves of `code` are not searched from a period: `None` when they are (a finite code
/// without modifiers whose moves leave at most two heaps).
fn moves_not_searched(code: &TakeBreakCode) -> Option<String> {
    if let Err(why) = Theorem::for_code(code) {
        return Some(format!("no theorem proves a period of its values: {why}"));
    }
    let code = code.normalized();
    if code.max_heaps().is_none_or(|h| h > 2) {
        return Some(
            "its moves may leave three or more heaps, whose splits are not searched from a period"
                .to_string(),
        );
    }
    if code.has_modifiers() || code.digit(0).heaps.allows(1) {
        return Some("its digits carry modifiers".to_string());
    }
    None
}

/// The sum of heaps `components` of `game` valued by a proof (Nim's closed form, a proved
/// period) or by a table holding every heap, with its winning moves: `Ok(Err(why))` when
/// neither applies (no code, a code this path does not cover, no period proved and a heap
/// past the table).
pub fn solve_by_proof(
    game: &Game,
    components: &[Vec<u64>],
) -> Result<Result<SolveReport, String>, SolveError> {
    let Some(code) = game.code() else {
        return Ok(Err(
            "its rules are not a take-and-break code, so no theorem proves a period of its values"
                .to_string(),
        ));
    };
    let largest = components.iter().map(|c| c[0]).max().unwrap_or(0);
    let (values, valuation) = if is_nim(code) {
        if largest > u64::from(u32::MAX) {
            return Ok(Err(format!(
                "its values are G(n) = n (Nim, Bouton 1901), and heap {largest}'s is past 2^32 − 1, \
                 the largest value solve represents"
            )));
        }
        (
            Values::Nim,
            Valuation::Nim {
                code: code.to_string(),
            },
        )
    } else {
        if let Some(why) = moves_not_searched(code) {
            return Ok(Err(why));
        }
        let max = largest.min(PERIOD_SEARCH_MAX);
        let (table, report) = match find_period(game, max, &EngineOptions::default()) {
            Ok(found) => found,
            Err(e) => return Ok(Err(format!("the period search failed: {e}"))),
        };
        let prefix = table.to_vec();
        match (&report.certificate, report.periodicity()) {
            (
                Some(Certificate::Proved {
                    theorem, checked, ..
                }),
                Some(periodicity),
            ) if periodicity.saltus == 0 && periodicity.period > 0 => {
                let valuation = Valuation::Period {
                    code: code.to_string(),
                    preperiod: periodicity.preperiod,
                    period: periodicity.period,
                    computed: prefix.len(),
                    proof: format!("{theorem}: {checked}"),
                };
                (
                    Values::Periodic {
                        prefix,
                        periodicity,
                    },
                    valuation,
                )
            }
            _ if (largest as u128) < prefix.len() as u128 => {
                let computed = prefix.len();
                (
                    Values::Table(prefix),
                    Valuation::Table {
                        code: code.to_string(),
                        computed,
                    },
                )
            }
            _ => {
                return Ok(Err(format!(
                    "no period of its values was proved in G(0..={}), and heap {largest} is past \
                     that table",
                    prefix.len().saturating_sub(1)
                )))
            }
        }
    };
    let heap_values: Vec<u32> = components
        .iter()
        .map(|c| values.get(c[0]).expect("every heap is valued"))
        .collect();
    let total = heap_values.iter().sum::<Nimber>();
    let mut winning_moves = Vec::new();
    let mut capped = Vec::new();
    let mut unsearched_from = None;
    let mut work = 0u64;
    if !total.is_zero() {
        let code = code.normalized();
        for (i, (c, &v)) in components.iter().zip(&heap_values).enumerate() {
            if work > SPLIT_WORK {
                unsearched_from = Some(i);
                break;
            }
            let target = (total + v).value();
            let found = match values {
                Values::Nim => nim_move(c[0], target),
                _ => code_moves_to(&code, &values, c[0], target, &mut work),
            };
            let listed = found
                .listed
                .len()
                .min(MOVES_LISTED.saturating_sub(winning_moves.len()));
            if found.total > listed as u64 {
                capped.push(CappedMoves {
                    component: i,
                    total: found.total,
                    listed,
                });
            }
            for (take, result) in found.listed.into_iter().take(listed) {
                winning_moves.push(label(
                    game,
                    i,
                    Listed {
                        rule: RuleOf::Code,
                        binders: &[take as i64],
                        result: &result,
                    },
                ));
            }
        }
    }
    Ok(Ok(SolveReport {
        coordinates: game.coordinates(),
        components: components.to_vec(),
        value: Some(total.value()),
        outcome: Outcome::of_value(total.value()),
        winning_moves,
        method: Method::Proved {
            valuation,
            lowered: game.lowering().is_some(),
            capped,
            unsearched_from,
        },
        search: None,
        genus: None,
        misere: false,
    }))
}

/// The winning moves of one component: the first [`MOVES_PER_COMPONENT`] (tokens taken, heaps
/// left) and how many there are.
#[derive(Default)]
struct Found {
    listed: Vec<(u64, Vec<u64>)>,
    total: u64,
}

impl Found {
    fn push(&mut self, take: u64, result: Vec<u64>) {
        self.total = self.total.saturating_add(1);
        if self.listed.len() < MOVES_PER_COMPONENT {
            self.listed.push((take, result));
        }
    }

    fn room(&self) -> usize {
        MOVES_PER_COMPONENT - self.listed.len()
    }
}

/// Nim: the heap `h` moves to `target` when `target < h` (the only option of that value).
fn nim_move(h: u64, target: u32) -> Found {
    let mut found = Found::default();
    let t = u64::from(target);
    if t < h {
        found.push(h - t, if t == 0 { vec![] } else { vec![t] });
    }
    found
}

/// The options of heap `n` of `code` (finite, no modifiers, at most two heaps left) of value
/// `target`, in the order [`crate::engine::moves::code_moves`] lists them: by tokens taken,
/// then heaps left, then the smaller heap of a split.
fn code_moves_to(
    code: &TakeBreakCode,
    values: &Values,
    n: u64,
    target: u32,
    work: &mut u64,
) -> Found {
    let g = |m: u64| {
        values
            .get(m)
            .expect("every heap below a valued one is valued")
    };
    let mut found = Found::default();
    let last = code.digits.len() as u64;
    for k in 0..last.min(n.saturating_add(1)) {
        let digit = code.digit(k as usize);
        debug_assert_eq!(digit.modifier, Modifier::None);
        let left = n - k;
        if left == 0 {
            if k >= 1 && digit.heaps.allows(0) && target == 0 {
                found.push(k, vec![]);
            }
            continue;
        }
        if k >= 1 && digit.heaps.allows(1) && g(left) == target {
            found.push(k, vec![left]);
        }
        if left >= 2 && digit.heaps.allows(2) {
            splits_to(values, k, left, target, &mut found, work);
        }
    }
    found
}

/// The splits `a + b = m` (`1 ≤ a ≤ b`) with `G(a) ⊕ G(b) = target`, after taking `k`.
fn splits_to(values: &Values, k: u64, m: u64, target: u32, found: &mut Found, work: &mut u64) {
    let g = |a: u64| {
        values
            .get(a)
            .expect("every heap below a valued one is valued")
    };
    let half = m / 2;
    let direct = |from: u64, to: u64, found: &mut Found, work: &mut u64| {
        for a in from..=to {
            if g(a) ^ g(m - a) == target {
                found.push(k, vec![a, m - a]);
            }
        }
        *work += 2 * (to + 1).saturating_sub(from);
    };
    let (n0, p) = match values {
        Values::Periodic { periodicity, .. } => {
            (periodicity.preperiod as u64, periodicity.period as u64)
        }
        _ => return direct(1, half, found, work),
    };
    // Both heaps past the preperiod for `lo ≤ a ≤ m − n0`; when `half ≥ lo + p`, `m ≥ 2·n0`,
    // so every `a` in `lo..=half` is in that range and `G(a) ⊕ G(m − a)` has period `p` in `a`.
    let lo = n0.max(1);
    if half < lo + p {
        return direct(1, half, found, work);
    }
    direct(1, lo - 1, found, work);
    let residues: Vec<u64> = (lo..lo + p)
        .filter(|&a| g(a) ^ g(m - a) == target)
        .collect();
    *work += 2 * p;
    for &w in &residues {
        found.total = found.total.saturating_add((half - w) / p + 1);
    }
    // List the smallest `a` first: the progressions `w + j·p` merged, `j` outer.
    let mut room = found.room();
    let mut j = 0u64;
    'list: while room > 0 {
        let mut any = false;
        for &w in &residues {
            let Some(a) = j.checked_mul(p).and_then(|x| x.checked_add(w)) else {
                break 'list;
            };
            if a > half {
                break;
            }
            any = true;
            found.listed.push((k, vec![a, m - a]));
            room -= 1;
            if room == 0 {
                break 'list;
            }
        }
        if !any {
            break;
        }
        j += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::game;

    /// splitmix64: the tests' random numbers, from fixed seeds.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Every move of a heap `n` of the octal code with digit masks `digits` (`digits[k]`:
    /// bit `j`, leave `j` heaps after taking `k`; Guy & Smith 1956), as (taken, heaps left),
    /// by tokens taken, then heaps left, then the smaller heap of a split.
    fn octal_moves(digits: &[u64], n: u64) -> Vec<(u64, Vec<u64>)> {
        let mut moves = Vec::new();
        for (k, &mask) in digits.iter().enumerate().skip(1) {
            let k = k as u64;
            if k > n {
                break;
            }
            let left = n - k;
            if left == 0 && mask & 1 != 0 {
                moves.push((k, vec![]));
            }
            if left >= 1 && mask & 2 != 0 {
                moves.push((k, vec![left]));
            }
            if left >= 2 && mask & 4 != 0 {
                for a in 1..=left / 2 {
                    moves.push((k, vec![a, left - a]));
                }
            }
        }
        moves
    }

    /// `G(0..len)` by the definition: the mex of the options' values (XOR over the heaps left).
    fn brute(digits: &[u64], len: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::with_capacity(len);
        for n in 0..len as u64 {
            let mut seen = vec![false; n as usize + 2];
            for (_, left) in octal_moves(digits, n) {
                let v = left.iter().map(|&h| g[h as usize]).sum::<Nimber>().value() as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
            g.push(seen.iter().position(|s| !s).unwrap() as u32);
        }
        g
    }

    fn code_text(digits: &[u64]) -> String {
        let tail: String = digits[1..].iter().map(|d| d.to_string()).collect();
        format!("octal 0.{tail}")
    }

    /// Random octal codes and subtraction games, random sums of heaps up to 1500: the value
    /// and every winning move (or the first ones and their count, when capped) against the
    /// definition computed here.
    #[test]
    fn random_codes_against_the_definition() {
        const LEN: usize = 1501;
        let mut rng = Rng(2197);
        let mut proved = 0;
        for case in 0..40 {
            let length = 2 + rng.below(3) as usize;
            let digits: Vec<u64> = (0..length)
                .map(|k| match k {
                    0 => 0,
                    _ if case % 2 == 0 => [0, 3][rng.below(2) as usize],
                    _ => rng.below(8),
                })
                .collect();
            if digits[1..].iter().all(|&d| d == 0) {
                continue;
            }
            let g = brute(&digits, LEN);
            let game = game(&code_text(&digits));
            for _ in 0..6 {
                let count = 1 + rng.below(4) as usize;
                let heaps: Vec<Vec<u64>> =
                    (0..count).map(|_| vec![rng.below(LEN as u64)]).collect();
                let report = solve_by_proof(&game, &heaps).unwrap().unwrap();
                if matches!(
                    report.method,
                    Method::Proved {
                        valuation: Valuation::Period { .. },
                        ..
                    }
                ) {
                    proved += 1;
                }
                let total = heaps
                    .iter()
                    .map(|h| g[h[0] as usize])
                    .sum::<Nimber>()
                    .value();
                assert_eq!(report.value, Some(total), "{digits:?} {heaps:?}");
                let Method::Proved { capped, .. } = &report.method else {
                    panic!("{:?}", report.method)
                };
                let mut expected = Vec::new();
                let mut expected_capped = Vec::new();
                for (i, h) in heaps.iter().enumerate() {
                    let wanted = total ^ g[h[0] as usize];
                    let winning: Vec<(usize, i64, Vec<Vec<u64>>)> = octal_moves(&digits, h[0])
                        .into_iter()
                        .filter(|(_, left)| {
                            left.iter().map(|&x| g[x as usize]).sum::<Nimber>().value() == wanted
                        })
                        .map(|(k, left)| (i, k as i64, left.into_iter().map(|x| vec![x]).collect()))
                        .collect();
                    if total != 0 && winning.len() > MOVES_PER_COMPONENT {
                        expected_capped.push(CappedMoves {
                            component: i,
                            total: winning.len() as u64,
                            listed: MOVES_PER_COMPONENT,
                        });
                    }
                    if total != 0 {
                        expected.extend(winning.into_iter().take(MOVES_PER_COMPONENT));
                    }
                }
                let got: Vec<(usize, i64, Vec<Vec<u64>>)> = report
                    .winning_moves
                    .iter()
                    .map(|m| (m.component, m.binders[0].1, m.result.clone()))
                    .collect();
                assert_eq!(got, expected, "{digits:?} {heaps:?}");
                assert_eq!(capped, &expected_capped, "{digits:?} {heaps:?}");
            }
        }
        // Most sums went through a proved period, not only through tables.
        assert!(proved > 60, "{proved}");
    }

    /// Kayles (0.77): period 12 from n = 71 (Guy & Smith 1956; Winning Ways ch. 4). Heaps far
    /// past any table against the definition's values mapped through that period, and the
    /// listed splits of a huge heap checked move by move and against a scan from the smallest.
    #[test]
    fn kayles_far_past_the_table() {
        const LEN: usize = 400;
        let digits = [0, 7, 7];
        let g = brute(&digits, LEN);
        // The published period holds on the whole computed table from n = 71.
        assert!((71..LEN - 12).all(|n| g[n] == g[n + 12]));
        let value = |n: u64| -> u32 {
            if n < LEN as u64 {
                g[n as usize]
            } else {
                g[71 + ((n - 71) % 12) as usize]
            }
        };
        let game = game("octal 0.77");
        let mut rng = Rng(77);
        for _ in 0..200 {
            let count = 1 + rng.below(5) as usize;
            let heaps: Vec<Vec<u64>> = (0..count)
                .map(|_| match rng.below(3) {
                    0 => vec![rng.below(LEN as u64)],
                    1 => vec![rng.below(1 << 40)],
                    _ => vec![1_000_000_000_000_000_000 - rng.below(1000)],
                })
                .collect();
            let report = solve_by_proof(&game, &heaps).unwrap().unwrap();
            let total = heaps.iter().map(|h| value(h[0])).sum::<Nimber>().value();
            assert_eq!(report.value, Some(total), "{heaps:?}");
            let Method::Proved { capped, .. } = &report.method else {
                panic!("{:?}", report.method)
            };
            for (i, h) in heaps.iter().enumerate() {
                let n = h[0];
                let wanted = total ^ value(n);
                let listed: Vec<(i64, Vec<u64>)> = report
                    .winning_moves
                    .iter()
                    .filter(|m| m.component == i)
                    .map(|m| (m.binders[0].1, m.result.iter().map(|r| r[0]).collect()))
                    .collect();
                // Every listed move is legal and reaches the value wanted.
                for (take, left) in &listed {
                    assert!((1..=2).contains(take), "{take}");
                    assert_eq!(left.iter().sum::<u64>() + *take as u64, n);
                    assert!(left.len() <= 2 && left.iter().all(|&x| x > 0));
                    assert_eq!(
                        left.iter().map(|&x| value(x)).sum::<Nimber>().value(),
                        wanted
                    );
                }
                if total == 0 {
                    assert!(listed.is_empty());
                    continue;
                }
                // The moves in listing order (by tokens taken, heaps left, smaller heap) by a
                // scan from the smallest heap left, up to the cap or to a split of 5000.
                let key = |take: i64, left: &[u64]| (take, left.len(), left.first().copied());
                let mut scanned = Vec::new();
                let mut reach = None;
                'scan: for take in 1..=2u64.min(n) {
                    let left = n - take;
                    if left == 0 && wanted == 0 {
                        scanned.push((take as i64, vec![]));
                    }
                    if left >= 1 && value(left) == wanted {
                        scanned.push((take as i64, vec![left]));
                    }
                    for a in 1..=left / 2 {
                        if scanned.len() == MOVES_PER_COMPONENT {
                            reach = Some(key(take as i64, &[a, 0]));
                            break 'scan;
                        }
                        if a > 5000 {
                            reach = Some(key(take as i64, &[a, 0]));
                            break 'scan;
                        }
                        if value(a) ^ value(left - a) == wanted {
                            scanned.push((take as i64, vec![a, left - a]));
                        }
                    }
                }
                let before: Vec<(i64, Vec<u64>)> = listed
                    .iter()
                    .filter(|(t, l)| reach.is_none_or(|r| key(*t, l) < r))
                    .cloned()
                    .collect();
                assert_eq!(before, scanned, "{n}");
                match capped.iter().find(|c| c.component == i) {
                    Some(c) => {
                        assert_eq!(listed.len(), MOVES_PER_COMPONENT);
                        assert!(c.total > MOVES_PER_COMPONENT as u64);
                    }
                    None => assert!(listed.len() <= MOVES_PER_COMPONENT),
                }
                // Every winning move counted, for heaps small enough to list them here.
                if n < 3000 {
                    let all = octal_moves(&digits, n)
                        .into_iter()
                        .filter(|(_, l)| {
                            l.iter().map(|&x| value(x)).sum::<Nimber>().value() == wanted
                        })
                        .count() as u64;
                    let counted = capped
                        .iter()
                        .find(|c| c.component == i)
                        .map_or(listed.len() as u64, |c| c.total);
                    assert_eq!(counted, all, "{n}");
                }
            }
        }
    }

    #[test]
    fn nim_by_bouton() {
        let game = game("takebreak 0.[3]");
        let mut rng = Rng(1901);
        for _ in 0..100 {
            let heaps: Vec<Vec<u64>> = (0..1 + rng.below(50))
                .map(|_| vec![rng.below(1 << 32)])
                .collect();
            let report = solve_by_proof(&game, &heaps).unwrap().unwrap();
            let total = heaps.iter().fold(0, |a, h| a ^ h[0]);
            assert_eq!(report.value.map(u64::from), Some(total));
            let expected: Vec<(usize, Vec<Vec<u64>>)> = heaps
                .iter()
                .enumerate()
                .filter(|(_, h)| h[0] ^ total < h[0])
                .map(|(i, h)| {
                    let left = h[0] ^ total;
                    (i, if left == 0 { vec![] } else { vec![vec![left]] })
                })
                .collect();
            let got: Vec<(usize, Vec<Vec<u64>>)> = report
                .winning_moves
                .iter()
                .map(|m| (m.component, m.result.clone()))
                .collect();
            assert_eq!(got, expected);
        }
        let why = solve_by_proof(&game, &[vec![1 << 32]])
            .unwrap()
            .unwrap_err();
        assert!(why.contains("past 2^32 − 1"), "{why}");
    }

    #[test]
    fn unproved_heaps_past_the_table_are_refused() {
        // 0.6: no period is known (Winning Ways ch. 4 lists it among the unsolved octal
        // games); past the table the search computes, no value is given.
        let why = solve_by_proof(&game("octal 0.6"), &[vec![1 << 21]])
            .unwrap()
            .unwrap_err();
        assert!(why.contains("no period of its values was proved"), "{why}");
        let why = solve_by_proof(&game("takebreak 0.[7]"), &[vec![1 << 21]])
            .unwrap()
            .unwrap_err();
        assert!(why.contains("infinite"), "{why}");
    }
}
